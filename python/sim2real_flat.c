/* sim2real_flat.c - the flat C API of sim2real_flat.h, compiled with the
   library's implementation into build/libsim2real.so (`make python`).

   Flow: names to kinds (s2r_flat__robot, s2r_flat__task); an environment
   is a backend (a simulator or a stand-in unit) with a task and the task's
   scripted controller over it (s2r_flat_env_create); reset, step and the
   batched forms drive the task's s2r_env; a policy is a checkpoint behind
   a controller that stacks its own frame history (s2r_flat_policy_load);
   a checkpoint written from weights is a policy of that shape saved
   (s2r_flat_policy_write); the renderer, where built, is the examples'
   (examples/s2r_render.h, -DS2R_RENDER -lOSMesa).  Only the headers'
   public API is used, and the core's error helper s2r__fail. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_logs.h"
#include "../examples/s2r_figures.h"
#include "../examples/s2r_render.h"
#include "sim2real_flat.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The library writes S2R_ERROR_LEN bytes into every error buffer a binding passes. */
typedef char s2r_flat__error_len_matches[S2R_FLAT_ERROR_LEN == S2R_ERROR_LEN ? 1 : -1];
#ifdef _OPENMP
#include <omp.h>
#endif

struct s2r_flat_env {
    s2r_robot_kind robot;
    s2r_task_config task_config;
    int            on_unit;         /* 1: `unit` is the backend, else `sim`   */
    s2r_sim        sim;             /* the nominal or randomized simulator    */
    s2r_real_robot unit;            /* a stand-in real unit                   */
    s2r_task       task;
    s2r_expert     expert;          /* the task's scripted controller         */
    int            obs_dim, act_dim;
    int            reset_once;      /* 1 after the first reset: an episode's parameters drawn */
#ifdef S2R_RENDER
    s2r_renderer*  renderer;        /* made at the first render, NULL before  */
#endif
    s2r_result     status;          /* the last batched call's, and its error: */
    char           error[S2R_FLAT_ERROR_LEN];   /* each thread writes its own */
};

struct s2r_flat_policy {
    s2r_policy             policy;
    s2r_controller         sampler;     /* the policy acting, deterministic or not */
    s2r_history_controller memory;      /* the sampler behind a frame history      */
    s2r_controller         acting;      /* what act calls: memory's or the sampler */
    int                    deterministic;
    s2r_rng                rng;         /* sampled actions                         */
    int                    obs_dim;     /* the task's raw observation              */
};

/* --- Names --------------------------------------------------------------------
   Errors go through the core's s2r__fail (this file compiles the
   implementation, as the examples' companion headers do): the message into
   `error` when it is not NULL, control bytes shown as '?'. */

static s2r_result s2r_flat__robot(const char* name, s2r_robot_kind* kind, char* error) {
    *kind = s2r_robot_kind_find(name);
    if (*kind == S2R_ROBOT_UR5E || *kind == S2R_ROBOT_PANDA) return S2R_OK;
    return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "unknown robot \"%.31s\": the arms are ur5e and panda",
                     name ? name : "(null)");
}

static s2r_result s2r_flat__task(const char* name, s2r_task_kind* kind, char* error) {
    *kind = s2r_task_kind_find(name);
    if (*kind != S2R_TASK_COUNT) return S2R_OK;
    return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "unknown task \"%.31s\": the tasks are reach and push",
                     name ? name : "(null)");
}

static void s2r_flat__copy_eval(const s2r_eval_result* r, s2r_flat_eval* out) {
    out->episodes = r->episodes;
    out->successes = r->successes;
    out->diverged = r->diverged;
    out->success_rate = r->success_rate;
    out->success_lo = r->success_lo;
    out->success_hi = r->success_hi;
    out->mean_distance = r->mean_distance;
    out->mean_return = r->mean_return;
}

const char* s2r_flat_version(void) { return SIM2REAL_VERSION; }
int s2r_flat_api_version(void) { return S2R_FLAT_API_VERSION; }

/* An output path a call will write at its end, checked before the work:
   NULL is "not written"; "" and a destination s2r_file_create would
   refuse (a FIFO, a link, a device, a directory) are refused now, not
   after minutes of identification. */
static s2r_result s2r_flat__output(const char* path, char* error) {
    if (!path) return S2R_OK;
    if (!path[0]) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "no file name given (an empty path)");
    return s2r__output_free(path, error);
}
const char* s2r_flat_result_name(int code) { return s2r_result_string((s2r_result)code); }

/* --- Environments ------------------------------------------------------------ */

/* The backend: a simulator (randomized from `ranges` or the task's
   defaults) or stand-in unit `unit`. */
static s2r_result s2r_flat__backend(s2r_flat_env* e, s2r_task_kind kind, const char* simulator, const char* ranges,
                             uint64_t unit, char* error) {
    s2r_sim_config sc = s2r_task_sim_config(kind, e->robot);
    int randomized = simulator && strcmp(simulator, "randomized") == 0;
    s2r_result res;
    if (simulator && strcmp(simulator, "unit") == 0) {
        if (ranges && ranges[0])
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "a ranges file is for the randomized simulator, "
                             "not for a stand-in unit");
        if ((res = s2r_real_robot_init_scene(&e->unit, e->robot, s2r_task_scene(kind), unit)) != S2R_OK)
            return s2r__fail(error, res, "%s", e->unit.error);
        e->on_unit = 1;
        return S2R_OK;
    }
    if (!randomized && !(simulator && strcmp(simulator, "nominal") == 0))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "unknown simulator \"%.31s\": nominal, randomized or unit",
                         simulator ? simulator : "(null)");
    if (!randomized && ranges && ranges[0])
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "a ranges file is for the randomized simulator, "
                         "not for the nominal one");
    if (randomized) {
        sc.randomization = s2r_task_randomization(kind);
        if (ranges && ranges[0] && (res = s2r_randomization_load(&sc.randomization, ranges, error)) != S2R_OK)
            return res;
    }
    if ((res = s2r_sim_init(&e->sim, &sc)) != S2R_OK) return s2r__fail(error, res, "%s", e->sim.error);
    return S2R_OK;
}

