/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_prepared.c -- a read in two halves (pb_prepare_file, pb_read_prepared).
 *
 * Why: `merge --num-threads N` reads inputs ahead on worker threads. A whole
 * input model waiting to be merged costs as much memory as the merged output
 * (they hold the same functions), and that, not the time, was what a
 * threaded merge paid over a single-threaded one. A plugin with two halves
 * lets the workers do only the part that needs no accumulator (load the
 * bytes, decode and index the names) and the merging thread stream the
 * records into the accumulator, as a single-threaded merge does: its visit
 * is given the prepared state (registry/read_merge.c).
 */
#include <stdlib.h>
#include <string.h>

#include "profbridge/sys/format.h"
#include "registry/registry.h"
#include "registry/read_merge.h"
#include "util/api.h"

struct pb_prepared {
    const pb_format *f;
    char *name;        /* the source's name, for errors */
    pb_source *src;    /* kept while the plugin's state points into its bytes */
    int own_src;       /* 0: the caller's (pb_prepare) */
    void *state;       /* the plugin's first half (f->prepare), or NULL */
    pb_profile *model; /* a plugin without halves: its whole profile */
    int used;
};

static char *copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

static int prepare(pb_prepared **out, const char *path, pb_source *src, const pb_read_options *o,
                   pb_error *err) {
    pb_read_options defaults = PB_READ_OPTIONS_INIT;
    if (!o) o = &defaults;
    *out = NULL;
    pb_prepared *pr = calloc(1, sizeof *pr);
    if (!pr) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int rc = 0;
    if (src) pr->src = src;
    else rc = pb_source_open_file(&pr->src, path, err), pr->own_src = 1;
    if (rc == 0) pb_source_set_limits(pr->src, o->max_input_size, o->max_inflation);
    if (rc == 0 && !(pr->name = copy(pb_source_name(pr->src))))
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    pbi_named_diag nd;
    pb_read_options named = pbi_named_options(o, &nd, pr->name);
    o = &named;
    if (rc == 0) rc = pbi_read_format(pr->src, o, &pr->f, err);
    if (rc == 0 && pr->f->prepare) {
        rc = pr->f->prepare(&pr->state, pr->src, o, err);
    } else if (rc == 0) {
        pb_read_options whole = *o;
        whole.merge_into = NULL; /* the model is what we keep */
        rc = pr->f->read(&pr->model, pr->src, &whole, err);
        if (pr->own_src) pb_source_free(pr->src); /* a binary reader's copy of the bytes is not needed now */
        pr->src = NULL;
    }
    if (rc) {
        if (pr->name) pb_error_set_source(err, pr->name);
        pb_prepared_free(pr);
        return rc;
    }
    *out = pr;
    return 0;
}

int pb_prepare_file(pb_prepared **out, const char *path, const pb_read_options *o, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (o && pbu_check_version(err, "pb_read_options", o->version, PB_READ_OPTIONS_VERSION)) return PB_EINVAL;
    *out = NULL;
    if (!path) return pbu_null_arg(err, __func__, "path");
    return prepare(out, path, NULL, o, err);
}

int pb_prepare(pb_prepared **out, pb_source *src, const pb_read_options *o, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (o && pbu_check_version(err, "pb_read_options", o->version, PB_READ_OPTIONS_VERSION)) return PB_EINVAL;
    *out = NULL;
    if (!src) return pbu_null_arg(err, __func__, "src");
    return prepare(out, NULL, src, o, err);
}

int pb_read_prepared(pb_profile **out, pb_prepared *pr, const pb_read_options *o, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (o && pbu_check_version(err, "pb_read_options", o->version, PB_READ_OPTIONS_VERSION)) return PB_EINVAL;
    *out = NULL;
    if (!pr) return pbu_null_arg(err, __func__, "pr");
    pb_read_options defaults = PB_READ_OPTIONS_INIT;
    if (!o) o = &defaults;
    *out = NULL;
    if (pr->used) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "a prepared input is read only once");
    pr->used = 1;
    int rc = 0;
    if (pr->state) {
        pbi_named_diag nd;
        pb_read_options named = pbi_named_options(o, &nd, pr->name);
        if (o->merge_into && pr->f->merges_by_visit)
            rc = pbi_merge_by_visit(pr->f, pr->src, pr->state, &named, err);
        else
            rc = pr->f->read_prepared(out, pr->state, &named, err);
    } else {
        *out = pr->model;
        pr->model = NULL;
    }
    if (rc == 0) rc = pbi_merge_if_asked(out, o, err);
    if (rc) pb_error_set_source(err, pr->name);
    return rc;
}

int pb_prepared_streams(const pb_prepared *pr) { return pr && pr->state != NULL; }

void pb_prepared_free(pb_prepared *pr) {
    if (!pr) return;
    if (pr->state) pr->f->free_prepared(pr->state);
    pb_profile_free(pr->model);
    if (pr->own_src) pb_source_free(pr->src);
    free(pr->name);
    free(pr);
}
