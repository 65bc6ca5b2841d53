/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_error.c -- pb_error on the heap and its getters (access.h), so a
 * binding never copies pb_error's layout. */
#include "profbridge/access.h"

#include <stdlib.h>

pb_error *pb_error_new(void) {
    pb_error *e = malloc(sizeof *e);
    pb_error_clear(e);
    return e;
}

void pb_error_free(pb_error *err) { free(err); }

int pb_error_code(const pb_error *err) { return err->code; }
const char *pb_error_source(const pb_error *err) { return err->source; }
uint64_t pb_error_offset(const pb_error *err) { return err->offset; }
const char *pb_error_path(const pb_error *err) { return err->path; }
int pb_error_line(const pb_error *err) { return err->line; }
int pb_error_column(const pb_error *err) { return err->column; }
const char *pb_error_expected(const pb_error *err) { return err->expected; }
const char *pb_error_found(const pb_error *err) { return err->found; }
const char *pb_error_message(const pb_error *err) { return err->message; }
