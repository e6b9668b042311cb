/* page_dftl.c: DFTL's mapping in flash (Gupta et al., ASPLOS 2009; see ftl/page.h): the cached
 * mapping table (CMT, LRU), loads of translation pages on a miss, write-backs of dirty
 * translation pages (read, then program a new version; batched per page), and the GC moves whose
 * entries are not cached, written back once per translation page per victim. Translation-page
 * reads are submitted here; their programs through ssdsim__page_program (page_place.c).
 */
#include "ftl/page_int.h"

#include <stdlib.h>
#include <string.h>

#define WAIT_LINK offsetof(struct ssdsim__dftl_wait, next)

static void lru_unlink(struct ssdsim__cmt *c, uint32_t s)
{
    if (c->prev[s] != NONE)
        c->next[c->prev[s]] = c->next[s];
    else
        c->head = c->next[s];
    if (c->next[s] != NONE)
        c->prev[c->next[s]] = c->prev[s];
    else
        c->tail = c->prev[s];
}

static void lru_push_front(struct ssdsim__cmt *c, uint32_t s)
{
    c->prev[s] = NONE;
    c->next[s] = c->head;
    if (c->head != NONE)
        c->prev[c->head] = s;
    else
        c->tail = s;
    c->head = s;
}

static void tp_unlink(struct ssdsim__cmt *c, uint32_t s, uint32_t t)
{
    if (c->tp_prev[s] != NONE)
        c->tp_next[c->tp_prev[s]] = c->tp_next[s];
    else
        c->tp_slots[t] = c->tp_next[s];
    if (c->tp_next[s] != NONE)
        c->tp_prev[c->tp_next[s]] = c->tp_prev[s];
}

/* Write translation page t back: read its current version (when it has one), then program the
 * new one. A write-back of t that is already on its way (its read in flight, or its program
 * waiting for a free page) takes this update too: the page is programmed with the table as it is
 * when the program is issued, so one program serves every update made before it. Without this,
 * GC copying into a plane at its reserve queued a program of the same translation page for every
 * victim, the queue outgrew what the victims freed, and the device never wrote again (issue 12). */
void ssdsim__page_dftl_writeback(struct ssdsim__ftl *f, uint32_t t)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->tp_pending[t])
        return;
    c->tp_pending[t] = 1;
    uint32_t where = f->l2p[f->n_lpn + t];
    if (where != NONE) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_MAP_READS, 1);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, where, f->page_size, SSDSIM_FOR_MAPPING,
                          cookie(TAG_MAP_READ, 1, t));
    } else {
        ssdsim__page_dftl_map_read_done(f, t, true);
    }
}

/* Program translation page t on `plane` (its GTD entry moves there). Every cached entry of the
 * page is clean afterwards: they are written together (DFTL's batch update). */
void ssdsim__page_dftl_map_prog(struct ssdsim__ftl *f, uint32_t t, uint32_t plane)
{
    struct ssdsim__cmt *c = &f->cmt;
    for (uint32_t s = c->tp_slots[t]; s != NONE; s = c->tp_next[s])
        c->dirty[s] = 0;
    c->tp_pending[t] = 0;
    if (c->shadow) {
        uint64_t first = (uint64_t)t * c->epp, n = SSDSIM__MIN((uint64_t)c->epp, f->n_lpn - first);
        memcpy(&c->shadow[first], &f->l2p[first], sizeof *c->shadow * n);
    }
    ssdsim_ftl_count(f->env, SSDSIM_CNT_MAP_WRITES, 1);
    ssdsim__page_program(f, plane, SSDSIM__FR_MAP, (uint32_t)(f->n_lpn + t), NONE,
                         SSDSIM_FOR_MAPPING, cookie(TAG_MAP_PROG, 0, t));
}

/* Make room for one entry: evict the least recently used, writing its page back if dirty. */
static uint32_t cmt_slot(struct ssdsim__ftl *f)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->n < c->cap)
        return c->n++;
    uint32_t s = c->tail;
    uint32_t t = tpage_of(f, c->lpn[s]);
    if (c->dirty[s])
        ssdsim__page_dftl_writeback(f, t);
    lru_unlink(c, s);
    tp_unlink(c, s, t);
    c->slot_of[c->lpn[s]] = NONE;
    return s;
}

