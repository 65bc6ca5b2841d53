/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_write.c -- writes an indexed profile the way llvm-profdata merge
 * of the target LLVM writes it (spec §3.3-§3.12), so that the same records
 * give the same bytes.
 *
 * Target: the LLVM release of pb_write_options.llvm_release (13..24, src/llvm/target.h),
 * which gives the indexed version (overridden by "indexed-version" 4..14)
 * and the rules that are not part of the layout, each a row of
 * PBI_LLVM_FEATURES: key insertion order (KEYS_SORTED; before it a StringMap
 * filled in order of first appearance, djb hash), record order inside a key
 * (INKEY_DENSE_MIX; before it DenseMap's x*37), the summary's special-count
 * rule (SUMMARY_LLVM14). Without a release, "indexed-version" N alone
 * acts as the first release that writes N (v7: 13, v10: 17, ...), else 19.
 * Each release's rules are checked byte for byte against its own
 * llvm-profdata by tests/interop/llvm_releases_merge.sh.
 *
 * "order" = "llvm" emulates those containers on the model's order (what
 * llvm-profdata does to its inputs); "preserve" keeps the model's order in
 * every bucket and key (an indexed file read and written again keeps its
 * bytes); "auto" (default) preserves when the model was read from an
 * indexed file, else emulates.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "model/write_notice.h"
#include "util/diag.h"
#include "util/bytes.h"
#include "util/grow.h"
#include "util/prefetch.h"
#include "indexed_internal.h"
#include "llvm/binary_ids.h"
#include "llvm/containers.h"
#include "llvm/value_data.h"
#include "llvm/target.h"
#include "model/options.h"
#include "llvm/llvm_values.h"
#include "model/str_md5.h"
#include "model/origin_form.h"
#include "model/jname.h"
#include "model/jname_stream.h"
#include "util/sort.h"

/* wrec and wkey hold 32-bit indices and lengths (collect refuses more):
 * one of each per record, 32 + 24 bytes instead of 48 + 48, and the key
 * chains and output order are 32-bit key indices (kidx): together a
 * quarter of the peak memory of a raw -> indexed merge of 100k functions. */
#define WIDX_MAX ((size_t)INT32_MAX)

size_t pbi_indexed_write_max_records = WIDX_MAX;
int pbi_indexed_write_stream_java = 1;

typedef uint32_t kidx;         /* a key index (< WIDX_MAX) */
#define KIDX_NONE UINT32_MAX   /* end of a chain, empty bucket */

typedef struct wrec {
    const char *name;
    uint64_t hash;
    uint64_t size; /* bytes write_record writes for it (record_size) */
    uint32_t len;
    uint32_t idx; /* record index in the model */
} wrec;

typedef struct wkey {
    uint64_t ref;             /* MD5 NameRef of the name = on-disk key hash */
    uint64_t size;            /* bytes of its entry in the table's data (plan_table) */
    uint32_t first;           /* records recs[first .. first+n): model order, then (dense_order) */
    uint32_t n : 31;          /* the order they are written in */
    uint32_t sparse_drop : 1; /* left out by --sparse (still in LLVM 14's StringMap) */
} wkey;

typedef struct wstate {
    const pb_profile *p;
    const pb_write_options *o;
    uint32_t version;
    pbi_llvm_target t; /* the release whose rules are followed */
    int preserve;      /* keep model order */
    int sparse;
    int keep_vtables;
    pbi_idx_record_layout lay;
    uint64_t flags;
    wrec *recs;
    size_t nrecs;
    wkey *keys;
    size_t nkeys;
    kidx *key_order;   /* insertion order into the generator */
    kidx *next;        /* generator chain link per key, KIDX_NONE = end; apart
                          from wkey so walking chains touches 4 bytes per key */
    size_t nout;       /* keys written (key_order[0..nout)) */
    pb_buf out;        /* while the table's data is written: the part not yet given to sink */
    pb_sink *sink;
    uint64_t flushed;  /* bytes given to sink so far */
    pb_buf vscratch;   /* value data encoded only to be measured (plan_table) */
    /* the on-disk hash table, planned before anything is written (plan_table) */
    size_t nb, ns;     /* buckets; keys in output order */
    kidx *head;        /* per bucket: first key of its chain, KIDX_NONE = empty */
    kidx *seq;         /* keys in output order */
    uint64_t data_at;  /* file offset of the first bucket's data */
    uint64_t data_end; /* file offset after the last bucket's data */
    pbi_sum_builder sum[2];
    uint64_t sumw[2][PBI_SUM_WORDS]; /* the summaries as written, finished by key_sizes */
    pb_value *vals;
    size_t vals_cap;
    /* Java names streamed (java_names): recs of Java records have no name
     * (NULL); their NameRefs per model record while keys are made, and the
     * order of their names; write_key renders each one again */
    int jstream;
    uint64_t *jref;
    uint32_t *jlen;
    pbi_jorder jo;
    /* notices */
    uint64_t dropped_kind2_sites, dropped_bitmaps, truncated_values, skipped_empty;
} wstate;

/* Notices about dropped data go to the caller's diag (src/util/diag.h). */
#define notice(w, ...) pbi_write_notice((w)->o, __VA_ARGS__)

static void put64(pb_buf *b, uint64_t v) {
    /* Fast path without a call: the output is reserved up front (reserve_output). */
    if (b->len + 8 < b->cap && !b->failed) {
        pb_put_u64((uint8_t *)b->data + b->len, v, PB_ORDER_LE);
        b->len += 8;
        return;
    }
    uint8_t t[8];
    pb_put_u64(t, v, PB_ORDER_LE);
    pbu_buf_append(b, t, 8);
}
static void pad8(pb_buf *b) {
    static const uint8_t z[8];
    pbu_buf_append(b, z, (size_t)pb_pad8(b->len));
}
static void patch64(pb_buf *b, size_t at, uint64_t v) { pb_put_u64((uint8_t *)b->data + at, v, PB_ORDER_LE); }

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

static int parse_uint(const char *s, unsigned long *out) {
    if (!s || !*s) return 0;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end) return 0;
    *out = v;
    return 1;
}

static int flag_on(const pb_write_options *o, const char *key, int dflt) {
    const char *v = o ? pb_kv_get(o->kv, o->nkv, key) : NULL;
    if (!v) return dflt;
    return !(strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "no") == 0);
}

static int options(wstate *w, pb_error *err) {
    const pb_write_options *o = w->o;
    const char *iv = o ? pb_kv_get(o->kv, o->nkv, "indexed-version") : NULL;
    const char *ord = o ? pb_kv_get(o->kv, o->nkv, "order") : NULL;
    unsigned long v = 0;
    if (iv && (!parse_uint(iv, &v) || v < 4 || v > PBI_IDX_VERSION_MAX))
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, "indexed-version", "4 to 14", iv);
    int rc = pbi_llvm_target_for(pbi_write_release(o), &w->t, err);
    if (rc) return rc;
    if (iv && !w->t.chosen) {
        /* the version alone: the rules of the first release writing it
         * (4..6 predate every release: 13's) */
        int r = pbi_llvm_first_reading_indexed((uint32_t)v);
        if (pbi_llvm_target_of(w->t.indexed_version == v ? w->t.release : r ? r : PBI_LLVM_MIN, &w->t))
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "indexed-version", "no LLVM release for it");
    }
    w->version = iv ? (uint32_t)v : w->t.indexed_version;
    w->lay = pbi_idx_layout(w->version);
    if (!ord || strcmp(ord, "auto") == 0) {
        w->preserve = pbi_origin_form(pb_profile_origin(w->p)) == PB_FORM_INDEXED;
    } else if (strcmp(ord, "llvm") == 0) {
        w->preserve = 0;
    } else if (strcmp(ord, "preserve") == 0) {
        w->preserve = 1;
    } else {
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, "order", "auto, llvm or preserve", ord);
    }
    w->sparse = flag_on(o, "sparse", 0);
    w->keep_vtables = flag_on(o, "keep-vtable-symbols", 1) && !flag_on(o, "no-keep-vtable-symbols", 0);
    return 0;
}

