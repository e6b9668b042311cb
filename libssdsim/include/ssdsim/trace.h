/* ssdsim/trace.h: block I/O traces: read them (MSR Cambridge, SPC/UMass, blkparse text,
 * DiskSim-style ASCII, fio iolog v2 and v3, ssdsim CSV; plain or gzip), write them, and
 * summarise them.
 *
 * A trace is streamed: one request at a time, memory flat whatever its length. Requests come
 * out in file order with times relative to the trace's first request. Malformed lines stop the
 * reader with the file, the line number and what was expected, unless skip_bad_lines is set,
 * in which case they are counted (ssdsim_trace_bad_lines) and skipped.
 */
#ifndef SSDSIM_TRACE_H
#define SSDSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Trace formats. */
typedef enum ssdsim_trace_format {
    SSDSIM_TRACE_AUTO = 0,     /**< guess from the first lines (ssdsim_trace_probe) */
    SSDSIM_TRACE_MSR = 1,      /**< MSR Cambridge CSV: Timestamp,Hostname,DiskNumber,Type,
                                    Offset,Size,ResponseTime; Windows filetime (100 ns) */
    SSDSIM_TRACE_SPC = 2,      /**< SPC / UMass: ASU,LBA,Size,Opcode,Timestamp[,...]; LBA in
                                    512-byte sectors, size in bytes, time in seconds */
    SSDSIM_TRACE_BLKPARSE = 3, /**< blkparse default text output (queue or issue events) */
    SSDSIM_TRACE_DISKSIM = 4,  /**< DiskSim-style ASCII: time devno blkno size flags (sectors) */
    SSDSIM_TRACE_FIO_IOLOG2 = 5, /**< fio iolog version 2 (no timestamps; `wait` lines give
                                      times in ms) */
    SSDSIM_TRACE_FIO_IOLOG3 = 6, /**< fio iolog version 3 (timestamps in microseconds, as fio
                                      3.33 writes and replays them) */
    SSDSIM_TRACE_CSV = 7         /**< ssdsim CSV: time_ns,device,op,offset,length */
} ssdsim_trace_format;

/** Number of formats including AUTO. */
#define SSDSIM_TRACE_N_FORMATS 8

/** The name of a format ("msr", "spc", "blkparse", "disksim", "fio-iolog2", "fio-iolog3",
 * "csv", "auto"), or "?" for a value out of range. */
SSDSIM_API const char *ssdsim_trace_format_name(ssdsim_trace_format f);

/** Parse a format name (as printed by ssdsim_trace_format_name; also "iolog2", "iolog3",
 * "umass", "msr-cambridge", "ascii"). @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_trace_format_parse(const char *name, ssdsim_trace_format *out);

/** Options of a trace reader. Initialise with SSDSIM_TRACE_OPTS_INIT (or zero), then set what
 * you need (zero = the default). */
typedef struct ssdsim_trace_opts {
    /** the layout the caller was compiled with: SSDSIM_TRACE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    ssdsim_trace_format format; /**< AUTO (0) probes the file */
    /** DiskSim ASCII: nanoseconds per time unit. 0 = 1000000 (milliseconds, DiskSim's own
     * unit); MQSim and SSDSim traces use nanoseconds (1). */
    uint64_t disksim_time_unit_ns;
    /** DiskSim ASCII: the flags value that means a read: 1 (DiskSim: bit 0 set = read, the
     * default) or, with disksim_read_is_zero, 0. */
    int disksim_read_is_zero;
    /** blkparse: take issue (D) events instead of queue (Q) events. */
    int blkparse_issue;
    /** Count and skip malformed lines instead of failing. */
    int skip_bad_lines;
    /** Keep only requests of these devices (DiskNumber, ASU, devno, blkparse major*256+minor,
     * iolog file index); NULL or 0 devices = all, merged. */
    const uint32_t *devices;
    size_t n_devices;
    /** (version 2) Return the flushes and FUA writes a trace records, as SSDSIM_OP_FLUSH and
     * SSDSIM_OP_WRITE_FUA, instead of skipping flushes and reading FUA writes as writes (false,
     * as in version 1, for tools that count reads, writes and trims): blkparse RWBS 'F' first
     * (a preflush: alone, "FN", a flush; with data, "FWS", a flush, then the write) and 'F'
     * after the W (FUA, "WFS"); fio iolog "sync" and "datasync". ssdsim run --trace and
     * read_iolog replay them. */
    bool flushes;
} ssdsim_trace_opts;

