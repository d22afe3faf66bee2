/* s2r_cli.h - running sim2real.h's examples: command line, output folder,
               progress, arm facts (a companion header of sim2real.h)

   What every example program shares and the recipe itself does not need:
   the options they all take (s2r_options_parse, s2r_example_start), the
   output folder (made, and claimed so two runs never write one), the
   names of an example's files per task, output files written whole,
   whether progress can redraw in place, peak memory, and an arm's facts
   printed as a table.  Ctrl-C stays in sim2real.h (s2r_interrupt_catch),
   since s2r_train honours it; so does s2r_file_exists.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "s2r_cli.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.
   Needs only what sim2real.h needs.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before s2r_cli.h"
#endif
#ifndef S2R_CLI_H
#define S2R_CLI_H

/* ==========================================================================
   Running the examples: command line, output folder, progress
   ==========================================================================
   The examples share these options; each takes those it uses (its
   --help lists them) and refuses the others:

     --robot ur5e|panda   which arm (default ur5e)
     --seed N             training / experiment seed (default 1)
     --real-seed N        first unit of the real fleet to use (default 1)
     --seeds N            number of training seeds, where an example uses several (3)
     --threads N          worker threads for rollouts, updates, cloning, evaluation (default 1)
     --out DIR            where artifacts go, created if missing (default out)
     --quick              smoke-run sizes: the whole step in seconds (example
                          07: a quick table that trains, minutes; its
                          smoke-run sizes are --smoke)
     --smoke              example 07's smoke-run sizes: the pipeline checked
                          end to end in seconds, nothing trained
     --resume             continue interrupted training from its saved state in DIR
     --checkpoint-every N training updates between saved states (10)
     --mjcf FILE          your arm's MJCF (the conventions in Robots), for the
                          built-in --robot
     --ranges FILE        a ranges file (s2r_randomization_write), e.g. what
                          system identification recentred, to train on (with
                          --policy: the ranges that policy was trained on)
     --policy FILE        a checkpoint to use, given by its path (example 06:
                          the candidate to deploy; its randomization digest
                          must be recorded and match --ranges)
     --log FILE           a trajectory file (CSV, see Trajectory files); give it
                          once per file, up to S2R_OPTIONS_MAX_LOGS
     --history K          frames of history the policy sees (0..S2R_HISTORY_MAX;
                          0, a policy without memory)
     --adr                automatic domain randomization: the ranges grow from
                          their centres during training (s2r_adr)
     --privileged         a privileged critic: the value network also sees the
                          simulator's parameters (s2r_training.privileged_critic)
     --joint NAME[J]      system identification: fit joint J's own NAME (kp, kv,
                          torque_limit, damping, armature, frictionloss; joints
                          from 1), e.g. --joint kp[4] for a joint the report
                          flags; NAME alone fits one NAME for every joint beside
                          the defaults (--joint damping: a model with joint
                          damping beside its servos' kv); up to
                          S2R_OPTIONS_MAX_JOINTS
     --weight-qd W        system identification from logs: the weight of
                          squared velocity errors, s^2 (default
                          S2R_LOG_WEIGHT_QD; used where the logs have qd_J)
     --write-excitation FILE  write the excitation to play on your arm as
                          timed joint targets (s2r_excitation_write_csv) and stop
     --address ADDRESS    the robot served there is the lab unit (s2r_socket_robot:
                          a Unix socket path or tcp:HOST:PORT; examples/
                          robot_server.c, robot_server.py or your arm's driver)
     --representable      system ID against the truth (example 10): units
                          with only the effects the simulator can represent -
                          their sigmoid joint friction, backlash and
                          speed-dependent torque limit switched off
     --job NAME           run one job of a program that splits its work
                          into jobs (example 07: unit:S, chain:S,
                          real-only:S for S = 1..--seeds, or merge); a job
                          claims --out for itself only, so the jobs of one
                          run share the folder
     --help               print the options this program takes

   An unknown option, a missing value or a malformed number is an error
   (S2R_ERR_PARSE) naming the option; nothing is half-parsed. */

#define S2R_OPTIONS_MAX_LOGS 16   /* --log files one run takes */
#define S2R_OPTIONS_MAX_JOINTS 8  /* --joint entries one run takes */

typedef struct s2r_options {
    s2r_robot_kind robot;       /* --robot; S2R_ROBOT_UR5E                 */
    s2r_task_kind  task;        /* --task; S2R_TASK_REACH                  */
    uint64_t       seed;        /* --seed; 1                               */
    uint64_t       real_seed;   /* --real-seed; 1                          */
    int            seeds;       /* --seeds; 3                              */
    int            threads;     /* --threads; 1                            */
    int            quick;       /* --quick; 0                              */
    int            smoke;       /* --smoke; 0                              */
    int            resume;      /* --resume; 0                             */
    int            checkpoint_every; /* --checkpoint-every; 10 (updates)   */
    int            help;        /* --help was given; 0                     */
    char           out[256];    /* --out; "out"                            */
    char           mjcf[256];   /* --mjcf; "" (none)                       */
    char           ranges[256]; /* --ranges; "" (none)                     */
    char           policy[256]; /* --policy; "" (none)                     */
    int            history;     /* --history; 0                            */
    int            adr;         /* --adr; 0                                */
    int            privileged;  /* --privileged; 0                         */
    int            n_logs;      /* --log given this many times; 0          */
    char           logs[S2R_OPTIONS_MAX_LOGS][256];   /* --log, in order  */
    int            n_joints;    /* --joint given this many times; 0        */
    s2r_param      joint_param[S2R_OPTIONS_MAX_JOINTS];   /* --joint NAME */
    int            joint[S2R_OPTIONS_MAX_JOINTS];         /* ... and J (0:
                                                     NAME alone, every joint) */
    char           job[32];     /* --job; "" (the whole program)           */
    double         weight_qd;   /* --weight-qd; S2R_LOG_WEIGHT_QD (s^2)    */
    char           excitation[256]; /* --write-excitation; "" (none)       */
    char           address[256]; /* --address; "" (none: stand-in units)   */
    int            representable; /* --representable; 0                    */
    unsigned       given;       /* S2R_OPT_* bits of the options given     */
} s2r_options;

