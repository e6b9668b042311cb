/* cmd_run.c: `ssdsim run` and `ssdsim demo`: load a model and a workload, optionally
 * precondition, run, print the summary, write JSON and CSV. The pieces of one run (option
 * parsing, loading with overrides, executing, writing files) are shared with `ssdsim sweep`
 * (cmd_sweep.c) through cli.h, so a sweep point and a single run cannot drift apart. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "plugin_load.h"

/* What `ssdsim run` takes besides one run's options. */
struct run_cmd {
    struct cli_run_opts o;
    const char *manifest;
    uint64_t index;
    bool index_given;
    bool force; /* --force: run the manifest's point even if its complete results exist */
    char manifest_conflict[64]; /* first option the manifest fixes, given anyway */
    const char *steady_option;  /* first of --until-steady, --steady-var, --max-rounds given */
};

static void run_help(FILE *f, bool demo)
{
    if (demo)
        fputs("usage: ssdsim demo [OPTIONS]\n"
              "\n"
              "Run the built-in default: the generic MLC model (models/generic-mlc.json),\n"
              "secure-erased, under 4 KiB uniform random writes at 16 jobs x 16 queue depth\n"
              "until six times its logical capacity is written (fresh to steady state).\n"
              "Prints a summary and the preconditioning curve (30 intervals).\n\n",
              f);
    else
        fputs("usage: ssdsim run [--model FILE] --workload FILE [OPTIONS]\n"
              "       ssdsim run [--model FILE] --trace FILE [TRACE OPTIONS] [OPTIONS]\n"
              "       ssdsim run --manifest FILE --index K [--json OUT] [--force] [--quiet]\n"
              "\n"
              "Run a workload (a fio job file, or a JSON object of fio options) or replay a\n"
              "block trace on a device model (JSON). Without --model, the built-in generic MLC\n"
              "model is used. The last form runs point K of a manifest written by\n"
              "`ssdsim sweep --emit` (see ssdsim sweep --help). man ssdsim has the details.\n"
              "\n",
              f);
    fputs("Options:\n", f);
    if (!demo)
        fputs("  --model FILE|NAME      device model (JSON; see doc/models.md), or the name of an\n"
              "                         installed model (generic-slc, generic-mlc, generic-tlc)\n"
              "  --plugin FILE.so       load a plugin module (FTLs, GC policies, wear levelers)\n"
              "                         the model may then name (repeatable; doc/plugins.md)\n"
              "  --workload FILE        a fio job file ([global] and job sections) or a JSON\n"
              "                         object of fio options (doc/fio.md lists them)\n"
              "  --lenient              skip (and list) unknown options of a job file\n"
              "  --fairness             also run each job section (flow) alone and report its\n"
              "                         slowdown (mean latency shared / alone) and the\n"
              "                         fairness index (min / max slowdown), as MQSim does\n"
              "  --check[=N]            check every invariant of the simulated state (mapping,\n"
              "                         blocks, counts, buffer, parity) every N events (default\n"
              "                         65536) and at the end; a broken one stops the run\n"
              "  --precondition MODE    before the measured run: seq (write the whole logical\n"
              "                         space once sequentially, 128 KiB at QD32), seq:N (N\n"
              "                         times; SNIA's workload-independent preconditioning is\n"
              "                         seq:2) or fast (the workload's steady state: fast-\n"
              "                         forwarded until its WAF is steady, seconds instead of\n"
              "                         hours, then written until GC holds its free blocks)\n"
              "  --precondition-method functional|timed\n"
              "                         how --precondition runs (it needs --precondition):\n"
              "                         functional (default): fills and fast preconditioning by\n"
              "                         functional fast-forward (the FTL without timing) on a\n"
              "                         single SSD; timed: fills as timed runs, fast = the\n"
              "                         steady state of uniform random writes found on a\n"
              "                         scaled copy of the model and installed\n"
              "\n"
              "Trace replay (doc/traces.md):\n"
              "  --trace FILE           replay a block trace (MSR, SPC, blkparse, DiskSim ASCII,\n"
              "                         fio iolog v2/v3, ssdsim CSV; gzip too) instead of a\n"
              "                         workload; open loop at the trace's times by default\n"
              "  --trace-format F       its format (default: guessed from the first lines)\n"
              "  --time-unit U          DiskSim ASCII times: ns, us, ms or s (without it, ms,\n"
              "                         DiskSim's unit, is assumed and a note says so)\n"
              "  --read-flag 0|1        DiskSim ASCII: the flags value that means read (1)\n"
              "  --blkparse-events E    blkparse: queue (Q, default) or issue (D) events\n"
              "  --device N[,N...]      keep only these devices / ASUs (default: all, merged)\n"
              "  --skip-bad-lines       count and skip malformed lines instead of failing\n"
              "  --time-scale X         open loop: replay X times as fast, 1e-6..1e6 (0.5: half)\n"
              "  --replay-qd N          closed loop: N requests outstanding, times ignored\n"
              "  --wrap                 addresses beyond the device wrap around (else an error)\n"
              "  --queue N              the NVMe queue pair its requests use (model nvme.queues);\n"
              "                         --trace given again replays the traces at once, trace\n"
              "                         k on queue N + k (mod nvme.queues), one job each\n"
              "  --volume N             the volume its requests address: a JBOD's device N\n"
              "                         (default 0); --trace given again: trace k on volume\n"
              "                         N + k (mod the model's volumes)\n"
              "  --placement N          the FDP placement id of its writes (model fdp.handles;\n"
              "                         with fdp.reclaim_groups, the group in its top bits:\n"
              "                         group 1's handle 0 of 2 groups is 32768; job files:\n"
              "                         placement=N, or fio's fdp=1 and fdp_pli; a CSV\n"
              "                         record's sixth field, its own id, wins)\n"
              "  --max-requests N       replay at most N requests\n"
              "  --runtime DURATION     stop issuing after this much simulated time\n"
              "  --source NAME[:ARGS]   instead of a workload, replay the request source NAME of\n"
              "                         a --plugin module (ARGS are its own; the replay options\n"
              "                         above apply; doc/plugins.md)\n"
              "\n"
              "Faults (doc/models.md, \"Faults\"; results in \"faults\"):\n"
              "  --fail die:CH/CHIP/DIE@TIME\n"
              "                         that die fails for good TIME after the run's start\n"
              "                         (plane:CH/CHIP/DIE/PLANE@TIME: one plane of it):\n"
              "                         with RAIN parity (ftl.parity_group) its data is read by\n"
              "                         reconstruction and rebuilt onto the other dies at\n"
              "                         reliability.rebuild_rate; without, it is lost\n"
              "  --power-loss-at DURATION\n"
              "                         lose power this long after the run's start: the host\n"
              "                         stops issuing, the requests in flight end, then what a\n"
              "                         volatile buffer acknowledged and had not written is\n"
              "                         lost (a protected one flushes within\n"
              "                         reliability.plp_energy_mj) and the drive mounts again\n"
              "  --power-loss-after N   the same once N requests have completed\n"
              "\n"
              "Outputs:\n"
              "  --output-format F      json (default: doc/results.md) or fio-json (fio's JSON\n"
              "                         layout) for --json OUT\n"
              "  --latency-log OUT.csv  one row per request: latency and where it went\n"
              "  --record OUT           write every issued request as a trace (replayable by\n"
              "                         fio --read_iolog, or by ssdsim run --trace)\n"
              "  --record-format F      fio-iolog3 (default), fio-iolog2, disksim or csv\n"
              "  --age-days N           before the measured run (after preconditioning), age the\n"
              "                         data N days as if the drive sat powered off: retention\n"
              "                         errors grow (needs bit errors: reliability.rber_model)\n"
              "  --wear-pe N            before the measured run (after preconditioning), add N\n"
              "                         P/E cycles to every block at once, as if worn evenly\n"
              "                         (erase counts, and with bit errors the RBER, follow)\n",
              f);
    fputs("  --set KEY=VALUE        override a model key by its dotted path, all of them checked\n"
          "                         together like the file, in any order (--set ftl.op=0.25\n"
          "                         --set geometry.pages_per_block=64); null takes a key out;\n"
          "                         workload.OPTION=VALUE sets a workload option instead\n"
          "                         (--set workload.iodepth=8)\n"
          "  --seed N               seed of every random stream (default 1)\n"
          "  --json OUT             write the results as JSON (doc/results.md)\n"
          "  --timeseries OUT.csv   write the time series as CSV\n"
          "  --interval DURATION    time-series interval in simulated time (\"100ms\", \"1s\")\n"
          "  --interval-ios N       time-series interval in completed I/Os\n"
          "  --interval-bytes SIZE  time-series interval in host bytes written (\"1g\", \"64m\"):\n"
          "                         a row each time that much more has been written\n"
          "  --until-steady         stop the run once the SNIA steady-state rule holds: over\n"
          "                         the last 5 intervals (rounds), max - min within 20% of\n"
          "                         their average and the excursion of their least-squares\n"
          "                         line within 10%; needs one of the intervals above. As in\n"
          "                         SNIA's specification only rounds on a preconditioned\n"
          "                         drive count: begun once the host wrote twice the\n"
          "                         capacity and garbage collection started (a fresh\n"
          "                         drive's plateau is not steady state)\n"
          "  --steady-var VAR       what the rule judges: iops (default), bw, lat (mean\n"
          "                         latency) or waf (the interval's write amplification);\n"
          "                         the summary and the JSON give its verdict on every run\n"
          "                         with an interval\n"
          "  --max-rounds N         stop the run after N intervals, steady or not\n",
          f);
    if (!demo)
        fputs("  --manifest FILE        a sweep manifest (JSON lines); with --index K, run its\n"
              "                         point K (0-based) with the sweep's model, workload,\n"
              "                         overrides and seed, writing the JSON where the sweep\n"
              "                         would (unless --json is given)\n"
              "  --index K              the point of --manifest to run; when its complete\n"
              "                         results are where the sweep writes them, it is\n"
              "                         skipped (an interrupted sweep resumes)\n"
              "  --force                with --manifest: run the point even so\n",
              f);
    fputs("  --progress             a progress line on stderr each time another 1% of the run\n"
          "                         is done, wherever stderr goes (without it: a line\n"
          "                         redrawn in place on a terminal, else a line every 5 s;\n"
          "                         SSDSIM_PROGRESS=0 in the environment turns those off)\n"
          "  --quiet                print nothing but errors\n"
          "  --help                 this help\n",
          f);
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool cli_parse_time_ns(const char *s, uint64_t *out)
{
    if (s && s[0] == '0' && s[strspn(s, "0.")] == 0 && strchr(s, '.') == strrchr(s, '.')) {
        *out = 0;
        return true;
    }
    return ssdsim_parse_time_ns(s, out) == 0;
}

int cli_once(const char *cmd, const char *name, struct cli_seen *seen)
{
    for (size_t i = 0; i < seen->n; i++)
        if (!strcmp(seen->names[i], name)) {
            cli_error("%s: %s given twice (it takes one value)", cmd, name);
            return CLI_EXIT_USAGE;
        }
    if (seen->n < sizeof seen->names / sizeof seen->names[0])
        snprintf(seen->names[seen->n++], sizeof seen->names[0], "%s", name);
    return 0;
}

void cli_split_option(const char *arg, char *name, size_t name_len, const char **val)
{
    const char *eq = strchr(arg, '=');
    *val = NULL;
    if (!strncmp(arg, "--", 2) && eq && (size_t)(eq - arg) < name_len) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = 0;
        *val = eq + 1;
    } else {
        snprintf(name, name_len, "%s", arg);
    }
}

