/* progress.c: a one-line progress display on stderr, drawn only when stderr is a terminal and
 * at most ten times a second. The wall clock is read here for display only; it never reaches a
 * result. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct cli_progress {
    const char *what;
    bool tty;
    bool drawn;
    double t0, last;
};

double cli_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct cli_progress *cli_progress_new(const char *what)
{
    struct cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->what = what;
    p->tty = isatty(fileno(stderr));
    p->t0 = p->last = cli_wall_s();
    return p;
}

int cli_progress_cb(double fraction, void *userdata)
{
    struct cli_progress *p = userdata;
    if (!p || !p->tty)
        return 0;
    double now = cli_wall_s();
    if (now - p->last < 0.1)
        return 0;
    p->last = now;
    double el = now - p->t0;
    double eta = fraction > 0.01 ? el * (1 - fraction) / fraction : 0;
    fprintf(stderr, "\r%s: %5.1f%%  elapsed %5.1f s  remaining ~%5.1f s ", p->what,
            100.0 * fraction, el, eta);
    fflush(stderr);
    p->drawn = true;
    return 0;
}

void cli_progress_done(struct cli_progress *p)
{
    if (!p)
        return;
    if (p->drawn)
        fputs("\r\033[K", stderr);
    free(p);
}
