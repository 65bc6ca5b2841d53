/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json_read.c -- reads profbridge model JSON (docs/json-model.md) back into a model.
 *
 * Every member is checked for its JSON type and range, and a problem is
 * reported with the JSON path (`records[12].counters[3]: expected a count
 * (integer 0..2^64-1, or its decimal string), found -1`). Indices (symbols,
 * methods) are positions in this file's arrays; they must point backwards or
 * into the arrays already read, so a file cannot make us allocate by claim.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/oom_watch.h"
#include "util/buf.h"
#include "json_internal.h"
#include "util/json_text.h"
#include "util/grow.h"

typedef struct rd {
    pb_profile *p;
    pb_error *err;
    pb_source *src;
    pb_error *load_err; /* error raised inside the jansson callback */
} rd;

#define PATH_MAX_LEN 200

static int fail(rd *r, const char *path, const char *expected, const json_t *found) {
    char what[96];
    switch (found ? json_typeof(found) : JSON_NULL) {
    case JSON_OBJECT: snprintf(what, sizeof what, "an object"); break;
    case JSON_ARRAY: snprintf(what, sizeof what, "an array of %zu", json_array_size(found)); break;
    case JSON_STRING: snprintf(what, sizeof what, "the string \"%.60s\"", json_string_value(found)); break;
    case JSON_INTEGER: snprintf(what, sizeof what, "%" JSON_INTEGER_FORMAT, json_integer_value(found)); break;
    case JSON_REAL: snprintf(what, sizeof what, "the number %g", json_real_value(found)); break;
    case JSON_TRUE: case JSON_FALSE: snprintf(what, sizeof what, "a boolean"); break;
    default: snprintf(what, sizeof what, found ? "null" : "nothing"); break;
    }
    return pb_error_set_ef(r->err, PB_EFORMAT, PB_NO_OFFSET, path, expected, what);
}

static int get_u64(rd *r, const json_t *v, const char *path, uint64_t *out) {
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (*s >= '0' && *s <= '9' && *end == '\0' && (size_t)(end - s) == json_string_length(v) && errno == 0) {
            *out = x;
            return 0;
        }
    }
    return fail(r, path, "a count (integer 0..2^64-1, or its decimal string)", v);
}

static int get_hex64(rd *r, const json_t *v, const char *path, uint64_t *out) {
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    if (s && s[0] == '0' && s[1] == 'x' && s[2] && strlen(s) <= 18) {
        char *end;
        unsigned long long x = strtoull(s + 2, &end, 16);
        if (*end == '\0') {
            *out = x;
            return 0;
        }
    }
    return fail(r, path, "a hex string \"0x...\" of at most 16 digits", v);
}

static int get_index(rd *r, const json_t *v, const char *path, size_t limit, uint32_t *out) {
    if (json_is_integer(v) && json_integer_value(v) >= 0 && (uint64_t)json_integer_value(v) < limit) {
        *out = (uint32_t)json_integer_value(v);
        return 0;
    }
    char want[96];
    snprintf(want, sizeof want, "an index below %zu", limit);
    return fail(r, path, want, v);
}

static int get_i32(rd *r, const json_t *v, const char *path, int32_t *out) {
    if (json_is_integer(v) && json_integer_value(v) >= INT32_MIN && json_integer_value(v) <= INT32_MAX) {
        *out = (int32_t)json_integer_value(v);
        return 0;
    }
    return fail(r, path, "an integer in int32 range", v);
}

/* Bytes of member `keyHex` (hex digits: the exact bytes of a name that is
 * not UTF-8, json_text.h) or else `key` (a UTF-8 string). *data is
 * malloc'ed when hex (*owned = 1). */
