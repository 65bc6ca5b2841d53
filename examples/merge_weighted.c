/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_weighted.c -- `llvm-profdata merge -o OUT IN...` in a few lines of
 * the public API: each IN is "W,FILE" (weight W) or "FILE" (weight 1);
 * OUT's format follows its name (.profdata: indexed, .proftext: text, ...).
 *
 *   cc -std=c11 merge_weighted.c $(pkg-config --cflags --libs profbridge)
 *   ./a.out merged.profdata 2,a.profraw b.profraw
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profbridge/profbridge.h>

static void print_failure(void *ctx, size_t input, const char *name, const pb_error *e) {
    char line[1024];
    (void)ctx;
    (void)input;
    (void)name;
    pb_error_format(e, line, sizeof line);
    fprintf(stderr, "warning: %s\n", line);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUT [W,]IN...\n", argv[0]);
        return 2;
    }
    pb_merger_options mo = PB_MERGER_OPTIONS_INIT;
    mo.failure_mode = PB_MERGE_FAIL_ALL; /* merge what can be read */
    mo.failed = print_failure;
    pb_merger *m = NULL;
    pb_profile *out = NULL;
    pb_error err;
    int rc = pb_merger_new(&m, &mo, &err);
    for (int i = 2; rc == 0 && i < argc; i++) {
        const char *comma = strchr(argv[i], ',');
        char *end = NULL;
        unsigned long long w = comma ? strtoull(argv[i], &end, 10) : 1;
        if (comma && (end != comma || w == 0)) {
            fprintf(stderr, "%s: expected W,FILE with W >= 1\n", argv[i]);
            pb_merger_free(m);
            return 2;
        }
        rc = pb_merger_add_file(m, comma ? comma + 1 : argv[i], w, &err);
    }
    if (rc == 0) rc = pb_merger_run(m, &out, &err);
    /* an indexed OUT in llvm-profdata's key order: its very bytes */
    pb_kv order = {"order", "llvm"};
    size_t n = strlen(argv[1]);
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    if (n > 9 && strcmp(argv[1] + n - 9, ".profdata") == 0) wo.kv = &order, wo.nkv = 1;
    if (rc == 0) rc = pb_write_file(out, argv[1], NULL, &wo, &err);
    if (rc) {
        char line[1024];
        pb_error_format(&err, line, sizeof line);
        fprintf(stderr, "error: %s\n", line);
    }
    pb_profile_free(out);
    pb_merger_free(m);
    return rc ? 1 : 0;
}
