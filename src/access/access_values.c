/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_values.c -- the values the options handles share (access_values.h). */
#include "access/access_values.h"

#include <stdlib.h>
#include <string.h>

#include "llvm/target.h"

int pbi_access_set_text(char **slot, const char **field, const char *key, const char *value, pb_error *err) {
    size_t n = strlen(value) + 1;
    char *d = malloc(n);
    if (!d) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
    memcpy(d, value, n);
    free(*slot);
    *slot = d;
    *field = d;
    return PB_OK;
}

int pbi_access_parse_release(const char *key, const char *value, int *out, pb_error *err) {
    pbi_llvm_target t;
    int rc = pbi_llvm_target_parse(value, key, &t, err);
    if (!rc) *out = t.release;
    return rc;
}
