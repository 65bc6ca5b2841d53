/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_partial.c -- pb_partial (profbridge/partial.h): the arithmetic of
 * combining contiguous partials (a value's own, exist and fresh counts,
 * saturating), checked by hand on small text profiles and against the
 * flat pb_merger of the same inputs; the provenance; save/load; the
 * refusals. tests/interop/merge_partial.sh does the same with real files
 * and llvm-profdata.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* caller's one indirect-call site holds `target` with `count` */
#define CALLER(counter, target, count)                                                               \
    ":ir\ncaller\n1000\n1\n" #counter "\n1\n0\n1\n1\n" target ":" count "\n\nA\n1\n1\n1\n\nB\n2\n1\n1\n" \
    "\nC\n3\n1\n1\n"

static const char text_a[] = CALLER(10, "A", "5");
static const char text_b[] = CALLER(7, "B", "7");
static const char text_c[] = CALLER(1, "C", "1");
/* 2^62 + 1: twice it saturates nothing, three times passes 2^64 */
static const char text_big[] = CALLER(1, "A", "4611686018427387905");

/* caller with two counters under the same hash: a counter-count conflict */
static const char text_wide[] = ":ir\ncaller\n1000\n2\n100\n100\n";

static const char *const texts[] = {text_a, text_b, text_c, text_big, text_wide};

static int add(pb_partial *p, int which, uint64_t w) {
    static const char *const names[] = {"a.proftext", "b.proftext", "c.proftext", "big.proftext", "wide.proftext"};
    pb_error err;
    int rc = pb_partial_add_bytes(p, names[which], texts[which], strlen(texts[which]), w, &err);
    CU_ASSERT_EQUAL(rc, 0);
    return rc;
}

/* The count of `target` in caller's site (0: absent). */
static uint64_t value_of(const pb_profile *p, const char *target) {
    size_t idx[2];
    if (pb_profile_lookup(p, "caller", 6, idx, 2) != 1) return UINT64_MAX - 7;
    const pb_record *r = pb_profile_record(p, idx[0]);
    uint64_t ref = pb_md5_ref(target, strlen(target));
    for (uint32_t i = 0; r->num_sites[0] && i < r->sites[0][0].num_values; i++)
        if (r->sites[0][0].values[i].value == ref) return r->sites[0][0].values[i].count;
    return 0;
}

static pb_partial *partial_of(const int *which, const uint64_t *w, size_t n) {
    pb_partial *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_partial_new(&p, NULL, &err), 0);
    for (size_t i = 0; i < n; i++) add(p, which[i], w[i]);
    return p;
}

/* The flat merge (pb_merger) of the same inputs, through files. */
static pb_profile *flat(const int *which, const uint64_t *w, size_t n) {
    char dir[] = "/tmp/pb_partial_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    pb_merger *m = NULL;
    pb_merger_options o = PB_MERGER_OPTIONS_INIT;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_merger_new(&m, &o, &err), 0);
    char path[8][64];
    for (size_t i = 0; i < n && i < 8; i++) {
        snprintf(path[i], sizeof path[i], "%s/%zu.proftext", dir, i);
        FILE *f = fopen(path[i], "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fputs(texts[which[i]], f);
        fclose(f);
        CU_ASSERT_EQUAL(pb_merger_add_file(m, path[i], w[i], &err), 0);
    }
    pb_profile *out = NULL;
    CU_ASSERT_EQUAL(pb_merger_run(m, &out, &err), 0);
    pb_merger_free(m);
    for (size_t i = 0; i < n && i < 8; i++) unlink(path[i]);
    rmdir(dir);
    return out;
}

/* The partial of inputs [0, cut) combined with that of [cut, n), finished. */
static pb_profile *split(const int *which, const uint64_t *w, size_t n, size_t cut) {
    pb_partial *x = partial_of(which, w, cut), *y = partial_of(which + cut, w + cut, n - cut);
    pb_error err;
    CU_ASSERT_EQUAL(pb_partial_combine(x, y, &err), 0);
    pb_profile *out = NULL;
    CU_ASSERT_EQUAL(pb_partial_finish(x, &out, &err), 0);
    CU_ASSERT_EQUAL(pb_partial_input_count(x), n);
    pb_partial_free(x);
    pb_partial_free(y);
    return out;
}

