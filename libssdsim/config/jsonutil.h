/* jsonutil.h: what the JSON loaders have in common (never installed).
 *
 * The device model loader (config/model.c) and the workload loader (workload/workload.c, with
 * the fio option table in workload/fioopt.c) both read a file, parse it with cJSON, report
 * syntax errors with a line and column, name JSON types in messages and suggest the nearest
 * known name for an unknown one. This is the one implementation of each. Nothing here is on a
 * hot path.
 */
#ifndef SSDSIM_CONFIG_JSONUTIL_H
#define SSDSIM_CONFIG_JSONUTIL_H

#include "common.h"

#include <cJSON.h>

/* How a loader words its syntax errors. The two loaders chose different wordings before they
 * shared this code; their users (and their tests) rely on each, so each keeps its own. */
struct ssdsim__json_syntax_style {
    const char *what;      /* first words of every message: "malformed JSON" */
    bool snippet_one_line; /* the text quoted after "near" stops at the end of its line */
};

/* Parse `len` bytes of JSON text at `text`, which must be NUL-terminated at text[len]. A UTF-8
 * byte order mark at the start is skipped (editors on some systems write one); a NUL byte inside
 * the text is an error (cJSON would silently stop there); nothing may follow the value but white
 * space.
 *
 * A syntax error is reported in `err` (may be NULL) with `label` as the file and the 1-based
 * line and column where cJSON stopped, columns counted in UTF-8 characters after the byte order
 * mark (as an editor shows them):
 *     "<what> near '<up to 20 bytes of text>'", "<what>: unexpected end of input" or
 *     "<what>: NUL byte in the text".
 * The quoted text keeps whole UTF-8 characters and shows control characters as spaces.
 *
 * Returns 0 and sets *out to a tree the caller frees with cJSON_Delete, or SSDSIM_EPARSE with
 * *out NULL. */
int ssdsim__json_parse(cJSON **out, const char *text, size_t len, const char *label,
                       const struct ssdsim__json_syntax_style *style, ssdsim_error *err);

/* Read the whole file at `path` into a malloc'ed buffer with a NUL byte after the last one.
 * Returns 0 and sets *text (the caller frees it with free()) and *len (bytes, without the added
 * NUL); or, with *text NULL and `err` (may be NULL) filled with `path` as the file,
 * SSDSIM_EIO ("cannot read: <strerror>"; reading a directory fails too, and so does a file
 * longer than SSDSIM__TEXT_FILE_MAX bytes) or SSDSIM_ENOMEM. */
#define SSDSIM__TEXT_FILE_MAX (64 << 20)
int ssdsim__read_text_file(char **text, size_t *len, const char *path, ssdsim_error *err);

/* As ssdsim__read_text_file, but a file of more than `max_bytes` bytes (a device or a FIFO that
 * keeps giving data too) is refused with SSDSIM_ERANGE, "larger than N bytes", once a little more
 * than max_bytes has been read (at most twice as much is held). */
int ssdsim__read_text_file_max(char **text, size_t *len, const char *path, size_t max_bytes,
                               ssdsim_error *err);

/* The longest prefix of a name that ssdsim__edit_distance looks at. */
#define SSDSIM__EDIT_DISTANCE_MAX_BYTES 64

/* Edit distance between two names for "did you mean" suggestions: the optimal string alignment
 * distance (Levenshtein plus transpositions of adjacent characters, so "chanels" and "chnanels"
 * are both one edit from "channels"), ignoring ASCII case, so "OP" is no edit from "op". Only the
 * first SSDSIM__EDIT_DISTANCE_MAX_BYTES bytes of each name count: a name that long is no typo of
 * a short key anyway, and the bound lets the function work without allocating. */
size_t ssdsim__edit_distance(const char *a, const char *b);

/* The kind of JSON value `v` is, worded to follow "got" in a message: "a string", "a number",
 * "true", "false" (JSON's literals name themselves), "null", "an array", "an object", or "an
 * invalid value" for anything else (including NULL). A static string. */
const char *ssdsim__json_type_name(const cJSON *v);

/* Add an unsigned integer to a JSON object as exact integer text (a cJSON number is a double,
 * which would round values above 2^53). */
void ssdsim__json_add_u64(cJSON *o, const char *key, uint64_t v);

#endif /* SSDSIM_CONFIG_JSONUTIL_H */
