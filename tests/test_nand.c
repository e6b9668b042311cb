/* test_nand.c: the NAND operations of a die (libssdsim/hw/hw.c), driven op by op on one die
 * with an engine of its own: the latency of each operation as the sum of its parts (command and
 * address cycles, transfers at the bus rate, tR / tPROG / tBERS, tDBSY, tCBSY, tRCBSY),
 * multi-plane and cache operations raising the die's throughput by the factor derived by hand,
 * a read during a program waiting only the suspend latency, copyback moving no data over the
 * channel, and the model refusing impossible combinations with one line naming the key.
 *
 * Every expected time is derived in the comments from the model below, never from the code:
 * one channel, one die of 2 planes (64 blocks of 32 pages each, 4 KiB pages), SLC with
 * tR 40 us, tPROG 300 us, tBERS 2 ms, a bus of 100 MT/s x 8 bits (4096 B take
 * 4096 x 8000 / 800 = 40,960 ns).
 */
#include "common.h"
#include "config/model.h"
#include "engine/engine.h"
#include "ftl/page.h"
#include "hw/hw.h"
#include "sim.h"

#include "simtest.h"
#include "ssdsim/sys/ftl.h"

enum {
    XFER = 40960, /* one 4 KiB page on the bus, ns */
    T_R = 40000,
    T_PROG = 300000,
    T_BERS = 2000000,
    PPB = 32,     /* pages per block */
    BPP = 64,     /* blocks per plane */
    PLANE1 = BPP, /* first block of plane 1 */
    MAX_OPS = 64,
};

static ssdsim_model *model(const char *extra1, const char *extra2, const char *extra3,
                           const char *extra4)
{
    return st_model(
        "generic-slc", "geometry.channels=1", "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1", "geometry.planes_per_die=2", "geometry.blocks_per_plane=64",
        "geometry.pages_per_block=32", "geometry.page_size=4096", "flash.read_us=40",
        "flash.program_us=300", "flash.erase_us=2000", "flash.bus_mts=100", "flash.bus_width=8",
        extra1 ? extra1 : "flash.bus_width=8", extra2 ? extra2 : "flash.bus_width=8",
        extra3 ? extra3 : "flash.bus_width=8", extra4 ? extra4 : "flash.bus_width=8", NULL);
}

/* A die with its engine; completion times by cookie. */
struct rig {
    ssdsim_model *m;
    struct ssdsim__engine e;
    struct ssdsim__hw hw;
    uint64_t done[MAX_OPS];
    /* copyback: when the op with cookie cb_read completes, program cb_dst (FOR_GC) */
    int cb_read;
    uint32_t cb_dst;
};

static uint32_t submit(struct rig *r, int kind, uint32_t addr, uint32_t bytes, int purpose,
                       int cookie);

static void on_done(void *ctx, uint32_t op)
{
    struct rig *r = ctx;
    struct ssdsim__flash_op *o = ssdsim__hw_op(&r->hw, op);
    int ck = (int)o->cookie;
    r->done[ck] = ssdsim__engine_now(&r->e);
    ssdsim__hw_op_free(&r->hw, op);
    if (ck == r->cb_read)
        submit(r, SSDSIM__FLASH_PROGRAM, r->cb_dst, 4096, SSDSIM_FOR_GC, ck + 1);
}

static void rig_init(struct rig *r, ssdsim_model *m)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->cb_read = -1;
    ck_assert_int_eq(ssdsim__engine_init(&r->e, 64), 0);
    ck_assert_int_eq(ssdsim__hw_init(&r->hw, m, &r->e, on_done, r), 0);
}

static void rig_fini(struct rig *r)
{
    ssdsim__hw_fini(&r->hw);
    ssdsim__engine_fini(&r->e);
    ssdsim_model_free(r->m);
}

static uint32_t submit(struct rig *r, int kind, uint32_t addr, uint32_t bytes, int purpose,
                       int cookie)
{
    uint32_t i = ssdsim__hw_op_alloc(&r->hw);
    ck_assert(i != SSDSIM__NONE);
    struct ssdsim__flash_op *o = ssdsim__hw_op(&r->hw, i);
    o->kind = (uint8_t)kind;
    o->cls = purpose == SSDSIM_FOR_HOST && kind == SSDSIM__FLASH_READ ? SSDSIM__CLASS_READ
                                                                      : SSDSIM__CLASS_WRITE;
    o->purpose = (uint8_t)purpose;
    o->addr = addr;
    o->bytes = bytes;
    o->cookie = (uint64_t)cookie;
    ssdsim__hw_submit(&r->hw, i);
    return i;
}

static uint32_t ppn(uint32_t block, uint32_t page)
{
    return block * PPB + page;
}

static void run(struct rig *r)
{
    ck_assert_int_eq(ssdsim__engine_run(&r->e, 0), 0);
}

/* ------------------------------------------------------------------ single operations */

