/* interrupt.c: SIGINT and SIGTERM stop a run cleanly. The handler only records the signal (and,
 * in a sweep, passes it on to the worker processes: kill(2) is async-signal-safe); the run sees
 * it at its next progress check (cli_interrupt_cb returns non-zero, the library cancels the run
 * with SSDSIM_ECANCELLED and keeps the statistics so far), and the command writes what it has,
 * marked "interrupted": true, and exits with 128 + the signal number (130 for SIGINT, 143 for
 * SIGTERM). The handler is installed with SA_RESETHAND: a second signal acts as if ssdsim had
 * not caught any (it ends the process at once); but a sweep's worker keeps catching it, since
 * a Ctrl-C reaches it twice (from the terminal and passed on by the sweep). */
#include <signal.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"

volatile sig_atomic_t cli_interrupted;

/* The worker processes to pass the signal on to (a sweep's pool), or NULL. */
static volatile pid_t *forward_pids;
static volatile size_t n_forward;

static void on_signal(int sig)
{
    cli_interrupted = sig;
    volatile pid_t *pids = forward_pids;
    for (size_t i = 0; pids && i < n_forward; i++)
        if (pids[i] > 0)
            kill(pids[i], sig);
}

void cli_interrupt_install(bool repeat)
{
    static bool sticky;
    if (sticky && !repeat)
        return;
    sticky = repeat;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a sweep's waitpid returns EINTR and sees the signal at once. */
    sa.sa_flags = repeat ? 0 : SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_interrupt_forward(volatile pid_t *pids, size_t n)
{
    forward_pids = NULL;
    n_forward = n;
    forward_pids = pids;
}

int cli_interrupt_cb(double fraction, void *progress)
{
    if (cli_interrupted)
        return 1;
    return progress ? cli_progress_cb(fraction, progress) : 0;
}

int cli_interrupt_status(void)
{
    return 128 + (int)cli_interrupted;
}

const char *cli_interrupt_name(void)
{
    return cli_interrupted == SIGTERM ? "SIGTERM" : cli_interrupted == SIGINT ? "SIGINT" : "a signal";
}

void cli_interrupt_default(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

static bool muted;

void cli_interrupt_mute(bool mute)
{
    muted = mute;
}

bool cli_interrupt_muted(void)
{
    return muted && cli_interrupted;
}
