/* workers.c: the worker-process pool of `ssdsim sweep` and `ssdsim validate`: tasks 0..n-1,
 * each run in a forked child, at most `jobs` alive at a time, each reaped with waitpid and
 * handed back to its command with its exit status (and, if asked, the read end of a pipe the
 * child wrote its result to). The commands keep what a task computes and prints; the pool only
 * orders, starts, counts and reaps (and moves bytes through the pipes). With `forward` set, SIGINT
 * and SIGTERM are passed on to the workers (interrupt.c) and no further worker starts once one
 * came. With `halt`, one task's failure ends the others at once; those it kills go to `halted`,
 * not to `done`.
 */
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool cli_pipe_write(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

bool cli_pipe_read(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* Tasks by decreasing cost, equal costs in index order, so the order is deterministic. */
struct task_cost {
    double cost;
    size_t task;
};

static int cmp_cost(const void *a, const void *b)
{
    const struct task_cost *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

/* The order in which the tasks start: by w->cost when given, else 0..n-1 (NULL). */
static size_t *start_order(const struct cli_workers *w)
{
    if (!w->cost || w->n == 0)
        return NULL;
    struct task_cost *tc = g_new(struct task_cost, w->n);
    for (size_t i = 0; i < w->n; i++)
        tc[i] = (struct task_cost){w->cost(w->ctx, i), i};
    qsort(tc, w->n, sizeof *tc, cmp_cost);
    size_t *order = g_new(size_t, w->n);
    for (size_t i = 0; i < w->n; i++)
        order[i] = tc[i].task;
    g_free(tc);
    return order;
}

static size_t task_at(const size_t *order, size_t k)
{
    return order ? order[k] : k;
}

/* Could not start task i (pipe or fork failed with no worker alive): tell the command, which
 * says whether to go on with the next task. */
static bool start_failed(const struct cli_workers *w, size_t i, const char *what, int err)
{
    char why[256];
    snprintf(why, sizeof why, "%s: %s", what, strerror(err));
    return w->start_failed(w->ctx, i, why);
}

void cli_workers_run(const struct cli_workers *w)
{
    size_t jobs = w->jobs < w->n ? w->jobs : w->n;
    volatile pid_t *pids = g_new0(pid_t, jobs ? jobs : 1);
    struct slot {
        int fd;
        size_t task;
        double start;
        bool killed; /* by the pool, after halt() */
    } *slots = g_new0(struct slot, jobs ? jobs : 1);
    size_t next = 0, running = 0;
    bool stop = false;
    size_t *order = start_order(w);
    if (w->forward)
        cli_interrupt_forward(pids, jobs);
    for (;;) {
        while (next < w->n && w->skip && w->skip(w->ctx, task_at(order, next)))
            next++;
        while (!stop && running < jobs && next < w->n && !(w->forward && cli_interrupted)) {
            int fds[2] = {-1, -1};
            if (w->pipe && pipe(fds) != 0) {
                if (running > 0)
                    break; /* out of descriptors: wait for a worker to end */
                stop = !start_failed(w, task_at(order, next), "cannot create a pipe", errno);
                next++;
                continue;
            }
            fflush(NULL); /* nothing buffered may be written twice */
            pid_t pid = fork();
            if (pid == 0) {
                /* the list of workers to pass a signal on to is the pool's, copied here as it
                 * was: a worker passes nothing on (its entries may be workers long ended, whose
                 * pids another process may have taken since) */
                if (w->forward)
                    cli_interrupt_forward(NULL, 0);
                if (w->pipe)
                    close(fds[0]);
                int rc = w->child(w->ctx, task_at(order, next), fds[1]);
                fflush(NULL);
                _exit(rc);
            }
            int err = errno;
            if (w->pipe)
                close(fds[1]);
            if (pid < 0) {
                if (w->pipe)
                    close(fds[0]);
                if (running > 0)
                    break; /* wait for a worker to end, then try again */
                stop = !start_failed(w, task_at(order, next), "cannot start a worker process", err);
                next++;
                continue;
            }
            size_t s = 0;
            while (pids[s])
                s++;
            pids[s] = pid;
            /* A signal that came between fork and the line above was not passed on. */
            if (w->forward && cli_interrupted)
                kill(pid, cli_interrupted);
            slots[s] = (struct slot){fds[0], task_at(order, next), now_s(), false};
            next++;
            running++;
            while (next < w->n && w->skip && w->skip(w->ctx, task_at(order, next)))
                next++;
        }
        if (running == 0)
            break;
        int ws;
        pid_t pid = waitpid(-1, &ws, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            cli_error("%s: waitpid: %s", w->what, strerror(errno));
            break;
        }
        size_t s = 0;
        while (s < jobs && pids[s] != pid)
            s++;
        if (s == jobs)
            continue; /* not one of ours */
        pids[s] = 0;
        running--;
        if (slots[s].killed) {
            if (w->halted)
                w->halted(w->ctx, slots[s].task);
        } else {
            w->done(w->ctx, slots[s].task, ws, slots[s].fd, now_s() - slots[s].start);
        }
        if (slots[s].fd >= 0)
            close(slots[s].fd);
        if (!stop && w->halt && w->halt(w->ctx)) {
            stop = true;
            for (size_t k = 0; k < jobs; k++)
                if (pids[k] && kill(pids[k], SIGKILL) == 0)
                    slots[k].killed = true;
        }
    }
    if (w->forward)
        cli_interrupt_forward(NULL, 0);
    g_free((pid_t *)pids);
    g_free(slots);
    g_free(order);
}
