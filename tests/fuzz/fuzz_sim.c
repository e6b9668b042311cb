/* fuzz_sim.c: libFuzzer harness of a whole simulation (ssdsim_new, ssdsim_run and the results)
 * on a tiny device, with conservation and round-trip checks.
 *
 * The input is text, one directive a line:
 *   #hdd | #xpoint | #jbod | #raid0 | #raid1 | #raid5   (first line only) the base: a small
 *                     hard disk, a tiny SSD on media without erase (direct FTL), or a system of
 *                     three tiny SSDs; otherwise one tiny SSD (2 planes x 64 blocks x 16 pages
 *                     of 4 KiB, page FTL, greedy GC)
 *   @key=value        a model key, as `--set` (ssdsim_model_set)
 *   key=value         a workload option (ssdsim_workload_set) on {"rw":"randwrite","bs":"4k",
 *                     "iodepth":4,"number_ios":256}
 *   !seq              precondition with a sequential fill first
 *   !idle=N           idle N microseconds after the run (background GC)
 *   !interval=N       a time series of one interval per N completed I/Os
 *   !steady           with it, stop at steady state (SNIA's rule on IOPS), at most 20 rounds
 * Inputs that would make the run large are passed over (more than 2^16 flash pages or 4
 * devices, numjobs above 4, blocks above 1 MiB, time_based, ramp_time, read_iolog), and every
 * job is capped at 256 I/Os, so each input runs in milliseconds.
 *
 * Invariants of a run that succeeds: it is deterministic (a second simulation from the same
 * model and seed gives byte-identical results JSON); per SSD, flash pages programmed plus
 * writes the buffer absorbed are at least the host pages written (WAF >= what the buffer
 * allows), and host pages are within the buffer's capacity of the host's write bytes; the
 * per-op counts and bytes add up; latency minimum <= mean <= maximum and the percentiles are in
 * order; free blocks are at most the blocks; the page FTL's own consistency check
 * (ssdsim__page_check) passes; the model's canonical JSON reloads to itself. A run that fails
 * says why (ssdsim_errmsg).
 */
#include "common.h"
#include "config/model.h"
#include "ftl/page.h"
#include "sim.h"
#include "workload/workload.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_PAGES (1u << 16)
#define MAX_IOS 256
#define MAX_BS (1u << 20)

static const char tiny_ssd[] =
    "{\"name\":\"fuzz-tiny\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
    "\"dies_per_chip\":1,\"planes_per_die\":2,\"blocks_per_plane\":64,\"pages_per_block\":16,"
    "\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"slc\",\"read_us\":25,\"program_us\":250,"
    "\"erase_us\":2000,\"bus_mts\":200,\"bus_width\":8,\"rated_pe_cycles\":100000},"
    "\"controller\":{\"cmd_overhead_us\":4,\"cores\":2,\"queue_depth\":32},"
    "\"host\":{\"link_bw\":\"2000MB/s\",\"cmd_overhead_us\":2},"
    "\"ftl\":{\"type\":\"page\",\"op\":0.25,\"mapping_unit\":\"4KiB\"},"
    "\"gc\":{\"policy\":\"greedy\",\"free_blocks_min\":2}}";

static const char tiny_hdd[] =
    "{\"name\":\"fuzz-hdd\",\"hdd\":{\"capacity\":\"64MiB\",\"rpm\":7200,\"heads\":2,\"zones\":4,"
    "\"outer_rate\":\"100MB/s\",\"inner_rate\":\"50MB/s\",\"seek_track_us\":600,"
    "\"seek_avg_us\":8000,\"seek_full_us\":20000,\"write_settle_us\":500,\"cache\":\"1MiB\","
    "\"write_cache\":true,\"read_ahead\":true,\"scheduler\":\"satf\"},"
    "\"host\":{\"interface\":\"sata\",\"gbps\":3},\"controller\":{\"cmd_overhead_us\":50,"
    "\"queue_depth\":32}}";

/* The same on media without erase, written in place by the direct FTL. */
static const char tiny_xpoint[] =
    "{\"name\":\"fuzz-xpoint\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
    "\"dies_per_chip\":1,\"planes_per_die\":2,\"blocks_per_plane\":64,\"pages_per_block\":16,"
    "\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"xpoint\",\"read_us\":10,\"program_us\":20,"
    "\"bus_mts\":400,\"bus_width\":8},\"controller\":{\"cmd_overhead_us\":4,\"cores\":2,"
    "\"queue_depth\":32},\"host\":{\"link_bw\":\"2000MB/s\",\"cmd_overhead_us\":2},"
    "\"ftl\":{\"type\":\"direct\",\"op\":0.25,\"mapping_unit\":\"4KiB\"}}";

