/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_checker.h -- an iprof comparator written independently of the
 * plugin: it loads two documents with jansson, resolves every id to names
 * (types by name, methods by (name, signature type names), contexts to name
 * tuples, (typeId, count) pairs to (type name, count)) and compares the
 * results as multisets, ignoring ids and array order but nothing else.
 * Dangling ids stay numbers ("#42"). 0.2.0 keys are mapped to the 1.x keys.
 * Included by one suite only (static functions).
 */
#ifndef PB_IPROF_CHECKER_H
#define PB_IPROF_CHECKER_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

enum { CK_COUNT, CK_BRANCH, CK_TYPES };
static const struct ck_sec {
    const char *key, *alt, *legacy;
    int shape;
} ck_secs[] = {
    {"callCountProfiles", NULL, "hotnessPoints", CK_COUNT},
    {"conditionalProfiles", NULL, "conditionalPoints", CK_BRANCH},
    {"virtualInvokeProfiles", NULL, "invokePoints", CK_TYPES},
    {"monitorProfiles", NULL, "monitorsProfile", CK_TYPES},
    {"samplingProfiles", NULL, NULL, CK_COUNT},
    {"instanceOfProfiles", "instanceofProfiles", NULL, CK_TYPES},
};
#define CK_NSEC 6

typedef struct ck_str {
    char *s;
    size_t n, cap;
} ck_str;

static void ck_add(ck_str *b, const void *d, size_t n) {
    if (n > SIZE_MAX / 4 || b->n > SIZE_MAX / 4) abort(); /* test helper: sizes are small */
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 64;
        while (c < b->n + n + 1) c *= 2;
        char *ns = realloc(b->s, c);
        if (!ns) abort();
        b->s = ns;
        b->cap = c;
    }
    memcpy(b->s + b->n, d, n);
    b->n += n;
    b->s[b->n] = '\0';
}
static void ck_adds(ck_str *b, const char *s) { ck_add(b, s, strlen(s)); }
static void ck_addi(ck_str *b, long long v) {
    char t[32];
    snprintf(t, sizeof t, "%lld", v);
    ck_adds(b, t);
}
/* Length-prefixed bytes: unambiguous whatever the name holds. */
static void ck_addname(ck_str *b, const char *s, size_t n) {
    ck_addi(b, (long long)n);
    ck_adds(b, "'");
    ck_add(b, s, n);
}

typedef struct ck_list {
    char **v;
    size_t n, cap;
} ck_list;

