/* tests/test_docs.c - tests of the documentation around the header.

   Every figure README.md points at (markdown image links and plain
   mentions of figures/NAME.png, including wildcards like
   figures/07_*_training.png), and every one figures/RESULTS.md names
   (relative to figures/), must be in the repository and be a PNG that
   is whole: the 8-byte signature, an IHDR chunk with a nonzero width and
   height and a correct CRC, and the IEND chunk at the end.  Every notebook
   in notebooks/ must look like a Jupyter notebook (a JSON object with
   "cells" and "nbformat") and be stored without outputs, so the repository
   stays small and its diffs readable.  README.md stays an introduction
   (at most 350 lines, "## Use it" within the first 250, no paragraph over 120 words); RESULTS.md
   names only commands that exist, and the links between the two land on
   headings.  RESULTS.md opens with a summary table whose section links
   land on its headings and whose files are in the repository, and each of
   its sections (but the exempt ones) with a two-line summary.
   sim2real.h and each companion header beside it stay under 1 MiB.

   Paths are relative to the repository root, where the runner is started.
   Included by tests/test_main.c. */
#include "test.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <dirent.h>
#define DOCS_HAVE_DIRENT 1
#endif

#define DOCS_README "README.md"
#define DOCS_EXAMPLES "examples/README.md"
#define DOCS_RESULTS "figures/RESULTS.md"   /* the measurements; its paths are relative to figures/ */
#define DOCS_README_MAX_LINES 350          /* the README stays an introduction ...             */
#define DOCS_README_MAX_WORDS 120          /* ... read, not searched: no paragraph or bullet longer */
#define DOCS_USE_IT_BY_LINE 250            /* ... and says how to use the library early on     */
#define DOCS_NOTEBOOKS "notebooks"
#define DOCS_MAX_FILE (16L << 20)   /* bytes; larger docs files are a mistake */
#define DOCS_PATH_LEN 512
#ifndef S2R_TEST_TMP
#define S2R_TEST_TMP "/tmp"
#endif

/* --- reading files and PNGs --------------------------------------------- */

/* The whole file, NUL-terminated, in a malloc'd buffer (NULL if it cannot be
   read or is larger than DOCS_MAX_FILE); its size in *size. */
static char* docs_read(const char* path, long* size) {
    FILE* f = fopen(path, "rb");
    char* text = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n <= DOCS_MAX_FILE && fseek(f, 0, SEEK_SET) == 0 &&
        (text = (char*)malloc((size_t)n + 1)) != NULL) {
        if (fread(text, 1, (size_t)n, f) != (size_t)n) {
            free(text);
            text = NULL;
        } else {
            text[n] = '\0';
            if (size) *size = n;
        }
    }
    fclose(f);
    return text;
}

static unsigned long docs_be32(const unsigned char* p) {
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | p[3];
}

/* CRC-32 as PNG computes it (ISO 3309, reflected polynomial 0xEDB88320). */
static unsigned long docs_crc32(const unsigned char* p, size_t n) {
    unsigned long c = 0xFFFFFFFFul;
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        c ^= p[i];
        for (k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320ul : c >> 1;
    }
    return c ^ 0xFFFFFFFFul;
}

/* NULL if `path` is a whole PNG, else what is wrong with it.  Reads only the
   first 33 bytes (signature and IHDR) and the last 12 (IEND). */
static const char* docs_png_problem(const char* path, unsigned long* width, unsigned long* height) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    unsigned char head[33], tail[12];
    const char* problem = NULL;
    FILE* f = fopen(path, "rb");
    if (!f) return "missing";
    if (fread(head, 1, sizeof head, f) != sizeof head) problem = "shorter than a PNG header";
    else if (memcmp(head, sig, 8) != 0) problem = "no PNG signature";
    else if (docs_be32(head + 8) != 13 || memcmp(head + 12, "IHDR", 4) != 0) problem = "first chunk is not IHDR";
    else if (docs_crc32(head + 12, 17) != docs_be32(head + 29)) problem = "IHDR CRC does not match";
    else if ((*width = docs_be32(head + 16)) == 0 || (*height = docs_be32(head + 20)) == 0) problem = "zero width or height";
    else if (fseek(f, -12L, SEEK_END) != 0 || fread(tail, 1, sizeof tail, f) != sizeof tail ||
             memcmp(tail, iend, sizeof iend) != 0) problem = "does not end with IEND (truncated?)";
    fclose(f);
    return problem;
}

/* Characters a path in README.md is made of. */
static int docs_path_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == '/' || c == '*';
}

/* `name` matches `pattern`, where '*' stands for any run of characters. */
static int docs_match(const char* pattern, const char* name) {
    if (*pattern == '\0') return *name == '\0';
    if (*pattern == '*') return docs_match(pattern + 1, name) || (*name && docs_match(pattern, name + 1));
    return *name == *pattern && docs_match(pattern + 1, name + 1);
}

/* Check one README reference: a path, or a pattern with '*' in its file
   name (at least one file must match).  Returns the number of PNGs checked,
   or -1 after printing what is wrong. */
static int docs_check_figure(const char* ref, const char* doc) {
    unsigned long w = 0, h = 0;
    const char* problem;
    if (!strchr(ref, '*')) {
        problem = docs_png_problem(ref, &w, &h);
        if (problem) { printf("    %s (named in %s): %s\n", ref, doc, problem); return -1; }
        return 1;
    }
#ifdef DOCS_HAVE_DIRENT
    {
        char dir[DOCS_PATH_LEN], path[2 * DOCS_PATH_LEN];
        const char* slash = strrchr(ref, '/');
        DIR* d;
        struct dirent* e;
        int n = 0, bad = 0;
        if (!slash || strchr(ref, '*') < slash) { printf("    %s: wildcards only in the file name\n", ref); return -1; }
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - ref), ref);
        if ((d = opendir(dir)) == NULL) { printf("    %s: cannot list %s\n", ref, dir); return -1; }
        while ((e = readdir(d)) != NULL)
            if (docs_match(slash + 1, e->d_name)) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                if ((problem = docs_png_problem(path, &w, &h)) != NULL) {
                    printf("    %s (matches %s in %s): %s\n", path, ref, doc, problem);
                    bad = 1;
                }
                n++;
            }
        closedir(d);
        if (n == 0) printf("    %s (named in %s): no file matches\n", ref, doc);
        return bad || n == 0 ? -1 : n;
    }
#else
    return 0;   /* no directory listing here: wildcard references go unchecked */
#endif
}

/* --- tests --------------------------------------------------------------- */

/* The checker itself, on a PNG the library writes and on broken copies. */
static int test_docs_png_checker(void) {
    const char* path = S2R_TEST_TMP "/s2r_test_docs.png";
    unsigned long w = 0, h = 0;
    unsigned char* bytes;
    long size = 0;
    s2r_figure fig;
    FILE* f;
    CHECK(s2r_figure_init(&fig, 321, 207, 1, 1) == S2R_OK);
    CHECKF(s2r_figure_write_png(&fig, path) == S2R_OK, "%s", fig.error);
    s2r_figure_free(&fig);
    CHECKF(docs_png_problem(path, &w, &h) == NULL, "%s", docs_png_problem(path, &w, &h));
    CHECKF(w == 321 && h == 207, "IHDR says %lu x %lu", w, h);
    bytes = (unsigned char*)docs_read(path, &size);
    CHECK(bytes != NULL && size > 64);
    f = fopen(path, "wb");   /* truncated: no IEND */
    CHECK(f && fwrite(bytes, 1, (size_t)size - 20, f) == (size_t)size - 20);
    fclose(f);
    CHECK(docs_png_problem(path, &w, &h) != NULL);
    bytes[20] ^= 0x01;       /* width changed: the IHDR CRC no longer matches */
    f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    CHECK(docs_png_problem(path, &w, &h) != NULL);
    free(bytes);
    remove(path);
    CHECK(docs_png_problem(path, &w, &h) != NULL);   /* missing */
    CHECK(docs_match("07_*_training.png", "07_dr_seed1_training.png"));
    CHECK(!docs_match("07_*_training.png", "07_dr_seed1_training.csv"));
    return 0;
}

static int test_docs_readme_figures(void) {
    long size = 0;
    char* text = docs_read(DOCS_README, &size);
    const char* p;
    int refs = 0, bad = 0;
    CHECKF(text != NULL, "cannot read " DOCS_README " (run from the repository root)");
    for (p = text; (p = strstr(p, "figures/")) != NULL; p += 8) {
        const char *start = p, *end = p + 8;
        char ref[DOCS_PATH_LEN];
        while (start > text && docs_path_char(start[-1])) start--;
        while (*end && docs_path_char(*end)) end++;
        while (end > p && end[-1] == '.') end--;   /* the full stop after a path */
        if (end - start < 4 || end - start >= DOCS_PATH_LEN || strncmp(end - 4, ".png", 4) != 0) continue;
        snprintf(ref, sizeof ref, "%.*s", (int)(end - start), start);
        refs++;
        if (docs_check_figure(ref, DOCS_README) < 0) bad++;
    }
    free(text);
    CHECKF(refs > 0, DOCS_README " names no figures/*.png (the scan is broken?)");
    CHECKF(bad == 0, "%d of %d figure references are broken", bad, refs);
    return 0;
}

/* Every figure RESULTS.md names (a PNG path anywhere in it: image links and
   plain mentions) is a whole PNG; its paths are relative to figures/, where
   it lives. */
static int test_docs_results_figures(void) {
    long size = 0;
    char* text = docs_read(DOCS_RESULTS, &size);
    const char* p;
    int refs = 0, bad = 0;
    CHECKF(text != NULL, "cannot read " DOCS_RESULTS " (run from the repository root)");
    for (p = text; (p = strstr(p, ".png")) != NULL; p += 4) {
        const char* start = p;
        char ref[DOCS_PATH_LEN];
        while (start > text && docs_path_char(start[-1])) start--;
        if (start == p || p + 4 - start >= DOCS_PATH_LEN - 8) continue;
        snprintf(ref, sizeof ref, "figures/%.*s", (int)(p + 4 - start), start);
        refs++;
        if (docs_check_figure(ref, DOCS_RESULTS) < 0) bad++;
    }
    free(text);
    CHECKF(refs >= 10, DOCS_RESULTS " names only %d PNGs (the scan is broken?)", refs);
    CHECKF(bad == 0, "%d of %d figure references in " DOCS_RESULTS " are broken", bad, refs);
    return 0;
}

/* The README stays short enough to read: at most DOCS_README_MAX_LINES
   lines, with "## Use it" within its first DOCS_USE_IT_BY_LINE, and no
   block of prose - a paragraph, or a bullet with its continuation lines -
   over DOCS_README_MAX_WORDS words (code, tables and headings are not
   prose); the measurements live in RESULTS.md. */
