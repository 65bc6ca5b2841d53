/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_merger.c -- pb_merger (profbridge/merge.h): weights, failure modes,
 * a bad input under each mode, the state after a failure, the order of the
 * failed inputs, filters, progress, and the same result for every thread
 * count. Expectations are computed by hand from the small text profiles
 * below (the merge rules themselves are checked against llvm-profdata in
 * test_model_merge.c and tests/interop/merge_*.sh).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* foo: [1, 2], bar: [5] */
static const char text_a[] = ":ir\nfoo\n10\n2\n1\n2\n\nbar\n20\n1\n5\n";
/* foo: [3, 4] */
static const char text_b[] = ":ir\nfoo\n10\n2\n3\n4\n";
/* foo with 3 counters under the same hash: a counter mismatch */
static const char text_c[] = ":ir\nfoo\n10\n3\n1\n1\n1\n";
/* foo under three hashes, one per file; and a front-end text header */
static const char text_h10[] = ":ir\nfoo\n10\n1\n1\n";
static const char text_h11[] = ":ir\nfoo\n11\n1\n2\n";
static const char text_h12[] = ":ir\nfoo\n12\n1\n3\n";
static const char text_fe[] = ":fe\nfoo\n10\n1\n1\n";

static char dir[64];

static const char *file(const char *name, const char *text) {
    static char paths[8][128];
    static int k;
    char *p = paths[k++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    if (text) {
        FILE *f = fopen(p, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    return p;
}

static int setup(void) {
    snprintf(dir, sizeof dir, "/tmp/pb_merger_XXXXXX");
    if (!mkdtemp(dir)) return -1;
    file("a.proftext", text_a);
    file("b.proftext", text_b);
    file("c.proftext", text_c);
    file("h10.proftext", text_h10);
    file("h11.proftext", text_h11);
    file("h12.proftext", text_h12);
    file("fe.proftext", text_fe);
    file("bad.proftext", "this is no profile\n");
    file("empty.profraw", "");
    return 0;
}

static int teardown(void) {
    const char *names[] = {"a.proftext",   "b.proftext",   "c.proftext", "h10.proftext", "h11.proftext",
                           "h12.proftext", "fe.proftext", "bad.proftext", "empty.profraw"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) unlink(file(names[i], NULL));
    rmdir(dir);
    return 0;
}

/* The counters of the record named `name` (exactly one expected). */
static const pb_record *record(const pb_profile *p, const char *name) {
    size_t idx[2];
    size_t n = pb_profile_lookup(p, name, strlen(name), idx, 2);
    CU_ASSERT_EQUAL(n, 1);
    return n == 1 ? pb_profile_record(p, idx[0]) : NULL;
}

typedef struct failures {
    size_t n;
    size_t input[8];
    int code[8];
} failures;

static void on_failed(void *ctx, size_t input, const char *name, const pb_error *e) {
    failures *f = ctx;
    CU_ASSERT_PTR_NOT_NULL(strstr(e->source, name));
    if (f->n < 8) f->input[f->n] = input, f->code[f->n] = e->code;
    f->n++;
}

/* Runs a merger with options o of `n` files (names in dir; weights w, NULL: 1). */
static int run_merger(pb_profile **out, const pb_merger_options *o, const char *const *names, const uint64_t *w,
                      size_t n, pb_error *err) {
    pb_merger *m = NULL;
    int rc = pb_merger_new(&m, o, err);
    for (size_t i = 0; rc == 0 && i < n; i++) rc = pb_merger_add_file(m, file(names[i], NULL), w ? w[i] : 1, err);
    if (rc == 0) rc = pb_merger_run(m, out, err);
    pb_merger_free(m);
    return rc;
}

/* Runs a merger of `n` files (names in dir, weights) with mode and threads. */
static int merge(pb_profile **out, const char *const *names, const uint64_t *w, size_t n, int mode,
                 unsigned threads, failures *f, tu_diag *d, pb_error *err) {
    pb_merger_options o = PB_MERGER_OPTIONS_INIT;
    o.failure_mode = mode;
    o.threads = threads;
    o.failed = on_failed;
    o.failed_ctx = f;
    o.diag = tu_diag_fn;
    o.diag_ctx = d;
    return run_merger(out, &o, names, w, n, err);
}

static void test_weights(void) {
    const char *names[] = {"a.proftext", "b.proftext"};
    const uint64_t w[] = {1, 3};
    for (unsigned t = 1; t <= 2; t++) {
        pb_profile *p = NULL;
        pb_error err;
        failures f = {0};
        tu_diag d = {0};
        CU_ASSERT_EQUAL_FATAL(merge(&p, names, w, 2, PB_MERGE_FAIL_ANY, t, &f, &d, &err), 0);
        const pb_record *foo = record(p, "foo"), *bar = record(p, "bar");
        CU_ASSERT_FATAL(foo && bar && foo->num_counters == 2 && bar->num_counters == 1);
        CU_ASSERT_EQUAL(foo->counters[0], 1 + 3 * 3); /* 10 */
        CU_ASSERT_EQUAL(foo->counters[1], 2 + 3 * 4); /* 14 */
        CU_ASSERT_EQUAL(bar->counters[0], 5);
        CU_ASSERT_EQUAL(f.n, 0);
        pb_profile_free(p);
    }
    /* the first input's own weight applies too (it becomes the accumulator) */
    const uint64_t w2[] = {2, 1};
    pb_profile *p = NULL;
    pb_error err;
    failures f = {0};
    tu_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(merge(&p, names, w2, 2, PB_MERGE_FAIL_ANY, 1, &f, &d, &err), 0);
    const pb_record *foo = record(p, "foo");
    CU_ASSERT_FATAL(foo != NULL);
    CU_ASSERT_EQUAL(foo->counters[0], 2 * 1 + 3);
    CU_ASSERT_EQUAL(foo->counters[1], 2 * 2 + 4);
    pb_profile_free(p);
}

/* A bad input (not a profile) between two good ones, under each mode. */
static void test_bad_input_under_each_mode(void) {
    const char *names[] = {"a.proftext", "bad.proftext", "b.proftext"};
    const uint64_t w[] = {1, 1, 1};
    pb_profile *p = NULL;
    pb_error err;
    failures f = {0};
    tu_diag d = {0};
    /* any: the merge fails, the bad input is reported, nothing is returned */
    int rc = merge(&p, names, w, 3, PB_MERGE_FAIL_ANY, 1, &f, &d, &err);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(rc, err.code);
    CU_ASSERT_STRING_EQUAL(err.path, PB_MERGER_NOTHING_MERGED);
    CU_ASSERT_STRING_EQUAL(err.message, "no profile can be merged");
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(f.n, 1);
    CU_ASSERT_EQUAL(f.input[0], 1);
    CU_ASSERT_EQUAL(f.code[0], rc);
    /* all and warn: the good inputs are merged, the bad one reported */
    int modes[] = {PB_MERGE_FAIL_ALL, PB_MERGE_FAIL_WARN};
    for (size_t k = 0; k < 2; k++) {
        memset(&f, 0, sizeof f);
        CU_ASSERT_EQUAL_FATAL(merge(&p, names, w, 3, modes[k], 2, &f, &d, &err), 0);
        CU_ASSERT_EQUAL(f.n, 1);
        CU_ASSERT_EQUAL(f.input[0], 1);
        const pb_record *foo = record(p, "foo");
        CU_ASSERT_FATAL(foo != NULL);
        CU_ASSERT_EQUAL(foo->counters[0], 4);
        CU_ASSERT_EQUAL(foo->counters[1], 6);
        pb_profile_free(p);
        p = NULL;
    }
    /* every input bad: all fails, warn gives an empty profile */
    const char *bad[] = {"bad.proftext", "bad.proftext"};
    memset(&f, 0, sizeof f);
    CU_ASSERT_NOT_EQUAL(merge(&p, bad, w, 2, PB_MERGE_FAIL_ALL, 1, &f, &d, &err), 0);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(f.n, 2);
    memset(&f, 0, sizeof f);
    CU_ASSERT_EQUAL_FATAL(merge(&p, bad, w, 2, PB_MERGE_FAIL_WARN, 1, &f, &d, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 0);
    CU_ASSERT_EQUAL(f.n, 2);
    pb_profile_free(p);
}

/* llvm-profdata's order of failure warnings with 4 threads: contexts 0, 2,
 * 1, 3 (mergeWriterContexts: ctx0 takes ctx2's, ctx1 takes ctx3's, then
 * ctx0 takes ctx1's), each in input order. Inputs 0..5 all bad: context of
 * input i is i % 4, so the order is 0, 4, 2, 1, 5, 3. A missing file fails
 * too, and an empty file is skipped with a notice. */
static void test_failure_order_and_empty_input(void) {
    const char *names[] = {"bad.proftext", "none-1", "bad.proftext", "none-3", "bad.proftext", "empty.profraw",
                           "a.proftext"};
    const uint64_t w[] = {1, 1, 1, 1, 1, 1, 1};
    pb_profile *p = NULL;
    pb_error err;
    failures f = {0};
    tu_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(merge(&p, names, w, 7, PB_MERGE_FAIL_ALL, 4, &f, &d, &err), 0);
    CU_ASSERT_EQUAL_FATAL(f.n, 5);
    size_t want[] = {0, 4, 2, 1, 3};
    for (size_t i = 0; i < 5; i++) CU_ASSERT_EQUAL(f.input[i], want[i]);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "empty input skipped"));
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    pb_profile_free(p);
}

static void test_state_and_options(void) {
    pb_merger_options o;
    memset(&o, 0x5a, sizeof o);
    CU_ASSERT_EQUAL(pb_merger_options_init(&o, 7), PB_EINVAL);
    CU_ASSERT_EQUAL(o.version, 0x5a5a5a5au); /* untouched */
    CU_ASSERT_EQUAL(pb_merger_options_init(&o, PB_MERGER_OPTIONS_VERSION), PB_OK);
    CU_ASSERT_EQUAL(o.threads, 0);
    CU_ASSERT_EQUAL(o.trace_reservoir, 100);
    pb_merger *m = NULL;
    pb_error err;
    o.version = 7;
    CU_ASSERT_EQUAL(pb_merger_new(&m, &o, &err), PB_EINVAL);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_STRING_EQUAL(err.message, "pb_merger_options: version 7 unknown (this library knows 1 to 2)");
    o.version = PB_MERGER_OPTIONS_VERSION;
    o.failure_mode = PB_MERGE_FAIL_WARN;
    o.llvm_release = 17; /* warn is 18's and later's */
    CU_ASSERT_EQUAL(pb_merger_new(&m, &o, &err), PB_EINVAL);
    o.llvm_release = 12;
    CU_ASSERT_EQUAL(pb_merger_new(&m, &o, &err), PB_EINVAL);
    o.llvm_release = 0;
    o.keep_functions = "(";
    CU_ASSERT_EQUAL(pb_merger_new(&m, &o, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, PB_MERGER_KEEP_FUNCTIONS);
    o.keep_functions = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_merger_new(&m, &o, &err), PB_OK);
    CU_ASSERT_EQUAL(err.code, 0); /* cleared on entry */
    pb_profile *p = NULL;
    CU_ASSERT_EQUAL(pb_merger_run(m, &p, &err), PB_EINVAL); /* no inputs */
    CU_ASSERT_EQUAL(pb_merger_add_file(m, file("a.proftext", NULL), 0, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_merger_input_count(m), 0);
    CU_ASSERT_EQUAL(pb_merger_add_file(m, file("a.proftext", NULL), 1, &err), PB_OK);
    CU_ASSERT_EQUAL(pb_merger_run(m, &p, &err), PB_OK);
    CU_ASSERT_PTR_NOT_NULL(p);
    pb_profile_free(p);
    p = NULL;
    /* a merger runs once; nothing can be added after */
    CU_ASSERT_EQUAL(pb_merger_run(m, &p, &err), PB_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(pb_merger_add_file(m, file("b.proftext", NULL), 1, &err), PB_EINVAL);
    pb_merger_free(m);
    pb_merger_free(NULL);
}

static void test_mismatch_filter_progress(void) {
    pb_merger_options o = PB_MERGER_OPTIONS_INIT;
    tu_diag d = {0};
    o.diag = tu_diag_fn;
    o.diag_ctx = &d;
    o.drop_functions = "^b";
    o.threads = 2;
    pb_merger *m = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_merger_new(&m, &o, &err), 0);
    CU_ASSERT_EQUAL(pb_merger_add_file(m, file("a.proftext", NULL), 1, &err), 0);
    CU_ASSERT_EQUAL(pb_merger_add_file(m, file("c.proftext", NULL), 1, &err), 0);
    pb_profile *p = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_merger_run(m, &p, &err), 0);
    /* foo of c.proftext has 3 counters: skipped with a warning naming c */
    const pb_record *foo = record(p, "foo");
    CU_ASSERT_FATAL(foo != NULL);
    CU_ASSERT_EQUAL(foo->counters[0], 1);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 1); /* bar filtered out */
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "c.proftext"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "1 of 2 functions in the original profile are filtered."));
    pb_profile_free(p);
    pb_merger_free(m);
}