int cli_option_value(const char *cmd, const char *name, int argc, char **argv, int *i,
                     const char **val)
{
    if (*val)
        return 0;
    if (*i + 1 >= argc) {
        cli_error("%s: option '%s' needs a value", cmd, name);
        return CLI_EXIT_USAGE;
    }
    *val = argv[++*i];
    return 0;
}

bool cli_common_option_takes_value(const char *name)
{
    static const char *const names[] = {"--model",    "--workload",     "--set",         "--seed",
                                        "--interval", "--interval-ios", "--precondition",
                                        "--plugin",   "--precondition-method"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

int cli_common_option(const char *cmd, const char *name, const char *val, struct cli_run_opts *o)
{
    if (!strcmp(name, "--model")) {
        o->model_path = val;
    } else if (!strcmp(name, "--workload")) {
        o->workload_path = val;
    } else if (!strcmp(name, "--set")) {
        if (!strchr(val, '=') || val[0] == '=') {
            cli_error("%s: --set expects KEY=VALUE, got '%s'", cmd, val);
            return CLI_EXIT_USAGE;
        }
        if (o->n_sets == CLI_MAX_SETS) {
            cli_error("%s: more than %d --set options", cmd, CLI_MAX_SETS);
            return CLI_EXIT_USAGE;
        }
        o->sets[o->n_sets++] = val;
    } else if (!strcmp(name, "--seed")) {
        if (!cli_parse_u64(val, &o->seed)) {
            cli_error("%s: --seed expects a non-negative integer, got '%s'", cmd, val);
            return CLI_EXIT_USAGE;
        }
        o->seed_given = true;
    } else if (!strcmp(name, "--interval")) {
        if (!cli_parse_time_ns(val, &o->interval_ns) || o->interval_ns == 0) {
            cli_error("%s: --interval expects a duration such as 100ms or 1s, got '%s'", cmd, val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--interval-ios")) {
        if (!cli_parse_u64(val, &o->interval_ios) || o->interval_ios == 0) {
            cli_error("%s: --interval-ios expects a positive integer, got '%s'", cmd, val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--precondition")) {
        return cli_parse_precondition(cmd, val, o);
    } else if (!strcmp(name, "--precondition-method")) {
        /* every simulation of this process and of its workers takes it (ssdsim_new reads it) */
        if (strcmp(val, "functional") && strcmp(val, "timed")) {
            cli_error("%s: --precondition-method expects functional or timed, got '%s'", cmd,
                      val);
            return CLI_EXIT_USAGE;
        }
        setenv("SSDSIM_PRECONDITION_METHOD", val, 1);
    } else if (!strcmp(name, "--plugin")) {
        /* loaded now, so that the model's checks know its plugins' names */
        return cli_plugin_load(val, 1) ? CLI_EXIT_FAIL : 0;
    }
    return 0;
}

int cli_parse_precondition(const char *cmd, const char *val, struct cli_run_opts *o)
{
    ssdsim_precondition_mode mode;
    uint32_t fills;
    if (ssdsim_point_parse_precondition(val, &mode, &fills)) {
        cli_error("%s: --precondition expects seq, seq:N (N sequential fills, 1-1000) or fast, "
                  "got '%s'",
                  cmd, val);
        return CLI_EXIT_USAGE;
    }
    o->precondition_seq = mode == SSDSIM_PRECONDITION_SEQ;
    o->precondition_fast = mode == SSDSIM_PRECONDITION_FAST;
    o->precondition_fills = fills;
    o->precondition = val;
    return 0;
}

static const char *const run_value_options[] = {
    "--trace",         "--replay-qd", "--time-scale",    "--max-requests", "--runtime",
    "--output-format", "--record",    "--record-format", "--latency-log", "--source",
    "--queue",         "--age-days",    "--wear-pe",       "--placement", "--power-loss-at",
    "--power-loss-after", "--fail", "--volume"};
static const char *const run_flag_options[] = {"--skip-bad-lines", "--wrap", "--lenient",
                                               "--fairness"};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return true;
    return false;
}

/* Options of `run` only: trace replay, job-file leniency and extra outputs. 0 or an exit
 * code after printing the error. */
static int run_option(const char *name, const char *val, struct cli_run_opts *o)
{
    int rc = cli_trace_reader_option("run", name, val, &o->trace, o->trace_devices,
                                     &o->trace_given);
    if (rc != 1)
        return rc;
    if (!strcmp(name, "--skip-bad-lines")) {
        o->trace.skip_bad_lines = 1;
    } else if (!strcmp(name, "--wrap")) {
        o->replay.wrap = 1;
    } else if (!strcmp(name, "--lenient")) {
        o->lenient = true;
    } else if (!strcmp(name, "--fairness")) {
        o->fairness = true;
    } else if (!strcmp(name, "--wear-pe")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v > 1000000) {
            cli_error("run: --wear-pe expects a number of P/E cycles in [0, 1000000], got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
        o->wear_pe = (uint32_t)v;
    } else if (!strcmp(name, "--age-days")) {
        char *end = NULL;
        double v = val ? strtod(val, &end) : -1;
        if (!val || end == val || *end || !(v >= 0 && v <= 1e6)) {
            cli_error("run: --age-days expects a number of days in [0, 1000000], got '%s'",
                      val ? val : "");
            return CLI_EXIT_USAGE;
        }
        o->age_days = v;
    } else if (!strcmp(name, "--placement")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v > 65535) {
            cli_error("run: --placement expects a placement id in [0, 65535], got '%s'", val);
            return CLI_EXIT_USAGE;
        }
        o->replay.placement = (uint32_t)v;
    } else if (!strcmp(name, "--volume")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v > 65535) {
            cli_error("run: --volume expects a volume (a JBOD's device) in [0, 65535], got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
        o->replay.volume = (uint32_t)v;
    } else if (!strcmp(name, "--queue")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v > 65534) {
            cli_error("run: --queue expects a queue pair number in [0, 65534], got '%s'", val);
            return CLI_EXIT_USAGE;
        }
        o->replay.queue = (uint32_t)v;
    } else if (!strcmp(name, "--trace")) {
        if (!o->trace_path) {
            o->trace_path = val;
        } else if (o->n_more_traces < N_ELEMS(o->more_traces)) {
            o->more_traces[o->n_more_traces++] = val;
        } else {
            cli_error("run: --trace: at most %zu traces at once",
                      N_ELEMS(o->more_traces) + 1);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--source")) {
        o->source_spec = val;
    } else if (!strcmp(name, "--fail")) {
        /* die:CH/CHIP/DIE@TIME or plane:CH/CHIP/DIE/PLANE@TIME */
        unsigned a[4] = {0, 0, 0, UINT32_MAX};
        int used = 0;
        const char *at = strchr(val, '@');
        bool plane = !strncmp(val, "plane:", 6);
        const char *addr = val + (plane ? 6 : 4);
        bool ok = (plane || !strncmp(val, "die:", 4)) && at;
        if (ok && plane)
            ok = sscanf(addr, "%u/%u/%u/%u%n", &a[0], &a[1], &a[2], &a[3], &used) == 4;
        else if (ok)
            ok = sscanf(addr, "%u/%u/%u%n", &a[0], &a[1], &a[2], &used) == 3;
        if (!ok || addr + used != at || !cli_parse_time_ns(at + 1, &o->fail_at_ns)) {
            cli_error("run: --fail expects die:CHANNEL/CHIP/DIE@TIME (die:0/0/1@50ms) or "
                      "plane:CHANNEL/CHIP/DIE/PLANE@TIME, got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
        o->fail_die = true;
        for (int k = 0; k < 4; k++)
            o->fail_addr[k] = a[k];
    } else if (!strcmp(name, "--power-loss-at")) {
        if (!cli_parse_time_ns(val, &o->power_loss_ns) || o->power_loss_ns == 0) {
            cli_error("run: --power-loss-at expects a positive duration such as 50ms or 2s, "
                      "got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--power-loss-after")) {
        if (!cli_parse_u64(val, &o->power_loss_after) || o->power_loss_after == 0) {
            cli_error("run: --power-loss-after expects a positive number of requests, got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--replay-qd")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v == 0 || v > 65536) {
            cli_error("run: --replay-qd expects an integer in [1, 65536], got '%s'", val);
            return CLI_EXIT_USAGE;
        }
        o->replay.iodepth = (uint32_t)v;
    } else if (!strcmp(name, "--time-scale")) {
        /* The range of suite apps' --time-scale: a smaller factor pushes a trace's times past
         * the simulated clock's limit (2^62 ns, about 146 years) within seconds of trace. */
        char *end;
        errno = 0;
        double v = strtod(val, &end);
        if (end == val || *end || errno || !(v >= 1e-6 && v <= 1e6)) {
            cli_error("run: --time-scale expects a factor in [1e-6, 1e6] (2 = twice as fast), "
                      "got '%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
        o->replay.time_scale = v;
    } else if (!strcmp(name, "--max-requests")) {
        if (!cli_parse_u64(val, &o->replay.max_requests) || o->replay.max_requests == 0) {
            cli_error("run: --max-requests expects a positive integer, got '%s'", val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--runtime")) {
        if (!cli_parse_time_ns(val, &o->replay.runtime_ns) || o->replay.runtime_ns == 0) {
            cli_error("run: --runtime expects a duration such as 10s, got '%s'", val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--output-format")) {
        if (strcmp(val, "json") && strcmp(val, "fio-json")) {
            cli_error("run: --output-format expects json or fio-json, got '%s'", val);
            return CLI_EXIT_USAGE;
        }
        o->fio_json = !strcmp(val, "fio-json");
    } else if (!strcmp(name, "--record")) {
        o->record_path = val;
    } else if (!strcmp(name, "--record-format")) {
        if (ssdsim_trace_format_parse(val, &o->record_format) ||
            o->record_format == SSDSIM_TRACE_AUTO || o->record_format == SSDSIM_TRACE_MSR ||
            o->record_format == SSDSIM_TRACE_SPC || o->record_format == SSDSIM_TRACE_BLKPARSE) {
            cli_error("run: --record-format expects fio-iolog3, fio-iolog2, disksim or csv, got "
                      "'%s'",
                      val);
            return CLI_EXIT_USAGE;
        }
    } else if (!strcmp(name, "--latency-log")) {
        o->latency_log = val;
    }
    return 0;
}

/* The options of run and demo (not sweep) for byte intervals and the steady-state stop. */
static const char *const series_value_options[] = {"--interval-bytes", "--steady-var",
                                                   "--max-rounds"};

static bool parse_steady_var(const char *s, ssdsim_steady_var *out)
{
    static const struct {
        const char *name;
        ssdsim_steady_var var;
    } vars[] = {{"iops", SSDSIM_STEADY_IOPS},
                {"bw", SSDSIM_STEADY_BW},
                {"lat", SSDSIM_STEADY_LAT_MEAN},
                {"waf", SSDSIM_STEADY_WAF}};
    for (size_t i = 0; i < N_ELEMS(vars); i++) {
        if (!strcmp(s, vars[i].name)) {
            *out = vars[i].var;
            return true;
        }
    }
    return false;
}

/* A size as ssdsim_parse_size() reads it ("4MiB", "1GB", "4096"), or with fio's one-letter
 * suffixes, powers of 1024 as in fio ("64m", "1g", "1.5G"). */
static bool parse_cli_size(const char *text, uint64_t *out)
{
    size_t len = strlen(text);
    char last = len ? text[len - 1] : 0;
    const char *suffix = NULL;
    static const char letters[] = "kmgt", *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    const char *at = last ? strchr(letters, last | 0x20) : NULL;
    if (at)
        suffix = units[at - letters];
    char before = len >= 2 ? text[len - 2] : 0;
    if (suffix && len < 64 && (before == '.' || (before >= '0' && before <= '9'))) {
        char buf[80];
        snprintf(buf, sizeof buf, "%.*s%s", (int)(len - 1), text, suffix);
        return ssdsim_parse_size(buf, out) == 0;
    }
    return ssdsim_parse_size(text, out) == 0;
}

/* Store one of series_value_options, or --until-steady (val NULL, or VAR from
 * --until-steady=VAR). 0 or CLI_EXIT_USAGE after printing the error. */
static int series_option(const char *cmd, const char *name, const char *val, struct run_cmd *r)
{
    struct cli_run_opts *o = &r->o;
    if (!strcmp(name, "--interval-bytes")) {
        if (!parse_cli_size(val, &o->interval_bytes) || o->interval_bytes == 0) {
            cli_error("%s: --interval-bytes expects a size such as 64m, 1g or 512MiB, got '%s'",
                      cmd, val);
            return CLI_EXIT_USAGE;
        }
        return 0;
    }
    if (!r->steady_option) /* `name` is the caller's buffer: keep the literal */
        r->steady_option = !strcmp(name, "--until-steady") ? "--until-steady"
                           : !strcmp(name, "--steady-var") ? "--steady-var"
                                                           : "--max-rounds";
    if (!strcmp(name, "--until-steady")) {
        o->until_steady = true;
        if (!val)
            return 0; /* else --until-steady=VAR: VAR as for --steady-var */
    }
    if (!strcmp(name, "--max-rounds")) {
        uint64_t v;
        if (!cli_parse_u64(val, &v) || v == 0 || v > UINT32_MAX) {
            cli_error("%s: --max-rounds expects a positive integer, got '%s'", cmd, val);
            return CLI_EXIT_USAGE;
        }
        o->max_rounds = (uint32_t)v;
    } else if (!parse_steady_var(val, &o->steady_var)) {
        cli_error("%s: %s expects iops, bw, lat or waf, got '%s'", cmd, name, val);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Parse the options of run and demo. Returns -1 to continue, or an exit code. */
static int parse_opts(int argc, char **argv, bool demo, struct run_cmd *r)
{
    const char *cmd = demo ? "demo" : "run";
    struct cli_run_opts *o = &r->o;
    memset(r, 0, sizeof *r);
    o->seed = 1;
    struct cli_seen seen = {.n = 0};
    bool method_given = false; /* --precondition-method */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        char name[64];
        cli_split_option(a, name, sizeof name, &val);
        bool common = cli_common_option_takes_value(name);
        bool takes = common || !strcmp(name, "--json") || !strcmp(name, "--timeseries");
        if (!demo && (!strcmp(name, "--manifest") || !strcmp(name, "--index")))
            takes = true;
        bool run_only = false;
        if (!demo && (cli_is_trace_reader_option(name) ||
                      in_list(name, run_value_options, N_ELEMS(run_value_options))))
            takes = run_only = true;
        if (!demo && !strcmp(name, "--check")) {
            /* (an optional value, after '=' only) */
            uint64_t v = 65536;
            if (val && (!cli_parse_u64(val, &v) || v == 0)) {
                cli_error("run: --check expects a positive number of events, got '%s'", val);
                return CLI_EXIT_USAGE;
            }
            o->check_period = v;
            if (!r->manifest_conflict[0])
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
            continue;
        }
        if (!demo && in_list(name, run_flag_options, N_ELEMS(run_flag_options))) {
            run_option(name, NULL, o);
            if (!r->manifest_conflict[0])
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
            continue;
        }
        if (demo && (!strcmp(name, "--model") || !strcmp(name, "--workload") ||
                     !strcmp(name, "--precondition") || !strcmp(name, "--precondition-method")))
            takes = false; /* the demo's model and workload are fixed: use `run` instead */
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            run_help(stdout, demo);
            return 0;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            o->quiet = true;
            cli_quiet_notes();
            continue;
        }
        if (!demo && !strcmp(name, "--force")) {
            r->force = true;
            continue;
        }
        if (!strcmp(name, "--progress")) {
            o->progress = true;
            continue;
        }
        if (!strcmp(name, "--until-steady")) {
            int rc = series_option(cmd, name, val, r);
            if (rc)
                return rc;
            if (!r->manifest_conflict[0])
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
            continue;
        }
        bool series = in_list(name, series_value_options, N_ELEMS(series_value_options));
        takes = takes || series;
        if (!takes) {
            cli_error("%s: unknown option '%s' (see ssdsim %s --help)", cmd, a, cmd);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value(cmd, name, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        /* --set, --device and --plugin add to a list; every other option takes one value. */
        if (strcmp(name, "--set") && strcmp(name, "--device") && strcmp(name, "--plugin") &&
            strcmp(name, "--trace") && cli_once(cmd, name, &seen))
            return CLI_EXIT_USAGE;
        if (series) {
            int rc = series_option(cmd, name, val, r);
            if (rc)
                return rc;
            if (!r->manifest_conflict[0])
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
        } else if (run_only) {
            int rc = run_option(name, val, o);
            if (rc)
                return rc;
            if (!r->manifest_conflict[0])
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
        } else if (common) {
            int rc = cli_common_option(cmd, name, val, o);
            if (rc)
                return rc;
            method_given = method_given || !strcmp(name, "--precondition-method");
            if (!r->manifest_conflict[0] && strcmp(name, "--plugin"))
                snprintf(r->manifest_conflict, sizeof r->manifest_conflict, "%s", name);
        } else if (!strcmp(name, "--json")) {
            o->json_out = val;
        } else if (!strcmp(name, "--timeseries")) {
            o->csv_out = val;
        } else if (!strcmp(name, "--manifest")) {
            r->manifest = val;
        } else if (!strcmp(name, "--index")) {
            if (!cli_parse_u64(val, &r->index)) {
                cli_error("%s: --index expects a non-negative integer, got '%s'", cmd, val);
                return CLI_EXIT_USAGE;
            }
            r->index_given = true;
        }
    }
    if (o->quiet && o->progress) {
        cli_error("%s: --quiet prints nothing but errors: it cannot go with --progress", cmd);
        return CLI_EXIT_USAGE;
    }
    if (r->manifest || r->index_given) {
        if (!r->manifest || !r->index_given) {
            cli_error("run: --manifest FILE and --index K go together");
            return CLI_EXIT_USAGE;
        }
        if (r->manifest_conflict[0]) {
            cli_error("run: %s cannot be combined with --manifest (the manifest fixes the model, "
                      "workload, overrides, seed and intervals)",
                      r->manifest_conflict);
            return CLI_EXIT_USAGE;
        }
        return -1; /* the manifest line is checked once it is read */
    }
    if (r->force) {
        cli_error("run: --force goes with --manifest (it runs a point whose complete results "
                  "exist)");
        return CLI_EXIT_USAGE;
    }
    const char *given[3];
    int n_given = 0;
    if (o->interval_ns)
        given[n_given++] = "--interval";
    if (o->interval_ios)
        given[n_given++] = "--interval-ios";
    if (o->interval_bytes)
        given[n_given++] = "--interval-bytes";
    if (n_given > 1) {
        cli_error("%s: %s and %s: give one kind of interval, not both", cmd, given[0], given[1]);
        return CLI_EXIT_USAGE;
    }
    /* The demo has an interval of its own when none is given. */
    if (o->csv_out && n_given == 0 && !demo) {
        cli_error("%s: --timeseries needs --interval, --interval-ios or --interval-bytes", cmd);
        return CLI_EXIT_USAGE;
    }
    if (r->steady_option && n_given == 0 && !demo) {
        cli_error("%s: %s needs --interval, --interval-ios or --interval-bytes: the steady-state "
                  "rule's rounds are the intervals",
                  cmd, r->steady_option);
        return CLI_EXIT_USAGE;
    }
    if (!demo && !o->workload_path && !o->trace_path && !o->source_spec) {
        cli_error("run: --workload FILE or --trace FILE (or a module's --source NAME) is required "
                  "(see ssdsim run --help)");
        return CLI_EXIT_USAGE;
    }
    if (!!o->workload_path + !!o->trace_path + !!o->source_spec > 1) {
        cli_error("run: give %s or %s, not both", o->workload_path ? "--workload" : "--trace",
                  o->source_spec ? "--source" : "--trace");
        return CLI_EXIT_USAGE;
    }
    if (o->source_spec) {
        g_autofree char *name = g_strndup(o->source_spec, strcspn(o->source_spec, ":"));
        if (!cli_plugin_source(name)) {
            cli_error("run: --source %s: no loaded plugin module provides a request source "
                      "named '%s' (load one with --plugin FILE.so; ssdsim list shows them)",
                      o->source_spec, name);
            return CLI_EXIT_USAGE;
        }
    }
    if (!o->trace_path &&
        ((!o->source_spec && (o->replay.iodepth || o->replay.time_scale > 0 || o->replay.wrap ||
                              o->replay.max_requests || o->replay.runtime_ns)) ||
         o->trace.format || o->trace.n_devices ||
         o->trace.skip_bad_lines || o->trace.disksim_time_unit_ns ||
         o->trace.disksim_read_is_zero || o->trace.blkparse_issue)) {
        cli_error("run: trace options (--trace-format, --replay-qd, --time-scale, --wrap, ...) "
                  "need --trace FILE (the replay options also apply to --source)");
        return CLI_EXIT_USAGE;
    }
    if (o->fairness && (o->trace_path || o->source_spec)) {
        cli_error("run: --fairness runs each job of a --workload alone; a trace or source is one "
                  "flow");
        return CLI_EXIT_USAGE;
    }
    if (o->replay.placement && !o->trace_path && !o->source_spec) {
        cli_error("run: --placement applies to --trace and --source replays (a job file's jobs "
                  "name theirs with placement=N, or fio's fdp=1 and fdp_pli)");
        return CLI_EXIT_USAGE;
    }
    if (o->replay.volume && !o->trace_path && !o->source_spec) {
        cli_error("run: --volume applies to --trace and --source replays (a job file's clone k "
                  "addresses a JBOD's device k)");
        return CLI_EXIT_USAGE;
    }
    if (o->replay.queue && !o->trace_path && !o->source_spec) {
        cli_error("run: --queue applies to --trace and --source replays (a job file's jobs name "
                  "theirs with the option queue=N)");
        return CLI_EXIT_USAGE;
    }
    if (o->replay.iodepth && o->replay.time_scale > 0) {
        cli_error("run: --time-scale applies to open-loop replay; --replay-qd ignores timestamps");
        return CLI_EXIT_USAGE;
    }
    if (o->fio_json && !o->json_out) {
        cli_error("%s: --output-format fio-json needs --json OUT", cmd);
        return CLI_EXIT_USAGE;
    }
    if (o->record_format && !o->record_path) {
        cli_error("run: --record-format needs --record FILE");
        return CLI_EXIT_USAGE;
    }
    /* run preconditions only when told to: the method alone would change nothing, silently */
    if (method_given && !o->precondition) {
        cli_error("run: --precondition-method needs --precondition MODE (it chooses how that "
                  "preconditioning runs; without it, there is none)");
        return CLI_EXIT_USAGE;
    }
    if (o->record_path && !o->record_format)
        o->record_format = SSDSIM_TRACE_FIO_IOLOG3;
    return -1;
}

/* A model is a file path, or the name of an installed model ("generic-tlc"), looked up in
 * $SSDSIM_MODELS_DIR, then in the directory `make install` put the models in. A name found in
 * neither is refused here, with where it was looked for (the loader would say only that no
 * file of that name exists in the current directory). */
static const char *model_find(const char *arg, char *buf, size_t len, char *where, size_t where_len)
{
    if (access(arg, F_OK) == 0 || strchr(arg, '/'))
        return arg;
    const char *dirs[2] = {getenv("SSDSIM_MODELS_DIR"), SSDSIM_MODELS_DIR};
    const char *ext = strstr(arg, ".json") ? "" : ".json";
    where[0] = 0;
    for (int i = 0; i < 2; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        snprintf(buf, len, "%s/%s%s", dirs[i], arg, ext);
        if (access(buf, F_OK) == 0)
            return buf;
        size_t w = strlen(where);
        snprintf(where + w, where_len - w, "%s%s", w ? ", then " : "", dirs[i]);
    }
    return NULL;
}

static const char *model_path(const char *opt, const char *arg, char *buf, size_t len)
{
    char where[2048];
    const char *found = model_find(arg, buf, len, where, sizeof where);
    if (found)
        return found;
    const char *ext = strstr(arg, ".json") ? "" : ".json";
    cli_error("%s %s: no such file, nor an installed model of that name (looked for "
              "%s%s in %s; give the file's path, or set SSDSIM_MODELS_DIR)",
              opt ? opt : "--model", arg, arg, ext, where);
    return NULL;
}

void cli_model_input_add(const char *arg)
{
    char buf[4096], where[2048];
    if (arg)
        cli_input_add(model_find(arg, buf, sizeof buf, where, sizeof where));
}

void cli_point_opts(const struct cli_run_opts *o, ssdsim_point_opts *pt)
{
    ssdsim_point_opts_init(pt, 0);
    pt->set = o->sets;
    pt->n_set = (size_t)o->n_sets;
    pt->vary = o->varies;
    pt->n_vary = (size_t)o->n_varies;
    pt->seed = o->seed;
    pt->precondition = o->precondition_fast  ? SSDSIM_PRECONDITION_FAST
                       : o->precondition_seq ? SSDSIM_PRECONDITION_SEQ
                                             : SSDSIM_PRECONDITION_NONE;
    pt->precondition_fills = o->precondition_fills;
    pt->run.interval_ns = o->interval_ns;
    pt->run.interval_ios = o->interval_ios;
    pt->run.interval_bytes = o->interval_bytes;
    pt->run.until_steady = o->until_steady;
    pt->run.steady_var = o->steady_var;
    pt->run.max_rounds = o->max_rounds;
}

void cli_point_state(const struct cli_run_opts *o, ssdsim_point_state *st)
{
    *st = (ssdsim_point_state)SSDSIM_POINT_STATE_INIT;
    st->wear_pe = o->wear_pe;
    st->age_days = o->age_days;
    st->power_loss_ns = o->power_loss_ns;
    st->power_loss_after = o->power_loss_after;
    st->fail = o->fail_die;
    st->fail_channel = o->fail_addr[0];
    st->fail_chip = o->fail_addr[1];
    st->fail_die = o->fail_addr[2];
    st->fail_plane = o->fail_addr[3];
    st->fail_at_ns = o->fail_at_ns;
}

/* Apply the overrides of `o` to whichever of model and wl is not NULL (ssdsim_point_apply),
 * naming the option of a failing one ("--set: KEY: why"). */
static int apply_sets(const struct cli_run_opts *o, ssdsim_model *model, ssdsim_workload *wl)
{
    ssdsim_point_opts pt;
    cli_point_opts(o, &pt);
    size_t failed;
    ssdsim_error err;
    if (ssdsim_point_apply(model, wl, &pt, &failed, &err) == 0)
        return 0;
    cli_error("%s: %s", failed < pt.n_set ? "--set" : "--vary", err.message);
    return -1;
}

/* A system model reads its member's file too (system.member): an input no output may be
 * written over, as the model's own file. The library gives the member's path as found beside
 * the model (relative to the working directory, which has not changed since). */
static void member_input_add(const ssdsim_model *model)
{
    char mem[4096];
    if (ssdsim_model_get_kind(model) == SSDSIM_MODEL_SYSTEM &&
        ssdsim_model_get_string(model, "system.member", mem, sizeof mem, NULL) == 0)
        cli_input_add(mem);
}

int cli_load(const struct cli_run_opts *o, ssdsim_model **model, ssdsim_workload **wl)
{
    ssdsim_error err;
    char buf[4096];
    *model = NULL;
    if (wl)
        *wl = NULL;
    const char *mpath = NULL;
    if (o->model_path && !(mpath = model_path(o->model_option, o->model_path, buf, sizeof buf)))
        return -1;
    /* The files read are inputs, which no output of the run may be (outfile.c). */
    cli_input_add(mpath);
    if (wl)
        cli_input_add(o->workload_path);
    int rc = mpath ? ssdsim_model_load_file(model, mpath, &err) : ssdsim_model_default(model, &err);
    if (rc) {
        cli_error("%s", err.message);
        return -1;
    }
    if (wl && o->workload_path &&
        ssdsim_workload_load_file_ex(wl, o->workload_path, o->lenient ? SSDSIM_WORKLOAD_LENIENT : 0,
                                     &err)) {
        cli_error("%s", err.message);
        goto fail;
    }
    if (apply_sets(o, *model, wl ? *wl : NULL))
        goto fail;
    member_input_add(*model);
    return 0;
fail:
    ssdsim_model_free(*model);
    *model = NULL;
    if (wl) {
        ssdsim_workload_free(*wl);
        *wl = NULL;
    }
    return -1;
}

/* check_outputs asks for the fio logs' names only: no entry is made. */
static void fio_log_ignore(const ssdsim_fio_log_entry *e, void *userdata)
{
    (void)e;
    (void)userdata;
}

/* The outputs of `o` the run will write, with the fio logs a job file of `wl` asks for, checked
 * before it starts: none may be one of its inputs, nor two of them the same file (a mistake
 * found after an hour of simulation is found too late). 0 or an exit code. */
static int check_outputs(const struct cli_run_opts *o, const ssdsim_workload *wl)
{
    static const char *const log_names[SSDSIM_FIO_LOG_KINDS] = {
        "the job file's write_lat_log", "the job file's write_lat_log",
        "the job file's write_lat_log", "the job file's write_iops_log",
        "the job file's write_bw_log"};
    const char *outs[] = {o->json_out, o->csv_out, o->latency_log, o->record_path};
    const char *out_names[] = {"--json", "--timeseries", "--latency-log", "--record"};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        int bad = outs[i] ? cli_output_check(outs[i]) : 0;
        if (bad)
            return bad;
    }
    GPtrArray *names = g_ptr_array_new(), *paths = g_ptr_array_new();
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        g_ptr_array_add(names, (char *)out_names[i]);
        g_ptr_array_add(paths, (char *)outs[i]);
    }
    ssdsim_fio_logs *logs = NULL;
    if (wl && ssdsim_fio_logs_new(&logs, wl, fio_log_ignore, NULL, NULL))
        logs = NULL; /* the run reports it when it opens them */
    for (uint32_t c = 0; logs && c < ssdsim_fio_logs_n_clones(logs); c++) {
        for (int k = 0; k < SSDSIM_FIO_LOG_KINDS; k++) {
            g_ptr_array_add(names, (char *)log_names[k]);
            g_ptr_array_add(paths, (char *)ssdsim_fio_logs_path(logs, c, (ssdsim_fio_log_kind)k));
        }
    }
    int rc = cli_outputs_distinct((const char *const *)names->pdata,
                                  (const char *const *)paths->pdata, names->len);
    ssdsim_fio_logs_free(logs);
    g_ptr_array_free(names, TRUE);
    g_ptr_array_free(paths, TRUE);
    return rc ? CLI_EXIT_USAGE : 0;
}

/* --trace A --trace B ...: the traces replayed at once (ssdsim_replay_traces: trace k as flow
 * k on NVMe queue pair (--queue + k) mod nvme.queues). 1 after printing an error opening one,
 * else what the run returned. The per-trace summary (the "trace" object) is for a single
 * trace; here the jobs, named after their traces, give each flow's figures. */
static int replay_several(const struct cli_run_opts *o, ssdsim *sim, const ssdsim_point_opts *pt)
{
    const char *paths[16] = {o->trace_path};
    for (size_t k = 0; k < o->n_more_traces; k++)
        cli_input_add(paths[k + 1] = o->more_traces[k]);
    ssdsim_trace_opts to = o->trace;
    /* each trace's time unit, when assumed, as a single --trace notes it (opening reads no more
     * than its first lines; a trace that cannot be opened is reported by the replay) */
    for (size_t k = 0; !o->quiet && k < 1 + o->n_more_traces; k++) {
        ssdsim_trace *t = NULL;
        ssdsim_error e;
        if (ssdsim_trace_open(&t, paths[k], &to, &e) == 0) {
            cli_trace_note_unit(paths[k], t);
            ssdsim_trace_close(t);
        }
    }
    ssdsim_replay_opts rep = o->replay;
    to.version = SSDSIM_TRACE_OPTS_VERSION;
    rep.version = SSDSIM_REPLAY_OPTS_VERSION;
    ssdsim_replay_traces_opts ro = SSDSIM_REPLAY_TRACES_OPTS_INIT;
    ro.trace = &to;
    ro.replay = &rep;
    ro.run = &pt->run;
    const char *failed;
    ssdsim_error err;
    int rc = ssdsim_replay_traces(sim, paths, 1 + o->n_more_traces, &ro, &failed, &err);
    if (failed)
        cli_error("%s", err.message);
    return failed ? 1 : rc;
}

int cli_execute(const struct cli_run_opts *o, const ssdsim_model *model, const ssdsim_workload *wl,
                const char *wl_desc)
{
    ssdsim_error err;
    ssdsim *sim = NULL;
    int status = CLI_EXIT_FAIL;
    struct cli_trace_outcome tout;
    memset(&tout, 0, sizeof tout);
    struct cli_fair fair = {0};
    cli_input_add(o->trace_path);
    for (size_t k = 0; o->trace_path && k <= o->n_more_traces; k++) {
        const char *path = k ? o->more_traces[k - 1] : o->trace_path;
        int trc = cli_trace_check_file("run", path, &o->trace, &o->trace_given);
        if (trc)
            return trc;
    }
    int bad = check_outputs(o, wl);
    if (bad)
        return bad;
    ssdsim_point_opts pt;
    cli_point_opts(o, &pt);
    if (ssdsim_point_new(&sim, model, &pt, &err)) {
        cli_error("%s", err.message);
        return CLI_EXIT_FAIL;
    }
    /* SIGINT and SIGTERM cancel the run at its next progress check (interrupt.c). */
    cli_interrupt_install(false);
    if (o->check_period)
        ssdsim_set_check_period(sim, o->check_period);
    struct cli_progress *prog = NULL;
    if (!o->quiet)
        prog = cli_progress_new(o->precondition_seq || o->precondition_fast ? "preconditioning"
                                                                            : "running",
                                o->progress);
    ssdsim_set_progress(sim, cli_interrupt_cb, prog);
    if (o->precondition_fast && !wl) {
        cli_error("--precondition fast needs a --workload (its random writes are what it "
                  "installs the steady state of)");
        goto out;
    }
    if (o->precondition_seq || o->precondition_fast) {
        int rc = ssdsim_point_precondition(sim, wl, &pt);
        cli_progress_done(prog);
        prog = NULL;
        if (rc && cli_interrupted) {
            cli_error("interrupted by %s while preconditioning: the measured run did not start, "
                      "no results written",
                      cli_interrupt_name());
            status = cli_interrupt_status();
            goto out;
        }
        if (rc) {
            cli_error("precondition: %s", ssdsim_errmsg(sim));
            goto out;
        }
        prog = o->quiet ? NULL : cli_progress_new("running", o->progress);
        ssdsim_set_progress(sim, cli_interrupt_cb, prog);
    }
    ssdsim_point_state st;
    cli_point_state(o, &st);
    const char *step;
    if (ssdsim_point_prepare(sim, &st, &step)) {
        cli_error("run: --%s: %s",
                  !strcmp(step, "wear_pe") ? "wear-pe" : !strcmp(step, "age_days") ? "age-days"
                                                                                    : "fail",
                  ssdsim_errmsg(sim));
        goto out;
    }
    struct cli_watch watch;
    if (cli_watch_open(&watch, o, wl, sim))
        goto out;
    int rc;
    if (o->trace_path && o->n_more_traces) {
        rc = replay_several(o, sim, &pt);
        if (rc == 1) {
            cli_watch_close(&watch, CLI_WATCH_DISCARD);
            goto out;
        }
    } else if (o->trace_path) {
        ssdsim_trace *t = NULL;
        ssdsim_trace_opts to = o->trace;
        to.version = SSDSIM_TRACE_OPTS_VERSION;
        to.flushes = true; /* flushes and FUA writes are replayed */
        if (ssdsim_trace_open(&t, o->trace_path, &to, &err)) {
            cli_error("%s", err.message);
            cli_watch_close(&watch, CLI_WATCH_DISCARD);
            goto out;
        }
        if (!o->quiet)
            cli_trace_note_unit(o->trace_path, t);
        ssdsim_source src;
        ssdsim_trace_as_source(t, &src);
        ssdsim_replay_opts rep = o->replay;
        rep.version = SSDSIM_REPLAY_OPTS_VERSION; /* queue */
        rep.label = o->trace_path;
        rc = ssdsim_run_source(sim, &src, &rep, &pt.run);
        ssdsim_op_stats all = {0};
        if (rc == 0) {
            ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
            cli_trace_outcome(&tout, o->trace_path, t, &o->trace, rep.iodepth == 0, all.count);
            ssdsim_get_job(sim, 0, &tout.job);
        }
        ssdsim_trace_close(t);
    } else if (o->source_spec) {
        /* A request source of a plugin module, replayed as a trace is. */
        g_autofree char *name = g_strndup(o->source_spec, strcspn(o->source_spec, ":"));
        const char *args = o->source_spec + strlen(name) + (o->source_spec[strlen(name)] == ':');
        const ssdsim_source_ops *ops = cli_plugin_source(name);
        void *state = NULL;
        char why[256] = "";
        if (!ops || ops->open(&state, args, model, o->seed, why, sizeof why)) {
            cli_error("--source %s: %s", o->source_spec, why[0] ? why : "cannot open the source");
            cli_watch_close(&watch, CLI_WATCH_DISCARD);
            goto out;
        }
        ssdsim_source src = {.next = ops->next, .userdata = state};
        ssdsim_replay_opts rep = o->replay;
        rep.version = SSDSIM_REPLAY_OPTS_VERSION; /* queue */
        rep.label = o->source_spec;
        rc = ssdsim_run_source(sim, &src, &rep, &pt.run);
        ops->close(state);
    } else {
        rc = ssdsim_point_measure(sim, wl, &pt);
    }
    cli_progress_done(prog);
    prog = NULL;
    /* A run cancelled by a signal still has results: those of the requests completed so far,
     * which are written marked "interrupted": true (doc/results.md). A replay of nothing is an
     * error, as fio's read_iolog of a log without I/O is: its streams end as NAME.partial. */
    bool interrupted = rc == SSDSIM_ECANCELLED && ssdsim_interrupted(sim);
    if (cli_watch_close(&watch, rc == 0 && !tout.empty ? CLI_WATCH_COMMIT : CLI_WATCH_PARTIAL) &&
        rc == 0)
        goto out;
    if (rc && !interrupted) {
        cli_error("%s", ssdsim_errmsg(sim));
        goto out;
    }
    if (tout.empty) {
        cli_error("%s", tout.empty);
        goto out;
    }
    if (interrupted)
        cli_error("interrupted by %s: the results cover the requests completed until then and "
                  "are marked \"interrupted\": true",
                  cli_interrupt_name());
    if (o->check_period && !o->quiet)
        fprintf(stderr, "consistency checks: %" PRIu64 " passed (every %" PRIu64 " events)\n",
                ssdsim_checks_done(sim), o->check_period);
    if (!o->quiet) {
        cli_trace_warn(&tout);
        char state[96];
        if (o->precondition_fast)
            snprintf(state, sizeof state, "fast preconditioning to the workload's steady state");
        else if (o->precondition_seq && o->precondition_fills > 1)
            snprintf(state, sizeof state, "%u sequential fills", o->precondition_fills);
        else if (o->precondition_seq)
            snprintf(state, sizeof state, "a sequential fill");
        cli_report(stdout, sim, model, wl_desc, o->steady_var,
                   o->precondition_seq || o->precondition_fast ? state : NULL);
        if (o->trace_path && !o->n_more_traces)
            cli_trace_summary(stdout, &tout);
        if (interrupted)
            printf("INTERRUPTED by %s after %.6g s of simulated time: these are partial results\n",
                   cli_interrupt_name(), (double)ssdsim_sim_time_ns(sim) / 1e9);
    }
    if (o->fairness && !interrupted) {
        if (cli_fairness_run(o, model, wl, sim, &fair))
            goto out;
        if (!o->quiet)
            cli_fairness_print(stdout, &fair);
    }
    if (o->json_out) {
        char *json = o->fio_json ? ssdsim_results_fio_json(sim, wl) : ssdsim_results_json(sim);
        if (json && fair.n && !o->fio_json) {
            char *with = cli_fairness_json(json, &fair);
            free(json);
            json = with;
        }
        if (json && o->trace_path && !o->n_more_traces && !o->fio_json) {
            char *with = cli_trace_results_json(json, &tout);
            free(json);
            json = with;
        }
        char *text = json && o->json_point ? cli_json_insert_first(json, "point", o->json_point)
                                           : NULL;
        if (!json || (o->json_point && !text)) {
            free(json);
            cli_error("out of memory writing JSON");
            goto out;
        }
        int w = cli_write_file(o->json_out, text ? text : json);
        free(text);
        free(json);
        if (w)
            goto out;
    }
    if (o->csv_out) {
        struct cli_out csv;
        if (cli_out_begin(&csv, o->csv_out))
            goto out;
        if (ssdsim_write_timeseries_csv(sim, csv.tmp)) {
            /* the library names the temporary file; name the output instead */
            cli_error("%s: write failed: %s", o->csv_out, ssdsim_errmsg(sim));
            cli_out_abort(&csv);
            goto out;
        }
        /* A CSV cannot say it is partial: an interrupted run's goes to NAME.partial, as the
         * streaming outputs do. */
        if (cli_out_commit_as(&csv, interrupted ? ".partial" : NULL))
            goto out;
    }
    if (cli_interrupted && !interrupted)
        cli_error("%s came after the run had ended: its results are complete",
                  cli_interrupt_name());
    status = cli_interrupted ? cli_interrupt_status() : 0;
out:
    cli_fairness_free(&fair);
    cli_progress_done(prog);
    cli_trace_outcome_free(&tout);
    ssdsim_free(sim);
    return status;
}

int cli_run(int argc, char **argv)
{
    struct run_cmd r;
    int rc = parse_opts(argc, argv, false, &r);
    if (rc >= 0)
        return rc;
    if (r.manifest)
        return cli_manifest_run(r.manifest, r.index, r.o.json_out, r.o.csv_out, r.o.quiet,
                                r.force);
    ssdsim_model *model = NULL;
    ssdsim_workload *wl = NULL;
    if (cli_load(&r.o, &model, &wl))
        return CLI_EXIT_FAIL;
    rc = cli_execute(&r.o, model, wl,
                     r.o.trace_path    ? r.o.trace_path
                     : r.o.source_spec ? r.o.source_spec
                                       : r.o.workload_path);
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return rc;
}

int cli_demo(int argc, char **argv)
{
    struct run_cmd r;
    int rc = parse_opts(argc, argv, true, &r);
    if (rc >= 0)
        return rc;
    struct cli_run_opts *o = &r.o;
    for (int i = 0; i < o->n_sets; i++) {
        if (!strncmp(o->sets[i], "workload.", strlen("workload."))) {
            cli_error("demo: --set %s: the demo's workload is fixed (use ssdsim run)", o->sets[i]);
            return CLI_EXIT_USAGE;
        }
    }
    ssdsim_model *model = NULL;
    if (cli_load(o, &model, NULL))
        return CLI_EXIT_FAIL;
    /* Six times the logical capacity in 4 KiB random writes, spread over 16 jobs: enough
     * to go from a fresh drive through the GC cliff to steady state. */
    ssdsim_workload *wl = NULL;
    uint64_t interval_ios;
    ssdsim_error err;
    if (ssdsim_demo_workload(&wl, model, &interval_ios, &err)) {
        cli_error("%s", err.message);
        ssdsim_model_free(model);
        return CLI_EXIT_FAIL;
    }
    if (!o->interval_ns && !o->interval_ios && !o->interval_bytes)
        o->interval_ios = interval_ios;
    rc = cli_execute(o, model, wl,
                     "4 KiB uniform random writes, 16 jobs x 16 queue depth, 6 x capacity");
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return rc;
}
