/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* text_fuzz.c -- libFuzzer target: the text reader, then the text, indexed
 * and iprof writers on whatever it accepts, must never crash, leak or hang
 * (iprof: the bridge parses Java record names, jname.c and its frame cache). */
#include <stddef.h>
#include <stdint.h>

#include "profbridge/profbridge.h"
#include "llvm_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pb_error err;
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "text";
    if (pb_source_open_memory(&src, data, size, "fuzz", &err) == 0 && pb_read(&p, src, &ro, &err) == 0) {
        const char *fmts[] = {"text", "indexed", "iprof"};
        for (int i = 0; i < 3; i++) {
            pb_sink *sink = NULL;
            pb_error_clear(&err);
            if (pb_sink_open_memory(&sink, &err) == 0) {
                pb_write_options wo = PB_WRITE_OPTIONS_INIT;
                (void)pb_write(p, sink, pb_format_lookup(fmts[i]), &wo, &err);
            }
            pb_sink_free(sink);
        }
    }
    pbt_llvm_words("text", data, size, &err);
    pb_profile_free(p);
    pb_source_free(src);
    return 0;
}
