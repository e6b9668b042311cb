/* bench_engine.c: schedule+pop pairs per CPU-second (process CPU time, which a shared machine
 * does not distort as it does wall time) with 100,000 pending events: the engine's hot loop in
 * isolation. Prints figures; asserts nothing about speed. */
#include <stdio.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/rng.h"

static struct ssdsim__engine e;
static struct ssdsim__rng rng;
static uint64_t remaining;

/* Each event schedules one successor at a random distance, so the pending set stays at its
 * initial size: every executed event is one pop plus one schedule. */
static void ev(void *ctx, uint32_t arg)
{
    if (remaining == 0)
        return;
    remaining--;
    ssdsim__engine_schedule(&e, ssdsim__engine_now(&e) + 1 + ssdsim__rng_below(&rng, 1000000),
                            ev, ctx, arg);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
    const uint32_t pending = 100000;
    const uint64_t pairs = 50000000;
    ssdsim__engine_init(&e, pending);
    ssdsim__rng_seed(&rng, 1, "bench", 0);
    for (uint32_t i = 0; i < pending; i++)
        ssdsim__engine_schedule(&e, ssdsim__rng_below(&rng, 1000000), ev, NULL, i);
    remaining = pairs;
    double t0 = wall(), c0 = cpu();
    ssdsim__engine_run(&e, pairs);
    double dt = wall() - t0, dc = cpu() - c0;
    printf("engine: %.1f million schedule+pop pairs per CPU-second (%u pending, %llu pairs, "
           "%.2f CPU-s, %.2f s wall)\n",
           (double)pairs / dc / 1e6, pending, (unsigned long long)pairs, dc, dt);
    ssdsim__engine_fini(&e);
    return 0;
}
