/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_text.c -- the LLVM text plugin (.proftext). Oracles: files written by
 * llvm-profdata merge --text (14 and 19), and LLVM's documented grammar.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "testutil.h"

static int read_mem(const void *data, size_t len, const char *fmt, pb_profile **p, pb_error *err) {
    pb_source *s = NULL;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = fmt;
    pb_error_clear(err);
    *p = NULL;
    int rc = pb_source_open_memory(&s, data, len, "mem", err);
    if (rc == 0) rc = pb_read(p, s, &ro, err);
    pb_source_free(s);
    return rc;
}

static char *write_text(const pb_profile *p, const char *llvm, int no_keep, size_t *len, tu_diag *d) {
    pb_kv kv[2];
    size_t n = 0;
    if (no_keep) kv[n++] = (pb_kv){"no-keep-vtable-symbols", "1"};
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.llvm_release = llvm ? atoi(llvm) : 0;
    wo.kv = kv;
    wo.nkv = n;
    if (d) {
        wo.diag = tu_diag_fn;
        wo.diag_ctx = d;
    }
    int rc;
    return tu_write_memory(p, "text", &wo, len, &rc);
}

static const char *const real_text[] = {
    "llvm19/basic-fe", "llvm19/basic-ir", "llvm19/concat-ir", "llvm19/cs-merged", "llvm19/entry-ir",
    "llvm19/fentry-ir", "llvm19/many-ir", "llvm19/mcdc-fe", "llvm19/sbc-fe", "llvm19/simple-ir",
    "llvm19/static-ir", "llvm19/temporal-ir", "llvm19/vtable-ir", "llvm14/basic-fe", "llvm14/basic-ir",
    "llvm14/cs-merged", "llvm14/entry-ir", "llvm14/many-ir", "llvm14/simple-ir", "llvm14/static-ir", NULL};

static const char *real_path(const char *stem, const char *ext) {
    char rel[256];
    snprintf(rel, sizeof rel, "testdata/llvm-real/%s%s", stem, ext);
    return tu_shared(rel);
}

