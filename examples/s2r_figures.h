/* s2r_figures.h - PNG line plots, bar charts, histograms and panel grids
                   for sim2real.h's examples (a companion header)

   The examples' figures - learning curves, sim-vs-real trajectories,
   success rates with 95 % intervals, histograms, stage timelines - and
   the learning curve of a training CSV (s2r_plot_training_csv), which the
   examples draw after s2r_train has written it.  The recipe itself draws
   nothing.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "s2r_figures.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.

   Dependencies.  stb_image_write.h encodes the PNGs and stb_easy_font.h
   supplies the glyphs: Debian's libstb-dev, include path /usr/include/stb
       cc -I/usr/include/stb ... prog.c -lmujoco -lm
   stb_image_write is compiled here as static functions (allocating
   through S2R_MALLOC), unless you define
       S2R_NO_STB_IMAGE_WRITE_IMPLEMENTATION
   because you compile it yourself elsewhere.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before s2r_figures.h"
#endif
#ifndef S2R_FIGURES_H
#define S2R_FIGURES_H

/* ==========================================================================
   Figures: PNG line plots, bar charts, histograms and panel grids
   ==========================================================================
   Every figure of the recipe - learning curves, sim-vs-real trajectories,
   success rates with 95 % intervals, histograms, stage timelines - is drawn
   by this small plotter.  You describe panels and series; rendering happens
   when you ask for the pixels or the PNG, so axis ranges and legends can be
   fitted to everything a panel holds.  Data are copied: your arrays may go
   away after each call.

       s2r_figure fig;
       s2r_plot_style gate = s2r_plot_style_default();   // all defaults
       if (s2r_figure_init(&fig, 900, 600, 1, 1) != S2R_OK) { ... fig.error ... }
       s2r_panel_labels(&fig, 0, "PPO on the UR5e", "environment steps", "success rate");
       s2r_plot_line(&fig, 0, steps, success, n, NULL);   // NULL: default style
       gate.label = "gate 0.85";
       s2r_plot_hline(&fig, 0, 0.85, &gate);               // grey, dashed
       if (s2r_figure_write_png(&fig, "figures/ppo.png") != S2R_OK)
           printf("%s\n", fig.error);
       s2r_figure_free(&fig);

   Panels.  A figure is a grid of rows x cols panels numbered row by row
   (panel = row * cols + col), each with a title, axis labels and a legend.
   Axis ranges are fitted to the panel's data - y with a 5 % margin, bars and
   histograms from 0 - with ticks at 1-2-5 steps, unless you set them with
   s2r_panel_xrange / s2r_panel_yrange.  Constant data get a range around
   the value.  Bar panels have categories on x: category i sits at x = i.
   Data.  double arrays with an explicit count.  A point with a NaN or Inf
   coordinate is skipped and a line breaks there.  An empty series (n <= 0)
   is an error.
   Styles.  A zeroed s2r_plot_style, or NULL, means: the next colour of the
   panel's colour-blind-safe palette (Okabe & Ito, "Color Universal Design",
   2008), solid 2-px lines, no marker, no legend entry.  Draw order: bands,
   then bars and histograms, then reference lines, then lines and points,
   each group in the order added.
   Legends and labels.  The legend sits in the first inside corner that
   covers no data, or above the plot when every corner would.  Labels of
   vertical lines go above the plot (stacked when they would overlap) and
   labels of horizontal lines at their right end, so neither hides data.
   Text.  The 7-px bitmap font of stb_easy_font scaled by fig.font_scale
   (2 after init; titles bold, the figure title one step larger).  Printable
   ASCII only (other bytes print as '?'), one line (a '\n' becomes a space,
   except in category labels); text longer than S2R_PLOT_TEXT_LEN - 1 bytes
   is cut.
   Memory.  s2r_figure_init allocates the image (width * height * 3 bytes);
   each s2r_plot_* call copies its data; writing a PNG allocates the
   encoder's buffers for the duration of the call.  No global state: figures
   are independent, but one figure must not be used from two threads.
   Errors.  Functions return S2R_OK or a negative s2r_result and write a
   sentence into fig.error; on error the figure is left as it was. */

#define S2R_PLOT_TEXT_LEN 96     /* bytes per stored title, label or category */
#define S2R_PLOT_MAX_CATEGORIES 256

/* A colour is 0xRRGGBB tagged with bit 24, so that 0 can mean "default". */
#define S2R_RGB(r, g, b) ((uint32_t)0x1000000u | ((uint32_t)(r) << 16) | \
                          ((uint32_t)(g) << 8) | (uint32_t)(b))
#define S2R_COLOR_BLUE      S2R_RGB(0, 114, 178)   /* palette order: 1 */
#define S2R_COLOR_VERMILION S2R_RGB(213, 94, 0)    /* 2 */
#define S2R_COLOR_GREEN     S2R_RGB(0, 158, 115)   /* 3 (bluish green) */
#define S2R_COLOR_ORANGE    S2R_RGB(230, 159, 0)   /* 4 */
#define S2R_COLOR_PURPLE    S2R_RGB(204, 121, 167) /* 5 (reddish purple) */
#define S2R_COLOR_SKY_BLUE  S2R_RGB(86, 180, 233)  /* 6 */
#define S2R_COLOR_BLACK     S2R_RGB(0, 0, 0)       /* 7 */
#define S2R_COLOR_YELLOW    S2R_RGB(240, 228, 66)  /* 8 (weak on white) */
#define S2R_COLOR_GREY      S2R_RGB(90, 90, 90)    /* reference lines */

typedef enum s2r_line_style {
    S2R_LINE_DEFAULT = 0,   /* solid for series, dashed for reference lines */
    S2R_LINE_SOLID,
    S2R_LINE_DASHED,
    S2R_LINE_DOTTED,
    S2R_LINE_STYLE_COUNT
} s2r_line_style;

typedef enum s2r_marker {
    S2R_MARKER_NONE = 0,    /* s2r_plot_scatter draws circles instead */
    S2R_MARKER_CIRCLE,
    S2R_MARKER_SQUARE,
    S2R_MARKER_CROSS,
    S2R_MARKER_COUNT
} s2r_marker;

typedef enum s2r_legend_pos {
    S2R_LEGEND_AUTO = 0,    /* an inside corner that covers no data (the
                               first of UR, UL, LR, LL), else above        */
    S2R_LEGEND_UPPER_RIGHT,
    S2R_LEGEND_UPPER_LEFT,
    S2R_LEGEND_LOWER_RIGHT,
    S2R_LEGEND_LOWER_LEFT,
    S2R_LEGEND_ABOVE,       /* in rows between the title and the plot      */
    S2R_LEGEND_NONE,
    S2R_LEGEND_POS_COUNT
} s2r_legend_pos;

/* How one series or reference line looks.  Zero in any field = default. */
typedef struct s2r_plot_style {
    const char*    label;   /* legend entry; for reference lines, text drawn
                               at the line.  NULL or "" = none.  Copied.    */
    uint32_t       color;   /* S2R_COLOR_* or S2R_RGB(r, g, b).  Default: the
                               panel's next palette colour; a band takes the
                               colour of the series added just before it
                               (if none, of the next one); reference lines
                               are S2R_COLOR_GREY.                          */
    s2r_line_style line;    /* default: solid (reference lines: dashed)    */
    int            width;   /* line width, px, 1..32; default 2            */
    s2r_marker     marker;  /* drawn at each point; default none           */
    int            marker_size; /* marker diameter, px, 1..64; default 3 * width + 2 */
} s2r_plot_style;

/* All defaults (a zeroed style); set the fields you want after it. */
S2RDEF s2r_plot_style s2r_plot_style_default(void);

/* A figure: an RGB image holding a grid of panels.  Caller-owned; make it
   with s2r_figure_init, release it with s2r_figure_free. */
typedef struct s2r_figure {
    int width, height;      /* image size, px                                */
    int rows, cols;         /* panel grid; panel index = row * cols + col    */
    int font_scale;         /* screen px per font px, 1..8; 2 after init     */
    unsigned char* pixels;  /* [height][width][3] RGB, top row first; holds
                               the figure after s2r_figure_render            */
    char error[S2R_ERROR_LEN];
    /* private: use the functions below */
    char title_[S2R_PLOT_TEXT_LEN];
    struct s2r__plot_panel* panels_;   /* [rows * cols]                      */
    struct s2r__plot_item* items_;     /* [item_count_], in the order added  */
    int item_count_, item_cap_;
    int rendered_;          /* pixels and panel geometry match the items     */
} s2r_figure;

/* Make a width x height px figure (at most 16384 each) with rows x cols
   panels (1..16 each, each panel at least 120 x 100 px).  Errors:
   S2R_ERR_INVALID_ARGUMENT, S2R_ERR_OUT_OF_MEMORY (fig is then zeroed but
   for `error`, and s2r_figure_free is still safe). */
S2RDEF s2r_result s2r_figure_init(s2r_figure* fig, int width, int height, int rows, int cols);
/* Release everything; the figure is zeroed (freeing twice is safe). */
S2RDEF void       s2r_figure_free(s2r_figure* fig);
/* Title over all panels (NULL or "" = none). */
S2RDEF s2r_result s2r_figure_title(s2r_figure* fig, const char* title);

/* Panel title and axis labels; NULL leaves one unchanged, "" clears it. */
S2RDEF s2r_result s2r_panel_labels(s2r_figure* fig, int panel, const char* title,
                                   const char* xlabel, const char* ylabel);
/* Fix an axis to [lo, hi] (finite, lo < hi) instead of fitting it.  Data
   outside are clipped at the frame. */
S2RDEF s2r_result s2r_panel_xrange(s2r_figure* fig, int panel, double lo, double hi);
S2RDEF s2r_result s2r_panel_yrange(s2r_figure* fig, int panel, double lo, double hi);
/* Name the n categories of a bar panel (1..S2R_PLOT_MAX_CATEGORIES); labels
   too wide for their slot wrap at spaces.  Bars added earlier must match n. */
S2RDEF s2r_result s2r_panel_categories(s2r_figure* fig, int panel,
                                       const char* const* labels, int n);
/* Where the legend goes (default S2R_LEGEND_AUTO).  It lists the series
   that have a label, in the order added. */
S2RDEF s2r_result s2r_panel_legend(s2r_figure* fig, int panel, s2r_legend_pos pos);

/* A line through (x[i], y[i]), i < n.  x may be NULL: x[i] = i. */
S2RDEF s2r_result s2r_plot_line(s2r_figure* fig, int panel, const double* x,
                                const double* y, int n, const s2r_plot_style* style);
/* Points only (a circle unless style->marker says otherwise). */
S2RDEF s2r_result s2r_plot_scatter(s2r_figure* fig, int panel, const double* x,
                                   const double* y, int n, const s2r_plot_style* style);
/* A translucent band between lo[i] and hi[i] (e.g. mean +- std over seeds);
   x may be NULL. */
S2RDEF s2r_result s2r_plot_band(s2r_figure* fig, int panel, const double* x,
                                const double* lo, const double* hi, int n,
                                const s2r_plot_style* style);
/* One bar per category: value[i] for category i, with an error bar from
   lower[i] to upper[i] (absolute bounds, e.g. a Wilson 95 % interval; both
   NULL = no error bars).  Each call adds a series; the series of a panel
   stand side by side in each category.  If the panel has no categories yet,
   they become "1" .. "n". */
S2RDEF s2r_result s2r_plot_bars(s2r_figure* fig, int panel, const double* value,
                                const double* lower, const double* upper, int n,
                                const s2r_plot_style* style);
/* Counts of `samples` in `bins` equal bins over [lo, hi] (lo == hi: the range
   of the finite samples).  Non-finite samples and samples outside [lo, hi]
   are not counted.  Drawn translucent, so two histograms can overlap. */
S2RDEF s2r_result s2r_plot_histogram(s2r_figure* fig, int panel, const double* samples,
                                     int n, int bins, double lo, double hi,
                                     const s2r_plot_style* style);
