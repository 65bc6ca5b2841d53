/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* grow.c -- grow.h's out-of-line halves. */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/hugepage.h"

int pbu_grow_to(void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2) return PB_ENOMEM;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem) return PB_ENOMEM;
    void *a = realloc(*arr, n * elem);
    if (!a) return PB_ENOMEM;
    pbu_hugepage_hint(a, n * elem); /* a big array is written as it grows */
    *arr = a;
    *cap = n;
    return 0;
}

int pbu_nomem(pb_error *err, const char *what) {
    if (!what) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate %s", what);
}

int pbu_grow_err(void **arr, size_t *cap, size_t need, size_t elem, pb_error *err) {
    return pbu_grow(arr, cap, need, elem) ? pbu_nomem(err, NULL) : 0;
}