static int test_docs_readme_shape(void) {
    long size = 0;
    char* text = docs_read(DOCS_README, &size);
    const char* p;
    int lines = 0, use_it = 0, fenced = 0, words = 0, longest = 0, longest_at = 0, block_at = 0;
    CHECKF(text != NULL, "cannot read " DOCS_README " (run from the repository root)");
    for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        size_t len = strcspn(p, "\n"), i;
        int blank = strspn(p, " \t\r") >= len, prose;
        lines++;
        if (!use_it && strncmp(p, "## Use it", 9) == 0 && (p[9] == '\n' || p[9] == '\r' || p[9] == '\0')) use_it = lines;
        if (strncmp(p, "```", 3) == 0) fenced = !fenced;
        prose = !fenced && !blank && p[0] != '|' && p[0] != '#' && p[0] != '!' && strncmp(p, "```", 3) != 0 &&
                strncmp(p, "    ", 4) != 0;
        if (!prose || strncmp(p, "- ", 2) == 0) {   /* a block ends; a bullet starts one of its own */
            if (words > longest) longest = words, longest_at = block_at;
            words = 0;
            block_at = lines;
            if (!prose) continue;
        }
        for (i = 0; i < len; i++)
            if (!isspace((unsigned char)p[i]) && (i == 0 || isspace((unsigned char)p[i - 1]))) words++;
    }
    if (words > longest) longest = words, longest_at = block_at;
    free(text);
    CHECKF(lines <= DOCS_README_MAX_LINES, DOCS_README " has %d lines, more than %d", lines, DOCS_README_MAX_LINES);
    CHECKF(longest <= DOCS_README_MAX_WORDS, DOCS_README "'s block at line %d has %d words, more than %d", longest_at,
           longest, DOCS_README_MAX_WORDS);
    CHECKF(use_it > 0, DOCS_README " has no \"## Use it\" heading");
    CHECKF(use_it <= DOCS_USE_IT_BY_LINE, DOCS_README "'s \"## Use it\" is on line %d, after line %d", use_it, DOCS_USE_IT_BY_LINE);
    return 0;
}

/* The GitHub anchor of a markdown heading's text: lowercase letters, digits,
   '-' and '_' kept, spaces turned into '-', everything else dropped. */
static void docs_anchor(const char* heading, size_t len, char* out, size_t cap) {
    size_t i, n = 0;
    for (i = 0; i < len && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)heading[i];
        if (isalnum(c) || c == '-' || c == '_') out[n++] = (char)tolower(c);
        else if (c == ' ') out[n++] = '-';
    }
    out[n] = '\0';
}

/* Whether a heading of `text` has the anchor `anchor`. */
static int docs_has_anchor(const char* text, const char* anchor) {
    const char* line;
    for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char* h = line;
        const char* end;
        char got[DOCS_PATH_LEN];
        if (*h != '#') continue;
        while (*h == '#') h++;
        if (*h != ' ') continue;
        h++;
        end = strchr(h, '\n');
        if (!end) end = h + strlen(h);
        if (end > h && end[-1] == '\r') end--;
        docs_anchor(h, (size_t)(end - h), got, sizeof got);
        if (strcmp(got, anchor) == 0) return 1;
    }
    return 0;
}

/* In `text`, the first `from` after `after` replaced by `by`, which is as
   long; whether it was there. */
static int docs_replace(char* text, const char* after, const char* from, const char* by) {
    char* at = strstr(text, after);
    at = at ? strstr(at, from) : NULL;
    if (at && strlen(from) == strlen(by)) memcpy(at, by, strlen(by));
    return at != NULL && strlen(from) == strlen(by);
}

/* RESULTS.md exists and says how each number was made: every command it
   names - `make X` (a Makefile target) and build/NAME (NN_name: an example
   in examples/; bench_name: a bench in bench/) - exists.  Every link from
   the README into RESULTS.md lands on one of its headings, and every link
   from RESULTS.md back to a README heading does too. */
static int test_docs_results_commands(void) {
    long size = 0;
    char* results = docs_read(DOCS_RESULTS, &size);
    char* makefile = docs_read("Makefile", &size);
    char* readme = docs_read(DOCS_README, &size);
    const char* p;
    int makes = 0, builds = 0, links = 0, bad = 0;
    CHECKF(results != NULL, DOCS_RESULTS " is missing");
    CHECK(makefile != NULL && readme != NULL);
    for (p = results; (p = strstr(p, "make ")) != NULL; p += 5) {
        char target[64], rule[80];
        int n = 0;
        if (!(p > results && (p[-1] == '`' || p[-1] == '\n'))) continue;   /* a command, not the verb */
        while (n < 63 && (islower((unsigned char)p[5 + n]) || p[5 + n] == '-' || p[5 + n] == '_')) { target[n] = p[5 + n]; n++; }
        target[n] = '\0';
        if (n == 0) continue;
        makes++;
        snprintf(rule, sizeof rule, "\n%s:", target);
        if (!strstr(makefile, rule)) { printf("    " DOCS_RESULTS " runs `make %s`, which is no Makefile target\n", target); bad++; }
    }
    for (p = results; (p = strstr(p, "build/")) != NULL; p += 6) {
        char name[DOCS_PATH_LEN], path[DOCS_PATH_LEN + 16];
        const char* dir;
        FILE* f;
        int n = 0;
        if (p > results && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '/' || p[-1] == '.')) continue;
        while (n < 200 && (isalnum((unsigned char)p[6 + n]) || p[6 + n] == '_')) { name[n] = p[6 + n]; n++; }
        name[n] = '\0';
        if (n >= 3 && isdigit((unsigned char)name[0]) && isdigit((unsigned char)name[1]) && name[2] == '_') dir = "examples";
        else if (strncmp(name, "bench_", 6) == 0) dir = "bench";
        else continue;   /* a test program or a folder under build/ */
        builds++;
        snprintf(path, sizeof path, "%s/%s.c", dir, name);
        if ((f = fopen(path, "rb")) == NULL) { printf("    " DOCS_RESULTS " runs build/%s, but there is no %s\n", name, path); bad++; }
        else fclose(f);
    }
    {   /* each link written as the file it is in would write it */
        static const struct { const char *from_name, *to_name, *link; } pairs[] = {
            {DOCS_README, DOCS_RESULTS, "(figures/RESULTS.md#"}, {DOCS_RESULTS, DOCS_README, "(../README.md#"},
            {DOCS_README, DOCS_EXAMPLES, "(examples/README.md#"}, {DOCS_RESULTS, DOCS_EXAMPLES, "(../examples/README.md#"},
            {DOCS_EXAMPLES, DOCS_RESULTS, "(../figures/RESULTS.md#"}, {DOCS_EXAMPLES, DOCS_README, "(../README.md#"}};
        int k;
        for (k = 0; k < (int)(sizeof pairs / sizeof *pairs); k++) {
            char* from = docs_read(pairs[k].from_name, NULL);
            char* to = docs_read(pairs[k].to_name, NULL);
            size_t len = strlen(pairs[k].link);
            CHECKF(from && to, "cannot read %s or %s", pairs[k].from_name, pairs[k].to_name);
            for (p = from; (p = strstr(p, pairs[k].link)) != NULL; p += len) {
                char anchor[DOCS_PATH_LEN];
                int n = 0;
                while (n < DOCS_PATH_LEN - 1 && (isalnum((unsigned char)p[len + n]) || p[len + n] == '-' || p[len + n] == '_')) { anchor[n] = p[len + n]; n++; }
                anchor[n] = '\0';
                links++;
                if (!docs_has_anchor(to, anchor)) { printf("    %s links to %s#%s, which is no heading there\n", pairs[k].from_name, pairs[k].to_name, anchor); bad++; }
            }
            free(from);
            free(to);
        }
    }
    free(results);
    free(makefile);
    free(readme);
    CHECKF(makes >= 3 && builds >= 5 && links >= 5, "only %d make commands, %d build/ programs and %d links found (the scan is broken?)", makes, builds, links);
    CHECKF(bad == 0, "%d commands or links named in the docs do not exist", bad);
    return 0;
}

/* --- RESULTS.md's summaries ------------------------------------------------ */

/* Headings of RESULTS.md without a two-line summary: the summary table's
   own, and the sections of the push and reach tables, whose numbers are
   being measured again (each gets its summary with its new numbers; take
   a heading off this list when it has one). */
static const char* const docs_summary_exempt[] = {
    "Summary",
    "The table: push", "The fine-tune third", "The quick table", "A second set of units", "Ten seeds",
    "The table: reach", "The Panda"};

#define DOCS_SUMMARY_HEAD "| finding | number | committed file | section |"
#define DOCS_SUMMARY_LINE "*In two lines:"   /* how a section's summary starts ...           */
#define DOCS_SUMMARY_WITHIN 3                /* ... within its first non-blank lines          */
#define DOCS_SUMMARY_MIN_ROWS 12             /* the table's rows: a scan finding fewer is broken */

/* The line of `text` after the one at `line` (NULL at the end). */
static const char* docs_next_line(const char* line) {
    const char* nl = strchr(line, '\n');
    return nl ? nl + 1 : NULL;
}

/* The length of the line at `line`, without its '\n' or "\r\n". */
static size_t docs_line_len(const char* line) {
    size_t n = strcspn(line, "\n");
    return n > 0 && line[n - 1] == '\r' ? n - 1 : n;
}

/* One row of the summary table (the line at `row`, `len` long): four cells;
   a number (a digit) in the second; in the third one or more `file`s,
   each in the repository (relative to figures/ unless it holds '/'); in
   the fourth a link [name](#anchor) whose anchor is name's and lands on a
   heading of `text`.  The number of problems, each printed when `say`. */
static int docs_summary_row(const char* text, const char* row, size_t len, int say) {
    const char* cell[4];
    size_t cell_len[4];
    const char *p = row + 1, *end = row + len;
    int n = 0, bad = 0, files = 0, k;
    while (p < end && n < 4) {
        const char* bar = memchr(p, '|', (size_t)(end - p));
        if (!bar) break;
        while (p < bar && *p == ' ') p++;
        cell[n] = p;
        cell_len[n] = (size_t)(bar - p);
        while (cell_len[n] > 0 && p[cell_len[n] - 1] == ' ') cell_len[n]--;
        n++;
        p = bar + 1;
    }
    if (n != 4 || p != end) {
        if (say) printf("    " DOCS_RESULTS ": a summary row without its four cells: %.*s\n", (int)len, row);
        return 1;
    }
    for (k = 0; k < (int)cell_len[1] && !isdigit((unsigned char)cell[1][k]); k++) {}
    if (k == (int)cell_len[1]) {
        if (say) printf("    " DOCS_RESULTS ": a summary row without a number: %.*s\n", (int)len, row);
        bad++;
    }
    for (p = cell[2]; (p = memchr(p, '`', (size_t)(cell[2] + cell_len[2] - p))) != NULL; p++) {
        const char* close = memchr(p + 1, '`', (size_t)(cell[2] + cell_len[2] - p - 1));
        char path[DOCS_PATH_LEN];
        int name_len;
        FILE* f;
        if (!close) break;
        name_len = (int)(close - p - 1);
        if (memchr(p + 1, '/', (size_t)name_len)) snprintf(path, sizeof path, "%.*s", name_len, p + 1);
        else snprintf(path, sizeof path, "figures/%.*s", name_len, p + 1);
        files++;
        if ((f = fopen(path, "rb")) == NULL) {
            if (say) printf("    " DOCS_RESULTS "'s summary names %s, which is not in the repository\n", path);
            bad++;
        } else fclose(f);
        p = close;
    }
    if (files == 0) {
        if (say) printf("    " DOCS_RESULTS ": a summary row names no `file`: %.*s\n", (int)len, row);
        bad++;
    }
    {
        const char* open = cell[3];
        const char* mid = cell_len[3] > 4 ? strstr(open, "](#") : NULL;
        char anchor[DOCS_PATH_LEN], own[DOCS_PATH_LEN];
        int anchor_len;
        if (*open != '[' || !mid || mid >= open + cell_len[3] || open[cell_len[3] - 1] != ')') {
            if (say) printf("    " DOCS_RESULTS ": a summary row's section is no [name](#anchor) link: %.*s\n", (int)cell_len[3], open);
            return bad + 1;
        }
        anchor_len = (int)(open + cell_len[3] - 1 - (mid + 3));
        snprintf(anchor, sizeof anchor, "%.*s", anchor_len, mid + 3);
        docs_anchor(open + 1, (size_t)(mid - open - 1), own, sizeof own);
        if (!docs_has_anchor(text, anchor)) {
            if (say) printf("    " DOCS_RESULTS "'s summary links to #%s, which is no heading there\n", anchor);
            bad++;
        } else if (strcmp(own, anchor) != 0) {
            if (say) printf("    " DOCS_RESULTS "'s summary links [%.*s] to #%s, another heading's\n", (int)(mid - open - 1), open + 1, anchor);
            bad++;
        }
    }
    return bad;
}

