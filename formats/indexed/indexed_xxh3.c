/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_xxh3.c -- XXH3-64 (seed 0, default secret), the hash LLVM 19's
 * StringMap uses. The indexed writer needs it only to put vtable names in the
 * order LLVM's StringSet iterates them (spec §3.10), so that our output is
 * byte-identical to llvm-profdata-19 merge --keep-vtable-symbols.
 * The hash comes from Debian's libxxhash (the reference implementation).
 */
#include <stddef.h>
#include <stdint.h>

#include <xxhash.h>

#include "indexed_internal.h"

uint64_t pbi_xxh3_64(const void *data, size_t len) { return (uint64_t)XXH3_64bits(data, len); }
