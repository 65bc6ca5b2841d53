/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jname_order.c -- compares the LLVM names of records as their bytes
 * compare, rendering only in the rare cases (jname_stream.h).
 *
 * A Java name is "TAG:" then frames "DESC:BCI" joined by '<', then for a
 * branch "|LAYOUT" (jname.h). Tags are distinct and none starts another,
 * so different kinds compare as their tags. A descriptor never holds ':'
 * (it is escaped), so "D1:" and "D2:" compare the same whatever follows
 * them: two names whose frames agree so far compare as the next frame's
 * descriptors do, which is one rank per method, sorted once. With equal
 * descriptors the bci's digits and what ends them ('<', '|' or the end)
 * decide, or the next frame when both go on. A jmonitor name is its tag
 * alone. A function name against a Java name is decided by the "TAG:"
 * prefix unless it starts with it. A name without frames, two layouts or
 * a function name that starts like a Java name are rendered and compared
 * whole: rare in real profiles.
 */
#include "model/jname_stream.h"

#include <stdlib.h>
#include <string.h>

#include "model/jname.h"
#include "util/bytes.h"
#include "util/sort.h"

typedef struct desc_text {
    const char *s;
    size_t n;
} desc_text;

/* "a:" against "b:" as bytes (neither holds ':'). */
static int cmp_desc(const desc_text *a, const desc_text *b) {
    size_t m = a->n < b->n ? a->n : b->n;
    int c = m ? memcmp(a->s, b->s, m) : 0;
    if (c || a->n == b->n) return c;
    return a->n < b->n ? (':' < (unsigned char)b->s[m] ? -1 : 1) : ((unsigned char)a->s[m] < ':' ? -1 : 1);
}

static int cmp_method(void *ctx, uint32_t a, uint32_t b) {
    const desc_text *d = ctx;
    int c = cmp_desc(&d[a], &d[b]);
    return c ? c : (a > b) - (a < b);
}

int pbi_jorder_init(pbi_jorder *o, const pb_profile *p) {
    memset(o, 0, sizeof *o);
    o->p = p;
    o->a = (pb_buf)PB_BUF_INIT;
    o->b = (pb_buf)PB_BUF_INIT;
    size_t nm = o->nm = pb_profile_method_count(p);
    desc_text *d = malloc((nm ? nm : 1) * sizeof *d);
    uint32_t *ids = malloc((nm ? nm : 1) * sizeof *ids);
    o->rank = malloc((nm ? nm : 1) * sizeof *o->rank);
    int rc = !d || !ids || !o->rank ? PB_ENOMEM : 0;
    for (uint32_t m = 0; m < nm && !rc; m++) {
        ids[m] = m;
        rc = pbi_jname_method_desc(p, m, &d[m].s, &d[m].n);
    }
    if (!rc) rc = pbu_sort_ids(ids, nm, cmp_method, d);
    /* equal descriptors (none in a valid profile) share a rank: equal bytes */
    for (size_t i = 0, r = 0; i < nm && !rc; i++) {
        if (i && cmp_desc(&d[ids[i - 1]], &d[ids[i]])) r = i;
        o->rank[ids[i]] = (uint32_t)r;
    }
    free(d);
    free(ids);
    for (int k = 0; k < PB_REC_KIND_COUNT; k++)
        for (int j = 0; j < PB_REC_KIND_COUNT; j++)
            if (pbi_jname_tag(k) && pbi_jname_tag(j) && strcmp(pbi_jname_tag(j), pbi_jname_tag(k)) < 0)
                o->tag_rank[k]++;
    return rc;
}

int pbi_jorder_key(const pbi_jorder *o, const pb_record *r, uint64_t *key) {
    if (r->kind == PB_REC_FUNCTION || r->kind == PB_REC_JAVA_MONITOR || !pbi_jname_tag(r->kind))
        return 0;
    size_t n;
    const pb_frame *f = pb_profile_context(o->p, r->ctx, &n);
    if (!f || !n || f[0].method >= o->nm) return 0;
    *key = (uint64_t)o->tag_rank[r->kind] << 32 | o->rank[f[0].method];
    return 1;
}

void pbi_jorder_free(pbi_jorder *o) {
    free(o->rank);
    o->rank = NULL;
    pbu_buf_free(&o->a);
    pbu_buf_free(&o->b);
}

/* Record r's whole LLVM name in b. */
static int whole_name(pbi_jorder *o, const pb_record *r, pb_buf *b) {
    pbu_buf_reset(b);
    if (r->kind == PB_REC_FUNCTION) {
        size_t n;
        const char *s = pb_profile_str(o->p, r->name, &n);
        pbu_buf_append(b, s ? s : "", s ? n : 0);
    } else if (pbi_jname_render(o->p, r, b)) {
        return -1;
    }
    return pbu_buf_failed(b) ? -1 : 0;
}

