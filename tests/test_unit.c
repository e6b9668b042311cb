/* test_unit.c: mapping units other than the flash page (libssdsim/hw/unit.c, ftl.mapping_unit),
 * against figures derived by hand in the comments from the model below, never from the code.
 *
 * The drive ("ud"): one channel, one die of one plane, 64 blocks of 32 pages of 16 KiB; SLC with
 * tR 40 us, tPROG 300 us, tBERS 2 ms; a bus of 100 MT/s x 8 bits, so 4 KiB cross it in
 * 4096 x 8000 / 800 = 40,960 ns and 16 KiB in 163,840 ns; host link 4000 MB/s (4 KiB in
 * 1,024 ns, 16 KiB in 4,096 ns), 1 us per command on the host side, no controller overhead, no
 * write buffer (every write is written through), op 0.28. Variants change the page size or the
 * mapping unit and say so.
 */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "hw/hw.h"
#include "sim.h"
#include "simtest.h"
#include "ssdsim/sys/ftl.h"

enum {
    X4K = 40960,   /* 4 KiB on the bus, ns */
    X16K = 163840, /* 16 KiB on the bus */
    L4K = 1024,    /* 4 KiB on the host link */
    L16K = 4096,   /* 16 KiB on the host link */
    HOST = 1000,   /* host command overhead */
    T_R = 40000,
    T_PROG = 300000,
};

static char *ud_json(const char *page, uint32_t ppb, const char *unit, const char *flash_extra,
                     const char *extra)
{
    return g_strdup_printf(
        "{\"name\":\"ud\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":%u,\"page_size\":\"%s\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":40,\"program_us\":300,\"erase_us\":2000,"
        "\"bus_mts\":100,\"bus_width\":8%s},"
        "\"controller\":{\"cmd_overhead_us\":0,\"cores\":1,\"queue_depth\":32},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},"
        "\"ftl\":{\"op\":0.28,\"mapping_unit\":\"%s\"}%s}",
        ppb, page, flash_extra, unit, extra);
}

static ssdsim_model *ud(const char *page, uint32_t ppb, const char *unit, const char *flash_extra,
                        const char *extra)
{
    g_autofree char *j = ud_json(page, ppb, unit, flash_extra, extra);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, j, "test_unit model", &err);
    ck_assert_msg(rc == 0, "%s\nin %s", err.message, j);
    return m;
}

static const struct ssdsim__hw *hw_of(ssdsim *sim)
{
    return &((struct ssdsim *)sim)->sys.devs[0].hw;
}

/* 4 KiB units on 16 KiB pages (k = 4), on the one-page path and on the NAND-operations path
 * (flash.cmd_cycle_us 0.01: 7 cycles = 70 ns on the bus before each read and program, which
 * adds `c` = 70 ns to each operation below):
 *  - a 4 KiB write on the fresh drive is alone: its page is programmed padded, only its unit
 *    crossing the bus: 1 us + 1,024 link + c + 40,960 bus + 300,000 tPROG = 342,984 + c ns; the
 *    page's 3 other slots are lost (3 padded slots);
 *  - a 16 KiB write of units 4-7 fills the next page: one program, 16 KiB on the bus:
 *    1 us + 4,096 + c + 163,840 + 300,000 = 468,936 + c ns, nothing padded;
 *  - a 4 KiB read of unit 4 after that program: tR, then only 4 KiB out:
 *    1 us + c + 40,000 + 40,960 + 1,024 link = 82,984 + c ns;
 *  - then unit 5, in the page register since the previous read: no tR:
 *    1 us + c + 40,960 + 1,024 = 42,984 + c ns;
 *  - then 16 KiB of units 4-7, all register hits, their units out one after another and the
 *    last over the link: 1 us + 4 x (c + 40,960) + 1,024 = 165,864 + 4c ns. */
