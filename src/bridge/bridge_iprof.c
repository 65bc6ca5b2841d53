/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bridge_iprof.c -- LLVM -> iprof (docs/mapping.md §7, §9).
 *
 * Function records whose name and hash follow the Java grammar become Java
 * records again; jmeta: records give back the version, the types and the
 * unreferenced methods; every other function becomes a native method
 * NAME in type "llvm:function" returning "llvm:hash:0x<hash>" with
 *   callCountProfiles   ctx "m:0" = [counter 0]
 *   conditionalProfiles ctx "m:0" = (i, i, counter i) for i = 1..n-1
 *   virtualInvokeProfiles ctx "m:j" = vtable site j, when its vtables have names
 * and everything iprof cannot say (hash, bitmaps, value sites with their
 * order, counts above 2^63-1, flags, origin, binary ids, traces, vtable
 * names, record order) in the top-level extension key "llvm": the JSON
 * model (docs/json-model.md) of the native functions, so LLVM -> iprof ->
 * LLVM gives the same model.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge.h"
#include "bridge/bridge_meta.h"
#include "model/write_notice.h"
#include "util/diag.h"
#include "model/jname.h"
#include "model/str_md5.h"
#include "util/json_text.h"

#define IPROF_MAX ((uint64_t)INT64_MAX)

int pbi_bridge_native_method(const pb_profile *p, uint32_t m, uint64_t *hash) {
    const pb_method *me = pb_profile_method(p, m);
    if (!me || me->placeholder || me->num_sig != 2) return 0;
    const pb_symbol *d = pb_profile_symbol(p, me->sig[0]), *r = pb_profile_symbol(p, me->sig[1]);
    if (!d || !r || d->placeholder || r->placeholder) return 0;
    size_t dl, rl;
    const char *dn = pb_profile_str(p, d->name, &dl), *rn = pb_profile_str(p, r->name, &rl);
    size_t pl = strlen(PBI_BRIDGE_HASH_PREFIX);
    if (!dn || !rn || dl != strlen(PBI_BRIDGE_NATIVE_TYPE) || memcmp(dn, PBI_BRIDGE_NATIVE_TYPE, dl) ||
        rl != pl + 16 || memcmp(rn, PBI_BRIDGE_HASH_PREFIX, pl))
        return 0;
    uint64_t h = 0;
    for (size_t i = pl; i < rl; i++) {
        char c = rn[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) return 0;
        h = h << 4 | (uint64_t)v;
    }
    if (hash) *hash = h;
    return 1;
}

