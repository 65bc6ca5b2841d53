/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_groups.c -- getInstantiationGroups: the functions defined in a file
 * (it is their main file), grouped by where their first region there
 * starts, groups by line and column, functions in load order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval_internal.h"
#include "util/grow.h"

typedef struct keyed {
    uint32_t line, col;
    size_t fn;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static void name_group(pbi_cov_group *g) {
    for (size_t i = 1; i < g->nfns; i++)
        if (g->fns[i]->name_len != g->fns[0]->name_len ||
            memcmp(g->fns[i]->name, g->fns[0]->name, g->fns[0]->name_len) != 0) {
            snprintf(g->def_name, sizeof g->def_name, "Definition at line %u, column %u", (unsigned)g->line,
                     (unsigned)g->col);
            return;
        }
    g->def_name[0] = '\0';
}

int pbi_cov_groups(const pbi_coverage *c, const char *filename, pbi_cov_group **out, size_t *n, pb_error *err) {
    *out = NULL;
    *n = 0;
    const pbi_cov_file_fns *e = pbi_cov_file_entry(c, filename);
    if (!e) return 0;
    keyed *k = malloc((e->nfns ? e->nfns : 1) * sizeof *k);
    if (!k) return pbu_nomem(err, "instantiation groups");
    size_t nk = 0;
    for (size_t i = 0; i < e->nfns; i++) {
        const pbi_cov_fn *fn = &c->fns[e->fns[i]];
        long main = pbi_cov_main_file_id(fn);
        if (main < 0 || strcmp(fn->filenames[main], filename) != 0) continue;
        for (size_t r = 0; r < fn->nregions; r++)
            if ((long)fn->regions[r].r.file_id == main) {
                k[nk++] = (keyed){fn->regions[r].r.line_start, fn->regions[r].r.col_start, e->fns[i]};
                break;
            }
    }
    qsort(k, nk, sizeof *k, cmp_keyed);
    size_t ngroups = 0;
    for (size_t i = 0; i < nk; i++)
        if (i == 0 || k[i].line != k[i - 1].line || k[i].col != k[i - 1].col) ngroups++;
    pbi_cov_group *g = calloc(ngroups ? ngroups : 1, sizeof *g);
    if (!g) {
        free(k);
        return pbu_nomem(err, "instantiation groups");
    }
    size_t gi = 0;
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && k[j].line == k[i].line && k[j].col == k[i].col) j++;
        g[gi].line = k[i].line;
        g[gi].col = k[i].col;
        g[gi].fns = malloc((j - i) * sizeof g[gi].fns[0]);
        if (!g[gi].fns) {
            for (size_t x = 0; x < gi; x++) free(g[x].fns);
            free(g);
            free(k);
            return pbu_nomem(err, "instantiation groups");
        }
        for (size_t x = i; x < j; x++) g[gi].fns[g[gi].nfns++] = &c->fns[k[x].fn];
        name_group(&g[gi]);
        gi++;
        i = j;
    }
    free(k);
    *out = g;
    *n = ngroups;
    return 0;
}
