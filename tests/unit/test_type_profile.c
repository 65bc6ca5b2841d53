/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_type_profile.c -- `profbridge types` numbers (src/analysis/type_profile.c) on
 * small hand-written inputs. Every expected value is computed by hand from
 * the files (testdata/types/receivers.iprof, sites.proftext) and written in
 * the comments; none is output of our code.
 */
#include <string.h>

#include "testutil.h"
#include "analysis/type_profile.h"
#include "profbridge/types.h"

static pb_profile *read_or_null(const char *rel) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    if (pb_read_file(&p, tu_src(rel), &ro, &err) != 0) {
        char buf[1024];
        pb_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "\n  cannot read %s: %s\n", rel, buf);
        return NULL;
    }
    return p;
}

static const pbi_tp_site *find_site(const pbi_tp_report *r, const char *name, int value_kind, uint32_t site) {
    for (size_t i = 0; i < r->num_sites; i++)
        if (strcmp(r->sites[i].name, name) == 0 && r->sites[i].value_kind == value_kind && r->sites[i].site == site)
            return &r->sites[i];
    CU_FAIL("site not found");
    fprintf(stderr, "\n  no site '%s' kind %d #%u\n", name, value_kind, (unsigned)site);
    return NULL;
}

static void check_site(const pbi_tp_site *s, uint64_t total, uint32_t types, int cls, uint64_t kept, uint64_t lost,
                       int polluted) {
    if (!s) return;
    CU_ASSERT_EQUAL(s->total, total);
    CU_ASSERT_EQUAL(s->num_types, types);
    CU_ASSERT_EQUAL(s->cls, cls);
    CU_ASSERT_EQUAL(s->kept, kept);
    CU_ASSERT_EQUAL(s->lost, lost);
    CU_ASSERT_EQUAL(s->polluted, polluted);
}

/* receivers.iprof at width 2:
 *   1:5      [T0 90, T1 10]                    total 100, 2 types, kept 100, lost 0
 *   2:3<1:7  [T0 50, T1 30, T2 15, T3 5]       total 100, 4 types, kept 80, lost 20
 *   1:9      [T2 7]                            total 7, mono
 *   2:11     [40,20,10,10,5,5,5,5] (8 types)   total 100, kept 60, lost 40, table full
 *   1:12     [T0 0, T1 4]                      total 4, 1 nonzero type: mono
 *   instanceof 2:20 [T0 3, T1 1]               total 4, bimorphic
 *   monitor [Object 6, T0 2, T1 1, T2 1]       total 10, kept 8, lost 2
 * Σ total 325, lost 0+20+0+40+0+0+2 = 62, kept 263. */