static const s2r_backend* s2r_flat__env_backend(s2r_flat_env* e) {
    return e->on_unit ? s2r_real_robot_backend(&e->unit) : s2r_sim_backend(&e->sim);
}

/* The backend, and the environment with it. */
static void s2r_flat__free_backend(s2r_flat_env* e) {
    if (e->on_unit) s2r_real_robot_free(&e->unit);
    else s2r_sim_free(&e->sim);
    S2R_FREE(e);
}

int s2r_flat_env_create(s2r_flat_env** out, const char* robot, const char* task, const char* simulator,
                        const char* ranges, uint64_t unit, const double* camera, char* error) {
    s2r_flat_env* e;
    s2r_task_kind kind;
    s2r_expert_config ec = s2r_expert_config_default();
    const s2r_backend* b;
    s2r_result res;
    if (!out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env create: nowhere to put the environment");
    *out = NULL;
    if (!(e = (s2r_flat_env*)S2R_MALLOC(sizeof *e)))
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "env create: out of memory");
    memset(e, 0, sizeof *e);
    if ((res = s2r_flat__robot(robot, &e->robot, error)) != S2R_OK || (res = s2r_flat__task(task, &kind, error)) != S2R_OK ||
        (res = s2r_flat__backend(e, kind, simulator, ranges, unit, error)) != S2R_OK) {
        S2R_FREE(e);
        return res;
    }
    e->task_config = s2r_task_config_default(kind);
    if (camera) {
        if (!s2r_all_finite(camera, 3) || fabs(camera[0]) > FLT_MAX || fabs(camera[1]) > FLT_MAX || fabs(camera[2]) > FLT_MAX) {
            s2r_flat__free_backend(e);   /* beyond float32, the observation's type, it would read as 0 */
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env create: the camera calibration is not finite "
                             "(as float32, the observations' type)");
        }
        s2r_task_config_set_camera(&e->task_config, camera);
    }
    b = s2r_flat__env_backend(e);
    if ((res = s2r_task_init(&e->task, &e->task_config, b)) != S2R_OK) {
        s2r__fail(error, res, "%s", e->task.error);
    } else if ((res = s2r_expert_init(&e->expert, &ec, &e->task_config, b->info)) != S2R_OK) {
        s2r__fail(error, res, "%s", e->expert.error);
        s2r_task_free(&e->task);
    }
    if (res != S2R_OK) {
        s2r_flat__free_backend(e);
        return res;
    }
    e->obs_dim = e->task.env.obs_dim;
    e->act_dim = e->task.env.act_dim;
    *out = e;
    return S2R_OK;
}

void s2r_flat_env_destroy(s2r_flat_env* env) {
    if (!env) return;
#ifdef S2R_RENDER
    if (env->renderer) s2r_renderer_free(env->renderer);
    S2R_FREE(env->renderer);
#endif
    s2r_expert_free(&env->expert);
    s2r_task_free(&env->task);
    s2r_flat__free_backend(env);
}

int s2r_flat_env_dims(const s2r_flat_env* env, int* obs_dim, int* act_dim, int* episode_steps, int* privileged_dim,
                      double* control_period, char* error) {
    if (!env || !obs_dim || !act_dim || !episode_steps || !privileged_dim || !control_period)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env dims: NULL environment or output");
    *obs_dim = env->obs_dim;
    *act_dim = env->act_dim;
    *episode_steps = env->task.episode_steps;
    *privileged_dim = env->on_unit ? 0 : S2R_PRIVILEGED_DIM;
    *control_period = env->task.kind == S2R_TASK_PUSH ? env->task_config.push.control_period
                                                      : env->task_config.reach.control_period;
    return S2R_OK;
}

int s2r_flat_env_bounds(const s2r_flat_env* env, float* obs_low, float* obs_high, float* act_low, float* act_high,
                        char* error) {
    int i;
    if (!env || !obs_low || !obs_high || !act_low || !act_high)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env bounds: NULL environment or output");
    for (i = 0; i < env->obs_dim; i++) {
        obs_low[i] = -(float)INFINITY;
        obs_high[i] = (float)INFINITY;
    }
    for (i = 0; i < env->act_dim; i++) {
        act_low[i] = -1.0f;
        act_high[i] = 1.0f;
    }
    return S2R_OK;
}

int s2r_flat_env_reset(s2r_flat_env* env, uint64_t seed, uint64_t episode, float* obs, char* error) {
    s2r_rng rng = s2r_rng_make(seed, episode);
    s2r_result res;
    if (!env || !obs) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env reset: NULL environment or observation");
    if ((res = env->task.env.reset(env->task.env.self, &rng, obs)) != S2R_OK)
        return s2r__fail(error, res, "reset: %s", env->task.error);
    s2r_expert_reset(&env->expert);
    env->reset_once = 1;
    return S2R_OK;
}

