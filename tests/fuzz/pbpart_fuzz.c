/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * pbpart_fuzz.c -- libFuzzer target for profbridge's own serializations
 * (profbridge/partial.h): a partial merge (.pbpart) and a profile. Byte 0
 * chooses: even, the rest is a whole file as written; odd, the rest is an
 * inflated body, deflated here with a valid head, so that the fuzzer
 * reaches the field checks behind zlib. Whatever loads must save and load
 * again to the same inputs and the same profile, and finish without a
 * crash. Seeds: tests/fuzz/pbpart (files `profbridge merge --partial`
 * wrote).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "merger/partial_codec.h"
#include "profbridge/partial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_partial(const uint8_t *d, size_t n) {
    pb_partial *p = NULL, *q = NULL;
    pb_error err;
    if (pb_partial_load(&p, d, n, "fuzz", NULL, &err)) {
        if (p || !err.code) abort();
        return;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (pb_partial_save(p, &bytes, &len, &err) == 0) {
        if (pb_partial_load(&q, bytes, len, "again", NULL, &err)) abort();
        if (pb_partial_input_count(p) != pb_partial_input_count(q)) abort();
        pb_profile *a = NULL, *b = NULL;
        int ra = pb_partial_finish(p, &a, &err), rb = pb_partial_finish(q, &b, &err);
        if (ra != rb) abort();
        if (a && b && !pb_profile_equal(a, b, NULL, 0)) abort();
        pb_profile_free(a);
        pb_profile_free(b);
    }
    free(bytes);
    pb_partial_free(p);
    pb_partial_free(q);
}

static void check_profile(const uint8_t *d, size_t n) {
    pb_profile *p = NULL;
    pb_error err;
    if (pb_profile_load(&p, d, n, "fuzz", &err)) return;
    pb_profile_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    if (!(data[0] & 1)) {
        check_partial(data + 1, size - 1);
        check_profile(data + 1, size - 1);
        return 0;
    }
    pb_buf body = {(char *)(uintptr_t)(data + 1), size - 1, size - 1, 0};
    uint8_t *packed = NULL;
    size_t len = 0;
    pb_error err;
    static const char part[6] = {'P', 'B', 'P', 'A', 'R', 'T'};
    if (pbi_codec_pack(part, &body, &packed, &len, &err) == 0) check_partial(packed, len);
    free(packed);
    return 0;
}
