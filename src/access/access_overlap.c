/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_overlap.c -- overlap options made and set by key (access.h); the
 * handle is a pb_overlap_options followed by the strings it points to. */
#include "profbridge/access.h"

#include "access/access_values.h"


#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct overlap_handle {
    pb_overlap_options o; /* first: the handle is a pb_overlap_options */
    char *base, *test, *function;
} overlap_handle;

int pb_overlap_options_new(pb_overlap_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_overlap_options_new: out is NULL");
    overlap_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    h->o = (pb_overlap_options)PB_OVERLAP_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

int pb_overlap_options_set(pb_overlap_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_overlap_options_set: NULL argument");
    overlap_handle *h = (overlap_handle *)(void *)o;
    if (strcmp(key, "base-name") == 0) return pbi_access_set_text(&h->base, &o->base_name, key, value, err);
    if (strcmp(key, "test-name") == 0) return pbi_access_set_text(&h->test, &o->test_name, key, value, err);
    if (strcmp(key, "function") == 0) return pbi_access_set_text(&h->function, &o->function, key, value, err);
    if (strcmp(key, "value-cutoff") == 0) {
        char *end = NULL;
        errno = 0;
        unsigned long long v = (*value >= '0' && *value <= '9') ? strtoull(value, &end, 10) : 0;
        if (!end || *end || errno) return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a decimal number", value);
        o->value_cutoff = (uint64_t)v;
        return PB_OK;
    }
    if (strcmp(key, "cs") == 0) {
        if (strcmp(value, "1") != 0 && strcmp(value, "0") != 0)
            return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "1 or 0", value);
        o->cs = value[0] == '1';
        return PB_OK;
    }
    if (strcmp(key, "llvm-version") == 0) return pbi_access_parse_release(key, value, &o->llvm_release, err);
    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "unknown overlap option '%s'", key);
}

void pb_overlap_options_free(pb_overlap_options *o) {
    if (!o) return;
    overlap_handle *h = (overlap_handle *)(void *)o;
    free(h->base);
    free(h->test);
    free(h->function);
    free(h);
}
