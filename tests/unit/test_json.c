/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_json.c -- the JSON view of the model: lossless round trip of every
 * model feature, the documented encodings (hand-written expectations), and
 * positioned errors.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/json_text.h"

static const pb_format *fmt(void) { return pb_format_lookup("json"); }

/* A model with every feature the JSON form must carry. */
static pb_profile *build_rich(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR | PB_VARIANT_TEMPORAL);
    pb_origin o;
    memset(&o, 0, sizeof o);
    strcpy(o.format, "raw");
    o.version = 10;
    o.pointer_width = 8;
    o.byte_order = PB_ORDER_BE;
    pb_profile_set_origin(p, &o);
    CU_ASSERT_EQUAL(pb_profile_set_prop(p, "iprof.version", "1.1.0", 5, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_set_prop(p, "bin", "\xff\x00\x01", 3, &err), 0);
    const uint8_t id[4] = {0xde, 0xad, 0xbe, 0xef};
    CU_ASSERT_EQUAL(pb_profile_add_binary_id(p, id, 4, &err), 0);
    uint64_t refs[2] = {pb_md5_ref("main", 4), pb_md5_ref("foo", 3)};
    CU_ASSERT_EQUAL(pb_profile_add_trace(p, 3, refs, 2, &err), 0);
    pb_profile_set_trace_stream_size(p, 1);

    uint32_t tv, tfib, tstr, tobj, tph;
    CU_ASSERT_EQUAL(pb_profile_add_symbol(p, "void", 4, &tv, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_add_symbol(p, "Fib", 3, &tfib, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_add_symbol(p, "java.lang.String", 16, &tstr, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_add_symbol(p, "Gr\xc3\xbc\xc3\x9f" "e", 7, &tobj, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_add_placeholder_symbol(p, -1, &tph, &err), 0);
    uint32_t sig[3] = {tfib, tv, tstr}, m1, m2;
    CU_ASSERT_EQUAL(pb_profile_add_method(p, "<init>", 6, sig, 3, &m1, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_add_placeholder_method(p, 1666, &m2, &err), 0);

    /* An LLVM function with a non-UTF-8 name, a huge count, bitmap and all value kinds. */
    uint64_t c1[3] = {UINT64_MAX - 2, 0, 42};
    uint8_t bm[2] = {0x13, 0x00};
    pb_value icv[2] = {{pb_md5_ref("foo", 3), 7, PB_NONE}, {0, 1, PB_NONE}};
    pb_value memv[1] = {{513, 9, PB_NONE}};
    pb_value vtv[1] = {{pb_profile_symbol(p, tstr)->md5, 5, tstr}};
    pb_site ics[2] = {{2, icv}, {0, NULL}}, mems[1] = {{1, memv}}, vts[1] = {{1, vtv}};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    CU_ASSERT_EQUAL(pb_profile_intern(p, "f\xff\x01n", 4, &r.name, &err), 0);
    r.hash = UINT64_C(0x1234567890abcdef);
    r.num_counters = 3;
    r.counters = c1;
    r.num_bitmap_bytes = 2;
    r.bitmap = bm;
    r.num_sites[0] = 2;
    r.sites[0] = ics;
    r.num_sites[1] = 1;
    r.sites[1] = mems;
    r.num_sites[2] = 1;
    r.sites[2] = vts;
    CU_ASSERT_EQUAL(pb_profile_add_record(p, &r, NULL, &err), 0);

    uint64_t c2[1] = {1};
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    CU_ASSERT_EQUAL(pb_profile_intern(p, "foo", 3, &r.name, &err), 0);
    r.hash = 1;
    r.num_counters = 1;
    r.counters = c2;
    CU_ASSERT_EQUAL(pb_profile_add_record(p, &r, NULL, &err), 0);

    /* Java records: a branch with a placeholder frame and a negative bci. */
    pb_frame fr[2] = {{m1, -5}, {m2, 3}};
    int32_t lay[4] = {20, 0, -5, 0};
    uint64_t c3[3] = {11, 10, 1};
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_JAVA_BRANCH;
    r.name = PB_NONE;
    CU_ASSERT_EQUAL(pb_profile_intern_context(p, fr, 2, &r.ctx, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_intern_ints(p, lay, 4, &r.layout, &err), 0);
    r.num_counters = 3;
    r.counters = c3;
    CU_ASSERT_EQUAL(pb_profile_add_record(p, &r, NULL, &err), 0);

    pb_value mv[2] = {{pb_profile_symbol(p, tobj)->md5, 0, tobj}, {pb_profile_symbol(p, tph)->md5, 4, tph}};
    pb_site ms[1] = {{2, mv}};
    uint64_t c4[1] = {4};
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_JAVA_MONITOR;
    r.name = r.ctx = r.layout = PB_NONE;
    r.num_counters = 1;
    r.counters = c4;
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = ms;
    CU_ASSERT_EQUAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    CU_ASSERT_EQUAL(err.code, 0);
    return p;
}

static char *write_json(const pb_profile *p, size_t *n) {
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    CU_ASSERT_EQUAL(pb_write(p, s, fmt(), &wo, &err), 0);
    size_t len;
    const uint8_t *d = pb_sink_memory(s, &len);
    char *c = malloc(len + 1);
    memcpy(c, d, len);
    c[len] = 0;
    *n = len;
    pb_sink_free(s);
    return c;
}

static int read_json(const char *text, size_t n, pb_profile **out, pb_error *err) {
    pb_source *src = NULL;
    pb_error_clear(err);
    int rc = pb_source_open_memory(&src, text, n, "t.json", err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    if (rc == 0) rc = pb_read(out, src, &ro, err);
    pb_source_free(src);
    return rc;
}

static void json__round_trip_keeps_every_model_feature(void) {
    pb_profile *p = build_rich();
    size_t n;
    char *text = write_json(p, &n);
    pb_profile *q = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_json(text, n, &q, &err), 0);
    char why[512] = "";
    CU_ASSERT_TRUE(pb_profile_equal(p, q, why, sizeof why));
    if (why[0]) fprintf(stderr, "\n  difference: %s\n", why);
    /* And the second write gives the same bytes (stable output). */
    size_t n2;
    char *text2 = write_json(q, &n2);
    CU_ASSERT_EQUAL(n, n2);
    CU_ASSERT(n == n2 && memcmp(text, text2, n) == 0);
    free(text);
    free(text2);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void json__documented_encodings_appear_in_the_text(void) {
    pb_profile *p = build_rich();
    size_t n;
    char *t = write_json(p, &n);
    /* Expected strings written by hand from docs/json-model.md. */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"profbridge\":\"model\",\"formatVersion\":1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"flags\":{\"word\":\"0x8100000000000000\",\"names\":[\"ir\",\"temporal_prof_traces\"]}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"origin\":{\"format\":\"raw\",\"version\":10,\"pointerWidth\":8,\"byteOrder\":\"be\"}"));
    /* not UTF-8: the text with U+FFFD for the bad byte, and the bytes in hex */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"key\":\"bin\",\"value\":\"\\ufffd\\u0000\\u0001\",\"valueHex\":\"ff0001\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"binaryIds\":[\"deadbeef\"]"));
    /* NameRef("main") = 0xdb956436e78dd5fa (spec llvm-instrprof.md 1.2) */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"weight\":3,\"functions\":[\"0xdb956436e78dd5fa\",\"0x5cf8c24cdb18bdac\"]}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"f\\ufffd\\u0001n\",\"nameHex\":\"66ff016e\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"counters\":[\"18446744073709551613\",0,42]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"bitmap\":\"1300\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"value\":\"0x5cf8c24cdb18bdac\",\"count\":7,\"target\":\"foo\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"memopSize\":[[{\"value\":513,\"count\":9}]]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"Gr\xc3\xbc\xc3\x9f" "e\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"placeholder\":1666}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"layout\":[20,0,-5,0],\"counters\":[11,10,1]"));
    free(t);
    pb_profile_free(p);
}

static void json__is_detected_by_content(void) {
    const char *t = "  {\"profbridge\":\"model\",\"formatVersion\":1}";
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, t, strlen(t), "x", &err), 0);
    const pb_format *f = NULL;
    CU_ASSERT_EQUAL(pb_format_detect(src, &f, &err), 0);
    CU_ASSERT_PTR_EQUAL(f, fmt());
    pb_source_free(src);
}

