/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* diag.h -- reporting diagnostics from plugins (internal). A writer's
 * notice, which needs the write options, is the model's (model/write_notice.h). */
#ifndef PB_DIAG_H
#define PB_DIAG_H

#include <stdarg.h>

#include <stdint.h>

#include "profbridge/error.h"

/* The words of LLVM's counter_value_too_large (a raw counter above 2^56),
 * which the raw reader warns with ("...: N", N the first such counter) and
 * merge turns into a failed input from LLVM 18 on (src/llvm/target.h). */
#define PBU_LARGE_COUNTER_WORDS "excessively large counter value suggests corrupted profile data"

/* pb_diag with a va_list. */
void pbu_vdiag(pb_diag_fn fn, void *ctx, int severity, int code, const char *source,
               uint64_t offset, const char *path, const char *fmt, va_list ap);

#endif
