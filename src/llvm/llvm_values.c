/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_values.c -- value-site helpers for the LLVM plugins; see llvm_values.h. */
#include "llvm/llvm_values.h"

#include <stdlib.h>
#include <string.h>

#include "llvm/stl_algo.h"

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
 * (llvm/stl_algo.h: the order of equal values is all that matters here). */

static int value_less(const void *a, const void *b, void *ctx) {
    (void)ctx;
    return ((const pb_value *)a)->value < ((const pb_value *)b)->value;
}
_Static_assert(sizeof(pb_value) <= PBI_STL_MAX_ELEM, "a value fits stl_algo's buffer");

/* Value sites are mostly a few values, and a merge sorts both sides of
 * every site of every input: the generic sort's comparator calls and byte
 * copies were 13% of a 100-raw merge (perf, bench/many_merge.sh's value
 * raws). Up to PBI_STL_SORT_THRESHOLD values std::sort is a stable
 * insertion sort (stl_algo.h), done here on the typed array. */
void pbi_llvm_std_sort_by_value(pb_value *v, size_t n) {
    if (n > PBI_STL_SORT_THRESHOLD) {
        pbi_stl_sort(v, n, sizeof *v, value_less, NULL);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        if (v[i - 1].value <= v[i].value) continue;
        pb_value x = v[i];
        size_t j = i;
        do {
            v[j] = v[j - 1];
            j--;
        } while (j > 0 && x.value < v[j - 1].value);
        v[j] = x;
    }
}
