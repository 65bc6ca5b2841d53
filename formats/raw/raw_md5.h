/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw_md5.h -- the names of a raw profile's names section and their NameRefs
 * (raw_md5.c hashes them, on two cores where there are two). */
#ifndef PB_RAW_MD5_H
#define PB_RAW_MD5_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

/* One name of the decoded names text. */
typedef struct pbi_raw_name_ent {
    uint64_t md5;
    size_t off;   /* into the decoded names text */
    uint32_t len; /* (the reader refuses a longer name: 24 bytes an entry, not 32) */
    pb_str id;    /* interned (in the merge destination when streaming), PB_NONE until used */
} pbi_raw_name_ent;

/* Sets items[i].md5 to the NameRef of text[off .. off+len) for every i < n.
 * Cannot fail; the result does not depend on the number of threads used. */
void pbi_raw_md5_all(const char *text, pbi_raw_name_ent *items, size_t n);

#endif