/* Reference lines across the panel: y = value (e.g. a gate at 0.85) or
   x = value (e.g. "drift injected"), with style->label written at the line. */
S2RDEF s2r_result s2r_plot_hline(s2r_figure* fig, int panel, double y, const s2r_plot_style* style);
S2RDEF s2r_result s2r_plot_vline(s2r_figure* fig, int panel, double x, const s2r_plot_style* style);

/* Draw everything into fig->pixels.  A panel nothing was drawn in and
   nothing was set on (no title, axis label, range or categories) stays
   blank: a grid with more cells than plots shows no empty axes. */
S2RDEF s2r_result s2r_figure_render(s2r_figure* fig);
/* Render and write a PNG.  S2R_ERR_IO if the file cannot be written (a
   partly written file is removed). */
S2RDEF s2r_result s2r_figure_write_png(s2r_figure* fig, const char* path);
/* Where data point (x, y) of a panel lands in fig->pixels, in px from the
   top-left corner (pixel (i, j) covers [i, i+1) x [j, j+1)).  Valid after a
   render and until the figure changes; S2R_ERR_STATE otherwise, and for a
   panel left blank (nothing in it). */
S2RDEF s2r_result s2r_figure_to_pixel(s2r_figure* fig, int panel, double x, double y,
                                      double* px, double* py);

/* The learning curve of a training run: mean return and success rate of
   the episodes finished in each update's rollout against environment
   steps, two panels, 1100 x 420 px, read back from the CSV s2r_train
   wrote (s2r_training.csv_path; rows as s2r_ppo_stats_csv_row writes
   them) and written to png_path whole.  title may be NULL.  S2R_ERR_IO
   when the CSV cannot be read or the PNG written, S2R_ERR_PARSE when the
   CSV holds no row, S2R_ERR_INVALID_ARGUMENT for a NULL path,
   S2R_ERR_OUT_OF_MEMORY; a sentence in error (S2R_ERROR_LEN). */
S2RDEF s2r_result s2r_plot_training_csv(const char* csv_path, const char* png_path, const char* title, char* error);

/* An identification's fit, seen: trajectory `index` of `valid` (held out)
   replayed on the simulator at the start values (result->start, "sim
   before", dashed) and at the identified ones ("sim after") against what
   was measured ("real"), a panel per joint titled with its rms errors
   before and after; a spare panel, when the grid has one, the rms error
   per joint as bars.  With `residuals`, a second grid below: measured
   minus identified per joint (mrad).  440 px per column of ceil(n / 2)
   columns, 760 px high (1520 with residuals), `title` over it, written to
   png_path whole.  The replay's error, S2R_ERR_OUT_OF_MEMORY or the
   PNG's S2R_ERR_IO, a sentence in error (S2R_ERROR_LEN). */
S2RDEF s2r_result s2r_plot_sysid_replay(s2r_sysid* id, const s2r_sysid_result* result, const s2r_trajectory_set* valid,
                                        int index, int residuals, const char* title, const char* png_path, char* error);

#endif /* S2R_FIGURES_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_FIGURES_IMPLEMENTATION_DONE
#error "s2r_figures.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_FIGURES_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "s2r_figures.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif
/* --- Figures ---------------------------------------------------------------
   stb_image_write encodes the PNG (compiled here as static functions unless
   S2R_NO_STB_IMAGE_WRITE_IMPLEMENTATION says you compile it yourself);
   stb_easy_font supplies the glyphs as rectangles, which we fill. */

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#ifndef S2R__STB_IMAGE_WRITE_INCLUDED
#define S2R__STB_IMAGE_WRITE_INCLUDED
#ifndef S2R_NO_STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if !defined(STBIW_MALLOC) && !defined(STBIW_FREE) && !defined(STBIW_REALLOC)
#define STBIW_MALLOC(sz) S2R_MALLOC(sz)
#define STBIW_REALLOC(p, sz) S2R_REALLOC(p, sz)
#define STBIW_FREE(p) S2R_FREE(p)
#endif
#endif
#include <stb_image_write.h>
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* --- Figures: storage ---------------------------------------------------- */

enum { S2R__PLOT_LINE, S2R__PLOT_SCATTER, S2R__PLOT_BAND, S2R__PLOT_BARS,
       S2R__PLOT_HIST, S2R__PLOT_HLINE, S2R__PLOT_VLINE };

typedef struct s2r__plot_item {
    int kind;               /* S2R__PLOT_*                                     */
    int panel;
    int n;                  /* points, bars or bins                            */
    double* x;              /* [n] x (bars: unused; histogram: [n + 1] edges)  */
    double* y;              /* [n] y, bar values or bin counts                 */
    double* lo;             /* [n] band / error-bar lower bound, or NULL       */
    double* hi;             /* [n] band / error-bar upper bound, or NULL       */
    double value;           /* reference line position (data units)            */
    int bar_index;          /* bars: which series of its panel, from 0         */
    uint32_t rgb;           /* 0xRRGGBB                                        */
    int line, width, marker, marker_size;
    char label[S2R_PLOT_TEXT_LEN];
} s2r__plot_item;

typedef struct s2r__plot_panel {
    char title[S2R_PLOT_TEXT_LEN], xlabel[S2R_PLOT_TEXT_LEN], ylabel[S2R_PLOT_TEXT_LEN];
    double xlim[2], ylim[2];        /* explicit ranges, if has_xlim/has_ylim */
    int has_xlim, has_ylim;
    char* categories;               /* [n_categories][S2R_PLOT_TEXT_LEN]      */
    int n_categories;
    int legend;                     /* s2r_legend_pos                         */
    int next_color;                 /* palette slot for the next series       */
    uint32_t last_rgb;              /* colour of the last series (for bands)  */
    int has_last;                   /* last_rgb is set                        */
    int n_bar_series;
    /* set by rendering: */
    int legend_above;               /* the legend is drawn above the plot     */
    int x0, y0, x1, y1;             /* plot area [x0, x1) x [y0, y1), px      */
    double vx0, vx1, vy0, vy1;      /* data range shown                       */
} s2r__plot_panel;

static const uint32_t s2r__palette[8] = {
    0x0072B2, 0xD55E00, 0x009E73, 0xE69F00, 0xCC79A7, 0x56B4E9, 0x000000, 0xF0E442};

#define S2R__INK 0x222222u       /* text and frame            */
#define S2R__GRID 0xEBEBEBu      /* grid lines                */
#define S2R__MAX_TICKS 24

/* Copy text, cut to S2R_PLOT_TEXT_LEN - 1 bytes; a line break stays only
   if `lines` (category labels), else it becomes a space; other unprintable
   bytes become '?'. */
static void s2r__plot_copy_text(char* dst, const char* src, int lines) {
    int i = 0;
    if (src) {
        for (; src[i] && i < S2R_PLOT_TEXT_LEN - 1; i++) {
            char ch = src[i];
            if (ch == '\n') dst[i] = lines ? '\n' : ' ';
            else dst[i] = (ch >= 32 && ch < 127) ? ch : '?';
        }
    }
    dst[i] = 0;
}

static s2r_result s2r__plot_check_panel(s2r_figure* fig, const char* fn, int panel) {
    if (panel < 0 || panel >= fig->rows * fig->cols)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: panel %d is out of range (the figure has %d x %d panels)",
                         fn, panel, fig->rows, fig->cols);
    return S2R_OK;
}

static s2r_result s2r__plot_check_style(s2r_figure* fig, const char* fn,
                                        const s2r_plot_style* st) {
    if (!st) return S2R_OK;
    if ((int)st->line < 0 || (int)st->line >= (int)S2R_LINE_STYLE_COUNT)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: line style %d is not an s2r_line_style", fn, (int)st->line);
    if ((int)st->marker < 0 || (int)st->marker >= (int)S2R_MARKER_COUNT)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: marker %d is not an s2r_marker", fn, (int)st->marker);
    if (st->width < 0 || st->width > 32 || st->marker_size < 0 || st->marker_size > 64)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: width %d px or marker size %d px out of range "
                         "(0 = default, else 1..32 and 1..64)",
                         fn, st->width, st->marker_size);
    if (st->color != 0 && (st->color >> 24) != 1)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: colour 0x%lx was not made with S2R_RGB()", fn,
                         (unsigned long)st->color);
    return S2R_OK;
}

/* Common checks of every s2r_plot_* call. */
static s2r_result s2r__plot_check(s2r_figure* fig, const char* fn, int panel, int n,
                                  const s2r_plot_style* st) {
    s2r_result r = s2r__plot_check_panel(fig, fn, panel);
    if (r != S2R_OK) return r;
    if (n <= 0)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: empty series (n = %d); give at least one point", fn, n);
    return s2r__plot_check_style(fig, fn, st);
}

static uint32_t s2r__plot_pick_color(s2r__plot_panel* pp, int kind, uint32_t want) {
    uint32_t rgb;
    if (kind == S2R__PLOT_HLINE || kind == S2R__PLOT_VLINE)
        return (want ? want : S2R_COLOR_GREY) & 0xFFFFFFu;
    if (want) rgb = want & 0xFFFFFFu;
    else if (kind != S2R__PLOT_BAND) rgb = s2r__palette[pp->next_color++ % 8];
    else if (pp->has_last) rgb = pp->last_rgb;
    else return s2r__palette[pp->next_color % 8];  /* the next series' colour */
    pp->last_rgb = rgb;
    pp->has_last = 1;
    return rgb;
}

static void s2r__plot_apply_style(s2r__plot_item* it, s2r__plot_panel* pp,
                                  const s2r_plot_style* st) {
    s2r_plot_style none = s2r_plot_style_default();
    if (!st) st = &none;
    it->rgb = s2r__plot_pick_color(pp, it->kind, st->color);
    it->line = (int)st->line;
    if (it->line == S2R_LINE_DEFAULT)
        it->line = (it->kind == S2R__PLOT_HLINE || it->kind == S2R__PLOT_VLINE)
                       ? S2R_LINE_DASHED : S2R_LINE_SOLID;
    it->width = st->width ? st->width : 2;
    it->marker = (int)st->marker;
    if (it->kind == S2R__PLOT_SCATTER && it->marker == S2R_MARKER_NONE)
        it->marker = S2R_MARKER_CIRCLE;
    it->marker_size = st->marker_size ? st->marker_size : 3 * it->width + 2;
    s2r__plot_copy_text(it->label, st->label, 0);
}

/* Append an item with `arrays` zeroed arrays of `len` doubles.  NULL (and an
   error message) if memory runs out; the figure is then unchanged. */
static s2r__plot_item* s2r__plot_add(s2r_figure* fig, const char* fn, int kind, int panel,
                                     int n, int arrays, int len, const s2r_plot_style* st) {
    s2r__plot_item* it;
    double* data = (double*)s2r__calloc((size_t)arrays * (size_t)len, sizeof(double));
    if (!data) goto oom;
    if (fig->item_count_ == fig->item_cap_) {
        int cap = fig->item_cap_ ? 2 * fig->item_cap_ : 16;
        void* grown = S2R_REALLOC(fig->items_, (size_t)cap * sizeof(s2r__plot_item));
        if (!grown) { S2R_FREE(data); goto oom; }
        fig->items_ = (s2r__plot_item*)grown;
        fig->item_cap_ = cap;
    }
    it = &fig->items_[fig->item_count_++];
    memset(it, 0, sizeof *it);
    it->kind = kind; it->panel = panel; it->n = n;
    it->x = data;
    it->y = arrays > 1 ? data + len : NULL;
    it->lo = arrays > 2 ? data + 2 * len : NULL;
    it->hi = arrays > 3 ? data + 3 * len : NULL;
    s2r__plot_apply_style(it, &fig->panels_[panel], st);
    fig->rendered_ = 0;
    return it;
oom:
    s2r__fail(fig->error, S2R_ERR_OUT_OF_MEMORY, "%s: out of memory for %d points", fn, n);
    return NULL;
}

