/* cmd_list.c: `ssdsim list`: every registered plugin of each kind (FTL mapping schemes, GC
 * victim policies, wear levelers) with its summary and parameters, the way the model's
 * ftl/gc/wl sections name them. */
#include <stdio.h>
#include <string.h>

#include <ssdsim/sys/plugin.h>

#include "cli.h"
#include "plugin_load.h"

static const struct {
    ssdsim_plugin_kind kind;
    const char *title;
    const char *key;
} kinds[] = {
    {SSDSIM_PLUGIN_FTL, "FTL mapping schemes", "ftl.type"},
    {SSDSIM_PLUGIN_GC, "GC victim policies", "gc.policy"},
    {SSDSIM_PLUGIN_WL, "wear levelers", "wl.policy"},
};

int cli_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: ssdsim list [--plugin FILE.so]...\n\n"
                 "Print every registered FTL, GC policy and wear leveler with its summary and\n"
                 "parameters. A parameter is set as a key of the model's section, e.g.\n"
                 "  \"gc\": {\"policy\": \"d-choices\", \"d\": 10}   or   --set gc.d=10\n"
                 "The plugins of --plugin modules and of the plugin directory are listed too\n"
                 "(doc/plugins.md).");
            return 0;
        }
        const char *val;
        char name[64];
        cli_split_option(argv[i], name, sizeof name, &val);
        if (!strcmp(name, "--plugin")) {
            if (!val && i + 1 >= argc) {
                cli_error("list: option '--plugin' needs a value");
                return CLI_EXIT_USAGE;
            }
            if (cli_plugin_load(val ? val : argv[++i], 1))
                return CLI_EXIT_FAIL;
            continue;
        }
        cli_error("list: unknown option '%s' (see ssdsim list --help)", argv[i]);
        return CLI_EXIT_USAGE;
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        printf("%s (%s):\n", kinds[k].title, kinds[k].key);
        size_t n = ssdsim_plugin_count(kinds[k].kind);
        for (size_t i = 0; i < n; i++) {
            const char *name, *summary;
            const ssdsim_param *params;
            ssdsim_plugin_describe(kinds[k].kind, i, &name, &summary, &params);
            printf("  %-14s %s\n", name, summary);
            for (const ssdsim_param *p = params; p && p->key; p++)
                printf("  %-14s   %s: %s %s, default %.15g, range [%.15g, %.15g]\n", "", p->key,
                       p->type == SSDSIM_PARAM_INT ? "integer" : "number", p->help, p->def,
                       p->min, p->max);
        }
        if (k + 1 < sizeof kinds / sizeof kinds[0])
            putchar('\n');
    }
    /* Request sources exist only in modules: listed when there is one. */
    const ssdsim_source_ops *s = cli_plugin_source_at(0);
    if (s)
        printf("\nrequest sources (run --source NAME[:ARGS]):\n");
    for (size_t i = 0; (s = cli_plugin_source_at(i)); i++)
        printf("  %-14s %s\n", s->name, s->summary ? s->summary : "");
    return 0;
}
