/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_read.c -- reads an indexed profile into the model, looks one
 * function up by name (pb_indexed_lookup), and hands the records out one by
 * one without a model (pb_indexed_foreach, for `show`; profbridge/indexed.h).
 *
 * Stricter than LLVM where LLVM silently drops data: a key whose records do
 * not parse is an error with its offset here (LLVM returns no records for
 * it), and a record with zero counters is refused (LLVM's tools crash).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "indexed_internal.h"
#include "profbridge/indexed.h"
#include "llvm/llvm_values.h"
#include "profbridge/indexed.h"
#include "util/api.h"
#include "util/grow.h"
#include "model/str_md5.h"
#include "model/profile_records.h"
#include "merge/merge_stream.h"

typedef struct read_ctx {
    const pbi_idx_file *f;
    pb_profile *p;
    pbi_idx_scratch s;
    pb_str name;
    pb_diag_fn diag;
    void *diag_ctx;
    const char *source;
    uint64_t duplicates;
    uint64_t bad_key_hashes, first_bad_key_hash; /* KeyHash != MD5(key): lookups would miss */
    uint64_t first_bad_key_want;                 /* MD5 of that key */
    uint64_t empty_keys, first_empty_key;        /* KeyLen 0: the name no function has */
    int strict_keys;                             /* validate: a bad KeyHash is an error (strict_key_hashes) */
    pb_error scratch; /* for adding records; clear between uses */
    /* visiting (pb_format.visit, pb_indexed_foreach): records go to vis
     * instead of the model */
    const pb_record_visitor *vis;
    void *vis_ctx;
    uint64_t name_off; /* the current key's name */
    size_t name_len;
    const uint64_t *key_md5; /* pbi_idx_key_md5s, or NULL: hash while walking */
    size_t num_key_md5, next_key;
    /* merging (o->merge_into): the destination, whose names' MD5s are known
     * (pbi_profile_known_str_md5); key_index counts the keys walked */
    const pb_profile *known;
    size_t key_index;
    pb_source *in;     /* the mapped input, its pages dropped behind the walk; or NULL */
    uint64_t dropped;  /* bytes before this are done with */
} read_ctx;

/* Pages behind the walk leave resident memory every this many bytes: the
 * model of a 300 MB file's records was resident together with all of it. */
#define DROP_STEP ((uint64_t)32 << 20)

static int on_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    read_ctx *c = ctx;
    r->name = c->name;
    /* Vtable targets name symbols of the vtable-names section (read first). */
    for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++) {
        pb_site *site = &r->sites[PB_VK_VTABLE][s];
        for (uint32_t i = 0; i < site->num_values; i++) {
            uint32_t sym;
            if (site->values[i].value && pb_profile_find_symbol_md5(c->p, site->values[i].value, &sym) == 0)
                site->values[i].symbol = sym;
        }
    }
    /* c->scratch stays clear while adds succeed (clearing 1.3 KB per record
     * showed in profiles); it is cleared again after any use */
    pb_error *local = &c->scratch;
    int rc = pb_profile_add_record(c->p, r, NULL, local);
    if (rc == PB_EEXIST) {
        /* Two records with one (name, hash) cannot come from LLVM's writer;
         * LLVM's reader would hand out both and merge them. Do the same. */
        c->duplicates++;
        pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
        mo.max_values_per_site = 0;
        mo.diag = c->diag;
        mo.diag_ctx = c->diag_ctx;
        mo.source = c->source;
        pb_error_clear(local);
        rc = pb_profile_merge_record(c->p, r, &mo, local);
    }
    if (rc) {
        if (local->code && local->offset == PB_NO_OFFSET) local->offset = off;
        if (err && !err->code) {
            char src[sizeof err->source];
            memcpy(src, err->source, sizeof src);
            *err = *local;
            if (src[0]) memcpy(err->source, src, sizeof src);
        }
    }
    if (local->code) pb_error_clear(local);
    return rc;
}

/* What every walk of the keys notes of key it, whose MD5 is want: an empty
 * key and a stored hash other than want (the first of each, for the
 * notices), and the pages of the file behind it released. */
static void key_seen(read_ctx *c, const pbi_idx_item *it, uint64_t want) {
    if (it->key_len == 0 && c->empty_keys++ == 0) c->first_empty_key = it->off + 8;
    c->key_index++;
    if (want != it->key_hash && c->bad_key_hashes++ == 0) {
        c->first_bad_key_hash = it->off;
        c->first_bad_key_want = want;
    }
    if (c->in && it->off >= c->dropped + DROP_STEP && it->off <= SIZE_MAX) {
        pb_source_map_done_before(c->in, (size_t)it->off);
        c->dropped = it->off;
    }
}

