/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* registry.h -- what the reading entry points (registry.c, read_prepared.c) share. */
#ifndef PBI_REGISTRY_H
#define PBI_REGISTRY_H

#include "profbridge/sys/format.h"

/* The plugin that reads `in`: o->format's, or the content auction's winner;
 * an error when there is none or it cannot read. */
int pbi_read_format(pb_source *in, const pb_read_options *o, const pb_format **out, pb_error *err);

/* After a plugin's read: when o->merge_into is set and the plugin returned a
 * model anyway (it does not stream), merges and frees it (*out = NULL). */
int pbi_merge_if_asked(pb_profile **out, const pb_read_options *o, pb_error *err);

/* Diagnostics that name no file get the input's name (a reader warns
 * without knowing it; the CLI printed "<input>"). pbi_named_options returns
 * a copy of o whose diag goes through nd, which must outlive the read. */
typedef struct pbi_named_diag {
    pb_diag_fn fn;
    void *ctx;
    const char *name;
} pbi_named_diag;
pb_read_options pbi_named_options(const pb_read_options *o, pbi_named_diag *nd, const char *name);

#endif
