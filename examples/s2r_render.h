/* s2r_render.h - headless scene images and filmstrips with OSMesa and
                  MuJoCo's renderer for sim2real.h's examples (a companion
                  header)

   Stills of an arm in its scene and filmstrips of an episode in
   simulation and on a real unit (examples/08_scene_renders.c).  The
   renders are compiled only with S2R_RENDER defined (they need OSMesa:
   Debian's libosmesa6-dev, link -lOSMesa); without it this header
   declares nothing, so a program can say how to enable rendering.

   Including it.  After sim2real.h and s2r_figures.h (the captions and
   the PNG writer are the figures'), in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "s2r_figures.h"
       #include "s2r_render.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.

   Configuration (before including it):
     S2R_RENDER              compile the renders; link -lOSMesa
     S2R_RENDER_SAMPLES      multisamples per px (4)
     S2R_RENDER_SHADOW_SIZE  px, side of the shadow map (2048)
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before s2r_render.h"
#endif
#ifndef S2R_FIGURES_H
#error "include s2r_figures.h before s2r_render.h (the renders' captions and PNGs are the figures')"
#endif
#ifndef S2R_RENDER_H
#define S2R_RENDER_H

#ifdef S2R_RENDER

/* ==========================================================================
   Rendering: headless scene images with OSMesa and MuJoCo's renderer
   ==========================================================================
   Pictures of the arm in its scene - a still, or a filmstrip of one reach in
   simulation and on a real unit (examples/08_scene_renders.c) - drawn by
   MuJoCo's own OpenGL renderer into an OSMesa context (software rendering:
   no display, no GPU), read back as RGB bytes and put together into PNGs
   with the text and the PNG writer of the Figures.

   Building.  Define S2R_RENDER before including this file, in every
   translation unit that includes it, and link with -lOSMesa (Debian:
   libosmesa6-dev; glibc before 2.34 also needs -ldl):
       cc -DS2R_RENDER ... prog.c -lmujoco -lOSMesa -lm
   Do not link -lEGL into the same program (see "OpenGL loading" below).

       static unsigned char rgb[480][640][3];             // [h][w][3], top row first
       s2r_renderer r;
       if (s2r_renderer_init(&r, sim.robot.model, 640, 480) != S2R_OK) { ... r.error ... }
       s2r_render_sim(&r, &sim, NULL, &rgb[0][0][0]);      // NULL: a view framing the arm
       s2r_renderer_free(&r);

   What is drawn.  The model's geoms and sites, lit by the model's lights
   and a soft head light, with shadows and 4x multisampling, in front of a
   pale sky.  The target (the mocap body "target", a 2 cm sphere: the size
   of the success radius) is drawn opaque red.  On top, chosen by the bits
   of r.extras: a drop line and a disc under the target, a 25 cm floor grid
   (both on after init), the edges of the box targets are drawn in, a dot
   on the flange with a line to the target (the error the task measures),
   and an x-ray pass that draws the target and those marks through
   whatever hides them.  The view is an mjvCamera (MuJoCo's free camera:
   lookat, distance, azimuth, elevation); s2r_render_arm_camera frames an
   arm.  Rendering only reads the simulation: the pose is copied into the
   renderer's own mjData, so a rendered episode is bit-identical to an
   unrendered one.

   The real robot.  s2r_render_real shows a unit's true pose, as a camera in
   the robot cell would; it reads no hidden parameter.

   OpenGL loading (MuJoCo 2.2.2 as packaged by Debian).  libmujoco.so links
   no GL library: at mjr_makeContext its glad loader looks in the whole
   process for eglGetProcAddress, then OSMesaGetProcAddress, then
   glXGetProcAddressARB, and takes its GL functions from the first one it
   finds.  Linked with -lOSMesa that is OSMesa, and mjr_makeContext,
   mjr_render and the read-back work with an OSMesa context current
   (checked: the pixels are not blank, also with libGL linked or preloaded,
   since GLX comes last).  With libEGL in the process the loader takes EGL,
   finds no current EGL context, and MuJoCo's default error handler ends
   the program; s2r_renderer_init checks for this first and returns
   S2R_ERR_UNSUPPORTED instead, and checks the sizes OpenGL can hold.
   (MuJoCo's other fatal errors - e.g. out of memory inside mjr_makeContext
   - still go to its error handler, mju_user_error.)

   Image size.  MuJoCo renders into an offscreen buffer whose size it reads
   from the model (<visual><global offwidth offheight>, default 640 x 480).
   The renderer hands MuJoCo a copy of the mjModel struct (the arrays are
   shared, nothing is duplicated, your model is untouched) carrying its own
   buffer size, sampling, shadow and head-light settings, so any image up to
   S2R_RENDER_MAX_SIZE px works with the embedded MJCF as it is.

   Memory.  s2r_renderer_init allocates the OSMesa context (its window is
   1 x 1 px: MuJoCo draws offscreen), an RGBA read-back buffer (width *
   height * 4 bytes), MuJoCo's scene and GL context (with the multisampled
   offscreen buffer) and one mjData; rendering
   allocates nothing (s2r_render_arm_camera makes a scratch mjData).  A
   filmstrip holds its frames (rows * cols * frame bytes) and, after
   s2r_filmstrip_render, the composed image.
   Threads.  One renderer must not be used from two threads at once.  A
   renderer makes its context current at every call, so several renderers
   may live side by side.
   Errors.  S2R_ERR_INVALID_ARGUMENT (sizes, NULLs, a model of another
   shape), S2R_ERR_UNSUPPORTED (no usable OSMesa), S2R_ERR_OUT_OF_MEMORY,
   S2R_ERR_STATE (not initialized), S2R_ERR_IO (PNG), with a sentence in
   `error`. */

#define S2R_RENDER_MAX_SIZE 4096     /* px, largest image width or height      */
#ifndef S2R_RENDER_SAMPLES
#define S2R_RENDER_SAMPLES 4         /* multisamples per px (anti-aliasing)    */
#endif
#ifndef S2R_RENDER_SHADOW_SIZE
#define S2R_RENDER_SHADOW_SIZE 2048  /* px, side of the shadow map             */
#endif
#define S2R_RENDER_MAX_GEOMS 2000    /* scene capacity: model geoms + extras   */
#define S2R_RENDER_GRID_STEP 0.25    /* m between floor grid lines              */

/* What the renderer draws on top of the model: bits of r.extras.  The
   workspace and the flange need the arm, so only s2r_render_robot, _sim
   and _real draw them. */
