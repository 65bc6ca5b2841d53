/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cov_read.c -- the coverage-mapping reader (src/coverage/cov_read*.c)
 * on ELF objects made here byte by byte (64-bit little-endian and 32-bit
 * big-endian) holding hand-encoded __llvm_covmap, __llvm_covfun and
 * __llvm_prf_names of every version 4..7, whose decoded values are computed
 * by hand from the encoding (LLVM's CoverageMappingWriter layout); the
 * duplicate rules of CoverageMappingReader; every kind of malformed byte
 * (the error names the section field and its offset); and two real objects
 * of tests/fuzz/cov_read/ (clang-19 and clang-17) whose regions are those
 * llvm-cov-19 / llvm-cov-17 export prints for them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coverage/cov_mapping.h"
#include "coverage/cov_read.h"
#include "llvm/leb128.h"
#include "llvm/names.h"
#include "llvm/target.h"
#include "profbridge/coverage.h"
#include "profbridge/profbridge.h"
#include "testutil.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/bytes.h"

/* ---- building objects ---- */

typedef struct sec {
    const char *name;
    const uint8_t *data;
    size_t size;
    uint64_t flags; /* sh_flags */
} sec;

static void put(uint8_t *p, unsigned size, uint64_t v, int order) {
    if (size == 2) pb_put_u16(p, (uint16_t)v, order);
    else if (size == 4) pb_put_u32(p, (uint32_t)v, order);
    else pb_put_u64(p, v, order);
}

/* An ELF relocatable object (class ptr 4/8, byte order) holding secs; into b. */
static void make_elf(pb_buf *b, unsigned ptr, int order, const sec *secs, size_t n) {
    unsigned eh = ptr == 8 ? 64 : 52, sh = ptr == 8 ? 64 : 40, w = ptr;
    size_t cap = eh + 512 + n * 64;
    for (size_t i = 0; i < n; i++) cap += secs[i].size + 8;
    uint8_t *buf = calloc(1, cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    size_t pos = (eh + 7) & ~(size_t)7, off[8], name_at[8]; /* sections 8-aligned in the file, as linkers place them */
    char shstr[256] = "";
    size_t shlen = 1;
    for (size_t i = 0; i < n; i++) {
        off[i] = pos;
        if (secs[i].size) memcpy(buf + pos, secs[i].data, secs[i].size);
        pos += (secs[i].size + 7) & ~(size_t)7;
        name_at[i] = shlen;
        memcpy(shstr + shlen, secs[i].name, strlen(secs[i].name) + 1);
        shlen += strlen(secs[i].name) + 1;
    }
    memcpy(shstr + shlen, ".shstrtab", 10);
    size_t shstr_name = shlen, shstr_off = pos;
    shlen += 10;
    memcpy(buf + pos, shstr, shlen);
    pos = (pos + shlen + 7) & ~(size_t)7;
    size_t shoff = pos, shnum = n + 2;
    memcpy(buf, "\x7f" "ELF", 4);
    buf[4] = ptr == 8 ? 2 : 1;
    buf[5] = order == PB_ORDER_LE ? 1 : 2;
    buf[6] = 1;
    put(buf + 16, 2, 1, order);                  /* ET_REL */
    put(buf + 18, 2, ptr == 8 ? 62 : 20, order); /* x86-64, PowerPC */
    put(buf + 20, 4, 1, order);
    put(buf + 24 + 2 * w, w, shoff, order);
    uint8_t *t = buf + 24 + 3 * w + 4;
    put(t, 2, eh, order);
    put(t + 6, 2, sh, order);
    put(t + 8, 2, shnum, order);
    put(t + 10, 2, n + 1, order);
    for (size_t i = 1; i < shnum; i++) {
        uint8_t *h = buf + shoff + i * sh;
        int last = i == n + 1;
        put(h, 4, last ? shstr_name : name_at[i - 1], order);
        put(h + 4, 4, last ? 3 : 1, order); /* SHT_STRTAB, SHT_PROGBITS */
        put(h + 8, w, last ? 0 : secs[i - 1].flags, order);
        put(h + 8 + 2 * w, w, last ? shstr_off : off[i - 1], order);
        put(h + 8 + 3 * w, w, last ? shlen : secs[i - 1].size, order);
        put(h + 8 + 4 * w + 8, w, 1, order);
    }
    pos = shoff + shnum * sh;
    pbu_buf_append(b, buf, pos);
    free(buf);
}

static void u32(pb_buf *b, uint32_t v, int order) {
    uint8_t x[4];
    pb_put_u32(x, v, order);
    pbu_buf_append(b, x, 4);
}

static void u64(pb_buf *b, uint64_t v, int order) {
    uint8_t x[8];
    pb_put_u64(x, v, order);
    pbu_buf_append(b, x, 8);
}

static void pad8(pb_buf *b) {
    while (b->len % 8) pbu_buf_putc(b, 0);
}

/* The encoded filenames of a TU, uncompressed (v4+ layout). */
static void filenames(pb_buf *f, const char *const *names, size_t n) {
    pb_buf body = {0};
    for (size_t i = 0; i < n; i++) {
        pbi_uleb_append(&body, strlen(names[i]));
        pbu_buf_puts(&body, names[i]);
    }
    pbi_uleb_append(f, n);
    pbi_uleb_append(f, body.len);
    pbi_uleb_append(f, 0);
    pbu_buf_append(f, body.data, body.len);
    pbu_buf_free(&body);
}

/* A covmap TU: header (stored version) + filenames + padding; returns its FilenamesRef. */
static uint64_t covmap_tu(pb_buf *m, uint32_t version, const pb_buf *fn, int order) {
    u32(m, 0, order);
    u32(m, (uint32_t)fn->len, order);
    u32(m, 0, order);
    u32(m, version, order);
    pbu_buf_append(m, fn->data, fn->len);
    pad8(m);
    return pb_md5_ref(fn->data, fn->len);
}

static void covfun_rec(pb_buf *c, const char *name, uint64_t hash, uint64_t fref, const pb_buf *map, int order) {
    u64(c, pb_md5_ref(name, strlen(name)), order);
    u32(c, (uint32_t)map->len, order);
    u64(c, hash, order);
    u64(c, fref, order);
    pbu_buf_append(c, map->data, map->len);
    pad8(c);
}

/* uleb list into b */
static void ulebs(pb_buf *b, const uint64_t *v, size_t n) {
    for (size_t i = 0; i < n; i++) pbi_uleb_append(b, v[i]);
}
#define ULEBS(b, ...)                                     \
    do {                                                  \
        const uint64_t v_[] = {__VA_ARGS__};              \
        ulebs((b), v_, sizeof v_ / sizeof v_[0]);         \
    } while (0)

static void names_blob(pb_buf *b, const char *text) {
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_names_encode(text, strlen(text), 0, b, &err), 0);
}

typedef struct obj {
    pb_buf map, fun, names, elf;
} obj;

static void obj_free(obj *o) {
    pbu_buf_free(&o->map);
    pbu_buf_free(&o->fun);
    pbu_buf_free(&o->names);
    pbu_buf_free(&o->elf);
}

static int read_obj(obj *o, unsigned ptr, int order, const pbi_cov_read_options *opt, pbi_cov_mapping *m,
                    pb_error *err) {
    sec s[3] = {{"__llvm_covfun", (const uint8_t *)o->fun.data, o->fun.len, 0},
                {"__llvm_covmap", (const uint8_t *)o->map.data, o->map.len, 0},
                {"__llvm_prf_names", (const uint8_t *)o->names.data, o->names.len, 0}};
    o->elf.len = 0;
    make_elf(&o->elf, ptr, order, s, 3);
    pb_error_clear(err);
    return pbi_cov_read_memory(m, (const uint8_t *)o->elf.data, o->elf.len, "t.o", opt, err);
}

static pbi_cov_read_options release(int r, pbi_llvm_target *t) {
    pbi_cov_read_options o = {NULL, NULL, NULL, 0, 0, 0};
    CU_ASSERT_EQUAL(pbi_llvm_target_of(r, t), 0);
    o.t = t;
    return o;
}

/* ---- versions 4 and 5 ---- */

/* v4 (stored 3): filenames as stored (no directory joining); code,
 * expansion, skipped and gap regions; expressions whose kinds come from the
 * counters that reference them; the expansion's count from the first region
 * of the file it expands. 64-bit little-endian. */
static void cov_read__v4_regions(void) {
    obj o = {0};
    const char *files[] = {"a.c", "inc/m.h"};
    pb_buf fn = {0};
    filenames(&fn, files, 2);
    uint64_t ref = covmap_tu(&o.map, 3, &fn, PB_ORDER_LE);
    pb_buf mp = {0};
    /* 2 file ids: 0 -> a.c, 1 -> inc/m.h; 2 expressions:
     *   e0 = c0 + c1 (referenced with tag 3: add), e1 = c1 - zero (tag 2) */
    ULEBS(&mp, 2, 0, 1, 2, (0 << 2) | 1, (1 << 2) | 1, (1 << 2) | 1, 0);
    /* file 0: 4 regions */
    ULEBS(&mp, 4);
    ULEBS(&mp, (0 << 2) | 1, 3, 5, 2, 2);          /* code c0, 3:5 -> 5:2 */
    ULEBS(&mp, 4 | (1 << 3), 1, 7, 0, 12);         /* expansion of file 1, 4:7 -> 4:12 */
    ULEBS(&mp, 2 << 3, 0, 0, 0, 0);                /* skipped, 4 whole line: 4:1 -> 4:UINT_MAX */
    ULEBS(&mp, (0 << 2) | 3, 1, 1, 0, 9 | (1u << 31)); /* e0 (add), gap 5:1 -> 5:9 */
    /* file 1: 1 region, counter e1 (subtract) */
    ULEBS(&mp, 1, (1 << 2) | 2, 1, 3, 0, 20);
    pbu_buf_append(&o.fun, NULL, 0);
    covfun_rec(&o.fun, "f", 0x1234, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pbi_cov_mapping m;
    pb_error err;
    int rc = read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(m.versions[0], 3);
    CU_ASSERT_EQUAL_FATAL(m.nfunctions, 1);
    pbi_cov_function *f = &m.functions[0];
    CU_ASSERT_STRING_EQUAL(f->name, "f");
    CU_ASSERT_EQUAL(f->hash, 0x1234);
    CU_ASSERT_EQUAL(f->filenames_ref, ref);
    CU_ASSERT_EQUAL_FATAL(f->nfilenames, 2);
    CU_ASSERT_STRING_EQUAL(f->filenames[0], "a.c");
    CU_ASSERT_STRING_EQUAL(f->filenames[1], "inc/m.h");
    CU_ASSERT_EQUAL_FATAL(f->nexprs, 2);
    CU_ASSERT_EQUAL(f->exprs[0].kind, PBI_COV_ADD);
    CU_ASSERT_EQUAL(f->exprs[0].lhs.kind, PBI_COV_REF);
    CU_ASSERT_EQUAL(f->exprs[0].rhs.id, 1);
    CU_ASSERT_EQUAL(f->exprs[1].kind, PBI_COV_SUBTRACT);
    CU_ASSERT_EQUAL(f->exprs[1].rhs.kind, PBI_COV_ZERO);
    CU_ASSERT_EQUAL_FATAL(f->nregions, 5);
    pbi_cov_region *r = f->regions;
    CU_ASSERT(r[0].kind == PBI_COV_REGION_CODE && r[0].line_start == 3 && r[0].col_start == 5 &&
              r[0].line_end == 5 && r[0].col_end == 2 && r[0].count.kind == PBI_COV_REF && r[0].count.id == 0);
    CU_ASSERT(r[1].kind == PBI_COV_REGION_EXPANSION && r[1].expanded_file_id == 1 && r[1].line_start == 4 &&
              r[1].col_start == 7 && r[1].line_end == 4 && r[1].col_end == 12);
    /* the expansion counts as file 1's first region: e1 */
    CU_ASSERT(r[1].count.kind == PBI_COV_EXPR && r[1].count.id == 1);
    CU_ASSERT(r[2].kind == PBI_COV_REGION_SKIPPED && r[2].line_start == 4 && r[2].col_start == 1 &&
              r[2].col_end == UINT32_MAX);
    CU_ASSERT(r[3].kind == PBI_COV_REGION_GAP && r[3].line_start == 5 && r[3].col_end == 9 &&
              r[3].count.kind == PBI_COV_EXPR && r[3].count.id == 0);
    CU_ASSERT(r[4].file_id == 1 && r[4].line_start == 1 && r[4].col_start == 3 && r[4].col_end == 20);
    pbi_cov_mapping_free(&m);
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    obj_free(&o);
}

/* v5 (stored 4): a branch region (two counters), 32-bit big-endian; the
 * filenames compressed with zlib. */
static void cov_read__v5_branch_big_endian_compressed(void) {
    obj o = {0};
    pb_buf body = {0}, fn = {0};
    const char *files[] = {"/src/b.c"};
    pbi_uleb_append(&body, strlen(files[0]));
    pbu_buf_puts(&body, files[0]);
    /* zlib via the names codec's encoder: one chunk = ulen, clen, stream */
    pb_buf z = {0};
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pbi_names_encode(body.data, body.len, 1, &z, &err), 0);
    size_t p = 0;
    pbi_names_chunk ch;
    CU_ASSERT_EQUAL_FATAL(pbi_names_next_chunk((const uint8_t *)z.data, z.len, &p, &ch, 0, "z", &err), 1);
    CU_ASSERT_FATAL(ch.clen > 0);
    pbi_uleb_append(&fn, 1);
    pbi_uleb_append(&fn, ch.ulen);
    pbi_uleb_append(&fn, ch.clen);
    pbu_buf_append(&fn, z.data + ch.data, (size_t)ch.clen);
    uint64_t ref = covmap_tu(&o.map, 4, &fn, PB_ORDER_BE);
    pb_buf mp = {0};
    ULEBS(&mp, 1, 0, 0, 2);
    ULEBS(&mp, (0 << 2) | 1, 10, 1, 3, 2);             /* code c0 10:1 -> 13:2 */
    ULEBS(&mp, 4 << 3, (1 << 2) | 1, 0, 1, 5, 0, 11); /* branch c1 / zero, 11:5 -> 11:11 */
    covfun_rec(&o.fun, "main", 7, ref, &mp, PB_ORDER_BE);
    names_blob(&o.names, "main");
    pbi_cov_mapping m;
    int rc = read_obj(&o, 4, PB_ORDER_BE, NULL, &m, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(m.nfunctions, 1);
    pbi_cov_function *f = &m.functions[0];
    CU_ASSERT_EQUAL(f->hash, 7);
    CU_ASSERT_STRING_EQUAL(f->filenames[0], "/src/b.c");
    CU_ASSERT_EQUAL_FATAL(f->nregions, 2);
    CU_ASSERT(f->regions[0].line_start == 10 && f->regions[0].line_end == 13);
    pbi_cov_region *b = &f->regions[1];
    CU_ASSERT(b->kind == PBI_COV_REGION_BRANCH && b->count.kind == PBI_COV_REF && b->count.id == 1 &&
              b->false_count.kind == PBI_COV_ZERO && b->line_start == 11 && b->col_start == 5 && b->col_end == 11);
    pbi_cov_mapping_free(&m);
    pbu_buf_free(&fn);
    pbu_buf_free(&body);
    pbu_buf_free(&z);
    pbu_buf_free(&mp);
    obj_free(&o);
}

/* ---- version 6: the compilation directory ---- */

static void cov_read__v6_compilation_directory(void) {
    obj o = {0};
    const char *files[] = {"/w/b", "../x/./y.c", "/abs/z.c", "k//l.c", ".."};
    pb_buf fn = {0};
    filenames(&fn, files, 5);
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    pb_buf mp = {0};
    ULEBS(&mp, 4, 1, 2, 3, 4, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pbi_cov_mapping m;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), 0);
    CU_ASSERT_EQUAL_FATAL(m.functions[0].nfilenames, 4);
    /* sys::path::append then remove_dots(remove_dot_dot = true) */
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[0], "/w/x/y.c");
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[1], "/abs/z.c");
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[2], "/w/b/k/l.c");
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[3], "/w");
    pbi_cov_mapping_free(&m);
    /* -compilation-dir replaces the TU's own directory for relative names */
    pbi_cov_read_options opt = {"rel/dir", NULL, NULL, 0, 0, 0};
    CU_ASSERT_EQUAL_FATAL(read_obj(&o, 8, PB_ORDER_LE, &opt, &m, &err), 0);
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[0], "rel/x/y.c");
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[1], "/abs/z.c");
    CU_ASSERT_STRING_EQUAL(m.functions[0].filenames[3], "rel");
    pbi_cov_mapping_free(&m);
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    obj_free(&o);
}