static void text_roundtrip__llvm_written_files_come_back_byte_for_byte(void) {
    TU_SKIP_IF(!tu_exists(real_path("llvm19/simple-ir", ".proftext")), "shared testdata/llvm-real absent");
    for (int i = 0; real_text[i]; i++) {
        const char *llvm = strncmp(real_text[i], "llvm14", 6) == 0 ? "14" : "19";
        size_t len, olen = 0;
        char *orig = tu_slurp(real_path(real_text[i], ".proftext"), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(orig);
        pb_profile *p = NULL;
        pb_error err;
        int rc = read_mem(orig, len, NULL, &p, &err); /* detection must pick "text" */
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_STRING_EQUAL(pb_profile_origin(p)->format, "text");
        char *out = write_text(p, llvm, 0, &olen, NULL);
        int same = out && olen == len && memcmp(out, orig, len) == 0;
        CU_ASSERT_TRUE(same);
        if (!same) fprintf(stderr, "\n  text round trip differs: %s\n", real_text[i]);
        free(out);
        pb_profile_free(p);
        free(orig);
    }
}

static void text_write__indexed_input_gives_llvm_profdata_text(void) {
    TU_SKIP_IF(!tu_exists(real_path("llvm19/simple-ir", ".proftext")), "shared testdata/llvm-real absent");
    for (int i = 0; real_text[i]; i++) {
        const char *llvm = strncmp(real_text[i], "llvm14", 6) == 0 ? "14" : "19";
        size_t len, ilen, olen = 0;
        char *want = tu_slurp(real_path(real_text[i], ".proftext"), &len);
        char *idx = tu_slurp(real_path(real_text[i], ".profdata"), &ilen);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        CU_ASSERT_PTR_NOT_NULL_FATAL(idx);
        pb_profile *p = NULL;
        pb_error err;
        CU_ASSERT_EQUAL_FATAL(read_mem(idx, ilen, NULL, &p, &err), 0);
        /* llvm-profdata merge --text names only function targets by default */
        char *out = write_text(p, llvm, 1, &olen, NULL);
        int same = out && olen == len && memcmp(out, want, len) == 0;
        CU_ASSERT_TRUE(same);
        if (!same) fprintf(stderr, "\n  indexed->text differs: %s\n", real_text[i]);
        free(out);
        pb_profile_free(p);
        free(want);
        free(idx);
    }
}

typedef struct bad_text {
    const char *text;
    int code, line, column;
    const char *path;
} bad_text;

static void text_read__errors_carry_line_and_column(void) {
    static const bad_text cases[] = {
        {"foo\n1\n0\n", PB_EFORMAT, 3, 1, "record.NumCounters"},
        {"foo\n1\n2\n5\n", PB_ETRUNC, 5, 1, "record.Counts"},
        {"invalid_count\n1\n1\n1later\n", PB_EFORMAT, 4, 1, "record.Counts"},
        {"foo\nbad\n1\n1\n", PB_EFORMAT, 2, 1, "record.FuncHash"},
        {":ir\n:what\nfoo\n", PB_EFORMAT, 2, 2, "header"},
        {"# c\n\nfoo\n1\n1\n7\n4\n", PB_EFORMAT, 7, 1, "record.NumValueKinds"},
        {"foo\n1\n1\n7\n1\n0\n1\n1\nbar+100\n", PB_EFORMAT, 9, 8, "record.value"},
        {"foo\n1\n1\n7\n1\n1\n1\n1\n100:x\n", PB_EFORMAT, 9, 5, "record.value"},
        {"foo\n1\n1\n7\n$2\n0x1\n0x100\n", PB_EFORMAT, 7, 1, "record.BitmapBytes"},
        {"foo\n1\n1\n7\n1\n3\n", PB_EFORMAT, 6, 1, "record.ValueKind"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_profile *p = NULL;
        pb_error err;
        int rc = read_mem(cases[i].text, strlen(cases[i].text), "text", &p, &err);
        CU_ASSERT_EQUAL(rc, cases[i].code);
        CU_ASSERT_EQUAL(err.line, cases[i].line);
        CU_ASSERT_EQUAL(err.column, cases[i].column);
        CU_ASSERT_STRING_EQUAL(err.path, cases[i].path);
        if (rc != cases[i].code || err.line != cases[i].line || err.column != cases[i].column) {
            char line[1024];
            pb_error_format(&err, line, sizeof line);
            fprintf(stderr, "\n  case %zu: %s\n", i, line);
        }
        CU_ASSERT_PTR_NULL(p);
        pb_profile_free(p);
    }
}

static void text_read__follows_llvm_grammar_quirks(void) {
    /* hash radix auto (0x, leading 0 = octal), names with ':' split at the
     * last ':', external symbol = 0, repeated (name, hash) merged, CRLF. */
    const char *t = ":IR\r\n# comment\r\nmain\r\n0x10\r\n1\r\n5\r\n1\r\n0\r\n1\r\n2\r\n"
                    "a:b:3\r\n** External Symbol **:2\r\n\r\ndup\r\n020\r\n1\r\n4\r\ndup\r\n16\r\n1\r\n5\r\n";
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_mem(t, strlen(t), "text", &p, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_flags(p), PB_VARIANT_IR);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(p), 2);
    size_t di;
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(p, "dup", 3, &di, 1), 1);
    CU_ASSERT_EQUAL(pb_profile_record(p, di)->hash, 16);      /* 020 is octal */
    CU_ASSERT_EQUAL(pb_profile_record(p, di)->counters[0], 9); /* 4 + 5 merged */
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(p, "main", 4, &di, 1), 1);
    const pb_record *r = pb_profile_record(p, di);
    CU_ASSERT_EQUAL(r->hash, 16);
    CU_ASSERT_EQUAL(r->counters[0], 5);
    CU_ASSERT_EQUAL_FATAL(r->num_sites[0], 1);
    CU_ASSERT_EQUAL_FATAL(r->sites[0][0].num_values, 2);
    CU_ASSERT_EQUAL(r->sites[0][0].values[0].value, pb_md5_ref("a:b", 3));
    CU_ASSERT_EQUAL(r->sites[0][0].values[0].count, 3);
    CU_ASSERT_EQUAL(r->sites[0][0].values[1].value, 0);
    /* "a:b" is no record: it is kept as a symbol so the name survives */
    uint32_t sym;
    CU_ASSERT_EQUAL(pb_profile_find_symbol(p, "a:b", 3, &sym), 0);
    pb_profile_free(p);
}

