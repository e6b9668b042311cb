/* nvmeq.c: NVMe submission/completion queue pairs at one device, the controller's arbitration
 * between them, the cost of fetching a command, and interrupt coalescing (model keys nvme.*;
 * NVMe Base Specification 2.0, section 3.4.4 "Arbitration Mechanisms" and the Interrupt
 * Coalescing feature, 5.27.1.9). Used only when a model sets them (ssdsim__nvme_on): otherwise
 * the device keeps its one host queue (dev.c).
 *
 * A command enters its queue pair's submission queue (cmd.queue). A pair holds at most
 * nvme.sq_depth commands outstanding (fetched and not yet reaped by the host); beyond that they
 * wait on the host, in order, invisible to the controller. Whenever the device has a free
 * command slot (controller.queue_depth), the arbiter picks the queue to fetch from:
 *   - round robin (rr): every queue in turn;
 *   - weighted round robin (wrr): urgent queues (0 .. urgent_queues-1) first, always (strict
 *     priority, round robin among them); then the high, medium and low classes, each allowed
 *     weight_* commands per round, round robin within a class; a round ends when no class
 *     with credit left has a command, and every class gets its weight again.
 * A queue picked keeps the arbiter for up to nvme.burst commands (the Arbitration Burst; with
 * "unlimited", 2^32 - 1: no limit in practice), while it has commands and credit, unless an
 * urgent queue has one. Fetching takes nvme.fetch_us,
 * one command at a time; the command's front end (dev.c) starts when its fetch ends.
 *
 * Completions go to the pair's completion queue; the host hears of them at an interrupt: at
 * once (cq_threshold 1), or when cq_threshold completions are pending or the first has waited
 * cq_time_us. A command's latency ends at its interrupt.
 */
#include "dev/dev.h"

#include <stdlib.h>

#define NONE SSDSIM__NONE

enum { C_URGENT = 0, C_HIGH = 1, C_MEDIUM = 2, C_LOW = 3, N_CLASSES = 4 };

struct sq {
    uint32_t head, tail, n; /* commands not yet fetched, chained through cmd.next */
    uint32_t outstanding;   /* fetched and not yet reaped */
    uint8_t cls;
    /* completion queue: entries waiting for the interrupt */
    uint32_t cq_head, cq_tail, cq_n;
    ssdsim__event_id timer;
};

struct ssdsim__nvmeq {
    struct ssdsim__dev *d;
    const struct ssdsim__nvme_cfg *cfg;
    struct sq *q;
    uint32_t n;
    uint32_t first[N_CLASSES + 1]; /* queues of class k: first[k] .. first[k+1]-1 */
    uint32_t rr[N_CLASSES];        /* the next queue a class's round robin looks at */
    uint32_t credit[N_CLASSES];    /* WRR: commands a class may still fetch this round */
    uint32_t cur, cur_left;        /* the queue of a burst in progress, fetches it has left */
    uint64_t fetch_free;
};

static inline struct ssdsim__cmd *cmd_at(struct ssdsim__nvmeq *nq, uint32_t i)
{
    return &nq->d->pool->v[i];
}

static uint32_t weight(const struct ssdsim__nvme_cfg *c, int cls)
{
    return cls == C_HIGH ? c->weight_high : cls == C_MEDIUM ? c->weight_medium : c->weight_low;
}