START_TEST(test_unit_small_latencies_by_hand)
{
    for (int nand = 0; nand <= 1; nand++) {
        uint64_t c = nand ? 70 : 0;
        ssdsim_model *m = ud("16KiB", 32, "4KiB", nand ? ",\"cmd_cycle_us\":0.01" : "", "");
        ssdsim *sim = st_sim(m, 1);
        const struct ssdsim__hw *hw = hw_of(sim);
        ck_assert_uint_eq(hw->spp, 4);
        ck_assert_uint_eq(hw->nand, nand);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 342984 + c);
        ck_assert_uint_eq(hw->n_pad_slots, 3);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 16384, 16384), 468936 + c);
        ck_assert_uint_eq(hw->n_pad_slots, 3);
        ck_assert_uint_eq(hw->n_page_programs, 2);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 16384, 4096), 82984 + c);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 20480, 4096), 42984 + c);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 16384, 16384), 165864 + 4 * c);
        ck_assert_uint_eq(hw->n_reg_hits, 5);
        /* the FTL skipped the padded slots: unit 0 is in slot 0, units 4-7 in slots 4-7 */
        ssdsim_device_stats d;
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        ck_assert_uint_eq(d.flash_pages_programmed, 5); /* units programmed */
        ck_assert(d.units_packed);
        ck_assert_uint_eq(d.nand_page_programs, 2);
        ck_assert_uint_eq(d.nand_padded_units, 3);
        ck_assert_uint_eq(d.nand_register_hits, 5);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Sequential 4 KiB writes at queue depth 32, written through: the units arriving while the die
 * programs pack into whole pages, so the die writes 16 KiB per (163,840 bus + 300,000 tPROG)
 * = 463,840 ns: 16384 / 463,840e-9 = 35.32 MB/s, k = 4 times the program bandwidth of one
 * unit per (40,960 + 300,000) of a write that has to be padded. The drive with 16 KiB units
 * programs a whole unit for each 4 KiB write, and each but the first write of a unit is a
 * read-modify-write (tR + 16 KiB out = 203,840 ns): 16 KiB per 4 x 463,840 + 3 x 203,840 =
 * 2,466,880 ns, 6.64 MB/s. The first write (alone, padded) and the last pages move the figures
 * by well under 1% over 2,000 writes (500 pages). No GC: 2,000 units of the 6,400 the drive
 * holds. */
START_TEST(test_unit_small_die_bandwidth)
{
    const char *w = "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":2000}";
    for (int big = 0; big <= 1; big++) {
        ssdsim_model *m = ud("16KiB", 32, big ? "16KiB" : "4KiB", "", "");
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, w, NULL);
        ssdsim_op_stats s;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s), 0);
        ck_assert_uint_eq(s.count, 2000);
        st_within(s.bw_bytes, 16384.0 / (big ? 2466880e-9 : 463840e-9), 0.01,
                  big ? "16 KiB units: a unit program per 4 KiB write"
                      : "4 KiB units packed into 16 KiB pages");
        if (!big)
            ck_assert_uint_lt(hw_of(sim)->n_pad_slots, 8);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ the die alone (hw/unit.c) */

struct rig {
    ssdsim_model *m;
    struct ssdsim__engine e;
    struct ssdsim__hw hw;
    uint64_t done[64];
};

static void on_done(void *ctx, uint32_t op)
{
    struct rig *r = ctx;
    struct ssdsim__flash_op *o = ssdsim__hw_op(&r->hw, op);
    r->done[o->cookie] = ssdsim__engine_now(&r->e);
    ssdsim__hw_op_free(&r->hw, op);
}

static void submit(struct rig *r, int kind, uint32_t addr, uint32_t bytes, int purpose, int ck)
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
    o->cookie = (uint64_t)ck;
    ssdsim__hw_submit(&r->hw, i);
}

/* GC reading a victim's valid units, queued at once on the die (block 1: slots 128 + s):
 * slots 0, 1, 3 (page 0), 5 (page 1), 8-11 (page 2): v = 8 units in 3 pages, so 3 tRs and 8
 * unit transfers: 3 x 40,000 + 8 x 40,960 = 447,680 ns, 5 register hits. Then a read of slot 0,
 * a program of page 4 of block 2 (slots 16-19: one program, 163,840 + 300,000) and a read of
 * slot 1: the program took the register, so both reads pay tR: from 447,680, 80,960 + 463,840
 * + 80,960 = 625,760 ns later. Three programs of slots 0-2 of block 3 wait for their page, and
 * with nothing else queued are programmed padded at the end of the instant: 3 x 40,960 + 300,000
 * = 422,880 ns, one padded slot, and block 3's next programmable slot is 4. */
