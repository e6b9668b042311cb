/* ssdsim/point.h: one point of a measurement: a model, a workload, KEY=VALUE overrides of
 * model and workload keys, a seed (given, or derived from a base seed and the point's
 * parameters as `ssdsim sweep` derives it), a preconditioning, and the run's intervals,
 * steady-state stop and limits. It is what `ssdsim run` executes and what each point of
 * `ssdsim sweep` is, so a program gets the command's figures without its command line.
 *
 * Include it beside ssdsim/ssdsim.h (which does not include it); link with libssdsim.
 */
#ifndef SSDSIM_POINT_H
#define SSDSIM_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Points: overrides, seeds, preconditioning and the run                                       */

/** What a point does to the drive before its measured run. */
typedef enum ssdsim_precondition_mode {
    SSDSIM_PRECONDITION_NONE = 0, /**< the run starts on a fresh drive */
    SSDSIM_PRECONDITION_SEQ = 1,  /**< `precondition_fills` sequential fills (0 = 1) */
    SSDSIM_PRECONDITION_FAST = 2  /**< ssdsim_precondition_fast with the point's workload, then
                                       ssdsim_settle_adaptive (at most
                                       SSDSIM_SETTLE_DRIVE_WRITES) */
} ssdsim_precondition_mode;

/** How the seed of a point's simulation is found from its `seed`. */
typedef enum ssdsim_point_seed_rule {
    SSDSIM_POINT_SEED_GIVEN = 0,  /**< `seed` is the simulation's seed (`ssdsim run --seed`) */
    SSDSIM_POINT_SEED_DERIVED = 1 /**< `seed` is a base seed: ssdsim_point_seed of it and the
                                       `vary` overrides (each point of `ssdsim sweep`) */
} ssdsim_point_seed_rule;

/** One point. Initialise with SSDSIM_POINT_OPTS_INIT (or zero, or ssdsim_point_opts_init),
 * then set what you need; the strings and arrays stay the caller's. Overrides are "KEY=VALUE"
 * texts: a key "workload.X" sets the workload option X (ssdsim_workload_set), any other key a
 * model key (ssdsim_model_set, `value` as JSON text or a bare word); `set` is applied first,
 * then `vary` (the point's parameters: what a sweep varies and what a derived seed depends
 * on). */
typedef struct ssdsim_point_opts {
    /** the layout the caller was compiled with: SSDSIM_POINT_OPTS_VERSION (0 = 1) */
    unsigned int version;
    const char *const *set; /**< fixed overrides, n_set of them (may be NULL when 0) */
    size_t n_set;
    const char *const *vary; /**< the point's parameters, n_vary of them */
    size_t n_vary;
    uint64_t seed;                     /**< the seed, or the base seed (see seed_rule) */
    ssdsim_point_seed_rule seed_rule;  /**< how the simulation's seed comes from `seed` */
    ssdsim_precondition_mode precondition; /**< before the measured run */
    uint32_t precondition_fills;       /**< SSDSIM_PRECONDITION_SEQ: fills, 0 = 1 */
    /** The measured run: intervals, until_steady with its variable and rule, max_rounds (a
     * versioned struct of its own, read by its version; version 1 of these options holds
     * version 1 of it, and a larger ssdsim_run_opts will come with a new version of these). */
    ssdsim_run_opts run;
} ssdsim_point_opts;

/** Layout version of ssdsim_point_opts (see "Versioned structs" in ssdsim.h): set by
 * SSDSIM_POINT_OPTS_INIT and ssdsim_point_opts_init. */
