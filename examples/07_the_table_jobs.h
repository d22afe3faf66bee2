/* 07_the_table_jobs.h - the second half of examples/07_the_table.c: the
   table as jobs, their records and the merge.

   Not a header of its own: 07_the_table.c includes it once, after the
   recipe's pieces the jobs run (run_chain, identify_unit, record_demos,
   real_only_row) and the table's files the merge writes, whose types and
   functions it uses; its main runs the jobs. */
#ifndef S2R_07_THE_TABLE
#error "07_the_table_jobs.h is the second half of examples/07_the_table.c and is included only by it"
#endif

/* ==========================================================================
   Jobs: the table as independent pieces of work, and the merge
   ==========================================================================
   main runs one job (--job) or all of them in order, then the merge.  A
   job reads only files (its inputs' records and what they wrote), writes
   its own files whole (s2r_file), and ends with its record: the job's
   measurements as lines "key,index,numbers..." (below), stamped with the
   run's settings and build and sealed by a checksum (s2r_record). */

enum { UNIT_JOB, CHAIN_JOB, REAL_ONLY_JOB, MERGE_JOB, LIST_JOBS, JOB_KINDS };
static const char* const job_kind_name[JOB_KINDS] = {"unit", "chain", "real-only", "merge", "list"};
#define MAX_SEEDS 64   /* --seeds takes at most this */

typedef struct job {
    int kind;    /* UNIT_JOB ...                   */
    int index;   /* S = 1 .. --seeds; 0 for merge  */
} job;

typedef struct run {                /* what every job of one run shares    */
    const s2r_options* opt;
    sizes              z;
    uint64_t           settings;   /* s2r_options_digest                   */
    uint64_t           build;      /* s2r_build_digest                     */
} run;

typedef struct job_record {         /* what a job hands the merge          */
    table  t;                       /* one seed's rows, curve, kept, cost  */
    double camera[3];               /* unit jobs: the camera calibration, m */
    int    recorded[SETS];          /* unit jobs: demonstrations per set,  */
    int    on_target[SETS];         /* and of them ending on target         */
    double started, ended;          /* s since the epoch (whole seconds)    */
    double wall_s, peak_mib;        /* the job's own wall time and memory   */
} job_record;

static int run_units(const run* r, int first, int count);
static int run_chain_job(const run* r, int s);
static int run_real_only_job(const run* r, int s);
static int merge(const run* r, double single_wall, double single_peak);

/* "unit:2" (S in 1..seeds), "merge" or "list" into j; 0, or 1 with the
   reason printed. */
static int parse_job(const char* text, int seeds, job* j) {
    int k;
    for (k = 0; k < JOB_KINDS; k++) {
        size_t n = strlen(job_kind_name[k]);
        char* end;
        long s;
        if (strncmp(text, job_kind_name[k], n) != 0) continue;
        j->kind = k;
        j->index = 0;
        if ((k == MERGE_JOB || k == LIST_JOBS) && text[n] == '\0') return 0;
        if (k >= MERGE_JOB || text[n] != ':' || text[n + 1] < '1' || text[n + 1] > '9') continue;
        s = strtol(text + n + 1, &end, 10);
        if (*end || s > seeds) continue;
        j->index = (int)s;
        return 0;
    }
    fprintf(stderr, "--job takes unit:S, chain:S or real-only:S for S = 1..%d (--seeds), merge, or list (the jobs in "
                    "an order that works), not '%s'\n", seeds, text);
    return 1;
}

/* The file name a job's record has (its name with '_' for ':'). */
static const char* record_path(char* out, size_t cap, const s2r_options* opt, job j) {
    char name[64];
    snprintf(name, sizeof name, "job_%s_%d.csv", job_kind_name[j.kind], j.index);
    return output(out, cap, opt, name);
}

static job make_job(int kind, int index) {
    job j;
    j.kind = kind;
    j.index = index;
    return j;
}

/* Print every job, one per line, in an order where each job's inputs come
   before it: the units, then the chains and real-only jobs, then merge. */
static void list_jobs(const s2r_options* opt) {
    int k, s;
    for (k = UNIT_JOB; k <= REAL_ONLY_JOB; k++)
        for (s = 1; s <= opt->seeds; s++) printf("%s:%d\n", job_kind_name[k], s);
    printf("merge\n");
}

/* --- records ------------------------------------------------------------ */

/* A job's record is an s2r_record (sim2real_jobs.h: stamped with the run's
   settings and the build, sealed by a checksum, so an edited, cut, or
   copied record is refused), its lines in this order:
     job,KIND,S                            which job it is
     time,started,ended,wall_s,peak_mib    s since the epoch; s; MiB
     unit,x,y,z,recorded,on_target,...     unit jobs: camera (m), demonstrations
                                           (both counts for each of the SETS)
     eval,PART,index,episodes,successes,diverged,mean_distance,mean_return,steps
                                           a non-empty result (its rate and
                                           interval follow from the counts)
     cloned,k,WAYS counts                  and spent,k,... for each curve point
     kept,following,own_actions,unchanged,none
     rl_kept,kept,unchanged,no_success
     cost,STAGE,wall_s,cpu_s,env_steps
   The numbers exact (%.17g).  Read back, what the lines say is checked
   too, as the checksum cannot tell a forgery or a bug: each line once,
   every line the job writes there, an evaluation of this run's episodes
   per row, every other count at most MAX_COUNT, so that nothing pooled
   over MAX_SEEDS seeds overflows. */
