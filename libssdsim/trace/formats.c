/* formats.c: one line of each trace format to a request, and the guess of a format from a line.
 *
 * Every parser splits the line into fields in place (pointers and lengths, no copy, no
 * allocation except fio iolog file names), checks the field count, then each field, and names
 * the field and what it expected when one is wrong: "Type: expected Read or Write, got 'Foo'".
 * Numbers are parsed by hand: digits only (no sign, no exponent, no hex), with overflow checks,
 * and decimal times are scaled to nanoseconds exactly, digit by digit, not through a double.
 * The reader (reader.c) adds the file name and line number to the messages.
 */
#include "trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#define SECTOR_BYTES 512u
/* More fields than any format has: the count is still returned exactly. */
#define MAX_FIELDS 12

/* fio reads iolog file names with "%256s"; a longer name is not from fio. */
#define IOLOG_MAX_NAME 1024

struct field {
    const char *s;
    size_t n;
};

/* ------------------------------------------------------------------------------------------ */
/* Splitting and numbers                                                                       */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static struct field trim(const char *s, size_t n)
{
    while (n > 0 && is_blank(*s)) {
        s++;
        n--;
    }
    while (n > 0 && is_blank(s[n - 1]))
        n--;
    return (struct field){s, n};
}

/* Split at commas, each field trimmed. Returns the number of fields; at most `max` are stored. */
static size_t split_commas(const char *s, size_t len, struct field *f, size_t max)
{
    size_t nf = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == ',') {
            if (nf < max)
                f[nf] = trim(s + start, i - start);
            nf++;
            start = i + 1;
        }
    }
    return nf;
}

/* Split at runs of blanks. Returns the number of fields; at most `max` are stored. */
static size_t split_blanks(const char *s, size_t len, struct field *f, size_t max)
{
    size_t nf = 0, i = 0;
    while (i < len) {
        while (i < len && is_blank(s[i]))
            i++;
        if (i == len)
            break;
        size_t start = i;
        while (i < len && !is_blank(s[i]))
            i++;
        if (nf < max)
            f[nf] = (struct field){s + start, i - start};
        nf++;
    }
    return nf;
}

static bool field_eq(struct field f, const char *word)
{
    size_t n = strlen(word);
    return f.n == n && memcmp(f.s, word, n) == 0;
}