typedef enum s2r_render_extra {
    S2R_RENDER_TARGET_GUIDE = 1,     /* drop line and floor disc under the target */
    S2R_RENDER_FLOOR_GRID = 2,       /* lines every S2R_RENDER_GRID_STEP m on the floor */
    S2R_RENDER_WORKSPACE = 4,        /* edges of the box targets are drawn in     */
    S2R_RENDER_FLANGE = 8,           /* a dot on the flange, a line to the target:
                                        the error the task measures            */
    S2R_RENDER_XRAY = 16             /* the target (faintly) and the flange marks
                                        drawn again over whatever hides them   */
} s2r_render_extra;

typedef struct s2r_renderer {
    int            width, height;    /* px, every image                         */
    unsigned       extras;           /* s2r_render_extra bits; TARGET_GUIDE |
                                        FLOOR_GRID after init                   */
    mjvCamera      camera;           /* the view used when a call passes NULL:
                                        a free camera on the model's centre
                                        (the robot calls frame the arm instead) */
    mjvOption      option;           /* MuJoCo's visual options (its defaults)  */
    mjvScene       scene;            /* MuJoCo's abstract scene                 */
    mjrContext     context;          /* MuJoCo's GL resources                   */
    char           error[S2R_ERROR_LEN];
    /* private */
    void*          gl_;              /* the OSMesaContext                       */
    unsigned char* gl_buffer_;       /* [1][1][4] its window: MuJoCo draws offscreen */
    unsigned char* readback_;        /* [height][width][4] the image read back  */
    mjData*        data_;            /* the pose being drawn (a copy)           */
    int            shape_[8];        /* sizes of the model it was made for      */
    int            target_body_;     /* body id of "target", -1 if none         */
    int            samples_;         /* multisamples actually used              */
} s2r_renderer;

/* Make a renderer for `model` (and models of the same shape: the randomized
   copies inside simulators and real units), images width x height px, each
   1..S2R_RENDER_MAX_SIZE.  On error nothing is left allocated and
   s2r_renderer_free is still safe. */
S2RDEF s2r_result s2r_renderer_init(s2r_renderer* r, const mjModel* model, int width, int height);
/* Release everything; the renderer is zeroed (freeing twice is safe). */
S2RDEF void       s2r_renderer_free(s2r_renderer* r);

/* Draw the pose in `data` (qpos and mocap bodies; nothing is computed in
   or written to it) as seen by `camera` (NULL: r->camera) into rgb
   [height][width][3], top row first. */
S2RDEF s2r_result s2r_render(s2r_renderer* r, const mjModel* model, const mjData* data,
                             const mjvCamera* camera, unsigned char* rgb);
/* The same for an arm, a simulator, a real unit; camera NULL = framed on
   the arm (s2r_render_arm_camera). */
S2RDEF s2r_result s2r_render_robot(s2r_renderer* r, const s2r_robot* robot,
                                   const mjvCamera* camera, unsigned char* rgb);
S2RDEF s2r_result s2r_render_sim(s2r_renderer* r, const s2r_sim* sim,
                                 const mjvCamera* camera, unsigned char* rgb);
S2RDEF s2r_result s2r_render_real(s2r_renderer* r, const s2r_real_robot* real,
                                  const mjvCamera* camera, unsigned char* rgb);

/* A free camera that frames the arm at home and its target box: looking at
   their centre from the side and a little in front of the arm, 20 degrees
   from above, far enough for everything to fit.  Turn it with
   camera.azimuth (degrees about z), tilt it with camera.elevation, move in
   with camera.distance (m). */
S2RDEF mjvCamera  s2r_render_arm_camera(const s2r_arm_info* info);

/* Move the arm's target marker (the mocap body "target") to `target` (m,
   world): robot->data->mocap_pos, shown by the next render (MuJoCo moves
   the body itself at the next physics step).  This moves the physical
   marker - what a simulator's camera perceives and ground truth measures -
   so to start an episode prefer the backend's reset(q0, target).
   S2R_ERR_MODEL if the model has no target, S2R_ERR_INVALID_ARGUMENT for
   NULL or NaN/Inf. */
S2RDEF s2r_result s2r_render_set_target(s2r_robot* robot, const double target[3]);

/* --- Filmstrips: rendered frames in a captioned grid, as a PNG ------------
   rows x cols frames of one size, an optional title over the grid, a label
   over each row and a caption under each frame (text as in the Figures:
   stb_easy_font at font_scale, '\n' starts a new line, at most
   S2R_PLOT_TEXT_LEN - 1 bytes).  Bands for title, labels and captions are
   only made when some text uses them.  A still is a 1 x 1 filmstrip.

       s2r_filmstrip strip;
       s2r_filmstrip_init(&strip, 2, 6, 480, 360);
       s2r_filmstrip_title(&strip, "One reach, simulation and a real unit");
       s2r_filmstrip_row_label(&strip, 0, "simulation");
       s2r_filmstrip_frame(&strip, 0, k, rgb, "t = 0.40 s");    // copies rgb
       s2r_filmstrip_write_png(&strip, "figures/reach.png");
       s2r_filmstrip_free(&strip); */

typedef struct s2r_filmstrip {
    int rows, cols;                 /* frames in the grid                     */
    int frame_width, frame_height;  /* px, every frame                        */
    int font_scale;                 /* screen px per font px, 1..8; 2 after init */
    int width, height;              /* px, the composed image (after render)  */
    unsigned char* pixels;          /* [height][width][3], after s2r_filmstrip_render */
    char error[S2R_ERROR_LEN];
    /* private */
    unsigned char* frames_;         /* [rows * cols][frame_height][frame_width][3] */
    char title_[S2R_PLOT_TEXT_LEN];
    char (*labels_)[S2R_PLOT_TEXT_LEN];    /* [rows]        */
    char (*captions_)[S2R_PLOT_TEXT_LEN];  /* [rows * cols] */
} s2r_filmstrip;

/* rows, cols 1..16; frames 1..S2R_RENDER_MAX_SIZE px each way.  Frames
   start white.  S2R_ERR_INVALID_ARGUMENT, S2R_ERR_OUT_OF_MEMORY. */
S2RDEF s2r_result s2r_filmstrip_init(s2r_filmstrip* f, int rows, int cols,
                                     int frame_width, int frame_height);
