/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* indexed_fuzz.c -- libFuzzer target: the indexed reader, the by-name lookup,
 * the record stream (show) and the dump (text and JSON) must never crash,
 * leak or hang on any input; what reads, merged into a profile with records
 * (pb_read_options.merge_into: straight from the bytes, merge_direct of
 * indexed_read.c), must give what merging its model gives; written as
 * iprof, a model given up (pb_write_file_take) gives what a kept one gives. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profbridge/indexed.h"
#include "profbridge/profbridge.h"
#include "profbridge/sys/format.h" /* the plugin's own slots (read, probe, dump, read_prepared) */
#include "llvm_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touches every byte handed out, so that ASan sees reads outside the input. */
static int touch(void *ctx, const char *name, size_t len, const pb_record *r, pb_error *err) {
    (void)err;
    uint64_t *sum = ctx;
    for (size_t i = 0; i < len; i++) *sum += (unsigned char)name[i];
    for (uint32_t i = 0; i < r->num_counters; i++) *sum += r->counters[i];
    for (uint32_t i = 0; i < r->num_bitmap_bytes; i++) *sum += r->bitmap[i];
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t s = 0; s < r->num_sites[k]; s++)
            for (uint32_t v = 0; v < r->sites[k][s].num_values; v++) *sum += r->sites[k][s].values[v].count;
    return 0;
}

/* The input merged into a read of itself: straight from the bytes
 * (merge_into) and through the model (pb_profile_merge) give one profile. */
static void merge_direct_vs_model(const uint8_t *data, size_t size, const pb_profile *whole) {
    if (pb_profile_record_count(whole) == 0) return; /* an empty destination takes the model path */
    pb_profile *direct = NULL, *by_model = NULL, *none = NULL;
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "indexed";
    for (int k = 0; k < 2; k++) {
        pb_profile **dst = k ? &by_model : &direct;
        if (pb_source_open_memory(&src, data, size, "fuzz", &err) || pb_read(dst, src, &ro, &err)) abort();
        pb_source_free(src);
        src = NULL;
    }
    ro.merge_into = direct;
    int rc = -1, mrc = pb_profile_merge(by_model, whole, NULL, &err);
    if (pb_source_open_memory(&src, data, size, "fuzz", &err) == 0) rc = pb_read(&none, src, &ro, &err);
    if (none || rc != mrc || (rc == 0 && !pb_profile_equal(direct, by_model, NULL, 0))) abort();
    pb_source_free(src);
    pb_profile_free(direct);
    pb_profile_free(by_model);
}

/* The same bytes, or the same failure, from a model written as iprof and
 * kept (pb_write_file) and a second read of it given up (pb_write_file_take:
 * freed once the iprof view is built). */
static void take_vs_keep(const uint8_t *data, size_t size, const pb_profile *kept) {
    pb_profile *given = NULL;
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "indexed";
    if (pb_source_open_memory(&src, data, size, "fuzz", &err) || pb_read(&given, src, &ro, &err)) abort();
    pb_source_free(src);
    char a[64], b[64];
    snprintf(a, sizeof a, "/tmp/pb-indexed-fuzz-%d-a.iprof", (int)getpid());
    snprintf(b, sizeof b, "/tmp/pb-indexed-fuzz-%d-b.iprof", (int)getpid());
    const pb_format *f = pb_format_lookup("iprof");
    int ra = pb_write_file(kept, a, f, NULL, &err), rb = pb_write_file_take(given, b, f, NULL, &err);
    if (ra != rb) abort();
    FILE *fa = ra ? NULL : fopen(a, "rb"), *fb = rb ? NULL : fopen(b, "rb");
    for (int ca = 0, cb = 0; fa && fb && (ca != EOF || cb != EOF);)
        if ((ca = getc(fa)) != (cb = getc(fb))) abort();
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    remove(a);
    remove(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pb_error err;
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "indexed";
    if (pb_source_open_memory(&src, data, size, "fuzz", &err) == 0 && pb_read(&p, src, &ro, &err) == 0) {
        /* Whatever reads must also write (v12 and v7) without error or crash. */
        pb_sink *sink = NULL;
        pb_error_clear(&err);
        if (pb_sink_open_memory(&sink, &err) == 0) {
            pb_write_options wo = PB_WRITE_OPTIONS_INIT;
            (void)pb_write(p, sink, pb_format_lookup("indexed"), &wo, &err);
        }
        pb_sink_free(sink);
        merge_direct_vs_model(data, size, p);
        take_vs_keep(data, size, p);
    }
    pbt_llvm_words("indexed", data, size, &err);
    pb_profile_free(p);
    pb_source_free(src);
    pb_error_clear(&err);
    pb_profile *one = NULL;
    if (pb_indexed_lookup(data, size, "main", 4, &one, &err) == 0) pb_profile_free(one);
    pb_error_clear(&err);
    uint64_t sum = 0;
    pb_profile *side = NULL;
    pb_error_clear(&err);
    if (pb_indexed_foreach(data, size, "fuzz", NULL, NULL, touch, &sum, &side, &err) == 0) pb_profile_free(side);
    pb_error_clear(&err);
    for (int json = 0; json < 2; json++) { /* the text dump, then dump --json */
        src = NULL;
        pb_error_clear(&err);
        if (pb_source_open_memory(&src, data, size, "fuzz", &err) == 0) {
            pb_sink *sink = NULL;
            if (pb_sink_open_memory(&sink, &err) == 0) {
                pb_dump_options dopt = PB_DUMP_OPTIONS_INIT;
                dopt.json = json;
                (void)pb_format_lookup("indexed")->dump(src, sink, &dopt, &err);
            }
            pb_sink_free(sink);
        }
        pb_source_free(src);
    }
    return 0;
}