START_TEST(test_unit_register_and_packing_rig)
{
    struct rig r;
    memset(&r, 0, sizeof r);
    g_autofree char *j = ud_json("16KiB", 32, "4KiB", "", "");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_load_string(&r.m, j, "rig", &err), 0);
    ck_assert_int_eq(ssdsim__engine_init(&r.e, 64), 0);
    ck_assert_int_eq(ssdsim__hw_init(&r.hw, r.m, &r.e, on_done, &r), 0);
    ck_assert_uint_eq(r.hw.pages_per_block, 128); /* slots */
    static const uint32_t valid[] = {0, 1, 3, 5, 8, 9, 10, 11};
    for (int k = 0; k < 8; k++)
        submit(&r, SSDSIM__FLASH_READ, 128 + valid[k], 4096, SSDSIM_FOR_GC, k);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    ck_assert_uint_eq(r.done[7], 447680);
    ck_assert_uint_eq(r.hw.n_reg_hits, 5);

    submit(&r, SSDSIM__FLASH_READ, 128, 4096, SSDSIM_FOR_GC, 10);
    for (int s = 0; s < 4; s++)
        submit(&r, SSDSIM__FLASH_PROGRAM, 256 + 16 + s, 4096, SSDSIM_FOR_GC, 11 + s);
    submit(&r, SSDSIM__FLASH_READ, 129, 4096, SSDSIM_FOR_GC, 15);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    ck_assert_uint_eq(r.done[15] - r.done[7], 625760);
    for (int s = 0; s < 4; s++) /* the page's units complete together */
        ck_assert_uint_eq(r.done[11 + s], 447680 + 80960 + 463840);
    ck_assert_uint_eq(r.hw.n_reg_hits, 5);

    uint64_t t0 = ssdsim__engine_now(&r.e);
    for (int s = 0; s < 3; s++)
        submit(&r, SSDSIM__FLASH_PROGRAM, 384 + s, 4096, SSDSIM_FOR_HOST, 20 + s);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    for (int s = 0; s < 3; s++)
        ck_assert_uint_eq(r.done[20 + s] - t0, 422880);
    ck_assert_uint_eq(r.hw.n_pad_slots, 1);
    ck_assert_uint_eq(ssdsim__hw_slot_next(&r.hw, 3), 4);
    /* an erase makes the block's slots programmable again */
    submit(&r, SSDSIM__FLASH_ERASE, 3, 0, SSDSIM_FOR_GC, 30);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    ck_assert_uint_eq(ssdsim__hw_slot_next(&r.hw, 3), 0);
    ssdsim__hw_fini(&r.hw);
    ssdsim__engine_fini(&r.e);
    ssdsim_model_free(r.m);
}
END_TEST

/* A host unit's partial page does not wait for a die that never runs empty. GC programs whole
 * pages of block 2 one after another, each submitted when the one before ends (as paced GC
 * does), 8 of them; a host program of slot 0 of block 3 arrives at time 0, while the first
 * runs. A GC page: 4 units on the bus, 163,840 + 300,000 = 463,840 ns. The host page waits for
 * the page being programmed when it was begun and for one more (the second, to 927,680); it is
 * then queued padded, behind the third (submitted as the second ended, just before), so its
 * program starts at 3 x 463,840 = 1,391,520 and ends 40,960 + 300,000 later: 1,732,480, with
 * 3 padded slots. (Held until the die ran empty, it would have waited for all 8 GC pages:
 * 8 x 463,840 + 340,960 = 4,051,680.) On the NAND-operations path (flash.cmd_cycle_us 0.01)
 * each operation takes c = 70 ns more. */
struct chain {
    struct rig r;
    int pages; /* GC pages submitted so far */
};

static void submit_gc_page(struct chain *c)
{
    int k = c->pages++;
    for (int s = 0; s < 4; s++)
        submit(&c->r, SSDSIM__FLASH_PROGRAM, 256 + 4 * (uint32_t)k + (uint32_t)s, 4096,
               SSDSIM_FOR_GC, 24 + 4 * k + s);
}