static const char base_workload[] =
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":256}";

/* The base model the first line names (NULL when it does not name one). */
static ssdsim_model *base_model(const char *first)
{
    static const char *const layouts[] = {"jbod", "raid0", "raid1", "raid5"};
    ssdsim_model *m = NULL;
    ssdsim_error err;
    if (strcmp(first, "#xpoint") == 0) {
        FUZZ_CHECK(ssdsim_model_load_string(&m, tiny_xpoint, "fuzz-xpoint", &err) == 0, "%s",
                   err.message);
        return m;
    }
    if (strcmp(first, "#hdd") == 0) {
        FUZZ_CHECK(ssdsim_model_load_string(&m, tiny_hdd, "fuzz-hdd", &err) == 0, "%s",
                   err.message);
        return m;
    }
    for (size_t i = 0; i < 4; i++) {
        if (first[0] != '#' || strcmp(first + 1, layouts[i]) != 0)
            continue;
        fuzz_file("fuzz-tiny.json", tiny_ssd, strlen(tiny_ssd));
        char sys[256];
        int n = snprintf(sys, sizeof sys,
                         "{\"name\":\"fuzz-%s\",\"system\":{\"member\":\"fuzz-tiny.json\","
                         "\"count\":3,\"layout\":\"%s\"%s}}",
                         layouts[i], layouts[i], i == 1 || i == 3 ? ",\"stripe\":\"16KiB\"" : "");
        const char *path = fuzz_file("fuzz-system.json", sys, (size_t)n);
        FUZZ_CHECK(ssdsim_model_load_file(&m, path, &err) == 0, "%s", err.message);
        return m;
    }
    FUZZ_CHECK(ssdsim_model_load_string(&m, tiny_ssd, "fuzz-tiny", &err) == 0, "%s", err.message);
    return m;
}

/* Whether the model is small enough to simulate per input. */
static bool model_small(const struct ssdsim_model *m)
{
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return m->system.count <= 4 && model_small(m->system.member);
    if (m->kind == SSDSIM__KIND_HDD)
        return m->hdd.capacity <= (1ULL << 32);
    return ssdsim__model_physical_pages(m) <= MAX_PAGES;
}

/* Whether the workload is small enough; caps every job at MAX_IOS requests. */
static bool workload_small(struct ssdsim_workload *wl)
{
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        struct ssdsim__jobspec *job = &wl->jobs[j];
        if (job->numjobs > 4 || job->time_based || job->ramp_time_ns || job->read_iolog)
            return false;
        for (int d = 0; d < SSDSIM__N_DIRS; d++) {
            if (job->bs[d].range_max > MAX_BS)
                return false;
            for (uint32_t i = 0; i < job->bs[d].n; i++)
                if (job->bs[d].e[i].bytes > MAX_BS)
                    return false;
        }
        if (job->number_ios == 0 || job->number_ios > MAX_IOS)
            job->number_ios = MAX_IOS;
    }
    return true;
}

static void check_op_stats(const ssdsim *sim)
{
    ssdsim_op_stats s[4];
    for (int op = 0; op <= SSDSIM_OP_ALL; op++) {
        FUZZ_CHECK(ssdsim_get_op_stats(sim, (enum ssdsim_op)op, &s[op]) == 0, "op stats");
        const ssdsim_op_stats *o = &s[op];
        if (o->count == 0)
            continue;
        FUZZ_CHECK(o->lat_min_ns <= o->lat_max_ns, "op %d: min %llu > max %llu", op,
                   (unsigned long long)o->lat_min_ns, (unsigned long long)o->lat_max_ns);
        FUZZ_CHECK(o->lat_mean_ns >= (double)o->lat_min_ns * (1 - 1e-9) &&
                       o->lat_mean_ns <= (double)o->lat_max_ns * (1 + 1e-9),
                   "op %d: mean %g outside [%llu, %llu]", op, o->lat_mean_ns,
                   (unsigned long long)o->lat_min_ns, (unsigned long long)o->lat_max_ns);
        FUZZ_CHECK(o->lat_p50_ns <= o->lat_p90_ns && o->lat_p90_ns <= o->lat_p99_ns &&
                       o->lat_p99_ns <= o->lat_p99_9_ns && o->lat_p99_9_ns <= o->lat_p99_99_ns,
                   "op %d: percentiles out of order", op);
        FUZZ_CHECK(o->lat_stddev_ns >= 0, "op %d: stddev %g", op, o->lat_stddev_ns);
    }
    FUZZ_CHECK(s[0].count + s[1].count + s[2].count == s[3].count, "counts do not add up");
    FUZZ_CHECK(s[0].bytes + s[1].bytes + s[2].bytes == s[3].bytes, "bytes do not add up");
}

