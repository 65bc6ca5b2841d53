/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * stl_algo.h -- libstdc++'s std::sort, std::nth_element and heap
 * algorithms, element for element, on arrays of any element type
 * (internal).
 *
 * The C++ standard fixes what these guarantee (a sorted range; the nth
 * element in place, smaller ones before, larger after; a heap's top) but
 * not where equal or unsorted elements end up, and LLVM's output depends
 * on it: llvm-cov export's lcov branches before 21 (llvm::sort by line and
 * column), LLVM 17-19's balanced partitioning (order.c splits its nodes
 * with nth_element, and later steps depend on the order the others were
 * left in), llvm-profdata show --topn's std::priority_queue, the value
 * sites' std::sort. So libstdc++'s steps are followed exactly, one
 * implementation for every element type: introsort (median-of-three
 * pivot, unguarded Hoare partition, heap sort after 2*floor(log2 n)
 * rounds, insertion sort of runs up to 16), introselect (heap select,
 * insertion sort below 4), __push_heap and __adjust_heap.
 *
 * less(a, b, ctx) is the comparator ("a before b"), a strict weak order.
 * Elements are moved with memcpy; an element is at most PBI_STL_MAX_ELEM
 * bytes (each caller checks its type with _Static_assert).
 */
#ifndef PB_STL_ALGO_H
#define PB_STL_ALGO_H

#include <stddef.h>
#include <stdint.h>

#define PBI_STL_MAX_ELEM 128

/* libstdc++'s _S_threshold: std::sort of at most this many elements is
 * its __insertion_sort alone, which moves each element left past those
 * strictly after it, i.e. a stable insertion sort (a caller with a hot
 * path of small ranges may use its own typed one there). */
#define PBI_STL_SORT_THRESHOLD 16

typedef int (*pbi_stl_less)(const void *a, const void *b, void *ctx);

/* std::sort(v, v + n, less) */
void pbi_stl_sort(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx);

/* std::nth_element(v, v + nth, v + n, less); nothing happens when
 * nth >= n (as in libstdc++). */
void pbi_stl_nth_element(void *v, size_t n, size_t nth, size_t size, pbi_stl_less less, void *ctx);

/* std::push_heap(v, v + n, less): v[0, n - 1) is a heap, v[n - 1] joins it. */
void pbi_stl_push_heap(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx);

/* std::pop_heap(v, v + n, less): the top moves to v[n - 1], v[0, n - 1)
 * stays a heap. */
void pbi_stl_pop_heap(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx);

/* std::nth_element on u32 with operator< (distinct values). */
void pbi_stl_nth_element_u32(uint32_t *v, size_t n, size_t nth);

#endif
