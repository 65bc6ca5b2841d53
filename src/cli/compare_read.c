/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compare_read.c -- reading a profile as llvm-profdata sees it (the inputs of
 * `overlap` and `diff`, show's LLVM view): compare_read.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compare_read.h"
#include "llvm_args.h"
#include "llvm_input_error.h"
#include "opts.h"

int pbc_read_for_compare(const char *path, int as_llvm, const pbc_release *t, int lenient, pb_profile **out) {
    pb_error err;
    pb_error_clear(&err);
    pbc_diag_ctx dc = {0, 0, 0};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.diag = pbc_diag;
    ro.diag_ctx = &dc;
    ro.lenient = lenient;
    /* what LLVM sees: an input of another format as the .profdata convert
     * writes of it (by the input's format, not the profile's origin: a json
     * model of a raw file is not what llvm-profdata reads) */
    ro.llvm_view = as_llvm;
    /* the readers read as the chosen release does (RAW_TEMPORAL) */
    if (t && t->chosen) ro.llvm_release = t->release;
    pbc_apply_limits(&ro);
    *out = NULL;
    pb_source *src = NULL;
    const pb_format *f = NULL;
    int rc = pbc_open_input(path, &src, &err);
    if (!rc) rc = pb_format_detect(src, &f, &err);
    if (!rc) {
        ro.format = f->name;
        rc = pb_read(out, src, &ro, &err);
    }
    pb_source_free(src);
    if (!rc && t) {
        /* the release's own tool would refuse it: a note, never an error */
        pb_error note;
        if (t->chosen && pb_show_release_note(*out, t->release, path, &note))
            fprintf(stderr, PBC_PROG ": note: %s\n", note.message);
    }
    if (rc) {
        /* under the personality only overlap reads through here; LLVM names
         * no file, its words follow the failed step */
        if (pbc_args_llvm_style)
            pbc_llvm_print_input_error("overlap", "error", "error in getting profile count sums", &err);
        else pbc_print_error(&err);
        pbc_lenient_hint(rc, lenient);
        pb_profile_free(*out);
        *out = NULL;
        return pbc_exit_for(rc);
    }
    return 0;
}
