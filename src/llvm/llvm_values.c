/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_values.c -- value-site helpers for the LLVM plugins; see llvm_values.h. */
#include "llvm/llvm_values.h"

#include <stdlib.h>
#include <string.h>

void pbi_llvm_bind_symbols(pb_profile *p) {
    /* No symbols, nothing to bind (and no NameRef index of all records to build). */
    if (pb_profile_symbol_count(p) == 0) return;
    size_t nrec = pb_profile_record_count(p);
    for (size_t r = 0; r < nrec; r++) {
        pb_record *rec = pb_profile_record_mut(p, r);
        for (int k = 0; k < PB_VK_COUNT; k++) {
            if (k == PB_VK_MEMOP_SIZE) continue;
            for (uint32_t s = 0; s < rec->num_sites[k]; s++) {
                pb_site *site = &rec->sites[k][s];
                for (uint32_t i = 0; i < site->num_values; i++) {
                    pb_value *v = &site->values[i];
                    uint32_t sym;
                    size_t idx;
                    if (v->symbol != PB_NONE || v->value == 0) continue;
                    if (k == PB_VK_INDIRECT_CALL && pb_profile_lookup_ref(p, v->value, &idx, 1) > 0)
                        continue;
                    if (pb_profile_find_symbol_md5(p, v->value, &sym) == 0) v->symbol = sym;
                }
            }
        }
    }
}

const char *pbi_llvm_value_name(const pb_profile *p, const pb_value *v, size_t *len) {
    if (v->symbol != PB_NONE) {
        const pb_symbol *s = pb_profile_symbol(p, v->symbol);
        if (s && s->name != PB_NONE) return pb_profile_str(p, s->name, len);
        return NULL;
    }
    if (v->value == 0) return NULL;
    size_t idx;
    if (pb_profile_lookup_ref(p, v->value, &idx, 1) > 0) {
        const char *name;
        uint64_t hash;
        if (pb_profile_record_name(p, pb_profile_record(p, idx), &name, len, &hash, NULL) == 0)
            return name;
        return NULL;
    }
    uint32_t sym;
    if (pb_profile_find_symbol_md5(p, v->value, &sym) == 0) {
        const pb_symbol *s = pb_profile_symbol(p, sym);
        if (s && s->name != PB_NONE) return pb_profile_str(p, s->name, len);
    }
    return NULL;
}

size_t pbi_llvm_sort_site(const pb_site *s, pb_value *out, size_t max) {
    size_t n = s->num_values;
    if (n) memcpy(out, s->values, n * sizeof *out);
    pb_value *tmp = n > 32 ? malloc(n * sizeof *tmp) : NULL;
    if (!tmp) {
        /* Insertion sort: stable; fine for the small sites LLVM writes. */
        for (size_t i = 1; i < n; i++) {
            pb_value v = out[i];
            size_t j = i;
            while (j > 0 && out[j - 1].count < v.count) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = v;
        }
    } else {
        /* Bottom-up merge sort: stable and O(n log n) for huge text sites. */
        for (size_t width = 1; width < n; width *= 2) {
            for (size_t lo = 0; lo < n; lo += 2 * width) {
                size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
                size_t a = lo, b = mid, k = lo;
                while (a < mid && b < hi) tmp[k++] = out[b].count > out[a].count ? out[b++] : out[a++];
                while (a < mid) tmp[k++] = out[a++];
                while (b < hi) tmp[k++] = out[b++];
            }
            memcpy(out, tmp, n * sizeof *out);
        }
        free(tmp);
    }
    return max && n > max ? max : n;
}

/* ---- libstdc++ std::sort, comparator a.value < b.value ----------------------
 * Transcribed from the algorithm's documented steps (bits/stl_algo.h,
 * bits/stl_heap.h), keeping every comparison and move in its order, since
 * the order of equal values is all that matters here. */

static int lt(const pb_value *a, const pb_value *b) { return a->value < b->value; }