/* Release everything; zeroed (freeing twice is safe). */
S2RDEF void       s2r_filmstrip_free(s2r_filmstrip* f);
/* Title over the grid, label over a row (NULL or "" = none). */
S2RDEF s2r_result s2r_filmstrip_title(s2r_filmstrip* f, const char* title);
S2RDEF s2r_result s2r_filmstrip_row_label(s2r_filmstrip* f, int row, const char* label);
/* Copy a frame (rgb [frame_height][frame_width][3], top row first) into
   its cell with a caption under it (NULL or "" = none). */
S2RDEF s2r_result s2r_filmstrip_frame(s2r_filmstrip* f, int row, int col,
                                      const unsigned char* rgb, const char* caption);
/* Compose into f->pixels (f->width x f->height). */
S2RDEF s2r_result s2r_filmstrip_render(s2r_filmstrip* f);
/* Compose and write a PNG; S2R_ERR_IO if it cannot be written (written
   whole or not at all, see s2r_file). */
S2RDEF s2r_result s2r_filmstrip_write_png(s2r_filmstrip* f, const char* path);

#endif /* S2R_RENDER (declarations) */


#endif /* S2R_RENDER_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_RENDER_IMPLEMENTATION_DONE
#error "s2r_render.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_RENDER_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "s2r_render.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif
#ifdef S2R_RENDER

/* ==========================================================================
   Rendering: headless scene images with OSMesa and MuJoCo's renderer
   ========================================================================== */

#include <GL/osmesa.h>
#include <dlfcn.h>

/* --- Rendering: finding OpenGL --------------------------------------------
   MuJoCo's loader ends the process when it cannot load GL (see the section
   banner), so every condition it would stop on is checked here first. */

static s2r_result s2r__render_check_loader(char* error) {
    void* process = dlopen(NULL, RTLD_LAZY);
    int egl, osmesa;
    if (!process)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "s2r_renderer_init: cannot inspect the "
                         "process's libraries (dlopen: %s)", dlerror());
    egl = dlsym(process, "eglGetProcAddress") != NULL;
    osmesa = dlsym(process, "OSMesaGetProcAddress") != NULL;
    dlclose(process);
    if (egl)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "s2r_renderer_init: libEGL is loaded in "
                         "this process, so MuJoCo would take its OpenGL functions from EGL "
                         "instead of OSMesa and stop the program; do not link -lEGL");
    if (!osmesa)
        return s2r__fail(error, S2R_ERR_UNSUPPORTED, "s2r_renderer_init: OSMesa is not visible "
                         "to MuJoCo; link the program with -lOSMesa (libosmesa6-dev)");
    return S2R_OK;
}

/* With our context current: can GL hold a width x height multisampled
   buffer?  Sets r->samples_ (at most what GL offers). */
static s2r_result s2r__render_check_gl(s2r_renderer* r) {
    GLint max_buffer = 0, max_samples = 0, max_view[2] = {0, 0};
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_buffer);
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_view);
    while (glGetError() != GL_NO_ERROR) {}   /* MuJoCo stops on a pending error */
    if (r->width > max_buffer || r->height > max_buffer || r->width > max_view[0] ||
        r->height > max_view[1])
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "s2r_renderer_init: %d x %d px "
                         "exceeds what this OpenGL can render (%d x %d)", r->width, r->height,
                         max_buffer < max_view[0] ? max_buffer : max_view[0],
                         max_buffer < max_view[1] ? max_buffer : max_view[1]);
    r->samples_ = S2R_RENDER_SAMPLES < max_samples ? S2R_RENDER_SAMPLES : max_samples;
    if (r->samples_ < 0) r->samples_ = 0;
    return S2R_OK;
}

/* Make our context current on our buffer. */
static s2r_result s2r__render_make_current(s2r_renderer* r, const char* who) {
    if (!OSMesaMakeCurrent((OSMesaContext)r->gl_, r->gl_buffer_, GL_UNSIGNED_BYTE, 1, 1))
        return s2r__fail(r->error, S2R_ERR_UNSUPPORTED, "%s: OSMesaMakeCurrent failed", who);
    return S2R_OK;
}

/* --- Rendering: the look --------------------------------------------------
   MuJoCo reads the buffer size and the lighting from mjModel.vis; the
   renderer passes a struct copy of the model with these set (the arrays
   stay shared). */

static void s2r__render_view_model(const s2r_renderer* r, const mjModel* model, mjModel* view) {
    int k;
    *view = *model;
    view->vis.global.offwidth = r->width;
    view->vis.global.offheight = r->height;
    view->vis.quality.offsamples = r->samples_;
    view->vis.quality.shadowsize = S2R_RENDER_SHADOW_SIZE;
    for (k = 0; k < 3; k++) {     /* a soft head light: fills the shadowed sides */
        view->vis.headlight.ambient[k] = 0.25f;
        view->vis.headlight.diffuse[k] = 0.45f;
        view->vis.headlight.specular[k] = 0.15f;
    }
    view->vis.headlight.active = 1;
}

/* Sizes a model must share with the one the renderer was made for. */
static void s2r__render_shape(const mjModel* m, int shape[8]) {
    shape[0] = m->nq; shape[1] = m->nbody; shape[2] = m->ngeom; shape[3] = m->nsite;
    shape[4] = m->nmocap; shape[5] = m->nmesh; shape[6] = m->ntex; shape[7] = m->nlight;
}

/* A free camera on the model's centre, for s2r_render without a camera. */
static void s2r__render_model_camera(const mjModel* model, mjvCamera* cam) {
    int k;
    mjv_defaultCamera(cam);
    cam->type = mjCAMERA_FREE;
    for (k = 0; k < 3; k++) cam->lookat[k] = model->stat.center[k];
    cam->distance = 2.5 * model->stat.extent;
    cam->azimuth = model->vis.global.azimuth;
    cam->elevation = model->vis.global.elevation;
}

/* --- Rendering: the renderer ---------------------------------------------- */

/* GL side of init, with the context current: MuJoCo's scene and context. */
static s2r_result s2r__render_make_gl(s2r_renderer* r, const mjModel* model) {
    mjModel view;
    s2r_result res = s2r__render_check_gl(r);
    if (res != S2R_OK) return res;
    mjv_defaultOption(&r->option);
    mjv_defaultScene(&r->scene);
    mjr_defaultContext(&r->context);
    mjv_makeScene(model, &r->scene, S2R_RENDER_MAX_GEOMS);
    s2r__render_view_model(r, model, &view);
    mjr_makeContext(&view, &r->context, mjFONTSCALE_100);
    mjr_setBuffer(mjFB_OFFSCREEN, &r->context);
    if (r->context.currentBuffer != mjFB_OFFSCREEN || r->context.offWidth < r->width ||
        r->context.offHeight < r->height)
        return s2r__fail(r->error, S2R_ERR_UNSUPPORTED, "s2r_renderer_init: MuJoCo could not "
                         "make a %d x %d offscreen buffer", r->width, r->height);
    return S2R_OK;
}

