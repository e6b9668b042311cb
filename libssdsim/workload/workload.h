/* workload.h: workloads described with fio's option names and values: one or more jobs.
 *
 * fioval.c parses fio option values ("4k", "512/10:4k/60:64k/30", "50%", "10m") and fioopt.c
 * applies one option to a job (its setters in fioopt_*.c); the JSON workload loader
 * (workload.c) and the fio job-file reader (jobfile.c) share them. gen.c turns a job into a
 * stream of requests.
 */
#ifndef SSDSIM_WORKLOAD_H
#define SSDSIM_WORKLOAD_H

#include "common.h"

enum ssdsim__rw {
    SSDSIM__RW_READ,      /* sequential read */
    SSDSIM__RW_WRITE,     /* sequential write */
    SSDSIM__RW_RANDREAD,
    SSDSIM__RW_RANDWRITE,
    SSDSIM__RW_RANDRW,    /* random mixed, rwmixread % reads */
    SSDSIM__RW_RW,        /* sequential mixed ("rw" or "readwrite") */
    SSDSIM__RW_TRIM,      /* sequential trim */
    SSDSIM__RW_RANDTRIM,
};

#define SSDSIM__BSSPLIT_MAX 64
#define SSDSIM__ZONES_MAX 64

/* The largest workload file (a JSON workload, or a job file with everything it includes):
 * 64 MiB, far beyond any real one, so that a device or an endless FIFO given as a workload is
 * refused instead of read until memory runs out. */
#define SSDSIM__WORKLOAD_MAX_BYTES (64u * 1024 * 1024)

/* Directions, as fio indexes its per-direction options ("bs=4k,8k,16k" = read,write,trim). */
enum { SSDSIM__DIR_READ = 0, SSDSIM__DIR_WRITE = 1, SSDSIM__DIR_TRIM = 2, SSDSIM__N_DIRS = 3 };

struct ssdsim__bs_entry {
    uint32_t bytes;
    uint32_t percent; /* 0..100; entries sum to 100 */
};

/* The block sizes of one direction: a split (bs gives one entry of 100%; bssplit several), or
 * with range_max > 0 (bsrange) a size drawn uniformly from [range_min, range_max] in multiples
 * of range_min. */
struct ssdsim__bsdist {
    uint32_t n;
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    uint32_t range_min, range_max;
};

/* random_distribution */
enum ssdsim__dist {
    SSDSIM__DIST_RANDOM = 0, /* uniform */
    SSDSIM__DIST_ZIPF,       /* zipf:theta (dist_param = theta) */
    SSDSIM__DIST_PARETO,     /* pareto:h (dist_param = h) */
    SSDSIM__DIST_NORMAL,     /* normal:dev (dist_param = dev, percent of the region) */
    SSDSIM__DIST_ZONED,      /* zoned:A/R:... ranges in percent of the region */
    SSDSIM__DIST_ZONED_ABS,  /* zoned_abs:A/SIZE:... ranges in bytes */
};

/* ss= steady-state criterion */
enum ssdsim__ss { SSDSIM__SS_NONE = 0, SSDSIM__SS_IOPS, SSDSIM__SS_IOPS_SLOPE, SSDSIM__SS_BW,
                  SSDSIM__SS_BW_SLOPE };

enum ssdsim__rate_process { SSDSIM__RATE_LINEAR = 0, SSDSIM__RATE_POISSON = 1 };

/* One fio job section: what fio calls a job, with its options resolved (globals applied).
 * numjobs clones of it run, each with its own random stream and, with offset_increment, its own
 * region. Defaults are fio's (ssdsim__jobspec_defaults). */
/* fdp_pli lists at most this many ids: every handle of the largest FDP model
 * (SSDSIM__FDP_MAX_HANDLES, config/model.h) */
#define SSDSIM__PLACEMENTS_MAX 64

