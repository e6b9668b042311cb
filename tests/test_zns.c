/* test_zns.c: zoned namespaces (issue 17, item 4) through the public API, against figures
 * derived from the model: generic-slc has 8 x 2 x 2 x 2 = 64 planes of 1024 blocks of 64 pages
 * of 4 KiB, so one block stripe is 64 x 256 KiB = 16 MiB; a 16 MiB zone is one block on every
 * plane and the drive holds 1024 zones. */
#include <check.h>
#include <stdlib.h>

#include "simtest.h"

#define UNIT 4096ull
#define MIB (1024ull * 1024)
#define ZONE (16 * MIB)
#define PLANES 64ull

/* generic-slc's geometry and timing without its FTL section, and `extra` sections. */
static ssdsim_model *load(const char *extra, ssdsim_error *err)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"geometry\": {\"channels\": 8, \"chips_per_channel\": 2, "
             "\"dies_per_chip\": 2, \"planes_per_die\": 2, \"blocks_per_plane\": 1024, "
             "\"pages_per_block\": 64, \"page_size\": \"4KiB\"}, "
             "\"flash\": {\"cell\": \"slc\", \"read_us\": 25, \"program_us\": 250, "
             "\"erase_us\": 2000, \"bus_mts\": 200, \"bus_width\": 8}, "
             "\"controller\": {\"cmd_overhead_us\": 4, \"cores\": 4, \"queue_depth\": 256}, "
             "\"host\": {\"link_bw\": \"2000MB/s\", \"cmd_overhead_us\": 2}%s%s}",
             extra ? ", " : "", extra ? extra : "");
    ssdsim_model *m = NULL;
    if (ssdsim_model_load_string(&m, json, "zoned.json", err) != 0)
        return NULL;
    return m;
}

static ssdsim_model *zoned(const char *k1, const char *k2)
{
    ssdsim_error err;
    ssdsim_model *m = load("\"ftl\": {\"type\": \"zoned\"}", &err);
    ck_assert_msg(m != NULL, "%s", err.message);
    const char *kv[] = {k1, k2};
    for (int i = 0; i < 2; i++) {
        char key[64];
        const char *eq = strchr(kv[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv[i]), kv[i]);
        ck_assert_msg(ssdsim_model_set(m, key, eq + 1, &err) == 0, "%s", err.message);
    }
    return m;
}

struct seen {
    uint16_t status[256];
    uint64_t offset[256];
    int op[256];
};

static void on_done(const ssdsim_completion *c, void *ud)
{
    struct seen *s = ud;
    ck_assert_uint_lt(c->id, 256);
    s->status[c->id] = c->status;
    s->offset[c->id] = c->offset;
    s->op[c->id] = (int)c->op;
}

