/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * remap.c -- the symbol remapping table of llvm-profdata merge
 * --remapping-file (its SymbolRemapper): "OLD NEW" lines, looked up by
 * binary search in a table sorted by OLD (the first line of an OLD wins, as
 * DenseMap::insert keeps the first).
 */
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "util/grow.h"
#include "profbridge/profile.h"
#include "util/api.h"

typedef struct pair {
    const char *old_name, *new_name; /* into pb_remap.text */
    size_t old_len, new_len, line;
} pair;

struct pb_remap {
    char *text;
    pair *v;
    size_t n;
};

static int cmp_pair(const void *a, const void *b) {
    const pair *x = a, *y = b;
    int c = pbu_bytes_cmp(x->old_name, x->old_len, y->old_name, y->old_len);
    if (c) return c;
    return x->line < y->line ? -1 : x->line > y->line; /* the first line of a name first */
}

int pb_remap_parse(pb_remap **out, const void *text, size_t len, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!text && len) return pbu_null_arg(err, __func__, "text");
    *out = NULL;
    pb_remap *r = calloc(1, sizeof *r);
    if (!r || !(r->text = malloc(len ? len : 1))) {
        free(r);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    if (len) memcpy(r->text, text, len);
    size_t cap = 0, line = 0;
    for (size_t pos = 0; pos < len;) {
        const char *s = r->text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos, at = pos;
        pos += n + 1;
        line++;
        if (n && s[n - 1] == '\r') n--; /* LLVM's line_iterator ends a line at "\r\n" too */
        if (n == 0 || s[0] == '#') continue;
        const char *sp = memchr(s, ' ', n);
        size_t ol = sp ? (size_t)(sp - s) : n;
        if (!sp || ol == 0 || ol + 1 == n || memchr(sp + 1, ' ', n - ol - 1)) {
            pb_error_set(err, PB_EFORMAT, at, NULL, "unexpected line in remapping file");
            if (err) err->line = (int)(line > 0x7fffffff ? 0x7fffffff : line);
            pb_remap_free(r);
            return PB_EFORMAT;
        }
        if (pbu_grow((void **)&r->v, &cap, r->n + 1, sizeof *r->v)) {
            pb_remap_free(r);
            return pbu_nomem(err, NULL);
        }
        r->v[r->n++] = (pair){s, sp + 1, ol, n - ol - 1, line};
    }
    if (r->n > 1) qsort(r->v, r->n, sizeof *r->v, cmp_pair);
    *out = r;
    return 0;
}

int pb_remap_lookup(const pb_remap *r, const char *name, size_t len, const char **out, size_t *out_len) {
    if (!r) return 0;
    size_t lo = 0, hi = r->n; /* the first entry >= name */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pair *p = &r->v[mid];
        if (pbu_bytes_cmp(p->old_name, p->old_len, name, len) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo == r->n) return 0;
    const pair *p = &r->v[lo];
    if (pbu_bytes_cmp(p->old_name, p->old_len, name, len) != 0) return 0;
    *out = p->new_name;
    *out_len = p->new_len;
    return 1;
}

void pb_remap_free(pb_remap *r) {
    if (!r) return;
    free(r->text);
    free(r->v);
    free(r);
}
