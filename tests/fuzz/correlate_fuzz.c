/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate_fuzz.c -- libFuzzer target: any bytes as the ELF file of
 * `--binary-file` and of `--debug-info` (pbi_correlation_load, libelf and
 * libdw underneath), within input limits small enough that a compressed
 * section's bomb is refused rather than inflated (64 MiB, 250:1). Whatever
 * loads must be whole (every probe named, its bitmap inside
 * __llvm_prf_bits, the covdata and names present together); whatever fails
 * must say so in a pb_error. Never a crash, leak, hang or allocation past
 * the limits. Debug info that loads is also listed as show --debug-info
 * --show-format=yaml lists it (pb_correlate_show: LLVM's YAML quoting of any
 * bytes), which must be a whole document. Seeds: tests/fuzz/correlate/ (small ELF files of
 * tests/interop/lib/elf_gen.py and clang-19 objects).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "llvm/correlate.h"
#include "profbridge/correlate.h"

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

/* pb_correlate_show's YAML of the file: "---" ... "...\n", or a recorded failure. */
static void list_yaml(const char *path) {
    pb_sink *mem = NULL;
    pb_error err;
    if (pb_sink_open_memory(&mem, &err)) return;
    pb_correlate_options o = PB_CORRELATE_OPTIONS_INIT;
    o.style = PB_CORRELATE_YAML;
    o.max_input_size = (uint64_t)64 << 20;
    o.max_inflation = 250;
    o.max_warnings = 3;
    int rc = pb_correlate_show(mem, path, &o, &err);
    size_t len = 0;
    const uint8_t *out = pb_sink_memory(mem, &len);
    if (rc ? err.code != rc : len < 8 || memcmp(out, "---\n", 4) != 0 || memcmp(out + len - 4, "...\n", 4) != 0)
        abort();
    pb_sink_free(mem);
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
        if (kinds[k] == PBI_CORR_DEBUG_INFO) list_yaml(path);
    }
    return 0;
}
