/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_records.c -- adding records, reading them back, their LLVM names
 * and the lookups by name / NameRef.
 *
 * Records live in one growable array of pb_record; their counters, bitmaps,
 * sites and values live in the profile's arena. A hash index over the keys
 * (open addressing, record index + 1 per slot) gives O(1) duplicate
 * detection and merge.
 */
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/grow.h"
#include "util/hugepage.h"
#include "model/jname.h"
#include "model/profile_internal.h"
#include "model/profile_records.h"
#include "model/rname_md5.h"
#include "model/str_md5.h"
#include "util/api.h"

/* ---- keys ------------------------------------------------------------------ */

uint64_t pbi_record_key_hash(const pb_record *r) {
    if (r->kind == PB_REC_FUNCTION) return pbu_hash_u64(r->hash ^ pbu_hash_u64(r->name));
    uint64_t k = ((uint64_t)r->ctx << 32) | r->layout;
    return pbu_hash_u64(k + UINT64_C(0x9e3779b97f4a7c15) * r->kind);
}

int pbi_record_key_equal(const pb_record *a, const pb_record *b) {
    if (a->kind != b->kind) return 0;
    if (a->kind == PB_REC_FUNCTION) return a->name == b->name && a->hash == b->hash;
    return a->ctx == b->ctx && a->layout == b->layout;
}

static int key_index_grow(pb_profile *p, size_t want) {
    size_t n = p->key_nslots ? p->key_nslots : 64;
    while (n < want * 2) n *= 2;
    if (n == p->key_nslots) return 0;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s) return PB_ENOMEM;
    for (size_t i = 0; i < p->num_recs; i++) {
        size_t b = (size_t)pbi_record_key_hash(&p->recs[i]) & (n - 1);
        while (s[b]) b = (b + 1) & (n - 1);
        s[b] = (uint32_t)i + 1;
    }
    free(p->key_slots);
    p->key_slots = s;
    p->key_nslots = n;
    return 0;
}

/* Adds the records appended since the last lookup to the index; 0 or PB_ENOMEM. */
static int key_index_catch_up(pb_profile *p) {
    if (p->key_indexed == p->num_recs && p->key_nslots) return 0;
    if ((p->num_recs + 1) * 2 > p->key_nslots) {
        /* key_index_grow re-inserts every record, so all are indexed after it */
        int rc = key_index_grow(p, p->num_recs + 1);
        if (rc) return rc;
        p->key_indexed = p->num_recs;
        return 0;
    }
    size_t mask = p->key_nslots - 1;
    for (size_t i = p->key_indexed; i < p->num_recs; i++) {
        size_t b = (size_t)pbi_record_key_hash(&p->recs[i]) & mask;
        while (p->key_slots[b]) b = (b + 1) & mask;
        p->key_slots[b] = (uint32_t)i + 1;
    }
    p->key_indexed = p->num_recs;
    return 0;
}

size_t pbi_find_record(const pb_profile *cp, const pb_record *r) {
    /* The index is a cache of the records (logically const, as the name caches). */
    pb_profile *p = (pb_profile *)(uintptr_t)cp;
    pbi_cache_lock(p);
    int stale = key_index_catch_up(p);
    pbi_cache_unlock(p);
    if (stale) {
        /* No memory for the index: a slow scan still gives the right answer. */
        for (size_t i = 0; i < p->num_recs; i++)
            if (pbi_record_key_equal(&p->recs[i], r)) return i;
        return SIZE_MAX;
    }
    size_t mask = p->key_nslots - 1, b = (size_t)pbi_record_key_hash(r) & mask;
    while (p->key_slots[b]) {
        size_t i = p->key_slots[b] - 1;
        if (pbi_record_key_equal(&p->recs[i], r)) return i;
        b = (b + 1) & mask;
    }
    return SIZE_MAX;
}

