/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_show_llvm.c -- the llvm-profdata-compatible show printer against the
 * outputs llvm-profdata-19/-14 printed for the real raw files (stored beside
 * them in ../shared/testdata/llvm-real, see its README and COMMANDS.txt),
 * each printed for the target of the release that printed it.
 *
 * The printer is the library's (src/analysis/show_llvm.c, its internal
 * header show_llvm_state.h; profbridge/show.h is the public way in).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"
#include "analysis/show_llvm_state.h"
#include "llvm/target.h"

/* The printer's output for p, as a NUL-terminated string in *got (to free). */
static int show_mem(const pb_profile *p, const pbi_show_llvm_opts *o, char **got, size_t *glen, pb_error *err) {
    pb_sink *sink = NULL;
    *got = NULL;
    *glen = 0;
    int rc = pb_sink_open_memory(&sink, err);
    if (!rc) rc = pbi_show_llvm(p, o, sink, err);
    size_t n = 0;
    const uint8_t *m = rc ? NULL : pb_sink_memory(sink, &n);
    if (!rc && (*got = malloc(n + 1)) != NULL) {
        if (n) memcpy(*got, m, n);
        (*got)[n] = 0;
        *glen = n;
    }
    pb_sink_free(sink);
    return rc;
}

static void set_flags(pbi_show_llvm_opts *o, const char *suffix, int llvm14) {
    static pbi_llvm_target t14, t19;
    (void)pbi_llvm_target_of(14, &t14);
    (void)pbi_llvm_target_of(19, &t19);
    memset(o, 0, sizeof *o);
    o->t = llvm14 ? &t14 : &t19; /* the output of llvm-profdata-14 or -19 */
    if (!strcmp(suffix, "show-counts") || !strcmp(suffix, "llvm19.show-counts") ||
        !strcmp(suffix, "llvm14.show-counts"))
        o->all_functions = o->counts = 1;
    else if (!strcmp(suffix, "show-vp"))
        o->all_functions = o->counts = o->ic_targets = o->memop_sizes = 1;
    else if (!strcmp(suffix, "show-text"))
        o->all_functions = o->text = 1;
    else if (!strcmp(suffix, "show-binary-ids"))
        o->binary_ids = 1;
    else if (!strcmp(suffix, "show-profile-version"))
        o->profile_version = 1;
    else if (!strcmp(suffix, "show-vtables"))
        o->all_functions = o->ic_targets = o->show_vtables = 1;
    else if (!strcmp(suffix, "show-detailed-summary")) {
        o->detailed_summary = 1;
        /* LLVM 14 used 7 cutoffs (spec §8.1): its target (o->t) says so */
    }
}

static int compare_one(const char *raw, const char *expected_path, const pbi_show_llvm_opts *o) {
    size_t elen;
    char *exp = tu_slurp(expected_path, &elen);
    if (!exp) return -1;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    int rc = pb_read_file(&p, raw, &ro, &err);
    char *got = NULL;
    size_t glen = 0;
    if (rc == 0) rc = show_mem(p, o, &got, &glen, &err);
    int same = rc == 0 && glen == elen && memcmp(got, exp, elen) == 0;
    if (!same) {
        char msg[1024] = "";
        if (rc) pb_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "\n  DIFF %s (%s)\n--- expected\n%s--- got\n%s\n", expected_path, msg, exp, got ? got : "");
    }
    free(got);
    free(exp);
    pb_profile_free(p);
    return same ? 1 : 0;
}

/* Every <file>.profraw.<suffix>.txt beside a raw file in `dir`. */
static void compare_dir(const char *rel, int llvm14, size_t *ok, size_t *total) {
    const char *dir = tu_shared(rel);
    DIR *d = opendir(dir);
    if (!d) return;
    char dirbuf[512];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        size_t l = strlen(n);
        if (l < 5 || strcmp(n + l - 4, ".txt")) continue;
        const char *raw_end = strstr(n, ".profraw.");
        char raw[768], exp_path[768], suffix[64];
        if (raw_end) {
            snprintf(suffix, sizeof suffix, "%.*s", (int)(l - 4 - (size_t)(raw_end + 9 - n)), raw_end + 9);
            snprintf(raw, sizeof raw, "%s/%.*s.profraw", dirbuf, (int)(raw_end - n), n);
        } else if (strncmp(n, "syn-v", 5) == 0) { /* syn-v10-32le.llvm19.show-counts.txt */
            const char *dot = strchr(n, '.');
            snprintf(suffix, sizeof suffix, "%.*s", (int)(l - 4 - (size_t)(dot + 1 - n)), dot + 1);
            snprintf(raw, sizeof raw, "%s/%.*s.profraw", dirbuf, (int)(dot - n), n);
            llvm14 = strstr(n, "llvm14") != NULL;
        } else {
            continue;
        }
        snprintf(exp_path, sizeof exp_path, "%s/%s", dirbuf, n);
        size_t elen;
        char *exp = tu_slurp(exp_path, &elen);
        int is_error = exp && strncmp(exp, "error:", 6) == 0;
        free(exp);
        if (is_error) continue; /* the other version's tool refused the file */
        pbi_show_llvm_opts o;
        set_flags(&o, suffix, llvm14);
        (*total)++;
        if (compare_one(raw, exp_path, &o) == 1) (*ok)++;
    }
    closedir(d);
}

