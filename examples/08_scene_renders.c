/* 08_scene_renders.c - the robots in their scene, and one episode on film.

   Everything so far was numbers and plots; this example shows the scene
   the numbers come from.  First a still of each arm (UR5e, Panda) at its
   home pose, with a target placed in the box where the reach task draws
   targets: the red sphere is the target, and its 2 cm radius is exactly the
   success radius.  Then a filmstrip of one reach of --robot: the same
   start pose and the same target, once in the nominal simulator (top row)
   and once on a unit of the stand-in real fleet (bottom row): six frames
   over the 2 s episode, each captioned with the time and the true
   flange-to-target distance, then a close-up of the end with the flange
   marked in blue and the target drawn through the hand.  On the real unit
   the controller meets what the simulator never showed it - above all a
   camera that places the target a centimetre or three away from where it
   is - and the blue dot ends beside the target's centre rather than on it.
   With --task push the filmstrip is one push instead: the same tip start,
   puck and goal (the red marker) in both rows, each frame captioned with
   the true puck-to-goal distance, the close-up on the goal.

   The controller is the best policy an earlier example left in --out for
   this arm and task (reach: 03_dr_sysid_unitN.ckpt for the filmed unit
   N = --real-seed, else 02_dr.ckpt; push:
   07_push_pure_sim_seed1.ckpt, else 07_push_dr_seed1.ckpt), and otherwise
   the scripted controller.  It runs without the unit's camera calibration,
   as on a first deployment.

   Rendering is headless: MuJoCo's own renderer drawing into an OSMesa
   (software) context, see examples/s2r_render.h.  It needs the
   library built with -DS2R_RENDER and linked with -lOSMesa (Debian:
   libosmesa6-dev); without them this program says so and exits.

   Uses: s2r_renderer_init, s2r_render_sim, s2r_render_real,
         s2r_render_set_target, s2r_render_arm_camera, s2r_filmstrip_*,
         s2r_task_init, s2r_reach_reset_to, s2r_push_reset_to, s2r_expert_*,
         s2r_upstream_policy.
   Writes: DIR/08_scene_ur5e.png, DIR/08_scene_panda.png,
           DIR/08_filmstrip_<robot>.png (push: 08_push_filmstrip_<robot>.png).
   Next: README.md - the table, and where to go from here. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include "s2r_render.h"
#include <stdio.h>
#include <string.h>

#ifndef S2R_RENDER

int main(void) {
    printf("08_scene_renders: this build has no rendering.\n"
           "Rendering needs the OSMesa library (Debian: apt-get install libosmesa6-dev)\n"
           "and the program compiled with -DS2R_RENDER and linked with -lOSMesa, e.g.\n"
           "  cc -std=c99 -O2 -DS2R_RENDER -I. -I/usr/include/stb examples/08_scene_renders.c \\\n"
           "     -o build/08_scene_renders -lmujoco -lOSMesa -lm\n"
           "(make builds it that way when libosmesa6-dev is installed).\n");
    return 0;
}

#else

#define FRAMES 6   /* filmstrip frames over one episode */

/* The arm's name as a caption says it. */
static const char* display_name(s2r_robot_kind kind) {
    return kind == S2R_ROBOT_UR5E ? "UR5e" : kind == S2R_ROBOT_PANDA ? "Franka Panda" : "custom arm";
}

/* Image sizes, px: a still, and each frame of the filmstrip. */
typedef struct sizes { int still_w, still_h, frame_w, frame_h; } sizes;

/* The controller of the filmstrip: a trained policy, or the scripted expert. */
typedef struct film_controller {
    int        has_policy;
    s2r_policy policy;
    char       name[40];   /* for the title: "policy 02_dr.ckpt" or "scripted expert" */
} film_controller;

/* --- Stills ----------------------------------------------------------------- */

/* One arm at home in the nominal simulator, a target in the middle of its
   target box, the box drawn; written to DIR/08_scene_<arm>.png. */
