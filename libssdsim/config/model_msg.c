/* model_msg.c: the messages of the model loader.
 *
 * Every problem in a model is reported as one line naming the file (or --set), the key's full
 * path and what was expected, e.g. `models/x.json: geometry.channels: expected an integer in
 * [1, 256], got 0`. This file words them: how a JSON value is described ("got ..."), what a key
 * of the table accepts ("expected ..."), and the remapping of a path shown under another name
 * (a system's uplink, read as host keys).
 */
#include "config/model_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int ssdsim__model_error(struct ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *shown = NULL;
    size_t lf = c->remap_from ? strlen(c->remap_from) : 0;
    if (path && lf && strncmp(path, c->remap_from, lf) == 0)
        path = shown = g_strdup_printf("%s%s", c->remap_to, path + lf);
    return ssdsim__error_set(c->err, SSDSIM_ECONFIG, c->label, path, "%s", what);
}

/* A double as short as it can be written and still read back identically: a whole number below
 * 10^15 in full, else the first of %.15g, %.16g and %.17g that reads back as the same double
 * (%.17g always does). A value that came from decimal text of at most 15 significant digits
 * prints as that text ("0.3"), one computed or set from C (0.1 + 0.2) in enough digits to come
 * back bit for bit. Locale-independent: the model's JSON is built with it. */
void ssdsim__model_format_number(double d, char *buf, size_t len)
{
    if (d == floor(d) && fabs(d) < 1e15) {
        g_ascii_formatd(buf, (gint)len, "%.0f", d);
        return;
    }
    static const char *const formats[] = {"%.15g", "%.16g", "%.17g"};
    for (size_t i = 0; i < 3; i++) {
        g_ascii_formatd(buf, (gint)len, formats[i], d);
        if (g_ascii_strtod(buf, NULL) == d)
            return;
    }
}

/* Append a string quoted, cut at 40 bytes, with control characters and quotes escaped so that
 * the message stays on one line. */
static void append_quoted(GString *out, const char *s)
{
    size_t n = 0;
    g_string_append_c(out, '"');
    for (; s[n] && n < 40; n++) {
        unsigned char ch = (unsigned char)s[n];
        if (ch == '"' || ch == '\\')
            g_string_append_printf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            g_string_append_printf(out, "\\x%02x", ch);
        else
            g_string_append_c(out, (char)ch);
    }
    if (s[n])
        g_string_append(out, "...");
    g_string_append_c(out, '"');
}

/* What a JSON value is, for "got ..." in messages. With `with_type`, the JSON type is named
 * first ("a string (\"8\")"): used when the type itself is wrong. */
char *ssdsim__model_describe(const cJSON *v, bool with_type)
{
    GString *s = g_string_new(NULL);
    char num[40];
    if (cJSON_IsNumber(v)) {
        ssdsim__model_format_number(v->valuedouble, num, sizeof num);
        g_string_append_printf(s, with_type ? "a number (%s)" : "%s", num);
    } else if (cJSON_IsString(v)) {
        if (with_type)
            g_string_append(s, "a string (");
        append_quoted(s, v->valuestring);
        if (with_type)
            g_string_append_c(s, ')');
    } else if (cJSON_IsBool(v)) {
        g_string_append_printf(s, with_type ? "a bool (%s)" : "%s",
                               cJSON_IsTrue(v) ? "true" : "false");
    } else {
        /* null, an array, an object: the kind is all there is to say */
        g_string_append(s, ssdsim__json_type_name(v));
    }
    return g_string_free(s, FALSE);
}

/* "a, b or c" from a choice list, each name quoted when `quote` is set. */
void ssdsim__model_append_choices(GString *s, const struct choice *choices, bool quote)
{
    for (const struct choice *ch = choices; ch->name; ch++) {
        if (ch != choices)
            g_string_append(s, ch[1].name ? ", " : " or ");
        g_string_append_printf(s, quote ? "\"%s\"" : "%s", ch->name);
    }
}

/* What a key accepts, for "expected ..." in messages. */
static char *expected_text(const struct key_spec *k)
{
    GString *s = g_string_new(NULL);
    char lo[40], hi[40];
    ssdsim__model_format_number(k->min, lo, sizeof lo);
    ssdsim__model_format_number(k->max, hi, sizeof hi);
    switch (k->type) {
    case KEY_STRING:
        g_string_append(s, "a string");
        break;
    case KEY_U32:
        /* numbers bare, a named value quoted as it is written: 1, 2, ... 64 or "unlimited" */
        for (const struct choice *ch = k->choices; ch && ch->name; ch++)
            g_string_append_printf(s, g_ascii_isdigit(ch->name[0]) ? "%s%s" : "%s\"%s\"",
                                   ch == k->choices ? "" : ch[1].name ? ", " : " or ", ch->name);
        if (!k->choices)
            g_string_append_printf(s, "an integer in [%s, %s]", lo, hi);
        break;
    case KEY_DOUBLE:
        g_string_append_printf(s, "a number in [%s, %s]", lo, hi);
        break;
    case KEY_SIZE:
    case KEY_SIZE64:
        g_string_append_printf(s, "%s in [%s, %s] bytes (a number or a size string like \"4KiB\")",
                               (k->flags & KF_POW2) ? "a power of two" : "a size", lo, hi);
        break;
    case KEY_TIME:
    case KEY_TIME_LIST:
        g_string_append_printf(s, "a number in [%s, %s] (microseconds) or a time string", lo, hi);
        break;
    case KEY_RATE:
        g_string_append_printf(
            s, "a number in [%s, %s] (bytes/s) or a rate string like \"600MB/s\"", lo, hi);
        break;
    case KEY_BOOL:
        g_string_append(s, "true or false");
        break;
    case KEY_PLUGIN: {
        g_autofree char *names = ssdsim__plugin_names(k->kind, NULL, NULL);
        g_string_append_printf(s, "the name of a registered %s (%s)",
                               ssdsim__plugin_kind_name(k->kind), names);
        break;
    }
    case KEY_ENUM:
    case KEY_ENUM_NAME:
        if (k->choices[1].name)
            g_string_append(s, "one of ");
        ssdsim__model_append_choices(s, k->choices, true);
        break;
    }
    return g_string_free(s, FALSE);
}

/* "<path>: expected <what the key accepts>, got <v>". */
int ssdsim__model_bad_value(struct ctx *c, const struct key_spec *k, const char *path,
                            const cJSON *v, bool wrong_type)
{
    g_autofree char *expected = expected_text(k);
    g_autofree char *got = ssdsim__model_describe(v, wrong_type);
    return ssdsim__model_error(c, path, "expected %s, got %s", expected, got);
}
