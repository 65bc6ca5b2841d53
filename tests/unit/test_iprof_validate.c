/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_iprof_validate.c -- every validation rule of the iprof reader has a
 * fixture in testdata/iprof/invalid/ that breaks it; the exact message (code,
 * JSON path, expected, found, line:column for syntax errors) is checked here.
 * Also: report-all mode, lenient repairs and what stays fatal, the probe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iprof_test.h"

typedef struct vcase {
    const char *name;
    int code;
    const char *message; /* pb_error_format() of the error, source = "<name>.iprof" */
} vcase;

#define E "expected "
static const vcase cases[] = {
    {"syntax_truncated_in_key", PB_ETRUNC,
     "syntax_truncated_in_key.iprof:1:69: methods[0]: unexpected end of input (premature end of input near '\"signatur')"},
    {"syntax_bad_token", PB_EFORMAT,
     "syntax_bad_token.iprof:2:30: types[0]: ']' expected near 'x'"},
    {"syntax_duplicate_key", PB_EFORMAT,
     "syntax_duplicate_key.iprof:1:50: duplicate object key near '\"types\"'"},
    {"syntax_count_too_big", PB_EFORMAT,
     "syntax_count_too_big.iprof:1:223: callCountProfiles[0].records[0]: " E
     "a count in [0, 2^63-1], found 9223372036854775808"},
    {"syntax_type_id_too_big", PB_EFORMAT,
     "syntax_type_id_too_big.iprof:1:228: virtualInvokeProfiles[0].records[0]: " E
     "a type id that fits in 32 bits, found 99999999999999999999"},
    {"top_not_object", PB_EFORMAT, "top_not_object.iprof: " E "a JSON object at the top level, found an array"},
    {"version_missing", PB_EFORMAT, "version_missing.iprof: version: " E "the member \"version\", found no such member"},
    {"version_not_string", PB_EFORMAT, "version_not_string.iprof: version: " E "a string, found an integer"},
    {"version_pattern", PB_EVERSION,
     "version_pattern.iprof: version: " E "a version like \"1.1.0\" (0.2.0, 0.4.0, 1.0.0 or 1.1.0), found \"1.1\""},
    {"version_unknown", PB_EVERSION,
     "version_unknown.iprof: version: " E "0.2.0, 0.4.0, 1.0.0 or 1.1.0, found unsupported version \"2.0.0\""},
    {"types_missing", PB_EFORMAT, "types_missing.iprof: types: " E "the member \"types\", found no such member"},
    {"types_not_array", PB_EFORMAT, "types_not_array.iprof: types: " E "an array, found an object"},
    {"methods_missing", PB_EFORMAT, "methods_missing.iprof: methods: " E "the member \"methods\", found no such member"},
    {"methods_not_array", PB_EFORMAT, "methods_not_array.iprof: methods: " E "an array, found an integer"},
    {"type_not_object", PB_EFORMAT, "type_not_object.iprof: types[1]: " E "an object, found an integer"},
    {"type_id_not_integer", PB_EFORMAT, "type_id_not_integer.iprof: types[1].id: " E "an integer, found a string"},
    {"type_id_out_of_range", PB_EFORMAT,
     "type_id_out_of_range.iprof: types[1].id: " E "an id that fits in 32 bits, found 4294967296"},
    {"type_name_not_string", PB_EFORMAT, "type_name_not_string.iprof: types[1].name: " E "a string, found null"},
    {"type_id_duplicate", PB_EFORMAT,
     "type_id_duplicate.iprof: types[2].id: " E "a type id not used before, found 1 again"},
    {"method_name_missing", PB_EFORMAT, "method_name_missing.iprof: methods[0].name: " E "a string, found nothing"},
    {"method_signature_not_array", PB_EFORMAT,
     "method_signature_not_array.iprof: methods[0].signature: " E "an array, found an integer"},
    {"method_signature_dangling", PB_EFORMAT,
     "method_signature_dangling.iprof: methods[0].signature[1]: " E "a type id defined in types, found 77"},
    {"method_id_duplicate", PB_EFORMAT,
     "method_id_duplicate.iprof: methods[1].id: " E "a method id not used before, found 5 again"},
    {"method_id_out_of_range", PB_EFORMAT,
     "method_id_out_of_range.iprof: methods[0].id: " E "an id that fits in 32 bits, found -2147483649"},
    {"instanceof_both_spellings", PB_EFORMAT,
     "instanceof_both_spellings.iprof: instanceofProfiles: " E
     "only one of instanceofProfiles and instanceOfProfiles, found both members"},
    {"instanceof_in_1_0_0", PB_EFORMAT,
     "instanceof_in_1_0_0.iprof: instanceOfProfiles: " E
     "no instanceof entries before version 1.1.0, found 1 entry in a 1.0.0 file"},
    {"section_not_array", PB_EFORMAT, "section_not_array.iprof: callCountProfiles: " E "an array, found an object"},
    {"entry_not_object", PB_EFORMAT, "entry_not_object.iprof: conditionalProfiles[0]: " E "an object, found an array"},
    {"ctx_missing", PB_EFORMAT, "ctx_missing.iprof: callCountProfiles[0].ctx: " E "a string, found nothing"},
    {"records_not_array", PB_EFORMAT,
     "records_not_array.iprof: samplingProfiles[0].records: " E "an array, found an integer"},
    {"ctx_syntax_trailing_separator", PB_EFORMAT,
     "ctx_syntax_trailing_separator.iprof: conditionalProfiles[0].ctx: " E
     "frames \"method:bci\" joined by '<', found \"5:1<\" (bad at character 5)"},
    {"ctx_syntax_space", PB_EFORMAT,
     "ctx_syntax_space.iprof: conditionalProfiles[0].ctx: " E
     "frames \"method:bci\" joined by '<', found \"5:1 <6:2\" (bad at character 4)"},
    {"ctx_syntax_negative_method", PB_EFORMAT,
     "ctx_syntax_negative_method.iprof: samplingProfiles[0].ctx: " E
     "frames \"method:bci\" joined by '<', found \"-5:1\" (bad at character 1)"},
    {"ctx_syntax_empty", PB_EFORMAT,
     "ctx_syntax_empty.iprof: virtualInvokeProfiles[0].ctx: " E
     "frames \"method:bci\" joined by '<', found \"\" (bad at character 1)"},
    {"ctx_call_count_bci_not_0", PB_EFORMAT,
     "ctx_call_count_bci_not_0.iprof: callCountProfiles[0].ctx: " E "BCI 0 in the first frame, found \"5:3<6:1\""},
    {"ctx_call_count_bci_00", PB_EFORMAT,
     "ctx_call_count_bci_00.iprof: callCountProfiles[0].ctx: " E "BCI 0 in the first frame, found \"5:00\""},
    {"ctx_monitor_not_0_0", PB_EFORMAT,
     "ctx_monitor_not_0_0.iprof: monitorProfiles[0].ctx: " E "\"0:0\", found \"5:0\""},
    {"ctx_method_out_of_range", PB_EFORMAT,
     "ctx_method_out_of_range.iprof: conditionalProfiles[0].ctx: " E
     "method ids that fit in 32 bits, found \"5:1<2147483648:0\""},
    {"ctx_bci_out_of_range", PB_EFORMAT,
     "ctx_bci_out_of_range.iprof: conditionalProfiles[0].ctx: " E "BCIs that fit in 32 bits, found \"5:-2147483649\""},
    {"ctx_dangling_method", PB_EFORMAT,
     "ctx_dangling_method.iprof: callCountProfiles[0].ctx: " E "method ids defined in methods, found 9"},
    {"ctx_repeated", PB_EFORMAT,
     "ctx_repeated.iprof: callCountProfiles[2].ctx: " E
     "a context not repeated within the section, found \"5:0\" again (first at callCountProfiles[0])"},
    {"records_call_count_length", PB_EFORMAT,
     "records_call_count_length.iprof: callCountProfiles[0].records: " E "exactly 1 value, found 2"},
    {"records_sampling_length", PB_EFORMAT,
     "records_sampling_length.iprof: samplingProfiles[0].records: " E "exactly 1 value, found 0"},
    {"records_conditional_length", PB_EFORMAT,
     "records_conditional_length.iprof: conditionalProfiles[0].records: " E "a multiple of 3 values, found 4"},
    {"records_virtual_invoke_length", PB_EFORMAT,
     "records_virtual_invoke_length.iprof: virtualInvokeProfiles[0].records: " E "a multiple of 2 values, found 3"},
    {"records_instanceof_length", PB_EFORMAT,
     "records_instanceof_length.iprof: instanceOfProfiles[0].records: " E "a multiple of 2 values, found 1"},
    {"records_monitor_length", PB_EFORMAT,
     "records_monitor_length.iprof: monitorProfiles[0].records: " E "a multiple of 2 values, found 3"},
    {"record_type_dangling", PB_EFORMAT,
     "record_type_dangling.iprof: virtualInvokeProfiles[0].records[2]: " E "a type id defined in types, found 42"},
    {"record_count_negative", PB_EFORMAT,
     "record_count_negative.iprof: conditionalProfiles[0].records[2]: " E "a count in [0, 2^63-1], found -1"},
    {"record_count_not_integer", PB_EFORMAT,
     "record_count_not_integer.iprof: samplingProfiles[0].records[0]: " E "an integer, found a real number"},
    {"record_branch_bci_out_of_range", PB_EFORMAT,
     "record_branch_bci_out_of_range.iprof: conditionalProfiles[0].records[0]: " E
     "a BCI that fits in 32 bits, found 2147483648"},
    {"record_branch_index_out_of_range", PB_EFORMAT,
     "record_branch_index_out_of_range.iprof: conditionalProfiles[0].records[1]: " E
     "a branch index that fits in 32 bits, found -2147483649"},
    {"legacy_ctx_separator", PB_EFORMAT,
     "legacy_ctx_separator.iprof: hotnessPoints[0].methodBciList: " E
     "frames \"method:bci\" joined by ',', found \"5:0<5:1\" (bad at character 4)"},
    {"legacy_name_key", PB_EFORMAT, "legacy_name_key.iprof: types[0].typeName: " E "a string, found nothing"},
};
#undef E
#define NCASES (sizeof cases / sizeof cases[0])

