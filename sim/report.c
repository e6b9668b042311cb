/* report.c: the human-readable summary printed by `ssdsim run` and `ssdsim demo`: the run, the
 * time series (preconditioning curve) with the SNIA steady-state verdict, per-op figures and the
 * device's counters; and the two helpers of the results JSON the commands write (the model's
 * tree, a member inserted first). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"

static const char *op_names[4] = {"read", "write", "trim", "all"};

static void print_gib(FILE *out, const char *label, uint64_t bytes)
{
    fprintf(out, "%s%.2f GiB", label, (double)bytes / (1024.0 * 1024 * 1024));
}

/* One line: whether the SNIA rule found a steady window of `var` in the series, and where. */
static void print_steady(FILE *out, const ssdsim *sim, ssdsim_steady_var var)
{
    ssdsim_steady_result r;
    if (ssdsim_get_steady(sim, &r))
        return;
    static const char *const names[] = {"IOPS", "bandwidth", "mean latency", "WAF"};
    size_t n = ssdsim_n_intervals(sim);
    ssdsim_interval tail;
    if (n > 0 && ssdsim_get_interval(sim, n - 1, &tail) == 0 && tail.partial)
        n--; /* the whole rounds */
    fprintf(out, "steady state (SNIA, %s): ", names[var]);
    if (!r.steady) {
        /* round is the last round examined (0-based) */
        if (r.first_round >= n && n > 0)
            fprintf(out, "not judged in %zu rounds: %s\n", n, r.why_not);
        else if (r.first_round > 0)
            fprintf(out,
                    "not reached in rounds %zu-%zu, those after preconditioning (window %zu)\n",
                    r.first_round + 1, r.round + 1, r.window);
        else if (n == 0) /* only a partial interval, which is no round of the rule */
            fprintf(out, "not judged: no whole round (window %zu)\n", r.window);
        else
            fprintf(out, "not reached in %zu rounds (window %zu)\n", n, r.window);
        return;
    }
    char avg[32];
    switch (var) {
    case SSDSIM_STEADY_BW:
        snprintf(avg, sizeof avg, "%.1f MB/s", r.average / 1e6);
        break;
    case SSDSIM_STEADY_LAT_MEAN:
        snprintf(avg, sizeof avg, "%.1f us", r.average / 1e3);
        break;
    case SSDSIM_STEADY_WAF:
        snprintf(avg, sizeof avg, "%.3f", r.average);
        break;
    default:
        snprintf(avg, sizeof avg, "%.0f", r.average);
        break;
    }
    ssdsim_interval last;
    ssdsim_get_interval(sim, r.round, &last);
    /* Rounds are numbered from 1 here: round n is the n-th row of the table (the JSON counts
     * from 0). */
    fprintf(out,
            "reached at round %zu (rounds %zu-%zu, ending at %.3f s): average %s, excursion "
            "%.1f%%, slope excursion %.1f%%\n",
            r.round + 1, r.round + 2 - r.window, r.round + 1, (double)last.t_ns / 1e9, avg,
            100 * r.excursion, 100 * r.slope_excursion);
    if (r.first_round > 0)
        fprintf(out,
                "  (judged from round %zu on: the earlier rounds began before the drive was "
                "preconditioned: twice its capacity written, its units written but for 1%% of "
                "its spare space at most, and garbage collection started; a fresh drive's "
                "plateau is not steady state)\n",
                r.first_round + 1);
}

/* Fixed service times make requests that meet the same work and the same queue take the same
 * time: with a steady number outstanding, latencies of one kind hardly spread at all (the busy
 * firmware at its fixed time per command, a full write buffer emptied at the flash's fixed
 * program times, QD1 reads of one page type).
 * That is the model's constant times per operation (doc/models.md, "What constant times leave
 * out"), not a prediction of the drive's spread: say so under the table when a read or write
 * row of 100 requests or more spreads by less than 1% of its mean. */
static void print_flat_latency(FILE *out, const ssdsim *sim)
{
    for (int op = SSDSIM_OP_READ; op <= SSDSIM_OP_WRITE; op++) {
        ssdsim_op_stats s;
        if (ssdsim_get_op_stats(sim, (enum ssdsim_op)op, &s) || s.count < 100 ||
            !cli_latency_flat(s.lat_mean_ns, s.lat_stddev_ns))
            continue;
        fprintf(out,
                "(%ss: spread %.1f us about a mean of %.1f us, maximum %.1f us: each took as "
                "long as the others, as the model's fixed times per operation (firmware, flash, "
                "link) make requests that meet the same work and the same queue; a real drive's "
                "times vary, by how much no source says)\n",
                op_names[op], s.lat_stddev_ns / 1e3, s.lat_mean_ns / 1e3,
                (double)s.lat_max_ns / 1e3);
    }
}

