/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_mcdc.c -- MC/DC decisions of one function: which branches belong to
 * a decision, its test vectors, the executed ones (the profile's bitmap)
 * and each condition's independence pair (LLVM's MCDCDecisionRecorder,
 * MCDCRecordProcessor and TVIdxBuilder in CoverageMapping.cpp).
 *
 * Which branches a decision takes (row EVAL_MCDC_CONTAINED): 18+ (Debian's
 * llvm-cov-18, 18.1) the branches inside it or inside a file one of its
 * expansions expands, condition 0 first (MCDCDecisionRecorder: decisions
 * may nest or wait for branches in a macro while the next one completes);
 * a reader without the row would take the branches that follow it.
 *
 * Two generations of the rest (release table row EVAL_MCDC_RECORDER):
 *  - 18: its 2^n possible vectors are numbered by their true conditions' bits, the
 *    bitmap is read from the decision's byte index, the executed vectors
 *    are listed by number and a pair is the first (I, J) of them that
 *    differs in the condition and the outcome only.
 *  - 19+: vectors are numbered by
 *    TVIdxBuilder (wider nodes first), listed false outcomes first, and a
 *    pair is the first true vector (outer) and false vector (inner) that
 *    differ in exactly one condition.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval_internal.h"
#include "util/grow.h"

typedef struct pending {
    size_t ri;            /* the decision's region index */
    size_t *pos_ri;       /* by position: the branch's region index */
    size_t *pos_bi;       /* by position: its counted copy's index */
    size_t npos, cap_pos;
    uint8_t *seen;        /* by condition id (19+) */
    uint32_t *expanded;   /* file ids the decision's expansions expand (19+) */
    size_t nexpanded, cap_expanded;
} pending;

struct pbi_cov_mcdc_recorder {
    pending *d;
    size_t n, cap;
};

pbi_cov_mcdc_recorder *pbi_cov_mcdc_recorder_new(void) { return calloc(1, sizeof(pbi_cov_mcdc_recorder)); }

static void pending_free(pending *p) {
    free(p->pos_ri);
    free(p->pos_bi);
    free(p->seen);
    free(p->expanded);
}

void pbi_cov_mcdc_recorder_free(pbi_cov_mcdc_recorder *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) pending_free(&r->d[i]);
    free(r->d);
    free(r);
}

static void drop_pending(pbi_cov_mcdc_recorder *r, size_t i) {
    pending_free(&r->d[i]);
    memmove(&r->d[i], &r->d[i + 1], (r->n - i - 1) * sizeof r->d[0]);
    r->n--;
}

static pbi_cov_place place_of(const pbi_cov_region *r) {
    return (pbi_cov_place){r->line_start, r->col_start, r->line_end, r->col_end, r->file_id, r->expanded_file_id,
                           r->kind};
}

void pbi_cov_counted_from(const pbi_cov_region *r, uint64_t count, int single_byte, pbi_cov_counted_region *out) {
    memset(out, 0, sizeof *out);
    out->r = place_of(r);
    out->count = count;
    out->single_byte = (uint8_t)(single_byte != 0);
}

void pbi_cov_branch_from(const pbi_cov_region *r, uint64_t count, uint64_t false_count, int single_byte,
                         pbi_cov_counted_branch *out) {
    memset(out, 0, sizeof *out);
    out->r = place_of(r);
    out->count = count;
    out->false_count = false_count;
    out->single_byte = (uint8_t)(single_byte != 0);
    out->true_folded = r->count.kind == PBI_COV_ZERO;
    out->false_folded = r->false_count.kind == PBI_COV_ZERO;
    out->folded = out->true_folded && out->false_folded;
}

