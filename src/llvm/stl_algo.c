/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * stl_algo.c -- libstdc++'s introselect (bits/stl_algo.h, bits/stl_heap.h),
 * transcribed step by step so that every element lands where libstdc++
 * leaves it (stl_algo.h says why that matters). Indices stand for
 * libstdc++'s iterators; "a hole" is a slot whose value was moved out.
 */
#include "llvm/stl_algo.h"

typedef ptrdiff_t idx;

static void swap_at(uint32_t *v, idx a, idx b) {
    uint32_t t = v[a];
    v[a] = v[b];
    v[b] = t;
}

/* std::__push_heap */
static void push_heap(uint32_t *v, idx hole, idx top, uint32_t value) {
    idx parent = (hole - 1) / 2;
    while (hole > top && v[parent] < value) {
        v[hole] = v[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    v[hole] = value;
}

/* std::__adjust_heap */
static void adjust_heap(uint32_t *v, idx hole, idx len, uint32_t value) {
    const idx top = hole;
    idx child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (v[child] < v[child - 1]) child--;
        v[hole] = v[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    push_heap(v, hole, top, value);
}

/* std::__make_heap on v[0, len) */
static void make_heap(uint32_t *v, idx len) {
    if (len < 2) return;
    for (idx parent = (len - 2) / 2;; parent--) {
        adjust_heap(v, parent, len, v[parent]);
        if (parent == 0) return;
    }
}

/* std::__heap_select(first, middle, last) */
static void heap_select(uint32_t *v, idx first, idx middle, idx last) {
    make_heap(v + first, middle - first);
    for (idx i = middle; i < last; i++)
        if (v[i] < v[first]) { /* std::__pop_heap(first, middle, i) */
            uint32_t value = v[i];
            v[i] = v[first];
            adjust_heap(v + first, 0, middle - first, value);
        }
}

/* std::__insertion_sort */
static void insertion_sort(uint32_t *v, idx first, idx last) {
    if (first == last) return;
    for (idx i = first + 1; i != last; i++) {
        uint32_t value = v[i];
        if (value < v[first]) { /* move_backward(first, i, i + 1) */
            for (idx k = i; k > first; k--) v[k] = v[k - 1];
            v[first] = value;
        } else { /* std::__unguarded_linear_insert */
            idx k = i, next = i - 1;
            while (value < v[next]) {
                v[k] = v[next];
                k = next--;
            }
            v[k] = value;
        }
    }
}

/* std::__move_median_to_first(result, a, b, c) */
static void move_median_to_first(uint32_t *v, idx result, idx a, idx b, idx c) {
    if (v[a] < v[b]) {
        if (v[b] < v[c]) swap_at(v, result, b);
        else if (v[a] < v[c]) swap_at(v, result, c);
        else swap_at(v, result, a);
    } else if (v[a] < v[c]) {
        swap_at(v, result, a);
    } else if (v[b] < v[c]) {
        swap_at(v, result, c);
    } else {
        swap_at(v, result, b);
    }
}

/* std::__unguarded_partition(first, last, pivot) */
static idx unguarded_partition(uint32_t *v, idx first, idx last, idx pivot) {
    for (;;) {
        while (v[first] < v[pivot]) first++;
        last--;
        while (v[pivot] < v[last]) last--;
        if (!(first < last)) return first;
        swap_at(v, first, last);
        first++;
    }
}

/* std::__lg */
static idx lg(idx n) {
    idx k = 0;
    while (n >>= 1) k++;
    return k;
}

void pbi_stl_nth_element_u32(uint32_t *v, size_t n, size_t nth_) {
    idx first = 0, last = (idx)n, nth = (idx)nth_;
    if (first == last || nth >= last) return;
    idx depth_limit = lg(last - first) * 2;
    while (last - first > 3) {
        if (depth_limit == 0) {
            heap_select(v, first, nth + 1, last);
            swap_at(v, first, nth); /* the nth largest into its place */
            return;
        }
        --depth_limit;
        /* std::__unguarded_partition_pivot */
        idx mid = first + (last - first) / 2;
        move_median_to_first(v, first, first + 1, mid, last - 1);
        idx cut = unguarded_partition(v, first + 1, last, first);
        if (cut <= nth) first = cut;
        else last = cut;
    }
    insertion_sort(v, first, last);
}
