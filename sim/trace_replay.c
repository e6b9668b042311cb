/* trace_replay.c: what `ssdsim run --trace` says about the trace it replayed, besides the
 * results: the note on a time unit the format does not give (before the run), then the
 * warnings (gzip trailing garbage, a --device absent from the trace, out-of-order times, a time
 * unit that makes the trace implausibly long or dense), the summary line, the error for a replay
 * of nothing, and the "trace" member of the results JSON (doc/results.md).
 *
 * Everything comes from the reader's own counts (ssdsim_trace_get_stats), read once after the
 * run: nothing is re-read or estimated.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"

/* A trace read in its unit that spans more than this is implausible for a replay (a trace in
 * ns read as ms lasts a million times too long): a day. */
#define PLAUSIBLE_SPAN_NS (UINT64_C(86400) * 1000000000)

static const char *unit_name(uint64_t ns)
{
    switch (ns) {
    case 1:
        return "ns";
    case 1000:
        return "us";
    case 1000000:
        return "ms";
    case 1000000000:
        return "s";
    default:
        return NULL;
    }
}

/* "ms" or "100 ns" (MSR's filetime ticks). */
static const char *unit_text(uint64_t ns, char *buf, size_t len)
{
    const char *name = unit_name(ns);
    if (name)
        return name;
    snprintf(buf, len, "%" PRIu64 " ns", ns);
    return buf;
}

void cli_trace_note_unit(const char *path, const ssdsim_trace *t)
{
    ssdsim_trace_stats st;
    ssdsim_trace_get_stats(t, &st);
    if (!st.time_unit_assumed)
        return;
    char buf[32];
    cli_error("note: %s: DiskSim ASCII times have no unit; read as %s (DiskSim's); "
              "--time-unit ns|us|ms|s to change (MQSim and SSDSim traces count ns)",
              path, unit_text(st.time_unit_ns, buf, sizeof buf));
}

const char *cli_trace_gzip_garbage(const char *path, uint64_t bytes)
{
    static char line[1200];
    snprintf(line, sizeof line,
             "%.1000s: %" PRIu64 " byte%s after the end of the gzip stream ignored (trailing "
             "garbage)",
             path, bytes, bytes == 1 ? "" : "s");
    return line;
}

/* "5", "5 and 7", "5, 7 and 9": the --device values with no request, in the order given. */
static void absent_devices(const ssdsim_trace *t, const ssdsim_trace_opts *opts, GString *list,
                           unsigned *n)
{
    *n = 0;
    size_t total = 0;
    for (size_t i = 0; i < opts->n_devices; i++)
        if (ssdsim_trace_device_requests(t, opts->devices[i]) == 0)
            total++;
    for (size_t i = 0; i < opts->n_devices; i++) {
        if (ssdsim_trace_device_requests(t, opts->devices[i]) != 0)
            continue;
        (*n)++;
        if (*n > 1)
            g_string_append(list, *n == total ? " and " : ", ");
        g_string_append_printf(list, "%" PRIu32, opts->devices[i]);
    }
}

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
    cJSON_AddNumberToObject(o, key, (double)v);
}