S2RDEF s2r_result s2r_renderer_init(s2r_renderer* r, const mjModel* model, int width, int height) {
    s2r_result res;
    S2R_ASSERT(r);
    memset(r, 0, sizeof *r);
    if (!model)
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "s2r_renderer_init: model is NULL");
    if (width < 1 || height < 1 || width > S2R_RENDER_MAX_SIZE || height > S2R_RENDER_MAX_SIZE)
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "s2r_renderer_init: image size "
                         "%d x %d px is outside 1..%d", width, height, S2R_RENDER_MAX_SIZE);
    if ((res = s2r__render_check_loader(r->error)) != S2R_OK) return res;
    r->width = width;
    r->height = height;
    r->gl_buffer_ = (unsigned char*)s2r__calloc(1, 4);
    r->readback_ = (unsigned char*)s2r__calloc((size_t)width * (size_t)height, 4);
    r->data_ = mj_makeData(model);
    if (!r->gl_buffer_ || !r->readback_ || !r->data_) {
        s2r_renderer_free(r);
        return s2r__fail(r->error, S2R_ERR_OUT_OF_MEMORY, "s2r_renderer_init: out of memory");
    }
    r->gl_ = (void*)OSMesaCreateContextExt(OSMESA_RGBA, 24, 8, 0, NULL);
    if (!r->gl_) {
        s2r_renderer_free(r);
        return s2r__fail(r->error, S2R_ERR_UNSUPPORTED, "s2r_renderer_init: "
                         "OSMesaCreateContextExt failed");
    }
    res = s2r__render_make_current(r, "s2r_renderer_init");
    if (res == S2R_OK) res = s2r__render_make_gl(r, model);
    if (res != S2R_OK) {
        char keep[S2R_ERROR_LEN];
        memcpy(keep, r->error, sizeof keep);
        s2r_renderer_free(r);
        memcpy(r->error, keep, sizeof keep);
        return res;
    }
    s2r__render_shape(model, r->shape_);
    r->target_body_ = mj_name2id(model, mjOBJ_BODY, "target");
    s2r__render_model_camera(model, &r->camera);
    r->extras = S2R_RENDER_TARGET_GUIDE | S2R_RENDER_FLOOR_GRID;
    return S2R_OK;
}

S2RDEF void s2r_renderer_free(s2r_renderer* r) {
    if (!r) return;
    if (r->gl_ && s2r__render_make_current(r, "s2r_renderer_free") == S2R_OK) {
        mjr_freeContext(&r->context);
        mjv_freeScene(&r->scene);
        OSMesaMakeCurrent(NULL, NULL, GL_UNSIGNED_BYTE, 0, 0);
    }
    if (r->gl_) OSMesaDestroyContext((OSMesaContext)r->gl_);
    if (r->data_) mj_deleteData(r->data_);
    if (r->gl_buffer_) S2R_FREE(r->gl_buffer_);
    if (r->readback_) S2R_FREE(r->readback_);
    memset(r, 0, sizeof *r);
}

/* --- Rendering: framing the arm -------------------------------------------- */

/* Grow the box [lo, hi] (m) to hold p. */
static void s2r__render_grow(double lo[3], double hi[3], const double p[3]) {
    int k;
    for (k = 0; k < 3; k++) {
        if (p[k] < lo[k]) lo[k] = p[k];
        if (p[k] > hi[k]) hi[k] = p[k];
    }
}

/* Bounding box (m) of the arm's bodies at home and of its target box,
   down to the floor; scratch is mjData for info->model. */
static void s2r__render_arm_box(const s2r_arm_info* info, mjData* scratch, double lo[3], double hi[3]) {
    const mjModel* m = info->model;
    int b, j;
    memcpy(lo, info->workspace_lo, 3 * sizeof(double));
    memcpy(hi, info->workspace_hi, 3 * sizeof(double));
    lo[2] = 0;
    for (j = 0; j < info->n_joints; j++)
        scratch->qpos[m->jnt_qposadr[m->actuator_trnid[2 * j]]] = info->q_home[j];
    mj_kinematics(m, scratch);
    for (b = 1; b < m->nbody; b++)
        if (m->body_mocapid[b] < 0) s2r__render_grow(lo, hi, scratch->xpos + 3 * b);
}

