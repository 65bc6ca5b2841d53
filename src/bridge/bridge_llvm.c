/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bridge_llvm.c -- the model as LLVM writers need it (docs/mapping.md §6, §7).
 *
 * Java records stay Java records (the writers render their names); the view
 * adds the jmeta: records. Native functions that travelled through iprof
 * come back from the "llvm" extension key (the JSON model of the native
 * part, which keeps record order, hashes, bitmaps, value sites, flags,
 * origin, binary ids, traces and vtable names) with their counters and
 * vtable counts taken from the iprof entries, which are the data a user or
 * an iprof merge may have changed. Counts above 2^63-1 that iprof had to
 * clamp keep their true value from the extension.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge.h"
#include "llvm/target.h"
#include "model/options.h"
#include "bridge/bridge_meta.h"
#include "model/write_notice.h"
#include "util/diag.h"
#include "model/jname.h"
#include "model/profile_records.h"
#include "util/grow.h"

#define IPROF_MAX ((uint64_t)INT64_MAX)

/* The side profile from the extension key, or a new empty one. */
static int open_side(const pb_profile *p, const pb_format *jf, pb_profile **side, pb_error *err) {
    size_t len;
    const char *ext = pb_profile_prop(p, PBI_BRIDGE_EXT_PROP, &len);
    if (!ext) return pb_profile_new(side, err);
    if (!jf || !jf->read)
        return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, "llvm",
                            "the \"llvm\" iprof key needs the json plugin");
    pb_source *src = NULL;
    int rc = pb_source_open_memory(&src, ext, len, "iprof key \"llvm\"", err);
    if (!rc) {
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        rc = jf->read(side, src, &ro, err);
        if (rc) {
            /* say where the bad JSON model came from */
            char path[sizeof err->path];
            memcpy(path, "llvm.", 5);
            size_t n = strnlen(err->path, sizeof path - 6);
            memcpy(path + 5, err->path, n);
            path[5 + n] = 0;
            memcpy(err->path, path, sizeof path);
        }
    }
    pb_source_free(src);
    return rc;
}

static int is_marker_symbol(const pb_profile *p, uint32_t s) {
    const pb_symbol *sy = pb_profile_symbol(p, s);
    if (sy->placeholder) return 0;
    size_t len;
    const char *n = pb_profile_str(p, sy->name, &len);
    size_t pl = strlen(PBI_BRIDGE_HASH_PREFIX);
    return (len == strlen(PBI_BRIDGE_NATIVE_TYPE) && memcmp(n, PBI_BRIDGE_NATIVE_TYPE, len) == 0) ||
           (len == pl + 16 && memcmp(n, PBI_BRIDGE_HASH_PREFIX, pl) == 0);
}

static int by_value(const void *a, const void *b) {
    const pb_value *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

/*
 * A type histogram of more than 255 types cannot be one LLVM value site:
 * it is split over consecutive sites of at most 255 values, in NameRef
 * order, so runs with the same types split the same way and a plain merge
 * adds site to site. t's one site is replaced (buffers owned by the caller).
 */
static int split_histogram(pb_record *t, pb_site **sites, size_t *cap, pb_error *err) {
    if (t->kind == PB_REC_FUNCTION || t->num_sites[PB_VK_VTABLE] != 1 ||
        t->sites[PB_VK_VTABLE][0].num_values <= PB_MAX_VALUES_PER_SITE_LLVM)
        return 0;
    pb_site *one = &t->sites[PB_VK_VTABLE][0];
    uint32_t n = one->num_values, ns = (n + PB_MAX_VALUES_PER_SITE_LLVM - 1) / PB_MAX_VALUES_PER_SITE_LLVM;
    if (pbu_grow((void **)sites, cap, ns, sizeof **sites)) return pbu_nomem(err, "value sites");
    /* the values live in the importer's buffer, which t owns until the next import */
    qsort(one->values, n, sizeof *one->values, by_value);
    pb_value *v = one->values;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t k = n - i * PB_MAX_VALUES_PER_SITE_LLVM;
        (*sites)[i].num_values = k > PB_MAX_VALUES_PER_SITE_LLVM ? PB_MAX_VALUES_PER_SITE_LLVM : k;
        (*sites)[i].values = v + (size_t)i * PB_MAX_VALUES_PER_SITE_LLVM;
    }
    t->num_sites[PB_VK_VTABLE] = ns;
    t->sites[PB_VK_VTABLE] = *sites;
    return 0;
}