static void count_progress(void *ctx, size_t done, size_t total) {
    size_t *c = ctx;
    CU_ASSERT_EQUAL(done, c[0] + 1);
    CU_ASSERT_EQUAL(total, 3);
    c[0]++;
}

/* Real raw profiles of clang 19, weighted: every thread count gives the
 * same profile (content and order) and the same indexed bytes. */
/* A layout-1 caller's struct ends before writer_contexts: init writes no
 * byte past it, and a merger made from it never reads past it. */
static void test_options_layout_1(void) {
    unsigned char raw[sizeof(pb_merger_options) + 8];
    memset(raw, 0x5a, sizeof raw);
    pb_merger_options *o = (pb_merger_options *)(void *)raw;
    CU_ASSERT_EQUAL_FATAL(pb_merger_options_init(o, 1), PB_OK);
    CU_ASSERT_EQUAL(o->version, 1);
    size_t end = offsetof(pb_merger_options, writer_contexts);
    for (size_t i = end; i < sizeof raw; i++) CU_ASSERT_EQUAL(raw[i], 0x5a);
    pb_merger *m = NULL;
    pb_error err;
    CU_ASSERT_EQUAL(pb_merger_new(&m, o, &err), PB_OK); /* 0x5a5a5a5a there is not read */
    pb_merger_free(m);
}