#define PARTS (4 + WAYS)   /* what an eval line holds: a row's four results, then the curves */
static const char* const part_name[PARTS] = {"sim", "real", "calibrated", "nominal", "curve", "curve_all",
                                             "curve_interventions", "curve_skilled", "curve_ceiling", "curve_rl",
                                             "curve_dr", "curve_dr_rl"};
#define MAX_COUNT 10000000   /* demonstrations, canaries, episodes of a job's other counts */
#define MAX_FIELDS (4 + 2 * SETS)   /* the unit line's */

/* The eval line of a non-empty result. */
static void write_eval(s2r_record* f, int part, int index, const s2r_eval_result* e) {
    if (e->episodes == 0) return;
    s2r_record_add(f, "eval,%s,%d,%d,%d,%d,%.17g,%.17g,%lld", part_name[part], index, e->episodes, e->successes,
                   e->diverged, e->mean_distance, e->mean_return, e->steps);
}

static int write_record(const run* r, job j, const job_record* rec) {
    const table* t = &rec->t;
    char path[512], title[128], error[S2R_ERROR_LEN];
    s2r_record f;
    int i, k, w, bad;
    snprintf(title, sizeof title, "sim2real.h example 07: the record of job %s:%d (see examples/07_the_table.c)",
             job_kind_name[j.kind], j.index);
    s2r_record_begin(&f, title, r->settings, r->build);
    s2r_record_add(&f, "job,%s,%d", job_kind_name[j.kind], j.index);
    s2r_record_add(&f, "time,%.0f,%.0f,%.17g,%.17g", rec->started, rec->ended, rec->wall_s, rec->peak_mib);
    if (j.kind == UNIT_JOB)
        s2r_record_add(&f, "unit,%.17g,%.17g,%.17g,%d,%d,%d,%d,%d,%d,%d,%d", rec->camera[0], rec->camera[1],
                       rec->camera[2], rec->recorded[0], rec->on_target[0], rec->recorded[1], rec->on_target[1],
                       rec->recorded[2], rec->on_target[2], rec->recorded[3], rec->on_target[3]);
    for (k = 0; k < ROWS; k++) {
        write_eval(&f, 0, k, &t->row[k].sim);
        write_eval(&f, 1, k, &t->row[k].real);
        write_eval(&f, 2, k, &t->calibrated[k]);
        write_eval(&f, 3, k, &t->nominal[k]);
    }
    for (w = 0; w < WAYS; w++)
        for (k = 0; k < CURVE; k++) write_eval(&f, 4 + w, k, &t->curve[w][k]);
    for (k = 0; k < CURVE; k++)
        for (i = 0; i < 2; i++) {   /* cloned, then spent: the point's count for every way */
            char counts[WAYS * 12] = "";
            for (w = 0; w < WAYS; w++)
                snprintf(counts + strlen(counts), sizeof counts - strlen(counts), ",%d",
                         i == 0 ? t->cloned[w][k] : t->spent[w][k]);
            s2r_record_add(&f, "%s,%d%s", i == 0 ? "cloned" : "spent", k, counts);
        }
    s2r_record_add(&f, "kept,%d,%d,%d,%d", t->kept[0], t->kept[1], t->kept[2], t->kept[3]);
    s2r_record_add(&f, "rl_kept,%d,%d,%d", t->rl_kept[0], t->rl_kept[1], t->rl_kept[2]);
    for (k = 0; k < STAGES; k++)
        if (t->cost[k].wall_s > 0 || t->cost[k].cpu_s > 0 || t->cost[k].env_steps > 0)
            s2r_record_add(&f, "cost,%s,%.17g,%.17g,%lld", stage_file[k], t->cost[k].wall_s, t->cost[k].cpu_s,
                           t->cost[k].env_steps);
    bad = s2r_record_save(&f, record_path(path, sizeof path, r->opt, j), error) != S2R_OK ? fail("record", error) : 0;
    s2r_record_free(&f);
    return bad;
}

typedef struct record_seen {   /* the lines a record has had, each allowed once */
    int job, time, unit, kept, rl_kept, eval[PARTS][ROWS], cloned[CURVE], spent[CURVE], cost[STAGES];
} record_seen;

/* The line's comma-separated fields, into buf (cap bytes) and f; how many
   (MAX_FIELDS + 1 for more). */
static int split(const char* line, char* buf, size_t cap, const char** f) {
    int n = 0;
    char* s;
    if (strlen(line) >= cap) return MAX_FIELDS + 1;
    strcpy(buf, line);
    for (s = buf; n <= MAX_FIELDS; s++) {
        f[n++] = s;
        if (!(s = strchr(s, ','))) break;
        *s = '\0';
    }
    return s ? MAX_FIELDS + 1 : n;
}

