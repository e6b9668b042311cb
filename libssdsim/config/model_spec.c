/* model_spec.c: a model's spec figures.
 *
 * "spec": {"source": "...", "figures": [{"name", "metric", "value", "rw", "bs", ...}]} holds
 * what a datasheet promises, for the validate command to compare with simulated figures. This
 * file reads the block (checked names, required keys, a metric whose direction is the
 * workload's), writes it back in the canonical JSON, and serves the public getters.
 */
#include "abi.h"
#include "config/model_int.h"
#include "memest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Spec figures: "spec": {"source": "...", "figures": [{...}, ...]}. */
static const struct choice metric_choices[] = {
    {"read_iops", SSDSIM__METRIC_READ_IOPS},     {"write_iops", SSDSIM__METRIC_WRITE_IOPS},
    {"read_mbps", SSDSIM__METRIC_READ_MBPS},     {"write_mbps", SSDSIM__METRIC_WRITE_MBPS},
    {"read_lat_us", SSDSIM__METRIC_READ_LAT_US}, {"write_lat_us", SSDSIM__METRIC_WRITE_LAT_US},
    {NULL, 0},
};
static const struct choice state_choices[] = {{"fresh", SSDSIM__STATE_FRESH},
                                              {"full", SSDSIM__STATE_FULL},
                                              {"steady", SSDSIM__STATE_STEADY},
                                              {NULL, 0}};
/* what the vendor's value is: a typical figure, or a limit ("< 50 us", "over 100,000 IOPS") */
static const struct choice bound_choices[] = {{"typical", SSDSIM__BOUND_TYPICAL},
                                              {"upper", SSDSIM__BOUND_UPPER},
                                              {"lower", SSDSIM__BOUND_LOWER},
                                              {NULL, 0}};
static const struct choice rw_choices[] = {{"read", 0}, {"write", 1}, {"randread", 2},
                                           {"randwrite", 3}, {NULL, 0}};

static int spec_string(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                       bool required, char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v)
        return required ? ssdsim__model_error(c, p, "required key missing") : 0;
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        g_autofree char *got = ssdsim__model_describe(v, true);
        return ssdsim__model_error(c, p, "expected a non-empty string, got %s", got);
    }
    if (!(*out = strdup(v->valuestring)))
        return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, p, "out of memory");
    return 0;
}

static int spec_choice(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                       const struct choice *choices, int def, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v) {
        if (def < 0)
            return ssdsim__model_error(c, p, "required key missing");
        *out = def;
        return 0;
    }
    const struct choice *ch =
        cJSON_IsString(v) ? ssdsim__model_find_choice(choices, v->valuestring) : NULL;
    if (!ch) {
        GString *s = g_string_new(NULL);
        ssdsim__model_append_choices(s, choices, true);
        g_autofree char *want = g_string_free(s, FALSE);
        g_autofree char *got = ssdsim__model_describe(v, !cJSON_IsString(v));
        return ssdsim__model_error(c, p, "expected one of %s, got %s", want, got);
    }
    *out = ch->value;
    return 0;
}

static int spec_count(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                      uint32_t def, uint32_t max, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= max) ||
        v->valuedouble != floor(v->valuedouble)) {
        g_autofree char *got = ssdsim__model_describe(v, !cJSON_IsNumber(v));
        return ssdsim__model_error(c, p, "expected an integer in [1, %u], got %s", max, got);
    }
    *out = (uint32_t)v->valuedouble;
    return 0;
}