int s2r_flat_env_step(s2r_flat_env* env, const float* action, int act_len, float* obs, s2r_flat_step* out,
                      char* error) {
    s2r_step_result r;
    s2r_result res;
    if (!env || !action || !obs || !out)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env step: NULL environment, action, observation or output");
    if (act_len != env->act_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "step: the action has %d values, the %s task on %s takes %d",
                         act_len, s2r_task_kind_name(env->task.kind), s2r_robot_kind_name(env->robot), env->act_dim);
    if ((res = env->task.env.step(env->task.env.self, action, obs, &r)) != S2R_OK)
        return s2r__fail(error, res, "step: %s", env->task.error);
    out->reward = r.reward;
    out->terminated = r.terminated;
    out->truncated = r.truncated;
    out->success = r.success;
    out->diverged = r.diverged;
    out->distance = r.distance;
    return S2R_OK;
}

int s2r_flat_env_privileged(const s2r_flat_env* env, float* out, int len, char* error) {
    if (!env || !out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "privileged: NULL environment or output");
    if (env->on_unit)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "privileged: a stand-in unit's parameters are hidden "
                         "(only a simulator knows its own)");
    if (len != S2R_PRIVILEGED_DIM)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "privileged: room for %d values, need %d", len,
                         S2R_PRIVILEGED_DIM);
    if (!env->reset_once)   /* zeros until then: read as "every parameter at its range's middle" */
        return s2r__fail(error, S2R_ERR_STATE, "privileged: no episode yet: reset first (an episode's parameters "
                         "are drawn at its reset)");
    s2r_sim_privileged(&env->sim, out);
    return S2R_OK;
}

int s2r_flat_env_scripted_act(s2r_flat_env* env, const float* obs, float* action, char* error) {
    s2r_result res;
    if (!env || !obs || !action)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "scripted act: NULL environment, observation or action");
    if ((res = s2r_expert_act(&env->expert, obs, NULL, action, NULL)) != S2R_OK)
        return s2r__fail(error, res, "scripted controller: %s", env->expert.error);
    return S2R_OK;
}

int s2r_flat_env_evaluate(s2r_flat_env* env, const s2r_flat_policy* policy, int episodes, uint64_t seed,
                          s2r_flat_eval* out, char* error) {
    s2r_controller c;
    s2r_eval_result r;
    s2r_result res;
    if (!env || !out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "evaluate: NULL environment or output");
    c = policy ? s2r_policy_controller((s2r_policy*)&policy->policy) : s2r_expert_controller(&env->expert);
    if ((res = s2r_evaluate(&c, &env->task, episodes, seed, &r, NULL)) != S2R_OK)
        return s2r__fail(error, res, "%s", env->task.error);
    s2r_flat__copy_eval(&r, out);
    return S2R_OK;
}

int s2r_flat_env_ranges(const s2r_flat_env* env, const char* path_out, uint64_t* digest, char* error) {
    s2r_result res;
    if (!env) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "env ranges: NULL environment");
    if (env->on_unit)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "env ranges: a stand-in unit draws from no ranges (its "
                         "parameters are hidden); ask a nominal or randomized environment");
    if (digest) *digest = s2r_randomization_digest(&env->sim.config.randomization);
    if (path_out &&
        (res = s2r_randomization_write(&env->sim.config.randomization, path_out, error)) != S2R_OK)
        return res;
    return S2R_OK;
}

int s2r_flat_ranges_digest(const char* path, uint64_t* digest, char* error) {
    s2r_randomization r = s2r_randomization_none();   /* as s2r_policy_check_ranges reads the file */
    s2r_result res;
    if (!path || !digest) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "ranges digest: NULL path or output");
    if ((res = s2r_randomization_load(&r, path, error)) != S2R_OK) return res;
    *digest = s2r_randomization_digest(&r);
    return S2R_OK;
}

/* --- Rendering ---------------------------------------------------------------- */

#ifdef S2R_RENDER
int s2r_flat_render_available(void) { return 1; }

/* The arm being drawn: the simulator's, or the unit's true pose. */
static const s2r_robot* s2r_flat__drawn_arm(const s2r_flat_env* env) {
    return env->on_unit ? &env->unit.hidden_sim.robot : &env->sim.robot;
}

int s2r_flat_env_render(s2r_flat_env* env, int width, int height, unsigned char* rgb, char* error) {
    s2r_renderer* r;
    s2r_result res;
    if (!env || !rgb) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "render: NULL environment or image");
    r = env->renderer;
    if (r && (r->width != width || r->height != height)) {
        s2r_renderer_free(r);
        S2R_FREE(r);
        r = env->renderer = NULL;
    }
    if (!r) {
        if (!(r = (s2r_renderer*)S2R_MALLOC(sizeof *r)))
            return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "render: out of memory");
        if ((res = s2r_renderer_init(r, s2r_flat__drawn_arm(env)->model, width, height)) != S2R_OK) {
            s2r__fail(error, res, "render: %s", r->error);
            S2R_FREE(r);
            return res;
        }
        env->renderer = r;
    }
    if ((res = s2r_render_robot(r, s2r_flat__drawn_arm(env), NULL, rgb)) != S2R_OK)
        return s2r__fail(error, res, "render: %s", r->error);
    return S2R_OK;
}
#else
int s2r_flat_render_available(void) { return 0; }

int s2r_flat_env_render(s2r_flat_env* env, int width, int height, unsigned char* rgb, char* error) {
    (void)env;
    (void)width;
    (void)height;
    (void)rgb;
    return s2r__fail(error, S2R_ERR_UNSUPPORTED, "render: this library was built without the renderer: install "
                     "OSMesa (apt-get install libosmesa6-dev) and rebuild it (make python)");
}
#endif