int pbi_cov_mcdc_decision(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri,
                          const pbi_llvm_target *t, pb_error *err) {
    int gather = pbi_llvm_cov_has(t, PBI_LC_EVAL_MCDC_CONTAINED);
    if (!gather && r->n > 0)
        return pb_error_set(err, PB_EFORMAT, f->offset, "regions",
                            "malformed coverage data: MC/DC decision starts while the previous one "
                            "still waits for its branches");
    uint16_t nc = f->regions[ri].mcdc.num_conditions;
    if (!gather && nc == 0) return 0; /* waits for no branch */
    if (pbu_grow_err((void **)&r->d, &r->cap, r->n + 1, sizeof r->d[0], err)) return PB_ENOMEM;
    pending *p = &r->d[r->n];
    memset(p, 0, sizeof *p);
    p->ri = ri;
    p->seen = calloc(nc ? nc : 1, 1);
    if (!p->seen) return pbu_nomem(err, "MC/DC decision");
    r->n++;
    return 0;
}

static int loc_le(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
    return l1 < l2 || (l1 == l2 && c1 <= c2);
}

/* DecisionRecord::dominates */
static int dominates(const pbi_cov_function *f, const pending *p, const pbi_cov_region *x) {
    const pbi_cov_region *d = &f->regions[p->ri];
    if (x->file_id == d->file_id && loc_le(d->line_start, d->col_start, x->line_start, x->col_start) &&
        loc_le(x->line_end, x->col_end, d->line_end, d->col_end))
        return 1;
    for (size_t i = 0; i < p->nexpanded; i++)
        if (p->expanded[i] == x->file_id) return 1;
    return 0;
}

int pbi_cov_mcdc_expansion(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri,
                           const pbi_llvm_target *t) {
    if (!pbi_llvm_cov_has(t, PBI_LC_EVAL_MCDC_CONTAINED)) return 0;
    const pbi_cov_region *x = &f->regions[ri];
    for (size_t i = 0; i < r->n; i++) {
        pending *p = &r->d[i];
        if (!dominates(f, p, x)) continue;
        for (size_t k = 0; k < p->nexpanded; k++)
            if (p->expanded[k] == x->expanded_file_id) return 0;
        if (pbu_grow((void **)&p->expanded, &p->cap_expanded, p->nexpanded + 1, sizeof p->expanded[0]))
            return PB_ENOMEM;
        p->expanded[p->nexpanded++] = x->expanded_file_id;
        return 0;
    }
    return 0;
}

static int add_position(pending *p, size_t ri, size_t bi, int front) {
    size_t cap = p->cap_pos;
    if (pbu_grow((void **)&p->pos_ri, &cap, p->npos + 1, sizeof(size_t))) return PB_ENOMEM;
    if (pbu_grow((void **)&p->pos_bi, &p->cap_pos, p->npos + 1, sizeof(size_t))) return PB_ENOMEM;
    p->cap_pos = cap < p->cap_pos ? cap : p->cap_pos;
    size_t at = front ? 0 : p->npos;
    memmove(&p->pos_ri[at + 1], &p->pos_ri[at], (p->npos - at) * sizeof(size_t));
    memmove(&p->pos_bi[at + 1], &p->pos_bi[at], (p->npos - at) * sizeof(size_t));
    p->pos_ri[at] = ri;
    p->pos_bi[at] = bi;
    p->npos++;
    return 0;
}

/* ---- bits of the bitmap ---- */

static int bit_at(const pbi_cov_mcdc_input *in, uint64_t i) {
    /* LLVM reads past its BitVector without a check; an index outside the
     * record's bitmap counts as a vector never executed. */
    if (!in->bitmap || i / 8 >= in->nbitmap) return 0;
    return (in->bitmap[i / 8] >> (i % 8)) & 1;
}

/* ---- the record being built ---- */

typedef struct tvlist {
    int8_t *v;        /* n * nconds, by condition id */
    uint8_t *res;
    int64_t *ix;      /* 19+: the vector's bitmap index (TVIdxBuilder's) */
    size_t n, cap_v, cap_r, cap_ix;
} tvlist;