/* Submit one request now and run it to completion; its status. */
static uint16_t one(ssdsim *sim, struct seen *s, uint64_t id, enum ssdsim_op op, uint64_t off,
                    uint64_t len)
{
    ck_assert_int_eq(ssdsim_submit(sim, op, off, len, ssdsim_now(sim), id, on_done, s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    return s->status[id];
}

static ssdsim_zone zone(ssdsim *sim, uint64_t i)
{
    ssdsim_zone z;
    size_t n = 0;
    ck_assert_int_eq(ssdsim_report_zones(sim, i, &z, 1, &n), 0);
    ck_assert_uint_eq(n, 1);
    return z;
}

START_TEST(test_zns_geometry)
{
    ssdsim_model *m = zoned("zns.zone_capacity=8MiB", "zns.max_open=4");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 1024 * ZONE);
    int64_t zs = 0;
    ck_assert_int_eq(ssdsim_model_get_int(m, "zns.zone_size", &zs, NULL), 0);
    ck_assert_int_eq(zs, (int64_t)ZONE); /* one block stripe by default */
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.zones, 1024);
    ssdsim_zone z = zone(sim, 1023);
    ck_assert_uint_eq(z.start, 1023 * ZONE);
    ck_assert_uint_eq(z.size, ZONE);
    ck_assert_uint_eq(z.capacity, 8 * MIB);
    ck_assert_uint_eq(z.write_pointer, z.start);
    ck_assert_int_eq(z.state, SSDSIM_ZONE_EMPTY);
    ssdsim_zone many[4];
    size_t n = 9;
    ck_assert_int_eq(ssdsim_report_zones(sim, 1022, many, 4, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ssdsim_report_zones(sim, 1024, many, 4, &n), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Wear of zones whose capacity is below their size: a zone of 16 MiB (a stripe of whole
 * blocks) takes 8 MiB, and its reset erases all 16 MiB of slots, half of them never written. Two
 * full zones written and reset: 4,096 pages programmed for 4,096 written (WAF 1), and the flash
 * worn by 2 x 16 MiB: wear factor 2, half the endurance WAF alone projects. */
START_TEST(test_zns_capacity_wears_whole_zone)
{
    ssdsim_model *m = zoned("zns.zone_capacity=8MiB", "zns.max_open=4");
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    for (uint64_t z = 0; z < 2; z++) {
        for (uint64_t k = 0; k < 8; k++)
            ck_assert_uint_eq(one(sim, &s, 1, SSDSIM_OP_WRITE, z * ZONE + k * MIB, MIB), 0);
        ck_assert_uint_eq(one(sim, &s, 2, SSDSIM_OP_ZONE_RESET, z * ZONE, 0), 0);
    }
    ck_assert_int_eq(ssdsim_idle(sim, 100000000ull), 0); /* the last reset's erases end */
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 4096);
    ck_assert_double_eq_tol(d.waf, 1.0, 1e-12);
    ck_assert_double_eq_tol(d.wear_factor, 2.0, 1e-12);
    ck_assert_uint_eq(d.blocks_erased * 64 * UNIT, 2 * ZONE);
    ck_assert_double_eq_tol(d.tbw_mean_bytes, d.rated_pe_cycles * (double)d.physical_bytes / 2,
                            d.tbw_mean_bytes * 1e-12);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* Zones of two block stripes (32 MiB) holding 16 MiB: their units fill the first block of
     * each plane's pair (unit off on page off / 64) and never touch the second, which no reset
     * erases either: no slot is wasted, wear factor 1, 64 erases a reset. */
    m = zoned("zns.zone_size=32MiB", "zns.zone_capacity=16MiB");
    sim = st_sim(m, 1);
    for (uint64_t z = 0; z < 2; z++) {
        for (uint64_t k = 0; k < 16; k++)
            ck_assert_uint_eq(one(sim, &s, 1, SSDSIM_OP_WRITE, z * 2 * ZONE + k * MIB, MIB), 0);
        ck_assert_uint_eq(one(sim, &s, 2, SSDSIM_OP_ZONE_RESET, z * 2 * ZONE, 0), 0);
    }
    ck_assert_int_eq(ssdsim_idle(sim, 100000000ull), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_double_eq_tol(d.wear_factor, 1.0, 1e-12);
    ck_assert_uint_eq(d.blocks_erased, 128);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The sequential-write rule: only a write at the write pointer is taken. */
START_TEST(test_zns_write_not_at_wp)
{
    ssdsim_model *m = zoned("zns.max_open=0", "zns.max_active=0");
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ck_assert_uint_eq(one(sim, &s, 1, SSDSIM_OP_WRITE, 0, UNIT), 0);
    ck_assert_uint_eq(one(sim, &s, 2, SSDSIM_OP_WRITE, 2 * UNIT, UNIT), SSDSIM_ZS_INVALID_WRITE);
    ck_assert_uint_eq(one(sim, &s, 3, SSDSIM_OP_WRITE, 0, UNIT), SSDSIM_ZS_INVALID_WRITE);
    ck_assert_uint_eq(one(sim, &s, 4, SSDSIM_OP_WRITE, ZONE + UNIT, UNIT), SSDSIM_ZS_INVALID_WRITE);
    ck_assert_uint_eq(one(sim, &s, 5, SSDSIM_OP_WRITE, UNIT, 2 * UNIT), 0);
    ssdsim_zone z = zone(sim, 0);
    ck_assert_uint_eq(z.write_pointer, 3 * UNIT);
    ck_assert_int_eq(z.state, SSDSIM_ZONE_IMPLICIT_OPEN);
    ck_assert_int_eq(zone(sim, 1).state, SSDSIM_ZONE_EMPTY);
    /* refused writes moved no data and are not in the statistics */
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_io(sim, 0, &io), 0);
    ck_assert_uint_eq(io.host_pages_written, 3);
    ssdsim_op_stats w;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_uint_eq(w.count, 2);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.errors, 3);
    ck_assert_uint_eq(st.open, 1);
    /* misaligned: Invalid Field; past the capacity: Zone Boundary Error; a trim: Invalid Field */
    ck_assert_uint_eq(one(sim, &s, 6, SSDSIM_OP_WRITE, 3 * UNIT, 100), SSDSIM_ZS_INVALID_FIELD);
    ck_assert_uint_eq(one(sim, &s, 7, SSDSIM_OP_WRITE, 3 * UNIT, ZONE), SSDSIM_ZS_BOUNDARY_ERROR);
    ck_assert_uint_eq(one(sim, &s, 8, SSDSIM_OP_TRIM, 0, UNIT), SSDSIM_ZS_INVALID_FIELD);
    /* a full zone: Zone Is Full */
    ck_assert_uint_eq(one(sim, &s, 9, SSDSIM_OP_ZONE_FINISH, 0, 0), 0);
    ck_assert_int_eq(zone(sim, 0).state, SSDSIM_ZONE_FULL);
    ck_assert_uint_eq(zone(sim, 0).write_pointer, ZONE);
    ck_assert_uint_eq(one(sim, &s, 10, SSDSIM_OP_ZONE_APPEND, 0, UNIT), SSDSIM_ZS_ZONE_FULL);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Zone append returns where it wrote: the write pointer it found. */
START_TEST(test_zns_append_returns_address)
{
    ssdsim_model *m = zoned("zns.max_open=0", "zns.max_active=0");
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    uint64_t z5 = 5 * ZONE;
    /* three appends submitted at once: placed in arrival order */
    for (uint64_t k = 0; k < 3; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_ZONE_APPEND, z5, 2 * UNIT, 0, 10 + k,
                                       on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    for (uint64_t k = 0; k < 3; k++) {
        ck_assert_uint_eq(s.status[10 + k], 0);
        ck_assert_uint_eq(s.offset[10 + k], z5 + k * 2 * UNIT);
        ck_assert_int_eq(s.op[10 + k], SSDSIM_OP_ZONE_APPEND);
    }
    ck_assert_uint_eq(zone(sim, 5).write_pointer, z5 + 6 * UNIT);
    /* an append names the zone's first byte */
    ck_assert_uint_eq(one(sim, &s, 20, SSDSIM_OP_ZONE_APPEND, z5 + UNIT, UNIT),
                      SSDSIM_ZS_INVALID_FIELD);
    /* the data is where the append said: reading it takes the flash */
    ck_assert_uint_eq(one(sim, &s, 21, SSDSIM_OP_READ, z5 + 4 * UNIT, 2 * UNIT), 0);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.appends, 3);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Device WAF exactly 1 with resets: 8 zones filled, reset and filled again, three rounds.
 * Every host page is programmed once and nothing else; each reset of a full zone erases its
 * 64 blocks (one per plane). */
START_TEST(test_zns_waf_one_with_resets)
{
    ssdsim_model *m = zoned("zns.max_open=8", "zns.max_active=8");
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    const uint64_t zones = 8, rounds = 3, bs = 256 * 1024;
    uint64_t id = 0;
    for (uint64_t r = 0; r < rounds; r++) {
        for (uint64_t z = 0; z < zones; z++)
            for (uint64_t off = 0; off < ZONE; off += bs)
                ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, z * ZONE + off, bs,
                                               ssdsim_now(sim), id++ % 200, on_done, &s), 0);
        ck_assert_int_eq(ssdsim_drain(sim), 0);
        for (uint64_t k = 0; k < 200; k++)
            ck_assert_uint_eq(s.status[k], 0);
        for (uint64_t z = 0; z < zones; z++) {
            ck_assert_int_eq(zone(sim, z).state, SSDSIM_ZONE_FULL);
            ck_assert_uint_eq(one(sim, &s, 250, SSDSIM_OP_ZONE_RESET, z * ZONE, 0), 0);
            ck_assert_int_eq(zone(sim, z).state, SSDSIM_ZONE_EMPTY);
        }
    }
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 100000000ull), 0);
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_io(sim, 0, &io), 0);
    uint64_t pages = rounds * zones * ZONE / UNIT;
    ck_assert_uint_eq(io.host_pages_written, pages);
    ck_assert_uint_eq(io.flash_pages_programmed, pages);
    ck_assert_uint_eq(io.gc_pages_copied, 0);
    ck_assert_uint_eq(io.blocks_erased, rounds * zones * PLANES);
    ck_assert(io.waf == 1.0);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.resets, rounds * zones);
    ck_assert_uint_eq(st.active, 0);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* zns.max_open 2: explicitly open zones hold their place (Too Many Open Zones); implicitly open
 * ones are closed for room, oldest first. zns.max_active 3 counts closed zones too. */
