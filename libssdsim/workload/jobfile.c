/* jobfile.c: reading fio job files (the INI format of fio's HOWTO, "Job file format") into a
 * workload of one jobspec per job section.
 *
 * The format as fio 3.33 reads it (init.c, __parse_jobs_ini; parse.c):
 * - a line is cut at its first ';' or '#', wherever it is (fio's strip_blank_end), then trimmed;
 *   so "filename=/dev/a#b" is "/dev/a" to fio and here;
 * - "[name]" opens a section; a name that starts with "global" ([global], and fio's quirk
 *   [globalfoo]) opens a global section, whose options become defaults for the job sections
 *   after it: several global sections add to and override what the earlier ones set, and a job
 *   is affected only by the globals above it (fio copies its default job at each section);
 * - "key=value" (blanks around '=' allowed) or "key" alone, for fio's flags (time_based) and log
 *   prefixes (write_bw_log), with option names case-sensitive;
 * - "include FILE" inside a section reads FILE's lines into that section; a relative FILE is
 *   looked for beside the including file; included files cannot open sections;
 * - in values, ${NAME} is the environment variable NAME, and $pagesize, $mb_memory and $ncpus
 *   are this machine's page size, memory in MiB and online CPUs (sysconf): such a job file
 *   depends on the machine it is read on.
 *
 * Differs from fio, each to refuse what fio would silently misread: an unset ${NAME} is an error
 * (fio substitutes ""), so is "[]" (fio makes a job with an empty name), a header without its
 * ']' (fio drops the last character), a missing include file (fio 3.33 reports it but goes on),
 * an include cycle (fio recurses until it crashes), a file without a job section, and
 * arithmetic on $pagesize-style keywords or in parentheses.
 *
 * Each option is checked when it is read, so errors carry its file and line
 * ("job.fio:12: bs: expected a size like 4k or 1m, got 'four'"). A job is then built from fio's
 * defaults, the global options above it and its own, in file order, except that the block size
 * options go last, bs before bsrange before bssplit: fio keeps the three apart and uses bssplit
 * if given, else bsrange, else bs, whatever their order. Nothing here is on a hot path.
 *
 * Reading is linear in the file: the options of a global section are applied once, when the
 * section ends, to a job of defaults that every later job is copied from (the block sizes, which
 * go last, are kept per direction and class), and the globals a job lists as written are kept
 * once per option name, with the first place and the last value (what results show: see
 * job_options in results_fio.c). Applying every global above each job again made a file of a
 * global section per job quadratic in time and memory.
 *
 * A file, and everything it includes together, holds at most JOBFILE_MAX_BYTES, and a line at
 * most the trace readers' SSDSIM__TRACE_MAX_LINE; only regular files can be included (a device
 * or a FIFO could be endless).
 */
/* realpath (include cycles) is X/Open: ask for it before any system header. */
#define _XOPEN_SOURCE 700

#include "config/jsonutil.h"
#include "trace/trace.h"
#include "workload/workload.h"

#include <ctype.h>
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper includes are refused: a job file that needs more is more likely a mistake. */
#define INCLUDE_DEPTH_MAX 16

/* One option as read: where it was written, for messages. */
struct opt {
    char *key;        /* g_malloc'ed, as is value */
    char *value;      /* after ${} and keyword expansion; NULL when given without '=' */
    const char *file; /* one of the reader's file names */
    uint32_t line;
};

struct optlist {
    struct opt *v;
    size_t n, cap;
};

/* Block-size options are classes 1 (bs), 2 (bsrange) and 3 (bssplit); see bs_class. */
#define N_BS_CLASSES 3

