/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * names.h -- LLVM's names encoding (spec §2.9), THE one codec (internal).
 *
 * Raw names and vtable names (raw v10+) and the indexed vtable-names section
 * (§3.10) are the same blob: chunks of ULEB128 uncompressed length, ULEB128
 * compressed length (0 = stored plain), then a zlib stream or the plain
 * bytes; the decoded text is non-empty names joined by '\x01'; zero bytes
 * between chunks are skipped. Errors name the chunk's byte offset and the
 * caller's `path` ("names", "vnames", "vtable_names").
 */
#ifndef PB_LLVM_NAMES_H
#define PB_LLVM_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "profbridge/error.h"

/* The separator between names inside a chunk. */
#define PBI_NAME_SEP '\x01'

/* One chunk of a blob; offsets are into the blob. */
typedef struct pbi_names_chunk {
    size_t at;     /* first byte of its two lengths */
    size_t data;   /* first stored byte (zlib stream or plain text) */
    uint64_t ulen; /* bytes of names once decoded */
    uint64_t clen; /* stored zlib bytes; 0 = stored plain (ulen bytes) */
} pbi_names_chunk;

/* Steps to the chunk at or after *pos (skipping zero bytes) of blob[0..len).
 * Returns 1 with *c filled and *pos past the chunk, 0 when only zero bytes
 * are left, or a negative PB_E* (lengths that overflow or end early, stored
 * bytes past the blob) with err at blob offset base_off + c->at. */
int pbi_names_next_chunk(const uint8_t *blob, size_t len, size_t *pos, pbi_names_chunk *c, uint64_t base_off,
                         const char *path, pb_error *err);

/* Called for every name, in blob order. */
typedef int (*pbi_name_fn)(void *ctx, const char *name, size_t len, pb_error *err);

/* Decodes blob[0..len) (found at byte base_off of the file) and calls fn for
 * each name. Returns 0, fn's error, PB_EFORMAT (bad zlib, empty name,
 * impossible expansion), PB_ETRUNC or PB_ENOMEM. */
int pbi_names_decode(const uint8_t *blob, size_t len, uint64_t base_off, const char *path, pbi_name_fn fn,
                     void *ctx, pb_error *err);

/* pbi_names_decode into text: every name followed by one '\x01' (what the
 * raw reader indexes and dump lists). */
int pbi_names_decode_text(const uint8_t *blob, size_t len, uint64_t base_off, const char *path, pb_buf *text,
                          pb_error *err);

/* Appends the blob holding `text` (names joined by '\x01'; one trailing
 * separator is ignored) as one chunk, zlib level 9 (as clang and
 * llvm-profdata write it) or plain. Empty text appends nothing. */
int pbi_names_encode(const char *text, size_t len, int compress, pb_buf *out, pb_error *err);

/* Writers: 0 if `name` can be one name of a names blob, else PB_EUNSUPPORTED
 * naming it (`what` and `idx`, e.g. "record", 3): a name holding the
 * separator \x01 would read back as two names (and its NameRef as the MD5
 * of neither). */
int pbi_names_writable(const char *name, size_t len, const char *what, size_t idx, pb_error *err);

#endif