int ssdsim__model_spec_build(struct ctx *c, const cJSON *root)
{
    static const char *const spec_keys[] = {"source", "figures", NULL};
    static const char *const fig_keys[] = {"name",    "metric",  "value", "rw",   "bs",
                                           "iodepth", "numjobs", "state", "bound", "note",
                                           "fitted", NULL};
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(root, "spec");
    struct ssdsim__spec *sp = &c->m->spec;
    if (!spec)
        return 0;
    if (!cJSON_IsObject(spec)) {
        g_autofree char *got = ssdsim__model_describe(spec, true);
        return ssdsim__model_error(c, "spec", "expected an object, got %s", got);
    }
    int rc = ssdsim__model_check_names(c, spec, "spec", spec_keys);
    if (rc == 0)
        rc = spec_string(c, spec, "source", "spec", false, &sp->source);
    if (rc != 0)
        return rc;
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(spec, "figures");
    if (!figs)
        return ssdsim__model_error(c, "spec.figures", "required key missing");
    if (!cJSON_IsArray(figs)) {
        g_autofree char *got = ssdsim__model_describe(figs, true);
        return ssdsim__model_error(c, "spec.figures", "expected an array of figures, got %s", got);
    }
    int n = cJSON_GetArraySize(figs);
    sp->figs = calloc((size_t)(n > 0 ? n : 1), sizeof *sp->figs);
    if (!sp->figs)
        return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, "spec", "out of memory");
    int i = 0;
    for (const cJSON *f = figs->child; f; f = f->next, i++) {
        g_autofree char *path = g_strdup_printf("spec.figures[%d]", i);
        struct ssdsim__spec_figure *fig = &sp->figs[i];
        sp->n_figs = (uint32_t)i + 1;
        if (!cJSON_IsObject(f)) {
            g_autofree char *got = ssdsim__model_describe(f, true);
            return ssdsim__model_error(c, path, "expected an object, got %s", got);
        }
        int metric = 0, rw = 0, state = 0, bound = 0;
        if ((rc = ssdsim__model_check_names(c, f, path, fig_keys)) ||
            (rc = spec_string(c, f, "name", path, true, &fig->name)) ||
            (rc = spec_choice(c, f, "metric", path, metric_choices, -1, &metric)) ||
            (rc = spec_choice(c, f, "rw", path, rw_choices, -1, &rw)) ||
            (rc = spec_count(c, f, "iodepth", path, 1, 65535, &fig->iodepth)) ||
            (rc = spec_count(c, f, "numjobs", path, 1, 1024, &fig->numjobs)) ||
            (rc = spec_choice(c, f, "state", path, state_choices, SSDSIM__STATE_FRESH, &state)) ||
            (rc = spec_choice(c, f, "bound", path, bound_choices, SSDSIM__BOUND_TYPICAL, &bound)) ||
            (rc = spec_string(c, f, "note", path, false, &fig->note)) ||
            (rc = spec_string(c, f, "fitted", path, false, &fig->fitted)))
            return rc;
        /* `calibrate --figure SEL` and ssdsim_model_spec_find take a name or a number: a name
         * must select one figure, and never be read as another's number */
        g_autofree char *npath = g_strdup_printf("%s.name", path);
        if (strspn(fig->name, "0123456789") == strlen(fig->name))
            return ssdsim__model_error(c, npath,
                                       "expected a name that is not a plain number (a figure is "
                                       "also selected by its number, from 1), got \"%s\"",
                                       fig->name);
        for (int j = 0; j < i; j++)
            if (!strcmp(sp->figs[j].name, fig->name))
                return ssdsim__model_error(c, npath,
                                           "\"%s\" is already the name of spec.figures[%d]; "
                                           "expected a name of its own (a figure is selected "
                                           "by its name)",
                                           fig->name, j);
        /* calibrate runs the figure with that many requests outstanding: refuse here, when the
         * model is read, rather than after the figures before it have run */
        char why[384];
        if (ssdsim__outstanding_check(fig->numjobs, fig->iodepth,
                                      (uint64_t)fig->numjobs * fig->iodepth, why, sizeof why))
            return ssdsim__model_error(c, path, "%s", why);
        /* a figure's `fitted` names a key of the device model's table (model.c) */
        if (fig->fitted && ssdsim__model_classify(fig->fitted) != PATH_LEAF) {
            g_autofree char *fpath = g_strdup_printf("%s.fitted", path);
            return ssdsim__model_error(c, fpath,
                                       "expected the model key whose value was derived from this "
                                       "figure (such as \"controller.cmd_overhead_us\"), got "
                                       "\"%s\", not a key of a device model",
                                       fig->fitted);
        }
        fig->metric = (enum ssdsim__metric)metric;
        fig->state = (enum ssdsim__spec_state)state;
        fig->bound = (enum ssdsim__spec_bound)bound;
        if (!(fig->rw = strdup(rw_choices[rw].name)))
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, path, "out of memory");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "value");
        g_autofree char *vpath = g_strdup_printf("%s.value", path);
        if (!v)
            return ssdsim__model_error(c, vpath, "required key missing");
        if (!cJSON_IsNumber(v) || !(v->valuedouble > 0 && v->valuedouble < 1e12)) {
            g_autofree char *got = ssdsim__model_describe(v, !cJSON_IsNumber(v));
            return ssdsim__model_error(c, vpath, "expected a positive number below 1e12, got %s",
                                       got);
        }
        fig->value = v->valuedouble;
        /* the metric's direction must be the workload's */
        bool reads = metric == SSDSIM__METRIC_READ_IOPS || metric == SSDSIM__METRIC_READ_MBPS ||
                     metric == SSDSIM__METRIC_READ_LAT_US;
        bool rw_reads = rw == 0 || rw == 2;
        if (reads != rw_reads)
            return ssdsim__model_error(c, vpath[0] ? path : path,
                                       "metric \"%s\" does not match rw \"%s\"",
                                       metric_choices[metric].name, rw_choices[rw].name);
        const cJSON *bs = cJSON_GetObjectItemCaseSensitive(f, "bs");
        g_autofree char *bpath = g_strdup_printf("%s.bs", path);
        if (!bs)
            return ssdsim__model_error(c, bpath, "required key missing");
        struct key_spec bk = {.path = bpath, .type = KEY_SIZE, .min = 512, .max = 64 << 20};
        uint64_t b;
        if ((rc = ssdsim__model_read_bytes(c, &bk, bpath, bs, &b)) != 0)
            return rc;
        if (b % 512)
            return ssdsim__model_error(c, bpath, "expected a multiple of 512 bytes, got %llu",
                                       (unsigned long long)b);
        fig->bs = (uint32_t)b;
    }
    return 0;
}

