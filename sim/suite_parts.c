/* suite_parts.c: a suite's independent parts, run in worker processes (`--jobs`) or one after
 * the other, with the same files either way.
 *
 * A part (a review profile, the 128K sequential points, ...) starts from a drive of its own, so
 * nothing it measures depends on the parts before it. It fills a struct suite of its own: its
 * JSON, Markdown, "Shortcuts taken" bullets, plots and CSV files, and, in a worker, its progress
 * lines (printed in part order as the parts finish). A worker writes that as one JSON document
 * into a file of a private temporary folder (a pipe would fill before the parent reads it: the
 * pool reads after the worker exits); the parent reads it back. The procedure then merges the parts in part order, whatever order they
 * finished in, so that the files depend on the model, options and seed, never on --jobs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suite.h"

void suite_part_init(struct suite *p, const struct suite *s, bool capture)
{
    memset(p, 0, sizeof *p);
    p->opt = s->opt;
    p->model = s->model;
    p->model_label = s->model_label;
    p->seed = s->seed;
    p->json = cJSON_CreateObject();
    p->md = g_string_new(NULL);
    p->shortcuts = g_ptr_array_new_with_free_func(g_free);
    p->gp = g_string_new(NULL);
    p->plots = g_ptr_array_new_with_free_func(g_free);
    p->csv_names = g_ptr_array_new_with_free_func(g_free);
    p->csv_texts = g_ptr_array_new_with_free_func(g_free);
    p->say = capture ? g_ptr_array_new_with_free_func(g_free) : NULL;
}

void suite_part_free(struct suite *p)
{
    if (!p->json && !p->md)
        return;
    cJSON_Delete(p->json);
    g_string_free(p->md, TRUE);
    g_ptr_array_unref(p->shortcuts);
    g_string_free(p->gp, TRUE);
    g_ptr_array_unref(p->plots);
    g_ptr_array_unref(p->csv_names);
    g_ptr_array_unref(p->csv_texts);
    if (p->say)
        g_ptr_array_unref(p->say);
    memset(p, 0, sizeof *p);
}

void suite_part_merge(struct suite *s, const struct suite *p)
{
    for (guint i = 0; i < p->shortcuts->len; i++)
        suite_shortcut(s, "%s", (const char *)p->shortcuts->pdata[i]);
    g_string_append(s->gp, p->gp->str);
    for (guint i = 0; i < p->plots->len; i++)
        g_ptr_array_add(s->plots, g_strdup(p->plots->pdata[i]));
    for (guint i = 0; i < p->csv_names->len; i++)
        suite_csv(s, p->csv_names->pdata[i], g_strdup(p->csv_texts->pdata[i]));
}

/* ------------------------------------------------------------------------------------------ */
/* A part as one JSON document                                                                 */

static cJSON *strings_json(const GPtrArray *a)
{
    cJSON *arr = cJSON_CreateArray();
    for (guint i = 0; a && i < a->len; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(a->pdata[i]));
    return arr;
}

static bool strings_read(const cJSON *arr, GPtrArray *a)
{
    const cJSON *it;
    if (!cJSON_IsArray(arr))
        return false;
    cJSON_ArrayForEach(it, arr)
    {
        if (!cJSON_IsString(it))
            return false;
        g_ptr_array_add(a, g_strdup(it->valuestring));
    }
    return true;
}

/* The part's contents as JSON text (its JSON tree is moved in, so `p` is spent). NULL when out
 * of memory. */
static char *part_encode(struct suite *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "json", p->json);
    p->json = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "md", p->md->str);
    cJSON_AddItemToObject(o, "shortcuts", strings_json(p->shortcuts));
    cJSON_AddStringToObject(o, "gp", p->gp->str);
    cJSON_AddItemToObject(o, "plots", strings_json(p->plots));
    cJSON_AddItemToObject(o, "csv_names", strings_json(p->csv_names));
    cJSON_AddItemToObject(o, "csv_texts", strings_json(p->csv_texts));
    cJSON_AddItemToObject(o, "say", strings_json(p->say));
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

/* Fill `p` (initialised, capturing) from part_encode's text: true, or false for a document
 * that is not one (a worker that died while writing it). */
static bool part_decode(struct suite *p, const char *text)
{
    cJSON *o = cJSON_Parse(text);
    if (!o)
        return false;
    cJSON *json = cJSON_DetachItemFromObjectCaseSensitive(o, "json");
    const char *md = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "md"));
    const char *gp = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "gp"));
    bool ok = cJSON_IsObject(json) && md && gp &&
              strings_read(cJSON_GetObjectItemCaseSensitive(o, "shortcuts"), p->shortcuts) &&
              strings_read(cJSON_GetObjectItemCaseSensitive(o, "plots"), p->plots) &&
              strings_read(cJSON_GetObjectItemCaseSensitive(o, "csv_names"), p->csv_names) &&
              strings_read(cJSON_GetObjectItemCaseSensitive(o, "csv_texts"), p->csv_texts) &&
              strings_read(cJSON_GetObjectItemCaseSensitive(o, "say"), p->say) &&
              p->csv_names->len == p->csv_texts->len;
    if (ok) {
        cJSON_Delete(p->json);
        p->json = json;
        g_string_assign(p->md, md);
        g_string_assign(p->gp, gp);
    } else {
        cJSON_Delete(json);
    }
    cJSON_Delete(o);
    return ok;
}

