/* zns.c: the zones of a zoned-namespace drive (NVMe Zoned Namespace Command Set 1.1): each
 * zone's state (empty, implicitly or explicitly open, closed, full) and write pointer, the
 * limits on open and active zones, and the zone commands (append, reset, finish, open, close).
 *
 * Requests are checked here, on the host's side of the drive, in the order the drive receives
 * them (ssdsim__zns_apply, called when a request enters the system): a write must start at its
 * zone's write pointer and end within the zone's capacity, an append is placed at the write
 * pointer and told where, and a refused request completes at once with the NVMe status a drive
 * returns. Only writes and resets reach the device (a reset as the trim of what its zone holds,
 * which the zoned FTL turns into erases); open, close and finish change the zone's state and
 * complete without device time (their cost on a real drive is firmware time this model does not
 * book). With several NVMe queues the device may see commands in another order than this one;
 * a host that waits for a reset's completion before writing the zone again (as fio and the
 * example store do) is unaffected.
 *
 * When a write or an open needs an open zone beyond zns.max_open, the implicitly opened zone
 * opened longest ago is closed to make room (the Zoned Namespace Command Set allows the
 * controller this); if every open zone was opened explicitly, the request fails with Too Many
 * Open Zones. A zone that leaves the empty state while zns.max_active zones are already open or
 * closed fails with Too Many Active Zones.
 */
#include "dev/zns.h"

#include <stdlib.h>
#include <string.h>

#include "workload/gen.h"

int ssdsim__zns_new(struct ssdsim__zns **out, const struct ssdsim_model *m)
{
    struct ssdsim__zns *z = calloc(1, sizeof *z);
    *out = z;
    if (!z)
        return SSDSIM_ENOMEM;
    z->zone_size = m->zns.zone_size;
    z->capacity = m->zns.zone_capacity;
    z->n_zones = ssdsim__model_zns_zones(m);
    z->unit = m->ftl.mapping_unit;
    z->max_open = m->zns.max_open;
    z->max_active = m->zns.max_active;
    z->z = calloc(z->n_zones ? z->n_zones : 1, sizeof *z->z);
    if (!z->z)
        return SSDSIM_ENOMEM;
    ssdsim__zns_reset(z);
    z->st.zones = z->n_zones;
    return 0;
}

void ssdsim__zns_free(struct ssdsim__zns *z)
{
    if (!z)
        return;
    free(z->z);
    free(z);
}

void ssdsim__zns_reset(struct ssdsim__zns *z)
{
    for (uint64_t i = 0; i < z->n_zones; i++)
        z->z[i] = (struct ssdsim__zone){.state = SSDSIM_ZONE_EMPTY};
    z->n_open = z->n_active = 0;
}

static bool is_open(uint8_t s)
{
    return s == SSDSIM_ZONE_IMPLICIT_OPEN || s == SSDSIM_ZONE_EXPLICIT_OPEN;
}

/* Room for one more open zone: there is, or the oldest implicitly open zone is closed. */
static bool open_room(struct ssdsim__zns *z)
{
    if (!z->max_open || z->n_open < z->max_open)
        return true;
    uint64_t best = UINT64_MAX, oldest = UINT64_MAX;
    for (uint64_t i = 0; i < z->n_zones; i++) {
        if (z->z[i].state == SSDSIM_ZONE_IMPLICIT_OPEN && z->z[i].opened < oldest) {
            oldest = z->z[i].opened;
            best = i;
        }
    }
    if (best == UINT64_MAX)
        return false;
    z->z[best].state = SSDSIM_ZONE_CLOSED;
    z->n_open--;
    z->st.implicit_closes++;
    return true;
}

