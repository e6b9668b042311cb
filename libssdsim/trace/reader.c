/* reader.c: the trace reader of <ssdsim/trace.h>: open a file (plain or gzip), guess its
 * format, hand out one request at a time with times relative to the first one, rewind.
 *
 * Lines come from a line reader that fills a 64 KiB chunk with read(2), or through zlib's
 * inflate() when the file starts with the gzip magic bytes 1f 8b (member after member, as
 * gzip -d reads them; bytes after the last member that start no other are counted as trailing
 * garbage and ignored), and returns each line in place in the chunk;
 * only a line that straddles two chunks is copied, into a buffer that grows to the longest such
 * line. Memory is therefore flat whatever the trace's length, and a line costs one memchr() and
 * its parse. The per-format parsing is in formats.c.
 */
#include "trace/trace.h"
#include "abi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

/* ------------------------------------------------------------------------------------------ */
/* Line reader                                                                                 */

int ssdsim__lines_open(struct ssdsim__lines *lr, const char *path, ssdsim_error *err)
{
    memset(lr, 0, sizeof *lr);
    lr->fd = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot open: %s", strerror(EISDIR));
    }
    unsigned char magic[2] = {0, 0};
    ssize_t got;
    do
        got = pread(fd, magic, sizeof magic, 0);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
        int e = errno;
        close(fd);
        return ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot read: %s", strerror(e));
    }
    lr->path = strdup(path);
    lr->chunk = malloc(SSDSIM__TRACE_CHUNK);
    lr->line_cap = 256;
    lr->line = malloc(lr->line_cap);
    if (!lr->path || !lr->chunk || !lr->line) {
        close(fd);
        ssdsim__lines_close(lr);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
    }
    lr->fd = fd;
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        z_stream *z = calloc(1, sizeof *z);
        lr->zin = malloc(SSDSIM__TRACE_CHUNK);
        /* 16 + MAX_WBITS: a gzip header and trailer, not a bare zlib stream. */
        if (!z || !lr->zin || inflateInit2(z, 16 + MAX_WBITS) != Z_OK) {
            free(z);
            ssdsim__lines_close(lr);
            return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL,
                                     "out of memory (opening the gzip stream)");
        }
        lr->z = z;
    }
    return 0;
}

/* read(2) into buf, retrying on EINTR. The count, or -1 with errno set. */
static ssize_t read_some(int fd, void *buf, size_t n)
{
    ssize_t got;
    do
        got = read(fd, buf, n);
    while (got < 0 && errno == EINTR);
    return got;
}

/* gzip: keep the unread compressed bytes and read more after them. 0 or SSDSIM_EIO. */
static int z_read(struct ssdsim__lines *lr, ssdsim_error *err)
{
    z_stream *z = lr->z;
    if (z->avail_in > 0 && z->next_in != lr->zin)
        memmove(lr->zin, z->next_in, z->avail_in);
    z->next_in = lr->zin;
    ssize_t n = read_some(lr->fd, lr->zin + z->avail_in, SSDSIM__TRACE_CHUNK - z->avail_in);
    if (n < 0)
        return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot read: %s",
                                 strerror(errno));
    if (n == 0)
        lr->z_in_eof = true;
    z->avail_in += (uInt)n;
    return 0;
}

/* gzip: after a member, either another member (the magic bytes 1f 8b) or the end. Anything
 * else is trailing garbage: its bytes are counted and ignored, as gzip -d does. 1 if another
 * member starts, 0 at the end, or SSDSIM_EIO. */
static int z_next_member(struct ssdsim__lines *lr, ssdsim_error *err)
{
    z_stream *z = lr->z;
    while (z->avail_in < 2 && !lr->z_in_eof) {
        int rc = z_read(lr, err);
        if (rc)
            return rc;
    }
    if (z->avail_in == 0)
        return 0;
    if (z->avail_in >= 2 && z->next_in[0] == 0x1f && z->next_in[1] == 0x8b) {
        inflateReset(z);
        lr->z_member_done = false;
        return 1;
    }
    uint64_t garbage = z->avail_in;
    z->avail_in = 0;
    for (;;) {
        ssize_t n = read_some(lr->fd, lr->zin, SSDSIM__TRACE_CHUNK);
        if (n < 0)
            return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot read: %s",
                                     strerror(errno));
        if (n == 0)
            break;
        garbage += (uint64_t)n;
    }
    lr->z_in_eof = true;
    lr->trailing_bytes = garbage;
    return 0;
}

