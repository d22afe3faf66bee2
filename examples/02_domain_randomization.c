/* 02_domain_randomization.c - train on many simulators instead of one.

   The same PPO as the pure-sim policy of 01, but every training episode
   runs on a simulator whose physics, actuation, sensing and latency are
   drawn afresh from the default randomization table (friction 0.5-1.5x,
   damping and armature 0.7-1.4x, link masses +-10 %, a payload up to
   0.5 kg, servo gains, torque limits, timestep jitter, 10-30 ms of command
   latency, sensor noise; see s2r_randomization_default).  A policy that
   succeeds on all of them has to be robust to what it cannot observe, and
   so transfers better to a real unit it has never seen.  The ranges are
   saved as a text file you can edit and load back with
   s2r_randomization_load.

   Uses: s2r_randomization_default, s2r_randomization_write,
         s2r_randomization_load, s2r_train_reach, s2r_policy_save,
         s2r_evaluate_sim_and_real.
   Writes: DIR/02_ranges.txt, DIR/02_dr.ckpt, DIR/02_dr_training.csv,
           DIR/02_dr_training.png, DIR/02_dr.csv.
   Next: 03_system_id.c - measure the real unit and re-centre the ranges. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    s2r_options opt;
    s2r_reach_training training;
    s2r_ppo_config pc;
    s2r_ppo ppo;
    s2r_controller policy;
    s2r_sim_real_eval eval;
    char error[S2R_ERROR_LEN] = "", csv[512], png[512], path[512];
    int obs_dim, act_dim;
    long long steps;

    if (s2r_options_parse(&opt, argc, argv, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 2; }
    if (opt.help) { s2r_options_usage(argv[0], "PPO with domain randomization"); return 0; }
    if (s2r_make_dir(opt.out, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 1; }
    steps = opt.quick ? 16384 : 200000;

    /* 1. The ranges: the library's defaults, written out so they can be edited. */
    training = s2r_reach_training_default(opt.robot);
    training.randomization = s2r_randomization_default();
    if (s2r_randomization_write(&training.randomization, s2r_path(path, sizeof path, opt.out, "02_ranges.txt"), error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("Domain randomization on the %s: ranges in %s\n", s2r_robot_kind_name(opt.robot), path);

    /* 2. Train: the same PPO as 01, every episode on freshly drawn physics. */
    s2r_reach_dims(opt.robot, &obs_dim, &act_dim);
    pc = s2r_reach_ppo_config(steps, opt.seed, opt.threads);
    if (s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) != S2R_OK) { fprintf(stderr, "%s\n", ppo.error); return 1; }
    training.label = "domain randomization";
    training.csv_path = s2r_path(csv, sizeof csv, opt.out, "02_dr_training.csv");
    training.curve_png = s2r_path(png, sizeof png, opt.out, "02_dr_training.png");
    printf("PPO on randomized simulators for %lld steps\n", steps);
    if (s2r_train_reach(&training, &ppo, error) != S2R_OK ||
        s2r_policy_save(&ppo.policy, &ppo.adam, s2r_path(path, sizeof path, opt.out, "02_dr.ckpt")) != S2R_OK) {
        fprintf(stderr, "%s\n", error[0] ? error : ppo.policy.error);
        return 1;
    }

    /* 3. Evaluate on the nominal simulator and on the same real units as 01. */
    policy = s2r_policy_controller(&ppo.policy);
    if (s2r_evaluate_sim_and_real(&policy, opt.robot, &training.task, opt.quick ? 20 : 100, opt.seed + 1000,
                                  opt.real_seed, 3, &eval, error) != S2R_OK ||
        s2r_sim_real_eval_write(s2r_path(csv, sizeof csv, opt.out, "02_dr.csv"), "sim + DR", &eval, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    s2r_sim_real_eval_print("sim + domain randomization", &eval);
    printf("Compare with the pure-sim row of 01.  Next: 03_system_id.\n");
    s2r_ppo_free(&ppo);
    return 0;
}
