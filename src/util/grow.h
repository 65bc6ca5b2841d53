/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * grow.h -- the one growing array and the one out-of-memory error of the
 * library (there were six copies of each, with first sizes of 8, 16 and 64
 * and different overflow checks).
 */
#ifndef PBU_GROW_H
#define PBU_GROW_H

#include <stddef.h>

#include "profbridge/error.h"

/* Makes room for `need` elements of `elem` bytes in *arr, whose capacity is
 * *cap elements: doubles from 16. Returns 0, or PB_ENOMEM when the memory
 * or the byte size does not fit (*arr and *cap are then untouched). */
int pbu_grow_to(void **arr, size_t *cap, size_t need, size_t elem);

/* The check inline, the growing out of line: readers call it for every
 * record, and a call per record was a tenth of streaming a big file. */
static inline int pbu_grow(void **arr, size_t *cap, size_t need, size_t elem) {
    return need <= *cap ? 0 : pbu_grow_to(arr, cap, need, elem);
}

/* pbu_grow that says "out of memory" in err when it fails. */
int pbu_grow_err(void **arr, size_t *cap, size_t need, size_t elem, pb_error *err);

/* Sets err to the allocation failure: "cannot allocate WHAT", or "out of
 * memory" when what is NULL. Returns PB_ENOMEM. */
int pbu_nomem(pb_error *err, const char *what);

#endif
