/* tests/test_docs.c - tests of the documentation around the header.

   Every figure README.md points at (markdown image links and plain
   mentions of figures/NAME.png, including wildcards like
   figures/07_*_training.png) must be in the repository and be a PNG that
   is whole: the 8-byte signature, an IHDR chunk with a nonzero width and
   height and a correct CRC, and the IEND chunk at the end.  Every notebook
   in notebooks/ must look like a Jupyter notebook (a JSON object with
   "cells" and "nbformat") and be stored without outputs, so the repository
   stays small and its diffs readable.

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
static int docs_check_figure(const char* ref) {
    unsigned long w = 0, h = 0;
    const char* problem;
    if (!strchr(ref, '*')) {
        problem = docs_png_problem(ref, &w, &h);
        if (problem) { printf("    %s (named in " DOCS_README "): %s\n", ref, problem); return -1; }
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
                    printf("    %s (matches %s in " DOCS_README "): %s\n", path, ref, problem);
                    bad = 1;
                }
                n++;
            }
        closedir(d);
        if (n == 0) printf("    %s (named in " DOCS_README "): no file matches\n", ref);
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
        if (docs_check_figure(ref) < 0) bad++;
    }
    free(text);
    CHECKF(refs > 0, DOCS_README " names no figures/*.png (the scan is broken?)");
    CHECKF(bad == 0, "%d of %d figure references are broken", bad, refs);
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
   (or, for run_seed, in examples/07_the_table.c); the paths for what
   domain randomization does and what one PPO update does are read going
   down the file, never back up; every function an example's "Uses:" line
   names is called by that example. */
static int test_docs_names_exist(void) {
    static const char* const examples[] = {"00_hello_robot", "01_the_gap", "02_domain_randomization", "03_system_id",
        "04_finetune", "05_real_only", "06_staged_deployment", "07_the_table", "08_scene_renders", "09_gap_attribution",
        "10_sysid_vs_truth", "11_gates", "12_sysid_from_logs", "13_recipe_depth", "14_predicting_transfer"};
    long size;
    char* header = docs_read("sim2real.h", &size);
    char* table = docs_read("examples/07_the_table.c", &size);
    static const char* const downward[] = {"What does domain randomization do", "What does one PPO update do"};
    const char *paths, *end, *line, *previous = NULL;
    int names = 0, k, in_order = 0, ordered = 0;
    CHECK(header && table);
    paths = strstr(header, "   9. Reading paths\n   ----");
    CHECK(paths != NULL);
    end = strstr(paths, "*/");
    for (line = strchr(paths, '\n'); line && line < end; line = strchr(line + 1, '\n')) {
        char name[64];
        int len = 0;
        if (strncmp(line, "\n   ", 4) == 0 && line[4] != ' ') {   /* a question opens a path */
            for (in_order = 0, k = 0; k < (int)(sizeof downward / sizeof *downward); k++)
                in_order |= strncmp(line + 4, downward[k], strlen(downward[k])) == 0;
            previous = NULL;
            continue;
        }
        if (strncmp(line, "\n     ", 6) != 0 || line[6] == ' ') continue;   /* a function line */
        while (len < 63 && (isalnum((unsigned char)line[6 + len]) || line[6 + len] == '_')) { name[len] = line[6 + len]; len++; }
        name[len] = '\0';
        if (len == 0) continue;
        names++;
        CHECKF(docs_defines(header, name) || docs_defines(table, name), "reading paths name %s, which is defined nowhere", name);
        if (in_order) {
            const char* at = docs_definition(header, name);
            CHECKF(!previous || at > previous, "reading path: %s is defined above the function read before it", name);
            previous = at;
            ordered++;
        }
    }
    CHECKF(names >= 25, "only %d functions found in the reading paths", names);
    CHECKF(ordered >= 8, "only %d functions found in the two downward reading paths", ordered);
    for (k = 0; k < (int)(sizeof examples / sizeof *examples); k++) {
        char path[DOCS_PATH_LEN];
        char *text, *uses, *stop, *code;
        snprintf(path, sizeof path, "examples/%s.c", examples[k]);
        text = docs_read(path, &size);
        CHECKF(text != NULL, "%s", path);
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
    return 0;
}

/* No file of the project points at a document outside the repository:
   every document ("NAME.md" in capitals, as README.md; lowercase .md
   names are the examples' outputs) that the header, the examples, the
   Makefile or the README mention is a file of the repository. */
static int test_docs_no_outside_files(void) {
    static const char* const files[] = {"sim2real.h", "README.md", "Makefile", "examples/03_system_id.c",
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
            doc = fopen(name, "rb");
            CHECKF(doc != NULL, "%s mentions %s, which is not in the repository", files[f], name);
            fclose(doc);
        }
        free(text);
    }
    CHECKF(mentions > 0, "no document found at all (08 names README.md): the scan is broken");
    return 0;
}

static const test_case docs_tests[] = {
    {"docs: the PNG check accepts a written figure and rejects broken ones", test_docs_png_checker},
    {"docs: every figure README.md names is a whole PNG", test_docs_readme_figures},
    {"docs: notebooks are JSON with cells, stored without outputs", test_docs_notebooks},
    {"docs: the reading paths and the examples' Uses: lines name functions that exist and are called", test_docs_names_exist},
    {"docs: every document a file of the project mentions is in the repository", test_docs_no_outside_files},
};
