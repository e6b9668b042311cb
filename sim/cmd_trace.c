/* cmd_trace.c: `ssdsim trace info FILE` (what a block I/O trace holds: mix, sizes, footprint,
 * timing, devices; as text or JSON) and `ssdsim trace convert IN --to FORMAT OUT` (rewrite a
 * trace as a fio iolog, DiskSim ASCII or ssdsim CSV), on top of <ssdsim/trace.h>.
 * doc/traces.md describes the formats and every figure printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include <ssdsim/trace.h>

#include "cli.h"

struct trace_cmd {
    bool info; /* else convert */
    const char *in, *out;
    ssdsim_trace_opts opts;
    uint32_t devices[CLI_MAX_TRACE_DEVICES];
    bool json;
    bool to_given;
    ssdsim_trace_format to;
    const char *target;
    struct cli_trace_given given;
};

static void trace_help(FILE *f)
{
    fputs("usage: ssdsim trace info FILE [OPTIONS]\n"
          "       ssdsim trace convert IN --to FORMAT OUT [--target NAME] [OPTIONS]\n"
          "\n"
          "Summarise a block I/O trace, or rewrite it in another format. Traces are read as\n"
          "a stream (memory does not grow with their length), plain or gzip-compressed, in\n"
          "these formats (guessed from the first lines unless --trace-format is given):\n"
          "  msr         MSR Cambridge CSV (Timestamp,Hostname,DiskNumber,Type,Offset,Size,...)\n"
          "  spc         SPC / UMass (ASU,LBA,Size,Opcode,Timestamp)\n"
          "  blkparse    blkparse's default text output (Q events, or D with --blkparse-events)\n"
          "  disksim     DiskSim-style ASCII (time devno blkno size flags)\n"
          "  fio-iolog2  fio iolog version 2;  fio-iolog3  fio iolog version 3\n"
          "  csv         ssdsim CSV (time_ns,device,op,offset,length[,placement])\n"
          "See doc/traces.md for every field, unit and figure.\n"
          "\n"
          "Options:\n"
          "  --trace-format F       the input's format (default: auto)\n"
          "  --time-unit U          DiskSim ASCII time unit: ns, us, ms (default) or s\n"
          "  --read-flag 0|1        DiskSim ASCII flags value that means a read (default 1:\n"
          "                         bit 0 set = read, as DiskSim; 0: flags 0 = read)\n"
          "  --blkparse-events E    queue (Q events, default) or issue (D events)\n"
          "  --skip-bad-lines       count and skip malformed lines instead of stopping\n"
          "  --device N[,N...]      keep only these devices (DiskNumber, ASU, devno,\n"
          "                         blkparse major*256+minor, iolog file index)\n"
          "  --json                 info: print the summary as JSON\n"
          "  --to FORMAT            convert: fio-iolog3, fio-iolog2, disksim or csv\n"
          "  --target NAME          convert to a fio iolog: the file or device fio replays\n"
          "                         on (default /dev/nvme0n1)\n"
          "  --help                 this help\n",
          f);
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

static bool add_devices(ssdsim_trace_opts *opts, uint32_t *devices, const char *list)
{
    const char *s = list;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        char buf[32];
        uint64_t v;
        if (n == 0 || n >= sizeof buf || opts->n_devices == CLI_MAX_TRACE_DEVICES)
            return false;
        memcpy(buf, s, n);
        buf[n] = '\0';
        if (!cli_parse_u64(buf, &v) || v > UINT32_MAX)
            return false;
        devices[opts->n_devices++] = (uint32_t)v;
        opts->devices = devices;
        if (!comma)
            return true;
        s = comma + 1;
    }
}

static const char *const reader_options[] = {"--trace-format", "--time-unit", "--read-flag",
                                             "--blkparse-events", "--device"};

bool cli_is_trace_reader_option(const char *name)
{
    for (size_t k = 0; k < sizeof reader_options / sizeof reader_options[0]; k++)
        if (!strcmp(name, reader_options[k]))
            return true;
    return false;
}

