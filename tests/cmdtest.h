/* cmdtest.h: running the built `ssdsim` command from a Check test, for the programs that test it
 * as a user meets it (test_cli, test_sweep, test_validate).
 *
 * A command runs in a child process (fork and exec, stdin from /dev/null, SSDSIM_PROGRESS=0 so that
 * no periodic progress line reaches stderr); its stdout and stderr are captured apart and its exit
 * status kept in a `struct cmd`. assert_one_error() checks the
 * failure contract every subcommand keeps: exactly one line on stderr starting with "ssdsim: ".
 * The file helpers write only under BUILDDIR/tests/out/, so `make distcheck` (a read-only source
 * tree) passes. Include after testutil.h. Everything here is static inline, so a program that
 * uses only part of it gets no unused-function warnings.
 */
#ifndef SSDSIM_CMDTEST_H
#define SSDSIM_CMDTEST_H

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------ */
/* Running commands                                                                            */

/* What one run of a command produced. `out` and `err` are NUL-terminated. */
struct cmd {
    int status; /* exit status, or -1 when the command did not exit normally */
    char *out;
    size_t n_out;
    char *err;
    size_t n_err;
};

/* Drop from c->err the library's warning that the FTL's reserve eats more than 5% of the spare
 * (ftl/reserve.c): the small test models have 64-block planes, where it does; tests about
 * other messages compare what is left. */
static inline void cmd_drop_reserve_warning(struct cmd *c)
{
    char *w = c->err, *r = c->err;
    while (r && *r) {
        char *nl = strchr(r, '\n');
        size_t len = nl ? (size_t)(nl - r) + 1 : strlen(r);
        char *hit = strstr(r, " spare blocks per plane in reserve (");
        if (!hit || hit >= r + len) {
            memmove(w, r, len);
            w += len;
        }
        r += len;
    }
    if (w) {
        *w = 0;
        c->n_err = (size_t)(w - c->err);
    }
}

static inline void cmd_free(struct cmd *c)
{
    free(c->out);
    free(c->err);
    memset(c, 0, sizeof *c);
}

/* The command under test: SSDSIM_BIN (as `make check` sets it), else BUILDDIR/sim/ssdsim. */
static inline const char *ssdsim_bin(void)
{
    const char *bin = getenv("SSDSIM_BIN");
    if (!bin || !*bin)
        bin = BUILDDIR "/sim/ssdsim";
    return bin;
}

/* Append what is readable on `fd` to *buf, kept NUL-terminated; returns false at end of file. */
static inline bool cmd_drain(int fd, char **buf, size_t *len, size_t *cap)
{
    if (*cap - *len < 4097) {
        *cap = *cap * 2 + 8192;
        *buf = realloc(*buf, *cap);
        ck_assert_ptr_nonnull(*buf);
    }
    ssize_t n = read(fd, *buf + *len, *cap - *len - 1);
    if (n < 0 && errno == EINTR)
        return true;
    ck_assert_msg(n >= 0, "read from the child failed: %s", strerror(errno));
    *len += (size_t)n;
    (*buf)[*len] = '\0';
    return n > 0;
}

/* Run the NULL-terminated `argv` (argv[0] a path, or a name searched in PATH) with stdin from
 * /dev/null. Both pipes are read together with poll so that neither can fill and block. */