/** Layout version of ssdsim_trace_opts (see "Versioned structs"): set by SSDSIM_TRACE_OPTS_INIT and
 * ssdsim_trace_opts_init. */
#define SSDSIM_TRACE_OPTS_VERSION 2
#define SSDSIM_TRACE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_TRACE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_trace_opts_init(ssdsim_trace_opts *opts, unsigned int version);

/** One request of a trace. */
typedef struct ssdsim_trace_req {
    uint64_t time_ns; /**< arrival, ns after the trace's first request (0 when the format has
                           no times, e.g. fio iolog v2) */
    enum ssdsim_op op; /**< READ, WRITE or TRIM (flushes and other records are skipped);
                            with ssdsim_trace_opts.flushes also FLUSH and WRITE_FUA */
    uint64_t offset;   /**< bytes */
    uint64_t length;   /**< bytes, 1 to 2^32 - 1 (larger lengths are malformed lines); a
                            flush: offset and length 0 */
    uint32_t device;   /**< device / ASU / disk number */
    uint64_t line;     /**< line in the file (1-based) */
} ssdsim_trace_req;

/** An open trace reader. Opaque. */
typedef struct ssdsim_trace ssdsim_trace;

/** The FDP placement id of the request ssdsim_trace_next returned last, when its record has one
 * (the ssdsim CSV format's optional sixth column, `placement`; ssdsim_trace_req keeps its 1.0
 * layout, so the id is read here). Replay (ssdsim_replay, fio's read_iolog) writes such a
 * record through that placement handle instead of the job's.
 * @return 1 with *placement set (placement may be NULL), or 0: no id (or t is NULL). */
SSDSIM_API int ssdsim_trace_get_placement(const ssdsim_trace *t, uint32_t *placement);

/** Open a trace file (gzip-compressed files are recognised by their magic bytes and read
 * directly). `opts` may be NULL.
 * @return 0, SSDSIM_EIO (cannot open or read), SSDSIM_EPARSE (AUTO could not tell the format,
 *         or the header is malformed), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_trace_open(ssdsim_trace **out, const char *path,
                                 const ssdsim_trace_opts *opts, ssdsim_error *err);

/** Read the next request. @return 1 (one request in *req), 0 (end of the trace), or a
 * negative code: SSDSIM_EPARSE (malformed line: err says file:line and what was expected),
 * SSDSIM_EIO. */
SSDSIM_API int ssdsim_trace_next(ssdsim_trace *t, ssdsim_trace_req *req, ssdsim_error *err);

/** Start again from the first request (to replay a trace several times); the count of bad
 * lines starts again from 0. @return 0 or EIO. */
SSDSIM_API int ssdsim_trace_rewind(ssdsim_trace *t, ssdsim_error *err);

/** The format being read (after probing); SSDSIM_TRACE_AUTO for NULL. */
SSDSIM_API ssdsim_trace_format ssdsim_trace_get_format(const ssdsim_trace *t);

/** Lines skipped as malformed so far (skip_bad_lines); 0 for NULL. */
SSDSIM_API uint64_t ssdsim_trace_bad_lines(const ssdsim_trace *t);

/** What a reader has met so far: since it was opened or last rewound. */
typedef struct ssdsim_trace_stats {
    uint64_t requests;      /**< requests returned by ssdsim_trace_next */
    uint64_t bad_lines;     /**< malformed lines skipped (skip_bad_lines) */
    uint64_t out_of_order;  /**< requests returned whose time in the file is before that of the
                                 request returned just before them (they come out in file order,
                                 unsorted; one before the first request is at time 0) */
    uint64_t other_devices; /**< requests skipped because their device is not in opts.devices */
    uint64_t last_time_ns;  /**< the latest time_ns returned: the span of the requests so far */
    /** ns per unit of the file's times: 100 (MSR filetime), 10^9 (SPC and blkparse seconds),
     * 10^6 (fio iolog v2 waits), 1000 (fio iolog v3), 1 (ssdsim CSV), or the DiskSim unit. */
    uint64_t time_unit_ns;
    /** 1 when the file does not say its time unit and opts did not either, so time_unit_ns is
     * a default: DiskSim ASCII without disksim_time_unit_ns (DiskSim's ms assumed). */
    int time_unit_assumed;
    int at_end;                   /**< the whole file has been read */
    uint64_t gzip_trailing_bytes; /**< bytes after the end of the gzip stream that start no
                                       gzip member: ignored (gzip -d does the same, with a
                                       warning); 0 for a plain file */
    uint32_t first_device;     /**< the device of the first request returned */
    /** Requests returned whose device is not first_device: nonzero says that requests of
     * several devices were merged into one address space (opts.devices empty, or listing more
     * than one). */
    uint64_t merged_requests;
    /** (appended) The first malformed line skipped (skip_bad_lines): its line number in the
     * file (0 when none was skipped) and what was wrong with it. */
    uint64_t first_bad_line;
    char first_bad_why[256];
} ssdsim_trace_stats;