static int tv_push(tvlist *l, const int8_t *tv, size_t nconds, uint8_t res, int64_t ix) {
    if (pbu_grow((void **)&l->v, &l->cap_v, (l->n + 1) * nconds, 1)) return PB_ENOMEM;
    if (pbu_grow((void **)&l->res, &l->cap_r, l->n + 1, 1)) return PB_ENOMEM;
    if (pbu_grow((void **)&l->ix, &l->cap_ix, l->n + 1, sizeof l->ix[0])) return PB_ENOMEM;
    memcpy(&l->v[l->n * nconds], tv, nconds);
    l->res[l->n] = res;
    l->ix[l->n++] = ix;
    return 0;
}

static void tv_free(tvlist *l) {
    free(l->v);
    free(l->res);
    free(l->ix);
}

/* 22+: one outcome's vectors by bitmap index (insertion sort: stable, and
 * a decision's executed vectors are few). */
static void tv_sort_by_index(tvlist *l, size_t nconds, int8_t *scratch) {
    for (size_t i = 1; i < l->n; i++) {
        int64_t ix = l->ix[i];
        uint8_t res = l->res[i];
        memcpy(scratch, &l->v[i * nconds], nconds);
        size_t j = i;
        while (j > 0 && l->ix[j - 1] > ix) {
            l->ix[j] = l->ix[j - 1];
            l->res[j] = l->res[j - 1];
            memcpy(&l->v[j * nconds], &l->v[(j - 1) * nconds], nconds);
            j--;
        }
        l->ix[j] = ix;
        l->res[j] = res;
        memcpy(&l->v[j * nconds], scratch, nconds);
    }
}

typedef struct build {
    const pbi_cov_function *f;
    const pending *p;
    const pbi_cov_mcdc_input *in;
    size_t n;                 /* conditions */
    int32_t (*next)[2];       /* by id: [false, true] */
    int64_t (*idx)[2];        /* 19+: TVIdxBuilder's Indices */
    int64_t ntv;              /* 19+: NumTestVectors */
    tvlist by[2];             /* executed vectors by outcome (19+), or all (18: by[0]) */
    uint64_t paths;           /* walked, to bound a hostile mapping */
} build;

#define MAX_PATHS (UINT64_C(1) << 22)

/* ---- 19+: TVIdxBuilder ---- */

static int number_vectors(build *b) {
    size_t n = b->n;
    int64_t *width = calloc(n, sizeof *width);
    size_t *incount = calloc(n, sizeof *incount), *q = malloc(n * sizeof *q);
    int64_t (*dec)[3] = malloc(2 * n * sizeof *dec); /* -width, ord, id*2+cond */
    int rc = 0;
    if (!width || !incount || !q || !dec) { rc = PB_ENOMEM; goto out; }
    for (size_t id = 0; id < n; id++)
        for (int c = 0; c < 2; c++)
            if (b->next[id][c] >= 0) incount[b->next[id][c]]++;
    if (incount[0] != 0) { rc = 1; goto out; }
    width[0] = 1;
    size_t qh = 0, qt = 0, nd = 0;
    q[qt++] = 0;
    int64_t ord = 0;
    while (qh < qt) {
        size_t id = q[qh++];
        for (int c = 0; c < 2; c++) {
            int32_t nx = b->next[id][c];
            if (nx < 0) {
                dec[nd][0] = -width[id];
                dec[nd][1] = ord++;
                dec[nd][2] = (int64_t)id * 2 + c;
                nd++;
                continue;
            }
            if (nx == 0 || incount[nx] == 0) { rc = 1; goto out; }
            b->idx[id][c] = width[nx];
            int64_t nw = width[nx] + width[id];
            if (nw > INT_MAX) { rc = 1; goto out; }
            width[nx] = nw;
            if (--incount[nx] == 0) q[qt++] = (size_t)nx;
        }
    }
    if (qt != n) { rc = 1; goto out; } /* a node never reached: not a decision diagram */
    /* sort by (-width, ord): insertion sort, n is small */
    for (size_t i = 1; i < nd; i++)
        for (size_t j = i; j > 0 && (dec[j][0] < dec[j - 1][0] ||
                                     (dec[j][0] == dec[j - 1][0] && dec[j][1] < dec[j - 1][1])); j--) {
            int64_t tmp[3];
            memcpy(tmp, dec[j], sizeof tmp);
            memcpy(dec[j], dec[j - 1], sizeof tmp);
            memcpy(dec[j - 1], tmp, sizeof tmp);
        }
    int64_t cur = 0;
    for (size_t i = 0; i < nd; i++) {
        b->idx[dec[i][2] / 2][dec[i][2] % 2] = cur;
        cur += -dec[i][0];
        if (cur > INT_MAX) { rc = 1; goto out; }
    }
    b->ntv = cur;
out:
    free(width);
    free(incount);
    free(q);
    free(dec);
    return rc;
}