int cli_trace_reader_option(const char *cmd, const char *name, const char *val,
                            ssdsim_trace_opts *opts, uint32_t *devices,
                            struct cli_trace_given *given)
{
    const char *why = NULL;
    if (!strcmp(name, "--trace-format")) {
        if (ssdsim_trace_format_parse(val, &opts->format))
            why = "auto, msr, spc, blkparse, disksim, fio-iolog2, fio-iolog3 or csv";
    } else if (!strcmp(name, "--time-unit")) {
        static const struct {
            const char *name;
            uint64_t ns;
        } units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
        why = "ns, us, ms or s";
        for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
            if (!strcmp(val, units[k].name)) {
                opts->disksim_time_unit_ns = units[k].ns;
                why = NULL;
            }
        }
    } else if (!strcmp(name, "--read-flag")) {
        if (!strcmp(val, "0") || !strcmp(val, "1"))
            opts->disksim_read_is_zero = val[0] == '0';
        else
            why = "0 or 1";
    } else if (!strcmp(name, "--blkparse-events")) {
        if (!strcmp(val, "queue") || !strcmp(val, "issue"))
            opts->blkparse_issue = val[0] == 'i';
        else
            why = "queue or issue";
    } else if (!strcmp(name, "--device")) {
        if (!add_devices(opts, devices, val))
            why = "a comma list of device numbers (at most 256, each below 2^32)";
    } else {
        return 1;
    }
    if (why) {
        cli_error("%s: %s expects %s, got '%s'", cmd, name, why, val);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(name, "--time-unit"))
        given->disksim = "--time-unit";
    else if (!strcmp(name, "--read-flag") && !given->disksim)
        given->disksim = "--read-flag";
    else if (!strcmp(name, "--blkparse-events"))
        given->blkparse = "--blkparse-events";
    return 0;
}

int cli_trace_check_given(const char *cmd, const char *path, ssdsim_trace_format in,
                          const struct cli_trace_given *given)
{
    const char *opt = in != SSDSIM_TRACE_DISKSIM ? given->disksim : NULL;
    const char *fits = "DiskSim ASCII";
    if (!opt && in != SSDSIM_TRACE_BLKPARSE && given->blkparse) {
        opt = given->blkparse;
        fits = "blkparse";
    }
    if (!opt)
        return 0;
    cli_error("%s: %s applies to %s traces only; %s is %s", cmd, opt, fits, path,
              ssdsim_trace_format_name(in));
    return CLI_EXIT_USAGE;
}

int cli_trace_check_file(const char *cmd, const char *path, const ssdsim_trace_opts *opts,
                         const struct cli_trace_given *given)
{
    if (!given->disksim && !given->blkparse)
        return 0;
    ssdsim_trace_format in = opts->format;
    ssdsim_error err;
    if (in == SSDSIM_TRACE_AUTO && ssdsim_trace_probe(path, &in, &err))
        return 0;
    return cli_trace_check_given(cmd, path, in, given);
}

