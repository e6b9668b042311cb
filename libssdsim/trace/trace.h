/* trace/trace.h: private pieces of the trace readers (never installed).
 *
 * reader.c owns the public reader (open, probe, next, rewind, close) and the line reader under
 * it, which reads plain or gzip files in 64 KiB chunks; formats.c turns one line of each format
 * into a request; writer.c writes traces; info.c summarises them. The public interface is
 * <ssdsim/trace.h>.
 */
#ifndef SSDSIM_TRACE_PRIVATE_H
#define SSDSIM_TRACE_PRIVATE_H

#include "common.h"

#include "ssdsim/trace.h"

/* ------------------------------------------------------------------------------------------ */
/* Line reader                                                                                 */

/* Bytes read from the file (or inflated from a gzip stream) at a time. */
#define SSDSIM__TRACE_CHUNK (64 * 1024)
/* The longest line accepted. Real trace lines are under 200 bytes; the line buffer grows (from
 * 256 bytes) only for lines that straddle a chunk boundary or are longer than a chunk. */
#define SSDSIM__TRACE_MAX_LINE (16 * 1024 * 1024)

/* Reads a file line by line, through zlib's inflate when it starts with the gzip magic bytes.
 * Memory is the chunk (twice for gzip: compressed and inflated) plus the longest line seen: flat
 * whatever the file's length. */
struct ssdsim__lines {
    char *path;      /* as given, for messages */
    int fd;          /* the file (plain or gzip) */
    void *z;         /* z_stream when the file is gzip-compressed, else NULL */
    unsigned char *zin;      /* gzip: SSDSIM__TRACE_CHUNK bytes of compressed input */
    bool z_in_eof;           /* gzip: the file has no more compressed bytes */
    bool z_member_done;      /* gzip: a member ended; another may follow */
    uint64_t trailing_bytes; /* gzip: bytes after the last member that are no gzip member:
                                ignored, like gzip -d does (with a warning) */
    char *chunk;     /* SSDSIM__TRACE_CHUNK bytes */
    size_t pos, len; /* unread bytes are chunk[pos, len) */
    bool eof;        /* nothing more to read into the chunk */
    char *line;      /* assembles lines that straddle chunks */
    size_t line_cap;
    size_t partial;  /* bytes of an unfinished line already in `line` */
    uint64_t lineno; /* of the line last returned, 1-based */
};

/* Open `path`. 0, SSDSIM_EIO ("<path>: cannot open: <reason>") or SSDSIM_ENOMEM. On failure
 * nothing is left to close. */
int ssdsim__lines_open(struct ssdsim__lines *lr, const char *path, ssdsim_error *err);

/* The next line, without its "\n" or "\r\n", in *line (not NUL-terminated; valid until the
 * next call) and *len. Returns 1, 0 at the end of the file, or SSDSIM_EIO / SSDSIM_ENOMEM /
 * SSDSIM_EPARSE (a line longer than SSDSIM__TRACE_MAX_LINE). */
int ssdsim__lines_next(struct ssdsim__lines *lr, const char **line, size_t *len, ssdsim_error *err);

/* Back to the first line. 0 or SSDSIM_EIO. */
int ssdsim__lines_rewind(struct ssdsim__lines *lr, ssdsim_error *err);

/* Release everything; safe on a zeroed or already closed struct. */
void ssdsim__lines_close(struct ssdsim__lines *lr);

/* ------------------------------------------------------------------------------------------ */
/* Line parsers                                                                                */

/* The largest request length accepted: 2^32 - 1 bytes. The Linux block layer keeps a request's
 * size in 32 bits and fio's iolog reader reads lengths as unsigned int, so nothing larger occurs
 * in a real trace or can be replayed by fio; the limit also bounds what one request can add to
 * `trace info`'s footprint map. */
#define SSDSIM__TRACE_MAX_LENGTH UINT64_C(0xffffffff)

/* One request as a line gives it. `time` is in the format's own unit, time_mult ns each
 * (100 for MSR filetime, 1000 for fio iolog v3, 1 for the formats parsed straight to ns); the
 * reader makes it relative to the first request. */
