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
   implementation.  Link with -lmujoco -lm.  stb_image_write.h (Debian's
   libstb-dev, include path /usr/include/stb) must be on the include path.

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

   1. Quick start
   --------------
   Load the UR5e, run the reach-and-hold task with a do-nothing policy on the
   nominal simulator and print the outcome (this exact program is compiled and
   run by tests/test_main.c):

   #define SIM2REAL_IMPLEMENTATION
   #include "sim2real.h"
   #include <stdio.h>

   int main(void) {
       s2r_sim sim;
       s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
       if (s2r_sim_init(&sim, &sc) != S2R_OK) { printf("%s\n", sim.error); return 1; }

       s2r_reach reach;                       // the task, talking to a backend
       s2r_reach_config rc = s2r_reach_config_default();
       s2r_reach_init(&reach, &rc, s2r_sim_backend(&sim));

       s2r_rng rng = s2r_rng_make(42, 0);     // seed 42, stream 0
       float obs[S2R_REACH_MAX_OBS], act[S2R_MAX_JOINTS] = {0};
       s2r_reach_reset(&reach, &rng, obs);
       s2r_step_result r;
       do { s2r_reach_step(&reach, act, obs, &r); } while (!r.done);
       printf("distance %.3f m, success %d\n", r.distance, r.success);

       s2r_reach_free(&reach);
       s2r_sim_free(&sim);
       return 0;
   }

   2. The recipe, step by step
   ---------------------------
   The numbered examples walk it; each saves what the next one needs.
     00  hello robot: load both arms, print their facts, hold the home pose.
     01  the gap: one scripted controller on the nominal simulator, a randomized
         simulator and real units - the gap before any learning.  Then PPO on
         the nominal simulator, evaluated in sim and on real units.
     02  domain randomization: the same PPO on randomized physics, actuation,
         sensing and latency.
     03  system identification: excite a real unit through the backend,
         identify its parameters by coordinate descent, validate open loop,
         re-centre the randomization on the estimate and retrain.
     04  fine-tune on real demonstrations (behaviour cloning anchored to the
         simulation policy) with 100 and 1000 demos.
     05  real only: behaviour cloning from scratch on 10k demos.
     06  staged deployment: gates, safety monitor, fallback, drift monitoring.
     07  the whole table.

   3. What sim2real.h does NOT do
   ------------------------------
   - No vision: the target's position is a perceived 3-D point (with a camera
     calibration error on the real robot), not pixels.
   - No grasping or contact-rich manipulation: the task is reach-and-hold.
   - No GPU, no autodiff framework: small MLPs, hand-written backward passes.
   - No real hardware driver: the backend interface is where yours would go.
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
   S2R_NO_STB_IMAGE_WRITE_IMPLEMENTATION
                             you compile stb_image_write yourself elsewhere

   5. Memory
   ---------
   Every object is caller-owned: you provide the struct (on the stack or
   wherever), `s2r_x_init(&obj, &config)` allocates what it needs through
   S2R_MALLOC, `s2r_x_free(&obj)` releases it.  Buffers for rollouts and delay
   lines are allocated at init; stepping an environment allocates nothing.

   6. Errors
   ---------
   Functions that can fail return `s2r_result`: S2R_OK (0) or a negative code;
   `s2r_result_string(code)` names it.  Objects that can fail carry a
   `char error[S2R_ERROR_LEN]` with a sentence saying what went wrong (for a
   malformed MJCF, MuJoCo's own message).  Bad input (NaN actions, min > max
   ranges, corrupt files) is an error code, never a crash, and leaves the
   object as it was.  The library never calls exit() or abort(); S2R_ASSERT
   guards only against programmer errors such as a NULL object.

   7. Determinism and random numbers
   ---------------------------------
   There is no hidden random state.  Every function that draws random numbers
   takes an `s2r_rng*`.  `s2r_rng_make(seed, stream)` gives independent streams
   for the same seed (one per environment, one per fleet unit, ...).  The same
   seeds reproduce bit-identical results on the same build.

   8. Sections of this file
   ------------------------
   Core (results, errors, memory, RNG) -> Robots (embedded MJCF) -> Backend
   interface and the simulator backend -> Reach task -> Figures.
   Each section opens with a banner saying what it is for.
*/
#ifndef SIM2REAL_H
#define SIM2REAL_H

#include <stddef.h>
#include <stdint.h>
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
    S2R_RESULT_COUNT_ = 10          /* number of codes (0 .. -9)               */
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
} s2r_env;