static void types__iprof_sites_at_width_2_match_hand_computed_values(void) {
    pb_profile *p = read_or_null("testdata/types/receivers.iprof");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pbi_tp_report r;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pbi_type_profile_build(p, 2, &r, &err), 0);
    CU_ASSERT_EQUAL(r.num_sites, 7);
    check_site(find_site(&r, "A.run()void:5", PB_VK_VTABLE, 0), 100, 2, PBI_TP_BIMORPHIC, 100, 0, 0);
    check_site(find_site(&r, "B.call(java.lang.Object)void:3<A.run()void:7", PB_VK_VTABLE, 0), 100, 4,
               PBI_TP_MEGAMORPHIC, 80, 20, 0);
    check_site(find_site(&r, "A.run()void:9", PB_VK_VTABLE, 0), 7, 1, PBI_TP_MONOMORPHIC, 7, 0, 0);
    check_site(find_site(&r, "B.call(java.lang.Object)void:11", PB_VK_VTABLE, 0), 100, 8, PBI_TP_MEGAMORPHIC, 60, 40,
               PBI_TP_FULL);
    const pbi_tp_site *zero = find_site(&r, "A.run()void:12", PB_VK_VTABLE, 0);
    check_site(zero, 4, 1, PBI_TP_MONOMORPHIC, 4, 0, 0);
    if (zero) {
        CU_ASSERT_EQUAL(zero->num_values, 2);
        CU_ASSERT_STRING_EQUAL(zero->types[0].name, "p.T1");
        CU_ASSERT_EQUAL(zero->types[1].count, 0);
    }
    const pbi_tp_site *inst = find_site(&r, "B.call(java.lang.Object)void:20", PB_VK_VTABLE, 0);
    check_site(inst, 4, 2, PBI_TP_BIMORPHIC, 4, 0, 0);
    if (inst) CU_ASSERT_EQUAL(inst->kind, PB_REC_JAVA_INSTANCEOF);
    /* The monitor entry has no context: its name is "(no context)". */
    const pbi_tp_site *mon = find_site(&r, "(no context)", PB_VK_VTABLE, 0);
    check_site(mon, 10, 4, PBI_TP_MEGAMORPHIC, 8, 2, 0);
    if (mon) {
        CU_ASSERT_STRING_EQUAL(mon->types[0].name, "java.lang.Object");
        CU_ASSERT_EQUAL(mon->types[0].count, 6);
    }
    /* Summary. */
    CU_ASSERT_EQUAL(r.total, 325);
    CU_ASSERT_EQUAL(r.kept, 263);
    CU_ASSERT_EQUAL(r.lost, 62);
    CU_ASSERT_EQUAL(r.per_class[PBI_TP_MONOMORPHIC], 2);
    CU_ASSERT_EQUAL(r.per_class[PBI_TP_BIMORPHIC], 2);
    CU_ASSERT_EQUAL(r.per_class[PBI_TP_MEGAMORPHIC], 3);
    CU_ASSERT_EQUAL(r.per_class[PBI_TP_EMPTY], 0);
    CU_ASSERT_EQUAL(r.polluted, 1);
    CU_ASSERT_EQUAL(r.per_kind[PB_REC_JAVA_VIRTUAL_INVOKE], 5);
    CU_ASSERT_EQUAL(r.per_kind[PB_REC_JAVA_INSTANCEOF], 1);
    CU_ASSERT_EQUAL(r.per_kind[PB_REC_JAVA_MONITOR], 1);
    /* Order: lost descending (40, 20, 2), then total descending (100, 7),
     * then name (the two sites of total 4: "A.run..." before "B.call..."). */
    static const char *const order[] = {"B.call(java.lang.Object)void:11",
                                        "B.call(java.lang.Object)void:3<A.run()void:7",
                                        "(no context)",
                                        "A.run()void:5",
                                        "A.run()void:9",
                                        "A.run()void:12",
                                        "B.call(java.lang.Object)void:20"};
    for (size_t i = 0; i < r.num_sites && i < 7; i++) CU_ASSERT_STRING_EQUAL(r.sites[i].name, order[i]);
    pbi_type_profile_free(&r);
    pb_profile_free(p);
}

/* Width 1 keeps only the hottest type: lost 10 + 50 + 0 + 60 + 0 + 1 + 4 = 125, kept 200. */
static void types__width_1_keeps_only_the_hottest_type(void) {
    pb_profile *p = read_or_null("testdata/types/receivers.iprof");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pbi_tp_report r;
    CU_ASSERT_EQUAL_FATAL(pbi_type_profile_build(p, 1, &r, NULL), 0);
    CU_ASSERT_EQUAL(r.lost, 125);
    CU_ASSERT_EQUAL(r.kept, 200);
    check_site(find_site(&r, "A.run()void:5", PB_VK_VTABLE, 0), 100, 2, PBI_TP_BIMORPHIC, 90, 10, 0);
    /* Width 8 (GraalVM's limit) keeps everything of every site. */
    pbi_type_profile_free(&r);
    CU_ASSERT_EQUAL_FATAL(pbi_type_profile_build(p, 8, &r, NULL), 0);
    CU_ASSERT_EQUAL(r.lost, 0);
    CU_ASSERT_EQUAL(r.kept, 325);
    pbi_type_profile_free(&r);
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_type_profile_build(p, 0, &r, &err), PB_EINVAL);
    CU_ASSERT(strstr(err.message, "width") != NULL);
    pbi_type_profile_free(&r);
    pb_profile_free(p);
}