/* Fields f[first] .. f[n - 1] as finite numbers into v; 1 when all are. */
static int numbers(const char* const* f, int first, int n, double* v) {
    int k;
    for (k = first; k < n; k++) {
        char* end;
        v[k - first] = strtod(f[k], &end);
        if (end == f[k] || *end || !isfinite(v[k - first])) return 0;
    }
    return 1;
}

/* v a whole number in [lo, hi]. */
static int whole(double v, double lo, double hi) { return v >= lo && v <= hi && v == floor(v); }

/* The index of `word` in names[count], or -1. */
static int lookup(const char* word, const char* const* names, int count) {
    int k;
    for (k = 0; k < count; k++)
        if (!strcmp(word, names[k])) return k;
    return -1;
}

/* An eval line's fields (after "eval"): into the job's table; 0, or 1
   with the reason in why. */
static int read_eval(const run* r, job j, const char* const* f, int n, table* t, record_seen* seen, char* why,
                     size_t cap) {
    int part = n == 9 ? lookup(f[1], part_name, PARTS) : -1, index;
    double v[7];
    s2r_eval_result e;
    if (part < 0 || !numbers(f, 2, n, v) || !whole(v[0], 0, part >= 4 ? CURVE - 1 : ROWS - 1))
        return snprintf(why, cap, "not an eval line (eval,PART,index,episodes,successes,diverged,distance,return,"
                        "steps)"), 1;
    index = (int)v[0];
    if (j.kind == UNIT_JOB || (j.kind == CHAIN_JOB && part < 4 && index == REAL_ONLY) ||
        (j.kind == REAL_ONLY_JOB && (part >= 3 || index != REAL_ONLY)))
        return snprintf(why, cap, "an evaluation this job does not make (%s of %s)", part_name[part],
                        part >= 4 ? "a curve point" : row_file[index]), 1;
    if (seen->eval[part][index]++) return snprintf(why, cap, "a second %s line for the same result", f[1]), 1;
    if (v[1] != r->z.episodes || !whole(v[2], 0, v[1]) || !whole(v[3], 0, v[1]) ||
        !(v[4] == -1 || (v[4] >= 0 && v[4] <= 1e3)) || fabs(v[5]) > 1e12 || !whole(v[6], 0, v[1] * 1e6))
        return snprintf(why, cap, "an evaluation of %.17g episodes, %.17g successes, %.17g diverged: this run "
                        "evaluates %d episodes per row, the others at most as many", v[1], v[2], v[3],
                        r->z.episodes), 1;
    memset(&e, 0, sizeof e);
    e.episodes = (int)v[1];
    e.successes = (int)v[2];
    e.diverged = (int)v[3];
    e.success_rate = (double)e.successes / e.episodes;
    s2r_wilson_interval(e.successes, e.episodes, &e.success_lo, &e.success_hi);
    e.mean_distance = v[4];
    e.mean_return = v[5];
    e.steps = (long long)v[6];
    *(part == 0 ? &t->row[index].sim : part == 1 ? &t->row[index].real : part == 2 ? &t->calibrated[index]
      : part == 3 ? &t->nominal[index] : &t->curve[part - 4][index]) = e;
    return 0;
}

