/* tests/test_recipe.c - the recipe's steps end to end: PPO learns the
   reach task.  Included by tests/test_main.c. */
#include "test.h"

/* Budget: 200k environment steps of s2r_reach_ppo_config (the table's
   budget) on the nominal UR5e, seed 1; then 100 deterministic episodes
   must succeed >= 85 % of the time. */
static int test_ppo_learns_reach(void) {
    s2r_reach_training training = s2r_reach_training_default(S2R_ROBOT_UR5E);
    s2r_ppo_config pc = s2r_reach_ppo_config(200000, 1, 2);
    s2r_ppo ppo;
    s2r_controller policy;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_eval_result r;
    char error[S2R_ERROR_LEN];
    int obs_dim, act_dim;
    s2r_reach_dims(S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    training.progress = 0;
    CHECKF(s2r_train_reach(&training, &ppo, error) == S2R_OK, "%s", error);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_reach_init(&reach, &training.task, &sim.backend) == S2R_OK);
    policy = s2r_policy_controller(&ppo.policy);
    CHECK(s2r_evaluate(&policy, &reach, 100, 777, &r, NULL) == S2R_OK);
    printf("    reach after 200k steps: sim success %.2f, final distance %.1f mm\n", r.success_rate, 1000 * r.mean_distance);
    CHECKF(r.success_rate >= 0.85, "success %.2f", r.success_rate);
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    s2r_ppo_free(&ppo);
    return 0;
}

static const test_case recipe_slow_tests[] = {
    {"recipe: PPO learns reach on the nominal UR5e (>= 85 % in 200k steps)", test_ppo_learns_reach},
};
