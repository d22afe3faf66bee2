/* sim2real_rl_finetune.h - the robot's own episodes: a policy fine-tuned
                            by RL on the unit it runs on
                            (a companion header of sim2real.h)

   Demonstrations and interventions fine-tune a policy from an operator;
   this fine-tunes it from the unit's own episodes, by PPO through the
   backend, with a reward a real cell can give and the same canary as
   s2r_finetune_on_unit.  Example 07's RL rows are its one user: the recipe
   does not need it to run, and it is built from the core's PPO (the KL
   anchor, s2r_ppo_anchor), tasks and canary.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_rl_finetune.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_rl_finetune.h"
#endif
#ifndef SIM2REAL_RL_FINETUNE_H
#define SIM2REAL_RL_FINETUNE_H

/* --- The robot's own episodes: RL fine-tuning on the unit -----------------
   Demonstrations and interventions learn from the operator; the episodes
   the policy itself runs on the unit teach nothing there.  RL fine-tuning
   makes them the signal (Julian et al. 2020, "Never stop learning"; Smith
   et al. 2022, legged robots that keep on learning): PPO continues the
   policy on the unit, through the backend only, for a budget of real
   episodes, with a small constant learning rate and a KL anchor to the
   policy it started from (s2r_ppo_anchor), and a canary on the unit keeps
   the result only if it beats the policy as it was.

   The reward is one a real cell can give, nothing the simulator alone
   knows:
     label    label_weight at the end of an episode a person judges a
              success (the puck on the goal, the flange held on the
              target), 0 at every other step.  Unbiased - it is the
              success the table counts - and sparse: a batch in which no
              episode succeeded holds no signal, and is reported
              (result.skipped) and not trained on when it is the only
              reward.  (SERL, Luo et al. 2024, learns a classifier to give
              this label without a person; here the person gives it.)
     camera   camera_weight x -d / 0.1 m at every step, d what the robot's
              camera says is left to do: push, the perceived object to the
              perceived goal (both through the one camera, so a constant
              calibration offset cancels in the difference; its delay,
              noise and missed frames do not - the puck is where it was a
              frame ago); reach, the perceived target to the flange from
              the encoders (the camera's offset left after calibration is
              in it: the reward is highest that far from the true target).
   Both may be given (weights add); neither, S2R_ERR_INVALID_ARGUMENT.
   The task still judges itself from the backend's ground truth, as on
   every backend; of that judgement the fine-tuning reads only the label
   at an episode's end, and whether the episode ended early (the puck off
   the table, the physics diverged: a person sees it too).  An episode's
   end is terminal (the label is its last reward).  An episode the task
   ends early is padded to its full length without touching the unit
   (reward 0, label 0), so every PPO batch is whole episodes and the unit
   runs exactly `episodes` of them; the canary's run on top, counted in
   result.canary_episodes.
   The critic starts as the policy's, trained on the simulator's reward;
   the observation normalizer goes on updating, as in training. */
typedef struct s2r_rl_finetune_config {
    int      episodes;            /* real episodes to learn from, the budget: a
                                     whole number of batches; 100           */
    int      episodes_per_update; /* episodes per PPO batch (one update); 10 */
    double   label_weight;        /* reward of a success label at an episode's
                                     end, >= 0; 1                           */
    double   camera_weight;       /* weight of the camera's shaped reward per
                                     step, >= 0; 0                          */
    float    learning_rate;       /* Adam step, constant (a tenth of the
                                     warm trainings' 3e-4); 3e-5            */
    float    kl_anchor;           /* weight of KL(pi || the policy it started
                                     from) in the loss, > 0; 1              */
    int      update_epochs;       /* passes over a batch; 5                 */
    int      canary_episodes;     /* per policy at most (the sequential rule
                                     of s2r_canary_keep_sprt), >= 1; 50     */
    uint64_t seed;                /* PPO's streams: episode starts, action
                                     noise, minibatches; 1                  */
    uint64_t canary_seed;         /* the canary's episodes; 2               */
    void   (*on_update)(void* context, s2r_policy* now, int episodes_spent);
                                  /* after every batch (trained on or not):
                                     the policy as it now is (read it, do not
                                     change it) and the unit episodes spent
                                     so far; NULL                           */
    void*    on_update_context;   /* passed to on_update; NULL              */
} s2r_rl_finetune_config;

