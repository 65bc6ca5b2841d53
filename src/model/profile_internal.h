/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_internal.h -- the pb_profile struct, shared by the model's files
 * (profile*.c, jname.c, import.c). Meant for the model only, but not yet:
 * two plugins (formats/json/json_write.c, formats/text/text_write.c), the
 * bridge (bridge_llvm.c), four analysis files, two merge files and
 * coverage/cov_load.c include it too (issue 21 item 4 moves them to public
 * or model calls). A new includer outside src/model/ adds to that debt.
 */
#ifndef PB_PROFILE_INTERNAL_H
#define PB_PROFILE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/intern.h"
#include "profbridge/profile.h"

typedef struct pbi_prop {
    char *key;   /* malloc'ed, NUL-terminated */
    char *value; /* malloc'ed, NUL appended */
    size_t len;
} pbi_prop;

typedef struct pbi_bytes {
    uint8_t *data; /* malloc'ed */
    size_t len;
} pbi_bytes;

/* trace_merge.c's random generator (std::mt19937). */
typedef struct pbi_trace_rng pbi_trace_rng;

typedef struct pbi_trace {
    uint64_t weight;
    uint64_t *refs; /* malloc'ed */
    size_t n;
} pbi_trace;

/* A rendered record name (cache entry); name == NULL: not rendered yet. */
typedef struct pbi_rname {
    const char *name; /* in name_arena */
    uint32_t len;
    uint64_t hash;
} pbi_rname;

/* One entry of the lookup index: a record's NameRef. */
typedef struct pbi_lookup_entry {
    uint64_t ref;
    uint32_t rec;
} pbi_lookup_entry;

/* One entry of the name-and-hash index (pbi_profile_find_name_hash): a
 * record's NameRef and the hash pb_profile_record_name gives it. */
typedef struct pbi_key_entry {
    uint64_t ref, hash;
    uint32_t rec;
} pbi_key_entry;

struct pb_profile {
    uint64_t flags;
    pb_origin origin;

    pbi_prop *props;
    size_t num_props, cap_props;
    pbi_bytes *bids;
    size_t num_bids, cap_bids;
    pbi_trace *traces;
    size_t num_traces, cap_traces;
    uint64_t trace_stream_size;
    pbi_trace_rng *trace_rng; /* merges' reservoir sampling (trace_merge.c), NULL until used */

    pbi_intern strs; /* pb_str ids */

    /* Symbols: key blob = {name} or {PB_NONE, id low, id high}; the key's
     * id is the symbol index. */
    pbi_intern sym_keys;
    pb_symbol *syms;
    size_t cap_syms;
    pbi_map sym_by_md5;

    /* Methods: key blob = {name, sig...} or {PB_NONE, id low, id high};
     * the key's id is the method index and pb_method.sig points into it. */
    pbi_intern meth_keys;
    pb_method *meths;
    size_t cap_meths;

    pbi_intern ctxs; /* pb_frame arrays */
    pbi_intern ints; /* int32_t arrays */

    /* Records and their arrays. */
    pbi_arena arena;
    pb_record *recs;
    size_t num_recs, cap_recs;
    uint32_t *key_slots; /* record index + 1; 0 = empty */
    size_t key_nslots;   /* power of two or 0 */
    size_t key_indexed;  /* records [0, key_indexed) are in key_slots; the rest are added
                            by the next lookup (a reader whose names are all new never
                            needs one, see fn_name_bound) */
    /* 1 + the largest name id of any function record, or UINT32_MAX when not
     * known (after renumbering). A function record whose name id is at least
     * this cannot repeat a key, so adding it needs no key lookup: readers
     * intern each name just before its first record. */
    uint32_t fn_name_bound;

    /* Caches filled by const functions (logically const). Each is filled
     * under cache_mu, so that read-only use of one profile from several
     * threads is safe (profile.h, "Thread safety"): the getters that fill
     * one take the lock (pbi_cache_lock); once filled, a cache does not
     * move until a non-const call changes the profile. Recursive, because
     * filling one cache (lookup) fills another (names, descriptors). */
    pthread_mutex_t cache_mu;
    pbi_arena name_arena;      /* rendered record names, live until free */
    pbi_rname *rnames;         /* per record, or NULL */
    size_t num_rnames;
    pbi_arena desc_arena;      /* rendered method descriptors */
    struct pbi_desc *descs;    /* per method, or NULL */
    size_t num_descs;
    pb_buf scratch;            /* reused while rendering names */
    pbi_lookup_entry *lookup;  /* sorted by ref, or NULL when stale */
    size_t num_lookup;
    pbi_key_entry *keys;       /* sorted by ref, hash, record; or NULL when stale */
    size_t num_keys;
};

