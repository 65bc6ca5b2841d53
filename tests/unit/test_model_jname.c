/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_model_jname.c -- Java record names: parse(render(x)) == x for
 * hostile and seeded-random content, hand-checked parses, strict rejection. */
#include <stdlib.h>
#include <string.h>

#include "model/jname.h"
#include "testutil.h"

static pb_profile *new_profile(void) {
    pb_profile *p = NULL;
    CU_ASSERT_FATAL(pb_profile_new(&p, NULL) == 0);
    return p;
}

static const char *str_of(pb_profile *p, pb_str s) { return pb_profile_str(p, s, NULL); }

static const char *sym_name(pb_profile *p, uint32_t s) {
    return str_of(p, pb_profile_symbol(p, s)->name);
}

static void parse__reads_the_branch_example_back_into_content(void) {
    pb_profile *p = new_profile();
    const char *n = "jbranch:Fib.fibonacci()void:11|20/0,53/1";
    pb_record r;
    memset(&r, 0, sizeof r);
    CU_ASSERT_FATAL(pbi_jname_parse(p, n, strlen(n), &r, NULL) == 0);
    CU_ASSERT_EQUAL(r.kind, PB_REC_JAVA_BRANCH);
    CU_ASSERT_EQUAL(r.name, PB_NONE);
    size_t nf, nl;
    const pb_frame *f = pb_profile_context(p, r.ctx, &nf);
    CU_ASSERT_FATAL(f != NULL && nf == 1);
    CU_ASSERT_EQUAL(f[0].bci, 11);
    const pb_method *m = pb_profile_method(p, f[0].method);
    CU_ASSERT_STRING_EQUAL(str_of(p, m->name), "fibonacci");
    CU_ASSERT_FATAL(m->num_sig == 2);
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[0]), "Fib");
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[1]), "void");
    const int32_t *l = pb_profile_ints(p, r.layout, &nl);
    CU_ASSERT_FATAL(nl == 4);
    CU_ASSERT(l[0] == 20 && l[1] == 0 && l[2] == 53 && l[3] == 1);
    pb_profile_free(p);
}

static void parse__reads_the_inlined_call_example_back_into_content(void) {
    pb_profile *p = new_profile();
    const char *n = "jcall:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34";
    pb_record r;
    memset(&r, 0, sizeof r);
    CU_ASSERT_FATAL(pbi_jname_parse(p, n, strlen(n), &r, NULL) == 0);
    CU_ASSERT_EQUAL(r.kind, PB_REC_JAVA_CALL_COUNT);
    CU_ASSERT_EQUAL(r.layout, PB_NONE);
    size_t nf;
    const pb_frame *f = pb_profile_context(p, r.ctx, &nf);
    CU_ASSERT_FATAL(nf == 2);
    const pb_method *m = pb_profile_method(p, f[0].method);
    CU_ASSERT_STRING_EQUAL(str_of(p, m->name), "print");
    CU_ASSERT_FATAL(m->num_sig == 3);
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[0]), "java.io.PrintStream");
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[1]), "void");
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[2]), "java.lang.String");
    CU_ASSERT_EQUAL(f[0].bci, 0);
    CU_ASSERT_STRING_EQUAL(str_of(p, pb_profile_method(p, f[1].method)->name), "fibonacci");
    CU_ASSERT_EQUAL(f[1].bci, 34);
    /* jmonitor: and placeholders, short signatures */
    CU_ASSERT_FATAL(pbi_jname_parse(p, "jmonitor:", 9, &r, NULL) == 0);
    CU_ASSERT(r.kind == PB_REC_JAVA_MONITOR && r.ctx == PB_NONE && r.layout == PB_NONE);
    n = "jsample:%#-4:7<%-.m()%-:1<%#9.%_(%#2)%_:-3";
    CU_ASSERT_FATAL(pbi_jname_parse(p, n, strlen(n), &r, NULL) == 0);
    f = pb_profile_context(p, r.ctx, &nf);
    CU_ASSERT_FATAL(nf == 3);
    m = pb_profile_method(p, f[0].method);
    CU_ASSERT(m->placeholder == 1 && m->placeholder_id == -4 && f[0].bci == 7);
    m = pb_profile_method(p, f[1].method);
    CU_ASSERT(m->placeholder == 0 && m->num_sig == 0);
    m = pb_profile_method(p, f[2].method);
    CU_ASSERT_FATAL(m->num_sig == 3);
    CU_ASSERT_STRING_EQUAL(str_of(p, m->name), "");
    CU_ASSERT(pb_profile_symbol(p, m->sig[0])->placeholder_id == 9);
    CU_ASSERT_STRING_EQUAL(sym_name(p, m->sig[1]), "");
    CU_ASSERT(pb_profile_symbol(p, m->sig[2])->placeholder == 1);
    CU_ASSERT_EQUAL(f[2].bci, -3);
    pb_profile_free(p);
}

