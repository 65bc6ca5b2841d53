/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import.h -- THE way data of one profile enters another by content (names,
 * not indices): symbols, methods, contexts, int arrays and records. The
 * bridge imports lazily (only what its views ask for), pb_profile_merge
 * eagerly and in src's order (pbi_import_all), a streaming merge the
 * symbols a reader added since its last record (pbi_import_new_symbols).
 * Each src index is imported once; the maps remember where it went.
 */
#ifndef PBI_IMPORT_H
#define PBI_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

typedef struct pbi_importer {
    pb_profile *dst;
    const pb_profile *src;
    uint32_t *sym, *meth; /* src index -> dst index + 1; 0 = not yet */
    uint32_t *ctx, *ints;
    size_t nsym, nmeth, nctx, nints; /* the maps' lengths: src's counts when they were taken */
    size_t cap_sym;
    pb_frame *frames;
    size_t cap_frames;
    uint32_t *sig;
    size_t cap_sig;
    pb_site *sites;
    size_t cap_sites;
    pb_value *vals;
    size_t cap_vals;
    /* 1: pbi_import_record leaves a function's name to the caller (merge
     * resolves it itself: remapping, the record-order hint) */
    int names_by_caller;
    /* src symbol index -> 1: not carried over (NULL: every one is): values
     * naming it keep their value with no symbol (PB_NONE), and
     * pbi_import_all skips it (a merge of llvm-profdata writers, whose
     * vtable names stay in the writer they were read into) */
    const uint8_t *drop_sym;
} pbi_importer;

/* src may be NULL (a streaming merge learns its side profile later:
 * pbi_import_new_symbols). */
int pbi_import_init(pbi_importer *im, pb_profile *dst, const pb_profile *src, pb_error *err);
void pbi_import_free(pbi_importer *im);

int pbi_import_symbol(pbi_importer *im, uint32_t s, uint32_t *out, pb_error *err);
int pbi_import_method(pbi_importer *im, uint32_t m, uint32_t *out, pb_error *err);
int pbi_import_ctx(pbi_importer *im, uint32_t c, uint32_t *out, pb_error *err);
int pbi_import_ints(pbi_importer *im, uint32_t c, uint32_t *out, pb_error *err);

/* Every symbol, method, context and int array of src, in that order and in
 * src's order within each: what pb_profile_merge adds to dst first. */
int pbi_import_all(pbi_importer *im, pb_error *err);

/* src = side, whose symbol table may have grown since the last call: its
 * new symbols are imported in order. */
int pbi_import_new_symbols(pbi_importer *im, const pb_profile *side, pb_error *err);

/* dst's index of src symbol s, imported already; PB_NONE for a symbol src
 * does not have (it then stays invalid for dst's validation to refuse). */
static inline uint32_t pbi_import_mapped_symbol(const pbi_importer *im, uint32_t s) {
    return s < im->nsym && im->sym[s] ? im->sym[s] - 1 : PB_NONE;
}

/* Translates record r of src for dst: a function's name (unless
 * names_by_caller), context, layout and value symbols. A context, int array
 * or symbol src does not have becomes PB_NONE. *t points into the
 * importer's buffers until the next call. */
int pbi_import_record(pbi_importer *im, const pb_record *r, pb_record *t, pb_error *err);

#endif
