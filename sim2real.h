/* sim2real.h - v0.1 - taking a robot-arm policy from simulation to a real robot
                        single-header C99 library on the MuJoCo C API

   ABOUT
   =====
   sim2real.h teaches and implements the recipe for moving a policy trained in
   simulation onto a real arm: domain randomization, sensor noise and latency,
   a minimal PPO and behaviour cloning, coordinate-descent system identification
   and staged deployment.  It ships two arms (UR5e, Franka Panda) and, because
   nobody running `make` owns one, a stand-in "real robot" per arm: the same
   kinematics with hidden per-unit parameters and effects the simulator does
   not model.  Everything the pipeline does to the real robot goes through one
   small backend interface, so the same code would drive hardware.

   Do this:
       #define SIM2REAL_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the
   implementation.  Link with -lmujoco -lm.  The core needs nothing else
   (no stb, no OpenGL).  What serves only the examples lives beside them in
   companion headers, included after this one: examples/s2r_cli.h (command
   line, output folder, progress), examples/s2r_figures.h (PNG plots; needs
   stb, Debian's libstb-dev, on the include path: /usr/include/stb) and
   examples/s2r_render.h (headless scene images with OSMesa, S2R_RENDER).
   The same SIM2REAL_IMPLEMENTATION compiles their implementations too
   (see section 8).

   MANUAL
   ======
   1. Quick start
   2. The recipe, step by step
   3. What sim2real.h does NOT do
   4. Configuration macros
   5. Memory
   6. Errors
   7. Determinism and random numbers
   8. Sections of this file
   9. Reading paths

   1. Quick start
   --------------
   The scripted controller (s2r_expert) on the reach-and-hold task of the
   UR5e: 100 episodes in the nominal simulator, then 100 in a randomized
   one, every episode's physics, latencies and sensing drawn from the
   domain-randomization ranges (s2r_randomization_default).  Everything
   the pipeline does goes through the task (s2r_task): evaluation,
   training, demonstrations and the scripted controller all take it.
   This exact program is compiled and run by tests/test_main.c, which
   checks that it prints a success on both simulators:

   #define SIM2REAL_IMPLEMENTATION
   #include "sim2real.h"
   #include <stdio.h>

   int main(void) {
       s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
       s2r_expert_config ec = s2r_expert_config_default();
       int k;
       for (k = 0; k < 2; k++) {              // 0: nominal, 1: randomized
           s2r_sim sim;
           s2r_task task;
           s2r_expert expert;
           s2r_controller scripted;
           s2r_eval_result r;
           s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
           if (k == 1) sc.randomization = s2r_randomization_default();
           if (s2r_sim_init(&sim, &sc) != S2R_OK) { printf("%s\n", sim.error); return 1; }
           if (s2r_task_init(&task, &tc, s2r_sim_backend(&sim)) != S2R_OK) { printf("%s\n", task.error); return 1; }
           if (s2r_expert_init(&expert, &ec, &tc, sim.backend.info) != S2R_OK) { printf("%s\n", expert.error); return 1; }
           scripted = s2r_expert_controller(&expert);
           // 100 episodes; episode i draws its start and target from stream i of seed 1
           if (s2r_evaluate(&scripted, &task, 100, 1, &r, NULL) != S2R_OK) { printf("%s\n", task.error); return 1; }
           printf("%-14s success %3d of %d, %5.1f %% [%5.1f, %5.1f], final distance %4.1f mm\n",
                  k ? "randomized sim" : "nominal sim", r.successes, r.episodes, 100 * r.success_rate,
                  100 * r.success_lo, 100 * r.success_hi, 1000 * r.mean_distance);
           s2r_expert_free(&expert);
           s2r_task_free(&task);
           s2r_sim_free(&sim);
       }
       return 0;
   }

   Save it as quick.c beside sim2real.h, then compile and run it:

       cc -O2 quick.c -o quick -lmujoco -lm && ./quick

   (add -fopenmp for threads).  It prints, in about 4 s:

       nominal sim    success 100 of 100, 100.0 % [ 96.3, 100.0], final distance  3.5 mm
       randomized sim success 100 of 100, 100.0 % [ 96.3, 100.0], final distance  5.5 mm

   The success rate comes with its Wilson 95 % interval, judged from the
   simulator's ground truth at the end of each episode (the flange within
   20 mm of the target, at rest).  On a stand-in real unit
   (s2r_real_robot_init) the same controller does worse - its camera is
   1-3 cm off - which is where the recipe starts (example 01).

   2. The recipe, step by step
   ---------------------------
   A policy trained in one simulator learns that simulator, mistakes
   included.  The recipe, each step a row of example 07's table (success
   in simulation and on the stand-in real units, and the gap):
     pure sim     PPO on the nominal simulator (s2r_train)
     DR           the same PPO, every episode on physics, actuation,
                  sensing and latency drawn from ranges
                  (s2r_randomization_default)
     system ID    excite a real unit through the backend, fit the
                  simulator (s2r_identify_unit: s2r_sysid_run, then
                  s2r_sysid_recentre), calibrate its camera
                  (s2r_calibrate_camera), train on the re-centred ranges
     demos        behaviour cloning on an operator's demonstrations,
                  kept only if a canary on the unit prefers it
                  (s2r_finetune_on_unit); or, with 10k of them, no
                  simulator at all (s2r_clone_demos)
     deployment   stages behind sequential gates, a safety monitor
                  (s2r_safety), a fallback and drift monitors
   Every step takes the reach task or the push task (s2r_task_config);
   the pipeline is the same for both.  The numbered examples walk it in
   this order, each saving in its --out folder what the next one needs:
   their list, one line each, is README.md's "Use it", and each example's
   opening comment says what it shows, what it uses and what comes next.
   Training is crash-safe: s2r_train saves its state every few updates
   (s2r_ppo_save_state); a killed run resumed with --resume ends
   bit-identical to one never stopped, and Ctrl-C saves before it exits.

   3. What sim2real.h does NOT do
   ------------------------------
   - No vision: the target's and the object's positions are perceived 3-D
     points (with a camera's delay, noise, missed frames and calibration
     error on the real robot), not pixels.
   - No grasping: the two tasks are reach-and-hold in free space and push
     (an object slid over a table by a pusher tip); contacts are the
     tip's, the object's and the table's only.
   - No GPU, no autodiff framework: small MLPs, hand-written backward passes.
   - No contacts between the links: the arms move in free space.
   - No real hardware driver: the backend interface is where yours would
     go, in your process or in its own behind a socket (s2r_socket_robot;
     examples/robot_server.py marks where the driver's calls go).
   - No claim that the stand-in real robot is *your* robot: it is a plausible,
     documented one, so the recipe can be measured end to end.

   4. Configuration macros
   -----------------------
   SIM2REAL_IMPLEMENTATION   compile the implementation in this translation unit
   S2R_MALLOC(sz) S2R_REALLOC(p,sz) S2R_FREE(p)
                             your allocator; define all three or none
   S2R_ASSERT(x)             programmer-error check (default: assert)
   S2RDEF                    storage for public functions (default: extern;
                             define S2R_STATIC to make them static)
   S2R_IMPLEMENTATION_ELSEWHERE
                             ignore SIM2REAL_IMPLEMENTATION in this
                             translation unit (declarations only): for a
                             program written as one drop-in file, with the
                             define at its top, linked to an implementation
                             compiled once elsewhere (the Makefile builds
                             the examples, benches and tests that way)
   S2R_EXERCISE_LATENCY, S2R_EXERCISE_RANDOMIZATION, S2R_EXERCISE_PPO,
   S2R_EXERCISE_SYSID, S2R_EXERCISE_GATES
                             leave out one step of the recipe for your own
                             definitions, same signatures (the course kit,
                             course/README.md): the delay line and jitter
                             (s2r_delay_*); s2r_dist_sample and
                             s2r_randomization_sample; s2r_gae and
                             s2r_ppo_clipped_loss; s2r_line_minimize;
                             s2r_wilson_interval and s2r_sprt_decide.  Each
                             is a block marked ">> exercise NAME"
   The companions' switches are in their own manuals: S2R_RENDER,
   S2R_RENDER_SAMPLES and S2R_RENDER_SHADOW_SIZE in examples/s2r_render.h,
   S2R_NO_STB_IMAGE_WRITE_IMPLEMENTATION in examples/s2r_figures.h.

   5. Memory
   ---------
   Every object is caller-owned: you provide the struct (on the stack or
   wherever), `s2r_x_init(&obj, &config)` allocates what it needs through
   S2R_MALLOC, `s2r_x_free(&obj)` releases it.  An object that hands out a
   backend or environment points into itself: do not move it after init.
   Buffers for rollouts and delay lines are allocated at init; stepping an
   environment allocates nothing (bench/bench_main.c counts).

   6. Errors
   ---------
   Functions that can fail return `s2r_result`: S2R_OK (0) or a negative code;
   `s2r_result_string(code)` names it.  Objects that can fail carry a
   `char error[S2R_ERROR_LEN]` with a sentence saying what went wrong (for a
   malformed MJCF, MuJoCo's own message; s2r_task's `error` points to its
   active task's, reach's or push's); control bytes quoted from a file
   or a command line show as '?'.  Bad input (NaN actions, min > max
   ranges, corrupt files) is an error code, never a crash, and leaves the
   object as it was.  Files are written whole or not at all (s2r_file).
   The library never calls exit() or abort(); S2R_ASSERT guards only
   against programmer errors such as a NULL object.

   The NULL rule.  The object a function works on (its first argument,
   whose type names the function: the s2r_sim of s2r_sim_*, the policy of
   s2r_policy_*, the delay line of s2r_delay_*, ...) must not be NULL -
   S2R_ASSERT (a free function given NULL does nothing).  Every other
   pointer (configs, buffers, paths, controllers, backends) is checked: in
   a function that returns s2r_result, NULL is S2R_ERR_INVALID_ARGUMENT with
   a message in the object's error (or `error`), unless its comment
   documents NULL as a choice (a NULL start pose is home, a NULL rng keeps
   the draw, a NULL `error` drops the message, ...).  A function that
   returns no s2r_result (the hot path's and the maths' pieces: delay
   lines, noise, network passes, GAE, inverse kinematics, intervals) has no
   error to give: a NULL buffer there is a programmer error, S2R_ASSERT as
   for the object; a name lookup (*_find) answers "not found".  A test
   calls every public function with each pointer NULL in turn
   (tests/test_null_rule.c).

   MuJoCo's own fatal errors (mju_error: out of memory, a model it cannot
   take, an overflowing stack) end the process in MuJoCo 2.2.2 after
   printing "Press Enter to exit" and waiting on stdin, unless a handler is
   installed in mju_user_error - and that handler must not return.  The
   library installs one the first time it calls MuJoCo (unless your program
   installed its own first): every library call into MuJoCo that can fail
   that way (loading a model, making its data, a reset, a simulator's
   physics step)
   runs under a guard that the handler jumps back to (setjmp / longjmp, per
   thread), and fails with S2R_ERR_MODEL and MuJoCo's message; memory
   MuJoCo held at that moment may leak.  Inputs that MuJoCo would reject
   fatally are checked before the call where they are known (an empty
   MJCF, a payload beyond S2R_PAYLOAD_MAX).  An mju_error raised outside
   the library's calls (your own mj_* calls) is printed to stderr and the
   handler returns, as MuJoCo then continues.  MuJoCo's warnings, which by
   default it appends to MUJOCO_LOG.TXT in the current folder, go to stderr
   once the library has installed its handlers (again, unless yours were
   there first).

   7. Determinism and random numbers
   ---------------------------------
   There is no hidden random state.  Every function that draws random numbers
   takes an `s2r_rng*`.  `s2r_rng_make(seed, stream)` gives independent streams
   for the same seed (one per environment, one per fleet unit, ...).  The same
   seeds reproduce bit-identical results on the same build.

   8. Sections of this file
   ------------------------
   In the order data flows, each opening with a banner saying what it is
   for; the implementation repeats the order under SIM2REAL_IMPLEMENTATION:
   each section's implementation opens with a comment whose first line is
   ">> section: NAME" (search for ">> section"), then its flow: what to read
   first, what follows.
     Core                  results, error messages, allocators, RNG streams
     Robots                embedded UR5e and Panda MJCF, your own MJCF
     Randomization         distributions, the named parameter table, files
     Sensing, Latency      noise models, delay lines, jitter, sample and hold
     Backend interface     the one door to a robot; the simulator behind it
     Stand-in real robot   a fleet of units with hidden parameters
     Socket backend        a robot in another process: the protocol, its
                           client (a backend) and the robot side
     Reach task            observation, action, reward, success
     Push task             the object, the camera, the tip's Cartesian control
     Tasks                 one door for the pipeline to either task
     Scripted controller   IK, the reach expert and the pusher (baseline,
                           operator, fallback)
     Learning              MLP, PPO (optionally with a privileged critic),
                           behaviour cloning, checkpoints, pendulum,
                           demonstration files
     Evaluation            controllers, success with Wilson intervals, frame
                           history (a policy with memory)
     Demonstrations        the operator on the real robot, cloning
     Training              simulators as PPO environments, automatic domain
                           randomization, the training CSV, Ctrl-C
     System identification excitation, strikes, trajectory files (CSV logs),
                           the replay backend, coordinate descent, the object,
                           calibration
     Deployment            safety monitor, sequential gates (SPRT) and their
                           exact operating characteristic, shadow, canary,
                           CUSUM and Page-Hinkley drift, log
   The examples' own sections are companion headers in examples/, each with
   its manual at the top.  Include them after this file, in every file that
   uses them:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "s2r_figures.h"           // and the others it uses
   The one SIM2REAL_IMPLEMENTATION compiles their implementations too, in
   the same translation unit as the core's, whose private helpers
   (s2r__fail, s2r__calloc, ...) they use: define it before sim2real.h is
   first included, in the file that includes every companion the program
   uses (S2R_IMPLEMENTATION_ELSEWHERE, section 4, turns it off for a file
   linked to an implementation compiled elsewhere).  A companion included
   before sim2real.h, or a second time with the implementation in the same
   file, stops compilation with an #error saying so.
     examples/s2r_cli.h      running the examples: command line, output
                             folder, progress, arm facts
     examples/s2r_figures.h  PNG line plots, bar charts, histograms, and the
                             learning curve of a training CSV (needs stb)
     examples/s2r_render.h   headless scene images and filmstrips (OSMesa,
                             S2R_RENDER); needs s2r_figures.h before it
   SIM2REAL_IMPLEMENTATION compiles theirs along with the core's, in the
   same translation unit (they use the core's private helpers: s2r__fail,
   s2r__calloc, ...): define it once, before sim2real.h, in the one file
   that includes every companion the program uses.

   9. Reading paths
   ----------------
   For each question a reader brings, the functions that answer it, in the
   order to read them (search for the name; each is defined once in the
   implementation or the example named).  The first five read down the
   file: each function, and each function of its section it calls, is
   defined below its caller (tests/test_docs.c keeps them so).

   What does domain randomization do to a simulator on a reset?
     s2r_randomization_default   the ranges, each with its reason
     s2r__sim_reset              per episode: draw (s2r__sim_sample_draw),
                                 apply (s2r__sim_apply_draw), sensing
                                 (s2r__sim_setup_sensing), arm and object;
                                 then every physics step runs
                                 s2r__sim_physics_step (delayed command,
                                 mj_step, the delayed sensors)
   What does one PPO update do?
     s2r_ppo_iterate             anneal, collect, update, statistics
     s2r__ppo_collect            a rollout from every environment (act, step,
                                 record), then GAE
     s2r__ppo_update             epochs of shuffled minibatches: gather, the
                                 clipped objective, value loss and entropy
                                 (s2r__ppo_losses), clip, Adam, target KL
   How does a stand-in real unit differ from the simulator?
     s2r_real_unit_draw          the fleet distribution, each value's reason
                                 (s2r__unit_friction: Gaz et al.; s2r__unit_push:
                                 the unit's table and puck)
     s2r__real_effects           unmodeled effects, every physics step
     s2r_real_robot_init_ablated the same unit with effects switched off
   How is one row of the table made? (examples/07_the_table.c)
     run_chain                   the rows of one training seed on its unit,
                                 each a function below it: train_row,
                                 evaluate_row, finetune_row; then
                                 real_only_row (the jobs, and the merge that
                                 pools the seeds, end the file)
     s2r_train                   PPO on simulators of the task (train_row)
     s2r_evaluate_sim_and_real   the row's two numbers (evaluate_row)
     s2r_finetune_on_unit        demos, two fine-tunes, a canary against the
                                 policy (finetune_row)
     s2r_clone_demos             cloning from scratch on the pooled demos
                                 (real_only_row)
   Where does a policy's gap come from? (examples/09_gap_attribution.c)
     s2r_attribute_gap           every condition, in parallel
     s2r__unit_switch_off        what "off" means for each effect
   How far can a simulation number be trusted? (examples/14_predicting_transfer.c)
     s2r_predict_transfer        four simulators, each a prediction
     s2r__evaluate_sim           a simulator with a given camera
   How does system identification fit a unit?
     s2r_identify_unit           record, fit, validate, re-centre
     s2r_trajectory_collect      excitation through the backend
     s2r_sysid_run               the fit, how sure it is, the verdict
     s2r__sysid_descend          sweeps: coordinates, then directions
     s2r__sysid_latency_outer    each delay judged with the rest re-fitted
     s2r__sysid_assess           polish check, standard errors, flat
                                 combinations, half-widths
     s2r__sysid_validate         held-out error, per joint, the corners
     s2r_sysid_recentre          the next training ranges
   How does automatic domain randomization grow the ranges?
     s2r_adr_init                where ranges start and how far they may go
     s2r__adr_env_reset          an episode tests one edge, or none
     s2r__adr_judge              after each update: widen, narrow or keep
   How does a deployment gate decide?
     s2r_sprt_decide             Wald's test on k successes of n episodes
     s2r_gate_tethered           the sequential rule, or the earlier one
     s2r_gate_canary_pairs       a candidate against the incumbent, in pairs
     s2r_gate_oc                 what a gate costs and risks, exactly; the
                                 verdict then goes to s2r_deploy_apply
   How does the object's system identification work?
     s2r_identify_object         strikes, the fit, the verdict
     s2r_trajectory_collect_strikes  the tip strikes the object, open loop
     s2r__sysid_replay           the simulator replays them; the object's error
     s2r__sysid_validate         the error beyond the camera's own
   How does a log become a trajectory set?
     s2r_trajectory_set_load_csv the files, then resampling
     s2r__table_parse            any CSV of numbers, with file and line
     s2r__log_resample           held commands, interpolated readings
*/
#ifndef SIM2REAL_H
#define SIM2REAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <mujoco/mujoco.h>

#ifdef S2R_STATIC
#define S2RDEF static
#else
#ifdef __cplusplus
#define S2RDEF extern "C"
#else
#define S2RDEF extern
#endif
#endif

/* ==========================================================================
   Core: result codes, the error channel, the RNG
   ========================================================================== */

#define S2R_ERROR_LEN 256   /* bytes in every object's `error` message buffer */
#define S2R_MAX_JOINTS 8    /* largest arm this library drives (Panda: 7)      */
#ifndef S2R_CACHE_LINE
#define S2R_CACHE_LINE 64   /* bytes; what threads write in parallel is laid
                               out in whole lines of this size (x86-64, most
                               ARM cores; define 128 for Apple's M-series)  */
#endif

typedef enum s2r_result {
    S2R_OK = 0,
    S2R_ERR_INVALID_ARGUMENT = -1,  /* NULL, NaN/Inf, out of range, min > max */
    S2R_ERR_OUT_OF_MEMORY = -2,     /* S2R_MALLOC returned NULL                */
    S2R_ERR_MODEL = -3,             /* MJCF failed to load or lacks a part     */
    S2R_ERR_IO = -4,                /* file could not be opened/written/renamed */
    S2R_ERR_CORRUPT = -5,           /* bad magic, version, size or checksum    */
    S2R_ERR_PARSE = -6,             /* malformed text (config, options)        */
    S2R_ERR_DIVERGED = -7,          /* physics produced NaN/huge accelerations */
    S2R_ERR_STATE = -8,             /* call out of order (e.g. step before reset) */
    S2R_ERR_UNSUPPORTED = -9,       /* not available in this build/backend     */
    S2R_ERR_INTERRUPTED = -10,      /* stopped on request (Ctrl-C); state saved */
    S2R_RESULT_COUNT_ = 11          /* number of codes (0 .. -10)              */
} s2r_result;

/* Name of a result code, e.g. "S2R_ERR_CORRUPT"; never NULL. */
S2RDEF const char* s2r_result_string(s2r_result r);

/* Random numbers: xoshiro256** seeded through splitmix64.  A generator is a
   plain value; copy it to fork a reproducible sequence.  Streams made from the
   same seed with different `stream` numbers are statistically independent. */
typedef struct s2r_rng { uint64_t s[4]; } s2r_rng;

S2RDEF s2r_rng  s2r_rng_make(uint64_t seed, uint64_t stream);
S2RDEF uint64_t s2r_rng_u64(s2r_rng* rng);
S2RDEF double   s2r_rng_uniform(s2r_rng* rng);               /* [0, 1)          */
S2RDEF double   s2r_rng_range(s2r_rng* rng, double lo, double hi); /* [lo, hi)  */
S2RDEF double   s2r_rng_normal(s2r_rng* rng);                /* N(0, 1)         */
S2RDEF int      s2r_rng_int(s2r_rng* rng, int n);            /* 0 .. n-1, n > 0 */
/* A child generator derived from the parent's next output and `index`:
   the way to give each environment or unit its own stream at run time. */
S2RDEF s2r_rng  s2r_rng_split(s2r_rng* parent, uint64_t index);

/* Small numeric helpers used across sections. */
S2RDEF int    s2r_all_finite(const double* x, int n);
S2RDEF int    s2r_all_finite_f(const float* x, int n);
S2RDEF double s2r_clamp(double x, double lo, double hi);
/* Seconds from an arbitrary start: wall time when built with OpenMP
   (omp_get_wtime), processor time otherwise (portable C99 has no wall
   clock).  For throughput figures, never for results. */
S2RDEF double s2r_seconds(void);

/* Output files appear whole or not at all.  s2r_file_create opens a
   temporary file beside `path`, named after it and unique to the process
   and the call (`path`.<pid>-<n>.tmp), for writing; s2r_file_commit flushes
   and closes it and renames it over `path` in one step; s2r_file_discard
   closes and removes it.  A crash in between leaves the previous `path`
   (if any) untouched and at most a stale .tmp beside it; two processes
   writing the same name never write into one file.  Every file the library
   writes goes this way, except the deployment log, which is appended one
   whole record at a time. */
#define S2R_PATH_LEN 1024   /* longest path s2r_file accepts, with its NUL */
typedef struct s2r_file {
    FILE* f;                      /* write through this; NULL when closed  */
    char  path[S2R_PATH_LEN];     /* the final name                        */
    char  tmp[S2R_PATH_LEN + 48]; /* where the bytes go first              */
} s2r_file;

S2RDEF s2r_result s2r_file_create(s2r_file* file, const char* path, char* error);
/* S2R_ERR_IO if any write failed (the .tmp is removed, `path` untouched). */
S2RDEF s2r_result s2r_file_commit(s2r_file* file, char* error);
S2RDEF void       s2r_file_discard(s2r_file* file);
/* create + write n bytes + commit. */
S2RDEF s2r_result s2r_file_write_all(const char* path, const void* data, size_t n, char* error);
/* 1 when something exists at `path` (readable or not).  The examples' rule
   for an upstream artifact: missing, they may say how to make it and go on
   without it; there but unusable (corrupt, for another arm or task), they
   stop with an error naming the file - never a silent fallback. */
S2RDEF int         s2r_file_exists(const char* path);

/* An environment as the learners (PPO, behaviour cloning, evaluation) see it:
   float observations and actions, actions normalized to [-1, 1] per
   dimension (the environment clips).  The reach task and the pendulum both
   provide one.  `step` writes the observation *after* the step; when
   `done` is set that is the final observation of the episode (used to
   bootstrap a time-limit truncation) and the caller must call `reset`. */
typedef struct s2r_step_result {
    float  reward;
    int    terminated;  /* ended by the task itself (e.g. physics diverged): no bootstrap */
    int    truncated;   /* ended by the time limit: bootstrap from V(final obs)           */
    int    done;        /* terminated || truncated                                        */
    int    success;     /* at episode end: task success judged from ground truth         */
    int    diverged;    /* physics blew up; the episode was ended                         */
    double distance;    /* task measure at this step (reach: flange-target distance, m)   */
} s2r_step_result;

typedef struct s2r_env {
    void* self;         /* the task object behind the interface */
    int   obs_dim;      /* floats per observation               */
    int   act_dim;      /* floats per action                    */
    s2r_result (*reset)(void* self, s2r_rng* rng, float* obs /* [obs_dim] */);
    s2r_result (*step)(void* self, const float* action /* [act_dim] */,
                       float* obs /* [obs_dim] */, s2r_step_result* out);
    /* Optional, for a privileged critic (s2r_ppo_config.privileged_dim):
       what only a simulator knows about the running episode, e.g. its
       randomized parameters (s2r_sim_privileged), priv_dim floats written
       by privileged(priv_self, out).  Read with every observation: after
       each reset and each step (before the reset that follows an
       episode's end).  priv_dim 0 / NULL: none
       (what the environments of this library report unless training asks,
       and what a real robot always reports). */
    int   priv_dim;
    void* priv_self;
    s2r_result (*privileged)(void* priv_self, float* out /* [priv_dim] */);
} s2r_env;

/* ==========================================================================
   Robots: the UR5e and the Franka Panda as embedded MJCF, or your own arm
   ==========================================================================
   Both arms are written from published numbers (see the comments above each
   MJCF in the implementation) with primitive geoms and joint position servos
   running at the physics rate (dt 0.002 s, implicit integrator; 0.004 s in
   the push scene, see below):

       tau = kp (q_target - q) - kv qdot,   clipped to the torque limit

   which is a MuJoCo <general> actuator with an affine bias.  There is no
   gravity compensation in the servo, as on a plain position-controlled joint;
   the small static droop it causes is part of what a policy must correct.
   The links do not collide (the reach task moves in free space above the
   table, and contacts would halve the simulation speed); the floor is drawn
   only.  Geom friction therefore matters only for your own models with
   contacts.

   Your own MJCF works if it follows the same conventions:
     - a physics timestep (<option timestep>) from S2R_TIMESTEP_MIN (0.1 ms)
       to S2R_TIMESTEP_MAX (10 ms); another is refused at load;
     - every arm joint is a limited hinge driven by one position actuator
       (<general gaintype="fixed" biastype="affine">, forcelimited) of its
       own; the actuators' order is the joint order (at most
       S2R_MAX_JOINTS); every joint is an arm joint but the push object's
       free joint (a joint no actuator drives is refused);
     - a site named "flange" marks the tool flange;
     - no body heavier than S2R_BODY_MASS_MAX (1000 kg);
     - optional: a mocap body "target" (the marker), a keyframe "home"
       inside the joint ranges (without one, home is every joint at 0,
       which must then be inside them), a <numeric
       name="s2r_velocity_limit"> with one rad/s value per joint (default
       pi rad/s), and <numeric name="s2r_workspace"> with "xlo ylo zlo xhi
       yhi zhi" in metres (default: a 0.3 m box centred 0.1 m below the
       flange at home); a <numeric> with another number of values is
       refused, not replaced by the default.
     Each convention broken is S2R_ERR_MODEL at load, naming it.

   The push scene (S2R_SCENE_PUSH) adds, for the built-in arms, a pusher, a
   table and an object; the arm is mounted on the table, as UR and Franka
   arms usually are, so the table top is the plane z = 0 of the base:
     - the pusher: a rod on the flange ending in a sphere of radius 12 mm,
       the site "tip" at its centre (site z axis = the tool axis, pointing
       down at home); 12 cm beyond the UR5e's flange, 13 cm beyond the
       Panda's hand (between the fingers);
     - the table: a plane (MuJoCo planes collide everywhere; the table's
       extent is its geom size, 0.6 m x 0.6 m, and an object beyond it
       has fallen off);
     - the object: a puck, a cylinder 70 mm across and 50 mm high of 0.2 kg
       (a polymer block about the density of water; tall enough that a
       pusher at a fixed height meets its side whatever the table's height
       error; an ice-hockey puck, 76 mm x 25 mm, would not),
       on a free joint with 0.01 N s/m of damping (air and the odd bit of
       rolling resistance: small beside its 0.6 N of sliding friction);
     - three contact pairs and no other contacts: object-table (sliding
       friction 0.3, a polymer on a laminated table top, measured 0.2-0.4
       in practice), tip-object (0.5) and tip-table (0.5);
     - the area where objects and goals are placed: a 0.3 m x 0.24 m
       rectangle in front of the arm, reachable with the tool vertical.
   Your own push scene follows the same names: site "tip", geoms "tip",
   "table" (a plane) and "object" (a cylinder, on a body "object" with a
   free joint), <pair>s object-table and tip-object (tip-table optional),
   and <numeric name="s2r_push_area"> "xlo ylo xhi yhi" (m, world).

   The push scene steps physics at 4 ms instead of 2 ms: with contacts,
   MuJoCo 2.2.2's implicit step costs about twice as much.  At 4 ms the
   scripted pusher succeeds as often (200 episodes each: UR5e 93 % at
   both, Panda 95 % at both), and after a 0.004 rad step on every joint
   (no servo saturated) each joint is where it is at 2 ms within 5 % of
   the step at 50 ms, 3 % at 150 ms and 1.5 % at 350 ms (a test).  Where the servo saturates it does not: after a 0.3 rad step
   the Panda's wrist (kv 200, +-12 N m) lags about 30 % more at 4 ms,
   because the implicit integrator keeps kv's damping in the step although
   the force range clips the torque - so a saturated servo's response
   depends on the timestep at 2 ms too, only less.  (Euler with kv moved
   into joint damping measured 1.7-2x faster with contacts but changed the
   saturated response more, so the integrator stays implicit.) */

/* The physics timesteps a model may have, s.  Below 0.1 ms one 40 ms
   control step takes over 400 physics steps (at 1e-7 s a step never
   ends in practice); above 10 ms a control step holds fewer than four
   physics steps and the stiff position servos' implicit step loses its
   accuracy; zero or a negative timestep freezes or reverses time.  The
   built-in arms use 2 ms (4 ms in the push scene). */
#define S2R_TIMESTEP_MIN 1e-4
#define S2R_TIMESTEP_MAX 1e-2

/* The heaviest body a model may have, kg: ten times S2R_PAYLOAD_MAX, far
   beyond a link of the arms this library is for (the whole UR5e weighs
   20.6 kg, the Panda about 18 kg), well before masses whose ratio to the
   others makes MuJoCo's mass matrix singular (a 1e30 kg link loaded and
   ran).  Refused at load, naming the body. */
#define S2R_BODY_MASS_MAX 1000.0

typedef enum s2r_scene {
    S2R_SCENE_ARM,      /* the arm alone, in free space (reach)                 */
    S2R_SCENE_PUSH,     /* the arm with a pusher tip, a table and an object     */
    S2R_SCENE_COUNT
} s2r_scene;

typedef enum s2r_robot_kind {
    S2R_ROBOT_UR5E,     /* Universal Robots UR5e, 6 DOF, 21.0 kg, reach 0.85 m  */
    S2R_ROBOT_PANDA,    /* Franka Emika Panda, 7 DOF, 17.45 kg with the hand   */
    S2R_ROBOT_CUSTOM,   /* your MJCF, following the conventions above          */
    S2R_ROBOT_COUNT
} s2r_robot_kind;

/* "ur5e", "panda", "custom". */
S2RDEF const char* s2r_robot_kind_name(s2r_robot_kind kind);
/* S2R_ROBOT_COUNT when `name` is none of the above. */
S2RDEF s2r_robot_kind s2r_robot_kind_find(const char* name);

/* The public facts of an arm: what a datasheet and the CAD model tell, the
   same for the simulator and for a real unit of that arm. */
typedef struct s2r_arm_info {
    s2r_robot_kind kind;
    char   name[32];                          /* model name from the MJCF           */
    int    n_joints;                          /* actuated joints, <= S2R_MAX_JOINTS  */
    char   joint_name[S2R_MAX_JOINTS][32];
    double q_home[S2R_MAX_JOINTS];            /* rad, the "home" keyframe (or 0)    */
    double q_min[S2R_MAX_JOINTS];             /* rad, hard joint limits             */
    double q_max[S2R_MAX_JOINTS];             /* rad                                */
    double torque_limit[S2R_MAX_JOINTS];      /* N·m, servo force limit             */
    double velocity_limit[S2R_MAX_JOINTS];    /* rad/s, datasheet joint speed limit */
    double kp[S2R_MAX_JOINTS];                /* N·m/rad, nominal servo stiffness   */
    double kv[S2R_MAX_JOINTS];                /* N·m·s/rad, nominal servo damping   */
    double link_mass[S2R_MAX_JOINTS];         /* kg, the body each joint moves      */
    double total_mass;                        /* kg, every body but the world and mocap */
    double workspace_lo[3], workspace_hi[3];  /* m, world frame: where targets are drawn */
    double physics_dt;                        /* s, nominal physics timestep         */
    const mjModel* model;                     /* the nominal model, for kinematics   */
    int    flange_site;                       /* site id of "flange" in `model`      */
    /* The push scene; all 0 (tip_site -1) for the arm alone: */
    s2r_scene scene;
    int    tip_site;                          /* site id of "tip", -1 if none         */
    double tip_radius;                        /* m, the pusher's sphere               */
    double table_height;                      /* m, nominal table top (world z)       */
    double table_lo[2], table_hi[2];          /* m, the table top's extent (x, y)     */
    double push_area_lo[2], push_area_hi[2];  /* m, where objects and goals are placed */
    double object_radius;                     /* m                                    */
    double object_half_height;                /* m                                    */
    double object_mass;                       /* kg, nominal                          */
} s2r_arm_info;

/* A loaded arm: MuJoCo model and data plus the indices needed to drive it. */
typedef struct s2r_robot {
    mjModel*     model;
    mjData*      data;
    s2r_arm_info info;
    int qpos_adr[S2R_MAX_JOINTS];   /* index of joint j in qpos              */
    int dof_adr[S2R_MAX_JOINTS];    /* index of joint j in qvel/qfrc         */
    int actuator[S2R_MAX_JOINTS];   /* actuator id driving joint j           */
    int body[S2R_MAX_JOINTS];       /* body id moved by joint j              */
    int flange_site;                /* site id of "flange"                   */
    int flange_body;                /* body carrying the flange (payloads go here) */
    int target_mocap;               /* mocap index of "target", -1 if absent */
    /* The push scene; -1 when absent: */
    int tip_site, tip_geom, table_geom, object_body, object_geom;
    int object_qpos_adr, object_dof_adr;   /* the object's free joint: 7 qpos, 6 dofs */
    int pair_object_table, pair_tip_object, pair_tip_table;   /* <pair> ids */
    char error[S2R_ERROR_LEN];
} s2r_robot;

/* Load a built-in arm (UR5E or PANDA) from its embedded MJCF. */
S2RDEF s2r_result s2r_robot_load(s2r_robot* robot, s2r_robot_kind kind);
/* The same arm in a scene: S2R_SCENE_ARM is s2r_robot_load; PUSH adds the
   pusher, table and object described above. */
S2RDEF s2r_result s2r_robot_load_scene(s2r_robot* robot, s2r_robot_kind kind, s2r_scene scene);
/* Load an arm from MJCF text in memory / from a file.  On a malformed model
   the result is S2R_ERR_MODEL and robot->error holds MuJoCo's message; a
   path that is not a regular file (missing, a directory, a FIFO MuJoCo
   would wait on) is S2R_ERR_IO naming it, before MuJoCo opens it. */
S2RDEF s2r_result s2r_robot_load_xml(s2r_robot* robot, const char* xml);
S2RDEF s2r_result s2r_robot_load_file(s2r_robot* robot, const char* path);
S2RDEF void       s2r_robot_free(s2r_robot* robot);
/* The embedded MJCF of a built-in arm, written into `buf` (`cap` bytes);
   returns the length it needs (like snprintf), 0 for an unknown kind. */
S2RDEF size_t     s2r_robot_mjcf(s2r_robot_kind kind, char* buf, size_t cap);
/* The same for the arm in `scene`. */
S2RDEF size_t     s2r_robot_scene_mjcf(s2r_robot_kind kind, s2r_scene scene, char* buf, size_t cap);
/* "arm", "push"; "unknown" out of range. */
S2RDEF const char* s2r_scene_name(s2r_scene scene);
/* Put the arm at rest at `q` (rad, [n_joints]; NULL = home) with the servos
   holding it there, and recompute positions.  A q with NaN/Inf or outside
   a joint's range: S2R_ERR_INVALID_ARGUMENT, nothing changed. */
S2RDEF s2r_result s2r_robot_reset(s2r_robot* robot, const double* q);
/* Physics steps that advance the arm by `seconds` with its model's
   (possibly drawn) timestep, rounded to the nearest: how a simulator's
   advance counts them. */
S2RDEF int        s2r_robot_steps_for(const s2r_robot* robot, double seconds);
/* Flange position (m, world) for joint angles `q` (rad, [n_joints], in
   actuator order) on `model`, using the caller's scratch `data` (from
   mj_makeData(model)); no allocation. */
S2RDEF void       s2r_flange_fk(const mjModel* model, mjData* scratch, int flange_site,
                                const double* q, int n_joints, double pos[3]);

/* ==========================================================================
   Randomization (1/3): scalar distributions
   ==========================================================================
   Domain randomization in one paragraph: a randomized simulator (s2r_sim,
   under Backend interface) holds a table of ranges, one entry per named
   parameter (part 2 below; the defaults are s2r_randomization_default).
   At every episode's reset it draws a value from each enabled entry - per
   joint for the joint-wise ones - writes them into its MuJoCo model (a
   friction scaled, a mass scaled, a latency set), and runs the episode on
   that model; a policy trained across many such episodes must work on all
   of them.  The flow is s2r__sim_reset (the reading path "What does domain
   randomization do to a simulator?" in the manual lists the rest).  This
   part is the distributions the entries draw from; part 3 is the text file.

   A distribution says how one randomized quantity is drawn at the start of
   an episode.  Four kinds:

     kind                   support    fields used        draws
     S2R_DIST_FIXED         {mean}     mean               none
     S2R_DIST_UNIFORM       [lo, hi]   lo, hi             1 uniform
     S2R_DIST_LOG_UNIFORM   [lo, hi]   lo, hi (0 < lo)    1 uniform
     S2R_DIST_TRUNC_NORMAL  [lo, hi]   lo, hi, mean, std  rejection (see below)

   FIXED keeps its value in `mean` (s2r_dist_fixed(v) also sets lo = hi = v
   and std = 0, so the support reads naturally).  Fields a kind does not use
   are ignored; the other constructors set them to 0.

   LOG_UNIFORM draws log(x) uniformly: every factor of two inside [lo, hi] is
   equally likely.  It suits scale factors, where 0.7x and 1.43x are equally
   far from nominal.

   TRUNC_NORMAL is N(mean, std^2) conditioned on [lo, hi], sampled exactly by
   rejection: from the normal itself when the interval is wide (at least
   sqrt(2 pi) standard deviations), otherwise from a uniform proposal on
   [lo, hi] accepted with the normal density relative to its peak.  With
   lo <= mean <= hi (required by s2r_dist_check) at least 49 % of proposals
   are accepted, so the retry cap (S2R_TRUNC_NORMAL_TRIES, unreachable in
   practice: the chance of hitting it is below 1e-2900) only guards against
   corrupt input; if it is ever hit the sample is the mode, clamp(mean).
   A zero std or zero-width interval draws nothing and returns the mode.

   Degenerate distributions (FIXED, lo == hi, std == 0) draw no random
   numbers; every other sample draws from the rng, so a fixed sequence of
   calls with a fixed seed gives a fixed sequence of values.

   Every sample lies in the support (results are clamped against rounding). */

#define S2R_TRUNC_NORMAL_TRIES 10000
#define S2R_ADVANCE_MAX 3600.0   /* s, longest single advance of a backend: an hour */
#define S2R_PAYLOAD_MAX 100.0   /* kg, largest payload a range may reach: 20 times the UR5e's rated 5 kg */

typedef enum s2r_dist_kind {
    S2R_DIST_FIXED,         /* "fixed":       always `mean`                  */
    S2R_DIST_UNIFORM,       /* "uniform":     uniform on [lo, hi]            */
    S2R_DIST_LOG_UNIFORM,   /* "loguniform":  log x uniform, 0 < lo <= hi    */
    S2R_DIST_TRUNC_NORMAL,  /* "truncnormal": N(mean, std^2) on [lo, hi]     */
    S2R_DIST_COUNT
} s2r_dist_kind;

typedef struct s2r_dist {
    s2r_dist_kind kind;
    double lo, hi;   /* support, in the quantity's own unit               */
    double mean;     /* FIXED: the value; TRUNC_NORMAL: the untruncated mean */
    double std;      /* TRUNC_NORMAL: the untruncated standard deviation   */
} s2r_dist;

/* "fixed", "uniform", "loguniform", "truncnormal"; "unknown" out of range. */
S2RDEF const char*   s2r_dist_kind_name(s2r_dist_kind kind);
/* The kind with that name; S2R_DIST_COUNT when there is none. */
S2RDEF s2r_dist_kind s2r_dist_kind_find(const char* name);

S2RDEF s2r_dist s2r_dist_fixed(double value);
S2RDEF s2r_dist s2r_dist_uniform(double lo, double hi);
S2RDEF s2r_dist s2r_dist_log_uniform(double lo, double hi);
S2RDEF s2r_dist s2r_dist_trunc_normal(double lo, double hi, double mean, double std);

/* S2R_OK, or S2R_ERR_INVALID_ARGUMENT with a message in `error`
   (S2R_ERROR_LEN bytes, may be NULL) naming the kind and the problem: a
   NaN/Inf field the kind uses, lo > hi, a log-uniform lo <= 0, a negative
   std, a truncated-normal mean outside [lo, hi], an unknown kind. */
S2RDEF s2r_result s2r_dist_check(const s2r_dist* d, char* error);
/* One draw (see above for what it consumes).  `d` must pass s2r_dist_check;
   an unknown kind gives NaN. */
S2RDEF double     s2r_dist_sample(const s2r_dist* d, s2r_rng* rng);
/* The exact expected value of a draw (for a valid d).  Log-uniform:
   (hi - lo) / ln(hi / lo).  Truncated normal: mean + std (phi(a) - phi(b)) /
   (Phi(b) - Phi(a)) with a, b the standardized bounds. */
S2RDEF double     s2r_dist_mean(const s2r_dist* d);
/* The point widening and recentring work around: FIXED its value, UNIFORM
   (lo + hi) / 2, LOG_UNIFORM sqrt(lo hi), TRUNC_NORMAL mean (the mode). */
S2RDEF double     s2r_dist_centre(const s2r_dist* d);
/* Smallest and largest value a draw can take. */
S2RDEF void       s2r_dist_support(const s2r_dist* d, double* lo, double* hi);
/* For automatic domain randomization: the distribution stretched by
   `factor` about its centre (factor > 1 widens, < 1 narrows), then clipped
   to [min, max] (the physically meaningful range; -INFINITY/INFINITY for
   none) and to finite values.  UNIFORM and TRUNC_NORMAL stretch linearly
   (the std too); LOG_UNIFORM stretches log(lo) and log(hi) about
   log(centre), so it stays positive; FIXED is unchanged.  A factor that is
   not finite and > 0 returns *d unchanged.  The centre should lie in
   [min, max]. */
S2RDEF s2r_dist   s2r_dist_widen(const s2r_dist* d, double factor, double min, double max);
/* The same shape moved so that its centre is `centre` (UNIFORM and
   TRUNC_NORMAL shift, LOG_UNIFORM keeps its ratio hi/lo, FIXED takes the
   value).  For re-centring ranges on identified values; run s2r_dist_check
   on the result (a log-uniform needs centre > 0). */
S2RDEF s2r_dist   s2r_dist_recentre(const s2r_dist* d, double centre);

/* ==========================================================================
   Randomization (2/3): the table of named simulator parameters
   ==========================================================================
   One entry per physical effect that differs between simulator and robot.
   Each entry holds a distribution, how a draw combines with the model's
   nominal value (the apply mode) and whether it is on:

       scale     x = nominal * draw      (identity draw 1)
       offset    x = nominal + draw      (identity draw 0)
       absolute  x = draw                (nominal is ignored)

   For quantities whose nominal is zero by definition (payload, latencies,
   noise levels, calibration errors) offset and absolute coincide.  Each
   parameter allows only the modes that make sense for it (a latency cannot
   be a scale of zero), and its draws must have the right sign;
   s2r_param_range_check enforces both:

     parameter                     default mode  allowed modes    values
     friction damping armature     scale         all three        >= 0
     frictionloss                  offset        all three        >= 0
     link_mass                     scale         scale, offset    > 0
     kp torque_limit timestep      scale         all three        > 0
     kv                            scale         all three        >= 0
     payload, action_latency, obs_latency, qpos_noise, qvel_noise,
       target_noise, latency_jitter, camera_latency, object_noise
                                   absolute      offset, absolute >= 0
                                   (payload at most S2R_PAYLOAD_MAX, 100 kg)
     target_offset qpos_bias       absolute      offset, absolute any sign
     object_friction object_damping tip_friction
                                   scale         all three        >= 0
     object_mass                   scale         scale, offset    > 0
     table_height                  offset        offset, absolute any sign
     object_dropout                absolute      offset, absolute in [0, 1]

   The sign rule constrains the whole range [lo, hi] of scale and absolute
   entries, and of offsets of zero-nominal parameters; an offset added to a
   model-given nominal (friction +- 0.2) may have either sign, and the code
   applying it clamps the result.

   Per episode, s2r_randomization_sample draws one value per parameter in
   enum order (disabled and fixed entries draw nothing).  Parameters that
   act per element - link_mass (per link), friction (per geom), qpos_bias
   (per joint), target_offset (per axis) - may instead be drawn per element
   with s2r_dist_sample on the entry's dist, by whoever applies them.
   Applying draws to a MuJoCo model always starts from a saved nominal copy,
   so episodes never compound.

   The identity: s2r_randomization_none() turns every entry off; a simulator
   run with it is exactly the nominal simulator. */

typedef enum s2r_param {
    S2R_PARAM_FRICTION,        /* geom sliding friction; scale of nominal          */
    S2R_PARAM_DAMPING,         /* joint viscous damping; scale                     */
    S2R_PARAM_ARMATURE,        /* joint armature (reflected rotor inertia); scale  */
    S2R_PARAM_FRICTIONLOSS,    /* joint dry friction, N·m; offset added to nominal */
    S2R_PARAM_LINK_MASS,       /* each link's mass (and inertia); scale, per link  */
    S2R_PARAM_PAYLOAD,         /* extra mass at the flange, kg                     */
    S2R_PARAM_KP,              /* servo position gain; scale                       */
    S2R_PARAM_KV,              /* servo velocity gain; scale                       */
    S2R_PARAM_TORQUE_LIMIT,    /* actuator force limit; scale                      */
    S2R_PARAM_TIMESTEP,        /* physics timestep; scale                          */
    S2R_PARAM_ACTION_LATENCY,  /* command-to-motion delay, s                       */
    S2R_PARAM_OBS_LATENCY,     /* sensing delay, s                                 */
    S2R_PARAM_QPOS_NOISE,      /* joint position noise std, rad                    */
    S2R_PARAM_QVEL_NOISE,      /* joint velocity noise std, rad/s                  */
    S2R_PARAM_TARGET_NOISE,    /* perceived target position noise std, m           */
    S2R_PARAM_LATENCY_JITTER,  /* per-step jitter of both delays, +- s             */
    S2R_PARAM_TARGET_OFFSET,   /* camera-to-base calibration error, m, per axis    */
    S2R_PARAM_QPOS_BIAS,       /* encoder zero offset, rad, per joint              */
    /* The push scene's (no effect on the arm alone): */
    S2R_PARAM_OBJECT_FRICTION, /* object-table sliding friction; scale             */
    S2R_PARAM_OBJECT_MASS,     /* object mass (and inertia); scale                 */
    S2R_PARAM_OBJECT_DAMPING,  /* object free-joint damping; scale                 */
    S2R_PARAM_TIP_FRICTION,    /* tip-object sliding friction; scale               */
    S2R_PARAM_TABLE_HEIGHT,    /* table top height error, m; offset                */
    S2R_PARAM_CAMERA_LATENCY,  /* object camera: capture-to-reading delay, s       */
    S2R_PARAM_OBJECT_NOISE,    /* perceived object position noise std, m           */
    S2R_PARAM_OBJECT_DROPOUT,  /* probability a camera frame misses the object     */
    S2R_PARAM_COUNT
} s2r_param;

typedef enum s2r_apply_mode {
    S2R_APPLY_SCALE,     /* "scale":    nominal * draw */
    S2R_APPLY_OFFSET,    /* "offset":   nominal + draw */
    S2R_APPLY_ABSOLUTE,  /* "absolute": draw           */
    S2R_APPLY_COUNT
} s2r_apply_mode;

typedef struct s2r_param_range {
    s2r_dist       dist;     /* how the value is drawn each episode          */
    s2r_apply_mode mode;     /* how a draw combines with the nominal value   */
    int            enabled;  /* 0: the parameter keeps its nominal value     */
} s2r_param_range;

/* One joint's own range for a joint-wise parameter (kp, kv, torque_limit,
   damping, armature, frictionloss): that joint draws from `dist` instead of
   the parameter's shared range, in the shared entry's mode (which must be
   on).  Real joints differ - one drive's gains or seals are not another's
   - and system identification that fits a joint on its own
   (s2r_sysid_param.joint) hands its estimate on as one of these. */
typedef struct s2r_joint_range {
    s2r_param param;
    int       joint;     /* 1..S2R_MAX_JOINTS (1 is the first joint)      */
    s2r_dist  dist;
} s2r_joint_range;

#define S2R_JOINT_RANGES_MAX 16

typedef struct s2r_randomization {
    s2r_param_range p[S2R_PARAM_COUNT];   /* indexed by s2r_param */
    int             n_joint_ranges;       /* 0 unless joints have their own */
    s2r_joint_range joint_range[S2R_JOINT_RANGES_MAX];
} s2r_randomization;

/* "friction", "damping", "armature", "frictionloss", "link_mass", "payload",
   "kp", "kv", "torque_limit", "timestep", "action_latency", "obs_latency",
   "qpos_noise", "qvel_noise", "target_noise", "latency_jitter",
   "target_offset", "qpos_bias", "object_friction", "object_mass",
   "object_damping", "tip_friction", "table_height", "camera_latency",
   "object_noise", "object_dropout"; "unknown" out of range. */
S2RDEF const char*    s2r_param_name(s2r_param p);
/* The parameter with that name; S2R_PARAM_COUNT when there is none. */
S2RDEF s2r_param      s2r_param_find(const char* name);
/* One line saying what the parameter is, with its unit. */
S2RDEF const char*    s2r_param_description(s2r_param p);
/* The mode a config line without a mode column gets. */
S2RDEF s2r_apply_mode s2r_param_default_mode(s2r_param p);
/* "scale", "offset", "absolute"; "unknown" out of range. */
S2RDEF const char*    s2r_apply_mode_name(s2r_apply_mode m);
/* The mode with that name; S2R_APPLY_COUNT when there is none. */
S2RDEF s2r_apply_mode s2r_apply_mode_find(const char* name);

/* The entry for `p` switched off: disabled, default mode, FIXED at the
   identity of that mode (1 for scale, 0 otherwise). */
S2RDEF s2r_param_range s2r_param_range_off(s2r_param p);
/* Validate one entry of parameter p: a disabled entry is always fine; an
   enabled one needs a valid dist, a mode p allows and values of the right
   sign (e.g. no negative latency, no timestep scale <= 0, no negative noise
   std).  The message starts with the parameter's name. */
S2RDEF s2r_result s2r_param_range_check(s2r_param p, const s2r_param_range* pr, char* error);
/* The value a model quantity takes for draw `value`: nominal when the entry
   is disabled, else nominal * value, nominal + value or value by mode.
   Physical clamping (e.g. an offset must not make a friction negative) is
   the caller's job. */
S2RDEF double     s2r_param_apply(const s2r_param_range* pr, double nominal, double value);

/* Everything off: the nominal simulator. */
S2RDEF s2r_randomization s2r_randomization_none(void);
/* The library's default training ranges; each value and its reasoning is
   listed next to it in the implementation.  In short:
     friction       uniform     0.5    1.5    scale
     damping        loguniform  0.7    1.4    scale
     armature       loguniform  0.7    1.4    scale
     frictionloss   uniform     0      0.6    offset    (N·m)
     link_mass      uniform     0.9    1.1    scale
     payload        uniform     0      0.5    absolute  (kg)
     kp             uniform     0.85   1.15   scale
     kv             uniform     0.8    1.2    scale
     torque_limit   uniform     0.9    1.1    scale
     timestep       uniform     0.97   1.03   scale
     action_latency uniform     0.010  0.030  absolute  (s)
     obs_latency    uniform     0.002  0.010  absolute  (s)
     qpos_noise     uniform     0      0.001  absolute  (rad)
     qvel_noise     uniform     0      0.05   absolute  (rad/s)
     target_noise   uniform     0      0.005  absolute  (m)
     latency_jitter uniform     0      0.002  absolute  (s)
     target_offset  off   (suggested: uniform -0.01 0.01 absolute, per axis)
     qpos_bias      off   (suggested: uniform -0.002 0.002 absolute, per joint)
   A randomized simulator (s2r_sim) draws kp, kv, torque_limit, damping,
   armature, frictionloss, link_mass and qpos_bias once per joint, each
   joint independently of the others (s2r_sim_draw.joint), as real joints
   differ; the other parameters once per episode. */
S2RDEF s2r_randomization s2r_randomization_default(void);
/* The push task's training ranges: the arm's as above but the command
   latency 10-60 ms, and the object and camera (reasons in the
   implementation):
     action_latency  uniform     0.010  0.060  absolute  (s)
     object_friction loguniform  0.5    2.0    scale
     object_mass     uniform     0.7    1.3    scale
     object_damping  loguniform  0.5    2.0    scale
     tip_friction    uniform     0.5    1.5    scale
     table_height    uniform    -0.01   0.01   offset    (m)
     camera_latency  uniform     0.020  0.120  absolute  (s)
     object_noise    uniform     0      0.005  absolute  (m)
     object_dropout  uniform     0      0.1    absolute  (probability)
   A simulator drawing from it needs max_latency >= 0.122 s. */
S2RDEF s2r_randomization s2r_randomization_push(void);
/* Validate every enabled entry and every joint range (a joint-wise
   parameter whose shared entry is on, a joint 1..S2R_MAX_JOINTS named
   once, a distribution its mode allows); the message names the first bad
   parameter. */
S2RDEF s2r_result s2r_randomization_check(const s2r_randomization* r, char* error);
/* Draw one episode: values[p] is a draw of entry p, or for a disabled entry
   the identity of its mode (1 for scale, 0 for offset and absolute - which
   for absolute entries of zero-nominal parameters is the nominal; for other
   absolute entries test `enabled` or use s2r_param_apply).  Draws happen in
   enum order, only for enabled non-degenerate entries.  `r` must pass
   s2r_randomization_check. */
S2RDEF void       s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng,
                                           double values[S2R_PARAM_COUNT]);
/* A 64-bit digest of every enabled entry (kind, mode, bounds): two
   randomizations that train alike have the same digest, whatever disabled
   entries hold.  Training states and checkpoints record it, so a policy
   can be checked against the ranges it is said to be trained on. */
S2RDEF uint64_t   s2r_randomization_digest(const s2r_randomization* r);
/* Automatic domain randomization: stretch every enabled entry (or only
   entry p with s2r_param_range_widen) by `factor` about its centre, keeping
   values physically meaningful: a quantity that must be >= 0 is clipped at
   0; one that must be > 0 (link_mass, kp, torque_limit, timestep,
   object_mass) may at most halve its lower bound per call; object_dropout,
   a probability, stops at 1, payload at S2R_PAYLOAD_MAX.  Widen (factor > 1) while the policy
   keeps its success rate on the current ranges, narrow (factor < 1) when
   it drops.  S2R_ERR_INVALID_ARGUMENT (nothing changes) unless factor is
   finite and > 0. */
S2RDEF s2r_result s2r_param_range_widen(s2r_param p, s2r_param_range* pr, double factor);
S2RDEF s2r_result s2r_randomization_widen(s2r_randomization* r, double factor);

/* ==========================================================================
   Randomization (3/3): the text file of ranges
   ==========================================================================
   So a training run can be configured without recompiling, and so system
   identification can hand re-centred ranges to the next training run.

   Grammar (one entry per line):

       file    := { line '\n' }
       line    := [ entry ] [ '#' comment ]
       entry   := NAME 'off'
                | NAME 'fixed'       VALUE             [ MODE ]
                | NAME 'uniform'     LO HI             [ MODE ]
                | NAME 'loguniform'  LO HI             [ MODE ]
                | NAME 'truncnormal' LO HI MEAN STD    [ MODE ]
                | NAME '[' JOINT ']' (any of the four distributions above)
       MODE    := 'scale' | 'offset' | 'absolute'

   - Tokens are separated by spaces or tabs; '\r' is whitespace, so CRLF
     files read fine; a leading UTF-8 byte-order mark is skipped.
   - '#' starts a comment anywhere, to the end of the line.  Blank lines
     are ignored.  Words are case-sensitive (all lower case).
   - NAME is a parameter name (s2r_param_name).  Unknown names are errors.
   - Numbers are C floating-point literals read with strtod (C locale:
     decimal, or hexadecimal such as 0x1.8p-1); NaN and Inf are rejected.
   - MODE defaults to the parameter's default mode (s2r_param_default_mode).
   - A named entry becomes enabled with that distribution and mode; 'off'
     resets it to s2r_param_range_off (disabled identity).
   - Entries not named keep their value in the struct passed in, so a file
     can adjust the defaults: start from s2r_randomization_none() for a file
     that should say everything itself.  Naming a parameter twice is an error.
   - Every entry is validated as by s2r_param_range_check.
   - NAME[JOINT] (e.g. kp[4], joints from 1, no spaces) is that joint's own
     range of a joint-wise parameter (s2r_joint_range): the parameter's own
     line must leave it on, and the joint's numbers are in its mode (a MODE
     on the joint's line must be that mode).  Joint lines cannot be 'off'.
     A file does not know its arm: a simulator refuses ranges naming a
     joint its arm does not have (kp[7] on the 6-joint UR5e).
     A table's joint ranges are the file's alone: those the struct held
     are dropped, so a file without NAME[J] lines leaves none.
   - The result is validated as a whole: entries the file does not name
     must be valid already (parse onto s2r_randomization_none() or a table
     from the library, not onto an uninitialized struct).

   Example:

       # name         dist         lo     hi     [mean std]  [mode]
       friction       uniform      0.5    1.5                 scale
       damping        loguniform   0.7    1.4                 scale
       payload        truncnormal  0.0    0.5    0.2  0.1     absolute
       action_latency uniform      0.010  0.030
       qpos_noise     off

   Errors are S2R_ERR_PARSE with a message like
       "line 4: uniform needs 2 numbers (lo hi), found 1"
   (load prefixes the path), and the caller's struct is left untouched.
   s2r_randomization_write writes every parameter, with its mode and a
   comment, using the shortest decimal form that reads back as exactly the
   same double: parse(write(r)) reproduces every field a kind uses bit for bit. */

S2RDEF s2r_result s2r_randomization_parse(s2r_randomization* r, const char* text, char* error);
/* Read a file and parse it.  S2R_ERR_IO if it cannot be read (or is larger
   than S2R_RANGES_MAX_BYTES); parse errors as above, prefixed "path: ". */
S2RDEF s2r_result s2r_randomization_load(s2r_randomization* r, const char* path, char* error);
/* The text s2r_randomization_write would write, into `out` (`cap` bytes,
   always NUL-terminated when cap > 0; out may be NULL with cap 0).  Returns
   the length of the full text, excluding the NUL, as snprintf does. */
S2RDEF size_t     s2r_randomization_format(const s2r_randomization* r, char* out, size_t cap);
/* Validate, then write to "path.tmp" and rename it to `path`, so a reader
   never sees half a file.  S2R_ERR_INVALID_ARGUMENT for an invalid table,
   S2R_ERR_OUT_OF_MEMORY, S2R_ERR_IO (an existing file at path is kept). */
S2RDEF s2r_result s2r_randomization_write(const s2r_randomization* r, const char* path, char* error);

#define S2R_RANGES_MAX_BYTES (1 << 20)   /* largest ranges file load accepts */

/* ==========================================================================
   Sensing: per-channel noise models
   ==========================================================================
   A channel is a group of n similar readings (the joint encoders, the joint
   velocity estimates, the perceived target's x y z) sharing one config; each
   element keeps its own state.  Per episode, s2r_noise_begin_episode draws
   each element's gain error, bias and initial drift; per sample,
   s2r_noise_apply turns true values into measurements:

       y = (1 + gain) x + bias + drift + white      white ~ N(0, white_std^2)
       y = quant_step * floor(y / quant_step + 1/2)        if quant_step > 0
       y = clamp(y, sat_lo, sat_hi)                       if sat_lo < sat_hi
       dropout: with probability `dropout` the sample is lost and the
       measurement repeats the previous *measured* value (the first sample
       after begin_episode is never dropped).

   Drift is an Ornstein-Uhlenbeck process dd = -d/tau dt + drift_std dW,
   stepped exactly over each dt:
       d <- d e^(-dt/tau) + drift_std sqrt(tau/2 (1 - e^(-2 dt/tau))) N(0,1).
   Its stationary std is drift_std sqrt(tau/2), and each episode starts from
   a draw of that stationary distribution.  With tau = 0 (the zero default)
   or tau = +Inf it is a random walk: d <- d + drift_std sqrt(dt) N(0,1),
   starting at 0 each episode.  drift_std is in channel units per sqrt(s):
   the std a random walk reaches after one second.

   Terms whose parameter is 0 are skipped entirely: they neither change the
   value nor draw random numbers.  So the zero config (s2r_noise_config_none,
   or any zero-filled struct) is the exact identity - measured == truth bit
   for bit, including -0.0 and NaN payloads - and the rng is left untouched,
   which keeps a noiseless nominal simulator exactly nominal.

   Random numbers per element, in this order: begin_episode draws gain (if
   scale_std > 0), bias (if bias_std > 0), initial drift (if drift_std > 0
   and tau is finite and > 0); apply draws the drift step (if drift_std > 0),
   white noise (if white_std > 0), then one uniform for dropout (if
   dropout > 0) - whether or not the sample ends up dropped. */

typedef struct s2r_noise_config {
    double white_std;   /* channel units; independent Gaussian noise per sample; 0     */
    double bias_std;    /* channel units; std of a constant offset drawn per episode; 0 */
    double scale_std;   /* 1; std of the gain error: gain = N(0, scale_std^2) per episode,
                           the reading is (1 + gain) x; 0                              */
    double drift_std;   /* channel units / sqrt(s); drift diffusion (see above); 0     */
    double drift_tau;   /* s; drift time constant; 0 or +Inf = random walk; 0          */
    double dropout;     /* probability in [0, 1] that a sample is lost (held); 0       */
    double quant_step;  /* channel units; resolution, e.g. 2 pi / counts per turn
                           for an encoder; 0 = none                                    */
    double sat_lo;      /* channel units; saturation, active only when sat_lo < sat_hi
                           (so both 0 = none); use -INFINITY/INFINITY for one side; 0  */
    double sat_hi;      /* channel units; see sat_lo; 0                               */
} s2r_noise_config;

typedef struct s2r_noise_state {   /* one per element; zero-filled = no noise yet */
    double gain;      /* this episode's gain error (reading = (1 + gain) x)      */
    double bias;      /* this episode's offset, channel units                    */
    double drift;     /* current drift, channel units                            */
    double last;      /* previous measured value (repeated on dropout)           */
    int    has_last;  /* 0 until the first sample of the episode                 */
} s2r_noise_state;

/* All zero: the identity. */
S2RDEF s2r_noise_config s2r_noise_config_none(void);
/* S2R_ERR_INVALID_ARGUMENT naming the field when a std, drift_std or
   quant_step is negative or not finite, drift_tau is negative or NaN,
   dropout is outside [0, 1] or NaN, or a saturation limit is NaN. */
S2RDEF s2r_result s2r_noise_config_check(const s2r_noise_config* cfg, char* error);
/* Start an episode for n elements: state[0..n) gets fresh gain, bias and
   drift, and forgets its last measurement. */
S2RDEF void s2r_noise_begin_episode(const s2r_noise_config* cfg, s2r_noise_state* state,
                                    int n, s2r_rng* rng);
/* One sample of n elements: measured[i] from truth[i] (measured may equal
   truth for in-place use), with dt (s) the time since the previous sample,
   used only by the drift (NaN or negative dt counts as 0).  No allocation. */
S2RDEF void s2r_noise_apply(const s2r_noise_config* cfg, s2r_noise_state* state,
                            const double* truth, double* measured, int n,
                            double dt, s2r_rng* rng);

/* ==========================================================================
   Latency: delay lines, jitter and sample-and-hold
   ==========================================================================
   A delay line remembers the last `capacity` samples of `width` doubles
   (e.g. the n joint commands, or a whole sensor reading).  Push once per
   physics step and read k pushes back to delay by k steps:
   s2r_latency_steps(seconds, dt) converts a latency in seconds.  A line that
   must hold delays up to L seconds with jitter J needs
   capacity = s2r_latency_steps(L + J, dt_min) + 1.  The buffer is allocated
   once by s2r_delay_init; push and read never allocate.

   Jitter: s2r_delay_jitter draws, once per push, the age to read as
   base +- jitter steps (uniform integer), clamped to [0, max_steps], and
   then never older than the previous read plus one: the sample read can be
   the same as last time or newer, never older.  That is what a receiver
   does that drops packets older than the newest it has used; as a side
   effect the mean delay is a little below base when jitter > 0.  Zero
   jitter draws no random numbers.

   Sample-and-hold: a sensor that refreshes every `period` seconds, slower
   than the loop reading it, shows the same value between refreshes. */

typedef struct s2r_delay_line {
    double* data;      /* [capacity][width] ring storage, owned by the line   */
    int     width;     /* doubles per sample                                  */
    int     capacity;  /* samples kept; reads reach back capacity - 1 pushes  */
    int     newest;    /* slot of the most recent push                        */
} s2r_delay_line;

/* Allocate a zero-filled line (width >= 1, capacity >= 1):
   S2R_ERR_INVALID_ARGUMENT for other sizes, S2R_ERR_OUT_OF_MEMORY when
   allocation fails; on failure the line is zeroed and holds nothing. */
S2RDEF s2r_result    s2r_delay_init(s2r_delay_line* line, int width, int capacity);
/* Release the buffer; safe on a zeroed or already freed line. */
S2RDEF void          s2r_delay_free(s2r_delay_line* line);
/* Fill the whole history with `fill` ([width]; NULL = zeros), e.g. the
   initial state, so early reads return it instead of garbage. */
S2RDEF void          s2r_delay_reset(s2r_delay_line* line, const double* fill);
/* Append one sample x ([width]), dropping the oldest. */
S2RDEF void          s2r_delay_push(s2r_delay_line* line, const double* x);
/* Copy into out ([width]) the sample pushed k pushes ago: k = 0 is the
   newest; k < 0 reads as 0 and k > capacity - 1 as capacity - 1 (the
   oldest kept). */
S2RDEF void          s2r_delay_read(const s2r_delay_line* line, int k, double* out);
/* The same sample in place, valid until the next push ([width] doubles). */
S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k);

/* Whole physics steps closest to `seconds` (halves round up, with a 1e-9
   step tolerance so decimal inputs like 0.015 / 0.002 give 8); 0 for
   seconds <= 0, dt <= 0 or NaN; at most INT_MAX / 2. */
S2RDEF int s2r_latency_steps(double seconds, double dt);

typedef struct s2r_delay_jitter {
    int base;    /* steps, nominal age to read                              */
    int jitter;  /* steps, half-width of the uniform jitter                 */
    int max;     /* steps, oldest age allowed (the line's capacity - 1)     */
    int last;    /* age returned by the previous call (max after reset)     */
} s2r_delay_jitter;

/* Negative arguments are taken as 0.  Also resets. */
S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int base_steps, int jitter_steps,
                                  int max_steps);
/* Forget the previous read (start of an episode). */
S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j);
/* The age k to pass to s2r_delay_read for this step.  Call exactly once per
   push, after the push.  k = base, plus s2r_rng_int(rng, 2 jitter + 1) -
   jitter when jitter > 0 (the one draw it makes); then clamped to
   [0, max] and to at most the previous age + 1; that k is remembered as
   the previous age and returned. */
S2RDEF int  s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng);

typedef struct s2r_sample_hold {
    double period;   /* s between refreshes; 0 = refresh on every call          */
    double phase;    /* s the sensor's cycle has run at the first call (reset)  */
    double elapsed;  /* s since the last refresh                                */
    int    started;  /* 0 until the first call after reset                      */
} s2r_sample_hold;

/* S2R_ERR_INVALID_ARGUMENT unless period is finite and >= 0.  Also resets
   with phase 0. */
S2RDEF s2r_result s2r_sample_hold_init(s2r_sample_hold* sh, double period);
/* Start an episode.  The first call always refreshes; the next refresh
   comes period - phase seconds later (phase is clamped to [0, period)), so
   a random phase desynchronizes the sensor from the loop. */
S2RDEF void       s2r_sample_hold_reset(s2r_sample_hold* sh, double phase);
/* Advance by dt seconds (ignored on the first call after reset) and, when
   the sensor refreshes, copy fresh[0..n) into held[0..n).  Returns 1 when
   it refreshed, else 0 (held is left as it was).  Refresh times stay on the
   sensor's own grid (no drift from rounding): elapsed carries the remainder. */
S2RDEF int        s2r_sample_hold_step(s2r_sample_hold* sh, double dt,
                                       const double* fresh, double* held, int n);

/* ==========================================================================
   Backend interface: the one door to a robot, simulated or real
   ==========================================================================
   Data collection, system identification, evaluation and deployment talk to
   a robot only through this struct.  Behind it sit the nominal simulator, the
   randomized simulator, the stand-in real robot, and - written by you - a
   driver for your hardware.  Nothing behind it can be read except through
   these calls; `ground_truth` stands for an external measurement (a motion
   capture system or laser tracker) and is used only to judge success. */

typedef struct s2r_sensors {          /* what the robot's controller reads    */
    double time;                      /* s since reset                         */
    double q[S2R_MAX_JOINTS];         /* rad, measured joint positions         */
    double qd[S2R_MAX_JOINTS];        /* rad/s, measured joint velocities      */
    double tau[S2R_MAX_JOINTS];       /* N·m, measured joint torques           */
    double target[3];                 /* m, perceived target position (world)  */
    double object[3];                 /* m, perceived object centre (world): the
                                         camera's latest frame, held when a frame
                                         misses it (push scene; else 0)          */
} s2r_sensors;

typedef struct s2r_ground_truth {     /* external measurement, for evaluation  */
    double flange[3];                 /* m, true flange position (world)       */
    double flange_vel[3];             /* m/s, true flange velocity             */
    double target[3];                 /* m, true target position               */
    double q[S2R_MAX_JOINTS];         /* rad, true joint positions             */
    int    diverged;                  /* physics blew up since reset           */
    double tip[3], tip_vel[3];        /* m, m/s, the pusher's tip (push scene) */
    double object[3], object_vel[3];  /* m, m/s, the object's centre (push)    */
} s2r_ground_truth;

typedef struct s2r_backend {
    void*               self;
    const char*         name;         /* "sim", "randomized sim", "real unit 3"... */
    const s2r_arm_info* info;         /* public facts of the arm               */
    const char*         error;        /* message of the last failed call       */
    /* Start an episode: arm at rest at q0 (rad; NULL = home), target marker at
       target (m, world; NULL = leave).  Randomizing backends draw this
       episode's parameters from rng. */
    s2r_result (*reset)(void* self, const double* q0, const double* target, s2r_rng* rng);
    /* Set the servo targets (rad, [n_joints]); clipped to the joint limits.
       NaN/Inf: S2R_ERR_INVALID_ARGUMENT and nothing changes. */
    s2r_result (*command)(void* self, const double* q_target);
    /* Let `seconds` of time pass (rounded to whole physics steps), 0 to
       S2R_ADVANCE_MAX (else S2R_ERR_INVALID_ARGUMENT).
       S2R_ERR_DIVERGED if the physics blew up (the episode must end). */
    s2r_result (*advance)(void* self, double seconds);
    s2r_result (*read_sensors)(void* self, s2r_sensors* out);
    s2r_result (*ground_truth)(void* self, s2r_ground_truth* out);
    /* Optional (NULL when absent): a drive-level stop below the command
       path - brakes engage and the servos hold where the arm is, with no
       command latency; commands are ignored until the next reset. */
    s2r_result (*halt)(void* self);
    /* Push scene only (NULL otherwise): put the object at rest on the table
       with its centre above (x, y) (m, world), as an operator would set it
       down, and start the camera's view of it afresh.  Call after reset. */
    s2r_result (*place_object)(void* self, const double xy[2]);
} s2r_backend;

/* Shorthands: s2r_backend_reset(b, ...) is b->reset(b->self, ...). */
S2RDEF s2r_result s2r_backend_reset(const s2r_backend* b, const double* q0,
                                    const double* target, s2r_rng* rng);
S2RDEF s2r_result s2r_backend_command(const s2r_backend* b, const double* q_target);
S2RDEF s2r_result s2r_backend_advance(const s2r_backend* b, double seconds);
S2RDEF s2r_result s2r_backend_read_sensors(const s2r_backend* b, s2r_sensors* out);
S2RDEF s2r_result s2r_backend_ground_truth(const s2r_backend* b, s2r_ground_truth* out);
/* The drive-level halt; S2R_ERR_UNSUPPORTED when the backend has none. */
S2RDEF s2r_result s2r_backend_halt(const s2r_backend* b);
/* S2R_ERR_UNSUPPORTED when the backend has no object. */
S2RDEF s2r_result s2r_backend_place_object(const s2r_backend* b, const double xy[2]);

/* --- A robot in another process: the socket backend -------------------------
   Your arm's driver (RTDE, libfranka, a ROS 2 node) runs in its own process
   and serves the backend interface over a socket; s2r_socket_robot is the
   pipeline's side, a backend like the others, so system identification,
   evaluation, demonstrations and deployment run on it unchanged.
   s2r_socket_serve is the robot side for any backend (examples/
   robot_server.c serves a stand-in unit with it; examples/robot_server.py
   is the same protocol in Python, where your driver code goes).

   Protocol version 1: one request, one reply, over a Unix-domain socket
   (address "PATH") or TCP ("tcp:HOST:PORT", HOST numeric IPv4 or
   localhost).  Binary, fixed-size, little-endian: doubles travel as their
   8 IEEE-754 bytes, so what the robot side measures arrives bit for bit
   (text would round).  Every message is a 16-byte header and a payload
   whose size the header's type fixes:

     header    u32 magic "S2RS" (0x53523253)   u16 version 1
               u8 type   u8 direction (0 request, 1 reply)
               i32 status (requests 0; replies S2R_OK or an S2R_ERR_* code
               of the robot side)   u32 payload bytes
     type      request payload                 reply payload (status 0)
     1 hello   -                               i32 kind, scene, n_joints, 0;
                                               f64 period (s, its servo
                                               cycle); char name[48]
     2 reset   u32 flags (1 q0, 2 target,       u64 rng[4], the generator
               4 rng), 0; f64 q0[8],            after the robot side's
               target[3]; u64 rng[4]            draws (echo it if none)
     3 command f64 q_target[8] (rad)           -
     4 advance f64 seconds                     -
     5 sensors -                               f64 time, q[8], qd[8],
                                               tau[8], target[3], object[3]
     6 truth   -                               f64 flange[3], flange_vel[3],
                                               target[3], q[8]; i32 diverged,
                                               0; f64 tip[3], tip_vel[3],
                                               object[3], object_vel[3]
     7 halt    -                               -
     8 place   f64 xy[2] (m)                   -
     a reply with status < 0 carries instead char text[128], the robot
     side's message (the connection stays up: a diverged episode is
     an answer, not a fault)

   Joint arrays always have 8 slots (those past n_joints are 0).  The
   client opens with hello and checks the arm: kind, scene and joint count
   must be those of the model it loaded (a custom arm: the same MJCF on
   both sides).  Every reply must come within timeout_ms (an advance: plus
   its seconds, which a real arm takes in wall time).  A timeout, a peer
   gone, a malformed or truncated message or a sensor reading that is not
   a number is S2R_ERR_IO or S2R_ERR_CORRUPT with a message: the client
   sends a halt if it still can and closes, and every later call is
   S2R_ERR_STATE naming that first failure.  The robot side halts its arm
   whenever its client goes (end of file, a bad message) or falls silent
   for watchdog_ms mid-episode.  Without POSIX sockets every call here is
   S2R_ERR_UNSUPPORTED. */

#define S2R_SOCKET_VERSION 1
#define S2R_SOCKET_JOINTS 8           /* joint slots in every message          */
#define S2R_SOCKET_HEADER 16          /* bytes                                 */
#define S2R_SOCKET_TEXT 128           /* bytes of an error reply's message     */
#define S2R_SOCKET_MESSAGE_MAX (S2R_SOCKET_HEADER + 248)   /* the largest: sensors */

typedef enum s2r_socket_type {
    S2R_SOCKET_HELLO = 1, S2R_SOCKET_RESET, S2R_SOCKET_COMMAND, S2R_SOCKET_ADVANCE,
    S2R_SOCKET_SENSORS, S2R_SOCKET_TRUTH, S2R_SOCKET_HALT, S2R_SOCKET_PLACE,
    S2R_SOCKET_TYPE_END
} s2r_socket_type;

/* One message, decoded.  Only the fields of its type and direction are set. */
typedef struct s2r_socket_message {
    s2r_socket_type  type;
    int              reply;                       /* 0 request, 1 reply          */
    s2r_result       status;                      /* replies: the robot side's   */
    char             text[S2R_SOCKET_TEXT];       /* status < 0: its message     */
    int              kind, scene, n_joints;       /* hello                       */
    double           period;                      /* hello: s                    */
    char             name[48];                    /* hello                       */
    unsigned         flags;                       /* reset: 1 q, 2 target, 4 rng */
    double           q[S2R_SOCKET_JOINTS];        /* reset: q0; command: targets */
    double           target[3];                   /* reset                       */
    uint64_t         rng[4];                      /* reset, both directions      */
    double           seconds;                     /* advance                     */
    double           xy[2];                       /* place                       */
    s2r_sensors      sensors;                     /* sensors reply               */
    s2r_ground_truth truth;                       /* truth reply                 */
} s2r_socket_message;

/* Decode one whole message from n bytes (header and payload, nothing
   else).  S2R_ERR_CORRUPT naming the fault: wrong magic or version, an
   unknown type, a size that is not the type's, a reading or period that is
   not a number, a hello's arm out of range.  The socket's reader and the
   fuzz harness both call it. */
S2RDEF s2r_result s2r_socket_parse(const unsigned char* bytes, size_t n, s2r_socket_message* m, char* error);
/* Encode m into bytes[S2R_SOCKET_MESSAGE_MAX]; returns the size. */
S2RDEF size_t     s2r_socket_pack(const s2r_socket_message* m, unsigned char* bytes);

typedef struct s2r_socket_config {
    const char*    address;      /* "PATH" (Unix socket) or "tcp:HOST:PORT"; NULL */
    int            timeout_ms;   /* each reply within this (advance: plus its
                                    seconds); 1000                               */
    s2r_robot_kind robot;        /* the arm expected; S2R_ROBOT_UR5E             */
    s2r_scene      scene;        /* S2R_SCENE_ARM                                */
    const char*    mjcf_path;    /* S2R_ROBOT_CUSTOM: its MJCF; NULL             */
} s2r_socket_config;

typedef struct s2r_socket_robot {
    s2r_backend backend;         /* the door the pipeline uses                   */
    s2r_robot   arm;             /* the arm's model here, for kinematics         */
    int         fd;              /* -1 once closed                               */
    int         timeout_ms;
    int         broken;          /* 1 after a fault: every call S2R_ERR_STATE    */
    double      period;          /* s, the robot side's servo cycle (hello)      */
    char        name[64];        /* "socket: real ur5e #3"                       */
    char        fault[S2R_ERROR_LEN];   /* the first fault                       */
    char        error[S2R_ERROR_LEN];
} s2r_socket_robot;

S2RDEF s2r_socket_config  s2r_socket_config_default(void);
/* Load the expected arm, connect (within timeout_ms) and shake hands.  On
   error nothing stays open and s->error says why. */
S2RDEF s2r_result         s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c);
S2RDEF const s2r_backend* s2r_socket_robot_backend(s2r_socket_robot* s);
/* Close the connection (the robot side halts its arm) and free the model;
   nothing to do for one that failed to connect or is closed already. */
S2RDEF void               s2r_socket_robot_close(s2r_socket_robot* s);

typedef struct s2r_socket_serve_config {
    const char* address;         /* as above; a Unix path is replaced; NULL      */
    int         watchdog_ms;     /* halt the arm after this silence mid-episode;
                                    1000                                          */
    int         clients;         /* serve this many, one at a time, then return
                                    (a connection that sends nothing is not one);
                                    0 = until the process is stopped             */
    int         ready_fd;        /* >= 0: write "ready\n" there once listening;
                                    -1                                           */
} s2r_socket_serve_config;

S2RDEF s2r_socket_serve_config s2r_socket_serve_config_default(void);
/* The robot side: serve `robot` to clients, one at a time.  A client's
   fault halts the arm and drops that client; S2R_ERR_IO only if the
   address cannot be served.  error: S2R_ERROR_LEN bytes (may be NULL). */
S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error);

/* --- The simulator backend: nominal or randomized --------------------------
   One simulator serves both: with s2r_randomization_none() and no noise it is
   the nominal simulator; with a randomization it draws a new set of physical
   parameters at every reset (from the saved nominal model, so changes never
   compound), delays commands and sensor readings by the drawn latencies
   (preallocated delay lines, one push per physics step), and corrupts the
   readings with the sensing noise models.  Per episode:

     reset(rng) -> draw = s2r_randomization_sample + per-element draws
                -> model = nominal with the draw applied, mj_setConst
     advance    -> each physics step: servo target = command from
                   action_latency ago (with jitter) - encoder bias;
                   effects hook; mj_step; push true (q, qd) into the
                   sensor delay line
     read       -> (q, qd) from obs_latency ago + noise + encoder bias;
                   target + calibration offset + noise; sample and hold

   A NULL rng at reset keeps the current draw (the nominal one after init). */

typedef struct s2r_sim_draw {                 /* one episode's parameters          */
    double value[S2R_PARAM_COUNT];            /* per parameter: its draw, or the   */
                                              /* identity of its mode if disabled  */
    double link_mass[S2R_MAX_JOINTS];         /* per-link draws of link_mass       */
    int    per_joint;                         /* 1: the joint-wise parameters (kp,
                                                 kv, torque_limit, damping, armature,
                                                 frictionloss) take joint[p][j], one
                                                 draw per joint (the randomized
                                                 simulator's draws; value[p] is
                                                 joint 0's); 0: every joint takes
                                                 value[p] (a unit, a system-ID
                                                 candidate, a draw made by hand)   */
    double joint[S2R_PARAM_COUNT][S2R_MAX_JOINTS];   /* only joint-wise rows used */
    double qpos_bias[S2R_MAX_JOINTS];         /* rad, encoder zero offsets         */
    double target_offset[3];                  /* m, camera-to-base calibration error */
    double object_com[3];                     /* m, the object's centre of mass off
                                                 its centre (object frame); no
                                                 parameter draws it: 0 but on units */
    double table_tilt[2];                     /* rad, table top about x and y; the same */
} s2r_sim_draw;

typedef struct s2r_sim_config {
    s2r_robot_kind    robot;          /* default S2R_ROBOT_UR5E                     */
    s2r_scene         scene;          /* built-in arms: what surrounds the arm;     */
                                      /* S2R_SCENE_ARM                              */
    const char*       mjcf_path;      /* S2R_ROBOT_CUSTOM: MJCF file, or ...        */
    const char*       mjcf_xml;       /* ... MJCF text (used when mjcf_path is NULL) */
    s2r_randomization randomization;  /* drawn at every reset; default none         */
    s2r_noise_config  noise_q;        /* joint position sensing (rad); its white_std */
                                      /* is replaced by qpos_noise when enabled     */
    s2r_noise_config  noise_qd;       /* joint velocity sensing (rad/s); qvel_noise */
    s2r_noise_config  noise_target;   /* perceived target (m); target_noise         */
    double sensor_period;             /* s, sensors refresh this often; 0 = always  */
    s2r_noise_config  noise_object;   /* perceived object (m); its white_std and     */
                                      /* dropout are replaced by object_noise and   */
                                      /* object_dropout when enabled               */
    double camera_period;             /* s, the object camera's frame period; 0 =  */
                                      /* a fresh frame at every reading             */
    double occlusion_radius;          /* m: while the tip is this close to the     */
    double occlusion_dropout;         /* object (horizontally) a frame misses it   */
                                      /* with this probability: the arm between the */
                                      /* camera and the object; 0, 0               */
    double max_latency;               /* s, longest delay (with jitter) the delay   */
                                      /* lines hold; 0.1                            */
    double max_joint_speed;           /* rad/s; faster is divergence; 50            */
} s2r_sim_config;

typedef struct s2r_sim s2r_sim;
/* Called before every physics step with the servo targets already in
   data->ctrl: where a model of effects outside the simulator family goes
   (the stand-in real robot uses it).  Must not allocate. */
typedef void (*s2r_sim_effects)(void* context, s2r_sim* sim);

struct s2r_sim {
    s2r_sim_config   config;
    s2r_robot        robot;                   /* the simulated arm               */
    s2r_backend      backend;                 /* this simulator as a backend     */
    mjModel*         nominal;                 /* saved copy every draw starts from */
    s2r_sim_draw     draw;                    /* this episode's parameters       */
    int              drawn;                   /* 0: nominal (no draw made yet)   */
    int              pinned;                  /* 1: resets keep `draw`           */
    double           q_cmd[S2R_MAX_JOINTS];   /* rad, latest commanded targets   */
    s2r_delay_line   action_delay;            /* [capacity][n] commanded targets */
    s2r_delay_line   sensor_delay;            /* [capacity][2n] true q, qd       */
    s2r_delay_jitter action_jitter, sensor_jitter;
    int              sensor_age;              /* steps, age of the reading to use */
    s2r_sample_hold  sensor_hold;
    s2r_noise_config noise[3];                /* this episode's q, qd, target    */
    s2r_noise_state  noise_state[2 * S2R_MAX_JOINTS + 3];
    double           held[2 * S2R_MAX_JOINTS + 3]; /* last refreshed q, qd, target */
    double           last_read;               /* s, time of the previous reading */
    s2r_rng          rng;                     /* this episode's noise and jitter */
    double           time;                    /* s since reset                   */
    int              diverged;                /* physics blew up since reset     */
    int              halted;                  /* brakes on until the next reset  */
    double           hold[S2R_MAX_JOINTS];    /* rad, servo targets while halted */
    s2r_delay_line   camera_delay;            /* [capacity][3] true object centre (push) */
    int              camera_age;              /* steps, this episode's camera delay */
    s2r_sample_hold  camera_hold;
    s2r_noise_config object_noise;            /* this episode's camera noise     */
    s2r_noise_state  object_noise_state[3];
    double           object_held[3];          /* m, the camera's last frame      */
    s2r_sim_effects  effects;                 /* NULL, or unmodeled effects      */
    void*            effects_context;
    char             error[S2R_ERROR_LEN];
};

S2RDEF s2r_sim_config     s2r_sim_config_default(s2r_robot_kind robot);
S2RDEF s2r_result         s2r_sim_init(s2r_sim* sim, const s2r_sim_config* config);
S2RDEF void               s2r_sim_free(s2r_sim* sim);
S2RDEF const s2r_backend* s2r_sim_backend(s2r_sim* sim);
/* Replace the randomization (validated; nothing changes on error).  Takes
   effect at the next reset with an rng; unpins a pinned draw. */
S2RDEF s2r_result s2r_sim_set_randomization(s2r_sim* sim, const s2r_randomization* r);
/* Use exactly this draw from the next reset on (kept by every reset) -
   e.g. a candidate during system identification.  Modes come from the
   simulator's randomization: a parameter disabled there stays nominal.
   A value those ranges apply must meet the bounds a ranges file meets
   (s2r_param_range_check per joint and link; a timestep within half to
   twice the model's and S2R_TIMESTEP_MIN .. MAX; latencies within
   max_latency): else S2R_ERR_INVALID_ARGUMENT naming it, nothing pinned. */
S2RDEF s2r_result s2r_sim_pin_draw(s2r_sim* sim, const s2r_sim_draw* draw);
/* What a privileged critic sees (s2r_env.privileged, s2r_training.
   privileged_critic): the running episode's parameters, what only a
   simulator knows.  out[p] for each s2r_param p in enum order is its value
   in units of the randomized range, (value - centre) / half-width of the
   range's support (-1 .. 1 for a uniform draw, clipped to +-3), so the
   critic's inputs share one scale; a joint-wise or per-link parameter
   gives its mean over the joints, qpos_bias its rms (sign carries
   nothing); target_offset gives x there and y, z in the last two floats.
   0 for an entry the randomization leaves off or fixed (and for the
   nominal model before any draw). */
#define S2R_PRIVILEGED_DIM (S2R_PARAM_COUNT + 2)
S2RDEF void s2r_sim_privileged(const s2r_sim* sim, float out[S2R_PRIVILEGED_DIM]);

/* ==========================================================================
   The stand-in real robot: a fleet of units with hidden parameters
   ==========================================================================
   Nobody running `make` owns a UR5e or a Panda, so each arm comes with a
   stand-in: the same kinematics, with per-unit physical parameters drawn by
   the unit's seed from a documented fleet distribution (see
   s2r_real_unit_draw in the implementation for each value and its reason),
   plus effects the simulator family cannot represent:

     - joint friction following the sigmoid model identified on the Panda by
       Gaz et al. (RA-L 2019), applied as a joint torque every physics step
       (UR5e: the same curves scaled by the ratio of rated torques);
     - backlash: the servo only sees its target beyond half the gear play;
     - torque saturation that falls with speed (a motor's torque-speed curve);
     - encoder bias, a camera-to-base calibration offset of 1-3 cm on the
       perceived target, real latencies (with jitter), quantized encoders,
       noise and dropped target detections;
     - in the push scene: the unit's own object-table and tip-object
       friction, object mass, damping and centre of mass, table height and
       tilt, a worn patch of the table where the object slides more easily
       (friction varying over the table: no single simulator value can
       represent it), and a 30 fps camera with its own delay, noise, missed
       frames and frames lost while the arm is over the object.

   The fleet beside the default training ranges (s2r_randomization_default;
   push: s2r_randomization_push) - the fleet was fixed from physical
   reasoning, the ranges from data sheets and practice, each value's reason
   beside it in the implementation; a unit may sit outside a range:

     parameter        fleet (per unit)                DR (per episode)
     kp               0.75-0.95 x                     0.85-1.15 x, per joint
     kv               0.9-1.3 x                       0.8-1.2 x, per joint
     damping          0.8-1.5 x                       0.7-1.4 x (log), per joint
     armature         0.9-1.3 x                       0.7-1.4 x (log), per joint
     dry friction     sigmoid (Gaz et al.) + 0-0.2    0-0.6 N m, per joint
                      N m of seal drag
     torque limit     0.9-1.0 x, 20-40 % lower at     0.9-1.1 x, per joint
                      the speed limit
     link masses      0.95-1.08 x, per link           0.9-1.1 x, per link
     payload          0.4-1.0 kg                      0-0.5 kg
     backlash         0.5-2 mrad per joint            -
     command latency  25-45 ms + 2 ms jitter          10-30 ms (push 10-60)
     encoder latency  4-12 ms                         2-10 ms
     encoder bias     about 1 mrad per joint          - (off by default)
     camera offset    1-3 cm                          - (off by default)
     puck-table fric. 0.6-1.6 x, a worn patch at      0.5-2 x (log)
                      0.5-0.7 x of that
     tip-puck fric.   0.6-1.4 x                       0.5-1.5 x
     puck mass        0.8-1.25 x, centre of mass      0.7-1.3 x
                      up to 5 mm off
     table            height +-8 mm, tilt <= 0.3 deg  height +-10 mm
     object camera    50-90 ms, 30 fps, 3 mm, 3 %     20-120 ms, 0-5 mm, 0-10 %
                      missed (30 % under the arm)     missed

   Everything the pipeline does to a unit goes through its backend; the
   hidden parameters are read only by s2r_real_robot_oracle(), which exists
   for teaching (printing the truth beside an estimate) and for tests. */

typedef struct s2r_real_unit {
    uint64_t     seed;                              /* which unit of the fleet       */
    s2r_sim_draw draw;                              /* dynamics, latency, noise,     */
                                                    /* encoder bias, calibration     */
    double friction_a[S2R_MAX_JOINTS];              /* N·m, sigmoid friction height  */
    double friction_alpha[S2R_MAX_JOINTS];          /* s/rad, sigmoid steepness      */
    double friction_phi[S2R_MAX_JOINTS];            /* rad/s, sigmoid offset         */
    double friction_zero[S2R_MAX_JOINTS];           /* N·m, the sigmoid at rest (kept
                                                       so a step needs one exp)     */
    double backlash[S2R_MAX_JOINTS];                /* rad, total gear play          */
    double torque_limit[S2R_MAX_JOINTS];            /* N·m, at standstill            */
    double torque_derate;                           /* fraction lost at the speed limit */
    /* The push scene's worn patch (draw.value and the draw's object_com and
       table_tilt hold the rest of the unit's table and object): */
    double patch_centre[2];                         /* m, world x y                  */
    double patch_radius;                            /* m                             */
    double patch_friction;                          /* object-table friction there,  */
                                                    /* as a fraction of elsewhere    */
} s2r_real_unit;

typedef struct s2r_real_robot {
    s2r_backend   backend;        /* the only door the pipeline uses           */
    char          name[48];       /* "real ur5e #3"                            */
    s2r_sim       hidden_sim;     /* HIDDEN: the physics of this unit          */
    s2r_real_unit hidden_unit;    /* HIDDEN: read only via the oracle          */
    char          error[S2R_ERROR_LEN];
} s2r_real_robot;

/* The randomization modes a unit's draw is applied with (every parameter
   enabled, FIXED at its identity). */
S2RDEF s2r_randomization s2r_real_unit_modes(void);
/* Draw unit `seed` of the fleet of `info`'s arm (UR5e or Panda). */
S2RDEF s2r_result s2r_real_unit_draw(const s2r_arm_info* info, uint64_t seed, s2r_real_unit* unit);
S2RDEF s2r_result s2r_real_robot_init(s2r_real_robot* real, s2r_robot_kind kind, uint64_t unit_seed);
/* The same unit in a scene: the push scene adds the unit's table and
   object, with their own hidden values (same seed, same arm). */
S2RDEF s2r_result s2r_real_robot_init_scene(s2r_real_robot* real, s2r_robot_kind kind, s2r_scene scene,
                                            uint64_t unit_seed);
S2RDEF void       s2r_real_robot_free(s2r_real_robot* real);
S2RDEF const s2r_backend* s2r_real_robot_backend(s2r_real_robot* real);
/* ORACLE - the hidden truth of a unit.  For teaching and tests only: system
   identification, demonstrations, evaluation and deployment never call it. */
S2RDEF const s2r_real_unit* s2r_real_robot_oracle(const s2r_real_robot* real);

/* ORACLE - gap attribution.  A unit differs from the nominal simulator by
   the effects below; s2r_real_robot_init_ablated builds unit `unit_seed`
   with the effects in `off` (bits 1u << s2r_effect) put back to the
   nominal simulator's, so switching one effect off (or every effect but
   one) measures what that effect costs a policy.  It reads and edits the
   hidden truth on purpose: a teaching and research tool (examples/09),
   never a step of the pipeline.  Each group: */
typedef enum s2r_effect {
    S2R_EFFECT_JOINT_FRICTION,   /* sigmoid friction torque, seal drag (frictionloss) */
    S2R_EFFECT_BACKLASH,         /* gear play                                          */
    S2R_EFFECT_TORQUE_LIMIT,     /* the drives' lower limit and its fall with speed    */
    S2R_EFFECT_ARM_DYNAMICS,     /* servo gains, joint damping, armature, link masses,
                                    payload, geom friction                             */
    S2R_EFFECT_LATENCY,          /* command and encoder latency, jitter                */
    S2R_EFFECT_ENCODERS,         /* encoder zero offsets, noise, quantization          */
    S2R_EFFECT_CALIBRATION,      /* the camera-to-base offset                          */
    S2R_EFFECT_CAMERA,           /* the camera's delay, frame rate, noise, missed and
                                    occluded frames (target and object)                */
    S2R_EFFECT_OBJECT_FRICTION,  /* object-table and tip-object friction (push)        */
    S2R_EFFECT_OBJECT_MASS,      /* object mass, damping, centre of mass (push)        */
    S2R_EFFECT_TABLE,            /* table height and tilt (push)                       */
    S2R_EFFECT_WORN_PATCH,       /* the table's slippery spot (push)                   */
    S2R_EFFECT_COUNT
} s2r_effect;
#define S2R_EFFECTS_ALL ((1u << S2R_EFFECT_COUNT) - 1u)

/* "joint_friction", "backlash", ...; "unknown" out of range. */
S2RDEF const char* s2r_effect_name(s2r_effect e);
/* ORACLE - the value unit `u` truly has for parameter p, in the unit
   system identification reports it in (the parameter's default mode: a
   scale, kg, N m, s), as open-loop identification can see it: for
   action_latency the total delay less the sensing delay the fit holds
   (`held_obs_latency`, s).  For scoring system ID against the truth
   (examples 03 and 10); frictionloss is the unit's seal drag only - its
   sigmoid joint friction has no simulator parameter to be. */
S2RDEF double      s2r_real_unit_truth(const s2r_real_unit* u, s2r_param p, double held_obs_latency);
/* Whether effect e exists in `scene` (the object and table effects only
   in the push scene). */
S2RDEF int         s2r_effect_in_scene(s2r_effect e, s2r_scene scene);
S2RDEF s2r_result  s2r_real_robot_init_ablated(s2r_real_robot* real, s2r_robot_kind kind, s2r_scene scene,
                                               uint64_t unit_seed, unsigned off);


/* ==========================================================================
   Reach task: bring the tool flange to a target and hold it there
   ==========================================================================
   Episode: the arm starts at rest near home (each joint home + U(-init_q_noise,
   +init_q_noise)), a target is drawn uniformly in the arm's workspace box
   (scaled about its centre by workspace_scale).  Every control_period the
   policy outputs a in [-1, 1]^n; the servo targets move by a * max_delta
   (rad), clipped to the joint limits.  After episode_steps steps the episode
   is truncated.

   Observation (floats), n = number of joints:
       [0,   n)    q            measured joint positions, rad
       [n,  2n)    qd           measured joint velocities, rad/s
       [2n, 3n)    q_cmd - q    servo target minus measured position, rad
       [3n, 3n+3)  target       perceived target position (world), m, minus
                                the camera calibration target_correction
       [+3, +6)    flange       flange by forward kinematics of measured q, m
       [+6, +9)    target - flange, m
       [+9, +9+n)  previous action
   obs_dim = 4n + 9 (UR5e 33, Panda 37).

   Reward per step (from ground truth, d = flange-target distance in m):
       r = -d / 0.1  +  bonus * exp(-(d / success_radius)^2) * exp(-(v / bonus_speed)^2)
                     -  action_cost * |a|^2
   with v the flange speed (m/s): the bonus pays for being on target and
   still, as success asks (bonus_speed = 0 drops the speed factor).  An
   action moves a servo target, so |a|^2 is the motion commanded; its cost
   makes "on target" mean "commanding nothing".  Without enough of it
   (0.01) policies kept moving on target - wrist joints that hardly move
   the flange drifted at half the action range, and some policies chattered
   (flipping sign every step) - and missed the stillness half of success,
   on the Panda especially.  Reaching still pays: |a| = 1 on all 7 joints
   costs 0.7 a step, and every centimetre closer earns 0.1 on every step
   that remains.
   Success (judged at the last step from ground truth, never from sensors):
       d < success_radius  and  |flange velocity| < success_speed. */

#define S2R_REACH_MAX_OBS (4 * S2R_MAX_JOINTS + 9)

typedef struct s2r_reach_config {
    double control_period;   /* s between policy actions; 0.04 (25 Hz)        */
    int    episode_steps;    /* policy steps per episode; 50 (2 s)            */
    double max_delta;        /* rad servo-target change at |a| = 1; 0.05      */
    double success_radius;   /* m; 0.02                                       */
    double success_speed;    /* m/s; 0.05                                     */
    double workspace_scale;  /* fraction of the workspace box, about its centre; 1 */
    double init_q_noise;     /* rad, start pose spread around home; 0.05       */
    double bonus;            /* reward for being on target; 1.0               */
    double bonus_speed;      /* m/s, speed scale of the bonus; 0.05 (0: off)  */
    double action_cost;      /* reward weight on |a|^2; 0.1                   */
    double target_correction[3]; /* m, subtracted from the perceived target
                                    before it enters the observation: the
                                    camera calibration (s2r_calibrate_camera);
                                    0 0 0                                     */
} s2r_reach_config;

typedef struct s2r_reach {
    s2r_reach_config   config;
    const s2r_backend* backend;
    int                n_joints;
    int                obs_dim;
    mjData*            kinematics;             /* scratch for FK of measured q   */
    double             target[3];              /* m, true target of this episode */
    double             q_cmd[S2R_MAX_JOINTS];  /* rad, servo targets sent        */
    float              prev_action[S2R_MAX_JOINTS];
    s2r_sensors        sensors;                /* latest reading                 */
    int                step;                   /* policy steps this episode      */
    int                episode_open;           /* reset called, not yet done     */
    char               error[S2R_ERROR_LEN];
} s2r_reach;

S2RDEF s2r_reach_config s2r_reach_config_default(void);
S2RDEF s2r_result s2r_reach_init(s2r_reach* reach, const s2r_reach_config* config,
                                 const s2r_backend* backend);
S2RDEF void       s2r_reach_free(s2r_reach* reach);
/* Draw a start pose and a target from rng and start an episode. */
S2RDEF s2r_result s2r_reach_reset(s2r_reach* reach, s2r_rng* rng, float* obs);
/* Start an episode from a given pose (rad; NULL = home) and target (m;
   NULL = where the backend's target already is). */
S2RDEF s2r_result s2r_reach_reset_to(s2r_reach* reach, const double* q0,
                                     const double target[3], s2r_rng* rng, float* obs);
/* One policy step.  NaN/Inf in the action: S2R_ERR_INVALID_ARGUMENT, nothing
   changes.  A physics blow-up ends the episode (terminated, diverged). */
S2RDEF s2r_result s2r_reach_step(s2r_reach* reach, const float* action,
                                 float* obs, s2r_step_result* out);
/* Draw a target uniformly in the (scaled) workspace box of `info`. */
S2RDEF void       s2r_reach_sample_target(const s2r_reach_config* config,
                                          const s2r_arm_info* info, s2r_rng* rng,
                                          double target[3]);
/* The task as an s2r_env for the learners. */
S2RDEF s2r_env    s2r_reach_env(s2r_reach* reach);

/* ==========================================================================
   Push task: slide an object over the table to a goal
   ==========================================================================
   After Peng et al. 2018 (Sim-to-Real Transfer of Robotic Control with
   Dynamics Randomization), where a policy trained without dynamics
   randomization pushed a puck to its goal 0 % of the time on the real arm:
   here contact, friction, mass, latency and actuation decide the outcome,
   so each step of the recipe has something to close.  It needs a backend
   with the push scene (S2R_SCENE_PUSH, see Robots).

   Episode: the object is set down at a point drawn in the push area, the
   goal is drawn in the area between min_distance and max_distance from
   it, and the arm starts at rest with the tip at pushing height above a
   third point at least tip_clearance from the object (the start pose is
   found by s2r_tip_ik on the nominal model).  Every control_period the
   policy outputs a in [-1, 1]^2, a tip velocity a * max_speed (m/s, world
   x and y).  s2r_tip_velocity_ik turns it into servo targets, holding the
   tip at push_height above the nominal table top with the tool vertical:
   the Cartesian velocity mode real arms offer (UR's speedl, Franka's
   Cartesian velocity interface), written here on the joint servos so it
   works unchanged on your arm.  Near the edge of the reachable region
   (the push area widened by 8 cm) the velocity component leading out is
   dropped.  After episode_steps steps the episode is truncated.

   Observation (floats), all in metres or m/s, world frame, x then y:
       [0,  2)   tip             forward kinematics of the measured joints
       [2,  4)   tip velocity    the tip's Jacobian times measured qd
       [4,  6)   object          as the camera perceives it (its own frame
                                 rate, delay, noise, missed frames, and
                                 calibration), minus target_correction
       [6,  8)   goal            the goal marker as the same camera saw it
                                 when the episode started (the marker does
                                 not move: one look, not a noisy one per
                                 step), minus target_correction - so goal -
                                 object is free of the camera's calibration
                                 error; object - tip, from encoders and
                                 camera, is not
       [8, 10)   object - tip
       [10, 12)  goal - object
       [12, 14)  previous action
       [14, 16)  u               the push direction: (goal - object) / |goal -
                                 object|, as perceived
       [16, 18)  tip in the push frame: (tip - object) . u and . (-u_y, u_x)
       [18, 20)  object velocity the perceived object's displacement over the
                                 last S2R_PUSH_VELOCITY_STEPS (5) control steps,
                                 m/s (0 at the start)
   obs_dim = S2R_PUSH_OBS = 20 on every arm, act_dim 2.  [14, 18) are
   functions of the others, given because they make pushing nearly linear
   in them: measured on the UR5e, PPO without them reached 4 % in the
   nominal simulator after 400k steps, with them 75 % (training success)
   after 300k.  The velocity is measured: without it PPO reached 3 % after
   300k steps, with it 53-62 %.  It spans five steps, not one, because a
   difference of two frames with 3 mm of noise each is mostly noise: a
   policy given the one-step difference fell from 98 % to 5 % with 3 mm of
   camera noise.

   Reward per step, from ground truth (d = object-goal distance, c = the
   tip's distance to the object's rim, both horizontal, m):
       r = -d / 0.1 - approach_weight c / 0.1
           + bonus exp(-(d / success_radius)^2) - action_cost |a|^2
   The first term pays for progress, the second for staying at the object
   (without it the first has no gradient until the object moves), the
   bonus for being there.  An object off the table (fallen) ends the
   episode as a failure (terminated, reward -2 per remaining step).
   Success (at the last step, ground truth): d < success_radius. */

#define S2R_PUSH_OBS 20   /* floats per push observation, any arm */
#define S2R_PUSH_VELOCITY_STEPS 5   /* control steps the object's velocity spans */

typedef struct s2r_push_config {
    double control_period;   /* s between policy actions; 0.04 (25 Hz)           */
    int    episode_steps;    /* policy steps per episode; 125 (5 s)              */
    double max_speed;        /* m/s, tip speed at |a| = 1; 0.15                  */
    double push_height;      /* m, tip centre above the table top; 0.03: with
                                the table up to 1 cm off (a taped height), the
                                12 mm tip still clears it and still meets the
                                50 mm object below its top edge (over it, the
                                tip rides up and over instead of pushing)     */
    double success_radius;   /* m, object centre to goal; 0.03                   */
    double min_distance;     /* m, least object-goal distance drawn; 0.08        */
    double max_distance;     /* m, largest; 0.2                                  */
    double tip_clearance;    /* m, least tip-object distance at the start; 0.1   */
    double approach_weight;  /* reward weight of the tip-object distance; 0.5    */
    double bonus;            /* reward for the object on the goal; 1.0           */
    double action_cost;      /* reward weight on |a|^2; 0.05                     */
    double target_correction[3]; /* m, subtracted from the perceived object: the
                                    camera calibration (s2r_calibrate_camera);
                                    0 0 0                                       */
} s2r_push_config;

typedef struct s2r_push {
    s2r_push_config    config;
    const s2r_backend* backend;
    int                n_joints;
    mjData*            kinematics;             /* scratch for FK and Jacobians   */
    double             heading[3];             /* the tip's x axis to hold (world) */
    double             goal[2];                /* m, this episode's goal         */
    double             q_cmd[S2R_MAX_JOINTS];  /* rad, servo targets sent        */
    double             q_start[S2R_MAX_JOINTS];/* rad, this episode's start pose */
    float              prev_action[2];
    double             seen_goal[2];           /* m, the goal as perceived at reset */
    double             seen_object[S2R_PUSH_VELOCITY_STEPS][2]; /* m, the object as
                                                  perceived at the last steps (ring) */
    int                seen_count;             /* observations this episode      */
    s2r_sensors        sensors;                /* latest reading                 */
    int                step;
    int                episode_open;
    char               error[S2R_ERROR_LEN];
} s2r_push;

S2RDEF s2r_push_config s2r_push_config_default(void);
/* S2R_ERR_INVALID_ARGUMENT unless the backend has the push scene. */
S2RDEF s2r_result s2r_push_init(s2r_push* push, const s2r_push_config* config, const s2r_backend* backend);
S2RDEF void       s2r_push_free(s2r_push* push);
/* Draw the tip's start, the object and the goal from rng; start an episode. */
S2RDEF s2r_result s2r_push_reset(s2r_push* push, s2r_rng* rng, float* obs);
/* Start an episode with the tip above `tip`, the object at `object` and
   the goal at `goal` (m, world x y).  An object or goal off the table, a
   tip out of reach: S2R_ERR_INVALID_ARGUMENT, nothing changes. */
S2RDEF s2r_result s2r_push_reset_to(s2r_push* push, const double tip[2], const double object[2],
                                    const double goal[2], s2r_rng* rng, float* obs);
/* One policy step.  NaN/Inf in the action: S2R_ERR_INVALID_ARGUMENT,
   nothing changes. */
S2RDEF s2r_result s2r_push_step(s2r_push* push, const float* action, float* obs, s2r_step_result* out);
/* Draw an episode's tip start, object and goal (m, world x y). */
S2RDEF void       s2r_push_sample(const s2r_push_config* config, const s2r_arm_info* info, s2r_rng* rng,
                                  double tip[2], double object[2], double goal[2]);
S2RDEF s2r_env    s2r_push_env(s2r_push* push);

/* Differential inverse kinematics of the tip (push scene): move the servo
   targets q_cmd (rad, [n_joints], updated in place) so the tip moves at
   the planar velocity v (m/s, world x y) for dt seconds while being held
   at `height` (m, world z) with the tool axis pointing down and its x axis
   along `heading` (world, horizontal).  With the tip's 6 x n Jacobian J
   at the measured joints q (rad):
       twist = [v_x, v_y, k (height - z),  k (z_tip x -e_z + ((x_tip x heading) . e_z) e_z)]
       dq    = J^T (J J^T + lambda^2 I)^-1 twist  + a null-space pull toward q_rest
       q_cmd = clamp(q_cmd + dq dt, joint limits, q -+ 0.2 rad)
   with k = 10 /s and lambda = 0.01: damped least squares, which stays
   bounded near singularities.  The height and orientation errors come
   from the measured joints, so the servos' droop under gravity is worked
   off the way an integral term would.  `scratch` comes from
   mj_makeData(info->model); nothing is allocated. */
S2RDEF void   s2r_tip_velocity_ik(const s2r_arm_info* info, mjData* scratch, const double* q, const double v[2],
                                  double height, const double heading[3], const double* q_rest, double dt,
                                  double* q_cmd);
/* Joint angles (rad) putting the tip at `tip` (m, world) with the tool
   axis down and its x axis along `heading`, from q_start by iterating the
   same step.  Returns the remaining position error, m. */
S2RDEF double s2r_tip_ik(const s2r_arm_info* info, mjData* scratch, const double tip[3], const double heading[3],
                         const double* q_start, double* q_out);

/* ==========================================================================
   Tasks: one door for the pipeline to reach, push or your own task
   ==========================================================================
   Training, evaluation, demonstrations and fine-tuning take a task
   configuration (which task, and its settings) and build the task over
   whatever backend they are given, so a second task reuses the pipeline
   instead of copying it.  An s2r_task holds one task of either kind; its
   s2r_env is what the learners see.  Each kind names the scene its
   simulator needs (reach: the arm alone; push: the push scene) and its
   default training ranges. */

typedef enum s2r_task_kind {
    S2R_TASK_REACH,
    S2R_TASK_PUSH,
    S2R_TASK_COUNT
} s2r_task_kind;

typedef struct s2r_task_config {
    s2r_task_kind    kind;    /* S2R_TASK_REACH                          */
    s2r_reach_config reach;   /* used when kind is REACH; its defaults    */
    s2r_push_config  push;    /* used when kind is PUSH; its defaults     */
} s2r_task_config;

typedef struct s2r_task {
    s2r_task_kind kind;
    s2r_reach     reach;          /* the task, when kind is REACH           */
    s2r_push      push;           /* the task, when kind is PUSH            */
    s2r_env       env;            /* the task as the learners see it        */
    int           episode_steps;  /* policy steps per episode               */
    char*         error;          /* the active task's error message        */
} s2r_task;

/* "reach", "push"; "unknown" out of range. */
S2RDEF const char*       s2r_task_kind_name(s2r_task_kind kind);
/* S2R_TASK_COUNT when `name` is none of them. */
S2RDEF s2r_task_kind     s2r_task_kind_find(const char* name);
S2RDEF s2r_task_config   s2r_task_config_default(s2r_task_kind kind);
/* The scene a simulator needs for the task. */
S2RDEF s2r_scene         s2r_task_scene(s2r_task_kind kind);
/* A simulator configuration for `robot` ready for the task: its scene,
   and for push the delay lines long enough for the camera (max_latency
   0.2 s).  Nominal: no randomization. */
S2RDEF s2r_sim_config    s2r_task_sim_config(s2r_task_kind kind, s2r_robot_kind robot);
/* The task's default training ranges: s2r_randomization_default() for
   reach, s2r_randomization_push() for push. */
S2RDEF s2r_randomization s2r_task_randomization(s2r_task_kind kind);
/* Observation and action sizes of the task on `robot`. */
S2RDEF void              s2r_task_dims(s2r_task_kind kind, s2r_robot_kind robot, int* obs_dim, int* act_dim);
/* The same for an arm of n_joints joints (your own MJCF). */
S2RDEF void              s2r_task_dims_n(s2r_task_kind kind, int n_joints, int* obs_dim, int* act_dim);
/* A camera calibration (m, subtracted from what the camera perceives:
   reach's target, push's object) into either task's settings. */
S2RDEF void              s2r_task_config_set_camera(s2r_task_config* config, const double correction[3]);
S2RDEF s2r_result        s2r_task_init(s2r_task* task, const s2r_task_config* config, const s2r_backend* backend);
S2RDEF void              s2r_task_free(s2r_task* task);
S2RDEF const s2r_backend* s2r_task_backend(const s2r_task* task);
/* The configuration of a running reach task (e.g. for s2r_expert_init). */
S2RDEF s2r_task_config   s2r_task_config_of_reach(const s2r_reach* reach);

/* ==========================================================================
   Scripted controller: inverse kinematics, the reach expert, the pusher
   ==========================================================================
   A classical controller for each task, used three ways: the baseline
   that shows the gap before any learning (example 01), the teleoperating
   "human" that records demonstrations on the real robot (example 04), and
   the fallback controller of staged deployment (example 06).

   Reach: damped least-squares inverse kinematics on the nominal model for
   the perceived target, then the servo targets move toward that goal plus
   an integral of the remaining joint error (which removes the static
   droop of the servos):

       I += gain_error (q_goal - q)                  (clipped to +-0.1 rad)
       a  = clip( gain_cmd (q_goal + I - q_cmd) / max_delta, -1, 1 )

   Push: in the frame of the push direction u (object to goal) and its
   normal w, with the tip at s along u and l along w from the object and
   R the object's radius plus the tip's:
     - tip beside or ahead of the object (s > -R/2): step aside to R + 3
       cm off the object on the tip's side, then back along that side;
     - behind but off the line (|l| > 2 cm) or far back: go to the point
       R + 1.5 cm behind the object on the line;
     - on the line behind it: push along u at min(max_speed, 2 /s x the
       object-goal distance), steering the tip back onto the line;
     - object within half the success radius of the goal: stop.
   Waypoints are approached at approach_gain x the distance (m/s per m).

   Both read only the task's observation, so they act in the policy's
   action space; optional action noise and a reaction delay make them an
   imperfect human. */

/* Joint angles putting the flange at `target` (m, world), from q_start
   (rad) by damped least squares with a pull toward q_start in the null
   space, within the joint limits.  `scratch` comes from
   mj_makeData(info->model).  Returns the remaining distance in metres. */
S2RDEF double s2r_ik_solve(const s2r_arm_info* info, mjData* scratch, const double target[3],
                           const double* q_start, double* q_out);

typedef struct s2r_expert_config {
    double gain_cmd;         /* pull of the servo targets toward the goal; 0.5      */
    double gain_error;       /* integral gain on the joint error, per step; 0.1     */
    double action_noise;     /* std of Gaussian noise added to each action; 0       */
    int    reaction_steps;   /* policy steps between seeing and acting; 0           */
    double approach_gain;    /* push: tip speed per metre to the waypoint, 1/s; 4   */
} s2r_expert_config;

typedef struct s2r_expert {
    s2r_expert_config   config;
    const s2r_arm_info* info;
    s2r_task_kind       task;                      /* which task it drives           */
    int                 obs_dim, act_dim;          /* the task's sizes               */
    double              max_delta;                 /* reach: rad, the action scale   */
    double              max_speed;                 /* push: m/s, the action scale    */
    double              success_radius;            /* push: m                        */
    mjData*             scratch;                   /* IK workspace                   */
    double              q_goal[S2R_MAX_JOINTS];    /* rad, IK solution               */
    double              integral[S2R_MAX_JOINTS];  /* rad, accumulated joint error   */
    double              ik_residual;               /* m, distance IK could not close */
    double              goal_target[3];            /* m, target the goal was solved for */
    int                 has_goal;
    float               pending[8][S2R_MAX_JOINTS];/* actions waiting out the reaction delay */
    int                 steps;                     /* actions produced this episode  */
    char                error[S2R_ERROR_LEN];
} s2r_expert;

S2RDEF s2r_expert_config s2r_expert_config_default(void);
/* For the task `task` describes (its kind, sizes and action scale) on the
   arm `info` (the nominal model, for inverse kinematics). */
S2RDEF s2r_result s2r_expert_init(s2r_expert* e, const s2r_expert_config* config,
                                  const s2r_task_config* task, const s2r_arm_info* info);
S2RDEF void       s2r_expert_free(s2r_expert* e);
/* Forget the goal and the pending actions (start of an episode). */
S2RDEF void       s2r_expert_reset(s2r_expert* e);
/* Action for observation `obs` of the task.  `seen` (m, world) overrides
   what the camera perceives when not NULL, as an operator who sees the
   real scene does: reach's target [3]; push's object and goal [6].  rng:
   action noise (may be NULL when there is none). */
S2RDEF s2r_result s2r_expert_act(s2r_expert* e, const float* obs, const double* seen,
                                 float* action, s2r_rng* rng);


/* ==========================================================================
   Learning: MLP, Gaussian policy, PPO, behaviour cloning, checkpoints

   Everything a policy needs to learn, written out by hand so it can be read
   top to bottom:

     s2r_mlp          a tanh (or ReLU) MLP over one contiguous float parameter
                      block, with a forward and a hand-written backward pass,
                      each a matrix product over the whole batch
     s2r_policy       actor (obs -> action mean), a state-independent log-std
                      and a critic (obs -> value), with the running
                      observation normalizer they were trained behind
     s2r_adam         Adam (PyTorch's formulation) over a parameter block
     s2r_gae          generalized advantage estimation with correct handling
                      of time-limit truncation
     s2r_ppo          PPO as in CleanRL's ppo_continuous_action: rollouts over
                      N environments (optionally in parallel), clipped
                      surrogate, value clipping, entropy bonus, annealed
                      learning rate, shuffled minibatches, gradient clipping;
                      optionally a privileged critic (Pinto et al. 2018,
                      asymmetric actor-critic): with cfg.privileged_dim the
                      value network also sees what the environments know
                      and a robot does not (s2r_env.privileged, e.g. the
                      episode's randomized parameters), the actor only the
                      observation - in principle a better baseline in
                      training, and nothing extra at deployment; measured
                      on push with the episode's parameters as the inputs,
                      it kept PPO from learning on every seed (README, "A
                      privileged critic")
     s2r_dataset,     behaviour cloning from (observation, action) pairs,
     s2r_bc           from scratch or as an anchored fine-tune of a policy
     s2r_policy_save  versioned, checksummed checkpoints written atomically
     s2r_pendulum     the classic swing-up, a tiny environment to test on

   Train in simulation and save (tests/test_learn.c runs this sequence):

       s2r_ppo ppo;
       s2r_ppo_config cfg = s2r_ppo_config_default();
       cfg.num_envs = 4;                      // envs[0..3] made by the caller
       if (s2r_ppo_init(&ppo, &cfg, envs[0].obs_dim, envs[0].act_dim) != S2R_OK)
           { printf("%s\n", ppo.error); return 1; }
       s2r_ppo_train(&ppo, envs, show_progress, NULL); // or s2r_ppo_iterate
       s2r_policy_save(&ppo.policy, &ppo.adam, "out/sim.policy");
       s2r_ppo_free(&ppo);

   Load it, fine-tune on demonstrations, act:

       s2r_policy pol;  s2r_policy_shape shape;  s2r_bc bc;
       s2r_bc_config bcc = s2r_bc_config_finetune();
       s2r_rng rng = s2r_rng_make(1, 0);
       s2r_checkpoint_shape("out/sim.policy", &shape, error);
       s2r_policy_init(&pol, &shape, 0.0f, 10.0f, &rng);
       s2r_policy_load(&pol, NULL, "out/sim.policy");
       s2r_bc_init(&bc, &bcc, &pol);
       for (epoch = 0; epoch < 20; epoch++) s2r_bc_epoch(&bc, &demos, NULL);
       s2r_policy_act(&pol, obs, action, 1, NULL);   // deterministic: the mean

   (Every call returns an s2r_result; check it.)  Differences from CleanRL,
   both deliberate: a time-limit truncation bootstraps from V(final obs)
   instead of counting as a terminal state (cfg.time_limit_terminal = 1
   for CleanRL's way), and all envs share one
   observation normalizer (updated in env order with the observations the
   policy acts on), which is saved with the policy for deployment.

   Threads: with -fopenmp and cfg.num_threads > 1 the environments of a
   rollout are stepped in parallel, and each minibatch of the update runs
   its actor's and critic's halves side by side.  Each environment has its
   own RNG streams and a lane of its own (s2r_ppo_lane: whole cache lines,
   so no two threads write one line), every reduction runs afterwards in
   environment order, and the halves share nothing, so results are
   bit-identical for any thread count.  The envs passed in must not share
   mutable state.
   ========================================================================== */


#define S2R_MAX_HIDDEN_LAYERS 4  /* hidden layers an MLP may have            */
#define S2R_MLP_MAX_WIDTH 256    /* widest layer: observation, hidden, action */

/* --- MLP: layout of a network inside one float block --------------------- */

/* What the hidden layers of a network apply to their outputs.  tanh is the
   default everywhere (CleanRL's PPO; the committed tables were trained
   with it); ReLU is RLtools' choice: cheaper, unbounded, and on the
   pendulum with RLtools' settings the difference between reaching a
   return of -200 and not (bench/bench_main.c). */
typedef enum s2r_activation {
    S2R_ACTIVATION_TANH = 0,   /* tanh(x)                                 */
    S2R_ACTIVATION_RELU = 1    /* max(0, x)                               */
} s2r_activation;
#define S2R_ACTIVATION_COUNT 2

/* Layer l (0 .. num_layers-1) maps size[l] inputs to size[l+1] outputs:
   y = W x + b, with W stored row-major [size[l+1]][size[l]] (PyTorch's
   nn.Linear layout) at params + weight[l] and b [size[l+1]] at params +
   bias[l].  Hidden layers apply the activation (tanh unless set); the
   output layer is linear.  The MLP owns no memory: it describes where
   things are in a block you pass in. */
typedef struct s2r_mlp {
    int num_layers;                          /* linear layers = hidden + 1   */
    int size[S2R_MAX_HIDDEN_LAYERS + 2];     /* size[0] in ... size[L] out   */
    int weight[S2R_MAX_HIDDEN_LAYERS + 1];   /* offset of W_l in the block   */
    int bias[S2R_MAX_HIDDEN_LAYERS + 1];     /* offset of b_l in the block   */
    int act_offset[S2R_MAX_HIDDEN_LAYERS];   /* hidden layer l's activations
                                                start at acts + B*act_offset[l] */
    int num_params;                          /* floats of all W and b        */
    int num_acts;                            /* hidden floats per sample     */
    int max_hidden;                          /* widest hidden layer          */
    s2r_activation activation;               /* of the hidden layers;
                                                s2r_mlp_layout sets tanh   */
} s2r_mlp;

/* Fill `m` for in -> hidden[0] -> ... -> hidden[num_hidden-1] -> out.
   Sizes must be 1 .. S2R_MLP_MAX_WIDTH, num_hidden 1 .. S2R_MAX_HIDDEN_LAYERS;
   otherwise S2R_ERR_INVALID_ARGUMENT with a message in `error` (may be NULL). */
S2RDEF s2r_result s2r_mlp_layout(s2r_mlp* m, int in, int num_hidden,
                                 const int* hidden, int out, char* error);
/* Orthogonal initialization: each W_l is a random orthogonal matrix (rows or
   columns orthonormal, whichever are fewer) times `hidden_gain` for hidden
   layers and `out_gain` for the output layer; biases are zero. */
S2RDEF void s2r_mlp_init_orthogonal(const s2r_mlp* m, float* params,
                                    float hidden_gain, float out_gain,
                                    s2r_rng* rng);
/* Forward a batch.  x [B][size[0]]; acts [B * num_acts] receives the hidden
   activations (after the activation, layer-major) that the backward pass
   needs; out [B][size[L]].  Each layer is a matrix product over the whole
   batch (see "the batched layer kernel" in the implementation), with
   results bit for bit those of one sample at a time. */
S2RDEF void s2r_mlp_forward(const s2r_mlp* m, const float* params,
                            const float* x, int B, float* acts, float* out);
/* Backward a batch given dL/dout [B][size[L]]: *adds* dL/dparams into
   grads [num_params] (zero it first).  x and acts are those of the forward
   pass; scratch holds [2][B][max_hidden] floats. */
S2RDEF void s2r_mlp_backward(const s2r_mlp* m, const float* params,
                             const float* x, const float* acts,
                             const float* dout, int B, float* grads,
                             float* scratch);

/* --- Observation normalizer ---------------------------------------------- */

/* Running mean and variance of observations (parallel-batch update, as
   gym's RunningMeanStd).  The policy sees clip((x - mean) / sqrt(var + 1e-8),
   -clip, clip).  PPO updates it while collecting; evaluation and deployment
   only read it (frozen).  Saved in checkpoints with the policy. */
typedef struct s2r_normalizer {
    int     dim;     /* floats per observation                               */
    double  count;   /* observations seen; starts at 1e-4 so var is defined  */
    double  clip;    /* normalized values are clipped to [-clip, clip]; 10   */
    double* mean;    /* [dim] running mean                                   */
    double* var;     /* [dim] running (population) variance; starts at 1     */
} s2r_normalizer;

/* --- Policy: actor, log-std and critic in one parameter block ------------ */

typedef struct s2r_policy_shape {
    int obs_dim;                          /* floats per observation         */
    int act_dim;                          /* floats per action              */
    int num_hidden;                       /* hidden layers of both networks */
    int hidden[S2R_MAX_HIDDEN_LAYERS];    /* their widths, e.g. {64, 64}    */
    int privileged;                       /* floats only the critic sees,
                                             after the observation (a
                                             privileged critic; 0: none)    */
    s2r_activation actor_activation;      /* hidden layers of the actor and */
    s2r_activation critic_activation;     /* of the critic; 0: tanh         */
} s2r_policy_shape;

/* A Gaussian policy pi(a|s) = N(actor(norm(s)), exp(log_std)^2) and a value
   function critic(norm(s)), or critic(norm(s), z) with a privileged critic:
   z [shape.privileged] is what the simulator knows and a robot does not
   (the episode's parameters, s2r_sim_privileged).  The actor never sees z,
   so acting and deploying need only the observation.  params is one block,
   so a checkpoint is one write and the optimizer treats it as one vector:
       [ actor W/b (actor.num_params) | log_std [act_dim] | critic W/b ]
   Behaviour cloning trains only the first num_actor_params floats. */
typedef struct s2r_policy {
    s2r_policy_shape shape;
    s2r_mlp  actor;             /* normalized obs [obs_dim] -> mean [act_dim]  */
    s2r_mlp  critic;            /* normalized obs [obs_dim], then z
                                   [shape.privileged] -> value [1]            */
    int      num_params;        /* floats in params                           */
    int      num_actor_params;  /* actor.num_params + act_dim                 */
    float*   params;            /* [num_params] the block described above     */
    float*   log_std;           /* [act_dim] = params + actor.num_params      */
    float*   critic_params;     /* = params + num_actor_params                */
    s2r_normalizer norm;        /* observation normalizer, saved with params  */
    int      made_for;          /* the arm and task it was trained for
                                   (s2r_made_for; 0: not known), saved in
                                   the checkpoint; s2r_train sets it         */
    int      history;           /* frames of history its observations stack
                                   (s2r_frame_history; 0 none), saved in the
                                   checkpoint; s2r_train sets it             */
    uint64_t randomization;     /* digest of the ranges it was trained on
                                   (s2r_randomization_digest; 0: not known),
                                   saved in the checkpoint; s2r_train sets it */
    char     error[S2R_ERROR_LEN];
} s2r_policy;

/* A policy's arm and task in one number (never 0), and back: the two UR5e
   and Panda push policies have the same sizes, so sizes alone cannot tell
   them apart.  s2r_made_for_robot / _task of 0 give S2R_ROBOT_COUNT /
   S2R_TASK_COUNT. */
#define s2r_made_for(robot, task) ((int)(robot) * 16 + (int)(task) + 1)
#define s2r_made_for_robot(code) ((code) > 0 ? (s2r_robot_kind)(((code) - 1) / 16) : S2R_ROBOT_COUNT)
#define s2r_made_for_task(code) ((code) > 0 ? (s2r_task_kind)(((code) - 1) % 16) : S2R_TASK_COUNT)

/* Allocate and initialize: orthogonal weights (gain sqrt(2) hidden, 0.01
   actor head, 1 critic head), log_std = init_log_std, normalizer at
   mean 0 / var 1 with clip `obs_clip`.  Draws from `rng`. */
S2RDEF s2r_result s2r_policy_init(s2r_policy* p, const s2r_policy_shape* shape,
                                  float init_log_std, float obs_clip,
                                  s2r_rng* rng);
S2RDEF void s2r_policy_free(s2r_policy* p);
/* One action for one raw observation [obs_dim], normalized with the frozen
   statistics.  deterministic != 0: the mean (evaluation, deployment; rng may
   be NULL); otherwise mean + std * N(0,1) drawn from rng.  The action written
   to action [act_dim] is clipped to [-1, 1], ready for an s2r_env.  No
   allocation; reads the policy and writes only p->error (on failure), so
   threads may share a policy.  Non-finite obs: S2R_ERR_INVALID_ARGUMENT. */
S2RDEF s2r_result s2r_policy_act(s2r_policy* p, const float* obs,
                                 float* action, int deterministic,
                                 s2r_rng* rng);

/* Result of running a policy for whole episodes of an s2r_env (for the
   reach task with success intervals, see s2r_evaluate). */
typedef struct s2r_env_eval {
    int    episodes;     /* episodes run                                */
    double mean_return;  /* mean undiscounted return (raw env reward)   */
    double success_rate; /* fraction of episodes with success set       */
    double mean_length;  /* mean steps per episode                      */
} s2r_env_eval;

/* Run `episodes` episodes of `env` with s2r_policy_act (frozen normalizer).
   rng drives env resets and, if !deterministic, action noise. */
S2RDEF s2r_result s2r_policy_evaluate(s2r_policy* p, s2r_env* env,
                                      int episodes, int deterministic,
                                      s2r_rng* rng, s2r_env_eval* out);

/* --- Adam ---------------------------------------------------------------- */

/* Adam as PyTorch computes it: m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2,
   p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).  It also holds the
   gradient block the losses write into, and global-norm clipping. */
typedef struct s2r_adam {
    int    n;         /* parameters it updates                              */
    long   t;         /* steps taken (bias correction)                      */
    float  beta1;     /* first-moment decay; 0.9                            */
    float  beta2;     /* second-moment decay; 0.999                         */
    float  eps;       /* denominator guard; 1e-5 (CleanRL's PPO setting)    */
    float* grad;      /* [n] gradient of the current loss                   */
    float* moments;   /* [2][n]: m then v, one block (one checkpoint write) */
} s2r_adam;

S2RDEF s2r_result s2r_adam_init(s2r_adam* a, int n, char* error);
S2RDEF void s2r_adam_free(s2r_adam* a);
/* Scale grad so its global L2 norm is at most max_norm (<= 0: no clipping);
   returns the norm before clipping (non-finite if the gradient is). */
S2RDEF double s2r_adam_clip_grad(s2r_adam* a, double max_norm);
/* One step on params [n] with learning rate lr, using a->grad. */
S2RDEF void s2r_adam_step(s2r_adam* a, float* params, float lr);

/* --- GAE ------------------------------------------------------------------ */

/* Generalized advantage estimation over T steps of N environments, buffers
   step-major [T][N] (row t holds every env's step t).
     done[t][n]      the episode ended at step t (terminated or truncated)
     end_value[t][n] what to bootstrap with when it ended: V(final obs) on a
                     time-limit truncation, 0 on termination (unused otherwise)
     last_value[n]   V(obs after step T-1), bootstraps unfinished episodes
   delta_t = r_t + gamma * V_next - V_t, A_t = delta_t + gamma lambda A_{t+1},
   with V_next = end_value and the A chain cut where done.
   returns = advantages + values. */
S2RDEF void s2r_gae(int T, int N, const float* rewards, const float* values,
                    const unsigned char* done, const float* end_value,
                    const float* last_value, float gamma, float lambda,
                    float* advantages, float* returns);

/* PPO's clipped surrogate objective for one sample (Schulman et al., 2017),
   as a loss to minimize, and its derivative:
     ratio = exp(logratio), logratio = log pi_new(a|s) - log pi_old(a|s)
     loss  = max(-A ratio, -A clamp(ratio, 1 - clip, 1 + clip))
   *dloss_dlogp gets d loss / d log pi_new(a|s): -A ratio where the
   unclipped term is the larger or the two are equal, 0 where the clipped
   term is strictly larger (the loss is flat there: the update has moved
   the ratio far enough in the advantage's direction).  A = advantage (as
   normalized by the caller), clip > 0 (CleanRL's clip_coef, 0.2).
   Together with s2r_gae this is the course's PPO exercise
   (S2R_EXERCISE_PPO leaves both definitions out for yours). */
S2RDEF double s2r_ppo_clipped_loss(double logratio, double advantage, double clip, double* dloss_dlogp);

/* --- PPO ------------------------------------------------------------------ */

/* Hyperparameters.  Defaults are CleanRL's ppo_continuous_action (MuJoCo
   settings), so learning curves compare. */
typedef struct s2r_ppo_config {
    long long total_steps;     /* env steps over all envs for the whole run;
                                  sets the learning-rate schedule. 1000000    */
    int   num_envs;            /* environments stepped per rollout step.  1  */
    int   rollout_steps;       /* steps per rollout summed over envs (the
                                  batch); divisible by num_envs.  2048       */
    int   num_minibatches;     /* the batch is split into this many shuffled
                                  minibatches per epoch; must divide it.  32 */
    int   update_epochs;       /* passes over the batch per update.  10      */
    float learning_rate;       /* Adam step size at the start.  3e-4         */
    int   anneal_lr;           /* 1: decay linearly to 0 over the run.  1    */
    float gamma;               /* discount per step.  0.99                   */
    float gae_lambda;          /* GAE lambda.  0.95                          */
    float clip_coef;           /* surrogate clip: ratio in [1-c, 1+c].  0.2  */
    int   clip_value_loss;     /* 1: clip the value change to +-clip_coef.  1 */
    float value_coef;          /* weight of the value loss.  0.5             */
    float entropy_coef;        /* weight of the entropy bonus.  0.0          */
    float max_grad_norm;       /* global gradient-norm clip (0: off).  0.5   */
    float target_kl;           /* stop the epochs early when an epoch's mean
                                  approx_kl exceeds it (0: never, as
                                  CleanRL's None).  0                        */
    int   normalize_advantages;/* per-minibatch advantage normalization.  1 */
    int   normalize_rewards;   /* scale rewards by the running std of the
                                  discounted return, clip +-reward_clip (as
                                  gym's NormalizeReward).  1                 */
    float reward_clip;         /* clip of scaled rewards.  10                */
    float obs_clip;            /* clip of normalized observations.  10       */
    int   num_hidden;          /* hidden layers of actor and critic.  2      */
    int   hidden[S2R_MAX_HIDDEN_LAYERS]; /* their widths.  {64, 64}          */
    float init_log_std;        /* initial log std of the actions.  0         */
    uint64_t seed;             /* every random draw of the run derives from
                                  it (init, shuffles, env resets, actions). 1 */
    int   num_threads;         /* threads stepping envs, and 2 for the update
                                  when > 1, with OpenMP (0: the OpenMP
                                  default; ignored without it).  1          */
    uint64_t env_identity[2];  /* what the environments are, for resuming: a
                                  training state saved with others is
                                  refused.  s2r_train sets [0] to the task
                                  and arm, [1] to a digest of the
                                  randomization.  {0, 0}                    */
    int   privileged_dim;      /* a privileged critic: floats of the envs'
                                  privileged channel (s2r_env.priv_dim,
                                  e.g. S2R_PRIVILEGED_DIM) the critic sees
                                  besides the observation; the actor never
                                  does.  0: a plain critic.  0              */
    s2r_activation actor_activation;  /* hidden layers of the actor.  tanh  */
    s2r_activation critic_activation; /* and of the critic.  tanh           */
    float adam_eps;            /* Adam's denominator guard (CleanRL's PPO:
                                  1e-5; PyTorch's default 1e-8).  1e-5      */
    int   time_limit_terminal; /* an episode cut by its time limit
                                  (truncated): 0 - bootstrap from V(final
                                  obs), as if it went on (it would have:
                                  the limit is not part of the task); 1 -
                                  count it as terminal, the value after it
                                  0 (CleanRL's choice: it teaches the
                                  critic that states near the limit are
                                  worth less, a time it cannot see).  0     */
} s2r_ppo_config;

S2RDEF s2r_ppo_config s2r_ppo_config_default(void);

/* Diagnostics of one PPO iteration (rollout + update).  Losses, entropy and
   KL are means over the minibatches the update applied. */
typedef struct s2r_ppo_stats {
    int    update;            /* 1-based index of this update               */
    int    num_updates;       /* updates the run was planned for            */
    long long global_step;    /* env steps so far, all envs                 */
    float  learning_rate;     /* Adam step size used in this update         */
    float  policy_loss;       /* clipped surrogate loss                     */
    float  value_loss;        /* 0.5 * (clipped) squared error              */
    float  entropy;           /* mean policy entropy (nats)                 */
    float  approx_kl;         /* mean of (ratio - 1) - log ratio            */
    float  clip_fraction;     /* fraction of samples with |ratio-1| > clip  */
    float  explained_variance;/* 1 - Var(returns - values) / Var(returns)   */
    int    episodes;          /* episodes finished during the rollout       */
    float  mean_return;       /* their mean raw return (NAN if none)        */
    float  success_rate;      /* their success fraction (NAN if none)       */
    float  steps_per_second;  /* env steps / wall s of this iteration       */
    int    minibatches;       /* minibatch updates applied                  */
    int    skipped;           /* minibatches skipped: non-finite loss/grad  */
    int    diverged;          /* episodes the physics blew up in (ended,
                                 not bootstrapped, never fed on as NaN)     */
} s2r_ppo_stats;

/* Called after every update by s2r_ppo_train; return nonzero to stop. */
typedef int (*s2r_ppo_callback)(const s2r_ppo_stats* stats, void* user);

/* What stepping one environment writes during a rollout (see s2r_ppo's
   lanes): its streams, the sample it took and what the env returned. */
typedef struct s2r_ppo_lane {
    s2r_rng env_rng;           /* resets, stream from (seed, env index)      */
    s2r_rng act_rng;           /* action noise, from (seed, env index)       */
    s2r_rng reset_rng;         /* env_rng as it was before the env's last
                                  reset: replaying that reset rebuilds the
                                  env (training-state saves)                */
    s2r_step_result step;      /* last step's outcome                        */
    s2r_result status;         /* last env call's result                     */
    float  value, logprob;     /* V(obs) and log pi(action | obs) of the
                                  sample just taken                         */
    float* action;             /* [act_dim] the sample just taken            */
    float* raw_obs;            /* [obs_dim] raw obs from the env             */
    float* final_obs;          /* [obs_dim] raw final obs of an episode      */
    float* priv;               /* [P] privileged inputs of the obs to act on
                                  next (P = cfg.privileged_dim)             */
    float* final_priv;         /* [P] those of final_obs                     */
} s2r_ppo_lane;

/* The trainer.  All buffers are allocated by s2r_ppo_init; iterating
   allocates nothing.  Rollout storage is step-major [T][N] as in CleanRL,
   T = rollout_steps / num_envs steps of N = num_envs environments. */
typedef struct s2r_ppo {
    s2r_ppo_config cfg;
    s2r_policy policy;         /* what is being trained (owned)              */
    s2r_adam   adam;           /* over all of policy.params                  */
    int  obs_dim, act_dim;
    int  num_envs, steps_per_env, batch_size, minibatch_size, num_updates;
    int  update;               /* updates done                               */
    long long global_step;     /* env steps done                             */
    int  started;              /* envs have been reset                       */
    /* rollout, one float block */
    float* rollout;            /* the block below                            */
    float* obs;                /* [T][N][obs_dim] normalized obs acted on    */
    float* actions;            /* [T][N][act_dim] unclipped Gaussian samples */
    float* logprobs;           /* [T][N] log pi(action | obs) when sampled   */
    float* rewards;            /* [T][N] (scaled) rewards                    */
    float* values;             /* [T][N] V(obs) when sampled                 */
    float* end_values;         /* [T][N] V(final obs) on truncation, else 0  */
    float* advantages;         /* [T][N] GAE advantages                      */
    float* returns;            /* [T][N] advantages + values                 */
    float* last_values;        /* [N] V(next_obs) after the rollout          */
    float* priv;               /* [T][N][P] privileged inputs when sampled
                                  (P = cfg.privileged_dim; empty if 0)      */
    unsigned char* dones;      /* [T][N] episode ended at this step          */
    /* per-environment state: what a worker thread writes while it steps
       env e is env e's lane (s2r_ppo_lane, lanes + e * lane_stride: whole
       cache lines of its own, so threads never write one line); the
       serial part copies it into the rollout in env order */
    unsigned char* lanes;      /* [N] lanes, lane_stride bytes apart         */
    size_t lane_stride;        /* bytes: a whole number of cache lines       */
    void*  lane_block;         /* the allocation lanes sits in (freed)       */
    float* env_block;          /* the block below (written serially)         */
    float* next_obs;           /* [N][obs_dim] normalized obs to act on next */
    float* raw_obs;            /* [N][obs_dim] raw obs, gathered from lanes  */
    double* episode_return;    /* [N] raw return of the running episode      */
    double* discounted;        /* [N] running discounted return (reward scaling) */
    s2r_normalizer reward_norm;/* dim 1: variance of `discounted`            */
    /* rollout statistics */
    int    episodes, successes, diverged;
    double return_sum;
    /* update scratch, one float block */
    float* work;               /* the block below                            */
    int*   perm;               /* [batch] shuffled sample indices            */
    float* mb_obs;             /* [M][obs_dim] minibatch observations        */
    float* mb_critic;          /* [M][obs_dim + P] the critic's inputs (=
                                  mb_obs when P = 0)                        */
    float* mb_adv;             /* [M] (normalized) advantages                */
    float* actor_acts;         /* [M * actor.num_acts]                       */
    float* critic_acts;        /* [M * critic.num_acts]                      */
    float* mean;               /* [M][act_dim] actor output                  */
    float* dmean;              /* [M][act_dim] dL/dmean                      */
    float* value;              /* [M] critic output                          */
    float* dvalue;             /* [M] dL/dvalue                              */
    float* back;               /* [2][M][max hidden] the actor's backward
                                  scratch                                   */
    float* back_critic;        /* [2][M][max hidden] the critic's            */
    s2r_rng rng;               /* minibatch shuffles                         */
    char error[S2R_ERROR_LEN];
} s2r_ppo;

/* Validate cfg, allocate every buffer, initialize the policy from cfg.seed.
   obs_dim and act_dim are those of the environments to be used. */
S2RDEF s2r_result s2r_ppo_init(s2r_ppo* ppo, const s2r_ppo_config* cfg,
                               int obs_dim, int act_dim);
S2RDEF void s2r_ppo_free(s2r_ppo* ppo);
/* One iteration: anneal the learning rate, collect rollout_steps steps from
   envs [cfg.num_envs], compute GAE, run the update epochs, fill *stats (may
   be NULL).  S2R_ERR_STATE once num_updates iterations are done. */
S2RDEF s2r_result s2r_ppo_iterate(s2r_ppo* ppo, s2r_env* envs,
                                  s2r_ppo_stats* stats);
/* Iterate until the planned number of updates is done or `callback` (may be
   NULL) returns nonzero. */
S2RDEF s2r_result s2r_ppo_train(s2r_ppo* ppo, s2r_env* envs,
                                s2r_ppo_callback callback, void* user);
/* Training state, for resuming a run exactly.  s2r_ppo_save_state writes
   (atomically) what the run needs to go on: the policy checkpoint with its
   optimizer, the update and step counts, every random stream and the reward
   scaler, plus the settings that shape the run (seed, sizes, schedule),
   checksummed.  The environments' mid-episode physics is not saved: an
   environment is rebuilt by replaying a reset from a saved stream (reset
   must depend only on the stream it is given).  When the last rollout
   ended every episode (a rollout of whole episodes, as
   s2r_task_ppo_config's), the envs were just reset and the state holds
   the streams of those resets: saving changes nothing, and a run that
   saves trains exactly as one that never does.  Otherwise saving ends the
   running episodes, as a rollout boundary does (bootstrapped from the
   value), so the next rollout starts fresh episodes from the saved
   streams; the run then differs from one that does not save.  Either way
   a run that saves every N updates, killed at any moment and resumed from
   its last state, ends bit-identical to the same run never interrupted.
   s2r_ppo_load_state: into a ppo from s2r_ppo_init with the same settings
   (S2R_ERR_INVALID_ARGUMENT naming the first that differs); S2R_ERR_IO,
   S2R_ERR_CORRUPT as for checkpoints; on any error ppo is unchanged. */
S2RDEF s2r_result s2r_ppo_save_state(s2r_ppo* ppo, const char* path);
S2RDEF s2r_result s2r_ppo_load_state(s2r_ppo* ppo, const char* path);
/* CSV logging of diagnostics: a header line, then one row per update. */
S2RDEF s2r_result s2r_ppo_stats_csv_header(FILE* f);
S2RDEF s2r_result s2r_ppo_stats_csv_row(FILE* f, const s2r_ppo_stats* s);
/* One row (a line of that CSV) back into *s: 1 when it held the 15 or 16
   numbers s2r_ppo_stats_csv_row writes, 0 otherwise (the header, a
   malformed line; *s is then partly filled).  num_updates is not in the
   CSV: 0. */
S2RDEF int        s2r_ppo_stats_csv_parse(const char* line, s2r_ppo_stats* s);
/* One progress line.  interactive != 0 (a terminal): rewrites the same line
   with '\r' and ends it after the last update; otherwise prints whole lines. */
S2RDEF void s2r_ppo_print_progress(FILE* f, const s2r_ppo_stats* s,
                                   int interactive);

/* --- Behaviour cloning ---------------------------------------------------- */

/* (observation, action) pairs, e.g. demonstrations; caller-owned and
   growable.  Actions are in the environment's normalized units. */
typedef struct s2r_dataset {
    int    obs_dim, act_dim;
    int    count;             /* pairs stored                      */
    int    capacity;          /* pairs allocated                   */
    float* obs;               /* [capacity][obs_dim] raw observations */
    float* act;               /* [capacity][act_dim] actions       */
    char   error[S2R_ERROR_LEN];
} s2r_dataset;

S2RDEF s2r_result s2r_dataset_init(s2r_dataset* d, int obs_dim, int act_dim);
/* Append one pair (copied); grows the storage through S2R_REALLOC.
   Non-finite values: S2R_ERR_INVALID_ARGUMENT, dataset unchanged. */
S2RDEF s2r_result s2r_dataset_append(s2r_dataset* d, const float* obs,
                                     const float* act);
S2RDEF void s2r_dataset_free(s2r_dataset* d);
/* Demonstration files: CSV, one observation-action pair per row, columns
   obs_0 .. obs_{D-1} and act_0 .. act_{A-1} in any order, an optional
   `episode` column (kept out of the pairs), '#' comment lines - the raw
   observations of the task the demonstrations were recorded on (its
   layout: s2r_reach / s2r_push) and the actions in [-1, 1] (another is
   refused, naming its row and column).  Write: every
   pair, numbers that read back as the same floats; written whole or not at
   all.  Load / parse (d not initialised; free it after): errors name the
   file and line (S2R_ERR_PARSE, as for trajectory files, and numbers a
   float cannot hold), and nothing is loaded; the caller checks the sizes
   against its policy (s2r_clone_demos does). */
S2RDEF s2r_result s2r_dataset_write_csv(const s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_load_csv(s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_parse_csv(s2r_dataset* d, const char* text, const char* name, char* error);
/* The same pairs as raw floats behind a checksummed header: how a run's
   jobs hand demonstrations to each other (a unit's recording is tens of
   MB as floats and several times that as text).  The layout, 8 uint32
   words then the payload, in this machine's byte order:
     magic "S2RD", version 1, obs_dim, act_dim, count, 0, checksum lo, hi
     obs [count][obs_dim] floats, then act [count][act_dim] floats
   the checksum FNV-1a 64 over the header (checksum words zero) and the
   payload.  Save: written whole or not at all.  Load (d not initialised;
   free it after) / unpack (an image in memory; `name` for messages): a
   wrong magic, version, size or checksum, a non-finite number or an
   action outside [-1, 1] is S2R_ERR_CORRUPT naming the file, and nothing
   is loaded. */
S2RDEF s2r_result s2r_dataset_save(const s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_load(s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_unpack(s2r_dataset* d, const unsigned char* image, size_t n, const char* name,
                                     char* error);

typedef enum s2r_bc_loss {
    S2R_BC_LOSS_MSE = 0,   /* mean over samples and dims of (mean - a)^2;
                              log_std is left as it is                     */
    S2R_BC_LOSS_NLL = 1,   /* Gaussian negative log-likelihood per sample
                              (summed over dims); also fits log_std        */
    S2R_BC_LOSS_COUNT
} s2r_bc_loss;

typedef struct s2r_bc_config {
    int   finetune;        /* 0: from scratch - the first epoch sets the
                              policy's observation normalizer to the
                              dataset's statistics (the policy has seen no
                              other data).  1: fine-tune - the normalizer
                              stays frozen (the weights expect inputs scaled
                              as in simulation; refitting it would move every
                              output before the first gradient step); use
                              with anchor_weight > 0.  scratch 0 / ft 1     */
    s2r_bc_loss loss;      /* see s2r_bc_loss.  MSE                        */
    float learning_rate;   /* Adam step size, constant.  1e-3 / ft 1e-4    */
    float anchor_weight;   /* adds anchor_weight/2 * |theta - theta0|^2 over
                              the actor and log_std, theta0 the policy as
                              s2r_bc_init found it (frozen copy): keeps the
                              fine-tune near the simulation policy.  Each
                              parameter is pulled back with anchor_weight
                              times its displacement: 1e-2 is a mild
                              anchor, 1 a strong one.  scratch 0 / ft 1e-2 */
    float start_weight;    /* w: the policy as s2r_bc_init found it acts as a
                              second teacher.  On every demo observation the
                              MSE loss adds w * (mean - a_start)^2, a_start
                              that policy's deterministic action, so its
                              minimum is the blend (a_demo + w a_start) /
                              (1 + w): the anchor is on actions, where it
                              keeps what the starting policy does, instead
                              of on parameters, where small changes can undo
                              it.  Ignored by the NLL loss.  0: off         */
    int   minibatch_size;  /* pairs per gradient step.  64                 */
    float max_grad_norm;   /* global gradient-norm clip (0: off).  1.0     */
    uint64_t seed;         /* minibatch shuffles.  1                       */
    int   threads;         /* threads sharing each minibatch's passes (0:
                              OpenMP's default, what --threads sets); the
                              result is the same for any number.  0         */
} s2r_bc_config;

/* From-scratch defaults, and the fine-tuning defaults. */
S2RDEF s2r_bc_config s2r_bc_config_default(void);
S2RDEF s2r_bc_config s2r_bc_config_finetune(void);

typedef struct s2r_bc_stats {
    int   epoch;           /* 1-based epochs done by this trainer        */
    float loss;            /* mean total loss over the epoch's minibatches */
    float action_mse;      /* mean (mean action - target)^2 per dim      */
    float anchor;          /* mean anchor penalty (0 from scratch)       */
    int   minibatches;     /* gradient steps applied                     */
    int   skipped;         /* minibatches skipped: non-finite loss/grad  */
} s2r_bc_stats;

/* Trains policy->params[0 .. num_actor_params) (actor and log_std); the
   critic is untouched, so BC epochs and PPO iterations can alternate on
   the same policy (e.g. &ppo.policy), each with its own Adam state. */
typedef struct s2r_bc {
    s2r_bc_config cfg;
    s2r_policy* policy;        /* trained in place (not owned)             */
    s2r_adam    adam;          /* over the actor part                      */
    int    epoch;              /* epochs done                              */
    int    perm_capacity;      /* ints in perm                             */
    int*   perm;               /* [perm_capacity] shuffled pair indices    */
    float* work;               /* one block holding the buffers below      */
    float* anchor;             /* [num_actor_params] frozen theta0         */
    float* mb_obs;             /* [M][obs_dim] normalized observations     */
    float* acts;               /* [M * actor.num_acts]                     */
    float* mean;               /* [M][act_dim]                             */
    float* dmean;              /* [M][act_dim]                             */
    float* start_action;       /* [M][act_dim] the starting policy's       */
    float* back;               /* [2][M][max hidden]                       */
    int    threads;            /* cfg.threads, 0 resolved                  */
    s2r_rng rng;
    char   error[S2R_ERROR_LEN];
} s2r_bc;

S2RDEF s2r_result s2r_bc_init(s2r_bc* bc, const s2r_bc_config* cfg,
                              s2r_policy* policy);
S2RDEF void s2r_bc_free(s2r_bc* bc);
/* One shuffled pass over the dataset (last minibatch may be smaller). */
S2RDEF s2r_result s2r_bc_epoch(s2r_bc* bc, const s2r_dataset* data,
                               s2r_bc_stats* stats);

/* --- Checkpoints ---------------------------------------------------------- */

/* File layout (native byte order; a byte-swapped file fails the magic test):
     uint32 header[32]: magic "S2RP", version (2), obs_dim, act_dim,
                        num_hidden, hidden[4], num_params, optimizer floats
                        (0: none), payload bytes, checksum lo/hi, made_for
                        (the arm and task, s2r_made_for), history (frames,
                        s2r_frame_history), privileged (the critic's extra
                        inputs), the randomization's digest lo/hi (0: not
                        known), the activations (actor's | critic's << 8,
                        s2r_activation; 0, both tanh, in files written
                        before it was recorded), then zeros (reserved)
     payload: params float[num_params]; normalizer count, clip, mean[obs_dim],
              var[obs_dim] as doubles; if an optimizer was saved: its step
              count t (double) and moments float[2][n]
   The checksum is FNV-1a 64 over the header (checksum zeroed) and the
   payload.  Saving writes `path`.tmp and renames it over `path`.  Version
   1 files (a 16-word header ending at history, made_for and history 0 in
   the oldest) still load: no privileged inputs, randomization not known. */
#define S2R_CHECKPOINT_VERSION 2

/* opt may be NULL (policy only).  Errors in p->error. */
S2RDEF s2r_result s2r_policy_save(s2r_policy* p, const s2r_adam* opt,
                                  const char* path);
/* Load into an initialized policy of the same shape (and opt of the same
   size, or NULL).  Everything is validated first: S2R_ERR_IO if the file
   cannot be read, S2R_ERR_CORRUPT for bad magic, version, sizes, length or
   checksum, a shape that differs from p's (activations included: a
   policy trained with ReLU does not load into a tanh one), a non-positive or non-finite
   normalizer count or clip, or an optimizer step count that is not a
   whole number >= 0; on any error p and opt are
   untouched (except p->error).  A file saved without optimizer state resets
   opt to a fresh optimizer. */
S2RDEF s2r_result s2r_policy_load(s2r_policy* p, s2r_adam* opt,
                                  const char* path);
/* The same from a checkpoint image in memory (n bytes); `name` labels
   error messages (NULL: "checkpoint").  Nothing is read past bytes[n-1]. */
S2RDEF s2r_result s2r_policy_load_memory(s2r_policy* p, s2r_adam* opt, const void* bytes,
                                         size_t n, const char* name);
/* Read only the shape stored in a checkpoint, to s2r_policy_init one. */
S2RDEF s2r_result s2r_checkpoint_shape(const char* path,
                                       s2r_policy_shape* shape, char* error);
/* Initialize `p` with the shape stored in the checkpoint and load it
   (policy and normalizer): the one call to bring a saved policy back. */
S2RDEF s2r_result s2r_policy_from_checkpoint(s2r_policy* p, const char* path, char* error);
/* Whether policy p (from the checkpoint `checkpoint`, named in messages)
   was trained on the ranges in the file `ranges_path` (as
   s2r_randomization_write writes them): S2R_OK when the digest p records
   is that file's, or when p records none (a version 1 checkpoint, a
   policy not trained by s2r_train); S2R_ERR_INVALID_ARGUMENT naming both
   files when they differ - a checkpoint copied from another run, or the
   ranges edited after training; the ranges file's own errors otherwise. */
S2RDEF s2r_result s2r_policy_check_ranges(const s2r_policy* p, const char* checkpoint, const char* ranges_path,
                                          char* error);

/* --- Pendulum: a tiny environment to test learners on -------------------- */

/* The classic swing-up: a pole of mass m, length l under gravity g, torque
   u in [-2, 2] N m (action in [-1, 1] times max_torque).  theta = 0 is
   upright.  Per step of dt: thdot += (3g/(2l) sin(theta) + 3/(m l^2) u) dt,
   clipped to +-max_speed; theta += thdot dt.  Reward -(theta_n^2 +
   0.1 thdot^2 + 0.001 u^2) from the state before the step (theta_n wrapped
   to [-pi, pi)).  Observation (cos theta, sin theta, thdot).  Reset:
   theta ~ U(-pi, pi), thdot ~ U(-1, 1).  Episodes are truncated after
   max_steps (never terminated).  success: |theta_n| < 0.1 rad and
   |thdot| < 1 rad/s at the episode's end; distance: |theta_n| (rad). */
typedef struct s2r_pendulum {
    double g;            /* gravity, m/s^2; 10                    */
    double m;            /* mass, kg; 1                           */
    double l;            /* length, m; 1                          */
    double dt;           /* step, s; 0.05                         */
    double max_torque;   /* N m per unit action; 2                */
    double max_speed;    /* rad/s; 8                              */
    int    max_steps;    /* steps per episode; 200                */
    double theta;        /* rad, 0 upright                        */
    double theta_dot;    /* rad/s                                 */
    int    t;            /* steps taken in this episode           */
    int    needs_reset;  /* no episode running                    */
    char   error[S2R_ERROR_LEN];
} s2r_pendulum;

S2RDEF void    s2r_pendulum_init(s2r_pendulum* p);  /* the constants above */
S2RDEF s2r_env s2r_pendulum_env(s2r_pendulum* p);   /* obs 3, act 1        */

/* ==========================================================================
   Evaluation: run a controller for many episodes, count successes
   ==========================================================================
   Anything that maps an observation to an action is a controller: the
   scripted expert, a trained policy, a policy behind the safety monitor.
   s2r_evaluate runs it on a reach task (whatever backend is behind it) and
   reports the success rate with its Wilson 95 % interval, judged from
   ground truth at the end of every episode.  Episode i draws its start pose
   and target from stream i of `seed`, so two controllers evaluated with the
   same seed face exactly the same tasks. */

typedef struct s2r_controller {
    void* self;
    /* Start of an episode (may be NULL). */
    void (*reset)(void* self);
    /* Action in [-1, 1]^act_dim for one observation. */
    s2r_result (*act)(void* self, const float* obs, float* action);
    /* The sizes it was made for, which evaluation checks against the
       task's (a policy trained for another arm or task is an error, not
       a result); 0 0: any - fill a controller of your own from
       `s2r_controller c = {0};`. */
    int obs_dim, act_dim;
    int made_for;   /* the arm and task it was trained for (s2r_made_for), checked
                       by evaluation like the sizes; 0: any                     */
    int history;    /* frames of history it expects stacked onto the task's
                       observation (s2r_frame_history; obs_dim is the stacked
                       size): s2r_evaluate stacks them itself, per episode; 0  */
} s2r_controller;

typedef struct s2r_eval_result {
    int    episodes;        /* episodes run                                  */
    int    successes;       /* episodes ending on target and at rest         */
    int    diverged;        /* episodes the physics blew up in               */
    double success_rate;    /* successes / episodes                          */
    double success_lo;      /* Wilson 95 % interval of the success rate      */
    double success_hi;
    double mean_distance;   /* m, flange-target distance at the end          */
    double mean_return;     /* sum of rewards per episode                    */
    long long steps;        /* environment steps run                         */
} s2r_eval_result;

/* distance_curve: NULL, or [episode_steps] filled with the mean distance (m)
   after each step over all episodes. */
S2RDEF s2r_result s2r_evaluate(const s2r_controller* controller, s2r_task* task,
                               int episodes, uint64_t seed, s2r_eval_result* out,
                               double* distance_curve);
/* Wilson score interval for k successes in n trials at 95 % (z = 1.96):
   lo, hi in [0, 1]; n = 0 gives [0, 1]. */
S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi);
/* Newcombe's hybrid score interval (method 10) at 95 % for p1 - p2, from the
   Wilson intervals of k1/n1 and k2/n2. */
S2RDEF void s2r_newcombe_interval(int k1, int n1, int k2, int n2, double* lo, double* hi);
/* Pool b into a: counts add up, means are weighted by episodes, and the
   interval is recomputed for the pooled counts. */
S2RDEF void s2r_eval_merge(s2r_eval_result* a, const s2r_eval_result* b);
/* The scripted expert as a controller (it acts on the perceived target). */
S2RDEF s2r_controller s2r_expert_controller(s2r_expert* expert);
/* A trained policy as a controller: its deterministic action (the mean). */
S2RDEF s2r_controller s2r_policy_controller(s2r_policy* policy);

/* --- Frame history: a policy with memory -----------------------------------
   One observation cannot tell a slow servo from a long command delay, or a
   slippery object from a light one; the last few observations and actions
   can (Peng et al. 2018 found a pushing policy with memory clearly better
   on a real arm).  With history k the policy sees, at every step,

       [ obs_t | obs_{t-1} ... obs_{t-k} | act_{t-1} ... act_{t-k} ]

   (obs_dim (k + 1) + act_dim k floats; at the start of an episode every
   past observation is the first one and every past action 0).  Training
   wraps each environment (s2r_training.history), a deployed policy wraps
   its controller (s2r_history_controller_init) - the same stacking, so
   what the policy saw in training is what it sees on the robot.  The
   checkpoint records k (s2r_policy.history). */
#define S2R_HISTORY_MAX 8   /* frames of history at most */

typedef struct s2r_frame_history {
    int    k, obs_dim, act_dim;
    float* past_obs;   /* [k][obs_dim], most recent first */
    float* past_act;   /* [k][act_dim], most recent first */
} s2r_frame_history;

/* The stacked size: obs_dim (k + 1) + act_dim k. */
S2RDEF int        s2r_history_obs_dim(int obs_dim, int act_dim, int k);
/* k 0..S2R_HISTORY_MAX, sizes >= 1: else S2R_ERR_INVALID_ARGUMENT. */
S2RDEF s2r_result s2r_frame_history_init(s2r_frame_history* h, int obs_dim, int act_dim, int k);
S2RDEF void       s2r_frame_history_free(s2r_frame_history* h);
/* Start an episode at its first observation. */
S2RDEF void       s2r_frame_history_reset(s2r_frame_history* h, const float* obs);
/* The stacked observation for `obs` into out[s2r_history_obs_dim]. */
S2RDEF void       s2r_frame_history_stack(const s2r_frame_history* h, const float* obs, float* out);
/* After acting: `obs` and the action taken on it become the latest past. */
S2RDEF void       s2r_frame_history_push(s2r_frame_history* h, const float* obs, const float* act);

/* An environment seen through a frame history (what training uses). */
typedef struct s2r_history_env {
    s2r_env           inner;
    s2r_frame_history history;
    float*            raw;    /* [inner.obs_dim] the latest raw observation */
} s2r_history_env;
S2RDEF s2r_result s2r_history_env_init(s2r_history_env* he, const s2r_env* inner, int k);
S2RDEF void       s2r_history_env_free(s2r_history_env* he);
S2RDEF s2r_env    s2r_history_env_get(s2r_history_env* he);

/* A controller (a trained history policy) fed the stacked observation
   from the task's raw ones (what deployment and evaluation use). */
typedef struct s2r_history_controller {
    s2r_controller    inner;
    s2r_frame_history history;
    float*            last_obs;   /* [obs_dim] raw, and the action taken on it */
    float*            last_act;   /* [act_dim]                                 */
    float*            stacked;    /* [s2r_history_obs_dim]                     */
    int               started;
} s2r_history_controller;
/* obs_dim: the task's raw observation; inner.obs_dim must be the stacked
   size (or 0). */
S2RDEF s2r_result     s2r_history_controller_init(s2r_history_controller* hc, const s2r_controller* inner, int obs_dim,
                                                  int act_dim, int k);
S2RDEF void           s2r_history_controller_free(s2r_history_controller* hc);
S2RDEF s2r_controller s2r_history_controller_get(s2r_history_controller* hc);

/* The two numbers of every row of the recipe table: success in the
   simulator, and success on `units` real units (seeds first_unit, ...),
   `episodes` on each; the gap is their difference.  The simulator is the one
   the recipe trusts: the nominal model (sim_physics NULL), or e.g. the
   identified model of a unit (s2r_identify_unit's `identified`) for a
   policy trained around it - the gap then says how far reality is from
   the simulator as calibrated.  The robots are
   evaluated in parallel (OpenMP), so the controller must be safe to call
   from several threads at once: a policy is, the stateful scripted expert
   is not (evaluate it with s2r_evaluate, one backend at a time).  A camera
   calibration in task->target_correction belongs to the real units and is
   applied only there: the simulator's camera is perfect.  The gap's 95 %
   interval is Newcombe's for a difference of two independent rates
   (s2r_newcombe_interval), so it is only as narrow as both counts allow. */
typedef struct s2r_sim_real_eval {
    s2r_eval_result sim;     /* the simulator: nominal, or sim_physics  */
    s2r_eval_result real;    /* all real units together                 */
    double          gap;     /* sim.success_rate - real.success_rate     */
    double          gap_lo, gap_hi;   /* its 95 % interval, in [-1, 1]   */
} s2r_sim_real_eval;

S2RDEF s2r_result s2r_evaluate_sim_and_real(const s2r_controller* controller, s2r_robot_kind robot,
                                            const s2r_task_config* task, const s2r_randomization* sim_physics,
                                            int episodes, uint64_t seed, uint64_t first_unit, int units,
                                            s2r_sim_real_eval* out, char* error);
/* Pool `one` into `pooled` (s2r_eval_merge of sim and of real, e.g. over
   seeds or units) and recompute the gap and its interval from the pooled
   counts. */
S2RDEF void       s2r_sim_real_eval_pool(s2r_sim_real_eval* pooled, const s2r_sim_real_eval* one);
/* One line: label, sim and real success with intervals, gap, distances. */
S2RDEF void       s2r_sim_real_eval_print(const char* label, const s2r_sim_real_eval* e);
/* A CSV with a header and one row for `e` (S2R_ERR_IO if it cannot be written). */
S2RDEF s2r_result s2r_sim_real_eval_write(const char* path, const char* label, const s2r_sim_real_eval* e,
                                          char* error);

/* The margin a policy has: its success on the nominal simulator with one
   parameter pushed to each of `count` values (1..S2R_SWEEP_MAX), everything
   else nominal.  Value k is parameter p fixed at values[k] in its default
   mode (s2r_param_default_mode: a scale for kp, seconds for
   action_latency, ...); `episodes` episodes each, episode i on stream i of
   `seed` for every value, so the values differ only in p.  out[k] is the
   result.  This is how to see what domain randomization buys: a policy
   trained across a range keeps working further past it than one trained on
   the nominal model, and a real robot that sits inside both margins cannot
   tell them apart.  A value the simulator refuses (out of the parameter's
   bounds, a latency past max_latency) is an error naming it, before any
   episode runs.  Values run in parallel; the controller must be safe to
   call from several threads (a policy is), and threads change nothing. */
#define S2R_SWEEP_MAX 16
S2RDEF s2r_result s2r_robustness_sweep(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, s2r_param p, const double* values,
                                       int count, int episodes, uint64_t seed, s2r_eval_result* out,
                                       char* error);

/* --- Predicting transfer: success on the robot, before the robot ----------
   Before a policy meets the robot the simulator is all there is: how much
   of its success will survive?  s2r_predict_transfer measures it in the
   simulators that can be built from what is known before the first real
   episode, each a prediction of its success on the unit:

     NOMINAL     the nominal simulator - what a pure-sim workflow reports
     DR          a distribution of plausible worlds (`randomized`: the DR
                 ranges), drawn per episode on streams of `seed`: draws the
                 training never saw
     IDENTIFIED  the unit's identified ranges (`identified`: s2r_identify_unit's
                 `next`, centred on its estimate, as wide as its uncertainty)
     DEPLOYED    IDENTIFIED with the camera as the policy will meet it: the
                 offset the unit's calibration measured (`camera_offset`) less
                 the correction `task` applies - a policy run uncalibrated
                 sees the whole offset, a calibrated one none of it (with
                 IDENTIFIED also asked for, its result is then copied)

   Nothing here touches the unit: the ranges and the offset come from the
   system identification and calibration that precede deployment.  Every
   predictor runs episode i on stream i of `seed` (as s2r_evaluate), the
   predictors in parallel; the controller must be safe to call from several
   threads (a policy is).  `predictors`: bits 1u << S2R_PREDICT_*, 0 = every
   one whose evidence is given; one not run has episodes 0.  How well they
   predict is measured, not assumed: example 14 scores them against the
   units. */
typedef enum s2r_predictor {
    S2R_PREDICT_NOMINAL, S2R_PREDICT_DR, S2R_PREDICT_IDENTIFIED, S2R_PREDICT_DEPLOYED, S2R_PREDICTOR_COUNT
} s2r_predictor;

typedef struct s2r_transfer_evidence {
    const s2r_randomization* randomized;    /* DR's ranges, or NULL (no DR)              */
    const s2r_randomization* identified;    /* the unit's re-centred ranges, or NULL     */
    const double*            camera_offset; /* m [3], what the unit's camera calibration */
                                            /* measured, or NULL (no DEPLOYED)           */
    unsigned                 predictors;    /* which to run; 0: all the evidence allows  */
} s2r_transfer_evidence;

/* "nominal", "dr", "identified", "deployed"; "unknown" out of range. */
S2RDEF const char* s2r_predictor_name(s2r_predictor p);
/* task: as deployed, with the camera correction the policy will run with.
   out[S2R_PREDICTOR_COUNT].  A predictor asked for without its evidence is
   S2R_ERR_INVALID_ARGUMENT. */
S2RDEF s2r_result  s2r_predict_transfer(const s2r_controller* controller, s2r_robot_kind robot,
                                        const s2r_task_config* task, const s2r_transfer_evidence* evidence,
                                        int episodes, uint64_t seed, s2r_eval_result* out, char* error);

/* ORACLE - where a controller's gap on a unit comes from (see
   s2r_real_robot_init_ablated): its success on the unit as it is, with
   every effect off (the nominal simulator as the fleet's physics gives
   it), and for each effect of the task's scene the unit with that effect
   off and the nominal simulator with only that effect on.  Every
   condition runs the same episode streams of `seed`, so conditions differ
   only in the effects.  Effects the scene does not have are left empty
   (episodes 0).  A camera correction in `task` (a calibrated policy)
   answers the unit's calibration offset, so where the offset is switched
   off the correction goes too: that condition's camera is as perfect as a
   calibration would find it.  Conditions run in parallel: the controller
   must be safe to call from several threads (a policy is).  A teaching
   and research tool (examples/09); the pipeline never calls it. */
typedef struct s2r_gap_attribution {
    s2r_eval_result unit;                        /* the unit as it is            */
    s2r_eval_result nominal;                     /* every effect off             */
    s2r_eval_result without[S2R_EFFECT_COUNT];   /* the unit with effect e off   */
    s2r_eval_result only[S2R_EFFECT_COUNT];      /* only effect e on             */
} s2r_gap_attribution;

S2RDEF s2r_result s2r_attribute_gap(const s2r_controller* controller, s2r_robot_kind robot,
                                    const s2r_task_config* task, uint64_t unit, int episodes, uint64_t seed,
                                    s2r_gap_attribution* out, char* error);
/* Pool `one` into `pooled`, condition by condition (s2r_eval_merge). */
S2RDEF void       s2r_gap_attribution_pool(s2r_gap_attribution* pooled, const s2r_gap_attribution* one);

/* ==========================================================================
   Demonstrations: a teleoperator on the real robot, recorded for cloning
   ==========================================================================
   Real demonstrations come from an operator driving the real arm.  Here the
   operator is the scripted expert made human: it looks at the scene (the
   true target, as a person beside the robot sees it, through the backend's
   ground truth) instead of the miscalibrated camera, reacts a couple of
   control steps late and is not steady (Gaussian noise on every action).
   Each action actually sent is recorded with the task's observation the
   operator was reacting to.  So a policy cloned from these demos learns
   what the operator knew - where the target really is - from observations
   it will have at deployment. */

/* The imperfect human: action noise 0.05, reaction delay 2 steps (80 ms). */
S2RDEF s2r_expert_config s2r_operator_config_default(void);
/* Record `episodes` demonstrations on `robot` into `data` (appended; its
   sizes must match the task).  Episode i uses stream i of `seed`.
   successes: NULL or the number of demos that ended in success. */
S2RDEF s2r_result s2r_collect_demos(const s2r_backend* robot, const s2r_task_config* task,
                                    const s2r_expert_config* op, int episodes, uint64_t seed,
                                    s2r_dataset* data, int* successes, char* error);
/* The same on real unit `unit` of `robot`'s fleet, recorded by `threads`
   copies of the unit in parallel (1 .. S2R_DEMO_THREADS_MAX); the dataset
   is identical for any thread count (episode i always uses stream i and
   the parts join in order). */
#define S2R_DEMO_THREADS_MAX 8
S2RDEF s2r_result s2r_collect_unit_demos(s2r_robot_kind robot, uint64_t unit, const s2r_task_config* task,
                                         const s2r_expert_config* op, int episodes, uint64_t seed, int threads,
                                         s2r_dataset* data, int* successes, char* error);
/* Behaviour cloning on demonstrations, `epochs` passes over them:
   finetune != 0 adapts an existing policy (s2r_bc_config_finetune: small
   learning rate, anchored to where it started, normalizer frozen);
   finetune == 0 trains from scratch (s2r_bc_config_default: the normalizer
   is fitted to the demos).  Only the actor and its log std change. */
S2RDEF s2r_result s2r_clone_demos(s2r_policy* policy, const s2r_dataset* demos, int finetune,
                                  int epochs, uint64_t seed, char* error);
/* Fine-tuning that checks itself on the unit.  Demonstrations help when
   the operator is better than the policy and cost success when it is worse
   (a precise policy cloned toward a noisy operator lands where the
   operator does), and only the unit can say which.  So two fine-tunes of
   `policy` on `demos` (epochs passes, minibatch seed `seed`): one follows
   the operator (s2r_bc_config_finetune), one also keeps the policy's own
   actions as a second teacher (start_weight 1).  Each runs
   `canary_episodes` on `robot` (the unit, through the backend: the staged
   deployment's canary; episode i uses stream i of canary_seed), and so
   does `policy` as it was, on the same episodes.  `policy` becomes the one
   that succeeded most often: a fine-tune must beat the policy as it was
   to replace it (a tie keeps the policy), and on a tie between the two
   fine-tunes the first is kept.
   canary_success[3] (may be NULL): the rates of the fine-tune following
   the operator, of the one keeping its own actions, and of the policy as
   it was; *kept (may be NULL): which one `policy` now is, as S2R_KEPT_*.
   The canary is real robot time: count its episodes with the demos. */
enum { S2R_KEPT_FOLLOWING = 0, S2R_KEPT_OWN_ACTIONS = 1, S2R_KEPT_UNCHANGED = 2 };
S2RDEF s2r_result s2r_finetune_on_unit(s2r_policy* policy, const s2r_dataset* demos, int epochs, uint64_t seed,
                                       const s2r_backend* robot, const s2r_task_config* task,
                                       int canary_episodes, uint64_t canary_seed,
                                       double canary_success[3], int* kept, char* error);

/* ==========================================================================
   Training a policy: simulators as environments, PPO, a training CSV
   ==========================================================================
   The step every recipe row shares: N simulators of one arm (nominal, or
   randomized with a given table) each wrapped in the task, trained with
   PPO, with per-update diagnostics written to a CSV (the examples draw its
   learning curve: s2r_plot_training_csv in examples/s2r_figures.h).  The
   caller owns the s2r_ppo (and so the policy): initialize it with
   s2r_task_ppo_config(), optionally copy a starting policy in (warm
   start), then call s2r_train. */

typedef struct s2r_training {
    s2r_robot_kind    robot;          /* which arm; S2R_ROBOT_UR5E                 */
    s2r_randomization randomization;  /* s2r_randomization_none() = pure sim       */
    s2r_task_config   task;           /* s2r_task_config_default(kind)             */
    const char*       label;          /* name on progress lines; "ppo"             */
    const char*       csv_path;       /* per-update diagnostics, or NULL           */
    int               progress;       /* 0 silent, 1 progress lines; 1             */
    const char*       state_path;     /* training state (s2r_ppo_save_state), saved
                                         every state_every updates, at the end and
                                         on Ctrl-C; NULL: never saved             */
    int               state_every;    /* updates between saves; 10                 */
    int               resume;         /* 1: continue from state_path if it exists,
                                         keeping the CSV rows up to that update; 0 */
    int               history;        /* frames of history the policy sees
                                         (s2r_frame_history); the ppo must be
                                         sized s2r_history_obs_dim; 0          */
    const char*       mjcf_path;      /* robot S2R_ROBOT_CUSTOM: your arm's MJCF
                                         file (the conventions in Robots); the
                                         ppo sized s2r_task_dims_n(kind, its
                                         joints); NULL                         */
    struct s2r_adr*   adr;            /* automatic domain randomization (below),
                                         caller-owned, grown from
                                         `randomization` during training; NULL:
                                         the ranges stay as given              */
    int               privileged_critic; /* 1: the critic also sees each
                                         episode's parameters
                                         (s2r_sim_privileged), the actor
                                         only observations (asymmetric
                                         actor-critic); the ppo must be made
                                         with privileged_dim
                                         S2R_PRIVILEGED_DIM; 0                */
} s2r_training;

/* Task `kind` on `robot`, nominal simulator, the defaults above. */
S2RDEF s2r_training s2r_training_default(s2r_robot_kind robot, s2r_task_kind kind);

/* --- Automatic domain randomization ------------------------------------------
   Hand-set ranges (s2r_randomization_default) are a guess at how wide the
   world varies.  ADR (OpenAI et al. 2019, "Solving Rubik's Cube with a
   Robot Hand") lets training find out: every range starts narrow around
   the centre of its training range and grows while the policy copes with
   its edges.  Flow, per episode and per update of s2r_train:

     reset: with probability boundary_probability the episode tests an
            edge - one adapted parameter, one side, drawn uniformly - and
            that parameter is pinned at the side's current value; the
            others (and every episode that tests nothing) draw from the
            current ranges
     episode end: a tested edge counts the episode and its success
     after each update: an edge with `buffer` episodes counted is judged:
            success >= widen_at moves that side outward by step_fraction of
            the training width (not past the limit), success <= narrow_at
            moves it inward (not past the centre); the count restarts.

   Adapted: the entries of the training randomization that are enabled with
   a uniform or log-uniform range; the rest keep their training entry.  The
   limit of each side: the training range scaled about its centre by
   limit_scale, kept inside what the parameter may take (>= 0, or > 0 for a
   scale).  The environments' simulators are built for the limits (their
   delay lines must hold the widest latency).  Everything is drawn from the
   episodes' own random streams, and judged between updates in environment
   order: the same seed grows the same ranges.  An ADR run is not resumed
   from a saved state (its ranges are not in it): resume is refused.

   Caller-owned: s2r_adr_init / s2r_adr_free; `changes` logs every move. */
typedef struct s2r_adr_config {
    double start_fraction;        /* a range starts this fraction of its training
                                     width wide, about the centre; 0 (a point)    */
    double limit_scale;           /* widest: the training range scaled about its
                                     centre; 2                                     */
    double step_fraction;         /* one move of a side, fraction of the training
                                     width; 0.125 (the training range regained in
                                     4 moves a side)                               */
    double boundary_probability;  /* episodes that test an edge; 0.5              */
    int    buffer;                /* episodes counted before an edge is judged; 16 */
    double widen_at;              /* success at the edge that widens; 0.8         */
    double narrow_at;             /* success at or below which it narrows; 0.4    */
} s2r_adr_config;

typedef struct s2r_adr_change {
    int       update;   /* after which update (0: the start)                */
    s2r_param param;
    double    lo, hi;   /* the range from then on, in the parameter's mode  */
} s2r_adr_change;

typedef struct s2r_adr {
    s2r_adr_config    config;
    s2r_randomization training;   /* the ranges it was started from              */
    s2r_randomization limits;     /* the widest each adapted entry may grow      */
    s2r_randomization current;    /* what episodes draw from now (uniform)       */
    int               n_params;   /* adapted entries                              */
    s2r_param         param[S2R_PARAM_COUNT];
    int               tried[S2R_PARAM_COUNT][2];      /* edge episodes counted [lo, hi] */
    int               succeeded[S2R_PARAM_COUNT][2];
    int               update;     /* updates seen                                 */
    s2r_adr_change*   changes;    /* [n_changes] every move, the start first       */
    int               n_changes, capacity;
    char              error[S2R_ERROR_LEN];
} s2r_adr;

S2RDEF s2r_adr_config s2r_adr_config_default(void);
/* S2R_ERR_INVALID_ARGUMENT naming the field: fractions outside [0, 1],
   limit_scale < 1, buffer < 1, narrow_at >= widen_at, a bad training
   randomization or none enabled to adapt. */
S2RDEF s2r_result     s2r_adr_init(s2r_adr* adr, const s2r_adr_config* config, const s2r_randomization* training);
S2RDEF void           s2r_adr_free(s2r_adr* adr);
/* Every change as CSV rows update,parameter,lo,hi (written whole). */
S2RDEF s2r_result     s2r_adr_write_csv(const s2r_adr* adr, const char* path, char* error);
/* PPO settings that learn the tasks: CleanRL's defaults except 8
   environments, 4000-step rollouts (500 steps per environment: ten whole
   reach episodes of the default 50 steps, four push episodes of 125, so a
   training-state save changes nothing, see s2r_ppo_save_state), a lower
   initial action noise (log std -0.5), learning rate 1e-3 and 5 epochs per
   update (measured on reach: the same success in sim as 3e-4 / 10 epochs
   at 250k steps, in less wall time), for `total_steps` environment steps.
   The same for both tasks. */
S2RDEF s2r_ppo_config s2r_task_ppo_config(s2r_task_kind kind, long long total_steps, uint64_t seed, int threads);
/* The environment steps the examples train for: a fresh policy (warm 0),
   or one continuing from a trained policy (warm 1: example 07 trains DR
   on from the pure-sim policy and system ID on from the DR policy).
   Reach: 200k and 80k (>= 85 % in the nominal simulator in 200k, a test).
   Push: 600k and 200k (the pure-sim policy: 89 % on the UR5e, 99 % on the
   Panda in the nominal simulator, three seeds each; randomized training
   from scratch learns push more slowly - 78 % and 38 % in 600k - see the
   README). */
S2RDEF long long      s2r_task_training_steps(s2r_task_kind kind, int warm);
/* Train ppo->policy for the rest of ppo's planned steps.  error: S2R_ERROR_LEN.
   The CSV's rows so far are published as csv_path.partial (written whole,
   never in place) every state_every updates and with every saved state;
   when training ends csv_path is written whole and the .partial removed.
   A resumed run takes its rows from the .partial (or the finished CSV),
   up to the update its state was saved at.
   After s2r_interrupt_catch(), Ctrl-C stops after the current update,
   saves the state and returns S2R_ERR_INTERRUPTED; rerun with resume = 1. */
S2RDEF s2r_result s2r_train(const s2r_training* training, s2r_ppo* ppo, char* error);
/* Before any other work of a run that will resume: S2R_OK when training
   does not resume (resume 0, no state_path, or no file there yet) or when
   its saved state continues this training with this ppo (the run's
   settings, sizes, task, arm and ranges); otherwise s2r_train's own error
   for that state, naming what differs.  The state is loaded into ppo (as
   s2r_train will load it again); on an error it is not. */
S2RDEF s2r_result s2r_training_check_resume(const s2r_training* training, s2r_ppo* ppo, char* error);
/* Ctrl-C for long runs: after s2r_interrupt_catch() the first SIGINT or
   SIGTERM only raises a flag, which s2r_train checks after every
   update (it saves its state and returns S2R_ERR_INTERRUPTED); a second
   one ends the program at once.  s2r_interrupt_requested() reads the flag:
   a program checks it between its own stages too, so that a stop asked
   for outside training is not lost. */
S2RDEF void        s2r_interrupt_catch(void);
S2RDEF int         s2r_interrupt_requested(void);


/* ==========================================================================
   System identification: excite the robot, record, fit the simulator
   ==========================================================================
   Step 2 of the recipe (example 03).  Domain randomization trains on ranges centred on
   the datasheet; system identification measures where *this* robot sits in
   those ranges, so the next training run can be centred there (and made
   narrower where the data are sure).  Four parts:

   1. Excitation.  A command sequence per trajectory: every joint's servo
      target moves around a start pose near home - a sum of sines at
      several frequencies (MULTISINE) or a sine sweeping from a low to a
      high frequency (CHIRP) - faded in from rest, kept inside the joint
      limits (less a margin) and below a fraction of each joint's speed
      limit.  The commands go to the robot through the backend interface
      only (reset at the start pose, then per sample: command, advance one
      sample period, read_sensors), and the measured q and qd are stored.
      The same calls work on the stand-in real robot and on hardware.

   2. Loss.  The simulator replays the same commands from the same start
      pose through the same backend calls, with a candidate set of
      parameter values pinned on it (s2r_sim_pin_draw), and is compared at
      the same sample instants:

          loss = mean over trajectories, samples k and joints j of
                 weight_q (q_sim - q_real)^2 + weight_qd (qd_sim - qd_real)^2

      in rad^2 (weight_q is a plain number, weight_qd is in s^2).  It is
      open loop: the simulator never sees the real measurements, so errors
      accumulate the way they would under a policy.  Positions are what the
      default weights compare: the real encoders are precise (noise and
      quantization add about 4e-8 rad^2 to the loss), while the velocity
      readings are noisy differences; the encoder zero offset and unmodeled
      effects (friction, backlash) stay in the residual.

   3. Coordinate descent.  Cyclic sweeps over the chosen parameters, in
      the order given, each inside its bounds.  A continuous parameter gets
      a 1-D line search: probe a step up and, if that is no better, a step
      down (the first step is `first_step` of its bounds, later ones twice
      the parameter's last move); while the loss keeps falling the step
      doubles, until the minimum is bracketed; then parabolic interpolation
      through the three best points, safeguarded by golden-section steps,
      narrows the bracket to about `step_tol` of the bounds.  A latency is
      searched over whole physics steps: the first sweep scans its bounds
      (13 points) and then every step around the best, later sweeps walk
      one step at a time while the loss falls.
      Parameters whose effects trade off form long narrow valleys (a softer
      servo droops like a heavier payload; kv/kp sets the lag), which plain
      coordinate descent crosses in tiny zig-zags.  So after the
      coordinates, each sweep also line-searches along the net moves of the
      last `directions` sweeps and of itself (0 turns this off).  Measured
      on the UR5e stand-in (kp, kv, payload, latency from 30 % off, 2 x
      1.6 s of data): every value within 0.02 % after 7 sweeps with it;
      without it, kp and kv are still 28 % off after 20 sweeps.
      A value is only accepted when it lowers the loss, so a parameter the
      data cannot see does not drift.  Sweeps stop when one lowers the loss
      by less than loss_tol (1e-4, relative) or after max_sweeps (30; unit
      1 converges in 9 sweeps on the UR5e, 12 on the Panda).  At loss_tol
      1e-3 the descent
      stopped where a sweep's gain was small but the valley still long: on
      Panda unit 1, 2.2 % above the minimum, payload 0.28 kg off it.

   4. Latency by an outer search.  A latency's loss with the other
      parameters held is a poor guide once they have adapted to it (on the
      fleet, one step off raises it 30-100 %), so the descent's walk alone
      stops a step short.  After the descent every latency is searched
      outward: each neighbouring step is judged with every continuous
      parameter re-fitted (a descent with that latency held, started from
      the best point so far); the search walks up, then down, while the
      re-fitted loss falls, and latency_profile keeps the re-fitted loss of
      every step it judged.  Measured on unit 1 of both arms: 30 ms after
      the descent, 32 ms after the outer search (re-fitted loss 4 % lower
      than at 30 ms on the UR5e, 8 % on the Panda).  Everything is deterministic: no random
      numbers are drawn.

   Output (s2r_sysid_result): the identified values, the loss before and
   after every sweep, the latency profile, how sure the fit is (below), the
   held-out error (validation trajectories, a different excitation) before
   and after, per joint, and a verdict.  Nothing is put back after the
   fit: the reported loss is the loss at the reported values.

   How sure.  Near the estimate the loss is nearly quadratic in the
   continuous parameters: with r the weighted residuals (their squares sum
   to the loss) and J their Jacobian (central differences),
   loss(x + d) ~ loss + 2 d'J'r + d'J'J d.  From it:
   - A Levenberg-Marquardt polish from the descent's point (at most
     S2R_SYSID_POLISH_ITERATIONS steps): polish_loss and polish_distance
     say how far the descent stopped from the minimum; with
     config.polish = 1 its point is reported when lower.  On unit 1 after
     convergence: 0.00 % lower on the UR5e, 0.10 % on the Panda.
   - Standard errors: the sandwich (J'J)^-1 B (J'J)^-1 (times rows /
     (rows - parameters)), B the covariance of the scores - each sample's
     J'r, its joints summed - with their products up to
     S2R_SYSID_SE_LAG_TIME (1 s) apart along time (Bartlett weights
     1 - lag / (lags + 1)), within each trajectory; trajectories are
     independent.  Why a sandwich and not a bootstrap: samples of one
     trajectory are not independent (on the fleet the residuals' lag-one
     correlation is 0.3-0.55 and falls to zero by about 0.5 s, so 1 s
     holds it with room), and the sandwich needs only the Jacobian the
     assessment already has, where a bootstrap over whole trajectories
     would refit the unit many times over from three of them.  It does
     not move the estimate.  A parameter flagged not identifiable gets an
     infinite standard error (an open interval, printed "open"); a
     latency, searched on a grid of physics steps, none (NaN, printed
     "-").  They describe the scatter of the estimate the data allow, not
     what the model cannot represent (unmodeled friction, backlash): that
     error is systematic.  On units #1-#20 of each fleet they are 1.5-1.7
     times the independent-residual ones, and the truth is inside +-2 of
     them for 43 of 80 identifiable values on the UR5e and 13 of 40 on the
     Panda (26 and 4 before), the misses the effective values a simulator
     without the units' sigmoid friction needs (the Panda's gains 5 % low
     on every unit; example 10, figures/RESULTS.md).
   - Flat combinations: J'J in coordinates scaled by the bounds,
     eigen-decomposed (ascending).  An eigenvector along which a move of
     sensitivity_step raises the loss by less than min_sensitivity of it
     is flat: a combination the data do not pin down (the Panda's payload
     with kp, kv and friction loss; armature alone).  condition is the
     ratio of the largest to the smallest eigenvalue (1e5 on the fleet).
   - Identifiable: the one-at-a-time sensitivity (below) and the same test
     with the other continuous parameters re-fitted (a move of
     sensitivity_step along the profile raises the loss by
     sensitivity_step^2 / (J'J)^-1_ii) both pass.

   Sensitivity.  After the fit each parameter is moved by
   `sensitivity_step` of its bounds (one physics step for a latency) to
   both sides; the mean relative change of the loss is its sensitivity.  Below
   `min_sensitivity` the parameter is reported unidentifiable (the arm has
   no contacts, so geom friction has exactly zero sensitivity; a scale of
   a zero nominal, like the UR5e's damping, too).  Its value is whatever
   the fit left it at (a parameter the data do not see at all never leaves
   its start); the recentred ranges leave it alone.

   Verdict.  Judged on the held-out error relative to the motion it
   replays: the rms position error as a fraction of the rms motion of the
   validation trajectories (validation_relative; S2R_SYSID_REL_GOOD 3 %,
   S2R_SYSID_REL_BLOCK 5 %, where they come from beside them), and for the
   object the error beyond the camera's floor relative to how far it moved
   (S2R_SYSID_OBJECT_REL_*: 3 % and 10 %).  The deployment gate
   (s2r_gate_sysid) judges the same relative error with the same bands.
   The absolute thresholds on the MSE (0.01 and 0.05 rad^2,
   s2r_sysid_verdict_of, which the gate used before) are far looser at
   this excitation's scale: the
   motion itself has a variance of about 0.01 rad^2 (UR5e unit 1's
   chirps), so an MSE of 0.01 is an error as large as the motion; the
   nominal model, every corner of the search box and an identified one
   all pass them.
   Measured on unit 1: the nominal model 11-14 % (BLOCK), identified
   0.5 % (GOOD).  Per joint, joint_relative above REL_GOOD and three times
   the median joint's flags a joint whose motion the model cannot follow
   (joint_misfit): an effect of that joint (its own friction, backlash,
   gain) the shared parameters cannot hold.  Errors every joint shares
   come from the fit as a whole (the joints are coupled) and are not
   flagged.  A flagged joint can be given entries of its own
   (s2r_sysid_param.joint: its kp, kv, torque limit, damping, armature or
   friction loss apart from the rest's) and fitted again: a softer
   fourth servo of the UR5e (kp x 0.6) comes back as kp 1.00 and
   kp[4] 0.60 and the flag goes away (tests/test_sysid.c).

   Recentred ranges.  s2r_sysid_recentre turns the estimate into the next
   training run's randomization: each identifiable parameter becomes
   uniform on value +- half_width, where half_width is the move that
   raises the loss by `range_loss_rise` with the other continuous
   parameters re-fitted (sqrt(rise loss (J'J)^-1_ii); for a latency, from
   the probe's second difference), at least `range_min_width` of its
   bounds and at most half of them; unidentifiable parameters keep the
   training entry unchanged.  s2r_randomization_write saves the result.
   half_width_alone is the same move with the others held: an
   independent range per parameter is what a randomization draws, and
   along a flat combination the re-fitted width is much wider than any
   one parameter can move alone without changing the motion.  Which of
   the two the ranges should use is measured, not decided: example 10
   counts how often each holds the unit's true value.

   Which parameters.  Those that shape an open-loop joint trajectory:

     parameter       mode      default bounds   unit
     friction        scale     0.25 .. 2        x nominal (zero sensitivity
                                                without contacts)
     damping         scale     0.25 .. 4        x nominal
     armature        scale     0.5  .. 2        x nominal
     frictionloss    offset    0    .. 3        N m added to every joint
     link_mass       scale     0.7  .. 1.3      x nominal, one factor for all links
     payload         absolute  0    .. 3        kg at the flange
     kp              scale     0.5  .. 1.5      x nominal
     kv              scale     0.5  .. 2        x nominal
     torque_limit    scale     0.5  .. 1.5      x nominal
     action_latency  absolute  0    .. 0.08     s, whole physics steps
     obs_latency     absolute  0    .. 0.08     s, whole physics steps

   (the modes are each parameter's default mode).  Do not identify
   link_mass together with kp, kv, armature and payload: scaling every gain
   and every mass by one factor leaves the motion unchanged, so only the
   known link masses pin the scale.  Noise levels, jitter,
   encoder bias and calibration offset are properties of the sensors, not
   of the trajectory, and the timestep is not a property of the robot:
   they are rejected.  Open-loop data see only the *sum* of the command
   and sensing delays (both shift the measured response in time): identify
   one of them and hold the other at a known value in `known` (whatever it
   is held at is subtracted from the total).

   The push scene's object shows only in where the object goes, so its
   parameters need trajectories that hold the object (a set with
   s2r_trajectory_set_add_object, recorded by s2r_trajectory_collect_strikes)
   and a loss that weighs it (weight_object, rad^2 per m^2: the object's
   squared distance from where the camera saw it; s2r_sysid_config_object):

     object_friction scale     0.25 .. 3        x nominal (object-table)
     tip_friction    scale     0.25 .. 3        x nominal (tip-object)
     object_mass     scale     0.5  .. 2        x nominal
     object_damping  scale     0.25 .. 4        x nominal
     table_height    offset    -0.02 .. 0.02    m
     camera_latency  absolute  0    .. 0.16     s, whole physics steps

   Fit the arm first and hold it (`known` = the arm's fixed values): where
   the object goes depends on where the arm put the tip.  The camera's own
   error does not go away with any parameter, so for the object the
   verdict judges the error beyond the camera's error on the resting object
   (validation_object_floor), relative to how far the object moved.
   s2r_identify_object does all of it for one unit.  What it finds on the
   stand-in fleet is in the README: positions from strikes do not pin the
   object down there, and the verdict says so.

   Usage:

       // robot: any s2r_backend*, e.g. s2r_real_robot_backend(&real)
       s2r_trajectory_set train, valid;
       s2r_excitation_config ex = s2r_excitation_config_default();
       s2r_sysid id;
       s2r_sysid_config cfg = s2r_sysid_config_default();
       s2r_sim_config model = s2r_sim_config_default(S2R_ROBOT_UR5E);
       s2r_sysid_result res;
       s2r_randomization next = s2r_randomization_default();
       char error[S2R_ERROR_LEN];

       s2r_trajectory_set_init(&train, 6, 150, 3, 0.02);   // 3 x 3 s at 50 Hz
       s2r_trajectory_set_init(&valid, 6, 150, 2, 0.02);
       s2r_trajectory_collect(&train, robot, &ex, 3, 1);    // seed 1
       ex.kind = S2R_EXCITATION_CHIRP;                       // held out: other signal
       s2r_trajectory_collect(&valid, robot, &ex, 2, 2);
       cfg.known.p[S2R_PARAM_OBS_LATENCY] = next.p[S2R_PARAM_OBS_LATENCY];
       s2r_sysid_init(&id, &cfg, &model);
       s2r_sysid_run(&id, &train, &valid, &res);            // res.verdict
       s2r_sysid_recentre(&id, &res, &next, &next);
       s2r_randomization_write(&next, "out/ranges.txt", error);
       s2r_sysid_free(&id);                                 // and both sets

   Memory: a trajectory set allocates its storage at init; s2r_sysid_init
   loads one simulator; s2r_sysid_run allocates the residual Jacobian
   (rows x parameters doubles) for its assessment.  Evaluating the loss
   allocates nothing.
   Cost: one loss evaluation replays every training trajectory once.  The
   default run on unit 1 (6 parameters, 3 x 3 s of data; bench_sysid):
   UR5e 807 evaluations, Panda 1065 - about twice what the descent alone
   took (396, 466), for the outer latency search and the tighter stop. */

#define S2R_SYSID_MAX_PARAMS 16    /* parameters one run identifies         */
#define S2R_SYSID_MAX_SWEEPS 64    /* largest sweep budget                   */
#define S2R_SYSID_MAX_DIRECTIONS 4 /* learned search directions kept         */
#define S2R_SYSID_MAX_PROFILE 128  /* latency steps the loss profile records  */
#define S2R_SYSID_POLISH_ITERATIONS 10 /* Levenberg-Marquardt steps at most   */
#define S2R_SYSID_SE_LAG_TIME 1.0  /* s: residual correlation the standard
                                      errors allow for (see "How sure")      */
#define S2R_EXCITATION_MAX_SINES 16 /* sines per joint in a multisine         */
#define S2R_SYSID_MSE_GOOD   0.01  /* rad^2: validation MSE below is GOOD    */
#define S2R_SYSID_MSE_BLOCK  0.05  /* rad^2: above is BLOCK, between ACCEPTABLE */
/* The verdict relative to the motion: the rms position error as a fraction
   of the rms motion of the validation trajectories; the deployment gate's
   bands too (s2r_gate_config).  Where the numbers come from: example 10 on
   units #1-#20 of each fleet (figures/10_sysid_truth_<arm>.csv; RESULTS,
   "System identification against the truth"), held out as
   s2r_identify_unit holds out - two chirps of 3 s, the motion their
   positions' variance about the set's mean (one chirp alone reads several
   times larger: it lacks the spread of the start poses).  The identified
   model: at most 0.54 % (UR5e) and 0.60 % (Panda).  The datasheet model:
   at least 8.2 % and 10.0 %; every parameter at its lower bound at least
   8.2 % and 10.1 %, at its upper bound 6.0 % and 8.0 %.  Good below 3 %
   (five times the worst identified unit); block above 5 %, so neither the
   datasheet model nor a corner of the box is acceptable on any of the 40
   units (the old 10 % let the datasheet model through on 4 of them and the
   upper corner on 23); acceptable, with a warning, between.  The absolute
   thresholds above are far looser at this excitation's scale (about a
   tenth of a radian rms of motion): every one of those models passes
   them. */
#define S2R_SYSID_REL_GOOD   0.03
#define S2R_SYSID_REL_BLOCK  0.05
/* The object's verdict (s2r_sysid_verdict_object): its held-out error
   beyond the camera's floor, relative to how far the object moved.  Its
   own scale: the datasheet object is 25-40 % off on the table's units and
   the fits 9-19 %; its bands keep 3 % and 10 %, not re-measured against
   the search box's corners. */
#define S2R_SYSID_OBJECT_REL_GOOD   0.03
#define S2R_SYSID_OBJECT_REL_BLOCK  0.10

/* --- Excitation ------------------------------------------------------------ */

typedef enum s2r_excitation_kind {
    S2R_EXCITATION_MULTISINE,   /* "multisine": per joint, a sum of sines      */
    S2R_EXCITATION_CHIRP,       /* "chirp": per joint, a linear frequency sweep */
    S2R_EXCITATION_COUNT
} s2r_excitation_kind;

typedef struct s2r_excitation_config {
    s2r_excitation_kind kind;  /* signal shape; MULTISINE                               */
    double amplitude;          /* rad, peak deviation of a joint's target from its start
                                  pose (less where the speed cap needs it); 0.3          */
    double freq_lo;            /* Hz, lowest frequency (MULTISINE band, CHIRP start); 0.2 */
    double freq_hi;            /* Hz, highest frequency (band top, CHIRP end); 3.0       */
    int    n_sines;            /* MULTISINE: sines per joint, 1..S2R_EXCITATION_MAX_SINES; 4 */
    double ramp;               /* s, the amplitude fades in from 0 over this time, so the
                                  arm starts from rest smoothly; 0.5                     */
    double start_spread;       /* rad, start pose = home + U(-spread, spread) per joint;
                                  varied poses separate payload from servo gains; 0.4    */
    double limit_margin;       /* rad, targets stay this far inside the joint limits; 0.1 */
    double max_speed;          /* fraction of each joint's speed limit the target may
                                  reach (checked at the sample instants, fade-in
                                  included); 0.5                                         */
} s2r_excitation_config;

/* "multisine", "chirp"; "unknown" out of range. */
S2RDEF const char* s2r_excitation_kind_name(s2r_excitation_kind kind);
S2RDEF s2r_excitation_config s2r_excitation_config_default(void);
/* S2R_ERR_INVALID_ARGUMENT naming the field: unknown kind, amplitude not
   finite or < 0, 0 < freq_lo <= freq_hi violated, n_sines outside 1..S2R_EXCITATION_MAX_SINES,
   ramp, spread, margin negative or not finite, max_speed outside (0, 1]. */
S2RDEF s2r_result s2r_excitation_check(const s2r_excitation_config* c, char* error);
/* One command sequence for the arm `info`: the start pose q0 (rad,
   [n_joints]) and command (rad, [n_samples][n_joints]), command k being
   the servo target held from t = k period to (k + 1) period.  Frequencies
   and phases (and the start pose) come from rng; command 0 is q0. */
S2RDEF s2r_result s2r_excitation_make(const s2r_excitation_config* c, const s2r_arm_info* info,
                                      int n_samples, double period, s2r_rng* rng,
                                      double* q0, double* command);

/* --- Recorded trajectories --------------------------------------------------
   Storage for `capacity` trajectories of `n_samples` samples each, all
   allocated at init.  Trajectory i, sample k, joint j lives at
   [(i * n_samples + k) * n_joints + j] of command, q and qd; q0 at
   [i * n_joints + j].  Sample k is read `sample_period` after command k
   was sent, i.e. at t = (k + 1) sample_period.
   A set may also hold the push scene's object (s2r_trajectory_set_add_object):
   where it was set down before trajectory i, at object0[2 i], and where
   the camera saw it at sample k, at object[2 (i n_samples + k)]. */
/* Where a trajectory read from a file came from, for messages. */
typedef struct s2r_trajectory_source {
    char   file[S2R_PATH_LEN];   /* the name it was read under               */
    int    line;                 /* its first row of numbers: the start pose */
    double t0;                   /* s, that row's time (sample k: t0 + k T)  */
} s2r_trajectory_source;

typedef struct s2r_trajectory_set {
    int     n_joints;       /* joints per sample                                 */
    int     n_samples;      /* commands (= readings) per trajectory              */
    int     capacity;       /* trajectories the storage holds                     */
    int     count;          /* trajectories stored so far                        */
    double  sample_period;  /* s between commands and between readings           */
    double* q0;             /* [capacity][n_joints] rad, start pose (at rest)    */
    double* command;        /* [capacity][n_samples][n_joints] rad, servo targets */
    double* q;              /* [capacity][n_samples][n_joints] rad, measured      */
    double* qd;             /* [capacity][n_samples][n_joints] rad/s, measured    */
    double* object0;        /* [capacity][2] m, object set down at (x, y); NULL
                               when the set holds no object                       */
    double* object;         /* [capacity][n_samples][2] m, perceived object (x, y),
                               less any camera correction the caller subtracted   */
    s2r_trajectory_source* source;   /* [capacity] for sets read from files
                               (s2r_trajectory_set_load_csv, _parse_csv), so
                               errors found later name the file; NULL when
                               recorded                                          */
    char    error[S2R_ERROR_LEN];
} s2r_trajectory_set;

/* n_joints 1..S2R_MAX_JOINTS, n_samples >= 1, capacity >= 1, sample_period
   finite and > 0: else S2R_ERR_INVALID_ARGUMENT; S2R_ERR_OUT_OF_MEMORY.  On
   failure the set is zeroed (but for `error`) and free is still safe. */
S2RDEF s2r_result s2r_trajectory_set_init(s2r_trajectory_set* set, int n_joints, int n_samples,
                                          int capacity, double sample_period);
S2RDEF void       s2r_trajectory_set_free(s2r_trajectory_set* set);
/* Make the set hold the object too (push scene): recording then sets the
   object down at object0 after each reset and stores the camera's view of
   it.  Call before the first record.  S2R_ERR_OUT_OF_MEMORY; a set that
   already holds trajectories: S2R_ERR_STATE. */
S2RDEF s2r_result s2r_trajectory_set_add_object(s2r_trajectory_set* set);
/* Run one command sequence (q0 [n_joints], command [n_samples][n_joints],
   rad) on a robot through its backend and append it: reset at q0 (rng is
   passed to reset: the episode's noise on a simulator; may be NULL), set
   the object down at object0 ([2] m; only for a set with the object, else
   NULL), then per sample command, advance, read_sensors.  A full set, a
   backend with a
   different number of joints, NaN/Inf in q0 or the commands:
   S2R_ERR_INVALID_ARGUMENT; a backend failure (e.g. S2R_ERR_DIVERGED) is
   returned with the backend's message.  On error nothing is appended. */
S2RDEF s2r_result s2r_trajectory_record(s2r_trajectory_set* set, const s2r_backend* robot,
                                        const double* q0, const double* object0, const double* command,
                                        s2r_rng* rng);
/* Make and record `count` excitations; trajectory i uses the stream
   s2r_rng_make(seed, i) for its signal and its reset. */
S2RDEF s2r_result s2r_trajectory_collect(s2r_trajectory_set* set, const s2r_backend* robot,
                                         const s2r_excitation_config* excitation, int count,
                                         uint64_t seed);
/* Make and record `count` strikes (a set with the object; `robot` a
   built-in arm in the push scene): the way to see an object's friction.
   Strike i, from s2r_rng_make(seed, i): the object is set down in the push
   area (kept 8 cm inside it) and the tip waits 2 cm behind its rim, facing
   the area's middle (+-45 degrees); after 0.2 s (the object at rest: what
   the camera sees then measures its own error) the tip's path speeds up
   to `speed` (m/s, 0.05..1) over 0.1 s, runs 6 cm past first contact and
   stops.  An object leaves a tip that decelerates faster than mu g and
   slides on by about v^2 / (2 mu g), which is what shows its friction;
   whether it does depends on the arm's servo.  Measured on the nominal
   simulators (three strikes, object-table friction x 0.6 / 1 / 1.6): the
   Panda's tip lets the object go - at 1 m/s it travels 126 / 84 / 66 mm
   (first strike), at 0.4 m/s 72 / 62 / 62 mm - while the UR5e's softer
   servo slows the tip more gently than mu g and the object ends within a
   millimetre of the same place (56 mm) at both speeds (the test "a
   strike's travel shows friction on the Panda, not on the UR5e" measures
   the 1 m/s cases for x 0.6 and x 1.6; the rest is one run).  The strikes also
   show where the tip met the object (tip-object friction turns it aside)
   and when the camera saw it move (its delay).
   The commands are the tip's path through inverse kinematics on the
   nominal model, played open loop (nothing measured is fed back), so a
   simulator can replay exactly what the robot was sent. */
S2RDEF s2r_result s2r_trajectory_collect_strikes(s2r_trajectory_set* set, const s2r_backend* robot, double speed,
                                                 int count, uint64_t seed);
/* Ready for identification on an arm of n_joints: at least one
   trajectory, matching joints, and every stored number finite.  The
   message names the first problem (e.g. "trajectory 1, sample 7, joint 2:
   measured q is NaN"); S2R_ERR_INVALID_ARGUMENT. */
S2RDEF s2r_result s2r_trajectory_set_check(const s2r_trajectory_set* set, int n_joints, char* error);

/* --- Trajectory files ---------------------------------------------------------
   One trajectory per CSV file, so a log from any arm - a UR's RTDE stream,
   a Franka log, a ROS bag exported to CSV - can be identified from without
   a backend.  Lines starting with '#' are comments.  The first other line
   names the columns, in any order, separated by commas:

     t                  s, strictly increasing (any rate, any start)
     command_J          rad, the servo target of joint J sent at t (held
                        until the next row), J = 0 .. n_joints - 1
     q_J                rad, joint J measured at t
     qd_J               rad/s, optional: measured velocity
     object_x, object_y m, optional: where the camera saw the object at t

   (tau_J, N m, is accepted and ignored: torques are not fitted.)  Every
   other line is one row: a number per column, finite.  The log starts with
   the arm at rest at the first row's q (identification replays it from
   rest there).  Reading resamples it to the simulator's sample period T:
   command k is the command in force at t0 + k T, reading k the measured
   values at t0 + (k + 1) T, linearly interpolated between rows (exactly a
   row's values when a row falls on that time); without qd columns the
   velocities are the differences of the resampled positions.  Files of one
   set are cut to the shortest.  s2r_trajectory_write_csv writes a set's
   trajectory so that reading it back at the same period gives the same
   numbers bit for bit. */
#define S2R_LOG_MAX_BYTES (64L << 20)   /* largest trajectory file read       */
#define S2R_LOG_MAX_LINE  65536         /* longest line, bytes                 */
#define S2R_LOG_MAX_SAMPLES 1000000     /* resampled samples per file (5.5 h at
                                           50 Hz): bounds the memory a log asks */

/* Trajectory `index` of `set` as CSV at `path` (written whole or not at
   all).  S2R_ERR_INVALID_ARGUMENT for an index the set does not hold;
   S2R_ERR_IO with the reason. */
S2RDEF s2r_result s2r_trajectory_write_csv(const s2r_trajectory_set* set, int index, const char* path, char* error);
/* Make `set` (not initialised; free it after) from `count` files, each
   resampled to sample_period and cut to the shortest.  Errors name the
   file and line (S2R_ERR_PARSE: an unknown, missing or repeated column,
   joints that do not match each other, a time that does not increase, a
   NaN, a line too long, a log shorter than two sample periods...;
   S2R_ERR_IO: a file that cannot be read); the set is then empty. */
S2RDEF s2r_result s2r_trajectory_set_load_csv(s2r_trajectory_set* set, const char* const* paths, int count,
                                              double sample_period, char* error);
/* The same for one file's text already in memory (`name` for messages). */
S2RDEF s2r_result s2r_trajectory_set_parse_csv(s2r_trajectory_set* set, const char* text, const char* name,
                                               double sample_period, char* error);

/* --- The replay backend -------------------------------------------------------
   A backend that plays one recorded trajectory back through the backend
   interface: reset starts it, each advance of sample_period moves to the
   next reading, read_sensors returns the recorded q, qd (and the object)
   - the start pose before the first period - and ground_truth the same
   positions.  Commands are checked against the log: one that differs
   from the recorded command of this sample by more than `tolerance` rad
   (at any joint) is S2R_ERR_STATE, naming the sample and joint; a
   negative tolerance accepts any command.  So the pipeline's data paths
   can run on recorded data, and a test can use a fixed log.  Advancing
   past the end of the log is S2R_ERR_STATE.  Caller-owned; the set and
   the arm info must outlive it. */
typedef struct s2r_replay {
    const s2r_trajectory_set* set;
    int                 index;       /* which trajectory                         */
    double              tolerance;   /* rad; < 0: commands are not checked        */
    s2r_arm_info        info;        /* the arm (n_joints must match the set)     */
    int                 sample;      /* readings passed since reset              */
    double              time;        /* s since reset                            */
    int                 open;        /* reset has been called                    */
    s2r_backend         backend;
    char                error[S2R_ERROR_LEN];
} s2r_replay;

/* S2R_ERR_INVALID_ARGUMENT: no such trajectory, joints that do not match. */
S2RDEF s2r_result s2r_replay_init(s2r_replay* replay, const s2r_trajectory_set* set, int index,
                                  const s2r_arm_info* info, double tolerance);
S2RDEF const s2r_backend* s2r_replay_backend(s2r_replay* replay);

/* --- The bounded line search ----------------------------------------------
   The step coordinate descent repeats: minimize the loss along one line -
   one parameter with the others held, or one learned direction - inside
   bounds.  System identification calls it for every continuous parameter
   of every sweep (step 3 above); it is also the course's system-ID
   exercise (S2R_EXERCISE_SYSID leaves the definition out for yours).

   Contract.  loss(context, t) is the loss at t, for lo <= t <= hi (it may
   be expensive: a whole replay of the trajectories, so the fewer calls the
   better; the reference spends about 10-30).  f0 = loss(t0) is known, with
   lo <= t0 <= hi.  Return the t found and its loss in *f_min, such that
     - lo <= t <= hi: never ask for, or return, a point outside the bounds;
     - *f_min <= f0, and t = t0 if nothing strictly lower was found: a
       parameter the data cannot see must not drift;
     - on a loss with one minimum in [lo, hi] (or at a bound), t lies
       within a few tol of it.
   `step` (> 0) is the first probe's distance from t0 (the reference probes
   t0 + step, then t0 - step, then doubles the step while the loss keeps
   falling); `tol` (> 0) is the precision in t to stop at.  Neither ever
   takes t out of [lo, hi]. */
typedef double (*s2r_line_loss)(void* context, double t);
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min);

/* --- Identification ---------------------------------------------------------- */

typedef enum s2r_sysid_verdict {
    S2R_SYSID_GOOD,         /* "good":       relative error < 3 % (absolute:
                                                 MSE < 0.01 rad^2)              */
    S2R_SYSID_ACCEPTABLE,   /* "acceptable": 3-5 % (object 3-10 %; absolute
                                                 0.01 <= MSE <= 0.05), warn     */
    S2R_SYSID_BLOCK,        /* "block":      above, or not finite            */
    S2R_SYSID_VERDICT_COUNT
} s2r_sysid_verdict;

/* One identified parameter.  Values are in the parameter's draw unit under
   its default mode (a scale factor, N m, kg or s; see the table above). */
typedef struct s2r_sysid_param {
    s2r_param param;   /* which entry of the randomization table                     */
    double    lo, hi;  /* search bounds, lo <= hi                                     */
    double    start;   /* first guess in [lo, hi]; NAN = the nominal model (1 for a
                          scale, 0 otherwise), clamped into the bounds                 */
    int       joint;   /* 0: one value for every joint (the default); j = 1..n: joint
                          j alone (1-based), for the joint-wise parameters - kp, kv,
                          torque_limit, damping, armature, frictionloss - where one
                          drive differs from the rest: it overrides, for that joint,
                          the shared entry of the same parameter if there is one (or
                          the nominal value).  Reported like any entry;
                          s2r_sysid_recentre and s2r_sysid_fixed hand it on as
                          that joint's own range (s2r_joint_range, "kp[4]" in a
                          ranges file)                                            */
} s2r_sysid_param;

/* What a run found.  Arrays are indexed like config.param. */
typedef struct s2r_sysid_result {
    int    n_params;                               /* = config.n_params              */
    double start[S2R_SYSID_MAX_PARAMS];            /* the first guess (NaN resolved) */
    double value[S2R_SYSID_MAX_PARAMS];            /* identified value               */
    double sensitivity[S2R_SYSID_MAX_PARAMS];      /* mean relative change of the loss
                                                      for a move of sensitivity_step of
                                                      the bounds either way (one
                                                      physics step for latencies)    */
    double curvature[S2R_SYSID_MAX_PARAMS];        /* rad^2 per (unit)^2: second
                                                      difference of the loss there   */
    double half_width[S2R_SYSID_MAX_PARAMS];       /* unit: of the recentred range   */
    double half_width_alone[S2R_SYSID_MAX_PARAMS]; /* unit: the same for a move of
                                                      this parameter alone, the
                                                      others held (from the probe's
                                                      curvature); <= half_width up
                                                      to the probe's step - far
                                                      below it along a flat
                                                      combination.  Reported, not
                                                      used by s2r_sysid_recentre */
    double std_error[S2R_SYSID_MAX_PARAMS];        /* unit: standard error of the value,
                                                      a sandwich allowing for the
                                                      residuals' correlation along each
                                                      trajectory (see the manual); NaN
                                                      for a latency (grid-searched);
                                                      +Inf when not identifiable    */
    int    identifiable[S2R_SYSID_MAX_PARAMS];     /* sensitivity >= min_sensitivity,
                                                      alone and with the other
                                                      continuous parameters re-fitted */
    int    sweeps;                                 /* sweeps of the first descent     */
    int    converged;                              /* stopped on loss_tol, not budget */
    int    evaluations;                            /* loss evaluations in this run    */
    double loss[S2R_SYSID_MAX_SWEEPS + 1];         /* rad^2: training loss at the start
                                                      [0] and after each sweep [1..sweeps] */
    double train_loss;                             /* rad^2: at the reported values   */
    int    latency_index;                          /* the entry searched by the outer
                                                      latency search (the last latency
                                                      listed); -1: none               */
    double latency_profile[S2R_SYSID_MAX_PROFILE]; /* rad^2: training loss with that
                                                      latency at k physics steps and the
                                                      continuous parameters re-fitted;
                                                      NaN where not searched          */
    double descent_loss;                           /* rad^2: where coordinate descent and
                                                      the latency search stopped      */
    double polish_value[S2R_SYSID_MAX_PARAMS];     /* where Levenberg-Marquardt from the
                                                      descent's point stopped         */
    double polish_loss;                            /* rad^2: the loss there           */
    double polish_distance;                        /* largest |polish_value - value| of
                                                      a parameter, fraction of its bounds */
    int    polished;                               /* 1: value is the polish (config.polish) */
    int    n_directions;                           /* continuous parameters: the eigenpairs */
    double eigenvalue[S2R_SYSID_MAX_PARAMS];       /* rad^2: loss rise for a move of one
                                                      bounds width along eigenvector k
                                                      (Gauss-Newton), ascending        */
    double eigenvector[S2R_SYSID_MAX_PARAMS][S2R_SYSID_MAX_PARAMS];
                                                   /* [k][i]: unit length in coordinates
                                                      scaled by the bounds; 0 for latencies */
    int    n_flat;                                 /* eigenvectors 0..n_flat-1 are flat:
                                                      a move of sensitivity_step along one
                                                      raises the loss by less than
                                                      min_sensitivity of it            */
    double condition;                              /* largest / smallest eigenvalue   */
    double effective_samples;                      /* residuals, discounted for their
                                                      lag-one correlation along time
                                                      (descriptive; the standard
                                                      errors use the sandwich)       */
    double validation_mse_start;                   /* rad^2: held-out MSE at the start
                                                      values (NaN without validation) */
    double validation_mse;                         /* rad^2: at the identified values */
    double validation_motion;                      /* rad^2: variance of the measured
                                                      positions about their mean (per
                                                      joint, averaged): the motion the
                                                      errors are judged against      */
    double validation_relative_start;              /* sqrt(mse_start / motion)        */
    double validation_relative;                    /* sqrt(mse / motion)              */
    double validation_relative_corner[2];          /* the relative error the verdict
                                                      judges (the worse of joints and
                                                      object) with every parameter at
                                                      its lower [0] / upper [1] bound:
                                                      what it must not pass           */
    double validation_object_mse_start;            /* m^2: held-out mean squared object
                                                      position error at the start values
                                                      (NaN when the set has no object) */
    double validation_object_mse;                  /* m^2: at the identified values   */
    double validation_object_motion;               /* m^2: mean squared distance of the
                                                      seen object from its trajectory's
                                                      mean position                   */
    double validation_object_floor;                /* m^2: the same error while the
                                                      object rests where it was set
                                                      down and the arm has not moved
                                                      (samples whose command is still
                                                      the first): the camera's own
                                                      noise and bias, which no object
                                                      parameter explains             */
    double validation_object_relative_start;       /* sqrt((mse_start - floor) / motion),
                                                      0 when at or below the floor  */
    double validation_object_relative;             /* sqrt((mse - floor) / motion)    */
    double joint_rms[S2R_MAX_JOINTS];              /* rad: held-out rms position error
                                                      per joint at the identified values */
    double joint_relative[S2R_MAX_JOINTS];         /* joint_rms / that joint's rms motion */
    int    joint_misfit[S2R_MAX_JOINTS];           /* joint_relative above
                                                      S2R_SYSID_REL_GOOD and 3 times the
                                                      median joint's: an effect of this
                                                      joint the model does not hold  */
    s2r_sysid_verdict verdict;                     /* from the relative errors of what
                                                      the loss weighs (S2R_SYSID_REL_*,
                                                      the worse of the joints' and the
                                                      object's; without validation
                                                      data, the training set's, which
                                                      flatters the fit);
                                                      s2r_sysid_verdict_of gives the
                                                      absolute one on the joints     */
} s2r_sysid_result;

typedef struct s2r_sysid_config {
    int    n_params;           /* entries of `param` used, 1..S2R_SYSID_MAX_PARAMS; 6    */
    s2r_sysid_param param[S2R_SYSID_MAX_PARAMS];
                               /* identified, in sweep order; default: kp, kv, payload,
                                  armature, frictionloss, action_latency with the
                                  default bounds and start NAN                         */
    s2r_randomization known;   /* held, not identified: every enabled entry is applied at
                                  its centre (s2r_dist_centre) in its own mode; entries
                                  of identified parameters are ignored; default none     */
    int    max_sweeps;         /* sweep budget of one descent, 1..S2R_SYSID_MAX_SWEEPS;
                                  30 (the fleet's units converge in 10-20)               */
    double loss_tol;           /* stop when a sweep lowers the loss by less than this
                                  fraction of it; 1e-4 (at 1e-3 the descent stopped 2-4 %
                                  above the minimum on slow valleys)                     */
    double step_tol;           /* a line search ends when its bracket is narrower than
                                  this fraction of the bounds (fine: along a valley of
                                  correlated parameters progress needs small moves); 1e-4 */
    double first_step;         /* a parameter's first line-search step, fraction of its
                                  bounds (later: twice its last move); 0.1               */
    int    directions;         /* learned directions, 0..S2R_SYSID_MAX_DIRECTIONS: after
                                  the coordinates, every sweep line-searches along the net
                                  moves of the last `directions` sweeps and of itself, which
                                  follows valleys of correlated parameters (kp, kv and
                                  payload); 0 = plain cyclic coordinate descent; 2       */
    double weight_q;           /* weight of squared position errors (plain number); 1    */
    double weight_qd;          /* s^2, weight of squared velocity errors; 0              */
    double weight_object;      /* rad^2 per m^2, weight of the object's squared position
                                  error (sets with the object; the loss stays in rad^2);
                                  0 (s2r_sysid_config_object: 1, with weight_q 0)        */
    double sensitivity_step;   /* fraction of the bounds moved to read sensitivity; 0.1  */
    double min_sensitivity;    /* sensitivity below which a parameter is reported
                                  unidentifiable (a tenth of its bounds moves the loss by
                                  less than 2 %: the fit cannot pin it down); 0.02       */
    double range_loss_rise;    /* recentred half-width: the move raising the loss by this
                                  fraction; 0.5                                          */
    double range_min_width;    /* narrowest recentred half-width, fraction of the bounds
                                  (a policy should not rely on one exact value); 0.05    */
    int    polish;             /* 0: the Levenberg-Marquardt polish only checks the
                                  descent (polish_loss, polish_distance); 1: its point
                                  is reported when lower; 0                              */
    void (*on_sweep)(void* context, const s2r_sysid_result* so_far);
                               /* called after every sweep (progress); NULL              */
    void*  on_sweep_context;   /* passed to on_sweep; NULL                               */
} s2r_sysid_config;

/* The simulator being fitted and the run's bookkeeping.  Caller-owned:
   s2r_sysid_init / s2r_sysid_free. */
typedef struct s2r_sysid {
    s2r_sysid_config  config;
    s2r_sim           sim;          /* nominal arm; candidates are pinned on it       */
    s2r_randomization modes;        /* identified entries FIXED (default mode) + known */
    s2r_sim_draw      base;         /* known values; candidates fill the identified ones */
    double            dt;           /* s, nominal physics step (latency resolution)   */
    int               evaluations;  /* loss evaluations since init                    */
    char              error[S2R_ERROR_LEN];
} s2r_sysid;

/* "good", "acceptable", "block"; "unknown" out of range. */
S2RDEF const char*        s2r_sysid_verdict_name(s2r_sysid_verdict v);
/* The absolute verdict on a validation MSE in rad^2 (S2R_SYSID_MSE_*; NaN
   or Inf: BLOCK) - kept to show that it cannot fail: at this excitation's
   scale every model measured passes it (example 10). */
S2RDEF s2r_sysid_verdict  s2r_sysid_verdict_of(double mse);
/* The verdict on the joints' relative error (rms error / rms motion;
   S2R_SYSID_REL_*). */
S2RDEF s2r_sysid_verdict  s2r_sysid_verdict_relative(double relative);
/* The verdict on the object's relative error beyond the camera's floor
   (S2R_SYSID_OBJECT_REL_*). */
S2RDEF s2r_sysid_verdict  s2r_sysid_verdict_object(double relative);
/* Parameter p with its default bounds (table above) and start NAN; for a
   parameter identification does not handle, lo = hi = NAN (rejected by
   s2r_sysid_init with a message saying why). */
S2RDEF s2r_sysid_param    s2r_sysid_param_default(s2r_param p);
S2RDEF s2r_sysid_config   s2r_sysid_config_default(void);
/* The push scene's object, fitted with the arm held at what was identified
   before (put it in `known`): object-table friction, tip-object friction,
   object mass and the camera's latency, by the object's perceived path
   alone (weight_q 0, weight_object 1); otherwise as the default. */
S2RDEF s2r_sysid_config   s2r_sysid_config_object(void);
/* S2R_ERR_INVALID_ARGUMENT naming the parameter or field: an unsupported
   or repeated parameter, NaN bounds, lo > hi, a start outside the bounds,
   bounds a parameter cannot take (e.g. a kp scale <= 0), a bad `known`
   table or numeric field out of range. */
S2RDEF s2r_result         s2r_sysid_config_check(const s2r_sysid_config* c, char* error);
/* Load the simulator to fit: `model` says which arm (robot, mjcf_path or
   mjcf_xml), max_latency (must hold the latency bounds), max_joint_speed
   and sensor_period; its randomization and noise are not used (what the
   fit holds fixed goes in config->known). */
S2RDEF s2r_result         s2r_sysid_init(s2r_sysid* id, const s2r_sysid_config* config,
                                         const s2r_sim_config* model);
S2RDEF void               s2r_sysid_free(s2r_sysid* id);
/* The loss (rad^2, definition above) of candidate values ([n_params], in
   bounds) on a set; +Inf when the simulation diverges. */
S2RDEF s2r_result         s2r_sysid_loss(s2r_sysid* id, const double* values,
                                         const s2r_trajectory_set* set, double* loss);
/* Mean squared joint position error (rad^2) of the simulation with
   `values` against a set: the gate's measure. */
S2RDEF s2r_result         s2r_sysid_mse(s2r_sysid* id, const double* values,
                                        const s2r_trajectory_set* set, double* mse);
/* Replay trajectory `index` of a set on the simulator with `values`:
   q_out (rad) and qd_out (rad/s), each [n_samples][n_joints] or NULL. */
S2RDEF s2r_result         s2r_sysid_simulate(s2r_sysid* id, const double* values,
                                             const s2r_trajectory_set* set, int index,
                                             double* q_out, double* qd_out);
/* Identify from `train`; validate on `validation` (may be NULL: then the
   verdict is taken from the training MSE, which flatters the fit).
   Errors (S2R_ERR_INVALID_ARGUMENT with a message): bad data (see
   s2r_trajectory_set_check), a simulation that diverges at the start. */
S2RDEF s2r_result         s2r_sysid_run(s2r_sysid* id, const s2r_trajectory_set* train,
                                        const s2r_trajectory_set* validation,
                                        s2r_sysid_result* result);
/* The identified simulator as a randomization: `known` plus every
   identified parameter FIXED at its reported value in its default mode -
   unidentifiable ones too, wherever the fit left them (nothing is put
   back).  A simulator with it replays the fit. */
S2RDEF s2r_result         s2r_sysid_fixed(const s2r_sysid* id, const s2r_sysid_result* result,
                                          s2r_randomization* out);
/* The next training run's ranges: `training` (may equal out) with every
   identifiable parameter replaced by uniform(value +- half_width) inside
   its bounds, in its default mode; the rest unchanged.  Validated. */
S2RDEF s2r_result         s2r_sysid_recentre(const s2r_sysid* id, const s2r_sysid_result* result,
                                             const s2r_randomization* training,
                                             s2r_randomization* out);
/* Print the table of a result: parameter, unit, start, value, bounds,
   sensitivity, recentred half-width; then losses, MSEs and verdict. */
S2RDEF void               s2r_sysid_print(const s2r_sysid* id, const s2r_sysid_result* result);

/* Camera-to-base calibration through the backend: the marker is placed at
   `points` surveyed positions drawn in the arm's workspace box (reset with
   the arm at home), the perceived position is read `reads` times 0.04 s
   apart at each, and the offset is the mean of perceived minus placed (m).
   spread: NULL or the largest distance of one point's mean from the
   offset (m) - how consistent the calibration is.  Use the offset as the
   reach task's target_correction. */
S2RDEF s2r_result s2r_calibrate_camera(const s2r_backend* robot, int points, int reads, uint64_t seed,
                                       double offset[3], double* spread, char* error);
/* The commissioning the examples do: real unit `unit` of `robot`'s fleet,
   S2R_CALIBRATION_POINTS points, S2R_CALIBRATION_READS readings each. */
#define S2R_CALIBRATION_POINTS 8
#define S2R_CALIBRATION_READS 10
S2RDEF s2r_result s2r_calibrate_unit(s2r_robot_kind robot, uint64_t unit, uint64_t seed, double offset[3],
                                     double* spread, char* error);

/* The whole identification of one unit in one call, as the recipe table
   runs it: `train` multisine and `valid` chirp trajectories of `samples`
   readings every 0.02 s recorded through the backend; coordinate descent
   with the default parameters (the sensing delay held at the centre of
   `training`'s range, since open-loop data see only the total delay);
   `next` = `training` recentred on the estimate; `identified` (may be NULL)
   = the identified simulator, the estimates as fixed values
   (s2r_sysid_fixed); and the camera calibrated (s2r_calibrate_camera,
   S2R_CALIBRATION_POINTS points of S2R_CALIBRATION_READS readings, stream
   config->seed + 2: the offset s2r_calibrate_unit(kind, unit,
   config->seed + 2, ...) measures again) into camera_offset. */
typedef struct s2r_identify_config {
    int      train;         /* trajectories to fit; 3                             */
    int      valid;         /* held-out trajectories; 2                           */
    int      samples;       /* readings per trajectory (0.02 s apart); 150        */
    int      sweeps;        /* coordinate-descent budget; 30                      */
    uint64_t seed;          /* excitation streams; 1                              */
    int      strikes;       /* s2r_identify_object: strikes to fit (1.2 s each); 8 */
    int      strikes_valid; /* s2r_identify_object: held out; 4                    */
    double   strike_speed;  /* s2r_identify_object: m/s; 1 (the UR5e datasheet's
                               typical tool speed; the Panda's Cartesian limit is
                               1.7 m/s)                                           */
} s2r_identify_config;

S2RDEF s2r_identify_config s2r_identify_config_default(void);
S2RDEF s2r_result s2r_identify_unit(const s2r_backend* robot, const s2r_identify_config* config,
                                    const s2r_randomization* training, s2r_randomization* next,
                                    s2r_randomization* identified, s2r_sysid_result* result,
                                    double camera_offset[3], char* error);
/* Then the push scene's object on the same unit (`push_robot`: the unit in
   the push scene): config->strikes strikes to fit and config->strikes_valid
   held out on other places (s2r_trajectory_collect_strikes, 1.2 s at
   50 Hz each, streams seed + 3 and seed + 4), the
   camera's readings corrected by camera_offset (from s2r_identify_unit),
   the arm held at `identified` (from s2r_identify_unit), and
   s2r_sysid_config_object's parameters fitted.  Unless the held-out
   verdict is BLOCK, `next` and `identified` are updated in place: the
   object's identifiable entries recentred / fixed, the others untouched;
   a fit the held-out strikes do not trust changes nothing.  Arm first,
   then the object: the object's path depends on where the arm put the
   tip, not the other way round. */
S2RDEF s2r_result s2r_identify_object(const s2r_backend* push_robot, const s2r_identify_config* config,
                                      const double camera_offset[3], s2r_randomization* next,
                                      s2r_randomization* identified, s2r_sysid_result* result, char* error);

/* ==========================================================================
   Deployment (1/7): overview - stages, gates, safety, fallback, monitoring
   ==========================================================================
   A policy that works in simulation reaches the fleet in stages.  Each stage
   runs the policy a little closer to reality, measures it, and a gate turns
   the measurements into a verdict; the stage machine (s2r_deploy) applies
   the verdicts and writes every decision, with its reason, to a log.

     stage             what runs                          gate (s2r_gate_*)
     sim regression    a named suite of reach cases in    pass rate >= 0.85
                       the simulator
     sysid validation  the identified simulator replays   rms error < 3 % of the rms
                       held-out trajectories of the unit  motion pass; 3..5 % warn
                       (s2r_identify_unit)                (passes); > 5 % fail
     shadow            the fallback acts, the policy      no unsafe proposal;
                       proposes; both are compared        agreement reported
     tethered          the policy acts behind the safety  SPRT: 0.95 against 0.80,
                       monitor, the operator on the       alpha 0.05, beta 0.10, at
                       e-stop                             most 80 episodes
     constrained       the same, targets and safety box   SPRT: 0.95 against 0.85, at
                       at 50 % of the workspace           most 130; no catastrophic
                                                          failure
     canary            a few percent of the fleet,        not worse than the incumbent:
                       beside the incumbent controller    SPRT on the pairs where the
                       on the same tasks                  two disagree, at most 200
     autonomous        the whole fleet, monitored         drift or limit alarms demote
                                                          or roll back to the fallback

   How each gate decides:
     - sim regression: the point estimate passed/runs >= 0.85 decides.  The
       suite is a fixed list of cases, not a sample of tasks, so there is no
       population to put an interval on; the Wilson 95 % interval
       (s2r_wilson_interval) is reported to show how much the repeats vary.
     - tethered and constrained (the expensive real-robot stages): a
       sequential test after every episode, Wald's SPRT (s2r_sprt_*), with
       the error rates in the config: a policy whose true success is at or
       below 0.80 (constrained: 0.85) passes with probability at most
       alpha = 0.05, one at 0.95 with probability at least 1 - beta = 0.90,
       and the test stops as soon as the evidence settles it - on average
       17 episodes at 0.80 and 27 at 0.95 for tethered, 34 at 0.85 and 49
       at 0.95 for constrained, and never more than 32 and 56 on average
       for any true rate, where the earlier rules spent up to 47 and
       always 100 (s2r_gate_oc computes these exactly; the README has the
       table).  At the cap it fails.  Any catastrophic episode (an e-stop
       or a physics blow-up) fails constrained at once, whatever the rate.
       The earlier rules are kept as S2R_GATE_INTERVAL, to compare with:
       tethered PASS once the Wilson interval's lower bound is above 0.80,
       FAIL once its upper bound is at or below it, from 20 episodes on,
       the point estimate at the cap; constrained the point estimate after
       its episodes.  Peeking at a 95 % interval after every episode passes
       a policy at exactly 0.80 more often than 5 % (s2r_gate_oc measures
       how often).
     - shadow: counts, not rates - one unsafe proposal fails (the default
       allowed rate is 0); agreement passes when its point estimate is at
       least the configured minimum (default 0: reported, not gated).
     - canary (s2r_gate_canary_pairs): the candidate and the incumbent on
       the same tasks, pair by pair; Wald's SPRT on the candidate's share of
       the pairs where they disagree (a worse candidate wins a third of
       them, an equal one half; alpha 0.05, beta 0.10), and at 200 pairs
       the observed drop against the margin (0.05).  Its job is to catch a
       candidate that is worse; a small canary rarely proves one better.
       The fixed comparison it replaced stays as s2r_gate_canary: the
       Newcombe interval of the difference of two independent samples,
       FAIL when its upper bound is below 0 or the observed drop exceeds
       the margin (a drop of exactly the margin passes).
   Rates are compared with a tolerance of S2R_GATE_EPS (1e-12) so that, for
   example, 85/100 counts as exactly 0.85.  A gate given impossible
   statistics (negative counts, more successes than trials, NaN) FAILS: a
   gate never passes on garbage.

   The pieces, in data-flow order:
     s2r_safety        a backend that wraps any backend and checks every
                       joint-target command on its way (limits, step size,
                       workspace box) and the measured state during motion
                       (speed, torque), with a latched e-stop; the reach task
                       and s2r_evaluate run on it unchanged
     s2r_deploy_episode / s2r_deploy_run / s2r_stage_run
                       episodes behind the monitor, with the statistics the
                       gates and the fleet monitor need
     s2r_regression_*  the sim regression suite
     s2r_shadow_run    shadow mode
     s2r_gate_*        the gates, pure functions of measured statistics
     s2r_drift, s2r_monitor
                       CUSUM change detectors, and the per-unit monitor of
                       the autonomous stage (drift, interventions, torque)
     s2r_deploy        the stage machine and its crash-safe JSON-lines log

   The fallback controller is whatever s2r_controller you trust - in the
   examples the scripted expert (s2r_expert_controller): it acts in shadow
   mode and takes over after a rollback. */

#define S2R_GATE_EPS 1e-12        /* tolerance of rate comparisons in the gates  */
#define S2R_GATE_REASON_LEN 192   /* bytes of a gate's or event's reason         */

typedef enum s2r_stage {
    S2R_STAGE_SIM_REGRESSION,    /* "sim_regression"   */
    S2R_STAGE_SYSID,             /* "sysid_validation" */
    S2R_STAGE_SHADOW,            /* "shadow"           */
    S2R_STAGE_TETHERED,          /* "tethered"         */
    S2R_STAGE_CONSTRAINED,       /* "constrained"      */
    S2R_STAGE_CANARY,            /* "canary"           */
    S2R_STAGE_AUTONOMOUS,        /* "autonomous"       */
    S2R_STAGE_ROLLED_BACK,       /* "rolled_back": the policy is out, the fallback acts */
    S2R_STAGE_COUNT
} s2r_stage;

typedef enum s2r_verdict {
    S2R_VERDICT_PASS,            /* "pass":     move to the next stage                */
    S2R_VERDICT_WARN,            /* "warn":     move on, with a warning in the log    */
    S2R_VERDICT_CONTINUE,        /* "continue": not enough evidence yet; keep going   */
    S2R_VERDICT_FAIL,            /* "fail":     roll back to the fallback             */
    S2R_VERDICT_COUNT
} s2r_verdict;

/* Names above; "unknown" out of range. */
S2RDEF const char* s2r_stage_name(s2r_stage stage);
S2RDEF const char* s2r_verdict_name(s2r_verdict verdict);

/* ==========================================================================
   Deployment (2/7): the safety monitor - a backend in front of a backend
   ==========================================================================
   s2r_safety wraps any backend (a simulator, a real unit, your driver) and is
   itself a backend, so the reach task, s2r_evaluate and every controller run
   behind it unchanged:

       s2r_safety_init(&safety, &config, s2r_real_robot_backend(&unit));
       s2r_reach_init(&reach, &rc, s2r_safety_backend(&safety));

   It works at the joint-target level - it sees exactly the servo targets
   the task sends - because that is where the limits live.  Each command
   passes these filters in order (the "from" pose is the last target that
   went out, or the start pose after a reset):

     kind        check                                   what happens
     nonfinite   a NaN/Inf target                        blocked: the previous target
                                                         is held; the call returns
                                                         S2R_ERR_INVALID_ARGUMENT
     hard_limit  beyond the arm's joint limits           clipped to them
     soft_limit  beyond q_min + soft_margin ..           clipped (a joint already
                 q_max - soft_margin                     outside may only move back in)
     step        a joint target moved more than          capped at max_step from the
                 max_step since the last one             previous target
     workspace   the target's flange (forward kinematics blocked: the previous target
                 of the target, s2r_flange_fk) outside   is held (a target already
                 the safety box                          outside may only move back in)

   The safety box is the arm's workspace box scaled by workspace_scale about
   its centre and grown by workspace_margin on every side.  The margin is
   there because servo targets run ahead of the arm: the scripted expert's
   targets reach 0.10 m (UR5e) and 0.145 m (Panda) outside the target box in
   normal operation, so the default 0.15 m leaves normal motion untouched.

   While time passes (advance), the monitor reads the sensors every
   check_period and watches the measured state:

     velocity    a joint faster than velocity_fraction   protective hold (below)
                 x its datasheet speed limit
     torque      a joint at >= torque_fraction of its    protective hold at the
                 torque limit for torque_time without    measured position (relieves
                 a break (pushing on something)          the push)
     estop       s2r_safety_estop, or an intervention    halt, latched: every later
                 whose kind is in estop_on               command is ignored until the
                                                         next reset

   The e-stop and the velocity hold brake: they command q + tau / kp +
   stop_lead qd from the measured state - the position where the servo keeps
   producing the torque it produces now (gravity support included, so the
   arm does not sag), moved ahead by where the braking arm comes to rest (so
   it does not creep back).  The torque hold commands the measured position
   itself, which takes the push away.  The velocity intervention counts
   once per excursion above the limit.

   The e-stop's reaction is immediate: it engages the backend's drive-level
   halt (config.halt if given, else the wrapped backend's own: brakes below
   the command path, so no command latency applies) and sends the halt
   command in the same check period as the trigger.  On the simulators and
   the stand-in units the brakes stop both arms from over 1 m/s at the
   flange within about 10 ms (tests/test_deploy.c checks 50 ms).  Without a
   drive-level halt, only the halt command acts: behind command latency
   and with the Panda's 12 N·m wrist that can take a few hundred ms.

   Interventions are counted by kind, per episode (cleared by reset) and in
   total.  The monitor also records per episode the largest |tau| / limit
   and |qd| / limit it measured (torque and speed peaks).

   In shadow mode nothing is sent: s2r_safety_check says what the monitor
   would have done to a proposed target, without counting or sending.

   Two consequences of sitting between task and robot.  The reach task keeps
   its own targets (reach->q_cmd): after an intervention the observation's
   q_cmd - q shows what the task asked for, not what the monitor sent, and
   the next command is filtered from what was sent (so a held arm resumes
   at most max_step per command).  And the monitor reads the sensors every
   check_period, which draws the backend's sensor noise more often: runs
   behind it are deterministic, but not bit-identical to runs without it. */

typedef enum s2r_intervention {
    S2R_INTERVENTION_NONFINITE,   /* "nonfinite"  */
    S2R_INTERVENTION_HARD_LIMIT,  /* "hard_limit" */
    S2R_INTERVENTION_SOFT_LIMIT,  /* "soft_limit" */
    S2R_INTERVENTION_STEP,        /* "step"       */
    S2R_INTERVENTION_WORKSPACE,   /* "workspace"  */
    S2R_INTERVENTION_VELOCITY,    /* "velocity"   */
    S2R_INTERVENTION_TORQUE,      /* "torque"     */
    S2R_INTERVENTION_ESTOP,       /* "estop"      */
    S2R_INTERVENTION_COUNT
} s2r_intervention;

/* Bit of kind k in the masks below. */
#define S2R_INTERVENTION_BIT(k) (1u << (unsigned)(k))

/* Names above; "unknown" out of range. */
S2RDEF const char* s2r_intervention_name(s2r_intervention kind);

typedef struct s2r_safety_config {
    double   soft_margin;       /* rad kept free inside each hard joint limit; 0.05   */
    double   max_step;          /* rad, largest change of one joint target per command;
                                   0.05 (the reach task's max_delta)                   */
    double   velocity_fraction; /* of each joint's datasheet speed limit that triggers
                                   a protective hold; 0.8                              */
    double   torque_fraction;   /* of each joint's torque limit counted as saturated;
                                   0.95                                                */
    double   torque_time;       /* s of continuous saturation before a hold; 0.2 (the
                                   expert saturates the Panda's wrist briefly while
                                   accelerating, never this long)                      */
    double   workspace_scale;   /* the workspace box scaled about its centre, 0..1; 1
                                   (the constrained stage uses 0.5)                    */
    double   workspace_margin;  /* m added on every side of the scaled box; 0.15      */
    double   check_period;      /* s between sensor checks while time passes; 0.002
                                   (a 500 Hz safety loop, as on the UR5e controller)  */
    double   stop_lead;         /* s: a halt targets the measured position plus
                                   stop_lead x the measured joint speed - where the
                                   braking arm comes to rest, so it does not creep
                                   back; 0.01 (nominal UR5e: at rest within 25 ms)    */
    unsigned estop_on;          /* S2R_INTERVENTION_BIT(k) of the kinds that escalate
                                   to an e-stop - an operator's hand on the button in
                                   the tethered stage; 0                               */
    /* Optional drive-level stop of the wrapped backend (brakes, a halt below the
       command path); called by the e-stop before the halt command.  NULL. */
    s2r_result (*halt)(void* context);
    void*    halt_context;      /* passed to halt; NULL                               */
} s2r_safety_config;

typedef struct s2r_safety {
    s2r_safety_config  config;
    const s2r_backend* inner;                    /* the backend being guarded        */
    s2r_backend        backend;                  /* this monitor as a backend        */
    char               name[64];                 /* "safety(<inner name>)"           */
    mjData*            kinematics;               /* scratch for forward kinematics   */
    double             soft_lo[S2R_MAX_JOINTS];  /* rad, soft joint limits           */
    double             soft_hi[S2R_MAX_JOINTS];
    double             box_lo[3], box_hi[3];     /* m, world: the safety box         */
    double             q_sent[S2R_MAX_JOINTS];   /* rad, last target that went out   */
    s2r_sensors        sensors;                  /* latest reading the monitor took  */
    double             saturated[S2R_MAX_JOINTS];/* s of continuous torque saturation */
    int                fast;                     /* a joint is above the speed limit */
    int                estopped;                 /* latched until the next reset     */
    double             estop_time;               /* s (backend time) of the trigger, -1 */
    char               estop_reason[64];
    int                episode_count[S2R_INTERVENTION_COUNT]; /* this episode        */
    long               total_count[S2R_INTERVENTION_COUNT];   /* since init          */
    long               ignored_commands;         /* commands dropped while e-stopped */
    double             torque_peak;              /* this episode: max |tau| / limit  */
    double             speed_peak;               /* this episode: max |qd| / limit   */
    char               error[S2R_ERROR_LEN];
} s2r_safety;

S2RDEF s2r_safety_config  s2r_safety_config_default(void);
/* Wrap `inner` (which must outlive the monitor).  S2R_ERR_INVALID_ARGUMENT
   for a bad config (a message names the field), S2R_ERR_OUT_OF_MEMORY. */
S2RDEF s2r_result         s2r_safety_init(s2r_safety* safety, const s2r_safety_config* config,
                                          const s2r_backend* inner);
S2RDEF void               s2r_safety_free(s2r_safety* safety);
S2RDEF const s2r_backend* s2r_safety_backend(s2r_safety* safety);
/* What the monitor would do to `q_target` (rad, [n_joints]) now: the mask of
   S2R_INTERVENTION_BIT(kind) of the command filters (0 = passes untouched),
   and in q_safe (may be NULL) the target it would send.  Counts nothing,
   sends nothing: this is how shadow mode predicts violations. */
S2RDEF unsigned           s2r_safety_check(s2r_safety* safety, const double* q_target, double* q_safe);
/* Action-level guard for the episode runners: an action (floats in policy
   units) with a NaN/Inf entry becomes all zeros - "keep the targets" - and
   counts a nonfinite intervention.  Returns the mask (0 or the nonfinite bit). */
S2RDEF unsigned           s2r_safety_filter_action(s2r_safety* safety, float* action, int n);
/* Emergency stop now (an operator's button): latched until the next reset.
   `reason` (may be NULL) is kept for the log.  Calling it again is harmless. */
S2RDEF s2r_result         s2r_safety_estop(s2r_safety* safety, const char* reason);
/* Interventions of this episode, all kinds. */
S2RDEF int                s2r_safety_episode_interventions(const s2r_safety* safety);
/* Change the scale of the safety box (e.g. 0.5 for the constrained stage),
   0..1.  Takes effect at once. */
S2RDEF s2r_result         s2r_safety_set_workspace_scale(s2r_safety* safety, double scale);

/* ==========================================================================
   Deployment (3/7): episodes behind the monitor, the sim regression suite
   ==========================================================================
   s2r_deploy_episode runs one reach episode of a controller, through the
   monitor when one is given (the task must then run on its backend), and
   returns what the gates and the fleet monitor need.  A controller error
   ends the run with that error; a NaN action is caught by the monitor
   (s2r_safety_filter_action) and counts as an intervention.  An episode
   is catastrophic when it e-stopped or its physics blew up.

   The regression suite is a fixed, named list of reach cases - a start
   pose and a target placed by fractions of the workspace box - that a
   candidate must pass in simulation before it touches a robot, the
   stand-in for a hardware-in-the-loop test bench.  The default suite has
   the centre, the six faces, the eight corners (at 5 % / 95 % of each
   axis) and three cases starting away from home. */

typedef struct s2r_episode_stats {
    int    success;          /* ground-truth success at the end                    */
    int    catastrophic;     /* e-stopped or diverged                               */
    int    diverged;         /* the physics blew up                                 */
    int    steps;            /* policy steps taken                                  */
    double ret;              /* sum of rewards                                      */
    double final_distance;   /* m, flange-target distance at the end (-1 diverged)  */
    double action_mean_abs;  /* mean |a| over steps and joints, clipped actions, 0..1 */
    int    interventions;    /* safety interventions, all kinds (0 without monitor) */
    int    intervention[S2R_INTERVENTION_COUNT]; /* by kind                         */
    double torque_peak;      /* max |tau_j| / torque_limit_j the monitor measured   */
    double speed_peak;       /* max |qd_j| / velocity_limit_j the monitor measured  */
} s2r_episode_stats;

typedef struct s2r_run_summary {
    int    episodes;
    int    successes;
    int    catastrophic;
    long   interventions;                        /* all kinds                        */
    long   intervention[S2R_INTERVENTION_COUNT]; /* by kind                          */
    double torque_peak;                          /* max over the episodes            */
    double mean_torque_peak;                     /* mean of the episodes' peaks      */
    double mean_return;
    double success_rate;                         /* successes / episodes             */
    double success_lo, success_hi;               /* Wilson 95 %                      */
} s2r_run_summary;

/* One episode from s2r_reach_reset(reach, rng).  safety: NULL, or the
   monitor whose backend the task runs on. */
S2RDEF s2r_result s2r_deploy_episode(const s2r_controller* policy, s2r_reach* reach,
                                     s2r_safety* safety, s2r_rng* rng, s2r_episode_stats* out);
/* Add one episode to a summary (zero it first) and refresh rate and interval. */
S2RDEF void       s2r_run_summary_add(s2r_run_summary* summary, const s2r_episode_stats* e);
/* `episodes` episodes, episode i drawn from s2r_rng_make(seed, stream0 + i):
   two controllers run with the same seed and stream0 face the same tasks. */
S2RDEF s2r_result s2r_deploy_run(const s2r_controller* policy, s2r_reach* reach, s2r_safety* safety,
                                 int episodes, uint64_t seed, uint64_t stream0, s2r_run_summary* out);

#define S2R_REGRESSION_MAX_CASES 32

typedef struct s2r_regression_case {
    const char* name;            /* e.g. "reach low"                                  */
    double target_frac[3];       /* target per world axis as a fraction of the arm's
                                    (unscaled) workspace box: 0 the low face, 1 the high */
    int    start_joint;          /* joint moved away from home at the start; -1 none  */
    double start_offset;         /* rad added to that joint (clipped to its limits)   */
} s2r_regression_case;

typedef struct s2r_regression_result {
    int    cases, repeats;
    int    runs, passed;                          /* cases * repeats; successes     */
    int    case_passed[S2R_REGRESSION_MAX_CASES]; /* successes per case, 0..repeats */
    double pass_rate, pass_lo, pass_hi;           /* passed / runs and Wilson 95 %  */
} s2r_regression_result;

/* The default suite (a static table); returns its length. */
S2RDEF int        s2r_regression_suite_default(const s2r_regression_case** cases);
/* Start pose (rad, [n_joints]) and target (m, world) of a case on an arm. */
S2RDEF void       s2r_regression_case_pose(const s2r_regression_case* c, const s2r_arm_info* info,
                                           double* q0, double target[3]);
/* Run every case `repeats` times (noise and latencies differ per repeat:
   case i, repeat r uses s2r_rng_make(seed, 1000 i + r)). */
S2RDEF s2r_result s2r_regression_run(const s2r_controller* policy, s2r_reach* reach,
                                     const s2r_regression_case* cases, int n_cases, int repeats,
                                     uint64_t seed, s2r_regression_result* out);

/* ==========================================================================
   Deployment (4/7): shadow mode
   ==========================================================================
   The fallback acts; the policy sees the same observation and proposes an
   action that is computed, compared and logged but never executed.  Per
   step:

     agreement  max_j |a_policy[j] - a_fallback[j]| <= agree_tol, both
                clipped to [-1, 1] (policy units: 1 = one max_delta of
                servo-target motion).  The max over joints, not a cosine,
                because near rest both actions are tiny and their directions
                are noise.
     unsafe     the proposal turned into the servo targets the task would
                send (the task's current targets + a * max_delta, clipped to
                the joint limits) fails a command filter of the monitor
                (s2r_safety_check): the monitor would have changed or
                blocked it.  A policy that returns an error, or a NaN,
                proposes something unsafe (kind nonfinite).

   Each proposal is judged from the state the fallback produced, one step
   at a time: shadow mode cannot see where the policy would have taken the
   arm over many steps - that is what the tethered stage, behind the
   monitor, is for.  The reach task must run on the monitor's backend, so
   the monitor knows the targets that actually went out. */

#define S2R_SHADOW_AGREE_TOL 0.25   /* default agree_tol, policy action units */

typedef struct s2r_shadow_stats {
    int    episodes;
    int    proposals;                       /* policy actions computed              */
    int    agreements;                      /* within agree_tol of the fallback     */
    int    unsafe;                          /* proposals the monitor would change   */
    int    by_kind[S2R_INTERVENTION_COUNT]; /* unsafe proposals by kind (one may
                                               count under several kinds)          */
    double mean_difference;                 /* mean over proposals of max_j |diff|  */
    double max_difference;                  /* largest max_j |diff| seen            */
    int    fallback_successes;              /* episodes the acting fallback won     */
    double agreement_rate, agreement_lo, agreement_hi; /* Wilson 95 %               */
    double unsafe_rate, unsafe_lo, unsafe_hi;          /* Wilson 95 %               */
} s2r_shadow_stats;

typedef struct s2r_deploy s2r_deploy;

/* Episode i from s2r_rng_make(seed, i).  log: NULL, or a deployment whose
   log gets one "shadow_episode" record per episode. */
S2RDEF s2r_result s2r_shadow_run(const s2r_controller* policy, const s2r_controller* fallback,
                                 s2r_reach* reach, s2r_safety* safety, int episodes, uint64_t seed,
                                 double agree_tol, s2r_shadow_stats* out, s2r_deploy* log);

/* ==========================================================================
   Deployment (5/7): the gates
   ==========================================================================
   Pure functions from measured statistics to a verdict, with the numbers and
   a one-sentence reason for the log.  The rules and how they use the
   intervals are in the overview (Deployment 1/7). */

/* Wald's sequential probability ratio test on a success rate (Wald, 1945).
   After every episode the log-likelihood ratio of k successes in n
   episodes under p1 against p0,

       llr = k log(p1 / p0) + (n - k) log((1 - p1) / (1 - p0)),

   is compared with two boundaries: PASS once llr >= log((1 - beta) / alpha),
   FAIL once llr <= log(beta / (1 - alpha)), otherwise one more episode.
   A policy whose true rate is p0 (or worse) passes with probability about
   alpha at most, one at p1 (or better) with about 1 - beta; between them
   lies the indifference zone, where either verdict is acceptable.  The
   test is truncated at max_n episodes, where it FAILS: a truncation that
   can only turn passes into fails keeps the false-pass rate at or below
   what the boundaries give, and costs some power, which s2r_gate_oc
   measures exactly.  The LLR depends on (k, n) only, so a decision is a
   pure function of the counts. */
typedef struct s2r_sprt_config {
    double p0;      /* a rate that must not pass (H0), 0 < p0 < p1                  */
    double p1;      /* a rate that should pass (H1), p1 < 1                          */
    double alpha;   /* the designed false-pass probability at p0, 0 < alpha < 0.5    */
    double beta;    /* the designed false-fail probability at p1, 0 < beta < 0.5     */
    int    max_n;   /* episodes at most; FAIL there without a crossing, >= 1         */
} s2r_sprt_config;

/* S2R_ERR_INVALID_ARGUMENT with a message naming the field. */
S2RDEF s2r_result  s2r_sprt_check(const s2r_sprt_config* c, char* error);
/* PASS, FAIL or CONTINUE for k successes in n episodes; llr (may be NULL)
   gets the log-likelihood ratio.  Invalid counts (k < 0, k > n, n < 0) or
   config (s2r_sprt_check; NULL too): FAIL, llr NaN. */
S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr);

/* Which rules the success-rate gates (tethered, constrained) apply. */
typedef enum s2r_gate_rule {
    S2R_GATE_SEQUENTIAL,  /* "sequential": Wald's SPRT with stated alpha and beta    */
    S2R_GATE_INTERVAL,    /* "interval": the earlier rules - tethered peeks at a
                             Wilson interval after every episode from 20 to 50,
                             constrained decides on the point estimate after 100;
                             kept to compare against (s2r_gate_oc measures both)    */
    S2R_GATE_RULE_COUNT
} s2r_gate_rule;

typedef struct s2r_gate_config {
    s2r_gate_rule rule;            /* SEQUENTIAL                                     */
    double sim_pass_rate;          /* required suite pass rate, point estimate; 0.85  */
    double sysid_good_relative;    /* held-out rms error / rms motion below: pass;
                                      S2R_SYSID_REL_GOOD (0.03)                        */
    double sysid_block_relative;   /* above: fail; in between (inclusive): warn;
                                      S2R_SYSID_REL_BLOCK (0.05)                       */
    int    shadow_min_proposals;   /* proposals (policy steps) before shadow can decide;
                                      300, a few episodes of the reach task            */
    double shadow_max_unsafe_rate; /* allowed unsafe proposals / proposals; 0 (none)  */
    double shadow_min_agreement;   /* required agreement rate; 0 (reported only)      */
    double tethered_success;       /* the rate to beat: SEQUENTIAL's p0 (passes with
                                      probability <= tethered_alpha); INTERVAL's
                                      threshold (strictly above); 0.80                 */
    double tethered_good;          /* SEQUENTIAL's p1: passes with probability about
                                      1 - tethered_beta; 0.95                          */
    double tethered_alpha;         /* SEQUENTIAL: designed false-pass rate; 0.05       */
    double tethered_beta;          /* SEQUENTIAL: designed false-fail rate; 0.10       */
    int    tethered_min_episodes;  /* INTERVAL: nothing is decided before; 20          */
    int    tethered_max_episodes;  /* at most; SEQUENTIAL fails there (80: the false-pass
                                      rate stays under alpha and the power over 1 - beta,
                                      measured by s2r_gate_oc), INTERVAL's point estimate
                                      decides there (it used 50); 80                   */
    double constrained_success;    /* SEQUENTIAL's p0; INTERVAL's required rate (at
                                      least); 0.85                                     */
    double constrained_good;       /* SEQUENTIAL's p1; 0.95                            */
    double constrained_alpha;      /* SEQUENTIAL; 0.05                                 */
    double constrained_beta;       /* SEQUENTIAL; 0.10                                 */
    int    constrained_episodes;   /* SEQUENTIAL: at most (130, as tethered's 80);
                                      INTERVAL: exactly (it used 100); 130             */
    int    constrained_max_catastrophic; /* allowed catastrophic episodes; 0           */
    double canary_margin;          /* largest tolerated drop below the incumbent; 0.05 */
    int    canary_min_episodes;    /* INTERVAL canary: per controller before deciding; 40 */
    double canary_worse_share;     /* sequential canary (s2r_gate_canary_pairs): the share
                                      of the disagreements a worse candidate wins (H0);
                                      an equal one wins half (H1); 1/3                 */
    double canary_alpha;           /* its designed false-pass rate at that share; 0.05 */
    double canary_beta;            /* its designed false-fail rate at one half; 0.10   */
    int    canary_max_pairs;       /* pairs at most; there it passes when the observed
                                      drop is within canary_margin (the controllers
                                      rarely disagree), else fails; 200                */
} s2r_gate_config;

typedef struct s2r_gate_result {
    s2r_stage   stage;           /* the stage this gate closes                        */
    s2r_verdict verdict;
    int         n;               /* trials behind it (runs, proposals, episodes); 0 for
                                    sysID; for the canary the candidate's episodes     */
    double      value;           /* the statistic: a rate, an MSE, or for the canary the
                                    difference candidate - incumbent                   */
    double      lo, hi;          /* its 95 % interval (the value itself for sysID)    */
    double      threshold;       /* the number the deciding rule compared against     */
    char        reason[S2R_GATE_REASON_LEN];
} s2r_gate_result;

S2RDEF s2r_gate_config s2r_gate_config_default(void);
/* "sequential", "interval"; "unknown" out of range. */
S2RDEF const char*     s2r_gate_rule_name(s2r_gate_rule rule);
/* The SPRT a sequential gate runs for stage TETHERED or CONSTRAINED. */
S2RDEF s2r_sprt_config s2r_gate_sprt(const s2r_gate_config* c, s2r_stage stage);
S2RDEF s2r_gate_result s2r_gate_sim_regression(const s2r_gate_config* c, int passed, int runs);
/* validation_relative: the identified model's held-out rms position error
   over the rms motion (s2r_sysid_result.validation_relative). */
S2RDEF s2r_gate_result s2r_gate_sysid(const s2r_gate_config* c, double validation_relative);
S2RDEF s2r_gate_result s2r_gate_shadow(const s2r_gate_config* c, const s2r_shadow_stats* s);
S2RDEF s2r_gate_result s2r_gate_tethered(const s2r_gate_config* c, int successes, int episodes);
S2RDEF s2r_gate_result s2r_gate_constrained(const s2r_gate_config* c, int successes, int episodes,
                                            int catastrophic);
S2RDEF s2r_gate_result s2r_gate_canary(const s2r_gate_config* c, int cand_successes, int cand_episodes,
                                       int inc_successes, int inc_episodes);
/* The sequential canary, on paired episodes (the candidate and the
   incumbent on the same task, unit and seed): only the pairs where they
   disagree carry evidence.  Wald's SPRT on the candidate's share of those
   - a worse candidate wins canary_worse_share of them, an equal one half -
   PASS or FAIL as soon as it crosses, with canary_alpha and canary_beta;
   at canary_max_pairs, PASS when the observed drop (incumbent_only -
   candidate_only) / pairs is within canary_margin, else FAIL.  The error
   rates are stated on the share; example 11 measures what they mean as
   drops in success. */
S2RDEF s2r_gate_result s2r_gate_canary_pairs(const s2r_gate_config* c, int pairs, int candidate_only,
                                             int incumbent_only);
/* A tethered or constrained stage run to its verdict: episodes (stream0,
   stream0 + 1, ...) until the stage's gate says PASS or FAIL - the fewest
   the gate needs, at most its maximum.  Configure the monitor with
   estop_on for the operator's hand (tethered), the task and the safety box
   for the constrained workspace. */
S2RDEF s2r_result      s2r_stage_run(const s2r_controller* policy, s2r_reach* reach, s2r_safety* safety,
                                     const s2r_gate_config* gates, s2r_stage stage, uint64_t seed,
                                     uint64_t stream0, s2r_run_summary* out, s2r_gate_result* gate);

/* The operating characteristic of a tethered or constrained gate, exactly:
   the probability that it passes a policy whose episodes succeed
   independently with probability p, and the expected and largest number
   of episodes it spends (no catastrophic episodes).  Computed by carrying
   the probability of every count (k, n) forward episode by episode and
   asking the gate itself at each, so it holds for either rule and any
   config: a budget to plan robot time with before starting.
   S2R_ERR_INVALID_ARGUMENT for p outside [0, 1], another stage, or a
   maximum outside 1..100000; S2R_ERR_OUT_OF_MEMORY. */
S2RDEF s2r_result      s2r_gate_oc(const s2r_gate_config* c, s2r_stage stage, double p, double* pass,
                                   double* expected_episodes, int* max_episodes);
/* Print a gate's plan: its rule and design, then pass probability and
   expected episodes for true rates from 0.5 to 1 (s2r_gate_oc). */
S2RDEF void            s2r_gate_plan_print(const s2r_gate_config* c, s2r_stage stage);

/* ==========================================================================
   Deployment (6/7): drift detection and the fleet monitor
   ==========================================================================
   A CUSUM change detector (Page, 1954) on one per-episode statistic.  The
   first `warmup` samples set the reference; after that every sample adds
   its evidence for "changed" and the sum is kept at or above zero, so old
   good behaviour cannot hide a new change.  Alarm when the sum exceeds
   `threshold`; the alarm latches.

     BERNOULLI (success 0/1): reference p0 = (k + 1) / (warmup + 2) from
       the warm-up's k successes (never exactly 0 or 1), alternative
       p1 = max(p0 - shift, 0.001); each sample adds its log-likelihood
       ratio, log(p1/p0) for a success and log((1-p1)/(1-p0)) for a
       failure: S = max(0, S + llr), threshold in nats.
     GAUSSIAN (e.g. mean |action|, a return): reference mean and standard
       deviation of the warm-up (the std floored at min_std); z = (x -
       mean) / std; up = max(0, up + z - shift/2), down = max(0, down - z -
       shift/2); threshold in reference standard deviations; direction
       chooses which side raises the alarm.

   With warmup = 0 the reference comes from ref_mean (p0 or the mean) and
   ref_std.  Measured over 200 seeds with the defaults (the reference
   estimated from the warm-up, as in use; tests/test_deploy.c asserts the
   bounds in brackets):
     Bernoulli, success 0.95: a false alarm within 1000 unchanged episodes
       in 3 % of seeds [<= 5 %]; a fall to 0.5 detected within 31 episodes
       in 95 % of seeds [40].
     Gaussian: a false alarm within 1000 unchanged episodes in 2 % of seeds
       [<= 5 %]; a 2-std shift of the mean detected within 19 episodes in
       95 % of seeds [25].
   Most false alarms come from a short warm-up misjudging the reference;
   a longer warm-up, or a reference measured on more episodes (ref_mean,
   ref_std with warmup 0), makes them rarer.

   The Page-Hinkley test (Hinkley, 1971; method PAGE_HINKLEY,
   s2r_drift_config_page_hinkley) needs no fixed reference: it sums each
   sample's deviation from the running mean of all samples so far, less
   delta = shift/2 (GAUSSIAN: in the warm-up's std, which it still uses
   for scale), and alarms when the sum has risen more than the threshold
   lambda above its lowest point.  BERNOULLI watches falls, lambda 4
   successes; GAUSSIAN lambda 8 std.  Measured on the same streams: a
   false alarm within 1000 unchanged episodes in 0.5 % of seeds, the fall
   to 0.5 caught within 31 episodes in 95 % [40]; Gaussian 1 %, a 2-std
   shift within 23 in 95 % [25].  Over 2000 success streams (example 11):
   false alarms 0.25 % against CUSUM's 5.1 %, the fall to 0.5 noticed after
   14 episodes (median; 95th percentile 32) against 12 (31) - a warm-up's
   misjudged reference gives way to the running mean as the episodes come.
   The price: a fall to 0.8 (smaller than the shift both are tuned for) is
   noticed within 200 episodes in 28 % of the streams, CUSUM's 70 % - the
   running mean follows a slow decline.

   s2r_monitor watches one unit in the autonomous stage: a Bernoulli CUSUM
   on success, a Gaussian CUSUM on the episode's mean |action| (the action
   distribution), rolling means over the last `window` episodes of success
   (with its Wilson interval), interventions and torque peaks with limits,
   and an alarm on any catastrophic episode. */

typedef enum s2r_drift_kind {
    S2R_DRIFT_BERNOULLI,   /* "bernoulli" */
    S2R_DRIFT_GAUSSIAN,    /* "gaussian"  */
    S2R_DRIFT_KIND_COUNT
} s2r_drift_kind;

typedef enum s2r_drift_method {
    S2R_DRIFT_CUSUM,         /* "cusum": Page's CUSUM against the warm-up's reference */
    S2R_DRIFT_PAGE_HINKLEY,  /* "page_hinkley": against the running mean of every
                                sample so far (Hinkley, 1971)                      */
    S2R_DRIFT_METHOD_COUNT
} s2r_drift_method;

typedef struct s2r_drift_config {
    s2r_drift_kind kind;
    s2r_drift_method method;   /* CUSUM (s2r_drift_config_page_hinkley: PAGE_HINKLEY) */
    int    warmup;     /* samples that set the reference; BERNOULLI 20, GAUSSIAN 30   */
    double shift;      /* change to detect: BERNOULLI a fall of the success probability
                          (absolute); 0.3.  GAUSSIAN a mean shift in reference std; 2 */
    double threshold;  /* alarm level: BERNOULLI nats, 7; GAUSSIAN reference std, 8    */
    int    direction;  /* GAUSSIAN: +1 rises only, -1 falls only, 0 both; 0           */
    double min_std;    /* GAUSSIAN: floor of the reference std (the quantity's unit); 1e-6 */
    double ref_mean;   /* warmup 0: the reference p0 or mean; 0                       */
    double ref_std;    /* warmup 0, GAUSSIAN: the reference std; 0                      */
} s2r_drift_config;

typedef struct s2r_drift {
    s2r_drift_config config;
    int    samples;             /* seen so far, warm-up included                     */
    double sum, sum_sq;         /* of the warm-up samples                            */
    double mean, std;           /* reference: BERNOULLI p0 (std unused); GAUSSIAN    */
    double p1;                  /* BERNOULLI alternative                             */
    double up, down;            /* the CUSUM sums (BERNOULLI uses up); Page-Hinkley:
                                   the cumulative deviations upwards and downwards  */
    double up_min, down_min;    /* Page-Hinkley: their smallest values so far       */
    double total;               /* Page-Hinkley: sum of every sample so far         */
    int    alarm;               /* latched                                          */
    int    alarm_at;            /* sample number (1-based) that raised it; 0 none   */
} s2r_drift;

/* Names above; "unknown" out of range. */
S2RDEF const char*      s2r_drift_kind_name(s2r_drift_kind kind);
S2RDEF s2r_drift_config s2r_drift_config_default(s2r_drift_kind kind);
/* The Page-Hinkley test instead of CUSUM: shift as there (delta = shift/2
   is the drift each sample must exceed), threshold lambda in successes
   (BERNOULLI, 4) or reference std (GAUSSIAN, 8). */
S2RDEF s2r_drift_config s2r_drift_config_page_hinkley(s2r_drift_kind kind);
/* "cusum", "page_hinkley"; "unknown" out of range. */
S2RDEF const char*      s2r_drift_method_name(s2r_drift_method method);
/* S2R_ERR_INVALID_ARGUMENT (with a message in error, may be NULL) for a bad
   config; the detector is then zeroed. */
S2RDEF s2r_result       s2r_drift_init(s2r_drift* d, const s2r_drift_config* c, char* error);
/* Feed one sample: 1 when this sample raises the alarm, 0 otherwise, -1 for
   a NaN/Inf sample (ignored). */
S2RDEF int              s2r_drift_update(s2r_drift* d, double x);
/* The CUSUM sum (Page-Hinkley: the deviation above its minimum) over the
   threshold (>= 1 at the alarm); 0 during warm-up. */
S2RDEF double           s2r_drift_level(const s2r_drift* d);

typedef enum s2r_alarm {
    S2R_ALARM_SUCCESS_DRIFT,   /* "success_drift": the success CUSUM fired        */
    S2R_ALARM_ACTION_DRIFT,    /* "action_drift":  the mean |action| CUSUM fired   */
    S2R_ALARM_INTERVENTIONS,   /* "interventions": rolling mean above the limit    */
    S2R_ALARM_TORQUE,          /* "torque":        rolling mean torque peak above  */
    S2R_ALARM_CATASTROPHIC,    /* "catastrophic":  an e-stop or a blow-up          */
    S2R_ALARM_COUNT
} s2r_alarm;

#define S2R_ALARM_BIT(a) (1u << (unsigned)(a))
#define S2R_MONITOR_MAX_WINDOW 200

/* Names above; "unknown" out of range. */
S2RDEF const char* s2r_alarm_name(s2r_alarm alarm);

typedef struct s2r_monitor_config {
    s2r_drift_config success;       /* BERNOULLI CUSUM on success (defaults above)      */
    s2r_drift_config action;        /* GAUSSIAN CUSUM on action_mean_abs, two-sided     */
    int    window;                  /* episodes in the rolling statistics; 20           */
    double max_interventions;       /* alarm above this rolling mean per episode; 0.5   */
    double max_torque_peak;         /* alarm above this rolling mean of the per-episode
                                       torque peak (fraction of the limit); 0.99       */
} s2r_monitor_config;

typedef struct s2r_monitor {
    s2r_monitor_config config;
    s2r_drift success, action;
    int    ring_success[S2R_MONITOR_MAX_WINDOW];       /* last `window` episodes     */
    int    ring_interventions[S2R_MONITOR_MAX_WINDOW];
    double ring_torque[S2R_MONITOR_MAX_WINDOW];
    int    episodes;                                   /* seen so far                */
    unsigned alarms;                                   /* S2R_ALARM_BIT, latched     */
    double rolling_success, rolling_lo, rolling_hi;    /* over the window (Wilson)   */
    double rolling_interventions;                      /* mean per episode           */
    double rolling_torque;                             /* mean torque peak, fraction */
    char   error[S2R_ERROR_LEN];
} s2r_monitor;

S2RDEF s2r_monitor_config s2r_monitor_config_default(void);
S2RDEF s2r_result         s2r_monitor_init(s2r_monitor* m, const s2r_monitor_config* c);
/* Feed one episode; returns the alarm bits it newly raised (0: none). */
S2RDEF unsigned           s2r_monitor_update(s2r_monitor* m, const s2r_episode_stats* e);

/* ==========================================================================
   Deployment (7/7): the stage machine and its log
   ==========================================================================
   s2r_deploy holds the stage of one candidate policy.  Gate results move
   it: PASS and WARN to the next stage (autonomous stays autonomous), FAIL
   to rolled_back, CONTINUE nowhere.  A gate for another stage than the
   current one is refused (S2R_ERR_STATE): nothing skips a stage, and a
   rolled-back policy never comes back - start a new deployment for a new
   version.  An alarm (s2r_deploy_alarm) rolls back or demotes by one stage,
   as config.alarm_response says.

   The log.  Every decision, refusal, alarm and note is one JSON object on
   one line (JSON Lines), for example

     {"seq":7,"policy":"candidate","event":"gate","stage":"tethered",
      "verdict":"pass","next":"constrained","n":20,"value":1,"lo":0.8389,
      "hi":1,"threshold":0.8,"reason":"20 of 20 episodes succeeded ..."}

   (one line in the file).  A record is formatted completely in memory
   first (at most S2R_DEPLOY_RECORD_MAX bytes; a longer one is refused, not
   cut), then handed over with one fwrite and one fflush on a stream opened
   in append mode whose buffer is larger than any record: the operating
   system receives each record in one write, at the end of the file, before
   the call returns.  A crash of the process therefore loses at most the
   record being formatted and never leaves half a record.  (Surviving a
   power cut also needs the file synced to disk, which C99 cannot ask for;
   a reader should ignore a last line without its newline.)  Non-finite
   numbers are written as null. */

#define S2R_DEPLOY_RECORD_MAX 2048
#define S2R_DEPLOY_MAX_HISTORY 64

typedef enum s2r_alarm_response {
    S2R_ALARM_RESPONSE_ROLLBACK,   /* "rollback": the fallback takes over           */
    S2R_ALARM_RESPONSE_DEMOTE,     /* "demote":   back one stage (autonomous -> canary) */
    S2R_ALARM_RESPONSE_COUNT
} s2r_alarm_response;

/* Names above; "unknown" out of range. */
S2RDEF const char* s2r_alarm_response_name(s2r_alarm_response r);

typedef struct s2r_deploy_config {
    s2r_alarm_response alarm_response;  /* what an alarm does; ROLLBACK              */
    int                append_log;      /* 1: append to an existing log; 0: start a
                                           new file; 0                               */
} s2r_deploy_config;

typedef struct s2r_deploy_event {    /* one entry of the timeline                    */
    long        seq;                 /* its record number in the log                 */
    s2r_stage   stage, next;         /* where the policy was, and went               */
    s2r_verdict verdict;             /* gate verdict (FAIL for an alarm)             */
    unsigned    alarms;              /* S2R_ALARM_BIT of an alarm; 0 for a gate      */
    int         unit;                /* fleet unit of an alarm; -1                   */
    int         n;                   /* the gate's n                                 */
    double      value, lo, hi;       /* the gate's statistic and interval            */
} s2r_deploy_event;

struct s2r_deploy {
    s2r_deploy_config config;
    s2r_stage         stage;                      /* where the policy is now          */
    char              policy[64];                 /* its name or version              */
    long              seq;                        /* records written                  */
    s2r_deploy_event  history[S2R_DEPLOY_MAX_HISTORY]; /* gates that decided, alarms  */
    int               history_count;              /* (CONTINUE verdicts are logged only) */
    FILE*             log;                        /* NULL: no log file                */
    char              error[S2R_ERROR_LEN];
};

S2RDEF s2r_deploy_config s2r_deploy_config_default(void);
/* Start a deployment of `policy` (a name, may be NULL) at sim regression.
   log_path: a JSON-lines file, or NULL for none.  S2R_ERR_IO if it cannot
   be opened; S2R_ERR_INVALID_ARGUMENT for a bad config. */
S2RDEF s2r_result s2r_deploy_init(s2r_deploy* d, const s2r_deploy_config* config,
                                  const char* policy, const char* log_path);
S2RDEF void       s2r_deploy_free(s2r_deploy* d);
/* Apply a gate result: move the stage and log the decision and its reason.
   S2R_ERR_STATE (logged as "refused") if the gate is for another stage or
   the policy was rolled back; S2R_ERR_IO if the record cannot be written
   (the stage still moves: safety does not wait for the disk). */
S2RDEF s2r_result s2r_deploy_apply(s2r_deploy* d, const s2r_gate_result* gate);
/* An alarm from the monitor of fleet unit `unit` (-1: fleet-wide):
   roll back or demote, and log it with `detail` (may be NULL).
   S2R_ERR_STATE after a rollback. */
S2RDEF s2r_result s2r_deploy_alarm(s2r_deploy* d, int unit, unsigned alarms, const char* detail);
/* A free-form record: {"seq":..,"policy":..,"event":event,"stage":..,
   "detail":"<printf-formatted>"} (event NULL: "note"; format NULL: an
   empty detail). */
S2RDEF s2r_result s2r_deploy_note(s2r_deploy* d, const char* event, const char* format, ...);


#endif /* SIM2REAL_H */

/* ==========================================================================
   IMPLEMENTATION
   ========================================================================== */
#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#define SIM2REAL_IMPLEMENTATION_DONE

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#if defined(S2R_MALLOC) && defined(S2R_FREE) && defined(S2R_REALLOC)
/* ok: the user supplied all three */
#elif !defined(S2R_MALLOC) && !defined(S2R_FREE) && !defined(S2R_REALLOC)
#define S2R_MALLOC(sz) malloc(sz)
#define S2R_REALLOC(p, sz) realloc(p, sz)
#define S2R_FREE(p) free(p)
#else
#error "Must define all or none of S2R_MALLOC, S2R_FREE, and S2R_REALLOC."
#endif

#ifndef S2R_ASSERT
#include <assert.h>
#define S2R_ASSERT(x) assert(x)
#endif

/* >> section: Core
   Flow: the pieces every other section uses: result names, s2r__fail (the
   one way to report an error), the file writer that commits whole files,
   the RNG streams and the shuffles built on them.  Read s2r__fail first. */

/* --- Core ---------------------------------------------------------------- */

S2RDEF const char* s2r_result_string(s2r_result r) {
    static const char* names[S2R_RESULT_COUNT_] = {
        "S2R_OK", "S2R_ERR_INVALID_ARGUMENT", "S2R_ERR_OUT_OF_MEMORY",
        "S2R_ERR_MODEL", "S2R_ERR_IO", "S2R_ERR_CORRUPT", "S2R_ERR_PARSE",
        "S2R_ERR_DIVERGED", "S2R_ERR_STATE", "S2R_ERR_UNSUPPORTED",
        "S2R_ERR_INTERRUPTED"};
    int i = -(int)r;
    return (i >= 0 && i < S2R_RESULT_COUNT_) ? names[i] : "S2R_ERR_UNKNOWN";
}

/* Write a formatted message into `error` (S2R_ERROR_LEN bytes, may be NULL)
   and return `code`: the one way library code reports a failure. */
static s2r_result s2r__fail(char* error, s2r_result code, const char* fmt, ...) {
    if (error) {
        va_list ap;
        char* c;
        va_start(ap, fmt);
        vsnprintf(error, S2R_ERROR_LEN, fmt, ap);
        va_end(ap);
        for (c = error; *c; c++)   /* bytes quoted from a file or a command line: no control codes */
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    }
    return code;
}

/* FNV-1a 64 of n bytes, continuing from h (start: 0xCBF29CE484222325):
   checksums of checkpoints and states, digests of settings. */
static uint64_t s2r__fnv1a(uint64_t h, const void* data, size_t n) {
    const unsigned char* b = (const unsigned char*)data;
    size_t i;
    for (i = 0; i < n; i++) { h ^= b[i]; h *= 0x100000001B3ull; }
    return h;
}

/* This process's id where there is one (0 elsewhere). */
static unsigned long s2r__process_id(void) {
#if defined(__unix__) || defined(__APPLE__)
    return (unsigned long)getpid();
#else
    return 0;
#endif
}

S2RDEF s2r_result s2r_file_create(s2r_file* file, const char* path, char* error) {
    static unsigned long created;   /* per process: two files to one name differ */
    unsigned long mine;
    size_t n = path ? strlen(path) : 0;
    S2R_ASSERT(file);
    memset(file, 0, sizeof *file);
    if (n == 0) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "no file name given");
    if (n >= S2R_PATH_LEN) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "path longer than %d bytes", S2R_PATH_LEN - 1);
    memcpy(file->path, path, n + 1);
#ifdef _OPENMP
#pragma omp atomic capture
#endif
    mine = ++created;
    snprintf(file->tmp, sizeof file->tmp, "%s.%lu-%lu.tmp", path, s2r__process_id(), mine);
    file->f = fopen(file->tmp, "wb");
    if (!file->f) return s2r__fail(error, S2R_ERR_IO, "cannot create %s: %s", file->tmp, strerror(errno));
    return S2R_OK;
}

S2RDEF void s2r_file_discard(s2r_file* file) {
    S2R_ASSERT(file);
    if (!file->f) return;
    fclose(file->f);
    file->f = NULL;
    remove(file->tmp);
}

S2RDEF s2r_result s2r_file_commit(s2r_file* file, char* error) {
    int ok;
    S2R_ASSERT(file);
    if (!file->f) return s2r__fail(error, S2R_ERR_STATE, "%s: not open", file->path);
    ok = !ferror(file->f);
    ok = (fflush(file->f) == 0) && ok;
    ok = (fclose(file->f) == 0) && ok;
    file->f = NULL;
    if (!ok) {
        remove(file->tmp);
        return s2r__fail(error, S2R_ERR_IO, "cannot write %s (disk full?)", file->path);
    }
    if (rename(file->tmp, file->path) != 0) {
#ifdef _WIN32
        /* Windows will not rename over an existing file. */
        if (remove(file->path) == 0 && rename(file->tmp, file->path) == 0) return S2R_OK;
#endif
        remove(file->tmp);
        return s2r__fail(error, S2R_ERR_IO, "cannot rename %s to %s: %s", file->tmp, file->path, strerror(errno));
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_file_write_all(const char* path, const void* data, size_t n, char* error) {
    if (!data && n > 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_file_write_all: data is NULL");
    s2r_file file;
    s2r_result res = s2r_file_create(&file, path, error);
    if (res != S2R_OK) return res;
    if (n && fwrite(data, 1, n, file.f) != n) {
        s2r_file_discard(&file);
        return s2r__fail(error, S2R_ERR_IO, "cannot write %s", path);
    }
    return s2r_file_commit(&file, error);
}

S2RDEF int s2r_file_exists(const char* path) {
    struct stat st;
    return path && stat(path, &st) == 0;
}

/* Zeroed allocation of `count` items of `size` bytes; NULL on failure. */
static void* s2r__calloc(size_t count, size_t size) {
    size_t bytes = count * size;
    void* p;
    if (size != 0 && bytes / size != count) return NULL;
    p = S2R_MALLOC(bytes ? bytes : 1);
    if (p) memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* count zeroed elements of `size` bytes in one block, each starting a
   cache line of its own: *stride gets the bytes between elements (size
   rounded up to whole lines of S2R_CACHE_LINE), *raw what to free.  Blocks
   that threads write in parallel are laid out so, and no two threads ever
   write one line (false sharing). */
static void* s2r__calloc_lines(size_t count, size_t size, size_t* stride, void** raw) {
    *stride = (size + S2R_CACHE_LINE - 1) / S2R_CACHE_LINE * S2R_CACHE_LINE;
    if (count > ((size_t)-1 - S2R_CACHE_LINE) / (*stride ? *stride : 1)) return *raw = NULL;
    if (!(*raw = s2r__calloc(count * *stride + S2R_CACHE_LINE, 1))) return NULL;
    return (unsigned char*)*raw + (S2R_CACHE_LINE - (uintptr_t)*raw % S2R_CACHE_LINE) % S2R_CACHE_LINE;
}

static uint64_t s2r__splitmix64(uint64_t* x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t s2r__rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

S2RDEF s2r_rng s2r_rng_make(uint64_t seed, uint64_t stream) {
    s2r_rng rng;
    uint64_t x = seed ^ s2r__splitmix64(&stream);
    int i;
    for (i = 0; i < 4; i++) rng.s[i] = s2r__splitmix64(&x);
    return rng;
}

S2RDEF uint64_t s2r_rng_u64(s2r_rng* rng) {
    S2R_ASSERT(rng);
    uint64_t* s = rng->s;
    uint64_t result = s2r__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s2r__rotl(s[3], 45);
    return result;
}

S2RDEF double s2r_rng_uniform(s2r_rng* rng) {
    S2R_ASSERT(rng);
    return (double)(s2r_rng_u64(rng) >> 11) * (1.0 / 9007199254740992.0);
}

S2RDEF double s2r_rng_range(s2r_rng* rng, double lo, double hi) {
    S2R_ASSERT(rng);
    return lo + (hi - lo) * s2r_rng_uniform(rng);
}

S2RDEF double s2r_rng_normal(s2r_rng* rng) {
    S2R_ASSERT(rng);
    /* Box-Muller; one draw per call so the stream position never depends on
       a cached spare. */
    double u1 = 1.0 - s2r_rng_uniform(rng); /* (0, 1] */
    double u2 = s2r_rng_uniform(rng);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

S2RDEF int s2r_rng_int(s2r_rng* rng, int n) {
    S2R_ASSERT(rng);
    S2R_ASSERT(n > 0);
    return (int)(s2r_rng_u64(rng) % (uint64_t)n);
}

S2RDEF s2r_rng s2r_rng_split(s2r_rng* parent, uint64_t index) {
    S2R_ASSERT(parent);
    return s2r_rng_make(s2r_rng_u64(parent), index);
}

/* idx [n] = 0, 1, ..., n - 1. */
static void s2r__iota(int* idx, int n) {
    int i;
    for (i = 0; i < n; i++) idx[i] = i;
}

/* Fisher-Yates shuffle of idx [n] in place (the learners' minibatches). */
static void s2r__shuffle(int* idx, int n, s2r_rng* rng) {
    int i;
    for (i = n - 1; i > 0; i--) {
        int j = s2r_rng_int(rng, i + 1), tmp = idx[i];
        idx[i] = idx[j];
        idx[j] = tmp;
    }
}

S2RDEF int s2r_all_finite(const double* x, int n) {
    S2R_ASSERT(x || n <= 0);
    int i;
    for (i = 0; i < n; i++) if (!isfinite(x[i])) return 0;
    return 1;
}

S2RDEF int s2r_all_finite_f(const float* x, int n) {
    S2R_ASSERT(x || n <= 0);
    int i;
    for (i = 0; i < n; i++) if (!isfinite(x[i])) return 0;
    return 1;
}

S2RDEF double s2r_clamp(double x, double lo, double hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

/* >> section: Robots
   Flow: the embedded UR5e and Panda MJCF, then loading a robot (s2r_robot_load:
   parse, find joints, actuators and sites, record the nominal model), the
   guard around MuJoCo's fatal errors, reset and forward kinematics. */

/* --- Robots ---------------------------------------------------------------- */

/* UR5e.  Kinematics and inertia: MuJoCo Menagerie universal_robots_ur5e
   (world frame = UR's DH base frame); servos kp 2000 / kv 400 on joints 1-3
   (+-150 N·m) and kp 500 / kv 100 on joints 4-6 (+-28 N·m) as there; joint
   speed pi rad/s and torque limits from the UR5e manual (ros-industrial
   ur_description).  Check: flange at q = 0 is (-.817, -.234, .063). */
static const char* const s2r__mjcf_ur5e[] = {
    "<mujoco model='ur5e'>",
    "  <compiler angle='radian' autolimits='true'/>",
    "  <option timestep='0.002' integrator='implicit'/>",
    "  <custom>",
    "    <numeric name='s2r_velocity_limit' data='3.1416 3.1416 3.1416 3.1416 3.1416 3.1416'/>",
    "    <numeric name='s2r_workspace' data='-0.30 0.35 0.25 0.05 0.60 0.50'/>",
    "  </custom>",
    "  <default>",
    "    <joint axis='0 1 0' range='-6.2832 6.2832' armature='0.1' damping='0' frictionloss='0'/>",
    "    <geom type='capsule' contype='0' conaffinity='0' rgba='0.7 0.72 0.75 1' friction='1 0.005 0.0001'/>",
    "    <general gaintype='fixed' biastype='affine' ctrlrange='-6.2832 6.2832'/>",
    "    <default class='big'>",
    "      <general gainprm='2000' biasprm='0 -2000 -400' forcerange='-150 150'/>",
    "    </default>",
    "    <default class='small'>",
    "      <general gainprm='500' biasprm='0 -500 -100' forcerange='-28 28'/>",
    "    </default>",
    "  </default>",
    "  <worldbody>",
    "    <light pos='0 0 3' dir='0 0 -1' directional='true'/>",
    "    <geom name='floor' type='plane' size='2 2 0.05' rgba='0.85 0.85 0.85 1' contype='1' conaffinity='1'/>",
    "    <body name='base' quat='0 0 0 -1'>",
    "      <inertial mass='4.0' pos='0 0 0' diaginertia='0.00443333 0.00443333 0.0072'/>",
    "      <geom type='cylinder' size='0.075 0.045' pos='0 0 0.045' contype='0' conaffinity='0' rgba='0.2 0.2 0.22 1'/>",
    "      <body name='shoulder_link' pos='0 0 0.163'>",
    "        <inertial mass='3.7' pos='0 0 0' diaginertia='0.0102675 0.0102675 0.00666'/>",
    "        <joint name='shoulder_pan' axis='0 0 1'/>",
    "        <geom size='0.06 0.06' pos='0 0 0'/>",
    "        <body name='upper_arm_link' pos='0 0.138 0' quat='1 0 1 0'>",
    "          <inertial mass='8.393' pos='0 0 0.2125' diaginertia='0.133886 0.133886 0.0151074'/>",
    "          <joint name='shoulder_lift'/>",
    "          <geom size='0.06 0.06' quat='1 1 0 0'/>",
    "          <geom size='0.05 0.2' pos='0 0 0.2125'/>",
    "          <body name='forearm_link' pos='0 -0.131 0.425'>",
    "            <inertial mass='2.275' pos='0 0 0.196' diaginertia='0.0311796 0.0311796 0.004095'/>",
    "            <joint name='elbow' range='-3.1416 3.1416'/>",
    "            <geom size='0.055 0.06' quat='1 1 0 0'/>",
    "            <geom size='0.038 0.19' pos='0 0 0.2'/>",
    "            <body name='wrist_1_link' pos='0 0 0.392' quat='1 0 1 0'>",
    "              <inertial mass='1.219' pos='0 0.127 0' diaginertia='0.0025599 0.0025599 0.0021942'/>",
    "              <joint name='wrist_1'/>",
    "              <geom size='0.04 0.07' pos='0 0.127 0' quat='1 1 0 0'/>",
    "              <body name='wrist_2_link' pos='0 0.127 0'>",
    "                <inertial mass='1.219' pos='0 0 0.1' diaginertia='0.0025599 0.0025599 0.0021942'/>",
    "                <joint name='wrist_2' axis='0 0 1'/>",
    "                <geom size='0.04 0.06' pos='0 0 0.1'/>",
    "                <body name='wrist_3_link' pos='0 0 0.1'>",
    "                  <inertial mass='0.1889' pos='0 0.0771683 0' diaginertia='0.000132 0.0000991 0.0000991'/>",
    "                  <joint name='wrist_3'/>",
    "                  <geom type='cylinder' size='0.04 0.02' pos='0 0.08 0' quat='1 1 0 0' rgba='0.2 0.2 0.22 1'/>",
    "                  <site name='flange' pos='0 0.1 0' size='0.01'/>",
    "                </body>",
    "              </body>",
    "            </body>",
    "          </body>",
    "        </body>",
    "      </body>",
    "    </body>",
    "    <body name='target' mocap='true' pos='0 0.5 0.4'>",
    "      <geom type='sphere' size='0.02' contype='0' conaffinity='0' mass='0' rgba='0.9 0.2 0.2 0.6'/>",
    "    </body>",
    "  </worldbody>",
    "  <actuator>",
    "    <general name='shoulder_pan' joint='shoulder_pan' class='big'/>",
    "    <general name='shoulder_lift' joint='shoulder_lift' class='big'/>",
    "    <general name='elbow' joint='elbow' class='big' ctrlrange='-3.1416 3.1416'/>",
    "    <general name='wrist_1' joint='wrist_1' class='small'/>",
    "    <general name='wrist_2' joint='wrist_2' class='small'/>",
    "    <general name='wrist_3' joint='wrist_3' class='small'/>",
    "  </actuator>",
    "  <keyframe>",
    "    <key name='home' qpos='-1.5708 -1.5708 1.5708 -1.5708 -1.5708 0' ctrl='-1.5708 -1.5708 1.5708 -1.5708 -1.5708 0'/>",
    "  </keyframe>",
    "</mujoco>",
    NULL};

/* Franka Emika Panda with its hand (fingers fixed; the hand is the flange).
   Kinematics: Franka's modified DH table; inertia: Gaz et al., RA-L 2019, as
   in MuJoCo Menagerie franka_emika_panda; servos as there (kp 4500/3500/2000,
   kv 450/350/200; +-87 N·m on joints 1-4, +-12 N·m on 5-7); joint speed
   limits from Franka's control parameters.  Check: hand at q = 0 is at
   (.088, 0, .926). */
static const char* const s2r__mjcf_panda[] = {
    "<mujoco model='panda'>",
    "  <compiler angle='radian' autolimits='true'/>",
    "  <option timestep='0.002' integrator='implicit'/>",
    "  <custom>",
    "    <numeric name='s2r_velocity_limit' data='2.175 2.175 2.175 2.175 2.61 2.61 2.61'/>",
    "    <numeric name='s2r_workspace' data='0.40 -0.20 0.30 0.65 0.20 0.60'/>",
    "  </custom>",
    "  <default>",
    "    <joint axis='0 0 1' armature='0.1' damping='1' frictionloss='0'/>",
    "    <geom type='capsule' contype='0' conaffinity='0' rgba='0.95 0.95 0.95 1' friction='1 0.005 0.0001'/>",
    "    <general gaintype='fixed' biastype='affine'/>",
    "    <default class='j12'><general gainprm='4500' biasprm='0 -4500 -450' forcerange='-87 87'/></default>",
    "    <default class='j34'><general gainprm='3500' biasprm='0 -3500 -350' forcerange='-87 87'/></default>",
    "    <default class='j567'><general gainprm='2000' biasprm='0 -2000 -200' forcerange='-12 12'/></default>",
    "  </default>",
    "  <worldbody>",
    "    <light pos='0 0 3' dir='0 0 -1' directional='true'/>",
    "    <geom name='floor' type='plane' size='2 2 0.05' rgba='0.85 0.85 0.85 1' contype='1' conaffinity='1'/>",
    "    <body name='link0'>",
    "      <inertial mass='0.629769' pos='-0.041018 -0.00014 0.049974' fullinertia='0.00315 0.00388 0.004285 8.29e-7 0.00015 8.23e-6'/>",
    "      <geom type='cylinder' size='0.07 0.07' pos='0 0 0.07' contype='0' conaffinity='0'/>",
    "      <body name='link1' pos='0 0 0.333'>",
    "        <inertial mass='4.970684' pos='0.003875 0.002081 -0.04762' fullinertia='0.70337 0.70661 0.009117 -0.000139 0.006772 0.019169'/>",
    "        <joint name='joint1' range='-2.8973 2.8973'/>",
    "        <geom size='0.06 0.08' pos='0 0 -0.1'/>",
    "        <body name='link2' quat='1 -1 0 0'>",
    "          <inertial mass='0.646926' pos='-0.003141 -0.02872 0.003495' fullinertia='0.007962 0.02811 0.025995 -0.003925 0.010254 0.000704'/>",
    "          <joint name='joint2' range='-1.7628 1.7628'/>",
    "          <geom size='0.06 0.06'/>",
    "          <geom size='0.06 0.08' pos='0 -0.16 0' quat='1 1 0 0'/>",
    "          <body name='link3' pos='0 -0.316 0' quat='1 1 0 0'>",
    "            <inertial mass='3.228604' pos='0.027518 0.039252 -0.066502' fullinertia='0.037242 0.036155 0.01083 -0.004761 -0.011396 -0.012805'/>",
    "            <joint name='joint3' range='-2.8973 2.8973'/>",
    "            <geom size='0.06 0.06' pos='0 0 -0.07'/>",
    "            <body name='link4' pos='0.0825 0 0' quat='1 1 0 0'>",
    "              <inertial mass='3.587895' pos='-0.05317 0.104419 0.027454' fullinertia='0.025853 0.019552 0.028323 0.007796 -0.001332 0.008641'/>",
    "              <joint name='joint4' range='-3.0718 -0.0698'/>",
    "              <geom size='0.06 0.06'/>",
    "              <geom size='0.055 0.08' pos='-0.0825 0.15 0' quat='1 1 0 0'/>",
    "              <body name='link5' pos='-0.0825 0.384 0' quat='1 -1 0 0'>",
    "                <inertial mass='1.225946' pos='-0.011953 0.041065 -0.038437' fullinertia='0.035549 0.029474 0.008627 -0.002117 -0.004037 0.000229'/>",
    "                <joint name='joint5' range='-2.8973 2.8973'/>",
    "                <geom size='0.05 0.1' pos='0 0 -0.13'/>",
    "                <body name='link6' quat='1 1 0 0'>",
    "                  <inertial mass='1.666555' pos='0.060149 -0.014117 -0.010517' fullinertia='0.001964 0.004354 0.005433 0.000109 -0.001158 0.000341'/>",
    "                  <joint name='joint6' range='-0.0175 3.7525'/>",
    "                  <geom size='0.05 0.04'/>",
    "                  <body name='link7' pos='0.088 0 0' quat='1 1 0 0'>",
    "                    <inertial mass='0.735522' pos='0.010517 -0.004252 0.061597' fullinertia='0.012516 0.010027 0.004815 -0.000428 -0.001196 -0.000741'/>",
    "                    <joint name='joint7' range='-2.8973 2.8973'/>",
    "                    <geom type='cylinder' size='0.045 0.03' pos='0 0 0.07'/>",
    "                    <body name='hand' pos='0 0 0.107' quat='0.9238795 0 0 -0.3826834'>",
    "                      <inertial mass='0.73' pos='-0.01 0 0.03' diaginertia='0.001 0.0025 0.0017'/>",
    "                      <geom type='box' size='0.03 0.1 0.025' pos='0 0 0.03'/>",
    "                      <site name='flange' size='0.01'/>",
    "                      <body name='left_finger' pos='0 0 0.0584'>",
    "                        <inertial mass='0.015' pos='0 0 0' diaginertia='2.375e-6 2.375e-6 7.5e-7'/>",
    "                        <geom type='box' size='0.01 0.01 0.025' pos='0 0.02 0.025'/>",
    "                      </body>",
    "                      <body name='right_finger' pos='0 0 0.0584'>",
    "                        <inertial mass='0.015' pos='0 0 0' diaginertia='2.375e-6 2.375e-6 7.5e-7'/>",
    "                        <geom type='box' size='0.01 0.01 0.025' pos='0 -0.02 0.025'/>",
    "                      </body>",
    "                    </body>",
    "                  </body>",
    "                </body>",
    "              </body>",
    "            </body>",
    "          </body>",
    "        </body>",
    "      </body>",
    "    </body>",
    "    <body name='target' mocap='true' pos='0.5 0 0.4'>",
    "      <geom type='sphere' size='0.02' mass='0' contype='0' conaffinity='0' rgba='0.9 0.2 0.2 0.6'/>",
    "    </body>",
    "  </worldbody>",
    "  <actuator>",
    "    <general name='joint1' joint='joint1' class='j12' ctrlrange='-2.8973 2.8973'/>",
    "    <general name='joint2' joint='joint2' class='j12' ctrlrange='-1.7628 1.7628'/>",
    "    <general name='joint3' joint='joint3' class='j34' ctrlrange='-2.8973 2.8973'/>",
    "    <general name='joint4' joint='joint4' class='j34' ctrlrange='-3.0718 -0.0698'/>",
    "    <general name='joint5' joint='joint5' class='j567' ctrlrange='-2.8973 2.8973'/>",
    "    <general name='joint6' joint='joint6' class='j567' ctrlrange='-0.0175 3.7525'/>",
    "    <general name='joint7' joint='joint7' class='j567' ctrlrange='-2.8973 2.8973'/>",
    "  </actuator>",
    "  <keyframe>",
    "    <key name='home' qpos='0 0 0 -1.57079 0 1.57079 -0.7853' ctrl='0 0 0 -1.57079 0 1.57079 -0.7853'/>",
    "  </keyframe>",
    "</mujoco>",
    NULL};

/* The push scene's parts for each built-in arm (see the Robots banner):
   the pusher, written into the flange's body; the table, object and
   their contacts.  The UR5e's tool axis is its last link's y axis, so the
   tip site is turned to make its z axis the tool axis; the Panda's is the
   hand's z axis.  The push area is where the tip reaches the table top
   with the tool vertical and room to get behind the object; the table is
   centred on it. */
typedef struct s2r__push_scene {
    const char* tip;            /* lines after the flange site           */
    double      area_lo[2], area_hi[2];   /* m, s2r_push_area            */
} s2r__push_scene;

static const s2r__push_scene s2r__push_scenes[2] = {
    {"<site name='tip' pos='0 0.22 0' quat='0.7071068 -0.7071068 0 0' size='0.012'/>\n"
     "<geom name='pusher_rod' type='capsule' fromto='0 0.1 0 0 0.208 0' size='0.008' rgba='0.3 0.3 0.32 1'/>\n"
     "<geom name='tip' type='sphere' pos='0 0.22 0' size='0.012' rgba='0.95 0.6 0.1 1'/>\n",
     {-0.275, 0.38}, {0.025, 0.62}},
    {"<site name='tip' pos='0 0 0.13' size='0.012'/>\n"
     "<geom name='pusher_rod' type='capsule' fromto='0 0 0.06 0 0 0.118' size='0.008' rgba='0.3 0.3 0.32 1'/>\n"
     "<geom name='tip' type='sphere' pos='0 0 0.13' size='0.012' rgba='0.95 0.6 0.1 1'/>\n",
     {0.38, -0.15}, {0.62, 0.15}}};

/* Table, object and contacts: where the lines go and what they say. */
#define S2R__PUSH_OPTION "  <option timestep='0.004' integrator='implicit'/>"
#define S2R__PUSH_FLOOR "    <geom name='floor' type='plane' pos='0 0 -0.05' size='2 2 0.05' rgba='0.85 0.85 0.85 1' contype='1' conaffinity='1'/>"
#define S2R__PUSH_OBJECT_Z 0.026   /* m, the object's centre at rest: half its height + the table's 1 mm lift */

static size_t s2r__mjcf_emit(char* buf, size_t cap, size_t len, const char* text, size_t n) {
    if (buf && len + n < cap) memcpy(buf + len, text, n);
    return len + n;
}

static const char* const* s2r__builtin_mjcf(s2r_robot_kind kind) {
    if (kind == S2R_ROBOT_UR5E) return s2r__mjcf_ur5e;
    if (kind == S2R_ROBOT_PANDA) return s2r__mjcf_panda;
    return NULL;
}

static const char* const s2r__robot_kind_names[S2R_ROBOT_COUNT] = {"ur5e", "panda", "custom"};

S2RDEF const char* s2r_robot_kind_name(s2r_robot_kind kind) {
    return (kind >= 0 && kind < S2R_ROBOT_COUNT) ? s2r__robot_kind_names[kind] : "unknown";
}

S2RDEF s2r_robot_kind s2r_robot_kind_find(const char* name) {
    int k;
    for (k = 0; name && k < S2R_ROBOT_COUNT; k++)
        if (strcmp(name, s2r__robot_kind_names[k]) == 0) return (s2r_robot_kind)k;
    return S2R_ROBOT_COUNT;
}

S2RDEF size_t s2r_robot_mjcf(s2r_robot_kind kind, char* buf, size_t cap) {
    return s2r_robot_scene_mjcf(kind, S2R_SCENE_ARM, buf, cap);
}

static const char* const s2r__scene_names[S2R_SCENE_COUNT] = {"arm", "push"};

S2RDEF const char* s2r_scene_name(s2r_scene scene) {
    return (scene >= 0 && scene < S2R_SCENE_COUNT) ? s2r__scene_names[scene] : "unknown";
}

/* The table (lifted 1 mm above the floor it would otherwise z-fight with
   in pictures; the object rests on it), the object, and the contacts. */
static size_t s2r__push_world(const s2r__push_scene* ps, char* buf, size_t cap, size_t len, int part) {
    char text[1024];
    double cx = 0.5 * (ps->area_lo[0] + ps->area_hi[0]), cy = 0.5 * (ps->area_lo[1] + ps->area_hi[1]);
    int n;
    if (part == 0)
        n = snprintf(text, sizeof text,
                     "<geom name='table' type='plane' pos='%g %g 0.001' size='0.3 0.3 0.01' rgba='0.55 0.42 0.3 1'/>\n"
                     "<body name='object' pos='%g %g %g'>\n"
                     "  <joint name='object' type='free' damping='0.01' armature='0' frictionloss='0'/>\n"
                     "  <geom name='object' type='cylinder' size='0.035 0.025' mass='0.2' rgba='0.15 0.35 0.8 1'/>\n"
                     "</body>\n", cx, cy, cx, cy, S2R__PUSH_OBJECT_Z);
    else if (part == 1)
        n = snprintf(text, sizeof text,
                     "<contact>\n"
                     "  <pair geom1='object' geom2='table' condim='3' friction='0.3 0.3 0.005 0.0001 0.0001'/>\n"
                     "  <pair geom1='tip' geom2='object' condim='3' friction='0.5 0.5 0.005 0.0001 0.0001'/>\n"
                     "  <pair geom1='tip' geom2='table' condim='3' friction='0.5 0.5 0.005 0.0001 0.0001'/>\n"
                     "</contact>\n"
                     "<custom><numeric name='s2r_push_area' data='%g %g %g %g'/></custom>\n",
                     ps->area_lo[0], ps->area_lo[1], ps->area_hi[0], ps->area_hi[1]);
    else   /* the object's rest pose in the home keyframe */
        n = snprintf(text, sizeof text, " %g %g %g 1 0 0 0", cx, cy, S2R__PUSH_OBJECT_Z);
    return s2r__mjcf_emit(buf, cap, len, text, (size_t)n);
}

S2RDEF size_t s2r_robot_scene_mjcf(s2r_robot_kind kind, s2r_scene scene, char* buf, size_t cap) {
    const char* const* line = s2r__builtin_mjcf(kind);
    const s2r__push_scene* ps = scene == S2R_SCENE_PUSH && line ? &s2r__push_scenes[kind] : NULL;
    size_t len = 0;
    if (!line || (int)scene < 0 || scene >= S2R_SCENE_COUNT) return 0;
    for (; *line; line++) {
        const char* key = ps ? strstr(*line, "qpos='") : NULL;
        size_t n = strlen(*line);
        if (ps && strstr(*line, "</worldbody>")) len = s2r__push_world(ps, buf, cap, len, 0);
        if (ps && strstr(*line, "<option timestep=")) {   /* contacts: 4 ms, see the Robots banner */
            len = s2r__mjcf_emit(buf, cap, len, S2R__PUSH_OPTION "\n", sizeof S2R__PUSH_OPTION);
            continue;
        }
        if (ps && strstr(*line, "<geom name='floor'")) {   /* drawn only: below any table height a unit has */
            len = s2r__mjcf_emit(buf, cap, len, S2R__PUSH_FLOOR "\n", sizeof S2R__PUSH_FLOOR);
            continue;
        }
        if (key && strstr(*line, "<key ")) {   /* the object joins the keyframe's qpos */
            size_t head = (size_t)(strchr(key + 6, '\'') - *line);
            len = s2r__mjcf_emit(buf, cap, len, *line, head);
            len = s2r__push_world(ps, buf, cap, len, 2);
            len = s2r__mjcf_emit(buf, cap, len, *line + head, n - head);
        } else {
            len = s2r__mjcf_emit(buf, cap, len, *line, n);
        }
        len = s2r__mjcf_emit(buf, cap, len, "\n", 1);
        if (ps && strstr(*line, "<site name='flange'")) len = s2r__mjcf_emit(buf, cap, len, ps->tip, strlen(ps->tip));
        if (ps && strstr(*line, "</worldbody>")) len = s2r__push_world(ps, buf, cap, len, 1);
    }
    if (buf && cap > 0) buf[len < cap ? len : cap - 1] = '\0';
    return len;
}

/* --- MuJoCo's fatal errors (see Errors in the manual) ----------------------
   s2r__mj_run(call, arg, error) runs call(arg) with this thread's guard set;
   an mju_error inside jumps back here with MuJoCo's message. */
#if defined(_MSC_VER)
#define S2R__THREAD_LOCAL __declspec(thread)
#elif defined(__GNUC__) || defined(__clang__)
#define S2R__THREAD_LOCAL __thread
#else
#define S2R__THREAD_LOCAL   /* one thread at a time */
#endif

typedef struct s2r__mj_guard {
    jmp_buf                jump;
    struct s2r__mj_guard*  outer;              /* the guard this one is inside */
    char                   message[S2R_ERROR_LEN];
} s2r__mj_guard;

static S2R__THREAD_LOCAL s2r__mj_guard* s2r__mj_current;

static void s2r__mj_error(const char* message) {
    s2r__mj_guard* g = s2r__mj_current;
    if (!g) {   /* not the library's call: say it, and let MuJoCo go on */
        fprintf(stderr, "MuJoCo error: %s\n", message);
        return;
    }
    snprintf(g->message, sizeof g->message, "%s", message);
    longjmp(g->jump, 1);
}

/* A MuJoCo warning goes to stderr, not to MUJOCO_LOG.TXT in the current
   folder (MuJoCo's default). */
static void s2r__mj_warning(const char* message) { fprintf(stderr, "MuJoCo warning: %s\n", message); }

typedef void (*s2r__mj_call)(void* arg);

static s2r_result s2r__mj_run(s2r__mj_call call, void* arg, char* error) {
    s2r__mj_guard guard;
    if (!mju_user_error) mju_user_error = s2r__mj_error;
    if (!mju_user_warning) mju_user_warning = s2r__mj_warning;
    guard.outer = s2r__mj_current;
    guard.message[0] = '\0';
    s2r__mj_current = &guard;
    if (setjmp(guard.jump) == 0) {
        call(arg);
        s2r__mj_current = guard.outer;
        return S2R_OK;
    }
    s2r__mj_current = guard.outer;
    return s2r__fail(error, S2R_ERR_MODEL, "MuJoCo: %s", guard.message);
}

/* The guarded calls' arguments and bodies. */
typedef struct s2r__mj_load {
    const char* file;       /* a path, or the name in vfs                     */
    const mjVFS* vfs;       /* NULL: read the file                            */
    char*       error;      /* MuJoCo's message when it refuses the model    */
    mjModel*    model;      /* out                                            */
} s2r__mj_load;

static void s2r__mj_load_call(void* arg) {
    s2r__mj_load* a = (s2r__mj_load*)arg;
    a->model = mj_loadXML(a->file, a->vfs, a->error, S2R_ERROR_LEN);
}

static mjModel* s2r__load_xml(const char* file, const mjVFS* vfs, char* error) {
    s2r__mj_load a;
    a.file = file;
    a.vfs = vfs;
    a.error = error;
    a.model = NULL;
    return s2r__mj_run(s2r__mj_load_call, &a, error) == S2R_OK ? a.model : NULL;
}

typedef struct s2r__mj_physics {
    const mjModel* m;
    mjData*        d;
} s2r__mj_physics;

static void s2r__mj_make_data_call(void* arg) {
    s2r__mj_physics* a = (s2r__mj_physics*)arg;
    a->d = mj_makeData(a->m);
}

static void s2r__mj_step_call(void* arg) {
    s2r__mj_physics* a = (s2r__mj_physics*)arg;
    mj_step(a->m, a->d);
}

static void s2r__mj_forward_call(void* arg) {
    s2r__mj_physics* a = (s2r__mj_physics*)arg;
    mj_forward(a->m, a->d);
}

/* The one place that knows how MuJoCo reads a model from memory: 2.x fills a
   pre-sized VFS slot, 3.x copies a buffer in with mj_addBufferVFS. */
static mjModel* s2r__load_xml_string(const char* xml, char* error) {
    mjModel* model = NULL;
    int len = (int)strlen(xml);
    if (len == 0) {   /* MuJoCo 2.2.2 would end the process over an empty VFS file */
        s2r__fail(error, S2R_ERR_MODEL, "MJCF text is empty");
        return NULL;
    }
#if mjVERSION_HEADER >= 300
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    if (mj_addBufferVFS(&vfs, "model.xml", xml, len) == 0)
        model = s2r__load_xml("model.xml", &vfs, error);
    else
        s2r__fail(error, S2R_ERR_MODEL, "could not place the MJCF in MuJoCo's VFS");
    mj_deleteVFS(&vfs);
#else
    mjVFS* vfs = (mjVFS*)S2R_MALLOC(sizeof(mjVFS)); /* ~2 MB: never on the stack */
    if (!vfs) { s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the VFS"); return NULL; }
    mj_defaultVFS(vfs);
    if (mj_makeEmptyFileVFS(vfs, "model.xml", len) == 0) {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, "model.xml")], xml, (size_t)len);
        model = s2r__load_xml("model.xml", vfs, error);
    } else {
        s2r__fail(error, S2R_ERR_MODEL, "could not place the MJCF in MuJoCo's VFS");
    }
    mj_deleteVFS(vfs);
    S2R_FREE(vfs);
#endif
    return model;
}

/* Read a <numeric> custom field of exactly `n` values: 1, or 0 if absent;
   -1 with a message in error if it holds another number of values (a
   convention half followed is refused, not replaced by the default). */
static int s2r__custom_numeric(const mjModel* m, const char* name, double* out, int n, char* error) {
    int id = mj_name2id(m, mjOBJ_NUMERIC, name), i;
    if (id < 0) return 0;
    if (m->numeric_size[id] != n) {
        s2r__fail(error, S2R_ERR_MODEL, "<numeric name='%s'> holds %d values; it needs %d", name, m->numeric_size[id], n);
        return -1;
    }
    for (i = 0; i < n; i++) out[i] = m->numeric_data[m->numeric_adr[id] + i];
    return 1;
}

/* Find the arm joints through the actuators and check the conventions. */
static s2r_result s2r__robot_index_joints(s2r_robot* r) {
    const mjModel* m = r->model;
    s2r_arm_info* info = &r->info;
    int a, b, j;
    if (m->nu < 1 || m->nu > S2R_MAX_JOINTS)
        return s2r__fail(r->error, S2R_ERR_MODEL, "the model has %d actuators; need 1..%d, one per arm joint", m->nu, S2R_MAX_JOINTS);
    for (a = 0; a < m->nu; a++) {
        const char* name;
        j = m->actuator_trnid[2 * a];
        name = mj_id2name(m, mjOBJ_JOINT, j);
        if (m->actuator_trntype[a] != mjTRN_JOINT || m->jnt_type[j] != mjJNT_HINGE)
            return s2r__fail(r->error, S2R_ERR_MODEL, "actuator %d does not drive a hinge joint", a);
        for (b = 0; b < a; b++)
            if (m->actuator_trnid[2 * b] == j)
                return s2r__fail(r->error, S2R_ERR_MODEL, "actuators %d and %d both drive joint '%s'; each arm joint needs "
                                 "one of its own", b, a, name ? name : "?");
        if (!m->jnt_limited[j] || !m->actuator_forcelimited[a])
            return s2r__fail(r->error, S2R_ERR_MODEL, "joint '%s' needs a range and its actuator a forcerange", name ? name : "?");
        if (m->actuator_biastype[a] != mjBIAS_AFFINE)
            return s2r__fail(r->error, S2R_ERR_MODEL, "actuator %d is not a position servo (biastype affine)", a);
        if (!isfinite(m->jnt_range[2 * j]) || !isfinite(m->jnt_range[2 * j + 1]) || !(m->jnt_range[2 * j] < m->jnt_range[2 * j + 1]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "joint '%s': range [%g, %g] is not a finite interval (lo < hi)",
                             name ? name : "?", m->jnt_range[2 * j], m->jnt_range[2 * j + 1]);
        if (!(m->actuator_forcerange[2 * a + 1] > 0) || !isfinite(m->actuator_forcerange[2 * a + 1]) ||
            !(m->actuator_gainprm[a * mjNGAIN] > 0) || !isfinite(m->actuator_gainprm[a * mjNGAIN]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "actuator %d: forcerange and gain must be finite and > 0", a);
        r->qpos_adr[a] = m->jnt_qposadr[j];
        r->dof_adr[a] = m->jnt_dofadr[j];
        r->actuator[a] = a;
        r->body[a] = m->jnt_bodyid[j];
        snprintf(info->joint_name[a], sizeof info->joint_name[a], "%s", name ? name : "");
        info->q_min[a] = m->jnt_range[2 * j];
        info->q_max[a] = m->jnt_range[2 * j + 1];
        info->torque_limit[a] = m->actuator_forcerange[2 * a + 1];
        info->kp[a] = m->actuator_gainprm[a * mjNGAIN];
        info->kv[a] = -m->actuator_biasprm[a * mjNBIAS + 2];
        info->link_mass[a] = m->body_mass[r->body[a]];
        info->velocity_limit[a] = 3.141592653589793;
    }
    for (j = 0; j < m->njnt; j++) {   /* a joint no servo drives: the policy could not move it */
        const char* name = mj_id2name(m, mjOBJ_JOINT, j);
        for (a = 0; a < m->nu && m->actuator_trnid[2 * a] != j; a++) {}
        if (a == m->nu && m->jnt_type[j] != mjJNT_FREE)
            return s2r__fail(r->error, S2R_ERR_MODEL, "joint '%s' is driven by no actuator (%d joints, %d actuators); every "
                             "joint but an object's free joint is an arm joint with its own position servo",
                             name ? name : "?", m->njnt, m->nu);
    }
    info->n_joints = m->nu;
    return S2R_OK;
}

/* Flange, target, home, limits, masses and workspace. */
static s2r_result s2r__robot_index_rest(s2r_robot* r) {
    const mjModel* m = r->model;
    s2r_arm_info* info = &r->info;
    int n = info->n_joints, target_body, key, b, j, k;
    double flange[3];
    r->flange_site = mj_name2id(m, mjOBJ_SITE, "flange");
    if (r->flange_site < 0) return s2r__fail(r->error, S2R_ERR_MODEL, "the model has no site named 'flange'");
    r->flange_body = m->site_bodyid[r->flange_site];
    target_body = mj_name2id(m, mjOBJ_BODY, "target");
    r->target_mocap = target_body >= 0 ? m->body_mocapid[target_body] : -1;
    key = mj_name2id(m, mjOBJ_KEY, "home");
    for (j = 0; j < n; j++) {
        info->q_home[j] = key >= 0 ? m->key_qpos[key * m->nq + r->qpos_adr[j]] : 0.0;
        if (!(info->q_home[j] >= info->q_min[j] && info->q_home[j] <= info->q_max[j]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "%s: joint '%s' at %g rad is outside its range [%g, %g]",
                             key >= 0 ? "keyframe 'home'" : "home (no keyframe 'home': every joint at 0)", info->joint_name[j],
                             info->q_home[j], info->q_min[j], info->q_max[j]);
    }
    if (s2r__custom_numeric(m, "s2r_velocity_limit", info->velocity_limit, n, r->error) < 0) return S2R_ERR_MODEL;
    for (j = 0; j < n; j++)
        if (!(info->velocity_limit[j] > 0) || !isfinite(info->velocity_limit[j]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "s2r_velocity_limit of joint %d is %g: need a finite speed > 0 rad/s", j + 1,
                             info->velocity_limit[j]);
    info->total_mass = 0;
    for (b = 1; b < m->nbody; b++) {
        if (!(m->body_mass[b] <= S2R_BODY_MASS_MAX))
            return s2r__fail(r->error, S2R_ERR_MODEL, "body '%s' has a mass of %g kg; at most %g kg",
                             mj_id2name(m, mjOBJ_BODY, b) ? mj_id2name(m, mjOBJ_BODY, b) : "?", m->body_mass[b], S2R_BODY_MASS_MAX);
        if (m->body_mocapid[b] < 0) info->total_mass += m->body_mass[b];
    }
    if ((k = s2r__custom_numeric(m, "s2r_workspace", info->workspace_lo, 6, r->error)) < 0) return S2R_ERR_MODEL;
    if (k == 0) {
        s2r_flange_fk(m, r->data, r->flange_site, info->q_home, n, flange);
        for (j = 0; j < 3; j++) {
            info->workspace_lo[j] = flange[j] - 0.15 - (j == 2 ? 0.1 : 0.0);
            info->workspace_hi[j] = flange[j] + 0.15 - (j == 2 ? 0.1 : 0.0);
        }
    }
    for (j = 0; j < 3; j++)
        if (!isfinite(info->workspace_lo[j]) || !isfinite(info->workspace_hi[j]) || !(info->workspace_lo[j] <= info->workspace_hi[j]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "s2r_workspace: axis %c runs from %g to %g m; need finite lo <= hi",
                             "xyz"[j], info->workspace_lo[j], info->workspace_hi[j]);
    info->physics_dt = m->opt.timestep;
    info->model = m;
    info->flange_site = r->flange_site;
    snprintf(info->name, sizeof info->name, "%s", m->names);  /* model name comes first */
    return S2R_OK;
}

/* The <pair> between two geoms (either order), -1 if none. */
static int s2r__find_pair(const mjModel* m, int g1, int g2) {
    int i;
    for (i = 0; i < m->npair; i++)
        if ((m->pair_geom1[i] == g1 && m->pair_geom2[i] == g2) || (m->pair_geom1[i] == g2 && m->pair_geom2[i] == g1))
            return i;
    return -1;
}

/* The push scene's parts, when the model has an object; all or an error. */
static s2r_result s2r__robot_index_push(s2r_robot* r) {
    const mjModel* m = r->model;
    s2r_arm_info* info = &r->info;
    int jnt;
    r->tip_site = r->tip_geom = r->table_geom = r->object_body = r->object_geom = -1;
    r->object_qpos_adr = r->object_dof_adr = r->pair_object_table = r->pair_tip_object = r->pair_tip_table = -1;
    info->tip_site = -1;
    info->scene = S2R_SCENE_ARM;
    r->object_body = mj_name2id(m, mjOBJ_BODY, "object");
    if (r->object_body < 0) return S2R_OK;   /* the arm alone */
    r->tip_site = mj_name2id(m, mjOBJ_SITE, "tip");
    r->tip_geom = mj_name2id(m, mjOBJ_GEOM, "tip");
    r->table_geom = mj_name2id(m, mjOBJ_GEOM, "table");
    r->object_geom = mj_name2id(m, mjOBJ_GEOM, "object");
    jnt = m->body_jntadr[r->object_body];
    if (r->tip_site < 0 || r->tip_geom < 0 || r->table_geom < 0 || r->object_geom < 0)
        return s2r__fail(r->error, S2R_ERR_MODEL, "a push scene needs a site 'tip' and geoms 'tip', 'table' and 'object'");
    if (jnt < 0 || m->jnt_type[jnt] != mjJNT_FREE || m->body_jntnum[r->object_body] != 1)
        return s2r__fail(r->error, S2R_ERR_MODEL, "body 'object' needs exactly one joint, a free joint");
    if (m->geom_type[r->table_geom] != mjGEOM_PLANE || m->geom_type[r->object_geom] != mjGEOM_CYLINDER ||
        m->geom_bodyid[r->object_geom] != r->object_body || m->geom_type[r->tip_geom] != mjGEOM_SPHERE)
        return s2r__fail(r->error, S2R_ERR_MODEL, "push scene: 'table' must be a plane, 'object' a cylinder on body "
                         "'object' and 'tip' a sphere");
    r->object_qpos_adr = m->jnt_qposadr[jnt];
    r->object_dof_adr = m->jnt_dofadr[jnt];
    r->pair_object_table = s2r__find_pair(m, r->object_geom, r->table_geom);
    r->pair_tip_object = s2r__find_pair(m, r->tip_geom, r->object_geom);
    r->pair_tip_table = s2r__find_pair(m, r->tip_geom, r->table_geom);
    if (r->pair_object_table < 0 || r->pair_tip_object < 0)
        return s2r__fail(r->error, S2R_ERR_MODEL, "push scene: contact <pair>s object-table and tip-object are needed");
    {   /* s2r_push_area is "xlo ylo xhi yhi" */
        double area[4];
        if (s2r__custom_numeric(m, "s2r_push_area", area, 4, r->error) != 1 || !s2r_all_finite(area, 4) || !(area[0] < area[2]) ||
            !(area[1] < area[3]))
            return s2r__fail(r->error, S2R_ERR_MODEL, "push scene: <numeric name='s2r_push_area'> needs 'xlo ylo xhi yhi' "
                             "with lo < hi");
        info->push_area_lo[0] = area[0]; info->push_area_lo[1] = area[1];
        info->push_area_hi[0] = area[2]; info->push_area_hi[1] = area[3];
    }
    info->scene = S2R_SCENE_PUSH;
    info->tip_site = r->tip_site;
    info->tip_radius = m->geom_size[3 * r->tip_geom];
    info->table_height = m->geom_pos[3 * r->table_geom + 2];
    info->table_lo[0] = m->geom_pos[3 * r->table_geom] - m->geom_size[3 * r->table_geom];
    info->table_hi[0] = m->geom_pos[3 * r->table_geom] + m->geom_size[3 * r->table_geom];
    info->table_lo[1] = m->geom_pos[3 * r->table_geom + 1] - m->geom_size[3 * r->table_geom + 1];
    info->table_hi[1] = m->geom_pos[3 * r->table_geom + 1] + m->geom_size[3 * r->table_geom + 1];
    info->object_radius = m->geom_size[3 * r->object_geom];
    info->object_half_height = m->geom_size[3 * r->object_geom + 1];
    info->object_mass = m->body_mass[r->object_body];
    info->total_mass -= info->object_mass;   /* the arm's mass, as for the arm alone */
    return S2R_OK;
}

static s2r_result s2r__robot_finish(s2r_robot* r, mjModel* model, s2r_robot_kind kind) {
    s2r_result res;
    s2r__mj_physics make;
    if (!model) return S2R_ERR_MODEL;   /* r->error already holds MuJoCo's message */
    r->model = model;
    if (!(model->opt.timestep >= S2R_TIMESTEP_MIN && model->opt.timestep <= S2R_TIMESTEP_MAX)) {
        double dt = model->opt.timestep;
        s2r_robot_free(r);
        return s2r__fail(r->error, S2R_ERR_MODEL, "the model's physics timestep (<option timestep>) is %g s; "
                         "it must be from %g to %g s", dt, S2R_TIMESTEP_MIN, S2R_TIMESTEP_MAX);
    }
    make.m = model;
    make.d = NULL;
    if ((res = s2r__mj_run(s2r__mj_make_data_call, &make, r->error)) != S2R_OK) { s2r_robot_free(r); return res; }
    r->data = make.d;
    if (!r->data) { s2r_robot_free(r); return s2r__fail(r->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed"); }
    r->info.kind = kind;
    res = s2r__robot_index_joints(r);
    if (res == S2R_OK) res = s2r__robot_index_rest(r);
    if (res == S2R_OK) res = s2r__robot_index_push(r);
    if (res == S2R_OK) res = s2r_robot_reset(r, NULL);
    if (res != S2R_OK) {
        char keep[S2R_ERROR_LEN];
        memcpy(keep, r->error, sizeof keep);
        s2r_robot_free(r);
        memcpy(r->error, keep, sizeof keep);
    }
    return res;
}

S2RDEF s2r_result s2r_robot_load(s2r_robot* robot, s2r_robot_kind kind) {
    return s2r_robot_load_scene(robot, kind, S2R_SCENE_ARM);
}

S2RDEF s2r_result s2r_robot_load_scene(s2r_robot* robot, s2r_robot_kind kind, s2r_scene scene) {
    char* xml;
    size_t len;
    mjModel* model;
    S2R_ASSERT(robot);
    memset(robot, 0, sizeof *robot);
    len = s2r_robot_scene_mjcf(kind, scene, NULL, 0);
    if (len == 0) return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "no built-in MJCF for robot kind %d, scene %d",
                                   (int)kind, (int)scene);
    xml = (char*)S2R_MALLOC(len + 1);
    if (!xml) return s2r__fail(robot->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    s2r_robot_scene_mjcf(kind, scene, xml, len + 1);
    model = s2r__load_xml_string(xml, robot->error);
    S2R_FREE(xml);
    return s2r__robot_finish(robot, model, kind);
}

S2RDEF s2r_result s2r_robot_load_xml(s2r_robot* robot, const char* xml) {
    S2R_ASSERT(robot);
    memset(robot, 0, sizeof *robot);
    if (!xml) return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "MJCF text is NULL");
    return s2r__robot_finish(robot, s2r__load_xml_string(xml, robot->error), S2R_ROBOT_CUSTOM);
}

static FILE* s2r__open_input(const char* path, long max_bytes, long* size, char* error);

S2RDEF s2r_result s2r_robot_load_file(s2r_robot* robot, const char* path) {
    FILE* f;
    long size;
    S2R_ASSERT(robot);
    memset(robot, 0, sizeof *robot);
    if (!path) return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "MJCF path is NULL");
    if (!(f = s2r__open_input(path, LONG_MAX, &size, robot->error))) return S2R_ERR_IO;   /* MuJoCo would wait on a FIFO */
    fclose(f);
    return s2r__robot_finish(robot, s2r__load_xml(path, NULL, robot->error), S2R_ROBOT_CUSTOM);
}

S2RDEF void s2r_robot_free(s2r_robot* robot) {
    if (!robot) return;
    if (robot->data) mj_deleteData(robot->data);
    if (robot->model) mj_deleteModel(robot->model);
    memset(robot, 0, sizeof *robot);
}

S2RDEF int s2r_robot_steps_for(const s2r_robot* robot, double seconds) {
    S2R_ASSERT(robot);
    return (int)floor(seconds / robot->model->opt.timestep + 0.5);
}

S2RDEF s2r_result s2r_robot_reset(s2r_robot* robot, const double* q) {
    S2R_ASSERT(robot);
    const mjModel* m = robot->model;
    mjData* d = robot->data;
    s2r__mj_physics forward;
    int j, n = robot->info.n_joints;
    if (q && !s2r_all_finite(q, n))
        return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "start pose contains NaN or Inf");
    for (j = 0; q && j < n; j++)
        if (q[j] < robot->info.q_min[j] - 1e-9 || q[j] > robot->info.q_max[j] + 1e-9)
            return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "start pose: joint %d at %g rad is outside its "
                             "range [%g, %g]", j + 1, q[j], robot->info.q_min[j], robot->info.q_max[j]);
    mj_resetData(m, d);
    for (j = 0; j < n; j++) {
        double qj = q ? q[j] : robot->info.q_home[j];
        d->qpos[robot->qpos_adr[j]] = qj;
        d->ctrl[robot->actuator[j]] = qj;
    }
    forward.m = m;
    forward.d = d;
    return s2r__mj_run(s2r__mj_forward_call, &forward, robot->error);
}

S2RDEF void s2r_flange_fk(const mjModel* model, mjData* scratch, int flange_site,
                          const double* q, int n_joints, double pos[3]) {
    int a;
    S2R_ASSERT(model && scratch && q && pos);
    for (a = 0; a < n_joints && a < model->nu; a++)
        scratch->qpos[model->jnt_qposadr[model->actuator_trnid[2 * a]]] = q[a];
    mj_kinematics(model, scratch);
    memcpy(pos, scratch->site_xpos + 3 * flange_site, 3 * sizeof(double));
}


/* >> section: Randomization
   Flow: scalar distributions (sample, support, parse), then the table of named
   parameters with s2r_randomization_default (the ranges and their
   reasons) and how a drawn value is applied, then the text file of
   ranges.  Read s2r_randomization_default first. */

/* ==========================================================================
   Randomization (1/3): scalar distributions
   ========================================================================== */

static const char* const s2r__dist_kind_names[S2R_DIST_COUNT] = {
    "fixed", "uniform", "loguniform", "truncnormal"};

S2RDEF const char* s2r_dist_kind_name(s2r_dist_kind kind) {
    return (kind >= 0 && kind < S2R_DIST_COUNT) ? s2r__dist_kind_names[kind] : "unknown";
}

S2RDEF s2r_dist_kind s2r_dist_kind_find(const char* name) {
    int k;
    for (k = 0; name && k < S2R_DIST_COUNT; k++)
        if (strcmp(name, s2r__dist_kind_names[k]) == 0) return (s2r_dist_kind)k;
    return S2R_DIST_COUNT;
}

static s2r_dist s2r__dist_make(s2r_dist_kind kind, double lo, double hi,
                               double mean, double std) {
    s2r_dist d;
    d.kind = kind;
    d.lo = lo;
    d.hi = hi;
    d.mean = mean;
    d.std = std;
    return d;
}

S2RDEF s2r_dist s2r_dist_fixed(double value) {
    return s2r__dist_make(S2R_DIST_FIXED, value, value, value, 0.0);
}

S2RDEF s2r_dist s2r_dist_uniform(double lo, double hi) {
    return s2r__dist_make(S2R_DIST_UNIFORM, lo, hi, 0.0, 0.0);
}

S2RDEF s2r_dist s2r_dist_log_uniform(double lo, double hi) {
    return s2r__dist_make(S2R_DIST_LOG_UNIFORM, lo, hi, 0.0, 0.0);
}

S2RDEF s2r_dist s2r_dist_trunc_normal(double lo, double hi, double mean, double std) {
    return s2r__dist_make(S2R_DIST_TRUNC_NORMAL, lo, hi, mean, std);
}

/* Check lo, hi finite and lo <= hi; `what` names the kind in the message. */
static s2r_result s2r__check_bounds(const s2r_dist* d, const char* what, char* error) {
    if (!isfinite(d->lo) || !isfinite(d->hi))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: lo and hi must be finite numbers (lo %g, hi %g)",
                         what, d->lo, d->hi);
    if (d->lo > d->hi)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: lo %g is greater than hi %g", what, d->lo, d->hi);
    return S2R_OK;
}

static s2r_result s2r__check_trunc_normal(const s2r_dist* d, char* error) {
    s2r_result res = s2r__check_bounds(d, "truncnormal", error);
    if (res != S2R_OK) return res;
    if (!isfinite(d->mean) || !isfinite(d->std))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "truncnormal: mean and std must be finite numbers (mean %g, std %g)",
                         d->mean, d->std);
    if (d->std < 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "truncnormal: std %g is negative", d->std);
    if (d->mean < d->lo || d->mean > d->hi)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "truncnormal: mean %g lies outside [lo, hi] = [%g, %g]",
                         d->mean, d->lo, d->hi);
    return S2R_OK;
}

S2RDEF s2r_result s2r_dist_check(const s2r_dist* d, char* error) {
    s2r_result res;
    if (!d) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "distribution is NULL");
    switch (d->kind) {
    case S2R_DIST_FIXED:
        if (!isfinite(d->mean))
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                             "fixed: the value (mean) must be a finite number, not %g", d->mean);
        return S2R_OK;
    case S2R_DIST_UNIFORM:
        return s2r__check_bounds(d, "uniform", error);
    case S2R_DIST_LOG_UNIFORM:
        res = s2r__check_bounds(d, "loguniform", error);
        if (res == S2R_OK && d->lo <= 0)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                             "loguniform: lo must be > 0, got %g", d->lo);
        return res;
    case S2R_DIST_TRUNC_NORMAL:
        return s2r__check_trunc_normal(d, error);
    default:
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "unknown distribution kind %d", (int)d->kind);
    }
}

/* >> exercise randomization: drawing from a distribution (course/2_randomization) */
#ifndef S2R_EXERCISE_RANDOMIZATION
/* >> solution randomization begin */
/* z ~ N(0, 1) conditioned on a <= z <= b, by exact rejection.  Wide intervals
   containing 0 propose from the normal itself; everything else proposes
   uniformly on [a, b] and accepts with exp((z0^2 - z^2) / 2), where z0 is the
   point of [a, b] closest to 0 (the density's peak there).  The switch at
   width sqrt(2 pi) balances the two: either way at least 49 % of proposals
   are accepted when a <= 0 <= b. */
static double s2r__std_trunc_normal(s2r_rng* rng, double a, double b) {
    double z0 = a > 0 ? a : (b < 0 ? b : 0.0);
    int normal_proposal = a <= 0 && b >= 0 && b - a >= 2.5066282746310002;
    int i;
    for (i = 0; i < S2R_TRUNC_NORMAL_TRIES; i++) {
        if (normal_proposal) {
            double z = s2r_rng_normal(rng);
            if (z >= a && z <= b) return z;
        } else {
            double z = a + (b - a) * s2r_rng_uniform(rng);
            double u = s2r_rng_uniform(rng);
            if (u < exp(0.5 * (z0 * z0 - z * z))) return z;
        }
    }
    return z0;  /* unreachable for valid input, see S2R_TRUNC_NORMAL_TRIES */
}

static double s2r__sample_trunc_normal(const s2r_dist* d, s2r_rng* rng) {
    double z;
    if (d->std <= 0 || d->lo == d->hi) return s2r_clamp(d->mean, d->lo, d->hi);
    z = s2r__std_trunc_normal(rng, (d->lo - d->mean) / d->std, (d->hi - d->mean) / d->std);
    return s2r_clamp(d->mean + d->std * z, d->lo, d->hi);
}

S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    double u;
    S2R_ASSERT(d && rng);
    switch (d->kind) {
    case S2R_DIST_FIXED:
        return d->mean;
    case S2R_DIST_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        u = s2r_rng_uniform(rng);
        if (!isfinite(d->hi - d->lo))   /* a range wider than DBL_MAX */
            return s2r_clamp(d->lo * (1 - u) + d->hi * u, d->lo, d->hi);
        return s2r_clamp(d->lo + (d->hi - d->lo) * u, d->lo, d->hi);
    case S2R_DIST_LOG_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        u = s2r_rng_uniform(rng);
        return s2r_clamp(exp(log(d->lo) + (log(d->hi) - log(d->lo)) * u), d->lo, d->hi);
    case S2R_DIST_TRUNC_NORMAL:
        return s2r__sample_trunc_normal(d, rng);
    default:
        return NAN;
    }
}
/* >> solution randomization end */
#endif /* S2R_EXERCISE_RANDOMIZATION */

/* (lo + hi) / 2 without overflow near +-DBL_MAX. */
static double s2r__midpoint(double lo, double hi) {
    double c = 0.5 * (lo + hi);
    return isfinite(c) ? c : 0.5 * lo + 0.5 * hi;
}

/* Standard normal density, and the probability mass of [a, b]: from erf
   near the centre, from erfc in the tails (where erf rounds to +-1). */
static double s2r__phi(double z) { return 0.3989422804014327 * exp(-0.5 * z * z); }

static double s2r__normal_mass(double a, double b) {
    const double r2 = 0.7071067811865476;  /* 1 / sqrt(2) */
    if (a > 1) return 0.5 * (erfc(a * r2) - erfc(b * r2));
    if (b < -1) return 0.5 * (erfc(-b * r2) - erfc(-a * r2));
    return 0.5 * (erf(b * r2) - erf(a * r2));
}

static double s2r__trunc_normal_mean(const s2r_dist* d) {
    double a, b, mass, dphi;
    if (d->std <= 0 || d->lo == d->hi) return s2r_clamp(d->mean, d->lo, d->hi);
    a = (d->lo - d->mean) / d->std;
    b = (d->hi - d->mean) / d->std;
    mass = s2r__normal_mass(a, b);
    /* phi(a) - phi(b) = -phi(a) expm1((a^2 - b^2) / 2): exact even when the
       interval is tiny against std and the two densities nearly agree.
       Factored on the larger density, so the exponent is <= 0 (no 0 * inf
       when one density underflows); a direct difference for infinite a, b. */
    dphi = fabs(a) <= fabs(b) ? -s2r__phi(a) * expm1(0.5 * (a - b) * (a + b))
                              : s2r__phi(b) * expm1(0.5 * (b - a) * (b + a));
    if (!isfinite(dphi)) dphi = s2r__phi(a) - s2r__phi(b);
    if (!(mass > 0)) return s2r_clamp(d->mean, d->lo, d->hi);
    return s2r_clamp(d->mean + d->std * dphi / mass, d->lo, d->hi);
}

S2RDEF double s2r_dist_mean(const s2r_dist* d) {
    S2R_ASSERT(d);
    switch (d->kind) {
    case S2R_DIST_FIXED:
        return d->mean;
    case S2R_DIST_UNIFORM:
        return s2r__midpoint(d->lo, d->hi);
    case S2R_DIST_LOG_UNIFORM: {
        double ratio = (d->hi - d->lo) / d->lo;   /* inf for a huge hi / lo */
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp((d->hi - d->lo) / (isfinite(ratio) ? log1p(ratio) : log(d->hi) - log(d->lo)),
                         d->lo, d->hi);
    }
    case S2R_DIST_TRUNC_NORMAL:
        return s2r__trunc_normal_mean(d);
    default:
        return NAN;
    }
}

S2RDEF double s2r_dist_centre(const s2r_dist* d) {
    S2R_ASSERT(d);
    switch (d->kind) {
    case S2R_DIST_FIXED:        return d->mean;
    case S2R_DIST_UNIFORM:      return s2r__midpoint(d->lo, d->hi);
    case S2R_DIST_LOG_UNIFORM:  return s2r_clamp(sqrt(d->lo) * sqrt(d->hi), d->lo, d->hi); /* rounding: sqrt(2)^2 > 2 */
    case S2R_DIST_TRUNC_NORMAL: return d->mean;
    default:                    return NAN;
    }
}

S2RDEF void s2r_dist_support(const s2r_dist* d, double* lo, double* hi) {
    S2R_ASSERT(d);
    double l = d->kind == S2R_DIST_FIXED ? d->mean : d->lo;
    double h = d->kind == S2R_DIST_FIXED ? d->mean : d->hi;
    if (lo) *lo = l;
    if (hi) *hi = h;
}

S2RDEF s2r_dist s2r_dist_widen(const s2r_dist* d, double factor, double min, double max) {
    S2R_ASSERT(d);
    s2r_dist w = *d;
    double c;
    if (!isfinite(factor) || factor <= 0 || d->kind == S2R_DIST_FIXED) return w;
    c = s2r_dist_centre(d);
    if (d->kind == S2R_DIST_LOG_UNIFORM) {
        double lc = log(c);
        w.lo = exp(lc + factor * (log(d->lo) - lc));
        w.hi = exp(lc + factor * (log(d->hi) - lc));
    } else {
        w.lo = c - factor * (c - d->lo);
        w.hi = c + factor * (d->hi - c);
        w.std = d->std * factor;
    }
    /* Clip to [min, max] and to finite values (repeated widening must
       not overflow); a log-uniform lo stays > 0. */
    min = min > -DBL_MAX ? min : -DBL_MAX;
    max = max < DBL_MAX ? max : DBL_MAX;
    if (d->kind == S2R_DIST_LOG_UNIFORM && min < DBL_MIN) min = DBL_MIN;
    w.lo = s2r_clamp(w.lo, min, max);
    w.hi = s2r_clamp(w.hi, min, max);
    w.std = w.std < DBL_MAX ? w.std : DBL_MAX;
    if (d->kind == S2R_DIST_TRUNC_NORMAL) w.mean = s2r_clamp(d->mean, w.lo, w.hi);
    return w;
}

S2RDEF s2r_dist s2r_dist_recentre(const s2r_dist* d, double centre) {
    S2R_ASSERT(d);
    s2r_dist r = *d;
    if (d->kind == S2R_DIST_FIXED) return s2r_dist_fixed(centre);
    if (d->kind == S2R_DIST_LOG_UNIFORM) {
        double ratio = sqrt(d->hi / d->lo);   /* hi / centre = centre / lo */
        r.lo = centre / ratio;
        r.hi = centre * ratio;
    } else {
        double shift = centre - s2r_dist_centre(d);
        r.lo = d->lo + shift;
        r.hi = d->hi + shift;
        if (d->kind == S2R_DIST_TRUNC_NORMAL) r.mean = centre;
    }
    return r;
}

/* ==========================================================================
   Randomization (2/3): the table of named simulator parameters
   ========================================================================== */

#define S2R__MODE_S (1u << S2R_APPLY_SCALE)
#define S2R__MODE_O (1u << S2R_APPLY_OFFSET)
#define S2R__MODE_A (1u << S2R_APPLY_ABSOLUTE)
#define S2R__MODE_ALL (S2R__MODE_S | S2R__MODE_O | S2R__MODE_A)

/* Sign rule for the drawn value in scale or absolute mode (and in offset
   mode for zero-nominal parameters, where offset == absolute). */
typedef enum s2r__sign { S2R__ANY_SIGN, S2R__NONNEG, S2R__POSITIVE } s2r__sign;

typedef struct s2r__param_info {
    const char*    name;
    const char*    what;          /* description with unit                       */
    unsigned       modes;         /* allowed s2r_apply_mode bits                 */
    s2r_apply_mode mode;          /* default mode                                */
    int            zero_nominal;  /* nominal is 0 by definition                  */
    s2r__sign      sign;          /* what the value must be                      */
} s2r__param_info;

static const s2r__param_info s2r__params[S2R_PARAM_COUNT] = {
    {"friction", "geom sliding friction coefficient (1)",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"damping", "joint viscous damping, N m s/rad",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"armature", "joint armature (reflected rotor inertia), kg m^2",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"frictionloss", "joint dry friction, N m",
     S2R__MODE_ALL, S2R_APPLY_OFFSET, 0, S2R__NONNEG},
    {"link_mass", "mass and inertia of each link, per link",
     S2R__MODE_S | S2R__MODE_O, S2R_APPLY_SCALE, 0, S2R__POSITIVE},
    {"payload", "extra mass at the flange, kg",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"kp", "servo position gain, N m/rad",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__POSITIVE},
    {"kv", "servo velocity gain, N m s/rad",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"torque_limit", "actuator force limit, N m",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__POSITIVE},
    {"timestep", "physics timestep, s",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__POSITIVE},
    {"action_latency", "command-to-motion delay, s",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"obs_latency", "sensing delay, s",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"qpos_noise", "joint position white noise std, rad",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"qvel_noise", "joint velocity white noise std, rad/s",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"target_noise", "perceived target position white noise std, m",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"latency_jitter", "per-step jitter of both delays, +- s",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"target_offset", "perceived target calibration offset, m, per axis",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__ANY_SIGN},
    {"qpos_bias", "joint encoder zero offset, rad, per joint",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__ANY_SIGN},
    {"object_friction", "object-table sliding friction coefficient (1)",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"object_mass", "object mass and inertia, kg",
     S2R__MODE_S | S2R__MODE_O, S2R_APPLY_SCALE, 0, S2R__POSITIVE},
    {"object_damping", "object free-joint damping, N s/m",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"tip_friction", "tip-object sliding friction coefficient (1)",
     S2R__MODE_ALL, S2R_APPLY_SCALE, 0, S2R__NONNEG},
    {"table_height", "table top height error, m",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_OFFSET, 1, S2R__ANY_SIGN},
    {"camera_latency", "object camera delay, s",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"object_noise", "perceived object position white noise std, m",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
    {"object_dropout", "probability a camera frame misses the object",
     S2R__MODE_O | S2R__MODE_A, S2R_APPLY_ABSOLUTE, 1, S2R__NONNEG},
};

static const char* const s2r__apply_mode_names[S2R_APPLY_COUNT] = {
    "scale", "offset", "absolute"};

static int s2r__param_ok(s2r_param p) { return p >= 0 && p < S2R_PARAM_COUNT; }

S2RDEF const char* s2r_param_name(s2r_param p) {
    return s2r__param_ok(p) ? s2r__params[p].name : "unknown";
}

S2RDEF s2r_param s2r_param_find(const char* name) {
    int p;
    for (p = 0; name && p < S2R_PARAM_COUNT; p++)
        if (strcmp(name, s2r__params[p].name) == 0) return (s2r_param)p;
    return S2R_PARAM_COUNT;
}

S2RDEF const char* s2r_param_description(s2r_param p) {
    return s2r__param_ok(p) ? s2r__params[p].what : "unknown";
}

S2RDEF s2r_apply_mode s2r_param_default_mode(s2r_param p) {
    return s2r__param_ok(p) ? s2r__params[p].mode : S2R_APPLY_SCALE;
}

S2RDEF const char* s2r_apply_mode_name(s2r_apply_mode m) {
    return (m >= 0 && m < S2R_APPLY_COUNT) ? s2r__apply_mode_names[m] : "unknown";
}

S2RDEF s2r_apply_mode s2r_apply_mode_find(const char* name) {
    int m;
    for (m = 0; name && m < S2R_APPLY_COUNT; m++)
        if (strcmp(name, s2r__apply_mode_names[m]) == 0) return (s2r_apply_mode)m;
    return S2R_APPLY_COUNT;
}

static double s2r__mode_identity(s2r_apply_mode m) {
    return m == S2R_APPLY_SCALE ? 1.0 : 0.0;
}

S2RDEF s2r_param_range s2r_param_range_off(s2r_param p) {
    s2r_param_range pr;
    pr.mode = s2r_param_default_mode(p);
    pr.dist = s2r_dist_fixed(s2r__mode_identity(pr.mode));
    pr.enabled = 0;
    return pr;
}

/* "scale, absolute" style list of the modes in `bits`, into buf[64]. */
static const char* s2r__mode_list(unsigned bits, char* buf) {
    int m;
    buf[0] = '\0';
    for (m = 0; m < S2R_APPLY_COUNT; m++) {
        if (!(bits & (1u << m))) continue;
        if (buf[0]) strcat(buf, ", ");
        strcat(buf, s2r__apply_mode_names[m]);
    }
    return buf;
}

/* The sign rule applying to entry pr of p: ANY_SIGN for offsets of
   parameters with a model-given nominal (they cannot be judged alone). */
static s2r__sign s2r__entry_sign(s2r_param p, const s2r_param_range* pr) {
    const s2r__param_info* info = &s2r__params[p];
    if (pr->mode == S2R_APPLY_OFFSET && !info->zero_nominal) return S2R__ANY_SIGN;
    return info->sign;
}

static s2r_result s2r__check_sign(s2r_param p, const s2r_param_range* pr, char* error) {
    s2r__sign sign = s2r__entry_sign(p, pr);
    const char* name = s2r__params[p].name;
    const char* mode = s2r__apply_mode_names[pr->mode];
    double lo, hi;
    s2r_dist_support(&pr->dist, &lo, &hi);
    if (sign == S2R__NONNEG && lo < 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: %s values must be >= 0, but the range reaches %g",
                         name, mode, lo);
    if (sign == S2R__POSITIVE && lo <= 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: %s values must be > 0, but the range reaches %g",
                         name, mode, lo);
    if (p == S2R_PARAM_OBJECT_DROPOUT && hi > 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: a probability, but the range reaches %g", name, hi);
    if (p == S2R_PARAM_PAYLOAD && hi > S2R_PAYLOAD_MAX)   /* past this MuJoCo's inertia is singular */
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: at most %g kg, but the range reaches %g", name,
                         S2R_PAYLOAD_MAX, hi);
    return S2R_OK;
}

S2RDEF s2r_result s2r_param_range_check(s2r_param p, const s2r_param_range* pr, char* error) {
    char msg[S2R_ERROR_LEN], modes[64];
    if (!s2r__param_ok(p))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "unknown parameter %d", (int)p);
    if (!pr) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: entry is NULL",
                              s2r__params[p].name);
    if (!pr->enabled) return S2R_OK;
    if (pr->mode < 0 || pr->mode >= S2R_APPLY_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: unknown apply mode %d",
                         s2r__params[p].name, (int)pr->mode);
    if (!(s2r__params[p].modes & (1u << pr->mode)))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: mode '%s' is not allowed (use %s)", s2r__params[p].name,
                         s2r__apply_mode_names[pr->mode],
                         s2r__mode_list(s2r__params[p].modes, modes));
    if (s2r_dist_check(&pr->dist, msg) != S2R_OK)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: %s", s2r__params[p].name, msg);
    return s2r__check_sign(p, pr, error);
}

S2RDEF double s2r_param_apply(const s2r_param_range* pr, double nominal, double value) {
    S2R_ASSERT(pr);
    if (!pr->enabled) return nominal;
    switch (pr->mode) {
    case S2R_APPLY_SCALE:  return nominal * value;
    case S2R_APPLY_OFFSET: return nominal + value;
    default:               return value;
    }
}

S2RDEF s2r_randomization s2r_randomization_none(void) {
    s2r_randomization r;
    int p;
    memset(&r, 0, sizeof r);
    for (p = 0; p < S2R_PARAM_COUNT; p++) r.p[p] = s2r_param_range_off((s2r_param)p);
    return r;
}

static void s2r__enable(s2r_randomization* r, s2r_param p, s2r_dist d);

S2RDEF s2r_randomization s2r_randomization_default(void) {
    s2r_randomization r = s2r_randomization_none();
    /* Friction: the least trustworthy number in any simulator; the usual
       0.5x-1.5x of nominal.  The reach task barely touches anything, so it
       matters most for contact tasks on your own MJCF. */
    s2r__enable(&r, S2R_PARAM_FRICTION, s2r_dist_uniform(0.5, 1.5));
    /* Damping and armature: vendors rarely publish them; a datasheet-based
       estimate is good to some tens of percent either way.  Log-uniform
       because the error is a ratio (0.7 and 1.4 are about equally far from
       1).  A zero nominal stays zero under a scale (UR5e damping is 0). */
    s2r__enable(&r, S2R_PARAM_DAMPING, s2r_dist_log_uniform(0.7, 1.4));
    s2r__enable(&r, S2R_PARAM_ARMATURE, s2r_dist_log_uniform(0.7, 1.4));
    /* Dry friction, N·m added to every joint: the Panda's identified joint
       friction (Gaz et al., RA-L 2019) levels off at about half its sigmoid amplitude,
       0.15-0.64 N·m; both models have 0 nominal. */
    s2r__enable(&r, S2R_PARAM_FRICTIONLOSS, s2r_dist_uniform(0.0, 0.6));
    /* Link masses: CAD or identified masses miss cables, paint and
       fasteners; +-10 % per link. */
    s2r__enable(&r, S2R_PARAM_LINK_MASS, s2r_dist_uniform(0.9, 1.1));
    /* Payload, kg: an unmodelled tool or gripper; 0.5 kg is 10 % of the
       UR5e's rated 5 kg and a sixth of the Panda's 3 kg. */
    s2r__enable(&r, S2R_PARAM_PAYLOAD, s2r_dist_uniform(0.0, 0.5));
    /* Servo gains: drive tuning and firmware differ from the model; the
       velocity loop is tuned more loosely (and acts on a noisier estimate)
       than the position loop, hence +-15 % and +-20 %. */
    s2r__enable(&r, S2R_PARAM_KP, s2r_dist_uniform(0.85, 1.15));
    s2r__enable(&r, S2R_PARAM_KV, s2r_dist_uniform(0.8, 1.2));
    /* Torque limit: thermal derating and supply voltage, +-10 %. */
    s2r__enable(&r, S2R_PARAM_TORQUE_LIMIT, s2r_dist_uniform(0.9, 1.1));
    /* Timestep: a few percent of control-period and integration mismatch. */
    s2r__enable(&r, S2R_PARAM_TIMESTEP, s2r_dist_uniform(0.97, 1.03));
    /* Command-to-motion delay, s: bus, drive and the controller's own
       interpolation; the commonly measured 10-30 ms. */
    s2r__enable(&r, S2R_PARAM_ACTION_LATENCY, s2r_dist_uniform(0.010, 0.030));
    /* Sensing delay, s: joint encoders reach the controller within one or
       two 1-2 ms cycles; up to 10 ms leaves room for a slow bus.  (Camera
       pipelines are slower, but the reach target does not move.) */
    s2r__enable(&r, S2R_PARAM_OBS_LATENCY, s2r_dist_uniform(0.002, 0.010));
    /* Encoder noise std, rad: up to 1 mrad (under 1 mm at the flange of a
       0.85 m arm); good absolute encoders are quieter, so from 0. */
    s2r__enable(&r, S2R_PARAM_QPOS_NOISE, s2r_dist_uniform(0.0, 0.001));
    /* Velocity noise std, rad/s: velocity is differentiated from encoders;
       1e-4 rad of noise differenced at 500 Hz is ~0.07 rad/s before the
       drive's filtering, so up to 0.05. */
    s2r__enable(&r, S2R_PARAM_QVEL_NOISE, s2r_dist_uniform(0.0, 0.05));
    /* Target noise std, m: a depth camera locates a point at ~1 m to a few
       millimetres; up to 5 mm. */
    s2r__enable(&r, S2R_PARAM_TARGET_NOISE, s2r_dist_uniform(0.0, 0.005));
    /* Latency jitter, +- s: non-real-time middleware adds a millisecond or
       two; 2 ms is one physics step at 500 Hz. */
    s2r__enable(&r, S2R_PARAM_LATENCY_JITTER, s2r_dist_uniform(0.0, 0.002));
    /* Calibration offset and encoder bias stay off: the stand-in real robot's
       own calibration errors are meant to lie outside the default family.
       To study them: "target_offset uniform -0.01 0.01 absolute" (hand-eye
       calibration is typically good to a few mm, 1 cm is a poor one) and
       "qpos_bias uniform -0.002 0.002 absolute" (2 mrad zeroing error). */
    return r;
}

/* Turn entry p on with distribution d in the parameter's default mode. */
static void s2r__enable(s2r_randomization* r, s2r_param p, s2r_dist d) {
    r->p[p].dist = d;
    r->p[p].mode = s2r__params[p].mode;
    r->p[p].enabled = 1;
}

S2RDEF s2r_randomization s2r_randomization_push(void) {
    s2r_randomization r = s2r_randomization_default();   /* the arm's family, as for reach, */
    /* ... except the command latency, s: reach's 10-30 ms is what a
       tightly integrated arm shows, but measured command paths through
       ROS and vendor interfaces (UR's RTDE with servoj's smoothing,
       libfranka behind a non-real-time host) reach 40-60 ms; pushing
       feels every one of them, so 10-60 ms. */
    s2r__enable(&r, S2R_PARAM_ACTION_LATENCY, s2r_dist_uniform(0.010, 0.060));
    /* Object-table friction: tables and objects of the same materials
       differ by a factor of two (dust, wear, humidity); log-uniform
       0.5x-2x around the nominal 0.3. */
    s2r__enable(&r, S2R_PARAM_OBJECT_FRICTION, s2r_dist_log_uniform(0.5, 2.0));
    /* Object mass: known from a kitchen scale, but the recipe should not
       need one: +-30 %. */
    s2r__enable(&r, S2R_PARAM_OBJECT_MASS, s2r_dist_uniform(0.7, 1.3));
    /* Object damping: a small term, known only in order of magnitude. */
    s2r__enable(&r, S2R_PARAM_OBJECT_DAMPING, s2r_dist_log_uniform(0.5, 2.0));
    /* Tip-object friction: the pusher's material against the object's,
       +-50 %. */
    s2r__enable(&r, S2R_PARAM_TIP_FRICTION, s2r_dist_uniform(0.5, 1.5));
    /* Table height, m: a mounting surface measured with a tape, +-1 cm. */
    s2r__enable(&r, S2R_PARAM_TABLE_HEIGHT, s2r_dist_uniform(-0.01, 0.01));
    /* Camera delay, s: exposure, USB transfer and detection of a 30 fps
       depth camera take one to three frames, 30-100 ms; from 20 ms for a
       fast global-shutter pipeline to 120 ms for a slow one. */
    s2r__enable(&r, S2R_PARAM_CAMERA_LATENCY, s2r_dist_uniform(0.020, 0.120));
    /* Object position noise, m: a few millimetres at about 1 m. */
    s2r__enable(&r, S2R_PARAM_OBJECT_NOISE, s2r_dist_uniform(0.0, 0.005));
    /* Missed detections: up to one frame in ten (motion blur, glare). */
    s2r__enable(&r, S2R_PARAM_OBJECT_DROPOUT, s2r_dist_uniform(0.0, 0.1));
    return r;
}

/* The parameters each joint draws for itself: real joints are not alike
   (each drive's gains, seals and gearbox are its own), so a randomized
   simulator whose joints all share one draw never shows a policy an arm
   whose shoulder is stiff and whose wrist is soft. */
static const s2r_param s2r__joint_wise[] = {S2R_PARAM_KP, S2R_PARAM_KV, S2R_PARAM_TORQUE_LIMIT,
                                            S2R_PARAM_DAMPING, S2R_PARAM_ARMATURE, S2R_PARAM_FRICTIONLOSS};

/* 1 if p is one of them. */
static int s2r__is_joint_wise(s2r_param p) {
    int k;
    for (k = 0; k < (int)(sizeof s2r__joint_wise / sizeof *s2r__joint_wise); k++)
        if (s2r__joint_wise[k] == p) return 1;
    return 0;
}

/* Joint range k of r checked: its parameter, joint, shared entry and
   distribution (in the shared entry's mode), and no earlier range for the
   same joint.  The message starts "kp[4]: ". */
static s2r_result s2r__joint_range_check(const s2r_randomization* r, int k, char* error) {
    const s2r_joint_range* jr = &r->joint_range[k];
    s2r_param_range pr;
    char msg[S2R_ERROR_LEN];
    int i;
    if ((unsigned)jr->param >= S2R_PARAM_COUNT || !s2r__is_joint_wise(jr->param))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "joint range %d: %s is not a joint-wise parameter (kp, kv, "
                         "torque_limit, damping, armature, frictionloss)", k + 1, s2r_param_name(jr->param));
    if (jr->joint < 1 || jr->joint > S2R_MAX_JOINTS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: joint %d is not 1..%d", s2r_param_name(jr->param),
                         jr->joint, S2R_MAX_JOINTS);
    if (!r->p[jr->param].enabled)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s[%d]: a joint's own range needs %s on (its mode applies)",
                         s2r_param_name(jr->param), jr->joint, s2r_param_name(jr->param));
    for (i = 0; i < k; i++)
        if (r->joint_range[i].param == jr->param && r->joint_range[i].joint == jr->joint)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s[%d] has two ranges", s2r_param_name(jr->param), jr->joint);
    pr = r->p[jr->param];
    pr.dist = jr->dist;
    if (s2r_param_range_check(jr->param, &pr, msg) != S2R_OK) {   /* its message starts "kp: " */
        size_t n = strlen(s2r_param_name(jr->param));
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s[%d]: %s", s2r_param_name(jr->param), jr->joint,
                         strncmp(msg, s2r_param_name(jr->param), n) == 0 && msg[n] == ':' ? msg + n + 2 : msg);
    }
    return S2R_OK;
}

/* Joint `joint` of p given the range `dist` in r, replacing the one it
   had: the index it went to, or -1 when r holds S2R_JOINT_RANGES_MAX
   others already. */
static int s2r__put_joint_range(s2r_randomization* r, s2r_param p, int joint, s2r_dist dist) {
    int k;
    for (k = 0; k < r->n_joint_ranges && !(r->joint_range[k].param == p && r->joint_range[k].joint == joint); k++) {}
    if (k == S2R_JOINT_RANGES_MAX) return -1;
    if (k == r->n_joint_ranges) r->n_joint_ranges++;
    r->joint_range[k].param = p;
    r->joint_range[k].joint = joint;
    r->joint_range[k].dist = dist;
    return k;
}

S2RDEF s2r_result s2r_randomization_check(const s2r_randomization* r, char* error) {
    int p, k;
    if (!r) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "randomization is NULL");
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        s2r_result res = s2r_param_range_check((s2r_param)p, &r->p[p], error);
        if (res != S2R_OK) return res;
    }
    if (r->n_joint_ranges < 0 || r->n_joint_ranges > S2R_JOINT_RANGES_MAX)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%d joint ranges: at most %d", r->n_joint_ranges,
                         S2R_JOINT_RANGES_MAX);
    for (k = 0; k < r->n_joint_ranges; k++) {
        s2r_result res = s2r__joint_range_check(r, k, error);
        if (res != S2R_OK) return res;
    }
    return S2R_OK;
}

/* >> exercise randomization (continued) */
#ifndef S2R_EXERCISE_RANDOMIZATION
/* >> solution randomization begin */
S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng,
                                     double values[S2R_PARAM_COUNT]) {
    int p;
    S2R_ASSERT(r && rng && values);
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range* pr = &r->p[p];
        values[p] = pr->enabled ? s2r_dist_sample(&pr->dist, rng)
                                : s2r__mode_identity(pr->mode);
    }
}
/* >> solution randomization end */
#endif /* S2R_EXERCISE_RANDOMIZATION */

/* Field by field (the struct's padding is never read). */
S2RDEF uint64_t s2r_randomization_digest(const s2r_randomization* r) {
    S2R_ASSERT(r);
    uint64_t h = 0xCBF29CE484222325ull;
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range* e = &r->p[p];
        double v[7];
        v[0] = e->enabled; v[1] = e->mode; v[2] = e->dist.kind;
        v[3] = e->dist.lo; v[4] = e->dist.hi; v[5] = e->dist.mean; v[6] = e->dist.std;
        if (!e->enabled) v[1] = v[2] = v[3] = v[4] = v[5] = v[6] = 0;   /* off is off, whatever it held */
        h = s2r__fnv1a(h, v, sizeof v);
    }
    for (p = 0; p < r->n_joint_ranges && p < S2R_JOINT_RANGES_MAX; p++) {   /* none: the digest as before joint ranges */
        const s2r_joint_range* j = &r->joint_range[p];
        double v[7];
        v[0] = j->param; v[1] = j->joint; v[2] = j->dist.kind;
        v[3] = j->dist.lo; v[4] = j->dist.hi; v[5] = j->dist.mean; v[6] = j->dist.std;
        h = s2r__fnv1a(h, v, sizeof v);
    }
    return h;
}

/* Lowest value widening may reach for entry pr of p (see the declaration). */
static double s2r__widen_floor(s2r_param p, const s2r_param_range* pr) {
    double lo;
    s2r_dist_support(&pr->dist, &lo, NULL);
    switch (s2r__entry_sign(p, pr)) {
    case S2R__NONNEG:   return 0.0;
    case S2R__POSITIVE: return lo > 0 ? 0.5 * lo : lo;
    default:            return -INFINITY;
    }
}

S2RDEF s2r_result s2r_param_range_widen(s2r_param p, s2r_param_range* pr, double factor) {
    if (!s2r__param_ok(p) || !pr || !isfinite(factor) || factor <= 0)
        return S2R_ERR_INVALID_ARGUMENT;
    if (!pr->enabled) return S2R_OK;
    pr->dist = s2r_dist_widen(&pr->dist, factor, s2r__widen_floor(p, pr),
                              p == S2R_PARAM_OBJECT_DROPOUT ? 1.0                  /* a probability */
                              : p == S2R_PARAM_PAYLOAD ? S2R_PAYLOAD_MAX : INFINITY);
    return S2R_OK;
}

S2RDEF s2r_result s2r_randomization_widen(s2r_randomization* r, double factor) {
    int p;
    if (!r || !isfinite(factor) || factor <= 0) return S2R_ERR_INVALID_ARGUMENT;
    for (p = 0; p < S2R_PARAM_COUNT; p++) s2r_param_range_widen((s2r_param)p, &r->p[p], factor);
    return S2R_OK;
}

/* ==========================================================================
   Randomization (3/3): the text file of ranges
   ========================================================================== */

#define S2R__MAX_TOKENS 8      /* name dist 4 numbers mode + one extra to report */
#define S2R__NUMBER_CHARS 64   /* longest number token accepted                  */

typedef struct s2r__token { const char* s; int n; } s2r__token;

static int s2r__is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split [p, end) into tokens up to a '#'.  Stores at most `max`, returns how
   many there are. */
static int s2r__tokenize(const char* p, const char* end, s2r__token* tok, int max) {
    int count = 0;
    for (;;) {
        const char* s;
        while (p < end && s2r__is_blank(*p)) p++;
        if (p >= end || *p == '#') return count;
        s = p;
        while (p < end && !s2r__is_blank(*p) && *p != '#') p++;
        if (count < max) { tok[count].s = s; tok[count].n = (int)(p - s); }
        count++;
    }
}

static int s2r__token_is(s2r__token t, const char* word) {
    return (int)strlen(word) == t.n && memcmp(t.s, word, (size_t)t.n) == 0;
}

/* Index of the token in names[0..n), or n. */
static int s2r__token_in(s2r__token t, const char* const* names, int n) {
    int i;
    for (i = 0; i < n && !s2r__token_is(t, names[i]); i++) {}
    return i;
}

static int s2r__find_param_token(s2r__token t) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT && !s2r__token_is(t, s2r__params[p].name); p++) {}
    return p;
}

/* Parse a whole token as a finite double. */
static int s2r__token_number(s2r__token t, double* out) {
    char buf[S2R__NUMBER_CHARS];
    char* end;
    if (t.n >= S2R__NUMBER_CHARS) return 0;
    memcpy(buf, t.s, (size_t)t.n);
    buf[t.n] = '\0';
    *out = strtod(buf, &end);
    return end == buf + t.n && isfinite(*out);
}

static const int s2r__dist_arity[S2R_DIST_COUNT] = {1, 2, 2, 4};
static const char* const s2r__dist_columns[S2R_DIST_COUNT] = {
    "value", "lo hi", "lo hi", "lo hi mean std"};

static s2r_dist s2r__dist_from_numbers(s2r_dist_kind kind, const double* x) {
    switch (kind) {
    case S2R_DIST_FIXED:       return s2r_dist_fixed(x[0]);
    case S2R_DIST_UNIFORM:     return s2r_dist_uniform(x[0], x[1]);
    case S2R_DIST_LOG_UNIFORM: return s2r_dist_log_uniform(x[0], x[1]);
    default:                   return s2r_dist_trunc_normal(x[0], x[1], x[2], x[3]);
    }
}

/* The token as a short printable excerpt: "%.*s" arguments. */
#define S2R__TOK(t) ((t).n > 40 ? 40 : (t).n), (t).s

/* Parse distribution, numbers and mode of an entry line into *pr. */
static s2r_result s2r__parse_spec(const s2r__token* tok, int count, int line, s2r_param p,
                                  s2r_param_range* pr, char* error) {
    double x[4];
    int kind, need, i, at, mode;
    kind = s2r__token_in(tok[1], s2r__dist_kind_names, S2R_DIST_COUNT);
    if (kind == S2R_DIST_COUNT)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: unknown distribution '%.*s' "
                         "(off, fixed, uniform, loguniform, truncnormal)", line, S2R__TOK(tok[1]));
    need = s2r__dist_arity[kind];
    for (i = 0; i < need; i++) {
        if (2 + i >= count)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s needs %d number%s (%s), found %d",
                             line, s2r__dist_kind_names[kind], need, need > 1 ? "s" : "",
                             s2r__dist_columns[kind], i);
        if (!s2r__token_number(tok[2 + i], &x[i]))
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: '%.*s' is not a finite number "
                             "(%s needs %s)", line, S2R__TOK(tok[2 + i]),
                             s2r__dist_kind_names[kind], s2r__dist_columns[kind]);
    }
    at = 2 + need;
    mode = s2r__params[p].mode;
    if (at < count) {
        mode = s2r__token_in(tok[at], s2r__apply_mode_names, S2R_APPLY_COUNT);
        if (mode == S2R_APPLY_COUNT)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: expected a mode (scale, offset, "
                             "absolute) or the end of the line, found '%.*s'",
                             line, S2R__TOK(tok[at]));
        at++;
    }
    if (at < count)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: unexpected '%.*s' after the mode",
                         line, S2R__TOK(tok[at]));
    pr->dist = s2r__dist_from_numbers((s2r_dist_kind)kind, x);
    pr->mode = (s2r_apply_mode)mode;
    pr->enabled = 1;
    return S2R_OK;
}

/* What a parse has set so far: the line of each parameter's entry, and of
   each joint range (with the mode its line named, checked at the end
   against the shared entry's). */
typedef struct s2r__parse_state {
    int            set_on[S2R_PARAM_COUNT];
    int            joint_line[S2R_JOINT_RANGES_MAX];
    s2r_apply_mode joint_mode[S2R_JOINT_RANGES_MAX];
} s2r__parse_state;

/* A "name[J]" token: the joint J (1..) into *joint, the name's length
   returned; a plain name gives joint 0; -1 if the brackets are malformed. */
static int s2r__joint_suffix(s2r__token t, int* joint) {
    int i, j = 0, open = -1;
    *joint = 0;
    for (i = 0; i < t.n && open < 0; i++)
        if (t.s[i] == '[') open = i;
    if (open < 0) return t.n;
    if (open + 2 >= t.n || t.s[t.n - 1] != ']') return -1;
    for (i = open + 1; i < t.n - 1; i++) {
        if (t.s[i] < '0' || t.s[i] > '9' || j > 1000) return -1;
        j = 10 * j + (t.s[i] - '0');
    }
    *joint = j;
    return open;
}

/* One "name[J] dist numbers [mode]" line: joint J's own range of p. */
static s2r_result s2r__parse_joint_line(s2r_randomization* work, s2r__parse_state* st, const s2r__token* tok,
                                        int count, int line, s2r_param p, int joint, char* error) {
    s2r_param_range pr;
    s2r_result res;
    int k;
    if (!s2r__is_joint_wise(p))
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s is not joint-wise (kp, kv, torque_limit, damping, armature, "
                         "frictionloss have ranges per joint)", line, s2r__params[p].name);
    if (joint < 1 || joint > S2R_MAX_JOINTS)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: joint %d of %s is not 1..%d", line, joint, s2r__params[p].name,
                         S2R_MAX_JOINTS);
    if (count < 2 || s2r__token_is(tok[1], "off"))
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s[%d] needs a distribution (fixed, uniform, loguniform, "
                         "truncnormal); a joint without its own range uses %s's", line, s2r__params[p].name, joint,
                         s2r__params[p].name);
    if ((res = s2r__parse_spec(tok, count, line, p, &pr, error)) != S2R_OK) return res;
    if ((k = s2r__put_joint_range(work, p, joint, pr.dist)) < 0)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: more than %d joint ranges", line, S2R_JOINT_RANGES_MAX);
    if (st->joint_line[k])   /* (every joint range of `work` comes from this file) */
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: '%s[%d]' was already set on line %d", line, s2r__params[p].name,
                         joint, st->joint_line[k]);
    st->joint_line[k] = line;
    st->joint_mode[k] = pr.mode;
    return S2R_OK;
}

/* Parse one line [s, end) into work; st remembers where what was set. */
static s2r_result s2r__parse_line(s2r_randomization* work, s2r__parse_state* st, const char* s,
                                  const char* end, int line, char* error) {
    s2r__token tok[S2R__MAX_TOKENS], name;
    char msg[S2R_ERROR_LEN];
    s2r_param_range pr;
    s2r_result res;
    int count = s2r__tokenize(s, end, tok, S2R__MAX_TOKENS);
    int* set_on = st->set_on;
    int p, joint;
    if (count == 0) return S2R_OK;
    name = tok[0];
    if ((name.n = s2r__joint_suffix(tok[0], &joint)) < 0)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: '%.*s': a joint is named as kp[4] (joints from 1)", line,
                         S2R__TOK(tok[0]));
    p = s2r__find_param_token(name);
    if (p == S2R_PARAM_COUNT)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: unknown parameter '%.*s'",
                         line, S2R__TOK(tok[0]));
    if (name.n < tok[0].n) return s2r__parse_joint_line(work, st, tok, count, line, (s2r_param)p, joint, error);
    if (set_on[p])
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: '%s' was already set on line %d",
                         line, s2r__params[p].name, set_on[p]);
    if (count < 2)
        return s2r__fail(error, S2R_ERR_PARSE, "line %d: '%s' needs a distribution "
                         "(off, fixed, uniform, loguniform, truncnormal)", line, s2r__params[p].name);
    if (s2r__token_is(tok[1], "off")) {
        if (count > 2)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: unexpected '%.*s' after 'off'",
                             line, S2R__TOK(tok[2]));
        pr = s2r_param_range_off((s2r_param)p);
    } else {
        res = s2r__parse_spec(tok, count, line, (s2r_param)p, &pr, error);
        if (res != S2R_OK) return res;
        if (s2r_param_range_check((s2r_param)p, &pr, msg) != S2R_OK)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s", line, msg);
    }
    work->p[p] = pr;
    set_on[p] = line;
    return S2R_OK;
}

S2RDEF s2r_result s2r_randomization_parse(s2r_randomization* r, const char* text, char* error) {
    s2r_randomization work;
    s2r__parse_state st;
    char msg[S2R_ERROR_LEN];
    int line = 1, k;
    const char* s = text;
    if (!r || !text)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "randomization or text is NULL");
    work = *r;
    work.n_joint_ranges = 0;   /* the file's joint ranges are all the table will have */
    memset(work.joint_range, 0, sizeof work.joint_range);
    memset(&st, 0, sizeof st);
    if ((unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB && (unsigned char)s[2] == 0xBF)
        s += 3;
    while (*s) {
        const char* end = strchr(s, '\n');
        s2r_result res;
        if (!end) end = s + strlen(s);
        res = s2r__parse_line(&work, &st, s, end, line, error);
        if (res != S2R_OK) return res;
        s = *end ? end + 1 : end;
        line++;
    }
    for (k = 0; k < work.n_joint_ranges; k++) {   /* the joints' lines against the shared entries as the file left them */
        const s2r_joint_range* jr = &work.joint_range[k];
        if (work.p[jr->param].enabled && st.joint_mode[k] != work.p[jr->param].mode)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s[%d] is in %s mode, %s in %s: a joint's range is in its "
                             "parameter's mode", st.joint_line[k], s2r__params[jr->param].name, jr->joint,
                             s2r_apply_mode_name(st.joint_mode[k]), s2r__params[jr->param].name,
                             s2r_apply_mode_name(work.p[jr->param].mode));
        if (s2r__joint_range_check(&work, k, msg) != S2R_OK)
            return s2r__fail(error, S2R_ERR_PARSE, "line %d: %s", st.joint_line[k], msg);
    }
    if (s2r_randomization_check(&work, msg) != S2R_OK)   /* an entry the file left as it found it */
        return s2r__fail(error, S2R_ERR_PARSE, "after the last line: %s (an entry the file does not name)", msg);
    *r = work;
    return S2R_OK;
}

/* Open a file the library reads, refusing what is not a regular file
   before opening it: a directory, a FIFO, device or socket (opening a FIFO
   would wait for a writer), and a regular file larger than `max_bytes`.
   *size: the file's size in bytes. */
static FILE* s2r__open_input(const char* path, long max_bytes, long* size, char* error) {
    struct stat st;
    FILE* f;
    *size = -1;
    if (stat(path, &st) != 0) {
        s2r__fail(error, S2R_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
#if defined(S_ISDIR) && defined(S_ISREG)
    if (S_ISDIR(st.st_mode)) {
        s2r__fail(error, S2R_ERR_IO, "'%s' is a directory, not a file", path);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        s2r__fail(error, S2R_ERR_IO, "'%s' is not a regular file (a pipe, device or socket)", path);
        return NULL;
    }
#endif
    *size = (long)st.st_size;
    if (*size > max_bytes) {
        s2r__fail(error, S2R_ERR_IO, "'%s' is %.0f bytes, more than the %ld this reader takes", path,
                  (double)st.st_size, max_bytes);
        return NULL;
    }
    if (!(f = fopen(path, "rb"))) s2r__fail(error, S2R_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    return f;
}

/* Read a whole text file (at most max_bytes, a regular file) into a
   NUL-terminated buffer from S2R_MALLOC, in growing chunks (a file may grow
   while it is read).  A NUL byte in it is an error (not a text file). */
static s2r_result s2r__read_text_file(const char* path, long max_bytes, char** text, char* error) {
    long size;
    FILE* f = s2r__open_input(path, max_bytes, &size, error);
    size_t len = 0, cap = 4096;
    char *buf, *grown, *nul;
    if (!f) return S2R_ERR_IO;
    buf = (char*)S2R_MALLOC(cap + 1);
    for (;;) {
        if (!buf) {
            fclose(f);
            return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "no memory to read '%s'", path);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) break;                      /* end of file, or an error */
        if (cap > (size_t)max_bytes) {
            fclose(f);
            S2R_FREE(buf);
            return s2r__fail(error, S2R_ERR_IO, "'%s' is larger than %ld bytes", path, max_bytes);
        }
        cap = cap * 2 > (size_t)max_bytes ? (size_t)max_bytes + 1 : cap * 2;
        grown = (char*)S2R_REALLOC(buf, cap + 1);
        if (!grown) S2R_FREE(buf);
        buf = grown;
    }
    if (ferror(f)) {
        int err = errno;
        fclose(f);
        S2R_FREE(buf);
        return s2r__fail(error, S2R_ERR_IO, "cannot read '%s': %s", path, strerror(err));
    }
    fclose(f);
    if ((nul = (char*)memchr(buf, '\0', len)) != NULL) {
        long at = (long)(nul - buf);
        S2R_FREE(buf);
        return s2r__fail(error, S2R_ERR_PARSE, "'%s' holds a NUL byte at offset %ld: not a text file", path, at);
    }
    buf[len] = '\0';
    *text = buf;
    return S2R_OK;
}

/* A CSV table of numbers, as trajectory and demonstration files are: '#'
   lines are comments, the first other line names the columns (split at
   commas, blanks trimmed; `name_column` maps each name and may refuse
   it), every later line is a row of finite numbers, one per column.
   Lines longer than S2R_LOG_MAX_LINE are refused.  Errors name the file
   and line; on error the table is empty. */
typedef struct s2r__table {
    int     columns, rows, cap;
    int     first_line;   /* the line of the first row of numbers                */
    int     increasing;   /* a column whose values must strictly increase, or -1 */
    double* v;            /* [rows][columns], in file column order              */
} s2r__table;

/* Map column `column` called name[len]: 0, or 1 with a message in error. */
typedef int (*s2r__column_fn)(void* context, const char* name, size_t len, int column, const char* file, char* error);

static void s2r__table_free(s2r__table* t) {
    if (t->v) S2R_FREE(t->v);
    t->v = NULL;
    t->rows = t->cap = 0;
}

/* The span [at, end) of the next comma-separated field of line[len], blanks
   trimmed into [*a, *b); returns end. */
static size_t s2r__csv_field(const char* line, size_t len, size_t at, size_t* a, size_t* b) {
    size_t end = at;
    while (end < len && line[end] != ',') end++;
    for (*a = at; *a < end && isspace((unsigned char)line[*a]); ++*a) {}
    for (*b = end; *b > *a && isspace((unsigned char)line[*b - 1]); --*b) {}
    return end;
}

static s2r_result s2r__table_header(s2r__table* t, const char* line, size_t len, s2r__column_fn name_column,
                                    void* context, const char* file, char* error) {
    size_t at = 0, a, b, end;
    for (;;) {
        end = s2r__csv_field(line, len, at, &a, &b);
        if (name_column(context, line + a, b - a, t->columns, file, error)) return S2R_ERR_PARSE;
        t->columns++;
        if (end >= len) return S2R_OK;
        at = end + 1;
    }
}

static s2r_result s2r__table_row(s2r__table* t, const char* line, size_t len, int number, const char* file, char* error) {
    double* row;
    size_t at = 0, a, b, end;
    int c;
    if (t->rows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        double* grown = (double*)S2R_REALLOC(t->v, (size_t)cap * (size_t)t->columns * sizeof(double));
        if (!grown) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: no memory for %d rows", file, cap);
        t->v = grown;
        t->cap = cap;
    }
    row = t->v + (size_t)t->rows * t->columns;
    for (c = 0; c < t->columns; c++) {
        char text[64], *stop;
        end = s2r__csv_field(line, len, at, &a, &b);
        if (b - a == 0 || b - a >= sizeof text)
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: column %d is %s", file, number, c + 1,
                             b == a ? "empty" : "too long to be a number");
        memcpy(text, line + a, b - a);
        text[b - a] = '\0';
        row[c] = strtod(text, &stop);
        if (*stop || !isfinite(row[c]))
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d, column %d: '%s' is not a finite number", file, number,
                             c + 1, text);
        if (c + 1 < t->columns && end >= len)
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: %d numbers, the header names %d columns", file, number,
                             c + 1, t->columns);
        if (c + 1 == t->columns && end < len)
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: more numbers than the %d columns the header names",
                             file, number, t->columns);
        at = end + 1;
    }
    if (t->increasing >= 0 && t->rows > 0 && !(row[t->increasing] > row[t->increasing - t->columns]))
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: time %.9g s does not come after %.9g s", file, number,
                         row[t->increasing], row[t->increasing - t->columns]);
    t->rows++;
    return S2R_OK;
}

/* Parse a whole file's text.  `after_header` (may be NULL) checks the
   mapped columns and sets t->increasing before the rows are read. */
static s2r_result s2r__table_parse(s2r__table* t, const char* text, const char* file, s2r__column_fn name_column,
                                   s2r_result (*after_header)(void* context, s2r__table* t, const char* file, char* error),
                                   void* context, char* error) {
    int number = 0, header = 0;
    s2r_result res = S2R_OK;
    memset(t, 0, sizeof *t);
    t->increasing = -1;
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        text += 3;   /* a UTF-8 byte order mark, as spreadsheets write */
    while (*text && res == S2R_OK) {
        const char* end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        number++;
        if (len > S2R_LOG_MAX_LINE)
            res = s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: longer than %d bytes", file, number, S2R_LOG_MAX_LINE);
        else {
            if (len > 0 && text[len - 1] == '\r') len--;
            if (len > 0 && text[0] != '#') {
                if (header && !t->first_line) t->first_line = number;
                if (header) res = s2r__table_row(t, text, len, number, file, error);
                else if ((res = s2r__table_header(t, text, len, name_column, context, file, error)) == S2R_OK && after_header)
                    res = after_header(context, t, file, error);
                header = 1;
            }
        }
        text = end ? end + 1 : text + strlen(text);
    }
    if (res == S2R_OK && (!header || t->rows < 2))
        res = s2r__fail(error, S2R_ERR_PARSE, "%s: %s", file, header ? "fewer than two rows of numbers" :
                        "no line of column names");
    if (res != S2R_OK) s2r__table_free(t);
    return res;
}

S2RDEF s2r_result s2r_randomization_load(s2r_randomization* r, const char* path, char* error) {
    char msg[S2R_ERROR_LEN];
    char* text = NULL;
    s2r_result res;
    if (!r || !path)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "randomization or path is NULL");
    res = s2r__read_text_file(path, S2R_RANGES_MAX_BYTES, &text, error);
    if (res != S2R_OK) return res;
    res = s2r_randomization_parse(r, text, msg);
    S2R_FREE(text);
    if (res != S2R_OK) return s2r__fail(error, res, "%s: %s", path, msg);
    return S2R_OK;
}

/* Text being built with snprintf semantics: len counts everything, even
   what did not fit. */
typedef struct s2r__strbuf { char* out; size_t cap, len; } s2r__strbuf;

static void s2r__strbuf_add(s2r__strbuf* t, const char* fmt, ...) {
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(room ? t->out + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as exactly x
   (%.17g always does).  buf holds 32 chars. */
static const char* s2r__exact_number(char* buf, double x) {
    int prec;
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) return buf;
    }
    snprintf(buf, 32, "%.17g", x);
    return buf;
}

/* "lo hi [mean std]" / "value" of an enabled entry's distribution. */
static void s2r__format_numbers(const s2r_dist* d, char* out, size_t cap) {
    char a[32], b[32], c[32], e[32];
    if (d->kind == S2R_DIST_FIXED)
        snprintf(out, cap, "%s", s2r__exact_number(a, d->mean));
    else if (d->kind == S2R_DIST_TRUNC_NORMAL)
        snprintf(out, cap, "%s %s %s %s", s2r__exact_number(a, d->lo),
                 s2r__exact_number(b, d->hi), s2r__exact_number(c, d->mean),
                 s2r__exact_number(e, d->std));
    else
        snprintf(out, cap, "%s %s", s2r__exact_number(a, d->lo), s2r__exact_number(b, d->hi));
}

static void s2r__format_entry(s2r__strbuf* t, s2r_param p, const s2r_param_range* pr) {
    char numbers[160];
    if (!pr->enabled) {
        s2r__strbuf_add(t, "%-15s %-12s %-32s %-9s # %s\n", s2r__params[p].name, "off", "", "",
                      s2r__params[p].what);
        return;
    }
    s2r__format_numbers(&pr->dist, numbers, sizeof numbers);
    s2r__strbuf_add(t, "%-15s %-12s %-32s %-9s # %s\n", s2r__params[p].name,
                  s2r_dist_kind_name(pr->dist.kind), numbers, s2r_apply_mode_name(pr->mode),
                  s2r__params[p].what);
}

S2RDEF size_t s2r_randomization_format(const s2r_randomization* r, char* out, size_t cap) {
    s2r__strbuf t;
    int p;
    S2R_ASSERT(r);
    t.out = out;
    t.cap = out ? cap : 0;
    t.len = 0;
    if (t.cap) out[0] = '\0';
    s2r__strbuf_add(&t,
        "# sim2real.h randomization ranges: one parameter per line,\n"
        "#   name off | name dist numbers [mode]\n"
        "# dist and numbers: fixed value | uniform lo hi | loguniform lo hi |\n"
        "#   truncnormal lo hi mean std\n"
        "# mode: scale (x nominal) | offset (+ nominal) | absolute (replaces it)\n"
        "# name[J] (after the parameters, if any): joint J's own range, in its parameter's mode\n"
        "#\n"
        "# %-13s %-12s %-32s %-9s # %s\n", "name", "dist", "numbers", "mode", "what");
    for (p = 0; p < S2R_PARAM_COUNT; p++) s2r__format_entry(&t, (s2r_param)p, &r->p[p]);
    for (p = 0; p < r->n_joint_ranges && p < S2R_JOINT_RANGES_MAX; p++) {   /* joints with ranges of their own */
        const s2r_joint_range* jr = &r->joint_range[p];
        char name[32], numbers[160];
        if ((unsigned)jr->param >= S2R_PARAM_COUNT) continue;   /* (a checked table has none) */
        snprintf(name, sizeof name, "%s[%d]", s2r__params[jr->param].name, jr->joint);
        s2r__format_numbers(&jr->dist, numbers, sizeof numbers);
        s2r__strbuf_add(&t, "%-15s %-12s %-32s %-9s # joint %d's own\n", name, s2r_dist_kind_name(jr->dist.kind), numbers,
                        s2r_apply_mode_name(r->p[jr->param].mode), jr->joint);
    }
    return t.len;
}

S2RDEF s2r_result s2r_randomization_write(const s2r_randomization* r, const char* path,
                                          char* error) {
    size_t n;
    char* text;
    s2r_result res;
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "path is NULL");
    res = s2r_randomization_check(r, error);
    if (res != S2R_OK) return res;
    n = s2r_randomization_format(r, NULL, 0);
    text = (char*)s2r__calloc(n + 1, 1);
    if (!text) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "no memory to write '%s'", path);
    s2r_randomization_format(r, text, n + 1);
    res = s2r_file_write_all(path, text, n, error);
    S2R_FREE(text);
    return res;
}

/* >> section: Sensing
   Flow: one noise model per sensor channel: the episode's bias and scale are
   drawn at s2r_noise_begin_episode, each reading then adds white noise,
   quantization, dropout and outliers (s2r_noise_apply). */

/* ==========================================================================
   Sensing: per-channel noise models
   ========================================================================== */

S2RDEF s2r_noise_config s2r_noise_config_none(void) {
    s2r_noise_config c;
    memset(&c, 0, sizeof c);
    return c;
}

static s2r_result s2r__check_nonneg_field(const char* field, double v, char* error) {
    if (!isfinite(v) || v < 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "noise config: %s must be a finite number >= 0, got %g", field, v);
    return S2R_OK;
}

S2RDEF s2r_result s2r_noise_config_check(const s2r_noise_config* cfg, char* error) {
    s2r_result res = S2R_OK;
    if (!cfg) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "noise config is NULL");
    if (!res) res = s2r__check_nonneg_field("white_std", cfg->white_std, error);
    if (!res) res = s2r__check_nonneg_field("bias_std", cfg->bias_std, error);
    if (!res) res = s2r__check_nonneg_field("scale_std", cfg->scale_std, error);
    if (!res) res = s2r__check_nonneg_field("drift_std", cfg->drift_std, error);
    if (!res) res = s2r__check_nonneg_field("quant_step", cfg->quant_step, error);
    if (res) return res;
    if (isnan(cfg->drift_tau) || cfg->drift_tau < 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "noise config: drift_tau must be >= 0 s (0 or inf: random walk), got %g",
                         cfg->drift_tau);
    if (!(cfg->dropout >= 0 && cfg->dropout <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "noise config: dropout must be a probability in [0, 1], got %g",
                         cfg->dropout);
    if (isnan(cfg->sat_lo) || isnan(cfg->sat_hi))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "noise config: sat_lo and sat_hi must not be NaN");
    return S2R_OK;
}

/* Drift is an OU process (finite tau > 0) or a random walk. */
static int s2r__drift_is_ou(const s2r_noise_config* c) {
    return c->drift_tau > 0 && isfinite(c->drift_tau);
}

S2RDEF void s2r_noise_begin_episode(const s2r_noise_config* cfg, s2r_noise_state* state,
                                    int n, s2r_rng* rng) {
    int i;
    S2R_ASSERT(cfg && state);
    for (i = 0; i < n; i++) {
        s2r_noise_state* st = &state[i];
        st->gain = cfg->scale_std > 0 ? cfg->scale_std * s2r_rng_normal(rng) : 0.0;
        st->bias = cfg->bias_std > 0 ? cfg->bias_std * s2r_rng_normal(rng) : 0.0;
        st->drift = 0.0;
        if (cfg->drift_std > 0 && s2r__drift_is_ou(cfg))
            st->drift = cfg->drift_std * sqrt(0.5 * cfg->drift_tau) * s2r_rng_normal(rng);
        st->last = 0.0;
        st->has_last = 0;
    }
}

/* Advance one element's drift by dt seconds (exact OU / random-walk step). */
static void s2r__drift_step(const s2r_noise_config* c, s2r_noise_state* st, double dt,
                            s2r_rng* rng) {
    double z = s2r_rng_normal(rng);
    if (s2r__drift_is_ou(c)) {
        double var = -0.5 * c->drift_tau * expm1(-2.0 * dt / c->drift_tau);
        st->drift = st->drift * exp(-dt / c->drift_tau) + c->drift_std * sqrt(var) * z;
    } else {
        st->drift += c->drift_std * sqrt(dt) * z;
    }
}

/* One measurement before dropout: gain, bias, drift, white, quantize, clip.
   Disabled terms are skipped so the zero config is the exact identity. */
static double s2r__noise_one(const s2r_noise_config* c, s2r_noise_state* st, double x,
                             double dt, s2r_rng* rng) {
    double y = x;
    if (st->gain != 0) y *= 1.0 + st->gain;
    if (st->bias != 0) y += st->bias;
    if (c->drift_std > 0) s2r__drift_step(c, st, dt, rng);
    if (st->drift != 0) y += st->drift;
    if (c->white_std > 0) y += c->white_std * s2r_rng_normal(rng);
    if (c->quant_step > 0) y = c->quant_step * floor(y / c->quant_step + 0.5);
    if (c->sat_lo < c->sat_hi) y = s2r_clamp(y, c->sat_lo, c->sat_hi);
    return y;
}

S2RDEF void s2r_noise_apply(const s2r_noise_config* cfg, s2r_noise_state* state,
                            const double* truth, double* measured, int n,
                            double dt, s2r_rng* rng) {
    int i;
    S2R_ASSERT(cfg && state && truth && measured);
    if (!(dt > 0)) dt = 0;   /* NaN or negative: no time passes */
    for (i = 0; i < n; i++) {
        s2r_noise_state* st = &state[i];
        double y = s2r__noise_one(cfg, st, truth[i], dt, rng);
        int dropped = cfg->dropout > 0 && s2r_rng_uniform(rng) < cfg->dropout && st->has_last;
        measured[i] = dropped ? st->last : y;
        st->last = measured[i];
        st->has_last = 1;
    }
}

/* >> section: Latency
   Flow: the delay line a command or a reading passes through (push, then read
   the value `steps` ago), its jitter, and the sample-and-hold of a slow
   sensor.  Read s2r_delay_push and s2r_delay_read first. */

/* ==========================================================================
   Latency: delay lines, jitter and sample-and-hold
   ========================================================================== */

S2RDEF int s2r_latency_steps(double seconds, double dt) {
    double steps;
    if (!(seconds > 0) || !(dt > 0)) return 0;
    steps = floor(seconds / dt + 0.5 + 1e-9);
    return steps > (double)(INT_MAX / 2) ? INT_MAX / 2 : (int)steps;
}

/* >> exercise latency: the delay line and its jitter (course/1_latency) */
#ifndef S2R_EXERCISE_LATENCY
/* >> solution latency begin */
S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) {
    S2R_ASSERT(line);
    memset(line, 0, sizeof *line);
    if (width < 1 || capacity < 1) return S2R_ERR_INVALID_ARGUMENT;
    line->data = (double*)s2r__calloc((size_t)width * (size_t)capacity, sizeof(double));
    if (!line->data) return S2R_ERR_OUT_OF_MEMORY;
    line->width = width;
    line->capacity = capacity;
    return S2R_OK;
}

S2RDEF void s2r_delay_free(s2r_delay_line* line) {
    if (!line) return;
    if (line->data) S2R_FREE(line->data);
    memset(line, 0, sizeof *line);
}

S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) {
    int s;
    S2R_ASSERT(line);
    S2R_ASSERT(line->data);
    for (s = 0; s < line->capacity; s++) {
        double* slot = line->data + (size_t)s * (size_t)line->width;
        if (fill) memcpy(slot, fill, (size_t)line->width * sizeof(double));
        else memset(slot, 0, (size_t)line->width * sizeof(double));
    }
    line->newest = 0;
}

S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) {
    S2R_ASSERT(line && x);
    S2R_ASSERT(line->data);
    line->newest = (line->newest + 1) % line->capacity;
    memcpy(line->data + (size_t)line->newest * (size_t)line->width, x,
           (size_t)line->width * sizeof(double));
}

S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) {
    int slot;
    S2R_ASSERT(line);
    S2R_ASSERT(line->data);
    if (k < 0) k = 0;
    if (k > line->capacity - 1) k = line->capacity - 1;
    slot = (line->newest - k + line->capacity) % line->capacity;
    return line->data + (size_t)slot * (size_t)line->width;
}

S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) {
    S2R_ASSERT(line && out);
    memcpy(out, s2r_delay_peek(line, k), (size_t)line->width * sizeof(double));
}

S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int base_steps, int jitter_steps,
                                  int max_steps) {
    S2R_ASSERT(j);
    j->max = max_steps > 0 ? max_steps : 0;
    j->base = base_steps > 0 ? base_steps : 0;
    j->jitter = jitter_steps > 0 ? jitter_steps : 0;
    if (j->jitter > INT_MAX / 4) j->jitter = INT_MAX / 4;   /* 2 jitter + 1 fits an int */
    s2r_delay_jitter_reset(j);
}

S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) {
    S2R_ASSERT(j);
    j->last = j->max;
}

S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) {
    S2R_ASSERT(j && rng);
    long k = j->base;   /* long: base + jitter cannot overflow */
    if (j->jitter > 0) k += (long)s2r_rng_int(rng, 2 * j->jitter + 1) - j->jitter;
    if (k < 0) k = 0;
    if (k > j->max) k = j->max;
    if (k > (long)j->last + 1) k = (long)j->last + 1;   /* never older than last time */
    j->last = (int)k;
    return j->last;
}
/* >> solution latency end */
#endif /* S2R_EXERCISE_LATENCY */

S2RDEF s2r_result s2r_sample_hold_init(s2r_sample_hold* sh, double period) {
    S2R_ASSERT(sh);
    memset(sh, 0, sizeof *sh);
    if (!isfinite(period) || period < 0) return S2R_ERR_INVALID_ARGUMENT;
    sh->period = period;
    s2r_sample_hold_reset(sh, 0.0);
    return S2R_OK;
}

S2RDEF void s2r_sample_hold_reset(s2r_sample_hold* sh, double phase) {
    S2R_ASSERT(sh);
    if (!(phase > 0)) phase = 0;
    if (sh->period > 0) phase = fmod(phase, sh->period);
    else phase = 0;
    sh->phase = phase;
    sh->elapsed = phase;
    sh->started = 0;
}

/* Whether the sensor refreshes now; updates elapsed. */
static int s2r__sample_hold_due(s2r_sample_hold* sh, double dt) {
    if (!sh->started) {
        sh->started = 1;
        sh->elapsed = sh->phase;
        return 1;
    }
    if (sh->period <= 0) return 1;
    sh->elapsed += dt > 0 ? dt : 0;
    if (sh->elapsed < sh->period * (1.0 - 1e-9)) return 0;
    sh->elapsed -= sh->period;
    if (sh->elapsed >= sh->period) sh->elapsed = fmod(sh->elapsed, sh->period);
    return 1;
}

S2RDEF int s2r_sample_hold_step(s2r_sample_hold* sh, double dt, const double* fresh,
                                double* held, int n) {
    S2R_ASSERT(sh && fresh && held);
    if (!s2r__sample_hold_due(sh, dt)) return 0;
    if (n > 0) memmove(held, fresh, (size_t)n * sizeof(double));
    return 1;
}

/* >> section: Backend interface
   Flow: the one door to a robot (reset, command, advance, sensors), then the
   simulator behind it: config and init, then one episode of the
   randomized simulator - s2r__sim_reset draws, applies, sets up sensing
   and places the arm (its pieces follow it in order) - and the physics
   step every advance runs.  Read s2r__sim_reset first. */

/* --- Backend interface ---------------------------------------------------- */

S2RDEF s2r_result s2r_backend_reset(const s2r_backend* b, const double* q0,
                                    const double* target, s2r_rng* rng) {
    S2R_ASSERT(b);
    return b->reset(b->self, q0, target, rng);
}
S2RDEF s2r_result s2r_backend_command(const s2r_backend* b, const double* q_target) {
    S2R_ASSERT(b);
    return b->command(b->self, q_target);
}
S2RDEF s2r_result s2r_backend_advance(const s2r_backend* b, double seconds) {
    S2R_ASSERT(b);
    return b->advance(b->self, seconds);
}
S2RDEF s2r_result s2r_backend_read_sensors(const s2r_backend* b, s2r_sensors* out) {
    S2R_ASSERT(b);
    if (!out) return S2R_ERR_INVALID_ARGUMENT;
    return b->read_sensors(b->self, out);
}
S2RDEF s2r_result s2r_backend_ground_truth(const s2r_backend* b, s2r_ground_truth* out) {
    S2R_ASSERT(b);
    if (!out) return S2R_ERR_INVALID_ARGUMENT;
    return b->ground_truth(b->self, out);
}
S2RDEF s2r_result s2r_backend_halt(const s2r_backend* b) {
    S2R_ASSERT(b);
    return b->halt ? b->halt(b->self) : S2R_ERR_UNSUPPORTED;
}
S2RDEF s2r_result s2r_backend_place_object(const s2r_backend* b, const double xy[2]) {
    S2R_ASSERT(b);
    return b->place_object ? b->place_object(b->self, xy) : S2R_ERR_UNSUPPORTED;
}

/* --- The simulator backend: nominal or randomized ---------------------------- */

S2RDEF s2r_sim_config s2r_sim_config_default(s2r_robot_kind robot) {
    s2r_sim_config c;
    memset(&c, 0, sizeof c);
    c.robot = robot;
    c.randomization = s2r_randomization_none();
    c.noise_q = c.noise_qd = c.noise_target = s2r_noise_config_none();
    c.max_latency = 0.1;
    c.max_joint_speed = 50.0;
    return c;
}

/* Upper end of parameter p's range (0 when disabled). */
static double s2r__range_hi(const s2r_randomization* r, s2r_param p) {
    double lo = 0, hi = 0;
    if (r->p[p].enabled) s2r_dist_support(&r->p[p].dist, &lo, &hi);
    return hi;
}

/* Physics steps the delay lines must reach back: max_latency at the shortest
   timestep the randomization can draw. */
static int s2r__sim_delay_capacity(const s2r_sim* sim) {
    const s2r_param_range* ts = &sim->config.randomization.p[S2R_PARAM_TIMESTEP];
    double lo = 1, hi = 1, dt = sim->nominal->opt.timestep;
    if (ts->enabled) { s2r_dist_support(&ts->dist, &lo, &hi); dt = s2r_param_apply(ts, dt, lo); }
    if (!(dt > 0)) dt = sim->nominal->opt.timestep;
    return s2r_latency_steps(sim->config.max_latency, dt) + 1;
}

/* Valid, and the latencies (plus jitter) fit in max_latency. */
static s2r_result s2r__sim_check_randomization(const s2r_sim* sim, const s2r_randomization* r, char* error) {
    double worst;
    s2r_result res = s2r_randomization_check(r, error);
    int k;
    if (res != S2R_OK) return res;
    for (k = 0; k < r->n_joint_ranges; k++)
        if (r->joint_range[k].joint > sim->robot.info.n_joints)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s[%d]: the arm has %d joints",
                             s2r_param_name(r->joint_range[k].param), r->joint_range[k].joint, sim->robot.info.n_joints);
    worst = s2r__range_hi(r, S2R_PARAM_ACTION_LATENCY);
    if (s2r__range_hi(r, S2R_PARAM_OBS_LATENCY) > worst) worst = s2r__range_hi(r, S2R_PARAM_OBS_LATENCY);
    worst += s2r__range_hi(r, S2R_PARAM_LATENCY_JITTER);
    if (r->p[S2R_PARAM_TIMESTEP].enabled) {   /* a drawn timestep: half to twice the model's */
        double lo, hi, dt = sim->nominal->opt.timestep;
        s2r_dist_support(&r->p[S2R_PARAM_TIMESTEP].dist, &lo, &hi);
        lo = s2r_param_apply(&r->p[S2R_PARAM_TIMESTEP], dt, lo);
        hi = s2r_param_apply(&r->p[S2R_PARAM_TIMESTEP], dt, hi);
        if (!(lo >= 0.5 * dt && hi <= 2 * dt && lo >= S2R_TIMESTEP_MIN && hi <= S2R_TIMESTEP_MAX))
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "timestep: the range gives %g to %g s; the simulator "
                             "takes half to twice its model's %g s, within %g to %g s", lo, hi, dt,
                             S2R_TIMESTEP_MIN, S2R_TIMESTEP_MAX);
    }
    if (s2r__range_hi(r, S2R_PARAM_CAMERA_LATENCY) > worst) worst = s2r__range_hi(r, S2R_PARAM_CAMERA_LATENCY);
    if (worst > sim->config.max_latency)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "latency up to %g s (with jitter) exceeds max_latency %g s", worst, sim->config.max_latency);
    return S2R_OK;
}

/* --- The randomized simulator: one episode ---------------------------------
   The flow of a reset (the reading path "What does domain randomization do to
   a simulator?"): draw this episode's parameters (s2r__sim_sample_draw),
   write them into the model (s2r__sim_apply_draw), set up latencies and
   noise (s2r__sim_setup_sensing), put the arm, the marker and the object in
   place.  The pieces follow in that order; the physics step that every
   advance runs comes after them. */

static const double* s2r__sim_object(const s2r_sim* sim);
static s2r_randomization s2r__sim_active(const s2r_sim* sim);
static void s2r__scale_pair_friction(mjModel* m, int pair, double scale);
static void s2r__sim_apply_push_draw(s2r_sim* sim, const s2r_param_range* p, const double* v);
static void s2r__sim_add_payload(s2r_sim* sim, double kg);
static double s2r__joint_draw(const s2r_sim_draw* d, s2r_param p, int j);
static void s2r__sim_restore_nominal(s2r_sim* sim);
static void s2r__sim_sample_draw(const s2r_randomization* r, int n, s2r_rng* rng, s2r_sim_draw* d);
static void s2r__sim_apply_draw(s2r_sim* sim);
static void s2r__sim_setup_sensing(s2r_sim* sim);
static void s2r__sim_camera_reset(s2r_sim* sim);
static void s2r__sim_set_object(s2r_sim* sim, const double xy[2]);
static void s2r__clip_to_limits(const s2r_arm_info* info, const double* q, double* out);
static void s2r__robot_joint_state(const s2r_robot* r, double* qqd);

static s2r_result s2r__sim_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r_robot* r = &sim->robot;
    double state[2 * S2R_MAX_JOINTS] = {0}, kept[3];
    s2r_result res;
    if (target && !s2r_all_finite(target, 3))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "target contains NaN or Inf");
    if (q0 && !s2r_all_finite(q0, r->info.n_joints))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "start pose contains NaN or Inf");
    if (rng) {
        if (!sim->pinned) s2r__sim_sample_draw(&sim->config.randomization, r->info.n_joints, rng, &sim->draw);
        sim->drawn = 1;
        sim->rng = s2r_rng_split(rng, 0x5e25);
    }
    if (!target && r->target_mocap >= 0) {   /* NULL: the marker stays (resetting the data would move it) */
        memcpy(kept, r->data->mocap_pos + 3 * r->target_mocap, sizeof kept);
        target = kept;
    }
    s2r__sim_apply_draw(sim);
    mj_setConst(r->model, r->data);          /* masses, inertias and gains changed */
    res = s2r_robot_reset(r, q0);
    if (res != S2R_OK) return s2r__fail(sim->error, res, "%s", r->error);
    if (target && r->target_mocap >= 0) memcpy(r->data->mocap_pos + 3 * r->target_mocap, target, 3 * sizeof(double));
    s2r__clip_to_limits(&r->info, q0 ? q0 : r->info.q_home, sim->q_cmd);
    s2r__robot_joint_state(r, state);
    s2r_delay_reset(&sim->action_delay, sim->q_cmd);
    s2r_delay_reset(&sim->sensor_delay, state);
    s2r__sim_setup_sensing(sim);
    if (r->object_body >= 0) {   /* the object where the model puts it, on the table as drawn */
        s2r__sim_set_object(sim, sim->nominal->qpos0 + r->object_qpos_adr);
        s2r__sim_camera_reset(sim);
    }
    sim->time = sim->last_read = 0;
    sim->diverged = 0;
    sim->halted = 0;
    return S2R_OK;
}

/* Draw one episode: per-parameter values, then per-joint and per-element
   draws (joint 0 of a joint-wise parameter keeps value[p]), then the joints
   with ranges of their own draw from those. */
static void s2r__sim_sample_draw(const s2r_randomization* r, int n, s2r_rng* rng, s2r_sim_draw* d) {
    int j, k;
    s2r_randomization_sample(r, rng, d->value);
    d->per_joint = 1;
    for (k = 0; k < (int)(sizeof s2r__joint_wise / sizeof *s2r__joint_wise); k++) {
        s2r_param p = s2r__joint_wise[k];
        for (j = 0; j < n; j++)
            d->joint[p][j] = j > 0 && r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, rng) : d->value[p];
    }
    for (k = 0; k < r->n_joint_ranges; k++)
        if (r->joint_range[k].joint <= n)   /* always, once the simulator has checked its ranges */
            d->joint[r->joint_range[k].param][r->joint_range[k].joint - 1] = s2r_dist_sample(&r->joint_range[k].dist, rng);
    for (j = 0; j < n; j++) {
        d->link_mass[j] = r->p[S2R_PARAM_LINK_MASS].enabled ? s2r_dist_sample(&r->p[S2R_PARAM_LINK_MASS].dist, rng)
                                                            : d->value[S2R_PARAM_LINK_MASS];
        d->qpos_bias[j] = r->p[S2R_PARAM_QPOS_BIAS].enabled ? s2r_dist_sample(&r->p[S2R_PARAM_QPOS_BIAS].dist, rng) : 0;
    }
    for (j = 0; j < 3; j++)
        d->target_offset[j] = r->p[S2R_PARAM_TARGET_OFFSET].enabled
                                  ? s2r_dist_sample(&r->p[S2R_PARAM_TARGET_OFFSET].dist, rng) : 0;
}

/* Model = nominal with `draw` applied through the randomization's modes. */
static void s2r__sim_apply_draw(s2r_sim* sim) {
    s2r_randomization active = s2r__sim_active(sim);
    const s2r_param_range* p = active.p;
    const double* v = sim->draw.value;
    const s2r_sim_draw* d = &sim->draw;
    s2r_robot* r = &sim->robot;
    mjModel* m = r->model;
    int g, j;
    s2r__sim_restore_nominal(sim);
    for (g = 0; g < m->ngeom; g++)
        m->geom_friction[3 * g] = fmax(0, s2r_param_apply(&p[S2R_PARAM_FRICTION], m->geom_friction[3 * g], v[S2R_PARAM_FRICTION]));
    for (j = 0; j < r->info.n_joints; j++) {
        int dof = r->dof_adr[j], a = r->actuator[j], b = r->body[j];
        double kp = s2r_param_apply(&p[S2R_PARAM_KP], r->info.kp[j], s2r__joint_draw(d, S2R_PARAM_KP, j));
        double kv = s2r_param_apply(&p[S2R_PARAM_KV], r->info.kv[j], s2r__joint_draw(d, S2R_PARAM_KV, j));
        double scale = s2r_param_apply(&p[S2R_PARAM_LINK_MASS], 1.0, d->link_mass[j]);
        m->dof_damping[dof] = fmax(0, s2r_param_apply(&p[S2R_PARAM_DAMPING], m->dof_damping[dof], s2r__joint_draw(d, S2R_PARAM_DAMPING, j)));
        m->dof_armature[dof] = fmax(0, s2r_param_apply(&p[S2R_PARAM_ARMATURE], m->dof_armature[dof], s2r__joint_draw(d, S2R_PARAM_ARMATURE, j)));
        m->dof_frictionloss[dof] = fmax(0, s2r_param_apply(&p[S2R_PARAM_FRICTIONLOSS], m->dof_frictionloss[dof], s2r__joint_draw(d, S2R_PARAM_FRICTIONLOSS, j)));
        m->body_mass[b] *= scale;
        m->body_inertia[3 * b] *= scale;
        m->body_inertia[3 * b + 1] *= scale;
        m->body_inertia[3 * b + 2] *= scale;
        m->actuator_gainprm[a * mjNGAIN] = kp;
        m->actuator_biasprm[a * mjNBIAS + 1] = -kp;
        m->actuator_biasprm[a * mjNBIAS + 2] = -kv;
        m->actuator_forcerange[2 * a + 1] = s2r_param_apply(&p[S2R_PARAM_TORQUE_LIMIT], r->info.torque_limit[j], s2r__joint_draw(d, S2R_PARAM_TORQUE_LIMIT, j));
        m->actuator_forcerange[2 * a] = -m->actuator_forcerange[2 * a + 1];
    }
    s2r__sim_add_payload(sim, s2r_param_apply(&p[S2R_PARAM_PAYLOAD], 0, v[S2R_PARAM_PAYLOAD]));
    m->opt.timestep = s2r_param_apply(&p[S2R_PARAM_TIMESTEP], m->opt.timestep, v[S2R_PARAM_TIMESTEP]);
    if (r->object_body >= 0) s2r__sim_apply_push_draw(sim, p, v);
}

/* Every field a draw touches, copied back from the nominal model. */
static void s2r__sim_restore_nominal(s2r_sim* sim) {
    mjModel* m = sim->robot.model;
    const mjModel* m0 = sim->nominal;
#define S2R__RESTORE(field, count) memcpy(m->field, m0->field, (size_t)(count) * sizeof(*m->field))
    S2R__RESTORE(geom_friction, 3 * m->ngeom);
    S2R__RESTORE(dof_damping, m->nv);
    S2R__RESTORE(dof_armature, m->nv);
    S2R__RESTORE(dof_frictionloss, m->nv);
    S2R__RESTORE(body_mass, m->nbody);
    S2R__RESTORE(body_inertia, 3 * m->nbody);
    S2R__RESTORE(body_ipos, 3 * m->nbody);
    S2R__RESTORE(actuator_gainprm, mjNGAIN * m->nu);
    S2R__RESTORE(actuator_biasprm, mjNBIAS * m->nu);
    S2R__RESTORE(actuator_forcerange, 2 * m->nu);
    if (m->npair > 0) S2R__RESTORE(pair_friction, 5 * m->npair);
    S2R__RESTORE(geom_pos, 3 * m->ngeom);
    S2R__RESTORE(geom_quat, 4 * m->ngeom);
#undef S2R__RESTORE
    m->opt.timestep = m0->opt.timestep;
}

/* Joint j's draw of joint-wise parameter p. */
static double s2r__joint_draw(const s2r_sim_draw* d, s2r_param p, int j) {
    return d->per_joint ? d->joint[p][j] : d->value[p];
}

/* A payload of `kg` rigidly fixed at the flange: mass added to the flange's
   body, its centre of mass moved toward the flange, and the point mass's
   inertia about the new centre added to each principal axis (an upper bound
   that keeps the inertia valid). */
static void s2r__sim_add_payload(s2r_sim* sim, double kg) {
    mjModel* m = sim->robot.model;
    int b = sim->robot.flange_body, i;
    double m0 = m->body_mass[b], m1 = m0 + kg, r2 = 0, site[3];
    if (!(kg > 0)) return;
    memcpy(site, m->site_pos + 3 * sim->robot.flange_site, sizeof site);
    for (i = 0; i < 3; i++) {
        double c = (m0 * m->body_ipos[3 * b + i] + kg * site[i]) / m1;
        r2 += (site[i] - c) * (site[i] - c);
        m->body_ipos[3 * b + i] = c;
    }
    for (i = 0; i < 3; i++) m->body_inertia[3 * b + i] += kg * r2;
    m->body_mass[b] = m1;
}

/* The push scene's part of a draw: friction of the object-table and
   tip-object pairs, object mass, inertia, damping and centre of mass,
   table height and tilt. */
static void s2r__sim_apply_push_draw(s2r_sim* sim, const s2r_param_range* p, const double* v) {
    s2r_robot* r = &sim->robot;
    mjModel* m = r->model;
    const s2r_sim_draw* d = &sim->draw;
    int b = r->object_body, t = r->table_geom, i;
    double mass = s2r_param_apply(&p[S2R_PARAM_OBJECT_MASS], 1.0, v[S2R_PARAM_OBJECT_MASS]);
    double damping = s2r_param_apply(&p[S2R_PARAM_OBJECT_DAMPING], 1.0, v[S2R_PARAM_OBJECT_DAMPING]);
    double quat_x[4], quat_y[4], tilt[4], nominal[4];
    s2r__scale_pair_friction(m, r->pair_object_table, s2r_param_apply(&p[S2R_PARAM_OBJECT_FRICTION], 1.0, v[S2R_PARAM_OBJECT_FRICTION]));
    s2r__scale_pair_friction(m, r->pair_tip_object, s2r_param_apply(&p[S2R_PARAM_TIP_FRICTION], 1.0, v[S2R_PARAM_TIP_FRICTION]));
    m->body_mass[b] *= mass;
    for (i = 0; i < 3; i++) {
        m->body_inertia[3 * b + i] *= mass;
        m->body_ipos[3 * b + i] += d->object_com[i];
    }
    for (i = 0; i < 6; i++) m->dof_damping[r->object_dof_adr + i] = fmax(0, m->dof_damping[r->object_dof_adr + i] * damping);
    m->geom_pos[3 * t + 2] = s2r_param_apply(&p[S2R_PARAM_TABLE_HEIGHT], m->geom_pos[3 * t + 2], v[S2R_PARAM_TABLE_HEIGHT]);
    quat_x[0] = cos(0.5 * d->table_tilt[0]); quat_x[1] = sin(0.5 * d->table_tilt[0]); quat_x[2] = quat_x[3] = 0;
    quat_y[0] = cos(0.5 * d->table_tilt[1]); quat_y[2] = sin(0.5 * d->table_tilt[1]); quat_y[1] = quat_y[3] = 0;
    mju_mulQuat(tilt, quat_x, quat_y);
    memcpy(nominal, m->geom_quat + 4 * t, sizeof nominal);
    mju_mulQuat(m->geom_quat + 4 * t, tilt, nominal);
}

/* Scale the sliding friction of contact pair `pair` (both tangent
   directions) by `scale`. */
static void s2r__scale_pair_friction(mjModel* m, int pair, double scale) {
    if (pair < 0) return;
    m->pair_friction[5 * pair] = fmax(0, m->pair_friction[5 * pair] * scale);
    m->pair_friction[5 * pair + 1] = fmax(0, m->pair_friction[5 * pair + 1] * scale);
}

/* Latencies, jitter and noise levels of this episode. */
static void s2r__sim_setup_sensing(s2r_sim* sim) {
    s2r_randomization active = s2r__sim_active(sim);
    const s2r_param_range* p = active.p;
    const double* v = sim->draw.value;
    double dt = sim->robot.model->opt.timestep;
    int max_age = sim->action_delay.capacity - 1;
    int jitter = s2r_latency_steps(s2r_param_apply(&p[S2R_PARAM_LATENCY_JITTER], 0, v[S2R_PARAM_LATENCY_JITTER]), dt);
    int n = sim->robot.info.n_joints;
    s2r_delay_jitter_init(&sim->action_jitter, s2r_latency_steps(s2r_param_apply(&p[S2R_PARAM_ACTION_LATENCY], 0, v[S2R_PARAM_ACTION_LATENCY]), dt), jitter, max_age);
    s2r_delay_jitter_init(&sim->sensor_jitter, s2r_latency_steps(s2r_param_apply(&p[S2R_PARAM_OBS_LATENCY], 0, v[S2R_PARAM_OBS_LATENCY]), dt), jitter, max_age);
    sim->sensor_age = sim->sensor_jitter.base;
    sim->noise[0] = sim->config.noise_q;
    sim->noise[1] = sim->config.noise_qd;
    sim->noise[2] = sim->config.noise_target;
    sim->noise[0].white_std = s2r_param_apply(&p[S2R_PARAM_QPOS_NOISE], sim->noise[0].white_std, v[S2R_PARAM_QPOS_NOISE]);
    sim->noise[1].white_std = s2r_param_apply(&p[S2R_PARAM_QVEL_NOISE], sim->noise[1].white_std, v[S2R_PARAM_QVEL_NOISE]);
    sim->noise[2].white_std = s2r_param_apply(&p[S2R_PARAM_TARGET_NOISE], sim->noise[2].white_std, v[S2R_PARAM_TARGET_NOISE]);
    s2r_noise_begin_episode(&sim->noise[0], sim->noise_state, n, &sim->rng);
    s2r_noise_begin_episode(&sim->noise[1], sim->noise_state + n, n, &sim->rng);
    s2r_noise_begin_episode(&sim->noise[2], sim->noise_state + 2 * n, 3, &sim->rng);
    s2r_sample_hold_reset(&sim->sensor_hold, sim->config.sensor_period > 0 ? s2r_rng_range(&sim->rng, 0, sim->config.sensor_period) : 0);
    if (sim->robot.object_body >= 0) {   /* the object camera: delay, noise, missed frames */
        sim->camera_age = s2r_latency_steps(s2r_param_apply(&p[S2R_PARAM_CAMERA_LATENCY], 0, v[S2R_PARAM_CAMERA_LATENCY]), dt);
        if (sim->camera_age > max_age) sim->camera_age = max_age;
        sim->object_noise = sim->config.noise_object;
        sim->object_noise.white_std = s2r_param_apply(&p[S2R_PARAM_OBJECT_NOISE], sim->object_noise.white_std, v[S2R_PARAM_OBJECT_NOISE]);
        sim->object_noise.dropout = s2r_clamp(s2r_param_apply(&p[S2R_PARAM_OBJECT_DROPOUT], sim->object_noise.dropout, v[S2R_PARAM_OBJECT_DROPOUT]), 0, 1);
    }
}

/* The randomization in force: the configured one once a draw was made,
   else everything off (the nominal model). */
static s2r_randomization s2r__sim_active(const s2r_sim* sim) {
    return sim->drawn ? sim->config.randomization : s2r_randomization_none();
}

/* The camera's view of the object starts afresh: its history filled with
   where the object is now, a new noise episode, a random phase of its
   frame clock.  Push scene only. */
static void s2r__sim_camera_reset(s2r_sim* sim) {
    s2r_delay_reset(&sim->camera_delay, s2r__sim_object(sim));
    s2r_noise_begin_episode(&sim->object_noise, sim->object_noise_state, 3, &sim->rng);
    s2r_sample_hold_reset(&sim->camera_hold, sim->config.camera_period > 0 ? s2r_rng_range(&sim->rng, 0, sim->config.camera_period) : 0);
    memcpy(sim->object_held, s2r__sim_object(sim), sizeof sim->object_held);
}

/* The object's true centre (m, world): its free joint's position, current
   after a step (xpos still holds the positions the step started from). */
static const double* s2r__sim_object(const s2r_sim* sim) {
    return sim->robot.data->qpos + sim->robot.object_qpos_adr;
}

/* The object at rest on the table top (as drawn: height and tilt) with its
   centre above (x, y), flat on the table. */
static void s2r__sim_set_object(s2r_sim* sim, const double xy[2]) {
    s2r_robot* r = &sim->robot;
    const mjModel* m = r->model;
    mjData* d = r->data;
    const double* q = m->geom_quat + 4 * r->table_geom;
    double normal[3], up[3] = {0, 0, 1}, *pos = d->qpos + r->object_qpos_adr, h;
    int i;
    mju_rotVecQuat(normal, up, q);
    h = m->geom_pos[3 * r->table_geom + 2] - (normal[0] * (xy[0] - m->geom_pos[3 * r->table_geom]) +
                                              normal[1] * (xy[1] - m->geom_pos[3 * r->table_geom + 1])) / normal[2];
    pos[0] = xy[0];
    pos[1] = xy[1];
    pos[2] = h + r->info.object_half_height / normal[2];
    memcpy(pos + 3, q, 4 * sizeof(double));
    for (i = 0; i < 6; i++) d->qvel[r->object_dof_adr + i] = 0;
    mj_forward(m, d);
}

static s2r_result s2r__sim_place_object(void* self, const double xy[2]) {
    s2r_sim* sim = (s2r_sim*)self;
    const s2r_arm_info* info = &sim->robot.info;
    if (!xy || !s2r_all_finite(xy, 2))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "object position is NULL or contains NaN/Inf");
    if (xy[0] < info->table_lo[0] || xy[0] > info->table_hi[0] || xy[1] < info->table_lo[1] || xy[1] > info->table_hi[1])
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "object at (%g, %g) m is off the table ([%g, %g] x [%g, %g])",
                         xy[0], xy[1], info->table_lo[0], info->table_hi[0], info->table_lo[1], info->table_hi[1]);
    s2r__sim_set_object(sim, xy);
    s2r__sim_camera_reset(sim);
    return S2R_OK;
}

/* Servo targets clipped to the joint limits. */
static void s2r__clip_to_limits(const s2r_arm_info* info, const double* q, double* out) {
    int j;
    for (j = 0; j < info->n_joints; j++) out[j] = s2r_clamp(q[j], info->q_min[j], info->q_max[j]);
}

/* Non-finite state, a joint faster than `max_speed` (rad/s), or MuJoCo's
   own alarm: on a bad (NaN or > mjMAXVAL) qacc, qpos or qvel it warns and
   silently resets the data to the start pose, which must not pass for a
   finished motion.  mj_resetData clears the counters. */
static int s2r__robot_diverged(const s2r_robot* r, double max_speed) {
    const mjData* d = r->data;
    int j;
    if (d->warning[mjWARN_BADQACC].number || d->warning[mjWARN_BADQVEL].number || d->warning[mjWARN_BADQPOS].number)
        return 1;
    for (j = 0; j < r->info.n_joints; j++) {
        double v = r->data->qvel[r->dof_adr[j]];
        if (!isfinite(v) || !isfinite(r->data->qpos[r->qpos_adr[j]]) || fabs(v) > max_speed) return 1;
    }
    return 0;
}

/* True joint positions and velocities, [2n]. */
static void s2r__robot_joint_state(const s2r_robot* r, double* qqd) {
    int j, n = r->info.n_joints;
    for (j = 0; j < n; j++) {
        qqd[j] = r->data->qpos[r->qpos_adr[j]];
        qqd[n + j] = r->data->qvel[r->dof_adr[j]];
    }
}

/* Ground truth from the simulated state (flange velocity needs the
   velocity-dependent quantities, recomputed here; mj_step recomputes them
   anyway, so this changes nothing downstream). */
static void s2r__robot_ground_truth(s2r_robot* r, int diverged, s2r_ground_truth* out) {
    const mjModel* m = r->model;
    mjData* d = r->data;
    double vel6[6];
    int j;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_comVel(m, d);
    mj_objectVelocity(m, d, mjOBJ_SITE, r->flange_site, vel6, 0);
    memcpy(out->flange, d->site_xpos + 3 * r->flange_site, 3 * sizeof(double));
    memcpy(out->flange_vel, vel6 + 3, 3 * sizeof(double));
    if (r->target_mocap >= 0) memcpy(out->target, d->mocap_pos + 3 * r->target_mocap, 3 * sizeof(double));
    for (j = 0; j < r->info.n_joints; j++) out->q[j] = d->qpos[r->qpos_adr[j]];
    out->diverged = diverged;
    if (r->object_body >= 0) {
        mj_objectVelocity(m, d, mjOBJ_SITE, r->tip_site, vel6, 0);
        memcpy(out->tip, d->site_xpos + 3 * r->tip_site, 3 * sizeof(double));
        memcpy(out->tip_vel, vel6 + 3, 3 * sizeof(double));
        memcpy(out->object, d->xpos + 3 * r->object_body, 3 * sizeof(double));
        memcpy(out->object_vel, d->qvel + r->object_dof_adr, 3 * sizeof(double));
    }
}

static s2r_result s2r__sim_command(void* self, const double* q_target) {
    s2r_sim* sim = (s2r_sim*)self;
    if (!q_target || !s2r_all_finite(q_target, sim->robot.info.n_joints))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "joint command contains NaN or Inf; ignored");
    s2r__clip_to_limits(&sim->robot.info, q_target, sim->q_cmd);
    return S2R_OK;
}

/* One physics step: delayed command (servo acts on the biased encoder),
   effects, mj_step, then record the true state for the sensors.  0, or
   1 when the physics diverged, 2 on a MuJoCo error (its message in
   sim->error). */
static int s2r__sim_physics_step(s2r_sim* sim) {
    s2r_robot* r = &sim->robot;
    double state[2 * S2R_MAX_JOINTS];
    const double* cmd;
    s2r__mj_physics step;
    int j;
    s2r_delay_push(&sim->action_delay, sim->q_cmd);
    cmd = s2r_delay_peek(&sim->action_delay, s2r_delay_jitter_next(&sim->action_jitter, &sim->rng));
    if (sim->halted) cmd = sim->hold;   /* below the command path: no latency */
    for (j = 0; j < r->info.n_joints; j++) r->data->ctrl[r->actuator[j]] = cmd[j] - sim->draw.qpos_bias[j];
    if (sim->effects) sim->effects(sim->effects_context, sim);
    step.m = r->model;
    step.d = r->data;
    if (s2r__mj_run(s2r__mj_step_call, &step, sim->error) != S2R_OK) return 2;
    if (s2r__robot_diverged(r, sim->config.max_joint_speed)) return 1;
    s2r__robot_joint_state(r, state);
    s2r_delay_push(&sim->sensor_delay, state);
    sim->sensor_age = s2r_delay_jitter_next(&sim->sensor_jitter, &sim->rng);
    if (r->object_body >= 0) s2r_delay_push(&sim->camera_delay, s2r__sim_object(sim));
    sim->time += r->model->opt.timestep;
    return 0;
}

static s2r_result s2r__sim_advance(void* self, double seconds) {
    s2r_sim* sim = (s2r_sim*)self;
    int i, steps;
    if (!(seconds >= 0) || !(seconds <= S2R_ADVANCE_MAX))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "advance by %g s: need 0 to %g s", seconds, S2R_ADVANCE_MAX);
    if (sim->diverged) return s2r__fail(sim->error, S2R_ERR_DIVERGED, "physics diverged; reset first");
    steps = s2r_robot_steps_for(&sim->robot, seconds);
    for (i = 0; i < steps; i++) {
        int bad = s2r__sim_physics_step(sim);
        if (bad) sim->diverged = 1;   /* either way, only a reset goes on */
        if (bad == 2) return S2R_ERR_MODEL;   /* sim->error: MuJoCo's message */
        if (bad) return s2r__fail(sim->error, S2R_ERR_DIVERGED, "physics diverged at t = %.3f s", sim->time);
    }
    return S2R_OK;
}

/* The object camera: the frame from camera_age steps ago, with the
   calibration offset and noise; a frame that misses the object (dropout,
   or the arm in the way) repeats the last one; refreshed at the camera's
   own rate. */
static void s2r__sim_read_camera(s2r_sim* sim, double dt, double object[3]) {
    const s2r_robot* r = &sim->robot;
    const double* truth = s2r_delay_peek(&sim->camera_delay, sim->camera_age);
    const double* tip = r->data->site_xpos + 3 * r->tip_site;
    const double* now = s2r__sim_object(sim);
    double fresh[3];
    int i;
    for (i = 0; i < 3; i++) fresh[i] = truth[i] + sim->draw.target_offset[i];
    s2r_noise_apply(&sim->object_noise, sim->object_noise_state, fresh, fresh, 3, dt, &sim->rng);
    if (sim->config.occlusion_dropout > 0 &&
        (tip[0] - now[0]) * (tip[0] - now[0]) + (tip[1] - now[1]) * (tip[1] - now[1]) <
            sim->config.occlusion_radius * sim->config.occlusion_radius &&
        s2r_rng_uniform(&sim->rng) < sim->config.occlusion_dropout)
        memcpy(fresh, sim->object_held, sizeof fresh);
    s2r_sample_hold_step(&sim->camera_hold, dt, fresh, sim->object_held, 3);
    memcpy(object, sim->object_held, 3 * sizeof(double));
}

/* Reading = delayed truth + noise + encoder bias / calibration offset,
   refreshed at the sensor's own rate. */
static s2r_result s2r__sim_read_sensors(void* self, s2r_sensors* out) {
    s2r_sim* sim = (s2r_sim*)self;
    const s2r_robot* r = &sim->robot;
    int j, n = r->info.n_joints;
    double fresh[2 * S2R_MAX_JOINTS + 3];
    const double* truth = s2r_delay_peek(&sim->sensor_delay, sim->sensor_age);
    double dt = sim->time - sim->last_read;
    s2r_noise_apply(&sim->noise[0], sim->noise_state, truth, fresh, n, dt, &sim->rng);
    s2r_noise_apply(&sim->noise[1], sim->noise_state + n, truth + n, fresh + n, n, dt, &sim->rng);
    for (j = 0; j < n; j++) fresh[j] += sim->draw.qpos_bias[j];
    for (j = 0; j < 3; j++)
        fresh[2 * n + j] = (r->target_mocap >= 0 ? r->data->mocap_pos[3 * r->target_mocap + j] : 0) + sim->draw.target_offset[j];
    s2r_noise_apply(&sim->noise[2], sim->noise_state + 2 * n, fresh + 2 * n, fresh + 2 * n, 3, dt, &sim->rng);
    s2r_sample_hold_step(&sim->sensor_hold, dt, fresh, sim->held, 2 * n + 3);
    sim->last_read = sim->time;
    memset(out, 0, sizeof *out);
    out->time = sim->time;
    for (j = 0; j < n; j++) {
        out->q[j] = sim->held[j];
        out->qd[j] = sim->held[n + j];
        out->tau[j] = r->data->actuator_force[r->actuator[j]];
    }
    memcpy(out->target, sim->held + 2 * n, 3 * sizeof(double));
    if (r->object_body >= 0) s2r__sim_read_camera(sim, dt, out->object);
    return S2R_OK;
}

/* Brakes: a large joint damping (integrated implicitly, so it is stable at
   any size) and servos holding the measured position.  Reset restores the
   model's damping from the nominal copy. */
#define S2R_BRAKE_DAMPING 2000.0   /* N·m·s/rad added to every arm joint */
static s2r_result s2r__sim_halt(void* self) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r_robot* r = &sim->robot;
    int j;
    if (sim->halted) return S2R_OK;
    for (j = 0; j < r->info.n_joints; j++) {
        r->model->dof_damping[r->dof_adr[j]] += S2R_BRAKE_DAMPING;
        sim->hold[j] = r->data->qpos[r->qpos_adr[j]] + sim->draw.qpos_bias[j];
    }
    sim->halted = 1;
    return S2R_OK;
}

static s2r_result s2r__sim_ground_truth(void* self, s2r_ground_truth* out) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r__robot_ground_truth(&sim->robot, sim->diverged, out);
    return S2R_OK;
}

static s2r_result s2r__sim_load_robot(s2r_sim* sim) {
    const s2r_sim_config* c = &sim->config;
    s2r_result res;
    if (c->robot == S2R_ROBOT_CUSTOM)
        res = c->mjcf_path ? s2r_robot_load_file(&sim->robot, c->mjcf_path) : s2r_robot_load_xml(&sim->robot, c->mjcf_xml);
    else
        res = s2r_robot_load_scene(&sim->robot, c->robot, c->scene);
    if (res != S2R_OK) return s2r__fail(sim->error, res, "%s", sim->robot.error);
    sim->nominal = mj_copyModel(NULL, sim->robot.model);
    if (!sim->nominal) return s2r__fail(sim->error, S2R_ERR_OUT_OF_MEMORY, "could not copy the nominal model");
    return S2R_OK;
}

static s2r_result s2r__sim_check_config(const s2r_sim_config* c, char* error) {
    s2r_result res;
    if (!(c->max_joint_speed > 0)) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_joint_speed must be > 0 rad/s");
    if (!(c->max_latency >= 0) || !isfinite(c->max_latency) || c->max_latency > 10)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_latency must be in [0, 10] s, got %g", c->max_latency);
    if (!(c->sensor_period >= 0) || !isfinite(c->sensor_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sensor_period must be >= 0 s");
    if ((res = s2r_noise_config_check(&c->noise_q, error)) != S2R_OK) return res;
    if ((res = s2r_noise_config_check(&c->noise_qd, error)) != S2R_OK) return res;
    if ((res = s2r_noise_config_check(&c->noise_object, error)) != S2R_OK) return res;
    if (!(c->camera_period >= 0) || !isfinite(c->camera_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "camera_period must be >= 0 s");
    if (!(c->occlusion_radius >= 0) || !isfinite(c->occlusion_radius) || !(c->occlusion_dropout >= 0 && c->occlusion_dropout <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "occlusion_radius must be >= 0 m and occlusion_dropout in [0, 1]");
    return s2r_noise_config_check(&c->noise_target, error);
}

static void s2r__sim_wire_backend(s2r_sim* sim) {
    sim->backend.self = sim;
    sim->backend.name = "sim";
    sim->backend.info = &sim->robot.info;
    sim->backend.error = sim->error;
    sim->backend.reset = s2r__sim_reset;
    sim->backend.command = s2r__sim_command;
    sim->backend.advance = s2r__sim_advance;
    sim->backend.read_sensors = s2r__sim_read_sensors;
    sim->backend.ground_truth = s2r__sim_ground_truth;
    sim->backend.halt = s2r__sim_halt;
    sim->backend.place_object = sim->robot.object_body >= 0 ? s2r__sim_place_object : NULL;
}

/* Allocations after loading the model: the delay lines. */
static s2r_result s2r__sim_allocate(s2r_sim* sim) {
    int n = sim->robot.info.n_joints, cap = s2r__sim_delay_capacity(sim);
    if (s2r_delay_init(&sim->action_delay, n, cap) != S2R_OK || s2r_delay_init(&sim->sensor_delay, 2 * n, cap) != S2R_OK ||
        (sim->robot.object_body >= 0 && s2r_delay_init(&sim->camera_delay, 3, cap) != S2R_OK))
        return s2r__fail(sim->error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the delay lines");
    return S2R_OK;
}

S2RDEF s2r_result s2r_sim_init(s2r_sim* sim, const s2r_sim_config* config) {
    s2r_result res;
    S2R_ASSERT(sim);
    memset(sim, 0, sizeof *sim);
    if (!config) return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "sim config is NULL");
    sim->config = *config;
    res = s2r__sim_check_config(config, sim->error);
    if (res == S2R_OK) res = s2r__sim_load_robot(sim);
    if (res == S2R_OK) res = s2r__sim_check_randomization(sim, &config->randomization, sim->error);
    if (res == S2R_OK) res = s2r__sim_allocate(sim);
    if (res != S2R_OK) {
        char keep[S2R_ERROR_LEN];
        memcpy(keep, sim->error, sizeof keep);
        s2r_sim_free(sim);
        memcpy(sim->error, keep, sizeof keep);
        return res;
    }
    s2r_sample_hold_init(&sim->sensor_hold, config->sensor_period);
    s2r_sample_hold_init(&sim->camera_hold, config->camera_period);
    sim->rng = s2r_rng_make(0, 0x5e25);
    s2r__sim_wire_backend(sim);
    return s2r__sim_reset(sim, NULL, NULL, NULL);
}

S2RDEF void s2r_sim_free(s2r_sim* sim) {
    if (!sim) return;
    s2r_delay_free(&sim->action_delay);
    s2r_delay_free(&sim->sensor_delay);
    s2r_delay_free(&sim->camera_delay);
    if (sim->nominal) mj_deleteModel(sim->nominal);
    s2r_robot_free(&sim->robot);
    memset(sim, 0, sizeof *sim);
}

S2RDEF const s2r_backend* s2r_sim_backend(s2r_sim* sim) {
    S2R_ASSERT(sim);
    return &sim->backend;
}

S2RDEF s2r_result s2r_sim_set_randomization(s2r_sim* sim, const s2r_randomization* r) {
    s2r_result res;
    S2R_ASSERT(sim);
    if (!r) return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "randomization is NULL");
    res = s2r__sim_check_randomization(sim, r, sim->error);
    if (res != S2R_OK) return res;
    if (s2r__sim_delay_capacity(sim) > sim->action_delay.capacity)
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "timestep range too small for the delay lines; raise max_latency headroom at init");
    sim->config.randomization = *r;
    sim->pinned = 0;
    return S2R_OK;
}

static s2r_result s2r__sim_check_draw(s2r_sim* sim, const s2r_sim_draw* d);

S2RDEF s2r_result s2r_sim_pin_draw(s2r_sim* sim, const s2r_sim_draw* draw) {
    s2r_result res;
    S2R_ASSERT(sim);
    if (!draw || !s2r_all_finite(draw->value, S2R_PARAM_COUNT) || !s2r_all_finite(draw->link_mass, S2R_MAX_JOINTS) ||
        !s2r_all_finite(draw->qpos_bias, S2R_MAX_JOINTS) || !s2r_all_finite(draw->target_offset, 3) ||
        !s2r_all_finite(draw->object_com, 3) || !s2r_all_finite(draw->table_tilt, 2) ||
        (draw->per_joint && !s2r_all_finite(&draw->joint[0][0], S2R_PARAM_COUNT * S2R_MAX_JOINTS)))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "draw is NULL or contains NaN/Inf");
    if ((res = s2r__sim_check_draw(sim, draw)) != S2R_OK) return res;
    sim->draw = *draw;
    sim->pinned = sim->drawn = 1;
    return S2R_OK;
}

/* A pinned draw meets the bounds a ranges file meets: every value the
   simulator's ranges apply (joint by joint, link by link), taken as a range
   fixed at that value, passes the check a randomization passes
   (s2r__sim_check_randomization: signs, a timestep within half to twice the
   model's and S2R_TIMESTEP_MIN .. MAX, latencies within max_latency). */
static s2r_result s2r__sim_check_draw(s2r_sim* sim, const s2r_sim_draw* d) {
    s2r_randomization fixed = sim->config.randomization;
    s2r_result res;
    char msg[S2R_ERROR_LEN];
    int p, j, k, n = sim->robot.info.n_joints;
    fixed.n_joint_ranges = 0;
    for (p = 0; p < S2R_PARAM_COUNT; p++) fixed.p[p].dist = s2r_dist_fixed(d->value[p]);
    if ((res = s2r__sim_check_randomization(sim, &fixed, msg)) != S2R_OK)
        return s2r__fail(sim->error, res, "pinned draw: %s", msg);
    for (j = 0; j < n; j++) {
        fixed.p[S2R_PARAM_LINK_MASS].dist = s2r_dist_fixed(d->link_mass[j]);
        if ((res = s2r_param_range_check(S2R_PARAM_LINK_MASS, &fixed.p[S2R_PARAM_LINK_MASS], msg)) != S2R_OK)
            return s2r__fail(sim->error, res, "pinned draw, link %d: %s", j + 1, msg);
        for (k = 0; d->per_joint && k < (int)(sizeof s2r__joint_wise / sizeof *s2r__joint_wise); k++) {
            s2r_param q = s2r__joint_wise[k];
            fixed.p[q].dist = s2r_dist_fixed(d->joint[q][j]);
            if ((res = s2r_param_range_check(q, &fixed.p[q], msg)) != S2R_OK)
                return s2r__fail(sim->error, res, "pinned draw, joint %d: %s", j + 1, msg);
        }
    }
    return S2R_OK;
}

/* One parameter's value in the draw: the mean over the joints (links) for
   the joint-wise ones, qpos_bias's rms, target_offset's x. */
static double s2r__sim_draw_summary(const s2r_sim_draw* d, s2r_param p, int n) {
    double sum = 0;
    int j;
    if (p == S2R_PARAM_TARGET_OFFSET) return d->target_offset[0];
    if (!s2r__is_joint_wise(p) && p != S2R_PARAM_LINK_MASS && p != S2R_PARAM_QPOS_BIAS) return d->value[p];
    for (j = 0; j < n; j++) {
        if (p == S2R_PARAM_LINK_MASS) sum += d->link_mass[j];
        else if (p == S2R_PARAM_QPOS_BIAS) sum += d->qpos_bias[j] * d->qpos_bias[j];
        else sum += s2r__joint_draw(d, p, j);
    }
    return p == S2R_PARAM_QPOS_BIAS ? sqrt(sum / n) : sum / n;
}

S2RDEF void s2r_sim_privileged(const s2r_sim* sim, float out[S2R_PRIVILEGED_DIM]) {
    S2R_ASSERT(sim && out);
    const s2r_sim_draw* d = &sim->draw;
    int p, n = sim->robot.info.n_joints;
    for (p = 0; p < S2R_PRIVILEGED_DIM; p++) {   /* (read every step: no copy of the randomization) */
        const s2r_param_range* e = &sim->config.randomization.p[p < S2R_PARAM_COUNT ? p : S2R_PARAM_TARGET_OFFSET];
        double lo, hi, v;
        out[p] = 0;
        if (!sim->drawn || !e->enabled) continue;   /* the nominal model before any draw */
        s2r_dist_support(&e->dist, &lo, &hi);
        if (!(hi > lo)) continue;
        if (p == S2R_PARAM_QPOS_BIAS) {   /* the rms's range */
            hi = fmax(fabs(lo), fabs(hi));
            lo = 0;
        }
        v = p < S2R_PARAM_COUNT ? s2r__sim_draw_summary(d, (s2r_param)p, n) : d->target_offset[p - S2R_PARAM_COUNT + 1];
        out[p] = (float)s2r_clamp((v - 0.5 * (lo + hi)) / (0.5 * (hi - lo)), -3, 3);
    }
}

/* >> section: Stand-in real robot
   Flow: a unit is a simulator with hidden parameters and unmodeled effects:
   s2r_real_unit_draw draws the unit from the fleet distribution (its
   pieces follow it), s2r__real_effects runs every physics step (friction,
   backlash, torque derating, the worn patch), then the unit's init, the
   ablated unit and the ground truth.  Read s2r_real_unit_draw first. */

/* --- The stand-in real robot ------------------------------------------------ */

static void s2r__unit_dynamics(s2r_rng* rng, double* v);
static void s2r__unit_friction(const s2r_arm_info* info, int j, s2r_rng* rng, s2r_real_unit* u);
static void s2r__unit_calibration(s2r_rng* rng, double offset[3]);
static void s2r__unit_push(const s2r_arm_info* info, uint64_t seed, s2r_real_unit* u);
static void s2r__real_patch(const s2r_real_unit* u, s2r_sim* sim);
static void s2r__unit_switch_off(const s2r_arm_info* info, unsigned off, s2r_real_unit* u);

S2RDEF s2r_randomization s2r_real_unit_modes(void) {
    s2r_randomization r = s2r_randomization_none();
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) r.p[p].enabled = 1;   /* FIXED at identity */
    return r;
}

S2RDEF s2r_result s2r_real_unit_draw(const s2r_arm_info* info, uint64_t seed, s2r_real_unit* unit) {
    if (!unit)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_real_unit_draw: unit is NULL");
    s2r_rng rng = s2r_rng_make(seed, 0x7ea1);
    int j;
    if (!info || info->n_joints < 6 || info->n_joints > 7)
        return S2R_ERR_INVALID_ARGUMENT;   /* the fleets are UR5e and Panda */
    memset(unit, 0, sizeof *unit);
    unit->seed = seed;
    s2r__unit_dynamics(&rng, unit->draw.value);
    for (j = 0; j < info->n_joints; j++) {
        unit->draw.link_mass[j] = s2r_rng_range(&rng, 0.95, 1.08);                 /* cables and covers  */
        unit->draw.qpos_bias[j] = s2r_clamp(0.001 * s2r_rng_normal(&rng), -0.003, 0.003); /* rad, zeroing */
        unit->backlash[j] = s2r_rng_range(&rng, 0.0005, 0.002);                    /* rad, gear play     */
        unit->torque_limit[j] = info->torque_limit[j] * unit->draw.value[S2R_PARAM_TORQUE_LIMIT];
        s2r__unit_friction(info, j, &rng, unit);
    }
    s2r__unit_calibration(&rng, unit->draw.target_offset);
    unit->torque_derate = s2r_rng_range(&rng, 0.2, 0.4);      /* torque-speed curve of the drives */
    s2r__unit_push(info, seed, unit);
    return S2R_OK;
}

/* The fleet distribution.  Each line: the value and why it is plausible. */
static void s2r__unit_dynamics(s2r_rng* rng, double* v) {
    v[S2R_PARAM_FRICTION] = s2r_rng_range(rng, 0.8, 1.2);       /* contact friction: surfaces vary      */
    v[S2R_PARAM_DAMPING] = s2r_rng_range(rng, 0.8, 1.5);        /* lubricant viscosity, wear            */
    v[S2R_PARAM_ARMATURE] = s2r_rng_range(rng, 0.9, 1.3);       /* rotor + gear inertia tolerance       */
    v[S2R_PARAM_FRICTIONLOSS] = s2r_rng_range(rng, 0.0, 0.2);   /* N·m, seal drag                       */
    v[S2R_PARAM_PAYLOAD] = s2r_rng_range(rng, 0.4, 1.0);        /* kg: tool adapter, cabling, bracket   */
    v[S2R_PARAM_KP] = s2r_rng_range(rng, 0.75, 0.95);           /* gear elasticity softens the servo    */
    v[S2R_PARAM_KV] = s2r_rng_range(rng, 0.9, 1.3);             /* firmware damping tuning              */
    v[S2R_PARAM_TORQUE_LIMIT] = s2r_rng_range(rng, 0.9, 1.0);   /* drives rarely reach the datasheet    */
    v[S2R_PARAM_TIMESTEP] = 1.0;                                /* reality has no timestep              */
    v[S2R_PARAM_ACTION_LATENCY] = s2r_rng_range(rng, 0.025, 0.045); /* s: network + controller cycles   */
    v[S2R_PARAM_OBS_LATENCY] = s2r_rng_range(rng, 0.004, 0.012);    /* s: encoder readout + transport   */
    v[S2R_PARAM_LATENCY_JITTER] = 0.002;                        /* s: non-real-time host                */
    v[S2R_PARAM_QPOS_NOISE] = 2e-4;                             /* rad: encoder electronics             */
    v[S2R_PARAM_QVEL_NOISE] = 0.02;                             /* rad/s: differentiated encoders       */
    v[S2R_PARAM_TARGET_NOISE] = 0.003;                          /* m: depth camera at about 1 m         */
    v[S2R_PARAM_LINK_MASS] = 1.0;                               /* per link below                       */
    v[S2R_PARAM_TARGET_OFFSET] = v[S2R_PARAM_QPOS_BIAS] = 0.0;  /* per axis / joint below               */
}

/* Sigmoid friction of the Panda's joints (Gaz et al., RA-L 2019, Table). */
static const double s2r__gaz_a[7] = {0.54615, 0.87224, 0.64068, 1.2794, 0.83904, 0.30301, 0.56489};
static const double s2r__gaz_alpha[7] = {5.1181, 9.0657, 10.136, 5.5903, 8.3469, 17.133, 10.336};
static const double s2r__gaz_phi[7] = {0.039533, 0.025882, -0.04607, 0.036194, 0.026226, -0.021047, 0.0035526};

/* Joint j's friction curve: the Panda's own, or for a 6-joint arm the
   Panda's joints 1-3 for the base joints and 5-7 for the wrist, scaled by
   the ratio of rated torques (bigger drives, proportionally more friction). */
static void s2r__unit_friction(const s2r_arm_info* info, int j, s2r_rng* rng, s2r_real_unit* u) {
    int k = info->n_joints == 7 ? j : (j < 3 ? j : j + 1);
    double scale = info->n_joints == 7 ? 1.0 : info->torque_limit[j] / (k < 4 ? 87.0 : 12.0);
    u->friction_a[j] = s2r__gaz_a[k] * scale * s2r_rng_range(rng, 0.8, 1.2);  /* unit-to-unit spread */
    u->friction_alpha[j] = s2r__gaz_alpha[k];
    u->friction_phi[j] = s2r__gaz_phi[k];
    u->friction_zero[j] = u->friction_a[j] / (1.0 + exp(-u->friction_alpha[j] * u->friction_phi[j]));
}

/* Camera-to-base calibration error: 1-3 cm in a uniformly random direction
   (a hand-eye calibration is good to a centimetre or two). */
static void s2r__unit_calibration(s2r_rng* rng, double offset[3]) {
    double dir[3], norm = 0, size = s2r_rng_range(rng, 0.01, 0.03);
    int i;
    for (i = 0; i < 3; i++) { dir[i] = s2r_rng_normal(rng); norm += dir[i] * dir[i]; }
    norm = sqrt(norm);
    for (i = 0; i < 3; i++) offset[i] = size * dir[i] / (norm > 0 ? norm : 1);
}

/* The push scene of a unit, drawn from its own stream so a unit's arm is
   the same in both scenes.  Each line: the value and why it is plausible. */
static void s2r__unit_push(const s2r_arm_info* info, uint64_t seed, s2r_real_unit* u) {
    s2r_rng rng = s2r_rng_make(seed, 0x7ea2);
    double* v = u->draw.value;
    double angle, r;
    v[S2R_PARAM_OBJECT_FRICTION] = s2r_rng_range(&rng, 0.6, 1.6);  /* x 0.3: 0.18-0.48, dust, wax, other plastics */
    v[S2R_PARAM_OBJECT_MASS] = s2r_rng_range(&rng, 0.8, 1.25);     /* x 0.2 kg: each cell's own puck              */
    v[S2R_PARAM_OBJECT_DAMPING] = s2r_rng_range(&rng, 0.5, 2.0);   /* air, the odd rolling resistance             */
    v[S2R_PARAM_TIP_FRICTION] = s2r_rng_range(&rng, 0.6, 1.4);     /* the pusher's material against the puck's    */
    v[S2R_PARAM_TABLE_HEIGHT] = s2r_rng_range(&rng, -0.008, 0.008); /* m: a mounting surface measured with a tape */
    v[S2R_PARAM_CAMERA_LATENCY] = s2r_rng_range(&rng, 0.05, 0.09); /* s: 30 fps exposure, USB, detection         */
    v[S2R_PARAM_OBJECT_NOISE] = 0.003;                             /* m: depth camera at about 1 m               */
    v[S2R_PARAM_OBJECT_DROPOUT] = 0.03;                            /* missed detections (blur, glare)             */
    angle = s2r_rng_range(&rng, 0, 6.283185307179586);
    r = 0.005 * sqrt(s2r_rng_uniform(&rng));                       /* m: uneven density, up to 5 mm off centre    */
    u->draw.object_com[0] = r * cos(angle);
    u->draw.object_com[1] = r * sin(angle);
    u->draw.table_tilt[0] = s2r_rng_range(&rng, -0.005, 0.005);   /* rad: a top levelled by eye, within 0.3 deg  */
    u->draw.table_tilt[1] = s2r_rng_range(&rng, -0.005, 0.005);
    u->patch_centre[0] = s2r_rng_range(&rng, info->push_area_lo[0], info->push_area_hi[0]);   /* where the work is */
    u->patch_centre[1] = s2r_rng_range(&rng, info->push_area_lo[1], info->push_area_hi[1]);
    u->patch_radius = s2r_rng_range(&rng, 0.06, 0.10);             /* m: a polished spot a hand's width across     */
    u->patch_friction = s2r_rng_range(&rng, 0.5, 0.7);             /* of the friction elsewhere                  */
}

/* Unmodeled effects, every physics step: friction torque, backlash in the
   servo's view of its error, speed-dependent torque limit. */
static void s2r__real_effects(void* context, s2r_sim* sim) {
    const s2r_real_unit* u = (const s2r_real_unit*)context;
    s2r_robot* r = &sim->robot;
    mjData* d = r->data;
    int j;
    for (j = 0; j < r->info.n_joints; j++) {
        int dof = r->dof_adr[j], a = r->actuator[j];
        double qd = d->qvel[dof], q = d->qpos[r->qpos_adr[j]];
        double ea = exp(-u->friction_alpha[j] * (qd + u->friction_phi[j]));
        double err = d->ctrl[a] - q, half = 0.5 * u->backlash[j];
        double limit = u->torque_limit[j] * (1.0 - u->torque_derate * fmin(1.0, fabs(qd) / r->info.velocity_limit[j]));
        d->qfrc_applied[dof] = -(u->friction_a[j] / (1.0 + ea) - u->friction_zero[j]);
        d->ctrl[a] = q + (err > half ? err - half : (err < -half ? err + half : 0.0));
        r->model->actuator_forcerange[2 * a] = -limit;
        r->model->actuator_forcerange[2 * a + 1] = limit;
    }
    if (r->object_body >= 0) s2r__real_patch(u, sim);
}

/* The worn patch: the object-table friction of this physics step, by
   where the object is. */
static void s2r__real_patch(const s2r_real_unit* u, s2r_sim* sim) {
    s2r_robot* r = &sim->robot;
    const double* o = r->data->xpos + 3 * r->object_body;
    const double* nominal = sim->nominal->pair_friction + 5 * r->pair_object_table;
    double dx = o[0] - u->patch_centre[0], dy = o[1] - u->patch_centre[1];
    double scale = u->draw.value[S2R_PARAM_OBJECT_FRICTION] * (dx * dx + dy * dy < u->patch_radius * u->patch_radius ? u->patch_friction : 1.0);
    r->model->pair_friction[5 * r->pair_object_table] = nominal[0] * scale;
    r->model->pair_friction[5 * r->pair_object_table + 1] = nominal[1] * scale;
}

S2RDEF s2r_result s2r_real_robot_init(s2r_real_robot* real, s2r_robot_kind kind, uint64_t unit_seed) {
    return s2r_real_robot_init_scene(real, kind, S2R_SCENE_ARM, unit_seed);
}

S2RDEF s2r_result s2r_real_robot_init_scene(s2r_real_robot* real, s2r_robot_kind kind, s2r_scene scene,
                                            uint64_t unit_seed) {
    return s2r_real_robot_init_ablated(real, kind, scene, unit_seed, 0);
}

/* Whether effect e is in the mask `off` (in the ablated unit and its switches). */
#define S2R__OFF(e) (off & (1u << (e)))

S2RDEF s2r_result s2r_real_robot_init_ablated(s2r_real_robot* real, s2r_robot_kind kind, s2r_scene scene,
                                              uint64_t unit_seed, unsigned off) {
    s2r_sim_config c = s2r_sim_config_default(kind);
    s2r_result res;
    S2R_ASSERT(real);
    memset(real, 0, sizeof *real);
    if (kind != S2R_ROBOT_UR5E && kind != S2R_ROBOT_PANDA)
        return s2r__fail(real->error, S2R_ERR_INVALID_ARGUMENT, "stand-in real robots exist for the UR5e and the Panda");
    if (off & ~S2R_EFFECTS_ALL)
        return s2r__fail(real->error, S2R_ERR_INVALID_ARGUMENT, "effects mask 0x%x names effects that do not exist", off);
    c.randomization = s2r_real_unit_modes();
    c.scene = scene;
    c.max_latency = 0.2;
    c.noise_q.quant_step = 6.283185307179586 / 262144.0;   /* 18-bit absolute encoders */
    c.noise_target.dropout = 0.02;                          /* target not detected: held */
    c.camera_period = 1.0 / 30.0;                           /* the object camera's 30 fps */
    c.occlusion_radius = 0.06;                              /* the rod and wrist over the object ... */
    c.occlusion_dropout = 0.3;                              /* ... hide it in three frames of ten */
    if (S2R__OFF(S2R_EFFECT_ENCODERS)) c.noise_q.quant_step = 0;
    if (S2R__OFF(S2R_EFFECT_CAMERA)) c.noise_target.dropout = c.camera_period = c.occlusion_radius = c.occlusion_dropout = 0;
    res = s2r_sim_init(&real->hidden_sim, &c);
    if (res == S2R_OK) res = s2r_real_unit_draw(&real->hidden_sim.robot.info, unit_seed, &real->hidden_unit);
    if (res == S2R_OK) s2r__unit_switch_off(&real->hidden_sim.robot.info, off, &real->hidden_unit);
    if (res == S2R_OK) res = s2r_sim_pin_draw(&real->hidden_sim, &real->hidden_unit.draw);
    if (res != S2R_OK) {
        s2r__fail(real->error, res, "%s", real->hidden_sim.error);
        s2r_sim_free(&real->hidden_sim);
        return res;
    }
    real->hidden_sim.effects = s2r__real_effects;
    real->hidden_sim.effects_context = &real->hidden_unit;
    snprintf(real->name, sizeof real->name, "real %s #%llu", s2r_robot_kind_name(kind), (unsigned long long)unit_seed);
    real->backend = real->hidden_sim.backend;
    real->backend.name = real->name;
    return s2r_backend_reset(&real->backend, NULL, NULL, NULL);
}

/* The effects in `off` put back to the nominal simulator's values: scales
   1, offsets, latencies, noise and the unit's own extras 0. */
static void s2r__unit_switch_off(const s2r_arm_info* info, unsigned off, s2r_real_unit* u) {
    double* v = u->draw.value;
    int j, n = info->n_joints;
    for (j = 0; j < n; j++) {
        if (S2R__OFF(S2R_EFFECT_JOINT_FRICTION)) u->friction_a[j] = u->friction_zero[j] = 0;
        if (S2R__OFF(S2R_EFFECT_BACKLASH)) u->backlash[j] = 0;
        if (S2R__OFF(S2R_EFFECT_TORQUE_LIMIT)) u->torque_limit[j] = info->torque_limit[j];
        if (S2R__OFF(S2R_EFFECT_ARM_DYNAMICS)) u->draw.link_mass[j] = 1;
        if (S2R__OFF(S2R_EFFECT_ENCODERS)) u->draw.qpos_bias[j] = 0;
    }
    if (S2R__OFF(S2R_EFFECT_JOINT_FRICTION)) v[S2R_PARAM_FRICTIONLOSS] = 0;
    if (S2R__OFF(S2R_EFFECT_TORQUE_LIMIT)) { u->torque_derate = 0; v[S2R_PARAM_TORQUE_LIMIT] = 1; }
    if (S2R__OFF(S2R_EFFECT_ARM_DYNAMICS)) {
        v[S2R_PARAM_FRICTION] = v[S2R_PARAM_DAMPING] = v[S2R_PARAM_ARMATURE] = v[S2R_PARAM_KP] = v[S2R_PARAM_KV] = 1;
        v[S2R_PARAM_PAYLOAD] = 0;
    }
    if (S2R__OFF(S2R_EFFECT_LATENCY)) v[S2R_PARAM_ACTION_LATENCY] = v[S2R_PARAM_OBS_LATENCY] = v[S2R_PARAM_LATENCY_JITTER] = 0;
    if (S2R__OFF(S2R_EFFECT_ENCODERS)) v[S2R_PARAM_QPOS_NOISE] = v[S2R_PARAM_QVEL_NOISE] = 0;
    if (S2R__OFF(S2R_EFFECT_CALIBRATION)) memset(u->draw.target_offset, 0, sizeof u->draw.target_offset);
    if (S2R__OFF(S2R_EFFECT_CAMERA))
        v[S2R_PARAM_TARGET_NOISE] = v[S2R_PARAM_OBJECT_NOISE] = v[S2R_PARAM_OBJECT_DROPOUT] = v[S2R_PARAM_CAMERA_LATENCY] = 0;
    if (S2R__OFF(S2R_EFFECT_OBJECT_FRICTION)) v[S2R_PARAM_OBJECT_FRICTION] = v[S2R_PARAM_TIP_FRICTION] = 1;
    if (S2R__OFF(S2R_EFFECT_OBJECT_MASS)) {
        v[S2R_PARAM_OBJECT_MASS] = v[S2R_PARAM_OBJECT_DAMPING] = 1;
        memset(u->draw.object_com, 0, sizeof u->draw.object_com);
    }
    if (S2R__OFF(S2R_EFFECT_TABLE)) {
        v[S2R_PARAM_TABLE_HEIGHT] = 0;
        memset(u->draw.table_tilt, 0, sizeof u->draw.table_tilt);
    }
    if (S2R__OFF(S2R_EFFECT_WORN_PATCH)) { u->patch_friction = 1; u->patch_radius = 0; }
}
#undef S2R__OFF

S2RDEF void s2r_real_robot_free(s2r_real_robot* real) {
    if (!real) return;
    s2r_sim_free(&real->hidden_sim);
    memset(real, 0, sizeof *real);
}

S2RDEF const s2r_backend* s2r_real_robot_backend(s2r_real_robot* real) {
    S2R_ASSERT(real);
    return &real->backend;
}

S2RDEF const s2r_real_unit* s2r_real_robot_oracle(const s2r_real_robot* real) {
    S2R_ASSERT(real);
    return &real->hidden_unit;
}

static const char* const s2r__effect_names[S2R_EFFECT_COUNT] = {
    "joint_friction", "backlash", "torque_limit", "arm_dynamics", "latency", "encoders", "calibration", "camera",
    "object_friction", "object_mass", "table", "worn_patch"};

S2RDEF const char* s2r_effect_name(s2r_effect e) {
    return (e >= 0 && e < S2R_EFFECT_COUNT) ? s2r__effect_names[e] : "unknown";
}

S2RDEF double s2r_real_unit_truth(const s2r_real_unit* u, s2r_param p, double held_obs_latency) {
    if (!u || (int)p < 0 || p >= S2R_PARAM_COUNT) return NAN;
    if (p == S2R_PARAM_ACTION_LATENCY)   /* open loop sees the total delay */
        return u->draw.value[p] + u->draw.value[S2R_PARAM_OBS_LATENCY] - held_obs_latency;
    return u->draw.value[p];
}

S2RDEF int s2r_effect_in_scene(s2r_effect e, s2r_scene scene) {
    return e >= 0 && e < S2R_EFFECT_COUNT && (scene == S2R_SCENE_PUSH || e < S2R_EFFECT_OBJECT_FRICTION);
}


/* >> section: Socket backend
   Flow: the pipeline's side first - s2r_socket_robot_connect loads the
   arm's model, opens the socket (s2r__socket_open) and shakes hands; each
   backend call is then one s2r__socket_call (pack, send, receive, parse),
   and any fault goes through s2r__socket_break (halt, close, remember).
   Then the robot side, s2r_socket_serve, and last the wire format the two
   share: s2r_socket_pack and s2r_socket_parse.  Read
   s2r_socket_robot_connect first; the protocol is in the declarations. */

/* --- Socket backend ---------------------------------------------------------- */

S2RDEF s2r_socket_config s2r_socket_config_default(void) {
    s2r_socket_config c;
    memset(&c, 0, sizeof c);
    c.timeout_ms = 1000;
    c.robot = S2R_ROBOT_UR5E;
    c.scene = S2R_SCENE_ARM;
    return c;
}

S2RDEF s2r_socket_serve_config s2r_socket_serve_config_default(void) {
    s2r_socket_serve_config c;
    memset(&c, 0, sizeof c);
    c.watchdog_ms = 1000;
    return c;
}

S2RDEF const s2r_backend* s2r_socket_robot_backend(s2r_socket_robot* s) {
    S2R_ASSERT(s);
    return &s->backend;
}

static const char* const s2r__socket_type_names[S2R_SOCKET_TYPE_END] = {
    "?", "hello", "reset", "command", "advance", "sensors", "truth", "halt", "place"};

/* Payload bytes of a message: [direction][type]; an error reply carries
   S2R_SOCKET_TEXT instead. */
static const unsigned s2r__socket_payload[2][S2R_SOCKET_TYPE_END] = {
    {0, 0, 8 + 8 * (S2R_SOCKET_JOINTS + 3) + 32, 8 * S2R_SOCKET_JOINTS, 8, 0, 0, 0, 16},
    {0, 16 + 8 + 48, 32, 0, 0, 8 * (1 + 3 * S2R_SOCKET_JOINTS + 6), 8 * (9 + S2R_SOCKET_JOINTS) + 8 + 8 * 12, 0, 0}};

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#ifdef MSG_NOSIGNAL
#define S2R__SEND_FLAGS MSG_NOSIGNAL     /* a peer gone is an error, not SIGPIPE */
#else
#define S2R__SEND_FLAGS 0                /* SO_NOSIGPIPE set on the socket instead */
#endif

typedef union s2r__socket_addr {
    struct sockaddr    any;
    struct sockaddr_un un;
    struct sockaddr_in in;
} s2r__socket_addr;

static s2r_result s2r__socket_open(const char* address, int timeout_ms, int* fd, char* error);
static s2r_result s2r__socket_hello(s2r_socket_robot* s);
static s2r_result s2r__socket_call(s2r_socket_robot* s, s2r_socket_message* m, double extra_ms);
static s2r_result s2r__socket_reset(void* self, const double* q0, const double* target, s2r_rng* rng);
static s2r_result s2r__socket_command(void* self, const double* q);
static s2r_result s2r__socket_advance(void* self, double seconds);
static s2r_result s2r__socket_sensors(void* self, s2r_sensors* out);
static s2r_result s2r__socket_truth(void* self, s2r_ground_truth* out);
static s2r_result s2r__socket_halt(void* self);
static s2r_result s2r__socket_place(void* self, const double xy[2]);

S2RDEF s2r_result s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c) {
    s2r_result res;
    S2R_ASSERT(s);
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (!c || !c->address || c->timeout_ms < 1)
        return s2r__fail(s->error, S2R_ERR_INVALID_ARGUMENT, "socket robot: an address and a timeout of 1 ms or more are needed");
    s->timeout_ms = c->timeout_ms;
    res = c->robot == S2R_ROBOT_CUSTOM ? s2r_robot_load_file(&s->arm, c->mjcf_path)
                                       : s2r_robot_load_scene(&s->arm, c->robot, c->scene);
    if (res != S2R_OK) return s2r__fail(s->error, res, "socket robot: %s", s->arm.error);
    res = s2r__socket_open(c->address, c->timeout_ms, &s->fd, s->error);
    if (res == S2R_OK) res = s2r__socket_hello(s);
    if (res != S2R_OK) {
        char why[S2R_ERROR_LEN];
        memcpy(why, s->error, sizeof why);
        if (s->fd >= 0) close(s->fd);
        s2r_robot_free(&s->arm);
        memset(s, 0, sizeof *s);
        s->fd = -1;
        return s2r__fail(s->error, res, "%s", why);
    }
    s->backend.self = s;
    s->backend.name = s->name;
    s->backend.info = &s->arm.info;
    s->backend.error = s->error;
    s->backend.reset = s2r__socket_reset;
    s->backend.command = s2r__socket_command;
    s->backend.advance = s2r__socket_advance;
    s->backend.read_sensors = s2r__socket_sensors;
    s->backend.ground_truth = s2r__socket_truth;
    s->backend.halt = s2r__socket_halt;
    s->backend.place_object = s->arm.info.scene == S2R_SCENE_PUSH ? s2r__socket_place : NULL;
    return S2R_OK;
}

S2RDEF void s2r_socket_robot_close(s2r_socket_robot* s) {
    if (!s || s->backend.self != s) return;   /* never connected, or closed */
    if (s->fd >= 0) close(s->fd);
    s2r_robot_free(&s->arm);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* Milliseconds of wall time (deadlines). */
static double s2r__socket_ms(void) {
    struct timeval t;
    gettimeofday(&t, NULL);
    return 1e3 * (double)t.tv_sec + 1e-3 * (double)t.tv_usec;
}

/* "PATH" or "tcp:HOST:PORT" into a socket address. */
static s2r_result s2r__socket_address(const char* address, s2r__socket_addr* a, socklen_t* len, char* error) {
    unsigned b[4], port;
    char host[64], tail;
    memset(a, 0, sizeof *a);
    if (strncmp(address, "tcp:", 4) != 0) {
        if (!*address || strlen(address) >= sizeof a->un.sun_path)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "socket path \"%s\" is empty or longer than %d bytes",
                             address, (int)sizeof a->un.sun_path - 1);
        a->un.sun_family = AF_UNIX;
        memcpy(a->un.sun_path, address, strlen(address) + 1);
        *len = (socklen_t)sizeof a->un;
        return S2R_OK;
    }
    if (sscanf(address + 4, "%63[^:]:%u%c", host, &port, &tail) != 2 || port < 1 || port > 65535)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": expected tcp:HOST:PORT", address);
    if (strcmp(host, "localhost") == 0) b[0] = 127, b[1] = 0, b[2] = 0, b[3] = 1;
    else if (sscanf(host, "%u.%u.%u.%u%c", &b[0], &b[1], &b[2], &b[3], &tail) != 4 || (b[0] | b[1] | b[2] | b[3]) > 255)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": HOST must be localhost or a numeric IPv4 address", address);
    a->in.sin_family = AF_INET;
    a->in.sin_port = htons((unsigned short)port);
    a->in.sin_addr.s_addr = htonl((uint32_t)(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]));
    *len = (socklen_t)sizeof a->in;
    return S2R_OK;
}

/* Non-blocking, no SIGPIPE, no Nagle delay: what every socket here gets. */
static void s2r__socket_setup(int fd) {
    int one = 1;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);   /* fails harmlessly on Unix sockets */
#ifdef SO_NOSIGPIPE
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

/* Connect within timeout_ms, trying again while the robot side is not up
   yet (no socket file, connection refused). */
static s2r_result s2r__socket_open(const char* address, int timeout_ms, int* fd, char* error) {
    s2r__socket_addr a;
    socklen_t len;
    double deadline = s2r__socket_ms() + timeout_ms;
    s2r_result res = s2r__socket_address(address, &a, &len, error);
    while (res == S2R_OK) {
        int err = 0, r;
        struct pollfd p;
        socklen_t elen = sizeof err;
        if ((*fd = socket(a.any.sa_family, SOCK_STREAM, 0)) < 0)
            return s2r__fail(error, S2R_ERR_IO, "socket: %s", strerror(errno));
        s2r__socket_setup(*fd);
        r = connect(*fd, &a.any, len);
        if (r < 0 && errno == EINPROGRESS) {   /* TCP: wait for it */
            p.fd = *fd;
            p.events = POLLOUT;
            r = poll(&p, 1, (int)s2r_clamp(deadline - s2r__socket_ms(), 0, 1e9));
            if (r == 1 && getsockopt(*fd, SOL_SOCKET, SO_ERROR, &err, &elen) == 0 && err == 0) return S2R_OK;
            errno = r == 1 ? err : ETIMEDOUT;
            r = -1;
        }
        if (r == 0) return S2R_OK;
        err = errno;
        close(*fd);
        *fd = -1;
        if ((err != ENOENT && err != ECONNREFUSED && err != EAGAIN) || s2r__socket_ms() >= deadline)
            return s2r__fail(error, S2R_ERR_IO, "cannot connect to the robot at %s within %d ms: %s", address, timeout_ms,
                             strerror(err));
        poll(NULL, 0, 10);   /* not up yet: again in 10 ms */
    }
    return res;
}

/* The handshake: the robot side's arm must be the one loaded here. */
static s2r_result s2r__socket_hello(s2r_socket_robot* s) {
    const s2r_arm_info* info = &s->arm.info;
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HELLO;
    if ((res = s2r__socket_call(s, &m, 0)) != S2R_OK) return res;
    if (m.kind != (int)info->kind || m.n_joints != info->n_joints || (info->kind != S2R_ROBOT_CUSTOM && m.scene != (int)info->scene))
        return s2r__fail(s->error, S2R_ERR_CORRUPT, "the robot side serves a %s (%s scene) with %d joints; this side "
                         "expects a %s (%s scene) with %d", s2r_robot_kind_name((s2r_robot_kind)m.kind),
                         s2r_scene_name((s2r_scene)m.scene), m.n_joints, s2r_robot_kind_name(info->kind),
                         s2r_scene_name(info->scene), info->n_joints);
    s->period = m.period;
    snprintf(s->name, sizeof s->name, "socket: %s", m.name);
    return S2R_OK;
}

/* Send or receive exactly n bytes before `deadline` (ms). */
static s2r_result s2r__socket_move(int fd, unsigned char* bytes, size_t n, int sending, double deadline, char* error) {
    size_t done = 0;
    while (done < n) {
        struct pollfd p;
        double left = deadline - s2r__socket_ms();
        long k;
        if (left <= 0) return s2r__fail(error, S2R_ERR_IO, "no %s in time", sending ? "room to send" : "answer");
        p.fd = fd;
        p.events = sending ? POLLOUT : POLLIN;
        p.revents = 0;
        if (poll(&p, 1, (int)ceil(left)) <= 0) continue;   /* time is checked above; EINTR too */
        k = sending ? (long)send(fd, bytes + done, n - done, S2R__SEND_FLAGS) : (long)recv(fd, bytes + done, n - done, 0);
        if (k > 0) done += (size_t)k;
        else if (k == 0 && !sending) return s2r__fail(error, S2R_ERR_IO, "the other side closed the connection%s",
                                                      done ? " in the middle of a message" : "");
        else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return s2r__fail(error, S2R_ERR_IO, "connection lost: %s", strerror(errno));
    }
    return S2R_OK;
}

/* One whole message: the header, whose size field says how much follows. */
static s2r_result s2r__socket_receive(int fd, double deadline, s2r_socket_message* m, char* error) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    size_t size;
    s2r_result res = s2r__socket_move(fd, bytes, S2R_SOCKET_HEADER, 0, deadline, error);
    if (res != S2R_OK) return res;
    size = (size_t)bytes[12] | (size_t)bytes[13] << 8 | (size_t)bytes[14] << 16 | (size_t)bytes[15] << 24;
    if (size > S2R_SOCKET_MESSAGE_MAX - S2R_SOCKET_HEADER)
        return s2r__fail(error, S2R_ERR_CORRUPT, "a message of %lu bytes, longer than any in protocol %d",
                         (unsigned long)size, S2R_SOCKET_VERSION);
    res = s2r__socket_move(fd, bytes + S2R_SOCKET_HEADER, size, 0, deadline, error);
    return res == S2R_OK ? s2r_socket_parse(bytes, S2R_SOCKET_HEADER + size, m, error) : res;
}

static s2r_result s2r__socket_send(int fd, double deadline, const s2r_socket_message* m, char* error) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    return s2r__socket_move(fd, bytes, s2r_socket_pack(m, bytes), 1, deadline, error);
}

/* A fault: halt the arm if a message still gets through, close, and keep
   the reason for every later call. */
static s2r_result s2r__socket_break(s2r_socket_robot* s, s2r_result code, const char* why, int type) {
    s2r_socket_message halt;
    memset(&halt, 0, sizeof halt);
    halt.type = S2R_SOCKET_HALT;
    s2r__fail(s->fault, code, "robot at the other end of the socket, %s: %s", s2r__socket_type_names[type], why);
    s2r__socket_send(s->fd, s2r__socket_ms() + 10, &halt, NULL);   /* best effort; closing halts it too */
    close(s->fd);
    s->fd = -1;
    s->broken = 1;
    return s2r__fail(s->error, code, "%s (connection closed; the robot side halts its arm)", s->fault);
}

/* One request and its reply, within the timeout (plus extra_ms); the
   reply replaces *m.  A robot-side error is returned as its code. */
static s2r_result s2r__socket_call(s2r_socket_robot* s, s2r_socket_message* m, double extra_ms) {
    char why[S2R_ERROR_LEN];
    int type = m->type;
    double deadline = s2r__socket_ms() + s->timeout_ms + extra_ms;
    s2r_result res;
    if (s->broken) return s2r__fail(s->error, S2R_ERR_STATE, "no connection since: %s", s->fault);
    res = s2r__socket_send(s->fd, deadline, m, why);
    if (res == S2R_OK) res = s2r__socket_receive(s->fd, deadline, m, why);
    if (res == S2R_OK && (!m->reply || (int)m->type != type))
        res = s2r__fail(why, S2R_ERR_CORRUPT, "the answer is a %s %s", s2r__socket_type_names[m->type],
                        m->reply ? "reply" : "request");
    if (res == S2R_ERR_IO && strstr(why, "in time"))
        s2r__fail(why, res, "no answer within %.0f ms (stopped, or too slow for the control rate)", s->timeout_ms + extra_ms);
    if (res != S2R_OK) return s2r__socket_break(s, res, why, type);
    if (m->status != S2R_OK) return s2r__fail(s->error, m->status, "robot side: %s", m->text);
    return S2R_OK;
}

static s2r_result s2r__socket_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_socket_robot* s = (s2r_socket_robot*)self;
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_RESET;
    m.flags = (q0 ? 1u : 0u) | (target ? 2u : 0u) | (rng ? 4u : 0u);
    if (q0) memcpy(m.q, q0, sizeof(double) * (size_t)s->arm.info.n_joints);
    if (target) memcpy(m.target, target, sizeof m.target);
    if (rng) memcpy(m.rng, rng->s, sizeof m.rng);
    res = s2r__socket_call(s, &m, 0);
    if (res == S2R_OK && rng) memcpy(rng->s, m.rng, sizeof m.rng);   /* as if it drew here */
    return res;
}

static s2r_result s2r__socket_command(void* self, const double* q) {
    s2r_socket_robot* s = (s2r_socket_robot*)self;
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_COMMAND;
    memcpy(m.q, q, sizeof(double) * (size_t)s->arm.info.n_joints);
    return s2r__socket_call(s, &m, 0);
}

static s2r_result s2r__socket_advance(void* self, double seconds) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_ADVANCE;
    m.seconds = seconds;
    return s2r__socket_call((s2r_socket_robot*)self, &m, seconds > 0 && seconds < 1e3 ? 1e3 * seconds : 0);
}

static s2r_result s2r__socket_sensors(void* self, s2r_sensors* out) {
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_SENSORS;
    if ((res = s2r__socket_call((s2r_socket_robot*)self, &m, 0)) == S2R_OK) *out = m.sensors;
    return res;
}

static s2r_result s2r__socket_truth(void* self, s2r_ground_truth* out) {
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_TRUTH;
    if ((res = s2r__socket_call((s2r_socket_robot*)self, &m, 0)) == S2R_OK) *out = m.truth;
    return res;
}

static s2r_result s2r__socket_halt(void* self) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HALT;
    return s2r__socket_call((s2r_socket_robot*)self, &m, 0);
}

static s2r_result s2r__socket_place(void* self, const double xy[2]) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_PLACE;
    memcpy(m.xy, xy, sizeof m.xy);
    return s2r__socket_call((s2r_socket_robot*)self, &m, 0);
}

/* --- The robot side ------------------------------------------------------- */

static s2r_result s2r__socket_listen(const char* address, int* fd, char* error);
static int s2r__socket_serve_client(const s2r_backend* robot, int fd, int watchdog_ms);

S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error) {
    int listener, served;
    s2r_result res;
    if (!robot || !c || !c->address || c->watchdog_ms < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "serve: a robot, an address and a watchdog of 1 ms or more are needed");
    if ((res = s2r__socket_listen(c->address, &listener, error)) != S2R_OK) return res;
    for (served = 0; c->clients == 0 || served < c->clients; served++) {
        struct pollfd p;
        int fd;
        p.fd = listener;
        p.events = POLLIN;
        if (poll(&p, 1, -1) < 0 && errno != EINTR) break;
        if ((fd = accept(listener, NULL, NULL)) < 0) {   /* a client that gave up, or no descriptors left */
            served--;
            poll(NULL, 0, 10);
            continue;
        }
        s2r__socket_setup(fd);
        if (s2r__socket_serve_client(robot, fd, c->watchdog_ms) == 0) served--;   /* a probe, not a client */
        s2r_backend_halt(robot);   /* the client has gone: brakes on */
        close(fd);
    }
    close(listener);
    if (strncmp(c->address, "tcp:", 4) != 0) unlink(c->address);
    return S2R_OK;
}

/* Bind and listen; a Unix path left by a server that is gone is replaced,
   one with a live server behind it is not. */
static s2r_result s2r__socket_listen(const char* address, int* fd, char* error) {
    s2r__socket_addr a;
    socklen_t len;
    int one = 1, probe, bound;
    s2r_result res = s2r__socket_address(address, &a, &len, error);
    if (res != S2R_OK) return res;
    if ((*fd = socket(a.any.sa_family, SOCK_STREAM, 0)) < 0) return s2r__fail(error, S2R_ERR_IO, "socket: %s", strerror(errno));
    setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bound = bind(*fd, &a.any, len) == 0;
    if (!bound && errno == EADDRINUSE && a.any.sa_family == AF_UNIX && (probe = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0) {
        int live = connect(probe, &a.any, len) == 0;
        close(probe);
        if (!live && unlink(address) == 0) bound = bind(*fd, &a.any, len) == 0;
        else errno = EADDRINUSE;   /* a live server is there */
    }
    if (!bound || listen(*fd, 4) < 0) {
        res = s2r__fail(error, S2R_ERR_IO, "cannot serve at %s: %s", address, strerror(errno));
        close(*fd);
        *fd = -1;
    }
    return res;
}

/* Run one request on the robot; *m becomes the reply. */
static void s2r__socket_answer(const s2r_backend* robot, s2r_socket_message* m) {
    const s2r_arm_info* info = robot->info;
    s2r_rng rng;
    s2r_result res = S2R_OK;
    m->reply = 1;
    switch (m->type) {
    case S2R_SOCKET_HELLO:
        m->kind = (int)info->kind;
        m->scene = (int)info->scene;
        m->n_joints = info->n_joints;
        m->period = info->physics_dt;
        snprintf(m->name, sizeof m->name, "%s", robot->name ? robot->name : info->name);
        break;
    case S2R_SOCKET_RESET:
        memcpy(rng.s, m->rng, sizeof rng.s);
        res = s2r_backend_reset(robot, (m->flags & 1) ? m->q : NULL, (m->flags & 2) ? m->target : NULL,
                                (m->flags & 4) ? &rng : NULL);
        memcpy(m->rng, rng.s, sizeof rng.s);
        break;
    case S2R_SOCKET_COMMAND: res = s2r_backend_command(robot, m->q); break;
    case S2R_SOCKET_ADVANCE: res = s2r_backend_advance(robot, m->seconds); break;
    case S2R_SOCKET_SENSORS: res = s2r_backend_read_sensors(robot, &m->sensors); break;
    case S2R_SOCKET_TRUTH: res = s2r_backend_ground_truth(robot, &m->truth); break;
    case S2R_SOCKET_HALT: res = s2r_backend_halt(robot); break;
    default: res = s2r_backend_place_object(robot, m->xy); break;
    }
    m->status = res;
    if (res != S2R_OK)
        snprintf(m->text, sizeof m->text, "%s", robot->error && *robot->error ? robot->error : s2r_result_string(res));
}

/* Requests until the client goes or sends something malformed; silence
   mid-episode for watchdog_ms halts the arm (and the client may go on).
   Returns the requests answered. */
static int s2r__socket_serve_client(const s2r_backend* robot, int fd, int watchdog_ms) {
    int in_episode = 0, answered;
    for (answered = 0;; answered++) {
        s2r_socket_message m;
        struct pollfd p;
        int r;
        p.fd = fd;
        p.events = POLLIN;
        r = poll(&p, 1, watchdog_ms);
        if (r < 0 && errno != EINTR) return answered;
        if (r <= 0) {
            if (r == 0 && in_episode) s2r_backend_halt(robot);
            in_episode = 0;
            answered--;
            continue;
        }
        if (s2r__socket_receive(fd, s2r__socket_ms() + watchdog_ms, &m, NULL) != S2R_OK || m.reply) return answered;
        s2r__socket_answer(robot, &m);
        if (m.type == S2R_SOCKET_RESET && m.status == S2R_OK) in_episode = 1;
        if (m.type == S2R_SOCKET_HALT) in_episode = 0;
        if (s2r__socket_send(fd, s2r__socket_ms() + watchdog_ms, &m, NULL) != S2R_OK) return answered + 1;
    }
}

#else   /* no POSIX sockets */

S2RDEF s2r_result s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c) {
    S2R_ASSERT(s);
    (void)c;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    return s2r__fail(s->error, S2R_ERR_UNSUPPORTED, "socket robot: this build has no POSIX sockets");
}
S2RDEF void s2r_socket_robot_close(s2r_socket_robot* s) { (void)s; }
S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error) {
    (void)robot;
    (void)c;
    return s2r__fail(error, S2R_ERR_UNSUPPORTED, "serve: this build has no POSIX sockets");
}

#endif

/* --- The wire format: little-endian, doubles as their IEEE-754 bytes ------ */

static void s2r__wire_u32(unsigned char** p, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}
static void s2r__wire_u64(unsigned char** p, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}
static void s2r__wire_f64s(unsigned char** p, const double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        uint64_t v;
        memcpy(&v, &x[i], 8);
        s2r__wire_u64(p, v);
    }
}
static uint32_t s2r__unwire_u32(const unsigned char** p) {
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4; i++) v |= (uint32_t)*(*p)++ << (8 * i);
    return v;
}
static uint64_t s2r__unwire_u64(const unsigned char** p) {
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++) v |= (uint64_t)*(*p)++ << (8 * i);
    return v;
}
static void s2r__unwire_f64s(const unsigned char** p, double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        uint64_t v = s2r__unwire_u64(p);
        memcpy(&x[i], &v, 8);
    }
}

typedef char s2r__socket_joints_fit[S2R_MAX_JOINTS == S2R_SOCKET_JOINTS ? 1 : -1];

S2RDEF size_t s2r_socket_pack(const s2r_socket_message* m, unsigned char* bytes) {
    unsigned char* p;
    S2R_ASSERT(m && bytes);   /* no error to return: a NULL buffer is a programmer error */
    p = bytes + S2R_SOCKET_HEADER;
    uint32_t size;
    int dir = m->reply ? 1 : 0;
    if (dir && m->status != S2R_OK) {
        memset(p, 0, S2R_SOCKET_TEXT);
        memcpy(p, m->text, strlen(m->text) < S2R_SOCKET_TEXT ? strlen(m->text) : S2R_SOCKET_TEXT - 1);
        p += S2R_SOCKET_TEXT;
    } else if (m->type == S2R_SOCKET_HELLO && dir) {
        s2r__wire_u32(&p, (uint32_t)m->kind);
        s2r__wire_u32(&p, (uint32_t)m->scene);
        s2r__wire_u32(&p, (uint32_t)m->n_joints);
        s2r__wire_u32(&p, 0);
        s2r__wire_f64s(&p, &m->period, 1);
        memset(p, 0, 48);
        memcpy(p, m->name, strlen(m->name) < 48 ? strlen(m->name) : 47);
        p += 48;
    } else if (m->type == S2R_SOCKET_RESET) {
        if (!dir) {
            s2r__wire_u32(&p, m->flags);
            s2r__wire_u32(&p, 0);
            s2r__wire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
            s2r__wire_f64s(&p, m->target, 3);
        }
        s2r__wire_u64(&p, m->rng[0]), s2r__wire_u64(&p, m->rng[1]), s2r__wire_u64(&p, m->rng[2]), s2r__wire_u64(&p, m->rng[3]);
    } else if (m->type == S2R_SOCKET_COMMAND && !dir) {
        s2r__wire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
    } else if (m->type == S2R_SOCKET_ADVANCE && !dir) {
        s2r__wire_f64s(&p, &m->seconds, 1);
    } else if (m->type == S2R_SOCKET_PLACE && !dir) {
        s2r__wire_f64s(&p, m->xy, 2);
    } else if (m->type == S2R_SOCKET_SENSORS && dir) {
        const s2r_sensors* s = &m->sensors;
        s2r__wire_f64s(&p, &s->time, 1);
        s2r__wire_f64s(&p, s->q, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->qd, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->tau, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->target, 3);
        s2r__wire_f64s(&p, s->object, 3);
    } else if (m->type == S2R_SOCKET_TRUTH && dir) {
        const s2r_ground_truth* t = &m->truth;
        s2r__wire_f64s(&p, t->flange, 3);
        s2r__wire_f64s(&p, t->flange_vel, 3);
        s2r__wire_f64s(&p, t->target, 3);
        s2r__wire_f64s(&p, t->q, S2R_SOCKET_JOINTS);
        s2r__wire_u32(&p, (uint32_t)t->diverged);
        s2r__wire_u32(&p, 0);
        s2r__wire_f64s(&p, t->tip, 3);
        s2r__wire_f64s(&p, t->tip_vel, 3);
        s2r__wire_f64s(&p, t->object, 3);
        s2r__wire_f64s(&p, t->object_vel, 3);
    }
    size = (uint32_t)(p - bytes - S2R_SOCKET_HEADER);
    p = bytes;
    s2r__wire_u32(&p, 0x53523253u);
    *p++ = S2R_SOCKET_VERSION & 0xff, *p++ = S2R_SOCKET_VERSION >> 8;
    *p++ = (unsigned char)m->type, *p++ = (unsigned char)dir;
    s2r__wire_u32(&p, dir ? (uint32_t)(int32_t)m->status : 0);
    s2r__wire_u32(&p, size);
    return S2R_SOCKET_HEADER + size;
}

/* The header: magic, version, type, direction, status and the size its
   type and status fix. */
static s2r_result s2r__socket_parse_header(const unsigned char* b, size_t n, s2r_socket_message* m, char* error) {
    const unsigned char* p = b;
    uint32_t magic, size, want;
    int32_t status;
    if (n < S2R_SOCKET_HEADER)
        return s2r__fail(error, S2R_ERR_CORRUPT, "message truncated: %lu bytes, a header alone is %d", (unsigned long)n, S2R_SOCKET_HEADER);
    magic = s2r__unwire_u32(&p);
    if (magic != 0x53523253u) return s2r__fail(error, S2R_ERR_CORRUPT, "not a sim2real.h socket message (bad magic)");
    if (b[4] != S2R_SOCKET_VERSION || b[5] != 0)
        return s2r__fail(error, S2R_ERR_CORRUPT, "protocol version %u, this build speaks %d", (unsigned)(b[4] | b[5] << 8), S2R_SOCKET_VERSION);
    if (b[6] < S2R_SOCKET_HELLO || b[6] >= S2R_SOCKET_TYPE_END || b[7] > 1)
        return s2r__fail(error, S2R_ERR_CORRUPT, "unknown message type %u (direction %u)", (unsigned)b[6], (unsigned)b[7]);
    m->type = (s2r_socket_type)b[6];
    m->reply = b[7];
    p = b + 8;
    status = (int32_t)s2r__unwire_u32(&p);
    size = s2r__unwire_u32(&p);
    if (status > 0 || status <= -S2R_RESULT_COUNT_ || (status && !m->reply))
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: status %ld is not a result code", s2r__socket_type_names[m->type], (long)status);
    m->status = (s2r_result)status;
    want = status ? S2R_SOCKET_TEXT : s2r__socket_payload[m->reply][m->type];
    if (size != want || n != S2R_SOCKET_HEADER + (size_t)size)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s %s of %lu bytes, protocol %d's is %lu (truncated or malformed)",
                         s2r__socket_type_names[m->type], m->reply ? "reply" : "request", (unsigned long)(n - S2R_SOCKET_HEADER),
                         S2R_SOCKET_VERSION, (unsigned long)want);
    return S2R_OK;
}

/* Text of at most cap - 1 bytes up to its first NUL (what follows it is
   not kept, so a message parses the same packed again). */
static void s2r__socket_text(char* dst, const unsigned char* src, size_t cap) {
    size_t i;
    for (i = 0; i + 1 < cap && src[i]; i++) dst[i] = (char)src[i];
    memset(dst + i, 0, cap - i);
}

S2RDEF s2r_result s2r_socket_parse(const unsigned char* bytes, size_t n, s2r_socket_message* m, char* error) {
    const unsigned char* p = bytes + S2R_SOCKET_HEADER;
    s2r_result res;
    if (!m || !bytes) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "socket message: no %s", m ? "bytes" : "message to fill");
    memset(m, 0, sizeof *m);
    if ((res = s2r__socket_parse_header(bytes, n, m, error)) != S2R_OK) return res;
    if (m->status != S2R_OK) {
        s2r__socket_text(m->text, p, sizeof m->text);
        return S2R_OK;
    }
    if (m->type == S2R_SOCKET_HELLO && m->reply) {
        m->kind = (int)s2r__unwire_u32(&p);
        m->scene = (int)s2r__unwire_u32(&p);
        m->n_joints = (int)s2r__unwire_u32(&p);
        p += 4;
        s2r__unwire_f64s(&p, &m->period, 1);
        s2r__socket_text(m->name, p, sizeof m->name);
        if (m->kind < 0 || m->kind >= S2R_ROBOT_COUNT || m->scene < 0 || m->scene >= S2R_SCENE_COUNT ||
            m->n_joints < 1 || m->n_joints > S2R_SOCKET_JOINTS || !(m->period > 0 && m->period <= 1))
            return s2r__fail(error, S2R_ERR_CORRUPT, "hello: arm kind %d, scene %d, %d joints, period %g s: out of range",
                             m->kind, m->scene, m->n_joints, m->period);
    } else if (m->type == S2R_SOCKET_RESET) {
        if (!m->reply) {
            m->flags = s2r__unwire_u32(&p);
            p += 4;
            s2r__unwire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
            s2r__unwire_f64s(&p, m->target, 3);
            if (m->flags > 7) return s2r__fail(error, S2R_ERR_CORRUPT, "reset: unknown flags 0x%x", m->flags);
        }
        m->rng[0] = s2r__unwire_u64(&p), m->rng[1] = s2r__unwire_u64(&p);
        m->rng[2] = s2r__unwire_u64(&p), m->rng[3] = s2r__unwire_u64(&p);
    } else if (m->type == S2R_SOCKET_COMMAND && !m->reply) {
        s2r__unwire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
    } else if (m->type == S2R_SOCKET_ADVANCE && !m->reply) {
        s2r__unwire_f64s(&p, &m->seconds, 1);
    } else if (m->type == S2R_SOCKET_PLACE && !m->reply) {
        s2r__unwire_f64s(&p, m->xy, 2);
    } else if (m->type == S2R_SOCKET_SENSORS && m->reply) {
        s2r_sensors* s = &m->sensors;
        s2r__unwire_f64s(&p, &s->time, 1);
        s2r__unwire_f64s(&p, s->q, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->qd, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->tau, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->target, 3);
        s2r__unwire_f64s(&p, s->object, 3);
        if (!s2r_all_finite(&s->time, 1) || !s2r_all_finite(s->q, S2R_SOCKET_JOINTS) || !s2r_all_finite(s->qd, S2R_SOCKET_JOINTS) ||
            !s2r_all_finite(s->tau, S2R_SOCKET_JOINTS) || !s2r_all_finite(s->target, 3) || !s2r_all_finite(s->object, 3))
            return s2r__fail(error, S2R_ERR_CORRUPT, "sensors: a reading is NaN or Inf");
    } else if (m->type == S2R_SOCKET_TRUTH && m->reply) {
        s2r_ground_truth* t = &m->truth;
        s2r__unwire_f64s(&p, t->flange, 3);
        s2r__unwire_f64s(&p, t->flange_vel, 3);
        s2r__unwire_f64s(&p, t->target, 3);
        s2r__unwire_f64s(&p, t->q, S2R_SOCKET_JOINTS);
        t->diverged = (int)s2r__unwire_u32(&p);
        p += 4;
        s2r__unwire_f64s(&p, t->tip, 3);
        s2r__unwire_f64s(&p, t->tip_vel, 3);
        s2r__unwire_f64s(&p, t->object, 3);
        s2r__unwire_f64s(&p, t->object_vel, 3);
        if (t->diverged != 0 && t->diverged != 1) return s2r__fail(error, S2R_ERR_CORRUPT, "truth: diverged is %d, not 0 or 1", t->diverged);
    }
    return S2R_OK;
}

/* >> section: Reach task
   Flow: config, init, then an episode: s2r_reach_reset places the arm and the
   target, s2r_reach_step commands, advances, observes and scores (reward,
   success at the last step). */

/* --- Reach task -------------------------------------------------------------- */

S2RDEF s2r_reach_config s2r_reach_config_default(void) {
    s2r_reach_config c;
    c.control_period = 0.04;
    c.episode_steps = 50;
    c.max_delta = 0.05;
    c.success_radius = 0.02;
    c.success_speed = 0.05;
    c.workspace_scale = 1.0;
    c.init_q_noise = 0.05;
    c.bonus = 1.0;
    c.bonus_speed = 0.05;
    c.action_cost = 0.1;
    c.target_correction[0] = c.target_correction[1] = c.target_correction[2] = 0.0;
    return c;
}

static s2r_result s2r__reach_check_config(const s2r_reach_config* c, char* error) {
    if (!(c->control_period > 0) || !isfinite(c->control_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "control_period must be > 0 s");
    if (c->episode_steps < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "episode_steps must be >= 1");
    if (!(c->max_delta > 0 && c->max_delta <= 3.141592653589793) || !(c->success_radius > 0) || !(c->success_speed > 0) ||
        !isfinite(c->success_radius) || !isfinite(c->success_speed))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_delta must be in (0, pi] rad, success_radius and "
                         "success_speed finite and > 0");
    if (!(c->workspace_scale >= 0 && c->workspace_scale <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "workspace_scale must be in [0, 1]");
    if (!(c->init_q_noise >= 0) || !isfinite(c->bonus))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "init_q_noise must be >= 0 and bonus finite");
    if (!(c->action_cost >= 0) || !isfinite(c->action_cost))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "action_cost must be >= 0 and finite (a reward for motion is not a cost)");
    if (!(c->bonus_speed >= 0) || !isfinite(c->bonus_speed))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "bonus_speed must be >= 0 m/s (0: no speed factor)");
    if (!s2r_all_finite(c->target_correction, 3))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "target_correction must be finite");
    return S2R_OK;
}

S2RDEF s2r_result s2r_reach_init(s2r_reach* reach, const s2r_reach_config* config,
                                 const s2r_backend* backend) {
    s2r_result res;
    S2R_ASSERT(reach);
    memset(reach, 0, sizeof *reach);
    if (!config)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "s2r_reach_init: config is NULL");
    res = s2r__reach_check_config(config, reach->error);
    if (res != S2R_OK) return res;
    if (!backend || !backend->info || !backend->info->model)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "backend without arm info");
    reach->config = *config;
    reach->backend = backend;
    reach->n_joints = backend->info->n_joints;
    reach->obs_dim = 4 * reach->n_joints + 9;
    reach->kinematics = mj_makeData(backend->info->model);
    if (!reach->kinematics) return s2r__fail(reach->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed");
    return S2R_OK;
}

S2RDEF void s2r_reach_free(s2r_reach* reach) {
    if (!reach) return;
    if (reach->kinematics) mj_deleteData(reach->kinematics);
    memset(reach, 0, sizeof *reach);
}

S2RDEF void s2r_reach_sample_target(const s2r_reach_config* config, const s2r_arm_info* info,
                                    s2r_rng* rng, double target[3]) {
    int i;
    S2R_ASSERT(config && info && rng && target);
    for (i = 0; i < 3; i++) {
        double mid = 0.5 * (info->workspace_lo[i] + info->workspace_hi[i]);
        double half = 0.5 * (info->workspace_hi[i] - info->workspace_lo[i]) * config->workspace_scale;
        target[i] = s2r_rng_range(rng, mid - half, mid + half);
    }
}

/* Write the observation (layout in the declaration) from the latest sensors. */
static void s2r__reach_observe(s2r_reach* reach, float* obs) {
    const s2r_sensors* s = &reach->sensors;
    const s2r_arm_info* info = reach->backend->info;
    int n = reach->n_joints, j, i;
    double flange[3];
    s2r_flange_fk(info->model, reach->kinematics, info->flange_site, s->q, n, flange);
    for (j = 0; j < n; j++) {
        obs[j] = (float)s->q[j];
        obs[n + j] = (float)s->qd[j];
        obs[2 * n + j] = (float)(reach->q_cmd[j] - s->q[j]);
        obs[3 * n + 9 + j] = reach->prev_action[j];
    }
    for (i = 0; i < 3; i++) {
        double target = s->target[i] - reach->config.target_correction[i];
        obs[3 * n + i] = (float)target;
        obs[3 * n + 3 + i] = (float)flange[i];
        obs[3 * n + 6 + i] = (float)(target - flange[i]);
    }
    for (i = 0; i < reach->obs_dim; i++)   /* a blown-up simulation never feeds NaN on */
        if (!isfinite(obs[i])) obs[i] = 0.0f;
}

S2RDEF s2r_result s2r_reach_reset_to(s2r_reach* reach, const double* q0, const double target[3],
                                     s2r_rng* rng, float* obs) {
    S2R_ASSERT(reach);
    if (!obs)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "s2r_reach_reset_to: obs is NULL");
    const s2r_backend* b = reach->backend;
    s2r_result res = s2r_backend_reset(b, q0, target, rng);
    if (res != S2R_OK) return s2r__fail(reach->error, res, "reset: %s", b->error);
    memcpy(reach->q_cmd, q0 ? q0 : b->info->q_home, (size_t)reach->n_joints * sizeof(double));
    if (target) {
        memcpy(reach->target, target, sizeof reach->target);
    } else {   /* left where it was: the ground truth says where */
        s2r_ground_truth truth;
        if ((res = s2r_backend_ground_truth(b, &truth)) != S2R_OK) return s2r__fail(reach->error, res, "ground truth: %s", b->error);
        memcpy(reach->target, truth.target, sizeof reach->target);
    }
    memset(reach->prev_action, 0, sizeof reach->prev_action);
    res = s2r_backend_read_sensors(b, &reach->sensors);
    if (res != S2R_OK) return s2r__fail(reach->error, res, "sensors: %s", b->error);
    reach->step = 0;
    reach->episode_open = 1;
    s2r__reach_observe(reach, obs);
    return S2R_OK;
}

S2RDEF s2r_result s2r_reach_reset(s2r_reach* reach, s2r_rng* rng, float* obs) {
    S2R_ASSERT(reach);
    const s2r_arm_info* info = reach->backend->info;
    double q0[S2R_MAX_JOINTS], target[3];
    double noise = reach->config.init_q_noise;
    int j;
    if (!rng || !obs) return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "reach reset: rng and obs are needed");
    for (j = 0; j < reach->n_joints; j++)
        q0[j] = s2r_clamp(info->q_home[j] + s2r_rng_range(rng, -noise, noise), info->q_min[j], info->q_max[j]);
    s2r_reach_sample_target(&reach->config, info, rng, target);
    return s2r_reach_reset_to(reach, q0, target, rng, obs);
}

/* exp(-(x / scale)^2): 1 at x = 0, falling off over `scale`; 1 if scale is 0. */
static double s2r__reach_closeness(double x, double scale) {
    return scale > 0 ? exp(-(x / scale) * (x / scale)) : 1.0;
}

/* Reward and end-of-episode bookkeeping from the ground truth. */
static void s2r__reach_score(s2r_reach* reach, const float* a, int diverged, s2r_step_result* out) {
    const s2r_reach_config* c = &reach->config;
    s2r_ground_truth gt;
    double d, speed, a2 = 0;
    int j;
    s2r_backend_ground_truth(reach->backend, &gt);
    d = sqrt((gt.flange[0] - reach->target[0]) * (gt.flange[0] - reach->target[0]) +
             (gt.flange[1] - reach->target[1]) * (gt.flange[1] - reach->target[1]) +
             (gt.flange[2] - reach->target[2]) * (gt.flange[2] - reach->target[2]));
    speed = sqrt(gt.flange_vel[0] * gt.flange_vel[0] + gt.flange_vel[1] * gt.flange_vel[1] +
                 gt.flange_vel[2] * gt.flange_vel[2]);
    for (j = 0; j < reach->n_joints; j++) a2 += (double)a[j] * a[j];
    memset(out, 0, sizeof *out);
    out->diverged = diverged;
    out->terminated = diverged;
    out->truncated = !diverged && reach->step >= c->episode_steps;
    out->done = out->terminated || out->truncated;
    out->distance = diverged ? -1.0 : d;
    out->reward = diverged ? (float)(-2.0 * (c->episode_steps - reach->step + 1))
                           : (float)(-d / 0.1 + c->bonus * s2r__reach_closeness(d, c->success_radius) *
                                                    s2r__reach_closeness(speed, c->bonus_speed) - c->action_cost * a2);
    out->success = out->truncated && d < c->success_radius && speed < c->success_speed;
}

/* The part of a step both tasks share: send the servo targets, let one
   control period pass, read the sensors.  A physics blow-up is not an
   error here: it sets *diverged and the task ends the episode. */
static s2r_result s2r__task_actuate(const s2r_backend* b, const double* q_cmd, double period, s2r_sensors* sensors,
                                    int* diverged, char* error) {
    s2r_result res = s2r_backend_command(b, q_cmd);
    if (res != S2R_OK) return s2r__fail(error, res, "command: %s", b->error);
    res = s2r_backend_advance(b, period);
    if (res != S2R_OK && res != S2R_ERR_DIVERGED) return s2r__fail(error, res, "advance: %s", b->error);
    *diverged = res == S2R_ERR_DIVERGED;
    s2r_backend_read_sensors(b, sensors);
    return S2R_OK;
}

S2RDEF s2r_result s2r_reach_step(s2r_reach* reach, const float* action, float* obs,
                                 s2r_step_result* out) {
    S2R_ASSERT(reach);
    const s2r_backend* b = reach->backend;
    const s2r_arm_info* info = b->info;
    float a[S2R_MAX_JOINTS];
    double q_cmd[S2R_MAX_JOINTS];
    s2r_result res;
    int j, n = reach->n_joints, diverged;
    if (!action || !obs || !out)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "s2r_reach_step: %s is NULL; nothing was done",
                         !action ? "action" : !obs ? "obs" : "out");
    if (!reach->episode_open) return s2r__fail(reach->error, S2R_ERR_STATE, "step before reset (or after the episode ended)");
    if (!s2r_all_finite_f(action, n))
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "action contains NaN or Inf; nothing was done");
    for (j = 0; j < n; j++) {
        a[j] = action[j] < -1.0f ? -1.0f : (action[j] > 1.0f ? 1.0f : action[j]);
        q_cmd[j] = s2r_clamp(reach->q_cmd[j] + a[j] * reach->config.max_delta, info->q_min[j], info->q_max[j]);
    }
    res = s2r__task_actuate(b, q_cmd, reach->config.control_period, &reach->sensors, &diverged, reach->error);
    if (res != S2R_OK) return res;
    memcpy(reach->q_cmd, q_cmd, (size_t)n * sizeof(double));
    memcpy(reach->prev_action, a, (size_t)n * sizeof(float));
    reach->step++;
    s2r__reach_score(reach, a, diverged, out);
    if (out->done) reach->episode_open = 0;
    s2r__reach_observe(reach, obs);
    return S2R_OK;
}

static s2r_result s2r__reach_env_reset(void* self, s2r_rng* rng, float* obs) {
    return s2r_reach_reset((s2r_reach*)self, rng, obs);
}
static s2r_result s2r__reach_env_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    return s2r_reach_step((s2r_reach*)self, action, obs, out);
}

S2RDEF s2r_env s2r_reach_env(s2r_reach* reach) {
    s2r_env env;
    S2R_ASSERT(reach);
    memset(&env, 0, sizeof env);
    env.self = reach;
    env.obs_dim = reach->obs_dim;
    env.act_dim = reach->n_joints;
    env.reset = s2r__reach_env_reset;
    env.step = s2r__reach_env_step;
    return env;
}

/* >> section: Push task
   Flow: the same flow as reach for an object on the table: reset places the
   object and the goal, step runs the tip's Cartesian control, the camera
   sees the object (with its delay, dropout and occlusion), and scores. */

/* --- Push task ---------------------------------------------------------------- */

S2RDEF s2r_push_config s2r_push_config_default(void) {
    s2r_push_config c;
    memset(&c, 0, sizeof c);
    c.control_period = 0.04;
    c.episode_steps = 125;
    c.max_speed = 0.15;
    c.push_height = 0.03;
    c.success_radius = 0.03;
    c.min_distance = 0.08;
    c.max_distance = 0.2;
    c.tip_clearance = 0.1;
    c.approach_weight = 0.5;
    c.bonus = 1.0;
    c.action_cost = 0.05;
    return c;
}

static s2r_result s2r__push_check_config(const s2r_push_config* c, char* error) {
    if (!(c->control_period > 0) || !isfinite(c->control_period) || c->control_period > 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "control_period must be in (0, 1] s");
    if (c->episode_steps < 1 || c->episode_steps > 100000)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "episode_steps must be in 1..100000");
    if (!(c->max_speed > 0 && c->max_speed <= 2))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_speed must be in (0, 2] m/s (arms' Cartesian limits are 1-2 m/s)");
    if (!(c->push_height >= 0 && c->push_height <= 0.2))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "push_height must be in [0, 0.2] m above the table");
    if (!(c->success_radius > 0 && c->success_radius < 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "success_radius must be in (0, 1) m");
    if (!(c->min_distance >= 0 && c->min_distance <= c->max_distance && c->max_distance < 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "need 0 <= min_distance <= max_distance < 1 m");
    if (!(c->tip_clearance >= 0 && c->tip_clearance < 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "tip_clearance must be in [0, 1) m");
    if (!(c->approach_weight >= 0) || !isfinite(c->approach_weight) || !isfinite(c->bonus) ||
        !(c->action_cost >= 0) || !isfinite(c->action_cost))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "approach_weight and action_cost must be >= 0, bonus finite");
    if (!s2r_all_finite(c->target_correction, 3))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "target_correction must be finite");
    return S2R_OK;
}

/* The tip's horizontal heading at home: the direction the tool's x axis
   keeps while pushing. */
static void s2r__push_heading(const s2r_arm_info* info, mjData* scratch, double heading[3]) {
    double pos[3], n;
    const double* R = scratch->site_xmat + 9 * info->tip_site;
    s2r_flange_fk(info->model, scratch, info->flange_site, info->q_home, info->n_joints, pos);
    heading[0] = R[0];
    heading[1] = R[3];
    heading[2] = 0;
    n = sqrt(heading[0] * heading[0] + heading[1] * heading[1]);
    if (n < 1e-6) { heading[0] = 1; heading[1] = 0; n = 1; }
    heading[0] /= n;
    heading[1] /= n;
}

S2RDEF s2r_result s2r_push_init(s2r_push* push, const s2r_push_config* config, const s2r_backend* backend) {
    s2r_result res;
    S2R_ASSERT(push);
    memset(push, 0, sizeof *push);
    if (!config)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "s2r_push_init: config is NULL");
    if ((res = s2r__push_check_config(config, push->error)) != S2R_OK) return res;
    if (!backend || !backend->info || !backend->info->model)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "backend without arm info");
    if (backend->info->scene != S2R_SCENE_PUSH || !backend->place_object)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "the push task needs a backend with the push scene "
                         "(a table, an object and a pusher tip); %s has none", backend->name);
    push->config = *config;
    push->backend = backend;
    push->n_joints = backend->info->n_joints;
    push->kinematics = mj_makeData(backend->info->model);
    if (!push->kinematics) return s2r__fail(push->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed");
    s2r__push_heading(backend->info, push->kinematics, push->heading);
    return S2R_OK;
}

S2RDEF void s2r_push_free(s2r_push* push) {
    if (!push) return;
    if (push->kinematics) mj_deleteData(push->kinematics);
    memset(push, 0, sizeof *push);
}

static double s2r__dist2(const double a[2], const double b[2]) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]));
}

/* A point drawn uniformly in the push area, shrunk by `margin` (m). */
static void s2r__push_area_point(const s2r_arm_info* info, double margin, s2r_rng* rng, double p[2]) {
    int i;
    for (i = 0; i < 2; i++) p[i] = s2r_rng_range(rng, info->push_area_lo[i] + margin, info->push_area_hi[i] - margin);
}

S2RDEF void s2r_push_sample(const s2r_push_config* config, const s2r_arm_info* info, s2r_rng* rng,
                            double tip[2], double object[2], double goal[2]) {
    int k;
    S2R_ASSERT(config && info && rng && tip && object && goal);
    s2r__push_area_point(info, info->object_radius, rng, object);
    for (k = 0; k < 64; k++) {   /* rejection; the area holds such goals for the default distances */
        double angle = s2r_rng_range(rng, 0, 6.283185307179586);
        double r = s2r_rng_range(rng, config->min_distance, config->max_distance);
        goal[0] = object[0] + r * cos(angle);
        goal[1] = object[1] + r * sin(angle);
        if (goal[0] >= info->push_area_lo[0] && goal[0] <= info->push_area_hi[0] && goal[1] >= info->push_area_lo[1] &&
            goal[1] <= info->push_area_hi[1]) break;
    }
    for (k = 0; k < 2; k++) goal[k] = s2r_clamp(goal[k], info->push_area_lo[k], info->push_area_hi[k]);
    for (k = 0; k < 64; k++) {
        s2r__push_area_point(info, 0, rng, tip);
        if (s2r__dist2(tip, object) >= config->tip_clearance) break;
    }
}

/* Tip position (m) and velocity (m/s) from measured q, qd, by forward
   kinematics and the tip's Jacobian on the nominal model. */
static void s2r__push_tip_state(s2r_push* push, const double* q, const double* qd, double pos[3], double vel[3]) {
    const s2r_arm_info* info = push->backend->info;
    const mjModel* m = info->model;
    double jacp[3 * 64];
    int r, j;
    s2r_flange_fk(m, push->kinematics, info->flange_site, q, push->n_joints, pos);
    memcpy(pos, push->kinematics->site_xpos + 3 * info->tip_site, 3 * sizeof(double));
    if (!vel) return;
    mj_comPos(m, push->kinematics);
    mj_jacSite(m, push->kinematics, jacp, NULL, info->tip_site);
    for (r = 0; r < 3; r++) {
        vel[r] = 0;
        for (j = 0; j < push->n_joints; j++) vel[r] += jacp[r * m->nv + m->jnt_dofadr[m->actuator_trnid[2 * j]]] * qd[j];
    }
}

/* Write the observation (layout in the declaration) from the latest sensors. */
static void s2r__push_observe(s2r_push* push, float* obs) {
    const s2r_sensors* s = &push->sensors;
    double tip[3], vel[3], object[2], goal[2];
    int i;
    s2r__push_tip_state(push, s->q, s->qd, tip, vel);
    for (i = 0; i < 2; i++) {
        object[i] = s->object[i] - push->config.target_correction[i];
        goal[i] = push->seen_goal[i];
        obs[i] = (float)tip[i];
        obs[2 + i] = (float)vel[i];
        obs[4 + i] = (float)object[i];
        obs[6 + i] = (float)goal[i];
        obs[8 + i] = (float)(object[i] - tip[i]);
        obs[10 + i] = (float)(goal[i] - object[i]);
        obs[12 + i] = push->prev_action[i];
    }
    {   /* the object's velocity over the last S2R_PUSH_VELOCITY_STEPS steps (the
           ring's slot for this step holds the oldest; at the start, the first view) */
        int k = push->seen_count % S2R_PUSH_VELOCITY_STEPS, n = S2R_PUSH_VELOCITY_STEPS;
        for (i = 0; i < 2; i++) {
            if (push->seen_count == 0) {
                int q;
                for (q = 0; q < n; q++) push->seen_object[q][i] = object[i];
            }
            obs[18 + i] = (float)((object[i] - push->seen_object[k][i]) / (n * push->config.control_period));
            push->seen_object[k][i] = object[i];
        }
        push->seen_count++;
    }
    {   /* the push frame: u along object -> goal, w its normal */
        double dx = goal[0] - object[0], dy = goal[1] - object[1], n = sqrt(dx * dx + dy * dy);
        double u[2], rx = tip[0] - object[0], ry = tip[1] - object[1];
        u[0] = n > 1e-9 ? dx / n : 1.0;
        u[1] = n > 1e-9 ? dy / n : 0.0;
        obs[14] = (float)u[0];
        obs[15] = (float)u[1];
        obs[16] = (float)(rx * u[0] + ry * u[1]);
        obs[17] = (float)(-rx * u[1] + ry * u[0]);
    }
    for (i = 0; i < S2R_PUSH_OBS; i++)   /* a blown-up simulation never feeds NaN on */
        if (!isfinite(obs[i])) obs[i] = 0.0f;
}

/* Start and goal on the table, the tip's start reachable. */
static s2r_result s2r__push_check_layout(s2r_push* push, const double tip[2], const double object[2],
                                         const double goal[2]) {
    const s2r_arm_info* info = push->backend->info;
    int i;
    if (!tip || !object || !goal || !s2r_all_finite(tip, 2) || !s2r_all_finite(object, 2) || !s2r_all_finite(goal, 2))
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "push reset: tip, object and goal must be given and finite");
    for (i = 0; i < 2; i++) {
        if (object[i] < info->table_lo[i] || object[i] > info->table_hi[i])
            return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "push reset: the object (%g, %g) m is off the table",
                             object[0], object[1]);
        if (goal[i] < info->table_lo[i] || goal[i] > info->table_hi[i])
            return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "push reset: the goal (%g, %g) m is off the table",
                             goal[0], goal[1]);
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_push_reset_to(s2r_push* push, const double tip[2], const double object[2],
                                    const double goal[2], s2r_rng* rng, float* obs) {
    S2R_ASSERT(push);
    if (!tip || !object || !goal || !rng || !obs)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "s2r_push_reset_to: tip, object, goal, rng or obs is NULL");
    const s2r_backend* b = push->backend;
    const s2r_arm_info* info = b->info;
    double q0[S2R_MAX_JOINTS], at[3], goal3[3];
    s2r_result res = s2r__push_check_layout(push, tip, object, goal);
    if (res != S2R_OK) return res;
    at[0] = tip[0];
    at[1] = tip[1];
    at[2] = info->table_height + push->config.push_height;
    if (s2r_tip_ik(info, push->kinematics, at, push->heading, info->q_home, q0) > 0.005)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "push reset: the tip cannot reach (%g, %g) m", tip[0], tip[1]);
    goal3[0] = goal[0];
    goal3[1] = goal[1];
    goal3[2] = info->table_height;
    if ((res = s2r_backend_reset(b, q0, goal3, rng)) != S2R_OK) return s2r__fail(push->error, res, "reset: %s", b->error);
    if ((res = s2r_backend_place_object(b, object)) != S2R_OK) return s2r__fail(push->error, res, "place object: %s", b->error);
    if ((res = s2r_backend_read_sensors(b, &push->sensors)) != S2R_OK) return s2r__fail(push->error, res, "sensors: %s", b->error);
    memcpy(push->q_cmd, q0, (size_t)push->n_joints * sizeof(double));
    memcpy(push->q_start, q0, (size_t)push->n_joints * sizeof(double));
    memcpy(push->goal, goal, sizeof push->goal);
    memset(push->prev_action, 0, sizeof push->prev_action);
    push->seen_count = 0;
    push->seen_goal[0] = push->sensors.target[0] - push->config.target_correction[0];
    push->seen_goal[1] = push->sensors.target[1] - push->config.target_correction[1];
    push->step = 0;
    push->episode_open = 1;
    s2r__push_observe(push, obs);
    return S2R_OK;
}

S2RDEF s2r_result s2r_push_reset(s2r_push* push, s2r_rng* rng, float* obs) {
    double tip[2], object[2], goal[2];
    S2R_ASSERT(push);
    if (!rng || !obs) return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "push reset: rng and obs are needed");
    s2r_push_sample(&push->config, push->backend->info, rng, tip, object, goal);
    return s2r_push_reset_to(push, tip, object, goal, rng, obs);
}

/* Reward and end-of-episode bookkeeping from the ground truth. */
static void s2r__push_score(s2r_push* push, const float* a, int diverged, s2r_step_result* out) {
    const s2r_push_config* c = &push->config;
    const s2r_arm_info* info = push->backend->info;
    s2r_ground_truth gt;
    double d, rim, a2 = (double)a[0] * a[0] + (double)a[1] * a[1];
    int fell;
    s2r_backend_ground_truth(push->backend, &gt);
    d = s2r__dist2(gt.object, push->goal);
    rim = fmax(0, s2r__dist2(gt.tip, gt.object) - info->object_radius - info->tip_radius);
    fell = gt.object[0] < info->table_lo[0] || gt.object[0] > info->table_hi[0] || gt.object[1] < info->table_lo[1] ||
           gt.object[1] > info->table_hi[1] || gt.object[2] < info->table_height - 0.05;
    memset(out, 0, sizeof *out);
    out->diverged = diverged;
    out->terminated = diverged || fell;
    out->truncated = !out->terminated && push->step >= c->episode_steps;
    out->done = out->terminated || out->truncated;
    out->distance = diverged ? -1.0 : d;
    out->reward = out->terminated ? (float)(-2.0 * (c->episode_steps - push->step + 1))
                                  : (float)(-d / 0.1 - c->approach_weight * rim / 0.1 +
                                            c->bonus * s2r__reach_closeness(d, c->success_radius) - c->action_cost * a2);
    out->success = out->truncated && d < c->success_radius;
}

/* The commanded tip velocity (m/s), less any component leading the tip
   out of the reachable region (the push area widened by 8 cm). */
static void s2r__push_tip_velocity(const s2r_push* push, const float* a, const double tip[3], double v[2]) {
    const s2r_arm_info* info = push->backend->info;
    int i;
    for (i = 0; i < 2; i++) {
        v[i] = a[i] * push->config.max_speed;
        if ((tip[i] < info->push_area_lo[i] - 0.08 && v[i] < 0) || (tip[i] > info->push_area_hi[i] + 0.08 && v[i] > 0))
            v[i] = 0;
    }
}

S2RDEF s2r_result s2r_push_step(s2r_push* push, const float* action, float* obs, s2r_step_result* out) {
    S2R_ASSERT(push);
    if (!action || !obs || !out)
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "s2r_push_step: action, obs or out is NULL");
    const s2r_backend* b = push->backend;
    const s2r_arm_info* info = b->info;
    float a[2];
    double q_cmd[S2R_MAX_JOINTS], tip[3], v[2];
    s2r_result res;
    int i, diverged;
    if (!push->episode_open) return s2r__fail(push->error, S2R_ERR_STATE, "step before reset (or after the episode ended)");
    if (!action || !s2r_all_finite_f(action, 2))
        return s2r__fail(push->error, S2R_ERR_INVALID_ARGUMENT, "action contains NaN or Inf; nothing was done");
    for (i = 0; i < 2; i++) a[i] = action[i] < -1.0f ? -1.0f : (action[i] > 1.0f ? 1.0f : action[i]);
    s2r__push_tip_state(push, push->sensors.q, NULL, tip, NULL);
    s2r__push_tip_velocity(push, a, tip, v);
    memcpy(q_cmd, push->q_cmd, sizeof q_cmd);
    s2r_tip_velocity_ik(info, push->kinematics, push->sensors.q, v, info->table_height + push->config.push_height,
                        push->heading, push->q_start, push->config.control_period, q_cmd);
    res = s2r__task_actuate(b, q_cmd, push->config.control_period, &push->sensors, &diverged, push->error);
    if (res != S2R_OK) return res;
    memcpy(push->q_cmd, q_cmd, (size_t)push->n_joints * sizeof(double));
    memcpy(push->prev_action, a, sizeof a);
    push->step++;
    s2r__push_score(push, a, diverged, out);
    if (out->done) push->episode_open = 0;
    s2r__push_observe(push, obs);
    return S2R_OK;
}

static s2r_result s2r__push_env_reset(void* self, s2r_rng* rng, float* obs) {
    return s2r_push_reset((s2r_push*)self, rng, obs);
}
static s2r_result s2r__push_env_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    return s2r_push_step((s2r_push*)self, action, obs, out);
}

S2RDEF s2r_env s2r_push_env(s2r_push* push) {
    s2r_env env;
    memset(&env, 0, sizeof env);
    env.self = push;
    env.obs_dim = S2R_PUSH_OBS;
    env.act_dim = 2;
    env.reset = s2r__push_env_reset;
    env.step = s2r__push_env_step;
    return env;
}

/* Solve A x = b for a symmetric positive definite n x n A (n <= 6) by
   Cholesky; A is overwritten.  Returns 0 when A is not positive definite. */
static int s2r__cholesky_solve(double* A, const double* b, double* x, int n) {
    int i, j, k;
    for (j = 0; j < n; j++) {
        double d = A[j * n + j];
        for (k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
        if (!(d > 0)) return 0;
        A[j * n + j] = sqrt(d);
        for (i = j + 1; i < n; i++) {
            double s = A[i * n + j];
            for (k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = s / A[j * n + j];
        }
    }
    for (i = 0; i < n; i++) {   /* L y = b */
        double s = b[i];
        for (k = 0; k < i; k++) s -= A[i * n + k] * x[k];
        x[i] = s / A[i * n + i];
    }
    for (i = n - 1; i >= 0; i--) {   /* L^T x = y */
        double s = x[i];
        for (k = i + 1; k < n; k++) s -= A[k * n + i] * x[k];
        x[i] = s / A[i * n + i];
    }
    return 1;
}

/* y = (J J^T + lambda^2 I)^-1 e for the 6 x n Jacobian J (rows of the
   arm's columns `dof`); 0 when singular. */
static int s2r__dls6(const double* J, int nv, const int* dof, int n, const double e[6], double y[6]) {
    double A[36];
    int r, c, j;
    for (r = 0; r < 6; r++)
        for (c = 0; c < 6; c++) {
            A[6 * r + c] = r == c ? 1e-4 : 0.0;   /* lambda = 0.01 */
            for (j = 0; j < n; j++) A[6 * r + c] += J[r * nv + dof[j]] * J[c * nv + dof[j]];
        }
    return s2r__cholesky_solve(A, e, y, 6);
}

/* One damped least-squares step of the tip toward `twist` (m/s and rad/s)
   at joints q: dq (rad/s) with a null-space pull toward q_rest.  Leaves the
   kinematics of q in `scratch`. */
static void s2r__tip_step(const s2r_arm_info* info, mjData* scratch, const double* q, const double lin[3],
                          const double heading[3], const double* q_rest, double* dq) {
    const mjModel* m = info->model;
    double J[6 * 64], e[6], y[6], yp[6], Jp[6], pull[S2R_MAX_JOINTS], pos[3];
    const double* R;
    int dof[S2R_MAX_JOINTS], r, j, n = info->n_joints;
    s2r_flange_fk(m, scratch, info->flange_site, q, n, pos);
    mj_comPos(m, scratch);
    mj_jacSite(m, scratch, J, J + 3 * m->nv, info->tip_site);
    R = scratch->site_xmat + 9 * info->tip_site;   /* columns: the site's axes */
    memcpy(e, lin, 3 * sizeof(double));
    e[3] = 10.0 * (R[5] * -1.0 - 0.0);             /* z_tip x (0, 0, -1) */
    e[4] = 10.0 * (0.0 - R[2] * -1.0);
    e[5] = 10.0 * (R[0] * heading[1] - R[3] * heading[0]);   /* (x_tip x heading) . e_z */
    for (j = 0; j < n; j++) {
        dof[j] = m->jnt_dofadr[m->actuator_trnid[2 * j]];
        pull[j] = 0.5 * (q_rest[j] - q[j]);
    }
    if (!s2r__dls6(J, m->nv, dof, n, e, y)) { memset(dq, 0, (size_t)n * sizeof(double)); return; }
    for (r = 0; r < 6; r++) { Jp[r] = 0; for (j = 0; j < n; j++) Jp[r] += J[r * m->nv + dof[j]] * pull[j]; }
    if (!s2r__dls6(J, m->nv, dof, n, Jp, yp)) memset(yp, 0, sizeof yp);
    for (j = 0; j < n; j++) {   /* J^T y, plus the pull less what the task space sees of it */
        dq[j] = pull[j];
        for (r = 0; r < 6; r++) dq[j] += J[r * m->nv + dof[j]] * (y[r] - yp[r]);
    }
}

S2RDEF void s2r_tip_velocity_ik(const s2r_arm_info* info, mjData* scratch, const double* q, const double v[2],
                                double height, const double heading[3], const double* q_rest, double dt,
                                double* q_cmd) {
    double lin[3], dq[S2R_MAX_JOINTS], pos[3];
    int j;
    S2R_ASSERT(info && scratch && q && v && heading && q_rest && q_cmd);
    if (info->model->nv > 64) return;   /* arms only: the Jacobian lives on the stack */
    s2r_flange_fk(info->model, scratch, info->flange_site, q, info->n_joints, pos);
    lin[0] = v[0];
    lin[1] = v[1];
    lin[2] = 10.0 * (height - scratch->site_xpos[3 * info->tip_site + 2]);
    s2r__tip_step(info, scratch, q, lin, heading, q_rest, dq);
    for (j = 0; j < info->n_joints; j++)
        q_cmd[j] = s2r_clamp(s2r_clamp(q_cmd[j] + dq[j] * dt, q[j] - 0.2, q[j] + 0.2), info->q_min[j], info->q_max[j]);
}

S2RDEF double s2r_tip_ik(const s2r_arm_info* info, mjData* scratch, const double tip[3], const double heading[3],
                         const double* q_start, double* q_out) {
    S2R_ASSERT(info);
    double lin[3], dq[S2R_MAX_JOINTS], pos[3], err = INFINITY;
    int j, it, n = info->n_joints;
    if (info->model->nv > 64 || info->tip_site < 0) return INFINITY;
    memcpy(q_out, q_start, (size_t)n * sizeof(double));
    for (it = 0; it < 300; it++) {
        s2r_flange_fk(info->model, scratch, info->flange_site, q_out, n, pos);
        for (j = 0; j < 3; j++) lin[j] = 10.0 * (tip[j] - scratch->site_xpos[3 * info->tip_site + j]);
        err = 0.1 * sqrt(lin[0] * lin[0] + lin[1] * lin[1] + lin[2] * lin[2]);
        s2r__tip_step(info, scratch, q_out, lin, heading, q_start, dq);
        if (err < 1e-5) break;
        for (j = 0; j < n; j++) q_out[j] = s2r_clamp(q_out[j] + s2r_clamp(0.1 * dq[j], -0.2, 0.2), info->q_min[j], info->q_max[j]);
    }
    return err;
}

/* >> section: Tasks
   Flow: one door for the pipeline to either task: the task config and its
   backend, dimensions, reset, step, the path of its output files. */

/* --- Tasks -------------------------------------------------------------------- */

static const char* const s2r__task_kind_names[S2R_TASK_COUNT] = {"reach", "push"};

S2RDEF const char* s2r_task_kind_name(s2r_task_kind kind) {
    return (kind >= 0 && kind < S2R_TASK_COUNT) ? s2r__task_kind_names[kind] : "unknown";
}

S2RDEF s2r_task_kind s2r_task_kind_find(const char* name) {
    int k;
    for (k = 0; name && k < S2R_TASK_COUNT; k++)
        if (strcmp(name, s2r__task_kind_names[k]) == 0) return (s2r_task_kind)k;
    return S2R_TASK_COUNT;
}

S2RDEF s2r_task_config s2r_task_config_default(s2r_task_kind kind) {
    s2r_task_config c;
    c.kind = kind;
    c.reach = s2r_reach_config_default();
    c.push = s2r_push_config_default();
    return c;
}

S2RDEF s2r_scene s2r_task_scene(s2r_task_kind kind) {
    return kind == S2R_TASK_PUSH ? S2R_SCENE_PUSH : S2R_SCENE_ARM;
}

S2RDEF s2r_sim_config s2r_task_sim_config(s2r_task_kind kind, s2r_robot_kind robot) {
    s2r_sim_config c = s2r_sim_config_default(robot);
    c.scene = s2r_task_scene(kind);
    if (kind == S2R_TASK_PUSH) c.max_latency = 0.2;   /* camera pipelines reach 120 ms */
    return c;
}

S2RDEF s2r_randomization s2r_task_randomization(s2r_task_kind kind) {
    return kind == S2R_TASK_PUSH ? s2r_randomization_push() : s2r_randomization_default();
}

S2RDEF void s2r_task_dims(s2r_task_kind kind, s2r_robot_kind robot, int* obs_dim, int* act_dim) {
    S2R_ASSERT(obs_dim && act_dim);
    s2r_task_dims_n(kind, robot == S2R_ROBOT_PANDA ? 7 : 6, obs_dim, act_dim);
}

S2RDEF void s2r_task_dims_n(s2r_task_kind kind, int n_joints, int* obs_dim, int* act_dim) {
    S2R_ASSERT(obs_dim && act_dim);
    *obs_dim = kind == S2R_TASK_PUSH ? S2R_PUSH_OBS : 4 * n_joints + 9;
    *act_dim = kind == S2R_TASK_PUSH ? 2 : n_joints;
}

S2RDEF void s2r_task_config_set_camera(s2r_task_config* config, const double correction[3]) {
    S2R_ASSERT(config && correction);
    memcpy(config->reach.target_correction, correction, 3 * sizeof(double));
    memcpy(config->push.target_correction, correction, 3 * sizeof(double));
}

S2RDEF s2r_result s2r_task_init(s2r_task* task, const s2r_task_config* config, const s2r_backend* backend) {
    s2r_result res;
    S2R_ASSERT(task);
    memset(task, 0, sizeof *task);
    task->error = task->reach.error;
    if (!config || !backend) return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "task: config or backend is NULL");
    task->kind = config->kind;
    if (config->kind == S2R_TASK_REACH) {
        res = s2r_reach_init(&task->reach, &config->reach, backend);
        task->env = s2r_reach_env(&task->reach);
        task->episode_steps = config->reach.episode_steps;
    } else if (config->kind == S2R_TASK_PUSH) {
        res = s2r_push_init(&task->push, &config->push, backend);
        task->env = s2r_push_env(&task->push);
        task->episode_steps = config->push.episode_steps;
        task->error = task->push.error;
    } else {
        res = s2r__fail(task->reach.error, S2R_ERR_INVALID_ARGUMENT, "unknown task kind %d", (int)config->kind);
    }
    return res;
}

S2RDEF void s2r_task_free(s2r_task* task) {
    if (!task) return;
    s2r_reach_free(&task->reach);
    s2r_push_free(&task->push);
    memset(task, 0, sizeof *task);
}

S2RDEF const s2r_backend* s2r_task_backend(const s2r_task* task) {
    S2R_ASSERT(task);
    return task->kind == S2R_TASK_PUSH ? task->push.backend : task->reach.backend;
}

S2RDEF s2r_task_config s2r_task_config_of_reach(const s2r_reach* reach) {
    s2r_task_config c = s2r_task_config_default(S2R_TASK_REACH);
    S2R_ASSERT(reach);
    c.reach = reach->config;
    return c;
}

/* >> section: Scripted controller
   Flow: damped least-squares IK, then the reach expert and the pusher built on
   it (the baseline, the operator of the demos and the fallback). */

/* --- Scripted controller ------------------------------------------------------ */

/* Solve the 3x3 system A x = b (A symmetric positive definite) by Cramer's
   rule; returns 0 when A is singular. */
static int s2r__solve3(const double A[9], const double b[3], double x[3]) {
    double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6]);
    int i;
    if (fabs(det) < 1e-15) return 0;
    for (i = 0; i < 3; i++) {
        double M[9];
        int r;
        memcpy(M, A, sizeof M);
        for (r = 0; r < 3; r++) M[3 * r + i] = b[r];
        x[i] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                M[2] * (M[3] * M[7] - M[4] * M[6])) / det;
    }
    return 1;
}

/* One damped least-squares step: dq = J^T (J J^T + lambda^2 I)^-1 e, plus a
   small pull toward q_rest in the null space.  J is 3 x nv (row-major). */
static void s2r__ik_step(const mjModel* m, const double* J, const int* dof, int n, const double e[3],
                         const double* q, const double* q_rest, double* dq) {
    double A[9] = {0}, y[3], Jy[S2R_MAX_JOINTS], pull[S2R_MAX_JOINTS], Jp[3], yp[3];
    const double lambda2 = 1e-4;
    int r, c, j;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++) {
            for (j = 0; j < n; j++) A[3 * r + c] += J[r * m->nv + dof[j]] * J[c * m->nv + dof[j]];
            if (r == c) A[3 * r + c] += lambda2;
        }
    if (!s2r__solve3(A, e, y)) { memset(dq, 0, (size_t)n * sizeof(double)); return; }
    for (j = 0; j < n; j++) {
        Jy[j] = J[dof[j]] * y[0] + J[m->nv + dof[j]] * y[1] + J[2 * m->nv + dof[j]] * y[2];
        pull[j] = 0.05 * (q_rest[j] - q[j]);
    }
    for (r = 0; r < 3; r++) { Jp[r] = 0; for (j = 0; j < n; j++) Jp[r] += J[r * m->nv + dof[j]] * pull[j]; }
    if (!s2r__solve3(A, Jp, yp)) memset(yp, 0, sizeof yp);
    for (j = 0; j < n; j++)   /* pull minus its component the task space sees */
        dq[j] = Jy[j] + pull[j] - (J[dof[j]] * yp[0] + J[m->nv + dof[j]] * yp[1] + J[2 * m->nv + dof[j]] * yp[2]);
}

S2RDEF double s2r_ik_solve(const s2r_arm_info* info, mjData* scratch, const double target[3],
                           const double* q_start, double* q_out) {
    S2R_ASSERT(info && scratch && target && q_start && q_out);
    const mjModel* m = info->model;
    double J[3 * 64], pos[3], e[3], dq[S2R_MAX_JOINTS], err = 0;
    int dof[S2R_MAX_JOINTS], j, it, n = info->n_joints;
    if (m->nv > 64) return -1;   /* arms only: the Jacobian lives on the stack */
    for (j = 0; j < n; j++) { dof[j] = m->jnt_dofadr[m->actuator_trnid[2 * j]]; q_out[j] = q_start[j]; }
    for (it = 0; it < 100; it++) {
        s2r_flange_fk(m, scratch, info->flange_site, q_out, n, pos);
        for (j = 0; j < 3; j++) e[j] = target[j] - pos[j];
        err = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (err < 1e-5) break;
        mj_comPos(m, scratch);
        mj_jacSite(m, scratch, J, NULL, info->flange_site);
        s2r__ik_step(m, J, dof, n, e, q_out, q_start, dq);
        for (j = 0; j < n; j++)
            q_out[j] = s2r_clamp(q_out[j] + s2r_clamp(dq[j], -0.2, 0.2), info->q_min[j], info->q_max[j]);
    }
    return err;
}

S2RDEF s2r_expert_config s2r_expert_config_default(void) {
    s2r_expert_config c;
    c.gain_cmd = 0.5;
    c.gain_error = 0.1;
    c.action_noise = 0.0;
    c.reaction_steps = 0;
    c.approach_gain = 4.0;
    return c;
}

S2RDEF s2r_result s2r_expert_init(s2r_expert* e, const s2r_expert_config* config,
                                  const s2r_task_config* task, const s2r_arm_info* info) {
    int n;
    S2R_ASSERT(e);
    memset(e, 0, sizeof *e);
    if (!config || !task || !info)
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "s2r_expert_init: config, task or info is NULL");
    if (!(config->action_noise >= 0) || config->reaction_steps < 0 || config->reaction_steps > 7 ||
        !isfinite(config->gain_cmd) || !isfinite(config->gain_error) || !(config->approach_gain > 0) ||
        !isfinite(config->approach_gain))
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "expert: need finite gains (approach_gain > 0), "
                         "action_noise >= 0, reaction_steps 0..7");
    if (task->kind == S2R_TASK_PUSH && info->scene != S2R_SCENE_PUSH)
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "expert: the push task needs an arm with the push scene");
    e->config = *config;
    e->info = info;
    e->task = task->kind;
    n = info->n_joints;
    e->obs_dim = task->kind == S2R_TASK_PUSH ? S2R_PUSH_OBS : 4 * n + 9;
    e->act_dim = task->kind == S2R_TASK_PUSH ? 2 : n;
    e->max_delta = task->reach.max_delta;
    e->max_speed = task->push.max_speed;
    e->success_radius = task->push.success_radius;
    e->scratch = mj_makeData(e->info->model);
    if (!e->scratch) return s2r__fail(e->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed");
    return S2R_OK;
}

S2RDEF void s2r_expert_free(s2r_expert* e) {
    if (!e) return;
    if (e->scratch) mj_deleteData(e->scratch);
    memset(e, 0, sizeof *e);
}

S2RDEF void s2r_expert_reset(s2r_expert* e) {
    S2R_ASSERT(e);
    e->has_goal = 0;
    e->steps = 0;
    memset(e->integral, 0, sizeof e->integral);
    memset(e->pending, 0, sizeof e->pending);
}

/* Reach: the undelayed action for this observation. */
static void s2r__expert_reach_command(s2r_expert* e, const float* obs, const double* target, float* action) {
    int j, n = e->info->n_joints;
    double q[S2R_MAX_JOINTS], t[3];
    for (j = 0; j < n; j++) q[j] = obs[j];
    for (j = 0; j < 3; j++) t[j] = target ? target[j] : obs[3 * n + j];
    if (!e->has_goal || fabs(t[0] - e->goal_target[0]) + fabs(t[1] - e->goal_target[1]) + fabs(t[2] - e->goal_target[2]) > 0.005) {
        e->ik_residual = s2r_ik_solve(e->info, e->scratch, t, q, e->q_goal);
        memcpy(e->goal_target, t, sizeof t);
        e->has_goal = 1;
    }
    for (j = 0; j < n; j++) {
        double q_cmd = obs[2 * n + j] + q[j];
        e->integral[j] = s2r_clamp(e->integral[j] + e->config.gain_error * (e->q_goal[j] - q[j]), -0.1, 0.1);
        action[j] = (float)s2r_clamp(e->config.gain_cmd * (e->q_goal[j] + e->integral[j] - q_cmd) / e->max_delta, -1, 1);
    }
}

/* Push: the undelayed action, from the tip, the object (`seen`, or as
   perceived) and the goal of the observation; the plan is in the banner. */
static void s2r__expert_push_command(s2r_expert* e, const float* obs, const double* seen, float* action) {
    const s2r_arm_info* info = e->info;
    double tip[2], o[2], g[2], u[2], w[2], rel[2], way[2], v[2], d, s, l, side, R = info->object_radius + info->tip_radius;
    int i;
    for (i = 0; i < 2; i++) {
        tip[i] = obs[i];
        o[i] = seen ? seen[i] : obs[4 + i];
        g[i] = seen ? seen[3 + i] : obs[6 + i];
    }
    d = s2r__dist2(g, o);
    action[0] = action[1] = 0.0f;
    if (d < 0.5 * e->success_radius) return;   /* there: stop */
    u[0] = (g[0] - o[0]) / d;
    u[1] = (g[1] - o[1]) / d;
    w[0] = -u[1];
    w[1] = u[0];
    rel[0] = tip[0] - o[0];
    rel[1] = tip[1] - o[1];
    s = rel[0] * u[0] + rel[1] * u[1];
    l = rel[0] * w[0] + rel[1] * w[1];
    side = l >= 0 ? 1.0 : -1.0;
    for (i = 0; i < 2; i++) {
        if (s > -0.5 * R && fabs(l) < R + 0.02)       /* in front: step aside first */
            way[i] = o[i] + side * (R + 0.03) * w[i] + s * u[i];
        else if (s > -0.5 * R)                        /* beside: back along the side */
            way[i] = o[i] + side * (R + 0.03) * w[i] - (R + 0.015) * u[i];
        else if (fabs(l) > 0.02 || s < -R - 0.03)     /* behind: onto the line */
            way[i] = o[i] - (R + 0.015) * u[i];
        else way[i] = NAN;                            /* on the line: push */
    }
    if (isnan(way[0])) {
        double speed = fmin(e->max_speed, 2.0 * d);
        for (i = 0; i < 2; i++) v[i] = speed * u[i] - e->config.approach_gain * l * w[i];
    } else {
        for (i = 0; i < 2; i++) v[i] = e->config.approach_gain * (way[i] - tip[i]);
    }
    for (i = 0; i < 2; i++) action[i] = (float)s2r_clamp(v[i] / e->max_speed, -1, 1);
}

S2RDEF s2r_result s2r_expert_act(s2r_expert* e, const float* obs, const double* seen,
                                 float* action, s2r_rng* rng) {
    S2R_ASSERT(e);
    if (!action)
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "s2r_expert_act: action is NULL");
    int j, n = e->act_dim, k = e->config.reaction_steps;
    float now[S2R_MAX_JOINTS];
    if (!obs || !s2r_all_finite_f(obs, e->obs_dim) || (seen && !s2r_all_finite(seen, e->task == S2R_TASK_PUSH ? 6 : 3)))
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "expert: observation or seen position contains NaN/Inf");
    if (e->config.action_noise > 0 && !rng)
        return s2r__fail(e->error, S2R_ERR_INVALID_ARGUMENT, "expert: action noise needs an rng");
    if (e->task == S2R_TASK_PUSH) s2r__expert_push_command(e, obs, seen, now);
    else s2r__expert_reach_command(e, obs, seen, now);
    for (j = 0; j < n; j++) {
        float a = k > 0 ? e->pending[k - 1][j] : now[j];   /* the oldest pending action goes out */
        if (e->config.action_noise > 0) a += (float)(e->config.action_noise * s2r_rng_normal(rng));
        action[j] = a < -1.0f ? -1.0f : (a > 1.0f ? 1.0f : a);
    }
    if (k > 0) {   /* shift the queue; the first k actions of an episode are zero (not yet reacting) */
        memmove(e->pending[1], e->pending[0], (size_t)(k - 1) * sizeof e->pending[0]);
        memcpy(e->pending[0], now, sizeof now);
    }
    e->steps++;
    return S2R_OK;
}

/* >> section: Learning
   Flow: the building blocks first (MLP forward and backward, the observation
   normalizer, the Gaussian policy, Adam, GAE), then PPO: its setup, then
   one update (s2r_ppo_iterate, the loop: read it first), its helpers,
   diagnostics; then behaviour cloning, checkpoints, the training state
   and the pendulum to test learners on. */

/* --- Learning: small helpers ---------------------------------------------
   Timing and bump allocation shared by the learners. */

/* Wall-clock seconds for steps/s.  Without OpenMP, CPU time (the same for
   this single-threaded code). */
S2RDEF double s2r_seconds(void) {
#ifdef _OPENMP
    return omp_get_wtime();
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

/* Hand out `n` items from a bump cursor over one allocation. */
static float* s2r__take(float** cursor, size_t n) {
    float* p = *cursor;
    *cursor += n;
    return p;
}

/* --- Learning: MLP forward and backward ----------------------------------
   The numerical kernels: orthogonal init, the linear layers with tanh or ReLU,
   and their hand-written gradients.  All training runs through these. */

S2RDEF s2r_result s2r_mlp_layout(s2r_mlp* m, int in, int num_hidden,
                                 const int* hidden, int out, char* error) {
    int l, off = 0, acts = 0;
    S2R_ASSERT(m);
    if (num_hidden < 1 || num_hidden > S2R_MAX_HIDDEN_LAYERS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "MLP needs 1..%d hidden layers, got %d",
                         S2R_MAX_HIDDEN_LAYERS, num_hidden);
    memset(m, 0, sizeof *m);
    if (!hidden)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_mlp_layout: hidden is NULL");
    m->num_layers = num_hidden + 1;
    m->size[0] = in;
    for (l = 0; l < num_hidden; l++) m->size[l + 1] = hidden[l];
    m->size[m->num_layers] = out;
    for (l = 0; l <= m->num_layers; l++)
        if (m->size[l] < 1 || m->size[l] > S2R_MLP_MAX_WIDTH)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                             "MLP layer %d has width %d (allowed 1..%d)", l,
                             m->size[l], S2R_MLP_MAX_WIDTH);
    for (l = 0; l < m->num_layers; l++) {
        m->weight[l] = off;
        off += m->size[l + 1] * m->size[l];
        m->bias[l] = off;
        off += m->size[l + 1];
        if (l + 1 < m->num_layers) {
            m->act_offset[l] = acts;
            acts += m->size[l + 1];
            if (m->size[l + 1] > m->max_hidden) m->max_hidden = m->size[l + 1];
        }
    }
    m->num_params = off;
    m->num_acts = acts;
    return S2R_OK;
}

/* Modified Gram-Schmidt, in place, on `count` Gaussian vectors of length
   `len` (count <= len) stored in W: element i of vector r is
   W[r * vstride + i * estride].  Dot products in double. */
static void s2r__orthonormalize(float* W, int count, int len, int vstride,
                                int estride, s2r_rng* rng) {
    int r, k, i;
    for (r = 0; r < count; r++) {
        float* v = W + (size_t)r * vstride;
        double norm = 0.0;
        while (norm < 1e-6) { /* redraw the (measure-zero) degenerate case */
            for (i = 0; i < len; i++) v[i * estride] = (float)s2r_rng_normal(rng);
            for (k = 0; k < r; k++) {
                const float* u = W + (size_t)k * vstride;
                double dot = 0.0;
                for (i = 0; i < len; i++) dot += (double)u[i * estride] * v[i * estride];
                for (i = 0; i < len; i++) v[i * estride] -= (float)(dot * u[i * estride]);
            }
            norm = 0.0;
            for (i = 0; i < len; i++) norm += (double)v[i * estride] * v[i * estride];
            norm = sqrt(norm);
        }
        for (i = 0; i < len; i++) v[i * estride] = (float)(v[i * estride] / norm);
    }
}

/* W [out][in] = gain * Q with orthonormal rows (out <= in) or orthonormal
   columns (out > in), as torch.nn.init.orthogonal_. */
static void s2r__orthogonal_matrix(float* W, int out, int in, float gain,
                                   s2r_rng* rng) {
    int k;
    if (out <= in) s2r__orthonormalize(W, out, in, in, 1, rng);
    else s2r__orthonormalize(W, in, out, 1, in, rng);
    for (k = 0; k < out * in; k++) W[k] *= gain;
}

S2RDEF void s2r_mlp_init_orthogonal(const s2r_mlp* m, float* params,
                                    float hidden_gain, float out_gain,
                                    s2r_rng* rng) {
    int l;
    S2R_ASSERT(m && params && rng);
    memset(params, 0, sizeof(float) * (size_t)m->num_params);
    for (l = 0; l < m->num_layers; l++) {
        float gain = (l + 1 == m->num_layers) ? out_gain : hidden_gain;
        s2r__orthogonal_matrix(params + m->weight[l], m->size[l + 1],
                               m->size[l], gain, rng);
    }
}

/* Dot product of a [n] and b [n] with four independent partial sums (four
   times faster than one running sum, whose adds wait on each other).  The
   order of operations is fixed, so results are reproducible. */
static float s2r__dot(const float* a, const float* b, int n) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/* y [n] += a * x [n], four at a time with every load before the stores,
   a shape compilers turn into vector instructions even at -O2. */
static void s2r__axpy(float* y, float a, const float* x, int n) {
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        float x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
        float y0 = y[i], y1 = y[i + 1], y2 = y[i + 2], y3 = y[i + 3];
        y[i] = y0 + a * x0;
        y[i + 1] = y1 + a * x1;
        y[i + 2] = y2 + a * x2;
        y[i + 3] = y3 + a * x3;
    }
    for (; i < n; i++) y[i] += a * x[i];
}

/* tanh through one expf, (1 - e^-2|x|) / (1 + e^-2|x|) with the sign of x:
   several times faster than tanhf, absolute error ~1e-7. */
static float s2r__tanh(float x) {
    float t = expf(-2.0f * fabsf(x));
    float y = (1.0f - t) / (1.0f + t);
    return x < 0.0f ? -y : y;
}

/* --- Learning: the batched layer kernel ----------------------------------
   A layer over a batch is three matrix products: y = x W^T + b (forward),
   dW += dy^T x and dx = dy W (backward), x [B][in], y and dy [B][out],
   W [out][in].  Each is computed in tiles of its result whose sums stay in
   registers during one pass over the index they reduce, written so that
   compilers turn them into vector instructions (4 floats wide with SSE2,
   8 with AVX) even at -O2:
     forward    2 samples x 4 outputs, each sum as four partial sums in the
                lanes of one vector: per step of 4 inputs, 8 vector
                multiply-adds (s2r__forward_tile);
     backward   4 rows x 8 columns of dW (rows: outputs, over the
                samples) or of dx (rows: samples, over the outputs): per
                step, 4 values of one operand times a row of 8 of the
                other (s2r__tile_accumulate).
   The operands of a tile are a few rows of at most S2R_MLP_MAX_WIDTH
   floats, read again for the next tile from the L1 cache.

   Bit for bit the same as one sample and one output at a time: vectors
   run across independent sums (outputs, samples, weight elements, and a
   forward sum's four partial sums), never along the index a sum reduces,
   and every sum adds its terms in the order the one-at-a-time code does -
   a forward sum in s2r__dot's four partial sums (input i into partial
   i % 4 in increasing i, the tail into the first, then (s0 + s1) +
   (s2 + s3)), a weight gradient sample after sample onto what it held, an
   input gradient output after output from zero.  Without -ffast-math
   (and with C99's default of no contraction into fused multiply-adds) the
   compiler may not reorder any of it.  Rows and columns that do not fill
   a tile take the one-at-a-time path (s2r__dot, s2r__axpy), which is the
   same arithmetic.  tests/test_learn.c checks a batch against its samples
   one at a time, bit for bit. */

#define S2R__TILE_ROWS 4
#define S2R__TILE_COLS 8

/* acc [4][8] += A(k, r) B(k, c) for k = 0 .. K-1, one k after another,
   with A(k, r) = A[k * ak + r * ar] and B(k, c) = B[k * bk + c]. */
static inline void s2r__tile_accumulate(float acc[S2R__TILE_ROWS][S2R__TILE_COLS], const float* A, size_t ak, size_t ar,
                                        const float* B, size_t bk, int K) {
    float c[S2R__TILE_ROWS][S2R__TILE_COLS];
    int k, r, j;
    for (r = 0; r < S2R__TILE_ROWS; r++)
        for (j = 0; j < S2R__TILE_COLS; j++) c[r][j] = acc[r][j];
    for (k = 0; k < K; k++) {
        const float* a = A + (size_t)k * ak;
        const float* b = B + (size_t)k * bk;
        float a0 = a[0], a1 = a[ar], a2 = a[2 * ar], a3 = a[3 * ar];
        /* unrolled, the 32 sums stay in registers */
#pragma GCC unroll 8
        for (j = 0; j < S2R__TILE_COLS; j++) {
            float bj = b[j];
            c[0][j] += a0 * bj;
            c[1][j] += a1 * bj;
            c[2][j] += a2 * bj;
            c[3][j] += a3 * bj;
        }
    }
    for (r = 0; r < S2R__TILE_ROWS; r++)
        for (j = 0; j < S2R__TILE_COLS; j++) acc[r][j] = c[r][j];
}

/* The layers below may split a batch among `threads` threads (1: the
   calling thread alone), by pairs of samples (forward), tiles of weight
   rows (weight gradient) or of samples (input gradient).  Every sum is computed
   whole by one thread in the order above, so the result is the same bit
   for bit on any number of threads. */

/* One forward tile: y [2 samples from s][4 outputs from o] of
   y = x W^T + b, each sum as s2r__dot forms it: lane j of a 4-wide
   accumulator is its partial sum j (inputs i = j, j + 4, ...), so the
   eight accumulators are eight vectors and each step of 4 inputs is
   eight vector multiply-adds, the weights read in place. */
static void s2r__forward_tile(const float* W, const float* b, const float* x, int s, int o, int in, int out,
                              float* y) {
    float acc[2][4][4];
    const float* xs[2];
    int i, r, c, j, in4 = in - in % 4;
    xs[0] = x + (size_t)s * in;
    xs[1] = xs[0] + in;
    for (r = 0; r < 2; r++)
        for (c = 0; c < 4; c++)
            for (j = 0; j < 4; j++) acc[r][c][j] = 0.0f;
    for (i = 0; i < in4; i += 4) {
        float xv[2][4], wv[4][4];
        for (j = 0; j < 4; j++) { xv[0][j] = xs[0][i + j]; xv[1][j] = xs[1][i + j]; }
        /* unrolled, the 8 accumulators stay in registers */
#pragma GCC unroll 4
        for (c = 0; c < 4; c++)
            for (j = 0; j < 4; j++) wv[c][j] = W[(size_t)(o + c) * in + i + j];
#pragma GCC unroll 2
        for (r = 0; r < 2; r++)
#pragma GCC unroll 4
            for (c = 0; c < 4; c++)
                for (j = 0; j < 4; j++) acc[r][c][j] += wv[c][j] * xv[r][j];
    }
#pragma GCC unroll 2
    for (r = 0; r < 2; r++)
#pragma GCC unroll 4
        for (c = 0; c < 4; c++) {
            const float* w = W + (size_t)(o + c) * in;
            float s0 = acc[r][c][0];
            for (i = in4; i < in; i++) s0 += w[i] * xs[r][i];   /* the tail, into the first */
            y[(size_t)(s + r) * out + o + c] = b[o + c] + ((s0 + acc[r][c][1]) + (acc[r][c][2] + acc[r][c][3]));
        }
}

/* y [B][out] = x [B][in] W^T + b, W [out][in]. */
static void s2r__linear_forward(const float* W, const float* b,
                                const float* x, int B, int in, int out,
                                float* y, int threads) {
    int t, out4 = out - out % 4;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (t = 0; t < (B + 1) / 2; t++) {   /* a pair of samples; the last may be alone */
        int s, o, first = 2 * t, tiled = first + 1 < B ? out4 : 0;
        for (o = 0; o < tiled; o += 4) s2r__forward_tile(W, b, x, first, o, in, out, y);
        for (s = first; s < B && s < first + 2; s++)   /* what the tiles left: one at a time */
            for (o = tiled; o < out; o++)
                y[(size_t)s * out + o] = b[o] + s2r__dot(W + (size_t)o * in, x + (size_t)s * in, in);
    }
    (void)threads;
}

/* Given dy [B][out]: dW [out][in] += dy^T x, db [out] += sum dy (each over
   the samples in order), and if dx is not NULL, dx [B][in] = dy W (each
   over the outputs in order). */
static void s2r__linear_backward(const float* W, const float* x,
                                 const float* dy, int B, int in, int out,
                                 float* dW, float* db, float* dx, int threads) {
    int s, o, t, B4 = B - B % S2R__TILE_ROWS, out4 = out - out % S2R__TILE_ROWS,
        in8 = in - in % S2R__TILE_COLS;
#ifdef _OPENMP
#pragma omp parallel for private(s) num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (o = 0; o < out; o++)
        for (s = 0; s < B; s++) db[o] += dy[(size_t)s * out + o];
#ifdef _OPENMP
#pragma omp parallel for private(s) num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (t = 0; t < out / S2R__TILE_ROWS + out % S2R__TILE_ROWS; t++) {
        int i, r, j, row = t * S2R__TILE_ROWS;
        if (row >= out4) { /* a row the tiles leave: one sample at a time */
            row = out4 + (t - out4 / S2R__TILE_ROWS);
            for (s = 0; s < B; s++)
                s2r__axpy(dW + (size_t)row * in, dy[(size_t)s * out + row], x + (size_t)s * in, in);
            continue;
        }
        for (i = 0; i < in8; i += S2R__TILE_COLS) {
            float acc[S2R__TILE_ROWS][S2R__TILE_COLS];
            for (r = 0; r < S2R__TILE_ROWS; r++)
                for (j = 0; j < S2R__TILE_COLS; j++) acc[r][j] = dW[(size_t)(row + r) * in + i + j];
            s2r__tile_accumulate(acc, dy + row, (size_t)out, 1, x + i, (size_t)in, B);
            for (r = 0; r < S2R__TILE_ROWS; r++)
                for (j = 0; j < S2R__TILE_COLS; j++) dW[(size_t)(row + r) * in + i + j] = acc[r][j];
        }
        for (r = 0; r < S2R__TILE_ROWS; r++)
            for (i = in8; i < in; i++) {
                float w = dW[(size_t)(row + r) * in + i];
                for (s = 0; s < B; s++) w += dy[(size_t)s * out + row + r] * x[(size_t)s * in + i];
                dW[(size_t)(row + r) * in + i] = w;
            }
    }
    if (!dx) return;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (t = 0; t < B4 / S2R__TILE_ROWS + B % S2R__TILE_ROWS; t++) {
        int i, r, j, n, first = t * S2R__TILE_ROWS;
        if (first >= B4) { /* a sample the tiles leave: one output at a time */
            int k = B4 + (t - B4 / S2R__TILE_ROWS);
            const float* g = dy + (size_t)k * out;
            float* d = dx + (size_t)k * in;
            memset(d, 0, sizeof(float) * (size_t)in);
            for (n = 0; n < out; n++) s2r__axpy(d, g[n], W + (size_t)n * in, in);
            continue;
        }
        for (i = 0; i < in8; i += S2R__TILE_COLS) {
            float acc[S2R__TILE_ROWS][S2R__TILE_COLS];
            memset(acc, 0, sizeof acc);
            s2r__tile_accumulate(acc, dy + (size_t)first * out, 1, (size_t)out, W + i, (size_t)in, out);
            for (r = 0; r < S2R__TILE_ROWS; r++)
                for (j = 0; j < S2R__TILE_COLS; j++) dx[(size_t)(first + r) * in + i + j] = acc[r][j];
        }
        for (r = 0; r < S2R__TILE_ROWS; r++)
            for (i = in8; i < in; i++) {
                float d = 0.0f;
                for (n = 0; n < out; n++) d += dy[(size_t)(first + r) * out + n] * W[(size_t)n * in + i];
                dx[(size_t)(first + r) * in + i] = d;
            }
    }
    (void)threads;
}

static void s2r__mlp_forward_threads(const s2r_mlp* m, const float* params, const float* x, int B, float* acts,
                                     float* out, int threads) {
    const float* in = x;
    int l, k;
    for (l = 0; l < m->num_layers; l++) {
        int hidden = l + 1 < m->num_layers, n = m->size[l + 1];
        float* y = hidden ? acts + (size_t)B * m->act_offset[l] : out;
        s2r__linear_forward(params + m->weight[l], params + m->bias[l], in, B,
                            m->size[l], n, y, threads);
        if (hidden && m->activation == S2R_ACTIVATION_RELU)
            for (k = 0; k < B * n; k++) y[k] = y[k] > 0.0f ? y[k] : 0.0f;
        else if (hidden)
            for (k = 0; k < B * n; k++) y[k] = s2r__tanh(y[k]);
        in = y;
    }
}

static void s2r__mlp_backward_threads(const s2r_mlp* m, const float* params, const float* x, const float* acts,
                                      const float* dout, int B, float* grads, float* scratch, int threads) {
    const float* dy = dout;
    int l, k;
    for (l = m->num_layers - 1; l >= 0; l--) {
        const float* in = l ? acts + (size_t)B * m->act_offset[l - 1] : x;
        float* dx = l ? scratch + (size_t)(l % 2) * B * m->max_hidden : NULL;
        s2r__linear_backward(params + m->weight[l], in, dy, B, m->size[l],
                             m->size[l + 1], grads + m->weight[l],
                             grads + m->bias[l], dx, threads);
        if (dx && m->activation == S2R_ACTIVATION_RELU) /* d pre = d post where post > 0, else 0 */
            for (k = 0; k < B * m->size[l]; k++) dx[k] = in[k] > 0.0f ? dx[k] : 0.0f;
        else if (dx) /* through tanh: d pre = d post * (1 - post^2) */
            for (k = 0; k < B * m->size[l]; k++) dx[k] *= 1.0f - in[k] * in[k];
        dy = dx;
    }
}

S2RDEF void s2r_mlp_forward(const s2r_mlp* m, const float* params,
                            const float* x, int B, float* acts, float* out) {
    S2R_ASSERT(m && params && x && acts && out);
    s2r__mlp_forward_threads(m, params, x, B, acts, out, 1);
}

S2RDEF void s2r_mlp_backward(const s2r_mlp* m, const float* params,
                             const float* x, const float* acts,
                             const float* dout, int B, float* grads,
                             float* scratch) {
    S2R_ASSERT(m && params && x && acts && dout && grads && scratch);
    s2r__mlp_backward_threads(m, params, x, acts, dout, B, grads, scratch, 1);
}

/* --- Learning: observation normalizer ------------------------------------
   Running mean/variance of observations; what the policy sees. */

static s2r_result s2r__normalizer_init(s2r_normalizer* n, int dim, double clip,
                                       char* error) {
    int i;
    memset(n, 0, sizeof *n);
    n->mean = (double*)s2r__calloc(2 * (size_t)dim, sizeof(double));
    if (!n->mean)
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    n->var = n->mean + dim;
    n->dim = dim;
    n->count = 1e-4;
    n->clip = clip;
    for (i = 0; i < dim; i++) n->var[i] = 1.0;
    return S2R_OK;
}

static void s2r__normalizer_free(s2r_normalizer* n) {
    S2R_FREE(n->mean);
    memset(n, 0, sizeof *n);
}

/* Merge a batch x [count][dim] (rows `stride` floats apart) into the running
   statistics: Chan et al.'s parallel update, dimension by dimension. */
static void s2r__normalizer_update(s2r_normalizer* n, const float* x,
                                   int count, int stride) {
    double total = n->count + count;
    int d, s;
    for (d = 0; d < n->dim; d++) {
        double bm = 0.0, bv = 0.0, delta;
        for (s = 0; s < count; s++) bm += x[(size_t)s * stride + d];
        bm /= count;
        for (s = 0; s < count; s++) {
            double e = x[(size_t)s * stride + d] - bm;
            bv += e * e;
        }
        bv /= count;
        delta = bm - n->mean[d];
        n->mean[d] += delta * count / total;
        n->var[d] = (n->var[d] * n->count + bv * count +
                     delta * delta * n->count * count / total) / total;
    }
    n->count = total;
}

/* out [dim] = clip((x - mean) / sqrt(var + 1e-8)). */
static void s2r__normalizer_apply(const s2r_normalizer* n, const float* x,
                                  float* out) {
    int d;
    for (d = 0; d < n->dim; d++) {
        double z = (x[d] - n->mean[d]) / sqrt(n->var[d] + 1e-8);
        out[d] = (float)s2r_clamp(z, -n->clip, n->clip);
    }
}

/* --- Learning: policy -----------------------------------------------------
   Acting: normalize, run the actor, take the mean or sample; evaluation. */

static s2r_result s2r__shape_layouts(const s2r_policy_shape* s, s2r_mlp* actor,
                                     s2r_mlp* critic, char* error) {
    s2r_result r = s2r_mlp_layout(actor, s->obs_dim, s->num_hidden, s->hidden,
                                  s->act_dim, error);
    if (r != S2R_OK) return r;
    if ((unsigned)s->actor_activation >= S2R_ACTIVATION_COUNT || (unsigned)s->critic_activation >= S2R_ACTIVATION_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "activation codes %d (actor) and %d (critic): the library has "
                         "0 (tanh) and 1 (ReLU)", (int)s->actor_activation, (int)s->critic_activation);
    actor->activation = s->actor_activation;
    if (s->privileged < 0 || s->privileged > S2R_MLP_MAX_WIDTH - s->obs_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "privileged inputs must be 0..%d (the critic's input is "
                         "at most %d wide), got %d", S2R_MLP_MAX_WIDTH - s->obs_dim, S2R_MLP_MAX_WIDTH, s->privileged);
    r = s2r_mlp_layout(critic, s->obs_dim + s->privileged, s->num_hidden, s->hidden, 1, error);
    critic->activation = s->critic_activation;
    return r;
}

S2RDEF s2r_result s2r_policy_init(s2r_policy* p, const s2r_policy_shape* shape,
                                  float init_log_std, float obs_clip,
                                  s2r_rng* rng) {
    s2r_result r;
    int a;
    S2R_ASSERT(p);
    memset(p, 0, sizeof *p);
    if (!shape || !rng)
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "s2r_policy_init: shape or rng is NULL");
    r = s2r__shape_layouts(shape, &p->actor, &p->critic, p->error);
    if (r != S2R_OK) return r;
    if (!isfinite(init_log_std) || !(obs_clip > 0.0f) || !isfinite(obs_clip))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "init_log_std must be finite and obs_clip > 0");
    p->shape = *shape;
    p->num_actor_params = p->actor.num_params + shape->act_dim;
    p->num_params = p->num_actor_params + p->critic.num_params;
    p->params = (float*)s2r__calloc((size_t)p->num_params, sizeof(float));
    if (!p->params)
        return s2r__fail(p->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    p->log_std = p->params + p->actor.num_params;
    p->critic_params = p->params + p->num_actor_params;
    r = s2r__normalizer_init(&p->norm, shape->obs_dim, obs_clip, p->error);
    if (r != S2R_OK) { s2r_policy_free(p); return r; }
    s2r_mlp_init_orthogonal(&p->actor, p->params, (float)sqrt(2.0), 0.01f, rng);
    s2r_mlp_init_orthogonal(&p->critic, p->critic_params, (float)sqrt(2.0),
                            1.0f, rng);
    for (a = 0; a < shape->act_dim; a++) p->log_std[a] = init_log_std;
    return S2R_OK;
}

S2RDEF void s2r_policy_free(s2r_policy* p) {
    if (!p) return;
    S2R_FREE(p->params);
    s2r__normalizer_free(&p->norm);
    p->params = p->log_std = p->critic_params = NULL;
}

/* log N(action; mean, exp(log_std)^2), summed over act_dim dimensions. */
static float s2r__gaussian_logp(const float* mean, const float* log_std,
                                const float* action, int act_dim) {
    double lp = 0.0;
    int a;
    for (a = 0; a < act_dim; a++) {
        double z = (action[a] - mean[a]) / exp((double)log_std[a]);
        lp += -0.5 * z * z - log_std[a] - 0.9189385332046727; /* log sqrt(2pi) */
    }
    return (float)lp;
}

/* Entropy of the Gaussian (nats), summed over dimensions. */
static double s2r__gaussian_entropy(const float* log_std, int act_dim) {
    double h = 0.0;
    int a;
    for (a = 0; a < act_dim; a++) h += log_std[a] + 1.4189385332046727;
    return h;
}

/* Actor and critic on one normalized observation (and the critic's
   privileged inputs priv [shape.privileged], unused by the actor), with
   stack scratch (no allocation, safe to call from several threads).
   value may be NULL. */
static void s2r__policy_forward_one(const s2r_policy* p, const float* nobs, const float* priv,
                                    float* mean, float* value) {
    float acts[S2R_MAX_HIDDEN_LAYERS * S2R_MLP_MAX_WIDTH], in[S2R_MLP_MAX_WIDTH];
    const float* critic_in = nobs;
    s2r_mlp_forward(&p->actor, p->params, nobs, 1, acts, mean);
    if (!value) return;
    if (p->shape.privileged > 0) {
        memcpy(in, nobs, sizeof(float) * (size_t)p->shape.obs_dim);
        memcpy(in + p->shape.obs_dim, priv, sizeof(float) * (size_t)p->shape.privileged);
        critic_in = in;
    }
    s2r_mlp_forward(&p->critic, p->critic_params, critic_in, 1, acts, value);
}

/* action = mean + std * eps, eps ~ N(0, 1) from rng. */
static void s2r__sample_action(const s2r_policy* p, const float* mean,
                               s2r_rng* rng, float* action) {
    int a;
    for (a = 0; a < p->shape.act_dim; a++)
        action[a] = mean[a] + (float)exp((double)p->log_std[a]) *
                                  (float)s2r_rng_normal(rng);
}

static void s2r__clip_action(const float* in, float* out, int act_dim) {
    int a;
    for (a = 0; a < act_dim; a++) out[a] = (float)s2r_clamp(in[a], -1.0, 1.0);
}

S2RDEF s2r_result s2r_policy_act(s2r_policy* p, const float* obs,
                                 float* action, int deterministic,
                                 s2r_rng* rng) {
    float nobs[S2R_MLP_MAX_WIDTH], mean[S2R_MLP_MAX_WIDTH];
    float sample[S2R_MLP_MAX_WIDTH];
    S2R_ASSERT(p && p->params);
    if (!obs || !action) return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "policy act: obs or action is NULL");
    if (!s2r_all_finite_f(obs, p->shape.obs_dim))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "observation contains NaN or Inf");
    if (!deterministic && !rng)
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "a stochastic action needs an rng");
    s2r__normalizer_apply(&p->norm, obs, nobs);
    s2r__policy_forward_one(p, nobs, NULL, mean, NULL);
    if (deterministic) memcpy(sample, mean, sizeof(float) * (size_t)p->shape.act_dim);
    else s2r__sample_action(p, mean, rng, sample);
    if (!s2r_all_finite_f(sample, p->shape.act_dim))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "policy produced a non-finite action (corrupt parameters?)");
    s2r__clip_action(sample, action, p->shape.act_dim);
    return S2R_OK;
}

static s2r_result s2r__check_env(const s2r_env* env, const s2r_policy_shape* s,
                                 char* error) {
    if (!env->reset || !env->step)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "environment has no reset/step function");
    if (env->obs_dim != s->obs_dim || env->act_dim != s->act_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "environment is obs %d act %d, policy obs %d act %d",
                         env->obs_dim, env->act_dim, s->obs_dim, s->act_dim);
    return S2R_OK;
}

/* One episode with s2r_policy_act; adds to the sums in *out. */
static s2r_result s2r__policy_episode(s2r_policy* p, s2r_env* env,
                                        int deterministic, s2r_rng* rng,
                                        s2r_env_eval* out) {
    float obs[S2R_MLP_MAX_WIDTH], act[S2R_MLP_MAX_WIDTH];
    s2r_step_result sr;
    s2r_result r = env->reset(env->self, rng, obs);
    memset(&sr, 0, sizeof sr);
    while (r == S2R_OK && !sr.done) {
        r = s2r_policy_act(p, obs, act, deterministic, rng);
        if (r == S2R_OK) r = env->step(env->self, act, obs, &sr);
        if (r == S2R_OK) { out->mean_return += sr.reward; out->mean_length += 1; }
    }
    if (r != S2R_OK)
        return p->error[0] ? r : s2r__fail(p->error, r, "environment failed: %s",
                                           s2r_result_string(r));
    out->success_rate += sr.success ? 1.0 : 0.0;
    out->episodes++;
    return S2R_OK;
}

S2RDEF s2r_result s2r_policy_evaluate(s2r_policy* p, s2r_env* env,
                                      int episodes, int deterministic,
                                      s2r_rng* rng, s2r_env_eval* out) {
    S2R_ASSERT(p);
    if (!env || !rng || !out)
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "s2r_policy_evaluate: env, rng or out is NULL");
    s2r_result r;
    int e;
    memset(out, 0, sizeof *out);
    p->error[0] = '\0';
    r = s2r__check_env(env, &p->shape, p->error);
    if (r != S2R_OK) return r;
    if (episodes < 1)
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "episodes must be >= 1, got %d", episodes);
    for (e = 0; e < episodes; e++) {
        r = s2r__policy_episode(p, env, deterministic, rng, out);
        if (r != S2R_OK) return r;
    }
    out->mean_return /= episodes;
    out->mean_length /= episodes;
    out->success_rate /= episodes;
    return S2R_OK;
}

/* --- Learning: Adam -------------------------------------------------------
   The optimizer and global gradient-norm clipping. */

S2RDEF s2r_result s2r_adam_init(s2r_adam* a, int n, char* error) {
    S2R_ASSERT(a);
    memset(a, 0, sizeof *a);
    if (n < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "Adam needs n >= 1 parameters, got %d", n);
    a->grad = (float*)s2r__calloc((size_t)n, sizeof(float));
    a->moments = (float*)s2r__calloc(2 * (size_t)n, sizeof(float));
    if (!a->grad || !a->moments) {
        s2r_adam_free(a);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    }
    a->n = n;
    a->beta1 = 0.9f;
    a->beta2 = 0.999f;
    a->eps = 1e-5f;
    return S2R_OK;
}

S2RDEF void s2r_adam_free(s2r_adam* a) {
    if (!a) return;
    S2R_FREE(a->grad);
    S2R_FREE(a->moments);
    a->grad = a->moments = NULL;
}

S2RDEF double s2r_adam_clip_grad(s2r_adam* a, double max_norm) {
    double sq = 0.0, norm;
    int i;
    S2R_ASSERT(a);
    for (i = 0; i < a->n; i++) sq += (double)a->grad[i] * a->grad[i];
    norm = sqrt(sq);
    if (max_norm > 0.0 && isfinite(norm) && norm > max_norm) {
        float scale = (float)(max_norm / (norm + 1e-6)); /* as PyTorch */
        for (i = 0; i < a->n; i++) a->grad[i] *= scale;
    }
    return norm;
}

S2RDEF void s2r_adam_step(s2r_adam* a, float* params, float lr) {
    S2R_ASSERT(a && params);
    float* m = a->moments;     /* [n] first moment  */
    float* v = a->moments + a->n; /* [n] second moment */
    double bc1, bc2;
    float step, sqrt_bc2;
    int i;
    a->t++;
    bc1 = 1.0 - pow(a->beta1, (double)a->t);
    bc2 = 1.0 - pow(a->beta2, (double)a->t);
    step = (float)(lr / bc1);
    sqrt_bc2 = (float)sqrt(bc2);
    for (i = 0; i < a->n; i++) {
        float g = a->grad[i];
        m[i] = a->beta1 * m[i] + (1.0f - a->beta1) * g;
        v[i] = a->beta2 * v[i] + (1.0f - a->beta2) * g * g;
        params[i] -= step * m[i] / (sqrtf(v[i]) / sqrt_bc2 + a->eps);
    }
}

/* --- Learning: generalized advantage estimation --------------------------
   Advantages from a rollout, cut at episode ends, bootstrapped on
   truncation. */

/* >> exercise ppo: advantages and the clipped objective (course/3_ppo) */
#ifndef S2R_EXERCISE_PPO
/* >> solution ppo begin */
S2RDEF void s2r_gae(int T, int N, const float* rewards, const float* values,
                    const unsigned char* done, const float* end_value,
                    const float* last_value, float gamma, float lambda,
                    float* advantages, float* returns) {
    int t, n;
    S2R_ASSERT(rewards && values && done && last_value && advantages && returns);
    for (n = 0; n < N; n++) {
        float next_adv = 0.0f;
        for (t = T - 1; t >= 0; t--) {
            int k = t * N + n;
            float next_value, delta;
            if (done[k]) { /* the episode ended here: cut the chain */
                next_value = end_value[k];
                next_adv = 0.0f;
            } else {
                next_value = (t == T - 1) ? last_value[n] : values[k + N];
            }
            delta = rewards[k] + gamma * next_value - values[k];
            advantages[k] = next_adv = delta + gamma * lambda * next_adv;
            returns[k] = advantages[k] + values[k];
        }
    }
}

S2RDEF double s2r_ppo_clipped_loss(double logratio, double advantage, double clip, double* dloss_dlogp) {
    double ratio = exp(logratio), clipped = s2r_clamp(ratio, 1.0 - clip, 1.0 + clip);
    double unclipped_loss = -advantage * ratio, clipped_loss = -advantage * clipped;
    S2R_ASSERT(dloss_dlogp);
    *dloss_dlogp = unclipped_loss >= clipped_loss ? -advantage * ratio : 0.0;
    return fmax(unclipped_loss, clipped_loss);
}
/* >> solution ppo end */
#endif /* S2R_EXERCISE_PPO */

/* --- Learning: PPO setup --------------------------------------------------
   Config defaults and validation, buffer allocation, RNG streams. */

S2RDEF s2r_ppo_config s2r_ppo_config_default(void) {
    s2r_ppo_config c;
    memset(&c, 0, sizeof c);
    c.total_steps = 1000000;
    c.num_envs = 1;
    c.rollout_steps = 2048;
    c.num_minibatches = 32;
    c.update_epochs = 10;
    c.learning_rate = 3e-4f;
    c.anneal_lr = 1;
    c.gamma = 0.99f;
    c.gae_lambda = 0.95f;
    c.clip_coef = 0.2f;
    c.clip_value_loss = 1;
    c.value_coef = 0.5f;
    c.entropy_coef = 0.0f;
    c.max_grad_norm = 0.5f;
    c.target_kl = 0.0f;
    c.normalize_advantages = 1;
    c.normalize_rewards = 1;
    c.reward_clip = 10.0f;
    c.obs_clip = 10.0f;
    c.num_hidden = 2;
    c.hidden[0] = 64;
    c.hidden[1] = 64;
    c.init_log_std = 0.0f;
    c.seed = 1;
    c.num_threads = 1;
    c.actor_activation = c.critic_activation = S2R_ACTIVATION_TANH;
    c.adam_eps = 1e-5f;
    c.time_limit_terminal = 0;
    return c;
}

/* 1 if x is a finite number in [lo, hi]. */
static int s2r__in_range(double x, double lo, double hi) {
    return isfinite(x) && x >= lo && x <= hi;
}

static s2r_result s2r__ppo_check_config(const s2r_ppo_config* c, char* err) {
    const s2r_result bad = S2R_ERR_INVALID_ARGUMENT;
    if (c->num_envs < 1 || c->rollout_steps < 1 || c->num_minibatches < 1 ||
        c->update_epochs < 1 || c->num_threads < 0)
        return s2r__fail(err, bad, "num_envs, rollout_steps, num_minibatches "
                         "and update_epochs must be >= 1, num_threads >= 0");
    if (c->rollout_steps % c->num_envs)
        return s2r__fail(err, bad, "rollout_steps %d is not divisible by "
                         "num_envs %d", c->rollout_steps, c->num_envs);
    if (c->rollout_steps % c->num_minibatches)
        return s2r__fail(err, bad, "rollout_steps %d is not divisible by "
                         "num_minibatches %d", c->rollout_steps, c->num_minibatches);
    if (c->total_steps < c->rollout_steps)
        return s2r__fail(err, bad, "total_steps %lld is less than one rollout "
                         "(%d)", c->total_steps, c->rollout_steps);
    if (c->total_steps / c->rollout_steps > 1000000000LL)
        return s2r__fail(err, bad, "total_steps %lld is more than 1e9 rollouts of %d", c->total_steps, c->rollout_steps);
    if (!s2r__in_range(c->learning_rate, 1e-12, 1.0) ||
        !s2r__in_range(c->gamma, 0, 1) || !s2r__in_range(c->gae_lambda, 0, 1) ||
        !s2r__in_range(c->clip_coef, 1e-6, 10) ||
        !s2r__in_range(c->value_coef, 0, 1e6) ||
        !s2r__in_range(c->entropy_coef, 0, 1e6) ||
        !s2r__in_range(c->max_grad_norm, 0, 1e12) ||
        !s2r__in_range(c->target_kl, 0, 1e12) ||
        !s2r__in_range(c->reward_clip, 1e-6, 1e12))
        return s2r__fail(err, bad, "a PPO coefficient is NaN or out of range "
                         "(lr in (0,1], gamma and lambda in [0,1], clip > 0, "
                         "coefficients >= 0)");
    if (c->privileged_dim < 0 || c->privileged_dim > S2R_MLP_MAX_WIDTH)
        return s2r__fail(err, bad, "privileged_dim must be 0..%d, got %d", S2R_MLP_MAX_WIDTH, c->privileged_dim);
    if (!s2r__in_range(c->adam_eps, 1e-30, 1))
        return s2r__fail(err, bad, "adam_eps must be in (0, 1], got %g", c->adam_eps);
    if (c->time_limit_terminal != 0 && c->time_limit_terminal != 1)
        return s2r__fail(err, bad, "time_limit_terminal must be 0 or 1, got %d", c->time_limit_terminal);
    return S2R_OK;
}

static void s2r__ppo_layout_rollout(s2r_ppo* p, float* block) {
    size_t TN = (size_t)p->batch_size;
    float* c = block;
    p->obs = s2r__take(&c, TN * p->obs_dim);
    p->actions = s2r__take(&c, TN * p->act_dim);
    p->logprobs = s2r__take(&c, TN);
    p->rewards = s2r__take(&c, TN);
    p->values = s2r__take(&c, TN);
    p->end_values = s2r__take(&c, TN);
    p->advantages = s2r__take(&c, TN);
    p->returns = s2r__take(&c, TN);
    p->last_values = s2r__take(&c, (size_t)p->num_envs);
    p->priv = s2r__take(&c, TN * p->cfg.privileged_dim);
}

static void s2r__ppo_layout_work(s2r_ppo* p, float* block) {
    size_t M = (size_t)p->minibatch_size;
    const s2r_policy* pol = &p->policy;
    int wide = pol->actor.max_hidden;
    float* c = block;
    p->mb_obs = s2r__take(&c, M * p->obs_dim);
    p->mb_critic = p->cfg.privileged_dim ? s2r__take(&c, M * (size_t)(p->obs_dim + p->cfg.privileged_dim)) : p->mb_obs;
    p->mb_adv = s2r__take(&c, M);
    p->actor_acts = s2r__take(&c, M * pol->actor.num_acts);
    p->critic_acts = s2r__take(&c, M * pol->critic.num_acts);
    p->mean = s2r__take(&c, M * p->act_dim);
    p->dmean = s2r__take(&c, M * p->act_dim);
    p->value = s2r__take(&c, M);
    p->dvalue = s2r__take(&c, M);
    p->back = s2r__take(&c, 2 * M * (size_t)wide);
    p->back_critic = s2r__take(&c, 2 * M * (size_t)wide);
}

/* Env e's lane. */
static s2r_ppo_lane* s2r__ppo_lane(const s2r_ppo* p, int e) {
    return (s2r_ppo_lane*)(p->lanes + (size_t)e * p->lane_stride);
}

/* Allocate the three float blocks, the lanes and the per-env arrays. */
static s2r_result s2r__ppo_alloc(s2r_ppo* p) {
    size_t TN = (size_t)p->batch_size, N = (size_t)p->num_envs;
    size_t M = (size_t)p->minibatch_size, P = (size_t)p->cfg.privileged_dim;
    size_t roll = TN * (p->obs_dim + p->act_dim + 6 + P) + N;
    size_t work = M * (p->obs_dim + 2 * p->act_dim + 3 +
                       p->policy.actor.num_acts + p->policy.critic.num_acts +
                       4 * (size_t)p->policy.actor.max_hidden) +
                  (P ? M * (p->obs_dim + P) : 0);
    p->rollout = (float*)s2r__calloc(roll, sizeof(float));
    p->work = (float*)s2r__calloc(work, sizeof(float));
    size_t lane_floats = p->act_dim + 2 * (size_t)p->obs_dim + 2 * P;
    int e;
    p->env_block = (float*)s2r__calloc(2 * N * p->obs_dim, sizeof(float));
    p->dones = (unsigned char*)s2r__calloc(TN, 1);
    p->perm = (int*)s2r__calloc(TN, sizeof(int));
    p->lanes = (unsigned char*)s2r__calloc_lines(N, sizeof(s2r_ppo_lane) + sizeof(float) * lane_floats,
                                                 &p->lane_stride, &p->lane_block);
    p->episode_return = (double*)s2r__calloc(2 * N, sizeof(double));
    if (!p->rollout || !p->work || !p->env_block || !p->dones || !p->perm || !p->lanes || !p->episode_return)
        return s2r__fail(p->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    s2r__ppo_layout_rollout(p, p->rollout);
    s2r__ppo_layout_work(p, p->work);
    p->next_obs = p->env_block;
    p->raw_obs = p->env_block + N * p->obs_dim;
    for (e = 0; e < p->num_envs; e++) {   /* each lane's floats follow its struct */
        s2r_ppo_lane* l = s2r__ppo_lane(p, e);
        float* f = (float*)(l + 1);
        l->action = s2r__take(&f, p->act_dim);
        l->raw_obs = s2r__take(&f, p->obs_dim);
        l->final_obs = s2r__take(&f, p->obs_dim);
        l->priv = s2r__take(&f, P);
        l->final_priv = s2r__take(&f, P);
    }
    p->discounted = p->episode_return + N;
    return s2r__normalizer_init(&p->reward_norm, 1, p->cfg.reward_clip, p->error);
}

/* RNG streams of a run, all from cfg.seed: 0 init, 1 shuffles, then two per
   environment (resets, action noise). */
static void s2r__ppo_seed(s2r_ppo* p) {
    int e;
    p->rng = s2r_rng_make(p->cfg.seed, 1);
    for (e = 0; e < p->num_envs; e++) {
        s2r__ppo_lane(p, e)->env_rng = s2r_rng_make(p->cfg.seed, 2 + 2 * (uint64_t)e);
        s2r__ppo_lane(p, e)->act_rng = s2r_rng_make(p->cfg.seed, 3 + 2 * (uint64_t)e);
    }
}

S2RDEF s2r_result s2r_ppo_init(s2r_ppo* ppo, const s2r_ppo_config* cfg,
                               int obs_dim, int act_dim) {
    s2r_policy_shape shape;
    s2r_rng init_rng;
    s2r_result r;
    S2R_ASSERT(ppo);
    memset(ppo, 0, sizeof *ppo);
    if (!cfg)
        return s2r__fail(ppo->error, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_init: cfg is NULL");
    r = s2r__ppo_check_config(cfg, ppo->error);
    if (r != S2R_OK) return r;
    ppo->cfg = *cfg;
    ppo->obs_dim = obs_dim;
    ppo->act_dim = act_dim;
    ppo->num_envs = cfg->num_envs;
    ppo->batch_size = cfg->rollout_steps;
    ppo->steps_per_env = cfg->rollout_steps / cfg->num_envs;
    ppo->minibatch_size = cfg->rollout_steps / cfg->num_minibatches;
    ppo->num_updates = (int)(cfg->total_steps / cfg->rollout_steps);
    shape.obs_dim = obs_dim;
    shape.act_dim = act_dim;
    shape.num_hidden = cfg->num_hidden;
    memcpy(shape.hidden, cfg->hidden, sizeof shape.hidden);
    shape.privileged = cfg->privileged_dim;
    shape.actor_activation = cfg->actor_activation;
    shape.critic_activation = cfg->critic_activation;
    init_rng = s2r_rng_make(cfg->seed, 0);
    r = s2r_policy_init(&ppo->policy, &shape, cfg->init_log_std, cfg->obs_clip,
                        &init_rng);
    if (r != S2R_OK) {
        memcpy(ppo->error, ppo->policy.error, S2R_ERROR_LEN);
        return r;
    }
    r = s2r_adam_init(&ppo->adam, ppo->policy.num_params, ppo->error);
    ppo->adam.eps = cfg->adam_eps;
    if (r == S2R_OK) r = s2r__ppo_alloc(ppo);
    if (r != S2R_OK) { s2r_ppo_free(ppo); return r; }
    s2r__ppo_seed(ppo);
    return S2R_OK;
}

S2RDEF void s2r_ppo_free(s2r_ppo* ppo) {
    if (!ppo) return;
    s2r_policy_free(&ppo->policy);
    s2r_adam_free(&ppo->adam);
    s2r__normalizer_free(&ppo->reward_norm);
    S2R_FREE(ppo->rollout);
    S2R_FREE(ppo->work);
    S2R_FREE(ppo->env_block);
    S2R_FREE(ppo->dones);
    S2R_FREE(ppo->perm);
    S2R_FREE(ppo->lane_block);
    S2R_FREE(ppo->episode_return);
    ppo->rollout = ppo->work = ppo->env_block = NULL;
    ppo->dones = NULL;
    ppo->perm = NULL;
    ppo->lanes = NULL;
    ppo->lane_block = NULL;
    ppo->episode_return = ppo->discounted = NULL;
}

/* --- Learning: one PPO update --------------------------------------------
   The flow, as CleanRL's loop (ppo_continuous_action.py): s2r_ppo_iterate
   anneals the learning rate, collects a rollout from every environment
   (s2r__ppo_collect: act, step, record, then the advantages by GAE),
   updates (s2r__ppo_update: for each epoch shuffle the batch and, for each
   minibatch, gather it, run the actor and the critic forward, the clipped
   policy loss, the value loss and the entropy, backward, clip the
   gradient, an Adam step; stop early on the target KL), then fills in the
   statistics.  Read s2r_ppo_iterate first: the pieces follow in the order
   it calls them, then the helpers that hold the threads, the lanes (one
   per environment), the privileged critic and the NaN guards. */

/* Sums over one minibatch, turned into means by the caller. */
typedef struct s2r__ppo_terms {
    double policy_loss, value_loss, entropy, approx_kl, clip_fraction;
    double max_ratio_dev;  /* max |ratio - 1|: 0 on an update's first minibatch */
    double total;          /* the loss of minibatch means: policy - c_ent * entropy + c_v * value */
} s2r__ppo_terms;

static s2r_result     s2r__ppo_collect(s2r_ppo* p, s2r_env* envs);
static void           s2r__ppo_update(s2r_ppo* p, float lr, s2r_ppo_stats* st);
static void           s2r__ppo_fill_stats(const s2r_ppo* p, float lr, double seconds, s2r_ppo_stats* st);

S2RDEF s2r_result s2r_ppo_train(s2r_ppo* ppo, s2r_env* envs,
                                s2r_ppo_callback callback, void* user) {
    S2R_ASSERT(ppo);
    if (!envs)
        return s2r__fail(ppo->error, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_train: envs is NULL");
    while (ppo->update < ppo->num_updates) {
        s2r_ppo_stats st;
        s2r_result r = s2r_ppo_iterate(ppo, envs, &st);
        if (r != S2R_OK) return r;
        if (callback && callback(&st, user)) break;
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_ppo_iterate(s2r_ppo* ppo, s2r_env* envs,
                                  s2r_ppo_stats* stats) {
    S2R_ASSERT(ppo);
    if (!envs)
        return s2r__fail(ppo->error, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_iterate: envs is NULL");
    s2r_ppo_stats st;
    double t0 = s2r_seconds();
    float lr = ppo->cfg.learning_rate;
    s2r_result r;
    memset(&st, 0, sizeof st);
    if (ppo->update >= ppo->num_updates)
        return s2r__fail(ppo->error, S2R_ERR_STATE, "all %d planned updates are "
                         "done (raise total_steps)", ppo->num_updates);
    if (ppo->cfg.anneal_lr)  /* CleanRL: frac = 1 - (iteration - 1) / num */
        lr *= 1.0f - (float)ppo->update / (float)ppo->num_updates;
    r = s2r__ppo_collect(ppo, envs);   /* the rollout and its advantages */
    if (r != S2R_OK) return r;
    s2r__ppo_update(ppo, lr, &st);     /* epochs of shuffled minibatches */
    ppo->update++;
    s2r__ppo_fill_stats(ppo, lr, s2r_seconds() - t0, &st);
    if (stats) *stats = st;
    return S2R_OK;
}

/* The rollout's pieces: every env stepped in parallel (each touching only
   its own lane), then the bookkeeping serially in env order. */
static s2r_result s2r__ppo_reset_all(s2r_ppo* p, s2r_env* envs);
static s2r_result s2r__ppo_act_and_step(s2r_ppo* p, s2r_env* envs, int t);
static void       s2r__ppo_record(s2r_ppo* p, int t);
static void       s2r__ppo_observe(s2r_ppo* p, int update);
static void       s2r__ppo_last_values(s2r_ppo* p);
#ifdef _OPENMP
static int        s2r__ppo_threads(const s2r_ppo* p);
#endif
static void       s2r__ppo_step_env(s2r_ppo* p, s2r_env* env, int e);
static s2r_result s2r__ppo_check_step(s2r_ppo* p, int e);
static s2r_result s2r__ppo_privileged(const s2r_ppo* p, const s2r_env* env, float* out);
static float      s2r__ppo_scale_reward(s2r_ppo* p, int e, float reward, int done);

/* Collect steps_per_env steps from every env (act, step, record), then the
   advantages and returns by GAE.  After a failure the next collection
   starts by resetting every env. */
static s2r_result s2r__ppo_collect(s2r_ppo* p, s2r_env* envs) {
    s2r_result r;
    int t;
    p->episodes = p->successes = p->diverged = 0;
    p->return_sum = 0.0;
    if (!p->started && (r = s2r__ppo_reset_all(p, envs)) != S2R_OK) return r;
    for (t = 0; t < p->steps_per_env; t++) {
        r = s2r__ppo_act_and_step(p, envs, t);
        if (r != S2R_OK) { p->started = 0; return r; }
        s2r__ppo_record(p, t);   /* bootstrap values use the stats so far */
        s2r__ppo_observe(p, 1);
    }
    p->global_step += p->batch_size;
    s2r__ppo_last_values(p);
    s2r_gae(p->steps_per_env, p->num_envs, p->rewards, p->values, p->dones,
            p->end_values, p->last_values, p->cfg.gamma, p->cfg.gae_lambda,
            p->advantages, p->returns);
    return S2R_OK;
}

/* Reset every env (after checking it fits the policy and, with a
   privileged critic, that it has those inputs) and normalize the first
   observations. */
static s2r_result s2r__ppo_reset_all(s2r_ppo* p, s2r_env* envs) {
    int e;
    for (e = 0; e < p->num_envs; e++) {
        s2r_result r = s2r__check_env(&envs[e], &p->policy.shape, p->error);
        if (r != S2R_OK) return r;
        if (p->cfg.privileged_dim > 0 && (!envs[e].privileged || envs[e].priv_dim != p->cfg.privileged_dim))
            return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "environment %d has %d privileged inputs, the "
                             "privileged critic takes %d", e, envs[e].privileged ? envs[e].priv_dim : 0,
                             p->cfg.privileged_dim);
        s2r__ppo_lane(p, e)->reset_rng = s2r__ppo_lane(p, e)->env_rng;
        r = envs[e].reset(envs[e].self, &s2r__ppo_lane(p, e)->env_rng, p->raw_obs + (size_t)e * p->obs_dim);
        if (r == S2R_OK) r = s2r__ppo_privileged(p, &envs[e], s2r__ppo_lane(p, e)->priv);
        if (r != S2R_OK)
            return s2r__fail(p->error, r, "environment %d failed to reset (%s)",
                             e, s2r_result_string(r));
    }
    /* Only the run's first observations enter the statistics here: a later
       reset of every env (after a failure, a state save or a resume) may
       replay resets whose observations were counted when they happened. */
    s2r__ppo_observe(p, p->global_step == 0);
    p->started = 1;
    return S2R_OK;
}

/* Act and step every env once: the observations acted on go into the
   rollout, the envs act and step in parallel (each writing its own lane),
   then, in env order, each lane is checked and its sample copied into the
   rollout. */
static s2r_result s2r__ppo_act_and_step(s2r_ppo* p, s2r_env* envs, int t) {
    size_t P = (size_t)p->cfg.privileged_dim, k0 = (size_t)t * p->num_envs;
    int e, n = p->num_envs;
    for (e = 0; e < n; e++) {
        memcpy(p->obs + (k0 + e) * p->obs_dim, p->next_obs + (size_t)e * p->obs_dim, sizeof(float) * (size_t)p->obs_dim);
        memcpy(p->priv + (k0 + e) * P, s2r__ppo_lane(p, e)->priv, sizeof(float) * P);
    }
#ifdef _OPENMP
    {
        int nt = s2r__ppo_threads(p);
#pragma omp parallel for num_threads(nt) schedule(static)
        for (e = 0; e < n; e++) s2r__ppo_step_env(p, &envs[e], e);
    }
#else
    for (e = 0; e < n; e++) s2r__ppo_step_env(p, &envs[e], e);
#endif
    for (e = 0; e < n; e++) {
        const s2r_ppo_lane* l = s2r__ppo_lane(p, e);
        s2r_result r = s2r__ppo_check_step(p, e);
        if (r != S2R_OK) return r;
        memcpy(p->actions + (k0 + e) * p->act_dim, l->action, sizeof(float) * (size_t)p->act_dim);
        p->values[k0 + e] = l->value;
        p->logprobs[k0 + e] = l->logprob;
        memcpy(p->raw_obs + (size_t)e * p->obs_dim, l->raw_obs, sizeof(float) * (size_t)p->obs_dim);
    }
    return S2R_OK;
}

/* The serial part of a rollout step, in env order: episode bookkeeping,
   rewards, bootstrap values of truncated episodes. */
static void s2r__ppo_record(s2r_ppo* p, int t) {
    int e;
    for (e = 0; e < p->num_envs; e++) {
        size_t k = (size_t)t * p->num_envs + e;
        const s2r_ppo_lane* l = s2r__ppo_lane(p, e);
        const s2r_step_result* sr = &l->step;
        int done = sr->done || sr->terminated || sr->truncated;
        p->dones[k] = (unsigned char)done;
        p->episode_return[e] += sr->reward;
        p->rewards[k] = p->cfg.normalize_rewards ?
            s2r__ppo_scale_reward(p, e, sr->reward, done) : sr->reward;
        p->end_values[k] = 0.0f;
        if (!done) continue;
        if (!sr->terminated && !p->cfg.time_limit_terminal) { /* truncated: bootstrap with V(final obs) */
            float nobs[S2R_MLP_MAX_WIDTH], mean[S2R_MLP_MAX_WIDTH];
            s2r__normalizer_apply(&p->policy.norm, l->final_obs, nobs);
            s2r__policy_forward_one(&p->policy, nobs, l->final_priv, mean, &p->end_values[k]);
        }
        p->episodes++;
        p->successes += sr->success ? 1 : 0;
        p->diverged += sr->diverged ? 1 : 0;
        p->return_sum += p->episode_return[e];
        p->episode_return[e] = 0.0;
    }
}

/* Update the observation statistics with the observations the policy will
   act on next (raw_obs of every env, in env order; update = 0 leaves them
   alone), then normalize them. */
static void s2r__ppo_observe(s2r_ppo* p, int update) {
    int e;
    if (update) s2r__normalizer_update(&p->policy.norm, p->raw_obs, p->num_envs, p->obs_dim);
    for (e = 0; e < p->num_envs; e++)
        s2r__normalizer_apply(&p->policy.norm, p->raw_obs + (size_t)e * p->obs_dim,
                              p->next_obs + (size_t)e * p->obs_dim);
}

/* V of every env's next observation [num_envs], GAE's bootstrap. */
static void s2r__ppo_last_values(s2r_ppo* p) {
    float mean[S2R_MLP_MAX_WIDTH];
    int e;
    for (e = 0; e < p->num_envs; e++)
        s2r__policy_forward_one(&p->policy, p->next_obs + (size_t)e * p->obs_dim, s2r__ppo_lane(p, e)->priv, mean,
                                &p->last_values[e]);
}

/* The update epochs on the collected batch at learning rate lr: each
   epoch shuffles the batch and, for each minibatch, gathers it, runs the
   actor and the critic forward and backward through the loss terms
   (s2r__ppo_losses), clips the gradient and takes an Adam step; a
   non-finite minibatch is skipped.  The epochs stop early once one's mean
   approx_kl exceeds target_kl.  Minibatch means into *st. */
static void           s2r__ppo_gather(s2r_ppo* p, const int* idx, int M);
static s2r__ppo_terms s2r__ppo_losses(s2r_ppo* p, const int* idx, int M);
static void           s2r__ppo_accumulate(s2r_ppo_stats* st, const s2r__ppo_terms* s, int M);

static void s2r__ppo_update(s2r_ppo* p, float lr, s2r_ppo_stats* st) {
    int epoch, start, M = p->minibatch_size;
    s2r__iota(p->perm, p->batch_size);
    for (epoch = 0; epoch < p->cfg.update_epochs; epoch++) {
        double kl = 0.0;   /* approx_kl summed over the applied minibatches */
        int applied = 0;
        s2r__shuffle(p->perm, p->batch_size, &p->rng);
        for (start = 0; start < p->batch_size; start += M) {
            const int* idx = p->perm + start;
            s2r__ppo_terms s;
            double norm;
            s2r__ppo_gather(p, idx, M);
            s = s2r__ppo_losses(p, idx, M);
            norm = s2r_adam_clip_grad(&p->adam, p->cfg.max_grad_norm);
            if (!isfinite(s.total) || !isfinite(norm)) {
                st->skipped++; /* NaN/Inf never reaches the optimizer */
                continue;
            }
            s2r_adam_step(&p->adam, p->policy.params, lr);
            s2r__ppo_accumulate(st, &s, M);
            kl += s.approx_kl / M;
            applied++;
        }
        if (p->cfg.target_kl > 0.0f && applied && kl / applied > p->cfg.target_kl) break;
    }
    if (st->minibatches > 0) {
        float n = (float)st->minibatches;
        st->policy_loss /= n;
        st->value_loss /= n;
        st->entropy /= n;
        st->approx_kl /= n;
        st->clip_fraction /= n;
    }
}

/* Gather minibatch observations, the critic's inputs (the observation,
   then its privileged inputs) and advantages (normalized per minibatch
   with the unbiased std, as torch's .std()). */
static void s2r__ppo_gather(s2r_ppo* p, const int* idx, int M) {
    double sum = 0.0, sq = 0.0, mu, sd;
    size_t P = (size_t)p->cfg.privileged_dim, wide = p->obs_dim + P;
    int i;
    for (i = 0; i < M; i++) {
        memcpy(p->mb_obs + (size_t)i * p->obs_dim, p->obs + (size_t)idx[i] * p->obs_dim,
               sizeof(float) * (size_t)p->obs_dim);
        if (P) {
            memcpy(p->mb_critic + i * wide, p->obs + (size_t)idx[i] * p->obs_dim, sizeof(float) * (size_t)p->obs_dim);
            memcpy(p->mb_critic + i * wide + p->obs_dim, p->priv + (size_t)idx[i] * P, sizeof(float) * P);
        }
        p->mb_adv[i] = p->advantages[idx[i]];
        sum += p->mb_adv[i];
    }
    if (!p->cfg.normalize_advantages) return;
    mu = sum / M;
    for (i = 0; i < M; i++) sq += (p->mb_adv[i] - mu) * (p->mb_adv[i] - mu);
    sd = M > 1 ? sqrt(sq / (M - 1)) : 0.0;
    for (i = 0; i < M; i++) p->mb_adv[i] = (float)((p->mb_adv[i] - mu) / (sd + 1e-8));
}

/* Loss and gradient (into adam.grad) of the gathered minibatch idx [M]:
   each half runs forward, adds its loss terms per sample and runs
   backward.  The actor and the critic share no parameter, input buffer or
   scratch, so with two or more threads their halves run side by side;
   each sums in its own fixed order, so the result is the same bit for bit
   on any number of threads. */
static void s2r__ppo_actor_pass(s2r_ppo* p, const int* idx, int M, s2r__ppo_terms* s);
static void s2r__ppo_critic_pass(s2r_ppo* p, const int* idx, int M, s2r__ppo_terms* s);
static void s2r__ppo_policy_term(s2r_ppo* p, int i, int k, int M, s2r__ppo_terms* s, float* dlog_std);
static void s2r__ppo_value_term(s2r_ppo* p, int i, int k, int M, s2r__ppo_terms* s);

static s2r__ppo_terms s2r__ppo_losses(s2r_ppo* p, const int* idx, int M) {
    s2r__ppo_terms s, critic;
    memset(&s, 0, sizeof s);
    memset(&critic, 0, sizeof critic);
    memset(p->adam.grad, 0, sizeof(float) * (size_t)p->adam.n);
#ifdef _OPENMP
#pragma omp parallel sections num_threads(2) if (s2r__ppo_threads(p) > 1)
    {
#pragma omp section
        s2r__ppo_actor_pass(p, idx, M, &s);
#pragma omp section
        s2r__ppo_critic_pass(p, idx, M, &critic);
    }
#else
    s2r__ppo_actor_pass(p, idx, M, &s);
    s2r__ppo_critic_pass(p, idx, M, &critic);
#endif
    s.value_loss = critic.value_loss;
    s.total = (s.policy_loss - p->cfg.entropy_coef * s.entropy + p->cfg.value_coef * s.value_loss) / M;
    return s;
}

/* Add one applied minibatch's means to the update's statistics. */
static void s2r__ppo_accumulate(s2r_ppo_stats* st, const s2r__ppo_terms* s,
                                int M) {
    st->policy_loss += (float)(s->policy_loss / M);
    st->value_loss += (float)(s->value_loss / M);
    st->entropy += (float)(s->entropy / M);
    st->approx_kl += (float)(s->approx_kl / M);
    st->clip_fraction += (float)(s->clip_fraction / M);
    st->minibatches++;
}

/* The update's statistics beside the loss terms' means: the rollout's
   episodes, the critic's explained variance and the speed. */
static double s2r__explained_variance(const float* pred, const float* y, int n);

static void s2r__ppo_fill_stats(const s2r_ppo* p, float lr, double seconds,
                                s2r_ppo_stats* st) {
    st->update = p->update;
    st->num_updates = p->num_updates;
    st->global_step = p->global_step;
    st->learning_rate = lr;
    st->explained_variance = (float)s2r__explained_variance(
        p->values, p->returns, p->batch_size);
    st->episodes = p->episodes;
    st->diverged = p->diverged;
    st->mean_return = p->episodes ? (float)(p->return_sum / p->episodes) : NAN;
    st->success_rate = p->episodes ? (float)p->successes / p->episodes : NAN;
    st->steps_per_second = (float)(p->batch_size / (seconds > 1e-9 ? seconds : 1e-9));
}

/* --- Learning: PPO helpers ------------------------------------------------
   What the update's pieces call: the threads, each env's step on its lane,
   the NaN guards that check it, the privileged critic's inputs, reward
   scaling, the actor's and the critic's halves of a minibatch with their
   per-sample terms, explained variance. */

#ifdef _OPENMP
/* Number of threads for the per-env loop. */
static int s2r__ppo_threads(const s2r_ppo* p) {
    return p->cfg.num_threads > 0 ? p->cfg.num_threads : omp_get_max_threads();
}
#endif

/* Env e (may run on any thread; writes only env e and its lane): act on
   next_obs[e], keep the sample, step the env with the clipped action and
   reset it if the episode ended (keeping the final observation and its
   privileged inputs). */
static void s2r__ppo_step_env(s2r_ppo* p, s2r_env* env, int e) {
    s2r_ppo_lane* l = s2r__ppo_lane(p, e);
    float mean[S2R_MLP_MAX_WIDTH], clipped[S2R_MLP_MAX_WIDTH];
    s2r__policy_forward_one(&p->policy, p->next_obs + (size_t)e * p->obs_dim, l->priv, mean, &l->value);
    s2r__sample_action(&p->policy, mean, &l->act_rng, l->action);
    l->logprob = s2r__gaussian_logp(mean, p->policy.log_std, l->action, p->act_dim);
    l->status = S2R_OK;
    if (!s2r_all_finite_f(l->action, p->act_dim)) return; /* reported serially */
    s2r__clip_action(l->action, clipped, p->act_dim);
    memset(&l->step, 0, sizeof l->step);
    l->status = env->step(env->self, clipped, l->raw_obs, &l->step);
    if (l->status != S2R_OK) return;
    if (!(l->step.done || l->step.terminated || l->step.truncated)) {
        l->status = s2r__ppo_privileged(p, env, l->priv);
        return;
    }
    memcpy(l->final_obs, l->raw_obs, sizeof(float) * (size_t)p->obs_dim);
    if ((l->status = s2r__ppo_privileged(p, env, l->final_priv)) != S2R_OK) return;
    l->reset_rng = l->env_rng;
    l->status = env->reset(env->self, &l->env_rng, l->raw_obs);
    if (l->status == S2R_OK) l->status = s2r__ppo_privileged(p, env, l->priv);
}

/* Check, in env order, what the parallel step produced. */
static s2r_result s2r__ppo_check_step(s2r_ppo* p, int e) {
    const s2r_ppo_lane* l = s2r__ppo_lane(p, e);
    const s2r_step_result* sr = &l->step;
    int done = sr->done || sr->terminated || sr->truncated, P = p->cfg.privileged_dim;
    if (!s2r_all_finite_f(l->action, p->act_dim))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "the policy "
                         "produced a non-finite action for environment %d "
                         "(corrupt parameters?)", e);
    if (l->status != S2R_OK)
        return s2r__fail(p->error, l->status, "environment %d failed: %s",
                         e, s2r_result_string(l->status));
    if (!isfinite(sr->reward) || !s2r_all_finite_f(l->raw_obs, p->obs_dim) ||
        (done && !s2r_all_finite_f(l->final_obs, p->obs_dim)))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "environment %d "
                         "returned a non-finite observation or reward", e);
    if (!s2r_all_finite_f(l->priv, P) || (done && !s2r_all_finite_f(l->final_priv, P)))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "environment %d returned non-finite privileged inputs", e);
    return S2R_OK;
}

/* The privileged inputs [P] of env's current observation into out
   (nothing for a plain critic). */
static s2r_result s2r__ppo_privileged(const s2r_ppo* p, const s2r_env* env, float* out) {
    return p->cfg.privileged_dim > 0 ? env->privileged(env->priv_self, out) : S2R_OK;
}

/* Reward scaling as gym's NormalizeReward: divide by the running std of the
   discounted return; the return restarts when an episode ends. */
static float s2r__ppo_scale_reward(s2r_ppo* p, int e, float reward, int done) {
    double* g = &p->discounted[e];
    float g_now, scaled;
    *g = *g * p->cfg.gamma + reward;
    g_now = (float)*g;
    s2r__normalizer_update(&p->reward_norm, &g_now, 1, 1);
    scaled = (float)(reward / sqrt(p->reward_norm.var[0] + 1e-8));
    if (done) *g = 0.0;
    return (float)s2r_clamp(scaled, -p->cfg.reward_clip, p->cfg.reward_clip);
}

/* The actor's half of a minibatch: forward, the clipped objective per
   sample, the entropy, backward into grad [actor params, then log_std]. */
static void s2r__ppo_actor_pass(s2r_ppo* p, const int* idx, int M, s2r__ppo_terms* s) {
    s2r_policy* pol = &p->policy;
    float* dlog_std = p->adam.grad + pol->actor.num_params;
    int i, a;
    s2r_mlp_forward(&pol->actor, pol->params, p->mb_obs, M, p->actor_acts, p->mean);
    for (i = 0; i < M; i++) s2r__ppo_policy_term(p, i, idx[i], M, s, dlog_std);
    /* entropy is the same for every sample: d(-c H)/dlog_std = -c */
    s->entropy = M * s2r__gaussian_entropy(pol->log_std, p->act_dim);
    for (a = 0; a < p->act_dim; a++) dlog_std[a] -= p->cfg.entropy_coef;
    s2r_mlp_backward(&pol->actor, pol->params, p->mb_obs, p->actor_acts, p->dmean, M, p->adam.grad, p->back);
}

/* Clipped surrogate for minibatch sample i (rollout sample k): adds to the
   loss terms, writes dL/dmean [act_dim] of the sample and adds its part of
   dL/dlog_std [act_dim].  With z = (a - mean) / std:
   dlogp/dmean = z / std and dlogp/dlog_std = z^2 - 1. */
static void s2r__ppo_policy_term(s2r_ppo* p, int i, int k, int M,
                                 s2r__ppo_terms* s, float* dlog_std) {
    const float* mean = p->mean + (size_t)i * p->act_dim;
    const float* act = p->actions + (size_t)k * p->act_dim;
    float* dmean = p->dmean + (size_t)i * p->act_dim;
    double logratio = (double)s2r__gaussian_logp(mean, p->policy.log_std, act,
                                                 p->act_dim) - p->logprobs[k];
    double ratio = exp(logratio), c = p->cfg.clip_coef, dlogp;
    int a;
    s->approx_kl += (ratio - 1.0) - logratio;
    s->clip_fraction += fabs(ratio - 1.0) > c ? 1.0 : 0.0;
    if (fabs(ratio - 1.0) > s->max_ratio_dev) s->max_ratio_dev = fabs(ratio - 1.0);
    s->policy_loss += s2r_ppo_clipped_loss(logratio, p->mb_adv[i], c, &dlogp);
    dlogp /= M;   /* the minibatch mean */
    for (a = 0; a < p->act_dim; a++) {
        double sd = exp((double)p->policy.log_std[a]);
        double z = (act[a] - mean[a]) / sd;
        dmean[a] = (float)(dlogp * z / sd);
        dlog_std[a] += (float)(dlogp * (z * z - 1.0));
    }
}

/* The critic's half: forward, the value loss per sample, backward into
   grad's critic part. */
static void s2r__ppo_critic_pass(s2r_ppo* p, const int* idx, int M, s2r__ppo_terms* s) {
    s2r_policy* pol = &p->policy;
    int i;
    s2r_mlp_forward(&pol->critic, pol->critic_params, p->mb_critic, M, p->critic_acts, p->value);
    for (i = 0; i < M; i++) s2r__ppo_value_term(p, i, idx[i], M, s);
    s2r_mlp_backward(&pol->critic, pol->critic_params, p->mb_critic, p->critic_acts, p->dvalue, M,
                     p->adam.grad + pol->num_actor_params, p->back_critic);
}

/* Value loss for sample i; writes dL/dvalue. */
static void s2r__ppo_value_term(s2r_ppo* p, int i, int k, int M,
                                s2r__ppo_terms* s) {
    double v = p->value[i], ret = p->returns[k], old = p->values[k];
    double c = p->cfg.clip_coef, vf = p->cfg.value_coef;
    double lu = (v - ret) * (v - ret), grad = (v - ret);
    if (p->cfg.clip_value_loss) {
        double vc = old + s2r_clamp(v - old, -c, c);
        double lc = (vc - ret) * (vc - ret);
        if (lc > lu) { /* clipped branch: flat outside the clip range */
            lu = lc;
            grad = fabs(v - old) < c ? (vc - ret) : 0.0;
        }
    }
    s->value_loss += 0.5 * lu;
    p->dvalue[i] = (float)(vf * grad / M);
}

/* 1 - Var(y - pred) / Var(y) over n samples: how much of the returns the
   critic explains (NaN when the returns do not vary). */
static double s2r__explained_variance(const float* pred, const float* y, int n) {
    double my = 0.0, md = 0.0, vy = 0.0, vd = 0.0;
    int i;
    for (i = 0; i < n; i++) { my += y[i]; md += y[i] - pred[i]; }
    my /= n;
    md /= n;
    for (i = 0; i < n; i++) {
        double dy = y[i] - my, dd = (y[i] - pred[i]) - md;
        vy += dy * dy;
        vd += dd * dd;
    }
    return vy == 0.0 ? NAN : 1.0 - vd / vy;
}

/* --- Learning: PPO diagnostics output -------------------------------------
   CSV rows and the one-line progress display. */

S2RDEF s2r_result s2r_ppo_stats_csv_header(FILE* f) {
    if (!f)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_stats_csv_header: f is NULL");
    int n = fprintf(f, "update,global_step,learning_rate,policy_loss,value_loss,"
                       "entropy,approx_kl,clip_fraction,explained_variance,"
                       "episodes,mean_return,success_rate,steps_per_second,"
                       "minibatches,skipped,diverged\n");
    return n < 0 ? S2R_ERR_IO : S2R_OK;
}

S2RDEF s2r_result s2r_ppo_stats_csv_row(FILE* f, const s2r_ppo_stats* s) {
    if (!f || !s)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_stats_csv_row: f or s is NULL");
    int n = fprintf(f, "%d,%lld,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%.6g,"
                       "%.6g,%.1f,%d,%d,%d\n",
                    s->update, s->global_step, s->learning_rate, s->policy_loss,
                    s->value_loss, s->entropy, s->approx_kl, s->clip_fraction,
                    s->explained_variance, s->episodes, s->mean_return,
                    s->success_rate, s->steps_per_second, s->minibatches,
                    s->skipped, s->diverged);
    return n < 0 ? S2R_ERR_IO : S2R_OK;
}

/* One CSV row back into stats (as s2r_ppo_stats_csv_row wrote it). */
S2RDEF int s2r_ppo_stats_csv_parse(const char* line, s2r_ppo_stats* s) {
    S2R_ASSERT(line && s);
    memset(s, 0, sizeof *s);
    return sscanf(line, "%d,%lld,%f,%f,%f,%f,%f,%f,%f,%d,%f,%f,%f,%d,%d,%d", &s->update, &s->global_step,
                  &s->learning_rate, &s->policy_loss, &s->value_loss, &s->entropy, &s->approx_kl,
                  &s->clip_fraction, &s->explained_variance, &s->episodes, &s->mean_return, &s->success_rate,
                  &s->steps_per_second, &s->minibatches, &s->skipped, &s->diverged) >= 15;
}

S2RDEF void s2r_ppo_print_progress(FILE* f, const s2r_ppo_stats* s,
                                   int interactive) {
    S2R_ASSERT(f && s);
    fprintf(f, "%supdate %4d/%-4d  steps %9lld  return %8.1f  success %4.2f  "
               "kl %.4f  clip %.3f  ev %5.2f  %6.0f steps/s%s",
            interactive ? "\r" : "", s->update, s->num_updates, s->global_step,
            s->mean_return, s->success_rate, s->approx_kl, s->clip_fraction,
            s->explained_variance, s->steps_per_second,
            (!interactive || s->update >= s->num_updates) ? "\n" : "");
    fflush(f);
}

/* --- Learning: behaviour cloning ------------------------------------------
   Datasets of (observation, action) and supervised training of the actor. */

S2RDEF s2r_result s2r_dataset_init(s2r_dataset* d, int obs_dim, int act_dim) {
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (obs_dim < 1 || act_dim < 1 || obs_dim > S2R_MLP_MAX_WIDTH ||
        act_dim > S2R_MLP_MAX_WIDTH)
        return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "dataset sizes "
                         "obs %d act %d out of range 1..%d", obs_dim, act_dim,
                         S2R_MLP_MAX_WIDTH);
    d->obs_dim = obs_dim;
    d->act_dim = act_dim;
    return S2R_OK;
}

/* Double the capacity (at least 64 pairs).  On failure the dataset keeps
   its contents and capacity. */
static s2r_result s2r__dataset_grow(s2r_dataset* d) {
    int cap;
    float* o;
    float* a;
    if (d->capacity > 0x3FFFFFFF)
        return s2r__fail(d->error, S2R_ERR_OUT_OF_MEMORY, "dataset too large");
    cap = d->capacity ? 2 * d->capacity : 64;
    o = (float*)S2R_REALLOC(d->obs, sizeof(float) * (size_t)cap * d->obs_dim);
    if (!o) return s2r__fail(d->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    d->obs = o;
    a = (float*)S2R_REALLOC(d->act, sizeof(float) * (size_t)cap * d->act_dim);
    if (!a) return s2r__fail(d->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    d->act = a;
    d->capacity = cap;
    return S2R_OK;
}

S2RDEF s2r_result s2r_dataset_append(s2r_dataset* d, const float* obs,
                                     const float* act) {
    S2R_ASSERT(d);
    if (!obs || !act) return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "dataset: observation or action is NULL");
    if (!s2r_all_finite_f(obs, d->obs_dim) || !s2r_all_finite_f(act, d->act_dim))
        return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT,
                         "observation or action contains NaN or Inf");
    if (d->count == d->capacity) {
        s2r_result r = s2r__dataset_grow(d);
        if (r != S2R_OK) return r;
    }
    memcpy(d->obs + (size_t)d->count * d->obs_dim, obs, sizeof(float) * (size_t)d->obs_dim);
    memcpy(d->act + (size_t)d->count * d->act_dim, act, sizeof(float) * (size_t)d->act_dim);
    d->count++;
    return S2R_OK;
}

S2RDEF void s2r_dataset_free(s2r_dataset* d) {
    if (!d) return;
    S2R_FREE(d->obs);
    S2R_FREE(d->act);
    d->obs = d->act = NULL;
    d->count = d->capacity = 0;
}

S2RDEF s2r_result s2r_dataset_write_csv(const s2r_dataset* d, const char* path, char* error) {
    s2r_file file;
    s2r_result res;
    int i, k;
    if (!d || !path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "write demonstrations: dataset or path is NULL");
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    fprintf(file.f, "# sim2real.h demonstrations: %d pairs of %d observations and %d actions\n", d->count, d->obs_dim,
            d->act_dim);
    for (k = 0; k < d->obs_dim; k++) fprintf(file.f, "%sobs_%d", k ? "," : "", k);
    for (k = 0; k < d->act_dim; k++) fprintf(file.f, ",act_%d", k);
    fputc('\n', file.f);
    for (i = 0; i < d->count; i++) {   /* %.9g: every float reads back exactly */
        for (k = 0; k < d->obs_dim; k++) fprintf(file.f, "%s%.9g", k ? "," : "", d->obs[(size_t)i * d->obs_dim + k]);
        for (k = 0; k < d->act_dim; k++) fprintf(file.f, ",%.9g", d->act[(size_t)i * d->act_dim + k]);
        fputc('\n', file.f);
    }
    return s2r_file_commit(&file, error);
}

#define S2R__DEMO_MAX_DIM 1024   /* observation or action entries a file may name */

/* Column maps of a demonstration file. */
typedef struct s2r__demo_columns {
    int obs[S2R__DEMO_MAX_DIM], act[S2R__DEMO_MAX_DIM], episode, obs_dim, act_dim;
} s2r__demo_columns;

static int s2r__demo_column(void* context, const char* name, size_t len, int column, const char* file, char* error) {
    s2r__demo_columns* m = (s2r__demo_columns*)context;
    char word[64], *end;
    int is_obs, *slot;
    long k;
    if (len == 0 || len >= sizeof word) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column %d has %s name", file, column + 1,
                  len ? "too long a" : "no");
        return 1;
    }
    memcpy(word, name, len);
    word[len] = '\0';
    if (strcmp(word, "episode") == 0 && m->episode < 0) { m->episode = column; return 0; }
    is_obs = strncmp(word, "obs_", 4) == 0;
    k = (is_obs || strncmp(word, "act_", 4) == 0) && isdigit((unsigned char)word[4]) ? strtol(word + 4, &end, 10) : -1;
    if (k < 0 || *end || k >= S2R__DEMO_MAX_DIM) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: unknown or repeated column '%s' (obs_I, act_I for I "
                  "from 0 to %d, episode)", file, word, S2R__DEMO_MAX_DIM - 1);
        return 1;
    }
    slot = is_obs ? &m->obs[k] : &m->act[k];
    if (*slot >= 0) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column '%s' appears twice", file, word);
        return 1;
    }
    *slot = column;
    if (is_obs && k >= m->obs_dim) m->obs_dim = (int)k + 1;
    if (!is_obs && k >= m->act_dim) m->act_dim = (int)k + 1;
    return 0;
}

static s2r_result s2r__demo_columns_done(void* context, s2r__table* t, const char* file, char* error) {
    s2r__demo_columns* m = (s2r__demo_columns*)context;
    int k;
    (void)t;
    for (k = 0; k < m->obs_dim; k++)
        if (m->obs[k] < 0) return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: obs_%d is missing", file, k);
    for (k = 0; k < m->act_dim; k++)
        if (m->act[k] < 0) return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: act_%d is missing", file, k);
    if (m->obs_dim < 1 || m->act_dim < 1)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: need obs_0 and act_0 at least", file);
    return S2R_OK;
}

S2RDEF s2r_result s2r_dataset_parse_csv(s2r_dataset* d, const char* text, const char* name, char* error) {
    s2r__demo_columns m;
    s2r__table t;
    s2r_result res;
    float obs[S2R__DEMO_MAX_DIM], act[S2R__DEMO_MAX_DIM];
    int i, k;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!text || !name) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: text and name are needed");
    memset(&m, 0xFF, sizeof m);   /* every map -1 */
    m.obs_dim = m.act_dim = 0;
    if ((res = s2r__table_parse(&t, text, name, s2r__demo_column, s2r__demo_columns_done, &m, error)) != S2R_OK) return res;
    if ((res = s2r_dataset_init(d, m.obs_dim, m.act_dim)) != S2R_OK) s2r__fail(error, res, "%s: %s", name, d->error);
    for (i = 0; i < t.rows && res == S2R_OK; i++) {
        const double* row = t.v + (size_t)i * t.columns;
        for (k = 0; k < m.obs_dim; k++) obs[k] = (float)row[m.obs[k]];
        for (k = 0; k < m.act_dim; k++) act[k] = (float)row[m.act[k]];
        for (k = 0; k < m.act_dim && fabs(row[m.act[k]]) <= 1; k++) {}
        if (k < m.act_dim)
            res = s2r__fail(error, S2R_ERR_PARSE, "%s: row %d of numbers: act_%d is %g; actions are in [-1, 1]",
                            name, i + 1, k, row[m.act[k]]);
        else if (s2r_dataset_append(d, obs, act) != S2R_OK)   /* a double beyond FLT_MAX */
            res = s2r__fail(error, S2R_ERR_PARSE, "%s: row %d of numbers holds one a float cannot hold", name, i + 1);
    }
    s2r__table_free(&t);
    if (res != S2R_OK) {
        s2r_dataset_free(d);
        memset(d, 0, sizeof *d);
    }
    return res;
}

S2RDEF s2r_result s2r_dataset_load_csv(s2r_dataset* d, const char* path, char* error) {
    char* text = NULL;
    s2r_result res;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: path is NULL");
    if ((res = s2r__read_text_file(path, S2R_LOG_MAX_BYTES, &text, error)) != S2R_OK) return res;
    res = s2r_dataset_parse_csv(d, text, path, error);
    S2R_FREE(text);
    return res;
}

static s2r_result s2r__read_file(const char* path, unsigned char** data, size_t* n, char* error);

#define S2R__DS_MAGIC 0x44523253u   /* "S2RD" read as a little-endian uint32 */
#define S2R__DS_HEADER 8            /* uint32 words */

/* The checksum of a binary demonstration file: header words (checksum
   zeroed), observations, actions. */
static uint64_t s2r__dataset_checksum(const uint32_t* header, const float* obs, size_t obs_n, const float* act,
                                      size_t act_n) {
    uint32_t h[S2R__DS_HEADER];
    memcpy(h, header, sizeof h);
    h[6] = h[7] = 0;
    return s2r__fnv1a(s2r__fnv1a(s2r__fnv1a(0xCBF29CE484222325ull, h, sizeof h), obs, sizeof(float) * obs_n), act,
                      sizeof(float) * act_n);
}

S2RDEF s2r_result s2r_dataset_save(const s2r_dataset* d, const char* path, char* error) {
    uint32_t h[S2R__DS_HEADER] = {S2R__DS_MAGIC, 1, 0, 0, 0, 0, 0, 0};
    size_t obs_n, act_n;
    uint64_t sum;
    s2r_file file;
    s2r_result res;
    if (!d || !path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "save demonstrations: dataset or path is NULL");
    obs_n = (size_t)d->count * (size_t)d->obs_dim;
    act_n = (size_t)d->count * (size_t)d->act_dim;
    h[2] = (uint32_t)d->obs_dim;
    h[3] = (uint32_t)d->act_dim;
    h[4] = (uint32_t)d->count;
    sum = s2r__dataset_checksum(h, d->obs, obs_n, d->act, act_n);
    h[6] = (uint32_t)(sum & 0xFFFFFFFFu);
    h[7] = (uint32_t)(sum >> 32);
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    fwrite(h, sizeof h, 1, file.f);
    if (obs_n) fwrite(d->obs, sizeof(float), obs_n, file.f);
    if (act_n) fwrite(d->act, sizeof(float), act_n, file.f);
    return s2r_file_commit(&file, error);   /* a failed write is found here */
}

S2RDEF s2r_result s2r_dataset_unpack(s2r_dataset* d, const unsigned char* image, size_t n, const char* name,
                                     char* error) {
    const s2r_result bad = S2R_ERR_CORRUPT;
    uint32_t h[S2R__DS_HEADER];
    size_t obs_n, act_n, i;
    uint64_t sum;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!image || !name) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: image and name are needed");
    if (n < sizeof h) return s2r__fail(error, bad, "%s: too short for demonstrations (%lu bytes)", name, (unsigned long)n);
    memcpy(h, image, sizeof h);
    if (h[0] != S2R__DS_MAGIC) return s2r__fail(error, bad, "%s: not a sim2real.h demonstration file (bad magic)", name);
    if (h[1] != 1) return s2r__fail(error, bad, "%s: demonstration file version %u, this build reads 1", name, (unsigned)h[1]);
    if (h[2] < 1 || h[2] > S2R__DEMO_MAX_DIM || h[3] < 1 || h[3] > S2R__DEMO_MAX_DIM || h[4] > INT32_MAX || h[5] != 0)
        return s2r__fail(error, bad, "%s: impossible sizes in the header (%u observations, %u actions, %u pairs)", name,
                         (unsigned)h[2], (unsigned)h[3], (unsigned)h[4]);
    obs_n = (size_t)h[4] * h[2];
    act_n = (size_t)h[4] * h[3];
    if ((n - sizeof h) / sizeof(float) != obs_n + act_n || (n - sizeof h) % sizeof(float))
        return s2r__fail(error, bad, "%s: %lu bytes, the header says %lu (truncated or padded)", name, (unsigned long)n,
                         (unsigned long)(sizeof h + sizeof(float) * (obs_n + act_n)));
    if (s2r_dataset_init(d, (int)h[2], (int)h[3]) != S2R_OK) return s2r__fail(error, bad, "%s: %s", name, d->error);
    if (h[4] > 0 && (size_t)d->capacity < h[4]) {   /* room for every pair at once */
        float* obs = (float*)S2R_REALLOC(d->obs, sizeof(float) * (obs_n ? obs_n : 1));
        float* act = obs ? (float*)S2R_REALLOC(d->act, sizeof(float) * (act_n ? act_n : 1)) : NULL;
        if (obs) d->obs = obs;
        if (act) d->act = act;
        if (!obs || !act) {
            s2r_dataset_free(d);
            memset(d, 0, sizeof *d);
            return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: out of memory for %u pairs", name, (unsigned)h[4]);
        }
        d->capacity = (int)h[4];
    }
    if (obs_n) memcpy(d->obs, image + sizeof h, sizeof(float) * obs_n);
    if (act_n) memcpy(d->act, image + sizeof h + sizeof(float) * obs_n, sizeof(float) * act_n);
    sum = s2r__dataset_checksum(h, d->obs, obs_n, d->act, act_n);
    for (i = 0; i < act_n && fabsf(d->act[i]) <= 1.0f; i++) continue;
    if (h[6] != (uint32_t)(sum & 0xFFFFFFFFu) || h[7] != (uint32_t)(sum >> 32) || i < act_n ||
        obs_n > INT32_MAX || !s2r_all_finite_f(d->obs, (int)obs_n)) {
        s2r__fail(error, bad, "%s: %s", name, i < act_n ? "an action outside [-1, 1] or not a number"
                  : "checksum mismatch or a non-finite observation (corrupt file)");
        s2r_dataset_free(d);
        memset(d, 0, sizeof *d);
        return bad;
    }
    d->count = (int)h[4];
    return S2R_OK;
}

S2RDEF s2r_result s2r_dataset_load(s2r_dataset* d, const char* path, char* error) {
    unsigned char* image;
    size_t n;
    s2r_result res;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: path is NULL");
    if ((res = s2r__read_file(path, &image, &n, error)) != S2R_OK) return res;
    res = s2r_dataset_unpack(d, image, n, path, error);
    S2R_FREE(image);
    return res;
}

S2RDEF s2r_bc_config s2r_bc_config_default(void) {
    s2r_bc_config c;
    memset(&c, 0, sizeof c);
    c.finetune = 0;
    c.loss = S2R_BC_LOSS_MSE;
    c.learning_rate = 1e-3f;
    c.anchor_weight = 0.0f;
    c.minibatch_size = 64;
    c.max_grad_norm = 1.0f;
    c.seed = 1;
    return c;
}

S2RDEF s2r_bc_config s2r_bc_config_finetune(void) {
    s2r_bc_config c = s2r_bc_config_default();
    c.finetune = 1;
    c.learning_rate = 1e-4f;
    c.anchor_weight = 1e-2f;
    return c;
}

static s2r_result s2r__bc_check_config(const s2r_bc_config* c, char* err) {
    if (c->minibatch_size < 1 || (int)c->loss < 0 ||
        (int)c->loss >= (int)S2R_BC_LOSS_COUNT ||
        !s2r__in_range(c->learning_rate, 1e-12, 1.0) ||
        !s2r__in_range(c->anchor_weight, 0, 1e12) ||
        !s2r__in_range(c->start_weight, 0, 1e12) ||
        !s2r__in_range(c->max_grad_norm, 0, 1e12) || c->threads < 0)
        return s2r__fail(err, S2R_ERR_INVALID_ARGUMENT, "bad BC config: "
                         "minibatch_size >= 1, known loss, lr in (0, 1], "
                         "anchor_weight, start_weight and max_grad_norm >= 0 and finite, threads >= 0");
    return S2R_OK;
}

S2RDEF s2r_result s2r_bc_init(s2r_bc* bc, const s2r_bc_config* cfg,
                              s2r_policy* policy) {
    const s2r_mlp* actor;
    size_t M, n, total;
    float* c;
    s2r_result r;
    S2R_ASSERT(bc);
    memset(bc, 0, sizeof *bc);
    if (!cfg || !policy)
        return s2r__fail(bc->error, S2R_ERR_INVALID_ARGUMENT, "s2r_bc_init: cfg or policy is NULL");
    S2R_ASSERT(policy->params);
    r = s2r__bc_check_config(cfg, bc->error);
    if (r != S2R_OK) return r;
    bc->cfg = *cfg;
    bc->policy = policy;
    bc->rng = s2r_rng_make(cfg->seed, 0);
#ifdef _OPENMP
    bc->threads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
#else
    bc->threads = 1;
#endif
    actor = &policy->actor;
    M = (size_t)cfg->minibatch_size;
    n = (size_t)policy->num_actor_params;
    total = n + M * (policy->shape.obs_dim + actor->num_acts +
                     3 * policy->shape.act_dim + 2 * (size_t)actor->max_hidden);
    r = s2r_adam_init(&bc->adam, policy->num_actor_params, bc->error);
    if (r != S2R_OK) return r;
    bc->work = (float*)s2r__calloc(total, sizeof(float));
    if (!bc->work) {
        s2r_bc_free(bc);
        return s2r__fail(bc->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    }
    c = bc->work;
    bc->anchor = s2r__take(&c, n);
    bc->mb_obs = s2r__take(&c, M * policy->shape.obs_dim);
    bc->acts = s2r__take(&c, M * actor->num_acts);
    bc->mean = s2r__take(&c, M * policy->shape.act_dim);
    bc->dmean = s2r__take(&c, M * policy->shape.act_dim);
    bc->start_action = s2r__take(&c, M * policy->shape.act_dim);
    bc->back = s2r__take(&c, 2 * M * actor->max_hidden);
    memcpy(bc->anchor, policy->params, sizeof(float) * n);
    return S2R_OK;
}

S2RDEF void s2r_bc_free(s2r_bc* bc) {
    if (!bc) return;
    s2r_adam_free(&bc->adam);
    S2R_FREE(bc->work);
    S2R_FREE(bc->perm);
    bc->work = bc->anchor = bc->start_action = NULL;
    bc->perm = NULL;
    bc->perm_capacity = 0;
}

/* Sums over one BC minibatch. */
typedef struct s2r__bc_terms { double loss, mse, anchor; } s2r__bc_terms;

/* Per-sample loss of the mean vs the target; writes dL/dmean (scaled by
   1/M) and adds dL/dlog_std for the NLL.  With start_weight w > 0 (MSE),
   the starting policy's action is a second target of weight w. */
static void s2r__bc_sample(s2r_bc* bc, int i, const float* target, int M,
                           s2r__bc_terms* s) {
    const s2r_policy* p = bc->policy;
    const float* mean = bc->mean + (size_t)i * p->shape.act_dim;
    const float* start = bc->start_action + (size_t)i * p->shape.act_dim;
    float* dmean = bc->dmean + (size_t)i * p->shape.act_dim;
    float* dlog_std = bc->adam.grad + p->actor.num_params;
    double w = bc->cfg.start_weight;
    int a, A = p->shape.act_dim;
    for (a = 0; a < A; a++) {
        double err = (double)mean[a] - target[a];
        s->mse += err * err / A;
        if (bc->cfg.loss == S2R_BC_LOSS_MSE) {
            double err_start = w > 0.0 ? (double)mean[a] - start[a] : 0.0;
            s->loss += (err * err + w * err_start * err_start) / A;
            dmean[a] = (float)(2.0 * (err + w * err_start) / (A * (double)M));
        } else {
            double inv_var = exp(-2.0 * p->log_std[a]);
            s->loss += 0.5 * err * err * inv_var + p->log_std[a] + 0.9189385332046727;
            dmean[a] = (float)(err * inv_var / M);
            dlog_std[a] += (float)((1.0 - err * err * inv_var) / M);
        }
    }
}

/* anchor_weight/2 * |theta - theta0|^2: adds to loss (times M, as the sums
   are divided by M) and to the gradient. */
static void s2r__bc_anchor(s2r_bc* bc, int M, s2r__bc_terms* s) {
    double w = bc->cfg.anchor_weight, sq = 0.0;
    const float* theta = bc->policy->params;
    int j;
    if (w <= 0.0) return;
    for (j = 0; j < bc->adam.n; j++) {
        double d = (double)theta[j] - bc->anchor[j];
        sq += d * d;
        bc->adam.grad[j] += (float)(w * d);
    }
    s->anchor = 0.5 * w * sq * M;
    s->loss += s->anchor;
}

/* Loss and gradient of one minibatch idx [M] of the dataset. */
static s2r__bc_terms s2r__bc_minibatch(s2r_bc* bc, const s2r_dataset* d,
                                       const int* idx, int M) {
    s2r_policy* p = bc->policy;
    s2r__bc_terms s;
    int i;
    memset(&s, 0, sizeof s);
    memset(bc->adam.grad, 0, sizeof(float) * (size_t)bc->adam.n);
    for (i = 0; i < M; i++)
        s2r__normalizer_apply(&p->norm, d->obs + (size_t)idx[i] * d->obs_dim,
                              bc->mb_obs + (size_t)i * d->obs_dim);
    if (bc->cfg.start_weight > 0.0f) {   /* the starting policy's actions (frozen theta0) */
        s2r__mlp_forward_threads(&p->actor, bc->anchor, bc->mb_obs, M, bc->acts, bc->start_action, bc->threads);
        s2r__clip_action(bc->start_action, bc->start_action, M * p->shape.act_dim);
    }
    s2r__mlp_forward_threads(&p->actor, p->params, bc->mb_obs, M, bc->acts, bc->mean, bc->threads);
    for (i = 0; i < M; i++)
        s2r__bc_sample(bc, i, d->act + (size_t)idx[i] * d->act_dim, M, &s);
    s2r__mlp_backward_threads(&p->actor, p->params, bc->mb_obs, bc->acts, bc->dmean, M, bc->adam.grad, bc->back,
                              bc->threads);
    s2r__bc_anchor(bc, M, &s);
    return s;
}

/* From scratch: the normalizer becomes the dataset's mean and variance. */
static void s2r__bc_fit_normalizer(s2r_bc* bc, const s2r_dataset* d) {
    s2r_normalizer* n = &bc->policy->norm;
    int i;
    n->count = 0.0; /* so the result is exactly the dataset's statistics */
    for (i = 0; i < n->dim; i++) n->mean[i] = n->var[i] = 0.0;
    s2r__normalizer_update(n, d->obs, d->count, d->obs_dim);
}

static s2r_result s2r__bc_prepare(s2r_bc* bc, const s2r_dataset* d) {
    const s2r_policy_shape* s = &bc->policy->shape;
    if (d->obs_dim != s->obs_dim || d->act_dim != s->act_dim || d->count < 1)
        return s2r__fail(bc->error, S2R_ERR_INVALID_ARGUMENT, "dataset is obs "
                         "%d act %d with %d pairs; policy needs obs %d act %d "
                         "and >= 1 pair", d->obs_dim, d->act_dim, d->count,
                         s->obs_dim, s->act_dim);
    if (d->count > bc->perm_capacity) { /* only when the dataset has grown */
        int* perm = (int*)S2R_REALLOC(bc->perm, sizeof(int) * (size_t)d->count);
        if (!perm) return s2r__fail(bc->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
        bc->perm = perm;
        bc->perm_capacity = d->count;
    }
    if (!bc->cfg.finetune && bc->epoch == 0) s2r__bc_fit_normalizer(bc, d);
    s2r__iota(bc->perm, d->count);
    s2r__shuffle(bc->perm, d->count, &bc->rng);
    return S2R_OK;
}

S2RDEF s2r_result s2r_bc_epoch(s2r_bc* bc, const s2r_dataset* data,
                               s2r_bc_stats* stats) {
    S2R_ASSERT(bc);
    if (!data)
        return s2r__fail(bc->error, S2R_ERR_INVALID_ARGUMENT, "s2r_bc_epoch: data is NULL");
    s2r_bc_stats st;
    int start;
    s2r_result r;
    memset(&st, 0, sizeof st);
    r = s2r__bc_prepare(bc, data);
    if (r != S2R_OK) return r;
    for (start = 0; start < data->count; start += bc->cfg.minibatch_size) {
        int M = data->count - start < bc->cfg.minibatch_size ?
                data->count - start : bc->cfg.minibatch_size;
        s2r__bc_terms s = s2r__bc_minibatch(bc, data, bc->perm + start, M);
        double norm = s2r_adam_clip_grad(&bc->adam, bc->cfg.max_grad_norm);
        if (!isfinite(s.loss) || !isfinite(norm)) { st.skipped++; continue; }
        s2r_adam_step(&bc->adam, bc->policy->params, bc->cfg.learning_rate);
        st.loss += (float)(s.loss / M);
        st.action_mse += (float)(s.mse / M);
        st.anchor += (float)(s.anchor / M);
        st.minibatches++;
    }
    if (st.minibatches) {
        st.loss /= st.minibatches;
        st.action_mse /= st.minibatches;
        st.anchor /= st.minibatches;
    }
    st.epoch = ++bc->epoch;
    if (stats) *stats = st;
    return S2R_OK;
}

/* --- Learning: checkpoints ------------------------------------------------
   Save/load of policy, normalizer and optimizer: validated before use. */

#define S2R__CK_MAGIC 0x50523253u  /* "S2RP" read as a little-endian uint32 */
#define S2R__CK_HEADER 32          /* uint32 words of header (version 2)     */
#define S2R__CK_HEADER_V1 16       /* version 1's, which ended at history    */
/* header word indices */
enum { S2R__H_MAGIC, S2R__H_VERSION, S2R__H_OBS, S2R__H_ACT, S2R__H_NHIDDEN,
       S2R__H_HIDDEN, S2R__H_PARAMS = S2R__H_HIDDEN + S2R_MAX_HIDDEN_LAYERS,
       S2R__H_OPT, S2R__H_PAYLOAD, S2R__H_SUM_LO, S2R__H_SUM_HI,
       S2R__H_MADE_FOR,     /* 0 in version 1 files written before it was recorded */
       S2R__H_HISTORY,      /* likewise */
       S2R__H_PRIVILEGED,   /* version 2 on: 0 in version 1 files */
       S2R__H_RANDOM_LO, S2R__H_RANDOM_HI,   /* likewise */
       S2R__H_ACTIVATION,   /* actor's | critic's << 8; 0 (tanh, tanh) in files written before it was recorded */
       S2R__H_RESERVED };   /* .. S2R__CK_HEADER - 1: zero */

/* Checksum of the header's `words` words (checksum words as zero) + payload. */
static uint64_t s2r__ck_checksum(const uint32_t* header, int words, const unsigned char* payload,
                                 size_t n) {
    uint32_t h[S2R__CK_HEADER];
    memcpy(h, header, sizeof(uint32_t) * (size_t)words);
    h[S2R__H_SUM_LO] = h[S2R__H_SUM_HI] = 0;
    return s2r__fnv1a(s2r__fnv1a(0xCBF29CE484222325ull, h, sizeof(uint32_t) * (size_t)words), payload, n);
}

static size_t s2r__ck_payload_bytes(int num_params, int obs_dim, int opt_n) {
    size_t b = sizeof(float) * (size_t)num_params + sizeof(double) * (2 + 2 * (size_t)obs_dim);
    if (opt_n) b += sizeof(double) + sizeof(float) * 2 * (size_t)opt_n;
    return b;
}

static void s2r__put(unsigned char** cur, const void* src, size_t n) {
    memcpy(*cur, src, n);
    *cur += n;
}

static void s2r__get(const unsigned char** cur, void* dst, size_t n) {
    memcpy(dst, *cur, n);
    *cur += n;
}

/* Serialize policy (+ opt) into buf: header then payload. */
static void s2r__ck_pack(const s2r_policy* p, const s2r_adam* opt,
                         unsigned char* buf, size_t payload) {
    uint32_t* h = (uint32_t*)(void*)buf;
    unsigned char* c = buf + sizeof(uint32_t) * S2R__CK_HEADER;
    const s2r_normalizer* n = &p->norm;
    uint64_t sum;
    int l;
    memset(h, 0, sizeof(uint32_t) * S2R__CK_HEADER);
    h[S2R__H_MAGIC] = S2R__CK_MAGIC;
    h[S2R__H_VERSION] = S2R_CHECKPOINT_VERSION;
    h[S2R__H_OBS] = (uint32_t)p->shape.obs_dim;
    h[S2R__H_ACT] = (uint32_t)p->shape.act_dim;
    h[S2R__H_NHIDDEN] = (uint32_t)p->shape.num_hidden;
    for (l = 0; l < p->shape.num_hidden; l++)
        h[S2R__H_HIDDEN + l] = (uint32_t)p->shape.hidden[l];
    h[S2R__H_PARAMS] = (uint32_t)p->num_params;
    h[S2R__H_OPT] = opt ? (uint32_t)opt->n : 0;
    h[S2R__H_PAYLOAD] = (uint32_t)payload;
    h[S2R__H_MADE_FOR] = (uint32_t)(p->made_for > 0 ? p->made_for : 0);
    h[S2R__H_HISTORY] = (uint32_t)(p->history > 0 ? p->history : 0);
    h[S2R__H_PRIVILEGED] = (uint32_t)p->shape.privileged;
    h[S2R__H_RANDOM_LO] = (uint32_t)(p->randomization & 0xFFFFFFFFu);
    h[S2R__H_RANDOM_HI] = (uint32_t)(p->randomization >> 32);
    h[S2R__H_ACTIVATION] = (uint32_t)p->shape.actor_activation | (uint32_t)p->shape.critic_activation << 8;
    s2r__put(&c, p->params, sizeof(float) * (size_t)p->num_params);
    s2r__put(&c, &n->count, sizeof(double));
    s2r__put(&c, &n->clip, sizeof(double));
    s2r__put(&c, n->mean, sizeof(double) * (size_t)n->dim);
    s2r__put(&c, n->var, sizeof(double) * (size_t)n->dim);
    if (opt) {
        double t = (double)opt->t;
        s2r__put(&c, &t, sizeof t);
        s2r__put(&c, opt->moments, sizeof(float) * 2 * (size_t)opt->n);
    }
    sum = s2r__ck_checksum(h, S2R__CK_HEADER, buf + sizeof(uint32_t) * S2R__CK_HEADER, payload);
    h[S2R__H_SUM_LO] = (uint32_t)(sum & 0xFFFFFFFFu);
    h[S2R__H_SUM_HI] = (uint32_t)(sum >> 32);
}

S2RDEF s2r_result s2r_policy_save(s2r_policy* p, const s2r_adam* opt,
                                  const char* path) {
    size_t payload, total;
    unsigned char* buf;
    s2r_result r;
    S2R_ASSERT(p && p->params);
    if (!path) return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "checkpoint path is NULL");
    payload = s2r__ck_payload_bytes(p->num_params, p->shape.obs_dim,
                                    opt ? opt->n : 0);
    total = sizeof(uint32_t) * S2R__CK_HEADER + payload;
    buf = (unsigned char*)S2R_MALLOC(total);
    if (!buf) return s2r__fail(p->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    s2r__ck_pack(p, opt, buf, payload);
    r = s2r_file_write_all(path, buf, total, p->error);
    S2R_FREE(buf);
    return r;
}

/* A whole regular file of at most S2R_FILE_MAX_BYTES into *data (from
   S2R_MALLOC): checkpoints, training states, the training CSV. */
#define S2R_FILE_MAX_BYTES (512L * 1024 * 1024)
static s2r_result s2r__read_file(const char* path, unsigned char** data,
                                 size_t* n, char* error) {
    long size;
    FILE* f = s2r__open_input(path, S2R_FILE_MAX_BYTES, &size, error);
    *data = NULL;
    if (!f) return S2R_ERR_IO;
    *data = (unsigned char*)S2R_MALLOC(size ? (size_t)size : 1);
    if (!*data) { fclose(f); return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory to read %s (%ld bytes)", path, size); }
    *n = fread(*data, 1, (size_t)size, f);
    fclose(f);
    if (*n != (size_t)size) {
        S2R_FREE(*data);
        *data = NULL;
        return s2r__fail(error, S2R_ERR_IO, "cannot read %s", path);
    }
    return S2R_OK;
}

/* Validate the header and checksum of a checkpoint image: h receives the
   header as version 2 words (a version 1 header zero-extended), *offset
   where the payload starts; fills shape. */
static s2r_result s2r__ck_check(const unsigned char* buf, size_t n, const char* path, uint32_t* h, size_t* offset,
                                s2r_policy_shape* shape, char* error) {
    s2r_mlp actor, critic;
    uint64_t sum;
    int l, words;
    const s2r_result bad = S2R_ERR_CORRUPT;
    memset(h, 0, sizeof(uint32_t) * S2R__CK_HEADER);
    if (n < sizeof(uint32_t) * S2R__CK_HEADER_V1)
        return s2r__fail(error, bad, "%s: too short for a checkpoint (%lu bytes)",
                         path, (unsigned long)n);
    memcpy(h, buf, sizeof(uint32_t) * S2R__CK_HEADER_V1);
    if (h[S2R__H_MAGIC] != S2R__CK_MAGIC)
        return s2r__fail(error, bad, "%s: not a sim2real.h policy checkpoint "
                         "(bad magic)", path);
    if (h[S2R__H_VERSION] != 1 && h[S2R__H_VERSION] != S2R_CHECKPOINT_VERSION)
        return s2r__fail(error, bad, "%s: checkpoint version %u, this build "
                         "reads 1 and %d", path, (unsigned)h[S2R__H_VERSION], S2R_CHECKPOINT_VERSION);
    words = h[S2R__H_VERSION] == 1 ? S2R__CK_HEADER_V1 : S2R__CK_HEADER;
    *offset = sizeof(uint32_t) * (size_t)words;
    if (n < *offset)
        return s2r__fail(error, bad, "%s: too short for a checkpoint (%lu bytes)", path, (unsigned long)n);
    memcpy(h, buf, *offset);
    for (l = S2R__H_RESERVED; l < words; l++)
        if (h[l]) return s2r__fail(error, bad, "%s: reserved header word %d is not zero", path, l);
    shape->obs_dim = (int)(h[S2R__H_OBS] & 0xFFFF);
    shape->act_dim = (int)(h[S2R__H_ACT] & 0xFFFF);
    shape->num_hidden = (int)(h[S2R__H_NHIDDEN] & 0xFF);
    for (l = 0; l < S2R_MAX_HIDDEN_LAYERS; l++)
        shape->hidden[l] = (int)(h[S2R__H_HIDDEN + l] & 0xFFFF);
    shape->privileged = (int)(h[S2R__H_PRIVILEGED] & 0xFFFF);
    shape->actor_activation = (s2r_activation)(h[S2R__H_ACTIVATION] & 0xFF);
    shape->critic_activation = (s2r_activation)(h[S2R__H_ACTIVATION] >> 8 & 0xFF);
    if (h[S2R__H_ACTIVATION] > 0xFFFF || (unsigned)shape->actor_activation >= S2R_ACTIVATION_COUNT ||
        (unsigned)shape->critic_activation >= S2R_ACTIVATION_COUNT)
        return s2r__fail(error, bad, "%s: activation word 0x%x names no activation the library has (0 tanh, 1 ReLU)",
                         path, (unsigned)h[S2R__H_ACTIVATION]);
    if (h[S2R__H_OBS] > 0xFFFF || h[S2R__H_ACT] > 0xFFFF || h[S2R__H_PRIVILEGED] > 0xFFFF ||
        s2r__shape_layouts(shape, &actor, &critic, NULL) != S2R_OK ||
        h[S2R__H_PARAMS] != (uint32_t)(actor.num_params + shape->act_dim + critic.num_params) ||
        h[S2R__H_OPT] > h[S2R__H_PARAMS] ||
        h[S2R__H_PAYLOAD] != s2r__ck_payload_bytes((int)h[S2R__H_PARAMS],
                                                  shape->obs_dim, (int)h[S2R__H_OPT]))
        return s2r__fail(error, bad, "%s: inconsistent sizes in the header", path);
    if (n != *offset + h[S2R__H_PAYLOAD])
        return s2r__fail(error, bad, "%s: %lu bytes, header says %lu (truncated "
                         "or padded)", path, (unsigned long)n,
                         (unsigned long)(*offset + h[S2R__H_PAYLOAD]));
    sum = s2r__ck_checksum(h, words, buf + *offset, h[S2R__H_PAYLOAD]);
    if (h[S2R__H_SUM_LO] != (uint32_t)(sum & 0xFFFFFFFFu) ||
        h[S2R__H_SUM_HI] != (uint32_t)(sum >> 32))
        return s2r__fail(error, bad, "%s: checksum mismatch (corrupt file)", path);
    return S2R_OK;
}

static const char* s2r__activation_name(s2r_activation a) {
    return a == S2R_ACTIVATION_RELU ? "ReLU" : "tanh";
}

static int s2r__same_shape(const s2r_policy_shape* a, const s2r_policy_shape* b) {
    int l;
    if (a->obs_dim != b->obs_dim || a->act_dim != b->act_dim ||
        a->num_hidden != b->num_hidden || a->privileged != b->privileged)
        return 0;
    for (l = 0; l < a->num_hidden; l++)
        if (a->hidden[l] != b->hidden[l]) return 0;
    return 1;
}

/* Check the payload (at `payload`, header h) matches p and opt, and its
   numbers are sane. */
static s2r_result s2r__ck_compatible(const s2r_policy* p, const s2r_adam* opt, const uint32_t* h,
                                     const unsigned char* payload, const s2r_policy_shape* file,
                                     const char* path, char* error) {
    const unsigned char* norm = payload + sizeof(float) * (size_t)p->num_params;
    double count, clip;
    if (!s2r__same_shape(file, &p->shape))
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: checkpoint is obs %d act %d "
                         "with %d hidden layers (first %d wide), %d privileged inputs; the policy is obs "
                         "%d act %d, %d layers (first %d), %d privileged", path, file->obs_dim,
                         file->act_dim, file->num_hidden, file->hidden[0], file->privileged,
                         p->shape.obs_dim, p->shape.act_dim, p->shape.num_hidden,
                         p->shape.hidden[0], p->shape.privileged);
    if (file->actor_activation != p->shape.actor_activation || file->critic_activation != p->shape.critic_activation)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: checkpoint was trained with a %s actor and a %s critic; the policy "
                         "has a %s actor and a %s critic", path, s2r__activation_name(file->actor_activation),
                         s2r__activation_name(file->critic_activation), s2r__activation_name(p->shape.actor_activation),
                         s2r__activation_name(p->shape.critic_activation));
    if (opt && h[S2R__H_OPT] && (int)h[S2R__H_OPT] != opt->n)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: optimizer state has %u "
                         "parameters, the optimizer %d", path, (unsigned)h[S2R__H_OPT], opt->n);
    memcpy(&count, norm, sizeof count);
    memcpy(&clip, norm + sizeof count, sizeof clip);
    if (!(count > 0.0) || !(clip > 0.0) || !isfinite(count) || !isfinite(clip))
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: bad normalizer", path);
    if (h[S2R__H_OPT]) {   /* the step count must convert to a long */
        double t;
        memcpy(&t, norm + sizeof(double) * (2 + 2 * (size_t)p->norm.dim), sizeof t);
        if (!(t >= 0.0 && t < (double)LONG_MAX) || t != floor(t))
            return s2r__fail(error, S2R_ERR_CORRUPT, "%s: bad optimizer step count", path);
    }
    return S2R_OK;
}

/* Copy a validated image (header h, payload) into p and opt. */
static void s2r__ck_unpack(s2r_policy* p, s2r_adam* opt, const uint32_t* h, const unsigned char* payload) {
    const unsigned char* c = payload;
    s2r_normalizer* n = &p->norm;
    s2r__get(&c, p->params, sizeof(float) * (size_t)p->num_params);
    s2r__get(&c, &n->count, sizeof(double));
    s2r__get(&c, &n->clip, sizeof(double));
    s2r__get(&c, n->mean, sizeof(double) * (size_t)n->dim);
    s2r__get(&c, n->var, sizeof(double) * (size_t)n->dim);
    p->made_for = h[S2R__H_MADE_FOR] <= 0xFFFF ? (int)h[S2R__H_MADE_FOR] : 0;
    p->history = h[S2R__H_HISTORY] <= S2R_HISTORY_MAX ? (int)h[S2R__H_HISTORY] : 0;
    p->randomization = (uint64_t)h[S2R__H_RANDOM_HI] << 32 | h[S2R__H_RANDOM_LO];
    if (!opt) return;
    if (h[S2R__H_OPT]) {
        double t;
        s2r__get(&c, &t, sizeof t);
        opt->t = (long)t;
        s2r__get(&c, opt->moments, sizeof(float) * 2 * (size_t)opt->n);
    } else { /* no optimizer state saved: start fresh */
        opt->t = 0;
        memset(opt->moments, 0, sizeof(float) * 2 * (size_t)opt->n);
    }
}

S2RDEF s2r_result s2r_policy_load_memory(s2r_policy* p, s2r_adam* opt, const void* bytes,
                                         size_t n, const char* name) {
    const unsigned char* buf = (const unsigned char*)bytes;
    s2r_policy_shape shape;
    uint32_t h[S2R__CK_HEADER];
    size_t offset = 0;
    s2r_result r;
    S2R_ASSERT(p && p->params);
    if (!bytes && n > 0)   /* no bytes and n 0: an empty image, corrupt like any too short */
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "s2r_policy_load_memory: bytes is NULL");
    if (!name) name = "checkpoint";
    r = s2r__ck_check(buf, n, name, h, &offset, &shape, p->error);
    if (r == S2R_OK) r = s2r__ck_compatible(p, opt, h, buf + offset, &shape, name, p->error);
    if (r == S2R_OK) s2r__ck_unpack(p, opt, h, buf + offset);
    return r;
}

S2RDEF s2r_result s2r_policy_load(s2r_policy* p, s2r_adam* opt,
                                  const char* path) {
    unsigned char* buf;
    size_t n;
    s2r_result r;
    S2R_ASSERT(p && p->params);
    if (!path) return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "checkpoint path is NULL");
    r = s2r__read_file(path, &buf, &n, p->error);
    if (r != S2R_OK) return r;
    r = s2r_policy_load_memory(p, opt, buf, n, path);
    S2R_FREE(buf);
    return r;
}

S2RDEF s2r_result s2r_checkpoint_shape(const char* path,
                                       s2r_policy_shape* shape, char* error) {
    unsigned char* buf;
    uint32_t h[S2R__CK_HEADER];
    size_t n, offset;
    s2r_result r;
    if (!path || !shape) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "checkpoint path or shape is NULL");
    r = s2r__read_file(path, &buf, &n, error);
    if (r != S2R_OK) return r;
    memset(shape, 0, sizeof *shape);
    r = s2r__ck_check(buf, n, path, h, &offset, shape, error);
    S2R_FREE(buf);
    return r;
}

S2RDEF s2r_result s2r_policy_from_checkpoint(s2r_policy* p, const char* path, char* error) {
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(0, 0);   /* the initial weights are overwritten */
    s2r_result res = s2r_checkpoint_shape(path, &shape, error);
    if (res != S2R_OK) return res;
    if ((res = s2r_policy_init(p, &shape, 0.0f, 10.0f, &rng)) != S2R_OK) return s2r__fail(error, res, "%s", p->error);
    if ((res = s2r_policy_load(p, NULL, path)) != S2R_OK) {
        s2r__fail(error, res, "%s", p->error);
        s2r_policy_free(p);
    }
    return res;
}

S2RDEF s2r_result s2r_policy_check_ranges(const s2r_policy* p, const char* checkpoint, const char* ranges_path,
                                          char* error) {
    s2r_randomization r = s2r_randomization_none();
    s2r_result res;
    if (!p || !checkpoint || !ranges_path)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "check ranges: policy, checkpoint or ranges path is NULL");
    if ((res = s2r_randomization_load(&r, ranges_path, error)) != S2R_OK) return res;
    if (p->randomization && p->randomization != s2r_randomization_digest(&r))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%.200s was not trained on the ranges in %.200s (a checkpoint "
                         "from another run, or ranges changed since): train again, or use that run's files",
                         checkpoint, ranges_path);
    return S2R_OK;
}

/* --- Learning: PPO training state ------------------------------------------
   Everything s2r_ppo needs to continue a run, in one checksummed file:
     uint64 header[18]: magic "S2RSTATE", version, the run's shaping settings
                        (seed, total_steps, num_envs, rollout_steps,
                        num_minibatches, update_epochs, obs_dim, act_dim, a
                        hash of the rest), update, global_step, policy image
                        bytes, checksum, reserved, env_identity[2]
     payload: rng; env_rng[num_envs]; act_rng[num_envs] (4 uint64 each);
              reward scaler count, mean, var (doubles); the policy
              checkpoint image with optimizer (as s2r_policy_save writes). */

#define S2R__ST_MAGIC 0x4554415453523253ull /* "S2RSTATE" little-endian */
#define S2R__ST_VERSION 2
enum { S2R__S_MAGIC, S2R__S_VERSION, S2R__S_SEED, S2R__S_TOTAL, S2R__S_ENVS, S2R__S_ROLLOUT,
       S2R__S_MINIBATCHES, S2R__S_EPOCHS, S2R__S_OBS, S2R__S_ACT, S2R__S_HASH, S2R__S_UPDATE,
       S2R__S_STEP, S2R__S_IMAGE, S2R__S_SUM, S2R__S_RESERVED, S2R__S_TASK, S2R__S_RANDOMIZATION,
       S2R__S_WORDS };

/* Hash of the settings that change what an update computes (not threads). */
static uint64_t s2r__ppo_settings_hash(const s2r_ppo_config* c) {
    double v[17];
    uint64_t h;
    int i;
    v[0] = c->learning_rate; v[1] = c->anneal_lr; v[2] = c->gamma; v[3] = c->gae_lambda;
    v[4] = c->clip_coef; v[5] = c->clip_value_loss; v[6] = c->value_coef; v[7] = c->entropy_coef;
    v[8] = c->max_grad_norm; v[9] = c->target_kl; v[10] = c->normalize_advantages;
    v[11] = c->normalize_rewards; v[12] = c->reward_clip; v[13] = c->obs_clip;
    v[14] = c->init_log_std; v[15] = c->num_hidden;
    v[16] = 0;
    for (i = 0; i < c->num_hidden && i < S2R_MAX_HIDDEN_LAYERS; i++) v[16] = v[16] * 4096 + c->hidden[i];
    h = s2r__fnv1a(0xCBF29CE484222325ull, v, sizeof v);
    /* folded in only when set, so states saved before they existed still match */
    if (c->privileged_dim) h = s2r__fnv1a(h, &c->privileged_dim, sizeof c->privileged_dim);
    if (c->adam_eps != 1e-5f || c->time_limit_terminal) {
        double w[2];
        w[0] = c->adam_eps; w[1] = c->time_limit_terminal;
        h = s2r__fnv1a(h, w, sizeof w);
    }
    return h;   /* the activations are in the policy image, checked when it loads */
}

static void s2r__ppo_state_header(const s2r_ppo* p, uint64_t* h) {
    memset(h, 0, sizeof(uint64_t) * S2R__S_WORDS);
    h[S2R__S_MAGIC] = S2R__ST_MAGIC;
    h[S2R__S_VERSION] = S2R__ST_VERSION;
    h[S2R__S_SEED] = p->cfg.seed;
    h[S2R__S_TOTAL] = (uint64_t)p->cfg.total_steps;
    h[S2R__S_ENVS] = (uint64_t)p->num_envs;
    h[S2R__S_ROLLOUT] = (uint64_t)p->cfg.rollout_steps;
    h[S2R__S_MINIBATCHES] = (uint64_t)p->cfg.num_minibatches;
    h[S2R__S_EPOCHS] = (uint64_t)p->cfg.update_epochs;
    h[S2R__S_OBS] = (uint64_t)p->obs_dim;
    h[S2R__S_ACT] = (uint64_t)p->act_dim;
    h[S2R__S_HASH] = s2r__ppo_settings_hash(&p->cfg);
    h[S2R__S_UPDATE] = (uint64_t)p->update;
    h[S2R__S_STEP] = (uint64_t)p->global_step;
    h[S2R__S_TASK] = p->cfg.env_identity[0];
    h[S2R__S_RANDOMIZATION] = p->cfg.env_identity[1];
}

static size_t s2r__ppo_state_fixed_bytes(int num_envs) {
    return sizeof(uint64_t) * S2R__S_WORDS + sizeof(s2r_rng) * (1 + 2 * (size_t)num_envs) + 3 * sizeof(double);
}

/* Whether every env's episode ended with the last step of the last
   rollout (the rollout held whole episodes): then each env was just reset,
   and replaying that reset from reset_rng rebuilds it exactly. */
static int s2r__ppo_episodes_fresh(const s2r_ppo* p) {
    const unsigned char* last = p->dones + (size_t)(p->steps_per_env - 1) * p->num_envs;
    int e;
    if (!p->started) return 0;
    for (e = 0; e < p->num_envs; e++)
        if (!last[e]) return 0;
    return 1;
}

/* End every running episode: the next rollout resets all envs. */
static void s2r__ppo_restart_episodes(s2r_ppo* p) {
    p->started = 0;
    memset(p->discounted, 0, sizeof(double) * (size_t)p->num_envs);
    memset(p->episode_return, 0, sizeof(double) * (size_t)p->num_envs);
}

S2RDEF s2r_result s2r_ppo_save_state(s2r_ppo* ppo, const char* path) {
    S2R_ASSERT(ppo);
    if (!path)
        return s2r__fail(ppo->error, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_save_state: path is NULL");
    size_t payload = s2r__ck_payload_bytes(ppo->policy.num_params, ppo->obs_dim, ppo->adam.n);
    size_t image = sizeof(uint32_t) * S2R__CK_HEADER + payload;
    size_t fixed = s2r__ppo_state_fixed_bytes(ppo->num_envs), total = fixed + image;
    unsigned char *buf, *c;
    uint64_t h[S2R__S_WORDS];
    s2r_result r;
    int fresh, e;
    if (!(buf = (unsigned char*)S2R_MALLOC(total))) return s2r__fail(ppo->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    s2r__ppo_state_header(ppo, h);
    h[S2R__S_IMAGE] = image;
    c = buf + sizeof h;
    fresh = s2r__ppo_episodes_fresh(ppo);   /* saved: the streams the next envs reset from */
    s2r__put(&c, &ppo->rng, sizeof(s2r_rng));
    for (e = 0; e < ppo->num_envs; e++)
        s2r__put(&c, fresh ? &s2r__ppo_lane(ppo, e)->reset_rng : &s2r__ppo_lane(ppo, e)->env_rng, sizeof(s2r_rng));
    for (e = 0; e < ppo->num_envs; e++) s2r__put(&c, &s2r__ppo_lane(ppo, e)->act_rng, sizeof(s2r_rng));
    s2r__put(&c, &ppo->reward_norm.count, sizeof(double));
    s2r__put(&c, ppo->reward_norm.mean, sizeof(double));
    s2r__put(&c, ppo->reward_norm.var, sizeof(double));
    s2r__ck_pack(&ppo->policy, &ppo->adam, c, payload);
    h[S2R__S_SUM] = s2r__fnv1a(0xCBF29CE484222325ull, buf + sizeof h, total - sizeof h);
    h[S2R__S_SUM] = s2r__fnv1a(h[S2R__S_SUM], h, sizeof h);
    memcpy(buf, h, sizeof h);
    r = s2r_file_write_all(path, buf, total, ppo->error);
    S2R_FREE(buf);
    if (r == S2R_OK && !fresh) s2r__ppo_restart_episodes(ppo);
    return r;
}

/* The file's header against this run's: S2R_OK or an error naming the
   first difference. */
static s2r_result s2r__ppo_state_match(s2r_ppo* p, const uint64_t* file, const char* path) {
    static const char* const names[S2R__S_HASH + 1] = {"magic", "version", "seed", "total_steps", "num_envs",
        "rollout_steps", "num_minibatches", "update_epochs", "obs_dim", "act_dim", "other PPO settings"};
    uint64_t h[S2R__S_WORDS];
    int i;
    s2r__ppo_state_header(p, h);
    if (file[S2R__S_MAGIC] != S2R__ST_MAGIC)
        return s2r__fail(p->error, S2R_ERR_CORRUPT, "%s: not a sim2real.h training state (bad magic)", path);
    if (file[S2R__S_VERSION] != S2R__ST_VERSION)
        return s2r__fail(p->error, S2R_ERR_CORRUPT, "%s: training state version %llu, this build reads %d", path,
                         (unsigned long long)file[S2R__S_VERSION], S2R__ST_VERSION);
    for (i = S2R__S_SEED; i <= S2R__S_HASH; i++)
        if (file[i] != h[i])
            return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "%s was saved by a run with different %s (%llu, "
                             "this run %llu): start afresh or use the same settings", path, names[i],
                             (unsigned long long)file[i], (unsigned long long)h[i]);
    if (file[S2R__S_TASK] != h[S2R__S_TASK] || file[S2R__S_RANDOMIZATION] != h[S2R__S_RANDOMIZATION])
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT, "%s was saved by a run training on a different %s: "
                         "start afresh or use the same settings", path,
                         file[S2R__S_TASK] != h[S2R__S_TASK] ? "task or arm" : "randomization (ranges, or the unit they were "
                         "re-centred on)");
    if (file[S2R__S_UPDATE] > (uint64_t)p->num_updates)
        return s2r__fail(p->error, S2R_ERR_CORRUPT, "%s: update %llu of %d planned", path,
                         (unsigned long long)file[S2R__S_UPDATE], p->num_updates);
    return S2R_OK;
}

S2RDEF s2r_result s2r_ppo_load_state(s2r_ppo* ppo, const char* path) {
    S2R_ASSERT(ppo);
    if (!path)
        return s2r__fail(ppo->error, S2R_ERR_INVALID_ARGUMENT, "s2r_ppo_load_state: path is NULL");
    size_t n, fixed = s2r__ppo_state_fixed_bytes(ppo->num_envs);
    unsigned char* buf;
    const unsigned char* c;
    uint64_t h[S2R__S_WORDS], sum;
    s2r_result r;
    int e;
    if ((r = s2r__read_file(path, &buf, &n, ppo->error)) != S2R_OK) return r;
    if (n < sizeof h) {
        S2R_FREE(buf);
        return s2r__fail(ppo->error, S2R_ERR_CORRUPT, "%s: too short for a training state (%lu bytes)", path, (unsigned long)n);
    }
    memcpy(h, buf, sizeof h);
    sum = h[S2R__S_SUM];
    h[S2R__S_SUM] = s2r__fnv1a(0xCBF29CE484222325ull, buf + sizeof h, n - sizeof h);
    /* what the file is, then whether it is whole, then whether it is this run's: a flipped bit in a
       setting is corruption, not "another run" */
    r = h[S2R__S_MAGIC] != S2R__ST_MAGIC || h[S2R__S_VERSION] != S2R__ST_VERSION ? s2r__ppo_state_match(ppo, h, path) : S2R_OK;
    if (r == S2R_OK && (n < fixed || h[S2R__S_IMAGE] != n - fixed))
        r = s2r__fail(ppo->error, S2R_ERR_CORRUPT, "%s: %lu bytes, not what the header says (truncated?)", path, (unsigned long)n);
    if (r == S2R_OK && s2r__fnv1a(h[S2R__S_SUM], h, sizeof h) != sum)
        r = s2r__fail(ppo->error, S2R_ERR_CORRUPT, "%s: checksum mismatch (corrupt file)", path);
    if (r == S2R_OK) r = s2r__ppo_state_match(ppo, h, path);
    if (r == S2R_OK && (r = s2r_policy_load_memory(&ppo->policy, &ppo->adam, buf + fixed, n - fixed, path)) != S2R_OK)
        memcpy(ppo->error, ppo->policy.error, S2R_ERROR_LEN);
    if (r == S2R_OK) {   /* validated: nothing below can fail */
        c = buf + sizeof h;
        s2r__get(&c, &ppo->rng, sizeof(s2r_rng));
        for (e = 0; e < ppo->num_envs; e++) s2r__get(&c, &s2r__ppo_lane(ppo, e)->env_rng, sizeof(s2r_rng));
        for (e = 0; e < ppo->num_envs; e++) s2r__get(&c, &s2r__ppo_lane(ppo, e)->act_rng, sizeof(s2r_rng));
        s2r__get(&c, &ppo->reward_norm.count, sizeof(double));
        s2r__get(&c, ppo->reward_norm.mean, sizeof(double));
        s2r__get(&c, ppo->reward_norm.var, sizeof(double));
        ppo->update = (int)h[S2R__S_UPDATE];
        ppo->global_step = (long long)h[S2R__S_STEP];
        s2r__ppo_restart_episodes(ppo);
    }
    S2R_FREE(buf);
    return r;
}

/* --- Learning: the pendulum environment -----------------------------------
   The classic swing-up behind the s2r_env interface. */

S2RDEF void s2r_pendulum_init(s2r_pendulum* p) {
    S2R_ASSERT(p);
    memset(p, 0, sizeof *p);
    p->g = 10.0;
    p->m = 1.0;
    p->l = 1.0;
    p->dt = 0.05;
    p->max_torque = 2.0;
    p->max_speed = 8.0;
    p->max_steps = 200;
    p->needs_reset = 1;
}

/* Angle wrapped to [-pi, pi). */
static double s2r__wrap_angle(double x) {
    const double pi = 3.14159265358979323846;
    return fmod(fmod(x + pi, 2.0 * pi) + 2.0 * pi, 2.0 * pi) - pi;
}

static void s2r__pendulum_obs(const s2r_pendulum* p, float* obs) {
    obs[0] = (float)cos(p->theta);
    obs[1] = (float)sin(p->theta);
    obs[2] = (float)p->theta_dot;
}

static s2r_result s2r__pendulum_reset(void* self, s2r_rng* rng, float* obs) {
    s2r_pendulum* p = (s2r_pendulum*)self;
    p->theta = s2r_rng_range(rng, -3.14159265358979323846, 3.14159265358979323846);
    p->theta_dot = s2r_rng_range(rng, -1.0, 1.0);
    p->t = 0;
    p->needs_reset = 0;
    s2r__pendulum_obs(p, obs);
    return S2R_OK;
}

static s2r_result s2r__pendulum_step(void* self, const float* action,
                                     float* obs, s2r_step_result* out) {
    s2r_pendulum* p = (s2r_pendulum*)self;
    double u, th = s2r__wrap_angle(p->theta), thdot = p->theta_dot;
    if (p->needs_reset)
        return s2r__fail(p->error, S2R_ERR_STATE, "pendulum: step before reset");
    if (!isfinite(action[0]))
        return s2r__fail(p->error, S2R_ERR_INVALID_ARGUMENT,
                         "pendulum: action is NaN or Inf");
    u = p->max_torque * s2r_clamp(action[0], -1.0, 1.0);
    memset(out, 0, sizeof *out);
    out->reward = (float)-(th * th + 0.1 * thdot * thdot + 0.001 * u * u);
    thdot += (3.0 * p->g / (2.0 * p->l) * sin(p->theta) +
              3.0 / (p->m * p->l * p->l) * u) * p->dt;
    p->theta_dot = s2r_clamp(thdot, -p->max_speed, p->max_speed);
    p->theta += p->theta_dot * p->dt;
    p->t++;
    th = s2r__wrap_angle(p->theta);
    out->truncated = out->done = p->t >= p->max_steps;
    out->success = out->done && fabs(th) < 0.1 && fabs(p->theta_dot) < 1.0;
    out->distance = fabs(th);
    p->needs_reset = out->done;
    s2r__pendulum_obs(p, obs);
    return S2R_OK;
}

S2RDEF s2r_env s2r_pendulum_env(s2r_pendulum* p) {
    s2r_env env;
    memset(&env, 0, sizeof env);
    env.self = p;
    env.obs_dim = 3;
    env.act_dim = 1;
    env.reset = s2r__pendulum_reset;
    env.step = s2r__pendulum_step;
    return env;
}

/* >> section: Evaluation
   Flow: s2r_evaluate runs a controller for many episodes (in parallel, each
   with its own stream) and counts successes with Wilson intervals; then
   frame history (a policy with memory) and predicting transfer. */

/* --- Evaluation ------------------------------------------------------------------ */

/* One episode on env (the task's, or it seen through a frame history);
   adds each step's distance into curve (if any). */
static s2r_result s2r__evaluate_episode(const s2r_controller* c, const s2r_env* env, s2r_rng* rng,
                                        double* curve, s2r_step_result* last, double* ret, long long* steps) {
    float obs[S2R_MLP_MAX_WIDTH], action[S2R_MAX_JOINTS];
    s2r_result res = env->reset(env->self, rng, obs);
    int t = 0;
    if (res != S2R_OK) return res;
    if (c->reset) c->reset(c->self);
    *ret = 0;
    do {
        if ((res = c->act(c->self, obs, action)) != S2R_OK) return res;
        if ((res = env->step(env->self, action, obs, last)) != S2R_OK) return res;
        *ret += last->reward;
        if (curve) curve[t] += last->diverged ? 0 : last->distance;
        t++;
    } while (!last->done);
    *steps += t;
    return S2R_OK;
}

S2RDEF s2r_result s2r_evaluate(const s2r_controller* controller, s2r_task* task,
                               int episodes, uint64_t seed, s2r_eval_result* out,
                               double* distance_curve) {
    if (!task)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_evaluate: task is NULL");
    int i, t, steps = task->episode_steps, k, obs_dim;
    double distance = 0, returns = 0;
    s2r_history_env memory;
    s2r_env env = task->env;
    s2r_result res = S2R_OK;
    if (!out) return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "evaluate: out is NULL");
    memset(out, 0, sizeof *out);
    if (!controller || !controller->act) return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "evaluate: no controller");
    if (episodes < 1) return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "evaluate: need at least one episode");
    k = controller->history;
    obs_dim = k >= 0 && k <= S2R_HISTORY_MAX ? s2r_history_obs_dim(task->env.obs_dim, task->env.act_dim, k) : -1;
    if ((controller->obs_dim && controller->obs_dim != obs_dim) ||
        (controller->act_dim && controller->act_dim != task->env.act_dim))
        return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "evaluate: the controller takes %d observations and "
                         "gives %d actions, the %s task on %s has %d (with %d frames of history) and %d (made for "
                         "another arm or task?)", controller->obs_dim, controller->act_dim, s2r_task_kind_name(task->kind),
                         s2r_task_backend(task)->info->name, obs_dim, k, task->env.act_dim);
    if (controller->made_for > 0 && controller->made_for != s2r_made_for(s2r_task_backend(task)->info->kind, task->kind))
        return s2r__fail(task->error, S2R_ERR_INVALID_ARGUMENT, "evaluate: the policy was trained for the %s %s task, "
                         "this is the %s %s task", s2r_robot_kind_name(s2r_made_for_robot(controller->made_for)),
                         s2r_task_kind_name(s2r_made_for_task(controller->made_for)),
                         s2r_robot_kind_name(s2r_task_backend(task)->info->kind), s2r_task_kind_name(task->kind));
    if (k > 0) {   /* the policy remembers: this call's own history, so parallel calls do not share one */
        if ((res = s2r_history_env_init(&memory, &task->env, k)) != S2R_OK)
            return s2r__fail(task->error, res, "evaluate: no memory for %d frames of history", k);
        env = s2r_history_env_get(&memory);
    }
    if (distance_curve) memset(distance_curve, 0, (size_t)steps * sizeof(double));
    for (i = 0; i < episodes && res == S2R_OK; i++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)i);
        s2r_step_result last;
        double ret;
        if ((res = s2r__evaluate_episode(controller, &env, &rng, distance_curve, &last, &ret, &out->steps)) != S2R_OK) break;
        out->successes += last.success;
        out->diverged += last.diverged;
        distance += last.diverged ? 0 : last.distance;
        returns += ret;
    }
    if (k > 0) s2r_history_env_free(&memory);
    if (res != S2R_OK) return res;
    out->episodes = episodes;
    out->success_rate = (double)out->successes / episodes;
    s2r_wilson_interval(out->successes, episodes, &out->success_lo, &out->success_hi);
    out->mean_distance = out->diverged < episodes ? distance / (episodes - out->diverged) : -1;
    out->mean_return = returns / episodes;
    if (distance_curve)
        for (t = 0; t < steps; t++) distance_curve[t] /= episodes;
    return S2R_OK;
}

static void s2r__expert_controller_reset(void* self) { s2r_expert_reset((s2r_expert*)self); }
static s2r_result s2r__expert_controller_act(void* self, const float* obs, float* action) {
    return s2r_expert_act((s2r_expert*)self, obs, NULL, action, NULL);
}

S2RDEF s2r_controller s2r_expert_controller(s2r_expert* expert) {
    S2R_ASSERT(expert);
    s2r_controller c;
    c.self = expert;
    c.reset = s2r__expert_controller_reset;
    c.act = s2r__expert_controller_act;
    c.obs_dim = expert->obs_dim;
    c.act_dim = expert->act_dim;
    c.made_for = 0;   /* it reads its arm from the task */
    c.history = 0;
    return c;
}

static s2r_result s2r__policy_controller_act(void* self, const float* obs, float* action) {
    return s2r_policy_act((s2r_policy*)self, obs, action, 1, NULL);
}

S2RDEF s2r_controller s2r_policy_controller(s2r_policy* policy) {
    S2R_ASSERT(policy);
    s2r_controller c;
    c.self = policy;
    c.reset = NULL;
    c.act = s2r__policy_controller_act;
    c.obs_dim = policy->shape.obs_dim;
    c.act_dim = policy->shape.act_dim;
    c.made_for = policy->made_for;
    c.history = policy->history;
    return c;
}

/* --- Frame history ----------------------------------------------------------- */

S2RDEF int s2r_history_obs_dim(int obs_dim, int act_dim, int k) { return obs_dim * (k + 1) + act_dim * k; }

S2RDEF s2r_result s2r_frame_history_init(s2r_frame_history* h, int obs_dim, int act_dim, int k) {
    S2R_ASSERT(h);
    memset(h, 0, sizeof *h);
    if (k < 0 || k > S2R_HISTORY_MAX || obs_dim < 1 || act_dim < 1 || obs_dim > 100000 || act_dim > 100000)
        return S2R_ERR_INVALID_ARGUMENT;
    h->k = k;
    h->obs_dim = obs_dim;
    h->act_dim = act_dim;
    if (k == 0) return S2R_OK;
    h->past_obs = (float*)s2r__calloc((size_t)k * obs_dim, sizeof(float));
    h->past_act = (float*)s2r__calloc((size_t)k * act_dim, sizeof(float));
    if (!h->past_obs || !h->past_act) {
        s2r_frame_history_free(h);
        return S2R_ERR_OUT_OF_MEMORY;
    }
    return S2R_OK;
}

S2RDEF void s2r_frame_history_free(s2r_frame_history* h) {
    if (!h) return;
    if (h->past_obs) S2R_FREE(h->past_obs);
    if (h->past_act) S2R_FREE(h->past_act);
    memset(h, 0, sizeof *h);
}

S2RDEF void s2r_frame_history_reset(s2r_frame_history* h, const float* obs) {
    int i;
    S2R_ASSERT(h && obs);
    for (i = 0; i < h->k; i++) memcpy(h->past_obs + (size_t)i * h->obs_dim, obs, (size_t)h->obs_dim * sizeof(float));
    if (h->k) memset(h->past_act, 0, (size_t)h->k * h->act_dim * sizeof(float));
}

S2RDEF void s2r_frame_history_stack(const s2r_frame_history* h, const float* obs, float* out) {
    S2R_ASSERT(h && obs && out);
    size_t o = (size_t)h->obs_dim, a = (size_t)h->act_dim, k = (size_t)h->k;
    memcpy(out, obs, o * sizeof(float));
    if (!k) return;
    memcpy(out + o, h->past_obs, k * o * sizeof(float));
    memcpy(out + o + k * o, h->past_act, k * a * sizeof(float));
}

S2RDEF void s2r_frame_history_push(s2r_frame_history* h, const float* obs, const float* act) {
    S2R_ASSERT(h && obs && act);
    size_t o = (size_t)h->obs_dim, a = (size_t)h->act_dim, k = (size_t)h->k;
    if (!k) return;
    memmove(h->past_obs + o, h->past_obs, (k - 1) * o * sizeof(float));   /* older frames move back */
    memmove(h->past_act + a, h->past_act, (k - 1) * a * sizeof(float));
    memcpy(h->past_obs, obs, o * sizeof(float));
    memcpy(h->past_act, act, a * sizeof(float));
}

static s2r_result s2r__history_env_reset(void* self, s2r_rng* rng, float* obs) {
    s2r_history_env* he = (s2r_history_env*)self;
    s2r_result res = he->inner.reset(he->inner.self, rng, he->raw);
    if (res != S2R_OK) return res;
    s2r_frame_history_reset(&he->history, he->raw);
    s2r_frame_history_stack(&he->history, he->raw, obs);
    return S2R_OK;
}

static s2r_result s2r__history_env_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    s2r_history_env* he = (s2r_history_env*)self;
    s2r_result res;
    s2r_frame_history_push(&he->history, he->raw, action);   /* the step's own observation and action */
    res = he->inner.step(he->inner.self, action, he->raw, out);
    if (res == S2R_OK) s2r_frame_history_stack(&he->history, he->raw, obs);
    return res;
}

S2RDEF s2r_result s2r_history_env_init(s2r_history_env* he, const s2r_env* inner, int k) {
    s2r_result res;
    S2R_ASSERT(he);
    memset(he, 0, sizeof *he);
    if (!inner || !inner->reset || !inner->step) return S2R_ERR_INVALID_ARGUMENT;
    if ((res = s2r_frame_history_init(&he->history, inner->obs_dim, inner->act_dim, k)) != S2R_OK) return res;
    he->inner = *inner;
    if (!(he->raw = (float*)s2r__calloc((size_t)inner->obs_dim, sizeof(float)))) {
        s2r_history_env_free(he);
        return S2R_ERR_OUT_OF_MEMORY;
    }
    return S2R_OK;
}

S2RDEF void s2r_history_env_free(s2r_history_env* he) {
    if (!he) return;
    s2r_frame_history_free(&he->history);
    if (he->raw) S2R_FREE(he->raw);
    memset(he, 0, sizeof *he);
}

S2RDEF s2r_env s2r_history_env_get(s2r_history_env* he) {
    S2R_ASSERT(he);
    s2r_env e = he->inner;   /* its privileged channel, if any, is the inner one's */
    e.self = he;
    e.obs_dim = s2r_history_obs_dim(he->inner.obs_dim, he->inner.act_dim, he->history.k);
    e.act_dim = he->inner.act_dim;
    e.reset = s2r__history_env_reset;
    e.step = s2r__history_env_step;
    return e;
}

static void s2r__history_controller_reset(void* self) {
    s2r_history_controller* hc = (s2r_history_controller*)self;
    hc->started = 0;
    if (hc->inner.reset) hc->inner.reset(hc->inner.self);
}

static s2r_result s2r__history_controller_act(void* self, const float* obs, float* action) {
    s2r_history_controller* hc = (s2r_history_controller*)self;
    s2r_frame_history* h = &hc->history;
    s2r_result res;
    if (!hc->started) s2r_frame_history_reset(h, obs);
    else s2r_frame_history_push(h, hc->last_obs, hc->last_act);
    hc->started = 1;
    s2r_frame_history_stack(h, obs, hc->stacked);
    if ((res = hc->inner.act(hc->inner.self, hc->stacked, action)) != S2R_OK) return res;
    memcpy(hc->last_obs, obs, (size_t)h->obs_dim * sizeof(float));
    memcpy(hc->last_act, action, (size_t)h->act_dim * sizeof(float));
    return S2R_OK;
}

S2RDEF s2r_result s2r_history_controller_init(s2r_history_controller* hc, const s2r_controller* inner, int obs_dim,
                                              int act_dim, int k) {
    s2r_result res;
    S2R_ASSERT(hc);
    memset(hc, 0, sizeof *hc);
    if (!inner || !inner->act || (inner->obs_dim && inner->obs_dim != s2r_history_obs_dim(obs_dim, act_dim, k)))
        return S2R_ERR_INVALID_ARGUMENT;
    if ((res = s2r_frame_history_init(&hc->history, obs_dim, act_dim, k)) != S2R_OK) return res;
    hc->inner = *inner;
    hc->last_obs = (float*)s2r__calloc((size_t)obs_dim, sizeof(float));
    hc->last_act = (float*)s2r__calloc((size_t)act_dim, sizeof(float));
    hc->stacked = (float*)s2r__calloc((size_t)s2r_history_obs_dim(obs_dim, act_dim, k), sizeof(float));
    if (!hc->last_obs || !hc->last_act || !hc->stacked) {
        s2r_history_controller_free(hc);
        return S2R_ERR_OUT_OF_MEMORY;
    }
    return S2R_OK;
}

S2RDEF void s2r_history_controller_free(s2r_history_controller* hc) {
    if (!hc) return;
    s2r_frame_history_free(&hc->history);
    if (hc->last_obs) S2R_FREE(hc->last_obs);
    if (hc->last_act) S2R_FREE(hc->last_act);
    if (hc->stacked) S2R_FREE(hc->stacked);
    memset(hc, 0, sizeof *hc);
}

S2RDEF s2r_controller s2r_history_controller_get(s2r_history_controller* hc) {
    S2R_ASSERT(hc);
    s2r_controller c = hc->inner;   /* the arm and task it was made for */
    c.self = hc;
    c.reset = s2r__history_controller_reset;
    c.act = s2r__history_controller_act;
    c.obs_dim = hc->inner.obs_dim ? hc->history.obs_dim : 0;
    c.act_dim = hc->inner.act_dim;
    c.history = 0;   /* it stacks them itself */
    return c;
}

/* >> exercise gates: the Wilson interval and Wald's sequential test (course/5_gates) */
#ifndef S2R_EXERCISE_GATES
/* >> solution gates begin */
S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
    const double z = 1.96;
    double p, denom, centre, half;
    S2R_ASSERT(lo && hi);
    if (n <= 0) { *lo = 0; *hi = 1; return; }
    p = (double)k / n;
    denom = 1 + z * z / n;
    centre = (p + z * z / (2.0 * n)) / denom;
    half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
    *lo = fmax(0, centre - half);
    *hi = fmin(1, centre + half);
}
/* >> solution gates end */
#endif /* S2R_EXERCISE_GATES */

S2RDEF void s2r_newcombe_interval(int k1, int n1, int k2, int n2, double* lo, double* hi) {
    double l1, u1, l2, u2;
    double p1 = n1 > 0 ? (double)k1 / n1 : 0, p2 = n2 > 0 ? (double)k2 / n2 : 0, d = p1 - p2;
    S2R_ASSERT(lo && hi);
    s2r_wilson_interval(k1, n1, &l1, &u1);
    s2r_wilson_interval(k2, n2, &l2, &u2);
    *lo = d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
    *hi = d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}

S2RDEF void s2r_eval_merge(s2r_eval_result* a, const s2r_eval_result* b) {
    S2R_ASSERT(a && b);
    int n = a->episodes + b->episodes, ok_a = a->episodes - a->diverged, ok_b = b->episodes - b->diverged;
    a->mean_distance = ok_a + ok_b > 0 ? (a->mean_distance * ok_a + b->mean_distance * ok_b) / (ok_a + ok_b) : -1;
    a->mean_return = n > 0 ? (a->mean_return * a->episodes + b->mean_return * b->episodes) / n : 0;
    a->episodes = n;
    a->steps += b->steps;
    a->successes += b->successes;
    a->diverged += b->diverged;
    a->success_rate = n > 0 ? (double)a->successes / n : 0;
    s2r_wilson_interval(a->successes, n, &a->success_lo, &a->success_hi);
}

/* Evaluate on one backend with a fresh task. */
static s2r_result s2r__evaluate_on(const s2r_controller* c, const s2r_backend* b, const s2r_task_config* config,
                                   int episodes, uint64_t seed, s2r_eval_result* out, char* error) {
    s2r_task task;
    s2r_result res = s2r_task_init(&task, config, b);
    if (res == S2R_OK) res = s2r_evaluate(c, &task, episodes, seed, out, NULL);
    if (res != S2R_OK) s2r__fail(error, res, "evaluation on %s: %s", b->name, task.error);
    s2r_task_free(&task);
    return res;
}

/* On a simulator of `robot` with `physics` (NULL: nominal), the camera
   correction as `task` has it. */
static s2r_result s2r__evaluate_sim(const s2r_controller* c, s2r_robot_kind robot, const s2r_task_config* task,
                                    const s2r_randomization* physics, int episodes, uint64_t seed,
                                    s2r_eval_result* out, char* error) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(task->kind, robot);
    s2r_result res;
    if (physics) sc.randomization = *physics;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) return s2r__fail(error, res, "%s", sim.error);
    res = s2r__evaluate_on(c, &sim.backend, task, episodes, seed, out, error);
    s2r_sim_free(&sim);
    return res;
}

/* Job 0: the simulator (its camera perfect); job u + 1: real unit
   first_unit + u. */
static s2r_result s2r__evaluate_job(const s2r_controller* c, s2r_robot_kind robot, const s2r_task_config* task,
                                    const s2r_randomization* physics, int episodes, uint64_t seed, uint64_t unit,
                                    int job, s2r_eval_result* out, char* error) {
    s2r_result res;
    if (job == 0) {
        s2r_task_config perfect_camera = *task;
        const double none[3] = {0, 0, 0};
        s2r_task_config_set_camera(&perfect_camera, none);
        res = s2r__evaluate_sim(c, robot, &perfect_camera, physics, episodes, seed, out, error);
    } else {
        s2r_real_robot real;
        if ((res = s2r_real_robot_init_scene(&real, robot, s2r_task_scene(task->kind), unit)) != S2R_OK)
            return s2r__fail(error, res, "%s", real.error);
        res = s2r__evaluate_on(c, &real.backend, task, episodes, seed, out, error);
        s2r_real_robot_free(&real);
    }
    return res;
}

/* The gap and its interval, from the counts of sim and real. */
static void s2r__sim_real_gap(s2r_sim_real_eval* e) {
    e->gap = e->sim.success_rate - e->real.success_rate;
    s2r_newcombe_interval(e->sim.successes, e->sim.episodes, e->real.successes, e->real.episodes, &e->gap_lo,
                          &e->gap_hi);
}

S2RDEF s2r_result s2r_evaluate_sim_and_real(const s2r_controller* controller, s2r_robot_kind robot,
                                            const s2r_task_config* task, const s2r_randomization* sim_physics,
                                            int episodes, uint64_t seed, uint64_t first_unit, int units,
                                            s2r_sim_real_eval* out, char* error) {
    if (!controller || !task || !out)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_evaluate_sim_and_real: controller, task or out is NULL");
    s2r_eval_result results[1 + 16];
    s2r_result status[1 + 16];
    char errors[1 + 16][S2R_ERROR_LEN];
    int job;
    memset(out, 0, sizeof *out);
    if (episodes < 1 || units < 1 || units > 16)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "need episodes >= 1 and 1..16 units");
    /* Jobs are independent (own robot, own task, same controller read-only)
       and merged in order, so threads change nothing in the result. */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (job = 0; job <= units; job++)
        status[job] = s2r__evaluate_job(controller, robot, task, sim_physics, episodes, seed,
                                        first_unit + (uint64_t)(job - 1), job, &results[job], errors[job]);
    for (job = 0; job <= units; job++) {
        if (status[job] != S2R_OK) return s2r__fail(error, status[job], "%s", errors[job]);
        if (job == 0) out->sim = results[0];
        else s2r_eval_merge(&out->real, &results[job]);
    }
    s2r__sim_real_gap(out);
    return S2R_OK;
}

S2RDEF void s2r_sim_real_eval_pool(s2r_sim_real_eval* pooled, const s2r_sim_real_eval* one) {
    S2R_ASSERT(pooled && one);
    s2r_eval_merge(&pooled->sim, &one->sim);
    s2r_eval_merge(&pooled->real, &one->real);
    s2r__sim_real_gap(pooled);
}

/* The nominal simulator with parameter p fixed at `value`, checked as a
   simulator would check it. */
static s2r_result s2r__sweep_physics(s2r_robot_kind robot, s2r_task_kind kind, s2r_param p, double value,
                                     s2r_randomization* r, char* error) {
    s2r_sim_config sc = s2r_task_sim_config(kind, robot);
    s2r_sim sim;
    s2r_result res;
    *r = s2r_randomization_none();
    r->p[p].dist = s2r_dist_fixed(value);
    r->p[p].mode = s2r_param_default_mode(p);
    r->p[p].enabled = 1;
    sc.randomization = *r;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK)
        return s2r__fail(error, res, "robustness sweep, %s = %g: %s", s2r_param_name(p), value, sim.error);
    s2r_sim_free(&sim);
    return S2R_OK;
}

S2RDEF s2r_result s2r_robustness_sweep(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, s2r_param p, const double* values,
                                       int count, int episodes, uint64_t seed, s2r_eval_result* out,
                                       char* error) {
    s2r_randomization physics[S2R_SWEEP_MAX];
    s2r_result status[S2R_SWEEP_MAX], res;
    char errors[S2R_SWEEP_MAX][S2R_ERROR_LEN];
    int k;
    if (!controller || !task || !values || !out || count < 1 || count > S2R_SWEEP_MAX || episodes < 1 ||
        (int)p < 0 || p >= S2R_PARAM_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "robustness sweep needs a controller, a task, a "
                         "parameter, 1..%d values with room for their results and episodes >= 1", S2R_SWEEP_MAX);
    for (k = 0; k < count; k++)
        if ((res = s2r__sweep_physics(robot, task->kind, p, values[k], &physics[k], error)) != S2R_OK) return res;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < count; k++)
        status[k] = s2r__evaluate_job(controller, robot, task, &physics[k], episodes, seed, 0, 0, &out[k], errors[k]);
    for (k = 0; k < count; k++)
        if (status[k] != S2R_OK) return s2r__fail(error, status[k], "%s", errors[k]);
    return S2R_OK;
}

S2RDEF const char* s2r_predictor_name(s2r_predictor p) {
    static const char* const names[S2R_PREDICTOR_COUNT] = {"nominal", "dr", "identified", "deployed"};
    return (int)p >= 0 && p < S2R_PREDICTOR_COUNT ? names[p] : "unknown";
}

S2RDEF s2r_result s2r_predict_transfer(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, const s2r_transfer_evidence* evidence,
                                       int episodes, uint64_t seed, s2r_eval_result* out, char* error) {
    if (!task)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_predict_transfer: task is NULL");
    const s2r_randomization* physics[S2R_PREDICTOR_COUNT];
    s2r_task_config perfect = *task, deployed = *task;   /* the simulated cameras */
    s2r_result status[S2R_PREDICTOR_COUNT];
    char errors[S2R_PREDICTOR_COUNT][S2R_ERROR_LEN];
    const double* applied;
    double correction[3], none[3] = {0, 0, 0};
    unsigned given, run;
    int k, copy_deployed;
    if (!controller || !task || !evidence || !out || episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer needs a controller, a task, the "
                         "evidence, room for %d results and episodes >= 1", S2R_PREDICTOR_COUNT);
    memset(out, 0, S2R_PREDICTOR_COUNT * sizeof *out);
    given = 1u << S2R_PREDICT_NOMINAL | (evidence->randomized ? 1u << S2R_PREDICT_DR : 0) |
            (evidence->identified ? 1u << S2R_PREDICT_IDENTIFIED : 0) |
            (evidence->identified && evidence->camera_offset ? 1u << S2R_PREDICT_DEPLOYED : 0);
    run = evidence->predictors ? evidence->predictors : given;
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++)
        if (run & ~given & 1u << k)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: %s asked for without its "
                             "evidence (DR needs the randomized ranges, IDENTIFIED the identified ones, DEPLOYED "
                             "those and the camera offset)", s2r_predictor_name((s2r_predictor)k));
    if (run >> S2R_PREDICTOR_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: predictors 0x%x has bits of no "
                         "predictor", run);
    /* A perfect camera for all but DEPLOYED, which meets what the policy
       will: the measured offset less the applied correction - on a perfect
       camera, a correction of (applied - measured). */
    applied = task->kind == S2R_TASK_PUSH ? task->push.target_correction : task->reach.target_correction;
    for (k = 0; k < 3; k++) correction[k] = evidence->camera_offset ? applied[k] - evidence->camera_offset[k] : 0;
    if (!s2r_all_finite(correction, 3))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: the camera offset must be finite");
    s2r_task_config_set_camera(&perfect, none);
    s2r_task_config_set_camera(&deployed, correction);
    copy_deployed = correction[0] == 0 && correction[1] == 0 && correction[2] == 0 &&
                    (run & 1u << S2R_PREDICT_IDENTIFIED);   /* the same simulator: copied, not run twice */
    physics[S2R_PREDICT_NOMINAL] = NULL;
    physics[S2R_PREDICT_DR] = evidence->randomized;
    physics[S2R_PREDICT_IDENTIFIED] = physics[S2R_PREDICT_DEPLOYED] = evidence->identified;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++) {
        status[k] = S2R_OK;
        if (!(run & 1u << k) || (k == S2R_PREDICT_DEPLOYED && copy_deployed)) continue;
        status[k] = s2r__evaluate_sim(controller, robot, k == S2R_PREDICT_DEPLOYED ? &deployed : &perfect, physics[k],
                                      episodes, seed, &out[k], errors[k]);
    }
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++)
        if (status[k] != S2R_OK)
            return s2r__fail(error, status[k], "predicting transfer, %s: %s", s2r_predictor_name((s2r_predictor)k),
                             errors[k]);
    if (copy_deployed && (run & 1u << S2R_PREDICT_DEPLOYED)) out[S2R_PREDICT_DEPLOYED] = out[S2R_PREDICT_IDENTIFIED];
    return S2R_OK;
}

/* Condition k of an attribution: 0 the unit, 1 nominal, then without /
   only for each effect; its effects-off mask and where its result goes. */
static unsigned s2r__attribution_condition(s2r_gap_attribution* a, int k, s2r_eval_result** out) {
    int e = (k - 2) / 2;
    if (k == 0) { *out = &a->unit; return 0; }
    if (k == 1) { *out = &a->nominal; return S2R_EFFECTS_ALL; }
    if (k % 2 == 0) { *out = &a->without[e]; return 1u << e; }
    *out = &a->only[e];
    return S2R_EFFECTS_ALL & ~(1u << e);
}

S2RDEF s2r_result s2r_attribute_gap(const s2r_controller* controller, s2r_robot_kind robot,
                                    const s2r_task_config* task, uint64_t unit, int episodes, uint64_t seed,
                                    s2r_gap_attribution* out, char* error) {
    enum { CONDITIONS = 2 + 2 * S2R_EFFECT_COUNT };
    const double none[3] = {0, 0, 0};
    s2r_task_config perfect;   /* the task without its camera correction */
    s2r_result status[CONDITIONS];
    char errors[CONDITIONS][S2R_ERROR_LEN];
    s2r_scene scene;
    int k;
    if (!controller || !task || !out || episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "gap attribution needs a controller, a task, room for "
                         "the result and episodes >= 1");
    memset(out, 0, sizeof *out);
    scene = s2r_task_scene(task->kind);
    perfect = *task;
    s2r_task_config_set_camera(&perfect, none);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < CONDITIONS; k++) {
        s2r_eval_result* result;
        unsigned off = s2r__attribution_condition(out, k, &result);
        s2r_real_robot real;
        status[k] = S2R_OK;
        if (k >= 2 && !s2r_effect_in_scene((s2r_effect)((k - 2) / 2), scene)) continue;
        if ((status[k] = s2r_real_robot_init_ablated(&real, robot, scene, unit, off)) != S2R_OK) {
            snprintf(errors[k], S2R_ERROR_LEN, "%s", real.error);
            continue;
        }
        status[k] = s2r__evaluate_on(controller, &real.backend, (off & 1u << S2R_EFFECT_CALIBRATION) ? &perfect : task,
                                     episodes, seed, result, errors[k]);
        s2r_real_robot_free(&real);
    }
    for (k = 0; k < CONDITIONS; k++)
        if (status[k] != S2R_OK) return s2r__fail(error, status[k], "gap attribution: %s", errors[k]);
    return S2R_OK;
}

S2RDEF void s2r_gap_attribution_pool(s2r_gap_attribution* pooled, const s2r_gap_attribution* one) {
    int e;
    S2R_ASSERT(pooled && one);
    s2r_eval_merge(&pooled->unit, &one->unit);
    s2r_eval_merge(&pooled->nominal, &one->nominal);
    for (e = 0; e < S2R_EFFECT_COUNT; e++) {
        s2r_eval_merge(&pooled->without[e], &one->without[e]);
        s2r_eval_merge(&pooled->only[e], &one->only[e]);
    }
}

S2RDEF s2r_result s2r_sim_real_eval_write(const char* path, const char* label, const s2r_sim_real_eval* e,
                                          char* error) {
    if (!label || !e)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_sim_real_eval_write: label or e is NULL");
    s2r_file file;
    FILE* f;
    s2r_result res = s2r_file_create(&file, path, error);
    if (res != S2R_OK) return res;
    f = file.f;
    fprintf(f, "recipe,sim_episodes,sim_successes,sim_success,sim_lo,sim_hi,real_episodes,real_successes,"
               "real_success,real_lo,real_hi,gap,gap_lo,gap_hi,sim_distance_m,real_distance_m\n");
    fprintf(f, "%s,%d,%d,%.4f,%.4f,%.4f,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f\n", label, e->sim.episodes,
            e->sim.successes, e->sim.success_rate, e->sim.success_lo, e->sim.success_hi, e->real.episodes,
            e->real.successes, e->real.success_rate, e->real.success_lo, e->real.success_hi, e->gap, e->gap_lo,
            e->gap_hi, e->sim.mean_distance, e->real.mean_distance);
    return s2r_file_commit(&file, error);
}

S2RDEF void s2r_sim_real_eval_print(const char* label, const s2r_sim_real_eval* e) {
    S2R_ASSERT(e);
    printf("  %-28s sim %5.1f %% [%5.1f, %5.1f]  real %5.1f %% [%5.1f, %5.1f]  gap %5.1f [%5.1f, %5.1f]"
           "  (final distance sim %.1f mm, real %.1f mm)\n",
           label, 100 * e->sim.success_rate, 100 * e->sim.success_lo, 100 * e->sim.success_hi,
           100 * e->real.success_rate, 100 * e->real.success_lo, 100 * e->real.success_hi, 100 * e->gap,
           100 * e->gap_lo, 100 * e->gap_hi, 1000 * e->sim.mean_distance, 1000 * e->real.mean_distance);
}

/* >> section: Demonstrations
   Flow: the operator drives a real unit and every step is recorded
   (s2r_collect_unit_demos); then cloning on them and fine-tuning against
   the policy, kept only if a canary on the unit prefers it. */

/* --- Demonstrations ----------------------------------------------------------- */

S2RDEF s2r_expert_config s2r_operator_config_default(void) {
    s2r_expert_config c = s2r_expert_config_default();
    c.action_noise = 0.05;
    c.reaction_steps = 2;
    return c;
}

/* One demonstration: the operator acts on what it sees; each action is
   recorded with the observation the operator was reacting to (the one
   reaction_steps earlier), so the pair is the operator's decision and not
   an artefact of its delay.  The first reaction_steps steps, before the
   operator reacts, are not recorded. */
static s2r_result s2r__demo_episode(s2r_task* task, s2r_expert* op, s2r_rng* rng, s2r_dataset* data, int* success) {
    float history[8][S2R_MLP_MAX_WIDTH], action[S2R_MAX_JOINTS];   /* [t mod 8]: observation at step t */
    int k = op->config.reaction_steps, t = 0;
    const s2r_env* env = &task->env;
    s2r_ground_truth gt;
    double seen[6];   /* the operator's eyes: reach's target; push's object and goal */
    s2r_step_result r;
    s2r_result res = env->reset(env->self, rng, history[0]);
    if (res != S2R_OK) return res;
    s2r_expert_reset(op);
    do {
        s2r_backend_ground_truth(s2r_task_backend(task), &gt);
        memcpy(seen, task->kind == S2R_TASK_PUSH ? gt.object : gt.target, 3 * sizeof(double));
        memcpy(seen + 3, gt.target, 3 * sizeof(double));
        res = s2r_expert_act(op, history[t % 8], seen, action, rng);
        if (res != S2R_OK) return res;
        if (t >= k && (res = s2r_dataset_append(data, history[(t - k) % 8], action)) != S2R_OK) return res;
        if ((res = env->step(env->self, action, history[(t + 1) % 8], &r)) != S2R_OK) return res;
        t++;
    } while (!r.done);
    *success = r.success;
    return S2R_OK;
}

/* Episodes first .. first + episodes - 1 (stream i of seed for episode i). */
static s2r_result s2r__collect_demos(const s2r_backend* robot, const s2r_task_config* config,
                                     const s2r_expert_config* op, int first, int episodes, uint64_t seed,
                                     s2r_dataset* data, int* successes, char* error) {
    s2r_task task;
    s2r_expert expert;
    s2r_result res;
    int i, ok = 0;
    if (episodes < 0) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demos: negative episode count");
    if ((res = s2r_task_init(&task, config, robot)) != S2R_OK) {
        s2r__fail(error, res, "%s", task.error);
        s2r_task_free(&task);
        return res;
    }
    if (data->obs_dim != task.env.obs_dim || data->act_dim != task.env.act_dim) {
        s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demos: dataset is %dx%d, the task needs %dx%d", data->obs_dim,
                  data->act_dim, task.env.obs_dim, task.env.act_dim);   /* said before the task is freed */
        s2r_task_free(&task);
        return S2R_ERR_INVALID_ARGUMENT;
    }
    if ((res = s2r_expert_init(&expert, op, config, robot->info)) != S2R_OK) {
        s2r_task_free(&task);
        return s2r__fail(error, res, "%s", expert.error);
    }
    for (i = first; i < first + episodes && res == S2R_OK; i++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)i);
        int success = 0;
        res = s2r__demo_episode(&task, &expert, &rng, data, &success);
        ok += success;
    }
    if (res != S2R_OK) s2r__fail(error, res, "demos: %s%s", task.error, expert.error);
    if (successes) *successes = ok;
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    return res;
}

S2RDEF s2r_result s2r_collect_demos(const s2r_backend* robot, const s2r_task_config* task,
                                    const s2r_expert_config* op, int episodes, uint64_t seed,
                                    s2r_dataset* data, int* successes, char* error) {
    if (!op || !data)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_collect_demos: op or data is NULL");
    return s2r__collect_demos(robot, task, op, 0, episodes, seed, data, successes, error);
}

/* One worker of s2r_collect_unit_demos: its own copy of the unit. */
static s2r_result s2r__collect_unit_part(s2r_robot_kind robot, uint64_t unit, const s2r_task_config* task,
                                         const s2r_expert_config* op, int first, int episodes, uint64_t seed,
                                         s2r_dataset* part, int* successes, char* error) {
    s2r_real_robot real;
    s2r_result res = s2r_real_robot_init_scene(&real, robot, s2r_task_scene(task->kind), unit);
    if (res != S2R_OK) return s2r__fail(error, res, "%s", real.error);
    res = s2r__collect_demos(&real.backend, task, op, first, episodes, seed, part, successes, error);
    s2r_real_robot_free(&real);
    return res;
}

S2RDEF s2r_result s2r_collect_unit_demos(s2r_robot_kind robot, uint64_t unit, const s2r_task_config* task,
                                         const s2r_expert_config* op, int episodes, uint64_t seed, int threads,
                                         s2r_dataset* data, int* successes, char* error) {
    s2r_dataset parts[S2R_DEMO_THREADS_MAX];
    s2r_result status[S2R_DEMO_THREADS_MAX];
    char errors[S2R_DEMO_THREADS_MAX][S2R_ERROR_LEN];
    int ok[S2R_DEMO_THREADS_MAX] = {0}, t, i;
    if (!task || !op || !data)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_collect_unit_demos: task, op or data is NULL");
    if (threads < 1 || threads > S2R_DEMO_THREADS_MAX)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demos: 1..%d threads, not %d", S2R_DEMO_THREADS_MAX, threads);
    for (t = 0; t < threads; t++) {
        errors[t][0] = '\0';
        status[t] = s2r_dataset_init(&parts[t], data->obs_dim, data->act_dim);
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
    for (t = 0; t < threads; t++) {
        int first = episodes * t / threads, count = episodes * (t + 1) / threads - first;
        if (status[t] == S2R_OK)
            status[t] = s2r__collect_unit_part(robot, unit, task, op, first, count, seed, &parts[t], &ok[t], errors[t]);
    }
    if (successes) *successes = 0;
    for (t = 0; t < threads; t++) {   /* in episode order, whatever the thread count */
        for (i = 0; status[t] == S2R_OK && i < parts[t].count; i++)
            status[t] = s2r_dataset_append(data, parts[t].obs + (size_t)i * data->obs_dim, parts[t].act + (size_t)i * data->act_dim);
        if (successes) *successes += ok[t];
        s2r_dataset_free(&parts[t]);
    }
    for (t = 0; t < threads; t++)
        if (status[t] != S2R_OK) return s2r__fail(error, status[t], "%s", errors[t][0] ? errors[t] : data->error);
    return S2R_OK;
}

/* `epochs` passes of behaviour cloning with config `cfg`. */
static s2r_result s2r__clone(s2r_policy* policy, const s2r_dataset* demos, const s2r_bc_config* cfg, int epochs,
                             char* error) {
    s2r_bc bc;
    s2r_result res;
    int e;
    if ((res = s2r_bc_init(&bc, cfg, policy)) != S2R_OK) return s2r__fail(error, res, "%s", bc.error);
    for (e = 0; e < epochs && res == S2R_OK; e++) res = s2r_bc_epoch(&bc, demos, NULL);
    if (res != S2R_OK) s2r__fail(error, res, "%s", bc.error);
    s2r_bc_free(&bc);
    return res;
}

S2RDEF s2r_result s2r_clone_demos(s2r_policy* policy, const s2r_dataset* demos, int finetune,
                                  int epochs, uint64_t seed, char* error) {
    if (!demos)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_clone_demos: demos is NULL");
    s2r_bc_config cfg = finetune ? s2r_bc_config_finetune() : s2r_bc_config_default();
    if (epochs < 1 || demos->count < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "cloning needs at least one epoch and one demonstration step");
    cfg.seed = seed;
    return s2r__clone(policy, demos, &cfg, epochs, error);
}

/* Which of s2r_finetune_on_unit's candidates its canary rates (S2R_KEPT_*
   order) keep: a fine-tune must be strictly better than the policy as it
   was, and than the fine-tune before it. */
static int s2r__canary_pick(const double rate[3]) {
    int best = S2R_KEPT_UNCHANGED;
    if (rate[S2R_KEPT_FOLLOWING] > rate[best]) best = S2R_KEPT_FOLLOWING;
    if (rate[S2R_KEPT_OWN_ACTIONS] > rate[best]) best = S2R_KEPT_OWN_ACTIONS;
    return best;
}

/* One candidate of s2r_finetune_on_unit: fine-tune from `start` with the
   given start_weight, then run the canary. */
static s2r_result s2r__finetune_candidate(s2r_policy* policy, const float* start, const s2r_dataset* demos,
                                          int epochs, uint64_t seed, float start_weight, const s2r_backend* robot,
                                          const s2r_task_config* task, int canary_episodes, uint64_t canary_seed,
                                          double* success, char* error) {
    s2r_bc_config cfg = s2r_bc_config_finetune();
    s2r_controller c = s2r_policy_controller(policy);
    s2r_eval_result canary;
    s2r_result res;
    memset(&canary, 0, sizeof canary);
    memcpy(policy->params, start, sizeof(float) * (size_t)policy->num_actor_params);
    cfg.seed = seed;
    cfg.start_weight = start_weight;
    res = s2r__clone(policy, demos, &cfg, epochs, error);
    if (res == S2R_OK) res = s2r__evaluate_on(&c, robot, task, canary_episodes, canary_seed, &canary, error);
    *success = canary.success_rate;
    return res;
}

S2RDEF s2r_result s2r_finetune_on_unit(s2r_policy* policy, const s2r_dataset* demos, int epochs, uint64_t seed,
                                       const s2r_backend* robot, const s2r_task_config* task,
                                       int canary_episodes, uint64_t canary_seed,
                                       double canary_success[3], int* kept, char* error) {
    if (!policy || !demos)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_finetune_on_unit: policy or demos is NULL");
    size_t n = (size_t)policy->num_actor_params;
    s2r_controller c = s2r_policy_controller(policy);
    s2r_eval_result as_it_was;
    float *start, *first;
    double rate[3] = {0, 0, 0};
    s2r_result res;
    int best = S2R_KEPT_UNCHANGED;
    if (epochs < 1 || demos->count < 1 || canary_episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "fine-tuning on a unit needs at least one epoch, one "
                         "demonstration step and one canary episode");
    start = (float*)S2R_MALLOC(2 * n * sizeof(float));
    if (!start) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    first = start + n;
    memcpy(start, policy->params, n * sizeof(float));
    memset(&as_it_was, 0, sizeof as_it_was);
    res = s2r__evaluate_on(&c, robot, task, canary_episodes, canary_seed, &as_it_was, error);   /* the incumbent */
    rate[S2R_KEPT_UNCHANGED] = as_it_was.success_rate;
    if (res == S2R_OK)
        res = s2r__finetune_candidate(policy, start, demos, epochs, seed, 0.0f, robot, task, canary_episodes,
                                      canary_seed, &rate[S2R_KEPT_FOLLOWING], error);
    if (res == S2R_OK) {   /* the second fine-tune stays in policy->params */
        memcpy(first, policy->params, n * sizeof(float));
        res = s2r__finetune_candidate(policy, start, demos, epochs, seed, 1.0f, robot, task, canary_episodes,
                                      canary_seed, &rate[S2R_KEPT_OWN_ACTIONS], error);
    }
    if (res == S2R_OK) best = s2r__canary_pick(rate);   /* on an error the policy stays as it was */
    if (best == S2R_KEPT_UNCHANGED) memcpy(policy->params, start, n * sizeof(float));
    else if (best == S2R_KEPT_FOLLOWING) memcpy(policy->params, first, n * sizeof(float));
    if (canary_success) memcpy(canary_success, rate, sizeof rate);
    if (kept) *kept = best;
    S2R_FREE(start);
    return res;
}

/* >> section: Training
   Flow: simulators of a task as PPO environments, s2r_train (the whole run:
   environments, PPO, checkpoints, the learning curve), then automatic
   domain randomization (s2r__adr_env_reset, s2r__adr_judge). */

/* --- Training a policy --------------------------------------------------------- */

S2RDEF s2r_training s2r_training_default(s2r_robot_kind robot, s2r_task_kind kind) {
    s2r_training t;
    memset(&t, 0, sizeof t);
    t.robot = robot;
    t.randomization = s2r_randomization_none();
    t.task = s2r_task_config_default(kind);
    t.label = "ppo";
    t.progress = 1;
    t.state_every = 10;
    return t;
}

S2RDEF long long s2r_task_training_steps(s2r_task_kind kind, int warm) {
    if (kind == S2R_TASK_PUSH) return warm ? 200000 : 600000;
    return warm ? 80000 : 200000;
}

S2RDEF s2r_ppo_config s2r_task_ppo_config(s2r_task_kind kind, long long total_steps, uint64_t seed, int threads) {
    s2r_ppo_config c = s2r_ppo_config_default();
    (void)kind;   /* the same settings learn both tasks */
    c.total_steps = total_steps;
    c.num_envs = 8;
    c.rollout_steps = 4000;
    c.init_log_std = -0.5f;
    c.learning_rate = 1e-3f;
    c.update_epochs = 5;
    c.seed = seed;
    c.num_threads = threads;
    return c;
}

/* --- Automatic domain randomization ---------------------------------------- */

S2RDEF s2r_adr_config s2r_adr_config_default(void) {
    s2r_adr_config c;
    c.start_fraction = 0.0;
    c.limit_scale = 2.0;
    c.step_fraction = 0.125;
    c.boundary_probability = 0.5;
    c.buffer = 16;
    c.widen_at = 0.8;
    c.narrow_at = 0.4;
    return c;
}

static s2r_result s2r__adr_check_config(const s2r_adr_config* c, char* error) {
    if (!(c->start_fraction >= 0 && c->start_fraction <= 1) || !(c->step_fraction > 0 && c->step_fraction <= 1) ||
        !(c->boundary_probability >= 0 && c->boundary_probability <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr: start_fraction and boundary_probability must be in [0, 1], "
                         "step_fraction in (0, 1]");
    if (!(c->limit_scale >= 1) || !isfinite(c->limit_scale) || c->buffer < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr: need limit_scale >= 1 (finite) and buffer >= 1, got %g and %d",
                         c->limit_scale, c->buffer);
    if (!(c->narrow_at >= 0 && c->narrow_at < c->widen_at && c->widen_at <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr: need 0 <= narrow_at < widen_at <= 1, got %g and %g",
                         c->narrow_at, c->widen_at);
    return S2R_OK;
}

/* Note the current range of p as a change after the current update. */
static s2r_result s2r__adr_log(s2r_adr* a, s2r_param p) {
    s2r_adr_change* c;
    if (a->n_changes == a->capacity) {
        int cap = a->capacity ? 2 * a->capacity : 64;
        s2r_adr_change* grown = (s2r_adr_change*)S2R_REALLOC(a->changes, (size_t)cap * sizeof *grown);
        if (!grown) return s2r__fail(a->error, S2R_ERR_OUT_OF_MEMORY, "adr: out of memory for the change log");
        a->changes = grown;
        a->capacity = cap;
    }
    c = &a->changes[a->n_changes++];
    c->update = a->update;
    c->param = p;
    c->lo = a->current.p[p].dist.lo;
    c->hi = a->current.p[p].dist.hi;
    return S2R_OK;
}

S2RDEF s2r_result s2r_adr_init(s2r_adr* adr, const s2r_adr_config* config, const s2r_randomization* training) {
    s2r_result res;
    int p;
    S2R_ASSERT(adr);
    memset(adr, 0, sizeof *adr);
    if (!config || !training) return s2r__fail(adr->error, S2R_ERR_INVALID_ARGUMENT, "adr: config and training ranges are required");
    if ((res = s2r__adr_check_config(config, adr->error)) != S2R_OK) return res;
    if ((res = s2r_randomization_check(training, adr->error)) != S2R_OK) return res;
    adr->config = *config;
    adr->training = adr->limits = adr->current = *training;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range* e = &training->p[p];
        double lo, hi, centre, half, width;
        if (!e->enabled || (e->dist.kind != S2R_DIST_UNIFORM && e->dist.kind != S2R_DIST_LOG_UNIFORM)) continue;
        s2r_dist_support(&e->dist, &lo, &hi);
        if (!(hi > lo)) continue;   /* a point: nothing to grow */
        centre = 0.5 * (lo + hi);
        half = 0.5 * (hi - lo) * config->limit_scale;
        width = 0.5 * config->start_fraction * (hi - lo);
        /* the limit stays where the parameter may go: >= 0, a scale above half the training low end */
        adr->limits.p[p].dist = s2r_dist_uniform(
            s2r__params[p].sign == S2R__NONNEG ? fmax(centre - half, 0) :
            s2r__params[p].sign == S2R__POSITIVE ? fmax(centre - half, 0.5 * lo) : centre - half, centre + half);
        adr->current.p[p].dist = s2r_dist_uniform(centre - width, centre + width);
        adr->param[adr->n_params++] = (s2r_param)p;
        if ((res = s2r__adr_log(adr, (s2r_param)p)) != S2R_OK) { s2r_adr_free(adr); return res; }
    }
    if (adr->n_params == 0) {
        s2r_adr_free(adr);
        return s2r__fail(adr->error, S2R_ERR_INVALID_ARGUMENT, "adr: the training ranges enable no uniform range to adapt");
    }
    if ((res = s2r_randomization_check(&adr->limits, adr->error)) != S2R_OK) { s2r_adr_free(adr); return res; }
    return S2R_OK;
}

S2RDEF void s2r_adr_free(s2r_adr* adr) {
    if (!adr) return;
    if (adr->changes) S2R_FREE(adr->changes);
    adr->changes = NULL;
    adr->n_changes = adr->capacity = 0;
}

S2RDEF s2r_result s2r_adr_write_csv(const s2r_adr* adr, const char* path, char* error) {
    s2r_file file;
    s2r_result res;
    int i;
    if (!adr || !path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr: nothing to write");
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    fprintf(file.f, "update,parameter,lo,hi\n");
    for (i = 0; i < adr->n_changes; i++)
        fprintf(file.f, "%d,%s,%.9g,%.9g\n", adr->changes[i].update, s2r_param_name(adr->changes[i].param),
                adr->changes[i].lo, adr->changes[i].hi);
    return s2r_file_commit(&file, error);
}

/* One environment under ADR: picks the episode's edge at reset, pins it on
   its simulator, and counts the edge's episodes until the next update. */
typedef struct s2r__adr_env {
    s2r_env        inner;
    s2r_sim*       sim;
    const s2r_adr* adr;
    int            param, side;                           /* this episode's edge; param -1: none */
    int            tried[S2R_PARAM_COUNT][2], succeeded[S2R_PARAM_COUNT][2];   /* since the last update */
} s2r__adr_env;

static s2r_result s2r__adr_env_reset(void* self, s2r_rng* rng, float* obs) {
    s2r__adr_env* e = (s2r__adr_env*)self;
    const s2r_adr* a = e->adr;
    s2r_randomization r = a->current;
    s2r_result res;
    e->param = -1;
    if (s2r_rng_uniform(rng) < a->config.boundary_probability) {
        const s2r_dist* d;
        e->param = a->param[s2r_rng_int(rng, a->n_params)];
        e->side = s2r_rng_int(rng, 2);
        d = &a->current.p[e->param].dist;
        r.p[e->param].dist = s2r_dist_fixed(e->side ? d->hi : d->lo);
    }
    if ((res = s2r_sim_set_randomization(e->sim, &r)) != S2R_OK) return res;
    return e->inner.reset(e->inner.self, rng, obs);
}

static s2r_result s2r__adr_env_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    s2r__adr_env* e = (s2r__adr_env*)self;
    s2r_result res = e->inner.step(e->inner.self, action, obs, out);
    if (res == S2R_OK && out->done && e->param >= 0) {
        e->tried[e->param][e->side]++;
        e->succeeded[e->param][e->side] += out->success != 0;
        e->param = -1;
    }
    return res;
}

/* After an update: pool the environments' counts (in their order) and
   judge every edge that has `buffer` episodes. */
static s2r_result s2r__adr_judge(s2r_adr* a, s2r__adr_env* const* envs, int count) {
    const s2r_adr_config* c = &a->config;
    int k, side, i;
    a->update++;
    for (k = 0; k < a->n_params; k++) {
        s2r_param p = a->param[k];
        for (side = 0; side < 2; side++) {
            double lo, hi, rate, step, centre, before, *end;
            s2r_result res;
            for (i = 0; i < count; i++) {
                a->tried[p][side] += envs[i]->tried[p][side];
                a->succeeded[p][side] += envs[i]->succeeded[p][side];
                envs[i]->tried[p][side] = envs[i]->succeeded[p][side] = 0;
            }
            if (a->tried[p][side] < c->buffer) continue;
            rate = (double)a->succeeded[p][side] / a->tried[p][side];
            a->tried[p][side] = a->succeeded[p][side] = 0;
            if (rate > c->narrow_at && rate < c->widen_at) continue;
            s2r_dist_support(&a->training.p[p].dist, &lo, &hi);
            step = c->step_fraction * (hi - lo);
            centre = 0.5 * (lo + hi);
            end = side ? &a->current.p[p].dist.hi : &a->current.p[p].dist.lo;
            before = *end;
            if (rate >= c->widen_at) *end = side ? fmin(*end + step, a->limits.p[p].dist.hi) : fmax(*end - step, a->limits.p[p].dist.lo);
            else *end = side ? fmax(*end - step, centre) : fmin(*end + step, centre);
            if (*end != before && (res = s2r__adr_log(a, p)) != S2R_OK) return res;
        }
    }
    return S2R_OK;
}

static s2r_result s2r__sim_env_privileged(void* sim, float* out) {
    s2r_sim_privileged((const s2r_sim*)sim, out);
    return S2R_OK;
}

/* One environment's objects: the simulator, the task on it and the
   wrappers around it (those training asks for). */
typedef struct s2r__task_env_objects {
    s2r_sim         sim;
    s2r_task        task;
    s2r__adr_env    adr;       /* under automatic DR */
    s2r_history_env history;   /* with a frame history */
} s2r__task_env_objects;

/* N simulators with the task, exposed as environments.  Each environment's
   objects sit in cache lines of their own (the thread stepping it writes
   nothing another thread writes). */
typedef struct s2r__task_envs {
    int              count;
    unsigned char*   objects;   /* [count], stride bytes apart */
    size_t           stride;
    void*            block;     /* the allocation objects sits in */
    s2r__adr_env**   adr;       /* [count] each env's ADR wrapper; NULL without ADR */
    s2r_env*         envs;      /* [count] what PPO steps */
} s2r__task_envs;

static s2r__task_env_objects* s2r__task_env_at(const s2r__task_envs* v, int i) {
    return (s2r__task_env_objects*)(v->objects + (size_t)i * v->stride);
}

static void s2r__task_envs_free(s2r__task_envs* v) {
    int i;
    for (i = 0; v->objects && i < v->count; i++) {
        s2r__task_env_objects* o = s2r__task_env_at(v, i);
        s2r_history_env_free(&o->history);
        s2r_task_free(&o->task);
        s2r_sim_free(&o->sim);
    }
    S2R_FREE(v->block);
    S2R_FREE(v->adr);
    S2R_FREE(v->envs);
    memset(v, 0, sizeof *v);
}

static s2r_result s2r__task_envs_init(s2r__task_envs* v, const s2r_training* t, int count, char* error) {
    s2r_sim_config sc = s2r_task_sim_config(t->task.kind, t->robot);
    int i;
    memset(v, 0, sizeof *v);
    sc.randomization = t->adr ? t->adr->limits : t->randomization;   /* under ADR: sized for the widest */
    if (t->robot == S2R_ROBOT_CUSTOM) sc.mjcf_path = t->mjcf_path;
    v->objects = (unsigned char*)s2r__calloc_lines((size_t)count, sizeof(s2r__task_env_objects), &v->stride, &v->block);
    v->envs = (s2r_env*)s2r__calloc((size_t)count, sizeof *v->envs);
    if (t->adr) v->adr = (s2r__adr_env**)s2r__calloc((size_t)count, sizeof *v->adr);
    v->count = count;
    if (!v->objects || !v->envs || (t->adr && !v->adr)) {
        s2r__task_envs_free(v);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for environments");
    }
    for (i = 0; i < count; i++) {
        s2r__task_env_objects* o = s2r__task_env_at(v, i);
        s2r_result res = s2r_sim_init(&o->sim, &sc);
        if (res == S2R_OK) res = s2r_task_init(&o->task, &t->task, &o->sim.backend);
        if (res != S2R_OK) {
            s2r__fail(error, res, "environment %d: %s", i, o->sim.error[0] ? o->sim.error : o->task.error);
            s2r__task_envs_free(v);
            return res;
        }
        v->envs[i] = o->task.env;
        if (v->adr) {   /* innermost: it needs the task's own episode ends */
            s2r__adr_env* e = v->adr[i] = &o->adr;
            e->inner = o->task.env;
            e->sim = &o->sim;
            e->adr = t->adr;
            e->param = -1;
            v->envs[i].self = e;
            v->envs[i].reset = s2r__adr_env_reset;
            v->envs[i].step = s2r__adr_env_step;
        }
        if (t->history > 0) {
            if ((res = s2r_history_env_init(&o->history, &v->envs[i], t->history)) != S2R_OK) {
                s2r__task_envs_free(v);
                return s2r__fail(error, res, "environment %d: frame history of %d", i, t->history);
            }
            v->envs[i] = s2r_history_env_get(&o->history);
        }
        if (t->privileged_critic) {   /* from the simulator itself, whatever wraps it */
            v->envs[i].priv_dim = S2R_PRIVILEGED_DIM;
            v->envs[i].priv_self = &o->sim;
            v->envs[i].privileged = s2r__sim_env_privileged;
        }
    }
    return S2R_OK;
}

typedef struct s2r__training_log {
    const s2r_training* t;
    s2r_ppo*       ppo;
    s2r__task_envs* envs;     /* for ADR's judgement after each update */
    char           partial[S2R_PATH_LEN + 16];   /* csv_path.partial, "" without a CSV */
    s2r_ppo_stats* history;   /* [capacity] one per update */
    int            count, capacity;
    s2r_result     save_result;
    int            saved_at;  /* update of the last saved state; -1 none */
} s2r__training_log;

static void s2r__training_record(s2r__training_log* log, const s2r_ppo_stats* s) {
    if (log->count < log->capacity) log->history[log->count++] = *s;
}

/* The rows so far, as a whole file at `path`. */
static s2r_result s2r__training_write_csv(const s2r__training_log* log, const char* path, char* error) {
    s2r_file file;
    s2r_result res = s2r_file_create(&file, path, error);
    int i;
    if (res != S2R_OK) return res;
    s2r_ppo_stats_csv_header(file.f);
    for (i = 0; i < log->count; i++) s2r_ppo_stats_csv_row(file.f, &log->history[i]);
    return s2r_file_commit(&file, error);
}

/* Resuming: keep the rows of the interrupted run's CSV up to the update the
   state was saved at (later ones are computed again). */
static void s2r__training_replay_csv(s2r__training_log* log, const char* path, int upto) {
    unsigned char* text;
    size_t n;
    char* line;
    s2r_ppo_stats s;
    if (s2r__read_file(path, &text, &n, NULL) != S2R_OK) return;
    text[n ? n - 1 : 0] = '\0';   /* the last line is whole (rows end in \n) */
    for (line = (char*)text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (s2r_ppo_stats_csv_parse(line, &s) && s.update >= 1 && s.update <= upto && s.update == log->count + 1)
            s2r__training_record(log, &s);
    S2R_FREE(text);
}

static int s2r__training_callback(const s2r_ppo_stats* s, void* user) {
    s2r__training_log* log = (s2r__training_log*)user;
    const s2r_training* t = log->t;
    s2r__training_record(log, s);
    if (t->adr && (log->save_result = s2r__adr_judge(t->adr, log->envs->adr, log->envs->count)) != S2R_OK) {
        s2r__fail(log->ppo->error, log->save_result, "%s", t->adr->error);
        return 1;
    }
    if (t->progress) {
        printf("  [%s] ", t->label);
        s2r_ppo_print_progress(stdout, s, 0);
        fflush(stdout);
    }
    if (t->state_every > 0 && s->update % t->state_every == 0) {
        if (log->partial[0]) log->save_result = s2r__training_write_csv(log, log->partial, log->ppo->error);
        if (log->save_result == S2R_OK && t->state_path) {
            log->save_result = s2r_ppo_save_state(log->ppo, t->state_path);
            log->saved_at = s->update;
        }
        if (log->save_result != S2R_OK) return 1;
    }
    return s2r_interrupt_requested();
}

/* What the policy and a saved state record of the training: arm, task,
   history, ranges. */
static void s2r__training_identity(const s2r_training* t, s2r_ppo* ppo) {
    ppo->policy.made_for = s2r_made_for(t->robot, t->task.kind);
    ppo->policy.history = t->history;
    ppo->policy.randomization = s2r_randomization_digest(&t->randomization);
    ppo->cfg.env_identity[0] = (uint64_t)ppo->policy.made_for | ((uint64_t)t->history << 32);
    ppo->cfg.env_identity[1] = ppo->policy.randomization;
}

/* Pick up a saved state when asked to (none yet: start afresh). */
static s2r_result s2r__training_resume(const s2r_training* t, s2r_ppo* ppo, char* error) {
    s2r_result res;
    if (!t->resume || !t->state_path || !s2r_file_exists(t->state_path)) return S2R_OK;   /* stat: a FIFO does not block */
    if (t->adr)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "%s: an ADR run cannot be resumed (its ranges are not in the saved "
                         "state); remove the state to start again", t->state_path);
    if ((res = s2r_ppo_load_state(ppo, t->state_path)) != S2R_OK) return s2r__fail(error, res, "%s", ppo->error);
    if (t->progress) printf("  [%s] resumed from %s at update %d/%d\n", t->label, t->state_path, ppo->update, ppo->num_updates);
    return S2R_OK;
}

S2RDEF s2r_result s2r_training_check_resume(const s2r_training* training, s2r_ppo* ppo, char* error) {
    s2r_training quiet;
    if (!training || !ppo) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "check resume: training and ppo are required");
    quiet = *training;
    quiet.progress = 0;   /* s2r_train says where it resumed */
    s2r__training_identity(training, ppo);
    return s2r__training_resume(&quiet, ppo, error);
}

/* The history, with the rows of the run so far when resuming. */
static s2r_result s2r__training_log_open(s2r__training_log* log, const s2r_training* t, s2r_ppo* ppo, char* error) {
    memset(log, 0, sizeof *log);
    log->t = t;
    log->ppo = ppo;
    log->saved_at = -1;
    log->capacity = ppo->num_updates;
    log->history = (s2r_ppo_stats*)s2r__calloc((size_t)log->capacity, sizeof *log->history);
    if (!log->history) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the training history");
    if (!t->csv_path) return S2R_OK;
    if (strlen(t->csv_path) >= S2R_PATH_LEN)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "CSV path longer than %d bytes", S2R_PATH_LEN - 1);
    snprintf(log->partial, sizeof log->partial, "%s.partial", t->csv_path);
    if (ppo->update > 0) {   /* resumed: the rows so far, from the partial or the finished CSV */
        s2r__training_replay_csv(log, log->partial, ppo->update);
        if (log->count < ppo->update) { log->count = 0; s2r__training_replay_csv(log, t->csv_path, ppo->update); }
    }
    return S2R_OK;
}

/* After training: keep the state; on success publish the CSV and curve. */
static s2r_result s2r__training_finish(s2r__training_log* log, s2r_result res, char* error) {
    const s2r_training* t = log->t;
    s2r_ppo* ppo = log->ppo;
    int stopped = res == S2R_OK && ppo->update < ppo->num_updates;
    if (res == S2R_OK && log->save_result != S2R_OK) res = s2r__fail(error, log->save_result, "%s", ppo->error);
    if (res == S2R_OK && t->state_path && log->saved_at != ppo->update &&
        (res = s2r_ppo_save_state(ppo, t->state_path)) != S2R_OK)
        s2r__fail(error, res, "%s", ppo->error);
    if (res == S2R_OK && stopped) {
        res = s2r__fail(error, S2R_ERR_INTERRUPTED, "interrupted at update %d of %d%s%s", ppo->update, ppo->num_updates,
                        t->state_path ? "; state saved to " : " (no state path: nothing saved)",
                        t->state_path ? t->state_path : "");
    }
    if (log->partial[0] && res == S2R_OK) {
        res = s2r__training_write_csv(log, t->csv_path, error);
        if (res == S2R_OK) remove(log->partial);
    } else if (log->partial[0] && (res == S2R_ERR_INTERRUPTED || log->saved_at == ppo->update)) {
        s2r__training_write_csv(log, log->partial, NULL);   /* the rows the saved state continues from */
    }
    S2R_FREE(log->history);
    return res;
}

/* Ctrl-C: the flag s2r_train checks after every update. */
static volatile sig_atomic_t s2r__interrupt_flag = 0;

static void s2r__on_interrupt(int sig) {
    s2r__interrupt_flag = 1;
    signal(sig, SIG_DFL);   /* the second Ctrl-C is not caught */
}

S2RDEF void s2r_interrupt_catch(void) {
    s2r__interrupt_flag = 0;
    signal(SIGINT, s2r__on_interrupt);
    signal(SIGTERM, s2r__on_interrupt);
}

S2RDEF int s2r_interrupt_requested(void) { return s2r__interrupt_flag != 0; }

S2RDEF s2r_result s2r_train(const s2r_training* training, s2r_ppo* ppo, char* error) {
    if (!training || !ppo)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_train: training or ppo is NULL");
    s2r__task_envs envs;
    s2r__training_log log;
    s2r_result res;
    int obs_dim, act_dim;
    if (training->history < 0 || training->history > S2R_HISTORY_MAX)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "history must be 0..%d frames, got %d", S2R_HISTORY_MAX, training->history);
    if (training->robot == S2R_ROBOT_CUSTOM && !training->mjcf_path)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "a custom arm needs its MJCF (mjcf_path)");
    if (training->adr && s2r_randomization_digest(&training->adr->training) != s2r_randomization_digest(&training->randomization))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr was started from other ranges than training.randomization");
    if ((res = s2r__task_envs_init(&envs, training, ppo->num_envs, error)) != S2R_OK) return res;
    obs_dim = envs.envs[0].obs_dim;   /* the sizes of this arm's task, as built */
    act_dim = envs.envs[0].act_dim;
    if (ppo->obs_dim != obs_dim || ppo->act_dim != act_dim)
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "ppo sized %dx%d, the %s %s task needs %dx%d (history %d)",
                        ppo->obs_dim, ppo->act_dim, s2r_robot_kind_name(training->robot), s2r_task_kind_name(training->task.kind),
                        obs_dim, act_dim, training->history);
    if (res == S2R_OK && ppo->cfg.privileged_dim != (training->privileged_critic ? S2R_PRIVILEGED_DIM : 0))
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "the ppo's critic takes %d privileged inputs, the training "
                        "gives %d (privileged_critic %d: make the ppo with privileged_dim %d)", ppo->cfg.privileged_dim,
                        training->privileged_critic ? S2R_PRIVILEGED_DIM : 0, training->privileged_critic,
                        training->privileged_critic ? S2R_PRIVILEGED_DIM : 0);
    s2r__training_identity(training, ppo);
    if (res == S2R_OK) res = s2r__training_resume(training, ppo, error);
    if (res != S2R_OK) {
        s2r__task_envs_free(&envs);
        return res;
    }
    res = s2r__training_log_open(&log, training, ppo, error);
    log.envs = &envs;
    if (res == S2R_OK && (res = s2r_ppo_train(ppo, envs.envs, s2r__training_callback, &log)) != S2R_OK)
        s2r__fail(error, res, "%s", ppo->error);
    res = s2r__training_finish(&log, res, error);
    s2r__task_envs_free(&envs);
    return res;
}

/* >> section: System identification
   Flow: excitation and recording (trajectories, their files, the replay
   backend), then the fit: parameters, the simulator being fitted, the
   loss, coordinate descent (s2r__sysid_descend), how sure the estimate is,
   validation and the re-centred ranges.  Read s2r_sysid_run first. */

/* --- System identification: excitation ------------------------------------- */

static const char* const s2r__excitation_names[S2R_EXCITATION_COUNT] = {"multisine", "chirp"};

S2RDEF const char* s2r_excitation_kind_name(s2r_excitation_kind kind) {
    return (kind >= 0 && kind < S2R_EXCITATION_COUNT) ? s2r__excitation_names[kind] : "unknown";
}

S2RDEF s2r_excitation_config s2r_excitation_config_default(void) {
    s2r_excitation_config c;
    memset(&c, 0, sizeof c);
    c.kind = S2R_EXCITATION_MULTISINE;
    c.amplitude = 0.3;      /* the classic 0.3 sin(...) probe, in rad        */
    c.freq_lo = 0.2;        /* Hz: slow enough to show the gravity droop     */
    c.freq_hi = 3.0;        /* Hz: past the servos' kp/kv corner (~0.8 Hz),  */
                            /* where inertia starts to show                 */
    c.n_sines = 4;
    c.ramp = 0.5;
    c.start_spread = 0.4;
    c.limit_margin = 0.1;
    c.max_speed = 0.5;
    return c;
}

/* x finite and >= 0; else an error naming `field`. */
static s2r_result s2r__excite_nonneg(const char* field, double x, char* error) {
    if (isfinite(x) && x >= 0) return S2R_OK;
    return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation: %s must be finite and >= 0, got %g", field, x);
}

S2RDEF s2r_result s2r_excitation_check(const s2r_excitation_config* c, char* error) {
    s2r_result res;
    if (!c) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation config is NULL");
    if (c->kind < 0 || c->kind >= S2R_EXCITATION_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation: unknown kind %d", (int)c->kind);
    if (!(c->freq_lo > 0) || !(c->freq_lo <= c->freq_hi) || !isfinite(c->freq_hi))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation: need 0 < freq_lo <= freq_hi (Hz), got %g and %g",
                         c->freq_lo, c->freq_hi);
    if (c->n_sines < 1 || c->n_sines > S2R_EXCITATION_MAX_SINES)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation: n_sines must be 1..%d, got %d",
                         S2R_EXCITATION_MAX_SINES, c->n_sines);
    if (!(c->max_speed > 0 && c->max_speed <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation: max_speed must be in (0, 1], got %g", c->max_speed);
    if ((res = s2r__excite_nonneg("amplitude", c->amplitude, error)) != S2R_OK) return res;
    if ((res = s2r__excite_nonneg("ramp", c->ramp, error)) != S2R_OK) return res;
    if ((res = s2r__excite_nonneg("start_spread", c->start_spread, error)) != S2R_OK) return res;
    return s2r__excite_nonneg("limit_margin", c->limit_margin, error);
}

/* Fade-in envelope: 0 at t = 0 rising smoothly to 1 at t = ramp; and its
   slope (per s). */
static double s2r__excite_envelope(double t, double ramp, double* slope) {
    const double pi = 3.141592653589793;
    if (t >= ramp) { *slope = 0; return 1.0; }
    *slope = 0.5 * pi / ramp * sin(pi * t / ramp);
    return 0.5 * (1.0 - cos(pi * t / ramp));
}

/* One joint's signal: frequencies and phases, and the scale (rad) that
   turns the unit signal into a target offset. */
typedef struct s2r__excite_joint {
    int    sines;                            /* sines summed (1 for a chirp)          */
    double f[S2R_EXCITATION_MAX_SINES];      /* Hz; a chirp's start frequency in f[0] */
    double phase[S2R_EXCITATION_MAX_SINES];  /* rad                                   */
    double sweep;                            /* Hz/s, a chirp's frequency slope       */
    double scale;                            /* rad per unit of signal                */
} s2r__excite_joint;

/* Log-spaced frequencies, one random draw per stratum of the band, and
   random phases. */
static void s2r__excite_draw(const s2r_excitation_config* c, double duration, s2r_rng* rng,
                             s2r__excite_joint* e) {
    int m;
    e->sines = c->kind == S2R_EXCITATION_CHIRP ? 1 : c->n_sines;
    for (m = 0; m < e->sines; m++) {
        e->f[m] = c->freq_lo * pow(c->freq_hi / c->freq_lo, (m + s2r_rng_uniform(rng)) / e->sines);
        e->phase[m] = 6.283185307179586 * s2r_rng_uniform(rng);
    }
    if (c->kind == S2R_EXCITATION_CHIRP) e->f[0] = c->freq_lo;
    e->sweep = c->kind == S2R_EXCITATION_CHIRP ? (c->freq_hi - c->freq_lo) / duration : 0;
    e->scale = 1;
}

/* Unit signal at t and its rate (per s), before the envelope. */
static double s2r__excite_unit(const s2r__excite_joint* e, double t, double* rate) {
    const double two_pi = 6.283185307179586;
    double s = 0;
    int m;
    *rate = 0;
    for (m = 0; m < e->sines; m++) {
        double f = e->f[m] + e->sweep * t;   /* instantaneous frequency, Hz */
        double arg = two_pi * (e->f[m] * t + 0.5 * e->sweep * t * t) + e->phase[m];
        s += sin(arg);
        *rate += two_pi * f * cos(arg);
    }
    return s;
}

/* Target offset (rad) at t: scale * envelope * unit signal; speed in rad/s. */
static double s2r__excite_value(const s2r__excite_joint* e, double t, double ramp, double* speed) {
    double rate, slope, env = s2r__excite_envelope(t, ramp, &slope);
    double s = s2r__excite_unit(e, t, &rate);
    *speed = fabs(e->scale * (slope * s + env * rate));
    return e->scale * env * s;
}

/* Scale so the peak offset is the amplitude and the peak speed (at the
   sample instants) stays within max_speed of the joint's speed limit. */
static void s2r__excite_fit(const s2r_excitation_config* c, double velocity_limit, int n,
                            double period, s2r__excite_joint* e) {
    double peak = 1e-12, fastest = 1e-12, speed, rate;
    int k;
    e->scale = 1;
    for (k = 0; k < n; k++) peak = fmax(peak, fabs(s2r__excite_unit(e, k * period, &rate)));
    e->scale = c->amplitude / peak;
    for (k = 0; k < n; k++) { s2r__excite_value(e, k * period, c->ramp, &speed); fastest = fmax(fastest, speed); }
    if (fastest > c->max_speed * velocity_limit) e->scale *= c->max_speed * velocity_limit / fastest;
}

S2RDEF s2r_result s2r_excitation_make(const s2r_excitation_config* c, const s2r_arm_info* info,
                                      int n_samples, double period, s2r_rng* rng,
                                      double* q0, double* command) {
    s2r_result res = s2r_excitation_check(c, NULL);
    s2r__excite_joint e;
    double speed;
    int j, k, n;
    if (res != S2R_OK) return res;
    if (!info || !rng || !q0 || !command || n_samples < 1 || !(period > 0) || !isfinite(period))
        return S2R_ERR_INVALID_ARGUMENT;
    n = info->n_joints;
    for (j = 0; j < n; j++) {
        double lo = info->q_min[j] + c->limit_margin, hi = info->q_max[j] - c->limit_margin;
        if (lo > hi) lo = hi = 0.5 * (info->q_min[j] + info->q_max[j]);
        q0[j] = s2r_clamp(info->q_home[j] + s2r_rng_range(rng, -c->start_spread, c->start_spread), lo, hi);
        s2r__excite_draw(c, n_samples * period, rng, &e);
        s2r__excite_fit(c, info->velocity_limit[j], n_samples, period, &e);
        for (k = 0; k < n_samples; k++)
            command[k * n + j] = s2r_clamp(q0[j] + s2r__excite_value(&e, k * period, c->ramp, &speed), lo, hi);
    }
    return S2R_OK;
}

/* --- System identification: recorded trajectories ------------------------ */

S2RDEF s2r_result s2r_trajectory_set_init(s2r_trajectory_set* set, int n_joints, int n_samples,
                                          int capacity, double sample_period) {
    size_t rows;
    S2R_ASSERT(set);
    memset(set, 0, sizeof *set);
    if (n_joints < 1 || n_joints > S2R_MAX_JOINTS || n_samples < 1 || capacity < 1 ||
        !(sample_period > 0) || !isfinite(sample_period))
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT,
                         "trajectory set: need 1..%d joints, >= 1 sample, >= 1 trajectory and a period > 0 s "
                         "(got %d, %d, %d, %g)", S2R_MAX_JOINTS, n_joints, n_samples, capacity, sample_period);
    rows = (size_t)capacity * (size_t)n_samples;
    set->q0 = (double*)s2r__calloc((size_t)capacity * (size_t)n_joints, sizeof(double));
    set->command = (double*)s2r__calloc(rows * (size_t)n_joints, sizeof(double));
    set->q = (double*)s2r__calloc(rows * (size_t)n_joints, sizeof(double));
    set->qd = (double*)s2r__calloc(rows * (size_t)n_joints, sizeof(double));
    if (!set->q0 || !set->command || !set->q || !set->qd) {
        s2r_trajectory_set_free(set);
        return s2r__fail(set->error, S2R_ERR_OUT_OF_MEMORY, "trajectory set: out of memory for %d x %d samples",
                         capacity, n_samples);
    }
    set->n_joints = n_joints;
    set->n_samples = n_samples;
    set->capacity = capacity;
    set->sample_period = sample_period;
    return S2R_OK;
}

S2RDEF void s2r_trajectory_set_free(s2r_trajectory_set* set) {
    char keep[S2R_ERROR_LEN];
    if (!set) return;
    memcpy(keep, set->error, sizeof keep);
    if (set->q0) S2R_FREE(set->q0);
    if (set->command) S2R_FREE(set->command);
    if (set->q) S2R_FREE(set->q);
    if (set->qd) S2R_FREE(set->qd);
    if (set->object0) S2R_FREE(set->object0);
    if (set->object) S2R_FREE(set->object);
    if (set->source) S2R_FREE(set->source);
    memset(set, 0, sizeof *set);
    memcpy(set->error, keep, sizeof keep);
}

S2RDEF s2r_result s2r_trajectory_set_add_object(s2r_trajectory_set* set) {
    S2R_ASSERT(set);
    if (!set->q) return s2r__fail(set->error, S2R_ERR_STATE, "add object: the set is not initialised");
    if (set->count > 0) return s2r__fail(set->error, S2R_ERR_STATE, "add object: the set already holds trajectories");
    if (set->object) return S2R_OK;
    set->object0 = (double*)s2r__calloc((size_t)set->capacity * 2, sizeof(double));
    set->object = (double*)s2r__calloc((size_t)set->capacity * (size_t)set->n_samples * 2, sizeof(double));
    if (!set->object0 || !set->object) {
        if (set->object0) S2R_FREE(set->object0);
        if (set->object) S2R_FREE(set->object);
        set->object0 = set->object = NULL;
        return s2r__fail(set->error, S2R_ERR_OUT_OF_MEMORY, "add object: out of memory");
    }
    return S2R_OK;
}

/* Offset of trajectory i, sample k, joint 0 in command, q and qd. */
static size_t s2r__traj_at(const s2r_trajectory_set* set, int i, int k) {
    return ((size_t)i * (size_t)set->n_samples + (size_t)k) * (size_t)set->n_joints;
}

/* Start trajectory i on a robot: reset at its start pose and, for a set
   with the object, set the object down.  Recording and replay share it. */
static s2r_result s2r__traj_start(const s2r_trajectory_set* set, const s2r_backend* robot, int i, s2r_rng* rng) {
    s2r_result res = s2r_backend_reset(robot, set->q0 + (size_t)i * set->n_joints, NULL, rng);
    if (res == S2R_OK && set->object0) res = s2r_backend_place_object(robot, set->object0 + 2 * (size_t)i);
    return res;
}

/* Play the stored commands of slot i on the robot and store its readings. */
static s2r_result s2r__traj_play(s2r_trajectory_set* set, const s2r_backend* robot, int i, s2r_rng* rng) {
    int k, n = set->n_joints;
    s2r_sensors s;
    s2r_result res = s2r__traj_start(set, robot, i, rng);
    for (k = 0; k < set->n_samples && res == S2R_OK; k++) {
        size_t at = s2r__traj_at(set, i, k);
        if ((res = s2r_backend_command(robot, set->command + at)) != S2R_OK) break;
        if ((res = s2r_backend_advance(robot, set->sample_period)) != S2R_OK) break;
        if ((res = s2r_backend_read_sensors(robot, &s)) != S2R_OK) break;
        memcpy(set->q + at, s.q, (size_t)n * sizeof(double));
        memcpy(set->qd + at, s.qd, (size_t)n * sizeof(double));
        if (set->object) memcpy(set->object + 2 * ((size_t)i * set->n_samples + k), s.object, 2 * sizeof(double));
    }
    if (res != S2R_OK)
        return s2r__fail(set->error, res, "trajectory %d on '%s': %s", i, robot->name ? robot->name : "backend",
                         robot->error ? robot->error : s2r_result_string(res));
    return S2R_OK;
}

S2RDEF s2r_result s2r_trajectory_record(s2r_trajectory_set* set, const s2r_backend* robot,
                                        const double* q0, const double* object0, const double* command,
                                        s2r_rng* rng) {
    int n, i;
    s2r_result res;
    S2R_ASSERT(set);
    if (!robot || !robot->info || !q0 || !command)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "record: robot, q0 and command are required");
    if (!set->object != !object0 || (object0 && !s2r_all_finite(object0, 2)))
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, set->object ? "record: the set holds the object: give "
                         "where it is set down (finite x, y)" : "record: the set holds no object (s2r_trajectory_set_add_object)");
    n = set->n_joints;
    i = set->count;
    if (i >= set->capacity)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "record: the set is full (capacity %d)", set->capacity);
    if (robot->info->n_joints != n)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "record: the robot has %d joints, the set %d",
                         robot->info->n_joints, n);
    if (!s2r_all_finite(q0, n) || !s2r_all_finite(command, n * set->n_samples))
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "record: start pose or commands contain NaN or Inf");
    memmove(set->q0 + (size_t)i * n, q0, (size_t)n * sizeof(double));
    memmove(set->command + s2r__traj_at(set, i, 0), command, (size_t)n * set->n_samples * sizeof(double));
    if (object0) memmove(set->object0 + 2 * (size_t)i, object0, 2 * sizeof(double));
    res = s2r__traj_play(set, robot, i, rng);
    if (res == S2R_OK) set->count++;
    return res;
}

S2RDEF s2r_result s2r_trajectory_collect(s2r_trajectory_set* set, const s2r_backend* robot,
                                         const s2r_excitation_config* excitation, int count,
                                         uint64_t seed) {
    int t;
    S2R_ASSERT(set);
    if (!robot || !robot->info)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "collect: robot is NULL");
    if (s2r_excitation_check(excitation, set->error) != S2R_OK) return S2R_ERR_INVALID_ARGUMENT;
    if (count < 0 || count > set->capacity - set->count)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "collect: %d trajectories do not fit (%d of %d used)",
                         count, set->count, set->capacity);
    if (robot->info->n_joints != set->n_joints)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "collect: the robot has %d joints, the set %d",
                         robot->info->n_joints, set->n_joints);
    if (set->object)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "collect: the set holds the object; excite the arm "
                         "alone, or record pushes (s2r_trajectory_collect_strikes)");
    for (t = 0; t < count; t++) {
        int i = set->count;
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)t);
        s2r_result res;
        s2r_excitation_make(excitation, robot->info, set->n_samples, set->sample_period, &rng,
                            set->q0 + (size_t)i * set->n_joints, set->command + s2r__traj_at(set, i, 0));
        if ((res = s2r__traj_play(set, robot, i, &rng)) != S2R_OK) return res;
        set->count++;
    }
    return S2R_OK;
}

/* Distance (m) the tip has moved along the strike at time t (s): rest,
   a constant-acceleration ramp to `speed`, cruise until `length`, stop. */
static double s2r__strike_travel(double t, double speed, double length) {
    const double settle = 0.2, ramp = 0.1;
    double d, tau = t - settle;
    if (tau <= 0) return 0;
    d = tau < ramp ? 0.5 * speed / ramp * tau * tau : 0.5 * speed * ramp + speed * (tau - ramp);
    return d < length ? d : length;
}

/* Plan strike i into slot i: the object's place, the tip's start pose and
   the servo targets of its path. */
static s2r_result s2r__strike_plan(s2r_trajectory_set* set, const s2r_arm_info* info, mjData* scratch,
                                   const double heading[3], double speed, s2r_rng* rng, int i) {
    const double gap = 0.02, follow = 0.06, inset = 0.08;
    double* object = set->object0 + 2 * (size_t)i, mid[2], u[2], angle, back, tip[3], q[S2R_MAX_JOINTS];
    int k, n = set->n_joints;
    for (k = 0; k < 2; k++) {
        object[k] = s2r_rng_range(rng, info->push_area_lo[k] + inset, info->push_area_hi[k] - inset);
        mid[k] = 0.5 * (info->push_area_lo[k] + info->push_area_hi[k]);
    }
    angle = atan2(mid[1] - object[1], mid[0] - object[0]) + s2r_rng_range(rng, -0.785398, 0.785398);
    u[0] = cos(angle);
    u[1] = sin(angle);
    back = info->object_radius + info->tip_radius + gap;
    memcpy(q, info->q_home, (size_t)n * sizeof(double));
    for (k = 0; k < set->n_samples; k++) {   /* sample k's target, held from t = k period */
        double s = s2r__strike_travel(k * set->sample_period, speed, gap + follow) - back;
        tip[0] = object[0] + s * u[0];
        tip[1] = object[1] + s * u[1];
        tip[2] = info->table_height + 0.03;
        if (s2r_tip_ik(info, scratch, tip, heading, q, q) > 0.005)
            return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "strike %d: the tip cannot reach (%.3f, %.3f) m", i,
                             tip[0], tip[1]);
        memcpy(set->command + s2r__traj_at(set, i, k), q, (size_t)n * sizeof(double));
        if (k == 0) memcpy(set->q0 + (size_t)i * n, q, (size_t)n * sizeof(double));
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_trajectory_collect_strikes(s2r_trajectory_set* set, const s2r_backend* robot, double speed,
                                                 int count, uint64_t seed) {
    const s2r_arm_info* info;
    double heading[3];
    mjData* scratch;
    s2r_result res = S2R_OK;
    int t;
    S2R_ASSERT(set);
    if (!robot || !robot->info || robot->info->scene != S2R_SCENE_PUSH || robot->info->tip_site < 0)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "strikes: need an arm in the push scene");
    if (!set->object)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "strikes: the set holds no object (s2r_trajectory_set_add_object)");
    if (!(speed >= 0.05 && speed <= 1))
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "strikes: speed must be 0.05..1 m/s, got %g", speed);
    if (robot->info->n_joints != set->n_joints || count < 0 || count > set->capacity - set->count)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "strikes: %d strikes of a %d-joint arm do not fit the "
                         "set (%d joints, %d of %d used)", count, robot->info->n_joints, set->n_joints, set->count,
                         set->capacity);
    info = robot->info;
    if (!(scratch = mj_makeData(info->model))) return s2r__fail(set->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed");
    s2r__push_heading(info, scratch, heading);
    for (t = 0; t < count && res == S2R_OK; t++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)t);
        int i = set->count;
        if ((res = s2r__strike_plan(set, info, scratch, heading, speed, &rng, i)) == S2R_OK &&
            (res = s2r__traj_play(set, robot, i, &rng)) == S2R_OK)
            set->count++;
    }
    mj_deleteData(scratch);
    return res;
}

/* The first non-finite number of one array of trajectory i, or -1. */
static int s2r__traj_first_bad(const s2r_trajectory_set* set, const double* a, int i) {
    int x, len = set->n_samples * set->n_joints;
    const double* row = a + s2r__traj_at(set, i, 0);
    for (x = 0; x < len; x++)
        if (!isfinite(row[x])) return x;
    return -1;
}

static const char* s2r__traj_name(const s2r_trajectory_set* set, int i, char* name);

S2RDEF s2r_result s2r_trajectory_set_check(const s2r_trajectory_set* set, int n_joints, char* error) {
    static const char* const names[3] = {"command", "measured q", "measured qd"};
    int i, a;
    if (!set || set->count < 1 || !set->q)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "the trajectory set is empty: record at least one trajectory");
    if (set->n_joints != n_joints)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s%sthe trajectories have %d joints (command_J, q_J), the arm %d",
                         set->source ? set->source[0].file : "", set->source ? ": " : "", set->n_joints, n_joints);
    for (i = 0; i < set->count; i++) {
        const double* arrays[3];
        char name[S2R_ERROR_LEN];
        arrays[0] = set->command; arrays[1] = set->q; arrays[2] = set->qd;
        if (!s2r_all_finite(set->q0 + (size_t)i * n_joints, n_joints))
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: start pose contains NaN or Inf", s2r__traj_name(set, i, name));
        for (a = 0; a < 3; a++) {
            int x = s2r__traj_first_bad(set, arrays[a], i);
            const char* what = x >= 0 && isnan(arrays[a][s2r__traj_at(set, i, 0) + (size_t)x]) ? "NaN" : "Inf";
            if (x >= 0)
                return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s, sample %d, joint %d: %s is %s", s2r__traj_name(set, i, name),
                                 x / n_joints, x % n_joints, names[a], what);
        }
        if (set->object && (!s2r_all_finite(set->object0 + 2 * (size_t)i, 2) ||
                            !s2r_all_finite(set->object + 2 * (size_t)i * set->n_samples, 2 * set->n_samples)))
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: an object position is NaN or Inf", s2r__traj_name(set, i, name));
    }
    return S2R_OK;
}

/* "trajectory i", or for one read from a file "FILE, line N" (its first
   row); name holds S2R_ERROR_LEN chars. */
static const char* s2r__traj_name(const s2r_trajectory_set* set, int i, char* name) {
    if (set->source) snprintf(name, S2R_ERROR_LEN, "%.180s, line %d", set->source[i].file, set->source[i].line);
    else snprintf(name, S2R_ERROR_LEN, "trajectory %d", i);
    return name;
}

/* The trajectories against the arm they will be replayed on: each start
   pose and every command inside the joint ranges (a log of another arm,
   or in degrees, or of commands of 1e300 rad, is refused naming where). */
static s2r_result s2r__traj_check_arm(const s2r_trajectory_set* set, const s2r_arm_info* info, char* error) {
    char name[S2R_ERROR_LEN];
    int i, j, k, n = set->n_joints;
    for (i = 0; i < set->count; i++)
        for (k = -1; k < set->n_samples; k++)   /* -1: the start pose */
            for (j = 0; j < n; j++) {
                double v = k < 0 ? set->q0[(size_t)i * n + j] : set->command[s2r__traj_at(set, i, k) + (size_t)j];
                if (v >= info->q_min[j] - 1e-9 && v <= info->q_max[j] + 1e-9) continue;
                s2r__traj_name(set, i, name);
                if (k < 0)
                    return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: start pose q_%d = %g rad is outside the joint's "
                                     "range [%g, %g]", name, j, v, info->q_min[j], info->q_max[j]);
                return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: command_%d = %g rad at t = %g s is outside the "
                                 "joint's range [%g, %g] (a log of another arm, or in degrees?)", name, j, v,
                                 (set->source ? set->source[i].t0 : 0) + k * set->sample_period, info->q_min[j], info->q_max[j]);
            }
    return S2R_OK;
}

/* --- System identification: trajectory files ------------------------------- */

/* One parsed log, as recorded: rows at their own times. */
typedef struct s2r__log {
    s2r__table t;    /* the numbers, in file column order */
    int        n_joints;
    int        col_t, col_cmd[S2R_MAX_JOINTS], col_q[S2R_MAX_JOINTS], col_qd[S2R_MAX_JOINTS], col_obj[2];
    int        has_qd, has_object;
} s2r__log;

/* Which column is `name`: its kind and joint, into the log's maps. */
static int s2r__log_column(void* context, const char* name, size_t len, int column, const char* file, char* error) {
    static const char* const prefixes[4] = {"command_", "q_", "qd_", "tau_"};
    s2r__log* g = (s2r__log*)context;
    char word[64];
    int k, *slot = NULL;
    if (len == 0 || len >= sizeof word) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column %d has %s name", file, column + 1,
                  len ? "too long a" : "no");
        return 1;
    }
    memcpy(word, name, len);
    word[len] = '\0';
    if (strcmp(word, "t") == 0) slot = &g->col_t;
    else if (strcmp(word, "object_x") == 0) slot = &g->col_obj[0];
    else if (strcmp(word, "object_y") == 0) slot = &g->col_obj[1];
    for (k = 0; k < 4 && !slot; k++) {
        size_t pl = strlen(prefixes[k]);
        char* end;
        long j;
        if (strncmp(word, prefixes[k], pl) != 0 || !isdigit((unsigned char)word[pl])) continue;
        j = strtol(word + pl, &end, 10);
        if (*end || j < 0 || j >= S2R_MAX_JOINTS) break;
        if (k == 3) return 0;   /* torques: accepted, not used */
        slot = k == 0 ? &g->col_cmd[j] : k == 1 ? &g->col_q[j] : &g->col_qd[j];
    }
    if (!slot) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: unknown column '%s' (t, command_J, q_J, qd_J, "
                  "tau_J, object_x, object_y; J from 0 to %d)", file, word, S2R_MAX_JOINTS - 1);
        return 1;
    }
    if (*slot >= 0) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column '%s' appears twice", file, word);
        return 1;
    }
    *slot = column;
    return 0;
}

/* The joints must be 0..n-1 with a command and a q each (qd for all or
   none), both object coordinates or neither; time must increase. */
static s2r_result s2r__log_columns_done(void* context, s2r__table* t, const char* file, char* error) {
    s2r__log* g = (s2r__log*)context;
    int j, c = 0, q = 0, qd = 0;
    for (j = 0; j < S2R_MAX_JOINTS; j++) {
        c += g->col_cmd[j] >= 0;
        q += g->col_q[j] >= 0;
        qd += g->col_qd[j] >= 0;
    }
    g->n_joints = c;
    for (j = 0; j < c; j++)
        if (g->col_cmd[j] < 0 || g->col_q[j] < 0 || (qd && g->col_qd[j] < 0))
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: joint %d lacks its command_%d, q_%d%s "
                             "column (joints are numbered 0 to n - 1, each with all of them)", file, j, j, j,
                             qd ? " or qd" : "");
    if (g->col_t < 0 || c < 1 || q != c || (qd && qd != c) || (g->col_obj[0] < 0) != (g->col_obj[1] < 0))
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: need t, and command_J and q_J for the same "
                         "joints (got %d commands, %d positions, %d velocities), object_x with object_y", file, c, q, qd);
    g->has_qd = qd > 0;
    g->has_object = g->col_obj[0] >= 0;
    t->increasing = g->col_t;
    return S2R_OK;
}

/* Parse a whole file's text into a log. */
static s2r_result s2r__log_parse(s2r__log* g, const char* text, const char* file, char* error) {
    int j;
    memset(g, 0, sizeof *g);
    g->col_t = g->col_obj[0] = g->col_obj[1] = -1;
    for (j = 0; j < S2R_MAX_JOINTS; j++) g->col_cmd[j] = g->col_q[j] = g->col_qd[j] = -1;
    return s2r__table_parse(&g->t, text, file, s2r__log_column, s2r__log_columns_done, g, error);
}

/* Column c of the log at time `at` (s): exactly a row's value when a row
   lies within a billionth of a period of it, else linear between rows;
   `hold`: the last row at or before it instead (commands). */
static double s2r__log_at(const s2r__log* g, int c, double at, double period, int hold, int* cursor) {
    const double* v = g->t.v;
    int w = g->t.columns, j = *cursor;
    double tol = 1e-9 * period, t0, t1;
    while (j + 1 < g->t.rows && v[(size_t)(j + 1) * w + g->col_t] <= at + tol) j++;
    *cursor = j;
    t0 = v[(size_t)j * w + g->col_t];
    if (hold || fabs(t0 - at) <= tol || j + 1 >= g->t.rows) return v[(size_t)j * w + c];
    t1 = v[(size_t)(j + 1) * w + g->col_t];
    return v[(size_t)j * w + c] + (v[(size_t)(j + 1) * w + c] - v[(size_t)j * w + c]) * (at - t0) / (t1 - t0);
}

/* Samples of period T the log holds: commands 0..n-1 and readings at 1..n
   (S2R_LOG_MAX_SAMPLES + 1 for anything longer). */
static int s2r__log_samples(const s2r__log* g, double period) {
    double span = g->t.v[(size_t)(g->t.rows - 1) * g->t.columns + g->col_t] - g->t.v[g->col_t];
    double n = floor(span / period + 1e-9);
    return n > S2R_LOG_MAX_SAMPLES ? S2R_LOG_MAX_SAMPLES + 1 : (int)n;
}

/* Resample the log into slot i of the set (its n_samples, its period). */
static void s2r__log_resample(const s2r__log* g, s2r_trajectory_set* set, int i) {
    double T = set->sample_period, t0 = g->t.v[g->col_t];
    int n = set->n_joints, k, j, hold = 0, cursor = 0;
    for (j = 0; j < n; j++) set->q0[(size_t)i * n + j] = g->t.v[g->col_q[j]];
    if (set->object0)
        for (j = 0; j < 2; j++) set->object0[2 * (size_t)i + j] = g->t.v[g->col_obj[j]];
    for (k = 0; k < set->n_samples; k++) {
        size_t at = s2r__traj_at(set, i, k);
        double tc = t0 + k * T, tr = t0 + (k + 1) * T;
        int c1 = hold, c2 = cursor;
        for (j = 0; j < n; j++) {   /* every joint from the same rows */
            c1 = hold;
            c2 = cursor;
            set->command[at + j] = s2r__log_at(g, g->col_cmd[j], tc, T, 1, &c1);
            set->q[at + j] = s2r__log_at(g, g->col_q[j], tr, T, 0, &c2);
            set->qd[at + j] = g->has_qd ? s2r__log_at(g, g->col_qd[j], tr, T, 0, &c2)
                                        : (set->q[at + j] - (k ? set->q[at + j - (size_t)n] : set->q0[(size_t)i * n + j])) / T;
        }
        if (set->object)
            for (j = 0; j < 2; j++) {
                c2 = cursor;
                set->object[2 * ((size_t)i * set->n_samples + k) + j] = s2r__log_at(g, g->col_obj[j], tr, T, 0, &c2);
            }
        hold = c1;
        cursor = c2;
    }
}

/* The parsed logs into a fresh set. */
static s2r_result s2r__logs_to_set(s2r_trajectory_set* set, const s2r__log* logs, const char* const* names, int count,
                                   double period, char* error) {
    int i, samples = INT_MAX;
    s2r_result res;
    for (i = 0; i < count; i++) {
        int n = s2r__log_samples(&logs[i], period);
        if (logs[i].n_joints != logs[0].n_joints || logs[i].has_object != logs[0].has_object)
            return s2r__fail(error, S2R_ERR_PARSE, "%s: %d joints%s, but %s has %d%s", names[i], logs[i].n_joints,
                             logs[i].has_object ? " and the object" : "", names[0], logs[0].n_joints,
                             logs[0].has_object ? " and the object" : "");
        if (n < 2)
            return s2r__fail(error, S2R_ERR_PARSE, "%s: covers less than two sample periods of %g s", names[i], period);
        if (n > S2R_LOG_MAX_SAMPLES)
            return s2r__fail(error, S2R_ERR_PARSE, "%s: spans more than %d samples of %g s (%.6g s); split it", names[i],
                             S2R_LOG_MAX_SAMPLES, period, logs[i].t.v[(size_t)(logs[i].t.rows - 1) * logs[i].t.columns + logs[i].col_t] -
                             logs[i].t.v[logs[i].col_t]);
        if (n < samples) samples = n;
    }
    if ((res = s2r_trajectory_set_init(set, logs[0].n_joints, samples, count, period)) != S2R_OK ||
        (logs[0].has_object && (res = s2r_trajectory_set_add_object(set)) != S2R_OK)) {
        s2r__fail(error, res, "%s", set->error);
        s2r_trajectory_set_free(set);
        return res;
    }
    if (!(set->source = (s2r_trajectory_source*)s2r__calloc((size_t)count, sizeof *set->source))) {
        s2r_trajectory_set_free(set);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "trajectory files: no memory for %d names", count);
    }
    for (i = 0; i < count; i++) {
        char why[S2R_ERROR_LEN];
        snprintf(set->source[i].file, sizeof set->source[i].file, "%s", names[i]);
        set->source[i].line = logs[i].t.first_line;
        set->source[i].t0 = logs[i].t.v[logs[i].col_t];
        s2r__log_resample(&logs[i], set, i);
        set->count = i + 1;
        if (s2r_trajectory_set_check(set, set->n_joints, why) != S2R_OK) {   /* e.g. 1e308 - -1e308 */
            s2r__fail(error, S2R_ERR_PARSE, "%s: numbers too large to resample (%s)", names[i], why);
            s2r_trajectory_set_free(set);
            memset(set, 0, sizeof *set);
            return S2R_ERR_PARSE;
        }
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_trajectory_set_parse_csv(s2r_trajectory_set* set, const char* text, const char* name,
                                               double sample_period, char* error) {
    s2r__log g;
    s2r_result res;
    S2R_ASSERT(set);
    memset(set, 0, sizeof *set);
    if (!text || !name || !(sample_period > 0) || !isfinite(sample_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "trajectory file: text, name and a period > 0 s are needed");
    if ((res = s2r__log_parse(&g, text, name, error)) != S2R_OK) return res;
    res = s2r__logs_to_set(set, &g, &name, 1, sample_period, error);
    s2r__table_free(&g.t);
    return res;
}

S2RDEF s2r_result s2r_trajectory_set_load_csv(s2r_trajectory_set* set, const char* const* paths, int count,
                                              double sample_period, char* error) {
    s2r__log* logs;
    s2r_result res = S2R_OK;
    int i, parsed = 0;
    S2R_ASSERT(set);
    memset(set, 0, sizeof *set);
    if (!paths || count < 1 || count > 100000 || !(sample_period > 0) || !isfinite(sample_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "trajectory files: need 1 or more paths and a period > 0 s");
    if (!(logs = (s2r__log*)s2r__calloc((size_t)count, sizeof *logs)))
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "trajectory files: no memory for %d logs", count);
    for (i = 0; i < count && res == S2R_OK; i++) {
        char* text = NULL;
        if (!paths[i]) res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "trajectory files: path %d is NULL", i);
        else if ((res = s2r__read_text_file(paths[i], S2R_LOG_MAX_BYTES, &text, error)) == S2R_OK) {
            res = s2r__log_parse(&logs[i], text, paths[i], error);
            S2R_FREE(text);
            parsed += res == S2R_OK;
        }
    }
    if (res == S2R_OK) res = s2r__logs_to_set(set, logs, paths, count, sample_period, error);
    for (i = 0; i < parsed; i++) s2r__table_free(&logs[i].t);
    S2R_FREE(logs);
    return res;
}

S2RDEF s2r_result s2r_trajectory_write_csv(const s2r_trajectory_set* set, int index, const char* path, char* error) {
    s2r_file file;
    s2r_result res;
    int n, k, j;
    if (!set || !path || index < 0 || index >= set->count)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "write trajectory: no trajectory %d in the set", index);
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    n = set->n_joints;
    fprintf(file.f, "# sim2real.h trajectory: t in s, command_J and q_J in rad, qd_J in rad/s%s\nt",
            set->object ? ", object_x/y in m" : "");
    for (j = 0; j < n; j++) fprintf(file.f, ",command_%d", j);
    for (j = 0; j < n; j++) fprintf(file.f, ",q_%d", j);
    for (j = 0; j < n; j++) fprintf(file.f, ",qd_%d", j);
    fprintf(file.f, "%s\n", set->object ? ",object_x,object_y" : "");
    for (k = 0; k <= set->n_samples; k++) {   /* row k: command k (the last held), the reading of k - 1 */
        const double* cmd = set->command + s2r__traj_at(set, index, k < set->n_samples ? k : k - 1);
        const double* q = k ? set->q + s2r__traj_at(set, index, k - 1) : set->q0 + (size_t)index * n;
        const double* qd = k ? set->qd + s2r__traj_at(set, index, k - 1) : NULL;
        char b[32];
        fprintf(file.f, "%s", s2r__exact_number(b, k * set->sample_period));
        for (j = 0; j < n; j++) fprintf(file.f, ",%s", s2r__exact_number(b, cmd[j]));
        for (j = 0; j < n; j++) fprintf(file.f, ",%s", s2r__exact_number(b, q[j]));
        for (j = 0; j < n; j++) fprintf(file.f, ",%s", s2r__exact_number(b, qd ? qd[j] : 0.0));
        if (set->object) {
            const double* o = k ? set->object + 2 * ((size_t)index * set->n_samples + k - 1) : set->object0 + 2 * (size_t)index;
            fprintf(file.f, ",%s", s2r__exact_number(b, o[0]));
            fprintf(file.f, ",%s", s2r__exact_number(b, o[1]));
        }
        fputc('\n', file.f);
    }
    return s2r_file_commit(&file, error);
}

/* --- System identification: the replay backend ---------------------------- */

static s2r_result s2r__replay_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_replay* r = (s2r_replay*)self;
    (void)q0; (void)target; (void)rng;   /* the log's own start is what happened */
    r->sample = 0;
    r->time = 0;
    r->open = 1;
    return S2R_OK;
}

static s2r_result s2r__replay_command(void* self, const double* q_target) {
    s2r_replay* r = (s2r_replay*)self;
    const s2r_trajectory_set* set = r->set;
    int j, k = r->sample < set->n_samples ? r->sample : set->n_samples - 1;
    const double* logged = set->command + s2r__traj_at(set, r->index, k);
    if (!r->open) return s2r__fail(r->error, S2R_ERR_STATE, "replay: command before reset");
    if (!q_target || !s2r_all_finite(q_target, set->n_joints))
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "replay: the command contains NaN or Inf");
    for (j = 0; r->tolerance >= 0 && j < set->n_joints; j++)
        if (fabs(q_target[j] - logged[j]) > r->tolerance)
            return s2r__fail(r->error, S2R_ERR_STATE, "replay: command %d, joint %d is %.6g rad, the log sent %.6g", k, j,
                             q_target[j], logged[j]);
    return S2R_OK;
}

static s2r_result s2r__replay_advance(void* self, double seconds) {
    s2r_replay* r = (s2r_replay*)self;
    double T = r->set->sample_period;
    int k;
    if (!r->open) return s2r__fail(r->error, S2R_ERR_STATE, "replay: advance before reset");
    if (!(seconds >= 0) || !(seconds <= S2R_ADVANCE_MAX))
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "replay: advance by %g s: need 0 to %g s", seconds, S2R_ADVANCE_MAX);
    k = (int)floor((r->time + seconds) / T + 1e-9);
    if (k > r->set->n_samples)
        return s2r__fail(r->error, S2R_ERR_STATE, "replay: the log ends after %d samples (%.3f s)", r->set->n_samples,
                         r->set->n_samples * T);
    r->time += seconds;
    r->sample = k;
    return S2R_OK;
}

/* The recorded joint positions and velocities and object of the current
   reading (the start pose before the first). */
static void s2r__replay_now(const s2r_replay* r, const double** q, const double** qd, const double** object) {
    const s2r_trajectory_set* set = r->set;
    size_t at = r->sample > 0 ? s2r__traj_at(set, r->index, r->sample - 1) : 0;
    *q = r->sample > 0 ? set->q + at : set->q0 + (size_t)r->index * set->n_joints;
    *qd = r->sample > 0 ? set->qd + at : NULL;
    *object = !set->object ? NULL : r->sample > 0 ? set->object + 2 * ((size_t)r->index * set->n_samples + r->sample - 1)
                                                  : set->object0 + 2 * (size_t)r->index;
}

static s2r_result s2r__replay_read(void* self, s2r_sensors* out) {
    s2r_replay* r = (s2r_replay*)self;
    const double *q, *qd, *object;
    int n = r->set->n_joints;
    if (!r->open) return s2r__fail(r->error, S2R_ERR_STATE, "replay: read before reset");
    s2r__replay_now(r, &q, &qd, &object);
    memset(out, 0, sizeof *out);
    out->time = r->time;
    memcpy(out->q, q, (size_t)n * sizeof(double));
    if (qd) memcpy(out->qd, qd, (size_t)n * sizeof(double));
    if (object) memcpy(out->object, object, 2 * sizeof(double));
    return S2R_OK;
}

static s2r_result s2r__replay_truth(void* self, s2r_ground_truth* out) {
    s2r_replay* r = (s2r_replay*)self;
    const double *q, *qd, *object;
    s2r__replay_now(r, &q, &qd, &object);
    memset(out, 0, sizeof *out);
    memcpy(out->q, q, (size_t)r->set->n_joints * sizeof(double));
    if (object) memcpy(out->object, object, 2 * sizeof(double));
    return S2R_OK;
}

static s2r_result s2r__replay_place(void* self, const double xy[2]) {
    (void)xy;   /* the log's object is where it was */
    return ((s2r_replay*)self)->set->object ? S2R_OK : S2R_ERR_UNSUPPORTED;
}

S2RDEF s2r_result s2r_replay_init(s2r_replay* replay, const s2r_trajectory_set* set, int index, const s2r_arm_info* info,
                                  double tolerance) {
    S2R_ASSERT(replay);
    memset(replay, 0, sizeof *replay);
    if (!set || !info || index < 0 || index >= set->count)
        return s2r__fail(replay->error, S2R_ERR_INVALID_ARGUMENT, "replay: no trajectory %d in the set", index);
    if (info->n_joints != set->n_joints || !isfinite(tolerance))
        return s2r__fail(replay->error, S2R_ERR_INVALID_ARGUMENT, "replay: the arm has %d joints, the log %d (and the "
                         "tolerance must be finite)", info->n_joints, set->n_joints);
    replay->set = set;
    replay->index = index;
    replay->tolerance = tolerance;
    replay->info = *info;
    replay->backend.self = replay;
    replay->backend.name = "replay";
    replay->backend.info = &replay->info;
    replay->backend.error = replay->error;
    replay->backend.reset = s2r__replay_reset;
    replay->backend.command = s2r__replay_command;
    replay->backend.advance = s2r__replay_advance;
    replay->backend.read_sensors = s2r__replay_read;
    replay->backend.ground_truth = s2r__replay_truth;
    replay->backend.place_object = set->object ? s2r__replay_place : NULL;
    return S2R_OK;
}

S2RDEF const s2r_backend* s2r_replay_backend(s2r_replay* replay) {
    S2R_ASSERT(replay);
    return &replay->backend;
}

/* --- System identification: parameters and configuration ------------------ */

static const char* const s2r__sysid_verdict_names[S2R_SYSID_VERDICT_COUNT] = {"good", "acceptable", "block"};

S2RDEF const char* s2r_sysid_verdict_name(s2r_sysid_verdict v) {
    return (v >= 0 && v < S2R_SYSID_VERDICT_COUNT) ? s2r__sysid_verdict_names[v] : "unknown";
}

S2RDEF s2r_sysid_verdict s2r_sysid_verdict_of(double mse) {
    if (!isfinite(mse) || mse > S2R_SYSID_MSE_BLOCK) return S2R_SYSID_BLOCK;
    return mse < S2R_SYSID_MSE_GOOD ? S2R_SYSID_GOOD : S2R_SYSID_ACCEPTABLE;
}

/* The verdict on a relative error between the bands good and block. */
static s2r_sysid_verdict s2r__sysid_verdict_bands(double relative, double good, double block) {
    if (!isfinite(relative) || relative > block) return S2R_SYSID_BLOCK;
    return relative < good ? S2R_SYSID_GOOD : S2R_SYSID_ACCEPTABLE;
}

S2RDEF s2r_sysid_verdict s2r_sysid_verdict_relative(double relative) {
    return s2r__sysid_verdict_bands(relative, S2R_SYSID_REL_GOOD, S2R_SYSID_REL_BLOCK);
}

S2RDEF s2r_sysid_verdict s2r_sysid_verdict_object(double relative) {
    return s2r__sysid_verdict_bands(relative, S2R_SYSID_OBJECT_REL_GOOD, S2R_SYSID_OBJECT_REL_BLOCK);
}

/* Latencies are searched over whole physics steps. */
static int s2r__sysid_is_latency(s2r_param p) {
    return p == S2R_PARAM_ACTION_LATENCY || p == S2R_PARAM_OBS_LATENCY || p == S2R_PARAM_CAMERA_LATENCY;
}

/* Parameters that show only in the object's motion (push scene). */
static int s2r__sysid_is_object(s2r_param p) {
    return p == S2R_PARAM_OBJECT_FRICTION || p == S2R_PARAM_OBJECT_MASS || p == S2R_PARAM_OBJECT_DAMPING ||
           p == S2R_PARAM_TIP_FRICTION || p == S2R_PARAM_TABLE_HEIGHT || p == S2R_PARAM_CAMERA_LATENCY;
}

/* Why a parameter cannot be identified from joint trajectories (NULL: it can). */
static const char* s2r__sysid_unsupported(s2r_param p) {
    switch (p) {
    case S2R_PARAM_TIMESTEP:
        return "the timestep is a property of the simulator, not of the robot";
    case S2R_PARAM_QPOS_NOISE: case S2R_PARAM_QVEL_NOISE: case S2R_PARAM_TARGET_NOISE:
    case S2R_PARAM_LATENCY_JITTER:
        return "a noise level is read from the residual, not fitted to a trajectory";
    case S2R_PARAM_TARGET_OFFSET:
        return "the camera calibration does not show in joint trajectories";
    case S2R_PARAM_QPOS_BIAS:
        return "encoder zero offsets are per joint; calibrate them against a reference pose";
    case S2R_PARAM_OBJECT_NOISE: case S2R_PARAM_OBJECT_DROPOUT:
        return "the camera's noise and dropouts are read from the residual, not fitted to a trajectory";
    default:
        return (p >= 0 && p < S2R_PARAM_COUNT) ? NULL : "unknown parameter";
    }
}

S2RDEF s2r_sysid_param s2r_sysid_param_default(s2r_param p) {
    s2r_sysid_param sp;
    sp.param = p;
    sp.start = NAN;
    sp.lo = sp.hi = NAN;
    sp.joint = 0;
    switch (p) {   /* wider than the default training ranges: a unit may lie outside them */
    case S2R_PARAM_FRICTION:       sp.lo = 0.25; sp.hi = 2.0;  break; /* x, contact tables vary 4x  */
    case S2R_PARAM_DAMPING:        sp.lo = 0.25; sp.hi = 4.0;  break; /* x, lubricant and wear      */
    case S2R_PARAM_ARMATURE:       sp.lo = 0.5;  sp.hi = 2.0;  break; /* x, rotor and gear inertia  */
    case S2R_PARAM_FRICTIONLOSS:   sp.lo = 0.0;  sp.hi = 3.0;  break; /* N m: the Panda's measured  */
                                                                     /* friction reaches 1.3 N m, */
                                                                     /* bigger drives have more   */
    case S2R_PARAM_LINK_MASS:      sp.lo = 0.7;  sp.hi = 1.3;  break; /* x, cables, covers, paint   */
    case S2R_PARAM_PAYLOAD:        sp.lo = 0.0;  sp.hi = 3.0;  break; /* kg, the Panda's rated load */
    case S2R_PARAM_KP:             sp.lo = 0.5;  sp.hi = 1.5;  break; /* x, drive tuning, elasticity */
    case S2R_PARAM_KV:             sp.lo = 0.5;  sp.hi = 2.0;  break; /* x                          */
    case S2R_PARAM_TORQUE_LIMIT:   sp.lo = 0.5;  sp.hi = 1.5;  break; /* x, derating                */
    case S2R_PARAM_ACTION_LATENCY: sp.lo = 0.0;  sp.hi = 0.08; break; /* s, up to two 25 Hz periods */
    case S2R_PARAM_OBS_LATENCY:    sp.lo = 0.0;  sp.hi = 0.08; break; /* s                          */
    case S2R_PARAM_OBJECT_FRICTION: sp.lo = 0.25; sp.hi = 3.0; break; /* x, plastic on laminate,    */
                                                                     /* wood, steel: 0.1 to 0.8   */
    case S2R_PARAM_TIP_FRICTION:   sp.lo = 0.25; sp.hi = 3.0;  break; /* x, the same materials      */
    case S2R_PARAM_OBJECT_MASS:    sp.lo = 0.5;  sp.hi = 2.0;  break; /* x, an unweighed object     */
    case S2R_PARAM_OBJECT_DAMPING: sp.lo = 0.25; sp.hi = 4.0;  break; /* x                          */
    case S2R_PARAM_TABLE_HEIGHT:   sp.lo = -0.02; sp.hi = 0.02; break; /* m, a tape-measured table  */
    case S2R_PARAM_CAMERA_LATENCY: sp.lo = 0.0;  sp.hi = 0.16; break; /* s, USB cameras and detection */
                                                                     /* reach 100-150 ms          */
    default: break;
    }
    return sp;
}

S2RDEF s2r_sysid_config s2r_sysid_config_default(void) {
    /* Gains first, the latency last: scanned while the gains are still at
       their start, the latency would absorb their lag (measured on the
       UR5e stand-in: 1.6 times the evaluations to converge). */
    static const s2r_param chosen[6] = {S2R_PARAM_KP, S2R_PARAM_KV, S2R_PARAM_PAYLOAD,
                                        S2R_PARAM_ARMATURE, S2R_PARAM_FRICTIONLOSS, S2R_PARAM_ACTION_LATENCY};
    s2r_sysid_config c;
    int i;
    memset(&c, 0, sizeof c);
    c.n_params = 6;
    for (i = 0; i < 6; i++) c.param[i] = s2r_sysid_param_default(chosen[i]);
    c.known = s2r_randomization_none();
    c.max_sweeps = 30;
    c.loss_tol = 1e-4;
    c.step_tol = 1e-4;
    c.first_step = 0.1;
    c.directions = 2;
    c.weight_q = 1.0;
    c.weight_qd = 0.0;
    c.weight_object = 0.0;
    c.sensitivity_step = 0.1;
    c.min_sensitivity = 0.02;
    c.range_loss_rise = 0.5;
    c.range_min_width = 0.05;
    return c;
}

S2RDEF s2r_sysid_config s2r_sysid_config_object(void) {
    /* Frictions first, the latency last (as for the arm: a latency scanned
       first would absorb what the frictions explain). */
    static const s2r_param chosen[4] = {S2R_PARAM_OBJECT_FRICTION, S2R_PARAM_TIP_FRICTION, S2R_PARAM_OBJECT_MASS,
                                        S2R_PARAM_CAMERA_LATENCY};
    s2r_sysid_config c = s2r_sysid_config_default();
    int i;
    c.n_params = 4;
    for (i = 0; i < 4; i++) c.param[i] = s2r_sysid_param_default(chosen[i]);
    c.weight_q = 0.0;
    c.weight_object = 1.0;
    return c;
}

/* The identity of parameter p's default mode: the nominal model. */
static double s2r__sysid_nominal(s2r_param p) {
    return s2r_param_default_mode(p) == S2R_APPLY_SCALE ? 1.0 : 0.0;
}

/* Entry i of the parameter list: supported, unique, sane bounds and start. */
static s2r_result s2r__sysid_check_param(const s2r_sysid_config* c, int i, char* error) {
    const s2r_sysid_param* sp = &c->param[i];
    const char* why = s2r__sysid_unsupported(sp->param);
    const char* name = s2r_param_name(sp->param);
    s2r_param_range pr = s2r_param_range_off(sp->param);
    int k;
    if (why) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "parameter %d (%s) cannot be identified: %s", i, name, why);
    if (s2r__sysid_is_object(sp->param) && !(c->weight_object > 0))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "parameter %d (%s) shows only in the object's motion: record "
                         "strikes (s2r_trajectory_collect_strikes) and set weight_object > 0", i, name);
    if (sp->joint < 0 || sp->joint > S2R_MAX_JOINTS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: joint must be 0 (every joint) or 1..%d, got %d", name,
                         S2R_MAX_JOINTS, sp->joint);
    if (sp->joint > 0 && !s2r__is_joint_wise(sp->param))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s is not a joint's own parameter: only kp, kv, torque_limit, "
                         "damping, armature and frictionloss take a joint", name);
    if (sp->joint > 0 && c->known.p[sp->param].enabled && c->known.p[sp->param].mode != s2r_param_default_mode(sp->param))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s of joint %d: the known entry of %s must use its default mode",
                         name, sp->joint, name);
    for (k = 0; k < i; k++)
        if (c->param[k].param == sp->param && c->param[k].joint == sp->joint)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s is listed twice (entries %d and %d)", name, k, i);
    if (!isfinite(sp->lo) || !isfinite(sp->hi))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: bounds must be finite, got [%g, %g]", name, sp->lo, sp->hi);
    if (sp->lo > sp->hi)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: lower bound %g > upper bound %g", name, sp->lo, sp->hi);
    if (!isnan(sp->start) && !(sp->start >= sp->lo && sp->start <= sp->hi))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: start %g lies outside the bounds [%g, %g]",
                         name, sp->start, sp->lo, sp->hi);
    pr.enabled = 1;
    pr.dist = s2r_dist_uniform(sp->lo, sp->hi);   /* the sign rules of the table */
    return s2r_param_range_check(sp->param, &pr, error);
}

S2RDEF s2r_result s2r_sysid_config_check(const s2r_sysid_config* c, char* error) {
    s2r_result res;
    int i;
    if (!c) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sysid config is NULL");
    if (c->n_params < 1 || c->n_params > S2R_SYSID_MAX_PARAMS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "n_params must be 1..%d, got %d", S2R_SYSID_MAX_PARAMS, c->n_params);
    for (i = 0; i < c->n_params; i++)
        if ((res = s2r__sysid_check_param(c, i, error)) != S2R_OK) return res;
    if (c->max_sweeps < 1 || c->max_sweeps > S2R_SYSID_MAX_SWEEPS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_sweeps must be 1..%d, got %d", S2R_SYSID_MAX_SWEEPS, c->max_sweeps);
    if (c->directions < 0 || c->directions > S2R_SYSID_MAX_DIRECTIONS)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "directions must be 0..%d, got %d", S2R_SYSID_MAX_DIRECTIONS, c->directions);
    if (!(c->loss_tol >= 0 && c->loss_tol < 1) || !(c->step_tol > 0 && c->step_tol < 1) ||
        !(c->first_step > 0 && c->first_step <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "need 0 <= loss_tol < 1, 0 < step_tol < 1, 0 < first_step <= 1");
    if (!(c->weight_q >= 0) || !(c->weight_qd >= 0) || !(c->weight_object >= 0) || !isfinite(c->weight_q) ||
        !isfinite(c->weight_qd) || !isfinite(c->weight_object) || !(c->weight_q + c->weight_qd + c->weight_object > 0))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "weights must be finite, >= 0 and not all 0");
    if (!(c->sensitivity_step > 0 && c->sensitivity_step <= 0.5) || !(c->min_sensitivity >= 0) ||
        !(c->range_loss_rise > 0) || !isfinite(c->range_loss_rise) || !(c->range_min_width >= 0 && c->range_min_width <= 0.5))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT,
                         "need 0 < sensitivity_step <= 0.5, min_sensitivity >= 0, range_loss_rise > 0, 0 <= range_min_width <= 0.5");
    return s2r_randomization_check(&c->known, error);
}

/* --- System identification: the simulator being fitted -------------------- */

/* Whole physics steps inside the bounds of latency parameter i. */
static void s2r__sysid_step_range(const s2r_sysid* id, int i, int* klo, int* khi) {
    const s2r_sysid_param* sp = &id->config.param[i];
    *klo = (int)ceil(sp->lo / id->dt - 1e-9);
    *khi = (int)floor(sp->hi / id->dt + 1e-9);
}

/* The randomization the fit runs with: known entries (and known joints'
   own ranges) FIXED at their centre in their own mode, identified shared
   ones FIXED at `at` ([n_params]). */
static s2r_randomization s2r__sysid_modes(const s2r_sysid_config* c, const double* at) {
    s2r_randomization r = s2r_randomization_none();
    int p, i;
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        if (c->known.p[p].enabled) {
            r.p[p] = c->known.p[p];
            r.p[p].dist = s2r_dist_fixed(s2r_dist_centre(&c->known.p[p].dist));
        }
    r.n_joint_ranges = c->known.n_joint_ranges;
    for (i = 0; i < r.n_joint_ranges; i++) {
        r.joint_range[i] = c->known.joint_range[i];
        r.joint_range[i].dist = s2r_dist_fixed(s2r_dist_centre(&c->known.joint_range[i].dist));
    }
    for (i = 0; i < c->n_params; i++) {
        s2r_param p2 = c->param[i].param;
        s2r_param_range* e;
        double v;
        if ((unsigned)p2 >= S2R_PARAM_COUNT) continue;   /* (a checked config has none) */
        e = &r.p[p2];
        /* one joint's own entry: the other joints keep the shared, known or nominal value */
        v = c->param[i].joint == 0 ? at[i] : e->enabled ? s2r_dist_centre(&e->dist) : s2r__sysid_nominal(p2);
        e->enabled = 1;
        e->mode = s2r_param_default_mode(p2);
        e->dist = s2r_dist_fixed(v);
    }
    return r;
}

/* The draw of the known values (every entry of id->modes is FIXED). */
static void s2r__sysid_base_draw(s2r_sysid* id) {
    s2r_sim_draw* d = &id->base;
    const s2r_param_range* p = id->modes.p;
    int k, j;
    memset(d, 0, sizeof *d);
    for (k = 0; k < S2R_PARAM_COUNT; k++)
        d->value[k] = p[k].enabled ? s2r_dist_centre(&p[k].dist) : s2r__sysid_nominal((s2r_param)k);
    for (j = 0; j < S2R_MAX_JOINTS; j++) {
        d->link_mass[j] = p[S2R_PARAM_LINK_MASS].enabled ? d->value[S2R_PARAM_LINK_MASS] : 1.0;
        d->qpos_bias[j] = p[S2R_PARAM_QPOS_BIAS].enabled ? d->value[S2R_PARAM_QPOS_BIAS] : 0.0;
    }
    for (j = 0; j < 3; j++)
        d->target_offset[j] = p[S2R_PARAM_TARGET_OFFSET].enabled ? d->value[S2R_PARAM_TARGET_OFFSET] : 0.0;
}

/* Every latency's bounds hold a whole step, and the simulator accepts the
   upper bounds (its delay lines must reach that far back). */
static s2r_result s2r__sysid_check_model(s2r_sysid* id) {
    double upper[S2R_SYSID_MAX_PARAMS];
    s2r_randomization r;
    int i, klo, khi;
    for (i = 0; i < id->config.n_params; i++) {
        upper[i] = id->config.param[i].hi;
        if (id->config.param[i].joint > id->sim.robot.info.n_joints)
            return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "%s of joint %d: the arm has %d joints",
                             s2r_param_name(id->config.param[i].param), id->config.param[i].joint,
                             id->sim.robot.info.n_joints);
        if (!s2r__sysid_is_latency(id->config.param[i].param)) continue;
        s2r__sysid_step_range(id, i, &klo, &khi);
        if (klo > khi)
            return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "%s: bounds [%g, %g] s hold no whole physics step of %g s",
                             s2r_param_name(id->config.param[i].param), id->config.param[i].lo, id->config.param[i].hi, id->dt);
    }
    r = s2r__sysid_modes(&id->config, upper);
    if (s2r_sim_set_randomization(&id->sim, &r) != S2R_OK)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "the simulator rejects the bounds: %s", id->sim.error);
    return S2R_OK;
}

S2RDEF s2r_result s2r_sysid_init(s2r_sysid* id, const s2r_sysid_config* config, const s2r_sim_config* model) {
    s2r_sim_config sc;
    s2r_result res;
    double zeros[S2R_SYSID_MAX_PARAMS] = {0};
    S2R_ASSERT(id);
    memset(id, 0, sizeof *id);
    if (!model) return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "sysid: model config is NULL");
    if ((res = s2r_sysid_config_check(config, id->error)) != S2R_OK) return res;
    id->config = *config;
    sc = *model;
    sc.randomization = s2r_randomization_none();
    sc.noise_q = sc.noise_qd = sc.noise_target = s2r_noise_config_none();
    if ((res = s2r_sim_init(&id->sim, &sc)) != S2R_OK) {
        s2r__fail(id->error, res, "sysid: %s", id->sim.error);
        return res;
    }
    id->dt = id->sim.robot.info.physics_dt;
    if ((res = s2r__sysid_check_model(id)) != S2R_OK) {
        char keep[S2R_ERROR_LEN];
        memcpy(keep, id->error, sizeof keep);
        s2r_sysid_free(id);
        memcpy(id->error, keep, sizeof keep);
        return res;
    }
    id->modes = s2r__sysid_modes(&id->config, zeros);
    s2r__sysid_base_draw(id);
    return S2R_OK;
}

S2RDEF void s2r_sysid_free(s2r_sysid* id) {
    if (!id) return;
    s2r_sim_free(&id->sim);
    memset(id, 0, sizeof *id);
}

/* --- System identification: the loss --------------------------------------- */

/* The simulator's draw for candidate values ([n_params]). */
static void s2r__sysid_draw(const s2r_sysid* id, const double* values, s2r_sim_draw* d) {
    int i, j, k, per_joint = 0;
    *d = id->base;
    for (i = 0; i < id->config.n_params; i++) {
        s2r_param p = id->config.param[i].param;
        per_joint |= id->config.param[i].joint > 0;
        if (id->config.param[i].joint > 0) continue;
        d->value[p] = values[i];
        if (p == S2R_PARAM_LINK_MASS)
            for (j = 0; j < S2R_MAX_JOINTS; j++) d->link_mass[j] = values[i];
    }
    if (!per_joint && !id->modes.n_joint_ranges) return;
    d->per_joint = 1;   /* every joint the shared value, then the known joints' own, then the fitted joints' own */
    for (k = 0; k < (int)(sizeof s2r__joint_wise / sizeof *s2r__joint_wise); k++)
        for (j = 0; j < S2R_MAX_JOINTS; j++) d->joint[s2r__joint_wise[k]][j] = d->value[s2r__joint_wise[k]];
    for (k = 0; k < id->modes.n_joint_ranges; k++)
        d->joint[id->modes.joint_range[k].param][id->modes.joint_range[k].joint - 1] =
            s2r_dist_centre(&id->modes.joint_range[k].dist);
    for (i = 0; i < id->config.n_params; i++)
        if (id->config.param[i].joint > 0) d->joint[id->config.param[i].param][id->config.param[i].joint - 1] = values[i];
}

/* Rows of the weighted residual per sample: the joint positions, the
   velocities and the object's x, y, each block where its weight is > 0. */
static int s2r__sysid_rows(const s2r_sysid* id, const s2r_trajectory_set* set) {
    const s2r_sysid_config* c = &id->config;
    return (c->weight_q > 0) * set->n_joints + (c->weight_qd > 0) * set->n_joints +
           (c->weight_object > 0 && set->object) * 2;
}

/* Replay trajectory i on the simulator as pinned; add the squared position
   (sums[0], rad^2) and velocity (sums[1], rad^2/s^2) errors and, for a set
   with the object, its squared distance (sums[2], m^2); copy the simulated
   readings to q_out / qd_out ([n_samples][n_joints]) if given, and the
   weighted residuals to resid ([n_samples][s2r__sysid_rows], scaled so that
   their squares summed over the whole set are the loss) if given. */
static s2r_result s2r__sysid_replay(s2r_sysid* id, const s2r_trajectory_set* set, int i,
                                    double sums[3], double* q_out, double* qd_out, double* resid) {
    const s2r_backend* b = &id->sim.backend;
    const s2r_sysid_config* c = &id->config;
    int k, j, n = set->n_joints;
    double samples = (double)set->count * set->n_samples;
    double wq = sqrt(c->weight_q / (samples * n)), wv = sqrt(c->weight_qd / (samples * n));
    double wo = sqrt(c->weight_object / samples);
    s2r_rng rng = s2r_rng_make(0, (uint64_t)i);   /* the simulator's noise, if `known` has any */
    s2r_sensors s;
    s2r_result res = s2r__traj_start(set, b, i, &rng);
    for (k = 0; k < set->n_samples && res == S2R_OK; k++) {
        size_t at = s2r__traj_at(set, i, k);
        const double* seen = set->object ? set->object + 2 * ((size_t)i * set->n_samples + k) : NULL;
        if ((res = s2r_backend_command(b, set->command + at)) != S2R_OK) break;
        if ((res = s2r_backend_advance(b, set->sample_period)) != S2R_OK) break;
        if ((res = s2r_backend_read_sensors(b, &s)) != S2R_OK) break;
        for (j = 0; j < n; j++) {
            double eq = s.q[j] - set->q[at + j], ev = s.qd[j] - set->qd[at + j];
            sums[0] += eq * eq;
            sums[1] += ev * ev;
            if (resid && c->weight_q > 0) *resid++ = wq * eq;
        }
        for (j = 0; resid && c->weight_qd > 0 && j < n; j++) *resid++ = wv * (s.qd[j] - set->qd[at + j]);
        if (seen) {
            double ex = s.object[0] - seen[0], ey = s.object[1] - seen[1];
            sums[2] += ex * ex + ey * ey;
            if (resid && c->weight_object > 0) { *resid++ = wo * ex; *resid++ = wo * ey; }
        }
        if (q_out) memcpy(q_out + (size_t)k * n, s.q, (size_t)n * sizeof(double));
        if (qd_out) memcpy(qd_out + (size_t)k * n, s.qd, (size_t)n * sizeof(double));
    }
    return res;
}

/* Mean squared errors over a whole set, for values: mse[0] joint
   positions (rad^2), mse[1] velocities (rad^2/s^2), mse[2] the object's
   distance (m^2; 0 without it); the weighted residuals into resid if
   given ([count][n_samples][s2r__sysid_rows]); S2R_ERR_DIVERGED (or
   another backend error) when a replay failed. */
static s2r_result s2r__sysid_errors(s2r_sysid* id, const double* values, const s2r_trajectory_set* set,
                                    double mse[3], double* resid) {
    double sums[3] = {0, 0, 0}, samples = (double)set->count * set->n_samples;
    size_t per = (size_t)set->n_samples * s2r__sysid_rows(id, set);
    s2r_sim_draw d;
    s2r_result res;
    int i;
    s2r__sysid_draw(id, values, &d);
    if ((res = s2r_sim_pin_draw(&id->sim, &d)) != S2R_OK) return res;
    id->evaluations++;
    for (i = 0; i < set->count; i++)
        if ((res = s2r__sysid_replay(id, set, i, sums, NULL, NULL, resid ? resid + i * per : NULL)) != S2R_OK)
            return res;
    mse[0] = sums[0] / (samples * set->n_joints);
    mse[1] = sums[1] / (samples * set->n_joints);
    mse[2] = sums[2] / samples;
    return S2R_OK;
}

/* The objective for values; +Inf when the simulation fails. */
static double s2r__sysid_objective(s2r_sysid* id, const double* values, const s2r_trajectory_set* set) {
    const s2r_sysid_config* c = &id->config;
    double e[3];
    if (s2r__sysid_errors(id, values, set, e, NULL) != S2R_OK) return INFINITY;
    return c->weight_q * e[0] + c->weight_qd * e[1] + c->weight_object * e[2];
}

/* Candidate values finite and inside their bounds; the set usable. */
static s2r_result s2r__sysid_check_call(s2r_sysid* id, const double* values, const s2r_trajectory_set* set) {
    s2r_result res;
    int i;
    if (!values) return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "values are NULL");
    for (i = 0; i < id->config.n_params; i++) {
        const s2r_sysid_param* sp = &id->config.param[i];
        if (!(values[i] >= sp->lo && values[i] <= sp->hi))
            return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "%s: value %g is outside its bounds [%g, %g]",
                             s2r_param_name(sp->param), values[i], sp->lo, sp->hi);
    }
    if (id->config.weight_object > 0 && set && !set->object)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "weight_object > 0 needs trajectories with the object "
                         "(s2r_trajectory_collect_strikes)");
    if (set && set->object && id->sim.robot.info.scene != S2R_SCENE_PUSH)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "the trajectories hold an object; the model has none "
                         "(fit with the push scene: s2r_task_sim_config)");
    if ((res = s2r_trajectory_set_check(set, id->sim.robot.info.n_joints, id->error)) != S2R_OK) return res;
    return s2r__traj_check_arm(set, &id->sim.robot.info, id->error);
}

S2RDEF s2r_result s2r_sysid_loss(s2r_sysid* id, const double* values, const s2r_trajectory_set* set, double* loss) {
    S2R_ASSERT(id);
    s2r_result res = s2r__sysid_check_call(id, values, set);
    if (res != S2R_OK) return res;
    *loss = s2r__sysid_objective(id, values, set);
    return S2R_OK;
}

S2RDEF s2r_result s2r_sysid_mse(s2r_sysid* id, const double* values, const s2r_trajectory_set* set, double* mse) {
    S2R_ASSERT(id);
    double e[3];
    s2r_result res = s2r__sysid_check_call(id, values, set);
    if (res != S2R_OK) return res;
    *mse = s2r__sysid_errors(id, values, set, e, NULL) == S2R_OK ? e[0] : INFINITY;
    return S2R_OK;
}

S2RDEF s2r_result s2r_sysid_simulate(s2r_sysid* id, const double* values, const s2r_trajectory_set* set,
                                     int index, double* q_out, double* qd_out) {
    S2R_ASSERT(id);
    double sums[3] = {0, 0, 0};
    s2r_sim_draw d;
    s2r_result res = s2r__sysid_check_call(id, values, set);
    if (res != S2R_OK) return res;
    if (index < 0 || index >= set->count)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "trajectory %d does not exist (the set holds %d)", index, set->count);
    s2r__sysid_draw(id, values, &d);
    if ((res = s2r_sim_pin_draw(&id->sim, &d)) != S2R_OK) return s2r__fail(id->error, res, "%s", id->sim.error);
    res = s2r__sysid_replay(id, set, index, sums, q_out, qd_out, NULL);
    if (res != S2R_OK) return s2r__fail(id->error, res, "replaying trajectory %d: %s", index, id->sim.error);
    return S2R_OK;
}

/* --- System identification: coordinate descent ----------------------------- */

/* Loss with coordinate i at v, the others as in x. */
static double s2r__sysid_at(s2r_sysid* id, const s2r_trajectory_set* set, double* x, int i, double v) {
    double keep = x[i], f;
    x[i] = v;
    f = s2r__sysid_objective(id, x, set);
    x[i] = keep;
    return f;
}

/* A line through parameter space searched in its own coordinate t:
   coordinate `i` of x (t is its value), or, for i < 0, the pattern line
   x = origin + t dir (clamped to the bounds). */
typedef struct s2r__sysid_line {
    s2r_sysid*                id;
    const s2r_trajectory_set* set;
    double*                   x;       /* [n_params] current point           */
    int                       i;       /* coordinate, or -1 for the pattern  */
    const double*             origin;  /* [n_params] pattern line: t = 0     */
    const double*             dir;     /* [n_params] pattern line direction  */
} s2r__sysid_line;

/* Loss at t on the line (an s2r_line_loss; context: the s2r__sysid_line). */
static double s2r__sysid_line_loss(void* context, double t) {
    const s2r__sysid_line* L = (const s2r__sysid_line*)context;
    double y[S2R_SYSID_MAX_PARAMS];
    int k, n = L->id->config.n_params;
    if (L->i >= 0) return s2r__sysid_at(L->id, L->set, L->x, L->i, t);
    for (k = 0; k < n; k++)
        y[k] = s2r_clamp(L->origin[k] + t * L->dir[k], L->id->config.param[k].lo, L->id->config.param[k].hi);
    return s2r__sysid_objective(L->id, y, L->set);
}

/* >> exercise sysid: the bounded line search (course/4_sysid) */
#ifndef S2R_EXERCISE_SYSID
/* >> solution sysid begin */
/* The line being searched: its loss and the bounds of t. */
typedef struct s2r__line {
    s2r_line_loss loss;
    void*         context;
    double        lo, hi;
} s2r__line;

/* A bracket a <= m <= b around a minimum, with the losses at all three
   (fa = fm when a == m, likewise fb). */
typedef struct s2r__line_bracket { double a, m, b, fa, fm, fb; } s2r__line_bracket;

/* From br->m (already better than where the search started), keep
   stepping in direction dir (+1 / -1), doubling the step, while the loss
   falls; then the far side of the bracket is the first point that did not
   improve (or the bound). */
static void s2r__line_expand(const s2r__line* L, int dir, double step, s2r__line_bracket* br) {
    double edge = dir > 0 ? L->hi : L->lo, near = dir > 0 ? br->a : br->b, far = edge;
    double fnear = dir > 0 ? br->fa : br->fb, ffar = INFINITY;
    while (br->m != edge) {
        double next, fn;
        step *= 2;
        next = dir > 0 ? fmin(br->m + step, edge) : fmax(br->m - step, edge);
        fn = L->loss(L->context, next);
        if (!(fn < br->fm)) { far = next; ffar = fn; break; }
        near = br->m; fnear = br->fm;
        br->m = next; br->fm = fn;
    }
    if (br->m == edge) { far = edge; ffar = br->fm; }
    if (dir > 0) { br->a = near; br->fa = fnear; br->b = far; br->fb = ffar; }
    else         { br->a = far; br->fa = ffar; br->b = near; br->fb = fnear; }
}

/* Refinement state: the bracket [a, b], the best point x, the second best
   w, the third v (with losses), and the last two moves. */
typedef struct s2r__line_refine {
    double a, b, x, fx, w, fw, v, fv;
    double move, move_before;
} s2r__line_refine;

/* The next move from x: the vertex of the parabola through x, w, v when it
   lies inside the bracket and shrinks the moves fast enough; otherwise a
   golden-section step into the larger side. */
static double s2r__line_next_move(s2r__line_refine* s, double tol) {
    const double golden = 0.3819660112501051;   /* 2 - golden ratio */
    double mid = 0.5 * (s->a + s->b), r, q, p, limit = s->move_before;
    if (fabs(limit) > tol && isfinite(s->fw) && isfinite(s->fv)) {
        r = (s->x - s->w) * (s->fx - s->fv);
        q = (s->x - s->v) * (s->fx - s->fw);
        p = (s->x - s->v) * q - (s->x - s->w) * r;
        q = 2 * (q - r);
        if (q > 0) p = -p;
        q = fabs(q);
        s->move_before = s->move;
        if (fabs(p) < fabs(0.5 * q * limit) && p > q * (s->a - s->x) && p < q * (s->b - s->x)) {
            double u = s->x + p / q;
            if (u - s->a < 2 * tol || s->b - u < 2 * tol) return mid > s->x ? tol : -tol;
            return p / q;
        }
    }
    s->move_before = s->x >= mid ? s->a - s->x : s->b - s->x;
    return golden * s->move_before;
}

/* Take the point u with loss fu into the state. */
static void s2r__line_refine_take(s2r__line_refine* s, double u, double fu) {
    if (fu < s->fx) {   /* strictly better only: a flat loss never moves x */
        if (u >= s->x) s->a = s->x; else s->b = s->x;
        s->v = s->w; s->fv = s->fw;
        s->w = s->x; s->fw = s->fx;
        s->x = u; s->fx = fu;
        return;
    }
    if (u < s->x) s->a = u; else s->b = u;
    if (fu <= s->fw || s->w == s->x) { s->v = s->w; s->fv = s->fw; s->w = u; s->fw = fu; }
    else if (fu <= s->fv || s->v == s->x || s->v == s->w) { s->v = u; s->fv = fu; }
}

/* Safeguarded parabolic search inside the bracket: stops when the best
   point is within about tol of the bracket's centre and the bracket is
   about 4 tol wide.  The bracket's outer points seed the parabola. */
static void s2r__line_refine_bracket(const s2r__line* L, double tol, s2r__line_bracket* br) {
    s2r__line_refine s;
    int iter;
    s.a = br->a; s.b = br->b; s.x = br->m; s.fx = br->fm;
    s.w = br->fa <= br->fb ? br->a : br->b; s.fw = fmin(br->fa, br->fb);
    s.v = br->fa <= br->fb ? br->b : br->a; s.fv = fmax(br->fa, br->fb);
    s.move = s.move_before = s.b - s.a;
    for (iter = 0; iter < 100; iter++) {
        double mid = 0.5 * (s.a + s.b), d, u;
        if (fabs(s.x - mid) <= 2 * tol - 0.5 * (s.b - s.a)) break;
        d = s2r__line_next_move(&s, tol);
        u = s.x + (fabs(d) >= tol ? d : (d >= 0 ? tol : -tol));
        s.move = d;
        s2r__line_refine_take(&s, u, L->loss(L->context, u));
    }
    br->m = s.x;
    br->fm = s.fx;
}

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    s2r__line line;
    s2r__line* L = &line;
    double up = fmin(t0 + step, hi), down = fmax(t0 - step, lo), fu, fd;
    s2r__line_bracket br;
    S2R_ASSERT(f_min);
    line.loss = loss; line.context = context; line.lo = lo; line.hi = hi;
    *f_min = f0;
    fu = up > t0 ? L->loss(L->context, up) : f0;
    if (fu < f0) {
        br.a = t0; br.fa = f0; br.m = up; br.fm = fu; br.b = up; br.fb = fu;
        s2r__line_expand(L, +1, step, &br);
    } else {
        fd = down < t0 ? L->loss(L->context, down) : f0;
        if (fd == f0 && fu == f0) return t0;   /* exactly flat: the data do not see this direction */
        br.a = down; br.fa = fd; br.m = t0; br.fm = f0; br.b = up; br.fb = fu;
        if (fd < f0) {
            br.b = t0; br.fb = f0; br.m = down; br.fm = fd; br.a = down;
            s2r__line_expand(L, -1, step, &br);
        }
    }
    s2r__line_refine_bracket(L, tol, &br);
    *f_min = br.fm;
    return br.m;
}
/* >> solution sysid end */
#endif /* S2R_EXERCISE_SYSID */

/* One coordinate, continuous.  Moves x[i], returns the new loss, sets the
   next first step (twice this move, within [2 tol, first_step]). */
static double s2r__sysid_line_search(s2r_sysid* id, const s2r_trajectory_set* set, double* x, int i,
                                     double f, double* step) {
    const s2r_sysid_param* sp = &id->config.param[i];
    double width = sp->hi - sp->lo, tol = id->config.step_tol * width, x0 = x[i];
    s2r__sysid_line L;
    if (!(width > 0)) return f;
    memset(&L, 0, sizeof L);
    L.id = id; L.set = set; L.x = x; L.i = i;
    x[i] = s2r_line_minimize(s2r__sysid_line_loss, &L, sp->lo, sp->hi, x0, f, *step, tol, &f);
    *step = fmin(fmax(2 * fabs(x[i] - x0), 2 * tol), id->config.first_step * width);
    return f;
}

/* Largest t >= 0 keeping origin + t dir inside every coordinate's bounds. */
static double s2r__sysid_pattern_reach(const s2r_sysid* id, const double* origin, const double* dir) {
    double reach = INFINITY;
    int k;
    for (k = 0; k < id->config.n_params; k++) {
        const s2r_sysid_param* sp = &id->config.param[k];
        if (dir[k] > 0) reach = fmin(reach, (sp->hi - origin[k]) / dir[k]);
        if (dir[k] < 0) reach = fmin(reach, (sp->lo - origin[k]) / dir[k]);
    }
    return isfinite(reach) ? fmax(reach, 0) : 0;
}

/* Line search along dir (both ways) from x, with the tolerance of
   step_tol on the coordinate that moves most relative to its bounds. */
static double s2r__sysid_direction_search(s2r_sysid* id, const s2r_trajectory_set* set, double* x,
                                          const double* dir, double f) {
    double origin[S2R_SYSID_MAX_PARAMS], back[S2R_SYSID_MAX_PARAMS], scale = 0, t, lo, hi;
    int k, n = id->config.n_params;
    s2r__sysid_line L;
    for (k = 0; k < n; k++) {
        const s2r_sysid_param* sp = &id->config.param[k];
        origin[k] = x[k];
        back[k] = -dir[k];
        if (sp->hi > sp->lo) scale = fmax(scale, fabs(dir[k]) / (sp->hi - sp->lo));
    }
    if (!(scale > 0)) return f;
    memset(&L, 0, sizeof L);
    L.id = id; L.set = set; L.x = x; L.i = -1; L.origin = origin; L.dir = dir;
    lo = -s2r__sysid_pattern_reach(id, origin, back);
    hi = s2r__sysid_pattern_reach(id, origin, dir);
    if (!(hi > lo)) return f;
    t = s2r_line_minimize(s2r__sysid_line_loss, &L, lo, hi, 0, f, fmin(1.0, fmax(hi, -lo)), id->config.step_tol / scale, &f);
    for (k = 0; k < n; k++) x[k] = s2r_clamp(origin[k] + t * dir[k], id->config.param[k].lo, id->config.param[k].hi);
    return f;
}

/* Directions learned from past sweeps (their net moves), searched in
   every later sweep after the coordinates. */
typedef struct s2r__sysid_directions {
    int    count, next;                                        /* stored; slot to replace */
    double dir[S2R_SYSID_MAX_DIRECTIONS][S2R_SYSID_MAX_PARAMS]; /* parameter units        */
} s2r__sysid_directions;

/* After the coordinates: search the learned directions, then the net move
   of this sweep (continuous parameters only), and remember it. */
static double s2r__sysid_learned(s2r_sysid* id, const s2r_trajectory_set* set, double* x, const double* start,
                                 double f, s2r__sysid_directions* D) {
    double net[S2R_SYSID_MAX_PARAMS];
    int k, j, moved = 0, n = id->config.n_params;
    if (id->config.directions < 1) return f;
    for (j = 0; j < D->count; j++) f = s2r__sysid_direction_search(id, set, x, D->dir[j], f);
    for (k = 0; k < n; k++) {
        net[k] = s2r__sysid_is_latency(id->config.param[k].param) ? 0 : x[k] - start[k];
        moved += net[k] != 0;
    }
    if (moved < 2) return f;   /* a single coordinate moved: nothing new to learn */
    f = s2r__sysid_direction_search(id, set, x, net, f);
    memcpy(D->dir[D->next], net, sizeof net);
    D->next = (D->next + 1) % id->config.directions;
    if (D->count < id->config.directions) D->count++;
    return f;
}

/* Try latency step k for coordinate i: keep it if strictly better. */
static int s2r__sysid_try_step(s2r_sysid* id, const s2r_trajectory_set* set, double* x, int i, int k,
                               int* best, double* fbest) {
    int klo, khi;
    double f;
    s2r__sysid_step_range(id, i, &klo, &khi);
    if (k < klo || k > khi || k == *best) return 0;
    f = s2r__sysid_at(id, set, x, i, k * id->dt);
    if (!(f < *fbest)) return 0;
    *best = k;
    *fbest = f;
    return 1;
}

/* One coordinate, a latency in whole physics steps.  scan: every
   stride-th step of the bounds, then each step around the best; else walk
   one step at a time while the loss falls. */
static double s2r__sysid_latency_search(s2r_sysid* id, const s2r_trajectory_set* set, double* x, int i,
                                        double f, int scan) {
    int klo, khi, k, stride, best = (int)floor(x[i] / id->dt + 0.5), centre, dir;
    s2r__sysid_step_range(id, i, &klo, &khi);
    if (scan) {
        stride = (khi - klo) / 12 + 1;
        for (k = klo; k <= khi; k += stride) s2r__sysid_try_step(id, set, x, i, k, &best, &f);
        centre = best;
        for (k = centre - stride + 1; k < centre + stride; k++) s2r__sysid_try_step(id, set, x, i, k, &best, &f);
    } else {
        for (dir = 1; dir >= -1; dir -= 2) {
            int moved = 0;
            while (s2r__sysid_try_step(id, set, x, i, best + dir, &best, &f)) moved = 1;
            if (moved) break;
        }
    }
    x[i] = best * id->dt;
    return f;
}

/* Sweeps from x (loss f) until one lowers the loss by less than loss_tol
   of it or the budget is spent; coordinate `hold` (-1: none) stays where
   it is.  With r (the first descent): the first sweep scans latencies, and
   r records the loss after each sweep and the progress.  Returns the loss. */
static double s2r__sysid_descend(s2r_sysid* id, const s2r_trajectory_set* set, double* x, double f, int hold,
                                 s2r_sysid_result* r, int evaluations_before) {
    const s2r_sysid_config* c = &id->config;
    double step[S2R_SYSID_MAX_PARAMS];
    s2r__sysid_directions learned;
    int i, sweep;
    memset(&learned, 0, sizeof learned);
    for (i = 0; i < c->n_params; i++) step[i] = c->first_step * (c->param[i].hi - c->param[i].lo);
    for (sweep = 1; sweep <= c->max_sweeps; sweep++) {
        double before = f, start[S2R_SYSID_MAX_PARAMS];
        int converged;
        memcpy(start, x, (size_t)c->n_params * sizeof(double));
        for (i = 0; i < c->n_params; i++) {
            if (i == hold) continue;
            f = s2r__sysid_is_latency(c->param[i].param) ? s2r__sysid_latency_search(id, set, x, i, f, r && sweep == 1)
                                                         : s2r__sysid_line_search(id, set, x, i, f, &step[i]);
        }
        f = s2r__sysid_learned(id, set, x, start, f, &learned);
        converged = before - f <= c->loss_tol * before;
        if (r) {
            r->loss[sweep] = r->train_loss = f;
            r->sweeps = sweep;
            r->converged = converged;
            r->evaluations = id->evaluations - evaluations_before;
            memcpy(r->value, x, (size_t)c->n_params * sizeof(double));
            if (c->on_sweep) c->on_sweep(c->on_sweep_context, r);
        }
        if (converged) break;
    }
    return f;
}

/* Latency i by an outer search.  A step's loss with the other coordinates
   held is a poor guide (they have adapted to the current step: one step
   off raises it 30-100 % on the fleet), so each neighbouring step is
   judged with every other coordinate re-fitted: a descent with i held,
   started from the best point so far.  The search walks up, then down,
   while the re-fitted loss falls.  Records the profile; x becomes the best
   point.  Returns its loss. */
static double s2r__sysid_latency_outer(s2r_sysid* id, const s2r_trajectory_set* set, s2r_sysid_result* r,
                                       double* x, int i, double f) {
    double best[S2R_SYSID_MAX_PARAMS], y[S2R_SYSID_MAX_PARAMS];
    size_t bytes = (size_t)id->config.n_params * sizeof(double);
    int klo, khi, k, dir, kbest = (int)floor(x[i] / id->dt + 0.5);
    s2r__sysid_step_range(id, i, &klo, &khi);
    memcpy(best, x, bytes);
    if (kbest < S2R_SYSID_MAX_PROFILE) r->latency_profile[kbest] = f;
    for (dir = 1; dir >= -1; dir -= 2)
        for (k = kbest + dir; k >= klo && k <= khi; k += dir) {
            double fk;
            if (k < S2R_SYSID_MAX_PROFILE && !isnan(r->latency_profile[k]) && !(r->latency_profile[k] < f)) break;
            memcpy(y, best, bytes);
            y[i] = k * id->dt;
            fk = s2r__sysid_descend(id, set, y, s2r__sysid_objective(id, y, set), i, NULL, 0);
            if (k < S2R_SYSID_MAX_PROFILE) r->latency_profile[k] = fk;
            if (!(fk < f)) break;
            f = fk;
            kbest = k;
            memcpy(best, y, bytes);
        }
    memcpy(x, best, bytes);
    return f;
}

/* The descent, then every latency by its outer search. */
static void s2r__sysid_fit(s2r_sysid* id, const s2r_trajectory_set* set, s2r_sysid_result* r, double* x,
                           int evaluations_before) {
    int i;
    double f = s2r__sysid_descend(id, set, x, r->loss[0], -1, r, evaluations_before);
    for (i = 0; i < id->config.n_params; i++)
        if (s2r__sysid_is_latency(id->config.param[i].param)) {
            int k;
            r->latency_index = i;   /* the last latency's profile is kept */
            for (k = 0; k < S2R_SYSID_MAX_PROFILE; k++) r->latency_profile[k] = NAN;
            f = s2r__sysid_latency_outer(id, set, r, x, i, f);
        }
    r->train_loss = f;
    memcpy(r->value, x, (size_t)id->config.n_params * sizeof(double));
}

/* --- System identification: sensitivity, validation, ranges ----------------- */

/* Loss change around the estimate for coordinate i (h = the probe
   distance): relative change (sensitivity) and second difference
   (curvature), from both sides when the bounds allow, else one side. */
static void s2r__sysid_probe(s2r_sysid* id, const s2r_trajectory_set* set, double* x, int i, double f,
                             double* sensitivity, double* curvature) {
    const s2r_sysid_param* sp = &id->config.param[i];
    double h = s2r__sysid_is_latency(sp->param) ? id->dt : id->config.sensitivity_step * (sp->hi - sp->lo);
    double c = x[i], eps = 1e-9 * (sp->hi - sp->lo + id->dt), f1, f2, scale = fmax(f, DBL_MIN);
    int up = c + h <= sp->hi + eps, down = c - h >= sp->lo - eps;
    *sensitivity = *curvature = 0;
    if (!(h > 0) || (!up && !down)) return;
    if (up && down) {
        f1 = s2r__sysid_at(id, set, x, i, c - h);
        f2 = s2r__sysid_at(id, set, x, i, c + h);
        *sensitivity = 0.5 * (fabs(f1 - f) + fabs(f2 - f)) / scale;
        *curvature = (f1 - 2 * f + f2) / (h * h);
        return;
    }
    if (!up) h = -h;   /* one-sided, into the bounds */
    f1 = s2r__sysid_at(id, set, x, i, c + h);
    *sensitivity = fabs(f1 - f) / scale;
    if ((up ? c + 2 * h <= sp->hi + eps : c + 2 * h >= sp->lo - eps)) {
        f2 = s2r__sysid_at(id, set, x, i, c + 2 * h);
        *curvature = (f - 2 * f1 + f2) / (h * h);
    } else {
        *curvature = 2 * (f1 - f) / (h * h);
    }
}

/* --- System identification: how sure the estimate is -----------------------
   Near the estimate the loss is almost quadratic in the continuous
   parameters: with r the weighted residuals (their squares sum to the
   loss) and J = dr/dvalue, loss(x + d) ~ loss(x) + 2 d'J'r + d'J'J d.
   s2r__sysid_assess: Levenberg-Marquardt from the descent's point (a check
   of how far it stopped from the minimum, or the reported point with
   config.polish) -> one-at-a-time probes (sensitivity, curvature) -> J'J
   at the reported point, eigen-decomposed in coordinates scaled by the
   bounds (flat combinations, condition) -> standard errors and the
   recentred half-widths. */

/* The residuals at a point and their Jacobian over the continuous
   parameters (central differences of a thousandth of the bounds). */
typedef struct s2r__sysid_jacobian {
    int     m, p;                        /* residual rows; continuous parameters        */
    int     col[S2R_SYSID_MAX_PARAMS];   /* parameter index of column c                 */
    double* r;                           /* [m] weighted residuals at the point         */
    double* J;                           /* [m][p] dr/dvalue, per parameter unit        */
    double* probe;                       /* [2][m] residuals at the two sides of a probe */
    double* score;                       /* [samples][p] J'r of each sample's rows, columns
                                            scaled (the sandwich's meat)               */
} s2r__sysid_jacobian;

static void s2r__sysid_jacobian_free(s2r__sysid_jacobian* G) {
    S2R_FREE(G->r);
    S2R_FREE(G->J);
    S2R_FREE(G->probe);
    S2R_FREE(G->score);
}

static s2r_result s2r__sysid_jacobian_init(s2r__sysid_jacobian* G, const s2r_sysid* id, const s2r_trajectory_set* set) {
    int i;
    memset(G, 0, sizeof *G);
    G->m = set->count * set->n_samples * s2r__sysid_rows(id, set);
    for (i = 0; i < id->config.n_params; i++)
        if (!s2r__sysid_is_latency(id->config.param[i].param) && id->config.param[i].hi > id->config.param[i].lo)
            G->col[G->p++] = i;
    G->r = (double*)s2r__calloc((size_t)G->m, sizeof(double));
    G->J = (double*)s2r__calloc((size_t)G->m * (G->p > 0 ? G->p : 1), sizeof(double));
    G->probe = (double*)s2r__calloc(2 * (size_t)G->m, sizeof(double));
    G->score = (double*)s2r__calloc((size_t)set->count * set->n_samples * (G->p > 0 ? G->p : 1), sizeof(double));
    if (G->r && G->J && G->probe && G->score) return S2R_OK;
    s2r__sysid_jacobian_free(G);
    return S2R_ERR_OUT_OF_MEMORY;
}

/* Fill G at x; S2R_ERR_DIVERGED (or another backend error) when a replay fails. */
static s2r_result s2r__sysid_jacobian_at(s2r_sysid* id, const s2r_trajectory_set* set, const double* x,
                                         s2r__sysid_jacobian* G) {
    double y[S2R_SYSID_MAX_PARAMS], e[3];
    s2r_result res;
    int c, k;
    memcpy(y, x, (size_t)id->config.n_params * sizeof(double));
    if ((res = s2r__sysid_errors(id, x, set, e, G->r)) != S2R_OK) return res;
    for (c = 0; c < G->p; c++) {
        const s2r_sysid_param* sp = &id->config.param[G->col[c]];
        double h = 1e-3 * (sp->hi - sp->lo), up = fmin(x[G->col[c]] + h, sp->hi), down = fmax(x[G->col[c]] - h, sp->lo);
        const double *rup = G->r, *rdown = G->r;
        if (up > x[G->col[c]]) {
            y[G->col[c]] = up;
            if ((res = s2r__sysid_errors(id, y, set, e, G->probe)) != S2R_OK) return res;
            rup = G->probe;
        }
        if (down < x[G->col[c]]) {
            y[G->col[c]] = down;
            if ((res = s2r__sysid_errors(id, y, set, e, G->probe + G->m)) != S2R_OK) return res;
            rdown = G->probe + G->m;
        }
        y[G->col[c]] = x[G->col[c]];
        for (k = 0; k < G->m; k++) G->J[(size_t)k * G->p + c] = (rup[k] - rdown[k]) / (up - down);
    }
    return S2R_OK;
}

/* J'J (p x p, row-major) and J'r ([p]) of G, columns scaled by `scale`. */
static void s2r__sysid_normal(const s2r__sysid_jacobian* G, const double* scale, double* A, double* g) {
    int a, b, k, p = G->p;
    memset(A, 0, (size_t)p * p * sizeof(double));
    memset(g, 0, (size_t)p * sizeof(double));
    for (k = 0; k < G->m; k++) {
        const double* row = G->J + (size_t)k * p;
        for (a = 0; a < p; a++) {
            g[a] += row[a] * scale[a] * G->r[k];
            for (b = 0; b <= a; b++) A[a * p + b] += row[a] * scale[a] * row[b] * scale[b];
        }
    }
    for (a = 0; a < p; a++)
        for (b = a + 1; b < p; b++) A[a * p + b] = A[b * p + a];
}

/* Eigen-decomposition of the symmetric n x n matrix a (row-major, n <=
   S2R_SYSID_MAX_PARAMS; destroyed) by cyclic Jacobi rotations: eigenvalues
   ascending in w, eigenvector k as row k of v (v[k n + i]). */
static void s2r__symmetric_eigen(int n, double* a, double* w, double* v) {
    double vec[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS];   /* columns: eigenvectors */
    int order[S2R_SYSID_MAX_PARAMS], i, j, p, q, sweep;
    for (i = 0; i < n * n; i++) vec[i] = (i / n == i % n);
    for (sweep = 0; sweep < 60; sweep++) {
        double off = 0, diag = 0;
        for (p = 0; p < n; p++) {
            diag += a[p * n + p] * a[p * n + p];
            for (q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
        }
        if (off <= 1e-30 * diag || off == 0) break;
        for (p = 0; p < n; p++)
            for (q = p + 1; q < n; q++) {
                double apq = a[p * n + q], theta, t, c, s;
                if (apq == 0) continue;
                theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
                t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                c = 1 / sqrt(t * t + 1);
                s = t * c;
                a[p * n + p] -= t * apq;
                a[q * n + q] += t * apq;
                a[p * n + q] = a[q * n + p] = 0;
                for (i = 0; i < n; i++) {
                    double aip, aiq, vip = vec[i * n + p], viq = vec[i * n + q];
                    vec[i * n + p] = c * vip - s * viq;
                    vec[i * n + q] = s * vip + c * viq;
                    if (i == p || i == q) continue;
                    aip = a[i * n + p]; aiq = a[i * n + q];
                    a[i * n + p] = a[p * n + i] = c * aip - s * aiq;
                    a[i * n + q] = a[q * n + i] = s * aip + c * aiq;
                }
            }
    }
    for (i = 0; i < n; i++) order[i] = i;
    for (i = 1; i < n; i++)   /* insertion sort by eigenvalue */
        for (j = i; j > 0 && a[order[j] * n + order[j]] < a[order[j - 1] * n + order[j - 1]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        w[i] = a[order[i] * n + order[i]];
        for (j = 0; j < n; j++) v[i * n + j] = vec[j * n + order[i]];
    }
}

/* Levenberg-Marquardt on the continuous parameters from x (loss f, G the
   Jacobian there on entry; G is left at the end point), inside the bounds:
   solve (J'J + mu diag(J'J)) d = -J'r, take the step when it lowers the
   loss (mu / 10), else mu x 10; at most S2R_SYSID_POLISH_ITERATIONS steps.
   out: the point reached; returns its loss. */
static double s2r__sysid_polish(s2r_sysid* id, const s2r_trajectory_set* set, const double* x, double f,
                                s2r__sysid_jacobian* G, double* out) {
    double A[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS], M[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS];
    double g[S2R_SYSID_MAX_PARAMS], w[S2R_SYSID_MAX_PARAMS], V[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS];
    double one[S2R_SYSID_MAX_PARAMS], y[S2R_SYSID_MAX_PARAMS], mu = 1e-3;
    int it, a, k, p = G->p, n = id->config.n_params;
    memcpy(out, x, (size_t)n * sizeof(double));
    for (a = 0; a < p; a++) one[a] = 1;
    for (it = 0; it < S2R_SYSID_POLISH_ITERATIONS && p > 0; it++) {
        double fy = INFINITY;
        if (it > 0 && s2r__sysid_jacobian_at(id, set, out, G) != S2R_OK) break;
        s2r__sysid_normal(G, one, A, g);
        while (mu < 1e8) {
            memcpy(M, A, (size_t)p * p * sizeof(double));
            for (a = 0; a < p; a++) M[a * p + a] += mu * fmax(A[a * p + a], DBL_MIN);
            s2r__symmetric_eigen(p, M, w, V);
            memcpy(y, out, (size_t)n * sizeof(double));
            for (k = 0; k < p; k++) {   /* d = -sum_k (v_k . g / w_k) v_k */
                double vg = 0;
                if (!(w[k] > 1e-14 * w[p - 1])) continue;
                for (a = 0; a < p; a++) vg += V[k * p + a] * g[a];
                for (a = 0; a < p; a++) y[G->col[a]] -= vg / w[k] * V[k * p + a];
            }
            for (a = 0; a < p; a++) {
                const s2r_sysid_param* sp = &id->config.param[G->col[a]];
                y[G->col[a]] = s2r_clamp(y[G->col[a]], sp->lo, sp->hi);
            }
            fy = s2r__sysid_objective(id, y, set);
            if (fy < f) break;
            mu *= 10;
        }
        if (!(fy < f)) break;
        mu = fmax(mu / 10, 1e-12);
        memcpy(out, y, (size_t)n * sizeof(double));
        if (f - fy <= 1e-6 * f) { f = fy; break; }
        f = fy;
    }
    return f;
}

/* Lag-one correlation of the residuals along time, pooled over every
   trajectory and row (0 when negative). */
static double s2r__sysid_residual_correlation(const s2r__sysid_jacobian* G, const s2r_trajectory_set* set) {
    int rows = G->m / (set->count * set->n_samples), i, k, j;
    double lag = 0, sq = 0;
    for (i = 0; i < set->count; i++)
        for (k = 0; k < set->n_samples; k++)
            for (j = 0; j < rows; j++) {
                const double* r = G->r + ((size_t)i * set->n_samples + k) * rows + j;
                sq += r[0] * r[0];
                if (k + 1 < set->n_samples) lag += r[0] * r[rows];
            }
    return sq > 0 ? s2r_clamp(lag / sq, 0, 0.9999) : 0;
}

/* Lags the sandwich's meat sums over: S2R_SYSID_SE_LAG_TIME of samples,
   at most the trajectory's length less one. */
static int s2r__sysid_se_lags(const s2r_trajectory_set* set) {
    int lags = (int)floor(S2R_SYSID_SE_LAG_TIME / set->sample_period + 0.5);
    return lags < set->n_samples - 1 ? lags : set->n_samples - 1;
}

/* The sandwich's meat in bounds units: the scores (each sample's J'r, its
   rows summed) of every trajectory, with their products at lags 1..lags
   along time weighted 1 - lag / (lags + 1) (Bartlett, which keeps it
   positive semi-definite); trajectories independent of one another.
   B: p x p, row-major. */
static void s2r__sysid_score_covariance(const s2r__sysid_jacobian* G, const s2r_trajectory_set* set,
                                        const double* scale, int lags, double* B) {
    int p = G->p, ns = set->n_samples, rows = G->m / (set->count * ns), i, k, l, a, b, j;
    memset(B, 0, (size_t)p * p * sizeof(double));
    memset(G->score, 0, (size_t)set->count * ns * p * sizeof(double));
    for (k = 0; k < set->count * ns; k++)
        for (j = 0; j < rows; j++) {
            size_t row = (size_t)k * rows + j;
            for (a = 0; a < p; a++) G->score[(size_t)k * p + a] += G->J[row * p + a] * scale[a] * G->r[row];
        }
    for (i = 0; i < set->count; i++)
        for (l = 0; l <= lags && l < ns; l++) {
            double weight = l == 0 ? 1.0 : 2.0 * (1.0 - (double)l / (lags + 1));   /* lags -l and +l together */
            for (k = 0; k + l < ns; k++) {
                const double* s0 = G->score + ((size_t)i * ns + k) * p;
                const double* s1 = s0 + (size_t)l * p;
                for (a = 0; a < p; a++)
                    for (b = 0; b < p; b++) B[a * p + b] += 0.5 * weight * (s0[a] * s1[b] + s1[a] * s0[b]);
            }
        }
}

/* From G at the reported point (loss f): the eigenpairs of J'J in bounds
   units, flat directions, condition, standard errors and the continuous
   parameters' half-widths. */
static void s2r__sysid_curvature(const s2r_sysid* id, const s2r_trajectory_set* set, const s2r__sysid_jacobian* G,
                                 double f, s2r_sysid_result* r) {
    const s2r_sysid_config* c = &id->config;
    double A[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS], V[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS];
    double B[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS], Ainv[S2R_SYSID_MAX_PARAMS * S2R_SYSID_MAX_PARAMS];
    double g[S2R_SYSID_MAX_PARAMS], w[S2R_SYSID_MAX_PARAMS], width[S2R_SYSID_MAX_PARAMS] = {0};
    double rho = s2r__sysid_residual_correlation(G, set);
    double flat = c->min_sensitivity * f / (c->sensitivity_step * c->sensitivity_step);
    int a, b, k, p = G->p, unseen[S2R_SYSID_MAX_PARAMS] = {0};
    r->n_directions = p;
    r->effective_samples = G->m * (1 - rho) / (1 + rho);
    if (p == 0) return;
    for (a = 0; a < p; a++) width[a] = c->param[G->col[a]].hi - c->param[G->col[a]].lo;
    s2r__sysid_normal(G, width, A, g);
    s2r__sysid_score_covariance(G, set, width, s2r__sysid_se_lags(set), B);
    s2r__symmetric_eigen(p, A, w, V);
    r->condition = w[0] > 0 ? w[p - 1] / w[0] : INFINITY;
    memset(Ainv, 0, sizeof Ainv);
    for (k = 0; k < p; k++) {
        r->eigenvalue[k] = w[k];
        for (a = 0; a < p; a++) r->eigenvector[k][G->col[a]] = V[k * p + a];
        if (w[k] < flat) r->n_flat = k + 1;
        for (a = 0; a < p; a++) {   /* (J'J)^-1 on the directions the data see */
            if (!(w[k] > 1e-14 * w[p - 1])) { unseen[a] |= V[k * p + a] * V[k * p + a] > 1e-12; continue; }
            for (b = 0; b < p; b++) Ainv[a * p + b] += V[k * p + a] * V[k * p + b] / w[k];
        }
    }
    for (a = 0; a < p; a++) {
        int i = G->col[a];
        double inverse = unseen[a] ? INFINITY : Ainv[a * p + a], variance = 0;   /* (J'J)^-1_ii in bounds units */
        for (b = 0; b < p; b++)   /* the sandwich (J'J)^-1 B (J'J)^-1, its diagonal */
            for (k = 0; k < p; k++) variance += Ainv[a * p + b] * B[b * p + k] * Ainv[k * p + a];
        r->std_error[i] = unseen[a] || G->m <= p ? INFINITY : width[a] * sqrt(variance * G->m / (G->m - p));
        /* sensitive also with the others re-fitted: a move of sensitivity_step along the profile raises the
           loss by sensitivity_step^2 / inverse */
        r->identifiable[i] = r->identifiable[i] && c->sensitivity_step * c->sensitivity_step >=
                                                   c->min_sensitivity * f * inverse;
        /* the move raising the loss by range_loss_rise with the others re-fitted */
        r->half_width[i] = s2r_clamp(width[a] * sqrt(c->range_loss_rise * f * inverse), c->range_min_width * width[a],
                                     0.5 * width[a]);
    }
}

/* At the reported point x (loss f, G its Jacobian when `fresh`): the
   probes (sensitivity; a latency's half-width from its curvature), then
   the curvature of J'J for the continuous parameters. */
static void s2r__sysid_local(s2r_sysid* id, const s2r_trajectory_set* set, s2r_sysid_result* r, double* x, double f,
                             const s2r__sysid_jacobian* G, int fresh) {
    const s2r_sysid_config* c = &id->config;
    int i;
    memcpy(r->value, x, (size_t)c->n_params * sizeof(double));
    for (i = 0; i < c->n_params; i++) {
        double width = c->param[i].hi - c->param[i].lo;
        s2r__sysid_probe(id, set, x, i, f, &r->sensitivity[i], &r->curvature[i]);
        r->identifiable[i] = r->sensitivity[i] >= c->min_sensitivity;
        r->std_error[i] = NAN;
        /* latencies (and anything the Jacobian cannot reach): from the probe's curvature */
        r->half_width[i] = r->curvature[i] > 0 ? sqrt(2 * c->range_loss_rise * f / r->curvature[i]) : 0.5 * width;
        r->half_width[i] = r->half_width_alone[i] = s2r_clamp(r->half_width[i], c->range_min_width * width, 0.5 * width);
    }
    if (fresh) s2r__sysid_curvature(id, set, G, f, r);
    for (i = 0; i < c->n_params; i++)   /* what the data cannot pin down has no finite interval */
        if (!r->identifiable[i]) r->std_error[i] = INFINITY;
}

/* The assessment at the descent's point, then the polish from there (a
   check, or with config.polish the reported point, assessed again);
   nothing is put back.  S2R_ERR_OUT_OF_MEMORY for the Jacobian. */
static s2r_result s2r__sysid_assess(s2r_sysid* id, const s2r_trajectory_set* set, s2r_sysid_result* r, double* x) {
    const s2r_sysid_config* c = &id->config;
    s2r__sysid_jacobian G;
    double f = r->train_loss;
    int i, fresh;
    if (s2r__sysid_jacobian_init(&G, id, set) != S2R_OK)
        return s2r__fail(id->error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the residual Jacobian (%d rows)", G.m);
    r->polish_loss = r->descent_loss = f;
    memcpy(r->polish_value, x, (size_t)c->n_params * sizeof(double));
    fresh = s2r__sysid_jacobian_at(id, set, x, &G) == S2R_OK;
    s2r__sysid_local(id, set, r, x, f, &G, fresh);
    if (fresh) r->polish_loss = s2r__sysid_polish(id, set, x, f, &G, r->polish_value);   /* moves G */
    for (i = 0; i < c->n_params; i++) {
        const s2r_sysid_param* sp = &c->param[i];
        if (sp->hi > sp->lo)
            r->polish_distance = fmax(r->polish_distance, fabs(r->polish_value[i] - x[i]) / (sp->hi - sp->lo));
    }
    if (c->polish && r->polish_loss < f) {
        memcpy(x, r->polish_value, (size_t)c->n_params * sizeof(double));
        f = r->train_loss = r->polish_loss;
        r->polished = 1;
        memset(r->eigenvector, 0, sizeof r->eigenvector);
        r->n_flat = 0;
        s2r__sysid_local(id, set, r, x, f, &G, s2r__sysid_jacobian_at(id, set, x, &G) == S2R_OK);
    }
    s2r__sysid_jacobian_free(&G);
    return S2R_OK;
}

/* The first guess: start, or the nominal model, clamped; latencies on a step. */
static double s2r__sysid_start(const s2r_sysid* id, int i) {
    const s2r_sysid_param* sp = &id->config.param[i];
    double v = isnan(sp->start) ? s2r__sysid_nominal(sp->param) : sp->start;
    int klo, khi;
    if (s2r__sysid_is_latency(sp->param)) {
        s2r__sysid_step_range(id, i, &klo, &khi);
        return (double)(int)s2r_clamp(floor(v / id->dt + 0.5), klo, khi) * id->dt;
    }
    return s2r_clamp(v, sp->lo, sp->hi);
}

/* Checks, start values and the starting loss. */
static s2r_result s2r__sysid_begin(s2r_sysid* id, const s2r_trajectory_set* train,
                                   const s2r_trajectory_set* validation, s2r_sysid_result* r, double* x) {
    char msg[S2R_ERROR_LEN];
    int i, n = id->sim.robot.info.n_joints;
    s2r_result res;
    memset(r, 0, sizeof *r);
    r->n_params = id->config.n_params;
    r->validation_mse_start = r->validation_mse = r->validation_object_mse_start = r->validation_object_mse = NAN;
    r->validation_object_motion = r->validation_object_relative_start = r->validation_object_relative = NAN;
    r->validation_object_floor = r->polish_loss = r->condition = r->effective_samples = NAN;
    r->latency_index = -1;
    for (i = 0; i < S2R_SYSID_MAX_PROFILE; i++) r->latency_profile[i] = NAN;
    for (i = 0; i < S2R_MAX_JOINTS; i++) r->joint_rms[i] = r->joint_relative[i] = NAN;
    r->verdict = S2R_SYSID_BLOCK;
    if (s2r_trajectory_set_check(train, n, msg) != S2R_OK)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "training data: %s", msg);
    if (validation && s2r_trajectory_set_check(validation, n, msg) != S2R_OK)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "validation data: %s", msg);
    if (validation && !train->object != !validation->object)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "the training and validation sets must both hold the "
                         "object or both not");
    for (i = 0; i < r->n_params; i++) x[i] = r->start[i] = r->value[i] = s2r__sysid_start(id, i);
    if ((res = s2r__sysid_check_call(id, r->start, train)) != S2R_OK) return res;
    r->loss[0] = r->train_loss = s2r__sysid_objective(id, x, train);
    if (!isfinite(r->loss[0]))
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "the simulation diverges at the start values: %s", id->sim.error);
    return S2R_OK;
}

/* Mean over joints of the variance of a set's measured positions (rad^2):
   the size of the motion the errors are judged against; each joint's in
   per_joint ([n_joints]) if given. */
static double s2r__traj_motion(const s2r_trajectory_set* set, double* per_joint) {
    int j, i, k, m = set->count * set->n_samples;
    double total = 0;
    for (j = 0; j < set->n_joints && m > 0; j++) {
        double mean = 0, var = 0;
        for (i = 0; i < set->count; i++)
            for (k = 0; k < set->n_samples; k++) mean += set->q[s2r__traj_at(set, i, k) + (size_t)j] / m;
        for (i = 0; i < set->count; i++)
            for (k = 0; k < set->n_samples; k++) {
                double d = set->q[s2r__traj_at(set, i, k) + (size_t)j] - mean;
                var += d * d / m;
            }
        if (per_joint) per_joint[j] = var;
        total += var / set->n_joints;
    }
    return total;
}

/* Mean over trajectories and samples of the seen object's squared distance
   from that trajectory's mean position (m^2; 0 without the object): how
   far the pushes moved it. */
static double s2r__traj_object_motion(const s2r_trajectory_set* set) {
    int i, k, ns = set->n_samples;
    double total = 0;
    for (i = 0; set->object && i < set->count; i++) {
        const double* o = set->object + 2 * (size_t)i * ns;
        double mx = 0, my = 0;
        for (k = 0; k < ns; k++) { mx += o[2 * k] / ns; my += o[2 * k + 1] / ns; }
        for (k = 0; k < ns; k++)
            total += ((o[2 * k] - mx) * (o[2 * k] - mx) + (o[2 * k + 1] - my) * (o[2 * k + 1] - my)) / ((double)ns * set->count);
    }
    return total;
}

/* The seen object's mean squared distance from where it was set down (m^2)
   over the samples before the arm was sent anywhere (command k equal to
   command 0): the camera's error on a resting object; 0 when no trajectory
   has such samples. */
static double s2r__traj_object_floor(const s2r_trajectory_set* set) {
    int i, k, n = set->n_joints, used = 0;
    double total = 0;
    for (i = 0; set->object && i < set->count; i++) {
        const double* c0 = set->command + s2r__traj_at(set, i, 0);
        for (k = 0; k < set->n_samples; k++) {
            const double* o = set->object + 2 * ((size_t)i * set->n_samples + k);
            const double* p = set->object0 + 2 * (size_t)i;
            if (memcmp(set->command + s2r__traj_at(set, i, k), c0, (size_t)n * sizeof(double)) != 0) break;
            total += (o[0] - p[0]) * (o[0] - p[0]) + (o[1] - p[1]) * (o[1] - p[1]);
            used++;
        }
    }
    return used > 0 ? total / used : 0;
}

/* sqrt((mse - floor) / motion): the error beyond the floor, relative. */
static double s2r__relative_error(double mse, double floor, double motion) {
    if (!(motion > 0) || !isfinite(mse)) return INFINITY;
    return sqrt(fmax(mse - floor, 0) / motion);
}

static int s2r__compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Per joint: the held-out rms position error at the identified values,
   relative to that joint's own motion; a joint above S2R_SYSID_REL_GOOD
   and three times the median joint's is flagged (left NaN when memory or
   a replay fails). */
static void s2r__sysid_joint_fit(s2r_sysid* id, const s2r_trajectory_set* set, s2r_sysid_result* r) {
    int n = set->n_joints, i, k, j;
    double motion[S2R_MAX_JOINTS], sq[S2R_MAX_JOINTS] = {0}, sorted[S2R_MAX_JOINTS], median;
    double* q = (double*)s2r__calloc((size_t)set->n_samples * n, sizeof(double));
    if (!q) return;
    s2r__traj_motion(set, motion);
    for (i = 0; i < set->count; i++) {
        if (s2r_sysid_simulate(id, r->value, set, i, q, NULL) != S2R_OK) { S2R_FREE(q); return; }
        for (k = 0; k < set->n_samples; k++)
            for (j = 0; j < n; j++) {
                double e = q[(size_t)k * n + j] - set->q[s2r__traj_at(set, i, k) + (size_t)j];
                sq[j] += e * e;
            }
    }
    for (j = 0; j < n; j++) {
        r->joint_rms[j] = sqrt(sq[j] / ((double)set->count * set->n_samples));
        r->joint_relative[j] = motion[j] > 0 ? r->joint_rms[j] / sqrt(motion[j]) : INFINITY;
        sorted[j] = r->joint_relative[j];
    }
    qsort(sorted, (size_t)n, sizeof *sorted, s2r__compare_doubles);
    median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    for (j = 0; j < n; j++)   /* a joint that stands out: what the others share is the fit's, not the joint's */
        r->joint_misfit[j] = !(r->joint_relative[j] <= S2R_SYSID_REL_GOOD) && !(r->joint_relative[j] <= 3 * median);
    S2R_FREE(q);
}

/* Held-out MSE before and after, relative to the motion, and the verdict. */
static void s2r__sysid_validate(s2r_sysid* id, const s2r_trajectory_set* train,
                                const s2r_trajectory_set* validation, s2r_sysid_result* r) {
    const s2r_sysid_config* c = &id->config;
    const s2r_trajectory_set* set = validation ? validation : train;
    double before[3], after[3], object_motion = s2r__traj_object_motion(set);
    s2r_sysid_verdict joints, object;
    int side, i;
    if (s2r__sysid_errors(id, r->start, set, before, NULL) != S2R_OK) before[0] = before[2] = INFINITY;
    if (s2r__sysid_errors(id, r->value, set, after, NULL) != S2R_OK) after[0] = after[2] = INFINITY;
    r->validation_mse_start = before[0];
    r->validation_mse = after[0];
    r->validation_motion = s2r__traj_motion(set, NULL);
    r->validation_relative_start = r->validation_motion > 0 ? sqrt(before[0] / r->validation_motion) : INFINITY;
    r->validation_relative = r->validation_motion > 0 ? sqrt(after[0] / r->validation_motion) : INFINITY;
    for (side = 0; side < 2; side++) {   /* judged as the verdict judges: the worse of what the loss weighs */
        double corner[S2R_SYSID_MAX_PARAMS], e[3] = {INFINITY, INFINITY, INFINITY}, worst = 0;
        for (i = 0; i < c->n_params; i++) corner[i] = side ? c->param[i].hi : c->param[i].lo;
        if (s2r__sysid_errors(id, corner, set, e, NULL) != S2R_OK) e[0] = e[2] = INFINITY;
        if (c->weight_q + c->weight_qd > 0)
            worst = r->validation_motion > 0 ? sqrt(e[0] / r->validation_motion) : INFINITY;
        if (c->weight_object > 0 && set->object)
            worst = fmax(worst, s2r__relative_error(e[2], s2r__traj_object_floor(set), object_motion));
        r->validation_relative_corner[side] = worst;
    }
    r->validation_object_mse_start = r->validation_object_mse = r->validation_object_motion = NAN;
    r->validation_object_floor = r->validation_object_relative_start = r->validation_object_relative = NAN;
    if (set->object) {
        double floor = s2r__traj_object_floor(set);
        r->validation_object_mse_start = before[2];
        r->validation_object_mse = after[2];
        r->validation_object_motion = object_motion;
        r->validation_object_floor = floor;
        r->validation_object_relative_start = s2r__relative_error(before[2], floor, object_motion);
        r->validation_object_relative = s2r__relative_error(after[2], floor, object_motion);
    }
    /* judged on what the loss weighs: the worse of the two */
    joints = c->weight_q + c->weight_qd > 0 ? s2r_sysid_verdict_relative(r->validation_relative) : S2R_SYSID_GOOD;
    object = c->weight_object > 0 ? s2r_sysid_verdict_object(r->validation_object_relative) : S2R_SYSID_GOOD;
    r->verdict = joints > object ? joints : object;
    s2r__sysid_joint_fit(id, set, r);
    if (!validation) r->validation_mse_start = r->validation_relative_start = r->validation_object_mse_start =
                     r->validation_object_relative_start = NAN;
}

S2RDEF s2r_result s2r_sysid_run(s2r_sysid* id, const s2r_trajectory_set* train,
                                const s2r_trajectory_set* validation, s2r_sysid_result* result) {
    S2R_ASSERT(id);
    if (!result)
        return s2r__fail(id->error, S2R_ERR_INVALID_ARGUMENT, "s2r_sysid_run: result is NULL");
    double x[S2R_SYSID_MAX_PARAMS];
    int before;
    s2r_result res;
    before = id->evaluations;
    if ((res = s2r__sysid_begin(id, train, validation, result, x)) != S2R_OK) return res;
    s2r__sysid_fit(id, train, result, x, before);
    if ((res = s2r__sysid_assess(id, train, result, x)) != S2R_OK) return res;
    s2r__sysid_validate(id, train, validation, result);
    result->evaluations = id->evaluations - before;
    return S2R_OK;
}

/* Joint `joint` of parameter p given its own range `dist` in r (replacing
   one it has); the shared entry is switched on at its mode's identity if it
   was off, so the other joints keep their nominal values.  S2R_ERR_STATE
   when r holds S2R_JOINT_RANGES_MAX others already. */
static s2r_result s2r__set_joint_range(s2r_randomization* r, s2r_param p, int joint, s2r_dist dist) {
    if ((unsigned)p >= S2R_PARAM_COUNT) return S2R_ERR_INVALID_ARGUMENT;
    if (s2r__put_joint_range(r, p, joint, dist) < 0) return S2R_ERR_STATE;
    if (!r->p[p].enabled) {
        r->p[p].enabled = 1;
        r->p[p].mode = s2r_param_default_mode(p);
        r->p[p].dist = s2r_dist_fixed(s2r__mode_identity(r->p[p].mode));
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_sysid_fixed(const s2r_sysid* id, const s2r_sysid_result* result, s2r_randomization* out) {
    s2r_randomization r;
    int i;
    if (!id || !result || !out || result->n_params != id->config.n_params)
        return S2R_ERR_INVALID_ARGUMENT;
    r = s2r__sysid_modes(&id->config, result->value);
    for (i = 0; i < result->n_params; i++)   /* the joints fitted on their own */
        if (id->config.param[i].joint > 0 &&
            s2r__set_joint_range(&r, id->config.param[i].param, id->config.param[i].joint, s2r_dist_fixed(result->value[i])) != S2R_OK)
            return S2R_ERR_STATE;
    *out = r;
    return S2R_OK;
}

S2RDEF s2r_result s2r_sysid_recentre(const s2r_sysid* id, const s2r_sysid_result* result,
                                     const s2r_randomization* training, s2r_randomization* out) {
    s2r_randomization r;
    s2r_result res;
    int i;
    if (!id || !result || !training || !out || result->n_params != id->config.n_params)
        return S2R_ERR_INVALID_ARGUMENT;
    r = *training;
    for (i = 0; i < result->n_params; i++) {   /* the shared entries */
        const s2r_sysid_param* sp = &id->config.param[i];
        double v = result->value[i], w = result->half_width[i];
        if (!result->identifiable[i] || sp->joint > 0) continue;
        r.p[sp->param].enabled = 1;
        r.p[sp->param].mode = s2r_param_default_mode(sp->param);
        r.p[sp->param].dist = s2r_dist_uniform(fmax(sp->lo, v - w), fmin(sp->hi, v + w));
    }
    for (i = 0; i < result->n_params; i++) {   /* then the joints fitted on their own: ranges of their own */
        const s2r_sysid_param* sp = &id->config.param[i];
        double v = result->value[i], w = result->half_width[i];
        if (!result->identifiable[i] || sp->joint == 0) continue;
        if (r.p[sp->param].enabled && r.p[sp->param].mode != s2r_param_default_mode(sp->param)) return S2R_ERR_INVALID_ARGUMENT;
        if (s2r__set_joint_range(&r, sp->param, sp->joint, s2r_dist_uniform(fmax(sp->lo, v - w), fmin(sp->hi, v + w))) != S2R_OK)
            return S2R_ERR_STATE;
    }
    if ((res = s2r_randomization_check(&r, NULL)) != S2R_OK) return res;
    *out = r;
    return S2R_OK;
}

/* Unit of a parameter's value under its default mode. */
static const char* s2r__sysid_unit(s2r_param p) {
    if (s2r_param_default_mode(p) == S2R_APPLY_SCALE) return "x nominal";
    if (p == S2R_PARAM_FRICTIONLOSS) return "N m";
    return p == S2R_PARAM_PAYLOAD ? "kg" : "s";
}

/* Mean perceived target (m) over `reads` readings with the marker at p. */
static s2r_result s2r__perceive_marker(const s2r_backend* robot, const double p[3], int reads, s2r_rng* rng,
                                       double mean[3]) {
    s2r_sensors s;
    s2r_result res = s2r_backend_reset(robot, NULL, p, rng);
    int k, i;
    mean[0] = mean[1] = mean[2] = 0;
    for (k = 0; k < reads && res == S2R_OK; k++) {
        res = s2r_backend_advance(robot, 0.04);
        if (res == S2R_OK) res = s2r_backend_read_sensors(robot, &s);
        for (i = 0; i < 3; i++) mean[i] += s.target[i] / reads;
    }
    return res;
}

S2RDEF s2r_result s2r_calibrate_camera(const s2r_backend* robot, int points, int reads, uint64_t seed,
                                       double offset[3], double* spread, char* error) {
    s2r_reach_config task = s2r_reach_config_default();
    double seen[16][3], placed[16][3], worst = 0;
    int k, i;
    if (!robot || !offset) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "camera calibration needs a robot and room for the offset");
    if (points < 1 || points > 16 || reads < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "camera calibration needs 1..16 points and >= 1 reading");
    offset[0] = offset[1] = offset[2] = 0;
    for (k = 0; k < points; k++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)k);
        s2r_result res;
        s2r_reach_sample_target(&task, robot->info, &rng, placed[k]);
        if ((res = s2r__perceive_marker(robot, placed[k], reads, &rng, seen[k])) != S2R_OK)
            return s2r__fail(error, res, "camera calibration: %s", robot->error);
        for (i = 0; i < 3; i++) offset[i] += (seen[k][i] - placed[k][i]) / points;
    }
    for (k = 0; k < points; k++) {
        double d = 0;
        for (i = 0; i < 3; i++) d += (seen[k][i] - placed[k][i] - offset[i]) * (seen[k][i] - placed[k][i] - offset[i]);
        worst = fmax(worst, sqrt(d));
    }
    if (spread) *spread = worst;
    return S2R_OK;
}

S2RDEF s2r_result s2r_calibrate_unit(s2r_robot_kind robot, uint64_t unit, uint64_t seed, double offset[3],
                                     double* spread, char* error) {
    s2r_real_robot real;
    s2r_result res = s2r_real_robot_init(&real, robot, unit);
    if (res != S2R_OK) return s2r__fail(error, res, "%s", real.error);
    res = s2r_calibrate_camera(&real.backend, S2R_CALIBRATION_POINTS, S2R_CALIBRATION_READS, seed, offset, spread, error);
    s2r_real_robot_free(&real);
    return res;
}

S2RDEF s2r_identify_config s2r_identify_config_default(void) {
    s2r_identify_config c;
    c.train = 3;
    c.valid = 2;
    c.samples = 150;
    c.sweeps = 30;
    c.seed = 1;
    c.strikes = 8;
    c.strikes_valid = 4;
    c.strike_speed = 1.0;
    return c;
}

S2RDEF s2r_result s2r_identify_unit(const s2r_backend* robot, const s2r_identify_config* config,
                                    const s2r_randomization* training, s2r_randomization* next,
                                    s2r_randomization* identified, s2r_sysid_result* result,
                                    double camera_offset[3], char* error) {
    if (!robot || !config || !training || !next || !result || !camera_offset)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_identify_unit: robot, config, training, next, result or "
                         "camera_offset is NULL");
    s2r_excitation_config ex = s2r_excitation_config_default();
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_sim_config model = s2r_sim_config_default(robot->info->kind);
    s2r_trajectory_set train, valid;
    s2r_sysid id;
    int n = robot->info->n_joints;
    s2r_result res;
    memset(&train, 0, sizeof train);
    memset(&valid, 0, sizeof valid);
    memset(&id, 0, sizeof id);
    cfg.known.p[S2R_PARAM_OBS_LATENCY] = training->p[S2R_PARAM_OBS_LATENCY];
    cfg.max_sweeps = config->sweeps;
    res = s2r_trajectory_set_init(&train, n, config->samples, config->train, 0.02);
    if (res == S2R_OK) res = s2r_trajectory_set_init(&valid, n, config->samples, config->valid, 0.02);
    if (res == S2R_OK && (res = s2r_trajectory_collect(&train, robot, &ex, config->train, config->seed)) != S2R_OK)
        s2r__fail(error, res, "%s", train.error);
    ex.kind = S2R_EXCITATION_CHIRP;
    if (res == S2R_OK && (res = s2r_trajectory_collect(&valid, robot, &ex, config->valid, config->seed + 1)) != S2R_OK)
        s2r__fail(error, res, "%s", valid.error);
    if (res == S2R_OK && (res = s2r_sysid_init(&id, &cfg, &model)) != S2R_OK) s2r__fail(error, res, "%s", id.error);
    if (res == S2R_OK && (res = s2r_sysid_run(&id, &train, &valid, result)) != S2R_OK) s2r__fail(error, res, "%s", id.error);
    if (res == S2R_OK && (res = s2r_sysid_recentre(&id, result, training, next)) != S2R_OK) s2r__fail(error, res, "%s", id.error);
    if (res == S2R_OK && identified) res = s2r_sysid_fixed(&id, result, identified);
    if (res == S2R_OK)
        res = s2r_calibrate_camera(robot, S2R_CALIBRATION_POINTS, S2R_CALIBRATION_READS, config->seed + 2, camera_offset,
                                   NULL, error);
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    return res;
}

/* Record `count` strikes into a set with the object (stream `seed`) and
   take the camera's calibration offset out of what it saw. */
static s2r_result s2r__record_strikes(s2r_trajectory_set* set, const s2r_backend* robot, const s2r_identify_config* c,
                                      int count, uint64_t seed, const double camera_offset[3], char* error) {
    s2r_result res = s2r_trajectory_set_init(set, robot->info->n_joints, 60, count, 0.02);
    size_t k, n;
    if (res == S2R_OK) res = s2r_trajectory_set_add_object(set);
    if (res == S2R_OK) res = s2r_trajectory_collect_strikes(set, robot, c->strike_speed, count, seed);
    if (res != S2R_OK) return s2r__fail(error, res, "%s", set->error);
    n = (size_t)set->count * set->n_samples;
    for (k = 0; k < n; k++) {
        set->object[2 * k] -= camera_offset[0];
        set->object[2 * k + 1] -= camera_offset[1];
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_identify_object(const s2r_backend* push_robot, const s2r_identify_config* config,
                                      const double camera_offset[3], s2r_randomization* next,
                                      s2r_randomization* identified, s2r_sysid_result* result, char* error) {
    s2r_sysid_config cfg = s2r_sysid_config_object();
    s2r_sim_config model;
    s2r_trajectory_set train, valid;
    s2r_sysid id;
    s2r_result res;
    if (!push_robot || !push_robot->info || !config || !camera_offset || !next || !identified || !result)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify object: every argument is required");
    if (config->strikes < 1 || config->strikes_valid < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "identify object: need >= 1 strike to fit and >= 1 held out");
    memset(&train, 0, sizeof train);
    memset(&valid, 0, sizeof valid);
    memset(&id, 0, sizeof id);
    model = s2r_task_sim_config(S2R_TASK_PUSH, push_robot->info->kind);
    cfg.known = *identified;
    cfg.max_sweeps = config->sweeps;
    res = s2r__record_strikes(&train, push_robot, config, config->strikes, config->seed + 3, camera_offset, error);
    if (res == S2R_OK)
        res = s2r__record_strikes(&valid, push_robot, config, config->strikes_valid, config->seed + 4, camera_offset, error);
    if (res == S2R_OK && (res = s2r_sysid_init(&id, &cfg, &model)) != S2R_OK) s2r__fail(error, res, "%s", id.error);
    if (res == S2R_OK && (res = s2r_sysid_run(&id, &train, &valid, result)) != S2R_OK) s2r__fail(error, res, "%s", id.error);
    if (res == S2R_OK && result->verdict != S2R_SYSID_BLOCK) {
        s2r_randomization fixed;
        if ((res = s2r_sysid_recentre(&id, result, next, next)) != S2R_OK) s2r__fail(error, res, "recentring the object's ranges");
        else if ((res = s2r_sysid_fixed(&id, result, &fixed)) == S2R_OK) {   /* only what the data could see */
            int i;
            for (i = 0; i < result->n_params; i++)
                if (result->identifiable[i]) identified->p[cfg.param[i].param] = fixed.p[cfg.param[i].param];
        }
    }
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    return res;
}

/* An entry's name for the report: "kp", or "kp[4]" for joint 4's own. */
static const char* s2r__sysid_label(const s2r_sysid_param* sp, char* buf, size_t cap) {
    if (sp->joint <= 0) return s2r_param_name(sp->param);
    snprintf(buf, cap, "%s[%d]", s2r_param_name(sp->param), sp->joint);
    return buf;
}

/* The latency profile as "k: loss" around its minimum (searched steps only). */
static void s2r__sysid_print_profile(const s2r_sysid* id, const s2r_sysid_result* r) {
    int k;
    if (r->latency_index < 0) return;
    printf("  %s profile (others re-fitted), loss by delay:", s2r_param_name(id->config.param[r->latency_index].param));
    for (k = 0; k < S2R_SYSID_MAX_PROFILE; k++)
        if (!isnan(r->latency_profile[k]))
            printf(" %.0f ms %.3e%s", 1000 * k * id->dt, r->latency_profile[k],
                   fabs(k * id->dt - r->value[r->latency_index]) < 0.5 * id->dt ? " (best)" : "");
    printf("\n");
}

/* Each flat combination as "0.71 kp - 0.70 payload" (components >= 0.2). */
static void s2r__sysid_print_flat(const s2r_sysid* id, const s2r_sysid_result* r) {
    int k, i;
    printf("  curvature in bounds units: condition %.3g, %d flat combination%s\n", r->condition, r->n_flat,
           r->n_flat == 1 ? "" : "s");
    for (k = 0; k < r->n_flat; k++) {
        printf("    flat (rise %.2e rad^2 per bounds width):", r->eigenvalue[k]);
        for (i = 0; i < r->n_params; i++)
            if (fabs(r->eigenvector[k][i]) >= 0.2) {
                char label[40];
                printf(" %+.2f %s", r->eigenvector[k][i], s2r__sysid_label(&id->config.param[i], label, sizeof label));
            }
        printf("\n");
    }
}

S2RDEF void s2r_sysid_print(const s2r_sysid* id, const s2r_sysid_result* result) {
    S2R_ASSERT(id && result);
    int i, j, held_out = !isnan(result->validation_mse_start);   /* NaN: run without validation trajectories */
    printf("  %-15s %-9s %9s %9s %9s %19s %11s %10s\n", "parameter", "unit", "start", "value", "std err", "bounds",
           "sensitivity", "range +-");
    for (i = 0; i < result->n_params; i++) {
        const s2r_sysid_param* sp = &id->config.param[i];
        const char* note = !result->identifiable[i] ? "  not identifiable"
                         : (result->value[i] == sp->lo || result->value[i] == sp->hi) ? "  at a bound" : "";
        char label[40], se[16];
        if (isnan(result->std_error[i])) snprintf(se, sizeof se, "-");           /* grid-searched: no standard error */
        else if (isinf(result->std_error[i])) snprintf(se, sizeof se, "open");   /* the data do not bound it */
        else snprintf(se, sizeof se, "%.2g", result->std_error[i]);
        printf("  %-15s %-9s %9.4g %9.4g %9s   [%7.3g, %7.3g] %11.2e %10.3g%s\n", s2r__sysid_label(sp, label, sizeof label),
               s2r__sysid_unit(sp->param), result->start[i], result->value[i], se, sp->lo, sp->hi, result->sensitivity[i],
               result->half_width[i], note);
    }
    printf("  training loss %.3e -> %.3e rad^2 in %d sweeps (%s), %d loss evaluations\n", result->loss[0], result->train_loss,
           result->sweeps, result->converged ? "converged" : "sweep budget spent", result->evaluations);
    s2r__sysid_print_profile(id, result);
    printf("  Levenberg-Marquardt from there (%s): loss %.3e (%+.2f %%), largest move %.2g of a parameter's bounds\n",
           result->polished ? "taken" : "a check", result->polish_loss, 100 * (result->polish_loss / result->descent_loss - 1),
           result->polish_distance);
    printf("  standard errors: a sandwich allowing for each trajectory's residuals correlated up to %.2g s (%.0f "
           "effectively independent residuals); \"open\": not identifiable, \"-\": searched on a grid\n",
           S2R_SYSID_SE_LAG_TIME, result->effective_samples);
    if (result->n_directions > 0) s2r__sysid_print_flat(id, result);
    if (!isnan(result->validation_object_motion) && held_out)
        printf("  object: held-out mean squared error %.3e -> %.3e m^2, camera floor %.3e: %.1f %% -> %.1f %% of "
               "its motion\n", result->validation_object_mse_start, result->validation_object_mse, result->validation_object_floor,
               100 * result->validation_object_relative_start, 100 * result->validation_object_relative);
    else if (!isnan(result->validation_object_motion))
        printf("  object: on the fitted data mean squared error %.3e m^2, camera floor %.3e: %.1f %% of its motion\n",
               result->validation_object_mse, result->validation_object_floor, 100 * result->validation_object_relative);
    printf("  %s error per joint (rms, %% of the joint's motion):", held_out ? "held-out" : "fitted data's");
    for (j = 0; j < id->sim.robot.info.n_joints && !isnan(result->joint_rms[j]); j++)
        printf(" %.2g mrad %.1f%%%s", 1000 * result->joint_rms[j], 100 * result->joint_relative[j], result->joint_misfit[j] ? " (misfit)" : "");
    if (held_out)
        printf("\n  validation MSE %.3e -> %.3e rad^2, %.1f %% -> %.1f %% of the motion", result->validation_mse_start,
               result->validation_mse, 100 * result->validation_relative_start, 100 * result->validation_relative);
    else   /* no held-out trajectories: nothing to compare the start values on */
        printf("\n  no held-out trajectories: on the fitted data MSE %.3e rad^2, %.1f %% of the motion (flattering)",
               result->validation_mse, 100 * result->validation_relative);
    printf(": %s (every parameter at its lower bound: %.1f %%, upper: %.1f %%)\n", s2r_sysid_verdict_name(result->verdict),
           100 * result->validation_relative_corner[0], 100 * result->validation_relative_corner[1]);
    for (j = 0; j < id->sim.robot.info.n_joints; j++)
        if (result->joint_misfit[j])
            printf("  joint %d is not followed: the shared parameters cannot hold it; fit its own kp, kv, damping, "
                   "armature or friction loss (s2r_sysid_param.joint = %d)\n", j + 1, j + 1);
}

/* >> section: Deployment
   Flow: the safety monitor (a backend in front of a backend), episodes behind
   it, shadow mode, the gates (s2r_sprt_decide, then each stage's gate,
   their shared pieces last), drift detection, the stage machine and its
   log.  Read s2r_gate_tethered for how a gate decides. */

/* --- Deployment: names ------------------------------------------------------ */

static const char* const s2r__stage_names[S2R_STAGE_COUNT] = {
    "sim_regression", "sysid_validation", "shadow", "tethered",
    "constrained", "canary", "autonomous", "rolled_back"};
static const char* const s2r__verdict_names[S2R_VERDICT_COUNT] = {"pass", "warn", "continue", "fail"};
static const char* const s2r__intervention_names[S2R_INTERVENTION_COUNT] = {
    "nonfinite", "hard_limit", "soft_limit", "step", "workspace", "velocity", "torque", "estop"};
static const char* const s2r__drift_kind_names[S2R_DRIFT_KIND_COUNT] = {"bernoulli", "gaussian"};
static const char* const s2r__alarm_names[S2R_ALARM_COUNT] = {
    "success_drift", "action_drift", "interventions", "torque", "catastrophic"};
static const char* const s2r__alarm_response_names[S2R_ALARM_RESPONSE_COUNT] = {"rollback", "demote"};

/* Entry i of a name table of n entries, "unknown" outside. */
static const char* s2r__name_of(const char* const* names, int n, int i) {
    return (i >= 0 && i < n) ? names[i] : "unknown";
}

S2RDEF const char* s2r_stage_name(s2r_stage stage) { return s2r__name_of(s2r__stage_names, S2R_STAGE_COUNT, (int)stage); }
S2RDEF const char* s2r_verdict_name(s2r_verdict verdict) { return s2r__name_of(s2r__verdict_names, S2R_VERDICT_COUNT, (int)verdict); }
S2RDEF const char* s2r_intervention_name(s2r_intervention kind) {
    return s2r__name_of(s2r__intervention_names, S2R_INTERVENTION_COUNT, (int)kind);
}
S2RDEF const char* s2r_drift_kind_name(s2r_drift_kind kind) {
    return s2r__name_of(s2r__drift_kind_names, S2R_DRIFT_KIND_COUNT, (int)kind);
}
S2RDEF const char* s2r_alarm_name(s2r_alarm alarm) { return s2r__name_of(s2r__alarm_names, S2R_ALARM_COUNT, (int)alarm); }
S2RDEF const char* s2r_alarm_response_name(s2r_alarm_response r) {
    return s2r__name_of(s2r__alarm_response_names, S2R_ALARM_RESPONSE_COUNT, (int)r);
}

/* ==========================================================================
   Deployment (2/7): the safety monitor
   ========================================================================== */

S2RDEF s2r_safety_config s2r_safety_config_default(void) {
    s2r_safety_config c;
    memset(&c, 0, sizeof c);
    c.soft_margin = 0.05;
    c.max_step = 0.05;
    c.velocity_fraction = 0.8;
    c.torque_fraction = 0.95;
    c.torque_time = 0.2;
    c.workspace_scale = 1.0;
    c.workspace_margin = 0.15;
    c.check_period = 0.002;
    c.stop_lead = 0.01;
    c.estop_on = 0;
    c.halt = NULL;
    c.halt_context = NULL;
    return c;
}

static s2r_result s2r__safety_check_config(const s2r_safety_config* c, char* error) {
    if (!(c->soft_margin >= 0) || !isfinite(c->soft_margin))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: soft_margin must be finite and >= 0 rad");
    if (!(c->max_step > 0) || !isfinite(c->max_step))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: max_step must be finite and > 0 rad");
    if (!(c->velocity_fraction > 0) || !isfinite(c->velocity_fraction) || !(c->torque_fraction > 0) ||
        !isfinite(c->torque_fraction))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: velocity_fraction and torque_fraction must be finite and > 0");
    if (!(c->torque_time >= 0) || !isfinite(c->torque_time))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: torque_time must be finite and >= 0 s");
    if (!(c->workspace_scale >= 0 && c->workspace_scale <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: workspace_scale must be in [0, 1]");
    if (!(c->workspace_margin >= 0) || !isfinite(c->workspace_margin))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: workspace_margin must be finite and >= 0 m");
    if (!(c->check_period > 0) || !isfinite(c->check_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: check_period must be finite and > 0 s");
    if (!(c->stop_lead >= 0) || !isfinite(c->stop_lead))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: stop_lead must be finite and >= 0 s");
    if (c->estop_on >> S2R_INTERVENTION_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "safety: estop_on has bits beyond the intervention kinds");
    return S2R_OK;
}

/* Soft joint limits and the safety box from the arm and the config. */
static void s2r__safety_geometry(s2r_safety* s) {
    const s2r_arm_info* info = s->inner->info;
    int j, i;
    for (j = 0; j < info->n_joints; j++) {
        double lo = info->q_min[j] + s->config.soft_margin, hi = info->q_max[j] - s->config.soft_margin;
        if (lo > hi) lo = hi = 0.5 * (info->q_min[j] + info->q_max[j]);   /* margin wider than the range */
        s->soft_lo[j] = lo;
        s->soft_hi[j] = hi;
    }
    for (i = 0; i < 3; i++) {
        double mid = 0.5 * (info->workspace_lo[i] + info->workspace_hi[i]);
        double half = 0.5 * (info->workspace_hi[i] - info->workspace_lo[i]) * s->config.workspace_scale;
        s->box_lo[i] = mid - half - s->config.workspace_margin;
        s->box_hi[i] = mid + half + s->config.workspace_margin;
    }
}

/* m from the flange of joint angles q to the safety box; 0 inside. */
static double s2r__safety_outside(s2r_safety* s, const double* q) {
    const s2r_arm_info* info = s->inner->info;
    double p[3], d2 = 0;
    int i;
    s2r_flange_fk(info->model, s->kinematics, info->flange_site, q, info->n_joints, p);
    for (i = 0; i < 3; i++) {
        double e = p[i] < s->box_lo[i] ? s->box_lo[i] - p[i] : (p[i] > s->box_hi[i] ? p[i] - s->box_hi[i] : 0);
        d2 += e * e;
    }
    return sqrt(d2);
}

/* The joint-level filters (limits, soft limits, step): target -> safe. */
static unsigned s2r__safety_joint_filters(const s2r_safety* s, const double* target, double* safe) {
    const s2r_arm_info* info = s->inner->info;
    unsigned mask = 0;
    int j;
    for (j = 0; j < info->n_joints; j++) {
        double x = target[j], from = s->q_sent[j];
        double lo = fmin(s->soft_lo[j], from), hi = fmax(s->soft_hi[j], from);
        if (x < info->q_min[j] || x > info->q_max[j]) {
            mask |= S2R_INTERVENTION_BIT(S2R_INTERVENTION_HARD_LIMIT);
            x = s2r_clamp(x, info->q_min[j], info->q_max[j]);
        }
        if (x < lo || x > hi) {   /* beyond the soft limits; back toward them is fine */
            mask |= S2R_INTERVENTION_BIT(S2R_INTERVENTION_SOFT_LIMIT);
            x = s2r_clamp(x, lo, hi);
        }
        if (fabs(x - from) > s->config.max_step + 1e-9) {   /* 1e-9: rounding of a full step */
            mask |= S2R_INTERVENTION_BIT(S2R_INTERVENTION_STEP);
            x = from + (x > from ? s->config.max_step : -s->config.max_step);
        }
        safe[j] = x;
    }
    return mask;
}

/* All command filters: the mask and the target that would go out. */
static unsigned s2r__safety_filter(s2r_safety* s, const double* target, double* safe) {
    int n = s->inner->info->n_joints;
    unsigned mask;
    double out_new, out_old;
    if (!target || !s2r_all_finite(target, n)) {
        memcpy(safe, s->q_sent, (size_t)n * sizeof(double));
        return S2R_INTERVENTION_BIT(S2R_INTERVENTION_NONFINITE);
    }
    mask = s2r__safety_joint_filters(s, target, safe);
    out_new = s2r__safety_outside(s, safe);
    if (out_new > 0) {
        out_old = s2r__safety_outside(s, s->q_sent);
        if (out_new > out_old + 1e-9) {   /* leaving the box, or going further out */
            mask |= S2R_INTERVENTION_BIT(S2R_INTERVENTION_WORKSPACE);
            memcpy(safe, s->q_sent, (size_t)n * sizeof(double));
        }
    }
    return mask;
}

static void s2r__safety_count(s2r_safety* s, unsigned mask) {
    int k;
    for (k = 0; k < S2R_INTERVENTION_COUNT; k++)
        if (mask & S2R_INTERVENTION_BIT(k)) { s->episode_count[k]++; s->total_count[k]++; }
}

/* Command the measured position; with `support` (a braking halt), plus the
   measured torque over the stiffness (the servo keeps its present torque:
   no sag) and stop_lead x the speed (where the braking arm comes to rest). */
static void s2r__safety_hold(s2r_safety* s, int support) {
    const s2r_arm_info* info = s->inner->info;
    double q[S2R_MAX_JOINTS];
    int j, n = info->n_joints;
    for (j = 0; j < n; j++) {
        double x = s->sensors.q[j];
        if (support && info->kp[j] > 0)
            x += s2r_clamp(s->sensors.tau[j], -info->torque_limit[j], info->torque_limit[j]) / info->kp[j] +
                 s->config.stop_lead * s->sensors.qd[j];
        q[j] = s2r_clamp(x, info->q_min[j], info->q_max[j]);
    }
    if (s2r_all_finite(q, n) && s2r_backend_command(s->inner, q) == S2R_OK)
        memcpy(s->q_sent, q, (size_t)n * sizeof(double));
}

/* Latch the e-stop: drive-level halt if any, then the halt command. */
static void s2r__safety_stop(s2r_safety* s, const char* reason) {
    if (s->estopped) return;
    s->estopped = 1;
    s->estop_time = s->sensors.time;
    snprintf(s->estop_reason, sizeof s->estop_reason, "%s", reason ? reason : "operator");
    s2r__safety_count(s, S2R_INTERVENTION_BIT(S2R_INTERVENTION_ESTOP));
    if (s->config.halt) s->config.halt(s->config.halt_context);
    else s2r_backend_halt(s->inner);   /* S2R_ERR_UNSUPPORTED: only the halt command acts */
    s2r__safety_hold(s, 1);
}

/* An intervention of a watched kind: escalate, or hold. */
static void s2r__safety_react(s2r_safety* s, s2r_intervention kind) {
    s2r__safety_count(s, S2R_INTERVENTION_BIT(kind));
    if (s->config.estop_on & S2R_INTERVENTION_BIT(kind)) s2r__safety_stop(s, s2r_intervention_name(kind));
    else s2r__safety_hold(s, kind != S2R_INTERVENTION_TORQUE);
}

/* Measured-state checks after `dt` seconds passed. */
static void s2r__safety_watch(s2r_safety* s, double dt) {
    const s2r_arm_info* info = s->inner->info;
    int j, fast = 0, stuck = 0;
    for (j = 0; j < info->n_joints; j++) {
        double v = fabs(s->sensors.qd[j]) / info->velocity_limit[j];
        double t = fabs(s->sensors.tau[j]) / info->torque_limit[j];
        if (v > s->speed_peak) s->speed_peak = v;
        if (t > s->torque_peak) s->torque_peak = t;
        if (v > s->config.velocity_fraction) fast = 1;
        if (t >= s->config.torque_fraction) {
            s->saturated[j] += dt;
            if (s->saturated[j] >= s->config.torque_time) stuck = 1;
        } else
            s->saturated[j] = 0;
    }
    if (s->estopped) return;                     /* already halted */
    if (fast && !s->fast) s2r__safety_react(s, S2R_INTERVENTION_VELOCITY);
    s->fast = fast;
    if (stuck && !s->estopped) {
        memset(s->saturated, 0, sizeof s->saturated);
        s2r__safety_react(s, S2R_INTERVENTION_TORQUE);
    }
}

static s2r_result s2r__safety_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_safety* s = (s2r_safety*)self;
    const s2r_arm_info* info = s->inner->info;
    int j;
    s2r_result res = s2r_backend_reset(s->inner, q0, target, rng);
    if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "reset failed");
    for (j = 0; j < info->n_joints; j++)
        s->q_sent[j] = s2r_clamp(q0 ? q0[j] : info->q_home[j], info->q_min[j], info->q_max[j]);
    memset(s->episode_count, 0, sizeof s->episode_count);
    memset(s->saturated, 0, sizeof s->saturated);
    s->fast = s->estopped = 0;
    s->estop_time = -1;
    s->estop_reason[0] = '\0';
    s->torque_peak = s->speed_peak = 0;
    res = s2r_backend_read_sensors(s->inner, &s->sensors);
    if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "sensors failed");
    return S2R_OK;
}

static s2r_result s2r__safety_command(void* self, const double* q_target) {
    s2r_safety* s = (s2r_safety*)self;
    double safe[S2R_MAX_JOINTS];
    unsigned mask;
    s2r_result res;
    if (s->estopped) { s->ignored_commands++; return S2R_OK; }
    mask = s2r__safety_filter(s, q_target, safe);
    s2r__safety_count(s, mask);
    if (mask & s->config.estop_on) {
        s2r__safety_stop(s, "command filter");
        return S2R_OK;
    }
    if (mask & S2R_INTERVENTION_BIT(S2R_INTERVENTION_NONFINITE))
        return s2r__fail(s->error, S2R_ERR_INVALID_ARGUMENT, "joint command contains NaN or Inf; blocked, previous target held");
    res = s2r_backend_command(s->inner, safe);
    if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "command failed");
    memcpy(s->q_sent, safe, (size_t)s->inner->info->n_joints * sizeof(double));
    return S2R_OK;
}

/* Let time pass in check_period slices, watching after each.  The inner
   backend's clock (sensors.time) says how far each slice got, so a
   timestep that does not divide check_period does not change the total
   time; a slice that did not move the clock (less than half a physics
   step, or a backend without a clock) counts as requested. */
static s2r_result s2r__safety_advance(void* self, double seconds) {
    s2r_safety* s = (s2r_safety*)self;
    double remaining = seconds;
    if (!(seconds >= 0) || !isfinite(seconds))
        return s2r__fail(s->error, S2R_ERR_INVALID_ARGUMENT, "advance by %g s: need a finite time >= 0", seconds);
    while (remaining > 1e-9) {
        double slice = fmin(s->config.check_period, remaining), before = s->sensors.time, moved;
        s2r_result res = s2r_backend_advance(s->inner, slice);
        if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "advance failed");
        res = s2r_backend_read_sensors(s->inner, &s->sensors);
        if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "sensors failed");
        moved = s->sensors.time - before;
        if (!(moved > 0)) moved = slice;
        s2r__safety_watch(s, moved);
        remaining -= moved;
    }
    return S2R_OK;
}

static s2r_result s2r__safety_read_sensors(void* self, s2r_sensors* out) {
    s2r_safety* s = (s2r_safety*)self;
    s2r_result res = s2r_backend_read_sensors(s->inner, &s->sensors);
    if (res != S2R_OK) return s2r__fail(s->error, res, "%s", s->inner->error ? s->inner->error : "sensors failed");
    *out = s->sensors;
    return S2R_OK;
}

static s2r_result s2r__safety_ground_truth(void* self, s2r_ground_truth* out) {
    s2r_safety* s = (s2r_safety*)self;
    return s2r_backend_ground_truth(s->inner, out);
}

/* The monitor's own drive-level halt is its e-stop. */
static s2r_result s2r__safety_halt(void* self) { return s2r_safety_estop((s2r_safety*)self, "halt"); }

S2RDEF s2r_result s2r_safety_init(s2r_safety* safety, const s2r_safety_config* config, const s2r_backend* inner) {
    s2r_result res;
    S2R_ASSERT(safety);
    memset(safety, 0, sizeof *safety);
    if (!config)
        return s2r__fail(safety->error, S2R_ERR_INVALID_ARGUMENT, "s2r_safety_init: config is NULL");
    res = s2r__safety_check_config(config, safety->error);
    if (res != S2R_OK) return res;
    if (!inner || !inner->info || !inner->info->model)
        return s2r__fail(safety->error, S2R_ERR_INVALID_ARGUMENT, "safety: backend without arm info");
    safety->config = *config;
    safety->inner = inner;
    safety->kinematics = mj_makeData(inner->info->model);
    if (!safety->kinematics) return s2r__fail(safety->error, S2R_ERR_OUT_OF_MEMORY, "safety: mj_makeData failed");
    s2r__safety_geometry(safety);
    memcpy(safety->q_sent, inner->info->q_home, sizeof safety->q_sent);
    safety->estop_time = -1;
    snprintf(safety->name, sizeof safety->name, "safety(%.50s)", inner->name ? inner->name : "backend");
    safety->backend.self = safety;
    safety->backend.name = safety->name;
    safety->backend.info = inner->info;
    safety->backend.error = safety->error;
    safety->backend.reset = s2r__safety_reset;
    safety->backend.command = s2r__safety_command;
    safety->backend.advance = s2r__safety_advance;
    safety->backend.read_sensors = s2r__safety_read_sensors;
    safety->backend.ground_truth = s2r__safety_ground_truth;
    safety->backend.halt = s2r__safety_halt;
    return S2R_OK;
}

S2RDEF void s2r_safety_free(s2r_safety* safety) {
    if (!safety) return;
    if (safety->kinematics) mj_deleteData(safety->kinematics);
    memset(safety, 0, sizeof *safety);
}

S2RDEF const s2r_backend* s2r_safety_backend(s2r_safety* safety) {
    S2R_ASSERT(safety);
    return &safety->backend;
}

S2RDEF unsigned s2r_safety_check(s2r_safety* safety, const double* q_target, double* q_safe) {
    double scratch[S2R_MAX_JOINTS];
    S2R_ASSERT(safety);
    return s2r__safety_filter(safety, q_target, q_safe ? q_safe : scratch);
}

S2RDEF unsigned s2r_safety_filter_action(s2r_safety* safety, float* action, int n) {
    if (!action || n <= 0 || s2r_all_finite_f(action, n)) return 0;
    memset(action, 0, (size_t)n * sizeof(float));
    if (safety) s2r__safety_count(safety, S2R_INTERVENTION_BIT(S2R_INTERVENTION_NONFINITE));
    return S2R_INTERVENTION_BIT(S2R_INTERVENTION_NONFINITE);
}

S2RDEF s2r_result s2r_safety_estop(s2r_safety* safety, const char* reason) {
    S2R_ASSERT(safety);
    s2r__safety_stop(safety, reason);
    return S2R_OK;
}

S2RDEF int s2r_safety_episode_interventions(const s2r_safety* safety) {
    S2R_ASSERT(safety);
    int k, total = 0;
    for (k = 0; k < S2R_INTERVENTION_COUNT; k++) total += safety->episode_count[k];
    return total;
}

S2RDEF s2r_result s2r_safety_set_workspace_scale(s2r_safety* safety, double scale) {
    S2R_ASSERT(safety);
    if (!(scale >= 0 && scale <= 1))
        return s2r__fail(safety->error, S2R_ERR_INVALID_ARGUMENT, "safety: workspace scale must be in [0, 1]");
    safety->config.workspace_scale = scale;
    s2r__safety_geometry(safety);
    return S2R_OK;
}

/* ==========================================================================
   Deployment (3/7): episodes behind the monitor, the sim regression suite
   ========================================================================== */

/* Run an episode that was just reset (obs holds its first observation). */
static s2r_result s2r__deploy_rollout(const s2r_controller* c, s2r_reach* reach, s2r_safety* s,
                                      float* obs, s2r_episode_stats* out) {
    float action[S2R_MAX_JOINTS];
    s2r_step_result r;
    double abs_sum = 0;
    int j, n = reach->n_joints;
    s2r_result res;
    memset(out, 0, sizeof *out);
    memset(&r, 0, sizeof r);
    if (c->reset) c->reset(c->self);
    do {
        if ((res = c->act(c->self, obs, action)) != S2R_OK) return res;
        if (s) s2r_safety_filter_action(s, action, n);
        for (j = 0; j < n; j++) abs_sum += fabs(s2r_clamp(action[j], -1, 1));
        if ((res = s2r_reach_step(reach, action, obs, &r)) != S2R_OK) return res;
        out->ret += r.reward;
        out->steps++;
    } while (!r.done);
    out->success = r.success;
    out->diverged = r.diverged;
    out->final_distance = r.distance;
    out->action_mean_abs = abs_sum / ((double)out->steps * n);
    if (s) {
        for (j = 0; j < S2R_INTERVENTION_COUNT; j++) out->intervention[j] = s->episode_count[j];
        out->interventions = s2r_safety_episode_interventions(s);
        out->torque_peak = s->torque_peak;
        out->speed_peak = s->speed_peak;
    }
    out->catastrophic = out->diverged || (s && s->estopped);
    return S2R_OK;
}

static s2r_result s2r__deploy_check_pair(s2r_reach* reach, s2r_safety* s) {
    if (s && reach->backend != &s->backend)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "the reach task must run on the safety monitor's backend");
    return S2R_OK;
}

S2RDEF s2r_result s2r_deploy_episode(const s2r_controller* policy, s2r_reach* reach, s2r_safety* safety,
                                     s2r_rng* rng, s2r_episode_stats* out) {
    if (!reach)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_deploy_episode: reach is NULL");
    float obs[S2R_REACH_MAX_OBS];
    s2r_result res = s2r__deploy_check_pair(reach, safety);
    if (res != S2R_OK) return res;
    if ((res = s2r_reach_reset(reach, rng, obs)) != S2R_OK) return res;
    return s2r__deploy_rollout(policy, reach, safety, obs, out);
}

S2RDEF void s2r_run_summary_add(s2r_run_summary* summary, const s2r_episode_stats* e) {
    S2R_ASSERT(summary && e);
    int k;
    double returns = summary->mean_return * summary->episodes + e->ret;
    double peaks = summary->mean_torque_peak * summary->episodes + e->torque_peak;
    summary->episodes++;
    summary->successes += e->success;
    summary->catastrophic += e->catastrophic;
    summary->interventions += e->interventions;
    for (k = 0; k < S2R_INTERVENTION_COUNT; k++) summary->intervention[k] += e->intervention[k];
    if (e->torque_peak > summary->torque_peak) summary->torque_peak = e->torque_peak;
    summary->mean_return = returns / summary->episodes;
    summary->mean_torque_peak = peaks / summary->episodes;
    summary->success_rate = (double)summary->successes / summary->episodes;
    s2r_wilson_interval(summary->successes, summary->episodes, &summary->success_lo, &summary->success_hi);
}

S2RDEF s2r_result s2r_deploy_run(const s2r_controller* policy, s2r_reach* reach, s2r_safety* safety,
                                 int episodes, uint64_t seed, uint64_t stream0, s2r_run_summary* out) {
    if (!reach || !out)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_deploy_run: reach or out is NULL");
    int i;
    memset(out, 0, sizeof *out);
    if (episodes < 1) return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "deploy run: need at least one episode");
    for (i = 0; i < episodes; i++) {
        s2r_rng rng = s2r_rng_make(seed, stream0 + (uint64_t)i);
        s2r_episode_stats e;
        s2r_result res = s2r_deploy_episode(policy, reach, safety, &rng, &e);
        if (res != S2R_OK) return res;
        s2r_run_summary_add(out, &e);
    }
    return S2R_OK;
}

/* Targets as fractions of the box: 0.05 / 0.5 / 0.95 per axis; starts
   away from home turn the base, raise the shoulder or bend the elbow. */
static const s2r_regression_case s2r__regression_suite[] = {
    {"centre", {0.5, 0.5, 0.5}, -1, 0.0},
    {"reach low", {0.5, 0.5, 0.05}, -1, 0.0},
    {"reach high", {0.5, 0.5, 0.95}, -1, 0.0},
    {"reach far -x", {0.05, 0.5, 0.5}, -1, 0.0},
    {"reach far +x", {0.95, 0.5, 0.5}, -1, 0.0},
    {"reach far -y", {0.5, 0.05, 0.5}, -1, 0.0},
    {"reach far +y", {0.5, 0.95, 0.5}, -1, 0.0},
    {"corner -x -y low", {0.05, 0.05, 0.05}, -1, 0.0},
    {"corner +x -y low", {0.95, 0.05, 0.05}, -1, 0.0},
    {"corner -x +y low", {0.05, 0.95, 0.05}, -1, 0.0},
    {"corner +x +y low", {0.95, 0.95, 0.05}, -1, 0.0},
    {"corner -x -y high", {0.05, 0.05, 0.95}, -1, 0.0},
    {"corner +x -y high", {0.95, 0.05, 0.95}, -1, 0.0},
    {"corner -x +y high", {0.05, 0.95, 0.95}, -1, 0.0},
    {"corner +x +y high", {0.95, 0.95, 0.95}, -1, 0.0},
    {"centre, base turned 0.3 rad", {0.5, 0.5, 0.5}, 0, 0.3},
    {"high, shoulder raised 0.2 rad", {0.5, 0.5, 0.95}, 1, -0.2},
    {"low, joint 3 offset 0.25 rad", {0.5, 0.5, 0.05}, 2, 0.25},
};

S2RDEF int s2r_regression_suite_default(const s2r_regression_case** cases) {
    S2R_ASSERT(cases);
    *cases = s2r__regression_suite;
    return (int)(sizeof s2r__regression_suite / sizeof s2r__regression_suite[0]);
}

S2RDEF void s2r_regression_case_pose(const s2r_regression_case* c, const s2r_arm_info* info,
                                     double* q0, double target[3]) {
    int i, j;
    S2R_ASSERT(c && info && q0 && target);
    for (j = 0; j < info->n_joints; j++) q0[j] = info->q_home[j];
    if (c->start_joint >= 0 && c->start_joint < info->n_joints)
        q0[c->start_joint] = s2r_clamp(q0[c->start_joint] + c->start_offset,
                                       info->q_min[c->start_joint], info->q_max[c->start_joint]);
    for (i = 0; i < 3; i++)
        target[i] = info->workspace_lo[i] + c->target_frac[i] * (info->workspace_hi[i] - info->workspace_lo[i]);
}

S2RDEF s2r_result s2r_regression_run(const s2r_controller* policy, s2r_reach* reach,
                                     const s2r_regression_case* cases, int n_cases, int repeats,
                                     uint64_t seed, s2r_regression_result* out) {
    if (!policy || !reach || !out)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_regression_run: policy, reach or out is NULL");
    float obs[S2R_REACH_MAX_OBS];
    int i, r;
    memset(out, 0, sizeof *out);
    if (!cases || n_cases < 1 || n_cases > S2R_REGRESSION_MAX_CASES || repeats < 1)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "regression: need 1..%d cases and repeats >= 1",
                         S2R_REGRESSION_MAX_CASES);
    out->cases = n_cases;
    out->repeats = repeats;
    for (i = 0; i < n_cases; i++)
        for (r = 0; r < repeats; r++) {
            double q0[S2R_MAX_JOINTS], target[3];
            s2r_rng rng = s2r_rng_make(seed, 1000u * (uint64_t)i + (uint64_t)r);
            s2r_episode_stats e;
            s2r_result res;
            s2r_regression_case_pose(&cases[i], reach->backend->info, q0, target);
            if ((res = s2r_reach_reset_to(reach, q0, target, &rng, obs)) != S2R_OK) return res;
            if ((res = s2r__deploy_rollout(policy, reach, NULL, obs, &e)) != S2R_OK) return res;
            out->case_passed[i] += e.success;
            out->passed += e.success;
            out->runs++;
        }
    out->pass_rate = (double)out->passed / out->runs;
    s2r_wilson_interval(out->passed, out->runs, &out->pass_lo, &out->pass_hi);
    return S2R_OK;
}

/* ==========================================================================
   Deployment (4/7): shadow mode
   ========================================================================== */

/* One shadow step: compare, predict, then let the fallback act. */
static s2r_result s2r__shadow_step(const s2r_controller* policy, const s2r_controller* fallback, s2r_reach* reach,
                                   s2r_safety* s, double tol, float* obs, s2r_shadow_stats* out,
                                   s2r_step_result* r) {
    float a_fb[S2R_MAX_JOINTS], a_p[S2R_MAX_JOINTS];
    double q_prop[S2R_MAX_JOINTS], diff = 0;
    const s2r_arm_info* info = reach->backend->info;
    int j, n = reach->n_joints, ok;
    unsigned mask;
    s2r_result res = fallback->act(fallback->self, obs, a_fb);
    if (res != S2R_OK) return res;
    ok = policy->act(policy->self, obs, a_p) == S2R_OK && s2r_all_finite_f(a_p, n);
    for (j = 0; j < n; j++) {
        double ap = ok ? s2r_clamp(a_p[j], -1, 1) : 0, af = s2r_clamp(a_fb[j], -1, 1);
        diff = fmax(diff, fabs(ap - af));
        q_prop[j] = ok ? s2r_clamp(reach->q_cmd[j] + ap * reach->config.max_delta, info->q_min[j], info->q_max[j]) : NAN;
    }
    mask = s2r_safety_check(s, q_prop, NULL);
    out->proposals++;
    out->agreements += ok && diff <= tol;
    out->unsafe += mask != 0;
    for (j = 0; j < S2R_INTERVENTION_COUNT; j++) out->by_kind[j] += (mask & S2R_INTERVENTION_BIT(j)) != 0;
    if (ok) {
        out->mean_difference += diff;   /* summed here, averaged at the end */
        out->max_difference = fmax(out->max_difference, diff);
    }
    s2r_safety_filter_action(s, a_fb, n);
    return s2r_reach_step(reach, a_fb, obs, r);
}

static s2r_result s2r__shadow_episode(const s2r_controller* policy, const s2r_controller* fallback, s2r_reach* reach,
                                      s2r_safety* s, double tol, s2r_rng* rng, s2r_shadow_stats* out,
                                      s2r_step_result* r) {
    float obs[S2R_REACH_MAX_OBS];
    s2r_result res = s2r_reach_reset(reach, rng, obs);
    if (res != S2R_OK) return res;
    if (policy->reset) policy->reset(policy->self);
    if (fallback->reset) fallback->reset(fallback->self);
    do {
        if ((res = s2r__shadow_step(policy, fallback, reach, s, tol, obs, out, r)) != S2R_OK) return res;
    } while (!r->done);
    return S2R_OK;
}

static void s2r__shadow_finish(s2r_shadow_stats* out) {
    out->mean_difference = out->proposals > 0 ? out->mean_difference / out->proposals : 0;
    out->agreement_rate = out->proposals > 0 ? (double)out->agreements / out->proposals : 0;
    out->unsafe_rate = out->proposals > 0 ? (double)out->unsafe / out->proposals : 0;
    s2r_wilson_interval(out->agreements, out->proposals, &out->agreement_lo, &out->agreement_hi);
    s2r_wilson_interval(out->unsafe, out->proposals, &out->unsafe_lo, &out->unsafe_hi);
}

S2RDEF s2r_result s2r_shadow_run(const s2r_controller* policy, const s2r_controller* fallback,
                                 s2r_reach* reach, s2r_safety* safety, int episodes, uint64_t seed,
                                 double agree_tol, s2r_shadow_stats* out, s2r_deploy* log) {
    if (!reach || !out)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_shadow_run: reach or out is NULL");
    int i;
    memset(out, 0, sizeof *out);
    if (!policy || !fallback || !safety || episodes < 1 || !(agree_tol >= 0))
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "shadow: need a policy, a fallback, a monitor, episodes >= 1, agree_tol >= 0");
    if (s2r__deploy_check_pair(reach, safety) != S2R_OK) return S2R_ERR_INVALID_ARGUMENT;
    for (i = 0; i < episodes; i++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)i);
        s2r_step_result r;
        int before_unsafe = out->unsafe, before_agree = out->agreements, before = out->proposals;
        s2r_result res = s2r__shadow_episode(policy, fallback, reach, safety, agree_tol, &rng, out, &r);
        if (res != S2R_OK) return res;
        out->episodes++;
        out->fallback_successes += r.success;
        if (log)
            s2r_deploy_note(log, "shadow_episode", "episode %d: %d proposals, %d agreed, %d unsafe; fallback %s",
                            i, out->proposals - before, out->agreements - before_agree,
                            out->unsafe - before_unsafe, r.success ? "succeeded" : "failed");
    }
    s2r__shadow_finish(out);
    return S2R_OK;
}

/* ==========================================================================
   Deployment (5/7): the gates
   ========================================================================== */

static s2r_gate_result s2r__gate_make(s2r_stage stage, int n, double value, double threshold);
static void s2r__gate_say(s2r_gate_result* g, s2r_verdict v, const char* fmt, ...);
static void s2r__gate_rate(s2r_gate_result* g, int k, int n);
static void s2r__gate_sequential(const s2r_gate_config* c, s2r_stage stage, int k, int n, s2r_gate_result* g);
static int s2r__counts_ok(int k, int n);
static int s2r__gate_cap(const s2r_gate_config* c, s2r_stage stage);
static s2r_gate_result s2r__gate_of(const s2r_gate_config* c, s2r_stage stage, int k, int n, int catastrophic);

S2RDEF s2r_result s2r_sprt_check(const s2r_sprt_config* c, char* error) {
    if (!c) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sprt: config is NULL");
    if (!(c->p0 > 0 && c->p0 < c->p1 && c->p1 < 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sprt: need 0 < p0 < p1 < 1, got p0 %g, p1 %g", c->p0, c->p1);
    if (!(c->alpha > 0 && c->alpha < 0.5) || !(c->beta > 0 && c->beta < 0.5))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sprt: alpha and beta must be in (0, 0.5), got %g and %g",
                         c->alpha, c->beta);
    if (c->max_n < 1 || c->max_n > 100000)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "sprt: max_n must be 1..100000, got %d", c->max_n);
    return S2R_OK;
}

/* >> exercise gates (continued) */
#ifndef S2R_EXERCISE_GATES
/* >> solution gates begin */
S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr) {
    double l;
    if (llr) *llr = NAN;
    if (s2r_sprt_check(c, NULL) != S2R_OK || !s2r__counts_ok(k, n)) return S2R_VERDICT_FAIL;
    l = k * log(c->p1 / c->p0) + (n - k) * log((1 - c->p1) / (1 - c->p0));
    if (llr) *llr = l;
    if (l >= log((1 - c->beta) / c->alpha) - S2R_GATE_EPS) return S2R_VERDICT_PASS;
    if (l <= log(c->beta / (1 - c->alpha)) + S2R_GATE_EPS || n >= c->max_n) return S2R_VERDICT_FAIL;
    return S2R_VERDICT_CONTINUE;
}
/* >> solution gates end */
#endif /* S2R_EXERCISE_GATES */

S2RDEF s2r_gate_config s2r_gate_config_default(void) {
    s2r_gate_config c;
    c.rule = S2R_GATE_SEQUENTIAL;
    c.sim_pass_rate = 0.85;
    c.sysid_good_relative = S2R_SYSID_REL_GOOD;
    c.sysid_block_relative = S2R_SYSID_REL_BLOCK;
    c.shadow_min_proposals = 300;
    c.shadow_max_unsafe_rate = 0.0;
    c.shadow_min_agreement = 0.0;
    c.tethered_success = 0.80;
    c.tethered_good = 0.95;
    c.tethered_alpha = 0.05;
    c.tethered_beta = 0.10;
    c.tethered_min_episodes = 20;
    c.tethered_max_episodes = 80;
    c.constrained_success = 0.85;
    c.constrained_good = 0.95;
    c.constrained_alpha = 0.05;
    c.constrained_beta = 0.10;
    c.constrained_episodes = 130;
    c.constrained_max_catastrophic = 0;
    c.canary_margin = 0.05;
    c.canary_min_episodes = 40;
    c.canary_worse_share = 1.0 / 3.0;
    c.canary_alpha = 0.05;
    c.canary_beta = 0.10;
    c.canary_max_pairs = 200;
    return c;
}


S2RDEF s2r_gate_result s2r_gate_sim_regression(const s2r_gate_config* c, int passed, int runs) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_SIM_REGRESSION, runs, 0, c->sim_pass_rate);
    if (!s2r__counts_ok(passed, runs) || runs == 0) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: %d passed of %d runs", passed, runs);
        return g;
    }
    s2r__gate_rate(&g, passed, runs);
    s2r__gate_say(&g, g.value >= c->sim_pass_rate - S2R_GATE_EPS ? S2R_VERDICT_PASS : S2R_VERDICT_FAIL,
                  "%d of %d suite runs passed: %.3f (95%% CI %.3f-%.3f) %s the required %.2f", passed, runs,
                  g.value, g.lo, g.hi, g.value >= c->sim_pass_rate - S2R_GATE_EPS ? "meets" : "is below",
                  c->sim_pass_rate);
    return g;
}

S2RDEF s2r_gate_result s2r_gate_sysid(const s2r_gate_config* c, double validation_relative) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_SYSID, 0, validation_relative, c->sysid_good_relative);
    double pct = 100 * validation_relative;
    if (!(validation_relative >= 0) || !isfinite(validation_relative))
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid held-out relative error %g: blocked", validation_relative);
    else if (validation_relative < c->sysid_good_relative)
        s2r__gate_say(&g, S2R_VERDICT_PASS, "held-out error %.2f %% of the motion < %.3g %%: the simulator matches this unit",
                      pct, 100 * c->sysid_good_relative);
    else if (validation_relative <= c->sysid_block_relative) {
        g.threshold = c->sysid_block_relative;
        s2r__gate_say(&g, S2R_VERDICT_WARN, "held-out error %.2f %% of the motion in [%.3g, %.3g] %%: acceptable, watch "
                      "this unit closely", pct, 100 * c->sysid_good_relative, 100 * c->sysid_block_relative);
    } else {
        g.threshold = c->sysid_block_relative;
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "held-out error %.2f %% of the motion > %.3g %%: the simulator does not "
                      "describe this unit; blocked", pct, 100 * c->sysid_block_relative);
    }
    return g;
}

S2RDEF s2r_gate_result s2r_gate_shadow(const s2r_gate_config* c, const s2r_shadow_stats* s) {
    S2R_ASSERT(c && s);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_SHADOW, s->proposals, 0, c->shadow_max_unsafe_rate);
    double unsafe;
    if (!s2r__counts_ok(s->unsafe, s->proposals) || !s2r__counts_ok(s->agreements, s->proposals)) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: %d unsafe, %d agreeing of %d proposals",
                      s->unsafe, s->agreements, s->proposals);
        return g;
    }
    s2r__gate_rate(&g, s->agreements, s->proposals);   /* value = agreement rate */
    unsafe = s->proposals > 0 ? (double)s->unsafe / s->proposals : 0;
    if (s->proposals < c->shadow_min_proposals)
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d of %d proposals needed", s->proposals, c->shadow_min_proposals);
    else if (unsafe > c->shadow_max_unsafe_rate + S2R_GATE_EPS)
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "%d of %d proposals would have been blocked or changed by the safety monitor (allowed rate %.3g)",
                      s->unsafe, s->proposals, c->shadow_max_unsafe_rate);
    else if (g.value < c->shadow_min_agreement - S2R_GATE_EPS) {
        g.threshold = c->shadow_min_agreement;
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "agreement with the fallback %.3f (95%% CI %.3f-%.3f) below the required %.2f",
                      g.value, g.lo, g.hi, c->shadow_min_agreement);
    } else
        s2r__gate_say(&g, S2R_VERDICT_PASS, "%d proposals, %d unsafe; agreement with the fallback %.3f (95%% CI %.3f-%.3f)",
                      s->proposals, s->unsafe, g.value, g.lo, g.hi);
    return g;
}

S2RDEF const char* s2r_gate_rule_name(s2r_gate_rule rule) {
    static const char* const names[S2R_GATE_RULE_COUNT] = {"sequential", "interval"};
    return s2r__name_of(names, S2R_GATE_RULE_COUNT, (int)rule);
}

S2RDEF s2r_sprt_config s2r_gate_sprt(const s2r_gate_config* c, s2r_stage stage) {
    S2R_ASSERT(c);
    s2r_sprt_config t;
    int tethered = stage == S2R_STAGE_TETHERED;
    t.p0 = tethered ? c->tethered_success : c->constrained_success;
    t.p1 = tethered ? c->tethered_good : c->constrained_good;
    t.alpha = tethered ? c->tethered_alpha : c->constrained_alpha;
    t.beta = tethered ? c->tethered_beta : c->constrained_beta;
    t.max_n = tethered ? c->tethered_max_episodes : c->constrained_episodes;
    return t;
}

S2RDEF s2r_gate_result s2r_gate_tethered(const s2r_gate_config* c, int successes, int episodes) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_TETHERED, episodes, 0, c->tethered_success);
    double t = c->tethered_success;
    if (!s2r__counts_ok(successes, episodes)) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: %d successes of %d episodes", successes, episodes);
        return g;
    }
    s2r__gate_rate(&g, successes, episodes);
    if (c->rule == S2R_GATE_SEQUENTIAL) s2r__gate_sequential(c, S2R_STAGE_TETHERED, successes, episodes, &g);
    else if (episodes < c->tethered_min_episodes)
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d of at least %d episodes", episodes, c->tethered_min_episodes);
    else if (g.lo > t)
        s2r__gate_say(&g, S2R_VERDICT_PASS, "%d of %d episodes succeeded: 95%% CI %.3f-%.3f lies above %.2f", successes, episodes, g.lo, g.hi, t);
    else if (g.hi <= t)
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "%d of %d episodes succeeded: 95%% CI %.3f-%.3f is not above %.2f", successes, episodes, g.lo, g.hi, t);
    else if (episodes >= c->tethered_max_episodes)
        s2r__gate_say(&g, g.value > t + S2R_GATE_EPS ? S2R_VERDICT_PASS : S2R_VERDICT_FAIL,
                      "%d of %d episodes (the cap): %.3f %s %.2f (95%% CI %.3f-%.3f)", successes, episodes, g.value,
                      g.value > t + S2R_GATE_EPS ? "is above" : "is not above", t, g.lo, g.hi);
    else
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d of %d: 95%% CI %.3f-%.3f still contains %.2f", successes, episodes, g.lo, g.hi, t);
    return g;
}

S2RDEF s2r_gate_result s2r_gate_constrained(const s2r_gate_config* c, int successes, int episodes, int catastrophic) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_CONSTRAINED, episodes, 0, c->constrained_success);
    int pass;
    if (!s2r__counts_ok(successes, episodes) || !s2r__counts_ok(catastrophic, episodes)) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: %d successes, %d catastrophic of %d episodes", successes, catastrophic, episodes);
        return g;
    }
    s2r__gate_rate(&g, successes, episodes);
    pass = g.value >= c->constrained_success - S2R_GATE_EPS;
    if (catastrophic > c->constrained_max_catastrophic)
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "%d catastrophic episode(s) (e-stop or blow-up) in %d", catastrophic, episodes);
    else if (c->rule == S2R_GATE_SEQUENTIAL)
        s2r__gate_sequential(c, S2R_STAGE_CONSTRAINED, successes, episodes, &g);
    else if (episodes < c->constrained_episodes)
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d of %d episodes", episodes, c->constrained_episodes);
    else
        s2r__gate_say(&g, pass ? S2R_VERDICT_PASS : S2R_VERDICT_FAIL,
                      "%d of %d episodes succeeded: %.3f (95%% CI %.3f-%.3f) %s %.2f, no catastrophic failure", successes, episodes,
                      g.value, g.lo, g.hi, pass ? "meets" : "is below", c->constrained_success);
    return g;
}

S2RDEF s2r_gate_result s2r_gate_canary(const s2r_gate_config* c, int cand_successes, int cand_episodes, int inc_successes, int inc_episodes) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_CANARY, cand_episodes, 0, -c->canary_margin);
    double pc, pi;
    if (!s2r__counts_ok(cand_successes, cand_episodes) || !s2r__counts_ok(inc_successes, inc_episodes)) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: candidate %d of %d, incumbent %d of %d", cand_successes, cand_episodes, inc_successes, inc_episodes);
        return g;
    }
    pc = cand_episodes > 0 ? (double)cand_successes / cand_episodes : 0;
    pi = inc_episodes > 0 ? (double)inc_successes / inc_episodes : 0;
    g.value = pc - pi;
    s2r_newcombe_interval(cand_successes, cand_episodes, inc_successes, inc_episodes, &g.lo, &g.hi);
    if (cand_episodes < c->canary_min_episodes || inc_episodes < c->canary_min_episodes)
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d and %d of %d episodes per controller", cand_episodes, inc_episodes, c->canary_min_episodes);
    else if (g.hi < 0) {
        g.threshold = 0;
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "candidate %d/%d vs incumbent %d/%d: difference %.3f, 95%% CI %.3f to %.3f, worse",
                      cand_successes, cand_episodes, inc_successes, inc_episodes, g.value, g.lo, g.hi);
    } else if (g.value < -c->canary_margin - S2R_GATE_EPS)
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "candidate %d/%d vs incumbent %d/%d: drop %.3f exceeds the margin %.2f",
                      cand_successes, cand_episodes, inc_successes, inc_episodes, -g.value, c->canary_margin);
    else
        s2r__gate_say(&g, S2R_VERDICT_PASS, "candidate %d/%d vs incumbent %d/%d: difference %.3f, 95%% CI %.3f to %.3f, not worse",
                      cand_successes, cand_episodes, inc_successes, inc_episodes, g.value, g.lo, g.hi);
    return g;
}

S2RDEF s2r_gate_result s2r_gate_canary_pairs(const s2r_gate_config* c, int pairs, int candidate_only, int incumbent_only) {
    S2R_ASSERT(c);
    s2r_gate_result g = s2r__gate_make(S2R_STAGE_CANARY, pairs, 0, -c->canary_margin);
    s2r_sprt_config t;
    char why[S2R_ERROR_LEN];
    double llr;
    s2r_verdict v;
    if (pairs < 0 || candidate_only < 0 || incumbent_only < 0 || candidate_only > pairs - incumbent_only) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "invalid statistics: %d pairs, %d won by the candidate, %d by the incumbent",
                      pairs, candidate_only, incumbent_only);
        return g;
    }
    t.p0 = c->canary_worse_share;
    t.p1 = 0.5;
    t.alpha = c->canary_alpha;
    t.beta = c->canary_beta;
    t.max_n = 100000;   /* the cap is on pairs, below */
    if (s2r_sprt_check(&t, why) != S2R_OK || c->canary_max_pairs < 1) {
        s2r__gate_say(&g, S2R_VERDICT_FAIL, "bad canary design: %s", c->canary_max_pairs < 1 ? "max pairs < 1" : why);
        return g;
    }
    g.value = g.lo = g.hi = pairs > 0 ? (double)(candidate_only - incumbent_only) / pairs : 0;   /* the observed difference */
    v = s2r_sprt_decide(&t, candidate_only, candidate_only + incumbent_only, &llr);
    if (v == S2R_VERDICT_PASS)
        s2r__gate_say(&g, v, "%d pairs, %d disagreements won %d : %d: log-likelihood ratio %.2f reached the pass "
                      "boundary (not worse)", pairs, candidate_only + incumbent_only, candidate_only, incumbent_only, llr);
    else if (v == S2R_VERDICT_FAIL)
        s2r__gate_say(&g, v, "%d pairs, %d disagreements won %d : %d: log-likelihood ratio %.2f reached the fail "
                      "boundary (worse)", pairs, candidate_only + incumbent_only, candidate_only, incumbent_only, llr);
    else if (pairs >= c->canary_max_pairs)
        s2r__gate_say(&g, g.value >= -c->canary_margin - S2R_GATE_EPS ? S2R_VERDICT_PASS : S2R_VERDICT_FAIL,
                      "%d pairs (the cap), %d disagreements won %d : %d: drop %.3f %s the margin %.2f", pairs,
                      candidate_only + incumbent_only, candidate_only, incumbent_only, (double)(incumbent_only - candidate_only) / pairs,
                      g.value >= -c->canary_margin - S2R_GATE_EPS ? "within" : "beyond", c->canary_margin);
    else
        s2r__gate_say(&g, S2R_VERDICT_CONTINUE, "%d pairs, %d disagreements won %d : %d: log-likelihood ratio %.2f "
                      "between the boundaries", pairs, candidate_only + incumbent_only, candidate_only, incumbent_only, llr);
    return g;
}

S2RDEF s2r_result s2r_stage_run(const s2r_controller* policy, s2r_reach* reach, s2r_safety* safety,
                                const s2r_gate_config* gates, s2r_stage stage, uint64_t seed, uint64_t stream0,
                                s2r_run_summary* out, s2r_gate_result* gate) {
    if (!reach || !out)
        return s2r__fail(NULL, S2R_ERR_INVALID_ARGUMENT, "s2r_stage_run: reach or out is NULL");
    int cap;
    memset(out, 0, sizeof *out);
    if (stage != S2R_STAGE_TETHERED && stage != S2R_STAGE_CONSTRAINED)
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "stage run: only tethered and constrained run to a gate");
    cap = s2r__gate_cap(gates, stage);
    if (cap < 1 || cap > 100000 || (stage == S2R_STAGE_TETHERED && gates->tethered_min_episodes > cap))
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "stage run: need 1 <= min_episodes <= max_episodes <= 100000");
    do {
        s2r_rng rng = s2r_rng_make(seed, stream0 + (uint64_t)out->episodes);
        s2r_episode_stats e;
        s2r_result res = s2r_deploy_episode(policy, reach, safety, &rng, &e);
        if (res != S2R_OK) return res;
        s2r_run_summary_add(out, &e);
        *gate = s2r__gate_of(gates, stage, out->successes, out->episodes, out->catastrophic);
    } while (gate->verdict == S2R_VERDICT_CONTINUE && out->episodes < cap);
    return S2R_OK;
}

S2RDEF s2r_result s2r_gate_oc(const s2r_gate_config* c, s2r_stage stage, double p, double* pass,
                              double* expected_episodes, int* max_episodes) {
    double *now, *next, done = 0, asn = 0, yes = 0;
    int n, k, cap, longest = 0;
    if (!c || !pass || !expected_episodes || !(p >= 0 && p <= 1) ||
        (stage != S2R_STAGE_TETHERED && stage != S2R_STAGE_CONSTRAINED))
        return S2R_ERR_INVALID_ARGUMENT;
    cap = s2r__gate_cap(c, stage);
    if (cap < 1 || cap > 100000) return S2R_ERR_INVALID_ARGUMENT;
    now = (double*)s2r__calloc((size_t)cap + 2, sizeof(double));
    next = (double*)s2r__calloc((size_t)cap + 2, sizeof(double));
    if (!now || !next) {
        if (now) S2R_FREE(now);
        if (next) S2R_FREE(next);
        return S2R_ERR_OUT_OF_MEMORY;
    }
    now[0] = 1;   /* now[k]: probability of k successes in n episodes, still undecided */
    for (n = 1; n <= cap && done < 1 - 1e-15; n++) {
        for (k = n; k >= 0; k--) next[k] = (k > 0 ? now[k - 1] * p : 0) + (k < n ? now[k] * (1 - p) : 0);
        for (k = 0; k <= n; k++) {
            s2r_verdict v;
            if (next[k] == 0) continue;
            v = s2r__gate_of(c, stage, k, n, 0).verdict;
            if (v == S2R_VERDICT_CONTINUE && n < cap) continue;
            if (v == S2R_VERDICT_PASS) yes += next[k];
            done += next[k];
            asn += n * next[k];
            longest = n;
            next[k] = 0;
        }
        memcpy(now, next, ((size_t)n + 1) * sizeof(double));
    }
    S2R_FREE(now);
    S2R_FREE(next);
    *pass = yes;
    *expected_episodes = asn;
    if (max_episodes) *max_episodes = longest;
    return S2R_OK;
}

S2RDEF void s2r_gate_plan_print(const s2r_gate_config* c, s2r_stage stage) {
    S2R_ASSERT(c);
    s2r_sprt_config t = s2r_gate_sprt(c, stage);
    int i, most = 0;
    printf("  %s gate, %s rule: ", s2r_stage_name(stage), s2r_gate_rule_name(c->rule));
    if (c->rule == S2R_GATE_SEQUENTIAL)
        printf("SPRT of %.2f against %.2f, alpha %.2f, beta %.2f, at most %d episodes\n", t.p1, t.p0, t.alpha, t.beta, t.max_n);
    else
        printf("%s %.2f, at most %d episodes\n", stage == S2R_STAGE_TETHERED ? "Wilson interval above" : "point estimate at least",
               t.p0, t.max_n);
    printf("    true success  P(pass)  expected episodes\n");
    for (i = 0; i <= 10; i++) {
        double p = 0.5 + 0.05 * i, yes, asn;
        int longest;
        if (s2r_gate_oc(c, stage, p, &yes, &asn, &longest) != S2R_OK) { printf("    (invalid gate)\n"); return; }
        if (longest > most) most = longest;
        printf("    %12.2f  %7.3f  %17.1f\n", p, yes, asn);
    }
    printf("    never more than %d episodes\n", most);
}

/* The gates' shared pieces: a result, its sentence, its rate, the
   sequential rule, a check of counts, a stage's cap and its gate. */

static s2r_gate_result s2r__gate_make(s2r_stage stage, int n, double value, double threshold) {
    s2r_gate_result g;
    memset(&g, 0, sizeof g);
    g.stage = stage;
    g.verdict = S2R_VERDICT_FAIL;
    g.n = n;
    g.value = value;
    g.lo = g.hi = value;
    g.threshold = threshold;
    return g;
}

/* Set the verdict and format the reason. */
static void s2r__gate_say(s2r_gate_result* g, s2r_verdict v, const char* fmt, ...) {
    va_list ap;
    g->verdict = v;
    va_start(ap, fmt);
    vsnprintf(g->reason, sizeof g->reason, fmt, ap);
    va_end(ap);
}

/* A rate with its Wilson interval into a gate result. */
static void s2r__gate_rate(s2r_gate_result* g, int k, int n) {
    g->n = n;
    g->value = n > 0 ? (double)k / n : 0;
    s2r_wilson_interval(k, n, &g->lo, &g->hi);
}

/* The sequential rule of a success-rate gate: the SPRT's verdict, and a
   reason naming the boundary crossed (or the cap). */
static void s2r__gate_sequential(const s2r_gate_config* c, s2r_stage stage, int k, int n, s2r_gate_result* g) {
    s2r_sprt_config t = s2r_gate_sprt(c, stage);
    char why[S2R_ERROR_LEN];
    double llr, upper, lower;
    s2r_verdict v;
    if (s2r_sprt_check(&t, why) != S2R_OK) {
        s2r__gate_say(g, S2R_VERDICT_FAIL, "bad gate design: %s", why);
        return;
    }
    v = s2r_sprt_decide(&t, k, n, &llr);
    upper = log((1 - t.beta) / t.alpha);
    lower = log(t.beta / (1 - t.alpha));
    if (v == S2R_VERDICT_PASS)
        s2r__gate_say(g, v, "%d of %d episodes: log-likelihood ratio %.2f reached the pass boundary %.2f (SPRT %.2f "
                      "against %.2f, alpha %.2f, beta %.2f)", k, n, llr, upper, t.p1, t.p0, t.alpha, t.beta);
    else if (v == S2R_VERDICT_FAIL && llr <= lower + S2R_GATE_EPS)
        s2r__gate_say(g, v, "%d of %d episodes: log-likelihood ratio %.2f reached the fail boundary %.2f (SPRT %.2f "
                      "against %.2f)", k, n, llr, lower, t.p1, t.p0);
    else if (v == S2R_VERDICT_FAIL)
        s2r__gate_say(g, v, "%d of %d episodes (the cap) without reaching the pass boundary: log-likelihood ratio "
                      "%.2f < %.2f", k, n, llr, upper);
    else
        s2r__gate_say(g, v, "%d of %d: log-likelihood ratio %.2f between the boundaries %.2f and %.2f", k, n, llr,
                      lower, upper);
}

/* k successes of n trials make sense. */
static int s2r__counts_ok(int k, int n) { return n >= 0 && k >= 0 && k <= n; }

/* The most episodes a stage's gate may ask for. */
static int s2r__gate_cap(const s2r_gate_config* c, s2r_stage stage) {
    return stage == S2R_STAGE_TETHERED ? c->tethered_max_episodes : c->constrained_episodes;
}

/* The stage's gate on k successes of n and `catastrophic` catastrophes. */
static s2r_gate_result s2r__gate_of(const s2r_gate_config* c, s2r_stage stage, int k, int n, int catastrophic) {
    return stage == S2R_STAGE_TETHERED ? s2r_gate_tethered(c, k, n) : s2r_gate_constrained(c, k, n, catastrophic);
}

/* ==========================================================================
   Deployment (6/7): drift detection and the fleet monitor
   ========================================================================== */

S2RDEF s2r_drift_config s2r_drift_config_default(s2r_drift_kind kind) {
    s2r_drift_config c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.warmup = kind == S2R_DRIFT_BERNOULLI ? 20 : 30;
    c.shift = kind == S2R_DRIFT_BERNOULLI ? 0.3 : 2.0;
    c.threshold = kind == S2R_DRIFT_BERNOULLI ? 7.0 : 8.0;
    c.direction = 0;
    c.min_std = 1e-6;
    return c;
}

S2RDEF s2r_drift_config s2r_drift_config_page_hinkley(s2r_drift_kind kind) {
    s2r_drift_config c = s2r_drift_config_default(kind);
    c.method = S2R_DRIFT_PAGE_HINKLEY;
    c.threshold = kind == S2R_DRIFT_BERNOULLI ? 4.0 : 8.0;
    return c;
}

S2RDEF const char* s2r_drift_method_name(s2r_drift_method method) {
    static const char* const names[S2R_DRIFT_METHOD_COUNT] = {"cusum", "page_hinkley"};
    return (method >= 0 && method < S2R_DRIFT_METHOD_COUNT) ? names[method] : "unknown";
}

static s2r_result s2r__drift_check(const s2r_drift_config* c, char* error) {
    if ((int)c->kind != S2R_DRIFT_BERNOULLI && (int)c->kind != S2R_DRIFT_GAUSSIAN)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: unknown kind %d", (int)c->kind);
    if ((int)c->method != S2R_DRIFT_CUSUM && (int)c->method != S2R_DRIFT_PAGE_HINKLEY)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: unknown method %d", (int)c->method);
    if (c->warmup < 0 || (c->kind == S2R_DRIFT_GAUSSIAN && c->warmup == 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: warmup must be 0 or >= %d", c->kind == S2R_DRIFT_GAUSSIAN ? 2 : 1);
    if (!(c->shift > 0) || !isfinite(c->shift) || !(c->threshold > 0) || !isfinite(c->threshold))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: shift and threshold must be finite and > 0");
    if (c->direction < -1 || c->direction > 1 || !(c->min_std > 0) || !isfinite(c->min_std))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: direction must be -1, 0 or 1 and min_std > 0");
    if (c->warmup == 0 && c->kind == S2R_DRIFT_BERNOULLI && !(c->ref_mean > 0 && c->ref_mean < 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: a Bernoulli reference p0 must be in (0, 1)");
    if (c->warmup == 0 && c->kind == S2R_DRIFT_GAUSSIAN && (!isfinite(c->ref_mean) || !(c->ref_std > 0) || !isfinite(c->ref_std)))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: a Gaussian reference needs a finite mean and std > 0");
    return S2R_OK;
}

/* Fix the reference from the warm-up (or the config). */
static void s2r__drift_reference(s2r_drift* d) {
    const s2r_drift_config* c = &d->config;
    int n = c->warmup;
    if (c->kind == S2R_DRIFT_BERNOULLI) {
        d->mean = n > 0 ? (d->sum + 1) / (n + 2) : c->ref_mean;
        d->p1 = fmax(d->mean - c->shift, 0.001);
    } else {
        double var = n > 1 ? (d->sum_sq - d->sum * d->sum / n) / (n - 1) : c->ref_std * c->ref_std;
        d->mean = n > 0 ? d->sum / n : c->ref_mean;
        d->std = fmax(sqrt(fmax(var, 0)), c->min_std);
    }
}

S2RDEF s2r_result s2r_drift_init(s2r_drift* d, const s2r_drift_config* c, char* error) {
    s2r_result res;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!c) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "drift: config is NULL");
    if ((res = s2r__drift_check(c, error)) != S2R_OK) return res;
    d->config = *c;
    if (c->warmup == 0) s2r__drift_reference(d);
    return S2R_OK;
}

/* Add one post-warm-up sample to the CUSUM sums, or to Page-Hinkley's
   cumulative deviations from the running mean (in reference std for
   GAUSSIAN) less delta = shift/2, each with its running minimum. */
static void s2r__drift_accumulate(s2r_drift* d, double x) {
    const s2r_drift_config* c = &d->config;
    if (c->method == S2R_DRIFT_PAGE_HINKLEY) {
        double scale = c->kind == S2R_DRIFT_GAUSSIAN ? d->std : 1.0, mean = d->total / d->samples;
        d->up += (x - mean) / scale - 0.5 * c->shift;
        d->down += (mean - x) / scale - 0.5 * c->shift;
        d->up_min = fmin(d->up_min, d->up);
        d->down_min = fmin(d->down_min, d->down);
    } else if (c->kind == S2R_DRIFT_BERNOULLI) {
        double llr = x >= 0.5 ? log(d->p1 / d->mean) : log((1 - d->p1) / (1 - d->mean));
        d->up = fmax(0, d->up + llr);
    } else {
        double z = (x - d->mean) / d->std, k = 0.5 * c->shift;
        d->up = fmax(0, d->up + z - k);
        d->down = fmax(0, d->down - z - k);
    }
}

S2RDEF double s2r_drift_level(const s2r_drift* d) {
    S2R_ASSERT(d);
    const s2r_drift_config* c = &d->config;
    double s = 0, up = d->up, down = d->down;
    if (d->samples <= c->warmup) return 0;
    if (c->method == S2R_DRIFT_PAGE_HINKLEY) {   /* success watches falls */
        up = c->kind == S2R_DRIFT_BERNOULLI ? down - d->down_min : up - d->up_min;
        down -= d->down_min;
    }
    if (c->kind == S2R_DRIFT_BERNOULLI || c->direction >= 0) s = up;
    if (c->kind == S2R_DRIFT_GAUSSIAN && c->direction <= 0) s = fmax(s, down);
    return s / c->threshold;
}

S2RDEF int s2r_drift_update(s2r_drift* d, double x) {
    S2R_ASSERT(d);
    if (!isfinite(x)) return -1;
    d->samples++;
    d->total += x;
    if (d->samples <= d->config.warmup) {
        d->sum += x;
        d->sum_sq += x * x;
        if (d->samples == d->config.warmup) s2r__drift_reference(d);
        return 0;
    }
    s2r__drift_accumulate(d, x);
    if (d->alarm || s2r_drift_level(d) <= 1.0) return 0;
    d->alarm = 1;
    d->alarm_at = d->samples;
    return 1;
}

S2RDEF s2r_monitor_config s2r_monitor_config_default(void) {
    s2r_monitor_config c;
    c.success = s2r_drift_config_default(S2R_DRIFT_BERNOULLI);
    c.action = s2r_drift_config_default(S2R_DRIFT_GAUSSIAN);
    c.window = 20;
    c.max_interventions = 0.5;
    c.max_torque_peak = 0.99;
    return c;
}

S2RDEF s2r_result s2r_monitor_init(s2r_monitor* m, const s2r_monitor_config* c) {
    s2r_result res;
    S2R_ASSERT(m);
    memset(m, 0, sizeof *m);
    if (!c)
        return s2r__fail(m->error, S2R_ERR_INVALID_ARGUMENT, "s2r_monitor_init: c is NULL");
    if (c->window < 1 || c->window > S2R_MONITOR_MAX_WINDOW || !(c->max_interventions >= 0) || !(c->max_torque_peak > 0))
        return s2r__fail(m->error, S2R_ERR_INVALID_ARGUMENT, "monitor: window 1..%d, max_interventions >= 0, max_torque_peak > 0",
                         S2R_MONITOR_MAX_WINDOW);
    if (c->success.kind != S2R_DRIFT_BERNOULLI)
        return s2r__fail(m->error, S2R_ERR_INVALID_ARGUMENT, "monitor: the success detector must be Bernoulli");
    if ((res = s2r_drift_init(&m->success, &c->success, m->error)) != S2R_OK) return res;
    if ((res = s2r_drift_init(&m->action, &c->action, m->error)) != S2R_OK) return res;
    m->config = *c;
    m->rolling_hi = 1;
    return S2R_OK;
}

/* Rolling means over the filled part of the window. */
static void s2r__monitor_rolling(s2r_monitor* m) {
    int i, w = m->episodes < m->config.window ? m->episodes : m->config.window, k = 0, iv = 0;
    double tq = 0;
    for (i = 0; i < w; i++) {
        k += m->ring_success[i];
        iv += m->ring_interventions[i];
        tq += m->ring_torque[i];
    }
    m->rolling_success = (double)k / w;
    s2r_wilson_interval(k, w, &m->rolling_lo, &m->rolling_hi);
    m->rolling_interventions = (double)iv / w;
    m->rolling_torque = tq / w;
}

S2RDEF unsigned s2r_monitor_update(s2r_monitor* m, const s2r_episode_stats* e) {
    S2R_ASSERT(m && e);
    unsigned raised = 0;
    int slot = m->episodes % m->config.window, full;
    if (s2r_drift_update(&m->success, e->success ? 1.0 : 0.0) == 1) raised |= S2R_ALARM_BIT(S2R_ALARM_SUCCESS_DRIFT);
    if (s2r_drift_update(&m->action, e->action_mean_abs) == 1) raised |= S2R_ALARM_BIT(S2R_ALARM_ACTION_DRIFT);
    m->ring_success[slot] = e->success != 0;
    m->ring_interventions[slot] = e->interventions;
    m->ring_torque[slot] = e->torque_peak;
    m->episodes++;
    s2r__monitor_rolling(m);
    full = m->episodes >= m->config.window;
    if (full && m->rolling_interventions > m->config.max_interventions) raised |= S2R_ALARM_BIT(S2R_ALARM_INTERVENTIONS);
    if (full && m->rolling_torque > m->config.max_torque_peak) raised |= S2R_ALARM_BIT(S2R_ALARM_TORQUE);
    if (e->catastrophic) raised |= S2R_ALARM_BIT(S2R_ALARM_CATASTROPHIC);
    raised &= ~m->alarms;   /* only newly raised ones */
    m->alarms |= raised;
    return raised;
}

/* ==========================================================================
   Deployment (7/7): the stage machine and its log
   ========================================================================== */

/* A JSON object built in a fixed buffer; `overflow` when it did not fit. */
typedef struct s2r__json {
    char   buf[S2R_DEPLOY_RECORD_MAX];
    size_t len;
    int    overflow;
} s2r__json;

static void s2r__json_raw(s2r__json* j, const char* text) {
    size_t n = strlen(text);
    if (j->overflow || j->len + n + 1 > sizeof j->buf) { j->overflow = 1; return; }
    memcpy(j->buf + j->len, text, n + 1);
    j->len += n;
}

/* ,"key":"value" with the value escaped for JSON. */
static void s2r__json_string(s2r__json* j, const char* key, const char* value) {
    char esc[8];
    const unsigned char* p;
    s2r__json_raw(j, j->len > 1 ? ",\"" : "\"");
    s2r__json_raw(j, key);
    s2r__json_raw(j, "\":\"");
    for (p = (const unsigned char*)(value ? value : ""); *p; p++) {
        if (*p == '"' || *p == '\\') { esc[0] = '\\'; esc[1] = (char)*p; esc[2] = '\0'; }
        else if (*p < 0x20) snprintf(esc, sizeof esc, "\\u%04x", (unsigned)*p);
        else { esc[0] = (char)*p; esc[1] = '\0'; }
        s2r__json_raw(j, esc);
    }
    s2r__json_raw(j, "\"");
}

/* ,"key":number (null when not finite). */
static void s2r__json_number(s2r__json* j, const char* key, double v) {
    char num[48];
    if (isfinite(v)) snprintf(num, sizeof num, "%.10g", v);
    else snprintf(num, sizeof num, "null");
    s2r__json_raw(j, j->len > 1 ? ",\"" : "\"");
    s2r__json_raw(j, key);
    s2r__json_raw(j, "\":");
    s2r__json_raw(j, num);
}

/* Start a record with the fields every record has. */
static void s2r__json_begin(s2r__json* j, s2r_deploy* d, const char* event) {
    j->len = 0;
    j->overflow = 0;
    j->buf[0] = '\0';
    s2r__json_raw(j, "{");
    s2r__json_number(j, "seq", (double)(d->seq + 1));
    s2r__json_string(j, "policy", d->policy);
    s2r__json_string(j, "event", event);
    s2r__json_string(j, "stage", s2r_stage_name(d->stage));
}

/* Finish the record and hand it to the OS in one write. */
static s2r_result s2r__json_commit(s2r__json* j, s2r_deploy* d) {
    s2r__json_raw(j, "}\n");
    if (j->overflow) return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "log record longer than %d bytes; not written", S2R_DEPLOY_RECORD_MAX);
    d->seq++;
    if (!d->log) return S2R_OK;
    if (fwrite(j->buf, 1, j->len, d->log) != j->len || fflush(d->log) != 0)
        return s2r__fail(d->error, S2R_ERR_IO, "cannot write the deployment log");
    return S2R_OK;
}

S2RDEF s2r_deploy_config s2r_deploy_config_default(void) {
    s2r_deploy_config c;
    c.alarm_response = S2R_ALARM_RESPONSE_ROLLBACK;
    c.append_log = 0;
    return c;
}

S2RDEF s2r_result s2r_deploy_init(s2r_deploy* d, const s2r_deploy_config* config, const char* policy,
                                  const char* log_path) {
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!config)
        return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "s2r_deploy_init: config is NULL");
    if ((int)config->alarm_response < 0 || (int)config->alarm_response >= S2R_ALARM_RESPONSE_COUNT)
        return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "deploy: unknown alarm response %d", (int)config->alarm_response);
    d->config = *config;
    d->stage = S2R_STAGE_SIM_REGRESSION;
    snprintf(d->policy, sizeof d->policy, "%s", policy ? policy : "policy");
    if (log_path) {
        d->log = fopen(log_path, config->append_log ? "ab" : "wb");
        if (!d->log) return s2r__fail(d->error, S2R_ERR_IO, "cannot open the deployment log '%s': %s", log_path, strerror(errno));
        /* One record always fits the buffer, so each fflush is one write. */
        setvbuf(d->log, NULL, _IOFBF, 2 * S2R_DEPLOY_RECORD_MAX);
    }
    return s2r_deploy_note(d, "begin", "deployment of %s starts at %s", d->policy, s2r_stage_name(d->stage));
}

S2RDEF void s2r_deploy_free(s2r_deploy* d) {
    if (!d) return;
    if (d->log) fclose(d->log);
    memset(d, 0, sizeof *d);
}

static void s2r__deploy_remember(s2r_deploy* d, const s2r_deploy_event* e) {
    if (d->history_count < S2R_DEPLOY_MAX_HISTORY) d->history[d->history_count++] = *e;
}

static s2r_stage s2r__stage_after(s2r_stage s, s2r_verdict v) {
    if (v == S2R_VERDICT_FAIL) return S2R_STAGE_ROLLED_BACK;
    if (v == S2R_VERDICT_CONTINUE || s == S2R_STAGE_AUTONOMOUS) return s;
    return (s2r_stage)(s + 1);
}

static s2r_result s2r__deploy_refuse(s2r_deploy* d, const s2r_gate_result* g, const char* why);

S2RDEF s2r_result s2r_deploy_apply(s2r_deploy* d, const s2r_gate_result* gate) {
    s2r__json j;
    s2r_deploy_event e;
    S2R_ASSERT(d);
    if (!gate || (int)gate->verdict < 0 || (int)gate->verdict >= S2R_VERDICT_COUNT || (int)gate->stage < 0 ||
        (int)gate->stage >= S2R_STAGE_COUNT)
        return s2r__fail(d->error, S2R_ERR_INVALID_ARGUMENT, "deploy: invalid gate result");
    if (d->stage == S2R_STAGE_ROLLED_BACK) return s2r__deploy_refuse(d, gate, "the policy was rolled back; deploy a new version");
    if (gate->stage != d->stage) return s2r__deploy_refuse(d, gate, "the policy is at another stage; stages cannot be skipped");
    memset(&e, 0, sizeof e);
    e.seq = d->seq + 1;
    e.stage = d->stage;
    e.next = s2r__stage_after(d->stage, gate->verdict);
    e.verdict = gate->verdict;
    e.unit = -1;
    e.n = gate->n;
    e.value = gate->value;
    e.lo = gate->lo;
    e.hi = gate->hi;
    s2r__json_begin(&j, d, "gate");
    s2r__json_string(&j, "verdict", s2r_verdict_name(gate->verdict));
    s2r__json_string(&j, "next", s2r_stage_name(e.next));
    s2r__json_number(&j, "n", gate->n);
    s2r__json_number(&j, "value", gate->value);
    s2r__json_number(&j, "lo", gate->lo);
    s2r__json_number(&j, "hi", gate->hi);
    s2r__json_number(&j, "threshold", gate->threshold);
    s2r__json_string(&j, "reason", gate->reason);
    if (gate->verdict != S2R_VERDICT_CONTINUE) s2r__deploy_remember(d, &e);
    d->stage = e.next;   /* the decision stands even if the disk fails */
    return s2r__json_commit(&j, d);
}

/* Log a refused gate and return S2R_ERR_STATE. */
static s2r_result s2r__deploy_refuse(s2r_deploy* d, const s2r_gate_result* g, const char* why) {
    s2r__json j;
    s2r__json_begin(&j, d, "refused");
    s2r__json_string(&j, "gate", s2r_stage_name(g->stage));
    s2r__json_string(&j, "reason", why);
    s2r__json_commit(&j, d);
    return s2r__fail(d->error, S2R_ERR_STATE, "%s gate refused: %s", s2r_stage_name(g->stage), why);
}

/* "a+b+c" of the alarm names in `alarms`. */
static void s2r__alarm_list(unsigned alarms, char* out, size_t cap) {
    int a;
    size_t len = 0;
    out[0] = '\0';
    for (a = 0; a < S2R_ALARM_COUNT; a++)
        if (alarms & S2R_ALARM_BIT(a)) {
            int w = snprintf(out + len, cap - len, "%s%s", len ? "+" : "", s2r_alarm_name((s2r_alarm)a));
            if (w < 0 || (size_t)w >= cap - len) return;
            len += (size_t)w;
        }
}

S2RDEF s2r_result s2r_deploy_alarm(s2r_deploy* d, int unit, unsigned alarms, const char* detail) {
    s2r__json j;
    s2r_deploy_event e;
    char names[128];
    S2R_ASSERT(d);
    if (d->stage == S2R_STAGE_ROLLED_BACK)
        return s2r__fail(d->error, S2R_ERR_STATE, "alarm after the rollback: the fallback is already in charge");
    memset(&e, 0, sizeof e);
    e.seq = d->seq + 1;
    e.stage = d->stage;
    e.next = d->config.alarm_response == S2R_ALARM_RESPONSE_DEMOTE && d->stage > S2R_STAGE_SIM_REGRESSION
                 ? (s2r_stage)(d->stage - 1) : S2R_STAGE_ROLLED_BACK;
    e.verdict = S2R_VERDICT_FAIL;
    e.alarms = alarms;
    e.unit = unit;
    s2r__alarm_list(alarms, names, sizeof names);
    s2r__json_begin(&j, d, "alarm");
    s2r__json_number(&j, "unit", unit);
    s2r__json_string(&j, "alarms", names);
    s2r__json_string(&j, "response", s2r_alarm_response_name(d->config.alarm_response));
    s2r__json_string(&j, "next", s2r_stage_name(e.next));
    s2r__json_string(&j, "reason", detail ? detail : names);
    s2r__deploy_remember(d, &e);
    d->stage = e.next;
    return s2r__json_commit(&j, d);
}

S2RDEF s2r_result s2r_deploy_note(s2r_deploy* d, const char* event, const char* format, ...) {
    s2r__json j;
    char detail[512];
    va_list ap;
    S2R_ASSERT(d);
    va_start(ap, format);
    vsnprintf(detail, sizeof detail, format ? format : "", ap);
    va_end(ap);
    s2r__json_begin(&j, d, event ? event : "note");
    s2r__json_string(&j, "detail", detail);
    return s2r__json_commit(&j, d);
}


#endif /* SIM2REAL_IMPLEMENTATION_DONE */
#endif /* SIM2REAL_IMPLEMENTATION */

/*
   LICENSE (MIT)
   -------------
   Copyright (c) 2026 the sim2real.h authors

   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to
   deal in the Software without restriction, including without limitation the
   rights to use, copy, modify, merge, publish, distribute, sublicense, and/or
   sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in
   all copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
   FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
   IN THE SOFTWARE.
*/
