/* sim2real_logs.h - a robot's logs: trajectory files read and written,
                     excitation files to play on an arm (a companion
                     header of sim2real.h)

   What an engineer with a real arm has is logs: the joint commands sent
   and the positions measured, at the robot's own rate.  This header reads
   them as the core's trajectory sets (s2r_trajectory_set_load_csv, each
   file checked as a robot's data: its rate, the units of t, a start in
   motion, angles in degrees; then resampled), writes a set's trajectory
   back bit for bit (s2r_trajectory_write_csv), writes the excitations to
   play on an arm not driven through a backend and reads them back
   (s2r_excitation_write_csv, _load_csv).  The sets it makes are fitted
   by the core's system identification (s2r_sysid_run) as recorded ones
   are; example 12 identifies an arm from its files alone.  The pipeline
   calls none of it: it records through a backend.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_logs.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.  Needs nothing else than sim2real.h
   needs.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_logs.h"
#endif
#ifndef SIM2REAL_LOGS_H
#define SIM2REAL_LOGS_H

/* ==========================================================================
   Logs: trajectory files, excitation files
   ========================================================================== */
/* --- Trajectory files ---------------------------------------------------------
   One trajectory per CSV file, so a log from any arm - a UR's RTDE stream,
   a Franka log, a ROS bag exported to CSV - can be identified from without
   a backend.  Lines starting with '#' are comments.  The first other line
   names the columns, in any order, separated by commas:

     t                  s, strictly increasing (any start; a rate at least
                        the fit's: 1 / T)
     command_J          rad, the servo target of joint J sent at t (held
                        until the next row), J = 1 .. n_joints
     q_J                rad, joint J measured at t
     qd_J               rad/s, optional: measured velocity
     object_x, object_y m, optional: where the camera saw the object at t

   Joints count from 1 everywhere the library speaks to a person: these
   columns, the ranges files' kp[4], example 12's --joint kp[4] and every
   message ("joint 1" is the base).  A file numbered from 0 (command_0) is
   refused with the renaming it needs.  (tau_J, N m, is accepted and
   ignored: torques are not fitted.)  Every other line is one row: a number
   per column, finite.  Columns are separated by commas (a header split by
   ';', tabs or '|' is refused naming the separator).  A comment line
   "# rate R Hz ..." above the column names (s2r_trajectory_write_csv and
   the excitation files write one; a logger may) says the rate the file
   was recorded at.  The log starts with the arm at rest at the first
   row's q (identification replays it from rest there): its speed there is
   what counts, not its motion after - an arm that stands still at the
   first row and then sags under gravity, or starts the excitation's ramp,
   is at rest; one still settling is at rest once it is slower than
   S2R_LOG_REST_SPEED.  (s2r_trajectory_record starts at the reading after
   the reset, where a simulator's reset puts the arm at rest;
   s2r_trajectory_collect_at_rest, which example 12 records with, holds
   the start pose of an arm still moving there - a sag, a ring - until it
   is still, and records from the settled reading.)  Before resampling each
   file is checked as a robot's data: its rate (1 / the median step of t,
   kept in s2r_trajectory_source.rate) must be that of its "# rate" line
   when it has one (within S2R_LOG_RATE_TOLERANCE: a log recorded faster or
   slower than it says, or with t scaled, is refused naming both rates),
   and at least 1 / T - a step that would be a plausible rate in
   milliseconds, microseconds or nanoseconds is refused as such - the arm
   must be at rest at the start (S2R_LOG_REST_SPEED), and it must cover
   S2R_LOG_MIN_SAMPLES periods; angles outside a joint's range are refused
   when the set meets the arm, suggesting degrees when they would fit as
   degrees.  Reading resamples it to the simulator's sample period T:
   command k is the command in force at t0 + k T, reading k the measured
   values at t0 + (k + 1) T, linearly interpolated between rows (exactly a
   row's values when a row falls on that time); without qd columns the
   velocities are the differences of the resampled positions
   (s2r_trajectory_source.qd_measured says which).  Files of one set may
   differ in length: each is used to its end, or to its first
   S2R_LOG_FIT_SAMPLES samples when it is longer (the rule below;
   s2r_trajectory_source.span says how much the file covered), and
   s2r_trajectory_length gives what is used (the set's n_samples is the
   longest's, a shorter one holds its last values after its end).  s2r_trajectory_write_csv writes a set's
   trajectory so that reading it back at the same period gives the same
   numbers bit for bit.  The largest file read (S2R_LOG_MAX_BYTES) and the
   longest line (S2R_LOG_MAX_LINE) hold for every CSV file this header
   reads (s2r__table_parse): the excitation files too. */
#define S2R_LOG_MAX_BYTES (64L << 20)   /* largest trajectory file read       */
#define S2R_LOG_MAX_LINE  65536         /* longest line, bytes                 */
#define S2R_LOG_MAX_SAMPLES 1000000     /* resampled samples per file (5.5 h at
                                           50 Hz): bounds the memory a log asks;
                                           a longer file is refused          */
#define S2R_LOG_FIT_SAMPLES 1500        /* samples of a file the set holds (30 s
                                           at 50 Hz): a longer one is cut there */
/* The rule: identification replays every sample of the fitted set at each
   loss evaluation, and a fit takes about 800 of them - example 12's full
   fit of three 3 s logs (450 samples), 807 evaluations in 60 s on a
   2-core machine: 0.17 ms per replayed sample.  Three fitted logs of 30 s
   then take about 10 minutes; a log twice as long, twice that, while what
   the fit estimates (a few servo and load parameters) is already pinned by
   a few seconds of excitation.  So each file is used to its first
   S2R_LOG_FIT_SAMPLES samples and the rest is not read into the set;
   s2r_trajectory_source.span says how much it covered, and example 12
   prints what was used of each log.  To fit other parts of a long log,
   cut them into files of their own. */
#define S2R_LOG_MIN_SAMPLES 10          /* fewest resampled samples per file
                                           (0.2 s at 50 Hz): a shorter log shows
                                           no dynamics to identify             */
#define S2R_LOG_REST_WINDOW 0.1         /* s, the start checked to be at rest   */
#define S2R_LOG_REST_SPEED  0.1         /* rad/s: a joint's speed at the first
                                           row above it is "moving at the
                                           start" - the smaller of the slopes
                                           of the least-squares line and of
                                           the parabola at t0 through the
                                           first S2R_LOG_REST_WINDOW (the line
                                           alone counts a sag from rest as
                                           motion; the parabola alone a quick
                                           transient).  The stand-in units'
                                           logs start at 0.03-0.05, arm4's
                                           made-different simulator's at
                                           0.04-0.09, an arm settled first at
                                           most 0.003 (tests/foreign_arm.c)   */