static int by_value(const void *a, const void *b) {
    const pb_value *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

static int add_or_merge(pb_profile *v, const pb_record *t, pb_error *err) {
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.max_count = IPROF_MAX;
    mo.max_values_per_site = 0;
    int rc = pb_profile_add_record(v, t, NULL, err);
    if (rc == PB_EEXIST) {
        pb_error_clear(err);
        rc = pb_profile_merge_record(v, t, &mo, err);
    }
    return rc;
}

/* Parses r's name into t when r can be a Java record: a Java name with its
 * hash, no bitmap and no value sites but kind 2, and the counters its kind
 * and layout want (kind-2 sites only on typed kinds). 1 = parsed, 0 = not a
 * Java record, < 0 = error. *typed: the kind has a type histogram. */
static int parse_java_record(const pb_profile *p, pb_profile *v, pbi_jname_cache *fc, const pb_record *r,
                             const char *name, size_t len, pb_record *t, int *typed, pb_error *err) {
    /* the name's NameRef as the reader noted it (indexed: no second MD5) */
    if (pbi_jname_kind(name, len) < 0 ||
        r->hash != pbi_jname_hash_of_ref(pbi_profile_str_md5(p, r->name)) || r->num_bitmap_bytes ||
        r->num_sites[PB_VK_INDIRECT_CALL] || r->num_sites[PB_VK_MEMOP_SIZE])
        return 0;
    pb_error perr;
    memset(t, 0, sizeof *t);
    pb_error_clear(&perr);
    int prc = pbi_jname_parse_cached(v, fc, name, len, t, &perr);
    if (prc == PB_ENOMEM) {
        /* out of memory is not "not a Java record": pass it up */
        *err = perr;
        return prc;
    }
    if (prc) return 0;
    *typed = t->kind == PB_REC_JAVA_VIRTUAL_INVOKE || t->kind == PB_REC_JAVA_INSTANCEOF ||
             t->kind == PB_REC_JAVA_MONITOR;
    size_t nl = 0;
    if (t->kind == PB_REC_JAVA_BRANCH) (void)pb_profile_ints(v, t->layout, &nl);
    return r->num_counters == 1 + nl / 2 && (*typed || !r->num_sites[PB_VK_VTABLE]);
}

/* The values of r's kind-2 sites, in one array (LLVM writers split big
 * histograms over several sites), their types as v's symbols. 1 = every
 * type found, 0 = a type no table names (the record stays native), < 0 =
 * error. */
static int collect_types(pbi_importer *im, pb_profile *v, const pb_record *r, pb_value *vals, pb_error *err) {
    size_t k = 0;
    int rc = 1;
    for (uint32_t j = 0; j < r->num_sites[PB_VK_VTABLE] && rc == 1; j++) {
        const pb_site *s = &r->sites[PB_VK_VTABLE][j];
        for (uint32_t x = 0; x < s->num_values && rc == 1; x++, k++) {
            vals[k] = s->values[x];
            int e = s->values[x].symbol != PB_NONE
                        ? pbi_import_symbol(im, s->values[x].symbol, &vals[k].symbol, err)
                        : pb_profile_find_symbol_md5(v, s->values[x].value, &vals[k].symbol);
            if (e == PB_ENOTFOUND) rc = 0;
            else if (e) rc = e;
        }
    }
    return rc;
}

/* A histogram split over sites, merged by LLVM from runs whose type sets
 * differed, may hold a type in two sites: one pair per type in iprof, the
 * counts added (saturating). Returns the number of pairs left. */
static size_t merge_duplicate_types(pb_value *vals, size_t nv) {
    if (nv <= 1) return nv;
    qsort(vals, nv, sizeof *vals, by_value);
    size_t o = 0;
    for (size_t x = 0; x < nv; x++) {
        if (o && vals[o - 1].value == vals[x].value) {
            uint64_t c = vals[o - 1].count + vals[x].count;
            vals[o - 1].count = c < vals[x].count ? UINT64_MAX : c;
        } else {
            vals[o++] = vals[x];
        }
    }
    return o;
}

/* Function record r as a Java record of v, when it is one: 1 = converted,
 * 0 = not a Java record (caller treats it as native), < 0 = error. */
static int as_java(const pb_profile *p, pb_profile *v, pbi_importer *im, pbi_jname_cache *fc, const pb_record *r,
                   const char *name, size_t len, pb_error *err) {
    pb_record t;
    int typed = 0;
    int rc = parse_java_record(p, v, fc, r, name, len, &t, &typed, err);
    if (rc != 1) return rc;
    size_t nv = 0;
    for (uint32_t j = 0; j < r->num_sites[PB_VK_VTABLE]; j++) nv += r->sites[PB_VK_VTABLE][j].num_values;
    pb_value *vals = calloc(nv + 1, sizeof *vals);
    if (!vals) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a type histogram");
    rc = collect_types(im, v, r, vals, err);
    if (rc == 1) nv = merge_duplicate_types(vals, nv);
    pb_site site = {(uint32_t)nv, vals};
    t.num_counters = r->num_counters;
    t.counters = r->counters;
    t.num_sites[PB_VK_VTABLE] = typed ? 1 : 0;
    t.sites[PB_VK_VTABLE] = typed ? &site : NULL;
    if (rc == 1) {
        int e = add_or_merge(v, &t, err);
        if (e) rc = e;
    }
    free(vals);
    return rc;
}

/* Vtable site j of native function r as a virtualInvokeProfiles entry of
 * method m, ctx "m:j", when every value has a vtable name (a type in iprof);
 * a site with an unnamed vtable lives in the "llvm" key only. */
static int vtable_entry(pb_profile *v, pbi_importer *iv, const pb_record *r, uint32_t j, uint32_t m,
                        pb_error *err) {
    const pb_site *s = &r->sites[PB_VK_VTABLE][j];
    for (uint32_t x = 0; x < s->num_values; x++)
        if (s->values[x].symbol == PB_NONE) return 0;
    pb_value *vals = calloc(s->num_values + 1, sizeof *vals);
    if (!vals) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a site");
    int rc = 0;
    uint64_t sum = 0;
    for (uint32_t x = 0; x < s->num_values && !rc; x++) {
        vals[x] = s->values[x];
        if (vals[x].count > IPROF_MAX) vals[x].count = IPROF_MAX;
        sum = sum + vals[x].count > IPROF_MAX ? IPROF_MAX : sum + vals[x].count;
        rc = pbi_import_symbol(iv, s->values[x].symbol, &vals[x].symbol, err);
    }
    pb_frame f = {m, (int32_t)j};
    pb_site site = {s->num_values, vals};
    pb_record t;
    memset(&t, 0, sizeof t);
    t.kind = PB_REC_JAVA_VIRTUAL_INVOKE;
    t.name = PB_NONE;
    t.layout = PB_NONE;
    t.num_counters = 1;
    t.counters = &sum;
    t.num_sites[PB_VK_VTABLE] = 1;
    t.sites[PB_VK_VTABLE] = &site;
    if (!rc) rc = pb_profile_intern_context(v, &f, 1, &t.ctx, err);
    if (!rc) rc = add_or_merge(v, &t, err);
    free(vals);
    return rc;
}

/* Native function r of p: a method and entries in v, the record in side.
 * Returns 0, 1 (kept in side only: its name is not UTF-8) or an error. */
static int as_native(pb_profile *v, pb_profile *side, pbi_importer *iv, pbi_importer *is,
                     const pb_record *r, const char *name, size_t len, pb_error *err) {
    pb_record t;
    int rc = pbi_import_record(is, r, &t, err);
    if (!rc) rc = pb_profile_add_record(side, &t, NULL, err);
    if (rc) return rc;
    /* JSON text is UTF-8: a name of other bytes would come back as other
     * bytes and no longer find its record, so it lives in the key alone */
    if (!pbu_utf8_valid(name, len)) return 1;
    char hname[sizeof PBI_BRIDGE_HASH_PREFIX + 16];
    snprintf(hname, sizeof hname, PBI_BRIDGE_HASH_PREFIX "%016" PRIx64, r->hash);
    uint32_t sig[2], m, ctx;
    pb_frame f;
    if ((rc = pb_profile_add_symbol(v, PBI_BRIDGE_NATIVE_TYPE, strlen(PBI_BRIDGE_NATIVE_TYPE), &sig[0], err)) ||
        (rc = pb_profile_add_symbol(v, hname, strlen(hname), &sig[1], err)) ||
        (rc = pb_profile_add_method(v, name, len, sig, 2, &m, err)))
        return rc;
    f.method = m;
    f.bci = 0;
    if ((rc = pb_profile_intern_context(v, &f, 1, &ctx, err))) return rc;
    uint32_t n = r->num_counters;
    uint64_t *c = calloc(n + 1, sizeof *c);
    int32_t *lay = calloc(2 * (size_t)n + 1, sizeof *lay);
    if (!c || !lay) {
        free(c);
        free(lay);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate counters");
    }
    memset(&t, 0, sizeof t);
    t.kind = PB_REC_JAVA_CALL_COUNT;
    t.name = PB_NONE;
    t.ctx = ctx;
    t.layout = PB_NONE;
    c[0] = r->counters[0] > IPROF_MAX ? IPROF_MAX : r->counters[0];
    t.num_counters = 1;
    t.counters = c;
    rc = add_or_merge(v, &t, err);
    if (!rc && n > 1) {
        uint64_t sum = 0;
        for (uint32_t i = 1; i < n; i++) {
            c[i] = r->counters[i] > IPROF_MAX ? IPROF_MAX : r->counters[i];
            sum = sum + c[i] > IPROF_MAX || sum + c[i] < sum ? IPROF_MAX : sum + c[i];
            lay[2 * (i - 1)] = (int32_t)i;
            lay[2 * (i - 1) + 1] = (int32_t)i;
        }
        c[0] = sum;
        t.kind = PB_REC_JAVA_BRANCH;
        t.num_counters = n;
        rc = pb_profile_intern_ints(v, lay, 2 * (size_t)(n - 1), &t.layout, err);
        if (!rc) rc = add_or_merge(v, &t, err);
    }
    free(c);
    free(lay);
    for (uint32_t j = 0; j < r->num_sites[PB_VK_VTABLE] && !rc; j++) rc = vtable_entry(v, iv, r, j, m, err);
    return rc;
}

/* The JSON model of `side` as the extension property of v. */
static int put_extension(pb_profile *v, const pb_profile *side, const pb_format *jf, pb_error *err) {
    if (!jf || !jf->write)
        return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                            "native LLVM functions need the json plugin for the \"llvm\" iprof key");
    pb_sink *s = NULL;
    int rc = pb_sink_open_memory(&s, err);
    if (!rc) rc = jf->write(side, s, NULL, err);
    if (!rc) rc = pb_sink_commit(s, err);
    if (!rc) {
        size_t len, n = 0;
        const uint8_t *d = pb_sink_memory(s, &len);
        /* compact like the rest of the file: a JSON string never holds a raw
         * newline, so every newline byte is layout */
        char *c = malloc(len + 1);
        if (!c) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate the \"llvm\" key");
        for (size_t i = 0; c && i < len; i++)
            if (d[i] != '\n') c[n++] = (char)d[i];
        if (c) rc = pb_profile_set_prop(v, PBI_BRIDGE_EXT_PROP, c, n, err);
        free(c);
    }
    pb_sink_free(s);
    return rc;
}