static void same_as_flat(const int *which, const uint64_t *w, size_t n) {
    pb_profile *f = flat(which, w, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (size_t cut = 0; cut <= n; cut++) {
        pb_profile *s = split(which, w, n, cut);
        char why[256] = "";
        int eq = s && pb_profile_equal(f, s, why, sizeof why);
        if (!eq) fprintf(stderr, "\ncut %zu of %zu: %s\n", cut, n, why);
        CU_ASSERT(eq);
        pb_profile_free(s);
    }
    pb_profile_free(f);
}

/* Issue 24: a then 3 x b: b's value is new to the record, added unweighted. */
static void test_value_first_seen_later(void) {
    int which[] = {0, 1};
    uint64_t w[] = {1, 3};
    pb_profile *s = split(which, w, 2, 1);
    CU_ASSERT_EQUAL(value_of(s, "B"), 7);  /* not 21 */
    CU_ASSERT_EQUAL(value_of(s, "A"), 5);
    pb_profile_free(s);
    /* b alone, weighted: it creates the record */
    pb_partial *p = partial_of(which + 1, w + 1, 1);
    pb_profile *o = NULL;
    pb_error err;
    CU_ASSERT_EQUAL(pb_partial_finish(p, &o, &err), 0);
    CU_ASSERT_EQUAL(value_of(o, "B"), 21);
    pb_profile_free(o);
    pb_partial_free(p);
    same_as_flat(which, w, 2);
}

/* b, 2 x a, 3 x a: A first seen in the second input (5, unweighted), then
 * + 15 = 20. The partial [2a, 3a] has own 25, exist 25, fresh 20. */
static void test_fresh_carried_through_combine(void) {
    int which[] = {1, 0, 0};
    uint64_t w[] = {1, 2, 3};
    pb_partial *b = partial_of(which, w, 1), *aa = partial_of(which + 1, w + 1, 2);
    pb_error err;
    CU_ASSERT_EQUAL(pb_partial_combine(b, aa, &err), 0);
    pb_profile *o = NULL;
    CU_ASSERT_EQUAL(pb_partial_finish(b, &o, &err), 0);
    CU_ASSERT_EQUAL(value_of(o, "A"), 20);
    CU_ASSERT_EQUAL(value_of(o, "B"), 7);
    pb_profile_free(o);
    pb_partial_free(b);
    pb_partial_free(aa);
    /* and [2a, 3a] alone: 25 */
    pb_partial *p = partial_of(which + 1, w + 1, 2);
    CU_ASSERT_EQUAL(pb_partial_finish(p, &o, &err), 0);
    CU_ASSERT_EQUAL(value_of(o, "A"), 25);
    pb_profile_free(o);
    pb_partial_free(p);
    same_as_flat(which, w, 3);
    int w4[] = {2, 0, 1, 0};
    uint64_t ww4[] = {5, 2, 4, 3};
    same_as_flat(w4, ww4, 4);
}

/* Counts of 2^62 + 1: c, 2 x big (fresh 2^62+1, exist 2^63+2), 3 x big
 * (exist saturates at 2^64-1): every split as the flat merge. */
static void test_saturation(void) {
    int which[] = {2, 3, 3, 0};
    uint64_t w[] = {1, 2, 3, 1};
    same_as_flat(which, w, 4);
    pb_profile *s = split(which, w, 4, 2);
    CU_ASSERT_EQUAL(value_of(s, "A"), UINT64_MAX);
    pb_profile_free(s);
    int which2[] = {2, 3, 3};
    uint64_t w2[] = {1, 2, 1};
    pb_profile *t = split(which2, w2, 3, 1);
    /* fresh of [2 x big, big] = (2^62 + 1) + (2^62 + 1) = 2^63 + 2 */
    CU_ASSERT_EQUAL(value_of(t, "A"), (UINT64_C(1) << 63) + 2);
    pb_profile_free(t);
}

static void test_save_load_and_refusals(void) {
    int which[] = {0, 1, 2};
    uint64_t w[] = {2, 3, 1};
    pb_partial *p = partial_of(which, w, 3), *q = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_partial_save(p, &bytes, &len, &err), 0);
    CU_ASSERT(pb_partial_sniff(bytes, len));
    CU_ASSERT_EQUAL_FATAL(pb_partial_load(&q, bytes, len, "p.pbpart", NULL, &err), 0);
    CU_ASSERT_EQUAL(pb_partial_input_count(q), 3);
    pb_partial_input in;
    CU_ASSERT_EQUAL(pb_partial_input_at(q, 1, &in), 0);
    CU_ASSERT_STRING_EQUAL(in.name, "b.proftext");
    CU_ASSERT_EQUAL(in.weight, 3);
    CU_ASSERT_EQUAL(in.size, strlen(text_b));
    CU_ASSERT_EQUAL(strlen(in.sha256), 64);
    CU_ASSERT_EQUAL(in.status, PB_PARTIAL_MERGED);
    CU_ASSERT_EQUAL(pb_partial_input_at(q, 3, &in), PB_EINVAL);
    /* every cut of the bytes is refused, never a crash */
    for (size_t cut = 0; cut < len; cut += 7) {
        pb_partial *r = NULL;
        CU_ASSERT_NOT_EQUAL(pb_partial_load(&r, bytes, cut, "cut", NULL, &err), 0);
        CU_ASSERT_PTR_NULL(r);
    }
    /* other rules */
    pb_merger_options o = PB_MERGER_OPTIONS_INIT;
    o.llvm_release = 14;
    pb_partial *r14 = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_partial_new(&r14, &o, &err), 0);
    CU_ASSERT_EQUAL(pb_partial_combine(r14, q, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "rules.llvm_release");
    CU_ASSERT_EQUAL(pb_partial_combine(q, q, &err), PB_EINVAL);
    /* a weight on a partial */
    CU_ASSERT_EQUAL(pb_partial_add_bytes(r14, "p.pbpart", bytes, len, 2, &err), PB_EINVAL);
    pb_partial_free(r14);
    /* the loaded partial finishes as the saved one */
    pb_profile *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL(pb_partial_finish(p, &a, &err), 0);
    CU_ASSERT_EQUAL(pb_partial_finish(q, &b, &err), 0);
    CU_ASSERT(a && b && pb_profile_equal(a, b, NULL, 0));
    pb_profile_free(a);
    pb_profile_free(b);
    free(bytes);
    pb_partial_free(p);
    pb_partial_free(q);
}

