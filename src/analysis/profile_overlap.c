/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_overlap.c -- `llvm-profdata overlap` for instrumentation profiles.
 *
 * A replay of LLVM 19's OverlapStats (InstrProf.cpp), InstrProfRecord::overlap
 * and InstrProfWriter::overlapRecord: the same sums in the same order with
 * the same double arithmetic, so the "%.3f" percentages round the same way.
 * Where other releases print differently (o->llvm_release), the report asks
 * the release's target (PBI_LF_OVERLAP_* in src/llvm/target.h).
 * Names and hashes are LLVM's (pb_profile_record_name), so iprof records
 * take part under their mapped names.
 */
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "llvm/target.h"
#include "llvm/llvm_values.h"
#include "profbridge/compare.h"
#include "model/profile_records.h"
#include "util/json_text.h"
#include "util/report_version.h"
#include "util/sort.h"
#include "analysis/overlap_report.h"
#include "util/api.h"
#include "util/grow.h"

/* Kinds of value profile, as LLVM's IPVK_First..IPVK_Last (19: 3 kinds). */
#define NKINDS PB_VK_COUNT

/* LLVM's CountSumOrPercent. */
typedef struct sums {
    double count_sum;
    double value_counts[NKINDS];
    uint64_t num_entries;
} sums;

/* LLVM's OverlapStats. */
typedef struct ostats {
    sums base, test, overlap, mismatch, unique;
    int valid;
} ostats;

/* OverlapStats::score: the smaller of the two fractions (0 if a sum is < 1). */
static double score(uint64_t v1, uint64_t v2, double sum1, double sum2) {
    if (sum1 < 1.0 || sum2 < 1.0) return 0.0;
    double a = (double)v1 / sum1, b = (double)v2 / sum2;
    return a < b ? a : b;
}

/* InstrProfRecord::accumulateCounts: u64 sums per record (wrapping like
 * LLVM's), converted to double when added. */
static void accumulate(const pb_record *r, sums *s) {
    uint64_t fsum = 0;
    s->num_entries += r->num_counters;
    for (uint32_t i = 0; i < r->num_counters; i++) fsum += r->counters[i];
    s->count_sum += (double)fsum;
    for (int k = 0; k < NKINDS; k++) {
        uint64_t ksum = 0;
        for (uint32_t i = 0; i < r->num_sites[k]; i++)
            for (uint32_t j = 0; j < r->sites[k][i].num_values; j++) ksum += r->sites[k][i].values[j].count;
        s->value_counts[k] += (double)ksum;
    }
}

/* OverlapStats::addOneMismatch / addOneUnique. */
static void add_fraction(sums *into, const sums *func, const sums *test) {
    into->num_entries += 1;
    into->count_sum += func->count_sum / test->count_sum;
    for (int k = 0; k < NKINDS; k++)
        if (test->value_counts[k] >= 1.0) into->value_counts[k] += func->value_counts[k] / test->value_counts[k];
}

/* Values of one site sorted by value (sortByTargetValues), in a scratch array. */
typedef struct scratch {
    pb_value *v;
    uint32_t *ids;
    size_t cap_ids;
    pb_value *sorted;
    size_t cap_sorted;
    int std_sort; /* the release sorts by value with std::sort (VALUE_SORT_UNSTABLE) */
} scratch;

static int cmp_value(void *ctx, uint32_t a, uint32_t b) {
    const pb_value *v = ctx;
    return v[a].value < v[b].value ? -1 : v[a].value > v[b].value;
}

static int cmp_count_desc(void *ctx, uint32_t a, uint32_t b) {
    const pb_value *v = ctx;
    return v[a].count > v[b].count ? -1 : v[a].count < v[b].count;
}

/* by_count_first: the base side. llvm-profdata loads the base profile into
 * its writer (InstrProfWriter::addRecord), which sorts every site by count
 * (stable, sortByCount) before the overlap sorts it by value; the test side
 * is overlapped as its reader gives it. With equal values (several targets
 * of value 0: unknown addresses in a raw file) that first sort decides
 * which base value meets which test value. */
