/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_read.c -- reads an iprof JSON profile into the model (docs/iprof.md).
 *
 * jansson parses the text, pulling bytes from the pb_source through a
 * callback (the file is never held as one block). The tree is then converted
 * one top-level member at a time and each member is deleted from the tree as
 * soon as it is converted, so the peak is the tree plus a little model.
 *
 * Every rule violation goes through problem(): in report-all mode it becomes
 * a diagnostic and reading goes on; otherwise it is the error. Lenient fix-ups
 * go through fixup() and become one warning per kind at the end.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/oom_watch.h"
#include "iprof_int.h"
#include "util/grow.h"

#define LOAD_CHUNK 4096

/* Lenient fix-ups, each summarised in one warning. */
enum fixup_kind {
    FIX_DANGLING_METHOD,
    FIX_DANGLING_TYPE,
    FIX_DUPLICATE_TYPE,
    FIX_DUPLICATE_METHOD,
    FIX_REPEATED_CTX,
    FIX_COUNT
};

static const char *const fixup_text[FIX_COUNT] = {
    "dangling method id(s) kept as placeholder methods",
    "dangling type id(s) kept as placeholder types",
    "duplicate type id(s): the first definition wins, later ones are kept unreferenced",
    "duplicate method id(s): the first definition wins, later ones are kept unreferenced",
    "repeated context(s) within a section merged (counts added)",
};

typedef struct fixup_note {
    size_t count;
    char first_path[160];
    char first_found[96];
} fixup_note;

typedef struct reader {
    pb_profile *p;
    const pb_read_options *o;
    pb_error *err;
    const char *src;
    int lenient, report_all;
    size_t problems;
    int legacy;               /* 0.2.0 layout */
    int allow_instanceof;     /* version has instanceof profiles */
    char version[32];         /* the version the model will carry */
    pbi_idmap types, methods; /* file id -> model index */
    uint32_t *tdense, *mdense; /* the same as direct tables, when ids are dense */
    size_t ntdense, nmdense;
    fixup_note fix[FIX_COUNT];
    /* scratch, reused for every entry */
    pbi_ctx_frame *cf;
    size_t cf_cap;
    pb_frame *frames;
    size_t frames_cap;
    uint64_t *counters;
    size_t counters_cap;
    int32_t *layout;
    size_t layout_cap;
    pb_value *values;
    size_t values_cap;
} reader;

/* ---- reporting ------------------------------------------------------------ */

static const char *jtype(const json_t *v) {
    switch (v ? json_typeof(v) : JSON_NULL + 100) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    default: return "nothing";
    }
}

/* A rule violation. Returns 0 when reading goes on (report-all), else the code. */
static int problem(reader *r, int code, const char *path, const char *expected, const char *fmt,
                   ...) PB_PRINTF(5, 6);
static int problem(reader *r, int code, const char *path, const char *expected, const char *fmt,
                   ...) {
    char found[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(found, sizeof found, fmt, ap);
    va_end(ap);
    pb_error e;
    pb_error_clear(&e);
    pb_error_set_source(&e, r->src);
    pb_error_set_ef(&e, code, PB_NO_OFFSET, path, expected, found);
    /* Everything problem() reports is beyond what lenient mode repairs. */
    if (r->lenient) snprintf(e.message, sizeof e.message, "not repairable in lenient mode");
    if (r->report_all) {
        r->problems++;
        if (r->o->diag) r->o->diag(r->o->diag_ctx, PB_DIAG_ERROR, &e);
        return 0;
    }
    if (r->err && !r->err->code) *r->err = e;
    return code;
}

static void fixup(reader *r, enum fixup_kind k, const char *path, const char *fmt, ...)
    PB_PRINTF(4, 5);
static void fixup(reader *r, enum fixup_kind k, const char *path, const char *fmt, ...) {
    fixup_note *f = &r->fix[k];
    if (f->count++ == 0) {
        snprintf(f->first_path, sizeof f->first_path, "%s", path);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->first_found, sizeof f->first_found, fmt, ap);
        va_end(ap);
    }
}

static void warn(reader *r, const char *path, const char *fmt, ...) PB_PRINTF(3, 4);
static void warn(reader *r, const char *path, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pb_diag(r->o->diag, r->o->diag_ctx, PB_DIAG_WARNING, 0, r->src, PB_NO_OFFSET, path, "%s",
            msg);
}