static s2r_result render_still(s2r_robot_kind kind, const s2r_options* opt, const sizes* px) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(kind);
    s2r_renderer renderer;
    s2r_filmstrip still;
    const s2r_arm_info* info;
    unsigned char* rgb = NULL;
    double target[3];
    char title[96], path[512];
    s2r_result res;
    int k;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { fprintf(stderr, "%s\n", sim.error); return res; }
    info = &sim.robot.info;
    for (k = 0; k < 3; k++) target[k] = 0.5 * (info->workspace_lo[k] + info->workspace_hi[k]);
    s2r_render_set_target(&sim.robot, target);
    if ((res = s2r_renderer_init(&renderer, sim.robot.model, px->still_w, px->still_h)) != S2R_OK) {
        fprintf(stderr, "%s\n", renderer.error);
        s2r_sim_free(&sim);
        return res;
    }
    renderer.extras |= S2R_RENDER_WORKSPACE;
    rgb = (unsigned char*)malloc((size_t)px->still_w * (size_t)px->still_h * 3);
    res = rgb ? s2r_render_sim(&renderer, &sim, NULL, rgb) : S2R_ERR_OUT_OF_MEMORY;
    if (res == S2R_OK) res = s2r_filmstrip_init(&still, 1, 1, px->still_w, px->still_h);
    if (res == S2R_OK) {
        snprintf(title, sizeof title, "%s (%d joints) at home in its scene", display_name(kind), info->n_joints);
        s2r_filmstrip_title(&still, title);
        s2r_filmstrip_frame(&still, 0, 0, rgb, "red sphere: target (radius 2 cm = success radius)\n"
                            "blue box: where targets are drawn; grid 25 cm");
        res = s2r_filmstrip_write_png(&still, s2r_path(path, sizeof path, opt->out, kind == S2R_ROBOT_UR5E ?
                                                       "08_scene_ur5e.png" : "08_scene_panda.png"));
        if (res != S2R_OK) fprintf(stderr, "%s\n", still.error);
        else printf("  wrote %s\n", path);
        s2r_filmstrip_free(&still);
    } else {
        fprintf(stderr, "%s\n", rgb ? renderer.error : "out of memory");
    }
    free(rgb);
    s2r_renderer_free(&renderer);
    s2r_sim_free(&sim);
    return res;
}

/* --- The controller ---------------------------------------------------------- */

/* The best checkpoint in DIR for this arm and task, else (none there) the
   scripted controller; one that is there but unusable is an error. */
static s2r_result choose_controller(const s2r_options* opt, film_controller* c) {
    char files[S2R_TASK_COUNT][2][64] = {{"", "02_dr.ckpt"}, {"07_push_pure_sim_seed1.ckpt", "07_push_dr_seed1.ckpt"}};
    int i;
    snprintf(files[S2R_TASK_REACH][0], sizeof files[0][0], "03_dr_sysid_unit%llu.ckpt", (unsigned long long)opt->real_seed);
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, opt->task == S2R_TASK_PUSH ? "scripted pusher" : "scripted expert");
    for (i = 0; i < 2 && !c->has_policy; i++) {
        char path[512], error[S2R_ERROR_LEN];
        s2r_result res;
        if (!s2r_file_exists(s2r_path(path, sizeof path, opt->out, files[opt->task][i]))) continue;
        if ((res = s2r_upstream_policy(&c->policy, path, opt, 0, NULL, error)) != S2R_OK) {   /* this arm's and task's */
            fprintf(stderr, "%s\n", error);
            return res;
        }
        c->has_policy = 1;
        snprintf(c->name, sizeof c->name, "policy %s", files[opt->task][i]);
    }
    printf("  controller: %s%s\n", c->name, c->has_policy ? "" : " (no trained policy in --out)");
    return S2R_OK;
}

/* --- The filmstrip ------------------------------------------------------------ */

/* The filmed episode's layout, from --seed: reach, the start pose (rad)
   and the target (m); push, the tip's start, the puck and the goal (m,
   world x y; target = the goal on the table). */
typedef struct layout {
    double q0[S2R_MAX_JOINTS], target[3];
    double tip[2], object[2], goal[2];
} layout;

static void draw_task(const s2r_arm_info* info, const s2r_task_config* tc, uint64_t seed, layout* l) {
    s2r_rng rng = s2r_rng_make(seed, 8);
    int j;
    if (tc->kind == S2R_TASK_PUSH) {
        s2r_push_sample(&tc->push, info, &rng, l->tip, l->object, l->goal);
        l->target[0] = l->goal[0];
        l->target[1] = l->goal[1];
        l->target[2] = info->table_height;
        return;
    }
    for (j = 0; j < info->n_joints; j++)
        l->q0[j] = info->q_home[j] + s2r_rng_range(&rng, -tc->reach.init_q_noise, tc->reach.init_q_noise);
    s2r_reach_sample_target(&tc->reach, info, &rng, l->target);
}