/* gzip: inflate into the chunk until it holds something or the stream ends. 0 (perhaps at the
 * end: lr->eof) or SSDSIM_EIO for a stream cut short or corrupt. */
static int z_fill(struct ssdsim__lines *lr, ssdsim_error *err)
{
    z_stream *z = lr->z;
    z->next_out = (Bytef *)lr->chunk;
    z->avail_out = SSDSIM__TRACE_CHUNK;
    while (z->avail_out == SSDSIM__TRACE_CHUNK) {
        if (lr->z_member_done) {
            int rc = z_next_member(lr, err);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                lr->eof = true;
                break;
            }
        }
        if (z->avail_in == 0) {
            if (lr->z_in_eof)
                return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL,
                                         "cannot read the gzip stream: unexpected end of file");
            int rc = z_read(lr, err);
            if (rc)
                return rc;
            continue;
        }
        int zr = inflate(z, Z_NO_FLUSH);
        if (zr == Z_STREAM_END) {
            lr->z_member_done = true;
        } else if (zr == Z_MEM_ERROR) {
            return ssdsim__error_set(err, SSDSIM_ENOMEM, lr->path, NULL,
                                     "out of memory (inflating the gzip stream)");
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL,
                                     "cannot read the gzip stream: %s",
                                     z->msg ? z->msg : "corrupt data");
        }
    }
    lr->len = SSDSIM__TRACE_CHUNK - z->avail_out;
    return 0;
}

/* Read the next chunk. 0 (perhaps at the end: lr->eof), SSDSIM_EIO or SSDSIM_ENOMEM. */
static int lines_fill(struct ssdsim__lines *lr, ssdsim_error *err)
{
    lr->pos = lr->len = 0;
    if (lr->z)
        return z_fill(lr, err);
    ssize_t n = read_some(lr->fd, lr->chunk, SSDSIM__TRACE_CHUNK);
    if (n < 0)
        return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot read: %s",
                                 strerror(errno));
    if (n == 0)
        lr->eof = true;
    lr->len = (size_t)n;
    return 0;
}

/* Append to the partial line. 0, SSDSIM_ENOMEM or SSDSIM_EPARSE (line too long). */
static int lines_append(struct ssdsim__lines *lr, const char *s, size_t n, ssdsim_error *err)
{
    if (n > SSDSIM__TRACE_MAX_LINE - lr->partial)
        return ssdsim__error_set(err, SSDSIM_EPARSE, lr->path, NULL,
                                 "line %llu is longer than %d bytes: not a trace",
                                 (unsigned long long)lr->lineno + 1, SSDSIM__TRACE_MAX_LINE);
    if (lr->partial + n > lr->line_cap) {
        size_t cap = lr->line_cap;
        while (cap < lr->partial + n)
            cap *= 2;
        char *p = realloc(lr->line, cap);
        if (!p)
            return ssdsim__error_set(err, SSDSIM_ENOMEM, lr->path, NULL, "out of memory");
        lr->line = p;
        lr->line_cap = cap;
    }
    memcpy(lr->line + lr->partial, s, n);
    lr->partial += n;
    return 0;
}

int ssdsim__lines_next(struct ssdsim__lines *lr, const char **line, size_t *len, ssdsim_error *err)
{
    for (;;) {
        if (lr->pos < lr->len) {
            char *start = lr->chunk + lr->pos;
            size_t avail = lr->len - lr->pos;
            char *nl = memchr(start, '\n', avail);
            if (nl) {
                size_t n = (size_t)(nl - start);
                lr->pos += n + 1;
                if (lr->partial == 0) {
                    *line = start;
                    *len = n;
                } else {
                    int rc = lines_append(lr, start, n, err);
                    if (rc)
                        return rc;
                    *line = lr->line;
                    *len = lr->partial;
                    lr->partial = 0;
                }
                break;
            }
            int rc = lines_append(lr, start, avail, err);
            if (rc)
                return rc;
            lr->pos = lr->len;
        }
        if (lr->eof) {
            if (lr->partial == 0)
                return 0;
            /* The last line has no newline. */
            *line = lr->line;
            *len = lr->partial;
            lr->partial = 0;
            break;
        }
        int rc = lines_fill(lr, err);
        if (rc)
            return rc;
    }
    if (*len > 0 && (*line)[*len - 1] == '\r')
        (*len)--;
    lr->lineno++;
    return 1;
}

