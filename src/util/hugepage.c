/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* hugepage.c -- see hugepage.h. */
#include "util/hugepage.h"

#include <stdint.h>
#include <sys/mman.h>

void pbu_hugepage_hint(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
    uintptr_t start = ((uintptr_t)p + PBU_HUGE_PAGE - 1) & ~(uintptr_t)(PBU_HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)(PBU_HUGE_PAGE - 1);
    if (n < PBU_HUGE_FROM || end <= start) return;
    (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p, (void)n;
#endif
}
