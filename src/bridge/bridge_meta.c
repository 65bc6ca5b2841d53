/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bridge_meta.c -- the jmeta: records (docs/mapping.md §6): profile-level
 * iprof facts that travel through LLVM files in record names.
 *
 *   jmeta:version:<v>
 *   jmeta:types:<k>:<type>,<type>,...       all types, sorted, typetext
 *   jmeta:methods:<k>:<method>:<method>...  methods no Java record references
 *
 * Each has one counter = 1, so a plain llvm-profdata merge of N runs counts
 * N; the lists are sorted and chunked the same way for the same content, so
 * runs of one program line up. Parsing reuses the record-name parser: a
 * types chunk is parsed as the parameter list of a dummy method, a methods
 * chunk as a context, both in a scratch profile, so no escape rule exists
 * twice and nothing dummy lands in the real profile.
 */
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge.h"
#include "bridge/bridge_meta.h"
#include "util/buf.h"
#include "model/jname.h"
#include "util/grow.h"

static int add_meta(pb_profile *v, const pb_buf *name, pb_error *err) {
    uint64_t one = 1;
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    r.hash = pbi_jname_hash(name->data, name->len);
    r.num_counters = 1;
    r.counters = &one;
    int rc = pb_profile_intern(v, name->data, name->len, &r.name, err);
    if (!rc) rc = pb_profile_add_record(v, &r, NULL, err);
    return rc;
}

typedef struct tok {
    char *text;
    size_t len;
} tok;