static int sort_site(scratch *s, const pb_site *site, int by_count_first, int std_sort, pb_value **out) {
    size_t n = site->num_values;
    if (pbu_grow((void **)&s->ids, &s->cap_ids, n, sizeof *s->ids) ||
        pbu_grow((void **)&s->sorted, &s->cap_sorted, n, sizeof *s->sorted))
        return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) s->ids[i] = (uint32_t)i;
    if (by_count_first && pbu_sort_ids(s->ids, n, cmp_count_desc, site->values)) return PB_ENOMEM;
    /* sortByTargetValues: stable up to LLVM 18, std::sort from 19 (llvm_values.h) */
    if (!std_sort && pbu_sort_ids(s->ids, n, cmp_value, site->values)) return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) s->sorted[i] = site->values[s->ids[i]];
    if (std_sort) pbi_llvm_std_sort_by_value(s->sorted, n);
    *out = s->sorted;
    return 0;
}

/* InstrProfValueSiteRecord::overlap for one site pair. */
static int overlap_site(const pb_site *bs, const pb_site *ts, int kind, ostats *prog, ostats *func,
                        scratch *sa, scratch *sb) {
    pb_value *a, *b;
    if (sort_site(sa, bs, 1, sa->std_sort, &a) || sort_site(sb, ts, 0, sa->std_sort, &b)) return PB_ENOMEM;
    double sc = 0.0, fsc = 0.0;
    uint32_t i = 0, j = 0;
    while (i < bs->num_values && j < ts->num_values) {
        if (a[i].value == b[j].value) {
            sc += score(a[i].count, b[j].count, prog->base.value_counts[kind], prog->test.value_counts[kind]);
            fsc += score(a[i].count, b[j].count, func->base.value_counts[kind], func->test.value_counts[kind]);
            ++i;
        } else if (a[i].value < b[j].value) {
            ++i;
            continue;
        }
        ++j;
    }
    prog->overlap.value_counts[kind] += sc;
    func->overlap.value_counts[kind] += fsc;
    return 0;
}

/* InstrProfRecord::overlap: `base` is Dest, `test` is Other. */
static int overlap_record(const pb_record *base, const pb_record *test, ostats *prog, ostats *func,
                          uint64_t cutoff, scratch *sa, scratch *sb) {
    accumulate(base, &func->base);
    int mismatch = base->num_counters != test->num_counters;
    for (int k = 0; k < NKINDS && !mismatch; k++)
        if (base->num_sites[k] != test->num_sites[k]) mismatch = 1;
    if (mismatch) {
        add_fraction(&prog->mismatch, &func->test, &prog->test);
        return 0;
    }
    for (int k = 0; k < NKINDS; k++)
        for (uint32_t s = 0; s < base->num_sites[k]; s++)
            if (overlap_site(&base->sites[k][s], &test->sites[k][s], k, prog, func, sa, sb)) return PB_ENOMEM;
    double sc = 0.0;
    uint64_t max = 0;
    for (uint32_t i = 0; i < test->num_counters; i++) {
        sc += score(base->counters[i], test->counters[i], prog->base.count_sum, prog->test.count_sum);
        if (test->counters[i] > max) max = test->counters[i];
    }
    prog->overlap.count_sum += sc;
    prog->overlap.num_entries += 1;
    if (max >= cutoff) {
        double fs = 0.0;
        for (uint32_t i = 0; i < test->num_counters; i++)
            fs += score(base->counters[i], test->counters[i], func->base.count_sum, func->test.count_sum);
        func->overlap.count_sum = fs;
        func->overlap.num_entries = test->num_counters;
        func->valid = 1;
    }
    return 0;
}

static const char *const kind_names[NKINDS] = {"IndirectCall", "MemOP", "VTable"};

/* `"KEY": {"overlap_percent", ...}`: one kind's numbers of OverlapStats::dump
 * as JSON, every one of them (the text leaves out the zero ones). */
static void json_kind(pb_buf *b, const ostats *s, int k) {
    const double *v[5] = {&s->overlap.count_sum, &s->mismatch.count_sum, &s->unique.count_sum, &s->base.count_sum,
                          &s->test.count_sum};
    if (k >= 0) {
        v[0] = &s->overlap.value_counts[k], v[1] = &s->mismatch.value_counts[k], v[2] = &s->unique.value_counts[k];
        v[3] = &s->base.value_counts[k], v[4] = &s->test.value_counts[k];
    }
    pbu_buf_printf(b,
                   "\"overlap_percent\": %.3f, \"mismatch_percent\": %.3f, \"only_in_test_percent\": %.3f, "
                   "\"base_sum\": %.0f, \"test_sum\": %.0f",
                   *v[0] * 100, *v[1] * 100, *v[2] * 100, *v[3], *v[4]);
}

/* OverlapStats::dump as JSON (the same numbers as the text, with 3 decimals
 * for percentages as it prints them): a function's object, or the program's. */