/* ==========================================================================
   Robots: the UR5e and the Franka Panda as embedded MJCF, or your own arm
   ==========================================================================
   Both arms are written from published numbers (see the comments above each
   MJCF in the implementation) with primitive geoms and joint position servos
   running at the physics rate (dt 0.002 s, implicit integrator):

       tau = kp (q_target - q) - kv qdot,   clipped to the torque limit

   which is a MuJoCo <general> actuator with an affine bias.  There is no
   gravity compensation in the servo, as on a plain position-controlled joint;
   the small static droop it causes is part of what a policy must correct.

   Your own MJCF works if it follows the same conventions:
     - every arm joint is a limited hinge driven by one position actuator
       (<general gaintype="fixed" biastype="affine">, forcelimited); the
       actuators' order is the joint order (at most S2R_MAX_JOINTS);
     - a site named "flange" marks the tool flange;
     - optional: a mocap body "target" (the marker), a keyframe "home",
       a <numeric name="s2r_velocity_limit"> with one rad/s value per joint
       (default pi rad/s), and <numeric name="s2r_workspace"> with
       "xlo ylo zlo xhi yhi zhi" in metres (default: a 0.3 m box centred
       0.1 m below the flange at home). */

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
    char error[S2R_ERROR_LEN];
} s2r_robot;

/* Load a built-in arm (UR5E or PANDA) from its embedded MJCF. */
S2RDEF s2r_result s2r_robot_load(s2r_robot* robot, s2r_robot_kind kind);
/* Load an arm from MJCF text in memory / from a file.  On a malformed model
   the result is S2R_ERR_MODEL and robot->error holds MuJoCo's message. */
S2RDEF s2r_result s2r_robot_load_xml(s2r_robot* robot, const char* xml);
S2RDEF s2r_result s2r_robot_load_file(s2r_robot* robot, const char* path);
S2RDEF void       s2r_robot_free(s2r_robot* robot);
/* The embedded MJCF of a built-in arm, written into `buf` (`cap` bytes);
   returns the length it needs (like snprintf), 0 for an unknown kind. */
S2RDEF size_t     s2r_robot_mjcf(s2r_robot_kind kind, char* buf, size_t cap);
/* Put the arm at rest at `q` (rad, [n_joints]; NULL = home) with the servos
   holding it there, and recompute positions. */
S2RDEF s2r_result s2r_robot_reset(s2r_robot* robot, const double* q);
/* Flange position (m, world) for joint angles `q` (rad, [n_joints], in
   actuator order) on `model`, using the caller's scratch `data` (from
   mj_makeData(model)); no allocation. */
S2RDEF void       s2r_flange_fk(const mjModel* model, mjData* scratch, int flange_site,
                                const double* q, int n_joints, double pos[3]);

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
} s2r_sensors;

typedef struct s2r_ground_truth {     /* external measurement, for evaluation  */
    double flange[3];                 /* m, true flange position (world)       */
    double flange_vel[3];             /* m/s, true flange velocity             */
    double target[3];                 /* m, true target position               */
    double q[S2R_MAX_JOINTS];         /* rad, true joint positions             */
    int    diverged;                  /* physics blew up since reset           */
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
    /* Let `seconds` of time pass (rounded to whole physics steps).
       S2R_ERR_DIVERGED if the physics blew up (the episode must end). */
    s2r_result (*advance)(void* self, double seconds);
    s2r_result (*read_sensors)(void* self, s2r_sensors* out);
    s2r_result (*ground_truth)(void* self, s2r_ground_truth* out);
} s2r_backend;

/* Shorthands: s2r_backend_reset(b, ...) is b->reset(b->self, ...). */
S2RDEF s2r_result s2r_backend_reset(const s2r_backend* b, const double* q0,
                                    const double* target, s2r_rng* rng);
S2RDEF s2r_result s2r_backend_command(const s2r_backend* b, const double* q_target);
S2RDEF s2r_result s2r_backend_advance(const s2r_backend* b, double seconds);
S2RDEF s2r_result s2r_backend_read_sensors(const s2r_backend* b, s2r_sensors* out);
S2RDEF s2r_result s2r_backend_ground_truth(const s2r_backend* b, s2r_ground_truth* out);

/* --- The simulator backend ----------------------------------------------- */