static int get_bytes(rd *r, const json_t *obj, const char *key, const char *path, const char **data,
                     size_t *len, unsigned char **owned) {
    *owned = NULL;
    char hk[64], p2[PATH_MAX_LEN + 80];
    snprintf(hk, sizeof hk, "%sHex", key);
    json_t *h = json_object_get(obj, hk);
    json_t *v = json_object_get(obj, key);
    if (!h && json_is_string(v)) {
        *data = json_string_value(v);
        *len = json_string_length(v);
        return 0;
    }
    snprintf(p2, sizeof p2, "%s.%s", path, h ? hk : key);
    if (!json_is_string(h)) return fail(r, p2, "a string", h ? h : v);
    size_t n = json_string_length(h);
    unsigned char *b = malloc(n / 2 + 1);
    if (!b) return pb_error_set(r->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (pbu_get_hex(json_string_value(h), n, b)) {
        free(b);
        return fail(r, p2, "an even number of hex digits", h);
    }
    *owned = b;
    *data = (const char *)b;
    *len = n / 2;
    return 0;
}

static const json_t *member(rd *r, const json_t *obj, const char *key, json_type t, const char *path,
                            int *rc) {
    const json_t *v = json_object_get(obj, key);
    if (v && json_typeof(v) == t) return v;
    char p2[PATH_MAX_LEN + 64];
    snprintf(p2, sizeof p2, "%s%s%s", path, *path ? "." : "", key);
    *rc = fail(r, p2, t == JSON_ARRAY ? "an array" : t == JSON_OBJECT ? "an object" : "a string", v);
    return NULL;
}

static int read_flags(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *magic = json_object_get(root, "profbridge");
    if (!json_is_string(magic) || strcmp(json_string_value(magic), "model") != 0)
        return fail(r, "profbridge", "the string \"model\"", magic);
    const json_t *fv = json_object_get(root, "formatVersion");
    if (!json_is_integer(fv)) return fail(r, "formatVersion", "an integer", fv);
    if (json_integer_value(fv) != PBI_JSON_FORMAT_VERSION)
        return pb_error_set(r->err, PB_EVERSION, PB_NO_OFFSET, "formatVersion",
                            "model JSON format version %" JSON_INTEGER_FORMAT
                            " is not supported (this build reads version %d)",
                            json_integer_value(fv), PBI_JSON_FORMAT_VERSION);
    const json_t *flags = member(r, root, "flags", JSON_OBJECT, "", &rc);
    if (!flags) return rc;
    uint64_t word;
    if ((rc = get_hex64(r, json_object_get(flags, "word"), "flags.word", &word))) return rc;
    /* Bits 1-54 are the version number in LLVM's word: a model never holds
     * them (a writer OR-ing them in claimed another version). */
    if (word & ~(PB_VARIANT_MASK | PB_KIND_FRONTEND))
        return fail(r, "flags.word", "variant bits 55-63 and the front-end kind bit 0 only",
                    json_object_get(flags, "word"));
    pb_profile_set_flags(r->p, word);
    return 0;
}

static int read_origin(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *o = member(r, root, "origin", JSON_OBJECT, "", &rc);
    if (!o) return rc;
    pb_origin org;
    memset(&org, 0, sizeof org);
    const json_t *f = member(r, o, "format", JSON_STRING, "origin", &rc);
    if (!f) return rc;
    snprintf(org.format, sizeof org.format, "%s", json_string_value(f));
    if ((rc = get_u64(r, json_object_get(o, "version"), "origin.version", &org.version))) return rc;
    const json_t *pw = json_object_get(o, "pointerWidth");
    if (!json_is_integer(pw) || (json_integer_value(pw) != 0 && json_integer_value(pw) != 4 &&
                                 json_integer_value(pw) != 8))
        return fail(r, "origin.pointerWidth", "0, 4 or 8", pw);
    org.pointer_width = (uint8_t)json_integer_value(pw);
    const json_t *bo = member(r, o, "byteOrder", JSON_STRING, "origin", &rc);
    if (!bo) return rc;
    const char *bos = json_string_value(bo);
    if (strcmp(bos, "le") == 0) org.byte_order = PB_ORDER_LE;
    else if (strcmp(bos, "be") == 0) org.byte_order = PB_ORDER_BE;
    else if (strcmp(bos, "unknown") == 0) org.byte_order = PB_ORDER_UNKNOWN;
    else return fail(r, "origin.byteOrder", "\"le\", \"be\" or \"unknown\"", bo);
    pb_profile_set_origin(r->p, &org);
    return 0;
}

static int read_properties(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *props = member(r, root, "properties", JSON_ARRAY, "", &rc);
    if (!props) return rc;
    for (size_t i = 0; i < json_array_size(props); i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "properties[%zu]", i);
        const json_t *e = json_array_get(props, i);
        if (!json_is_object(e)) return fail(r, path, "an object", e);
        const char *k, *v;
        size_t kl, vl;
        unsigned char *ko, *vo;
        if ((rc = get_bytes(r, e, "key", path, &k, &kl, &ko))) return rc;
        if ((rc = get_bytes(r, e, "value", path, &v, &vl, &vo)) == 0) {
            if (memchr(k, 0, kl)) rc = fail(r, path, "a key without NUL bytes", e);
            else rc = pb_profile_set_prop(r->p, k, v, vl, r->err);
        }
        free(ko);
        free(vo);
        if (rc) return rc;
    }
    return 0;
}

