/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_check.c -- consistency check: every rule a writer relies on
 * (references in range, NameRefs matching names, counter shapes of the Java
 * kinds, unique keys). Comparison by content is profile_equal.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jname.h"
#include "model/profile_internal.h"
#include "model/profile_records.h"

typedef struct checker {
    const pb_profile *p;
    pb_diag_fn diag;
    void *ctx;
    size_t problems;
} checker;

static void problem(checker *c, const char *path, const char *fmt, ...) PB_PRINTF(3, 4);
static void problem(checker *c, const char *path, const char *fmt, ...) {
    c->problems++;
    if (!c->diag) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pb_diag(c->diag, c->ctx, PB_DIAG_ERROR, PB_EFORMAT, "<profile>", PB_NO_OFFSET, path, "%s", msg);
}

/* 1 if c equals the sum of v[0..n) saturated at any of the model's
 * saturation points (readers and merges may have used any of them). */
static int is_saturated_sum(uint64_t c, const uint64_t *v, size_t n, size_t stride) {
    static const uint64_t maxes[3] = {PB_MAX_COUNT_LLVM14, PB_MAX_COUNT_LLVM, PB_MAX_COUNT_IPROF};
    for (int m = 0; m < 3; m++) {
        uint64_t s = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = v[i * stride];
            s = (s > maxes[m] - (x > maxes[m] ? maxes[m] : x)) ? maxes[m] : s + x;
            if (s > maxes[m]) s = maxes[m];
        }
        if (s == c) return 1;
    }
    return 0;
}

static void check_tables(checker *c) {
    const pb_profile *p = c->p;
    char path[64];
    for (uint32_t i = 0; i < p->sym_keys.count; i++) {
        const pb_symbol *s = &p->syms[i];
        snprintf(path, sizeof path, "symbols[%u]", (unsigned)i);
        if (s->placeholder) continue;
        if (s->name >= p->strs.count) {
            problem(c, path, "names string %u of %u", (unsigned)s->name, (unsigned)p->strs.count);
            continue;
        }
        size_t n;
        const char *t = pb_profile_str(p, s->name, &n);
        if (pb_md5_ref(t, n) != s->md5) problem(c, path, "NameRef does not match the name");
    }
    for (uint32_t i = 0; i < p->meth_keys.count; i++) {
        const pb_method *m = &p->meths[i];
        snprintf(path, sizeof path, "methods[%u]", (unsigned)i);
        if (m->placeholder) continue;
        if (m->name >= p->strs.count) problem(c, path, "names a missing string");
        for (uint32_t j = 0; j < m->num_sig; j++)
            if (m->sig[j] >= p->sym_keys.count)
                problem(c, path, "signature element %u names symbol %u of %u", (unsigned)j,
                        (unsigned)m->sig[j], (unsigned)p->sym_keys.count);
    }
    for (uint32_t i = 0; i < p->ctxs.count; i++) {
        size_t n;
        const pb_frame *f = pb_profile_context(p, i, &n);
        snprintf(path, sizeof path, "contexts[%u]", (unsigned)i);
        if (n == 0) problem(c, path, "has no frames");
        for (size_t j = 0; j < n; j++)
            if (f[j].method >= p->meth_keys.count)
                problem(c, path, "frame %zu names method %u of %u", j, (unsigned)f[j].method,
                        (unsigned)p->meth_keys.count);
    }
}

/* What a record's kind says it refers to: a name, a context, or neither. */
static void check_refs(checker *c, const pb_record *r, const char *path) {
    const pb_profile *p = c->p;
    if (r->kind == PB_REC_FUNCTION) {
        if (r->name >= p->strs.count) problem(c, path, "function names a missing string");
    } else if (r->kind == PB_REC_JAVA_MONITOR) {
        if (r->ctx != PB_NONE) problem(c, path, "Java monitor record has a context");
    } else if (r->ctx >= p->ctxs.count) {
        problem(c, path, "Java record names context %u of %u", (unsigned)r->ctx,
                (unsigned)p->ctxs.count);
    }
}

/* A value naming a symbol carries that symbol's NameRef. */
static void check_value_symbols(checker *c, const pb_record *r, const char *path) {
    const pb_profile *p = c->p;
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t s = 0; s < r->num_sites[k]; s++)
            for (uint32_t v = 0; v < r->sites[k][s].num_values; v++) {
                const pb_value *val = &r->sites[k][s].values[v];
                if (val->symbol == PB_NONE) continue;
                if (val->symbol >= p->sym_keys.count)
                    problem(c, path, "value names symbol %u of %u", (unsigned)val->symbol,
                            (unsigned)p->sym_keys.count);
                else if (p->syms[val->symbol].md5 != val->value)
                    problem(c, path, "value 0x%016llx differs from its symbol's NameRef 0x%016llx",
                            (unsigned long long)val->value,
                            (unsigned long long)p->syms[val->symbol].md5);
            }
}