/** Fill *out with what the reader has met so far (zeroes for NULL). */
SSDSIM_API void ssdsim_trace_get_stats(const ssdsim_trace *t, ssdsim_trace_stats *out);
SSDSIM_API void ssdsim_trace_get_stats_sized(const ssdsim_trace *t, ssdsim_trace_stats *out,
                                             size_t size);
#define ssdsim_trace_get_stats(t, out) ssdsim_trace_get_stats_sized((t), (out), sizeof *(out))

/** Requests of `device` read so far, for a device of opts.devices (0 for any
 * other device, or when opts.devices is empty): after the whole file, 0 says the device is
 * not in the trace. */
SSDSIM_API uint64_t ssdsim_trace_device_requests(const ssdsim_trace *t, uint32_t device);

/** Close a reader; NULL is accepted. */
SSDSIM_API void ssdsim_trace_close(ssdsim_trace *t);

/** Guess the format of a file from its first lines. @return 0 (format in *out), SSDSIM_EIO,
 * or SSDSIM_EPARSE (no format fits; err says what the first line looked like). */
SSDSIM_API int ssdsim_trace_probe(const char *path, ssdsim_trace_format *out, ssdsim_error *err);

/** A request source (ssdsim_run_source) that replays an open trace; request ids are the
 * trace's line numbers. The trace must stay open while the source is used. A NULL `t` gives
 * an empty source (no next function: ssdsim_run_source refuses it); a NULL `out` does nothing. */
SSDSIM_API void ssdsim_trace_as_source(ssdsim_trace *t, ssdsim_source *out);

/** How ssdsim_replay_traces reads and replays its traces. SSDSIM_REPLAY_TRACES_OPTS_INIT (or
 * zero) gives the defaults; the structs pointed to stay the caller's. */
typedef struct ssdsim_replay_traces_opts {
    /** the layout the caller was compiled with: SSDSIM_REPLAY_TRACES_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** how every file is read (NULL: the defaults); flushes and FUA writes are replayed
     * whatever its `flushes` says */
    const ssdsim_trace_opts *trace;
    /** how every trace is replayed (NULL: the defaults); its `queue` is trace 0's, and its
     * `label` is replaced by each trace's path */
    const ssdsim_replay_opts *replay;
    const ssdsim_run_opts *run; /**< the run: intervals, steady-state stop (NULL: none) */
} ssdsim_replay_traces_opts;

/** Layout version of ssdsim_replay_traces_opts: set by SSDSIM_REPLAY_TRACES_OPTS_INIT and
 * ssdsim_replay_traces_opts_init. */
#define SSDSIM_REPLAY_TRACES_OPTS_VERSION 1
#define SSDSIM_REPLAY_TRACES_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_REPLAY_TRACES_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_replay_traces_opts_init(ssdsim_replay_traces_opts *opts,
                                              unsigned int version);

/** Replay the trace files paths[0 .. n-1] (1 to 4096) at once on `sim` (`ssdsim run --trace A
 * --trace B`): trace k as reported job k (a flow, named after its path) on NVMe queue pair
 * (replay.queue + k) modulo the model's nvme.queues and volume (replay.volume + k) modulo the
 * model's volumes (a JBOD's devices), through ssdsim_run_sources. Every trace is
 * opened before any request is issued. *failed (may be NULL) receives the path of a trace that
 * could not be opened (nothing ran; `err` says why), else NULL.
 * @return 0; SSDSIM_EINVAL (NULL argument, n out of range, options of an unknown version:
 *         `err` says which); the codes of ssdsim_trace_open (with *failed set); or those of
 *         ssdsim_run_sources (the reason in ssdsim_errmsg(sim); a cancelled run's results are
 *         those of the requests completed). */