/* Open zone i (empty or closed) in state `to`: 0 or the status of the failure. */
static uint16_t open_zone(struct ssdsim__zns *z, uint64_t i, uint8_t to)
{
    struct ssdsim__zone *zn = &z->z[i];
    bool empty = zn->state == SSDSIM_ZONE_EMPTY;
    if (empty && z->max_active && z->n_active >= z->max_active)
        return SSDSIM_ZS_TOO_MANY_ACTIVE;
    if (!open_room(z))
        return SSDSIM_ZS_TOO_MANY_OPEN;
    if (empty)
        z->n_active++;
    z->n_open++;
    zn->state = to;
    zn->opened = ++z->open_seq;
    return 0;
}

/* Zone i leaves the open or closed state (for full or empty). */
static void deactivate(struct ssdsim__zns *z, struct ssdsim__zone *zn)
{
    if (is_open(zn->state)) {
        z->n_open--;
        z->n_active--;
    } else if (zn->state == SSDSIM_ZONE_CLOSED) {
        z->n_active--;
    }
}

static uint16_t write_check(struct ssdsim__zns *z, uint8_t zop, uint64_t *offset, uint32_t len)
{
    uint64_t i = *offset / z->zone_size, start = i * z->zone_size;
    if (len == 0 || len % z->unit || *offset % z->unit || i >= z->n_zones)
        return SSDSIM_ZS_INVALID_FIELD;
    struct ssdsim__zone *zn = &z->z[i];
    if (zop == SSDSIM__ZOP_APPEND) {
        if (*offset != start)
            return SSDSIM_ZS_INVALID_FIELD; /* ZSLBA must be the zone's first block */
    }
    if (zn->state == SSDSIM_ZONE_FULL)
        return SSDSIM_ZS_ZONE_FULL;
    uint64_t at = zop == SSDSIM__ZOP_APPEND ? start + zn->wp : *offset;
    if (at != start + zn->wp)
        return SSDSIM_ZS_INVALID_WRITE;
    if (zn->wp + len > z->capacity)
        return SSDSIM_ZS_BOUNDARY_ERROR;
    if (zn->state == SSDSIM_ZONE_EMPTY || zn->state == SSDSIM_ZONE_CLOSED) {
        uint16_t s = open_zone(z, i, SSDSIM_ZONE_IMPLICIT_OPEN);
        if (s)
            return s;
    }
    zn->wp += len;
    if (zn->wp > zn->high)
        zn->high = zn->wp;
    if (zn->wp == z->capacity) {
        deactivate(z, zn);
        zn->state = SSDSIM_ZONE_FULL;
    }
    *offset = at;
    if (zop == SSDSIM__ZOP_APPEND)
        z->st.appends++;
    return 0;
}

