/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_parts.c -- the profiles of a raw file, each as read alone, in one
 * pass over its bytes (pb_visit).
 *
 * A raw file may hold several profiles back to back (a program and its
 * shared libraries write into one file). llvm-profdata show lists the
 * records of each profile, so a function in two of them appears twice; the
 * model merges them. show used to read the file again for every profile
 * (raw-profile K, skipping profiles 0..K-1): N+1 parses for N profiles. The
 * visitor hands out every profile once, each in a head of its own, and this
 * file builds one model per profile from it, as the reader builds a model
 * of one profile: records in file order, a (name, hash) pair repeated
 * within the profile merged as llvm-profdata merges it. A file of one
 * profile (nearly all) is then parsed once: that model is the file's.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "show_parts.h"

typedef struct parts {
    pb_profile **v;
    size_t n, cap;
    pb_profile *cur; /* the profile being visited */
    size_t nsym;     /* head symbols copied into cur so far */
    const pb_read_options *o;
    pb_error scratch;
} parts;

/* cur's symbols are head's, in head's order, so value symbols keep their
 * indices: a raw reader adds its vtable names before the records. */
static int copy_symbols(parts *b, const pb_profile *head, pb_error *err) {
    size_t n = pb_profile_symbol_count(head);
    int rc = 0;
    for (; b->nsym < n && !rc; b->nsym++) {
        const pb_symbol *sy = pb_profile_symbol(head, (uint32_t)b->nsym);
        uint32_t id;
        if (sy->placeholder) {
            rc = pb_profile_add_placeholder_symbol(b->cur, sy->placeholder_id, &id, err);
        } else {
            size_t len;
            const char *s = pb_profile_str(head, sy->name, &len);
            rc = pb_profile_add_symbol(b->cur, s, len, &id, err);
        }
        if (!rc && id != b->nsym)
            rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "symbol %zu of a raw profile repeats", b->nsym);
    }
    return rc;
}

static int begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    parts *b = ctx;
    (void)k;
    (void)head;
    b->nsym = 0;
    return pb_profile_new(&b->cur, err);
}

static int record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                  pb_error *err) {
    parts *b = ctx;
    int rc = copy_symbols(b, head, err);
    pb_record t = *r;
    if (!rc) rc = pb_profile_intern(b->cur, name, len, &t.name, err);
    if (rc) return rc;
    rc = pb_profile_add_record(b->cur, &t, NULL, &b->scratch);
    if (rc != PB_EEXIST) {
        if (rc) *err = b->scratch;
        pb_error_clear(&b->scratch);
        return rc;
    }
    pb_error_clear(&b->scratch);
    /* the same (name, hash) again within the profile: merged as the raw
     * reader merges it (formats/raw/raw_read.c add_to_model) */
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.max_values_per_site = PB_MAX_VALUES_PER_SITE_LLVM;
    mo.diag = b->o->diag;
    mo.diag_ctx = b->o->diag_ctx;
    return pb_profile_merge_record(b->cur, &t, &mo, err);
}

static int end(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    parts *b = ctx;
    (void)k;
    int rc = copy_symbols(b, head, err);
    if (!rc) rc = pb_profile_add_run_data(b->cur, head, err);
    if (rc) return rc;
    pb_profile_set_flags(b->cur, pb_profile_flags(head));
    pb_profile_set_origin(b->cur, pb_profile_origin(head));
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4;
        pb_profile **v = realloc(b->v, cap * sizeof *v);
        if (!v) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = b->cur;
    b->cur = NULL;
    return 0;
}

int pbc_show_raw_parts(const uint8_t *data, size_t len, const char *name, const pb_read_options *base,
                       pbi_diag_defer *dd, pb_profile ***out, size_t *nout, pb_error *err) {
    static const pb_record_visitor visitor = {begin, record, end};
    pb_read_options ro = *base;
    ro.format = "raw";
    ro.kv = NULL;
    ro.nkv = 0;
    ro.merge_into = NULL;
    if (base->diag) {
        dd->fn = base->diag;
        dd->ctx = base->diag_ctx;
        ro.diag = pbi_defer_diag;
        ro.diag_ctx = dd;
    }
    parts b;
    memset(&b, 0, sizeof b);
    b.o = &ro;
    pb_error_clear(&b.scratch);
    pb_source *src = NULL;
    int rc = pb_source_open_memory(&src, data, len, name, err);
    if (rc == 0) rc = pb_visit(src, &ro, &visitor, &b, err);
    pb_source_free(src);
    pb_profile_free(b.cur);
    if (rc == 0) {
        *out = b.v;
        *nout = b.n;
        return 0;
    }
    for (size_t k = 0; k < b.n; k++) pb_profile_free(b.v[k]);
    free(b.v);
    return rc;
}