static void check_error(const char *text, const char *want) {
    pb_profile *q = NULL;
    pb_error err;
    CU_ASSERT_NOT_EQUAL(read_json(text, strlen(text), &q, &err), 0);
    CU_ASSERT_PTR_NULL(q);
    char msg[1024];
    pb_error_format(&err, msg, sizeof msg);
    if (strcmp(msg, want) != 0) fprintf(stderr, "\n  got:  %s\n  want: %s\n", msg, want);
    CU_ASSERT_STRING_EQUAL(msg, want);
}

#define HEAD "{\"profbridge\":\"model\",\"formatVersion\":1,\"flags\":{\"word\":\"0x0\"}," \
             "\"origin\":{\"format\":\"x\",\"version\":0,\"pointerWidth\":0,\"byteOrder\":\"unknown\"}," \
             "\"properties\":[],\"binaryIds\":[],\"temporal\":{\"streamSize\":0,\"traces\":[]},"

static void json__errors_name_the_json_path(void) {
    check_error(HEAD "\"symbols\":[],\"methods\":[],\"records\":[{\"kind\":\"function\",\"name\":\"f\","
                "\"hash\":\"0x1\",\"counters\":[1,-1]}]}",
                "t.json: records[0].counters[1]: expected a count (integer 0..2^64-1, or its decimal string), found -1");
    check_error(HEAD "\"symbols\":[],\"methods\":[{\"name\":\"m\",\"signature\":[0]}],\"records\":[]}",
                "t.json: methods[0].signature[0]: expected an index below 0, found 0");
    check_error(HEAD "\"symbols\":[{\"name\":\"a\"},{\"name\":\"a\"}],\"methods\":[],\"records\":[]}",
                "t.json: symbols[1]: the same symbol as symbols[0] (symbols must be unique)");
    check_error("{\"profbridge\":\"model\",\"formatVersion\":7}",
                "t.json: formatVersion: model JSON format version 7 is not supported (this build reads version 1)");
    check_error(HEAD "\"symbols\":[", "t.json:1:220: ']' expected near end of file");
}

