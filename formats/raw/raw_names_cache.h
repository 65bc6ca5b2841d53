/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_names_cache.h -- a merge's decoded names section, kept for its next
 * raw input (model/attach.h). Raws of one program carry byte-identical
 * names sections; decoding (zlib) and hashing (MD5 of every name) one was a
 * third of merging 1,000 of them (callgrind, bench/many_merge.sh). The table
 * is keyed by the section's exact bytes, so a hit is the table decoding
 * those bytes would build, never a guess.
 */
#ifndef PB_RAW_NAMES_CACHE_H
#define PB_RAW_NAMES_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "raw_md5.h"
#include "util/buf.h"

/* One decoded names section: the text (names NUL-separated), its entries
 * with their NameRefs, and the open-addressing index over them (raw_read.c's
 * find_name). */
typedef struct pbi_raw_names {
    pb_buf text;
    pbi_raw_name_ent *ne;
    size_t nne;
    uint32_t *slot; /* entry index + 1, 0 = empty; mask + 1 slots */
    size_t mask;
} pbi_raw_names;

/* The table dst keeps for a names section of exactly these bytes, or NULL.
 * Read only: it stays dst's. */
const pbi_raw_names *pbi_raw_names_cached(const pb_profile *dst, const uint8_t *section, size_t len);

/* Keeps *t (its arrays: the caller then only borrows them) on dst for the
 * section's bytes, replacing the table kept before. Returns 0, or
 * PB_ENOMEM: then nothing is kept and *t stays the caller's. */
int pbi_raw_names_keep(pb_profile *dst, const uint8_t *section, size_t len, const pbi_raw_names *t);

#endif