struct reader {
    struct ssdsim_workload *wl;
    bool lenient;
    ssdsim_error *err;
    char **files; /* every file name used in messages, owned */
    size_t n_files;
    char *stack[INCLUDE_DEPTH_MAX + 1]; /* real paths of the files being read, for cycles */
    unsigned depth;
    size_t n_bytes; /* of the file and its includes so far, against JOBFILE_MAX_BYTES */
    /* The global sections so far: fio's defaults with their options applied in order, except
     * the block sizes; per class of block-size option and direction, what the last global
     * option of that class set (applied to each job in fio's order, see build_job); and the
     * options as written, one entry per fio name (see global_raw). */
    struct ssdsim__jobspec base;
    struct ssdsim__bsdist gbs[N_BS_CLASSES][SSDSIM__N_DIRS];
    bool gbs_set[N_BS_CLASSES][SSDSIM__N_DIRS];
    struct optlist graw;
    struct optlist section; /* the current section's */
    bool in_section, global;
    char *name;
    const char *sec_file;
    uint32_t sec_line;
};

/* Fill the caller's error: message "file:line: key: what" (parts left out when absent), and the
 * fields file, line and path (= the option). Returns code. */
static int reader_error(struct reader *r, int code, const char *file, uint32_t line,
                        const char *key, const char *fmt, ...) SSDSIM__PRINTF(6, 7);

static int reader_error(struct reader *r, int code, const char *file, uint32_t line,
                        const char *key, const char *fmt, ...)
{
    char what[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char where[300];
    if (line > 0)
        snprintf(where, sizeof where, "%s:%u", file, line);
    else
        snprintf(where, sizeof where, "%s", file);
    ssdsim__error_set(r->err, code, NULL, NULL, "%s: %s%s%s", where, key ? key : "",
                      key ? ": " : "", what);
    if (r->err) {
        snprintf(r->err->file, sizeof r->err->file, "%s", file);
        r->err->line = (int)line;
        if (key)
            snprintf(r->err->path, sizeof r->err->path, "%s", key);
    }
    return code;
}

static int oom(struct reader *r, const char *file, uint32_t line)
{
    return reader_error(r, SSDSIM_ENOMEM, file, line, NULL, "out of memory");
}

static void optlist_clear(struct optlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        g_free(l->v[i].key);
        g_free(l->v[i].value);
    }
    l->n = 0;
}

static void optlist_free(struct optlist *l)
{
    optlist_clear(l);
    free(l->v);
    l->v = NULL;
    l->cap = 0;
}

/* Append, taking ownership of key and value (freed on failure too). */
static int optlist_push(struct optlist *l, char *key, char *value, const char *file, uint32_t line)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        struct opt *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            g_free(key);
            g_free(value);
            return SSDSIM_ENOMEM;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct opt){key, value, file, line};
    return 0;
}

/* Keep a file name for as long as the reader lives (options point at it). */
static const char *intern_file(struct reader *r, const char *name)
{
    char **files = realloc(r->files, (r->n_files + 1) * sizeof *files);
    if (!files)
        return NULL;
    r->files = files;
    files[r->n_files] = strdup(name);
    if (!files[r->n_files])
        return NULL;
    return files[r->n_files++];
}

/* ------------------------------------------------------------------------------------------ */
/* Values: ${NAME} and fio's keywords                                                          */