/* One of the job's lines into rec; 0, or 1 with the reason in why. */
static int read_record_line(const run* r, job j, const char* line, int first, job_record* rec, record_seen* seen,
                            char* why, size_t cap) {
    char buf[512];
    const char* f[MAX_FIELDS + 1];
    double v[MAX_FIELDS];
    int n = split(line, buf, sizeof buf, f), k, *into;
    const char* key = f[0];
    if (n > MAX_FIELDS) return snprintf(why, cap, "not a line this program writes"), 1;
    if (first != !strcmp(key, "job"))
        return snprintf(why, cap, first ? "the first line after the stamps is not the job line"
                                        : "a second job line"), 1;
    if (!strcmp(key, "job")) {
        seen->job = 1;
        if (n == 3 && !strcmp(f[1], job_kind_name[j.kind]) && numbers(f, 2, 3, v) && v[0] == j.index) return 0;
        return snprintf(why, cap, "the record of job %.32s:%.16s, not of %s:%d (renamed, or copied from another "
                        "job)", n > 1 ? f[1] : "?", n > 2 ? f[2] : "?", job_kind_name[j.kind], j.index), 1;
    }
    if (!strcmp(key, "time")) {
        if (seen->time++) return snprintf(why, cap, "a second time line"), 1;
        if (n != 5 || !numbers(f, 1, n, v) || v[0] < 0 || v[1] < v[0] || v[1] > 1e11 || v[2] < 0 || v[2] > 1e9 ||
            v[3] < 0 || v[3] > 1e9)
            return snprintf(why, cap, "not a time line (time,started,ended,wall_s,peak_mib)"), 1;
        rec->started = v[0]; rec->ended = v[1]; rec->wall_s = v[2]; rec->peak_mib = v[3];
        return 0;
    }
    if (!strcmp(key, "unit")) {
        int most = r->z.demos > curve_demos[CURVE - 1] ? r->z.demos : curve_demos[CURVE - 1], bad = 0;
        if (j.kind != UNIT_JOB || seen->unit++) return snprintf(why, cap, "a unit line %s",
                                                                j.kind != UNIT_JOB ? "in another job's record" : "again"), 1;
        bad = n != 4 + 2 * SETS || !numbers(f, 1, n, v) || fabs(v[0]) > 1 || fabs(v[1]) > 1 || fabs(v[2]) > 1;
        for (k = 0; k < SETS && !bad; k++) bad = !whole(v[3 + 2 * k], 1, most) || !whole(v[4 + 2 * k], 0, v[3 + 2 * k]);
        if (bad)
            return snprintf(why, cap, "not a unit line (camera within 1 m, then for each of %d sets 1 to %d "
                            "demonstrations recorded, at most as many on target)", SETS, most), 1;
        memcpy(rec->camera, v, sizeof rec->camera);
        for (k = 0; k < SETS; k++) {
            rec->recorded[k] = (int)v[3 + 2 * k];
            rec->on_target[k] = (int)v[4 + 2 * k];
        }
        return 0;
    }
    if (!strcmp(key, "eval")) return read_eval(r, j, f, n, &rec->t, seen, why, cap);
    if (!strcmp(key, "cloned") || !strcmp(key, "spent") || !strcmp(key, "kept") || !strcmp(key, "rl_kept")) {
        int kept = !strcmp(key, "kept"), rl = key[0] == 'r', counts = kept ? 4 : rl ? 3 : WAYS, first = kept || rl ? 1 : 2;
        int bad = n != first + counts || !numbers(f, 1, n, v) || (!kept && !rl && !whole(v[0], 0, CURVE - 1)), *seen_it;
        into = kept ? rec->t.kept : rl ? rec->t.rl_kept : key[0] == 'c' ? rec->t.cloned[0] : rec->t.spent[0];
        for (k = 0; k < counts && !bad; k++) bad = !whole(v[first - 1 + k], 0, MAX_COUNT);
        if (bad)
            return snprintf(why, cap, "not a %s line (%s%d counts, each at most %d)", key,
                            kept || rl ? "" : "a curve point and ", counts, MAX_COUNT), 1;
        seen_it = kept ? &seen->kept : rl ? &seen->rl_kept : &(key[0] == 'c' ? seen->cloned : seen->spent)[(int)v[0]];
        if ((*seen_it)++) return snprintf(why, cap, "a second %s line%s", key, kept || rl ? "" : " for the same curve point"), 1;
        for (k = 0; k < counts; k++)
            if (kept || rl) into[k] = (int)v[k];
            else into[k * CURVE + (int)v[0]] = (int)v[k + 1];   /* [WAYS][CURVE] */
        return 0;
    }
    if (!strcmp(key, "cost")) {
        int stage = n == 5 ? lookup(f[1], stage_file, STAGES) : -1;
        if (stage < 0 || !numbers(f, 2, n, v) || v[0] < 0 || v[0] > 1e9 || v[1] < 0 || v[1] > 1e9 ||
            !whole(v[2], 0, 1e15))
            return snprintf(why, cap, "not a cost line (cost,STAGE,wall_s,cpu_s,env_steps)"), 1;
        if (seen->cost[stage]++) return snprintf(why, cap, "a second cost line for %s", stage_file[stage]), 1;
        rec->t.cost[stage].wall_s = v[0];
        rec->t.cost[stage].cpu_s = v[1];
        rec->t.cost[stage].env_steps = (long long)v[2];
        return 0;
    }
    return snprintf(why, cap, "not a line this program writes ('%.40s')", key), 1;
}

/* A line every record of job j has, missing from what was seen (NULL:
   none). */
static const char* missing_line(job j, const record_seen* seen) {
    int k;
    if (!seen->job) return "job";
    if (!seen->time) return "time";
    if (j.kind == UNIT_JOB && !seen->unit) return "unit";
    if (!seen->kept) return "kept";
    if (!seen->rl_kept) return "rl_kept";
    for (k = 0; k < CURVE; k++)
        if (!seen->cloned[k] || !seen->spent[k]) return seen->cloned[k] ? "spent" : "cloned";
    return NULL;
}

/* A job's record into rec: 0; 1 when it is not there (nothing said); 2
   when it cannot be used (why, naming the file and the line). */
static int read_record(const run* r, job j, job_record* rec, char* why, size_t cap) {
    char path[512], error[S2R_ERROR_LEN], reason[256] = "";
    s2r_record in;
    record_seen seen;
    const char* need;
    s2r_result res;
    int i, number = 0, bad = 0;
    memset(rec, 0, sizeof *rec);
    memset(&seen, 0, sizeof seen);
    record_path(path, sizeof path, r->opt, j);
    if (!s2r_file_exists(path)) return 1;   /* stat: a FIFO is not opened */
    if ((res = s2r_record_load(&in, path, r->settings, r->build, error)) != S2R_OK) {
        snprintf(why, cap, "%s%s", error, res != S2R_ERR_STATE ? "" : strstr(error, "settings")
                 ? " - --robot, --task, --seed, --real-seed, --seeds, --quick, --smoke or --ranges differ" : "");
        return 2;
    }
    for (i = 0; i < in.lines && !bad; i++)
        bad = read_record_line(r, j, s2r_record_line(&in, i, &number), i == 0, rec, &seen, reason, sizeof reason);
    if (!bad && (need = missing_line(j, &seen)) != NULL) {
        snprintf(reason, sizeof reason, "no %s line (removed, or another version's record)", need);
        number = in.first_line + in.lines;
        bad = 1;
    }
    s2r_record_free(&in);
    if (bad) snprintf(why, cap, "%s, line %d: %s", path, number, reason);
    return bad ? 2 : 0;
}

