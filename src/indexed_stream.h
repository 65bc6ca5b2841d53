/*
 * indexed_stream.h -- the records of an indexed profile (.profdata) one by
 * one, in file order, without building a model (formats/indexed/
 * indexed_read.c). For consumers that look at each record once, like
 * `show` on a big .profdata: no interning, no record arrays, no per-key MD5.
 * Internal (pbi_): the CLI uses it, the public API does not offer it.
 */
#ifndef PBI_INDEXED_STREAM_H
#define PBI_INDEXED_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/format.h"

/* 1 if data[0..len) starts with the indexed magic. */
int pbi_indexed_is(const uint8_t *data, size_t len);

/* Called once, before the first record: the header's variant flags.
 * start and each may be NULL (each NULL: the records are only checked). */
typedef int (*pbi_idx_start_fn)(void *ctx, uint64_t flags, pb_error *err);

/* Called per record: its key's name name[0..len) (not NUL-terminated; points
 * into data), and r with its hash, counters, bitmap and value sites (pointing
 * into a scratch that the next record reuses; value symbols are PB_NONE). */
typedef int (*pbi_idx_each_fn)(void *ctx, const char *name, size_t len, const pb_record *r,
                               pb_error *err);

/*
 * Streams the indexed profile data[0..len) (kept by the caller until the
 * call returns; names handed to each stay valid as long as data does).
 * The structure is checked as pb_read checks it, with the same errors and
 * offsets, and the same notices and warnings go to o->diag, except:
 *   - KeyHash is not compared with MD5(name) (a key stored under a wrong hash
 *     is still handed out; pb_read and `validate` warn about it),
 *   - records repeating a (name, hash) pair (LLVM's writer never writes
 *     them) are handed out one by one, as llvm-profdata's reader hands them
 *     out; pb_read merges them into one.
 * After the last record *side (when side is not NULL) is a new profile
 * without records holding the flags, the origin ("indexed", version) and the
 * binary ids. Errors carry `source` (NULL = "<memory>").
 * Returns 0 or the first error of the reader or of the callbacks.
 */
int pbi_indexed_stream(const uint8_t *data, size_t len, const char *source, const pb_read_options *o,
                       pbi_idx_start_fn start, pbi_idx_each_fn each, void *ctx, pb_profile **side,
                       pb_error *err);

#endif