struct ssdsim__jobspec {
    char *name;       /* section name; owned; NULL for a JSON workload ("job" in results) */
    uint32_t line;    /* line of the section header in the job file (0 for JSON) */
    enum ssdsim__rw rw;
    /* rw=...:N. Sequential patterns: a gap of N bytes after each I/O. Random patterns: N I/Os
     * at consecutive offsets per random offset. 0 = none. */
    uint64_t rw_suffix;
    struct ssdsim__bsdist bs[SSDSIM__N_DIRS]; /* per direction; each has n >= 1 or a range */
    uint32_t rwmixread; /* percent of reads in mixed workloads (default 50) */
    uint32_t iodepth;   /* outstanding I/Os per job as run: iodepth_asked, or 1 (sync_engine) */
    uint32_t iodepth_asked; /* iodepth as written (default 1) */
    /* The synchronous fio ioengine the job runs with (a static name, never owned), or NULL: an
     * asynchronous one, or none given in a JSON workload or through the builder (ssdsim's
     * default queues requests). A job file without ioengine has fio's default, psync
     * (sync_engine_default). fio caps iodepth at 1 for such an engine, and so does
     * ssdsim__jobspec_fix_iodepth. */
    const char *sync_engine;
    bool sync_engine_default;
    uint32_t numjobs;   /* default 1 */
    /* Region each job works on: [offset + k * offset_increment, ... + size) for clone k. A
     * percentage (> 0) is resolved against the device's logical capacity when the run starts.
     * size 0 = to the end of the device. */
    uint64_t size_bytes;
    double size_percent;
    uint64_t offset_bytes;
    double offset_percent;
    uint64_t offset_increment_bytes;
    double offset_increment_percent;
    /* offset_align: what a percentage offset or offset_increment is aligned up to (a multiple
     * of 512); 0 = the job's smallest block size, as in fio */
    uint64_t offset_align;
    /* How much I/O a job does: number_ios requests if set; else io_size bytes if set (may
     * exceed the region: the job wraps), else loops x the region's size; time_based ignores
     * these and runs for runtime. runtime caps any of them. */
    uint64_t number_ios;  /* 0 = not set */
    uint64_t io_size_bytes; /* 0 = not set */
    double io_size_percent;
    uint32_t loops;       /* default 1 */
    uint64_t runtime_ns;  /* simulated; 0 = not set */
    bool time_based;
    uint64_t ramp_time_ns; /* statistics start after this (per job, from its start) */
    uint64_t startdelay_ns; /* fio's startdelay: the job starts no earlier than this after the
                               run's start (fio's genesis), nor before its wave */
    /* Random offsets */
    uint64_t randseed;
    bool has_randseed;
    bool randrepeat; /* default true: the same seed every run (ours always is deterministic) */
    bool norandommap; /* false (fio's default): a random job touches every block of its region
                         once per pass before repeating one */
    /* ba (blockalign) per direction, bytes: random offsets are multiples of it (0 = not set:
     * the smallest block size). Setting it turns the random map off, as in fio. */
    uint32_t blockalign[SSDSIM__N_DIRS];
    enum ssdsim__dist dist;
    double dist_param;
    uint32_t n_zones; /* zoned / zoned_abs */
    uint32_t zone_access[SSDSIM__ZONES_MAX];  /* percent of accesses */
    uint32_t zone_range[SSDSIM__ZONES_MAX];   /* zoned: percent of the region */
    uint64_t zone_bytes[SSDSIM__ZONES_MAX];   /* zoned_abs: bytes */
    uint32_t percentage_random[SSDSIM__N_DIRS]; /* default 100; random patterns only */
    /* Pacing */
    uint64_t thinktime_ns;      /* after every thinktime_blocks I/Os the job stalls this long */
    uint32_t thinktime_blocks;  /* default 1 */
    uint64_t rate_iops[SSDSIM__N_DIRS]; /* 0 = unlimited */
    uint64_t rate_bytes[SSDSIM__N_DIRS]; /* bytes per second, 0 = unlimited */
    enum ssdsim__rate_process rate_process;
    /* Flush and FUA (dev/flush.c): a flush after every fsync (and every fdatasync) writes, each
     * write_barrier-th write preceded by a flush and written with FUA, every write with FUA
     * (sync=1|sync|dsync); 0 / false = none */
    uint32_t fsync_blocks, fdatasync_blocks, barrier_blocks;
    bool sync_writes;
    /* The NVMe queue pair of its clones (ssdsim's option `queue`, not fio's); without it clone
     * k of the run uses queue k mod nvme.queues */
    uint32_t queue;
    bool have_queue;
    /* Flexible Data Placement: the placement ids of its writes (ssdsim's `placement`, or fio's
     * fdp=1 with fdp_pli; fdp=1 alone: every handle of the drive), used in turn or at random
     * (fdp_pli_select); placement_opt names the option that set them, for messages */
    uint32_t placements[SSDSIM__PLACEMENTS_MAX];
    uint32_t n_placements;
    bool fdp, pli_random;
    bool placement_given; /* ssdsim's `placement` was given (it conflicts with fdp=1) */
    const char *placement_opt;
    /* fio's zonemode=zbd (dev/zns.c): writes go to their zone's write pointer, a full zone is
     * reset first, at most zbd_max_open zones are written at once (0: the drive's limit);
     * zonesize and zonecapacity, when given, must be the drive's; zoneskip (a multiple of the
     * drive's zone size, sequential patterns only) skips that many bytes after each zone */
    bool zbd;
    uint32_t zbd_max_open;
    uint64_t zbd_zone_size, zbd_zone_capacity, zbd_zone_skip;
    /* Issues nothing (ssdsim_workload_keep_job of another job) */
    bool off;
    /* Ordering and reporting */
    bool stonewall;       /* start after every earlier job has finished (also wait_for_previous) */
    bool new_group;       /* start a new reporting group */
    bool group_reporting; /* report the group as one job */
    /* Steady-state stop (fio's ss, ss_dur, ss_ramp) */
    enum ssdsim__ss ss;
    double ss_limit;      /* the criterion's limit */
    bool ss_limit_percent; /* limit is a percentage of the window's mean */
    uint64_t ss_dur_ns;   /* window; fio requires it with ss */
    uint64_t ss_ramp_ns;  /* not judged before this */
    /* Replay instead of generating (read_iolog); owned strings, NULL when not set */
    char *read_iolog;
    bool replay_no_stall; /* ignore the log's timestamps */
    /* Per-job logs fio would write (the CLI writes them): prefixes, NULL when not set */
    char *write_iops_log, *write_lat_log, *write_bw_log;
    uint64_t log_avg_msec; /* 0 = one entry per I/O */
    /* The options as written (globals first, then the section's), for fio's "job options" in
     * results: owned, n_raw pairs; a key given without value has an empty value. */
    char **raw_keys, **raw_values;
    uint32_t n_raw;
};

