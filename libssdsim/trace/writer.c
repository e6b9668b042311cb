/* writer.c: the trace writer of <ssdsim/trace.h>: fio iolog version 3 and 2 (replayable with
 * fio's read_iolog), DiskSim ASCII and ssdsim CSV, one request per call through a buffered
 * stdio stream.
 *
 * Times follow what fio 3.33 does when it replays (iolog.c), checked against a real replay:
 *   - version 3 timestamps are microseconds since the start. fio delays a request by the gap to
 *     the previous line's timestamp, except after a line stamped 0, whose gap it ignores
 *     (delay_since_ttime: "!last_ttime"). The add and open lines are stamped 0, so requests are
 *     stamped time + 1 us: every gap, the first one included, is then replayed.
 *   - version 2 has no timestamps, but "FILE wait MS 0" makes fio hold the following requests
 *     until MS milliseconds after the job started; one such line is written whenever a request's
 *     time reaches a new millisecond, so fio replays the timing to the millisecond.
 * DiskSim times are written in milliseconds with as many decimals as the nanoseconds need, so a
 * DiskSim file read back with the default unit gives the same times to the nanosecond.
 */
#include "trace/trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TARGET "/dev/nvme0n1"
#define WRITE_BUFFER (64 * 1024)

struct ssdsim_trace_writer {
    FILE *f;
    char *path;
    char *target;
    ssdsim_trace_format format;
    uint64_t n_put;   /* requests written */
    uint64_t last_us; /* iolog v3: largest timestamp written */
    uint64_t wait_ms; /* iolog v2: time the last wait line reached */
};

static int write_failed(ssdsim_trace_writer *w, ssdsim_error *err)
{
    return ssdsim__error_set(err, SSDSIM_EIO, w->path, NULL, "cannot write: %s",
                             strerror(errno ? errno : EIO));
}

static void writer_free(ssdsim_trace_writer *w)
{
    if (w->f)
        fclose(w->f);
    free(w->path);
    free(w->target);
    free(w);
}

int ssdsim_trace_writer_open(ssdsim_trace_writer **out, const char *path,
                             ssdsim_trace_format format, const char *target, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_writer_open: out and path must not be NULL");
    if (format != SSDSIM_TRACE_FIO_IOLOG3 && format != SSDSIM_TRACE_FIO_IOLOG2 &&
        format != SSDSIM_TRACE_DISKSIM && format != SSDSIM_TRACE_CSV)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "trace format '%s' cannot be written (writable: fio-iolog3, "
                                 "fio-iolog2, disksim, csv)",
                                 ssdsim_trace_format_name(format));
    if (!target)
        target = DEFAULT_TARGET;
    /* fio reads the name with "%256s": it may not be empty or hold blanks. */
    if (!*target || strlen(target) > 256 || strpbrk(target, " \t\r\n\v\f"))
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "target '%s': expected a file or device name of 1 to 256 bytes "
                                 "without blanks",
                                 target);
    ssdsim_trace_writer *w = calloc(1, sizeof *w);
    int rc;
    if (!w)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
    w->format = format;
    w->path = strdup(path);
    w->target = strdup(target);
    if (!w->path || !w->target) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
        goto fail;
    }
    w->f = fopen(path, "w");
    if (!w->f) {
        rc = ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot create: %s", strerror(errno));
        goto fail;
    }
    setvbuf(w->f, NULL, _IOFBF, WRITE_BUFFER);
    int n = 0;
    errno = 0;
    switch (format) {
    case SSDSIM_TRACE_FIO_IOLOG3:
        n = fprintf(w->f, "fio version 3 iolog\n0 %s add\n0 %s open\n", w->target, w->target);
        break;
    case SSDSIM_TRACE_FIO_IOLOG2:
        n = fprintf(w->f, "fio version 2 iolog\n%s add\n%s open\n", w->target, w->target);
        break;
    case SSDSIM_TRACE_CSV:
        n = fprintf(w->f, "time_ns,device,op,offset,length\n");
        break;
    default:
        break;
    }
    if (n < 0) {
        rc = write_failed(w, err);
        goto fail;
    }
    *out = w;
    return 0;

fail:
    writer_free(w);
    return rc;
}

static const char *op_word(enum ssdsim_op op)
{
    return op == SSDSIM_OP_READ    ? "read"
           : op == SSDSIM_OP_WRITE ? "write"
           : op == SSDSIM_OP_FLUSH ? "sync"
                                   : "trim";
}

/* "request N" and, when known, the input line, for messages. */
static const char *where(const ssdsim_trace_writer *w, const ssdsim_trace_req *req, char *buf,
                         size_t len)
{
    if (req->line)
        snprintf(buf, len, "request %llu (input line %llu)", (unsigned long long)w->n_put + 1,
                 (unsigned long long)req->line);
    else
        snprintf(buf, len, "request %llu", (unsigned long long)w->n_put + 1);
    return buf;
}

