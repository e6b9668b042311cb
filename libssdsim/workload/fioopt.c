/* fioopt.c: the table of every fio option (simulated, ignored or refused) and applying one
 * option to a job: looking it up by name or alias (with a "did you mean" for an unknown one),
 * checking the value of an ignored or refused option, and calling a simulated option's setter.
 * The setters are in fioopt_set.c, fioopt_size.c, fioopt_pattern.c, fioopt_ss.c and
 * fioopt_dev.c (fioopt_int.h), values are read by fioval.c; a job's defaults, copies and checks
 * against a device are in jobspec.c.
 *
 * The JSON workload loader (workload.c) and the fio job-file reader (jobfile.c) share the table,
 * so values follow fio's syntax, with a few deliberate differences, each marked "Differs from
 * fio" in the setters or in fioval.c. Where fio and the JSON reading disagree about a
 * well-formed value ("4KiB", "1.5g"), a job file is refused rather than read differently from
 * fio (fioopt_jobfile.c).
 *
 * Every option fio 3.33 has is in the table: simulated (parsed into the jobspec), ignored (it
 * changes only how the host CPU issues I/O, the data written or what fio reports, so the
 * simulated device sees the same requests; accepted and listed in results), or refused with the
 * reason (it changes addresses, sizes, timing or the op mix in a way not simulated yet), except
 * for its no-op values (fsync=0). Anything else is unknown, with a "did you mean" suggestion.
 *
 * Errors are one-line reasons written into a caller buffer, without the file or the option
 * name, which the caller adds. Only the jobspec's strings are allocated.
 */
#include "config/jsonutil.h"
#include "workload/fioopt_int.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define IODEPTH_MAX 65536
#define NUMJOBS_MAX 4096 /* fio's MAX_JOBS */

/* ------------------------------------------------------------------------------------------ */
/* The table of fio options                                                                    */

/* One short macro per kind of row keeps each option on one line of the table: SIM names the
 * option's own setter (ssdsim__fio_opt_<opt>), the others a generic setter (ssdsim__fio_<fn>)
 * and the field it stores into (FLD: its offset and size). */
/* clang-format off */
#define K(k) SSDSIM__OPTKIND_##k
#define FLD(field) \
    offsetof(struct ssdsim__jobspec, field), sizeof(((struct ssdsim__jobspec *)0)->field)
