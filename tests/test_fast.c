/* test_fast.c: the FAST hybrid log-block FTL against figures derived by hand: sequential writes
 * of whole blocks cost switch merges only (WAF 1), a sequential run cut short costs a partial
 * merge that copies exactly the missing pages, uniform random writes cost full merges and a WAF
 * far above the page FTL's on the same device, every page is found where the scheme allows and
 * flash never reads a page that was not programmed, the state stays consistent under a mixed
 * workload, a device with too little over-provisioning is refused, runs are deterministic.
 *
 * The small device: one die, 1 or 2 planes of 128 blocks x 32 pages of 4 KiB, ftl.op 0.6, so
 * that the logical capacity is 128 * 32 / 1.6 = 2560 pages = 80 whole logical blocks per plane,
 * leaving 48 spare blocks per plane. */
#include <stdlib.h>

#include "ftl/fast.h"
#include "sim.h"
#include "simtest.h"

#define PPB 32
#define LBN_PER_PLANE 80

static struct ssdsim__fast *fast_of(ssdsim *sim)
{
    return ((struct ssdsim *)sim)->sys.devs[0].env.state;
}

static ssdsim_model *small(const char *type, int planes, const char *op, int log_blocks,
                           int seq_log_blocks)
{
    char planes_kv[64], op_kv[64], type_kv[64], log_kv[64], seq_kv[64];
    snprintf(planes_kv, sizeof planes_kv, "geometry.planes_per_die=%d", planes);
    snprintf(op_kv, sizeof op_kv, "ftl.op=%s", op);
    snprintf(type_kv, sizeof type_kv, "ftl.type=\"%s\"", type);
    ssdsim_model *m =
        st_model("generic-slc", "geometry.channels=1", "geometry.chips_per_channel=1",
                 "geometry.dies_per_chip=1", planes_kv, "geometry.blocks_per_plane=128",
                 "geometry.pages_per_block=32", op_kv, type_kv, NULL);
    if (!strcmp(type, "fast")) {
        ssdsim_error err;
        snprintf(log_kv, sizeof log_kv, "%d", log_blocks);
        snprintf(seq_kv, sizeof seq_kv, "%d", seq_log_blocks);
        ck_assert_msg(ssdsim_model_set(m, "ftl.log_blocks", log_kv, &err) == 0, "%s", err.message);
        ck_assert_msg(ssdsim_model_set(m, "ftl.seq_log_blocks", seq_kv, &err) == 0, "%s",
                      err.message);
    }
    return m;
}

static ssdsim_device_stats dev(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

/* Let every flash operation still in flight (merge copies, erases) finish. */
static void drain(ssdsim *sim)
{
    ck_assert_int_eq(ssdsim_idle(sim, SSDSIM__NS_PER_S), 0);
}

static void write_at(ssdsim *sim, uint64_t page, const char *bs)
{
    char wl[256];
    snprintf(wl, sizeof wl,
             "{\"rw\":\"write\",\"bs\":\"%s\",\"offset\":%llu,\"iodepth\":1,\"number_ios\":1}", bs,
             (unsigned long long)page * 4096);
    st_run(sim, wl, NULL);
}

static uint32_t block_of(ssdsim *sim, uint64_t lpn)
{
    uint64_t ppn = fast_of(sim)->env->ops->lookup(fast_of(sim), lpn);
    ck_assert_uint_ne(ppn, UINT64_MAX);
    return (uint32_t)(ppn / PPB);
}

START_TEST(test_fast_is_registered_with_its_parameters)
{
    size_t n = ssdsim_plugin_count(SSDSIM_PLUGIN_FTL);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        const char *name, *summary;
        const ssdsim_param *params;
        ck_assert_int_eq(ssdsim_plugin_describe(SSDSIM_PLUGIN_FTL, i, &name, &summary, &params), 0);
        if (strcmp(name, "fast"))
            continue;
        found = true;
        ck_assert(summary && *summary);
        ck_assert_str_eq(params[0].key, "log_blocks");
        ck_assert_str_eq(params[1].key, "seq_log_blocks");
        ck_assert_ptr_null(params[2].key);
    }
    ck_assert(found);
}
END_TEST

