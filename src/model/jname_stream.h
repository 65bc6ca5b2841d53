/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jname_stream.h -- what a writer needs to put Java records in LLVM name
 * order and write their names without keeping the rendered names alive
 * (internal): each name's NameRef and length from one rendering pass, and
 * a comparison of two records' names that renders nothing in the common
 * case. The names are rendered again when written (pbi_jname_render).
 *
 * Why: iprof -> indexed kept every rendered name (about 1.3 KB each, 1 GB
 * for 220,000 methods) alive from the hashing to the end of the write; the
 * kernel clearing those fresh pages was a fifth of the run and the peak
 * memory 1.8x a bare jansson load + dump of the same file (issue 25).
 */
#ifndef PB_MODEL_JNAME_STREAM_H
#define PB_MODEL_JNAME_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "profbridge/profile.h"

/*
 * For every Java record i of p with counters: ref[i] = pb_md5_ref of its
 * rendered name and len[i] = its length (other records: 0, 0). The names
 * are rendered into per-thread scratch and hashed, on two threads where the
 * machine has two cores; none is kept. Returns 0, or nonzero when a name
 * cannot be rendered (no memory, a dangling id, 4 GB or longer): the
 * caller then takes the path that reports it (pb_profile_record_name).
 */
int pbi_jname_refs(const pb_profile *p, uint64_t *ref, uint32_t *len);

/* Orders records by their LLVM names' bytes (rendered Java names, function
 * names) without rendering in the common case: two Java records of one
 * kind compare by the place of each frame's method descriptor in byte
 * order (rank) and the bytes of the bci that follows. */
typedef struct pbi_jorder {
    const pb_profile *p;
    uint32_t *rank; /* per method: place of its descriptor followed by ':' */
    size_t nm;      /* methods ranked */
    uint8_t tag_rank[PB_REC_KIND_COUNT]; /* per Java kind: its tag's place among the tags */
    pb_buf a, b;    /* the names of a comparison that renders */
    int failed;     /* a rendering failed (no memory): the order is not valid */
} pbi_jorder;

/* Ranks p's methods. Returns 0 or nonzero (no memory, a descriptor that
 * cannot be rendered); o is ready for pbi_jorder_free either way. */
int pbi_jorder_init(pbi_jorder *o, const pb_profile *p);
void pbi_jorder_free(pbi_jorder *o);
/* A Java record with frames (not jmonitor): 1 and *key, an integer that
 * orders such records as their names do where two keys differ (the tag's
 * place, then the first frame's method rank); 0 for any other record. */
int pbi_jorder_key(const pbi_jorder *o, const pb_record *r, uint64_t *key);
/* <0, 0 or >0 as the LLVM names of records x and y of p compare (bytes,
 * shorter first); on a failure to render, 0 and o->failed set. */
int pbi_jorder_cmp(pbi_jorder *o, const pb_record *x, const pb_record *y);

#endif