static int on_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count,
                   pb_error *err) {
    (void)bucket_off;
    (void)count;
    read_ctx *c = ctx;
    const uint8_t *key = c->f->data + it->key_off;
    uint64_t want = c->next_key < c->num_key_md5 ? c->key_md5[c->next_key++] : 0;
    if (!want && c->known) want = pbi_profile_known_str_md5(c->known, key, (size_t)it->key_len, c->key_index);
    if (!want) want = pb_md5_ref(key, (size_t)it->key_len);
    key_seen(c, it, want);
    int rc = pb_profile_intern(c->p, c->f->data + it->key_off, (size_t)it->key_len, &c->name, err);
    if (rc) return rc;
    /* computed anyway: writers and bridges that need the NameRef ask for it */
    pbi_profile_note_str_md5(c->p, c->name, want);
    return pbi_idx_records(c->f, it, &c->s, on_record, c, err);
}

static int on_vtable_name(void *ctx, const char *name, size_t len, pb_error *err) {
    read_ctx *c = ctx;
    uint32_t sym;
    return pb_profile_add_symbol(c->p, name, len, &sym, err);
}

/* Header facts every result carries: flags, origin; vtable names as symbols. */
static int start_profile(read_ctx *c, pb_error *err) {
    int rc = pb_profile_new(&c->p, err);
    if (rc) return rc;
    pb_profile_set_flags(c->p, c->f->flags);
    pb_origin o;
    memset(&o, 0, sizeof o);
    snprintf(o.format, sizeof o.format, "indexed");
    o.version = c->f->version;
    pb_profile_set_origin(c->p, &o);
    uint64_t vt_off, vt_len;
    if ((rc = pbi_idx_vtable_names_frame(c->f, &vt_off, &vt_len, err))) return rc;
    pb_error vt;
    pb_error_clear(&vt);
    rc = pbi_idx_vtable_names(c->f, on_vtable_name, c, &vt);
    if (rc == PB_ENOMEM) return pb_error_set(err, rc, PB_NO_OFFSET, NULL, "out of memory");
    if (rc) {
        /* LLVM decodes this section only lazily, so a damaged one does not
         * stop it from reading the records: warn and go on. */
        /* the sentence alone: the offset and section are the warning's own */
        char line[1024];
        if (!vt.message[0]) pb_error_format(&vt, line, sizeof line);
        pb_diag(c->diag, c->diag_ctx, PB_DIAG_WARNING, rc, c->source, vt.offset, "vtable_names",
                "vtable names ignored: %s", vt.message[0] ? vt.message : line);
    }
    return 0;
}

/* Notices shared by the model reader and the stream. */
static void memprof_notice(const read_ctx *c) {
    if (c->f->version >= PBI_IDX_MEMPROF_SINCE && (c->f->flags & PB_VARIANT_MEMPROF))
        pb_diag(c->diag, c->diag_ctx, PB_DIAG_NOTICE, 0, c->source, c->f->w[PBI_IDX_W_memprof_offset],
                "header.MemProfOffset",
                "MemProf section skipped (not part of the model); the MemProf flag is kept");
}

static void end_notices(const read_ctx *c) {
    if (c->s.uniformity_bytes)
        pb_diag(c->diag, c->diag_ctx, PB_DIAG_NOTICE, 0, c->source, PB_NO_OFFSET, NULL,
                "%llu bytes of v14 uniformity bits dropped (not part of the model)",
                (unsigned long long)c->s.uniformity_bytes);
    if (c->bad_key_hashes && !c->strict_keys)
        pb_diag(c->diag, c->diag_ctx, PB_DIAG_WARNING, 0, c->source, c->first_bad_key_hash, "hash_table.item.KeyHash",
                "%llu keys are stored under a hash that is not the MD5 of their name (lookups by name "
                "miss them; records read anyway, and written back with the right hash)",
                (unsigned long long)c->bad_key_hashes);
}

/* validate (report_all): a key stored under a hash that is not MD5(key) is an
 * error. clang -fprofile-use finds a function's records by MD5(name) and
 * compares the stored hash first: such a record is never found, and the
 * function is compiled as if unprofiled, silently (clang 13, 19 and 24 tried:
 * no function_entry_count on it). llvm-profdata show and merge walk the
 * payload and read it, so show, merge and convert keep the warning and write
 * the record back under the right hash, byte for byte as llvm-profdata merge. */
