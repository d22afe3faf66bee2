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
