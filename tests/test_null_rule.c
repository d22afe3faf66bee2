/* tests/test_null_rule.c - the NULL rule, kept by every public function.

   The manual's rule (section 6, Errors): the object a function works on -
   its first argument, whose type names the function (the s2r_sim of
   s2r_sim_*, the s2r_delay_line of s2r_delay_*) - must not be NULL, which
   S2R_ASSERT catches; every other pointer is checked: a function that
   returns s2r_result answers NULL with an error (S2R_ERR_INVALID_ARGUMENT
   with a message, unless its comment documents NULL as a choice, listed in
   null_documented below), and one that returns no s2r_result has no error
   to give: NULL where it takes a buffer is a programmer error it catches
   with S2R_ASSERT like a NULL object (a name lookup answers "not found";
   free functions do nothing).  Never a crash.

   null_cases lists every public function of sim2real.h taking a pointer,
   with every argument set to a working fixture; each is called once per
   pointer argument with that one NULL, in a child process (fork), so an
   assertion or a crash is seen as such: SIGABRT (S2R_ASSERT) is accepted
   where the rule allows it, any other signal fails the test, naming the
   function and the argument.  A second test reads the header's S2RDEF
   declarations and fails when a function taking a pointer is missing from
   the table, so a new function cannot escape it. */
#if defined(__unix__)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

enum { NULL_RESULT, NULL_VOID, NULL_VALUE };
typedef struct null_case {
    const char* name;
    int         object;     /* 1: argument 0 is the object (S2R_ASSERT)      */
    unsigned    pointers;   /* bit i: argument i is a pointer                */
    int         kind;       /* what it returns: s2r_result, void, a value    */
} null_case;

/* Every argument a call needs, set up once before the children fork. */
static struct {
    s2r_sim sim;
    const s2r_backend* backend;
    s2r_sim_config sim_config;
    s2r_sim_draw sim_draw;
    s2r_arm_info arm_info;
    s2r_robot robot;
    const mjModel* model;
    mjData* data;
    s2r_reach reach;
    s2r_reach_config reach_config;
    s2r_sim push_sim;
    s2r_push push;
    s2r_push_config push_config;
    s2r_task task;
    s2r_task_config task_config;
    s2r_expert expert;
    s2r_expert_config expert_config;
    s2r_controller controller;
    s2r_env env;
    s2r_env_eval env_eval;
    s2r_policy policy;
    s2r_policy_shape policy_shape;
    s2r_mlp mlp;
    s2r_adam adam;
    s2r_ppo ppo;
    s2r_ppo_config ppo_config;
    s2r_ppo_stats ppo_stats;
    s2r_bc bc;
    s2r_bc_config bc_config;
    s2r_bc_stats bc_stats;
    s2r_dataset dataset;
    s2r_record record;
    s2r_training training;
    s2r_adr adr;
    s2r_adr_config adr_config;
    s2r_rng rng;
    s2r_dist dist;
    s2r_param_range param_range;
    s2r_randomization randomization;
    s2r_noise_config noise_config;
    s2r_noise_state noise_state;
    s2r_delay_line delay_line;
    s2r_delay_jitter delay_jitter;
    s2r_sample_hold sample_hold;
    s2r_sensors sensors;
    s2r_ground_truth ground_truth;
    s2r_step_result step_result;
    s2r_real_robot real_robot;
    s2r_real_unit real_unit;
    s2r_eval_result eval_result;
    s2r_sim_real_eval sim_real_eval;
    s2r_gap_attribution gap_attribution;
    s2r_transfer_evidence transfer_evidence;
    s2r_frame_history frame_history;
    s2r_history_env history_env;
    s2r_history_controller history_controller;
    s2r_pendulum pendulum;
    s2r_excitation_config excitation_config;
    s2r_trajectory_set trajectory_set;
    s2r_sysid sysid;
    s2r_sysid_config sysid_config;
    s2r_sysid_result sysid_result;
    s2r_identify_config identify_config;
    s2r_safety safety;
    s2r_safety_config safety_config;
    s2r_episode_stats episode_stats;
    s2r_run_summary run_summary;
    const s2r_regression_case* cases;
    const s2r_regression_case* cases_out;
    s2r_regression_result regression_result;
    s2r_shadow_stats shadow_stats;
    s2r_sprt_config sprt_config;
    s2r_gate_config gate_config;
    s2r_gate_result gate_result;
    s2r_drift drift;
    s2r_drift_config drift_config;
    s2r_monitor monitor;
    s2r_monitor_config monitor_config;
    s2r_deploy deploy;
    s2r_deploy_config deploy_config;
    s2r_takeover_rule takeover_rule;
    s2r_operator_view operator_view;
    s2r_intervention_episode intervention_episode;
    s2r_hg_dagger hg_dagger;
    s2r_hg_dagger_config hg_dagger_config;
    s2r_hg_dagger_stats hg_dagger_stats;
    s2r_rl_finetune_config rl_config;
    s2r_rl_finetune_result rl_result;
    s2r_file file;
    FILE* stream;
    const char* paths[1];
    double d[4096];
    float f[4096];
    int i[64];
    unsigned char bytes[4096];
    char text[65536];
    char error[S2R_ERROR_LEN];
} F;

#define NULL_PATH "build/test_null_rule.tmp"
#define A(i, p) (null_k == (i) ? NULL : (p))
static int null_k;
static s2r_result null_result;
static double null_line_loss(void* context, double t) { (void)context; return (t - 0.3) * (t - 0.3); }