void cli_trace_outcome(struct cli_trace_outcome *out, const char *path, const ssdsim_trace *t,
                       const ssdsim_trace_opts *opts, bool timed, uint64_t replayed)
{
    memset(out, 0, sizeof *out);
    out->replayed = replayed;
    ssdsim_trace_stats *st = &out->stats;
    ssdsim_trace_get_stats(t, st);
    out->format = ssdsim_trace_get_format(t);
    GPtrArray *warn = g_ptr_array_new_with_free_func(g_free);
    char buf[32];
    const char *unit = unit_text(st->time_unit_ns, buf, sizeof buf);

    if (st->gzip_trailing_bytes)
        g_ptr_array_add(warn, g_strdup(cli_trace_gzip_garbage(path, st->gzip_trailing_bytes)));
    GString *absent = g_string_new(NULL);
    unsigned n_absent;
    absent_devices(t, opts, absent, &n_absent);
    if (n_absent) {
        char *w;
        if (st->at_end)
            w = g_strdup_printf("%s: --device %s %s not in the trace (no request of %s in the "
                                "whole file)",
                                path, absent->str, n_absent > 1 ? "are" : "is",
                                n_absent > 1 ? "them" : "it");
        else
            w = g_strdup_printf("%s: --device %s: no request of %s in the part of the trace "
                                "replayed",
                                path, absent->str, n_absent > 1 ? "them" : "it");
        g_ptr_array_add(warn, w);
    }
    if (st->merged_requests && opts->n_devices == 0)
        g_ptr_array_add(warn,
                        g_strdup_printf("%s: requests of several devices merged into one address "
                                        "space (%" PRIu64 " of %" PRIu64 " are not of device "
                                        "%" PRIu32 ", the first request's); --device N replays "
                                        "one device's (ssdsim trace info lists them)",
                                        path, st->merged_requests, st->requests,
                                        st->first_device));
    if (st->out_of_order && timed)
        g_ptr_array_add(warn,
                        g_strdup_printf("%s: %" PRIu64 " request%s earlier than the request "
                                        "before %s (out of order): replayed in file order, each "
                                        "issued at once after the one before it (not sorted)",
                                        path, st->out_of_order, st->out_of_order > 1 ? "s" : "",
                                        st->out_of_order > 1 ? "them" : "it"));
    if (out->format == SSDSIM_TRACE_DISKSIM && st->requests >= 2) {
        /* Both checks are of the trace's own times, whatever --time-scale does to them. */
        const char *how = st->time_unit_assumed ? " (assumed)" : "";
        if (st->last_time_ns > PLAUSIBLE_SPAN_NS)
            g_ptr_array_add(warn,
                            g_strdup_printf("%s: with times in %s%s, the requests read span %.1f "
                                            "days; if the trace counts ns (MQSim, SSDSim), use "
                                            "--time-unit ns",
                                            path, unit, how, (double)st->last_time_ns / 86400e9));
        else if (st->last_time_ns > 0 && st->last_time_ns < st->requests - 1)
            g_ptr_array_add(
                warn, g_strdup_printf("%s: with times in %s%s, %" PRIu64 " requests arrive in "
                                      "%" PRIu64 " ns, less than 1 ns apart on average; if the "
                                      "trace counts a larger unit, use --time-unit us, ms or s",
                                      path, unit, how, st->requests, st->last_time_ns));
    }
    out->n_warnings = warn->len;
    g_ptr_array_add(warn, NULL);
    out->warnings = (char **)g_ptr_array_free(warn, FALSE);

    if (st->requests == 0) {
        GString *why = g_string_new(NULL);
        g_string_printf(why, "%s: no request to replay", path);
        if (n_absent && st->other_devices)
            g_string_append_printf(why,
                                   ": --device %s %s not in the trace (%" PRIu64
                                   " requests of other devices skipped)",
                                   absent->str, n_absent > 1 ? "are" : "is", st->other_devices);
        else
            g_string_append(why, ": the trace has no read, write or trim request");
        if (st->bad_lines)
            g_string_append_printf(why, "; %" PRIu64 " malformed lines skipped (--skip-bad-lines)",
                                   st->bad_lines);
        if (out->format == SSDSIM_TRACE_BLKPARSE)
            g_string_append(why, opts->blkparse_issue
                                     ? " (blkparse: D events are read; without "
                                       "--blkparse-events issue, Q events)"
                                     : " (blkparse: Q events are read; --blkparse-events issue "
                                       "reads D events)");
        out->empty = g_string_free(why, FALSE);
    }

    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", path);
    cJSON_AddStringToObject(j, "format", ssdsim_trace_format_name(out->format));
    add_u64(j, "time_unit_ns", st->time_unit_ns);
    cJSON_AddBoolToObject(j, "time_unit_assumed", st->time_unit_assumed != 0);
    add_u64(j, "requests_read", st->requests);
    add_u64(j, "requests_replayed", out->replayed);
    add_u64(j, "bad_lines", st->bad_lines);
    add_u64(j, "out_of_order", st->out_of_order);
    add_u64(j, "other_devices", st->other_devices);
    add_u64(j, "merged_requests", st->merged_requests);
    add_u64(j, "span_ns", st->last_time_ns);
    cJSON *absent_j = cJSON_AddArrayToObject(j, "devices_absent");
    for (size_t i = 0; i < opts->n_devices; i++)
        if (ssdsim_trace_device_requests(t, opts->devices[i]) == 0)
            cJSON_AddItemToArray(absent_j, cJSON_CreateNumber(opts->devices[i]));
    add_u64(j, "gzip_trailing_bytes", st->gzip_trailing_bytes);
    cJSON *w = cJSON_AddArrayToObject(j, "warnings");
    for (size_t i = 0; i < out->n_warnings; i++)
        cJSON_AddItemToArray(w, cJSON_CreateString(out->warnings[i]));
    out->json = cJSON_Print(j);
    cJSON_Delete(j);
    g_string_free(absent, TRUE);
}