static void show_llvm__prints_what_llvm_profdata_printed_for_every_real_raw_file(void) {
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    size_t ok = 0, total = 0;
    compare_dir("testdata/llvm-real/llvm19", 0, &ok, &total);
    compare_dir("testdata/llvm-real/llvm14", 1, &ok, &total);
    compare_dir("testdata/llvm-real/synthetic", 0, &ok, &total);
    fprintf(stderr, " [%zu of %zu outputs identical] ", ok, total);
    CU_ASSERT(total >= 100);
    CU_ASSERT_EQUAL(ok, total);
}

/* Summary arithmetic by hand: counts 10, 20 in f and 5 in g (IR), total 35. */
static void show_llvm__computes_the_detailed_summary_walk_by_hand(void) {
    pb_profile *p;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint64_t c1[] = {10, 20}, c2[] = {5}, c3[] = {UINT64_MAX, 7};
    const char *names[] = {"f", "g", "pseudo"};
    uint64_t *cs[] = {c1, c2, c3};
    uint32_t ns[] = {2, 1, 2};
    for (int i = 0; i < 3; i++) {
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = PB_REC_FUNCTION;
        r.ctx = r.layout = PB_NONE;
        CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, names[i], strlen(names[i]), &r.name, &err), 0);
        r.hash = (uint64_t)i + 1;
        r.num_counters = ns[i];
        r.counters = cs[i];
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    }
    pbi_show_llvm_opts o;
    memset(&o, 0, sizeof o);
    o.detailed_summary = 1;
    o.cutoffs = "500000,900000,1000000";
    char *got = NULL;
    size_t glen = 0;
    CU_ASSERT_EQUAL(show_mem(p, &o, &got, &glen, &err), 0);
    /* the pseudo-hot record is left out; 50% of 35 = 17 -> 20 alone (1 block);
     * 90% = 31 -> 20+10 = 30 < 31, so 5 too (3 blocks, min 5); 100% the same */
    CU_ASSERT_STRING_EQUAL(got,
                           "Instrumentation level: IR  entry_first = 0\n"
                           "Total functions: 2\n"
                           "Maximum function count: 10\n"
                           "Maximum internal block count: 20\n"
                           "Total number of blocks: 3\n"
                           "Total count: 35\n"
                           "Detailed summary:\n"
                           "1 blocks with count >= 20 account for 50 percentage of the total counts.\n"
                           "3 blocks with count >= 5 account for 90 percentage of the total counts.\n"
                           "3 blocks with count >= 5 account for 100 percentage of the total counts.\n");
    free(got);
    pb_profile_free(p);
}

/* The same hand-made profile printed as LLVM 14 and LLVM 21 print it
 * (hand-computed; llvm-profdata-14 and -21 print the same for its .proftext):
 * 14 counts the pseudo record as a function and leaves out only its 2^64-1
 * count (4 blocks, total 42); 21 leaves the record out, prints the totals
 * after the maxima, loop entries, and "N blocks (P%) ... C%". */