static const null_case null_cases[] = {
    {"s2r_rng_u64", 1, 0x1, NULL_VALUE},
    {"s2r_rng_uniform", 1, 0x1, NULL_VALUE},
    {"s2r_rng_range", 1, 0x1, NULL_VALUE},
    {"s2r_rng_normal", 1, 0x1, NULL_VALUE},
    {"s2r_rng_int", 1, 0x1, NULL_VALUE},
    {"s2r_rng_split", 1, 0x1, NULL_VALUE},
    {"s2r_all_finite", 0, 0x1, NULL_VALUE},
    {"s2r_all_finite_f", 0, 0x1, NULL_VALUE},
    {"s2r_file_create", 1, 0x7, NULL_RESULT},
    {"s2r_file_commit", 1, 0x3, NULL_RESULT},
    {"s2r_file_discard", 1, 0x1, NULL_VOID},
    {"s2r_file_write_all", 0, 0xb, NULL_RESULT},
    {"s2r_file_exists", 0, 0x1, NULL_VALUE},
    {"s2r_robot_kind_find", 0, 0x1, NULL_VALUE},
    {"s2r_robot_load", 1, 0x1, NULL_RESULT},
    {"s2r_robot_load_scene", 1, 0x1, NULL_RESULT},
    {"s2r_robot_load_xml", 1, 0x3, NULL_RESULT},
    {"s2r_robot_load_file", 1, 0x3, NULL_RESULT},
    {"s2r_robot_free", 1, 0x1, NULL_VOID},
    {"s2r_robot_scene_mjcf", 0, 0x4, NULL_VALUE},
    {"s2r_robot_reset", 1, 0x3, NULL_RESULT},
    {"s2r_robot_steps_for", 1, 0x1, NULL_VALUE},
    {"s2r_flange_fk", 0, 0x2b, NULL_VOID},
    {"s2r_dist_kind_find", 0, 0x1, NULL_VALUE},
    {"s2r_dist_check", 1, 0x3, NULL_RESULT},
    {"s2r_dist_sample", 1, 0x3, NULL_VALUE},
    {"s2r_dist_mean", 1, 0x1, NULL_VALUE},
    {"s2r_dist_centre", 1, 0x1, NULL_VALUE},
    {"s2r_dist_support", 1, 0x7, NULL_VOID},
    {"s2r_dist_widen", 1, 0x1, NULL_VALUE},
    {"s2r_param_find", 0, 0x1, NULL_VALUE},
    {"s2r_apply_mode_find", 0, 0x1, NULL_VALUE},
    {"s2r_param_range_check", 0, 0x6, NULL_RESULT},
    {"s2r_param_apply", 1, 0x1, NULL_VALUE},
    {"s2r_randomization_check", 1, 0x3, NULL_RESULT},
    {"s2r_randomization_sample", 1, 0x7, NULL_VOID},
    {"s2r_randomization_digest", 1, 0x1, NULL_VALUE},
    {"s2r_param_range_widen", 0, 0x2, NULL_RESULT},
    {"s2r_randomization_widen", 1, 0x1, NULL_RESULT},
    {"s2r_randomization_parse", 1, 0x7, NULL_RESULT},
    {"s2r_randomization_load", 1, 0x7, NULL_RESULT},
    {"s2r_randomization_format", 1, 0x3, NULL_VALUE},
    {"s2r_randomization_write", 1, 0x7, NULL_RESULT},
    {"s2r_noise_config_check", 1, 0x3, NULL_RESULT},
    {"s2r_noise_begin_episode", 1, 0xb, NULL_VOID},
    {"s2r_noise_apply", 1, 0x4f, NULL_VOID},
    {"s2r_delay_init", 1, 0x1, NULL_RESULT},
    {"s2r_delay_free", 1, 0x1, NULL_VOID},
    {"s2r_delay_reset", 1, 0x3, NULL_VOID},
    {"s2r_delay_push", 1, 0x3, NULL_VOID},
    {"s2r_delay_read", 1, 0x5, NULL_VOID},
    {"s2r_delay_peek", 1, 0x1, NULL_VALUE},
    {"s2r_delay_jitter_init", 1, 0x1, NULL_VOID},
    {"s2r_delay_jitter_reset", 1, 0x1, NULL_VOID},
    {"s2r_delay_jitter_next", 1, 0x3, NULL_VALUE},
    {"s2r_sample_hold_init", 1, 0x1, NULL_RESULT},
    {"s2r_sample_hold_reset", 1, 0x1, NULL_VOID},
    {"s2r_sample_hold_step", 1, 0xd, NULL_VALUE},
    {"s2r_backend_reset", 1, 0xf, NULL_RESULT},
    {"s2r_backend_command", 1, 0x3, NULL_RESULT},
    {"s2r_backend_advance", 1, 0x1, NULL_RESULT},
    {"s2r_backend_read_sensors", 1, 0x3, NULL_RESULT},
    {"s2r_backend_ground_truth", 1, 0x3, NULL_RESULT},
    {"s2r_backend_halt", 1, 0x1, NULL_RESULT},
    {"s2r_backend_place_object", 1, 0x3, NULL_RESULT},
    {"s2r_sim_init", 1, 0x3, NULL_RESULT},
    {"s2r_sim_free", 1, 0x1, NULL_VOID},
    {"s2r_sim_backend", 1, 0x1, NULL_VALUE},
    {"s2r_sim_set_randomization", 1, 0x3, NULL_RESULT},
    {"s2r_sim_pin_draw", 1, 0x3, NULL_RESULT},
    {"s2r_sim_privileged", 1, 0x3, NULL_VOID},
    {"s2r_real_unit_draw", 0, 0x5, NULL_RESULT},
    {"s2r_real_robot_init", 1, 0x1, NULL_RESULT},
    {"s2r_real_robot_init_scene", 1, 0x1, NULL_RESULT},
    {"s2r_real_robot_free", 1, 0x1, NULL_VOID},
    {"s2r_real_robot_backend", 1, 0x1, NULL_VALUE},
    {"s2r_real_robot_oracle", 1, 0x1, NULL_VALUE},
    {"s2r_real_unit_truth", 1, 0x1, NULL_VALUE},
    {"s2r_real_robot_init_ablated", 1, 0x1, NULL_RESULT},
    {"s2r_reach_init", 1, 0x7, NULL_RESULT},
    {"s2r_reach_free", 1, 0x1, NULL_VOID},
    {"s2r_reach_reset", 1, 0x7, NULL_RESULT},
    {"s2r_reach_reset_to", 1, 0x1f, NULL_RESULT},
    {"s2r_reach_step", 1, 0xf, NULL_RESULT},
    {"s2r_reach_sample_target", 1, 0xf, NULL_VOID},
    {"s2r_reach_env", 1, 0x1, NULL_VALUE},
    {"s2r_push_init", 1, 0x7, NULL_RESULT},
    {"s2r_push_free", 1, 0x1, NULL_VOID},
    {"s2r_push_reset", 1, 0x7, NULL_RESULT},
    {"s2r_push_reset_to", 1, 0x3f, NULL_RESULT},
    {"s2r_push_step", 1, 0xf, NULL_RESULT},
    {"s2r_push_sample", 1, 0x3f, NULL_VOID},
    {"s2r_push_env", 1, 0x1, NULL_VALUE},
    {"s2r_tip_ik", 0, 0x3f, NULL_VALUE},
    {"s2r_task_kind_find", 0, 0x1, NULL_VALUE},
    {"s2r_task_dims", 0, 0xc, NULL_VOID},
    {"s2r_task_dims_n", 0, 0xc, NULL_VOID},
    {"s2r_task_config_set_camera", 1, 0x3, NULL_VOID},
    {"s2r_task_init", 1, 0x7, NULL_RESULT},
    {"s2r_task_free", 1, 0x1, NULL_VOID},
    {"s2r_task_backend", 1, 0x1, NULL_VALUE},
    {"s2r_ik_solve", 0, 0x1f, NULL_VALUE},
    {"s2r_expert_init", 1, 0xf, NULL_RESULT},
    {"s2r_expert_free", 1, 0x1, NULL_VOID},
    {"s2r_expert_reset", 1, 0x1, NULL_VOID},
    {"s2r_expert_act", 1, 0x1f, NULL_RESULT},
    {"s2r_mlp_layout", 1, 0x29, NULL_RESULT},
    {"s2r_mlp_init_orthogonal", 1, 0x13, NULL_VOID},
    {"s2r_mlp_forward", 1, 0x37, NULL_VOID},
    {"s2r_mlp_backward", 1, 0xdf, NULL_VOID},
    {"s2r_policy_init", 1, 0x13, NULL_RESULT},
    {"s2r_policy_free", 1, 0x1, NULL_VOID},
    {"s2r_policy_act", 1, 0x17, NULL_RESULT},
    {"s2r_policy_evaluate", 1, 0x33, NULL_RESULT},
    {"s2r_adam_init", 1, 0x5, NULL_RESULT},
    {"s2r_adam_free", 1, 0x1, NULL_VOID},
    {"s2r_adam_clip_grad", 1, 0x1, NULL_VALUE},
    {"s2r_adam_step", 1, 0x3, NULL_VOID},
    {"s2r_gae", 0, 0x67c, NULL_VOID},
    {"s2r_ppo_clipped_loss", 0, 0x8, NULL_VALUE},
    {"s2r_ppo_init", 1, 0x3, NULL_RESULT},
    {"s2r_ppo_free", 1, 0x1, NULL_VOID},
    {"s2r_ppo_iterate", 1, 0x7, NULL_RESULT},
    {"s2r_ppo_train", 1, 0xb, NULL_RESULT},
    {"s2r_ppo_save_state", 1, 0x3, NULL_RESULT},
    {"s2r_ppo_load_state", 1, 0x3, NULL_RESULT},
    {"s2r_ppo_stats_csv_header", 0, 0x1, NULL_RESULT},
    {"s2r_ppo_stats_csv_row", 0, 0x3, NULL_RESULT},
    {"s2r_ppo_stats_csv_parse", 0, 0x3, NULL_VALUE},
    {"s2r_ppo_print_progress", 0, 0x3, NULL_VOID},
    {"s2r_dataset_init", 1, 0x1, NULL_RESULT},
    {"s2r_dataset_append", 1, 0x7, NULL_RESULT},
    {"s2r_dataset_free", 1, 0x1, NULL_VOID},
    {"s2r_bc_init", 1, 0x7, NULL_RESULT},
    {"s2r_bc_free", 1, 0x1, NULL_VOID},
    {"s2r_bc_epoch", 1, 0x7, NULL_RESULT},
    {"s2r_policy_save", 1, 0x7, NULL_RESULT},
    {"s2r_policy_load", 1, 0x7, NULL_RESULT},
    {"s2r_policy_load_memory", 1, 0x17, NULL_RESULT},
    {"s2r_checkpoint_shape", 0, 0x7, NULL_RESULT},
    {"s2r_policy_from_checkpoint", 1, 0x7, NULL_RESULT},
    {"s2r_policy_check_ranges", 1, 0xf, NULL_RESULT},
    {"s2r_pendulum_init", 1, 0x1, NULL_VOID},
    {"s2r_pendulum_env", 1, 0x1, NULL_VALUE},
    {"s2r_evaluate", 0, 0x33, NULL_RESULT},
    {"s2r_wilson_interval", 0, 0xc, NULL_VOID},
    {"s2r_newcombe_interval", 0, 0x30, NULL_VOID},
    {"s2r_eval_merge", 1, 0x3, NULL_VOID},
    {"s2r_expert_controller", 1, 0x1, NULL_VALUE},
    {"s2r_policy_controller", 1, 0x1, NULL_VALUE},
    {"s2r_frame_history_init", 1, 0x1, NULL_RESULT},
    {"s2r_frame_history_free", 1, 0x1, NULL_VOID},
    {"s2r_frame_history_reset", 1, 0x3, NULL_VOID},
    {"s2r_frame_history_stack", 1, 0x7, NULL_VOID},
    {"s2r_frame_history_push", 1, 0x7, NULL_VOID},
    {"s2r_history_env_init", 1, 0x3, NULL_RESULT},
    {"s2r_history_env_free", 1, 0x1, NULL_VOID},
    {"s2r_history_env_get", 1, 0x1, NULL_VALUE},
    {"s2r_history_controller_init", 1, 0x3, NULL_RESULT},
    {"s2r_history_controller_free", 1, 0x1, NULL_VOID},
    {"s2r_history_controller_get", 1, 0x1, NULL_VALUE},
    {"s2r_evaluate_sim_and_real", 0, 0x30d, NULL_RESULT},
    {"s2r_sim_real_eval_pool", 1, 0x3, NULL_VOID},
    {"s2r_sim_real_eval_print", 0, 0x3, NULL_VOID},
    {"s2r_sim_real_eval_write", 0, 0xf, NULL_RESULT},
    {"s2r_robustness_sweep", 0, 0x315, NULL_RESULT},
    {"s2r_predict_transfer", 0, 0xcd, NULL_RESULT},
    {"s2r_attribute_gap", 0, 0xc5, NULL_RESULT},
    {"s2r_gap_attribution_pool", 1, 0x3, NULL_VOID},
    {"s2r_collect_demos", 0, 0xe7, NULL_RESULT},
    {"s2r_collect_unit_demos", 0, 0x38c, NULL_RESULT},
    {"s2r_clone_demos", 0, 0x23, NULL_RESULT},
    {"s2r_finetune_on_unit", 0, 0xF33, NULL_RESULT},
    {"s2r_adr_init", 1, 0x7, NULL_RESULT},
    {"s2r_adr_free", 1, 0x1, NULL_VOID},
    {"s2r_adr_write_csv", 1, 0x7, NULL_RESULT},
    {"s2r_train", 0, 0x7, NULL_RESULT},
    {"s2r_excitation_check", 1, 0x3, NULL_RESULT},
    {"s2r_excitation_make", 1, 0x73, NULL_RESULT},
    {"s2r_trajectory_set_init", 1, 0x1, NULL_RESULT},
    {"s2r_trajectory_set_free", 1, 0x1, NULL_VOID},
    {"s2r_trajectory_set_add_object", 1, 0x1, NULL_RESULT},
    {"s2r_trajectory_record", 1, 0x3f, NULL_RESULT},
    {"s2r_trajectory_collect", 1, 0x7, NULL_RESULT},
    {"s2r_trajectory_collect_strikes", 1, 0x3, NULL_RESULT},
    {"s2r_trajectory_set_check", 1, 0x5, NULL_RESULT},
    {"s2r_trajectory_write_csv", 1, 0xd, NULL_RESULT},
    {"s2r_trajectory_set_load_csv", 1, 0x13, NULL_RESULT},
    {"s2r_trajectory_set_parse_csv", 1, 0x17, NULL_RESULT},
    {"s2r_line_minimize", 0, 0x102, NULL_VALUE},
    {"s2r_sysid_config_check", 1, 0x3, NULL_RESULT},
    {"s2r_sysid_init", 1, 0x7, NULL_RESULT},
    {"s2r_sysid_free", 1, 0x1, NULL_VOID},
    {"s2r_sysid_loss", 1, 0xf, NULL_RESULT},
    {"s2r_sysid_simulate", 1, 0x37, NULL_RESULT},
    {"s2r_sysid_run", 1, 0xf, NULL_RESULT},
    {"s2r_sysid_fixed", 1, 0x7, NULL_RESULT},
    {"s2r_sysid_recentre", 1, 0xf, NULL_RESULT},
    {"s2r_sysid_print", 1, 0x3, NULL_VOID},
    {"s2r_calibrate_camera", 0, 0x71, NULL_RESULT},
    {"s2r_calibrate_unit", 0, 0x38, NULL_RESULT},
    {"s2r_identify_unit", 0, 0xff, NULL_RESULT},
    {"s2r_identify_object", 0, 0x7f, NULL_RESULT},
    {"s2r_safety_init", 1, 0x7, NULL_RESULT},
    {"s2r_safety_free", 1, 0x1, NULL_VOID},
    {"s2r_safety_backend", 1, 0x1, NULL_VALUE},
    {"s2r_safety_check", 1, 0x7, NULL_VALUE},
    {"s2r_safety_filter_action", 1, 0x3, NULL_VALUE},
    {"s2r_safety_estop", 1, 0x3, NULL_RESULT},
    {"s2r_safety_episode_interventions", 1, 0x1, NULL_VALUE},
    {"s2r_safety_set_workspace_scale", 1, 0x1, NULL_RESULT},
    {"s2r_deploy_episode", 0, 0x1f, NULL_RESULT},
    {"s2r_run_summary_add", 1, 0x3, NULL_VOID},
    {"s2r_regression_suite_default", 1, 0x1, NULL_VALUE},
    {"s2r_regression_case_pose", 1, 0xf, NULL_VOID},
    {"s2r_regression_run", 0, 0x47, NULL_RESULT},
    {"s2r_shadow_run", 0, 0x18f, NULL_RESULT},
    {"s2r_sprt_check", 1, 0x3, NULL_RESULT},
    {"s2r_sprt_decide", 1, 0x9, NULL_VALUE},
    {"s2r_gate_sprt", 1, 0x1, NULL_VALUE},
    {"s2r_gate_sim_regression", 1, 0x1, NULL_VALUE},
    {"s2r_gate_sysid", 1, 0x1, NULL_VALUE},
    {"s2r_gate_shadow", 1, 0x3, NULL_VALUE},
    {"s2r_gate_tethered", 1, 0x1, NULL_VALUE},
    {"s2r_gate_constrained", 1, 0x1, NULL_VALUE},
    {"s2r_gate_canary", 1, 0x1, NULL_VALUE},
    {"s2r_gate_canary_pairs", 1, 0x1, NULL_VALUE},
    {"s2r_stage_run", 0, 0x18f, NULL_RESULT},
    {"s2r_gate_oc", 1, 0x39, NULL_RESULT},
    {"s2r_gate_plan_print", 1, 0x1, NULL_VOID},
    {"s2r_drift_init", 1, 0x7, NULL_RESULT},
    {"s2r_drift_update", 1, 0x1, NULL_VALUE},
    {"s2r_drift_level", 1, 0x1, NULL_VALUE},
    {"s2r_monitor_init", 1, 0x3, NULL_RESULT},
    {"s2r_monitor_update", 1, 0x3, NULL_VALUE},
    {"s2r_deploy_init", 1, 0xf, NULL_RESULT},
    {"s2r_deploy_free", 1, 0x1, NULL_VOID},
    {"s2r_deploy_apply", 1, 0x3, NULL_RESULT},
    {"s2r_deploy_alarm", 1, 0x9, NULL_RESULT},
    {"s2r_deploy_note", 1, 0x7, NULL_RESULT},
    {"s2r_dataset_save", 1, 0x7, NULL_RESULT},
    {"s2r_dataset_load", 1, 0x7, NULL_RESULT},
    {"s2r_dataset_unpack", 1, 0x1b, NULL_RESULT},
    {"s2r_training_check_resume", 0, 0x7, NULL_RESULT},
    {"s2r_socket_parse", 0, 0xd, NULL_RESULT},
    {"s2r_socket_pack", 1, 0x3, NULL_VALUE},
    {"s2r_socket_robot_connect", 1, 0x3, NULL_RESULT},
    {"s2r_socket_robot_backend", 1, 0x1, NULL_VALUE},
    {"s2r_socket_robot_close", 1, 0x1, NULL_VOID},
    {"s2r_socket_serve", 0, 0x7, NULL_RESULT},
    {"s2r_takeover_decide", 1, 0x3, NULL_VALUE},
    {"s2r_collect_unit_interventions", 0, 0xe39, NULL_RESULT},
    {"s2r_hg_dagger_init", 1, 0x27, NULL_RESULT},
    {"s2r_hg_dagger_free", 1, 0x1, NULL_VOID},
    {"s2r_hg_dagger_round", 1, 0x3, NULL_RESULT},
    {"s2r_dataset_end_episode", 1, 0x1, NULL_RESULT},
    {"s2r_dataset_append_episodes", 1, 0x23, NULL_RESULT},
    {"s2r_policy_add_history", 1, 0x3, NULL_RESULT},
    {"s2r_randomization_add_calibration", 1, 0x1, NULL_VOID},
    {"s2r_trajectory_length", 1, 0x1, NULL_VALUE},
    {"s2r_trajectory_set_qd_measured", 1, 0x1, NULL_VALUE},
    {"s2r_excitation_write_csv", 0, 0x9f, NULL_RESULT},
    {"s2r_excitation_load_csv", 1, 0xb, NULL_RESULT},
    {"s2r_excitation_parse_csv", 1, 0x17, NULL_RESULT},
    {"s2r_task_config_of", 0, 0x1, NULL_VALUE},
    {"s2r_task_servo_targets", 1, 0x7, NULL_VOID},
    {"s2r_regression_suite_for", 0, 0x2, NULL_VALUE},
    {"s2r_dist_std", 1, 0x1, NULL_VALUE},
    {"s2r_mean_interval", 0, 0x1d, NULL_VOID},
    {"s2r_record_begin", 1, 0x3, NULL_RESULT},
    {"s2r_record_add", 1, 0x3, NULL_RESULT},
    {"s2r_record_save", 1, 0x7, NULL_RESULT},
    {"s2r_record_load", 1, 0x13, NULL_RESULT},
    {"s2r_record_parse", 1, 0x4b, NULL_RESULT},
    {"s2r_record_line", 1, 0x5, NULL_VALUE},
    {"s2r_record_free", 1, 0x1, NULL_VOID},
    {"s2r_sim_set_timestep", 1, 0x1, NULL_RESULT},
    {"s2r_ppo_anchor", 1, 0x3, NULL_RESULT},
    {"s2r_finetune_by_rl", 0, 0x3f, NULL_RESULT},
    {"s2r_socket_arm_digest", 0, 0x1, NULL_VALUE},
    {"s2r_backend_settle", 0, 0xe3, NULL_RESULT},
    {"s2r_trajectory_collect_at_rest", 1, 0x27, NULL_RESULT},
    {"s2r_trajectory_set_find_same", 1, 0x3, NULL_VALUE},
};