/* The figures of the model's spec, as written in a model file (defaults filled in). */
bool ssdsim__model_spec_json(const struct ssdsim_model *m, cJSON *root)
{
    const struct ssdsim__spec *sp = &m->spec;
    if (sp->n_figs == 0 && !sp->source)
        return true;
    cJSON *spec = cJSON_AddObjectToObject(root, "spec");
    if (!spec || (sp->source && !cJSON_AddStringToObject(spec, "source", sp->source)))
        return false;
    cJSON *figs = cJSON_AddArrayToObject(spec, "figures");
    if (!figs)
        return false;
    for (uint32_t i = 0; i < sp->n_figs; i++) {
        const struct ssdsim__spec_figure *f = &sp->figs[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(figs, o)) {
            cJSON_Delete(o);
            return false;
        }
        if (!cJSON_AddStringToObject(o, "name", f->name) ||
            !cJSON_AddStringToObject(o, "metric", metric_choices[f->metric].name) ||
            !cJSON_AddNumberToObject(o, "value", f->value) ||
            !cJSON_AddStringToObject(o, "rw", f->rw) ||
            !cJSON_AddNumberToObject(o, "bs", f->bs) ||
            !cJSON_AddNumberToObject(o, "iodepth", f->iodepth) ||
            !cJSON_AddNumberToObject(o, "numjobs", f->numjobs) ||
            !cJSON_AddStringToObject(o, "state", state_choices[f->state].name) ||
            (f->bound != SSDSIM__BOUND_TYPICAL &&
             !cJSON_AddStringToObject(o, "bound", bound_choices[f->bound].name)) ||
            (f->note && !cJSON_AddStringToObject(o, "note", f->note)) ||
            (f->fitted && !cJSON_AddStringToObject(o, "fitted", f->fitted)))
            return false;
    }
    return true;
}

SSDSIM_API const char *ssdsim_model_spec_source(const ssdsim_model *model)
{
    return model ? model->spec.source : NULL;
}

SSDSIM_API const char *ssdsim_model_spec_bound(const ssdsim_model *model, size_t i)
{
    if (!model || i >= model->spec.n_figs)
        return NULL;
    return bound_choices[model->spec.figs[i].bound].name;
}

SSDSIM_API const char *ssdsim_model_spec_fitted(const ssdsim_model *model, size_t i)
{
    if (!model || i >= model->spec.n_figs)
        return NULL;
    return model->spec.figs[i].fitted;
}

SSDSIM_API size_t ssdsim_model_spec_count(const ssdsim_model *model)
{
    return model ? model->spec.n_figs : 0;
}

static int model_spec_get_full(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out)
{
    if (!model || !out || i >= model->spec.n_figs)
        return SSDSIM_EINVAL;
    const struct ssdsim__spec_figure *f = &model->spec.figs[i];
    *out = (ssdsim_spec_figure){
        .name = f->name,
        .metric = metric_choices[f->metric].name,
        .value = f->value,
        .rw = f->rw,
        .bs = f->bs,
        .iodepth = f->iodepth,
        .numjobs = f->numjobs,
        .state = state_choices[f->state].name,
        .note = f->note,
    };
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_model_spec_get_sized(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out,
                                size_t size)
{
    ssdsim_spec_figure full;
    memset(&full, 0, sizeof full);
    int rc = model_spec_get_full(model, i, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_model_spec_get)(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out)
{
    return ssdsim_model_spec_get_sized(model, i, out, SSDSIM__SPEC_FIGURE_SIZE_1);
}