/* Renders record r of p, parses the name in p (must give the same key) and
 * in a fresh profile (must render to the same name). */
static int roundtrip(pb_profile *p, const pb_record *r) {
    pb_buf b = PB_BUF_INIT, b2 = PB_BUF_INIT;
    int ok = 0;
    pb_profile *q = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pbi_jname_render(p, r, &b)) goto out;
    size_t syms = pb_profile_symbol_count(p), meths = pb_profile_method_count(p);
    pb_record back;
    memset(&back, 0, sizeof back);
    if (pbi_jname_parse(p, b.data, b.len, &back, &err)) {
        char line[1024];
        pb_error_format(&err, line, sizeof line);
        fprintf(stderr, "\n  parse failed: %s\n  name: %s\n", line, b.data);
        goto out;
    }
    if (back.kind != r->kind || back.ctx != r->ctx || back.layout != r->layout) {
        fprintf(stderr, "\n  key differs after parse: %s\n", b.data);
        goto out;
    }
    /* parsing content that exists creates nothing */
    if (pb_profile_symbol_count(p) != syms || pb_profile_method_count(p) != meths) goto out;
    if (pb_profile_new(&q, NULL)) goto out;
    if (pbi_jname_parse(q, b.data, b.len, &back, NULL)) goto out;
    if (pbi_jname_render(q, &back, &b2)) goto out;
    ok = b.len == b2.len && memcmp(b.data, b2.data, b.len) == 0;
    if (!ok) fprintf(stderr, "\n  re-render differs:\n  %s\n  %s\n", b.data, b2.data);
out:
    pb_profile_free(q);
    pbu_buf_free(&b);
    pbu_buf_free(&b2);
    return ok;
}

static const char *const hostile[] = {
    "<init>", "<clinit>", "lambda$main$0", "Foo$$Lambda/0x0000000800c0b000",
    "java.lang.invoke.LambdaForm$DMH/s21ef14da", "[Ljava.lang.String;", "Gr\xc3\xbc\xc3\x9f\x65" /* Grüße */,
    "\xe5\x90\x8d\xe5\x89\x8d", "#comment", "12345", "0", "%", "(", ")", ",", ":", "<", "|", "/",
    ".", "..", "a.b.c", "%41", "%_", "%-", "%#1", "%#-1", "a b", " ", "", "\t\n\r", "\x7f\x80\xff",
    "a<b>c", "x|y", "1/2", "-5", "%%", "a(b)c", "a,b", "a:b", ">", "<>", "<<", "...:..."};
#define NUM_HOSTILE (sizeof hostile / sizeof hostile[0])