int ssdsim__zns_apply(struct ssdsim__zns *z, uint8_t *op, uint8_t zop, uint64_t *offset,
                      uint32_t *len, uint16_t *status)
{
    *status = 0;
    if (zop == SSDSIM__ZOP_NONE && *op == SSDSIM__IO_READ)
        return 1;
    if (zop == SSDSIM__ZOP_NONE && *op == SSDSIM__IO_FLUSH)
        return 1;
    if (zop == SSDSIM__ZOP_NONE && *op == SSDSIM__IO_TRIM) {
        *status = SSDSIM_ZS_INVALID_FIELD; /* a zone is emptied by a reset, not by trims */
        z->st.errors++;
        return 0;
    }
    if (zop == SSDSIM__ZOP_NONE || zop == SSDSIM__ZOP_APPEND) {
        *status = write_check(z, zop, offset, *len);
        if (*status) {
            z->st.errors++;
            return 0;
        }
        *op = SSDSIM__IO_WRITE;
        return 1;
    }
    uint64_t i = *offset / z->zone_size;
    if (*offset % z->zone_size || i >= z->n_zones) {
        *status = SSDSIM_ZS_INVALID_FIELD; /* zone commands name a zone's first block */
        z->st.errors++;
        return 0;
    }
    struct ssdsim__zone *zn = &z->z[i];
    uint8_t s = zn->state;
    switch ((enum ssdsim__zop)zop) {
    case SSDSIM__ZOP_RESET: {
        deactivate(z, zn);
        uint64_t high = zn->high;
        *zn = (struct ssdsim__zone){.state = SSDSIM_ZONE_EMPTY};
        z->st.resets++;
        if (!high)
            return 0;
        *op = SSDSIM__IO_TRIM;
        *len = (uint32_t)high;
        return 1;
    }
    case SSDSIM__ZOP_FINISH:
        if (s != SSDSIM_ZONE_FULL) {
            deactivate(z, zn);
            zn->state = SSDSIM_ZONE_FULL;
            zn->wp = z->capacity;
        }
        z->st.finishes++;
        return 0;
    case SSDSIM__ZOP_OPEN:
        if (s == SSDSIM_ZONE_FULL) {
            *status = SSDSIM_ZS_INVALID_TRANSITION;
        } else if (s == SSDSIM_ZONE_IMPLICIT_OPEN) {
            zn->state = SSDSIM_ZONE_EXPLICIT_OPEN;
        } else if (s != SSDSIM_ZONE_EXPLICIT_OPEN) {
            *status = open_zone(z, i, SSDSIM_ZONE_EXPLICIT_OPEN);
        }
        if (!*status)
            z->st.opens++;
        break;
    case SSDSIM__ZOP_CLOSE:
        if (is_open(s)) {
            z->n_open--;
            zn->state = SSDSIM_ZONE_CLOSED;
            if (zn->wp == 0) {
                z->n_active--;
                zn->state = SSDSIM_ZONE_EMPTY;
            }
        } else if (s != SSDSIM_ZONE_CLOSED) {
            *status = SSDSIM_ZS_INVALID_TRANSITION;
        }
        if (!*status)
            z->st.closes++;
        break;
    default:
        *status = SSDSIM_ZS_INVALID_FIELD;
    }
    if (*status)
        z->st.errors++;
    return 0;
}

static bool is_active(uint8_t s)
{
    return is_open(s) || s == SSDSIM_ZONE_CLOSED;
}

int ssdsim__zns_zbd_write(const struct ssdsim__zns *z, uint32_t max_open, uint64_t *offset,
                          uint32_t *len)
{
    uint64_t i = *offset / z->zone_size;
    if (i >= z->n_zones)
        i = z->n_zones - 1;
    uint32_t limit = max_open;
    if (z->max_open && (!limit || z->max_open < limit))
        limit = z->max_open;
    if (z->max_active && (!limit || z->max_active < limit))
        limit = z->max_active;
    if (limit && !is_active(z->z[i].state) && z->n_active >= limit) {
        uint64_t k = i % z->n_active;
        for (uint64_t j = 0; j < z->n_zones; j++) {
            if (is_active(z->z[j].state) && k-- == 0) {
                i = j;
                break;
            }
        }
    }
    const struct ssdsim__zone *zn = &z->z[i];
    *offset = i * z->zone_size;
    if (zn->state == SSDSIM_ZONE_FULL || zn->wp >= z->capacity)
        return 1;
    *offset += zn->wp;
    if (*len > z->capacity - zn->wp)
        *len = (uint32_t)(z->capacity - zn->wp);
    return 0;
}

const char *ssdsim__zns_status_name(uint16_t status)
{
    switch (status) {
    case 0: return "success";
    case SSDSIM_ZS_INVALID_FIELD: return "Invalid Field in Command";
    case SSDSIM_ZS_BOUNDARY_ERROR: return "Zone Boundary Error";
    case SSDSIM_ZS_ZONE_FULL: return "Zone Is Full";
    case SSDSIM_ZS_INVALID_WRITE: return "Zone Invalid Write";
    case SSDSIM_ZS_TOO_MANY_ACTIVE: return "Too Many Active Zones";
    case SSDSIM_ZS_TOO_MANY_OPEN: return "Too Many Open Zones";
    case SSDSIM_ZS_INVALID_TRANSITION: return "Invalid Zone State Transition";
    default: return "unknown status";
    }
}