/* iprof value c for a counter that held `old`: the clamped count keeps the
 * true value iprof could not hold. */
static uint64_t take(uint64_t c, uint64_t old) { return c == IPROF_MAX && old > IPROF_MAX ? old : c; }

/* The counters of a native method's entries: [call count, branch c1..]. */
typedef struct native {
    size_t cc, br; /* record index in p + 1, 0 = none */
} native;

/* An entry of the native mapping: call count or conditional at "m:0", or
 * the virtual-invoke entry "m:j" of vtable site j, of a native method m. */
static int is_native_entry(const pb_profile *p, const pb_record *r, const uint8_t *is_native, uint32_t *m) {
    int vt = r->kind == PB_REC_JAVA_VIRTUAL_INVOKE;
    if (r->kind != PB_REC_JAVA_CALL_COUNT && r->kind != PB_REC_JAVA_BRANCH && !vt) return 0;
    size_t n;
    const pb_frame *f = pb_profile_context(p, r->ctx, &n);
    if (!f || n != 1 || (vt ? f[0].bci < 0 : f[0].bci != 0) || !is_native[f[0].method]) return 0;
    *m = f[0].method;
    return 1;
}

/* Function record of native method m in v (by name and hash), or SIZE_MAX. */
static size_t find_native(const pb_profile *p, const pb_profile *v, uint32_t m, uint64_t hash, size_t *idx,
                          size_t nidx) {
    size_t len;
    const char *name = pb_profile_str(p, pb_profile_method(p, m)->name, &len);
    size_t found = pb_profile_lookup(v, name, len, idx, nidx);
    for (size_t i = 0; i < found && i < nidx; i++) {
        const pb_record *r = pb_profile_record(v, idx[i]);
        if (r->kind == PB_REC_FUNCTION && r->hash == hash) return idx[i];
    }
    return SIZE_MAX;
}

/* Counts of virtual-invoke entry e ("m:j") into vtable site j of the native
 * record: by value, so the key's order and unnamed values stay. A type the
 * record's site does not have (added in iprof) cannot be placed: ignored. */
static void native_vtable_counts(pb_record *r, const pb_record *e, int32_t j) {
    if ((uint32_t)j >= r->num_sites[PB_VK_VTABLE] || !e->num_sites[PB_VK_VTABLE]) return;
    pb_site *d = &r->sites[PB_VK_VTABLE][j];
    const pb_site *s = &e->sites[PB_VK_VTABLE][0];
    for (uint32_t x = 0; x < s->num_values; x++)
        for (uint32_t y = 0; y < d->num_values; y++)
            if (d->values[y].value == s->values[x].value)
                d->values[y].count = take(s->values[x].count, d->values[y].count);
}


/* Sets the counters of native method m's function record in v (found by
 * name and hash, or added) from its iprof entries. */