START_TEST(test_zns_open_limit)
{
    ssdsim_model *m = zoned("zns.max_open=2", "zns.max_active=3");
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ck_assert_uint_eq(one(sim, &s, 1, SSDSIM_OP_ZONE_OPEN, 0, 0), 0);
    ck_assert_uint_eq(one(sim, &s, 2, SSDSIM_OP_ZONE_OPEN, ZONE, 0), 0);
    ck_assert_int_eq(zone(sim, 1).state, SSDSIM_ZONE_EXPLICIT_OPEN);
    ck_assert_uint_eq(one(sim, &s, 3, SSDSIM_OP_WRITE, 2 * ZONE, UNIT), SSDSIM_ZS_TOO_MANY_OPEN);
    ck_assert_uint_eq(one(sim, &s, 4, SSDSIM_OP_ZONE_OPEN, 2 * ZONE, 0), SSDSIM_ZS_TOO_MANY_OPEN);
    ck_assert_int_eq(zone(sim, 2).state, SSDSIM_ZONE_EMPTY);
    /* close one: zone 2 opens implicitly on its first write */
    ck_assert_uint_eq(one(sim, &s, 5, SSDSIM_OP_WRITE, ZONE, UNIT), 0);
    ck_assert_uint_eq(one(sim, &s, 6, SSDSIM_OP_ZONE_CLOSE, ZONE, 0), 0);
    ck_assert_int_eq(zone(sim, 1).state, SSDSIM_ZONE_CLOSED);
    ck_assert_uint_eq(one(sim, &s, 7, SSDSIM_OP_WRITE, 2 * ZONE, UNIT), 0);
    ck_assert_int_eq(zone(sim, 2).state, SSDSIM_ZONE_IMPLICIT_OPEN);
    /* three active (0 open, 1 closed, 2 open): a fourth zone cannot become active */
    ck_assert_uint_eq(one(sim, &s, 8, SSDSIM_OP_WRITE, 3 * ZONE, UNIT), SSDSIM_ZS_TOO_MANY_ACTIVE);
    /* writing closed zone 1 again: the implicitly open zone 2 is closed for room */
    ck_assert_uint_eq(one(sim, &s, 9, SSDSIM_OP_WRITE, ZONE + UNIT, UNIT), 0);
    ck_assert_int_eq(zone(sim, 1).state, SSDSIM_ZONE_IMPLICIT_OPEN);
    ck_assert_int_eq(zone(sim, 2).state, SSDSIM_ZONE_CLOSED);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.open, 2);
    ck_assert_uint_eq(st.active, 3);
    ck_assert_uint_eq(st.implicit_closes, 1);
    /* invalid transitions: closing an empty zone, opening a full one */
    ck_assert_uint_eq(one(sim, &s, 10, SSDSIM_OP_ZONE_CLOSE, 9 * ZONE, 0),
                      SSDSIM_ZS_INVALID_TRANSITION);
    ck_assert_uint_eq(one(sim, &s, 11, SSDSIM_OP_ZONE_FINISH, 2 * ZONE, 0), 0);
    ck_assert_uint_eq(one(sim, &s, 12, SSDSIM_OP_ZONE_OPEN, 2 * ZONE, 0),
                      SSDSIM_ZS_INVALID_TRANSITION);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST


