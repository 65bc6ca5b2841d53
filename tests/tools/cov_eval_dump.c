/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_eval_dump.c -- a test driver for the evaluator on real programs:
 * reads the binaries' coverage sections (pbi_cov_read) and the indexed
 * profile (pb_read_file), evaluates them by release N's rules and prints
 * the files' segments, branches, MC/DC records and summaries and the
 * functions' counts, regions and branches in the shape of `llvm-cov-N
 * export`, for tests/tools/cov_eval_compare.py to set beside the real
 * tool's output.
 *
 *   cov_eval_dump RELEASE PROFILE.profdata BINARY...
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval.h"
#include "profbridge/format.h"
#include "profbridge/profile.h"

static void print_str(const char *s) {
    json_t *j = json_string(s);
    char *t = json_dumps(j, JSON_ENCODE_ANY);
    fputs(t ? t : "\"\"", stdout);
    free(t);
    json_decref(j);
}

static void print_region(const pbi_cov_counted_region *r) {
    printf("[%u,%u,%u,%u,%llu,%u,%u,%u]", r->r.line_start, r->r.col_start, r->r.line_end, r->r.col_end,
           (unsigned long long)r->count, r->r.file_id, r->r.expanded_file_id, r->r.kind);
}

static void print_branch(const pbi_cov_counted_branch *r) {
    printf("[%u,%u,%u,%u,%llu,%llu,%u,%u,%u]", r->r.line_start, r->r.col_start, r->r.line_end, r->r.col_end,
           (unsigned long long)r->count, (unsigned long long)r->false_count, r->r.file_id, r->r.expanded_file_id,
           r->r.kind);
}

/* export prints a function's branches but the folded ones (both sides folded). */
static void print_branches(const pbi_cov_counted_branch *b, size_t n, int filter) {
    printf("[");
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (filter && b[i].folded) continue;
        printf("%s", first ? "" : ",");
        print_branch(&b[i]);
        first = 0;
    }
    printf("]");
}

static void print_mcdc(const pbi_cov_mcdc_record *m) {
    const pbi_cov_place *d = &m->decision.r;
    printf("{\"loc\":[%u,%u,%u,%u,%u],\"conditions\":[", d->line_start, d->col_start, d->line_end, d->col_end,
           d->file_id);
    for (size_t k = 0; k < m->nconds; k++) printf("%s%s", k ? "," : "", m->covered[k] ? "true" : "false");
    size_t ntrue = 0;
    printf("],\"test_vectors\":[");
    for (size_t t = 0; t < m->ntv; t++) {
        ntrue += m->tv_result[t];
        printf("%s{\"conditions\":[", t ? "," : "");
        for (size_t k = 0; k < m->nconds; k++) {
            int8_t v = m->tv[t * m->nconds + k];
            printf("%s%s", k ? "," : "", v < 0 ? "null" : v ? "true" : "false");
        }
        printf("],\"executed\":%s,\"result\":%s}", m->tv_executed[t] ? "true" : "false",
               m->tv_result[t] ? "true" : "false");
    }
    printf("],\"decisions\":[%zu,%zu]}", ntrue, m->ntv - ntrue);
}

static void print_ratio(const char *k, pbi_cov_ratio r, int last) {
    printf("\"%s\":{\"count\":%llu,\"covered\":%llu}%s", k, (unsigned long long)r.total,
           (unsigned long long)r.covered, last ? "" : ",");
}

static int print_file(const pbi_coverage *c, const char *fname, pb_error *err) {
    pbi_cov_data d;
    if (pbi_cov_for_file(c, fname, &d, err)) return 1;
    printf("\n{\"filename\":");
    print_str(fname);
    printf(",\"segments\":[");
    for (size_t i = 0; i < d.nsegments; i++) {
        const pbi_cov_segment *g = &d.segments[i];
        printf("%s[%u,%u,%llu,%s,%s,%s]", i ? "," : "", g->line, g->col, (unsigned long long)g->count,
               g->has_count ? "true" : "false", g->is_region_entry ? "true" : "false", g->is_gap ? "true" : "false");
    }
    printf("],\"branches\":");
    print_branches(d.branches, d.nbranches, 0);
    printf(",\"mcdc_records\":[");
    for (size_t i = 0; i < d.nmcdc; i++) {
        printf("%s", i ? "," : "");
        print_mcdc(d.mcdc[i]);
    }
    printf("],\"lines\":[");
    pbi_cov_line *ls;
    size_t nl;
    if (pbi_cov_lines(&d, &ls, &nl, err)) return 1;
    int first = 1;
    for (size_t i = 0; i < nl; i++) {
        if (!ls[i].mapped) continue;
        printf("%s[%u,%llu]", first ? "" : ",", ls[i].line, (unsigned long long)ls[i].count);
        first = 0;
    }
    free(ls);
    printf("]");
    pbi_cov_data_free(&d);
    pbi_cov_file_summary fs;
    if (pbi_cov_file_summarize(c, fname, NULL, NULL, &fs, err)) return 1;
    pbi_cov_ratio regions = fs.regions, lines = fs.lines, branches = fs.branches, mcdc = fs.mcdc,
                  funcs = fs.functions, inst = fs.instantiations;
    printf(",\"summary\":{");
    print_ratio("branches", branches, 0);
    print_ratio("functions", funcs, 0);
    print_ratio("instantiations", inst, 0);
    print_ratio("lines", lines, 0);
    print_ratio("mcdc", mcdc, 0);
    print_ratio("regions", regions, 1);
    printf("}}");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: cov_eval_dump RELEASE PROFILE.profdata BINARY...\n");
        return 2;
    }
    pbi_llvm_target t;
    if (pbi_llvm_target_of(atoi(argv[1]), &t)) return 2;
    pb_error err;
    pb_error_clear(&err);
    pb_profile *prof;
    if (pb_read_file(&prof, argv[2], NULL, &err)) {
        fprintf(stderr, "%s: %s\n", argv[2], err.message);
        return 2;
    }
    pbi_cov_mapping m;
    pbi_cov_read_options ro;
    memset(&ro, 0, sizeof ro);
    ro.t = &t;
    if (pbi_cov_read(&m, (const char *const *)&argv[3], (size_t)(argc - 3), &ro, &err)) {
        fprintf(stderr, "read: %s\n", err.message);
        return 2;
    }
    pbi_cov_eval_options o = {&t, 0, NULL};
    pbi_coverage *c;
    if (pbi_cov_eval(&m, prof, &o, &c, &err)) {
        fprintf(stderr, "eval: %s\n", err.message);
        return 1;
    }
    printf("{\"files\":[");
    for (size_t fi = 0; fi < pbi_cov_file_count(c); fi++) {
        if (fi) printf(",");
        if (print_file(c, pbi_cov_file_at(c, fi), &err)) {
            fprintf(stderr, "file: %s\n", err.message);
            return 1;
        }
    }
    printf("],\n\"functions\":[");
    for (size_t i = 0; i < pbi_cov_fn_count(c); i++) {
        const pbi_cov_fn *f = pbi_cov_fn_at(c, i);
        printf("%s\n{\"name\":", i ? "," : "");
        print_str(f->name);
        printf(",\"count\":%llu,\"regions\":[", (unsigned long long)f->count);
        for (size_t k = 0; k < f->nregions; k++) {
            printf("%s", k ? "," : "");
            print_region(&f->regions[k]);
        }
        printf("],\"branches\":");
        print_branches(f->branches, f->nbranches, 1);
        printf(",\"filenames\":[");
        for (size_t k = 0; k < f->nfilenames; k++) {
            printf("%s", k ? "," : "");
            print_str(f->filenames[k]);
        }
        printf("]}");
    }
    printf("],\n\"mismatched\":%zu}\n", pbi_cov_mismatch_count(c));
    pbi_coverage_free(c);
    pbi_cov_mapping_free(&m);
    pb_profile_free(prof);
    return 0;
}