typedef struct s2r_sim_config {
    s2r_robot_kind robot;       /* default S2R_ROBOT_UR5E                      */
    const char*    mjcf_path;   /* S2R_ROBOT_CUSTOM: MJCF file, or ...         */
    const char*    mjcf_xml;    /* ... MJCF text (used when mjcf_path is NULL) */
    double max_joint_speed;     /* rad/s; faster is treated as divergence; 50  */
} s2r_sim_config;

typedef struct s2r_sim {
    s2r_sim_config config;
    s2r_robot      robot;                   /* the simulated arm                */
    s2r_backend    backend;                 /* this simulator as a backend      */
    double         q_cmd[S2R_MAX_JOINTS];   /* rad, current servo targets       */
    double         time;                    /* s since reset                    */
    int            diverged;                /* physics blew up since reset      */
    char           error[S2R_ERROR_LEN];
} s2r_sim;

S2RDEF s2r_sim_config     s2r_sim_config_default(s2r_robot_kind robot);
S2RDEF s2r_result         s2r_sim_init(s2r_sim* sim, const s2r_sim_config* config);
S2RDEF void               s2r_sim_free(s2r_sim* sim);
S2RDEF const s2r_backend* s2r_sim_backend(s2r_sim* sim);

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
       [3n, 3n+3)  target       perceived target position (world), m
       [+3, +6)    flange       flange by forward kinematics of measured q, m
       [+6, +9)    target - flange, m
       [+9, +9+n)  previous action
   obs_dim = 4n + 9 (UR5e 33, Panda 37).

   Reward per step (from ground truth, d = flange-target distance in m):
       r = -d / 0.1  +  bonus * exp(-(d / success_radius)^2)  -  action_cost * |a|^2
   Success (judged at the last step from ground truth, never from sensors):
       d < success_radius  and  |flange velocity| < success_speed. */

#define S2R_REACH_MAX_OBS (4 * S2R_MAX_JOINTS + 9)

typedef struct s2r_reach_config {
    double control_period;   /* s between policy actions; 0.04 (25 Hz)        */
    int    episode_steps;    /* policy steps per episode; 75 (3 s)            */
    double max_delta;        /* rad servo-target change at |a| = 1; 0.05      */
    double success_radius;   /* m; 0.02                                       */
    double success_speed;    /* m/s; 0.05                                     */
    double workspace_scale;  /* fraction of the workspace box, about its centre; 1 */
    double init_q_noise;     /* rad, start pose spread around home; 0.05       */
    double bonus;            /* reward for being on target; 1.0               */
    double action_cost;      /* reward weight on |a|^2; 0.01                  */
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
/* Start an episode from a given pose (rad; NULL = home) and target (m). */
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

#endif /* SIM2REAL_H */

/* ==========================================================================
   IMPLEMENTATION
   ========================================================================== */
#ifdef SIM2REAL_IMPLEMENTATION
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#define SIM2REAL_IMPLEMENTATION_DONE

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* --- Core ---------------------------------------------------------------- */

S2RDEF const char* s2r_result_string(s2r_result r) {
    static const char* names[S2R_RESULT_COUNT_] = {
        "S2R_OK", "S2R_ERR_INVALID_ARGUMENT", "S2R_ERR_OUT_OF_MEMORY",
        "S2R_ERR_MODEL", "S2R_ERR_IO", "S2R_ERR_CORRUPT", "S2R_ERR_PARSE",
        "S2R_ERR_DIVERGED", "S2R_ERR_STATE", "S2R_ERR_UNSUPPORTED"};
    int i = -(int)r;
    return (i >= 0 && i < S2R_RESULT_COUNT_) ? names[i] : "S2R_ERR_UNKNOWN";
}

/* Write a formatted message into `error` (S2R_ERROR_LEN bytes, may be NULL)
   and return `code`: the one way library code reports a failure. */
static s2r_result s2r__fail(char* error, s2r_result code, const char* fmt, ...) {
    if (error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error, S2R_ERROR_LEN, fmt, ap);
        va_end(ap);
    }
    return code;
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
    uint64_t* s = rng->s;
    uint64_t result = s2r__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s2r__rotl(s[3], 45);
    return result;
}

S2RDEF double s2r_rng_uniform(s2r_rng* rng) {
    return (double)(s2r_rng_u64(rng) >> 11) * (1.0 / 9007199254740992.0);
}

S2RDEF double s2r_rng_range(s2r_rng* rng, double lo, double hi) {
    return lo + (hi - lo) * s2r_rng_uniform(rng);
}