static uint64_t tv_index(const int8_t *tv, size_t n) {
    uint64_t ix = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (tv[i] == 1) ix |= UINT64_C(1) << i;
    return ix;
}

/* buildTestVector of 19+: false first, then true; an executed vector goes
 * to the list of its outcome. */
static int walk19(build *b, int8_t *tv, size_t id, int64_t tvidx, size_t depth) {
    if (depth > b->n || ++b->paths > MAX_PATHS) return 1;
    const pbi_cov_region *d = &b->f->regions[b->p->ri];
    for (int c = 0; c < 2; c++) {
        tv[id] = (int8_t)c;
        int32_t nx = b->next[id][c];
        int64_t ntvidx = tvidx + b->idx[id][c];
        if (nx >= 0) {
            int rc = walk19(b, tv, (size_t)nx, ntvidx, depth + 1);
            if (rc) return rc;
            continue;
        }
        /* a bit index (indexed v12+) ends at the decision's last vector;
         * a byte index (v11) starts its 2^n vectors numbered by true bits */
        uint64_t bit = b->in->bit_index ? (uint64_t)((uint32_t)(d->mcdc.bitmap_idx - (uint32_t)b->ntv +
                                                                (uint32_t)ntvidx))
                                        : (uint64_t)d->mcdc.bitmap_idx * 8 + tv_index(tv, b->n);
        if (!bit_at(b->in, bit)) continue;
        if (tv_push(&b->by[c], tv, b->n, (uint8_t)c, ntvidx)) return PB_ENOMEM;
    }
    tv[id] = -1;
    return 0;
}

/* buildTestVector of 18: true first; every vector recorded at its index. */
static int walk18(build *b, int8_t *tv, size_t id, int8_t *all, uint8_t *have, size_t depth) {
    if (depth > b->n || ++b->paths > MAX_PATHS) return 1;
    for (int c = 1; c >= 0; c--) {
        tv[id] = (int8_t)c;
        int32_t nx = b->next[id][c];
        if (nx >= 0) {
            int rc = walk18(b, tv, (size_t)nx, all, have, depth + 1);
            if (rc) return rc;
            continue;
        }
        uint64_t ix = tv_index(tv, b->n);
        memcpy(&all[ix * (b->n + 1)], tv, b->n);
        all[ix * (b->n + 1) + b->n] = (int8_t)c;
        have[ix] = 1;
    }
    tv[id] = -1;
    return 0;
}

static int executed18(build *b) {
    size_t n = b->n, count = (size_t)1 << n;
    int8_t *tv = malloc(n), *all = calloc(count, n + 1);
    uint8_t *have = calloc(count, 1);
    int rc = 0;
    if (!tv || !all || !have) { rc = PB_ENOMEM; goto out; }
    memset(tv, -1, n);
    rc = walk18(b, tv, 0, all, have, 0);
    if (rc) goto out;
    const pbi_cov_region *d = &b->f->regions[b->p->ri];
    size_t bits = (count + 7) / 8 * 8;
    for (size_t ix = 0; ix < bits && ix < count; ix++) {
        if (!bit_at(b->in, (uint64_t)d->mcdc.bitmap_idx * 8 + ix) || !have[ix]) continue;
        rc = tv_push(&b->by[0], &all[ix * (n + 1)], n, (uint8_t)all[ix * (n + 1) + n], (int64_t)ix);
        if (rc) goto out;
    }
out:
    free(tv);
    free(all);
    free(have);
    return rc;
}