/* ---- version 7: MC/DC ---- */

static void mcdc_obj(obj *o, uint64_t id1) {
    const char *files[] = {"/d", "m.c"};
    pb_buf fn = {0};
    filenames(&fn, files, 2);
    uint64_t ref = covmap_tu(&o->map, 6, &fn, PB_ORDER_LE);
    pb_buf mp = {0};
    ULEBS(&mp, 1, 1, 0, 2);
    ULEBS(&mp, 5 << 3, 3, 2, 1, 4, 0, 20);                          /* decision: bitmap 3, 2 conditions */
    ULEBS(&mp, 6 << 3, (0 << 2) | 1, (1 << 2) | 1, id1, 2, 0, 0, 5, 0, 6); /* branch id1, true 2, false 0 */
    covfun_rec(&o->fun, "g", 9, ref, &mp, PB_ORDER_LE);
    names_blob(&o->names, "g");
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
}

static void cov_read__v7_mcdc(void) {
    obj o = {0};
    mcdc_obj(&o, 1);
    pbi_cov_mapping m;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), 0);
    pbi_cov_function *f = &m.functions[0];
    CU_ASSERT_STRING_EQUAL(f->filenames[0], "/d/m.c");
    CU_ASSERT_EQUAL_FATAL(f->nregions, 2);
    CU_ASSERT(f->regions[0].kind == PBI_COV_REGION_MCDC_DECISION && f->regions[0].mcdc.bitmap_idx == 3 &&
              f->regions[0].mcdc.num_conditions == 2 && f->regions[0].line_start == 1 &&
              f->regions[0].col_start == 4 && f->regions[0].col_end == 20);
    CU_ASSERT(f->regions[1].kind == PBI_COV_REGION_MCDC_BRANCH && f->regions[1].mcdc.id == 0 &&
              f->regions[1].mcdc.true_id == 1 && f->regions[1].mcdc.false_id == -1 &&
              f->regions[1].count.id == 0 && f->regions[1].false_count.id == 1 && f->regions[1].col_start == 5);
    CU_ASSERT_EQUAL(m.versions[0], 6);
    CU_ASSERT_EQUAL(m.mcdc_bits[0], 0); /* no __llvm_profile_raw_version here */
    pbi_cov_mapping_free(&m);
    obj_free(&o);
    /* condition id 0: LLVM 19+ refuse it, 18 reads it */
    memset(&o, 0, sizeof o);
    mcdc_obj(&o, 0);
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covfun[0].regions[1].mcdc.id");
    pbi_llvm_target t;
    pbi_cov_read_options r18 = release(18, &t);
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &r18, &m, &err), 0);
    if (!err.code) {
        CU_ASSERT_EQUAL(m.functions[0].regions[1].mcdc.id, -1);
        pbi_cov_mapping_free(&m);
    }
    /* llvm-cov 13-17 do not read version 7; profbridge does, whatever the
     * release (issue 20: the CLI notes that llvm-cov-N would refuse it),
     * with 18's lenient condition ids */
    pbi_cov_read_options r17 = release(17, &t);
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &r17, &m, &err), 0);
    if (!err.code) {
        CU_ASSERT_EQUAL(m.versions[0], 6);
        CU_ASSERT_EQUAL(m.functions[0].regions[1].kind, PBI_COV_REGION_MCDC_BRANCH);
        pbi_cov_mapping_free(&m);
    }
    obj_free(&o);
}