S2RDEF double s2r_rng_normal(s2r_rng* rng) {
    /* Box-Muller; one draw per call so the stream position never depends on
       a cached spare. */
    double u1 = 1.0 - s2r_rng_uniform(rng); /* (0, 1] */
    double u2 = s2r_rng_uniform(rng);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

S2RDEF int s2r_rng_int(s2r_rng* rng, int n) {
    S2R_ASSERT(n > 0);
    return (int)(s2r_rng_u64(rng) % (uint64_t)n);
}

S2RDEF s2r_rng s2r_rng_split(s2r_rng* parent, uint64_t index) {
    return s2r_rng_make(s2r_rng_u64(parent), index);
}

S2RDEF int s2r_all_finite(const double* x, int n) {
    int i;
    for (i = 0; i < n; i++) if (!isfinite(x[i])) return 0;
    return 1;
}

S2RDEF int s2r_all_finite_f(const float* x, int n) {
    int i;
    for (i = 0; i < n; i++) if (!isfinite(x[i])) return 0;
    return 1;
}

S2RDEF double s2r_clamp(double x, double lo, double hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

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
    "    <geom type='capsule' contype='2' conaffinity='1' rgba='0.7 0.72 0.75 1' friction='1 0.005 0.0001'/>",
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
    "    <geom type='capsule' contype='2' conaffinity='1' rgba='0.95 0.95 0.95 1' friction='1 0.005 0.0001'/>",
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
    const char* const* line = s2r__builtin_mjcf(kind);
    size_t len = 0;
    if (!line) return 0;
    for (; *line; line++) {
        size_t n = strlen(*line);
        if (buf && len + n + 1 < cap) { memcpy(buf + len, *line, n); buf[len + n] = '\n'; }
        len += n + 1;
    }
    if (buf && cap > 0) buf[len < cap ? len : cap - 1] = '\0';
    return len;
}

/* The one place that knows how MuJoCo reads a model from memory: 2.x fills a
   pre-sized VFS slot, 3.x copies a buffer in with mj_addBufferVFS. */
static mjModel* s2r__load_xml_string(const char* xml, char* error) {
    mjModel* model = NULL;
    int len = (int)strlen(xml);
#if mjVERSION_HEADER >= 300
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    if (mj_addBufferVFS(&vfs, "model.xml", xml, len) == 0)
        model = mj_loadXML("model.xml", &vfs, error, S2R_ERROR_LEN);
    else
        s2r__fail(error, S2R_ERR_MODEL, "could not place the MJCF in MuJoCo's VFS");
    mj_deleteVFS(&vfs);
#else
    mjVFS* vfs = (mjVFS*)S2R_MALLOC(sizeof(mjVFS)); /* ~2 MB: never on the stack */
    if (!vfs) { s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the VFS"); return NULL; }
    mj_defaultVFS(vfs);
    if (mj_makeEmptyFileVFS(vfs, "model.xml", len) == 0) {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, "model.xml")], xml, (size_t)len);
        model = mj_loadXML("model.xml", vfs, error, S2R_ERROR_LEN);
    } else {
        s2r__fail(error, S2R_ERR_MODEL, "could not place the MJCF in MuJoCo's VFS");
    }
    mj_deleteVFS(vfs);
    S2R_FREE(vfs);
#endif
    return model;
}

/* Read a <numeric> custom field of exactly `n` values; 0 if absent. */
static int s2r__custom_numeric(const mjModel* m, const char* name, double* out, int n) {
    int id = mj_name2id(m, mjOBJ_NUMERIC, name), i;
    if (id < 0 || m->numeric_size[id] != n) return 0;
    for (i = 0; i < n; i++) out[i] = m->numeric_data[m->numeric_adr[id] + i];
    return 1;
}