static void text_write__llvm14_leaves_out_kind2_sites_with_a_notice(void) {
    const char *t = ":ir\nf\n1\n1\n5\n1\n2\n1\n1\n_ZTV1A:5\n";
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_mem(t, strlen(t), "text", &p, &err), 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    size_t len;
    char *out = write_text(p, "14", 0, &len, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, "# IR level Instrumentation Flag\n:ir\nf\n# Func Hash:\n1\n# Num Counters:\n1\n"
                                "# Counter Values:\n5\n\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "kind 2"));
    free(out);
    out = write_text(p, "19", 0, &len, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "# ValueKind = IPVK_VTableTarget:\n2\n# NumValueSites:\n1\n1\n_ZTV1A:5\n"));
    free(out);
    pb_profile_free(p);
}

static void text_probe__claims_text_profiles_but_never_json(void) {
    const pb_format *f = pb_format_lookup("text");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const char *ir = "# IR level Instrumentation Flag\n:ir\nmain\n";
    const char *fe = "foo\n# Func Hash:\n10\n";
    const char *bare = "foo\n10\n2\n1\n2\n";
    const char *json = "{\n  \"types\": [],\n  \"methods\": []\n}\n";
    const char *words = "hello world\nthis is text\n";
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)ir, strlen(ir)), 2);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)fe, strlen(fe)), 2);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)bare, strlen(bare)), 1);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)json, strlen(json)), 0);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)words, strlen(words)), 0);
    CU_ASSERT_PTR_EQUAL(pb_format_for_path("a.proftext"), f);
}

/* A 4 KiB head of nothing but '#' lines (LLVM's test inputs open so) is
 * text, bid low: below every binary magic, and JSON/iprof stay theirs. */
static void text_probe__comment_blocks_of_any_length(void) {
    const pb_format *f = pb_format_lookup("text");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char head[4096];
    size_t n = 0;
    while (n + 40 < sizeof head) n += (size_t)snprintf(head + n, sizeof head - n, "# line %zu of a long comment\n", n);
    memcpy(head + n, "# cut mid-line by the end of the head", sizeof head - n);
    int bid = f->probe((const uint8_t *)head, sizeof head);
    CU_ASSERT_EQUAL(bid, 1);
    /* the first record or header right after a long comment */
    static char rec[4096];
    memcpy(rec, head, 3000);
    size_t k = 3000;
    while (rec[k - 1] != '\n') k--;
    memcpy(rec + k, ":ir\nfoo\n", 8);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)rec, k + 8), 2);
    memcpy(rec + k, "foo\n10\n1\n5\n", 12);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)rec, k + 12), 1);
    memcpy(rec + k, "foo\nbar\n", 8);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)rec, k + 8), 0);
    /* lower than the binary formats' and the JSON formats' bids */
    const uint8_t raw[16] = {0x81, 'r', 'f', 'o', 'r', 'p', 'l', 0xff, 8};
    CU_ASSERT(pb_format_lookup("raw")->probe(raw, sizeof raw) > bid);
    const char *iprof = "{\"types\":[],\"methods\":[]}";
    CU_ASSERT(pb_format_lookup("iprof")->probe((const uint8_t *)iprof, strlen(iprof)) > bid);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)iprof, strlen(iprof)), 0);
    /* " #" is no comment (LLVM reads it as a name); blank lines alone are an
     * empty profile, as a comment block is (llvm-profdata-13..24 merge and
     * show of "\n" exit 0 with no function), but a head of nothing is none */
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)" # x\nfoo\n", 10), 0);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)"\n\n", 2), 1);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)"", 0), 0);
    CU_ASSERT_EQUAL(f->probe((const uint8_t *)"abcdefgh", 8), 0); /* a line cut by the head's end */
}


/* Every .proftext of llvm-profparser: where llvm-profdata-19 merge --text
 * accepts it we must write the same bytes; where it rejects it we must too. */