static int read_binary_ids(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *ids = member(r, root, "binaryIds", JSON_ARRAY, "", &rc);
    if (!ids) return rc;
    for (size_t i = 0; i < json_array_size(ids); i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "binaryIds[%zu]", i);
        const json_t *e = json_array_get(ids, i);
        size_t n = json_is_string(e) ? json_string_length(e) : 1;
        unsigned char *b = malloc(n / 2 + 1);
        if (!b) return pb_error_set(r->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        if (!json_is_string(e) || n == 0 || pbu_get_hex(json_string_value(e), n, b)) rc = fail(r, path, "a non-empty hex string", e);
        else rc = pb_profile_add_binary_id(r->p, b, n / 2, r->err);
        free(b);
        if (rc) return rc;
    }
    return 0;
}

/* temporal.traces[i]: a weight and the NameRefs of the functions in call order. */
static int read_trace(rd *r, const json_t *e, const char *path) {
    int rc = 0;
    uint64_t w;
    char wp[PATH_MAX_LEN + 16];
    snprintf(wp, sizeof wp, "%s.weight", path);
    if (!json_is_object(e)) return fail(r, path, "an object", e);
    if ((rc = get_u64(r, json_object_get(e, "weight"), wp, &w))) return rc;
    const json_t *fs = member(r, e, "functions", JSON_ARRAY, path, &rc);
    if (!fs) return rc;
    size_t n = json_array_size(fs);
    uint64_t *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) return pb_error_set(r->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t k = 0; k < n && rc == 0; k++) {
        char fp[PATH_MAX_LEN + 40];
        snprintf(fp, sizeof fp, "%s.functions[%zu]", path, k);
        rc = get_hex64(r, json_array_get(fs, k), fp, &refs[k]);
    }
    if (rc == 0) rc = pb_profile_add_trace(r->p, w, refs, n, r->err);
    free(refs);
    return rc;
}

static int read_temporal(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *t = member(r, root, "temporal", JSON_OBJECT, "", &rc);
    if (!t) return rc;
    uint64_t ss;
    if ((rc = get_u64(r, json_object_get(t, "streamSize"), "temporal.streamSize", &ss))) return rc;
    if (ss > PB_MAX_TRACE_STREAM)
        return fail(r, "temporal.streamSize", "at most 2^28 runs (PB_MAX_TRACE_STREAM)", json_object_get(t, "streamSize"));
    pb_profile_set_trace_stream_size(r->p, ss);
    const json_t *traces = member(r, t, "traces", JSON_ARRAY, "temporal", &rc);
    if (!traces) return rc;
    for (size_t i = 0; i < json_array_size(traces); i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "temporal.traces[%zu]", i);
        if ((rc = read_trace(r, json_array_get(traces, i), path))) return rc;
    }
    return 0;
}

/* The members before the tables, in the order the writer puts them. */
static int read_header(rd *r, const json_t *root) {
    int rc;
    if ((rc = read_flags(r, root)) || (rc = read_origin(r, root)) || (rc = read_properties(r, root)) ||
        (rc = read_binary_ids(r, root)))
        return rc;
    return read_temporal(r, root);
}