/* Find the arm joints through the actuators and check the conventions. */
static s2r_result s2r__robot_index_joints(s2r_robot* r) {
    const mjModel* m = r->model;
    s2r_arm_info* info = &r->info;
    int a;
    if (m->nu < 1 || m->nu > S2R_MAX_JOINTS)
        return s2r__fail(r->error, S2R_ERR_MODEL, "the model has %d actuators; need 1..%d, one per arm joint", m->nu, S2R_MAX_JOINTS);
    for (a = 0; a < m->nu; a++) {
        int j = m->actuator_trnid[2 * a];
        const char* name = mj_id2name(m, mjOBJ_JOINT, j);
        if (m->actuator_trntype[a] != mjTRN_JOINT || m->jnt_type[j] != mjJNT_HINGE)
            return s2r__fail(r->error, S2R_ERR_MODEL, "actuator %d does not drive a hinge joint", a);
        if (!m->jnt_limited[j] || !m->actuator_forcelimited[a])
            return s2r__fail(r->error, S2R_ERR_MODEL, "joint '%s' needs a range and its actuator a forcerange", name ? name : "?");
        if (m->actuator_biastype[a] != mjBIAS_AFFINE)
            return s2r__fail(r->error, S2R_ERR_MODEL, "actuator %d is not a position servo (biastype affine)", a);
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
    info->n_joints = m->nu;
    return S2R_OK;
}

/* Flange, target, home, limits, masses and workspace. */
static s2r_result s2r__robot_index_rest(s2r_robot* r) {
    const mjModel* m = r->model;
    s2r_arm_info* info = &r->info;
    int n = info->n_joints, target_body, key, b, j;
    double flange[3];
    r->flange_site = mj_name2id(m, mjOBJ_SITE, "flange");
    if (r->flange_site < 0) return s2r__fail(r->error, S2R_ERR_MODEL, "the model has no site named 'flange'");
    r->flange_body = m->site_bodyid[r->flange_site];
    target_body = mj_name2id(m, mjOBJ_BODY, "target");
    r->target_mocap = target_body >= 0 ? m->body_mocapid[target_body] : -1;
    key = mj_name2id(m, mjOBJ_KEY, "home");
    for (j = 0; j < n; j++)
        info->q_home[j] = key >= 0 ? m->key_qpos[key * m->nq + r->qpos_adr[j]] : 0.0;
    s2r__custom_numeric(m, "s2r_velocity_limit", info->velocity_limit, n);
    info->total_mass = 0;
    for (b = 1; b < m->nbody; b++)
        if (m->body_mocapid[b] < 0) info->total_mass += m->body_mass[b];
    if (!s2r__custom_numeric(m, "s2r_workspace", info->workspace_lo, 6)) {
        s2r_flange_fk(m, r->data, r->flange_site, info->q_home, n, flange);
        for (j = 0; j < 3; j++) {
            info->workspace_lo[j] = flange[j] - 0.15 - (j == 2 ? 0.1 : 0.0);
            info->workspace_hi[j] = flange[j] + 0.15 - (j == 2 ? 0.1 : 0.0);
        }
    }
    info->physics_dt = m->opt.timestep;
    info->model = m;
    info->flange_site = r->flange_site;
    snprintf(info->name, sizeof info->name, "%s", m->names);  /* model name comes first */
    return S2R_OK;
}

static s2r_result s2r__robot_finish(s2r_robot* r, mjModel* model, s2r_robot_kind kind) {
    s2r_result res;
    if (!model) return S2R_ERR_MODEL;   /* r->error already holds MuJoCo's message */
    r->model = model;
    r->data = mj_makeData(model);
    if (!r->data) { s2r_robot_free(r); return s2r__fail(r->error, S2R_ERR_OUT_OF_MEMORY, "mj_makeData failed"); }
    r->info.kind = kind;
    res = s2r__robot_index_joints(r);
    if (res == S2R_OK) res = s2r__robot_index_rest(r);
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
    char* xml;
    size_t len;
    mjModel* model;
    S2R_ASSERT(robot);
    memset(robot, 0, sizeof *robot);
    len = s2r_robot_mjcf(kind, NULL, 0);
    if (len == 0) return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "no built-in MJCF for robot kind %d", (int)kind);
    xml = (char*)S2R_MALLOC(len + 1);
    if (!xml) return s2r__fail(robot->error, S2R_ERR_OUT_OF_MEMORY, "out of memory");
    s2r_robot_mjcf(kind, xml, len + 1);
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

S2RDEF s2r_result s2r_robot_load_file(s2r_robot* robot, const char* path) {
    S2R_ASSERT(robot);
    memset(robot, 0, sizeof *robot);
    if (!path) return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "MJCF path is NULL");
    return s2r__robot_finish(robot, mj_loadXML(path, NULL, robot->error, S2R_ERROR_LEN), S2R_ROBOT_CUSTOM);
}

S2RDEF void s2r_robot_free(s2r_robot* robot) {
    if (!robot) return;
    if (robot->data) mj_deleteData(robot->data);
    if (robot->model) mj_deleteModel(robot->model);
    memset(robot, 0, sizeof *robot);
}

