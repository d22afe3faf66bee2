/* tests/test_render.c - tests of the Rendering section (a runner of its own).

   Rendering needs OSMesa, so these tests are not in tests/test_main.c: the
   Makefile builds this runner with -DS2R_RENDER -lOSMesa when
   libosmesa6-dev is installed.  Built without S2R_RENDER it says so and
   reports "0 passed, 0 failed".  Output as in test_main: one line per test,
   then "N passed, N failed"; exit status 1 on any failure.  Files go to
   S2R_TEST_TMP (default /tmp).

   "Not blank" is measured as the variance of the pixels' luminance
   (0.299 R + 0.587 G + 0.114 B, grey levels^2).  A frame in which nothing
   was drawn is one colour (variance 0) or, after the renderer lays its sky
   behind the scene, the sky gradient alone: that frame is rendered here
   too (it measures about 240).  A frame of an arm with its shadows on the
   floor measures about 1200 (Panda) to 1800 (UR5e).  BLANK_VARIANCE = 500,
   a standard deviation of 22 grey levels, sits between the two, a factor
   of two or more from each. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../examples/s2r_figures.h"
#include "../examples/s2r_render.h"
#include <stdlib.h>
#include <string.h>
#include "test.h"

#ifndef S2R_RENDER

int main(void) {
    printf("rendering not built: compile with -DS2R_RENDER and link -lOSMesa (libosmesa6-dev)\n"
           "0 passed, 0 failed\n");
    return 0;
}

#else

#include "stb_image_decoder.h"   /* to read the PNGs back */

#define W 160                  /* px, test frames: small, quick to render */
#define H 120
#define BLANK_VARIANCE 500.0   /* grey levels^2; see the opening comment  */

static unsigned char frame_a[H][W][3], frame_b[H][W][3];

/* Variance of the luminance of a [H][W][3] frame, grey levels^2. */
static double luminance_variance(unsigned char img[H][W][3]) {
    double sum = 0, sum2 = 0;
    int x, y;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            double l = 0.299 * img[y][x][0] + 0.587 * img[y][x][1] + 0.114 * img[y][x][2];
            sum += l;
            sum2 += l * l;
        }
    sum /= W * H;
    return sum2 / (W * H) - sum * sum;
}

/* Pixels whose channels differ by more than 30 grey levels somewhere. */
static int pixels_differing(unsigned char a[H][W][3], unsigned char b[H][W][3]) {
    int x, y, k, n = 0;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            int differs = 0;
            for (k = 0; k < 3; k++) differs |= abs(a[y][x][k] - b[y][x][k]) > 30;
            n += differs;
        }
    return n;
}

/* Pixels that are clearly the red target: red high, green and blue low. */
static int red_pixels(unsigned char img[H][W][3]) {
    int x, y, n = 0;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            n += img[y][x][0] > 150 && img[y][x][1] < 90 && img[y][x][2] < 90;
    return n;
}

/* Load an arm with its target in the middle of its target box. */
static int load_arm(s2r_robot* robot, s2r_robot_kind kind) {
    double target[3];
    int k;
    if (s2r_robot_load(robot, kind) != S2R_OK) { printf("    %s\n", robot->error); return 1; }
    for (k = 0; k < 3; k++)
        target[k] = 0.5 * (robot->info.workspace_lo[k] + robot->info.workspace_hi[k]);
    return s2r_render_set_target(robot, target) != S2R_OK;
}

static int check_arm_frame(s2r_robot_kind kind) {
    s2r_robot robot;
    s2r_renderer r;
    double v;
    int red;
    CHECK(load_arm(&robot, kind) == 0);
    CHECKF(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK, "%s", r.error);
    CHECKF(s2r_render_robot(&r, &robot, NULL, &frame_a[0][0][0]) == S2R_OK, "%s", r.error);
    v = luminance_variance(frame_a);
    red = red_pixels(frame_a);
    s2r_renderer_free(&r);
    s2r_robot_free(&robot);
    CHECKF(v > BLANK_VARIANCE, "luminance variance %.0f <= %.0f: blank frame", v, BLANK_VARIANCE);
    CHECKF(red >= 4, "only %d red pixels: the target is not visible", red);
    return 0;
}