static void null_call(int f) {
    switch (f) {
    case 0: (void)s2r_rng_u64(A(0, &F.rng)); break;
    case 1: (void)s2r_rng_uniform(A(0, &F.rng)); break;
    case 2: (void)s2r_rng_range(A(0, &F.rng), 0, 1); break;
    case 3: (void)s2r_rng_normal(A(0, &F.rng)); break;
    case 4: (void)s2r_rng_int(A(0, &F.rng), 1); break;
    case 5: (void)s2r_rng_split(A(0, &F.rng), 1); break;
    case 6: (void)s2r_all_finite(A(0, F.d), 1); break;
    case 7: (void)s2r_all_finite_f(A(0, F.f), 1); break;
    case 8: null_result = s2r_file_create(A(0, &F.file), A(1, NULL_PATH), A(2, F.error)); break;
    case 9: null_result = s2r_file_commit(A(0, &F.file), A(1, F.error)); break;
    case 10: s2r_file_discard(A(0, &F.file)); break;
    case 11: null_result = s2r_file_write_all(A(0, NULL_PATH), A(1, F.bytes), 16, A(3, F.error)); break;
    case 12: (void)s2r_file_exists(A(0, NULL_PATH)); break;
    case 13: (void)s2r_robot_kind_find(A(0, "kp")); break;
    case 14: null_result = s2r_robot_load(A(0, &F.robot), S2R_ROBOT_UR5E); break;
    case 15: null_result = s2r_robot_load_scene(A(0, &F.robot), S2R_ROBOT_UR5E, S2R_SCENE_ARM); break;
    case 16: null_result = s2r_robot_load_xml(A(0, &F.robot), A(1, "x")); break;
    case 17: null_result = s2r_robot_load_file(A(0, &F.robot), A(1, NULL_PATH)); break;
    case 18: s2r_robot_free(A(0, &F.robot)); break;
    case 19: (void)s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, A(2, F.text), 64); break;
    case 20: null_result = s2r_robot_reset(A(0, &F.robot), A(1, F.d)); break;
    case 21: (void)s2r_robot_steps_for(A(0, &F.robot), 0.01); break;
    case 22: s2r_flange_fk(A(0, F.model), A(1, F.data), 1, A(3, F.d), 1, A(5, F.d)); break;
    case 23: (void)s2r_dist_kind_find(A(0, "kp")); break;
    case 24: null_result = s2r_dist_check(A(0, &F.dist), A(1, F.error)); break;
    case 25: (void)s2r_dist_sample(A(0, &F.dist), A(1, &F.rng)); break;
    case 26: (void)s2r_dist_mean(A(0, &F.dist)); break;
    case 27: (void)s2r_dist_centre(A(0, &F.dist)); break;
    case 28: s2r_dist_support(A(0, &F.dist), A(1, F.d), A(2, F.d)); break;
    case 29: (void)s2r_dist_widen(A(0, &F.dist), 1.5, 0.01, 0.01); break;
    case 30: (void)s2r_param_find(A(0, "kp")); break;
    case 31: (void)s2r_apply_mode_find(A(0, "kp")); break;
    case 32: null_result = s2r_param_range_check(S2R_PARAM_KP, A(1, &F.param_range), A(2, F.error)); break;
    case 33: (void)s2r_param_apply(A(0, &F.param_range), 1, 1); break;
    case 34: null_result = s2r_randomization_check(A(0, &F.randomization), A(1, F.error)); break;
    case 35: s2r_randomization_sample(A(0, &F.randomization), A(1, &F.rng), A(2, F.d)); break;
    case 36: (void)s2r_randomization_digest(A(0, &F.randomization)); break;
    case 37: null_result = s2r_param_range_widen(S2R_PARAM_KP, A(1, &F.param_range), 1.5); break;
    case 38: null_result = s2r_randomization_widen(A(0, &F.randomization), 1.5); break;
    case 39: null_result = s2r_randomization_parse(A(0, &F.randomization), A(1, "x"), A(2, F.error)); break;
    case 40: null_result = s2r_randomization_load(A(0, &F.randomization), A(1, NULL_PATH), A(2, F.error)); break;
    case 41: (void)s2r_randomization_format(A(0, &F.randomization), A(1, F.text), 64); break;
    case 42: null_result = s2r_randomization_write(A(0, &F.randomization), A(1, NULL_PATH), A(2, F.error)); break;
    case 43: null_result = s2r_noise_config_check(A(0, &F.noise_config), A(1, F.error)); break;
    case 44: s2r_noise_begin_episode(A(0, &F.noise_config), A(1, &F.noise_state), 1, A(3, &F.rng)); break;
    case 45: s2r_noise_apply(A(0, &F.noise_config), A(1, &F.noise_state), A(2, F.d), A(3, F.d), 1, 0.002, A(6, &F.rng)); break;
    case 46: null_result = s2r_delay_init(A(0, &F.delay_line), 1, 1); break;
    case 47: s2r_delay_free(A(0, &F.delay_line)); break;
    case 48: s2r_delay_reset(A(0, &F.delay_line), A(1, F.d)); break;
    case 49: s2r_delay_push(A(0, &F.delay_line), A(1, F.d)); break;
    case 50: s2r_delay_read(A(0, &F.delay_line), 0, A(2, F.d)); break;
    case 51: (void)s2r_delay_peek(A(0, &F.delay_line), 0); break;
    case 52: s2r_delay_jitter_init(A(0, &F.delay_jitter), 1, 1, 1); break;
    case 53: s2r_delay_jitter_reset(A(0, &F.delay_jitter)); break;
    case 54: (void)s2r_delay_jitter_next(A(0, &F.delay_jitter), A(1, &F.rng)); break;
    case 55: null_result = s2r_sample_hold_init(A(0, &F.sample_hold), 0.02); break;
    case 56: s2r_sample_hold_reset(A(0, &F.sample_hold), 0.01); break;
    case 57: (void)s2r_sample_hold_step(A(0, &F.sample_hold), 0.002, A(2, F.d), A(3, F.d), 1); break;
    case 58: null_result = s2r_backend_reset(A(0, F.backend), A(1, F.d), A(2, F.d), A(3, &F.rng)); break;
    case 59: null_result = s2r_backend_command(A(0, F.backend), A(1, F.d)); break;
    case 60: null_result = s2r_backend_advance(A(0, F.backend), 0.01); break;
    case 61: null_result = s2r_backend_read_sensors(A(0, F.backend), A(1, &F.sensors)); break;
    case 62: null_result = s2r_backend_ground_truth(A(0, F.backend), A(1, &F.ground_truth)); break;
    case 63: null_result = s2r_backend_halt(A(0, F.backend)); break;
    case 64: null_result = s2r_backend_place_object(A(0, F.backend), A(1, F.d)); break;
    case 65: null_result = s2r_sim_init(A(0, &F.sim), A(1, &F.sim_config)); break;
    case 66: s2r_sim_free(A(0, &F.sim)); break;
    case 67: (void)s2r_sim_backend(A(0, &F.sim)); break;
    case 68: null_result = s2r_sim_set_randomization(A(0, &F.sim), A(1, &F.randomization)); break;
    case 69: null_result = s2r_sim_pin_draw(A(0, &F.sim), A(1, &F.sim_draw)); break;
    case 70: s2r_sim_privileged(A(0, &F.sim), A(1, F.f)); break;
    case 71: null_result = s2r_real_unit_draw(A(0, &F.arm_info), 1, A(2, &F.real_unit)); break;
    case 72: null_result = s2r_real_robot_init(A(0, &F.real_robot), S2R_ROBOT_UR5E, 1); break;
    case 73: null_result = s2r_real_robot_init_scene(A(0, &F.real_robot), S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1); break;
    case 74: s2r_real_robot_free(A(0, &F.real_robot)); break;
    case 75: (void)s2r_real_robot_backend(A(0, &F.real_robot)); break;
    case 76: (void)s2r_real_robot_oracle(A(0, &F.real_robot)); break;
    case 77: (void)s2r_real_unit_truth(A(0, &F.real_unit), S2R_PARAM_KP, 0.01); break;
    case 78: null_result = s2r_real_robot_init_ablated(A(0, &F.real_robot), S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 1); break;
    case 79: null_result = s2r_reach_init(A(0, &F.reach), A(1, &F.reach_config), A(2, F.backend)); break;
    case 80: s2r_reach_free(A(0, &F.reach)); break;
    case 81: null_result = s2r_reach_reset(A(0, &F.reach), A(1, &F.rng), A(2, F.f)); break;
    case 82: null_result = s2r_reach_reset_to(A(0, &F.reach), A(1, F.d), A(2, F.d), A(3, &F.rng), A(4, F.f)); break;
    case 83: null_result = s2r_reach_step(A(0, &F.reach), A(1, F.f), A(2, F.f), A(3, &F.step_result)); break;
    case 84: s2r_reach_sample_target(A(0, &F.reach_config), A(1, &F.arm_info), A(2, &F.rng), A(3, F.d)); break;
    case 85: (void)s2r_reach_env(A(0, &F.reach)); break;
    case 86: null_result = s2r_push_init(A(0, &F.push), A(1, &F.push_config), A(2, F.backend)); break;
    case 87: s2r_push_free(A(0, &F.push)); break;
    case 88: null_result = s2r_push_reset(A(0, &F.push), A(1, &F.rng), A(2, F.f)); break;
    case 89: null_result = s2r_push_reset_to(A(0, &F.push), A(1, F.d), A(2, F.d), A(3, F.d), A(4, &F.rng), A(5, F.f)); break;
    case 90: null_result = s2r_push_step(A(0, &F.push), A(1, F.f), A(2, F.f), A(3, &F.step_result)); break;
    case 91: s2r_push_sample(A(0, &F.push_config), A(1, &F.arm_info), A(2, &F.rng), A(3, F.d), A(4, F.d), A(5, F.d)); break;
    case 92: (void)s2r_push_env(A(0, &F.push)); break;
    case 93: (void)s2r_tip_ik(A(0, &F.arm_info), A(1, F.data), A(2, F.d), A(3, F.d), A(4, F.d), A(5, F.d)); break;
    case 94: (void)s2r_task_kind_find(A(0, "kp")); break;
    case 95: s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, A(2, F.i), A(3, F.i)); break;
    case 96: s2r_task_dims_n(S2R_TASK_REACH, 1, A(2, F.i), A(3, F.i)); break;
    case 97: s2r_task_config_set_camera(A(0, &F.task_config), A(1, F.d)); break;
    case 98: null_result = s2r_task_init(A(0, &F.task), A(1, &F.task_config), A(2, F.backend)); break;
    case 99: s2r_task_free(A(0, &F.task)); break;
    case 100: (void)s2r_task_backend(A(0, &F.task)); break;
    case 101: (void)s2r_ik_solve(A(0, &F.arm_info), A(1, F.data), A(2, F.d), A(3, F.d), A(4, F.d)); break;
    case 102: null_result = s2r_expert_init(A(0, &F.expert), A(1, &F.expert_config), A(2, &F.task_config), A(3, &F.arm_info)); break;
    case 103: s2r_expert_free(A(0, &F.expert)); break;
    case 104: s2r_expert_reset(A(0, &F.expert)); break;
    case 105: null_result = s2r_expert_act(A(0, &F.expert), A(1, F.f), A(2, F.d), A(3, F.f), A(4, &F.rng)); break;
    case 106: null_result = s2r_mlp_layout(A(0, &F.mlp), 1, 1, A(3, F.i), 1, A(5, F.error)); break;
    case 107: s2r_mlp_init_orthogonal(A(0, &F.mlp), A(1, F.f), 1.0f, 1.0f, A(4, &F.rng)); break;
    case 108: s2r_mlp_forward(A(0, &F.mlp), A(1, F.f), A(2, F.f), 1, A(4, F.f), A(5, F.f)); break;
    case 109: s2r_mlp_backward(A(0, &F.mlp), A(1, F.f), A(2, F.f), A(3, F.f), A(4, F.f), 1, A(6, F.f), A(7, F.f)); break;
    case 110: null_result = s2r_policy_init(A(0, &F.policy), A(1, &F.policy_shape), 1.0f, 1.0f, A(4, &F.rng)); break;
    case 111: s2r_policy_free(A(0, &F.policy)); break;
    case 112: null_result = s2r_policy_act(A(0, &F.policy), A(1, F.f), A(2, F.f), 1, A(4, &F.rng)); break;
    case 113: null_result = s2r_policy_evaluate(A(0, &F.policy), A(1, &F.env), 1, 1, A(4, &F.rng), A(5, &F.env_eval)); break;
    case 114: null_result = s2r_adam_init(A(0, &F.adam), 1, A(2, F.error)); break;
    case 115: s2r_adam_free(A(0, &F.adam)); break;
    case 116: (void)s2r_adam_clip_grad(A(0, &F.adam), 0.01); break;
    case 117: s2r_adam_step(A(0, &F.adam), A(1, F.f), 1.0f); break;
    case 118: s2r_gae(1, 1, A(2, F.f), A(3, F.f), A(4, F.bytes), A(5, F.f), A(6, F.f), 0.99f, 0.95f, A(9, F.f), A(10, F.f)); break;
    case 119: (void)s2r_ppo_clipped_loss(0, 1, 0.2, A(3, F.d)); break;
    case 120: null_result = s2r_ppo_init(A(0, &F.ppo), A(1, &F.ppo_config), 1, 1); break;
    case 121: s2r_ppo_free(A(0, &F.ppo)); break;
    case 122: null_result = s2r_ppo_iterate(A(0, &F.ppo), A(1, &F.env), A(2, &F.ppo_stats)); break;
    case 123: null_result = s2r_ppo_train(A(0, &F.ppo), A(1, &F.env), (s2r_ppo_callback)0, A(3, F.bytes)); break;
    case 124: null_result = s2r_ppo_save_state(A(0, &F.ppo), A(1, NULL_PATH)); break;
    case 125: null_result = s2r_ppo_load_state(A(0, &F.ppo), A(1, NULL_PATH)); break;
    case 126: null_result = s2r_ppo_stats_csv_header(A(0, F.stream)); break;
    case 127: null_result = s2r_ppo_stats_csv_row(A(0, F.stream), A(1, &F.ppo_stats)); break;
    case 128: (void)s2r_ppo_stats_csv_parse(A(0, "1,2"), A(1, &F.ppo_stats)); break;
    case 129: s2r_ppo_print_progress(A(0, F.stream), A(1, &F.ppo_stats), 0); break;
    case 130: null_result = s2r_dataset_init(A(0, &F.dataset), 1, 1); break;
    case 131: null_result = s2r_dataset_append(A(0, &F.dataset), A(1, F.f), A(2, F.f)); break;
    case 132: s2r_dataset_free(A(0, &F.dataset)); break;
    case 133: null_result = s2r_bc_init(A(0, &F.bc), A(1, &F.bc_config), A(2, &F.policy)); break;
    case 134: s2r_bc_free(A(0, &F.bc)); break;
    case 135: null_result = s2r_bc_epoch(A(0, &F.bc), A(1, &F.dataset), A(2, &F.bc_stats)); break;
    case 136: null_result = s2r_policy_save(A(0, &F.policy), A(1, &F.adam), A(2, NULL_PATH)); break;
    case 137: null_result = s2r_policy_load(A(0, &F.policy), A(1, &F.adam), A(2, NULL_PATH)); break;
    case 138: null_result = s2r_policy_load_memory(A(0, &F.policy), A(1, &F.adam), A(2, F.bytes), 16, A(4, "kp")); break;
    case 139: null_result = s2r_checkpoint_shape(A(0, NULL_PATH), A(1, &F.policy_shape), A(2, F.error)); break;
    case 140: null_result = s2r_policy_from_checkpoint(A(0, &F.policy), A(1, NULL_PATH), A(2, F.error)); break;
    case 141: null_result = s2r_policy_check_ranges(A(0, &F.policy), A(1, "x"), A(2, NULL_PATH), A(3, F.error)); break;
    case 142: s2r_pendulum_init(A(0, &F.pendulum)); break;
    case 143: (void)s2r_pendulum_env(A(0, &F.pendulum)); break;
    case 144: null_result = s2r_evaluate(A(0, &F.controller), A(1, &F.task), 1, 1, A(4, &F.eval_result), A(5, F.d)); break;
    case 145: s2r_wilson_interval(0, 1, A(2, F.d), A(3, F.d)); break;
    case 146: s2r_newcombe_interval(1, 1, 1, 1, A(4, F.d), A(5, F.d)); break;
    case 147: s2r_eval_merge(A(0, &F.eval_result), A(1, &F.eval_result)); break;
    case 148: (void)s2r_expert_controller(A(0, &F.expert)); break;
    case 149: (void)s2r_policy_controller(A(0, &F.policy)); break;
    case 150: null_result = s2r_frame_history_init(A(0, &F.frame_history), 1, 1, 0); break;
    case 151: s2r_frame_history_free(A(0, &F.frame_history)); break;
    case 152: s2r_frame_history_reset(A(0, &F.frame_history), A(1, F.f)); break;
    case 153: s2r_frame_history_stack(A(0, &F.frame_history), A(1, F.f), A(2, F.f)); break;
    case 154: s2r_frame_history_push(A(0, &F.frame_history), A(1, F.f), A(2, F.f)); break;
    case 155: null_result = s2r_history_env_init(A(0, &F.history_env), A(1, &F.env), 0); break;
    case 156: s2r_history_env_free(A(0, &F.history_env)); break;
    case 157: (void)s2r_history_env_get(A(0, &F.history_env)); break;
    case 158: null_result = s2r_history_controller_init(A(0, &F.history_controller), A(1, &F.controller), 1, 1, 0); break;
    case 159: s2r_history_controller_free(A(0, &F.history_controller)); break;
    case 160: (void)s2r_history_controller_get(A(0, &F.history_controller)); break;
    case 161: null_result = s2r_evaluate_sim_and_real(A(0, &F.controller), S2R_ROBOT_UR5E, A(2, &F.task_config), A(3, &F.randomization), 1, 1, 1, 1, A(8, &F.sim_real_eval), A(9, F.error)); break;
    case 162: s2r_sim_real_eval_pool(A(0, &F.sim_real_eval), A(1, &F.sim_real_eval)); break;
    case 163: s2r_sim_real_eval_print(A(0, "x"), A(1, &F.sim_real_eval)); break;
    case 164: null_result = s2r_sim_real_eval_write(A(0, NULL_PATH), A(1, "x"), A(2, &F.sim_real_eval), A(3, F.error)); break;
    case 165: null_result = s2r_robustness_sweep(A(0, &F.controller), S2R_ROBOT_UR5E, A(2, &F.task_config), S2R_PARAM_KP, A(4, F.d), 1, 1, 1, A(8, &F.eval_result), A(9, F.error)); break;
    case 166: null_result = s2r_predict_transfer(A(0, &F.controller), S2R_ROBOT_UR5E, A(2, &F.task_config), A(3, &F.transfer_evidence), 1, 1, A(6, &F.eval_result), A(7, F.error)); break;
    case 167: null_result = s2r_attribute_gap(A(0, &F.controller), S2R_ROBOT_UR5E, A(2, &F.task_config), 1, 1, 1, A(6, &F.gap_attribution), A(7, F.error)); break;
    case 168: s2r_gap_attribution_pool(A(0, &F.gap_attribution), A(1, &F.gap_attribution)); break;
    case 169: null_result = s2r_collect_demos(A(0, F.backend), A(1, &F.task_config), A(2, &F.expert_config), 1, 1, A(5, &F.dataset), A(6, F.i), A(7, F.error)); break;
    case 170: null_result = s2r_collect_unit_demos(S2R_ROBOT_UR5E, 1, A(2, &F.task_config), A(3, &F.expert_config), 1, 1, 1, A(7, &F.dataset), A(8, F.i), A(9, F.error)); break;
    case 171: null_result = s2r_clone_demos(A(0, &F.policy), A(1, &F.dataset), 0, 1, 1, A(5, F.error)); break;
    case 172: null_result = s2r_finetune_on_unit(A(0, &F.policy), A(1, &F.dataset), 1, 1, A(4, F.backend), A(5, &F.task_config), 1, 1, A(8, F.d), A(9, F.i), A(10, F.i), A(11, F.error)); break;
    case 173: null_result = s2r_adr_init(A(0, &F.adr), A(1, &F.adr_config), A(2, &F.randomization)); break;
    case 174: s2r_adr_free(A(0, &F.adr)); break;
    case 175: null_result = s2r_adr_write_csv(A(0, &F.adr), A(1, NULL_PATH), A(2, F.error)); break;
    case 176: null_result = s2r_train(A(0, &F.training), A(1, &F.ppo), A(2, F.error)); break;
    case 177: null_result = s2r_excitation_check(A(0, &F.excitation_config), A(1, F.error)); break;
    case 178: null_result = s2r_excitation_make(A(0, &F.excitation_config), A(1, &F.arm_info), 1, 0.02, A(4, &F.rng), A(5, F.d), A(6, F.d)); break;
    case 179: null_result = s2r_trajectory_set_init(A(0, &F.trajectory_set), 1, 1, 1, 0.02); break;
    case 180: s2r_trajectory_set_free(A(0, &F.trajectory_set)); break;
    case 181: null_result = s2r_trajectory_set_add_object(A(0, &F.trajectory_set)); break;
    case 182: null_result = s2r_trajectory_record(A(0, &F.trajectory_set), A(1, F.backend), A(2, F.d), A(3, F.d), A(4, F.d), A(5, &F.rng)); break;
    case 183: null_result = s2r_trajectory_collect(A(0, &F.trajectory_set), A(1, F.backend), A(2, &F.excitation_config), 1, 1); break;
    case 184: null_result = s2r_trajectory_collect_strikes(A(0, &F.trajectory_set), A(1, F.backend), 0.2, 1, 1); break;
    case 185: null_result = s2r_trajectory_set_check(A(0, &F.trajectory_set), 1, A(2, F.error)); break;
    case 186: null_result = s2r_trajectory_write_csv(A(0, &F.trajectory_set), 0, A(2, NULL_PATH), A(3, F.error)); break;
    case 187: null_result = s2r_trajectory_set_load_csv(A(0, &F.trajectory_set), A(1, F.paths), 1, 0.02, A(4, F.error)); break;
    case 188: null_result = s2r_trajectory_set_parse_csv(A(0, &F.trajectory_set), A(1, "x"), A(2, "kp"), 0.02, A(4, F.error)); break;
    case 189: (void)s2r_line_minimize(null_line_loss, A(1, F.bytes), 0, 1, 0.5, 0, 0.1, 0.01, A(8, F.d)); break;
    case 190: null_result = s2r_sysid_config_check(A(0, &F.sysid_config), A(1, F.error)); break;
    case 191: null_result = s2r_sysid_init(A(0, &F.sysid), A(1, &F.sysid_config), A(2, &F.sim_config)); break;
    case 192: s2r_sysid_free(A(0, &F.sysid)); break;
    case 193: null_result = s2r_sysid_loss(A(0, &F.sysid), A(1, F.d), A(2, &F.trajectory_set), A(3, F.d)); break;
    case 194: null_result = s2r_sysid_simulate(A(0, &F.sysid), A(1, F.d), A(2, &F.trajectory_set), 0, A(4, F.d), A(5, F.d)); break;
    case 195: null_result = s2r_sysid_run(A(0, &F.sysid), A(1, &F.trajectory_set), A(2, &F.trajectory_set), A(3, &F.sysid_result)); break;
    case 196: null_result = s2r_sysid_fixed(A(0, &F.sysid), A(1, &F.sysid_result), A(2, &F.randomization)); break;
    case 197: null_result = s2r_sysid_recentre(A(0, &F.sysid), A(1, &F.sysid_result), A(2, &F.randomization), A(3, &F.randomization)); break;
    case 198: s2r_sysid_print(A(0, &F.sysid), A(1, &F.sysid_result)); break;
    case 199: null_result = s2r_calibrate_camera(A(0, F.backend), 1, 1, 1, A(4, F.d), A(5, F.d), A(6, F.error)); break;
    case 200: null_result = s2r_calibrate_unit(S2R_ROBOT_UR5E, 1, 1, A(3, F.d), A(4, F.d), A(5, F.error)); break;
    case 201: null_result = s2r_identify_unit(A(0, F.backend), A(1, &F.identify_config), A(2, &F.randomization), A(3, &F.randomization), A(4, &F.randomization), A(5, &F.sysid_result), A(6, F.d), A(7, F.error)); break;
    case 202: null_result = s2r_identify_object(A(0, F.backend), A(1, &F.identify_config), A(2, F.d), A(3, &F.randomization), A(4, &F.randomization), A(5, &F.sysid_result), A(6, F.error)); break;
    case 203: null_result = s2r_safety_init(A(0, &F.safety), A(1, &F.safety_config), A(2, F.backend)); break;
    case 204: s2r_safety_free(A(0, &F.safety)); break;
    case 205: (void)s2r_safety_backend(A(0, &F.safety)); break;
    case 206: (void)s2r_safety_check(A(0, &F.safety), A(1, F.d), A(2, F.d)); break;
    case 207: (void)s2r_safety_filter_action(A(0, &F.safety), A(1, F.f), 1); break;
    case 208: null_result = s2r_safety_estop(A(0, &F.safety), A(1, "x")); break;
    case 209: (void)s2r_safety_episode_interventions(A(0, &F.safety)); break;
    case 210: null_result = s2r_safety_set_workspace_scale(A(0, &F.safety), 0.01); break;
    case 211: null_result = s2r_deploy_episode(A(0, &F.controller), A(1, &F.task), A(2, &F.safety), A(3, &F.rng), A(4, &F.episode_stats)); break;
    case 212: s2r_run_summary_add(A(0, &F.run_summary), A(1, &F.episode_stats)); break;
    case 213: (void)s2r_regression_suite_default(A(0, &F.cases_out)); break;
    case 214: s2r_regression_case_pose(A(0, F.cases), A(1, &F.arm_info), A(2, F.d), A(3, F.d)); break;
    case 215: null_result = s2r_regression_run(A(0, &F.controller), A(1, &F.task), A(2, F.cases), 1, 1, 1, A(6, &F.regression_result)); break;
    case 216: null_result = s2r_shadow_run(A(0, &F.controller), A(1, &F.controller), A(2, &F.task), A(3, &F.safety), 1, 1, 0.1, A(7, &F.shadow_stats), A(8, &F.deploy)); break;
    case 217: null_result = s2r_sprt_check(A(0, &F.sprt_config), A(1, F.error)); break;
    case 218: (void)s2r_sprt_decide(A(0, &F.sprt_config), 0, 1, A(3, F.d)); break;
    case 219: (void)s2r_gate_sprt(A(0, &F.gate_config), (s2r_stage)0); break;
    case 220: (void)s2r_gate_sim_regression(A(0, &F.gate_config), 1, 1); break;
    case 221: (void)s2r_gate_sysid(A(0, &F.gate_config), 0.001); break;
    case 222: (void)s2r_gate_shadow(A(0, &F.gate_config), A(1, &F.shadow_stats)); break;
    case 223: (void)s2r_gate_tethered(A(0, &F.gate_config), 1, 1); break;
    case 224: (void)s2r_gate_constrained(A(0, &F.gate_config), 1, 1, 0); break;
    case 225: (void)s2r_gate_canary(A(0, &F.gate_config), 1, 1, 1, 1); break;
    case 226: (void)s2r_gate_canary_pairs(A(0, &F.gate_config), 1, 0, 0); break;
    case 227: null_result = s2r_stage_run(A(0, &F.controller), A(1, &F.task), A(2, &F.safety), A(3, &F.gate_config), (s2r_stage)0, 1, 1, A(7, &F.run_summary), A(8, &F.gate_result)); break;
    case 228: null_result = s2r_gate_oc(A(0, &F.gate_config), (s2r_stage)0, 0.5, A(3, F.d), A(4, F.d), A(5, F.i)); break;
    case 229: s2r_gate_plan_print(A(0, &F.gate_config), (s2r_stage)0); break;
    case 230: null_result = s2r_drift_init(A(0, &F.drift), A(1, &F.drift_config), A(2, F.error)); break;
    case 231: (void)s2r_drift_update(A(0, &F.drift), 0.5); break;
    case 232: (void)s2r_drift_level(A(0, &F.drift)); break;
    case 233: null_result = s2r_monitor_init(A(0, &F.monitor), A(1, &F.monitor_config)); break;
    case 234: (void)s2r_monitor_update(A(0, &F.monitor), A(1, &F.episode_stats)); break;
    case 235: null_result = s2r_deploy_init(A(0, &F.deploy), A(1, &F.deploy_config), A(2, "x"), A(3, NULL_PATH)); break;
    case 236: s2r_deploy_free(A(0, &F.deploy)); break;
    case 237: null_result = s2r_deploy_apply(A(0, &F.deploy), A(1, &F.gate_result)); break;
    case 238: null_result = s2r_deploy_alarm(A(0, &F.deploy), 1, 1, A(3, "x")); break;
    case 239: null_result = s2r_deploy_note(A(0, &F.deploy), A(1, "x"), A(2, "x"), "x"); break;
    case 240: null_result = s2r_dataset_save(A(0, &F.dataset), A(1, NULL_PATH), A(2, F.error)); break;
    case 241: null_result = s2r_dataset_load(A(0, &F.dataset), A(1, NULL_PATH), A(2, F.error)); break;
    case 242: null_result = s2r_dataset_unpack(A(0, &F.dataset), A(1, (const unsigned char*)"S2RD"), 4, A(3, "x"), A(4, F.error)); break;
    case 243: null_result = s2r_training_check_resume(A(0, &F.training), A(1, &F.ppo), A(2, F.error)); break;
    case 244: case 245: case 246: case 247: case 248: case 249: {   /* the socket backend, on no robot */
        static s2r_socket_message message;
        static s2r_socket_robot robot;
        s2r_socket_config sc = s2r_socket_config_default();
        s2r_socket_serve_config serve = s2r_socket_serve_config_default();
        sc.address = "build/no_such_socket_dir/robot.sock";
        serve.address = "build/no_such_socket_dir/robot.sock";   /* cannot be served: an error at once */
        if (f == 244) null_result = s2r_socket_parse(A(0, F.bytes), 16, A(2, &message), A(3, F.error));
        if (f == 245) (void)s2r_socket_pack(A(0, &message), A(1, F.bytes));
        if (f == 246) null_result = s2r_socket_robot_connect(A(0, &robot), A(1, &sc));
        if (f == 247) (void)s2r_socket_robot_backend(A(0, &robot));
        if (f == 248) s2r_socket_robot_close(A(0, &robot));
        if (f == 249) null_result = s2r_socket_serve(A(0, F.backend), A(1, &serve), A(2, F.error));
        break;
    }
    case 250: (void)s2r_takeover_decide(A(0, &F.takeover_rule), A(1, &F.operator_view), 0); break;
    case 251: null_result = s2r_collect_unit_interventions(A(0, &F.controller), S2R_ROBOT_UR5E, 1, A(3, &F.task_config), A(4, &F.expert_config), A(5, &F.takeover_rule), 1, 1, 1, A(9, &F.dataset), A(10, &F.intervention_episode), A(11, F.error)); break;
    case 252: null_result = s2r_hg_dagger_init(A(0, &F.hg_dagger), A(1, &F.hg_dagger_config), A(2, &F.policy), S2R_ROBOT_UR5E, 1, A(5, &F.task_config)); break;
    case 253: s2r_hg_dagger_free(A(0, &F.hg_dagger)); break;
    case 254: null_result = s2r_hg_dagger_round(A(0, &F.hg_dagger), A(1, &F.hg_dagger_stats)); break;
    case 255: null_result = s2r_dataset_end_episode(A(0, &F.dataset), 1); break;
    case 256: null_result = s2r_dataset_append_episodes(A(0, &F.dataset), A(1, &F.dataset), 0, 0, 1, A(5, F.i)); break;
    case 257: null_result = s2r_policy_add_history(A(0, &F.policy), A(1, &F.policy)); break;
    case 258: s2r_randomization_add_calibration(A(0, &F.randomization)); break;
    case 259: (void)s2r_trajectory_length(A(0, &F.trajectory_set), 0); break;
    case 260: (void)s2r_trajectory_set_qd_measured(A(0, &F.trajectory_set)); break;
    case 261: null_result = s2r_excitation_write_csv(A(0, NULL_PATH), A(1, &F.excitation_config), A(2, &F.arm_info),
                                                     A(3, F.d), A(4, F.d), 1, 0.02, A(7, F.error)); break;
    case 262: null_result = s2r_excitation_load_csv(A(0, &F.trajectory_set), A(1, NULL_PATH), 0.02, A(3, F.error)); break;
    case 263: null_result = s2r_excitation_parse_csv(A(0, &F.trajectory_set), A(1, "x"), A(2, "kp"), 0.02, A(4, F.error)); break;
    case 264: (void)s2r_task_config_of(A(0, &F.task)); break;
    case 265: s2r_task_servo_targets(A(0, &F.task), A(1, F.f), A(2, F.d)); break;
    case 266: (void)s2r_regression_suite_for(S2R_TASK_PUSH, A(1, &F.cases_out)); break;
    case 267: (void)s2r_dist_std(A(0, &F.dist)); break;
    case 268: s2r_mean_interval(A(0, F.d), 2, A(2, F.d), A(3, F.d), A(4, F.d)); break;
    case 269: null_result = s2r_record_begin(A(0, &F.record), A(1, "a title"), 1, 2); break;
    case 270: null_result = s2r_record_add(A(0, &F.record), A(1, "line,%d"), 1); break;
    case 271: null_result = s2r_record_save(A(0, &F.record), A(1, NULL_PATH), A(2, F.error)); break;
    case 272: null_result = s2r_record_load(A(0, &F.record), A(1, NULL_PATH), 1, 2, A(4, F.error)); break;
    case 273: null_result = s2r_record_parse(A(0, &F.record), A(1, "x\n"), 2, A(3, "x"), 1, 2, A(6, F.error)); break;
    case 274: (void)s2r_record_line(A(0, &F.record), 0, A(2, F.i)); break;
    case 275: s2r_record_free(A(0, &F.record)); break;
    case 276: null_result = s2r_sim_set_timestep(A(0, &F.sim), 0.004); break;
    case 277: null_result = s2r_ppo_anchor(A(0, &F.ppo), A(1, &F.ppo.policy), 1.0f); break;
    case 278: null_result = s2r_finetune_by_rl(A(0, &F.policy), A(1, F.backend), A(2, &F.task_config), A(3, &F.rl_config), A(4, &F.rl_result), A(5, F.error)); break;
    case 279: (void)s2r_socket_arm_digest(A(0, &F.arm_info)); break;
    case 280: null_result = s2r_backend_settle(A(0, F.backend), A(1, F.d), 0.02, 0.01, 0.1, A(5, &F.sensors), A(6, F.d + 64), A(7, F.error)); break;
    case 281: null_result = s2r_trajectory_collect_at_rest(A(0, &F.trajectory_set), A(1, F.backend), A(2, &F.excitation_config), 1, 1, A(5, F.d + 64)); break;
    case 282: (void)s2r_trajectory_set_find_same(A(0, &F.trajectory_set), A(1, &F.trajectory_set), 0); break;
    }
}