S2RDEF s2r_result s2r_robot_reset(s2r_robot* robot, const double* q) {
    const mjModel* m = robot->model;
    mjData* d = robot->data;
    int j, n = robot->info.n_joints;
    if (q && !s2r_all_finite(q, n))
        return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "start pose contains NaN or Inf");
    mj_resetData(m, d);
    for (j = 0; j < n; j++) {
        double qj = q ? q[j] : robot->info.q_home[j];
        d->qpos[robot->qpos_adr[j]] = qj;
        d->ctrl[robot->actuator[j]] = qj;
    }
    mj_forward(m, d);
    return S2R_OK;
}

S2RDEF void s2r_flange_fk(const mjModel* model, mjData* scratch, int flange_site,
                          const double* q, int n_joints, double pos[3]) {
    int a;
    for (a = 0; a < n_joints && a < model->nu; a++)
        scratch->qpos[model->jnt_qposadr[model->actuator_trnid[2 * a]]] = q[a];
    mj_kinematics(model, scratch);
    memcpy(pos, scratch->site_xpos + 3 * flange_site, 3 * sizeof(double));
}

/* --- Backend interface ---------------------------------------------------- */

S2RDEF s2r_result s2r_backend_reset(const s2r_backend* b, const double* q0,
                                    const double* target, s2r_rng* rng) {
    return b->reset(b->self, q0, target, rng);
}
S2RDEF s2r_result s2r_backend_command(const s2r_backend* b, const double* q_target) {
    return b->command(b->self, q_target);
}
S2RDEF s2r_result s2r_backend_advance(const s2r_backend* b, double seconds) {
    return b->advance(b->self, seconds);
}
S2RDEF s2r_result s2r_backend_read_sensors(const s2r_backend* b, s2r_sensors* out) {
    return b->read_sensors(b->self, out);
}
S2RDEF s2r_result s2r_backend_ground_truth(const s2r_backend* b, s2r_ground_truth* out) {
    return b->ground_truth(b->self, out);
}

/* --- The simulator backend ------------------------------------------------- */

S2RDEF s2r_sim_config s2r_sim_config_default(s2r_robot_kind robot) {
    s2r_sim_config c;
    memset(&c, 0, sizeof c);
    c.robot = robot;
    c.max_joint_speed = 50.0;
    return c;
}

/* Servo targets clipped to the joint limits, into robot->data->ctrl. */
static void s2r__robot_set_servo_targets(s2r_robot* r, const double* q_target, double* q_cmd) {
    int j;
    for (j = 0; j < r->info.n_joints; j++) {
        q_cmd[j] = s2r_clamp(q_target[j], r->info.q_min[j], r->info.q_max[j]);
        r->data->ctrl[r->actuator[j]] = q_cmd[j];
    }
}

/* Non-finite state or a joint faster than `max_speed` (rad/s). */
static int s2r__robot_diverged(const s2r_robot* r, double max_speed) {
    int j;
    for (j = 0; j < r->info.n_joints; j++) {
        double v = r->data->qvel[r->dof_adr[j]];
        if (!isfinite(v) || !isfinite(r->data->qpos[r->qpos_adr[j]]) || fabs(v) > max_speed) return 1;
    }
    return 0;
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
}

static s2r_result s2r__sim_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r_robot* r = &sim->robot;
    s2r_result res;
    (void)rng; /* the nominal simulator draws nothing */
    if (target && !s2r_all_finite(target, 3))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "target contains NaN or Inf");
    res = s2r_robot_reset(r, q0);
    if (res != S2R_OK) return s2r__fail(sim->error, res, "%s", r->error);
    if (target && r->target_mocap >= 0) memcpy(r->data->mocap_pos + 3 * r->target_mocap, target, 3 * sizeof(double));
    s2r__robot_set_servo_targets(r, q0 ? q0 : r->info.q_home, sim->q_cmd);
    sim->time = 0;
    sim->diverged = 0;
    return S2R_OK;
}

static s2r_result s2r__sim_command(void* self, const double* q_target) {
    s2r_sim* sim = (s2r_sim*)self;
    if (!q_target || !s2r_all_finite(q_target, sim->robot.info.n_joints))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "joint command contains NaN or Inf; ignored");
    s2r__robot_set_servo_targets(&sim->robot, q_target, sim->q_cmd);
    return S2R_OK;
}

