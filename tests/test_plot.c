/* tests/test_plot.c - tests of the figures (examples/s2r_figures.h).

   Each test draws a small figure and checks pixels where the data must (or
   must not) land, using s2r_figure_to_pixel to find them; PNGs are decoded
   again with stb_image to check they are real images of the right size.
   Files go to S2R_TEST_TMP (default /tmp).

   Included by tests/test_main.c. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image_decoder.h"

#ifndef S2R_TEST_TMP
#define S2R_TEST_TMP "/tmp"
#endif

/* --- helpers ------------------------------------------------------------- */

/* The pixel holding image point (x, y) px, or NULL outside the image. */
static const unsigned char* plot_pixel(const s2r_figure* fig, double x, double y) {
    int i = (int)x, j = (int)y;
    if (x < 0 || y < 0 || i >= fig->width || j >= fig->height) return NULL;
    return fig->pixels + ((size_t)j * (size_t)fig->width + (size_t)i) * 3;
}

/* The pixel where data point (x, y) of a panel lands. */
static const unsigned char* plot_at(s2r_figure* fig, int panel, double x, double y) {
    double px, py;
    if (s2r_figure_to_pixel(fig, panel, x, y, &px, &py) != S2R_OK) return NULL;
    return plot_pixel(fig, px, py);
}

/* Largest channel difference between a pixel and a tagged colour. */
static int plot_diff(const unsigned char* p, uint32_t rgb) {
    int k, d = 0;
    if (!p) return 999;
    for (k = 0; k < 3; k++) {
        int v = (int)((rgb >> (16 - 8 * k)) & 255u) - p[k];
        if (v < 0) v = -v;
        if (v > d) d = v;
    }
    return d;
}

static int plot_is_white(const unsigned char* p) {
    return p && p[0] == 255 && p[1] == 255 && p[2] == 255;
}

/* Something is drawn at p. */
static int plot_is_ink(const unsigned char* p) {
    return p && !plot_is_white(p);
}

/* Pixels in [x0, x1) x [y0, y1) within `tol` of a colour. */
static int plot_count(const s2r_figure* fig, int x0, int y0, int x1, int y1, uint32_t rgb,
                      int tol) {
    int i, j, n = 0;
    for (j = y0; j < y1; j++)
        for (i = x0; i < x1; i++) {
            const unsigned char* p = plot_pixel(fig, i, j);
            if (p && plot_diff(p, rgb) <= tol) n++;
        }
    return n;
}

/* A 400 x 300 figure with one panel fixed to [0, 10] x [0, 10]. */
static int plot_square(s2r_figure* fig) {
    if (s2r_figure_init(fig, 400, 300, 1, 1) != S2R_OK) return 0;
    return s2r_panel_xrange(fig, 0, 0, 10) == S2R_OK && s2r_panel_yrange(fig, 0, 0, 10) == S2R_OK;
}

/* --- tests --------------------------------------------------------------- */

static int test_plot_png_roundtrip(void) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const char* path = S2R_TEST_TMP "/s2r_test_plot_roundtrip.png";
    double y[5] = {0.1, 0.4, 0.35, 0.8, 0.9};
    unsigned char head[8];
    unsigned char* img;
    int w = 0, h = 0, comp = 0, same;
    FILE* f;
    s2r_figure fig;
    remove(path);
    CHECK(s2r_figure_init(&fig, 321, 207, 1, 1) == S2R_OK);
    CHECK(s2r_panel_labels(&fig, 0, "round trip", "step", "success") == S2R_OK);
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 5, NULL) == S2R_OK);
    CHECKF(s2r_figure_write_png(&fig, path) == S2R_OK, "%s", fig.error);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    CHECK(fread(head, 1, 8, f) == 8);
    fclose(f);
    CHECK(memcmp(head, sig, 8) == 0);
    img = stbi_load(path, &w, &h, &comp, 3);
    CHECK(img != NULL);
    CHECKF(w == 321 && h == 207 && comp == 3, "decoded %d x %d x %d", w, h, comp);
    same = memcmp(img, fig.pixels, (size_t)w * (size_t)h * 3) == 0;
    stbi_image_free(img);
    s2r_figure_free(&fig);
    remove(path);
    CHECK(same);   /* PNG is lossless: the file holds exactly the rendered pixels */
    return 0;
}