/* Bad input: one message naming the key. */
START_TEST(test_zns_bad_input)
{
    static const struct {
        const char *json, *key;
    } cases[] = {
        {"\"zns\": {\"zone_capacity\": \"8MiB\"}", "zns.zone_capacity"},
        {"\"zns\": {\"max_open\": 4}", "zns.max_open"},
        {"\"zns\": {\"zone_size\": \"16MiB\"}", "zns.zone_size"},
        {"\"ftl\": {\"type\": \"zoned\"}, \"zns\": {\"zone_size\": \"8MiB\"}", "zns.zone_size"},
        {"\"ftl\": {\"type\": \"zoned\"}, \"zns\": {\"zone_size\": \"32MiB\", "
         "\"zone_capacity\": \"48MiB\"}",
         "zns.zone_capacity"},
        {"\"ftl\": {\"type\": \"zoned\"}, \"zns\": {\"max_open\": 9, \"max_active\": 8}",
         "zns.max_open"},
        {"\"ftl\": {\"type\": \"zoned\", \"mapping_unit\": \"8KiB\"}", "ftl.mapping_unit"},
        {"\"ftl\": {\"type\": \"zoned\"}, \"zns\": {\"zone_size\": \"4GiB\"}", "zns.zone_size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ssdsim_error err;
        ck_assert_ptr_null(load(cases[i].json, &err));
        ck_assert_msg(strstr(err.message, cases[i].key) != NULL, "case %zu: %s", i, err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
    }
    /* a random workload not written for zones stops at its first write off a write pointer,
     * named by its place in the job (the first write goes to a zone's start only by chance:
     * offset 0 of 64 MiB of 4 KiB slots; this seed's first is elsewhere, so it is request 1) */
    {
        ssdsim_model *zm = zoned("zns.max_open=0", "zns.max_active=0");
        ssdsim *zs = st_sim(zm, 1);
        ssdsim_workload *wl = st_workload(
            "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"size\": \"64m\", \"number_ios\": 8}");
        ck_assert_int_eq(ssdsim_run(zs, wl, NULL), SSDSIM_EINVAL);
        ck_assert_msg(strstr(ssdsim_errmsg(zs), ": request 1: write of 4096 bytes at offset ") &&
                          strstr(ssdsim_errmsg(zs), "refused by the zoned drive"),
                      "%s", ssdsim_errmsg(zs));
        ssdsim_workload_free(wl);
        ssdsim_free(zs);
        ssdsim_model_free(zm);
    }
    /* zone commands on a conventional drive */
    ssdsim_model *m = st_model("generic-slc", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_ZONE_RESET, 0, 0, 0, 1, NULL, NULL),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zns.zone_size"));
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_ZONE_APPEND, 0, UNIT, 0, 1, NULL, NULL),
                     SSDSIM_EINVAL);
    ssdsim_zone z;
    size_t n;
    ck_assert_int_eq(ssdsim_report_zones(sim, 0, &z, 1, &n), SSDSIM_EINVAL);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    /* a zone command with a length, or not at a zone's start */
    m = zoned("zns.max_open=0", "zns.max_active=0");
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_ZONE_RESET, 0, UNIT, 0, 1, NULL, NULL),
                     SSDSIM_EINVAL);
    struct seen s = {0};
    ck_assert_uint_eq(one(sim, &s, 1, SSDSIM_OP_ZONE_RESET, UNIT, 0), SSDSIM_ZS_INVALID_FIELD);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* fio's zonemode=zbd: random 64 KiB writes over 8 zones, three times their capacity, at most 4
 * zones written at once. Every write lands at a write pointer (none refused), full zones are
 * reset before they are written again, and the device programs exactly the host's pages: WAF
 * 1, every erase one of the 64 blocks of a reset zone. */