static int cmp_whole(pbi_jorder *o, const pb_record *x, const pb_record *y) {
    if (whole_name(o, x, &o->a) || whole_name(o, y, &o->b)) {
        o->failed = 1;
        return 0;
    }
    return pbu_bytes_cmp(o->a.data, o->a.len, o->b.data, o->b.len);
}

/* The bytes of v in decimal, as pbu_buf_put_i64 writes them, then the
 * byte after them (end: -1), against the same of w. */
static int cmp_bci(int32_t v, int ev, int32_t w, int ew) {
    char a[16], b[16];
    int na = 0, nb = 0;
    /* digits from the right, then reversed */
    uint32_t u = v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v, t = w < 0 ? (uint32_t)0 - (uint32_t)w : (uint32_t)w;
    do a[na++] = (char)('0' + u % 10); while ((u /= 10) != 0);
    if (v < 0) a[na++] = '-';
    do b[nb++] = (char)('0' + t % 10); while ((t /= 10) != 0);
    if (w < 0) b[nb++] = '-';
    for (int i = 0;; i++) {
        int ca = i < na ? (unsigned char)a[na - 1 - i] : i == na ? ev : -2;
        int cb = i < nb ? (unsigned char)b[nb - 1 - i] : i == nb ? ew : -2;
        if (ca != cb) return ca < cb ? -1 : 1;
        if (i >= na) return 0; /* both ended on the same byte after the digits */
    }
}

/* Function name s[0..n) against a Java name of `kind` where its "TAG:"
 * decides; 2 when the name starts with that prefix (rendering decides). */
static int cmp_tag_prefix(const char *s, size_t n, int kind) {
    const char *t = pbi_jname_tag(kind);
    if (!t) return 2;
    size_t k = strlen(t);
    for (size_t i = 0; i <= k; i++) {
        int c = i < k ? (unsigned char)t[i] : ':';
        if (i == n) return -1; /* s ends first */
        if ((unsigned char)s[i] != c) return (unsigned char)s[i] < c ? -1 : 1;
    }
    return 2;
}

/* x a function record, y any: -1, 0, 1 or 2 (render y). */
static int cmp_function(pbi_jorder *o, const pb_record *x, const pb_record *y) {
    size_t nx, ny;
    const char *sx = pb_profile_str(o->p, x->name, &nx);
    if (!sx) return 2;
    if (y->kind == PB_REC_FUNCTION) {
        const char *sy = pb_profile_str(o->p, y->name, &ny);
        return sy ? pbu_bytes_cmp(sx, nx, sy, ny) : 2;
    }
    return cmp_tag_prefix(sx, nx, y->kind);
}

int pbi_jorder_cmp(pbi_jorder *o, const pb_record *x, const pb_record *y) {
    int c = 2;
    if (x->kind == PB_REC_FUNCTION) c = cmp_function(o, x, y);
    else if (y->kind == PB_REC_FUNCTION) c = -cmp_function(o, y, x), c = c == -2 ? 2 : c;
    if (c != 2) return c;
    if (x->kind == PB_REC_FUNCTION || y->kind == PB_REC_FUNCTION) return cmp_whole(o, x, y);
    if (x->kind != y->kind) {
        const char *tx = pbi_jname_tag(x->kind), *ty = pbi_jname_tag(y->kind);
        if (!tx || !ty) return cmp_whole(o, x, y);
        return strcmp(tx, ty) < 0 ? -1 : 1;
    }
    if (x->kind == PB_REC_JAVA_MONITOR) return 0; /* "jmonitor:" both */
    size_t nx, ny;
    const pb_frame *fx = pb_profile_context(o->p, x->ctx, &nx), *fy = pb_profile_context(o->p, y->ctx, &ny);
    if (!fx || !fy || !nx || !ny) return cmp_whole(o, x, y);
    int end = x->kind == PB_REC_JAVA_BRANCH ? '|' : -1;
    for (size_t i = 0;; i++) {
        if (fx[i].method >= o->nm || fy[i].method >= o->nm) return cmp_whole(o, x, y);
        uint32_t rx = o->rank[fx[i].method], ry = o->rank[fy[i].method];
        if (rx != ry) return rx < ry ? -1 : 1;
        int ex = i + 1 < nx ? '<' : end, ey = i + 1 < ny ? '<' : end;
        if (fx[i].bci != fy[i].bci || ex != ey) return cmp_bci(fx[i].bci, ex, fy[i].bci, ey);
        if (ex == '<') continue;
        return ex == '|' ? cmp_whole(o, x, y) : 0; /* the layouts decide */
    }
}
