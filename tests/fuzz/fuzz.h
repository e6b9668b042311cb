/* fuzz.h: what the fuzz harnesses of tests/fuzz share: a failed invariant aborts (libFuzzer
 * reports it as a crash, the regression program as a failed test), the input as a NUL-terminated
 * string, and a private scratch directory for the readers that take a file name.
 *
 * Each harness defines LLVMFuzzerTestOneInput. Built with clang -fsanitize=fuzzer (`make fuzz`)
 * libFuzzer supplies main(); built with regress.c (`make check`, any compiler) main() feeds it
 * every file of the harness's seed corpus.
 */
#ifndef SSDSIM_FUZZ_H
#define SSDSIM_FUZZ_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant: say which and where, then abort. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: invariant broken: %s: ", __FILE__, __LINE__, #cond);           \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The input as a string (an embedded NUL ends it early, as it would a file read as text). The
 * caller frees it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A scratch directory made once per process (under $TMPDIR or /tmp) and removed at exit, with
 * the files fuzz_file wrote in it. */
static char fuzz__dir[512];
#define FUZZ__MAX_FILES 64
static char fuzz__files[FUZZ__MAX_FILES][1024];
static int fuzz__n_files;

static inline void fuzz__cleanup(void)
{
    for (int i = 0; i < fuzz__n_files; i++)
        unlink(fuzz__files[i]);
    if (fuzz__dir[0])
        rmdir(fuzz__dir);
}

static inline const char *fuzz_dir(void)
{
    if (!fuzz__dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz__dir, sizeof fuzz__dir, "%s/ssdsim-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(fuzz__dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz__cleanup);
    }
    return fuzz__dir;
}

/* Write `size` bytes to `name` in the scratch directory (replacing it); returns its path, valid
 * until the next call with the same name. */
static inline const char *fuzz_file(const char *name, const void *data, size_t size)
{
    int slot = -1;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    for (int i = 0; i < fuzz__n_files; i++)
        if (strcmp(fuzz__files[i], path) == 0)
            slot = i;
    if (slot < 0) {
        if (fuzz__n_files == FUZZ__MAX_FILES)
            abort();
        slot = fuzz__n_files++;
        memcpy(fuzz__files[slot], path, sizeof path);
    }
    FILE *f = fopen(fuzz__files[slot], "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(fuzz__files[slot]);
        abort();
    }
    return fuzz__files[slot];
}

/* Link every *.json file of directory `src` into the scratch directory (so that a system model
 * written there finds its member models beside it, as in models/). */
static inline void fuzz_link_models(const char *src)
{
    DIR *d = opendir(src);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && fuzz__n_files < FUZZ__MAX_FILES - 4) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char from[1024];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        char *to = fuzz__files[fuzz__n_files];
        snprintf(to, sizeof fuzz__files[0], "%s/%s", fuzz_dir(), e->d_name);
        if (symlink(from, to) == 0)
            fuzz__n_files++;
    }
    closedir(d);
}

#endif /* SSDSIM_FUZZ_H */
