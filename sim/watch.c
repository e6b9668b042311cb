/* watch.c: the outputs that follow a run request by request, through the library's observer
 * (ssdsim_set_observer):
 *
 *   --record FILE       every issued request into a trace (fio iolog v3 by default), times
 *                       relative to the start of the run, so the run can be replayed by fio or
 *                       by `ssdsim run --trace`;
 *   --latency-log FILE  one CSV row per completed request with the parts of its latency;
 *   fio's logs          the write_lat_log / write_iops_log / write_bw_log files a fio job file
 *                       asks for, named and formatted as fio 3.x writes them (see below).
 *
 * Each file is written under a temporary name (outfile.c) and renamed when the run ends: to its
 * name after a complete run, to NAME.partial after an interrupted or failed one, so that NAME
 * never holds a log that stops half-way.
 *
 * The observer runs inside the simulation and cannot fail it: a write error is remembered and
 * reported when the outputs are closed. Nothing is allocated per request; memory is O(job
 * clones) (one small state and up to five buffered files per clone that asks for logs).
 *
 * fio's logs: the entries are the library's (ssdsim_fio_logs_*, ssdsim/measure.h, which says
 * their format); this file opens the files, one per clone and log, and writes the lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include "cli.h"
#include "ssdsim/measure.h"

/* Buffers: the latency log can get a line per request of a long run. */
#define LATLOG_BUF_BYTES (1u << 20)
#define FIO_LOG_BUF_BYTES (64u << 10)

/* One job clone's fio log files (NULL: not asked). */
struct fio_files {
    FILE *f[SSDSIM_FIO_LOG_KINDS];
    struct cli_out out[SSDSIM_FIO_LOG_KINDS];
};

/* What cli_watch.fio_logs points to: the latency log's buffer and the fio logs. */
struct watch_priv {
    struct cli_out latlog_out, record_out; /* temporary names until the run ends (outfile.c) */
    char *latlog_buf;
    const char *latlog_path; /* o->latency_log, for messages */
    ssdsim_fio_logs *logs;   /* NULL when no section asks for logs */
    struct fio_files *files; /* one per job clone */
};

static void note_failure(struct cli_watch *w, const char *what, const char *path)
{
    if (w->failed)
        return;
    w->failed = 1;
    snprintf(w->failmsg, sizeof w->failmsg, "%s: %s: %s", path, what, strerror(errno));
}

/* Finish one output: renamed to its name (CLI_WATCH_COMMIT) or to NAME.partial
 * (CLI_WATCH_PARTIAL), or removed (CLI_WATCH_DISCARD, or after a write error, which close
 * reports). A failure of its own is printed at once (w->failed 2: nothing more to print). */
static void end_output(struct cli_watch *w, struct cli_out *o, enum cli_watch_end how)
{
    if (w->failed || how == CLI_WATCH_DISCARD) {
        cli_out_abort(o);
        return;
    }
    if (cli_out_commit_as(o, how == CLI_WATCH_PARTIAL ? ".partial" : NULL))
        w->failed = 2;
}

/* ------------------------------------------------------------------------------------------ */
/* fio logs                                                                                    */

/* An entry of a fio log: its line. */
static void fio_entry(const ssdsim_fio_log_entry *e, void *userdata)
{
    struct cli_watch *w = userdata;
    struct watch_priv *p = w->fio_logs;
    FILE *f = p->files[e->clone].f[e->kind];
    if (f && fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64 ", 0\n", e->t_ms, e->value,
                     e->dir, e->bs) < 0)
        note_failure(w, "write failed", ssdsim_fio_logs_path(p->logs, e->clone, e->kind));
}

/* Make room for `n_files` more open files: the soft limit is raised towards the hard one (a job
 * file with numjobs=256 and three logs needs 1280). */
static void reserve_files(size_t n_files)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return;
    rlim_t want = (rlim_t)n_files + 64;
    if (rl.rlim_cur >= want)
        return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
}

