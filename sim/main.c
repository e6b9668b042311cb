/* main.c: the ssdsim command: dispatch to subcommands. With no arguments it runs the built-in
 * demo (a generic MLC drive from fresh to steady state under 4 KiB random writes). Whatever the
 * command, a failed write to standard output makes the exit status non-zero. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plugin_load.h"

/* Set by a sweep's worker process (or `run --manifest`) to name its point in every error. */
static const char *error_context;

void cli_set_error_context(const char *context)
{
    error_context = context;
}

void cli_error(const char *fmt, ...)
{
    /* Format the whole line first: stderr is unbuffered, and several worker processes of a
     * sweep share it, so the line must reach it in one write to stay whole. */
    if (cli_interrupt_muted())
        return; /* a consequence of the signal: the command says it was interrupted */
    char line[2048];
    int n = snprintf(line, sizeof line, "ssdsim: %s", error_context ? error_context : "");
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof line - 2)
        n = sizeof line - 2; /* a context that long is cut; the message still fits a byte */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    for (size_t i = 0; i < len; i++)
        if (line[i] == '\n')
            line[i] = ' '; /* one line, whatever the message holds */
    line[len++] = '\n';
    cli_stderr_put(line, len);
}

void cli_stderr_put(const char *text, size_t len)
{
    fflush(stderr);
    for (size_t off = 0; off < len;) {
        ssize_t w = write(STDERR_FILENO, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
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
          "  run       run a workload file on a model file (or one point of a sweep manifest)\n"
          "  sweep     run a grid of model and workload parameters in parallel: one JSON per\n"
          "            point, a CSV table and plots\n"
          "  collect   build a sweep's CSV table (and plots) from its JSON results\n"
          "  list      list the registered FTLs, GC policies and wear levelers\n"
          "  validate  compare simulated write amplification with analytic models\n"
          "            (ssdsim validate waf; see doc/validation.md)\n"
          "  trace     summarise a block I/O trace (trace info) or convert it to a fio\n"
          "            iolog, DiskSim ASCII or CSV (trace convert; see doc/traces.md)\n"
          "  suite     run a measurement procedure on a model: review (review-lab\n"
          "            enterprise analysis), snia (SNIA PTS-E IOPS, throughput, latency),\n"
          "            quick-matrix (fio test matrix), scaling (arrays of 1 to N drives),\n"
          "            apps (application traces replayed, drives ranked), endurance,\n"
          "            tenants or fdp; JSON, CSV, report and plots\n"
          "            (see doc/suites.md)\n"
          "  calibrate run the workloads behind a model's vendor figures (its spec block)\n"
          "            and print simulated against spec, with the ratio (doc/models.md)\n"
          "  version   print the version\n"
          "  help      print this help\n"
          "\n"
          "`ssdsim COMMAND --help` describes a command's options.\n"
          "Documentation: man ssdsim; doc/guide.md, doc/models.md, doc/results.md, doc/api.md.\n",
          f);
}

/* Set by --quiet: the library's warnings are not shown either. */
static bool notes_off;

void cli_quiet_notes(void)
{
    notes_off = true;
}

/* The library's warnings and notes (a model's keys that have no effect, a GC watermark raised)
 * go to stderr, one line each like errors; its errors are reported by the command itself. */
static void log_to_stderr(enum ssdsim_log_level level, const char *message, void *userdata)
{
    (void)userdata;
    if (level == SSDSIM_LOG_WARNING && !notes_off)
        cli_error("%s", message);
}

/* The commands that simulate (or list plugins) load the installed plugin modules first (but
 * not for --help, which must work whatever is installed). */
static bool loads_plugins(int argc, char **argv)
{
    static const char *const cmds[] = {"run",   "demo",      "sweep",   "list",
                                       "suite", "calibrate", "validate"};
    bool sim = false;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        sim = sim || !strcmp(argv[1], cmds[i]);
    for (int i = 2; sim && i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help"))
            return false;
    return sim;
}

static int dispatch(int argc, char **argv)
{
    ssdsim_set_log_handler(log_to_stderr, NULL);
    if (argc < 2)
        return cli_demo(argc, argv);
    const char *cmd = argv[1];
    if (loads_plugins(argc, argv) && cli_plugin_autoload())
        return CLI_EXIT_FAIL;
    if (!strcmp(cmd, "run"))
        return cli_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo"))
        return cli_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep"))
        return cli_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "collect"))
        return cli_collect(argc - 1, argv + 1);
    if (!strcmp(cmd, "list"))
        return cli_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return cli_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace"))
        return cli_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "suite"))
        return cli_suite(argc - 1, argv + 1);
    if (!strcmp(cmd, "calibrate"))
        return cli_calibrate(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("ssdsim %s\n", ssdsim_version());
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    cli_error("unknown command '%s' (commands: demo, run, sweep, collect, list, validate, "
              "trace, suite, calibrate, version, help)",
              cmd);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* What was printed must have reached standard output: a failed write (a full disk, a
     * closed pipe) is an error, not a silent loss. */
    if (cli_stdout_check() && rc == 0)
        rc = CLI_EXIT_FAIL;
    cli_inputs_clear();
    return rc;
}