/* ---- duplicates (insertFunctionRecordIfNeeded) ---- */

static void cov_read__duplicates(void) {
    obj o = {0};
    const char *files[] = {"/d", "a.c"};
    pb_buf fn = {0}, dummy = {0}, real = {0}, other = {0};
    filenames(&fn, files, 2);
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    ULEBS(&dummy, 1, 1, 0, 1, 0, 1, 1, 0, 1);          /* one file, one zero region */
    ULEBS(&real, 1, 1, 0, 1, 1, 2, 1, 0, 1);           /* c0 at 2:1 -> 2:1 */
    ULEBS(&other, 1, 1, 0, 1, 5, 3, 1, 0, 1);          /* c1 at 3:1 */
    covfun_rec(&o.fun, "h", 0, ref, &dummy, PB_ORDER_LE); /* a dummy first */
    covfun_rec(&o.fun, "k", 5, ref, &real, PB_ORDER_LE);
    covfun_rec(&o.fun, "h", 77, ref, &real, PB_ORDER_LE); /* replaces the dummy, keeps its place */
    covfun_rec(&o.fun, "k", 6, ref, &other, PB_ORDER_LE); /* a second real one: ignored */
    covfun_rec(&o.fun, "h", 0, ref, &dummy, PB_ORDER_LE); /* a dummy after a real one: ignored */
    names_blob(&o.names, "h\001k");
    pbi_cov_mapping m;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), 0);
    CU_ASSERT_EQUAL_FATAL(m.nfunctions, 2);
    CU_ASSERT_STRING_EQUAL(m.functions[0].name, "h");
    CU_ASSERT_EQUAL(m.functions[0].hash, 77);
    CU_ASSERT_EQUAL(m.functions[0].regions[0].line_start, 2);
    CU_ASSERT_STRING_EQUAL(m.functions[1].name, "k");
    CU_ASSERT_EQUAL(m.functions[1].hash, 5);
    pbi_cov_mapping_free(&m);
    pbu_buf_free(&fn);
    pbu_buf_free(&dummy);
    pbu_buf_free(&real);
    pbu_buf_free(&other);
    obj_free(&o);
}

