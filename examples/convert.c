/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * convert.c -- convert a profile: convert [--llvm-version N] IN OUT
 *
 * IN is read in whatever format it is (found by content); OUT's format
 * follows its extension (.profdata, .profraw, .proftext, .iprof, .json, and
 * .gz for gzip). --llvm-version N writes what LLVM release N's tools write
 * (its indexed or raw version, what its text format can hold), through the
 * llvm_release field of pb_write_options (and reads as release N reads,
 * through pb_read_options'). Build against the
 * installed library:
 *   cc convert.c $(pkg-config --cflags --libs profbridge) -o convert
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profbridge/profbridge.h>

/* Notices about what the target cannot hold: the library never drops data
 * silently, it says so here. */
static void on_diag(void *ctx, int severity, const pb_error *e) {
    (void)ctx;
    char line[1024];
    pb_error_format(e, line, sizeof line);
    fprintf(stderr, "convert: %s: %s\n", severity == PB_DIAG_NOTICE ? "note" : "warning", line);
}

int main(int argc, char **argv) {
    int release = 0; /* 0: the library's default release */
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "--llvm-version") == 0) {
        release = (int)strtol(argv[2], NULL, 10); /* the library refuses what is no release */
        a = 3;
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: convert [--llvm-version N] IN OUT\n");
        return 2;
    }
    pb_error err;
    pb_profile *p = NULL;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.diag = on_diag;
    ro.llvm_release = release;
    int rc = pb_read_file(&p, argv[a], &ro, &err);
    if (rc == PB_OK) {
        pb_write_options wo = PB_WRITE_OPTIONS_INIT;
        wo.llvm_release = release;
        wo.diag = on_diag;
        /* NULL format: by OUT's extension; OUT is replaced only on success */
        rc = pb_write_file(p, argv[a + 1], NULL, &wo, &err);
    }
    pb_profile_free(p);
    if (rc != PB_OK) {
        char line[1024];
        pb_error_format(&err, line, sizeof line);
        fprintf(stderr, "convert: %s\n", line);
        return 1;
    }
    return 0;
}
