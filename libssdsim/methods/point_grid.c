/* point_grid.c: grids of points (ssdsim_point_grid), the cartesian product of several keys'
 * values, the first key varying slowest, and the file-safe name of a point.
 *
 * The points are never listed: point k's values are the mixed-radix digits of k, so a
 * million-point grid costs its keys and values only. */
#include "methods/point.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

/* Grids stay below 2^53 points, so that every index is exact in JSON (a double). */
#define MAX_GRID_POINTS (UINT64_C(1) << 53)
/* Longest name before a suffix such as ".json": longer ones are cut and end in a hash, which
 * keeps them distinct and under the usual 255-byte file-name limit with room to spare. */
#define MAX_NAME 200

struct ssdsim_point_grid {
    GPtrArray *keys;   /* char * */
    GPtrArray *values; /* GPtrArray * of char *, one per key */
    uint64_t n_points;
};

int ssdsim_point_grid_new(ssdsim_point_grid **out)
{
    if (!out)
        return SSDSIM_EINVAL;
    ssdsim_point_grid *g = g_new0(ssdsim_point_grid, 1);
    g->keys = g_ptr_array_new_with_free_func(g_free);
    g->values = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    g->n_points = 1;
    *out = g;
    return 0;
}

void ssdsim_point_grid_free(ssdsim_point_grid *g)
{
    if (!g)
        return;
    g_ptr_array_unref(g->keys);
    g_ptr_array_unref(g->values);
    g_free(g);
}

/* Split "V1,V2,..." at the commas outside brackets, braces and double-quoted strings. Blanks
 * around a value are dropped. 0, or -1 with the reason in *why. */
static int split_values(const char *list, GPtrArray *out, const char **why)
{
    int depth = 0;
    bool in_str = false, esc = false;
    const char *start = list;
    for (const char *p = list;; p++) {
        char c = *p;
        if (c && in_str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"')
            in_str = true;
        else if (c == '[' || c == '{')
            depth++;
        else if ((c == ']' || c == '}') && --depth < 0)
            break;
        if ((c == ',' && depth == 0) || !c) {
            char *v = g_strstrip(g_strndup(start, (gsize)(p - start)));
            if (!*v) {
                g_free(v);
                *why = "empty value";
                return -1;
            }
            g_ptr_array_add(out, v);
            start = p + 1;
        }
        if (!c)
            break;
    }
    if (depth != 0 || in_str) {
        *why = "unbalanced brackets or quotes";
        return -1;
    }
    return 0;
}

int ssdsim_point_grid_add(ssdsim_point_grid *g, const char *key, const char *values,
                          ssdsim_error *err)
{
    if (!g || !key || !*key || !values || !*values)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, key && *key ? key : NULL, "%s",
                                 !g ? "no grid" : !key || !*key ? "empty key" : "no value");
    for (guint i = 0; i < g->keys->len; i++)
        if (!strcmp(g->keys->pdata[i], key))
            return ssdsim__error_set(err, SSDSIM_ESTATE, NULL, key, "in the grid already");
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
    const char *why = NULL;
    int rc = 0;
    if (split_values(values, v, &why)) {
        rc = ssdsim__error_set(err, SSDSIM_EINVAL, NULL, key, "%s in '%s'", why, values);
        goto fail;
    }
    for (guint i = 0; i < v->len; i++) {
        for (guint j = 0; j < i; j++) {
            if (!strcmp(v->pdata[i], v->pdata[j])) {
                rc = ssdsim__error_set(err, SSDSIM_EINVAL, NULL, key,
                                       "value '%s' is given twice", (char *)v->pdata[i]);
                goto fail;
            }
        }
    }
    if (g->n_points > MAX_GRID_POINTS / v->len) {
        rc = ssdsim__error_set(err, SSDSIM_ERANGE, NULL, key,
                               "the grid would have more than 2^53 points");
        goto fail;
    }
    g->n_points *= v->len;
    g_ptr_array_add(g->keys, g_strdup(key));
    g_ptr_array_add(g->values, v);
    return 0;
fail:
    g_ptr_array_unref(v);
    return rc;
}

size_t ssdsim_point_grid_n_keys(const ssdsim_point_grid *g)
{
    return g ? g->keys->len : 0;
}

uint64_t ssdsim_point_grid_n_points(const ssdsim_point_grid *g)
{
    return g ? g->n_points : 0;
}

size_t ssdsim_point_grid_n_values(const ssdsim_point_grid *g, size_t i)
{
    return g && i < g->keys->len ? ((GPtrArray *)g->values->pdata[i])->len : 0;
}

const char *ssdsim_point_grid_key(const ssdsim_point_grid *g, size_t i)
{
    return g && i < g->keys->len ? g->keys->pdata[i] : NULL;
}

const char *ssdsim_point_grid_value(const ssdsim_point_grid *g, size_t i, size_t j)
{
    return j < ssdsim_point_grid_n_values(g, i) ? ((GPtrArray *)g->values->pdata[i])->pdata[j]
                                                : NULL;
}

int ssdsim_point_grid_values(const ssdsim_point_grid *g, uint64_t index, const char **values)
{
    if (!g || !values || index >= g->n_points)
        return SSDSIM_EINVAL;
    uint64_t rest = index;
    for (guint i = g->keys->len; i-- > 0;) {
        const GPtrArray *v = g->values->pdata[i];
        values[i] = v->pdata[rest % v->len];
        rest /= v->len;
    }
    return 0;
}

char *ssdsim_point_name(const char *const *keys, const char *const *values, size_t n)
{
    if (n && (!keys || !values))
        return NULL;
    GString *s = g_string_new(NULL);
    GString *full = g_string_new(NULL);
    for (size_t i = 0; i < n; i++) {
        if (!keys[i] || !values[i]) {
            g_string_free(s, TRUE);
            g_string_free(full, TRUE);
            return NULL;
        }
        if (i)
            g_string_append(s, "__");
        g_string_append_printf(full, "%s=%s;", keys[i], values[i]);
        for (int part = 0; part < 2; part++) {
            if (part)
                g_string_append_c(s, '-');
            for (const char *c = part ? values[i] : keys[i]; *c; c++)
                g_string_append_c(s, g_ascii_isalnum(*c) || strchr("._+-", *c) ? *c : '_');
        }
    }
    if (s->len > MAX_NAME) {
        g_string_truncate(s, MAX_NAME - 17);
        g_string_append_printf(s, "~%016" PRIx64,
                               ssdsim__fnv1a64(SSDSIM__FNV_OFFSET, full->str));
    }
    g_string_free(full, TRUE);
    char *name = strdup(s->str); /* free()d by the caller, as the library's other strings */
    g_string_free(s, TRUE);
    return name;
}