/* ---- malformed bytes ---- */

/* An object with one v6 function whose mapping is `mp`; expects PB_EFORMAT at path. */
static void expect_bad_mapping(const uint8_t *mp, size_t n, const char *path, const char *found_part) {
    obj o = {0};
    const char *files[] = {"/d", "a.c", "b.c"};
    pb_buf fn = {0}, map = {0};
    filenames(&fn, files, 3);
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    pbu_buf_append(&map, mp, n);
    covfun_rec(&o.fun, "f", 1, ref, &map, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pbi_cov_mapping m;
    pb_error err;
    int rc = read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err);
    CU_ASSERT_EQUAL(rc, PB_EFORMAT);
    if (rc == 0) pbi_cov_mapping_free(&m);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_STRING_EQUAL(err.source, "t.o");
    CU_ASSERT(err.offset != PB_NO_OFFSET);
    if (found_part && !strstr(err.found, found_part) && !strstr(err.message, found_part)) {
        fprintf(stderr, "\n%s: found '%s' message '%s'\n", path, err.found, err.message);
        CU_FAIL("the error does not say what it found");
    }
    pbu_buf_free(&fn);
    pbu_buf_free(&map);
    obj_free(&o);
}

static void cov_read__malformed_mappings(void) {
    /* a truncated ULEB128 (continuation bit on the last byte) */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x01\x01\x01\x00\x85", 9,
                       "__llvm_covfun[0].regions[0].col_end", "ends first");
    /* counts that exceed the bytes left */
    expect_bad_mapping((const uint8_t *)"\x7f", 1, "__llvm_covfun[0].nfile_ids", "127");
    expect_bad_mapping((const uint8_t *)"\x01\x00\x50", 3, "__llvm_covfun[0].nexprs", "80");
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x30", 4, "__llvm_covfun[0].files[0].nregions", "48");
    /* a file index past the TU's filenames (3 of them) */
    expect_bad_mapping((const uint8_t *)"\x01\x03\x00\x00", 4, "__llvm_covfun[0].file_ids[0]", "3");
    /* an expression id out of range (e1 of 1 expression) */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x01\x06\x01\x00", 6, "__llvm_covfun[0].exprs[0].lhs",
                       "counter expression is invalid");
    /* an expansion of a file id that does not exist */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x0c\x01\x01\x00\x01", 9,
                       "__llvm_covfun[0].regions[0].counter_and_kind", "ExpandedFileID is invalid");
    /* a region kind that does not exist (7), and the gap kind spelled as a kind (3) */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x38\x01\x01\x00\x01", 9,
                       "__llvm_covfun[0].regions[0].counter_and_kind", "region kind is incorrect");
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x18\x01\x01\x00\x01", 9,
                       "__llvm_covfun[0].regions[0].counter_and_kind", "region kind is incorrect");
    /* an end before the start */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x01\x01\x05\x00\x02", 9,
                       "__llvm_covfun[0].regions[0].num_lines", "locations are incorrect");
    /* a value that needs more than 32 bits where LLVM reads readIntMax(UINT_MAX) */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\xff\xff\xff\xff\x0f\x01\x01\x00\x01", 13,
                       "__llvm_covfun[0].regions[0].counter_and_kind", "4294967295");
    /* an overlong ULEB128 */
    expect_bad_mapping((const uint8_t *)"\x01\x00\x00\x01\x01\x81\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 16,
                       "__llvm_covfun[0].regions[0].line_delta", "longer");
}