static char *load_case(const char *name, size_t *len) {
    char rel[256];
    snprintf(rel, sizeof rel, "testdata/iprof/invalid/%s.iprof", name);
    return tu_slurp(tu_src(rel), len);
}

static int read_case(const vcase *c, int lenient, int report_all, tu_diag *d, pb_error *err) {
    size_t len = 0;
    char *data = load_case(c->name, &len);
    char fname[256];
    pb_profile *p = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    snprintf(fname, sizeof fname, "%s.iprof", c->name);
    int rc = it_read(&p, data, len, fname, lenient, report_all, d, err);
    if (!rc) CU_ASSERT_PTR_NOT_NULL(p);
    if (rc) CU_ASSERT_PTR_NULL(p);
    pb_profile_free(p);
    free(data);
    return rc;
}

static void iprof_validate__every_rule_has_a_fixture_with_its_exact_message(void) {
    for (size_t i = 0; i < NCASES; i++) {
        pb_error err;
        int rc = read_case(&cases[i], 0, 0, NULL, &err);
        const char *got = it_fmt_err(&err);
        if (rc != cases[i].code || strcmp(got, cases[i].message) != 0) {
            fprintf(stderr, "\n  case %s: rc %d (want %d)\n    got:  %s\n    want: %s\n",
                    cases[i].name, rc, cases[i].code, got, cases[i].message);
        }
        CU_ASSERT_EQUAL(rc, cases[i].code);
        CU_ASSERT_STRING_EQUAL(got, cases[i].message);
        CU_ASSERT_STRING_EQUAL(err.source, strstr(got, cases[i].name) ? err.source : "?");
    }
}