/* RESULTS.md's summaries in `text`: a "## Summary" whose table
   (DOCS_SUMMARY_HEAD) has rows that docs_summary_row accepts, and under
   every "## " and "### " heading outside code blocks, but the exempt ones,
   a line starting DOCS_SUMMARY_LINE within its first DOCS_SUMMARY_WITHIN
   non-blank lines.  The number of problems (each printed when `say`); the
   table's rows in *rows. */
static int docs_summary_problems(const char* text, int say, int* rows) {
    const char *line, *summary = strstr(text, "\n## Summary\n");
    int bad = 0, fenced = 0, in_table = 0;
    *rows = 0;
    if (!summary) {
        if (say) printf("    " DOCS_RESULTS " has no \"## Summary\"\n");
        return 1;
    }
    for (line = docs_next_line(summary + 1); line && *line != '#'; line = docs_next_line(line)) {
        size_t len = docs_line_len(line);
        if (len == strlen(DOCS_SUMMARY_HEAD) && strncmp(line, DOCS_SUMMARY_HEAD, len) == 0) in_table = 1;
        else if (in_table && len > 0 && line[0] == '|' && line[len - 1] == '|') {
            if (strncmp(line, "|---", 4) == 0) continue;
            (*rows)++;
            bad += docs_summary_row(text, line, len, say);
        } else if (in_table && len > 0) break;
    }
    if (!in_table) {
        if (say) printf("    " DOCS_RESULTS "'s \"## Summary\" has no table \"" DOCS_SUMMARY_HEAD "\"\n");
        bad++;
    }
    for (line = text; line && *line; line = docs_next_line(line)) {
        size_t len = docs_line_len(line);
        const char *h, *next;
        int k, seen = 0, found = 0, exempt = 0;
        if (strncmp(line, "```", 3) == 0) fenced = !fenced;
        if (fenced || !(strncmp(line, "## ", 3) == 0 || strncmp(line, "### ", 4) == 0)) continue;
        h = line + (line[2] == ' ' ? 3 : 4);
        for (k = 0; k < (int)(sizeof docs_summary_exempt / sizeof *docs_summary_exempt); k++)
            if (strlen(docs_summary_exempt[k]) == (size_t)(line + len - h) && strncmp(h, docs_summary_exempt[k], (size_t)(line + len - h)) == 0) exempt = 1;
        if (exempt) continue;
        for (next = docs_next_line(line); next && *next && seen < DOCS_SUMMARY_WITHIN && *next != '#'; next = docs_next_line(next)) {
            if (docs_line_len(next) == 0) continue;
            seen++;
            if (strncmp(next, DOCS_SUMMARY_LINE, strlen(DOCS_SUMMARY_LINE)) == 0) { found = 1; break; }
        }
        if (!found) {
            if (say) printf("    " DOCS_RESULTS ": \"%.*s\" has no \"" DOCS_SUMMARY_LINE " ...\" in its first %d lines\n", (int)len, line, DOCS_SUMMARY_WITHIN);
            bad++;
        }
    }
    return bad;
}

/* RESULTS.md opens with a summary table whose links land on its headings
   and whose files are in the repository, and every section but the exempt
   ones opens with its two-line summary; copies with a broken link, a
   missing file or a summary taken away fail the same check. */
static int test_docs_results_summary(void) {
    static const char* const edits[][3] = {   /* after, from, by (as long) */
        {"\n## Summary\n", "](#", "](x"}, {"\n## Summary\n", "](#p", "](#q"}, {"\n## Summary\n", "[Physics]", "[Phasics]"},
        {"\n## Summary\n", ".csv`", ".cvs`"}, {"\n## Summary\n", "| `tests/", "| `texts/"},
        {"\n## Performance", DOCS_SUMMARY_LINE, "*In few lines:"}};
    char* text = docs_read(DOCS_RESULTS, NULL);
    int rows = 0, k, problems;
    CHECKF(text != NULL, "cannot read " DOCS_RESULTS);
    problems = docs_summary_problems(text, 1, &rows);
    CHECKF(problems == 0, "%d problems with " DOCS_RESULTS "'s summaries (above)", problems);
    CHECKF(rows >= DOCS_SUMMARY_MIN_ROWS, DOCS_RESULTS "'s summary table has %d rows, fewer than %d (the scan is broken?)", rows, DOCS_SUMMARY_MIN_ROWS);
    for (k = 0; k < (int)(sizeof edits / sizeof *edits); k++) {
        char* copy = (char*)malloc(strlen(text) + 1);
        int edited_rows = 0, edited;
        CHECK(copy != NULL);
        strcpy(copy, text);
        edited = docs_replace(copy, edits[k][0], edits[k][1], edits[k][2]);
        problems = edited ? docs_summary_problems(copy, 0, &edited_rows) : 0;
        free(copy);
        CHECKF(edited, "no \"%s\" after \"%s\" to edit", edits[k][1], edits[k][0] + 1);
        CHECKF(problems > 0, "the check passed " DOCS_RESULTS " with \"%s\" made \"%s\"", edits[k][1], edits[k][2]);
    }
    free(text);
    return 0;
}

/* Outputs stored in a notebook: a non-empty "outputs" list or an
   "execution_count" that is not null. */
static int docs_has_outputs(const char* text) {
    const char* p;
    for (p = text; (p = strstr(p, "\"outputs\"")) != NULL; p++) {
        const char* q = p + 9;
        while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n' || *q == ':' || *q == '[') q++;
        if (*q != ']') return 1;
    }
    for (p = text; (p = strstr(p, "\"execution_count\"")) != NULL; p++) {
        const char* q = p + 17;
        while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n' || *q == ':') q++;
        if (strncmp(q, "null", 4) != 0) return 1;
    }
    return 0;
}

static int test_docs_notebooks(void) {
#ifdef DOCS_HAVE_DIRENT
    DIR* d = opendir(DOCS_NOTEBOOKS);
    struct dirent* e;
    int n = 0, bad = 0;
    CHECKF(d != NULL, "cannot list " DOCS_NOTEBOOKS "/ (run from the repository root)");
    while ((e = readdir(d)) != NULL) {
        char path[DOCS_PATH_LEN];
        const char *first, *last;
        char* text;
        long size = 0;
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 6, ".ipynb") != 0) continue;
        snprintf(path, sizeof path, DOCS_NOTEBOOKS "/%s", e->d_name);
        n++;
        if ((text = docs_read(path, &size)) == NULL) { printf("    %s: cannot read\n", path); bad++; continue; }
        for (first = text; *first == ' ' || *first == '\n' || *first == '\r' || *first == '\t'; first++) {}
        for (last = text + size; last > text && (last[-1] == ' ' || last[-1] == '\n' || last[-1] == '\r' || last[-1] == '\t'); last--) {}
        if (*first != '{' || last == text || last[-1] != '}' || !strstr(text, "\"cells\"") || !strstr(text, "\"nbformat\"")) {
            printf("    %s: not a notebook (a JSON object with \"cells\" and \"nbformat\")\n", path);
            bad++;
        } else if (docs_has_outputs(text)) {
            printf("    %s: stored with outputs (clear them before committing)\n", path);
            bad++;
        }
        free(text);
    }
    closedir(d);
    CHECKF(n > 0, "no notebooks in " DOCS_NOTEBOOKS "/");
    CHECKF(bad == 0, "%d of %d notebooks are broken", bad, n);
#endif
    return 0;
}

/* --- names in the documentation are names in the code ------------------- */

/* Where `text` defines function `name` (its last definition: a header's
   prototype comes before its body), or NULL: the name followed by "(" at the
   start of a line or after a return type, outside a comment line. */
