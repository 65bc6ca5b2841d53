/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_output.c -- how a merge is written (profbridge/merge.h
 * pb_merge_output): the rules an output imposes on the merge and the
 * writer's options, in one place for the tool, the Python package and the
 * partial merges, so all of them write the same bytes for the same inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merger_internal.h"
#include "util/api.h"

int pb_merge_output_rules(const pb_merge_output *o, pb_merger_options *mo) {
    if (!o || !mo || o->version != PB_MERGE_OUTPUT_VERSION) return PB_EINVAL;
    mo->llvm_release = o->llvm_release;
    if (o->format && pb_format_family_of(o->format) == PB_FAMILY_JAVA) {
        /* iprof has no 255-values-per-site limit and counts are Java longs:
         * a type histogram keeps every type (docs/mapping.md §6) */
        mo->keep_all_values = 1;
        mo->max_count = PB_MAX_COUNT_IPROF;
    } else {
        mo->keep_all_values = 0;
        mo->max_count = 0;
    }
    return PB_OK;
}

size_t pb_merge_output_reader_kv(const pb_merge_output *o, pb_kv *kv, char *digits) {
    if (!o || !kv || !digits || !o->release_explicit) return 0;
    snprintf(digits, 8, "%d", o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT);
    kv[0] = (pb_kv){"llvm-version", digits};
    return 1;
}

int pb_merge_write_file(const pb_profile *p, const char *path, const pb_merge_output *o,
                        const pb_write_options *base, pb_error *err) {
    if (err) pb_error_clear(err);
    if (!p || !path || !o) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_merge_write_file: NULL argument");
    if (o->version != PB_MERGE_OUTPUT_VERSION)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "pb_merge_output: version %u unknown (this library knows %u)", o->version,
                            (unsigned)PB_MERGE_OUTPUT_VERSION);
    const pb_format *f = o->format ? o->format : pb_format_lookup("indexed");
    pb_kv *kv = calloc(o->nkv + 6, sizeof *kv);
    if (!kv) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t n = 0;
    char release[8];
    pb_format_form form = pb_format_form_of(f);
    int is_text = form == PB_FORM_TEXT, is_indexed = form == PB_FORM_INDEXED;
    n += pb_merge_output_reader_kv(o, kv, release);
    if (o->indexed_version && is_indexed) kv[n++] = (pb_kv){"indexed-version", o->indexed_version};
    if (o->sparse && (is_text || is_indexed)) kv[n++] = (pb_kv){"sparse", "1"};
    if (is_text || is_indexed) kv[n++] = (pb_kv){"keep-vtable-symbols", o->keep_vtable_symbols ? "1" : "0"};
    /* Emulate llvm-profdata's containers on the merged order (never keep an
     * input file's order: that is what `convert` does). */
    if (is_indexed) kv[n++] = (pb_kv){"order", "llvm"};
    for (size_t i = 0; i < o->nkv; i++) kv[n++] = o->kv[i];
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    if (base) {
        wo.diag = base->diag;
        wo.diag_ctx = base->diag_ctx;
    }
    wo.kv = kv;
    wo.nkv = n;
    int rc = pb_write_file(p, path, f, &wo, err);
    free(kv);
    return rc;
}