static void iprof_validate__report_all_gives_the_same_message_as_a_diagnostic(void) {
    for (size_t i = 0; i < NCASES; i++) {
        tu_diag d;
        pb_error err;
        memset(&d, 0, sizeof d);
        int rc = read_case(&cases[i], 0, 1, &d, &err);
        CU_ASSERT_EQUAL(rc, PB_EFORMAT);
        CU_ASSERT(d.count[PB_DIAG_ERROR] >= 1);
        /* The error strict mode stops at is one of the diagnostics. */
        char line[1100];
        snprintf(line, sizeof line, "%s\n", cases[i].message);
        if (!strstr(d.all, line))
            fprintf(stderr, "\n  case %s (report-all): %s\n", cases[i].name, d.all);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.all, line));
    }
}

static void iprof_validate__report_all_reports_every_problem(void) {
    /* Three independent problems in one file: all three are reported. */
    const char *text =
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":0,\"name\":\"B\"}],"
        "\"methods\":[{\"id\":5,\"name\":\"m\",\"signature\":[0,0]},"
        "{\"id\":6,\"name\":\"n\",\"signature\":[0,9]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"5:1\",\"records\":[1,2]},"
        "{\"ctx\":\"5:x\",\"records\":[1,0,-4]}]}";
    tu_diag d;
    pb_error err;
    pb_profile *p = NULL;
    memset(&d, 0, sizeof d);
    int rc = it_read(&p, text, strlen(text), "m.iprof", 0, 1, &d, &err);
    CU_ASSERT_EQUAL(rc, PB_EFORMAT);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_ERROR], 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "m.iprof: types[1].id: expected a type id not used before, found 0 again\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "m.iprof: methods[1].signature[1]: expected a type id defined in types, found 9\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "m.iprof: conditionalProfiles[0].records: expected a multiple of 3 values, found 2\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "m.iprof: conditionalProfiles[1].ctx: expected frames \"method:bci\" joined by '<', found \"5:x\" (bad at character 3)\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "m.iprof: conditionalProfiles[1].records[2]: expected a count in [0, 2^63-1], found -4\n"));
    CU_ASSERT_STRING_EQUAL(it_fmt_err(&err), "m.iprof: 5 problems found");
}