static int nomem(reader *r) {
    if (r->err && r->err->code) return r->err->code; /* the model said why */
    return pb_error_set(r->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory reading iprof");
}

/* snprintf for paths: cut silently (a path is a hint, not data). */
static void mkpath(char *dst, size_t cap, const char *fmt, ...) PB_PRINTF(3, 4);
static void mkpath(char *dst, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

/* dst = a + "[" + idx + "]" + b, cut to cap; no printf: it runs per entry. */
static void join_path(char *dst, size_t cap, const char *a, size_t idx, const char *b) {
    char num[24];
    size_t nl = 0, k = 0, orig = idx;
    do {
        num[sizeof num - 1 - nl++] = (char)('0' + idx % 10);
        idx /= 10;
    } while (idx);
    size_t al = strlen(a), bl = b ? strlen(b) : 0;
    if (al + nl + bl + 3 > cap) {
        mkpath(dst, cap, "%s[%.*s]%s", a, (int)nl, num + sizeof num - nl, b ? b : "");
        return;
    }
    memcpy(dst, a, al);
    k = al;
    if (orig != SIZE_MAX) { /* SIZE_MAX: a single object, no index */
        dst[k++] = '[';
        memcpy(dst + k, num + sizeof num - nl, nl);
        k += nl;
        dst[k++] = ']';
    }
    if (bl) memcpy(dst + k, b, bl);
    dst[k + bl] = '\0';
}

/* ---- scratch growth -------------------------------------------------------- */

/* ---- loading: jansson pulls from the source; the tracker follows ------------- */

typedef struct loader {
    pb_source *in;
    pb_error *err;
    int failed;
    pbi_jpath now;         /* after every byte handed to jansson */
    pbi_jpath chunk_start; /* before the last chunk */
    uint8_t last[LOAD_CHUNK];
    size_t last_len;
} loader;

static size_t load_cb(void *buf, size_t buflen, void *data) {
    loader *l = data;
    size_t got = 0;
    if (l->failed) return (size_t)-1;
    if (buflen > LOAD_CHUNK) buflen = LOAD_CHUNK;
    if (pb_source_read(l->in, buf, buflen, &got, l->err)) {
        l->failed = 1;
        return (size_t)-1;
    }
    /* jansson asks for the next chunk only when it has used up the previous
     * one, so a syntax error lies in the last chunk: keep it to replay. */
    l->chunk_start = l->now;
    memcpy(l->last, buf, got);
    l->last_len = got;
    pbi_jpath_feed(&l->now, buf, got);
    return got;
}

/* The JSON path at byte `pos` and the number token just before it. */
static void path_at(const loader *l, uint64_t pos, pbi_jpath *t) {
    *t = l->chunk_start;
    if (pos > t->pos) {
        uint64_t k = pos - t->pos;
        pbi_jpath_feed(t, l->last, k < l->last_len ? (size_t)k : l->last_len);
    }
}

/* Turns a jansson parse error into ours: line/column, path and a rule text. */
static int syntax_problem(reader *r, const loader *l, const json_error_t *je) {
    pbi_jpath t;
    char path[256];
    path_at(l, je->position >= 0 ? (uint64_t)je->position : 0, &t);
    pbi_jpath_render(&t, path, sizeof path);
    pb_error e;
    pb_error_clear(&e);
    pb_error_set_source(&e, r->src);
    int code = PB_EFORMAT;
    enum json_error_code jc = json_error_code(je);
    if (jc == json_error_out_of_memory) {
        /* not the input's fault: no problem to count, whatever the mode */
        pb_error_set(&e, PB_ENOMEM, PB_NO_OFFSET, path, "out of memory while parsing the JSON");
        if (r->err && !r->err->code) *r->err = e;
        return PB_ENOMEM;
    }
    if (jc == json_error_premature_end_of_input) {
        code = PB_ETRUNC;
        pb_error_set(&e, code, PB_NO_OFFSET, path, "unexpected end of input (%s)", je->text);
    } else if (jc == json_error_numeric_overflow) {
        /* jansson holds int64 only; say which rule the number breaks. */
        const char *expected = "an integer that fits in 64 bits";
        uint64_t idx = pbi_jpath_array_index(&t);
        size_t pl = strlen(path);
        int in_records = pl > 9 && strstr(path, ".records[") != NULL;
        if (in_records && idx != UINT64_MAX) {
            const pbi_iprof_section *sec = NULL;
            for (size_t i = 0; i < pbi_iprof_section_count; i++) {
                const char *k = pbi_iprof_sections[i].key;
                const char *lk = pbi_iprof_sections[i].legacy_key;
                if (strncmp(path, k, strlen(k)) == 0 || (lk && strncmp(path, lk, strlen(lk)) == 0) ||
                    (pbi_iprof_sections[i].kind == PB_REC_JAVA_INSTANCEOF &&
                     strncmp(path, "instanceofProfiles", 18) == 0) ||
                    (pbi_iprof_sections[i].kind == PB_REC_JAVA_MONITOR &&
                     strncmp(path, "monitorsProfile", 15) == 0))
                    sec = &pbi_iprof_sections[i];
            }
            expected = "a count in [0, 2^63-1]";
            if (sec && sec->shape == PBI_SHAPE_BRANCH && idx % 3 != 2)
                expected = idx % 3 ? "a branch index that fits in 32 bits"
                                   : "a BCI that fits in 32 bits";
            else if (sec && sec->shape == PBI_SHAPE_TYPES && idx % 2 == 0)
                expected = "a type id that fits in 32 bits";
        }
        char found[64];
        snprintf(found, sizeof found, "%.*s", (int)t.tok_len, t.tok);
        pb_error_set_ef(&e, code, PB_NO_OFFSET, path, expected, found[0] ? found : "a huge integer");
        if (r->lenient) snprintf(e.message, sizeof e.message, "not repairable in lenient mode");
    } else {
        pb_error_set(&e, code, PB_NO_OFFSET, path, "%s", je->text);
    }
    e.line = je->line;
    e.column = je->column;
    if (r->report_all) {
        r->problems++;
        if (r->o->diag) r->o->diag(r->o->diag_ctx, PB_DIAG_ERROR, &e);
        return PB_EFORMAT;
    }
    if (r->err && !r->err->code) *r->err = e;
    return code;
}

/* ---- integers ---------------------------------------------------------------- */

static int is_int32(json_int_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* An id from a table (types[].id, methods[].id): an int32. */
static int get_id(reader *r, json_t *obj, const char *key, const char *ipath, int64_t *id) {
    char path[200];
    json_t *v = json_object_get(obj, key);
    mkpath(path, sizeof path, "%s.%s", ipath, key);
    if (!json_is_integer(v)) {
        int rc = problem(r, PB_EFORMAT, path, "an integer", "%s", jtype(v));
        return rc ? rc : 1;
    }
    json_int_t x = json_integer_value(v);
    if (!is_int32(x)) {
        int rc = problem(r, PB_EFORMAT, path, "an id that fits in 32 bits", "%" PRId64, (int64_t)x);
        return rc ? rc : 1;
    }
    *id = x;
    return 0;
}

/* Resolves a file type id to a symbol; dangling: error or (lenient) placeholder.
 * Returns 0 and *sym, 1 when the caller should skip (reported), or a code. */
static int resolve_type(reader *r, int64_t id, const char *path, uint32_t *sym) {
    if (pbi_idmap_lookup(&r->types, r->tdense, r->ntdense, id, sym)) return 0;
    if (!r->lenient) {
        int rc = problem(r, PB_EFORMAT, path, "a type id defined in types", "%" PRId64, id);
        return rc ? rc : 1;
    }
    pb_error e;
    pb_error_clear(&e);
    if (pb_profile_add_placeholder_symbol(r->p, id, sym, &e)) return nomem(r);
    if (pbi_idmap_put(&r->types, id, *sym)) return nomem(r);
    fixup(r, FIX_DANGLING_TYPE, path, "%" PRId64, id);
    return 0;
}

static int resolve_method(reader *r, int64_t id, const char *path, uint32_t *m) {
    if (pbi_idmap_get(&r->methods, id, m)) return 0;
    if (!r->lenient) {
        int rc = problem(r, PB_EFORMAT, path, "method ids defined in methods", "%" PRId64, id);
        return rc ? rc : 1;
    }
    pb_error e;
    pb_error_clear(&e);
    if (pb_profile_add_placeholder_method(r->p, id, m, &e)) return nomem(r);
    if (pbi_idmap_put(&r->methods, id, *m)) return nomem(r);
    fixup(r, FIX_DANGLING_METHOD, path, "%" PRId64, id);
    return 0;
}

/* Unknown members inside entries are dropped, with one notice per place. */
static void note_unknown_members(reader *r, json_t *obj, const char *const *known,
                                 const char *path, int *noted) {
    const char *key;
    json_t *v;
    if (*noted) return;
    json_object_foreach(obj, key, v) {
        int ok = 0;
        for (size_t i = 0; known[i]; i++)
            if (strcmp(key, known[i]) == 0) ok = 1;
        if (!ok) {
            pb_diag(r->o->diag, r->o->diag_ctx, PB_DIAG_NOTICE, 0, r->src, PB_NO_OFFSET, path,
                    "unknown member \"%s\" dropped (further unknown members here are dropped "
                    "silently)",
                    key);
            *noted = 1;
            return;
        }
    }
}

/* ---- types and methods -------------------------------------------------------- */

static int read_types(reader *r, json_t *arr, const char *key) {
    static const char *const known_v1[] = {"id", "name", NULL};
    static const char *const known_legacy[] = {"id", "typeName", NULL};
    const char *name_key = r->legacy ? "typeName" : "name";
    int noted = 0;
    char path[200], path2[200];
    if (!json_is_array(arr)) return problem(r, PB_EFORMAT, key, "an array", "%s", jtype(arr));
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        json_t *t = json_array_get(arr, i);
        int64_t id;
        int rc;
        mkpath(path, sizeof path, "%s[%zu]", key, i);
        if (!json_is_object(t)) {
            if ((rc = problem(r, PB_EFORMAT, path, "an object", "%s", jtype(t)))) return rc;
            continue;
        }
        note_unknown_members(r, t, r->legacy ? known_legacy : known_v1, path, &noted);
        rc = get_id(r, t, "id", path, &id);
        if (rc < 0) return rc;
        json_t *nm = json_object_get(t, name_key);
        if (!json_is_string(nm)) {
            mkpath(path2, sizeof path2, "%s.%s", path, name_key);
            int rc2 = problem(r, PB_EFORMAT, path2, "a string", "%s", jtype(nm));
            if (rc2) return rc2;
            continue;
        }
        if (rc) continue;
        uint32_t sym, first;
        if (pb_profile_add_symbol(r->p, json_string_value(nm), json_string_length(nm), &sym,
                                  r->err))
            return nomem(r);
        if (pbi_idmap_get(&r->types, id, &first)) {
            mkpath(path2, sizeof path2, "%s.id", path);
            if (!r->lenient) {
                if ((rc = problem(r, PB_EFORMAT, path2, "a type id not used before",
                                  "%" PRId64 " again", id)))
                    return rc;
            } else {
                fixup(r, FIX_DUPLICATE_TYPE, path2, "%" PRId64, id);
            }
            continue; /* the first definition keeps the id */
        }
        if (pbi_idmap_put(&r->types, id, sym)) return nomem(r);
    }
    return 0;
}

/* methods[i].signature: type ids resolved into sig; sets *bad when one is not. */
static int read_signature(reader *r, json_t *sg, size_t ns, const char *path, uint32_t *sig, int *bad) {
    char path2[220];
    int rc;
    for (size_t k = 0; k < ns; k++) {
        json_t *tv = json_array_get(sg, k);
        mkpath(path2, sizeof path2, "%s.signature[%zu]", path, k);
        if (!json_is_integer(tv)) {
            if ((rc = problem(r, PB_EFORMAT, path2, "an integer", "%s", jtype(tv)))) return rc;
            *bad = 1;
            continue;
        }
        rc = resolve_type(r, json_integer_value(tv), path2, &sig[k]);
        if (rc < 0) return rc;
        if (rc) *bad = 1;
    }
    return 0;
}

/* One method; a method with a problem (reported) is left out. */
static int read_method(reader *r, json_t *m, const char *path, uint32_t **sig, size_t *sig_cap, int *noted) {
    static const char *const known_v1[] = {"id", "name", "signature", NULL};
    static const char *const known_legacy[] = {"id", "methodName", "signature", NULL};
    const char *name_key = r->legacy ? "methodName" : "name";
    char path2[220];
    int64_t id;
    if (!json_is_object(m)) return problem(r, PB_EFORMAT, path, "an object", "%s", jtype(m));
    note_unknown_members(r, m, r->legacy ? known_legacy : known_v1, path, noted);
    int rc = get_id(r, m, "id", path, &id);
    if (rc < 0) return rc;
    int bad = rc;
    json_t *nm = json_object_get(m, name_key);
    if (!json_is_string(nm)) {
        mkpath(path2, sizeof path2, "%s.%s", path, name_key);
        if ((rc = problem(r, PB_EFORMAT, path2, "a string", "%s", jtype(nm)))) return rc;
        bad = 1;
    }
    json_t *sg = json_object_get(m, "signature");
    size_t ns = json_array_size(sg);
    if (!json_is_array(sg)) {
        mkpath(path2, sizeof path2, "%s.signature", path);
        if ((rc = problem(r, PB_EFORMAT, path2, "an array", "%s", jtype(sg)))) return rc;
        bad = 1;
        ns = 0;
    }
    if (pbu_grow((void **)sig, sig_cap, ns + 1, sizeof **sig)) return nomem(r);
    if ((rc = read_signature(r, sg, ns, path, *sig, &bad))) return rc;
    if (bad) return 0;
    uint32_t idx, first;
    if (pb_profile_add_method(r->p, json_string_value(nm), json_string_length(nm), *sig, ns, &idx, r->err))
        return nomem(r);
    if (pbi_idmap_get(&r->methods, id, &first)) {
        mkpath(path2, sizeof path2, "%s.id", path);
        if (!r->lenient)
            return problem(r, PB_EFORMAT, path2, "a method id not used before", "%" PRId64 " again", id);
        fixup(r, FIX_DUPLICATE_METHOD, path2, "%" PRId64, id);
        return 0;
    }
    if (pbi_idmap_put(&r->methods, id, idx)) return nomem(r);
    return 0;
}

static int read_methods(reader *r, json_t *arr, const char *key) {
    int noted = 0;
    char path[200];
    uint32_t *sig = NULL;
    size_t sig_cap = 0;
    int rc = 0;
    if (!json_is_array(arr)) return problem(r, PB_EFORMAT, key, "an array", "%s", jtype(arr));
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n && rc == 0; i++) {
        mkpath(path, sizeof path, "%s[%zu]", key, i);
        rc = read_method(r, json_array_get(arr, i), path, &sig, &sig_cap, &noted);
    }
    free(sig);
    return rc;
}

/* ---- profile entries ------------------------------------------------------------- */

typedef struct section_state {
    const pbi_iprof_section *sec;
    const char *key;   /* as spelled in the file */
    pbi_idmap seen;    /* context id (monitor: -1) -> entry index */
    pbi_idmap recs;    /* lenient: record key (context, layout) -> record index */
    int noted_unknown;
} section_state;

/* Checks one integer of `records`; 0 ok, 1 reported, <0 code. */
static int check_count(reader *r, json_t *v, const char *rpath, size_t k, uint64_t *out) {
    char path[240];
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        mkpath(path, sizeof path, "%s[%zu]", rpath, k);
        int rc = json_is_integer(v)
                     ? problem(r, PB_EFORMAT, path, "a count in [0, 2^63-1]", "%" PRId64,
                               (int64_t)json_integer_value(v))
                     : problem(r, PB_EFORMAT, path, "an integer", "%s", jtype(v));
        return rc ? rc : 1;
    }
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int check_int32(reader *r, json_t *v, const char *rpath, size_t k, const char *what,
                       int32_t *out) {
    char path[240];
    if (!json_is_integer(v) || !is_int32(json_integer_value(v))) {
        mkpath(path, sizeof path, "%s[%zu]", rpath, k);
        int rc = json_is_integer(v)
                     ? problem(r, PB_EFORMAT, path, what, "%" PRId64, (int64_t)json_integer_value(v))
                     : problem(r, PB_EFORMAT, path, "an integer", "%s", jtype(v));
        return rc ? rc : 1;
    }
    *out = (int32_t)json_integer_value(v);
    return 0;
}

/* PBI_SHAPE_COUNT: exactly one count. */
static int read_count_shape(reader *r, json_t *recs, const char *rpath, pb_record *rec) {
    size_t n = json_array_size(recs);
    int rc;
    if (n != 1) {
        rc = problem(r, PB_EFORMAT, rpath, "exactly 1 value", "%zu", n);
        return rc ? rc : 1;
    }
    if (pbu_grow((void **)&r->counters, &r->counters_cap, 1, sizeof *r->counters))
        return nomem(r);
    rc = check_count(r, json_array_get(recs, 0), rpath, 0, &r->counters[0]);
    if (rc) return rc;
    rec->num_counters = 1;
    rec->counters = r->counters;
    return 0;
}

/* PBI_SHAPE_BRANCH: (bci, index, count) triples; the layout holds the
 * (bci, index) pairs, counter 0 the sum of the counts. */
static int read_branch_shape(reader *r, json_t *recs, const char *rpath, pb_record *rec) {
    size_t n = json_array_size(recs);
    int bad = 0, rc;
    if (n % 3) {
        rc = problem(r, PB_EFORMAT, rpath, "a multiple of 3 values", "%zu", n);
        return rc ? rc : 1;
    }
    size_t t = n / 3;
    if (t + 1 > UINT32_MAX ||
        pbu_grow((void **)&r->counters, &r->counters_cap, t + 1, sizeof *r->counters) ||
        pbu_grow((void **)&r->layout, &r->layout_cap, 2 * t + 1, sizeof *r->layout))
        return nomem(r);
    uint64_t sum = 0;
    for (size_t i = 0; i < t; i++) {
        rc = check_int32(r, json_array_get(recs, 3 * i), rpath, 3 * i,
                         "a BCI that fits in 32 bits", &r->layout[2 * i]);
        if (rc < 0) return rc;
        bad |= rc;
        rc = check_int32(r, json_array_get(recs, 3 * i + 1), rpath, 3 * i + 1,
                         "a branch index that fits in 32 bits", &r->layout[2 * i + 1]);
        if (rc < 0) return rc;
        bad |= rc;
        rc = check_count(r, json_array_get(recs, 3 * i + 2), rpath, 3 * i + 2,
                         &r->counters[i + 1]);
        if (rc < 0) return rc;
        bad |= rc;
        if (!rc) sum = pbi_iprof_sat_add(sum, r->counters[i + 1]);
    }
    if (bad) return 1;
    r->counters[0] = sum;
    /* r->err, not a local pb_error: clearing 1.4 KB per entry showed in profiles */
    if (pb_profile_intern_ints(r->p, r->layout, 2 * t, &rec->layout, r->err)) return nomem(r);
    rec->num_counters = (uint32_t)(t + 1);
    rec->counters = r->counters;
    return 0;
}

/* One (typeId, count) pair into *v; 0 ok, 1 reported, <0 code. */
static int read_type_pair(reader *r, json_t *recs, const char *rpath, size_t i, pb_value *v) {
    char path[240];
    json_t *tv = json_array_get(recs, 2 * i);
    uint32_t sym = PB_NONE;
    int bad = 0, rc;
    mkpath(path, sizeof path, "%s[%zu]", rpath, 2 * i);
    if (!json_is_integer(tv)) {
        if ((rc = problem(r, PB_EFORMAT, path, "an integer", "%s", jtype(tv)))) return rc;
        bad = 1;
    } else {
        rc = resolve_type(r, json_integer_value(tv), path, &sym);
        if (rc < 0) return rc;
        bad |= rc;
    }
    uint64_t c = 0;
    rc = check_count(r, json_array_get(recs, 2 * i + 1), rpath, 2 * i + 1, &c);
    if (rc < 0) return rc;
    bad |= rc;
    if (bad) return 1;
    v->value = pb_profile_symbol(r->p, sym)->md5;
    v->count = c;
    v->symbol = sym;
    return 0;
}

/* PBI_SHAPE_TYPES: (typeId, count) pairs, one kind-2 site; counter 0 their sum. */
static int read_types_shape(reader *r, json_t *recs, const char *rpath, pb_record *rec, pb_site *site) {
    size_t n = json_array_size(recs);
    int bad = 0, rc;
    if (n % 2) {
        rc = problem(r, PB_EFORMAT, rpath, "a multiple of 2 values", "%zu", n);
        return rc ? rc : 1;
    }
    size_t t = n / 2;
    if (t > UINT32_MAX || pbu_grow((void **)&r->counters, &r->counters_cap, 1, sizeof *r->counters) ||
        pbu_grow((void **)&r->values, &r->values_cap, t + 1, sizeof *r->values))
        return nomem(r);
    uint64_t sum = 0;
    for (size_t i = 0; i < t; i++) {
        rc = read_type_pair(r, recs, rpath, i, &r->values[i]);
        if (rc < 0) return rc;
        bad |= rc;
        if (!bad) sum = pbi_iprof_sat_add(sum, r->values[i].count);
    }
    if (bad) return 1;
    /* Pair order carries no meaning (GraalVM sorts by its per-file type ids);
     * order by content so id-shuffled files give identical models. */
    qsort(r->values, t, sizeof *r->values, pbi_iprof_cmp_value);
    r->counters[0] = sum;
    rec->num_counters = 1;
    rec->counters = r->counters;
    site->num_values = (uint32_t)t;
    site->values = r->values;
    rec->num_sites[PB_VK_VTABLE] = 1;
    rec->sites[PB_VK_VTABLE] = site;
    return 0;
}

/* Fills r->counters/layout/values from `records` per the section's shape.
 * Returns 0, 1 (reported: skip the entry) or a code. */
static int read_records(reader *r, const pbi_iprof_section *sec, json_t *recs, const char *rpath,
                        pb_record *rec, pb_site *site) {
    if (sec->shape == PBI_SHAPE_COUNT) return read_count_shape(r, recs, rpath, rec);
    if (sec->shape == PBI_SHAPE_BRANCH) return read_branch_shape(r, recs, rpath, rec);
    return read_types_shape(r, recs, rpath, rec, site);
}

/* Parses and resolves a context; 0 ok (*ctx set), 1 reported, <0 code. */
static int read_ctx(reader *r, const pbi_iprof_section *sec, const char *s, size_t len,
                    const char *cpath, uint32_t *ctx) {
    size_t n = 0, bad = 0;
    int st = pbi_ctx_parse(s, len, r->legacy ? ',' : '<', sec->ctx_rule, &r->cf, &r->cf_cap, &n,
                           &bad);
    int rc = 0;
    char shown[72];
    snprintf(shown, sizeof shown, "\"%.*s\"%s", len > 60 ? 60 : (int)len, s, len > 60 ? "..." : "");
    switch (st) {
    case PBI_CTX_OK: break;
    case PBI_CTX_SYNTAX:
        rc = problem(r, PB_EFORMAT, cpath,
                     r->legacy ? "frames \"method:bci\" joined by ','"
                               : "frames \"method:bci\" joined by '<'",
                     "%s (bad at character %zu)", shown, bad + 1);
        return rc ? rc : 1;
    case PBI_CTX_RANGE_METHOD:
        rc = problem(r, PB_EFORMAT, cpath, "method ids that fit in 32 bits", "%s", shown);
        return rc ? rc : 1;
    case PBI_CTX_RANGE_BCI:
        rc = problem(r, PB_EFORMAT, cpath, "BCIs that fit in 32 bits", "%s", shown);
        return rc ? rc : 1;
    case PBI_CTX_ENTRY_BCI:
        rc = problem(r, PB_EFORMAT, cpath, "BCI 0 in the first frame", "%s", shown);
        return rc ? rc : 1;
    case PBI_CTX_MONITOR_CTX:
        rc = problem(r, PB_EFORMAT, cpath, "\"0:0\"", "%s", shown);
        return rc ? rc : 1;
    default: return nomem(r);
    }
    if (sec->kind == PB_REC_JAVA_MONITOR) {
        *ctx = PB_NONE;
        return 0;
    }
    if (pbu_grow((void **)&r->frames, &r->frames_cap, n, sizeof *r->frames)) return nomem(r);
    int badm = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t m;
        if (!pbi_idmap_lookup(&r->methods, r->mdense, r->nmdense, r->cf[i].method, &m)) {
            char fpath[240];
            mkpath(fpath, sizeof fpath, "%s", cpath);
            rc = resolve_method(r, r->cf[i].method, fpath, &m);
            if (rc < 0) return rc;
            if (rc) {
                badm = 1;
                continue;
            }
        }
        r->frames[i].method = m;
        r->frames[i].bci = r->cf[i].bci;
    }
    if (badm) return 1;
    if (pb_profile_intern_context(r->p, r->frames, n, ctx, r->err)) return nomem(r);
    return 0;
}