START_TEST(test_zns_fio_zbd)
{
    ssdsim_model *m = zoned("zns.max_open=4", "zns.max_active=6");
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\": \"randwrite\", \"bs\": \"64k\", \"size\": \"128m\", "
                "\"number_ios\": 6144, \"iodepth\": 8, \"zonemode\": \"zbd\", "
                "\"zonesize\": \"16m\", \"max_open_zones\": \"4\"}",
           NULL);
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_io(sim, 0, &io), 0);
    ck_assert_uint_eq(io.host_pages_written, 6144 * 16);
    ck_assert_uint_eq(io.flash_pages_programmed, 6144 * 16);
    ck_assert(io.waf == 1.0);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.errors, 0);
    ck_assert_uint_ge(st.resets, 24 - 8);
    ck_assert_uint_eq(io.blocks_erased, st.resets * PLANES);
    ck_assert_uint_le(st.active, 4);
    /* every zone beyond the job's region untouched */
    ck_assert_int_eq(zone(sim, 8).state, SSDSIM_ZONE_EMPTY);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* fio's zonemode=zbd on zones whose capacity (8 MiB) is below their size (16 MiB): a sequential
 * job that reaches a zone's capacity jumps to the zone's end (fio's zbd.c, "Jump from zone
 * capacity limit to zone end"), so 24 MiB of 1 MiB writes fill zones 0, 1 and 2 with no reset;
 * and a job bounded by its size writes the size's zones up to their capacity (4 zones: 32 MiB),
 * where both used to write into a full zone's unwritable rest and reset it. */
START_TEST(test_zns_fio_zbd_capacity_jump)
{
    for (int bounded = 0; bounded < 2; bounded++) {
        ssdsim_model *m = zoned("zns.zone_capacity=8MiB", "zns.max_open=4");
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, bounded ? "{\"rw\": \"write\", \"bs\": \"1m\", \"size\": \"64m\", "
                              "\"iodepth\": 2, \"zonemode\": \"zbd\"}"
                            : "{\"rw\": \"write\", \"bs\": \"1m\", \"io_size\": \"24m\", "
                              "\"iodepth\": 2, \"zonemode\": \"zbd\"}",
               NULL);
        int full = bounded ? 4 : 3;
        for (int i = 0; i < 6; i++)
            ck_assert_msg(zone(sim, (uint64_t)i).state ==
                              (i < full ? SSDSIM_ZONE_FULL : SSDSIM_ZONE_EMPTY),
                          "zone %d: state %d", i, (int)zone(sim, (uint64_t)i).state);
        ssdsim_zns_stats st;
        ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
        ck_assert_uint_eq(st.resets, 0);
        ck_assert_uint_eq(st.errors, 0);
        ssdsim_op_stats w;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        ck_assert_uint_eq(w.bytes, (uint64_t)full * 8 * MIB);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* fio's zoneskip with zonemode=zbd (fio's zbd.c): a sequential job writes one zone, then skips
 * zoneskip bytes (two zones) and goes on, back to the job's offset past the end of its region.
 * Over 16 zones that is zones 0, 3, 6, 9, 12, 15; 104 writes of 1 MiB are those 6 zones (96
 * MiB) and half of zone 0 again (reset first, as fio resets a full zone it writes). */
START_TEST(test_zns_fio_zoneskip)
{
    ssdsim_model *m = zoned("zns.max_open=8", "zns.max_active=8");
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\": \"write\", \"bs\": \"1m\", \"size\": \"256m\", "
                "\"number_ios\": 104, \"iodepth\": 1, \"zonemode\": \"zbd\", "
                "\"zoneskip\": \"32m\", \"max_open_zones\": \"4\"}",
           NULL);
    for (uint64_t i = 0; i < 17; i++) {
        ssdsim_zone z = zone(sim, i);
        if (i == 0) {
            ck_assert_uint_eq(z.write_pointer, 8 * MIB);
        } else if (i % 3 == 0 && i < 16) {
            ck_assert_msg(z.state == SSDSIM_ZONE_FULL, "zone %d not full", (int)i);
        } else {
            ck_assert_msg(z.state == SSDSIM_ZONE_EMPTY, "zone %d written", (int)i);
        }
    }
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.resets, 1);
    ck_assert_uint_eq(st.errors, 0);
    ssdsim_free(sim);
    /* not a multiple of the zone size, or without zonemode=zbd: one line */
    const char *bad[] = {"{\"rw\": \"write\", \"size\": \"64m\", \"zonemode\": \"zbd\", "
                         "\"zoneskip\": \"8m\"}",
                         "{\"rw\": \"write\", \"size\": \"64m\", \"zoneskip\": \"16m\"}"};
    for (int k = 0; k < 2; k++) {
        sim = st_sim(m, 1);
        ssdsim_workload *wl = st_workload(bad[k]);
        ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
        ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zoneskip"));
        ck_assert_ptr_null(strchr(ssdsim_errmsg(sim), '\n'));
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
    ssdsim_model_free(m);
}
END_TEST

