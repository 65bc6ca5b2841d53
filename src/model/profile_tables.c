/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_tables.c -- interned strings, symbols, methods, contexts and int
 * arrays. Each table is a pbu_intern, so equal content gets one id.
 */
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "model/profile_internal.h"
#include "model/str_md5.h"
#include "util/api.h"
#include "util/grow.h"

static int intern_rc(int rc, pb_error *err, const char *what) {
    if (rc == PB_ENOMEM) return pbu_nomem(err, what);
    if (rc) return pb_error_set(err, rc, PB_NO_OFFSET, NULL, "%s too long or too many", what);
    return 0;
}

/* ---- strings ------------------------------------------------------------ */

int pb_profile_intern(pb_profile *p, const void *bytes, size_t len, pb_str *out, pb_error *err) {
    pbu_api_enter(err);
    if (!bytes && len) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "string missing");
    return intern_rc(pbu_intern_add(&p->strs, len ? bytes : "", len, out, NULL), err, "a string");
}

const char *pb_profile_str(const pb_profile *p, pb_str id, size_t *len) {
    if (id >= p->strs.count) {
        if (len) *len = 0;
        return NULL;
    }
    return pbu_intern_get(&p->strs, id, len);
}

/* ---- symbols -------------------------------------------------------------- */

/* The placeholder token "%#<id>" (jname grammar), into buf (>= 24 bytes). */
static size_t placeholder_token(char *buf, int64_t id) {
    char tmp[24];
    size_t n = 0;
    uint64_t v = id < 0 ? (uint64_t)0 - (uint64_t)id : (uint64_t)id;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t k = 0;
    buf[k++] = '%';
    buf[k++] = '#';
    if (id < 0) buf[k++] = '-';
    while (n) buf[k++] = tmp[--n];
    return k;
}

/* Makes room for one more element in a table parallel to an interner, so a
 * failed allocation never leaves an interned key without its element. */
static int new_symbol(pb_profile *p, const uint32_t *key, size_t key_words, pb_str name,
                      uint64_t md5, int placeholder, int64_t pid, uint32_t *out, pb_error *err) {
    if (pbu_grow((void **)&p->syms, &p->cap_syms, (size_t)p->sym_keys.count + 1, sizeof *p->syms))
        return pbu_nomem(err, "a symbol");
    uint32_t id;
    int added;
    int rc = pbu_intern_add(&p->sym_keys, key, key_words * 4, &id, &added);
    if (rc) return intern_rc(rc, err, "a symbol");
    if (added) {
        if (pbu_map_put(&p->sym_by_md5, md5, id)) {
            pbu_intern_pop(&p->sym_keys);
            return pbu_nomem(err, "a symbol");
        }
        pbi_set_symbol(&p->syms[id], name, md5, placeholder, pid);
    }
    *out = id;
    return 0;
}

int pb_profile_add_symbol(pb_profile *p, const void *name, size_t len, uint32_t *out,
                          pb_error *err) {
    pbu_api_enter(err);
    pb_str s;
    int rc = pb_profile_intern(p, name, len, &s, err);
    if (rc) return rc;
    /* A known symbol needs no MD5: readers that add every name of every
     * frame (jname, bridges) hit known symbols almost always. */
    if (pbu_intern_find(&p->sym_keys, &s, 4, out) == 0) return 0;
    return new_symbol(p, &s, 1, s, pb_md5_ref(len ? name : "", len), 0, 0, out, err);
}

int pb_profile_add_placeholder_symbol(pb_profile *p, int64_t id, uint32_t *out, pb_error *err) {
    pbu_api_enter(err);
    char tok[24];
    size_t n = placeholder_token(tok, id);
    uint32_t key[3] = {PB_NONE, (uint32_t)(uint64_t)id, (uint32_t)((uint64_t)id >> 32)};
    return new_symbol(p, key, 3, PB_NONE, pb_md5_ref(tok, n), 1, id, out, err);
}