/* --- Batched ------------------------------------------------------------------ */

/* n >= 1 distinct environments of one arm and task. */
static s2r_result s2r_flat__check_many(s2r_flat_env* const* envs, int n, char* error) {
    int i, k;
    if (!envs || n < 1) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "batch: no environments");
    for (i = 0; i < n; i++) {
        if (!envs[i]) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "batch: environment %d is NULL", i);
        /* one arm and task, not just one size: push's sizes are the same on both arms */
        if (envs[i]->robot != envs[0]->robot || envs[i]->task.kind != envs[0]->task.kind)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "batch: environment %d is %s %s, environment 0 %s %s: "
                             "a batch is one arm and one task", i, s2r_robot_kind_name(envs[i]->robot),
                             s2r_task_kind_name(envs[i]->task.kind), s2r_robot_kind_name(envs[0]->robot),
                             s2r_task_kind_name(envs[0]->task.kind));
        for (k = 0; k < i; k++)
            if (envs[k] == envs[i])
                return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "batch: environments %d and %d are the same", k, i);
    }
    return S2R_OK;
}

/* The first failure, in environment order. */
static s2r_result s2r_flat__first_failure(s2r_flat_env* const* envs, int n, char* error) {
    int i;
    for (i = 0; i < n; i++)
        if (envs[i]->status != S2R_OK)
            return s2r__fail(error, (s2r_result)envs[i]->status, "environment %d: %s", i, envs[i]->error);
    return S2R_OK;
}

/* After fork().  OpenMP's threads (libgomp's pool) do not survive fork: in a
   child forked after a call of this process ran on several threads, a
   parallel region of more than one thread waits for ever on threads that
   are not there (one of one thread never touches them).  So a child told
   so (s2r_flat_after_fork_child) runs every later call on one thread:
   the same results (threads change nothing in them), never a hang. */
static int s2r_flat__teamed;       /* a call has run on more than one thread */
static int s2r_flat__one_thread;   /* forked after that: one thread from now on */

static void s2r_flat__mark_teamed(void) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
    s2r_flat__teamed = 1;
}

/* Around a call of sim2real.h that runs parallel loops on OpenMP's default
   team (identification): one thread in a forked child; returns the
   setting s2r_flat__default_team_end puts back. */
static int s2r_flat__default_team_begin(void) {
#ifdef _OPENMP
    int before = omp_get_max_threads();
    if (s2r_flat__one_thread) omp_set_num_threads(1);
    else if (before > 1) s2r_flat__mark_teamed();
    return before;
#else
    return 1;
#endif
}

static void s2r_flat__default_team_end(int before) {
#ifdef _OPENMP
    omp_set_num_threads(before);
#else
    (void)before;
#endif
}

void s2r_flat_after_fork_child(void) { s2r_flat__one_thread = s2r_flat__one_thread || s2r_flat__teamed; }
int s2r_flat_single_threaded(void) { return s2r_flat__one_thread; }

/* The threads a call over n items runs on: `threads` (0: one per core),
   at most n and S2R_FLAT_MAX_THREADS - never OpenMP's default, which
   OMP_NUM_THREADS can set to anything; 1 in a child forked after a call ran
   on more (above). */
static s2r_result s2r_flat__threads(int threads, int n, int* t, char* error) {
    if (threads < 0 || threads > S2R_FLAT_MAX_THREADS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "threads %d: 0 (one per core) or 1..%d", threads,
                         S2R_FLAT_MAX_THREADS);
#ifdef _OPENMP
    *t = threads > 0 ? threads : omp_get_num_procs();
#else
    *t = 1;
#endif
    if (*t > n) *t = n;
    if (*t > S2R_FLAT_MAX_THREADS) *t = S2R_FLAT_MAX_THREADS;
    if (*t < 1 || s2r_flat__one_thread) *t = 1;
    if (*t > 1) s2r_flat__mark_teamed();
    return S2R_OK;
}

int s2r_flat_reset_many(s2r_flat_env* const* envs, int n, const uint64_t* seeds, const uint64_t* episodes,
                        float* obs, int threads, char* error) {
    int i, t;
    s2r_result res;
    if ((res = s2r_flat__check_many(envs, n, error)) != S2R_OK ||
        (res = s2r_flat__threads(threads, n, &t, error)) != S2R_OK)
        return res;
    if (!seeds || !episodes || !obs)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "reset many: NULL seeds, episodes or observations");
    (void)t;
#ifdef _OPENMP
#pragma omp parallel for num_threads(t) if (t > 1) schedule(dynamic)
#endif
    for (i = 0; i < n; i++)
        envs[i]->status = (s2r_result)s2r_flat_env_reset(envs[i], seeds[i], episodes[i],
                                                         obs + (size_t)i * envs[0]->obs_dim, envs[i]->error);
    return s2r_flat__first_failure(envs, n, error);
}

/* What s2r_flat_env_step refuses before it moves anything, for environment
   i of a batch: every one is checked before any steps, so a refused batch
   steps none (stepping the first ones and then failing would leave them a
   step ahead of their VecEnv). */