/* What a fine-tune reported.  flags: S2R_RL_NO_SUCCESS - no episode was
   labelled a success, so with the label as the only reward nothing was
   trained and the policy is as it was (no canary ran). */
enum { S2R_RL_NO_SUCCESS = 1 };
typedef struct s2r_rl_finetune_result {
    int      episodes;         /* unit episodes learnt from (the budget)         */
    int      updates;          /* PPO updates applied                            */
    int      skipped;          /* batches with no success label, not trained on  */
    int      labelled;         /* episodes labelled a success                    */
    float    anchor_kl;        /* last update's mean KL to the starting policy   */
    double   canary_finetune;  /* canary success of the fine-tune, and           */
    double   canary_policy;    /* of the policy as it was; -1 when not run       */
    int      canary_episodes;  /* unit episodes the canary ran (both policies)   */
    int      kept;             /* 1: the fine-tune is the policy now             */
    unsigned flags;            /* S2R_RL_*                                       */
} s2r_rl_finetune_result;

S2RDEF s2r_rl_finetune_config s2r_rl_finetune_config_default(void);
/* Fine-tune `policy` (in place; no memory, no privileged critic) by PPO on
   the unit behind `robot`, running `task` (with the camera calibration the
   policy runs with).  out: NULL or the report.  Bad input is
   S2R_ERR_INVALID_ARGUMENT naming the field, before the unit runs: a
   budget smaller than one batch, or not a whole number of them; a KL
   anchor of 0 or below; negative or no reward weights.  On an error the
   policy is as it was. */
S2RDEF s2r_result s2r_finetune_by_rl(s2r_policy* policy, const s2r_backend* robot, const s2r_task_config* task,
                                     const s2r_rl_finetune_config* config, s2r_rl_finetune_result* out,
                                     char* error);

#endif /* SIM2REAL_RL_FINETUNE_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_RL_FINETUNE_IMPLEMENTATION_DONE
#error "sim2real_rl_finetune.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_RL_FINETUNE_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_rl_finetune.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* --- The robot's own episodes -------------------------------------------------
   Flow: s2r_finetune_by_rl checks the config, puts the policy into a PPO
   trainer anchored to it, wraps the task on the unit in the cell's reward
   (s2r__cell_env: the label and the camera, whole episodes, the budget),
   then per batch collects and, when the batch holds a signal, updates;
   then the canary (s2r__rl_canary). */

S2RDEF s2r_rl_finetune_config s2r_rl_finetune_config_default(void) {
    s2r_rl_finetune_config c;
    memset(&c, 0, sizeof c);
    c.episodes = 100;
    c.episodes_per_update = 10;
    c.label_weight = 1.0;
    c.camera_weight = 0.0;
    c.learning_rate = 3e-5f;
    c.kl_anchor = 1.0f;
    c.update_epochs = 5;
    c.canary_episodes = 50;
    c.seed = 1;
    c.canary_seed = 2;
    return c;
}

/* The task on the unit as a real cell sees it: the reward from the label
   and the camera only, every episode padded to its full length, and no
   episode started past the budget. */
typedef struct s2r__cell_env {
    s2r_task* task;
    double    label_weight, camera_weight;
    int       episode_steps;   /* policy steps of a whole episode             */
    int       budget;          /* episodes the unit may run                   */
    int       started;         /* episodes the unit has run (or is running)   */
    int       labelled;        /* of them, labelled a success                 */
    int       batch_labelled;  /* since the caller last set it to 0           */
    int       step;            /* steps into the running episode              */
    int       ended;           /* the task ended it early: padding            */
    float     last_obs[S2R_MLP_MAX_WIDTH];
} s2r__cell_env;

