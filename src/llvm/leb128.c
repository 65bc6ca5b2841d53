/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* leb128.c -- the ULEB128 encoder (leb128.h; the decoder is inline there). */
#include "llvm/leb128.h"

size_t pbi_uleb_put(uint8_t out[PBI_ULEB_MAX], uint64_t v) {
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        out[n++] = (uint8_t)(v ? c | 0x80 : c);
    } while (v);
    return n;
}

void pbi_uleb_append(pb_buf *b, uint64_t v) {
    uint8_t t[PBI_ULEB_MAX];
    pbu_buf_append(b, t, pbi_uleb_put(t, v));
}
