/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * type_profile.c -- per-site type-profile analysis (see type_profile.h and
 * docs/types-flame.md for the definitions).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "bridge/java_text.h"
#include "model/jname.h"
#include "llvm/llvm_values.h"
#include "analysis/type_profile.h"
#include "util/grow.h"

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

const char *pbi_tp_class_name(int cls) {
    switch (cls) {
    case PBI_TP_MONOMORPHIC: return "monomorphic";
    case PBI_TP_BIMORPHIC: return "bimorphic";
    case PBI_TP_MEGAMORPHIC: return "megamorphic";
    default: return "no types";
    }
}

void pbi_tp_percent(uint64_t a, uint64_t b, char *buf, size_t n) {
    /* long double: counts up to 2^64 keep enough digits for two decimals. */
    long double v = b ? (long double)a * 100.0L / (long double)b : 0.0L;
    snprintf(buf, n, "%.2Lf", v);
}

static char *take(pb_buf *b) {
    if (pbu_buf_failed(b)) return NULL;
    if (!b->data) pbu_buf_puts(b, "");
    char *s = b->data;
    *b = (pb_buf)PB_BUF_INIT;
    return s;
}

/* The name a value stands for: its symbol (Java type, vtable), the record
 * of that NameRef (indirect-call target), else the NameRef itself. */
static char *value_name(const pb_profile *p, const pb_value *v) {
    pb_buf b = PB_BUF_INIT;
    size_t len;
    const char *n;
    if (v->symbol != PB_NONE) {
        pbi_java_put_type(p, v->symbol, PBI_JT_RAW, &b);
    } else if ((n = pbi_llvm_value_name(p, v, &len)) != NULL) {
        pbu_buf_append(&b, n, len);
    } else if (v->value == 0) {
        pbu_buf_puts(&b, "** External Symbol **");
    } else {
        pbu_buf_printf(&b, "<NameRef 0x%016" PRIx64 ">", v->value);
    }
    return take(&b);
}

static int cmp_type(const void *a, const void *b) {
    const pbi_tp_type *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_site(const void *a, const void *b) {
    const pbi_tp_site *x = a, *y = b;
    if (x->lost != y->lost) return x->lost > y->lost ? -1 : 1;
    if (x->total != y->total) return x->total > y->total ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    if (x->value_kind != y->value_kind) return x->value_kind < y->value_kind ? -1 : 1;
    if (x->site != y->site) return x->site < y->site ? -1 : 1;
    return x->record < y->record ? -1 : x->record > y->record;
}

/* Fills the counts, class, kept/lost and pollution of `s` from its values.
 * `counter0` is a Java entry's own total (Σ as read, see below). */
static void finish_site(pbi_tp_site *s, unsigned width, int java, uint64_t counter0) {
    qsort(s->types, s->num_values, sizeof *s->types, cmp_type);
    s->recorded = 0;
    s->num_types = 0;
    for (uint32_t i = 0; i < s->num_values; i++) {
        s->recorded = add_sat(s->recorded, s->types[i].count);
        if (s->types[i].count) s->num_types++;
    }
    /* Java entries carry Σ as counter 0; after a merge that cut values it is
     * larger than what the values still show, and that difference is real. */
    s->total = java && counter0 > s->recorded ? counter0 : s->recorded;
    s->kept = 0;
    for (uint32_t i = 0; i < s->num_values && i < width; i++) s->kept = add_sat(s->kept, s->types[i].count);
    if (s->kept > s->total) s->kept = s->total;
    s->lost = s->total - s->kept;
    s->cls = s->num_types == 0   ? PBI_TP_EMPTY
             : s->num_types == 1 ? PBI_TP_MONOMORPHIC
             : s->num_types == 2 ? PBI_TP_BIMORPHIC
                                 : PBI_TP_MEGAMORPHIC;
    s->polluted = 0;
    /* recorded * 100 < total * 90, without overflow. */
    if (s->total && (long double)s->recorded * 100.0L < (long double)s->total * PBI_TP_COVERAGE_MIN_PERCENT)
        s->polluted |= PBI_TP_UNCOVERED;
    /* GraalVM documents its 8-type limit for receiver types (and instanceof
     * shares the mechanism); the one global monitor entry is not limited (the
     * documented example holds 16 types), so it is never "full". */
    uint32_t limit = !java ? PB_MAX_VALUES_PER_SITE_LLVM
                     : s->kind == PB_REC_JAVA_MONITOR ? UINT32_MAX
                                                      : PBI_TP_GRAAL_LIMIT;
    if (s->num_values >= limit) s->polluted |= PBI_TP_FULL;
}

static int add_site(pbi_tp_report *r, size_t *cap, const pbi_tp_site *s) {
    if (pbu_grow((void **)&r->sites, cap, r->num_sites + 1, sizeof *r->sites)) return PB_ENOMEM;
    r->sites[r->num_sites++] = *s;
    return 0;
}

static void free_site(pbi_tp_site *s) {
    for (uint32_t i = 0; i < s->num_values; i++) free(s->types[i].name);
    free(s->types);
    free(s->name);
}

/* Appends the body of a rendered Java record name (after "tag:") with the
 * %XX escapes of docs/mapping.md §3 decoded for reading; the %-, %_ and %#
 * tokens stay as they are. */
static void put_unescaped(pb_buf *b, const char *s, size_t len) {
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        const char *h1, *h2;
        if (s[i] == '%' && i + 2 < len && (h1 = memchr(hex, s[i + 1], 16)) != NULL &&
            (h2 = memchr(hex, s[i + 2], 16)) != NULL) {
            pbu_buf_putc(b, (char)((h1 - hex) * 16 + (h2 - hex)));
            i += 2;
        } else {
            pbu_buf_putc(b, s[i]);
        }
    }
}

