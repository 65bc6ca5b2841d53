/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * stl_algo.c -- libstdc++'s introsort, introselect and heap algorithms
 * (bits/stl_algo.h, bits/stl_heap.h), transcribed step by step so that
 * every element lands where libstdc++ leaves it (stl_algo.h says why that
 * matters). Indices stand for libstdc++'s iterators and are signed, as its
 * distances are; "a hole" is a slot whose value was moved out, "value" a
 * copy held aside in a buffer of the caller's frame.
 */
#include "llvm/stl_algo.h"

#include <string.h>

typedef ptrdiff_t idx;

typedef struct seq {
    unsigned char *v;
    size_t size;
    pbi_stl_less less;
    void *ctx;
} seq;

/* An element held aside, aligned for any element type. */
typedef struct held {
    _Alignas(max_align_t) unsigned char b[PBI_STL_MAX_ELEM];
} held;

static unsigned char *at(const seq *s, idx i) { return s->v + (size_t)i * s->size; }
static int lt(const seq *s, const void *a, const void *b) { return s->less(a, b, s->ctx); }
static int lt_at(const seq *s, idx a, idx b) { return lt(s, at(s, a), at(s, b)); }
static void move_to(const seq *s, idx to, idx from) { memcpy(at(s, to), at(s, from), s->size); }
static void hold(const seq *s, held *h, idx i) { memcpy(h->b, at(s, i), s->size); }
static void put(const seq *s, idx i, const held *h) { memcpy(at(s, i), h->b, s->size); }

static void swap_at(const seq *s, idx a, idx b) {
    held t;
    hold(s, &t, a);
    move_to(s, a, b);
    put(s, b, &t);
}

/* The same sequence from index first on. */
static seq from(const seq *s, idx first) {
    seq r = *s;
    r.v = at(s, first);
    return r;
}

/* std::__push_heap */
static void push_heap(const seq *s, idx hole, idx top, const held *value) {
    idx parent = (hole - 1) / 2;
    while (hole > top && lt(s, at(s, parent), value->b)) {
        move_to(s, hole, parent);
        hole = parent;
        parent = (hole - 1) / 2;
    }
    put(s, hole, value);
}

/* std::__adjust_heap */
static void adjust_heap(const seq *s, idx hole, idx len, const held *value) {
    const idx top = hole;
    idx child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (lt_at(s, child, child - 1)) child--;
        move_to(s, hole, child);
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        move_to(s, hole, child - 1);
        hole = child - 1;
    }
    push_heap(s, hole, top, value);
}

/* std::__make_heap on s[0, len) */
static void make_heap(const seq *s, idx len) {
    if (len < 2) return;
    for (idx parent = (len - 2) / 2;; parent--) {
        held value;
        hold(s, &value, parent);
        adjust_heap(s, parent, len, &value);
        if (parent == 0) return;
    }
}

/* std::__pop_heap(first, last, result) with first = 0 */
static void pop_heap_into(const seq *s, idx last, idx result) {
    held value;
    hold(s, &value, result);
    move_to(s, result, 0);
    adjust_heap(s, 0, last, &value);
}

/* std::__heap_select(first, middle, last) */
static void heap_select(const seq *s, idx first, idx middle, idx last) {
    seq h = from(s, first);
    make_heap(&h, middle - first);
    for (idx i = middle; i < last; i++)
        if (lt_at(s, i, first)) pop_heap_into(&h, middle - first, i - first);
}

/* std::__sort_heap on s[0, len) */
static void sort_heap(const seq *s, idx len) {
    while (len > 1) {
        len--;
        pop_heap_into(s, len, len);
    }
}

/* std::__unguarded_linear_insert */
static void linear_insert(const seq *s, idx last) {
    held value;
    hold(s, &value, last);
    idx next = last - 1;
    while (lt(s, value.b, at(s, next))) {
        move_to(s, last, next);
        last = next;
        next--;
    }
    put(s, last, &value);
}

/* std::__insertion_sort */
static void insertion_sort(const seq *s, idx first, idx last) {
    if (first == last) return;
    for (idx i = first + 1; i != last; i++) {
        if (lt_at(s, i, first)) { /* move_backward(first, i, i + 1) */
            held value;
            hold(s, &value, i);
            memmove(at(s, first + 1), at(s, first), (size_t)(i - first) * s->size);
            put(s, first, &value);
        } else {
            linear_insert(s, i);
        }
    }
}