static s2r_result s2r_flat__can_step(const s2r_flat_env* env, int i, const float* action, char* error) {
    int open = env->task.kind == S2R_TASK_PUSH ? env->task.push.episode_open : env->task.reach.episode_open;
    if (!open)
        return s2r__fail(error, S2R_ERR_STATE, "environment %d: step before reset (or after the episode ended); no "
                         "environment was stepped", i);
    if (!s2r_all_finite_f(action, env->act_dim))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "environment %d: action contains NaN or Inf; no environment "
                         "was stepped", i);
    return S2R_OK;
}

int s2r_flat_step_many(s2r_flat_env* const* envs, int n, const float* actions, float* obs, s2r_flat_step* out,
                       int threads, char* error) {
    int i, t;
    s2r_result res;
    if ((res = s2r_flat__check_many(envs, n, error)) != S2R_OK ||
        (res = s2r_flat__threads(threads, n, &t, error)) != S2R_OK)
        return res;
    if (!actions || !obs || !out)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "step many: NULL actions, observations or outputs");
    for (i = 0; i < n; i++)
        if ((res = s2r_flat__can_step(envs[i], i, actions + (size_t)i * envs[0]->act_dim, error)) != S2R_OK) return res;
    (void)t;
#ifdef _OPENMP
#pragma omp parallel for num_threads(t) if (t > 1) schedule(dynamic)
#endif
    for (i = 0; i < n; i++)
        envs[i]->status = (s2r_result)s2r_flat_env_step(envs[i], actions + (size_t)i * envs[0]->act_dim, envs[0]->act_dim,
                                                        obs + (size_t)i * envs[0]->obs_dim, &out[i], envs[i]->error);
    return s2r_flat__first_failure(envs, n, error);
}

/* --- Policies ----------------------------------------------------------------- */

static s2r_result s2r_flat__sampler_act(void* self, const float* obs, float* action) {
    s2r_flat_policy* fp = (s2r_flat_policy*)self;
    return s2r_policy_act(&fp->policy, obs, action, fp->deterministic, &fp->rng);
}

int s2r_flat_policy_load(s2r_flat_policy** out, const char* path, uint64_t seed, char* error) {
    s2r_flat_policy* fp;
    int k, act_dim;
    s2r_result res;
    if (!out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy load: nowhere to put the policy");
    *out = NULL;
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy load: no checkpoint path");
    if (!(fp = (s2r_flat_policy*)S2R_MALLOC(sizeof *fp)))
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "policy load: out of memory");
    memset(fp, 0, sizeof *fp);
    if ((res = s2r_policy_from_checkpoint(&fp->policy, path, error)) != S2R_OK) {
        S2R_FREE(fp);
        return res;
    }
    k = fp->policy.history;
    act_dim = fp->policy.shape.act_dim;
    fp->obs_dim = (fp->policy.shape.obs_dim - act_dim * k) / (k + 1);
    fp->rng = s2r_rng_make(seed, 0);
    fp->sampler = s2r_policy_controller(&fp->policy);
    fp->sampler.self = fp;
    fp->sampler.act = s2r_flat__sampler_act;
    fp->acting = fp->sampler;
    if (k > 0) {
        if ((res = s2r_history_controller_init(&fp->memory, &fp->sampler, fp->obs_dim, act_dim, k)) != S2R_OK) {
            s2r_policy_free(&fp->policy);
            S2R_FREE(fp);
            return s2r__fail(error, res, "policy load: %s: no memory for %d frames of history", path, k);
        }
        fp->acting = s2r_history_controller_get(&fp->memory);
    }
    *out = fp;
    return S2R_OK;
}

void s2r_flat_policy_destroy(s2r_flat_policy* policy) {
    if (!policy) return;
    if (policy->policy.history > 0) s2r_history_controller_free(&policy->memory);
    s2r_policy_free(&policy->policy);
    S2R_FREE(policy);
}

int s2r_flat_policy_dims(const s2r_flat_policy* policy, int* obs_dim, int* act_dim, int* history, char* robot,
                         char* task, char* error) {
    int made_for;
    if (!policy || !obs_dim || !act_dim || !history || !robot || !task)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy dims: NULL policy or output");
    made_for = policy->policy.made_for;
    *obs_dim = policy->obs_dim;
    *act_dim = policy->policy.shape.act_dim;
    *history = policy->policy.history;
    snprintf(robot, 16, "%s", made_for > 0 ? s2r_robot_kind_name(s2r_made_for_robot(made_for)) : "unknown");
    snprintf(task, 16, "%s", made_for > 0 ? s2r_task_kind_name(s2r_made_for_task(made_for)) : "unknown");
    return S2R_OK;
}

int s2r_flat_policy_reset(s2r_flat_policy* policy, char* error) {
    if (!policy) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy reset: NULL policy");
    if (policy->acting.reset) policy->acting.reset(policy->acting.self);
    return S2R_OK;
}

int s2r_flat_policy_act(s2r_flat_policy* policy, const float* obs, int obs_len, float* action, int deterministic,
                        char* error) {
    s2r_result res;
    if (!policy || !obs || !action)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy act: NULL policy, observation or action");
    if (obs_len != policy->obs_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy act: the observation has %d values, the policy "
                         "takes %d (made for another arm or task?)", obs_len, policy->obs_dim);
    policy->deterministic = deterministic;
    if ((res = policy->acting.act(policy->acting.self, obs, action)) != S2R_OK)
        return s2r__fail(error, res, "policy act: %s", policy->policy.error);
    return S2R_OK;
}

/* The shape a flat description names, checked as a checkpoint's would be:
   activations, history, and the arm and task it says it is for. */
