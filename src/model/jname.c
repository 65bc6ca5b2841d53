/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jname.c -- render and parse the LLVM names of Java records (grammar in
 * jname.h). The parser is strict: it accepts exactly the spellings the
 * renderer produces (uppercase hex, only needed escapes, no leading zeros),
 * so a name and a record key map one to one and hashes stay stable.
 */
#include "model/jname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile_internal.h"
#include "util/grow.h"
#include "util/prefetch.h"

static const char *const tags[PB_REC_KIND_COUNT] = {
    NULL, "jcall", "jbranch", "jvcall", "jinstanceof", "jmonitor", "jsample"};

static const char hexdig[] = "0123456789ABCDEF";

/* Bytes that would break the grammar or the text format; in a method name
 * '.' too, because the last '.' before '(' splits decl from name. */
static int must_escape(unsigned char c, int is_mname) {
    if (c < 0x21 || c > 0x7E) return 1;
    return c == '%' || c == '(' || c == ')' || c == ',' || c == ':' || (is_mname && c == '.');
}

static void put_name_escaped(pb_buf *b, const char *s, size_t n, int is_mname) {
    if (n == 0) {
        pbu_buf_append(b, "%_", 2);
        return;
    }
    if (n > (SIZE_MAX - 1) / 3 || pbu_buf_reserve(b, n * 3)) {
        b->failed = 1;
        return;
    }
    char *d = b->data + b->len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (must_escape(c, is_mname)) {
            *d++ = '%';
            *d++ = hexdig[c >> 4];
            *d++ = hexdig[c & 15];
        } else {
            *d++ = (char)c;
        }
    }
    b->len = (size_t)(d - b->data);
    b->data[b->len] = '\0';
}

int pbi_jname_kind(const char *name, size_t len) {
    for (int k = 1; k < PB_REC_KIND_COUNT; k++) {
        size_t t = strlen(tags[k]);
        if (len > t && memcmp(name, tags[k], t) == 0 && name[t] == ':') return k;
    }
    return -1;
}

uint64_t pbi_jname_hash(const char *name, size_t len) {
    return pbi_jname_hash_of_ref(pb_md5_ref(name, len));
}

void pbi_jname_put_symbol(const pb_profile *p, uint32_t sym, pb_buf *out) {
    const pb_symbol *s = &p->syms[sym];
    if (s->placeholder) {
        pbu_buf_append(out, "%#", 2);
        pbu_buf_put_i64(out, s->placeholder_id);
        return;
    }
    size_t n;
    const char *t = pbu_intern_get(&p->strs, s->name, &n);
    put_name_escaped(out, t, n, 0);
}

/* Appends method m's descriptor (no cache). */
static void render_method(const pb_profile *p, uint32_t m, pb_buf *out) {
    const pb_method *me = &p->meths[m];
    if (me->placeholder) {
        pbu_buf_append(out, "%#", 2);
        pbu_buf_put_i64(out, me->placeholder_id);
        return;
    }
    if (me->num_sig >= 1)
        pbi_jname_put_symbol(p, me->sig[0], out);
    else
        pbu_buf_append(out, "%-", 2);
    pbu_buf_putc(out, '.');
    size_t n;
    const char *t = pbu_intern_get(&p->strs, me->name, &n);
    put_name_escaped(out, t, n, 1);
    pbu_buf_putc(out, '(');
    for (uint32_t i = 2; i < me->num_sig; i++) {
        if (i > 2) pbu_buf_putc(out, ',');
        pbi_jname_put_symbol(p, me->sig[i], out);
    }
    pbu_buf_putc(out, ')');
    if (me->num_sig >= 2)
        pbi_jname_put_symbol(p, me->sig[1], out);
    else
        pbu_buf_append(out, "%-", 2);
}