static void cmt_insert(struct ssdsim__ftl *f, uint32_t lpn)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->slot_of[lpn] != NONE)
        return;
    uint32_t s = cmt_slot(f), t = tpage_of(f, lpn);
    c->lpn[s] = lpn;
    c->dirty[s] = 0;
    c->slot_of[lpn] = s;
    lru_push_front(c, s);
    c->tp_prev[s] = NONE;
    c->tp_next[s] = c->tp_slots[t];
    if (c->tp_slots[t] != NONE)
        c->tp_prev[c->tp_slots[t]] = s;
    c->tp_slots[t] = s;
}

/* Load translation page t for the requests waiting on it (from where the GTD has it now). */
static void map_load(struct ssdsim__ftl *f, uint32_t t)
{
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, f->l2p[f->n_lpn + t], f->page_size,
                      SSDSIM_FOR_MAPPING, cookie(TAG_MAP_READ, 0, t));
}

static void map_load_event(void *ctx, uint32_t t)
{
    map_load(ctx, t);
}

/* Is the entry of `lpn` cached? If not, park the request until its translation page is read
 * (one read per page however many requests wait for it). */
bool ssdsim__page_dftl_ready(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes,
                             bool write)
{
    struct ssdsim__cmt *c = &f->cmt;
    uint32_t s = c->slot_of[lpn];
    if (s != NONE) {
        if (c->head != s) {
            lru_unlink(c, s);
            lru_push_front(c, s);
        }
        return true;
    }
    uint32_t t = tpage_of(f, lpn);
    uint32_t where = f->l2p[f->n_lpn + t];
    if (where == NONE) {
        /* The page was never written: every entry in it is "unmapped", known without a read. */
        cmt_insert(f, lpn);
        return true;
    }
    if (ssdsim__ipool_empty(&c->wait_pool)) {
        struct ssdsim__dftl_wait *p = ssdsim__ipool_grow(&c->wait_pool, c->wait, sizeof *p,
                                                         WAIT_LINK, 256);
        if (!p) {
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing DFTL misses");
            return false;
        }
        c->wait = p;
    }
    uint32_t w = ssdsim__ipool_take(&c->wait_pool, c->wait, sizeof *c->wait, WAIT_LINK);
    bool first = c->tp_waiters[t] == NONE;
    c->wait[w] = (struct ssdsim__dftl_wait){io, lpn, bytes, c->tp_waiters[t], write};
    c->tp_waiters[t] = w;
    if (first) {
        /* The firmware's work on the miss (controller.fw_map_us) comes before the load the
         * command waits for: the read is issued when it ends. */
        uint64_t end = ssdsim__env_count_end(f->env, SSDSIM_CNT_MAP_READS, 1);
        if (end > ssdsim__engine_now(f->env->engine)) {
            if (ssdsim__engine_schedule(f->env->engine, end, map_load_event, f, t))
                ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory for a mapping load");
        } else {
            map_load(f, t);
        }
    }
    return false;
}

/* A translation page read ended: either a load (the waiting requests go on) or the first half
 * of a write-back (the new version is programmed now). */
void ssdsim__page_dftl_map_read_done(struct ssdsim__ftl *f, uint32_t t, bool writeback)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (writeback) {
        uint32_t plane = f->stall.n ? NONE : ssdsim__page_choose_plane(f, SSDSIM__FR_MAP, (uint32_t)(f->n_lpn + t));
        if (plane == NONE) {
            if (!ssdsim__page_stall_push(f, STALL_MAP, t, SSDSIM__FR_MAP))
                ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing writes");
            return;
        }
        ssdsim__page_dftl_map_prog(f, t, plane);
        return;
    }
    /* Requests were pushed on the front: serve them in arrival order. */
    uint32_t w = c->tp_waiters[t], rev = NONE;
    c->tp_waiters[t] = NONE;
    while (w != NONE) {
        uint32_t n = c->wait[w].next;
        c->wait[w].next = rev;
        rev = w;
        w = n;
    }
    for (w = rev; w != NONE;) {
        struct ssdsim__dftl_wait x = c->wait[w];
        uint32_t n = x.next;
        ssdsim__ipool_put(&c->wait_pool, c->wait, sizeof *c->wait, WAIT_LINK, w);
        cmt_insert(f, x.lpn);
        int rc = x.write ? ssdsim__page_do_write(f, x.io, x.lpn, x.bytes)
                         : ssdsim__page_do_read(f, x.io, x.lpn, x.bytes);
        if (rc)
            ssdsim_ftl_fail(f->env, rc, "out of memory serving a DFTL miss");
        w = n;
    }
}