static int copy_llvm_facts(pb_profile *side, const pb_profile *p, pb_error *err) {
    pb_profile_set_flags(side, pb_profile_flags(p));
    pb_profile_set_origin(side, pb_profile_origin(p));
    pb_profile_set_trace_stream_size(side, 0);
    return pb_profile_add_run_data(side, p, err);
}

/* 1 when p, a profile without records, has LLVM facts an iprof file cannot
 * say without the "llvm" key: flags other than iprof's own (an empty
 * front-end profile would come back IR), binary ids, traces. */
static int empty_with_llvm_facts(const pb_profile *p) {
    return pb_profile_record_count(p) == 0 &&
           (pb_profile_flags(p) != (PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST) || pb_profile_binary_id_count(p) ||
            pb_profile_trace_count(p) || pb_profile_trace_stream_size(p));
}

/* The properties (without the extension key), the LLVM facts for side,
 * every symbol (iprof types for v, LLVM vtable names for side) and every
 * method for v. */
static int import_tables(const pb_profile *p, pb_profile *v, pb_profile *side, pbi_importer *iv, pbi_importer *is,
                         pb_error *err) {
    int rc = 0;
    for (size_t i = 0; i < pb_profile_prop_count(p) && !rc; i++) {
        const char *val;
        size_t vl;
        const char *key = pb_profile_prop_at(p, i, &val, &vl);
        if (strcmp(key, PBI_BRIDGE_EXT_PROP) != 0) rc = pb_profile_set_prop(v, key, val, vl, err);
    }
    if (!rc) rc = copy_llvm_facts(side, p, err);
    for (uint32_t s = 0; s < pb_profile_symbol_count(p) && !rc; s++) {
        uint32_t out;
        rc = pbi_import_symbol(iv, s, &out, err);
        if (!rc) rc = pbi_import_symbol(is, s, &out, err);
    }
    for (uint32_t m = 0; m < pb_profile_method_count(p) && !rc; m++) {
        uint32_t out;
        rc = pbi_import_method(iv, m, &out, err);
    }
    return rc;
}