/* Appends method m's descriptor, rendering it into the cache once. */
static int put_method(const pb_profile *cp, uint32_t m, pb_buf *out) {
    pb_profile *p = (pb_profile *)cp; /* the cache is logically const */
    if (m >= p->meth_keys.count) return PB_EINVAL;
    if (p->num_descs < p->meth_keys.count) {
        size_t n = p->meth_keys.count;
        pbi_desc *d = realloc(p->descs, n * sizeof *d);
        if (!d) return PB_ENOMEM;
        memset(d + p->num_descs, 0, (n - p->num_descs) * sizeof *d);
        p->descs = d;
        p->num_descs = n;
    }
    pbi_desc *d = &p->descs[m];
    if (!d->text) {
        size_t start = out->len;
        render_method(p, m, out);
        if (pbu_buf_failed(out)) return PB_ENOMEM;
        size_t n = out->len - start;
        if (n >= UINT32_MAX) return 0; /* too long to cache; rendered anyway */
        const char *t = pbu_arena_dup(&p->desc_arena, out->data + start, n, 1);
        if (!t) return PB_ENOMEM;
        d->text = t;
        d->len = (uint32_t)n;
        return 0;
    }
    pbu_buf_append(out, d->text, d->len);
    return pbu_buf_failed(out) ? PB_ENOMEM : 0;
}

int pbi_jname_method_desc(const pb_profile *p, uint32_t m, const char **text, size_t *len) {
    pb_buf tmp = PB_BUF_INIT;
    pbi_cache_lock(p);
    int rc = put_method(p, m, &tmp);
    if (!rc && !p->descs[m].text) rc = PB_ENOMEM;
    if (!rc) {
        *text = p->descs[m].text;
        *len = p->descs[m].len;
    }
    pbi_cache_unlock(p);
    pbu_buf_free(&tmp);
    return rc;
}

static int render_unlocked(const pb_profile *p, const pb_record *r, pb_buf *out) {
    if (r->kind == PB_REC_FUNCTION || r->kind >= PB_REC_KIND_COUNT) return PB_EINVAL;
    pbu_buf_puts(out, tags[r->kind]);
    pbu_buf_putc(out, ':');
    if (r->kind == PB_REC_JAVA_MONITOR) return pbu_buf_failed(out) ? PB_ENOMEM : 0;
    size_t nf;
    const pb_frame *f = pb_profile_context(p, r->ctx, &nf);
    if (!f) return PB_EINVAL;
    for (size_t i = 0; i < nf; i++) {
        if (i) pbu_buf_putc(out, '<');
        int rc = put_method(p, f[i].method, out);
        if (rc) return rc;
        pbu_buf_putc(out, ':');
        pbu_buf_put_i64(out, f[i].bci);
    }
    if (r->kind == PB_REC_JAVA_BRANCH) {
        size_t nl;
        const int32_t *l = pb_profile_ints(p, r->layout, &nl);
        if (!l) return PB_EINVAL;
        pbu_buf_putc(out, '|');
        for (size_t i = 0; i + 1 < nl; i += 2) {
            if (i) pbu_buf_putc(out, ',');
            pbu_buf_put_i64(out, l[i]);
            pbu_buf_putc(out, '/');
            pbu_buf_put_i64(out, l[i + 1]);
        }
    }
    return pbu_buf_failed(out) ? PB_ENOMEM : 0;
}

int pbi_jname_render_ready(const pb_profile *p, const pb_record *r, pb_buf *out) {
    return render_unlocked(p, r, out);
}

const char *pbi_jname_tag(int kind) { return kind > 0 && kind < PB_REC_KIND_COUNT ? tags[kind] : NULL; }

/* The method descriptors are a cache of the profile: rendered under its lock
 * (recursive: render_java already holds it). */
int pbi_jname_render(const pb_profile *p, const pb_record *r, pb_buf *out) {
    pbi_cache_lock(p);
    int rc = render_unlocked(p, r, out);
    pbi_cache_unlock(p);
    return rc;
}

/* ---- parser --------------------------------------------------------------- */

enum { TK_ABSENT, TK_TEXT, TK_PH };

typedef struct jtok {
    int kind;
    size_t off, len; /* TK_TEXT: decoded bytes in parser.text */
    int64_t id;      /* TK_PH */
} jtok;

typedef struct jframe {
    int placeholder;
    int cached;      /* method known from the cache: `method` */
    uint32_t method;
    size_t raw_off, raw_len; /* the method's text in the name (cache key) */
    int64_t pid;
    jtok decl, mname, ret;
    size_t first_param, num_params;
    int32_t bci;
} jframe;

