/* model_read.c: reading the values of the key table into a model.
 *
 * Each key of the table is converted by its type (count, number, size, time, rate, enum, bool,
 * plugin name) and checked against its range, or takes its default when absent: a JSON default
 * from the table or one derived from keys above it. Sizes, times and rates may be unit strings
 * ("4KiB", "50us", "600MB/s", units.c).
 */
#include "config/model_int.h"
#include "config/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *cell_name(int cell)
{
    for (const struct choice *ch = ssdsim__model_cell_choices; ch->name; ch++)
        if (ch->value == cell)
            return ch->name;
    return "?";
}

/* A time given as microseconds (number) or with a unit (string), in ns within the key's range. */
static int read_time(struct ctx *c, const struct key_spec *k, const char *path, const cJSON *v,
                     uint64_t *ns)
{
    uint64_t t;
    if (cJSON_IsNumber(v)) {
        double us = v->valuedouble;
        /* the bound keeps the conversion below within uint64_t; the range check comes next */
        if (!(us >= 0 && us <= 1e12))
            return ssdsim__model_bad_value(c, k, path, v, false);
        t = (uint64_t)llround(us * 1000.0);
    } else if (cJSON_IsString(v)) {
        if (ssdsim__units_parse_time_ns(v->valuestring, &t) != 0)
            return ssdsim__model_bad_value(c, k, path, v, false);
    } else {
        return ssdsim__model_bad_value(c, k, path, v, true);
    }
    if (t < (uint64_t)(k->min * 1000.0) || t > (uint64_t)(k->max * 1000.0))
        return ssdsim__model_bad_value(c, k, path, v, false);
    *ns = t;
    return 0;
}

/* A byte count or rate: an integral number (rounded for rates), or a unit string. */
int ssdsim__model_read_bytes(struct ctx *c, const struct key_spec *k, const char *path,
                             const cJSON *v, uint64_t *out)
{
    uint64_t b;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!(d >= 0 && d <= 1e18) || (k->type != KEY_RATE && d != floor(d)))
            return ssdsim__model_bad_value(c, k, path, v, false);
        b = (uint64_t)llround(d);
    } else if (cJSON_IsString(v)) {
        int rc = k->type == KEY_RATE ? ssdsim__units_parse_rate(v->valuestring, &b)
                                     : ssdsim__units_parse_size(v->valuestring, &b);
        if (rc != 0)
            return ssdsim__model_bad_value(c, k, path, v, false);
    } else {
        return ssdsim__model_bad_value(c, k, path, v, true);
    }
    if ((double)b < k->min || (double)b > k->max)
        return ssdsim__model_bad_value(c, k, path, v, false);
    if ((k->flags & KF_POW2) && (b & (b - 1)) != 0)
        return ssdsim__model_bad_value(c, k, path, v, false);
    *out = b;
    return 0;
}

const struct choice *ssdsim__model_find_choice(const struct choice *choices, const char *name)
{
    for (const struct choice *ch = choices; ch->name; ch++)
        if (strcmp(ch->name, name) == 0)
            return ch;
    return NULL;
}

