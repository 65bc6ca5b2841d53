/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access_options.c -- read, write and merger options made and set by key
 * (access.h). Each handle is the public options struct followed by the
 * strings it points to, so the pointer handed out is passed to pb_read_file,
 * pb_write_file and pb_merger_new as any options struct is.
 */
#include "profbridge/access.h"

#include "access/access_values.h"
#include "util/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Copied plugin options: keys and values owned here. */
typedef struct kv_store {
    pb_kv *kv;
    size_t n, cap;
} kv_store;

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Sets key to value (replacing an earlier value). Returns 0 or PB_ENOMEM. */
static int kv_put(kv_store *s, const char *key, const char *value, pb_error *err) {
    char *v = dup_str(value);
    if (!v) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->kv[i].key, key) == 0) {
            free((char *)s->kv[i].value);
            s->kv[i].value = v;
            return PB_OK;
        }
    char *k = dup_str(key);
    if (!k) goto oom;
    if (pbu_grow((void **)&s->kv, &s->cap, s->n + 1, sizeof *s->kv)) goto oom;
    s->kv[s->n++] = (pb_kv){k, v};
    return PB_OK;
oom:
    free(k);
    free(v);
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
}

static void kv_free(kv_store *s) {
    for (size_t i = 0; i < s->n; i++) {
        free((char *)s->kv[i].key);
        free((char *)s->kv[i].value);
    }
    free(s->kv);
}

static int parse_flag(const char *key, const char *v, int *out, pb_error *err) {
    if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) *out = 1;
    else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) *out = 0;
    else return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "1 or 0", v);
    return PB_OK;
}

/* A decimal number; "unlimited" is `unlimited` when that is not 0. */
static int parse_u64(const char *key, const char *v, uint64_t unlimited, uint64_t *out, pb_error *err) {
    if (unlimited && strcmp(v, "unlimited") == 0) {
        *out = unlimited;
        return PB_OK;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long n = (*v >= '0' && *v <= '9') ? strtoull(v, &end, 10) : 0;
    if (!end || *end || errno)
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key,
                               unlimited ? "a decimal number or 'unlimited'" : "a decimal number", v);
    *out = (uint64_t)n;
    return PB_OK;
}

/* ---- read options ---- */

typedef struct read_handle {
    pb_read_options o; /* first: the handle is a pb_read_options */
    kv_store kv;
    char *format;
} read_handle;

int pb_read_options_new(pb_read_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_read_options_new: out is NULL");
    read_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    h->o = (pb_read_options)PB_READ_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

int pb_read_options_set(pb_read_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_read_options_set: NULL argument");
    read_handle *h = (read_handle *)(void *)o;
    if (strcmp(key, "format") == 0) {
        const pb_format *f = pb_format_lookup(value);
        if (!f) return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "the name of a format plugin", value);
        char *d = dup_str(pb_format_name(f));
        if (!d) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
        free(h->format);
        h->format = d;
        o->format = d;
        return PB_OK;
    }
    if (strcmp(key, "lenient") == 0) return parse_flag(key, value, &o->lenient, err);
    if (strcmp(key, "llvm-view") == 0) return parse_flag(key, value, &o->llvm_view, err);
    if (strcmp(key, "max-input-size") == 0) return parse_u64(key, value, PB_NO_LIMIT, &o->max_input_size, err);
    if (strcmp(key, "max-inflation") == 0) return parse_u64(key, value, PB_NO_LIMIT, &o->max_inflation, err);
    if (strcmp(key, "llvm-version") == 0) return pbi_access_parse_release(key, value, &o->llvm_release, err);
    int rc = kv_put(&h->kv, key, value, err);
    o->kv = h->kv.kv;
    o->nkv = h->kv.n;
    return rc;
}

void pb_read_options_set_diag(pb_read_options *o, pb_diag_fn fn, void *ctx) {
    if (!o) return;
    o->diag = fn;
    o->diag_ctx = ctx;
}

void pb_read_options_free(pb_read_options *o) {
    if (!o) return;
    read_handle *h = (read_handle *)(void *)o;
    kv_free(&h->kv);
    free(h->format);
    free(h);
}

/* ---- write options ---- */

typedef struct write_handle {
    pb_write_options o; /* first: the handle is a pb_write_options */
    kv_store kv;
} write_handle;