/* The options, as bits: what a program uses (s2r_options_only) and what
   was given (s2r_options.given). */
enum {
    S2R_OPT_ROBOT = 1u << 0, S2R_OPT_TASK = 1u << 1, S2R_OPT_SEED = 1u << 2, S2R_OPT_REAL_SEED = 1u << 3,
    S2R_OPT_SEEDS = 1u << 4, S2R_OPT_THREADS = 1u << 5, S2R_OPT_OUT = 1u << 6, S2R_OPT_QUICK = 1u << 7,
    S2R_OPT_RESUME = 1u << 8 | 1u << 17,   /* --resume and --checkpoint-every, taken together; */
    S2R_OPT_RESUME_FLAG = 1u << 8, S2R_OPT_CHECKPOINT_EVERY = 1u << 17,   /* ... each given sets its own */
    S2R_OPT_MJCF = 1u << 9, S2R_OPT_RANGES = 1u << 10, S2R_OPT_LOG = 1u << 11, S2R_OPT_HISTORY = 1u << 12,
    S2R_OPT_ADR = 1u << 13, S2R_OPT_PRIVILEGED = 1u << 14, S2R_OPT_JOINT = 1u << 15, S2R_OPT_JOB = 1u << 18,
    S2R_OPT_WEIGHT_QD = 1u << 19, S2R_OPT_WRITE_EXCITATION = 1u << 20, S2R_OPT_ADDRESS = 1u << 21,
    S2R_OPT_REPRESENTABLE = 1u << 22, S2R_OPT_POLICY = 1u << 23, S2R_OPT_SMOKE = 1u << 24,
    /* Not options: stages a program runs, whose limits s2r_example_start
       checks before any work. */
    S2R_STAGE_DEMOS = 1u << 16   /* records demonstrations (s2r_collect_unit_demos): --threads
                                    1..S2R_DEMO_THREADS_MAX */
};

S2RDEF s2r_options s2r_options_default(void);
S2RDEF s2r_result  s2r_options_parse(s2r_options* options, int argc, char** argv, char* error);
/* Print the program's purpose and the options it takes (`used`: S2R_OPT_*
   bits), one line each, and --help. */
S2RDEF void        s2r_options_usage(const char* program, const char* purpose, unsigned used);
/* S2R_ERR_PARSE naming the first option given that a program does not use
   (`used`: S2R_OPT_* bits), so that "--resume" or "--task push" never
   passes silently where it would change nothing. */
S2RDEF s2r_result  s2r_options_only(const s2r_options* options, unsigned used, char* error);
/* The training ranges a program starts from: the file --ranges names when
   given (s2r_randomization_load), else the task's defaults
   (s2r_task_randomization).  Errors are the loader's, naming the file. */
S2RDEF s2r_result  s2r_options_ranges(const s2r_options* options, s2r_randomization* out, char* error);
/* How every example starts: parse the command line, print the usage on
   --help (the options in `used` only), refuse options it does not use and
   values its stages cannot take (`used`'s S2R_STAGE_* bits),
   check the files the options name before any work (s2r_options_check),
   print what loading --mjcf's model inferred or changed
   (s2r_arm_notice_print), hand --threads to OpenMP when given, and make and claim --out
   (s2r_claim_dir).  S2R_OK to go on; otherwise stop with *status as the
   exit status (0 after --help, 2 for a bad command line, 1 for an unusable
   file or folder), the reason printed.  Nothing is written but the
   folder's lock. */
S2RDEF s2r_result  s2r_example_start(s2r_options* options, int argc, char** argv, const char* purpose,
                                     unsigned used, int* status);
/* What makes two runs' results comparable, as 64-bit digests: the
   settings (--robot, --task, --seed, --real-seed, --seeds, --quick, --smoke,
   --history, --adr, --privileged, --mjcf's name and the training ranges'
   content - s2r_options_ranges, so a --ranges file is read; not --threads,
   --out, --resume or --job, which change no number), and the program as
   built (its executable's bytes, from /proc/self/exe; where that cannot be
   read, the library's version).  Jobs stamp their files with both, and a
   merge refuses files whose stamps differ from its own. */
S2RDEF s2r_result  s2r_options_digest(const s2r_options* options, uint64_t* digest, char* error);
S2RDEF uint64_t    s2r_build_digest(void);
/* The files the options name, checked as the program will use them,
   before anything is written: --ranges read (s2r_options_ranges) and
   --mjcf loaded, by building the simulator of the arm (--robot or --mjcf)
   and task with those ranges - so a latency longer than the delay line,
   a timestep out of bounds or a malformed model stops the run at once.
   The loader's or the simulator's error, naming the file.  (--address is
   checked for its form when parsed; the robot is connected to when the
   program uses it.) */
S2RDEF s2r_result  s2r_options_check(const s2r_options* options, char* error);
/* Observation and action sizes of the options' task on their arm:
   --robot's, or with --mjcf that file's joint count (the model loaded;
   its loader's error otherwise). */
S2RDEF s2r_result  s2r_options_task_dims(const s2r_options* options, int* obs_dim, int* act_dim, char* error);
/* A policy an earlier example saved, checked before any work: the
   checkpoint at `path` loaded into p (s2r_policy_from_checkpoint), made
   for the options' arm and task (--robot or --mjcf, --task; the arm and
   task it was made for are named when they differ), seeing `history` frames, and,
   when ranges_path is not NULL, trained on the ranges in that file
   (s2r_policy_check_ranges).  On an error p is freed and error names the
   file and what is wrong. */
S2RDEF s2r_result  s2r_upstream_policy(s2r_policy* p, const char* path, const s2r_options* options, int history,
                                       const char* ranges_path, char* error);
/* Between an example's stages: 1, after saying so, when Ctrl-C or
   SIGTERM asked the run to stop (s2r_interrupt_catch); the example then
   exits with status 130.  What it saved stays: the message says to run
   again with --resume to go on where the program takes --resume (its
   s2r_example_start's `used` has S2R_OPT_RESUME), else that a run again
   starts over. */
S2RDEF int         s2r_example_stopped(void);
/* 1 and *out set if text is a whole decimal number in [lo, hi] (digits
   only: no sign, blank or anything after); else 0, *out untouched. */
