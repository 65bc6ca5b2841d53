/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_model_canonical.c -- canonical order: documented order on a hand-made
 * example; equal content built in shuffled orders becomes byte-identical. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static pb_profile *new_profile(void) {
    pb_profile *p = NULL;
    CU_ASSERT_FATAL(pb_profile_new(&p, NULL) == 0);
    return p;
}

/* Naive comparison of every table by index and bytes; returns 1 if identical. */
static int identical(const pb_profile *a, const pb_profile *b, int quiet) {
#define SAME(cond, what)                                      \
    do {                                                      \
        if (!(cond)) {                                        \
            if (!quiet) fprintf(stderr, "\n  differs: %s\n", what); \
            return 0;                                         \
        }                                                     \
    } while (0)
    SAME(pb_profile_symbol_count(a) == pb_profile_symbol_count(b), "symbol count");
    for (uint32_t i = 0; i < pb_profile_symbol_count(a); i++)
        SAME(memcmp(pb_profile_symbol(a, i), pb_profile_symbol(b, i), sizeof(pb_symbol)) == 0, "symbol");
    for (pb_str s = 0;; s++) {
        size_t la, lb;
        const char *x = pb_profile_str(a, s, &la), *y = pb_profile_str(b, s, &lb);
        SAME((x == NULL) == (y == NULL), "string count");
        if (!x) break;
        SAME(la == lb && memcmp(x, y, la) == 0, "string");
    }
    SAME(pb_profile_method_count(a) == pb_profile_method_count(b), "method count");
    for (uint32_t i = 0; i < pb_profile_method_count(a); i++) {
        const pb_method *x = pb_profile_method(a, i), *y = pb_profile_method(b, i);
        SAME(x->name == y->name && x->num_sig == y->num_sig && x->placeholder == y->placeholder &&
                 x->placeholder_id == y->placeholder_id,
             "method");
        SAME(x->num_sig == 0 || memcmp(x->sig, y->sig, x->num_sig * 4) == 0, "signature");
    }
    for (uint32_t c = 0;; c++) {
        size_t na, nb;
        const pb_frame *x = pb_profile_context(a, c, &na), *y = pb_profile_context(b, c, &nb);
        SAME((x == NULL) == (y == NULL), "context count");
        if (!x) break;
        SAME(na == nb && memcmp(x, y, na * sizeof *x) == 0, "context");
    }
    for (uint32_t c = 0;; c++) {
        size_t na, nb;
        const int32_t *x = pb_profile_ints(a, c, &na), *y = pb_profile_ints(b, c, &nb);
        SAME((x == NULL) == (y == NULL), "int array count");
        if (!x) break;
        SAME(na == nb && (na == 0 || memcmp(x, y, na * 4) == 0), "int array");
    }
    SAME(pb_profile_record_count(a) == pb_profile_record_count(b), "record count");
    for (size_t i = 0; i < pb_profile_record_count(a); i++) {
        const pb_record *x = pb_profile_record(a, i), *y = pb_profile_record(b, i);
        SAME(x->kind == y->kind && x->name == y->name && x->ctx == y->ctx && x->layout == y->layout &&
                 x->hash == y->hash && x->num_counters == y->num_counters,
             "record key");
        SAME(memcmp(x->counters, y->counters, x->num_counters * 8) == 0, "counters");
        for (int k = 0; k < PB_VK_COUNT; k++) {
            SAME(x->num_sites[k] == y->num_sites[k], "site count");
            for (uint32_t s = 0; s < x->num_sites[k]; s++) {
                SAME(x->sites[k][s].num_values == y->sites[k][s].num_values, "value count");
                for (uint32_t v = 0; v < x->sites[k][s].num_values; v++) {
                    const pb_value *p = &x->sites[k][s].values[v], *q = &y->sites[k][s].values[v];
                    SAME(p->value == q->value && p->count == q->count && p->symbol == q->symbol, "value");
                }
            }
        }
    }
    return 1;
#undef SAME
}