static int native_counters(const pb_profile *p, pb_profile *v, uint32_t m, uint64_t hash,
                           const native *e, size_t *idx, size_t nidx, pb_error *err) {
    const pb_method *me = pb_profile_method(p, m);
    size_t len;
    const char *name = pb_profile_str(p, me->name, &len);
    const pb_record *cc = e->cc ? pb_profile_record(p, e->cc - 1) : NULL;
    const pb_record *br = e->br ? pb_profile_record(p, e->br - 1) : NULL;
    size_t nl = 0;
    const int32_t *lay = br ? pb_profile_ints(p, br->layout, &nl) : NULL;
    int well = !br || br->num_counters >= 1;
    for (size_t i = 0; well && i < nl / 2; i++)
        well = lay[2 * i] == (int32_t)(i + 1) && lay[2 * i + 1] == (int32_t)(i + 1);
    uint32_t n = 1 + (uint32_t)(nl / 2);
    /* out of memory for the lookup index must not read as "no record yet" */
    if (pbi_profile_build_lookup(v)) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t found = pb_profile_lookup(v, name, len, idx, nidx), at = SIZE_MAX;
    for (size_t i = 0; i < found && i < nidx; i++) {
        const pb_record *r = pb_profile_record(v, idx[i]);
        if (r->kind == PB_REC_FUNCTION && r->hash == hash) at = idx[i];
    }
    if (at != SIZE_MAX) {
        pb_record *r = pb_profile_record_mut(v, at);
        if (!well || (br && r->num_counters != n)) return 0; /* edited beyond the convention: keep */
        if (cc) r->counters[0] = take(cc->counters[0], r->counters[0]);
        for (uint32_t i = 1; br && i < n; i++) r->counters[i] = take(br->counters[i], r->counters[i]);
        return 0;
    }
    /* A native method without extension data (written by hand or by
     * another tool): a record from the entries alone. */
    if (!well) n = 1;
    uint64_t *c = calloc(n, sizeof *c);
    if (!c) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate counters");
    if (cc) c[0] = cc->counters[0];
    for (uint32_t i = 1; br && i < n; i++) c[i] = br->counters[i];
    pb_record t;
    memset(&t, 0, sizeof t);
    t.kind = PB_REC_FUNCTION;
    t.ctx = PB_NONE;
    t.layout = PB_NONE;
    t.hash = hash;
    t.num_counters = n;
    t.counters = c;
    int rc = pb_profile_intern(v, name, len, &t.name, err);
    if (!rc) rc = pb_profile_add_record(v, &t, NULL, err);
    free(c);
    return rc;
}

/* Which methods of p are native (iprof's mapping of LLVM functions), their
 * LLVM hashes, and which iprof entries hold their counters. */
typedef struct native_map {
    size_t nm;          /* methods of p */
    uint8_t *is_native; /* per method */
    uint64_t *hashes;   /* per native method */
    native *ent;        /* per native method */
    size_t count;       /* native methods */
} native_map;

static void native_map_free(native_map *nmap) {
    free(nmap->is_native);
    free(nmap->hashes);
    free(nmap->ent);
}

static int native_map_init(native_map *nmap, const pb_profile *p, pb_error *err) {
    memset(nmap, 0, sizeof *nmap);
    nmap->nm = pb_profile_method_count(p);
    nmap->is_native = calloc(nmap->nm + 1, 1);
    nmap->hashes = calloc(nmap->nm + 1, sizeof *nmap->hashes);
    nmap->ent = calloc(nmap->nm + 1, sizeof *nmap->ent);
    if (!nmap->is_native || !nmap->hashes || !nmap->ent)
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a method map");
    for (uint32_t m = 0; m < nmap->nm; m++)
        if (pbi_bridge_native_method(p, m, &nmap->hashes[m])) nmap->is_native[m] = 1, nmap->count++;
    size_t nrec = pb_profile_record_count(p);
    for (size_t i = 0; i < nrec && nmap->count; i++) {
        const pb_record *r = pb_profile_record(p, i);
        uint32_t m;
        if (!is_native_entry(p, r, nmap->is_native, &m)) continue;
        if (r->kind == PB_REC_JAVA_CALL_COUNT) nmap->ent[m].cc = i + 1;
        else if (r->kind == PB_REC_JAVA_BRANCH) nmap->ent[m].br = i + 1;
    }
    return 0;
}

/* The native functions' counters and vtable counts from their iprof
 * entries. Natives go first: v holds only the extension's records then, so
 * one lookup index serves them all. */
static int native_records(const pb_profile *p, pb_profile *v, const native_map *nmap, pb_error *err) {
    size_t idx[16], nrec = pb_profile_record_count(p);
    int rc = 0;
    for (uint32_t m = 0; m < nmap->nm && !rc; m++)
        if (nmap->is_native[m] && (nmap->ent[m].cc || nmap->ent[m].br))
            rc = native_counters(p, v, m, nmap->hashes[m], &nmap->ent[m], idx, 16, err);
    for (size_t i = 0; i < nrec && nmap->count && !rc; i++) {
        const pb_record *r = pb_profile_record(p, i);
        uint32_t m;
        if (r->kind != PB_REC_JAVA_VIRTUAL_INVOKE || !is_native_entry(p, r, nmap->is_native, &m)) continue;
        if (pbi_profile_build_lookup(v))
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        size_t at = find_native(p, v, m, nmap->hashes[m], idx, 16), nf;
        const pb_frame *f = pb_profile_context(p, r->ctx, &nf);
        if (at != SIZE_MAX) native_vtable_counts(pb_profile_record_mut(v, at), r, f[0].bci);
    }
    return rc;
}

