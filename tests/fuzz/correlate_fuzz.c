/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate_fuzz.c -- libFuzzer target: any bytes as the ELF file of
 * `--binary-file` and of `--debug-info` (pbi_correlation_load, libelf and
 * libdw underneath), within input limits small enough that a compressed
 * section's bomb is refused rather than inflated (64 MiB, 250:1). Whatever
 * loads must be whole (every probe named, its bitmap inside
 * __llvm_prf_bits, the covdata and names present together); whatever fails
 * must say so in a pb_error. Never a crash, leak, hang or allocation past
 * the limits. Seeds: tests/fuzz/correlate/ (small ELF files of
 * tests/interop/lib/elf_gen.py and clang-19 objects).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "llvm/correlate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_warning(void *ctx, const char *msg) {
    size_t *n = ctx;
    if (!msg) abort();
    (*n)++;
}

static void check(const pbi_correlation *c) {
    if (c->ptr != 4 && c->ptr != 8) abort();
    for (size_t i = 0; i < c->nprobes; i++) {
        const pbi_corr_probe *p = &c->probes[i];
        if (!p->name) abort();
        if (p->num_bitmap_bytes && c->bits_start + p->bitmap_offset >= c->bits_end) abort();
    }
    if (c->kind == PBI_CORR_BINARY && c->data_len && !c->data) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/pb-fuzz-correlate-%ld.elf", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    if (size && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return 0;
    }
    if (fclose(f)) return 0;
    static const pbi_corr_limits lim = {(uint64_t)64 << 20, 250};
    static const int kinds[] = {PBI_CORR_BINARY, PBI_CORR_DEBUG_INFO};
    for (size_t k = 0; k < 2; k++) {
        pbi_correlation c;
        pb_error err;
        size_t warnings = 0;
        pb_error_clear(&err);
        int rc = pbi_correlation_load(&c, path, kinds[k], NULL, &lim, 3, count_warning, &warnings, &err);
        if (rc) {
            if (rc > 0 || err.code != rc) abort(); /* a failure is recorded, with its code */
            continue;
        }
        check(&c);
        pbi_correlation_free(&c);
    }
    return 0;
}