static void test_failed_input_and_modes(void) {
    static const char bad[] = "this is no profile\n";
    for (int mode = PB_MERGE_FAIL_ANY; mode <= PB_MERGE_FAIL_WARN; mode++) {
        pb_merger_options o = PB_MERGER_OPTIONS_INIT;
        o.failure_mode = mode;
        pb_partial *p = NULL;
        pb_error err;
        CU_ASSERT_EQUAL_FATAL(pb_partial_new(&p, &o, &err), 0);
        CU_ASSERT_EQUAL(pb_partial_add_bytes(p, "bad.proftext", bad, sizeof bad - 1, 1, &err), 0);
        CU_ASSERT_EQUAL(pb_partial_add_bytes(p, "a.proftext", text_a, strlen(text_a), 1, &err), 0);
        pb_partial_input in;
        CU_ASSERT_EQUAL(pb_partial_input_at(p, 0, &in), 0);
        CU_ASSERT_EQUAL(in.status, PB_PARTIAL_FAILED);
        CU_ASSERT(in.error_code < 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(in.error_message, "bad.proftext"));
        if (!strstr(in.error_message, "bad.proftext")) fprintf(stderr, "[%s]\n", in.error_message);
        pb_profile *out = NULL;
        int rc = pb_partial_finish(p, &out, &err);
        if (mode == PB_MERGE_FAIL_ANY) {
            CU_ASSERT(rc < 0);
            CU_ASSERT_STRING_EQUAL(err.path, PB_MERGER_NOTHING_MERGED);
        } else {
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_EQUAL(value_of(out, "A"), 5);
        }
        pb_profile_free(out);
        pb_partial_free(p);
    }
}

static void test_profile_save_load(void) {
    int which[] = {0, 1};
    uint64_t w[] = {1, 3};
    pb_profile *f = flat(which, w, 2), *g = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_save(f, &bytes, &len, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_load(&g, bytes, len, "x", &err), 0);
    CU_ASSERT(g && pb_profile_equal(f, g, NULL, 0));
    pb_profile_free(g);
    CU_ASSERT_EQUAL(pb_profile_load(&g, bytes, len / 2, "x", &err) < 0, 1);
    CU_ASSERT_PTR_NULL(g);
    CU_ASSERT_FALSE(pb_partial_sniff(bytes, len));
    free(bytes);
    pb_profile_free(f);
    pb_profile_free(g);
}