S2RDEF int         s2r_parse_count(const char* text, unsigned long long lo, unsigned long long hi,
                                   unsigned long long* out);
/* Create a folder (and its parents) if missing and check it can be written:
   S2R_ERR_IO with a message otherwise. */
S2RDEF s2r_result  s2r_make_dir(const char* path, char* error);
/* Make an output folder (s2r_make_dir) and claim it for this process: the
   examples' first step.  DIR/.sim2real.lock holds its
   pid until the process exits (removed at exit).  A folder another live
   process holds is refused (S2R_ERR_IO naming the process), so two runs
   never write one folder; a lock left by a process that is gone (killed,
   whether or not its parent has reaped it yet) is taken over.  (Liveness
   is read from /proc on Linux; elsewhere a lock is only taken over once
   removed by hand.)  A process holds one folder: claiming another
   releases the first.  A folder the claim made (and its parents it made)
   is removed again at exit when the run left it empty: a run refused
   before it wrote anything leaves no empty folder behind. */
S2RDEF s2r_result  s2r_claim_dir(const char* dir, char* error);
/* The same for one job of a run (--job): DIR/.sim2real.JOB.lock, so the
   jobs of one run share the folder and the same job never runs twice at
   once (the ':' of a job's name is written '-'). */
S2RDEF s2r_result  s2r_claim_dir_for_job(const char* dir, const char* job, char* error);
/* dir + "/" + file into out (cap bytes); returns out. */
S2RDEF const char* s2r_path(char* out, size_t cap, const char* dir, const char* file);
/* An example's file for the task: --out + "/" + example + ("_push" for
   push) + "_" + name, e.g. "out/07_push_table.csv" (reach's names have no
   task: they were the first); returns out. */
S2RDEF const char* s2r_task_path(char* out, size_t cap, const s2r_options* opt, const char* example,
                                 const char* name);
/* The same name without the folder, e.g. "01_push_pure_sim" (for
   s2r_training_use_options); returns out. */
S2RDEF const char* s2r_task_name(char* out, size_t cap, const s2r_options* opt, const char* example,
                                 const char* name);
/* An example's output file, whole or not at all: s2r_file_create at
   `path`, printing the reason to stderr when it fails; returns the stream
   to write, or NULL.  s2r_output_commit is s2r_file_commit, likewise. */
S2RDEF FILE*       s2r_output_create(s2r_file* file, const char* path);
S2RDEF s2r_result  s2r_output_commit(s2r_file* file);
/* 1 when standard output is a terminal (progress bars redraw in place). */
S2RDEF int         s2r_stdout_is_terminal(void);
/* Make a training run resumable from the options: its state goes to
   DIR/<name>.state every --checkpoint-every updates and is picked up again
   with --resume.  `path` (cap bytes) keeps the file name for t. */
S2RDEF void        s2r_training_use_options(s2r_training* t, const s2r_options* opt, const char* name,
                                            char* path, size_t cap);
/* Peak resident memory of this process so far, MiB (Linux: VmHWM from
   /proc/self/status); -1 where that is not available. */
S2RDEF double      s2r_peak_memory_mib(void);
/* System identification's progress, for s2r_sysid_config.on_sweep: one
   line per sweep - the sweep, the training loss, the loss evaluations and,
   when `context` points to a start time (s2r_seconds), the seconds since. */
S2RDEF void        s2r_sysid_progress(void* context, const s2r_sysid_result* so_far);
/* Print an arm's facts: joints, limits, torques, masses, workspace. */
S2RDEF void        s2r_arm_info_print(const s2r_arm_info* info);
/* What loading inferred where your model leaves a convention out
   (s2r_arm_info.notice), a line per sentence; nothing when it is empty.
   s2r_example_start prints it for --mjcf's model. */
S2RDEF void        s2r_arm_notice_print(const s2r_arm_info* info);


#endif /* S2R_CLI_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_CLI_IMPLEMENTATION_DONE
#error "s2r_cli.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_CLI_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "s2r_cli.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* ==========================================================================
   Running the examples (implementation)
   ========================================================================== */

S2RDEF s2r_options s2r_options_default(void) {
    s2r_options o;
    memset(&o, 0, sizeof o);
    o.robot = S2R_ROBOT_UR5E;
    o.seed = 1;
    o.real_seed = 1;
    o.seeds = 3;
    o.threads = 1;
    o.checkpoint_every = 10;
    o.weight_qd = S2R_LOG_WEIGHT_QD;
    snprintf(o.out, sizeof o.out, "out");
    return o;
}

