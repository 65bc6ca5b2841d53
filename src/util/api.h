/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * api.h -- what every public entry point does before its work (internal).
 *
 * include/profbridge/error.h promises that a public function taking a
 * pb_error fills it afresh: an error left from an earlier call never shows
 * through. pbu_api_enter() is that reset. Inside the library the first error
 * still wins (pb_error_set does not overwrite), so the innermost cause is the
 * one reported; only the entry of a public function starts over.
 */
#ifndef PB_API_H
#define PB_API_H

#include "profbridge/error.h"

/* Resets *err (NULL allowed) as pb_error_clear does. Checks the fields first
 * so that the hot entry points (pb_sink_write per line, pb_source_read per
 * block) do not clear 1.5 KB that is already clear. */
static inline void pbu_api_enter(pb_error *err) {
    if (err && (err->code || err->offset != PB_NO_OFFSET || err->line || err->column ||
                err->source[0] || err->path[0] || err->expected[0] || err->found[0] ||
                err->message[0]))
        pb_error_clear(err);
}

/* PB_EINVAL naming the function and the NULL argument; for the checks at the
 * top of a public function: `if (!p) return pbu_null_arg(err, __func__, "p");` */
int pbu_null_arg(pb_error *err, const char *func, const char *arg);

/* The check of a versioned options struct's first field: 0 when `version`
 * is one this library knows (1..known), else PB_EINVAL
 * ("pb_read_options: version 7 unknown (this library knows 1)"). */
int pbu_check_version(pb_error *err, const char *type, unsigned version, unsigned known);

#endif