#define S2R_LOG_RATE_TOLERANCE 0.01     /* a "# rate R Hz" line and the t
                                           column's rate (1 / median step)
                                           agree to this fraction of R         */
#define S2R_LOG_GAP_STEPS 5             /* a step of t longer than this many
                                           of the file's (median) steps, and
                                           than two of the fit's periods, is
                                           rows missing: refused              */

/* Trajectory `index` of `set` as CSV at `path` (written whole or not at
   all).  S2R_ERR_INVALID_ARGUMENT for an index the set does not hold;
   S2R_ERR_IO with the reason. */
S2RDEF s2r_result s2r_trajectory_write_csv(const s2r_trajectory_set* set, int index, const char* path, char* error);
/* Make `set` (not initialised; free it after) from `count` files, each
   resampled to sample_period and kept to its first S2R_LOG_FIT_SAMPLES
   samples (the rule at S2R_LOG_FIT_SAMPLES).  Errors name the
   file and line (S2R_ERR_PARSE: an unknown, missing or repeated column,
   joints that do not match each other, a time that does not increase or
   that jumps (rows missing), a NaN, a line too long, a log shorter than
   two sample periods...;
   S2R_ERR_IO: a file that cannot be read); the set is then empty. */
S2RDEF s2r_result s2r_trajectory_set_load_csv(s2r_trajectory_set* set, const char* const* paths, int count,
                                              double sample_period, char* error);
/* The same for one file's text already in memory (`name` for messages). */
S2RDEF s2r_result s2r_trajectory_set_parse_csv(s2r_trajectory_set* set, const char* text, const char* name,
                                               double sample_period, char* error);

/* 1 when the set's velocities were measured: recorded through a backend,
   or read from files that all have qd_J columns; 0 when any trajectory's
   are differences of positions (weigh them in a fit with weight_qd 0). */
S2RDEF int        s2r_trajectory_set_qd_measured(const s2r_trajectory_set* set);
/* The first trajectory of `fitted` that holds the same motion as
   trajectory j of `held_out` (the same joints, length and every q), or -1:
   a held-out log that is a fitted one checks nothing (example 12 and the
   Python package refuse it).  -1 too for a j held_out does not have. */
S2RDEF int        s2r_trajectory_set_find_same(const s2r_trajectory_set* fitted, const s2r_trajectory_set* held_out,
                                               int j);

/* --- Recording at rest -------------------------------------------------------
   A log starts with the arm at rest at its first row (the check above).
   A simulator's reset puts the arm there; an arm under soft servos that
   sags when its start pose is reached, or rings after the move there (a
   heavy arm's model - a kuka iiwa's, a Sawyer's - or the arm itself), is
   not, and its log is refused as "moving at the start".  Held at its
   start targets it comes to rest where gravity and the servo balance:
   the sag is then a static offset (the first row's q against its
   command), which the fit replays from rest like any start. */
#define S2R_SETTLE_WINDOW 0.2   /* s: still over this long is settled        */
#define S2R_SETTLE_SPEED  0.01  /* rad/s: still, a tenth of S2R_LOG_REST_SPEED */
#define S2R_SETTLE_MAX    10.0  /* s: an arm not still by then is an error    */

/* Hold the targets q (rad, [n_joints]) on `robot` - a command, `period`
   s, a reading at a time - until every joint's readings over the last
   S2R_SETTLE_WINDOW spread less than `speed` (rad/s) times the window; the last reading into
   *at_rest and the time held (s) into *held (either may be NULL).
   S2R_ERR_STATE naming the joint and its speed when the arm is not still
   within max_time s; the backend's error; S2R_ERR_INTERRUPTED on Ctrl-C. */
S2RDEF s2r_result s2r_backend_settle(const s2r_backend* robot, const double* q, double period, double speed,
                                     double max_time, s2r_sensors* at_rest, double* held, char* error);
/* s2r_trajectory_collect with every trajectory at rest at its first row:
   one whose start is moving by the check of a log's start (its speed at
   the first row from the first S2R_LOG_REST_WINDOW above
   S2R_LOG_REST_SPEED) is recorded again from its start pose held until
   the arm is still (s2r_backend_settle at S2R_SETTLE_SPEED, at most
   S2R_SETTLE_MAX s), the settled reading its first row.  held[t] (s; may
   be NULL): how long trajectory t was held, 0 where it started at rest -
   those are the trajectories s2r_trajectory_collect records, number for
   number. */
S2RDEF s2r_result s2r_trajectory_collect_at_rest(s2r_trajectory_set* set, const s2r_backend* robot,
                                                 const s2r_excitation_config* excitation, int count, uint64_t seed,
                                                 double* held);

/* --- Excitation files -----------------------------------------------------------
   The commands to play on a robot that is not driven through a backend:
   an excitation (s2r_excitation_make) as timed joint targets, one CSV per
   trajectory, columns t (s) and command_J (rad, J = 1 .. n_joints), a row
   per sample period, each target held until the next row.  Comment lines
   above say the rate, the signal and the safety margins it was made with
   (targets at least limit_margin inside each joint's range, target speed
   at most max_speed of each joint's limit) and how to play it: move the
   arm slowly to the first row's targets, let it settle, then send each
   row's targets at its time (t from 0) and record t, command_J, q_J (and
   qd_J if the arm measures them) from the first row on - a trajectory
   file for s2r_trajectory_set_load_csv.  Reading one back at the same
   period gives the same commands bit for bit, ready for
   s2r_trajectory_record (q0: the first row). */

/* Write q0 [n_joints] and command [n_samples][n_joints] (rad; command 0
   should be q0, as s2r_excitation_make makes it) made with `c` for the arm
   `info` at `period` s (written whole or not at all).
   S2R_ERR_INVALID_ARGUMENT: a bad config, n_samples < 1, a period that is
   not > 0, NaN or Inf, or a target outside a joint's range; S2R_ERR_IO. */
S2RDEF s2r_result s2r_excitation_write_csv(const char* path, const s2r_excitation_config* c, const s2r_arm_info* info,
                                           const double* q0, const double* command, int n_samples, double period,
                                           char* error);