S2RDEF int s2r_parse_count(const char* text, unsigned long long lo, unsigned long long hi, unsigned long long* out) {
    char* end = NULL;
    unsigned long long v;
    if (!text || *text < '0' || *text > '9') return 0;   /* strtoull takes blanks and signs */
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

#define S2R__CLI_STR(x) S2R__CLI_STR2(x)   /* a number as its digits, in a string literal */
#define S2R__CLI_STR2(x) #x

/* Each option: its name, its S2R_OPT_* bit and its line of --help. */
static const struct { const char* name; unsigned bit; const char* help; } s2r__option_bits[] = {
    {"--robot", S2R_OPT_ROBOT,
     "  --robot ur5e|panda   which arm (default ur5e)"},
    {"--task", S2R_OPT_TASK,
     "  --task reach|push    which task (default reach)"},
    {"--seed", S2R_OPT_SEED,
     "  --seed N             experiment seed (default 1)"},
    {"--real-seed", S2R_OPT_REAL_SEED,
     "  --real-seed N        first unit of the real fleet (default 1)"},
    {"--seeds", S2R_OPT_SEEDS,
     "  --seeds N            training seeds where several are used (default 3)"},
    {"--threads", S2R_OPT_THREADS,
     "  --threads N          worker threads for rollouts, updates, cloning, evaluation (default 1)"},
    {"--out", S2R_OPT_OUT,
     "  --out DIR            output folder, created if missing (default out)"},
    {"--quick", S2R_OPT_QUICK,
     "  --quick              smoke-run sizes"},
    {"--smoke", S2R_OPT_SMOKE,
     "  --smoke              the smallest sizes: checks the pipeline, trains nothing"},
    {"--resume", S2R_OPT_RESUME_FLAG,
     "  --resume             continue interrupted training from its saved state"},
    {"--checkpoint-every", S2R_OPT_CHECKPOINT_EVERY,
     "  --checkpoint-every N training updates between saved states (default 10)"},
    {"--mjcf", S2R_OPT_MJCF,
     "  --mjcf FILE          your arm's MJCF instead of the built-in --robot"},
    {"--ranges", S2R_OPT_RANGES,
     "  --ranges FILE        a ranges file to train on (e.g. one system ID recentred)"},
    {"--policy", S2R_OPT_POLICY,
     "  --policy FILE        the checkpoint to use, by its path (with --ranges, the ranges it was trained on)"},
    {"--log", S2R_OPT_LOG,
     "  --log FILE           a trajectory CSV (once per file, up to " S2R__CLI_STR(S2R_OPTIONS_MAX_LOGS) ")"},
    {"--history", S2R_OPT_HISTORY,
     "  --history K          frames of history the policy sees (default 0)"},
    {"--adr", S2R_OPT_ADR,
     "  --adr                automatic domain randomization: ranges grow during training"},
    {"--privileged", S2R_OPT_PRIVILEGED,
     "  --privileged         a privileged critic: the value network also sees the parameters"},
    {"--joint", S2R_OPT_JOINT,
     "  --joint NAME[J]      system ID: fit joint J's own NAME (e.g. kp[4]), or with NAME alone one for\n"
     "                       every joint beside the defaults (e.g. damping; up to "
     S2R__CLI_STR(S2R_OPTIONS_MAX_JOINTS) ")"},
    {"--job", S2R_OPT_JOB,
     "  --job NAME           run one job of this program's work (see above)"},
    {"--weight-qd", S2R_OPT_WEIGHT_QD,
     "  --weight-qd W        system ID from logs: weight of squared velocity errors, s^2 (default "
     S2R__CLI_STR(S2R_LOG_WEIGHT_QD) ")"},
    {"--write-excitation", S2R_OPT_WRITE_EXCITATION,
     "  --write-excitation FILE  write the excitation to play on your arm (CSV of timed targets) and stop"},
    {"--address", S2R_OPT_ADDRESS,
     "  --address ADDRESS    the lab unit is the robot served there: a socket path or tcp:HOST:PORT"},
    {"--representable", S2R_OPT_REPRESENTABLE,
     "  --representable      units without the effects the simulator cannot represent (friction curve, backlash, ...)"}};

/* A path option's value into out[cap]. */
static s2r_result s2r__option_path(const char* name, const char* value, char* out, size_t cap, char* error) {
    if (!*value || strlen(value) >= cap)
        return s2r__fail(error, S2R_ERR_PARSE, "%s needs a path of 1..%d characters", name, (int)cap - 1);
    snprintf(out, cap, "%s", value);
    return S2R_OK;
}

static int s2r__example_resumes;   /* the program takes --resume (s2r_example_start): s2r_example_stopped says so */

S2RDEF s2r_result s2r_example_start(s2r_options* options, int argc, char** argv, const char* purpose, unsigned used,
                                    int* status) {
    char error[S2R_ERROR_LEN];
    *status = 2;
    s2r__example_resumes = (used & S2R_OPT_RESUME_FLAG) != 0;
    if (s2r_options_parse(options, argc, argv, error) != S2R_OK || s2r_options_only(options, used, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return S2R_ERR_PARSE;
    }
    if ((options->given & S2R_OPT_ROBOT) && options->mjcf[0]) {   /* two arms: --mjcf was taken, --robot dropped */
        fprintf(stderr, "--robot %s and --mjcf %s both name the arm: give one (--mjcf for your own arm's model, --robot "
                "for a built-in arm)\n", s2r_robot_kind_name(options->robot), options->mjcf);
        return S2R_ERR_PARSE;
    }
    if (options->help) {
        s2r_options_usage(argv[0], purpose, used);
        *status = 0;
        return S2R_ERR_STATE;
    }
    if ((used & S2R_STAGE_DEMOS) && options->threads > S2R_DEMO_THREADS_MAX) {
        fprintf(stderr, "--threads %d: this program records demonstrations on at most %d copies of the unit at once "
                "(--threads 1..%d)\n", options->threads, S2R_DEMO_THREADS_MAX, S2R_DEMO_THREADS_MAX);
        return S2R_ERR_PARSE;
    }
    *status = 1;
    if (s2r_options_check(options, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return S2R_ERR_INVALID_ARGUMENT;
    }
    if (options->mjcf[0]) {   /* what loading your model inferred or changed, said once before any work */
        s2r_robot arm;
        if (s2r_robot_load_file(&arm, options->mjcf) == S2R_OK) {
            s2r_arm_notice_print(&arm.info);
            s2r_robot_free(&arm);
        }
    }
#ifdef _OPENMP
    if (options->given & S2R_OPT_THREADS) omp_set_num_threads(options->threads);   /* else OpenMP's default */
#endif
    if ((options->job[0] ? s2r_claim_dir_for_job(options->out, options->job, error)
                         : s2r_claim_dir(options->out, error)) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        *status = 1;
        return S2R_ERR_IO;
    }
    *status = 0;
    return S2R_OK;
}

S2RDEF s2r_result s2r_options_ranges(const s2r_options* options, s2r_randomization* out, char* error) {
    s2r_randomization r;
    s2r_result res;
    if (!options || !out) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "options ranges: options and out are required");
    r = s2r_task_randomization(options->task);   /* a file adjusts the task's defaults */
    res = options->ranges[0] ? s2r_randomization_load(&r, options->ranges, error) : S2R_OK;
    if (res == S2R_OK) *out = r;
    return res;
}

S2RDEF s2r_result s2r_options_digest(const s2r_options* options, uint64_t* digest, char* error) {
    s2r_randomization ranges;
    s2r_result res;
    char text[512];
    if (!options || !digest) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "options digest: options and digest are required");
    if ((res = s2r_options_ranges(options, &ranges, error)) != S2R_OK) return res;
    snprintf(text, sizeof text, "robot %d task %d seed %llu real_seed %llu seeds %d quick %d smoke %d history %d "
             "adr %d privileged %d mjcf %s ranges %016llx", (int)options->robot, (int)options->task,
             (unsigned long long)options->seed, (unsigned long long)options->real_seed, options->seeds, options->quick,
             options->smoke,             options->history, options->adr, options->privileged, options->mjcf,
             (unsigned long long)s2r_randomization_digest(&ranges));
    *digest = s2r__fnv1a(0xCBF29CE484222325ull, text, strlen(text));
    return S2R_OK;
}

S2RDEF uint64_t s2r_build_digest(void) {
    static const char built[] = __DATE__ " " __TIME__;
    unsigned char* image = NULL;
    size_t n = 0;
    char error[S2R_ERROR_LEN];
    uint64_t h;
    if (s2r__read_file("/proc/self/exe", &image, &n, error) != S2R_OK)
        return s2r__fnv1a(0xCBF29CE484222325ull, built, sizeof built - 1);
    h = s2r__fnv1a(0xCBF29CE484222325ull, image, n);
    S2R_FREE(image);
    return h;
}

S2RDEF s2r_result s2r_options_check(const s2r_options* options, char* error) {
    s2r_sim_config sc;
    s2r_sim sim;
    s2r_result res;
    if (!options) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "options check: options are required");
    if (!options->ranges[0] && !options->mjcf[0]) return S2R_OK;
    sc = s2r_task_sim_config(options->task, options->mjcf[0] ? S2R_ROBOT_CUSTOM : options->robot);
    if (options->mjcf[0]) sc.mjcf_path = options->mjcf;
    if (options->ranges[0] && (res = s2r_options_ranges(options, &sc.randomization, error)) != S2R_OK) return res;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK)
        return s2r__fail(error, res, "the %s simulator of %.200s%s%.200s: %s", s2r_task_kind_name(options->task),
                         options->mjcf[0] ? options->mjcf : s2r_robot_kind_name(options->robot),
                         options->ranges[0] ? " with the ranges in " : "", options->ranges, sim.error);
    s2r_sim_free(&sim);
    return S2R_OK;
}