/* A camera on the episode: looking side-on at the arm's base (the origin),
   where the motion starts (the flange, or the puck; m) and the target (m).
   close: on the target only, where a centimetre shows. */
static mjvCamera task_camera(const s2r_arm_info* info, const double flange[3],
                             const double target[3], int close) {
    mjvCamera cam = s2r_render_arm_camera(info);
    double span = 0;
    int k;
    for (k = 0; k < 3; k++) {
        cam.lookat[k] = close ? target[k] : 0.5 * (flange[k] + target[k]) * (k < 2 ? 0.7 : 1.0);
        span += (flange[k] - target[k]) * (flange[k] - target[k]);
    }
    cam.distance = close ? 0.45 : 1.0 + 1.5 * sqrt(span);
    cam.azimuth = atan2(target[1], target[0]) * 180 / 3.141592653589793 + 100;
    cam.elevation = close ? -20 : -32;
    return cam;
}

/* Everything one filmed episode needs. */
typedef struct film {
    film_controller* controller;
    s2r_task_config  task;            /* which task, its settings               */
    s2r_renderer     renderer;
    s2r_filmstrip    strip;           /* 2 rows x (FRAMES + 1 close-up)         */
    unsigned char*   rgb;             /* [frame_h][frame_w][3] one frame        */
    mjvCamera        wide, close;     /* the whole episode; the target up close */
    layout           layout;          /* the same start in both rows            */
    uint64_t         seed;
} film;

/* Render the robot (sim, or the real unit when real != NULL) from `camera`
   into cell (row, col) with its time and the true distance the task
   measures: flange to target, or (push) puck to goal. */
static s2r_result film_frame(film* f, s2r_sim* sim, s2r_real_robot* real, const s2r_backend* backend,
                             const mjvCamera* camera, int row, int col, double time,
                             const s2r_step_result* last) {
    s2r_ground_truth gt;
    char caption[96];
    double d = 0;
    int k;
    s2r_result res = real ? s2r_render_real(&f->renderer, real, camera, f->rgb)
                          : s2r_render_sim(&f->renderer, sim, camera, f->rgb);
    if (res != S2R_OK) return res;
    s2r_backend_ground_truth(backend, &gt);
    for (k = 0; k < (f->task.kind == S2R_TASK_PUSH ? 2 : 3); k++) {
        double e = (f->task.kind == S2R_TASK_PUSH ? gt.object[k] : gt.flange[k]) - gt.target[k];
        d += e * e;
    }
    if (camera == &f->close)
        snprintf(caption, sizeof caption, "close-up at %.2f s\n%s", time,
                 f->task.kind == S2R_TASK_PUSH ? "red: the goal marker" : "blue: the flange");
    else if (last && last->done)
        snprintf(caption, sizeof caption, "t = %.2f s: %.0f mm, %s", time, 1000 * sqrt(d),
                 last->success ? "success" : "miss");
    else
        snprintf(caption, sizeof caption, "t = %.2f s: %.0f mm", time, 1000 * sqrt(d));
    return s2r_filmstrip_frame(&f->strip, row, col, f->rgb, caption);
}

/* One episode on `backend`, filmed into row `row`: FRAMES frames evenly over
   the episode, then a close-up of the end. */
