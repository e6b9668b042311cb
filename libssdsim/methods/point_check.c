/* point_check.c: the check of a whole grid before any of its points runs
 * (ssdsim_point_grid_check, ssdsim/point.h), as `ssdsim sweep` makes it: every point's values
 * applied as overrides to copies of the model and workload, and no two points with the same
 * name (the name is the point's results file: two would write one file). The points are taken
 * in grid order and the first fault stops the check. */
#include "methods/point.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "abi.h"

static const size_t opts_sizes[] = {0, sizeof(ssdsim_point_check_opts)};

int ssdsim_point_check_opts_init(ssdsim_point_check_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(opts_sizes) == SSDSIM_POINT_CHECK_OPTS_VERSION + 1,
                   "a size per version");
    if (!opts || version > SSDSIM_POINT_CHECK_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_POINT_CHECK_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_POINT_CHECK_OPTS_VERSION ? sizeof *opts : opts_sizes[v]);
    opts->version = v;
    return 0;
}

/* Apply point k's values ("KEY=VALUE" texts in `kv`) to copies of model and wl. */
static int check_values(const ssdsim_model *model, const ssdsim_workload *wl, const char *const *kv,
                        size_t n, ssdsim_error *err)
{
    ssdsim_model *m = NULL;
    ssdsim_workload *w = NULL;
    int rc = 0;
    if ((model && ssdsim_model_copy(&m, model)) || (wl && ssdsim_workload_copy(&w, wl))) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    } else {
        ssdsim_point_opts pt = SSDSIM_POINT_OPTS_INIT;
        pt.vary = kv;
        pt.n_vary = n;
        rc = ssdsim_point_apply(m, w, &pt, NULL, err);
    }
    ssdsim_workload_free(w);
    ssdsim_model_free(m);
    return rc;
}

int ssdsim_point_grid_check(const ssdsim_point_grid *grid, const ssdsim_model *model,
                            const ssdsim_workload *wl, const ssdsim_point_check_opts *opts,
                            uint64_t *point, uint64_t *other, ssdsim_error *err)
{
    if (point)
        *point = UINT64_MAX;
    if (other)
        *other = UINT64_MAX;
    ssdsim_point_check_opts o;
    char why[160] = "";
    if (ssdsim__opts_read(&o, sizeof o, opts, opts_sizes, SSDSIM_POINT_CHECK_OPTS_VERSION,
                          "ssdsim_point_check_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!grid)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_point_grid_check: no grid");
    size_t n_keys = ssdsim_point_grid_n_keys(grid);
    uint64_t n_points = ssdsim_point_grid_n_points(grid);
    const char **keys = g_new(const char *, n_keys + 1);
    const char **values = g_new(const char *, n_keys + 1);
    char **kv = g_new0(char *, n_keys + 1);
    for (size_t i = 0; i < n_keys; i++)
        keys[i] = ssdsim_point_grid_key(grid, i);
    /* name -> the first point of that name (its index + 1) */
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
    int rc = 0;
    for (uint64_t k = 0; k < n_points && rc == 0; k++) {
        if (o.on_point)
            o.on_point(k, o.userdata);
        ssdsim_point_grid_values(grid, k, values);
        char *name = ssdsim_point_name(keys, values, n_keys);
        if (!name) {
            rc = ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
            break;
        }
        uint64_t first = (uint64_t)(uintptr_t)g_hash_table_lookup(names, name);
        if (first) {
            rc = ssdsim__error_set(err, SSDSIM_ESTATE, NULL, NULL,
                                   "points %" PRIu64 " and %" PRIu64 " have the same name %s",
                                   first - 1, k, name);
            if (other)
                *other = first - 1;
            free(name);
        } else {
            g_hash_table_insert(names, name, (gpointer)(uintptr_t)(k + 1));
            for (size_t i = 0; i < n_keys; i++) {
                g_free(kv[i]);
                kv[i] = g_strconcat(keys[i], "=", values[i], NULL);
            }
            rc = check_values(model, wl, (const char *const *)kv, n_keys, err);
        }
        if (rc && point)
            *point = k;
    }
    if (o.on_point)
        o.on_point(UINT64_MAX, o.userdata);
    g_hash_table_destroy(names);
    g_strfreev(kv);
    g_free(keys);
    g_free(values);
    return rc;
}