static void ck_push(ck_list *l, ck_str *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s->s ? s->s : strdup("");
    memset(s, 0, sizeof *s);
}
static int ck_cmpstr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}
static void ck_sort(ck_list *l) {
    if (l->n) qsort(l->v, l->n, sizeof *l->v, ck_cmpstr);
}
static void ck_free_list(ck_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

typedef struct ck_norm {
    char version[64];
    ck_list types, methods, extras;
    ck_list sec[CK_NSEC];
} ck_norm;

static void ck_free(ck_norm *n) {
    ck_free_list(&n->types);
    ck_free_list(&n->methods);
    ck_free_list(&n->extras);
    for (int i = 0; i < CK_NSEC; i++) ck_free_list(&n->sec[i]);
}

/* id -> resolved text, through a jansson object keyed by the decimal id */
static void ck_resolve(json_t *map, json_int_t id, ck_str *out) {
    char k[32];
    snprintf(k, sizeof k, "%lld", (long long)id);
    json_t *v = json_object_get(map, k);
    if (v) ck_add(out, json_string_value(v), json_string_length(v));
    else {
        ck_adds(out, "#");
        ck_adds(out, k);
    }
}

static int ck_known(const char *k) {
    static const char *const known[] = {"version", "types", "methods", NULL};
    for (int i = 0; known[i]; i++)
        if (!strcmp(k, known[i])) return 1;
    for (int i = 0; i < CK_NSEC; i++)
        if (!strcmp(k, ck_secs[i].key) || (ck_secs[i].alt && !strcmp(k, ck_secs[i].alt)) ||
            (ck_secs[i].legacy && !strcmp(k, ck_secs[i].legacy)))
            return 1;
    return 0;
}

/* Normalizes one document. Returns 0 or -1 (why says what). */
static int ck_normalize(const char *text, size_t len, ck_norm *out, char *why, size_t wl) {
    json_error_t je;
    memset(out, 0, sizeof *out);
    json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &je);
    if (!root) {
        snprintf(why, wl, "not JSON: %s at %d:%d", je.text, je.line, je.column);
        return -1;
    }
    const char *ver = json_string_value(json_object_get(root, "version"));
    snprintf(out->version, sizeof out->version, "%s", ver ? ver : "?");
    int legacy = ver && !strcmp(ver, "0.2.0");
    const char *tname = legacy ? "typeName" : "name", *mname = legacy ? "methodName" : "name";
    json_t *tmap = json_object(), *mmap = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(root, "types"), i, e) {
        json_t *nm = json_object_get(e, tname);
        char k[32];
        snprintf(k, sizeof k, "%lld", (long long)json_integer_value(json_object_get(e, "id")));
        if (!json_object_get(tmap, k)) json_object_set(tmap, k, nm);
        ck_str s = {0};
        ck_addname(&s, json_string_value(nm), json_string_length(nm));
        ck_push(&out->types, &s);
    }
    json_array_foreach(json_object_get(root, "methods"), i, e) {
        json_t *nm = json_object_get(e, mname);
        ck_str s = {0};
        size_t k;
        json_t *t;
        ck_addname(&s, json_string_value(nm), json_string_length(nm));
        ck_adds(&s, "(");
        json_array_foreach(json_object_get(e, "signature"), k, t) {
            ck_str tn = {0};
            ck_resolve(tmap, json_integer_value(t), &tn);
            ck_addname(&s, tn.s, tn.n);
            free(tn.s);
            ck_adds(&s, ",");
        }
        ck_adds(&s, ")");
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(e, "id")));
        if (!json_object_get(mmap, key)) json_object_set_new(mmap, key, json_stringn(s.s, s.n));
        ck_push(&out->methods, &s);
    }
    for (int si = 0; si < CK_NSEC; si++) {
        const struct ck_sec *cs = &ck_secs[si];
        json_t *arr = json_object_get(root, legacy && cs->legacy ? cs->legacy : cs->key);
        if (!arr && cs->alt) arr = json_object_get(root, cs->alt);
        json_t *one = NULL;
        if (legacy && si == 3 && arr) { /* monitorsProfile is one object */
            one = json_array();
            json_t *o = json_deep_copy(arr);
            json_object_set_new(o, "ctx", json_string("0:0"));
            json_array_append_new(one, o);
            arr = one;
        }
        json_array_foreach(arr, i, e) {
            ck_str s = {0};
            const char *ctx = json_string_value(json_object_get(e, legacy && si != 3 ? "methodBciList" : "ctx"));
            /* frames: resolve each "m:b" */
            const char *p = ctx ? ctx : "";
            if (si == 3) { /* the monitor context is a dummy, not a method */
                ck_adds(&s, p);
                p = "";
            }
            while (*p) {
                char *end;
                long long m = strtoll(p, &end, 10);
                long long b = strtoll(end + 1, &end, 10);
                ck_resolve(mmap, m, &s);
                ck_adds(&s, "@");
                ck_addi(&s, b);
                p = end;
                if (*p) {
                    ck_adds(&s, "<");
                    p++;
                }
            }
            ck_adds(&s, " | ");
            json_t *recs = json_object_get(e, "records");
            size_t n = json_array_size(recs);
            if (cs->shape == CK_TYPES) {
                ck_list pairs = {0};
                for (size_t k = 0; k + 1 < n; k += 2) {
                    ck_str ps = {0};
                    ck_resolve(tmap, json_integer_value(json_array_get(recs, k)), &ps);
                    ck_adds(&ps, "=");
                    ck_addi(&ps, json_integer_value(json_array_get(recs, k + 1)));
                    ck_push(&pairs, &ps);
                }
                ck_sort(&pairs);
                for (size_t k = 0; k < pairs.n; k++) {
                    ck_addname(&s, pairs.v[k], strlen(pairs.v[k]));
                    ck_adds(&s, ";");
                }
                ck_free_list(&pairs);
            } else {
                for (size_t k = 0; k < n; k++) {
                    ck_addi(&s, json_integer_value(json_array_get(recs, k)));
                    ck_adds(&s, ",");
                }
            }
            ck_push(&out->sec[si], &s);
        }
        json_decref(one);
        ck_sort(&out->sec[si]);
    }
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        if (ck_known(key)) continue;
        ck_str s = {0};
        char *d = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
        ck_adds(&s, key);
        ck_adds(&s, "=");
        ck_adds(&s, d);
        free(d);
        ck_push(&out->extras, &s);
    }
    ck_sort(&out->types);
    ck_sort(&out->methods);
    ck_sort(&out->extras);
    json_decref(tmap);
    json_decref(mmap);
    json_decref(root);
    return 0;
}

static int ck_list_eq(const char *what, const ck_list *a, const ck_list *b, char *why, size_t wl) {
    if (a->n != b->n) {
        snprintf(why, wl, "%s: %zu vs %zu items", what, a->n, b->n);
        return 0;
    }
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i])) {
            snprintf(why, wl, "%s: item %zu differs: %.200s vs %.200s", what, i, a->v[i], b->v[i]);
            return 0;
        }
    return 1;
}

/* 1 when the documents hold the same data; `want_version` (NULL = the
 * original's) is the version the second document must carry. */
static int ck_same(const char *a, size_t alen, const char *b, size_t blen, const char *want_version,
                   char *why, size_t wl) {
    ck_norm x, y;
    int ok = 0;
    if (ck_normalize(a, alen, &x, why, wl)) return 0;
    if (ck_normalize(b, blen, &y, why, wl)) {
        ck_free(&x);
        return 0;
    }
    const char *wv = want_version ? want_version : x.version;
    if (strcmp(wv, y.version)) {
        snprintf(why, wl, "version %s vs %s", wv, y.version);
        goto out;
    }
    if (!ck_list_eq("types", &x.types, &y.types, why, wl)) goto out;
    if (!ck_list_eq("methods", &x.methods, &y.methods, why, wl)) goto out;
    if (!ck_list_eq("extra members", &x.extras, &y.extras, why, wl)) goto out;
    for (int i = 0; i < CK_NSEC; i++)
        if (!ck_list_eq(ck_secs[i].key, &x.sec[i], &y.sec[i], why, wl)) goto out;
    ok = 1;
out:
    ck_free(&x);
    ck_free(&y);
    return ok;
}

#endif
