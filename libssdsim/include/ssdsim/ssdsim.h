/* ssdsim.h: the public interface of libssdsim, a discrete-event NAND-flash SSD simulator.
 *
 * This umbrella header is all a user includes. It depends only on the C standard headers, so
 * neither glib nor cJSON leaks into user code. Conventions (after libgit2 and SQLite):
 *   - functions return 0 on success or a negative SSDSIM_E* code;
 *   - constructors take the out-parameter first and leave it NULL on failure;
 *   - *_free() functions accept NULL;
 *   - loading functions fill a caller-owned ssdsim_error with the file, JSON path, line and
 *     column of the problem and a one-line message.
 * Units: simulated time in nanoseconds (uint64_t), sizes in bytes (uint64_t).
 *
 * Versioned structs. Structs the caller allocates may grow in later versions (fields are only
 * ever appended), and a program compiled against older headers keeps working with a newer
 * library of the same major version:
 *   - option structs (ssdsim_run_opts, ssdsim_replay_opts, ssdsim_steady_opts,
 *     ssdsim_fast_precondition_opts, ssdsim_trace_opts, ssdsim_submit_opts) start with
 *     `unsigned int version`, the layout the caller was compiled with. Initialise them with their
 *     _INIT macro
 *     (`ssdsim_run_opts o = SSDSIM_RUN_OPTS_INIT;`) or their _init function; the library reads
 *     only the fields of that version and takes the rest as zero (the defaults). A zeroed struct
 *     (`= {0}`, memset) has version 0, which means version 1, the layout of 1.0: code written
 *     for 0.x keeps compiling and means what it meant. A version newer than the library's is
 *     refused with SSDSIM_EINVAL and a message. Passing NULL means all defaults. An _init
 *     function given version 0 zeroes this library's whole current layout and stamps its
 *     version: that is for programs built against these headers; one that may run with a newer
 *     library passes its own SSDSIM_..._VERSION (as the _INIT macros do).
 *   - result structs (ssdsim_op_stats, ssdsim_device_stats, ssdsim_device_io,
 *     ssdsim_interval, ssdsim_job_info, ssdsim_steady_result, ssdsim_spec_figure,
 *     ssdsim_trace_stats, ssdsim_trace_info) are filled by getters that are macros passing
 *     `sizeof *out` to the function of the same name with _sized appended: the library writes
 *     at most that many bytes, so an older caller's smaller struct is filled up to its size
 *     and nothing after it is touched; a newer caller's larger struct gets zeros in the fields
 *     this library does not know. A getter that fails writes nothing, except
 *     ssdsim_steady_check, ssdsim_get_steady and ssdsim_trace_info_file, which write what they
 *     could fill. The function itself, called as `(ssdsim_get_op_stats)(...)` or through a
 *     pointer (ctypes), writes the layout of 1.0.
 *   - ssdsim_error, ssdsim_completion, ssdsim_request, ssdsim_source, ssdsim_observer and the
 *     plugin tables (which carry their own struct_size) keep their layout within a major
 *     version.
 * The library's major version is the libtool `current` (libssdsim.so.1 for 1.x);
 * SSDSIM_VERSION_NUMBER and ssdsim_version_check tell a program what it runs with.
 *
 * Naming rule. Functions are `ssdsim_<noun>_<verb>` (ssdsim_model_load_file,
 * ssdsim_workload_set, ssdsim_trace_open), getters `ssdsim_get_<noun>` on a simulation or
 * `ssdsim_<noun>_get_<what>` on another object; a unit is the last part of a name (`_ns`,
 * `_bytes`, `_us`: interval_ns, lat_p99_ns), never in the middle (lat_ns_max in
 * ssdsim_interval predates the rule and stays, as layouts do within a major version); enums
 * are typedef'd (`ssdsim_trace_format`; `enum ssdsim_op` and `enum ssdsim_log_level` are also
 * typedef'd as ssdsim_op and ssdsim_log_level); flags of new interfaces are `bool`, while the
 * `int` flags of 1.0 structs keep their type. The simulation is the noun of its own functions:
 * `ssdsim_<verb>[_<what>]` (ssdsim_run, ssdsim_precondition_fast, ssdsim_write_timeseries_csv).
 * Deprecated names: none in 1.0; the fields lat_ns_mean, lat_ns_stddev, lat_ns_max and lat_ns_p99
 * of ssdsim_interval break the unit rule and keep their names until a 2.0 may rename them (a
 * renamed public function keeps its old name as a macro, listed here, for a major version).
 */
#ifndef SSDSIM_SSDSIM_H
#define SSDSIM_SSDSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define SSDSIM_API __declspec(dllexport)
#elif defined(__GNUC__)
#define SSDSIM_API __attribute__((visibility("default")))
#else
#define SSDSIM_API
#endif

/** The version of the headers a program is compiled against (configure checks that they match
 * the package version). SSDSIM_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 + PATCH, for
 * `#if SSDSIM_VERSION_NUMBER >= 10000`. */
#define SSDSIM_VERSION_MAJOR 1
#define SSDSIM_VERSION_MINOR 0
#define SSDSIM_VERSION_PATCH 0
#define SSDSIM_VERSION_STRING "1.0.0"
#define SSDSIM_VERSION_NUMBER                                                                     \
    (SSDSIM_VERSION_MAJOR * 10000 + SSDSIM_VERSION_MINOR * 100 + SSDSIM_VERSION_PATCH)

/* The initialiser of a versioned option struct: the version, every other field zero
 * (designated in C, so that -Wmissing-field-initializers stays quiet). */
#ifdef __cplusplus
#define SSDSIM__VERSIONED_INIT(v) {(v)}
#else
#define SSDSIM__VERSIONED_INIT(v) {.version = (v)}
#endif

/** Package version of the library running, as "MAJOR.MINOR.PATCH" (SSDSIM_VERSION_STRING of
 * the headers it was built with). */
SSDSIM_API const char *ssdsim_version(void);

/** The library's SSDSIM_VERSION_NUMBER, and whether it can serve a program compiled against
 * headers of version `number` (pass SSDSIM_VERSION_NUMBER): 1 when the library has the same
 * major version and is not older, 0 otherwise. */
SSDSIM_API int ssdsim_version_number(void);
SSDSIM_API int ssdsim_version_check(int number);

/* One X-macro list generates the error codes, their names and their messages. */
#define SSDSIM_ERRORS(X)                                                                          \
    X(0, OK, "success")                                                                           \
    X(-1, NOMEM, "out of memory")                                                                 \
    X(-2, INVAL, "invalid argument")                                                              \
    X(-3, IO, "input/output error")                                                               \
    X(-4, PARSE, "malformed input")                                                               \
    X(-5, CONFIG, "invalid configuration")                                                        \
    X(-6, RANGE, "value out of range")                                                            \
    X(-7, NOTFOUND, "not found")                                                                  \
    X(-8, STATE, "operation not allowed in the current state")                                   \
    X(-9, CANCELLED, "cancelled")                                                                 \
    X(-10, FULL, "device full")                                                                   \
    X(-11, ABI, "plugin ABI version mismatch")                                                    \
    X(-12, STALL, "the simulation stopped making progress")

/** Error codes: 0 is success, every failure is negative. */
enum ssdsim_errcode {
#define SSDSIM__ERR_ENUM(num, name, msg) SSDSIM_E##name = (num),
    SSDSIM_ERRORS(SSDSIM__ERR_ENUM)
#undef SSDSIM__ERR_ENUM
};
typedef enum ssdsim_errcode ssdsim_errcode;

/** Number of distinct error codes (SSDSIM_EOK down to the most negative one). */
#define SSDSIM_N_ERRORS 13

/** A static English message for an error code; "unknown error" for codes not in the list. */
SSDSIM_API const char *ssdsim_strerror(int code);

/** The symbolic name of an error code ("SSDSIM_EPARSE"), or "SSDSIM_E?" for unknown codes. */
SSDSIM_API const char *ssdsim_errname(int code);

/** Where and why loading failed. Caller-owned; fields are empty strings / zero when unknown.
 * `message` is the full one-line text, e.g.
 * "models/x.json: flash.program_us: expected a number in [1, 100000], got -3". */
typedef struct ssdsim_error {
    int code;          /**< the negative error code that was returned */
    char file[256];    /**< file name, or a label such as "<string>" or "--set" */
    char path[128];    /**< JSON path of the offending value ("geometry.channels") */
    int line;          /**< 1-based line of a syntax error; 0 when not known */
    int column;        /**< 1-based column of a syntax error; 0 when not known */
    char message[768]; /**< the complete one-line message */
} ssdsim_error;

/** Severity of a log message. */
enum ssdsim_log_level {
    SSDSIM_LOG_ERROR = 0,
    SSDSIM_LOG_WARNING = 1,
    SSDSIM_LOG_INFO = 2,
    SSDSIM_LOG_DEBUG = 3
};
typedef enum ssdsim_log_level ssdsim_log_level;

/** Receives the library's log messages: one line, no trailing newline, valid during the call.
 * Called from the thread that runs the simulation; it must not call back into that simulation. */
typedef void (*ssdsim_log_fn)(enum ssdsim_log_level level, const char *message, void *userdata);

/** Install the process-wide log handler (NULL: messages are dropped, the default: the library
 * never prints). Messages say what the library adjusted or noticed, e.g. a GC watermark raised
 * to what the FTL needs; failures are still reported through return codes and ssdsim_errmsg. */
SSDSIM_API void ssdsim_set_log_handler(ssdsim_log_fn fn, void *userdata);

/** Parse a duration with a unit ("50us", "1.5ms", "2s", "100ns") into ns.
 * @return 0, or SSDSIM_EINVAL when the text is not a duration. */
SSDSIM_API int ssdsim_parse_time_ns(const char *text, uint64_t *out_ns);

/** Parse a size ("4KiB", "4KB" = 4000, "512") into bytes. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_parse_size(const char *text, uint64_t *out_bytes);

/* ------------------------------------------------------------------------------------------ */
/* Device models                                                                               */

/** A device model (geometry, flash timing, controller, host link, FTL, GC), loaded from JSON
 * and validated. Opaque; created by ssdsim_model_load_*. */
typedef struct ssdsim_model ssdsim_model;

/** Load and validate a model file. `err` may be NULL.
 * @return 0, SSDSIM_EIO (cannot read), SSDSIM_EPARSE (not JSON), SSDSIM_ECONFIG (a key is
 *         unknown, duplicated, of the wrong type, out of range, or the geometry is impossible),
 *         SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_model_load_file(ssdsim_model **out, const char *path, ssdsim_error *err);

/** Load and validate a model from a JSON text; `label` names it in messages (may be NULL). */
SSDSIM_API int ssdsim_model_load_string(ssdsim_model **out, const char *json, const char *label,
                                        ssdsim_error *err);

/** The built-in default model: a generic MLC drive (the same as models/generic-mlc.json). */
SSDSIM_API int ssdsim_model_default(ssdsim_model **out, ssdsim_error *err);

/** Override one key by its dotted path (`"ftl.op"`, `"geometry.pages_per_block"`). `value` is
 * JSON text (`0.25`, `"mlc"`, `[50, 90]`); a bare word that is not JSON is taken as a string;
 * `null` takes the key out of the model, which then has the key's default (or, for a key that
 * applies only with another, does not have it). The whole model is validated again exactly as
 * a file is. On failure the model is unchanged. Keys that depend on each other are best set
 * together with ssdsim_model_set_many.
 * @return 0, SSDSIM_ECONFIG, SSDSIM_EINVAL, SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_model_set(ssdsim_model *model, const char *key, const char *value,
                                ssdsim_error *err);

/** Override `n` keys at once: keys[i] takes values[i], as ssdsim_model_set takes one, in order
 * (a key given twice takes its last value), and the model is validated once, after all of them:
 * so keys that depend on each other can be given in any order (`gc.bg_preempt` before
 * `gc.bg_idle_us`, `flash.cell` before `flash.read_us`). On failure the model is unchanged and
 * `failed` (may be NULL) is the index of the override the message is about: the key named, or
 * the last override that set the key (or its section) the message names; when the model itself
 * gives the key the overrides made invalid, `failed` is n - 1 and the message ends with what to
 * do: "(the model gives gc.bg_high_watermark; gc.bg_high_watermark=null takes it out)", or for a
 * key every model must give, "(the model gives flash.read_us: set it too)". @return 0 (n 0 too), SSDSIM_ECONFIG, SSDSIM_EINVAL (NULL model, NULL arrays with n > 0,
 * a NULL key or value, a malformed key), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_model_set_many(ssdsim_model *model, size_t n, const char *const *keys,
                                     const char *const *values, size_t *failed,
                                     ssdsim_error *err);

/** A deep copy of a model, to change without touching the original. @return 0, SSDSIM_EINVAL
 * (NULL argument), SSDSIM_ENOMEM; *out is NULL on failure. */