typedef struct parser {
    const char *s;
    size_t n, i;
    pb_buf text;
    jtok *params;
    size_t num_params, cap_params;
    jframe *frames;
    size_t num_frames, cap_frames;
    int32_t *layout;
    size_t num_layout, cap_layout;
    pb_frame *fr; /* commit's context and signature */
    size_t cap_fr;
    uint32_t *sig;
    size_t cap_sig;
    pbi_jname_cache *cache; /* NULL: none */
    struct ahead {        /* frames looked up ahead (look_ahead) */
        size_t start, len; /* the method text's span in the name */
        uint32_t hash;
    } ahead[16];
    size_t num_ahead, next_ahead;
    pb_error *err;
} parser;

/* The arrays of a parser that a cache keeps from name to name. */
typedef struct scratch {
    pb_buf text;
    jtok *params;
    size_t cap_params;
    jframe *frames;
    size_t cap_frames;
    int32_t *layout;
    size_t cap_layout;
    pb_frame *fr;
    size_t cap_fr;
    uint32_t *sig;
    size_t cap_sig;
} scratch;

static int fail(parser *ps, size_t at, const char *expected) {
    char found[64];
    if (at >= ps->n) {
        memcpy(found, "the end of the name", 20);
    } else {
        unsigned char c = (unsigned char)ps->s[at];
        if (c >= 0x21 && c <= 0x7E)
            snprintf(found, sizeof found, "'%c' at byte %zu", c, at);
        else
            snprintf(found, sizeof found, "byte 0x%02X at byte %zu", c, at);
    }
    pb_error_set(ps->err, PB_EFORMAT, PB_NO_OFFSET, "Java record name", "expected %s, found %s",
                 expected, found);
    return PB_EFORMAT;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Strict decimal in [a, b): ["-"] digits, no leading zero, no "-0". */
static int parse_int(parser *ps, size_t a, size_t b, int64_t min, int64_t max, int64_t *out) {
    size_t i = a;
    int neg = 0;
    if (i < b && ps->s[i] == '-') {
        neg = 1;
        i++;
    }
    if (i >= b || !is_digit(ps->s[i])) return fail(ps, i, "a decimal number");
    if (ps->s[i] == '0' && (i + 1 < b || neg)) return fail(ps, i, "a number without leading zeros");
    uint64_t v = 0, lim = neg ? (uint64_t)0 - (uint64_t)min : (uint64_t)max;
    for (; i < b; i++) {
        if (!is_digit(ps->s[i])) return fail(ps, i, "a digit");
        unsigned d = (unsigned)(ps->s[i] - '0');
        if (v > (lim - d) / 10) return fail(ps, a, "a number in range");
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)((uint64_t)0 - v) : (int64_t)v;
    return 0;
}

static int upper_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1; /* lowercase is not the canonical spelling */
}

/* Decodes the token [a, b). Types may be absent ("%-") or placeholders. */
static int decode_tok(parser *ps, size_t a, size_t b, int is_mname, jtok *t) {
    const char *s = ps->s;
    memset(t, 0, sizeof *t);
    if (b - a == 2 && s[a] == '%' && s[a + 1] == '_') {
        t->kind = TK_TEXT;
        t->off = ps->text.len;
        return 0;
    }
    if (!is_mname && b - a == 2 && s[a] == '%' && s[a + 1] == '-') {
        t->kind = TK_ABSENT;
        return 0;
    }
    if (!is_mname && b - a >= 2 && s[a] == '%' && s[a + 1] == '#') {
        t->kind = TK_PH;
        return parse_int(ps, a + 2, b, INT64_MIN, INT64_MAX, &t->id);
    }
    if (a == b) return fail(ps, a, is_mname ? "a method name" : "a type name");
    t->kind = TK_TEXT;
    t->off = ps->text.len;
    /* the decoded bytes are never more than the token's: room for all of
     * them once, then stored in place (a pbu_buf_putc call per byte was a
     * third of parsing the meta records' long lists of uncached names) */
    if (pbu_buf_reserve(&ps->text, b - a)) return PB_ENOMEM;
    char *d = ps->text.data + ps->text.len;
    for (size_t i = a; i < b; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%') {
            int hi = i + 2 < b ? upper_hexval(s[i + 1]) : -1;
            int lo = i + 2 < b ? upper_hexval(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) return fail(ps, i, "an escape %XX with uppercase hex digits");
            c = (unsigned char)(hi * 16 + lo);
            if (!must_escape(c, is_mname)) return fail(ps, i, "a byte that needs no escape written plainly");
            i += 2;
        } else if (must_escape(c, is_mname)) {
            return fail(ps, i, "an escaped byte");
        }
        *d++ = (char)c;
    }
    *d = '\0';
    ps->text.len = (size_t)(d - ps->text.data);
    t->len = ps->text.len - t->off;
    return 0;
}