struct ssdsim__trace_raw {
    uint64_t time;
    enum ssdsim_op op;
    uint64_t offset, length;
    uint32_t device;
    bool has_placement; /* ssdsim CSV's optional sixth column */
    uint32_t placement;
};

struct ssdsim__iolog_files;

/* Parse state of one reader: the format, its options and what earlier lines established. */
struct ssdsim__trace_parser {
    ssdsim_trace_format format;
    uint64_t time_mult;       /* ns per unit of ssdsim__trace_raw.time */
    uint64_t disksim_unit_ns; /* DiskSim ASCII: ns per time unit */
    bool disksim_read_is_zero;
    bool blkparse_issue;
    bool flushes; /* ssdsim_trace_opts.flushes */
    /* a request the last line holds after the one returned (a preflush write: the write after
     * its flush), returned next by ssdsim_trace_next */
    bool have_queued;
    struct ssdsim__trace_raw queued;
    bool first_line_done; /* the header (iolog) or optional CSV header was looked at */
    /* fio iolog: the files in order of `add` (device = index; allocated on first use), and
     * the time `wait` reached. */
    struct ssdsim__iolog_files *files;
    size_t n_files;
    uint64_t wait_ms;
};

/* Line classification returned by ssdsim__trace_parse_line. */
#define SSDSIM__LINE_SKIP 0 /* nothing to return (header, comment, flush, file action, ...) */
#define SSDSIM__LINE_REQ 1  /* *out holds a request */

/* Set up `p` for `format` (not AUTO) and `opts` (may be NULL). */
void ssdsim__trace_parser_init(struct ssdsim__trace_parser *p, ssdsim_trace_format format,
                               const ssdsim_trace_opts *opts);

/* Forget what earlier lines established (for a rewind). */
void ssdsim__trace_parser_reset(struct ssdsim__trace_parser *p);

/* Free what the parser holds; safe twice. */
void ssdsim__trace_parser_fini(struct ssdsim__trace_parser *p);

/* Parse one line (without its newline). Returns SSDSIM__LINE_REQ, SSDSIM__LINE_SKIP,
 * SSDSIM_EPARSE with the reason (no file or line number) in `why`, or SSDSIM_ENOMEM.
 * Blank lines and lines starting with '#' are skipped by the caller, not here. */
int ssdsim__trace_parse_line(struct ssdsim__trace_parser *p, const char *line, size_t len,
                             struct ssdsim__trace_raw *out, char *why, size_t why_len);

/* Requests returned so far whose time in the file is before that of the request returned
 * before them (the reader's out_of_order, ssdsim_trace_get_stats): trace info counts them from
 * it, so that both count the same requests (the times ssdsim_trace_next gives are relative to
 * the first request and clamped at 0, which hides a request earlier than the first). */
uint64_t ssdsim__trace_out_of_order(const ssdsim_trace *t);

/* Guess the format from one line that is neither blank nor a comment. `first` says it is the
 * file's first such line (where headers are). Returns the format, or SSDSIM_TRACE_AUTO when the
 * line is a header to skip (*is_header set) or fits no format. */
ssdsim_trace_format ssdsim__trace_classify(const char *line, size_t len, bool first,
                                           bool *is_header);

/* For a line ssdsim__trace_classify fits to no format: the format whose shape it has (field
 * count, separators, an op where that format has it) with that format's reason for refusing it
 * in `why`, or SSDSIM_TRACE_AUTO when none is close. */
ssdsim_trace_format ssdsim__trace_closest(const char *line, size_t len, char *why,
                                          size_t why_len);

/* "Input file NAME added": what blkparse prints before its events, one line per CPU file; the
 * probe looks past these lines. */
bool ssdsim__trace_blkparse_preamble(const char *line, size_t len);

/* A line quoted in a message: at most 60 bytes, "..." when cut, control bytes as '?'. */
struct ssdsim__quoted {
    char text[72];
};
struct ssdsim__quoted ssdsim__trace_quote(const char *s, size_t len);

#endif /* SSDSIM_TRACE_PRIVATE_H */