static void on_done_chain(void *ctx, uint32_t op)
{
    struct chain *c = ctx;
    uint64_t ck = ssdsim__hw_op(&c->r.hw, op)->cookie;
    on_done(&c->r, op);
    if (ck >= 24 && (ck - 24) % 4 == 3 && c->pages < 8)
        submit_gc_page(c); /* the next page as this one ends */
}

START_TEST(test_unit_host_page_not_held_behind_gc)
{
    for (int nand = 0; nand <= 1; nand++) {
        /* the NAND-operations path adds c = 70 ns of command cycles to each operation */
        uint64_t c = nand ? 70 : 0;
        struct chain ch;
        memset(&ch, 0, sizeof ch);
        g_autofree char *j = ud_json("16KiB", 32, "4KiB", nand ? ",\"cmd_cycle_us\":0.01" : "", "");
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_load_string(&ch.r.m, j, "rig", &err), 0);
        ck_assert_int_eq(ssdsim__engine_init(&ch.r.e, 64), 0);
        ck_assert_int_eq(ssdsim__hw_init(&ch.r.hw, ch.r.m, &ch.r.e, on_done_chain, &ch), 0);
        ck_assert_uint_eq(ch.r.hw.nand, nand);
        submit_gc_page(&ch);
        submit(&ch.r, SSDSIM__FLASH_PROGRAM, 384, 4096, SSDSIM_FOR_HOST, 20);
        ck_assert_int_eq(ssdsim__engine_run(&ch.r.e, 0), 0);
        ck_assert_int_eq(ch.pages, 8);
        ck_assert_uint_eq(ch.r.done[20], 3 * (463840 + c) + 340960 + c);
        ck_assert_uint_eq(ch.r.done[24 + 4 * 7 + 3], 8 * (463840 + c) + 340960 + c);
        ck_assert_uint_eq(ch.r.hw.n_pad_slots, 3);
        ck_assert_uint_eq(ssdsim__hw_slot_next(&ch.r.hw, 3), 4);
        ssdsim__hw_fini(&ch.r.hw);
        ssdsim__engine_fini(&ch.r.e);
        ssdsim_model_free(ch.r.m);
    }
}
END_TEST

/* Cache read with 4 KiB units on 16 KiB pages (tRCBSY 3 us, no command cycles): host reads of
 * the 12 units of pages 0-2 of block 0, queued at once. Page 0 is sensed (40,000), moves to the
 * cache register (+3,000) and its 4 units go out one after another (4 x 40,960 to 206,840),
 * while the die senses page 1 from 43,000 to 83,000: it waits in the data register until the
 * cache register is out (206,840 + 3,000 = 209,840), its units go out to 373,680, page 2 is
 * sensed meanwhile and moves in at 376,680, its last unit out at 540,520 = 40,000 + 3 x 3,000 +
 * 12 x 40,960: the bus is busy from the first tR on but for the three moves. 9 of the 12 reads
 * are register hits (every unit but a page's first). Without the cache register's reads the
 * die would sense each page only after the previous one's units were out. */