/* The job is done already: --resume and its record is there and usable
   (one that cannot be used is said why, and the job runs again). */
static int done_already(const run* r, job j) {
    job_record rec;
    char why[640];
    int got = r->opt->resume ? read_record(r, j, &rec, why, sizeof why) : 1;
    if (got == 2) fprintf(stderr, "%s; running job %s:%d again\n", why, job_kind_name[j.kind], j.index);
    if (got != 0) return 0;
    printf("job %s:%d: done already (its record is in %s)\n", job_kind_name[j.kind], j.index, r->opt->out);
    return 1;
}

/* --- the jobs ------------------------------------------------------------- */

static unit_data units[MAX_SEEDS];   /* a unit job's units, or a chain's one */

/* Units first .. first + count - 1 (job indices): identify them side by
   side (each has its own simulators), then record each one's
   demonstrations (which use the threads themselves) and write its files
   and record. */
static int run_units(const run* r, int first, int count) {
    const s2r_options* opt = r->opt;
    int todo[MAX_SEEDS], n = 0, i, bad = 0;
    double side_by_side;   /* s of processor time identifying the units */
    job_record rec[MAX_SEEDS];
    for (i = 0; i < count; i++)
        if (!done_already(r, make_job(UNIT_JOB, first + i))) todo[n++] = first + i;
    if (n == 0) return 0;
    printf("Identifying unit%s", n > 1 ? "s side by side:" : "");
    for (i = 0; i < n; i++) printf(" #%llu", (unsigned long long)(opt->real_seed + (uint64_t)todo[i] - 1));
    printf(" ...\n");
    fflush(stdout);
    memset(rec, 0, sizeof rec);
    side_by_side = cpu_seconds();
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (i = 0; i < n; i++) {
        double start = s2r_seconds();
        rec[i].started = (double)time(NULL);
        identify_unit(opt, &r->z, opt->real_seed + (uint64_t)todo[i] - 1, &units[i]);
        rec[i].t.cost[MEASURE].wall_s += s2r_seconds() - start;
    }
    side_by_side = cpu_seconds() - side_by_side;   /* the processor time of them all, shared equally */
    for (i = 0; i < n; i++) rec[i].t.cost[MEASURE].cpu_s += side_by_side / n;
    for (i = 0; i < n && !bad; i++) {
        unit_data* u = &units[i];
        double start = s2r_seconds();
        if (u->error[0]) { bad = fail("unit", u->error); break; }
        fputs(u->report, stdout);
        bad = record_demos(opt, &r->z, u, rec[i].t.cost);
        unit_free(u);
        memcpy(rec[i].camera, u->camera, sizeof u->camera);
        memcpy(rec[i].recorded, u->recorded, sizeof u->recorded);
        memcpy(rec[i].on_target, u->on_target, sizeof u->on_target);
        rec[i].wall_s = rec[i].t.cost[MEASURE].wall_s + (s2r_seconds() - start);
        rec[i].ended = (double)time(NULL);
        rec[i].peak_mib = s2r_peak_memory_mib();
        if (!bad) bad = write_record(r, make_job(UNIT_JOB, todo[i]), &rec[i]);
        if (!bad && s2r_interrupt_requested()) bad = fail("stopped", "run again with --resume to continue");
    }
    return bad;
}

/* Unit job s's files into u: its record, ranges, identified model and
   the demonstration sets in `sets` (a bit per set: 1 << OP_DEFAULT ...).
   What a chain or real-only job needs. */
static int load_unit(const run* r, int s, unsigned sets, unit_data* u) {
    const s2r_options* opt = r->opt;
    job_record rec;
    char path[512], name[64], error[S2R_ERROR_LEN], need[640];
    int got = read_record(r, make_job(UNIT_JOB, s), &rec, need, sizeof need), e, k;
    memset(u, 0, sizeof *u);
    u->unit = opt->real_seed + (uint64_t)s - 1;
    if (got == 1) snprintf(need, sizeof need, "run job unit:%d first (its record is missing)", s);
    if (got == 2) snprintf(need + strlen(need), sizeof need - strlen(need), "; delete it and run job unit:%d again", s);
    if (got) return fail(got == 1 ? record_path(path, sizeof path, opt, make_job(UNIT_JOB, s)) : "unit", need);
    memcpy(u->recorded, rec.recorded, sizeof u->recorded);
    memcpy(u->on_target, rec.on_target, sizeof u->on_target);
    memcpy(u->camera, rec.camera, sizeof u->camera);
    u->calibrated = s2r_task_config_default(opt->task);
    s2r_task_config_set_camera(&u->calibrated, u->camera);
    u->ranges = u->identified = s2r_task_randomization(opt->task);
    snprintf(name, sizeof name, "ranges_unit%llu.txt", (unsigned long long)u->unit);
    if (s2r_randomization_load(&u->ranges, output(path, sizeof path, opt, name), error) != S2R_OK) return fail("unit", error);
    snprintf(name, sizeof name, "identified_unit%llu.txt", (unsigned long long)u->unit);
    if (s2r_randomization_load(&u->identified, output(path, sizeof path, opt, name), error) != S2R_OK)
        return fail("unit", error);
    for (k = 0; k < SETS; k++) {
        int ok = 0;
        if (!(sets & 1u << k)) continue;
        snprintf(name, sizeof name, "%s_unit%llu.bin", set_file[k], (unsigned long long)u->unit);
        if (s2r_dataset_load(&u->demos[k], output(path, sizeof path, opt, name), error) != S2R_OK) {
            unit_free(u);
            return fail("unit", error);
        }
        for (e = 0; e < u->demos[k].episodes; e++) ok += u->demos[k].episode_success[e];
        if (u->demos[k].episodes != u->recorded[k] || ok != u->on_target[k]) {
            unit_free(u);
            return fail(path, "it does not hold the demonstrations its record counts (recorded, and ended on target), "
                        "episode by episode");
        }
    }
    return 0;
}

