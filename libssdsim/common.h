/* common.h: private helpers shared by every module of libssdsim (never installed).
 *
 * Internal functions are named ssdsim__<module>_<verb>, are not static, and are declared only in
 * private headers; the library is built with -fvisibility=hidden so only SSDSIM_API symbols are
 * exported.
 */
#ifndef SSDSIM_COMMON_H
#define SSDSIM_COMMON_H

#include "config.h"

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#define SSDSIM__NS_PER_US 1000ULL
#define SSDSIM__NS_PER_MS 1000000ULL
#define SSDSIM__NS_PER_S 1000000000ULL
/* The simulated clock's limit: 2^62 ns, about 146 years. Idle time, run_until and submitted
 * arrival times may not pass it, so that a run after them (whose times add its runtime and
 * the devices' delays) cannot overflow the clock. */
#define SSDSIM__CLOCK_LIMIT_NS (1ULL << 62)

#define SSDSIM__MIN(a, b) ((a) < (b) ? (a) : (b))
#define SSDSIM__MAX(a, b) ((a) > (b) ? (a) : (b))
#define SSDSIM__ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* a x b / c rounded up, UINT64_MAX when it does not fit (c > 0): in 64 bits when the product
 * fits, as it does for every transfer time, else through a 128-bit divide. */
static inline uint64_t ssdsim__mul_div_up(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t p;
    if (!__builtin_mul_overflow(a, b, &p) && p <= UINT64_MAX - c)
        return (p + c - 1) / c;
    unsigned __int128 t = ((unsigned __int128)a * b + c - 1) / c;
    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

#if defined(__GNUC__)
#define SSDSIM__LIKELY(x) __builtin_expect(!!(x), 1)
#define SSDSIM__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SSDSIM__PRINTF(f, a) __attribute__((format(printf, f, a)))
/* A function kept out of line: a rare path of a hot function, whose call would otherwise make
 * the hot path save registers. */
#define SSDSIM__NOINLINE __attribute__((noinline))
/* A small function of a hot path inlined wherever it is called, which GCC's size limits may
 * otherwise keep out of line in a larger caller (fast-forward's copy loop, ftl/page_place.c). */
#define SSDSIM__INLINE inline __attribute__((always_inline))
#else
#define SSDSIM__LIKELY(x) (x)
#define SSDSIM__UNLIKELY(x) (x)
#define SSDSIM__PRINTF(f, a)
#define SSDSIM__NOINLINE
#define SSDSIM__INLINE inline
#endif

/* The first set bit of bitmap `bm` at or after bit `k` and before bit `end`, or `end` when
 * there is none: a word at a time (the victim's valid pages, the dies that owe no GC copies). */
static SSDSIM__INLINE uint64_t ssdsim__bits_next(const uint64_t *bm, uint64_t k, uint64_t end)
{
    while (k < end) {
        uint64_t w = bm[k >> 6] >> (k & 63);
        if (w) {
            k += (uint64_t)__builtin_ctzll(w);
            return k < end ? k : end;
        }
        k = (k | 63) + 1;
    }
    return end;
}

/* Expensive invariant checks, compiled in with --enable-debug only. */
#ifdef SSDSIM_DEBUG
#define SSDSIM__DEBUG_ASSERT(x) assert(x)
#else
#define SSDSIM__DEBUG_ASSERT(x) ((void)0)
#endif

/* The handles the library gives out (ssdsim, ssdsim_model, ssdsim_workload) carry one of these
 * in their `magic` field from creation until they are freed, when it is cleared. With
 * --enable-debug, the public functions check it and abort with a message naming the function
 * and the handle when it is wrong: a freed handle (still readable) or a pointer to something
 * else. Release builds do not check (the cost is one compare, but a foreign pointer cannot be
 * told apart reliably anyway, and use after free is for ASan to find). */
#define SSDSIM__MAGIC_SIM 0x5353494du      /* "SSIM" */
#define SSDSIM__MAGIC_MODEL 0x53534d44u    /* "SSMD" */
#define SSDSIM__MAGIC_WORKLOAD 0x5353574cu /* "SSWL" */
#define SSDSIM__MAGIC_FREED 0xdeadf5eeu

#ifdef SSDSIM_DEBUG
/* Abort with "ssdsim: FUNC: WHAT handle P is freed or not a WHAT" unless magic == want. */
void ssdsim__check_handle(const void *p, uint32_t magic, uint32_t want, const char *what,
                          const char *func);
#define SSDSIM__CHECK_HANDLE(p, want, what)                                                        \
    do {                                                                                           \
        if (p)                                                                                     \
            ssdsim__check_handle((p), (p)->magic, (want), (what), __func__);                      \
    } while (0)
#else
#define SSDSIM__CHECK_HANDLE(p, want, what) ((void)0)
#endif

/* Fill `err` (which may be NULL) with code, file and JSON path, and format the one-line message
 * "<file>: <path>: <what>" (parts that are empty are left out). Returns `code`. */
int ssdsim__error_set(ssdsim_error *err, int code, const char *file, const char *path,
                      const char *fmt, ...) SSDSIM__PRINTF(5, 6);

/* Send one line to the installed log handler (nothing when there is none). */
void ssdsim__log(enum ssdsim_log_level level, const char *fmt, ...) SSDSIM__PRINTF(2, 3);

/* Same as ssdsim__error_set but with a line and column (syntax errors). */
int ssdsim__error_set_at(ssdsim_error *err, int code, const char *file, int line, int column,
                         const char *fmt, ...) SSDSIM__PRINTF(6, 7);

#endif /* SSDSIM_COMMON_H */