int pb_write_options_new(pb_write_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_write_options_new: out is NULL");
    write_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    h->o = (pb_write_options)PB_WRITE_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

int pb_write_options_set(pb_write_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_write_options_set: NULL argument");
    write_handle *h = (write_handle *)(void *)o;
    if (strcmp(key, "llvm-version") == 0) return pbi_access_parse_release(key, value, &o->llvm_release, err);
    int rc = kv_put(&h->kv, key, value, err);
    o->kv = h->kv.kv;
    o->nkv = h->kv.n;
    return rc;
}

void pb_write_options_set_diag(pb_write_options *o, pb_diag_fn fn, void *ctx) {
    if (!o) return;
    o->diag = fn;
    o->diag_ctx = ctx;
}

void pb_write_options_free(pb_write_options *o) {
    if (!o) return;
    write_handle *h = (write_handle *)(void *)o;
    kv_free(&h->kv);
    free(h);
}

/* ---- merger options ---- */

typedef struct merger_handle {
    pb_merger_options o; /* first: the handle is a pb_merger_options */
    char *keep, *drop;
} merger_handle;

int pb_merger_options_new(pb_merger_options **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_merger_options_new: out is NULL");
    merger_handle *h = calloc(1, sizeof *h);
    *out = NULL;
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    h->o = (pb_merger_options)PB_MERGER_OPTIONS_INIT;
    *out = &h->o;
    return PB_OK;
}

static int set_regex(char **slot, const char **field, const char *key, const char *value, pb_error *err) {
    char *d = dup_str(value);
    if (!d) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
    free(*slot);
    *slot = d;
    *field = d;
    return PB_OK;
}

int pb_merger_options_set(pb_merger_options *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_merger_options_set: NULL argument");
    merger_handle *h = (merger_handle *)(void *)o;
    uint64_t v = 0;
    int rc = PB_OK;
    if (strcmp(key, "threads") == 0) {
        if (!(rc = parse_u64(key, value, 0, &v, err))) o->threads = v > 1024 ? 1024u : (unsigned)v;
    } else if (strcmp(key, "failure-mode") == 0) {
        if (strcmp(value, "any") == 0) o->failure_mode = PB_MERGE_FAIL_ANY;
        else if (strcmp(value, "all") == 0) o->failure_mode = PB_MERGE_FAIL_ALL;
        else if (strcmp(value, "warn") == 0) o->failure_mode = PB_MERGE_FAIL_WARN;
        else rc = pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "any, all or warn", value);
    } else if (strcmp(key, "llvm-version") == 0) {
        rc = pbi_access_parse_release(key, value, &o->llvm_release, err);
    } else if (strcmp(key, "max-count") == 0) {
        rc = parse_u64(key, value, 0, &o->max_count, err);
    } else if (strcmp(key, "keep-all-values") == 0) {
        rc = parse_flag(key, value, &o->keep_all_values, err);
    } else if (strcmp(key, "writer-contexts") == 0) {
        rc = parse_flag(key, value, &o->writer_contexts, err);
    } else if (strcmp(key, "trace-reservoir") == 0) {
        rc = parse_u64(key, value, 0, &o->trace_reservoir, err);
    } else if (strcmp(key, "trace-max-length") == 0) {
        rc = parse_u64(key, value, 0, &o->trace_max_length, err);
    } else if (strcmp(key, "keep-functions") == 0) {
        rc = set_regex(&h->keep, &o->keep_functions, key, value, err);
    } else if (strcmp(key, "drop-functions") == 0) {
        rc = set_regex(&h->drop, &o->drop_functions, key, value, err);
    } else {
        rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "unknown merger option '%s'", key);
    }
    return rc;
}

void pb_merger_options_set_read(pb_merger_options *o, const pb_read_options *ro) {
    if (o) o->read = ro;
}

void pb_merger_options_set_diag(pb_merger_options *o, pb_diag_fn fn, void *ctx) {
    if (!o) return;
    o->diag = fn;
    o->diag_ctx = ctx;
}

void pb_merger_options_set_failed(pb_merger_options *o, pb_merger_failure_fn fn, void *ctx) {
    if (!o) return;
    o->failed = fn;
    o->failed_ctx = ctx;
}

void pb_merger_options_free(pb_merger_options *o) {
    if (!o) return;
    merger_handle *h = (merger_handle *)(void *)o;
    free(h->keep);
    free(h->drop);
    free(h);
}

/* ---- merge output (merge.h pb_merge_output) ---------------------------------- */

typedef struct merge_output_handle {
    pb_merge_output o; /* first: the handle is a pb_merge_output * */
    kv_store kv;       /* writer plugin options */
    char *indexed;
} merge_output_handle;

int pb_merge_output_options_new(pb_merge_output **out, pb_error *err) {
    pb_error_clear(err);
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_merge_output_options_new: out is NULL");
    *out = NULL;
    merge_output_handle *h = calloc(1, sizeof *h);
    if (!h) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    pb_merge_output d = PB_MERGE_OUTPUT_INIT;
    h->o = d;
    *out = &h->o;
    return PB_OK;
}

int pb_merge_output_options_set(pb_merge_output *o, const char *key, const char *value, pb_error *err) {
    pb_error_clear(err);
    if (!o || !key || !value)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, key, "pb_merge_output_options_set: NULL argument");
    merge_output_handle *h = (merge_output_handle *)(void *)o;
    int rc = PB_OK;
    if (strcmp(key, "format") == 0) {
        const pb_format *f = pb_format_lookup(value);
        if (!f) return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, key, "a format's name", value);
        o->format = f;
    } else if (strcmp(key, "llvm-version") == 0) {
        if (!(rc = pbi_access_parse_release(key, value, &o->llvm_release, err))) o->release_explicit = 1;
    } else if (strcmp(key, "indexed-version") == 0) {
        char *d = dup_str(value);
        if (!d) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory");
        free(h->indexed);
        h->indexed = d;
        o->indexed_version = d;
    } else if (strcmp(key, "sparse") == 0) {
        rc = parse_flag(key, value, &o->sparse, err);
    } else if (strcmp(key, "keep-vtable-symbols") == 0) {
        rc = parse_flag(key, value, &o->keep_vtable_symbols, err);
    } else {
        /* a writer plugin's option */
        rc = kv_put(&h->kv, key, value, err);
        o->kv = h->kv.kv;
        o->nkv = h->kv.n;
    }
    return rc;
}

void pb_merge_output_options_free(pb_merge_output *o) {
    if (!o) return;
    merge_output_handle *h = (merge_output_handle *)(void *)o;
    kv_free(&h->kv);
    free(h->indexed);
    free(h);
}
