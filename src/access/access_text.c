/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_text.c -- an options handle's text values (access_text.h). */
#include "access/access_text.h"

#include <stdlib.h>
#include <string.h>

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
