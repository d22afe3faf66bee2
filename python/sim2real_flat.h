/* sim2real_flat.h - a flat C API over sim2real.h, for bindings (Python's
   ctypes, other languages' foreign-function interfaces).

   sim2real.h's objects are caller-allocated structs whose layout a binding
   would have to mirror; here every object is an opaque handle made and
   freed by the library, every argument a number, a string or a flat array,
   and every function returns an s2r_result code (0 = S2R_OK, negative =
   error) and writes a sentence saying what went wrong into `error` (a
   buffer of S2R_FLAT_ERROR_LEN bytes, or NULL).  Nothing here crashes on a
   NULL handle, a NULL array or an unknown name: each is an error code.

   Built with sim2real.h's implementation into a shared library
   (`make python`: build/libsim2real.so), which the Python package
   python/sim2real/ loads.  The flow of a binding:

       s2r_flat_env_create      a task (reach | push) on an arm (ur5e |
                                panda) over a backend: the nominal
                                simulator, a randomized one (a ranges file
                                or the task's defaults) or stand-in unit N
       s2r_flat_env_reset       episode `episode` of `seed`: the start, the
                                target and the randomized draw of stream
                                `episode` of `seed`, as s2r_evaluate's
                                episode i is stream i of its seed
       s2r_flat_env_step        one action in [-1, 1]^act_dim (clipped),
                                the observation after it, reward, the end
       s2r_flat_policy_load     a checkpoint saved in C (s2r_policy_save)
       s2r_flat_policy_act      its action for one observation
       s2r_flat_env_evaluate    C's own evaluation loop on the same task,
                                for checking a binding's loop against
       s2r_flat_policy_write    a checkpoint from weights trained elsewhere
                                (s2r_policy_save's file), the randomization
                                it was trained on named by its digest
                                (s2r_flat_env_ranges, s2r_flat_ranges_digest)

   Observations and actions are float32 (what the learners use), in the
   task's layout (sim2real.h: "Reach task", "Push task").  Determinism: the
   same seeds and actions give bit-identical observations and rewards,
   whatever the thread count of the batched calls.

   Threads.  One handle must not be used from two threads at once (the
   binding holds a lock per handle); different handles may.  A batched call
   runs its environments on at most S2R_FLAT_MAX_THREADS threads, and never
   on more threads than environments; the library's own parallel loops
   (s2r_flat_evaluate_sim_and_real) run on at most that many too, whatever
   OMP_NUM_THREADS says.  OpenMP's threads do not survive fork(): a process
   that forks calls s2r_flat_after_fork_child in the child (e.g. through
   pthread_atfork; the Python package does), and a child forked after a
   call of its parent ran on several threads then runs every call on one
   thread - the same results, where it would otherwise wait for ever. */
#ifndef SIM2REAL_FLAT_H
#define SIM2REAL_FLAT_H

#include <stdint.h>

/* The library's version, as its first line says; a binding refuses a
   library of another version (or flat API) than it was written for. */
#ifndef SIM2REAL_VERSION
#define SIM2REAL_VERSION "0.1"
#endif
#define S2R_FLAT_API_VERSION 6   /* bumped whenever a signature below or the error buffers' size changes */
#define S2R_FLAT_MAX_THREADS 64  /* threads a batched call may ask for       */
#define S2R_FLAT_ERROR_LEN 512   /* bytes of every `error` buffer (S2R_ERROR_LEN) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct s2r_flat_env s2r_flat_env;         /* a task over a backend    */
typedef struct s2r_flat_policy s2r_flat_policy;   /* a policy from a checkpoint */

/* What one step reports (s2r_step_result, flattened). */
typedef struct s2r_flat_step {
    float  reward;      /* this step's reward                                     */
    int    terminated;  /* ended by the task (physics diverged, object fell off)    */
    int    truncated;   /* ended by the time limit                                 */
    int    success;     /* at the episode's end: success judged from ground truth  */
    int    diverged;    /* the physics blew up; the episode ended                   */
    double distance;    /* m, the task's measure (reach: flange-target; push:
                           object-goal)                                            */
} s2r_flat_step;

/* What an evaluation reports (s2r_eval_result, flattened). */
typedef struct s2r_flat_eval {
    int    episodes, successes, diverged;
    double success_rate, success_lo, success_hi;   /* Wilson 95 % interval     */
    double mean_distance;                          /* m, at the end             */
    double mean_return;                            /* sum of rewards per episode */
} s2r_flat_eval;

