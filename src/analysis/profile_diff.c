/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_diff.c -- record-by-record differences between two profiles.
 *
 * Records are matched by LLVM key (name, hash), rendered for iprof records,
 * so the diff works across formats. Values of a site are compared as a
 * multiset keyed by value (LLVM keeps them by count, iprof by type id: the
 * order says nothing). Every record of the two models is compared, `jmeta:`
 * records (mapping.md §6) too: they are functions of the LLVM file that
 * llvm-profdata show and overlap list, and the CLI compares what LLVM sees
 * (src/cli/compare_read.h), where an iprof file has them as well.
 * The report formats are in docs/overlap-diff.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/escape.h"
#include "util/json_text.h"
#include "util/report_version.h"
#include "profbridge/compare.h"
#include "model/profile_records.h"
#include "util/sort.h"
#include "util/api.h"
#include "util/grow.h"

struct pb_diff {
    pb_diff_entry *v;
    size_t n, cap;
    size_t same;
};

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

/* ---- value sites sorted by value -------------------------------------- */

typedef struct vscratch {
    uint32_t *ids;
    size_t cap;
} vscratch;

static int cmp_value(void *ctx, uint32_t a, uint32_t b) {
    const pb_value *v = ctx;
    return v[a].value < v[b].value ? -1 : v[a].value > v[b].value;
}

/* Fills s->ids with the indices of `site`'s values in value order. */
static int sort_values(vscratch *s, const pb_site *site) {
    size_t n = site ? site->num_values : 0;
    if (pbu_grow((void **)&s->ids, &s->cap, n, sizeof *s->ids)) return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) s->ids[i] = (uint32_t)i;
    return n ? pbu_sort_ids(s->ids, n, cmp_value, site->values) : 0;
}

/* One step of the walk over two value-sorted sites: the next value and its
 * total count on each side (equal values within a site add up). */
typedef struct vwalk {
    const pb_site *a, *b;
    const uint32_t *ia, *ib;
    uint32_t i, j;
} vwalk;

static int vwalk_next(vwalk *w, uint64_t *value, uint64_t *ca, uint64_t *cb) {
    uint32_t na = w->a ? w->a->num_values : 0, nb = w->b ? w->b->num_values : 0;
    if (w->i >= na && w->j >= nb) return 0;
    uint64_t va = w->i < na ? w->a->values[w->ia[w->i]].value : UINT64_MAX;
    uint64_t vb = w->j < nb ? w->b->values[w->ib[w->j]].value : UINT64_MAX;
    int take_a = w->i < na && (w->j >= nb || va <= vb);
    int take_b = w->j < nb && (w->i >= na || vb <= va);
    *value = take_a ? va : vb;
    *ca = *cb = 0;
    while (take_a && w->i < na && w->a->values[w->ia[w->i]].value == *value)
        *ca = sat_add(*ca, w->a->values[w->ia[w->i++]].count);
    while (take_b && w->j < nb && w->b->values[w->ib[w->j]].value == *value)
        *cb = sat_add(*cb, w->b->values[w->ib[w->j++]].count);
    return 1;
}

typedef struct scratch {
    vscratch a, b;
} scratch;

static const pb_site *site_at(const pb_record *r, int k, uint32_t s) {
    return r && s < r->num_sites[k] ? &r->sites[k][s] : NULL;
}

/* Impact of the differences between ra and rb (either may be NULL = empty)
 * and whether they differ at all. */
static int measure(const pb_record *ra, const pb_record *rb, scratch *sc, uint64_t *impact, int *changed) {
    *impact = 0;
    *changed = 0;
    uint32_t na = ra ? ra->num_counters : 0, nb = rb ? rb->num_counters : 0;
    if (na != nb) *changed = 1;
    for (uint32_t i = 0; i < (na > nb ? na : nb); i++) {
        uint64_t a = i < na ? ra->counters[i] : 0, b = i < nb ? rb->counters[i] : 0;
        if (a != b) *changed = 1;
        *impact = sat_add(*impact, absdiff(a, b));
    }
    uint32_t ba = ra ? ra->num_bitmap_bytes : 0, bb = rb ? rb->num_bitmap_bytes : 0;
    if (ba != bb || (ba && memcmp(ra->bitmap, rb->bitmap, ba) != 0)) *changed = 1;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        uint32_t sa = ra ? ra->num_sites[k] : 0, sb = rb ? rb->num_sites[k] : 0;
        if (sa != sb) *changed = 1;
        for (uint32_t s = 0; s < (sa > sb ? sa : sb); s++) {
            vwalk w = {site_at(ra, k, s), site_at(rb, k, s), NULL, NULL, 0, 0};
            if (sort_values(&sc->a, w.a) || sort_values(&sc->b, w.b)) return PB_ENOMEM;
            w.ia = sc->a.ids;
            w.ib = sc->b.ids;
            uint64_t v, ca, cb;
            while (vwalk_next(&w, &v, &ca, &cb)) {
                if (ca != cb) *changed = 1;
                *impact = sat_add(*impact, absdiff(ca, cb));
            }
        }
    }
    return 0;
}