/* Training seed s's chain on its unit. */
static int run_chain_job(const run* r, int s) {
    job j = make_job(CHAIN_JOB, s);
    job_record rec;
    unit_data* u = &units[0];
    double start = s2r_seconds();
    int bad;
    if (done_already(r, j)) return 0;
    memset(&rec, 0, sizeof rec);
    rec.started = (double)time(NULL);
    if (load_unit(r, s, (1u << SETS) - 1, u)) return 1;
    bad = run_chain(r->opt, &r->z, r->opt->seed + (uint64_t)s - 1, u, &rec.t);
    unit_free(u);
    rec.ended = (double)time(NULL);
    rec.wall_s = s2r_seconds() - start;
    rec.peak_mib = s2r_peak_memory_mib();
    return bad ? 1 : write_record(r, j, &rec);
}

/* Behaviour cloning from scratch on every unit's demonstrations (unit by
   unit), measured on unit s with its camera calibrated. */
static int run_real_only_job(const run* r, int s) {
    const s2r_options* opt = r->opt;
    job j = make_job(REAL_ONLY_JOB, s);
    job_record rec;
    s2r_dataset pooled;
    unit_data* u = &units[0];
    s2r_task_config mine = s2r_task_config_default(opt->task);
    double start = s2r_seconds();
    int k, bad = 0;
    if (done_already(r, j)) return 0;
    memset(&rec, 0, sizeof rec);
    memset(&pooled, 0, sizeof pooled);
    rec.started = (double)time(NULL);
    for (k = 1; k <= opt->seeds && !bad; k++) {
        const s2r_dataset* d = &u->demos[OP_DEFAULT];
        if ((bad = load_unit(r, k, 1u << OP_DEFAULT, u)) != 0) break;
        if (k == s) mine = u->calibrated;
        if (k == 1 && s2r_dataset_init(&pooled, d->obs_dim, d->act_dim) != S2R_OK) bad = fail("demos", pooled.error);
        if (!bad && s2r_dataset_append_episodes(&pooled, d, 0, d->episodes, 0, NULL) != S2R_OK)
            bad = fail("demos", pooled.error);
        unit_free(u);
    }
    if (!bad) {
        printf("\n== real only, training seed %llu, real unit #%llu: %d pairs from %d units ==\n",
               (unsigned long long)(opt->seed + (uint64_t)s - 1), (unsigned long long)(opt->real_seed + (uint64_t)s - 1),
               pooled.count, opt->seeds);
        bad = real_only_row(opt, &r->z, &pooled, opt->seed + (uint64_t)s - 1, opt->real_seed + (uint64_t)s - 1, &mine,
                            &rec.t.row[REAL_ONLY], &rec.t.cost[REAL_ONLY]);
    }
    s2r_dataset_free(&pooled);
    if (bad) return 1;
    rec.t.calibrated[REAL_ONLY] = rec.t.row[REAL_ONLY].real;
    printf("  %-34s real %5.1f %%\n", row_name[REAL_ONLY], 100 * rec.t.row[REAL_ONLY].real.success_rate);
    rec.ended = (double)time(NULL);
    rec.wall_s = s2r_seconds() - start;
    rec.peak_mib = s2r_peak_memory_mib();
    return write_record(r, j, &rec);
}

/* --- the merge ---------------------------------------------------------- */

static int write_markdown(const s2r_options* opt, const sizes* z, const table* t, double seconds, double peak);
static int write_csvs(const s2r_options* opt, const table* t, double seconds, double peak);
static int write_seeds(const run* r, job_record (*rec)[3]);
static void seed_by_seed(job_record (*rec)[3], int seeds, table* t);
static int plot_table(const s2r_options* opt, const table* t);