/* fio's reserved keywords (HOWTO, "Reserved keywords"). 0 when the system cannot tell. */
static uint64_t keyword_value(int which)
{
    long page = sysconf(_SC_PAGESIZE);
    if (which == 0)
        return page > 0 ? (uint64_t)page : 0;
    if (which == 1) {
        long pages = sysconf(_SC_PHYS_PAGES);
        return page > 0 && pages > 0 ? ((uint64_t)pages * (uint64_t)page) >> 20 : 0;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? (uint64_t)cpus : 0;
}

/* The value with ${NAME} replaced from the environment, then $pagesize, $mb_memory and $ncpus
 * (fio's order: option_dup_subs, then fio_keyword_replace). Returns 0 and *out (g_free() it),
 * or an error naming the variable. */
static int expand(struct reader *r, const char *file, uint32_t line, const char *key,
                  const char *value, char **out)
{
    static const char *const keywords[] = {"$pagesize", "$mb_memory", "$ncpus"};
    *out = NULL;
    GString *env = g_string_new(NULL);
    for (const char *p = value; *p;) {
        if (p[0] == '$' && p[1] == '{') {
            const char *close = strchr(p + 2, '}');
            if (!close) {
                g_string_free(env, TRUE);
                return reader_error(r, SSDSIM_ECONFIG, file, line, key,
                                    "'${' without its '}' (a variable is written ${NAME})");
            }
            if (close == p + 2) {
                g_string_free(env, TRUE);
                return reader_error(r, SSDSIM_ECONFIG, file, line, key,
                                    "'${}' names no environment variable");
            }
            char *name = g_strndup(p + 2, (gsize)(close - p - 2));
            const char *v = getenv(name);
            if (!v) {
                int rc = reader_error(r, SSDSIM_ECONFIG, file, line, key,
                                      "environment variable '%s' is not set (fio would put an "
                                      "empty string in its place)",
                                      name);
                g_free(name);
                g_string_free(env, TRUE);
                return rc;
            }
            g_free(name);
            g_string_append(env, v);
            p = close + 1;
            continue;
        }
        g_string_append_c(env, *p++);
    }

    GString *g = g_string_new(NULL);
    bool keyword = false;
    for (const char *p = env->str; *p;) {
        size_t k = 0;
        while (k < SSDSIM__ARRAY_LEN(keywords) && strncmp(p, keywords[k], strlen(keywords[k])))
            k++;
        if (k == SSDSIM__ARRAY_LEN(keywords)) {
            g_string_append_c(g, *p++);
            continue;
        }
        uint64_t v = keyword_value((int)k);
        if (v == 0) {
            g_string_free(g, TRUE);
            g_string_free(env, TRUE);
            return reader_error(r, SSDSIM_ECONFIG, file, line, key, "this system does not tell %s",
                                keywords[k]);
        }
        g_string_append_printf(g, "%llu", (unsigned long long)v);
        p += strlen(keywords[k]);
        keyword = true;
    }
    g_string_free(env, TRUE);
    /* fio evaluates arithmetic around its keywords ("8*$mb_memory"), with microseconds as the
     * time unit inside expressions; rather than risk reading it differently, it is refused. */
    if (keyword && strpbrk(g->str, "*+^()")) {
        int rc = reader_error(r, SSDSIM_ECONFIG, file, line, key,
                              "arithmetic ('%.60s') is not supported: write the value", g->str);
        g_string_free(g, TRUE);
        return rc;
    }
    *out = g_string_free(g, FALSE);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Sections and jobs                                                                           */

/* Check one option by applying it to a job of defaults: errors name the line it is on, and an
 * ignored option is listed once. Returns 0, 1 when a lenient load skips it, or an error. */
static int check_option(struct reader *r, const char *file, uint32_t line, const char *key,
                        const char *value)
{
    char why[512];
    int rc = ssdsim__fio_check_jobfile_value(key, value, why, sizeof why);
    if (rc)
        return reader_error(r, rc, file, line, key, "%s", why);
    struct ssdsim__jobspec scratch;
    ssdsim__jobspec_defaults(&scratch);
    rc = ssdsim__jobspec_apply(&scratch, key, value, why, sizeof why);
    ssdsim__jobspec_clear(&scratch);
    if (rc == 0)
        return 0;
    if (rc == SSDSIM__IGNORED)
        return ssdsim__workload_note_ignored(r->wl, key) ? oom(r, file, line) : 0;
    if (rc == SSDSIM_ENOTFOUND) {
        if (r->lenient)
            return ssdsim__workload_note_skipped(r->wl, key) ? oom(r, file, line) : 1;
        /* "unknown option (did you mean 'x'?)" becomes "unknown option 'key' (did you ...)". */
        const char *hint = strncmp(why, "unknown option", 14) ? "" : why + 14;
        int code = reader_error(r, SSDSIM_ECONFIG, file, line, NULL, "unknown option '%.100s'%s",
                                key, hint);
        if (r->err)
            snprintf(r->err->path, sizeof r->err->path, "%s", key);
        return code;
    }
    return reader_error(r, rc == SSDSIM_ENOMEM ? rc : SSDSIM_ECONFIG, file, line, key, "%s", why);
}

/* The block-size options go last, in fio's order of precedence (see the top of the file). */
static int bs_class(const char *key)
{
    const char *name = ssdsim__fio_option_lookup(key, NULL);
    if (!name)
        return 0;
    if (!strcmp(name, "bs"))
        return 1;
    if (!strcmp(name, "bsrange"))
        return 2;
    if (!strcmp(name, "bssplit"))
        return 3;
    return 0;
}

static int apply_list(struct reader *r, struct ssdsim__jobspec *job, const struct optlist *l,
                      int cls)
{
    char why[512];
    for (size_t i = 0; i < l->n; i++) {
        const struct opt *o = &l->v[i];
        if (bs_class(o->key) != cls)
            continue;
        int rc = ssdsim__jobspec_apply(job, o->key, o->value, why, sizeof why);
        if (rc < 0)
            return reader_error(r, rc == SSDSIM_ENOMEM ? rc : SSDSIM_ECONFIG, o->file, o->line,
                                o->key, "%s", why);
    }
    return 0;
}

static int add_raw_list(struct ssdsim__jobspec *job, const struct optlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (ssdsim__jobspec_add_raw(job, l->v[i].key, l->v[i].value))
            return SSDSIM_ENOMEM;
    return 0;
}

/* One global option, applied to what later jobs start from: a block size to the global block
 * sizes of its class, anything else to r->base. Its value was checked when it was read. */
static int fold_global(struct reader *r, const struct opt *o)
{
    char why[512];
    int cls = bs_class(o->key), rc;
    if (cls == 0) {
        rc = ssdsim__jobspec_apply(&r->base, o->key, o->value, why, sizeof why);
    } else {
        /* Block-size options set whole directions and leave the others: applied to a job whose
         * block sizes are all empty (which no option leaves), the directions it set are those
         * no longer empty. */
        struct ssdsim__jobspec scratch;
        ssdsim__jobspec_defaults(&scratch);
        memset(scratch.bs, 0, sizeof scratch.bs);
        rc = ssdsim__jobspec_apply(&scratch, o->key, o->value, why, sizeof why);
        for (int d = 0; d < SSDSIM__N_DIRS && rc >= 0; d++)
            if (scratch.bs[d].n > 0 || scratch.bs[d].range_max > 0) {
                r->gbs[cls - 1][d] = scratch.bs[d];
                r->gbs_set[cls - 1][d] = true;
            }
        ssdsim__jobspec_clear(&scratch);
    }
    if (rc < 0)
        return reader_error(r, rc == SSDSIM_ENOMEM ? rc : SSDSIM_ECONFIG, o->file, o->line, o->key,
                            "%s", why);
    return 0;
}

/* Keep a global option as written for the jobs' lists of options, taking ownership of key and
 * value. Results show a key under fio's name, in the place of its first value and with its
 * last (options without a value are left out); so one entry per name is kept: a value goes to
 * the entry already holding one, else to a new entry at the end (dropping one without a
 * value), and an option without a value is kept only when its name has no entry yet. The list
 * holds at most one entry per option name, so the scan is bounded by the option table. */
static int global_raw(struct reader *r, char *key, char *value, const struct opt *o)
{
    struct optlist *l = &r->graw;
    const char *name = ssdsim__fio_canonical_name(key);
    bool has_value = value && value[0];
    for (size_t i = 0; i < l->n; i++) {
        struct opt *e = &l->v[i];
        if (strcmp(ssdsim__fio_canonical_name(e->key), name))
            continue;
        bool e_value = e->value && e->value[0];
        if (!has_value || e_value) {
            if (has_value) {
                g_free(e->value);
                e->value = value;
                value = NULL;
            }
            g_free(key);
            g_free(value);
            return 0;
        }
        /* The entry had no value and this one has: it moves to the end. */
        g_free(e->key);
        g_free(e->value);
        memmove(e, e + 1, (l->n - i - 1) * sizeof *e);
        l->n--;
        break;
    }
    return optlist_push(l, key, value, o->file, o->line);
}

/* A job: fio's defaults, the globals above it, its name, its own options, then block sizes. */
static int build_job(struct reader *r)
{
    struct ssdsim__jobspec job;
    if (ssdsim__jobspec_copy(&job, &r->base))
        return oom(r, r->sec_file, r->sec_line);
    job.line = r->sec_line;
    int rc = 0;
    /* The section names the job even when a global section said name=... (fio sets the name
     * of each new job after copying the defaults); its own name= still wins. */
    free(job.name);
    job.name = strdup(r->name);
    if (!job.name)
        rc = oom(r, r->sec_file, r->sec_line);
    if (rc == 0)
        rc = apply_list(r, &job, &r->section, 0);
    for (int cls = 1; cls <= N_BS_CLASSES && rc == 0; cls++) {
        for (int d = 0; d < SSDSIM__N_DIRS; d++)
            if (r->gbs_set[cls - 1][d])
                job.bs[d] = r->gbs[cls - 1][d];
        rc = apply_list(r, &job, &r->section, cls);
    }
    if (rc == 0 && (add_raw_list(&job, &r->graw) || add_raw_list(&job, &r->section)))
        rc = oom(r, r->sec_file, r->sec_line);
    /* A log option given without a prefix names the log after the job, as fio does. */
    if (rc == 0 && ssdsim__jobspec_name_logs(&job))
        rc = oom(r, r->sec_file, r->sec_line);
    if (rc == 0) {
        char where[256];
        snprintf(where, sizeof where, "%s:%" PRIu32 ": ", r->sec_file, r->sec_line);
        ssdsim__jobspec_note_engine(&job, where);
    }
    if (rc == 0 && ssdsim__workload_add_job(r->wl, &job))
        rc = oom(r, r->sec_file, r->sec_line);
    ssdsim__jobspec_clear(&job);
    return rc;
}

static int end_section(struct reader *r)
{
    int rc = 0;
    if (!r->in_section)
        return 0;
    if (r->global) {
        /* Apply the section's options to what later jobs start from, in order. */
        for (size_t i = 0; i < r->section.n && rc == 0; i++) {
            struct opt *o = &r->section.v[i];
            rc = fold_global(r, o);
            if (rc == 0) {
                char *key = o->key, *value = o->value;
                o->key = o->value = NULL;
                if (global_raw(r, key, value, o))
                    rc = oom(r, o->file, o->line);
            }
        }
    } else {
        rc = build_job(r);
    }
    optlist_clear(&r->section);
    g_free(r->name);
    r->name = NULL;
    r->in_section = false;
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Lines and files                                                                             */

static int read_text(struct reader *r, const char *file, const char *text, size_t len, bool nested);

/* include FILE: read FILE's lines into the current section. */
static int include(struct reader *r, const char *file, uint32_t line, const char *arg,
                   size_t arg_len)
{
    if (!r->in_section)
        return reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                            "'include' outside of any section (fio reads include lines inside "
                            "a [global] or job section)");
    if (arg_len == 0)
        return reader_error(r, SSDSIM_ECONFIG, file, line, NULL, "'include' needs a file name");
    if (r->depth > INCLUDE_DEPTH_MAX) /* the top file is on the stack too */
        return reader_error(r, SSDSIM_ECONFIG, file, line, NULL, "includes nest more than %d deep",
                            INCLUDE_DEPTH_MAX);
    char *name = g_strndup(arg, arg_len);
    char *path;
    if (g_path_is_absolute(name) || !strchr(file, G_DIR_SEPARATOR)) {
        path = g_strdup(name); /* beside a file named without a directory: "x.inc", not "./x.inc" */
    } else {
        char *dir = g_path_get_dirname(file);
        path = g_build_filename(dir, name, NULL);
        g_free(dir);
    }
    int rc = 0;
    char *text = NULL, *real = NULL;
    size_t len = 0;
    ssdsim_error e;
    const char *interned = NULL;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        rc = reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                          "cannot include '%s': not a regular file (a %s)", name,
                          S_ISDIR(st.st_mode)                            ? "directory"
                          : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device"
                          : S_ISFIFO(st.st_mode)                         ? "FIFO"
                                                                         : "special file");
        goto out;
    }
    size_t room = SSDSIM__WORKLOAD_MAX_BYTES - r->n_bytes;
    if (ssdsim__read_text_file_max(&text, &len, path, room, &e)) {
        const char *cause = strstr(e.message, "cannot read: ");
        if (e.code == SSDSIM_ERANGE)
            rc = reader_error(r, e.code, file, line, NULL,
                              "cannot include '%s': a job file and what it includes may hold at "
                              "most %u bytes together, and %zu are left",
                              name, SSDSIM__WORKLOAD_MAX_BYTES, room);
        else
            rc = reader_error(r, e.code, file, line, NULL, "cannot include '%s': %s", name,
                              cause ? cause + 13 : e.message);
        goto out;
    }
    r->n_bytes += len;
    real = realpath(path, NULL);
    for (unsigned i = 0; real && i < r->depth; i++)
        if (r->stack[i] && !strcmp(r->stack[i], real)) {
            rc = reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                              "include cycle: '%s' is already being read", name);
            goto out;
        }
    interned = intern_file(r, path);
    if (!interned) {
        rc = oom(r, file, line);
        goto out;
    }
    r->stack[r->depth++] = real;
    rc = read_text(r, interned, text, len, true);
    r->stack[--r->depth] = NULL;