size_t pb_profile_symbol_count(const pb_profile *p) { return p->sym_keys.count; }

const pb_symbol *pb_profile_symbol(const pb_profile *p, uint32_t i) {
    return i < p->sym_keys.count ? &p->syms[i] : NULL;
}

/* The string table's lookup slots for the strings pbi_profile_intern_new
 * added: made on the first lookup, under the cache lock (a const lookup
 * fills them as it fills the other caches). Without memory they stay
 * unmade and pbu_intern_find still finds those strings, one by one. */
static void strs_indexed(const pb_profile *p) {
    if (p->strs.indexed == p->strs.count) return;
    pbi_cache_lock(p);
    (void)pbu_intern_index(&((pb_profile *)(uintptr_t)p)->strs);
    pbi_cache_unlock(p);
}

int pbi_profile_intern_new(pb_profile *p, const void *bytes, size_t len, pb_str *out, pb_error *err) {
    return intern_rc(pbu_intern_add_new(&p->strs, len ? bytes : "", len, out), err, "a string");
}

size_t pbi_profile_str_count(const pb_profile *p) { return p->strs.count; }

int pb_profile_find_symbol(const pb_profile *p, const void *name, size_t len, uint32_t *out) {
    pb_str s;
    strs_indexed(p);
    if (pbu_intern_find(&p->strs, len ? name : "", len, &s)) return PB_ENOTFOUND;
    return pbu_intern_find(&p->sym_keys, &s, 4, out);
}

int pb_profile_find_symbol_md5(const pb_profile *p, uint64_t md5, uint32_t *out) {
    return pbu_map_get(&p->sym_by_md5, md5, out);
}

/* ---- methods ----------------------------------------------------------------- */

static int new_method(pb_profile *p, const uint32_t *key, size_t key_words, int placeholder,
                      int64_t pid, uint32_t *out, pb_error *err) {
    if (pbu_grow((void **)&p->meths, &p->cap_meths, (size_t)p->meth_keys.count + 1, sizeof *p->meths))
        return pbu_nomem(err, "a method");
    uint32_t id;
    int added;
    int rc = pbu_intern_add(&p->meth_keys, key, key_words * 4, &id, &added);
    if (rc) return intern_rc(rc, err, "a method");
    if (added) {
        const uint32_t *stored = pbu_intern_get(&p->meth_keys, id, NULL);
        if (placeholder)
            pbi_set_method(&p->meths[id], PB_NONE, 0, NULL, 1, pid);
        else
            pbi_set_method(&p->meths[id], stored[0], (uint32_t)(key_words - 1), stored + 1, 0, 0);
    }
    *out = id;
    return 0;
}

int pb_profile_add_method(pb_profile *p, const void *name, size_t len, const uint32_t *sig,
                          size_t num_sig, uint32_t *out, pb_error *err) {
    pbu_api_enter(err);
    if (!sig && num_sig)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "method signature missing");
    if (num_sig > (UINT32_MAX / 4) - 2)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "method signature too long");
    for (size_t i = 0; i < num_sig; i++)
        if (sig[i] >= p->sym_keys.count)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "method signature element %zu names symbol %u of %u", i,
                                (unsigned)sig[i], (unsigned)p->sym_keys.count);
    pb_str s;
    int rc = pb_profile_intern(p, name, len, &s, err);
    if (rc) return rc;
    uint32_t small[16], *key = small;
    if (num_sig + 1 > sizeof small / sizeof small[0]) {
        key = malloc((num_sig + 1) * sizeof *key);
        if (!key) return pbu_nomem(err, "a method");
    }
    key[0] = s;
    if (num_sig) memcpy(key + 1, sig, num_sig * sizeof *sig);
    rc = new_method(p, key, num_sig + 1, 0, 0, out, err);
    if (key != small) free(key);
    return rc;
}

int pb_profile_add_placeholder_method(pb_profile *p, int64_t id, uint32_t *out, pb_error *err) {
    pbu_api_enter(err);
    uint32_t key[3] = {PB_NONE, (uint32_t)(uint64_t)id, (uint32_t)((uint64_t)id >> 32)};
    return new_method(p, key, 3, 1, id, out, err);
}