const char* s2r_flat_version(void);        /* SIM2REAL_VERSION             */
int         s2r_flat_api_version(void);    /* S2R_FLAT_API_VERSION         */
/* In a child of fork(): from now on every call runs on one thread if a
   call of the parent ran on several (above); s2r_flat_single_threaded
   says whether this process does (1) or not (0). */
void        s2r_flat_after_fork_child(void);
int         s2r_flat_single_threaded(void);
/* "S2R_ERR_CORRUPT" for a code; never NULL. */
const char* s2r_flat_result_name(int code);

/* --- Environments --------------------------------------------------------- */

/* robot "ur5e" | "panda"; task "reach" | "push"; simulator "nominal" |
   "randomized" | "unit".  ranges: a ranges file (s2r_randomization_write's
   format) for "randomized", NULL or "" for the task's default ranges
   (s2r_task_randomization); refused for the others.  unit: the stand-in
   unit's seed for "unit" (its hidden parameters never leave the library).
   camera: NULL, or a camera calibration [3] (m, subtracted from what the
   camera perceives: s2r_task_config_set_camera), e.g. the offset
   s2r_flat_identify_unit measured on that unit. */
int  s2r_flat_env_create(s2r_flat_env** out, const char* robot, const char* task, const char* simulator,
                         const char* ranges, uint64_t unit, const double* camera, char* error);
void s2r_flat_env_destroy(s2r_flat_env* env);   /* NULL: nothing */
/* Sizes: observation and action floats, policy steps per episode, floats
   of s2r_flat_env_privileged (0 on a unit); control_period: s between
   policy steps. */
int  s2r_flat_env_dims(const s2r_flat_env* env, int* obs_dim, int* act_dim, int* episode_steps, int* privileged_dim,
                       double* control_period, char* error);
/* Bounds: observations are unbounded (-inf, inf), actions [-1, 1]. */
int  s2r_flat_env_bounds(const s2r_flat_env* env, float* obs_low, float* obs_high, float* act_low, float* act_high,
                         char* error);
/* Start episode `episode` of `seed`; obs [obs_dim].  The scripted
   controller starts its episode too. */
int  s2r_flat_env_reset(s2r_flat_env* env, uint64_t seed, uint64_t episode, float* obs, char* error);
/* act_len must be act_dim; NaN/Inf: S2R_ERR_INVALID_ARGUMENT and nothing
   changes; a step before reset or after the episode ended: S2R_ERR_STATE. */
int  s2r_flat_env_step(s2r_flat_env* env, const float* action, int act_len, float* obs, s2r_flat_step* out,
                       char* error);
/* The running (or last) episode's randomized parameters (s2r_sim_privileged:
   each in units of its range), out [privileged_dim]; S2R_ERR_UNSUPPORTED on
   a unit, whose parameters are hidden; S2R_ERR_STATE before the first reset,
   when no episode has drawn them. */
int  s2r_flat_env_privileged(const s2r_flat_env* env, float* out, int len, char* error);
/* The scripted controller (s2r_expert) for the task: its action for obs. */
int  s2r_flat_env_scripted_act(s2r_flat_env* env, const float* obs, float* action, char* error);
/* C's evaluation (s2r_evaluate) on this environment's task: `episodes`
   episodes of `seed` with the policy's deterministic action, or with the
   scripted controller when policy is NULL.  Ends any running episode. */
int  s2r_flat_env_evaluate(s2r_flat_env* env, const s2r_flat_policy* policy, int episodes, uint64_t seed,
                           s2r_flat_eval* out, char* error);

/* The randomization the environment's simulator draws every episode from
   (nominal: none; randomized: the ranges it was made with):
   digest (may be NULL) receives its s2r_randomization_digest - what
   s2r_train records in a checkpoint -, and path_out (NULL: not written)
   receives it as a ranges file (s2r_randomization_write), the file staged
   deployment checks a checkpoint against.  S2R_ERR_UNSUPPORTED
   on a unit: a unit is not a randomization. */
int  s2r_flat_env_ranges(const s2r_flat_env* env, const char* path_out, uint64_t* digest, char* error);
/* The digest of the ranges in a file, as s2r_policy_check_ranges computes
   it (the file read over s2r_randomization_none). */
int  s2r_flat_ranges_digest(const char* path, uint64_t* digest, char* error);

/* 1 when the library was built with the renderer (OSMesa: examples/
   s2r_render.h; `make python` builds it where libosmesa6-dev is
   installed), else 0. */