START_TEST(test_unit_cache_read_rig)
{
    struct rig r;
    memset(&r, 0, sizeof r);
    g_autofree char *j = ud_json("16KiB", 32, "4KiB", ",\"cache_read\":true", "");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_load_string(&r.m, j, "rig", &err), 0);
    ck_assert_int_eq(ssdsim__engine_init(&r.e, 64), 0);
    ck_assert_int_eq(ssdsim__hw_init(&r.hw, r.m, &r.e, on_done, &r), 0);
    for (int k = 0; k < 12; k++)
        submit(&r, SSDSIM__FLASH_READ, (uint32_t)k, 4096, SSDSIM_FOR_HOST, k);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    static const uint64_t want[12] = {83960,  124920, 165880, 206840, 250800, 291760,
                                      332720, 373680, 417640, 458600, 499560, 540520};
    for (int k = 0; k < 12; k++)
        ck_assert_msg(r.done[k] == want[k], "unit %d done at %llu, expected %llu", k,
                      (unsigned long long)r.done[k], (unsigned long long)want[k]);
    ck_assert_uint_eq(r.hw.n_reg_hits, 9);
    ck_assert_uint_eq(r.hw.n_cache_reads, 12);
    /* a program takes the cache register: a read of page 2 again pays tR, alone a plain page
     * read (no tRCBSY: test_nand_cache_read_lone_read_is_plain) */
    submit(&r, SSDSIM__FLASH_PROGRAM, 256, 4096, SSDSIM_FOR_GC, 20);
    submit(&r, SSDSIM__FLASH_PROGRAM, 257, 4096, SSDSIM_FOR_GC, 21);
    submit(&r, SSDSIM__FLASH_PROGRAM, 258, 4096, SSDSIM_FOR_GC, 22);
    submit(&r, SSDSIM__FLASH_PROGRAM, 259, 4096, SSDSIM_FOR_GC, 23);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    uint64_t t0 = ssdsim__engine_now(&r.e);
    submit(&r, SSDSIM__FLASH_READ, 9, 4096, SSDSIM_FOR_HOST, 30);
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    ck_assert_uint_eq(r.done[30] - t0, 40000 + 40960);
    ck_assert_uint_eq(r.hw.n_reg_hits, 9);
    ssdsim__hw_fini(&r.hw);
    ssdsim__engine_fini(&r.e);
    ssdsim_model_free(r.m);
}
END_TEST

/* A write buffer with the write cache on packs units into pages: 4 KiB random writes on a
 * drive written full once, every invariant checked along the way; pages are full but for a
 * few padded at flush ends (the padded slots stay far below one per page programmed). */
/* GC copies are not padded while their plane collects. With firmware time on each copy
 * (controller.fw_gc_page_us 5: GC reads a victim one unit at a time, the next after the firmware
 * has processed the copy, page_gc.c), the die runs empty between two copies; a page held with
 * fewer than 4 copies must then wait for the next ones, not be programmed padded: a padded copy
 * page would cost a whole page per copied unit, and a victim's copies (up to 127 units of a
 * 128-slot block) would need up to four blocks, where GC keeps one in reserve (a padding storm
 * under idle background GC once used them all and made a GC copy find no block at all).
 *
 * The drive: "ud" with 4 KiB units on 16 KiB pages (4 slots a page, 128 a block), written
 * through, background GC after 100 us idle up to 10 free blocks (bg_high_watermark 0.15 of 64).
 * Written full, then 20,000 random writes (foreground GC runs), then 1 s idle: background GC
 * collects several victims with the die otherwise empty. Padded slots during the idle second:
 * only the copies' last partial page when the collection ends, at most 3 (one plane).
 * Without the fix: about 3 per copied unit. */
START_TEST(test_unit_gc_copies_not_padded)
{
    ssdsim_model *m = ud("16KiB", 32, "4KiB", "",
                         ",\"gc\":{\"bg_idle_us\":100,\"bg_high_watermark\":0.15}");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "controller.fw_gc_page_us", "5", &err), 0);
    ssdsim *sim = st_sim(m, 5);
    ck_assert_int_eq(ssdsim_set_check_period(sim, 4096), 0);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":20000}", NULL);
    const struct ssdsim__hw *hw = hw_of(sim);
    uint64_t pad0 = hw->n_pad_slots;
    ssdsim_device_stats d0, d1;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d0), 0);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000ull), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d1), 0);
    ck_assert_uint_gt(d1.gc_bg_pages_copied, d0.gc_bg_pages_copied + 100);
    ck_assert_uint_le(hw->n_pad_slots - pad0, 3);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Padded pages wear the flash: without a buffer, random 4 KiB writes at QD1 on 16 KiB pages
 * are each programmed alone, padded, so a page of 4 slots goes per write. Once the drive is in
 * steady state (a sequential fill, then 4,000 writes), the slots a run's programs use up come
 * back as erased blocks of 32 pages x 4 slots: over 8,000 writes, wear factor x host bytes =
 * erases x 512 KiB within a block or two of the 64 (the open and collected blocks at either
 * end), where WAF alone (programmed units, GC's copies packed into whole pages) says less. */
START_TEST(test_unit_padded_pages_wear)
{
    ssdsim_model *m = ud("16KiB", 32, "4KiB", "", "");
    ssdsim *sim = st_sim(m, 7);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"number_ios\":4000}", NULL);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"number_ios\":8000}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.nand_padded_units, d.host_pages_written);
    double slots = d.wear_factor * 8000.0; /* host bytes / 4 KiB */
    st_within(slots, (double)d.blocks_erased * 32 * 4, 0.02, "slots used against slots erased");
    st_within(slots, (double)d.flash_pages_programmed + (double)d.nand_padded_units, 1e-9,
              "the wear factor's own count");
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_unit_small_buffer_packs)
{
    ssdsim_model *m =
        ud("16KiB", 32, "4KiB", "", ",\"buffer\":{\"size\":\"1MiB\",\"write_cache\":true}");
    ssdsim *sim = st_sim(m, 5);
    ck_assert_int_eq(ssdsim_set_check_period(sim, 4096), 0);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":20000}", NULL);
    const struct ssdsim__hw *hw = hw_of(sim);
    ck_assert_uint_gt(hw->n_page_programs, 5000);
    ck_assert_uint_lt(hw->n_pad_slots * 20, hw->n_page_programs);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

