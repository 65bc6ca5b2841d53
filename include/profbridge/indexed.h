/*
 * profbridge/indexed.h -- direct access to LLVM indexed profiles (.profdata).
 *
 * pb_read() loads a whole profile. A compiler-like consumer that needs a few
 * functions of a big .profdata can instead look functions up by name through
 * the file's own on-disk hash table, reading only that key's bytes (the way
 * LLVM's IndexedInstrProfReader::getInstrProfRecord does).
 */
#ifndef PROFBRIDGE_INDEXED_H
#define PROFBRIDGE_INDEXED_H

#include <stddef.h>

#include "error.h"
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

#ifdef __cplusplus
}
#endif
#endif
