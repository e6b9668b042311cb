/* model_system.c: models of a system of devices.
 *
 * "system": {"member": "file.json", "count": 4, "layout": "raid0", ...} describes an array, a
 * JBOD or a multi-controller card built of one member device model, found beside the system's
 * file. A system has its own small key table (sys_keys), an optional uplink read as the host
 * keys of a device model, and only name, description, system and spec at its top level. This
 * file reads such a model, writes it back as JSON and answers how many devices and volumes it has.
 */
#include "config/model_int.h"

#include <string.h>

/* A system of devices: "system": {"member": "file.json", "count": 4, "layout": "raid0", ...}. */
static const struct choice layout_choices[] = {{"jbod", SSDSIM__LAYOUT_JBOD},
                                               {"raid0", SSDSIM__LAYOUT_RAID0},
                                               {"raid1", SSDSIM__LAYOUT_RAID1},
                                               {"raid5", SSDSIM__LAYOUT_RAID5},
                                               {NULL, 0}};

static bool striped(const struct ssdsim_model *m)
{
    return m->system.layout == SSDSIM__LAYOUT_RAID0 || m->system.layout == SSDSIM__LAYOUT_RAID5;
}

static void default_controllers(struct ssdsim_model *m)
{
    m->system.controllers = m->system.count;
}

static bool has_card_cache(const struct ssdsim_model *m)
{
    return m->system.cache_bytes > 0;
}