/* 1 when r is a meta record of an LLVM input that v has taken in: such
 * records are absorbed and written anew after the Java records. */
static int absorb_meta_record(const pb_profile *p, const pb_record *r, pb_profile *v) {
    if (r->kind != PB_REC_FUNCTION) return 0;
    size_t len;
    const char *name = pb_profile_str(p, r->name, &len);
    pb_error merr;
    pb_error_clear(&merr);
    return name && pbi_meta_is_meta(name, len) && r->hash == pbi_jname_hash(name, len) &&
           pbi_meta_parse(v, name, len, &merr) == 0;
}

/* Imports record r into v; a record v has already (same key) is merged
 * into it, keeping every value. */
static int add_imported_record(pbi_importer *im, pb_profile *v, const pb_record *r, pb_site **split,
                               size_t *cap_split, pb_error *err) {
    pb_record t;
    int rc = pbi_import_record(im, r, &t, err);
    if (!rc) rc = split_histogram(&t, split, cap_split, err);
    if (rc) return rc;
    rc = pb_profile_add_record(v, &t, NULL, err);
    if (rc == PB_EEXIST) {
        pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
        mo.max_values_per_site = 0;
        pb_error_clear(err);
        rc = pb_profile_merge_record(v, &t, &mo, err);
    }
    return rc;
}

/* What the Java pass brought into v, which decides whether meta records
 * are written and whose flags v gets. */
typedef struct java_counts {
    size_t records;  /* Java records imported */
    size_t methods;  /* Java methods imported */
    size_t absorbed; /* meta records of an LLVM input taken in */
} java_counts;

/* Every record that is not a native entry, then the types and methods
 * iprof lists, without the native mapping's own. */
static int java_records(pbi_importer *im, const pb_profile *p, pb_profile *v, const native_map *nmap,
                        java_counts *jc, pb_error *err) {
    size_t nrec = pb_profile_record_count(p), cap_split = 0;
    pb_site *split = NULL;
    int rc = 0;
    for (size_t i = 0; i < nrec && !rc; i++) {
        const pb_record *r = pb_profile_record(p, i);
        uint32_t m;
        if (is_native_entry(p, r, nmap->is_native, &m)) continue;
        if (absorb_meta_record(p, r, v)) {
            jc->absorbed++;
            continue;
        }
        if ((rc = add_imported_record(im, v, r, &split, &cap_split, err))) break;
        if (r->kind != PB_REC_FUNCTION) jc->records++;
    }
    free(split);
    for (uint32_t s = 0; s < pb_profile_symbol_count(p) && !rc; s++) {
        uint32_t out;
        if (!is_marker_symbol(p, s)) rc = pbi_import_symbol(im, s, &out, err);
    }
    for (uint32_t m = 0; m < nmap->nm && !rc; m++) {
        uint32_t out;
        if (!nmap->is_native[m]) rc = pbi_import_method(im, m, &out, err), jc->methods++;
    }
    return rc;
}

/* Java data: the meta records (methods no Java record of v references). */
static int add_meta_records(const pb_profile *p, pb_profile *v, pb_error *err) {
    size_t vm = pb_profile_method_count(v);
    uint8_t *used = calloc(vm + 1, 1);
    if (!used) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a method map");
    for (size_t i = 0; i < pb_profile_record_count(v); i++) {
        const pb_record *r = pb_profile_record(v, i);
        size_t n = 0;
        const pb_frame *f = r->kind != PB_REC_FUNCTION ? pb_profile_context(v, r->ctx, &n) : NULL;
        for (size_t j = 0; f && j < n; j++) used[f[j].method] = 1;
    }
    const char *ver = pb_profile_prop(p, "iprof.version", NULL);
    int rc = pbi_meta_add_records(v, ver ? ver : "1.1.0", used, err);
    free(used);
    return rc;
}