static void cov_read__malformed_sections(void) {
    pbi_cov_mapping m;
    pb_error err;
    const char *files[] = {"/d", "a.c"};
    pb_buf fn = {0}, mp = {0};
    filenames(&fn, files, 2);
    ULEBS(&mp, 1, 1, 0, 1, 1, 1, 1, 0, 1);
    /* a FilenamesRef no TU has */
    obj o = {0};
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    covfun_rec(&o.fun, "f", 1, ref + 1, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covfun[0].FilenamesRef");
    CU_ASSERT_EQUAL(err.offset, 20);
    obj_free(&o);
    /* a NameRef the names do not hold */
    memset(&o, 0, sizeof o);
    ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "other");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covfun[0].NameRef");
    obj_free(&o);
    /* DataSize past the section */
    memset(&o, 0, sizeof o);
    ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    pb_put_u32((uint8_t *)o.fun.data + 8, 1000, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covfun[0].DataSize");
    obj_free(&o);
    /* a version past 7 */
    memset(&o, 0, sizeof o);
    ref = covmap_tu(&o.map, 7, &fn, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "unsupported coverage format version");
    obj_free(&o);
    /* FilenamesSize past the section; zero filenames; a zlib stream that is not one */
    memset(&o, 0, sizeof o);
    (void)covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    pb_put_u32((uint8_t *)o.map.data + 4, 4096, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covmap[0].FilenamesSize");
    obj_free(&o);
    memset(&o, 0, sizeof o);
    pb_buf zero = {0};
    pb_error_clear(&err);
    ULEBS(&zero, 0, 0, 0);
    (void)covmap_tu(&o.map, 5, &zero, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covmap[0].filenames.count");
    obj_free(&o);
    memset(&o, 0, sizeof o);
    pb_buf badz = {0};
    ULEBS(&badz, 1, 100, 4);
    pbu_buf_append(&badz, "\x78\x9c\xff\xff", 4);
    (void)covmap_tu(&o.map, 5, &badz, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covmap[0].filenames.zlib");
    obj_free(&o);
    /* an uncompressed length past the bound is refused before any allocation */
    memset(&o, 0, sizeof o);
    pb_buf big = {0};
    ULEBS(&big, 1, UINT64_C(1) << 40, 4);
    pbu_buf_append(&big, "\x78\x9c\x03\x00", 4);
    (void)covmap_tu(&o.map, 5, &big, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pbi_cov_read_options small = {NULL, NULL, NULL, 1000, 0, 0};
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &small, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covmap[0].filenames.uncompressed_length");
    obj_free(&o);
    /* not an ELF file; an ELF file without coverage */
    CU_ASSERT_EQUAL(pbi_cov_read_memory(&m, (const uint8_t *)"hello", 5, "h", NULL, &err), PB_EFORMAT);
    memset(&o, 0, sizeof o);
    sec none[1] = {{".text", (const uint8_t *)"\x90", 1, 0}};
    make_elf(&o.elf, 8, PB_ORDER_LE, none, 1);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_cov_read_memory(&m, (const uint8_t *)o.elf.data, o.elf.len, "n.o", NULL, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "no coverage data found");
    /* -arch that is not the object's machine, or no architecture at all */
    pbi_cov_read_options arch = {NULL, "aarch64", NULL, 0, 0, 0};
    obj_free(&o);
    memset(&o, 0, sizeof o);
    ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &arch, &m, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "No object file for requested architecture");
    arch.arch = "x86_64";
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &arch, &m, &err), 0);
    if (!err.code) pbi_cov_mapping_free(&m);
    arch.arch = "xyz";
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &arch, &m, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown architecture: xyz");
    obj_free(&o);
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    pbu_buf_free(&zero);
    pbu_buf_free(&badz);
    pbu_buf_free(&big);
}

/* A SHF_COMPRESSED __llvm_covmap: llvm-cov reads the stored bytes and fails
 * ("truncated coverage data", llvm-cov-19 and 24 on a clang-19 binary after
 * llvm-objcopy --compress-sections); the reader says so, and a ch_size past
 * what zlib can make of the stored bytes is refused before any allocation. */
static void cov_read__compressed_section(void) {
    obj o = {0};
    const char *files[] = {"/d", "a.c"};
    pb_buf fn = {0}, mp = {0}, z = {0};
    filenames(&fn, files, 2);
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    ULEBS(&mp, 1, 1, 0, 1, 1, 1, 1, 0, 1);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pbi_names_encode(o.map.data, o.map.len, 1, &z, &err), 0);
    size_t p = 0;
    pbi_names_chunk ch;
    CU_ASSERT_EQUAL_FATAL(pbi_names_next_chunk((const uint8_t *)z.data, z.len, &p, &ch, 0, "z", &err), 1);
    for (int lie = 0; lie < 2; lie++) {
        pb_buf c = {0};
        u32(&c, 1, PB_ORDER_LE); /* ELFCOMPRESS_ZLIB */
        u32(&c, 0, PB_ORDER_LE);
        u64(&c, lie ? UINT64_C(1) << 40 : o.map.len, PB_ORDER_LE);
        u64(&c, 8, PB_ORDER_LE);
        pbu_buf_append(&c, z.data + ch.data, (size_t)ch.clen);
        sec s[3] = {{"__llvm_covfun", (const uint8_t *)o.fun.data, o.fun.len, 0},
                    {"__llvm_covmap", (const uint8_t *)c.data, c.len, 0x800 /* SHF_COMPRESSED */},
                    {"__llvm_prf_names", (const uint8_t *)o.names.data, o.names.len, 0}};
        o.elf.len = 0;
        make_elf(&o.elf, 8, PB_ORDER_LE, s, 3);
        pbi_cov_mapping m;
        pb_error_clear(&err);
        CU_ASSERT_EQUAL(pbi_cov_read_memory(&m, (const uint8_t *)o.elf.data, o.elf.len, "z.o", NULL, &err), PB_EFORMAT);
        CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covmap");
        if (lie) CU_ASSERT_PTR_NOT_NULL(strstr(err.expected, "inflated size"));
        if (!lie) CU_ASSERT_STRING_EQUAL(err.message, "truncated coverage data");
        pbu_buf_free(&c);
    }
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    pbu_buf_free(&z);
    obj_free(&o);
}

/* err->message holds llvm-cov-N's words after "failed to load coverage:
 * 'FILE': " (checked against llvm-cov-13..19, 21 and 24 on clang binaries
 * with patched bytes): 18+ lowercase with the coverage-map detail, 13-17
 * capitalized without it, 13 "malformed instrumentation profile data" bare;
 * errors inside a record's mapping keep only the words of their code. */
static void cov_read__llvm_words(void) {
    const struct { int release; const char *covsize, *name, *mapping, *zlib; } want[] = {
        {19, "malformed coverage data: coverage mapping size is not zero",
         "malformed instrumentation profile data: function name is empty", "malformed coverage data",
         "failed to decompress coverage data (zlib)"},
        {18, "malformed coverage data: coverage mapping size is not zero",
         "malformed instrumentation profile data: function name is empty", "malformed coverage data",
         "failed to decompress coverage data (zlib)"},
        {17, "Malformed coverage data", "malformed instrumentation profile data: function name is empty",
         "Malformed coverage data", "Failed to decompress coverage data (zlib)"},
        {13, "Malformed coverage data", "malformed instrumentation profile data", "Malformed coverage data",
         "Failed to decompress coverage data (zlib)"}};
    const char *files[] = {"/d", "a.c"};
    pb_buf fn = {0}, mp = {0}, badz = {0};
    filenames(&fn, files, 2);
    ULEBS(&mp, 1, 1, 0, 1, 1, 1, 1, 0, 1);
    ULEBS(&badz, 1, 100, 4);
    pbu_buf_append(&badz, "\x78\x9c\xff\xff", 4);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        pbi_llvm_target t;
        pbi_cov_read_options opt = release(want[k].release, &t);
        pbi_cov_mapping m;
        pb_error err;
        for (int c = 0; c < 4; c++) {
            obj o = {0};
            uint64_t ref = covmap_tu(&o.map, 5, c == 3 ? &badz : &fn, PB_ORDER_LE);
            if (c == 0) pb_put_u32((uint8_t *)o.map.data + 8, 1, PB_ORDER_LE); /* CoverageSize 1 */
            if (c == 2) {
                pb_buf trunc = {0};
                ULEBS(&trunc, 1, 1, 0, 1, 1, 1, 1, 0);
                covfun_rec(&o.fun, "f", 1, ref, &trunc, PB_ORDER_LE);
                pbu_buf_free(&trunc);
            } else {
                covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
            }
            names_blob(&o.names, c == 1 ? "g" : "f");
            CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, &opt, &m, &err), PB_EFORMAT);
            const char *w = c == 0 ? want[k].covsize : c == 1 ? want[k].name : c == 2 ? "" : want[k].zlib;
            if (c == 2) /* the mapping ends inside a region: a ULEB128 at the end is llvm's "truncated" */
                w = want[k].release >= 18 ? "truncated coverage data" : "Truncated coverage data";
            CU_ASSERT_STRING_EQUAL(err.message, w);
            obj_free(&o);
        }
    }
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    pbu_buf_free(&badz);
}