static int read_symbols(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *syms = member(r, root, "symbols", JSON_ARRAY, "", &rc);
    if (!syms) return rc;
    for (size_t i = 0; i < json_array_size(syms); i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "symbols[%zu]", i);
        const json_t *e = json_array_get(syms, i);
        if (!json_is_object(e)) return fail(r, path, "an object", e);
        uint32_t idx;
        const json_t *ph = json_object_get(e, "placeholder");
        if (ph) {
            if (!json_is_integer(ph)) return fail(r, path, "an integer placeholder id", ph);
            rc = pb_profile_add_placeholder_symbol(r->p, json_integer_value(ph), &idx, r->err);
        } else {
            const char *n;
            size_t nl;
            unsigned char *owned;
            if ((rc = get_bytes(r, e, "name", path, &n, &nl, &owned))) return rc;
            rc = pb_profile_add_symbol(r->p, n, nl, &idx, r->err);
            free(owned);
        }
        if (rc) return rc;
        if (idx != i)
            return pb_error_set(r->err, PB_EFORMAT, PB_NO_OFFSET, path,
                                "the same symbol as symbols[%u] (symbols must be unique)", idx);
        const json_t *ref = json_object_get(e, "nameRef");
        uint64_t want;
        char rp[PATH_MAX_LEN + 16];
        snprintf(rp, sizeof rp, "%s.nameRef", path);
        if (ref && (rc = get_hex64(r, ref, rp, &want))) return rc;
        if (ref && want != pb_profile_symbol(r->p, idx)->md5)
            return pb_error_set(r->err, PB_EFORMAT, PB_NO_OFFSET, rp,
                                "0x%016" PRIx64 " is not the NameRef of the symbol's name (0x%016" PRIx64 ")",
                                want, pb_profile_symbol(r->p, idx)->md5);
    }
    return 0;
}

static int read_methods(rd *r, const json_t *root) {
    int rc = 0;
    const json_t *methods = member(r, root, "methods", JSON_ARRAY, "", &rc);
    if (!methods) return rc;
    size_t nsym = pb_profile_symbol_count(r->p);
    for (size_t i = 0; i < json_array_size(methods); i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "methods[%zu]", i);
        const json_t *e = json_array_get(methods, i);
        if (!json_is_object(e)) return fail(r, path, "an object", e);
        uint32_t idx;
        const json_t *ph = json_object_get(e, "placeholder");
        if (ph) {
            if (!json_is_integer(ph)) return fail(r, path, "an integer placeholder id", ph);
            rc = pb_profile_add_placeholder_method(r->p, json_integer_value(ph), &idx, r->err);
        } else {
            const char *n;
            size_t nl;
            unsigned char *owned;
            const json_t *sig = member(r, e, "signature", JSON_ARRAY, path, &rc);
            if (!sig) return rc;
            size_t ns = json_array_size(sig);
            uint32_t *sv = malloc((ns ? ns : 1) * sizeof *sv);
            if (!sv) return pb_error_set(r->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            for (size_t k = 0; k < ns && rc == 0; k++) {
                char sp[PATH_MAX_LEN + 40];
                snprintf(sp, sizeof sp, "%s.signature[%zu]", path, k);
                rc = get_index(r, json_array_get(sig, k), sp, nsym, &sv[k]);
            }
            if (rc == 0 && (rc = get_bytes(r, e, "name", path, &n, &nl, &owned)) == 0) {
                rc = pb_profile_add_method(r->p, n, nl, sv, ns, &idx, r->err);
                free(owned);
            }
            free(sv);
        }
        if (rc) return rc;
        if (idx != i)
            return pb_error_set(r->err, PB_EFORMAT, PB_NO_OFFSET, path,
                                "the same method as methods[%u] (methods must be unique)", idx);
    }
    return 0;
}

static int read_tables(rd *r, const json_t *root) {
    int rc = read_symbols(r, root);
    return rc ? rc : read_methods(r, root);
}

static int kind_of(const char *s) {
    for (int k = 0; k < PB_REC_KIND_COUNT; k++)
        if (strcmp(s, pbi_json_kind_names[k]) == 0) return k;
    return -1;
}

/* One record being read: the model record and the arrays it points into,
 * malloc'ed here and freed after pb_profile_add_record copied them. */
