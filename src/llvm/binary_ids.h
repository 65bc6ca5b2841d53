/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * binary_ids.h -- LLVM's list of binary ids (spec §2.13, §3.8), THE one
 * codec (internal).
 *
 * Raw v7+ files hold the list right after the header (writer byte order),
 * indexed v9+ files in their binary-id section (little-endian, after a u64
 * section size). Each entry is {u64 Len; u8 Id[Len]; zero padding to 8}.
 * LLVM reads both with one function (readBinaryIdsInternal), which refuses
 * Len 0 and entries running past the list; so do we.
 */
#ifndef PB_LLVM_BINARY_IDS_H
#define PB_LLVM_BINARY_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "profbridge/error.h"

/* Bytes an entry with an id of len bytes takes. */
static inline uint64_t pbi_binary_id_size(uint64_t len) { return 8 + len + ((8 - len % 8) & 7); }

/* LLVM 13 (raw v7, the only release writing it) writes and reads the
 * entries unpadded: {u64 Len; u8 Id[Len]} back to back, BinaryIdsSize the
 * plain sum (clang-13 wrote 28 for a 20-byte build id, and its data records
 * follow at header + 28); LLVM 14+ pad every entry to 8. `padded` 0 selects
 * LLVM 13's form in the functions below. */
static inline uint64_t pbi_binary_id_size_p(uint64_t len, int padded) {
    return padded ? pbi_binary_id_size(len) : 8 + len;
}

/* Called for every id; `off` is the offset of its Len word. */
typedef int (*pbi_binary_id_fn)(void *ctx, const uint8_t *id, size_t len, uint64_t off, pb_error *err);

/* Walks the entries of d[pos..end) (the caller checked they lie in the
 * input). Errors name "<path>[k]" and the offset of entry k's Len word.
 * Returns 0, fn's error or PB_EFORMAT. */
int pbi_binary_ids_decode(const uint8_t *d, uint64_t pos, uint64_t end, int order, const char *path,
                          pbi_binary_id_fn fn, void *ctx, pb_error *err);
int pbi_binary_ids_decode_p(const uint8_t *d, uint64_t pos, uint64_t end, int order, int padded, const char *path,
                            pbi_binary_id_fn fn, void *ctx, pb_error *err);

/* Writes one entry at dst (pbi_binary_id_size(len) bytes, padding zeroed);
 * returns the bytes written. */
size_t pbi_binary_id_put(uint8_t *dst, const uint8_t *id, size_t len, int order);
size_t pbi_binary_id_put_p(uint8_t *dst, const uint8_t *id, size_t len, int order, int padded);

/* Appends one entry to b (sticky failure, see buf.h). */
void pbi_binary_id_append(pb_buf *b, const uint8_t *id, size_t len, int order);

#endif
