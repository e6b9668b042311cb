/* regress.c: main() of the fuzz harnesses as plain regression programs, so that `make check`
 * (with any compiler, no libFuzzer) runs the harness code on its seed corpus: every file of
 * FUZZ_CORPUS (a directory, set at compile time), or of the directories and files given as
 * arguments, goes once through LLVMFuzzerTestOneInput, in name order. A broken invariant aborts
 * (the test fails); an empty or missing corpus fails too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Feed one file; 0 or -1 when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

/* Feed every regular file of a directory (or the file itself); returns the count or -1. */
static long run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path) == 0 ? 1 : -1;
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *names);
        if (!nn)
            abort();
        names = nn;
        names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!names[n])
            abort();
        sprintf(names[n], "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            count = run_file(names[i]) == 0 ? count + 1 : -1;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    if (argc < 2) {
        total = run_path(FUZZ_CORPUS);
    } else {
        for (int i = 1; i < argc && total >= 0; i++) {
            long c = run_path(argv[i]);
            total = c < 0 ? -1 : total + c;
        }
    }
    if (total <= 0) {
        fprintf(stderr, "%s: no corpus file could be read\n", argv[0]);
        return 1;
    }
    printf("%s: %ld corpus inputs, no invariant broken\n", argv[0], total);
    return 0;
}