/* Flags the target can hold; the rest is dropped with a notice. */
static void target_flags(wstate *w) {
    uint64_t f = pb_profile_flags(w->p) & PB_VARIANT_MASK;
    f &= ~PB_VARIANT_DBG_CORRELATE; /* never written by LLVM (raw only) */
    if ((f & (PB_VARIANT_BYTE_COVERAGE | PB_VARIANT_FUNCTION_ENTRY_ONLY)) &&
        !pbi_llvm_has(&w->t, PBI_LF_FLAG_BYTE_COVERAGE)) {
        /* LLVM 13's writer sets only the IR, CSIR and entry-first bits */
        f &= ~(PB_VARIANT_BYTE_COVERAGE | PB_VARIANT_FUNCTION_ENTRY_ONLY);
        notice(w, "single-byte-coverage / function-entry-only flags dropped: LLVM %d's merge does not write them",
               w->t.release);
    }
    if (f & PB_VARIANT_MEMPROF) {
        f &= ~PB_VARIANT_MEMPROF;
        notice(w, "MemProf flag dropped: the MemProf section is not part of the model");
    }
    if ((f & PB_VARIANT_TEMPORAL) && w->version < PBI_IDX_TRACES_SINCE) {
        f &= ~PB_VARIANT_TEMPORAL;
        notice(w, "temporal-profile flag dropped: indexed v%u has no traces section (LLVM release %d has)", w->version,
               pbi_llvm_first_reading_indexed(PBI_IDX_TRACES_SINCE));
    }
    if ((f & PB_VARIANT_INSTR_LOOP_ENTRIES) && (w->version < 12 || !pbi_llvm_has(&w->t, PBI_LF_FLAG_LOOP_ENTRIES))) {
        f &= ~PB_VARIANT_INSTR_LOOP_ENTRIES;
        notice(w, "loop-entries flag dropped: LLVM %d's indexed v%u does not write it (LLVM release 20 does)",
               w->t.release, w->version);
    }
    w->flags = f;
}

/* ------------------------------------------------------------------------ */
/* Records, keys and their order                                            */

/* A record's sort key while recs are sorted: the name's first bytes as
 * an integer (name_chunk), and the record (recs[rec]) for the rest. Kept
 * apart from wrec, which needs it only here (8 bytes less per record at
 * the peak). */
typedef struct skey {
    uint64_t prefix;
    uint32_t rec;
} skey;

/* Name bytes [depth, depth + 8) as a big-endian integer, zero-padded:
 * comparing two as integers orders like comparing those bytes (a name
 * that ends inside them ties only with names it starts: see sort_group). */
static uint64_t name_chunk(const char *s, size_t n, size_t depth) {
    if (n >= depth + 8) return pb_get_u64((const uint8_t *)s + depth, PB_ORDER_BE);
    uint64_t v = 0;
    for (size_t i = depth; i < depth + 8; i++) v = v << 8 | (i < n ? (uint8_t)s[i] : 0);
    return v;
}

/* Orders by (prefix, rec), or with full: by (name bytes from depth on,
 * rec), for names that agree on their first depth bytes. rec is the
 * model order (recs are in it). */
static int cmp_skey(const wrec *recs, const skey *a, const skey *b, size_t depth, int full) {
    if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
    if (full) {
        const wrec *x = &recs[a->rec], *y = &recs[b->rec];
        int c = pbu_bytes_cmp(x->name + depth, x->len - depth, y->name + depth, y->len - depth);
        if (c) return c;
    }
    return a->rec < b->rec ? -1 : a->rec > b->rec;
}

/* Stable bottom-up merge sort of v[0..n) (cmp_skey), tmp of n entries. */
static void msort_skeys(const wrec *recs, skey *v, skey *tmp, size_t n, size_t depth, int full) {
    for (size_t lo = 0; lo < n; lo += 16) { /* insertion sort runs of 16 */
        size_t hi = lo + 16 < n ? lo + 16 : n;
        for (size_t i = lo + 1; i < hi; i++) {
            skey x = v[i];
            size_t j = i;
            while (j > lo && cmp_skey(recs, &x, &v[j - 1], depth, full) < 0) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
    }
    skey *a = v, *b = tmp;
    for (size_t width = 16; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = cmp_skey(recs, &a[j], &a[i], depth, full) < 0 ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        skey *t = a;
        a = b;
        b = t;
    }
    if (a != v) memcpy(v, a, n * sizeof *v);
}

/* Levels sort_group goes down by splitting before it compares whole names:
 * bounds its recursion. */
#define SORT_LEVELS 32

/* The bytes after depth that every name of v[0..n) shares with the first
 * (they all share [0, depth)): one pass over the names instead of one per
 * 8 bytes of what they share (the loads of names missed the cache: half of
 * sort_group's samples, perf annotate, bench/shapes.sh cxx). */
static size_t common_prefix(const wrec *recs, const skey *v, size_t n, size_t depth) {
    const wrec *f = &recs[v[0].rec];
    size_t lcp = f->len - depth;
    for (size_t i = 1; i < n && lcp; i++) {
        if (i + 8 < n) PBU_PREFETCH(recs[v[i + 8].rec].name + depth);
        const wrec *r = &recs[v[i].rec];
        size_t m = r->len - depth < lcp ? r->len - depth : lcp, k = 0;
        const char *a = f->name + depth, *b = r->name + depth;
        while (k + 8 <= m && pb_get_u64((const uint8_t *)a + k, PB_ORDER_LE) == pb_get_u64((const uint8_t *)b + k, PB_ORDER_LE))
            k += 8;
        while (k < m && a[k] == b[k]) k++;
        lcp = k;
    }
    return lcp;
}

/* A name of v[0..n) ends inside bytes [depth, depth + 8). */
static int any_ends(const wrec *recs, const skey *v, size_t n, size_t depth) {
    for (size_t i = 0; i < n; i++)
        if (recs[v[i].rec].len <= depth + 8) return 1;
    return 0;
}

/*
 * Sorts v[0..n), whose names agree on their first depth bytes, by (name,
 * model order): 8 name bytes at a time as integers (most sorts of names
 * are decided there), each run of equal bytes then sorted on the next 8.
 * The names' common prefix costs one pass per 8 bytes instead of a memcmp
 * from the first byte in every comparison: C++ names share their first 50
 * or so, and the memcmp was 14% of a raw -> indexed merge of 100k of them
 * (perf record, bench/shapes.sh cxx). A run with a name that ends inside
 * its 8 bytes (zero padding ties it with names that go on with zeros: a
 * short run), or one past SORT_LEVELS, is sorted by whole names.
 */
static void sort_group(const wrec *recs, skey *v, skey *tmp, size_t n, size_t depth, unsigned levels) {
    if (n < 2) return;
    depth += common_prefix(recs, v, n, depth);
    for (;;) {
        for (size_t i = 0; i < n; i++) {
            if (i + 8 < n) PBU_PREFETCH(recs[v[i + 8].rec].name + depth);
            const wrec *r = &recs[v[i].rec];
            v[i].prefix = name_chunk(r->name, r->len, depth);
        }
        size_t same = 1;
        while (same < n && v[same].prefix == v[0].prefix) same++;
        if (same < n) break;
        if (!levels || any_ends(recs, v, n, depth)) {
            msort_skeys(recs, v, tmp, n, depth, 1);
            return;
        }
        depth += 8; /* all equal here: on to the next 8 bytes, no sort */
    }
    msort_skeys(recs, v, tmp, n, depth, 0);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        while (hi < n && v[hi].prefix == v[lo].prefix) hi++;
        if (hi - lo > 1) {
            if (!levels || any_ends(recs, v + lo, hi - lo, depth))
                msort_skeys(recs, v + lo, tmp, hi - lo, depth, 1);
            else
                sort_group(recs, v + lo, tmp, hi - lo, depth + 8, levels - 1);
        }
        lo = hi;
    }
}