/* ---- real objects (tests/fuzz/cov_read/) ---- */

/* mc19.o / mc17.o: `int g(int a, int b, int c) { if ((a && b) || c) return 1;
 * return 0; }` built with clang-19 (-fcoverage-mcdc) and clang-17 -c. The
 * regions are what `llvm-cov-N export` prints for a program linked from it
 * (functions[0].regions and .branches: line, col, line, col, file id, kind),
 * in order; the reader's list holds both, interleaved. */
static const uint32_t code_regions[][6] = {
    {1, 28, 1, 70, 0, 0}, {1, 34, 1, 42, 0, 0}, {1, 34, 1, 47, 0, 0}, {1, 35, 1, 36, 0, 0}, {1, 40, 1, 41, 0, 0},
    {1, 46, 1, 47, 0, 0}, {1, 48, 1, 49, 0, 3}, {1, 49, 1, 57, 0, 0}, {1, 58, 1, 59, 0, 3}, {1, 59, 1, 67, 0, 0}};
static const uint32_t branches19[][6] = {{1, 35, 1, 36, 0, 6}, {1, 40, 1, 41, 0, 6}, {1, 46, 1, 47, 0, 6}};
static const uint32_t branches17[][6] = {{1, 35, 1, 36, 0, 4}, {1, 40, 1, 41, 0, 4}, {1, 46, 1, 47, 0, 4}};

