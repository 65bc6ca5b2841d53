/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_iprof_roundtrip.c -- read -> write -> read of real and generated iprof
 * files, judged twice: by the independent jansson checker (iprof_checker.h:
 * names, not ids; multisets, not order) and by pb_profile_equal. Also: hostile
 * names, id-shuffled copies give identical models and bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "iprof_checker.h"
#include "iprof_test.h"

/* read (strict or lenient) -> write -> checker; -> read -> equal models. */
static void round_trip(const char *text, size_t len, const char *name, int lenient,
                       const char *want_version, int *ok_out) {
    pb_profile *p = NULL, *q = NULL;
    pb_error err;
    char *out = NULL, *out2 = NULL;
    size_t n = 0, n2 = 0;
    char why[600] = "";
    int ok = 0;
    int rc = it_read(&p, text, len, name, lenient, 0, NULL, &err);
    if (rc) {
        fprintf(stderr, "\n  %s: read: %s\n", name, it_fmt_err(&err));
        goto out;
    }
    if (pb_profile_check(p, NULL, NULL) != 0) {
        fprintf(stderr, "\n  %s: the model fails pb_profile_check\n", name);
        goto out;
    }
    if ((rc = it_write(p, NULL, &out, &n, NULL, &err))) {
        fprintf(stderr, "\n  %s: write: %s\n", name, it_fmt_err(&err));
        goto out;
    }
    if (!ck_same(text, len, out, n, want_version, why, sizeof why)) {
        fprintf(stderr, "\n  %s: checker: %s\n", name, why);
        goto out;
    }
    if ((rc = it_read(&q, out, n, "out.iprof", lenient, 0, NULL, &err))) {
        fprintf(stderr, "\n  %s: re-read: %s\n", name, it_fmt_err(&err));
        goto out;
    }
    /* 0.2.0 comes back as the version it was written as; all else must be equal. */
    if (want_version &&
        pb_profile_set_prop(p, "iprof.version", want_version, strlen(want_version), &err))
        goto out;
    if (!pb_profile_equal(p, q, why, sizeof why)) {
        fprintf(stderr, "\n  %s: models differ: %s\n", name, why);
        goto out;
    }
    if ((rc = it_write(q, NULL, &out2, &n2, NULL, &err)) || n2 != n || memcmp(out, out2, n)) {
        fprintf(stderr, "\n  %s: second write differs\n", name);
        goto out;
    }
    ok = 1;
out:
    if (ok_out) *ok_out = ok;
    CU_ASSERT(ok);
    free(out);
    free(out2);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void real_file(const char *rel, int lenient, const char *want_version) {
    const char *path = tu_shared(rel);
    if (!tu_exists(path)) {
        fprintf(stderr, "\n  SKIP: %s not present\n", path);
        return;
    }
    size_t len = 0;
    char *t = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    round_trip(t, len, rel, lenient, want_version, NULL);
    free(t);
}

static void iprof_roundtrip__real_0_4_0_file_is_lossless(void) {
    real_file("testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof", 0, NULL);
}

static void iprof_roundtrip__real_elide_file_is_lossless_in_lenient_mode(void) {
    real_file("testdata/iprof-real/elidemin-jspy_4c59df4_default.iprof", 1, NULL);
}

static void iprof_roundtrip__real_0_2_0_file_is_lossless_as_1_0_0(void) {
    real_file("testdata/iprof-real/binary-tree_ff318ed_default.v0.2.0.iprof", 0, "1.0.0");
}

/* ---- a seeded generator of valid iprof documents ---- */

typedef struct rng {
    uint64_t s;
} rng;
static uint64_t rnd(rng *r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * UINT64_C(2685821657736338717);
}
static uint64_t below(rng *r, uint64_t n) { return n ? rnd(r) % n : 0; }

static const char *const hostile[] = {
    "<init>", "<clinit>", "lambda$main$0", "Foo$$Lambda/0x0000000801001234",
    "java.lang.invoke.LambdaForm$DMH/s21ef14da", "[Ljava.lang.String;", "[[D", "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac",
    "#comment", "12345", "q\"uote", "back\\slash", "ctl\x01\x1f\t\n", "a<b", "a:b", "f(x)", "a,b",
    "100%", "p|q", "", " sp ace ", "\xf0\x9f\x98\x80", "x\x7f", "java.lang.Object", "int", "0:0<1:2"};
#define NHOSTILE (sizeof hostile / sizeof hostile[0])

#define G_MAX_T 24
#define G_MAX_M 20
#define G_MAX_E 8
#define G_MAX_F 5
#define G_MAX_R 12

typedef struct gentry {
    int nf;
    int fm[G_MAX_F];
    long long fb[G_MAX_F];
    int nr;
    long long rec[G_MAX_R * 3];
} gentry;

typedef struct gprof {
    int nt, nm;
    char tname[G_MAX_T][64];
    size_t tlen[G_MAX_T];
    char mname[G_MAX_M][64];
    size_t mlen[G_MAX_M];
    int nsig[G_MAX_M];
    int sig[G_MAX_M][5];
    int ne[CK_NSEC];
    gentry e[CK_NSEC][G_MAX_E];
    int version; /* 0: 1.1.0 (instanceOf), 1: 1.1.0 (instanceof), 2: 1.0.0, 3: 0.4.0 */
    int extra;
} gprof;

static long long pick_bci(rng *r) {
    static const long long special[] = {0, -1, -4, -5, -6, 2147483647LL, -2147483647LL - 1};
    return below(r, 3) ? (long long)below(r, 200) : special[below(r, 7)];
}
static long long pick_count(rng *r) {
    switch (below(r, 6)) {
    case 0: return 0;
    case 1: return INT64_MAX;
    case 2: return (long long)(rnd(r) >> 1);
    default: return (long long)below(r, 1000);
    }
}

static void gen_name(rng *r, char *dst, size_t *len, int k, const char *prefix) {
    /* unique: a hostile name for the first few, with the index appended after */
    const char *h = hostile[below(r, NHOSTILE)];
    size_t hl = strlen(h);
    int n = snprintf(dst, 64, "%s%s", prefix, h);
    if (below(r, 3) || k >= (int)NHOSTILE) n += snprintf(dst + n, 64 - (size_t)n, "%d", k);
    *len = (size_t)n;
    (void)hl;
}

static void gen_profile(rng *r, gprof *g) {
    memset(g, 0, sizeof *g);
    g->nt = 1 + (int)below(r, G_MAX_T);
    g->nm = 1 + (int)below(r, G_MAX_M);
    for (int i = 0; i < g->nt; i++) {
        for (;;) { /* names must be unique: types are identified by name */
            gen_name(r, g->tname[i], &g->tlen[i], i, "");
            int dup = 0;
            for (int j = 0; j < i; j++)
                if (g->tlen[j] == g->tlen[i] && !memcmp(g->tname[j], g->tname[i], g->tlen[i])) dup = 1;
            if (!dup) break;
        }
    }
    for (int i = 0; i < g->nm; i++) {
        gen_name(r, g->mname[i], &g->mlen[i], i, "m");
        /* unique (name, signature): the index makes the name unique */
        g->mlen[i] += (size_t)snprintf(g->mname[i] + g->mlen[i], 64 - g->mlen[i], "_%d", i);
        g->nsig[i] = (int)below(r, 6);
        for (int k = 0; k < g->nsig[i]; k++) g->sig[i][k] = (int)below(r, (uint64_t)g->nt);
    }
    g->version = (int)below(r, 4);
    g->extra = below(r, 5) == 0;
    for (int s = 0; s < CK_NSEC; s++) {
        int max = s == 3 ? 2 : G_MAX_E;
        if (s == 5 && g->version >= 2) max = 0;
        g->ne[s] = (int)below(r, (uint64_t)max);
        for (int i = 0; i < g->ne[s]; i++) {
            gentry *e = &g->e[s][i];
        again:
            e->nf = 1 + (int)below(r, G_MAX_F);
            for (int f = 0; f < e->nf; f++) {
                e->fm[f] = (int)below(r, (uint64_t)g->nm);
                e->fb[f] = pick_bci(r);
            }
            if (s == 0) e->fb[0] = 0;
            if (s == 3) { /* monitor: dummy context */
                e->nf = 1;
                e->fm[0] = -1;
                e->fb[0] = 0;
            }
            for (int j = 0; j < i; j++) { /* contexts unique within a section */
                gentry *o = &g->e[s][j];
                if (o->nf == e->nf && !memcmp(o->fm, e->fm, sizeof(int) * (size_t)e->nf) &&
                    !memcmp(o->fb, e->fb, sizeof(long long) * (size_t)e->nf))
                    goto again;
            }
            int shape = ck_secs[s].shape;
            if (shape == CK_COUNT) {
                e->nr = 1;
                e->rec[0] = pick_count(r);
            } else if (shape == CK_BRANCH) {
                e->nr = (int)below(r, G_MAX_R + 1);
                for (int k = 0; k < e->nr; k++) {
                    e->rec[3 * k] = below(r, 4) ? (long long)below(r, 100) : -5;
                    e->rec[3 * k + 1] = (long long)below(r, 4); /* indices repeat */
                    e->rec[3 * k + 2] = pick_count(r);
                }
            } else {
                int used[G_MAX_T] = {0};
                e->nr = (int)below(r, (uint64_t)(g->nt < G_MAX_R ? g->nt : G_MAX_R) + 1);
                for (int k = 0; k < e->nr; k++) {
                    int t;
                    do t = (int)below(r, (uint64_t)g->nt);
                    while (used[t]);
                    used[t] = 1;
                    e->rec[2 * k] = t; /* type index, mapped to an id on output */
                    e->rec[2 * k + 1] = pick_count(r);
                }
            }
        }
    }
}

static void shuffle(rng *r, int *v, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(r, (uint64_t)i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Serializes with random distinct ids and random array order (seeded by r). */
static char *gen_text(rng *r, const gprof *g, size_t *len) {
    static const char *const versions[] = {"1.1.0", "1.1.0", "1.0.0", "0.4.0"};
    long long tid[G_MAX_T], mid[G_MAX_M];
    int order[64];
    for (int i = 0; i < g->nt; i++) {
    t_again:
        tid[i] = (long long)below(r, 5000);
        for (int j = 0; j < i; j++)
            if (tid[j] == tid[i]) goto t_again;
    }
    for (int i = 0; i < g->nm; i++) {
    m_again:
        mid[i] = (long long)below(r, 2147483647);
        for (int j = 0; j < i; j++)
            if (mid[j] == mid[i]) goto m_again;
    }
    json_t *root = json_object();
    if (g->extra) json_object_set_new(root, "aFirstExtra", json_pack("{s:[i,s]}", "k", 1, "v"));
    json_object_set_new(root, "version", json_string(versions[g->version]));
    json_t *types = json_array(), *methods = json_array();
    for (int i = 0; i < g->nt; i++) order[i] = i;
    shuffle(r, order, g->nt);
    for (int k = 0; k < g->nt; k++) {
        int i = order[k];
        json_array_append_new(types, json_pack("{s:I,s:s%}", "id", (json_int_t)tid[i], "name",
                                               g->tname[i], g->tlen[i]));
    }
    for (int i = 0; i < g->nm; i++) order[i] = i;
    shuffle(r, order, g->nm);
    for (int k = 0; k < g->nm; k++) {
        int i = order[k];
        json_t *sig = json_array();
        for (int s = 0; s < g->nsig[i]; s++) json_array_append_new(sig, json_integer(tid[g->sig[i][s]]));
        json_array_append_new(methods, json_pack("{s:I,s:s%,s:o}", "id", (json_int_t)mid[i], "name",
                                                 g->mname[i], g->mlen[i], "signature", sig));
    }
    json_object_set_new(root, "types", types);
    json_object_set_new(root, "methods", methods);
    int sec_order[CK_NSEC] = {0, 1, 2, 3, 4, 5};
    shuffle(r, sec_order, CK_NSEC);
    for (int so = 0; so < CK_NSEC; so++) {
        int s = sec_order[so];
        if (s == 5 && g->version >= 2) continue;
        const char *key = s == 5 && g->version == 1 ? "instanceofProfiles" : ck_secs[s].key;
        json_t *arr = json_array();
        for (int i = 0; i < g->ne[s]; i++) order[i] = i;
        shuffle(r, order, g->ne[s]);
        for (int k = 0; k < g->ne[s]; k++) {
            const gentry *e = &g->e[s][order[k]];
            char ctx[512];
            size_t cl = 0;
            if (s == 3) cl = (size_t)snprintf(ctx, sizeof ctx, "0:0");
            for (int f = 0; s != 3 && f < e->nf; f++)
                cl += (size_t)snprintf(ctx + cl, sizeof ctx - cl, "%s%lld:%lld", f ? "<" : "",
                                       mid[e->fm[f]], e->fb[f]);
            json_t *recs = json_array();
            int shape = ck_secs[s].shape;
            if (shape == CK_TYPES) {
                int po[G_MAX_R];
                for (int p = 0; p < e->nr; p++) po[p] = p;
                shuffle(r, po, e->nr); /* pair order carries no meaning */
                for (int p = 0; p < e->nr; p++) {
                    json_array_append_new(recs, json_integer(tid[e->rec[2 * po[p]]]));
                    json_array_append_new(recs, json_integer(e->rec[2 * po[p] + 1]));
                }
            } else {
                int n = shape == CK_BRANCH ? 3 * e->nr : 1;
                for (int p = 0; p < n; p++) json_array_append_new(recs, json_integer(e->rec[p]));
            }
            json_array_append_new(arr, json_pack("{s:s,s:o}", "ctx", ctx, "records", recs));
        }
        json_object_set_new(root, key, arr);
    }
    if (g->extra) json_object_set_new(root, "zLastExtra", json_pack("[s,n,b]", "\xc3\xa9", 1));
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    *len = strlen(text);
    return text;
}

static void iprof_roundtrip__1000_generated_profiles_are_lossless(void) {
    rng r = {UINT64_C(0x9e3779b97f4a7c15)};
    int failed = 0;
    for (int c = 0; c < 1000 && failed < 3; c++) {
        gprof g;
        size_t len;
        char name[32];
        gen_profile(&r, &g);
        char *t = gen_text(&r, &g, &len);
        snprintf(name, sizeof name, "gen%d.iprof", c);
        int ok = 0;
        round_trip(t, len, name, 0, NULL, &ok);
        if (!ok) {
            failed++;
            fprintf(stderr, "  input: %.2000s\n", t);
        }
        free(t);
    }
    CU_ASSERT_EQUAL(failed, 0);
}

static void iprof_roundtrip__id_shuffled_copies_give_equal_models_and_identical_bytes(void) {
    rng r = {UINT64_C(12345)};
    int failed = 0;
    for (int c = 0; c < 200 && failed < 3; c++) {
        gprof g;
        size_t l1, l2, n1 = 0, n2 = 0;
        gen_profile(&r, &g);
        char *a = gen_text(&r, &g, &l1), *b = gen_text(&r, &g, &l2);
        pb_profile *p = NULL, *q = NULL;
        pb_error err;
        char *o1 = NULL, *o2 = NULL, why[300] = "";
        int ok = it_read(&p, a, l1, "a.iprof", 0, 0, NULL, &err) == 0 &&
                 it_read(&q, b, l2, "b.iprof", 0, 0, NULL, &err) == 0 &&
                 pb_profile_equal(p, q, why, sizeof why) &&
                 it_write(p, NULL, &o1, &n1, NULL, &err) == 0 &&
                 it_write(q, NULL, &o2, &n2, NULL, &err) == 0 && n1 == n2 && !memcmp(o1, o2, n1);
        if (!ok) {
            failed++;
            fprintf(stderr, "\n  shuffle case %d: %s %s\n  a: %.1500s\n  b: %.1500s\n", c, why,
                    err.code ? it_fmt_err(&err) : "", a, b);
        }
        free(a);
        free(b);
        free(o1);
        free(o2);
        pb_profile_free(p);
        pb_profile_free(q);
    }
    CU_ASSERT_EQUAL(failed, 0);
}

static void iprof_roundtrip__hostile_names_survive(void) {
    /* every hostile name as a type and as a method, used by every section */
    json_t *root = json_object(), *types = json_array(), *methods = json_array();
    json_object_set_new(root, "version", json_string("1.1.0"));
    for (size_t i = 0; i < NHOSTILE; i++) {
        json_array_append_new(types, json_pack("{s:i,s:s}", "id", (int)(100 + i), "name", hostile[i]));
        json_array_append_new(methods, json_pack("{s:i,s:s,s:[i,i]}", "id", (int)i, "name", hostile[i],
                                                 "signature", (int)(100 + i), (int)(100 + (i + 1) % NHOSTILE)));
    }
    json_array_append_new(types, json_pack("{s:i,s:s#}", "id", 7, "name", "nul\0byte", (size_t)8));
    json_object_set_new(root, "types", types);
    json_object_set_new(root, "methods", methods);
    json_t *cc = json_array(), *vi = json_array();
    for (size_t i = 0; i < NHOSTILE; i++) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "%zu:0<%zu:-1", i, (i + 3) % NHOSTILE);
        json_array_append_new(cc, json_pack("{s:s,s:[i]}", "ctx", ctx, "records", (int)i));
        snprintf(ctx, sizeof ctx, "%zu:%zu", i, i);
        json_array_append_new(vi, json_pack("{s:s,s:[i,i,i,i]}", "ctx", ctx, "records", (int)(100 + i), 5,
                                            7, (int)i));
    }
    json_object_set_new(root, "callCountProfiles", cc);
    json_object_set_new(root, "virtualInvokeProfiles", vi);
    char *t = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    round_trip(t, strlen(t), "hostile.iprof", 0, NULL, NULL);
    free(t);
}

static CU_TestInfo roundtrip_tests[] = {
    {"iprof_roundtrip__real_0_4_0_file_is_lossless", iprof_roundtrip__real_0_4_0_file_is_lossless},
    {"iprof_roundtrip__real_elide_file_is_lossless_in_lenient_mode",
     iprof_roundtrip__real_elide_file_is_lossless_in_lenient_mode},
    {"iprof_roundtrip__real_0_2_0_file_is_lossless_as_1_0_0", iprof_roundtrip__real_0_2_0_file_is_lossless_as_1_0_0},
    {"iprof_roundtrip__hostile_names_survive", iprof_roundtrip__hostile_names_survive},
    {"iprof_roundtrip__1000_generated_profiles_are_lossless", iprof_roundtrip__1000_generated_profiles_are_lossless},
    {"iprof_roundtrip__id_shuffled_copies_give_equal_models_and_identical_bytes",
     iprof_roundtrip__id_shuffled_copies_give_equal_models_and_identical_bytes},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_iprof_roundtrip[] = {{"iprof_roundtrip", NULL, NULL, NULL, NULL, roundtrip_tests},
                                                 CU_SUITE_INFO_NULL};