static int test_frame_ur5e(void) { return check_arm_frame(S2R_ROBOT_UR5E); }
static int test_frame_panda(void) { return check_arm_frame(S2R_ROBOT_PANDA); }

/* The threshold is meaningful: a frame of sky alone stays below it. */
static int test_sky_is_blank(void) {
    s2r_robot robot;
    s2r_renderer r;
    mjvCamera up;
    double v;
    CHECK(load_arm(&robot, S2R_ROBOT_UR5E) == 0);
    CHECKF(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK, "%s", r.error);
    up = s2r_render_arm_camera(&robot.info);
    up.lookat[0] = 0; up.lookat[1] = 0; up.lookat[2] = 20;   /* far above, looking up */
    up.elevation = 80;
    up.distance = 1;
    CHECKF(s2r_render_robot(&r, &robot, &up, &frame_a[0][0][0]) == S2R_OK, "%s", r.error);
    v = luminance_variance(frame_a);
    s2r_renderer_free(&r);
    s2r_robot_free(&robot);
    CHECKF(v < BLANK_VARIANCE, "sky-only variance %.0f is not below the blank threshold %.0f",
           v, BLANK_VARIANCE);
    return 0;
}

/* A real unit renders too (the renderer made for the nominal model). */
static int test_frame_real_unit(void) {
    s2r_robot robot;
    s2r_real_robot real;
    s2r_renderer r;
    s2r_rng rng = s2r_rng_make(3, 0);
    double target[3] = {-0.1, 0.45, 0.35}, v;
    CHECK(s2r_robot_load(&robot, S2R_ROBOT_UR5E) == S2R_OK);
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 2) == S2R_OK);
    CHECK(s2r_backend_reset(&real.backend, NULL, target, &rng) == S2R_OK);
    CHECKF(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK, "%s", r.error);
    CHECKF(s2r_render_real(&r, &real, NULL, &frame_a[0][0][0]) == S2R_OK, "%s", r.error);
    v = luminance_variance(frame_a);
    s2r_renderer_free(&r);
    s2r_real_robot_free(&real);
    s2r_robot_free(&robot);
    CHECKF(v > BLANK_VARIANCE, "luminance variance %.0f <= %.0f", v, BLANK_VARIANCE);
    return 0;
}

/* Different joint angles, different images; the same, the same bytes. */
static int test_poses_differ(void) {
    s2r_robot robot;
    s2r_renderer r;
    double q[S2R_MAX_JOINTS];
    int changed, same;
    CHECK(load_arm(&robot, S2R_ROBOT_UR5E) == 0);
    CHECKF(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK, "%s", r.error);
    CHECK(s2r_render_robot(&r, &robot, NULL, &frame_a[0][0][0]) == S2R_OK);
    CHECK(s2r_render_robot(&r, &robot, NULL, &frame_b[0][0][0]) == S2R_OK);
    same = memcmp(frame_a, frame_b, sizeof frame_a) == 0;
    memcpy(q, robot.info.q_home, sizeof q);
    q[0] += 0.8;    /* shoulder pan, rad */
    q[1] += 0.4;    /* shoulder lift     */
    CHECK(s2r_robot_reset(&robot, q) == S2R_OK);
    CHECK(s2r_render_robot(&r, &robot, NULL, &frame_b[0][0][0]) == S2R_OK);
    changed = pixels_differing(frame_a, frame_b);
    s2r_renderer_free(&r);
    s2r_robot_free(&robot);
    CHECK(same);
    CHECKF(changed > W * H / 100, "only %d of %d pixels changed", changed, W * H);
    return 0;
}

/* Bad sizes, NULLs, a model of another shape, use after free: error codes
   with a message, never a crash. */