static void show_llvm__prints_as_the_release_of_the_target(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint64_t c1[] = {10, 20}, c2[] = {5}, c3[] = {UINT64_MAX, 7};
    const char *names[] = {"f", "g", "pseudo"};
    uint64_t *cs[] = {c1, c2, c3};
    uint32_t ns[] = {2, 1, 2};
    for (int i = 0; i < 3; i++) {
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = PB_REC_FUNCTION;
        r.ctx = r.layout = PB_NONE;
        CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, names[i], strlen(names[i]), &r.name, &err), 0);
        r.hash = (uint64_t)i + 1;
        r.num_counters = ns[i];
        r.counters = cs[i];
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    }
    static const struct {
        int release;
        const char *expected;
    } cases[] = {
        {14, "Instrumentation level: IR  entry_first = 0\n"
             "Total functions: 3\n"
             "Maximum function count: 10\n"
             "Maximum internal block count: 20\n"
             "Total number of blocks: 4\n"
             "Total count: 42\n"
             "Detailed summary:\n"
             "2 blocks with count >= 10 account for 50 percentage of the total counts.\n"
             "3 blocks with count >= 7 account for 90 percentage of the total counts.\n"
             "4 blocks with count >= 5 account for 100 percentage of the total counts.\n"},
        {21, "Instrumentation level: IR  entry_first = 0  instrument_loop_entries = 0\n"
             "Total functions: 2\n"
             "Maximum function count: 10\n"
             "Maximum internal block count: 20\n"
             "Total number of blocks: 3\n"
             "Total count: 35\n"
             "Detailed summary:\n"
             "1 blocks (33.33%) with count >= 20 account for 50% of the total counts.\n"
             "3 blocks (100.00%) with count >= 5 account for 90% of the total counts.\n"
             "3 blocks (100.00%) with count >= 5 account for 100% of the total counts.\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pbi_llvm_target t;
        CU_ASSERT_EQUAL_FATAL(pbi_llvm_target_of(cases[k].release, &t), 0);
        pbi_show_llvm_opts o;
        memset(&o, 0, sizeof o);
        o.t = &t;
        o.detailed_summary = 1;
        o.cutoffs = "500000,900000,1000000";
        char *got = NULL;
        size_t glen = 0;
        CU_ASSERT_EQUAL(show_mem(p, &o, &got, &glen, &err), 0);
        CU_ASSERT_STRING_EQUAL(got, cases[k].expected);
        free(got);
    }
    pb_profile_free(p);
}

/* --json carries the same content: valid JSON whose numbers match the text view. */
static void show_llvm__json_is_valid_and_carries_the_same_numbers(void) {
    static const char *const files[] = {"basic-ir", "basic-fe", "vtable-ir", "temporal-ir", "mcdc-fe", "concat-ir"};
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char rel[256];
        snprintf(rel, sizeof rel, "testdata/llvm-real/llvm19/%s.profraw", files[f]);
        pb_profile *p = NULL;
        pb_error err;
        pb_error_clear(&err);
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        CU_ASSERT_EQUAL_FATAL(pb_read_file(&p, tu_shared(rel), &ro, &err), 0);
        for (int variant = 0; variant < 4; variant++) {
            pbi_show_llvm_opts o;
            memset(&o, 0, sizeof o);
            o.json = 1;
            if (variant == 0) o.all_functions = o.counts = o.ic_targets = o.memop_sizes = o.show_vtables = 1;
            if (variant == 1) o.detailed_summary = o.binary_ids = o.profile_version = o.temporal_traces = 1, o.topn = 2;
            if (variant == 2) o.all_functions = o.text = 1;
            if (variant == 3) o.covered = 1;
            char *got = NULL;
            size_t glen = 0;
            CU_ASSERT_EQUAL(show_mem(p, &o, &got, &glen, &err), 0);
            json_error_t je;
            json_t *j = json_loads(got, 0, &je);
            if (!j) fprintf(stderr, "\n  %s variant %d: %s\n%s\n", files[f], variant, je.text, got);
            CU_ASSERT_PTR_NOT_NULL(j);
            if (j && variant == 0) {
                /* the text view of the same flags says "Functions shown: N" */
                CU_ASSERT_EQUAL((size_t)json_integer_value(json_object_get(j, "functions_shown")),
                                json_array_size(json_object_get(j, "functions")));
                CU_ASSERT_EQUAL((size_t)json_integer_value(json_object_get(j, "total_functions")),
                                pb_profile_record_count(p));
            }
            json_decref(j);
            free(got);
        }
        pb_profile_free(p);
    }
}

static CU_TestInfo tests[] = {
    {"show_llvm__prints_what_llvm_profdata_printed_for_every_real_raw_file",
     show_llvm__prints_what_llvm_profdata_printed_for_every_real_raw_file},
    {"show_llvm__computes_the_detailed_summary_walk_by_hand", show_llvm__computes_the_detailed_summary_walk_by_hand},
    {"show_llvm__prints_as_the_release_of_the_target", show_llvm__prints_as_the_release_of_the_target},
    {"show_llvm__json_is_valid_and_carries_the_same_numbers", show_llvm__json_is_valid_and_carries_the_same_numbers},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_show_llvm[] = {{"show_llvm", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