static void dump_json(pb_buf *b, const ostats *s, const char *name, size_t name_len, uint64_t hash, int first) {
    if (name) {
        pbu_buf_puts(b, first ? "\n  {" : ",\n  {");
        pbu_json_put_text_member(b, "name", name, name_len, PBU_JSON_HEX_SUFFIX);
        pbu_buf_printf(b, ", \"hash\": %llu, \"edge_counters\"", (unsigned long long)hash);
    } else {
        pbu_buf_puts(b, "\"functions\"");
    }
    pbu_buf_printf(b, ": {\"overlap\": %llu, \"mismatch\": %llu, \"only_in_test\": %llu}, \"edge\": {",
                   (unsigned long long)s->overlap.num_entries, (unsigned long long)s->mismatch.num_entries,
                   (unsigned long long)s->unique.num_entries);
    json_kind(b, s, -1);
    pbu_buf_puts(b, "}, \"values\": [");
    int any = 0;
    for (int k = 0; k < NKINDS; k++) {
        if (s->base.value_counts[k] < 1.0 && s->test.value_counts[k] < 1.0) continue;
        pbu_buf_printf(b, "%s{\"kind\": \"%s\", ", any ? ", " : "", kind_names[k]);
        json_kind(b, s, k);
        pbu_buf_putc(b, '}');
        any = 1;
    }
    pbu_buf_puts(b, "]}");
}

/* OverlapStats::dump. name == NULL: program level. */
static void dump(pb_buf *b, const ostats *s, const pb_overlap_options *o, const pbi_llvm_target *t,
                 const char *name, size_t name_len, uint64_t hash) {
    if (!s->valid) return;
    const char *what = name ? "edge counters" : "functions";
    if (!name) {
        /* LLVM 22 fixed the heading's spelling (PBI_LF_OVERLAP_INFORMATION) */
        pbu_buf_printf(b, "Profile overlap %s for base_profile: %s and test_profile: %s\nProgram level:\n",
                       pbi_llvm_has(t, PBI_LF_OVERLAP_INFORMATION) ? "information" : "infomation",
                       o->base_name ? o->base_name : "", o->test_name ? o->test_name : "");
    } else {
        pbu_buf_puts(b, "Function level:\n  Function: ");
        pbu_buf_append(b, name, name_len);
        pbu_buf_printf(b, " (Hash=%llu)\n", (unsigned long long)hash);
    }
    pbu_buf_printf(b, "  # of %s overlap: %llu\n", what, (unsigned long long)s->overlap.num_entries);
    if (s->mismatch.num_entries)
        pbu_buf_printf(b, "  # of %s mismatch: %llu\n", what, (unsigned long long)s->mismatch.num_entries);
    if (s->unique.num_entries)
        pbu_buf_printf(b, "  # of %s only in test_profile: %llu\n", what, (unsigned long long)s->unique.num_entries);
    pbu_buf_printf(b, "  Edge profile overlap: %.3f%%\n", s->overlap.count_sum * 100);
    if (s->mismatch.num_entries)
        pbu_buf_printf(b, "  Mismatched count percentage (Edge): %.3f%%\n", s->mismatch.count_sum * 100);
    if (s->unique.num_entries)
        pbu_buf_printf(b, "  Percentage of Edge profile only in test_profile: %.3f%%\n", s->unique.count_sum * 100);
    pbu_buf_printf(b, "  Edge profile base count sum: %.0f\n  Edge profile test count sum: %.0f\n", s->base.count_sum,
                   s->test.count_sum);
    for (int k = 0; k < NKINDS; k++) {
        if (s->base.value_counts[k] < 1.0 && s->test.value_counts[k] < 1.0) continue;
        const char *kn = kind_names[k];
        pbu_buf_printf(b, "  %s profile overlap: %.3f%%\n", kn, s->overlap.value_counts[k] * 100);
        if (s->mismatch.num_entries)
            pbu_buf_printf(b, "  Mismatched count percentage (%s): %.3f%%\n", kn, s->mismatch.value_counts[k] * 100);
        if (s->unique.num_entries)
            pbu_buf_printf(b, "  Percentage of %s profile only in test_profile: %.3f%%\n", kn,
                           s->unique.value_counts[k] * 100);
        pbu_buf_printf(b, "  %s profile base count sum: %.0f\n  %s profile test count sum: %.0f\n", kn,
                       s->base.value_counts[k], kn, s->test.value_counts[k]);
    }
}

/* InstrProfReader::accumulateCounts: IR-level profiles count only records
 * whose CS bit (hash bit 60) matches --cs; front-end profiles count all. */