struct ends {
    uint64_t at[16];
};

static void on_end(const ssdsim_completion *c, void *ud)
{
    ((struct ends *)ud)->at[c->id] = c->complete_ns;
}

/* A write-back cache (256 KiB, volatile, write cache on, flushing from the first dirty unit)
 * keeps a partial page's worth of units in DRAM until something needs them durable, instead
 * of sending each to a die that would program it padded. Ten 4 KiB writes of units 0-9, one a
 * millisecond (each alone on the idle drive): units 0-3 go to flash together when the fourth is
 * written, as one whole page, and so do 4-7; 8 and 9 stay dirty. So 2 page programs, no slot
 * padded (before this, every write reached the die alone and idle: 10 pages programmed padded,
 * 30 empty slots). A flush at 20 ms, when the die is long idle, forces 8 and 9 out: one page
 * padded (2 empty slots), the 2 units on the bus (2 x 40,960) and tPROG, after the host's 1 us:
 * 1,000 + 81,920 + 300,000 = 382,920 ns. */
START_TEST(test_unit_buffer_holds_partial_page)
{
    ssdsim_model *m = ud("16KiB", 32, "4KiB", "",
                         ",\"buffer\":{\"size\":\"256KiB\",\"write_cache\":true}");
    ssdsim *sim = st_sim(m, 1);
    struct ends e = {{0}};
    for (uint64_t k = 0; k < 10; k++)
        ck_assert_int_eq(
            ssdsim_submit(sim, SSDSIM_OP_WRITE, k * 4096, 4096, k * 1000000, k, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    const struct ssdsim__hw *hw = hw_of(sim);
    ck_assert_uint_eq(hw->n_page_programs, 2);
    ck_assert_uint_eq(hw->n_pad_slots, 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 20000000, 10, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(e.at[10], 20000000 + HOST + 2 * X4K + T_PROG);
    ck_assert_uint_eq(hw->n_page_programs, 3);
    ck_assert_uint_eq(hw->n_pad_slots, 2);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A buffer smaller than a page's worth (8 KiB: 2 slots) never has a page's worth dirty: the
 * units it holds back go out when a write waits for a slot, so nothing deadlocks. Writes of
 * units 0, 1 and 2 at once: 0 and 1 take the slots and stay dirty; 2 waits, which sends 0 and 1
 * to the die, idle, as a page padded (2 empty slots, 2 x 40,960 + 300,000 on the die); their
 * slots free when it ends and unit 2 takes one, held back in turn (alone, nothing waiting). So
 * write 2 completes after that program, 1 page programmed; a flush then pads unit 2's page
 * (3 more empty slots). */
START_TEST(test_unit_small_buffer_no_deadlock)
{
    ssdsim_model *m = ud("16KiB", 32, "4KiB", "",
                         ",\"buffer\":{\"size\":\"8KiB\",\"write_cache\":true}");
    ssdsim *sim = st_sim(m, 1);
    struct ends e = {{0}};
    for (uint64_t k = 0; k < 3; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, k * 4096, 4096, 0, k, on_end, &e),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    const struct ssdsim__hw *hw = hw_of(sim);
    ck_assert_uint_eq(hw->n_page_programs, 1);
    ck_assert_uint_eq(hw->n_pad_slots, 2);
    ck_assert_uint_gt(e.at[2], 2 * X4K + T_PROG);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, ssdsim_now(sim), 3, on_end, &e),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(hw->n_page_programs, 2);
    ck_assert_uint_eq(hw->n_pad_slots, 5);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Fast preconditioning installs a steady state in units (slots) as it does in pages: with 4 KiB
 * units on 16 KiB pages and with 64 KiB units on 16 KiB pages the installed drive passes every
 * invariant and then takes random writes. (The scaled copy counts spare in units.) */
START_TEST(test_unit_fast_precondition)
{
    static const char *units[] = {"4KiB", "64KiB"};
    for (int i = 0; i < 2; i++) {
        ssdsim_model *m = ud("16KiB", 32, units[i], "", "");
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_set(m, "geometry.blocks_per_plane", "256", &err), 0);
        ssdsim *sim = st_sim(m, 3);
        ssdsim_workload *wl = st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,"
                                          "\"number_ios\":2000}");
        ck_assert_msg(ssdsim_precondition_fast(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
        st_check(sim);
        ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
        st_check(sim);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ units larger than the page */

/* 16 KiB units on 4 KiB pages (m = 4 pages per unit; 32 pages per block = 8 units):
 *  - a 16 KiB write on the fresh drive: the unit over the bus, then its 4 pages programmed:
 *    1 us + 4,096 + 163,840 + 4 x 300,000 = 1,368,936 ns;
 *  - a 4 KiB write into it is a read-modify-write of the unit: its 4 pages sensed and out
 *    (4 x 40,000 + 163,840), then programmed again (163,840 + 4 x 300,000):
 *    1 us + 1,024 + 323,840 + 1,363,840 = 1,689,704 ns;
 *  - a 4 KiB read senses one page: 1 us + 40,000 + 40,960 + 1,024 = 82,984 ns.
 * Mapping memory: 512 units of 16 KiB / 1.28 = 400 mapping entries against 1,600 with 4 KiB
 * units on the same flash: a quarter. */
START_TEST(test_unit_large_rmw_by_hand)
{
    ssdsim_model *m = ud("4KiB", 32, "16KiB", "", "");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(hw_of(sim)->ppu, 4);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 16384), 1368936);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 4096, 4096), 1689704);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 8192, 4096), 82984);
    uint64_t lp = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, NULL, &lp), 0);
    ck_assert_uint_eq(lp, 400);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = ud("4KiB", 32, "4KiB", "", "");
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, NULL, &lp), 0);
    ck_assert_uint_eq(lp, 1600);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Uniform random 4 KiB writes with 16 KiB units (4 KiB pages), independent draws
 * (norandommap): each write reads and programs a whole unit, so GC sees uniform random writes
 * of units, and the flash programs a 16 KiB unit per 4 KiB the host wrote: programmed bytes /
 * host bytes = 16 / 4 x the unit WAF, the unit WAF being that of random 16 KiB writes on the
 * drive with 16 KiB pages and units (8 per block as here, the same FTL state), measured with
 * another seed: equal within sampling noise (a few percent). */