/* The meta records into v, marked done; they go first, as their types
 * resolve the kind-2 values of the other records. A broken one stays a
 * native function, with a notice. */
static int absorb_meta_records(const pb_profile *p, pb_profile *v, const pb_write_options *o, uint8_t *done,
                               pb_error *err) {
    size_t nrec = pb_profile_record_count(p);
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(p, i);
        size_t len;
        const char *name = r->kind == PB_REC_FUNCTION ? pb_profile_str(p, r->name, &len) : NULL;
        if (!name || !pbi_meta_is_meta(name, len) || r->hash != pbi_jname_hash(name, len)) continue;
        pb_error merr;
        pb_error_clear(&merr);
        int e = pbi_meta_parse(v, name, len, &merr);
        if (e == PB_ENOMEM) return pb_error_set(err, e, PB_NO_OFFSET, NULL, "%s", merr.message);
        if (!e) done[i] = 1;
        else
            pbi_write_notice(o, "record \"%.60s...\" is not a valid meta record (%s): kept as a native "
                                "function", name, merr.message[0] ? merr.message : merr.expected);
    }
    return 0;
}

/* Native functions written: in all, and those kept in the key "llvm" only. */
typedef struct native_count {
    size_t native, key_only;
} native_count;

/* Every record not done yet: Java records into v, functions as Java
 * records when they are the mapping's, else as native functions. */
static int import_records(const pb_profile *p, pb_profile *v, pb_profile *side, pbi_importer *iv, pbi_importer *is,
                          const uint8_t *done, native_count *nc, pb_error *err) {
    size_t nrec = pb_profile_record_count(p);
    int rc = 0;
    pbi_jname_cache fc; /* the names share most frames' methods */
    pbi_jname_cache_init(&fc);
    for (size_t i = 0; i < nrec && !rc; i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (done[i]) continue;
        if (r->kind != PB_REC_FUNCTION) {
            pb_record t;
            rc = pbi_import_record(iv, r, &t, err);
            if (!rc) rc = add_or_merge(v, &t, err);
            continue;
        }
        size_t len;
        const char *name = pb_profile_str(p, r->name, &len);
        int j = as_java(p, v, iv, &fc, r, name, len, err);
        if (j < 0) {
            rc = j;
        } else if (j == 0) {
            rc = as_native(v, side, iv, is, r, name, len, err);
            if (rc >= 0) {
                nc->native++;
                nc->key_only += (size_t)rc;
                rc = 0;
            }
        }
    }
    pbi_jname_cache_free(&fc);
    return rc;
}

