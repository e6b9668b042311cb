/* param_study.c: a parameter study in a loop: steady-state write amplification and IOPS of
 * 4 KiB random writes against over-provisioning, for two GC policies, next to the analytic
 * model. Build: cc param_study.c $(pkg-config --cflags --libs ssdsim) -o param_study
 *
 * The drive is kept small (64 planes of 64 blocks) so the study runs in seconds; with so few
 * blocks per plane, the free blocks GC keeps in reserve and the open blocks are a visible share
 * of the spare space, so the simulated WAF sits above the model's (which assumes many blocks and
 * one write frontier; doc/validation.md measures by how much and why). */
#include <stdio.h>

#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/gc.h>

int main(int argc, char **argv)
{
    static const char *const policies[] = {"greedy", "fifo"};
    static const char *const ops[] = {"0.15", "0.28", "0.5"};
    printf("%-7s %5s %8s %8s %10s\n", "policy", "op", "WAF", "theory", "IOPS");
    for (int p = 0; p < 2; p++) {
        for (int o = 0; o < 3; o++) {
            ssdsim_model *m = NULL;
            ssdsim_error err;
            char policy[64];
            snprintf(policy, sizeof policy, "\"%s\"", policies[p]);
            int rc = argc > 1 ? ssdsim_model_load_file(&m, argv[1], &err)
                              : ssdsim_model_default(&m, &err);
            if (rc || ssdsim_model_set(m, "geometry.blocks_per_plane", "64", &err) ||
                ssdsim_model_set(m, "ftl.op", ops[o], &err) ||
                ssdsim_model_set(m, "gc.policy", policy, &err)) {
                fprintf(stderr, "param_study: %s\n", err.message);
                return 1;
            }
            ssdsim *sim = NULL;
            ssdsim_workload *wl = NULL;
            char json[192];
            /* three times the logical capacity, in 16 jobs; norandommap: independent uniform
             * offsets, as the analytic model assumes (fio's default random map writes every
             * block once per pass instead) */
            snprintf(json, sizeof json,
                     "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":16,"
                     "\"numjobs\":16,\"number_ios\":%llu}",
                     (unsigned long long)(3 * ssdsim_model_logical_bytes(m) / 4096 / 16));
            if (ssdsim_new(&sim, m, 1, &err) ||
                ssdsim_workload_load_string(&wl, json, "study", &err)) {
                fprintf(stderr, "param_study: %s\n", err.message);
                return 1;
            }
            if (ssdsim_precondition_seq(sim) || ssdsim_run(sim, wl, NULL) ||
                ssdsim_run(sim, wl, NULL)) { /* the second run is the one measured */
                fprintf(stderr, "param_study: %s\n", ssdsim_errmsg(sim));
                return 1;
            }
            ssdsim_device_stats d;
            ssdsim_op_stats w;
            ssdsim_get_device_stats(sim, &d);
            ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
            double theory = 0;
            ssdsim_theory_waf(policies[p], 128, d.spare_factor, 0, &theory);
            printf("%-7s %5s %8.3f %8.3f %10.0f\n", policies[p], ops[o], d.waf, theory, w.iops);
            ssdsim_workload_free(wl);
            ssdsim_free(sim);
            ssdsim_model_free(m);
        }
    }
    return 0;
}
