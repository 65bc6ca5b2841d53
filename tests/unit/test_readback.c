/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_readback.c -- every write is read back (issue 12, item 5): for the
 * models the readers make of the fuzz corpora (tests/fuzz/<name>/) and of
 * real files (../shared/testdata, a bounded number), and for models holding
 * names no LLVM format can carry, each writer either refuses with a message
 * or writes what its reader reads back to a stable model
 * (tests/fuzz/readback.h has the property).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/readback.h"
#include "testutil.h"

/* Checks every readable file of `dir` (at most `max`, below 4 MB each). */
static void check_dir(const char *dir, size_t max, size_t *files, size_t *broken) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    size_t seen = 0;
    while ((e = readdir(d)) != NULL && seen < max) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".txt")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *data = tu_slurp(path, &len);
        if (!data) continue;
        if (len < ((size_t)4 << 20)) {
            seen++;
            (*files)++;
            for (size_t i = 0; i < sizeof pbt_writers / sizeof *pbt_writers; i++) {
                char why[1024] = "";
                pb_source *src = NULL;
                pb_profile *p = NULL;
                pb_error err;
                pb_error_clear(&err);
                pb_read_options ro = PB_READ_OPTIONS_INIT;
                if (pb_source_open_memory(&src, data, len, path, &err) == 0 && pb_read(&p, src, &ro, &err) == 0 &&
                    pbt_readback(p, pbt_writers[i], why, sizeof why)) {
                    fprintf(stderr, "\n  %s: %s", path, why);
                    (*broken)++;
                }
                pb_profile_free(p);
                pb_source_free(src);
            }
        }
        free(data);
    }
    closedir(d);
}

static void readback__fuzz_corpora_and_real_files(void) {
    static const char *const corpora[] = {"tests/fuzz/raw", "tests/fuzz/indexed", "tests/fuzz/text", "tests/fuzz/iprof"};
    static const char *const real[] = {"testdata/llvm-real/llvm19", "testdata/llvm-real/llvm14", "testdata/iprof-real"};
    size_t files = 0, broken = 0;
    for (size_t i = 0; i < sizeof corpora / sizeof *corpora; i++) check_dir(tu_src(corpora[i]), 60, &files, &broken);
    for (size_t i = 0; i < sizeof real / sizeof *real; i++) check_dir(tu_shared(real[i]), 40, &files, &broken);
    CU_ASSERT(files > 0);
    CU_ASSERT_EQUAL(broken, 0);
}

/* A one-record model named name[0..len). */
static pb_profile *named(const char *name, size_t len, uint64_t flags) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, flags);
    uint64_t c[2] = {5, 7};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    r.hash = 0x1234;
    r.num_counters = 2;
    r.counters = c;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, name, len, &r.name, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    return p;
}

/* Names holding NUL, the names separator \x01, a line break, a leading '#':
 * once written into a .profraw whose NameRef did not match, a .proftext
 * that was no longer detected, a .json our reader refused. */
static void readback__names_no_format_can_carry(void) {
    static const struct {
        const char *s;
        size_t n;
    } names[] = {{"ma\0n", 4}, {"ma\x01n", 4}, {"ma\nn", 4}, {"ma\rn", 4}, {"#main", 5}, {"\x7f\x02\x1b", 3}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        for (int ir = 0; ir < 2; ir++) {
            pb_profile *p = named(names[k].s, names[k].n, ir ? PB_VARIANT_IR : 0);
            for (size_t i = 0; i < sizeof pbt_writers / sizeof *pbt_writers; i++) {
                char why[1024] = "";
                int rc = pbt_readback(p, pbt_writers[i], why, sizeof why);
                if (rc) fprintf(stderr, "\n  name %zu: %s", k, why);
                CU_ASSERT_EQUAL(rc, 0);
            }
            pb_profile_free(p);
        }
    }
}

/* A flags word with low bits (the JSON view once accepted them): the raw
 * writer wrote a header claiming version 11 with a v10 layout. */
static void readback__flags_with_version_bits(void) {
    pb_profile *p = named("main", 4, PB_VARIANT_IR | 0xb);
    for (size_t i = 0; i < sizeof pbt_writers / sizeof *pbt_writers; i++) {
        char why[1024] = "";
        int rc = pbt_readback(p, pbt_writers[i], why, sizeof why);
        if (rc) fprintf(stderr, "\n  %s", why);
        CU_ASSERT_EQUAL(rc, 0);
    }
    pb_profile_free(p);
    /* and the JSON view refuses such a word */
    const char *doc = "{\"profbridge\":\"model\",\"formatVersion\":1,\"flags\":{\"word\":\"0x010000000000000b\"},"
                      "\"origin\":{\"format\":\"x\",\"version\":0,\"pointerWidth\":0,\"byteOrder\":\"unknown\"},"
                      "\"properties\":[],\"binaryIds\":[],\"temporal\":{\"streamSize\":0,\"traces\":[]},"
                      "\"symbols\":[],\"methods\":[],\"records\":[]}";
    pb_source *src = NULL;
    pb_profile *q = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "json";
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, doc, strlen(doc), "t.json", &err), 0);
    CU_ASSERT_NOT_EQUAL(pb_read(&q, src, &ro, &err), 0);
    CU_ASSERT_STRING_EQUAL(err.path, "flags.word");
    pb_profile_free(q);
    pb_source_free(src);
}

static CU_TestInfo tests[] = {
    {"readback__fuzz_corpora_and_real_files", readback__fuzz_corpora_and_real_files},
    {"readback__names_no_format_can_carry", readback__names_no_format_can_carry},
    {"readback__flags_with_version_bits", readback__flags_with_version_bits},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_readback[] = {{"readback", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