/* Firmware and NAND-operation figures, each line only when its mechanism is on. */
static void print_mech(FILE *out, const ssdsim_device_stats *d)
{
    if (d->fw_cores)
        fprintf(out, "firmware: busy %.3f ms on %u core%s, utilisation %.1f%%\n",
                (double)d->fw_busy_ns / 1e6, d->fw_cores, d->fw_cores > 1 ? "s" : "",
                100 * d->fw_utilization);
    if (d->wpath_bytes_per_s)
        fprintf(out, "write path: busy %.3f ms at %.0f MB/s, utilisation %.1f%%\n",
                (double)d->wpath_busy_ns / 1e6, (double)d->wpath_bytes_per_s / 1e6,
                100 * d->wpath_utilization);
    if (d->multiplane_on && d->nand_multiplane_ops)
        fprintf(out, "nand: %" PRIu64 " multi-plane operations, %.2f planes each\n",
                d->nand_multiplane_ops,
                (double)d->nand_multiplane_planes / (double)d->nand_multiplane_ops);
    else if (d->multiplane_on)
        fputs("nand: 0 multi-plane operations\n", out);
    if (d->cache_read_on || d->cache_program_on) {
        fputs("nand:", out);
        if (d->cache_read_on)
            fprintf(out, " %" PRIu64 " reads out of the cache register%s", d->nand_cache_reads,
                    d->cache_program_on ? "," : "");
        if (d->cache_program_on)
            fprintf(out, " %" PRIu64 " cache programs (pages)", d->nand_cache_programs);
        fputc('\n', out);
    }
    if (d->suspend_on)
        fprintf(out, "nand: %" PRIu64 " suspensions of programs or erases for host reads\n",
                d->nand_suspends);
    if (d->copyback_on)
        fprintf(out, "nand: %" PRIu64 " GC copies by copyback\n", d->nand_copybacks);
    if (d->slc_on)
        fprintf(out,
                "slc cache: %" PRIu64 " host pages written in SLC mode, %" PRIu64
                " folded; full %" PRIu64 " time%s (%" PRIu64
                " pages written natively past the cliff over %.3f ms); at the end %" PRIu64
                " of %" PRIu64 " pages used\n",
                d->slc_pages_written, d->slc_pages_folded, d->slc_full_events,
                d->slc_full_events == 1 ? "" : "s", d->slc_pages_bypassed,
                (double)d->slc_full_ns / 1e6, d->slc_used_pages, d->slc_capacity_pages);
    if (d->parity_group)
        fprintf(out,
                "parity: %" PRIu64 " parity pages written (stripes of %u pages: %u data + 1 "
                "parity)\n",
                d->parity_pages_written, d->parity_group, d->parity_group - 1);
    if (d->readahead_streams)
        fprintf(out,
                "read-ahead: %" PRIu64 " units prefetched, %" PRIu64 " host units hit, %" PRIu64
                " wasted (%u streams)\n",
                d->readahead_units, d->readahead_hits, d->readahead_wasted, d->readahead_streams);
    if (d->units_packed)
        fprintf(out,
                "nand: %" PRIu64 " pages programmed, %" PRIu64 " unit slots padded, %" PRIu64
                " unit reads from the page register\n",
                d->nand_page_programs, d->nand_padded_units, d->nand_register_hits);
}

/* Bit errors (the model's reliability section), when on. */
static void print_rel(FILE *out, const ssdsim *sim)
{
    ssdsim_reliability_stats r;
    if (ssdsim_get_reliability(sim, &r) || !r.on)
        return;
    fprintf(out,
            "bit errors: %" PRIu64 " flash reads decoded, mean RBER %.3g, %.4f retries per read, "
            "%" PRIu64 " soft decoded, %" PRIu64 " uncorrectable (UBER %.3g)",
            r.reads, r.rber_mean, r.retries_per_read, r.reads_by_steps[r.retry_max + 1],
            r.uncorrectable, r.uber);
    if (r.reconstructed)
        fprintf(out, ", %" PRIu64 " rebuilt from parity", r.reconstructed);
    fputc('\n', out);
    if (r.reclaimed_blocks || r.reclaim_requests || r.patrol_reads)
        fprintf(out, "maintenance: %" PRIu64 " blocks moved by read reclaim, %" PRIu64
                     " patrol reads\n",
                r.reclaimed_blocks, r.patrol_reads);
}

