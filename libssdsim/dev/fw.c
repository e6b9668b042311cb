/* fw.c: the controller's firmware as a contended resource. The firmware cores (struct
 * ssdsim__ctrl, shared by the devices of one controller) are FCFS timelines; every firmware task
 * takes the earliest-free core (lowest index on ties) at max(requested time, its free time) and
 * holds it for the task's time. A host-based FTL (host.ftl_threads > 0) runs the same tasks on
 * the host's FTL threads instead (struct ssdsim__cpu).
 *
 * Tasks and their costs (the controller.fw_* keys, 0 when absent, which leaves every model as
 * it was):
 *   host command      controller.cmd_overhead_us (once per command, as before) plus
 *                     fw_read_us or fw_write_us per mapping unit it covers: booked when the
 *                     command is admitted (dev.c, admit), so the command reaches the back end
 *                     when its firmware work ends;
 *   GC victim         fw_gc_victim_us per victim chosen (foreground or background),
 *   GC copy           fw_gc_page_us per page GC relocates,
 *   wear leveling     fw_wl_page_us per page it relocates,
 *   mapping table     fw_map_us per translation page read or written (DFTL):
 *                     booked at the moment the FTL does the work (the FTL environment calls
 *                     back through ssdsim_ftl_count, so this holds for every FTL that counts its
 *                     work, built in or not), on the core free earliest, after work already
 *                     booked; the built-in DFTL issues a load that commands wait for when its
 *                     task ends (ftl/page_dftl.c), so a miss costs the command fw_map_us too.
 * GC's firmware time is what the host feels: host commands admitted later wait for a core
 * behind it. The GC flash operation that the task belongs to is not delayed by it: in a drive
 * whose cores are the bottleneck the cores, not the flash, set the pace, and a core that is
 * booked ahead is exactly as unavailable to the host. So in steady state a firmware-bound
 * drive completes cores / (firmware time per host write, GC's share included) host writes per
 * second (tests/test_firmware.c derives it).
 */
#include "dev/dev.h"

#include "workload/gen.h"

uint64_t ssdsim__ctrl_run(struct ssdsim__ctrl *c, uint64_t t, uint64_t ns)
{
    uint32_t k = 0;
    for (uint32_t n = 1; n < c->n_cores; n++)
        if (c->core_free[n] < c->core_free[k])
            k = n;
    t = SSDSIM__MAX(t, c->core_free[k]) + ns;
    c->core_free[k] = t;
    c->busy_ns += ns;
    return t;
}

/* A background firmware task of `ns` (GC, wear leveling, mapping pages) requested now: returns
 * when it ends. */
static uint64_t fw_task(void *ctx, uint64_t ns)
{
    struct ssdsim__dev *d = ctx;
    uint64_t now = ssdsim__engine_now(d->engine);
    if (d->cpu.n_threads)
        return ssdsim__cpu_run(&d->cpu, now, ns);
    return ssdsim__ctrl_run(d->fw, now, ns);
}

void ssdsim__fw_setup(struct ssdsim__dev *d)
{
    const struct ssdsim__controller_cfg *c = &d->model->controller;
    struct ssdsim_ftl_env *env = &d->env;
    /* A host-based FTL's threads also spend host.ftl_gc_cpu_us per page GC copies. */
    env->fw_ns[SSDSIM_CNT_GC_COPIES] =
        c->fw_gc_page_ns + (d->cpu.n_threads ? d->model->host.ftl_gc_cpu_ns : 0);
    env->fw_ns[SSDSIM_CNT_WL_COPIES] = c->fw_wl_page_ns;
    env->fw_ns[SSDSIM__CNT_SLC_FOLDS] = c->fw_gc_page_ns; /* a fold is a copy too */
    env->fw_ns[SSDSIM_CNT_GC_VICTIMS] = c->fw_gc_victim_ns;
    env->fw_ns[SSDSIM_CNT_GC_BG_VICTIMS] = c->fw_gc_victim_ns;
    env->fw_ns[SSDSIM_CNT_MERGES] = c->fw_gc_victim_ns; /* a hybrid FTL's merge picks a victim */
    env->fw_ns[SSDSIM_CNT_MAP_READS] = c->fw_map_ns;
    env->fw_ns[SSDSIM_CNT_MAP_WRITES] = c->fw_map_ns;
    env->fw_run = fw_task;
}

uint64_t ssdsim__fw_cmd_ns(const struct ssdsim__dev *d, const struct ssdsim__cmd *c)
{
    const struct ssdsim__controller_cfg *k = &d->model->controller;
    uint64_t per = c->op == SSDSIM__IO_READ ? k->fw_read_ns
                   : c->op == SSDSIM__IO_WRITE ? k->fw_write_ns
                                               : 0;
    if (!per || !d->ssd)
        return 0;
    uint64_t first = ssdsim__dev_unit_of(d, c->offset);
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    return (last - first + 1) * per;
}