/* The arm camera, computed in `scratch`. */
static mjvCamera s2r__render_frame_arm(const s2r_arm_info* info, mjData* scratch) {
    mjvCamera cam;
    double lo[3], hi[3], radius = 0, half_fov, pi = 3.141592653589793;
    int k;
    mjv_defaultCamera(&cam);
    cam.type = mjCAMERA_FREE;
    s2r__render_arm_box(info, scratch, lo, hi);
    for (k = 0; k < 3; k++) {
        cam.lookat[k] = 0.5 * (lo[k] + hi[k]);
        radius += 0.25 * (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    radius = sqrt(radius) + 0.1;                   /* m, with a margin */
    half_fov = 0.5 * info->model->vis.global.fovy * pi / 180;
    cam.distance = 0.9 * radius / sin(half_fov);
    cam.azimuth = 135 + 180 / pi * atan2(info->workspace_lo[1] + info->workspace_hi[1],
                                         info->workspace_lo[0] + info->workspace_hi[0]);
    cam.elevation = -20;
    return cam;
}

S2RDEF mjvCamera s2r_render_arm_camera(const s2r_arm_info* info) {
    mjvCamera cam;
    mjData* scratch = info && info->model ? mj_makeData(info->model) : NULL;
    if (!scratch) {
        mjv_defaultCamera(&cam);
        return cam;
    }
    cam = s2r__render_frame_arm(info, scratch);
    mj_deleteData(scratch);
    return cam;
}

/* --- Rendering: drawing ---------------------------------------------------- */

/* One decor geom in the scene: a cylinder or line from a to b (radius m;
   a line's width in px), or at a when b is NULL: a sphere, or a flat disc
   for a cylinder (size = radius, half-height 1 mm). */
static void s2r__render_decor(mjvScene* scn, int type, const double a[3], const double* b,
                              double radius, const float rgba[4]) {
    mjvGeom* g;
    mjtNum size[3], pos[3];
    if (scn->ngeom >= scn->maxgeom) return;
    g = &scn->geoms[scn->ngeom++];
    size[0] = radius; size[1] = 0.001; size[2] = 0;     /* cylinder: radius, half-height */
    pos[0] = a[0]; pos[1] = a[1]; pos[2] = a[2];
    mjv_initGeom(g, type, size, pos, NULL, rgba);
    if (b) mjv_makeConnector(g, type, radius, a[0], a[1], a[2], b[0], b[1], b[2]);
    g->emission = type == mjGEOM_LINE ? 0.0f : 0.2f;
}

/* The target's geoms drawn opaque: the MJCF makes them translucent, and
   against the sky they would come out pale (s2r__render_composite). */
static void s2r__render_solid_target(s2r_renderer* r, const mjModel* model) {
    int i;
    for (i = 0; i < r->scene.ngeom && r->target_body_ >= 0; i++) {
        mjvGeom* g = &r->scene.geoms[i];
        if (g->objtype == mjOBJ_GEOM && g->objid >= 0 && g->objid < model->ngeom &&
            model->geom_bodyid[g->objid] == r->target_body_) {
            g->rgba[3] = 1;
            g->emission = 0.35f;   /* glows a little: visible in shadow too */
        }
    }
}

/* A drop line from the target to the floor and a disc where it lands. */
static void s2r__render_target_guide(s2r_renderer* r) {
    static const float line[4] = {0.70f, 0.20f, 0.20f, 1.0f};
    static const float disc[4] = {0.95f, 0.60f, 0.60f, 1.0f};
    const double* t;
    double top[3], floor_pt[3];
    if (r->target_body_ < 0) return;
    t = r->data_->xpos + 3 * r->target_body_;
    if (t[2] < 0.03) return;
    top[0] = floor_pt[0] = t[0];
    top[1] = floor_pt[1] = t[1];
    top[2] = t[2] - 0.02;           /* the bottom of the 2 cm sphere */
    floor_pt[2] = 0.001;
    s2r__render_decor(&r->scene, mjGEOM_CYLINDER, floor_pt, top, 0.0025, line);
    s2r__render_decor(&r->scene, mjGEOM_CYLINDER, floor_pt, NULL, 0.03, disc);
}

/* A blue dot on the flange site and a line from it to the target. */
static void s2r__render_flange(s2r_renderer* r, const s2r_arm_info* info) {
    static const float blue[4] = {0.0f, 0.35f, 0.75f, 1.0f};
    const double* f = r->data_->site_xpos + 3 * info->flange_site;
    s2r__render_decor(&r->scene, mjGEOM_SPHERE, f, NULL, 0.006, blue);
    if (r->target_body_ >= 0)
        s2r__render_decor(&r->scene, mjGEOM_CYLINDER, f, r->data_->xpos + 3 * r->target_body_,
                          0.0025, blue);
}

/* Lines every S2R_RENDER_GRID_STEP m on the floor (z = 0) out to 2 m, as
   flat boxes so they take the shadows like the floor: a scale for the eye. */
static void s2r__render_floor_grid(s2r_renderer* r) {
    static const float rgb[4] = {0.70f, 0.71f, 0.73f, 1.0f};
    int i, k, n = (int)(2.0 / S2R_RENDER_GRID_STEP + 0.5);
    for (i = -n; i <= n; i++)
        for (k = 0; k < 2; k++) {   /* along y, then along x */
            mjtNum size[3], pos[3];
            if (r->scene.ngeom >= r->scene.maxgeom) return;
            size[k] = 0.003; size[1 - k] = 2; size[2] = 0.0005;
            pos[k] = i * S2R_RENDER_GRID_STEP; pos[1 - k] = 0; pos[2] = 0.0005;
            mjv_initGeom(&r->scene.geoms[r->scene.ngeom++], mjGEOM_BOX, size, pos, NULL, rgb);
        }
}

/* The twelve edges of the arm's target box. */
static void s2r__render_workspace(s2r_renderer* r, const s2r_arm_info* info) {
    static const float edge[4] = {0.0f, 0.30f, 0.55f, 1.0f};   /* dark blue */
    const double* lo = info->workspace_lo;
    const double* hi = info->workspace_hi;
    int axis, k;
    for (axis = 0; axis < 3; axis++)
        for (k = 0; k < 4; k++) {   /* the 4 edges along this axis */
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            double a[3], b[3];
            a[u] = b[u] = (k & 1) ? hi[u] : lo[u];
            a[v] = b[v] = (k & 2) ? hi[v] : lo[v];
            a[axis] = lo[axis];
            b[axis] = hi[axis];
            s2r__render_decor(&r->scene, mjGEOM_LINE, a, b, 2, edge);
        }
}

/* Copy the pose (joints and mocap bodies) into the renderer's own data. */
static void s2r__render_copy_pose(s2r_renderer* r, const mjModel* m, const mjData* d) {
    memcpy(r->data_->qpos, d->qpos, (size_t)m->nq * sizeof(mjtNum));
    if (m->nmocap > 0) {
        memcpy(r->data_->mocap_pos, d->mocap_pos, (size_t)m->nmocap * 3 * sizeof(mjtNum));
        memcpy(r->data_->mocap_quat, d->mocap_quat, (size_t)m->nmocap * 4 * sizeof(mjtNum));
    }
    mj_kinematics(m, r->data_);
    mj_camlight(m, r->data_);
}

/* Read the offscreen buffer (RGBA, resolved from its multisamples) into
   r->readback_ [height][width][4], bottom row first. */
static s2r_result s2r__render_read_rgba(s2r_renderer* r) {
    PFNGLBINDFRAMEBUFFERPROC bind =
        (PFNGLBINDFRAMEBUFFERPROC)OSMesaGetProcAddress("glBindFramebuffer");
    PFNGLBLITFRAMEBUFFERPROC blit =
        (PFNGLBLITFRAMEBUFFERPROC)OSMesaGetProcAddress("glBlitFramebuffer");
    const mjrContext* con = &r->context;
    if (!bind || !blit)
        return s2r__fail(r->error, S2R_ERR_UNSUPPORTED, "s2r_render: this OpenGL has no "
                         "framebuffer objects");
    if (con->offSamples > 0) {
        bind(GL_READ_FRAMEBUFFER, con->offFBO);
        bind(GL_DRAW_FRAMEBUFFER, con->offFBO_r);
        blit(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        bind(GL_READ_FRAMEBUFFER, con->offFBO_r);
    } else {
        bind(GL_READ_FRAMEBUFFER, con->offFBO);
    }
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, r->readback_);
    bind(GL_FRAMEBUFFER, con->offFBO);
    return S2R_OK;
}

/* Background colour (0..255) at image row y (0 = top): a sky that pales
   toward the horizon. */
static void s2r__render_sky(const s2r_renderer* r, int y, double rgb[3]) {
    static const double top[3] = {168, 190, 214}, low[3] = {236, 240, 245};
    double t = r->height > 1 ? (double)y / (r->height - 1) : 1;
    int k;
    for (k = 0; k < 3; k++) rgb[k] = top[k] + (low[k] - top[k]) * t;
}

/* MuJoCo clears to black with alpha 0, and multisampling leaves each
   pixel's colour premultiplied by its coverage (alpha): a pixel on the sky
   is colour + (1 - alpha) * sky, exact at anti-aliased edges.  Translucent
   geoms blend their alpha too (a over opaque leaves 1 - a + a^2 >= 0.75),
   so alpha >= 0.75 counts as covered: translucent parts keep their colour
   over opaque ones (at the price of a faint dark edge where an opaque
   silhouette covers 3/4 of a pixel of sky) and come out paler only where
   the sky is behind them.  Writes rgb [height][width][3], top row first. */
static void s2r__render_composite(const s2r_renderer* r, unsigned char* rgb) {
    int x, y, k;
    for (y = 0; y < r->height; y++) {
        const unsigned char* src = r->readback_ + (size_t)(r->height - 1 - y) * (size_t)r->width * 4;
        unsigned char* dst = rgb + (size_t)y * (size_t)r->width * 3;
        double sky[3];
        s2r__render_sky(r, y, sky);
        for (x = 0; x < r->width; x++, src += 4, dst += 3) {
            double clear = src[3] >= 191 ? 0.0 : 1.0 - src[3] / 255.0;
            for (k = 0; k < 3; k++) {
                double v = src[k] + clear * sky[k];
                dst[k] = (unsigned char)(v > 255 ? 255 : v + 0.5);
            }
        }
    }
}

/* X-ray: keep in the scene only the target's geoms, then the marks added
   from index `marks` on (the flange dot and line); returns how many of the
   kept geoms are the target's. */
static int s2r__render_keep_marks(s2r_renderer* r, const mjModel* model, int marks) {
    int i, n = 0, targets = 0;
    for (i = 0; i < r->scene.ngeom; i++) {
        const mjvGeom* g = &r->scene.geoms[i];
        int target = g->objtype == mjOBJ_GEOM && g->objid >= 0 && g->objid < model->ngeom &&
                     model->geom_bodyid[g->objid] == r->target_body_;
        if (target || i >= marks) r->scene.geoms[n++] = *g;
        targets += target;
    }
    r->scene.ngeom = n;
    return targets;
}

/* Lay the image just read (premultiplied by its coverage, see
   s2r__render_composite) over rgb at `strength` (0..1). */
static void s2r__render_overlay(const s2r_renderer* r, unsigned char* rgb, double strength) {
    int x, y, k;
    for (y = 0; y < r->height; y++) {
        const unsigned char* src = r->readback_ + (size_t)(r->height - 1 - y) * (size_t)r->width * 4;
        unsigned char* dst = rgb + (size_t)y * (size_t)r->width * 3;
        for (x = 0; x < r->width; x++, src += 4, dst += 3) {
            double a = strength * src[3] / 255.0;
            for (k = 0; k < 3; k++)
                dst[k] = (unsigned char)(dst[k] * (1 - a) + strength * src[k] + 0.5);
        }
    }
}

/* Draw the target again over rgb, faintly, and then the marks from index
   `marks` on at full strength: both show through whatever hides them. */
static s2r_result s2r__render_xray(s2r_renderer* r, const mjModel* model, int marks,
                                   unsigned char* rgb) {
    mjrRect viewport = {0, 0, 0, 0};
    int targets = s2r__render_keep_marks(r, model, marks), kept = r->scene.ngeom;
    s2r_result res;
    viewport.width = r->width;
    viewport.height = r->height;
    r->scene.ngeom = targets;
    mjr_render(viewport, &r->scene, &r->context);
    if ((res = s2r__render_read_rgba(r)) != S2R_OK) return res;
    s2r__render_overlay(r, rgb, 0.6);
    if (kept == targets) return S2R_OK;
    memmove(r->scene.geoms, r->scene.geoms + targets, (size_t)(kept - targets) * sizeof(mjvGeom));
    r->scene.ngeom = kept - targets;
    mjr_render(viewport, &r->scene, &r->context);
    if ((res = s2r__render_read_rgba(r)) != S2R_OK) return res;
    s2r__render_overlay(r, rgb, 1.0);
    return S2R_OK;
}

static s2r_result s2r__render_check(s2r_renderer* r, const mjModel* model, const mjData* data,
                                    const unsigned char* rgb) {
    int shape[8];
    if (!r->gl_)
        return s2r__fail(r->error, S2R_ERR_STATE, "s2r_render: renderer not initialized");
    if (!model || !data || !rgb)
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "s2r_render: %s is NULL",
                         !model ? "model" : !data ? "data" : "rgb");
    s2r__render_shape(model, shape);
    if (memcmp(shape, r->shape_, sizeof shape) != 0)
        return s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "s2r_render: the model differs "
                         "from the one the renderer was made for (bodies, geoms, meshes ...)");
    return S2R_OK;
}