/* Read one excitation file into `set` (not initialised; free it after):
   one trajectory, its q0 the first row's targets, command k the target
   in force at t0 + k sample_period (for k up to the last row's time);
   q and qd are zero (nothing was measured); set->source[0] names the
   file and holds its own rate (1 / the median step of t: load it again
   at 1 / that period to play it row for row).  Errors name the file and
   line (S2R_ERR_PARSE: the column errors of trajectory files, a q_J,
   qd_J or object column - a log, not an excitation -, a "# rate" line
   saying another rate than t's, more than S2R_LOG_MAX_SAMPLES samples;
   S2R_ERR_IO); the set is then empty. */
S2RDEF s2r_result s2r_excitation_load_csv(s2r_trajectory_set* set, const char* path, double sample_period, char* error);
/* The same for a file's text in memory (`name` for messages). */
S2RDEF s2r_result s2r_excitation_parse_csv(s2r_trajectory_set* set, const char* text, const char* name,
                                           double sample_period, char* error);

#endif /* SIM2REAL_LOGS_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_LOGS_IMPLEMENTATION_DONE
#error "sim2real_logs.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_LOGS_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_logs.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* ==========================================================================
   Logs (implementation)
   ========================================================================== */

/* >> section: Logs
   Flow: a trajectory file is parsed as a table of numbers by the CSV
   reader that opens this section, s2r__table_parse (s2r__log_parse),
   checked as a robot's data (s2r__log_check: its rate, a moving start),
   resampled into a fresh set (s2r__logs_to_set, s2r__log_resample), then
   written back (s2r_trajectory_write_csv); excitation files, last,
   reuse the log's columns.  Read s2r_trajectory_set_load_csv first. */

/* --- Logs: the CSV reader --------------------------------------------------- */

/* A CSV table of numbers, as trajectory and excitation files are: '#'
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

static size_t s2r__csv_field(const char* line, size_t len, size_t at, size_t* a, size_t* b);

static s2r_result s2r__table_header(s2r__table* t, const char* line, size_t len, s2r__column_fn name_column,
                                    void* context, const char* file, int number, char* error);

static s2r_result s2r__table_row(s2r__table* t, const char* line, size_t len, int number, const char* file, char* error);

static s2r_result s2r__table_parse(s2r__table* t, const char* text, const char* file, s2r__column_fn name_column,
                                   s2r_result (*after_header)(void* context, s2r__table* t, const char* file, char* error),
                                   void* context, char* error);

/* --- Logs: trajectory files ------------------------------------------------ */

/* One parsed log, as recorded: rows at their own times. */
typedef struct s2r__log {
    s2r__table t;    /* the numbers, in file column order */
    int        n_joints;
    int        col_t, col_cmd[S2R_MAX_JOINTS], col_q[S2R_MAX_JOINTS], col_qd[S2R_MAX_JOINTS], col_obj[2];
    int        has_qd, has_object;
    double     declared_rate;   /* Hz, its "# rate R Hz" line; 0: none  */
    int        declared_line;
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
        if (*end == '\0' && j == 0) {   /* the old numbering, from 0 */
            s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column '%s': joints are numbered from 1 "
                      "(command_1, q_1, qd_1 for the first joint): rename each command_J, q_J, qd_J, tau_J to J + 1 "
                      "(command_0 -> command_1, command_1 -> command_2, ..., q_0 -> q_1, ...)", file, word);
            return 1;
        }
        if (*end || j < 1 || j > S2R_MAX_JOINTS) break;
        if (k == 3) return 0;   /* torques: accepted, not used */
        slot = k == 0 ? &g->col_cmd[j - 1] : k == 1 ? &g->col_q[j - 1] : &g->col_qd[j - 1];
    }
    if (!slot) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: unknown column '%s' (the columns: t in s, "
                  "command_J and q_J in rad, qd_J in rad/s, tau_J in N m (ignored), object_x and object_y in m; J from "
                  "1 to %d)", file, word, S2R_MAX_JOINTS);
        return 1;
    }
    if (*slot >= 0) {
        s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: column '%s' appears twice", file, word);
        return 1;
    }
    *slot = column;
    return 0;
}

/* The joints must be 1..n with a command and a q each (qd for all or
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
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: joint %d lacks its command_%d (rad), "
                             "q_%d (rad)%s column (joints are numbered 1 to n, each with all of them)", file, j + 1, j + 1,
                             j + 1, qd ? " or qd_J (rad/s)" : "");
    if (g->col_t < 0 || c < 1 || q != c || (qd && qd != c) || (g->col_obj[0] < 0) != (g->col_obj[1] < 0))
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: need t (s), and command_J and q_J (rad) for "
                         "the same joints, qd_J (rad/s) for all of them or none (got %d commands, %d positions, %d "
                         "velocities), object_x with object_y (m)", file, c, q, qd);
    g->has_qd = qd > 0;
    g->has_object = g->col_obj[0] >= 0;
    t->increasing = g->col_t;
    return S2R_OK;
}

/* The speed at the first of `rows` rows (t[k * stride], q[k * stride];
   rows >= 3, t increasing), as the smaller of two least-squares slopes:
   the straight line's (the mean speed: low for a quick transient from
   rest, a servo catching a sag) and the parabola's at t[0] (low for a
   sag or a ramp accelerating from rest).  An arm moving through the first
   row has both.  Solved in s = (t - t0) / span for conditioning. */
static double s2r__log_start_speed(const double* t, const double* q, int stride, int rows) {
    double a[3][4] = {{0}}, span = t[(size_t)(rows - 1) * stride] - t[0], line;
    int k, r, c, p;
    for (k = 0; k < rows; k++) {   /* normal equations of q ~ x0 + x1 s + x2 s^2 */
        double s = (t[(size_t)k * stride] - t[0]) / span, b[3];
        b[0] = 1, b[1] = s, b[2] = s * s;
        for (r = 0; r < 3; r++) {
            for (c = 0; c < 3; c++) a[r][c] += b[r] * b[c];
            a[r][3] += b[r] * (q[(size_t)k * stride] - q[0]);
        }
    }
    line = (a[0][0] * a[1][3] - a[0][1] * a[0][3]) / (a[0][0] * a[1][1] - a[0][1] * a[0][1]) / span;
    for (p = 0; p < 3; p++)   /* Gauss-Jordan; positive definite for 3 or more distinct times */
        for (r = 0; r < 3; r++) {
            double f = a[r][p] / a[p][p];
            if (r == p) continue;
            for (c = p; c < 4; c++) a[r][c] -= f * a[p][c];
        }
    return fmin(fabs(line), fabs(a[1][3] / a[1][1] / span));
}