/* A workload: the jobs of a fio job file, in file order, or the single job of a JSON workload.
 * Jobs run together except where a job has stonewall (it starts when all before it are done). */
struct ssdsim_workload {
    uint32_t magic; /* SSDSIM__MAGIC_WORKLOAD while alive (common.h) */
    char *label; /* file name or label, for messages */
    struct ssdsim__jobspec *jobs;
    uint32_t n_jobs;
    uint32_t cap_jobs; /* room in jobs (ssdsim__workload_add_job doubles it) */
    /* Options accepted but without effect on a simulation (ioengine, direct, ...), distinct,
     * in first-seen order; and with lenient loading, unknown options that were skipped. */
    char **ignored;
    uint32_t n_ignored;
    char **skipped;
    uint32_t n_skipped;
};

/* Initialise a job with fio's defaults (rw=read, bs=4k for every direction, iodepth=1,
 * numjobs=1, rwmixread=50, loops=1, randrepeat=1, percentage_random=100, thinktime_blocks=1).
 * Does not free anything the job held. */
void ssdsim__jobspec_defaults(struct ssdsim__jobspec *job);

/* Deep copy (owned strings duplicated) and free of what a jobspec owns. copy returns
 * SSDSIM_ENOMEM or 0. add_raw appends one option as written (key, value or NULL). */
int ssdsim__jobspec_add_raw(struct ssdsim__jobspec *job, const char *key, const char *value);
int ssdsim__jobspec_copy(struct ssdsim__jobspec *dst, const struct ssdsim__jobspec *src);
void ssdsim__jobspec_clear(struct ssdsim__jobspec *job);

/* Apply one fio option ("bs", "4k") to a job. value NULL means the option was given without a
 * value (fio's "time_based", "norandommap"). On failure writes a one-line reason (without file
 * or key) into errbuf and returns SSDSIM_ECONFIG; SSDSIM_ENOTFOUND if the option is unknown.
 * Options fio has that do not change a simulation (ioengine, direct, filename, ...) are
 * accepted and return SSDSIM__IGNORED (a positive value) so callers can list them. An option
 * checks its whole value before storing anything, so a failed apply leaves the job unchanged;
 * an option that sets a string frees the string it replaces. */
