/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * leb128.h -- ULEB128 (spec §1.3), THE one decoder and encoder (internal).
 *
 * LLVM uses ULEB128 for the lengths of names chunks (§2.9) and in the
 * SPROF42 magic of sample profiles. Every reader decodes through
 * pbi_uleb_decode, so an overlong value is refused the same way everywhere:
 * a value needs at most 10 bytes, and the 10th may only carry bit 63
 * (LLVM's decodeULEB128 reports "uleb128 too big for uint64" for the rest).
 * The decoder is inline: it runs for every chunk of a names section.
 */
#ifndef PB_LLVM_LEB128_H
#define PB_LLVM_LEB128_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

enum {
    PBI_ULEB_OK = 0,
    PBI_ULEB_OVERFLOW = -1, /* more than 64 bits */
    PBI_ULEB_TRUNCATED = -2 /* the bytes end before the last (high bit clear) byte */
};

/* Longest encoding of a u64. */
#define PBI_ULEB_MAX 10

/* Decodes the ULEB128 at p[*pos], reading no byte at or after p[end].
 * Returns PBI_ULEB_OK and advances *pos past it, or a negative PBI_ULEB_*
 * with *pos at the byte at fault (the 11th byte, the one whose bits do not
 * fit, or `end`); *out is untouched on failure. */
static inline int pbi_uleb_decode(const uint8_t *p, size_t end, size_t *pos, uint64_t *out) {
    uint64_t v = 0;
    size_t i = *pos;
    for (unsigned shift = 0;; shift += 7) {
        if (i >= end) {
            *pos = i;
            return PBI_ULEB_TRUNCATED;
        }
        uint8_t b = p[i];
        /* byte 10 (shift 63) holds bit 63 only; there is no byte 11 */
        if (shift > 63 || (shift == 63 && (b & 0x7e))) {
            *pos = i;
            return PBI_ULEB_OVERFLOW;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        i++;
        if (!(b & 0x80)) {
            *pos = i;
            *out = v;
            return PBI_ULEB_OK;
        }
    }
}

/* Writes v to out[0..) (room for PBI_ULEB_MAX bytes); returns the length. */
size_t pbi_uleb_put(uint8_t out[PBI_ULEB_MAX], uint64_t v);

/* Appends v to b (sticky failure, see buf.h). */
void pbi_uleb_append(pb_buf *b, uint64_t v);

#endif
