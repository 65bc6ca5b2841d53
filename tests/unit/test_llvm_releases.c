/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_llvm_releases.c -- the writers follow the release of pb_write_options.llvm_release
 * (src/llvm/target.h). Expected bytes are those the real llvm-profdata-N
 * merge (--text) printed for the same input (run 2026-11-25 with Debian's
 * llvm-17, -18, -21, -22 and -24, pasted here); the indexed versions are
 * those of docs/llvm-releases.md, read from each release's own output.
 */
#include <stdlib.h>
#include <string.h>

#include "profbridge/profbridge.h"
#include "testutil.h"

static pb_profile *from_text(const char *text) {
    pb_source *s = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "text";
    if (pb_source_open_memory(&s, text, strlen(text), "mem", &err) == 0 && pb_read(&p, s, &ro, &err) != 0)
        p = NULL;
    pb_source_free(s);
    return p;
}

/* Writes p with format fmt for release llvm (llvm_release); returns the bytes
 * (NUL-terminated, *len without it), or NULL with *rc the error. */
static char *write_as(const pb_profile *p, const char *fmt, const char *llvm, size_t *len, int *rc,
                      tu_diag *d) {
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.llvm_release = atoi(llvm);
    if (d) {
        wo.diag = tu_diag_fn;
        wo.diag_ctx = d;
    }
    return tu_write_memory(p, fmt, &wo, len, rc);
}

static const char loop_entries_in[] = ":ir\n:instrument_loop_entries\nf\n1\n2\n5\n6\n\n";