/* Lenient: adds a repeated entry into the record of its first occurrence.
 * 1 when done; 0 when the shapes differ or a new type would have to be added
 * (then the model's merge does it). */
static int merge_in_place(reader *r, uint32_t ri, const pb_record *rec) {
    pb_record *dst = pb_profile_record_mut(r->p, ri);
    if (!dst || dst->num_counters != rec->num_counters) return 0;
    const pb_site *add = rec->num_sites[PB_VK_VTABLE] ? rec->sites[PB_VK_VTABLE] : NULL;
    pb_site *to = dst->num_sites[PB_VK_VTABLE] ? dst->sites[PB_VK_VTABLE] : NULL;
    if ((add != NULL) != (to != NULL)) return 0;
    if (add) {
        for (uint32_t i = 0; i < add->num_values; i++) {
            uint32_t k = 0;
            while (k < to->num_values && to->values[k].symbol != add->values[i].symbol) k++;
            if (k == to->num_values) return 0;
        }
        for (uint32_t i = 0; i < add->num_values; i++) {
            uint32_t k = 0;
            while (to->values[k].symbol != add->values[i].symbol) k++;
            to->values[k].count = pbi_iprof_sat_add(to->values[k].count, add->values[i].count);
        }
    }
    for (uint32_t i = 0; i < rec->num_counters; i++)
        dst->counters[i] = pbi_iprof_sat_add(dst->counters[i], rec->counters[i]);
    return 1;
}