/* clang-format off */
static const struct key_spec sys_keys[] = {
    {.path = "system.count", .type = KEY_U32, .offset = FIELD(system.count, uint32_t), .min = 1,
     .max = 64, .flags = KF_REQUIRED, .help = "devices in the system"},
    {.path = "system.layout", .type = KEY_ENUM,
     .offset = FIELD(system.layout, enum ssdsim__layout), .flags = KF_REQUIRED,
     .choices = layout_choices, .help = "jbod, raid0, raid1 or raid5"},
    {.path = "system.stripe", .type = KEY_SIZE, .offset = FIELD(system.stripe, uint32_t),
     .min = 512, .max = 16 << 20, .flags = KF_POW2, .def = "\"128KiB\"", .when = striped,
     .when_text = "system.layout is \"raid0\" or \"raid5\"", .help = "bytes per strip"},
    {.path = "system.raid_us", .type = KEY_TIME, .offset = FIELD(system.raid_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .help = "RAID layer time per host request"},
    {.path = "system.path_us", .type = KEY_TIME, .offset = FIELD(system.path_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .help = "platform path time per request (a chipset hop)"},
    {.path = "system.controllers", .type = KEY_U32,
     .offset = FIELD(system.controllers, uint32_t), .min = 1, .max = 64,
     .derive = default_controllers,
     .help = "controllers the devices are split among (a card's); each controller's devices "
             "share its host link and firmware cores (default: one per device)"},
    {.path = "system.cache", .type = KEY_SIZE64, .offset = FIELD(system.cache_bytes, uint64_t),
     .min = 0, .max = 1e11, .def = "0",
     .help = "the RAID card's write-back cache, bytes (0: none); a write that fits is "
             "acknowledged once it is in the cache"},
    {.path = "system.cache_bbu", .type = KEY_BOOL, .offset = FIELD(system.cache_bbu, int),
     .def = "true", .when = has_card_cache, .when_text = "system.cache > 0",
     .help = "the cache's battery (BBU) is present; without it the card writes through"},
    {.path = "system.cache_high", .type = KEY_DOUBLE, .offset = FIELD(system.cache_high, double),
     .min = 0, .max = 1, .def = "0.5", .when = has_card_cache, .when_text = "system.cache > 0",
     .help = "flushing starts when dirty data exceeds this fraction of the cache"},
    {.path = "system.cache_low", .type = KEY_DOUBLE, .offset = FIELD(system.cache_low, double),
     .min = 0, .max = 1, .def = "0.25", .when = has_card_cache, .when_text = "system.cache > 0",
     .help = "flushing goes on until dirty data is at most this fraction of the cache"},
    {.path = "system.cache_idle_us", .type = KEY_TIME,
     .offset = FIELD(system.cache_idle_ns, uint64_t), .min = 0, .max = 1e9, .def = "100000",
     .when = has_card_cache, .when_text = "system.cache > 0",
     .help = "flush everything once no host request has been in the card for this long "
             "(0: never)"},
    {.path = "system.cache_bw", .type = KEY_RATE,
     .offset = FIELD(system.cache_bytes_per_s, uint64_t), .min = 1e6, .max = 1e12,
     .def = "\"2GB/s\"", .when = has_card_cache, .when_text = "system.cache > 0",
     .help = "rate at which the card copies written data into its cache (one at a time)"},
};
/* clang-format on */

int ssdsim__model_system_build(struct ctx *c, const cJSON *root, const cJSON *sys)
{
    static const char *const top_keys[] = {"name", "description", "caveat", "system", "spec",
                                           NULL};
    static const char *const keys_here[] = {"member",      "count",      "layout",
                                            "stripe",      "raid_us",    "path_us",
                                            "controllers", "uplink",     "cache",
                                            "cache_bbu",   "cache_high", "cache_low",
                                            "cache_idle_us", "cache_bw", NULL};
    struct ssdsim_model *m = c->m;
    for (const cJSON *ch = root->child; ch; ch = ch->next) {
        const char *name = ch->string ? ch->string : "";
        for (const cJSON *prev = root->child; prev != ch; prev = prev->next)
            if (prev->string && !strcmp(prev->string, name))
                return ssdsim__model_error(c, name, "duplicate key");
        bool ok = false;
        for (const char *const *k = top_keys; *k && !ok; k++)
            ok = !strcmp(*k, name);
        if (!ok)
            return ssdsim__model_error(
                c, name,
                "not a key of a system model (it has only name, description, caveat, "
                "system and spec; device sections belong in the member's model)");
        if ((!strcmp(name, "name") || !strcmp(name, "description") || !strcmp(name, "caveat")) &&
            !cJSON_IsString(ch)) {
            g_autofree char *got = ssdsim__model_describe(ch, true);
            return ssdsim__model_error(c, name, "expected a string, got %s", got);
        }
    }
    if (!cJSON_IsObject(sys)) {
        g_autofree char *got = ssdsim__model_describe(sys, true);
        return ssdsim__model_error(c, "system", "expected an object, got %s", got);
    }
    int rc = ssdsim__model_check_names(c, sys, "system", keys_here);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(sys_keys); i++) {
        const struct key_spec *k = &sys_keys[i];
        const cJSON *v = ssdsim__model_lookup(root, k->path);
        if (k->when && !k->when(m)) {
            if (v)
                return ssdsim__model_error(c, k->path, "applies only when %s", k->when_text);
            continue;
        }
        rc = ssdsim__model_read_key(c, k, v);
        if (rc != 0)
            return rc;
    }
    struct ssdsim__system_cfg *sc = &m->system;
    if (sc->layout == SSDSIM__LAYOUT_RAID1 && sc->count < 2)
        return ssdsim__model_error(c, "system.count", "RAID-1 mirrors at least 2 devices, got %u",
                                   sc->count);
    if (sc->layout == SSDSIM__LAYOUT_RAID5 && sc->count < 3)
        return ssdsim__model_error(c, "system.count", "RAID-5 needs at least 3 devices, got %u",
                                   sc->count);
    if (sc->cache_bytes && sc->layout == SSDSIM__LAYOUT_JBOD)
        return ssdsim__model_error(c, "system.cache",
                                   "a write-back cache needs one volume (layout raid0, raid1 or "
                                   "raid5), not jbod");
    if (sc->cache_bytes && sc->cache_low >= sc->cache_high)
        return ssdsim__model_error(c, "system.cache_low",
                                   "expected below system.cache_high (%g), got %g", sc->cache_high,
                                   sc->cache_low);
    if (sc->raid_ns && sc->layout == SSDSIM__LAYOUT_JBOD)
        return ssdsim__model_error(c, "system.raid_us",
                                   "a JBOD has no RAID layer (each device is its own volume): "
                                   "leave it out, or give a request's time on the path in "
                                   "system.path_us");
    if (sc->count % sc->controllers)
        return ssdsim__model_error(c, "system.controllers",
                                   "%u devices cannot be split evenly among %u controllers",
                                   sc->count, sc->controllers);

    /* The uplink: the host keys of a device model, read into a scratch model. */
    const cJSON *up = cJSON_GetObjectItemCaseSensitive(sys, "uplink");
    if (up) {
        if (!cJSON_IsObject(up)) {
            g_autofree char *got = ssdsim__model_describe(up, true);
            return ssdsim__model_error(c, "system.uplink", "expected an object, got %s", got);
        }
        /* A switch or chipset link carries the devices' transfers; the time a request spends on
         * the path besides them is system.path_us, which every device's commands pay. */
        if (cJSON_GetObjectItemCaseSensitive(up, "cmd_overhead_us"))
            return ssdsim__model_error(c, "system.uplink.cmd_overhead_us",
                                       "an uplink adds its transfers only; give a request's time "
                                       "on the path in system.path_us");
        struct ssdsim_model scratch = {0};
        struct ctx c2 = *c;
        c2.m = &scratch;
        c2.remap_from = "host.";
        c2.remap_to = "system.uplink.";
        cJSON *fake = cJSON_CreateObject();
        cJSON *dup = cJSON_Duplicate(up, 1);
        if (!fake || !dup || !cJSON_AddItemToObject(fake, "host", dup)) {
            if (fake && dup && !cJSON_GetObjectItemCaseSensitive(fake, "host"))
                cJSON_Delete(dup);
            cJSON_Delete(fake);
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, NULL, "out of memory");
        }
        rc = ssdsim__model_check_object(&c2, fake, "");
        if (rc == 0)
            rc = ssdsim__model_build_keys(&c2, fake, K_LINK);
        if (rc == 0)
            rc = ssdsim__model_check_link(&c2, &scratch.host.link, "system.uplink.");
        cJSON_Delete(fake);
        if (rc != 0)
            return rc;
        sc->have_uplink = 1;
        sc->uplink = scratch.host.link;
    }

    /* The member: a device model file, found beside this one. */
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(sys, "member");
    if (!mem)
        return ssdsim__model_error(c, "system.member", "required key missing");
    if (!cJSON_IsString(mem) || !mem->valuestring[0]) {
        g_autofree char *got = ssdsim__model_describe(mem, true);
        return ssdsim__model_error(c, "system.member",
                                   "expected the path of a device model file, got %s", got);
    }
    /* The member is shown by the path it has beside the model's (relative to the working
     * directory the model was loaded in, when that was by a relative path), and read, when the
     * model is set again, through the directory found at load (c->dir): a later chdir must
     * not lose it. */
    bool abs = g_path_is_absolute(mem->valuestring);
    g_autofree char *dir = c->base ? g_path_get_dirname(c->base) : g_strdup(".");
    g_autofree char *path =
        abs ? g_strdup(mem->valuestring) : g_build_filename(dir, mem->valuestring, NULL);
    g_autofree char *read =
        abs || !c->dir ? g_strdup(path) : g_build_filename(c->dir, mem->valuestring, NULL);
    bool member_is_system = false;
    rc = ssdsim__model_load_member(&sc->member, &member_is_system, read, c->err);
    if (rc != 0)
        return rc;
    /* refused before it is built: a system naming itself, or one naming it back, would
     * otherwise be loaded again and again */
    if (member_is_system)
        return ssdsim__model_error(c, "system.member",
                                   "\"%s\" is itself a system; a member must be a device model",
                                   mem->valuestring);
    if (strcmp(read, path) != 0) {
        char *shown = strdup(path);
        if (!shown)
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, "system.member",
                                     "out of memory");
        free(sc->member->label);
        sc->member->label = shown;
    }
    if (sc->member->kind == SSDSIM__KIND_SSD && sc->member->zns.zone_size)
        return ssdsim__model_error(c, "system.member",
                                   "\"%s\" is a zoned drive (zns.zone_size); zoned drives are "
                                   "simulated alone, not in a system",
                                   mem->valuestring);
    uint32_t unit = sc->member->kind == SSDSIM__KIND_HDD ? 512 : sc->member->ftl.mapping_unit;
    if (striped(m) && sc->stripe < unit)
        return ssdsim__model_error(
            c, "system.stripe",
            "a strip of %u bytes is smaller than the member's mapping unit (%u)", sc->stripe, unit);
    if (ssdsim_model_logical_bytes(sc->member) < (uint64_t)(striped(m) ? sc->stripe : unit))
        return ssdsim__model_error(c, "system.stripe", "the member holds less than one strip");
    return 0;
}