static uint32_t sym(pb_profile *p, const char *n) {
    uint32_t s;
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, n, strlen(n), &s, NULL) == 0);
    return s;
}

static void canonicalize__puts_tables_in_the_documented_order(void) {
    pb_profile *p = new_profile();
    pb_str junk;
    CU_ASSERT(pb_profile_intern(p, "zzz-unreferenced", 16, &junk, NULL) == 0);
    uint32_t sb = sym(p, "b"), sa = sym(p, "a"), sab = sym(p, "ab");
    (void)sym(p, "B");
    uint32_t p5, pm2;
    CU_ASSERT(pb_profile_add_placeholder_symbol(p, 5, &p5, NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_symbol(p, -2, &pm2, NULL) == 0);
    (void)sym(p, "");
    uint32_t m[6], ph;
    uint32_t s1[1] = {sb}, s2[2] = {sa, sb}, s3[1] = {sa}, s4[2] = {sa, sab};
    CU_ASSERT(pb_profile_add_method(p, "f", 1, s1, 1, &m[0], NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_method(p, 3, &ph, NULL) == 0);
    CU_ASSERT(pb_profile_add_method(p, "f", 1, s2, 2, &m[1], NULL) == 0);
    CU_ASSERT(pb_profile_add_method(p, "f", 1, s3, 1, &m[2], NULL) == 0);
    CU_ASSERT(pb_profile_add_method(p, "e", 1, s1, 1, &m[3], NULL) == 0);
    CU_ASSERT(pb_profile_add_method(p, "f", 1, NULL, 0, &m[4], NULL) == 0);
    CU_ASSERT(pb_profile_add_method(p, "f", 1, s4, 2, &m[5], NULL) == 0);
    /* records: functions by (name, hash), then Java by (kind, context) */
    uint64_t one = 1;
    pb_record r;
    memset(&r, 0, sizeof r);
    r.counters = &one;
    r.num_counters = 1;
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    const struct { const char *n; uint64_t h; } fn[3] = {{"main", 2}, {"main", 1}, {"foo", 9}};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_FATAL(pb_profile_intern(p, fn[i].n, strlen(fn[i].n), &r.name, NULL) == 0);
        r.hash = fn[i].h;
        CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    }
    pb_frame f_long[2] = {{m[3], 1}, {m[3], 0}}, f_e1 = {m[3], 1}, f_ph = {ph, 0}, f_e0 = {m[3], 0};
    uint32_t c_long, c_e1, c_ph, c_e0;
    CU_ASSERT_FATAL(pb_profile_intern_context(p, f_long, 2, &c_long, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f_e1, 1, &c_e1, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f_ph, 1, &c_ph, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f_e0, 1, &c_e0, NULL) == 0);
    r.name = PB_NONE;
    r.hash = 0;
    uint32_t order[4] = {c_ph, c_long, c_e1, c_e0};
    for (int i = 0; i < 4; i++) {
        r.kind = PB_REC_JAVA_SAMPLE;
        r.ctx = order[i];
        CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    }
    r.kind = PB_REC_JAVA_CALL_COUNT;
    r.ctx = c_ph;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);

    CU_ASSERT_FATAL(pb_profile_canonicalize(p, NULL) == 0);

    static const char *const syms[7] = {"%_", "B", "a", "ab", "b", "%#-2", "%#5"};
    CU_ASSERT_EQUAL_FATAL(pb_profile_symbol_count(p), 7);
    for (uint32_t i = 0; i < 5; i++) {
        const pb_symbol *s = pb_profile_symbol(p, i);
        CU_ASSERT(s->placeholder == 0);
        const char *want = i == 0 ? "" : syms[i];
        CU_ASSERT_STRING_EQUAL(pb_profile_str(p, s->name, NULL), want);
    }
    CU_ASSERT(pb_profile_symbol(p, 5)->placeholder_id == -2 && pb_profile_symbol(p, 6)->placeholder_id == 5);
    /* the reference table stays consistent: find by name and md5 */
    uint32_t f;
    CU_ASSERT(pb_profile_find_symbol(p, "ab", 2, &f) == 0 && f == 3);
    CU_ASSERT(pb_profile_find_symbol_md5(p, pb_md5_ref("b", 1), &f) == 0 && f == 4);
    /* methods: e(b), f(), f(a), f(a,ab), f(a,b), f(b), placeholder */
    static const struct { const char *n; uint32_t ns; uint32_t s0, s1; } want[6] = {
        {"e", 1, 4, 0}, {"f", 0, 0, 0}, {"f", 1, 2, 0}, {"f", 2, 2, 3}, {"f", 2, 2, 4}, {"f", 1, 4, 0}};
    CU_ASSERT_EQUAL_FATAL(pb_profile_method_count(p), 7);
    for (uint32_t i = 0; i < 6; i++) {
        const pb_method *me = pb_profile_method(p, i);
        CU_ASSERT_STRING_EQUAL(pb_profile_str(p, me->name, NULL), want[i].n);
        CU_ASSERT_EQUAL_FATAL(me->num_sig, want[i].ns);
        if (want[i].ns > 0) CU_ASSERT_EQUAL(me->sig[0], want[i].s0);
        if (want[i].ns > 1) CU_ASSERT_EQUAL(me->sig[1], want[i].s1);
    }
    CU_ASSERT(pb_profile_method(p, 6)->placeholder == 1);
    /* the unreferenced string is gone */
    uint32_t dummy;
    CU_ASSERT(pb_profile_find_symbol(p, "zzz-unreferenced", 16, &dummy) == PB_ENOTFOUND);
    /* records */
    const char *n;
    size_t len;
    uint64_t h;
    static const char *const expect[8] = {"foo",
                                          "main",
                                          "main",
                                          "jcall:%#3:0",
                                          "jsample:b.e()%-:0",
                                          "jsample:b.e()%-:1",
                                          "jsample:b.e()%-:1<b.e()%-:0",
                                          "jsample:%#3:0"};
    static const uint64_t hashes[3] = {9, 1, 2};
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(p), 8);
    for (size_t i = 0; i < 8; i++) {
        CU_ASSERT_FATAL(pb_profile_record_name(p, pb_profile_record(p, i), &n, &len, &h, NULL) == 0);
        CU_ASSERT_STRING_EQUAL(n, expect[i]);
        if (strcmp(n, expect[i])) fprintf(stderr, "\n  record %zu: %s\n", i, n);
        if (i < 3) CU_ASSERT_EQUAL(h, hashes[i]);
    }
    CU_ASSERT_EQUAL(pb_profile_check(p, NULL, NULL), 0);
    pb_profile_free(p);
}