SSDSIM_API int ssdsim_model_copy(ssdsim_model **out, const ssdsim_model *model);

/** Read one key by its dotted path (`"ftl.op"`), every key of the model being filled in
 * (defaults included), as a given type: an integer (a number with no fraction), a number, a
 * boolean, or a string copied into `buf` of `len` bytes with its NUL. `err` (may be NULL) names
 * the key and what was expected.
 * @return 0, SSDSIM_ENOTFOUND (no such key), SSDSIM_EINVAL (NULL argument, a section, a value
 *         of another type), SSDSIM_ERANGE (the string does not fit), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_model_get_int(const ssdsim_model *model, const char *key, int64_t *out,
                                    ssdsim_error *err);
SSDSIM_API int ssdsim_model_get_double(const ssdsim_model *model, const char *key, double *out,
                                       ssdsim_error *err);
SSDSIM_API int ssdsim_model_get_bool(const ssdsim_model *model, const char *key, bool *out,
                                     ssdsim_error *err);
SSDSIM_API int ssdsim_model_get_string(const ssdsim_model *model, const char *key, char *buf,
                                       size_t len, ssdsim_error *err);

/** Set one key from a C value, validated as ssdsim_model_set validates JSON text (which these
 * build: no formatting of JSON by the caller). A double must be finite. On failure the model is
 * unchanged. @return the codes of ssdsim_model_set. */
SSDSIM_API int ssdsim_model_set_int(ssdsim_model *model, const char *key, int64_t value,
                                    ssdsim_error *err);
SSDSIM_API int ssdsim_model_set_double(ssdsim_model *model, const char *key, double value,
                                       ssdsim_error *err);
SSDSIM_API int ssdsim_model_set_bool(ssdsim_model *model, const char *key, bool value,
                                     ssdsim_error *err);
SSDSIM_API int ssdsim_model_set_string(ssdsim_model *model, const char *key, const char *value,
                                       ssdsim_error *err);

/** The model as canonical JSON with every key filled in; the caller frees it with free(). */
SSDSIM_API char *ssdsim_model_to_json(const ssdsim_model *model);

/** Logical (user-visible) capacity in bytes: of the device; of the volume of a RAID system;
 * of one device of a JBOD (each job addresses one device). */
SSDSIM_API uint64_t ssdsim_model_logical_bytes(const ssdsim_model *model);

/** Bytes the capacity-sized arrays of one simulation of `model` take (mapping tables, block
 * tables; a system counts every member), estimated without allocating: a lower bound of what
 * ssdsim_new will hold, the figure it compares with the machine's memory (or
 * SSDSIM_MEMORY_LIMIT) before refusing a model. 0 for NULL. */
SSDSIM_API uint64_t ssdsim_model_memory_bytes(const ssdsim_model *model);

/** What a model describes. */
typedef enum ssdsim_model_kind {
    SSDSIM_MODEL_SSD = 0,    /**< a solid-state device (NAND or XPoint media) */
    SSDSIM_MODEL_HDD = 1,    /**< a hard disk */
    SSDSIM_MODEL_SYSTEM = 2, /**< several devices: a JBOD, a RAID array, a multi-controller card */
} ssdsim_model_kind;

/** The kind of a model (SSDSIM_MODEL_SSD for NULL). */
SSDSIM_API ssdsim_model_kind ssdsim_model_get_kind(const ssdsim_model *model);

/** The kind of a model's devices: the model's own for a device, its members' for a system
 * (SSDSIM_MODEL_SSD for NULL). An array of hard disks, like a hard disk, has no flash that writes
 * fill: nothing to precondition. */
SSDSIM_API ssdsim_model_kind ssdsim_model_get_device_kind(const ssdsim_model *model);

/** Devices in the model (1 for a device model) and volumes the host addresses (the devices of
 * a JBOD; 1 otherwise). */
SSDSIM_API uint32_t ssdsim_model_n_devices(const ssdsim_model *model);
SSDSIM_API uint32_t ssdsim_model_n_volumes(const ssdsim_model *model);

/** The model every device of a system is built from (`system.member`), to read its keys (its
 * write buffer, its GC); NULL for a device model or NULL. It belongs to the system model and
 * lives as long as it: copy it (ssdsim_model_copy) to change it. */
SSDSIM_API const ssdsim_model *ssdsim_model_member(const ssdsim_model *model);

/** A vendor figure of the model's `spec` block and the workload behind it. Strings belong to
 * the model. */
typedef struct ssdsim_spec_figure {
    const char *name;   /**< "4KiB random read" */
    const char *metric; /**< read_iops, write_iops, read_mbps, write_mbps, read_lat_us, write_lat_us */
    double value;       /**< IOPS, MB/s (10^6 bytes/s) or microseconds */
    const char *rw;     /**< fio rw: read, write, randread or randwrite */
    uint32_t bs;        /**< block size, bytes */
    uint32_t iodepth;
    uint32_t numjobs;
    const char *state;  /**< fresh, full (after a sequential fill) or steady */
    const char *note;   /**< why the simulation may miss it, or NULL */
} ssdsim_spec_figure;

/** Where the model's spec figures come from (NULL if not said), how many there are, and figure
 * `i` (0 or SSDSIM_EINVAL when i is out of range). */
SSDSIM_API const char *ssdsim_model_spec_source(const ssdsim_model *model);
SSDSIM_API size_t ssdsim_model_spec_count(const ssdsim_model *model);
SSDSIM_API int ssdsim_model_spec_get(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out);
/** What figure `i`'s value is: "typical" (a value to match), "upper" (a limit the vendor states
 * as "< value": met at or below it), "lower" (met at or above it); NULL when i is out of range. */
SSDSIM_API const char *ssdsim_model_spec_bound(const ssdsim_model *model, size_t i);
/** The model key whose value was derived from figure `i` (its `fitted`, such as
 * "controller.cmd_overhead_us"): the simulation meets that figure by construction, so it checks
 * nothing. NULL when the figure was not used to set a parameter, or i is out of range. */
SSDSIM_API const char *ssdsim_model_spec_fitted(const ssdsim_model *model, size_t i);
SSDSIM_API int ssdsim_model_spec_get_sized(const ssdsim_model *model, size_t i,
                                           ssdsim_spec_figure *out, size_t size);
#define ssdsim_model_spec_get(model, i, out)                                                       \
    ssdsim_model_spec_get_sized((model), (i), (out), sizeof *(out))

/** Free a model; NULL is accepted. */
SSDSIM_API void ssdsim_model_free(ssdsim_model *model);

/** Log now the warnings about the model itself that the first ssdsim_new of it logs (an FTL
 * reserve that takes much of the spare), and mark them said, so that no simulation of this model
 * logs them again: a program that forks workers calls it first, so that the warning comes once
 * and not from every worker. NULL is accepted. */
SSDSIM_API void ssdsim_model_warn(ssdsim_model *model);

/* ------------------------------------------------------------------------------------------ */
/* Workloads                                                                                   */

/** A workload described with fio's option names and value syntax: one or more jobs (the
 * sections of a fio job file), each run as numjobs clones, generating requests (rw, bs,
 * bssplit, random_distribution, ...), pacing them (iodepth, rate_iops, thinktime, runtime,
 * ss) or replaying a log (read_iolog). doc/fio.md lists every option. Opaque; created by
 * ssdsim_workload_load_*. */
typedef struct ssdsim_workload ssdsim_workload;

/** Load a workload file: a JSON object of fio options, or a fio job file (a name ending in .fio,
 * .ini or .job, or a text whose first character outside comments is '[' and that is not JSON;
 * see doc/fio.md). Same return codes as ssdsim_model_load_file; errors name file, line and
 * option. */
SSDSIM_API int ssdsim_workload_load_file(ssdsim_workload **out, const char *path,
                                         ssdsim_error *err);

/** Load a workload from a text, JSON or a fio job file as above; `label` names it in messages
 * (may be NULL). */
SSDSIM_API int ssdsim_workload_load_string(ssdsim_workload **out, const char *json,
                                           const char *label, ssdsim_error *err);

/** Set one workload option with fio's value syntax (`"bs", "4k"`), validated like a file. */
SSDSIM_API int ssdsim_workload_set(ssdsim_workload *wl, const char *key, const char *value,
                                   ssdsim_error *err);

/** A workload of one job ("job") with every option at fio's default, to build up with
 * ssdsim_workload_set and the typed setters below instead of formatting JSON; `label` names it
 * in messages and results (NULL: "<string>"). @return 0, SSDSIM_EINVAL, SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_workload_new(ssdsim_workload **out, const char *label, ssdsim_error *err);

/** A deep copy of a workload (its jobs, label and the lists of ignored and skipped options),
 * to change without touching the original. @return 0, SSDSIM_EINVAL (NULL argument),
 * SSDSIM_ENOMEM; *out is NULL on failure. */
SSDSIM_API int ssdsim_workload_copy(ssdsim_workload **out, const ssdsim_workload *wl);

/** Make every job section but `i` issue nothing: job i alone (a flow alone, as `ssdsim run
 * --fairness` runs it). The others stay in place, so job i's clones keep the numbers, random
 * seeds and NVMe queues they have in the whole workload. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_workload_keep_job(ssdsim_workload *wl, size_t i, ssdsim_error *err);

/** Set one option from a C value, as ssdsim_workload_set would from its text: an integer
 * (`"iodepth", 32`; a size in bytes, `"bs", 4096`), a number (`"rate_iops", 2500.0`; finite), a
 * boolean (`"norandommap", true`: 1 or 0). @return the codes of ssdsim_workload_set. */
SSDSIM_API int ssdsim_workload_set_int(ssdsim_workload *wl, const char *key, int64_t value,
                                       ssdsim_error *err);
SSDSIM_API int ssdsim_workload_set_double(ssdsim_workload *wl, const char *key, double value,
                                          ssdsim_error *err);
SSDSIM_API int ssdsim_workload_set_bool(ssdsim_workload *wl, const char *key, bool value,
                                        ssdsim_error *err);

/** Append a job (a section of a fio job file) named `name`, with every option at fio's default
 * (not the other jobs' values); it becomes job ssdsim_workload_n_jobs - 1. @return 0,
 * SSDSIM_EINVAL (NULL wl, empty name), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_workload_add_job(ssdsim_workload *wl, const char *name, ssdsim_error *err);

/** Set one option of job `i` only, with fio's value syntax, validated as ssdsim_workload_set
 * validates (ssdsim_workload_set sets it in every job). On failure the job is unchanged.
 * @return 0, SSDSIM_EINVAL (NULL argument, no job i), SSDSIM_ECONFIG, SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_workload_job_set(ssdsim_workload *wl, size_t i, const char *key,
                                       const char *value, ssdsim_error *err);

/** ssdsim_workload_load_file_ex flag: skip (and list, ssdsim_workload_skipped) options fio
 * knows but ssdsim does not, instead of failing. */
#define SSDSIM_WORKLOAD_LENIENT 1u

/** Load a workload file: a JSON object of fio options, or a fio job file (INI: [global] and
 * job sections, include, ${VAR}; see doc/fio.md), told apart by content. `flags`:
 * SSDSIM_WORKLOAD_LENIENT or 0. ssdsim_workload_load_file is this with flags 0. */
SSDSIM_API int ssdsim_workload_load_file_ex(ssdsim_workload **out, const char *path,
                                            unsigned flags, ssdsim_error *err);

/** Number of job sections (a JSON workload has one; each runs numjobs clones). */
SSDSIM_API size_t ssdsim_workload_n_jobs(const ssdsim_workload *wl);

/** Name of job section `i` ("job" for a JSON workload), NULL when out of range. */
SSDSIM_API const char *ssdsim_workload_job_name(const ssdsim_workload *wl, size_t i);

/** Options accepted without effect on the simulation (an asynchronous ioengine, direct, ...),
 * distinct. */
SSDSIM_API size_t ssdsim_workload_n_ignored(const ssdsim_workload *wl);
SSDSIM_API const char *ssdsim_workload_ignored(const ssdsim_workload *wl, size_t i);

/** Unknown options skipped by a lenient load, distinct. */
SSDSIM_API size_t ssdsim_workload_n_skipped(const ssdsim_workload *wl);
SSDSIM_API const char *ssdsim_workload_skipped(const ssdsim_workload *wl, size_t i);