/* v's flags and origin once the Java data is in. */
static void set_view_flags_and_origin(const pb_profile *p, pb_profile *v, int had_side, size_t njava) {
    if (njava) pb_profile_set_flags(v, pb_profile_flags(v) | pb_profile_flags(p));
    if (!had_side) pb_profile_set_flags(v, pb_profile_flags(p));
    /* Java records were added after the natives and the meta records
     * last: an indexed origin would make the writer keep that order
     * (docs/indexed.md), so the view says iprof and gets LLVM's order,
     * the one llvm-profdata itself writes. */
    pb_origin og;
    memset(&og, 0, sizeof og);
    memcpy(og.format, "iprof", 6);
    pb_profile_set_origin(v, &og);
}

/* iprof keys other than "llvm" have no place in LLVM formats: say so. */
static void notice_dropped_keys(const pb_profile *p, const pb_write_options *o) {
    for (size_t i = 0; i < pb_profile_prop_count(p); i++) {
        const char *key = pb_profile_prop_at(p, i, NULL, NULL);
        if (strncmp(key, "iprof.extra.", 12) == 0 && strcmp(key, PBI_BRIDGE_EXT_PROP) != 0)
            pbi_write_notice(o, "iprof key \"%s\" is not carried into LLVM formats", key + 12);
    }
}

static int build(const pb_profile *p, pb_profile *v, int had_side, const pb_write_options *o,
                 pb_error *err) {
    native_map nmap;
    pbi_importer im;
    java_counts jc = {0, 0, 0};
    int rc = native_map_init(&nmap, p, err);
    if (!rc) rc = native_records(p, v, &nmap, err);
    if (rc || (rc = pbi_import_init(&im, v, p, err))) {
        native_map_free(&nmap);
        return rc;
    }
    rc = java_records(&im, p, v, &nmap, &jc, err);
    if (!rc && (jc.records || jc.methods || jc.absorbed)) {
        rc = add_meta_records(p, v, err);
        if (!rc) set_view_flags_and_origin(p, v, had_side, jc.records);
        if (!rc) notice_dropped_keys(p, o);
    }
    pbi_import_free(&im);
    native_map_free(&nmap);
    return rc;
}

/* 1 when the target writer keeps kind-2 sites (docs/mapping.md §8): raw
 * v10+, indexed v12+, text of LLVM 19+; the file version is the option's, else
 * the one of the LLVM release the writer acts as (src/llvm/target.h). */
static int keeps_histograms(const pb_format *target, const pb_write_options *o) {
    pbi_llvm_target t;
    if (pbi_llvm_target_for(pbi_write_release(o), &t, NULL) != 0)
        return 1; /* the writer refuses the option itself */
    const char *vo = target->version_option;
    return pbi_llvm_keeps_vtable_sites(&t, vo, vo && o ? pb_kv_get(o->kv, o->nkv, vo) : NULL);
}

static void histogram_notice(const pb_profile *v, const pb_format *target, const pb_write_options *o) {
    if (keeps_histograms(target, o)) return;
    size_t n = 0;
    for (size_t i = 0; i < pb_profile_record_count(v); i++) {
        const pb_record *r = pb_profile_record(v, i);
        if (r->kind != PB_REC_FUNCTION && r->num_sites[PB_VK_VTABLE]) n++;
    }
    if (n)
        pbi_write_notice(o, "this %s target has no vtable value sites: the (type, count) pairs of %zu "
                            "virtualInvoke/instanceOf/monitor entries are lost; the entries with their "
                            "totals, all other entries, the version, all types and all methods are kept "
                            "(docs/mapping.md §8)",
                         target->name, n);
}

int pbi_bridge_for_llvm(const pb_profile *p, const pb_profile **view, const pb_format *target,
                        const pb_format *model, const pb_write_options *o, pb_error *err) {
    *view = p;
    size_t nrec = pb_profile_record_count(p), i = 0;
    while (i < nrec && pb_profile_record(p, i)->kind == PB_REC_FUNCTION) i++;
    int had_side = pb_profile_prop(p, PBI_BRIDGE_EXT_PROP, NULL) != NULL;
    if (i == nrec && !had_side && pb_profile_method_count(p) == 0) return 0;
    pb_profile *v = NULL;
    int rc = open_side(p, model, &v, err);
    if (!rc) rc = build(p, v, had_side, o, err);
    if (!rc) histogram_notice(v, target, o);
    if (rc) {
        pb_profile_free(v);
        return rc;
    }
    *view = v;
    return 0;
}
