/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access_coverage.c -- coverage, export and report options made and set by
 * key (access.h), for bindings: the keys are llvm-cov's option words. Each
 * handle is the public options struct followed by the strings and lists it
 * points to, so the pointer handed out is passed to pb_coverage_load,
 * pb_coverage_export and pb_coverage_report as any options struct is.
 */
#include "profbridge/access.h"

#include "access/access_values.h"
#include "util/grow.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int oom(pb_error *err, const char *key) {
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
}

static int parse_flag(const char *key, const char *v, int *out, pb_error *err) {
    if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) *out = 1;
    else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) *out = 0;
    else return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "1 or 0", v);
    return PB_OK;
}

static int parse_uint(const char *key, const char *v, unsigned long max, unsigned long *out, pb_error *err) {
    char *end = NULL;
    errno = 0;
    unsigned long n = (*v >= '0' && *v <= '9') ? strtoul(v, &end, 10) : 0;
    if (!end || *end || errno || n > max)
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a decimal number", v);
    *out = n;
    return PB_OK;
}

/* ---- coverage options ---- */

/* A list option (-name, -name-regex, ...): each set appends, as repeating
 * llvm-cov's option does. */
typedef struct str_list {
    const char **v;
    size_t n, cap;
} str_list;

enum { L_NAMES, L_NAME_REGEXES, L_ALLOWLISTS, L_IGNORE_RE, L_INCLUDE_RE, L_SOURCES, L_COUNT };

static const char *const list_keys[L_COUNT] = {
    "name", "name-regex", "name-allowlist", "ignore-filename-regex", "include-filename-regex", "sources",
};

typedef struct cov_handle {
    pb_cov_options o; /* first: the handle is a pb_cov_options */
    str_list lists[L_COUNT];
    char *compilation_dir, *arch, *path_equivalence;
} cov_handle;

static void point_lists(cov_handle *h) {
    pb_cov_options *o = &h->o;
    o->names = h->lists[L_NAMES].v;
    o->nnames = h->lists[L_NAMES].n;
    o->name_regexes = h->lists[L_NAME_REGEXES].v;
    o->nname_regexes = h->lists[L_NAME_REGEXES].n;
    o->name_allowlists = h->lists[L_ALLOWLISTS].v;
    o->nname_allowlists = h->lists[L_ALLOWLISTS].n;
    o->ignore_filename_regexes = h->lists[L_IGNORE_RE].v;
    o->nignore_filename_regexes = h->lists[L_IGNORE_RE].n;
    o->include_filename_regexes = h->lists[L_INCLUDE_RE].v;
    o->ninclude_filename_regexes = h->lists[L_INCLUDE_RE].n;
    o->sources = h->lists[L_SOURCES].v;
    o->nsources = h->lists[L_SOURCES].n;
}

static int list_add(str_list *l, const char *key, const char *value, pb_error *err) {
    char *d = dup_str(value);
    if (!d || pbu_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
        free(d);
        return oom(err, key);
    }
    l->v[l->n++] = d;
    return PB_OK;
}

/* Replaces *slot (and *field, which points at it) by a copy of value. */
static int set_string(char **slot, const char **field, const char *key, const char *value, pb_error *err) {
    char *d = dup_str(value);
    if (!d) return oom(err, key);
    free(*slot);
    *slot = d;
    *field = d;
    return PB_OK;
}