/* std::__move_median_to_first(result, a, b, c) */
static void move_median_to_first(const seq *s, idx result, idx a, idx b, idx c) {
    if (lt_at(s, a, b)) {
        if (lt_at(s, b, c)) swap_at(s, result, b);
        else if (lt_at(s, a, c)) swap_at(s, result, c);
        else swap_at(s, result, a);
    } else if (lt_at(s, a, c)) {
        swap_at(s, result, a);
    } else if (lt_at(s, b, c)) {
        swap_at(s, result, c);
    } else {
        swap_at(s, result, b);
    }
}

/* std::__unguarded_partition(first, last, pivot) */
static idx unguarded_partition(const seq *s, idx first, idx last, idx pivot) {
    for (;;) {
        while (lt_at(s, first, pivot)) first++;
        last--;
        while (lt_at(s, pivot, last)) last--;
        if (!(first < last)) return first;
        swap_at(s, first, last);
        first++;
    }
}

/* std::__unguarded_partition_pivot */
static idx partition_pivot(const seq *s, idx first, idx last) {
    idx mid = first + (last - first) / 2;
    move_median_to_first(s, first, first + 1, mid, last - 1);
    return unguarded_partition(s, first + 1, last, first);
}

/* std::__lg */
static idx lg(idx n) {
    idx k = 0;
    while (n >>= 1) k++;
    return k;
}

enum { SORT_THRESHOLD = PBI_STL_SORT_THRESHOLD }; /* _S_threshold */

/* std::__introsort_loop */
static void introsort_loop(const seq *s, idx first, idx last, idx depth) {
    while (last - first > SORT_THRESHOLD) {
        if (depth == 0) { /* std::__partial_sort(first, last, last) */
            seq h = from(s, first);
            heap_select(s, first, last, last);
            sort_heap(&h, last - first);
            return;
        }
        --depth;
        idx cut = partition_pivot(s, first, last);
        introsort_loop(s, cut, last, depth);
        last = cut;
    }
}

/* Whether s[0, n) is strictly increasing: then every key is distinct and
 * already where any sort leaves it, libstdc++'s included (it only moves
 * equal keys among themselves). Most callers' ranges come sorted. */
static int strictly_increasing(const seq *s, idx n) {
    for (idx i = 1; i < n; i++)
        if (!lt_at(s, i - 1, i)) return 0;
    return 1;
}

void pbi_stl_sort(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx) {
    if (n < 2 || size == 0 || size > PBI_STL_MAX_ELEM) return;
    seq s = {v, size, less, ctx};
    idx last = (idx)n;
    if (strictly_increasing(&s, last)) return;
    introsort_loop(&s, 0, last, lg(last) * 2);
    if (last > SORT_THRESHOLD) { /* std::__final_insertion_sort */
        insertion_sort(&s, 0, SORT_THRESHOLD);
        for (idx i = SORT_THRESHOLD; i != last; i++) linear_insert(&s, i); /* __unguarded_insertion_sort */
    } else {
        insertion_sort(&s, 0, last);
    }
}

void pbi_stl_nth_element(void *v, size_t n, size_t nth_, size_t size, pbi_stl_less less, void *ctx) {
    if (size == 0 || size > PBI_STL_MAX_ELEM) return;
    seq s = {v, size, less, ctx};
    idx first = 0, last = (idx)n, nth = (idx)nth_;
    if (first == last || nth_ >= n) return;
    idx depth_limit = lg(last - first) * 2;
    while (last - first > 3) { /* std::__introselect */
        if (depth_limit == 0) {
            heap_select(&s, first, nth + 1, last);
            swap_at(&s, first, nth); /* the nth largest into its place */
            return;
        }
        --depth_limit;
        idx cut = partition_pivot(&s, first, last);
        if (cut <= nth) first = cut;
        else last = cut;
    }
    insertion_sort(&s, first, last);
}

void pbi_stl_push_heap(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx) {
    if (n < 1 || size == 0 || size > PBI_STL_MAX_ELEM) return;
    seq s = {v, size, less, ctx};
    held value;
    hold(&s, &value, (idx)n - 1);
    push_heap(&s, (idx)n - 1, 0, &value);
}

void pbi_stl_pop_heap(void *v, size_t n, size_t size, pbi_stl_less less, void *ctx) {
    if (n < 2 || size == 0 || size > PBI_STL_MAX_ELEM) return;
    seq s = {v, size, less, ctx};
    pop_heap_into(&s, (idx)n - 1, (idx)n - 1);
}

static int u32_less(const void *a, const void *b, void *ctx) {
    (void)ctx;
    return *(const uint32_t *)a < *(const uint32_t *)b;
}

void pbi_stl_nth_element_u32(uint32_t *v, size_t n, size_t nth) {
    pbi_stl_nth_element(v, n, nth, sizeof *v, u32_less, NULL);
}