static void gather_recs(wstate *w, skey *v);

/* w->recs sorted by (name, model index) through their sort keys, then
 * gathered in that order. Returns 0 or -1 (out of memory: recs unchanged). */
static int sort_recs(wstate *w) {
    size_t n = w->nrecs;
    if (n < 2) return 0;
    const wrec *recs = w->recs;
    skey *v = malloc(n * sizeof *v), *tmp = malloc(n * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        return -1;
    }
    for (size_t i = 0; i < n; i++) v[i].rec = (uint32_t)i;
    sort_group(recs, v, tmp, n, 0, SORT_LEVELS);
    free(tmp);
    gather_recs(w, v);
    free(v);
    return 0;
}

/* recs[i] = the old recs[v[i].rec], in place, cycle by cycle (a second
 * array of records was the peak of the sort); v[i].rec = i marks a place
 * done. */
static void gather_recs(wstate *w, skey *v) {
    size_t n = w->nrecs;
    wrec *e = w->recs;
    for (size_t i = 0; i < n; i++) {
        if (v[i].rec == i) continue;
        wrec first = e[i];
        size_t j = i;
        for (;;) {
            size_t k = v[j].rec;
            v[j].rec = (uint32_t)j;
            if (k == i) break;
            e[j] = e[k];
            j = k;
        }
        e[j] = first;
    }
}

static int record_size(wstate *w, const wrec *e, uint64_t *size, pb_error *err);

/* ---- Java names, streamed ------------------------------------------------ */

static void java_names_done(wstate *w) {
    free(w->jref);
    free(w->jlen);
    w->jref = NULL;
    w->jlen = NULL;
    pbi_jorder_free(&w->jo);
}

/*
 * Whether Java records' names are streamed (w->jstream): each is rendered
 * to be hashed and measured (pbi_jname_refs), compared without being
 * rendered (pbi_jorder_cmp), and rendered again into the output when its
 * key is written, so no rendered name outlives its use. That needs the
 * keys in name order (the releases that insert them sorted: llvm order);
 * preserve and StringMap order take the names cached in the model as
 * before, and so does a profile whose names cannot all be rendered (it
 * says which one fails). iprof -> indexed of 60,000 methods: 495 -> 227
 * MiB peak, below the jansson floor's 289 (the cached names were 270 MB,
 * and the kernel clearing their pages a fifth of the run: perf record).
 */
static int java_names(wstate *w) {
    size_t n = pb_profile_record_count(w->p), i = 0;
    if (!pbi_indexed_write_stream_java || w->preserve || !pbi_llvm_has(&w->t, PBI_LF_KEYS_SORTED)) return 0;
    while (i < n && pb_profile_record(w->p, i)->kind == PB_REC_FUNCTION) i++;
    if (i == n) return 0;
    w->jref = malloc(n * sizeof *w->jref);
    w->jlen = malloc(n * sizeof *w->jlen);
    if (w->jref && w->jlen && pbi_jorder_init(&w->jo, w->p) == 0 && pbi_jname_refs(w->p, w->jref, w->jlen) == 0)
        return w->jstream = 1;
    java_names_done(w);
    return 0;
}

/* Record ids a and b (places in w->recs) by (name, place). */
static int cmp_rec_java(void *ctx, uint32_t a, uint32_t b) {
    wstate *w = ctx;
    const wrec *x = &w->recs[a], *y = &w->recs[b];
    int c = x->name && y->name ? pbu_bytes_cmp(x->name, x->len, y->name, y->len)
                               : pbi_jorder_cmp(&w->jo, pb_profile_record(w->p, x->idx),
                                                pb_profile_record(w->p, y->idx));
    return c ? c : (a > b) - (a < b);
}