/* Index of the first byte at or after i that is one of `stops`; bytes in
 * `bad` before it are an error (they cannot occur unescaped there). */
/* c is one of the (few) characters of set; NUL never is. Inline instead of
 * strchr: this runs for every character of every name a bridge parses. */
static int in_set(const char *set, char c) {
    for (; *set; set++)
        if (*set == c) return 1;
    return 0;
}

static int scan_to(parser *ps, size_t i, const char *stops, const char *bad, const char *what,
                   size_t *at) {
    for (; i < ps->n; i++) {
        char c = ps->s[i];
        if (in_set(stops, c)) {
            *at = i;
            return 0;
        }
        if (in_set(bad, c)) return fail(ps, i, what);
    }
    return fail(ps, i, what);
}

static int parse_bci(parser *ps, int32_t *bci) {
    size_t k = ps->i;
    if (k < ps->n && ps->s[k] == '-') k++;
    while (k < ps->n && is_digit(ps->s[k])) k++;
    int64_t v;
    int rc = parse_int(ps, ps->i, k, INT32_MIN, INT32_MAX, &v);
    if (rc) return rc;
    *bci = (int32_t)v;
    ps->i = k;
    return 0;
}

/* "%#id:bci" is a placeholder method ("%#id." a placeholder declaring
 * type, which the descriptor's parse reads): *done = 1 when the frame was
 * one. */
static int parse_placeholder_frame(parser *ps, jframe *f, int *done) {
    const char *s = ps->s;
    size_t i = ps->i, k = i + 2;
    *done = 0;
    if (!(i + 1 < ps->n && s[i] == '%' && s[i + 1] == '#')) return 0;
    if (k < ps->n && s[k] == '-') k++;
    while (k < ps->n && is_digit(s[k])) k++;
    if (!(k < ps->n && s[k] == ':')) return 0;
    f->placeholder = 1;
    int rc = parse_int(ps, i + 2, k, INT64_MIN, INT64_MAX, &f->pid);
    if (rc) return rc;
    ps->i = k + 1;
    rc = parse_bci(ps, &f->bci);
    if (rc) return rc;
    *done = 1;
    return 0;
}

/* The parameter types after '(' at *i, up to and past the ')'. */
static int parse_params(parser *ps, jframe *f, size_t *i) {
    const char *s = ps->s;
    f->first_param = ps->num_params;
    if (*i < ps->n && s[*i] == ')') {
        (*i)++;
        return 0;
    }
    for (;;) {
        size_t end;
        int rc = scan_to(ps, *i, ",)", "(:", "',' or ')' after a parameter type", &end);
        if (rc) return rc;
        rc = pbu_grow((void **)&ps->params, &ps->cap_params, ps->num_params + 1, sizeof *ps->params);
        if (rc) return rc;
        jtok *t = &ps->params[ps->num_params];
        rc = decode_tok(ps, *i, end, 0, t);
        if (rc) return rc;
        if (t->kind == TK_ABSENT) return fail(ps, *i, "a parameter type");
        ps->num_params++;
        f->num_params++;
        *i = end + 1;
        if (s[end] == ')') return 0;
    }
}

/* ---- the frame cache's table (pbi_jname_cache) ---- */

