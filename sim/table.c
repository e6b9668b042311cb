/* table.c: tables of text cells for the commands' reports (`ssdsim validate waf`), printed
 * aligned for the terminal, padded by characters so that a "±" in a header does not shift a
 * column, or as Markdown with numeric columns right-aligned; and the CSV field rule the
 * commands' CSV files share.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

void cli_table_init(struct cli_table *t, const char *title)
{
    t->title = title;
    t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
}

void cli_table_clear(struct cli_table *t)
{
    if (t->rows)
        g_ptr_array_unref(t->rows);
    t->rows = NULL;
}

void cli_table_row(struct cli_table *t, int n, ...)
{
    GPtrArray *row = g_ptr_array_new_with_free_func(g_free);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        g_ptr_array_add(row, g_strdup(va_arg(ap, const char *)));
    va_end(ap);
    g_ptr_array_add(t->rows, row);
}

void cli_csv_field(GString *s, const char *v)
{
    if (!strpbrk(v, ",\"\r\n")) {
        g_string_append(s, v);
        return;
    }
    g_string_append_c(s, '"');
    for (; *v; v++) {
        if (*v == '"')
            g_string_append_c(s, '"');
        g_string_append_c(s, *v);
    }
    g_string_append_c(s, '"');
}

char *cli_table_num(const char *f, double x)
{
    return isfinite(x) ? g_strdup_printf(f, x) : g_strdup("-");
}

/* A cell that reads as a number (or stands for a missing one) is right-aligned. */
static bool numeric_cell(const char *s)
{
    char *end;
    if (!strcmp(s, "-") || !strcmp(s, "FAILED"))
        return true;
    strtod(s, &end);
    return end != s && *end == 0;
}

void cli_table_print(GString *out, const struct cli_table *t, bool markdown)
{
    if (t->rows->len < 2)
        return;
    GPtrArray *head = t->rows->pdata[0];
    guint nc = head->len;
    size_t *w = g_new0(size_t, nc);
    bool *right = g_new0(bool, nc);
    for (guint c = 0; c < nc; c++)
        right[c] = true;
    for (guint r = 0; r < t->rows->len; r++) {
        GPtrArray *row = t->rows->pdata[r];
        for (guint c = 0; c < nc; c++) {
            w[c] = MAX(w[c], (size_t)g_utf8_strlen(row->pdata[c], -1));
            if (r > 0 && !numeric_cell(row->pdata[c]))
                right[c] = false;
        }
    }
    g_string_append_printf(out, markdown ? "### %s\n\n" : "%s\n", t->title);
    for (guint r = 0; r < t->rows->len; r++) {
        GPtrArray *row = t->rows->pdata[r];
        for (guint c = 0; c < nc; c++) {
            const char *cell = row->pdata[c];
            if (markdown) {
                g_string_append_printf(out, "| %s ", cell);
                continue;
            }
            /* Pad by characters, not bytes: headers hold a "±". */
            size_t pad = w[c] - (size_t)g_utf8_strlen(cell, -1);
            if (right[c])
                g_string_append_printf(out, "%*s", (int)pad, "");
            g_string_append(out, cell);
            if (!right[c])
                g_string_append_printf(out, "%*s", (int)pad, "");
            g_string_append(out, "  ");
        }
        if (markdown)
            g_string_append(out, "|");
        while (!markdown && out->len && out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        g_string_append_c(out, '\n');
        if (markdown && r == 0) {
            for (guint c = 0; c < nc; c++)
                g_string_append(out, right[c] ? "|---:" : "|---");
            g_string_append(out, "|\n");
        }
    }
    g_string_append_c(out, '\n');
    g_free(w);
    g_free(right);
}