SSDSIM_API int ssdsim_replay_traces(ssdsim *sim, const char *const *paths, size_t n,
                                    const ssdsim_replay_traces_opts *opts, const char **failed,
                                    ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Writing traces                                                                              */

/** A trace writer. Opaque. */
typedef struct ssdsim_trace_writer ssdsim_trace_writer;

/** Create `path` (truncating it) to write requests in `format`: FIO_IOLOG3 (timestamps in
 * microseconds, requests stamped time + 1 us because fio ignores the gap after a 0 stamp) or
 * FIO_IOLOG2 (a `wait` line, in ms, before each request that reaches a new millisecond), both
 * replayable by fio's read_iolog against `target`, the device or file name fio should open
 * (NULL = "/dev/nvme0n1"; device numbers are not written); DISKSIM (time in ms with the
 * decimals the ns need, 512-byte sectors, flags 1 = read, 0 = write; trims and requests not
 * aligned to 512 bytes are refused); CSV.
 * @return 0, SSDSIM_EINVAL (format not writable, target empty or with blanks), SSDSIM_EIO. */
SSDSIM_API int ssdsim_trace_writer_open(ssdsim_trace_writer **out, const char *path,
                                        ssdsim_trace_format format, const char *target,
                                        ssdsim_error *err);

/** Append one request. Times may decrease (out-of-order traces are kept as they are; fio
 * replays such a request without delay).
 * A flush (SSDSIM_OP_FLUSH) is fio's "sync" action in the fio iolog formats (offset and length
 * 0); CSV and DiskSim ASCII have none.
 * @return 0, SSDSIM_EINVAL (op not read/write/trim (or flush, in a fio iolog), length 0 or
 *         above 2^32 - 1, an end beyond 2^64, or not representable in the format: DiskSim trims
 *         and unaligned requests), SSDSIM_EIO. */
SSDSIM_API int ssdsim_trace_writer_put(ssdsim_trace_writer *w, const ssdsim_trace_req *req,
                                       ssdsim_error *err);

/** Finish the file and free the writer (NULL accepted). @return 0 or SSDSIM_EIO. */
SSDSIM_API int ssdsim_trace_writer_close(ssdsim_trace_writer *w, ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Summaries                                                                                   */

/** Request-size classes of ssdsim_trace_info.size_hist: bucket i counts requests with
 * 2^(i+8) < length <= 2^(i+9) bytes (bucket 0: <= 512 B), the last bucket everything above
 * 8 MiB. */
#define SSDSIM_TRACE_SIZE_BUCKETS 16

/** What a trace holds. */
typedef struct ssdsim_trace_info {
    ssdsim_trace_format format;
    uint64_t requests;
    uint64_t count[3];   /**< per op: read, write, trim */
    uint64_t bytes[3];   /**< per op */
    uint64_t size_hist[SSDSIM_TRACE_SIZE_BUCKETS];
    uint64_t min_length, max_length;
    uint64_t footprint_bytes;        /**< distinct bytes touched, all ops, in whole 512-byte
                                          sectors (a partly touched sector counts whole) */
    uint64_t footprint_write_bytes;  /**< distinct bytes written */
    uint64_t max_end_bytes;          /**< highest offset + length: the device size it needs */
    uint64_t duration_ns;            /**< last arrival - first arrival (latest - earliest) */
    double arrival_rate;             /**< requests / duration, per second (0 when duration is 0) */
    /** Gaps between consecutive requests in file order (a request earlier than the one before
     * it gives no gap: see out_of_order); the standard deviation is the population one. */
    double interarrival_mean_ns, interarrival_stddev_ns;
    uint64_t interarrival_min_ns, interarrival_max_ns;
    uint64_t unaligned_4k;           /**< requests whose offset or length is not 4 KiB aligned */
    uint32_t n_devices;              /**< distinct devices seen */
    uint64_t bad_lines;              /**< lines skipped (skip_bad_lines) */
    uint64_t out_of_order;           /**< requests whose time is before the previous one's */
    uint64_t gzip_trailing_bytes;    /**< bytes ignored after the end of a gzip stream */
} ssdsim_trace_info;

/** Read a whole trace and summarise it. Memory grows with the footprint only (a bit per
 * 512-byte sector touched, in 32 KiB chunks), never with the number of requests.
 * @return 0, or the codes of ssdsim_trace_open and ssdsim_trace_next. */
SSDSIM_API int ssdsim_trace_info_file(const char *path, const ssdsim_trace_opts *opts,
                                      ssdsim_trace_info *out, ssdsim_error *err);
SSDSIM_API int ssdsim_trace_info_file_sized(const char *path, const ssdsim_trace_opts *opts,
                                            ssdsim_trace_info *out, size_t size, ssdsim_error *err);
#define ssdsim_trace_info_file(path, opts, out, err)                                               \
    ssdsim_trace_info_file_sized((path), (opts), (out), sizeof *(out), (err))

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_TRACE_H */