static s2r_result s2r__sim_advance(void* self, double seconds) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r_robot* r = &sim->robot;
    int i, steps;
    if (!(seconds >= 0) || !isfinite(seconds))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "advance by %g s: need a finite time >= 0", seconds);
    if (sim->diverged) return s2r__fail(sim->error, S2R_ERR_DIVERGED, "physics diverged; reset first");
    steps = (int)floor(seconds / r->model->opt.timestep + 0.5);
    for (i = 0; i < steps; i++) {
        mj_step(r->model, r->data);
        if (s2r__robot_diverged(r, sim->config.max_joint_speed)) {
            sim->diverged = 1;
            return s2r__fail(sim->error, S2R_ERR_DIVERGED, "physics diverged at t = %.3f s", sim->time);
        }
        sim->time += r->model->opt.timestep;
    }
    return S2R_OK;
}

static s2r_result s2r__sim_read_sensors(void* self, s2r_sensors* out) {
    s2r_sim* sim = (s2r_sim*)self;
    const s2r_robot* r = &sim->robot;
    const mjData* d = r->data;
    int j;
    memset(out, 0, sizeof *out);
    out->time = sim->time;
    for (j = 0; j < r->info.n_joints; j++) {
        out->q[j] = d->qpos[r->qpos_adr[j]];
        out->qd[j] = d->qvel[r->dof_adr[j]];
        out->tau[j] = d->actuator_force[r->actuator[j]];
    }
    if (r->target_mocap >= 0) memcpy(out->target, d->mocap_pos + 3 * r->target_mocap, 3 * sizeof(double));
    return S2R_OK;
}

static s2r_result s2r__sim_ground_truth(void* self, s2r_ground_truth* out) {
    s2r_sim* sim = (s2r_sim*)self;
    s2r__robot_ground_truth(&sim->robot, sim->diverged, out);
    return S2R_OK;
}

S2RDEF s2r_result s2r_sim_init(s2r_sim* sim, const s2r_sim_config* config) {
    s2r_result res;
    S2R_ASSERT(sim && config);
    memset(sim, 0, sizeof *sim);
    sim->config = *config;
    if (!(config->max_joint_speed > 0))
        return s2r__fail(sim->error, S2R_ERR_INVALID_ARGUMENT, "max_joint_speed must be > 0 rad/s");
    if (config->robot == S2R_ROBOT_CUSTOM)
        res = config->mjcf_path ? s2r_robot_load_file(&sim->robot, config->mjcf_path)
                                : s2r_robot_load_xml(&sim->robot, config->mjcf_xml);
    else
        res = s2r_robot_load(&sim->robot, config->robot);
    if (res != S2R_OK) return s2r__fail(sim->error, res, "%s", sim->robot.error);
    sim->backend.self = sim;
    sim->backend.name = "sim";
    sim->backend.info = &sim->robot.info;
    sim->backend.error = sim->error;
    sim->backend.reset = s2r__sim_reset;
    sim->backend.command = s2r__sim_command;
    sim->backend.advance = s2r__sim_advance;
    sim->backend.read_sensors = s2r__sim_read_sensors;
    sim->backend.ground_truth = s2r__sim_ground_truth;
    return s2r__sim_reset(sim, NULL, NULL, NULL);
}

S2RDEF void s2r_sim_free(s2r_sim* sim) {
    if (!sim) return;
    s2r_robot_free(&sim->robot);
    memset(sim, 0, sizeof *sim);
}

S2RDEF const s2r_backend* s2r_sim_backend(s2r_sim* sim) { return &sim->backend; }

/* --- Reach task -------------------------------------------------------------- */

S2RDEF s2r_reach_config s2r_reach_config_default(void) {
    s2r_reach_config c;
    c.control_period = 0.04;
    c.episode_steps = 75;
    c.max_delta = 0.05;
    c.success_radius = 0.02;
    c.success_speed = 0.05;
    c.workspace_scale = 1.0;
    c.init_q_noise = 0.05;
    c.bonus = 1.0;
    c.action_cost = 0.01;
    return c;
}

static s2r_result s2r__reach_check_config(const s2r_reach_config* c, char* error) {
    if (!(c->control_period > 0) || !isfinite(c->control_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "control_period must be > 0 s");
    if (c->episode_steps < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "episode_steps must be >= 1");
    if (!(c->max_delta > 0) || !(c->success_radius > 0) || !(c->success_speed > 0))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "max_delta, success_radius and success_speed must be > 0");
    if (!(c->workspace_scale >= 0 && c->workspace_scale <= 1))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "workspace_scale must be in [0, 1]");
    if (!(c->init_q_noise >= 0) || !isfinite(c->bonus) || !isfinite(c->action_cost))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "init_q_noise must be >= 0, bonus and action_cost finite");
    return S2R_OK;
}