static s2r_result s2r_flat__checkpoint_shape(const s2r_flat_checkpoint* c, s2r_policy_shape* shape, int* made_for,
                                            char* error) {
    s2r_robot_kind r = S2R_ROBOT_COUNT;
    s2r_task_kind k = S2R_TASK_COUNT;
    int l, obs_dim, act_dim;
    s2r_result res;
    memset(shape, 0, sizeof *shape);
    *made_for = 0;
    if (c->actor_activation < 0 || c->actor_activation >= S2R_ACTIVATION_COUNT || c->critic_activation < 0 ||
        c->critic_activation >= S2R_ACTIVATION_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: activations %d, %d: 0 (tanh) or 1 (ReLU)",
                         c->actor_activation, c->critic_activation);
    if (c->history < 0 || c->history > S2R_HISTORY_MAX)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: history %d: 0..%d frames", c->history,
                         S2R_HISTORY_MAX);
    if (c->num_hidden < 1 || c->num_hidden > S2R_MAX_HIDDEN_LAYERS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: %d hidden layers: 1..%d", c->num_hidden,
                         S2R_MAX_HIDDEN_LAYERS);
    shape->obs_dim = c->obs_dim;
    shape->act_dim = c->act_dim;
    shape->num_hidden = c->num_hidden;
    for (l = 0; l < c->num_hidden; l++) shape->hidden[l] = c->hidden[l];
    shape->privileged = c->privileged;
    shape->actor_activation = (s2r_activation)c->actor_activation;
    shape->critic_activation = (s2r_activation)c->critic_activation;
    if (!c->robot[0] && !c->task[0]) return S2R_OK;
    if ((res = s2r_flat__robot(c->robot, &r, error)) != S2R_OK || (res = s2r_flat__task(c->task, &k, error)) != S2R_OK)
        return res;
    s2r_task_dims(k, r, &obs_dim, &act_dim);
    obs_dim = s2r_history_obs_dim(obs_dim, act_dim, c->history);
    if (c->obs_dim != obs_dim || c->act_dim != act_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: obs %d act %d, but the %s %s task with %d "
                         "frames of history has obs %d act %d", c->obs_dim, c->act_dim, c->robot, c->task, c->history,
                         obs_dim, act_dim);
    *made_for = s2r_made_for(r, k);
    return S2R_OK;
}

/* n doubles finite, and >= 0 when `nonnegative`. */
static int s2r_flat__all_finite_from(const double* x, int n, int nonnegative) {
    int i;
    for (i = 0; i < n; i++)
        if (!isfinite(x[i]) || (nonnegative && x[i] < 0)) return 0;
    return 1;
}

void s2r_flat_checkpoint_limits(s2r_flat_limits* limits) {
    if (!limits) return;
    limits->history_max = S2R_HISTORY_MAX;
    limits->max_hidden = S2R_MAX_HIDDEN_LAYERS;
    limits->max_width = S2R_MLP_MAX_WIDTH;
    limits->log_std_max = S2R_LOG_STD_MAX;
}

int s2r_flat_policy_write(const char* path, const s2r_flat_checkpoint* checkpoint, const float* params,
                          int num_params, const double* norm_mean, const double* norm_var, char* error) {
    s2r_policy_shape shape;
    s2r_policy p;
    s2r_rng rng = s2r_rng_make(0, 0);   /* the initial weights are overwritten */
    int made_for;
    s2r_result res;
    if (!path || !checkpoint || !params || !norm_mean || !norm_var)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: NULL path, checkpoint, parameters or "
                         "normalizer");
    if ((res = s2r_flat__checkpoint_shape(checkpoint, &shape, &made_for, error)) != S2R_OK) return res;
    if ((res = s2r_policy_init(&p, &shape, 0.0f, 10.0f, &rng)) != S2R_OK)
        return s2r__fail(error, res, "policy write: %s", p.error);
    if (num_params != p.num_params) res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: %d parameters, the "
                                                    "shape has %d", num_params, p.num_params);
    else if (!s2r_all_finite_f(params, num_params))
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: a parameter is NaN or infinite");
    else if (!(checkpoint->norm_count > 0) || !isfinite(checkpoint->norm_count) || !(checkpoint->norm_clip > 0) ||
             !isfinite(checkpoint->norm_clip) || !s2r_flat__all_finite_from(norm_mean, shape.obs_dim, 0) ||
             !s2r_flat__all_finite_from(norm_var, shape.obs_dim, 1))
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "policy write: the normalizer needs a count and a clip > 0, "
                        "finite means and finite variances >= 0");
    if (res == S2R_OK) {
        memcpy(p.params, params, sizeof(float) * (size_t)num_params);
        memcpy(p.norm.mean, norm_mean, sizeof(double) * (size_t)shape.obs_dim);
        memcpy(p.norm.var, norm_var, sizeof(double) * (size_t)shape.obs_dim);
        p.norm.count = checkpoint->norm_count;
        p.norm.clip = checkpoint->norm_clip;
        p.made_for = made_for;
        p.history = checkpoint->history;
        p.randomization = checkpoint->randomization;
        if ((res = s2r_policy_save(&p, NULL, path)) != S2R_OK) s2r__fail(error, res, "%s", p.error);
    }
    s2r_policy_free(&p);
    return res;
}