int pbi_profile_permute_records(pb_profile *p, const size_t *order, pb_error *err) {
    size_t n = p->num_recs;
    pb_record *recs = malloc((n ? n : 1) * sizeof *recs);
    pbi_rname *names = p->rnames ? malloc((n ? n : 1) * sizeof *names) : NULL;
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!recs || !seen || (p->rnames && !names)) {
        free(recs);
        free(names);
        free(seen);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    for (size_t k = 0; k < n; k++) {
        if (order[k] >= n || seen[order[k]]) {
            free(recs);
            free(names);
            free(seen);
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "not a permutation of the records");
        }
        seen[order[k]] = 1;
        recs[k] = p->recs[order[k]];
        if (names) names[k] = order[k] < p->num_rnames ? p->rnames[order[k]] : (pbi_rname){0};
    }
    free(seen);
    if (n) memcpy(p->recs, recs, n * sizeof *recs);
    free(recs);
    if (names) {
        /* every record has its slot now (an unrendered one a zeroed one) */
        free(p->rnames);
        p->rnames = names;
        p->num_rnames = n;
    }
    /* the key index holds positions: all of them again */
    if (p->key_slots) memset(p->key_slots, 0, p->key_nslots * sizeof *p->key_slots);
    p->key_indexed = 0;
    pbi_invalidate_record_caches(p);
    return 0;
}

void pbi_invalidate_record_caches(pb_profile *p) {
    free(p->lookup);
    p->lookup = NULL;
    p->num_lookup = 0;
    free(p->keys);
    p->keys = NULL;
    p->num_keys = 0;
}

void pbi_invalidate_method_caches(pb_profile *p) {
    free(p->descs);
    p->descs = NULL;
    p->num_descs = 0;
    pbu_arena_free(&p->desc_arena);
}

/* ---- validation -------------------------------------------------------------- */

static const char *const kind_names[PB_REC_KIND_COUNT] = {
    "function", "Java call count", "Java branch", "Java virtual invoke",
    "Java instanceof", "Java monitor", "Java sample"};

static int bad(pb_error *err, const char *fmt, unsigned a, unsigned b) {
    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record", fmt, a, b);
}

int pbi_validate_record(const pb_profile *p, const pb_record *r, pb_error *err) {
    if (r->kind >= PB_REC_KIND_COUNT) return bad(err, "unknown record kind %u (of %u)", r->kind, PB_REC_KIND_COUNT);
    const char *kn = kind_names[r->kind];
    if (r->num_counters == 0 || !r->counters)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record", "%s record without counters", kn);
    if (r->kind == PB_REC_FUNCTION) {
        if (r->name == PB_NONE || r->name >= p->strs.count)
            return bad(err, "function record names string %u of %u", r->name, p->strs.count);
    } else if (r->kind == PB_REC_JAVA_MONITOR) {
        if (r->ctx != PB_NONE)
            return bad(err, "Java monitor record has context %u (expected none%.0u)", r->ctx, 0);
    } else if (r->ctx == PB_NONE || r->ctx >= p->ctxs.count) {
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record",
                            "%s record names context %u of %u", kn, (unsigned)r->ctx,
                            (unsigned)p->ctxs.count);
    }
    if (r->kind == PB_REC_JAVA_BRANCH) {
        if (r->layout == PB_NONE || r->layout >= p->ints.count)
            return bad(err, "Java branch record names layout %u of %u", r->layout, p->ints.count);
        size_t nl;
        (void)pb_profile_ints(p, r->layout, &nl);
        if (nl % 2)
            return bad(err, "Java branch layout has %u ints (expected pairs%.0u)", (unsigned)nl, 0);
        if ((uint64_t)r->num_counters != 1 + (uint64_t)nl / 2)
            return bad(err, "Java branch record has %u counters, its layout needs %u",
                       r->num_counters, (unsigned)(1 + nl / 2));
    } else if (r->kind != PB_REC_FUNCTION && r->layout != PB_NONE) {
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record",
                            "%s record has a layout (only branches have one)", kn);
    }
    if (r->num_bitmap_bytes && !r->bitmap)
        return bad(err, "record claims %u bitmap bytes but has none%.0u", r->num_bitmap_bytes, 0);
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (r->num_sites[k] && !r->sites[k])
            return bad(err, "record claims %u sites of value kind %u but has none", r->num_sites[k], (unsigned)k);
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            const pb_site *site = &r->sites[k][s];
            if (site->num_values && !site->values)
                return bad(err, "value site %u of kind %u has no values", s, (unsigned)k);
            for (uint32_t v = 0; v < site->num_values; v++) {
                uint32_t sym = site->values[v].symbol;
                if (sym == PB_NONE) continue;
                if (sym >= p->sym_keys.count)
                    return bad(err, "a value names symbol %u of %u", sym, p->sym_keys.count);
                if (p->syms[sym].md5 != site->values[v].value)
                    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record",
                                        "value 0x%016llx stands for symbol %u whose NameRef is "
                                        "0x%016llx",
                                        (unsigned long long)site->values[v].value, (unsigned)sym,
                                        (unsigned long long)p->syms[sym].md5);
            }
        }
    }
    return 0;
}