static const char* docs_definition(const char* text, const char* name) {
    size_t n = strlen(name);
    const char *at, *found = NULL;
    for (at = strstr(text, name); at; at = strstr(at + 1, name)) {
        const char* line = at;
        while (line > text && line[-1] != '\n') line--;
        if (at[n] != '(' || (at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_'))) continue;
        if (line[0] == ' ' || line[0] == '/' || line[0] == '*') continue;   /* a call or a comment */
        found = at;
    }
    return found;
}

static int docs_defines(const char* text, const char* name) {
    return docs_definition(text, name) != NULL;
}

/* Whether `code` (the text after the opening comment) calls `name`, or for
   "prefix_*" any function starting with the prefix. */
static int docs_calls(const char* code, const char* name) {
    char prefix[64];
    size_t n = strlen(name);
    const char* at;
    int wildcard = n > 0 && name[n - 1] == '*';
    if (wildcard) n--;
    if (n == 0 || n >= sizeof prefix) return 0;
    memcpy(prefix, name, n);
    prefix[n] = '\0';
    for (at = strstr(code, prefix); at; at = strstr(at + 1, prefix)) {
        const char* end = at + n;
        if (at > code && (isalnum((unsigned char)at[-1]) || at[-1] == '_')) continue;
        if (wildcard) while (isalnum((unsigned char)*end) || *end == '_') end++;
        if (*end == '(') return 1;
    }
    return 0;
}

/* Every function in the manual's reading paths is defined in the header
   or a companion beside it (or, for run_chain, in examples/07_the_table.c; five paths are also read
   going down the file: test_docs_paths_read_down); every function an
   example's "Uses:" line names is called by that example. */
static int test_docs_names_exist(void) {
    static const char* const examples[] = {"00_hello_robot", "01_the_gap", "02_domain_randomization", "03_system_id",
        "04_finetune", "05_real_only", "06_staged_deployment", "07_the_table", "08_scene_renders", "09_gap_attribution",
        "10_sysid_vs_truth", "11_gates", "12_sysid_from_logs", "13_recipe_depth", "14_predicting_transfer"};
    long size;
    char* header = docs_read("sim2real.h", &size);
    char* table = docs_read("examples/07_the_table.c", &size);
    char* analysis = docs_read("sim2real_analysis.h", &size);
    char* logs = docs_read("sim2real_logs.h", &size);
    const char *paths, *end, *line;
    int names = 0, k;
    CHECK(header && table && analysis && logs);
    paths = strstr(header, "   9. Reading paths\n   ----");
    CHECK(paths != NULL);
    end = strstr(paths, "*/");
    for (line = strchr(paths, '\n'); line && line < end; line = strchr(line + 1, '\n')) {
        char name[64];
        int len = 0;
        if (strncmp(line, "\n     ", 6) != 0 || line[6] == ' ') continue;   /* a function line */
        while (len < 63 && (isalnum((unsigned char)line[6 + len]) || line[6 + len] == '_')) { name[len] = line[6 + len]; len++; }
        name[len] = '\0';
        if (len == 0) continue;
        names++;
        CHECKF(docs_defines(header, name) || docs_defines(table, name) || docs_defines(analysis, name) ||
                   docs_defines(logs, name),
               "reading paths name %s, which is defined nowhere", name);
    }
    CHECKF(names >= 25, "only %d functions found in the reading paths", names);
    for (k = 0; k < (int)(sizeof examples / sizeof *examples); k++) {
        char path[DOCS_PATH_LEN];
        char *text, *uses, *stop, *code;
        snprintf(path, sizeof path, "examples/%s.c", examples[k]);
        text = docs_read(path, &size);
        CHECKF(text != NULL, "%s", path);
        if (!strcmp(examples[k], "07_the_table")) {   /* and its second half, the jobs */
            long more;
            char* jobs = docs_read("examples/07_the_table_jobs.h", &more);
            CHECKF(jobs != NULL, "examples/07_the_table_jobs.h");
            text = (char*)realloc(text, (size_t)(size + more + 1));
            CHECK(text != NULL);
            memcpy(text + size, jobs, (size_t)more + 1);
            free(jobs);
        }
        uses = strstr(text, "Uses:");
        code = strstr(text, "*/");
        CHECKF(uses && code && uses < code, "%s has no Uses: line in its opening comment", path);
        stop = strstr(uses, "\n   Writes:");
        if (!stop || stop > code) stop = strstr(uses, "\n\n");
        if (!stop || stop > code) stop = code;
        for (uses += 5; uses < stop;) {
            char name[64];
            int len = 0;
            while (uses < stop && !(isalnum((unsigned char)*uses) || *uses == '_')) uses++;
            while (uses < stop && len < 63 && (isalnum((unsigned char)*uses) || *uses == '_' || *uses == '*')) name[len++] = *uses++;
            name[len] = '\0';
            if (len == 0 || strncmp(name, "s2r_", 4) != 0) continue;
            CHECKF(docs_calls(code, name), "%s names %s in its Uses: line but never calls it", path, name);
        }
        free(text);
    }
    free(header);
    free(table);
    free(analysis);
    free(logs);
    return 0;
}

/* --- reading paths that read down the file --------------------------------

   Every reading path of the manual (section 9) reads top-down, two calls
   deep.  A path belongs to the file that defines its first function (the
   header, a companion, examples/07_the_table.c); its functions defined
   there come in the order listed, and each function of the path calls,
   down to DOCS_PATH_DEPTH calls from a listed one, only pieces defined
   below it: a piece is a static function of the same file and section (a
   section of the header opens with a line ">> section: NAME" in a
   comment; a file without one is one section) that is not a utility.
   What a path calls elsewhere is read elsewhere, a leaf: a public S2RDEF
   function (s2r_gae, s2r_mlp_forward, ...), a static one of another
   section (Core's s2r__fail, s2r__shuffle), and a utility - a static
   function that DOCS_UTILITY_CALLERS or more functions of its file call
   (s2r__traj_at, 07's fail): read once, where it is, not as a step of one
   flow.  Five paths (docs_sized_paths) are also short: their listed
   functions and the pieces those call directly at most DOCS_PATH_FUNCTIONS
   functions and DOCS_PATH_LINES lines (signature to closing brace), a
   listed function of another file counted as one leaf. */

static const char* const docs_sized_paths[] = {"What does domain randomization do", "What does one PPO update do",
    "How does a stand-in real unit", "How is one row of the table", "How does a deployment gate decide"};
static const char* const docs_path_files[] = {"sim2real.h", "sim2real_logs.h", "sim2real_analysis.h",
                                              "examples/07_the_table.c"};
#define DOCS_SIZED_PATHS 5
#define DOCS_PATH_FILES 4
#define DOCS_ALL_PATHS 11
#define DOCS_PATH_DEPTH 2
#define DOCS_UTILITY_CALLERS 4
#define DOCS_PATH_FUNCTIONS 12
#define DOCS_PATH_LINES 350
#define DOCS_MAX_DEFS 4096

typedef struct docs_def {
    const char *name, *start, *body, *end;   /* name, the signature's line, its '{', its closing '}' */
    int name_len, lines, section, is_public, callers;
} docs_def;

/* The functions defined in text (a signature from column 0, static or
   S2RDEF, over one or more lines up to its '{'; its body ends at a '}' at
   column 0) into defs [DOCS_MAX_DEFS]; returns how many. */
static int docs_parse_defs(const char* text, docs_def* defs) {
    const char* line = text;
    int n = 0, section = 0;
    for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *paren, *brace, *name, *close, *eol, *equals;
        if (strncmp(line, "/* >> section:", 14) == 0) section++;
        if (strncmp(line, "static ", 7) != 0 && strncmp(line, "S2RDEF ", 7) != 0) continue;
        eol = strchr(line, '\n');
        paren = strchr(line, '(');
        equals = strchr(line, '=');
        if (!paren || (eol && paren > eol) || (equals && equals < paren)) continue;
        brace = strpbrk(paren, "{;");   /* the signature's end: a body, or a prototype */
        if (!brace || *brace == ';') continue;
        for (name = paren; name > line && (isalnum((unsigned char)name[-1]) || name[-1] == '_'); name--) {}
        eol = strchr(brace, '\n');
        if (eol && eol[-1] == '}') close = eol;   /* a body on one line */
        else close = brace[1] == '}' ? brace + 1 : strstr(brace, "\n}");
        if (!close || name == paren || n >= DOCS_MAX_DEFS) continue;
        if (*close == '\n') close++;
        defs[n].name = name;
        defs[n].name_len = (int)(paren - name);
        defs[n].start = line;
        defs[n].body = brace;
        defs[n].end = close;
        defs[n].section = section;
        defs[n].is_public = line[0] == 'S';
        defs[n].callers = 0;
        defs[n].lines = 1;
        for (name = line; name < close; name++) defs[n].lines += *name == '\n';
        n++;
        line = close;
    }
    return n;
}

/* The definition of name [len] in defs [n], or NULL. */
static const docs_def* docs_find_def(const docs_def* defs, int n, const char* name, int len) {
    int i;
    for (i = 0; i < n; i++)
        if (defs[i].name_len == len && strncmp(defs[i].name, name, (size_t)len) == 0) return &defs[i];
    return NULL;
}

/* The next call in [*at, end): a name followed by '(' outside comments,
   strings and character constants; its definition in defs [n] (NULL when
   there is none), *at moved past it; 0 when there is no more. */
static int docs_next_call(const char** at, const char* end, const docs_def* defs, int n, const docs_def** callee) {
    const char* p = *at;
    while (p < end) {
        const char* id;
        if (p[0] == '/' && p[1] == '*') { p = strstr(p + 2, "*/"); p = p ? p + 2 : end; continue; }
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (p < end && *p != q) p += *p == '\\' ? 2 : 1;
            p++;
            continue;
        }
        if (!(isalpha((unsigned char)*p) || *p == '_')) { p++; continue; }
        for (id = p; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++) {}
        if (*p != '(') continue;
        *at = p;
        *callee = docs_find_def(defs, n, id, (int)(p - id));
        return 1;
    }
    *at = end;
    return 0;
}

/* Count each function's distinct callers among defs [n] (docs_def.callers). */
static void docs_count_callers(docs_def* defs, int n) {
    static unsigned char seen[DOCS_MAX_DEFS];
    int i;
    for (i = 0; i < n; i++) {
        const char* at = defs[i].body;
        const docs_def* g;
        memset(seen, 0, (size_t)n);
        while (docs_next_call(&at, defs[i].end, defs, n, &g))
            if (g && g != &defs[i] && !seen[g - defs]) {
                seen[g - defs] = 1;
                defs[g - defs].callers++;
            }
    }
}

/* A piece of f's flow: static, of f's section, not a utility. */
static int docs_is_piece(const docs_def* f, const docs_def* g) {
    return g && g != f && !g->is_public && g->section == f->section && g->callers < DOCS_UTILITY_CALLERS;
}

/* Check one path: listed [count] names, in its file's defs [n]; all the
   files' defs in every [DOCS_PATH_FILES][n_every] for where a leaf is.
   sized: also hold the size limits.  Returns 0 or fails a CHECK. */
static int docs_check_path(const char* question, char (*listed)[64], int count, const docs_def* defs, int n,
                           docs_def* const* every, const int* n_every, int sized) {
    const docs_def* path[256];
    int level[256];
    int in_path = 0, direct = 0, leaves = 0, lines = 0, i, k;
    const char* previous = NULL;
    for (k = 0; k < count; k++) {
        const docs_def* f = docs_find_def(defs, n, listed[k], (int)strlen(listed[k]));
        int j, found = 0;
        if (!f) {
            for (j = 0; j < DOCS_PATH_FILES && !found; j++)
                found = docs_find_def(every[j], n_every[j], listed[k], (int)strlen(listed[k])) != NULL;
            CHECKF(found, "%s: %s is defined nowhere", question, listed[k]);
            leaves++;
            continue;
        }
        CHECKF(!previous || f->start > previous, "%s: %s is defined above the function listed before it", question,
               listed[k]);
        previous = f->start;
        for (j = 0; j < in_path && path[j] != f; j++) {}
        if (j == in_path && in_path < 256) { level[in_path] = 0; path[in_path++] = f; }
    }
    for (i = 0; i < in_path; i++) {   /* breadth first: each piece, DOCS_PATH_DEPTH calls deep */
        const docs_def *f = path[i], *g;
        const char* at = f->body;
        if (level[i] >= DOCS_PATH_DEPTH) continue;
        while (docs_next_call(&at, f->end, defs, n, &g)) {
            int j;
            if (!docs_is_piece(f, g)) continue;
            CHECKF(g->start > f->start, "%s: %.*s calls %.*s, defined above it (%d calls from a listed function)",
                   question, f->name_len, f->name, g->name_len, g->name, level[i] + 1);
            for (j = 0; j < in_path && path[j] != g; j++) {}
            if (j == in_path && in_path < 256) { level[in_path] = level[i] + 1; path[in_path++] = g; }
        }
    }
    for (i = 0; i < in_path; i++)
        if (level[i] <= 1) { direct++; lines += path[i]->lines; }
    printf("    %s: %d functions read down %d calls deep; listed and their pieces %d functions, %d lines\n", question,
           in_path, DOCS_PATH_DEPTH, direct + leaves, lines);
    CHECKF(!sized || (direct + leaves <= DOCS_PATH_FUNCTIONS && lines <= DOCS_PATH_LINES),
           "%s: %d functions and %d lines (at most %d and %d)", question, direct + leaves, lines, DOCS_PATH_FUNCTIONS,
           DOCS_PATH_LINES);
    return 0;
}

static int test_docs_paths_read_down(void) {
    long size;
    char* text[DOCS_PATH_FILES];
    docs_def* defs[DOCS_PATH_FILES];
    int n_defs[DOCS_PATH_FILES];
    char listed[64][64], question[80];
    const char *paths, *end, *line;
    int count = 0, checked = 0, sized = 0, k, f;
    for (f = 0; f < DOCS_PATH_FILES; f++) {
        text[f] = docs_read(docs_path_files[f], &size);
        defs[f] = (docs_def*)malloc(sizeof(docs_def) * DOCS_MAX_DEFS);
        CHECKF(text[f] && defs[f], "%s", docs_path_files[f]);
        n_defs[f] = docs_parse_defs(text[f], defs[f]);
        docs_count_callers(defs[f], n_defs[f]);
    }
    CHECKF(n_defs[0] > 500 && n_defs[3] > 10, "%d functions found in the header, %d in examples/07", n_defs[0], n_defs[3]);
    paths = strstr(text[0], "   9. Reading paths\n   ----");
    CHECK(paths != NULL);
    end = strstr(paths, "*/");
    question[0] = '\0';
    for (line = strchr(paths, '\n');; line = strchr(line + 1, '\n')) {
        int len = 0;
        const char* eol = line ? strchr(line + 1, '\n') : NULL;
        const char* mark = line ? strchr(line + 1, '?') : NULL;
        if (!line || line >= end || (strncmp(line, "\n   ", 4) == 0 && line[4] != ' ' && mark && mark < eol)) {   /* a question, or the end */
            if (question[0] && count > 0) {
                int is_sized = 0;
                for (k = 0; k < DOCS_SIZED_PATHS; k++)
                    is_sized |= strncmp(question, docs_sized_paths[k], strlen(docs_sized_paths[k])) == 0;
                for (f = 0; f < DOCS_PATH_FILES && !docs_find_def(defs[f], n_defs[f], listed[0], (int)strlen(listed[0])); f++) {}
                CHECKF(f < DOCS_PATH_FILES, "%s: its first function %s is defined in none of the path files", question,
                       listed[0]);
                if (docs_check_path(question, listed, count, defs[f], n_defs[f], defs, n_defs, is_sized) != 0) return 1;
                checked++;
                sized += is_sized;
            }
            if (!line || line >= end) break;
            for (len = 0; len < 79 && line[4 + len] != '\n'; len++) question[len] = line[4 + len];
            question[len] = '\0';
            count = 0;
            continue;
        }
        if (strncmp(line, "\n     ", 6) != 0 || line[6] == ' ' || count >= 64) continue;   /* a function line */
        while (len < 63 && (isalnum((unsigned char)line[6 + len]) || line[6 + len] == '_')) { listed[count][len] = line[6 + len]; len++; }
        listed[count][len] = '\0';
        if (len > 0) count++;
    }
    CHECKF(checked == DOCS_ALL_PATHS && sized == DOCS_SIZED_PATHS, "%d of the %d reading paths found, %d of the %d sized",
           checked, DOCS_ALL_PATHS, sized, DOCS_SIZED_PATHS);
    for (f = 0; f < DOCS_PATH_FILES; f++) {
        free(defs[f]);
        free(text[f]);
    }
    return 0;
}