static void s2r__plot_free_panel(s2r__plot_panel* pp) {
    S2R_FREE(pp->categories);
    pp->categories = NULL;
    pp->n_categories = 0;
}

/* --- Figures: figure and panel setup ------------------------------------- */

S2RDEF s2r_plot_style s2r_plot_style_default(void) {
    s2r_plot_style st;
    memset(&st, 0, sizeof st);
    return st;
}

S2RDEF s2r_result s2r_figure_init(s2r_figure* fig, int width, int height, int rows, int cols) {
    S2R_ASSERT(fig);
    memset(fig, 0, sizeof *fig);
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_figure_init: size %d x %d px is outside 1..16384", width, height);
    if (rows < 1 || cols < 1 || rows > 16 || cols > 16)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_figure_init: %d x %d panels is outside 1..16 each", rows, cols);
    if (width / cols < 120 || height / rows < 100)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_figure_init: %d x %d panels in %d x %d px leaves %d x %d px "
                         "each; need at least 120 x 100", rows, cols, width, height,
                         width / cols, height / rows);
    fig->pixels = (unsigned char*)s2r__calloc((size_t)width * (size_t)height, 3);
    fig->panels_ = (s2r__plot_panel*)s2r__calloc((size_t)(rows * cols), sizeof(s2r__plot_panel));
    if (!fig->pixels || !fig->panels_) {
        S2R_FREE(fig->pixels);
        S2R_FREE(fig->panels_);
        fig->pixels = NULL;
        fig->panels_ = NULL;
        return s2r__fail(fig->error, S2R_ERR_OUT_OF_MEMORY,
                         "s2r_figure_init: out of memory for a %d x %d px figure", width, height);
    }
    fig->width = width; fig->height = height;
    fig->rows = rows; fig->cols = cols;
    fig->font_scale = 2;
    return S2R_OK;
}

S2RDEF void s2r_figure_free(s2r_figure* fig) {
    int i;
    if (!fig) return;
    for (i = 0; fig->panels_ && i < fig->rows * fig->cols; i++)
        s2r__plot_free_panel(&fig->panels_[i]);
    for (i = 0; i < fig->item_count_; i++) S2R_FREE(fig->items_[i].x);
    S2R_FREE(fig->items_);
    S2R_FREE(fig->panels_);
    S2R_FREE(fig->pixels);
    memset(fig, 0, sizeof *fig);
}

S2RDEF s2r_result s2r_figure_title(s2r_figure* fig, const char* title) {
    S2R_ASSERT(fig);
    s2r__plot_copy_text(fig->title_, title, 0);
    fig->rendered_ = 0;
    return S2R_OK;
}

S2RDEF s2r_result s2r_panel_labels(s2r_figure* fig, int panel, const char* title,
                                   const char* xlabel, const char* ylabel) {
    s2r__plot_panel* pp;
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check_panel(fig, "s2r_panel_labels", panel)) != S2R_OK) return r;
    pp = &fig->panels_[panel];
    if (title) s2r__plot_copy_text(pp->title, title, 0);
    if (xlabel) s2r__plot_copy_text(pp->xlabel, xlabel, 0);
    if (ylabel) s2r__plot_copy_text(pp->ylabel, ylabel, 0);
    fig->rendered_ = 0;
    return S2R_OK;
}

static s2r_result s2r__plot_set_range(s2r_figure* fig, const char* fn, int panel, int y_axis,
                                      double lo, double hi) {
    s2r__plot_panel* pp;
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check_panel(fig, fn, panel)) != S2R_OK) return r;
    if (!isfinite(lo) || !isfinite(hi) || !(lo < hi))
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: range [%g, %g] must be finite with lo < hi", fn, lo, hi);
    pp = &fig->panels_[panel];
    if (y_axis) { pp->ylim[0] = lo; pp->ylim[1] = hi; pp->has_ylim = 1; }
    else { pp->xlim[0] = lo; pp->xlim[1] = hi; pp->has_xlim = 1; }
    fig->rendered_ = 0;
    return S2R_OK;
}

S2RDEF s2r_result s2r_panel_xrange(s2r_figure* fig, int panel, double lo, double hi) {
    return s2r__plot_set_range(fig, "s2r_panel_xrange", panel, 0, lo, hi);
}

S2RDEF s2r_result s2r_panel_yrange(s2r_figure* fig, int panel, double lo, double hi) {
    return s2r__plot_set_range(fig, "s2r_panel_yrange", panel, 1, lo, hi);
}

/* Replace a panel's categories; labels == NULL gives "1" .. "n". */
static s2r_result s2r__plot_set_categories(s2r_figure* fig, const char* fn, int panel,
                                           const char* const* labels, int n) {
    s2r__plot_panel* pp = &fig->panels_[panel];
    char* names;
    int i;
    if (n < 1 || n > S2R_PLOT_MAX_CATEGORIES)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: %d categories is outside 1..%d", fn, n, S2R_PLOT_MAX_CATEGORIES);
    names = (char*)s2r__calloc((size_t)n, S2R_PLOT_TEXT_LEN);
    if (!names)
        return s2r__fail(fig->error, S2R_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (i = 0; i < n; i++) {
        if (labels) s2r__plot_copy_text(names + i * S2R_PLOT_TEXT_LEN, labels[i], 1);
        else snprintf(names + i * S2R_PLOT_TEXT_LEN, S2R_PLOT_TEXT_LEN, "%d", i + 1);
    }
    s2r__plot_free_panel(pp);
    pp->categories = names;
    pp->n_categories = n;
    fig->rendered_ = 0;
    return S2R_OK;
}

S2RDEF s2r_result s2r_panel_categories(s2r_figure* fig, int panel,
                                       const char* const* labels, int n) {
    const char* fn = "s2r_panel_categories";
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check_panel(fig, fn, panel)) != S2R_OK) return r;
    if (!labels)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT, "%s: labels is NULL", fn);
    if (fig->panels_[panel].n_bar_series > 0 && n != fig->panels_[panel].n_categories)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: %d labels, but the panel's bars have %d values", fn, n,
                         fig->panels_[panel].n_categories);
    return s2r__plot_set_categories(fig, fn, panel, labels, n);
}

S2RDEF s2r_result s2r_panel_legend(s2r_figure* fig, int panel, s2r_legend_pos pos) {
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check_panel(fig, "s2r_panel_legend", panel)) != S2R_OK) return r;
    if ((int)pos < 0 || (int)pos >= (int)S2R_LEGEND_POS_COUNT)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_panel_legend: %d is not an s2r_legend_pos", (int)pos);
    fig->panels_[panel].legend = (int)pos;
    fig->rendered_ = 0;
    return S2R_OK;
}

/* --- Figures: adding data ------------------------------------------------ */

static s2r_result s2r__plot_xy(s2r_figure* fig, const char* fn, int kind, int panel,
                               const double* x, const double* y, int n,
                               const s2r_plot_style* st) {
    s2r__plot_item* it;
    s2r_result r;
    int i;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check(fig, fn, panel, n, st)) != S2R_OK) return r;
    if (!y) return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT, "%s: y is NULL", fn);
    if (!(it = s2r__plot_add(fig, fn, kind, panel, n, 2, n, st))) return S2R_ERR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++) {
        it->x[i] = x ? x[i] : (double)i;
        it->y[i] = y[i];
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_plot_line(s2r_figure* fig, int panel, const double* x,
                                const double* y, int n, const s2r_plot_style* style) {
    return s2r__plot_xy(fig, "s2r_plot_line", S2R__PLOT_LINE, panel, x, y, n, style);
}

S2RDEF s2r_result s2r_plot_scatter(s2r_figure* fig, int panel, const double* x,
                                   const double* y, int n, const s2r_plot_style* style) {
    return s2r__plot_xy(fig, "s2r_plot_scatter", S2R__PLOT_SCATTER, panel, x, y, n, style);
}

S2RDEF s2r_result s2r_plot_band(s2r_figure* fig, int panel, const double* x,
                                const double* lo, const double* hi, int n,
                                const s2r_plot_style* style) {
    const char* fn = "s2r_plot_band";
    s2r__plot_item* it;
    s2r_result r;
    int i;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check(fig, fn, panel, n, style)) != S2R_OK) return r;
    if (!lo || !hi)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT, "%s: lo or hi is NULL", fn);
    if (!(it = s2r__plot_add(fig, fn, S2R__PLOT_BAND, panel, n, 4, n, style)))
        return S2R_ERR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++) {
        it->x[i] = x ? x[i] : (double)i;
        it->lo[i] = lo[i];
        it->hi[i] = hi[i];
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_plot_bars(s2r_figure* fig, int panel, const double* value,
                                const double* lower, const double* upper, int n,
                                const s2r_plot_style* style) {
    const char* fn = "s2r_plot_bars";
    s2r__plot_panel* pp;
    s2r__plot_item* it;
    s2r_result r;
    int i;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check(fig, fn, panel, n, style)) != S2R_OK) return r;
    pp = &fig->panels_[panel];
    if (!value || (!lower) != (!upper))
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: value is NULL, or only one of lower/upper is given", fn);
    if (pp->n_categories > 0 && n != pp->n_categories)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: %d values for a panel with %d categories", fn, n, pp->n_categories);
    if (pp->n_categories == 0 &&
        (r = s2r__plot_set_categories(fig, fn, panel, NULL, n)) != S2R_OK)
        return r;
    if (!(it = s2r__plot_add(fig, fn, S2R__PLOT_BARS, panel, n, lower ? 4 : 2, n, style))) {
        if (pp->n_bar_series == 0) s2r__plot_free_panel(pp);   /* as it was */
        return S2R_ERR_OUT_OF_MEMORY;
    }
    it->bar_index = pp->n_bar_series++;
    for (i = 0; i < n; i++) {
        it->x[i] = (double)i;
        it->y[i] = value[i];
        if (lower) { it->lo[i] = lower[i]; it->hi[i] = upper[i]; }
    }
    return S2R_OK;
}

/* Range of the finite samples; 0 if there are none. */
static int s2r__finite_range(const double* v, int n, double* lo, double* hi) {
    int i, any = 0;
    for (i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        if (!any || v[i] < *lo) *lo = v[i];
        if (!any || v[i] > *hi) *hi = v[i];
        any = 1;
    }
    return any;
}

S2RDEF s2r_result s2r_plot_histogram(s2r_figure* fig, int panel, const double* samples,
                                     int n, int bins, double lo, double hi,
                                     const s2r_plot_style* style) {
    const char* fn = "s2r_plot_histogram";
    s2r__plot_item* it;
    s2r_result r;
    int i;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check(fig, fn, panel, n, style)) != S2R_OK) return r;
    if (!samples || bins < 1 || bins > 10000 || !isfinite(lo) || !isfinite(hi) || lo > hi)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: need samples, 1..10000 bins (got %d) and finite lo <= hi "
                         "(got [%g, %g])", fn, bins, lo, hi);
    if (lo == hi && !s2r__finite_range(samples, n, &lo, &hi))
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: none of the %d samples is finite, so there is no range to bin",
                         fn, n);
    if (lo == hi) { lo -= 0.5; hi += 0.5; }
    if (!(it = s2r__plot_add(fig, fn, S2R__PLOT_HIST, panel, bins, 2, bins + 1, style)))
        return S2R_ERR_OUT_OF_MEMORY;
    for (i = 0; i <= bins; i++) it->x[i] = lo + (hi - lo) * i / bins;
    for (i = 0; i < n; i++) {
        int k;
        if (!isfinite(samples[i]) || samples[i] < lo || samples[i] > hi) continue;
        k = (int)((samples[i] - lo) / (hi - lo) * bins);
        it->y[k < bins ? k : bins - 1] += 1.0;
    }
    return S2R_OK;
}