int pb_cov_options_new(pb_cov_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_cov_options_new: out is NULL");
    cov_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return oom(err, NULL);
    h->o = (pb_cov_options)PB_COV_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

int pb_cov_options_set(pb_cov_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_cov_options_set: NULL argument");
    cov_handle *h = (cov_handle *)(void *)o;
    for (size_t i = 0; i < L_COUNT; i++)
        if (strcmp(key, list_keys[i]) == 0) {
            int rc = list_add(&h->lists[i], key, value, err);
            point_lists(h);
            return rc;
        }
    unsigned long n = 0;
    int rc;
    if (strcmp(key, "llvm-version") == 0) { /* the release table says which exist (llvm/target.h) */
        return pbi_access_parse_release(key, value, &o->llvm_release, err);
    }
    if (strcmp(key, "num-threads") == 0) {
        if ((rc = parse_uint(key, value, 1024, &n, err))) return rc;
        o->threads = (unsigned)n;
        return PB_OK;
    }
    if (strcmp(key, "check-binary-ids") == 0) return parse_flag(key, value, &o->check_binary_ids, err);
    if (strcmp(key, "empty-profile") == 0) return parse_flag(key, value, &o->empty_profile, err);
    if (strcmp(key, "compilation-dir") == 0)
        return set_string(&h->compilation_dir, &o->compilation_dir, key, value, err);
    if (strcmp(key, "arch") == 0) return set_string(&h->arch, &o->arch, key, value, err);
    if (strcmp(key, "path-equivalence") == 0)
        return set_string(&h->path_equivalence, &o->path_equivalence, key, value, err);
    return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a coverage option", key);
}

void pb_cov_options_set_read(pb_cov_options *o, const pb_read_options *ro) {
    if (o) o->read = ro;
}

void pb_cov_options_set_diag(pb_cov_options *o, pb_diag_fn fn, void *ctx) {
    if (!o) return;
    o->diag = fn;
    o->diag_ctx = ctx;
}

void pb_cov_options_free(pb_cov_options *o) {
    if (!o) return;
    cov_handle *h = (cov_handle *)(void *)o;
    for (size_t i = 0; i < L_COUNT; i++) {
        for (size_t j = 0; j < h->lists[i].n; j++) free((char *)h->lists[i].v[j]);
        free(h->lists[i].v);
    }
    free(h->compilation_dir);
    free(h->arch);
    free(h->path_equivalence);
    free(h);
}

/* ---- export and report options: flags only, so the struct is the handle ---- */

int pb_cov_export_options_new(pb_cov_export_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_cov_export_options_new: out is NULL");
    *out = malloc(sizeof **out);
    if (!*out) return oom(err, NULL);
    **out = (pb_cov_export_options)PB_COV_EXPORT_OPTIONS_INIT;
    return PB_OK;
}

int pb_cov_export_options_set(pb_cov_export_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_cov_export_options_set: NULL argument");
    if (strcmp(key, "format") == 0) {
        if (!strcmp(value, "text") || !strcmp(value, "json")) o->format = PB_COV_JSON;
        else if (!strcmp(value, "lcov")) o->format = PB_COV_LCOV;
        else return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "text, json or lcov", value);
        return PB_OK;
    }
    static const struct {
        const char *key;
        size_t off;
    } flags[] = {
        {"summary-only", offsetof(pb_cov_export_options, summary_only)},
        {"skip-expansions", offsetof(pb_cov_export_options, skip_expansions)},
        {"skip-functions", offsetof(pb_cov_export_options, skip_functions)},
        {"skip-branches", offsetof(pb_cov_export_options, skip_branches)},
        {"unify-instantiations", offsetof(pb_cov_export_options, unify_instantiations)},
        {"show-mcdc-non-executed-vectors", offsetof(pb_cov_export_options, show_mcdc_non_executed_vectors)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(key, flags[i].key) == 0) return parse_flag(key, value, (int *)(void *)((char *)o + flags[i].off), err);
    return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "an export option", key);
}

void pb_cov_export_options_free(pb_cov_export_options *o) { free(o); }

int pb_cov_report_options_new(pb_cov_report_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_cov_report_options_new: out is NULL");
    *out = malloc(sizeof **out);
    if (!*out) return oom(err, NULL);
    **out = (pb_cov_report_options)PB_COV_REPORT_OPTIONS_INIT;
    return PB_OK;
}

int pb_cov_report_options_set(pb_cov_report_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_cov_report_options_set: NULL argument");
    static const struct {
        const char *key;
        size_t off;
    } flags[] = {
        {"show-functions", offsetof(pb_cov_report_options, show_functions)},
        {"show-region-summary", offsetof(pb_cov_report_options, show_region_summary)},
        {"show-branch-summary", offsetof(pb_cov_report_options, show_branch_summary)},
        {"show-instantiation-summary", offsetof(pb_cov_report_options, show_instantiation_summary)},
        {"show-mcdc-summary", offsetof(pb_cov_report_options, show_mcdc_summary)},
        {"use-color", offsetof(pb_cov_report_options, use_color)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(key, flags[i].key) == 0) return parse_flag(key, value, (int *)(void *)((char *)o + flags[i].off), err);
    return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a report option", key);
}

void pb_cov_report_options_free(pb_cov_report_options *o) { free(o); }