/* ---- adding ------------------------------------------------------------------------ */

int pbi_profile_reserve_records(pb_profile *p, size_t more) {
    if (more > UINT32_MAX - 1 - p->num_recs) return 0; /* pbi_append_record refuses them anyway */
    size_t need = p->num_recs + more;
    if (need <= p->cap_recs) return 0;
    pb_record *a = realloc(p->recs, need * sizeof *a);
    if (!a) return PB_ENOMEM;
    pbu_hugepage_hint(a, need * sizeof *a); /* written whole just after */
    p->recs = a;
    p->cap_recs = need;
    return 0;
}

int pbi_append_record(pb_profile *p, const pb_record *rec, size_t *index, pb_error *err) {
    if (p->num_recs >= UINT32_MAX - 1)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "too many records");
    if (pbu_grow((void **)&p->recs, &p->cap_recs, p->num_recs + 1, sizeof *p->recs)) goto nomem;

    pb_record r = *rec;
    pbu_arena *a = &p->arena;
    if (r.kind == PB_REC_FUNCTION) {
        r.ctx = PB_NONE;
        r.layout = PB_NONE;
    } else {
        r.name = PB_NONE;
        r.hash = 0; /* derived from the name when asked */
    }
    r.counters = pbu_arena_dup(a, rec->counters, (size_t)rec->num_counters * 8, 8);
    if (!r.counters) goto nomem;
    r.bitmap = NULL;
    if (rec->num_bitmap_bytes) {
        r.bitmap = pbu_arena_dup(a, rec->bitmap, rec->num_bitmap_bytes, 1);
        if (!r.bitmap) goto nomem;
    }
    for (int k = 0; k < PB_VK_COUNT; k++) {
        r.sites[k] = NULL;
        if (!rec->num_sites[k]) continue;
        pb_site *sites = pbu_arena_alloc(a, (size_t)rec->num_sites[k] * sizeof *sites, 8);
        if (!sites) goto nomem;
        for (uint32_t s = 0; s < rec->num_sites[k]; s++) {
            const pb_site *src = &rec->sites[k][s];
            sites[s].num_values = src->num_values;
            sites[s].values = NULL;
            if (src->num_values) {
                sites[s].values = pbu_arena_dup(a, src->values,
                                                (size_t)src->num_values * sizeof(pb_value), 8);
                if (!sites[s].values) goto nomem;
            }
        }
        r.sites[k] = sites;
    }
    size_t i = p->num_recs++;
    p->recs[i] = r; /* indexed by the next lookup (key_index_catch_up) */
    if (r.kind == PB_REC_FUNCTION && p->fn_name_bound != UINT32_MAX && r.name >= p->fn_name_bound)
        p->fn_name_bound = r.name == UINT32_MAX - 1 ? UINT32_MAX : r.name + 1;
    pbi_invalidate_record_caches(p);
    if (index) *index = i;
    return 0;
nomem:
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a record");
}

int pb_profile_add_record(pb_profile *p, const pb_record *rec, size_t *index, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (!rec) return pbu_null_arg(err, __func__, "rec");
    int rc = pbi_validate_record(p, rec, err);
    if (rc) return rc;
    int fresh_name = rec->kind == PB_REC_FUNCTION && p->fn_name_bound != UINT32_MAX &&
                     rec->name >= p->fn_name_bound;
    if (!fresh_name && pbi_find_record(p, rec) != SIZE_MAX) {
        /* Name the key in the message without caching a name for a record
         * that is not added (readers may hit many duplicates). */
        pb_buf b = PB_BUF_INIT;
        uint64_t hash = rec->hash;
        if (rec->kind == PB_REC_FUNCTION) {
            size_t n;
            const char *s = pb_profile_str(p, rec->name, &n);
            pbu_buf_append(&b, s, n);
        } else if (pbi_jname_render(p, rec, &b) == 0) {
            hash = pbi_jname_hash(b.data, b.len);
        }
        pb_error_set(err, PB_EEXIST, PB_NO_OFFSET, "record",
                     "a record %.*s with hash 0x%016llx exists", b.len > 300 ? 300 : (int)b.len,
                     b.data ? b.data : "", (unsigned long long)hash);
        pbu_buf_free(&b);
        return PB_EEXIST;
    }
    return pbi_append_record(p, rec, index, err);
}