/* Adds entry i's record to the model, or (lenient) merges a repeated
 * context into the record of its first occurrence. cv: the entry's context. */
static int add_entry(reader *r, section_state *ss, pb_record *rec, json_t *cv, size_t i, const char *cpath,
                     const char *epath) {
    uint32_t ctx = rec->ctx;
    int64_t key = ctx == PB_NONE ? -1 : (int64_t)ctx;
    int64_t rkey = (int64_t)(((uint64_t)(rec->layout == PB_NONE ? 0 : rec->layout) << 32) |
                             (ctx == PB_NONE ? 0 : ctx));
    uint32_t first;
    int rc;
    if (pbi_idmap_get(&ss->seen, key, &first)) {
        if (!r->lenient) {
            return problem(r, PB_EFORMAT, cpath, "a context not repeated within the section",
                           "\"%s\" again (first at %s[%" PRIu32 "])",
                           cv ? json_string_value(cv) : "0:0", ss->key, first);
        }
        fixup(r, FIX_REPEATED_CTX, cpath, "%s", cv ? json_string_value(cv) : "0:0");
        uint32_t ri;
        if (pbi_idmap_get(&ss->recs, rkey, &ri) && merge_in_place(r, ri, rec)) return 0;
        pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
        mo.max_count = PB_MAX_COUNT_IPROF;
        mo.max_values_per_site = 0;
        mo.diag = r->o->diag;
        mo.diag_ctx = r->o->diag_ctx;
        mo.source = r->src;
        rc = pb_profile_merge_record(r->p, rec, &mo, r->err);
    } else {
        size_t ri = 0;
        if (pbi_idmap_put(&ss->seen, key, (uint32_t)i)) return nomem(r);
        rc = pb_profile_add_record(r->p, rec, &ri, r->err);
        if (!rc && r->lenient && pbi_idmap_put(&ss->recs, rkey, (uint32_t)ri)) return nomem(r);
    }
    if (rc) {
        if (rc == PB_ENOMEM) return nomem(r);
        /* The model refused a record we built: say where it came from. */
        if (r->err && !r->err->path[0]) snprintf(r->err->path, sizeof r->err->path, "%s", epath);
        return rc;
    }
    return 0;
}