/* sites.proftext (llvm-profdata-19 show --ic-targets --show-vtables lists the
 * same values): caller's indirect-call site 0 = impl_a 30, impl_b 15, impl_c 5
 * -> total 50, megamorphic, width 2 keeps 45, loses 5; site 1 = impl_a 8;
 * vtable site 0 = _ZTV1A 30, _ZTV1B 20 -> bimorphic, nothing lost. */
static void types__llvm_indirect_call_and_vtable_sites(void) {
    pb_profile *p = read_or_null("testdata/types/sites.proftext");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pbi_tp_report r;
    CU_ASSERT_EQUAL_FATAL(pbi_type_profile_build(p, 2, &r, NULL), 0);
    CU_ASSERT_EQUAL(r.num_sites, 3);
    const pbi_tp_site *ic0 = find_site(&r, "caller", PB_VK_INDIRECT_CALL, 0);
    check_site(ic0, 50, 3, PBI_TP_MEGAMORPHIC, 45, 5, 0);
    if (ic0) {
        CU_ASSERT_STRING_EQUAL(ic0->types[0].name, "impl_a");
        CU_ASSERT_STRING_EQUAL(ic0->types[1].name, "impl_b");
        CU_ASSERT_STRING_EQUAL(ic0->types[2].name, "impl_c"); /* no record: named through its symbol */
    }
    check_site(find_site(&r, "caller", PB_VK_INDIRECT_CALL, 1), 8, 1, PBI_TP_MONOMORPHIC, 8, 0, 0);
    const pbi_tp_site *vt = find_site(&r, "caller", PB_VK_VTABLE, 0);
    check_site(vt, 50, 2, PBI_TP_BIMORPHIC, 50, 0, 0);
    if (vt) CU_ASSERT_STRING_EQUAL(vt->types[1].name, "_ZTV1B");
    CU_ASSERT_EQUAL(r.per_kind[PB_REC_FUNCTION], 3);
    CU_ASSERT_EQUAL(r.total, 108);
    CU_ASSERT_EQUAL(r.lost, 5);
    /* The site that loses most comes first. */
    CU_ASSERT_EQUAL(r.sites[0].value_kind, PB_VK_INDIRECT_CALL);
    CU_ASSERT_EQUAL(r.sites[0].site, 0);
    pbi_type_profile_free(&r);
    pb_profile_free(p);
}

/* A Java entry whose Σ (counter 0) is larger than what its types still show
 * (as after a merge that cut values): 100 against 40 + 20 recorded is 60 %
 * coverage, below 90 %: polluted, and the 40 unrecorded count as lost. An
 * entry whose only type has count 0 is of class "no types". */