static void roundtrip__survives_hostile_names_in_every_position(void) {
    pb_profile *p = new_profile();
    uint64_t one = 1;
    size_t cases = 0;
    for (size_t i = 0; i < NUM_HOSTILE; i++) {
        const char *h = hostile[i];
        const char *o = hostile[(i + 7) % NUM_HOSTILE];
        uint32_t sh, so, ph, m1, m2, m3, c;
        CU_ASSERT_FATAL(pb_profile_add_symbol(p, h, strlen(h), &sh, NULL) == 0);
        CU_ASSERT_FATAL(pb_profile_add_symbol(p, o, strlen(o), &so, NULL) == 0);
        CU_ASSERT_FATAL(pb_profile_add_placeholder_symbol(p, (int64_t)i - 20, &ph, NULL) == 0);
        uint32_t sig[5] = {sh, so, sh, ph, so};
        CU_ASSERT_FATAL(pb_profile_add_method(p, o, strlen(o), sig, 5, &m1, NULL) == 0);
        CU_ASSERT_FATAL(pb_profile_add_method(p, h, strlen(h), sig, i % 3, &m2, NULL) == 0);
        CU_ASSERT_FATAL(pb_profile_add_method(p, h, strlen(h), sig + 1, 2, &m3, NULL) == 0);
        pb_frame f[3] = {{m1, (int32_t)i}, {m2, -(int32_t)i}, {m3, INT32_MIN}};
        CU_ASSERT_FATAL(pb_profile_intern_context(p, f, 3, &c, NULL) == 0);
        for (int kind = 1; kind < PB_REC_KIND_COUNT; kind++) {
            pb_record r;
            memset(&r, 0, sizeof r);
            r.kind = (uint8_t)kind;
            r.name = PB_NONE;
            r.ctx = kind == PB_REC_JAVA_MONITOR ? PB_NONE : c;
            r.layout = PB_NONE;
            r.counters = &one;
            r.num_counters = 1;
            if (kind == PB_REC_JAVA_BRANCH) {
                int32_t lay[4] = {(int32_t)i, -1, INT32_MAX, INT32_MIN};
                CU_ASSERT_FATAL(pb_profile_intern_ints(p, lay, i % 2 ? 4 : 0, &r.layout, NULL) == 0);
            }
            CU_ASSERT(roundtrip(p, &r));
            cases++;
        }
    }
    CU_ASSERT(cases >= 6 * NUM_HOSTILE);
    pb_profile_free(p);
}

static uint64_t rng(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random bytes, biased towards the grammar's delimiters and escapes. */
static size_t random_name(uint64_t *s, char *buf, size_t cap) {
    static const char special[] = "%()<>,:.|/#_-0123456789 \t";
    size_t n = rng(s) % 10;
    if (n > cap) n = cap;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rng(s) % 4;
        if (r == 0)
            buf[i] = special[rng(s) % (sizeof special - 1)];
        else if (r == 1)
            buf[i] = (char)(rng(s) % 256);
        else
            buf[i] = (char)('a' + rng(s) % 26);
    }
    return n;
}

static void roundtrip__survives_1500_seeded_random_records(void) {
    pb_profile *p = new_profile();
    uint64_t seed = UINT64_C(0x2545F4914F6CDD1D);
    uint64_t one = 1;
    int ok = 0, total = 1500;
    for (int t = 0; t < total; t++) {
        char buf[16];
        uint32_t syms[6];
        for (int k = 0; k < 6; k++) {
            if (rng(&seed) % 5 == 0) {
                CU_ASSERT_FATAL(pb_profile_add_placeholder_symbol(p, (int64_t)(rng(&seed) % 2000) - 1000,
                                                                  &syms[k], NULL) == 0);
            } else {
                size_t n = random_name(&seed, buf, sizeof buf);
                CU_ASSERT_FATAL(pb_profile_add_symbol(p, buf, n, &syms[k], NULL) == 0);
            }
        }
        size_t nf = 1 + rng(&seed) % 4;
        pb_frame f[4];
        for (size_t k = 0; k < nf; k++) {
            uint32_t m;
            if (rng(&seed) % 7 == 0) {
                CU_ASSERT_FATAL(pb_profile_add_placeholder_method(p, (int64_t)rng(&seed), &m, NULL) == 0);
            } else {
                size_t n = random_name(&seed, buf, sizeof buf);
                CU_ASSERT_FATAL(pb_profile_add_method(p, buf, n, syms, rng(&seed) % 7, &m, NULL) == 0);
            }
            uint64_t b = rng(&seed);
            f[k] = (pb_frame){m, b % 3 == 0 ? (int32_t)(uint32_t)b : (int32_t)(b % 200) - 100};
        }
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = (uint8_t)(1 + rng(&seed) % 6);
        r.name = PB_NONE;
        r.layout = PB_NONE;
        r.counters = &one;
        r.num_counters = 1;
        r.ctx = PB_NONE;
        if (r.kind != PB_REC_JAVA_MONITOR)
            CU_ASSERT_FATAL(pb_profile_intern_context(p, f, nf, &r.ctx, NULL) == 0);
        if (r.kind == PB_REC_JAVA_BRANCH) {
            int32_t lay[8];
            size_t nl = 2 * (rng(&seed) % 5);
            for (size_t k = 0; k < nl; k++) lay[k] = (int32_t)(uint32_t)rng(&seed);
            CU_ASSERT_FATAL(pb_profile_intern_ints(p, lay, nl, &r.layout, NULL) == 0);
        }
        ok += roundtrip(p, &r);
    }
    CU_ASSERT_EQUAL(ok, total);
    pb_profile_free(p);
}