/* Returns -1 to go on, or an exit status. */
static int trace_parse(int argc, char **argv, struct trace_cmd *c)
{
    memset(c, 0, sizeof *c);
    if (argc < 2) {
        cli_error("trace: expected 'info' or 'convert' (see ssdsim trace --help)");
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        trace_help(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "info")) {
        c->info = true;
    } else if (strcmp(argv[1], "convert") != 0) {
        cli_error("trace: unknown subcommand '%s' (expected info or convert; see ssdsim trace "
                  "--help)",
                  argv[1]);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = c->info ? "trace info" : "trace convert";
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0;
    struct cli_seen seen = {.n = 0};
    for (int i = 2; i < argc; i++) {
        const char *val;
        char name[64];
        cli_split_option(argv[i], name, sizeof name, &val);
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            trace_help(stdout);
            return 0;
        }
        if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
            if (n_pos == 2) {
                cli_error("%s: unexpected argument '%s' (see ssdsim trace --help)", cmd, argv[i]);
                return CLI_EXIT_USAGE;
            }
            pos[n_pos++] = argv[i];
            continue;
        }
        if (!strcmp(name, "--skip-bad-lines") || (c->info && !strcmp(name, "--json"))) {
            if (val) {
                cli_error("%s: option '%s' takes no value", cmd, name);
                return CLI_EXIT_USAGE;
            }
            if (!strcmp(name, "--json"))
                c->json = true;
            else
                c->opts.skip_bad_lines = 1;
            continue;
        }
        bool known = cli_is_trace_reader_option(name);
        if (!c->info)
            known = known || !strcmp(name, "--to") || !strcmp(name, "--target");
        if (!known) {
            cli_error("%s: unknown option '%s' (see ssdsim trace --help)", cmd, argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value(cmd, name, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        if (strcmp(name, "--device") && cli_once(cmd, name, &seen))
            return CLI_EXIT_USAGE; /* --device adds to a list */
        int rc = cli_trace_reader_option(cmd, name, val, &c->opts, c->devices, &c->given);
        if (rc != 1) {
            if (rc)
                return rc;
            continue;
        }
        const char *why = NULL;
        if (!strcmp(name, "--to")) {
            if (ssdsim_trace_format_parse(val, &c->to) ||
                (c->to != SSDSIM_TRACE_FIO_IOLOG3 && c->to != SSDSIM_TRACE_FIO_IOLOG2 &&
                 c->to != SSDSIM_TRACE_DISKSIM && c->to != SSDSIM_TRACE_CSV))
                why = "fio-iolog3, fio-iolog2, disksim or csv";
            c->to_given = true;
        } else if (!strcmp(name, "--target")) {
            /* the writer's rule (fio reads the name with "%256s"), checked here so that the
             * error names the option, not the output's temporary file, and exits 2 */
            if (!*val || strlen(val) > 256 || strpbrk(val, " \t\r\n\v\f"))
                why = "a file or device name of 1 to 256 bytes without blanks";
            c->target = val;
        }
        if (why) {
            cli_error("%s: %s expects %s, got '%s'", cmd, name, why, val);
            return CLI_EXIT_USAGE;
        }
    }
    if (c->info && n_pos != 1) {
        cli_error("trace info: expected one trace file (usage: ssdsim trace info FILE "
                  "[OPTIONS])");
        return CLI_EXIT_USAGE;
    }
    if (!c->info && (n_pos != 2 || !c->to_given)) {
        cli_error("trace convert: expected an input, --to FORMAT and an output (usage: ssdsim "
                  "trace convert IN --to FORMAT OUT)");
        return CLI_EXIT_USAGE;
    }
    if (c->target && c->to != SSDSIM_TRACE_FIO_IOLOG3 && c->to != SSDSIM_TRACE_FIO_IOLOG2) {
        cli_error("trace convert: --target names the device of a fio iolog (--to fio-iolog3 or "
                  "fio-iolog2); it does not apply to --to %s",
                  ssdsim_trace_format_name(c->to));
        return CLI_EXIT_USAGE;
    }
    c->in = pos[0];
    c->out = pos[1];
    /* a reader option of another format than the input's, refused before the trace is read
     * (trace info reads all of it) or an output is begun */
    int frc = cli_trace_check_file(cmd, c->in, &c->opts, &c->given);
    return frc ? frc : -1;
}

/* ------------------------------------------------------------------------------------------ */
/* trace info                                                                                  */

static const char *const op_names[3] = {"read", "write", "trim"};

/* "12.3 MiB" (binary units). */
static const char *fmt_bytes(char *buf, size_t len, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f B", bytes);
    else
        snprintf(buf, len, "%.1f %s", bytes, units[u]);
    return buf;
}

/* A time in the largest unit that keeps it >= 1: "1.250 ms". */
static const char *fmt_ns(char *buf, size_t len, double ns)
{
    if (ns >= 1e9)
        snprintf(buf, len, "%.3f s", ns / 1e9);
    else if (ns >= 1e6)
        snprintf(buf, len, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, len, "%.3f us", ns / 1e3);
    else
        snprintf(buf, len, "%.0f ns", ns);
    return buf;
}

/* The upper bound of size bucket i, in bytes (the last bucket has none). */
static uint64_t bucket_max(int i)
{
    return UINT64_C(512) << i;
}

static void print_info(const char *path, const ssdsim_trace_info *in,
                       const ssdsim_trace_opts *opts)
{
    char a[32], b[32], c[32], d[32];
    double n = in->requests ? (double)in->requests : 1;
    printf("trace          %s\n", path);
    if (in->format == SSDSIM_TRACE_DISKSIM) {
        /* DiskSim ASCII does not say its time unit: say which one was assumed. */
        static const struct {
            uint64_t ns;
            const char *name;
        } units[] = {{1, "ns"}, {1000, "us"}, {1000000, "ms"}, {1000000000, "s"}};
        uint64_t u = opts->disksim_time_unit_ns ? opts->disksim_time_unit_ns : 1000000;
        const char *name = "?";
        for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
            if (units[k].ns == u)
                name = units[k].name;
        printf("format         disksim (times read as %s%s; --time-unit to change)\n", name,
               opts->disksim_time_unit_ns ? "" : ", DiskSim's unit");
    } else {
        printf("format         %s\n", ssdsim_trace_format_name(in->format));
    }
    printf("requests       %" PRIu64 "\n", in->requests);
    for (int op = 0; op < 3; op++)
        printf("  %-12s %" PRIu64 " (%.1f%%), %s\n", op_names[op], in->count[op],
               100.0 * (double)in->count[op] / n, fmt_bytes(a, sizeof a, (double)in->bytes[op]));
    if (in->requests) {
        printf("sizes          min %s, max %s\n", fmt_bytes(a, sizeof a, (double)in->min_length),
               fmt_bytes(b, sizeof b, (double)in->max_length));
        for (int i = 0; i < SSDSIM_TRACE_SIZE_BUCKETS; i++) {
            if (!in->size_hist[i])
                continue;
            if (i + 1 < SSDSIM_TRACE_SIZE_BUCKETS)
                snprintf(c, sizeof c, "<= %s", fmt_bytes(a, sizeof a, (double)bucket_max(i)));
            else
                snprintf(c, sizeof c, "> %s", fmt_bytes(a, sizeof a, (double)bucket_max(i - 1)));
            printf("  %-12s %" PRIu64 " (%.1f%%)\n", c, in->size_hist[i],
                   100.0 * (double)in->size_hist[i] / n);
        }
    }
    printf("footprint      %" PRIu64 " B (%.3f GiB), written %" PRIu64 " B (%.3f GiB)\n",
           in->footprint_bytes, (double)in->footprint_bytes / (1024.0 * 1024 * 1024),
           in->footprint_write_bytes, (double)in->footprint_write_bytes / (1024.0 * 1024 * 1024));
    printf("max end        %" PRIu64 " B (%.3f GiB): the device size the trace needs\n",
           in->max_end_bytes, (double)in->max_end_bytes / (1024.0 * 1024 * 1024));
    printf("duration       %s\n", fmt_ns(a, sizeof a, (double)in->duration_ns));
    printf("arrival rate   %.1f requests/s\n", in->arrival_rate);
    printf("inter-arrival  mean %s, stddev %s, min %s, max %s\n",
           fmt_ns(a, sizeof a, in->interarrival_mean_ns),
           fmt_ns(b, sizeof b, in->interarrival_stddev_ns),
           fmt_ns(c, sizeof c, (double)in->interarrival_min_ns),
           fmt_ns(d, sizeof d, (double)in->interarrival_max_ns));
    printf("devices        %" PRIu32 "\n", in->n_devices);
    printf("unaligned      %" PRIu64 " (offset or length not a multiple of 4 KiB)\n",
           in->unaligned_4k);
    printf("bad lines      %" PRIu64 "\n", in->bad_lines);
    printf("out of order   %" PRIu64 "\n", in->out_of_order);
}

/* A 64-bit count written exactly (cJSON numbers are doubles). */
static void add_u64(cJSON *o, const char *key, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(buf));
}

static int print_info_json(const char *path, const ssdsim_trace_info *in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "trace", path);
    cJSON_AddStringToObject(o, "format", ssdsim_trace_format_name(in->format));
    add_u64(o, "requests", in->requests);
    for (int op = 0; op < 3; op++) {
        cJSON *x = cJSON_AddObjectToObject(o, op_names[op]);
        add_u64(x, "count", in->count[op]);
        add_u64(x, "bytes", in->bytes[op]);
    }
    cJSON *hist = cJSON_AddArrayToObject(o, "size_hist");
    for (int i = 0; i < SSDSIM_TRACE_SIZE_BUCKETS; i++) {
        cJSON *x = cJSON_CreateObject();
        if (i + 1 < SSDSIM_TRACE_SIZE_BUCKETS)
            add_u64(x, "max_bytes", bucket_max(i));
        else
            cJSON_AddNullToObject(x, "max_bytes");
        add_u64(x, "count", in->size_hist[i]);
        cJSON_AddItemToArray(hist, x);
    }
    add_u64(o, "min_length", in->min_length);
    add_u64(o, "max_length", in->max_length);
    add_u64(o, "footprint_bytes", in->footprint_bytes);
    add_u64(o, "footprint_write_bytes", in->footprint_write_bytes);
    add_u64(o, "max_end_bytes", in->max_end_bytes);
    add_u64(o, "duration_ns", in->duration_ns);
    cJSON_AddNumberToObject(o, "arrival_rate", in->arrival_rate);
    cJSON_AddNumberToObject(o, "interarrival_mean_ns", in->interarrival_mean_ns);
    cJSON_AddNumberToObject(o, "interarrival_stddev_ns", in->interarrival_stddev_ns);
    add_u64(o, "interarrival_min_ns", in->interarrival_min_ns);
    add_u64(o, "interarrival_max_ns", in->interarrival_max_ns);
    add_u64(o, "unaligned_4k", in->unaligned_4k);
    add_u64(o, "n_devices", in->n_devices);
    add_u64(o, "bad_lines", in->bad_lines);
    add_u64(o, "out_of_order", in->out_of_order);
    add_u64(o, "gzip_trailing_bytes", in->gzip_trailing_bytes);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) {
        cli_error("trace info: out of memory");
        return CLI_EXIT_FAIL;
    }
    puts(text);
    free(text);
    return 0;
}