#define SIM(n, a, k, opt) \
    {n, a, K(k), SSDSIM__FIO_SIM, ssdsim__fio_opt_##opt, 0, 0, 0, NULL, NULL, 0, 0}
#define SIMF(n, a, k, fn, field) \
    {n, a, K(k), SSDSIM__FIO_SIM, ssdsim__fio_##fn, FLD(field), 0, NULL, NULL, 0, 0}
#define SIMT(n, a, field, unit) \
    {n, a, K(TIME), SSDSIM__FIO_SIM, ssdsim__fio_set_time, FLD(field), unit, NULL, NULL, 0, 0}
#define SIMU(n, a, fn, field, lo, hi) \
    {n, a, K(INT), SSDSIM__FIO_SIM, ssdsim__fio_##fn, FLD(field), 0, NULL, NULL, lo, hi}
#define IGN(n, a, k) {n, a, K(k), SSDSIM__FIO_IGNORE, NULL, 0, 0, 0, NULL, NULL, 0, 0}
#define REF(n, a, k, noop, why) {n, a, K(k), SSDSIM__FIO_REFUSE, NULL, 0, 0, 0, noop, why, 0, 0}
/* clang-format on */

/* Every option of fio 3.33 (fio --cmdhelp=all, with the aliases of its HOWTO) and the common
 * I/O-engine options. A linear search: options are applied while loading, never while
 * simulating. Names and aliases are case-sensitive, as in fio. */
static const struct ssdsim__fio_optdef options[] = {
    /* ---- Simulated: parsed into the jobspec (workload.h says what each field means). */
    SIM("rw", "readwrite", SIZE, rw),
    SIM("bs", "blocksize", SIZE, bs),
    SIM("ba", "blockalign", SIZE, ba),
    SIM("bsrange", "blocksize_range", SIZE, bsrange),
    SIM("bssplit", NULL, SIZE, bssplit),
    SIMU("rwmixread", NULL, set_uint, rwmixread, 0, 100),
    SIM("rwmixwrite", NULL, INT, rwmixwrite),
    SIMU("iodepth", NULL, set_iodepth, iodepth_asked, 1, IODEPTH_MAX),
    SIM("ioengine", NULL, STR, ioengine),
    /* Differs from fio: fio accepts numjobs=0 (no job runs); a job that does nothing is refused. */
    SIMU("numjobs", NULL, set_uint, numjobs, 1, NUMJOBS_MAX),
    SIM("size", NULL, SIZE, size),
    SIM("offset", "fileoffset", SIZE, offset),
    SIM("offset_increment", NULL, SIZE, offset_increment),
    SIM("offset_align", NULL, SIZE, offset_align),
    SIM("io_size", "io_limit", SIZE, io_size),
    /* number_ios=0 is fio's default: not set. */
    SIMU("number_ios", NULL, set_uint, number_ios, 0, UINT64_MAX),
    SIM("loops", NULL, INT, loops),
    SIMT("runtime", "timeout", runtime_ns, SSDSIM__NS_PER_S),
    SIMF("time_based", NULL, FLAG, set_bool, time_based),
    SIMT("ramp_time", NULL, ramp_time_ns, SSDSIM__NS_PER_S),
    SIMT("startdelay", NULL, startdelay_ns, SSDSIM__NS_PER_S),
    SIM("random_distribution", NULL, MIXED, random_distribution),
    SIMU("percentage_random", NULL, set_dirs, percentage_random, 0, 100),
    SIMF("norandommap", NULL, FLAG, set_bool, norandommap),
    SIMF("randrepeat", NULL, BOOL, set_bool, randrepeat),
    SIM("randseed", NULL, INT, randseed),
    SIMT("thinktime", NULL, thinktime_ns, SSDSIM__NS_PER_US), /* microseconds by default */
    /* Differs from fio, which accepts 0: the stall needs at least one I/O between. */
    SIMU("thinktime_blocks", NULL, set_uint, thinktime_blocks, 1, UINT32_MAX),
    SIMU("fsync", NULL, set_uint, fsync_blocks, 0, UINT32_MAX),
    SIMU("fdatasync", NULL, set_uint, fdatasync_blocks, 0, UINT32_MAX),
    SIMU("write_barrier", NULL, set_uint, barrier_blocks, 0, UINT32_MAX),
    SIM("sync", NULL, STR, sync),
    SIM("queue", NULL, INT, queue), /* ssdsim's own: fio has no such option */
    SIM("placement", NULL, INT, placement), /* ssdsim's own */
    SIMF("fdp", NULL, BOOL, set_bool, fdp),         /* fio 3.35 */
    SIM("fdp_pli", NULL, STR, fdp_pli),         /* fio 3.35 */
    SIM("fdp_pli_select", NULL, STR, fdp_pli_select), /* fio 3.35 */
    SIM("zonemode", NULL, STR, zonemode),
    SIMF("zonesize", NULL, SIZE, set_zone_bytes, zbd_zone_size),
    SIMF("zonecapacity", NULL, SIZE, set_zone_bytes, zbd_zone_capacity),
    SIM("zonerange", NULL, SIZE, zonerange),
    SIMF("zoneskip", NULL, SIZE, set_zone_bytes, zbd_zone_skip),
    SIMU("max_open_zones", NULL, set_uint, zbd_max_open, 0, 1000000),
    SIMU("job_max_open_zones", NULL, set_uint, zbd_max_open, 0, 1000000),
    SIMU("rate_iops", NULL, set_dirs, rate_iops, 0, UINT64_MAX),
    SIMF("rate", NULL, SIZE, set_dirs, rate_bytes),
    SIM("rate_process", NULL, STR, rate_process),
    SIMF("stonewall", "wait_for_previous", FLAG, set_bool, stonewall),
    SIMF("new_group", NULL, FLAG, set_bool, new_group),
    SIMF("group_reporting", NULL, FLAG, set_bool, group_reporting),
    SIM("steadystate", "ss", MIXED, ss),
    SIMT("steadystate_duration", "ss_dur", ss_dur_ns, SSDSIM__NS_PER_S),
    SIMT("steadystate_ramp_time", "ss_ramp", ss_ramp_ns, SSDSIM__NS_PER_S),
    SIM("read_iolog", NULL, STR, read_iolog),
    SIMF("replay_no_stall", NULL, BOOL, set_bool, replay_no_stall),
    SIMF("write_iops_log", NULL, LOGNAME, set_logname, write_iops_log),
    SIMF("write_lat_log", NULL, LOGNAME, set_logname, write_lat_log),
    SIMF("write_bw_log", NULL, LOGNAME, set_logname, write_bw_log),
    SIMU("log_avg_msec", NULL, set_uint, log_avg_msec, 0, UINT64_MAX / SSDSIM__NS_PER_MS),
    SIM("name", NULL, STR, name),

    /* ---- Ignored: the simulated device sees the same requests either way. */
    /* What fio's results print, not what is measured. */
    IGN("description", NULL, STR),
    /* Which file or device fio opens, and how: ssdsim simulates its one device. (ioengine is
     * simulated above: a synchronous engine keeps one I/O in flight, whatever iodepth says.) */
    IGN("filename", NULL, STR),
    IGN("directory", NULL, STR),
    IGN("filename_format", NULL, STR),
    IGN("unique_filename", NULL, BOOL),
    IGN("thread", NULL, FLAG),
    IGN("file_service_type", NULL, STR),
    IGN("openfiles", NULL, INT),
    /* Host operating system and page cache: ssdsim has no OS between job and device. */
    IGN("direct", NULL, BOOL),
    IGN("buffered", NULL, BOOL),
    IGN("atomic", NULL, BOOL),
    IGN("invalidate", NULL, BOOL),
    IGN("fadvise_hint", NULL, STR),
    IGN("write_hint", NULL, STR),
    IGN("ioscheduler", NULL, STR),
    IGN("fallocate", NULL, STR),
    IGN("overwrite", NULL, BOOL),
    IGN("create_serialize", NULL, BOOL),
    IGN("create_fsync", NULL, BOOL),
    IGN("create_on_open", NULL, BOOL),
    IGN("allow_file_create", NULL, BOOL),
    IGN("allow_mounted_write", NULL, BOOL),
    IGN("unlink", NULL, BOOL),
    IGN("unlink_each_loop", NULL, BOOL),
    /* Host CPU, memory and process placement. */
    IGN("cpumask", NULL, INT),
    IGN("cpus_allowed", NULL, STR),
    IGN("cpus_allowed_policy", NULL, STR),
    IGN("numa_cpu_nodes", NULL, STR),
    IGN("numa_mem_policy", NULL, STR),
    IGN("nice", NULL, STR), /* STR: fio's range is -20..19 */
    IGN("prio", NULL, INT),
    IGN("prioclass", NULL, INT),
    IGN("cgroup", NULL, STR),
    IGN("cgroup_nodelete", NULL, BOOL),
    IGN("cgroup_weight", NULL, INT),
    IGN("uid", NULL, INT),
    IGN("gid", NULL, INT),
    IGN("lockmem", NULL, STR),
    IGN("mem", "iomem", STR),
    IGN("hugepage-size", NULL, INT),
    IGN("gtod_cpu", NULL, INT),
    IGN("gtod_reduce", NULL, BOOL),
    IGN("clocksource", NULL, STR),
    IGN("exec_prerun", NULL, STR), /* a command fio runs; ssdsim runs none (doc/fio.md) */
    IGN("exec_postrun", NULL, STR),
    /* How submissions and completions are batched in system calls: CPU work, same requests. */
    IGN("iodepth_batch", "iodepth_batch_submit", INT),
    IGN("iodepth_batch_complete_max", NULL, INT),
    IGN("userspace_reap", NULL, FLAG), /* libaio */
    IGN("hipri", NULL, FLAG),          /* io_uring: polled completions */
    IGN("sqthread_poll", NULL, FLAG),
    IGN("sqthread_poll_cpu", NULL, INT),
    IGN("fixedbufs", NULL, FLAG),
    IGN("registerfiles", NULL, FLAG),
    IGN("nonvectored", NULL, INT),
    IGN("uncached", NULL, INT),
    IGN("nowait", NULL, BOOL),
    IGN("force_async", NULL, INT),
    IGN("thinktime_spin", NULL, TIME), /* part of the thinktime stall, which lasts as long */
    /* Data content: the simulated flash stores no data (no compression or deduplication). */
    IGN("zero_buffers", NULL, FLAG),
    IGN("refill_buffers", NULL, FLAG),
    IGN("scramble_buffers", NULL, BOOL),
    IGN("buffer_pattern", NULL, STR),
    IGN("buffer_compress_percentage", NULL, INT),
    IGN("buffer_compress_chunk", NULL, INT),
    IGN("dedupe_percentage", NULL, INT),
    IGN("dedupe_mode", NULL, STR),
    IGN("dedupe_working_set_percentage", NULL, INT),
    IGN("dedupe_global", NULL, BOOL),
    /* Random numbers: ssdsim draws from its own seeded streams and is always repeatable. */
    IGN("random_generator", NULL, STR),
    IGN("allrandrepeat", NULL, BOOL),
    IGN("softrandommap", NULL, BOOL),
    /* Verification settings only act with verify, which is refused unless 0. */
    IGN("do_verify", NULL, BOOL),
    IGN("verify_interval", NULL, INT),
    IGN("verify_offset", NULL, INT),
    IGN("verify_pattern", NULL, STR),
    IGN("verify_fatal", NULL, BOOL),
    IGN("verify_dump", NULL, BOOL),
    IGN("verify_async", NULL, INT),
    IGN("verify_backlog_batch", NULL, INT),
    IGN("experimental_verify", NULL, BOOL),
    IGN("verify_state_load", NULL, BOOL),
    IGN("verify_state_save", NULL, BOOL),
    IGN("trim_verify_zero", NULL, BOOL),
    IGN("trim_backlog_batch", NULL, INT),
    /* Zoned block devices (zonemode=zbd): no effect on the simulated drive. */
    IGN("read_beyond_wp", NULL, BOOL),
    IGN("ignore_zone_limits", NULL, BOOL),
    IGN("zone_reset_threshold", NULL, MIXED),
    IGN("zone_reset_frequency", NULL, MIXED),
    /* Errors: a simulated request never fails. */
    IGN("continue_on_error", NULL, STR),
    IGN("ignore_error", NULL, STR),
    IGN("error_dump", NULL, BOOL),
    IGN("exitall_on_error", NULL, FLAG),
    IGN("exit_what", NULL, STR), /* acts only with exitall, which is refused */
    /* Limits whose only effect is to end a job with an error when a rate or latency is missed;
     * the simulator reports the rate and latency instead. */
    IGN("rate_min", "ratemin", INT),
    IGN("rate_iops_min", NULL, INT),
    IGN("rate_cycle", "ratecycle", INT),
    IGN("max_latency", NULL, TIME),
    IGN("latency_window", NULL, TIME), /* act only with latency_target, refused unless 0 */
    IGN("latency_percentile", NULL, MIXED),
    IGN("latency_run", NULL, BOOL),
    /* Replay details that do not change the requests replayed. */
    IGN("read_iolog_chunked", NULL, BOOL),
    IGN("replay_redirect", NULL, STR),
    IGN("write_iolog", NULL, STR), /* records the I/O issued; changes none */
    /* Reporting and logging: what fio prints or writes, not what the device does. */
    IGN("per_job_logs", NULL, BOOL),
    IGN("bwavgtime", NULL, INT),
    IGN("iopsavgtime", NULL, INT),
    IGN("log_entries", NULL, INT),
    IGN("log_hist_msec", NULL, INT),
    IGN("log_hist_coarseness", NULL, INT),
    IGN("write_hist_log", NULL, LOGNAME),
    IGN("log_max_value", NULL, BOOL),
    IGN("log_offset", NULL, BOOL),
    IGN("log_prio", NULL, BOOL),
    IGN("log_compression", NULL, INT),
    IGN("log_compression_cpus", NULL, STR),
    IGN("log_store_compressed", NULL, BOOL),
    IGN("log_unix_epoch", NULL, BOOL),
    IGN("log_alternate_epoch", NULL, BOOL),
    IGN("log_alternate_epoch_clock_id", NULL, INT),
    IGN("block_error_percentiles", NULL, BOOL),
    IGN("stats", NULL, BOOL),
    IGN("clat_percentiles", NULL, BOOL),
    IGN("lat_percentiles", NULL, BOOL),
    IGN("slat_percentiles", NULL, BOOL),
    IGN("percentile_list", NULL, MIXED),
    IGN("significant_figures", NULL, INT),
    IGN("disk_util", NULL, BOOL),
    IGN("disable_lat", NULL, BOOL),
    IGN("disable_clat", NULL, BOOL),
    IGN("disable_slat", NULL, BOOL),
    IGN("disable_bw_measurement", "disable_bw", BOOL),
    IGN("unified_rw_reporting", NULL, STR),
    IGN("unit_base", NULL, STR),
    IGN("flow_id", NULL, INT),
    IGN("flow_sleep", NULL, INT), /* act only with flow, refused unless 0 */

    /* ---- Refused: they change the requests or their timing in ways not simulated yet. The
     * values listed first are no-ops, accepted and listed as ignored. */
    REF("sync_file_range", NULL, STR, NULL, "the simulator does not model cache flushes"),
    REF("end_fsync", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("fsync_on_close", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("verify", NULL, STR, "0", "verification reads are not simulated"),
    REF("verify_only", NULL, FLAG, "0", "verification reads are not simulated"),
    REF("verify_backlog", NULL, STR, "0", "verification reads are not simulated"),
    REF("trim_percentage", NULL, INT, "0", "verification trims are not simulated"),
    REF("trim_backlog", NULL, STR, "0", "verification trims are not simulated"),
    REF("fill_device", "fill_fs", BOOL, "0",
        "writing until the device is full is not simulated; use size"),
    REF("file_append", NULL, BOOL, "0", "the simulated device has no files to append to"),
    REF("filesize", NULL, STR, NULL,
        "it sizes the files fio creates; the simulator addresses one device: use size"),
    REF("nrfiles", "nr_files", INT, "1", "the simulator addresses one device, not files"),
    REF("opendir", NULL, STR, NULL, "the simulator addresses one device, not files"),
    REF("lockfile", NULL, STR, "none", "file locking between jobs is not simulated"),
    REF("bs_unaligned", "blocksize_unaligned", FLAG, "0",
        "block sizes are multiples of 512 bytes in the simulator"),
    REF("bs_is_seq_rand", NULL, BOOL, "0", "sequential/random block sizes are not simulated"),
    REF("rw_sequencer", NULL, STR, "sequential", "repeating an offset is not simulated"),
    REF("iodepth_low", NULL, INT, "0",
        "the simulated host refills its queue as soon as an I/O completes"),
    REF("iodepth_batch_complete_min", "iodepth_batch_complete", INT, "0|1",
        "the simulated host reaps each completion as it arrives"),
    REF("serialize_overlap", NULL, BOOL, "0", "holding back overlapping I/Os is not simulated"),
    REF("io_submit_mode", NULL, STR, "inline", "offloaded submission is not simulated"),
    REF("create_only", NULL, BOOL, "0", "a job that only lays out files does no I/O here"),
    REF("pre_read", NULL, BOOL, "0", "reading files into the page cache first is not simulated"),
    REF("thinktime_blocks_type", NULL, STR, "complete",
        "the thinktime stall is counted from completions only"),
    REF("thinktime_iotime", NULL, TIME, "0", "time-based thinktime is not simulated yet"),
    REF("rate_ignore_thinktime", NULL, BOOL, "0", "the rate counts thinktime in the simulator"),
    REF("latency_target", NULL, TIME, "0",
        "searching a queue depth for a latency target is not "
        "simulated yet"),
    REF("replay_scale", NULL, INT, "1", "scaling replayed offsets is not simulated"),
    REF("replay_align", NULL, INT, "0", "aligning replayed offsets is not simulated"),
    REF("replay_time_scale", NULL, INT, "100", "scaling replay timing is not simulated"),
    REF("replay_skip", NULL, STR, NULL, "skipping replayed operations is not simulated"),
    REF("merge_blktrace_file", NULL, STR, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_scalars", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_iters", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("exitall", NULL, FLAG, "0", "ending the other jobs when one finishes is not simulated"),
    REF("wait_for", NULL, STR, NULL,
        "waiting for a named job is not simulated; order jobs with stonewall"),
    REF("flow", NULL, INT, "0", "token-based flow control between jobs is not simulated"),
    REF("profile", NULL, STR, NULL, "fio's built-in profiles are not simulated"),
    REF("kb_base", NULL, STR, "1024", "kb_base=1000 would change how every size is read"),
};

static const struct ssdsim__fio_optdef *find_option(const char *key)
{
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++)
        if (!strcmp(key, options[i].name) || (options[i].alias && !strcmp(key, options[i].alias)))
            return &options[i];
    return NULL;
}

/* fio prints an option under its canonical name; these are the aliases fio 3.x knows for it
 * (fio --cmdhelp) among the options a job file may hold. */
const char *ssdsim__fio_canonical_name(const char *key)
{
    static const char *const alias[][2] = {
        {"readwrite", "rw"},
        {"blocksize", "bs"},
        {"blocksize_range", "bsrange"},
        {"blockalign", "ba"},
        {"blocksize_unaligned", "bs_unaligned"},
        {"timeout", "runtime"},
        {"io_limit", "io_size"},
        {"fileoffset", "offset"},
        {"ss", "steadystate"},
        {"ss_dur", "steadystate_duration"},
        {"ss_ramp", "steadystate_ramp_time"},
        {"wait_for_previous", "stonewall"},
        {"ratemin", "rate_min"},
        {"ratecycle", "rate_cycle"},
        {"nr_files", "nrfiles"},
        {"iomem", "mem"},
        {"fill_fs", "fill_device"},
        {"disable_bw", "disable_bw_measurement"},
        {"iodepth_batch_submit", "iodepth_batch"},
        {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(alias); i++)
        if (!strcmp(key, alias[i][0]))
            return alias[i][1];
    return key;
}

const char *ssdsim__fio_option_lookup(const char *key, enum ssdsim__optkind *kind)
{
    const struct ssdsim__fio_optdef *o = key ? find_option(key) : NULL;
    if (o && kind)
        *kind = o->kind;
    return o ? o->name : NULL;
}

static void unknown_option(const char *key, char *errbuf, size_t errlen)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++) {
        const char *names[2] = {options[i].name, options[i].alias};
        for (size_t k = 0; k < 2; k++) {
            if (!names[k])
                continue;
            size_t d = ssdsim__edit_distance(key, names[k]);
            if (d < best_d) {
                best_d = d;
                best = names[k];
            }
        }
    }
    /* Suggest only what is plausibly a typo: a third of the key's letters, at least two. */
    if (best && best_d <= SSDSIM__MAX((size_t)2, strlen(key) / 3))
        ssdsim__fio_fail(errbuf, errlen, "unknown option (did you mean '%s'?)", best);
    else
        ssdsim__fio_fail(errbuf, errlen, "unknown option");
}

/* The value of an ignored or refused option, checked as fio checks it (a bool is 0 or 1, a flag
 * is empty or an integer, integers and times parse, per direction too), and whether it is one of
 * the option's no-op values. */
static int check_value(const struct ssdsim__fio_optdef *o, const char *value, bool *noop,
                       char *errbuf, size_t errlen)
{
    char norm[48];
    const char *s = value ? value : "";
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
    snprintf(norm, sizeof norm, "%.*s", (int)SSDSIM__MIN(len, sizeof norm - 1), s);
    *noop = false;
    bool b = false;
    int rc = 0;
    switch (o->kind) {
    case SSDSIM__OPTKIND_FLAG:
        rc = ssdsim__fio_parse_flag(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_BOOL:
        rc = ssdsim__fio_parse_bool(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_INT:
    case SSDSIM__OPTKIND_SIZE:
    case SSDSIM__OPTKIND_TIME: {
        struct ssdsim__fio_dirs dirs;
        rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
        for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++) {
            uint64_t v = 0;
            if (!dirs.set[d])
                continue;
            if (o->kind == SSDSIM__OPTKIND_TIME)
                rc = ssdsim__fio_parse_time_ns(dirs.part[d], SSDSIM__NS_PER_S, &v, errbuf, errlen);
            else if (!ssdsim__fio_uint_ok(dirs.part[d], &v))
                rc = ssdsim__fio_fail(errbuf, errlen, "expected an integer, got '%s'", q.text);
            if (rc == 0 && !strchr(s, ','))
                snprintf(norm, sizeof norm, "%llu", (unsigned long long)v);
        }
        if (rc == 0 && !dirs.set[0] && !dirs.set[1] && !dirs.set[2])
            rc = ssdsim__fio_fail(errbuf, errlen, "expected a value, got '%s'", q.text);
        break;
    }
    default:
        break;
    }
    if (rc)
        return rc;
    for (const char *t = o->noop; t && *t;) {
        const char *bar = strchr(t, '|');
        size_t n = bar ? (size_t)(bar - t) : strlen(t);
        if (ssdsim__fio_word_is(t, n, norm))
            *noop = true;
        t = bar ? bar + 1 : t + n;
    }
    return 0;
}

int ssdsim__jobspec_apply(struct ssdsim__jobspec *job, const char *key, const char *value,
                          char *errbuf, size_t errlen)
{
    if (errbuf && errlen > 0)
        errbuf[0] = '\0';
    if (!job || !key)
        return ssdsim__fio_fail(errbuf, errlen, "no option name");
    const struct ssdsim__fio_optdef *o = find_option(key);
    if (!o) {
        unknown_option(key, errbuf, errlen);
        return SSDSIM_ENOTFOUND;
    }
    /* Only fio's "empty or boolean" options and the log prefixes may be given without a value
     * ("time_based", "write_bw_log"); fio says the others require an argument. */
    if (!value && o->kind != SSDSIM__OPTKIND_FLAG && o->kind != SSDSIM__OPTKIND_LOGNAME)
        return ssdsim__fio_fail(errbuf, errlen, "a value is required");
    bool noop = false;
    int rc;
    switch (o->cls) {
    case SSDSIM__FIO_SIM:
        /* Each option checks its value completely before storing it, so a failed apply leaves
         * the job as it was. */
        return o->apply(o, job, value, errbuf, errlen);
    case SSDSIM__FIO_IGNORE:
        rc = check_value(o, value, &noop, errbuf, errlen);
        return rc ? rc : SSDSIM__IGNORED;
    default:
        rc = check_value(o, value, &noop, errbuf, errlen);
        if (rc || noop)
            return rc ? rc : SSDSIM__IGNORED;
        if (o->noop) {
            const char *bar = strchr(o->noop, '|');
            return ssdsim__fio_fail(
                errbuf, errlen, "not supported: %s (only %s=%.*s is accepted)", o->why, o->name,
                (int)(bar ? (size_t)(bar - o->noop) : strlen(o->noop)), o->noop);
        }
        return ssdsim__fio_fail(errbuf, errlen, "not supported: %s", o->why);
    }
}