/* Writing every logical block whole and in order: each SW log fills up and is switched in, so
 * no page is ever copied (WAF exactly 1) and every logical block written is one merge. The first
 * pass gives each logical block its first data block (nothing to erase); each later pass erases
 * the old data block of each. */
static void sequential_passes(int planes)
{
    uint64_t n_lbn = (uint64_t)LBN_PER_PLANE * planes, n_lpn = n_lbn * PPB;
    ssdsim_model *m = small("fast", planes, "0.6", 8, 1);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(fast_of(sim)->n_lpn, n_lpn);
    const char *const passes[] = {
        "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32}",
        "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32}",
        "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":32}",  /* one page per request */
        "{\"rw\":\"write\",\"bs\":\"256k\",\"iodepth\":4}", /* two blocks per request */
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(passes); i++) {
        st_run(sim, passes[i], NULL);
        drain(sim);
        ssdsim_device_stats d = dev(sim);
        ck_assert_uint_eq(d.host_pages_written, n_lpn);
        ck_assert_uint_eq(d.flash_pages_programmed, n_lpn);
        ck_assert_uint_eq(d.gc_pages_copied, 0);
        ck_assert_double_eq(d.waf, 1.0);
        ck_assert_uint_eq(d.merges, n_lbn);
        ck_assert_uint_eq(d.blocks_erased, i == 0 ? 0 : n_lbn);
        ck_assert_uint_eq(d.flash_pages_read, 0);
        ck_assert_int_eq(ssdsim__fast_check(fast_of(sim)), 0);
    }
    ck_assert_uint_eq(fast_of(sim)->n_switch, 4 * n_lbn);
    ck_assert_uint_eq(fast_of(sim)->n_partial + fast_of(sim)->n_full, 0);
    /* Data blocks, free blocks and nothing else: 128 - 80 = 48 free per plane. */
    ck_assert_uint_eq(dev(sim).free_blocks, (uint64_t)(128 - LBN_PER_PLANE) * planes);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_fast_sequential_whole_blocks_cost_only_switch_merges)
{
    sequential_passes(1);
    sequential_passes(2);
}
END_TEST

/* Logical block 0 gets pages 0..9 sequentially (an SW log), page 20 at random (an RW log), then
 * a write at offset 0 of logical block 1 retires the SW log: the partial merge copies the pages
 * it lacks, 10..31, from the data block, except page 20, whose newest copy is in the RW log:
 * 21 copies, one merge, one erase (the old data block of logical block 0). */
START_TEST(test_fast_partial_merge_copies_exactly_the_missing_pages)
{
    ssdsim_model *m = small("fast", 1, "0.6", 8, 1);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    drain(sim);
    struct ssdsim__fast *f = fast_of(sim);
    uint32_t old_data = f->dmap[0];
    ck_assert_uint_eq(block_of(sim, 31), old_data);

    write_at(sim, 0, "40k");
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 10);
    ck_assert_uint_eq(d.merges, 0);
    uint32_t sw = block_of(sim, 0);
    ck_assert_uint_eq(f->role[sw], SSDSIM__FAST_SW);
    ck_assert_uint_eq(block_of(sim, 9), sw);

    write_at(sim, 20, "4k");
    uint32_t rw = block_of(sim, 20);
    ck_assert_uint_eq(f->role[rw], SSDSIM__FAST_RW);
    ck_assert_uint_eq(dev(sim).merges, 0);

    write_at(sim, PPB, "4k");
    drain(sim);
    d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 1);
    ck_assert_uint_eq(d.gc_pages_copied, 21);
    ck_assert_uint_eq(d.flash_pages_programmed, 22);
    ck_assert_uint_eq(d.flash_pages_read, 21);
    ck_assert_uint_eq(d.merges, 1);
    ck_assert_uint_eq(d.blocks_erased, 1);
    ck_assert_uint_eq(f->n_partial, 1);
    ck_assert_uint_eq(f->copies_partial, 21);
    /* The SW log is logical block 0's data block now, whole but for page 20. */
    ck_assert_uint_eq(f->dmap[0], sw);
    for (uint64_t lpn = 0; lpn < PPB; lpn++) {
        uint64_t ppn = f->env->ops->lookup(f, lpn);
        if (lpn == 20)
            ck_assert_uint_eq(ppn / PPB, rw);
        else
            ck_assert_uint_eq(ppn, (uint64_t)sw * PPB + lpn);
    }
    ck_assert_uint_eq(f->role[old_data], SSDSIM__FAST_FREE);
    ck_assert_uint_eq(f->role[block_of(sim, PPB)], SSDSIM__FAST_SW);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Pages the host trimmed are not copied by a partial merge. */