/* --- parameter names --------------------------------------------------------

   A public function's parameters have the same names in its declaration
   (the S2RDEF lines before the line that opens the implementation) and
   its definition. */

/* The names of the parameters of the signature whose '(' is at `open`,
   comma-separated into out [cap] (a parameter's name is its last
   identifier, outside comments and array bounds; "void" is none). */
static void docs_param_names(const char* open, char* out, size_t cap) {
    const char* at = open + 1;
    char last[64] = "";
    int depth = 0, used = 0;
    out[0] = '\0';
    for (; *at; at++) {
        if (at[0] == '/' && at[1] == '*') { at = strstr(at + 2, "*/"); if (!at) return; at++; continue; }
        if (*at == '[') { while (*at && *at != ']') at++; continue; }
        if (*at == '(') depth++;
        if ((*at == ',' || *at == ')') && depth == 0) {
            if (last[0] && strcmp(last, "void") != 0 && used + strlen(last) + 2 < cap)
                used += snprintf(out + used, cap - (size_t)used, "%s%s", used ? ", " : "", last);
            last[0] = '\0';
            if (*at == ')') return;
            continue;
        }
        if (*at == ')') depth--;
        if (isalpha((unsigned char)*at) || *at == '_') {
            int len = 0;
            while ((isalnum((unsigned char)at[len]) || at[len] == '_') && len < 63) { last[len] = at[len]; len++; }
            last[len] = '\0';
            at += len - 1;
        }
    }
}

/* Compare the declarations of one header with their definitions; counts
   add to the totals.  0, or 1 when the file cannot be read. */
static int docs_compare_names(const char* path, int* declared, int* compared, int* differ) {
    long size;
    char* header = docs_read(path, &size);
    docs_def* defs = (docs_def*)malloc(sizeof(docs_def) * DOCS_MAX_DEFS);
    const char *impl, *line;
    int n_defs;
    if (!header || !defs || !(impl = strstr(header, "\n#if defined(SIM2REAL_IMPLEMENTATION)"))) {
        printf("    %s: cannot be read, or has no implementation\n", path);
        free(defs);
        free(header);
        return 1;
    }
    n_defs = docs_parse_defs(impl, defs);
    for (line = header; line && line < impl; line = strchr(line + 1, '\n')) {
        const char *decl = line[0] == '\n' ? line + 1 : line, *open, *name;
        const docs_def* def;
        char want[512], got[512], fn[64];
        int len;
        if (strncmp(decl, "S2RDEF ", 7) != 0 || !(open = strchr(decl, '(')) || (strchr(decl, '{') && strchr(decl, '{') < open))
            continue;
        for (name = open; name > decl && (isalnum((unsigned char)name[-1]) || name[-1] == '_'); name--) {}
        len = (int)(open - name);
        if (len == 0 || len >= 64) continue;
        memcpy(fn, name, (size_t)len);
        fn[len] = '\0';
        (*declared)++;
        def = docs_find_def(defs, n_defs, fn, len);
        if (!def || !def->is_public) continue;
        docs_param_names(open, want, sizeof want);
        docs_param_names(def->name + len, got, sizeof got);
        (*compared)++;
        if (strcmp(want, got) != 0) {
            (*differ)++;
            printf("    %s: %s: declared (%s), defined (%s)\n", path, fn, want, got);
        }
    }
    free(defs);
    free(header);
    return 0;
}

/* The header, its companions and the examples' companion headers: every public function
   names its parameters the same in its declaration and its definition. */
static int test_docs_parameter_names(void) {
    static const char* const headers[] = {"sim2real.h", "sim2real_socket.h", "sim2real_jobs.h", "sim2real_logs.h",
                                          "sim2real_analysis.h", "sim2real_reports.h", "sim2real_rl_finetune.h",
                                          "examples/s2r_cli.h", "examples/s2r_figures.h", "examples/s2r_render.h"};
    int declared = 0, compared = 0, differ = 0, k;
    for (k = 0; k < (int)(sizeof headers / sizeof *headers); k++)
        CHECK(docs_compare_names(headers[k], &declared, &compared, &differ) == 0);
    CHECKF(declared > 300 && compared > 300, "%d declarations found, %d compared with a definition", declared, compared);
    CHECKF(differ == 0, "%d public functions name their parameters differently in the definition (above)", differ);
    return 0;
}

/* sim2real.h and every companion header beside it stay under 1 MiB
   (DOCS_HEADER_MAX_BYTES): what is not the recipe leaves the core for a
   companion (the manual's section 8) rather than growing it. */
#define DOCS_HEADER_MAX_BYTES (1L << 20)
static int test_docs_header_sizes(void) {
    static const char* const headers[] = {"sim2real.h", "sim2real_socket.h", "sim2real_jobs.h", "sim2real_logs.h",
                                          "sim2real_analysis.h", "sim2real_reports.h", "sim2real_rl_finetune.h"};
    int k;
    for (k = 0; k < (int)(sizeof headers / sizeof *headers); k++) {
        long size, lines = 0, i;
        char* text = docs_read(headers[k], &size);
        CHECKF(text != NULL, "%s", headers[k]);
        for (i = 0; i < size; i++) lines += text[i] == '\n';
        free(text);
        printf("    %s: %ld lines, %ld bytes\n", headers[k], lines, size);
        CHECKF(size < DOCS_HEADER_MAX_BYTES, "%s is %ld bytes, at least %ld", headers[k], size, DOCS_HEADER_MAX_BYTES);
    }
    return 0;
}

/* No file of the project points at a document outside the repository:
   every document ("NAME.md" in capitals, as README.md; lowercase .md
   names are the examples' outputs) that the header, the examples, the
   Makefile or the README mention is a file of the repository. */
static int test_docs_no_outside_files(void) {
    static const char* const files[] = {"sim2real.h", "README.md", DOCS_EXAMPLES, DOCS_RESULTS, "Makefile", "examples/03_system_id.c",
                                        "examples/07_the_table.c", "examples/08_scene_renders.c",
                                        "examples/09_gap_attribution.c", "examples/10_sysid_vs_truth.c",
                                        "examples/11_gates.c", "examples/12_sysid_from_logs.c",
                                        "examples/13_recipe_depth.c", "examples/14_predicting_transfer.c"};
    int f, mentions = 0;
    for (f = 0; f < (int)(sizeof files / sizeof *files); f++) {
        long size;
        char* text = docs_read(files[f], &size);
        const char* at;
        CHECKF(text != NULL, "%s", files[f]);
        for (at = strstr(text, ".md"); at; at = strstr(at + 3, ".md")) {
            const char *start = at, *base;
            char name[DOCS_PATH_LEN];
            FILE* doc;
            while (start > text && (isalnum((unsigned char)start[-1]) || strchr("_-/.", start[-1]))) start--;
            if (start == at || at - start + 3 >= (long)sizeof name) continue;   /* ".md" alone */
            memcpy(name, start, (size_t)(at - start) + 3);
            name[at - start + 3] = '\0';
            base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
            if (!isupper((unsigned char)*base)) continue;   /* an example's output, not a document */
            mentions++;
            if (strchr(files[f], '/') && strstr(files[f], ".md")) {   /* its links are relative to its folder, its prose to the root */
                size_t dir = (size_t)(strrchr(files[f], '/') - files[f]) + 1;
                if (strncmp(name, "../", 3) == 0) memmove(name, name + 3, strlen(name + 3) + 1);
                else if ((doc = fopen(name, "rb")) == NULL && strlen(name) + dir < sizeof name) {
                    memmove(name + dir, name, strlen(name) + 1);
                    memcpy(name, files[f], dir);
                } else if (doc) fclose(doc);
            }
            doc = fopen(name, "rb");
            CHECKF(doc != NULL, "%s mentions %s, which is not in the repository", files[f], name);
            fclose(doc);
        }
        free(text);
    }
    CHECKF(mentions > 0, "no document found at all (08 names README.md): the scan is broken");
    return 0;
}

/* --- README's results against the committed files -----------------------
   Every number of README.md's result tables and of the bullets under them
   ("What they say", to "## Use it") comes from a committed file in
   figures/, and this is where it is checked.  A table row must read, cell
   by cell, what the CSV beside the .md the table cites gives: each rate
   from its count (success x episodes, exact), its interval computed again
   (Wilson's, the gap's Newcombe's), formatted as 07 formats them.  Each
   number of a bullet must be made by a claim (docs_claims: a phrase with
   '@' where its numbers go, and for each the file and the computation),
   and the claims together with a few settings (docs_settings: names and
   the protocol, not measurements) must cover every number of the bullets.
   Run on a copy of the files with one number edited by hand, the same
   check must fail. */

#define DOCS_CSV_CELLS 16384
#define DOCS_VALUE_LEN 32

typedef struct docs_csv {
    char*       text;
    int         rows, cols;              /* rows after the header line */
    const char* cell[DOCS_CSV_CELLS];    /* [rows + 1][cols], the header first */
} docs_csv;

/* dir/name as a CSV of at most DOCS_CSV_CELLS cells (c from malloc: free
   c->text and c); NULL when it cannot be read. */
static docs_csv* docs_csv_load(const char* dir, const char* name) {
    char path[DOCS_PATH_LEN];
    docs_csv* c = (docs_csv*)calloc(1, sizeof *c);
    char *s, *line;
    int n = 0, width = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!c || !(c->text = docs_read(path, NULL))) { free(c); return NULL; }
    for (line = c->text; line && *line; line = s) {
        int k = 0;
        char* cell;
        if ((s = strchr(line, '\n')) != NULL) *s++ = '\0';
        for (cell = line; cell && n < DOCS_CSV_CELLS; k++) {
            char* comma = strchr(cell, ',');
            if (comma) *comma++ = '\0';
            c->cell[n++] = cell;
            cell = comma;
        }
        if (!width) width = k;
        if (k != width || n >= DOCS_CSV_CELLS) { free(c->text); free(c); return NULL; }
    }
    c->cols = width;
    c->rows = width ? n / width - 1 : 0;
    return c;
}

static void docs_csv_free(docs_csv* c) {
    if (c) free(c->text);
    free(c);
}

static int docs_csv_col(const docs_csv* c, const char* name) {
    int k;
    for (k = 0; k < c->cols; k++)
        if (!strcmp(c->cell[k], name)) return k;
    return -1;
}