/* The slot holding text[0..n) whose hash is h, or NULL. */
static const pbi_jname_slot *cache_find_h(const pbi_jname_cache *c, const char *text, size_t n, uint32_t h) {
    if (!c->nslots || n >= UINT32_MAX) return NULL;
    uint32_t mask = c->nslots - 1;
    for (uint32_t b = h & mask;; b = (b + 1) & mask) {
        const pbi_jname_slot *sl = &c->slots[b];
        if (!sl->text) return NULL;
        if (sl->hash == h && sl->len == n && memcmp(sl->text, text, n) == 0) return sl;
    }
}

static const pbi_jname_slot *cache_find(const pbi_jname_cache *c, const char *text, size_t n) {
    return cache_find_h(c, text, n, (uint32_t)pbu_hash_bytes(text, n));
}

/* The method text of the frame at i: up to the first ':' after the first
 * ')' (what a successful parse of the frame ends it at). 0 = none. */
static int frame_text(const parser *ps, size_t i, size_t *end) {
    const char *s = ps->s;
    const char *close = memchr(s + i, ')', ps->n - i);
    if (!close) return 0;
    const char *colon = memchr(close, ':', (size_t)(s + ps->n - close));
    if (!colon) return 0;
    *end = (size_t)(colon - s);
    return 1;
}

/* Finds the name's frames from ps->i on (up to 16) and starts loading
 * their cache slots and then the texts those slots point to, so that the
 * lookups' cache misses overlap instead of coming one after another (a
 * frame lookup waited for the slot, then for the text: memcmp and the
 * lookup were 10% of indexed -> iprof, perf record). Only a prefetch: a
 * frame whose start is not where the parse finds one is looked up as
 * before. */
static void look_ahead(parser *ps) {
    const pbi_jname_cache *c = ps->cache;
    const char *s = ps->s;
    size_t i = ps->i, k = 0, end;
    ps->num_ahead = ps->next_ahead = 0;
    if (!c || !c->count) return;
    uint32_t mask = c->nslots - 1;
    while (k < sizeof ps->ahead / sizeof ps->ahead[0] && i < ps->n && frame_text(ps, i, &end)) {
        struct ahead *a = &ps->ahead[k++];
        a->start = i;
        a->len = end - i;
        a->hash = (uint32_t)pbu_hash_bytes(s + i, a->len);
        PBU_PREFETCH(&c->slots[a->hash & mask]);
        size_t j = end + 1; /* the bci, then '<' and the next frame */
        if (j < ps->n && s[j] == '-') j++;
        while (j < ps->n && is_digit(s[j])) j++;
        if (j >= ps->n || s[j] != '<') break;
        i = j + 1;
    }
    ps->num_ahead = k;
    for (size_t x = 0; x < k; x++) PBU_PREFETCH(c->slots[ps->ahead[x].hash & mask].text);
}

static void cache_place(pbi_jname_slot *slots, uint32_t nslots, const pbi_jname_slot *e) {
    uint32_t b = e->hash & (nslots - 1);
    while (slots[b].text) b = (b + 1) & (nslots - 1);
    slots[b] = *e;
}

/* text[0..n) -> method m (first one kept). 0, or PB_ENOMEM; a text too long
 * for the table is not kept (0: the cache only saves work). */
static int cache_add(pbi_jname_cache *c, const char *text, size_t n, uint32_t m) {
    if (n >= UINT32_MAX || cache_find(c, text, n)) return 0;
    /* load at most 1/2: probes stay short */
    if ((uint64_t)(c->count + 1) * 2 > c->nslots) {
        uint32_t ns = c->nslots ? c->nslots * 2 : 256;
        if (ns <= c->nslots || ns > (UINT32_C(1) << 30)) return PB_ENOMEM;
        pbi_jname_slot *t = calloc(ns, sizeof *t);
        if (!t) return PB_ENOMEM;
        for (uint32_t i = 0; i < c->nslots; i++)
            if (c->slots[i].text) cache_place(t, ns, &c->slots[i]);
        free(c->slots);
        c->slots = t;
        c->nslots = ns;
    }
    const char *copy = pbu_arena_dup(&c->arena, text, n, 1);
    if (!copy) return PB_ENOMEM;
    pbi_jname_slot e = {copy, (uint32_t)pbu_hash_bytes(text, n), (uint32_t)n, m, 0};
    cache_place(c->slots, c->nslots, &e);
    c->count++;
    return 0;
}

