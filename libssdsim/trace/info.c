/* info.c: ssdsim_trace_info_file: read a whole trace once and summarise it (mix, sizes,
 * footprint, timing, devices) in memory that does not grow with the number of requests.
 *
 * The footprint is exact, in 512-byte sectors: a flat open-addressing hash map (linear probing,
 * power-of-two capacity, at most 1/2 full) from 32 KiB chunk numbers to 64-bit masks, one bit
 * per sector. An entry is 16 bytes, about 32 bytes per touched chunk with the load factor, so a
 * trace touching 1 TiB costs about 1 GiB: the price of exactness. A sorted interval set would
 * be smaller for sequential traces but slower to update for random ones; a HyperLogLog sketch
 * would be small but approximate. Two maps are kept: all operations, and writes only.
 * Inter-arrival statistics use Welford's running mean and variance.
 */
#include "trace/trace.h"
#include "abi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SECTORS_PER_CHUNK 64 /* 32 KiB of 512-byte sectors: one 64-bit mask */
#define MAP_MIN_CAP 1024

struct slot {
    uint64_t key; /* chunk number + 1; 0 = empty */
    uint64_t mask;
};

struct sector_map {
    struct slot *slots;
    size_t cap; /* a power of two */
    size_t used;
    uint64_t sectors; /* bits set over all masks */
};

static unsigned popcount64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_popcountll(x);
#else
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
#endif
}