START_TEST(test_unit_large_waf_is_rmw_factor)
{
    double unit_waf[2] = {0, 0}, byte_waf = 0;
    for (int big_page = 0; big_page <= 1; big_page++) {
        ssdsim_model *m =
            big_page ? ud("16KiB", 8, "16KiB", "", "") : ud("4KiB", 32, "16KiB", "", "");
        ssdsim *sim = st_sim(m, big_page ? 11 : 9);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        const char *fill =
            big_page ? "{\"rw\":\"randwrite\",\"bs\":\"16k\",\"iodepth\":8,\"number_ios\":4000,"
                       "\"norandommap\":1}"
                     : "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":4000,"
                       "\"norandommap\":1}";
        const char *meas =
            big_page ? "{\"rw\":\"randwrite\",\"bs\":\"16k\",\"iodepth\":8,\"number_ios\":12000,"
                       "\"norandommap\":1}"
                     : "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":12000,"
                       "\"norandommap\":1}";
        st_run(sim, fill, NULL);
        st_run(sim, meas, NULL);
        ssdsim_device_stats d;
        ssdsim_op_stats w;
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        ck_assert_uint_gt(d.gc_pages_copied, 0);
        unit_waf[big_page] = d.waf;
        if (!big_page) {
            byte_waf = (double)d.flash_pages_programmed * 16384 / (double)w.bytes;
            /* the lifetime projections divide by it, not by the unit WAF */
            ck_assert_double_eq_tol(d.wear_factor, byte_waf, byte_waf * 1e-12);
            ck_assert_double_eq_tol(d.tbw_mean_bytes,
                                    d.rated_pe_cycles * (double)d.physical_bytes / byte_waf,
                                    d.tbw_mean_bytes * 1e-12);
        }
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    st_within(byte_waf, 4 * unit_waf[1], 0.05, "bytes programmed per host byte, 16 KiB units");
    st_within(unit_waf[0], unit_waf[1], 0.05, "unit WAF of the two drives");
}
END_TEST

/* ------------------------------------------------------------------ bad input */

START_TEST(test_unit_refused)
{
    static const struct {
        const char *page;
        uint32_t ppb;
        const char *unit, *flash, *extra, *key;
    } bad[] = {
        {"64KiB", 32, "512", "", "", "ftl.mapping_unit"}, /* 128 units a page */
        {"4KiB", 32, "3KiB", "", "", "ftl.mapping_unit"}, /* not a power of two */
        {"4KiB", 2, "16KiB", "", "", "ftl.mapping_unit"}, /* 4 pages, 2 a block */
        {"16KiB", 32, "4KiB", ",\"copyback\":true", "", "flash.copyback"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        g_autofree char *j =
            ud_json(bad[i].page, bad[i].ppb, bad[i].unit, bad[i].flash, bad[i].extra);
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_ne(ssdsim_model_load_string(&m, j, "bad.json", &err), 0);
        ck_assert_ptr_null(m);
        ck_assert_msg(strstr(err.message, bad[i].key) != NULL, "%s", err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
    }
    /* The FTLs that do not map units to slots refuse another unit, naming the key. */
    static const char *ftl[] = {"fast"};
    for (size_t i = 0; i < sizeof ftl / sizeof *ftl; i++) {
        ssdsim_model *m = ud("16KiB", 32, "16KiB", "", "");
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_set(m, "ftl.type", ftl[i], &err), 0);
        int rc = ssdsim_model_set(m, "ftl.mapping_unit", "4KiB", &err);
        ck_assert_int_ne(rc, 0);
        ck_assert_msg(strstr(err.message, "ftl.mapping_unit") != NULL, "%s", err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
        ssdsim_model_free(m);
    }
    /* xpoint takes the direct FTL, which writes a page in place: refused too */
    ssdsim_model *m = st_model("optane-memory-32", NULL);
    ssdsim_error err;
    ck_assert_int_ne(ssdsim_model_set(m, "ftl.mapping_unit", "64KiB", &err), 0);
    ck_assert_msg(strstr(err.message, "ftl.mapping_unit") != NULL, "%s", err.message);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("unit");
    TCase *tc = tcase_create("unit");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_unit_small_latencies_by_hand);
    tcase_add_test(tc, test_unit_small_die_bandwidth);
    tcase_add_test(tc, test_unit_register_and_packing_rig);
    tcase_add_test(tc, test_unit_host_page_not_held_behind_gc);
    tcase_add_test(tc, test_unit_cache_read_rig);
    tcase_add_test(tc, test_unit_small_buffer_packs);
    tcase_add_test(tc, test_unit_buffer_holds_partial_page);
    tcase_add_test(tc, test_unit_small_buffer_no_deadlock);
    tcase_add_test(tc, test_unit_gc_copies_not_padded);
    tcase_add_test(tc, test_unit_padded_pages_wear);
    tcase_add_test(tc, test_unit_fast_precondition);
    tcase_add_test(tc, test_unit_large_rmw_by_hand);
    tcase_add_test(tc, test_unit_large_waf_is_rmw_factor);
    tcase_add_test(tc, test_unit_refused);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
