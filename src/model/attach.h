/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * attach.h -- what a reader may leave on the profile it merges into
 * (pb_read_options.merge_into) for its next input of the same merge
 * (internal). A merge of 1,000 raws of one program decoded and hashed the
 * same names section 1,000 times; the raw reader keeps the decoded table on
 * the destination, keyed by the section's exact bytes, and the next input
 * whose section is byte-identical takes it (formats/raw/raw_names_cache.c).
 * An attachment is a cache: it changes no content of the profile, is not
 * copied or compared, and is freed with the profile. Only the thread that
 * merges into the profile may use it (as it alone may change the profile).
 */
#ifndef PB_MODEL_ATTACH_H
#define PB_MODEL_ATTACH_H

#include "profbridge/profile.h"

/* The data attached under tag (a caller's static address), or NULL. */
void *pbi_profile_attached(const pb_profile *p, const void *tag);

/* Attaches data under tag, freed by free_fn (data) when replaced or with p.
 * Replaces (and frees) what tag held. Returns 0, or PB_ENOMEM when it
 * cannot be kept: then data stays the caller's and tag's old data stays. */
int pbi_profile_attach(pb_profile *p, const void *tag, void *data, void (*free_fn)(void *));

/* Frees every attachment (pb_profile_free). */
void pbi_profile_detach_all(pb_profile *p);

#endif