int  s2r_flat_render_available(void);
/* The scene as it is now (the true pose, on a unit too: a camera in the
   robot cell), rgb [height][width][3] bytes, top row first, from a free
   camera framing the arm; 1..4096 px each way.  The renderer is made at
   the first call and again when the size changes.  Without the renderer:
   S2R_ERR_UNSUPPORTED saying how to build it. */
int  s2r_flat_env_render(s2r_flat_env* env, int width, int height, unsigned char* rgb, char* error);

/* Batched: n distinct environments of the same arm and task, reset or
   stepped in one call, `threads` at a time (OpenMP; 0: one per core, at
   most one per environment; 1..S2R_FLAT_MAX_THREADS, capped at n).
   seeds, episodes [n]; obs [n][obs_dim], actions [n][act_dim], out [n].
   The first failure is reported with its environment's index.  A step
   refused for a NaN/Inf action or an episode not running is refused for
   the whole batch before any environment moves (nothing changes). */
int  s2r_flat_reset_many(s2r_flat_env* const* envs, int n, const uint64_t* seeds, const uint64_t* episodes,
                         float* obs, int threads, char* error);
int  s2r_flat_step_many(s2r_flat_env* const* envs, int n, const float* actions, float* obs, s2r_flat_step* out,
                        int threads, char* error);

/* --- Policies --------------------------------------------------------------- */

/* A checkpoint written by s2r_policy_save (examples' *.ckpt).  seed: the
   stream of its sampled actions. */
int  s2r_flat_policy_load(s2r_flat_policy** out, const char* path, uint64_t seed, char* error);
void s2r_flat_policy_destroy(s2r_flat_policy* policy);   /* NULL: nothing */
/* obs_dim: the task's observation it acts on (with frame history, the
   raw one: the policy stacks its own frames); history: frames it stacks;
   robot, task: what it was trained for ("unknown" when the checkpoint does
   not say), each into 16 bytes. */
int  s2r_flat_policy_dims(const s2r_flat_policy* policy, int* obs_dim, int* act_dim, int* history, char* robot,
                          char* task, char* error);
/* A checkpoint from weights trained elsewhere (a numpy or PyTorch MLP),
   written as s2r_policy_save writes one, for s2r_flat_policy_load and every
   program of the recipe.  The layout of params and the normalizer:
   sim2real.h, "Checkpoints" (and python/sim2real/checkpoint.py). */
typedef struct s2r_flat_checkpoint {
    int      obs_dim, act_dim;        /* the policy's input (with history: the
                                         stacked observation) and output sizes */
    int      num_hidden;              /* hidden layers, 1..4, of both networks */
    int      hidden[4];               /* their widths, 1..256                  */
    int      privileged;              /* the critic's extra inputs; 0          */
    int      actor_activation;        /* hidden layers: 0 tanh, 1 ReLU         */
    int      critic_activation;       /* likewise                              */
    int      history;                 /* frames of history stacked; 0          */
    char     robot[16], task[16];     /* what it was trained for ("" both: not
                                         known); checked against the sizes     */
    uint64_t randomization;           /* digest of the ranges it was trained on
                                         (s2r_flat_env_ranges); 0: not known,
                                         which staged deployment refuses       */
    double   norm_count;              /* observations the normalizer saw, > 0   */
    double   norm_clip;               /* normalized values clipped to it, > 0   */
} s2r_flat_checkpoint;
/* The bounds s2r_policy_load holds a checkpoint to, from the library's own
   constants: a binding checks its numbers against them before writing one
   (naming the field), and its reader refuses what the loader refuses. */
typedef struct s2r_flat_limits {
    int    history_max;   /* S2R_HISTORY_MAX: frames of history, 0..it       */
    int    max_hidden;    /* S2R_MAX_HIDDEN_LAYERS: hidden layers, 1..it      */
    int    max_width;     /* S2R_MLP_MAX_WIDTH: units of a layer, 1..it       */
    double log_std_max;   /* S2R_LOG_STD_MAX: each log_std within -it .. it   */
} s2r_flat_limits;
void s2r_flat_checkpoint_limits(s2r_flat_limits* limits);
/* params [num_params]: actor W/b per layer, log_std [act_dim], critic W/b
   (num_params must be the shape's); norm_mean, norm_var [obs_dim].  Every
   number must be finite, variances >= 0.  Written whole or not at all. */
int  s2r_flat_policy_write(const char* path, const s2r_flat_checkpoint* checkpoint, const float* params,
                           int num_params, const double* norm_mean, const double* norm_var, char* error);