static void check_devices(ssdsim *sim)
{
    const struct ssdsim__sys *sys = &sim->sys;
    const struct ssdsim_model *dm = sys->dev_model;
    for (uint32_t k = 0; k < ssdsim_n_devices(sim); k++) {
        ssdsim_device_io io;
        FUZZ_CHECK(ssdsim_get_device_io(sim, k, &io) == 0, "device %u", k);
        const struct ssdsim__dev *d = &sys->devs[k];
        if (!d->ssd) {
            FUZZ_CHECK(io.flash_pages_programmed == 0, "a disk programmed flash");
            continue;
        }
        FUZZ_CHECK(io.flash_pages_programmed + io.buffer_absorbed >= io.host_pages_written,
                   "device %u: %llu programmed + %llu absorbed < %llu host pages", k,
                   (unsigned long long)io.flash_pages_programmed,
                   (unsigned long long)io.buffer_absorbed,
                   (unsigned long long)io.host_pages_written);
        FUZZ_CHECK(io.gc_pages_copied <= io.flash_pages_programmed, "device %u: GC copies", k);
        uint64_t slots = dm->buffer.size / d->unit + 1;
        FUZZ_CHECK(io.host_pages_written + 2 * slots >= io.bytes[SSDSIM_OP_WRITE] / d->unit,
                   "device %u: %llu host pages for %llu bytes written", k,
                   (unsigned long long)io.host_pages_written,
                   (unsigned long long)io.bytes[SSDSIM_OP_WRITE]);
        const struct ssdsim_ftl_env *env = &d->env;
        if (env->ops == &ssdsim__ftl_page_ops || env->ops == &ssdsim__ftl_dftl_ops)
            FUZZ_CHECK(ssdsim__page_check(env->state) == 0, "device %u: page FTL inconsistent", k);
    }
    ssdsim_device_stats ds;
    FUZZ_CHECK(ssdsim_get_device_stats(sim, &ds) == 0, "device stats");
    uint32_t planes, ppb, psize;
    uint64_t blocks, lpages;
    if (ssdsim_device_shape(sim, &planes, &blocks, &ppb, &psize, &lpages) == 0)
        FUZZ_CHECK(ds.free_blocks <= blocks * ssdsim_n_devices(sim), "%llu free of %llu blocks",
                   (unsigned long long)ds.free_blocks, (unsigned long long)blocks);
    FUZZ_CHECK(ds.host_pages_written == 0 ||
                   ds.waf == (double)ds.flash_pages_programmed / (double)ds.host_pages_written,
               "WAF %g", ds.waf);
}

/* The time series: times and cumulative counts never go back. */
static void check_intervals(const ssdsim *sim)
{
    ssdsim_interval prev;
    memset(&prev, 0, sizeof prev);
    for (size_t i = 0; i < ssdsim_n_intervals(sim); i++) {
        ssdsim_interval iv;
        FUZZ_CHECK(ssdsim_get_interval(sim, i, &iv) == 0, "interval %zu", i);
        FUZZ_CHECK(iv.t_ns >= prev.t_ns, "interval %zu ends before the one before", i);
        FUZZ_CHECK(iv.host_pages_written >= prev.host_pages_written &&
                       iv.flash_pages_programmed >= prev.flash_pages_programmed &&
                       iv.host_bytes_written >= prev.host_bytes_written,
                   "interval %zu: cumulative counts went back", i);
        prev = iv;
    }
}

/* How a run is made: the directives of the input. */
struct plan {
    bool seq, steady;
    uint64_t idle_ns, interval_ios;
};

