/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* write_notice.c -- a writer's notice: util's pbu_vdiag on the write options'
 * callback. Here and not in util because pb_write_options is the model's
 * (profbridge/format.h). */
#include "model/write_notice.h"

#include <stdarg.h>

#include "util/diag.h"

void pbi_write_notice(const pb_write_options *o, const char *fmt, ...) {
    if (!o || !o->diag) return;
    va_list ap;
    va_start(ap, fmt);
    pbu_vdiag(o->diag, o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL, fmt, ap);
    va_end(ap);
}