/* json_text.h's rule for bytes that are not UTF-8, expectations by hand:
 * U+FFFD per byte that starts no valid sequence (a cut sequence is one per
 * byte, an overlong or a surrogate too), valid sequences of 1-4 bytes kept. */
static void json__text_that_is_not_utf8_gets_fffd_and_hex(void) {
    static const struct {
        const char *in;
        size_t len;
        const char *want;
    } cases[] = {
        {"Gr\xc3\xbc\xc3\x9f" "e", 7, "\"n\": \"Gr\xc3\xbc\xc3\x9f" "e\""},
        {"f\xff\xfeo\xc3(x\xe2\x82", 9,
         "\"n\": \"f\\ufffd\\ufffdo\\ufffd(x\\ufffd\\ufffd\", \"n_hex\": \"66fffe6fc32878e282\""},
        {"\xc0\xaf", 2, "\"n\": \"\\ufffd\\ufffd\", \"n_hex\": \"c0af\""},             /* overlong '/' */
        {"\xed\xa0\x80", 3, "\"n\": \"\\ufffd\\ufffd\\ufffd\", \"n_hex\": \"eda080\""}, /* U+D800 */
        {"\xf0\x9f\x98\x80\"\x7f", 6, "\"n\": \"\xf0\x9f\x98\x80\\\"\x7f\""},          /* U+1F600 */
        {"a\x00\xf5", 3, "\"n\": \"a\\u0000\\ufffd\", \"n_hex\": \"6100f5\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_buf b = PB_BUF_INIT;
        pbu_json_put_text_member(&b, "n", cases[i].in, cases[i].len, PBU_JSON_HEX_SUFFIX);
        CU_ASSERT_FALSE(pbu_buf_failed(&b));
        if (!b.data || strcmp(b.data, cases[i].want) != 0)
            fprintf(stderr, "\n  case %zu got:  %s\n  want: %s\n", i, b.data ? b.data : "", cases[i].want);
        CU_ASSERT_STRING_EQUAL(b.data ? b.data : "", cases[i].want);
        pbu_buf_free(&b);
    }
}

/* The reader takes KEYHex over KEY (which holds U+FFFD for the bad bytes),
 * and files with the hex member alone (written before KEY was added) too. */
static void json__reader_takes_the_hex_member(void) {
    static const char text[] = HEAD "\"symbols\":[],\"methods\":[],\"records\":["
        "{\"kind\":\"function\",\"name\":\"f\\ufffd\",\"nameHex\":\"66ff\",\"hash\":\"0x1\",\"counters\":[1]},"
        "{\"kind\":\"function\",\"nameHex\":\"67fe\",\"hash\":\"0x2\",\"counters\":[2]}]}";
    pb_profile *q = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_json(text, sizeof text - 1, &q, &err), 0);
    int seen = 0;
    for (size_t i = 0; i < pb_profile_record_count(q); i++) {
        const char *n;
        size_t len;
        uint64_t h;
        CU_ASSERT_EQUAL(pb_profile_record_name(q, pb_profile_record(q, i), &n, &len, &h, &err), 0);
        if (h == 1) seen += len == 2 && memcmp(n, "f\xff", 2) == 0;
        if (h == 2) seen += len == 2 && memcmp(n, "g\xfe", 2) == 0;
    }
    CU_ASSERT_EQUAL(seen, 2);
    pb_profile_free(q);
}

static CU_TestInfo tests[] = {
    {"json__reader_takes_the_hex_member", json__reader_takes_the_hex_member},
    {"json__text_that_is_not_utf8_gets_fffd_and_hex", json__text_that_is_not_utf8_gets_fffd_and_hex},
    {"json__round_trip_keeps_every_model_feature", json__round_trip_keeps_every_model_feature},
    {"json__documented_encodings_appear_in_the_text", json__documented_encodings_appear_in_the_text},
    {"json__is_detected_by_content", json__is_detected_by_content},
    {"json__errors_name_the_json_path", json__errors_name_the_json_path},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_json[] = {{"json", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