/* Arguments where NULL is a documented choice ("function index"): an
   `error` buffer (the message is dropped), a start pose (home), a target
   (kept), an rng (the draw kept), an optimizer (none), an output a caller
   may not want (a distance curve, a success count, a spread), no
   validation set, no safety monitor, no object... */
static const char* const null_documented[] = {
    "s2r_file_create 2", "s2r_file_write_all 3", "s2r_robot_reset 1", "s2r_dist_check 1", "s2r_param_range_check 2",
    "s2r_randomization_check 1", "s2r_randomization_write 2", "s2r_noise_config_check 1", "s2r_backend_reset 1",
    "s2r_backend_reset 2", "s2r_backend_reset 3", "s2r_reach_reset_to 1", "s2r_reach_reset_to 2",
    "s2r_reach_reset_to 3", "s2r_expert_act 2", "s2r_expert_act 4", "s2r_policy_act 4", "s2r_adam_init 2",
    "s2r_policy_save 1", "s2r_policy_load 1", "s2r_checkpoint_shape 2",
    "s2r_policy_from_checkpoint 2", "s2r_evaluate 5", "s2r_evaluate_sim_and_real 3", "s2r_evaluate_sim_and_real 9",
    "s2r_sim_real_eval_write 3", "s2r_predict_transfer 7", "s2r_attribute_gap 7",
    "s2r_collect_demos 6", "s2r_collect_demos 7", "s2r_collect_unit_demos 8", "s2r_collect_unit_demos 9",
    "s2r_adr_write_csv 2", "s2r_train 2", "s2r_excitation_check 1", "s2r_trajectory_record 3",
    "s2r_trajectory_write_csv 3", "s2r_trajectory_set_load_csv 4", "s2r_sysid_config_check 1", "s2r_sysid_run 2",
    "s2r_calibrate_camera 5", "s2r_calibrate_camera 6", "s2r_calibrate_unit 4", "s2r_calibrate_unit 5",
    "s2r_identify_unit 4", "s2r_identify_unit 7", "s2r_safety_estop 1",
    "s2r_deploy_episode 2", "s2r_sprt_check 1", "s2r_drift_init 2", "s2r_deploy_init 2",
    "s2r_deploy_init 3", "s2r_deploy_alarm 3", "s2r_deploy_note 1", "s2r_deploy_note 2", "s2r_dataset_save 2",
    "s2r_dataset_load 2", "s2r_training_check_resume 2",
    "s2r_socket_parse 3", "s2r_socket_serve 2",
    "s2r_collect_unit_interventions 10", "s2r_collect_unit_interventions 11",
    "s2r_dataset_append_episodes 5", "s2r_excitation_write_csv 7",
    "s2r_excitation_load_csv 3", "s2r_record_begin 1", "s2r_record_save 2", "s2r_record_load 4", "s2r_record_parse 6",
    "s2r_record_line 2", "s2r_finetune_by_rl 4", "s2r_finetune_by_rl 5",
    "s2r_backend_settle 5", "s2r_backend_settle 6", "s2r_backend_settle 7", "s2r_trajectory_collect_at_rest 5",
};