START_TEST(test_nand_single_ops_are_sums_of_parts)
{
    /* Command cycles of 10 ns: read 7 cycles (00h, 5 address, 30h) + tR + data out
     * = 70 + 40,000 + 40,960 = 81,030 ns; program 7 cycles + data in + tPROG
     * = 70 + 40,960 + 300,000 = 341,030 ns; erase 5 cycles (60h, 3 address, D0h) + tBERS
     * = 50 + 2,000,000 = 2,000,050 ns. One after the other on the idle die. */
    struct rig r;
    rig_init(&r, model("flash.cmd_cycle_us=0.01", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 341030);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    run(&r);
    ck_assert_uint_eq(r.done[1] - r.done[0], 81030);
    submit(&r, SSDSIM__FLASH_ERASE, 0, 0, SSDSIM_FOR_GC, 2);
    run(&r);
    ck_assert_uint_eq(r.done[2] - r.done[1], 2000050);
    /* Bus busy: 70 + 40,960 (program) + 70 + 40,960 (read) + 50 (erase) = 82,110 ns. */
    ck_assert_uint_eq(r.hw.bus_busy_ns, 82110);
    rig_fini(&r);

    /* Without the key nothing but the transfers is on the bus, as before the key existed:
     * program 40,960 + 300,000; read 40,000 + 40,960. */
    rig_init(&r, model(NULL, NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 340960);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    run(&r);
    ck_assert_uint_eq(r.done[1] - r.done[0], 80960);
    rig_fini(&r);
}
END_TEST

/* ------------------------------------------------------------------ multi-plane */

START_TEST(test_nand_multiplane_program_read_erase)
{
    /* Two programs at page 0 of block 0 (plane 0) and of block 64 (plane 1), queued behind an
     * erase of block 5 (plane 0; tBERS 2 ms, no command cycles here), run as one 2-plane
     * program: data in 40,960, tDBSY 500, data in 40,960, tPROG 300,000 = 382,420 ns after the
     * erase, both at 2,382,420. */
    struct rig r;
    rig_init(&r, model("flash.multiplane=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1, 0), 4096, SSDSIM_FOR_HOST, 2);
    run(&r);
    ck_assert_uint_eq(r.done[0], 2000000);
    ck_assert_uint_eq(r.done[1], 2382420);
    ck_assert_uint_eq(r.done[2], 2382420);
    ck_assert_uint_eq(r.hw.n_multiplane, 1);

    /* Reads of both pages, queued behind an erase of block 6: 2-plane read, command cycles 0:
     * tDBSY 500 + tR 40,000, then each plane's page out in turn (40,960 each): plane 0's at
     * +81,460, plane 1's at +122,420 after the erase ends. */
    uint64_t t0 = r.done[2];
    submit(&r, SSDSIM__FLASH_ERASE, 6, 0, SSDSIM_FOR_GC, 3);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_GC, 4);
    submit(&r, SSDSIM__FLASH_READ, ppn(PLANE1, 0), 4096, SSDSIM_FOR_GC, 5);
    run(&r);
    ck_assert_uint_eq(r.done[3], t0 + 2000000);
    ck_assert_uint_eq(r.done[4], r.done[3] + 81460);
    ck_assert_uint_eq(r.done[5], r.done[3] + 122420);

    /* Two erases on the two planes: tDBSY 500 + tBERS 2,000,000, together. */
    uint64_t t1 = r.done[5];
    submit(&r, SSDSIM__FLASH_ERASE, 7, 0, SSDSIM_FOR_GC, 6);
    submit(&r, SSDSIM__FLASH_ERASE, 8, 0, SSDSIM_FOR_GC, 7);
    submit(&r, SSDSIM__FLASH_ERASE, PLANE1 + 9, 0, SSDSIM_FOR_GC, 8);
    run(&r);
    ck_assert_uint_eq(r.done[6], t1 + 2000000);
    ck_assert_uint_eq(r.done[7], t1 + 4000500);
    ck_assert_uint_eq(r.done[8], t1 + 4000500);
    /* program, read and erase pairs: 3 multi-plane operations of 2 planes each */
    ck_assert_uint_eq(r.hw.n_multiplane, 3);
    ck_assert_uint_eq(r.hw.n_multiplane_planes, 3 * 2);
    rig_fini(&r);
}
END_TEST

/* 4 KiB units on 16 KiB pages (8 pages a block: the same 32 slots a block), multi-plane on:
 * eight reads queued behind an erase of block 5 (2 ms), the four units of page 0 of block 0
 * (plane 0), then the four of page 0 of block 64 (plane 1), as a sequential stream queues them.
 * Times below are after the erase. The first of each plane run as
 * one 2-plane read: tDBSY 500 + tR 40,000, and each plane's register keeps its page, so the
 * other six units are read out of the registers without tR: 8 units out in turn (40,960 each),
 * the last at 40,500 + 8 x 40,960 = 368,180 ns, 6 register hits. Pairing every unit with its
 * partner on the other plane instead sensed each page four times: 4 x (40,500 + 2 x 40,960) =
 * 489,680 ns, slower than without multi-plane (2 x 40,000 + 8 x 40,960 = 407,680). */
START_TEST(test_nand_multiplane_read_keeps_each_plane_register)
{
    for (int mp = 0; mp < 2; mp++) {
        struct rig r;
        rig_init(&r, model(mp ? "flash.multiplane=true" : NULL, "geometry.page_size=16384",
                           "geometry.pages_per_block=8", "ftl.mapping_unit=4096"));
        submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 8);
        for (int k = 0; k < 8; k++)
            submit(&r, SSDSIM__FLASH_READ, ppn(k < 4 ? 0 : PLANE1, (uint32_t)(k % 4)), 4096,
                   SSDSIM_FOR_HOST, k);
        run(&r);
        ck_assert_uint_eq(r.done[8], 2000000);
        uint64_t last = 0;
        for (int k = 0; k < 8; k++)
            last = SSDSIM__MAX(last, r.done[k]);
        ck_assert_uint_eq(last - r.done[8], (mp ? 368180 : 407680));
        ck_assert_uint_eq(r.hw.n_reg_hits, 6);
        ck_assert_uint_eq(r.hw.n_multiplane, (mp ? 1u : 0u));
        rig_fini(&r);
    }
}
END_TEST

START_TEST(test_nand_multiplane_read_with_command_cycles)
{
    /* Command cycles of 10 ns: 7 + tDBSY 500 + 7 cycles = 640 ns, tR 40,000; each page out
     * after a change read column (06h, 5 address, E0h: 70 ns): plane 0 at 640 + 40,000 + 70 +
     * 40,960 = 81,670 ns after the erase, plane 1 at 81,670 + 70 + 40,960 = 122,700. */
    struct rig r;
    rig_init(&r, model("flash.multiplane=true", "flash.cmd_cycle_us=0.01", NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0); /* 50 + 2,000,000 */
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 3), 4096, SSDSIM_FOR_GC, 1);
    submit(&r, SSDSIM__FLASH_READ, ppn(PLANE1, 3), 4096, SSDSIM_FOR_GC, 2);
    run(&r);
    ck_assert_uint_eq(r.done[0], 2000050);
    ck_assert_uint_eq(r.done[1], 2000050 + 81670);
    ck_assert_uint_eq(r.done[2], 2000050 + 122700);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_multiplane_address_rules)
{
    /* Different page offsets (0 on plane 0, 1 on plane 1) do not pair: after the erase
     * (2,000,000), two single programs of 340,960 each. */
    struct rig r;
    rig_init(&r, model("flash.multiplane=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1, 1), 4096, SSDSIM_FOR_HOST, 2);
    run(&r);
    ck_assert_uint_eq(r.done[1], 2340960);
    ck_assert_uint_eq(r.done[2], 2681920);
    ck_assert_uint_eq(r.hw.n_multiplane, 0);
    rig_fini(&r);

    /* Page 0 of block 0 (plane 0) and of block 1 of plane 1 (global 65): a pair, unless the
     * same block is required (flash.multiplane_same_block). */
    rig_init(&r, model("flash.multiplane=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1 + 1, 0), 4096, SSDSIM_FOR_HOST, 2);
    run(&r);
    ck_assert_uint_eq(r.done[2], 2382420);
    rig_fini(&r);
    rig_init(&r, model("flash.multiplane=true", "flash.multiplane_same_block=true", NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1 + 1, 0), 4096, SSDSIM_FOR_HOST, 2);
    run(&r);
    ck_assert_uint_eq(r.done[2], 2681920);
    rig_fini(&r);

    /* An op is never taken past an earlier one of its own plane: queue plane 0 page 0, plane 0
     * page 1, plane 1 page 1. The head (plane 0, page 0) pairs with nothing (plane 1's op has
     * page 1); then plane 0 page 1 and plane 1 page 1 pair: 2,000,000 + 340,960 = 2,340,960,
     * then + 382,420 = 2,723,380. */
    rig_init(&r, model("flash.multiplane=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 1);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 1), 4096, SSDSIM_FOR_HOST, 2);
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1, 1), 4096, SSDSIM_FOR_HOST, 3);
    run(&r);
    ck_assert_uint_eq(r.done[1], 2340960);
    ck_assert_uint_eq(r.done[2], 2723380);
    ck_assert_uint_eq(r.done[3], 2723380);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_multiplane_raises_program_throughput)
{
    /* Eight programs, pages 0 to 3 on each plane in turn, queued behind an erase: with
     * multi-plane four pairs of 382,420 ns (2 x 40,960 + 500 + 300,000), without eight
     * programs of 340,960. Throughput factor 8 x 340,960 / (4 x 382,420) = 1.7832. */
    uint64_t end[2];
    for (int mp = 0; mp < 2; mp++) {
        struct rig r;
        rig_init(&r, model(mp ? "flash.multiplane=true" : NULL, NULL, NULL, NULL));
        submit(&r, SSDSIM__FLASH_ERASE, 5, 0, SSDSIM_FOR_GC, 0);
        for (uint32_t p = 0; p < 4; p++) {
            submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, p), 4096, SSDSIM_FOR_HOST, 1 + 2 * (int)p);
            submit(&r, SSDSIM__FLASH_PROGRAM, ppn(PLANE1, p), 4096, SSDSIM_FOR_HOST,
                   2 + 2 * (int)p);
        }
        run(&r);
        end[mp] = r.done[8] - r.done[0];
        /* the counters ssdsim_device_stats reports: 4 operations of 2 planes, or none */
        ck_assert_uint_eq(r.hw.n_multiplane, mp ? 4 : 0);
        ck_assert_uint_eq(r.hw.n_multiplane_planes, mp ? 8 : 0);
        rig_fini(&r);
    }
    ck_assert_uint_eq(end[0], 8 * 340960);
    ck_assert_uint_eq(end[1], 4 * 382420);
    double factor = (double)end[0] / (double)end[1];
    ck_assert(factor > 1.7831 && factor < 1.7833);
}
END_TEST

/* ------------------------------------------------------------------ cache operations */

START_TEST(test_nand_cache_program_hides_transfer)
{
    /* Eight programs of one plane, all queued at 0, tCBSY 3 us (the default). Page 1: data in
     * to 40,960, to the data register at 43,960, programmed by 343,960; the die takes page 2's
     * data at 43,960 (in by 84,920), which waits for the array: moved at 343,960 + 3,000 and
     * done at 646,960. Each later page ends tCBSY + tPROG = 303,000 after the one before:
     * page 8 at 343,960 + 7 x 303,000 = 2,464,960. Without cache program each takes
     * 40,960 + 300,000: page 8 at 2,727,680. Steady factor 340,960 / 303,000 = 1.1253. */
    struct rig r;
    rig_init(&r, model("flash.cache_program=true", NULL, NULL, NULL));
    for (int k = 0; k < 8; k++)
        submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, (uint32_t)k), 4096, SSDSIM_FOR_HOST, k);
    run(&r);
    ck_assert_uint_eq(r.done[0], 343960);
    ck_assert_uint_eq(r.done[1], 646960);
    ck_assert_uint_eq(r.done[7], 2464960);
    /* The transfers are all on the bus: 8 x 40,960. */
    ck_assert_uint_eq(r.hw.bus_busy_ns, 8 * 40960);
    /* all eight pages went through the cache register */
    ck_assert_uint_eq(r.hw.n_cache_programs, 8);
    ck_assert_uint_eq(r.hw.n_cache_reads, 0);
    rig_fini(&r);

    rig_init(&r, model(NULL, NULL, NULL, NULL));
    for (int k = 0; k < 8; k++)
        submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, (uint32_t)k), 4096, SSDSIM_FOR_HOST, k);
    run(&r);
    ck_assert_uint_eq(r.done[7], 2727680);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_cache_read_overlaps_data_out)
{
    /* Eight reads of one plane queued at 0, tRCBSY 3 us (the default). Read 1: tR to 40,000,
     * to the cache register at 43,000, out by 83,960. The die starts read 2 at 43,000 (tR to
     * 83,000); its page moves once read 1's data is out: 83,960 + 3,000 = 86,960, out by
     * 127,920. Each later read ends 43,960 (transfer + tRCBSY, longer than tR) after the one
     * before: read 8 at 83,960 + 7 x 43,960 = 391,680. Without cache read: 8 x 80,960 =
     * 647,680. */
    struct rig r;
    rig_init(&r, model("flash.cache_read=true", NULL, NULL, NULL));
    for (int k = 0; k < 8; k++)
        submit(&r, SSDSIM__FLASH_READ, ppn(0, (uint32_t)k), 4096, SSDSIM_FOR_HOST, k);
    run(&r);
    ck_assert_uint_eq(r.done[0], 83960);
    ck_assert_uint_eq(r.done[1], 127920);
    ck_assert_uint_eq(r.done[7], 391680);
    ck_assert_uint_eq(r.hw.n_cache_reads, 8);
    ck_assert_uint_eq(r.hw.n_cache_programs, 0);
    rig_fini(&r);

    rig_init(&r, model(NULL, NULL, NULL, NULL));
    for (int k = 0; k < 8; k++)
        submit(&r, SSDSIM__FLASH_READ, ppn(0, (uint32_t)k), 4096, SSDSIM_FOR_HOST, k);
    run(&r);
    ck_assert_uint_eq(r.done[7], 647680);
    rig_fini(&r);
}
END_TEST