static int read_entry(reader *r, section_state *ss, json_t *ent, size_t i, const char *epath) {
    static const char *const known_v1[] = {"ctx", "records", NULL};
    static const char *const known_legacy[] = {"methodBciList", "records", NULL};
    const pbi_iprof_section *sec = ss->sec;
    const char *ctx_key = r->legacy ? "methodBciList" : "ctx";
    char cpath[220], rpath[220];
    int rc, bad = 0;
    uint32_t ctx = PB_NONE;
    if (!json_is_object(ent)) {
        rc = problem(r, PB_EFORMAT, epath, "an object", "%s", jtype(ent));
        return rc;
    }
    /* One walk over the (two) members instead of hash lookups plus a check
     * for unknown members: this runs for every entry of a 150 MB file. */
    json_t *cv = NULL, *recs = NULL;
    int unknown = 0;
    for (void *it = json_object_iter(ent); it; it = json_object_iter_next(ent, it)) {
        const char *k = json_object_iter_key(it);
        if (strcmp(k, ctx_key) == 0) cv = json_object_iter_value(it);
        else if (strcmp(k, "records") == 0) recs = json_object_iter_value(it);
        else unknown = 1;
    }
    if (unknown)
        note_unknown_members(r, ent, r->legacy ? known_legacy : known_v1, epath,
                             &ss->noted_unknown);
    join_path(cpath, sizeof cpath, ss->key, i, r->legacy ? ".methodBciList" : ".ctx");
    join_path(rpath, sizeof rpath, ss->key, i, ".records");
    if (sec->kind == PB_REC_JAVA_MONITOR && r->legacy && !cv) {
        /* 0.2.0 monitorsProfile is one object without a context */
    } else if (!json_is_string(cv)) {
        if ((rc = problem(r, PB_EFORMAT, cpath, "a string", "%s", jtype(cv)))) return rc;
        bad = 1;
    } else {
        rc = read_ctx(r, sec, json_string_value(cv), json_string_length(cv), cpath, &ctx);
        if (rc < 0) return rc;
        bad |= rc;
    }
    if (!json_is_array(recs)) {
        if ((rc = problem(r, PB_EFORMAT, rpath, "an array", "%s", jtype(recs)))) return rc;
        return 0;
    }
    pb_record rec;
    pb_site site = {0, NULL};
    memset(&rec, 0, sizeof rec);
    rec.kind = sec->kind;
    rec.name = PB_NONE;
    rec.ctx = ctx;
    rec.layout = PB_NONE;
    rc = read_records(r, sec, recs, rpath, &rec, &site);
    if (rc < 0) return rc;
    if (rc || bad) return 0;
    return add_entry(r, ss, &rec, cv, i, cpath, epath);
}