/* Workloads not written for zones: one line, naming what to use; zone options without zones. */
START_TEST(test_zns_fio_refused)
{
    ssdsim_model *m = zoned("zns.max_open=4", "zns.max_active=6");
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = st_workload("{\"rw\": \"randwrite\", \"size\": \"16m\"}");
    ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "Zone Invalid Write"));
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zonemode=zbd"));
    ck_assert_ptr_null(strchr(ssdsim_errmsg(sim), '\n'));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    wl = st_workload("{\"rw\": \"randwrite\", \"size\": \"16m\", \"zonemode\": \"zbd\", "
                     "\"zonesize\": \"32m\"}");
    sim = st_sim(m, 1);
    ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zonesize"));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    m = st_model("generic-slc", NULL);
    sim = st_sim(m, 1);
    wl = st_workload("{\"rw\": \"randwrite\", \"size\": \"16m\", \"zonemode\": \"zbd\"}");
    ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zonemode=zbd"));
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zns.zone_size"));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    sim = st_sim(m, 1);
    wl = st_workload("{\"rw\": \"randwrite\", \"size\": \"16m\", \"max_open_zones\": \"4\"}");
    ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "max_open_zones"));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A sequential fill writes every zone in order (through the zone rules: never fast-forwarded):
 * every zone full, every page programmed once. With a zone capacity below the zone size it is
 * refused with one line. */