static int bad_key_hash_error(const read_ctx *c, pb_error *err) {
    uint64_t stored = pb_get_u64(c->f->data + c->first_bad_key_hash, PB_ORDER_LE);
    return pb_error_set(err, PB_EFORMAT, c->first_bad_key_hash, "hash_table.item.KeyHash",
                        "0x%016" PRIx64 " is not the MD5 of the item's key (0x%016" PRIx64
                        "): clang -fprofile-use, which finds records by that MD5, never reaches the "
                        "record (%llu such key%s in the file)",
                        stored, c->first_bad_key_want, (unsigned long long)c->bad_key_hashes,
                        c->bad_key_hashes == 1 ? "" : "s");
}

static int strict_key_hashes(const read_ctx *c, pb_error *err) {
    if (!c->strict_keys) return 0;
    if (c->empty_keys)
        return pb_error_set(err, PB_EFORMAT, c->first_empty_key, "hash_table.item.KeyLen",
                            "an empty key: no function is named \"\", so no compiler reaches its records "
                            "(llvm-profdata merge writes it for a raw record whose NameRef matches no name)");
    return c->bad_key_hashes ? bad_key_hash_error(c, err) : 0;
}

/* The sections after the hash table: binary ids, temporal traces. */
static int read_sections(read_ctx *c, pb_error *err) {
    int rc = pbi_idx_read_binary_ids(c->f, c->p, err);
    if (!rc) rc = pbi_idx_read_traces(c->f, c->p, err);
    return rc;
}

/* ---- merging straight from the mapped file (o->merge_into) ----
 *
 * Reading an input into a model only to merge it (interning every name,
 * copying every record, importing it into the destination) was about 40%
 * of merging 200 .profdata (callgrind). The file is walked twice instead:
 * a check (check_walk: every bound and value blob, no copy) so that a damaged
 * input fails before anything of it is merged, as the model read fails, and
 * the merge (merge_walk), which hands each record as it lies in the file to
 * the merge (merge/merge_stream.h) in the order the model's records would
 * have had: the walk's. The result is the model path's, byte for byte:
 * records in one order, the same record merge, the side profile's head
 * (flags, binary ids, traces) merged last by pbi_merge_stream_finish.
 * Taken only where the model read does nothing more (direct_ok): no vtable
 * names (values bound to symbols by the whole file's records), no key or
 * (name, hash) met twice (the model merges those first, without weight). */

/* A key of the current bucket, to find a key written twice (check_item). */
typedef struct seen_key {
    uint64_t off, len;
} seen_key;

typedef struct check_ctx {
    const pbi_idx_file *f;
    pbi_idx_scratch *s;
    seen_key *bucket; /* the keys of the bucket being walked */
    size_t nbucket, cap;
    uint64_t item_hashes[8]; /* the current key's record hashes, the first 8 */
    unsigned nhashes;
    int repeated; /* a key, or a hash of one key, met twice: the model path merges them first */
} check_ctx;

static int check_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    (void)off;
    (void)err;
    check_ctx *c = ctx;
    for (unsigned i = 0; i < c->nhashes; i++)
        if (c->item_hashes[i] == r->hash) c->repeated = 1;
    if (c->nhashes < 8) c->item_hashes[c->nhashes++] = r->hash;
    else c->repeated = 1; /* more hashes of one key than kept: let the model decide */
    return 0;
}

static int check_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    check_ctx *c = ctx;
    if (bucket_off != PB_NO_OFFSET) c->nbucket = 0;
    /* one key twice lies in one bucket (its stored hash picks it) */
    for (size_t i = 0; i < c->nbucket; i++)
        if (c->bucket[i].len == it->key_len &&
            memcmp(c->f->data + c->bucket[i].off, c->f->data + it->key_off, (size_t)it->key_len) == 0)
            c->repeated = 1;
    if (count > 1) {
        if (pbu_grow_err((void **)&c->bucket, &c->cap, c->nbucket + 1, sizeof *c->bucket, err)) return PB_ENOMEM;
        c->bucket[c->nbucket].off = it->key_off;
        c->bucket[c->nbucket++].len = it->key_len;
    }
    c->nhashes = 0;
    return pbi_idx_records(c->f, it, c->s, check_record, c, err);
}

/* Walks every key and record as the model read would, copying nothing.
 * *repeated: a key or (key, hash) is in the file twice. Returns the read's
 * error, or 0. */