/* The stated limit of docs/distributed-merge.md: a record of two shapes in
 * two partitions. [a] then [wide, a]: the flat merge skips wide and adds the
 * second a (caller's counter 20); the partial [wide, a] holds wide's shape
 * (its a was skipped there), so the combine skips it: 10. A shape met only
 * later in the same order as the flat merge is exact: [a, wide] [a]. */
static void test_shape_conflict_limit(void) {
    int which[] = {0, 4, 0};
    uint64_t w[] = {1, 1, 1};
    pb_profile *f = flat(which, w, 3);
    size_t idx[2];
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(f, "caller", 6, idx, 2), 1);
    CU_ASSERT_EQUAL(pb_profile_record(f, idx[0])->counters[0], 20);
    pb_profile *s = split(which, w, 3, 1);
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(s, "caller", 6, idx, 2), 1);
    CU_ASSERT_EQUAL(pb_profile_record(s, idx[0])->num_counters, 1);
    CU_ASSERT_EQUAL(pb_profile_record(s, idx[0])->counters[0], 10);
    pb_profile_free(s);
    s = split(which, w, 3, 2);
    char why[256] = "";
    CU_ASSERT(pb_profile_equal(f, s, why, sizeof why));
    pb_profile_free(s);
    pb_profile_free(f);
}

/* Bytes of p written as fmt (NULL: the write failed). */
static char *bytes_as(const pb_profile *p, const char *fmt, size_t *len) {
    int rc = 0;
    return tu_write_memory(p, fmt, NULL, len, &rc);
}

/* Every readable file of shared/testdata through pb_profile_save/_load:
 * equal profiles, and the same bytes in its own format and in JSON. */
static void test_profile_save_load_shared(void) {
    static const char *const dirs[] = {"testdata/llvm-real/llvm14", "testdata/llvm-real/llvm19",
                                       "testdata/llvm-real/synthetic", "testdata/iprof-real",
                                       "testdata/llvm-profparser"};
    size_t files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        const char *dir = tu_shared(dirs[d]);
        DIR *dh = opendir(dir);
        if (!dh) continue;
        struct dirent *de;
        while ((de = readdir(dh)) != NULL) {
            const char *n = de->d_name;
            size_t nl = strlen(n);
            if (n[0] == '.' || (nl > 4 && (!strcmp(n + nl - 4, ".txt") || !strcmp(n + nl - 3, ".md")))) continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, n);
            pb_profile *p = NULL, *q = NULL;
            pb_error err;
            if (pb_read_file(&p, path, NULL, &err)) continue;
            uint8_t *b = NULL;
            size_t len = 0;
            CU_ASSERT_EQUAL_FATAL(pb_profile_save(p, &b, &len, &err), 0);
            CU_ASSERT_EQUAL_FATAL(pb_profile_load(&q, b, len, path, &err), 0);
            char why[256] = "";
            int eq = pb_profile_equal(p, q, why, sizeof why);
            if (!eq) fprintf(stderr, "\n%s: %s\n", path, why);
            CU_ASSERT(eq);
            const char *fmts[] = {pb_profile_origin(p)->format, "json"};
            for (int k = 0; k < 2; k++) {
                if (!pb_format_lookup(fmts[k])) continue;
                size_t la = 0, lb = 0;
                char *a = bytes_as(p, fmts[k], &la), *c = bytes_as(q, fmts[k], &lb);
                CU_ASSERT_EQUAL(a == NULL, c == NULL);
                int same = a && c && la == lb && memcmp(a, c, la) == 0;
                if (a && c && !same) fprintf(stderr, "\n%s as %s: other bytes after save/load\n", path, fmts[k]);
                CU_ASSERT(!a || !c || same);
                free(a);
                free(c);
            }
            free(b);
            pb_profile_free(p);
            pb_profile_free(q);
            files++;
        }
        closedir(dh);
    }
    fprintf(stderr, "[%zu files] ", files);
}

static CU_TestInfo tests[] = {
    {"value_first_seen_later", test_value_first_seen_later},
    {"fresh_carried_through_combine", test_fresh_carried_through_combine},
    {"saturation", test_saturation},
    {"save_load_and_refusals", test_save_load_and_refusals},
    {"shape_conflict_limit", test_shape_conflict_limit},
    {"failed_input_and_modes", test_failed_input_and_modes},
    {"profile_save_load", test_profile_save_load},
    {"profile_save_load_shared", test_profile_save_load_shared},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_partial[] = {{"partial", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