static int same(const pbi_cov_region *g, const uint32_t *w) {
    return g->line_start == w[0] && g->col_start == w[1] && g->line_end == w[2] && g->col_end == w[3] &&
           g->file_id == w[4] && g->kind == w[5];
}

static void cov_read__real_objects(void) {
    const struct { const char *file; const uint32_t (*br)[6]; uint32_t version; size_t decisions; } objs[] = {
        {"tests/fuzz/cov_read/mc19.elf", branches19, 6, 1}, {"tests/fuzz/cov_read/mc17.elf", branches17, 5, 0}};
    for (size_t k = 0; k < 2; k++) {
        const char *path = tu_src(objs[k].file);
        pbi_cov_mapping m;
        pb_error err;
        pb_error_clear(&err);
        int rc = pbi_cov_read(&m, &path, 1, NULL, &err);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(m.versions[0], objs[k].version);
        CU_ASSERT_EQUAL_FATAL(m.nfunctions, 1);
        const pbi_cov_function *f = &m.functions[0];
        CU_ASSERT_STRING_EQUAL(f->name, "g");
        CU_ASSERT_EQUAL(f->nfilenames, 1);
        CU_ASSERT_STRING_EQUAL(f->filenames[0], "/tmp/rd/mc.c");
        size_t nc = 0, nb = 0, nd = 0;
        for (size_t i = 0; i < f->nregions; i++) {
            const pbi_cov_region *g = &f->regions[i];
            if (g->kind == PBI_COV_REGION_BRANCH || g->kind == PBI_COV_REGION_MCDC_BRANCH) {
                CU_ASSERT(nb < 3 && same(g, objs[k].br[nb]));
                nb++;
            } else if (g->kind == PBI_COV_REGION_MCDC_DECISION) {
                CU_ASSERT(g->mcdc.num_conditions == 3 && g->line_start == 1 && g->col_start == 34);
                nd++;
            } else {
                CU_ASSERT(nc < 10 && same(g, code_regions[nc]));
                nc++;
            }
        }
        CU_ASSERT(nc == 10 && nb == 3 && nd == objs[k].decisions);
        pbi_cov_mapping_free(&m);
    }
}

/* Every file of the fuzz corpus reads or fails with a message (the fuzz
 * target's checks, replayed), and every seed of a real clang reads. */
static void cov_read__fuzz_corpus_replay(void) {
    DIR *dir = opendir(tu_src("tests/fuzz/cov_read"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char rel[512];
        snprintf(rel, sizeof rel, "tests/fuzz/cov_read/%s", e->d_name);
        size_t len;
        char *d = tu_slurp(tu_src(rel), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        pbi_cov_mapping m;
        pb_error err;
        pb_error_clear(&err);
        int rc = pbi_cov_read_memory(&m, (const uint8_t *)d, len, e->d_name, NULL, &err);
        if (strstr(e->d_name, ".elf")) CU_ASSERT_EQUAL(rc, 0); /* the seeds clang wrote */
        if (rc == 0) pbi_cov_mapping_free(&m);
        else CU_ASSERT(err.code == rc && (err.message[0] || err.expected[0]));
        free(d);
        n++;
    }
    closedir(dir);
    CU_ASSERT(n >= 4);
}

static int has(const char *t, size_t len, const char *want) {
    size_t n = strlen(want);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(t + i, want, n) == 0) return 1;
    return 0;
}

/* pb_coverage_dump: every field of a real object, text and JSON; a cut
 * object explains what precedes the cut, then the problem. */
static void cov_read__dump(void) {
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    CU_ASSERT_EQUAL(pb_coverage_dump(tu_src("tests/fuzz/cov_read/mc19.elf"), 0, s, &err), 0);
    size_t len;
    const char *t = (const char *)pb_sink_memory(s, &len);
    char *txt = malloc(len + 1);
    memcpy(txt, t, len);
    txt[len] = 0;
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "[0].Version                        6 (coverage mapping version 7)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "filenames[1]                       /tmp/rd/mc.c (inflated)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "[0].regions[3].mcdc.num_conditions 3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "= mcdc-decision, file 0, 1:34 -> 1:47"));
    CU_ASSERT_PTR_NULL(strstr(txt, "problem"));
    free(txt);
    pb_sink_free(s);
    /* JSON */
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    CU_ASSERT_EQUAL(pb_coverage_dump(tu_src("tests/fuzz/cov_read/mc17.elf"), 1, s, &err), 0);
    t = (const char *)pb_sink_memory(s, &len);
    CU_ASSERT(len > 2 && t[0] == '{');
    CU_ASSERT(has(t, len, "\"problem\": null}"));
    pb_sink_free(s);
    /* a broken mapping: a region kind that does not exist */
    obj o = {0};
    const char *files[] = {"/d", "a.c"};
    pb_buf fn = {0}, mp = {0};
    filenames(&fn, files, 2);
    uint64_t ref = covmap_tu(&o.map, 5, &fn, PB_ORDER_LE);
    ULEBS(&mp, 1, 1, 0, 1, 7 << 3, 1, 1, 0, 1);
    covfun_rec(&o.fun, "f", 1, ref, &mp, PB_ORDER_LE);
    names_blob(&o.names, "f");
    pbi_cov_mapping m;
    CU_ASSERT_EQUAL(read_obj(&o, 8, PB_ORDER_LE, NULL, &m, &err), PB_EFORMAT);
    char path[64];
    snprintf(path, sizeof path, "/tmp/pb-cov-dump-%ld.o", (long)getpid());
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(o.elf.data, 1, o.elf.len, f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    CU_ASSERT_EQUAL(pb_coverage_dump(path, 0, s, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "__llvm_covfun[0].regions[0].counter_and_kind");
    CU_ASSERT_EQUAL(err.offset, 32);
    t = (const char *)pb_sink_memory(s, &len);
    CU_ASSERT(has(t, len, "[0].files[0].nregions"));
    CU_ASSERT(has(t, len, "problem: "));
    pb_sink_free(s);
    remove(path);
    pbu_buf_free(&fn);
    pbu_buf_free(&mp);
    obj_free(&o);
}

/* Several objects in order (functions keep their object's index), -arch
 * per object (llvm-cov -arch=A -arch=B with two objects). */
static void cov_read__objects_and_arches(void) {
    const char *paths[2] = {tu_src("tests/fuzz/cov_read/mc19.elf"), NULL};
    paths[1] = tu_src("tests/fuzz/cov_read/ppc32be19.elf");
    char p0[512], p1[512];
    snprintf(p0, sizeof p0, "%s", paths[0]);
    snprintf(p1, sizeof p1, "%s", paths[1]);
    const char *const objs[2] = {p0, p1};
    const char *good[2] = {"x86_64", "ppc"}, *bad[2] = {"x86_64", "x86_64"};
    pbi_cov_mapping m;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_read_arches(&m, objs, good, 2, NULL, &err), 0);
    CU_ASSERT_EQUAL(m.nobjects, 2);
    CU_ASSERT(m.nfunctions >= 2);
    CU_ASSERT_EQUAL(m.functions[0].object, 0);
    CU_ASSERT_EQUAL(m.functions[m.nfunctions - 1].object, 1);
    CU_ASSERT_EQUAL(m.versions[1], 6);
    pbi_cov_mapping_free(&m);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_cov_read_arches(&m, objs, bad, 2, NULL, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "No object file for requested architecture");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.source, "ppc32be19.elf"));
}