/* ---- shuffled builds ---------------------------------------------------------- */

static uint64_t rng(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void shuffle(uint32_t *v, size_t n, uint64_t *s) {
    for (size_t i = n; i > 1; i--) {
        size_t j = rng(s) % i;
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

#define NT 40
#define NM 60
#define NR 300

typedef struct content {
    char tname[NT][8];
    int tph[NT]; /* placeholder type? */
    uint32_t msig[NM][4], mnsig[NM];
    char mname[NM][8];
    uint32_t rframes[NR][3], rbci[NR][3], rnf[NR];
    int rkind[NR];
    int32_t rlay[NR][4];
    uint32_t rnl[NR];
    uint64_t rcount[NR][3];
    uint32_t rtypes[NR][2];
} content;

static void make_content(content *c, uint64_t seed) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < NT; i++) {
        snprintf(c->tname[i], sizeof c->tname[i], "T%d", i);
        c->tph[i] = i % 9 == 8;
    }
    for (int i = 0; i < NM; i++) {
        snprintf(c->mname[i], sizeof c->mname[i], "m%d", i % 17); /* names repeat, sigs differ */
        c->mnsig[i] = (uint32_t)(i % 5);
        for (uint32_t k = 0; k < c->mnsig[i]; k++) c->msig[i][k] = (uint32_t)((i * 7 + k * 3) % NT);
    }
    for (int i = 0; i < NR; i++) {
        c->rkind[i] = i % 3 == 0 ? PB_REC_JAVA_BRANCH : i % 3 == 1 ? PB_REC_JAVA_CALL_COUNT : PB_REC_JAVA_VIRTUAL_INVOKE;
        c->rnf[i] = 1 + (uint32_t)(i % 3);
        for (uint32_t k = 0; k < c->rnf[i]; k++) {
            c->rframes[i][k] = (uint32_t)((i * 13 + k * 5) % NM);
            c->rbci[i][k] = (uint32_t)(i + k);
        }
        c->rnl[i] = c->rkind[i] == PB_REC_JAVA_BRANCH ? 4 : 0;
        for (int k = 0; k < 4; k++) c->rlay[i][k] = (int32_t)((i * 3 + k) % 11) - 3;
        c->rcount[i][1] = rng(&seed) % 100;
        c->rcount[i][2] = rng(&seed) % 100;
        c->rcount[i][0] = c->rcount[i][1] + c->rcount[i][2];
        c->rtypes[i][0] = (uint32_t)(i % NT);
        c->rtypes[i][1] = (uint32_t)((i + 1) % NT);
    }
}

/* Builds the content into a profile in an order given by `seed`. */
static pb_profile *build(const content *c, uint64_t seed) {
    pb_profile *p = new_profile();
    uint32_t to[NT], mo[NM], ro[NR], tid[NT], mid[NM];
    for (uint32_t i = 0; i < NT; i++) to[i] = i;
    for (uint32_t i = 0; i < NM; i++) mo[i] = i;
    for (uint32_t i = 0; i < NR; i++) ro[i] = i;
    shuffle(to, NT, &seed);
    shuffle(mo, NM, &seed);
    shuffle(ro, NR, &seed);
    char junk[16];
    for (int i = 0; i < (int)(seed % 5); i++) {
        pb_str s;
        int n = snprintf(junk, sizeof junk, "junk%d", i);
        CU_ASSERT_FATAL(pb_profile_intern(p, junk, (size_t)n, &s, NULL) == 0);
    }
    for (int i = 0; i < NT; i++) {
        uint32_t t = to[i];
        int rc = c->tph[t] ? pb_profile_add_placeholder_symbol(p, (int64_t)t * 1000, &tid[t], NULL)
                           : pb_profile_add_symbol(p, c->tname[t], strlen(c->tname[t]), &tid[t], NULL);
        CU_ASSERT_FATAL(rc == 0);
    }
    for (int i = 0; i < NM; i++) {
        uint32_t m = mo[i], sig[4];
        for (uint32_t k = 0; k < c->mnsig[m]; k++) sig[k] = tid[c->msig[m][k]];
        CU_ASSERT_FATAL(pb_profile_add_method(p, c->mname[m], strlen(c->mname[m]), sig, c->mnsig[m],
                                              &mid[m], NULL) == 0);
    }
    for (int i = 0; i < NR; i++) {
        uint32_t r = ro[i];
        pb_frame f[3];
        for (uint32_t k = 0; k < c->rnf[r]; k++) f[k] = (pb_frame){mid[c->rframes[r][k]], (int32_t)c->rbci[r][k]};
        pb_record rec;
        memset(&rec, 0, sizeof rec);
        rec.kind = (uint8_t)c->rkind[r];
        rec.name = PB_NONE;
        rec.layout = PB_NONE;
        CU_ASSERT_FATAL(pb_profile_intern_context(p, f, c->rnf[r], &rec.ctx, NULL) == 0);
        uint64_t cnt[3];
        memcpy(cnt, c->rcount[r], sizeof cnt);
        pb_value vals[2];
        pb_site site = {2, vals};
        rec.counters = cnt;
        rec.num_counters = 1;
        if (rec.kind == PB_REC_JAVA_BRANCH) {
            CU_ASSERT_FATAL(pb_profile_intern_ints(p, c->rlay[r], c->rnl[r], &rec.layout, NULL) == 0);
            rec.num_counters = 3;
        } else if (rec.kind == PB_REC_JAVA_VIRTUAL_INVOKE) {
            for (int k = 0; k < 2; k++) {
                uint32_t s = tid[c->rtypes[r][k]];
                vals[k] = (pb_value){pb_profile_symbol(p, s)->md5, c->rcount[r][1 + k], s};
            }
            rec.num_sites[PB_VK_VTABLE] = 1;
            rec.sites[PB_VK_VTABLE] = &site;
        }
        int rc = pb_profile_add_record(p, &rec, NULL, NULL);
        CU_ASSERT_FATAL(rc == 0 || rc == PB_EEXIST);
    }
    /* some names rendered (cached) before canonicalizing */
    for (size_t i = 0; i < pb_profile_record_count(p); i += 7) {
        const char *n;
        CU_ASSERT_FATAL(pb_profile_record_name(p, pb_profile_record(p, i), &n, NULL, NULL, NULL) == 0);
    }
    return p;
}

static void canonicalize__makes_shuffled_builds_of_equal_content_identical(void) {
    content *c = malloc(sizeof *c);
    CU_ASSERT_FATAL(c != NULL);
    make_content(c, 42);
    pb_profile *a = build(c, 1), *b = build(c, 987654321);
    CU_ASSERT_FATAL(pb_profile_record_count(a) == pb_profile_record_count(b));
    CU_ASSERT(pb_profile_record_count(a) > 100);
    char why[512];
    CU_ASSERT(pb_profile_equal(a, b, why, sizeof why) == 1);
    CU_ASSERT(!identical(a, b, 1)); /* the shuffled builds differ before */
    CU_ASSERT_FATAL(pb_profile_canonicalize(a, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_canonicalize(b, NULL) == 0);
    CU_ASSERT(identical(a, b, 0));
    CU_ASSERT(pb_profile_equal(a, b, why, sizeof why) == 1);
    CU_ASSERT_EQUAL(pb_profile_check(a, NULL, NULL), 0);
    /* cached names moved with their records: compare against a fresh render */
    pb_profile *fresh = build(c, 5);
    CU_ASSERT_FATAL(pb_profile_canonicalize(fresh, NULL) == 0);
    for (size_t i = 0; i < pb_profile_record_count(a); i++) {
        const char *x, *y;
        size_t lx, ly;
        CU_ASSERT_FATAL(pb_profile_record_name(a, pb_profile_record(a, i), &x, &lx, NULL, NULL) == 0);
        CU_ASSERT_FATAL(pb_profile_record_name(fresh, pb_profile_record(fresh, i), &y, &ly, NULL, NULL) == 0);
        CU_ASSERT(lx == ly && memcmp(x, y, lx) == 0);
        /* and the key index still finds every record */
        size_t idx;
        CU_ASSERT(pb_profile_lookup(a, x, lx, &idx, 1) == 1 && idx == i);
    }
    /* canonicalizing twice changes nothing */
    CU_ASSERT_FATAL(pb_profile_canonicalize(a, NULL) == 0);
    CU_ASSERT(identical(a, b, 0));
    pb_profile_free(a);
    pb_profile_free(b);
    pb_profile_free(fresh);
    free(c);
}

static CU_TestInfo tests[] = {
    {"canonicalize__puts_tables_in_the_documented_order", canonicalize__puts_tables_in_the_documented_order},
    {"canonicalize__makes_shuffled_builds_of_equal_content_identical",
     canonicalize__makes_shuffled_builds_of_equal_content_identical},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_model_canonical[] = {{"model_canonical", NULL, NULL, NULL, NULL, tests},
                                                 CU_SUITE_INFO_NULL};