static void parse__rejects_every_other_spelling_and_adds_nothing(void) {
    static const char *const bad[] = {
        "foo", "jcall", "jcallx:A.f()V:1", "jcall:", "jcall:A.f()V", "jcall:A.f()V:",
        "jcall:A.f()V:01", "jcall:A.f()V:-0", "jcall:A.f()V:+1", "jcall:A.f()V:1<",
        "jcall:A.f()V:1x", "jcall:A.f()V:2147483648", "jcall:A.f()V:-2147483649",
        "jbranch:A.f()V:1", "jbranch:A.f()V:1|2", "jbranch:A.f()V:1|2/", "jbranch:A.f()V:1|2/0,",
        "jbranch:A.f()V:1|/0", "jbranch:A.f()V:1|2/0|", "jcall:A.f()V:1|2/0", "jmonitor:x",
        "jmonitor:A.f()V:1", "jcall:A.f(%-)V:1", "jcall:%-.f()V:1", "jcall:%-.f(B)%-:1",
        "jcall:A.f(B)%-:1", "jcall:a%2fb.f()V:1", "jcall:a%41.f()V:1", "jcall:a b.f()V:1",
        "jcall:Af()V:1", "jcall:A.()V:1", "jcall:.f()V:1", "jcall:A.f(,B)V:1", "jcall:A.f(B,)V:1",
        "jcall:A.f()V:1:2", "jcall:A.f(()V:1", "jcall:A.f())V:1",
        "jcall:A.f()V(:1", "jcall:A.f%_x()V:1", "jcall:A.%-()V:1", "jcall:A.%#1()V:1",
        "jcall:%#:1", "jcall:%#-:1", "jcall:%#01:1", "jcall:%#1.f()%#x:1", "jcall:A.f()%:1",
        "jcall:A.f()%4:1", "jcall:A.f()V:1\xff", "jcall:A\x80.f()V:1",
        "jsample:A.f()V:1|", "jcall:A.f.()V:1"};
    pb_profile *p = new_profile();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pb_record r;
        memset(&r, 0, sizeof r);
        pb_error err;
        pb_error_clear(&err);
        int rc = pbi_jname_parse(p, bad[i], strlen(bad[i]), &r, &err);
        if (rc != PB_EFORMAT) fprintf(stderr, "\n  accepted: %s\n", bad[i]);
        CU_ASSERT_EQUAL(rc, PB_EFORMAT);
        CU_ASSERT(err.message[0] != '\0');
    }
    CU_ASSERT_EQUAL(pb_profile_symbol_count(p), 0);
    CU_ASSERT_EQUAL(pb_profile_method_count(p), 0);
    /* the escaped forms of the same content are accepted */
    static const char *const good[] = {"jcall:A.f%2E()V:1", "jcall:a%2Fb.f()V:1",
                                       "jcall:%2541.f()V:1", "jcall:A.f()V%3A:1<B.g()W:-2147483648"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        pb_record r;
        memset(&r, 0, sizeof r);
        int rc = pbi_jname_parse(p, good[i], strlen(good[i]), &r, NULL);
        /* %2F ('/') needs no escape, so that one must be refused */
        CU_ASSERT_EQUAL(rc, i == 1 ? PB_EFORMAT : 0);
    }
    pb_profile_free(p);
}