static void iprof_validate__elide_file_problems_are_reported(void) {
    const char *path = tu_shared("testdata/iprof-real/elidemin-jspy_4c59df4_default.iprof");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata/iprof-real not present");
    size_t len = 0;
    char *data = tu_slurp(path, &len);
    tu_diag d;
    pb_error err;
    pb_profile *p = NULL;
    memset(&d, 0, sizeof d);
    int rc = it_read(&p, data, len, "elide.iprof", 0, 1, &d, &err);
    CU_ASSERT_EQUAL(rc, PB_EFORMAT);
    /* Every entry names methods the placeholder table lacks; the first one: */
    CU_ASSERT(d.count[PB_DIAG_ERROR] > 6683);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "elide.iprof: callCountProfiles[0].ctx: expected method ids defined in methods, found 1666\n"));
    /* Strict mode stops at the first one. */
    rc = it_read(&p, data, len, "elide.iprof", 0, 0, NULL, &err);
    CU_ASSERT_EQUAL(rc, PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(it_fmt_err(&err), "elide.iprof: callCountProfiles[0].ctx: expected method ids defined in methods, found 1666");
    free(data);
}

static void iprof_validate__truncated_real_file_names_the_method_it_stopped_in(void) {
    /* GraalVM issue 12744: a profile that ends mid-token ("...\"signatur"). */
    const char *path = tu_shared("testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof");
    TU_SKIP_IF(!tu_exists(path), "../shared/testdata/iprof-real not present");
    size_t len = 0;
    char *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    const char *at = data;
    for (int k = 0; k < 813 && at; k++) {
        at = strstr(at, "\"signature\"");
        if (k < 812 && at) at++;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t cut = (size_t)(at - data) + strlen("\"signatur");
    pb_profile *p = NULL;
    pb_error err;
    int rc = it_read(&p, data, cut, "cut.iprof", 0, 0, NULL, &err);
    CU_ASSERT_EQUAL(rc, PB_ETRUNC);
    CU_ASSERT_STRING_EQUAL(err.path, "methods[812]");
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL((size_t)err.column, cut);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "unexpected end of input"));
    free(data);
}

