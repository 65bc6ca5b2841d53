/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * adler32.h -- the Adler-32 checksum of RFC 1950 (a zlib stream's
 * trailer), 16 bytes at a time where the machine has SSE2. Internal.
 */
#ifndef PB_ADLER32_H
#define PB_ADLER32_H

#include <stddef.h>
#include <stdint.h>

/* Adler-32 of p[0..n) continued from adler (1 to start), as zlib's
 * adler32(adler, p, n). */
uint32_t pbu_adler32(uint32_t adler, const uint8_t *p, size_t n);

#endif