static int null_is_documented(const char* name, int k) {
    char key[96];
    int i;
    snprintf(key, sizeof key, "%s %d", name, k);
    for (i = 0; i < (int)(sizeof null_documented / sizeof *null_documented); i++)
        if (strcmp(null_documented[i], key) == 0) return 1;
    return 0;
}

/* The fixtures: one of everything, working together (the UR5e's reach). */
static int null_setup(void) {
    int obs_dim, act_dim, hidden[1] = {8};
    memset(&F, 0, sizeof F);
    F.rng = s2r_rng_make(1, 0);
    F.sim_config = s2r_sim_config_default(S2R_ROBOT_UR5E);
    if (s2r_sim_init(&F.sim, &F.sim_config) != S2R_OK) return __LINE__;
    F.backend = &F.sim.backend;
    F.arm_info = *F.backend->info;
    F.sim_draw = F.sim.draw;
    if (s2r_robot_load(&F.robot, S2R_ROBOT_UR5E) != S2R_OK) return __LINE__;
    F.model = F.robot.model;
    F.data = F.robot.data;
    F.reach_config = s2r_reach_config_default();
    if (s2r_reach_init(&F.reach, &F.reach_config, F.backend) != S2R_OK) return __LINE__;
    F.push_config = s2r_push_config_default();
    {
        s2r_sim_config c = s2r_task_sim_config(S2R_TASK_PUSH, S2R_ROBOT_UR5E);
        if (s2r_sim_init(&F.push_sim, &c) != S2R_OK) return __LINE__;
    }
    if (s2r_push_init(&F.push, &F.push_config, &F.push_sim.backend) != S2R_OK) return __LINE__;
    if (s2r_push_reset(&F.push, &F.rng, F.f) != S2R_OK) return __LINE__;   /* an episode open */
    F.task_config = s2r_task_config_default(S2R_TASK_REACH);
    if (s2r_task_init(&F.task, &F.task_config, F.backend) != S2R_OK) return __LINE__;
    F.expert_config = s2r_expert_config_default();
    if (s2r_expert_init(&F.expert, &F.expert_config, &F.task_config, &F.arm_info) != S2R_OK) return __LINE__;
    F.controller = s2r_expert_controller(&F.expert);
    if (s2r_reach_reset(&F.reach, &F.rng, F.f) != S2R_OK) return __LINE__;   /* an episode open: steps reach their checks */
    F.env = s2r_reach_env(&F.reach);
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    F.policy_shape.obs_dim = obs_dim; F.policy_shape.act_dim = act_dim;
    F.policy_shape.num_hidden = 1; F.policy_shape.hidden[0] = 8;
    if (s2r_policy_init(&F.policy, &F.policy_shape, -0.5f, 10.0f, &F.rng) != S2R_OK) return __LINE__;
    if (s2r_mlp_layout(&F.mlp, obs_dim, 1, hidden, act_dim, F.error) != S2R_OK) return __LINE__;
    if (s2r_adam_init(&F.adam, 16, F.error) != S2R_OK) return __LINE__;
    F.ppo_config = s2r_task_ppo_config(S2R_TASK_REACH, 1024, 1, 1);
    F.ppo_config.rollout_steps = 1024;
    if (s2r_ppo_init(&F.ppo, &F.ppo_config, obs_dim, act_dim) != S2R_OK) return __LINE__;
    F.bc_config = s2r_bc_config_default();
    if (s2r_bc_init(&F.bc, &F.bc_config, &F.policy) != S2R_OK) return __LINE__;
    if (s2r_dataset_init(&F.dataset, obs_dim, act_dim) != S2R_OK) return __LINE__;
    if (s2r_record_begin(&F.record, "a title", 1, 2) != S2R_OK || s2r_record_add(&F.record, "a,1") != S2R_OK)
        return __LINE__;
    F.training = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    F.training.progress = 0;
    F.adr_config = s2r_adr_config_default();
    F.randomization = s2r_randomization_default();
    if (s2r_adr_init(&F.adr, &F.adr_config, &F.randomization) != S2R_OK) return __LINE__;
    F.dist = s2r_dist_uniform(0, 1);
    F.param_range = F.randomization.p[S2R_PARAM_KP];
    F.noise_config = s2r_noise_config_none();
    if (s2r_delay_init(&F.delay_line, 6, 8) != S2R_OK) return __LINE__;
    s2r_delay_jitter_init(&F.delay_jitter, 2, 1, 8);
    if (s2r_sample_hold_init(&F.sample_hold, 0.01) != S2R_OK) return __LINE__;
    if (s2r_real_robot_init(&F.real_robot, S2R_ROBOT_UR5E, 1) != S2R_OK) return __LINE__;
    if (s2r_real_unit_draw(&F.arm_info, 1, &F.real_unit) != S2R_OK) return __LINE__;
    if (s2r_frame_history_init(&F.frame_history, obs_dim, act_dim, 2) != S2R_OK) return __LINE__;
    if (s2r_history_env_init(&F.history_env, &F.env, 2) != S2R_OK) return __LINE__;
    {
        s2r_controller any = F.controller;   /* sizes 0 0: any (the expert is no history policy) */
        any.obs_dim = any.act_dim = 0;
        if (s2r_history_controller_init(&F.history_controller, &any, obs_dim, act_dim, 2) != S2R_OK) return __LINE__;
    }
    s2r_pendulum_init(&F.pendulum);
    F.excitation_config = s2r_excitation_config_default();
    if (s2r_trajectory_set_init(&F.trajectory_set, 6, 10, 2, 0.02) != S2R_OK) return __LINE__;
    if (s2r_trajectory_collect(&F.trajectory_set, F.backend, &F.excitation_config, 1, 1) != S2R_OK) return __LINE__;
    F.sysid_config = s2r_sysid_config_default();
    F.sysid_config.max_sweeps = 1;
    if (s2r_sysid_init(&F.sysid, &F.sysid_config, &F.sim_config) != S2R_OK) return __LINE__;
    F.identify_config = s2r_identify_config_default();
    F.safety_config = s2r_safety_config_default();
    if (s2r_safety_init(&F.safety, &F.safety_config, F.backend) != S2R_OK) return __LINE__;
    s2r_regression_suite_default(&F.cases);
    F.gate_config = s2r_gate_config_default();
    F.sprt_config = s2r_gate_sprt(&F.gate_config, (s2r_stage)0);
    F.drift_config = s2r_drift_config_default((s2r_drift_kind)0);
    if (s2r_drift_init(&F.drift, &F.drift_config, F.error) != S2R_OK) return __LINE__;
    F.monitor_config = s2r_monitor_config_default();
    if (s2r_monitor_init(&F.monitor, &F.monitor_config) != S2R_OK) return __LINE__;
    F.deploy_config = s2r_deploy_config_default();
    if (s2r_deploy_init(&F.deploy, &F.deploy_config, "policy", NULL_PATH ".log") != S2R_OK) return __LINE__;
    if (!(F.stream = tmpfile())) return __LINE__;
    F.paths[0] = NULL_PATH;
    F.takeover_rule = s2r_takeover_rule_default(S2R_TASK_REACH);
    F.rl_config = s2r_rl_finetune_config_default();
    F.hg_dagger_config = s2r_hg_dagger_config_default(S2R_TASK_REACH);
    F.hg_dagger_config.episodes_per_round = F.hg_dagger_config.epochs = 1;
    F.hg_dagger_config.canary_episodes = 0;
    if (s2r_hg_dagger_init(&F.hg_dagger, &F.hg_dagger_config, &F.policy, S2R_ROBOT_UR5E, 1, &F.task_config) != S2R_OK)
        return __LINE__;
    return 0;
}