size_t pb_profile_record_count(const pb_profile *p) { return p->num_recs; }

const pb_record *pb_profile_record(const pb_profile *p, size_t i) {
    return i < p->num_recs ? &p->recs[i] : NULL;
}

pb_record *pb_profile_record_mut(pb_profile *p, size_t i) {
    return i < p->num_recs ? &p->recs[i] : NULL;
}

/* ---- names ----------------------------------------------------------------------------- */

/* Renders a Java record's name into the name arena (lives until free),
 * without its hash. */
static int render_text(pb_profile *p, const pb_record *r, pbi_rname *out) {
    pb_buf *b = &p->scratch;
    pbu_buf_reset(b);
    b->failed = 0;
    int rc = pbi_jname_render(p, r, b);
    if (!rc && b->len >= UINT32_MAX) rc = PB_ENOMEM;
    if (!rc) {
        char *t = pbu_arena_alloc(&p->name_arena, b->len + 1, 1);
        if (!t) {
            rc = PB_ENOMEM;
        } else {
            memcpy(t, b->data, b->len + 1);
            out->name = t;
            out->len = (uint32_t)b->len;
        }
    }
    return rc;
}

/* render_text and the name's full NameRef (the hash masks it). */
static int render_java(pb_profile *p, const pb_record *r, pbi_rname *out) {
    int rc = render_text(p, r, out);
    if (!rc) out->hash = pb_md5_ref(out->name, out->len);
    return rc;
}

/* One cache entry per record slot, the new ones empty. */
static int grow_rnames(pb_profile *p) {
    if (p->num_rnames < p->num_recs) {
        pbi_rname *n = realloc(p->rnames, p->cap_recs * sizeof *n);
        if (!n) return PB_ENOMEM;
        memset(n + p->num_rnames, 0, (p->cap_recs - p->num_rnames) * sizeof *n);
        p->rnames = n;
        p->num_rnames = p->cap_recs;
    }
    return 0;
}

/* The cache entry of record i, rendered on first use. */
static int cached_name(pb_profile *p, size_t i, const pbi_rname **out) {
    if (grow_rnames(p)) return PB_ENOMEM;
    pbi_rname *e = &p->rnames[i];
    if (!e->name) {
        int rc = render_java(p, &p->recs[i], e);
        if (rc) return rc;
    }
    *out = e;
    return 0;
}

void pbi_profile_render_names(const pb_profile *cp) {
    pb_profile *p = (pb_profile *)cp; /* caches are logically const */
    size_t i = 0;
    while (i < p->num_recs && p->recs[i].kind == PB_REC_FUNCTION) i++;
    if (i == p->num_recs) return; /* LLVM functions only: nothing to render */
    pbi_cache_lock(p);
    size_t *todo = grow_rnames(p) ? NULL : malloc((p->num_recs - i) * sizeof *todo);
    size_t n = 0;
    for (; todo && i < p->num_recs; i++) {
        pbi_rname *e = &p->rnames[i];
        if (p->recs[i].kind == PB_REC_FUNCTION || e->name) continue;
        /* a name that cannot be rendered is left to cached_name, which says why */
        if (render_text(p, &p->recs[i], e)) break;
        todo[n++] = i;
    }
    if (todo) pbi_rname_md5_all(p->rnames, todo, n); /* a rendered name always has its hash */
    pbi_cache_unlock(p);
    free(todo);
}