out:
    free(real);
    free(text);
    g_free(path);
    g_free(name);
    return rc;
}

static bool is_blank(char c)
{
    return isspace((unsigned char)c) || iscntrl((unsigned char)c);
}

static int read_line(struct reader *r, const char *file, uint32_t line, const char *s, size_t n,
                     bool nested)
{
    /* fio ends a line at its first ';' or '#', wherever it is (strip_blank_end). */
    for (size_t i = 0; i < n; i++)
        if (s[i] == ';' || s[i] == '#') {
            n = i;
            break;
        }
    while (n > 0 && is_blank(*s)) {
        s++;
        n--;
    }
    while (n > 0 && is_blank(s[n - 1]))
        n--;
    if (n == 0)
        return 0;

    if (s[0] == '[') {
        if (nested)
            return reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                                "an included file cannot open a section ('%.*s')",
                                (int)SSDSIM__MIN(n, 100), s);
        if (n < 2 || s[n - 1] != ']')
            return reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                                "section header '%.*s' has no closing ']'",
                                (int)SSDSIM__MIN(n, 100), s);
        if (n == 2)
            return reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                                "a section needs a name: '[]'");
        int rc = end_section(r);
        if (rc)
            return rc;
        r->name = g_strndup(s + 1, n - 2);
        /* fio: any section whose name starts with "global" is a global one. */
        r->global = !strncmp(r->name, "global", 6);
        r->in_section = true;
        r->sec_file = file;
        r->sec_line = line;
        return 0;
    }

    if (n >= 7 && !memcmp(s, "include", 7) && (n == 7 || isspace((unsigned char)s[7]))) {
        const char *arg = s + 7;
        size_t arg_len = n - 7;
        while (arg_len > 0 && is_blank(*arg)) {
            arg++;
            arg_len--;
        }
        return include(r, file, line, arg, arg_len);
    }

    const char *eq = memchr(s, '=', n);
    size_t key_len = eq ? (size_t)(eq - s) : n;
    while (key_len > 0 && is_blank(s[key_len - 1]))
        key_len--;
    char *key = g_strndup(s, key_len);
    if (!r->in_section) {
        int rc = reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                              "option '%.100s' is outside of any section: put it under [global] "
                              "or a job's [name]",
                              key);
        g_free(key);
        return rc;
    }
    if (key_len == 0) {
        g_free(key);
        return reader_error(r, SSDSIM_ECONFIG, file, line, NULL,
                            "an option name is missing before '='");
    }
    char *value = NULL;
    if (eq) {
        const char *v = eq + 1;
        size_t v_len = (size_t)(s + n - v);
        while (v_len > 0 && is_blank(*v)) {
            v++;
            v_len--;
        }
        char *raw = g_strndup(v, v_len);
        int rc = expand(r, file, line, key, raw, &value);
        g_free(raw);
        if (rc) {
            g_free(key);
            return rc;
        }
    }
    int rc = check_option(r, file, line, key, value);
    if (rc < 0 || rc == 1) {
        g_free(key);
        g_free(value);
        return rc < 0 ? rc : 0;
    }
    if (optlist_push(&r->section, key, value, file, line))
        return oom(r, file, line);
    return 0;
}

