/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_fuzz.c -- libFuzzer target: any bytes through the raw reader; what
 * reads is written back (v10, v8 32-bit big-endian, and one of v5/v7/v9/v11) and must read again;
 * what reads is also read profile by profile (raw-profile K, as show does), and
 * every part must read; the read in two halves (pb_format.prepare, what
 * merge's threads use) must end as the whole read did; a merge through the
 * visit (pb_read_options.merge_into) must fail where the read did, and
 * give what merging the read's model gives where it succeeds; the same bytes go through dump.
 * Seed corpus: tests/fuzz/raw/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "profbridge/profbridge.h"
#include "profbridge/sys/format.h" /* the plugin's own slots (read, probe, dump, read_prepared, visit) */
#include "llvm_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_and_reread(const pb_profile *p, const pb_kv *kv, size_t nkv) {
    pb_sink *s = NULL;
    pb_source *src = NULL;
    pb_profile *q = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.kv = kv;
    wo.nkv = nkv;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    if (pb_sink_open_memory(&s, &err) == 0 && pb_write(p, s, pb_format_lookup("raw"), &wo, &err) == 0) {
        size_t len;
        const uint8_t *d = pb_sink_memory(s, &len);
        if (pb_source_open_memory(&src, d, len, "<rewritten>", &err) == 0 && pb_read(&q, src, &ro, &err) != 0)
            abort(); /* what we write, we must read */
    }
    pb_profile_free(q);
    pb_source_free(src);
    pb_sink_free(s);
}

/* raw-profile 0, 1, ...: each must read until the first index past the last profile. */
static void read_parts(const uint8_t *data, size_t size) {
    for (unsigned k = 0; k < 64; k++) {
        char num[8];
        num[0] = (char)('0' + k / 10);
        num[1] = (char)('0' + k % 10);
        num[2] = 0;
        pb_kv kv = {"raw-profile", k < 10 ? num + 1 : num};
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.format = "raw";
        ro.kv = &kv;
        ro.nkv = 1;
        pb_source *src = NULL;
        pb_profile *p = NULL;
        pb_error err;
        pb_error_clear(&err);
        int rc = pb_source_open_memory(&src, data, size, "<fuzz>", &err);
        if (rc == 0) rc = pb_read(&p, src, &ro, &err);
        pb_profile_free(p);
        pb_source_free(src);
        if (rc == PB_ENOTFOUND && k > 0) break;
        if (rc) abort(); /* the whole file read, so every profile of it must */
    }
}

/* prepare + read_prepared: the same result code and records as the whole read. */
static void read_in_halves(const uint8_t *data, size_t size, int whole_rc, const pb_profile *whole) {
    const pb_format *f = pb_format_lookup("raw");
    pb_source *src = NULL;
    pb_profile *p = NULL;
    void *st = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    if (pb_source_open_memory(&src, data, size, "<fuzz>", &err)) return;
    int rc = f->prepare(&st, src, &ro, &err);
    if (rc == 0) {
        rc = f->read_prepared(&p, st, &ro, &err);
        f->free_prepared(st);
    }
    if (rc != whole_rc && rc != PB_ENOMEM && whole_rc != PB_ENOMEM) abort();
    if (rc == 0 && whole_rc == 0 && pb_profile_record_count(p) != pb_profile_record_count(whole)) abort();
    pb_profile_free(p);
    pb_source_free(src);
}

/* merge_into (a visit, src/registry/read_merge.c) vs pb_profile_merge of the model. */
static void merge_by_visit(const uint8_t *data, size_t size, int whole_rc, const pb_profile *whole) {
    pb_source *src = NULL;
    pb_profile *by_visit = NULL, *by_model = NULL, *none = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    if (pb_profile_new(&by_visit, &err) || pb_profile_new(&by_model, &err) ||
        pb_source_open_memory(&src, data, size, "<fuzz>", &err)) {
        pb_profile_free(by_visit);
        pb_profile_free(by_model);
        return;
    }
    ro.merge_into = by_visit;
    int rc = pb_read(&none, src, &ro, &err);
    /* A read that fails merges nothing whole. A read that succeeds may
     * still fail to merge: the streaming merge takes the input's kind
     * before its records, as llvm-profdata does, so a header whose own bits
     * conflict (entry-first with function-entry-only) fails it, as
     * llvm-profdata merge fails it, where pb_profile_merge into an empty
     * profile takes the model as it is. */
    if (none || (whole_rc && !rc)) abort();
    if (rc == 0 && pb_profile_merge(by_model, whole, NULL, &err) == 0 && !pb_profile_equal(by_visit, by_model, NULL, 0))
        abort();
    pb_profile_free(by_visit);
    pb_profile_free(by_model);
    pb_source_free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const pb_kv v8be[] = {{"raw-version", "8"}, {"raw-pointer-width", "4"}, {"raw-byte-order", "be"}};
    /* one more version per input, cycling through those with absolute
     * pointers (v5, v7), bitmaps without vtables (v9) and v11's records */
    static const pb_kv other[][1] = {{{"raw-version", "5"}}, {{"raw-version", "7"}}, {{"raw-version", "9"}},
                                     {{"raw-version", "11"}}};
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    int rc = pb_source_open_memory(&src, data, size, "<fuzz>", &err);
    if (rc == 0) {
        rc = pb_read(&p, src, &ro, &err);
        read_in_halves(data, size, rc, p);
        merge_by_visit(data, size, rc, p);
    }
    pbt_llvm_words("raw", data, size, &err);
    if (rc == 0) {
        write_and_reread(p, NULL, 0);
        write_and_reread(p, v8be, 3);
        write_and_reread(p, other[size % 4], 1);
        read_parts(data, size);
    }
    pb_profile_free(p);
    pb_source_free(src);
    /* dump */
    pb_sink *s = NULL;
    pb_dump_options dopt = PB_DUMP_OPTIONS_INIT;
    dopt.json = size & 1;
    pb_error_clear(&err);
    if (pb_source_open_memory(&src, data, size, "<fuzz>", &err) == 0 && pb_sink_open_memory(&s, &err) == 0)
        (void)pb_format_lookup("raw")->dump(src, s, &dopt, &err);
    pb_sink_free(s);
    pb_source_free(src);
    return 0;
}
