/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jname.h -- the LLVM names of Java (iprof) records (internal).
 *
 * Grammar (docs/mapping.md):
 *   record-name = tag ":" body
 *   tag   = "jcall" | "jbranch" | "jvcall" | "jinstanceof" | "jmonitor" | "jsample"
 *   body  = context | context "|" layout (jbranch) | "" (jmonitor)
 *   context = frame *( "<" frame )            ; callee first
 *   frame   = method ":" bci                   ; bci = ["-"] 1*DIGIT
 *   method  = decl "." mname "(" [type *("," type)] ")" ret | "%#" ["-"] 1*DIGIT
 *   decl, ret, type = typetext | "%-" (absent) | "%#" ["-"] 1*DIGIT (placeholder type)
 *   layout  = [succ *("," succ)] ; succ = bci "/" index
 * typetext escapes '%', '(', ')', ',', ':' and bytes outside 0x21..0x7E as
 * %XX (uppercase hex), the empty string is "%_"; mname also escapes '.'.
 * Every name has exactly one spelling, so parse(render(x)) == x and
 * render(parse(n)) == n for every name the parser accepts.
 */
#ifndef PB_JNAME_H
#define PB_JNAME_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/arena.h"
#include "util/intern.h"
#include "profbridge/profile.h"

/* Appends the LLVM name of Java record `r` (not PB_REC_FUNCTION) to `out`.
 * Fills p's method descriptor cache. Returns 0, PB_ENOMEM or PB_EINVAL
 * (the record names a context/method/layout p does not have). */
int pbi_jname_render(const pb_profile *p, const pb_record *r, pb_buf *out);

/* pbi_jname_render without the profile's lock, for a worker thread while
 * the caller holds it: only reads p when every method descriptor is cached
 * already (pbi_jname_method_desc of each method first), else it fills that
 * cache, which only the lock holder may do. */
int pbi_jname_render_ready(const pb_profile *p, const pb_record *r, pb_buf *out);

/* The tag of a Java record kind ("jcall", without ':'), NULL for others. */
const char *pbi_jname_tag(int kind);

/* The record kind whose tag `name` starts with ("jcall:" ...), or -1. */
int pbi_jname_kind(const char *name, size_t len);

/*
 * Parses a rendered Java record name back into key fields: out->kind,
 * out->ctx (interned in p; PB_NONE for jmonitor), out->layout (jbranch;
 * else PB_NONE), out->name = PB_NONE, out->hash = 0; other fields are left
 * alone. Symbols and methods are created in p as needed, but only after the
 * whole name was found valid. Returns 0, PB_EFORMAT (not a Java record name;
 * err says where), PB_ENOMEM.
 */
int pbi_jname_parse(pb_profile *p, const char *name, size_t len, pb_record *out, pb_error *err);

/* Frame descriptors already parsed into one profile: the text of a frame's
 * method ("Decl.name(P)Ret", without ":bci") -> its method id there. A
 * bridge parsing many names that share methods skips decoding the types
 * and interning the symbols again. Valid for one profile while it gains
 * methods only (no canonicalize in between). Zeroed = empty.
 *
 * Its own table, not a pbu_intern: a hit there read the slot, then the
 * id's hash, length and text pointer from three arrays, then the text --
 * up to five cache misses a frame once the walk over a 300 MB file has
 * flushed the caches (memcmp and pbu_intern_find were 11% of indexed ->
 * iprof, perf record). A slot here holds hash, length, method and text
 * together: one miss for the slot, one for the text. The parser's scratch
 * arrays live here too, reused from name to name instead of allocated and
 * freed for each (0.43M reallocs and 1.4M frees for 286k names). */
typedef struct pbi_jname_slot {
    const char *text; /* in arena; NULL = empty slot */
    uint32_t hash, len, method, pad;
} pbi_jname_slot;

typedef struct pbi_jname_cache {
    pbi_jname_slot *slots;
    uint32_t nslots, count; /* nslots: a power of two, or 0 */
    pbu_arena arena;        /* the texts */
    void *scratch;          /* the parser's reusable arrays (jname.c) */
} pbi_jname_cache;

/* An empty cache. */
void pbi_jname_cache_init(pbi_jname_cache *c);
void pbi_jname_cache_free(pbi_jname_cache *c);

/* pbi_jname_parse with a cache (NULL: none) of p's frame descriptors,
 * looked up before parsing a frame and filled after creating its method.
 * Same results and return codes. */
int pbi_jname_parse_cached(pb_profile *p, pbi_jname_cache *c, const char *name, size_t len,
                           pb_record *out, pb_error *err);

/* Java hash of a rendered name: low 60 bits of its NameRef. */
uint64_t pbi_jname_hash(const char *name, size_t len);
/* The same from a NameRef (pb_md5_ref) already computed. */
static inline uint64_t pbi_jname_hash_of_ref(uint64_t ref) { return ref & UINT64_C(0x0FFFFFFFFFFFFFFF); }

/* The rendered descriptor of method m (as in a frame, without ":bci"),
 * cached in p. 0, PB_ENOMEM or PB_EINVAL. */
int pbi_jname_method_desc(const pb_profile *p, uint32_t m, const char **text, size_t *len);

/* Appends symbol i's type token (escaped name or "%#id"). */
void pbi_jname_put_symbol(const pb_profile *p, uint32_t sym, pb_buf *out);

#endif
