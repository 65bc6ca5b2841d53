/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_internal.h -- the pb_profile struct, shared by the model's files
 * (profile*.c, jname.c, import.c) and by them alone (tests/tools/layers.py
 * fails on an includer outside src/model/). The rooms above reach a profile
 * through profile.h and the model's room-level headers: profile_records.h
 * (record index and checks, the lookup index) and profile_traces.h (the
 * traces a merge samples).
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
#include "model/profile_traces.h"
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

/* Classes of kept value blocks (grown_values.c): capacities 2^0 .. 2^31+. */
#define PBI_GROWN_CLASSES 32

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

    pbu_intern strs; /* pb_str ids */

    /* Symbols: key blob = {name} or {PB_NONE, id low, id high}; the key's
     * id is the symbol index. */
    pbu_intern sym_keys;
    pb_symbol *syms;
    size_t cap_syms;
    pbu_map sym_by_md5;

    /* Methods: key blob = {name, sig...} or {PB_NONE, id low, id high};
     * the key's id is the method index and pb_method.sig points into it. */
    pbu_intern meth_keys;
    pb_method *meths;
    size_t cap_meths;

    pbu_intern ctxs; /* pb_frame arrays */
    pbu_intern ints; /* int32_t arrays */

    /* Records and their arrays. */
    pbu_arena arena;
    /* Value arrays a merge grew (pbi_profile_values_room): each block's
     * capacity by its address, and the blocks no site uses any more, by
     * floor(log2(capacity)), linked through their first bytes. */
    pbu_map grown_cap;
    void *grown_free[PBI_GROWN_CLASSES];
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
    pbu_arena name_arena;      /* rendered record names, live until free */
    pbi_rname *rnames;         /* per record, or NULL */
    size_t num_rnames;
    pbu_arena desc_arena;      /* rendered method descriptors */
    struct pbi_desc *descs;    /* per method, or NULL */
    size_t num_descs;
    pb_buf scratch;            /* reused while rendering names */
    pbi_lookup_entry *lookup;  /* sorted by ref, or NULL when stale */
    size_t num_lookup;
    pbi_key_entry *keys;       /* sorted by ref, hash, record; or NULL when stale */
    size_t num_keys;

    /* readers' caches for the next input merged into this profile (attach.h) */
    struct pbi_attachment {
        const void *tag;
        void *data;
        void (*free_fn)(void *);
    } *att;
    size_t num_att, cap_att;
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
/* The lock of the caches above; p is const because the getters that fill a
 * cache are. */
void pbi_cache_lock(const pb_profile *p);
void pbi_cache_unlock(const pb_profile *p);

/* Drops caches that depend on record positions (after add/reorder). */
void pbi_invalidate_record_caches(pb_profile *p);
/* Drops the method descriptor cache (after methods are reordered). */
void pbi_invalidate_method_caches(pb_profile *p);

#endif