/* The one drawing path.  info: the arm (NULL from s2r_render), which the
   default camera, the workspace and the flange marks need. */
static s2r_result s2r__render_draw(s2r_renderer* r, const mjModel* model, const mjData* data,
                                   const mjvCamera* camera, const s2r_arm_info* info,
                                   unsigned char* rgb) {
    mjModel view;
    mjvCamera cam;
    mjrRect viewport = {0, 0, 0, 0};
    s2r_result res;
    int marks;
    S2R_ASSERT(r);
    if ((res = s2r__render_check(r, model, data, rgb)) != S2R_OK) return res;
    if ((res = s2r__render_make_current(r, "s2r_render")) != S2R_OK) return res;
    cam = camera ? *camera : info ? s2r__render_frame_arm(info, r->data_) : r->camera;
    s2r__render_copy_pose(r, model, data);
    s2r__render_view_model(r, model, &view);
    mjv_updateScene(&view, r->data_, &r->option, NULL, &cam, mjCAT_ALL, &r->scene);
    s2r__render_solid_target(r, model);
    if (r->extras & S2R_RENDER_FLOOR_GRID) s2r__render_floor_grid(r);
    if (r->extras & S2R_RENDER_TARGET_GUIDE) s2r__render_target_guide(r);
    if ((r->extras & S2R_RENDER_WORKSPACE) && info) s2r__render_workspace(r, info);
    marks = r->scene.ngeom;
    if ((r->extras & S2R_RENDER_FLANGE) && info) s2r__render_flange(r, info);
    mjr_setBuffer(mjFB_OFFSCREEN, &r->context);
    viewport.width = r->width;
    viewport.height = r->height;
    mjr_render(viewport, &r->scene, &r->context);
    if ((res = s2r__render_read_rgba(r)) != S2R_OK) return res;
    s2r__render_composite(r, rgb);
    if (r->extras & S2R_RENDER_XRAY) res = s2r__render_xray(r, model, marks, rgb);
    return res;
}