typedef struct jrec {
    pb_record rec;
    char path[PATH_MAX_LEN]; /* records[i] */
    pb_frame *frames;
    int32_t *layout;
    unsigned char *owned; /* the decoded name */
    pb_site *sites[PB_VK_COUNT];
    pb_value *values;
} jrec;

static int oom(rd *r) { return pbu_nomem(r->err, NULL); }

/* kind, and a function's name and hash */
static int read_identity(rd *r, const json_t *e, jrec *j) {
    int rc = 0;
    char p2[PATH_MAX_LEN + 64];
    const json_t *k = member(r, e, "kind", JSON_STRING, j->path, &rc);
    if (!k) return rc;
    int kind = kind_of(json_string_value(k));
    snprintf(p2, sizeof p2, "%s.kind", j->path);
    if (kind < 0) return fail(r, p2, "a record kind (function, javaCallCount, javaBranch, ...)", k);
    j->rec.kind = (uint8_t)kind;
    if (kind != PB_REC_FUNCTION) return 0;
    const char *n;
    size_t nl;
    if ((rc = get_bytes(r, e, "name", j->path, &n, &nl, &j->owned))) return rc;
    if ((rc = pb_profile_intern(r->p, n, nl, &j->rec.name, r->err))) return rc;
    snprintf(p2, sizeof p2, "%s.hash", j->path);
    return get_hex64(r, json_object_get(e, "hash"), p2, &j->rec.hash);
}

/* "context": [method, bci] pairs, the methods indices into methods[] */
static int read_context(rd *r, const json_t *ctx, jrec *j) {
    int rc;
    char p2[PATH_MAX_LEN + 64];
    snprintf(p2, sizeof p2, "%s.context", j->path);
    if (!json_is_array(ctx) || json_array_size(ctx) == 0)
        return fail(r, p2, "a non-empty array of [method, bci] pairs", ctx);
    size_t n = json_array_size(ctx);
    size_t nm = pb_profile_method_count(r->p);
    if (!(j->frames = malloc(n * sizeof *j->frames))) return oom(r);
    for (size_t i = 0; i < n; i++) {
        const json_t *fr = json_array_get(ctx, i);
        snprintf(p2, sizeof p2, "%s.context[%zu]", j->path, i);
        if (!json_is_array(fr) || json_array_size(fr) != 2) return fail(r, p2, "a [method, bci] pair", fr);
        if ((rc = get_index(r, json_array_get(fr, 0), p2, nm, &j->frames[i].method))) return rc;
        if ((rc = get_i32(r, json_array_get(fr, 1), p2, &j->frames[i].bci))) return rc;
    }
    return pb_profile_intern_context(r->p, j->frames, n, &j->rec.ctx, r->err);
}

static int read_layout(rd *r, const json_t *lay, jrec *j) {
    int rc;
    char p2[PATH_MAX_LEN + 64];
    snprintf(p2, sizeof p2, "%s.layout", j->path);
    if (!json_is_array(lay)) return fail(r, p2, "an array of integers", lay);
    size_t n = json_array_size(lay);
    if (!(j->layout = malloc((n ? n : 1) * sizeof *j->layout))) return oom(r);
    for (size_t i = 0; i < n; i++) {
        snprintf(p2, sizeof p2, "%s.layout[%zu]", j->path, i);
        if ((rc = get_i32(r, json_array_get(lay, i), p2, &j->layout[i]))) return rc;
    }
    return pb_profile_intern_ints(r->p, j->layout, n, &j->rec.layout, r->err);
}

static int read_counters(rd *r, const json_t *e, jrec *j) {
    int rc = 0;
    char p2[PATH_MAX_LEN + 64];
    const json_t *cs = member(r, e, "counters", JSON_ARRAY, j->path, &rc);
    if (!cs) return rc;
    j->rec.num_counters = (uint32_t)json_array_size(cs);
    if (!(j->rec.counters = malloc((j->rec.num_counters ? j->rec.num_counters : 1) * sizeof *j->rec.counters)))
        return oom(r);
    for (uint32_t i = 0; i < j->rec.num_counters; i++) {
        snprintf(p2, sizeof p2, "%s.counters[%u]", j->path, i);
        if ((rc = get_u64(r, json_array_get(cs, i), p2, &j->rec.counters[i]))) return rc;
    }
    return 0;
}