/* A random Java record name: one of tags, then kmin + (0..kspan-1) of pieces,
 * as many as fit in buf (cap bytes); returns its length (no NUL). */
static size_t random_record_name(char *buf, size_t cap, uint64_t *seed, const char *const *tags, size_t ntags,
                          const char *const *pieces, size_t npieces, size_t kmin, size_t kspan) {
    const char *tag = tags[rng(seed) % ntags];
    size_t n = strlen(tag);
    memcpy(buf, tag, n);
    size_t k = kmin + rng(seed) % kspan;
    for (size_t i = 0; i < k; i++) {
        const char *piece = pieces[rng(seed) % npieces];
        size_t l = strlen(piece);
        if (n + l >= cap) break;
        memcpy(buf + n, piece, l);
        n += l;
    }
    return n;
}

/* render(parse(n)) == n for every name the parser accepts: random strings
 * from the grammar's alphabet, accepted or refused, never crash. */
static void parse__accepts_only_names_that_render_back_identically(void) {
    static const char *const tags[] = {"jcall:", "jbranch:", "jvcall:", "jinstanceof:", "jmonitor:", "jsample:"};
    static const char *const pieces[] = {"A", "b", ".", "(", ")", ",", ":", "<", "|", "/", "%", "%_", "%-",
                                         "%#", "%#1", "%2E", "%25", "%41", "%3a", "0", "1", "-", "-1", "12",
                                         "void", " ", "\xc3\xbc", "A.f()V:1", "%-.f()%-:0", "20/0", ",53/1"};
    pb_profile *p = new_profile();
    uint64_t seed = 12345;
    int accepted = 0;
    for (int t = 0; t < 20000; t++) {
        char buf[256];
        size_t n = random_record_name(buf, sizeof buf, &seed, tags, 6, pieces, sizeof pieces / sizeof pieces[0], 0, 12);
        pb_record r;
        memset(&r, 0, sizeof r);
        int rc = pbi_jname_parse(p, buf, n, &r, NULL);
        CU_ASSERT(rc == 0 || rc == PB_EFORMAT);
        if (rc) continue;
        accepted++;
        pb_buf out = PB_BUF_INIT;
        CU_ASSERT_FATAL(pbi_jname_render(p, &r, &out) == 0);
        int same = out.len == n && memcmp(out.data, buf, n) == 0;
        if (!same) fprintf(stderr, "\n  %.*s\n  rendered as %s\n", (int)n, buf, out.data);
        CU_ASSERT(same);
        pbu_buf_free(&out);
    }
    CU_ASSERT(accepted > 100); /* the generator does produce valid names */
    pb_profile_free(p);
}

/* The frame cache changes nothing: the same random names (accepted or not)
 * parse to the same result with and without it, and a cached method text
 * followed by a bad BCI or a bad tail is still refused. */