static int add_entry(pb_diff *d, const pb_diff_entry *e) {
    if (pbu_grow((void **)&d->v, &d->cap, d->n + 1, sizeof *d->v)) return PB_ENOMEM;
    d->v[d->n++] = *e;
    return 0;
}

/* The record of `p` with this LLVM name and hash, or SIZE_MAX. */
static int find_key(const pb_profile *p, const char *name, size_t len, uint64_t hash, size_t *idx, pb_error *err) {
    /* log n however many records share the name */
    if (pbi_profile_find_name_hash(p, name, len, hash, idx, NULL))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return 0;
}

static int entry_order(const void *x, const void *y) {
    const pb_diff_entry *a = x, *b = y;
    if (a->impact != b->impact) return a->impact > b->impact ? -1 : 1;
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    if (c) return c;
    if (a->name_len != b->name_len) return a->name_len < b->name_len ? -1 : 1;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->status - b->status;
}

int pb_profile_diff(const pb_profile *a, const pb_profile *b, pb_diff **out, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!a) return pbu_null_arg(err, __func__, "a");
    if (!b) return pbu_null_arg(err, __func__, "b");
    *out = NULL;
    pb_diff *d = calloc(1, sizeof *d);
    size_t nb = pb_profile_record_count(b);
    unsigned char *seen = calloc(nb ? nb : 1, 1);
    scratch sc = {{NULL, 0}, {NULL, 0}};
    int rc = 0;
    if (!d || !seen || pbi_profile_build_lookup(b))
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; !rc && i < pb_profile_record_count(a); i++) {
        const pb_record *ra = pb_profile_record(a, i);
        pb_diff_entry e = {PB_DIFF_CHANGED, NULL, 0, 0, i, SIZE_MAX, 0};
        if ((rc = pb_profile_record_name(a, ra, &e.name, &e.name_len, &e.hash, err))) break;
        if ((rc = find_key(b, e.name, e.name_len, e.hash, &e.rec_b, err))) break;
        int changed;
        const pb_record *rb = e.rec_b == SIZE_MAX ? NULL : pb_profile_record(b, e.rec_b);
        if (measure(ra, rb, &sc, &e.impact, &changed)) {
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            break;
        }
        if (rb) seen[e.rec_b] = 1;
        else e.status = PB_DIFF_ONLY_A;
        if (rb && !changed) d->same++;
        else if (add_entry(d, &e)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    for (size_t j = 0; !rc && j < nb; j++) {
        if (seen[j]) continue;
        pb_diff_entry e = {PB_DIFF_ONLY_B, NULL, 0, 0, SIZE_MAX, j, 0};
        int changed;
        if ((rc = pb_profile_record_name(b, pb_profile_record(b, j), &e.name, &e.name_len, &e.hash, err))) break;
        if (measure(NULL, pb_profile_record(b, j), &sc, &e.impact, &changed) || add_entry(d, &e))
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    free(seen);
    free(sc.a.ids);
    free(sc.b.ids);
    if (rc) {
        pb_diff_free(d);
        return rc;
    }
    if (d->n) qsort(d->v, d->n, sizeof *d->v, entry_order);
    *out = d;
    return 0;
}

size_t pb_diff_count(const pb_diff *d) { return d ? d->n : 0; }
const pb_diff_entry *pb_diff_entry_at(const pb_diff *d, size_t i) { return d && i < d->n ? &d->v[i] : NULL; }
size_t pb_diff_same_count(const pb_diff *d) { return d ? d->same : 0; }

void pb_diff_free(pb_diff *d) {
    if (!d) return;
    free(d->v);
    free(d);
}

/* ---- reports ----------------------------------------------------------- */

static const char *const kind_names[PB_VK_COUNT] = {"indirect-call", "memop-size", "vtable"};
static const char *const status_names[4] = {"", "only-in-a", "only-in-b", "changed"};

typedef struct writer {
    pb_buf b;
    const pb_profile *pa, *pb;
    int json;
    pb_sink *out;
    pb_error *err;
    scratch sc;
} writer;

/* A readable name for a value, or NULL: a function (indirect calls) or
 * symbol (vtables, iprof types) of either profile whose NameRef it is. */
static const char *value_name(writer *w, int kind, uint64_t value, size_t *len) {
    const pb_profile *ps[2] = {w->pa, w->pb};
    for (int i = 0; i < 2; i++) {
        const pb_profile *p = ps[i];
        uint32_t sym;
        if (kind != PB_VK_MEMOP_SIZE && pb_profile_find_symbol_md5(p, value, &sym) == 0) {
            const pb_symbol *s = pb_profile_symbol(p, sym);
            if (!s->placeholder) return pb_profile_str(p, s->name, len);
        }
        size_t idx;
        if (kind == PB_VK_INDIRECT_CALL && pb_profile_lookup_ref(p, value, &idx, 1) > 0) {
            const char *name;
            uint64_t hash;
            if (pb_profile_record_name(p, pb_profile_record(p, idx), &name, len, &hash, NULL) == 0) return name;
        }
    }
    return NULL;
}

static void put_delta(pb_buf *b, uint64_t a, uint64_t v) {
    if (v >= a) {
        pbu_buf_putc(b, '+');
        pbu_buf_put_u64(b, v - a);
    } else {
        pbu_buf_putc(b, '-');
        pbu_buf_put_u64(b, a - v);
    }
}

static int flush(writer *w, int force) {
    if (w->b.failed) return pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!force && w->b.len < 65536) return 0;
    int rc = w->b.len ? pb_sink_write(w->out, w->b.data, w->b.len, w->err) : 0;
    pbu_buf_reset(&w->b);
    return rc;
}

/* Counters of one record: every index whose values differ (both sides), or
 * for a one-sided record all of them. */
static void counters_text(writer *w, const pb_record *ra, const pb_record *rb) {
    pb_buf *b = &w->b;
    uint32_t na = ra ? ra->num_counters : 0, nb = rb ? rb->num_counters : 0;
    if (!ra || !rb) {
        const pb_record *r = ra ? ra : rb;
        pbu_buf_printf(b, "  counters (%u):", (unsigned)r->num_counters);
        for (uint32_t i = 0; i < r->num_counters; i++) {
            pbu_buf_putc(b, ' ');
            pbu_buf_put_u64(b, r->counters[i]);
        }
        pbu_buf_putc(b, '\n');
        return;
    }
    if (na != nb) pbu_buf_printf(b, "  counters: %u in A, %u in B\n", (unsigned)na, (unsigned)nb);
    for (uint32_t i = 0; i < (na > nb ? na : nb); i++) {
        uint64_t x = i < na ? ra->counters[i] : 0, y = i < nb ? rb->counters[i] : 0;
        if (x == y && i < na && i < nb) continue;
        pbu_buf_printf(b, "  counter %u: ", (unsigned)i);
        if (i < na) pbu_buf_put_u64(b, x);
        else pbu_buf_puts(b, "-");
        pbu_buf_puts(b, " -> ");
        if (i < nb) pbu_buf_put_u64(b, y);
        else pbu_buf_puts(b, "-");
        pbu_buf_puts(b, " (");
        put_delta(b, x, y);
        pbu_buf_puts(b, ")\n");
    }
}

static void json_counters(writer *w, const pb_record *ra, const pb_record *rb) {
    pb_buf *b = &w->b;
    uint32_t na = ra ? ra->num_counters : 0, nb = rb ? rb->num_counters : 0;
    pbu_buf_printf(b, ",\"num_counters\":{\"a\":%u,\"b\":%u},\"counters\":[", (unsigned)na, (unsigned)nb);
    int first = 1;
    for (uint32_t i = 0; i < (na > nb ? na : nb); i++) {
        uint64_t x = i < na ? ra->counters[i] : 0, y = i < nb ? rb->counters[i] : 0;
        if (x == y && i < na && i < nb) continue;
        pbu_buf_printf(b, "%s{\"index\":%u,\"a\":", first ? "" : ",", (unsigned)i);
        first = 0;
        if (i < na) pbu_buf_put_u64(b, x);
        else pbu_buf_puts(b, "null");
        pbu_buf_puts(b, ",\"b\":");
        if (i < nb) pbu_buf_put_u64(b, y);
        else pbu_buf_puts(b, "null");
        pbu_buf_puts(b, ",\"delta\":");
        if (x > y) pbu_buf_putc(b, '-');
        pbu_buf_put_u64(b, absdiff(x, y));
        pbu_buf_putc(b, '}');
    }
    pbu_buf_putc(b, ']');
}

static void bitmap_out(writer *w, const pb_record *ra, const pb_record *rb) {
    pb_buf *b = &w->b;
    uint32_t na = ra ? ra->num_bitmap_bytes : 0, nb = rb ? rb->num_bitmap_bytes : 0;
    if (w->json) pbu_buf_puts(b, ",\"bitmap\":[");
    int first = 1;
    if (ra && rb)
        for (uint32_t i = 0; i < (na > nb ? na : nb); i++) {
            int x = i < na ? ra->bitmap[i] : -1, y = i < nb ? rb->bitmap[i] : -1;
            if (x == y) continue;
            if (w->json) {
                pbu_buf_printf(b, "%s{\"index\":%u,\"a\":", first ? "" : ",", (unsigned)i);
                if (x < 0) pbu_buf_puts(b, "null");
                else pbu_buf_printf(b, "%d", x);
                pbu_buf_puts(b, ",\"b\":");
                if (y < 0) pbu_buf_puts(b, "null");
                else pbu_buf_printf(b, "%d", y);
                pbu_buf_putc(b, '}');
            } else {
                pbu_buf_printf(b, "  bitmap byte %u: ", (unsigned)i);
                if (x < 0) pbu_buf_puts(b, "-");
                else pbu_buf_printf(b, "0x%02x", (unsigned)x);
                pbu_buf_puts(b, " -> ");
                if (y < 0) pbu_buf_puts(b, "-\n");
                else pbu_buf_printf(b, "0x%02x\n", (unsigned)y);
            }
            first = 0;
        }
    if (w->json) pbu_buf_putc(b, ']');
}

static int sites_out(writer *w, const pb_record *ra, const pb_record *rb) {
    pb_buf *b = &w->b;
    int first_site = 1;
    if (w->json) pbu_buf_puts(b, ",\"value_sites\":[");
    for (int k = 0; k < PB_VK_COUNT; k++) {
        uint32_t sa = ra ? ra->num_sites[k] : 0, sb = rb ? rb->num_sites[k] : 0;
        if (sa != sb && ra && rb && !w->json)
            pbu_buf_printf(b, "  %s sites: %u in A, %u in B\n", kind_names[k], (unsigned)sa, (unsigned)sb);
        for (uint32_t s = 0; s < (sa > sb ? sa : sb); s++) {
            vwalk wk = {site_at(ra, k, s), site_at(rb, k, s), NULL, NULL, 0, 0};
            if (sort_values(&w->sc.a, wk.a) || sort_values(&w->sc.b, wk.b))
                return pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            wk.ia = w->sc.a.ids;
            wk.ib = w->sc.b.ids;
            uint64_t v, ca, cb;
            int first_value = 1;
            while (vwalk_next(&wk, &v, &ca, &cb)) {
                if (ca == cb && ra && rb) continue;
                size_t nl = 0;
                const char *name = value_name(w, k, v, &nl);
                if (first_value) {
                    if (w->json)
                        pbu_buf_printf(b, "%s{\"kind\":\"%s\",\"site\":%u,\"a\":%s,\"b\":%s,\"values\":[",
                                       first_site ? "" : ",", kind_names[k], (unsigned)s,
                                       wk.a ? "true" : "false", wk.b ? "true" : "false");
                    else
                        pbu_buf_printf(b, "  %s site %u%s:\n", kind_names[k], (unsigned)s,
                                       !wk.a ? " (only in B)" : !wk.b ? " (only in A)" : "");
                    first_site = 0;
                }
                if (w->json) {
                    pbu_buf_printf(b, "%s{\"value\":", first_value ? "" : ",");
                    pbu_buf_put_u64(b, v);
                    pbu_buf_putc(b, ',');
                    if (name) pbu_json_put_text_member(b, "name", name, nl, PBU_JSON_HEX_SUFFIX);
                    else pbu_buf_puts(b, "\"name\":null");
                    pbu_buf_puts(b, ",\"a\":");
                    pbu_buf_put_u64(b, ca);
                    pbu_buf_puts(b, ",\"b\":");
                    pbu_buf_put_u64(b, cb);
                    pbu_buf_puts(b, ",\"delta\":");
                    if (ca > cb) pbu_buf_putc(b, '-');
                    pbu_buf_put_u64(b, absdiff(ca, cb));
                    pbu_buf_putc(b, '}');
                } else {
                    pbu_buf_puts(b, "    ");
                    if (name) pbu_esc_term(b, name, nl);
                    else if (k == PB_VK_MEMOP_SIZE) pbu_buf_put_u64(b, v);
                    else pbu_buf_printf(b, "0x%016llx", (unsigned long long)v);
                    pbu_buf_puts(b, ": ");
                    pbu_buf_put_u64(b, ca);
                    pbu_buf_puts(b, " -> ");
                    pbu_buf_put_u64(b, cb);
                    pbu_buf_puts(b, " (");
                    put_delta(b, ca, cb);
                    pbu_buf_puts(b, ")\n");
                }
                first_value = 0;
            }
            if (!first_value && w->json) pbu_buf_puts(b, "]}");
        }
    }
    if (w->json) pbu_buf_putc(b, ']');
    return 0;
}

static int entry_out(writer *w, const pb_diff_entry *e, int first) {
    pb_buf *b = &w->b;
    const pb_record *ra = e->rec_a == SIZE_MAX ? NULL : pb_profile_record(w->pa, e->rec_a);
    const pb_record *rb = e->rec_b == SIZE_MAX ? NULL : pb_profile_record(w->pb, e->rec_b);
    if (w->json) {
        pbu_buf_printf(b, "%s\n{\"status\":\"%s\",", first ? "" : ",", status_names[e->status]);
        pbu_json_put_text_member(b, "name", e->name, e->name_len, PBU_JSON_HEX_SUFFIX);
        pbu_buf_puts(b, ",\"hash\":");
        pbu_buf_put_u64(b, e->hash);
        pbu_buf_puts(b, ",\"impact\":");
        pbu_buf_put_u64(b, e->impact);
        json_counters(w, ra, rb);
    } else {
        pbu_buf_printf(b, "\n%s: ", status_names[e->status]);
        pbu_esc_term(b, e->name, e->name_len);
        pbu_buf_printf(b, " (hash 0x%016llx), impact ", (unsigned long long)e->hash);
        pbu_buf_put_u64(b, e->impact);
        pbu_buf_putc(b, '\n');
        counters_text(w, ra, rb);
    }
    bitmap_out(w, ra, rb);
    int rc = sites_out(w, ra, rb);
    if (w->json) pbu_buf_putc(b, '}');
    return rc ? rc : flush(w, 0);
}

int pb_diff_write(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name,
                  const char *b_name, int json, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!d) return pbu_null_arg(err, __func__, "d");
    if (!a) return pbu_null_arg(err, __func__, "a");
    if (!b) return pbu_null_arg(err, __func__, "b");
    if (!out) return pbu_null_arg(err, __func__, "out");
    writer w = {PB_BUF_INIT, a, b, json, out, err, {{NULL, 0}, {NULL, 0}}};
    size_t cnt[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < d->n; i++) cnt[d->v[i].status]++;
    a_name = a_name ? a_name : "";
    b_name = b_name ? b_name : "";
    if (json) {
        pbu_buf_puts(&w.b, "{\"format_version\":\"" PBU_REPORT_DIFF "\",");
        pbu_json_put_text_member(&w.b, "a", a_name, strlen(a_name), PBU_JSON_HEX_SUFFIX);
        pbu_buf_putc(&w.b, ',');
        pbu_json_put_text_member(&w.b, "b", b_name, strlen(b_name), PBU_JSON_HEX_SUFFIX);
        pbu_buf_printf(&w.b, ",\"equal\":%s,\"only_in_a\":%zu,\"only_in_b\":%zu,\"changed\":%zu,\"same\":%zu,"
                             "\"records\":[",
                       d->n ? "false" : "true", cnt[PB_DIFF_ONLY_A], cnt[PB_DIFF_ONLY_B], cnt[PB_DIFF_CHANGED],
                       d->same);
    } else {
        pbu_buf_puts(&w.b, "A: ");
        pbu_esc_term(&w.b, a_name, strlen(a_name));
        pbu_buf_puts(&w.b, "\nB: ");
        pbu_esc_term(&w.b, b_name, strlen(b_name));
        pbu_buf_putc(&w.b, '\n');
        if (d->n == 0)
            pbu_buf_printf(&w.b, "equal: %zu records, same counters and values\n", d->same);
        else
            pbu_buf_printf(&w.b,
                           "different: %zu only in A, %zu only in B, %zu changed, %zu same\n"
                           "(largest impact first; impact = sum of |counter deltas| + sum of |value-count "
                           "deltas|, deltas are B - A)\n",
                           cnt[PB_DIFF_ONLY_A], cnt[PB_DIFF_ONLY_B], cnt[PB_DIFF_CHANGED], d->same);
    }
    int rc = 0;
    for (size_t i = 0; i < d->n && !rc; i++) rc = entry_out(&w, &d->v[i], i == 0);
    if (!rc && json) pbu_buf_puts(&w.b, d->n ? "\n]}\n" : "]}\n");
    if (!rc) rc = flush(&w, 1);
    pbu_buf_free(&w.b);
    free(w.sc.a.ids);
    free(w.sc.b.ids);
    return rc;
}