/* The camera's distance (m) of what is left to do, from the observation
   (layouts: s2r_push, s2r_reach). */
static double s2r__cell_camera_distance(const s2r__cell_env* c, const float* obs) {
    int n = (c->task->env.obs_dim - 9) / 4, push = c->task->kind == S2R_TASK_PUSH;
    const float* left = push ? obs + 10 : obs + 3 * n + 6;   /* goal - object; target - flange */
    double d2 = 0;
    int i;
    for (i = 0; i < (push ? 2 : 3); i++) d2 += (double)left[i] * left[i];
    return sqrt(d2);
}

static s2r_result s2r__cell_reset(void* self, s2r_rng* rng, float* obs) {
    s2r__cell_env* c = (s2r__cell_env*)self;
    s2r_result res;
    size_t bytes = sizeof(float) * (size_t)c->task->env.obs_dim;
    if (c->started >= c->budget) {   /* the budget is spent: no episode starts (PPO resets after the last) */
        memcpy(obs, c->last_obs, bytes);
        return S2R_OK;
    }
    if ((res = c->task->env.reset(c->task->env.self, rng, obs)) != S2R_OK) return res;
    memcpy(c->last_obs, obs, bytes);
    c->started++;
    c->step = 0;
    c->ended = 0;
    return S2R_OK;
}

static s2r_result s2r__cell_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    s2r__cell_env* c = (s2r__cell_env*)self;
    s2r_step_result r;
    size_t bytes = sizeof(float) * (size_t)c->task->env.obs_dim;
    double reward = 0;
    int label = 0;
    memset(&r, 0, sizeof r);
    if (!c->ended) {
        s2r_result res = c->task->env.step(c->task->env.self, action, obs, &r);
        if (res != S2R_OK) return res;
        memcpy(c->last_obs, obs, bytes);
        reward = -c->camera_weight * s2r__cell_camera_distance(c, obs) / 0.1;
    } else {
        memcpy(obs, c->last_obs, bytes);   /* padding: the unit is not touched */
    }
    c->step++;
    if (!c->ended && r.done && c->step < c->episode_steps) c->ended = 1;   /* ended early: a failure */
    else if (!c->ended && r.done) label = r.success;                     /* the person's label */
    memset(out, 0, sizeof *out);
    out->done = out->terminated = c->step >= c->episode_steps;
    if (out->done) {
        out->success = label;
        reward += c->label_weight * label;
        c->labelled += label;
        c->batch_labelled += label;
    }
    out->reward = (float)reward;
    return S2R_OK;
}

/* The config's fields in range, and the policy one PPO can continue. */
static s2r_result s2r__rl_check(const s2r_policy* policy, const s2r_rl_finetune_config* c, char* error) {
    if (c->episodes_per_update < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: episodes_per_update must be >= 1, not %d",
                         c->episodes_per_update);
    if (c->episodes < c->episodes_per_update)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: a budget of %d episodes is smaller than one "
                         "PPO batch of %d (episodes_per_update); nothing was run", c->episodes, c->episodes_per_update);
    if (c->episodes % c->episodes_per_update != 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: a budget of %d episodes is not a whole number "
                         "of PPO batches of %d", c->episodes, c->episodes_per_update);
    if (!(c->kl_anchor > 0.0f) || !isfinite(c->kl_anchor))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: the KL anchor must be finite and > 0, not %g",
                         (double)c->kl_anchor);
    if (!(c->learning_rate > 0.0f) || !isfinite(c->learning_rate) || c->update_epochs < 1 || c->canary_episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: need learning_rate > 0, update_epochs >= 1 "
                         "and canary_episodes >= 1");
    if (!(c->label_weight >= 0) || !(c->camera_weight >= 0) || !isfinite(c->label_weight) ||
        !isfinite(c->camera_weight) || c->label_weight + c->camera_weight <= 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning: label_weight and camera_weight must be finite "
                         "and >= 0, and one of them > 0 (the reward)");
    if (policy->history > 0 || policy->shape.privileged > 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "RL fine-tuning continues a policy without memory or a "
                         "privileged critic");
    return S2R_OK;
}