START_TEST(test_fast_partial_merge_skips_trimmed_pages)
{
    ssdsim_model *m = small("fast", 1, "0.6", 8, 1);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    write_at(sim, 0, "40k");
    /* trim pages 10..31 of logical block 0 (88 KiB from 40 KiB) */
    st_run(sim,
           "{\"rw\":\"trim\",\"bs\":\"88k\",\"offset\":40960,\"iodepth\":1,"
           "\"number_ios\":1}",
           NULL);
    write_at(sim, PPB, "4k");
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_uint_eq(d.merges, 1);
    ck_assert_uint_eq(fast_of(sim)->env->ops->lookup(fast_of(sim), 10), UINT64_MAX);
    ck_assert_int_eq(ssdsim__fast_check(fast_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Eight 512 B writes into one unit of a new device. The first programs it (an SW log, page 0);
 * each next one reads the unit back first (read-modify-write), and, being a write at offset 0,
 * retires the SW log, whose partial merge finds nothing to copy (there is no older data) and
 * makes it the data block: 7 merges, the last 6 of which erase the data block before. */
START_TEST(test_fast_partial_unit_write_reads_then_programs)
{
    ssdsim_model *m = small("fast", 1, "0.6", 8, 1);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"512\",\"iodepth\":1,\"number_ios\":8}", NULL);
    drain(sim);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 8);
    ck_assert_uint_eq(d.flash_pages_programmed, 8);
    ck_assert_uint_eq(d.flash_pages_read, 7);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_uint_eq(d.merges, 7);
    ck_assert_uint_eq(d.blocks_erased, 6);
    ck_assert_int_eq(ssdsim__fast_check(fast_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* WAF of uniform random 4 KiB writes (queue depth 1) on a sequentially filled device: a warm-up
 * of twice the logical space, then one more measured. For FAST (f not NULL), the full merges of
 * the measured run and their copies. */
static double random_waf(ssdsim *sim, ssdsim_device_stats *out, const struct ssdsim__fast *f,
                         uint64_t *n_full, uint64_t *copies_full)
{
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2560}";
    st_run(sim, wl, NULL);
    st_run(sim, wl, NULL);
    uint64_t full0 = f ? f->n_full : 0, copies0 = f ? f->copies_full : 0;
    st_run(sim, wl, NULL);
    if (f) {
        *n_full = f->n_full - full0;
        *copies_full = f->copies_full - copies0;
    }
    *out = dev(sim);
    ck_assert_uint_eq(out->flash_pages_programmed, out->host_pages_written + out->gc_pages_copied);
    return out->waf;
}

/* Uniform random writes rarely continue a sequence: they fill the RW logs, and each reclaim of
 * the oldest full-merges every logical block it holds a page of. After the sequential fill every
 * logical page is mapped, and at queue depth 1 no write overlaps a merge, so each full merge
 * copies all 32 pages of its logical block. What a full merge absorbs is the log pages of its
 * logical block: the 8 RW logs hold 8 x 32 = 256 pages over 80 logical blocks, about 3 each, so
 * the WAF is of the order of 1 + 32 / 3, about 11. The page FTL with 37.5% spare relocates few
 * pages per block it collects: a WAF well under 2. */
START_TEST(test_fast_random_writes_cost_full_merges)
{
    ssdsim_model *m = small("fast", 1, "0.6", 8, 1);
    ssdsim *sim = st_sim(m, 3);
    struct ssdsim__fast *f = fast_of(sim);
    ssdsim_device_stats d;
    uint64_t n_full = 0, copies_full = 0;
    double fast_waf = random_waf(sim, &d, f, &n_full, &copies_full);
    ck_assert_uint_gt(n_full, 0);
    ck_assert_uint_eq(copies_full, (uint64_t)PPB * n_full);
    ck_assert_uint_ge(d.merges, 1);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = small("page", 1, "0.6", 0, 0);
    sim = st_sim(m, 3);
    ssdsim_device_stats pd;
    double page_waf = random_waf(sim, &pd, NULL, NULL, NULL);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    ck_assert_msg(page_waf > 1.0 && page_waf < 2.0, "page FTL WAF %.3f", page_waf);
    ck_assert_msg(fast_waf > 5.0 && fast_waf > 3.0 * page_waf, "FAST WAF %.3f, page FTL %.3f",
                  fast_waf, page_waf);
}
END_TEST

/* A spy on the flash operations the library completes: every read must be of a page
 * programmed since its block's last erase, and a block's pages are programmed once each, in
 * increasing order. */
struct spy {
    struct ssdsim__hw *hw;
    ssdsim__flash_done_fn done;
    void *ctx;
    uint8_t *programmed; /* per page */
    uint32_t *next;      /* per block: lowest page that may be programmed next */
    uint64_t bad_reads, bad_programs, reads, programs, erases;
};

static void spy_done(void *ctx, uint32_t op_i)
{
    struct spy *s = ctx;
    const struct ssdsim__flash_op *op = ssdsim__hw_op(s->hw, op_i);
    uint32_t ppb = s->hw->pages_per_block;
    switch (op->kind) {
    case SSDSIM__FLASH_READ:
        s->reads++;
        s->bad_reads += !s->programmed[op->addr];
        break;
    case SSDSIM__FLASH_PROGRAM: {
        uint32_t b = op->addr / ppb, k = op->addr % ppb;
        s->programs++;
        s->bad_programs += s->programmed[op->addr] || k < s->next[b];
        s->programmed[op->addr] = 1;
        s->next[b] = k + 1;
        break;
    }
    case SSDSIM__FLASH_ERASE:
        s->erases++;
        memset(&s->programmed[(uint64_t)op->addr * ppb], 0, ppb);
        s->next[op->addr] = 0;
        break;
    }
    s->done(s->ctx, op_i);
}

static void spy_attach(struct spy *s, ssdsim *sim)
{
    struct ssdsim *in = sim;
    memset(s, 0, sizeof *s);
    s->hw = &in->sys.devs[0].hw;
    s->done = in->sys.devs[0].hw.on_done;
    s->ctx = in->sys.devs[0].hw.on_done_ctx;
    s->programmed = calloc(in->sys.devs[0].hw.n_pages, 1);
    s->next = calloc(in->sys.devs[0].hw.n_blocks, sizeof *s->next);
    ck_assert(s->programmed && s->next);
    in->sys.devs[0].hw.on_done = spy_done;
    in->sys.devs[0].hw.on_done_ctx = s;
}

static void spy_free(struct spy *s)
{
    free(s->programmed);
    free(s->next);
}

/* Random writes over the first half of the space (after writing it sequentially), drained, then
 * the whole space read: each page is found at its own offset in its data block or SW log, or in
 * an RW log; the flash reads exactly the half that was written, never a page not programmed,
 * and the other half is answered without flash. */
START_TEST(test_fast_reads_find_the_newest_copy)
{
    ssdsim_model *m = small("fast", 2, "0.6", 4, 1);
    ssdsim *sim = st_sim(m, 11);
    struct spy spy;
    spy_attach(&spy, sim);
    struct ssdsim__fast *f = fast_of(sim);
    uint64_t half = f->n_lpn / 2; /* 2560 pages, 40 logical blocks per plane */
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32,\"size\":\"50%\"}", NULL);
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bssplit\":\"4k/70:8k/20:128k/10\",\"iodepth\":8,"
           "\"size\":\"50%\",\"number_ios\":6000}",
           NULL);
    drain(sim);
    ck_assert_uint_gt(f->n_full, 0);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    uint64_t in_data = 0, in_logs = 0;
    for (uint64_t lpn = 0; lpn < f->n_lpn; lpn++) {
        uint64_t ppn = f->env->ops->lookup(f, lpn);
        if (lpn >= half) {
            ck_assert_uint_eq(ppn, UINT64_MAX);
            continue;
        }
        ck_assert_uint_ne(ppn, UINT64_MAX);
        uint32_t b = (uint32_t)(ppn / PPB), lbn = (uint32_t)(lpn / PPB);
        ck_assert_uint_eq(b / 128, ssdsim__fast_lbn_plane(f, lbn));
        if (f->role[b] == SSDSIM__FAST_RW) {
            in_logs++;
        } else {
            ck_assert_uint_eq(ppn % PPB, lpn % PPB);
            ck_assert(f->role[b] == SSDSIM__FAST_SW ||
                      (f->role[b] == SSDSIM__FAST_DATA && f->dmap[lbn] == b));
            in_data++;
        }
    }
    ck_assert_uint_eq(in_data + in_logs, half);
    ck_assert_uint_gt(in_logs, 0);

    ssdsim_op_stats r;
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":16}", NULL);
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r);
    ck_assert_uint_eq(r.count, f->n_lpn);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.flash_pages_read, half);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.devs[0].env.n.c[SSDSIM_CNT_UNMAPPED_READS], f->n_lpn - half);
    ck_assert_uint_eq(spy.bad_reads, 0);
    ck_assert_uint_eq(spy.bad_programs, 0);
    ck_assert_uint_gt(spy.reads, half);
    ck_assert_uint_eq(spy.erases, ((struct ssdsim *)sim)->sys.devs[0].env.n.erases);
    spy_free(&spy);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A mixed workload (reads, writes of many sizes, partial units, trims, two SW logs per plane,
 * few RW logs) keeps every rule of the state, and the library's counts agree with the FTL's. */