/* A training CSV (as s2r_train writes it) drawn as a learning curve: a PNG of
   1100 x 420 px; a missing CSV, one with no rows, a NULL path and an
   unwritable PNG are errors with a sentence, and leave no PNG. */
static int test_plot_training_csv(void) {
    const char* csv = S2R_TEST_TMP "/s2r_test_plot_training.csv";
    const char* png = S2R_TEST_TMP "/s2r_test_plot_training.png";
    char error[S2R_ERROR_LEN];
    s2r_ppo_stats st;
    unsigned char* img;
    int i, w = 0, h = 0, comp = 0;
    FILE* f = fopen(csv, "wb");
    CHECK(f != NULL);
    memset(&st, 0, sizeof st);
    CHECK(s2r_ppo_stats_csv_header(f) == S2R_OK);
    for (i = 1; i <= 6; i++) {
        st.update = i;
        st.global_step = 2048LL * i;
        st.mean_return = i == 3 ? NAN : (float)(10 * i);   /* no episode ended: a gap */
        st.success_rate = i == 3 ? NAN : 0.15f * (float)i;
        CHECK(s2r_ppo_stats_csv_row(f, &st) == S2R_OK);
    }
    fclose(f);
    remove(png);
    CHECKF(s2r_plot_training_csv(csv, png, "seed 1", error) == S2R_OK, "%s", error);
    img = stbi_load(png, &w, &h, &comp, 3);
    CHECK(img != NULL);
    stbi_image_free(img);
    CHECKF(w == 1100 && h == 420, "decoded %d x %d", w, h);
    remove(png);
    CHECK(s2r_plot_training_csv(S2R_TEST_TMP "/s2r_test_no_such.csv", png, NULL, error) == S2R_ERR_IO &&
          strstr(error, "s2r_test_no_such.csv"));
    CHECK(s2r_plot_training_csv(NULL, png, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_training_csv(csv, NULL, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_training_csv(csv, S2R_TEST_TMP "/s2r_no_such_folder/x.png", NULL, error) == S2R_ERR_IO && error[0]);
    f = fopen(csv, "wb");
    CHECK(f != NULL);
    CHECK(s2r_ppo_stats_csv_header(f) == S2R_OK);   /* the header alone */
    fclose(f);
    CHECK(s2r_plot_training_csv(csv, png, NULL, error) == S2R_ERR_PARSE && strstr(error, "no training rows"));
    CHECK((f = fopen(png, "rb")) == NULL);
    remove(csv);
    return 0;
}

/* s2r_ppo_stats_csv_parse reads back what s2r_ppo_stats_csv_row wrote, and
   refuses the header. */
static int test_plot_stats_csv_parse(void) {
    char line[512];
    s2r_ppo_stats a, b;
    FILE* f = tmpfile();
    CHECK(f != NULL);
    memset(&a, 0, sizeof a);
    a.update = 7; a.global_step = 123456789LL; a.learning_rate = 3e-4f; a.episodes = 12;
    a.mean_return = -4.5f; a.success_rate = 0.25f; a.minibatches = 32; a.skipped = 1; a.diverged = 2;
    CHECK(s2r_ppo_stats_csv_header(f) == S2R_OK && s2r_ppo_stats_csv_row(f, &a) == S2R_OK);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(!s2r_ppo_stats_csv_parse(line, &b));
    CHECK(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    CHECK(s2r_ppo_stats_csv_parse(line, &b));
    CHECK(b.update == 7 && b.global_step == 123456789LL && b.episodes == 12 && b.mean_return == -4.5f &&
          b.success_rate == 0.25f && b.minibatches == 32 && b.skipped == 1 && b.diverged == 2);
    CHECK(!s2r_ppo_stats_csv_parse("7,8,not a number", &b));
    return 0;
}

/* The example in the section's manual, as written there (but for the path). */
static int test_plot_manual_example(void) {
    double steps[50], success[50];
    int i, n = 50;
    for (i = 0; i < n; i++) { steps[i] = i * 2e4; success[i] = 0.9 * i / (n - 1.0); }
    {
        s2r_figure fig;
        s2r_plot_style gate = s2r_plot_style_default();   // all defaults
        if (s2r_figure_init(&fig, 900, 600, 1, 1) != S2R_OK) { printf("%s\n", fig.error); return 1; }
        s2r_panel_labels(&fig, 0, "PPO on the UR5e", "environment steps", "success rate");
        s2r_plot_line(&fig, 0, steps, success, n, NULL);   // NULL: default style
        gate.label = "gate 0.85";
        s2r_plot_hline(&fig, 0, 0.85, &gate);               // grey, dashed
        if (s2r_figure_write_png(&fig, S2R_TEST_TMP "/s2r_test_plot_manual.png") != S2R_OK) {
            printf("%s\n", fig.error);
            s2r_figure_free(&fig);
            return 1;
        }
        s2r_figure_free(&fig);
    }
    remove(S2R_TEST_TMP "/s2r_test_plot_manual.png");
    return 0;
}

static int test_plot_line_colours_pixels(void) {
    double x[2] = {0, 10}, y[2] = {0, 10}, t;
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.color = S2R_COLOR_VERMILION;
    st.width = 3;
    CHECK(plot_square(&fig));
    CHECK(s2r_plot_line(&fig, 0, x, y, 2, &st) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    for (t = 1; t < 9.5; t += 1.0) {   /* on the diagonal: the line's colour */
        const unsigned char* p = plot_at(&fig, 0, t, t);
        CHECK(p != NULL);
        CHECKF(plot_diff(p, S2R_COLOR_VERMILION) <= 8, "at (%g, %g): %d %d %d", t, t, p[0], p[1], p[2]);
    }
    {   /* far from it: no trace of the colour */
        const unsigned char* p = plot_at(&fig, 0, 2, 7);
        CHECK(p != NULL && plot_diff(p, S2R_COLOR_VERMILION) > 100);
    }
    s2r_figure_free(&fig);
    return 0;
}

static int test_plot_nan_breaks_line(void) {
    double nan = strtod("nan", NULL), inf = strtod("inf", NULL);
    double x[7] = {0, 1, 2, 3, 4, 5, 6}, y[7];
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.color = S2R_COLOR_BLUE;
    y[0] = 0; y[1] = 1; y[2] = nan; y[3] = 3; y[4] = 4; y[5] = inf; y[6] = 6;
    CHECK(plot_square(&fig));
    CHECK(s2r_plot_line(&fig, 0, x, y, 7, &st) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    CHECK(plot_diff(plot_at(&fig, 0, 0.5, 0.5), S2R_COLOR_BLUE) <= 8);  /* 0-1 drawn     */
    CHECK(plot_diff(plot_at(&fig, 0, 3.5, 3.5), S2R_COLOR_BLUE) <= 8);  /* 3-4 drawn     */
    CHECK(plot_diff(plot_at(&fig, 0, 2.0, 2.0), S2R_COLOR_BLUE) > 100); /* gap at NaN    */
    CHECK(plot_diff(plot_at(&fig, 0, 5.0, 5.0), S2R_COLOR_BLUE) > 100); /* gap at Inf    */
    CHECK(plot_diff(plot_at(&fig, 0, 6.0, 6.0), S2R_COLOR_BLUE) <= 8);  /* lone point: a dot */
    s2r_figure_free(&fig);
    {   /* all points non-finite, auto ranges: renders an empty panel */
        double bad[3];
        bad[0] = nan; bad[1] = inf; bad[2] = -inf;
        CHECK(s2r_figure_init(&fig, 300, 200, 1, 1) == S2R_OK);
        CHECK(s2r_plot_line(&fig, 0, NULL, bad, 3, NULL) == S2R_OK);
        CHECK(s2r_plot_scatter(&fig, 0, bad, bad, 3, NULL) == S2R_OK);
        CHECKF(s2r_figure_render(&fig) == S2R_OK, "%s", fig.error);
        s2r_figure_free(&fig);
    }
    return 0;
}

static int test_plot_errors_have_messages(void) {
    double y[3] = {1, 2, 3};
    s2r_plot_style st;
    s2r_figure fig;
    s2r_result r;
    st = s2r_plot_style_default();

    CHECK(s2r_figure_init(&fig, 0, 300, 1, 1) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(fig.error[0] != 0);
    s2r_figure_free(&fig);   /* safe after a failed init */
    CHECK(s2r_figure_init(&fig, 300, 300, 0, 1) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_figure_init(&fig, 200, 200, 3, 3) == S2R_ERR_INVALID_ARGUMENT);  /* panels too small */

    CHECK(s2r_figure_init(&fig, 300, 200, 1, 2) == S2R_OK);
    fig.error[0] = 0;
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 0, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(fig.error, "empty") != NULL, "message: %s", fig.error);
    CHECK(s2r_plot_bars(&fig, 0, y, NULL, NULL, 0, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_histogram(&fig, 0, y, 0, 10, 0, 0, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_line(&fig, 2, NULL, y, 3, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(fig.error, "panel 2") != NULL, "message: %s", fig.error);
    CHECK(s2r_plot_line(&fig, 0, NULL, NULL, 3, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_panel_xrange(&fig, 0, 1, 1) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_panel_yrange(&fig, 0, 2, strtod("nan", NULL)) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_hline(&fig, 0, strtod("inf", NULL), NULL) == S2R_ERR_INVALID_ARGUMENT);
    st.color = 0x123456;   /* not made with S2R_RGB */
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 3, &st) == S2R_ERR_INVALID_ARGUMENT);
    st.color = 0; st.width = -1;
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 3, &st) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_bars(&fig, 1, y, y, NULL, 3, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_plot_bars(&fig, 1, y, NULL, NULL, 3, NULL) == S2R_OK);
    CHECK(s2r_plot_bars(&fig, 1, y, NULL, NULL, 2, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(fig.error, "3 categories") != NULL, "message: %s", fig.error);
    CHECK(s2r_figure_to_pixel(&fig, 0, 0, 0, NULL, NULL) == S2R_ERR_STATE);

    fig.error[0] = 0;
    r = s2r_figure_write_png(&fig, "/nonexistent-s2r-dir/figure.png");
    CHECKF(r == S2R_ERR_IO, "got %s", s2r_result_string(r));
    CHECKF(strstr(fig.error, "/nonexistent-s2r-dir/figure.png") != NULL, "message: %s", fig.error);
    CHECK(s2r_figure_write_png(&fig, "") == S2R_ERR_INVALID_ARGUMENT);
    fig.font_scale = 0;
    CHECK(s2r_figure_render(&fig) == S2R_ERR_INVALID_ARGUMENT);
    s2r_figure_free(&fig);
    s2r_figure_free(&fig);   /* twice is safe */
    return 0;
}

/* A failed call leaves the figure as it was: it renders to the same pixels. */
static int test_plot_failed_call_changes_nothing(void) {
    double y[4] = {1, 3, 2, 4}, nan = strtod("nan", NULL), bad[2];
    unsigned char* before;
    s2r_figure fig;
    int same;
    bad[0] = nan; bad[1] = nan;
    CHECK(s2r_figure_init(&fig, 300, 200, 1, 1) == S2R_OK);
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 4, NULL) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    before = (unsigned char*)malloc((size_t)300 * 200 * 3);
    CHECK(before != NULL);
    memcpy(before, fig.pixels, (size_t)300 * 200 * 3);
    CHECK(s2r_plot_line(&fig, 0, NULL, y, -4, NULL) != S2R_OK);
    CHECK(s2r_plot_histogram(&fig, 0, bad, 2, 5, 0, 0, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(fig.error, "finite") != NULL, "message: %s", fig.error);
    CHECK(s2r_panel_yrange(&fig, 0, 5, 1) != S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    same = memcmp(before, fig.pixels, (size_t)300 * 200 * 3) == 0;
    free(before);
    s2r_figure_free(&fig);
    CHECK(same);
    return 0;
}

static int test_plot_constant_data_gets_a_range(void) {
    double y[4] = {5, 5, 5, 5}, z[3] = {0, 0, 0}, px, py;
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.color = S2R_COLOR_GREEN;
    CHECK(s2r_figure_init(&fig, 400, 300, 1, 2) == S2R_OK);
    CHECK(s2r_plot_line(&fig, 0, NULL, y, 4, &st) == S2R_OK);
    CHECK(s2r_plot_line(&fig, 1, z, z, 3, &st) == S2R_OK);   /* one point, value 0 */
    CHECKF(s2r_figure_render(&fig) == S2R_OK, "%s", fig.error);
    CHECK(s2r_figure_to_pixel(&fig, 0, 1.5, 5, &px, &py) == S2R_OK);
    CHECKF(px > 0 && px < 200 && py > 0 && py < 300, "(%g, %g)", px, py);
    CHECK(plot_diff(plot_pixel(&fig, px, py), S2R_COLOR_GREEN) <= 8);
    {   /* the value sits mid-panel: 4.9 below it on screen, 5.1 above */
        double lo, hi;
        CHECK(s2r_figure_to_pixel(&fig, 0, 1.5, 4.9, NULL, &lo) == S2R_OK);
        CHECK(s2r_figure_to_pixel(&fig, 0, 1.5, 5.1, NULL, &hi) == S2R_OK);
        CHECK(lo > py && hi < py);
    }
    CHECK(s2r_figure_to_pixel(&fig, 1, 0, 0, &px, &py) == S2R_OK);
    CHECKF(px > 200 && px < 400 && py > 0 && py < 300, "(%g, %g)", px, py);
    CHECK(plot_diff(plot_pixel(&fig, px, py), S2R_COLOR_GREEN) <= 8);
    s2r_figure_free(&fig);
    return 0;
}

/* Ticks fall on 1-2-5 steps and labels share a format. */
static int test_plot_nice_ticks(void) {
    s2r__ticks t;
    s2r__make_ticks(&t, -0.05, 1.05, 5);
    CHECKF(t.n == 6 && fabs(t.step - 0.2) < 1e-12, "n %d step %g", t.n, t.step);
    CHECK(strcmp(t.label[0], "0") == 0 && strcmp(t.label[1], "0.2") == 0 &&
          strcmp(t.label[5], "1.0") == 0);
    s2r__make_ticks(&t, 0, 1e6, 5);
    CHECKF(strcmp(t.label[1], "0.2M") == 0 && strcmp(t.label[5], "1.0M") == 0, "%s %s",
           t.label[1], t.label[5]);
    s2r__make_ticks(&t, 3, 47, 4);   /* 44 / 4 = 11: nearest nice step is 10 */
    CHECKF(fabs(t.step - 10) < 1e-9 && t.n == 4 && strcmp(t.label[3], "40") == 0,
           "step %g n %d", t.step, t.n);
    s2r__make_ticks(&t, -0.0003, 0.0007, 5);
    CHECKF(fabs(t.step - 0.0002) < 1e-15 && strcmp(t.label[0], "-0.0002") == 0, "%s", t.label[0]);
    return 0;
}

static int test_plot_bars_with_error_bars(void) {
    const char* names[3] = {"sim only", "domain randomization", "fine-tuned"};
    double v[3] = {0.2, 0.5, 0.9}, lo[3] = {0.1, 0.4, 0.8}, hi[3] = {0.3, 0.6, 0.95};
    s2r_plot_style st;
    s2r_figure fig;
    int k;
    st = s2r_plot_style_default();
    st.color = S2R_COLOR_ORANGE;
    CHECK(s2r_figure_init(&fig, 500, 300, 1, 1) == S2R_OK);
    CHECK(s2r_panel_categories(&fig, 0, names, 3) == S2R_OK);
    CHECK(s2r_panel_yrange(&fig, 0, 0, 1) == S2R_OK);
    CHECK(s2r_plot_bars(&fig, 0, v, lo, hi, 3, &st) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    for (k = 0; k < 3; k++) {
        const unsigned char* inside = plot_at(&fig, 0, k + 0.2, 0.5 * v[k]);
        const unsigned char* err = plot_at(&fig, 0, k, 0.5 * (v[k] + hi[k]));
        const unsigned char* above = plot_at(&fig, 0, k, hi[k] + 0.03);
        CHECK(inside && err && above);
        CHECKF(plot_diff(inside, S2R_COLOR_ORANGE) <= 8, "bar %d body", k);
        CHECKF(err[0] < 90 && err[1] < 90 && err[2] < 90, "bar %d error bar: %d %d %d", k,
               err[0], err[1], err[2]);
        CHECKF(plot_diff(above, S2R_COLOR_ORANGE) > 100 && above[0] > 200, "bar %d above", k);
    }
    s2r_figure_free(&fig);
    return 0;
}

static int test_plot_histogram_counts(void) {
    double s[7] = {0.1, 0.2, 0.3, 1.5, 1.6, 2.9, 7.0};   /* 7.0 is outside [0, 3] */
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.color = S2R_COLOR_BLUE;
    CHECK(s2r_figure_init(&fig, 400, 300, 1, 1) == S2R_OK);
    CHECK(s2r_panel_yrange(&fig, 0, 0, 4) == S2R_OK);
    CHECK(s2r_plot_histogram(&fig, 0, s, 7, 3, 0, 3, &st) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    CHECK(plot_is_ink(plot_at(&fig, 0, 0.5, 2.5)));   /* bin 0: 3 */
    CHECK(plot_is_white(plot_at(&fig, 0, 0.5, 3.5)));
    CHECK(plot_is_ink(plot_at(&fig, 0, 1.5, 1.5)));   /* bin 1: 2 */
    CHECK(plot_is_white(plot_at(&fig, 0, 1.5, 2.5)));
    CHECK(plot_is_ink(plot_at(&fig, 0, 2.5, 0.5)));   /* bin 2: 1 */
    CHECK(plot_is_white(plot_at(&fig, 0, 2.5, 1.5)));
    s2r_figure_free(&fig);
    return 0;
}

static int test_plot_reference_lines_and_band(void) {
    double x[3] = {0, 5, 10}, lo[3] = {2, 2, 2}, hi[3] = {4, 4, 4};
    const unsigned char* p;
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.line = S2R_LINE_SOLID;
    st.color = S2R_COLOR_BLACK;
    CHECK(plot_square(&fig));
    CHECK(s2r_plot_hline(&fig, 0, 8.5, &st) == S2R_OK);
    st.color = S2R_COLOR_VERMILION;
    st.label = "drift injected";
    CHECK(s2r_plot_vline(&fig, 0, 7, &st) == S2R_OK);
    st = s2r_plot_style_default();
    st.color = S2R_COLOR_BLUE;
    CHECK(s2r_plot_band(&fig, 0, x, lo, hi, 3, &st) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    CHECK(plot_diff(plot_at(&fig, 0, 2, 8.5), S2R_COLOR_BLACK) <= 8);
    CHECK(plot_diff(plot_at(&fig, 0, 7, 1), S2R_COLOR_VERMILION) <= 8);
    p = plot_at(&fig, 0, 3, 3);   /* inside the band: tinted blue, not opaque */
    CHECK(p != NULL);
    CHECKF(p[2] > p[0] + 20 && !plot_is_white(p) && plot_diff(p, S2R_COLOR_BLUE) > 60,
           "%d %d %d", p[0], p[1], p[2]);
    CHECK(plot_is_white(plot_at(&fig, 0, 3.3, 5)));   /* outside it */
    {   /* the label is written above the plot, by the line, not over data */
        double px, py;
        int above, inside;
        CHECK(s2r_figure_to_pixel(&fig, 0, 7, 10, &px, &py) == S2R_OK);
        above = plot_count(&fig, (int)px - 200, (int)py - 30, (int)px + 200, (int)py - 1,
                           S2R_COLOR_VERMILION, 10);
        inside = plot_count(&fig, (int)px - 200, (int)py + 1, (int)px - 2, (int)py + 60,
                            S2R_COLOR_VERMILION, 10);
        CHECKF(above > 30 && inside == 0, "%d label pixels above, %d inside", above, inside);
    }
    s2r_figure_free(&fig);
    return 0;
}

/* The automatic legend avoids the corners the data pass through. */
static int test_plot_legend_avoids_data(void) {
    double x[2] = {0, 10}, y[2] = {0, 10}, px, py;
    s2r_plot_style st = s2r_plot_style_default();
    s2r_figure fig;
    st.color = S2R_COLOR_VERMILION;
    st.label = "rising";
    CHECK(plot_square(&fig));
    CHECK(s2r_plot_line(&fig, 0, x, y, 2, &st) == S2R_OK);   /* through LL and UR */
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    CHECK(plot_diff(plot_at(&fig, 0, 9.5, 9.5), S2R_COLOR_VERMILION) <= 8);
    CHECK(plot_diff(plot_at(&fig, 0, 0.5, 0.5), S2R_COLOR_VERMILION) <= 8);
    CHECK(s2r_figure_to_pixel(&fig, 0, 0, 10, &px, &py) == S2R_OK);   /* upper left */
    CHECK(plot_count(&fig, (int)px, (int)py, (int)px + 120, (int)py + 40,
                     S2R_COLOR_VERMILION, 8) > 20);   /* the legend's sample line */
    s2r_figure_free(&fig);
    return 0;
}

static int test_plot_grid_of_panels(void) {
    double y[3] = {1, 2, 3}, px, py;
    s2r_figure fig;
    int p;
    CHECK(s2r_figure_init(&fig, 900, 500, 2, 3) == S2R_OK);
    CHECK(s2r_figure_title(&fig, "sim vs real") == S2R_OK);
    for (p = 0; p < 6; p++) {
        char title[32];
        snprintf(title, sizeof title, "joint %d", p + 1);
        CHECK(s2r_panel_labels(&fig, p, title, "time (s)", "angle (rad)") == S2R_OK);
        CHECK(s2r_plot_line(&fig, p, NULL, y, 3, NULL) == S2R_OK);
    }
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    for (p = 0; p < 6; p++) {   /* each panel's data lands in its own cell */
        int col = p % 3, row = p / 3;
        CHECK(s2r_figure_to_pixel(&fig, p, 1, 2, &px, &py) == S2R_OK);
        CHECKF(px > col * 300 && px < (col + 1) * 300 && py > row * 250 && py < (row + 1) * 250,
               "panel %d at (%g, %g)", p, px, py);
    }
    CHECK(plot_count(&fig, 0, 0, 900, 30, 0x1000000u, 40) > 50);   /* the title is drawn */
    s2r_figure_free(&fig);
    return 0;
}

/* A grid with more cells than plots: the cells nothing was drawn in stay
   white, with no empty 0..1 axes (12_fit.png of a 7-joint arm drew its
   16th cell so), and s2r_figure_to_pixel refuses them; a cell with only
   a title still gets its frame. */
static int test_plot_unused_panels_blank(void) {
    double y[3] = {1, 2, 3}, px, py;
    s2r_figure fig;
    int p, ink;
    CHECK(s2r_figure_init(&fig, 600, 400, 2, 2) == S2R_OK);
    for (p = 0; p < 2; p++) CHECK(s2r_plot_line(&fig, p, NULL, y, 3, NULL) == S2R_OK);
    CHECK(s2r_panel_labels(&fig, 2, "titled, empty", NULL, NULL) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    ink = 300 * 200 - plot_count(&fig, 300, 200, 600, 400, 0xFFFFFFu, 0);
    CHECKF(ink == 0, "%d pixels drawn in the unused cell", ink);
    CHECK(300 * 200 - plot_count(&fig, 0, 200, 300, 400, 0xFFFFFFu, 0) > 500);   /* the titled one */
    CHECK(s2r_figure_to_pixel(&fig, 3, 0, 0, &px, &py) == S2R_ERR_STATE && strstr(fig.error, "blank") != NULL);
    CHECK(s2r_figure_to_pixel(&fig, 1, 1, 2, &px, &py) == S2R_OK && px > 300);
    s2r_figure_free(&fig);
    return 0;
}

/* Rendering is a pure function of the figure; odd text does no harm. */
static int test_plot_deterministic_and_text_safe(void) {
    char longtext[300];
    double y[5] = {3, 1, 4, 1, 5};
    unsigned char* first;
    s2r_figure fig;
    int same;
    memset(longtext, 'W', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = 0;
    longtext[5] = (char)0xE9;   /* not ASCII */
    longtext[6] = '\t';
    CHECK(s2r_figure_init(&fig, 300, 200, 1, 1) == S2R_OK);
    CHECK(s2r_panel_labels(&fig, 0, longtext, longtext, longtext) == S2R_OK);
    CHECK(s2r_plot_scatter(&fig, 0, NULL, y, 5, NULL) == S2R_OK);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    first = (unsigned char*)malloc((size_t)300 * 200 * 3);
    CHECK(first != NULL);
    memcpy(first, fig.pixels, (size_t)300 * 200 * 3);
    CHECK(s2r_figure_render(&fig) == S2R_OK);
    same = memcmp(first, fig.pixels, (size_t)300 * 200 * 3) == 0;
    free(first);
    s2r_figure_free(&fig);
    CHECK(same);
    return 0;
}

static const test_case plot_tests[] = {
    {"plot_manual_example", test_plot_manual_example},
    {"plot_png_roundtrip", test_plot_png_roundtrip},
    {"plot_training_csv", test_plot_training_csv},
    {"plot_stats_csv_parse", test_plot_stats_csv_parse},
    {"plot_line_colours_pixels", test_plot_line_colours_pixels},
    {"plot_nan_breaks_line", test_plot_nan_breaks_line},
    {"plot_errors_have_messages", test_plot_errors_have_messages},
    {"plot_failed_call_changes_nothing", test_plot_failed_call_changes_nothing},
    {"plot_constant_data_gets_a_range", test_plot_constant_data_gets_a_range},
    {"plot_nice_ticks", test_plot_nice_ticks},
    {"plot_bars_with_error_bars", test_plot_bars_with_error_bars},
    {"plot_histogram_counts", test_plot_histogram_counts},
    {"plot_reference_lines_and_band", test_plot_reference_lines_and_band},
    {"plot_legend_avoids_data", test_plot_legend_avoids_data},
    {"plot_grid_of_panels", test_plot_grid_of_panels},
    {"plot_unused_panels_blank", test_plot_unused_panels_blank},
    {"plot_deterministic_and_text_safe", test_plot_deterministic_and_text_safe},
};