/* The --device values given, "5" or "5, 7", for messages. */
static const char *devices_text(const struct trace_cmd *c, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->opts.n_devices && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu32, i ? ", " : "",
                               c->opts.devices[i]);
    return buf;
}

static int trace_info(const struct trace_cmd *c)
{
    ssdsim_trace_info info;
    ssdsim_error err;
    char dev[256];
    if (ssdsim_trace_info_file(c->in, &c->opts, &info, &err)) {
        cli_error("%s", err.message);
        return CLI_EXIT_FAIL;
    }
    if (info.gzip_trailing_bytes)
        cli_error("warning: %s", cli_trace_gzip_garbage(c->in, info.gzip_trailing_bytes));
    /* as run --trace: a --device with no request is an error when no request is left, else a
     * warning (the summary would describe devices that are not there) */
    if (c->opts.n_devices && info.requests == 0) {
        cli_error("%s: no request of --device %s in the whole trace", c->in,
                  devices_text(c, dev, sizeof dev));
        return CLI_EXIT_FAIL;
    }
    if (c->opts.n_devices && info.n_devices < c->opts.n_devices)
        cli_error("warning: %s: %zu of the %zu devices given (--device %s) have no request in "
                  "the trace",
                  c->in, c->opts.n_devices - info.n_devices, c->opts.n_devices,
                  devices_text(c, dev, sizeof dev));
    if (c->json)
        return print_info_json(c->in, &info);
    print_info(c->in, &info, &c->opts);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* trace convert                                                                               */

/* The writer's message names the temporary file it writes (outfile.c): a request it cannot
 * write is the input's fault, named "IN:LINE: why"; anything else is the output's, named by
 * its path as given. */
static void convert_error(const struct trace_cmd *c, const struct cli_out *out,
                          const ssdsim_error *err, const ssdsim_trace_req *req, uint64_t n)
{
    const char *m = err->message;
    size_t tl = strlen(out->tmp);
    bool tmp = !strncmp(m, out->tmp, tl) && !strncmp(m + tl, ": ", 2);
    if (tmp)
        m += tl + 2;
    char at[96];
    snprintf(at, sizeof at, "request %" PRIu64 " (input line %" PRIu64 "): ", n + 1,
             req ? req->line : 0);
    if (req && req->line && !strncmp(m, at, strlen(at)))
        cli_error("%s:%" PRIu64 ": %s", c->in, req->line, m + strlen(at));
    else if (tmp)
        cli_error("%s: %s", c->out, m);
    else
        cli_error("%s", m);
}

static int trace_convert(const struct trace_cmd *c)
{
    /* The output is written under a temporary name and renamed when whole (outfile.c); it may
     * not be the input. */
    cli_input_add(c->in);
    int orc = cli_output_check(c->out); /* an input: 2; a path that cannot be written: 1 */
    if (orc)
        return orc;
    struct cli_out out;
    if (cli_out_begin(&out, c->out))
        return CLI_EXIT_FAIL;
    ssdsim_error err;
    ssdsim_trace *t = NULL;
    ssdsim_trace_writer *w = NULL;
    if (ssdsim_trace_open(&t, c->in, &c->opts, &err)) {
        cli_error("%s", err.message);
        cli_out_abort(&out);
        return CLI_EXIT_FAIL;
    }
    cli_trace_note_unit(c->in, t);
    if (ssdsim_trace_writer_open(&w, out.tmp, c->to, c->target, &err)) {
        cli_error("%s", err.message);
        ssdsim_trace_close(t);
        cli_out_abort(&out);
        return CLI_EXIT_FAIL;
    }
    ssdsim_trace_req req;
    uint64_t n = 0;
    int rc;
    bool put_failed = false, close_failed = false;
    while ((rc = ssdsim_trace_next(t, &req, &err)) == 1) {
        if ((rc = ssdsim_trace_writer_put(w, &req, &err)) != 0) {
            put_failed = true;
            break;
        }
        n++;
    }
    if (rc == 0) {
        rc = ssdsim_trace_writer_close(w, &err);
        close_failed = rc != 0;
    } else {
        ssdsim_trace_writer_close(w, NULL);
    }
    ssdsim_trace_format from = ssdsim_trace_get_format(t);
    uint64_t bad = ssdsim_trace_bad_lines(t);
    /* a --device with no request: an empty or partial trace would replay as if it were the
     * devices asked for (run --trace refuses the same) */
    size_t absent = 0;
    for (size_t i = 0; rc == 0 && i < c->opts.n_devices; i++)
        absent += ssdsim_trace_device_requests(t, c->opts.devices[i]) == 0;
    ssdsim_trace_stats st;
    ssdsim_trace_get_stats(t, &st);
    ssdsim_trace_close(t);
    if (rc == 0 && st.gzip_trailing_bytes)
        cli_error("warning: %s", cli_trace_gzip_garbage(c->in, st.gzip_trailing_bytes));
    if (rc == 0 && absent) {
        char dev[256];
        cli_error("%s: --device %s: %zu of the %zu devices given have no request in the whole "
                  "trace; nothing written",
                  c->in, devices_text(c, dev, sizeof dev), absent, c->opts.n_devices);
        cli_out_abort(&out);
        return CLI_EXIT_FAIL;
    }
    if (rc) {
        /* A half-written trace would replay as if it were whole: leave none behind. */
        if (put_failed || close_failed)
            convert_error(c, &out, &err, put_failed ? &req : NULL, n);
        else
            cli_error("%s", err.message);
        cli_out_abort(&out);
        return CLI_EXIT_FAIL;
    }
    if (cli_out_commit(&out))
        return CLI_EXIT_FAIL;
    printf("%s (%s) -> %s (%s): %" PRIu64 " requests", c->in, ssdsim_trace_format_name(from),
           c->out, ssdsim_trace_format_name(c->to), n);
    if (bad)
        printf(", %" PRIu64 " bad lines skipped (the first, line %" PRIu64 ": %s)", bad,
               st.first_bad_line, st.first_bad_why);
    putchar('\n');
    return 0;
}

int cli_trace(int argc, char **argv)
{
    struct trace_cmd c;
    int rc = trace_parse(argc, argv, &c);
    if (rc >= 0)
        return rc;
    return c.info ? trace_info(&c) : trace_convert(&c);
}
