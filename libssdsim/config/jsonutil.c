/* jsonutil.c: reading, parsing and error wording shared by the model and workload loaders.
 *
 * See jsonutil.h for what each function promises. Messages go into the caller's ssdsim_error;
 * nothing is printed.
 */
#include "config/jsonutil.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How much of the text after a syntax error is quoted in the message, in bytes. */
#define SNIPPET_MAX_BYTES 20

/* ------------------------------------------------------------------------------------------ */
/* Parsing                                                                                     */

/* 1-based line and column of `pos` in `text`; columns count UTF-8 characters, not bytes (every
 * byte that is not a continuation byte starts a character). */
static void line_column(const char *text, const char *pos, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (const char *p = text; p < pos; p++) {
        if (*p == '\n') {
            (*line)++;
            *column = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            (*column)++;
        }
    }
}

/* Report a syntax error at `pos`, within [text, text + len]. `reason`, when given, replaces the
 * quoted text after the error position. */
static int syntax_error(ssdsim_error *err, const char *label,
                        const struct ssdsim__json_syntax_style *style, const char *text, size_t len,
                        const char *pos, const char *reason)
{
    int line, column;
    line_column(text, pos, &line, &column);
    if (reason)
        return ssdsim__error_set_at(err, SSDSIM_EPARSE, label, line, column, "%s: %s", style->what,
                                    reason);
    if (pos == text + len)
        return ssdsim__error_set_at(err, SSDSIM_EPARSE, label, line, column,
                                    "%s: unexpected end of input", style->what);

    char near[SNIPPET_MAX_BYTES + 1];
    size_t n = 0;
    for (; n < SNIPPET_MAX_BYTES && pos + n < text + len; n++) {
        unsigned char ch = (unsigned char)pos[n];
        if (style->snippet_one_line && (ch == '\n' || ch == '\r'))
            break;
        near[n] = ch < 0x20 ? ' ' : (char)ch; /* keep the message on one line */
    }
    /* When the snippet is cut short, do not cut a UTF-8 sequence in two: drop a last sequence
     * that is incomplete. */
    if (n == SNIPPET_MAX_BYTES && pos + n < text + len) {
        size_t lead = n;
        while (lead > 0 && ((unsigned char)near[lead - 1] & 0xC0) == 0x80)
            lead--;
        if (lead > 0 && ((unsigned char)near[lead - 1] & 0xC0) == 0xC0) {
            unsigned char b = (unsigned char)near[lead - 1];
            size_t want = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
            if (n - (lead - 1) < want)
                n = lead - 1;
        }
    }
    near[n] = '\0';
    return ssdsim__error_set_at(err, SSDSIM_EPARSE, label, line, column, "%s near '%s'",
                                style->what, near);
}