/* Check `v` against key `k` and store it into the model. */
static int read_value(struct ctx *c, const struct key_spec *k, const cJSON *v)
{
    char *field = k->offset == NO_FIELD ? NULL : (char *)c->m + k->offset;
    const char *path = k->path;

    switch (k->type) {
    case KEY_STRING:
        if (!cJSON_IsString(v))
            return ssdsim__model_bad_value(c, k, path, v, true);
        return 0;

    case KEY_U32: {
        /* a named value among the key's choices ("unlimited" of nvme.burst): stored as its
         * value, which a number cannot give (it is outside [min, max]) */
        const struct choice *named =
            cJSON_IsString(v) && k->choices ? ssdsim__model_find_choice(k->choices, v->valuestring)
                                            : NULL;
        if (named && !g_ascii_isdigit(named->name[0])) {
            uint32_t u = (uint32_t)named->value;
            memcpy(field, &u, sizeof u);
            return 0;
        }
        if (!cJSON_IsNumber(v))
            return ssdsim__model_bad_value(c, k, path, v, !cJSON_IsString(v) || !k->choices);
        double d = v->valuedouble;
        if (!(d >= k->min && d <= k->max) || d != floor(d))
            return ssdsim__model_bad_value(c, k, path, v, false);
        uint32_t u = (uint32_t)d;
        if (k->choices) {
            bool allowed = false;
            for (const struct choice *ch = k->choices; ch->name; ch++)
                allowed |= (uint32_t)ch->value == u;
            if (!allowed)
                return ssdsim__model_bad_value(c, k, path, v, false);
        }
        memcpy(field, &u, sizeof u);
        return 0;
    }

    case KEY_DOUBLE: {
        if (!cJSON_IsNumber(v))
            return ssdsim__model_bad_value(c, k, path, v, true);
        double d = v->valuedouble;
        if (!(d >= k->min && d <= k->max))
            return ssdsim__model_bad_value(c, k, path, v, false);
        memcpy(field, &d, sizeof d);
        return 0;
    }

    case KEY_SIZE: {
        uint64_t b;
        int rc = ssdsim__model_read_bytes(c, k, path, v, &b);
        if (rc != 0)
            return rc;
        uint32_t u = (uint32_t)b; /* the table's ranges keep every size key below 2^32 */
        memcpy(field, &u, sizeof u);
        return 0;
    }

    case KEY_RATE:
    case KEY_SIZE64: {
        uint64_t b;
        int rc = ssdsim__model_read_bytes(c, k, path, v, &b);
        if (rc != 0)
            return rc;
        memcpy(field, &b, sizeof b);
        return 0;
    }

    case KEY_TIME: {
        uint64_t ns;
        int rc = read_time(c, k, path, v, &ns);
        if (rc != 0)
            return rc;
        memcpy(field, &ns, sizeof ns);
        return 0;
    }

    case KEY_TIME_LIST: {
        /* One entry per page type; flash.cell (above in the table) says how many. */
        uint32_t n = ssdsim__model_cell_page_types(c->m->flash.cell);
        assert(n >= 1 && n <= SSDSIM__MAX_PAGE_TYPES);
        uint64_t ns[SSDSIM__MAX_PAGE_TYPES] = {0};
        if (cJSON_IsArray(v)) {
            int len = cJSON_GetArraySize(v);
            if (len != (int)n)
                return ssdsim__model_error(
                    c, path,
                    "expected %u value%s (one per page type of flash.cell \"%s\"), got "
                    "an array of %d",
                    n, n == 1 ? "" : "s", cell_name((int)c->m->flash.cell), len);
            int i = 0;
            for (const cJSON *e = v->child; e; e = e->next, i++) {
                g_autofree char *epath = g_strdup_printf("%s[%d]", path, i);
                int rc = read_time(c, k, epath, e, &ns[i]);
                if (rc != 0)
                    return rc;
            }
        } else if (cJSON_IsNumber(v) || cJSON_IsString(v)) {
            int rc = read_time(c, k, path, v, &ns[0]);
            if (rc != 0)
                return rc;
            for (uint32_t i = 1; i < n; i++)
                ns[i] = ns[0];
        } else {
            g_autofree char *got = ssdsim__model_describe(v, true);
            return ssdsim__model_error(
                c, path,
                "expected a number in [%g, %g] (microseconds), a time string, "
                "or an array of %u of them (one per page type of flash.cell \"%s\"), "
                "got %s",
                k->min, k->max, n, cell_name((int)c->m->flash.cell), got);
        }
        memcpy(field, ns, sizeof ns);
        return 0;
    }

    case KEY_BOOL: {
        if (!cJSON_IsBool(v))
            return ssdsim__model_bad_value(c, k, path, v, true);
        int b = cJSON_IsTrue(v);
        memcpy(field, &b, sizeof b);
        return 0;
    }

    case KEY_PLUGIN: {
        if (!cJSON_IsString(v))
            return ssdsim__model_bad_value(c, k, path, v, true);
        if (!ssdsim__plugin_find(k->kind, v->valuestring)) {
            const char *closest = NULL;
            g_autofree char *names = ssdsim__plugin_names(k->kind, v->valuestring, &closest);
            if (closest)
                return ssdsim__model_error(c, path, "no %s named \"%s\" (did you mean \"%s\"?)",
                                           ssdsim__plugin_kind_name(k->kind), v->valuestring,
                                           closest);
            return ssdsim__model_error(c, path, "no %s named \"%s\" (registered: %s)",
                                       ssdsim__plugin_kind_name(k->kind), v->valuestring, names);
        }
        snprintf(field, SSDSIM__NAME_MAX, "%s", v->valuestring);
        return 0;
    }

    case KEY_ENUM:
    case KEY_ENUM_NAME: {
        if (!cJSON_IsString(v))
            return ssdsim__model_bad_value(c, k, path, v, true);
        const struct choice *ch = ssdsim__model_find_choice(k->choices, v->valuestring);
        if (!ch)
            return ssdsim__model_bad_value(c, k, path, v, false);
        if (k->type == KEY_ENUM) {
            int value = ch->value;
            memcpy(field, &value, sizeof value);
        } else {
            snprintf(field, SSDSIM__NAME_MAX, "%s", ch->name);
        }
        return 0;
    }
    }
    return 0;
}

/* Key `k` of a model: its value `v` when present, else its default (from the table, or derived
 * from keys above it), or "required key missing". */
int ssdsim__model_read_key(struct ctx *c, const struct key_spec *k, const cJSON *v)
{
    if (v)
        return read_value(c, k, v);
    if (k->flags & KF_REQUIRED)
        return ssdsim__model_error(c, k->path, "required key missing");
    if (k->def) {
        cJSON *dv = cJSON_Parse(k->def);
        if (!dv)
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, k->path, "out of memory");
        int rc = read_value(c, k, dv);
        cJSON_Delete(dv);
        return rc;
    }
    if (k->derive)
        k->derive(c->m);
    return 0;
}

/* Read the table's keys that apply to a model of kind bit `kind` (K_SSD, K_HDD, K_LINK) from
 * `root`: present keys are converted, absent ones take their default; a key of another kind, or
 * one whose condition does not hold, is an error when present. */
int ssdsim__model_build_keys(struct ctx *c, const cJSON *root, unsigned kind)
{
    struct ssdsim_model *m = c->m;
    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        const struct key_spec *k = &ssdsim__model_keys[i];
        unsigned kinds = k->kinds ? k->kinds : K_SSD;
        const cJSON *v = ssdsim__model_lookup(root, k->path);
        if (!(kinds & kind)) {
            if (!v)
                continue;
            return ssdsim__model_error(c, k->path, "%s",
                                       kind == K_HDD
                                           ? "not a key of a hard-disk model (a model with "
                                             "an \"hdd\" section is a hard disk)"
                                       : kind == K_LINK ? "not a key of an uplink"
                                                        : "not a key of a solid-state model");
        }
        if (k->when && !k->when(m)) {
            if (!v)
                continue;
            return ssdsim__model_error(c, k->path, "applies only when %s",
                                       k->when_why ? k->when_why(m) : k->when_text);
        }
        int rc = ssdsim__model_read_key(c, k, v);
        if (rc != 0)
            return rc;
    }
    return 0;
}