/* A trainer holding a copy of `policy` (its parameters and normalizer),
   anchored to it: batches of whole episodes of one unit. */
static s2r_result s2r__rl_trainer(s2r_ppo* ppo, const s2r_policy* policy, const s2r_rl_finetune_config* c,
                                  int episode_steps, char* error) {
    s2r_ppo_config pc = s2r_ppo_config_default();
    const s2r_normalizer* from = &policy->norm;
    s2r_result res;
    pc.total_steps = (long long)c->episodes * episode_steps;
    pc.num_envs = 1;
    pc.rollout_steps = c->episodes_per_update * episode_steps;
    pc.num_minibatches = c->episodes_per_update;   /* an episode's worth of steps each */
    pc.update_epochs = c->update_epochs;
    pc.learning_rate = c->learning_rate;
    pc.anneal_lr = 0;                              /* a prefix of a longer run is the shorter run */
    pc.num_hidden = policy->shape.num_hidden;
    memcpy(pc.hidden, policy->shape.hidden, sizeof pc.hidden);
    pc.actor_activation = policy->shape.actor_activation;
    pc.critic_activation = policy->shape.critic_activation;
    pc.obs_clip = (float)from->clip;
    pc.seed = c->seed;
    if ((res = s2r_ppo_init(ppo, &pc, policy->shape.obs_dim, policy->shape.act_dim)) != S2R_OK)
        return s2r__fail(error, res, "RL fine-tuning: %s", ppo->error);
    memcpy(ppo->policy.params, policy->params, sizeof(float) * (size_t)policy->num_params);
    memcpy(ppo->policy.norm.mean, from->mean, sizeof(double) * (size_t)from->dim);
    memcpy(ppo->policy.norm.var, from->var, sizeof(double) * (size_t)from->dim);
    ppo->policy.norm.count = from->count;
    ppo->policy.made_for = policy->made_for;
    ppo->policy.randomization = policy->randomization;
    if ((res = s2r_ppo_anchor(ppo, policy, c->kl_anchor)) != S2R_OK)
        return s2r__fail(error, res, "RL fine-tuning: %s", ppo->error);
    return S2R_OK;
}

/* The canary: the fine-tune against the policy as it was on the same unit
   episodes, by the demonstration fine-tunes' sequential rule
   (s2r__canary_run, s2r_canary_keep_sprt: kept only if shown better); a
   fine-tune kept replaces the policy whole (actor, normalizer, critic). */
static s2r_result s2r__rl_canary(s2r_policy* policy, s2r_ppo* ppo, const s2r_backend* robot,
                                 const s2r_task_config* task, const s2r_rl_finetune_config* c,
                                 s2r_rl_finetune_result* out, char* error) {
    size_t n = (size_t)policy->num_actor_params, dim = (size_t)policy->norm.dim;
    float* sets[2];
    s2r_normalizer norms[2];   /* the policy's as it was (a copy), the fine-tune's */
    s2r__canary canary;
    s2r_task unit;
    s2r_result res;
    sets[0] = (float*)S2R_MALLOC(2 * n * sizeof(float));
    norms[0] = policy->norm;
    norms[0].mean = (double*)S2R_MALLOC(2 * dim * sizeof(double));
    if (!sets[0] || !norms[0].mean) {
        S2R_FREE(sets[0]);
        S2R_FREE(norms[0].mean);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "RL fine-tuning: out of memory");
    }
    sets[1] = sets[0] + n;
    norms[0].var = norms[0].mean + dim;
    s2r__normalizer_copy(&norms[0], &policy->norm);
    norms[1] = ppo->policy.norm;
    memcpy(sets[0], policy->params, n * sizeof(float));
    memcpy(sets[1], ppo->policy.params, n * sizeof(float));
    memset(&canary, 0, sizeof canary);
    if ((res = s2r_task_init(&unit, task, robot)) != S2R_OK) s2r__fail(error, res, "canary: %s", unit.error);
    else res = s2r__canary_run(policy, sets, norms, 1, &unit, c->canary_episodes, c->canary_seed, &canary, error);
    s2r_task_free(&unit);
    out->canary_policy = canary.episodes[0] > 0 ? (double)canary.successes[0] / canary.episodes[0] : 0;
    out->canary_finetune = canary.episodes[1] > 0 ? (double)canary.successes[1] / canary.episodes[1] : 0;
    out->canary_episodes = canary.run;
    out->kept = res == S2R_OK && canary.kept == 1;
    if (out->kept)   /* the rest of it too: its log-std and critic */
        memcpy(policy->params, ppo->policy.params, sizeof(float) * (size_t)policy->num_params);
    S2R_FREE(sets[0]);
    S2R_FREE(norms[0].mean);
    return res;
}