/* A frame whose method text is in the cache: its method and bci, ps->i past
 * them, 1. 0: not cached (nothing consumed). A successful parse of the
 * frame ends its method text at the first ':' after the first ')', so the
 * same span was the key when it was stored. */
static int cached_frame(parser *ps, jframe *f) {
    const char *s = ps->s;
    size_t i = ps->i, end;
    if (!ps->cache->count) return 0;
    while (ps->next_ahead < ps->num_ahead && ps->ahead[ps->next_ahead].start < i) ps->next_ahead++;
    const pbi_jname_slot *sl;
    if (ps->next_ahead < ps->num_ahead && ps->ahead[ps->next_ahead].start == i) {
        const struct ahead *a = &ps->ahead[ps->next_ahead++];
        end = i + a->len;
        sl = cache_find_h(ps->cache, s + i, a->len, a->hash);
    } else {
        if (!frame_text(ps, i, &end)) return 0;
        sl = cache_find(ps->cache, s + i, end - i);
    }
    if (!sl) return 0;
    size_t save = ps->i;
    ps->i = end + 1;
    if (parse_bci(ps, &f->bci)) { /* not a frame after all: the full parse says why */
        ps->i = save;
        return 0;
    }
    f->cached = 1;
    f->method = sl->method;
    ps->num_frames++;
    return 1;
}

static int parse_frame(parser *ps) {
    const char *s = ps->s;
    int rc = pbu_grow((void **)&ps->frames, &ps->cap_frames, ps->num_frames + 1, sizeof *ps->frames);
    if (rc) return rc;
    jframe *f = &ps->frames[ps->num_frames];
    memset(f, 0, sizeof *f);
    int done;
    if ((rc = parse_placeholder_frame(ps, f, &done))) return rc;
    if (done) {
        ps->num_frames++;
        return 0;
    }
    size_t i = ps->i, open, start = ps->i;
    if (ps->cache && cached_frame(ps, f)) return 0;
    rc = scan_to(ps, i, "(", ":),", "'(' after a method name", &open);
    if (rc) return rc;
    size_t dot = open;
    while (dot > i && s[dot - 1] != '.') dot--;
    if (dot == i) return fail(ps, i, "a method descriptor Decl.name(...)Ret");
    dot--;
    rc = decode_tok(ps, i, dot, 0, &f->decl);
    if (!rc) rc = decode_tok(ps, dot + 1, open, 1, &f->mname);
    if (rc) return rc;
    i = open + 1;
    if ((rc = parse_params(ps, f, &i))) return rc;
    size_t colon;
    rc = scan_to(ps, i, ":", "(),", "':' after the return type", &colon);
    if (rc) return rc;
    rc = decode_tok(ps, i, colon, 0, &f->ret);
    if (rc) return rc;
    /* An absent type may only end the signature. */
    if (f->decl.kind == TK_ABSENT && f->ret.kind != TK_ABSENT)
        return fail(ps, colon, "an absent return type after an absent declaring type");
    if (f->ret.kind == TK_ABSENT && f->num_params)
        return fail(ps, colon, "no parameters when the return type is absent");
    f->raw_off = start;
    f->raw_len = colon - start;
    ps->i = colon + 1;
    rc = parse_bci(ps, &f->bci);
    if (rc) return rc;
    ps->num_frames++;
    return 0;
}

