/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_load.c -- CoverageMapping::load in C: every function of the mapping
 * against the profile (loadFunctionRecord): its record found by name and
 * hash, its counters and expressions evaluated into counted regions, its
 * MC/DC decisions handed to cov_mcdc.c, and the functions kept once per
 * (filenames, name) pair. The per-file index is built at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval_internal.h"
#include "coverage/cov_read.h"
#include "model/origin_form.h"
#include "util/grow.h"

/* ---- the profile's record of a function ---- */

enum lookup { FOUND, UNKNOWN, MISMATCH };

/* IndexedInstrProfReader::getInstrProfRecord: the record with the name and
 * the hash; a name whose records all differ in hash is a mismatch when one
 * of them is of the same kind (context-sensitive or not), else unknown. */
static enum lookup find_record(const pbi_cov_names *names, const pb_profile *prof, const pbi_cov_function *f,
                               uint64_t hash, const pb_record **rec, uint64_t *other_hash) {
    int cs_match = 0;
    size_t pos = SIZE_MAX;
    for (size_t i; (i = pbi_cov_names_next(names, prof, f->name, f->name_len, &pos)) != SIZE_MAX;) {
        const pb_record *r = pb_profile_record(prof, i);
        if (r->hash == hash) {
            *rec = r;
            return FOUND;
        }
        if (((r->hash ^ hash) & PB_HASH_CS_BIT) == 0 && !cs_match) {
            cs_match = 1;
            *other_hash = r->hash;
        }
    }
    return cs_match ? MISMATCH : UNKNOWN;
}

/* ---- counters and expressions (CounterMappingContext::evaluate) ---- */

typedef struct counters {
    const pbi_cov_function *f;
    const uint64_t *counts;
    size_t ncounts;
    uint64_t *memo;     /* by expression */
    uint8_t *state;     /* 0 not yet, 1 being evaluated, 2 known, 3 fails */
    uint32_t *stack;
    size_t cap_memo, cap_state, cap_stack;
} counters;

enum { ST_NEW = 0, ST_BUSY = 1, ST_DONE = 2, ST_FAIL = 3 };

static int leaf(const counters *k, pbi_cov_counter c, uint64_t *v) {
    if (c.kind == PBI_COV_ZERO) {
        *v = 0;
        return 0;
    }
    if (c.kind == PBI_COV_REF) {
        if (c.id >= k->ncounts) return -1; /* argument_out_of_domain: LLVM drops the function */
        *v = k->counts ? k->counts[c.id] : 0; /* NULL: an unknown function's zeros */
        return 0;
    }
    if (c.id >= k->f->nexprs || k->state[c.id] == ST_FAIL) return -1;
    *v = k->memo[c.id];
    return 0;
}

/* Evaluates expression `id` and what it uses, each once (LLVM walks the
 * tree, which gives the same numbers; an expression that uses itself
 * would never end there and fails here). Arithmetic wraps as LLVM's
 * int64_t does in practice. */
static int eval_expr(counters *k, uint32_t id) {
    if (id >= k->f->nexprs) return -1;
    if (k->state[id] == ST_DONE) return 0;
    if (k->state[id] == ST_FAIL) return -1;
    size_t sp = 0;
    k->stack[sp++] = id;
    k->state[id] = ST_BUSY;
    while (sp) {
        uint32_t top = k->stack[sp - 1];
        const pbi_cov_expr *e = &k->f->exprs[top];
        const pbi_cov_counter sides[2] = {e->lhs, e->rhs};
        int pushed = 0, cycle = 0;
        for (int s = 0; s < 2 && !pushed; s++) {
            if (sides[s].kind != PBI_COV_EXPR || sides[s].id >= k->f->nexprs) continue;
            uint8_t st = k->state[sides[s].id];
            if (st == ST_BUSY) cycle = 1;
            if (st != ST_NEW) continue;
            k->state[sides[s].id] = ST_BUSY;
            k->stack[sp++] = sides[s].id;
            pushed = 1;
        }
        if (cycle) {
            for (size_t i = 0; i < sp; i++) k->state[k->stack[i]] = ST_FAIL;
            return -1;
        }
        if (pushed) continue;
        uint64_t l, r;
        if (leaf(k, e->lhs, &l) || leaf(k, e->rhs, &r)) {
            k->state[top] = ST_FAIL;
        } else {
            k->memo[top] = e->kind == PBI_COV_SUBTRACT ? l - r : l + r;
            k->state[top] = ST_DONE;
        }
        sp--;
    }
    return k->state[id] == ST_DONE ? 0 : -1;
}