static int read_section(reader *r, section_state *ss, json_t *arr) {
    char epath[200];
    int rc;
    if (!json_is_array(arr)) return problem(r, PB_EFORMAT, ss->key, "an array", "%s", jtype(arr));
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        join_path(epath, sizeof epath, ss->key, i, NULL);
        if ((rc = read_entry(r, ss, json_array_get(arr, i), i, epath))) return rc;
    }
    return 0;
}

/* ---- top level ---------------------------------------------------------------------- */

/* Keys this layout understands (everything else is kept as iprof.extra.<key>). */
static int is_known_key(const reader *r, const char *k) {
    static const char *const v1[] = {"version", "types", "methods", "callCountProfiles",
                                     "conditionalProfiles", "virtualInvokeProfiles",
                                     "monitorProfiles", "samplingProfiles",
                                     "instanceOfProfiles", "instanceofProfiles", NULL};
    static const char *const legacy[] = {"version", "types", "methods", "hotnessPoints",
                                         "conditionalPoints", "invokePoints", "monitorsProfile",
                                         NULL};
    const char *const *list = r->legacy ? legacy : v1;
    for (size_t i = 0; list[i]; i++)
        if (strcmp(k, list[i]) == 0) return 1;
    return 0;
}

/* Decides the layout from "version". Returns 0 or a code. */
static int read_version(reader *r, json_t *root) {
    json_t *v = json_object_get(root, "version");
    int rc;
    /* Without a usable version, guess the layout from the keys to go on. */
    r->legacy = json_object_get(root, "hotnessPoints") != NULL;
    snprintf(r->version, sizeof r->version, "%s", r->legacy ? "0.2.0" : "1.1.0");
    r->allow_instanceof = !r->legacy;
    if (!v) return problem(r, PB_EFORMAT, "version", "the member \"version\"", "no such member");
    if (!json_is_string(v)) return problem(r, PB_EFORMAT, "version", "a string", "%s", jtype(v));
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    const pbi_iprof_version *row = pbi_iprof_version_find(s, len);
    if (row) {
        r->legacy = row->layout == PBI_IPROF_LEGACY;
        r->allow_instanceof = row->has_instanceof;
        snprintf(r->version, sizeof r->version, "%s", row->text);
        return 0;
    }
    char shown[64];
    snprintf(shown, sizeof shown, "\"%.*s\"%s", len > 40 ? 40 : (int)len, s, len > 40 ? "..." : "");
    if (r->lenient) {
        warn(r, "version", "unknown iprof version %s read as 1.1.0", shown);
        r->legacy = 0;
        r->allow_instanceof = 1;
        snprintf(r->version, sizeof r->version, "1.1.0");
        return 0;
    }
    if (!pbi_iprof_version_well_formed(s, len))
        rc = problem(r, PB_EVERSION, "version", "a version like \"1.1.0\" (0.2.0, 0.4.0, 1.0.0 or 1.1.0)",
                     "%s", shown);
    else
        rc = problem(r, PB_EVERSION, "version", "0.2.0, 0.4.0, 1.0.0 or 1.1.0",
                     "unsupported version %s", shown);
    return rc;
}