/* ---- lenient mode ---- */

static const vcase *find_case(const char *name) {
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].name, name) == 0) return &cases[i];
    return NULL;
}

static pb_profile *read_lenient(const char *name, tu_diag *d) {
    size_t len = 0;
    char *data = load_case(name, &len);
    pb_error err;
    pb_profile *p = NULL;
    memset(d, 0, sizeof *d);
    int rc = it_read(&p, data, len, "l.iprof", 1, 0, d, &err);
    if (rc) fprintf(stderr, "\n  lenient %s: %s\n", name, it_fmt_err(&err));
    free(data);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return p;
}

static void iprof_validate__lenient_repairs_what_it_documents(void) {
    tu_diag d;
    size_t n;
    pb_profile *p;

    p = read_lenient("type_id_duplicate", &d); /* first wins, later kept */
    CU_ASSERT_EQUAL(pb_profile_symbol_count(p), 3);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "types[2].id: lenient: 1 duplicate type id(s)"));
    pb_profile_free(p);

    p = read_lenient("method_id_duplicate", &d);
    CU_ASSERT_EQUAL(pb_profile_method_count(p), 2);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    pb_profile_free(p);

    p = read_lenient("method_signature_dangling", &d); /* placeholder type 77 */
    CU_ASSERT_EQUAL(pb_profile_symbol_count(p), 3);
    int found = 0;
    for (uint32_t i = 0; i < pb_profile_symbol_count(p); i++) {
        const pb_symbol *s = pb_profile_symbol(p, i);
        if (s->placeholder && s->placeholder_id == 77) found = 1;
    }
    CU_ASSERT(found);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    pb_profile_free(p);

    p = read_lenient("ctx_dangling_method", &d); /* placeholder method 9 */
    CU_ASSERT_EQUAL(pb_profile_method_count(p), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "callCountProfiles[0].ctx: lenient: 1 dangling method id(s) kept as placeholder methods (first: 9)"));
    char *text = NULL;
    pb_error err;
    CU_ASSERT_EQUAL(it_write(p, NULL, &text, &n, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, ":0<9:4\"") : NULL); /* the id survives */
    free(text);
    pb_profile_free(p);

    p = read_lenient("ctx_repeated", &d); /* counts added */
    const pb_record *r = it_record(p, PB_REC_JAVA_CALL_COUNT, "m", 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 3);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_CALL_COUNT), 2);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    pb_profile_free(p);

    p = read_lenient("instanceof_in_1_0_0", &d); /* version raised */
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "iprof.version", &n), "1.1.0");
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    pb_profile_free(p);

    p = read_lenient("version_unknown", &d);
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "iprof.version", &n), "1.1.0");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "unknown iprof version \"2.0.0\" read as 1.1.0"));
    pb_profile_free(p);
}

static void iprof_validate__lenient_still_rejects_what_it_cannot_repair(void) {
    static const char *const fatal[] = {
        "syntax_truncated_in_key", "syntax_bad_token", "syntax_count_too_big", "types_not_array",
        "type_id_not_integer", "records_conditional_length", "records_call_count_length",
        "ctx_syntax_space", "ctx_call_count_bci_not_0", "ctx_monitor_not_0_0",
        "record_count_negative", "instanceof_both_spellings", NULL};
    for (size_t i = 0; fatal[i]; i++) {
        const vcase *c = find_case(fatal[i]);
        pb_error err;
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        int rc = read_case(c, 1, 0, NULL, &err);
        CU_ASSERT_EQUAL(rc, c->code);
        if (c->code != PB_ETRUNC && strncmp(c->name, "syntax_b", 8) != 0) {
            CU_ASSERT_STRING_EQUAL(err.message, "not repairable in lenient mode");
            if (strcmp(err.message, "not repairable in lenient mode") != 0)
                fprintf(stderr, "\n  %s: %s\n", c->name, it_fmt_err(&err));
        }
    }
}

