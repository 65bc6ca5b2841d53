/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_show.c -- show options made and set by key (access.h): the words of
 * llvm-profdata show's flags; the handle is a pb_show_options followed by
 * the strings it points to. */
#include "profbridge/access.h"

#include "access/access_values.h"


#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct show_handle {
    pb_show_options o; /* first: the handle is a pb_show_options */
    char *function, *cutoffs;
} show_handle;

int pb_show_options_new(pb_show_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_show_options_new: out is NULL");
    show_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    h->o = (pb_show_options)PB_SHOW_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

static int set_u64(uint64_t *field, uint64_t max, const char *key, const char *value, pb_error *err) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = (*value >= '0' && *value <= '9') ? strtoull(value, &end, 10) : 0;
    if (!end || *end || errno || v > max)
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a decimal number", value);
    *field = (uint64_t)v;
    return PB_OK;
}

/* The flags that are 1 or 0, by llvm-profdata show's words. */
static int *flag_of(pb_show_options *o, const char *key) {
    static const struct {
        const char *key;
        size_t off;
    } flags[] = {
        {"all-functions", offsetof(pb_show_options, all_functions)},
        {"counts", offsetof(pb_show_options, counts)},
        {"ic-targets", offsetof(pb_show_options, ic_targets)},
        {"memop-sizes", offsetof(pb_show_options, memop_sizes)},
        {"show-vtables", offsetof(pb_show_options, show_vtables)},
        {"detailed-summary", offsetof(pb_show_options, detailed_summary)},
        {"list-below-cutoff", offsetof(pb_show_options, list_below_cutoff)},
        {"showcs", offsetof(pb_show_options, showcs)},
        {"covered", offsetof(pb_show_options, covered)},
        {"binary-ids", offsetof(pb_show_options, binary_ids)},
        {"temporal-profile-traces", offsetof(pb_show_options, temporal_traces)},
        {"profile-version", offsetof(pb_show_options, profile_version)},
        {"text", offsetof(pb_show_options, text)},
        {"json", offsetof(pb_show_options, json)},
        {"hot-func-list", offsetof(pb_show_options, hot_func_list)},
        {"llvm", offsetof(pb_show_options, llvm)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(key, flags[i].key) == 0) return (int *)(void *)((char *)o + flags[i].off);
    return NULL;
}

int pb_show_options_set(pb_show_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_show_options_set: NULL argument");
    show_handle *h = (show_handle *)(void *)o;
    int *flag = flag_of(o, key);
    if (flag) {
        if (strcmp(value, "1") != 0 && strcmp(value, "0") != 0)
            return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "1 or 0", value);
        *flag = value[0] == '1';
        return PB_OK;
    }
    if (strcmp(key, "function") == 0) return pbi_access_set_text(&h->function, &o->function, key, value, err);
    if (strcmp(key, "detailed-summary-cutoffs") == 0) return pbi_access_set_text(&h->cutoffs, &o->cutoffs, key, value, err);
    if (strcmp(key, "value-cutoff") == 0) return set_u64(&o->value_cutoff, UINT64_MAX, key, value, err);
    if (strcmp(key, "topn") == 0) {
        uint64_t v = 0;
        int rc = set_u64(&v, UINT32_MAX, key, value, err);
        if (!rc) o->topn = (unsigned)v;
        return rc;
    }
    if (strcmp(key, "llvm-version") == 0) return pbi_access_parse_release(key, value, &o->llvm_release, err);
    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "unknown show option '%s'", key);
}

void pb_show_options_free(pb_show_options *o) {
    if (!o) return;
    show_handle *h = (show_handle *)(void *)o;
    free(h->function);
    free(h->cutoffs);
    free(h);
}