static s2r_result film_episode(film* f, const s2r_backend* backend, s2r_sim* sim,
                               s2r_real_robot* real, int row) {
    s2r_task task;
    s2r_expert expert;
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_controller ctl;
    s2r_rng rng = s2r_rng_make(f->seed, 100 + (uint64_t)row);
    s2r_step_result out;
    const layout* l = &f->layout;
    int push = f->task.kind == S2R_TASK_PUSH;
    double period = push ? f->task.push.control_period : f->task.reach.control_period;
    float obs[S2R_REACH_MAX_OBS > S2R_PUSH_OBS ? S2R_REACH_MAX_OBS : S2R_PUSH_OBS], act[S2R_MAX_JOINTS];
    int step, frame = 0, every, policy = f->controller->has_policy;
    s2r_result res = s2r_task_init(&task, &f->task, backend);
    if (res != S2R_OK) { fprintf(stderr, "%s\n", task.error); return res; }
    every = task.episode_steps / (FRAMES - 1);
    if (!policy && (res = s2r_expert_init(&expert, &ec, &f->task, backend->info)) != S2R_OK) {
        fprintf(stderr, "%s\n", expert.error);
        s2r_task_free(&task);
        return res;
    }
    ctl = policy ? s2r_policy_controller(&f->controller->policy) : s2r_expert_controller(&expert);
    memset(&out, 0, sizeof out);
    res = push ? s2r_push_reset_to(&task.push, l->tip, l->object, l->goal, &rng, obs)
               : s2r_reach_reset_to(&task.reach, l->q0, l->target, &rng, obs);
    if (ctl.reset) ctl.reset(ctl.self);
    for (step = 0; res == S2R_OK; step++) {
        if (step % every == 0 || out.done)
            res = film_frame(f, sim, real, backend, &f->wide, row, frame++, step * period, step ? &out : NULL);
        if (res != S2R_OK || out.done || frame == FRAMES) break;
        if ((res = ctl.act(ctl.self, obs, act)) == S2R_OK) res = task.env.step(task.env.self, act, obs, &out);
    }
    if (res == S2R_OK) {   /* the end up close, the target seen through the arm */
        if (!push) f->renderer.extras |= S2R_RENDER_FLANGE;
        res = film_frame(f, sim, real, backend, &f->close, row, FRAMES, step * period, &out);
        f->renderer.extras &= ~(unsigned)S2R_RENDER_FLANGE;
    }
    if (res != S2R_OK) fprintf(stderr, "filming %s failed: %s\n", backend->name, s2r_result_string(res));
    else printf("  %-16s final distance %5.1f mm  %s\n", backend->name, 1000 * out.distance,
                out.success ? "success" : "miss");
    if (!policy) s2r_expert_free(&expert);
    s2r_task_free(&task);
    return res;
}

/* Renderer, strip, cameras and task of the film; the strip's texts. */
static s2r_result film_init(film* f, film_controller* c, s2r_sim* sim, const s2r_real_robot* real,
                            const s2r_options* opt, const sizes* px) {
    const s2r_arm_info* info = &sim->robot.info;
    double start[3];   /* m, where the motion starts: the flange, or the puck */
    char title[S2R_PLOT_TEXT_LEN], label[S2R_PLOT_TEXT_LEN];
    s2r_result res;
    memset(f, 0, sizeof *f);
    f->controller = c;
    f->seed = opt->seed;
    f->task = s2r_task_config_default(opt->task);
    draw_task(info, &f->task, opt->seed, &f->layout);
    if (opt->task == S2R_TASK_PUSH) {
        start[0] = f->layout.object[0];
        start[1] = f->layout.object[1];
        start[2] = info->table_height;
    } else {
        s2r_flange_fk(sim->robot.model, sim->robot.data, sim->robot.flange_site, f->layout.q0, info->n_joints, start);
    }
    f->wide = task_camera(info, start, f->layout.target, 0);
    f->close = task_camera(info, start, f->layout.target, 1);
    f->rgb = (unsigned char*)malloc((size_t)px->frame_w * (size_t)px->frame_h * 3);
    if (!f->rgb) { fprintf(stderr, "out of memory\n"); return S2R_ERR_OUT_OF_MEMORY; }
    if ((res = s2r_renderer_init(&f->renderer, sim->robot.model, px->frame_w, px->frame_h)) != S2R_OK) {
        fprintf(stderr, "%s\n", f->renderer.error);
        return res;
    }
    f->renderer.extras |= S2R_RENDER_XRAY;   /* the target shows through the arm */
    if (opt->task == S2R_TASK_PUSH) f->renderer.extras &= ~(unsigned)S2R_RENDER_FLOOR_GRID;   /* the grid is at z = 0: on the table */
    if ((res = s2r_filmstrip_init(&f->strip, 2, FRAMES + 1, px->frame_w, px->frame_h)) != S2R_OK) {
        fprintf(stderr, "%s\n", f->strip.error);
        return res;
    }
    if (px->frame_w < 320) f->strip.font_scale = 1;   /* small frames: small captions */
    if (opt->task == S2R_TASK_PUSH)
        snprintf(title, sizeof title, "One %s push, same start, puck and goal (%s)", display_name(opt->robot), c->name);
    else
        snprintf(title, sizeof title, "One %s reach, same start and target (%s)", display_name(opt->robot), c->name);
    s2r_filmstrip_title(&f->strip, title);
    s2r_filmstrip_row_label(&f->strip, 0, "nominal simulation");
    snprintf(label, sizeof label, "%s (stand-in real robot)", real->backend.name);
    s2r_filmstrip_row_label(&f->strip, 1, label);
    return S2R_OK;
}