S2RDEF s2r_result s2r_options_task_dims(const s2r_options* options, int* obs_dim, int* act_dim, char* error) {
    s2r_robot arm;
    if (!options || !obs_dim || !act_dim)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "options task dims: options, obs_dim and act_dim are required");
    if (!options->mjcf[0]) {
        s2r_task_dims(options->task, options->robot, obs_dim, act_dim);
        return S2R_OK;
    }
    if (s2r_robot_load_file(&arm, options->mjcf) != S2R_OK) return s2r__fail(error, S2R_ERR_MODEL, "%s", arm.error);
    s2r_task_dims_n(options->task, arm.info.n_joints, obs_dim, act_dim);
    s2r_robot_free(&arm);
    return S2R_OK;
}

S2RDEF s2r_result s2r_upstream_policy(s2r_policy* p, const char* path, const s2r_options* options, int history,
                                      const char* ranges_path, char* error) {
    int made_for, obs_dim, act_dim;
    s2r_robot_kind robot;
    const char* arm;
    s2r_result res;
    if (!p || !path || !options) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "upstream policy: policy, path and options are required");
    robot = options->mjcf[0] ? S2R_ROBOT_CUSTOM : options->robot;
    arm = options->mjcf[0] ? options->mjcf : s2r_robot_kind_name(robot);
    if ((res = s2r_options_task_dims(options, &obs_dim, &act_dim, error)) != S2R_OK) return res;
    if ((res = s2r_policy_from_checkpoint(p, path, error)) != S2R_OK) return res;
    made_for = s2r_made_for(robot, options->task);
    obs_dim = s2r_history_obs_dim(obs_dim, act_dim, history);
    if (p->made_for > 0 && p->made_for != made_for)
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%.200s was trained for the %s %s task, not the %.200s %s task "
                        "(--robot or --mjcf, --task): run the earlier examples with these options, or into another --out",
                        path, s2r_robot_kind_name(s2r_made_for_robot(p->made_for)),
                        s2r_task_kind_name(s2r_made_for_task(p->made_for)), arm, s2r_task_kind_name(options->task));
    else if (p->shape.obs_dim != obs_dim || p->shape.act_dim != act_dim)
        res = s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "%.200s takes %d observations and gives %d actions; the %.200s %s "
                        "task with %d frames of history has %d and %d (another arm, task or history)", path,
                        p->shape.obs_dim, p->shape.act_dim, arm, s2r_task_kind_name(options->task), history, obs_dim,
                        act_dim);
    else if (ranges_path)
        res = s2r_policy_check_ranges(p, path, ranges_path, error);
    if (res != S2R_OK) s2r_policy_free(p);
    return res;
}

S2RDEF int s2r_example_stopped(void) {
    if (!s2r_interrupt_requested()) return 0;
    fprintf(stderr, s2r__example_resumes ? "interrupted between stages: what is saved stays; run again with --resume "
                                           "to go on\n"
                                         : "interrupted between stages: what is saved stays; this program does not "
                                           "resume: a run again starts over\n");
    return 1;
}

S2RDEF s2r_result s2r_options_only(const s2r_options* options, unsigned used, char* error) {
    size_t k;
    for (k = 0; k < sizeof s2r__option_bits / sizeof *s2r__option_bits; k++)
        if ((options->given & s2r__option_bits[k].bit) && !(used & s2r__option_bits[k].bit))
            return s2r__fail(error, S2R_ERR_PARSE, "%s does nothing in this program (see --help)", s2r__option_bits[k].name);
    return S2R_OK;
}