static int read_bitmap(rd *r, const json_t *bm, jrec *j) {
    char p2[PATH_MAX_LEN + 64];
    snprintf(p2, sizeof p2, "%s.bitmap", j->path);
    size_t n = json_is_string(bm) ? json_string_length(bm) : 0;
    if (!(j->rec.bitmap = malloc(n / 2 + 1))) return oom(r);
    if (!json_is_string(bm) || pbu_get_hex(json_string_value(bm), n, j->rec.bitmap))
        return fail(r, p2, "a string of hex digit pairs", bm);
    j->rec.num_bitmap_bytes = (uint32_t)(n / 2);
    return 0;
}

/* Checks the shape of "valueSites" (known kinds, arrays of arrays) and
 * counts its values, so that one array can hold them all. */
static int count_values(rd *r, const json_t *vs, jrec *j, size_t *total) {
    char p2[PATH_MAX_LEN + 64];
    snprintf(p2, sizeof p2, "%s.valueSites", j->path);
    if (!json_is_object(vs)) return fail(r, p2, "an object", vs);
    *total = 0;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)vs, key, val) {
        int vk = -1;
        for (int i = 0; i < PB_VK_COUNT; i++)
            if (strcmp(key, pbi_json_value_kind_names[i]) == 0) vk = i;
        snprintf(p2, sizeof p2, "%s.valueSites.%.40s", j->path, key);
        if (vk < 0) return fail(r, p2, "a value kind (indirectCall, memopSize, vtable)", val);
        if (!json_is_array(val)) return fail(r, p2, "an array of sites", val);
        for (size_t s = 0; s < json_array_size(val); s++) {
            const json_t *site = json_array_get(val, s);
            if (!json_is_array(site)) {
                snprintf(p2, sizeof p2, "%s.valueSites.%s[%zu]", j->path, key, s);
                return fail(r, p2, "an array of values", site);
            }
            *total += json_array_size(site);
        }
    }
    return 0;
}

/* valueSites.<kind>[s][i]: {value, count, symbol?}; memop sizes are decimal, the others NameRefs */
static int read_value(rd *r, const json_t *v, unsigned vk, const char *p2, pb_value *pv) {
    int rc;
    if (!json_is_object(v)) return fail(r, p2, "an object", v);
    const json_t *jv = json_object_get(v, "value");
    if (vk == PB_VK_MEMOP_SIZE) rc = get_u64(r, jv, p2, &pv->value);
    else rc = get_hex64(r, jv, p2, &pv->value);
    if (rc || (rc = get_u64(r, json_object_get(v, "count"), p2, &pv->count))) return rc;
    pv->symbol = PB_NONE;
    const json_t *sy = json_object_get(v, "symbol");
    if (sy && (rc = get_index(r, sy, p2, pb_profile_symbol_count(r->p), &pv->symbol))) return rc;
    return 0;
}

static int read_value_sites(rd *r, const json_t *vs, jrec *j) {
    size_t total = 0;
    int rc = count_values(r, vs, j, &total);
    if (rc) return rc;
    char p2[PATH_MAX_LEN + 64];
    if (!(j->values = malloc((total ? total : 1) * sizeof *j->values))) return oom(r);
    size_t used = 0;
    for (int vk = 0; vk < PB_VK_COUNT; vk++) {
        const json_t *arr = json_object_get(vs, pbi_json_value_kind_names[vk]);
        if (!arr) continue;
        size_t ns = json_array_size(arr);
        if (!(j->sites[vk] = calloc(ns ? ns : 1, sizeof *j->sites[vk]))) return oom(r);
        j->rec.num_sites[vk] = (uint32_t)ns;
        j->rec.sites[vk] = j->sites[vk];
        for (size_t s = 0; s < ns; s++) {
            const json_t *site = json_array_get(arr, s);
            j->sites[vk][s].values = j->values + used;
            j->sites[vk][s].num_values = (uint32_t)json_array_size(site);
            for (size_t i = 0; i < json_array_size(site); i++, used++) {
                snprintf(p2, sizeof p2, "%s.valueSites.%s[%zu][%zu]", j->path, pbi_json_value_kind_names[vk], s, i);
                if ((rc = read_value(r, json_array_get(site, i), (unsigned)vk, p2, &j->values[used]))) return rc;
            }
        }
    }
    return 0;
}