S2RDEF s2r_result s2r_render(s2r_renderer* r, const mjModel* model, const mjData* data,
                             const mjvCamera* camera, unsigned char* rgb) {
    return s2r__render_draw(r, model, data, camera, NULL, rgb);
}

S2RDEF s2r_result s2r_render_robot(s2r_renderer* r, const s2r_robot* robot,
                                   const mjvCamera* camera, unsigned char* rgb) {
    S2R_ASSERT(r && robot);
    return s2r__render_draw(r, robot->model, robot->data, camera, &robot->info, rgb);
}

S2RDEF s2r_result s2r_render_sim(s2r_renderer* r, const s2r_sim* sim,
                                 const mjvCamera* camera, unsigned char* rgb) {
    S2R_ASSERT(sim);
    return s2r_render_robot(r, &sim->robot, camera, rgb);
}

S2RDEF s2r_result s2r_render_real(s2r_renderer* r, const s2r_real_robot* real,
                                  const mjvCamera* camera, unsigned char* rgb) {
    S2R_ASSERT(real);
    return s2r_render_robot(r, &real->hidden_sim.robot, camera, rgb);   /* the pose only */
}

/* --- Rendering: the target marker ------------------------------------------ */

S2RDEF s2r_result s2r_render_set_target(s2r_robot* robot, const double target[3]) {
    S2R_ASSERT(robot);
    if (!robot->model || robot->target_mocap < 0)
        return s2r__fail(robot->error, S2R_ERR_MODEL, "s2r_render_set_target: the model has "
                         "no mocap body named 'target'");
    if (!target || !s2r_all_finite(target, 3))
        return s2r__fail(robot->error, S2R_ERR_INVALID_ARGUMENT, "s2r_render_set_target: "
                         "target is NULL or not finite");
    memcpy(robot->data->mocap_pos + 3 * robot->target_mocap, target, 3 * sizeof(double));
    return S2R_OK;
}

/* --- Rendering: filmstrips ------------------------------------------------- */

#define S2R__STRIP_GAP 12   /* px between frames (times font_scale / 2) */

S2RDEF s2r_result s2r_filmstrip_init(s2r_filmstrip* f, int rows, int cols,
                                     int frame_width, int frame_height) {
    size_t frame_bytes;
    S2R_ASSERT(f);
    memset(f, 0, sizeof *f);
    if (rows < 1 || rows > 16 || cols < 1 || cols > 16 || frame_width < 1 || frame_height < 1 ||
        frame_width > S2R_RENDER_MAX_SIZE || frame_height > S2R_RENDER_MAX_SIZE)
        return s2r__fail(f->error, S2R_ERR_INVALID_ARGUMENT, "s2r_filmstrip_init: %d x %d frames "
                         "of %d x %d px; need 1..16 frames each way, 1..%d px", rows, cols,
                         frame_width, frame_height, S2R_RENDER_MAX_SIZE);
    frame_bytes = (size_t)frame_width * (size_t)frame_height * 3;
    f->frames_ = (unsigned char*)S2R_MALLOC(frame_bytes * (size_t)(rows * cols));
    f->labels_ = (char(*)[S2R_PLOT_TEXT_LEN])s2r__calloc((size_t)rows, S2R_PLOT_TEXT_LEN);
    f->captions_ = (char(*)[S2R_PLOT_TEXT_LEN])s2r__calloc((size_t)(rows * cols), S2R_PLOT_TEXT_LEN);
    if (!f->frames_ || !f->labels_ || !f->captions_) {
        s2r_filmstrip_free(f);
        return s2r__fail(f->error, S2R_ERR_OUT_OF_MEMORY, "s2r_filmstrip_init: out of memory");
    }
    memset(f->frames_, 255, frame_bytes * (size_t)(rows * cols));
    f->rows = rows; f->cols = cols;
    f->frame_width = frame_width; f->frame_height = frame_height;
    f->font_scale = 2;
    return S2R_OK;
}

S2RDEF void s2r_filmstrip_free(s2r_filmstrip* f) {
    if (!f) return;
    if (f->frames_) S2R_FREE(f->frames_);
    if (f->labels_) S2R_FREE(f->labels_);
    if (f->captions_) S2R_FREE(f->captions_);
    if (f->pixels) S2R_FREE(f->pixels);
    memset(f, 0, sizeof *f);
}

/* Copy text into a stored slot (NULL = ""), cut to the slot. */
static void s2r__strip_text(char* slot, const char* text) {
    snprintf(slot, S2R_PLOT_TEXT_LEN, "%s", text ? text : "");
}

S2RDEF s2r_result s2r_filmstrip_title(s2r_filmstrip* f, const char* title) {
    S2R_ASSERT(f);
    if (!f->frames_) return s2r__fail(f->error, S2R_ERR_STATE, "s2r_filmstrip_title: not initialized");
    s2r__strip_text(f->title_, title);
    return S2R_OK;
}

S2RDEF s2r_result s2r_filmstrip_row_label(s2r_filmstrip* f, int row, const char* label) {
    S2R_ASSERT(f);
    if (!f->frames_) return s2r__fail(f->error, S2R_ERR_STATE, "s2r_filmstrip_row_label: not initialized");
    if (row < 0 || row >= f->rows)
        return s2r__fail(f->error, S2R_ERR_INVALID_ARGUMENT, "s2r_filmstrip_row_label: row %d "
                         "is outside 0..%d", row, f->rows - 1);
    s2r__strip_text(f->labels_[row], label);
    return S2R_OK;
}

