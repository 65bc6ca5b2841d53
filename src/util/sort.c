/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sort.c -- stable merge sort of u32 ids; see sort.h. */
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

#include "profbridge/error.h"

static void msort(uint32_t *v, uint32_t *tmp, size_t n, pbu_id_cmp cmp, void *ctx) {
    if (n <= 12) {
        for (size_t i = 1; i < n; i++) {
            uint32_t x = v[i];
            size_t j = i;
            while (j > 0 && cmp(ctx, x, v[j - 1]) < 0) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    msort(v, tmp, h, cmp, ctx);
    msort(v + h, tmp, n - h, cmp, ctx);
    if (cmp(ctx, v[h], v[h - 1]) >= 0) return; /* already in order */
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

int pbu_sort_ids(uint32_t *ids, size_t n, pbu_id_cmp cmp, void *ctx) {
    if (n < 2) return 0;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return PB_ENOMEM;
    msort(ids, tmp, n, cmp, ctx);
    free(tmp);
    return 0;
}

/* LSD radix sort, one byte per pass, skipping bytes that are equal in every
 * value (the high bytes of real counts mostly are). qsort's indirect
 * comparisons were a tenth of a raw -> indexed conversion. */
int pbu_sort_u64_desc(uint64_t *v, size_t n) {
    if (n < 2) return 0;
    uint64_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return PB_ENOMEM;
    uint64_t *a = v, *b = tmp;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        size_t cnt[256] = {0};
        for (size_t i = 0; i < n; i++) cnt[(uint8_t)~(a[i] >> shift)]++;
        if (cnt[(uint8_t)~(a[0] >> shift)] == n) continue; /* one byte value: order kept */
        size_t pos = 0;
        for (unsigned d = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++) b[cnt[(uint8_t)~(a[i] >> shift)]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    if (a != v) memcpy(v, a, n * sizeof *v);
    free(tmp);
    return 0;
}
