/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_eval_json.c -- a test driver for the evaluator without the reader:
 * it takes what `llvm-cov-N export` printed for a program (each
 * function's filenames and counted regions and branches), rebuilds a
 * mapping whose every region counts with a counter of its own and a
 * profile that holds those counts, runs pbi_cov_eval, and prints the
 * files' segments, branches and summaries in export's shape, for
 * tests/tools/cov_eval_compare.py to set beside export's own.
 *
 *   cov_eval_json RELEASE EXPORT.json
 *
 * Folded branches cannot be seen in export's numbers: a branch whose two
 * counts are 0 is rebuilt unfolded unless -folded-zero is given.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval.h"
#include "profbridge/profile.h"

static uint64_t num(json_t *a, size_t i) { return (uint64_t)json_integer_value(json_array_get(a, i)); }

static pbi_cov_region region_of(json_t *r, int branch, uint32_t *next_counter, uint64_t *counts, int folded_zero) {
    pbi_cov_region x;
    memset(&x, 0, sizeof x);
    x.line_start = (uint32_t)num(r, 0);
    x.col_start = (uint32_t)num(r, 1);
    x.line_end = (uint32_t)num(r, 2);
    x.col_end = (uint32_t)num(r, 3);
    size_t base = branch ? 6 : 5;
    x.file_id = (uint32_t)num(r, base);
    x.expanded_file_id = (uint32_t)num(r, base + 1);
    x.kind = (uint8_t)num(r, base + 2);
    uint64_t c = num(r, 4), fc = branch ? num(r, 5) : 0;
    if (branch && folded_zero && c == 0 && fc == 0) return x;
    x.count = (pbi_cov_counter){PBI_COV_REF, *next_counter};
    counts[(*next_counter)++] = c;
    if (branch) {
        x.false_count = (pbi_cov_counter){PBI_COV_REF, *next_counter};
        counts[(*next_counter)++] = fc;
    }
    return x;
}

static void print_ratio(const char *k, pbi_cov_ratio r, int last) {
    printf("\"%s\":{\"count\":%llu,\"covered\":%llu}%s", k, (unsigned long long)r.total,
           (unsigned long long)r.covered, last ? "" : ",");
}

int main(int argc, char **argv) {
    int folded_zero = argc > 3 && strcmp(argv[3], "-folded-zero") == 0;
    if (argc < 3) {
        fprintf(stderr, "usage: cov_eval_json RELEASE EXPORT.json [-folded-zero]\n");
        return 2;
    }
    pbi_llvm_target t;
    if (pbi_llvm_target_of(atoi(argv[1]), &t)) return 2;
    json_error_t je;
    json_t *root = json_load_file(argv[2], 0, &je);
    if (!root) {
        fprintf(stderr, "%s: %s\n", argv[2], je.text);
        return 2;
    }
    json_t *fns = json_object_get(json_array_get(json_object_get(root, "data"), 0), "functions");
    size_t nf = json_array_size(fns);
    pbi_cov_mapping m;
    memset(&m, 0, sizeof m);
    m.functions = calloc(nf ? nf : 1, sizeof *m.functions);
    m.nfunctions = nf;
    pb_profile *prof;
    pb_error err;
    pb_error_clear(&err);
    if (pb_profile_new(&prof, &err)) return 2;
    for (size_t i = 0; i < nf; i++) {
        json_t *f = json_array_get(fns, i);
        json_t *regs = json_object_get(f, "regions"), *brs = json_object_get(f, "branches");
        json_t *files = json_object_get(f, "filenames");
        pbi_cov_function *g = &m.functions[i];
        const char *name = json_string_value(json_object_get(f, "name"));
        g->name = name;
        g->name_len = strlen(name);
        g->hash = i + 1;
        g->nfilenames = json_array_size(files);
        g->filenames = calloc(g->nfilenames + 1, sizeof(char *));
        for (size_t k = 0; k < g->nfilenames; k++) g->filenames[k] = json_string_value(json_array_get(files, k));
        size_t nr = json_array_size(regs), nb = json_array_size(brs);
        g->regions = calloc(nr + nb + 1, sizeof *g->regions);
        uint64_t *counts = calloc(nr + 2 * nb + 1, sizeof *counts);
        uint32_t nc = 0;
        for (size_t k = 0; k < nr; k++) g->regions[g->nregions++] = region_of(json_array_get(regs, k), 0, &nc, counts, 0);
        for (size_t k = 0; k < nb; k++)
            g->regions[g->nregions++] = region_of(json_array_get(brs, k), 1, &nc, counts, folded_zero);
        pb_str s;
        if (pb_profile_intern(prof, name, g->name_len, &s, &err)) return 2;
        pb_record rec;
        memset(&rec, 0, sizeof rec);
        rec.kind = PB_REC_FUNCTION;
        rec.name = s;
        rec.ctx = PB_NONE;
        rec.layout = PB_NONE;
        rec.hash = g->hash;
        rec.num_counters = nc ? nc : 1;
        rec.counters = counts;
        if (pb_profile_add_record(prof, &rec, NULL, &err)) {
            fprintf(stderr, "record %s: %s\n", name, err.message);
            return 2;
        }
        free(counts);
    }
    pbi_cov_eval_options o = {&t, 0, NULL};
    pbi_coverage *c;
    if (pbi_cov_eval(&m, prof, &o, &c, &err)) {
        fprintf(stderr, "eval: %s\n", err.message);
        return 1;
    }
    printf("{\"files\":[");
    for (size_t fi = 0; fi < pbi_cov_file_count(c); fi++) {
        const char *fname = pbi_cov_file_at(c, fi);
        pbi_cov_data d;
        if (pbi_cov_for_file(c, fname, &d, &err)) return 1;
        printf("%s\n{\"filename\":", fi ? "," : "");
        json_t *js = json_string(fname);
        char *s = json_dumps(js, JSON_ENCODE_ANY);
        printf("%s,\"segments\":[", s);
        free(s);
        json_decref(js);
        for (size_t i = 0; i < d.nsegments; i++) {
            const pbi_cov_segment *g = &d.segments[i];
            printf("%s[%u,%u,%llu,%s,%s,%s]", i ? "," : "", g->line, g->col, (unsigned long long)g->count,
                   g->has_count ? "true" : "false", g->is_region_entry ? "true" : "false", g->is_gap ? "true" : "false");
        }
        printf("],\"branches\":[");
        for (size_t i = 0; i < d.nbranches; i++) {
            const pbi_cov_counted_branch *b = &d.branches[i];
            printf("%s[%u,%u,%u,%u,%llu,%llu,%u,%u,%u]", i ? "," : "", b->r.line_start, b->r.col_start, b->r.line_end,
                   b->r.col_end, (unsigned long long)b->count, (unsigned long long)b->false_count, b->r.file_id,
                   b->r.expanded_file_id, b->r.kind);
        }
        pbi_cov_data_free(&d);
        /* CoverageReport::prepareSingleFileReport */
        pbi_cov_group *groups;
        size_t ng;
        if (pbi_cov_groups(c, fname, &groups, &ng, &err)) return 1;
        pbi_cov_ratio regions = {0, 0}, lines = {0, 0}, branches = {0, 0}, mcdc = {0, 0}, funcs = {0, 0},
                      inst = {0, 0};
        for (size_t gi = 0; gi < ng; gi++) {
            for (size_t k = 0; k < groups[gi].nfns; k++) {
                pbi_cov_fn_summary fs;
                if (pbi_cov_fn_summarize(c, groups[gi].fns[k], &fs, &err)) return 1;
                inst.total++;
                inst.covered += fs.count > 0;
            }
            pbi_cov_fn_summary gs;
            if (pbi_cov_group_summarize(c, &groups[gi], &gs, &err)) return 1;
            funcs.total++;
            funcs.covered += gs.count > 0;
            regions.total += gs.regions.total;
            regions.covered += gs.regions.covered;
            lines.total += gs.lines.total;
            lines.covered += gs.lines.covered;
            branches.total += gs.branches.total;
            branches.covered += gs.branches.covered;
            mcdc.total += gs.mcdc.total;
            mcdc.covered += gs.mcdc.covered;
            free(groups[gi].fns);
        }
        free(groups);
        printf("],\"summary\":{");
        print_ratio("branches", branches, 0);
        print_ratio("functions", funcs, 0);
        print_ratio("instantiations", inst, 0);
        print_ratio("lines", lines, 0);
        print_ratio("mcdc", mcdc, 0);
        print_ratio("regions", regions, 1);
        printf("}}");
    }
    printf("]}\n");
    pbi_coverage_free(c);
    for (size_t i = 0; i < nf; i++) {
        free((void *)m.functions[i].filenames);
        free(m.functions[i].regions);
    }
    free(m.functions);
    pb_profile_free(prof);
    json_decref(root);
    return 0;
}
