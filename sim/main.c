/* main.c: the ssdsim command: dispatch to subcommands. With no arguments it runs the built-in
 * demo (a generic MLC drive from fresh to steady state under 4 KiB random writes). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ssdsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void usage(FILE *f)
{
    fputs("usage: ssdsim [COMMAND] [OPTIONS]\n"
          "\n"
          "Simulate a NAND-flash SSD under a workload.\n"
          "\n"
          "Commands:\n"
          "  demo      run the built-in default: a generic MLC drive driven from fresh to\n"
          "            steady state by 4 KiB random writes at 16 jobs x 16 queue depth\n"
          "            (also what `ssdsim` with no command does)\n"
          "  run       run a workload file on a model file\n"
          "  version   print the version\n"
          "  help      print this help\n"
          "\n"
          "`ssdsim COMMAND --help` describes a command's options.\n"
          "Documentation: doc/guide.md, doc/models.md, doc/results.md.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_demo(argc, argv);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return cli_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo"))
        return cli_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("ssdsim %s\n", ssdsim_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    cli_error("unknown command '%s' (commands: demo, run, version, help)", cmd);
    return CLI_EXIT_USAGE;
}
