/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/indexed.h -- direct access to LLVM indexed profiles (.profdata).
 *
 * pb_read() loads a whole profile. A compiler-like consumer that needs a few
 * functions of a big .profdata can instead look functions up by name through
 * the file's own on-disk hash table, reading only that key's bytes (the way
 * LLVM's IndexedInstrProfReader::getInstrProfRecord does).
 *
 * Both functions reset their pb_error on entry (error.h), only read `data`
 * and may run on several threads at once over the same bytes.
 */
#ifndef PROFBRIDGE_INDEXED_H
#define PROFBRIDGE_INDEXED_H

#include <stddef.h>

#include "error.h"
#include "format.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Looks up the function called name[0..name_len) (its exact PGO name, any
 * bytes, no NUL needed) in the indexed profile held in data[0..len) (e.g. a
 * file mapped into memory; it is only read, and not kept after the call).
 *
 * The header, summaries and hash-table frame are checked, then only the
 * bucket of MD5(name) is scanned. On success *out is a new profile (free it
 * with pb_profile_free) holding the file's flags and origin ("indexed",
 * version) and every record stored under that name, one per structural hash,
 * in file order, with counters, bitmap bytes and value sites. Vtable values
 * (kind 2) get their symbol when the file's vtable-names section names them;
 * indirect-call targets (kind 0) keep symbol PB_NONE (they name functions,
 * which a full read resolves through the key set).
 *
 * Returns 0; PB_ENOTFOUND when the name is not in the table (*out is NULL,
 * err untouched); PB_EFORMAT / PB_ETRUNC / PB_EVERSION for damaged or
 * unknown files (err has the byte offset and field); PB_ENOMEM; PB_EINVAL
 * for NULL arguments. On failure *out is NULL and nothing leaks.
 */
int pb_indexed_lookup(const void *data, size_t len, const void *name, size_t name_len,
                      pb_profile **out, pb_error *err) PB_WARN_UNUSED;

/* pb_indexed_foreach: called once, before the first record, with the
 * header's variant flags (PB_VARIANT_*). */
typedef int (*pb_indexed_start_fn)(void *ctx, uint64_t flags, pb_error *err);

/* pb_indexed_foreach: called per record with its key's name name[0..len)
 * (not NUL-terminated; it points into the caller's data) and r: its hash,
 * counters, bitmap and value sites, in a scratch the next record reuses
 * (copy what you keep); value symbols are PB_NONE. Nonzero stops the walk
 * and is returned. */
typedef int (*pb_indexed_record_fn)(void *ctx, const char *name, size_t len, const pb_record *r,
                                    pb_error *err);

/*
 * Walks every record of the indexed profile held in data[0..len), in file
 * order, without building a model: for consumers that look at each record
 * once (`profbridge show` on a big .profdata: no interning, no record
 * arrays). The structure is checked as pb_read checks it, with the same
 * errors and byte offsets, and the same notices and warnings go to o->diag
 * (o may be NULL), except:
 *   - KeyHash is not compared with MD5(name): a key stored under a wrong hash
 *     is still handed out (pb_read and `validate` warn about it);
 *   - records repeating a (name, hash) pair (LLVM's writer never writes them)
 *     are handed out one by one, as llvm-profdata's reader hands them out;
 *     pb_read merges them into one.
 * start and each may be NULL (each NULL: the file is only checked). After
 * the last record, *side (when side is not NULL) is a new profile without
 * records holding the flags, the origin ("indexed", version) and the binary
 * ids. Errors carry `source` (NULL: "<memory>"). Returns 0 or the first
 * error of the reader or of a callback. A callback's error may stop the walk
 * after some records were handed out.
 */
int pb_indexed_foreach(const void *data, size_t len, const char *source, const pb_read_options *o,
                       pb_indexed_start_fn start, pb_indexed_record_fn each, void *ctx, pb_profile **side,
                       pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