int ssdsim__lines_rewind(struct ssdsim__lines *lr, ssdsim_error *err)
{
    if (lseek(lr->fd, 0, SEEK_SET) < 0)
        return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot rewind: %s",
                                 strerror(errno));
    if (lr->z) {
        z_stream *z = lr->z;
        inflateReset(z);
        z->avail_in = 0;
        z->next_in = lr->zin;
        lr->z_in_eof = false;
        lr->z_member_done = false;
        lr->trailing_bytes = 0;
    }
    lr->pos = lr->len = lr->partial = 0;
    lr->eof = false;
    lr->lineno = 0;
    return 0;
}

void ssdsim__lines_close(struct ssdsim__lines *lr)
{
    if (lr->z) {
        inflateEnd(lr->z);
        free(lr->z);
    }
    if (lr->fd >= 0)
        close(lr->fd);
    free(lr->zin);
    free(lr->path);
    free(lr->chunk);
    free(lr->line);
    memset(lr, 0, sizeof *lr);
    lr->fd = -1;
}

/* Blank lines and comments ('#' first) are skipped in every format. */
static bool line_is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#')
            return true;
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\v' && s[i] != '\f')
            return false;
    }
    return true;
}

struct ssdsim__quoted ssdsim__trace_quote(const char *s, size_t len)
{
    struct ssdsim__quoted q;
    size_t n = len > 60 ? 60 : len;
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        q.text[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    if (len > n) {
        memcpy(q.text + i, "...", 3);
        i += 3;
    }
    q.text[i] = '\0';
    return q;
}

/* ------------------------------------------------------------------------------------------ */
/* Formats                                                                                     */

static const char *const format_names[SSDSIM_TRACE_N_FORMATS] = {
    "auto", "msr", "spc", "blkparse", "disksim", "fio-iolog2", "fio-iolog3", "csv"};

const char *ssdsim_trace_format_name(ssdsim_trace_format f)
{
    if ((int)f < 0 || (int)f >= SSDSIM_TRACE_N_FORMATS)
        return "?";
    return format_names[f];
}

int ssdsim_trace_format_parse(const char *name, ssdsim_trace_format *out)
{
    static const struct {
        const char *name;
        ssdsim_trace_format f;
    } aliases[] = {
        {"iolog2", SSDSIM_TRACE_FIO_IOLOG2}, {"iolog3", SSDSIM_TRACE_FIO_IOLOG3},
        {"umass", SSDSIM_TRACE_SPC},         {"msr-cambridge", SSDSIM_TRACE_MSR},
        {"ascii", SSDSIM_TRACE_DISKSIM},
    };
    if (!name || !out)
        return SSDSIM_EINVAL;
    for (int i = 0; i < SSDSIM_TRACE_N_FORMATS; i++) {
        if (!strcmp(name, format_names[i])) {
            *out = (ssdsim_trace_format)i;
            return 0;
        }
    }
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(aliases); i++) {
        if (!strcmp(name, aliases[i].name)) {
            *out = aliases[i].f;
            return 0;
        }
    }
    return SSDSIM_EINVAL;
}

/* ------------------------------------------------------------------------------------------ */
/* Probing                                                                                     */

/* Up to this many non-blank lines are read to find the first one that is not a header. */
#define PROBE_MAX_LINES 8

