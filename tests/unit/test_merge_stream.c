/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_merge_stream.c -- pb_read_options.merge_into: reading an input
 * straight into a profile must give what reading it and calling
 * pb_profile_merge gives (the merge itself is checked against llvm-profdata
 * in test_model_merge.c and tests/interop/merge_stream.sh). Raw inputs
 * stream (formats/raw); text inputs take pb_read's read-then-merge fallback.
 * The read in two halves (pb_prepare_file + pb_read_prepared, what merge's
 * threads use) must give exactly what pb_read_file gives, errors included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* pb_prepare_file + pb_read_prepared with options o; *streams = what
 * pb_prepared_streams said. */
static int read_in_halves(pb_profile **out, const char *path, const pb_read_options *o, int *streams,
                          pb_error *err) {
    pb_prepared *pr = NULL;
    *out = NULL;
    int rc = pb_prepare_file(&pr, path, o, err);
    if (rc) return rc;
    *streams = pb_prepared_streams(pr);
    rc = pb_read_prepared(out, pr, o, err);
    pb_prepared_free(pr);
    return rc;
}

static pb_profile *read_one(const char *path) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pb_read_file(&p, path, NULL, &err)) {
        fprintf(stderr, "\n  %s: %s\n", path, err.message);
        return NULL;
    }
    return p;
}

/* The bytes of llvm19/many-ir.profraw, long enough to hold data[150]
 * (the record the tests break; aborts the test otherwise). */
static char *slurp_many_ir(const char *path, size_t *len) {
    char *d = tu_slurp(path, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_FATAL(*len > 0x2638);
    return d;
}

/* Same content (pb_profile_equal) and the same record and symbol order,
 * which the indexed writer's llvm order and the vtable-name list follow. */
static void assert_same(const pb_profile *a, const pb_profile *b, const char *what) {
    char why[512];
    int eq = pb_profile_equal(a, b, why, sizeof why);
    if (!eq) fprintf(stderr, "\n  %s: %s\n", what, why);
    CU_ASSERT_TRUE(eq);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(a), pb_profile_record_count(b));
    for (size_t i = 0; i < pb_profile_record_count(a); i++) {
        size_t la, lb;
        const pb_record *ra = pb_profile_record(a, i), *rb = pb_profile_record(b, i);
        const char *na = pb_profile_str(a, ra->name, &la), *nb = pb_profile_str(b, rb->name, &lb);
        CU_ASSERT_TRUE(ra->hash == rb->hash && la == lb && memcmp(na, nb, la) == 0);
    }
    CU_ASSERT_EQUAL_FATAL(pb_profile_symbol_count(a), pb_profile_symbol_count(b));
    for (uint32_t i = 0; i < pb_profile_symbol_count(a); i++)
        CU_ASSERT_EQUAL(pb_profile_symbol(a, i)->md5, pb_profile_symbol(b, i)->md5);
}