void cli_trace_warn(const struct cli_trace_outcome *out)
{
    for (size_t i = 0; i < out->n_warnings; i++)
        cli_error("warning: %s", out->warnings[i]);
}

void cli_trace_summary(FILE *f, const struct cli_trace_outcome *out)
{
    const ssdsim_trace_stats *st = &out->stats;
    char buf[32];
    fprintf(f, "trace: %" PRIu64 " requests replayed", out->replayed);
    if (out->replayed != st->requests)
        fprintf(f, " of %" PRIu64 " read", st->requests);
    fprintf(f, " (%s, times in %s%s), %" PRIu64 " out of order",
            ssdsim_trace_format_name(out->format), unit_text(st->time_unit_ns, buf, sizeof buf),
            st->time_unit_assumed ? ", assumed" : "", st->out_of_order);
    if (st->other_devices)
        fprintf(f, ", %" PRIu64 " of other devices skipped", st->other_devices);
    if (st->bad_lines)
        fprintf(f,
                ", %" PRIu64 " malformed lines skipped (--skip-bad-lines; the first, line %" PRIu64
                ": %s)",
                st->bad_lines, st->first_bad_line, st->first_bad_why);
    fputc('\n', f);
    /* how it was replayed, which the figures depend on */
    const ssdsim_job_info *j = &out->job;
    if (!j->replay)
        return;
    if (j->replay_iodepth) {
        fprintf(f, "replay: closed loop, %" PRIu32 " outstanding (the trace's times ignored)",
                j->replay_iodepth);
    } else {
        double span = (double)j->last_arrival_ns / 1e9;
        double took = (double)(j->end_ns - j->start_ns) / 1e9;
        fprintf(f, "replay: open loop at the trace's times");
        if (j->time_scale != 1)
            fprintf(f, " / %g (--time-scale)", j->time_scale);
        fprintf(f, "; arrivals over %.3f s, all done at %.3f s", span, took);
        /* the device fell behind the arrivals: more than a tenth of the span (and a
         * millisecond) past the last arrival */
        if (took > 1.1 * span + 1e-3 && span > 0)
            fprintf(f, " (%.1f x: the device fell behind, and latencies are mostly the host's "
                       "queue)",
                    took / span);
    }
    if (j->wrap)
        fprintf(f, "; %" PRIu64 " of %" PRIu64 " requests wrapped (--wrap)", j->wrapped_requests,
                out->replayed);
    fputc('\n', f);
}

char *cli_trace_results_json(const char *json, const struct cli_trace_outcome *out)
{
    return out->json ? cli_json_insert_first(json, "trace", out->json) : NULL;
}

void cli_trace_outcome_free(struct cli_trace_outcome *out)
{
    g_strfreev(out->warnings);
    g_free(out->empty);
    free(out->json);
    memset(out, 0, sizeof *out);
}