static int probe_lines(struct ssdsim__lines *lr, ssdsim_trace_format *out, ssdsim_error *err)
{
    bool first = true;
    for (int seen = 0; seen < PROBE_MAX_LINES;) {
        const char *line;
        size_t len;
        int rc = ssdsim__lines_next(lr, &line, &len, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
        if (line_is_blank(line, len) || ssdsim__trace_blkparse_preamble(line, len))
            continue;
        seen++;
        bool is_header = false;
        ssdsim_trace_format f = ssdsim__trace_classify(line, len, first, &is_header);
        /* Only the comma-separated formats skip a header line when they read. */
        bool after_header = !first;
        if (f != SSDSIM_TRACE_AUTO && (!after_header || f == SSDSIM_TRACE_MSR ||
                                       f == SSDSIM_TRACE_SPC || f == SSDSIM_TRACE_CSV)) {
            *out = f;
            return 0;
        }
        if (is_header && first) {
            first = false;
            continue;
        }
        char why[256];
        ssdsim_trace_format near = ssdsim__trace_closest(line, len, why, sizeof why);
        if (near != SSDSIM_TRACE_AUTO)
            return ssdsim__error_set(err, SSDSIM_EPARSE, NULL, NULL,
                                     "%s:%llu: cannot tell the trace format from '%s': read "
                                     "as %s, the format of its shape, %s",
                                     lr->path, (unsigned long long)lr->lineno,
                                     ssdsim__trace_quote(line, len).text,
                                     ssdsim_trace_format_name(near), why);
        return ssdsim__error_set(err, SSDSIM_EPARSE, NULL, NULL,
                                 "%s:%llu: cannot tell the trace format from '%s' (expected "
                                 "MSR Cambridge, SPC, blkparse, DiskSim ASCII, fio iolog or "
                                 "ssdsim CSV lines)",
                                 lr->path, (unsigned long long)lr->lineno,
                                 ssdsim__trace_quote(line, len).text);
    }
    return ssdsim__error_set(err, SSDSIM_EPARSE, lr->path, NULL,
                             first ? "no requests: cannot tell the trace format of an empty file"
                                   : "only a header line: cannot tell the trace format");
}

int ssdsim_trace_probe(const char *path, ssdsim_trace_format *out, ssdsim_error *err)
{
    if (!path || !out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_probe: path and out must not be NULL");
    struct ssdsim__lines lr;
    int rc = ssdsim__lines_open(&lr, path, err);
    if (rc)
        return rc;
    rc = probe_lines(&lr, out, err);
    ssdsim__lines_close(&lr);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The reader                                                                                  */

struct ssdsim_trace {
    struct ssdsim__lines lines;
    struct ssdsim__trace_parser parser;
    bool skip_bad_lines;
    uint32_t *devices; /* a copy of opts->devices, or NULL: all */
    uint64_t *device_requests; /* per entry of devices: requests read */
    size_t n_devices;
    bool have_first;
    uint64_t first_time; /* raw time of the first request kept */
    uint64_t prev_time;  /* raw time of the request returned last */
    uint64_t prev_ns;    /* and its time_ns, which a preflush write's write is given */
    bool unit_assumed;
    ssdsim_trace_stats stats; /* requests, bad_lines, out_of_order, other_devices, last_time_ns */
    bool has_placement;       /* the request returned last carried a placement id */
    uint32_t placement;
};

/* "file:line: why" with err->file and err->line set. Returns `code`. */
static int line_error(const struct ssdsim__lines *lr, ssdsim_error *err, int code, const char *why)
{
    ssdsim__error_set(err, code, NULL, NULL, "%s:%llu: %s", lr->path,
                      (unsigned long long)lr->lineno, why);
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", lr->path);
        err->line = lr->lineno > INT32_MAX ? INT32_MAX : (int)lr->lineno;
    }
    return code;
}

/* A malformed line skipped (skip_bad_lines): counted, the first one's number and reason kept. */
static void skipped(struct ssdsim_trace *t, const char *why)
{
    if (t->stats.bad_lines++ == 0) {
        t->stats.first_bad_line = t->lines.lineno;
        snprintf(t->stats.first_bad_why, sizeof t->stats.first_bad_why, "%s", why);
    }
}

/* The iolog formats must start with their header: check it when the file is opened, so that a
 * file that is no iolog fails there (SSDSIM_EPARSE), not at the first ssdsim_trace_next. */
static int check_header(ssdsim_trace *t, ssdsim_error *err)
{
    char why[256];
    for (;;) {
        const char *line;
        size_t len;
        int rc = ssdsim__lines_next(&t->lines, &line, &len, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return ssdsim__error_set(err, SSDSIM_EPARSE, t->lines.path, NULL,
                                     "empty file: expected the header 'fio version %d iolog'",
                                     t->parser.format == SSDSIM_TRACE_FIO_IOLOG2 ? 2 : 3);
        if (line_is_blank(line, len))
            continue;
        struct ssdsim__trace_raw raw;
        rc = ssdsim__trace_parse_line(&t->parser, line, len, &raw, why, sizeof why);
        if (rc == SSDSIM_ENOMEM)
            return ssdsim__error_set(err, rc, t->lines.path, NULL, "out of memory");
        if (rc < 0)
            return line_error(&t->lines, err, rc, why);
        break;
    }
    ssdsim__trace_parser_reset(&t->parser);
    return ssdsim__lines_rewind(&t->lines, err);
}

int ssdsim_trace_open(ssdsim_trace **out, const char *path, const ssdsim_trace_opts *opts,
                      ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_open: out and path must not be NULL");
    ssdsim_trace_opts defaults;
    char why[256];
    if (ssdsim__trace_opts_read(&defaults, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL, "%s", why);
    opts = &defaults;
    if ((int)opts->format < 0 || (int)opts->format >= SSDSIM_TRACE_N_FORMATS)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL, "unknown trace format %d",
                                 (int)opts->format);
    if (opts->n_devices > 0 && !opts->devices)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "n_devices is %zu but devices is NULL", opts->n_devices);

    ssdsim_trace *t = calloc(1, sizeof *t);
    if (!t)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
    t->lines.fd = -1;
    int rc = ssdsim__lines_open(&t->lines, path, err);
    if (rc)
        goto fail;
    ssdsim_trace_format format = opts->format;
    if (format == SSDSIM_TRACE_AUTO) {
        rc = probe_lines(&t->lines, &format, err);
        if (rc)
            goto fail;
        rc = ssdsim__lines_rewind(&t->lines, err);
        if (rc)
            goto fail;
    }
    ssdsim__trace_parser_init(&t->parser, format, opts);
    if (format == SSDSIM_TRACE_FIO_IOLOG2 || format == SSDSIM_TRACE_FIO_IOLOG3) {
        rc = check_header(t, err);
        if (rc)
            goto fail;
    }
    t->skip_bad_lines = opts->skip_bad_lines != 0;
    t->unit_assumed = format == SSDSIM_TRACE_DISKSIM && !opts->disksim_time_unit_ns;
    if (opts->n_devices > 0) {
        t->devices = malloc(opts->n_devices * sizeof *t->devices);
        t->device_requests = calloc(opts->n_devices, sizeof *t->device_requests);
        if (!t->devices || !t->device_requests) {
            rc = ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
            goto fail;
        }
        memcpy(t->devices, opts->devices, opts->n_devices * sizeof *t->devices);
        t->n_devices = opts->n_devices;
    }
    *out = t;
    return 0;

fail:
    ssdsim_trace_close(t);
    return rc;
}

/* Whether the device filter keeps `device`; counts the requests of each listed device. */
static bool device_kept(ssdsim_trace *t, uint32_t device)
{
    if (t->n_devices == 0)
        return true;
    for (size_t i = 0; i < t->n_devices; i++) {
        if (t->devices[i] == device) {
            t->device_requests[i]++;
            return true;
        }
    }
    t->stats.other_devices++;
    return false;
}

/* Count a request returned, and whether its device is another than the first one's. */
static void count_request(ssdsim_trace *t, uint32_t device)
{
    if (t->stats.requests == 0)
        t->stats.first_device = device;
    else if (device != t->stats.first_device)
        t->stats.merged_requests++;
    t->stats.requests++;
}

int ssdsim_trace_next(ssdsim_trace *t, ssdsim_trace_req *req, ssdsim_error *err)
{
    if (!t || !req)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_next: trace and req must not be NULL");
    char why[256];
    if (t->parser.have_queued) { /* the write of a preflush write, after its flush */
        t->parser.have_queued = false;
        const struct ssdsim__trace_raw *q = &t->parser.queued;
        count_request(t, q->device);
        req->time_ns = t->prev_ns; /* at its flush's time */
        req->op = q->op;
        req->offset = q->offset;
        req->length = q->length;
        req->device = q->device;
        req->line = t->lines.lineno;
        t->has_placement = q->has_placement;
        t->placement = q->placement;
        return 1;
    }
    for (;;) {
        const char *line;
        size_t len;
        int rc = ssdsim__lines_next(&t->lines, &line, &len, err);
        if (rc == 0)
            t->stats.at_end = 1;
        if (rc <= 0)
            return rc;
        if (line_is_blank(line, len))
            continue;
        struct ssdsim__trace_raw raw;
        rc = ssdsim__trace_parse_line(&t->parser, line, len, &raw, why, sizeof why);
        if (rc == SSDSIM__LINE_SKIP)
            continue;
        if (rc == SSDSIM_ENOMEM)
            return ssdsim__error_set(err, rc, t->lines.path, NULL, "out of memory");
        if (rc < 0) {
            if (!t->skip_bad_lines)
                return line_error(&t->lines, err, rc, why);
            skipped(t, why);
            continue;
        }
        if (!device_kept(t, raw.device)) {
            t->parser.have_queued = false;
            continue;
        }
        if (!t->have_first) {
            t->have_first = true;
            t->first_time = raw.time;
        }
        /* A request earlier than the first one (out of order) is put at time 0. */
        uint64_t rel = raw.time > t->first_time ? raw.time - t->first_time : 0;
        uint64_t mult = t->parser.time_mult;
        if (rel > UINT64_MAX / mult) {
            snprintf(why, sizeof why, "time: %llu units after the first request is out of range",
                     (unsigned long long)rel);
            if (!t->skip_bad_lines)
                return line_error(&t->lines, err, SSDSIM_EPARSE, why);
            skipped(t, why);
            t->parser.have_queued = false;
            continue;
        }
        if (t->stats.requests > 0 && raw.time < t->prev_time)
            t->stats.out_of_order++;
        t->prev_time = raw.time;
        count_request(t, raw.device);
        req->time_ns = rel * mult;
        t->prev_ns = req->time_ns;
        if (req->time_ns > t->stats.last_time_ns)
            t->stats.last_time_ns = req->time_ns;
        req->op = raw.op;
        req->offset = raw.offset;
        req->length = raw.length;
        req->device = raw.device;
        req->line = t->lines.lineno;
        t->has_placement = raw.has_placement;
        t->placement = raw.placement;
        return 1;
    }
}

int ssdsim_trace_get_placement(const ssdsim_trace *t, uint32_t *placement)
{
    if (!t || !t->has_placement)
        return 0;
    if (placement)
        *placement = t->placement;
    return 1;
}

int ssdsim_trace_rewind(ssdsim_trace *t, ssdsim_error *err)
{
    if (!t)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_rewind: trace must not be NULL");
    int rc = ssdsim__lines_rewind(&t->lines, err);
    if (rc)
        return rc;
    ssdsim__trace_parser_reset(&t->parser);
    t->have_first = false;
    t->first_time = 0;
    t->prev_time = 0;
    memset(&t->stats, 0, sizeof t->stats);
    for (size_t i = 0; i < t->n_devices; i++)
        t->device_requests[i] = 0;
    return 0;
}

ssdsim_trace_format ssdsim_trace_get_format(const ssdsim_trace *t)
{
    return t ? t->parser.format : SSDSIM_TRACE_AUTO;
}

uint64_t ssdsim_trace_bad_lines(const ssdsim_trace *t)
{
    return t ? t->stats.bad_lines : 0;
}

/* ns per unit of the raw times of each format (DiskSim: the parser's unit). */
static uint64_t time_unit_ns(const struct ssdsim__trace_parser *p)
{
    switch (p->format) {
    case SSDSIM_TRACE_MSR:
        return 100;
    case SSDSIM_TRACE_SPC:
    case SSDSIM_TRACE_BLKPARSE:
        return SSDSIM__NS_PER_S;
    case SSDSIM_TRACE_DISKSIM:
        return p->disksim_unit_ns;
    case SSDSIM_TRACE_FIO_IOLOG2:
        return SSDSIM__NS_PER_MS;
    case SSDSIM_TRACE_FIO_IOLOG3:
        return SSDSIM__NS_PER_US;
    case SSDSIM_TRACE_CSV:
    case SSDSIM_TRACE_AUTO:
        break;
    }
    return 1;
}

static void trace_get_stats_full(const ssdsim_trace *t, ssdsim_trace_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!t)
        return;
    *out = t->stats;
    out->time_unit_ns = time_unit_ns(&t->parser);
    out->time_unit_assumed = t->unit_assumed;
    out->gzip_trailing_bytes = t->lines.trailing_bytes;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
void ssdsim_trace_get_stats_sized(const ssdsim_trace *t, ssdsim_trace_stats *out, size_t size)
{
    ssdsim_trace_stats full;
    memset(&full, 0, sizeof full);
    trace_get_stats_full(t, out ? &full : NULL);
    ssdsim__result_give(out, size, &full, sizeof full, 0, true);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
void (ssdsim_trace_get_stats)(const ssdsim_trace *t, ssdsim_trace_stats *out)
{
    ssdsim_trace_get_stats_sized(t, out, SSDSIM__TRACE_STATS_SIZE_1);
}

uint64_t ssdsim_trace_device_requests(const ssdsim_trace *t, uint32_t device)
{
    if (!t)
        return 0;
    for (size_t i = 0; i < t->n_devices; i++)
        if (t->devices[i] == device)
            return t->device_requests[i];
    return 0;
}

void ssdsim_trace_close(ssdsim_trace *t)
{
    if (!t)
        return;
    ssdsim__lines_close(&t->lines);
    ssdsim__trace_parser_fini(&t->parser);
    free(t->devices);
    free(t->device_requests);
    free(t);
}

uint64_t ssdsim__trace_out_of_order(const ssdsim_trace *t)
{
    return t->stats.out_of_order;
}