#define SSDSIM__IGNORED 1
int ssdsim__jobspec_apply(struct ssdsim__jobspec *job, const char *key, const char *value,
                          char *errbuf, size_t errlen);

/* An empty workload with one default job (JSON workloads), or no job (n_jobs = 0). */
struct ssdsim_workload *ssdsim__workload_new(const char *label, bool one_job);
/* Append a job (deep-copied). Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__workload_add_job(struct ssdsim_workload *wl, const struct ssdsim__jobspec *job);
/* fio's default ioengine on Linux, which a job file without ioengine runs with: synchronous. */
#define SSDSIM__FIO_DEFAULT_ENGINE "psync"

/* The static name of fio ioengine `name` (`len` bytes, not NUL-terminated) when it is
 * synchronous (fio 3.33's engines with FIO_SYNCIO: one I/O in flight per job whatever iodepth
 * says), else NULL. */
const char *ssdsim__fio_sync_engine(const char *name, size_t len);

/* job->iodepth from iodepth_asked and sync_engine: 1 with a synchronous engine, as fio caps it. */
void ssdsim__jobspec_fix_iodepth(struct ssdsim__jobspec *job);

/* Log, as fio prints it, that the job's synchronous engine caps its iodepth at 1 (nothing when
 * it does not); `where` is "FILE:LINE: " or "". */
void ssdsim__jobspec_note_engine(const struct ssdsim__jobspec *job, const char *where);

/* After `key` was set on jobs [first, last) of `wl` through the API: the note of
 * ssdsim__jobspec_note_engine for each, when the key is iodepth or ioengine (what decides it). */
void ssdsim__workload_note_set(const struct ssdsim_workload *wl, const char *key, uint32_t first,
                               uint32_t last);

/* Record an ignored / skipped option name once. Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__workload_note_ignored(struct ssdsim_workload *wl, const char *key);
int ssdsim__workload_note_skipped(struct ssdsim_workload *wl, const char *key);

/* fio value syntax, shared with the job-file reader. Each returns 0, or SSDSIM_ECONFIG with a
 * reason in errbuf. */
int ssdsim__fio_parse_size(const char *s, uint64_t *out, char *errbuf, size_t errlen);
int ssdsim__fio_parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out,
                              char *errbuf, size_t errlen);
int ssdsim__fio_parse_bssplit(const char *s, struct ssdsim__bs_entry *out, uint32_t *n_out,
                              char *errbuf, size_t errlen);

/* `pct` percent of `total` bytes, rounded down to a 512-byte sector (long double keeps the
 * product exact enough for devices up to 2^64 bytes). Up to 100% it never exceeds `total`;
 * beyond (io_size may ask for more I/O than the device holds) it saturates at 2^64. */
uint64_t ssdsim__percent_bytes(uint64_t total, double pct);

/* fio's smallest block size of a job (td_min_bs): the least of every direction's, whether the
 * pattern uses it or not (a range's low end, a split's smallest entry). */
uint64_t ssdsim__jobspec_min_bs(const struct ssdsim__jobspec *job);

/* The region [*offset, *offset + *size) clone `clone` of `job` works on, on a device of
 * `logical_bytes` (percentages resolved as fio does: a percentage start aligned up to the job's
 * smallest block size, a percentage size cut to the device's end and down to a multiple of it;
 * size 0 means "to the end"; offset_increment applied). */
void ssdsim__jobspec_region(const struct ssdsim__jobspec *job, uint32_t clone,
                            uint64_t logical_bytes, uint64_t *offset, uint64_t *size);

/* The share of `job`'s requests that are writes: 1 for write patterns, (100 - rwmixread) / 100
 * for mixed ones, 0 for reads and trims. */
double ssdsim__jobspec_write_share(const struct ssdsim__jobspec *job);

/* Check that every job fits a device of `logical_bytes` (regions inside the device, sizes
 * multiples of 512, ...). Returns 0 or SSDSIM_ECONFIG with a reason in errbuf, naming the job
 * when there are several. */
int ssdsim__workload_check(const struct ssdsim_workload *wl, uint64_t logical_bytes,
                           char *errbuf, size_t errlen);