S2RDEF s2r_result s2r_finetune_by_rl(s2r_policy* policy, const s2r_backend* robot, const s2r_task_config* task,
                                     const s2r_rl_finetune_config* config, s2r_rl_finetune_result* out,
                                     char* error) {
    s2r_rl_finetune_result r;
    s2r__cell_env cell;
    s2r_task t;
    s2r_env env;
    s2r_ppo ppo;
    s2r_controller c;
    s2r_result res;
    int u, updates;
    if (!policy || !robot || !task || !config)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_finetune_by_rl: policy, robot, task or config is NULL");
    if ((res = s2r__rl_check(policy, config, error)) != S2R_OK) return res;
    memset(&r, 0, sizeof r);
    r.canary_finetune = r.canary_policy = -1;
    c = s2r_policy_controller(policy);
    if ((res = s2r_task_init(&t, task, robot)) != S2R_OK ||
        (res = s2r__controller_fits(&c, &t, "RL fine-tuning")) != S2R_OK) {
        s2r__fail(error, res, "%s", t.error);
        s2r_task_free(&t);
        return res;
    }
    memset(&cell, 0, sizeof cell);
    cell.task = &t;
    cell.label_weight = config->label_weight;
    cell.camera_weight = config->camera_weight;
    cell.episode_steps = t.episode_steps;
    cell.budget = config->episodes;
    env = t.env;
    env.self = &cell;
    env.reset = s2r__cell_reset;
    env.step = s2r__cell_step;
    env.priv_dim = 0;
    env.privileged = NULL;
    memset(&ppo, 0, sizeof ppo);
    res = s2r__rl_trainer(&ppo, policy, config, t.episode_steps, error);
    updates = config->episodes / config->episodes_per_update;
    for (u = 0; u < updates && res == S2R_OK; u++) {
        s2r_ppo_stats st;
        memset(&st, 0, sizeof st);
        if ((res = s2r__stop_asked(error, "RL fine-tuning")) != S2R_OK) break;
        cell.batch_labelled = 0;
        if ((res = s2r__ppo_collect(&ppo, &env)) != S2R_OK) {
            s2r__fail(error, res, "RL fine-tuning: %s%s%s", ppo.error, t.error[0] ? ": " : "", t.error);
            break;
        }
        if (cell.batch_labelled == 0 && config->camera_weight <= 0) r.skipped++;   /* no signal in it */
        else {
            s2r__ppo_update(&ppo, config->learning_rate, &st);
            r.updates++;
        }
        ppo.update++;
        if (config->on_update) config->on_update(config->on_update_context, &ppo.policy, cell.started);
    }
    r.episodes = cell.started;
    r.labelled = cell.labelled;
    r.anchor_kl = ppo.anchor_kl;
    if (res == S2R_OK && r.updates == 0) r.flags |= S2R_RL_NO_SUCCESS;   /* nothing trained: the policy stays */
    else if (res == S2R_OK) res = s2r__rl_canary(policy, &ppo, robot, task, config, &r, error);
    if (out) *out = r;
    s2r_ppo_free(&ppo);
    s2r_task_free(&t);
    return res;
}

#endif /* SIM2REAL_IMPLEMENTATION */