static s2r_result s2r__plot_refline(s2r_figure* fig, const char* fn, int kind, int panel,
                                    double value, const s2r_plot_style* st) {
    s2r__plot_item* it;
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check(fig, fn, panel, 1, st)) != S2R_OK) return r;
    if (!isfinite(value))
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "%s: position %g is not finite", fn, value);
    if (!(it = s2r__plot_add(fig, fn, kind, panel, 1, 1, 1, st))) return S2R_ERR_OUT_OF_MEMORY;
    it->value = value;
    return S2R_OK;
}

S2RDEF s2r_result s2r_plot_hline(s2r_figure* fig, int panel, double y, const s2r_plot_style* style) {
    return s2r__plot_refline(fig, "s2r_plot_hline", S2R__PLOT_HLINE, panel, y, style);
}

S2RDEF s2r_result s2r_plot_vline(s2r_figure* fig, int panel, double x, const s2r_plot_style* style) {
    return s2r__plot_refline(fig, "s2r_plot_vline", S2R__PLOT_VLINE, panel, x, style);
}

/* --- Figures: pixels ------------------------------------------------------
   Coordinates are doubles in px; pixel (i, j) covers [i, i+1) x [j, j+1).
   Everything drawn is clipped to the canvas' clip rectangle. */

typedef struct s2r__canvas {
    unsigned char* px;      /* [h][w][3] */
    int w, h;
    int cx0, cy0, cx1, cy1; /* clip rectangle [cx0, cx1) x [cy0, cy1) */
} s2r__canvas;

static void s2r__clip_to(s2r__canvas* c, int x0, int y0, int x1, int y1) {
    c->cx0 = x0 < 0 ? 0 : x0;
    c->cy0 = y0 < 0 ? 0 : y0;
    c->cx1 = x1 > c->w ? c->w : x1;
    c->cy1 = y1 > c->h ? c->h : y1;
}

static void s2r__blend(s2r__canvas* c, int x, int y, uint32_t rgb, double a) {
    unsigned char* p;
    int k;
    if (x < c->cx0 || x >= c->cx1 || y < c->cy0 || y >= c->cy1 || !(a > 0)) return;
    if (a > 1) a = 1;
    p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 3;
    for (k = 0; k < 3; k++) {
        double v = (double)((rgb >> (16 - 8 * k)) & 255u);
        p[k] = (unsigned char)(p[k] * (1 - a) + v * a + 0.5);
    }
}

/* Pixel index range [*i0, *i1) of the centres inside [a, b), clipped to [lo, hi). */
static void s2r__span(double a, double b, int lo, int hi, int* i0, int* i1) {
    if (isnan(a) || isnan(b)) { *i0 = *i1 = lo; return; }
    a = s2r_clamp(a, lo - 1.0, hi + 1.0);
    b = s2r_clamp(b, lo - 1.0, hi + 1.0);
    *i0 = (int)ceil(a - 0.5);
    *i1 = (int)ceil(b - 0.5);
    if (*i0 < lo) *i0 = lo;
    if (*i1 > hi) *i1 = hi;
}

static void s2r__fill(s2r__canvas* c, double x0, double y0, double x1, double y1,
                      uint32_t rgb, double a) {
    int i0, i1, j0, j1, i, j;
    if (!(x0 <= x1)) { double t = x0; x0 = x1; x1 = t; }
    if (!(y0 <= y1)) { double t = y0; y0 = y1; y1 = t; }
    s2r__span(x0, x1, c->cx0, c->cx1, &i0, &i1);
    s2r__span(y0, y1, c->cy0, c->cy1, &j0, &j1);
    for (j = j0; j < j1; j++)
        for (i = i0; i < i1; i++) s2r__blend(c, i, j, rgb, a);
}

/* A round-capped anti-aliased segment of the given width (a dot if a == b). */
static void s2r__segment(s2r__canvas* c, double ax, double ay, double bx, double by,
                         double width, uint32_t rgb) {
    double r = 0.5 * width, dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    int i0, i1, j0, j1, i, j;
    s2r__span((ax < bx ? ax : bx) - r - 1, (ax > bx ? ax : bx) + r + 2, c->cx0, c->cx1, &i0, &i1);
    s2r__span((ay < by ? ay : by) - r - 1, (ay > by ? ay : by) + r + 2, c->cy0, c->cy1, &j0, &j1);
    for (j = j0; j < j1; j++) {
        for (i = i0; i < i1; i++) {
            double px = i + 0.5, py = j + 0.5, t = 0, ex, ey;
            if (len2 > 0) t = s2r_clamp(((px - ax) * dx + (py - ay) * dy) / len2, 0, 1);
            ex = ax + t * dx - px;
            ey = ay + t * dy - py;
            s2r__blend(c, i, j, rgb, r + 0.5 - sqrt(ex * ex + ey * ey));
        }
    }
}

/* Liang-Barsky: the part t in [*t0, *t1] of a + t (b - a) inside the box;
   0 if none. */
static int s2r__clip_segment(double ax, double ay, double bx, double by, double xmin,
                             double ymin, double xmax, double ymax, double* t0, double* t1) {
    double p[4], q[4], u0 = 0, u1 = 1;
    int k;
    p[0] = ax - bx; q[0] = ax - xmin;
    p[1] = bx - ax; q[1] = xmax - ax;
    p[2] = ay - by; q[2] = ay - ymin;
    p[3] = by - ay; q[3] = ymax - ay;
    for (k = 0; k < 4; k++) {
        if (p[k] == 0) {
            if (q[k] < 0) return 0;
        } else {
            double u = q[k] / p[k];
            if (p[k] < 0 && u > u0) u0 = u;
            if (p[k] > 0 && u < u1) u1 = u;
        }
    }
    if (u0 > u1) return 0;
    *t0 = u0; *t1 = u1;
    return 1;
}

/* A pen draws solid, dashed or dotted polylines; `phase` (px) carries the
   dash pattern from one segment to the next. */
typedef struct s2r__pen {
    double width, on, off, phase;   /* px; off == 0: solid */
    uint32_t rgb;
} s2r__pen;

static s2r__pen s2r__make_pen(int line, double width, uint32_t rgb) {
    s2r__pen pen;
    pen.width = width; pen.rgb = rgb; pen.phase = 0;
    pen.on = 0; pen.off = 0;
    if (line == S2R_LINE_DASHED) { pen.on = 4 * width + 3; pen.off = 2.5 * width + 2; }
    if (line == S2R_LINE_DOTTED) { pen.on = 0.01; pen.off = 2 * width + 1; }
    return pen;
}

static void s2r__stroke(s2r__canvas* c, s2r__pen* pen, double ax, double ay,
                        double bx, double by) {
    double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy);
    double m = pen->width + 2, t0, t1, pos, end, ph, period = pen->on + pen->off;
    int visible = s2r__clip_segment(ax, ay, bx, by, c->cx0 - m, c->cy0 - m,
                                    c->cx1 + m, c->cy1 + m, &t0, &t1);
    if (visible && pen->off <= 0)
        s2r__segment(c, ax + t0 * dx, ay + t0 * dy, ax + t1 * dx, ay + t1 * dy, pen->width, pen->rgb);
    if (visible && pen->off > 0 && len > 0) {
        pos = t0 * len;
        end = t1 * len;
        ph = fmod(pen->phase + pos, period);
        while (pos < end) {   /* each pass moves to the next dash boundary */
            double step = ph < pen->on ? pen->on - ph : period - ph;
            double stop = pos + step < end ? pos + step : end;
            if (ph < pen->on)
                s2r__segment(c, ax + dx * pos / len, ay + dy * pos / len,
                             ax + dx * stop / len, ay + dy * stop / len, pen->width, pen->rgb);
            ph = ph < pen->on ? pen->on : 0;
            pos += step;
        }
    }
    pen->phase = fmod(pen->phase + len, period > 0 ? period : 1.0);
}

static void s2r__marker(s2r__canvas* c, int marker, double x, double y, double size,
                        uint32_t rgb) {
    double h = 0.5 * size, w = size / 4 > 1.5 ? size / 4 : 1.5;
    if (marker == S2R_MARKER_CIRCLE) s2r__segment(c, x, y, x, y, size, rgb);
    if (marker == S2R_MARKER_SQUARE) s2r__fill(c, x - h, y - h, x + h, y + h, rgb, 1);
    if (marker == S2R_MARKER_CROSS) {
        s2r__segment(c, x - h, y - h, x + h, y + h, w, rgb);
        s2r__segment(c, x - h, y + h, x + h, y - h, w, rgb);
    }
}

/* --- Figures: text --------------------------------------------------------
   stb_easy_font glyphs are made of axis-aligned rectangles on a grid of font
   pixels: capitals are 7 high, descenders reach 9, lines are 12 apart. */

static int s2r__glyph_advance(char ch) {
    char s[2];
    s[0] = (ch >= 32 && ch < 127) ? ch : '?';
    s[1] = 0;
    return stb_easy_font_width(s);
}

/* Width in font px of the line starting at s (up to '\n' or the end). */
static int s2r__line_units(const char* s) {
    int w = 0;
    for (; *s && *s != '\n'; s++) w += s2r__glyph_advance(*s);
    return w > 0 ? w - 1 : 0;
}