/* One simulation; returns its results JSON (NULL when the run failed). */
static char *simulate(const ssdsim_model *m, const ssdsim_workload *wl, const struct plan *p,
                      bool check)
{
    ssdsim *sim = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_new(&sim, m, 42, &err);
    if (rc != 0) {
        FUZZ_CHECK(rc < 0 && err.message[0], "ssdsim_new failed without a reason");
        return NULL;
    }
    char *json = NULL;
    if (p->seq)
        rc = ssdsim_precondition_seq(sim);
    if (rc == 0) {
        ssdsim_run_opts o;
        memset(&o, 0, sizeof o);
        o.interval_ios = p->interval_ios;
        if (p->interval_ios && p->steady) {
            o.until_steady = 1;
            o.max_rounds = 20;
        }
        rc = ssdsim_run(sim, wl, &o);
    }
    if (rc == 0 && check)
        check_intervals(sim);
    if (rc == 0 && p->idle_ns)
        rc = ssdsim_idle(sim, p->idle_ns);
    if (rc != 0) {
        FUZZ_CHECK(rc < 0 && ssdsim_errmsg(sim)[0], "run failed (%d) without a message", rc);
        if (getenv("FUZZ_DEBUG"))
            fprintf(stderr, "fuzz_sim: %s\n", ssdsim_errmsg(sim));
    } else {
        if (check) {
            check_op_stats(sim);
            check_devices(sim);
        }
        json = ssdsim_results_json(sim);
        FUZZ_CHECK(json != NULL, "no results JSON");
        char *fio = ssdsim_results_fio_json(sim, wl);
        FUZZ_CHECK(fio != NULL, "no fio JSON");
        free(fio);
    }
    ssdsim_free(sim);
    return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char *line = text, *next;
    ssdsim_error err;
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = '\0';
    ssdsim_model *m = base_model(text);
    if (nl)
        *nl = '\n';
    ssdsim_workload *wl = NULL;
    FUZZ_CHECK(ssdsim_workload_load_string(&wl, base_workload, "fuzz-workload", &err) == 0, "%s",
               err.message);
    struct plan plan;
    memset(&plan, 0, sizeof plan);
    const bool debug = getenv("FUZZ_DEBUG") != NULL; /* say what happened to each input */
    for (int n = 0; *line && n < 32; n++, line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        else
            next = line + strlen(line);
        if (strcmp(line, "!seq") == 0) {
            plan.seq = true;
            continue;
        }
        if (strcmp(line, "!steady") == 0) {
            plan.steady = true;
            continue;
        }
        if (strncmp(line, "!idle=", 6) == 0) {
            plan.idle_ns = strtoull(line + 6, NULL, 10) % 1000000 * 1000;
            continue;
        }
        if (strncmp(line, "!interval=", 10) == 0) {
            plan.interval_ios = strtoull(line + 10, NULL, 10) % 1000 + 1;
            continue;
        }
        char *eq = strchr(line, '=');
        if (line[0] == '#' || !eq)
            continue;
        *eq = '\0';
        int rc = line[0] == '@' ? ssdsim_model_set(m, line + 1, eq + 1, &err)
                                : ssdsim_workload_set(wl, line, eq + 1, &err);
        if (rc != 0 && debug)
            fprintf(stderr, "fuzz_sim: %s\n", err.message);
    }
    if (model_small(m) && workload_small(wl)) {
        /* The model round-trips through its canonical JSON. */
        char *json = ssdsim_model_to_json(m);
        FUZZ_CHECK(json != NULL, "no canonical JSON");
        ssdsim_model *again = NULL;
        FUZZ_CHECK(ssdsim_model_load_string(&again, json, "<canonical>", &err) == 0,
                   "canonical JSON does not load: %s", err.message);
        char *json2 = ssdsim_model_to_json(again);
        FUZZ_CHECK(json2 && strcmp(json, json2) == 0, "canonical JSON changed on reload");
        free(json2);
        ssdsim_model_free(again);
        free(json);

        char *r1 = simulate(m, wl, &plan, true);
        if (debug)
            fprintf(stderr, "fuzz_sim: %s\n", r1 ? "ran" : "the run failed");
        char *r2 = simulate(m, wl, &plan, false);
        FUZZ_CHECK((r1 == NULL) == (r2 == NULL), "one of two identical runs failed");
        FUZZ_CHECK(!r1 || strcmp(r1, r2) == 0, "same model, workload and seed, other results");
        free(r1);
        free(r2);
    } else if (debug) {
        fprintf(stderr, "fuzz_sim: too large to run\n");
    }
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
    free(text);
    return 0;
}
