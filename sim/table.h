/* table.h: tables of text cells, printed aligned for the terminal or as Markdown (table.c). */
#ifndef SSDSIM_TABLE_H
#define SSDSIM_TABLE_H

#include <stdbool.h>

#include <glib.h>

/* A table as rows of cells (row 0: the header). */
struct cli_table {
    const char *title;
    GPtrArray *rows; /* GPtrArray of GPtrArray of char * */
};

/* Start an empty table (free it with cli_table_clear). */
void cli_table_init(struct cli_table *t, const char *title);

/* Append a row of `n` cells (const char *), copied. */
void cli_table_row(struct cli_table *t, int n, ...);

/* A number formatted with printf format `f`, or "-" when it is not finite (a missing figure).
 * Free with g_free. */
char *cli_table_num(const char *f, double x);

/* Append the table to `out`: its title, then the rows, aligned in columns for the terminal or
 * as a Markdown table (cells that read as numbers, "-" or "FAILED" right-aligned), then a blank
 * line. A table without rows below its header prints nothing. */
void cli_table_print(GString *out, const struct cli_table *t, bool markdown);

/* Append `v` to `s` as one CSV field, quoted (RFC 4180) when it holds a comma, a quote or a
 * line break. */
void cli_csv_field(GString *s, const char *v);

/* Free the rows. */
void cli_table_clear(struct cli_table *t);

#endif /* SSDSIM_TABLE_H */