/* The file's rate, 1 / the median step of t (Hz), into *rate; refused
   when it has a "# rate" line that says another (S2R_LOG_RATE_TOLERANCE). */
static s2r_result s2r__log_rate(const s2r__log* g, const char* file, double* rate, char* error) {
    const double* v = g->t.v;
    int w = g->t.columns, rows = g->t.rows, k;
    double step;
    double* steps = (double*)s2r__calloc((size_t)rows - 1, sizeof(double));
    if (!steps) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: no memory for %d time steps", file, rows);
    for (k = 1; k < rows; k++) steps[k - 1] = v[(size_t)k * w + g->col_t] - v[(size_t)(k - 1) * w + g->col_t];
    qsort(steps, (size_t)rows - 1, sizeof *steps, s2r__compare_doubles);
    step = steps[(rows - 1) / 2];
    S2R_FREE(steps);
    *rate = 1 / step;
    if (g->declared_rate > 0 && fabs(*rate - g->declared_rate) > S2R_LOG_RATE_TOLERANCE * g->declared_rate)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: its header says %g Hz, but t steps by %g s between rows "
                         "(median), %.4g Hz: the file is %s than it says (recorded at another rate, or t scaled); "
                         "correct the t column or the rate line (line %d)", file, g->t.first_line, g->declared_rate,
                         step, *rate, *rate > g->declared_rate ? "faster" : "slower", g->declared_line);
    return S2R_OK;
}

static s2r_result s2r__log_check(const s2r__log* g, const char* file, double period, double* rate, char* error);
static void s2r__log_declared_rate(s2r__log* g, const char* text);
static s2r_result s2r__log_parse(s2r__log* g, const char* text, const char* file, char* error);
static double s2r__log_at(const s2r__log* g, int c, double at, double period, int hold, int* cursor);
static int s2r__log_samples(const s2r__log* g, double period);
static void s2r__log_resample(const s2r__log* g, s2r_trajectory_set* set, int i);

static s2r_result s2r__logs_to_set(s2r_trajectory_set* set, const s2r__log* logs, const char* const* names, int count,
                                   double period, char* error);

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

static s2r_result s2r__log_read(const char* path, double sample_period, char** text, char* error);

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
        else if ((res = s2r__log_read(paths[i], sample_period, &text, error)) == S2R_OK) {
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

/* The parsed logs into a fresh set. */
static s2r_result s2r__logs_to_set(s2r_trajectory_set* set, const s2r__log* logs, const char* const* names, int count,
                                   double period, char* error) {
    int i, samples = 0;
    double* rates = (double*)s2r__calloc((size_t)count, sizeof(double));
    s2r_result res;
    if (!rates) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "trajectory files: no memory for %d logs", count);
    for (i = 0; i < count; i++)
        if (logs[i].n_joints != logs[0].n_joints || logs[i].has_object != logs[0].has_object) {
            S2R_FREE(rates);
            return s2r__fail(error, S2R_ERR_PARSE, "the logs are not of one arm: %s has %d joint%s%s, %s has %d joint%s%s "
                             "(the one unlike the arm's is the odd one out)", names[0], logs[0].n_joints,
                             logs[0].n_joints == 1 ? "" : "s", logs[0].has_object ? " and the object" : "", names[i],
                             logs[i].n_joints, logs[i].n_joints == 1 ? "" : "s", logs[i].has_object ? " and the object" : "");
        }
    for (i = 0; i < count; i++) {
        int n;
        if ((res = s2r__log_check(&logs[i], names[i], period, &rates[i], error)) != S2R_OK) {
            S2R_FREE(rates);
            return res;
        }
        n = s2r__log_samples(&logs[i], period);
        if (n < S2R_LOG_MIN_SAMPLES) {
            S2R_FREE(rates);
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: covers %.4g s, %d sample%s of %g s: too short to identify "
                             "from (at least %d samples, %g s; record a few seconds of motion)", names[i],
                             logs[i].t.first_line, n * period, n, n == 1 ? "" : "s", period, S2R_LOG_MIN_SAMPLES,
                             S2R_LOG_MIN_SAMPLES * period);
        }
        if (n > S2R_LOG_MAX_SAMPLES) {
            S2R_FREE(rates);
            return s2r__fail(error, S2R_ERR_PARSE, "%s: spans more than %d samples of %g s (%.6g s); split it", names[i],
                             S2R_LOG_MAX_SAMPLES, period, logs[i].t.v[(size_t)(logs[i].t.rows - 1) * logs[i].t.columns + logs[i].col_t] -
                             logs[i].t.v[logs[i].col_t]);
        }
        if (n > S2R_LOG_FIT_SAMPLES) n = S2R_LOG_FIT_SAMPLES;   /* the rule above */
        if (n > samples) samples = n;
    }
    if ((res = s2r_trajectory_set_init(set, logs[0].n_joints, samples, count, period)) != S2R_OK ||
        (logs[0].has_object && (res = s2r_trajectory_set_add_object(set)) != S2R_OK)) {
        s2r__fail(error, res, "%s", set->error);
        s2r_trajectory_set_free(set);
        S2R_FREE(rates);
        return res;
    }
    if (!(set->source = (s2r_trajectory_source*)s2r__calloc((size_t)count, sizeof *set->source))) {
        s2r_trajectory_set_free(set);
        S2R_FREE(rates);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "trajectory files: no memory for %d names", count);
    }
    for (i = 0; i < count; i++) {
        char why[S2R_ERROR_LEN];
        snprintf(set->source[i].file, sizeof set->source[i].file, "%s", names[i]);
        set->source[i].line = logs[i].t.first_line;
        set->source[i].t0 = logs[i].t.v[logs[i].col_t];
        set->source[i].rate = rates[i];
        set->source[i].span = s2r__log_samples(&logs[i], period);
        set->source[i].samples = set->source[i].span < S2R_LOG_FIT_SAMPLES ? set->source[i].span : S2R_LOG_FIT_SAMPLES;
        set->source[i].qd_measured = logs[i].has_qd;
        s2r__log_resample(&logs[i], set, i);
        set->count = i + 1;
        if (s2r_trajectory_set_check(set, set->n_joints, why) != S2R_OK) {   /* e.g. 1e308 - -1e308 */
            s2r__fail(error, S2R_ERR_PARSE, "%s: numbers too large to resample (%s)", names[i], why);
            s2r_trajectory_set_free(set);
            memset(set, 0, sizeof *set);
            S2R_FREE(rates);
            return S2R_ERR_PARSE;
        }
    }
    S2R_FREE(rates);
    return S2R_OK;
}