/* One option at argv[*i] (advancing past its value). */
static s2r_result s2r__parse_option(s2r_options* o, int argc, char** argv, int* i, char* error) {
    const char* name = argv[*i];
    const char* value = *i + 1 < argc ? argv[*i + 1] : NULL;
    unsigned long long v;
    size_t k;
    for (k = 0; k < sizeof s2r__option_bits / sizeof *s2r__option_bits; k++)
        if (!strcmp(name, s2r__option_bits[k].name)) o->given |= s2r__option_bits[k].bit;
    if (!strcmp(name, "--quick")) { o->quick = 1; return S2R_OK; }
    if (!strcmp(name, "--smoke")) { o->smoke = 1; return S2R_OK; }
    if (!strcmp(name, "--resume")) { o->resume = 1; return S2R_OK; }
    if (!strcmp(name, "--adr")) { o->adr = 1; return S2R_OK; }
    if (!strcmp(name, "--privileged")) { o->privileged = 1; return S2R_OK; }
    if (!strcmp(name, "--representable")) { o->representable = 1; return S2R_OK; }
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) { o->help = 1; return S2R_OK; }
    if (strcmp(name, "--robot") && strcmp(name, "--task") && strcmp(name, "--seed") && strcmp(name, "--real-seed") &&
        strcmp(name, "--seeds") && strcmp(name, "--threads") && strcmp(name, "--out") &&
        strcmp(name, "--checkpoint-every") && strcmp(name, "--mjcf") && strcmp(name, "--ranges") && strcmp(name, "--log") &&
        strcmp(name, "--policy") &&
        strcmp(name, "--history") && strcmp(name, "--joint") && strcmp(name, "--job") && strcmp(name, "--weight-qd") &&
        strcmp(name, "--write-excitation") && strcmp(name, "--address"))
        return s2r__fail(error, S2R_ERR_PARSE, "unknown option '%.60s' (try --help)", name);
    if (!value) return s2r__fail(error, S2R_ERR_PARSE, "option %s needs a value", name);
    if (!strncmp(value, "--", 2))   /* "--out --quick": the value forgotten, not a folder named --quick */
        return s2r__fail(error, S2R_ERR_PARSE, "option %s needs a value, not the option '%.60s'", name, value);
    (*i)++;
    if (!strcmp(name, "--robot")) {
        o->robot = s2r_robot_kind_find(value);
        if (o->robot != S2R_ROBOT_UR5E && o->robot != S2R_ROBOT_PANDA)
            return s2r__fail(error, S2R_ERR_PARSE, "--robot takes ur5e or panda, not '%.60s'", value);
    } else if (!strcmp(name, "--task")) {
        o->task = s2r_task_kind_find(value);
        if (o->task == S2R_TASK_COUNT) return s2r__fail(error, S2R_ERR_PARSE, "--task takes reach or push, not '%.60s'", value);
    } else if (!strcmp(name, "--out")) {
        if (!*value || strlen(value) >= sizeof o->out)
            return s2r__fail(error, S2R_ERR_PARSE, "--out needs a folder name of 1..%d characters", (int)sizeof o->out - 1);
        snprintf(o->out, sizeof o->out, "%s", value);
    } else if (!strcmp(name, "--mjcf")) {
        return s2r__option_path(name, value, o->mjcf, sizeof o->mjcf, error);
    } else if (!strcmp(name, "--ranges")) {
        return s2r__option_path(name, value, o->ranges, sizeof o->ranges, error);
    } else if (!strcmp(name, "--policy")) {
        return s2r__option_path(name, value, o->policy, sizeof o->policy, error);
    } else if (!strcmp(name, "--write-excitation")) {
        return s2r__option_path(name, value, o->excitation, sizeof o->excitation, error);
    } else if (!strcmp(name, "--address")) {
#if (defined(__unix__) || defined(__APPLE__)) && defined(S2R_SOCKET_IMPLEMENTATION_DONE)
        s2r__socket_addr a;   /* its form (sim2real_socket.h): a socket path, or tcp:HOST:PORT */
        socklen_t len;
        char why[S2R_ERROR_LEN];
        if (s2r__socket_address(value, &a, &len, why) != S2R_OK)
            return s2r__fail(error, S2R_ERR_PARSE, "--address: %s", why);
#endif
        return s2r__option_path(name, value, o->address, sizeof o->address, error);
    } else if (!strcmp(name, "--weight-qd")) {
        char* end;
        double w = strtod(value, &end);
        if (*end || end == value || !(w >= 0) || !(w <= 1e6))
            return s2r__fail(error, S2R_ERR_PARSE, "--weight-qd takes a weight in s^2 from 0 to 1e6, not '%.60s'", value);
        o->weight_qd = w;
    } else if (!strcmp(name, "--log")) {
        if (o->n_logs >= S2R_OPTIONS_MAX_LOGS)
            return s2r__fail(error, S2R_ERR_PARSE, "--log is given more than %d times", S2R_OPTIONS_MAX_LOGS);
        return s2r__option_path(name, value, o->logs[o->n_logs++], sizeof o->logs[0], error);
    } else if (!strcmp(name, "--job")) {
        size_t k2, n = strlen(value);
        for (k2 = 0; k2 < n && (isalnum((unsigned char)value[k2]) || value[k2] == ':' || value[k2] == '-'); k2++) continue;
        if (n == 0 || n >= sizeof o->job || k2 < n)
            return s2r__fail(error, S2R_ERR_PARSE, "--job takes a job's name (letters, digits, ':' and '-', up to %d), "
                             "not '%.60s'", (int)sizeof o->job - 1, value);
        snprintf(o->job, sizeof o->job, "%s", value);
    } else if (!strcmp(name, "--joint")) {
        s2r__token t, base;
        char word[64];
        int joint, p;
        t.s = value;
        t.n = (int)strlen(value);
        base = t;
        if (o->n_joints >= S2R_OPTIONS_MAX_JOINTS)
            return s2r__fail(error, S2R_ERR_PARSE, "--joint is given more than %d times", S2R_OPTIONS_MAX_JOINTS);
        if (!strchr(value, '[')) {   /* NAME alone: one value for every joint (the shared entry, joint 0) */
            p = t.n < 64 ? s2r_param_find(s2r__token_text(t, word, sizeof word)) : S2R_PARAM_COUNT;
            joint = 0;
        } else {
            base.n = t.n < 64 ? s2r__joint_suffix(t, &joint) : -1;
            p = base.n > 0 && base.n < t.n ? s2r_param_find(s2r__token_text(base, word, sizeof word)) : S2R_PARAM_COUNT;
            if (joint < 1) p = S2R_PARAM_COUNT;
        }
        if (!s2r__is_joint_wise((s2r_param)p) || joint < 0 || joint > S2R_MAX_JOINTS)
            return s2r__fail(error, S2R_ERR_PARSE, "--joint takes NAME[J]: kp, kv, torque_limit, damping, armature or "
                             "frictionloss of joint J = 1..%d (e.g. kp[4]), or NAME alone for one value of every "
                             "joint's (e.g. damping), not '%.60s'", S2R_MAX_JOINTS, value);
        o->joint_param[o->n_joints] = (s2r_param)p;
        o->joint[o->n_joints++] = joint;
    } else if (!strcmp(name, "--threads") || !strcmp(name, "--seeds")) {
        if (!s2r_parse_count(value, 1, 64, &v))
            return s2r__fail(error, S2R_ERR_PARSE, "%s takes a whole number from 1 to 64, not '%.60s'", name, value);
        if (name[2] == 't') o->threads = (int)v; else o->seeds = (int)v;
    } else if (!strcmp(name, "--history")) {
        if (!s2r_parse_count(value, 0, S2R_HISTORY_MAX, &v))
            return s2r__fail(error, S2R_ERR_PARSE, "--history takes a whole number from 0 to %d, not '%.60s'",
                             S2R_HISTORY_MAX, value);
        o->history = (int)v;
    } else if (!strcmp(name, "--checkpoint-every")) {
        if (!s2r_parse_count(value, 1, 1000000, &v))
            return s2r__fail(error, S2R_ERR_PARSE, "--checkpoint-every takes a whole number from 1 to 1000000, not '%.60s'", value);
        o->checkpoint_every = (int)v;
    } else {
        if (!s2r_parse_count(value, 0, 0xFFFFFFFFull, &v))
            return s2r__fail(error, S2R_ERR_PARSE, "%s takes a whole number from 0 to 4294967295, not '%.60s'", name, value);
        if (!strcmp(name, "--seed")) o->seed = v; else o->real_seed = v;
    }
    return S2R_OK;
}