/* Row r's cell of column `name` (r from 0 after the header); NULL if none. */
static const char* docs_csv_cell(const docs_csv* c, int r, const char* name) {
    int k = docs_csv_col(c, name);
    return k < 0 || r < 0 || r >= c->rows ? NULL : c->cell[(r + 1) * c->cols + k];
}

static double docs_csv_num(const docs_csv* c, int r, const char* name) {
    const char* s = docs_csv_cell(c, r, name);
    return s ? atof(s) : NAN;
}

/* The first row from `from` whose column `key` reads `value`, or -1. */
static int docs_csv_row(const docs_csv* c, const char* key, const char* value, int from) {
    int r;
    for (r = from; r < c->rows; r++) {
        const char* s = docs_csv_cell(c, r, key);
        if (s && !strcmp(s, value)) return r;
    }
    return -1;
}

/* A rate's count: rate x episodes, whole (07 writes rates of whole counts). */
static double docs_count(double rate, double episodes) { return floor(rate * episodes + 0.5); }

/* The episodes behind a column of a table or seeds CSV: sim_ for the sim
   columns, real_ for the others (the calibrated ones run as many). */
static double docs_episodes(const docs_csv* c, int r, const char* column) {
    return docs_csv_num(c, r, strncmp(column, "sim_", 4) == 0 ? "sim_episodes" : "real_episodes");
}

/* Per seed (in file order), `column` of `recipe` in a seeds CSV, into v
   (at most 64): how many. */
static int docs_per_seed(const docs_csv* c, const char* recipe, const char* column, double* v) {
    int r = -1, n = 0;
    while (n < 64 && (r = docs_csv_row(c, "recipe", recipe, r + 1)) >= 0) v[n++] = docs_csv_num(c, r, column);
    return n;
}

/* 1234 as "1,234". */
static void docs_thousands(long v, char* out, size_t cap) {
    if (v >= 1000) snprintf(out, cap, "%ld,%03ld", v / 1000, v % 1000);
    else snprintf(out, cap, "%ld", v);
}

/* What one spec gives, as text into out: the number a claim puts at an
   '@'.  Specs, words separated by blanks (FILE in figures/; rates x 100):
     v FILE RECIPE COLUMN FMT    a table's value (a rate from its count)
     d FILE A B COLUMN FMT       A's minus B's (to 4 decimals, as 07's CSVs write one)
     n SEEDS A B COLUMN          seeds where A is ahead of B
     i SEEDS A B lo|hi           the paired difference's Student-t 95 % bound
     r SEEDS RECIPE COLUMN min|max   the lowest or highest seed
     u SEEDS min|max             the lowest or highest unit
     k MD kept|of                fine-tunes that kept the system-ID policy; of how many
     m MD wall|peak              a table's wall seconds or peak MiB
     g ATTRIBUTION RECIPE min|max  the points the camera's calibration error costs
                                 (unit without it minus unit; nominal minus only it)
     c CURVE DEMOS WAY COLUMN    a demo-curve count, with thousands separated
     x CURVE                     the interventions' last point
     e CURVE SEEDS               the interventions' last point times the seeds
     R CURVE CURVE SEEDS         interventions rounds per unit times seeds, if
                                 every round on both arms kept the policy
     t TASK WARM                 training steps in thousands ("80k" without k)
     M MD N PHRASE...            the N-th number after PHRASE in a table's notes
     s SEEDS RECIPE COLUMN SEED  one seed's value (COLUMN unit: its unit's number)
   0 when it makes a value, else 1 with the reason in out. */
static const char* docs_first_number(const char* s);