static int check_walk(const pbi_idx_file *f, int *repeated, pb_error *err) {
    pbi_idx_scratch s;
    memset(&s, 0, sizeof s);
    s.check_only = 1;
    check_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.s = &s;
    int rc = pbi_idx_walk(f, check_item, &c, err);
    *repeated = c.repeated;
    free(c.bucket);
    pbi_idx_scratch_free(&s);
    return rc;
}

static int merge_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    (void)off;
    read_ctx *c = ctx;
    pbi_merge_stream *ms = c->vis_ctx;
    return pbi_merge_stream_function(ms, c->p, r, (const char *)c->f->data + c->name_off, c->name_len, &c->name,
                                     err);
}

static int merge_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    (void)bucket_off;
    (void)count;
    read_ctx *c = ctx;
    pbi_merge_stream *ms = c->vis_ctx;
    const uint8_t *key = c->f->data + it->key_off;
    uint64_t want = pbi_profile_known_str_md5(c->known, key, (size_t)it->key_len, c->key_index);
    if (!want) want = pb_md5_ref(key, (size_t)it->key_len);
    key_seen(c, it, want);
    c->name_off = it->key_off;
    c->name_len = (size_t)it->key_len;
    c->name = PB_NONE; /* the key's id in the destination, found by its first record */
    int rc = pbi_idx_records(c->f, it, &c->s, merge_record, c, err);
    /* the destination learns the name's MD5 (later inputs and the writer
     * need not hash it); a remapped key is merged under another name */
    if (!rc && c->name != PB_NONE && !ms->o->remap) pbi_profile_note_str_md5(ms->dst, c->name, want);
    return rc;
}

/* The model read's checks and notices around a merge of the records straight
 * into o->merge_into (see above). *merged 0: the file is one direct_ok
 * refuses (checked, nothing merged): the caller reads it as a model. */
static int merge_direct(read_ctx *c, pb_source *in, const pb_read_options *o, int checked, int *merged,
                        pb_error *err) {
    *merged = 0;
    if (pb_profile_symbol_count(c->p)) return 0; /* vtable names: bound by the model read */
    int repeated = 0, rc = 0;
    if (!checked && ((rc = check_walk(c->f, &repeated, err)) || repeated)) return rc;
    if ((rc = read_sections(c, err))) return rc;
    *merged = 1;
    pbi_merge_stream ms;
    if ((rc = pbi_merge_stream_init(&ms, o->merge_into, o->merge, err))) return rc;
    ms.flags = pb_profile_flags(c->p); /* the kind, checked before the first record */
    c->vis_ctx = &ms;
    c->in = in;
    rc = pbi_idx_walk(c->f, merge_item, c, err);
    if (!rc) {
        end_notices(c);
        rc = pbi_merge_stream_finish(&ms, c->p, err);
    }
    if (rc) pbi_merge_stream_fail(&ms);
    pbi_merge_stream_free(&ms);
    c->vis_ctx = NULL;
    return rc;
}

/* pbi_indexed_read; checked: the check walk of merge_direct passed already
 * (pbi_indexed_prepare, on another thread) */