/* Samples of period T the log holds: commands 0..n-1 and readings at 1..n
   (S2R_LOG_MAX_SAMPLES + 1 for anything longer). */
static int s2r__log_samples(const s2r__log* g, double period) {
    double span = g->t.v[(size_t)(g->t.rows - 1) * g->t.columns + g->col_t] - g->t.v[g->col_t];
    double n = floor(span / period + 1e-9);
    return n > S2R_LOG_MAX_SAMPLES ? S2R_LOG_MAX_SAMPLES + 1 : (int)n;
}

/* The log's times and start, checked before it is resampled to `period`:
   its rate (the median step between rows; *rate in Hz) must be the one
   its "# rate" line says, if any, and at least the fit's (a step of 0.5
   or more that is a plausible rate in milliseconds, microseconds or
   nanoseconds is named as such), and the arm must be at rest at the first
   row (every joint's speed there, s2r__log_start_speed over the first
   S2R_LOG_REST_WINDOW, below S2R_LOG_REST_SPEED), and no rows may be
   missing where the fit reads (S2R_LOG_GAP_STEPS).  Messages name the file,
   the line and the likely cause. */
static s2r_result s2r__log_check(const s2r__log* g, const char* file, double period, double* rate, char* error) {
    static const char* const units[3] = {"milliseconds", "microseconds", "nanoseconds"};
    const double* v = g->t.v;
    int w = g->t.columns, rows = g->t.rows, j, u, last = 0, moving = 0, turns;
    double step, t0 = v[g->col_t], worst = 0, scale = 1;
    s2r_result res = s2r__log_rate(g, file, rate, error);
    if (res != S2R_OK) return res;
    step = 1 / *rate;
    if (step > period * (1 + 1e-6)) {
        for (u = 0; u < 3 && step >= 0.5; u++) {   /* below 2 Hz: as ms, us, ns a rate of 10 Hz to 100 kHz? */
            scale *= 1e-3;
            if (step * scale >= 1e-5 && step * scale <= 0.1)
                return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: t steps by %g between rows (median): in seconds "
                                 "that is %.3g Hz; the times look like %s (%.4g Hz) - give t in seconds", file,
                                 g->t.first_line, step, 1 / step, units[u], 1 / (step * scale));
        }
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: sampled at %.4g Hz (a median step of %g s), below the "
                         "fit's %.4g Hz: record at %.4g Hz or faster (if t is in milliseconds, it is %.4g Hz: give t in "
                         "seconds)", file, g->t.first_line, 1 / step, step, 1 / period, 1 / period, 1e3 / step);
    }
    for (j = 1; j < rows && v[(size_t)(j - 1) * w + g->col_t] - t0 < S2R_LOG_FIT_SAMPLES * period; j++) {   /* what the fit reads */
        double before = v[(size_t)(j - 1) * w + g->col_t], gap = v[(size_t)j * w + g->col_t] - before;
        if (gap > S2R_LOG_GAP_STEPS * step && gap > 2 * period)
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: t jumps by %g s from the row before (from %g to %g s), %.0f "
                             "of the file's steps of %g s: rows are missing (a logger that stalled, a dropped connection); "
                             "record the log again, or cut it before the gap", file, g->t.first_line + j, gap, before,
                             before + gap, gap / step, step);
    }
    while (last + 1 < rows && v[(size_t)(last + 1) * w + g->col_t] - t0 <= S2R_LOG_REST_WINDOW * (1 + 1e-9)) last++;
    for (j = 0; j < g->n_joints && last >= 3; j++) {   /* each joint's speed at t0 from rows 0..last */
        double speed = s2r__log_start_speed(v + g->col_t, v + g->col_q[j], w, last + 1);
        if (speed > worst) {
            worst = speed;
            moving = j;
        }
    }
    for (j = 0, turns = -1; j < g->n_joints && turns < 0; j++)   /* more than a turn: degrees, likely */
        if (fabs(v[g->col_q[j]]) > 6.2832) turns = j;
    if (worst > S2R_LOG_REST_SPEED && turns >= 0)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: q_%d starts at %g, more than a turn, and the arm seems to "
                         "move at %.3g rad/s: angles in degrees? give them in radians (degrees x pi / 180)", file,
                         g->t.first_line, turns + 1, v[g->col_q[turns]], worst);
    if (worst > S2R_LOG_REST_SPEED)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: the arm is moving at the start (joint %d at %.3g rad/s at "
                         "its first row, from the first %g s; at rest is below %g): start the log at rest, or cut it "
                         "where the arm stands still", file, g->t.first_line, moving + 1, worst, S2R_LOG_REST_WINDOW,
                         S2R_LOG_REST_SPEED);
    return S2R_OK;
}

/* Parse a whole file's text into a log. */
static s2r_result s2r__log_parse(s2r__log* g, const char* text, const char* file, char* error) {
    int j;
    memset(g, 0, sizeof *g);
    g->col_t = g->col_obj[0] = g->col_obj[1] = -1;
    for (j = 0; j < S2R_MAX_JOINTS; j++) g->col_cmd[j] = g->col_q[j] = g->col_qd[j] = -1;
    s2r__log_declared_rate(g, text);
    return s2r__table_parse(&g->t, text, file, s2r__log_column, s2r__log_columns_done, g, error);
}

/* The rate a file says it was recorded at: the first comment line above
   the column names reading "# rate R Hz" (more may follow on the line);
   R into g->declared_rate (0 when there is none), its line number. */
static void s2r__log_declared_rate(s2r__log* g, const char* text) {
    int number = 0;
    g->declared_rate = 0;
    g->declared_line = 0;
    while (*text) {
        const char* end = strchr(text, '\n');
        const char* at = text;
        char* stop;
        double r;
        number++;
        if (*at != '#' && *at != '\n' && *at != '\r' && *at) return;   /* the column names: none above them */
        if (*at == '#') {
            for (at++; *at == ' '; at++) {}
            if (strncmp(at, "rate ", 5) == 0) {
                r = strtod(at + 5, &stop);
                while (*stop == ' ') stop++;
                if (stop != at + 5 && strncmp(stop, "Hz", 2) == 0 && r > 0 && isfinite(r)) {
                    g->declared_rate = r;
                    g->declared_line = number;
                    return;
                }
            }
        }
        if (!end) return;
        text = end + 1;
    }
}