static void types__uncovered_total_is_polluted_and_zero_sites_have_no_types(void) {
    pb_profile *p;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, NULL), 0);
    uint32_t decl, ret, m, t0, t1, ctx, ctx2;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "C", 1, &decl, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "void", 4, &ret, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "X", 1, &t0, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "Y", 1, &t1, NULL), 0);
    uint32_t sig[2] = {decl, ret};
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_method(p, "m", 1, sig, 2, &m, NULL), 0);
    pb_frame fr = {m, 4}, fr2 = {m, 8};
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, &fr, 1, &ctx, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, &fr2, 1, &ctx2, NULL), 0);
    pb_value vals[2] = {{pb_profile_symbol(p, t0)->md5, 40, t0}, {pb_profile_symbol(p, t1)->md5, 20, t1}};
    pb_site site = {2, vals};
    uint64_t c0 = 100;
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_JAVA_VIRTUAL_INVOKE;
    r.name = PB_NONE;
    r.ctx = ctx;
    r.layout = PB_NONE;
    r.num_counters = 1;
    r.counters = &c0;
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = &site;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, NULL), 0);
    pb_value zero = {pb_profile_symbol(p, t0)->md5, 0, t0};
    pb_site zsite = {1, &zero};
    uint64_t z0 = 0;
    r.ctx = ctx2;
    r.counters = &z0;
    r.sites[PB_VK_VTABLE] = &zsite;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, NULL), 0);

    pbi_tp_report rep;
    CU_ASSERT_EQUAL_FATAL(pbi_type_profile_build(p, 2, &rep, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(rep.num_sites, 2);
    const pbi_tp_site *s = find_site(&rep, "C.m()void:4", PB_VK_VTABLE, 0);
    check_site(s, 100, 2, PBI_TP_BIMORPHIC, 60, 40, PBI_TP_UNCOVERED);
    if (s) CU_ASSERT_EQUAL(s->recorded, 60);
    check_site(find_site(&rep, "C.m()void:8", PB_VK_VTABLE, 0), 0, 0, PBI_TP_EMPTY, 0, 0, 0);
    CU_ASSERT_EQUAL(rep.per_class[PBI_TP_EMPTY], 1);
    pbi_type_profile_free(&rep);
    pb_profile_free(p);
}

static void types__percent_text(void) {
    char b[32];
    pbi_tp_percent(62, 325, b, sizeof b); /* 19.0769... */
    CU_ASSERT_STRING_EQUAL(b, "19.08");
    pbi_tp_percent(1, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0.00");
    pbi_tp_percent(UINT64_MAX, UINT64_MAX, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "100.00");
}


/* The public call (profbridge/types.h): the report's summary line of
 * receivers.iprof at width 2 (Σ 325, lost 62 = 19.08 %, as above), the
 * options checked, nothing written on refusal. */
static void types__public_report_and_its_refusals(void) {
    pb_profile *p = read_or_null("testdata/types/receivers.iprof");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pb_sink *mem = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&mem, &err), 0);
    pb_types_options o;
    CU_ASSERT_EQUAL(pb_types_options_init(&o, PB_TYPES_OPTIONS_VERSION), PB_OK);
    CU_ASSERT_EQUAL(pb_types_options_init(&o, PB_TYPES_OPTIONS_VERSION + 1), PB_EINVAL);
    CU_ASSERT_EQUAL(o.width, 2);
    o.width = 0;
    CU_ASSERT_EQUAL(pb_types_write(p, &o, mem, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "width");
    o.width = PB_TYPES_MAX_WIDTH + 1;
    CU_ASSERT_EQUAL(pb_types_write(p, &o, mem, &err), PB_EINVAL);
    o.width = 2;
    o.style = 7;
    CU_ASSERT_EQUAL(pb_types_write(p, &o, mem, &err), PB_EINVAL);
    o.style = PB_TYPES_TEXT;
    o.version = 99;
    CU_ASSERT_EQUAL(pb_types_write(p, &o, mem, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_types_write(NULL, NULL, mem, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_types_write(p, NULL, NULL, &err), PB_EINVAL);
    size_t len = 1;
    (void)pb_sink_memory(mem, &len);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(pb_types_write(p, NULL, mem, &err), 0); /* the defaults: text, width 2, "profile" */
    const char *text = (const char *)pb_sink_memory(mem, &len);
    static const char head[] = "Type profiles of profile (width 2)\n";
    CU_ASSERT_FATAL(len > sizeof head);
    CU_ASSERT_EQUAL(memcmp(text, head, sizeof head - 1), 0);
    static const char lost[] = "\n  lost:             62 (19.08%)\n";
    int found = 0;
    for (size_t i = 0; i + sizeof lost - 1 <= len && !found; i++) found = memcmp(text + i, lost, sizeof lost - 1) == 0;
    CU_ASSERT(found);
    pb_sink_free(mem);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"types__iprof_sites_at_width_2_match_hand_computed_values", types__iprof_sites_at_width_2_match_hand_computed_values},
    {"types__width_1_keeps_only_the_hottest_type", types__width_1_keeps_only_the_hottest_type},
    {"types__llvm_indirect_call_and_vtable_sites", types__llvm_indirect_call_and_vtable_sites},
    {"types__uncovered_total_is_polluted_and_zero_sites_have_no_types",
     types__uncovered_total_is_polluted_and_zero_sites_have_no_types},
    {"types__percent_text", types__percent_text},
    {"types__public_report_and_its_refusals", types__public_report_and_its_refusals},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_type_profile[] = {{"type_profile", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