static void test_merge_into_equals_read_then_merge(void) {
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    static const char *const pairs[][2] = {
        {"llvm19/basic-ir.profraw", "llvm19/vtable-ir.profraw"},
        {"llvm19/vtable-ir.profraw", "llvm19/vtable-ir.profraw"},
        {"llvm19/many-ir.profraw", "llvm19/concat-ir.profraw"},
        {"llvm19/simple-ir.profraw", "llvm19/temporal-ir.profraw"},
        {"llvm19/cs-ir.profraw", "llvm19/cs-ir.profraw"},
        {"llvm19/mcdc-fe.profraw", "llvm19/mcdc-fe.profraw"},
        {"llvm19/simple-ir.profraw", "llvm19/basic-fe.profraw"}, /* IR + front end: a warning */
        {"llvm19/many-ir.proftext", "llvm19/many-ir.profraw"},
        {"llvm19/many-ir.profraw", "llvm19/simple-ir.proftext"}, /* text: the fallback */
        {"llvm14/basic-ir.profraw", "llvm19/basic-ir.profraw"},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        char a_rel[128], b_rel[128];
        snprintf(a_rel, sizeof a_rel, "testdata/llvm-real/%s", pairs[k][0]);
        snprintf(b_rel, sizeof b_rel, "testdata/llvm-real/%s", pairs[k][1]);
        const char *a = tu_shared(a_rel), *b = tu_shared(b_rel);
        if (!tu_exists(a) || !tu_exists(b)) continue;
        tu_diag d1, d2;
        memset(&d1, 0, sizeof d1);
        memset(&d2, 0, sizeof d2);
        pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
        mo.weight = 3;
        mo.diag = tu_diag_fn;
        mo.source = b;

        pb_profile *want = read_one(a), *src = read_one(b), *got = read_one(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        CU_ASSERT_PTR_NOT_NULL_FATAL(src);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got);
        pb_error err;
        pb_error_clear(&err);
        mo.diag_ctx = &d1;
        CU_ASSERT_EQUAL(pb_profile_merge(want, src, &mo, &err), 0);

        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.merge_into = got;
        ro.merge = &mo;
        mo.diag_ctx = &d2;
        pb_profile *out = (pb_profile *)&ro; /* must be set to NULL */
        pb_error_clear(&err);
        CU_ASSERT_EQUAL(pb_read_file(&out, b, &ro, &err), 0);
        CU_ASSERT_PTR_NULL(out);
        assert_same(want, got, pairs[k][1]);
        /* the same warnings, in the same order */
        CU_ASSERT_STRING_EQUAL(d1.all, d2.all);

        /* the same through a prepared input */
        tu_diag d3;
        memset(&d3, 0, sizeof d3);
        pb_profile *got3 = read_one(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got3);
        ro.merge_into = got3;
        mo.diag_ctx = &d3;
        int streams = -1;
        out = (pb_profile *)&ro;
        CU_ASSERT_EQUAL(read_in_halves(&out, b, &ro, &streams, &err), 0);
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_EQUAL(streams, strstr(b, ".profraw") != NULL); /* raw has two halves, text not */
        assert_same(want, got3, pairs[k][1]);
        CU_ASSERT_STRING_EQUAL(d1.all, d3.all);
        pb_profile_free(got3);
        pb_profile_free(want);
        pb_profile_free(src);
        pb_profile_free(got);
    }
}

/* A raw input that fails half-way keeps what was merged before the error:
 * the records of the first data records, nothing else of that input. */
static void test_merge_into_keeps_records_read_before_an_error(void) {
    const char *path = tu_shared("testdata/llvm-real/llvm19/many-ir.profraw");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata is absent");
    size_t len;
    char *d = slurp_many_ir(path, &len);
    /* data[150].CounterPtr (raw v10, 64-bit LE, see `profbridge dump`): far past the counters */
    memcpy(d + 0x2630, "\0\0\0\0\0\0\0\x70", 8);
    pb_profile *acc = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&acc, &err), 0);
    pb_source *src = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, d, len, "bad.profraw", &err), 0);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.merge_into = acc;
    pb_profile *out = NULL;
    CU_ASSERT_NOT_EQUAL(pb_read(&out, src, &ro, &err), 0);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.path, "data[150].CounterPtr"));
    /* data[0..149] all have counters and distinct names in many-ir */
    CU_ASSERT_EQUAL(pb_profile_record_count(acc), 150);
    CU_ASSERT_TRUE((pb_profile_flags(acc) & PB_VARIANT_IR) != 0); /* merged once a record was */
    pb_source_free(src);
    pb_profile_free(acc);
    free(d);
}

/* Without merge_into, the halves give the model pb_read_file gives. */
static void test_halves_read_what_pb_read_file_reads(void) {
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    static const char *const files[] = {
        "llvm19/basic-ir.profraw", "llvm19/vtable-ir.profraw", "llvm19/concat-ir.profraw",
        "llvm19/temporal-ir.profraw", "llvm19/mcdc-fe.profraw", "llvm14/basic-ir.profraw",
        "llvm19/many-ir.proftext", "llvm19/basic-ir.profdata"};
    size_t seen = 0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "testdata/llvm-real/%s", files[k]);
        const char *path = tu_shared(rel);
        if (!tu_exists(path)) continue;
        seen++;
        pb_profile *want = read_one(path), *got = NULL;
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        pb_error err;
        pb_error_clear(&err);
        int streams = -1;
        CU_ASSERT_EQUAL_FATAL(read_in_halves(&got, path, NULL, &streams, &err), 0);
        /* raw and indexed have two halves (indexed: the check of its records) */
        CU_ASSERT_EQUAL(streams, strstr(path, ".profraw") != NULL || strstr(path, ".profdata") != NULL);
        assert_same(want, got, files[k]);
        pb_profile_free(want);
        pb_profile_free(got);
    }
    CU_ASSERT(seen >= 6);
}

