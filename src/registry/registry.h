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

/* What LLVM sees of a profile (pb_read_options.llvm_view; show's LLVM view). */
/*
 * Replaces *pp by the profile llvm-profdata of `release` (0 = 19) reads
 * from the .profdata `convert` writes of it: written with the indexed
 * plugin and read back (same writer and options, so the same records in
 * the same order). name names the bytes in errors. Returns 0, or
 * PB_EUNSUPPORTED (no indexed plugin built in), PB_EINVAL (a release out of
 * range), PB_ENOMEM or the writer's error; then *pp is unchanged.
 */
int pbi_llvm_view(pb_profile **pp, const char *name, int release, pb_error *err);

#endif