static int profile_sums(const pb_profile *p, int cs, sums *s, pb_error *err) {
    int ir = (pb_profile_flags(p) & PB_VARIANT_IR) != 0;
    uint64_t nfuncs = 0;
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (ir) {
            const char *name;
            size_t len;
            uint64_t hash;
            int rc = pb_profile_record_name(p, r, &name, &len, &hash, err);
            if (rc) return rc;
            if (((hash & PB_HASH_CS_BIT) != 0) != (cs != 0)) continue;
        }
        accumulate(r, s);
        nfuncs++;
    }
    s->num_entries = nfuncs;
    return 0;
}

static int flush(pb_buf *b, pb_sink *out, pb_error *err) {
    if (b->failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int rc = b->len ? pb_sink_write(out, b->data, b->len, err) : 0;
    pbu_buf_reset(b);
    return rc;
}

/* Finds the base record with this name and hash: *found = 1 and *idx; or
 * *found = 0 with *name_known saying whether any record has the name. */
static int find_base(const pb_profile *base, const char *name, size_t len, uint64_t hash, int *name_known,
                     size_t *idx, pb_error *err) {
    /* log n however many records share the name (60k of one name: 51 s when
     * each lookup walked them all) */
    if (pbi_profile_find_name_hash(base, name, len, hash, idx, name_known))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return 0;
}

/* A plain substring search (StringRef::contains) over bytes. */
static int contains(const char *hay, size_t n, const char *needle) {
    size_t m = strlen(needle);
    if (m == 0) return 1;
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(hay + i, needle, m) == 0) return 1;
    return 0;
}

int pb_profile_overlap(const pb_profile *base, const pb_profile *test, const pb_overlap_options *opts,
                       pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    return pbi_profile_overlap_report(base, test, opts, 0, out, err);
}

/* One overlap report in progress: the inputs, the release that prints it,
 * the program's numbers and the output buffer. */
typedef struct overlap_run {
    const pb_profile *base, *test;
    pb_overlap_options o;
    pbi_llvm_target target; /* the release whose report is printed (where releases differ) */
    int json;
    int first_fn; /* no function object written yet (JSON) */
    ostats prog;
    pb_buf b;
    pb_sink *out;
    scratch sa, sb;
} overlap_run;

/* The options' checks; fills the options and the target of run. */
static int overlap_options(overlap_run *run, const pb_overlap_options *opts, pb_error *err) {
    if (opts && pbu_check_version(err, "pb_overlap_options", opts->version, PB_OVERLAP_OPTIONS_VERSION)) return PB_EINVAL;
    pb_overlap_options o = PB_OVERLAP_OPTIONS_INIT;
    if (opts) o = *opts;
    run->o = o;
    if (pbi_llvm_target_of(o.llvm_release ? o.llvm_release : PBI_LLVM_DEFAULT, &run->target))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release",
                            "expected an LLVM release from %d to %d or 0, found %d", PBI_LLVM_MIN, PBI_LLVM_MAX,
                            o.llvm_release);
    run->sa.std_sort = pbi_llvm_has(&run->target, PBI_LF_VALUE_SORT_UNSTABLE);
    return 0;
}

/* The JSON report's opening members: format, release and the two names. */
static void json_head(overlap_run *run) {
    const pb_overlap_options *o = &run->o;
    pbu_buf_printf(&run->b, "{\"format_version\": \"" PBU_REPORT_OVERLAP "\", \"llvm_release\": %d, ",
                   run->target.release);
    pbu_json_put_text_member(&run->b, "base", o->base_name ? o->base_name : "", o->base_name ? strlen(o->base_name) : 0,
                             PBU_JSON_HEX_SUFFIX);
    pbu_buf_puts(&run->b, ", ");
    pbu_json_put_text_member(&run->b, "test", o->test_name ? o->test_name : "", o->test_name ? strlen(o->test_name) : 0,
                             PBU_JSON_HEX_SUFFIX);
}

/* A profile without counts has no report. overlapInstrProfile writes "Sum
 * of edge counts for profile X is 0." and calls exit(0) before its buffered
 * output stream is flushed, so llvm-profdata up to 23 really prints nothing
 * here; so do we. LLVM 24 prints it (PBI_LF_OVERLAP_ZERO_SUM), base checked
 * first. The JSON form says which profile has no counts. */