/* The start of an episode (forgets the frame history). */
int  s2r_flat_policy_reset(s2r_flat_policy* policy, char* error);
/* One action in [-1, 1]^act_dim for one observation: the mean when
   deterministic, else mean + std * N(0, 1) from the policy's stream. */
int  s2r_flat_policy_act(s2r_flat_policy* policy, const float* obs, int obs_len, float* action, int deterministic,
                         char* error);
/* Success in the nominal simulator and on stand-in units first_unit ..
   first_unit + units - 1 (units 1..16), `episodes` each, and the gap with its
   Newcombe 95 % interval (s2r_evaluate_sim_and_real): gap [3] = gap, lo, hi. */
int  s2r_flat_evaluate_sim_and_real(const s2r_flat_policy* policy, const char* robot, const char* task,
                                    int episodes, uint64_t seed, uint64_t first_unit, int units,
                                    s2r_flat_eval* sim, s2r_flat_eval* real, double* gap, char* error);

/* --- Stopping a long call ------------------------------------------------------ */

/* For a binding that catches Ctrl-C itself (Python's SIGINT handler runs
   only between calls, never inside one): request raises the stop flag
   sim2real.h's long loops read after each unit of their work (the flag
   s2r_interrupt_catch's handler raises), so the calls here that evaluate or
   identify, under way on another thread, return S2R_ERR_INTERRUPTED within
   about a second, writing no file; clear lowers it, so the next call runs
   whole; requested reads it (1 or 0).  No signal handler is installed or
   changed.  The flag is the process's: every call under way stops. */
void s2r_flat_interrupt_request(void);
void s2r_flat_interrupt_clear(void);
int  s2r_flat_interrupt_requested(void);

/* --- System identification ----------------------------------------------------- */

/* What identifying a unit found (s2r_sysid_result, in part). */
#define S2R_FLAT_SYSID_MAX 16   /* S2R_SYSID_MAX_PARAMS */
typedef struct s2r_flat_sysid {
    int    n_params;
    char   name[S2R_FLAT_SYSID_MAX][24];   /* "kp", "action_latency", "kp[4]" ...        */
    double value[S2R_FLAT_SYSID_MAX];      /* identified, in the parameter's draw unit   */
    int    identifiable[S2R_FLAT_SYSID_MAX];
    int    sweeps;                         /* coordinate-descent sweeps                  */
    double relative_start, relative;       /* held-out error, fraction of the motion,
                                              at the first guess and identified          */
    char   verdict[16];                    /* "good", "acceptable", "block"              */
    double camera_offset[3];               /* m, the camera calibration measured          */
    int    object;                         /* push: 1 when the object was identified too */
    double object_relative_start, object_relative;
    char   object_verdict[16];
} s2r_flat_sysid;

/* Identify stand-in unit `unit` of `robot` through its backend, as the
   recipe's table does (s2r_identify_unit; for push then s2r_identify_object):
   excite, fit, validate, calibrate the camera.  training_ranges: the ranges
   to re-centre (a file; NULL or "": the task's defaults); quick: the
   examples' --quick sizes (one trajectory of 50 readings to fit, one held
   out, 2 sweeps, 2 + 1 strikes: seconds instead of minutes, a rough
   fit), else s2r_identify_config_default's.  ranges_out (NULL: not
   written): the re-centred ranges, for a randomized environment to train
   on; identified_out: the identified simulator as fixed values.  Output
   paths are checked before the work: "", or a destination that is not a
   regular file (a FIFO, a link, a device, a directory), is refused then,
   as every file the library writes refuses them (s2r_file_create). */
int  s2r_flat_identify_unit(const char* robot, const char* task, uint64_t unit, const char* training_ranges,
                            int quick, const char* ranges_out, const char* identified_out, s2r_flat_sysid* out,
                            char* error);

/* The same from an arm's logs alone (CSV files in the manual's "Trajectory
   files" format: t, command_J, q_J), as examples/12_sysid_from_logs.c does:
   every log but the last fitted, the last held out for the verdict (a
   single log is judged on itself, which flatters the fit); the model is
   `robot`'s ("ur5e" | "panda") or, when mjcf is not NULL or "", that MJCF
   file's.  training_ranges: NULL or "" for s2r_randomization_default;
   quick: 3 sweeps instead of 12.  No camera, no object: logs hold joints. */
int  s2r_flat_identify_logs(const char* robot, const char* mjcf, const char* const* logs, int n_logs,
                            const char* training_ranges, int quick, const char* ranges_out, const char* identified_out,
                            s2r_flat_sysid* out, char* error);

#ifdef __cplusplus
}
#endif
#endif