START_TEST(test_fast_consistent_after_mixed_workload)
{
    ssdsim_model *m = small("fast", 2, "0.6", 3, 2);
    ssdsim *sim = st_sim(m, 5);
    struct ssdsim *s = sim;
    struct spy spy;
    spy_attach(&spy, sim);
    struct ssdsim__fast *f = fast_of(sim);
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":30,\"bssplit\":\"512/10:4k/50:16k/20:128k/20\","
           "\"iodepth\":8,\"numjobs\":4,\"number_ios\":20000}",
           NULL);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"64k\",\"iodepth\":4,\"size\":\"30%\"}", NULL);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    st_run(sim, "{\"rw\":\"randtrim\",\"bs\":\"16k\",\"iodepth\":4,\"number_ios\":300}", NULL);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bssplit\":\"4k/80:32k/20\",\"iodepth\":16,"
           "\"number_ios\":20000}",
           NULL);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    drain(sim);
    ck_assert_int_eq(ssdsim__fast_check(f), 0);
    ck_assert_uint_gt(f->n_switch, 0);
    ck_assert_uint_gt(f->n_partial, 0);
    ck_assert_uint_gt(f->n_full, 0);
    /* Conservation: FTL counters against the library's. */
    const struct ssdsim__env_counters *n = &s->sys.devs[0].env.n;
    ck_assert_uint_eq(n->c[SSDSIM_CNT_MERGES], f->n_switch + f->n_partial + f->n_full);
    ck_assert_uint_eq(n->c[SSDSIM_CNT_GC_COPIES], f->copies_partial + f->copies_full);
    ck_assert_uint_eq(s->sys.devs[0].env.programs_total,
                      n->c[SSDSIM_CNT_HOST_PAGES] + n->c[SSDSIM_CNT_GC_COPIES]);
    uint64_t sum = 0, valid = 0, mapped = 0;
    for (uint64_t b = 0; b < s->sys.devs[0].hw.n_blocks; b++) {
        sum += s->sys.devs[0].env.erase_count[b];
        valid += f->valid[b];
    }
    for (uint64_t l = 0; l < f->n_lpn; l++)
        mapped += f->env->ops->lookup(f, l) != UINT64_MAX;
    ck_assert_uint_eq(sum, n->erases);
    ck_assert_uint_eq(valid, mapped);
    ck_assert_uint_eq(dev(sim).free_blocks, f->n_free_blocks);
    ck_assert_uint_eq(spy.bad_programs, 0);
    spy_free(&spy);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* op 0.25: 4096 / 1.25 = 3276 logical pages = 103 logical blocks (the last one in part) on the
 * one plane, leaving 25 spare blocks: too few for 32 RW logs + 1 SW log + 1 for merges. With
 * log_blocks = 0 the spare is used up instead: 48 - 1 - 1 = 46 RW logs at op 0.6. */