static void llvm_releases__text_loop_entries_line_from_20(void) {
    pb_profile *p = from_text(loop_entries_in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    static const char want22[] = "# IR level Instrumentation Flag\n:ir\n"
                                 "# Always instrument the loop entry blocks\n:instrument_loop_entries\n"
                                 "f\n# Func Hash:\n1\n# Num Counters:\n2\n# Counter Values:\n5\n6\n\n";
    /* llvm-profdata-24: the same plus the bitmap count of a record without bitmap */
    static const char want24[] = "# IR level Instrumentation Flag\n:ir\n"
                                 "# Always instrument the loop entry blocks\n:instrument_loop_entries\n"
                                 "f\n# Func Hash:\n1\n# Num Counters:\n2\n# Counter Values:\n5\n6\n"
                                 "# Num Bitmap Bytes:\n$0\n\n";
    size_t len;
    int rc;
    for (int r = 20; r <= 23; r++) {
        char rel[4];
        snprintf(rel, sizeof rel, "%d", r);
        char *out = write_as(p, "text", rel, &len, &rc, NULL);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT(out && strcmp(out, want22) == 0);
        free(out);
    }
    char *out = write_as(p, "text", "24", &len, &rc, NULL);
    CU_ASSERT(out && strcmp(out, want24) == 0);
    free(out);
    /* 19 has no line for it: left out with a notice naming the release */
    tu_diag d;
    memset(&d, 0, sizeof d);
    out = write_as(p, "text", "19", &len, &rc, &d);
    CU_ASSERT(out && !strstr(out, "loop"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "LLVM 19"));
    free(out);
    pb_profile_free(p);
}

static void llvm_releases__text_byte_coverage_and_bitmaps_from_18(void) {
    pb_profile *p = from_text(":ir\n:single_byte_coverage\ng\n3\n1\n1\n$2\n0x13\n0x0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    static const char want18[] = "# IR level Instrumentation Flag\n:ir\n# Instrument block coverage\n"
                                 ":single_byte_coverage\ng\n# Func Hash:\n3\n# Num Counters:\n1\n"
                                 "# Counter Values:\n1\n# Num Bitmap Bytes:\n$2\n# Bitmap Byte Values:\n"
                                 "0x13\n0x0\n\n\n";
    size_t len;
    int rc;
    char *out = write_as(p, "text", "18", &len, &rc, NULL);
    CU_ASSERT(out && strcmp(out, want18) == 0);
    free(out);
    /* llvm-profdata-17 rejects both ("file header is corrupt"): left out */
    tu_diag d;
    memset(&d, 0, sizeof d);
    out = write_as(p, "text", "17", &len, &rc, &d);
    CU_ASSERT(out && !strstr(out, "single_byte") && !strstr(out, "Bitmap"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "LLVM 17"));
    free(out);
    pb_profile_free(p);
}

static void llvm_releases__indexed_version_per_release(void) {
    static const unsigned want[] = {7, 7, 8, 9, 10, 11, 12, 12, 12, 13, 14, 14}; /* 13..24 */
    pb_profile *p = from_text(loop_entries_in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int r = 13; r <= 24; r++) {
        char rel[4];
        snprintf(rel, sizeof rel, "%d", r);
        size_t len = 0;
        int rc;
        char *out = write_as(p, "indexed", rel, &len, &rc, NULL);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_FATAL(out && len > 16);
        CU_ASSERT_EQUAL((unsigned char)out[8], want[r - 13]);
        /* bit 55 (loop entries): written from LLVM 20 on (19 drops it) */
        CU_ASSERT_EQUAL(((unsigned char)out[14] & 0x80) != 0, r >= 20);
        free(out);
    }
    pb_profile_free(p);
}

/* (a release in text -- "19x", "" -- is the access layer's to parse: test_access.c) */
static void llvm_releases__bad_release_is_refused(void) {
    pb_profile *p = from_text(loop_entries_in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    static const char *const bad[] = {"12", "25", "-1", "1000", NULL};
    for (int i = 0; bad[i]; i++) {
        size_t len;
        int rc;
        char *out = write_as(p, "indexed", bad[i], &len, &rc, NULL);
        CU_ASSERT_EQUAL(rc, PB_EINVAL);
        free(out);
        out = write_as(p, "text", bad[i], &len, &rc, NULL);
        CU_ASSERT_EQUAL(rc, PB_EINVAL);
        free(out);
    }
    /* layout 1 has no llvm_release: whatever lies there is not read */
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.version = 1;
    wo.llvm_release = 12;
    size_t len;
    int rc;
    char *out = tu_write_memory(p, "indexed", &wo, &len, &rc);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    pb_profile_free(p);
}

/* The public questions (profbridge/release.h) answer from the table; the
 * figures are the rows verified against the real tools (target.h). */
static void llvm_releases__public_questions(void) {
    CU_ASSERT_EQUAL(pb_release_min(), 13);
    CU_ASSERT_EQUAL(pb_release_max(), 24);
    CU_ASSERT_EQUAL(pb_release_default(), 19);
    CU_ASSERT(pb_release_known(13) && pb_release_known(24) && !pb_release_known(12) && !pb_release_known(25));
    CU_ASSERT_EQUAL(pb_release_raw_version(19), 10);
    CU_ASSERT_EQUAL(pb_release_indexed_version(19), 12);
    CU_ASSERT_EQUAL(pb_release_indexed_version(13), 7);
    CU_ASSERT_EQUAL(pb_release_raw_version(12), 0);
    CU_ASSERT_EQUAL(pb_release_first_reading_indexed(12), 19);
    CU_ASSERT_EQUAL(pb_release_first_reading_indexed(8), 15);
    CU_ASSERT_EQUAL(pb_release_first_reading_indexed(99), 0);
    CU_ASSERT(pb_release_has(17, "ORDER") && !pb_release_has(16, "ORDER"));
    CU_ASSERT(pb_release_has(17, "ARGS_PER_SUBCOMMAND") && !pb_release_has(18, "ARGS_PER_SUBCOMMAND"));
    CU_ASSERT(pb_release_has(18, "cov.READS_COVMAP_V7") && !pb_release_has(17, "cov.READS_COVMAP_V7"));
    CU_ASSERT(!pb_release_has(19, "NO_SUCH_RULE") && !pb_release_has(19, "cov.ORDER") && !pb_release_has(19, NULL));
    CU_ASSERT(!pb_release_has(12, "ORDER"));
    pb_error err;
    int r = 0;
    CU_ASSERT_EQUAL(pb_release_parse("21", "--llvm-version", &r, &err), 0);
    CU_ASSERT_EQUAL(r, 21);
    static const char *const bad[] = {"12", "25", "-1", "19x", "", " 19", NULL};
    for (int i = 0; bad[i]; i++) {
        r = 7;
        CU_ASSERT_EQUAL(pb_release_parse(bad[i], "--llvm-version", &r, &err), PB_EINVAL);
        CU_ASSERT_EQUAL(r, 7);
        CU_ASSERT_STRING_EQUAL(pb_error_path(&err), "--llvm-version");
    }
    CU_ASSERT_EQUAL(pb_release_parse(NULL, "x", &r, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_release_parse("19", "x", NULL, &err), PB_EINVAL);
}

static CU_TestInfo llvm_releases_tests[] = {
    {"llvm_releases__text_loop_entries_line_from_20", llvm_releases__text_loop_entries_line_from_20},
    {"llvm_releases__text_byte_coverage_and_bitmaps_from_18", llvm_releases__text_byte_coverage_and_bitmaps_from_18},
    {"llvm_releases__indexed_version_per_release", llvm_releases__indexed_version_per_release},
    {"llvm_releases__bad_release_is_refused", llvm_releases__bad_release_is_refused},
    {"llvm_releases__public_questions", llvm_releases__public_questions},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_llvm_releases[] = {
    {"llvm_releases", NULL, NULL, NULL, NULL, llvm_releases_tests}, CU_SUITE_INFO_NULL};