/* ---- independence pairs, by condition id ---- */

static void pairs18(const tvlist *l, size_t n, uint32_t *pa, uint32_t *pb, uint8_t *found) {
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < l->n && !found[c]; i++)
            for (size_t j = 0; j < l->n && !found[c]; j++) {
                if (i == j) continue;
                const int8_t *a = &l->v[i * n], *bb = &l->v[j * n];
                if ((a[c] ^ bb[c]) != 1 || (l->res[i] ^ l->res[j]) != 1) continue;
                int ok = 1;
                for (size_t k = 0; k < n && ok; k++)
                    if (k != c && a[k] != -1 && bb[k] != -1 && a[k] != bb[k]) ok = 0;
                if (!ok) continue;
                found[c] = 1;
                pa[c] = (uint32_t)i + 1;
                pb[c] = (uint32_t)j + 1;
            }
}

static void pairs19(const tvlist *l, size_t ntrue_from, size_t n, uint32_t *pa, uint32_t *pb, uint8_t *found) {
    for (size_t i = ntrue_from; i < l->n; i++)
        for (size_t j = 0; j < ntrue_from; j++) {
            const int8_t *a = &l->v[i * n], *bb = &l->v[j * n];
            size_t diffs = 0, at = 0;
            for (size_t k = 0; k < n; k++)
                if (a[k] != -1 && bb[k] != -1 && a[k] != bb[k]) {
                    if (!diffs) at = k;
                    diffs++;
                }
            if (diffs != 1 || found[at]) continue;
            found[at] = 1;
            pa[at] = (uint32_t)j + 1;
            pb[at] = (uint32_t)i + 1;
        }
}

/* ---- putting the record together ---- */

#define ARENA_N(a, n, T) ((T *)pbu_arena_alloc((a), ((n) > 0 ? (size_t)(n) : 1u) * sizeof(T), _Alignof(T)))

/* ---- 23+: conditions in the order of the expanded source ---- */

#define KEY_DEPTH 32 /* expansions followed at most; deeper ones compare as equal */

/* The places of region ri from file 0 down: the expansion sites that lead
 * to its file (outermost first), then its own start; *n entries. */
static size_t expanded_key(const pbi_cov_function *f, size_t ri, uint64_t key[KEY_DEPTH]) {
    uint64_t rev[KEY_DEPTH];
    size_t n = 0;
    const pbi_cov_region *x = &f->regions[ri];
    rev[n++] = (uint64_t)x->line_start << 32 | x->col_start;
    uint32_t file = x->file_id;
    while (file != 0 && n < KEY_DEPTH) {
        const pbi_cov_region *site = NULL;
        for (size_t i = 0; i < f->nregions && !site; i++)
            if (f->regions[i].kind == PBI_COV_REGION_EXPANSION && f->regions[i].expanded_file_id == file)
                site = &f->regions[i];
        if (!site || site->file_id == file) break;
        rev[n++] = (uint64_t)site->line_start << 32 | site->col_start;
        file = site->file_id;
    }
    for (size_t i = 0; i < n; i++) key[i] = rev[n - 1 - i];
    return n;
}

/* perm[0..n): positions in the order their branches appear once every
 * macro is expanded where it is used (llvm-cov 23+: CHK(a, d) || (c) lists
 * a, d, c where the branches' stored order, file by file, met c first). */