static size_t slot_of(uint64_t key, size_t cap)
{
    /* Fibonacci hashing: consecutive chunk numbers spread over the table. */
    return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

static int map_grow(struct sector_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : MAP_MIN_CAP;
    struct slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return SSDSIM_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key)
            continue;
        size_t j = slot_of(m->slots[i].key, cap);
        while (slots[j].key)
            j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

/* OR `mask` into the chunk's mask. 0 or SSDSIM_ENOMEM. */
static int map_or(struct sector_map *m, uint64_t chunk, uint64_t mask)
{
    if (2 * (m->used + 1) > m->cap) {
        int rc = map_grow(m);
        if (rc)
            return rc;
    }
    uint64_t key = chunk + 1;
    size_t j = slot_of(key, m->cap);
    while (m->slots[j].key && m->slots[j].key != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->slots[j].key) {
        m->slots[j].key = key;
        m->used++;
    }
    m->sectors += popcount64(mask & ~m->slots[j].mask);
    m->slots[j].mask |= mask;
    return 0;
}

/* Mark the sectors a request touches, partial sectors included. */
static int map_mark(struct sector_map *m, uint64_t offset, uint64_t length)
{
    uint64_t first = offset / 512;
    uint64_t last = (offset + length - 1) / 512; /* offset + length cannot overflow (reader) */
    for (uint64_t c = first / SECTORS_PER_CHUNK; c <= last / SECTORS_PER_CHUNK; c++) {
        unsigned lo = c == first / SECTORS_PER_CHUNK ? (unsigned)(first % SECTORS_PER_CHUNK) : 0;
        unsigned hi = c == last / SECTORS_PER_CHUNK ? (unsigned)(last % SECTORS_PER_CHUNK) : 63;
        uint64_t mask =
            (hi == 63 ? UINT64_MAX : (UINT64_C(1) << (hi + 1)) - 1) & ~((UINT64_C(1) << lo) - 1);
        int rc = map_or(m, c, mask);
        if (rc)
            return rc;
    }
    return 0;
}

static void map_free(struct sector_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* Request-size class: 0 for <= 512 B, i for 2^(i+8) < length <= 2^(i+9), the last for more. */
static unsigned size_bucket(uint64_t length)
{
    unsigned b = 0;
    while (b + 1 < SSDSIM_TRACE_SIZE_BUCKETS && length > (UINT64_C(512) << b))
        b++;
    return b;
}

static int trace_info_file_full(const char *path, const ssdsim_trace_opts *opts,
                                ssdsim_trace_info *out,
                           ssdsim_error *err)
{
    if (!path || !out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_trace_info_file: path and out must not be NULL");
    memset(out, 0, sizeof *out);
    ssdsim_trace *t = NULL;
    int rc = ssdsim_trace_open(&t, path, opts, err);
    if (rc)
        return rc;

    struct sector_map all = {0}, written = {0}, devices = {0};
    uint64_t prev = 0, t_min = UINT64_MAX, t_max = 0, n_gaps = 0;
    double mean = 0, m2 = 0;
    ssdsim_trace_req req;
    uint64_t late = 0; /* the reader's out-of-order count before the request */
    while ((rc = ssdsim_trace_next(t, &req, err)) == 1) {
        bool out_of_order = ssdsim__trace_out_of_order(t) > late;
        late = ssdsim__trace_out_of_order(t);
        out->requests++;
        out->count[req.op]++;
        out->bytes[req.op] += req.length;
        out->size_hist[size_bucket(req.length)]++;
        if (out->requests == 1 || req.length < out->min_length)
            out->min_length = req.length;
        if (req.length > out->max_length)
            out->max_length = req.length;
        if (req.offset + req.length > out->max_end_bytes)
            out->max_end_bytes = req.offset + req.length;
        if (req.offset % 4096 || req.length % 4096)
            out->unaligned_4k++;
        if ((rc = map_mark(&all, req.offset, req.length)) != 0 ||
            (req.op == SSDSIM_OP_WRITE && (rc = map_mark(&written, req.offset, req.length))) ||
            (rc = map_or(&devices, req.device, 1)) != 0) {
            rc = ssdsim__error_set(err, rc, path, NULL, "out of memory (footprint map)");
            break;
        }
        if (out->requests > 1) {
            if (out_of_order) {
                out->out_of_order++;
            } else {
                uint64_t gap = req.time_ns - prev;
                n_gaps++;
                double d = (double)gap - mean;
                mean += d / (double)n_gaps;
                m2 += d * ((double)gap - mean);
                if (n_gaps == 1 || gap < out->interarrival_min_ns)
                    out->interarrival_min_ns = gap;
                if (gap > out->interarrival_max_ns)
                    out->interarrival_max_ns = gap;
            }
        }
        prev = req.time_ns;
        if (req.time_ns < t_min)
            t_min = req.time_ns;
        if (req.time_ns > t_max)
            t_max = req.time_ns;
    }
    if (rc == 0) {
        out->format = ssdsim_trace_get_format(t);
        out->footprint_bytes = all.sectors * 512;
        out->footprint_write_bytes = written.sectors * 512;
        out->n_devices = (uint32_t)devices.used;
        out->bad_lines = ssdsim_trace_bad_lines(t);
        ssdsim_trace_stats st;
        ssdsim_trace_get_stats(t, &st);
        out->gzip_trailing_bytes = st.gzip_trailing_bytes;
        out->duration_ns = out->requests ? t_max - t_min : 0;
        if (out->duration_ns)
            out->arrival_rate = (double)out->requests * 1e9 / (double)out->duration_ns;
        out->interarrival_mean_ns = mean;
        out->interarrival_stddev_ns = n_gaps ? sqrt(m2 / (double)n_gaps) : 0;
    } else {
        ssdsim_trace_format f = out->format;
        memset(out, 0, sizeof *out);
        out->format = f;
    }
    map_free(&all);
    map_free(&written);
    map_free(&devices);
    ssdsim_trace_close(t);
    return rc;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_trace_info_file_sized(const char *path, const ssdsim_trace_opts *opts,
                                 ssdsim_trace_info *out, size_t size, ssdsim_error *err)
{
    ssdsim_trace_info full;
    memset(&full, 0, sizeof full);
    int rc = trace_info_file_full(path, opts, out ? &full : NULL, err);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, true);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_trace_info_file)(const char *path, const ssdsim_trace_opts *opts,
                             ssdsim_trace_info *out, ssdsim_error *err)
{
    return ssdsim_trace_info_file_sized(path, opts, out, SSDSIM__TRACE_INFO_SIZE_1, err);
}