S2RDEF s2r_result s2r_reach_init(s2r_reach* reach, const s2r_reach_config* config,
                                 const s2r_backend* backend) {
    s2r_result res;
    S2R_ASSERT(reach && config);
    memset(reach, 0, sizeof *reach);
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
        obs[3 * n + i] = (float)s->target[i];
        obs[3 * n + 3 + i] = (float)flange[i];
        obs[3 * n + 6 + i] = (float)(s->target[i] - flange[i]);
    }
    for (i = 0; i < reach->obs_dim; i++)   /* a blown-up simulation never feeds NaN on */
        if (!isfinite(obs[i])) obs[i] = 0.0f;
}

S2RDEF s2r_result s2r_reach_reset_to(s2r_reach* reach, const double* q0, const double target[3],
                                     s2r_rng* rng, float* obs) {
    const s2r_backend* b = reach->backend;
    s2r_result res = s2r_backend_reset(b, q0, target, rng);
    if (res != S2R_OK) return s2r__fail(reach->error, res, "reset: %s", b->error);
    memcpy(reach->q_cmd, q0 ? q0 : b->info->q_home, (size_t)reach->n_joints * sizeof(double));
    memcpy(reach->target, target, sizeof reach->target);
    memset(reach->prev_action, 0, sizeof reach->prev_action);
    res = s2r_backend_read_sensors(b, &reach->sensors);
    if (res != S2R_OK) return s2r__fail(reach->error, res, "sensors: %s", b->error);
    reach->step = 0;
    reach->episode_open = 1;
    s2r__reach_observe(reach, obs);
    return S2R_OK;
}

S2RDEF s2r_result s2r_reach_reset(s2r_reach* reach, s2r_rng* rng, float* obs) {
    const s2r_arm_info* info = reach->backend->info;
    double q0[S2R_MAX_JOINTS], target[3];
    double noise = reach->config.init_q_noise;
    int j;
    for (j = 0; j < reach->n_joints; j++)
        q0[j] = s2r_clamp(info->q_home[j] + s2r_rng_range(rng, -noise, noise), info->q_min[j], info->q_max[j]);
    s2r_reach_sample_target(&reach->config, info, rng, target);
    return s2r_reach_reset_to(reach, q0, target, rng, obs);
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
                           : (float)(-d / 0.1 + c->bonus * exp(-(d / c->success_radius) * (d / c->success_radius)) - c->action_cost * a2);
    out->success = out->truncated && d < c->success_radius && speed < c->success_speed;
}

S2RDEF s2r_result s2r_reach_step(s2r_reach* reach, const float* action, float* obs,
                                 s2r_step_result* out) {
    const s2r_backend* b = reach->backend;
    const s2r_arm_info* info = b->info;
    float a[S2R_MAX_JOINTS];
    double q_cmd[S2R_MAX_JOINTS];
    s2r_result res;
    int j, n = reach->n_joints;
    if (!reach->episode_open) return s2r__fail(reach->error, S2R_ERR_STATE, "step before reset (or after the episode ended)");
    if (!action || !s2r_all_finite_f(action, n))
        return s2r__fail(reach->error, S2R_ERR_INVALID_ARGUMENT, "action contains NaN or Inf; nothing was done");
    for (j = 0; j < n; j++) {
        a[j] = action[j] < -1.0f ? -1.0f : (action[j] > 1.0f ? 1.0f : action[j]);
        q_cmd[j] = s2r_clamp(reach->q_cmd[j] + a[j] * reach->config.max_delta, info->q_min[j], info->q_max[j]);
    }
    res = s2r_backend_command(b, q_cmd);
    if (res != S2R_OK) return s2r__fail(reach->error, res, "command: %s", b->error);
    memcpy(reach->q_cmd, q_cmd, (size_t)n * sizeof(double));
    memcpy(reach->prev_action, a, (size_t)n * sizeof(float));
    res = s2r_backend_advance(b, reach->config.control_period);
    if (res != S2R_OK && res != S2R_ERR_DIVERGED) return s2r__fail(reach->error, res, "advance: %s", b->error);
    reach->step++;
    s2r_backend_read_sensors(b, &reach->sensors);
    s2r__reach_score(reach, a, res == S2R_ERR_DIVERGED, out);
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
    env.self = reach;
    env.obs_dim = reach->obs_dim;
    env.act_dim = reach->n_joints;
    env.reset = s2r__reach_env_reset;
    env.step = s2r__reach_env_step;
    return env;
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
