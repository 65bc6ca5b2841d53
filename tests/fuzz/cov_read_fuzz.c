/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_fuzz.c -- libFuzzer target: any bytes through the coverage-mapping
 * reader (pbi_cov_read_memory) as an ELF object, with the default release,
 * with llvm-cov 18's MC/DC rules, with 17's (no version 7) and with a
 * -compilation-dir; whatever reads must be whole (every region's file id
 * inside its function's files, every expression reference inside its
 * expressions), whatever fails must say so in a pb_error. The same bytes go
 * through pb_coverage_dump's explainer (pbi_cov_* with a tracer) by way of
 * the reader's own pieces. Read lazily (pbi_cov_read_options.lazy), every
 * function's kept bytes must decode again without failing, to the same
 * checks; read with defer_checks (unchecked), they may fail to decode, but
 * with a pb_error that says so. Seed corpus: tests/fuzz/cov_read/ (clang-19 and
 * clang-17 objects).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_mapping.h"
#include "coverage/cov_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_counter(const pbi_cov_counter *c, size_t nexprs) {
    if (c->kind == PBI_COV_EXPR && c->id >= nexprs) abort();
    if (c->kind > PBI_COV_EXPR) abort();
}

static void check(const pbi_cov_mapping *m, int deferred) {
    pbi_cov_decoded dec;
    memset(&dec, 0, sizeof dec);
    for (size_t i = 0; i < m->nfunctions; i++) {
        pbi_cov_function one;
        pb_error err;
        pb_error_clear(&err);
        int rc = pbi_cov_function_decode(&m->functions[i], &dec, &one, &err);
        if (rc == PB_ENOMEM) break;
        if (rc && (!deferred || err.code != rc || !err.message[0])) abort(); /* else the reader checked these bytes */
        if (rc) break; /* the evaluator stops at the first */
        const pbi_cov_function *f = &one;
        if (!f->name || strlen(f->name) != f->name_len || f->object != 0) abort();
        for (size_t k = 0; k < f->nfilenames; k++)
            if (!f->filenames[k]) abort();
        for (size_t k = 0; k < f->nexprs; k++) {
            check_counter(&f->exprs[k].lhs, f->nexprs);
            check_counter(&f->exprs[k].rhs, f->nexprs);
        }
        for (size_t k = 0; k < f->nregions; k++) {
            const pbi_cov_region *g = &f->regions[k];
            if (g->file_id >= f->nfilenames || g->kind > PBI_COV_REGION_MCDC_BRANCH) abort();
            if (g->kind == PBI_COV_REGION_EXPANSION && g->expanded_file_id >= f->nfilenames) abort();
            check_counter(&g->count, f->nexprs);
            check_counter(&g->false_count, f->nexprs);
        }
    }
    pbi_cov_decoded_free(&dec);
}

static void trace_fn(void *ctx, const char *sec, const uint8_t *d, uint64_t off, uint64_t len, const char *field,
                     const char *value) {
    size_t *n = ctx;
    (void)sec;
    (void)field;
    (void)value;
    if (d && len) { /* every traced byte must be a byte of the section */
        volatile uint8_t x = d[off + len - 1];
        (void)x;
    }
    (*n)++;
}

/* The dump's walk: covmap and covfun with a tracer, as pb_coverage_dump runs them. */
static void explain(const uint8_t *data, size_t size) {
    pbi_cov_elf o;
    pb_error err;
    pb_error_clear(&err);
    if (pbi_cov_elf_open(&o, data, size, "fuzz", NULL, &err)) return;
    size_t n = 0;
    pbi_cov_trace tr = {trace_fn, &n};
    pbi_cov_tus tus;
    memset(&tus, 0, sizeof tus);
    pbi_cov_mapping m;
    memset(&m, 0, sizeof m);
    size_t fcap = 0;
    if (o.covmap.present && o.names.present && pbi_cov_read_covmap(&tus, &o, NULL, &m.arena, &tr, &err) == 0)
        (void)pbi_cov_read_covfun(&m, &fcap, 0, &o, &tus, NULL, &tr, &err);
    pbi_cov_mapping_free(&m);
    pbi_cov_tus_free(&tus);
    pbi_cov_elf_close(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const int releases[] = {0, 18, 17};
    for (size_t k = 0; k < 6; k++) {
        pbi_llvm_target t;
        pbi_cov_read_options o = {NULL, NULL, NULL, 1u << 24, k >= 4, k == 5};
        if (k < 3 && releases[k]) {
            if (pbi_llvm_target_of(releases[k], &t)) abort();
            o.t = &t;
        }
        if (k == 3) o.compilation_dir = "/fuzz/../dir";
        pbi_cov_mapping m;
        pb_error err;
        pb_error_clear(&err);
        int rc = pbi_cov_read_memory(&m, data, size, "fuzz", &o, &err);
        if (rc == 0) {
            check(&m, k == 5);
            pbi_cov_mapping_free(&m);
        } else if (err.code != rc || (!err.message[0] && !err.expected[0])) {
            abort(); /* a failure says what failed */
        }
    }
    explain(data, size);
    return 0;
}