int pb_profile_record_name(const pb_profile *cp, const pb_record *r, const char **name,
                           size_t *len, uint64_t *hash, pb_error *err) {
    pbu_api_enter(err);
    pb_profile *p = (pb_profile *)cp; /* caches are logically const */
    if (r->kind == PB_REC_FUNCTION) {
        if (r->name >= p->strs.count)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record", "record names no string");
        const char *n = pb_profile_str(p, r->name, len);
        if (name) *name = n;
        if (hash) *hash = r->hash;
        return 0;
    }
    pbi_rname tmp;
    const pbi_rname *e = &tmp;
    int rc;
    uintptr_t a = (uintptr_t)r, lo = (uintptr_t)p->recs, hi = (uintptr_t)(p->recs + p->num_recs);
    pbi_cache_lock(p);
    if (p->recs && a >= lo && a < hi && (a - lo) % sizeof *r == 0)
        rc = cached_name(p, (size_t)(r - p->recs), &e);
    else
        rc = render_java(p, r, &tmp); /* a record outside the profile: not cached */
    if (!rc) tmp = *e; /* copied under the lock: rnames may grow for another record */
    pbi_cache_unlock(p);
    e = &tmp;
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot render a record name");
    if (rc)
        return pb_error_set(err, rc, PB_NO_OFFSET, "record",
                            "record names a context, method or layout the profile lacks");
    if (name) *name = e->name;
    if (len) *len = e->len;
    if (hash) *hash = pbi_jname_hash_of_ref(e->hash);
    return 0;
}

uint64_t pbi_profile_record_name_md5(const pb_profile *cp, size_t i) {
    pb_profile *p = (pb_profile *)cp; /* caches are logically const */
    if (i >= p->num_recs) return 0;
    if (p->recs[i].kind == PB_REC_FUNCTION) {
        const char *n = NULL;
        size_t len = 0;
        if (pb_profile_record_name(p, &p->recs[i], &n, &len, NULL, NULL)) return 0;
        return pb_md5_ref(len ? n : "", len);
    }
    /* cached_name renders and hashes a name the cache lacks, once, and keeps
     * it: the full hash is then read back, not computed a second time */
    const pbi_rname *e = NULL;
    uint64_t ref = 0;
    pbi_cache_lock(p);
    if (!cached_name(p, i, &e)) ref = e->hash;
    pbi_cache_unlock(p);
    return ref;
}

/* ---- lookup ----------------------------------------------------------------------------- */

static int cmp_lookup(const void *x, const void *y) {
    const pbi_lookup_entry *a = x, *b = y;
    if (a->ref != b->ref) return a->ref < b->ref ? -1 : 1;
    return a->rec < b->rec ? -1 : a->rec > b->rec;
}

static int build_lookup(pb_profile *p) {
    if (p->lookup || !p->num_recs) return 0;
    pbi_lookup_entry *l = malloc(p->num_recs * sizeof *l);
    if (!l) return PB_ENOMEM;
    for (size_t i = 0; i < p->num_recs; i++) {
        const pb_record *r = &p->recs[i];
        uint64_t ref;
        if (r->kind == PB_REC_FUNCTION) {
            size_t n;
            const char *s = pb_profile_str(p, r->name, &n);
            ref = pb_md5_ref(s, n);
        } else {
            const pbi_rname *e;
            if (cached_name(p, i, &e)) {
                free(l);
                return PB_ENOMEM;
            }
            ref = e->hash;
        }
        l[i].ref = ref;
        l[i].rec = (uint32_t)i;
    }
    qsort(l, p->num_recs, sizeof *l, cmp_lookup);
    p->lookup = l;
    p->num_lookup = p->num_recs;
    return 0;
}

/* build_lookup under the cache lock: the one way in. */
static int build_lookup_locked(const pb_profile *cp) {
    pb_profile *p = (pb_profile *)(uintptr_t)cp;
    pbi_cache_lock(p);
    int rc = build_lookup(p);
    pbi_cache_unlock(p);
    return rc;
}

int pbi_profile_build_lookup(const pb_profile *p) { return build_lookup_locked(p); }

/* First lookup entry with this ref. */
static size_t lower_bound(const pb_profile *p, uint64_t ref) {
    size_t lo = 0, hi = p->num_lookup;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->lookup[mid].ref < ref)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t pb_profile_lookup_ref(const pb_profile *cp, uint64_t ref, size_t *indices, size_t max) {
    pb_profile *p = (pb_profile *)cp;
    if (build_lookup_locked(p)) return 0;
    size_t found = 0;
    for (size_t i = lower_bound(p, ref); i < p->num_lookup && p->lookup[i].ref == ref; i++) {
        if (found < max && indices) indices[found] = p->lookup[i].rec;
        found++;
    }
    return found;
}