/* What the call with argument k NULL did: 0 returned an error, 1 returned
   S2R_OK, 2 returned (no error to give), or -signal. */
static int null_probe(int f, int k) {
    pid_t pid;
    int status;
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(3);   /* what the calls print (an
                                                                                       assertion's message) is not the test's */
        alarm(30);
        null_k = k;
        null_result = S2R_OK;
        null_call(f);
        _exit(null_cases[f].kind != NULL_RESULT ? 2 : null_result == S2R_OK ? 1 : 0);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1000;
    return WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
}

static int test_null_rule_every_function(void) {
    int f, k, bad = 0;
    int line = null_setup();
    CHECKF(line == 0, "fixtures, line %d: %s", line, F.error);
    for (f = 0; f < (int)(sizeof null_cases / sizeof *null_cases); f++)
        for (k = 0; k < 32; k++) {
            const null_case* c = &null_cases[f];
            int got, object = k == 0 && c->object;
            if (!(c->pointers & (1u << k)) || null_is_documented(c->name, k)) continue;
            got = null_probe(f, k);
            if (got == 0 || got == 2) continue;                                  /* an error, or nothing to report */
            if (got == -SIGABRT && object && strstr(c->name, "_free")) {         /* freeing NULL does nothing */
                printf("    %s(NULL): S2R_ASSERT (freeing NULL does nothing)\n", c->name);
                bad++;
                continue;
            }
            if (got == -SIGABRT && (object || c->kind != NULL_RESULT)) continue;   /* S2R_ASSERT */
            printf("    %s, argument %d NULL: %s\n", c->name, k, got == 1 ? "returned S2R_OK" : got == -SIGABRT ?
                   "S2R_ASSERT (an error is due)" : got == -SIGALRM ? "still running after 30 s" : "crashed");
            bad++;
        }
    CHECKF(bad == 0, "%d NULL arguments break the rule", bad);
    return 0;
}