START_TEST(test_zns_precondition)
{
    ssdsim_model *m = zoned("zns.max_open=0", "zns.max_active=0");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ck_assert_int_eq(zone(sim, 0).state, SSDSIM_ZONE_FULL);
    ck_assert_int_eq(zone(sim, 1023).state, SSDSIM_ZONE_FULL);
    ssdsim_zns_stats st;
    ck_assert_int_eq(ssdsim_get_zns_stats(sim, &st), 0);
    ck_assert_uint_eq(st.errors, 0);
    ck_assert_uint_eq(st.active, 0);
    st_check(sim);
    ssdsim_free(sim);
    ck_assert_int_eq(ssdsim_model_set(m, "zns.zone_capacity", "8MiB", NULL), 0);
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "zns.zone_capacity"));
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zns");
    TCase *tc = tcase_create("zns");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_zns_geometry);
    tcase_add_test(tc, test_zns_write_not_at_wp);
    tcase_add_test(tc, test_zns_capacity_wears_whole_zone);
    tcase_add_test(tc, test_zns_append_returns_address);
    tcase_add_test(tc, test_zns_waf_one_with_resets);
    tcase_add_test(tc, test_zns_open_limit);
    tcase_add_test(tc, test_zns_bad_input);
    tcase_add_test(tc, test_zns_fio_zbd);
    tcase_add_test(tc, test_zns_fio_zbd_capacity_jump);
    tcase_add_test(tc, test_zns_fio_zoneskip);
    tcase_add_test(tc, test_zns_fio_refused);
    tcase_add_test(tc, test_zns_precondition);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
