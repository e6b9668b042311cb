/* plot.c: the gnuplot pieces `ssdsim sweep`, `ssdsim collect` and `ssdsim suite` share.
 *
 * A command writes a gnuplot script beside its CSV files whether or not gnuplot is installed
 * (so the plots can be made elsewhere), starting with cli_gnuplot_preamble(), and then runs it
 * with cli_gnuplot_run() when gnuplot is on PATH. Plots are PNG: pngcairo when this gnuplot
 * has it, else the plain png terminal (gnuplot-nox, as CI installs it, has both). A failure of
 * gnuplot is a warning, never an error: the tables the plots are drawn from are the result.
 */
#include <string.h>
#include <sys/wait.h>

#include <glib.h>

#include "cli.h"

char *cli_gnuplot_preamble(unsigned width, unsigned height)
{
    return g_strdup_printf("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                           "    set terminal pngcairo noenhanced size %u,%u\n"
                           "} else {\n"
                           "    set terminal png noenhanced size %u,%u\n"
                           "}\n",
                           width, height, width, height);
}

char *cli_gnuplot_quote(const char *v)
{
    GString *s = g_string_new("'");
    for (; *v; v++) {
        if (*v == '\'')
            g_string_append_c(s, '\'');
        g_string_append_c(s, *v);
    }
    g_string_append_c(s, '\'');
    return g_string_free(s, FALSE);
}

int cli_gnuplot_run(const char *dir, const char *script, bool quiet)
{
    g_autofree char *prog = g_find_program_in_path("gnuplot");
    if (!prog) {
        if (!quiet)
            printf("gnuplot is not installed: no plots (run `gnuplot %s` in %s where it is)\n",
                   script, dir);
        return 1;
    }
    char *argv[] = {prog, (char *)script, NULL};
    g_autofree char *err = NULL;
    g_autoptr(GError) gerr = NULL;
    int status = 0;
    fflush(NULL);
    if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status,
                      &gerr)) {
        cli_error("warning: cannot run %s: %s (no plots)", prog, gerr->message);
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *nl = err ? strchr(g_strstrip(err), '\n') : NULL;
        if (nl)
            *nl = '\0';
        cli_error("warning: gnuplot failed on %s/%s: %s", dir, script,
                  err && *err ? err : "no message");
        return -1;
    }
    return 0;
}