static int evaluate(counters *k, pbi_cov_counter c, uint64_t *v) {
    if (c.kind == PBI_COV_EXPR && eval_expr(k, c.id)) return -1;
    return leaf(k, c, v);
}

static int counters_prepare(counters *k, const pbi_cov_function *f) {
    k->f = f;
    size_t n = f->nexprs ? f->nexprs : 1;
    if (pbu_grow((void **)&k->memo, &k->cap_memo, n, sizeof k->memo[0]) ||
        pbu_grow((void **)&k->state, &k->cap_state, n, 1) ||
        pbu_grow((void **)&k->stack, &k->cap_stack, n, sizeof k->stack[0]))
        return PB_ENOMEM;
    memset(k->state, ST_NEW, n);
    return 0;
}

/* CounterMappingContext::getMaxCounterID over the regions' counts (not
 * their false counts, as LLVM): an unknown function gets that many zeros.
 * An expression id out of range counts as 0. */
static uint32_t max_id(const pbi_cov_function *f, pbi_cov_counter c, uint8_t *seen, size_t depth) {
    if (c.kind == PBI_COV_REF) return c.id;
    if (c.kind != PBI_COV_EXPR || c.id >= f->nexprs || seen[c.id] || depth > f->nexprs) return 0;
    seen[c.id] = 1; /* a DAG's shared part gives the same maximum twice */
    uint32_t l = max_id(f, f->exprs[c.id].lhs, seen, depth + 1);
    uint32_t r = max_id(f, f->exprs[c.id].rhs, seen, depth + 1);
    return l > r ? l : r;
}

/* How many zeros an unknown function is given (LLVM allocates them; a counter
 * id of 2^32 - 1 in a damaged mapping would ask for 32 GiB, so the zeros
 * are implicit here: counts NULL, ncounts the number). */
static int zero_counts(const pbi_cov_function *f, size_t *n) {
    uint8_t *seen = calloc(f->nexprs ? f->nexprs : 1, 1);
    if (!seen) return PB_ENOMEM;
    uint32_t m = 0;
    for (size_t i = 0; i < f->nregions; i++) {
        uint32_t v = max_id(f, f->regions[i].count, seen, 0);
        if (v > m) m = v;
    }
    free(seen);
    *n = (size_t)m + 1;
    return 0;
}

/* ---- names and duplicates ---- */

/* getFuncNameWithoutPrefix: "file;name" / "file:name" loses its file when
 * the file is the function's first filename. */