size_t pb_profile_lookup(const pb_profile *cp, const void *name, size_t len, size_t *indices,
                         size_t max) {
    pb_profile *p = (pb_profile *)cp;
    if (build_lookup_locked(p)) return 0;
    uint64_t ref = pb_md5_ref(len ? name : "", len);
    size_t found = 0;
    for (size_t i = lower_bound(p, ref); i < p->num_lookup && p->lookup[i].ref == ref; i++) {
        const char *n;
        size_t nl;
        if (pb_profile_record_name(p, &p->recs[p->lookup[i].rec], &n, &nl, NULL, NULL)) continue;
        if (nl != len || (len && memcmp(n, name, len) != 0)) continue; /* MD5 collision */
        if (found < max && indices) indices[found] = p->lookup[i].rec;
        found++;
    }
    return found;
}

/* ---- lookup by name and hash ----------------------------------------------------------- */

static int cmp_key(const void *x, const void *y) {
    const pbi_key_entry *a = x, *b = y;
    if (a->ref != b->ref) return a->ref < b->ref ? -1 : 1;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->rec < b->rec ? -1 : a->rec > b->rec;
}

/* The (NameRef, hash) index, sorted once: a profile whose records all share
 * one name is searched in log n, where the name lookup hands back all n. */
static int build_keys(pb_profile *p) {
    if (p->keys || !p->num_recs) return 0;
    int rc = build_lookup(p);
    if (rc) return rc;
    pbi_key_entry *k = malloc(p->num_lookup * sizeof *k);
    if (!k) return PB_ENOMEM;
    for (size_t i = 0; i < p->num_lookup; i++) {
        const pb_record *r = &p->recs[p->lookup[i].rec];
        uint64_t h;
        if (r->kind == PB_REC_FUNCTION) {
            h = r->hash;
        } else {
            const pbi_rname *e;
            if ((rc = cached_name(p, p->lookup[i].rec, &e))) {
                free(k);
                return rc;
            }
            h = pbi_jname_hash_of_ref(e->hash); /* as pb_profile_record_name */
        }
        k[i] = (pbi_key_entry){p->lookup[i].ref, h, p->lookup[i].rec};
    }
    qsort(k, p->num_lookup, sizeof *k, cmp_key);
    p->keys = k;
    p->num_keys = p->num_lookup;
    return 0;
}

/* The first key entry not below (ref, hash). */
static size_t key_lower_bound(const pb_profile *p, uint64_t ref, uint64_t hash) {
    size_t lo = 0, hi = p->num_keys;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pbi_key_entry *e = &p->keys[mid];
        if (e->ref < ref || (e->ref == ref && e->hash < hash)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* 1 when record rec's LLVM name is these bytes (a NameRef can collide). */
static int name_is(const pb_profile *p, uint32_t rec, const void *name, size_t len) {
    const char *n;
    size_t nl;
    if (pb_profile_record_name(p, &p->recs[rec], &n, &nl, NULL, NULL)) return 0;
    return nl == len && (len == 0 || memcmp(n, name, len) == 0);
}

int pbi_profile_find_name_hash(const pb_profile *cp, const void *name, size_t len, uint64_t hash, size_t *idx,
                               int *named) {
    pb_profile *p = (pb_profile *)(uintptr_t)cp;
    *idx = SIZE_MAX;
    if (named) *named = 0;
    pbi_cache_lock(p);
    int rc = build_keys(p);
    pbi_cache_unlock(p);
    if (rc) return rc;
    uint64_t ref = pb_md5_ref(len ? name : "", len);
    size_t lo = key_lower_bound(p, ref, hash);
    for (size_t i = lo; i < p->num_keys && p->keys[i].ref == ref && p->keys[i].hash == hash; i++)
        if (name_is(p, p->keys[i].rec, name, len)) {
            *idx = p->keys[i].rec;
            if (named) *named = 1;
            return 0;
        }
    if (!named) return 0;
    /* any record of this name, with another hash: the first of the NameRef's
     * entries whose name matches (a NameRef collision is the only way past one) */
    for (size_t i = key_lower_bound(p, ref, 0); i < p->num_keys && p->keys[i].ref == ref; i++)
        if (name_is(p, p->keys[i].rec, name, len)) {
            *named = 1;
            break;
        }
    return 0;
}