static bool field_ieq(struct field f, const char *word)
{
    size_t n = strlen(word);
    if (f.n != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char a = f.s[i], b = word[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

enum { NUM_OK = 0, NUM_BAD, NUM_RANGE };

/* Decimal digits only. */
static int num_u64(struct field f, uint64_t *out)
{
    if (f.n == 0)
        return NUM_BAD;
    uint64_t v = 0;
    bool range = false;
    for (size_t i = 0; i < f.n; i++) {
        if (!is_digit(f.s[i]))
            return NUM_BAD;
        unsigned d = (unsigned)(f.s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            range = true;
        else
            v = v * 10 + d;
    }
    if (range)
        return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

static int num_u32(struct field f, uint32_t *out)
{
    uint64_t v;
    int rc = num_u64(f, &v);
    if (rc)
        return rc;
    if (v > UINT32_MAX)
        return NUM_RANGE;
    *out = (uint32_t)v;
    return NUM_OK;
}

/* "digits[.digits]" (or ".digits") times `unit` ns, rounded to the nearest ns. Fraction digits
 * after the ninth are below a nanosecond for every unit up to a second and are ignored. */
static int num_scaled(struct field f, uint64_t unit, uint64_t *out)
{
    size_t i = 0, n_int = 0, n_frac = 0;
    uint64_t ip = 0, frac = 0, p = 1;
    bool range = false;
    for (; i < f.n && is_digit(f.s[i]); i++, n_int++) {
        unsigned d = (unsigned)(f.s[i] - '0');
        if (ip > (UINT64_MAX - d) / 10)
            range = true;
        else
            ip = ip * 10 + d;
    }
    if (i < f.n && f.s[i] == '.') {
        for (i++; i < f.n && is_digit(f.s[i]); i++, n_frac++) {
            if (n_frac < 9) {
                frac = frac * 10 + (unsigned)(f.s[i] - '0');
                p *= 10;
            }
        }
    }
    if (i != f.n || n_int + n_frac == 0)
        return NUM_BAD;
    if (range || (unit && ip > UINT64_MAX / unit))
        return NUM_RANGE;
    uint64_t v = ip * unit;
    /* frac < p <= 10^9, so neither product overflows. */
    uint64_t fr = frac * (unit / p) + (frac * (unit % p) + p / 2) / p;
    if (v > UINT64_MAX - fr)
        return NUM_RANGE;
    *out = v + fr;
    return NUM_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                    */

static int bad(char *why, size_t why_len, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int bad(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return SSDSIM_EPARSE;
}

static int num_error(char *why, size_t why_len, const char *name, struct field f, int rc,
                     const char *expected)
{
    struct ssdsim__quoted q = ssdsim__trace_quote(f.s, f.n);
    if (rc == NUM_RANGE)
        return bad(why, why_len, "%s: %s is out of range", name, q.text);
    return bad(why, why_len, "%s: expected %s, got '%s'", name, expected, q.text);
}

#define INTEGER "a non-negative integer"

/* Parse a field into *out or return the error from the enclosing parser. */
#define GET(fn, fld, name, expected, out)                                                          \
    do {                                                                                           \
        int num_rc_ = fn((fld), (out));                                                            \
        if (num_rc_)                                                                               \
            return num_error(why, why_len, (name), (fld), num_rc_, (expected));                    \
    } while (0)

/* The largest time a field in units of `unit` ns may hold (the clock counts ns in 64 bits), as
 * "18446744073 s": a message that only said "out of range" or "expected a number" left the
 * reader to guess the limit. */
static void time_limit(char *buf, size_t len, uint64_t unit)
{
    static const struct {
        uint64_t ns;
        const char *name;
    } units[] = {{1, "ns"}, {1000, "us"}, {1000000, "ms"}, {1000000000, "s"}};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(units); i++)
        if (units[i].ns == unit) {
            snprintf(buf, len, "%llu %s", (unsigned long long)(UINT64_MAX / unit), units[i].name);
            return;
        }
    snprintf(buf, len, "%llu units of %llu ns", (unsigned long long)(UINT64_MAX / unit),
             (unsigned long long)unit);
}

/* num_error for a time field in units of `unit` ns, with the limit. */
static int scaled_error(char *why, size_t why_len, const char *name, struct field f, int rc,
                        const char *expected, uint64_t unit)
{
    struct ssdsim__quoted q = ssdsim__trace_quote(f.s, f.n);
    char limit[64];
    time_limit(limit, sizeof limit, unit);
    if (rc == NUM_RANGE)
        return bad(why, why_len, "%s: %s is out of range: at most %s (2^64 ns)", name, q.text,
                   limit);
    return bad(why, why_len, "%s: expected %s, at most %s, got '%s'", name, expected, limit,
               q.text);
}

#define GET_SCALED(fld, unit, name, expected, out)                                                 \
    do {                                                                                           \
        int num_rc_ = num_scaled((fld), (unit), (out));                                            \
        if (num_rc_)                                                                               \
            return scaled_error(why, why_len, (name), (fld), num_rc_, (expected), (unit));         \
    } while (0)

/* Sectors to bytes. */
static int sectors(uint64_t n, const char *name, struct field f, uint64_t *bytes, char *why,
                   size_t why_len)
{
    if (n > UINT64_MAX / SECTOR_BYTES)
        return bad(why, why_len, "%s: %s sectors is out of range", name,
                   ssdsim__trace_quote(f.s, f.n).text);
    *bytes = n * SECTOR_BYTES;
    return 0;
}

/* The checks every request passes: a positive length no larger than 4 GiB, an end that fits. */
static int check_extent(const char *off_name, const char *len_name, uint64_t offset,
                        uint64_t length, char *why, size_t why_len)
{
    if (length == 0)
        return bad(why, why_len, "%s: expected a positive length, got 0", len_name);
    if (length > SSDSIM__TRACE_MAX_LENGTH)
        return bad(why, why_len, "%s: %llu bytes is larger than a request can be (2^32 - 1)",
                   len_name, (unsigned long long)length);
    if (offset > UINT64_MAX - length)
        return bad(why, why_len, "%s + %s: %llu + %llu is beyond 2^64 bytes", off_name, len_name,
                   (unsigned long long)offset, (unsigned long long)length);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime                  */

static int parse_msr(const char *line, size_t len, struct ssdsim__trace_raw *out, char *why,
                     size_t why_len)
{
    struct field f[MAX_FIELDS];
    size_t nf = split_commas(line, len, f, MAX_FIELDS);
    if (nf != 7)
        return bad(why, why_len,
                   "expected 7 comma-separated fields "
                   "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime, got %zu",
                   nf);
    GET(num_u64, f[0], "Timestamp", "a Windows filetime (100 ns ticks)", &out->time);
    GET(num_u32, f[2], "DiskNumber", INTEGER, &out->device);
    if (field_ieq(f[3], "read"))
        out->op = SSDSIM_OP_READ;
    else if (field_ieq(f[3], "write"))
        out->op = SSDSIM_OP_WRITE;
    else
        return bad(why, why_len, "Type: expected Read or Write, got '%s'",
                   ssdsim__trace_quote(f[3].s, f[3].n).text);
    GET(num_u64, f[4], "Offset", INTEGER " (bytes)", &out->offset);
    GET(num_u64, f[5], "Size", INTEGER " (bytes)", &out->length);
    if (check_extent("Offset", "Size", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    return SSDSIM__LINE_REQ;
}

/* ------------------------------------------------------------------------------------------ */
/* SPC / UMass: ASU,LBA,Size,Opcode,Timestamp[,...]                                            */

static int parse_spc(const char *line, size_t len, struct ssdsim__trace_raw *out, char *why,
                     size_t why_len)
{
    struct field f[MAX_FIELDS];
    size_t nf = split_commas(line, len, f, MAX_FIELDS);
    if (nf < 5)
        return bad(why, why_len,
                   "expected 5 comma-separated fields ASU,LBA,Size,Opcode,Timestamp, got %zu", nf);
    uint64_t lba;
    GET(num_u32, f[0], "ASU", INTEGER, &out->device);
    GET(num_u64, f[1], "LBA", INTEGER " (512-byte sectors)", &lba);
    if (sectors(lba, "LBA", f[1], &out->offset, why, why_len))
        return SSDSIM_EPARSE;
    GET(num_u64, f[2], "Size", INTEGER " (bytes)", &out->length);
    if (f[3].n == 1 && (f[3].s[0] == 'r' || f[3].s[0] == 'R'))
        out->op = SSDSIM_OP_READ;
    else if (f[3].n == 1 && (f[3].s[0] == 'w' || f[3].s[0] == 'W'))
        out->op = SSDSIM_OP_WRITE;
    else
        return bad(why, why_len, "Opcode: expected r or w, got '%s'",
                   ssdsim__trace_quote(f[3].s, f[3].n).text);
    GET_SCALED(f[4], SSDSIM__NS_PER_S, "Timestamp", "seconds such as 0.026214", &out->time);
    if (check_extent("LBA", "Size", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    return SSDSIM__LINE_REQ;
}

/* ------------------------------------------------------------------------------------------ */
/* ssdsim CSV: time_ns,device,op,offset,length[,placement]                                     */

static bool csv_op(struct field f, enum ssdsim_op *op)
{
    if (field_ieq(f, "read"))
        *op = SSDSIM_OP_READ;
    else if (field_ieq(f, "write"))
        *op = SSDSIM_OP_WRITE;
    else if (field_ieq(f, "trim"))
        *op = SSDSIM_OP_TRIM;
    else
        return false;
    return true;
}

static int parse_csv(const char *line, size_t len, struct ssdsim__trace_raw *out, char *why,
                     size_t why_len)
{
    struct field f[MAX_FIELDS];
    size_t nf = split_commas(line, len, f, MAX_FIELDS);
    if (nf != 5 && nf != 6)
        return bad(why, why_len,
                   "expected 5 or 6 comma-separated fields "
                   "time_ns,device,op,offset,length[,placement], got %zu",
                   nf);
    GET(num_u64, f[0], "time_ns", INTEGER " (ns)", &out->time);
    GET(num_u32, f[1], "device", INTEGER, &out->device);
    if (!csv_op(f[2], &out->op))
        return bad(why, why_len, "op: expected read, write or trim, got '%s'",
                   ssdsim__trace_quote(f[2].s, f[2].n).text);
    GET(num_u64, f[3], "offset", INTEGER " (bytes)", &out->offset);
    GET(num_u64, f[4], "length", INTEGER " (bytes)", &out->length);
    if (nf == 6) {
        /* an FDP placement id for this record (replay checks it against fdp.handles) */
        GET(num_u32, f[5], "placement", INTEGER " (an FDP placement id)", &out->placement);
        out->has_placement = true;
    }
    if (check_extent("offset", "length", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    return SSDSIM__LINE_REQ;
}

/* ------------------------------------------------------------------------------------------ */
/* DiskSim-style ASCII: time devno blkno size flags                                            */

static int parse_disksim(const struct ssdsim__trace_parser *p, const char *line, size_t len,
                         struct ssdsim__trace_raw *out, char *why, size_t why_len)
{
    struct field f[MAX_FIELDS];
    size_t nf = split_blanks(line, len, f, MAX_FIELDS);
    if (nf != 5)
        return bad(why, why_len,
                   "expected 5 blank-separated fields time devno blkno size flags, got %zu", nf);
    uint64_t blkno, size, flags;
    GET_SCALED(f[0], p->disksim_unit_ns, "time",
               "a non-negative number in decimal digits (no sign or exponent)", &out->time);
    GET(num_u32, f[1], "devno", INTEGER, &out->device);
    GET(num_u64, f[2], "blkno", INTEGER " (512-byte sectors)", &blkno);
    GET(num_u64, f[3], "size", INTEGER " (512-byte sectors)", &size);
    GET(num_u64, f[4], "flags", INTEGER, &flags);
    if (sectors(blkno, "blkno", f[2], &out->offset, why, why_len) ||
        sectors(size, "size", f[3], &out->length, why, why_len))
        return SSDSIM_EPARSE;
    bool read = p->disksim_read_is_zero ? flags == 0 : (flags & 1) != 0;
    out->op = read ? SSDSIM_OP_READ : SSDSIM_OP_WRITE;
    if (check_extent("blkno", "size", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    return SSDSIM__LINE_REQ;
}

/* ------------------------------------------------------------------------------------------ */
/* blkparse default output                                                                     */

/* "MAJ,MIN": the first field of every event line, and of no summary line. */
static bool blk_device(struct field f, uint32_t *major, uint32_t *minor)
{
    const char *comma = memchr(f.s, ',', f.n);
    if (!comma)
        return false;
    struct field a = {f.s, (size_t)(comma - f.s)};
    struct field b = {comma + 1, f.n - a.n - 1};
    uint32_t x, y;
    if (num_u32(a, &x) || num_u32(b, &y))
        return false;
    *major = x;
    *minor = y;
    return true;
}

/* RWBS: 'D' discard, 'W' write, 'R' read; anything else ('N', a bare flush 'F') is no data. */
static bool blk_op(struct field rwbs, enum ssdsim_op *op)
{
    bool d = memchr(rwbs.s, 'D', rwbs.n) != NULL;
    bool w = memchr(rwbs.s, 'W', rwbs.n) != NULL;
    bool r = memchr(rwbs.s, 'R', rwbs.n) != NULL;
    if (d)
        *op = SSDSIM_OP_TRIM;
    else if (w)
        *op = SSDSIM_OP_WRITE;
    else if (r)
        *op = SSDSIM_OP_READ;
    else
        return false;
    return true;
}

/* The device of a blkparse flush event (device field f). */
static int blk_flush_device(struct field f, struct ssdsim__trace_raw *out, char *why,
                            size_t why_len)
{
    uint32_t major, minor;
    if (!blk_device(f, &major, &minor) || (uint64_t)major * 256 + minor > UINT32_MAX)
        return bad(why, why_len, "device: expected MAJ,MIN such as 8,0, got '%s'",
                   ssdsim__trace_quote(f.s, f.n).text);
    out->device = major * 256 + minor;
    return SSDSIM__LINE_REQ;
}

/* The first words of the lines blkparse (blktrace 1.x, blkparse.c) prints to its text output
 * that are not events: "Input file sda.blktrace.0 added" before the events (setup_file);
 * after them the summaries of dump_io_stats, dump_wait_stats and show_device_and_cpu_stats:
 * "CPU0 (8,0):", "Total (8,0):", " Reads Queued: 2, 16KiB", " Read Dispatches:", " Read
 * depth:", " PC Reads Queued:", " IO unplugs:", " Timer unplugs:", " Allocation wait:",
 * " Dispatch wait:", " Completion wait:", "Throughput (R/W):", "Events (8,0): 31 entries",
 * "Skips: 0 forward"; and the last line "discarded traces containing low-level device driver
 * specific data". A trailing ':' is ignored. */
static bool blk_summary_word(struct field w)
{
    static const char *const words[] = {
        "Total",  "Reads",      "Writes",     "Read",       "Write",    "PC",
        "IO",     "Timer",      "Allocation", "Dispatch",   "Completion",
        "Throughput", "Events", "Skips",      "Input",      "discarded"};
    if (w.n > 0 && w.s[w.n - 1] == ':')
        w.n--;
    if (w.n > 3 && !memcmp(w.s, "CPU", 3)) {
        uint64_t cpu;
        return num_u64((struct field){w.s + 3, w.n - 3}, &cpu) == NUM_OK;
    }
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(words); i++)
        if (field_eq(w, words[i]))
            return true;
    return false;
}

/* "NAME (PID)" or "NAME (PID, ...)": the heading of a program's statistics (blkparse -s,
 * show_process_stats), whose name is anything. */
static bool blk_process_heading(const char *line, size_t len)
{
    struct field t = trim(line, len);
    if (t.n < 4 || t.s[t.n - 1] != ')')
        return false;
    size_t open = t.n - 1;
    while (open > 0 && t.s[open] != '(')
        open--;
    if (open == 0 || t.s[open] != '(' || !is_blank(t.s[open - 1]))
        return false;
    struct field pid = {t.s + open + 1, t.n - open - 2};
    if (pid.n > 5 && !memcmp(pid.s + pid.n - 5, ", ...", 5))
        pid.n -= 5;
    uint64_t v;
    return num_u64(pid, &v) == NUM_OK;
}

/* ACTION: one or two letters (Q, G, I, D, C, M, F, X, A, B, S, P, U, UT, m, ...). */
static bool blk_action_ok(struct field a)
{
    return (a.n == 1 || a.n == 2) && is_alpha(a.s[0]) && (a.n == 1 || is_alpha(a.s[1]));
}

/* RWBS: capital letters only (F, W, R, D, N, S, M, A, B, E, ...). */
static bool blk_rwbs_ok(struct field r)
{
    if (r.n == 0 || r.n > 8)
        return false;
    for (size_t i = 0; i < r.n; i++)
        if (r.s[i] < 'A' || r.s[i] > 'Z')
            return false;
    return true;
}

#define BLK_EVENT "'MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS ...'"

/* A line is an event when its first field starts with a digit (the device's major number);
 * the other lines blkparse prints are its summaries (blk_summary_word, blk_process_heading).
 * Anything else, and an event cut short or with a field that is not what blkparse prints, is
 * a malformed line. */
static int parse_blkparse(struct ssdsim__trace_parser *p, const char *line, size_t len,
                          struct ssdsim__trace_raw *out, char *why, size_t why_len)
{
    struct field f[MAX_FIELDS];
    size_t nf = split_blanks(line, len, f, MAX_FIELDS);
    if (nf == 0)
        return SSDSIM__LINE_SKIP;
    if (!is_digit(f[0].s[0])) {
        if (blk_summary_word(f[0]) || blk_process_heading(line, len))
            return SSDSIM__LINE_SKIP;
        struct field t = trim(line, len);
        return bad(why, why_len,
                   "expected a blkparse event " BLK_EVENT " or a line of its summary, got '%s'",
                   ssdsim__trace_quote(t.s, t.n).text);
    }
    uint32_t major, minor;
    if (!blk_device(f[0], &major, &minor))
        return bad(why, why_len, "device: expected MAJ,MIN such as 8,0, got '%s'",
                   ssdsim__trace_quote(f[0].s, f[0].n).text);
    if (nf < 7)
        return bad(why, why_len, "expected a blkparse event " BLK_EVENT ", got %zu fields", nf);
    uint64_t u, time;
    GET(num_u64, f[1], "CPU", INTEGER, &u);
    GET(num_u64, f[2], "SEQ", INTEGER, &u);
    GET_SCALED(f[3], SSDSIM__NS_PER_S, "time", "seconds such as 0.000123456", &time);
    GET(num_u64, f[4], "PID", INTEGER, &u);
    if (!blk_action_ok(f[5]))
        return bad(why, why_len, "ACTION: expected one or two letters such as Q or D, got '%s'",
                   ssdsim__trace_quote(f[5].s, f[5].n).text);
    if (!blk_rwbs_ok(f[6]))
        return bad(why, why_len, "RWBS: expected capital letters such as W, RS or FWS, got '%s'",
                   ssdsim__trace_quote(f[6].s, f[6].n).text);
    if (!field_eq(f[5], p->blkparse_issue ? "D" : "Q"))
        return SSDSIM__LINE_SKIP;
    if (!blk_op(f[6], &out->op)) {
        /* no data: an empty flush ("FN"; "F" alone) */
        if (!p->flushes || f[6].s[0] != 'F')
            return SSDSIM__LINE_SKIP;
        *out = (struct ssdsim__trace_raw){.time = time, .op = SSDSIM_OP_FLUSH};
        return blk_flush_device(f[0], out, why, why_len);
    }
    /* A Q or D event with data: "SECTOR + N [PROCESS]"; one without, "[PROCESS]": a flush
     * without data when its RWBS has an F (blkparse prints a journal's empty preflush as
     * "Q FWS [jbd2/sda1-8]"), else nothing to replay. */
    if (nf >= 8 && f[7].s[0] == '[') {
        if (!p->flushes || !memchr(f[6].s, 'F', f[6].n))
            return SSDSIM__LINE_SKIP;
        *out = (struct ssdsim__trace_raw){.time = time, .op = SSDSIM_OP_FLUSH};
        return blk_flush_device(f[0], out, why, why_len);
    }
    if (nf < 10 || !field_eq(f[8], "+")) {
        const char *rest = nf > 7 ? f[7].s : "";
        struct field t = trim(rest, nf > 7 ? (size_t)(line + len - rest) : 0);
        return bad(why, why_len,
                   "expected 'SECTOR + SECTORS' or '[PROCESS]' after the RWBS of a %.*s event, "
                   "got '%s'",
                   (int)f[5].n, f[5].s, ssdsim__trace_quote(t.s, t.n).text);
    }
    out->time = time;
    uint64_t sector, n;
    GET(num_u64, f[7], "sector", INTEGER, &sector);
    GET(num_u64, f[9], "sectors", INTEGER, &n);
    if (n == 0 && memchr(f[6].s, 'F', f[6].n)) {
        if (!p->flushes)
            return SSDSIM__LINE_SKIP; /* an empty flush, "FWS 0 + 0" */
        *out = (struct ssdsim__trace_raw){.time = time, .op = SSDSIM_OP_FLUSH};
        return blk_flush_device(f[0], out, why, why_len);
    }
    if (sectors(sector, "sector", f[7], &out->offset, why, why_len) ||
        sectors(n, "sectors", f[9], &out->length, why, why_len))
        return SSDSIM_EPARSE;
    if ((uint64_t)major * 256 + minor > UINT32_MAX)
        return bad(why, why_len, "device: %u,%u does not fit major * 256 + minor in 32 bits", major,
                   minor);
    out->device = major * 256 + minor;
    if (check_extent("sector", "sectors", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    if (p->flushes && out->op == SSDSIM_OP_WRITE) {
        /* RWBS: 'F' before the W is a preflush, after it FUA ("FWFS") */
        const char *w = memchr(f[6].s, 'W', f[6].n);
        if (memchr(w, 'F', f[6].n - (size_t)(w - f[6].s)))
            out->op = SSDSIM_OP_WRITE_FUA;
        if (f[6].s[0] == 'F') {
            p->queued = *out;
            p->have_queued = true;
            out->op = SSDSIM_OP_FLUSH;
            out->offset = out->length = 0;
        }
    }
    return SSDSIM__LINE_REQ;
}

/* ------------------------------------------------------------------------------------------ */
/* fio iolog, versions 2 and 3                                                                 */

/* The files of an iolog, in order of `add`: device = index. A hash table from name to index + 1
 * (glib, off any simulation path); the last name looked up is cached, since an iolog usually
 * names one file, so most lines cost a memcmp, not a hash. */
struct ssdsim__iolog_files {
    GHashTable *index; /* char * (owned) -> GUINT_TO_POINTER(index + 1) */
    char last[IOLOG_MAX_NAME];
    size_t last_len;
    uint32_t last_index;
    bool have_last;
};

/* p->files, allocated on first use; p->n_files counts the files added. */
static struct ssdsim__iolog_files *iolog_files(struct ssdsim__trace_parser *p)
{
    if (!p->files) {
        struct ssdsim__iolog_files *fs = calloc(1, sizeof *fs);
        if (!fs)
            return NULL;
        fs->index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        p->files = fs;
    }
    return p->files;
}

static int iolog_name(struct field f, char *buf, char *why, size_t why_len)
{
    if (f.n >= IOLOG_MAX_NAME)
        return bad(why, why_len, "file name longer than %d bytes", IOLOG_MAX_NAME - 1);
    memcpy(buf, f.s, f.n);
    buf[f.n] = '\0';
    return 0;
}

/* The index of an added file, or an error naming it. */
static int iolog_lookup(struct ssdsim__trace_parser *p, struct field name, uint32_t *index,
                        char *why, size_t why_len)
{
    struct ssdsim__iolog_files *fs = iolog_files(p);
    if (!fs)
        return SSDSIM_ENOMEM;
    if (fs->have_last && fs->last_len == name.n && !memcmp(fs->last, name.s, name.n)) {
        *index = fs->last_index;
        return 0;
    }
    char buf[IOLOG_MAX_NAME];
    if (iolog_name(name, buf, why, why_len))
        return SSDSIM_EPARSE;
    gpointer v = g_hash_table_lookup(fs->index, buf);
    if (!v)
        return bad(why, why_len, "file '%s' was not added (expected a '%s add' line first)",
                   ssdsim__trace_quote(name.s, name.n).text,
                   ssdsim__trace_quote(name.s, name.n).text);
    *index = GPOINTER_TO_UINT(v) - 1;
    memcpy(fs->last, buf, name.n + 1);
    fs->last_len = name.n;
    fs->last_index = *index;
    fs->have_last = true;
    return 0;
}

static int iolog_file_action(struct ssdsim__trace_parser *p, struct field name, struct field action,
                             char *why, size_t why_len)
{
    if (field_eq(action, "add")) {
        struct ssdsim__iolog_files *fs = iolog_files(p);
        if (!fs)
            return SSDSIM_ENOMEM;
        char buf[IOLOG_MAX_NAME];
        if (iolog_name(name, buf, why, why_len))
            return SSDSIM_EPARSE;
        if (!g_hash_table_contains(fs->index, buf)) {
            /* A file added twice keeps its first index, as fio's get_fileno() finds it. */
            g_hash_table_insert(fs->index, g_strdup(buf), GUINT_TO_POINTER((guint)p->n_files + 1));
            p->n_files++;
        }
        return SSDSIM__LINE_SKIP;
    }
    if (field_eq(action, "open") || field_eq(action, "close")) {
        uint32_t index;
        int rc = iolog_lookup(p, name, &index, why, why_len);
        return rc ? rc : SSDSIM__LINE_SKIP;
    }
    return bad(why, why_len, "action: expected add, open or close, got '%s'",
               ssdsim__trace_quote(action.s, action.n).text);
}

/* "FILE ACTION OFFSET LENGTH" (after the timestamp in version 3). */
static int iolog_io_action(struct ssdsim__trace_parser *p, const struct field *f,
                           struct ssdsim__trace_raw *out, char *why, size_t why_len)
{
    bool v3 = p->format == SSDSIM_TRACE_FIO_IOLOG3;
    struct field name = f[0], action = f[1];
    if (field_eq(action, "wait")) {
        /* Version 2 only (fio ignores it in version 3). fio sleeps until OFFSET milliseconds
         * after the job started (iolog.c, read_iolog_get: mtime_since_genesis), so a wait sets
         * the earliest time of the requests after it; one shorter than the time already
         * reached is no wait. */
        if (v3)
            return SSDSIM__LINE_SKIP;
        uint64_t ms;
        GET(num_u64, f[2], "wait", INTEGER " (ms)", &ms);
        if (ms > UINT64_MAX / SSDSIM__NS_PER_MS)
            return bad(why, why_len, "wait: %llu ms is out of range", (unsigned long long)ms);
        if (ms > p->wait_ms)
            p->wait_ms = ms;
        return SSDSIM__LINE_SKIP;
    }
    bool sync = field_eq(action, "sync") || field_eq(action, "datasync");
    if (field_eq(action, "read"))
        out->op = SSDSIM_OP_READ;
    else if (field_eq(action, "write"))
        out->op = SSDSIM_OP_WRITE;
    else if (field_eq(action, "trim"))
        out->op = SSDSIM_OP_TRIM;
    else if (!sync)
        return bad(why, why_len, "action: expected read, write, trim, sync, datasync%s, got '%s'",
                   v3 ? "" : " or wait", ssdsim__trace_quote(action.s, action.n).text);
    uint32_t index;
    int rc = iolog_lookup(p, name, &index, why, why_len);
    if (rc)
        return rc;
    if (sync) {
        if (!p->flushes)
            return SSDSIM__LINE_SKIP; /* no data */
        /* a v3 line's own timestamp, parsed into out->time before, stays */
        uint64_t t = v3 ? out->time : p->wait_ms * SSDSIM__NS_PER_MS;
        *out = (struct ssdsim__trace_raw){.op = SSDSIM_OP_FLUSH, .device = index, .time = t};
        return SSDSIM__LINE_REQ;
    }
    GET(num_u64, f[2], "offset", INTEGER " (bytes)", &out->offset);
    GET(num_u64, f[3], "length", INTEGER " (bytes)", &out->length);
    if (check_extent("offset", "length", out->offset, out->length, why, why_len))
        return SSDSIM_EPARSE;
    out->device = index;
    if (!v3)
        out->time = p->wait_ms * SSDSIM__NS_PER_MS;
    return SSDSIM__LINE_REQ;
}

static int parse_iolog(struct ssdsim__trace_parser *p, const char *line, size_t len,
                       struct ssdsim__trace_raw *out, char *why, size_t why_len)
{
    bool v3 = p->format == SSDSIM_TRACE_FIO_IOLOG3;
    struct field f[MAX_FIELDS];
    size_t nf = split_blanks(line, len, f, MAX_FIELDS);
    size_t skip = v3 ? 1 : 0;
    if (nf != 2 + skip && nf != 4 + skip)
        return bad(why, why_len,
                   "expected '%sFILE ACTION' or '%sFILE ACTION OFFSET LENGTH', got %zu fields",
                   v3 ? "TIMESTAMP " : "", v3 ? "TIMESTAMP " : "", nf);
    if (v3)
        GET(num_u64, f[0], "timestamp", INTEGER " (microseconds)", &out->time);
    if (nf == 2 + skip)
        return iolog_file_action(p, f[skip], f[skip + 1], why, why_len);
    return iolog_io_action(p, f + skip, out, why, why_len);
}

/* ------------------------------------------------------------------------------------------ */
/* Dispatch                                                                                    */

static const char *iolog_header(ssdsim_trace_format f)
{
    return f == SSDSIM_TRACE_FIO_IOLOG2 ? "fio version 2 iolog" : "fio version 3 iolog";
}

void ssdsim__trace_parser_init(struct ssdsim__trace_parser *p, ssdsim_trace_format format,
                               const ssdsim_trace_opts *opts)
{
    memset(p, 0, sizeof *p);
    p->format = format;
    p->time_mult = format == SSDSIM_TRACE_MSR          ? 100
                   : format == SSDSIM_TRACE_FIO_IOLOG3 ? SSDSIM__NS_PER_US
                                                       : 1;
    p->disksim_unit_ns =
        opts && opts->disksim_time_unit_ns ? opts->disksim_time_unit_ns : SSDSIM__NS_PER_MS;
    p->disksim_read_is_zero = opts && opts->disksim_read_is_zero;
    p->blkparse_issue = opts && opts->blkparse_issue;
    p->flushes = opts && opts->flushes;
}

void ssdsim__trace_parser_reset(struct ssdsim__trace_parser *p)
{
    p->have_queued = false;
    struct ssdsim__iolog_files *fs = p->files;
    if (fs) {
        g_hash_table_remove_all(fs->index);
        fs->have_last = false;
    }
    p->n_files = 0;
    p->wait_ms = 0;
    p->first_line_done = false;
}

void ssdsim__trace_parser_fini(struct ssdsim__trace_parser *p)
{
    struct ssdsim__iolog_files *fs = p->files;
    if (fs) {
        g_hash_table_destroy(fs->index);
        free(fs);
    }
    p->files = NULL;
    p->n_files = 0;
}

int ssdsim__trace_parse_line(struct ssdsim__trace_parser *p, const char *line, size_t len,
                             struct ssdsim__trace_raw *out, char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    if (!p->first_line_done) {
        p->first_line_done = true;
        struct field t = trim(line, len);
        if (p->format == SSDSIM_TRACE_FIO_IOLOG2 || p->format == SSDSIM_TRACE_FIO_IOLOG3) {
            if (!field_eq(t, iolog_header(p->format)))
                return bad(why, why_len, "expected the header '%s', got '%s'",
                           iolog_header(p->format), ssdsim__trace_quote(t.s, t.n).text);
            return SSDSIM__LINE_SKIP;
        }
        /* The comma-separated formats may start with a header line of field names. */
        if ((p->format == SSDSIM_TRACE_MSR || p->format == SSDSIM_TRACE_SPC ||
             p->format == SSDSIM_TRACE_CSV) &&
            t.n > 0 && is_alpha(t.s[0]))
            return SSDSIM__LINE_SKIP;
    }
    switch (p->format) {
    case SSDSIM_TRACE_MSR:
        return parse_msr(line, len, out, why, why_len);
    case SSDSIM_TRACE_SPC:
        return parse_spc(line, len, out, why, why_len);
    case SSDSIM_TRACE_BLKPARSE:
        return parse_blkparse(p, line, len, out, why, why_len);
    case SSDSIM_TRACE_DISKSIM:
        return parse_disksim(p, line, len, out, why, why_len);
    case SSDSIM_TRACE_FIO_IOLOG2:
    case SSDSIM_TRACE_FIO_IOLOG3:
        return parse_iolog(p, line, len, out, why, why_len);
    case SSDSIM_TRACE_CSV:
        return parse_csv(line, len, out, why, why_len);
    case SSDSIM_TRACE_AUTO:
        break;
    }
    assert(!"parser without a format");
    return bad(why, why_len, "no trace format");
}

/* ------------------------------------------------------------------------------------------ */
/* Probing                                                                                     */

bool ssdsim__trace_blkparse_preamble(const char *line, size_t len)
{
    struct field t = trim(line, len);
    return t.n > 17 && !memcmp(t.s, "Input file ", 11) && !memcmp(t.s + t.n - 6, " added", 6);
}

/* The format a line that fits none has the shape of, by its field count and separators, and why
 * that format's reader refuses it; SSDSIM_TRACE_AUTO when no shape is close. DiskSim ASCII is
 * read with its default unit (ms) and flags, as the probe would. */
ssdsim_trace_format ssdsim__trace_closest(const char *line, size_t len, char *why,
                                          size_t why_len)
{
    struct field t = trim(line, len);
    struct field f[MAX_FIELDS];
    struct ssdsim__trace_raw raw;
    size_t nf = split_blanks(t.s, t.n, f, MAX_FIELDS);
    if (nf == 5) {
        struct ssdsim__trace_parser p;
        ssdsim__trace_parser_init(&p, SSDSIM_TRACE_DISKSIM, NULL);
        if (parse_disksim(&p, t.s, t.n, &raw, why, why_len) < 0)
            return SSDSIM_TRACE_DISKSIM;
        return SSDSIM_TRACE_AUTO;
    }
    nf = split_commas(t.s, t.n, f, MAX_FIELDS);
    int rc = 1;
    ssdsim_trace_format guess = SSDSIM_TRACE_AUTO;
    enum ssdsim_op op;
    if (nf == 7 && (field_ieq(f[3], "read") || field_ieq(f[3], "write"))) {
        guess = SSDSIM_TRACE_MSR;
        rc = parse_msr(t.s, t.n, &raw, why, why_len);
    } else if ((nf == 5 || nf == 6) && csv_op(f[2], &op)) {
        guess = SSDSIM_TRACE_CSV;
        rc = parse_csv(t.s, t.n, &raw, why, why_len);
    } else if (nf >= 5 && f[3].n == 1 && strchr("rRwW", f[3].s[0])) {
        guess = SSDSIM_TRACE_SPC;
        rc = parse_spc(t.s, t.n, &raw, why, why_len);
    }
    return rc < 0 ? guess : SSDSIM_TRACE_AUTO;
}

ssdsim_trace_format ssdsim__trace_classify(const char *line, size_t len, bool first,
                                           bool *is_header)
{
    *is_header = false;
    struct field t = trim(line, len);
    if (first && field_eq(t, iolog_header(SSDSIM_TRACE_FIO_IOLOG2)))
        return SSDSIM_TRACE_FIO_IOLOG2;
    if (first && field_eq(t, iolog_header(SSDSIM_TRACE_FIO_IOLOG3)))
        return SSDSIM_TRACE_FIO_IOLOG3;

    struct field f[MAX_FIELDS];
    uint64_t u;
    uint32_t major, minor;
    /* blkparse first: its first field, "8,0", has a comma too. */
    size_t nf = split_blanks(t.s, t.n, f, MAX_FIELDS);
    if (nf >= 7 && blk_device(f[0], &major, &minor))
        return SSDSIM_TRACE_BLKPARSE;
    if (nf == 5 && !num_scaled(f[0], 1, &u) && !num_u64(f[1], &u) && !num_u64(f[2], &u) &&
        !num_u64(f[3], &u) && !num_u64(f[4], &u))
        return SSDSIM_TRACE_DISKSIM;

    nf = split_commas(t.s, t.n, f, MAX_FIELDS);
    if (nf < 5)
        return SSDSIM_TRACE_AUTO;
    if (first && t.n > 0 && is_alpha(t.s[0])) {
        /* A header: its first field names the format when it is one of ours. */
        if ((nf == 5 || nf == 6) && field_ieq(f[0], "time_ns"))
            return SSDSIM_TRACE_CSV;
        if (nf == 7 && field_ieq(f[0], "timestamp") && field_ieq(f[1], "hostname"))
            return SSDSIM_TRACE_MSR;
        if (field_ieq(f[0], "asu") && field_ieq(f[1], "lba"))
            return SSDSIM_TRACE_SPC;
        *is_header = true;
        return SSDSIM_TRACE_AUTO;
    }
    enum ssdsim_op op;
    if (nf == 7 && !num_u64(f[0], &u) && (field_ieq(f[3], "read") || field_ieq(f[3], "write")))
        return SSDSIM_TRACE_MSR;
    if ((nf == 5 || nf == 6) && !num_u64(f[0], &u) && !num_u64(f[1], &u) && csv_op(f[2], &op))
        return SSDSIM_TRACE_CSV;
    if (!num_u64(f[0], &u) && !num_u64(f[1], &u) && !num_u64(f[2], &u) && f[3].n == 1 &&
        strchr("rRwW", f[3].s[0]) && !num_scaled(f[4], 1, &u))
        return SSDSIM_TRACE_SPC;
    return SSDSIM_TRACE_AUTO;
}
