/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * hugepage.h -- asks for transparent huge pages under a big block that is
 * about to be written (internal).
 *
 * A 100k-function coverage export writes some 200 MB of fresh memory once;
 * at a fault per 4 KiB page the faults were a sixth of its time. Linux in
 * its "madvise" mode gives 2 MiB pages to the ranges marked so: the arena's
 * big chunks and the big growing arrays are marked. Elsewhere nothing happens.
 */
#ifndef PB_HUGEPAGE_H
#define PB_HUGEPAGE_H

#include <stddef.h>

/* The size of a huge page, and the least block worth marking. */
#define PBU_HUGE_PAGE ((size_t)2 << 20)
#define PBU_HUGE_FROM ((size_t)4 << 20)

/* Marks the whole huge pages inside [p, p + n) (a hint: a refusal, an old
 * kernel, another system leave 4 KiB pages; nothing fails). */
void pbu_hugepage_hint(void *p, size_t n);

#endif