static int read_input(pb_profile **out, pb_source *in, const uint8_t *data, size_t len, const pb_read_options *o,
                      int checked, pb_error *err) {
    pbi_idx_file f;
    read_ctx c;
    memset(&c, 0, sizeof c);
    pb_error_clear(&c.scratch);
    *out = NULL;
    /* mapped, not copied: the model copies every name and counter out of
     * the file, so a copy of a 300 MB file was only a second pass over it
     * and 300 MB of fresh pages to fault in (indexed -> iprof) */
    int rc = data ? 0 : pb_source_map(in, &data, &len, err);
    if (rc) return rc;
    if ((rc = pbi_idx_open(&f, data, len, err))) return rc;
    c.f = &f;
    c.diag = o ? o->diag : NULL;
    c.diag_ctx = o ? o->diag_ctx : NULL;
    c.source = pb_source_name(in);
    c.strict_keys = o && o->report_all;
    if ((rc = start_profile(&c, err))) goto out;
    memprof_notice(&c);
    /* merging into a profile that has records: most keys are its names,
     * whose MD5s it knows; hashing every key ahead (two cores) would be
     * wasted work */
    c.known = o && o->merge_into && pb_profile_record_count(o->merge_into) ? o->merge_into : NULL;
    if (c.known && !c.strict_keys) {
        int merged;
        rc = merge_direct(&c, in, o, checked, &merged, err);
        if (rc || merged) goto out_merged;
    }
    uint64_t *md5s = c.known ? NULL : pbi_idx_key_md5s(&f, &c.num_key_md5);
    c.key_md5 = md5s;
    c.in = in;
    /* the records the table holds, at most one per 48 bytes of the file
     * (an item's hash, key and data lengths, a record's hash, counter count
     * and one counter): never more than the bytes can hold, whatever the
     * header claims; a hint: without memory the array grows as records
     * come, and says so if it cannot */
    (void)pbi_profile_reserve_records(c.p, (size_t)(f.num_entries < len / 48 ? f.num_entries : len / 48));
    rc = pbi_idx_walk(&f, on_item, &c, err);
    pbi_idx_key_md5s_free(md5s, c.num_key_md5);
    c.key_md5 = NULL;
    c.num_key_md5 = 0;
    if (rc) goto out;
    if ((rc = strict_key_hashes(&c, err))) goto out;
    if ((rc = read_sections(&c, err))) goto out;
    pbi_llvm_bind_symbols(c.p);
    end_notices(&c);
    if (c.duplicates)
        pb_diag(c.diag, c.diag_ctx, PB_DIAG_WARNING, 0, c.source, PB_NO_OFFSET, NULL,
                "%llu records repeat a (name, hash) pair; merged", (unsigned long long)c.duplicates);
out:
    pbi_idx_scratch_free(&c.s);
    if (rc) {
        pb_profile_free(c.p);
        return rc;
    }
    *out = c.p;
    return 0;
out_merged: /* into o->merge_into: no model to hand out */
    pbi_idx_scratch_free(&c.s);
    pb_profile_free(c.p);
    return rc;
}

int pbi_indexed_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) {
    return read_input(out, in, NULL, 0, o, 0, err);
}

/* ---- a read in two halves (pb_format.prepare, for merge's threads) ----
 * The first half maps the file and runs merge_direct's check walk, the part
 * of a merge that needs no destination; the merging thread then only merges
 * (read_prepared). A damaged file is left for the second half, which reads
 * it as pbi_indexed_read does and reports it. */
typedef struct idx_prepared {
    pb_source *in;
    const uint8_t *data; /* in's bytes, mapped once */
    size_t len;
    int checked; /* the check walk passed and met no key twice */
} idx_prepared;

int pbi_indexed_prepare(void **state, pb_source *in, const pb_read_options *o, pb_error *err) {
    *state = NULL;
    idx_prepared *ip = calloc(1, sizeof *ip);
    if (!ip) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    const uint8_t *data;
    size_t len;
    int rc = pb_source_map(in, &data, &len, err);
    if (rc) {
        pb_error_set_source(err, pb_source_name(in));
        free(ip);
        return rc;
    }
    ip->in = in;
    ip->data = data;
    ip->len = len;
    pbi_idx_file f;
    pb_error quiet;
    pb_error_clear(&quiet);
    int repeated = 1;
    if (!(o && o->report_all) && pbi_idx_open(&f, data, len, &quiet) == 0 && check_walk(&f, &repeated, &quiet) == 0)
        ip->checked = !repeated;
    *state = ip;
    return 0;
}

int pbi_indexed_read_prepared(pb_profile **out, void *state, const pb_read_options *o, pb_error *err) {
    idx_prepared *ip = state;
    return read_input(out, ip->in, ip->data, ip->len, o, ip->checked, err);
}

void pbi_indexed_free_prepared(void *state) { free(state); }

int pb_indexed_lookup(const void *data, size_t len, const void *name, size_t name_len,
                      pb_profile **out, pb_error *err) {
    pbu_api_enter(err);
    pbi_idx_file f;
    pbi_idx_item it;
    read_ctx c;
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!data || !name || name_len == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "data and a non-empty name are required");
    memset(&c, 0, sizeof c);
    pb_error_clear(&c.scratch);
    int rc = pbi_idx_open(&f, data, len, err);
    if (rc) return rc;
    rc = pbi_idx_find(&f, name, name_len, &it, err);
    if (rc) return rc;
    c.f = &f;
    if ((rc = start_profile(&c, err))) goto out;
    rc = on_item(&c, &it, PB_NO_OFFSET, 0, err);
out:
    pbi_idx_scratch_free(&c.s);
    if (rc) {
        pb_profile_free(c.p);
        return rc;
    }
    *out = c.p;
    return 0;
}

/* ---- visiting (pb_format.visit; pb_indexed_foreach, profbridge/indexed.h) ---- */

