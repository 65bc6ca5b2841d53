/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jansson_floor.c -- the floor for converting an iprof file: jansson parses
 * it into its tree and writes it back compact, nothing else. profbridge's
 * `convert x.iprof -o y.iprof` does at least this much work (plus checking
 * and the model), so bench/iprof.sh reports its cost as a ratio to this.
 *
 * Usage: jansson_floor IN OUT
 */
#include <stdio.h>

#include <jansson.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
        return 2;
    }
    json_error_t e;
    json_t *root = json_load_file(argv[1], 0, &e);
    if (!root) {
        fprintf(stderr, "%s:%d:%d: %s\n", argv[1], e.line, e.column, e.text);
        return 1;
    }
    int rc = json_dump_file(root, argv[2], JSON_COMPACT);
    json_decref(root);
    if (rc != 0) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
