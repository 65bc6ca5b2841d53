/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_raw_dump.c -- `dump` of raw profiles: the arithmetic it writes out, JSON, broken files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testutil.h"

static int dump(const void *data, size_t len, int json, char **out, pb_error *err) {
    pb_source *in = NULL;
    pb_sink *s = NULL;
    pb_dump_options o = PB_DUMP_OPTIONS_INIT;
    o.json = json;
    pb_error_clear(err);
    int rc = pb_source_open_memory(&in, data, len, "d.profraw", err);
    if (rc == 0) rc = pb_sink_open_memory(&s, err);
    if (rc == 0) rc = pb_format_lookup("raw")->dump(in, s, &o, err);
    size_t n = 0;
    const uint8_t *m = s ? pb_sink_memory(s, &n) : NULL;
    *out = calloc(1, n + 1);
    if (m && n) memcpy(*out, m, n);
    pb_sink_free(s);
    pb_source_free(in);
    return rc;
}

static void raw_dump__writes_out_the_counter_pointer_arithmetic_of_the_spec_example(void) {
    const char *path = tu_shared("testdata/llvm-real/llvm19/simple-ir.profraw");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata is absent");
    size_t len;
    char *d = tu_slurp(path, &len), *out;
    pb_error err;
    CU_ASSERT_EQUAL(dump(d, len, 0, &out, &err), 0);
    /* spec §2.15: bar's CounterPtr -88 against delta -40 - 64 = -104 -> offset 16 -> counters 20, 1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "data[1].CounterPtr         0xffffffffffffffa8: offset = CounterPtr - "
                                       "(CountersDelta - 1 x 64) = -88 - (-104) = 16 -> byte 0x170: [20, 1]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0x000050  d8 ff ff ff ff ff ff ff  CountersDelta              0xffffffffffffffd8 (-40)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "names[2]                   main (NameRef 0xdb956436e78dd5fa)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "binary_ids[0]              length 20: 8cde6c5d3f67427e5a41b3d2edb2cb459a02ebf3"));
    CU_ASSERT_PTR_NULL(strstr(out, "problem:"));
    /* the versions each field exists in (spec §2.4/§2.5: binary ids from v7,
     * bitmaps from v9, vtables from v10, the rest since v5) */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "bytes of binary ids right after the header  [v7+]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "BitmapBegin - DataBegin (runtime)  [v9+]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "number of vtable records  [v10+]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "= foo  [v5+]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "data[0].NumValueSites2     0 (0x0)  value sites of kind 2 (vtable)  [v10+]\n"));
    free(out);
    CU_ASSERT_EQUAL(dump(d, len, 1, &out, &err), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(json_is_null(json_object_get(j, "problem")));
    CU_ASSERT(json_array_size(json_object_get(j, "sections")) >= 7);
    /* sections[1] is the header: NumBitmapBytes (index 7) exists since v9, still */
    json_t *hdr = json_array_get(json_object_get(json_array_get(json_object_get(j, "sections"), 1), "items"), 7);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(hdr, "field")), "NumBitmapBytes");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(hdr, "since")), 9);
    CU_ASSERT(json_is_null(json_object_get(hdr, "until")));
    json_decref(j);
    free(out);
    free(d);
}

static void raw_dump__prints_up_to_the_first_problem_then_the_problem(void) {
    const char *path = tu_shared("testdata/llvm-real/llvm19/simple-ir.profraw");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata is absent");
    size_t len;
    char *d = tu_slurp(path, &len), *out;
    pb_error err;
    /* 300 bytes: the data records (0xa0 + 3 x 64) end past the end */
    CU_ASSERT_EQUAL(dump(d, 300, 0, &out, &err), PB_ETRUNC);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "BinaryIdsSize"));
    CU_ASSERT_PTR_NULL(strstr(out, "data[0].NameRef"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nproblem: d.profraw: byte 0x18 (header.NumData): the data records (0xc0 "
                                       "bytes from byte 0xa0) run past the end of the file (0x12c bytes)\n"));
    free(out);
    /* every prefix: never a crash, always either a dump or a problem */
    for (size_t n = 0; n < len; n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, d, n);
        (void)dump(copy, n, (int)(n & 1), &out, &err);
        free(out);
        free(copy);
    }
    free(d);
}

/* The committed fuzz corpus through dump, text and JSON: never a crash
 * (fz-4a74b49d14c27bf17e5b15db86f083fb422abfa9: a v7 file whose sections lie past the end made dump form
 * a pointer far past the buffer, found by fuzz_raw under clang's UBSan). */
static void raw_dump__replays_the_fuzz_corpus(void) {
    DIR *dir = opendir(tu_src("tests/fuzz/raw"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        char rel[512];
        snprintf(rel, sizeof rel, "tests/fuzz/raw/%s", e->d_name);
        size_t len;
        char *d = tu_slurp(tu_src(rel), &len), *out;
        if (!d) continue;
        files++;
        pb_error err;
        for (int json = 0; json < 2; json++) {
            (void)dump(d, len, json, &out, &err);
            free(out);
        }
        free(d);
    }
    closedir(dir);
    CU_ASSERT(files > 0);
}

static CU_TestInfo tests[] = {
    {"raw_dump__writes_out_the_counter_pointer_arithmetic_of_the_spec_example",
     raw_dump__writes_out_the_counter_pointer_arithmetic_of_the_spec_example},
    {"raw_dump__prints_up_to_the_first_problem_then_the_problem", raw_dump__prints_up_to_the_first_problem_then_the_problem},
    {"raw_dump__replays_the_fuzz_corpus", raw_dump__replays_the_fuzz_corpus},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_raw_dump[] = {{"raw_dump", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