int ssdsim__nvmeq_new(struct ssdsim__nvmeq **out, struct ssdsim__dev *d)
{
    struct ssdsim__nvmeq *nq = calloc(1, sizeof *nq);
    if (!nq)
        return SSDSIM_ENOMEM;
    const struct ssdsim__nvme_cfg *c = &d->model->nvme;
    nq->d = d;
    nq->cfg = c;
    nq->n = c->queues;
    nq->q = calloc(nq->n, sizeof *nq->q);
    if (!nq->q) {
        free(nq);
        return SSDSIM_ENOMEM;
    }
    bool wrr = c->arbitration == SSDSIM__ARB_WRR;
    /* rr: every queue in the low class, which then has no weight (its credit never ends) */
    nq->first[C_URGENT] = 0;
    nq->first[C_HIGH] = wrr ? c->urgent_queues : 0;
    nq->first[C_MEDIUM] = nq->first[C_HIGH] + (wrr ? c->high_queues : 0);
    nq->first[C_LOW] = nq->first[C_MEDIUM] + (wrr ? c->medium_queues : 0);
    nq->first[N_CLASSES] = nq->n;
    for (int k = 0; k < N_CLASSES; k++) {
        for (uint32_t i = nq->first[k]; i < nq->first[k + 1]; i++)
            nq->q[i].cls = (uint8_t)k;
        nq->rr[k] = nq->first[k];
        nq->credit[k] = k == C_URGENT ? 0 : weight(c, k);
    }
    for (uint32_t i = 0; i < nq->n; i++)
        nq->q[i].head = nq->q[i].tail = nq->q[i].cq_head = nq->q[i].cq_tail = NONE;
    nq->cur = NONE;
    *out = nq;
    return 0;
}

void ssdsim__nvmeq_free(struct ssdsim__nvmeq *nq)
{
    if (!nq)
        return;
    for (uint32_t i = 0; i < nq->n; i++)
        ssdsim__engine_cancel(nq->d->engine, nq->q[i].timer);
    free(nq->q);
    free(nq);
}

static inline bool fetchable(const struct ssdsim__nvmeq *nq, uint32_t i)
{
    const struct sq *q = &nq->q[i];
    return q->n > 0 && q->outstanding < nq->cfg->sq_depth;
}

/* Round robin within class k from its pointer: the first queue with a command, or NONE. */
static uint32_t scan(struct ssdsim__nvmeq *nq, int k)
{
    uint32_t lo = nq->first[k], hi = nq->first[k + 1];
    if (lo == hi)
        return NONE;
    uint32_t i = nq->rr[k];
    for (uint32_t step = 0; step < hi - lo; step++) {
        if (fetchable(nq, i))
            return i;
        i = i + 1 == hi ? lo : i + 1;
    }
    return NONE;
}

static bool weighted(const struct ssdsim__nvmeq *nq, int k)
{
    return nq->cfg->arbitration == SSDSIM__ARB_WRR && k != C_URGENT;
}

/* The queue to fetch from now, or NONE. */
static uint32_t pick(struct ssdsim__nvmeq *nq)
{
    uint32_t u = scan(nq, C_URGENT);
    if (nq->cur != NONE && nq->cur_left > 0 && fetchable(nq, nq->cur)) {
        int k = nq->q[nq->cur].cls;
        if ((k == C_URGENT || u == NONE) && (!weighted(nq, k) || nq->credit[k] > 0)) {
            nq->cur_left--;
            return nq->cur;
        }
    }
    uint32_t got = u;
    if (got == NONE) {
        for (int round = 0; round < 2 && got == NONE; round++) {
            bool waiting = false;
            for (int k = C_HIGH; k <= C_LOW && got == NONE; k++) {
                uint32_t i = scan(nq, k);
                if (i == NONE)
                    continue;
                if (weighted(nq, k) && nq->credit[k] == 0) {
                    waiting = true;
                    continue;
                }
                got = i;
            }
            if (got == NONE && waiting) /* a new round */
                for (int k = C_HIGH; k <= C_LOW; k++)
                    nq->credit[k] = weight(nq->cfg, k);
            else
                break;
        }
        if (got == NONE)
            return NONE;
    }
    int k = nq->q[got].cls;
    nq->rr[k] = got + 1 == nq->first[k + 1] ? nq->first[k] : got + 1;
    nq->cur = got;
    nq->cur_left = nq->cfg->burst ? nq->cfg->burst - 1 : UINT32_MAX; /* 0: "unlimited" */
    return got;
}