/* An object without coverage sections among others (grcov and CMake
 * scripts pass every program of a build): skipped, as llvm-cov-13..24 skip
 * it (the real tools: tests/interop/cov_callers.sh); none with coverage:
 * "no coverage data found", marked so that llvm-cov's line names them all. */
static void cov_read__objects_without_data(void) {
    pb_buf elf = {0};
    sec none[1] = {{".text", (const uint8_t *)"\x90", 1, 0}};
    make_elf(&elf, 8, PB_ORDER_LE, none, 1);
    char nocov[64], p0[512];
    snprintf(nocov, sizeof nocov, "/tmp/pb-cov-nodata-%ld.o", (long)getpid());
    FILE *f = fopen(nocov, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(elf.data, 1, elf.len, f);
    fclose(f);
    snprintf(p0, sizeof p0, "%s", tu_src("tests/fuzz/cov_read/mc19.elf"));
    const char *const with[3] = {nocov, p0, nocov}, *without[2] = {nocov, nocov};
    pbi_cov_mapping m;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_read(&m, with, 3, NULL, &err), 0);
    CU_ASSERT_EQUAL(err.code, 0);
    CU_ASSERT_EQUAL(m.nobjects, 3);
    CU_ASSERT(m.nfunctions >= 1);
    for (size_t i = 0; i < m.nfunctions; i++) CU_ASSERT_EQUAL(m.functions[i].object, 1);
    CU_ASSERT_EQUAL(m.versions[0], 0);
    pbi_cov_mapping_free(&m);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_cov_read(&m, without, 2, NULL, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "no coverage data found");
    CU_ASSERT_STRING_EQUAL(err.path, PBI_COV_NO_DATA_IN_ANY);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_cov_read(&m, without, 1, NULL, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.message, "no coverage data found");
    CU_ASSERT_STRING_NOT_EQUAL(err.path, PBI_COV_NO_DATA_IN_ANY);
    /* a directory among the objects: llvm-cov's words (MemoryBuffer's errc) */
    const char *const dir[2] = {p0, "/"};
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_cov_read(&m, dir, 2, NULL, &err), PB_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "Is a directory");
    CU_ASSERT_STRING_EQUAL(err.source, "/");
    remove(nocov);
    pbu_buf_free(&elf);
}

/* A relative filename joined to the compilation directory: llvm-cov 15+
 * remove its dots (remove_dots(P, true) in RawCoverageFilenamesReader),
 * 13-14 print it as appended: llvm-cov-13/14 export -format=lcov of a
 * clang-13 binary built in /tmp/fx/pd/build from ../src/p.c print
 * "SF:/tmp/fx/pd/build/../src/p.c", llvm-cov-15..24 "SF:/tmp/fx/pd/src/p.c". */
static void cov_read__dots_by_release(void) {
    pbu_arena a = PBU_ARENA_INIT;
    const char *dir = "/tmp/fx/pd/build", *name = "../src/./p.c";
    CU_ASSERT_STRING_EQUAL(pbi_cov_join_path(&a, dir, strlen(dir), name, strlen(name), 1), "/tmp/fx/pd/src/p.c");
    CU_ASSERT_STRING_EQUAL(pbi_cov_join_path(&a, dir, strlen(dir), name, strlen(name), 0),
                           "/tmp/fx/pd/build/../src/./p.c");
    pbu_arena_free(&a);
    pbi_llvm_target t;
    int want[][2] = {{13, 0}, {14, 0}, {15, 1}, {18, 1}, {24, 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(pbi_llvm_target_of(want[i][0], &t), 0);
        CU_ASSERT_EQUAL(pbi_llvm_cov_has(&t, PBI_LC_READ_REMOVE_DOTS), want[i][1]);
    }
}

static CU_TestInfo tests[] = {
    {"cov_read__dots_by_release", cov_read__dots_by_release},
    {"cov_read__v4_regions", cov_read__v4_regions},
    {"cov_read__v5_branch_big_endian_compressed", cov_read__v5_branch_big_endian_compressed},
    {"cov_read__v6_compilation_directory", cov_read__v6_compilation_directory},
    {"cov_read__v7_mcdc", cov_read__v7_mcdc},
    {"cov_read__duplicates", cov_read__duplicates},
    {"cov_read__malformed_mappings", cov_read__malformed_mappings},
    {"cov_read__malformed_sections", cov_read__malformed_sections},
    {"cov_read__real_objects", cov_read__real_objects},
    {"cov_read__compressed_section", cov_read__compressed_section},
    {"cov_read__llvm_words", cov_read__llvm_words},
    {"cov_read__objects_and_arches", cov_read__objects_and_arches},
    {"cov_read__objects_without_data", cov_read__objects_without_data},
    {"cov_read__fuzz_corpus_replay", cov_read__fuzz_corpus_replay},
    {"cov_read__dump", cov_read__dump},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_cov_read[] = {{"cov_read", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
