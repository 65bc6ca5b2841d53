/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_merge.c -- pb_read_options.merge_into, over the record-visitor
 * contract: the input is visited (pb_format.visit) and every record merged
 * into the destination as it is read (merge/merge_stream.h), then the whole
 * input's head (end_input: flags, binary ids, traces, symbols). Merging N
 * inputs so holds the destination plus one input's bytes, never an input's
 * model. One mechanism for every plugin that streams and whose visit sees
 * what a model read checks (pb_format.merges_by_visit); the others are read
 * as a model and merged (pbi_merge_if_asked).
 */
#include "registry/read_merge.h"
#include "merge/merge_stream.h"

typedef struct merge_visit {
    pbi_merge_stream ms;
} merge_visit;

static int on_begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    merge_visit *mv = ctx;
    (void)k;
    (void)head;
    (void)err;
    pbi_merge_stream_new_side(&mv->ms); /* each profile's records name its own head's symbols */
    return 0;
}

static int on_record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                     pb_error *err) {
    merge_visit *mv = ctx;
    /* the input's kind so far, for the check before the first record (the
     * head carries its profile's kind from its begin on) */
    mv->ms.flags |= pb_profile_flags(head);
    pb_str id = PB_NONE;
    return pbi_merge_stream_function(&mv->ms, head, r, name, len, &id, err);
}

static int on_end_input(void *ctx, const pb_profile *all, pb_error *err) {
    merge_visit *mv = ctx;
    return pbi_merge_stream_finish(&mv->ms, all, err);
}

int pbi_merge_by_visit(const pb_format *f, pb_source *in, void *prepared, const pb_read_options *o,
                       pb_error *err) {
    static const pb_record_visitor visitor = {on_begin, on_record, NULL, on_end_input};
    merge_visit mv;
    int rc = pbi_merge_stream_init(&mv.ms, o->merge_into, o->merge, err);
    if (rc) return rc;
    rc = f->visit(in, prepared, o, &visitor, &mv, err);
    if (rc) pbi_merge_stream_fail(&mv.ms);
    pbi_merge_stream_free(&mv.ms);
    return rc;
}