static int fio_logs_open(struct cli_watch *w, struct watch_priv *p, const ssdsim_workload *wl)
{
    ssdsim_error err;
    if (ssdsim_fio_logs_new(&p->logs, wl, fio_entry, w, &err)) {
        cli_error("%s", err.message);
        return -1;
    }
    if (!p->logs)
        return 0;
    uint32_t n = ssdsim_fio_logs_n_clones(p->logs);
    size_t n_files = 0;
    for (uint32_t c = 0; c < n; c++)
        for (int k = 0; k < SSDSIM_FIO_LOG_KINDS; k++)
            n_files += ssdsim_fio_logs_path(p->logs, c, k) != NULL;
    reserve_files(n_files);
    p->files = g_new0(struct fio_files, n);
    for (uint32_t c = 0; c < n; c++) {
        for (int k = 0; k < SSDSIM_FIO_LOG_KINDS; k++) {
            const char *path = ssdsim_fio_logs_path(p->logs, c, k);
            if (!path)
                continue;
            if (cli_out_open(&p->files[c].out[k], path))
                return -1;
            p->files[c].f[k] = p->files[c].out[k].f;
            setvbuf(p->files[c].f[k], NULL, _IOFBF, FIO_LOG_BUF_BYTES);
        }
    }
    ssdsim_fio_logs_start(p->logs, w->sim);
    return 0;
}

