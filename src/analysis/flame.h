/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame.h -- flame graphs from iprof sampling profiles (internal).
 *
 * iprof `samplingProfiles` entries are whole stacks (callee first, the
 * thread's entry last) with the number of times each was seen. pbi_flame_build
 * turns them into root-first stacks of frame names, sums identical stacks and
 * sorts them; the writers print the stacks as folded lines, as a speedscope
 * JSON file or as a self-contained interactive SVG (docs/types-flame.md).
 */
#ifndef PB_FLAME_H
#define PB_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/intern.h"
#include "profbridge/profile.h"

typedef struct pbi_flame_stack {
    uint32_t *frames; /* indices into pbi_flame.names, root first */
    uint32_t depth;
    uint64_t count;   /* samples (saturating sum of identical stacks) */
} pbi_flame_stack;

typedef struct pbi_flame {
    const char **names;    /* distinct frame names, sorted as bytes (bytes in `store`) */
    pbu_intern store;      /* owns the names' bytes */
    size_t num_names;
    pbi_flame_stack *stacks; /* sorted frame by frame (names as bytes, a stack before its extensions) */
    size_t num_stacks;
    uint64_t total;        /* Σ of the counts (saturating) */
    size_t num_samples;    /* sampling entries read */
} pbi_flame;

/*
 * Collects the PB_REC_JAVA_SAMPLE records of `p`, and the LLVM function
 * records named "jsample:..." (an iprof profile converted to LLVM; their
 * frames are parsed from the name and interned in p, hence not const). Frames are named
 * "Decl.name(P1,P2)Ret:bci" (no ":bci" when no_bci), array types in Java
 * source form; ';', control characters and bytes that are not UTF-8 become
 * '?' (folded stacks and JSON reserve them). Fills *out (free with
 * pbi_flame_free, also after a failure). 0 or PB_ENOMEM. A profile without
 * samples gives num_stacks = 0.
 */
int pbi_flame_build(pb_profile *p, int no_bci, pbi_flame *out, pb_error *err);
void pbi_flame_free(pbi_flame *f);

/* "frame;frame;frame count\n" per stack, in the sorted order. */
void pbi_flame_folded(const pbi_flame *f, pb_buf *out);

/* speedscope's file format: one "sampled" profile named `name`, unit "none". */
void pbi_flame_speedscope(const pbi_flame *f, const char *name, pb_buf *out);

typedef struct pbi_flame_svg_opts {
    unsigned width;       /* image width in pixels (>= 100) */
    const char *title;    /* heading */
    int distinct_colors;  /* test mode: each frame its own colour, no labels */
    double min_width;     /* frames narrower than this (pixels at `width`) merge into
                             one U+2026 frame per parent; 0 = keep them all */
} pbi_flame_svg_opts;
#define PBI_FLAME_SVG_DEFAULT_MIN_WIDTH 1.0
#define PBI_FLAME_SVG_OPTS_INIT {1200, NULL, 0, PBI_FLAME_SVG_DEFAULT_MIN_WIDTH}

/* A classic flame graph (root at the bottom, width proportional to count,
 * <title> per frame, click to zoom, search) with an inline script and
 * nothing external. The script works on its own <svg class="pb-flame">
 * element, so the SVG may be inlined in an HTML page, several times. */
void pbi_flame_svg(const pbi_flame *f, const pbi_flame_svg_opts *o, pb_buf *out);

#endif