static int read_sections(reader *r, json_t *root) {
    int rc = 0;
    for (size_t si = 0; si < pbi_iprof_section_count; si++) {
        const pbi_iprof_section *sec = &pbi_iprof_sections[si];
        section_state ss = {sec, NULL, PBI_IDMAP_INIT, PBI_IDMAP_INIT, 0};
        json_t *arr = NULL;
        if (r->legacy) {
            if (sec->kind == PB_REC_JAVA_MONITOR) {
                json_t *obj = json_object_get(root, "monitorsProfile");
                if (!obj) continue;
                ss.key = "monitorsProfile";
                if (!json_is_object(obj)) {
                    rc = problem(r, PB_EFORMAT, ss.key, "an object", "%s", jtype(obj));
                } else {
                    rc = read_entry(r, &ss, obj, SIZE_MAX, ss.key);
                }
                pbi_idmap_free(&ss.seen);
                pbi_idmap_free(&ss.recs);
                if (rc) return rc;
                json_object_del(root, ss.key);
                continue;
            }
            if (!sec->legacy_key) continue;
            ss.key = sec->legacy_key;
        } else if (sec->kind == PB_REC_JAVA_INSTANCEOF) {
            json_t *a = json_object_get(root, "instanceOfProfiles");
            json_t *b = json_object_get(root, "instanceofProfiles");
            ss.key = b && !a ? "instanceofProfiles" : "instanceOfProfiles";
            if (a && b &&
                (rc = problem(r, PB_EFORMAT, "instanceofProfiles",
                              "only one of instanceofProfiles and instanceOfProfiles",
                              "both members")))
                return rc;
            json_t *use = a ? a : b;
            if (use && json_is_array(use) && json_array_size(use) > 0 && !r->allow_instanceof) {
                if (!r->lenient) {
                    if ((rc = problem(r, PB_EFORMAT, ss.key,
                                      "no instanceof entries before version 1.1.0",
                                      "%zu entr%s in a %s file", json_array_size(use),
                                      json_array_size(use) == 1 ? "y" : "ies", r->version)))
                        return rc;
                    json_object_del(root, ss.key);
                    continue;
                }
                warn(r, ss.key, "instanceof entries in a %s file: version raised to 1.1.0",
                     r->version);
                snprintf(r->version, sizeof r->version, "1.1.0");
                r->allow_instanceof = 1;
            }
        } else {
            ss.key = sec->key;
        }
        arr = json_object_get(root, ss.key);
        if (!arr) continue;
        rc = read_section(r, &ss, arr);
        pbi_idmap_free(&ss.seen);
        pbi_idmap_free(&ss.recs);
        if (rc) return rc;
        json_object_del(root, ss.key); /* release the subtree now: keeps the peak low */
        if (sec->kind == PB_REC_JAVA_INSTANCEOF) {
            json_object_del(root, "instanceofProfiles");
        }
    }
    return 0;
}

static int read_extras(reader *r, json_t *root) {
    const char *key;
    json_t *v;
    size_t klen;
    json_object_keylen_foreach(root, key, klen, v) {
        if (is_known_key(r, key)) continue;
        if (strlen(key) != klen) {
            warn(r, NULL, "top-level member with a NUL byte in its name dropped");
            continue;
        }
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!text) return nomem(r);
        size_t pk_len = klen + sizeof "iprof.extra.";
        char *pk = malloc(pk_len);
        if (!pk) {
            free(text);
            return nomem(r);
        }
        snprintf(pk, pk_len, "iprof.extra.%s", key);
        pb_error e;
        pb_error_clear(&e);
        int rc = pb_profile_set_prop(r->p, pk, text, strlen(text), &e);
        free(pk);
        free(text);
        if (rc) return nomem(r);
    }
    return 0;
}

static void emit_fixups(reader *r) {
    for (int k = 0; k < FIX_COUNT; k++) {
        const fixup_note *f = &r->fix[k];
        if (!f->count) continue;
        warn(r, f->first_path, "lenient: %zu %s (first: %s)", f->count, fixup_text[k],
             f->first_found);
    }
}

