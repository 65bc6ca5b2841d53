/* sort.c -- stable merge sort of u32 ids; see sort.h. */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "profbridge/error.h"

static void msort(uint32_t *v, uint32_t *tmp, size_t n, pbi_id_cmp cmp, void *ctx) {
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

int pbi_sort_ids(uint32_t *ids, size_t n, pbi_id_cmp cmp, void *ctx) {
    if (n < 2) return 0;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return PB_ENOMEM;
    msort(ids, tmp, n, cmp, ctx);
    free(tmp);
    return 0;
}