static void walk(const char *dir, int *same, int *differ, int *both_fail, int *we_fail, int *they_fail) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[1024];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t nl = strlen(e->d_name);
        if (nl < 9 || strcmp(e->d_name + nl - 9, ".proftext") != 0) {
            walk(path, same, differ, both_fail, we_fail, they_fail);
            continue;
        }
        char tmp[64], cmd[2048];
        snprintf(tmp, sizeof tmp, "/tmp/pb_text_pp_%d.txt", (int)getpid());
        snprintf(cmd, sizeof cmd, "llvm-profdata-19 merge --text '%s' -o %s 2>/dev/null", path, tmp);
        int llvm_ok = system(cmd) == 0;
        size_t len, wlen = 0, olen = 0;
        char *in = tu_slurp(path, &len);
        pb_profile *p = NULL;
        pb_error err;
        int rc = in ? read_mem(in, len, "text", &p, &err) : PB_EIO;
        char *out = rc == 0 ? write_text(p, "19", 1, &olen, NULL) : NULL;
        char *want = llvm_ok ? tu_slurp(tmp, &wlen) : NULL;
        if (llvm_ok && out && want && olen == wlen && memcmp(out, want, wlen) == 0) (*same)++;
        else if (llvm_ok && out) { (*differ)++; fprintf(stderr, "\n  differs: %s\n", path); }
        else if (llvm_ok) { (*we_fail)++; fprintf(stderr, "\n  we reject, LLVM accepts: %s\n", path); }
        else if (rc == 0) { (*they_fail)++; fprintf(stderr, "\n  we accept, LLVM rejects: %s\n", path); }
        else (*both_fail)++;
        unlink(tmp);
        free(in);
        free(out);
        free(want);
        pb_profile_free(p);
    }
    closedir(d);
}

static void text_read__profparser_files_agree_with_llvm_profdata_19(void) {
    const char *dir = tu_shared("testdata/llvm-profparser/tests/data/profdata");
    TU_SKIP_IF(!tu_exists(dir), "shared testdata/llvm-profparser absent");
    TU_SKIP_IF(access("/usr/bin/llvm-profdata-19", X_OK) != 0, "llvm-profdata-19 not installed");
    int same = 0, differ = 0, both_fail = 0, we_fail = 0, they_fail = 0;
    char d[1024];
    snprintf(d, sizeof d, "%s", dir);
    walk(d, &same, &differ, &both_fail, &we_fail, &they_fail);
    fprintf(stderr, "\n  profparser .proftext: %d identical, %d rejected by both, %d differ, %d only we reject, "
                    "%d only LLVM rejects\n", same, both_fail, differ, we_fail, they_fail);
    CU_ASSERT(same > 250);
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(we_fail, 0);
    CU_ASSERT_EQUAL(they_fail, 0);
}

/* Replays the fuzz seed corpora (tests/fuzz/{indexed,text}) through both
 * readers and writers: whatever the bytes, a clean result, never a crash. */
static void text_fuzz_corpus__replays_cleanly(void) {
    static const char *const dirs[] = {"tests/fuzz/text", "tests/fuzz/indexed"};
    int files = 0;
    for (int d = 0; d < 2; d++) {
        DIR *dir = opendir(tu_src(dirs[d]));
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.') continue;
            char rel[512];
            snprintf(rel, sizeof rel, "%s/%s", dirs[d], e->d_name);
            size_t len;
            char *data = tu_slurp(tu_src(rel), &len);
            if (!data) continue;
            files++;
            const char *fmts[] = {"text", "indexed", NULL};
            for (int f = 0; f < 3; f++) {
                pb_profile *p = NULL;
                pb_error err;
                if (read_mem(data, len, fmts[f], &p, &err) == 0) {
                    size_t olen;
                    free(write_text(p, "19", 0, &olen, NULL));
                    free(write_text(p, "14", 1, &olen, NULL));
                } else {
                    CU_ASSERT(err.code != 0);
                }
                pb_profile_free(p);
            }
            free(data);
        }
        closedir(dir);
    }
    CU_ASSERT(files >= 14);
}

static CU_TestInfo text_tests[] = {
    {"text_roundtrip__llvm_written_files_come_back_byte_for_byte",
     text_roundtrip__llvm_written_files_come_back_byte_for_byte},
    {"text_write__indexed_input_gives_llvm_profdata_text", text_write__indexed_input_gives_llvm_profdata_text},
    {"text_read__errors_carry_line_and_column", text_read__errors_carry_line_and_column},
    {"text_read__follows_llvm_grammar_quirks", text_read__follows_llvm_grammar_quirks},
    {"text_write__llvm14_leaves_out_kind2_sites_with_a_notice", text_write__llvm14_leaves_out_kind2_sites_with_a_notice},
    {"text_probe__claims_text_profiles_but_never_json", text_probe__claims_text_profiles_but_never_json},
    {"text_probe__comment_blocks_of_any_length", text_probe__comment_blocks_of_any_length},
    {"text_read__profparser_files_agree_with_llvm_profdata_19", text_read__profparser_files_agree_with_llvm_profdata_19},
    {"text_fuzz_corpus__replays_cleanly", text_fuzz_corpus__replays_cleanly},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_text[] = {{"text", NULL, NULL, NULL, NULL, text_tests}, CU_SUITE_INFO_NULL};