/** The logs job section `i` asks for (fio's write_iops_log, write_lat_log, write_bw_log: file
 * name prefixes, NULL when not asked), its log_avg_msec (0 = one entry per I/O) and numjobs.
 * Its clones are numbered consecutively in ssdsim_completion.job, sections in order.
 * Any out-pointer may be NULL. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_workload_job_logs(const ssdsim_workload *wl, size_t i,
                                        const char **iops_prefix, const char **lat_prefix,
                                        const char **bw_prefix, uint64_t *log_avg_msec,
                                        uint32_t *numjobs);

/** Free a workload; NULL is accepted. */
SSDSIM_API void ssdsim_workload_free(ssdsim_workload *wl);

/* ------------------------------------------------------------------------------------------ */
/* Simulations                                                                                 */

/** One simulated device with its own event engine, state and statistics. Independent
 * simulations share nothing; one simulation must be used from one thread at a time. */
typedef struct ssdsim ssdsim;

/** Build a fresh (secure-erased) device from a model. The model is copied; the caller may free
 * it afterwards. `seed` seeds every random stream of the simulation.
 * @return 0, SSDSIM_ECONFIG (the model cannot be built), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_new(ssdsim **out, const ssdsim_model *model, uint64_t seed,
                          ssdsim_error *err);

/** Free a simulation; NULL is accepted. */
SSDSIM_API void ssdsim_free(ssdsim *sim);

/** The message of the last failure on this simulation ("" when none). */
SSDSIM_API const char *ssdsim_errmsg(const ssdsim *sim);

/** How preconditioning brings a device to its state (ssdsim_set_precondition_method). */
typedef enum ssdsim_precondition_method {
    /** The default: through functional fast-forward (ssdsim_fast_forward) where it can run
     * (a single solid-state device, a generated workload): sequential fills are fast-forwarded
     * fills (also of a system of solid-state devices: each member filled in address order),
     * and ssdsim_precondition_fast fast-forwards the workload itself until its write
     * amplification is steady. Elsewhere, as SSDSIM_PRECONDITION_METHOD_TIMED. */
    SSDSIM_PRECONDITION_METHOD_FUNCTIONAL = 0,
    /** Sequential fills as timed runs, ssdsim_precondition_fast through a scaled copy of the
     * model run to steady state (its state installed block for block by age): the methods of
     * ssdsim 1.0. */
    SSDSIM_PRECONDITION_METHOD_TIMED = 1
} ssdsim_precondition_method;

/** Choose how this simulation preconditions (a new simulation takes the environment variable
 * SSDSIM_PRECONDITION_METHOD, "functional" or "timed", when set, else functional).
 * @return 0, SSDSIM_EINVAL (NULL sim, an unknown method). */
SSDSIM_API int ssdsim_set_precondition_method(ssdsim *sim, int method);

/** Functional fast-forward: run the requests of `wl` (generated jobs, on a single solid-state
 * device) through the device's FTL, garbage collection and wear leveling without timing: every
 * flash operation ends at once, in submission order, and no simulated time passes. The FTL
 * state it leaves is the one a timed run of the same requests leaves, up to the order of
 * concurrent work (clones take turns one request each; garbage collection ends before the next
 * request). The write buffer is bypassed, pacing, think time, ramps and start delays are
 * ignored. It stops
 * when every job has issued what it should or, when `drive_writes` > 0, after that many times
 * the volume's capacity of host writes (a job bounded by time only needs that bound), or then
 * once no job that writes is left (a job that only reads or trims for a time, which without time
 * would never end, ends with them). The
 * statistics are reset first, so the device statistics (host pages, WAF, erases) then describe
 * what it did; the next run is timed and starts from its state. It takes one run number, as a
 * run does. @return 0, SSDSIM_EINVAL (NULL argument, drive_writes negative, a job bounded by
 * time only and no drive_writes), SSDSIM_ENOTFOUND (a hard disk, a system of devices, a job
 * replaying a log), SSDSIM_ECONFIG (a workload that does not fit the volume), SSDSIM_ESTATE
 * (requests in flight, a failed simulation), SSDSIM_ECANCELLED (the progress callback; the
 * simulation is then unusable), or an FTL failure code. */
SSDSIM_API int ssdsim_fast_forward(ssdsim *sim, const ssdsim_workload *wl, double drive_writes);

/** Write the whole logical space once, sequentially in 128 KiB requests at queue depth 32,
 * then reset the statistics, so that what follows is measured on a written drive. The same as
 * ssdsim_precondition_seq_fills(sim, 1). @return 0, or the codes of ssdsim_run. */
SSDSIM_API int ssdsim_precondition_seq(ssdsim *sim);

/** Write the whole logical space `fills` times, sequentially in 128 KiB requests at queue
 * depth 32 (SNIA's workload-independent preconditioning is 2 fills), as one run, then reset the
 * statistics. With the functional method (ssdsim_set_precondition_method) the fills are
 * fast-forwarded (ssdsim_fast_forward) when the device allows it: the same pages in the same
 * order, without timing. A system of solid-state devices (JBOD, RAID-0/1/5) is fast-forwarded
 * member by member, each written in address order over the part its volume maps; not a RAID-5
 * without a write-back cache, whose 128 KiB fill requests are not whole stripe rows (its
 * partial rows rewrite parity and data: such a fill is timed), nor a system with a hard disk.
 * @return 0, SSDSIM_EINVAL (NULL sim, fills 0), or the codes of ssdsim_run. */
SSDSIM_API int ssdsim_precondition_seq_fills(ssdsim *sim, uint32_t fills);

/** Secure erase: every block erased, the mapping empty, as a new drive from the same model and
 * seed, except that erase counts (wear) are kept: the next run gives the results a new
 * simulation's first run would (the run counter that varies the workloads' seeds restarts),
 * apart from the erase-count figures and the absolute times. Flash work still pending first
 * completes (garbage collection the last run's writes started, or background GC that
 * ssdsim_idle started, which stops after its current block), so the simulated clock may move
 * on by a few erases; the erase itself takes no simulated time. Statistics restart; the
 * clock, the observer and the callbacks are kept. @return 0, SSDSIM_EINVAL (NULL sim),
 * SSDSIM_ESTATE (submitted requests in flight, called from a callback during a run, or a
 * failed simulation), SSDSIM_ENOMEM (the simulation is then unusable). */
SSDSIM_API int ssdsim_secure_erase(ssdsim *sim);

/* ------------------------------------------------------------------------------------------ */
/* Steady state (SNIA Solid State Storage Performance Test Specification)                      */

/** The SNIA steady-state rule over a window of rounds. Initialise with SSDSIM_STEADY_OPTS_INIT (or
 * zero) for SNIA's values.
 * Both limits include their bound and are fractions of |average|. */
typedef struct ssdsim_steady_opts {
    /** the layout the caller was compiled with: SSDSIM_STEADY_OPTS_VERSION (0 = 1) */
    unsigned int version;
    uint32_t window;            /**< rounds in the measurement window, at least 2; 0 = 5 */
    double max_excursion;       /**< limit of (max - min) / |average|; 0 = 0.20 */
    double max_slope_excursion; /**< limit of |slope| x (window - 1) / |average| (the excursion
                                     of the least-squares line across the window); 0 = 0.10 */
} ssdsim_steady_opts;

/** Layout version of ssdsim_steady_opts (see "Versioned structs"): set by SSDSIM_STEADY_OPTS_INIT
 * and
 * ssdsim_steady_opts_init. */
#define SSDSIM_STEADY_OPTS_VERSION 1
#define SSDSIM_STEADY_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_STEADY_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_steady_opts_init(ssdsim_steady_opts *opts, unsigned int version);

/** What the rule found. The figures are those of the first steady window or, when none is
 * steady, of the last window examined (all 0 when there were fewer rounds than the window; NaN
 * when that window holds a value that is not finite). */
typedef struct ssdsim_steady_result {
    int steady; /**< a window met both limits */
    /** 0-based index of the last round of the first steady window; when none is steady, of the
     * last round examined (n - 1; 0 when n is 0) */
    size_t round;
    size_t window; /**< the window used */
    double average, min, max;
    double slope, intercept; /**< least-squares line over the window, per round (x = 0..w-1) */
    double excursion;        /**< (max - min) / |average| */
    double slope_excursion;  /**< |slope| x (window - 1) / |average| */
    /** The first round the rule judged: 0 for ssdsim_steady_check; for ssdsim_get_steady, the
     * first round that began on a preconditioned device (see there), or the number of whole
     * rounds when none did. */
    size_t first_round;
    /** Why no window is steady, one sentence ("" when one is): too few rounds, no window within
     * the limits, or "not preconditioned: ..." with the reason; with SSDSIM_EINVAL from
     * ssdsim_steady_check, what was refused. */
    char why_not[256];
} ssdsim_steady_result;

/** Apply the rule to a series of `n` per-round values (e.g. IOPS per round): the first window
 * of consecutive rounds that is steady. With fewer than `window` values nothing is steady. A
 * window holding a value that is not finite (NaN, infinity) is not steady. A window whose
 * values are all equal is steady, with excursions 0 (so all zeros are steady); one whose
 * average is 0 but whose values differ is not (its excursions are infinite).
 * @return 0, or SSDSIM_EINVAL (NULL x with n > 0, NULL out, window 1, a limit negative or NaN,
 *         an opts version newer than the library's); *out is zeroed first when out is not
 *         NULL, and on SSDSIM_EINVAL its why_not says what was refused. */
SSDSIM_API int ssdsim_steady_check(const double *x, size_t n, const ssdsim_steady_opts *opts,
                                   ssdsim_steady_result *out);
SSDSIM_API int ssdsim_steady_check_sized(const double *x, size_t n,
                                         const ssdsim_steady_opts *opts,
                                         ssdsim_steady_result *out, size_t size);
#define ssdsim_steady_check(x, n, opts, out)                                                       \
    ssdsim_steady_check_sized((x), (n), (opts), (out), sizeof *(out))

/** The variable a run tracks for its steady-state stop. */
typedef enum ssdsim_steady_var {
    SSDSIM_STEADY_IOPS = 0,     /**< I/Os per second of the interval (all operations) */
    SSDSIM_STEADY_BW = 1,       /**< bytes per second of the interval */
    SSDSIM_STEADY_LAT_MEAN = 2, /**< mean latency of the interval */
    SSDSIM_STEADY_WAF = 3       /**< write amplification of the interval (a NaN one, with no
                                     host write, makes its windows not steady) */
} ssdsim_steady_var;

/** Options of one measured run. Initialise with SSDSIM_RUN_OPTS_INIT (or zero), then set what you
 * need. At most one of the
 * three intervals may be set. Each interval of the time series is a round of the steady-state
 * rule, except the partial last interval that the end of the run adds. */
typedef struct ssdsim_run_opts {
    /** the layout the caller was compiled with: SSDSIM_RUN_OPTS_VERSION (0 = 1) */
    unsigned int version;
    uint64_t interval_ns;  /**< time-series interval in simulated ns; 0 = none */
    uint64_t interval_ios; /**< time-series interval in completed I/Os; 0 = none */
    /** Time-series interval in host bytes written: an interval closes at the completion of the
     * write that brings the bytes of the run's completed writes to the next multiple of it;
     * 0 = none */
    uint64_t interval_bytes;
    /** Stop the run at the end of the first interval (round) that completes a steady window of
     * `steady_var` by the SNIA rule (`steady`), of rounds that began on a preconditioned device
     * (ssdsim_get_steady: on a fresh drive the run goes on past the plateau before garbage
     * collection); needs one of the intervals. Stopping: the jobs
     * issue no more (sleeping ones included; later stonewall waves do not start) and the run
     * ends when the requests in flight complete. The workload's own end still stops the run
     * earlier. */
    int until_steady;
    ssdsim_steady_var steady_var; /**< what the rule judges (also for ssdsim_get_steady) */
    ssdsim_steady_opts steady;    /**< the rule's window and limits (zero: SNIA's) */
    /** Stop the run (as until_steady does) after this many intervals, steady or not; needs one of
     * the intervals; 0 = no limit. */
    uint32_t max_rounds;
} ssdsim_run_opts;

/** Layout version of ssdsim_run_opts (see "Versioned structs"): set by SSDSIM_RUN_OPTS_INIT and
 * ssdsim_run_opts_init. */
#define SSDSIM_RUN_OPTS_VERSION 1
#define SSDSIM_RUN_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_RUN_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_run_opts_init(ssdsim_run_opts *opts, unsigned int version);