/* Close every fio log; with CLI_WATCH_COMMIT, write the last partial windows first. */
static void fio_logs_close(struct cli_watch *w, struct watch_priv *p, enum cli_watch_end how)
{
    if (how == CLI_WATCH_COMMIT)
        ssdsim_fio_logs_finish(p->logs);
    for (uint32_t c = 0; p->files && c < ssdsim_fio_logs_n_clones(p->logs); c++) {
        for (int k = 0; k < SSDSIM_FIO_LOG_KINDS; k++) {
            if (p->files[c].out[k].tmp)
                end_output(w, &p->files[c].out[k], how);
            p->files[c].f[k] = NULL;
        }
    }
    g_free(p->files);
    ssdsim_fio_logs_free(p->logs);
    p->files = NULL;
    p->logs = NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* The observer                                                                                */

static const char *op_name(enum ssdsim_op op)
{
    switch (op) {
    case SSDSIM_OP_READ: return "read";
    case SSDSIM_OP_WRITE: return "write";
    case SSDSIM_OP_TRIM: return "trim";
    case SSDSIM_OP_FLUSH: return "flush";
    case SSDSIM_OP_ZONE_APPEND: return "zone-append";
    case SSDSIM_OP_ZONE_RESET: return "zone-reset";
    case SSDSIM_OP_ZONE_FINISH: return "zone-finish";
    case SSDSIM_OP_ZONE_OPEN: return "zone-open";
    case SSDSIM_OP_ZONE_CLOSE: return "zone-close";
    default: return "write";
    }
}

static void on_issue(const ssdsim_completion *c, void *userdata)
{
    struct cli_watch *w = userdata;
    if (!w->record)
        return;
    ssdsim_trace_req r = {
        .time_ns = c->submit_ns - w->t0_ns,
        .op = c->op == SSDSIM_OP_WRITE_FUA ? SSDSIM_OP_WRITE : c->op, /* no trace holds FUA */
        .offset = c->offset,
        .length = c->length,
    };
    if (r.op == SSDSIM_OP_FLUSH && (w->record_format == SSDSIM_TRACE_CSV ||
                                    w->record_format == SSDSIM_TRACE_DISKSIM)) {
        w->record_flushes_left++;
        return;
    }
    if (r.op != SSDSIM_OP_READ && r.op != SSDSIM_OP_WRITE && r.op != SSDSIM_OP_TRIM &&
        r.op != SSDSIM_OP_FLUSH) {
        w->record_zone_left++;
        return;
    }
    ssdsim_error err;
    if (ssdsim_trace_writer_put(w->record, &r, &err)) {
        if (!w->failed) {
            w->failed = 1;
            snprintf(w->failmsg, sizeof w->failmsg, "--record: %.480s", err.message);
        }
        /* The first error is the one reported; the rest of the trace would be incomplete. */
        ssdsim_trace_writer_close(w->record, NULL);
        w->record = NULL;
    }
}

static void on_complete(const ssdsim_completion *c, void *userdata)
{
    struct cli_watch *w = userdata;
    if (w->latlog) {
        char job[16] = "";
        if (c->job != SSDSIM_NO_JOB)
            snprintf(job, sizeof job, "%" PRIu32, c->job);
        if (fprintf(w->latlog,
                    "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                    ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                    c->id, job, op_name(c->op), c->offset, c->length, c->submit_ns - w->t0_ns,
                    c->complete_ns - w->t0_ns, c->complete_ns - c->submit_ns, c->queue_ns,
                    c->frontend_ns, c->flash_ns, c->transfer_ns, c->gc_wait_ns) < 0)
            note_failure(w, "write failed", ((struct watch_priv *)w->fio_logs)->latlog_path);
    }
    struct watch_priv *p = w->fio_logs;
    if (p && p->logs)
        ssdsim_fio_logs_complete(p->logs, c);
}

/* ------------------------------------------------------------------------------------------ */
/* Open and close                                                                              */

static void close_all(struct cli_watch *w, enum cli_watch_end how)
{
    struct watch_priv *p = w->fio_logs;
    if (w->sim)
        ssdsim_set_observer(w->sim, NULL);
    if (w->record) {
        ssdsim_error err;
        if (ssdsim_trace_writer_close(w->record, &err) && !w->failed) {
            w->failed = 1;
            snprintf(w->failmsg, sizeof w->failmsg, "--record: %.480s", err.message);
        }
        w->record = NULL;
        if (w->record_flushes_left)
            fprintf(stderr,
                    "ssdsim: --record: %" PRIu64 " flushes left out (%s has no flush; the fio "
                    "iolog formats write them as sync)\n",
                    w->record_flushes_left,
                    w->record_format == SSDSIM_TRACE_CSV ? "the CSV format" : "DiskSim ASCII");
        if (w->record_zone_left)
            fprintf(stderr, "ssdsim: --record: %" PRIu64 " zone commands left out (no trace "
                            "format holds them)\n",
                    w->record_zone_left);
    }
    if (p && p->record_out.tmp)
        end_output(w, &p->record_out, how);
    if (w->latlog) {
        errno = 0;
        if (ferror(w->latlog))
            note_failure(w, "write failed", p->latlog_path);
        w->latlog = NULL; /* closed by end_output */
    }
    if (p && p->latlog_out.tmp)
        end_output(w, &p->latlog_out, how);
    if (p) {
        fio_logs_close(w, p, how);
        g_free(p->latlog_buf);
        g_free(p);
        w->fio_logs = NULL;
    }
}

int cli_watch_open(struct cli_watch *w, const struct cli_run_opts *o, const ssdsim_workload *wl,
                   ssdsim *sim)
{
    memset(w, 0, sizeof *w);
    w->sim = sim;
    w->t0_ns = ssdsim_now(sim);
    struct watch_priv *p = g_new0(struct watch_priv, 1);
    w->fio_logs = p;
    if (o->record_path) {
        ssdsim_error err;
        ssdsim_trace_format fmt = o->record_format ? o->record_format : SSDSIM_TRACE_FIO_IOLOG3;
        if (cli_out_begin(&p->record_out, o->record_path))
            goto fail;
        w->record_format = fmt;
        if (ssdsim_trace_writer_open(&w->record, p->record_out.tmp, fmt, NULL, &err)) {
            cli_error("--record: %.480s", err.message);
            w->record = NULL;
            goto fail;
        }
    }
    if (o->latency_log) {
        if (cli_out_open(&p->latlog_out, o->latency_log))
            goto fail;
        w->latlog = p->latlog_out.f;
        p->latlog_path = o->latency_log;
        p->latlog_buf = g_malloc(LATLOG_BUF_BYTES);
        setvbuf(w->latlog, p->latlog_buf, _IOFBF, LATLOG_BUF_BYTES);
        fputs("id,job,op,offset,length,submit_ns,complete_ns,latency_ns,queue_ns,frontend_ns,"
              "flash_ns,transfer_ns,gc_wait_ns\n",
              w->latlog);
    }
    if (wl && !o->trace_path && fio_logs_open(w, p, wl))
        goto fail;
    if (w->record || w->latlog || p->logs) {
        ssdsim_observer obs = {.on_issue = w->record ? on_issue : NULL,
                               .on_complete = w->latlog || p->logs ? on_complete : NULL,
                               .userdata = w};
        ssdsim_set_observer(sim, &obs);
    }
    return 0;
fail:
    close_all(w, CLI_WATCH_DISCARD);
    return -1;
}

int cli_watch_close(struct cli_watch *w, enum cli_watch_end how)
{
    close_all(w, how);
    if (w->failed == 2)
        return -1; /* printed already */
    /* After a failed run the run's error is the one to report (one error line). */
    if (w->failed && how == CLI_WATCH_COMMIT) {
        cli_error("%s", w->failmsg);
        return -1;
    }
    return 0;
}
