/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_equal.c -- comparison by content (names, not indices), so two
 * profiles with different table orders compare equal when they say the same.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jname.h"
#include "model/profile_internal.h"

typedef struct cmp_ctx {
    char *why;
    size_t why_len;
} cmp_ctx;

static int differ(cmp_ctx *c, const char *fmt, ...) PB_PRINTF(2, 3);
static int differ(cmp_ctx *c, const char *fmt, ...) {
    if (c->why && c->why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->why_len, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Finds b's symbol with the same content as a's symbol i: 0 or PB_ENOTFOUND. */
static int same_symbol(const pb_profile *a, uint32_t i, const pb_profile *b, uint32_t *out) {
    const pb_symbol *s = &a->syms[i];
    if (s->placeholder) {
        uint32_t key[3] = {PB_NONE, (uint32_t)(uint64_t)s->placeholder_id,
                           (uint32_t)((uint64_t)s->placeholder_id >> 32)};
        return pbu_intern_find(&b->sym_keys, key, sizeof key, out);
    }
    size_t n;
    const char *t = pb_profile_str(a, s->name, &n);
    return pb_profile_find_symbol(b, t, n, out);
}

static void sym_text(const pb_profile *p, uint32_t i, char *buf, size_t n) {
    pb_buf b = PB_BUF_INIT;
    pbi_jname_put_symbol(p, i, &b);
    snprintf(buf, n, "%s", b.data ? b.data : "?");
    pbu_buf_free(&b);
}

static int equal_facts(const pb_profile *a, const pb_profile *b, cmp_ctx *c) {
    if (a->flags != b->flags)
        return differ(c, "flags differ: 0x%016llx vs 0x%016llx", (unsigned long long)a->flags,
                      (unsigned long long)b->flags);
    if (a->num_props != b->num_props)
        return differ(c, "property counts differ: %zu vs %zu", a->num_props, b->num_props);
    for (size_t i = 0; i < a->num_props; i++) {
        size_t len;
        const char *v = pb_profile_prop(b, a->props[i].key, &len);
        if (!v || len != a->props[i].len || memcmp(v, a->props[i].value, len) != 0)
            return differ(c, "property %s differs", a->props[i].key);
    }
    if (a->num_bids != b->num_bids)
        return differ(c, "binary id counts differ: %zu vs %zu", a->num_bids, b->num_bids);
    for (size_t i = 0; i < a->num_bids; i++) {
        size_t j = 0;
        while (j < b->num_bids && (b->bids[j].len != a->bids[i].len ||
                                   memcmp(b->bids[j].data, a->bids[i].data, a->bids[i].len) != 0))
            j++;
        if (j == b->num_bids) return differ(c, "binary id %zu of the first profile is missing", i);
    }
    if (a->num_traces != b->num_traces)
        return differ(c, "trace counts differ: %zu vs %zu", a->num_traces, b->num_traces);
    if (a->trace_stream_size != b->trace_stream_size)
        return differ(c, "trace stream sizes differ: %llu vs %llu",
                      (unsigned long long)a->trace_stream_size, (unsigned long long)b->trace_stream_size);
    for (size_t i = 0; i < a->num_traces; i++) {
        const pbi_trace *x = &a->traces[i], *y = &b->traces[i];
        if (x->weight != y->weight || x->n != y->n ||
            (x->n && memcmp(x->refs, y->refs, x->n * sizeof *x->refs) != 0))
            return differ(c, "trace %zu differs", i);
    }
    return 1;
}

static int equal_tables(const pb_profile *a, const pb_profile *b, cmp_ctx *c) {
    char t[200];
    if (a->sym_keys.count != b->sym_keys.count)
        return differ(c, "symbol counts differ: %u vs %u", (unsigned)a->sym_keys.count,
                      (unsigned)b->sym_keys.count);
    for (uint32_t i = 0; i < a->sym_keys.count; i++) {
        uint32_t j;
        if (same_symbol(a, i, b, &j)) {
            sym_text(a, i, t, sizeof t);
            return differ(c, "symbol %s is missing from the second profile", t);
        }
    }
    if (a->meth_keys.count != b->meth_keys.count)
        return differ(c, "method counts differ: %u vs %u", (unsigned)a->meth_keys.count,
                      (unsigned)b->meth_keys.count);
    /* Methods compare by rendered descriptor (one spelling per method). */
    pbu_intern set = PBU_INTERN_INIT;
    int ok = 1;
    for (uint32_t i = 0; i < b->meth_keys.count && ok; i++) {
        const char *d;
        size_t n;
        uint32_t id;
        if (pbi_jname_method_desc(b, i, &d, &n) || pbu_intern_add(&set, d, n, &id, NULL))
            ok = differ(c, "out of memory while comparing methods");
    }
    for (uint32_t i = 0; i < a->meth_keys.count && ok; i++) {
        const char *d;
        size_t n;
        uint32_t id;
        if (pbi_jname_method_desc(a, i, &d, &n))
            ok = differ(c, "out of memory while comparing methods");
        else if (pbu_intern_find(&set, d, n, &id))
            ok = differ(c, "method %.*s is missing from the second profile", n > 200 ? 200 : (int)n, d);
    }
    pbu_intern_free(&set);
    return ok;
}

static int same_value_symbol(const pb_profile *a, uint32_t sa, const pb_profile *b, uint32_t sb) {
    if (sa == PB_NONE || sb == PB_NONE) return sa == sb;
    if (sa >= a->sym_keys.count || sb >= b->sym_keys.count) return 0;
    uint32_t j;
    return same_symbol(a, sa, b, &j) == 0 && j == sb;
}

static int equal_record(const pb_profile *a, const pb_record *x, const pb_profile *b,
                        const pb_record *y, const char *name, size_t nl, cmp_ctx *c) {
    int n = nl > 200 ? 200 : (int)nl;
    if (x->kind != y->kind) return differ(c, "record %.*s: kinds differ: %u vs %u", n, name, x->kind, y->kind);
    if (x->num_counters != y->num_counters)
        return differ(c, "record %.*s: counter counts differ: %u vs %u", n, name,
                      (unsigned)x->num_counters, (unsigned)y->num_counters);
    for (uint32_t i = 0; i < x->num_counters; i++)
        if (x->counters[i] != y->counters[i])
            return differ(c, "record %.*s: counter %u differs: %llu vs %llu", n, name, (unsigned)i,
                          (unsigned long long)x->counters[i], (unsigned long long)y->counters[i]);
    if (x->num_bitmap_bytes != y->num_bitmap_bytes ||
        (x->num_bitmap_bytes && memcmp(x->bitmap, y->bitmap, x->num_bitmap_bytes) != 0))
        return differ(c, "record %.*s: bitmaps differ", n, name);
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (x->num_sites[k] != y->num_sites[k])
            return differ(c, "record %.*s: kind-%d site counts differ: %u vs %u", n, name, k,
                          (unsigned)x->num_sites[k], (unsigned)y->num_sites[k]);
        for (uint32_t s = 0; s < x->num_sites[k]; s++) {
            const pb_site *u = &x->sites[k][s], *v = &y->sites[k][s];
            if (u->num_values != v->num_values)
                return differ(c, "record %.*s: kind-%d site %u value counts differ: %u vs %u", n,
                              name, k, (unsigned)s, (unsigned)u->num_values, (unsigned)v->num_values);
            for (uint32_t i = 0; i < u->num_values; i++) {
                const pb_value *p = &u->values[i], *q = &v->values[i];
                if (p->value != q->value || p->count != q->count)
                    return differ(c, "record %.*s: kind-%d site %u value %u differs: %llu:%llu vs %llu:%llu",
                                  n, name, k, (unsigned)s, (unsigned)i, (unsigned long long)p->value,
                                  (unsigned long long)p->count, (unsigned long long)q->value,
                                  (unsigned long long)q->count);
                if (!same_value_symbol(a, p->symbol, b, q->symbol))
                    return differ(c, "record %.*s: kind-%d site %u value %u names different symbols",
                                  n, name, k, (unsigned)s, (unsigned)i);
            }
        }
    }
    return 1;
}

static int equal_records(const pb_profile *a, const pb_profile *b, cmp_ctx *c) {
    if (a->num_recs != b->num_recs)
        return differ(c, "record counts differ: %zu vs %zu", a->num_recs, b->num_recs);
    for (size_t i = 0; i < a->num_recs; i++) {
        const pb_record *x = &a->recs[i];
        const char *name;
        size_t nl;
        uint64_t hash;
        if (pb_profile_record_name(a, x, &name, &nl, &hash, NULL))
            return differ(c, "records[%zu] of the first profile has no name", i);
        size_t idx[16];
        size_t found = pb_profile_lookup(b, name, nl, idx, 16);
        const pb_record *y = NULL;
        for (size_t k = 0; k < found && k < 16 && !y; k++) {
            const pb_record *cand = &b->recs[idx[k]];
            uint64_t h;
            if (pb_profile_record_name(b, cand, NULL, NULL, &h, NULL) == 0 && h == hash &&
                cand->kind == x->kind)
                y = cand;
        }
        if (!y)
            return differ(c, "record %.*s (hash 0x%016llx) is missing from the second profile",
                          nl > 200 ? 200 : (int)nl, name, (unsigned long long)hash);
        if (!equal_record(a, x, b, y, name, nl, c)) return 0;
    }
    return 1;
}

int pb_profile_equal(const pb_profile *a, const pb_profile *b, char *why, size_t why_len) {
    cmp_ctx c = {why, why_len};
    if (why && why_len) why[0] = '\0';
    if (a == b) return 1;
    return equal_facts(a, b, &c) && equal_tables(a, b, &c) && equal_records(a, b, &c);
}
