/* reader.c: the trace reader of <ssdsim/trace.h>: open a file (plain or gzip), guess its
 * format, hand out one request at a time with times relative to the first one, rewind.
 *
 * Lines come from a line reader that fills a 64 KiB chunk with read(2), or with gzread() when
 * the file starts with the gzip magic bytes 1f 8b, and returns each line in place in the chunk;
 * only a line that straddles two chunks is copied, into a buffer that grows to the longest such
 * line. Memory is therefore flat whatever the trace's length, and a line costs one memchr() and
 * its parse. The per-format parsing is in formats.c.
 */
#include "trace/trace.h"

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
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        gzFile gz = gzdopen(fd, "rb"); /* owns fd from here on; not when it fails */
        if (!gz) {
            close(fd);
            ssdsim__lines_close(lr);
            return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL,
                                     "out of memory (opening the gzip stream)");
        }
        gzbuffer(gz, SSDSIM__TRACE_CHUNK);
        lr->gz = gz;
    } else {
        lr->fd = fd;
    }
    return 0;
}

/* zlib's message without the "<fd:3>: " it puts first for a stream opened with gzdopen. */
static const char *gz_message(gzFile gz, int *zerr)
{
    const char *msg = gzerror(gz, zerr);
    if (*zerr == Z_ERRNO)
        return strerror(errno);
    if (msg && !strncmp(msg, "<fd:", 4)) {
        const char *sep = strstr(msg, ">: ");
        if (sep)
            msg = sep + 3;
    }
    return msg ? msg : "unknown zlib error";
}

/* Read the next chunk. 0 (perhaps at the end: lr->eof), or SSDSIM_EIO. */
static int lines_fill(struct ssdsim__lines *lr, ssdsim_error *err)
{
    lr->pos = lr->len = 0;
    if (lr->gz) {
        int n = gzread((gzFile)lr->gz, lr->chunk, SSDSIM__TRACE_CHUNK);
        if (n < 0) {
            int zerr;
            const char *msg = gz_message((gzFile)lr->gz, &zerr);
            return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL,
                                     "cannot read the gzip stream: %s", msg);
        }
        if (n == 0) {
            /* zlib reports a stream cut short only through gzerror at the end. */
            int zerr;
            const char *msg = gz_message((gzFile)lr->gz, &zerr);
            if (zerr != Z_OK && zerr != Z_STREAM_END)
                return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL,
                                         "cannot read the gzip stream: %s", msg);
            lr->eof = true;
        }
        lr->len = (size_t)n;
        return 0;
    }
    ssize_t n;
    do
        n = read(lr->fd, lr->chunk, SSDSIM__TRACE_CHUNK);
    while (n < 0 && errno == EINTR);
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
    if (lr->gz && gzrewind((gzFile)lr->gz) != 0) {
        /* zlib refuses to rewind a stream that met corrupt data: open the file again, so that a
         * rewind reads it from the start whatever the last read found. */
        int fd = open(lr->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot rewind: %s",
                                     strerror(errno));
        gzFile gz = gzdopen(fd, "rb");
        if (!gz) {
            close(fd);
            return ssdsim__error_set(err, SSDSIM_ENOMEM, lr->path, NULL,
                                     "out of memory (opening the gzip stream)");
        }
        gzbuffer(gz, SSDSIM__TRACE_CHUNK);
        gzclose((gzFile)lr->gz);
        lr->gz = gz;
    } else if (!lr->gz && lseek(lr->fd, 0, SEEK_SET) < 0) {
        return ssdsim__error_set(err, SSDSIM_EIO, lr->path, NULL, "cannot rewind: %s",
                                 strerror(errno));
    }
    lr->pos = lr->len = lr->partial = 0;
    lr->eof = false;
    lr->lineno = 0;
    return 0;
}

void ssdsim__lines_close(struct ssdsim__lines *lr)
{
    if (lr->gz)
        gzclose((gzFile)lr->gz);
    else if (lr->fd >= 0)
        close(lr->fd);
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
        if (line_is_blank(line, len))
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
    size_t n_devices;
    bool have_first;
    uint64_t first_time; /* raw time of the first request kept */
    uint64_t bad_lines;
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
    if (!opts) {
        memset(&defaults, 0, sizeof defaults);
        opts = &defaults;
    }
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
    if (opts->n_devices > 0) {
        t->devices = malloc(opts->n_devices * sizeof *t->devices);
        if (!t->devices) {
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

static bool device_kept(const ssdsim_trace *t, uint32_t device)
{
    if (t->n_devices == 0)
        return true;
    for (size_t i = 0; i < t->n_devices; i++)
        if (t->devices[i] == device)
            return true;
    return false;
}

int ssdsim_trace_next(ssdsim_trace *t, ssdsim_trace_req *req, ssdsim_error *err)
{
    if (!t || !req)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_next: trace and req must not be NULL");
    char why[256];
    for (;;) {
        const char *line;
        size_t len;
        int rc = ssdsim__lines_next(&t->lines, &line, &len, err);
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
            t->bad_lines++;
            continue;
        }
        if (!device_kept(t, raw.device))
            continue;
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
            t->bad_lines++;
            continue;
        }
        req->time_ns = rel * mult;
        req->op = raw.op;
        req->offset = raw.offset;
        req->length = raw.length;
        req->device = raw.device;
        req->line = t->lines.lineno;
        return 1;
    }
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
    t->bad_lines = 0;
    return 0;
}

ssdsim_trace_format ssdsim_trace_get_format(const ssdsim_trace *t)
{
    return t ? t->parser.format : SSDSIM_TRACE_AUTO;
}

uint64_t ssdsim_trace_bad_lines(const ssdsim_trace *t)
{
    return t ? t->bad_lines : 0;
}

void ssdsim_trace_close(ssdsim_trace *t)
{
    if (!t)
        return;
    ssdsim__lines_close(&t->lines);
    ssdsim__trace_parser_fini(&t->parser);
    free(t->devices);
    free(t);
}