/* The Java kind of an LLVM function record that carries a converted iprof
 * type entry ("jvcall:", "jinstanceof:", "jmonitor:" names, docs/mapping.md),
 * else PB_REC_FUNCTION: such a file gives the same sites as the iprof. */
static int java_kind_of_function(const pb_profile *p, const pb_record *r) {
    if (r->kind != PB_REC_FUNCTION || r->name == PB_NONE) return r->kind;
    size_t len;
    const char *n = pb_profile_str(p, r->name, &len);
    int k = pbi_jname_kind(n, len);
    return k == PB_REC_JAVA_VIRTUAL_INVOKE || k == PB_REC_JAVA_INSTANCEOF || k == PB_REC_JAVA_MONITOR ? k
                                                                                                     : PB_REC_FUNCTION;
}

/* Builds the site from the values of sites[from..to) of kind k of record r
 * (a Java entry is one site even if a writer split it over several).
 * `kind` is the record's kind, or the Java kind its LLVM name carries. */
static int make_site(const pb_profile *p, const pb_record *r, int kind, size_t ri, int k, uint32_t from,
                     uint32_t to, unsigned width, pbi_tp_site *s) {
    int java = kind != PB_REC_FUNCTION;
    memset(s, 0, sizeof *s);
    s->record = ri;
    s->kind = (uint8_t)kind;
    s->value_kind = (uint8_t)k;
    s->site = java ? 0 : from;
    size_t n = 0;
    for (uint32_t i = from; i < to; i++) n += r->sites[k][i].num_values;
    if (n > UINT32_MAX) n = UINT32_MAX;
    pb_buf b = PB_BUF_INIT;
    if (java && r->kind != PB_REC_FUNCTION) {
        pbi_java_put_context(p, r->ctx, PBI_JT_RAW, &b);
    } else if (java) {
        size_t len;
        const char *jn = pb_profile_str(p, r->name, &len);
        const char *colon = memchr(jn, ':', len);
        size_t skip = colon ? (size_t)(colon - jn) + 1 : 0;
        if (kind == PB_REC_JAVA_MONITOR) pbu_buf_puts(&b, "(no context)");
        else put_unescaped(&b, jn + skip, len - skip);
    } else {
        size_t len = 0;
        const char *fn = r->name == PB_NONE ? "" : pb_profile_str(p, r->name, &len);
        pbu_buf_append(&b, fn, len);
    }
    if (!(s->name = take(&b))) return PB_ENOMEM;
    s->types = calloc(n ? n : 1, sizeof *s->types);
    if (!s->types) return PB_ENOMEM;
    for (uint32_t i = from; i < to; i++) {
        const pb_site *site = &r->sites[k][i];
        for (uint32_t j = 0; j < site->num_values && s->num_values < n; j++) {
            pbi_tp_type *t = &s->types[s->num_values];
            if (!(t->name = value_name(p, &site->values[j]))) return PB_ENOMEM;
            t->count = site->values[j].count;
            s->num_values++;
        }
    }
    finish_site(s, width, java, r->num_counters ? r->counters[0] : 0);
    return 0;
}

int pbi_type_profile_build(const pb_profile *p, unsigned width, pbi_tp_report *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    out->width = width;
    if (width == 0) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "the type-profile width must be at least 1");
    size_t cap = 0;
    size_t nrec = pb_profile_record_count(p);
    for (size_t ri = 0; ri < nrec; ri++) {
        const pb_record *r = pb_profile_record(p, ri);
        int kind = java_kind_of_function(p, r);
        int java = kind == PB_REC_JAVA_VIRTUAL_INVOKE || kind == PB_REC_JAVA_INSTANCEOF || kind == PB_REC_JAVA_MONITOR;
        if (kind != PB_REC_FUNCTION && !java) continue;
        for (int k = 0; k < PB_VK_COUNT; k++) {
            if (k == PB_VK_MEMOP_SIZE || r->num_sites[k] == 0) continue;
            if (java && k != PB_VK_VTABLE) continue;
            uint32_t nsites = java ? 1 : r->num_sites[k];
            for (uint32_t si = 0; si < nsites; si++) {
                pbi_tp_site s;
                int rc = make_site(p, r, kind, ri, k, si, java ? r->num_sites[k] : si + 1, width, &s);
                if (rc == 0) rc = add_site(out, &cap, &s);
                if (rc) {
                    free_site(&s);
                    return pb_error_set(err, rc, PB_NO_OFFSET, NULL, "out of memory while analysing type profiles");
                }
            }
        }
    }
    if (out->num_sites) qsort(out->sites, out->num_sites, sizeof *out->sites, cmp_site);
    for (size_t i = 0; i < out->num_sites; i++) {
        const pbi_tp_site *s = &out->sites[i];
        out->per_class[s->cls]++;
        out->per_kind[s->kind < PB_REC_KIND_COUNT ? s->kind : 0]++;
        if (s->polluted) out->polluted++;
        out->total = add_sat(out->total, s->total);
        out->kept = add_sat(out->kept, s->kept);
        out->lost = add_sat(out->lost, s->lost);
    }
    return 0;
}

void pbi_type_profile_free(pbi_tp_report *r) {
    if (!r) return;
    for (size_t i = 0; i < r->num_sites; i++) free_site(&r->sites[i]);
    free(r->sites);
    memset(r, 0, sizeof *r);
}