/* Runs foo's three files (and more) with writer contexts on `threads`. */
static int merge_ctx(pb_profile **out, const char *const *names, size_t n, unsigned threads, int contexts,
                     int release, tu_diag *d, pb_error *err) {
    pb_merger_options o = PB_MERGER_OPTIONS_INIT;
    o.threads = threads;
    o.writer_contexts = contexts;
    o.llvm_release = release;
    o.diag = tu_diag_fn;
    o.diag_ctx = d;
    return run_merger(out, &o, names, NULL, n, err);
}

/* The hashes of foo's records in the profile's order, as digits ("10 12 11"). */
static void foo_hashes(const pb_profile *p, char *buf, size_t n) {
    size_t idx[4], k = pb_profile_lookup(p, "foo", 3, idx, 4), used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < k && i < 4; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%llu", i ? " " : "",
                                 (unsigned long long)pb_profile_record(p, idx[i])->hash);
}

/*
 * writer_contexts: llvm-profdata's per-thread writers, hand-computed from
 * its mergeInstrProfile: input i into context i % T, then context I takes
 * I + T/2 (the odd last one into 0), again over the first half. The first
 * insertion of each hash fixes its place among foo's records.
 */
static void test_writer_contexts(void) {
    const char *names[] = {"h10.proftext", "h11.proftext", "h12.proftext"};
    struct {
        unsigned threads;
        int contexts;
        const char *order;
    } cases[] = {
        {2, 0, "10 11 12"}, /* input order, whatever the threads */
        {2, 1, "10 12 11"}, /* {h10, h12} then {h11} */
        {3, 1, "10 11 12"}, /* 1 into 0, then the odd last (2) into 0 */
        {4, 1, "10 12 11"}, /* 2 into 0, 3 (empty) into 1, then 1 into 0 */
        {1, 1, "10 11 12"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        pb_profile *p = NULL;
        pb_error err;
        tu_diag d = {0};
        CU_ASSERT_EQUAL_FATAL(merge_ctx(&p, names, 3, cases[c].threads, cases[c].contexts, 19, &d, &err), 0);
        char got[64];
        foo_hashes(p, got, sizeof got);
        CU_ASSERT_STRING_EQUAL(got, cases[c].order);
        pb_profile_free(p);
    }

    /* a mismatch between two contexts: one warning without a file or a
     * function (llvm-profdata's "warning: WHAT"); in one context it names both */
    const char *mis[] = {"a.proftext", "c.proftext"};
    for (unsigned t = 1; t <= 2; t++) {
        pb_profile *p = NULL;
        pb_error err;
        tu_diag d = {0};
        CU_ASSERT_EQUAL_FATAL(merge_ctx(&p, mis, 2, t, 1, 19, &d, &err), 0);
        CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.last, "function basic block count change detected (counter mismatch)"));
        if (t == 1) CU_ASSERT_PTR_NOT_NULL(strstr(d.last, "c.proftext"));
        if (t == 2) CU_ASSERT_PTR_NULL(strstr(d.last, "foo"));
        if (t == 2) CU_ASSERT_PTR_NULL(strstr(d.last, "proftext"));
        pb_profile_free(p);
    }

    /* a front-end text alone on two threads: the empty second writer's kind
     * conflicts with it from LLVM 16 on (fatal, in the conflict's own words
     * per release); 15 keeps context 0's kind */
    const char *fe[] = {"fe.proftext"};
    struct {
        int release;
        const char *words;
    } kinds[] = {{19, "unsupported instrumentation profile format version"},
                 {24, "unsupported instrumentation profile format version: cannot merge IR generated profile "
                      "with Clang generated profile"},
                 {15, NULL}};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        pb_profile *p = NULL;
        pb_error err;
        tu_diag d = {0};
        int rc = merge_ctx(&p, fe, 1, 2, 1, kinds[k].release, &d, &err);
        if (kinds[k].words) {
            CU_ASSERT_EQUAL(rc, PB_EFORMAT);
            CU_ASSERT_PTR_NULL(p);
            CU_ASSERT_STRING_EQUAL(err.path, PB_MERGER_CONTEXT_KINDS);
            CU_ASSERT_STRING_EQUAL(err.message, kinds[k].words);
        } else {
            CU_ASSERT_EQUAL_FATAL(rc, 0);
            CU_ASSERT(pb_profile_flags(p) & PB_KIND_FRONTEND);
        }
        pb_profile_free(p);
        /* one thread: no second writer, no conflict */
        CU_ASSERT_EQUAL(merge_ctx(&p, fe, 1, 1, 1, kinds[k].release, &d, &err), 0);
        pb_profile_free(p);
    }
}

