/* outfile.c: how every ssdsim command writes a file. An output is never an input of the same
 * run: the inputs a command reads (model, workload, trace, manifest) are registered with
 * cli_input_add(), and an output whose path names the same file (same st_dev and st_ino: the
 * same path, a hard link or a symbolic link to it) is refused with one line naming both. An
 * output is written under a temporary name in its own directory (".NAME.tmp.PID", which
 * `ssdsim collect` skips), then flushed, fsync'ed and renamed over NAME, so that NAME holds the
 * old file or the whole new one, never a part. On any failure the temporary file is removed.
 * An output that is not a regular file (/dev/null, /dev/stdout, a FIFO) is written in place; a
 * symbolic link is kept and the file it points to replaced.
 * Streaming outputs (--latency-log, --record, fio's per-job logs) are kept under the temporary
 * name for the whole run; a run that is interrupted or fails renames them to NAME.partial
 * instead (doc/guide.md, "Output files"). */
/* realpath (a symbolic link's target) is X/Open: ask for it before any system header. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"

/* The registered inputs: file identity and the path as given, for the message. */
struct input {
    dev_t dev;
    ino_t ino;
    char *path;
};
static struct input *inputs;
static size_t n_inputs;

void cli_input_add(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return; /* a missing input is reported by whatever reads it */
    for (size_t i = 0; i < n_inputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            return;
    inputs = g_renew(struct input, inputs, n_inputs + 1);
    inputs[n_inputs++] = (struct input){st.st_dev, st.st_ino, g_strdup(path)};
}

void cli_inputs_clear(void)
{
    for (size_t i = 0; i < n_inputs; i++)
        g_free(inputs[i].path);
    g_free(inputs);
    inputs = NULL;
    n_inputs = 0;
}

int cli_output_check(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        for (size_t i = 0; i < n_inputs; i++) {
            if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
                cli_error("%s: this output is the input %s (the same file): refusing to write "
                          "over it; give another output path",
                          path, inputs[i].path);
                return CLI_EXIT_USAGE;
            }
        }
        if (S_ISDIR(st.st_mode)) {
            cli_error("%s: cannot write: it is a directory; give a file's path", path);
            return CLI_EXIT_FAIL;
        }
        if (!S_ISREG(st.st_mode))
            return 0; /* a device or a pipe, written in place (cli_out_begin) */
    }
    /* The temporary file goes beside the file (a symbolic link's target): its directory must
     * be there, and writable, before a run of minutes finds out at its end. */
    char *target = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        target = realpath(path, NULL);
    g_autofree char *dir = g_path_get_dirname(target ? target : path);
    free(target);
    if (stat(dir, &st) != 0) {
        cli_error("%s: cannot write: %s: %s", path, dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_error("%s: cannot write: %s is not a directory", path, dir);
        return CLI_EXIT_FAIL;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        cli_error("%s: cannot write in %s: %s", path, dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* What names the file an output path will be, for comparing two outputs that may not exist
 * yet: "=DEV:INO" for an existing regular file (a hard or symbolic link to it is the same),
 * else the absolute path with its directory resolved (realpath); NULL for a device or a pipe
 * (written in place: two outputs there are not lost). g_free() it. */
static char *out_key(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return NULL;
        return g_strdup_printf("=%llu:%llu", (unsigned long long)st.st_dev,
                               (unsigned long long)st.st_ino);
    }
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *base = g_path_get_basename(path);
    char *real = realpath(dir, NULL);
    char *key = real ? g_build_filename(real, base, NULL) : g_canonicalize_filename(path, NULL);
    free(real);
    return key;
}

int cli_outputs_distinct(const char *const *names, const char *const *paths, size_t n)
{
    char **keys = g_new0(char *, n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        keys[i] = paths[i] ? out_key(paths[i]) : NULL;
        for (size_t j = 0; j < i && keys[i] && !rc; j++) {
            if (keys[j] && !strcmp(keys[i], keys[j])) {
                cli_error("%s: %s and %s would both write this file (one would be lost); give "
                          "each output its own path",
                          paths[i], names[j], names[i]);
                rc = -1;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        g_free(keys[i]);
    g_free(keys);
    return rc;
}

int cli_dir_outputs_check(const char *dir, const char *const *names, size_t n, const char *cmd)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return 0; /* not there yet: no input is in it */
    int rc = 0;
    const char *entry;
    while (!rc && (entry = g_dir_read_name(d))) {
        bool ours = false;
        for (size_t k = 0; k < n && !ours; k++)
            ours = g_pattern_match_simple(names[k], entry);
        struct stat st;
        g_autofree char *path = g_build_filename(dir, entry, NULL);
        if (!ours || stat(path, &st) != 0)
            continue;
        for (size_t i = 0; i < n_inputs && !rc; i++) {
            if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
                cli_error("%s: %s would write this file, and it is the input %s: refused "
                          "before anything runs; give another output directory",
                          path, cmd, inputs[i].path);
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    g_dir_close(d);
    return rc;
}

int cli_dir_check(const char *dir)
{
    /* the nearest part of the path that exists must be a directory the command can write in */
    g_autofree char *p = g_strdup(dir);
    struct stat st;
    while (stat(p, &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR) {
            cli_error("%s: cannot create directory: %s", dir, strerror(errno));
            return -1;
        }
        char *up = g_path_get_dirname(p);
        if (!strcmp(up, p)) {
            g_free(up);
            return 0;
        }
        g_free(p);
        p = up;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (strcmp(p, dir))
            cli_error("%s: cannot create directory: %s is a file, not a directory", dir, p);
        else
            cli_error("%s: cannot create directory: a file of that name is there", dir);
        return -1;
    }
    if (access(p, W_OK | X_OK) != 0) {
        cli_error("%s: cannot create directory: %s: %s", dir, p, strerror(errno));
        return -1;
    }
    return 0;
}

int cli_out_begin(struct cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (cli_output_check(path))
        return -1;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written to as it is: renaming
         * a file over it would replace it. */
        o->path = g_strdup(path);
        o->tmp = g_strdup(path);
        o->direct = true;
        return 0;
    }
    /* A symbolic link stays one: the file it points to is replaced. */
    char *target = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        target = realpath(path, NULL);
    const char *final = target ? target : path;
    /* The same directory: rename(2) does not cross file systems. */
    g_autofree char *dir = g_path_get_dirname(final);
    g_autofree char *base = g_path_get_basename(final);
    o->path = g_strdup(final);
    o->tmp = g_strdup_printf("%s/.%s.tmp.%ld", dir, base, (long)getpid());
    free(target);
    return 0;
}

int cli_out_open(struct cli_out *o, const char *path)
{
    if (cli_out_begin(o, path))
        return -1;
    o->f = fopen(o->tmp, o->direct ? "a" : "w");
    if (!o->f) {
        cli_error("%s: cannot write: %s", path, strerror(errno));
        cli_out_abort(o);
        return -1;
    }
    return 0;
}

void cli_out_abort(struct cli_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp && !o->direct)
        unlink(o->tmp);
    g_free(o->path);
    g_free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* Flush the temporary file to the disk: through o->f when it is open (then closed), else by
 * opening it (a file the library wrote). 0, or an errno value. */
static int sync_tmp(struct cli_out *o)
{
    int err = 0;
    if (o->f) {
        if (fflush(o->f) != 0 || ferror(o->f))
            err = errno ? errno : EIO;
        else if (fsync(fileno(o->f)) != 0 && errno != EINVAL)
            err = errno; /* EINVAL: a file that cannot be synced (a pipe, /dev/...) */
        if (fclose(o->f) != 0 && !err)
            err = errno;
        o->f = NULL;
        return err;
    }
    int fd = open(o->tmp, O_RDONLY);
    if (fd < 0)
        return errno;
    if (fsync(fd) != 0 && errno != EINVAL)
        err = errno;
    close(fd);
    return err;
}

int cli_out_commit_as(struct cli_out *o, const char *suffix)
{
    errno = 0;
    int err = sync_tmp(o);
    g_autofree char *target = g_strconcat(o->path, suffix ? suffix : "", NULL);
    if (err) {
        cli_error("%s: write failed: %s", o->path, strerror(err));
    } else if (o->direct) {
        /* written in place: nothing to rename */
    } else if (cli_output_check(target)) {
        err = EEXIST;
    } else if (rename(o->tmp, target) != 0) {
        err = errno;
        cli_error("%s: cannot write: %s", target, strerror(err));
    } else {
        g_free(o->tmp);
        o->tmp = NULL; /* renamed: nothing to remove */
    }
    cli_out_abort(o);
    return err ? -1 : 0;
}

int cli_out_commit(struct cli_out *o)
{
    return cli_out_commit_as(o, NULL);
}

int cli_write_file(const char *path, const char *text)
{
    struct cli_out o;
    if (cli_out_open(&o, path))
        return -1;
    fputs(text, o.f);
    fputc('\n', o.f);
    return cli_out_commit(&o);
}

int cli_stdout_check(void)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("standard output: write failed: %s", errno ? strerror(errno) : "I/O error");
        return -1;
    }
    return 0;
}
