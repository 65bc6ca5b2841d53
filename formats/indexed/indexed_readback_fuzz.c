/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_readback_fuzz.c -- libFuzzer target: any bytes through every reader
 * (detected); a model that reads goes through the indexed writer, which must
 * refuse with a message or write what the indexed reader reads back, stable on a
 * second trip (tests/fuzz/readback.h; issue 12, item 5). Seeds: every
 * folder of tests/fuzz/ (scripts/fuzz-run.sh).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/fuzz/readback.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    if (pb_source_open_memory(&src, data, size, "<fuzz>", &err) == 0 && pb_read(&p, src, &ro, &err) == 0) {
        char why[1024];
        if (pbt_readback(p, "indexed", why, sizeof why)) {
            fprintf(stderr, "%s\n", why);
            abort();
        }
    }
    pb_profile_free(p);
    pb_source_free(src);
    return 0;
}