/* Insertion sort of v[0..n) by cmp_rec_java (runs of up to 16 equal keys). */
static void isort_java(wstate *w, skey *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        skey x = v[i];
        size_t j = i;
        while (j > 0 && cmp_rec_java(w, x.rec, v[j - 1].rec) < 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/*
 * sort_recs with names that are not all rendered. Java records with frames
 * are sorted by an integer key (pbi_jorder_key: tag, first frame's method
 * rank), which decides most pairs without touching a record; runs of equal
 * keys by cmp_rec_java. The other records (functions, jmonitor, no frames:
 * a handful) are sorted by cmp_rec_java and merged in. A sort of all of
 * them by cmp_rec_java chased two records and their frames per comparison:
 * 9% of iprof -> indexed (perf record, 60,000 methods).
 */
static int sort_recs_java(wstate *w) {
    size_t n = w->nrecs, nk = 0, no = 0;
    if (n < 2) return 0;
    skey *v = malloc(n * sizeof *v), *tmp = malloc(n * sizeof *tmp);
    uint32_t *other = malloc(n * sizeof *other);
    int rc = !v || !tmp || !other ? -1 : 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (pbi_jorder_key(&w->jo, pb_profile_record(w->p, w->recs[i].idx), &v[nk].prefix)) v[nk++].rec = (uint32_t)i;
        else other[no++] = (uint32_t)i;
    }
    if (!rc) {
        msort_skeys(w->recs, v, tmp, nk, 0, 0); /* (key, place): names are not read */
        for (size_t lo = 0; lo < nk;) {
            size_t hi = lo + 1;
            while (hi < nk && v[hi].prefix == v[lo].prefix) hi++;
            if (hi - lo > 16) { /* other[no..) is free: nk + no = n */
                for (size_t t = lo; t < hi; t++) other[no + t - lo] = v[t].rec;
                if (pbu_sort_ids(other + no, hi - lo, cmp_rec_java, w)) rc = -1;
                for (size_t t = lo; t < hi; t++) v[t].rec = other[no + t - lo];
            } else if (hi - lo > 1) {
                isort_java(w, v + lo, hi - lo);
            }
            lo = hi;
        }
        if (no && pbu_sort_ids(other, no, cmp_rec_java, w)) rc = -1;
    }
    if (!rc && no) { /* merge the two sorted lists into tmp */
        size_t i = 0, j = 0, k = 0;
        while (i < nk && j < no) tmp[k++].rec = cmp_rec_java(w, other[j], v[i].rec) < 0 ? other[j++] : v[i++].rec;
        while (i < nk) tmp[k++].rec = v[i++].rec;
        while (j < no) tmp[k++].rec = other[j++];
        skey *t = v;
        v = tmp;
        tmp = t;
    }
    free(other);
    free(tmp);
    if (!rc) gather_recs(w, v);
    free(v);
    return rc;
}

/* Records e and f have the same name. */
static int same_name(wstate *w, const wrec *e, const wrec *f) {
    if (e->name && f->name) return pbu_bytes_cmp(e->name, e->len, f->name, f->len) == 0;
    return e->len == f->len &&
           pbi_jorder_cmp(&w->jo, pb_profile_record(w->p, e->idx), pb_profile_record(w->p, f->idx)) == 0;
}

static int all_zero(const pb_record *r) {
    for (uint32_t i = 0; i < r->num_counters; i++)
        if (r->counters[i]) return 0;
    for (uint32_t i = 0; i < r->num_bitmap_bytes; i++)
        if (r->bitmap[i]) return 0;
    return 1;
}

static int collect(wstate *w, pb_error *err) {
    size_t n = pb_profile_record_count(w->p);
    size_t max = pbi_indexed_write_max_records < WIDX_MAX ? pbi_indexed_write_max_records : WIDX_MAX;
    if (n > max) return pb_error_set(err, PB_ELIMIT, PB_NO_OFFSET, "records", "more than %zu records", max);
    if (!java_names(w)) pbi_profile_render_names(w->p); /* Java records' names, hashed on two cores */
    w->recs = calloc(n ? n : 1, sizeof *w->recs);
    if (!w->recs) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const pb_record *r = pb_profile_record(w->p, i);
        if (r->num_counters == 0) {
            w->skipped_empty++; /* LLVM's tools crash on such a record: never write one */
            continue;
        }
        wrec *e = &w->recs[w->nrecs];
        size_t len;
        int rc = 0;
        if (w->jstream && r->kind != PB_REC_FUNCTION) {
            e->name = NULL;
            e->hash = pbi_jname_hash_of_ref(w->jref[i]); /* as pb_profile_record_name */
            len = w->jlen[i];
        } else if ((rc = pb_profile_record_name(w->p, r, &e->name, &len, &e->hash, err))) {
            return rc;
        }
        if (len > WIDX_MAX)
            return pb_error_set(err, PB_ELIMIT, PB_NO_OFFSET, "records", "a name of %zu bytes", len);
        e->len = (uint32_t)len;
        e->idx = (uint32_t)i;
        /* measured here, in model order, where the record and its counters
         * come sequentially, not when the table is planned in bucket order */
        if ((rc = record_size(w, e, &e->size, err))) return rc;
        w->nrecs++;
    }
    /* Group by name; inside a name, model order. */
    if (w->jstream ? sort_recs_java(w) : sort_recs(w))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    /* after the sort, whose scratch is given back by then */
    w->keys = calloc(w->nrecs ? w->nrecs : 1, sizeof *w->keys);
    if (!w->keys) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < w->nrecs;) {
        size_t j = i + 1;
        while (j < w->nrecs && same_name(w, &w->recs[i], &w->recs[j])) j++;
        wkey *k = &w->keys[w->nkeys++];
        if (w->sparse) {
            /* LLVM drops such a name only when writing, after its map holds
             * it, so it still shapes LLVM 14's StringMap order. */
            int zero = 1;
            for (size_t r = i; r < j && zero; r++) zero = all_zero(pb_profile_record(w->p, w->recs[r].idx));
            k->sparse_drop = zero;
        }
        k->first = (uint32_t)i;
        k->n = (uint32_t)(j - i) & WIDX_MAX;
        /* a function name's MD5 was usually computed by its reader (str_md5.h) */
        const pb_record *fr = pb_profile_record(w->p, w->recs[i].idx);
        k->ref = fr->kind == PB_REC_FUNCTION ? pbi_profile_str_md5(w->p, fr->name)
                 : w->jstream                ? w->jref[w->recs[i].idx]
                                             : pbi_profile_record_name_md5(w->p, w->recs[i].idx);
        i = j;
    }
    if (w->jstream && w->jo.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    java_names_done(w);
    return 0;
}

/* LLVM 14: iteration order of a StringMap filled in first-appearance order (§3.12). */
static int stringmap_order(wstate *w, pb_error *err) {
    size_t nk = w->nkeys;
    /* Names enter the map in first-appearance order: sort keys by the model
     * index of their first record (shell sort; indices are unique). */
    typedef struct { size_t idx, key; } pair;
    pair *pr = malloc((nk ? nk : 1) * sizeof *pr);
    if (!pr) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < nk; i++) {
        pr[i].idx = w->recs[w->keys[i].first].idx; /* a key's records are in model order */
        pr[i].key = i;
    }
    for (size_t gap = nk / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < nk; i++) {
            pair t = pr[i];
            size_t j = i;
            while (j >= gap && pr[j - gap].idx > t.idx) {
                pr[j] = pr[j - gap];
                j -= gap;
            }
            pr[j] = t;
        }
    uint32_t *h = calloc(nk ? nk : 1, sizeof *h);
    size_t *order = malloc((nk ? nk : 1) * sizeof *order);
    int rc = 0;
    if (!h || !order) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nk; i++) {
        const wrec *r = &w->recs[w->keys[pr[i].key].first];
        h[i] = pbi_llvm_djb0(r->name, r->len);
    }
    if ((rc = pbi_llvm_stringmap_iteration(h, nk, order, err)) == 0)
        for (size_t k = 0; k < nk; k++) w->key_order[k] = (kidx)pr[order[k]].key;
out:
    free(h);
    free(order);
    free(pr);
    return rc;
}

/* Record order inside a key: SmallDenseMap<hash, record, 4> iteration
 * (§3.12.2), by reordering the key's entries of recs in place (after
 * this, nothing needs their model order: the key order is chosen). */