/* ------------------------------------------------------------------------------------------ */
/* Option lookup, job files and the public additions (appended for the fio job-file reader)    */

/* What an option's value looks like, as fio types it. Loaders use it to accept JSON true/false
 * for flags and booleans, and the job-file reader to refuse numbers fio would read differently
 * (ssdsim__fio_check_jobfile_value). */
enum ssdsim__optkind {
    SSDSIM__OPTKIND_STR = 1, /* text (filename, description, read_iolog) */
    SSDSIM__OPTKIND_FLAG,    /* fio's "empty or boolean": no value (on), or an integer, 0 = off */
    SSDSIM__OPTKIND_BOOL,    /* 0 or 1; a value is required */
    SSDSIM__OPTKIND_INT,     /* whole numbers in fio's integer syntax (1k = 1024), per direction */
    SSDSIM__OPTKIND_SIZE,    /* sizes or percentages, per direction; rw's :N suffix */
    SSDSIM__OPTKIND_TIME,    /* times; the unit when none is written depends on the option */
    SSDSIM__OPTKIND_MIXED,   /* words and decimal numbers (random_distribution, ss) */
    SSDSIM__OPTKIND_LOGNAME, /* a log-file prefix that may be left out (write_bw_log) */
};

/* The name fio prints an option under (its "job options"): fio's canonical name for the aliases it
 * knows ("blocksize" is "bs"), else the key itself. */
const char *ssdsim__fio_canonical_name(const char *key);

/* The canonical name of option `key` (fio's alias resolved: "blocksize" gives "bs") and, when
 * `kind` is not NULL, its kind; NULL when the option is unknown to both ssdsim and fio 3.33.
 * Options ssdsim ignores or refuses are known too. The returned string is static. */
const char *ssdsim__fio_option_lookup(const char *key, enum ssdsim__optkind *kind);

/* Job files only: refuse a value fio would read differently from ssdsim__jobspec_apply, so that a
 * job file means the same to both or is refused. fio (3.33, kb_base=1024) reads "4KiB" as 4000
 * bytes, drops fractions ("1.5g" is 1 byte, "12.5%" is 12%, "1.5s" is 1 s), does not know the
 * time units ns, nsec and min, and evaluates arithmetic in parentheses; the JSON reading of the
 * same text (4096 bytes, 1.5 GiB, ...) is kept for JSON workloads. Returns 0 (also for unknown
 * keys and NULL values, which apply reports), or SSDSIM_ECONFIG with a one-line reason. */
int ssdsim__fio_check_jobfile_value(const char *key, const char *value, char *errbuf,
                                    size_t errlen);

/* Give the log prefixes set without a value (stored as "") the job's name, or "job" for a job
 * without a name, as fio names such logs after the job. Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__jobspec_name_logs(struct ssdsim__jobspec *job);

/* Device-independent checks of one job that need several options together (time_based needs
 * runtime, ss needs ss_dur, rate and rate_iops exclude each other, ...). Run by
 * ssdsim__workload_check, so options set after loading are judged too. Returns 0 or
 * SSDSIM_ECONFIG with a one-line reason. */
int ssdsim__jobspec_check(const struct ssdsim__jobspec *job, char *errbuf, size_t errlen);

/* Read a fio job file (jobfile.c): `text` holds `len` bytes (NUL at text[len]); `path` names the
 * file in messages, and its directory is where relative include files are looked for (a label
 * such as "<string>" means the current directory). With `lenient`, options neither ssdsim nor
 * fio know are skipped and listed in skipped[] instead of failing the load. Returns 0 and *out,
 * or a negative code with *out NULL and `err` (may be NULL) filled: file, line, path = the
 * option, message "job.fio:12: bs: expected a size like 4k or 1m, got 'four'". */
int ssdsim__workload_load_jobfile(struct ssdsim_workload **out, const char *path,
                                  const char *text, size_t len, bool lenient, ssdsim_error *err);

/* Whether a workload text is a fio job file rather than a JSON object: `name` (may be NULL)
 * ends in .fio, .ini or .job; or it does not end in .json, the first character of the text that
 * is not blank and not in a ';' or '#' comment line is '[', and the text is not valid JSON (so
 * "[1]" stays a JSON array). */
bool ssdsim__workload_is_jobfile(const char *name, const char *text, size_t len);

#endif /* SSDSIM_WORKLOAD_H */