static void parse_cached__gives_what_the_uncached_parse_gives(void) {
    static const char *const pieces[] = {"A.f()V:1", "A.f()V:", "A.f()V:x", "<", "<", "|", "%-.f()%-:0",
                                         "b.g(A,%#3)void:-2", "b.g(A)void:7", "20/0", ":", ")", "("};
    static const char *const tags[] = {"jcall:", "jbranch:", "jsample:"};
    pb_profile *p1 = new_profile(), *p2 = new_profile();
    pbi_jname_cache c;
    pbi_jname_cache_init(&c);
    uint64_t seed = 777;
    int accepted = 0;
    for (int t = 0; t < 5000; t++) {
        char buf[256];
        size_t n = random_record_name(buf, sizeof buf, &seed, tags, 3, pieces, sizeof pieces / sizeof pieces[0], 1, 6);
        pb_record r1, r2;
        memset(&r1, 0, sizeof r1);
        memset(&r2, 0, sizeof r2);
        int rc1 = pbi_jname_parse(p1, buf, n, &r1, NULL);
        int rc2 = pbi_jname_parse_cached(p2, &c, buf, n, &r2, NULL);
        CU_ASSERT_EQUAL(rc1, rc2);
        if (rc1 || rc2) continue;
        accepted++;
        pb_buf o1 = PB_BUF_INIT, o2 = PB_BUF_INIT;
        CU_ASSERT_FATAL(pbi_jname_render(p1, &r1, &o1) == 0 && pbi_jname_render(p2, &r2, &o2) == 0);
        CU_ASSERT(o1.len == n && o2.len == n && memcmp(o1.data, buf, n) == 0 && memcmp(o2.data, buf, n) == 0);
        pbu_buf_free(&o1);
        pbu_buf_free(&o2);
    }
    CU_ASSERT(accepted > 100);
    CU_ASSERT(c.count >= 3); /* the cache was used */
    pb_record r;
    CU_ASSERT(pbi_jname_parse_cached(p2, &c, "jcall:A.f()V:x", 14, &r, NULL) == PB_EFORMAT);
    CU_ASSERT(pbi_jname_parse_cached(p2, &c, "jcall:A.f()V:1:", 15, &r, NULL) == PB_EFORMAT);
    CU_ASSERT(pbi_jname_parse_cached(p2, &c, "jcall:A.f()V:", 13, &r, NULL) == PB_EFORMAT);
    pbi_jname_cache_free(&c);
    pb_profile_free(p1);
    pb_profile_free(p2);
}

static void kind__recognises_only_complete_tags(void) {
    CU_ASSERT_EQUAL(pbi_jname_kind("jcall:x", 7), PB_REC_JAVA_CALL_COUNT);
    CU_ASSERT_EQUAL(pbi_jname_kind("jbranch:", 8), PB_REC_JAVA_BRANCH);
    CU_ASSERT_EQUAL(pbi_jname_kind("jvcall:", 7), PB_REC_JAVA_VIRTUAL_INVOKE);
    CU_ASSERT_EQUAL(pbi_jname_kind("jinstanceof:", 12), PB_REC_JAVA_INSTANCEOF);
    CU_ASSERT_EQUAL(pbi_jname_kind("jmonitor:", 9), PB_REC_JAVA_MONITOR);
    CU_ASSERT_EQUAL(pbi_jname_kind("jsample:", 8), PB_REC_JAVA_SAMPLE);
    CU_ASSERT_EQUAL(pbi_jname_kind("jcall", 5), -1);
    CU_ASSERT_EQUAL(pbi_jname_kind("main", 4), -1);
    CU_ASSERT_EQUAL(pbi_jname_hash("jmonitor:", 9), pb_md5_ref("jmonitor:", 9) & UINT64_C(0x0FFFFFFFFFFFFFFF));
}

static CU_TestInfo tests[] = {
    {"parse__reads_the_branch_example_back_into_content", parse__reads_the_branch_example_back_into_content},
    {"parse__reads_the_inlined_call_example_back_into_content",
     parse__reads_the_inlined_call_example_back_into_content},
    {"roundtrip__survives_hostile_names_in_every_position", roundtrip__survives_hostile_names_in_every_position},
    {"roundtrip__survives_1500_seeded_random_records", roundtrip__survives_1500_seeded_random_records},
    {"parse__rejects_every_other_spelling_and_adds_nothing", parse__rejects_every_other_spelling_and_adds_nothing},
    {"parse__accepts_only_names_that_render_back_identically",
     parse__accepts_only_names_that_render_back_identically},
    {"parse_cached__gives_what_the_uncached_parse_gives", parse_cached__gives_what_the_uncached_parse_gives},
    {"kind__recognises_only_complete_tags", kind__recognises_only_complete_tags},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_model_jname[] = {{"model_jname", NULL, NULL, NULL, NULL, tests},
                                             CU_SUITE_INFO_NULL};