static int dense_order(wstate *w, wkey *k, pb_error *err) {
    if (w->preserve || k->n == 1) return 0;
    size_t *order = malloc(k->n * sizeof *order);
    uint64_t *h = malloc(k->n * sizeof *h);
    wrec *was = malloc(k->n * sizeof *was);
    int rc = 0;
    if (!order || !h || !was) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    wrec *e = &w->recs[k->first];
    for (size_t i = 0; i < k->n; i++) h[i] = e[i].hash;
    size_t n = 0;
    if ((rc = pbi_llvm_dense_iteration(&w->t, h, k->n, order, &n, err))) goto out;
    memcpy(was, e, k->n * sizeof *was);
    for (size_t i = 0; i < n; i++) e[i] = was[order[i]];
    k->n = (uint32_t)n & WIDX_MAX;
out:
    free(order);
    free(h);
    free(was);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Per-key data (§3.6, §3.7)                                                 */

/* A site's values in LLVM's writer order (sorted by count, cut to 255). */
static size_t pick_sorted(void *ctx, unsigned kind, const pb_site *site, const pb_value **vals, pb_error *err) {
    wstate *w = ctx;
    (void)kind;
    if (pbu_grow_err((void **)&w->vals, &w->vals_cap, site->num_values, sizeof *w->vals, err)) return (size_t)-1;
    *vals = w->vals;
    return pbi_llvm_sort_site(site, w->vals, PB_MAX_VALUES_PER_SITE_LLVM);
}

static int write_vpd(wstate *w, const pb_record *r, pb_error *err) {
    pbi_vpd_stats st = {0, 0};
    int rc = pbi_vpd_encode(&w->out, r, (unsigned)w->lay.max_value_kind + 1, PB_ORDER_LE, pick_sorted, NULL, w, &st,
                            err);
    w->dropped_kind2_sites += st.sites_dropped;
    w->truncated_values += st.values_dropped;
    return rc;
}

static int write_record(wstate *w, const wrec *e, pb_error *err) {
    const pb_record *r = pb_profile_record(w->p, e->idx);
    put64(&w->out, e->hash);
    put64(&w->out, r->num_counters);
    for (uint32_t i = 0; i < r->num_counters; i++) put64(&w->out, r->counters[i]);
    if (w->lay.bitmap) {
        put64(&w->out, r->num_bitmap_bytes);
        if (w->lay.bitmap_packed) {
            pbu_buf_append(&w->out, r->bitmap, r->num_bitmap_bytes);
            static const uint8_t z[8];
            pbu_buf_append(&w->out, z, (size_t)pb_pad8(r->num_bitmap_bytes));
        } else {
            for (uint32_t i = 0; i < r->num_bitmap_bytes; i++) put64(&w->out, r->bitmap[i]);
        }
    } else if (r->num_bitmap_bytes) {
        w->dropped_bitmaps++;
    }
    if (w->lay.uniformity) put64(&w->out, 0); /* CPU profiles carry no uniformity bits */
    if (w->lay.value_data) return write_vpd(w, r, err);
    return 0;
}

/* The bytes write_record writes for e (value data is encoded to be measured,
 * only when the record has value sites). */
static int record_size(wstate *w, const wrec *e, uint64_t *size, pb_error *err) {
    const pb_record *r = pb_profile_record(w->p, e->idx);
    uint64_t n = 16 + 8 * (uint64_t)r->num_counters;
    if (w->lay.bitmap)
        n += 8 + (w->lay.bitmap_packed ? r->num_bitmap_bytes + pb_pad8(r->num_bitmap_bytes)
                                       : 8 * (uint64_t)r->num_bitmap_bytes);
    if (w->lay.uniformity) n += 8;
    if (w->lay.value_data) {
        unsigned any = 0;
        for (int k = 0; k < PB_VK_COUNT; k++) any |= r->num_sites[k];
        if (!any) {
            n += 8; /* TotalSize, NumValueKinds = 0 */
        } else {
            pbi_vpd_stats st = {0, 0}; /* counted when written */
            pbu_buf_reset(&w->vscratch);
            int rc = pbi_vpd_encode(&w->vscratch, r, (unsigned)w->lay.max_value_kind + 1, PB_ORDER_LE, pick_sorted,
                                    NULL, w, &st, err);
            if (rc) return rc;
            n += w->vscratch.len;
        }
    }
    *size = n;
    return 0;
}

static int write_key(wstate *w, const wkey *k, pb_error *err) {
    const wrec *first = &w->recs[k->first];
    put64(&w->out, k->ref);
    put64(&w->out, first->len);
    size_t len_at = w->out.len;
    put64(&w->out, 0); /* DataLen, patched */
    if (first->name) {
        pbu_buf_append(&w->out, first->name, first->len);
    } else {
        /* a streamed Java name, rendered again (java_names) */
        int rc = pbi_jname_render(w->p, pb_profile_record(w->p, first->idx), &w->out);
        if (rc == PB_ENOMEM || pbu_buf_failed(&w->out))
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        if (rc || w->out.len - len_at - 8 != first->len)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record",
                                "internal error: a Java record's name changed between hashing and writing");
    }
    size_t data_at = w->out.len;
    for (size_t i = 0; i < k->n; i++) {
        int rc = write_record(w, &w->recs[k->first + i], err);
        if (rc) return rc;
    }
    if (w->out.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    patch64(&w->out, len_at, (uint64_t)(w->out.len - data_at));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The on-disk hash table (§3.5)                                              */


/* Staged prefetch for the key written at pos: the key 16 ahead, the first
 * record entry of the one 12 ahead, the model record of the one 8 ahead,
 * the name, counters and sites of the one 4 ahead (each stage reads what the
 * previous one brought in: reading the model record in the same stage as
 * its fields stalled there, a quarter of this function's samples). */
static void prefetch_ahead(const wstate *w, const kidx *seq, size_t n, size_t pos) {
    if (pos + 16 < n) PBU_PREFETCH(&w->keys[seq[pos + 16]]);
    if (pos + 12 < n) PBU_PREFETCH(&w->recs[w->keys[seq[pos + 12]].first]);
    if (pos + 8 < n) PBU_PREFETCH(pb_profile_record(w->p, w->recs[w->keys[seq[pos + 8]].first].idx));
    if (pos + 4 < n) {
        const wrec *e = &w->recs[w->keys[seq[pos + 4]].first];
        const pb_record *r = pb_profile_record(w->p, e->idx);
        if (e->name) {
            PBU_PREFETCH(e->name);
        } else { /* a streamed Java name: the frames it is rendered from */
            size_t nf;
            PBU_PREFETCH(pb_profile_context(w->p, r->ctx, &nf));
        }
        PBU_PREFETCH(r->counters);
        PBU_PREFETCH(r->sites[0]);
    }
}

/* The final bucket count for nk keys: LLVM's, a power of two above 4/3 of them. */
static size_t final_buckets(size_t nk) {
    size_t target = 1;
    if (nk > 2) {
        size_t q = nk * 4 / 3;
        target = 1;
        while (target <= q) target *= 2;
    }
    return target;
}

/* preserve: buckets of the final size, each chain in model (key) order. */
static int chain_preserve(wstate *w, size_t nb, kidx **headp) {
    kidx *head = malloc(nb * sizeof *head), *tail = malloc(nb * sizeof *tail);
    *headp = head;
    if (!head || !tail) {
        free(tail);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < nb; i++) head[i] = tail[i] = KIDX_NONE;
    for (size_t i = 0; i < w->nout; i++) {
        kidx key = w->key_order[i];
        size_t b = w->keys[key].ref & (nb - 1);
        w->next[key] = KIDX_NONE;
        if (head[b] == KIDX_NONE) head[b] = key;
        else w->next[tail[b]] = key;
        tail[b] = key;
    }
    free(tail);
    return 0;
}

/* Moves every chain of the nb buckets in *headp into want buckets, walking
 * the old buckets in order and inserting at the head, as LLVM's resize does. */
static int rehash(wstate *w, kidx **headp, size_t nb, size_t want) {
    kidx *head = *headp, *nh = malloc(want * sizeof *nh);
    if (!nh) return PB_ENOMEM;
    for (size_t j = 0; j < want; j++) nh[j] = KIDX_NONE;
    for (size_t j = 0; j < nb; j++) {
        kidx it = head[j];
        while (it != KIDX_NONE) {
            kidx nx = w->next[it];
            size_t b = w->keys[it].ref & (want - 1);
            w->next[it] = nh[b];
            nh[b] = it;
            it = nx;
        }
    }
    free(head);
    *headp = nh;
    return 0;
}

/* LLVM's generator: 64 buckets, head insertion, doubling at 3/4 load,
 * then one resize to the final size; resizes walk old buckets in order. */
static int chain_llvm(wstate *w, size_t target, kidx **headp, size_t *nbp) {
    size_t nk = w->nout, nb = 64;
    kidx *head = malloc(nb * sizeof *head);
    *headp = head;
    if (!head) return PB_ENOMEM;
    for (size_t i = 0; i < nb; i++) head[i] = KIDX_NONE;
    size_t entries = 0;
    for (size_t i = 0; i <= nk; i++) {
        size_t want = 0;
        if (i < nk) {
            entries++;
            if (4 * entries >= 3 * nb) want = 2 * nb;
        } else if (target != nb) {
            want = target;
        }
        if (want) {
            if (rehash(w, headp, nb, want)) return PB_ENOMEM;
            head = *headp;
            nb = want;
        }
        if (i < nk) {
            kidx key = w->key_order[i];
            size_t b = w->keys[key].ref & (nb - 1);
            w->next[key] = head[b];
            head[b] = key;
        }
    }
    *nbp = nb;
    return 0;
}

/* The bucket of the key at seq[at]: seq holds each bucket's keys together,
 * buckets in order, so a bucket's keys are the run of seq in it (no count
 * per bucket is kept: 2 bytes a bucket, 0.5 MB for 100k functions). */
static size_t bucket_at(const wstate *w, size_t at) { return (size_t)(w->keys[w->seq[at]].ref & (w->nb - 1)); }

/* Walks the buckets with keys in output order from the one after *b (start
 * with *b = SIZE_MAX, *at = 0, *pos = data_at): 1 and *b = the next one,
 * *off = the file offset of its data; then *at and *pos are past it. 0
 * after the last one. Each key's size was summed in key order (key_sizes):
 * this reads one word per key. The offsets are walked this way twice
 * (size_buckets, emit_bucket_offsets) rather than kept: 8 bytes per bucket,
 * 2 MB of the peak memory of a raw -> indexed merge of 100k functions. */
static int next_bucket(const wstate *w, size_t *b, size_t *at, uint64_t *pos, uint64_t *off) {
    if (*at >= w->ns) {
        *b = w->nb;
        return 0;
    }
    *b = bucket_at(w, *at);
    *off = *pos;
    uint64_t p = *pos + 2;
    do {
        if (*at + 16 < w->ns) PBU_PREFETCH(&w->keys[w->seq[*at + 16]]);
        p += w->keys[w->seq[*at]].size;
        (*at)++;
    } while (*at < w->ns && bucket_at(w, *at) == *b);
    *pos = p;
    return 1;
}

/* Where the table's data ends (w->data_end), from w->data_at on. */
static void size_buckets(wstate *w) {
    size_t b = SIZE_MAX, at = 0;
    uint64_t pos = w->data_at, off;
    while (next_bucket(w, &b, &at, &pos, &off)) {}
    w->data_end = pos;
}

/*
 * The table's buckets, their keys in output order, each key's size, the
 * offset of each bucket's data and the summaries, all before a byte is
 * written: the header, which comes first, holds the table's offset and the
 * summaries, and knowing them lets the table's data go to the sink as it is
 * made instead of the whole file being built in memory (that buffer was a
 * third of the peak memory of a raw -> indexed merge: 27 MB of 80 for 100k
 * C++ functions, massif and /usr/bin/time on bench/shapes.sh cxx).
 * data_at = the file offset where the table's data starts.
 */
static int plan_table(wstate *w, uint64_t data_at, pb_error *err) {
    size_t nk = w->nout, target = final_buckets(nk), nb = target;
    int rc = w->preserve ? chain_preserve(w, nb, &w->head) : chain_llvm(w, target, &w->head, &nb);
    free(w->key_order); /* the chains hold the keys now */
    w->key_order = NULL;
    if (rc) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    w->nb = nb;
    w->seq = malloc((nk ? nk : 1) * sizeof *w->seq);
    if (!w->seq) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t ns = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t count = 0;
        for (kidx it = w->head[b]; it != KIDX_NONE; it = w->next[it]) {
            w->seq[ns++] = it;
            count++;
        }
        if (count > 0xffff)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "hash_table.bucket",
                                "more than 65535 keys in one bucket");
    }
    w->ns = ns;
    /* the chains are not walked again (seq holds them): their
     * memory goes back before the output is made */
    free(w->head);
    free(w->next);
    w->head = w->next = NULL;
    w->data_at = data_at;
    size_buckets(w);
    return 0;
}