/* A log's text; a file past S2R_LOG_MAX_BYTES is refused unread, saying
   how to make of it one the fit reads (it uses the first
   S2R_LOG_FIT_SAMPLES samples of each file): cut, or thinned. */
static s2r_result s2r__log_read(const char* path, double sample_period, char** text, char* error) {
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > S2R_LOG_MAX_BYTES)
        return s2r__fail(error, S2R_ERR_IO, "'%s' is %.0f bytes, more than the %ld a log may be; the fit uses its first "
                         "%.0f s: cut it there (at 1 kHz: head -n %.0f) or thin it to 50-200 Hz, e.g. every 10th row of "
                         "1 kHz, the rate line dropped: awk '/^# rate/{next} /^#/||!h++{print;next} n++%%10==0' %s > "
                         "thin.csv", path, (double)st.st_size, S2R_LOG_MAX_BYTES, S2R_LOG_FIT_SAMPLES * sample_period,
                         S2R_LOG_FIT_SAMPLES * sample_period * 1000 + 10, path);
    return s2r__read_text_file(path, S2R_LOG_MAX_BYTES, text, error);
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
        if (++number % 1024 == 0 && (res = s2r__stop_asked(error, file)) != S2R_OK) break;
        if (len > S2R_LOG_MAX_LINE)
            res = s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: longer than %d bytes", file, number, S2R_LOG_MAX_LINE);
        else {
            if (len > 0 && text[len - 1] == '\r') len--;
            if (len > 0 && text[0] != '#') {
                if (header && !t->first_line) t->first_line = number;
                if (header) res = s2r__table_row(t, text, len, number, file, error);
                else if ((res = s2r__table_header(t, text, len, name_column, context, file, number, error)) == S2R_OK &&
                         after_header)
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

static s2r_result s2r__table_header(s2r__table* t, const char* line, size_t len, s2r__column_fn name_column,
                                    void* context, const char* file, int number, char* error) {
    static const char seps[3] = {';', '\t', '|'};
    static const char* const sep_names[3] = {"';' (semicolons)", "tabs", "'|'"};
    size_t at = 0, a, b, end;
    int k;
    for (k = 0; k < 3 && !memchr(line, ',', len); k++)   /* another separator, as spreadsheets in some locales write */
        if (memchr(line, seps[k], len))
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line %d: the column names are separated by %s; the columns must "
                             "be separated by commas (and numbers written with a decimal point): save the file as CSV "
                             "with ',' as the separator", file, number, sep_names[k]);
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

/* The span [at, end) of the next comma-separated field of line[len], blanks
   trimmed into [*a, *b); returns end. */
static size_t s2r__csv_field(const char* line, size_t len, size_t at, size_t* a, size_t* b) {
    size_t end = at;
    while (end < len && line[end] != ',') end++;
    for (*a = at; *a < end && isspace((unsigned char)line[*a]); ++*a) {}
    for (*b = end; *b > *a && isspace((unsigned char)line[*b - 1]); --*b) {}
    return end;
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

S2RDEF s2r_result s2r_trajectory_write_csv(const s2r_trajectory_set* set, int index, const char* path, char* error) {
    s2r_file file;
    s2r_result res;
    char b0[32];
    int n, k, j;
    if (!set || !path || index < 0 || index >= set->count)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "write trajectory: no trajectory %d in the set", index);
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    n = set->n_joints;
    fprintf(file.f, "# sim2real.h trajectory: t in s, command_J and q_J in rad, qd_J in rad/s%s\n# rate %s Hz (a row "
            "every %g s)\nt", set->object ? ", object_x/y in m" : "", s2r__exact_number(b0, 1 / set->sample_period),
            set->sample_period);
    for (j = 1; j <= n; j++) fprintf(file.f, ",command_%d", j);
    for (j = 1; j <= n; j++) fprintf(file.f, ",q_%d", j);
    for (j = 1; j <= n; j++) fprintf(file.f, ",qd_%d", j);
    fprintf(file.f, "%s\n", set->object ? ",object_x,object_y" : "");
    for (k = 0; k <= s2r_trajectory_length(set, index); k++) {   /* row k: command k (the last held), the reading of k - 1 */
        const double* cmd = set->command + s2r__traj_at(set, index, k < s2r_trajectory_length(set, index) ? k : k - 1);
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

S2RDEF int s2r_trajectory_set_qd_measured(const s2r_trajectory_set* set) {
    int i;
    S2R_ASSERT(set);
    for (i = 0; set->source && i < set->count; i++)
        if (!set->source[i].qd_measured) return 0;
    return 1;
}

S2RDEF int s2r_trajectory_set_find_same(const s2r_trajectory_set* fitted, const s2r_trajectory_set* held_out, int j) {
    int i, n;
    S2R_ASSERT(fitted && held_out);
    if (j < 0 || j >= held_out->count || fitted->n_joints != held_out->n_joints) return -1;
    n = s2r_trajectory_length(held_out, j);
    for (i = 0; i < fitted->count; i++)
        if (s2r_trajectory_length(fitted, i) == n &&
            memcmp(fitted->q + s2r__traj_at(fitted, i, 0), held_out->q + s2r__traj_at(held_out, j, 0),
                   sizeof(double) * (size_t)n * (size_t)held_out->n_joints) == 0)
            return i;
    return -1;
}

/* --- Logs: recording at rest ------------------------------------------------ */

S2RDEF s2r_result s2r_backend_settle(const s2r_backend* robot, const double* q, double period, double speed,
                                     double max_time, s2r_sensors* at_rest, double* held, char* error) {
    s2r_sensors s;
    double waited = 0, worst = 0, *past;
    int n, j, k, moving = 0, window;
    s2r_result res = S2R_OK;
    if (!robot || !robot->info || !q || !(period > 0) || !(speed > 0) || !(max_time > 0))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "settle: needs a robot, targets, a period > 0 s, a speed > 0 "
                         "rad/s and a time-out > 0 s");
    n = robot->info->n_joints;
    window = (int)ceil(S2R_SETTLE_WINDOW / period - 1e-9);
    if (!(past = (double*)s2r__calloc((size_t)(window + 1) * (size_t)n, sizeof(double))))
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "settle: no memory for %d readings", window + 1);
    for (k = 0;; k++) {   /* each step: the targets, a period, a reading; still once the last window moved < speed */
        if ((res = s2r__stop_asked(error, "settling at the start pose")) != S2R_OK) break;
        if ((res = s2r_backend_command(robot, q)) != S2R_OK || (res = s2r_backend_advance(robot, period)) != S2R_OK ||
            (res = s2r_backend_read_sensors(robot, &s)) != S2R_OK) {
            s2r__fail(error, res, "settling at the start pose: %s", robot->error ? robot->error : s2r_result_string(res));
            break;
        }
        waited += period;
        memcpy(past + (size_t)(k % (window + 1)) * n, s.q, sizeof(double) * (size_t)n);
        for (j = 0, worst = 0; j < n && k >= window; j++) {   /* the spread of the window's readings: a ring whose
                                                                period is the window's moves in it too */
            double lo = s.q[j], hi = s.q[j], v;
            int r;
            for (r = 0; r <= window; r++) lo = fmin(lo, past[(size_t)r * n + j]), hi = fmax(hi, past[(size_t)r * n + j]);
            if ((v = (hi - lo) / (window * period)) > worst) worst = v, moving = j;
        }
        if (k >= window && worst < speed) break;
        if (waited >= max_time) {
            res = s2r__fail(error, S2R_ERR_STATE, "the arm did not settle at the first row within %g s (its start pose; "
                            "joint %d still at %.3g rad/s over %g s; still is below %g rad/s)", max_time, moving + 1, worst,
                            S2R_SETTLE_WINDOW, speed);
            break;
        }
    }
    S2R_FREE(past);
    if (res != S2R_OK) return res;
    if (at_rest) *at_rest = s;
    if (held) *held = waited;
    return S2R_OK;
}

/* Trajectory i's speed at its first row (rad/s, the fastest joint into
   *joint), as the check of a log's start reads it from the file:
   s2r__log_start_speed over the rows of the first S2R_LOG_REST_WINDOW -
   row 0 the start reading, row k + 1 reading k. */
static double s2r__traj_start_speed(const s2r_trajectory_set* set, int i, int* joint) {
    double t[64], q[64], worst = 0;
    int n = set->n_joints, rows = 1, j, k;
    while (rows < 64 && rows <= s2r_trajectory_length(set, i) && rows * set->sample_period <= S2R_LOG_REST_WINDOW * (1 + 1e-9))
        rows++;
    for (j = 0; j < n && rows >= 4; j++) {
        double v;
        for (k = 0; k < rows; k++) {
            t[k] = k * set->sample_period;
            q[k] = k ? set->q[s2r__traj_at(set, i, k - 1) + (size_t)j] : set->q0[(size_t)i * n + j];
        }
        if ((v = s2r__log_start_speed(t, q, 1, rows)) > worst) worst = v, *joint = j;
    }
    return worst;
}

S2RDEF s2r_result s2r_trajectory_collect_at_rest(s2r_trajectory_set* set, const s2r_backend* robot,
                                                 const s2r_excitation_config* excitation, int count, uint64_t seed,
                                                 double* held) {
    double pose[S2R_MAX_JOINTS];
    int t, n, joint = 0;
    s2r_result res;
    S2R_ASSERT(set);
    if ((res = s2r_trajectory_collect(set, robot, excitation, 0, seed)) != S2R_OK) return res;   /* its checks */
    if (count < 0 || count > set->capacity - set->count)
        return s2r__fail(set->error, S2R_ERR_INVALID_ARGUMENT, "collect: %d trajectories do not fit (%d of %d used)",
                         count, set->count, set->capacity);
    n = set->n_joints;
    for (t = 0; t < count; t++) {   /* as s2r_trajectory_collect: the excitation from (seed, t), played from a reset */
        int i = set->count;
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)t);
        double* q0 = set->q0 + (size_t)i * n;
        double speed;
        s2r_sensors s;
        if (held) held[t] = 0;
        s2r_excitation_make(excitation, robot->info, set->n_samples, set->sample_period, &rng, q0,
                            set->command + s2r__traj_at(set, i, 0));
        memcpy(pose, q0, sizeof(double) * (size_t)n);
        if ((res = s2r__traj_play(set, robot, i, &rng)) != S2R_OK) return res;
        if ((speed = s2r__traj_start_speed(set, i, &joint)) > S2R_LOG_REST_SPEED) {   /* moving at the start: hold, again */
            char why[S2R_ERROR_LEN];
            memcpy(q0, pose, sizeof(double) * (size_t)n);
            res = s2r__traj_start(set, robot, i, &rng);
            if (res == S2R_OK)
                res = s2r_backend_settle(robot, set->command + s2r__traj_at(set, i, 0), set->sample_period,
                                         S2R_SETTLE_SPEED, S2R_SETTLE_MAX, &s, held ? &held[t] : NULL, why);
            else
                snprintf(why, sizeof why, "reset: %s", robot->error ? robot->error : s2r_result_string(res));
            if (res != S2R_OK)
                return s2r__fail(set->error, res, "trajectory %d of %d on '%s' (joint %d at %.3g rad/s at its first row, "
                                 "recorded again after holding its start): %s", i + 1, set->capacity,
                                 robot->name ? robot->name : "backend", joint + 1, speed, why);
            memcpy(q0, s.q, sizeof(double) * (size_t)n);   /* the first row: the settled reading */
            if ((res = s2r__traj_run(set, robot, i, S2R_OK)) != S2R_OK) return res;
        }
        set->count++;
    }
    return S2R_OK;
}