static int read_text(struct reader *r, const char *file, const char *text, size_t len, bool nested)
{
    size_t pos = 0;
    uint32_t line = 0;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        pos = 3; /* a UTF-8 byte order mark */
    while (pos < len) {
        line++;
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - start) : len - pos;
        pos += n + (nl ? 1 : 0);
        if (n > SSDSIM__TRACE_MAX_LINE)
            return reader_error(r, SSDSIM_EPARSE, file, line, NULL,
                                "line longer than %d bytes (the limit of job files and traces)",
                                SSDSIM__TRACE_MAX_LINE);
        if (memchr(start, '\0', n))
            return reader_error(r, SSDSIM_EPARSE, file, line, NULL,
                                "a NUL byte: this is not a text file");
        int rc = read_line(r, file, line, start, n, nested);
        if (rc)
            return rc;
    }
    return 0;
}

int ssdsim__workload_load_jobfile(struct ssdsim_workload **out, const char *path, const char *text,
                                  size_t len, bool lenient, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path || !text)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "ssdsim__workload_load_jobfile: out, path and text must not be "
                                 "NULL");
    struct reader r;
    memset(&r, 0, sizeof r);
    r.lenient = lenient;
    r.err = err;
    ssdsim__jobspec_defaults(&r.base);
    /* fio runs a job without ioengine on its default engine, which is synchronous */
    r.base.sync_engine =
        ssdsim__fio_sync_engine(SSDSIM__FIO_DEFAULT_ENGINE, strlen(SSDSIM__FIO_DEFAULT_ENGINE));
    r.base.sync_engine_default = true;
    int rc = 0;
    r.wl = ssdsim__workload_new(path, false);
    const char *file = r.wl ? intern_file(&r, path) : NULL;
    if (!file) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, path, NULL, "out of memory");
        goto out;
    }
    /* The top file is on the include stack too, so including it again is a cycle. */
    r.stack[r.depth++] = realpath(path, NULL);
    if (len > SSDSIM__WORKLOAD_MAX_BYTES) {
        rc = reader_error(&r, SSDSIM_ERANGE, file, 0, NULL, "larger than %u bytes",
                          SSDSIM__WORKLOAD_MAX_BYTES);
        goto out;
    }
    r.n_bytes = len;
    rc = read_text(&r, file, text, len, false);
    if (rc == 0)
        rc = end_section(&r);
    if (rc == 0 && r.wl->n_jobs == 0)
        rc = reader_error(&r, SSDSIM_ECONFIG, file, 0, NULL,
                          "no job section: a job file needs a [name] section besides [global]");
out:
    free(r.stack[0]);
    optlist_free(&r.graw);
    ssdsim__jobspec_clear(&r.base);
    optlist_free(&r.section);
    g_free(r.name);
    for (size_t i = 0; i < r.n_files; i++)
        free(r.files[i]);
    free(r.files);
    if (rc) {
        ssdsim_workload_free(r.wl);
        return rc;
    }
    *out = r.wl;
    return 0;
}