/* Gives w->out's bytes to the sink. */
static int flush(wstate *w, pb_error *err) {
    if (w->out.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int rc = w->out.len ? pb_sink_write(w->sink, w->out.data, w->out.len, err) : 0;
    w->flushed += w->out.len;
    pbu_buf_reset(&w->out);
    return rc;
}

/* Chunks of about this many bytes go to the sink. */
#define OUT_CHUNK ((size_t)1 << 18)

/* Writes the table's data as plan_table planned it, then its padding. */
static int emit_table(wstate *w, pb_error *err) {
    int rc = 0;
    if (pbu_buf_reserve(&w->out, OUT_CHUNK)) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t pos = 0; pos < w->ns;) {
        size_t b = bucket_at(w, pos), count = 1;
        while (pos + count < w->ns && bucket_at(w, pos + count) == b) count++;
        uint8_t c2[2];
        pb_put_u16(c2, (uint16_t)count, PB_ORDER_LE);
        pbu_buf_append(&w->out, c2, 2);
        for (size_t end = pos + count; pos < end; pos++) {
            const wkey *k = &w->keys[w->seq[pos]];
            /* keys are never split, so write_key can patch its DataLen */
            if (w->out.len + k->size + 8 >= w->out.cap && w->out.len && (rc = flush(w, err))) return rc;
            if (pbu_buf_reserve(&w->out, (size_t)k->size + 8))
                return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            prefetch_ahead(w, w->seq, w->ns, pos);
            if ((rc = write_key(w, k, err))) return rc;
        }
    }
    static const uint8_t z[8];
    pbu_buf_append(&w->out, z, (size_t)pb_pad8(w->flushed + w->out.len)); /* pad8 of the file offset */
    if (w->flushed + w->out.len != w->data_end + pb_pad8(w->data_end))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "hash_table", "internal error: data ends at %" PRIu64
                            ", planned at %" PRIu64, w->flushed + w->out.len, w->data_end);
    return flush(w, err);
}

/* ------------------------------------------------------------------------ */
/* Sections after the table                                                  */

typedef struct idref {
    const uint8_t *id;
    size_t len;
} idref;

static int cmp_id(const void *x, const void *y) {
    const idref *a = x, *b = y;
    return pbu_bytes_cmp((const char *)a->id, a->len, (const char *)b->id, b->len);
}

static int write_binary_ids(wstate *w, pb_error *err) {
    size_t n = pb_profile_binary_id_count(w->p);
    idref *ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) ids[i].id = pb_profile_binary_id(w->p, i, &ids[i].len);
    qsort(ids, n, sizeof *ids, cmp_id); /* LLVM sorts and removes duplicates (§3.8) */
    size_t size_at = w->out.len;
    put64(&w->out, 0);
    for (size_t i = 0; i < n; i++) {
        if (i && cmp_id(&ids[i - 1], &ids[i]) == 0) continue;
        pbi_binary_id_append(&w->out, ids[i].id, ids[i].len, PB_ORDER_LE);
    }
    free(ids);
    if (w->out.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    patch64(&w->out, size_at, (uint64_t)(w->out.len - size_at - 8));
    return 0;
}


/* Puts names[] in the iteration order of LLVM 19's StringSet filled in this
 * order; it hashes with the low 32 bits of XXH3-64 (§3.10, §3.12). */
static int stringset_order(idref *names, size_t n, pb_error *err) {
    uint32_t *h = calloc(n ? n : 1, sizeof *h);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    idref *sorted = malloc((n ? n : 1) * sizeof *sorted);
    int rc = 0;
    if (!h || !order || !sorted) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) h[i] = (uint32_t)pbi_xxh3_64(names[i].id, names[i].len);
    if ((rc = pbi_llvm_stringmap_iteration(h, n, order, err)) != 0) goto out;
    for (size_t k = 0; k < n; k++) sorted[k] = names[order[k]];
    if (n) memcpy(names, sorted, n * sizeof *names);
out:
    free(h);
    free(order);
    free(sorted);
    return rc;
}

/* The vtable-names section (§3.10): symbols that are not only indirect-call
 * target names, in LLVM 19's StringSet order, joined by \x01, zlib level 9. */