/* --- Logs: excitation files ------------------------------------------------ */

S2RDEF s2r_result s2r_excitation_write_csv(const char* path, const s2r_excitation_config* c, const s2r_arm_info* info,
                                           const double* q0, const double* command, int n_samples, double period,
                                           char* error) {
    s2r_file file;
    s2r_result res;
    char b[32];
    int n, k, j;
    if (!path || !c || !info || !q0 || !command || n_samples < 1 || !(period > 0) || !isfinite(period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "write excitation: path, config, arm, q0, commands, "
                         ">= 1 sample and a period > 0 s are needed");
    if (s2r_excitation_check(c, error) != S2R_OK) return S2R_ERR_INVALID_ARGUMENT;
    n = info->n_joints;
    for (k = -1; k < n_samples; k++)   /* -1: the start pose */
        for (j = 0; j < n; j++) {
            double v = k < 0 ? q0[j] : command[(size_t)k * n + j];
            if (!(v >= info->q_min[j] - 1e-9 && v <= info->q_max[j] + 1e-9))
                return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "write excitation: %s of joint %d is %g rad, outside "
                                 "its range [%g, %g]", k < 0 ? "the start pose" : "a target", j + 1, v, info->q_min[j],
                                 info->q_max[j]);
        }
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    fprintf(file.f, "# sim2real.h excitation for %s: joint targets to play on the arm, t in s, command_J in rad "
            "(J from 1), each held until the next row\n", info->name);
    fprintf(file.f, "# rate %g Hz (a row every %g s), %d rows, %g s; signal %s, %g rad peak, %g to %g Hz, fading in "
            "over %g s\n", 1 / period, period, n_samples, n_samples * period, s2r_excitation_kind_name(c->kind),
            c->amplitude, c->freq_lo, c->freq_hi, c->ramp);
    fprintf(file.f, "# safety margins: targets at least %g rad inside each joint's range, target speed at most %g of "
            "each joint's speed limit\n", c->limit_margin, c->max_speed);
    fprintf(file.f, "# to play: move the arm slowly to the first row's targets and let it settle; then send each "
            "row's targets at its t; record t, command_J, q_J (and qd_J) from the first row on, at %g Hz or faster\nt",
            1 / period);
    for (j = 1; j <= n; j++) fprintf(file.f, ",command_%d", j);
    fputc('\n', file.f);
    for (k = 0; k < n_samples; k++) {
        fprintf(file.f, "%s", s2r__exact_number(b, k * period));
        for (j = 0; j < n; j++) fprintf(file.f, ",%s", s2r__exact_number(b, command[(size_t)k * n + j]));
        fputc('\n', file.f);
    }
    return s2r_file_commit(&file, error);
}