/* The faults (doc/models.md, "Faults"), only when there are any. */
static void print_faults(FILE *out, const ssdsim *sim)
{
    ssdsim_fault_stats f;
    if (ssdsim_get_fault_stats(sim, &f))
        return;
    if (f.factory_bad_blocks || f.grown_bad_blocks)
        fprintf(out,
                "bad blocks: %" PRIu64 " from the factory, %" PRIu64 " grown; spare factor %.1f%% "
                "effective after them\n",
                f.factory_bad_blocks, f.grown_bad_blocks, 100 * f.spare_factor_effective);
    if (f.read_only)
        fprintf(out,
                "read-only since %.3f ms, after %" PRIu64 " host bytes written; %" PRIu64
                " writes refused\n",
                (double)f.read_only_ns / 1e6, f.read_only_host_bytes, f.writes_refused);
    /* Times are counted from the measured run's start, as --fail and --power-loss-at count
     * them; the simulation's clock (the results' at_ns) counts preconditioning too, and is
     * given beside when it differs. A system's die failure names its device. */
    char plane[24] = "", dev[32] = "", clock[64] = "";
    if (f.plane_failed)
        snprintf(plane, sizeof plane, "/%u", f.failed_plane);
    if (ssdsim_n_devices(sim) > 1)
        snprintf(dev, sizeof dev, " of device %u", f.failed_device);
    if (f.run_start_ns && (f.die_failed || f.die_fail_pending))
        snprintf(clock, sizeof clock, " (%.3f ms on the simulation's clock)",
                 (double)f.die_failed_ns / 1e6);
    double die_ms = (double)(f.die_failed_ns - f.run_start_ns) / 1e6;
    if (f.die_failed) {
        fprintf(out,
                "%s %u/%u/%u%s%s failed at %.3f ms into the run%s: %" PRIu64 " pages on it, %"
                PRIu64 " lost; %" PRIu64 " reads reconstructed, %" PRIu64 " unrecoverable\n",
                f.plane_failed ? "plane" : "die", f.failed_channel, f.failed_chip, f.failed_die,
                plane, dev, die_ms, clock, f.die_pages, f.die_lost_pages, f.reconstructed_reads,
                f.unrecoverable_reads);
        if (f.rebuild_done)
            fprintf(out, "rebuild: %" PRIu64 " pages rebuilt (%" PRIu64 " pages read) in %.3f ms\n",
                    f.rebuild_pages, f.rebuild_pages_read, (double)f.rebuild_ns / 1e6);
        else if (f.rebuild_pages)
            fprintf(out, "rebuild: %" PRIu64 " pages rebuilt (%" PRIu64 " pages read), not done\n",
                    f.rebuild_pages, f.rebuild_pages_read);
    } else if (f.die_fail_pending) {
        fprintf(out,
                "%s failure %u/%u/%u%s%s at %.3f ms into the run%s not reached: the run ended at "
                "%.3f ms; nothing failed\n",
                f.plane_failed ? "plane" : "die", f.failed_channel, f.failed_chip, f.failed_die,
                plane, dev, die_ms, clock, (double)ssdsim_sim_time_ns(sim) / 1e6);
    }
    char pclock[64] = "";
    if (f.run_start_ns)
        snprintf(pclock, sizeof pclock, " (%.3f ms on the simulation's clock)",
                 (double)f.power_loss_ns / 1e6);
    if (f.power_losses)
        fprintf(out,
                "power loss at %.3f ms into the run%s%s: %" PRIu64 " acknowledged writes lost (%"
                PRIu64 " bytes), %" PRIu64 " units flushed on capacitors; mount %.3f ms (%" PRIu64
                " pages read)\n",
                (double)(f.power_loss_ns - f.run_start_ns) / 1e6, pclock,
                f.power_loss_at_end ? ", the run's end (the time or request count it was set for "
                                      "was not reached)"
                                    : "",
                f.lost_requests, f.lost_bytes, f.plp_units_flushed, (double)f.mount_ns / 1e6,
                f.mount_pages_read);
}