static int write_vtable_names(wstate *w, pb_error *err) {
    size_t ns = pb_profile_symbol_count(w->p), n = 0;
    uint8_t *use = calloc(ns ? ns : 1, 1); /* bit 0: kind-0 target, bit 1: kind-2 target */
    idref *names = calloc(ns ? ns : 1, sizeof *names);
    pb_buf plain = PB_BUF_INIT, blob = PB_BUF_INIT;
    int rc = 0;
    if (!use || !names) goto oom;
    for (size_t r = 0; r < pb_profile_record_count(w->p); r++) {
        const pb_record *rec = pb_profile_record(w->p, r);
        for (int k = 0; k < PB_VK_COUNT; k += 2)
            for (uint32_t s = 0; s < rec->num_sites[k]; s++)
                for (uint32_t i = 0; i < rec->sites[k][s].num_values; i++) {
                    uint32_t sym = rec->sites[k][s].values[i].symbol;
                    if (sym < ns) use[sym] |= (uint8_t)(k == 0 ? 1 : 2);
                }
    }
    size_t placeholders = 0;
    for (size_t i = 0; i < ns; i++) {
        const pb_symbol *s = pb_profile_symbol(w->p, (uint32_t)i);
        if (use[i] == 1) continue;
        if (s->name == PB_NONE) {
            placeholders++;
            continue;
        }
        names[n].id = (const uint8_t *)pb_profile_str(w->p, s->name, &names[n].len);
        if (names[n].len &&
            (rc = pbi_names_writable((const char *)names[n].id, names[n].len, "symbol (vtable name)", i, err)))
            goto out;
        if (names[n].len) n++;
    }
    if (placeholders)
        notice(w, "%zu placeholder symbols (dangling iprof type ids) have no name to write", placeholders);
    if (n && !w->keep_vtables) {
        notice(w, "%zu vtable names left out (no-keep-vtable-symbols; llvm-profdata's default)", n);
        n = 0;
    }
    /* Twice: llvm-profdata fills its writer's set by walking each input
     * reader's set, which was filled in the input's order. "preserve" keeps
     * the model's order (an indexed file's own order). */
    if (!w->preserve && ((rc = stringset_order(names, n, err)) || (rc = stringset_order(names, n, err))))
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_putc(&plain, PBI_NAME_SEP);
        pbu_buf_append(&plain, names[i].id, names[i].len);
    }
    if (plain.failed) goto oom;
    if (n && (rc = pbi_names_encode(plain.data, plain.len, 1, &blob, err))) goto out;
    if (blob.failed) goto oom;
    put64(&w->out, blob.len);
    pbu_buf_append(&w->out, blob.data, blob.len);
    pad8(&w->out);
    goto out;
oom:
    rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
out:
    free(use);
    free(names);
    pbu_buf_free(&plain);
    pbu_buf_free(&blob);
    return rc;
}

static void write_traces(wstate *w) {
    size_t n = pb_profile_trace_count(w->p);
    put64(&w->out, n);
    put64(&w->out, pb_profile_trace_stream_size(w->p));
    for (size_t t = 0; t < n; t++) {
        uint64_t weight;
        size_t len;
        const uint64_t *refs = pb_profile_trace(w->p, t, &weight, &len);
        put64(&w->out, weight);
        put64(&w->out, len);
        for (size_t i = 0; i < len; i++) put64(&w->out, refs[i]);
    }
}

/* ------------------------------------------------------------------------ */

/*
 * Each key's size and the summaries, before the table is planned: in key
 * (name) order, where keys and their entries in recs come sequentially, and
 * the summaries in model order, where records and counters do. Planning in
 * bucket order used to visit each key's records and counters there, every
 * one a cache miss (perf record -e cpu-clock, plain shape: a quarter of the
 * run stalled in prefetch_ahead). A summary does not depend on the order
 * of its counts: they are sorted; the total and maxima commute.
 */
static int key_sizes(wstate *w, pb_error *err) {
    size_t n = pb_profile_record_count(w->p);
    /* per model record: 1 = written, 2 = context-sensitive (hash bit 60) */
    uint8_t *mark = calloc(n ? n : 1, 1);
    if (!mark) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < w->nkeys; i++) {
        wkey *k = &w->keys[i];
        k->size = 24 + w->recs[k->first].len;
        for (size_t j = 0; j < k->n; j++) {
            const wrec *e = &w->recs[k->first + j];
            k->size += e->size;
            if (!k->sparse_drop) mark[e->idx] = (uint8_t)(1 | ((e->hash & PB_HASH_CS_BIT) ? 2 : 0));
        }
    }
    /* Summaries: split by hash bit 60 alone (§3.4). */
    for (size_t i = 0; i < n; i++) {
        if (!mark[i]) continue;
        const pb_record *r = pb_profile_record(w->p, i);
        pbi_sum_add(&w->sum[mark[i] >> 1], r->counters, r->num_counters);
    }
    free(mark);
    /* Finished now, so that their counts and sorting space are given back
     * before the table's planning allocates (a lower peak: massif). */
    for (unsigned s = 0; s < 2; s++) {
        int rc = pbi_sum_finish(&w->sum[s], w->sumw[s], err);
        if (rc) return rc;
        pbi_sum_free(&w->sum[s]);
    }
    return 0;
}

/* The order keys go into the generator (w->key_order), without the keys
 * --sparse leaves out (w->nout of them), and each key's record order. */
static int order_keys(wstate *w, pb_error *err) {
    int rc;
    if (w->preserve || pbi_llvm_has(&w->t, PBI_LF_KEYS_SORTED)) {
        /* preserve: keys in model order; else names sorted (recs are sorted) */
        for (size_t i = 0; i < w->nkeys; i++) w->key_order[i] = (kidx)i;
        if (w->preserve) {
            /* model order = order of each key's first record */
            for (size_t gap = w->nkeys / 2; gap > 0; gap /= 2)
                for (size_t i = gap; i < w->nkeys; i++) {
                    size_t t = w->key_order[i], j = i;
                    while (j >= gap &&
                           w->recs[w->keys[w->key_order[j - gap]].first].idx > w->recs[w->keys[t].first].idx) {
                        w->key_order[j] = w->key_order[j - gap];
                        j -= gap;
                    }
                    w->key_order[j] = (kidx)t;
                }
        }
    } else if ((rc = stringmap_order(w, err))) {
        return rc;
    }
    size_t kept = 0;
    for (size_t i = 0; i < w->nkeys; i++)
        if (!w->keys[w->key_order[i]].sparse_drop) w->key_order[kept++] = w->key_order[i];
    w->nout = kept;
    for (size_t i = 0; i < w->nkeys; i++)
        if ((rc = dense_order(w, &w->keys[i], err))) return rc;
    return key_sizes(w, err);
}

/* File offsets of the sections after the table (0: absent). */
typedef struct tail_offs {
    uint64_t table, binid, vt, tr;
} tail_offs;

/* Bytes of the table's own part after its data: bucket count, key count,
 * one offset per bucket (emit_bucket_offsets writes them). */
static uint64_t bucket_offsets_size(const wstate *w) { return 16 + 8 * (uint64_t)w->nb; }

/* The sections after the table's bucket offsets, built in w->out (whose
 * byte 0 is at file offset t->table + bucket_offsets_size): binary ids,
 * vtable names and traces where the version has them; what it has no
 * section for is dropped with a notice. */