/* The members of records[ri] in the writer's order, then the record into the profile. */
static int read_members(rd *r, const json_t *e, jrec *j) {
    int rc;
    const json_t *v;
    if ((rc = read_identity(r, e, j))) return rc;
    if ((v = json_object_get(e, "context")) && (rc = read_context(r, v, j))) return rc;
    if ((v = json_object_get(e, "layout")) && (rc = read_layout(r, v, j))) return rc;
    if ((rc = read_counters(r, e, j))) return rc;
    if ((v = json_object_get(e, "bitmap")) && (rc = read_bitmap(r, v, j))) return rc;
    if ((v = json_object_get(e, "valueSites")) && (rc = read_value_sites(r, v, j))) return rc;
    rc = pb_profile_add_record(r->p, &j->rec, NULL, r->err);
    if (rc && r->err && r->err->path[0] == '\0') snprintf(r->err->path, sizeof r->err->path, "%s", j->path);
    return rc;
}

/* Reads one record into the profile. */
static int read_record(rd *r, const json_t *e, size_t ri) {
    jrec j;
    memset(&j, 0, sizeof j);
    snprintf(j.path, sizeof j.path, "records[%zu]", ri);
    if (!json_is_object(e)) return fail(r, j.path, "an object", e);
    j.rec.name = j.rec.ctx = j.rec.layout = PB_NONE;
    int rc = read_members(r, e, &j);
    free(j.frames);
    free(j.layout);
    free(j.owned);
    free(j.rec.counters);
    free(j.rec.bitmap);
    for (int vk = 0; vk < PB_VK_COUNT; vk++) free(j.sites[vk]);
    free(j.values);
    return rc;
}

static size_t load_cb(void *buf, size_t len, void *data) {
    rd *r = data;
    size_t got = 0;
    if (pb_source_read(r->src, buf, len, &got, r->load_err)) return (size_t)-1;
    return got;
}

int pbi_json_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) {
    (void)o;
    *out = NULL;
    rd r = {NULL, err, in, err};
    json_error_t je;
    /* JSON_ALLOW_NUL: the writer writes a name holding NUL as \u0000 (names
     * are byte strings in every LLVM format), so the reader reads it back. */
    pbu_oom_watch w;
    pbu_oom_watch_start(&w);
    json_t *root = json_load_callback(load_cb, &r, JSON_ALLOW_NUL, &je);
    int oom = pbu_oom_watch_seen(&w);
    if (!root) {
        if (err && err->code) return err->code; /* the source failed (I/O, gzip) */
        pb_error_set_source(err, pb_source_name(in));
        /* no message: jansson's own allocations failed; else the out-of-memory code */
        if (!je.text[0] || json_error_code(&je) == json_error_out_of_memory || oom)
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory parsing the JSON");
        int rc = pb_error_set(err, PB_EFORMAT, (uint64_t)je.position, NULL, "%s", je.text);
        if (err) {
            err->line = je.line;
            err->column = je.column;
        }
        return rc;
    }
    if (oom) {
        /* jansson can lose a byte of a string when an allocation fails and
         * still return a document (scripts/alloc-sweep.sh): not the input's */
        json_decref(root);
        pb_error_set_source(err, pb_source_name(in));
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory parsing the JSON");
    }
    int rc = pb_profile_new(&r.p, err);
    if (rc == 0 && !json_is_object(root)) rc = fail(&r, "(top level)", "an object", root);
    if (rc == 0) rc = read_header(&r, root);
    if (rc == 0) rc = read_tables(&r, root);
    const json_t *recs = rc == 0 ? member(&r, root, "records", JSON_ARRAY, "", &rc) : NULL;
    for (size_t i = 0; recs && rc == 0 && i < json_array_size(recs); i++)
        rc = read_record(&r, json_array_get(recs, i), i);
    json_decref(root);
    if (rc) {
        pb_profile_free(r.p);
        pb_error_set_source(err, pb_source_name(in));
        return rc;
    }
    *out = r.p;
    return 0;
}