/* Every S2RDEF declaration of the header and of its companions beside it
   that takes a pointer is in null_cases: read from their declarations
   (before the implementation), so a new function cannot escape the test. */
static int test_null_rule_covers_the_header(void) {
    static const char* const headers[] = {"sim2real.h", "sim2real_socket.h", "sim2real_jobs.h", "sim2real_logs.h",
                                          "sim2real_analysis.h", "sim2real_reports.h", "sim2real_rl_finetune.h"};
    static char text[1 << 21];
    int missing = 0, k;
    for (k = 0; k < (int)(sizeof headers / sizeof *headers); k++) {
        FILE* h = fopen(headers[k], "rb");
        char *at, *end;
        size_t n;
        CHECKF(h != NULL, "%s", headers[k]);
        n = fread(text, 1, sizeof text - 1, h);
        fclose(h);
        text[n] = '\0';
        end = strstr(text, "#if defined(SIM2REAL_IMPLEMENTATION)");
        CHECKF(end != NULL, "%s has no implementation part", headers[k]);
        for (at = strstr(text, "\nS2RDEF "); at && at < end; at = strstr(at + 1, "\nS2RDEF ")) {
            char *open = strchr(at, '('), *close = open ? strchr(open, ')') : NULL, *name;
            char fn[96];
            size_t len;
            int f, found = 0;
            if (!open || !close) continue;
            for (name = open; name > at && (name[-1] == '_' || isalnum((unsigned char)name[-1])); name--) {}
            len = (size_t)(open - name);
            if (len == 0 || len >= sizeof fn) continue;
            memcpy(fn, name, len);
            fn[len] = '\0';
            if (!memchr(open, '*', (size_t)(close - open)) && !memchr(open, '[', (size_t)(close - open))) continue;
            for (f = 0; f < (int)(sizeof null_cases / sizeof *null_cases) && !found; f++) found = strcmp(null_cases[f].name, fn) == 0;
            if (!found) { printf("    %s (%s) takes a pointer and is not in null_cases\n", fn, headers[k]); missing++; }
        }
    }
    CHECKF(missing == 0, "%d functions missing from the NULL rule's table", missing);
    return 0;
}

static const test_case null_rule_tests[] = {
    {"null rule: the table holds every public function taking a pointer", test_null_rule_covers_the_header},
    {"null rule: every public function, each pointer NULL in turn: an error or S2R_ASSERT, never a crash", test_null_rule_every_function},
};
#else
static const test_case null_rule_tests[] = {{"null rule: (POSIX only)", NULL}};
#endif