static int build_tail(wstate *w, tail_offs *t, pb_error *err) {
    const pb_profile *p = w->p;
    int rc;
    uint64_t at = t->table + bucket_offsets_size(w); /* a multiple of 8: w->out's padding holds */
    if (w->version >= PBI_IDX_BINARY_IDS_SINCE) {
        t->binid = at + w->out.len;
        if ((rc = write_binary_ids(w, err))) return rc;
    } else if (pb_profile_binary_id_count(p)) {
        notice(w, "%zu binary ids dropped: indexed v%u has no binary-id section (LLVM release %d has)",
               pb_profile_binary_id_count(p), w->version, pbi_llvm_first_reading_indexed(PBI_IDX_BINARY_IDS_SINCE));
    }
    if (w->version >= PBI_IDX_VTABLE_SINCE) {
        t->vt = at + w->out.len;
        if ((rc = write_vtable_names(w, err))) return rc;
    } else if (pb_profile_symbol_count(p)) {
        notice(w, "%zu symbols (vtable names) dropped: indexed v%u has no vtable-names section (LLVM release %d has)",
               pb_profile_symbol_count(p), w->version, pbi_llvm_first_reading_indexed(PBI_IDX_VTABLE_SINCE));
    }
    if (w->version >= PBI_IDX_TRACES_SINCE && (w->flags & PB_VARIANT_TEMPORAL)) {
        t->tr = at + w->out.len;
        write_traces(w);
    } else if (pb_profile_trace_count(p)) {
        notice(w, "%zu temporal traces dropped: %s", pb_profile_trace_count(p),
               w->version < PBI_IDX_TRACES_SINCE ? "the target version has no traces section"
                                                   : "the profile lacks the temporal flag");
    }
    if (w->out.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return 0;
}

/* Header (where each word sits: indexed_layout.h) and summaries, in w->out. */
static int build_header(wstate *w, const tail_offs *t, unsigned nsum, pb_error *err) {
    for (unsigned i = 0; i < PBI_IDX_W_COUNT; i++)
        if (pbi_idx_has_word(w->version, (enum pbi_idx_word)i)) put64(&w->out, 0);
    if (w->out.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_magic), PBI_IDX_MAGIC);
    patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_version), (uint64_t)w->version | w->flags);
    patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_hash_offset), t->table);
    if (pbi_idx_has_word(w->version, PBI_IDX_W_binary_id_offset))
        patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_binary_id_offset), t->binid);
    if (pbi_idx_has_word(w->version, PBI_IDX_W_temporal_offset))
        patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_temporal_offset), t->tr);
    if (pbi_idx_has_word(w->version, PBI_IDX_W_vtable_names_offset))
        patch64(&w->out, (size_t)pbi_idx_word_offset(w->version, PBI_IDX_W_vtable_names_offset), t->vt);
    (void)err;
    for (unsigned s = 0; s < nsum; s++)
        for (unsigned i = 0; i < PBI_SUM_WORDS; i++) put64(&w->out, w->sumw[s][i]);
    return 0;
}

/* The table's bucket and key counts and bucket offsets (0: empty),
 * walked again as size_buckets walked them (next_bucket), in chunks: not
 * kept per bucket (2 MB for 100k functions) nor built whole. */
static int emit_bucket_offsets(wstate *w, pb_error *err) {
    uint8_t chunk[4096];
    pb_put_u64(chunk, w->nb, PB_ORDER_LE);
    pb_put_u64(chunk + 8, w->nout, PB_ORDER_LE);
    int rc = pb_sink_write(w->sink, chunk, 16, err);
    size_t b = SIZE_MAX, at = 0, done = 0, per = sizeof chunk / 8;
    uint64_t pos = w->data_at, off = 0;
    int more = next_bucket(w, &b, &at, &pos, &off);
    while (rc == 0 && done < w->nb) {
        size_t n = w->nb - done < per ? w->nb - done : per;
        for (size_t i = 0; i < n; i++, done++) {
            uint64_t v = 0;
            if (more && b == done) {
                v = off;
                more = next_bucket(w, &b, &at, &pos, &off);
            }
            pb_put_u64(chunk + 8 * i, v, PB_ORDER_LE);
        }
        rc = pb_sink_write(w->sink, chunk, 8 * n, err);
    }
    if (rc == 0 && pos != w->data_end)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "hash_table",
                            "internal error: bucket data ends at %" PRIu64 ", planned at %" PRIu64, pos, w->data_end);
    return rc;
}

/* The header and summaries (first in the file) hold what is known only
 * once the table is planned and the sections after it are built, so:
 * plan the table, build the sections after it (tail) in w.out, build the
 * header in w.out, give it to the sink, then the table's data as it is
 * made, then the bucket offsets and the tail. */
static int write_file(wstate *w, pb_sink *sink, pb_error *err) {
    uint64_t data_at = 0;
    for (unsigned i = 0; i < PBI_IDX_W_COUNT; i++)
        if (pbi_idx_has_word(w->version, (enum pbi_idx_word)i)) data_at += 8;
    unsigned nsum = (w->flags & PB_VARIANT_CSIR) ? 2 : 1;
    data_at += 8 * (uint64_t)nsum * PBI_SUM_WORDS;
    int rc = plan_table(w, data_at, err);
    if (rc) return rc;
    tail_offs t = {w->data_end + pb_pad8(w->data_end), 0, 0, 0};
    if ((rc = build_tail(w, &t, err))) return rc;
    pb_buf tail = w->out;
    w->out = (pb_buf)PB_BUF_INIT;
    if ((rc = build_header(w, &t, nsum, err)) == 0) {
        w->sink = sink;
        if ((rc = emit_table(w, err)) == 0 && /* flushes the header first */
            (rc = emit_bucket_offsets(w, err)) == 0) {
            if (tail.failed) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            else rc = pb_sink_write(sink, tail.data, tail.len, err);
        }
    }
    pbu_buf_free(&tail);
    return rc;
}

/* What the target version could not hold, one notice per kind of loss. */
static void dropped_notices(wstate *w) {
    if (w->dropped_kind2_sites)
        notice(w, "%" PRIu64 " vtable value sites (kind 2) dropped: indexed v%u predates them (LLVM release %d keeps them)",
               w->dropped_kind2_sites, w->version, pbi_llvm_first_reading_indexed(PBI_IDX_VTABLE_SINCE));
    if (w->dropped_bitmaps)
        notice(w, "bitmaps of %" PRIu64 " records dropped: indexed v%u predates bitmaps (LLVM release %d keeps them)",
               w->dropped_bitmaps, w->version, pbi_llvm_first_reading_indexed(PBI_IDX_BITMAP_SINCE));
    if (w->truncated_values)
        notice(w, "%" PRIu64 " values beyond 255 per site dropped (LLVM's limit)", w->truncated_values);
    if (w->skipped_empty)
        notice(w, "%" PRIu64 " records without counters left out (LLVM cannot read them)",
               w->skipped_empty);
}

static void wstate_free(wstate *w) {
    java_names_done(w);
    free(w->keys);
    free(w->recs);
    free(w->key_order);
    free(w->next);
    free(w->vals);
    pbi_sum_free(&w->sum[0]);
    pbi_sum_free(&w->sum[1]);
    pbu_buf_free(&w->out);
    pbu_buf_free(&w->vscratch);
    free(w->head);
    free(w->seq);
}

int pbi_indexed_write(const pb_profile *p, pb_sink *sink, const pb_write_options *o, pb_error *err) {
    wstate w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.o = o;
    int rc = options(&w, err);
    if (rc) return rc;
    target_flags(&w);
    int rule = pbi_llvm_has(&w.t, PBI_LF_SUMMARY_LLVM14) ? PBI_SUM_LLVM14 : PBI_SUM_LLVM19;
    pbi_sum_init(&w.sum[0], rule);
    pbi_sum_init(&w.sum[1], rule);
    if ((rc = collect(&w, err))) goto out;
    w.key_order = malloc((w.nkeys ? w.nkeys : 1) * sizeof *w.key_order);
    w.next = malloc((w.nkeys ? w.nkeys : 1) * sizeof *w.next);
    if (!w.key_order || !w.next) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    if ((rc = order_keys(&w, err)) == 0 && (rc = write_file(&w, sink, err)) == 0) dropped_notices(&w);
out:
    wstate_free(&w);
    return rc;
}