S2RDEF s2r_result s2r_filmstrip_frame(s2r_filmstrip* f, int row, int col,
                                      const unsigned char* rgb, const char* caption) {
    size_t frame_bytes;
    S2R_ASSERT(f);
    if (!f->frames_) return s2r__fail(f->error, S2R_ERR_STATE, "s2r_filmstrip_frame: not initialized");
    if (row < 0 || row >= f->rows || col < 0 || col >= f->cols || !rgb)
        return s2r__fail(f->error, S2R_ERR_INVALID_ARGUMENT, "s2r_filmstrip_frame: %s",
                         !rgb ? "rgb is NULL" : "row or column outside the grid");
    frame_bytes = (size_t)f->frame_width * (size_t)f->frame_height * 3;
    memcpy(f->frames_ + frame_bytes * (size_t)(row * f->cols + col), rgb, frame_bytes);
    s2r__strip_text(f->captions_[row * f->cols + col], caption);
    return S2R_OK;
}

/* Heights (px) of the title band, of each row's label band and caption
   band: 0 when no text uses them. */
typedef struct s2r__strip_layout { int gap, title, label, caption; } s2r__strip_layout;

static s2r__strip_layout s2r__strip_measure(const s2r_filmstrip* f) {
    s2r__strip_layout l;
    int s = f->font_scale, i, lines = 0;
    l.gap = S2R__STRIP_GAP * s / 2;
    l.title = f->title_[0] ? s2r__text_h(f->title_, s + 1) + 2 * l.gap : 0;
    l.label = 0;
    for (i = 0; i < f->rows; i++)
        if (f->labels_[i][0] && s2r__text_h(f->labels_[i], s) + l.gap > l.label)
            l.label = s2r__text_h(f->labels_[i], s) + l.gap;
    for (i = 0; i < f->rows * f->cols; i++)
        if (f->captions_[i][0] && s2r__text_lines(f->captions_[i]) > lines)
            lines = s2r__text_lines(f->captions_[i]);
    l.caption = lines ? ((lines - 1) * 12 + 7) * s + l.gap + l.gap / 2 : 0;
    return l;
}

/* One cell: its label (first column only), frame and caption; (x, y) is
   the top-left corner of the row band. */
static void s2r__strip_cell(s2r_filmstrip* f, s2r__canvas* c, const s2r__strip_layout* l,
                            int row, int col, int x, int y) {
    size_t frame_bytes = (size_t)f->frame_width * (size_t)f->frame_height * 3;
    const unsigned char* src = f->frames_ + frame_bytes * (size_t)(row * f->cols + col);
    const char* caption = f->captions_[row * f->cols + col];
    int s = f->font_scale, j, top = y + l->label;
    if (col == 0 && f->labels_[row][0])
        s2r__text(c, f->labels_[row], x, y + l->gap / 2, 0, 0, s, 0x000000, 1);
    for (j = 0; j < f->frame_height; j++)
        memcpy(c->px + ((size_t)(top + j) * (size_t)c->w + (size_t)x) * 3,
               src + (size_t)j * (size_t)f->frame_width * 3, (size_t)f->frame_width * 3);
    s2r__fill(c, x - 1, top - 1, x + f->frame_width + 1, top, 0xB4B4B4, 1);   /* frame edge */
    s2r__fill(c, x - 1, top + f->frame_height, x + f->frame_width + 1, top + f->frame_height + 1, 0xB4B4B4, 1);
    s2r__fill(c, x - 1, top, x, top + f->frame_height, 0xB4B4B4, 1);
    s2r__fill(c, x + f->frame_width, top, x + f->frame_width + 1, top + f->frame_height, 0xB4B4B4, 1);
    if (caption[0])
        s2r__text(c, caption, x + 0.5 * f->frame_width, top + f->frame_height + l->gap / 2 + 2,
                  1, 0, s, 0x000000, 0);
}

S2RDEF s2r_result s2r_filmstrip_render(s2r_filmstrip* f) {
    s2r__strip_layout l;
    s2r__canvas c;
    int row, col, row_h, width, height;
    S2R_ASSERT(f);
    if (!f->frames_) return s2r__fail(f->error, S2R_ERR_STATE, "s2r_filmstrip_render: not initialized");
    if (f->font_scale < 1 || f->font_scale > 8)
        return s2r__fail(f->error, S2R_ERR_INVALID_ARGUMENT, "s2r_filmstrip_render: font_scale "
                         "%d is outside 1..8", f->font_scale);
    l = s2r__strip_measure(f);
    row_h = l.label + f->frame_height + l.caption + l.gap;
    width = f->cols * (f->frame_width + l.gap) + l.gap;
    height = l.title + f->rows * row_h + (l.title ? 0 : l.gap);
    if (!f->pixels || width != f->width || height != f->height) {
        unsigned char* px = (unsigned char*)S2R_MALLOC((size_t)width * (size_t)height * 3);
        if (!px) return s2r__fail(f->error, S2R_ERR_OUT_OF_MEMORY, "s2r_filmstrip_render: out of memory");
        if (f->pixels) S2R_FREE(f->pixels);
        f->pixels = px; f->width = width; f->height = height;
    }
    memset(f->pixels, 255, (size_t)width * (size_t)height * 3);
    c.px = f->pixels; c.w = width; c.h = height;
    s2r__clip_to(&c, 0, 0, width, height);
    if (f->title_[0])
        s2r__text(&c, f->title_, 0.5 * width, l.gap, 1, 0, f->font_scale + 1, 0x000000, 1);
    for (row = 0; row < f->rows; row++)
        for (col = 0; col < f->cols; col++)
            s2r__strip_cell(f, &c, &l, row, col, l.gap + col * (f->frame_width + l.gap),
                            (l.title ? l.title : l.gap) + row * row_h);
    return S2R_OK;
}

S2RDEF s2r_result s2r_filmstrip_write_png(s2r_filmstrip* f, const char* path) {
    s2r_result r;
    S2R_ASSERT(f);
    if (!path || !path[0])
        return s2r__fail(f->error, S2R_ERR_INVALID_ARGUMENT, "s2r_filmstrip_write_png: no file name given");
    if ((r = s2r_filmstrip_render(f)) != S2R_OK) return r;
    return s2r__write_png(path, f->width, f->height, f->pixels, "s2r_filmstrip_write_png", f->error);
}

#endif /* S2R_RENDER (implementation) */

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
