/* 05_real_only.c - no simulator at all: behaviour cloning on real data.

   The baseline every sim-to-real recipe must beat on cost: record many
   demonstrations on the real unit (10,000 here, ten times the largest
   fine-tuning set of 04) and clone them into a policy from scratch.  No
   simulation, no randomization, no system identification - and no way to
   know how the policy behaves in situations the operator never showed it.
   The policy is measured on the same unit.

   Uses: s2r_calibrate_unit, s2r_collect_unit_demos, s2r_clone_demos, s2r_policy_init,
         s2r_evaluate_sim_and_real.
   Writes: DIR/05_real_only.ckpt, DIR/05_real_only.csv (with --task push,
           DIR/05_push_real_only.ckpt and .csv).
   Next: 06_staged_deployment.c - taking the best policy to a fleet. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    s2r_options opt;
    int status;
    s2r_dataset demos;
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_controller c;
    s2r_sim_real_eval eval;
    s2r_task_config task;
    double camera[3];   /* m, the unit's camera calibration */
    s2r_expert_config op = s2r_operator_config_default();
    s2r_rng rng;
    char error[S2R_ERROR_LEN], path[512];
    int n_demos, ok;

    if (s2r_example_start(&opt, argc, argv, "behaviour cloning from scratch on real demonstrations",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_STAGE_DEMOS, &status) != S2R_OK)
        return status;
    task = s2r_task_config_default(opt.task);
    n_demos = opt.quick ? 200 : 10000;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */

    /* 1. Commissioning (the camera calibration, as in 03), then many
          demonstrations on the real unit (in parallel copies of it). */
    memset(&shape, 0, sizeof shape);
    s2r_task_dims(opt.task, opt.robot, &shape.obs_dim, &shape.act_dim);
    if (s2r_calibrate_unit(opt.robot, opt.real_seed, opt.seed + 2, camera, NULL, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    s2r_task_config_set_camera(&task, camera);
    printf("Recording %d demonstrations on real %s #%llu\n", n_demos, s2r_robot_kind_name(opt.robot),
           (unsigned long long)opt.real_seed);
    if (s2r_dataset_init(&demos, shape.obs_dim, shape.act_dim) != S2R_OK ||
        s2r_collect_unit_demos(opt.robot, opt.real_seed, &task, &op, n_demos, opt.seed + 77 + opt.real_seed,
                               opt.threads, &demos, &ok, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("  %d ended on target; %d observation-action pairs\n", ok, demos.count);
    if (s2r_example_stopped()) {
        s2r_dataset_free(&demos);
        return 130;
    }

    /* 2. Clone them into a fresh policy of the same size as the PPO ones. */
    shape.num_hidden = 2;
    shape.hidden[0] = shape.hidden[1] = 64;
    rng = s2r_rng_make(opt.seed, 5);
    if (s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) != S2R_OK ||
        s2r_clone_demos(&policy, &demos, 0, opt.quick ? 2 : 6, opt.seed, error) != S2R_OK ||
        s2r_policy_save(&policy, NULL, s2r_task_path(path, sizeof path, &opt, "05", "real_only.ckpt")) != S2R_OK) {
        fprintf(stderr, "%s%s\n", error, policy.error);
        return 1;
    }
    s2r_dataset_free(&demos);
    if (s2r_example_stopped()) {
        s2r_policy_free(&policy);
        return 130;
    }

    /* 3. Measure it on the unit (and, for curiosity, in the simulator). */
    c = s2r_policy_controller(&policy);
    if (s2r_evaluate_sim_and_real(&c, opt.robot, &task, NULL, opt.quick ? 20 : 200, opt.seed + 1000, opt.real_seed, 1,
                                  &eval, error) != S2R_OK ||
        s2r_sim_real_eval_write(s2r_task_path(path, sizeof path, &opt, "05", "real_only.csv"), "real only", &eval,
                                error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    s2r_sim_real_eval_print("real only", &eval);
    printf("Compare with 04's 1000-demo fine-tune.  Next: 06_staged_deployment.\n");
    s2r_policy_free(&policy);
    return 0;
}
