/* raw_fuzz.c -- libFuzzer target: any bytes through the raw reader (and back). */
#include <stddef.h>
#include <stdint.h>

#include "profbridge/profbridge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    if (pb_source_open_memory(&src, data, size, "<fuzz>", &err) == 0 &&
        pb_read(&p, src, &ro, &err) == 0) {
        size_t n = pb_profile_record_count(p);
        for (size_t i = 0; i < n; i++) (void)pb_profile_record(p, i);
    }
    pb_profile_free(p);
    pb_source_free(src);
    return 0;
}