/* Pool every job's record, in seed order, into the table and write it. */
static int merge(const run* r, double single_wall, double single_peak) {
    static job_record rec[MAX_SEEDS][3];   /* [seed][unit, chain, real-only] */
    static table t;
    const s2r_options* opt = r->opt;
    char missing[1024] = "", why[640];
    double first = 0, last = 0, peak = 0, sum = 0, seconds, longest[3] = {0, 0, 0};
    int s, k, i, n_missing = 0, bad = 0;
    memset(&t, 0, sizeof t);
    for (s = 1; s <= opt->seeds; s++)
        for (k = 0; k < 3; k++) {
            int got = read_record(r, make_job(k, s), &rec[s - 1][k], why, sizeof why);
            size_t used = strlen(missing);
            if (got == 2) {
                fprintf(stderr, "%s; delete it and run job %s:%d again\n", why, job_kind_name[k], s);
                bad = 1;
            }
            if (got == 1 && n_missing++ < 20)
                snprintf(missing + used, sizeof missing - used, " %s:%d", job_kind_name[k], s);
        }
    if (n_missing) {
        fprintf(stderr, "merge: %d job(s) have no record in %s yet:%s%s - run them, then merge again; no table "
                "written\n", n_missing, opt->out, missing, n_missing > 20 ? " ..." : "");
        return 1;
    }
    if (bad) return fail("merge", "no table written");
    for (s = 0; s < opt->seeds; s++) {
        const job_record* unit = &rec[s][UNIT_JOB];
        const table* c = &rec[s][CHAIN_JOB].t;
        for (i = PURE; i <= REAL_ONLY; i++) {   /* what a job did not measure stays empty */
            const table* from = i == REAL_ONLY ? &rec[s][REAL_ONLY_JOB].t : c;
            if (from->row[i].sim.episodes || from->row[i].real.episodes) s2r_sim_real_eval_pool(&t.row[i], &from->row[i]);
            if (from->calibrated[i].episodes) s2r_eval_merge(&t.calibrated[i], &from->calibrated[i]);
            if (from->nominal[i].episodes) s2r_eval_merge(&t.nominal[i], &from->nominal[i]);
        }
        for (k = 0; k < WAYS; k++)
            for (i = 0; i < CURVE; i++) {
                if (c->curve[k][i].episodes) s2r_eval_merge(&t.curve[k][i], &c->curve[k][i]);
                t.cloned[k][i] += c->cloned[k][i];
                t.spent[k][i] += c->spent[k][i];
            }
        for (i = 0; i < 4; i++) t.kept[i] += c->kept[i];
        for (i = 0; i < 3; i++) t.rl_kept[i] += c->rl_kept[i];
        for (i = 0; i < SETS; i++) {
            t.recorded[i] += unit->recorded[i];
            t.on_target[i] += unit->on_target[i];
        }
        t.pooled_demos += unit->recorded[OP_DEFAULT];
        for (k = 0; k < 3; k++) {
            const job_record* one = &rec[s][k];
            for (i = 0; i < STAGES; i++) {
                t.cost[i].wall_s += one->t.cost[i].wall_s;
                t.cost[i].cpu_s += one->t.cost[i].cpu_s;
                t.cost[i].env_steps += one->t.cost[i].env_steps;
            }
            if ((s == 0 && k == 0) || one->started < first) first = one->started;
            if (one->ended > last) last = one->ended;
            if (one->peak_mib > peak) peak = one->peak_mib;
            if (one->wall_s > longest[k]) longest[k] = one->wall_s;
            sum += one->wall_s;
        }
    }
    seed_by_seed(rec, opt->seeds, &t);
    seconds = single_wall > 0 ? single_wall : last - first;   /* one process ran them all, or jobs from first to last */
    if (single_wall > 0) peak = single_peak;
    printf("\njobs: %.0f s of work over %d jobs; the longest unit, chain and real-only jobs took %.0f, %.0f and %.0f s, "
           "so with a core per job the run would take about %.0f s (projected from this run's job times)\n",
           sum, 3 * opt->seeds, longest[0], longest[1], longest[2],
           longest[0] + (longest[1] > longest[2] ? longest[1] : longest[2]));
    if (write_markdown(opt, &r->z, &t, seconds, peak) || write_csvs(opt, &t, seconds, peak) ||
        write_seeds(r, rec) || plot_table(opt, &t))
        return 1;
    {
        char path[512];
        FILE* f = fopen(output(path, sizeof path, opt, "table.md"), "r");
        int c;
        printf("\n");
        if (f) { while ((c = fgetc(f)) != EOF) putchar(c); fclose(f); }
    }
    printf("\nWhere the time went (all jobs):\n");
    for (s = 0; s < STAGES; s++)
        printf("  %-20s %7.0f s wall %7.0f s processor %12lld environment steps: %s\n", stage_file[s],
               t.cost[s].wall_s, t.cost[s].cpu_s, t.cost[s].env_steps, stage_measures[s]);
    printf("\nwrote %s/%s_table.md, _table.csv, _table.png, _demo_curve.csv, _seeds.csv, _over_seeds.csv, _jobs.csv, "
           "_units.csv, _demo_curve_seeds.csv, _timing.csv, _run.csv\n",
           opt->out, prefix(opt));
    return 0;
}

/* Each row over seeds, and against the row it is judged by, seed by seed
   (the seeds where both were measured). */