S2RDEF s2r_result s2r_options_parse(s2r_options* options, int argc, char** argv, char* error) {
    s2r_options o = s2r_options_default();
    int i;
    for (i = 1; i < argc; i++) {
        s2r_result res = s2r__parse_option(&o, argc, argv, &i, error);
        if (res != S2R_OK) return res;
    }
    *options = o;
    return S2R_OK;
}

S2RDEF void s2r_training_use_options(s2r_training* t, const s2r_options* opt, const char* name,
                                     char* path, size_t cap) {
    char file[128];
    snprintf(file, sizeof file, "%s.state", name);
    t->state_path = s2r_path(path, cap, opt->out, file);
    t->state_every = opt->checkpoint_every;
    t->resume = opt->resume;
}

S2RDEF void s2r_sysid_progress(void* context, const s2r_sysid_result* so_far) {
    printf("    sweep %2d: training loss %.3e rad^2 (%d loss evaluations", so_far->sweeps, so_far->loss[so_far->sweeps],
           so_far->evaluations);
    if (context) printf(", %.0f s", s2r_seconds() - *(const double*)context);
    printf(")\n");
    fflush(stdout);
}

S2RDEF double s2r_peak_memory_mib(void) {
    FILE* f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kib = atof(line + 6);
    fclose(f);
    return kib < 0 ? -1 : kib / 1024.0;
}


S2RDEF void s2r_options_usage(const char* program, const char* purpose, unsigned used) {
    size_t k;
    printf("%s - %s\n\n", program, purpose);
    for (k = 0; k < sizeof s2r__option_bits / sizeof *s2r__option_bits; k++)
        if (used & s2r__option_bits[k].bit) printf("%s\n", s2r__option_bits[k].help);
    printf("  --help               print these options\n");
}

S2RDEF s2r_result s2r_make_dir(const char* path, char* error) {
    char buf[512], probe[560];
    size_t i, len = path ? strlen(path) : 0;
    FILE* f;
    if (len == 0 || len >= sizeof buf) return s2r__fail(error, S2R_ERR_IO, "output folder name is empty or too long");
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++)    /* every prefix ending at a '/' or the end */
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return s2r__fail(error, S2R_ERR_IO, "cannot create folder '%s': %s", buf, strerror(errno));
            buf[i] = c;
        }
    snprintf(probe, sizeof probe, "%s/.s2r_write_probe", path);
    f = fopen(probe, "w");
    if (!f) return s2r__fail(error, S2R_ERR_IO, "folder '%s' is not writable: %s", path, strerror(errno));
    fclose(f);
    remove(probe);
    return S2R_OK;
}

S2RDEF const char* s2r_path(char* out, size_t cap, const char* dir, const char* file) {
    if (cap > 0 && snprintf(out, cap, "%s/%s", dir, file) >= (int)cap)
        out[cap - 1] = '\0';   /* cut short to cap - 1 characters, as snprintf does */
    return out;
}

S2RDEF const char* s2r_task_path(char* out, size_t cap, const s2r_options* opt, const char* example,
                                 const char* name) {
    size_t n = strlen(s2r_path(out, cap, opt->out, ""));   /* "DIR/", then the name */
    if (n + 1 < cap) s2r_task_name(out + n, cap - n, opt, example, name);
    return out;
}

S2RDEF const char* s2r_task_name(char* out, size_t cap, const s2r_options* opt, const char* example,
                                 const char* name) {
    snprintf(out, cap, "%s%s_%s", example, opt->task == S2R_TASK_PUSH ? "_push" : "", name);
    return out;
}

S2RDEF FILE* s2r_output_create(s2r_file* file, const char* path) {
    char error[S2R_ERROR_LEN];
    if (s2r_file_create(file, path, error) == S2R_OK) return file->f;
    fprintf(stderr, "%s\n", error);
    return NULL;
}

S2RDEF s2r_result s2r_output_commit(s2r_file* file) {
    char error[S2R_ERROR_LEN];
    s2r_result res = s2r_file_commit(file, error);
    if (res != S2R_OK) fprintf(stderr, "%s\n", error);
    return res;
}


static char s2r__claimed_lock[S2R_PATH_LEN];   /* this process's lock file, "" none */
static char s2r__created_dir[S2R_PATH_LEN];    /* the claimed folder, when this process created it */
static size_t s2r__created_top;                /* the length of the first of its prefixes it created */