/* The same die behind a write buffer of 64 KiB (16 units, power-loss protected, its default
 * flush depth), 1,000 sequential 4 KiB writes at QD32: the buffer takes the first 16 at once
 * and each later write when a flush ends, so the run lasts about (1,000 - 16) of the die's
 * program periods. With cache program a page ends tCBSY + tPROG = 303,000 ns after the one
 * before (the next page's data already in the cache register): 984 x 303,000 = 298.15 ms. With
 * multi-plane the die programs its two planes' pages together, 2 x 40,960 + 500 + 300,000 =
 * 382,420 ns a pair: 492 x 382,420 = 188.15 ms. Without either, 340,960 a page: 335.5 ms. Cache
 * program is checked on a die of one plane too. The buffer must keep a second page at hand for
 * the die (the default depth is two pages' worth a plane with either operation): with one a
 * plane, flushes reach a die one at a time and it starts each alone; the one-plane die then
 * took 343,960 ns a page (data in, tCBSY and tPROG in turn: slower than without cache program)
 * and the multi-plane die 1.39 times the derived time. */
START_TEST(test_nand_buffer_feeds_cache_and_multiplane)
{
    static const struct {
        const char *key, *planes;
        double period_ns, pages;
    } c[] = {
        {"flash.cache_program=true", "geometry.planes_per_die=1", 303000, 1},
        {"flash.cache_program=true", NULL, 303000, 1},
        {"flash.multiplane=true", NULL, 382420, 2},
        {NULL, NULL, 340960, 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        ssdsim_model *m = model(c[i].key, "buffer.size=64KiB", "buffer.plp=true", c[i].planes);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":1000}",
               NULL);
        ssdsim_op_stats w;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        ck_assert_uint_eq(w.count, 1000);
        st_within(1000 / w.iops * 1e9, (1000 - 16) / c[i].pages * c[i].period_ns, 0.01,
                  c[i].key ? c[i].key : "neither operation");
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ suspend */

struct late_read {
    struct rig *r;
    uint32_t addr;
    int cookie;
};

static void late_read(void *ctx, uint32_t arg)
{
    struct late_read *lr = ctx;
    submit(lr[arg].r, SSDSIM__FLASH_READ, lr[arg].addr, 4096, SSDSIM_FOR_HOST, lr[arg].cookie);
}

/* Cache read is for reads in a row: a read with none queued behind it when its tR ends, and
 * none before it in the cache register's sequence, is a plain page read (00h-30h), its data out
 * of the register without tRCBSY. A lone read at 0: tR + transfer = 40,000 + 40,960 = 80,960,
 * as without cache read; another at 200,000 on the idle die: 280,960. Two in a row (the second
 * arriving at 20,000, during the first's tR) take the cache register as in
 * test_nand_cache_read_overlaps_data_out: the first moves to it at 43,000 (its out at 83,960);
 * the second starts then (tR to 83,000) and, as the last of the sequence (3Fh), moves once the
 * first is out: 83,960 + 3,000 = 86,960, out at 127,920. */
START_TEST(test_nand_cache_read_lone_read_is_plain)
{
    struct rig r;
    rig_init(&r, model("flash.cache_read=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    struct late_read lr[2] = {{&r, ppn(1, 0), 1}, {&r, ppn(2, 0), 2}};
    ssdsim__engine_schedule(&r.e, 200000, late_read, lr, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], T_R + XFER);
    ck_assert_uint_eq(r.done[1], 200000 + T_R + XFER);
    ck_assert_uint_eq(r.hw.n_cache_reads, 0);
    rig_fini(&r);

    rig_init(&r, model("flash.cache_read=true", NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    lr[0].r = &r;
    ssdsim__engine_schedule(&r.e, 20000, late_read, lr, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 83960);
    ck_assert_uint_eq(r.done[1], 127920);
    ck_assert_uint_eq(r.hw.n_cache_reads, 2);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_read_suspends_program)
{
    /* A program (data in to 40,960, array to 340,960) and a host read arriving at 100,000.
     * Suspend 20 us, resume 10 us: the program stops at 120,000 with 220,960 left; the read
     * runs tR + transfer and ends at 200,960: it waited only the suspend latency
     * (latency 100,960 = 20,000 + 40,000 + 40,960). The program resumes at 200,960 and ends
     * 10,000 + 220,960 later, at 431,920. A second read at 250,000 finds the program suspended
     * once already (flash.max_suspends 1) and waits for it: 431,920 + 80,960 = 512,880. */
    struct rig r;
    rig_init(&r, model("flash.suspend=true", "flash.suspend_us=20", "flash.resume_us=10",
                       "flash.max_suspends=1"));
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    struct late_read lr[2] = {{&r, ppn(1, 0), 1}, {&r, ppn(PLANE1, 0), 2}};
    ssdsim__engine_schedule(&r.e, 100000, late_read, lr, 0);
    ssdsim__engine_schedule(&r.e, 250000, late_read, lr, 1);
    run(&r);
    ck_assert_uint_eq(r.done[1], 200960);
    ck_assert_uint_eq(r.done[1] - 100000, 20000 + T_R + XFER);
    ck_assert_uint_eq(r.done[0], 431920);
    ck_assert_uint_eq(r.done[2], 512880);
    ck_assert_uint_eq(r.hw.n_suspends, 1);
    rig_fini(&r);

    /* Without suspend the first read waits for the program: 340,960 + 80,960 = 421,920. */
    rig_init(&r, model(NULL, NULL, NULL, NULL));
    submit(&r, SSDSIM__FLASH_PROGRAM, ppn(0, 0), 4096, SSDSIM_FOR_HOST, 0);
    lr[0].r = &r;
    ssdsim__engine_schedule(&r.e, 100000, late_read, lr, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 340960);
    ck_assert_uint_eq(r.done[1], 421920);
    ck_assert_uint_eq(r.hw.n_suspends, 0);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_read_suspends_erase_not_near_its_end)
{
    /* An erase (2 ms) and reads at 500,000 and at 1,990,000. Suspend 20 us, resume 10 us:
     * the first read suspends it at 520,000 (1,480,000 left) and ends at 600,960; the erase
     * resumes to 600,960 + 10,000 + 1,480,000 = 2,090,960. The second read at 1,990,000 would
     * suspend it at 2,010,000, before its end: it does, and ends at 2,090,960; the erase then
     * ends at 2,090,960 + 10,000 + 80,960 = 2,181,920. */
    struct rig r;
    rig_init(&r, model("flash.suspend=true", "flash.suspend_us=20", "flash.resume_us=10", NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 3, 0, SSDSIM_FOR_GC, 0);
    struct late_read lr[2] = {{&r, ppn(1, 0), 1}, {&r, ppn(2, 0), 2}};
    ssdsim__engine_schedule(&r.e, 500000, late_read, lr, 0);
    ssdsim__engine_schedule(&r.e, 1990000, late_read, lr, 1);
    run(&r);
    ck_assert_uint_eq(r.done[1], 600960);
    ck_assert_uint_eq(r.done[2], 2090960);
    ck_assert_uint_eq(r.done[0], 2181920);
    rig_fini(&r);

    /* A read 10 us before the end of an erase does not suspend it (the erase would end before
     * the 20 us suspend latency): it waits, 2,000,000 + 80,960. */
    rig_init(&r, model("flash.suspend=true", "flash.suspend_us=20", "flash.resume_us=10", NULL));
    submit(&r, SSDSIM__FLASH_ERASE, 3, 0, SSDSIM_FOR_GC, 0);
    lr[0].r = &r;
    ssdsim__engine_schedule(&r.e, 1990000, late_read, lr, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 2000000);
    ck_assert_uint_eq(r.done[1], 2080960);
    ck_assert_uint_eq(r.hw.n_suspends, 0);
    rig_fini(&r);
}
END_TEST

/* ------------------------------------------------------------------ copyback */

START_TEST(test_nand_copyback_moves_no_data)
{
    /* A GC read of 0 bytes (page 0 of block 0) answered by a GC program to page 0 of block 1,
     * the same plane. Command cycles 10 ns: read 70 + 40,000 = 40,070; copyback program
     * (85h, 5 address, 10h) 70 + 300,000: done at 340,140. The bus carried 140 ns of command
     * cycles and no data. */
    struct rig r;
    rig_init(&r, model("flash.copyback=true", "flash.cmd_cycle_us=0.01", NULL, NULL));
    r.cb_read = 0;
    r.cb_dst = ppn(1, 0);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 0, SSDSIM_FOR_GC, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 40070);
    ck_assert_uint_eq(r.done[1], 340140);
    ck_assert_uint_eq(r.hw.bus_busy_ns, 140);
    ck_assert_uint_eq(r.hw.n_copybacks, 1);
    rig_fini(&r);

    /* The same copy through the controller (no copyback; the FTL reads the page): read 70 +
     * 40,000 + 40,960, program 70 + 40,960 + 300,000; the bus carries 2 x 41,030. */
    rig_init(&r, model("flash.cmd_cycle_us=0.01", NULL, NULL, NULL));
    r.cb_read = 0;
    r.cb_dst = ppn(1, 0);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 4096, SSDSIM_FOR_GC, 0);
    run(&r);
    ck_assert_uint_eq(r.done[0], 81030);
    ck_assert_uint_eq(r.done[1], 81030 + 341030);
    ck_assert_uint_eq(r.hw.bus_busy_ns, 82060);
    rig_fini(&r);

    /* With the parity rule, page 0 to page 1 is not allowed: the page goes out (40,960) and
     * back in (70 + 40,960) before tPROG: 40,070 + 81,990 + 300,000 = 422,060. */
    rig_init(&r, model("flash.copyback=true", "flash.copyback_parity=true",
                       "flash.cmd_cycle_us=0.01", NULL));
    r.cb_read = 0;
    r.cb_dst = ppn(1, 1);
    submit(&r, SSDSIM__FLASH_READ, ppn(0, 0), 0, SSDSIM_FOR_GC, 0);
    run(&r);
    ck_assert_uint_eq(r.done[1], 422060);
    ck_assert_uint_eq(r.hw.n_copybacks, 0);
    rig_fini(&r);
}
END_TEST

START_TEST(test_nand_drive_runs_with_every_mechanism)
{
    /* A whole drive (the page FTL) written randomly past its capacity with every mechanism on
     * (suspend without cache program, which the model refuses) and the FTL's consistency
     * checks on: it completes, GC copies pages (more pages programmed than the host wrote)
     * through copybacks, and host reads suspend programs or erases. */
    ssdsim_model *m =
        st_model("generic-slc", "geometry.channels=1", "geometry.chips_per_channel=1",
                 "geometry.dies_per_chip=1", "geometry.blocks_per_plane=32", "flash.copyback=true",
                 "flash.multiplane=true", "flash.cache_read=true", "flash.suspend=true",
                 "flash.cmd_cycle_us=0.01", NULL);
    ssdsim *sim = st_sim(m, 1);
    /* The FTL's consistency checks every 5000 events. */
    ck_assert_int_eq(ssdsim_set_check_period(sim, 5000), 0);
    st_run(sim, "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":20000}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.flash_pages_programmed, d.host_pages_written);
    const struct ssdsim__hw *hw = &sim->sys.devs[0].hw;
    ck_assert_uint_gt(hw->n_copybacks, 0);
    ck_assert_uint_gt(hw->n_suspends, 0);
    /* The device stats report the die's counters (the run started with the drive new), each
     * switch as the model set it, and the JSON a "nand" group with the keys of the switches
     * on only (no cache program, no firmware costs). */
    ck_assert(d.multiplane_on && d.cache_read_on && d.suspend_on && d.copyback_on);
    ck_assert(!d.cache_program_on);
    ck_assert_uint_eq(d.nand_multiplane_ops, hw->n_multiplane);
    ck_assert_uint_eq(d.nand_multiplane_planes, hw->n_multiplane_planes);
    ck_assert_uint_eq(d.nand_cache_reads, hw->n_cache_reads);
    ck_assert_uint_eq(d.nand_cache_programs, 0);
    ck_assert_uint_eq(d.nand_suspends, hw->n_suspends);
    ck_assert_uint_eq(d.nand_copybacks, hw->n_copybacks);
    ck_assert_uint_gt(d.nand_cache_reads, 0);
    ck_assert_uint_eq(d.fw_cores, 0);
    char *j = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(j);
    const char *n = strstr(j, "\"nand\":");
    ck_assert_ptr_nonnull(n);
    const char *end = strchr(n, '}');
    for (int k = 0; k < 5; k++) {
        static const char *const keys[] = {"\"multiplane_ops\"", "\"multiplane_planes\"",
                                           "\"cache_reads\"", "\"suspends\"",
                                           "\"copybacks\""};
        const char *at = strstr(n, keys[k]);
        ck_assert_msg(at && at < end, "%s not in the nand group", keys[k]);
    }
    ck_assert_ptr_null(strstr(j, "\"cache_programs\""));
    ck_assert_ptr_null(strstr(j, "\"firmware\""));
    free(j);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_nand_drive_gc_copies_cross_no_channel)
{
    /* A one-die generic SLC drive (bus 200 MT/s x 8: a 4 KiB page takes 4096 x 8000 / 1600 =
     * 20,480 ns) written randomly three times over, so GC copies pages. With copyback, every
     * GC or WL copy is a copyback and the channel carries only the pages programmed for the
     * host (and mapping pages): bus busy = (programmed - GC copies - WL copies) x 20,480 ns.
     * Without it, each copy crosses the channel twice (read out, programmed in): at least
     * (programmed + GC copies + WL copies) x 20,480. */
    for (int cb = 0; cb < 2; cb++) {
        ssdsim_model *m =
            st_model("generic-slc", "geometry.channels=1", "geometry.chips_per_channel=1",
                     "geometry.dies_per_chip=1", "geometry.blocks_per_plane=32",
                     cb ? "flash.copyback=true" : "flash.bus_width=8", NULL);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim,
               "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,"
               "\"number_ios\":12000}",
               NULL);
        ssdsim_device_stats d;
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        const struct ssdsim__hw *hw = &sim->sys.devs[0].hw;
        uint64_t copies = d.gc_pages_copied + d.wl_pages_copied;
        ck_assert_uint_gt(d.gc_pages_copied, 1000);
        char *j = ssdsim_results_json(sim);
        ck_assert_ptr_nonnull(j);
        if (cb) {
            ck_assert_uint_eq(hw->n_copybacks, copies);
            /* reported: every GC and WL copy was a copyback */
            ck_assert(d.copyback_on);
            ck_assert_uint_eq(d.nand_copybacks, copies);
            ck_assert_ptr_nonnull(strstr(j, "\"copybacks\""));
            ck_assert_uint_eq(hw->bus_busy_ns, (d.flash_pages_programmed - copies) * 20480);
        } else {
            ck_assert_uint_eq(hw->n_copybacks, 0);
            ck_assert_uint_ge(hw->bus_busy_ns, (d.flash_pages_programmed + copies) * 20480);
            /* no NAND operation on: no group, no figures */
            ck_assert(!d.copyback_on && !d.multiplane_on && !d.suspend_on);
            ck_assert_uint_eq(d.nand_copybacks, 0);
            ck_assert_ptr_null(strstr(j, "\"nand\""));
        }
        free(j);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* flash.multiplane_same_block on a whole drive: the page FTL opens blocks of one index on the
 * two planes of the die (ftl/page_place.c). The die above (2 planes of 64 blocks of 32 pages)
 * with factory bad blocks, reliability.bad_fraction 0.1: round(6.4) = 6 on each plane, placed
 * from the seed, so the planes' good blocks differ. A sequential fill of 20 blocks per plane
 * (1,280 writes of 4 KiB at QD8, below the logical capacity: no GC) takes the pages of the two
 * planes in turn, so both fill in step. By hand:
 * - paired, each plane writes the 20 lowest indices good on both planes (the leader takes the
 *   lowest index free on every plane, the other follows it), so both planes' written blocks
 *   are the same 20 indices; taking each plane's own free blocks in address order, plane p
 *   would write the 20 lowest indices good on p, which differ here (checked below);
 * - the fill then meets the same-block rule at no cost: it makes as many multi-plane
 *   operations as the same fill with the rule off (any two blocks pair), and as the fill of
 *   the die without bad blocks (the indices change, not the timing).
 * With the rule, a random overwrite of the drive with GC also keeps every structure consistent
 * (the free lists linked both ways, the check every 2,000 events). */
static uint64_t pair_fill(ssdsim_model *m, bool check_blocks)
{
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":1280}", NULL);
    uint64_t ops = sim->sys.devs[0].hw.n_multiplane;
    if (check_blocks) {
        const struct ssdsim__ftl *f = sim->sys.devs[0].env.state;
        uint32_t own[2] = {0, 0}, shared = 0, bad[2] = {0, 0};
        bool own_differ = false;
        for (uint32_t i = 0; i < BPP; i++) {
            bool good0 = f->state[i] != SSDSIM__BLK_BAD,
                 good1 = f->state[BPP + i] != SSDSIM__BLK_BAD;
            bad[0] += !good0;
            bad[1] += !good1;
            bool in0 = good0 && own[0]++ < 20, in1 = good1 && own[1]++ < 20;
            own_differ |= in0 != in1;
            bool want = good0 && good1 && shared++ < 20;
            for (uint32_t p = 0; p < 2; p++)
                ck_assert_msg((f->state[p * BPP + i] == SSDSIM__BLK_CLOSED) == want,
                              "plane %u block index %u: state %u", p, i, f->state[p * BPP + i]);
        }
        ck_assert_uint_eq(bad[0], 6);
        ck_assert_uint_eq(bad[1], 6);
        ck_assert(own_differ); /* the test tells pairing from each plane's own order */
    }
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return ops;
}

START_TEST(test_nand_same_block_pairs_blocks)
{
    const char *bad = "reliability.bad_fraction=0.1";
    uint64_t paired = pair_fill(
        model("flash.multiplane=true", "flash.multiplane_same_block=true", bad, "ftl.op=0.25"),
        true);
    uint64_t any = pair_fill(model("flash.multiplane=true", bad, "ftl.op=0.25", NULL), false);
    uint64_t no_bad = pair_fill(
        model("flash.multiplane=true", "flash.multiplane_same_block=true", "ftl.op=0.25", NULL),
        false);
    ck_assert_uint_gt(any, 0);
    ck_assert_uint_eq(paired, any);
    ck_assert_uint_eq(paired, no_bad);

    ssdsim_model *m =
        model("flash.multiplane=true", "flash.multiplane_same_block=true", bad, "ftl.op=0.25");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_set_check_period(sim, 2000), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":12000}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ bogus input */

static void refused(const char *key, const char *value, const char *want, ssdsim_model *m)
{
    ssdsim_error err;
    ck_assert_int_ne(ssdsim_model_set(m, key, value, &err), 0);
    ck_assert_msg(strstr(err.message, want) != NULL, "message '%s' lacks '%s'", err.message, want);
    ck_assert(strchr(err.message, '\n') == NULL);
}

START_TEST(test_nand_impossible_combinations_refused)
{
    ssdsim_model *m = model("geometry.planes_per_die=1", NULL, NULL, NULL);
    refused("flash.multiplane", "true",
            "flash.multiplane: needs a die with at least 2 planes (geometry.planes_per_die is 1)",
            m);
    ssdsim_model_free(m);

    m = model(NULL, NULL, NULL, NULL);
    refused("flash.suspend_us", "20", "flash.suspend_us: applies only when flash.suspend is true",
            m);
    refused("flash.dbsy_us", "1", "flash.dbsy_us: applies only when flash.multiplane is true", m);
    ssdsim_model_free(m);

    /* Suspend latency of 300 us against tPROG 300 us: nothing could be suspended. */
    m = model("flash.suspend=true", NULL, NULL, NULL);
    refused("flash.suspend_us", "300",
            "flash.suspend_us: a suspend latency of 300 us is not shorter than the shortest "
            "program or erase (300 us)",
            m);
    refused("flash.cache_program", "true", "flash.suspend: not modelled together with", m);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_nand_keys_quiet_when_off)
{
    /* The canonical JSON of a model without the keys has none of them (models written before
     * them print as they did); one that turns a mechanism on shows it with its parameters. */
    ssdsim_model *m = model(NULL, NULL, NULL, NULL);
    char *json = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_null(strstr(json, "multiplane"));
    ck_assert_ptr_null(strstr(json, "suspend"));
    ck_assert_ptr_null(strstr(json, "cmd_cycle"));
    free(json);
    ssdsim_model_free(m);
    m = model("flash.suspend=true", NULL, NULL, NULL);
    json = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(json, "\"suspend_us\""));
    ck_assert_ptr_nonnull(strstr(json, "\"max_suspends\""));
    free(json);
    ssdsim_model_free(m);
}
END_TEST

static Suite *nand_suite(void)
{
    Suite *s = suite_create("nand");
    TCase *tc = tcase_create("ops");
    tcase_add_test(tc, test_nand_single_ops_are_sums_of_parts);
    tcase_add_test(tc, test_nand_multiplane_program_read_erase);
    tcase_add_test(tc, test_nand_multiplane_read_with_command_cycles);
    tcase_add_test(tc, test_nand_multiplane_read_keeps_each_plane_register);
    tcase_add_test(tc, test_nand_multiplane_address_rules);
    tcase_add_test(tc, test_nand_multiplane_raises_program_throughput);
    tcase_add_test(tc, test_nand_cache_program_hides_transfer);
    tcase_add_test(tc, test_nand_cache_read_overlaps_data_out);
    tcase_add_test(tc, test_nand_cache_read_lone_read_is_plain);
    tcase_add_test(tc, test_nand_buffer_feeds_cache_and_multiplane);
    tcase_add_test(tc, test_nand_read_suspends_program);
    tcase_add_test(tc, test_nand_read_suspends_erase_not_near_its_end);
    tcase_add_test(tc, test_nand_copyback_moves_no_data);
    tcase_add_test(tc, test_nand_drive_runs_with_every_mechanism);
    tcase_add_test(tc, test_nand_drive_gc_copies_cross_no_channel);
    tcase_add_test(tc, test_nand_same_block_pairs_blocks);
    tcase_add_test(tc, test_nand_impossible_combinations_refused);
    tcase_add_test(tc, test_nand_keys_quiet_when_off);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(nand_suite());
}