static int tok_cmp(const void *a, const void *b) {
    const tok *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->text, y->text, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Sorts the tokens and adds them as chunks "<prefix><k>:<t><sep><t>...". */
static int add_list(pb_profile *v, const char *prefix, char sep, tok *t, size_t n, pb_error *err) {
    if (n) qsort(t, n, sizeof *t, tok_cmp);
    pb_buf b = PB_BUF_INIT;
    int rc = 0;
    size_t k = 0, i = 0;
    while (i < n && !rc) {
        pbu_buf_reset(&b);
        pbu_buf_puts(&b, prefix);
        pbu_buf_put_u64(&b, k++);
        pbu_buf_putc(&b, ':');
        size_t start = b.len;
        /* one token always fits, however long, so every chunk makes progress */
        while (i < n && (b.len == start || b.len + 1 + t[i].len <= PBI_BRIDGE_META_CHUNK)) {
            if (b.len != start) pbu_buf_putc(&b, sep);
            pbu_buf_append(&b, t[i].text, t[i].len);
            i++;
        }
        rc = pbu_buf_failed(&b) ? pbu_nomem(err, "a meta record") : add_meta(v, &b, err);
    }
    pbu_buf_free(&b);
    return rc;
}

int pbi_meta_add_records(pb_profile *v, const char *version, const uint8_t *method_used,
                         pb_error *err) {
    pb_buf b = PB_BUF_INIT;
    int rc;
    pbu_buf_puts(&b, "jmeta:version:");
    pbu_buf_puts(&b, version);
    rc = pbu_buf_failed(&b) ? pbu_nomem(err, "a meta record") : add_meta(v, &b, err);
    size_t ns = pb_profile_symbol_count(v), nm = pb_profile_method_count(v);
    tok *t = calloc((ns > nm ? ns : nm) + 1, sizeof *t);
    if (!rc && !t) rc = pbu_nomem(err, "a meta record");
    size_t n = 0;
    for (uint32_t i = 0; i < ns && !rc; i++) {
        pbu_buf_reset(&b);
        pbi_jname_put_symbol(v, i, &b);
        if (pbu_buf_failed(&b) || !(t[n].text = malloc(b.len + 1))) {
            rc = pbu_nomem(err, "a meta record");
            break;
        }
        memcpy(t[n].text, b.data, b.len);
        t[n++].len = b.len;
    }
    if (!rc) rc = add_list(v, "jmeta:types:", ',', t, n, err);
    for (size_t i = 0; i < n; i++) free(t[i].text);
    n = 0;
    for (uint32_t m = 0; m < nm && !rc; m++) {
        if (method_used[m]) continue;
        const char *d;
        size_t len;
        if ((rc = pbi_jname_method_desc(v, m, &d, &len))) {
            rc = pb_error_set(err, rc, PB_NO_OFFSET, NULL, "cannot render method %u", m);
            break;
        }
        t[n].text = (char *)d; /* cached in v, not freed here */
        t[n++].len = len;
    }
    /* The descriptors live in v's cache; copy them before adding records. */
    for (size_t i = 0; i < n && !rc; i++) {
        char *c = malloc(t[i].len + 1);
        if (!c) {
            for (size_t j = 0; j < i; j++) free(t[j].text);
            n = 0;
            rc = pbu_nomem(err, "a meta record");
            break;
        }
        memcpy(c, t[i].text, t[i].len);
        t[i].text = c;
    }
    if (!rc) rc = add_list(v, "jmeta:methods:", ':', t, n, err);
    for (size_t i = 0; i < n; i++) free(t[i].text);
    free(t);
    pbu_buf_free(&b);
    return rc;
}

/* "<k>:" after a list prefix; returns the offset of the body or 0. */
static size_t chunk_body(const char *name, size_t len, size_t at) {
    size_t i = at;
    while (i < len && name[i] >= '0' && name[i] <= '9') i++;
    if (i == at || i >= len || name[i] != ':') return 0;
    return i + 1;
}

static int starts(const char *s, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

int pbi_meta_is_meta(const char *name, size_t len) { return starts(name, len, "jmeta:"); }

/* Parses `text` as a Java record name in a scratch profile and imports
 * either the one method's parameters (types) or every frame's method. */
static int parse_into(pb_profile *v, const pb_buf *text, int types, pb_error *err) {
    pb_profile *s = NULL;
    pb_record r;
    pbi_importer im;
    memset(&r, 0, sizeof r);
    int rc = pb_profile_new(&s, err);
    if (rc) return rc;
    if ((rc = pbi_jname_parse(s, text->data, text->len, &r, err))) goto out;
    if ((rc = pbi_import_init(&im, v, s, err))) goto out;
    size_t nf = 0;
    const pb_frame *f = pb_profile_context(s, r.ctx, &nf);
    for (size_t i = 0; i < nf && !rc; i++) {
        uint32_t out;
        if (!types) {
            rc = pbi_import_method(&im, f[i].method, &out, err);
            continue;
        }
        const pb_method *m = pb_profile_method(s, f[i].method);
        for (uint32_t j = 2; j < m->num_sig && !rc; j++) rc = pbi_import_symbol(&im, m->sig[j], &out, err);
    }
    pbi_import_free(&im);
out:
    pb_profile_free(s);
    return rc;
}

int pbi_meta_parse(pb_profile *v, const char *name, size_t len, pb_error *err) {
    pb_buf b = PB_BUF_INIT;
    int rc = 0;
    size_t body;
    if (starts(name, len, "jmeta:version:")) {
        size_t at = strlen("jmeta:version:");
        if (len == at) return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "empty jmeta:version");
        /* the first version met wins; runs of one program agree anyway */
        if (!pb_profile_prop(v, "iprof.version", NULL))
            rc = pb_profile_set_prop(v, "iprof.version", name + at, len - at, err);
        return rc;
    }
    if (starts(name, len, "jmeta:types:") && (body = chunk_body(name, len, strlen("jmeta:types:")))) {
        pbu_buf_puts(&b, "jcall:t.t(");
        pbu_buf_append(&b, name + body, len - body);
        pbu_buf_puts(&b, ")t:0");
        rc = pbu_buf_failed(&b) ? pbu_nomem(err, "a meta record") : parse_into(v, &b, 1, err);
    } else if (starts(name, len, "jmeta:methods:") &&
               (body = chunk_body(name, len, strlen("jmeta:methods:")))) {
        pbu_buf_puts(&b, "jcall:");
        for (size_t i = body; i < len; i++) {
            if (name[i] == ':') pbu_buf_puts(&b, ":0<");
            else pbu_buf_putc(&b, name[i]);
        }
        pbu_buf_puts(&b, ":0");
        rc = pbu_buf_failed(&b) ? pbu_nomem(err, "a meta record") : parse_into(v, &b, 0, err);
    } else {
        rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                          "expected jmeta:version:, jmeta:types:<k>: or jmeta:methods:<k>:");
    }
    pbu_buf_free(&b);
    return rc;
}