typedef struct pbi_desc {
    const char *text; /* NULL: not rendered yet */
    uint32_t len;
} pbi_desc;

/* Table entries are written field by field over zeroed memory, so their
 * padding bytes are zero too and canonical tables compare equal even
 * byte by byte. */
static inline void pbi_set_symbol(pb_symbol *d, pb_str name, uint64_t md5, int placeholder,
                                  int64_t id) {
    memset(d, 0, sizeof *d);
    d->name = name;
    d->md5 = md5;
    d->placeholder = (uint8_t)placeholder;
    d->placeholder_id = id;
}
static inline void pbi_set_method(pb_method *d, pb_str name, uint32_t num_sig, const uint32_t *sig,
                                  int placeholder, int64_t id) {
    memset(d, 0, sizeof *d);
    d->name = name;
    d->num_sig = num_sig;
    d->sig = sig;
    d->placeholder = (uint8_t)placeholder;
    d->placeholder_id = id;
}

/* Hash of a record's key (see pbi_record_key_equal). */
uint64_t pbi_record_key_hash(const pb_record *r);
/* Same key: PB_REC_FUNCTION (name, hash); Java kinds (kind, ctx, layout). */
int pbi_record_key_equal(const pb_record *a, const pb_record *b);
/* Index of the record with r's key, or SIZE_MAX. */
size_t pbi_find_record(const pb_profile *p, const pb_record *r);
/* The lock of the caches above; p is const because the getters that fill a
 * cache are. */
void pbi_cache_lock(const pb_profile *p);
void pbi_cache_unlock(const pb_profile *p);

/* Drops caches that depend on record positions (after add/reorder). */
void pbi_invalidate_record_caches(pb_profile *p);
/* Drops the method descriptor cache (after methods are reordered). */
void pbi_invalidate_method_caches(pb_profile *p);
/* Copies `rec` into the profile without any validation or key check
 * (the caller did both); *index = its position. */
int pbi_append_record(pb_profile *p, const pb_record *rec, size_t *index, pb_error *err);
/* Validates a record against p (see pb_profile_add_record). */
int pbi_validate_record(const pb_profile *p, const pb_record *rec, pb_error *err);

/*
 * trace_merge.c: merges traces into dst as llvm-profdata's writer does
 * (reservoir sampling with LLVM's random numbers). Takes src[0..n) -- an
 * array from malloc whose refs it owns -- and frees what it does not keep;
 * src_stream is the stream size of the input the traces came from.
 */
int pbi_merge_traces(pb_profile *dst, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                     uint64_t max_length, pb_error *err);
/* The same as LLVM 22+'s writer does it (TRACE_RESERVOIR_FILL, trace_merge.c). */
int pbi_merge_traces_fill(pb_profile *dst, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                          uint64_t max_length, pb_error *err);
void pbi_trace_rng_free(pbi_trace_rng *g);
/* Builds the index pb_profile_lookup uses now (PB_ENOMEM when it cannot):
 * pb_profile_lookup answers 0 when it cannot build it, which a caller that
 * must tell "absent" from "out of memory" cannot read (diff called a record
 * only in A under alloc-sweep). */
int pbi_profile_build_lookup(const pb_profile *p);

/* The first record (in record order) whose LLVM name is `name` and whose
 * hash (as pb_profile_record_name gives it) is `hash`: *idx, or SIZE_MAX;
 * *named (when not NULL): some record has this name, with any hash. In
 * log n after a first call that sorts an index (n log n), however many
 * records share the name. Returns 0 or PB_ENOMEM (no index: *idx SIZE_MAX,
 * which must not be read as "absent"). Safe from several threads. */
int pbi_profile_find_name_hash(const pb_profile *p, const void *name, size_t len, uint64_t hash, size_t *idx,
                               int *named);
/* The generator alone (for tests): std::mt19937 with its default seed, and
 * libstdc++'s uniform_int_distribution<uint64_t>(0, hi) over it. */
pbi_trace_rng *pbi_trace_rng_new(void);
uint32_t pbi_trace_rng_next(pbi_trace_rng *g);
uint64_t pbi_trace_rng_uniform(pbi_trace_rng *g, uint64_t hi);

#endif