static int on_stream_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    (void)off;
    read_ctx *c = ctx;
    if (!c->vis->record) return 0;
    return c->vis->record(c->vis_ctx, c->p, (const char *)c->f->data + c->name_off, c->name_len, r, err);
}

/* No MD5(key) check and no interning: the name is handed out as it lies in
 * the file (the MD5 was a tenth of `show` on big files). */
static int on_stream_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count,
                          pb_error *err) {
    (void)bucket_off;
    (void)count;
    read_ctx *c = ctx;
    c->name_off = it->key_off;
    c->name_len = (size_t)it->key_len;
    return pbi_idx_records(c->f, it, &c->s, on_stream_record, c, err);
}

/* The one walk without a model: one profile, its records in file order.
 * *side (when side is not NULL) receives the head. */
static int visit_bytes(const void *data, size_t len, const char *source, const pb_read_options *o,
                       const pb_record_visitor *v, void *vctx, pb_profile **side, pb_error *err) {
    pbi_idx_file f;
    read_ctx c;
    memset(&c, 0, sizeof c);
    pb_error_clear(&c.scratch);
    if (side) *side = NULL;
    c.source = source ? source : "<memory>";
    c.diag = o ? o->diag : NULL;
    c.diag_ctx = o ? o->diag_ctx : NULL;
    c.vis = v;
    c.vis_ctx = vctx;
    /* no record callback: only checked, so the counters and value data
     * are parsed in place and copied nowhere (pbi_idx_scratch.check_only) */
    c.s.check_only = v->record == NULL;
    int rc = pbi_idx_open(&f, data, len, err);
    c.f = &f;
    if (!rc) rc = start_profile(&c, err);
    if (!rc) {
        memprof_notice(&c);
        if (v->begin_profile) rc = v->begin_profile(vctx, 0, c.p, err);
    }
    if (!rc) rc = pbi_idx_walk(&f, on_stream_item, &c, err);
    if (!rc) rc = read_sections(&c, err);
    if (!rc) end_notices(&c);
    if (!rc && v->end_profile) rc = v->end_profile(vctx, 0, c.p, err);
    if (!rc && v->end_input) rc = v->end_input(vctx, c.p, err); /* one profile: the same head */
    pbi_idx_scratch_free(&c.s);
    if (rc || !side) {
        pb_profile_free(c.p);
        if (rc) pb_error_set_source(err, c.source);
        return rc;
    }
    *side = c.p;
    return 0;
}

int pbi_indexed_visit(pb_source *in, void *prepared, const pb_read_options *o, const pb_record_visitor *v,
                      void *ctx, pb_error *err) {
    (void)prepared; /* the prepared half holds only the check; the bytes are in's */
    const uint8_t *data;
    size_t len;
    int rc = pb_source_map(in, &data, &len, err); /* read-only use, as pbi_indexed_read */
    if (rc) return rc;
    return visit_bytes(data, len, pb_source_name(in), o, v, ctx, NULL, err);
}

/* pb_indexed_foreach's callbacks, as a visitor. */
typedef struct foreach_ctx {
    pb_indexed_start_fn start;
    pb_indexed_record_fn each;
    void *ctx;
} foreach_ctx;

static int foreach_begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    const foreach_ctx *fc = ctx;
    (void)k;
    return fc->start ? fc->start(fc->ctx, pb_profile_flags(head), err) : 0;
}

static int foreach_record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                          pb_error *err) {
    const foreach_ctx *fc = ctx;
    (void)head;
    return fc->each ? fc->each(fc->ctx, name, len, r, err) : 0;
}

/* Kept for its callers: a thin wrapper over the visit. */
int pb_indexed_foreach(const void *data, size_t len, const char *source, const pb_read_options *o,
                       pb_indexed_start_fn start, pb_indexed_record_fn each, void *ctx, pb_profile **side,
                       pb_error *err) {
    pbu_api_enter(err);
    if (!data && len) return pbu_null_arg(err, __func__, "data");
    if (o && pbu_check_version(err, "pb_read_options", o->version, PB_READ_OPTIONS_VERSION)) return PB_EINVAL;
    static const pb_record_visitor v = {foreach_begin, foreach_record, NULL, NULL};
    static const pb_record_visitor check = {foreach_begin, NULL, NULL, NULL};
    foreach_ctx fc = {start, each, ctx};
    return visit_bytes(data, len, source, o, each ? &v : &check, &fc, side, err);
}