static void test_threads_give_the_same_profile(void) {
    const char *raw[] = {"testdata/llvm-real/llvm19/many-ir.profraw", "testdata/llvm-real/llvm19/basic-ir.profraw",
                         "testdata/llvm-real/llvm19/many-ir.profraw"};
    TU_SKIP_IF(!tu_exists(tu_shared(raw[0])), "no shared test data");
    char *first = NULL;
    size_t first_len = 0;
    unsigned threads[] = {1, 2, 3, 4, 0};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        pb_merger_options o = PB_MERGER_OPTIONS_INIT;
        size_t calls = 0;
        o.threads = threads[t];
        o.progress = count_progress;
        o.progress_ctx = &calls;
        pb_merger *m = NULL;
        pb_error err;
        CU_ASSERT_EQUAL_FATAL(pb_merger_new(&m, &o, &err), 0);
        for (size_t i = 0; i < 3; i++) CU_ASSERT_EQUAL(pb_merger_add_file(m, tu_shared(raw[i]), i + 1, &err), 0);
        pb_profile *p = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_merger_run(m, &p, &err), 0);
        CU_ASSERT_EQUAL(calls, 3);
        pb_merger_free(m);
        pb_write_options wo = PB_WRITE_OPTIONS_INIT;
        pb_kv kv[] = {{"order", "llvm"}};
        wo.kv = kv;
        wo.nkv = 1;
        size_t len = 0;
        int wrc = 0;
        char *bytes = tu_write_memory(p, "indexed", &wo, &len, &wrc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
        if (!first) {
            first = bytes;
            first_len = len;
        } else {
            CU_ASSERT_EQUAL(len, first_len);
            CU_ASSERT(len == first_len && memcmp(bytes, first, len) == 0);
            free(bytes);
        }
        pb_profile_free(p);
    }
    free(first);
}

static CU_TestInfo tests[] = {
    {"weights", test_weights},
    {"bad_input_under_each_mode", test_bad_input_under_each_mode},
    {"failure_order_and_empty_input", test_failure_order_and_empty_input},
    {"state_and_options", test_state_and_options},
    {"mismatch_filter_progress", test_mismatch_filter_progress},
    {"threads_give_the_same_profile", test_threads_give_the_same_profile},
    {"options_layout_1", test_options_layout_1},
    {"writer_contexts", test_writer_contexts},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_merger[] = {{"merger", setup, teardown, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
