/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_block.h -- a block a thread lends to the sources it reads one after
 * another (internal).
 *
 * pb_source_map reads a small regular file into a heap block on the
 * process's main thread and maps it on any other: there glibc trims the
 * thread's arena as blocks are freed, so every input's pages fault afresh,
 * and a mapping's munmap interrupts every CPU the process runs on. A merger
 * thread that reads many small inputs in turn lends each source the same
 * block instead: its pages fault once, and nothing is unmapped (200
 * .profdata of 1.2 MB merged on two context threads: see merger_run.c).
 * The feed, whose workers read inputs for the merging thread, lends input
 * i block i % (threads + 1) (merger_feed.c).
 */
#ifndef PBI_READ_BLOCK_H
#define PBI_READ_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/io.h"

/* All zero: no block yet. */
typedef struct pbi_read_block {
    uint8_t *data;
    size_t cap;
    int busy; /* a source holds it */
} pbi_read_block;

/* s reads a small regular file (pb_source_map) into b, grown as needed,
 * unless another source holds b. b must outlive s; s gives it back when it
 * is freed or rewound. */
void pbi_source_lend_block(pb_source *s, pbi_read_block *b);

void pbi_read_block_free(pbi_read_block *b);

#endif