cJSON *ssdsim__model_system_json(const struct ssdsim_model *m)
{
    cJSON *root = cJSON_CreateObject();
    bool oom = !root;
    for (size_t i = 0; !oom && i < 3; i++) { /* name, description, caveat: the first keys */
        cJSON *v = ssdsim__model_value_json(m, &ssdsim__model_keys[i], &oom);
        if (v && !ssdsim__model_put_path(root, ssdsim__model_keys[i].path, v))
            oom = true;
    }
    /* The member as it was opened (relative to the directory the model was loaded from, or
     * absolute), so that the canonical JSON loads back from a string in that directory too. */
    const char *mem = m->system.member && m->system.member->label ? m->system.member->label : "?";
    cJSON *sys = oom ? NULL : cJSON_AddObjectToObject(root, "system");
    if (!sys || !cJSON_AddStringToObject(sys, "member", mem))
        oom = true;
    for (size_t i = 0; !oom && i < SSDSIM__ARRAY_LEN(sys_keys); i++) {
        if (sys_keys[i].when && !sys_keys[i].when(m))
            continue;
        cJSON *v = ssdsim__model_value_json(m, &sys_keys[i], &oom);
        if (v && !ssdsim__model_put_path(root, sys_keys[i].path, v))
            oom = true;
    }
    if (!oom && m->system.have_uplink) {
        struct ssdsim_model scratch = {0};
        scratch.host.link = m->system.uplink;
        cJSON *up = cJSON_AddObjectToObject(sys, "uplink");
        for (size_t i = 0; up && !oom && i < ssdsim__model_n_keys; i++) {
            if (!ssdsim__model_key_applies(&scratch, &ssdsim__model_keys[i], K_LINK) ||
                !strcmp(ssdsim__model_keys[i].path, "host.cmd_overhead_us"))
                continue; /* not an uplink's key (its transfers only: see the loader) */
            cJSON *v = ssdsim__model_value_json(&scratch, &ssdsim__model_keys[i], &oom);
            if (v && !cJSON_AddItemToObject(up, strchr(ssdsim__model_keys[i].path, '.') + 1, v)) {
                cJSON_Delete(v);
                oom = true;
            }
        }
        oom |= !up;
    }
    if (oom || !ssdsim__model_spec_json(m, root)) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

SSDSIM_API ssdsim_model_kind ssdsim_model_get_kind(const ssdsim_model *model)
{
    return model ? (ssdsim_model_kind)model->kind : SSDSIM_MODEL_SSD;
}

SSDSIM_API ssdsim_model_kind ssdsim_model_get_device_kind(const ssdsim_model *model)
{
    if (model && model->kind == SSDSIM__KIND_SYSTEM && model->system.member)
        return (ssdsim_model_kind)model->system.member->kind;
    return ssdsim_model_get_kind(model);
}

SSDSIM_API uint32_t ssdsim_model_n_devices(const ssdsim_model *model)
{
    return model && model->kind == SSDSIM__KIND_SYSTEM ? model->system.count : 1;
}

SSDSIM_API const ssdsim_model *ssdsim_model_member(const ssdsim_model *model)
{
    return model && model->kind == SSDSIM__KIND_SYSTEM ? model->system.member : NULL;
}

SSDSIM_API uint32_t ssdsim_model_n_volumes(const ssdsim_model *model)
{
    return model && model->kind == SSDSIM__KIND_SYSTEM &&
                   model->system.layout == SSDSIM__LAYOUT_JBOD
               ? model->system.count
               : 1;
}