/* The lock removed; the folders the claim created removed again where
   they are empty (a run refused before it wrote anything leaves no empty
   --out behind), the deepest first. */
static void s2r__release_dir(void) {
    char* cut;
    if (s2r__claimed_lock[0]) remove(s2r__claimed_lock);
    s2r__claimed_lock[0] = '\0';
    while (s2r__created_dir[0] && strlen(s2r__created_dir) >= s2r__created_top && rmdir(s2r__created_dir) == 0 &&
           (cut = strrchr(s2r__created_dir, '/')) != NULL)
        *cut = '\0';
    s2r__created_dir[0] = '\0';
}

/* Where dir (a folder to be made) does not exist yet: the length of its
   first missing prefix (a whole component), or 0 when it exists. */
static size_t s2r__missing_prefix(const char* dir) {
    char buf[S2R_PATH_LEN];
    struct stat st;
    size_t i, len = strlen(dir);
    if (len == 0 || len >= sizeof buf) return 0;
    memcpy(buf, dir, len + 1);
    for (i = 1; i <= len; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (stat(buf, &st) != 0) return i;
            buf[i] = c;
        }
    return 0;
}

/* Whether process `pid` is running (1 where that cannot be told). */
static int s2r__process_alive(unsigned long pid) {
#if defined(__linux__)
    char path[64], text[256];
    const char* state;
    size_t n;
    FILE* f;
    snprintf(path, sizeof path, "/proc/%lu/stat", pid);
    if (!(f = fopen(path, "rb"))) return 0;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* "pid (name) S ...": a zombie (Z) has exited and waits only to be reaped */
    state = strrchr(text, ')');
    return !(state && state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X'));
#else
    (void)pid;
    return 1;
#endif
}

/* The pid in a lock file; 0 when there is none or it cannot be read. */
static unsigned long s2r__lock_owner(const char* path) {
    char text[32];
    unsigned long owner = 0;
    FILE* f = fopen(path, "rb");
    if (!f) return 0;
    if (!fgets(text, sizeof text, f) || sscanf(text, "%lu", &owner) != 1) owner = 0;
    fclose(f);
    return owner;
}

S2RDEF s2r_result s2r_claim_dir(const char* dir, char* error) { return s2r_claim_dir_for_job(dir, NULL, error); }

S2RDEF s2r_result s2r_claim_dir_for_job(const char* dir, const char* job, char* error) {
    static int registered;
    char path[S2R_PATH_LEN], text[32], name[64];
    unsigned long owner, me = s2r__process_id();
    size_t k;
    size_t missing;
    if (!dir || strlen(dir) + sizeof name + 2 >= sizeof path || (job && strlen(job) + 16 >= sizeof name))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "no folder, or its name or the job's is too long");
    missing = s2r__missing_prefix(dir);
    if (s2r_make_dir(dir, error) != S2R_OK) return S2R_ERR_IO;
    snprintf(name, sizeof name, job ? ".sim2real.%s.lock" : ".sim2real.lock", job);
    for (k = 0; name[k]; k++)
        if (name[k] == ':' || name[k] == '/') name[k] = '-';
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "folder name too long: %.200s", dir);
    owner = s2r__lock_owner(path);
    if (owner && owner != me && s2r__process_alive(owner))
        return s2r__fail(error, S2R_ERR_IO, "folder '%s' is in use by process %lu (%s): wait for it or choose "
                         "another --out (remove the lock if that process is gone)", dir, owner, path);
    snprintf(text, sizeof text, "%lu\n", me);
    if (s2r_file_write_all(path, text, strlen(text), error) != S2R_OK) return S2R_ERR_IO;
    if ((owner = s2r__lock_owner(path)) != me)   /* two starting at once: the last rename wins, the other backs off */
        return s2r__fail(error, S2R_ERR_IO, "folder '%s' was claimed by process %lu at the same moment", dir, owner);
    if (s2r__claimed_lock[0] && strcmp(s2r__claimed_lock, path) != 0) s2r__release_dir();   /* one folder at a time */
    snprintf(s2r__claimed_lock, sizeof s2r__claimed_lock, "%s", path);
    if (missing && !s2r__created_dir[0]) {   /* made here: removed at exit if the run leaves it empty */
        snprintf(s2r__created_dir, sizeof s2r__created_dir, "%s", dir);
        s2r__created_top = missing;
    }
    if (!registered) registered = atexit(s2r__release_dir) == 0;
    return S2R_OK;
}

S2RDEF int s2r_stdout_is_terminal(void) {
#if defined(__unix__) || defined(__APPLE__)
    return isatty(1);
#else
    return 0;
#endif
}

S2RDEF void s2r_arm_notice_print(const s2r_arm_info* info) {
    const char* c = info->notice;
    while (*c) {
        const char* end = strstr(c, "; ");
        int len = end ? (int)(end - c) : (int)strlen(c);
        printf("%s: %.*s\n", info->name, len, c);
        c += len + (end ? 2 : 0);
    }
}

S2RDEF void s2r_arm_info_print(const s2r_arm_info* info) {
    int j;
    printf("%s: %d joints, %.2f kg, physics dt %.4f s\n", info->name, info->n_joints, info->total_mass, info->physics_dt);
    printf("  %-14s %8s %8s %8s %9s %9s %7s\n", "joint", "min", "max", "home", "torque", "speed", "link");
    printf("  %-14s %8s %8s %8s %9s %9s %7s\n", "", "rad", "rad", "rad", "N m", "rad/s", "kg");
    for (j = 0; j < info->n_joints; j++)
        printf("  %-14s %8.3f %8.3f %8.3f %9.1f %9.3f %7.3f\n", info->joint_name[j], info->q_min[j], info->q_max[j],
               info->q_home[j], info->torque_limit[j], info->velocity_limit[j], info->link_mass[j]);
    printf("  targets drawn in x [%.2f, %.2f], y [%.2f, %.2f], z [%.2f, %.2f] m\n", info->workspace_lo[0],
           info->workspace_hi[0], info->workspace_lo[1], info->workspace_hi[1], info->workspace_lo[2], info->workspace_hi[2]);
}


#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