static int docs_spec(const char* dir, const char* spec, char* out, size_t cap) {
    char w[8][64];
    int n = sscanf(spec, "%63s %63s %63s %63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]), k, bad = 0;
    docs_csv* c = n > 1 && w[0][0] != 't' && w[0][0] != 'M' ? docs_csv_load(dir, w[1]) : NULL;
    double a[64], b[64], x = 0;
    if (n > 1 && w[0][0] != 't' && w[0][0] != 'k' && w[0][0] != 'm' && w[0][0] != 'M' && !c) return snprintf(out, cap, "%s: not a CSV", w[1]), 1;
    if (w[0][0] == 'v' && n == 5) {
        int r = docs_csv_row(c, "recipe", w[2], 0);
        double e = docs_episodes(c, r, w[3]), v = docs_csv_num(c, r, w[3]);
        x = strstr(w[3], "success") && e > 0 ? 100 * (docs_count(v, e) / e) : 100 * v;   /* as 07: 100 x (k / n) */
        if (!strcmp(w[3], "gap"))   /* as 07: the difference of the two rates */
            x = 100 * (docs_count(docs_csv_num(c, r, "sim_success"), docs_csv_num(c, r, "sim_episodes")) /
                       docs_csv_num(c, r, "sim_episodes") - docs_count(docs_csv_num(c, r, "real_success"),
                       docs_csv_num(c, r, "real_episodes")) / docs_csv_num(c, r, "real_episodes"));
        snprintf(out, cap, w[4], x);
    } else if (w[0][0] == 'd' && n == 6) {
        int ra = docs_csv_row(c, "recipe", w[2], 0), rb = docs_csv_row(c, "recipe", w[3], 0);
        double ea = docs_episodes(c, ra, w[4]), eb = docs_episodes(c, rb, w[4]);
        x = docs_count(docs_csv_num(c, ra, w[4]), ea) / ea - docs_count(docs_csv_num(c, rb, w[4]), eb) / eb;
        x = 100 * (floor(x * 1e4 + 0.5) / 1e4);   /* as a CSV of 07's writes a difference: 4 decimals */
        snprintf(out, cap, w[5], x);
    } else if ((w[0][0] == 'n' && n == 5) || (w[0][0] == 'i' && n == 5)) {
        const char* column = w[0][0] == 'n' ? w[4] : "real_success";
        int m = docs_per_seed(c, w[2], column, a), ahead = 0;
        double mean, lo, hi;
        bad = m < 2 || docs_per_seed(c, w[3], column, b) != m;
        for (k = 0; k < m; k++) {
            ahead += a[k] > b[k];
            a[k] -= b[k];
        }
        s2r_mean_interval(a, m, &mean, &lo, &hi);
        if (w[0][0] == 'n') snprintf(out, cap, "%d", ahead);
        else snprintf(out, cap, "%+.1f", 100 * fmax(-1, fmin(1, w[4][0] == 'l' ? lo : hi)));
    } else if (w[0][0] == 'r' && n == 5) {
        int m = docs_per_seed(c, w[2], w[3], a);
        for (x = a[0], k = 1; k < m; k++) x = w[4][1] == 'i' ? fmin(x, a[k]) : fmax(x, a[k]);
        bad = m < 1;
        snprintf(out, cap, "%.1f", 100 * x);
    } else if (w[0][0] == 'u' && n == 3) {
        for (x = NAN, k = 0; k < c->rows; k++) {
            double u = docs_csv_num(c, k, "unit");
            x = isnan(x) ? u : w[2][1] == 'i' ? fmin(x, u) : fmax(x, u);
        }
        snprintf(out, cap, "%.0f", x);
    } else if ((w[0][0] == 'k' || w[0][0] == 'm') && n == 3) {
        char path[DOCS_PATH_LEN];
        const char *text, *at;
        char* md;
        snprintf(path, sizeof path, "%s/%s", dir, w[1]);
        text = md = docs_read(path, NULL);
        if (!md) return snprintf(out, cap, "%s: cannot be read", w[1]), 1;
        at = w[0][0] == 'k' ? strstr(text, w[2][0] == 'k' ? "kept the sysID policy " : "times (of ")
                            : strstr(text, w[2][0] == 'w' ? " s wall" : "peak memory ");
        if (at && w[0][0] == 'm' && w[2][0] == 'w') while (at > text && isdigit((unsigned char)at[-1])) at--;
        if (at && !(w[0][0] == 'm' && w[2][0] == 'w')) at = strpbrk(at, "0123456789");
        bad = !at || sscanf(at, "%lf", &x) != 1;
        snprintf(out, cap, "%.0f", x);
        free(md);
    } else if (w[0][0] == 'g' && n == 4) {
        double v[4];
        static const char* const cond[4][2] = {{"without", "calibration"}, {"unit", "all"}, {"nominal", "none"},
                                               {"only", "calibration"}};
        for (k = 0; k < 4; k++) {
            int r;
            for (r = docs_csv_row(c, "recipe", w[2], 0); r >= 0; r = docs_csv_row(c, "recipe", w[2], r + 1))
                if (!strcmp(docs_csv_cell(c, r, "condition"), cond[k][0]) && !strcmp(docs_csv_cell(c, r, "effect"), cond[k][1]))
                    break;
            bad |= r < 0;
            v[k] = r < 0 ? NAN : docs_csv_num(c, r, "successes") / docs_csv_num(c, r, "episodes");
        }
        x = w[3][1] == 'i' ? fmin(v[0] - v[1], v[2] - v[3]) : fmax(v[0] - v[1], v[2] - v[3]);
        snprintf(out, cap, "%.0f", 100 * x);
    } else if (w[0][0] == 'c' && n == 5) {
        int r;
        for (r = docs_csv_row(c, "demos", w[2], 0); r >= 0 && strcmp(docs_csv_cell(c, r, "cloned"), w[3]); r = docs_csv_row(c, "demos", w[2], r + 1)) {}
        bad = r < 0;
        docs_thousands((long)docs_csv_num(c, r, w[4]), out, cap);
    } else if ((w[0][0] == 'x' && n == 2) || (w[0][0] == 'e' && n == 3) || (w[0][0] == 'R' && n == 4)) {
        docs_csv* seeds = n > 2 ? docs_csv_load(dir, w[n - 1]) : NULL;
        double last = 0, seeds_n = w[0][0] == 'x' ? 1 : seeds ? docs_per_seed(seeds, "dr_sysid", "real_success", a) : 0;
        int points = 0, curves, r;
        for (curves = 0; curves < (n > 2 ? n - 2 : 1) && !bad; curves++) {
            docs_csv* cv = curves ? docs_csv_load(dir, w[2]) : c;
            double first = NAN;
            int p = 0;
            bad = !cv;
            for (r = 0; cv && r < cv->rows; r++) {
                if (strcmp(docs_csv_cell(cv, r, "cloned"), "interventions")) continue;
                if (docs_csv_num(cv, r, "demos") == 0) { first = docs_csv_num(cv, r, "real_success"); continue; }
                p++;
                last = fmax(last, docs_csv_num(cv, r, "demos"));
                bad |= docs_csv_num(cv, r, "real_success") != first;   /* a round kept: the policy as it was */
            }
            bad |= curves && p != points;
            points = p;
            if (curves) docs_csv_free(cv);
        }
        docs_csv_free(seeds);
        bad |= seeds_n < 1;
        if (w[0][0] == 'e') docs_thousands((long)(last * seeds_n), out, cap);
        else snprintf(out, cap, "%.0f", w[0][0] == 'R' ? points * seeds_n : last);
    } else if (w[0][0] == 'M' && n >= 4) {
        char path[DOCS_PATH_LEN], phrase[256];
        const char* at;
        char* md;
        int skip = atoi(w[2]);
        snprintf(path, sizeof path, "%s/%s", dir, w[1]);
        for (at = spec, k = 0; k < 3; k++) {   /* past "M FILE N " */
            at += strspn(at, " ");
            at += strcspn(at, " ");
        }
        snprintf(phrase, sizeof phrase, "%s", at + strspn(at, " "));
        md = docs_read(path, NULL);
        if (!md) return snprintf(out, cap, "%s: cannot be read", w[1]), 1;
        at = phrase[0] ? strstr(md, phrase) : NULL;
        if (at) at += strlen(phrase);
        for (k = 0; at && k < skip; k++) {   /* the skip-th number after the phrase */
            at = docs_first_number(at);
            if (at && k + 1 < skip) at += strspn(at, "0123456789.");
        }
        bad = !at || skip < 1 || sscanf(at, "%lf", &x) != 1;
        if (!bad) snprintf(out, cap, "%.*s", (int)strspn(at, "0123456789."), at);
        free(md);
    } else if (w[0][0] == 's' && n == 5) {
        int r = -1, seed = atoi(w[4]);
        while ((r = docs_csv_row(c, "recipe", w[2], r + 1)) >= 0 && atoi(docs_csv_cell(c, r, "seed")) != seed) {}
        bad = r < 0;
        x = r < 0 ? NAN : docs_csv_num(c, r, w[3]);
        if (!strcmp(w[3], "unit")) snprintf(out, cap, "%.0f", x);   /* a unit's number, not a rate */
        else snprintf(out, cap, "%.1f", 100 * x);
    } else if (w[0][0] == 't' && n == 3) {
        snprintf(out, cap, "%lld", s2r_task_training_steps(strcmp(w[1], "push") ? S2R_TASK_REACH : S2R_TASK_PUSH,
                                                           atoi(w[2])) / 1000);
    } else {
        bad = 1;
        snprintf(out, cap, "not a spec");
    }
    docs_csv_free(c);
    if (bad || !isfinite(x) || !out[0]) return 1;   /* x stays finite for the specs that set it, NAN-free */
    return 0;
}

#define DOCS_T10U "07_push_table_ur5e_seeds10.csv"
#define DOCS_T10P "07_push_table_panda_seeds10.csv"
#define DOCS_S10U "07_push_seeds_ur5e_seeds10.csv"
#define DOCS_S10P "07_push_seeds_panda_seeds10.csv"
#define DOCS_C10U "07_push_demo_curve_ur5e_seeds10.csv"
#define DOCS_C10P "07_push_demo_curve_panda_seeds10.csv"
#define DOCS_T3P  "07_push_table_panda.csv"
#define DOCS_S3P  "07_push_seeds_panda.csv"

typedef struct docs_claim {
    const char* phrase;       /* README's words, '@' where each number goes (no digits of its own) */
    const char* spec[12];     /* what makes each '@', in order (docs_spec) */
} docs_claim;

static const docs_claim docs_claims[] = {
    {"The pure-sim push policies succeed @ % in simulation and @ % on the UR5e's ten units, @ % with each unit's "
     "camera calibrated (the Panda's three units: @, @ and @ %).",
     {"v " DOCS_T10U " pure_sim sim_success %.1f", "v " DOCS_T10U " pure_sim real_success %.1f",
      "v " DOCS_T10U " pure_sim calibrated_success %.1f", "v " DOCS_T3P " pure_sim sim_success %.1f",
      "v " DOCS_T3P " pure_sim real_success %.1f", "v " DOCS_T3P " pure_sim calibrated_success %.1f"}},
    {"unit by unit it succeeds @-@ % on the UR5e.",
     {"r " DOCS_S10U " pure_sim real_success min", "r " DOCS_S10U " pure_sim real_success max"}},
    {"takes the UR5e's pure-sim policy from @ to @ %.",
     {"v 07_table.csv pure_sim real_success %.1f", "v 07_table.csv pure_sim calibrated_success %.1f"}},
    {"@ % on the UR5e's ten units and @ % on the Panda's three, ahead of DR on @ of the ten seeds and @ of the "
     "three, gaps of @ and @ points; @ % on the UR5e's reach.",
     {"v " DOCS_T10U " dr_sysid real_success %.1f", "v " DOCS_T3P " dr_sysid real_success %.1f",
      "n " DOCS_S10U " dr_sysid dr real_success", "n " DOCS_S3P " dr_sysid dr real_success",
      "v " DOCS_T10U " dr_sysid gap %.1f", "v " DOCS_T3P " dr_sysid gap %.1f",
      "v 07_table.csv dr_sysid real_success %.0f"}},
    {"On a second set of units, #@-#@, never used while the recipe was built, @ and @ %",
     {"u 07_push_seeds_ur5e_unit7001.csv min", "u 07_push_seeds_ur5e_unit7001.csv max",
      "v 07_push_table_ur5e_unit7001.csv dr_sysid real_success %.1f",
      "v 07_push_table_panda_unit7001.csv dr_sysid real_success %.1f"}},
    {"DR is only @ (UR5e) and @ points (Panda) ahead of pure sim on the units as they are, not shown to help seed by "
     "seed ([@, @] over ten seeds and [@, @] over three)",
     {"d " DOCS_T10U " dr pure_sim real_success %.1f", "d " DOCS_T3P " dr pure_sim real_success %.1f",
      "i " DOCS_S10U " dr pure_sim lo", "i " DOCS_S10U " dr pure_sim hi", "i " DOCS_S3P " dr pure_sim lo",
      "i " DOCS_S3P " dr pure_sim hi"}},
    {"(it pays where the camera is calibrated: @ against @ % on the UR5e, ahead on @ of the ten seeds).",
     {"v " DOCS_T10U " dr calibrated_success %.1f", "v " DOCS_T10U " pure_sim calibrated_success %.1f",
      "n " DOCS_S10U " dr pure_sim calibrated_success"}},
    {"helps a little on the UR5e: @ against @ %, ahead of DR on @ of the ten seeds ([@, @] points)",
     {"v " DOCS_T10U " dr_camera_memory real_success %.1f", "v " DOCS_T10U " dr real_success %.1f",
      "n " DOCS_S10U " dr_camera_memory dr real_success", "i " DOCS_S10U " dr_camera_memory dr lo",
      "i " DOCS_S10U " dr_camera_memory dr hi"}},
    {"with the cameras calibrated it loses @ points to DR on the UR5e's units (@ against @ %)",
     {"d " DOCS_T10U " dr dr_camera_memory calibrated_success %.0f",
      "v " DOCS_T10U " dr_camera_memory calibrated_success %.1f", "v " DOCS_T10U " dr calibrated_success %.1f"}},
    {"finds it still losing @-@ points to the units' offsets where DR loses @-@ (UR5e), @-@ where DR loses @-@ "
     "(Panda).",
     {"g 09_push_attribution_ur5e.csv dr_camera_memory min", "g 09_push_attribution_ur5e.csv dr_camera_memory max",
      "g 09_push_attribution_ur5e.csv dr min", "g 09_push_attribution_ur5e.csv dr max",
      "g 09_push_attribution_panda.csv dr_camera_memory min", "g 09_push_attribution_panda.csv dr_camera_memory max",
      "g 09_push_attribution_panda.csv dr min", "g 09_push_attribution_panda.csv dr max"}},
    {"a hundred of the operator's demonstrations take the DR policy from @ to @ % on the UR5e's ten units, kept on "
     "@ seeds, most on units #@ and #@, where it succeeded @ and @ %, to @ and @ %.",
     {"v " DOCS_T10U " dr real_success %.1f", "v " DOCS_T10U " dr_demos_100 real_success %.1f",
      "n " DOCS_S10U " dr_demos_100 dr real_success", "s " DOCS_S10U " dr unit 5", "s " DOCS_S10U " dr unit 7", "s " DOCS_S10U " dr real_success 5",
      "s " DOCS_S10U " dr real_success 7", "s " DOCS_S10U " dr_demos_100 real_success 5",
      "s " DOCS_S10U " dr_demos_100 real_success 7"}},
    {"From the system-ID policy, @ %, no fine-tune of any way did better on the UR5e's ten units:",
     {"v " DOCS_T10U " dr_sysid real_success %.1f"}},
    {"of @ RL fine-tunes (the RL curve's included) the canary kept @",
     {"M 07_push_table_ur5e_seeds10.md 1 kept only if the same canary shows it better: of",
      "M 07_push_table_ur5e_seeds10.md 1 (the RL curve's included) the canary kept"}},
    {"On the Panda's reach DR is behind pure sim (@ against @ %): @k steps from the pure-sim policy are too few there.",
     {"v 07_table_panda.csv dr real_success %.1f", "v 07_table_panda.csv pure_sim real_success %.1f", "t reach 1"}},
};

/* Numbers in the bullets that are names or the protocol, not measurements:
   an example's number; the operator's set-up time and the push episode's
   length (settings), and the moment they leave to take over (RESULTS.md
   derives it from them and the puck's distances). */
static const char* const docs_settings[] = {
    "Example 09", "example 09",
    "An operator who needs 2.8 s to get going in a 5 s episode must take over 0.8 to 1.8 s in",
};

/* The README's tables and the files they cite: the heading before each,
   the CSV its numbers come from and the .md its rows were copied from. */
static const char* const docs_tables[][3] = {
    {"**Push, UR5e, ten seeds**", DOCS_T10U, "07_push_table_ur5e_seeds10.md"},
    {"**Push, Panda, three seeds**", DOCS_T3P, "07_push_table_panda.md"},
};
static const char* const docs_row_names[][2] = {
    {"Pure sim training", "pure_sim"}, {"Sim + domain randomization", "dr"},
    {"Sim + DR incl. camera calibration", "dr_camera_memory"}, {"Sim + DR + system ID", "dr_sysid"},
    {"Sim + DR + sysID + 100 real demos", "demos_100"}, {"Sim + DR + sysID + 1000 real demos", "demos_1000"},
    {"Sim + DR + 100 real demos", "dr_demos_100"}, {"Sim + DR + 1000 real demos", "dr_demos_1000"},
    {"Sim + DR + 100 real episodes (RL)", "dr_rl_100"}, {"Sim + DR + 1000 real episodes (RL)", "dr_rl_1000"},
    {"Sim + DR + sysID + 100 real episodes (RL)", "sysid_rl_100"},
    {"Sim + DR + sysID + 1000 real episodes (RL)", "sysid_rl_1000"},
    {"Real-only training", "real_only"},
};

/* The first number of s - a digit not inside a word, as UR5e's - or NULL. */
static const char* docs_first_number(const char* s) {
    const char* at;
    for (at = s; *at; at++)
        if (isdigit((unsigned char)*at) && !(at > s && isalpha((unsigned char)at[-1]))) return at;
    return NULL;
}

/* s with every run of blanks and newlines as one blank (caller frees). */
static char* docs_flatten(const char* s) {
    char* out = (char*)malloc(strlen(s) + 1);
    size_t n = 0;
    for (; out && *s; s++) {
        if (isspace((unsigned char)*s)) {
            if (n && out[n - 1] != ' ') out[n++] = ' ';
        } else {
            out[n++] = *s;
        }
    }
    if (out) out[n] = '\0';
    return out;
}

/* A claim's phrase with its numbers filled in from the files in dir;
   0, or 1 with the reason in out. */
static int docs_fill(const char* dir, const docs_claim* c, char* out, size_t cap) {
    const char* p;
    size_t n = 0;
    int k = 0;
    for (p = c->phrase; *p && n + DOCS_VALUE_LEN < cap; p++) {
        char value[DOCS_VALUE_LEN * 4];
        if (*p != '@') { out[n++] = *p; continue; }
        if (!c->spec[k] || docs_spec(dir, c->spec[k], value, sizeof value))
            return snprintf(out, cap, "spec %d (%s): %s", k + 1, c->spec[k] ? c->spec[k] : "missing",
                            c->spec[k] ? value : "more '@' than specs"), 1;
        n += (size_t)snprintf(out + n, cap - n, "%s", value);
        k++;
    }
    out[n] = '\0';
    if (c->spec[k]) return snprintf(out, cap, "more specs than '@'"), 1;
    return 0;
}

/* The expected cells of a table row, from the CSV row r: sim, real, gap,
   calibrated, as 07 writes them ("n/a" for what real-only lacks). */
static void docs_row_cells(const docs_csv* c, int r, char cells[4][64]) {
    int real_only = !strcmp(docs_csv_cell(c, r, "recipe"), "real_only");
    double ns = docs_csv_num(c, r, "sim_episodes"), nr = docs_csv_num(c, r, "real_episodes"), lo, hi;
    double ks = docs_count(docs_csv_num(c, r, "sim_success"), ns), kr = docs_count(docs_csv_num(c, r, "real_success"), nr);
    double kc = docs_count(docs_csv_num(c, r, "calibrated_success"), nr);
    s2r_wilson_interval((int)ks, (int)ns, &lo, &hi);
    snprintf(cells[0], 64, real_only ? "n/a" : "%.1f [%.1f, %.1f]", 100 * (ks / ns), 100 * lo, 100 * hi);
    s2r_wilson_interval((int)kr, (int)nr, &lo, &hi);
    snprintf(cells[1], 64, "%.1f [%.1f, %.1f]", 100 * (kr / nr), 100 * lo, 100 * hi);
    s2r_newcombe_interval((int)ks, (int)ns, (int)kr, (int)nr, &lo, &hi);
    snprintf(cells[2], 64, real_only ? "n/a" : "%.1f [%.1f, %.1f]", 100 * (ks / ns - kr / nr), 100 * lo,
             100 * hi);
    int calibrated = docs_csv_col(c, "calibrated_episodes") < 0 || docs_csv_num(c, r, "calibrated_episodes") > 0;
    s2r_wilson_interval((int)kc, (int)nr, &lo, &hi);
    snprintf(cells[3], 64, calibrated ? "%.1f [%.1f, %.1f]" : "n/a", 100 * (kc / nr), 100 * lo, 100 * hi);
}

/* The README table under `heading` against its CSV and .md in dir: how
   many rows differ (each printed when `say`), or 1 for a table not found. */
static int docs_check_table(const char* dir, const char* readme, const char* const t[3], int say) {
    char path[DOCS_PATH_LEN], *md;
    const char *at = strstr(readme, t[0]), *line;
    docs_csv* c = docs_csv_load(dir, t[1]);
    int bad = 0, rows = 0;
    snprintf(path, sizeof path, "%s/%s", dir, t[2]);
    md = docs_read(path, NULL);
    if (!at || !c || !md) {
        if (say) printf("    %s: %s\n", t[0], !at ? "no such heading in README.md" : !c ? t[1] : t[2]);
        docs_csv_free(c);
        free(md);
        return 1;
    }
    at = strstr(at, "\n|");
    for (line = at ? at + 1 : NULL; line && line[0] == '|'; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char row[512], want[512], cells[4][64], *bar;
        size_t len = strcspn(line, "\n");
        int k, r = -1;
        if (len >= sizeof row || strncmp(line, "| Recipe", 8) == 0 || strncmp(line, "|---", 4) == 0) continue;
        memcpy(row, line, len);
        row[len] = '\0';
        for (k = 0; k < (int)(sizeof docs_row_names / sizeof *docs_row_names); k++)
            if (strncmp(row + 2, docs_row_names[k][0], strlen(docs_row_names[k][0])) == 0)
                r = docs_csv_row(c, "recipe", docs_row_names[k][1], 0);
        bar = strstr(row + 2, " | ");
        rows++;
        if (r < 0 || !bar) {
            if (say) printf("    %s: a row of no recipe in %s: %s\n", t[0], t[1], row);
            bad++;
            continue;
        }
        docs_row_cells(c, r, cells);
        snprintf(want, sizeof want, "%.*s | %s | %s | %s | %s |", (int)(bar - row), row, cells[0], cells[1], cells[2],
                 cells[3]);
        if (strcmp(row, want) != 0) {
            if (say) printf("    %s, from %s:\n      README: %s\n      the CSV: %s\n", t[0], t[1], row, want);
            bad++;
        } else if (!strstr(md, row)) {
            if (say) printf("    %s: the row is not %s's: %s\n", t[0], t[2], row);
            bad++;
        }
    }
    docs_csv_free(c);
    free(md);
    return bad + (rows < 6);
}

/* README.md's results against the files in dir: how many checks fail
   (each printed when `say`): every table, every claim found in the
   README with the numbers dir gives, and every number of the bullets
   inside a claim or a setting. */
static int docs_results(const char* dir, int say) {
    char *readme = docs_read(DOCS_README, NULL), *flat = readme ? docs_flatten(readme) : NULL, *bullets, *end;
    char* covered;
    int bad = 0, k;
    size_t i;
    if (!readme || !flat) { free(readme); free(flat); return 1; }
    for (k = 0; k < (int)(sizeof docs_tables / sizeof *docs_tables); k++) bad += docs_check_table(dir, readme, docs_tables[k], say);
    bullets = strstr(flat, "What they say");
    end = bullets ? strstr(bullets, "## Use it") : NULL;
    if (!end) { free(readme); free(flat); if (say) printf("    no \"What they say\" ... \"## Use it\" in README.md\n"); return bad + 1; }
    *end = '\0';
    covered = (char*)calloc(strlen(bullets) + 1, 1);
    for (k = 0; k < (int)(sizeof docs_claims / sizeof *docs_claims) && covered; k++) {
        char want[1024];
        const char* at;
        if (docs_first_number(docs_claims[k].phrase)) {   /* a number typed into a claim is no claim */
            if (say) printf("    a claim's phrase holds digits of its own: %s\n", docs_claims[k].phrase);
            bad++;
        } else if (docs_fill(dir, &docs_claims[k], want, sizeof want)) {
            if (say) printf("    \"%.60s...\": %s\n", docs_claims[k].phrase, want);
            bad++;
        } else if (!(at = strstr(flat, want))) {
            char first[48];
            snprintf(first, sizeof first, "%s", want);
            at = strstr(flat, first) ? strstr(flat, first) : NULL;
            if (say) printf("    README.md does not say what the files say:\n      the files: %s\n      README.md: %.*s\n", want,
                            at ? (int)strlen(want) : 9, at ? at : "(nothing)");
            bad++;
        } else if (at >= bullets && at < end) {
            memset(covered + (at - bullets), 1, strlen(want));
        }
    }
    for (k = 0; k < (int)(sizeof docs_settings / sizeof *docs_settings) && covered; k++) {
        const char* at;
        for (at = strstr(bullets, docs_settings[k]); at; at = strstr(at + 1, docs_settings[k]))
            memset(covered + (at - bullets), 1, strlen(docs_settings[k]));
    }
    for (i = 0; covered && bullets[i]; i++) {
        if (bullets[i] == ']' && bullets[i + 1] == '(') {   /* a link's target is no number */
            size_t close = i + strcspn(bullets + i, ")");
            memset(covered + i, 1, close - i);
            i = close;
            continue;
        }
        if (isdigit((unsigned char)bullets[i]) && !(i && isalpha((unsigned char)bullets[i - 1])) && !covered[i]) {
            if (say) printf("    a number of the bullets no claim makes: \"...%.50s...\"\n", bullets + (i > 30 ? i - 30 : 0));
            bad++;
            while (isdigit((unsigned char)bullets[i + 1]) || bullets[i + 1] == '.' || bullets[i + 1] == ',') i++;
        }
    }
    free(covered);
    free(readme);
    free(flat);
    return bad;
}

/* dir/name copied into to/name; 0 when done. */
static int docs_copy(const char* dir, const char* to, const char* name) {
    char path[DOCS_PATH_LEN];
    long n = 0;
    char* text;
    FILE* f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(text = docs_read(path, &n))) return 1;
    snprintf(path, sizeof path, "%s/%s", to, name);
    f = fopen(path, "wb");
    if (f) fwrite(text, 1, (size_t)n, f);
    free(text);
    return !f || fclose(f) != 0;
}