static int source_order(const pbi_cov_function *f, const pending *p, size_t n, size_t *perm) {
    uint64_t(*keys)[KEY_DEPTH] = malloc(n * sizeof *keys);
    size_t *len = malloc(n * sizeof *len);
    if (!keys || !len) {
        free(keys);
        free(len);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
        len[i] = expanded_key(f, p->pos_ri[i], keys[i]);
    }
    for (size_t i = 1; i < n; i++) { /* stable insertion: n is small */
        size_t x = perm[i], j = i;
        while (j > 0) {
            size_t y = perm[j - 1], k = 0;
            while (k < len[x] && k < len[y] && keys[x][k] == keys[y][k]) k++;
            int after = k < len[x] && k < len[y] ? keys[y][k] > keys[x][k] : 0;
            if (!after) break;
            perm[j] = y;
            j--;
        }
        perm[j] = x;
    }
    free(keys);
    free(len);
    return 0;
}

/* -1, 0 or 1 as place a is walked before, with or after place b: the first
 * differing entry decides; when one leads to the other, the one inside the
 * expansion is walked first (the mapping puts an expansion before a branch
 * with the same start). */
static int walk_cmp(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
    for (size_t k = 0; k < na && k < nb; k++)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return na > nb ? -1 : na < nb;
}

/* The branch of p met last in that walk: where llvm-cov 23 completes the
 * decision. */
static size_t last_in_walk(const pbi_cov_function *f, const pending *p) {
    uint64_t best[KEY_DEPTH], k[KEY_DEPTH];
    size_t nbest = 0, at = p->npos ? p->pos_ri[0] : p->ri;
    for (size_t i = 0; i < p->npos; i++) {
        size_t n = expanded_key(f, p->pos_ri[i], k);
        if (nbest == 0 || walk_cmp(k, n, best, nbest) > 0) {
            memcpy(best, k, n * sizeof *k);
            nbest = n;
            at = p->pos_ri[i];
        }
    }
    return at;
}

typedef struct sort_item {
    uint64_t key[KEY_DEPTH];
    size_t len;
    size_t order; /* the order the decisions completed in the mapping: ties keep it */
    pbi_cov_mcdc_record rec;
} sort_item;

