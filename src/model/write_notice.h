/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* write_notice.h -- a writer's notice to the caller's diagnostics (internal). */
#ifndef PB_WRITE_NOTICE_H
#define PB_WRITE_NOTICE_H

#include "profbridge/format.h"

/* A writer's notice ("dropped 3 kind-2 value sites: ...") to o->diag; nothing
 * when o or o->diag is NULL. Writers never drop data silently: they call this. */
void pbi_write_notice(const pb_write_options *o, const char *fmt, ...) PB_PRINTF(2, 3);

#endif
