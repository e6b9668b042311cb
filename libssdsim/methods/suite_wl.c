/* suite_wl.c: the workloads of the suites (ssdsim/suite.h) described by a few fields: their fio
 * options in order, built with the workload builder, and their write share; and the rule that
 * picks the scaled copy a suite's preconditioning curves run on.
 */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/scaled.h"
#include "ssdsim/suite.h"

/* The caller's description in the current layout; SSDSIM_EINVAL for NULL, no rw, or a newer
 * version. */
static int wl_read(ssdsim_suite_wl *dst, const ssdsim_suite_wl *src, char *why, size_t len)
{
    if (!src) {
        snprintf(why, len, "ssdsim_suite_wl: NULL");
        return SSDSIM_EINVAL;
    }
    if (ssdsim__suite_wl_read(dst, src, why, len))
        return SSDSIM_EINVAL;
    if (!dst->rw) {
        snprintf(why, len, "ssdsim_suite_wl: rw is needed");
        return SSDSIM_EINVAL;
    }
    return 0;
}

/* Option i of w: key, value text (into num when a number), whether a string. */
static int wl_option(const ssdsim_suite_wl *w, size_t i, const char **key, const char **str,
                     char *num, size_t nlen, bool *is_string)
{
    size_t n = 0;
    *str = NULL;
#define STR(k, v)                                                                                  \
    if (n++ == i) {                                                                                \
        *key = (k), *str = (v), *is_string = true;                                                 \
        return 0;                                                                                  \
    }
#define OPT(k, ...)                                                                                \
    if (n++ == i) {                                                                                \
        *key = (k), *is_string = false;                                                            \
        snprintf(num, nlen, __VA_ARGS__);                                                          \
        return 0;                                                                                  \
    }
    STR("rw", w->rw);
    if (w->bssplit) {
        STR("bssplit", w->bssplit);
    } else {
        STR("bs", w->bs ? w->bs : "4k");
    }
    if (w->rwmixread >= 0) {
        OPT("rwmixread", "%d", w->rwmixread);
    }
    OPT("numjobs", "%" PRIu32, w->threads);
    OPT("iodepth", "%" PRIu32, w->qd);
    if (w->split_region && w->threads > 1) {
        /* Each clone streams through its own part: fio's offset_increment. */
        uint64_t part = w->region_size / w->threads / 4096 * 4096;
        OPT("offset", "%" PRIu64, w->region_offset);
        OPT("size", "%" PRIu64, part);
        OPT("offset_increment", "%" PRIu64, part);
    } else {
        if (w->region_offset) {
            OPT("offset", "%" PRIu64, w->region_offset);
        }
        if (w->region_size) {
            OPT("size", "%" PRIu64, w->region_size);
        }
    }
    if (!strncmp(w->rw, "rand", 4)) {
        OPT("norandommap", "true");
    }
#undef OPT
#undef STR
    return SSDSIM_ENOTFOUND;
}

int ssdsim_suite_wl_option(const ssdsim_suite_wl *w, size_t i, const char **key, char *value,
                           size_t len, bool *is_string)
{
    ssdsim_suite_wl c;
    char why[256], num[32];
    if (!key || !value || wl_read(&c, w, why, sizeof why))
        return SSDSIM_EINVAL;
    const char *str;
    bool s;
    int rc = wl_option(&c, i, key, &str, num, sizeof num, &s);
    if (rc)
        return rc;
    if (is_string)
        *is_string = s;
    if ((size_t)snprintf(value, len, "%s", s ? str : num) >= len)
        return SSDSIM_ERANGE;
    return 0;
}

int ssdsim_suite_wl_workload(ssdsim_workload **out, const ssdsim_suite_wl *w, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    ssdsim_suite_wl c;
    char why[256];
    if (!out || wl_read(&c, w, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, "ssdsim_suite_wl_workload", "", "%s",
                                 out ? why : "out is NULL");
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_new(&wl, "suite workload", err);
    for (size_t i = 0; rc == 0; i++) {
        const char *key, *str;
        char num[32];
        bool s;
        if (wl_option(&c, i, &key, &str, num, sizeof num, &s))
            break;
        /* norandommap is a flag: the builder takes "1" for it. */
        rc = ssdsim_workload_set(wl, key, s ? str : strcmp(key, "norandommap") ? num : "1", err);
    }
    if (rc) {
        ssdsim_workload_free(wl);
        return rc;
    }
    *out = wl;
    return 0;
}

double ssdsim_suite_wl_write_share(const ssdsim_suite_wl *w)
{
    if (!w || !w->rw)
        return 0.0;
    if (strstr(w->rw, "write"))
        return 1.0;
    if (w->rwmixread >= 0 && (!strcmp(w->rw, "randrw") || !strcmp(w->rw, "rw")))
        return (100.0 - w->rwmixread) / 100.0;
    return 0.0;
}

uint32_t ssdsim_suite_curve_blocks_per_plane(const ssdsim_model *model, uint32_t blocks_per_plane)
{
    /* A scaled copy changes the flash geometry: a solid-state device's, or a system's members'
     * (ssdsim_model_scaled_copy); a hard disk and an array of them have none. */
    uint64_t bpp = model ? ssdsim__model_blocks_per_plane(model) : 0;
    if (!bpp)
        return 0;
    /* The library's rule (ssdsim_model_scaled_copy), the one fast preconditioning uses. */
    uint32_t want =
        blocks_per_plane ? blocks_per_plane : ssdsim_model_scaled_blocks_per_plane(model);
    /* A copy less than 4 times smaller saves little: run the curve on the model, which also
     * leaves it at steady state for the measurements. A given size is taken as given. */
    if (!blocks_per_plane && (uint64_t)want * 4 > (uint64_t)bpp)
        return 0;
    return want < bpp ? want : 0;
}