static void strip_prefix(const pbi_cov_function *f, const char **name, size_t *len) {
    *name = f->name;
    *len = f->name_len;
    const char *file = f->nfilenames ? f->filenames[0] : "<unknown>";
    size_t fl = strlen(file);
    if (fl && f->name_len >= fl && memcmp(f->name, file, fl) == 0) {
        size_t drop = fl + 1 <= f->name_len ? fl + 1 : f->name_len;
        *name += drop;
        *len -= drop;
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

typedef struct seen_set {
    uint64_t (*k)[2];
    uint8_t *used;
    size_t cap, n;
} seen_set;

/* Room for n keys without a rehash; 0 or -1 out of memory. */
static int seen_reserve(seen_set *s, size_t n) {
    size_t cap = 64;
    while (cap < n * 2) {
        if (cap > SIZE_MAX / 4 / sizeof *s->k) return -1;
        cap *= 2;
    }
    s->k = calloc(cap, sizeof *s->k);
    s->used = calloc(cap, 1);
    if (!s->k || !s->used) return -1;
    s->cap = cap;
    return 0;
}

/* Inserts (a, b); returns 1 when new, 0 when present, -1 out of memory. */
static int seen_insert(seen_set *s, uint64_t a, uint64_t b) {
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        uint64_t (*nk)[2] = calloc(ncap, sizeof *nk);
        uint8_t *nu = calloc(ncap, 1);
        if (!nk || !nu) {
            free(nk);
            free(nu);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->used[i]) continue;
            size_t j = (size_t)((s->k[i][0] ^ (s->k[i][1] * 31)) & (ncap - 1));
            while (nu[j]) j = (j + 1) & (ncap - 1);
            nu[j] = 1;
            nk[j][0] = s->k[i][0];
            nk[j][1] = s->k[i][1];
        }
        free(s->k);
        free(s->used);
        s->k = nk;
        s->used = nu;
        s->cap = ncap;
    }
    size_t j = (size_t)((a ^ (b * 31)) & (s->cap - 1));
    while (s->used[j]) {
        if (s->k[j][0] == a && s->k[j][1] == b) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->used[j] = 1;
    s->k[j][0] = a;
    s->k[j][1] = b;
    s->n++;
    return 1;
}

/* ---- one function (loadFunctionRecord) ---- */

typedef struct loader {
    pbi_coverage *c;
    counters k;
    seen_set seen;
    pbi_cov_names names;
    pbi_cov_counted_region *regions;
    pbi_cov_counted_branch *branches;
    size_t nregions, nbranches, cap_regions, cap_branches;
    pbi_cov_mcdc_record *mcdc;
    size_t nmcdc, cap_mcdc;
    pbi_cov_decoded dec; /* the function's regions, when the reader kept them encoded */
    int read_failed;         /* the error is the reader's (decode_mapping) */
    const char **last_files; /* filenames_hash's last map and its hash */
    size_t last_nfiles;
    uint64_t last_hash;
} loader;

static int add_mismatch(pbi_coverage *c, const pbi_cov_function *f, uint64_t profile_hash, pb_error *err) {
    if (pbu_grow_err((void **)&c->mis, &c->cap_mis, c->nmis + 1, sizeof c->mis[0], err)) return PB_ENOMEM;
    char *name = pbu_arena_dup(&c->arena, f->name, f->name_len + 1, 1);
    if (!name) return pbu_nomem(err, "mismatch list");
    name[f->name_len] = '\0';
    pbi_cov_mismatch *m = &c->mis[c->nmis++];
    m->name = name;
    m->filename = f->nfilenames ? f->filenames[0] : "";
    m->binary_hash = f->hash;
    m->profile_hash = profile_hash;
    return 0;
}

static int push_counted(loader *ld, const pbi_cov_region *r, uint64_t v, uint64_t fv) {
    if (r->kind == PBI_COV_REGION_BRANCH || r->kind == PBI_COV_REGION_MCDC_BRANCH) {
        if (pbu_grow((void **)&ld->branches, &ld->cap_branches, ld->nbranches + 1, sizeof ld->branches[0]))
            return PB_ENOMEM;
        pbi_cov_branch_from(r, v, fv, ld->c->single_byte, &ld->branches[ld->nbranches++]);
        return 0;
    }
    if (pbu_grow((void **)&ld->regions, &ld->cap_regions, ld->nregions + 1, sizeof ld->regions[0])) return PB_ENOMEM;
    pbi_cov_counted_from(r, v, ld->c->single_byte, &ld->regions[ld->nregions++]);
    return 0;
}

/* The regions of f counted; 1 when LLVM drops the function (a counter it
 * cannot evaluate), 0 kept, or an error. */
static int count_regions(loader *ld, const pbi_cov_function *f, const pb_record *rec, pb_error *err) {
    pbi_coverage *c = ld->c;
    pbi_cov_mcdc_input in = {&c->t, rec ? rec->bitmap : NULL, rec ? rec->num_bitmap_bytes : 0, 0, &c->arena};
    if (pbi_llvm_cov_has(&c->t, PBI_LC_EVAL_MCDC_BIT_INDEX)) {
        const pb_origin *o = pb_profile_origin(c->prof);
        in.bit_index = pbi_origin_form(o) == PB_FORM_INDEXED ? o->version >= 12
                                                                : (f->object < c->m->nobjects && c->m->mcdc_bits &&
                                                                   c->m->mcdc_bits[f->object]);
    }
    pbi_cov_mcdc_recorder *rec_mcdc = pbi_cov_mcdc_recorder_new();
    if (!rec_mcdc) return pbu_nomem(err, "MC/DC recorder");
    int rc = 0;
    for (size_t i = 0; i < f->nregions && !rc; i++) {
        const pbi_cov_region *r = &f->regions[i];
        if (r->kind == PBI_COV_REGION_MCDC_DECISION) {
            rc = pbi_cov_mcdc_decision(rec_mcdc, f, i, &c->t, err);
            continue;
        }
        uint64_t v, fv;
        if (evaluate(&ld->k, r->count, &v) || evaluate(&ld->k, r->false_count, &fv)) {
            rc = 1;
            break;
        }
        if (push_counted(ld, r, v, fv)) {
            rc = pbu_nomem(err, "counted regions");
            break;
        }
        if (r->kind == PBI_COV_REGION_EXPANSION) {
            if (pbi_cov_mcdc_expansion(rec_mcdc, f, i, &c->t)) rc = pbu_nomem(err, "MC/DC recorder");
            continue;
        }
        if (r->kind != PBI_COV_REGION_MCDC_BRANCH) continue;
        pbi_cov_mcdc_record mr;
        int done = 0;
        int mrc = pbi_cov_mcdc_branch(rec_mcdc, f, i, ld->nbranches - 1, ld->branches, &in, &mr, &done, err);
        if (mrc) { /* 1: evaluateMCDCRegion failed, LLVM drops the function */
            rc = mrc;
            break;
        }
        if (!done) continue;
        if (pbu_grow_err((void **)&ld->mcdc, &ld->cap_mcdc, ld->nmcdc + 1, sizeof ld->mcdc[0], err)) {
            rc = PB_ENOMEM;
            break;
        }
        ld->mcdc[ld->nmcdc++] = mr;
    }
    pbi_cov_mcdc_recorder_free(rec_mcdc);
    return rc;
}

/* The hash of f's filenames. The functions of one TU come one after
 * another with the same file-id map (the same string pointers), so the
 * last map's hash is kept: hashing every filename of every function was
 * 2% of an lcov export of 100k functions. */
static uint64_t filenames_hash(loader *ld, const pbi_cov_function *f) {
    if (ld->last_files && f->nfilenames == ld->last_nfiles &&
        (f->filenames == ld->last_files ||
         memcmp(f->filenames, ld->last_files, f->nfilenames * sizeof *f->filenames) == 0))
        return ld->last_hash;
    uint64_t fh = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < f->nfilenames; i++) fh = fnv(fh, f->filenames[i], strlen(f->filenames[i]) + 1);
    ld->last_files = f->filenames;
    ld->last_nfiles = f->nfilenames;
    ld->last_hash = fh;
    return fh;
}

