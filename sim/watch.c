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
 * fio's log format (fio 3.x HOWTO, "Log File Formats", without log_offset): one line per entry,
 * "time (ms), value, data direction (0 read, 1 write, 2 trim), block size, priority (0)".
 * Files are <prefix>_lat.N.log, _clat.N.log, _slat.N.log, _iops.N.log, _bw.N.log with N the
 * job's number over the whole run, 1-based (fio's thread number: clones of a section are
 * consecutive, sections in file order). Times count from the job's start, after its ramp_time
 * (fio resets its epoch then; I/Os issued during the ramp are not logged).
 *   - Without log_avg_msec, one entry per completed I/O: lat and clat the latency in ns (the
 *     same: the simulated host has no submission latency), iops 1, bw the I/O's bytes x 10^6 /
 *     its latency in ns (fio's per-I/O rate), with the I/O's size. The slat log stays empty,
 *     as fio's does for a synchronous engine.
 *   - With log_avg_msec W, one entry per direction per window [kW, (k+1)W) that saw I/O,
 *     stamped (k+1)W: lat/clat the mean latency (rounded), iops the I/Os x 1000 / W, bw the
 *     bytes x 1000 / W / 1024 (KiB/s), block size 0. A last, partial window is written for
 *     the latency logs at the job's last completion, not for iops and bw (as fio does).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include "cli.h"

/* Buffers: the latency log can get a line per request of a long run. */
#define LATLOG_BUF_BYTES (1u << 20)
#define FIO_LOG_BUF_BYTES (64u << 10)

enum { LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_IOPS, LOG_BW, N_LOGS };
static const char *const log_suffix[N_LOGS] = {"lat", "clat", "slat", "iops", "bw"};

/* One job clone that writes fio logs. */
struct fio_clone {
    FILE *f[N_LOGS]; /* NULL: not asked (else out[].f) */
    struct cli_out out[N_LOGS];
    char *path[N_LOGS];
    uint64_t avg_ms;   /* log_avg_msec; 0 = an entry per I/O */
    bool started;      /* its epoch is known */
    uint64_t epoch_ns; /* absolute simulated time of its log time 0 (start + ramp_time) */
    /* the current window (log_avg_msec) */
    uint64_t win;
    uint64_t n[3], lat_sum[3], bytes[3];
    uint64_t last_ms; /* time of its last logged completion */
    bool logged;
};

/* What cli_watch.fio_logs points to: the latency log's buffer and the clones' logs. */
struct watch_priv {
    struct cli_out latlog_out, record_out; /* temporary names until the run ends (outfile.c) */
    char *latlog_buf;
    const char *latlog_path; /* o->latency_log, for messages */
    uint32_t n_clones;
    struct fio_clone *clones; /* NULL when no section asks for logs */
    uint32_t *unit_of;        /* clone -> reported job, built at the first completion */
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

static void log_line(struct cli_watch *w, struct fio_clone *k, int log, uint64_t t_ms,
                     uint64_t value, int dir, uint64_t bs)
{
    if (!k->f[log])
        return;
    if (fprintf(k->f[log], "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64 ", 0\n", t_ms, value, dir, bs) <
        0)
        note_failure(w, "write failed", k->path[log]);
}

/* Write the averages of the clone's current window, stamped t_ms; `rates` also writes the iops
 * and bw entries (complete windows only). */
static void flush_window(struct cli_watch *w, struct fio_clone *k, uint64_t t_ms, bool rates)
{
    for (int d = 0; d < 3; d++) {
        uint64_t n = k->n[d];
        if (!n)
            continue;
        uint64_t mean = (2 * k->lat_sum[d] + n) / (2 * n); /* rounded, as fio's + 0.5 */
        log_line(w, k, LOG_LAT, t_ms, mean, d, 0);
        log_line(w, k, LOG_CLAT, t_ms, mean, d, 0);
        if (rates) {
            log_line(w, k, LOG_IOPS, t_ms, n * 1000 / k->avg_ms, d, 0);
            log_line(w, k, LOG_BW, t_ms, k->bytes[d] * 1000 / k->avg_ms / 1024, d, 0);
        }
        k->n[d] = k->lat_sum[d] = k->bytes[d] = 0;
    }
}

/* The clone's epoch: when its reported job started, plus its ramp_time, read from the running
 * simulation at the clone's first completion (its job has started by then). */
static void start_clone(struct cli_watch *w, struct watch_priv *p, uint32_t clone)
{
    struct fio_clone *k = &p->clones[clone];
    k->started = true;
    k->epoch_ns = w->t0_ns;
    if (!p->unit_of) {
        p->unit_of = g_new0(uint32_t, p->n_clones);
        size_t n = ssdsim_n_jobs(w->sim);
        for (size_t u = 0; u < n; u++) {
            ssdsim_job_info ji;
            if (ssdsim_get_job(w->sim, u, &ji))
                continue;
            for (uint32_t c = ji.first_clone; c < ji.first_clone + ji.n_clones; c++)
                if (c < p->n_clones)
                    p->unit_of[c] = (uint32_t)u;
        }
    }
    ssdsim_job_info ji;
    if (ssdsim_get_job(w->sim, p->unit_of[clone], &ji) == 0)
        k->epoch_ns = w->t0_ns + ji.start_ns + ji.ramp_ns;
}

static void fio_log_complete(struct cli_watch *w, struct watch_priv *p, const ssdsim_completion *c)
{
    if (!p->clones || c->job == SSDSIM_NO_JOB || c->job >= p->n_clones)
        return;
    struct fio_clone *k = &p->clones[c->job];
    if (!k->f[LOG_LAT] && !k->f[LOG_IOPS] && !k->f[LOG_BW])
        return;
    if (!k->started)
        start_clone(w, p, c->job);
    if (c->submit_ns < k->epoch_ns) /* issued during the ramp */
        return;
    uint64_t t_ms = (c->complete_ns - k->epoch_ns) / 1000000u;
    uint64_t lat = c->complete_ns - c->submit_ns;
    int d = (int)c->op;
    if (d < 0 || d > 2)
        return;
    k->last_ms = t_ms;
    k->logged = true;
    if (!k->avg_ms) {
        log_line(w, k, LOG_LAT, t_ms, lat, d, c->length);
        log_line(w, k, LOG_CLAT, t_ms, lat, d, c->length);
        log_line(w, k, LOG_IOPS, t_ms, 1, d, c->length);
        log_line(w, k, LOG_BW, t_ms, lat ? c->length * 1000000u / lat : 0, d, c->length);
        return;
    }
    uint64_t win = t_ms / k->avg_ms;
    if (win != k->win) {
        flush_window(w, k, (k->win + 1) * k->avg_ms, true);
        k->win = win;
    }
    k->n[d]++;
    k->lat_sum[d] += lat;
    k->bytes[d] += c->length;
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
    size_t n_sections = ssdsim_workload_n_jobs(wl);
    uint64_t n_clones = 0, n_files = 0;
    bool any = false;
    for (size_t s = 0; s < n_sections; s++) {
        const char *iops, *lat, *bw;
        uint32_t numjobs = 0;
        if (ssdsim_workload_job_logs(wl, s, &iops, &lat, &bw, NULL, &numjobs))
            continue;
        n_clones += numjobs;
        n_files += (uint64_t)numjobs * ((lat ? 3 : 0) + (iops ? 1 : 0) + (bw ? 1 : 0));
        any = any || iops || lat || bw;
    }
    if (!any)
        return 0;
    if (n_clones > UINT32_MAX / 2) {
        cli_error("fio logs: %" PRIu64 " job clones are too many", n_clones);
        return -1;
    }
    reserve_files(n_files);
    p->n_clones = (uint32_t)n_clones;
    p->clones = g_new0(struct fio_clone, p->n_clones);
    uint32_t clone = 0;
    for (size_t s = 0; s < n_sections; s++) {
        const char *prefix[N_LOGS] = {NULL};
        uint64_t avg = 0;
        uint32_t numjobs = 0;
        const char *iops, *lat, *bw;
        if (ssdsim_workload_job_logs(wl, s, &iops, &lat, &bw, &avg, &numjobs))
            continue;
        /* A log option given without a name uses the job's name, as fio does. */
        const char *name = ssdsim_workload_job_name(wl, s);
        prefix[LOG_LAT] = prefix[LOG_CLAT] = prefix[LOG_SLAT] = lat && !*lat ? name : lat;
        prefix[LOG_IOPS] = iops && !*iops ? name : iops;
        prefix[LOG_BW] = bw && !*bw ? name : bw;
        for (uint32_t c = 0; c < numjobs; c++, clone++) {
            struct fio_clone *k = &p->clones[clone];
            k->avg_ms = avg;
            for (int l = 0; l < N_LOGS; l++) {
                if (!prefix[l])
                    continue;
                k->path[l] = g_strdup_printf("%s_%s.%u.log", prefix[l], log_suffix[l], clone + 1);
                if (cli_out_open(&k->out[l], k->path[l]))
                    return -1;
                k->f[l] = k->out[l].f;
                setvbuf(k->f[l], NULL, _IOFBF, FIO_LOG_BUF_BYTES);
            }
        }
    }
    return 0;
}

/* Close every fio log; with CLI_WATCH_COMMIT, write the last partial windows first. */
static void fio_logs_close(struct cli_watch *w, struct watch_priv *p, enum cli_watch_end how)
{
    for (uint32_t c = 0; p->clones && c < p->n_clones; c++) {
        struct fio_clone *k = &p->clones[c];
        if (how == CLI_WATCH_COMMIT && k->avg_ms && k->logged)
            flush_window(w, k, k->last_ms, false);
        for (int l = 0; l < N_LOGS; l++) {
            if (k->out[l].tmp)
                end_output(w, &k->out[l], how);
            k->f[l] = NULL;
        }
        for (int l = 0; l < N_LOGS; l++)
            g_free(k->path[l]);
    }
    g_free(p->clones);
    g_free(p->unit_of);
    p->clones = NULL;
    p->unit_of = NULL;
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
        .op = c->op,
        .offset = c->offset,
        .length = c->length,
    };
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
    if (w->fio_logs)
        fio_log_complete(w, w->fio_logs, c);
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
    if (w->record || w->latlog || p->clones) {
        ssdsim_observer obs = {.on_issue = w->record ? on_issue : NULL,
                               .on_complete = w->latlog || p->clones ? on_complete : NULL,
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