/* An excitation file names t and the commands only. */
static s2r_result s2r__excitation_columns_done(void* context, s2r__table* t, const char* file, char* error) {
    s2r__log* g = (s2r__log*)context;
    int j, c = 0, other = 0;
    for (j = 0; j < S2R_MAX_JOINTS; j++) {
        c += g->col_cmd[j] >= 0;
        other += g->col_q[j] >= 0 || g->col_qd[j] >= 0;
    }
    g->n_joints = c;
    if (other || g->col_obj[0] >= 0 || g->col_obj[1] >= 0)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: an excitation file holds t and command_J "
                         "only (with q_J it is a log: read it as a trajectory file)", file);
    for (j = 0; j < c; j++)
        if (g->col_cmd[j] < 0)
            return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: joint %d lacks its command_%d column "
                             "(joints are numbered 1 to n)", file, j + 1, j + 1);
    if (g->col_t < 0 || c < 1)
        return s2r__fail(error, S2R_ERR_PARSE, "%s, line of column names: need t and command_J", file);
    t->increasing = g->col_t;
    return S2R_OK;
}

S2RDEF s2r_result s2r_excitation_parse_csv(s2r_trajectory_set* set, const char* text, const char* name,
                                           double sample_period, char* error) {
    s2r__log g;
    s2r_result res;
    double span, rate;
    int j, k, n, cursor = 0;
    S2R_ASSERT(set);
    memset(set, 0, sizeof *set);
    if (!text || !name || !(sample_period > 0) || !isfinite(sample_period))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation file: text, name and a period > 0 s are needed");
    memset(&g, 0, sizeof g);
    g.col_t = g.col_obj[0] = g.col_obj[1] = -1;
    for (j = 0; j < S2R_MAX_JOINTS; j++) g.col_cmd[j] = g.col_q[j] = g.col_qd[j] = -1;
    s2r__log_declared_rate(&g, text);
    if ((res = s2r__table_parse(&g.t, text, name, s2r__log_column, s2r__excitation_columns_done, &g, error)) != S2R_OK)
        return res;
    if ((res = s2r__log_rate(&g, name, &rate, error)) != S2R_OK) {
        s2r__table_free(&g.t);
        return res;
    }
    span = g.t.v[(size_t)(g.t.rows - 1) * g.t.columns + g.col_t] - g.t.v[g.col_t];
    if (!(span / sample_period < S2R_LOG_MAX_SAMPLES)) {
        s2r__table_free(&g.t);
        return s2r__fail(error, S2R_ERR_PARSE, "%s: spans more than %d samples of %g s; split it", name,
                         S2R_LOG_MAX_SAMPLES, sample_period);
    }
    n = (int)floor(span / sample_period + 1e-9) + 1;
    if ((res = s2r_trajectory_set_init(set, g.n_joints, n, 1, sample_period)) != S2R_OK) {
        s2r__fail(error, res, "%s: %s", name, set->error);
        s2r__table_free(&g.t);
        return res;
    }
    if (!(set->source = (s2r_trajectory_source*)s2r__calloc(1, sizeof *set->source))) {
        s2r_trajectory_set_free(set);
        s2r__table_free(&g.t);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: no memory for its name", name);
    }
    snprintf(set->source->file, sizeof set->source->file, "%s", name);
    set->source->line = g.t.first_line;
    set->source->t0 = g.t.v[g.col_t];
    set->source->rate = rate;
    set->source->samples = set->source->span = n;
    for (j = 0; j < g.n_joints; j++) set->q0[j] = g.t.v[g.col_cmd[j]];
    for (k = 0; k < n; k++) {
        int c1 = cursor;
        for (j = 0; j < g.n_joints; j++) {
            c1 = cursor;
            set->command[(size_t)k * g.n_joints + j] = s2r__log_at(&g, g.col_cmd[j], g.t.v[g.col_t] + k * sample_period,
                                                                   sample_period, 1, &c1);
        }
        cursor = c1;
    }
    set->count = 1;
    s2r__table_free(&g.t);
    return S2R_OK;
}

S2RDEF s2r_result s2r_excitation_load_csv(s2r_trajectory_set* set, const char* path, double sample_period, char* error) {
    char* text = NULL;
    s2r_result res;
    S2R_ASSERT(set);
    memset(set, 0, sizeof *set);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "excitation file: path is NULL");
    if ((res = s2r__read_text_file(path, S2R_LOG_MAX_BYTES, &text, error)) != S2R_OK) return res;
    res = s2r_excitation_parse_csv(set, text, path, sample_period, error);
    S2R_FREE(text);
    return res;
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