int s2r_flat_evaluate_sim_and_real(const s2r_flat_policy* policy, const char* robot, const char* task,
                                   int episodes, uint64_t seed, uint64_t first_unit, int units,
                                   s2r_flat_eval* sim, s2r_flat_eval* real, double* gap, char* error) {
    s2r_robot_kind r;
    s2r_task_kind k;
    s2r_task_config tc;
    s2r_controller c;
    s2r_sim_real_eval e;
    s2r_result res;
    if (!policy || !sim || !real || !gap)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "evaluate sim and real: NULL policy or output");
    if ((res = s2r_flat__robot(robot, &r, error)) != S2R_OK || (res = s2r_flat__task(task, &k, error)) != S2R_OK)
        return res;
    tc = s2r_task_config_default(k);
    c = s2r_policy_controller((s2r_policy*)&policy->policy);
    if (units >= 1 && units <= 16 && first_unit > UINT64_MAX - (uint64_t)(units - 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "evaluate sim and real: units %llu .. %llu + %d run past "
                         "the last unit seed", (unsigned long long)first_unit, (unsigned long long)first_unit,
                         units - 1);
    {   /* its loop over the units runs on OpenMP's default team: bounded here, for this thread only */
#ifdef _OPENMP
        int before = omp_get_max_threads(), t = 1;
        s2r_flat__threads(0, units + 1, &t, NULL);
        omp_set_num_threads(t);
#endif
        res = s2r_evaluate_sim_and_real(&c, r, &tc, NULL, episodes, seed, first_unit, units, &e, error);
#ifdef _OPENMP
        omp_set_num_threads(before);
#endif
    }
    if (res != S2R_OK) return res;
    s2r_flat__copy_eval(&e.sim, sim);
    s2r_flat__copy_eval(&e.real, real);
    gap[0] = e.gap;
    gap[1] = e.gap_lo;
    gap[2] = e.gap_hi;
    return S2R_OK;
}

/* --- Stopping a long call ------------------------------------------------------
   The flag is sim2real.h's own (this file compiles the implementation):
   what its signal handler sets, what s2r__stop_asked reads. */

void s2r_flat_interrupt_request(void) { s2r__interrupt_flag = 1; }
void s2r_flat_interrupt_clear(void) { s2r__interrupt_flag = 0; }
int s2r_flat_interrupt_requested(void) { return s2r_interrupt_requested(); }

/* --- System identification ----------------------------------------------------- */

/* The result of a run of `cfg`: its parameters by name, its verdict and errors into out. */
static void s2r_flat__copy_sysid(const s2r_sysid_config* cfg, const s2r_sysid_result* r, s2r_flat_sysid* out) {
    int i;
    out->n_params = r->n_params < S2R_FLAT_SYSID_MAX ? r->n_params : S2R_FLAT_SYSID_MAX;
    for (i = 0; i < out->n_params; i++) {
        if (cfg->param[i].joint > 0)
            snprintf(out->name[i], sizeof out->name[i], "%s[%d]", s2r_param_name(cfg->param[i].param), cfg->param[i].joint);
        else
            snprintf(out->name[i], sizeof out->name[i], "%s", s2r_param_name(cfg->param[i].param));
        out->value[i] = r->value[i];
        out->identifiable[i] = r->identifiable[i];
    }
    out->sweeps = r->sweeps;
    out->relative_start = r->validation_relative_start;
    out->relative = r->validation_relative;
    snprintf(out->verdict, sizeof out->verdict, "%s", s2r_sysid_verdict_name(r->verdict));
}

/* Then, for push, the object on the unit in the push scene. */
static s2r_result s2r_flat__identify_object(s2r_robot_kind robot, uint64_t unit, const s2r_identify_config* ic,
                                            s2r_randomization* next, s2r_randomization* identified,
                                            s2r_flat_sysid* out, char* error) {
    s2r_real_robot real;
    s2r_sysid_result r;
    s2r_result res;
    if ((res = s2r_real_robot_init_scene(&real, robot, S2R_SCENE_PUSH, unit)) != S2R_OK)
        return s2r__fail(error, res, "%s", real.error);
    res = s2r_identify_object(&real.backend, ic, out->camera_offset, next, identified, &r, error);
    s2r_real_robot_free(&real);
    if (res != S2R_OK) return res;
    out->object = 1;
    out->object_relative_start = r.validation_object_relative_start;
    out->object_relative = r.validation_object_relative;
    snprintf(out->object_verdict, sizeof out->object_verdict, "%s", s2r_sysid_verdict_name(r.verdict));
    return S2R_OK;
}