/* The per-op table: of the whole run (job SIZE_MAX), or of reported job `job`. */
static void print_op_table(FILE *out, const ssdsim *sim, size_t job)
{
    fprintf(out, "%-6s %11s %10s %9s %10s %10s %10s %10s %10s %10s\n", "op", "count", "IOPS",
            "MB/s", "mean_us", "p50_us", "p99_us", "p99.9_us", "max_us", "stddev_us");
    for (int op = 0; op < 4; op++) {
        ssdsim_op_stats s;
        if (job == SIZE_MAX)
            ssdsim_get_op_stats(sim, (enum ssdsim_op)op, &s);
        else if (ssdsim_get_job_op_stats(sim, job, (enum ssdsim_op)op, &s))
            continue;
        if (s.count == 0 && op != SSDSIM_OP_ALL)
            continue;
        fprintf(out, "%-6s %11" PRIu64 " %10.0f %9.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n",
                op_names[op], s.count, s.iops, s.bw_bytes / 1e6, s.lat_mean_ns / 1e3,
                (double)s.lat_p50_ns / 1e3, (double)s.lat_p99_ns / 1e3,
                (double)s.lat_p99_9_ns / 1e3, (double)s.lat_max_ns / 1e3,
                s.lat_stddev_ns / 1e3);
    }
}

/* Reported jobs shown in the text report at most; the JSON has them all. */
#define REPORT_JOBS_MAX 16

/* When the reported jobs (fio's jobs or reporting groups) did not all run over about the same
 * span (stonewall waves, startdelay, a job that ends well before the others: its counted time
 * under 90% of the longest), the whole run's rates are over a time some of them did not run:
 * print each job's own table first, as fio does (its rates over its own runtime, after its
 * ramp). Clones of one job that end a moment apart do not count. Returns whether it printed
 * them. */
static bool print_jobs(FILE *out, const ssdsim *sim)
{
    size_t n = ssdsim_n_jobs(sim);
    ssdsim_job_info first;
    if (n < 2 || ssdsim_get_job(sim, 0, &first))
        return false;
    bool differ = false;
    uint64_t longest = 0, shortest = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        ssdsim_job_info j;
        if (ssdsim_get_job(sim, i, &j))
            continue;
        differ |= j.start_ns != first.start_ns || j.ramp_ns != first.ramp_ns;
        uint64_t counted = j.end_ns - j.start_ns > j.ramp_ns ? j.end_ns - j.start_ns - j.ramp_ns
                                                               : 0;
        longest = counted > longest ? counted : longest;
        shortest = counted < shortest ? counted : shortest;
    }
    differ |= (double)shortest < 0.9 * (double)longest;
    if (!differ)
        return false;
    fputs("Per job (fio's jobs or reporting groups; rates over each one's own runtime, after "
          "its ramp)\n",
          out);
    for (size_t i = 0; i < n && i < REPORT_JOBS_MAX; i++) {
        ssdsim_job_info j;
        if (ssdsim_get_job(sim, i, &j))
            continue;
        fprintf(out, "%s: group %" PRIu32 ", %" PRIu32 " clone%s, %.3f to %.3f s", j.name,
                j.group, j.n_clones, j.n_clones == 1 ? "" : "s", (double)j.start_ns / 1e9,
                (double)j.end_ns / 1e9);
        if (j.ramp_ns)
            fprintf(out, " (ramp %.3f s, not counted)", (double)j.ramp_ns / 1e9);
        fputc('\n', out);
        /* fio's steady-state criterion: met or not, and on what state */
        if (j.ss_set && !j.ss_attained)
            fprintf(out, "  ss: not attained (last value %g)\n", j.ss_value);
        else if (j.ss_set && j.ss_preconditioned)
            fprintf(out, "  ss: attained (value %g), on a preconditioned drive\n", j.ss_value);
        else if (j.ss_set)
            fprintf(out,
                    "  ss: attained (value %g), but the drive was not preconditioned then (%s): "
                    "the criterion held on a state that does not last, such as a fresh drive's "
                    "burst; longer ss_dur, or --precondition, measures the steady state\n",
                    j.ss_value, j.ss_why);
        print_op_table(out, sim, i);
        fputc('\n', out);
    }
    if (n > REPORT_JOBS_MAX)
        fprintf(out, "(%zu more jobs: the results JSON has every one)\n\n", n - REPORT_JOBS_MAX);
    return true;
}