/* The number of arrays and objects open at `pos` (strings skipped). */
static int depth_at(const char *text, const char *pos)
{
    int depth = 0;
    bool in_string = false;
    for (const char *p = text; p < pos; p++) {
        if (in_string) {
            if (*p == '\\' && p + 1 < pos)
                p++;
            else if (*p == '"')
                in_string = false;
        } else if (*p == '"') {
            in_string = true;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if (*p == ']' || *p == '}') {
            depth--;
        }
    }
    return depth;
}

int ssdsim__json_parse(cJSON **out, const char *text, size_t len, const char *label,
                       const struct ssdsim__json_syntax_style *style, ssdsim_error *err)
{
    *out = NULL;
    /* A UTF-8 byte order mark is not JSON, but editors on some systems write one. It is left out
     * of the columns too, as editors do not show it. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    /* cJSON stops at a NUL byte and would take what precedes it for the whole text. */
    const char *nul = memchr(text, '\0', len);
    if (nul)
        return syntax_error(err, label, style, text, len, nul, "NUL byte in the text");

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        /* cJSON points at the byte where it stopped; anything else is taken as the end. */
        if (!end || end < text || end > text + len)
            end = text + len;
        /* cJSON refuses to open an array or object deeper than CJSON_NESTING_LIMIT and stops at
         * its bracket: say so rather than quote the brackets as a syntax error. */
        if (end < text + len && (*end == '[' || *end == '{') &&
            depth_at(text, end) >= CJSON_NESTING_LIMIT) {
            char why[64];
            snprintf(why, sizeof why, "nested deeper than %d levels", CJSON_NESTING_LIMIT);
            return syntax_error(err, label, style, text, len, end, why);
        }
        return syntax_error(err, label, style, text, len, end, NULL);
    }
    *out = root;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

/* stdio and a growing malloc'ed buffer rather than g_file_get_contents: the message carries the
 * errno text as is, reading a directory fails here (fopen succeeds, fread gives EISDIR), and a
 * file too large for memory is SSDSIM_ENOMEM instead of an abort. Reading stops at
 * SSDSIM__TEXT_FILE_MAX, so that a name such as /dev/zero (a system's member, a job file's
 * include) fails instead of eating all memory; a pipe (/dev/stdin) still reads to its end. */
int ssdsim__read_text_file(char **text, size_t *len, const char *path, ssdsim_error *err)
{
    return ssdsim__read_text_file_max(text, len, path, SIZE_MAX - 1, err);
}

int ssdsim__read_text_file_max(char **text, size_t *len, const char *path, size_t max_bytes,
                               ssdsim_error *err)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno ? errno : EIO;
        return ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot read: %s", g_strerror(e));
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int e = buf ? 0 : ENOMEM;
    while (!e) {
        if (n >= SSDSIM__TEXT_FILE_MAX) {
            fclose(f);
            free(buf);
            return ssdsim__error_set(err, SSDSIM_EIO, path, NULL,
                                     "cannot read: longer than %d MiB (models and workloads are "
                                     "text files of a few KiB)",
                                     SSDSIM__TEXT_FILE_MAX >> 20);
        }
        if (cap - n < 2) {
            char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!bigger) {
                e = ENOMEM;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max_bytes) {
            e = EFBIG;
            break;
        }
        if (got == 0) {
            if (ferror(f))
                e = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (e) {
        free(buf);
        if (e == ENOMEM)
            return ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
        if (e == EFBIG)
            return ssdsim__error_set(err, SSDSIM_ERANGE, path, NULL, "larger than %zu bytes",
                                     max_bytes);
        return ssdsim__error_set(err, SSDSIM_EIO, path, NULL, "cannot read: %s", g_strerror(e));
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                    */

size_t ssdsim__edit_distance(const char *a, const char *b)
{
    enum { MAX = SSDSIM__EDIT_DISTANCE_MAX_BYTES };
    size_t la = SSDSIM__MIN(strlen(a), (size_t)MAX), lb = SSDSIM__MIN(strlen(b), (size_t)MAX);
    /* Three rows of the distance matrix: a transposition looks two rows back. */
    size_t rows[3][MAX + 1];
    size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        char ai = g_ascii_tolower(a[i - 1]);
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            char bj = g_ascii_tolower(b[j - 1]);
            size_t best = SSDSIM__MIN(prev[j] + 1, cur[j - 1] + 1);
            best = SSDSIM__MIN(best, prev[j - 1] + (ai != bj));
            if (i > 1 && j > 1 && ai == g_ascii_tolower(b[j - 2]) &&
                g_ascii_tolower(a[i - 2]) == bj)
                best = SSDSIM__MIN(best, before[j - 2] + 1);
            cur[j] = best;
        }
        size_t *spare = before;
        before = prev;
        prev = cur;
        cur = spare;
    }
    return prev[lb];
}

const char *ssdsim__json_type_name(const cJSON *v)
{
    static const struct {
        int type;
        const char *name;
    } kinds[] = {
        {cJSON_String, "a string"},  {cJSON_Number, "a number"}, {cJSON_True, "true"},
        {cJSON_False, "false"},      {cJSON_NULL, "null"},       {cJSON_Array, "an array"},
        {cJSON_Object, "an object"},
    };
    /* The low byte is the type; the bits above it are flags (cJSON_IsReference and so on). */
    for (size_t i = 0; v && i < SSDSIM__ARRAY_LEN(kinds); i++)
        if ((v->type & 0xFF) == kinds[i].type)
            return kinds[i].name;
    return "an invalid value";
}

void ssdsim__json_add_u64(cJSON *o, const char *key, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(buf));
}