/* ---- probe ---- */

static void iprof_validate__probe_claims_iprof_and_nothing_else(void) {
    const pb_format *f = it_fmt();
    static const char *const mine[] = {
        "{\"version\":\"1.1.0\",\"types\":[",
        "\xEF\xBB\xBF  \n{ \"types\" : [ {\"id\":0",
        "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n    { \"id\": 4783, \"typeName\": \"x\" }",
        "{\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0]}",
        NULL};
    static const char *const not_mine[] = {
        "{\"profbridge\":{\"version\":1,\"types\":[]}}",
        ":ir\n# Func Hash:\n123\n",
        "# IR level Instrumentation Flag\n:ir\nmain\n",
        "{\"a\":1,\"b\":[2]}",
        "[{\"version\":\"1.1.0\"}]",
        "",
        "\xff\x01\x02",
        NULL};
    for (size_t i = 0; mine[i]; i++)
        CU_ASSERT(f->probe((const uint8_t *)mine[i], strlen(mine[i])) > 0);
    for (size_t i = 0; not_mine[i]; i++)
        CU_ASSERT_EQUAL(f->probe((const uint8_t *)not_mine[i], strlen(not_mine[i])), 0);
    /* More matching keys bid more. */
    const char *a = "{\"version\":\"1.1.0\"";
    const char *b = "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[]";
    CU_ASSERT(f->probe((const uint8_t *)b, strlen(b)) > f->probe((const uint8_t *)a, strlen(a)));
}

static void iprof_validate__descriptor_declares_extensions_and_options(void) {
    const pb_format *f = it_fmt();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(f->extensions[0], ".iprof.gz");
    CU_ASSERT_STRING_EQUAL(f->extensions[1], ".iprof");
    CU_ASSERT_PTR_NULL(f->extensions[2]);
    CU_ASSERT_STRING_EQUAL(f->write_options[0].name, "iprof-version");
    CU_ASSERT_PTR_EQUAL(pb_format_for_path("x/default.iprof.gz"), f);
}

static CU_TestInfo validate_tests[] = {
    {"iprof_validate__every_rule_has_a_fixture_with_its_exact_message",
     iprof_validate__every_rule_has_a_fixture_with_its_exact_message},
    {"iprof_validate__report_all_gives_the_same_message_as_a_diagnostic",
     iprof_validate__report_all_gives_the_same_message_as_a_diagnostic},
    {"iprof_validate__report_all_reports_every_problem", iprof_validate__report_all_reports_every_problem},
    {"iprof_validate__elide_file_problems_are_reported", iprof_validate__elide_file_problems_are_reported},
    {"iprof_validate__truncated_real_file_names_the_method_it_stopped_in",
     iprof_validate__truncated_real_file_names_the_method_it_stopped_in},
    {"iprof_validate__lenient_repairs_what_it_documents", iprof_validate__lenient_repairs_what_it_documents},
    {"iprof_validate__lenient_still_rejects_what_it_cannot_repair",
     iprof_validate__lenient_still_rejects_what_it_cannot_repair},
    {"iprof_validate__probe_claims_iprof_and_nothing_else", iprof_validate__probe_claims_iprof_and_nothing_else},
    {"iprof_validate__descriptor_declares_extensions_and_options",
     iprof_validate__descriptor_declares_extensions_and_options},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_iprof_validate[] = {{"iprof_validate", NULL, NULL, NULL, NULL, validate_tests},
                                                CU_SUITE_INFO_NULL};
