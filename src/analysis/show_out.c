/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_out.c -- the show printers' output: gathered in a pb_buf (appends
 * that cannot fail one by one: the buffer's failure is sticky) and written
 * to the caller's sink block by block, so a listing is never held whole.
 */
#include "show_llvm_state.h"
#include "util/grow.h"

int pbi_show_flush(pb_buf *b, pb_sink *out, pb_error *err) {
    if (b->failed) return pbu_nomem(err, NULL);
    int rc = b->len ? pb_sink_write(out, b->data, b->len, err) : 0;
    pbu_buf_reset(b);
    return rc;
}