static void swap_v(pb_value *a, pb_value *b) {
    pb_value t = *a;
    *a = *b;
    *b = t;
}

/* __push_heap */
static void push_heap(pb_value *first, size_t hole, size_t top, pb_value val) {
    size_t parent = hole ? (hole - 1) / 2 : 0;
    while (hole > top && lt(&first[parent], &val)) {
        first[hole] = first[parent];
        hole = parent;
        parent = hole ? (hole - 1) / 2 : 0;
    }
    first[hole] = val;
}

/* __adjust_heap */
static void adjust_heap(pb_value *first, size_t hole, size_t len, pb_value val) {
    size_t top = hole, child = hole;
    while (len >= 1 && child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (lt(&first[child], &first[child - 1])) child--;
        first[hole] = first[child];
        hole = child;
    }
    if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        first[hole] = first[child - 1];
        hole = child - 1;
    }
    push_heap(first, hole, top, val);
}

/* __partial_sort(first, last, last): __make_heap then __sort_heap */
static void heap_sort(pb_value *first, size_t len) {
    if (len >= 2)
        for (size_t parent = (len - 2) / 2;; parent--) {
            adjust_heap(first, parent, len, first[parent]);
            if (parent == 0) break;
        }
    for (size_t last = len; last > 1;) {
        last--;
        pb_value val = first[last]; /* __pop_heap */
        first[last] = first[0];
        adjust_heap(first, 0, last, val);
    }
}

/* __move_median_to_first */
static void median_to_first(pb_value *result, pb_value *a, pb_value *b, pb_value *c) {
    if (lt(a, b)) {
        if (lt(b, c)) swap_v(result, b);
        else if (lt(a, c)) swap_v(result, c);
        else swap_v(result, a);
    } else if (lt(a, c)) {
        swap_v(result, a);
    } else if (lt(b, c)) {
        swap_v(result, c);
    } else {
        swap_v(result, b);
    }
}

/* __unguarded_partition */
static pb_value *unguarded_partition(pb_value *first, pb_value *last, pb_value *pivot) {
    for (;;) {
        while (lt(first, pivot)) first++;
        last--;
        while (lt(pivot, last)) last--;
        if (!(first < last)) return first;
        swap_v(first, last);
        first++;
    }
}

#define STD_THRESHOLD 16 /* _S_threshold */

static void introsort_loop(pb_value *first, pb_value *last, size_t depth) {
    while (last - first > STD_THRESHOLD) {
        if (depth == 0) {
            heap_sort(first, (size_t)(last - first));
            return;
        }
        depth--;
        pb_value *mid = first + (last - first) / 2;
        median_to_first(first, first + 1, mid, last - 1);
        pb_value *cut = unguarded_partition(first + 1, last, first);
        introsort_loop(cut, last, depth);
        last = cut;
    }
}

/* __unguarded_linear_insert */
static void linear_insert(pb_value *last) {
    pb_value val = *last;
    pb_value *next = last - 1;
    while (lt(&val, next)) {
        *last = *next;
        last = next;
        next--;
    }
    *last = val;
}

/* __insertion_sort */
static void insertion_sort(pb_value *first, pb_value *last) {
    if (first == last) return;
    for (pb_value *i = first + 1; i != last; i++) {
        if (lt(i, first)) {
            pb_value val = *i;
            memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
            *first = val;
        } else {
            linear_insert(i);
        }
    }
}

void pbi_llvm_std_sort_by_value(pb_value *v, size_t n) {
    if (n < 2) return;
    size_t lg = 0;
    for (size_t k = n; k > 1; k >>= 1) lg++; /* std::__lg */
    introsort_loop(v, v + n, 2 * lg);
    if (n > STD_THRESHOLD) { /* __final_insertion_sort */
        insertion_sort(v, v + STD_THRESHOLD);
        for (pb_value *i = v + STD_THRESHOLD; i != v + n; i++) linear_insert(i);
    } else {
        insertion_sort(v, v + n);
    }
}