static void film_free(film* f) {
    s2r_filmstrip_free(&f->strip);
    s2r_renderer_free(&f->renderer);
    free(f->rgb);
}

/* The same episode in the nominal simulator (top row) and on real unit
   --real-seed (bottom row); written to DIR/08_filmstrip_<robot>.png
   (push: 08_push_filmstrip_<robot>.png). */
static s2r_result film_task(const s2r_options* opt, film_controller* c, const sizes* px) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(opt->task, opt->robot);
    s2r_real_robot real;
    film f;
    char path[512], file[64];
    s2r_result res;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { fprintf(stderr, "%s\n", sim.error); return res; }
    if ((res = s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), opt->real_seed)) != S2R_OK) {
        fprintf(stderr, "%s\n", real.error);
        s2r_sim_free(&sim);
        return res;
    }
    sim.backend.name = "simulation";
    res = film_init(&f, c, &sim, &real, opt, px);
    if (res == S2R_OK) res = film_episode(&f, &sim.backend, &sim, NULL, 0);
    if (res == S2R_OK) res = film_episode(&f, &real.backend, NULL, &real, 1);
    snprintf(file, sizeof file, "08_%sfilmstrip_%s.png", opt->task == S2R_TASK_PUSH ? "push_" : "",
             s2r_robot_kind_name(opt->robot));
    if (res == S2R_OK) {
        res = s2r_filmstrip_write_png(&f.strip, s2r_path(path, sizeof path, opt->out, file));
        if (res == S2R_OK) printf("  wrote %s\n", path);
        else fprintf(stderr, "%s\n", f.strip.error);
    }
    film_free(&f);
    s2r_real_robot_free(&real);
    s2r_sim_free(&sim);
    return res;
}

int main(int argc, char** argv) {
    const s2r_robot_kind arms[2] = {S2R_ROBOT_UR5E, S2R_ROBOT_PANDA};
    s2r_options opt;
    int status;
    film_controller controller;
    sizes px = {960, 720, 360, 270};
    double start = s2r_seconds();
    int k;

    if (s2r_example_start(&opt, argc, argv, "stills of both arms and a filmstrip of one reach or push",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_OUT | S2R_OPT_QUICK, &status) != S2R_OK)
        return status;
    if (opt.quick) { px.still_w = 480; px.still_h = 360; px.frame_w = 200; px.frame_h = 150; }
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */

    if (choose_controller(&opt, &controller) != S2R_OK) return 1;   /* checked before anything is written */
    printf("Stills: each arm at home, a target in its target box\n");
    for (k = 0; k < 2; k++)
        if (render_still(arms[k], &opt, &px) != S2R_OK) {
            if (controller.has_policy) s2r_policy_free(&controller.policy);
            return 1;
        }

    if (s2r_example_stopped()) {
        if (controller.has_policy) s2r_policy_free(&controller.policy);
        return 130;
    }
    printf("Filmstrip: one %s %s in simulation and on real unit %llu\n", s2r_robot_kind_name(opt.robot),
           s2r_task_kind_name(opt.task), (unsigned long long)opt.real_seed);
    k = film_task(&opt, &controller, &px) == S2R_OK;
    if (controller.has_policy) s2r_policy_free(&controller.policy);
    if (!k) return 1;

    printf("Done in %.1f s.  Compare the rows' last frames and close-ups: the difference is the gap.\n",
           s2r_seconds() - start);
    return 0;
}

#endif /* S2R_RENDER */