/* A Java branch: one counter per successor of its layout, counter 0 their sum. */
static void check_java_branch(checker *c, const pb_record *r, const char *path) {
    const pb_profile *p = c->p;
    size_t nl;
    if (r->layout >= p->ints.count) {
        problem(c, path, "Java branch record names layout %u of %u", (unsigned)r->layout,
                (unsigned)p->ints.count);
        return;
    }
    (void)pb_profile_ints(p, r->layout, &nl);
    if (nl % 2) problem(c, path, "Java branch layout has an odd number (%zu) of ints", nl);
    if ((uint64_t)r->num_counters != 1 + (uint64_t)nl / 2) {
        problem(c, path, "Java branch record has %u counters, its %zu successors need %zu",
                (unsigned)r->num_counters, nl / 2, 1 + nl / 2);
        return;
    }
    if (!is_saturated_sum(r->counters[0], r->counters + 1, r->num_counters - 1, 1))
        problem(c, path, "Java branch counter 0 (%llu) is not the sum of the successor counters",
                (unsigned long long)r->counters[0]);
}

/* A Java type histogram: one counter, the sum of its kind-2 type counts. */
static void check_type_histogram(checker *c, const pb_record *r, const char *path) {
    if (r->num_counters != 1)
        problem(c, path, "Java type-histogram record has %u counters, expected 1",
                (unsigned)r->num_counters);
    if (r->num_sites[PB_VK_INDIRECT_CALL] || r->num_sites[PB_VK_MEMOP_SIZE])
        problem(c, path, "Java type-histogram record has value sites of kind 0 or 1");
    /* Sum over every kind-2 site (more than 255 types need several). */
    size_t n = 0;
    for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++) n += r->sites[PB_VK_VTABLE][s].num_values;
    uint64_t *counts = malloc((n ? n : 1) * sizeof *counts);
    if (!counts) {
        /* not a problem of the profile: PB_ENOMEM, so that validate
         * says "out of memory" (exit 2) and not "invalid" (exit 1) */
        c->problems++;
        if (c->diag)
            pb_diag(c->diag, c->ctx, PB_DIAG_ERROR, PB_ENOMEM, "<profile>", PB_NO_OFFSET, path,
                    "out of memory while checking");
        return;
    }
    size_t k = 0;
    for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++)
        for (uint32_t v = 0; v < r->sites[PB_VK_VTABLE][s].num_values; v++)
            counts[k++] = r->sites[PB_VK_VTABLE][s].values[v].count;
    if (!is_saturated_sum(r->counters[0], counts, n, 1))
        problem(c, path, "Java type-histogram counter (%llu) is not the sum of its type counts",
                (unsigned long long)r->counters[0]);
    free(counts);
}

static void check_record(checker *c, size_t i) {
    const pb_record *r = &c->p->recs[i];
    char path[48];
    snprintf(path, sizeof path, "records[%zu]", i);
    if (r->kind >= PB_REC_KIND_COUNT) {
        problem(c, path, "unknown kind %u", (unsigned)r->kind);
        return;
    }
    if (r->num_counters == 0 || !r->counters) problem(c, path, "has no counters");
    check_refs(c, r, path);
    check_value_symbols(c, r, path);
    if (r->num_counters == 0 || !r->counters) return;
    switch (r->kind) {
    case PB_REC_JAVA_BRANCH: check_java_branch(c, r, path); break;
    case PB_REC_JAVA_CALL_COUNT:
    case PB_REC_JAVA_SAMPLE:
        if (r->num_counters != 1)
            problem(c, path, "Java call/sample record has %u counters, expected 1", (unsigned)r->num_counters);
        break;
    case PB_REC_JAVA_VIRTUAL_INVOKE:
    case PB_REC_JAVA_INSTANCEOF:
    case PB_REC_JAVA_MONITOR: check_type_histogram(c, r, path); break;
    default: break;
    }
    if (r->kind != PB_REC_JAVA_BRANCH && r->kind != PB_REC_FUNCTION && r->layout != PB_NONE)
        problem(c, path, "only Java branch records have a layout");
}

size_t pb_profile_check(const pb_profile *p, pb_diag_fn diag, void *diag_ctx) {
    checker c = {p, diag, diag_ctx, 0};
    check_tables(&c);
    for (size_t i = 0; i < p->num_recs; i++) check_record(&c, i);
    /* Repeated keys: the key index finds the first record of a key. */
    for (size_t i = 0; i < p->num_recs; i++) {
        size_t j = pbi_find_record(p, &p->recs[i]);
        if (j != i) {
            char path[48];
            snprintf(path, sizeof path, "records[%zu]", i);
            if (j == SIZE_MAX)
                problem(&c, path, "its key is missing from the key index (changed in place?)");
            else
                problem(&c, path, "repeats the key of records[%zu]", j);
        }
    }
    return c.problems;
}