static void seed_by_seed(job_record (*rec)[3], int seeds, table* t) {
    double rate[MAX_SEEDS], diff[MAX_SEEDS];
    int r, s;
    for (r = 0; r < ROWS; r++) {
        over_seeds* o = &t->over[r];
        int n = 0, paired = 0, a = row_against[r];
        for (s = 0; s < seeds; s++) {
            const s2r_eval_result* mine = &rec[s][r == REAL_ONLY ? REAL_ONLY_JOB : CHAIN_JOB].t.row[r].real;
            const s2r_eval_result* other = a < 0 ? NULL : &rec[s][CHAIN_JOB].t.row[a].real;
            if (mine->episodes == 0) continue;
            rate[n++] = mine->success_rate;
            if (!other || other->episodes == 0) continue;
            diff[paired] = mine->success_rate - other->success_rate;
            o->ahead += diff[paired] > 0;
            o->behind += diff[paired] < 0;
            paired++;
        }
        o->seeds = n;
        o->pairs = paired;
        s2r_mean_interval(rate, n, &o->mean, &o->lo, &o->hi);
        s2r_mean_interval(diff, paired, &o->diff, &o->diff_lo, &o->diff_hi);
        o->lo = fmax(o->lo, 0);             /* rates stay rates */
        o->hi = fmin(o->hi, 1);
        o->diff_lo = fmax(o->diff_lo, -1);
        o->diff_hi = fmin(o->diff_hi, 1);
    }
}

/* Every row per seed (the spread behind the pooled rows), every job's
   time, each unit's camera offset and demonstrations, and the demo curve
   seed by seed. */
static int write_seeds(const run* r, job_record (*rec)[3]) {
    const s2r_options* opt = r->opt;
    s2r_file file;
    FILE* csv = begin_file(&file, opt, "seeds.csv");
    int s, k;
    if (!csv) return 1;
    /* each row says what made it (arm, task, settings and build digests), so
       the rows of several runs can be concatenated and told apart */
    fprintf(csv, "robot,task,seed,unit,recipe,sim_episodes,sim_success,real_episodes,real_success,calibrated_success,"
                 "sizes,settings,build\n");
    for (s = 0; s < opt->seeds; s++)
        for (k = 0; k < ROWS; k++) {
            const table* t = &rec[s][k == REAL_ONLY ? REAL_ONLY_JOB : CHAIN_JOB].t;
            if (t->row[k].real.episodes == 0) continue;
            fprintf(csv, "%s,%s,%llu,%llu,%s,%d,%.4f,%d,%.4f,%.4f,%s,%016llx,%016llx\n", s2r_robot_kind_name(opt->robot),
                    s2r_task_kind_name(opt->task), (unsigned long long)(opt->seed + (uint64_t)s),
                    (unsigned long long)(opt->real_seed + (uint64_t)s), row_file[k], t->row[k].sim.episodes,
                    t->row[k].sim.success_rate, t->row[k].real.episodes, t->row[k].real.success_rate,
                    t->calibrated[k].success_rate, sizes_name(opt), (unsigned long long)r->settings,
                    (unsigned long long)r->build);
        }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "jobs.csv"))) return 1;
    fprintf(csv, "job,wall_s,started,ended,peak_memory_mib\n");
    for (k = 0; k < 3; k++)
        for (s = 0; s < opt->seeds; s++)
            fprintf(csv, "%s:%d,%.1f,%.0f,%.0f,%.1f\n", job_kind_name[k], s + 1, rec[s][k].wall_s, rec[s][k].started,
                    rec[s][k].ended, rec[s][k].peak_mib);
    if (end_file(&file) || !(csv = begin_file(&file, opt, "units.csv"))) return 1;
    fprintf(csv, "unit,camera_x_mm,camera_y_mm,camera_z_mm,demonstrations,on_target,raw_camera_demonstrations,"
                 "raw_camera_on_target,skilled_demonstrations,skilled_on_target,ceiling_demonstrations,"
                 "ceiling_on_target\n");   /* as its unit job found it: each operator's own success on the unit */
    for (s = 0; s < opt->seeds; s++) {
        const job_record* u = &rec[s][UNIT_JOB];
        fprintf(csv, "%llu,%.1f,%.1f,%.1f", (unsigned long long)(opt->real_seed + (uint64_t)s), 1000 * u->camera[0],
                1000 * u->camera[1], 1000 * u->camera[2]);
        for (k = 0; k < SETS; k++) fprintf(csv, ",%d,%d", u->recorded[k], u->on_target[k]);
        fprintf(csv, "\n");
    }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "demo_curve_seeds.csv"))) return 1;
    fprintf(csv, "seed,unit,demos,cloned,demos_cloned,unit_episodes,real_episodes,real_success\n");   /* each seed's point */
    for (s = 0; s < opt->seeds; s++)
        for (k = 0; k < WAYS; k++) {
            const table* t = &rec[s][CHAIN_JOB].t;
            int i;
            for (i = 0; i < CURVE; i++)
                if (t->curve[k][i].episodes > 0)
                    fprintf(csv, "%llu,%llu,%d,%s,%d,%d,%d,%.4f\n", (unsigned long long)(opt->seed + (uint64_t)s),
                            (unsigned long long)(opt->real_seed + (uint64_t)s), curve_demos[i], way_name[k],
                            t->cloned[k][i], t->spent[k][i], t->curve[k][i].episodes, t->curve[k][i].success_rate);
        }
    return end_file(&file);
}