/* ------------------------------------------------------------------------------------------ */
/* Running the parts                                                                           */

struct parts_pool {
    struct suite *s;
    const struct suite_parts *def;
    struct suite *parts;
    bool *done;
    char *tmpdir;
    size_t next_say; /* the first part whose progress lines were not printed yet */
    bool failed;
};

static char *part_path(const struct parts_pool *p, size_t i)
{
    return g_strdup_printf("%s/part-%zu.json", p->tmpdir, i);
}

static double pool_cost(void *ctx, size_t i)
{
    const struct parts_pool *p = ctx;
    return p->def->cost ? p->def->cost(p->def->ctx, i) : 1.0;
}

static int pool_child(void *ctx, size_t i, int fd)
{
    struct parts_pool *p = ctx;
    (void)fd;
    struct suite *part = &p->parts[i];
    if (p->def->run(part, i, p->def->ctx))
        return CLI_EXIT_FAIL;
    g_autofree char *text = part_encode(part);
    g_autofree char *path = part_path(p, i);
    if (!text) {
        cli_error("suite: out of memory");
        return CLI_EXIT_FAIL;
    }
    return cli_write_file(path, text) ? CLI_EXIT_FAIL : 0;
}

static bool pool_start_failed(void *ctx, size_t i, const char *why)
{
    struct parts_pool *p = ctx;
    cli_error("suite %s: part %zu: %s", p->s->opt->suite, i + 1, why);
    p->failed = true;
    return false;
}

static void pool_done(void *ctx, size_t i, int ws, int fd, double wall_s)
{
    struct parts_pool *p = ctx;
    (void)fd;
    (void)wall_s;
    g_autofree char *path = part_path(p, i);
    g_autofree char *text = NULL;
    bool exited = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    if (!exited || !g_file_get_contents(path, &text, NULL, NULL) ||
        !part_decode(&p->parts[i], text)) {
        if (!cli_interrupted && WIFSIGNALED(ws))
            cli_error("suite %s: part %zu: worker killed by signal %d", p->s->opt->suite, i + 1,
                      WTERMSIG(ws));
        else if (!cli_interrupted && exited)
            cli_error("suite %s: part %zu: its worker's results could not be read back from %s",
                      p->s->opt->suite, i + 1, path);
        p->failed = true;
        unlink(path);
        return;
    }
    unlink(path);
    p->done[i] = true;
    /* the progress lines of the parts finished so far, in part order, so that the output is
     * the same whichever worker ended first */
    for (; p->next_say < p->def->n && p->done[p->next_say]; p->next_say++) {
        const GPtrArray *say = p->parts[p->next_say].say;
        for (guint k = 0; k < say->len; k++)
            suite_say(p->s, "%s", (const char *)say->pdata[k]);
    }
}

/* One failed part fails the suite, which writes nothing: the parts still running are ended. */
static bool pool_halt(void *ctx)
{
    const struct parts_pool *p = ctx;
    return p->failed;
}

/* A worker pool_halt ended has nothing to say; what it had begun to write goes. */
static void pool_halted(void *ctx, size_t i)
{
    struct parts_pool *p = ctx;
    g_autofree char *path = part_path(p, i);
    unlink(path);
}

int suite_parts_run(struct suite *s, const struct suite_parts *def, struct suite *parts)
{
    size_t jobs = s->opt->jobs ? s->opt->jobs : 1;
    if (jobs > def->n)
        jobs = def->n;
    if (jobs <= 1) {
        for (size_t i = 0; i < def->n; i++) {
            suite_part_init(&parts[i], s, false);
            if (def->run(&parts[i], i, def->ctx))
                return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < def->n; i++)
        suite_part_init(&parts[i], s, true);
    GError *gerr = NULL;
    g_autofree char *tmpdir = g_dir_make_tmp("ssdsim-suite-XXXXXX", &gerr);
    if (!tmpdir) {
        cli_error("suite %s: cannot create a temporary folder for the workers' results: %s",
                  s->opt->suite, gerr->message);
        g_error_free(gerr);
        return -1;
    }
    g_autofree bool *done = g_new0(bool, def->n);
    struct parts_pool p = {.s = s, .def = def, .parts = parts, .done = done, .tmpdir = tmpdir};
    struct cli_workers w = {.what = "suite",
                            .n = def->n,
                            .jobs = jobs,
                            .pipe = false,
                            .forward = true,
                            .ctx = &p,
                            .child = pool_child,
                            .done = pool_done,
                            .start_failed = pool_start_failed,
                            .cost = pool_cost,
                            .halt = pool_halt,
                            .halted = pool_halted};
    cli_workers_run(&w);
    if (rmdir(tmpdir) != 0 && errno != ENOENT)
        cli_error("suite %s: cannot remove %s: %s", s->opt->suite, tmpdir, strerror(errno));
    for (size_t i = 0; i < def->n; i++)
        p.failed = p.failed || !done[i];
    return p.failed || cli_interrupted ? -1 : 0;
}