void cli_report(FILE *out, const ssdsim *sim, const ssdsim_model *model, const char *wl_desc,
                ssdsim_steady_var steady_var, const char *state)
{
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    fprintf(out, "ssdsim %s\n", ssdsim_version());
    fprintf(out, "workload: %s\n", wl_desc);
    uint32_t n_devices = ssdsim_n_devices(sim);
    if (n_devices > 1) {
        fprintf(out, "system: %u devices, %u volume%s of ", n_devices,
                ssdsim_model_n_volumes(model), ssdsim_model_n_volumes(model) > 1 ? "s" : "");
        print_gib(out, "", ssdsim_model_logical_bytes(model));
        fputc('\n', out);
    }
    /* a RAID-5's or a mirror's devices hold more than the volume: their op is of that */
    print_gib(out, n_devices > 1 ? "devices: logical " : "capacity: logical ",
              n_devices > 1 ? d.devices_logical_bytes : d.logical_bytes);
    if (n_devices > 1 && d.devices_logical_bytes > d.logical_bytes)
        fputs(" with the parity or mirror copies", out);
    if (d.physical_bytes > 0) {
        print_gib(out, ", physical ", d.physical_bytes);
        fprintf(out, " (op %.1f%% of logical, spare factor %.1f%% of physical", 100 * d.op,
                100 * d.spare_factor);
        if (isfinite(d.spare_factor_effective))
            fprintf(out, ", %.1f%% effective after the FTL's reserve%s",
                    100 * d.spare_factor_effective, d.parity_group ? " and parity" : "");
        fputc(')', out);
    } else {
        fputs(n_devices > 1 ? " (hard disks)" : " (hard disk)", out);
    }
    fputc('\n', out);
    /* what the model says it gets wrong against its drive, where a reader of its figures sees
     * them */
    char caveat[4096];
    if (ssdsim_model_get_string(model, "caveat", caveat, sizeof caveat, NULL) == 0 && caveat[0])
        fprintf(out, "model caveat: %s\n", caveat);
    fprintf(out, "simulated time: %.3f s\n\n", (double)ssdsim_sim_time_ns(sim) / 1e9);

    size_t n = ssdsim_n_intervals(sim);
    if (n > 0) {
        if (state)
            fprintf(out, "Time series per interval (after %s)\n", state);
        else if (d.physical_bytes == 0) /* hard disks: no fresh state, no preconditioning */
            fputs("Time series per interval\n", out);
        else
            fputs("Time series per interval (from a fresh drive: the preconditioning curve)\n",
                  out);
        bool partial = false, flat = false;
        fprintf(out, "%10s %10s %10s %11s %11s %11s %11s %6s %7s %12s\n", "time_s", "ios", "IOPS",
                "mean_us", "p99_us", "max_us", "stddev_us", "WAF", "WAF_cum", "free_blocks");
        for (size_t i = 0; i < n; i++) {
            ssdsim_interval iv;
            ssdsim_get_interval(sim, i, &iv);
            char waf[16] = "-", wafc[16] = "-";
            if (isfinite(iv.waf))
                snprintf(waf, sizeof waf, "%.2f", iv.waf);
            if (isfinite(iv.waf_cumulative))
                snprintf(wafc, sizeof wafc, "%.3f", iv.waf_cumulative);
            /* an interval in which nothing completed has no latencies */
            char lat[4][24] = {"-", "-", "-", "-"};
            if (iv.n_ios > 0) {
                snprintf(lat[0], sizeof lat[0], "%.1f", iv.lat_ns_mean / 1e3);
                snprintf(lat[1], sizeof lat[1], "%.1f", (double)iv.lat_ns_p99 / 1e3);
                snprintf(lat[2], sizeof lat[2], "%.1f", (double)iv.lat_ns_max / 1e3);
                snprintf(lat[3], sizeof lat[3], "%.1f", iv.lat_ns_stddev / 1e3);
            }
            /* the same rule as under the operations' table (print_flat_latency) */
            bool f = iv.n_ios >= 100 && cli_latency_flat(iv.lat_ns_mean, iv.lat_ns_stddev);
            fprintf(out,
                    "%10.3f %10" PRIu64 " %10.0f %11s %11s %11s %11s %6s %7s %12" PRIu64 "%s%s\n",
                    (double)iv.t_ns / 1e9, iv.n_ios, iv.iops, lat[0], lat[1], lat[2], lat[3], waf,
                    wafc, iv.free_blocks, f ? "  (flat)" : "", iv.partial ? "  (partial)" : "");
            partial |= iv.partial;
            flat |= f;
        }
        if (partial)
            fputs("(partial: the run ended inside this interval; its rates are over its own "
                  "length, and it is not a round of the steady-state rule)\n",
                  out);
        if (flat)
            fputs("(flat: its latencies spread by less than 1% of their mean, the maximum near "
                  "the mean, as the model's fixed times per operation make requests that meet the "
                  "same work and the same queue; its IOPS and mean are predictions, its spread "
                  "and maximum are not)\n",
                  out);
        print_steady(out, sim, steady_var);
        fputc('\n', out);
    }

    if (print_jobs(out, sim))
        fputs("Whole run (rates over the whole simulated time, the groups that ran one after "
              "another together)\n",
              out);
    print_op_table(out, sim, SIZE_MAX);
    print_flat_latency(out, sim);
    const ssdsim_model *member = model;
    if (ssdsim_model_get_kind(model) != SSDSIM_MODEL_HDD && d.physical_bytes > 0) {
        fprintf(out, "\ndevice: host pages written %" PRIu64 ", flash pages programmed %" PRIu64
                     ", GC pages copied %" PRIu64 ", blocks erased %" PRIu64 "\n",
                d.host_pages_written, d.flash_pages_programmed, d.gc_pages_copied,
                d.blocks_erased);
        char waf[16] = "-"; /* none without host writes */
        if (d.host_pages_written)
            snprintf(waf, sizeof waf, "%.3f", d.waf);
        fprintf(out, "        write amplification %s, erase count min/mean/max %" PRIu64
                     " / %.2f / %" PRIu64 ", free blocks %" PRIu64 "\n",
                waf, d.erase_count_min, d.erase_count_mean, d.erase_count_max, d.free_blocks);
        /* The WAF counts mapping units; where host writes fill units or pages partly (4 KiB
         * writes on 16 KiB units, padded pages) the flash wears by more per host byte. */
        if (d.host_pages_written && d.wear_factor > 0 && d.waf > 0 &&
            fabs(d.wear_factor / d.waf - 1) > 0.01)
            fprintf(out, "        flash wear per host byte %.3f: the write amplification counts "
                         "whole mapping units, and the host's writes filled units or pages "
                         "partly (the slots programmed for them count here)\n",
                    d.wear_factor);
        if (d.gc_bg_victims)
            fprintf(out, "        GC victims %" PRIu64 " in the foreground, %" PRIu64
                         " in idle time (background)\n",
                    d.gc_fg_victims, d.gc_bg_victims);
        if (d.unmapped_reads)
            fprintf(out, "        %" PRIu64 " units read that were never written or were trimmed: "
                         "answered without flash, as a real drive does, they make reads faster "
                         "than on a drive written full\n",
                    d.unmapped_reads);
    }
    print_mech(out, &d);
    print_rel(out, sim);
    ssdsim_zns_stats zs;
    int64_t zone_size = 0, handles = 0, groups = 1;
    if (ssdsim_model_get_kind(model) == SSDSIM_MODEL_SSD) {
        ssdsim_model_get_int(model, "zns.zone_size", &zone_size, NULL);
        ssdsim_model_get_int(model, "fdp.handles", &handles, NULL);
        ssdsim_model_get_int(model, "fdp.reclaim_groups", &groups, NULL);
    }
    if (zone_size > 0 && ssdsim_get_zns_stats(sim, &zs) == 0)
        fprintf(out,
                "zones: %" PRIu64 " zones, %" PRIu64 " open and %" PRIu64 " active now; %" PRIu64
                " resets, %" PRIu64 " finishes, %" PRIu64 " opens, %" PRIu64 " closes (%" PRIu64
                " implicit), %" PRIu64 " appends, %" PRIu64 " requests refused (since the "
                "drive was built)\n",
                zs.zones, zs.open, zs.active, zs.resets, zs.finishes, zs.opens, zs.closes,
                zs.implicit_closes, zs.appends, zs.errors);
    ssdsim_fdp_stats fs;
    for (uint32_t h = 0; h < handles && ssdsim_get_fdp_stats(sim, h, &fs) == 0; h++)
        fprintf(out,
                "fdp: placement handle %u: host wrote %.1f MB, media %.1f MB, write "
                "amplification %.3f\n",
                h, (double)fs.host_bytes / 1e6, (double)fs.media_bytes / 1e6, fs.waf);
    ssdsim_fdp_log lg;
    if (handles > 0 && ssdsim_get_fdp_log(sim, &lg) == 0) {
        fprintf(out,
                "fdp log: media erased %.1f MB; events: %" PRIu64 " reclaim units not fully "
                "written (%" PRIu64 " handle updates), %" PRIu64 " units media reallocated\n",
                (double)lg.media_bytes_erased / 1e6, lg.ru_not_fully_written, lg.ruh_updates,
                lg.media_reallocated);
        ssdsim_fdp_group_stats gs;
        /* with more than one reclaim group, each one's figures */
        for (uint32_t g = 0; groups > 1 && g < groups && ssdsim_get_fdp_group_stats(sim, g, &gs) == 0;
             g++)
            fprintf(out,
                    "fdp: reclaim group %u: host wrote %.1f MB (%.1f MB reallocated to other "
                    "groups), media %.1f MB, erased %.1f MB\n",
                    g, (double)gs.host_bytes / 1e6, (double)gs.reallocated_bytes / 1e6,
                    (double)gs.media_bytes / 1e6, (double)gs.media_bytes_erased / 1e6);
    }
    print_faults(out, sim);
    (void)member;
    uint32_t n_dev = ssdsim_n_devices(sim);
    if (n_dev < 2)
        return;
    /* a system: what reached each device */
    fprintf(out, "\n%-6s %10s %10s %10s %10s %8s\n", "device", "reads", "read_MB", "writes",
            "write_MB", "WAF");
    uint64_t dev_written = 0;
    for (uint32_t k = 0; k < n_dev; k++) {
        ssdsim_device_io io;
        ssdsim_get_device_io(sim, k, &io);
        dev_written += io.bytes[SSDSIM_OP_WRITE];
        char waf[16] = "-"; /* a disk, or no writes: none */
        if (io.waf > 0 && isfinite(io.waf))
            snprintf(waf, sizeof waf, "%.3f", io.waf);
        fprintf(out, "%-6u %10" PRIu64 " %10.1f %10" PRIu64 " %10.1f %8s\n", k,
                io.commands[SSDSIM_OP_READ], (double)io.bytes[SSDSIM_OP_READ] / 1e6,
                io.commands[SSDSIM_OP_WRITE], (double)io.bytes[SSDSIM_OP_WRITE] / 1e6, waf);
    }
    ssdsim_op_stats w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    int64_t cache = 0;
    bool bbu = false;
    bool has_cache = ssdsim_model_get_int(model, "system.cache", &cache, NULL) == 0 && cache > 0;
    /* with a write-back cache the factor also leaves out what the cache still holds, so it is
     * neither the mirrors' nor the parity's own factor */
    if (w.bytes > 0)
        fprintf(out, "array: the host wrote %.1f MB, the devices %.1f MB (x%.3f: %s)\n",
                (double)w.bytes / 1e6, (double)dev_written / 1e6,
                (double)dev_written / (double)w.bytes,
                dev_written < w.bytes ? "the card's cache still holds part of the host's writes"
                : has_cache           ? "mirrors, parity, less what the card's cache still holds"
                                      : "mirrors, parity");
    if (w.bytes > 0 && has_cache &&
        ssdsim_model_get_bool(model, "system.cache_bbu", &bbu, NULL) == 0 && bbu)
        fprintf(out, "array: writes were acknowledged from the card's write-back cache; what it "
                     "still held when the run ended reaches the devices in later idle time\n");
}

cJSON *cli_model_tree(const ssdsim_model *m)
{
    char *text = ssdsim_model_to_json(m);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    return root;
}

char *cli_json_insert_first(const char *json, const char *key, const char *member)
{
    const char *brace = strchr(json, '{');
    if (!brace)
        return NULL;
    GString *s = g_string_new_len(json, brace + 1 - json);
    g_string_append_printf(s, "\n\t\"%s\":\t", key);
    for (const char *p = member; *p; p++) {
        g_string_append_c(s, *p);
        if (*p == '\n')
            g_string_append_c(s, '\t');
    }
    g_string_append_c(s, ',');
    g_string_append(s, brace + 1);
    char *text = strdup(s->str); /* free()d like the library's JSON */
    g_string_free(s, TRUE);
    return text;
}