/** The steady-state rule of the last run (its `steady_var` and `steady`; IOPS and SNIA's
 * values before any run) applied, as ssdsim_steady_check would, to the whole intervals of the
 * time series that began on a preconditioned device (from `first_round` on; `round` still
 * counts from the first row): steady 0 and round 0 when there is no series. The SNIA PTS
 * applies its rule only after preconditioning; a fresh drive's plateau before garbage
 * collection starts is not steady state. The device counts as preconditioned once, since the
 * last secure erase (or since new), the host has written at least twice its logical capacity
 * (as SNIA's workload-independent preconditioning, 2 sequential fills, does), the units never
 * written are at most 1% of the spare space (SNIA's fills write every one; random writes leave
 * e^-k of them after k drive writes, spare space to the FTL, and the WAF climbs until they are
 * written: an FTL without ssdsim_ftl_ops.mapped_units is not asked) and garbage collection has
 * erased a block (media without erase: the first two parts), or after
 * ssdsim_precondition_fast; every device of a system must be (a hard disk always is). The
 * window reported is the first steady one that the run's last rounds still agree with: when the
 * average of the last rounds after it (as many as the window holds, when there are that many)
 * is off its average by more than the excursion limit, the run left it, and the windows after
 * its first round are judged (why_not says so when none is steady). With until_steady the run
 * stopped at the round reported. @return 0 or SSDSIM_EINVAL (NULL argument). */
SSDSIM_API int ssdsim_get_steady(const ssdsim *sim, ssdsim_steady_result *out);
SSDSIM_API int ssdsim_get_steady_sized(const ssdsim *sim, ssdsim_steady_result *out, size_t size);
#define ssdsim_get_steady(sim, out) ssdsim_get_steady_sized((sim), (out), sizeof *(out))

/** Fast preconditioning: how the steady state is found. SSDSIM_FAST_PRECONDITION_OPTS_INIT (or
 * zero) gives the defaults. */
typedef struct ssdsim_fast_precondition_opts {
    /** the layout the caller was compiled with: SSDSIM_FAST_PRECONDITION_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** Blocks per plane of the scaled copy of the model that runs the workload to steady state
     * (same geometry otherwise; its over-provisioning is adjusted so that the space GC works
     * with is in the device's proportion, see doc/design.md); 0 = chosen by the library: at
     * least 256, never more than the device has. */
    uint32_t scaled_blocks_per_plane;
    /** Drive writes the scaled copy runs at least; it goes on until its WAF is steady too (at
     * most 40 drive writes, or 4 times this). The image claims the wear of what it ran, added
     * to the device's. 0 = 3. */
    double drive_writes;
} ssdsim_fast_precondition_opts;

/** Layout version of ssdsim_fast_precondition_opts (see "Versioned structs"): set by
 * SSDSIM_FAST_PRECONDITION_OPTS_INIT and
 * ssdsim_fast_precondition_opts_init. */