static int zero_sum_report(overlap_run *run, pb_error *err) {
    int base_zero = run->prog.base.count_sum < 1.0;
    if (run->json) {
        pbu_buf_printf(&run->b, ", \"zero_sum\": \"%s\", \"functions\": [], \"program\": null}\n",
                       base_zero ? "base" : "test");
        return flush(&run->b, run->out, err);
    }
    if (!pbi_llvm_has(&run->target, PBI_LF_OVERLAP_ZERO_SUM)) return 0;
    const char *n = base_zero ? run->o.base_name : run->o.test_name;
    pbu_buf_printf(&run->b, "Sum of edge counts for profile %s is 0.\n", n ? n : "");
    return flush(&run->b, run->out, err);
}

/* Test record t against the base record of its name and hash: the program's
 * sums, and the function's report when it has one. */
static int overlap_test_record(overlap_run *run, const pb_record *t, pb_error *err) {
    const char *name;
    size_t len;
    uint64_t hash;
    int rc = pb_profile_record_name(run->test, t, &name, &len, &hash, err);
    if (rc) return rc;
    ostats func;
    memset(&func, 0, sizeof func);
    accumulate(t, &func.test);
    int known;
    size_t bi;
    if ((rc = find_base(run->base, name, len, hash, &known, &bi, err))) return rc;
    if (!known) {
        add_fraction(&run->prog.unique, &func.test, &run->prog.test);
        return 0;
    }
    if (func.test.count_sum < 1.0) {
        run->prog.overlap.num_entries += 1;
        return 0;
    }
    if (bi == SIZE_MAX) {
        /* LLVM inserts an empty record under the new hash here; a later
         * test record with that key then mismatches too (0 counters vs n),
         * which is what this branch gives it anyway. */
        add_fraction(&run->prog.mismatch, &func.test, &run->prog.test);
        return 0;
    }
    uint64_t cutoff = run->o.value_cutoff;
    if (run->o.function && run->o.function[0] && contains(name, len, run->o.function)) cutoff = 0;
    if (overlap_record(pb_profile_record(run->base, bi), t, &run->prog, &func, cutoff, &run->sa, &run->sb))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!run->json) {
        dump(&run->b, &func, &run->o, &run->target, name, len, hash);
    } else if (func.valid) {
        dump_json(&run->b, &func, name, len, hash, run->first_fn);
        run->first_fn = 0;
    }
    return run->b.len > 65536 ? flush(&run->b, run->out, err) : 0;
}

/* The function reports, then the program's. */
static int overlap_functions(overlap_run *run, pb_error *err) {
    int rc = 0;
    run->prog.valid = 1;
    if (run->json) pbu_buf_puts(&run->b, ", \"zero_sum\": null, \"functions\": [");
    for (size_t i = 0; i < pb_profile_record_count(run->test) && !rc; i++)
        rc = overlap_test_record(run, pb_profile_record(run->test, i), err);
    if (rc) return rc;
    if (run->json) {
        pbu_buf_puts(&run->b, "],\n \"program\": {");
        dump_json(&run->b, &run->prog, NULL, 0, 0, 0);
        pbu_buf_puts(&run->b, "}\n");
    } else {
        dump(&run->b, &run->prog, &run->o, &run->target, NULL, 0, 0);
    }
    return flush(&run->b, run->out, err);
}

/* pb_profile_overlap's checks and report, or its JSON form (cmd_overlap's --json). */
int pbi_profile_overlap_report(const pb_profile *base, const pb_profile *test, const pb_overlap_options *opts,
                               int json, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!base) return pbu_null_arg(err, __func__, "base");
    if (!test) return pbu_null_arg(err, __func__, "test");
    if (!out) return pbu_null_arg(err, __func__, "out");
    overlap_run run;
    memset(&run, 0, sizeof run);
    int rc = overlap_options(&run, opts, err);
    if (rc) return rc;
    run.base = base, run.test = test, run.json = json, run.out = out, run.first_fn = 1;
    run.b = (pb_buf)PB_BUF_INIT;
    /* find_base's lookups: out of memory must not read as "not in base" */
    if (pbi_profile_build_lookup(base)) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    rc = profile_sums(base, run.o.cs, &run.prog.base, err);
    if (!rc) rc = profile_sums(test, run.o.cs, &run.prog.test, err);
    if (rc) return rc;
    if (json) json_head(&run);
    if (run.prog.base.count_sum < 1.0 || run.prog.test.count_sum < 1.0) rc = zero_sum_report(&run, err);
    else rc = overlap_functions(&run, err);
    pbu_buf_free(&run.b);
    free(run.sa.ids);
    free(run.sa.sorted);
    free(run.sb.ids);
    free(run.sb.sorted);
    return rc;
}