static inline void run_prog(struct cmd *c, const char *const *argv)
{
    int po[2], pe[2];
    ck_assert_int_eq(pipe(po), 0);
    ck_assert_int_eq(pipe(pe), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        /* No progress line every few seconds: a slow machine would add them to stderr. */
        setenv("SSDSIM_PROGRESS", "0", 1);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(po[1]);
        close(pe[0]);
        close(pe[1]);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);

    memset(c, 0, sizeof *c);
    size_t cap_out = 0, cap_err = 0;
    c->out = calloc(1, 1);
    c->err = calloc(1, 1);
    ck_assert(c->out && c->err);
    bool open_out = true, open_err = true;
    while (open_out || open_err) {
        struct pollfd fds[2] = {{.fd = open_out ? po[0] : -1, .events = POLLIN},
                                {.fd = open_err ? pe[0] : -1, .events = POLLIN}};
        int r = poll(fds, 2, -1);
        if (r < 0 && errno == EINTR)
            continue;
        ck_assert_int_gt(r, 0);
        if (fds[0].revents)
            open_out = cmd_drain(po[0], &c->out, &c->n_out, &cap_out);
        if (fds[1].revents)
            open_err = cmd_drain(pe[0], &c->err, &c->n_err, &cap_err);
    }
    close(po[0]);
    close(pe[0]);

    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    c->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    ck_assert_msg(c->status != 127, "could not run %s: %s", argv[0], c->err);
}

/* Run `ssdsim` with the NULL-terminated arguments `args` (not counting argv[0]). */
static inline void run_argv(struct cmd *c, const char *const *args)
{
    const char *argv[128];
    int n = 0;
    argv[n++] = ssdsim_bin();
    for (; args[n - 1]; n++) {
        ck_assert_int_lt(n, 127);
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    run_prog(c, argv);
}

#define RUN(c, ...) run_argv((c), (const char *const[]){__VA_ARGS__, NULL})

/* The failure output contract: exactly one line on stderr, "ssdsim: ...", with no NUL byte,
 * containing `needle` (when not NULL); and nothing on stdout. */
static inline void assert_one_error(const struct cmd *c, int want_status, const char *needle)
{
    cmd_drop_reserve_warning((struct cmd *)c); /* a warning of the model, not the error */
    ck_assert_msg(c->status == want_status, "exit status %d, want %d; stderr: %s", c->status,
                  want_status, c->err);
    ck_assert_msg(strncmp(c->err, "ssdsim: ", 8) == 0, "stderr does not start with 'ssdsim: ': %s",
                  c->err);
    ck_assert_msg(c->n_err > 0 && c->err[c->n_err - 1] == '\n', "stderr does not end a line: %s",
                  c->err);
    ck_assert_msg(memchr(c->err, '\n', c->n_err) == c->err + c->n_err - 1,
                  "stderr has more than one line: %s", c->err);
    ck_assert_msg(strlen(c->err) == c->n_err, "NUL byte on stderr");
    ck_assert_msg(c->n_out == 0, "unexpected stdout: %s", c->out);
    if (needle)
        ck_assert_msg(strstr(c->err, needle) != NULL, "'%s' not in: %s", needle, c->err);
}

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

/* BUILDDIR/tests/out/<name>, with the directory created. */
static inline const char *out_path(char *buf, size_t len, const char *name)
{
    ck_assert(mkdir(BUILDDIR "/tests", 0777) == 0 || errno == EEXIST);
    ck_assert(mkdir(BUILDDIR "/tests/out", 0777) == 0 || errno == EEXIST);
    int n = snprintf(buf, len, "%s/tests/out/%s", BUILDDIR, name);
    ck_assert(n > 0 && (size_t)n < len);
    return buf;
}

static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole file, NUL-terminated (the caller frees it), or NULL when it cannot be opened.
 * *len gets its size when `len` is not NULL. */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    ck_assert_int_eq(ferror(f), 0);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static inline bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* DIR/NAME into buf. */
static inline const char *dir_file(char *buf, size_t len, const char *dir, const char *name)
{
    int n = snprintf(buf, len, "%s/%s", dir, name);
    ck_assert(n > 0 && (size_t)n < len);
    return buf;
}

/* Whether an executable `prog` is on PATH (an empty PATH entry is the current directory). */
static inline bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char *copy = strdup(path), *save = NULL, buf[4096];
    ck_assert_ptr_nonnull(copy);
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        dir_file(buf, sizeof buf, *d ? d : ".", prog);
        found = access(buf, X_OK) == 0;
    }
    free(copy);
    return found;
}

#endif /* SSDSIM_CMDTEST_H */