static void native_notices(const pb_write_options *o, const native_count *nc) {
    if (nc->native > nc->key_only)
        pbi_write_notice(o, "%zu native LLVM function(s) written as methods of type \"" PBI_BRIDGE_NATIVE_TYPE
                            "\"; their hashes, bitmaps, value sites and the profile's LLVM facts are in "
                            "the top-level key \"llvm\" (docs/mapping.md §7)",
                         nc->native - nc->key_only);
    if (nc->key_only)
        pbi_write_notice(o, "%zu native function name(s) are not UTF-8: they are kept in the key \"llvm\" "
                            "only, with no iprof method", nc->key_only);
}

static int build(const pb_profile *p, pb_profile *v, pb_profile *side, const pb_format *model,
                 const pb_write_options *o, pb_error *err) {
    pbi_importer iv, is;
    int rc = pbi_import_init(&iv, v, p, err);
    if (rc) return rc;
    if ((rc = pbi_import_init(&is, side, p, err))) {
        pbi_import_free(&iv);
        return rc;
    }
    native_count nc = {0, 0};
    uint8_t *done = calloc(pb_profile_record_count(p) + 1, 1);
    if (!done) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a record map");
    if (!rc) rc = import_tables(p, v, side, &iv, &is, err);
    if (!rc) rc = absorb_meta_records(p, v, o, done, err);
    if (!rc) rc = import_records(p, v, side, &iv, &is, done, &nc, err);
    if (!rc && (nc.native || empty_with_llvm_facts(p))) rc = put_extension(v, side, model, err);
    if (!rc) native_notices(o, &nc);
    free(done);
    pbi_import_free(&iv);
    pbi_import_free(&is);
    return rc;
}

/* The iprof view of p, not yet canonical, in *out (NULL: p needs none). */
static int iprof_view(const pb_profile *p, pb_profile **out, const pb_format *model, const pb_write_options *o,
                      pb_error *err) {
    *out = NULL;
    size_t nrec = pb_profile_record_count(p), i = 0;
    while (i < nrec && pb_profile_record(p, i)->kind != PB_REC_FUNCTION) i++;
    if (i == nrec && !empty_with_llvm_facts(p)) return 0;
    pb_profile *v = NULL, *side = NULL;
    int rc = pb_profile_new(&v, err);
    if (!rc) rc = pb_profile_new(&side, err);
    if (!rc) {
        pb_profile_set_flags(v, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
        pb_origin og;
        memset(&og, 0, sizeof og);
        snprintf(og.format, sizeof og.format, "iprof");
        pb_profile_set_origin(v, &og);
        rc = build(p, v, side, model, o, err);
    }
    pb_profile_free(side);
    if (rc) {
        pb_profile_free(v);
        return rc;
    }
    *out = v;
    return 0;
}

/* The view in order; frees it on failure. */
static int canonical_view(pb_profile *v, const pb_profile **view, pb_error *err) {
    int rc = pb_profile_canonicalize(v, err);
    if (rc) {
        pb_profile_free(v);
        return rc;
    }
    *view = v;
    return 0;
}

int pbi_bridge_for_iprof(const pb_profile *p, const pb_profile **view, const pb_format *model,
                         const pb_write_options *o, pb_error *err) {
    *view = p;
    pb_profile *v;
    int rc = iprof_view(p, &v, model, o, err);
    return rc || !v ? rc : canonical_view(v, view, err);
}

int pbi_bridge_for_iprof_take(pb_profile **pp, const pb_profile **view, const pb_format *model,
                              const pb_write_options *o, pb_error *err) {
    *view = *pp;
    pb_profile *v;
    int rc = iprof_view(*pp, &v, model, o, err);
    if (rc || !v) return rc;
    /* the view holds all it needs of p: p's memory (an indexed input's
     * names) is not alive with the canonical order's new tables */
    pb_profile_free(*pp);
    *pp = NULL;
    *view = NULL; /* not the freed profile: NULL if canonical_view fails */
    return canonical_view(v, view, err);
}