/* Errors: a corrupt input's error is the one pb_read_file gives (the first
 * half leaves format errors to the second), a prepared input is read once,
 * and a missing file fails in the first half, naming the file. */
static void test_halves_report_errors_as_pb_read_file(void) {
    const char *path = tu_shared("testdata/llvm-real/llvm19/many-ir.profraw");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata is absent");
    size_t len;
    char *d = slurp_many_ir(path, &len);
    char tmp[] = "/tmp/pb_halvesXXXXXX";
    int fd = mkstemp(tmp);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    /* (a) data[150].CounterPtr past the counters: an error in the second
     * half, after 150 records were merged; (b) NamesSize pointing past the
     * end: the first half cannot index the names and leaves it to the second */
    struct { size_t off; const char *bytes, *path; size_t records; } cases[] = {
        {0x2630, "\0\0\0\0\0\0\0\x70", "data[150].CounterPtr", 150},
        {0, NULL, "header.NamesSize", 0},
    };
    for (size_t k = 0; k < 2; k++) {
        char *c = malloc(len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        memcpy(c, d, len);
        if (cases[k].bytes) {
            memcpy(c + cases[k].off, cases[k].bytes, 8);
        } else {
            /* NamesSize: raw v10 header bytes 0x48..0x4f (see `profbridge dump`) */
            memcpy(c + 0x48, "\0\0\0\0\0\0\0\x70", 8);
        }
        FILE *f = fopen(tmp, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(fwrite(c, 1, len, f), len);
        fclose(f);
        free(c);

        pb_profile *a1 = NULL, *a2 = NULL, *out = NULL;
        pb_error e1, e2;
        pb_error_clear(&e1);
        pb_error_clear(&e2);
        CU_ASSERT_EQUAL_FATAL(pb_profile_new(&a1, &e1), 0);
        CU_ASSERT_EQUAL_FATAL(pb_profile_new(&a2, &e1), 0);
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.merge_into = a1;
        int r1 = pb_read_file(&out, tmp, &ro, &e1);
        ro.merge_into = a2;
        int streams = -1;
        int r2 = read_in_halves(&out, tmp, &ro, &streams, &e2);
        CU_ASSERT_NOT_EQUAL(r1, 0);
        CU_ASSERT_EQUAL(r1, r2);
        CU_ASSERT_EQUAL(streams, 1);
        CU_ASSERT_STRING_EQUAL(e1.message, e2.message);
        CU_ASSERT_STRING_EQUAL(e1.path, e2.path);
        CU_ASSERT_STRING_EQUAL(e1.source, e2.source);
        CU_ASSERT_EQUAL(e1.offset, e2.offset);
        CU_ASSERT_PTR_NOT_NULL(strstr(e2.path, cases[k].path));
        CU_ASSERT_EQUAL(pb_profile_record_count(a1), cases[k].records);
        CU_ASSERT_EQUAL(pb_profile_record_count(a2), cases[k].records);
        pb_profile_free(a1);
        pb_profile_free(a2);
    }
    remove(tmp);
    free(d);

    pb_prepared *pr = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_prepare_file(&pr, path, NULL, &err), 0);
    CU_ASSERT_EQUAL(pb_read_prepared(&p, pr, NULL, &err), 0);
    pb_profile_free(p);
    p = NULL;
    CU_ASSERT_EQUAL(pb_read_prepared(&p, pr, NULL, &err), PB_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    pb_prepared_free(pr);

    pr = NULL;
    pb_error_clear(&err);
    CU_ASSERT_NOT_EQUAL(pb_prepare_file(&pr, "/nonexistent/x.profraw", NULL, &err), 0);
    CU_ASSERT_PTR_NULL(pr);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.source, "/nonexistent/x.profraw"));
}

static CU_TestInfo tests[] = {
    {"halves__read_what_pb_read_file_reads", test_halves_read_what_pb_read_file_reads},
    {"halves__report_errors_as_pb_read_file", test_halves_report_errors_as_pb_read_file},
    {"merge_into__equals_read_then_pb_profile_merge", test_merge_into_equals_read_then_merge},
    {"merge_into__keeps_records_read_before_an_error", test_merge_into_keeps_records_read_before_an_error},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_merge_stream[] = {{"merge_stream", NULL, NULL, NULL, NULL, tests},
                                              CU_SUITE_INFO_NULL};