static int test_bad_input(void) {
    static const int sizes[5][2] = {{0, 100}, {100, 0}, {-5, 100}, {S2R_RENDER_MAX_SIZE + 1, 100},
                                    {100, S2R_RENDER_MAX_SIZE + 1}};
    s2r_robot ur5e, panda;
    s2r_renderer r;
    s2r_filmstrip f;
    int i;
    CHECK(s2r_robot_load(&ur5e, S2R_ROBOT_UR5E) == S2R_OK);
    CHECK(s2r_robot_load(&panda, S2R_ROBOT_PANDA) == S2R_OK);
    for (i = 0; i < 5; i++) {
        CHECKF(s2r_renderer_init(&r, ur5e.model, sizes[i][0], sizes[i][1]) == S2R_ERR_INVALID_ARGUMENT,
               "size %d x %d accepted", sizes[i][0], sizes[i][1]);
        CHECK(r.error[0] != '\0');
        s2r_renderer_free(&r);
    }
    CHECK(s2r_renderer_init(&r, NULL, W, H) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_renderer_init(&r, ur5e.model, W, H) == S2R_OK);
    CHECK(s2r_render_robot(&r, &panda, NULL, &frame_a[0][0][0]) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(strstr(r.error, "differs") != NULL);
    CHECK(s2r_render(&r, ur5e.model, ur5e.data, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT);
    s2r_renderer_free(&r);
    CHECK(s2r_render(&r, ur5e.model, ur5e.data, NULL, &frame_a[0][0][0]) == S2R_ERR_STATE);
    CHECK(s2r_filmstrip_init(&f, 0, 3, W, H) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_filmstrip_init(&f, 1, 1, 0, H) == S2R_ERR_INVALID_ARGUMENT);
    s2r_filmstrip_free(&f);
    CHECK(s2r_filmstrip_init(&f, 1, 2, W, H) == S2R_OK);
    CHECK(s2r_filmstrip_frame(&f, 0, 2, &frame_a[0][0][0], NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_filmstrip_row_label(&f, 1, "x") == S2R_ERR_INVALID_ARGUMENT);
    s2r_filmstrip_free(&f);
    s2r_robot_free(&ur5e);
    s2r_robot_free(&panda);
    return 0;
}

/* init / render / free twice in a row gives the same image; freeing twice
   is safe; two renderers can live side by side. */
static int test_init_free_twice(void) {
    s2r_robot robot;
    s2r_renderer r, other;
    int k;
    CHECK(load_arm(&robot, S2R_ROBOT_PANDA) == 0);
    for (k = 0; k < 2; k++) {
        CHECKF(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK, "%s", r.error);
        CHECK(s2r_render_robot(&r, &robot, NULL, k ? &frame_b[0][0][0] : &frame_a[0][0][0]) == S2R_OK);
        s2r_renderer_free(&r);
        s2r_renderer_free(&r);
    }
    CHECK(memcmp(frame_a, frame_b, sizeof frame_a) == 0);
    CHECK(s2r_renderer_init(&r, robot.model, W, H) == S2R_OK);
    CHECK(s2r_renderer_init(&other, robot.model, W / 2, H / 2) == S2R_OK);
    CHECK(s2r_render_robot(&other, &robot, NULL, &frame_b[0][0][0]) == S2R_OK);
    CHECK(s2r_render_robot(&r, &robot, NULL, &frame_b[0][0][0]) == S2R_OK);
    s2r_renderer_free(&other);
    s2r_renderer_free(&r);
    s2r_robot_free(&robot);
    CHECK(memcmp(frame_a, frame_b, sizeof frame_a) == 0);
    return 0;
}

/* Rendering reads the simulation and changes nothing in it. */
static int test_render_changes_nothing(void) {
    s2r_sim a, b;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_renderer r;
    double cmd[S2R_MAX_JOINTS];
    int step, j, n;
    CHECK(s2r_sim_init(&a, &sc) == S2R_OK);
    CHECK(s2r_sim_init(&b, &sc) == S2R_OK);
    CHECK(s2r_renderer_init(&r, a.robot.model, W, H) == S2R_OK);
    n = a.robot.info.n_joints;
    for (j = 0; j < n; j++) cmd[j] = a.robot.info.q_home[j] + 0.2;
    s2r_backend_command(&a.backend, cmd);
    s2r_backend_command(&b.backend, cmd);
    for (step = 0; step < 20; step++) {
        CHECK(s2r_render_sim(&r, &a, NULL, &frame_a[0][0][0]) == S2R_OK);
        s2r_backend_advance(&a.backend, 0.01);
        s2r_backend_advance(&b.backend, 0.01);
    }
    for (j = 0; j < a.robot.model->nq; j++) CHECK(a.robot.data->qpos[j] == b.robot.data->qpos[j]);
    for (j = 0; j < 3 * a.robot.model->nsite; j++)
        CHECK(a.robot.data->site_xpos[j] == b.robot.data->site_xpos[j]);
    s2r_renderer_free(&r);
    s2r_sim_free(&a);
    s2r_sim_free(&b);
    return 0;
}

/* A filmstrip PNG decodes to the composed size, with each frame where the
   layout put it. */
static int test_filmstrip_png(void) {
    s2r_filmstrip f;
    const char* dir = getenv("S2R_TEST_TMP") ? getenv("S2R_TEST_TMP") : "/tmp";
    char path[512];
    unsigned char* png;
    int w, h, c, x, y, found = 0;
    snprintf(path, sizeof path, "%s/s2r_test_filmstrip.png", dir);
    memset(frame_a, 0, sizeof frame_a);              /* a black frame ... */
    CHECK(s2r_filmstrip_init(&f, 2, 3, W, H) == S2R_OK);
    CHECK(s2r_filmstrip_title(&f, "title") == S2R_OK);
    CHECK(s2r_filmstrip_row_label(&f, 1, "second row") == S2R_OK);
    CHECK(s2r_filmstrip_frame(&f, 1, 2, &frame_a[0][0][0], "t = 1.00 s\n5 mm") == S2R_OK);
    CHECKF(s2r_filmstrip_write_png(&f, path) == S2R_OK, "%s", f.error);
    png = stbi_load(path, &w, &h, &c, 3);
    CHECK(png != NULL);
    CHECK(w == f.width && h == f.height && w > 3 * W && h > 2 * H);
    for (y = h / 2; y < h && !found; y++)            /* ... lands lower right */
        for (x = w / 2; x < w && !found; x++)
            found = png[(y * w + x) * 3] == 0 && png[(y * w + x + W - 1) * 3 + 1] == 0 &&
                    png[((y + H - 1) * w + x) * 3 + 2] == 0;
    stbi_image_free(png);
    CHECK(s2r_filmstrip_write_png(&f, "/nonexistent-dir/x.png") == S2R_ERR_IO);
    s2r_filmstrip_free(&f);
    remove(path);
    CHECK(found);
    return 0;
}

static const test_case render_tests[] = {
    {"render: a UR5e frame is not blank and shows the target", test_frame_ur5e},
    {"render: a Panda frame is not blank and shows the target", test_frame_panda},
    {"render: a frame of sky alone stays under the blank threshold", test_sky_is_blank},
    {"render: a real unit renders with the nominal model's renderer", test_frame_real_unit},
    {"render: different joint angles give different images, equal ones equal", test_poses_differ},
    {"render: bad sizes, NULLs, another model, use after free are errors", test_bad_input},
    {"render: init and free twice in a row; two renderers at once", test_init_free_twice},
    {"render: rendering changes nothing in the simulation", test_render_changes_nothing},
    {"render: a filmstrip PNG has the composed size and its frames", test_filmstrip_png},
};

int main(int argc, char** argv) {
    int passed = 0, failed = 0;
    test_run(render_tests, (int)(sizeof render_tests / sizeof render_tests[0]), argc > 1 ? argv[1] : NULL,
             &passed, &failed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif /* S2R_RENDER */
