/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_api_output.c -- how the writers' bytes reach the caller's sink: in
 * pieces of a MiB or more while they write (pbi_cov_drain), the rest at the
 * end (pbi_cov_flush). Its own file so that the writers and the entry
 * points that call them are no circle.
 */
#include "coverage/cov_state.h"
#include "util/grow.h"

int pbi_cov_drain(pb_buf *b, pb_sink *sink, pb_error *err) {
    if (pbu_buf_failed(b)) return pbu_nomem(err, "coverage output");
    if (!sink || b->len < ((size_t)1 << 20)) return 0;
    int rc = pb_sink_write(sink, b->data, b->len, err);
    pbu_buf_reset(b);
    return rc;
}

int pbi_cov_flush(pb_buf *b, pb_sink *out, pb_error *err) {
    if (pbu_buf_failed(b)) return pbu_nomem(err, "coverage output");
    if (!b->len) return 0;
    return pb_sink_write(out, b->data, b->len, err);
}