int ssdsim_trace_writer_put(ssdsim_trace_writer *w, const ssdsim_trace_req *req, ssdsim_error *err)
{
    if (!w || !req)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_writer_put: writer and req must not be NULL");
    char at[96];
    bool iolog = w->format == SSDSIM_TRACE_FIO_IOLOG3 || w->format == SSDSIM_TRACE_FIO_IOLOG2;
    bool flush = req->op == SSDSIM_OP_FLUSH && iolog; /* fio's "sync" action */
    if (req->op != SSDSIM_OP_READ && req->op != SSDSIM_OP_WRITE && req->op != SSDSIM_OP_TRIM &&
        !flush)
        return ssdsim__error_set(err, SSDSIM_EINVAL, w->path, NULL,
                                 "%s: op %d is not read, write or trim%s",
                                 where(w, req, at, sizeof at), (int)req->op,
                                 iolog ? " or a flush" : "");
    if (!flush && (req->length == 0 || req->length > SSDSIM__TRACE_MAX_LENGTH)) /* a flush: none */
        return ssdsim__error_set(err, SSDSIM_EINVAL, w->path, NULL,
                                 "%s: length %llu is not in [1, 2^32 - 1]",
                                 where(w, req, at, sizeof at), (unsigned long long)req->length);
    if (!flush && req->offset > UINT64_MAX - req->length)
        return ssdsim__error_set(err, SSDSIM_EINVAL, w->path, NULL,
                                 "%s: offset + length is beyond 2^64 bytes",
                                 where(w, req, at, sizeof at));
    unsigned long long off = flush ? 0 : req->offset, len = flush ? 0 : req->length;
    int n = 0;
    errno = 0;
    switch (w->format) {
    case SSDSIM_TRACE_FIO_IOLOG3: {
        uint64_t us = req->time_ns / SSDSIM__NS_PER_US + 1; /* + 1: see the top of the file */
        if (us > w->last_us)
            w->last_us = us;
        n = fprintf(w->f, "%llu %s %s %llu %llu\n", (unsigned long long)us, w->target,
                    op_word(req->op), off, len);
        break;
    }
    case SSDSIM_TRACE_FIO_IOLOG2: {
        uint64_t ms = req->time_ns / SSDSIM__NS_PER_MS;
        if (ms > w->wait_ms) {
            w->wait_ms = ms;
            n = fprintf(w->f, "%s wait %llu 0\n", w->target, (unsigned long long)ms);
            if (n < 0)
                break;
        }
        n = fprintf(w->f, "%s %s %llu %llu\n", w->target, op_word(req->op), off, len);
        break;
    }
    case SSDSIM_TRACE_DISKSIM: {
        if (req->op == SSDSIM_OP_TRIM)
            return ssdsim__error_set(err, SSDSIM_EINVAL, w->path, NULL,
                                     "%s: DiskSim ASCII has no trims (convert to csv or "
                                     "fio-iolog3 instead)",
                                     where(w, req, at, sizeof at));
        if (off % 512 || len % 512)
            return ssdsim__error_set(err, SSDSIM_EINVAL, w->path, NULL,
                                     "%s: offset %llu or length %llu is not a multiple of the "
                                     "512-byte sectors DiskSim ASCII counts in",
                                     where(w, req, at, sizeof at), off, len);
        unsigned long long ms = req->time_ns / SSDSIM__NS_PER_MS;
        unsigned long long frac = req->time_ns % SSDSIM__NS_PER_MS;
        char time[48];
        if (frac) {
            int k = snprintf(time, sizeof time, "%llu.%06llu", ms, frac);
            while (k > 0 && time[k - 1] == '0')
                time[--k] = '\0';
        } else {
            snprintf(time, sizeof time, "%llu", ms);
        }
        n = fprintf(w->f, "%s %u %llu %llu %d\n", time, (unsigned)req->device, off / 512, len / 512,
                    req->op == SSDSIM_OP_READ ? 1 : 0);
        break;
    }
    case SSDSIM_TRACE_CSV:
        n = fprintf(w->f, "%llu,%u,%s,%llu,%llu\n", (unsigned long long)req->time_ns,
                    (unsigned)req->device, op_word(req->op), off, len);
        break;
    default:
        assert(!"writer of a format it cannot write");
        break;
    }
    if (n < 0)
        return write_failed(w, err);
    w->n_put++;
    return 0;
}

int ssdsim_trace_writer_close(ssdsim_trace_writer *w, ssdsim_error *err)
{
    if (!w)
        return 0;
    int n = 0;
    errno = 0;
    if (w->format == SSDSIM_TRACE_FIO_IOLOG3)
        n = fprintf(w->f, "%llu %s close\n", (unsigned long long)w->last_us, w->target);
    else if (w->format == SSDSIM_TRACE_FIO_IOLOG2)
        n = fprintf(w->f, "%s close\n", w->target);
    int rc = 0;
    if (n < 0 || fflush(w->f) != 0)
        rc = write_failed(w, err);
    FILE *f = w->f;
    w->f = NULL;
    errno = 0;
    if (fclose(f) != 0 && rc == 0)
        rc = write_failed(w, err);
    writer_free(w);
    return rc;
}