START_TEST(test_fast_too_little_op_is_refused)
{
    ssdsim_model *m = small("fast", 1, "0.25", 32, 1);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(sim);
    ck_assert_msg(strstr(err.message, "ftl.op") != NULL, "%s", err.message);
    ck_assert_msg(strstr(err.message, "25 spare blocks") != NULL, "%s", err.message);
    ck_assert_msg(strstr(err.message, "= 34") != NULL, "%s", err.message);
    ssdsim_model_free(m);

    m = small("fast", 1, "0.6", 0, 1);
    sim = st_sim(m, 1);
    ck_assert_uint_eq(fast_of(sim)->rw_max, 46);
    ck_assert_uint_eq(fast_of(sim)->sw_max, 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = small("fast", 1, "0.6", 47, 1);
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, "ftl.op") != NULL, "%s", err.message);
    ssdsim_model_free(m);
}
END_TEST

static char *mixed_results(uint64_t seed)
{
    ssdsim_model *m = small("fast", 2, "0.6", 4, 1);
    ssdsim *sim = st_sim(m, seed);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":40,\"bssplit\":\"4k/60:64k/30:128k/10\","
           "\"iodepth\":16,\"numjobs\":2,\"number_ios\":8000}",
           NULL);
    return st_results_json(sim, m);
}

START_TEST(test_fast_same_seed_same_results)
{
    st_assert_seeded(mixed_results(9), mixed_results(9), mixed_results(10));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fast");
    TCase *tc = tcase_create("fast");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fast_is_registered_with_its_parameters);
    tcase_add_test(tc, test_fast_sequential_whole_blocks_cost_only_switch_merges);
    tcase_add_test(tc, test_fast_partial_merge_copies_exactly_the_missing_pages);
    tcase_add_test(tc, test_fast_partial_merge_skips_trimmed_pages);
    tcase_add_test(tc, test_fast_partial_unit_write_reads_then_programs);
    tcase_add_test(tc, test_fast_random_writes_cost_full_merges);
    tcase_add_test(tc, test_fast_reads_find_the_newest_copy);
    tcase_add_test(tc, test_fast_consistent_after_mixed_workload);
    tcase_add_test(tc, test_fast_too_little_op_is_refused);
    tcase_add_test(tc, test_fast_same_seed_same_results);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