static int s2r__text_lines(const char* s) {
    int n = 1;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static int s2r__text_w(const char* s, int scale) {
    int w = 0;
    for (;;) {
        int lw = s2r__line_units(s);
        if (lw > w) w = lw;
        s = strchr(s, '\n');
        if (!s) return w * scale;
        s++;
    }
}

/* Height in px from the top of the first line's capitals to the baseline of
   the last line. */
static int s2r__text_h(const char* s, int scale) {
    return ((s2r__text_lines(s) - 1) * 12 + 7) * scale;
}

/* One glyph with its font origin at (ox, oy); rotated = a quarter turn
   counter-clockwise, reading upwards. */
static void s2r__glyph(s2r__canvas* c, char ch, double ox, double oy, int scale,
                       uint32_t rgb, int rotated) {
    float quads[512];       /* 16 floats per quad; the widest glyph has 11 */
    char s[2];
    int n, k;
    s[0] = (ch >= 32 && ch < 127) ? ch : '?';
    s[1] = 0;
    n = stb_easy_font_print(0, 0, s, NULL, quads, (int)sizeof quads);
    for (k = 0; k < n; k++) {
        const float* q = quads + 16 * k;   /* corner 0 at q[0..1], corner 2 at q[8..9] */
        double u0 = (double)q[0] * scale, v0 = (double)q[1] * scale;
        double u1 = (double)q[8] * scale, v1 = (double)q[9] * scale;
        if (rotated) s2r__fill(c, ox + v0, oy - u1, ox + v1, oy - u0, rgb, 1);
        else s2r__fill(c, ox + u0, oy + v0, ox + u1, oy + v1, rgb, 1);
    }
}

/* Draw text anchored at (x, y): ha = 0/1/2 puts x at the left/centre/right of
   each line, va = 0/1/2 puts y at the top/middle/bottom of the capitals.
   bold draws it twice, one px apart. */
static void s2r__text(s2r__canvas* c, const char* s, double x, double y, int ha, int va,
                      int scale, uint32_t rgb, int bold) {
    double top = floor(y - 0.5 * va * s2r__text_h(s, scale) + 0.5);
    while (s) {
        double left = floor(x - 0.5 * ha * s2r__line_units(s) * scale + 0.5);
        for (; *s && *s != '\n'; s++) {
            s2r__glyph(c, *s, left, top, scale, rgb, 0);
            if (bold) s2r__glyph(c, *s, left + 1, top, scale, rgb, 0);
            left += s2r__glyph_advance(*s) * scale;
        }
        s = *s ? s + 1 : NULL;
        top += 12 * scale;
    }
}

/* One line of text reading upwards, centred on (x, y). */
static void s2r__text_up(s2r__canvas* c, const char* s, double x, double y, int scale,
                         uint32_t rgb) {
    double ox = floor(x - 3.5 * scale + 0.5);
    double oy = floor(y + 0.5 * s2r__line_units(s) * scale + 0.5);
    for (; *s && *s != '\n'; s++) {
        s2r__glyph(c, *s, ox, oy, scale, rgb, 1);
        oy -= s2r__glyph_advance(*s) * scale;
    }
}

/* Greedy word wrap of `in` into lines at most max_px wide at `scale`
   (a single long word stays on its own line).  Returns the line count. */
static int s2r__wrap(const char* in, char* out, int max_px, int scale) {
    int n = 0, line_start = 0, lines = 1;
    while (*in) {
        int word = 0, units = 0;
        while (in[word] && in[word] != ' ' && in[word] != '\n')
            units += s2r__glyph_advance(in[word++]);
        if (n > line_start) {
            out[n] = 0;
            if ((s2r__line_units(out + line_start) + 1 + units) * scale > max_px ||
                in[-1] == '\n') {
                out[n - 1] = '\n';
                line_start = n;
                lines++;
            }
        }
        memcpy(out + n, in, (size_t)word);
        n += word;
        in += word;
        if (*in) out[n++] = ' ', in++;
    }
    out[n] = 0;
    return lines;
}

/* --- Figures: axes --------------------------------------------------------- */

typedef struct s2r__ticks {
    int n;
    double v[S2R__MAX_TICKS];
    char label[S2R__MAX_TICKS][24];
    double step;
} s2r__ticks;

/* The 1, 2 or 5 x 10^k step nearest to span / target. */
static double s2r__nice_step(double span, int target) {
    double raw = span / (target > 0 ? target : 1);
    double mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* Tick labels sharing one format: k/M/G for large values, and as many
   decimals as the step needs. */
static void s2r__format_ticks(s2r__ticks* t) {
    double maxabs = 0, div = 1;
    const char* suffix = "";
    int i, dec;
    for (i = 0; i < t->n; i++) if (fabs(t->v[i]) > maxabs) maxabs = fabs(t->v[i]);
    if (maxabs >= 1e9) { div = 1e9; suffix = "G"; }
    else if (maxabs >= 1e6) { div = 1e6; suffix = "M"; }
    else if (maxabs >= 1e4) { div = 1e3; suffix = "k"; }
    dec = (int)ceil(-log10(t->step / div) - 1e-9);
    if (dec < 0) dec = 0;
    for (i = 0; i < t->n; i++) {
        if (t->v[i] == 0) snprintf(t->label[i], sizeof t->label[i], "0");
        else if (dec > 6) snprintf(t->label[i], sizeof t->label[i], "%.3g", t->v[i]);
        else snprintf(t->label[i], sizeof t->label[i], "%.*f%s", dec, t->v[i] / div, suffix);
    }
}

static void s2r__make_ticks(s2r__ticks* t, double lo, double hi, int target) {
    double k, step = s2r__nice_step(hi - lo, target);
    t->n = 0;
    t->step = step;
    if (!(step > 0) || !isfinite(step) || !isfinite(lo / step)) return;
    for (k = ceil(lo / step - 1e-9); t->n < S2R__MAX_TICKS && k * step <= hi + 1e-9 * step; k++) {
        double v = k * step;
        t->v[t->n++] = fabs(v) < 1e-9 * step ? 0.0 : v;
    }
    s2r__format_ticks(t);
}

/* As many ticks as fit along `length` px without labels crowding. */
static void s2r__choose_ticks(s2r__ticks* t, double lo, double hi, int length, int scale,
                              int horizontal) {
    int target = length / (horizontal ? 40 * scale : 20 * scale), i;
    if (target > 10) target = 10;
    if (target < 2) target = 2;
    for (; target >= 1; target--) {
        double gap_px, need = 0;
        s2r__make_ticks(t, lo, hi, target);
        gap_px = t->step / (hi - lo) * length;
        for (i = 0; i < t->n; i++) {
            double w = horizontal ? s2r__text_w(t->label[i], scale) + 5.0 * scale : 16.0 * scale;
            if (w > need) need = w;
        }
        if (gap_px >= need) return;
    }
}

typedef struct s2r__range { double lo, hi; int any; } s2r__range;

static void s2r__extend(s2r__range* r, double v) {
    if (!isfinite(v)) return;
    if (!r->any || v < r->lo) r->lo = v;
    if (!r->any || v > r->hi) r->hi = v;
    r->any = 1;
}

/* Fitted axis: the data range, widened for constant data, with an optional
   5 % margin, from 0 when `from_zero` and the data allow it. */
static void s2r__fit_axis(s2r__range r, int pad, int from_zero, double* lo, double* hi) {
    double span, m;
    if (!r.any) { *lo = 0; *hi = 1; return; }
    if (from_zero && r.lo > 0) r.lo = 0;
    if (from_zero && r.hi < 0) r.hi = 0;
    span = r.hi - r.lo;
    if (!(span > 1e-9 * (fabs(r.lo) > fabs(r.hi) ? fabs(r.lo) : fabs(r.hi)))) {
        m = r.lo == 0 ? 1 : 0.1 * fabs(r.lo);
        *lo = (from_zero && r.lo == 0) ? 0 : r.lo - m;
        *hi = r.hi + m;
        return;
    }
    m = pad ? 0.05 * span : 0;
    *lo = (from_zero && r.lo == 0) ? 0 : r.lo - m;
    *hi = (from_zero && r.hi == 0) ? 0 : r.hi + m;
}

/* The data ranges a panel shows (fitted or set). */
static void s2r__panel_view(const s2r_figure* fig, int p, s2r__plot_panel* pp) {
    s2r__range xr = {0, 0, 0}, yr = {0, 0, 0};
    int i, k, from_zero = 0, pad_x = 0;
    for (i = 0; i < fig->item_count_; i++) {
        const s2r__plot_item* it = &fig->items_[i];
        if (it->panel != p) continue;
        for (k = 0; k < it->n && it->kind != S2R__PLOT_HLINE && it->kind != S2R__PLOT_VLINE; k++) {
            int pair = it->kind == S2R__PLOT_LINE || it->kind == S2R__PLOT_SCATTER;
            if (pair && (!isfinite(it->x[k]) || !isfinite(it->y[k]))) continue;
            if (it->kind != S2R__PLOT_BARS) s2r__extend(&xr, it->x[k]);
            if (it->kind != S2R__PLOT_BAND) s2r__extend(&yr, it->y[k]);
            if (it->lo) { s2r__extend(&yr, it->lo[k]); s2r__extend(&yr, it->hi[k]); }
        }
        if (it->kind == S2R__PLOT_HIST) s2r__extend(&xr, it->x[it->n]);
        if (it->kind == S2R__PLOT_HLINE) s2r__extend(&yr, it->value);
        if (it->kind == S2R__PLOT_VLINE) s2r__extend(&xr, it->value);
        if (it->kind == S2R__PLOT_BARS || it->kind == S2R__PLOT_HIST) from_zero = 1;
        if (it->marker != S2R_MARKER_NONE) pad_x = 1;
    }
    if (pp->n_categories > 0) {
        s2r__extend(&xr, -0.5);
        s2r__extend(&xr, pp->n_categories - 0.5);
    }
    s2r__fit_axis(xr, pad_x, 0, &pp->vx0, &pp->vx1);
    s2r__fit_axis(yr, 1, from_zero, &pp->vy0, &pp->vy1);
    if (pp->has_xlim) { pp->vx0 = pp->xlim[0]; pp->vx1 = pp->xlim[1]; }
    if (pp->has_ylim) { pp->vy0 = pp->ylim[0]; pp->vy1 = pp->ylim[1]; }
}

static double s2r__map_x(const s2r__plot_panel* pp, double x) {
    double px = pp->x0 + (x - pp->vx0) / (pp->vx1 - pp->vx0) * (pp->x1 - pp->x0);
    return s2r_clamp(px, -1e7, 1e7);
}

static double s2r__map_y(const s2r__plot_panel* pp, double y) {
    double py = pp->y1 - (y - pp->vy0) / (pp->vy1 - pp->vy0) * (pp->y1 - pp->y0);
    return s2r_clamp(py, -1e7, 1e7);
}

/* --- Figures: layout --------------------------------------------------------
   A panel's cell, from the outside in: padding, the y label, the y tick
   labels, ticks, the plot area.  Below the plot: ticks, x tick (or
   category) labels, the x label.  Above it: the title, the legend when it
   goes above, and the labels of vertical lines, so they never cover data. */

typedef struct s2r__layout {
    s2r__ticks xt, yt;
    int cat_scale;          /* scale of category labels, if any           */
    int cat_lines;          /* lines of the tallest category label        */
    int cat_step;           /* label every cat_step-th category (crowded) */
    int tick_len;           /* px                                         */
    int legend_y;           /* top of the legend strip above the plot, px */
    int vlabel_y;           /* bottom of the first row of vline labels    */
} s2r__layout;

/* Scale and line count that let every category label fit its slot; if
   none does, only every cat_step-th category is labelled. */
static void s2r__fit_categories(const s2r__plot_panel* pp, int slot_px, int scale,
                                s2r__layout* L) {
    char wrapped[2 * S2R_PLOT_TEXT_LEN];
    int i, s, lines, widest = 0;
    for (s = scale; s >= 1; s--) {
        lines = 1; widest = 0;
        for (i = 0; i < pp->n_categories; i++) {
            int n = s2r__wrap(pp->categories + i * S2R_PLOT_TEXT_LEN, wrapped, slot_px, s);
            if (n > lines) lines = n;
            if (s2r__text_w(wrapped, s) > widest) widest = s2r__text_w(wrapped, s);
        }
        L->cat_scale = s;
        L->cat_lines = lines;
        L->cat_step = 1;
        if (widest <= slot_px) return;
    }
    L->cat_step = (widest + 4 * scale) / (slot_px > 1 ? slot_px : 1) + 1;
}

static int s2r__in_legend(const s2r__plot_item* it, int p) {
    return it->panel == p && it->label[0] && it->kind != S2R__PLOT_HLINE &&
           it->kind != S2R__PLOT_VLINE;
}

/* The legend's picture of a series, w px wide, centred vertically on y. */
static void s2r__legend_sample(s2r__canvas* c, const s2r__plot_item* it, double x, double y,
                               double w, int scale) {
    if (it->kind == S2R__PLOT_LINE) {
        s2r__pen pen = s2r__make_pen(it->line, it->width, it->rgb);
        s2r__stroke(c, &pen, x, y, x + w, y);
    }
    if (it->marker != S2R_MARKER_NONE)
        s2r__marker(c, it->marker, x + 0.5 * w, y, it->marker_size, it->rgb);
    if (it->kind == S2R__PLOT_BARS || it->kind == S2R__PLOT_HIST || it->kind == S2R__PLOT_BAND)
        s2r__fill(c, x + 0.2 * w, y - 3.5 * scale, x + 0.8 * w, y + 3.5 * scale, it->rgb,
                  it->kind == S2R__PLOT_BARS ? 1.0 : it->kind == S2R__PLOT_HIST ? 0.6 : 0.3);
}

/* The legend as centred rows of entries above the plot, from `top` down.
   Returns the rows used; draws only if c is not NULL. */
static int s2r__legend_strip(const s2r_figure* fig, s2r__canvas* c, int p, int top) {
    const s2r__plot_panel* pp = &fig->panels_[p];
    int s = fig->font_scale, gap = 8 * s, sample = 12 * s + 4, first = 0, rows = 0, i;
    for (;;) {
        int w = 0, end;
        double x;
        for (end = first; end < fig->item_count_; end++) {   /* entries that fit a row */
            int ew = sample + 2 * s + s2r__text_w(fig->items_[end].label, s);
            if (!s2r__in_legend(&fig->items_[end], p)) continue;
            if (w > 0 && w + gap + ew > pp->x1 - pp->x0) break;
            w += (w > 0 ? gap : 0) + ew;
        }
        if (w == 0) return rows;
        x = 0.5 * (pp->x0 + pp->x1 - w);
        for (i = first; i < end && c; i++) {
            const s2r__plot_item* it = &fig->items_[i];
            if (!s2r__in_legend(it, p)) continue;
            s2r__legend_sample(c, it, x, top + rows * 12 * s + 3.5 * s, sample, s);
            s2r__text(c, it->label, x + sample + 2 * s, top + rows * 12 * s, 0, 0, s, S2R__INK, 0);
            x += sample + 2 * s + s2r__text_w(it->label, s) + gap;
        }
        rows++;
        first = end;
    }
}

/* Labels of vertical lines, flag-like from their line, in rows above the
   plot; a label goes to the first row where it overlaps no other.  Row r
   has its bottom at bottom - 11 * scale * r.  Returns the rows used; draws
   only if c is not NULL. */
static int s2r__vline_labels(const s2r_figure* fig, s2r__canvas* c, int p, int bottom,
                             int right) {
    const s2r__plot_panel* pp = &fig->panels_[p];
    double placed[32][3];   /* left, right, row */
    int s = fig->font_scale, i, k, n = 0, rows = 0;
    for (i = 0; i < fig->item_count_; i++) {
        const s2r__plot_item* it = &fig->items_[i];
        double x, w, left;
        int row;
        if (it->panel != p || it->kind != S2R__PLOT_VLINE || !it->label[0]) continue;
        x = s2r__map_x(pp, it->value);
        if (x < pp->x0 - 1 || x > pp->x1 + 1) continue;
        w = s2r__text_w(it->label, s);
        left = x + w + 2 <= right ? x + 2 : x - 2 - w;
        for (row = 0; row < 4; row++) {
            for (k = 0; k < n; k++)
                if (placed[k][2] == row && left < placed[k][1] + 4 * s &&
                    left + w + 4 * s > placed[k][0])
                    break;
            if (k == n) break;
        }
        if (row == 4) row = 3;
        if (n < 32) { placed[n][0] = left; placed[n][1] = left + w; placed[n][2] = row; n++; }
        if (row + 1 > rows) rows = row + 1;
        if (c) s2r__text(c, it->label, left, bottom - 11 * s * row, 0, 2, s, it->rgb, 0);
    }
    return rows;
}

static void s2r__layout_panel(const s2r_figure* fig, int p, const int cell[4], s2r__layout* L) {
    s2r__plot_panel* pp = &fig->panels_[p];
    int s = fig->font_scale, pad = 4 * s, pass, i, yw, right = pad;
    int left = cell[0] + pad + (pp->ylabel[0] ? 11 * s : 0);
    int below = pad + (pp->xlabel[0] ? 12 * s : 0);
    L->tick_len = s + 3;
    L->cat_scale = s;
    L->cat_lines = 1;
    pp->x0 = left; pp->x1 = cell[2] - pad; pp->y0 = cell[1]; pp->y1 = cell[3];
    for (pass = 0; pass < 3; pass++) {   /* each pass refines the previous one's guess */
        int label_h = ((L->cat_lines - 1) * 12 + 9) * L->cat_scale + 3 * s;
        int lrows = pp->legend_above ? s2r__legend_strip(fig, NULL, p, 0) : 0;
        int vrows = s2r__vline_labels(fig, NULL, p, 0, cell[2]);
        L->legend_y = cell[1] + pad + (pp->title[0] ? 12 * s : 0);
        pp->y0 = L->legend_y + lrows * 12 * s + vrows * 11 * s;
        if (!pp->title[0] && !lrows && !vrows) pp->y0 += 2 * s;
        L->vlabel_y = pp->y0 - 3 * s;
        pp->y1 = cell[3] - below - label_h - L->tick_len;
        if (pp->y1 < pp->y0 + 8) pp->y1 = pp->y0 + 8;
        s2r__choose_ticks(&L->yt, pp->vy0, pp->vy1, pp->y1 - pp->y0, s, 0);
        for (yw = 0, i = 0; i < L->yt.n; i++)
            if (s2r__text_w(L->yt.label[i], s) > yw) yw = s2r__text_w(L->yt.label[i], s);
        pp->x0 = left + yw + 2 * s + L->tick_len;
        pp->x1 = cell[2] - right;
        if (pp->x1 < pp->x0 + 8) pp->x1 = pp->x0 + 8;
        if (pp->n_categories) {
            s2r__fit_categories(pp, (int)(0.95 * (pp->x1 - pp->x0) / (pp->vx1 - pp->vx0)), s, L);
        } else {
            s2r__choose_ticks(&L->xt, pp->vx0, pp->vx1, pp->x1 - pp->x0, s, 1);
            if (L->xt.n > 0) {   /* room for half of the last tick label */
                double over = 0.5 * s2r__text_w(L->xt.label[L->xt.n - 1], s) -
                              (pp->x1 - s2r__map_x(pp, L->xt.v[L->xt.n - 1]));
                right = over + s > pad ? (int)(over + s) : pad;
            }
        }
    }
}

/* --- Figures: drawing a panel ------------------------------------------------ */

static void s2r__draw_grid(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__layout* L) {
    int i;
    for (i = 0; i < L->yt.n; i++) {
        double y = floor(s2r__map_y(pp, L->yt.v[i]));
        s2r__fill(c, pp->x0, y, pp->x1, y + 1, S2R__GRID, 1);
    }
    for (i = 0; i < L->xt.n && !pp->n_categories; i++) {
        double x = floor(s2r__map_x(pp, L->xt.v[i]));
        s2r__fill(c, x, pp->y0, x + 1, pp->y1, S2R__GRID, 1);
    }
}

static void s2r__draw_xy(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__plot_item* it) {
    s2r__pen pen = s2r__make_pen(it->line, it->width, it->rgb);
    int k, have_prev = 0;
    double px = 0, py = 0;
    for (k = 0; k < it->n; k++) {
        double qx, qy;
        if (!isfinite(it->x[k]) || !isfinite(it->y[k])) { have_prev = 0; continue; }
        qx = s2r__map_x(pp, it->x[k]);
        qy = s2r__map_y(pp, it->y[k]);
        if (it->kind == S2R__PLOT_LINE && have_prev) s2r__stroke(c, &pen, px, py, qx, qy);
        if (it->kind == S2R__PLOT_LINE && !have_prev && (k + 1 >= it->n ||
            !isfinite(it->x[k + 1]) || !isfinite(it->y[k + 1])) && it->marker == S2R_MARKER_NONE)
            s2r__segment(c, qx, qy, qx, qy, it->width, it->rgb);  /* isolated point */
        px = qx; py = qy; have_prev = 1;
    }
    for (k = 0; k < it->n && it->marker != S2R_MARKER_NONE; k++)
        if (isfinite(it->x[k]) && isfinite(it->y[k]))
            s2r__marker(c, it->marker, s2r__map_x(pp, it->x[k]), s2r__map_y(pp, it->y[k]),
                        it->marker_size, it->rgb);
}

/* Fill between lo and hi column by column; each column belongs to one
   segment, so nothing is blended twice. */
static void s2r__draw_band(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__plot_item* it) {
    int k, i, i0, i1;
    for (k = 0; k + 1 < it->n; k++) {
        double ax, bx, alo, ahi, blo, bhi;
        if (!isfinite(it->x[k]) || !isfinite(it->x[k + 1]) || !isfinite(it->lo[k]) ||
            !isfinite(it->hi[k]) || !isfinite(it->lo[k + 1]) || !isfinite(it->hi[k + 1]))
            continue;
        ax = s2r__map_x(pp, it->x[k]); bx = s2r__map_x(pp, it->x[k + 1]);
        alo = s2r__map_y(pp, it->lo[k]); ahi = s2r__map_y(pp, it->hi[k]);
        blo = s2r__map_y(pp, it->lo[k + 1]); bhi = s2r__map_y(pp, it->hi[k + 1]);
        if (bx == ax) continue;
        s2r__span(ax < bx ? ax : bx, ax < bx ? bx : ax, c->cx0, c->cx1, &i0, &i1);
        for (i = i0; i < i1; i++) {
            double t = (i + 0.5 - ax) / (bx - ax);
            s2r__fill(c, i, alo + t * (blo - alo), i + 1, ahi + t * (bhi - ahi), it->rgb, 0.22);
        }
    }
}

static void s2r__draw_bars(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__plot_item* it) {
    double group = 0.8, w = group / pp->n_bar_series;
    s2r__pen pen = s2r__make_pen(S2R_LINE_SOLID, 2, S2R__INK);
    int k;
    for (k = 0; k < it->n; k++) {
        double l = k - 0.5 * group + it->bar_index * w, r = l + w;
        double xl = s2r__map_x(pp, l + 0.06 * w), xr = s2r__map_x(pp, r - 0.06 * w);
        double xm = 0.5 * (xl + xr), cap = 0.2 * (xr - xl) < 8 ? 0.2 * (xr - xl) : 8;
        if (isfinite(it->y[k]))
            s2r__fill(c, xl, s2r__map_y(pp, 0), xr, s2r__map_y(pp, it->y[k]), it->rgb, 1);
        if (it->lo && isfinite(it->lo[k]) && isfinite(it->hi[k])) {
            double ylo = s2r__map_y(pp, it->lo[k]), yhi = s2r__map_y(pp, it->hi[k]);
            s2r__stroke(c, &pen, xm, ylo, xm, yhi);
            s2r__stroke(c, &pen, xm - cap, ylo, xm + cap, ylo);
            s2r__stroke(c, &pen, xm - cap, yhi, xm + cap, yhi);
        }
    }
}

static void s2r__draw_hist(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__plot_item* it) {
    int k;
    for (k = 0; k < it->n; k++) {
        double xl = floor(s2r__map_x(pp, it->x[k])), xr = floor(s2r__map_x(pp, it->x[k + 1]));
        double y0 = floor(s2r__map_y(pp, 0)), y = floor(s2r__map_y(pp, it->y[k]));
        if (it->y[k] <= 0) continue;
        s2r__fill(c, xl, y, xr, y0, it->rgb, 0.45);
        s2r__fill(c, xl, y, xr + 1, y + 2, it->rgb, 1);      /* top edge   */
        s2r__fill(c, xl, y, xl + 1, y0, it->rgb, 1);         /* left edge  */
        s2r__fill(c, xr, y, xr + 1, y0, it->rgb, 1);         /* right edge */
    }
}

static void s2r__draw_refline(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__plot_item* it) {
    s2r__pen pen = s2r__make_pen(it->line, it->width, it->rgb);
    if (it->kind == S2R__PLOT_HLINE) {
        double y = s2r__map_y(pp, it->value);
        s2r__stroke(c, &pen, pp->x0, y, pp->x1, y);
    } else {
        double x = s2r__map_x(pp, it->value);
        s2r__stroke(c, &pen, x, pp->y0, x, pp->y1);
    }
}

/* Data of one panel, clipped to its plot area, in layers. */
static void s2r__draw_items(const s2r_figure* fig, s2r__canvas* c, int p) {
    static const int layer_of[7] = {3, 3, 0, 1, 1, 2, 2};  /* indexed by S2R__PLOT_* */
    const s2r__plot_panel* pp = &fig->panels_[p];
    s2r__canvas plot = *c;
    int layer, i;
    s2r__clip_to(&plot, pp->x0, pp->y0, pp->x1, pp->y1);
    c = &plot;
    for (layer = 0; layer < 4; layer++) {
        for (i = 0; i < fig->item_count_; i++) {
            const s2r__plot_item* it = &fig->items_[i];
            if (it->panel != p || layer_of[it->kind] != layer) continue;
            if (it->kind == S2R__PLOT_BAND) s2r__draw_band(c, pp, it);
            if (it->kind == S2R__PLOT_BARS) s2r__draw_bars(c, pp, it);
            if (it->kind == S2R__PLOT_HIST) s2r__draw_hist(c, pp, it);
            if (layer == 2) s2r__draw_refline(c, pp, it);
            if (layer == 3) s2r__draw_xy(c, pp, it);
        }
    }
}

static void s2r__draw_frame(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__layout* L,
                            int scale) {
    int i, t = L->tick_len;
    s2r__fill(c, pp->x0 - 1, pp->y0 - 1, pp->x1 + 1, pp->y0, S2R__INK, 1);
    s2r__fill(c, pp->x0 - 1, pp->y1, pp->x1 + 1, pp->y1 + 1, S2R__INK, 1);
    s2r__fill(c, pp->x0 - 1, pp->y0, pp->x0, pp->y1, S2R__INK, 1);
    s2r__fill(c, pp->x1, pp->y0, pp->x1 + 1, pp->y1, S2R__INK, 1);
    for (i = 0; i < L->yt.n; i++) {
        double y = floor(s2r__map_y(pp, L->yt.v[i]));
        s2r__fill(c, pp->x0 - 1 - t, y, pp->x0 - 1, y + 1, S2R__INK, 1);
        s2r__text(c, L->yt.label[i], pp->x0 - 1 - t - 2 * scale, y + 0.5, 2, 1, scale, S2R__INK, 0);
    }
    for (i = 0; i < L->xt.n && !pp->n_categories; i++) {
        double x = floor(s2r__map_x(pp, L->xt.v[i]));
        s2r__fill(c, x, pp->y1 + 1, x + 1, pp->y1 + 1 + t, S2R__INK, 1);
        s2r__text(c, L->xt.label[i], x + 0.5, pp->y1 + 1 + t + 3 * scale, 1, 0, scale, S2R__INK, 0);
    }
}

static void s2r__draw_categories(s2r__canvas* c, const s2r__plot_panel* pp, const s2r__layout* L) {
    char wrapped[2 * S2R_PLOT_TEXT_LEN];
    int i, slot = (int)(0.95 * (pp->x1 - pp->x0) / (pp->vx1 - pp->vx0));
    for (i = 0; i < pp->n_categories; i += L->cat_step > 0 ? L->cat_step : 1) {
        double x = floor(s2r__map_x(pp, i));
        if (x < pp->x0 - 1 || x > pp->x1) continue;
        s2r__wrap(pp->categories + i * S2R_PLOT_TEXT_LEN, wrapped, slot, L->cat_scale);
        s2r__fill(c, x, pp->y1 + 1, x + 1, pp->y1 + 1 + L->tick_len, S2R__INK, 1);
        s2r__text(c, wrapped, x + 0.5, pp->y1 + 1 + L->tick_len + 3 * L->cat_scale, 1, 0,
                  L->cat_scale, S2R__INK, 0);
    }
}

static void s2r__draw_labels(s2r__canvas* c, const s2r__plot_panel* pp, const int cell[4],
                             int scale) {
    int pad = 4 * scale;
    double cx = 0.5 * (pp->x0 + pp->x1);
    if (pp->title[0]) {
        int w = s2r__text_w(pp->title, scale);
        if (cx - 0.5 * w < cell[0] + pad) cx = cell[0] + pad + 0.5 * w;
        s2r__text(c, pp->title, cx, cell[1] + pad, 1, 0, scale, 0x000000, 1);
    }
    if (pp->xlabel[0])
        s2r__text(c, pp->xlabel, 0.5 * (pp->x0 + pp->x1), cell[3] - pad, 1, 2, scale, S2R__INK, 0);
    if (pp->ylabel[0])
        s2r__text_up(c, pp->ylabel, cell[0] + pad + 3.5 * scale, 0.5 * (pp->y0 + pp->y1),
                     scale, S2R__INK);
}

/* Pixels inside the rectangle that are neither background nor grid. */
static long s2r__ink(const s2r__canvas* c, int x0, int y0, int x1, int y1) {
    long n = 0;
    int i, j;
    for (j = y0 < 0 ? 0 : y0; j < y1 && j < c->h; j++)
        for (i = x0 < 0 ? 0 : x0; i < x1 && i < c->w; i++) {
            const unsigned char* q = c->px + ((size_t)j * (size_t)c->w + (size_t)i) * 3;
            uint32_t v = ((uint32_t)q[0] << 16) | ((uint32_t)q[1] << 8) | q[2];
            n += v != 0xFFFFFFu && v != S2R__GRID;
        }
    return n;
}

/* Labels of horizontal lines at their right end, above the line or below
   it (whichever covers less data), on a light box; a label that would hit
   an earlier one moves below it. */
static void s2r__draw_hline_labels(const s2r_figure* fig, s2r__canvas* c, int p) {
    const s2r__plot_panel* pp = &fig->panels_[p];
    double boxes[32][4];
    int i, k, nbox = 0, s = fig->font_scale, m = 3 * s;
    for (i = 0; i < fig->item_count_; i++) {
        const s2r__plot_item* it = &fig->items_[i];
        double w, h, x, y, line, below;
        if (it->panel != p || it->kind != S2R__PLOT_HLINE || !it->label[0]) continue;
        w = s2r__text_w(it->label, s);
        h = s2r__text_h(it->label, s);
        line = s2r__map_y(pp, it->value);
        if (line < pp->y0 - 1 || line > pp->y1 + 1) continue;
        x = pp->x1 - m - w;
        y = line - m - h;   /* above the line, unless below covers less data */
        below = line + m + 2;
        if (y < pp->y0 + m || s2r__ink(c, (int)x, (int)below, (int)(x + w), (int)(below + h)) <
                                  s2r__ink(c, (int)x, (int)y, (int)(x + w), (int)(y + h)))
            y = below;
        for (k = 0; k < nbox; k++)
            if (y < boxes[k][3] && y + h > boxes[k][1]) { y = boxes[k][3] + m; k = -1; }
        if (nbox < 32) {
            boxes[nbox][1] = y; boxes[nbox][3] = y + h;
            nbox++;
        }
        s2r__fill(c, x - 2, y - 2, x + w + 2, y + h + 2 * s + 1, 0xFFFFFF, 0.8);
        s2r__text(c, it->label, x, y, 0, 0, s, it->rgb, 0);
    }
}

/* The legend in a box in a corner of the plot, or above it.  In
   S2R_LEGEND_AUTO, returns 1 without drawing when every corner would cover
   data (more than 0.2 % of the box is ink): the panel then goes again with
   the legend above. */
static int s2r__draw_legend(const s2r_figure* fig, s2r__canvas* c, int p, const s2r__layout* L) {
    const s2r__plot_panel* pp = &fig->panels_[p];
    int s = fig->font_scale, pad = 3 * s, row = 12 * s, sample = 12 * s + 4, inset = 4 * s;
    int i, n = 0, textw = 0, w, h, k, y, xs[4], ys[4];
    long best = -1;
    if (pp->legend_above) { s2r__legend_strip(fig, c, p, L->legend_y); return 0; }
    for (i = 0; i < fig->item_count_; i++) {
        if (!s2r__in_legend(&fig->items_[i], p)) continue;
        n++;
        if (s2r__text_w(fig->items_[i].label, s) > textw) textw = s2r__text_w(fig->items_[i].label, s);
    }
    if (n == 0 || pp->legend == S2R_LEGEND_NONE) return 0;
    w = 2 * pad + sample + 2 * s + textw;
    h = 2 * pad + n * row - 5 * s;
    xs[0] = xs[2] = pp->x1 - inset - w;  xs[1] = xs[3] = pp->x0 + inset;   /* UR UL LR LL */
    ys[0] = ys[1] = pp->y0 + inset;      ys[2] = ys[3] = pp->y1 - inset - h;
    k = pp->legend - 1;
    for (i = 0; i < 4 && pp->legend == S2R_LEGEND_AUTO; i++) {   /* first least-covered */
        long ink = s2r__ink(c, xs[i], ys[i], xs[i] + w, ys[i] + h);
        if (best < 0 || ink < best) { best = ink; k = i; }
    }
    if (pp->legend == S2R_LEGEND_AUTO && best * 500 > (long)w * h) return 1;
    s2r__fill(c, xs[k], ys[k], xs[k] + w, ys[k] + h, 0xFFFFFF, 0.9);
    s2r__fill(c, xs[k], ys[k], xs[k] + w, ys[k] + 1, 0xBBBBBB, 1);
    s2r__fill(c, xs[k], ys[k] + h - 1, xs[k] + w, ys[k] + h, 0xBBBBBB, 1);
    s2r__fill(c, xs[k], ys[k], xs[k] + 1, ys[k] + h, 0xBBBBBB, 1);
    s2r__fill(c, xs[k] + w - 1, ys[k], xs[k] + w, ys[k] + h, 0xBBBBBB, 1);
    for (y = ys[k] + pad, i = 0; i < fig->item_count_; i++) {
        const s2r__plot_item* it = &fig->items_[i];
        if (!s2r__in_legend(it, p)) continue;
        s2r__legend_sample(c, it, xs[k] + pad, y + 3.5 * s, sample, s);
        s2r__text(c, it->label, xs[k] + pad + sample + 2 * s, y, 0, 0, s, S2R__INK, 0);
        y += row;
    }
    return 0;
}

/* Draw panel p inside its cell; nothing it draws leaves the cell. */
static void s2r__render_panel(s2r_figure* fig, const s2r__canvas* image, int p, const int cell[4]) {
    s2r__plot_panel* pp = &fig->panels_[p];
    s2r__canvas cell_canvas = *image, *c = &cell_canvas;
    s2r__layout L;
    int attempt;
    s2r__clip_to(c, cell[0], cell[1], cell[2], cell[3]);
    pp->legend_above = pp->legend == S2R_LEGEND_ABOVE;
    for (attempt = 0; attempt < 2; attempt++) {
        memset(&L, 0, sizeof L);
        s2r__fill(c, cell[0], cell[1], cell[2], cell[3], 0xFFFFFF, 1);
        s2r__panel_view(fig, p, pp);
        s2r__layout_panel(fig, p, cell, &L);
        s2r__draw_grid(c, pp, &L);
        s2r__draw_items(fig, c, p);
        s2r__draw_frame(c, pp, &L, fig->font_scale);
        if (pp->n_categories) s2r__draw_categories(c, pp, &L);
        s2r__draw_labels(c, pp, cell, fig->font_scale);
        s2r__vline_labels(fig, c, p, L.vlabel_y, cell[2]);
        s2r__draw_hline_labels(fig, c, p);
        if (!s2r__draw_legend(fig, c, p, &L)) return;
        pp->legend_above = 1;
    }
}

/* --- Figures: rendering and writing ------------------------------------------ */

/* Whether panel p has anything to draw: an item, a title, an axis label,
   a fixed range or categories.  One with none stays blank. */
static int s2r__panel_used(const s2r_figure* fig, int p) {
    const s2r__plot_panel* pp = &fig->panels_[p];
    int i;
    if (pp->title[0] || pp->xlabel[0] || pp->ylabel[0] || pp->has_xlim || pp->has_ylim || pp->n_categories) return 1;
    for (i = 0; i < fig->item_count_; i++)
        if (fig->items_[i].panel == p) return 1;
    return 0;
}

S2RDEF s2r_result s2r_figure_render(s2r_figure* fig) {
    s2r__canvas c;
    int p, top = 0, s;
    S2R_ASSERT(fig);
    if (!fig->pixels)
        return s2r__fail(fig->error, S2R_ERR_STATE, "s2r_figure_render: figure not initialized");
    if (fig->font_scale < 1 || fig->font_scale > 8)
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_figure_render: font_scale %d is outside 1..8", fig->font_scale);
    s = fig->font_scale;
    c.px = fig->pixels; c.w = fig->width; c.h = fig->height;
    s2r__clip_to(&c, 0, 0, c.w, c.h);
    memset(fig->pixels, 255, (size_t)fig->width * (size_t)fig->height * 3);
    if (fig->title_[0]) {
        s2r__text(&c, fig->title_, 0.5 * fig->width, 4 * s, 1, 0, s + 1, 0x000000, 1);
        top = s2r__text_h(fig->title_, s + 1) + 6 * s;
    }
    for (p = 0; p < fig->rows * fig->cols; p++) {
        int row = p / fig->cols, col = p % fig->cols, cell[4], h = fig->height - top;
        cell[0] = col * fig->width / fig->cols;
        cell[2] = (col + 1) * fig->width / fig->cols;
        cell[1] = top + row * h / fig->rows;
        cell[3] = top + (row + 1) * h / fig->rows;
        if (s2r__panel_used(fig, p)) s2r__render_panel(fig, &c, p, cell);   /* else left white */
    }
    fig->rendered_ = 1;
    return S2R_OK;
}

typedef struct s2r__png_sink { FILE* f; int failed; } s2r__png_sink;

static void s2r__png_write(void* context, void* data, int size) {
    s2r__png_sink* sink = (s2r__png_sink*)context;
    if (!sink->failed && fwrite(data, 1, (size_t)size, sink->f) != (size_t)size) sink->failed = 1;
}

/* An RGB image [h][w][3] to a PNG file, whole or not at all (s2r_file). */
static s2r_result s2r__write_png(const char* path, int w, int h, const unsigned char* rgb, const char* who,
                                 char* error) {
    s2r__png_sink sink;
    s2r_file file;
    s2r_result r;
    int ok;
    if (!path || !path[0]) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%s: no file name given", who);
    if ((r = s2r_file_create(&file, path, error)) != S2R_OK) return r;
    sink.failed = 0;
    sink.f = file.f;
    ok = stbi_write_png_to_func(s2r__png_write, &sink, w, h, 3, rgb, w * 3);
    if (!ok || sink.failed) {
        s2r_file_discard(&file);
        return s2r__fail(error, S2R_ERR_IO, "%s: writing '%s' failed (%s)", who, path,
                         ok ? "disk full or I/O error" : "PNG encoder out of memory");
    }
    return s2r_file_commit(&file, error);
}

S2RDEF s2r_result s2r_figure_write_png(s2r_figure* fig, const char* path) {
    s2r_result r;
    S2R_ASSERT(fig);
    if (!path || !path[0])
        return s2r__fail(fig->error, S2R_ERR_INVALID_ARGUMENT,
                         "s2r_figure_write_png: no file name given");
    if ((r = s2r_figure_render(fig)) != S2R_OK) return r;
    return s2r__write_png(path, fig->width, fig->height, fig->pixels, "s2r_figure_write_png", fig->error);
}

S2RDEF s2r_result s2r_figure_to_pixel(s2r_figure* fig, int panel, double x, double y,
                                      double* px, double* py) {
    s2r_result r;
    S2R_ASSERT(fig);
    if ((r = s2r__plot_check_panel(fig, "s2r_figure_to_pixel", panel)) != S2R_OK) return r;
    if (!fig->rendered_)
        return s2r__fail(fig->error, S2R_ERR_STATE, "s2r_figure_to_pixel: the figure changed "
                         "since it was last rendered; call s2r_figure_render first");
    if (!s2r__panel_used(fig, panel))
        return s2r__fail(fig->error, S2R_ERR_STATE, "s2r_figure_to_pixel: panel %d has nothing in it and was left "
                         "blank", panel);
    if (px) *px = s2r__map_x(&fig->panels_[panel], x);
    if (py) *py = s2r__map_y(&fig->panels_[panel], y);
    return S2R_OK;
}

/* --- Figures: the learning curve of a training CSV ------------------------- */

/* The rows of a training CSV into *rows (S2R_MALLOC'd, *count of them). */
static s2r_result s2r__training_csv_rows(const char* path, s2r_ppo_stats** rows, int* count, char* error) {
    char line[512];
    int capacity = 0;
    s2r_ppo_stats s;
    FILE* f = fopen(path, "rb");
    *rows = NULL;
    *count = 0;
    if (!f) return s2r__fail(error, S2R_ERR_IO, "cannot read the training CSV '%s': %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        if (!s2r_ppo_stats_csv_parse(line, &s)) continue;   /* the header */
        if (*count == capacity) {
            s2r_ppo_stats* grown;
            capacity = capacity ? 2 * capacity : 64;
            grown = (s2r_ppo_stats*)S2R_REALLOC(*rows, (size_t)capacity * sizeof **rows);
            if (!grown) {
                fclose(f);
                S2R_FREE(*rows);
                *rows = NULL;
                return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the rows of '%s'", path);
            }
            *rows = grown;
        }
        (*rows)[(*count)++] = s;
    }
    fclose(f);
    if (*count == 0) return s2r__fail(error, S2R_ERR_PARSE, "%s: no training rows (is it a training CSV?)", path);
    return S2R_OK;
}

/* Learning curve: mean return and success rate of each update's episodes,
   against environment steps, into path. */
static s2r_result s2r__plot_learning_curve(const char* path, const char* title, const s2r_ppo_stats* s, int n,
                                           char* error) {
    s2r_figure fig;
    double* x = (double*)s2r__calloc((size_t)(3 * n), sizeof(double));
    s2r_plot_style style = s2r_plot_style_default();
    s2r_result res;
    int i;
    if (!x) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "out of memory for the learning curve");
    for (i = 0; i < n; i++) {
        x[i] = (double)s[i].global_step;
        x[n + i] = s[i].mean_return;       /* NAN when no episode ended: a gap */
        x[2 * n + i] = s[i].success_rate;
    }
    res = s2r_figure_init(&fig, 1100, 420, 1, 2);
    if (res == S2R_OK) {
        if (title) s2r_figure_title(&fig, title);
        s2r_panel_labels(&fig, 0, "episode return (training, stochastic)", "environment steps", "return");
        s2r_panel_labels(&fig, 1, "success rate (training, stochastic)", "environment steps", "success");
        s2r_panel_yrange(&fig, 1, 0, 1);
        s2r_plot_line(&fig, 0, x, x + n, n, &style);
        s2r_plot_line(&fig, 1, x, x + 2 * n, n, &style);
        res = s2r_figure_write_png(&fig, path);
        if (res != S2R_OK) s2r__fail(error, res, "%s", fig.error);
        s2r_figure_free(&fig);
    } else {
        s2r__fail(error, res, "%s", fig.error);
    }
    S2R_FREE(x);
    return res;
}

S2RDEF s2r_result s2r_plot_training_csv(const char* csv_path, const char* png_path, const char* title, char* error) {
    s2r_ppo_stats* rows;
    int n;
    s2r_result res;
    if (!csv_path || !png_path)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_plot_training_csv: the CSV and the PNG path are required");
    if ((res = s2r__training_csv_rows(csv_path, &rows, &n, error)) != S2R_OK) return res;
    res = s2r__plot_learning_curve(png_path, title, rows, n, error);
    S2R_FREE(rows);
    return res;
}

/* --- Figures: an identification's fit ---------------------------------------- */

/* One joint's panel: real, sim before and sim after (legend on the first
   panel only), and with `residual_panel` >= 0 real - after there; returns
   the rms errors before and after in e[2] (rad).  t, q [3][ns] scratch. */
static void s2r__plot_sysid_joint(s2r_figure* fig, int j, int residual_panel, const s2r_trajectory_set* valid, int index,
                                  const double* before, const double* after, double* t, double* q, double e[2]) {
    static const char* const labels[3] = {"real", "sim before", "sim after"};
    const uint32_t colors[3] = {S2R_COLOR_BLACK, S2R_COLOR_VERMILION, S2R_COLOR_BLUE};
    s2r_plot_style style = s2r_plot_style_default();
    int n = valid->n_joints, ns = valid->n_samples, k, c;
    const double* real = valid->q + (size_t)index * ns * n;
    char text[64];
    e[0] = e[1] = 0;
    for (k = 0; k < ns; k++) {
        t[k] = (k + 1) * valid->sample_period;
        q[k] = real[(size_t)k * n + j];
        q[ns + k] = before[(size_t)k * n + j];
        q[2 * ns + k] = after[(size_t)k * n + j];
        e[0] += (q[ns + k] - q[k]) * (q[ns + k] - q[k]) / ns;
        e[1] += (q[2 * ns + k] - q[k]) * (q[2 * ns + k] - q[k]) / ns;
    }
    e[0] = sqrt(e[0]);
    e[1] = sqrt(e[1]);
    snprintf(text, sizeof text, "joint %d: %.1f -> %.1f mrad rms", j + 1, 1000 * e[0], 1000 * e[1]);
    s2r_panel_labels(fig, j, text, "time (s)", "q (rad)");
    for (c = 0; c < 3; c++) {
        style.color = colors[c];
        style.line = c == 1 ? S2R_LINE_DASHED : S2R_LINE_SOLID;
        style.width = c == 0 ? 3 : 2;
        style.label = j == 0 ? labels[c] : NULL;
        s2r_plot_line(fig, j, t, q + (size_t)c * ns, ns, &style);
    }
    if (residual_panel < 0) return;
    for (k = 0; k < ns; k++) q[k] = 1000 * (q[k] - q[2 * ns + k]);
    snprintf(text, sizeof text, "joint %d: real - sim after", j + 1);
    s2r_panel_labels(fig, residual_panel, text, "time (s)", "residual (mrad)");
    style = s2r_plot_style_default();
    style.color = S2R_COLOR_BLUE;
    s2r_plot_line(fig, residual_panel, t, q, ns, &style);
    style.label = NULL;
    s2r_plot_hline(fig, residual_panel, 0, &style);
}

S2RDEF s2r_result s2r_plot_sysid_replay(s2r_sysid* id, const s2r_sysid_result* result, const s2r_trajectory_set* valid,
                                        int index, int residuals, const char* title, const char* png_path, char* error) {
    int n, ns, j, cols;
    double e[2], rms[2][S2R_MAX_JOINTS], *before, *after, *t, *q;
    s2r_plot_style style = s2r_plot_style_default();
    s2r_figure fig;
    s2r_result res;
    if (!id || !result || !valid || !png_path || index < 0 || index >= valid->count)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "plot sysid replay: id, result, a trajectory of valid and a "
                         "path are needed");
    n = valid->n_joints;
    ns = valid->n_samples;
    cols = (n + 1) / 2;
    before = (double*)s2r__calloc((size_t)ns * n, sizeof(double));
    after = (double*)s2r__calloc((size_t)ns * n, sizeof(double));
    t = (double*)s2r__calloc((size_t)ns, sizeof(double));
    q = (double*)s2r__calloc((size_t)ns * 3, sizeof(double));
    if (!before || !after || !t || !q) res = s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "plot sysid replay: out of memory");
    else if ((res = s2r_sysid_simulate(id, result->start, valid, index, before, NULL)) != S2R_OK ||
             (res = s2r_sysid_simulate(id, result->value, valid, index, after, NULL)) != S2R_OK)
        s2r__fail(error, res, "%s", id->error);
    else if ((res = s2r_figure_init(&fig, 440 * cols, residuals ? 1520 : 760, residuals ? 4 : 2, cols)) != S2R_OK)
        s2r__fail(error, res, "%s", fig.error);
    if (res == S2R_OK) {
        s2r_figure_title(&fig, title);
        for (j = 0; j < n; j++) {
            s2r__plot_sysid_joint(&fig, j, residuals ? 2 * cols + j : -1, valid, index, before, after, t, q, e);
            rms[0][j] = 1000 * e[0];
            rms[1][j] = 1000 * e[1];
        }
        if (n < 2 * cols) {   /* the spare panel */
            s2r_panel_labels(&fig, n, "rms error per joint", "joint", "mrad");
            style.color = S2R_COLOR_VERMILION; style.label = "before";
            s2r_plot_bars(&fig, n, rms[0], NULL, NULL, n, &style);
            style.color = S2R_COLOR_BLUE; style.label = "after";
            s2r_plot_bars(&fig, n, rms[1], NULL, NULL, n, &style);
        }
        if ((res = s2r_figure_write_png(&fig, png_path)) != S2R_OK) s2r__fail(error, res, "%s", fig.error);
        s2r_figure_free(&fig);
    }
    if (before) S2R_FREE(before);
    if (after) S2R_FREE(after);
    if (t) S2R_FREE(t);
    if (q) S2R_FREE(q);
    return res;
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
