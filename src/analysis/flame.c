/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame.c -- sampling stacks of an iprof profile, summed and sorted, and the
 * folded and speedscope writers (the SVG writer is flame_svg.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "bridge/java_text.h"
#include "model/jname.h"
#include "util/json_text.h"
#include "util/grow.h"

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Makes a frame name safe for every output: ';' separates folded frames,
 * control characters would break lines, and JSON/XML need UTF-8. */
static void sanitize(pb_buf *b) {
    int utf8 = pbu_utf8_valid(b->data, b->len);
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if (c == ';' || c < 0x20 || c == 0x7f || (!utf8 && c >= 0x80)) b->data[i] = '?';
    }
}

typedef struct name_rank {
    const char *name;
    uint32_t id;
} name_rank;

static int cmp_name_rank(const void *a, const void *b) {
    return strcmp(((const name_rank *)a)->name, ((const name_rank *)b)->name);
}

static int cmp_stack(const void *a, const void *b) {
    const pbi_flame_stack *x = a, *y = b;
    uint32_t n = x->depth < y->depth ? x->depth : y->depth;
    for (uint32_t i = 0; i < n; i++)
        if (x->frames[i] != y->frames[i]) return x->frames[i] < y->frames[i] ? -1 : 1;
    return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* The context of a sampling entry: its own for an iprof record; parsed from
 * the name for an LLVM function record named "jsample:..." (an iprof profile
 * converted to LLVM, docs/mapping.md §3), which interns the frames in p.
 * PB_NONE for every other record. */
static uint32_t sample_context(pb_profile *p, const pb_record *r) {
    if (r->kind == PB_REC_JAVA_SAMPLE) return r->ctx;
    if (r->kind != PB_REC_FUNCTION || r->name == PB_NONE) return PB_NONE;
    size_t len;
    const char *n = pb_profile_str(p, r->name, &len);
    if (pbi_jname_kind(n, len) != PB_REC_JAVA_SAMPLE) return PB_NONE;
    /* Parsing interns strings, which may move the name: parse a copy. */
    char *copy = malloc(len + 1);
    if (!copy) return PB_NONE;
    memcpy(copy, n, len + 1);
    pb_record parsed;
    memset(&parsed, 0, sizeof parsed);
    int rc = pbi_jname_parse(p, copy, len, &parsed, NULL);
    free(copy);
    return rc == 0 ? parsed.ctx : PB_NONE;
}

/* Every sample's stack, root first, its frames as ids of t (distinct frame
 * names in first-seen order). Returns 0 or -1 (out of memory). */
static int collect_stacks(pb_profile *p, int no_bci, pbi_flame *out, pbu_intern *t) {
    pb_buf b = PB_BUF_INIT;
    size_t nrec = pb_profile_record_count(p), cap = 0;
    int rc = -1;
    for (size_t ri = 0; ri < nrec; ri++) {
        uint32_t ctx = sample_context(p, pb_profile_record(p, ri));
        if (ctx == PB_NONE) continue;
        const pb_record *r = pb_profile_record(p, ri);
        size_t n = 0;
        const pb_frame *fr = pb_profile_context(p, ctx, &n);
        if (!fr || n == 0 || n > UINT32_MAX) continue;
        if (pbu_grow((void **)&out->stacks, &cap, out->num_stacks + 1, sizeof *out->stacks)) goto out;
        pbi_flame_stack *s = &out->stacks[out->num_stacks];
        s->depth = 0;
        s->count = r->num_counters ? r->counters[0] : 0;
        if (!(s->frames = malloc(n * sizeof *s->frames))) goto out;
        out->num_stacks++;
        out->num_samples++;
        /* iprof lists the sampled frame first; flame graphs want the root first. */
        for (size_t i = n; i-- > 0;) {
            pbu_buf_reset(&b);
            pbi_java_put_method(p, fr[i].method, PBI_JT_JAVA_ARRAYS, &b);
            if (!no_bci) pbu_buf_printf(&b, ":%" PRId32, fr[i].bci);
            if (pbu_buf_failed(&b)) goto out;
            sanitize(&b);
            uint32_t id;
            if (pbu_intern_add(t, b.data, b.len, &id, NULL)) goto out;
            s->frames[s->depth++] = id;
        }
    }
    rc = 0;
out:
    pbu_buf_free(&b);
    return rc;
}

/* Name ids become ranks in byte order, so stacks sort as integer arrays:
 * out takes the names (and t's store, which they point into). Returns 0
 * or -1 (out of memory; t is then still the caller's). */
static int rank_names(pbi_flame *out, pbu_intern *t) {
    size_t nn = t->count;
    name_rank *ranks = malloc((nn ? nn : 1) * sizeof *ranks);
    uint32_t *rank_of = malloc((nn ? nn : 1) * sizeof *rank_of);
    int rc = -1;
    if (!ranks || !rank_of) goto out;
    for (uint32_t i = 0; i < nn; i++) ranks[i] = (name_rank){pbu_intern_get(t, i, NULL), i};
    if (nn) qsort(ranks, nn, sizeof *ranks, cmp_name_rank);
    for (size_t i = 0; i < nn; i++) rank_of[ranks[i].id] = (uint32_t)i;
    out->names = malloc((nn ? nn : 1) * sizeof *out->names);
    if (!out->names) goto out;
    for (size_t i = 0; i < nn; i++) out->names[i] = ranks[i].name;
    out->num_names = nn;
    out->store = *t; /* the names point into it */
    *t = (pbu_intern)PBU_INTERN_INIT;
    for (size_t i = 0; i < out->num_stacks; i++)
        for (uint32_t d = 0; d < out->stacks[i].depth; d++) out->stacks[i].frames[d] = rank_of[out->stacks[i].frames[d]];
    rc = 0;
out:
    free(ranks);
    free(rank_of);
    return rc;
}

/* Sorted; identical stacks (two BCIs of one frame under --no-bci) become one. */
static void merge_identical(pbi_flame *out) {
    if (out->num_stacks) qsort(out->stacks, out->num_stacks, sizeof *out->stacks, cmp_stack);
    size_t k = 0;
    for (size_t i = 0; i < out->num_stacks; i++) {
        if (k > 0 && cmp_stack(&out->stacks[k - 1], &out->stacks[i]) == 0) {
            out->stacks[k - 1].count = add_sat(out->stacks[k - 1].count, out->stacks[i].count);
            free(out->stacks[i].frames);
        } else {
            out->stacks[k++] = out->stacks[i];
        }
    }
    out->num_stacks = k;
    for (size_t i = 0; i < k; i++) out->total = add_sat(out->total, out->stacks[i].count);
}

int pbi_flame_build(pb_profile *p, int no_bci, pbi_flame *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    pbu_intern t = PBU_INTERN_INIT;
    if (collect_stacks(p, no_bci, out, &t) || rank_names(out, &t)) {
        pbu_intern_free(&t);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while collecting sampling stacks");
    }
    merge_identical(out);
    return 0;
}

void pbi_flame_free(pbi_flame *f) {
    if (!f) return;
    for (size_t i = 0; i < f->num_stacks; i++) free(f->stacks[i].frames);
    free(f->stacks);
    free(f->names);
    pbu_intern_free(&f->store);
    memset(f, 0, sizeof *f);
}

void pbi_flame_folded(const pbi_flame *f, pb_buf *out) {
    for (size_t i = 0; i < f->num_stacks; i++) {
        const pbi_flame_stack *s = &f->stacks[i];
        for (uint32_t d = 0; d < s->depth; d++) {
            if (d) pbu_buf_putc(out, ';');
            pbu_buf_puts(out, f->names[s->frames[d]]);
        }
        pbu_buf_putc(out, ' ');
        pbu_buf_put_u64(out, s->count);
        pbu_buf_putc(out, '\n');
    }
}

void pbi_flame_speedscope(const pbi_flame *f, const char *name, pb_buf *out) {
    pbu_buf_puts(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":");
    pbu_json_put_text(out, name, strlen(name)); /* a file name: any bytes */
    pbu_buf_puts(out, ",\"exporter\":\"profbridge\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
    for (size_t i = 0; i < f->num_names; i++) {
        pbu_buf_puts(out, i ? ",\n{\"name\":" : "\n{\"name\":");
        pbu_json_put_text(out, f->names[i], strlen(f->names[i]));
        pbu_buf_putc(out, '}');
    }
    pbu_buf_puts(out, "]},\"profiles\":[{\"type\":\"sampled\",\"name\":");
    pbu_json_put_text(out, name, strlen(name)); /* a file name: any bytes */
    pbu_buf_printf(out, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[", f->total);
    for (size_t i = 0; i < f->num_stacks; i++) {
        pbu_buf_puts(out, i ? ",\n[" : "\n[");
        for (uint32_t d = 0; d < f->stacks[i].depth; d++) {
            if (d) pbu_buf_putc(out, ',');
            pbu_buf_put_u64(out, f->stacks[i].frames[d]);
        }
        pbu_buf_putc(out, ']');
    }
    pbu_buf_puts(out, "],\"weights\":[");
    for (size_t i = 0; i < f->num_stacks; i++) {
        if (i) pbu_buf_putc(out, ',');
        pbu_buf_put_u64(out, f->stacks[i].count);
    }
    pbu_buf_puts(out, "]}]}\n");
}