/* Fetch while the device has a free slot. */
static void arbitrate(struct ssdsim__nvmeq *nq)
{
    struct ssdsim__dev *d = nq->d;
    while (d->at_device < d->qd_limit) {
        uint32_t i = pick(nq);
        if (i == NONE)
            return;
        struct sq *q = &nq->q[i];
        if (weighted(nq, q->cls))
            nq->credit[q->cls]--;
        uint32_t c = q->head;
        q->head = cmd_at(nq, c)->next;
        if (q->head == NONE)
            q->tail = NONE;
        q->n--;
        q->outstanding++;
        uint64_t start = ssdsim__engine_now(d->engine);
        if (nq->cfg->fetch_ns) {
            start = SSDSIM__MAX(start, nq->fetch_free) + nq->cfg->fetch_ns;
            nq->fetch_free = start;
        }
        ssdsim__dev_admit(d, c, start);
    }
}

void ssdsim__nvmeq_submit(struct ssdsim__nvmeq *nq, uint32_t c)
{
    struct ssdsim__cmd *cmd = cmd_at(nq, c);
    struct sq *q = &nq->q[cmd->queue < nq->n ? cmd->queue : 0];
    cmd->next = NONE;
    if (q->tail == NONE)
        q->head = c;
    else
        cmd_at(nq, q->tail)->next = c;
    q->tail = c;
    q->n++;
    arbitrate(nq);
}

/* The interrupt of queue qi: the host hears of every completion pending there, in order. */
static void interrupt(struct ssdsim__nvmeq *nq, uint32_t qi)
{
    struct sq *q = &nq->q[qi];
    ssdsim__engine_cancel(nq->d->engine, q->timer);
    q->timer = 0;
    uint32_t c = q->cq_head;
    q->cq_head = q->cq_tail = NONE;
    q->outstanding -= q->cq_n;
    q->cq_n = 0;
    arbitrate(nq); /* room in the pair again */
    while (c != NONE) {
        uint32_t next = cmd_at(nq, c)->next; /* the slot may be reused by what the host does */
        nq->d->cmd_done(nq->d->cmd_done_ctx, c);
        c = next;
    }
}

static void timer_event(void *ctx, uint32_t qi)
{
    struct ssdsim__nvmeq *nq = ctx;
    nq->q[qi].timer = 0;
    interrupt(nq, qi);
}

void ssdsim__nvmeq_finish(struct ssdsim__nvmeq *nq, uint32_t c)
{
    struct ssdsim__dev *d = nq->d;
    arbitrate(nq); /* the slot this command held */
    struct ssdsim__cmd *cmd = cmd_at(nq, c);
    uint32_t qi = cmd->queue < nq->n ? cmd->queue : 0;
    struct sq *q = &nq->q[qi];
    if (nq->cfg->cq_threshold <= 1) {
        q->outstanding--;
        if (q->n > 0)
            arbitrate(nq);
        d->cmd_done(d->cmd_done_ctx, c);
        return;
    }
    cmd->next = NONE;
    if (q->cq_tail == NONE)
        q->cq_head = c;
    else
        cmd_at(nq, q->cq_tail)->next = c;
    q->cq_tail = c;
    if (++q->cq_n >= nq->cfg->cq_threshold) {
        interrupt(nq, qi);
        return;
    }
    if (q->cq_n == 1) {
        q->timer = ssdsim__engine_schedule_cancellable(
            d->engine, ssdsim__engine_now(d->engine) + nq->cfg->cq_time_ns, timer_event, nq, qi);
        if (!q->timer) {
            ssdsim__engine_stop(d->engine);
            if (d->ssd && !d->env.fail_code)
                ssdsim_ftl_fail(&d->env, SSDSIM_ENOMEM, "out of memory arming an interrupt");
        }
    }
}

bool ssdsim__nvmeq_busy(const struct ssdsim__nvmeq *nq)
{
    for (uint32_t i = 0; i < nq->n; i++)
        if (nq->q[i].cq_n > 0)
            return true;
    return false;
}
