/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sort.h -- stable sort of u32 ids with a context-taking comparator
 * (C11 has no qsort_r; the model sorts ids by table content). Internal. */
#ifndef PB_SORT_H
#define PB_SORT_H

#include <stddef.h>
#include <stdint.h>

typedef int (*pbu_id_cmp)(void *ctx, uint32_t a, uint32_t b);

/* Sorts ids[0..n) stably. Returns 0 or PB_ENOMEM. */
int pbu_sort_ids(uint32_t *ids, size_t n, pbu_id_cmp cmp, void *ctx);

/* Sorts v[0..n) descending (radix sort; counts for summaries). Returns 0 or
 * PB_ENOMEM. */
int pbu_sort_u64_desc(uint64_t *v, size_t n);

#endif