static int keep_function(loader *ld, const pbi_cov_function *f, const char *name, size_t len, pb_error *err) {
    pbi_coverage *c = ld->c;
    uint64_t fh = filenames_hash(ld, f);
    int fresh = seen_insert(&ld->seen, fh, fnv(UINT64_C(0xcbf29ce484222325), name, len));
    if (fresh < 0) return pbu_nomem(err, "function index");
    if (!fresh) return 0;
    if (pbu_grow_err((void **)&c->fns, &c->cap_fns, c->nfns + 1, sizeof c->fns[0], err)) return PB_ENOMEM;
    if (pbi_llvm_cov_has(&c->t, PBI_LC_EVAL_MCDC_SORTED) && pbi_cov_mcdc_sort(f, ld->mcdc, ld->nmcdc))
        return pbu_nomem(err, "MC/DC records");
    pbi_cov_fn *fn = &c->fns[c->nfns];
    memset(fn, 0, sizeof *fn);
    char *nm = pbu_arena_dup(&c->arena, name, len + 1, 1);
    fn->regions = pbu_arena_dup(&c->arena, ld->regions, ld->nregions * sizeof ld->regions[0], 8);
    fn->branches = pbu_arena_dup(&c->arena, ld->branches, ld->nbranches * sizeof ld->branches[0], 8);
    fn->mcdc = pbu_arena_dup(&c->arena, ld->mcdc, ld->nmcdc * sizeof ld->mcdc[0], 8);
    if (!nm || !fn->regions || !fn->branches || !fn->mcdc) return pbu_nomem(err, "function records");
    nm[len] = '\0';
    fn->name = nm;
    fn->name_len = len;
    fn->filenames = f->filenames;
    fn->nfilenames = f->nfilenames;
    fn->nregions = ld->nregions;
    fn->nbranches = ld->nbranches;
    fn->nmcdc = ld->nmcdc;
    fn->count = ld->nregions ? ld->regions[0].count : 0;
    fn->index = c->nfns++;
    return 0;
}

/* f's mapping decoded; read with defer_checks, its errors are the
 * reader's (readNextRecord's, before loadFunctionRecord looks at the
 * record), in the release's words. */