/* The mapping of data page `lpn` changed. Cached: the entry is dirty. Not cached: its
 * translation page must be updated in flash: at once for the host (a trim, a write whose entry
 * was evicted while it waited), and for a GC move (`gc_plane` the plane whose victim it left,
 * else NONE) once per victim, when the victim's last copy is done (the page joins the plane's
 * list once, stamped with the victim's serial). Writing it back at the first move of a victim,
 * as this did, left the page in flash without the victim's later moves, for good (the
 * consistency check's "not cached, and its translation page in flash says" failure). */
void ssdsim__page_dftl_mapped(struct ssdsim__ftl *f, uint32_t lpn, uint32_t gc_plane)
{
    struct ssdsim__cmt *c = &f->cmt;
    uint32_t s = c->slot_of[lpn];
    if (s != NONE) {
        c->dirty[s] = 1;
        return;
    }
    uint32_t t = tpage_of(f, lpn);
    if (gc_plane == NONE) {
        ssdsim__page_dftl_writeback(f, t);
        return;
    }
    struct ssdsim__plane *pl = &f->planes[gc_plane];
    if (c->tp_stamp[t] == pl->serial)
        return;
    c->tp_stamp[t] = pl->serial;
    /* (at most one entry per copy of the victim: ppb entries a plane) */
    c->gc_tps[(size_t)gc_plane * f->ppb + pl->n_gc_tps++] = t;
}

int ssdsim__page_dftl_setup(struct ssdsim__ftl *f, uint32_t cmt_entries)
{
    struct ssdsim__cmt *c = &f->cmt;
    c->epp = f->page_size / 4;
    c->n_tpages = (f->n_lpn + c->epp - 1) / c->epp;
    c->cap = cmt_entries < f->n_lpn ? cmt_entries : (uint32_t)f->n_lpn;
    c->head = c->tail = NONE;
    ssdsim__ipool_init(&c->wait_pool);
    c->slot_of = malloc(sizeof *c->slot_of * f->n_lpn);
    c->lpn = malloc(sizeof *c->lpn * c->cap);
    c->prev = malloc(sizeof *c->prev * c->cap);
    c->next = malloc(sizeof *c->next * c->cap);
    c->tp_prev = malloc(sizeof *c->tp_prev * c->cap);
    c->tp_next = malloc(sizeof *c->tp_next * c->cap);
    c->dirty = calloc(c->cap, 1);
    c->tp_slots = malloc(sizeof *c->tp_slots * c->n_tpages);
    c->tp_waiters = malloc(sizeof *c->tp_waiters * c->n_tpages);
    c->tp_stamp = calloc(c->n_tpages, sizeof *c->tp_stamp);
    c->tp_pending = calloc(c->n_tpages, 1);
    c->gc_tps = malloc(sizeof *c->gc_tps * f->n_planes * f->ppb);
    if (!c->gc_tps || !c->slot_of || !c->lpn || !c->prev || !c->next || !c->tp_prev ||
        !c->tp_next || !c->dirty || !c->tp_slots || !c->tp_waiters || !c->tp_stamp ||
        !c->tp_pending)
        return SSDSIM_ENOMEM;
    memset(c->slot_of, 0xff, sizeof *c->slot_of * f->n_lpn);
    memset(c->tp_slots, 0xff, sizeof *c->tp_slots * c->n_tpages);
    memset(c->tp_waiters, 0xff, sizeof *c->tp_waiters * c->n_tpages);
    return 0;
}

void ssdsim__page_dftl_free(struct ssdsim__cmt *c)
{
    free(c->slot_of);
    free(c->lpn);
    free(c->prev);
    free(c->next);
    free(c->tp_prev);
    free(c->tp_next);
    free(c->dirty);
    free(c->tp_slots);
    free(c->tp_waiters);
    free(c->tp_stamp);
    free(c->gc_tps);
    free(c->tp_pending);
    free(c->shadow);
    free(c->wait);
}