int s2r_flat_identify_unit(const char* robot, const char* task, uint64_t unit, const char* training_ranges,
                           int quick, const char* ranges_out, const char* identified_out, s2r_flat_sysid* out,
                           char* error) {
    s2r_robot_kind r;
    s2r_task_kind k;
    s2r_identify_config ic = s2r_identify_config_default();
    s2r_randomization training, next, identified;
    s2r_sysid_result result;
    s2r_sysid_config fitted = s2r_sysid_config_default();   /* what s2r_identify_unit fits */
    s2r_real_robot real;
    s2r_result res;
    int team;
    if (!out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify: NULL output");
    memset(out, 0, sizeof *out);
    if ((res = s2r_flat__robot(robot, &r, error)) != S2R_OK || (res = s2r_flat__task(task, &k, error)) != S2R_OK ||
        (res = s2r_flat__output(ranges_out, error)) != S2R_OK || (res = s2r_flat__output(identified_out, error)) != S2R_OK)
        return res;
    if (quick) {   /* examples/07_the_table.c's quick sizes */
        ic.train = ic.valid = 1;
        ic.samples = 50;
        ic.sweeps = 2;
        ic.strikes = 2;
        ic.strikes_valid = 1;
    }
    training = s2r_task_randomization(k);
    if (training_ranges && training_ranges[0] &&
        (res = s2r_randomization_load(&training, training_ranges, error)) != S2R_OK)
        return res;
    if ((res = s2r_real_robot_init(&real, r, unit)) != S2R_OK) return s2r__fail(error, res, "%s", real.error);
    team = s2r_flat__default_team_begin();
    res = s2r_identify_unit(&real.backend, &ic, &training, &next, &identified, &result, out->camera_offset, error);
    s2r_real_robot_free(&real);
    if (res == S2R_OK) {
        s2r_flat__copy_sysid(&fitted, &result, out);
        if (k == S2R_TASK_PUSH) res = s2r_flat__identify_object(r, unit, &ic, &next, &identified, out, error);
    }
    s2r_flat__default_team_end(team);
    if (res != S2R_OK) return res;
    if (ranges_out && (res = s2r_randomization_write(&next, ranges_out, error)) != S2R_OK) return res;
    if (identified_out && (res = s2r_randomization_write(&identified, identified_out, error)) != S2R_OK)
        return res;
    return S2R_OK;
}

/* Fit `train` (validate on `valid`, or on nothing) with `model`; re-centre
   `training` on the estimate into next, the estimate as fixed values into
   identified. */
static s2r_result s2r_flat__fit_logs(const s2r_sim_config* model, const s2r_trajectory_set* train,
                                     const s2r_trajectory_set* valid, const s2r_randomization* training, int quick,
                                     s2r_randomization* next, s2r_randomization* identified, s2r_flat_sysid* out,
                                     char* error) {
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_sysid id;
    s2r_sysid_result r;
    s2r_result res;
    cfg.known.p[S2R_PARAM_OBS_LATENCY] = s2r_randomization_none().p[S2R_PARAM_OBS_LATENCY];   /* logs see only the
                                                        total delay: the command's, as example 12 */
    cfg.max_sweeps = quick ? 3 : 12;
    cfg.weight_qd = s2r_trajectory_set_qd_measured(train) ? S2R_LOG_WEIGHT_QD : 0;   /* as example 12 */
    if ((res = s2r_sysid_init(&id, &cfg, model)) != S2R_OK) return s2r__fail(error, res, "%s", id.error);
    if ((res = s2r_sysid_run(&id, train, valid, &r)) != S2R_OK || (res = s2r_sysid_recentre(&id, &r, training, next)) != S2R_OK ||
        (res = s2r_sysid_fixed(&id, &r, identified)) != S2R_OK)
        s2r__fail(error, res, "%s", id.error);
    else
        s2r_flat__copy_sysid(&cfg, &r, out);
    next->p[S2R_PARAM_OBS_LATENCY] = cfg.known.p[S2R_PARAM_OBS_LATENCY];   /* trained on the command, as 12 */
    s2r_sysid_free(&id);
    return res;
}

int s2r_flat_identify_logs(const char* robot, const char* mjcf, const char* const* logs, int n_logs,
                           const char* training_ranges, int quick, const char* ranges_out, const char* identified_out,
                           s2r_flat_sysid* out, char* error) {
    s2r_robot_kind r = S2R_ROBOT_CUSTOM;
    s2r_sim_config model;
    s2r_randomization training = s2r_randomization_default(), next, identified;
    s2r_trajectory_set train, valid;
    int i, n_train;
    s2r_result res;
    if (!out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify from logs: NULL output");
    memset(out, 0, sizeof *out);
    if (!logs || n_logs < 1) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify from logs: no logs");
    for (i = 0; i < n_logs; i++)
        if (!logs[i]) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify from logs: log %d is NULL", i);
    if (!(mjcf && mjcf[0]) && (res = s2r_flat__robot(robot, &r, error)) != S2R_OK) return res;
    if ((res = s2r_flat__output(ranges_out, error)) != S2R_OK || (res = s2r_flat__output(identified_out, error)) != S2R_OK)
        return res;
    if (training_ranges && training_ranges[0] &&
        (res = s2r_randomization_load(&training, training_ranges, error)) != S2R_OK)
        return res;
    model = s2r_sim_config_default(r);
    if (r == S2R_ROBOT_CUSTOM) model.mjcf_path = mjcf;
    n_train = n_logs > 1 ? n_logs - 1 : 1;
    memset(&valid, 0, sizeof valid);
    res = s2r_trajectory_set_load_csv(&train, logs, n_train, 0.02, error);   /* 50 Hz, as example 12 */
    if (res == S2R_OK && n_logs > 1) res = s2r_trajectory_set_load_csv(&valid, logs + n_train, 1, 0.02, error);
    if (res == S2R_OK && n_logs > 1 && (i = s2r_trajectory_set_find_same(&train, &valid, 0)) >= 0)   /* as 12 */
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "the held-out log %.150s holds the same motion as the fitted "
                        "%.150s: a fit judged on data it was fitted to is no held-out check; give last a log recorded "
                        "apart", logs[n_train], logs[i]);
    if (res != S2R_OK) {
        s2r_trajectory_set_free(&train);
        s2r_trajectory_set_free(&valid);
        return res;
    }
    i = s2r_flat__default_team_begin();
    res = s2r_flat__fit_logs(&model, &train, n_logs > 1 ? &valid : NULL, &training, quick, &next, &identified, out, error);
    s2r_flat__default_team_end(i);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    if (res == S2R_OK && ranges_out) res = s2r_randomization_write(&next, ranges_out, error);
    if (res == S2R_OK && identified_out) res = s2r_randomization_write(&identified, identified_out, error);
    return res;
}