static int decode_mapping(loader *ld, const pbi_cov_function *enc, pbi_cov_function *out, pb_error *err) {
    int rc = pbi_cov_function_decode(enc, &ld->dec, out, err);
    if (rc && enc->enc_obj) {
        pbi_cov_release_words(err, &ld->c->t);
        ld->read_failed = 1;
    }
    return rc;
}

static int load_function(loader *ld, const pbi_cov_function *enc, pb_error *err) {
    pbi_coverage *c = ld->c;
    pbi_cov_function decoded;
    int drc = decode_mapping(ld, enc, &decoded, err);
    if (drc) return drc;
    const pbi_cov_function *f = &decoded;
    if (!f->name || f->name_len == 0)
        return pb_error_set(err, PB_EFORMAT, f->offset, "__llvm_covfun",
                            "malformed coverage data: record function name is empty");
    const char *name;
    size_t len;
    strip_prefix(f, &name, &len);
    const pb_record *rec = NULL;
    uint64_t other = 0;
    enum lookup lk = find_record(&ld->names, c->prof, f, f->hash, &rec, &other);
    if (lk == MISMATCH) return add_mismatch(c, f, other, err);
    if (lk == FOUND) {
        ld->k.counts = rec->counters;
        ld->k.ncounts = rec->num_counters;
    } else {
        size_t n;
        if (zero_counts(f, &n)) return pbu_nomem(err, "counters");
        ld->k.counts = NULL;
        ld->k.ncounts = n;
        rec = NULL;
    }
    /* A lone zero region of a function another TU uses: that TU's record
     * counts it (or, unloaded, it is not reported uncovered). */
    if (f->nregions == 1 && f->regions[0].count.kind == PBI_COV_ZERO && ld->k.counts && ld->k.ncounts &&
        ld->k.counts[0] > 0)
        return 0;
    if (counters_prepare(&ld->k, f)) return pbu_nomem(err, "expressions");
    ld->nregions = ld->nbranches = ld->nmcdc = 0;
    int rc = count_regions(ld, f, rec, err);
    if (rc == 1) return 0;
    if (rc) return rc;
    return keep_function(ld, f, name, len, err);
}

/* ---- the per-file index (FilenameHash2RecordIndices, getUniqueSourceFiles) ---- */

typedef struct file_ref {
    const char *name;
    size_t fn;
} file_ref;

/* The functions of one TU share their filenames' pointers: equal
 * pointers need no strcmp (most compares of the sort below). */
static int same_name(const char *a, const char *b) { return a == b || strcmp(a, b) == 0; }

static int cmp_file_ref(const void *a, const void *b) {
    const file_ref *x = a, *y = b;
    int d = x->name == y->name ? 0 : strcmp(x->name, y->name);
    if (d) return d;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static int index_files(pbi_coverage *c, pb_error *err) {
    size_t n = 0;
    for (size_t i = 0; i < c->nfns; i++) n += c->fns[i].nfilenames;
    file_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) return pbu_nomem(err, "file index");
    size_t k = 0;
    for (size_t i = 0; i < c->nfns; i++)
        for (size_t j = 0; j < c->fns[i].nfilenames; j++) refs[k++] = (file_ref){c->fns[i].filenames[j], i};
    qsort(refs, n, sizeof *refs, cmp_file_ref);
    size_t nfiles = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || !same_name(refs[i].name, refs[i - 1].name)) nfiles++;
    c->files = pbu_arena_alloc(&c->arena, (nfiles ? nfiles : 1) * sizeof c->files[0], 8);
    size_t *fnix = pbu_arena_alloc(&c->arena, (n ? n : 1) * sizeof(size_t), 8);
    if (!c->files || !fnix) {
        free(refs);
        return pbu_nomem(err, "file index");
    }
    c->nfiles = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || !same_name(refs[i].name, refs[i - 1].name)) {
            pbi_cov_file_fns *e = &c->files[c->nfiles++];
            e->name = refs[i].name;
            e->fns = fnix;
            e->nfns = 0;
        }
        pbi_cov_file_fns *e = &c->files[c->nfiles - 1];
        if (e->nfns && e->fns[e->nfns - 1] == refs[i].fn) continue;
        e->fns[e->nfns++] = refs[i].fn;
        fnix++;
    }
    free(refs);
    return 0;
}