/* Parses the whole source into *root, jansson pulling through load_cb. */
static int load_root(reader *r, pb_source *in, json_t **root) {
    json_error_t je;
    int rc;
    pb_error *err = r->err;
    loader *l = calloc(1, sizeof *l);
    if (!l) return nomem(r);
    l->in = in;
    l->err = err;
    pbi_jpath_init(&l->now);
    pbi_jpath_init(&l->chunk_start);
    /* jansson rejects a UTF-8 byte order mark; the probe accepts one. */
    const uint8_t *head = NULL;
    size_t head_len = 0, got = 0;
    uint8_t bom[3];
    if ((rc = pb_source_peek(in, &head, &head_len, err))) goto out;
    if (head_len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF &&
        (rc = pb_source_read(in, bom, 3, &got, err)))
        goto out;
    pbu_oom_watch w;
    pbu_oom_watch_start(&w);
    *root = json_load_callback(load_cb, l, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
    int oom = pbu_oom_watch_seen(&w);
    if (!*root) {
        if (l->failed) {
            rc = err && err->code ? err->code : PB_EIO;
        } else if (!je.text[0] || oom) {
            /* no message: jansson's first allocations failed (lex_init);
             * a failed allocation inside its lexer it reports as a syntax
             * error, seen through errno (util/oom_watch.h): not the input's fault */
            rc = nomem(r);
        } else {
            rc = syntax_problem(r, l, &je);
        }
    } else if (oom) {
        /* jansson can lose a byte of a string when an allocation fails and
         * still return a document (found by scripts/alloc-sweep.sh: a
         * method name came out one letter short): not the input's document */
        rc = nomem(r);
    }
out:
    free(l);
    return rc;
}

/* "types", then "methods", each deleted from the tree once converted and
 * turned into a direct table when its ids are dense. */
static int read_id_tables(reader *r, json_t *root) {
    int rc;
    json_t *types = json_object_get(root, "types");
    if (!types) rc = problem(r, PB_EFORMAT, "types", "the member \"types\"", "no such member");
    else rc = read_types(r, types, "types");
    if (rc) return rc;
    json_object_del(root, "types");
    if (pbi_idmap_dense(&r->types, &r->tdense, &r->ntdense)) return nomem(r);

    json_t *methods = json_object_get(root, "methods");
    if (!methods)
        rc = problem(r, PB_EFORMAT, "methods", "the member \"methods\"", "no such member");
    else
        rc = read_methods(r, methods, "methods");
    if (rc) return rc;
    json_object_del(root, "methods");
    if (pbi_idmap_dense(&r->methods, &r->mdense, &r->nmdense)) return nomem(r);
    return 0;
}

/* The profile-wide facts: flags, origin, the version property and the extras. */
static int read_facts(reader *r, json_t *root) {
    pb_profile_set_flags(r->p, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    pb_origin origin;
    memset(&origin, 0, sizeof origin);
    snprintf(origin.format, sizeof origin.format, "iprof");
    origin.version = pbi_iprof_version_number(r->version, strlen(r->version));
    pb_profile_set_origin(r->p, &origin);
    int rc = pb_profile_set_prop(r->p, "iprof.version", r->version, strlen(r->version), r->err);
    return rc ? rc : read_extras(r, root);
}

/* The top-level members in order; root's members are deleted as they are
 * read. *complete: all were read (report-all mode stops after the sections
 * when they had problems). */
static int read_root(reader *r, json_t *root, int *complete) {
    int rc;
    *complete = 0;
    if (!json_is_object(root)) {
        rc = problem(r, PB_EFORMAT, "", "a JSON object at the top level", "%s", jtype(root));
        return rc ? rc : PB_EFORMAT;
    }
    if ((rc = read_version(r, root)) || (rc = read_id_tables(r, root)) || (rc = read_sections(r, root)))
        return rc;
    if (r->report_all && r->problems) return 0;
    *complete = 1;
    return read_facts(r, root);
}

static void reader_free(reader *r) {
    pbi_idmap_free(&r->types);
    pbi_idmap_free(&r->methods);
    free(r->tdense);
    free(r->mdense);
    free(r->cf);
    free(r->frames);
    free(r->counters);
    free(r->layout);
    free(r->values);
}

int pbi_iprof_read_tree(pb_profile **out, pb_source *in, const pb_read_options *o,
                        pb_error *err) {
    static const pb_read_options defaults = PB_READ_OPTIONS_INIT;
    reader r;
    json_t *root = NULL;
    int rc = 0;
    *out = NULL;
    memset(&r, 0, sizeof r);
    r.o = o ? o : &defaults;
    r.err = err;
    r.src = pb_source_name(in);
    r.lenient = r.o->lenient;
    r.report_all = r.o->report_all;
    pb_error_set_source(err, r.src);
    int complete = 0;
    if ((rc = pb_profile_new(&r.p, err)) == 0 && (rc = load_root(&r, in, &root)) == 0 &&
        (rc = read_root(&r, root, &complete)) == 0 && complete) {
        json_decref(root);
        root = NULL;
        emit_fixups(&r);
        rc = pb_profile_canonicalize(r.p, err);
    }
    if (!rc && r.report_all && r.problems) rc = PB_EFORMAT;
    if (rc && r.report_all && r.problems) {
        pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "%zu problem%s found", r.problems,
                     r.problems == 1 ? "" : "s");
        rc = PB_EFORMAT;
    }
    /* The model calls above (pb_profile_*) start their pb_error afresh, so
     * the name set at the start may be gone: name the input again. */
    if (rc) pb_error_set_source(err, r.src);
    json_decref(root);
    reader_free(&r);
    if (rc) {
        pb_profile_free(r.p);
        return rc;
    }
    *out = r.p;
    return 0;
}

int pbi_iprof_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) {
    pb_error e;
    pb_error_clear(&e);
    /* A source that can be rewound (a regular file, memory) lets the fast
     * path give up half way: the tree reader then starts again from byte 0. */
    int rr = pb_source_rewind(in, &e);
    if (rr && rr != PB_EUNSUPPORTED) {
        /* the source restarted and failed (out of memory): it cannot be read */
        if (err) *err = e;
        return rr;
    }
    if (rr == 0) {
        int rc = pbi_iprof_stream_read(out, in, err);
        if (rc != PBI_IPROF_STREAM_OTHER) {
            if (!rc) pb_error_set_source(err, pb_source_name(in));
            return rc;
        }
        if ((rc = pb_source_rewind(in, err))) return rc;
    }
    return pbi_iprof_read_tree(out, in, o, err);
}