#define SSDSIM_POINT_OPTS_VERSION 1
#define SSDSIM_POINT_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_POINT_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one); its `run` gets the version of
 * ssdsim_run_opts that this layout holds (1 for version 1). @return 0, or SSDSIM_EINVAL (NULL opts, a version newer than the
 * library's). */
SSDSIM_API int ssdsim_point_opts_init(ssdsim_point_opts *opts, unsigned int version);

/** Apply one override "KEY=VALUE" to `model` (model keys) or `wl` (keys "workload.X"); when the
 * object a key is for is NULL, the override is skipped (after its form is checked). On failure
 * the object is unchanged and `err` (may be NULL) has `path` = the key as written
 * ("workload.iodepth", "ftl.op"), `file` empty and `message` = "KEY: why" (an unknown key, a
 * bad value: the reason the model or workload loader gives, without its label).
 * @return 0, SSDSIM_EINVAL (NULL kv, no '=', an empty key), SSDSIM_ECONFIG (the key or its
 *         value refused), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_point_override(ssdsim_model *model, ssdsim_workload *wl, const char *kv,
                                     ssdsim_error *err);

/** Apply the overrides of `opts`, `set` then `vary` (model or wl may be NULL): the model's keys
 * all at once (ssdsim_model_set_many: validated together, so keys that depend on each other may
 * come in any order; a key given twice takes its last value), then the workload's one by one as
 * ssdsim_point_override applies them. On failure the model is unchanged when its overrides
 * failed, the workload's overrides before the failing one stay applied; *failed (may be NULL)
 * receives the index of the failing override, counting `set` first then `vary` (so an index
 * >= n_set is vary[index - n_set]). @return 0 or the codes of ssdsim_point_override;
 * SSDSIM_EINVAL for a bad opts version. */
SSDSIM_API int ssdsim_point_apply(ssdsim_model *model, ssdsim_workload *wl,
                                  const ssdsim_point_opts *opts, size_t *failed,
                                  ssdsim_error *err);

/** The seed `ssdsim sweep` gives a point: the 64-bit FNV-1a hash of the text
 * "seed=BASE;KEY1=VALUE1;KEY2=VALUE2;" (BASE in decimal, the keys in byte order, each key and
 * value as written), passed through the splitmix64 finalizer, its top 53 bits (so that JSON
 * readers hold it exactly). It depends on the base seed and the point's parameters, not on
 * their order nor on the point's place in a grid. `kv` holds n "KEY=VALUE" texts with distinct
 * keys. @return 0, or SSDSIM_EINVAL (NULL out, NULL kv with n > 0, a text without '='). */
SSDSIM_API int ssdsim_point_seed(uint64_t base, const char *const *kv, size_t n, uint64_t *out);

/** The seed a simulation of `opts` gets: `seed`, or ssdsim_point_seed(seed, vary) by
 * `seed_rule`. @return 0, or SSDSIM_EINVAL (NULL argument, bad version or rule, a vary text
 * without '='). */
SSDSIM_API int ssdsim_point_get_seed(const ssdsim_point_opts *opts, uint64_t *out);

/** A new simulation of `model` with the seed of `opts` (the first step of
 * ssdsim_point_run). @return as ssdsim_new, or SSDSIM_EINVAL for bad opts (named in `err`). */
SSDSIM_API int ssdsim_point_new(ssdsim **out, const ssdsim_model *model,
                                const ssdsim_point_opts *opts, ssdsim_error *err);

/** Precondition `sim` as `opts` says (nothing for SSDSIM_PRECONDITION_NONE); `wl` is needed by
 * SSDSIM_PRECONDITION_FAST only, which installs, settles (ssdsim_settle_adaptive) and fills a
 * RAID card's write-back cache (ssdsim_fill_card_cache). @return 0, SSDSIM_EINVAL (bad opts,
 * FAST without a workload) or the code of ssdsim_precondition_seq_fills /
 * ssdsim_precondition_fast / ssdsim_settle_adaptive / ssdsim_fill_card_cache (a cancelled one:
 * SSDSIM_ECANCELLED); the reason is in ssdsim_errmsg(sim). */
SSDSIM_API int ssdsim_point_precondition(ssdsim *sim, const ssdsim_workload *wl,
                                         const ssdsim_point_opts *opts);

/** What a drive goes through after its preconditioning and before its measured run: wear,
 * retention age, and the faults armed for the run (`ssdsim run --wear-pe`, `--age-days`,
 * `--power-loss-at`, `--power-loss-after`, `--fail`). SSDSIM_POINT_STATE_INIT (or zero):
 * nothing. */
typedef struct ssdsim_point_state {
    /** the layout the caller was compiled with: SSDSIM_POINT_STATE_VERSION (0 = 1) */
    unsigned int version;
    uint32_t wear_pe;  /**< P/E cycles added to every block (ssdsim_wear); 0: none */
    double age_days;   /**< the data's retention age (ssdsim_age, needs bit errors); 0: none */
    uint64_t power_loss_ns;    /**< ssdsim_set_power_loss: after this much of the run ... */
    uint64_t power_loss_after; /**< ... or this many requests (0 and 0: none) */
    bool fail;         /**< a die (fail_plane UINT32_MAX) or one plane of it fails */
    uint32_t fail_channel, fail_chip, fail_die, fail_plane;
    uint64_t fail_at_ns; /**< when, counted from the start of the measured run */
} ssdsim_point_state;

/** Layout version of ssdsim_point_state: set by SSDSIM_POINT_STATE_INIT. */
#define SSDSIM_POINT_STATE_VERSION 1
#define SSDSIM_POINT_STATE_INIT SSDSIM__VERSIONED_INIT(SSDSIM_POINT_STATE_VERSION)

/** Bring `sim` to `st` (NULL: nothing), in the order wear, age, power loss, failure (the
 * failure's time counted from now). *step (may be NULL) receives the field that failed
 * ("wear_pe", "age_days", "fail") or "" when none did. @return 0, SSDSIM_EINVAL (a state of an
 * unknown version, a negative or non-finite age, an age on a model without bit errors), or the
 * codes of ssdsim_wear, ssdsim_age, ssdsim_fail_die and ssdsim_fail_plane; ssdsim_errmsg(sim)
 * says why. */
SSDSIM_API int ssdsim_point_prepare(ssdsim *sim, const ssdsim_point_state *st, const char **step);

/** The measured run of `opts` (its `run` options) of `wl` on `sim`: ssdsim_run.
 * @return as ssdsim_run; SSDSIM_EINVAL for bad opts. */
SSDSIM_API int ssdsim_point_measure(ssdsim *sim, const ssdsim_workload *wl,
                                    const ssdsim_point_opts *opts);

/** Run the point: copies of `model` and `wl` (the caller's are not changed) with the overrides
 * applied, a simulation with the point's seed, its preconditioning, then its measured run.
 * *out receives the simulation that ran, to read the results from (ssdsim_get_op_stats,
 * ssdsim_results_json, ...) and free with ssdsim_free; the figures are the very ones of the
 * same steps done by hand (ssdsim_new, ssdsim_precondition_*, ssdsim_run). On failure *out is
 * NULL and `err` (may be NULL) holds the message. @return 0, or the code of the failing step
 * (ssdsim_point_apply, ssdsim_new, the preconditioning, ssdsim_run). */
SSDSIM_API int ssdsim_point_run(ssdsim **out, const ssdsim_model *model,
                                const ssdsim_workload *wl, const ssdsim_point_opts *opts,
                                ssdsim_error *err);

/** The workload `ssdsim demo` runs on `model`: 4 KiB uniform random writes, 16 jobs x 16 queue
 * depth, number_ios per job = 6 x (logical bytes / 4096) / 16 (six logical capacities in all,
 * from a fresh drive through the garbage-collection cliff to steady state); *interval_ios (may
 * be NULL) receives the I/Os of one of its 30 time-series intervals (all the I/Os / 30, rounded
 * up). @return 0, SSDSIM_EINVAL (NULL out or model), the codes of ssdsim_workload_set; *out NULL
 * on failure. */
SSDSIM_API int ssdsim_demo_workload(ssdsim_workload **out, const ssdsim_model *model,
                                    uint64_t *interval_ios, ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Grids of points                                                                             */

/** The cartesian product of the values of several keys (a sweep's --vary options), the first
 * key varying slowest: point k's value of key i is digit i of k in the mixed radix of the
 * value counts. Opaque; created by ssdsim_point_grid_new. */
typedef struct ssdsim_point_grid ssdsim_point_grid;

/** An empty grid (no key: one point, with no parameter). @return 0 or SSDSIM_ENOMEM (*out
 * NULL). */
SSDSIM_API int ssdsim_point_grid_new(ssdsim_point_grid **out);

/** Add a key with its values "V1,V2,...": split at the commas outside brackets, braces and
 * double-quoted strings (so that JSON values such as "[500,1800]" can be given), blanks around
 * each value dropped. `err` (may be NULL) gets "KEY: why". @return 0, SSDSIM_EINVAL (NULL or
 * empty key or values, an empty value, unbalanced brackets or quotes, a value given twice),
 * SSDSIM_ESTATE (the key is in the grid already), SSDSIM_ERANGE (more than 2^53 points),
 * SSDSIM_ENOMEM. On failure the grid is unchanged. */
SSDSIM_API int ssdsim_point_grid_add(ssdsim_point_grid *grid, const char *key, const char *values,
                                     ssdsim_error *err);

/** Number of keys, of points (the product of the value counts; 1 with no key), of the values of
 * key i (0 when out of range). */
SSDSIM_API size_t ssdsim_point_grid_n_keys(const ssdsim_point_grid *grid);
SSDSIM_API uint64_t ssdsim_point_grid_n_points(const ssdsim_point_grid *grid);
SSDSIM_API size_t ssdsim_point_grid_n_values(const ssdsim_point_grid *grid, size_t i);

/** Key i, and value j of key i, as added (NULL when out of range); owned by the grid. */
SSDSIM_API const char *ssdsim_point_grid_key(const ssdsim_point_grid *grid, size_t i);
SSDSIM_API const char *ssdsim_point_grid_value(const ssdsim_point_grid *grid, size_t i, size_t j);

/** The values of point `index`: values[i] (room for n_keys) is the value of key i, owned by the
 * grid. @return 0, or SSDSIM_EINVAL (NULL argument, index >= n_points). */
SSDSIM_API int ssdsim_point_grid_values(const ssdsim_point_grid *grid, uint64_t index,
                                        const char **values);

/** The file-safe name of a point whose key i has values[i] (n pairs): "KEY-VALUE" pairs joined
 * by "__", every byte but letters, digits and . _ + - replaced by '_'
 * ("ftl.op-0.07__workload.iodepth-32"); a name longer than 200 bytes is cut to 183 and ends in
 * '~' and the 16 hex digits of the FNV-1a hash of "KEY1=VALUE1;KEY2=VALUE2;...". The caller
 * frees it with free(). NULL when out of memory or for NULL keys or values with n > 0. */
SSDSIM_API char *ssdsim_point_name(const char *const *keys, const char *const *values, size_t n);

/** Free a grid; NULL is accepted. */
SSDSIM_API void ssdsim_point_grid_free(ssdsim_point_grid *grid);

/** How ssdsim_point_grid_check goes through a grid. SSDSIM_POINT_CHECK_OPTS_INIT (or zero, or
 * NULL options): no callback. */
typedef struct ssdsim_point_check_opts {
    /** the layout the caller was compiled with: SSDSIM_POINT_CHECK_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** called with each point's index before it is checked, and with UINT64_MAX once the
     * check ends (may be NULL): a caller that labels the library's notes (the log) by point
     * sets and clears its label there */
    void (*on_point)(uint64_t point, void *userdata);
    void *userdata;
} ssdsim_point_check_opts;

/** Layout version of ssdsim_point_check_opts: set by SSDSIM_POINT_CHECK_OPTS_INIT and
 * ssdsim_point_check_opts_init. */
#define SSDSIM_POINT_CHECK_OPTS_VERSION 1
#define SSDSIM_POINT_CHECK_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_POINT_CHECK_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_point_check_opts_init(ssdsim_point_check_opts *opts, unsigned int version);

/** Check every point of `grid` before any runs (what `ssdsim sweep` does), in grid order: no
 * two points may have the same name (ssdsim_point_name, the point's results file), and each
 * point's values, as "KEY=VALUE" overrides (ssdsim_point_apply of them as `vary`), must apply
 * to copies of `model` and `wl` (either may be NULL: the keys meant for it are then checked for
 * form only; the caller's objects are not changed). The first fault stops the check: *point
 * (may be NULL) receives its point and *other (may be NULL) the earlier point whose name it
 * has; both are UINT64_MAX when they do not apply. `err` (may be NULL) says "points J and K
 * have the same name NAME", or "KEY: why" for an override (as ssdsim_point_apply).
 * @return 0; SSDSIM_EINVAL (NULL grid, options of an unknown version), SSDSIM_ESTATE (two
 *         points share a name), the codes of ssdsim_point_override (an override refused),
 *         SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_point_grid_check(const ssdsim_point_grid *grid, const ssdsim_model *model,
                                       const ssdsim_workload *wl,
                                       const ssdsim_point_check_opts *opts, uint64_t *point,
                                       uint64_t *other, ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Manifest lines                                                                              */

/** What one line of a sweep manifest says (`ssdsim sweep --emit`: one JSON object a line):
 * everything a point needs to run alone, anywhere. The strings and arrays belong to whoever
 * filled the struct (the caller for ssdsim_point_line_format, the line for
 * ssdsim_point_line_get). Integers stay below 2^53, so that every JSON reader holds them
 * exactly. SSDSIM_POINT_LINE_SPEC_INIT sets the version. */
typedef struct ssdsim_point_line_spec {
    /** the layout the caller was compiled with: SSDSIM_POINT_LINE_SPEC_VERSION (0 = 1) */
    unsigned int version;
    uint64_t index, n_points; /**< the point's place in its grid: index < n_points */
    const char *name;         /**< file-safe name (ssdsim_point_name) */
    const char *model;        /**< model file or installed model name; NULL: the built-in */
    const char *workload;     /**< workload file */
    const char *const *set;   /**< fixed overrides "KEY=VALUE" (ssdsim_point_opts.set) */
    size_t n_set;
    const char *const *vary_keys;   /**< the point's parameters: keys ... */
    const char *const *vary_values; /**< ... and their values */
    size_t n_vary;
    uint64_t seed;            /**< the simulation's seed (derived: ssdsim_point_seed) */
    uint64_t base_seed;       /**< the sweep's base seed */
    const char *precondition; /**< "seq", "seq:N" or "fast" (ssdsim_point_parse_precondition),
                                   NULL: none */
    uint64_t interval_ns, interval_ios; /**< the time series; 0: none (not both) */
    const char *const *plugins; /**< plugin modules every point loads (may be NULL when 0) */
    size_t n_plugins;
    const char *out; /**< the path of the point's results */
    /* version 2: */
    /** the preconditioning method (ssdsim_set_precondition_method) its simulation takes:
     * "functional" or "timed"; NULL: functional, the default */
    const char *precondition_method;
} ssdsim_point_line_spec;

/** Layout version of ssdsim_point_line_spec: set by SSDSIM_POINT_LINE_SPEC_INIT. */
#define SSDSIM_POINT_LINE_SPEC_VERSION 2
#define SSDSIM_POINT_LINE_SPEC_INIT SSDSIM__VERSIONED_INIT(SSDSIM_POINT_LINE_SPEC_VERSION)

/** A --precondition value: "seq" (one sequential fill), "seq:N" (N fills, 1 to 1000) or
 * "fast". *mode and *fills (either may be NULL) receive it (fills 0 for "fast").
 * @return 0, or SSDSIM_EINVAL (NULL text, anything else). */
SSDSIM_API int ssdsim_point_parse_precondition(const char *text, ssdsim_precondition_mode *mode,
                                               uint32_t *fills);

/** The manifest line of `spec`: one line of JSON (no newline), members in the order index,
 * n_points, name, model (null for the built-in), workload, set, vary (an object, keys in the
 * spec's order), seed, base_seed, precondition, precondition_method (only when "timed": a
 * line without it is functional, as every line before the member existed), interval_ns,
 * interval_ios (null when 0), plugins (only when there are some: a line without them is that
 * of a sweep before plugins existed), out. *out is the caller's to free(). @return 0,
 * SSDSIM_EINVAL (NULL argument, a spec of an unknown version, index >= n_points, a NULL name,
 * workload or out, a NULL array with a count, a vary key NULL or empty, an invalid
 * precondition or precondition_method), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_point_line_format(char **out, const ssdsim_point_line_spec *spec);

/** A manifest line, parsed. Opaque; made by ssdsim_point_line_parse or _read. */
typedef struct ssdsim_point_line ssdsim_point_line;

/** Parse one manifest line. On failure `err` (may be NULL) says "not a JSON object", "unknown key
 * 'KEY'" (with "; did you mean 'K'?" when one is close) or "'FIELD' is missing or invalid", each
 * followed by "(is this a manifest from ssdsim sweep --emit?)", or "key 'KEY' given twice (each
 * key once)" or "varied key 'KEY' given twice in 'vary' (each key once)", with err->path the
 * field or key. @return 0, SSDSIM_EINVAL (NULL argument), SSDSIM_ECONFIG
 * (not a line of a manifest), SSDSIM_ENOMEM; *out NULL on failure. */
SSDSIM_API int ssdsim_point_line_parse(ssdsim_point_line **out, const char *text,
                                       ssdsim_error *err);

/** Read and parse line `index` (from 0) of manifest file `path`, which must hold point
 * `index`. A path that is not a regular file (a FIFO, a device) or is longer than 64 MiB is
 * refused without reading it. On failure `err` (may be NULL) says "PATH: cannot read: why", "PATH
 * has N lines (points 0 to N-1), no point K" ("PATH is empty: it holds no point (no point K)" for
 * an empty file), "PATH:LINE: " and the parse error, or "PATH:LINE: holds point J, not K (lines
 * must stay in the order ssdsim sweep --emit wrote them)". @return 0, SSDSIM_EINVAL (NULL
 * argument), SSDSIM_EIO (cannot read), SSDSIM_ENOTFOUND (no such line), SSDSIM_ECONFIG (a bad line
 * or one of another point), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_point_line_read(ssdsim_point_line **out, const char *path, uint64_t index,
                                      ssdsim_error *err);

/** What the line says (strings and arrays owned by the line). @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_point_line_get_sized(const ssdsim_point_line *line,
                                           ssdsim_point_line_spec *out, size_t size);
#define ssdsim_point_line_get(line, out) ssdsim_point_line_get_sized((line), (out), sizeof *(out))

/** The point's readable label "KEY1=VALUE1,KEY2=VALUE2" (its vary, in order; "" without), and
 * the manifest hash: the 16 hex digits of the FNV-1a hash of the line without its "out"
 * member (what a complete result must match; a results directory may move). Owned by the line;
 * NULL for NULL. */
SSDSIM_API const char *ssdsim_point_line_label(const ssdsim_point_line *line);
SSDSIM_API const char *ssdsim_point_line_hash(const ssdsim_point_line *line);

/** The "point" object a point's results begin with (index, n_points, name, params, base_seed,
 * precondition_method when the line has one, manifest_hash), as indented JSON text the caller
 * frees with free(); NULL for NULL or out of memory. */
SSDSIM_API char *ssdsim_point_line_results_member(const ssdsim_point_line *line);

/** The point options of the line: its set and vary overrides, its seed (given), its
 * preconditioning and its time series (interval_ns, interval_ios); the rest of `run` is the
 * defaults. The line's precondition_method is not a point option: a simulation takes it from
 * ssdsim_set_precondition_method (or SSDSIM_PRECONDITION_METHOD in the environment when it is
 * made, as `ssdsim run --manifest` sets it). The arrays belong to the line.
 * @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_point_line_opts(const ssdsim_point_line *line, ssdsim_point_opts *out);

/** Whether `results` (the text of a results file) are the complete results of the line's
 * point: JSON whose "point" object has the line's index and manifest hash, not marked
 * "interrupted". false for NULL. */
SSDSIM_API bool ssdsim_point_line_complete(const ssdsim_point_line *line, const char *results);

/** Free a line; NULL is accepted. */
SSDSIM_API void ssdsim_point_line_free(ssdsim_point_line *line);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_POINT_H */