const pbi_cov_file_fns *pbi_cov_file_entry(const pbi_coverage *c, const char *filename) {
    size_t lo = 0, hi = c->nfiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = strcmp(c->files[mid].name, filename);
        if (d == 0) return &c->files[mid];
        if (d < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* ---- the entry points ---- */

static void loader_free(loader *ld) {
    pbi_cov_names_free(&ld->names);
    free(ld->k.memo);
    free(ld->k.state);
    free(ld->k.stack);
    free(ld->seen.k);
    free(ld->seen.used);
    free(ld->regions);
    free(ld->branches);
    free(ld->mcdc);
    pbi_cov_decoded_free(&ld->dec);
}

int pbi_cov_eval(const pbi_cov_mapping *m, const pb_profile *prof, const pbi_cov_eval_options *o,
                 pbi_coverage **out, pb_error *err) {
    pb_error_clear(err);
    *out = NULL;
    pbi_coverage *c = calloc(1, sizeof *c);
    if (!c) return pbu_nomem(err, "coverage");
    c->m = m;
    c->prof = prof;
    if (o && o->t) c->t = *o->t;
    else pbi_llvm_target_of(PBI_LLVM_DEFAULT, &c->t);
    c->single_byte = (o && o->single_byte) || (pb_profile_flags(prof) & PB_VARIANT_BYTE_COVERAGE) != 0;
    loader ld;
    memset(&ld, 0, sizeof ld);
    ld.c = c;
    /* the profile's name index, built once here: a lookup that finds
     * nothing for want of memory would count a function as unknown */
    int rc = pbi_cov_names_build(&ld.names, prof) ? pbu_nomem(err, "profile lookup") : 0;
    /* sized once for every function (realloc's copies of a growing list
     * were 1.2% of an lcov export of 100k functions) */
    if (!rc && m->nfunctions)
        rc = pbu_grow_err((void **)&c->fns, &c->cap_fns, m->nfunctions, sizeof c->fns[0], err);
    if (!rc && m->nfunctions && seen_reserve(&ld.seen, m->nfunctions)) rc = pbu_nomem(err, "function index");
    /* The profile's slots, records and counters are met in no order: each
     * is asked for some functions ahead (its slot 12 ahead, its record 6,
     * its counters 3), so that the lookup and the evaluation find them in
     * the cache (their misses were 10% of an lcov export of 100k
     * functions). */
    enum { AHEAD_SLOT = 12, AHEAD_RECORD = 6, AHEAD_COUNTERS = 3 };
    for (size_t i = 0; i < m->nfunctions && !rc; i++) {
        const pbi_cov_function *f;
        if (i + AHEAD_SLOT < m->nfunctions && (f = &m->functions[i + AHEAD_SLOT])->name)
            pbi_cov_names_prefetch(&ld.names, f->name, f->name_len);
        if (i + AHEAD_RECORD < m->nfunctions && (f = &m->functions[i + AHEAD_RECORD])->name)
            pbi_cov_names_prefetch_record(&ld.names, prof, f->name, f->name_len, 0);
        if (i + AHEAD_COUNTERS < m->nfunctions && (f = &m->functions[i + AHEAD_COUNTERS])->name)
            pbi_cov_names_prefetch_record(&ld.names, prof, f->name, f->name_len, 1);
        rc = load_function(&ld, &m->functions[i], err);
    }
    if (rc && ld.read_failed && o && o->read_failed) *o->read_failed = 1;
    loader_free(&ld);
    if (!rc) rc = index_files(c, err);
    if (rc) {
        pbi_coverage_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

void pbi_coverage_free(pbi_coverage *c) {
    if (!c) return;
    free(c->fns);
    free(c->mis);
    pbu_arena_free(&c->arena);
    free(c);
}

size_t pbi_cov_fn_count(const pbi_coverage *c) { return c->nfns; }
const pbi_cov_fn *pbi_cov_fn_at(const pbi_coverage *c, size_t i) { return i < c->nfns ? &c->fns[i] : NULL; }
size_t pbi_cov_mismatch_count(const pbi_coverage *c) { return c->nmis; }
const pbi_cov_mismatch *pbi_cov_mismatch_at(const pbi_coverage *c, size_t i) {
    return i < c->nmis ? &c->mis[i] : NULL;
}
size_t pbi_cov_file_count(const pbi_coverage *c) { return c->nfiles; }
const char *pbi_cov_file_at(const pbi_coverage *c, size_t i) { return i < c->nfiles ? c->files[i].name : NULL; }