static int parse_layout(parser *ps) {
    if (ps->i == ps->n) return 0; /* a branch without successors */
    for (;;) {
        size_t k = ps->i;
        if (k < ps->n && ps->s[k] == '-') k++;
        while (k < ps->n && is_digit(ps->s[k])) k++;
        int64_t a, b;
        int rc = parse_int(ps, ps->i, k, INT32_MIN, INT32_MAX, &a);
        if (rc) return rc;
        if (k >= ps->n || ps->s[k] != '/') return fail(ps, k, "'/' in a successor bci/index");
        ps->i = k + 1;
        k = ps->i;
        if (k < ps->n && ps->s[k] == '-') k++;
        while (k < ps->n && is_digit(ps->s[k])) k++;
        rc = parse_int(ps, ps->i, k, INT32_MIN, INT32_MAX, &b);
        if (rc) return rc;
        rc = pbu_grow((void **)&ps->layout, &ps->cap_layout, ps->num_layout + 2, sizeof *ps->layout);
        if (rc) return rc;
        ps->layout[ps->num_layout++] = (int32_t)a;
        ps->layout[ps->num_layout++] = (int32_t)b;
        ps->i = k;
        if (k == ps->n) return 0;
        if (ps->s[k] != ',') return fail(ps, k, "',' or the end after a successor");
        ps->i = k + 1;
    }
}

static int tok_symbol(pb_profile *p, parser *ps, const jtok *t, uint32_t *out, pb_error *err) {
    if (t->kind == TK_PH) return pb_profile_add_placeholder_symbol(p, t->id, out, err);
    return pb_profile_add_symbol(p, ps->text.data ? ps->text.data + t->off : "", t->len, out, err);
}

/* Stores frame f's method text -> method m in the cache. */
static int remember(parser *ps, const jframe *f, uint32_t m, pb_error *err) {
    if (cache_add(ps->cache, ps->s + f->raw_off, f->raw_len, m)) return pbu_nomem(err, "a frame cache entry");
    return 0;
}

/* Creates the parsed frames' symbols, methods and context in p. */
static int commit(pb_profile *p, parser *ps, pb_record *out, pb_error *err) {
    int rc = 0;
    if (pbu_grow((void **)&ps->fr, &ps->cap_fr, ps->num_frames ? ps->num_frames : 1, sizeof *ps->fr))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a context");
    pb_frame *fr = ps->fr;
    for (size_t k = 0; k < ps->num_frames; k++) {
        const jframe *f = &ps->frames[k];
        uint32_t m;
        if (f->cached) {
            m = f->method;
        } else if (f->placeholder) {
            rc = pb_profile_add_placeholder_method(p, f->pid, &m, err);
        } else {
            size_t ns = f->decl.kind == TK_ABSENT ? 0 : f->ret.kind == TK_ABSENT ? 1 : 2 + f->num_params;
            if (pbu_grow((void **)&ps->sig, &ps->cap_sig, ns ? ns : 1, sizeof *ps->sig)) {
                rc = pbu_nomem(err, "a signature");
                goto out;
            }
            uint32_t *sig = ps->sig;
            if (ns >= 1) rc = tok_symbol(p, ps, &f->decl, &sig[0], err);
            if (!rc && ns >= 2) rc = tok_symbol(p, ps, &f->ret, &sig[1], err);
            for (size_t j = 0; !rc && j + 2 < ns; j++)
                rc = tok_symbol(p, ps, &ps->params[f->first_param + j], &sig[2 + j], err);
            if (!rc)
                rc = pb_profile_add_method(p, ps->text.data ? ps->text.data + f->mname.off : "",
                                           f->mname.len, sig, ns, &m, err);
            if (!rc && ps->cache) rc = remember(ps, f, m, err);
        }
        if (rc) goto out;
        fr[k].method = m;
        fr[k].bci = f->bci;
    }
    rc = pb_profile_intern_context(p, fr, ps->num_frames, &out->ctx, err);
    if (!rc && out->kind == PB_REC_JAVA_BRANCH)
        rc = pb_profile_intern_ints(p, ps->layout, ps->num_layout, &out->layout, err);
out:
    return rc;
}

void pbi_jname_cache_init(pbi_jname_cache *c) { memset(c, 0, sizeof *c); }

static void scratch_free(scratch *k) {
    if (!k) return;
    pbu_buf_free(&k->text);
    free(k->params);
    free(k->frames);
    free(k->layout);
    free(k->fr);
    free(k->sig);
    free(k);
}

void pbi_jname_cache_free(pbi_jname_cache *c) {
    free(c->slots);
    pbu_arena_free(&c->arena);
    scratch_free(c->scratch);
    memset(c, 0, sizeof *c);
}