static int item_cmp(const void *pa, const void *pb) {
    const sort_item *a = pa, *b = pb;
    int c = walk_cmp(a->key, a->len, b->key, b->len);
    if (c) return c;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* llvm-cov 23 walks a function's mapping once, following each expansion
 * where it stands (its CountedRegionEmitter, llvm PR #125407), and a
 * decision's record is made when that walk meets its last branch: the
 * records come in that order, not the order the decisions complete in the
 * stored mapping (18-22: a decision whose branches sit in a macro completes
 * after the regions of its own file) nor their bitmap index (clang numbers
 * a loop's body before its condition). Checked against llvm-cov-23 and -24
 * on lua and tinyxml2 built by clang-19 and -23 with MC/DC. */
int pbi_cov_mcdc_sort(const pbi_cov_function *f, pbi_cov_mcdc_record *m, size_t n) {
    if (n < 2) return 0;
    sort_item *it = malloc(n * sizeof *it);
    if (!it) return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        it[i].len = expanded_key(f, m[i].walk_ri, it[i].key);
        it[i].order = i;
        it[i].rec = m[i];
    }
    qsort(it, n, sizeof *it, item_cmp);
    for (size_t i = 0; i < n; i++) m[i] = it[i].rec;
    free(it);
    return 0;
}

static int finish(build *b, const pbi_cov_counted_branch *branches, pbi_cov_mcdc_record *out) {
    size_t n = b->n;
    pbu_arena *a = b->in->arena;
    int recorder = pbi_llvm_cov_has(b->in->t, PBI_LC_EVAL_MCDC_RECORDER);
    tvlist all = {0};
    size_t true_from = 0, *perm = NULL;
    int rc = 0;
    if (recorder && pbi_llvm_cov_has(b->in->t, PBI_LC_EVAL_MCDC_TV_BY_INDEX)) {
        int8_t *scratch = malloc(n);
        if (!scratch) return PB_ENOMEM;
        tv_sort_by_index(&b->by[0], n, scratch);
        tv_sort_by_index(&b->by[1], n, scratch);
        free(scratch);
    }
    if (recorder) {
        true_from = b->by[0].n;
        for (size_t i = 0; i < b->by[0].n && !rc; i++) rc = tv_push(&all, &b->by[0].v[i * n], n, 0, b->by[0].ix[i]);
        for (size_t i = 0; i < b->by[1].n && !rc; i++) rc = tv_push(&all, &b->by[1].v[i * n], n, 1, b->by[1].ix[i]);
    } else {
        for (size_t i = 0; i < b->by[0].n && !rc; i++)
            rc = tv_push(&all, &b->by[0].v[i * n], n, b->by[0].res[i], b->by[0].ix[i]);
    }
    uint32_t *pa = calloc(n ? n : 1, sizeof *pa), *pb = calloc(n ? n : 1, sizeof *pb);
    uint8_t *found = calloc(n ? n : 1, 1);
    if (rc || !pa || !pb || !found) { rc = PB_ENOMEM; goto out; }
    if (recorder) pairs19(&all, true_from, n, pa, pb, found);
    else pairs18(&all, n, pa, pb, found);

    memset(out, 0, sizeof *out);
    pbi_cov_counted_from(&b->f->regions[b->p->ri], 0, 0, &out->decision);
    out->bitmap_idx = b->f->regions[b->p->ri].mcdc.bitmap_idx;
    if (pbi_llvm_cov_has(b->in->t, PBI_LC_EVAL_MCDC_SORTED)) out->walk_ri = (uint32_t)last_in_walk(b->f, b->p);
    out->nconds = n;
    out->ntv = all.n;
    out->branches = ARENA_N(a, n, pbi_cov_counted_branch);
    out->tv = ARENA_N(a, all.n * n, int8_t);
    out->tv_result = ARENA_N(a, all.n, uint8_t);
    out->tv_executed = ARENA_N(a, all.n, uint8_t);
    out->folded = ARENA_N(a, n, uint8_t);
    out->covered = ARENA_N(a, n, uint8_t);
    out->pair_a = ARENA_N(a, n, uint32_t);
    out->pair_b = ARENA_N(a, n, uint32_t);
    out->cond_ids = ARENA_N(a, n, int16_t);
    if (!out->branches || !out->tv || !out->tv_result || !out->tv_executed || !out->folded || !out->covered ||
        !out->pair_a || !out->pair_b || !out->cond_ids) {
        rc = PB_ENOMEM;
        goto out;
    }
    int sides = pbi_llvm_cov_has(b->in->t, PBI_LC_EVAL_FOLDED_SIDES);
    perm = malloc(n * sizeof *perm);
    if (!perm) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) perm[i] = i;
    if (pbi_llvm_cov_has(b->in->t, PBI_LC_EVAL_MCDC_SOURCE_ORDER) && (rc = source_order(b->f, b->p, n, perm)))
        goto out;
    for (size_t pos = 0; pos < n; pos++) {
        const pbi_cov_counted_branch *br = &branches[b->p->pos_bi[perm[pos]]];
        size_t id = (size_t)b->f->regions[b->p->pos_ri[perm[pos]]].mcdc.id;
        out->branches[pos] = *br;
        out->cond_ids[pos] = (int16_t)id;
        out->folded[pos] = sides ? (br->true_folded || br->false_folded) : br->folded;
        out->covered[pos] = found[id];
        out->pair_a[pos] = pa[id];
        out->pair_b[pos] = pb[id];
        for (size_t t = 0; t < all.n; t++) out->tv[t * n + pos] = all.v[t * n + id];
    }
    for (size_t t = 0; t < all.n; t++) {
        out->tv_result[t] = all.res[t];
        out->tv_executed[t] = 1;
    }
out:
    tv_free(&all);
    free(perm);
    free(pa);
    free(pb);
    free(found);
    return rc;
}

/* Evaluates the completed decision p. Returns 0 (record in *out), 1 (no
 * record: the mapping is not a decision diagram LLVM could walk) or PB_ENOMEM. */
static int evaluate(const pbi_cov_function *f, const pending *p, const pbi_cov_counted_branch *branches,
                    const pbi_cov_mcdc_input *in, pbi_cov_mcdc_record *out) {
    build b = {f, p, in, p->npos, NULL, NULL, 0, {{0}, {0}}, 0};
    size_t n = b.n;
    /* 18 numbers vectors by their true conditions' bits (at most 6
     * conditions there); 19+ do too with a byte-index (v11) bitmap, in one
     * 64-bit word; a bit-index bitmap has no such bound. */
    int recorder = pbi_llvm_cov_has(in->t, PBI_LC_EVAL_MCDC_RECORDER);
    if (n == 0 || n > INT16_MAX || (!in->bit_index && n > 64) || (!recorder && n > 16)) return 1;
    b.next = malloc(n * sizeof *b.next);
    b.idx = calloc(n, sizeof *b.idx);
    uint8_t *seen = calloc(n, 1);
    int8_t *tv = malloc(n);
    int rc = 0;
    if (!b.next || !b.idx || !seen || !tv) { rc = PB_ENOMEM; goto out; }
    for (size_t pos = 0; pos < n; pos++) {
        const pbi_cov_mcdc *m = &f->regions[p->pos_ri[pos]].mcdc;
        if (m->id < 0 || (size_t)m->id >= n || seen[m->id] || m->true_id >= (int)n || m->false_id >= (int)n) {
            rc = 1;
            goto out;
        }
        seen[m->id] = 1;
        b.next[m->id][0] = m->false_id < 0 ? -1 : m->false_id;
        b.next[m->id][1] = m->true_id < 0 ? -1 : m->true_id;
    }
    memset(tv, -1, n);
    if (recorder) {
        rc = number_vectors(&b);
        if (!rc) rc = walk19(&b, tv, 0, 0, 0);
    } else {
        rc = executed18(&b);
    }
    if (!rc) rc = finish(&b, branches, out);
out:
    free(b.next);
    free(b.idx);
    free(seen);
    free(tv);
    tv_free(&b.by[0]);
    tv_free(&b.by[1]);
    return rc;
}

int pbi_cov_mcdc_branch(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri, size_t bi,
                        const pbi_cov_counted_branch *branches, const pbi_cov_mcdc_input *in,
                        pbi_cov_mcdc_record *out, int *done, pb_error *err) {
    *done = 0;
    const pbi_cov_region *x = &f->regions[ri];
    int recorder = pbi_llvm_cov_has(in->t, PBI_LC_EVAL_MCDC_CONTAINED);
    size_t at = r->n;
    for (size_t i = 0; i < r->n; i++) {
        pending *p = &r->d[i];
        size_t nc = f->regions[p->ri].mcdc.num_conditions;
        if (recorder) {
            if (x->mcdc.id < 0 || (size_t)x->mcdc.id >= nc || p->seen[x->mcdc.id]) continue;
            if (!dominates(f, p, x)) continue;
            if (add_position(p, ri, bi, x->mcdc.id == 0)) return pbu_nomem(err, "MC/DC branches");
            p->seen[x->mcdc.id] = 1;
        } else if (add_position(p, ri, bi, 0)) {
            return pbu_nomem(err, "MC/DC branches");
        }
        if (p->npos == nc) at = i;
        break; /* Processed or Completed: the first decision that takes it */
    }
    if (at == r->n) return 0;
    int rc = evaluate(f, &r->d[at], branches, in, out);
    drop_pending(r, at);
    if (rc == PB_ENOMEM) return pbu_nomem(err, "MC/DC record");
    if (rc) return 1;
    *done = 1;
    return 0;
}