#define SSDSIM_FAST_PRECONDITION_OPTS_VERSION 1
#define SSDSIM_FAST_PRECONDITION_OPTS_INIT                                                         \
    SSDSIM__VERSIONED_INIT(SSDSIM_FAST_PRECONDITION_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_fast_precondition_opts_init(ssdsim_fast_precondition_opts *opts,
                                                  unsigned int version);

/** Fast preconditioning: put the device into the steady state a long run of `wl` leaves.
 *
 * With the functional method (ssdsim_set_precondition_method, the default), when the device
 * allows fast-forward (ssdsim_fast_forward) and `wl` is not one the scaled copy below
 * represents: the device is secure-erased (wear adds up) and `wl` is fast-forwarded in rounds
 * of one drive write of host writes (each round starts its jobs anew, as a run does, with the
 * same hot sets: see below) until the write amplification of the last 3 rounds is steady
 * (range within 2% of the mean, least-squares line within 1%) and at least `drive_writes`
 * (0 = 3) drive writes are done, or 40 (or 4 x drive_writes) drive writes at most. Any
 * generated workload will do (sequential, skewed, mixed, trims); its results say mode
 * "functional". A job of random writes with a skewed distribution (zipf, pareto, normal, or
 * zoned or zoned_abs whose zones all take accesses and cover the region) reaches every
 * address of its region, the coldest only after very many drive writes, and its steady state
 * has them all written: its region is first written once in address order (as SNIA's
 * workload-independent preconditioning does), then the rounds run. The hot set of such a job (which addresses its ranks fall on) is the
 * workload's: it comes from the simulation's seed and the job, not the run, as fio's comes from
 * the file and the job's thread number in every invocation, so the measured run that follows
 * writes the same hot blocks as the preconditioning.
 *
 * Otherwise, the scaled copy (with the functional method its rounds are fast-forwarded, with
 * the timed method they are timed runs): put the device directly into the state a long run of
 * `wl` would leave
 * (the valid pages of each block, in age order, the free blocks and the erase counts, taken
 * from a scaled copy of the model run to steady state; the logical pages placed uniformly at
 * random), so that a large drive starts at steady state in seconds. That placement is the
 * state uniform random writes leave, and only they: `wl`'s write jobs must be random writes
 * (randwrite, or randrw whose reads are left out) with the uniform distribution over the whole
 * device (each clone over all of it, or the clones over equal parts of it), any block sizes,
 * numjobs and iodepth, with or without the random map; its amounts, pacing and ramp are
 * ignored. The FTL must support it (the page FTL does; dftl does not).
 *
 * fio's random map (the default: every block once per pass of the job's region) makes the
 * write amplification cycle with the passes: a pass begins where the previous one's blocks are
 * wholly invalid and needs no GC copies at first. A job whose runs end inside a pass (bounded by
 * number_ios, an io_size that is not whole regions, a runtime, or time_based), and a mixed job
 * (randrw: its writes are only part of each pass), is therefore run
 * with replacement (norandommap) by both methods, which is the state its runs leave; a job of
 * whole passes keeps the map, and the drive is left where a pass ends, as its runs leave it.
 * Everything the device held is replaced, as by ssdsim_secure_erase, except that wear adds up.
 * Statistics are reset. doc/guide.md says how it was validated.
 * @return 0, SSDSIM_EINVAL (NULL argument, drive_writes negative), SSDSIM_ENOTFOUND (the FTL
 *         cannot install a state, or the model has an SLC cache and the method is timed), SSDSIM_ECONFIG (a job fast preconditioning cannot represent,
 *         a workload that does not fit the device, or a scaled copy too small for the model's
 *         GC watermark), SSDSIM_ESTATE (as ssdsim_secure_erase), SSDSIM_ENOMEM, or the codes of
 *         the scaled copy's runs (SSDSIM_ECANCELLED when the progress callback cancels them;
 *         the device is then unchanged). */
SSDSIM_API int ssdsim_precondition_fast(ssdsim *sim, const ssdsim_workload *wl,
                                        const ssdsim_fast_precondition_opts *opts);

/** Run a workload to its end and keep its results. Each job stops after number_ios requests if
 * that is set, else after writing or reading its region's size in bytes; runtime (simulated)
 * caps either. Statistics are reset at the start, so results describe this workload only; device
 * state (mapping, wear) carries over from what ran before.
 * @return 0, SSDSIM_EINVAL (NULL argument; bad run options: two intervals, until_steady or
 *         max_rounds without one, a bad steady_var or steady), SSDSIM_ECONFIG (the workload
 *         does not fit this device), SSDSIM_ECANCELLED (the progress callback asked to stop),
 *         SSDSIM_EFULL (the device can no longer free space for writes), SSDSIM_ESTALL (requests
 *         outstanding and no progress: GC relocating more than twice the flash without room
 *         for a host write, an hour of simulated time without host data moving, or 2^27 events
 *         without the clock moving; the message says which), SSDSIM_ENOMEM,
 *         SSDSIM_ESTATE (an earlier run on this simulation failed or was cancelled: the device
 *         state cannot be trusted, create a new simulation; or a plugin broke its contract: a
 *         GC policy chose a block that is not a candidate, an FTL completed a unit it was not
 *         handed, twice or with too many bytes, or an outside FTL left units it was handed
 *         uncompleted with nothing in flight). On failure ssdsim_errmsg() says why. */
SSDSIM_API int ssdsim_run(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts);

/** Let the device sit idle (no host I/O) for `duration_ns` of simulated time: work already
 * under way finishes and, when the model enables it (gc.bg_idle_us), background garbage
 * collection runs. Statistics of the last run are kept.
 * @return 0, SSDSIM_EINVAL (NULL sim, or an idle time that takes the clock past its limit,
 *         2^62 ns: about 146 years), SSDSIM_ESTATE (after a failed run, or called from a
 *         callback while events run), or an FTL failure code. */
SSDSIM_API int ssdsim_idle(ssdsim *sim, uint64_t duration_ns);

/** Called during a run about every 64k events with the fraction done in [0, 1]; a non-zero
 * return cancels the run (ssdsim_run then returns SSDSIM_ECANCELLED). The statistics of a
 * cancelled run stay readable: they cover the requests that completed before it stopped, and
 * ssdsim_interrupted() says so (the results JSON holds "interrupted": true). The simulation
 * cannot run again afterwards (SSDSIM_ESTATE). */
typedef int (*ssdsim_progress_fn)(double fraction, void *userdata);

/** Install (or, with NULL, remove) the progress callback. */
SSDSIM_API void ssdsim_set_progress(ssdsim *sim, ssdsim_progress_fn fn, void *userdata);

/** 1 when the last run was cancelled by the progress callback (its results cover only what
 * completed until then), 0 otherwise or for a NULL sim. */
SSDSIM_API int ssdsim_interrupted(const ssdsim *sim);

/* ------------------------------------------------------------------------------------------ */
/* Requests from the program itself (embedding)                                                */

/** Operation types: of submitted requests (read, write, trim, flush) and in results (all, too).
 * A flush (SSDSIM_OP_FLUSH, offset and length 0) completes when every write acknowledged before
 * it arrived is on flash: with a volatile write cache (buffer.write_cache without buffer.plp) it
 * waits for the cache to drain; with a protected cache, or none, it completes after the command
 * overheads. Flushes are not read, write or trim statistics: their count and latency are the
 * fio JSON's "sync" figures. */
enum ssdsim_op {
    SSDSIM_OP_READ = 0,
    SSDSIM_OP_WRITE = 1,
    SSDSIM_OP_TRIM = 2,
    SSDSIM_OP_ALL = 3,
    SSDSIM_OP_FLUSH = 4,
    /** In an ssdsim_request only (whose layout is fixed within 1.x): a write with Force Unit
     * Access (ssdsim_submit_opts.fua). Reported as a write. */
    SSDSIM_OP_WRITE_FUA = 5,
    /** Zoned drives (model key zns.zone_size) only, through ssdsim_submit: a Zone Append of
     * `length` bytes to the zone whose first byte is `offset`; the completion's offset is where
     * the data was written (the write pointer it found). Reported as a write. */
    SSDSIM_OP_ZONE_APPEND = 6,
    /** Zone management (offset: the zone's first byte, length 0): reset (the zone becomes
     * empty, its blocks are erased), finish (full), open (explicitly), close. Not read, write
     * or trim statistics: ssdsim_get_zns_stats counts them. */
    SSDSIM_OP_ZONE_RESET = 7,
    SSDSIM_OP_ZONE_FINISH = 8,
    SSDSIM_OP_ZONE_OPEN = 9,
    SSDSIM_OP_ZONE_CLOSE = 10
};
typedef enum ssdsim_op ssdsim_op;

/** What a request submitted with ssdsim_submit went through. Times in simulated ns; the parts
 * add up: complete - submit = queue + frontend + flash + transfer. */
typedef struct ssdsim_completion {
    uint64_t id;         /**< the caller's id, as given to ssdsim_submit */
    enum ssdsim_op op;   /**< read, write, trim or flush */
    uint64_t offset;     /**< bytes */
    uint64_t length;     /**< bytes */
    uint64_t submit_ns;  /**< arrival time */
    uint64_t complete_ns; /**< completion time (the callback runs at this simulated time) */
    uint64_t queue_ns;    /**< waiting on the host for a device queue slot */
    uint64_t frontend_ns; /**< protocol overhead, firmware, host-to-device data (writes) */
    uint64_t flash_ns;    /**< from the FTL to the last unit done: die queues, bus, array time */
    uint64_t transfer_ns; /**< device-to-host data after the last unit (reads) */
    uint64_t gc_wait_ns;  /**< of flash_ns, the longest a unit waited for a free block (GC) */
    uint32_t job; /**< the job clone that issued it, numbered over the run in job order (see
                       ssdsim_job_info.first_clone); SSDSIM_NO_JOB for ssdsim_submit requests */
    /** 0, or the NVMe status (status code type << 8 | status code) of a request a zoned drive
     * refused: SSDSIM_ZS_*. A refused request completes at once, moves no data and is not in
     * the statistics. */
    uint16_t status;
} ssdsim_completion;

/** NVMe statuses of zoned drives (ssdsim_completion.status; NVMe Zoned Namespace Command Set
 * 1.1, "Status Code Definitions": type 1, command specific, except Invalid Field). */
#define SSDSIM_ZS_INVALID_FIELD 0x002      /**< misaligned, not a zone's start, trim */
#define SSDSIM_ZS_BOUNDARY_ERROR 0x1B8     /**< a write past the zone's capacity */
#define SSDSIM_ZS_ZONE_FULL 0x1B9          /**< a write to a full zone */
#define SSDSIM_ZS_INVALID_WRITE 0x1BC      /**< a write not at the zone's write pointer */
#define SSDSIM_ZS_TOO_MANY_ACTIVE 0x1BD    /**< beyond zns.max_active */
#define SSDSIM_ZS_TOO_MANY_OPEN 0x1BE      /**< beyond zns.max_open */
#define SSDSIM_ZS_INVALID_TRANSITION 0x1BF /**< e.g. opening a full zone, closing an empty one */

/** Zone states (the NVMe Zone State values). */
enum ssdsim_zone_state {
    SSDSIM_ZONE_EMPTY = 0x1,
    SSDSIM_ZONE_IMPLICIT_OPEN = 0x2,
    SSDSIM_ZONE_EXPLICIT_OPEN = 0x3,
    SSDSIM_ZONE_CLOSED = 0x4,
    SSDSIM_ZONE_FULL = 0xE
};

/** One zone as ssdsim_report_zones describes it (bytes). */
typedef struct ssdsim_zone {
    uint64_t start;         /**< its first byte */
    uint64_t size;          /**< zns.zone_size */
    uint64_t capacity;      /**< zns.zone_capacity */
    uint64_t write_pointer; /**< the next byte a write must start at (start + bytes written) */
    enum ssdsim_zone_state state;
} ssdsim_zone;

/** Describe zones `first` .. first + n - 1 of a zoned drive (fewer at the end: *n_out says how
 * many were written). @return 0, SSDSIM_EINVAL (NULL arguments, a drive without zones, first
 * beyond the last zone). */
SSDSIM_API int ssdsim_report_zones(const ssdsim *sim, uint64_t first, ssdsim_zone *out, size_t n,
                                   size_t *n_out);

/** Zone figures of a zoned drive, cumulative since ssdsim_new (zones, open and active: now). */
typedef struct ssdsim_zns_stats {
    uint64_t zones, open, active;
    uint64_t resets, finishes, opens, closes; /**< zone commands done (opens, closes: explicit) */
    uint64_t implicit_closes; /**< implicitly open zones the drive closed for room (max_open) */
    uint64_t appends;         /**< zone appends done */
    uint64_t errors;          /**< requests refused with a zone status */
} ssdsim_zns_stats;

/** Fill *out. @return 0, or SSDSIM_EINVAL (NULL arguments, a drive without zones). */
SSDSIM_API int ssdsim_get_zns_stats(const ssdsim *sim, ssdsim_zns_stats *out);

/** Flexible Data Placement figures of one placement handle over the last run (NVMe TP4146's
 * Host Bytes with Metadata Written and Media Bytes with Metadata Written, per handle). */
typedef struct ssdsim_fdp_stats {
    uint64_t host_bytes;  /**< written by the host with this placement id */
    uint64_t media_bytes; /**< programmed for its data: its host writes and every GC or
                               wear-leveling copy of them */
    double waf;           /**< media / host; 0 when the host wrote nothing */
} ssdsim_fdp_stats;

/** Fill *out for placement handle `handle` (0 .. fdp.handles-1). @return 0, or SSDSIM_EINVAL
 * (NULL arguments, a drive without FDP, a handle out of range). */
SSDSIM_API int ssdsim_get_fdp_stats(const ssdsim *sim, uint32_t handle, ssdsim_fdp_stats *out);

/** The FDP figures of the whole drive over the last run: the statistics log's three figures and
 * the event log's counts by type (NVMe TP4146). */
typedef struct ssdsim_fdp_log {
    uint64_t host_bytes;         /**< Host Bytes with Metadata Written (every handle's) */
    uint64_t media_bytes;        /**< Media Bytes with Metadata Written (every handle's) */
    uint64_t media_bytes_erased; /**< Media Bytes Erased: blocks erased x their bytes */
    uint64_t ru_not_fully_written; /**< Reclaim Unit Not Fully Written events: reclaim units
                                        ended before they were full (ssdsim_fdp_ruh_update) */
    uint64_t media_reallocated;  /**< Media Reallocated events: host (or rebuilt) mapping units
                                      written outside the reclaim group their placement id
                                      named, which had no room (one per unit) */
    uint64_t ruh_updates;        /**< Reclaim Unit Handle Updates done (ssdsim_fdp_ruh_update) */
} ssdsim_fdp_log;

/** Fill *out. @return 0, or SSDSIM_EINVAL (NULL arguments, a drive without FDP). */
SSDSIM_API int ssdsim_get_fdp_log(const ssdsim *sim, ssdsim_fdp_log *out);

/** One reclaim group's figures over the last run (model key fdp.reclaim_groups). */
typedef struct ssdsim_fdp_group_stats {
    uint64_t host_bytes;         /**< written by the host with placement ids naming the group */
    uint64_t media_bytes;        /**< programmed on its dies (whichever group the data named) */
    uint64_t media_bytes_erased; /**< erased on its dies */
    uint64_t reallocated_bytes;  /**< of its host_bytes, written to another group (Media
                                      Reallocated) */
} ssdsim_fdp_group_stats;

/** Fill *out for reclaim group `group` (0 .. fdp.reclaim_groups-1). @return 0, or
 * SSDSIM_EINVAL (NULL arguments, a drive without FDP, a group out of range). */
SSDSIM_API int ssdsim_get_fdp_group_stats(const ssdsim *sim, uint32_t group,
                                          ssdsim_fdp_group_stats *out);

/** The placement id (TP4146: the reclaim group in its top RGIF bits, the handle below, RGIF the
 * bits that hold fdp.reclaim_groups - 1) of handle `handle` in group `group`, into *out.
 * @return 0, or SSDSIM_EINVAL (NULL arguments, a drive without FDP, out of range). */
SSDSIM_API int ssdsim_fdp_placement_id(const ssdsim *sim, uint32_t group, uint32_t handle,
                                       uint32_t *out);

/** Reclaim Unit Handle Update (NVMe I/O Management Send) of `placement_id`: the handle's
 * reclaim units in its group (the open blocks of its write frontier on the group's planes)
 * are ended now, so that its next writes start new ones; each ended before it was full counts
 * as a Reclaim Unit Not Fully Written event. Takes no simulated time. @return 0, or
 * SSDSIM_EINVAL (a drive without FDP, a bad placement id, mapping units smaller than the page
 * or RAIN superblocks, where it is not modelled). */
SSDSIM_API int ssdsim_fdp_ruh_update(ssdsim *sim, uint32_t placement_id);

/** ssdsim_completion.job of requests the program submitted itself. */
#define SSDSIM_NO_JOB UINT32_MAX

/** Called once per submitted request when it completes, from inside ssdsim_run_until,
 * ssdsim_step or ssdsim_drain. The struct is valid during the call only. The callback may
 * submit further requests (at times >= the completion time). */
typedef void (*ssdsim_complete_fn)(const ssdsim_completion *c, void *userdata);

/** Submit one request arriving at simulated time `at_ns` (>= ssdsim_now, at most 2^62 ns: the
 * clock's limit). `offset` and `length`
 * are bytes inside the logical capacity, length > 0 (any alignment: partial units cost a
 * read-modify-write). Nothing runs until ssdsim_run_until, ssdsim_step or ssdsim_drain.
 * Statistics record submitted requests like a workload's (ssdsim_reset_stats starts afresh).
 * One request is at most 4 GiB - 1 bytes. A flush (SSDSIM_OP_FLUSH) has offset and length 0.
 * @return 0, SSDSIM_EINVAL (bad op, range or time; NULL sim), SSDSIM_ESTATE (a workload run is
 *         not finished, or an earlier failure), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_submit(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length,
                             uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb, void *userdata);

/** Options of one submitted request (ssdsim_submit_ex). Initialise with SSDSIM_SUBMIT_OPTS_INIT
 * (or zero). */
typedef struct ssdsim_submit_opts {
    /** the layout the caller was compiled with: SSDSIM_SUBMIT_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** Force Unit Access (writes only): the write bypasses a volatile write cache (written
     * through) and completes when its data is on flash; a power-loss-protected cache still
     * acknowledges it from DRAM, as the NVMe FUA bit allows. */
    bool fua;
    /** The NVMe queue pair it is submitted to (model key nvme.queues; 0 .. queues-1). */
    uint32_t queue;
    /** (version 2) Writes: the Flexible Data Placement placement id (model key fdp.handles;
     * 0 .. handles-1, with fdp.reclaim_groups the group in its top bits:
     * ssdsim_fdp_placement_id; only 0 without FDP). */
    uint32_t placement;
} ssdsim_submit_opts;

/** Layout version of ssdsim_submit_opts (see "Versioned structs"). */
#define SSDSIM_SUBMIT_OPTS_VERSION 2
#define SSDSIM_SUBMIT_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_SUBMIT_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_submit_opts_init(ssdsim_submit_opts *opts, unsigned int version);

/** ssdsim_submit with options (NULL: the defaults, then the same as ssdsim_submit). A FUA flag
 * on anything but a write, a queue beyond the model's nvme.queues, or a placement id beyond
 * its fdp.handles or fdp.reclaim_groups, is SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_submit_ex(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length,
                                uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb,
                                void *userdata, const ssdsim_submit_opts *opts);

/** Run every event up to simulated time `t_ns` (requests, flash operations, GC), then set the
 * clock to t_ns (at most 2^62 ns, the clock's limit). ssdsim_run_until, ssdsim_step,
 * ssdsim_drain, ssdsim_idle, ssdsim_run and the preconditioning, secure erase and power-loss
 * calls run events: from a callback while events run (a completion, interval, progress or
 * observer callback) they are refused with SSDSIM_ESTATE, and the simulation stays usable.
 * @return 0, or an error code (ssdsim_errmsg says why). */
SSDSIM_API int ssdsim_run_until(ssdsim *sim, uint64_t t_ns);

/** Run one event. @return 1 when an event ran, 0 when nothing is pending, or an error code. */
SSDSIM_API int ssdsim_step(ssdsim *sim);

/** Run until every submitted request has completed, and stop there (ssdsim_now is then the
 * last completion time). @return 0, SSDSIM_EFULL (writes wait for space GC cannot make),
 * SSDSIM_ESTALL (the run stopped making progress, as for ssdsim_run),
 * SSDSIM_EINVAL, SSDSIM_ESTATE, SSDSIM_ENOMEM or an FTL failure code. */
SSDSIM_API int ssdsim_drain(ssdsim *sim);

/** The simulated clock, ns. */
SSDSIM_API uint64_t ssdsim_now(const ssdsim *sim);

/** Start the statistics afresh at the current time (to measure after a warm-up). Device state
 * and wear are kept. */
SSDSIM_API void ssdsim_reset_stats(ssdsim *sim);

/** Called at the end of every interval of `interval_ns` simulated ns while events run
 * (ssdsim_run_until, ssdsim_step, ssdsim_drain, ssdsim_idle); the interval is also kept in the
 * time series (ssdsim_get_interval). Installing, changing or removing it (NULL fn, or 0)
 * resets the statistics. A workload run (ssdsim_run) uses its own interval meanwhile and hands
 * back to the callback when it ends. When nothing is pending the ticks pause; the next
 * submitted request restarts them. @return 0 or SSDSIM_EINVAL (NULL sim). */
struct ssdsim_interval;
typedef void (*ssdsim_interval_fn)(const struct ssdsim_interval *iv, void *userdata);
SSDSIM_API int ssdsim_set_interval_callback(ssdsim *sim, uint64_t interval_ns,
                                            ssdsim_interval_fn fn, void *userdata);

/* ------------------------------------------------------------------------------------------ */
/* Request sources: replaying traces or the program's own request stream                      */

/** One request from a source. */
typedef struct ssdsim_request {
    uint64_t time_ns;  /**< arrival, ns after the start of the run (timed replay only) */
    enum ssdsim_op op; /**< READ, WRITE, TRIM, FLUSH (offset and length 0) or WRITE_FUA */
    uint64_t offset;   /**< bytes */
    uint64_t length;   /**< bytes, 1 .. 4 GiB - 1 */
    uint64_t id;       /**< passed back in ssdsim_completion.id (a trace's line number) */
} ssdsim_request;

/** A stream of requests the library pulls one at a time while it runs, so a source of any
 * length uses constant memory. `next` fills *req and returns 1, returns 0 at the end, or a
 * negative SSDSIM_E* code with a one-line reason in msg (the run then fails with that code
 * and ssdsim_errmsg gives the reason). Times must not decrease. */
typedef struct ssdsim_source {
    int (*next)(void *userdata, ssdsim_request *req, char *msg, size_t msglen);
    void *userdata;
} ssdsim_source;

/** How a source is replayed. Initialise with SSDSIM_REPLAY_OPTS_INIT (or zero), then set what you
 * need. */
typedef struct ssdsim_replay_opts {
    /** the layout the caller was compiled with: SSDSIM_REPLAY_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** 0: open loop, each request arrives at its time_ns (divided by time_scale) however many
     * are outstanding (beyond the device's queue depth they wait on the host). N > 0: closed
     * loop, N requests outstanding, times ignored: the next is issued when one completes. */
    uint32_t iodepth;
    double time_scale;     /**< open loop: 2 replays twice as fast, 0.5 half as fast; 0 = 1 */
    int wrap;              /**< requests beyond the device wrap around (offset modulo the
                                logical capacity) instead of failing the run */
    uint64_t max_requests; /**< stop after this many requests; 0 = the whole source */
    uint64_t runtime_ns;   /**< stop issuing after this much simulated time; 0 = no limit */
    const char *label;     /**< names the source in messages and results ("trace.csv") */
    /** (version 2) The NVMe queue pair its requests use (model key nvme.queues). */
    uint32_t queue;
    /** (version 3) The FDP placement id of its writes (model keys fdp.handles and
     * fdp.reclaim_groups). */
    uint32_t placement;
    /** (version 4) The volume its requests address: a JBOD's device k (0 to
     * ssdsim_model_n_volumes - 1); 0 for every other model. */
    uint32_t volume;
} ssdsim_replay_opts;

/** Layout version of ssdsim_replay_opts (see "Versioned structs"): set by SSDSIM_REPLAY_OPTS_INIT
 * and
 * ssdsim_replay_opts_init. */
#define SSDSIM_REPLAY_OPTS_VERSION 4
#define SSDSIM_REPLAY_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_REPLAY_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_replay_opts_init(ssdsim_replay_opts *opts, unsigned int version);

/** Replay a source on the device (like ssdsim_run: statistics are reset at the start, device
 * state carries over). @return the codes of ssdsim_run, or the source's own error code. */
SSDSIM_API int ssdsim_run_source(ssdsim *sim, const ssdsim_source *src,
                                 const ssdsim_replay_opts *ropts, const ssdsim_run_opts *opts);

/** Replay `n` sources at once (1 to 4096), source k as reported job k (a flow, named after its
 * label) on NVMe queue pair ropts[k]->queue. `ropts` may be NULL (defaults), and so may each
 * entry; a run wraps addresses when any of them sets wrap. @return as ssdsim_run_source. */
SSDSIM_API int ssdsim_run_sources(ssdsim *sim, const ssdsim_source *srcs,
                                  const ssdsim_replay_opts *const *ropts, size_t n,
                                  const ssdsim_run_opts *opts);

/** Watches every request of a simulation: on_issue when a request is issued (its arrival;
 * only id, op, offset, length, submit_ns and job are set), on_complete when it completes (all
 * fields). Either may be NULL. Called from inside the running simulation; they must not call
 * back into it, except to read statistics. */
typedef struct ssdsim_observer {
    void (*on_issue)(const ssdsim_completion *c, void *userdata);
    void (*on_complete)(const ssdsim_completion *c, void *userdata);
    void *userdata;
} ssdsim_observer;

/** Install (copied) or, with NULL, remove the observer. */
SSDSIM_API void ssdsim_set_observer(ssdsim *sim, const ssdsim_observer *obs);

/* ------------------------------------------------------------------------------------------ */
/* Device state (for FTL research)                                                             */

/** Geometry counts: planes, blocks (all planes), pages per block, page size, logical pages. */
SSDSIM_API int ssdsim_device_shape(const ssdsim *sim, uint32_t *n_planes, uint64_t *n_blocks,
                                   uint32_t *pages_per_block, uint32_t *page_size,
                                   uint64_t *logical_pages);

/** Free (erased) blocks of a plane now, or 0 for a plane out of range or an FTL that does not
 * say per plane. */
SSDSIM_API uint64_t ssdsim_plane_free_blocks(const ssdsim *sim, uint32_t plane);

/** Valid pages of a block now (page-mapped FTLs), and its erase count since new.
 * @return 0, SSDSIM_EINVAL (block out of range), SSDSIM_ENOTFOUND (the FTL does not expose
 *         valid counts). */
SSDSIM_API int ssdsim_block_state(const ssdsim *sim, uint64_t block, uint32_t *valid_pages,
                                  uint32_t *erase_count);

/** The physical page holding logical page `lpn`, or UINT64_MAX (never written, trimmed, or
 * the FTL cannot say). */
SSDSIM_API uint64_t ssdsim_lookup(const ssdsim *sim, uint64_t lpn);

/** Check every invariant of the simulation's state now: each device's mapping both ways
 * against its valid counts, free lists, open blocks and GC candidates, erase counts against
 * the erases done, pages programmed against what the FTL counted (host + GC + WL + mapping),
 * the write buffer's slots, DFTL's cached and global tables, FAST's block roles, the flash
 * operations in flight against what the FTL waits for, and RAID-5 parity over content tags
 * (when checks were enabled before the first write: ssdsim_set_check_period). Costs time in
 * proportion to the device's pages. Fills `why` (when not NULL) with the first broken
 * invariant, naming the device, block, page or unit.
 * @return 0, SSDSIM_ESTATE (an invariant is broken), SSDSIM_EINVAL (NULL sim), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_check(const ssdsim *sim, char *why, size_t len);

/** Run ssdsim_check every `n_events` simulation events (0: never) during runs, drains and
 * steps, and once at the end of each run. A broken invariant stops the run with SSDSIM_ESTATE
 * and ssdsim_errmsg() says which ("consistency check failed after N events: ..."). Setting it
 * before the first write also keeps the content tags RAID-5's parity check needs. Builds
 * configured with --enable-debug check every 2^20 events by default.
 * @return 0 or SSDSIM_EINVAL (NULL sim). */
SSDSIM_API int ssdsim_set_check_period(ssdsim *sim, uint64_t n_events);

/** Consistency checks done so far by the period of ssdsim_set_check_period. */
SSDSIM_API uint64_t ssdsim_checks_done(const ssdsim *sim);

/* ------------------------------------------------------------------------------------------ */
/* Results                                                                                     */

/** Per-operation-type figures of the last run. Latencies in ns; percentiles come from a
 * log-linear histogram whose relative error is below 1/128. */
typedef struct ssdsim_op_stats {
    uint64_t count;
    uint64_t bytes;
    double iops;
    double bw_bytes; /**< bytes per simulated second */
    uint64_t lat_min_ns, lat_max_ns;
    double lat_mean_ns, lat_stddev_ns;
    uint64_t lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p99_9_ns, lat_p99_99_ns;
} ssdsim_op_stats;

/** Device-level figures of the last run (counters since its start) and the state of wear. */
typedef struct ssdsim_device_stats {
    uint64_t host_pages_written;     /**< mapping units written by the host */
    uint64_t flash_pages_programmed; /**< pages programmed: host + GC + WL + mapping pages */
    uint64_t gc_pages_copied;        /**< mapping units relocated by garbage collection */
    uint64_t blocks_erased;
    double waf; /**< flash_pages_programmed / host_pages_written (0 when nothing was written) */
    uint64_t erase_count_min, erase_count_max; /**< over all blocks, since the drive was new */
    double erase_count_mean;
    uint64_t logical_bytes;  /**< what the host can address: the volume(s) */
    uint64_t physical_bytes; /**< the flash of every device */
    /** (physical - devices_logical_bytes) / devices_logical_bytes: the devices' own
     * over-provisioning (the same as against logical_bytes but for a RAID-5 or a mirror, whose
     * parity and copies are data to the devices, not spare) */
    double op;
    double spare_factor; /**< (physical - devices_logical_bytes) / physical */
    uint64_t free_blocks;
    /* Garbage collection split by when it ran, wear leveling, mapping metadata. */
    uint64_t gc_fg_victims;       /**< blocks collected while the host was active */
    uint64_t gc_bg_victims;       /**< blocks collected while the device was idle */
    uint64_t gc_bg_pages_copied;  /**< of gc_pages_copied, those copied while idle */
    uint64_t wl_pages_copied;     /**< units moved by wear leveling (also in flash_pages_programmed) */
    uint64_t map_pages_read;      /**< mapping (translation) pages read, e.g. DFTL misses */
    uint64_t map_pages_written;   /**< mapping pages written (also in flash_pages_programmed) */
    uint64_t merges;              /**< block merges (hybrid FTLs) */
    uint64_t flash_pages_read;    /**< all page reads: host, read-modify-write, GC, WL, mapping */
    uint64_t unmapped_reads;      /**< host units read without flash (never written, trimmed) */
    /* Endurance projection at the run's wear per host byte (wear_factor; doc/results.md). */
    uint32_t rated_pe_cycles;
    double tbw_mean_bytes;  /**< host bytes until the average block reaches its rating (of
                                 the volume: see array_write_factor) */
    double tbw_first_bytes; /**< host bytes until the most-worn block reaches its rating */
    double dwpd_5y_mean;    /**< drive writes per day over 5 years, average block */
    double dwpd_5y_first;   /**< drive writes per day over 5 years, most-worn block */
    /** spare_factor less the flash the FTL keeps free or open (GC watermark, open frontiers,
     * translation pages) and RAIN parity pages: the spare GC works with; NaN for an FTL whose reserve the library
     * does not know (a plugin), 0 for a hard disk */
    double spare_factor_effective;
    /* Appended after 1.0 (a caller compiled against older headers does not see them): the
     * firmware's and the NAND operations' work over the run, each 0 unless its mechanism is on
     * (doc/results.md, "Firmware and NAND operations"). */
    uint64_t fw_busy_ns;   /**< firmware time on the cores (and host FTL threads) inside the
                                run: work booked before it counts from its start, work that runs
                                past its end counts up to it */
    uint32_t fw_cores;     /**< the cores and host FTL threads; 0 when no controller.fw_* cost
                                is set (the firmware figures are then not reported) */
    double fw_utilization; /**< fw_busy_ns / (fw_cores x the run's simulated time, to the
                                present when read after idle time or later requests) */
    uint64_t nand_multiplane_ops;    /**< multi-plane operations (of 2 planes or more) */
    uint64_t nand_multiplane_planes; /**< the planes those operations covered, summed */
    uint64_t nand_cache_reads;       /**< reads out of the cache register (a unit each: with
                                          units smaller than the page, those of a page already
                                          in it count too) */
    uint64_t nand_cache_programs;    /**< pages programmed through the cache register */
    uint64_t nand_suspends;          /**< suspensions of programs and erases for host reads
                                          (one operation suspended k times counts k) */
    uint64_t nand_copybacks;         /**< GC copies programmed from the page register */
    bool multiplane_on, cache_read_on, cache_program_on, suspend_on, copyback_on; /**< the
        model's flash.multiplane, cache_read, cache_program, suspend, copyback */
    /* Appended after 1.0: the SLC cache of a TLC or QLC model (slc section), all 0 unless
     * slc_on (doc/results.md, "SLC cache"). */
    uint64_t slc_pages_written;  /**< host pages programmed in SLC mode */
    uint64_t slc_pages_folded;   /**< pages folded to native blocks (in flash_pages_programmed) */
    uint64_t slc_full_events;    /**< times host writes found the cache full (cliff episodes)
                                      in the run */
    uint64_t slc_pages_bypassed; /**< host pages written natively as the cache was full (with
                                      slc_pages_written, every host page of the run once) */
    uint64_t slc_full_ns;        /**< each episode from its first such write to its last, summed */
    uint64_t slc_used_pages;     /**< at the end: pages written in SLC mode not yet folded */
    uint64_t slc_capacity_pages; /**< at the end: pages the cache can hold (the static region and
                                      the dynamic blocks the free capacity allows) */
    bool slc_on;                 /**< the model has an SLC cache (slc.static or slc.dynamic) */
    /* Appended after the NAND operations: RAIN parity and the controller's read-ahead, each 0
     * unless the model turns it on (doc/results.md, "Parity and read-ahead"). */
    uint32_t parity_group;         /**< the model's ftl.parity_group (0: no parity) */
    uint64_t parity_pages_written; /**< parity pages programmed (also in flash_pages_programmed) */
    uint32_t readahead_streams;    /**< the model's read_ahead.streams (0: no read-ahead) */
    uint64_t readahead_units;      /**< units prefetched from flash (also in flash_pages_read) */
    uint64_t readahead_hits;       /**< host units served from prefetched data in DRAM */
    uint64_t readahead_wasted;     /**< prefetched units dropped before any host read used them */
    /* Appended later: mapping units smaller than the page (doc/models.md, "Mapping units other
     * than the page"), each 0 unless units_packed. */
    uint64_t nand_page_programs;  /**< flash pages programmed, whole or padded */
    uint64_t nand_padded_units;   /**< unit slots padded pages left empty (not in WAF) */
    uint64_t nand_register_hits;  /**< unit reads served from the page register without tR */
    bool units_packed;            /**< the model's ftl.mapping_unit is smaller than its page */
    /* Appended later: the SLC cache's foreground folding (doc/results.md, "SLC cache"). */
    uint64_t slc_fg_fold_blocks; /**< dynamic SLC blocks folded by foreground GC under writes
                                      (their pages are in slc_pages_folded) */
    /* Appended later: systems whose devices hold more than the volume (doc/results.md). */
    /** what the devices' FTLs map: logical_bytes plus a RAID-5's parity strips and a mirror's
     * copies, whole strips of each member (a remainder shorter than a strip is never written,
     * and counts as spare); logical_bytes for one device, a JBOD and, up to that remainder, a
     * RAID-0 */
    uint64_t devices_logical_bytes;
    /** bytes the devices were given per byte the host wrote: 1, or for a RAID-5 or a mirror
     * the run's ratio, at least the layout's own (n / (n - 1) for whole stripe rows of n
     * devices, n for n mirrors); tbw_* and dwpd_* divide by it (host bytes of the volume) */
    double array_write_factor;
    /* Appended later: the controller's write data path (controller.program_bw; doc/results.md,
     * "firmware and NAND operations"), all 0 unless the model sets it. */
    uint64_t wpath_busy_ns;     /**< time the write path was taken by programs' data inside
                                     the run, summed over the devices that have one */
    uint64_t wpath_bytes_per_s; /**< the model's controller.program_bw (per device) */
    double wpath_utilization;   /**< wpath_busy_ns / (devices x the run's simulated time, to
                                     the present when read later, as fw_utilization) */
    /* Appended later: the wear the lifetime projections divide by (doc/results.md). */
    /** flash wear per byte the host wrote to the devices: the bytes of page slots the run's
     * programs used up (units programmed, the empty slots of padded pages, an SLC-mode page as
     * the bits per cell of native pages, the slots a zone's reset erases unwritten) per byte
     * written; waf when every write fills whole units and pages; 0 when nothing was written */
    double wear_factor;
} ssdsim_device_stats;

/** Erase-count distribution since the drive was new: for each distinct erase count, in
 * increasing order, counts[i] is the count and blocks[i] how many blocks have it. Fills at most
 * `max` entries (the arrays may be NULL when max is 0) and returns the number of distinct
 * counts, which may exceed `max`; 0 for a NULL sim. */
SSDSIM_API size_t ssdsim_erase_histogram(const ssdsim *sim, uint32_t *counts, uint64_t *blocks,
                                         size_t max);

/** One interval of the time series (the preconditioning curve). */
typedef struct ssdsim_interval {
    uint64_t t_ns;   /**< end of the interval, simulated ns since the start of the run */
    uint64_t n_ios;  /**< I/Os completed in the interval */
    double iops;     /**< n_ios per simulated second of the interval */
    double bw_bytes; /**< bytes per simulated second of the interval */
    double lat_ns_mean, lat_ns_stddev;
    uint64_t lat_ns_max;
    double waf; /**< programmed / host-written units within this interval; NaN when the host
                     wrote nothing in it (JSON null, empty in CSV) */
    uint64_t host_pages_written;     /**< cumulative since the start of the run */
    uint64_t flash_pages_programmed; /**< cumulative since the start of the run */
    uint64_t free_blocks;            /**< at the end of the interval */
    /** 99th percentile latency of the interval (as ssdsim_op_stats's percentiles, from a
     * histogram of the interval's own latencies; 0 when none completed) */
    uint64_t lat_ns_p99;
    double waf_cumulative;       /**< programmed / host-written since the start of the run;
                                      NaN before the host wrote anything */
    uint64_t gc_pages_copied;    /**< in the interval */
    uint64_t blocks_erased;      /**< in the interval */
    uint64_t host_bytes_written; /**< cumulative since the start of the run */
    /** 1 for the last row when the end of the run cut its interval short (it holds the I/Os
     * completed since the last whole interval; its rates are over its own, shorter length):
     * not a round of the steady-state rule. 0 for every whole interval. */
    int partial;
} ssdsim_interval;

/** Figures of the last run for one operation type. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_op_stats(const ssdsim *sim, enum ssdsim_op op, ssdsim_op_stats *out);
SSDSIM_API int ssdsim_get_op_stats_sized(const ssdsim *sim, enum ssdsim_op op,
                                         ssdsim_op_stats *out, size_t size);
#define ssdsim_get_op_stats(sim, op, out)                                                          \
    ssdsim_get_op_stats_sized((sim), (op), (out), sizeof *(out))

/** The latency distribution of the last run for one operation type (for CDF plots): the
 * non-empty buckets of its log-linear histogram in increasing order, upper_ns[i] the bucket's
 * upper edge (relative width below 1/128) and counts[i] its samples. Fills at most `max`
 * entries (arrays may be NULL when max is 0) and returns the number of non-empty buckets, which
 * may exceed `max`; 0 for a NULL sim or a bad op. */
SSDSIM_API size_t ssdsim_latency_histogram(const ssdsim *sim, enum ssdsim_op op,
                                           uint64_t *upper_ns, uint64_t *counts, size_t max);

/** Device figures of the last run, summed over every device of a system (erase counts over
 * all their blocks; a hard disk adds no flash figures). @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_device_stats(const ssdsim *sim, ssdsim_device_stats *out);
SSDSIM_API int ssdsim_get_device_stats_sized(const ssdsim *sim, ssdsim_device_stats *out,
                                             size_t size);
#define ssdsim_get_device_stats(sim, out) ssdsim_get_device_stats_sized((sim), (out), sizeof *(out))

/** Entries of ssdsim_reliability_stats.reads_by_steps. */
#define SSDSIM_REL_STEPS 35

/** Bit errors and what the controllers did about them over the last run, summed over the
 * devices (the model's reliability section; doc/results.md, "Reliability"). Every figure is 0
 * unless `on`. */
typedef struct ssdsim_reliability_stats {
    bool on;                    /**< the model's reliability.rber_model is not "off" */
    uint32_t retry_max;         /**< the model's reliability.retry_max */
    uint64_t reads;             /**< flash reads decoded (host, GC, patrol; not copyback) */
    double rber_mean;           /**< the mean raw bit error rate of those reads */
    uint64_t retries;           /**< read-retry steps, summed */
    double retries_per_read;    /**< retries / reads */
    /** [s] for s <= retry_max: reads decoded by hard decision after s retries;
     * [retry_max + 1]: soft decoded; [retry_max + 2]: uncorrectable */
    uint64_t reads_by_steps[SSDSIM_REL_STEPS];
    uint64_t soft_decodes;      /**< reads that went on to soft decoding */
    uint64_t uncorrectable;     /**< reads that failed every step */
    uint64_t codewords_read;    /**< ECC codewords decoded */
    uint64_t codewords_failed;  /**< of those, uncorrectable */
    uint64_t bits_read;         /**< data bits of the codewords decoded */
    double uber;                /**< codewords_failed / bits_read (0 when nothing was read) */
    uint64_t reconstructed;     /**< uncorrectable reads rebuilt from RAIN parity */
    uint64_t reconstruction_reads; /**< the stripe-member reads those took */
    uint64_t reclaim_requests;  /**< blocks read reclaim asked the FTL to move */
    uint64_t reclaimed_blocks;  /**< blocks the FTL moved for read reclaim (copies in WAF) */
    uint64_t patrol_reads;      /**< pages read by patrol in idle time */
    uint64_t error_ns;          /**< die time of decodes, retries and soft decoding */
} ssdsim_reliability_stats;

/** Reliability figures of the last run. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_reliability(const ssdsim *sim, ssdsim_reliability_stats *out);
SSDSIM_API int ssdsim_get_reliability_sized(const ssdsim *sim, ssdsim_reliability_stats *out,
                                            size_t size);
#define ssdsim_get_reliability(sim, out)                                                           \
    ssdsim_get_reliability_sized((sim), (out), sizeof *(out))

/** Age the data on every device by `seconds`, as if the drive had sat that long powered off:
 * the retention age of every written block grows (reliability section; no simulated time
 * passes, no event runs). A model without bit errors is unchanged. @return 0 or
 * SSDSIM_EINVAL (NULL sim, seconds negative or above 1e12). */
SSDSIM_API int ssdsim_age(ssdsim *sim, double seconds);

/** Wear every block of every device by `cycles` more program/erase cycles at once, as ideal
 * wear leveling would spread them, without simulating the writes: the erase counts (and their
 * histogram) move up; data, mapping and time are untouched. With a reliability section the RBER
 * follows the new counts. An acceleration for end-of-life studies (doc/guide.md). @return 0,
 * SSDSIM_EINVAL (NULL sim, counts near 2^31) or SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_wear(ssdsim *sim, uint32_t cycles);

/** What one device of the simulation did in the last run (ssdsim_n_devices of them: 1 for a
 * device model; a system's in order). Commands are what reached the device: a RAID array's
 * pieces, parity and read-modify-write reads included. */
typedef struct ssdsim_device_io {
    uint64_t commands[3];           /**< completed read, write, trim commands */
    uint64_t bytes[3];              /**< their bytes */
    uint64_t host_pages_written;    /**< units written for the host (0 for a hard disk) */
    uint64_t flash_pages_programmed;/**< pages programmed for any purpose */
    uint64_t gc_pages_copied;
    uint64_t blocks_erased;
    double waf;                     /**< programmed / host pages; 0 when nothing was written */
    uint64_t free_blocks;           /**< now */
    uint64_t buffer_read_hits;      /**< units read from the write buffer */
    uint64_t buffer_absorbed;       /**< units overwritten in the buffer before reaching flash */
} ssdsim_device_io;

/** Devices in the simulation. */
SSDSIM_API uint32_t ssdsim_n_devices(const ssdsim *sim);

/** Figures of device `k` for the last run. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_device_io(const ssdsim *sim, uint32_t k, ssdsim_device_io *out);
SSDSIM_API int ssdsim_get_device_io_sized(const ssdsim *sim, uint32_t k, ssdsim_device_io *out,
                                          size_t size);
#define ssdsim_get_device_io(sim, k, out)                                                          \
    ssdsim_get_device_io_sized((sim), (k), (out), sizeof *(out))

/** Number of time-series intervals recorded by the last run. */
SSDSIM_API size_t ssdsim_n_intervals(const ssdsim *sim);

/** Copy interval `i` (0-based). @return 0 or SSDSIM_EINVAL when i is out of range. */
SSDSIM_API int ssdsim_get_interval(const ssdsim *sim, size_t i, ssdsim_interval *out);
SSDSIM_API int ssdsim_get_interval_sized(const ssdsim *sim, size_t i, ssdsim_interval *out,
                                         size_t size);
#define ssdsim_get_interval(sim, i, out) ssdsim_get_interval_sized((sim), (i), (out), sizeof *(out))

/** One job of the last run as reported: a job clone, or a whole reporting group when its jobs
 * asked for group_reporting (fio's rules). */
typedef struct ssdsim_job_info {
    const char *name;     /**< job section name ("job" for JSON workloads, the source's label) */
    uint32_t group;       /**< reporting group (new_group / stonewall start a new one) */
    uint32_t first_clone; /**< ssdsim_completion.job of its first clone */
    uint32_t n_clones;    /**< clones reported together (numjobs, or the group) */
    uint64_t start_ns, end_ns; /**< simulated, from the start of the run; runtime = end - start */
    uint64_t ramp_ns;     /**< ramp_time: I/Os issued before start + ramp_ns are not counted */
    int ss_set;           /**< the job had a steady-state criterion (ss=) */
    int ss_attained;      /**< ... and it was met (the job stopped there) */
    double ss_value;      /**< the criterion's last value: max deviation or slope (percent of
                               the mean when the limit was a percentage) */
    /* Appended after 1.0: how a replayed source was replayed (ssdsim_run_source,
     * ssdsim_run_sources); all 0 for the jobs of a workload. */
    int replay;               /**< 1: the job is a replayed source */
    uint32_t replay_iodepth;  /**< 0: open loop at the source's times; N: N outstanding, times
                                   ignored (ssdsim_replay_opts.iodepth) */
    double time_scale;        /**< open loop: the times divided by this (1 when not scaled) */
    int wrap;                 /**< addresses beyond the device wrapped (the run's wrap) */
    uint64_t wrapped_requests; /**< ... the requests that wrapped */
    uint64_t last_arrival_ns; /**< open loop: the last request's arrival, scaled, from the job's
                                   start (the span the source asked for; end_ns - start_ns is
                                   what the device took) */
    /** (appended) With ss_attained: 1 when the device was preconditioned as the criterion was
     * met (as ssdsim_get_steady counts it), else 0 and ss_why says why not: fio's criterion
     * then held on a state that does not last (a fresh drive's burst). */
    int ss_preconditioned;
    const char *ss_why;
} ssdsim_job_info;

/** Number of reported jobs of the last run (0 before any run). */
SSDSIM_API size_t ssdsim_n_jobs(const ssdsim *sim);

/** Describe reported job `i`. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_job(const ssdsim *sim, size_t i, ssdsim_job_info *out);
SSDSIM_API int ssdsim_get_job_sized(const ssdsim *sim, size_t i, ssdsim_job_info *out, size_t size);
#define ssdsim_get_job(sim, i, out) ssdsim_get_job_sized((sim), (i), (out), sizeof *(out))

/** Figures of reported job `i` for one operation type (rates over the job's runtime).
 * @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_get_job_op_stats(const ssdsim *sim, size_t i, enum ssdsim_op op,
                                       ssdsim_op_stats *out);
SSDSIM_API int ssdsim_get_job_op_stats_sized(const ssdsim *sim, size_t i, enum ssdsim_op op,
                                             ssdsim_op_stats *out, size_t size);
#define ssdsim_get_job_op_stats(sim, i, op, out)                                                   \
    ssdsim_get_job_op_stats_sized((sim), (i), (op), (out), sizeof *(out))

/** Simulated time the last run took, in ns. */
SSDSIM_API uint64_t ssdsim_sim_time_ns(const ssdsim *sim);

/* ------------------------------------------------------------------------------------------ */
/* Faults: bad blocks and power loss (doc/models.md, "Faults")                                 */

/** The faults a simulation's devices have met since ssdsim_new, summed over its devices (not
 * reset by a run: bad blocks stay bad). Bad blocks need the model's reliability.bad_fraction
 * or reliability.grown_prob_rated; a power loss needs ssdsim_power_loss (or the run options'
 * power_loss_ns / power_loss_after). Appended fields only, as every versioned struct. */
typedef struct ssdsim_fault_stats {
    uint64_t factory_bad_blocks; /**< blocks bad from the factory, never used */
    uint64_t grown_bad_blocks;   /**< blocks retired after a failed program/erase cycle */
    /** the device stats' spare_factor_effective less the bad blocks' share of the flash: the
     * spare GC works with now (NaN for an FTL whose reserve the library does not know) */
    double spare_factor_effective;
    bool read_only;               /**< the spare cannot hold the logical space: writes refused */
    uint64_t read_only_ns;        /**< simulated time it turned read-only */
    uint64_t read_only_host_bytes; /**< host bytes it had accepted for writing by then */
    uint64_t read_only_bad_blocks; /**< bad blocks (both kinds) of that device by then */
    uint64_t writes_refused;      /**< host writes refused as read-only (completed, not written) */
    uint64_t bytes_refused;       /**< their bytes */
    uint32_t power_losses;        /**< power losses so far */
    uint64_t power_loss_ns;       /**< simulated time of the last one */
    uint64_t lost_requests; /**< acknowledged writes with data lost (not yet on flash), all */
    uint64_t lost_units;    /**< mapping units of acknowledged data lost */
    uint64_t lost_bytes;    /**< bytes of acknowledged data lost (the units' bytes written) */
    uint64_t aborted_requests; /**< requests not yet acknowledged when power was lost, or
                                    arriving while it was off: ended without effect */
    uint64_t plp_units_flushed; /**< units a protected buffer flushed on its capacitors */
    uint64_t mount_ns;          /**< time of the last power-up's mapping rebuild */
    uint64_t mount_pages_read;  /**< flash pages it read (checkpoint + journal, or a scan) */
    /* A failed die (ssdsim_fail_die), of the first device that has one: */
    bool die_failed;
    uint32_t failed_channel, failed_chip, failed_die; /**< its address */
    uint64_t die_failed_ns;      /**< when it failed */
    uint64_t die_pages;          /**< logical pages it held then */
    uint64_t die_lost_pages;     /**< of those, lost at once (no parity) */
    uint64_t reconstructed_reads; /**< host reads served by reconstruction from parity */
    uint64_t reconstruct_pages_read; /**< flash pages those read (group - 1 each) */
    uint64_t unrecoverable_reads; /**< host reads of its data that could not be served */
    bool rebuild_done;           /**< its data is all rebuilt onto the other dies */
    uint64_t rebuild_ns;         /**< from the failure to the last rebuilt page written */
    uint64_t rebuild_pages;      /**< pages rebuilt (written elsewhere; in WAF as GC copies) */
    uint64_t rebuild_pages_read; /**< flash pages the rebuild read (group - 1 per page) */
    uint64_t rebuild_lost;       /**< pages the rebuild could not reconstruct (broken stripe) */
    bool plane_failed;           /**< one plane of that die failed (ssdsim_fail_plane), not all */
    uint32_t failed_plane;       /**< which (when plane_failed) */
    uint32_t failed_device;      /**< the device of a system the failure is set on (always 0) */
    /** simulated time the last run started (0 before any): die_failed_ns and power_loss_ns
     * less this are their times into that run, as ssdsim_point_state counts them */
    uint64_t run_start_ns;
    /** a die (or plane) failure is set for a time no run has reached yet: the address fields
     * and die_failed_ns say which and when (die_failed is false) */
    bool die_fail_pending;
    /** the last run's power loss (ssdsim_set_power_loss) was set for a time or a number of
     * requests the run did not reach: the power was lost at the run's end instead */
    bool power_loss_at_end;
} ssdsim_fault_stats;

/** Fill *out (see ssdsim_fault_stats). @return 0, or SSDSIM_EINVAL (NULL argument). */
SSDSIM_API int ssdsim_get_fault_stats_sized(const ssdsim *sim, ssdsim_fault_stats *out,
                                            size_t size);
#define ssdsim_get_fault_stats(sim, out) ssdsim_get_fault_stats_sized((sim), (out), sizeof *(out))

/** One acknowledged write whose data a power loss lost (ssdsim_lost_requests). */
typedef struct ssdsim_lost_request {
    uint64_t offset;     /**< the write's byte offset (of its volume) */
    uint64_t length;     /**< its length, bytes */
    uint64_t lost_bytes; /**< of those, the bytes lost (units rewritten later are not) */
    uint32_t device;     /**< the device that lost them */
} ssdsim_lost_request;

/** Cut the power of every device now (at ssdsim_now), with no request in flight (ssdsim_drain
 * first), and power them up again. What a volatile write buffer acknowledged and had not handed
 * to the flash is lost; a protected buffer (buffer.plp) writes its dirty units on its
 * capacitors, oldest first, as many as reliability.plp_energy_mj allows, and loses the rest.
 * Programs the controller had handed to the flash (running or queued on a die) end: a page
 * program takes well under a millisecond, within the rails' own hold-up. Then the FTL rebuilds
 * its mapping (reliability.mount_mode) and the mount time follows from the flash reads that
 * takes (ssdsim_fault_stats.mount_ns; the simulated clock moves on by it). The device then
 * works on: ssdsim_submit and runs may follow.
 * @return 0, SSDSIM_EINVAL (NULL), SSDSIM_ESTATE (requests in flight, a workload run not
 * finished, or an earlier failure), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_power_loss(ssdsim *sim);

/** Make the runs that follow (ssdsim_run, ssdsim_run_source, ssdsim_run_sources) end in a
 * power loss: `after_ns` simulated ns after a run's start, or once `after_requests` requests
 * have completed, whichever comes first (0: not by that measure; both 0 disarm it). The jobs
 * then issue no more (as until_steady stops them); once the requests in flight are done, the
 * run's statistics close and ssdsim_power_loss runs. A run that ends sooner loses power at its
 * end. @return 0, or SSDSIM_EINVAL (NULL sim). */
SSDSIM_API int ssdsim_set_power_loss(ssdsim *sim, uint64_t after_ns, uint64_t after_requests);

/** Make die `die` of chip `chip` on channel `channel` fail for good at simulated time `at_ns`
 * (>= ssdsim_now; it happens while requests run, in ssdsim_run_until, a run...). The time is
 * absolute, on the simulation's clock (ssdsim_now), not counted from a run's start: a run that
 * ends before it leaves the failure pending (ssdsim_fault_stats.die_fail_pending), and the
 * first later run or ssdsim_run_until that reaches `at_ns` fails the die then. From then on
 * the die is never written; with RAIN parity (ftl.parity_group) its data is read by
 * reconstruction from the other pages of each stripe and rebuilt onto the other dies at
 * reliability.rebuild_rate; without, it is lost (ssdsim_fault_stats). For a device model with
 * the page FTL (no SLC cache, ftl.placement not "lba"); a system's device 0.
 * @return 0, SSDSIM_EINVAL (NULL, an address outside the geometry, a time in the past, an FTL
 * or model it is not modelled for, a second failure) with the message set, SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_fail_die(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die,
                               uint64_t at_ns);

/** ssdsim_fail_die for one plane of the die only (`plane` < geometry.planes_per_die): its
 * blocks are never written again, their data reconstructed and rebuilt as a failed die's.
 * @return as ssdsim_fail_die (a plane outside the geometry is SSDSIM_EINVAL). */
SSDSIM_API int ssdsim_fail_plane(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die,
                                 uint32_t plane, uint64_t at_ns);

/** Copy up to `max` of the writes the power losses so far lost into out (in the order of
 * their devices and of the buffer's slots); returns how many there are in all (so a call
 * with max 0 sizes the array). 0 for NULL. */
SSDSIM_API size_t ssdsim_lost_requests(const ssdsim *sim, ssdsim_lost_request *out, size_t max);

/** Events the simulation's event engine has run since ssdsim_new, over every run and
 * preconditioning (the difference across a run is that run's): a measure of the simulator's
 * own work, not of the simulated device (benchmarks divide it by host I/Os). 0 for NULL. */
SSDSIM_API uint64_t ssdsim_events_executed(const ssdsim *sim);

/** The results of the last run as JSON (keys documented in doc/results.md). Returns a string
 * the caller frees with free(), or NULL when out of memory. */
SSDSIM_API char *ssdsim_results_json(const ssdsim *sim);

/** The results of the last run in the layout of fio's JSON output (`fio --output-format=json`,
 * fio 3.x): "fio version", "timestamp", "global options", and "jobs" with one entry per
 * reported job (ssdsim_get_job) holding "jobname", "groupid", "job options" (from `wl`, which
 * may be NULL), and per direction "read"/"write"/"trim" with io_bytes, io_kbytes, bw, bw_bytes,
 * iops, runtime (ms), total_ios, and "slat_ns", "clat_ns" (with "percentile") and "lat_ns"
 * objects, plus "steadystate" for jobs with ss=, and fio's json+ latency "bins". Tools that
 * read fio's JSON read it. Timestamps are 0 so that the text is the same on every run. Returns
 * a string the caller frees with free(), or NULL when out of memory. See doc/results.md. */
SSDSIM_API char *ssdsim_results_fio_json(const ssdsim *sim, const ssdsim_workload *wl);

/** Write the time series of the last run as CSV to `path`.
 * @return 0, SSDSIM_EIO (message in ssdsim_errmsg). */
SSDSIM_API int ssdsim_write_timeseries_csv(ssdsim *sim, const char *path);

#ifdef __cplusplus
}
#endif

#include "ssdsim/theory.h"

#endif /* SSDSIM_SSDSIM_H */