size_t pb_profile_method_count(const pb_profile *p) { return p->meth_keys.count; }

const pb_method *pb_profile_method(const pb_profile *p, uint32_t i) {
    return i < p->meth_keys.count ? &p->meths[i] : NULL;
}

/* ---- contexts and int arrays ------------------------------------------------- */

int pb_profile_intern_context(pb_profile *p, const pb_frame *frames, size_t n, uint32_t *out,
                              pb_error *err) {
    pbu_api_enter(err);
    if (n == 0 || !frames)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "a context needs at least one frame");
    if (n > UINT32_MAX / sizeof *frames)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "context too long");
    for (size_t i = 0; i < n; i++)
        if (frames[i].method >= p->meth_keys.count)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "context frame %zu names method %u of %u", i,
                                (unsigned)frames[i].method, (unsigned)p->meth_keys.count);
    /* pb_frame has no padding (two 4-byte fields), so its bytes are its
     * content and equal frames intern equal. */
    return intern_rc(pbu_intern_add(&p->ctxs, frames, n * sizeof *frames, out, NULL), err,
                     "a context");
}

const pb_frame *pb_profile_context(const pb_profile *p, uint32_t id, size_t *n) {
    if (id >= p->ctxs.count) {
        if (n) *n = 0;
        return NULL;
    }
    size_t len;
    const pb_frame *f = pbu_intern_get(&p->ctxs, id, &len);
    if (n) *n = len / sizeof *f;
    return f;
}

int pb_profile_intern_ints(pb_profile *p, const int32_t *v, size_t n, uint32_t *out,
                           pb_error *err) {
    pbu_api_enter(err);
    if (!v && n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "int array missing");
    if (n > UINT32_MAX / sizeof *v)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "int array too long");
    return intern_rc(pbu_intern_add(&p->ints, n ? (const void *)v : "", n * sizeof *v, out, NULL),
                     err, "an int array");
}

const int32_t *pb_profile_ints(const pb_profile *p, uint32_t id, size_t *n) {
    if (id >= p->ints.count) {
        if (n) *n = 0;
        return NULL;
    }
    size_t len;
    const int32_t *v = pbu_intern_get(&p->ints, id, &len);
    if (n) *n = len / sizeof *v;
    return v;
}

/* ---- NameRef notes (str_md5.h) --------------------------------------------------- */

uint64_t pbi_profile_str_md5(const pb_profile *p, pb_str id) {
    uint64_t v = id < p->strs.count ? pbu_intern_aux(&p->strs, id) : 0;
    if (v) return v;
    size_t len;
    const char *s = pb_profile_str(p, id, &len);
    return pb_md5_ref(s && len ? s : "", len);
}

uint64_t pbi_profile_known_str_md5(const pb_profile *p, const void *bytes, size_t len, size_t hint) {
    uint32_t id;
    if (hint < p->num_recs && p->recs[hint].kind == PB_REC_FUNCTION && p->recs[hint].name < p->strs.count &&
        p->strs.len[p->recs[hint].name] == len && memcmp(p->strs.data[p->recs[hint].name], bytes, len) == 0)
        return pbu_intern_aux(&p->strs, p->recs[hint].name);
    strs_indexed(p);
    if (pbu_intern_find(&p->strs, bytes, len, &id)) return 0;
    return pbu_intern_aux(&p->strs, id);
}

void pbi_profile_note_str_md5(pb_profile *p, pb_str id, uint64_t md5) {
    if (id < p->strs.count) (void)pbu_intern_set_aux(&p->strs, id, md5);
}

int pbi_profile_adopt_strs(pb_profile *p, void *block, const char *bytes, size_t n) {
    if (p->strs.count) return PB_EEXIST; /* only a table without strings takes a block */
    return pbu_intern_adopt(&p->strs, block, bytes, n);
}