/* The parser's arrays: the cache's (ps->cache, allocated on first use;
 * PB_ENOMEM) or none yet. */
static int take_scratch(parser *ps) {
    if (!ps->cache) return 0;
    scratch *k = ps->cache->scratch;
    if (!k && !(k = ps->cache->scratch = calloc(1, sizeof *k))) return PB_ENOMEM;
    ps->text = k->text;
    pbu_buf_reset(&ps->text);
    ps->params = k->params;
    ps->cap_params = k->cap_params;
    ps->frames = k->frames;
    ps->cap_frames = k->cap_frames;
    ps->layout = k->layout;
    ps->cap_layout = k->cap_layout;
    ps->fr = k->fr;
    ps->cap_fr = k->cap_fr;
    ps->sig = k->sig;
    ps->cap_sig = k->cap_sig;
    return 0;
}

/* Gives the arrays back to the cache, or frees them without one. */
static void give_scratch(parser *ps) {
    scratch *k = ps->cache ? ps->cache->scratch : NULL;
    if (k && !pbu_buf_failed(&ps->text)) {
        k->text = ps->text;
    } else {
        pbu_buf_free(&ps->text);
        if (k) k->text = (pb_buf)PB_BUF_INIT;
    }
    if (!k) {
        free(ps->params);
        free(ps->frames);
        free(ps->layout);
        free(ps->fr);
        free(ps->sig);
        return;
    }
    k->params = ps->params;
    k->cap_params = ps->cap_params;
    k->frames = ps->frames;
    k->cap_frames = ps->cap_frames;
    k->layout = ps->layout;
    k->cap_layout = ps->cap_layout;
    k->fr = ps->fr;
    k->cap_fr = ps->cap_fr;
    k->sig = ps->sig;
    k->cap_sig = ps->cap_sig;
}

int pbi_jname_parse(pb_profile *p, const char *name, size_t len, pb_record *out, pb_error *err) {
    return pbi_jname_parse_cached(p, NULL, name, len, out, err);
}

int pbi_jname_parse_cached(pb_profile *p, pbi_jname_cache *c, const char *name, size_t len,
                           pb_record *out, pb_error *err) {
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.s = name;
    ps.n = len;
    ps.cache = c;
    ps.err = err;
    int kind = pbi_jname_kind(name, len);
    if (kind < 0) {
        return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, "Java record name",
                            "expected a tag jcall:, jbranch:, jvcall:, jinstanceof:, jmonitor: or "
                            "jsample:");
    }
    int rc = take_scratch(&ps);
    if (rc) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a name parser");
    ps.i = strlen(tags[kind]) + 1;
    if (kind == PB_REC_JAVA_MONITOR) {
        if (ps.i != len) {
            rc = fail(&ps, ps.i, "the end of the name after jmonitor:");
            goto out;
        }
        out->kind = (uint8_t)kind;
        out->name = PB_NONE;
        out->ctx = PB_NONE;
        out->layout = PB_NONE;
        out->hash = 0;
        goto out;
    }
    look_ahead(&ps);
    for (;;) {
        rc = parse_frame(&ps);
        if (rc) goto out;
        if (ps.i < ps.n && name[ps.i] == '<') {
            ps.i++;
            continue;
        }
        break;
    }
    if (kind == PB_REC_JAVA_BRANCH) {
        if (ps.i >= ps.n || name[ps.i] != '|') {
            rc = fail(&ps, ps.i, "'|' and the successor layout");
            goto out;
        }
        ps.i++;
        rc = parse_layout(&ps);
        if (rc) goto out;
    } else if (ps.i != ps.n) {
        rc = fail(&ps, ps.i, "'<' or the end of the name");
        goto out;
    }
    if (pbu_buf_failed(&ps.text)) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot decode a name");
        goto out;
    }
    out->kind = (uint8_t)kind;
    out->name = PB_NONE;
    out->layout = PB_NONE;
    out->hash = 0;
    rc = commit(p, &ps, out, err);
out:
    give_scratch(&ps);
    return rc;
}
