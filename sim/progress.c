/* progress.c: progress of a run on stderr. On a terminal, one line redrawn in place (\r) at
 * most ten times a second. When stderr is not a terminal (a log file, a pipe, a batch job), a
 * plain line of its own every PLAIN_EVERY_S seconds of wall time, so that a long run in a log
 * shows that it is alive. With --progress, a plain line each time the whole percentage done
 * changes, wherever stderr goes. SSDSIM_PROGRESS=0 in the environment turns the first two off
 * (the test harness sets it, so that a slow machine never adds lines to a command's stderr);
 * --progress still prints.
 *
 * The wall clock is read here for display only; it never reaches a result. --progress lines
 * depend only on the fractions the library reports, which are deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define PLAIN_EVERY_S 5.0

enum progress_mode {
    PROGRESS_OFF,   /* SSDSIM_PROGRESS=0 */
    PROGRESS_TTY,   /* redrawn in place */
    PROGRESS_PLAIN, /* a line every PLAIN_EVERY_S seconds */
    PROGRESS_EVERY  /* --progress: a line per whole percent */
};

struct cli_progress {
    const char *what;
    enum progress_mode mode;
    bool drawn;
    int last_percent;
    double t0, last;
};

double cli_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct cli_progress *cli_progress_new(const char *what, bool every)
{
    struct cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->what = what;
    const char *env = getenv("SSDSIM_PROGRESS");
    if (every)
        p->mode = PROGRESS_EVERY;
    else if (env && !strcmp(env, "0"))
        p->mode = PROGRESS_OFF;
    else
        p->mode = isatty(fileno(stderr)) ? PROGRESS_TTY : PROGRESS_PLAIN;
    p->last_percent = -1;
    p->t0 = p->last = cli_wall_s();
    return p;
}

int cli_progress_cb(double fraction, void *userdata)
{
    struct cli_progress *p = userdata;
    if (!p || p->mode == PROGRESS_OFF)
        return 0;
    double now = cli_wall_s();
    int percent = (int)floor(100.0 * fraction);
    switch (p->mode) {
    case PROGRESS_TTY:
        if (now - p->last < 0.1)
            return 0;
        break;
    case PROGRESS_PLAIN:
        if (now - p->last < PLAIN_EVERY_S)
            return 0;
        break;
    default: /* PROGRESS_EVERY */
        if (percent == p->last_percent)
            return 0;
        break;
    }
    p->last = now;
    p->last_percent = percent;
    double el = now - p->t0;
    /* Below 1% done the rate is not known well enough to say what remains: "unknown", never
     * a remaining time of 0 */
    char eta[32] = "unknown";
    if (fraction > 0.01)
        snprintf(eta, sizeof eta, "~%.1f s", el * (1 - fraction) / fraction);
    char line[256];
    if (p->mode == PROGRESS_TTY) {
        snprintf(line, sizeof line, "\r%s: %5.1f%%  elapsed %5.1f s  remaining %-9s ", p->what,
                 100.0 * fraction, el, eta);
        p->drawn = true;
    } else {
        snprintf(line, sizeof line, "progress: %s %.1f%%, elapsed %.1f s, remaining %s\n",
                 p->what, 100.0 * fraction, el, eta);
    }
    cli_stderr_put(line, strlen(line)); /* whole: other processes may share stderr */
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
