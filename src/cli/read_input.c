/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_input.c -- input and output of the analysis commands (read_input.h).
 */
#include <stdio.h>

#include "opts.h"
#include "llvm_args.h"
#include "llvm_input_error.h"
#include "read_input.h"

int pbc_read_input(const char *path, const char *from, int lenient, pb_profile **out) {
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = from;
    ro.lenient = lenient;
    ro.diag = pbc_diag;
    pbc_apply_limits(&ro);
    /* Detect first, so that the --lenient hint follows only a reader's failure. */
    const pb_format *f = NULL;
    pb_source *src = NULL;
    int read_failed = 0, rc = pbc_open_input(path, &src, &err);
    if (rc == 0 && !from) rc = pb_format_detect(src, &f, &err);
    if (rc == 0) {
        if (f) ro.format = f->name;
        rc = pb_read(out, src, &ro, &err);
        read_failed = rc != 0;
    }
    pb_source_free(src);
    if (rc) {
        /* under the personality only order reads through here */
        if (pbc_args_llvm_style) pbc_llvm_print_input_error("order", "error", NULL, &err);
        else pbc_print_error(&err);
        if (read_failed) pbc_lenient_hint(rc, lenient);
        return pbc_exit_for(rc);
    }
    return PBC_EXIT_OK;
}

int pbc_write_output(const char *path, const void *data, size_t len) {
    pb_error err;
    pb_error_clear(&err);
    pb_sink *sink = NULL;
    fflush(stdout);
    int rc = pb_sink_open_file(&sink, path, 0, &err);
    if (rc == 0) rc = pb_sink_write(sink, data, len, &err);
    if (rc == 0) rc = pb_sink_commit(sink, &err);
    pb_sink_free(sink);
    if (rc) {
        pbc_print_error(&err);
        return pbc_exit_for(rc);
    }
    return PBC_EXIT_OK;
}