/* In to/name, the first `from` after `after` replaced by `by` (as long). */
static int docs_edit(const char* to, const char* name, const char* after, const char* from, const char* by) {
    char path[DOCS_PATH_LEN], *text;
    long n = 0;
    FILE* f;
    snprintf(path, sizeof path, "%s/%s", to, name);
    if (!(text = docs_read(path, &n))) return 1;
    f = docs_replace(text, after, from, by) ? fopen(path, "wb") : NULL;
    if (f) fwrite(text, 1, (size_t)n, f);
    free(text);
    return !f || fclose(f) != 0;
}

/* Every number of README.md's result tables and bullets from the committed
   file it comes from; and a copy of those files with two numbers edited
   by hand fails the same check - the table row and the bullets that use
   them. */
static int test_docs_readme_numbers(void) {
    const char* copy = "build/docs_edited_figures";
    int k, s, failed;
    CHECKF(docs_results("figures", 1) == 0, "README.md's results differ from the committed files (above)");
#if defined(__unix__) || defined(__APPLE__)
    mkdir(copy, 0755);
#endif
    for (k = 0; k < (int)(sizeof docs_tables / sizeof *docs_tables); k++)
        CHECK(docs_copy("figures", copy, docs_tables[k][1]) == 0 && docs_copy("figures", copy, docs_tables[k][2]) == 0);
    for (k = 0; k < (int)(sizeof docs_claims / sizeof *docs_claims); k++)
        for (s = 0; docs_claims[k].spec[s]; s++) {
            char w[4][96];
            int n = sscanf(docs_claims[k].spec[s], "%95s %95s %95s %95s", w[0], w[1], w[2], w[3]), i;
            for (i = 1; i < n; i++)
                if (strstr(w[i], ".csv") || strstr(w[i], ".md")) CHECK(docs_copy("figures", copy, w[i]) == 0);
        }
    CHECK(docs_results(copy, 0) == 0);   /* the copy as it is: the same */
    /* by hand: the UR5e's system-ID row two successes more on the units, and its first DR seed 20 more
       - the table row and the bullets that give the first, the paired intervals the second */
    CHECK(docs_edit(copy, DOCS_T10U, "\ndr_sysid,", ",0.8105,", ",0.8115,") == 0);
    CHECK(docs_edit(copy, DOCS_S10U, "ur5e,push,1,1,dr,", ",200,0.6300,", ",200,0.7300,") == 0);
    failed = docs_results(copy, 0);
    CHECKF(failed >= 4, "the check passed files edited by hand (%d failures)", failed);
    return 0;
}

static const test_case docs_tests[] = {
    {"docs: the PNG check accepts a written figure and rejects broken ones", test_docs_png_checker},
    {"docs: every figure README.md names is a whole PNG", test_docs_readme_figures},
    {"docs: every figure figures/RESULTS.md names is a whole PNG", test_docs_results_figures},
    {"docs: README.md is at most 350 lines, with \"## Use it\" in its first 250 and no paragraph or bullet over 120 words", test_docs_readme_shape},
    {"docs: RESULTS.md's commands exist; links between README.md and RESULTS.md land on headings", test_docs_results_commands},
    {"docs: RESULTS' summary links resolve: its summary table's links land on headings and its files exist; every section but the tables' opens with its two-line summary", test_docs_results_summary},
    {"docs: notebooks are JSON with cells, stored without outputs", test_docs_notebooks},
    {"docs: the reading paths and the examples' Uses: lines name functions that exist and are called", test_docs_names_exist},
    {"docs: every document a file of the project mentions is in the repository", test_docs_no_outside_files},
    {"docs: every reading path reads down its file two calls deep; five are at most 12 functions and 350 lines", test_docs_paths_read_down},
    {"docs: every public function names its parameters the same in its declaration and its definition", test_docs_parameter_names},
    {"docs: sim2real.h and each companion header beside it are under 1 MiB", test_docs_header_sizes},
    {"docs: every number of README.md's result tables and bullets from the committed file it comes from; one edited by hand fails", test_docs_readme_numbers},
};
