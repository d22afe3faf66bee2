/* bench_integrator.c - would Euler, with the servo's velocity gain moved
   into joint damping, be faster than the implicit integrator - and the
   same servo?

   The arms' servos are position actuators with a velocity term:
   force = kp (target - q) - kv qd.  MuJoCo's implicit integrator treats
   the -kv qd term implicitly, which keeps a stiff servo stable at a
   4 ms step.  Euler treats actuator forces explicitly but joint damping
   implicitly, so moving kv from the actuator into the joint's damping
   keeps the same force law under Euler.  For each arm, on the arm-alone
   and the push scenes (the puck resting on the table: contacts), this
   prints:
     - the seconds per mj_step of each (median of interleaved rounds, one
       thread) and their ratio;
     - the largest joint-position difference between the two over a 0.5 s
       step response (every servo target 0.1 rad from rest), in rad.
   The library keeps the implicit integrator; this is the measurement a
   switch would start from.  Seconds on a shared machine move; the ratio
   within one run is the number.  Built and run by `make bench`. */
#include <stdio.h>
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include <string.h>

#define ROUNDS 5
#define STEPS 4000

/* Euler with each actuator's velocity gain moved into its joint's damping. */
static void to_euler(mjModel* m) {
    int a;
    for (a = 0; a < m->nu; a++) {
        int dof = m->jnt_dofadr[m->actuator_trnid[2 * a]];
        m->dof_damping[dof] += -m->actuator_biasprm[a * mjNBIAS + 2];
        m->actuator_biasprm[a * mjNBIAS + 2] = 0;
    }
    m->opt.integrator = mjINT_EULER;
}

/* Seconds per mj_step from the settled state d0. */
static double seconds_per_step(const mjModel* m, const mjData* d0) {
    mjData* d = mj_copyData(NULL, m, d0);
    double t0;
    int i;
    t0 = s2r_seconds();
    for (i = 0; i < STEPS; i++) mj_step(m, d);
    t0 = s2r_seconds() - t0;
    mj_deleteData(d);
    return t0 / STEPS;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Largest |q_implicit - q_euler| over a 0.5 s step of every target. */
static double step_response_difference(const mjModel* mi, const mjModel* me, const mjData* d0) {
    mjData* di = mj_copyData(NULL, mi, d0);
    mjData* de = mj_copyData(NULL, me, d0);
    double worst = 0;
    int a, i, j, steps = (int)(0.5 / mi->opt.timestep);
    for (a = 0; a < mi->nu; a++) di->ctrl[a] = de->ctrl[a] = d0->ctrl[a] + 0.1;
    for (i = 0; i < steps; i++) {
        mj_step(mi, di);
        mj_step(me, de);
        for (j = 0; j < mi->nu; j++) {
            int adr = mi->jnt_qposadr[mi->actuator_trnid[2 * j]];
            worst = fmax(worst, fabs(di->qpos[adr] - de->qpos[adr]));
        }
    }
    mj_deleteData(di);
    mj_deleteData(de);
    return worst;
}

static void bench(s2r_robot_kind kind, s2r_scene scene) {
    s2r_robot r;
    mjModel* euler;
    mjData* settled;
    double t[2][ROUNDS];
    int i, a;
    if (s2r_robot_load_scene(&r, kind, scene) != S2R_OK) { printf("%s\n", r.error); return; }
    euler = mj_copyModel(NULL, r.model);
    to_euler(euler);
    settled = mj_copyData(NULL, r.model, r.data);
    for (a = 0; a < r.model->nu; a++) settled->ctrl[a] = settled->qpos[r.model->jnt_qposadr[r.model->actuator_trnid[2 * a]]];
    for (i = 0; i < 500; i++) mj_step(r.model, settled);   /* the servos holding, the puck at rest */
    for (i = 0; i < ROUNDS; i++) {   /* interleaved, so drift of the machine hits both */
        t[0][i] = seconds_per_step(r.model, settled);
        t[1][i] = seconds_per_step(euler, settled);
    }
    qsort(t[0], ROUNDS, sizeof(double), compare_doubles);
    qsort(t[1], ROUNDS, sizeof(double), compare_doubles);
    printf("  %-5s %-4s  implicit %6.2f us/step  euler+damping %6.2f us/step  speed-up %.2fx  "
           "step response differs by at most %.2e rad\n", s2r_robot_kind_name(kind), scene == S2R_SCENE_PUSH ? "push" : "arm",
           1e6 * t[0][ROUNDS / 2], 1e6 * t[1][ROUNDS / 2], t[0][ROUNDS / 2] / t[1][ROUNDS / 2],
           step_response_difference(r.model, euler, settled));
    mj_deleteData(settled);
    mj_deleteModel(euler);
    s2r_robot_free(&r);
}

int main(void) {
    printf("bench_integrator: implicit against Euler with the velocity gain in joint damping (%d rounds of %d steps)\n",
           ROUNDS, STEPS);
    bench(S2R_ROBOT_UR5E, S2R_SCENE_ARM);
    bench(S2R_ROBOT_UR5E, S2R_SCENE_PUSH);
    bench(S2R_ROBOT_PANDA, S2R_SCENE_ARM);
    bench(S2R_ROBOT_PANDA, S2R_SCENE_PUSH);
    return 0;
}
