/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * stl_algo.h -- libstdc++'s std::nth_element, element for element
 * (internal).
 *
 * The C++ standard fixes what nth_element guarantees (the nth element in
 * place, smaller ones before, larger after) but not how the others end up
 * ordered. LLVM 17-19's balanced partitioning (order.c) splits its nodes
 * with nth_element and later steps depend on the order the others were
 * left in, so reproducing llvm-profdata order means reproducing libstdc++'s
 * introselect exactly: median-of-three pivot, unguarded Hoare partition,
 * heap select after 2*floor(log2 n) rounds, insertion sort below 4.
 */
#ifndef PB_STL_ALGO_H
#define PB_STL_ALGO_H

#include <stddef.h>
#include <stdint.h>

/* std::nth_element(v, v + nth, v + n) with operator< on distinct values;
 * nothing happens when nth >= n (as in libstdc++). */
void pbi_stl_nth_element_u32(uint32_t *v, size_t n, size_t nth);

#endif
