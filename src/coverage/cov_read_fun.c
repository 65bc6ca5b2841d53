/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_fun.c -- __llvm_covfun (cov_read.h): the function records
 * (NameRef u64, DataSize u32, FuncHash u64, FilenamesRef u64, DataSize bytes
 * of mapping, padding to 8), their duplicates, and each kept record's
 * mapping bytes, decoded as LLVM's RawCoverageMappingReader does:
 *   #file ids, the TU filename index of each; #expressions, each two
 *   encoded counters; per file id #regions, each an encoded counter or kind
 *   (then kind's own fields), line delta, column start, #lines, column end
 *   (bit 31: a gap region).
 * Counts are checked against the bytes left before anything is allocated
 * for them (LLVM's readSize), so a lying count costs nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_read.h"
#include "llvm/leb128.h"
#include "llvm/names.h"
#include "profbridge/profile.h"
#include "util/buf.h"
#include "util/grow.h"

#define FUNREC 28 /* NameRef, DataSize, FuncHash, FilenamesRef */

/* Counter encoding (Counter::EncodingTagBits etc.) */
#define TAG_BITS 2
#define TAG_MASK 3u
#define EXPANSION_BIT 4u
#define KIND_SHIFT 3

typedef struct mr {
    const char *obj;
    const uint8_t *d;
    size_t pos, end;
    size_t rec;
    const pbi_cov_trace *tr;
    pb_error *err;
    /* the field's parent, "regions[2]." etc.: a word and an index, put
     * together by m_where only when a message or the dump needs it (an
     * snprintf per region was a tenth of cov export's time) */
    const char *where_word; /* "regions", "exprs", "files"; NULL: none */
    uint64_t where_idx;
    int quiet;      /* the caller traces the field itself (with its meaning) */
    char where[64]; /* m_where's text */
} mr;

static void m_at(mr *r, const char *word, uint64_t idx) {
    r->where_word = word;
    r->where_idx = idx;
}

static const char *m_where(mr *r) {
    if (!r->where_word) return "";
    snprintf(r->where, sizeof r->where, "%s[%llu].", r->where_word, (unsigned long long)r->where_idx);
    return r->where;
}

static int m_uleb_slow(mr *r, const char *field, uint64_t *v) {
    size_t at = r->pos;
    int u = pbi_uleb_decode(r->d, r->end, &r->pos, v);
    if (u == PBI_ULEB_TRUNCATED) /* readNextRecord's errors keep only their code's words */
        return pbi_cov_bad_w(r->err, r->obj, at, at == r->end ? "truncated coverage data" : NULL,
                             "a ULEB128 inside the record's DataSize bytes",
                           "the record ends first", PBI_SEC_COVFUN "[%zu].%s%s", r->rec, m_where(r), field);
    if (u == PBI_ULEB_OVERFLOW)
        return pbi_cov_bad(r->err, r->obj, r->pos, "a ULEB128 of at most 64 bits", "a longer one",
                           PBI_SEC_COVFUN "[%zu].%s%s", r->rec, m_where(r), field);
    if (r->tr && !r->quiet) {
        char f[128];
        snprintf(f, sizeof f, "[%zu].%s%s", r->rec, m_where(r), field);
        pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, at, r->pos - at, f, "%llu", (unsigned long long)*v);
    }
    return 0;
}

/* Most of a mapping's numbers are one byte: read those here, without
 * the error and trace paths (the decoder's hottest call). */
static inline int m_uleb(mr *r, const char *field, uint64_t *v) {
    if (r->pos < r->end && r->d[r->pos] < 0x80 && !r->tr) {
        *v = r->d[r->pos++];
        return 0;
    }
    return m_uleb_slow(r, field, v);
}

/* readIntMax: below max_plus1. */
static int m_max_slow(mr *r, const char *field, uint64_t max_plus1, uint64_t *v) {
    size_t at = r->pos;
    int rc = m_uleb(r, field, v);
    if (rc) return rc;
    if (*v >= max_plus1) {
        char e[64], f[32];
        snprintf(e, sizeof e, "< %llu", (unsigned long long)max_plus1);
        snprintf(f, sizeof f, "%llu", (unsigned long long)*v);
        return pbi_cov_bad(r->err, r->obj, at, e, f, PBI_SEC_COVFUN "[%zu].%s%s", r->rec, m_where(r), field);
    }
    return 0;
}

/* The one-byte numbers inline (m_uleb's fast path), the rest and every
 * error out of line: a call per number was 4% of an lcov export. */
static inline int m_max(mr *r, const char *field, uint64_t max_plus1, uint64_t *v) {
    if (r->pos < r->end && r->d[r->pos] < 0x80 && !r->tr && r->d[r->pos] < max_plus1) {
        *v = r->d[r->pos++];
        return 0;
    }
    return m_max_slow(r, field, max_plus1, v);
}

/* readSize: no bigger than the bytes left. */
static int m_size(mr *r, const char *field, uint64_t *v) {
    size_t at = r->pos;
    int rc = m_uleb(r, field, v);
    if (rc) return rc;
    if (*v > r->end - r->pos) {
        char e[64], f[32];
        snprintf(e, sizeof e, "<= %zu (the bytes left)", r->end - r->pos);
        snprintf(f, sizeof f, "%llu", (unsigned long long)*v);
        return pbi_cov_bad(r->err, r->obj, at, e, f, PBI_SEC_COVFUN "[%zu].%s%s", r->rec, m_where(r), field);
    }
    return 0;
}

/* decodeCounter: tag 0 zero, 1 counter, 2 subtract, 3 add (the reference
 * sets the expression's kind). */
static int decode_counter(mr *r, const char *field, uint64_t v, size_t at, pbi_cov_expr *ex, size_t nex,
                          pbi_cov_counter *c) {
    unsigned tag = (unsigned)(v & TAG_MASK);
    c->id = 0;
    if (tag == 0) {
        c->kind = PBI_COV_ZERO;
        return 0;
    }
    uint64_t id = v >> TAG_BITS;
    if (tag == 1) {
        c->kind = PBI_COV_REF;
        c->id = (uint32_t)id;
        return 0;
    }
    if (id >= nex) {
        char e[64], f[64];
        snprintf(e, sizeof e, "an expression id < %zu", nex);
        snprintf(f, sizeof f, "%llu (counter expression is invalid)", (unsigned long long)id);
        return pbi_cov_bad(r->err, r->obj, at, e, f, PBI_SEC_COVFUN "[%zu].%s%s", r->rec, m_where(r), field);
    }
    ex[id].kind = tag == 2 ? PBI_COV_SUBTRACT : PBI_COV_ADD;
    c->kind = PBI_COV_EXPR;
    c->id = (uint32_t)id;
    return 0;
}

/* The meaning of an encoded counter, for the dump. */
static void trace_counter(mr *r, const char *field, size_t at, uint64_t v, const pbi_cov_counter *c) {
    if (!r->tr) return;
    char f[128];
    snprintf(f, sizeof f, "[%zu].%s%s", r->rec, m_where(r), field);
    unsigned tag = (unsigned)(v & TAG_MASK);
    if (c->kind == PBI_COV_ZERO) pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, at, r->pos - at, f, "%llu = zero",
                                                (unsigned long long)v);
    else pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, at, r->pos - at, f, "%llu = %s #%u", (unsigned long long)v,
                        tag == 1 ? "counter" : tag == 2 ? "expression (subtract)" : "expression (add)", (unsigned)c->id);
}

static int read_counter(mr *r, const char *field, pbi_cov_expr *ex, size_t nex, pbi_cov_counter *c) {
    uint64_t v;
    size_t at = r->pos;
    r->quiet = 1;
    int rc = m_max(r, field, UINT32_MAX, &v);
    r->quiet = 0;
    if (!rc) rc = decode_counter(r, field, v, at, ex, nex, c);
    if (!rc) trace_counter(r, field, at, v, c);
    return rc;
}

static int region_kind(mr *r, uint64_t enc, size_t at, uint32_t nfiles, int mcdc_ok, pbi_cov_region *g) {
    if (enc & EXPANSION_BIT) {
        g->kind = PBI_COV_REGION_EXPANSION;
        uint64_t fid = enc >> KIND_SHIFT;
        if (fid >= nfiles) {
            char e[64], f[64];
            snprintf(e, sizeof e, "an expanded file id < %u", (unsigned)nfiles);
            snprintf(f, sizeof f, "%llu (ExpandedFileID is invalid)", (unsigned long long)fid);
            return pbi_cov_bad(r->err, r->obj, at, e, f, PBI_SEC_COVFUN "[%zu].%scounter_and_kind", r->rec,
                               m_where(r));
        }
        g->expanded_file_id = (uint32_t)fid;
        return 0;
    }
    uint64_t k = enc >> KIND_SHIFT;
    switch (k) {
    case PBI_COV_REGION_CODE: return 0;
    case PBI_COV_REGION_SKIPPED: g->kind = PBI_COV_REGION_SKIPPED; return 0;
    case PBI_COV_REGION_BRANCH:
        g->kind = PBI_COV_REGION_BRANCH;
        return 0;
    case PBI_COV_REGION_MCDC_BRANCH:
    case PBI_COV_REGION_MCDC_DECISION:
        if (!mcdc_ok) break;
        g->kind = (uint8_t)k;
        return 0;
    default: break;
    }
    char f[64];
    snprintf(f, sizeof f, "kind %llu (region kind is incorrect)", (unsigned long long)k);
    return pbi_cov_bad(r->err, r->obj, at, mcdc_ok ? "kind 0, 2, 4, 5 or 6 with a zero counter" : "kind 0, 2 or 4 with a zero counter",
                       f, PBI_SEC_COVFUN "[%zu].%scounter_and_kind", r->rec, m_where(r));
}

/* The kind's own fields, after the encoded counter/kind. */
static int kind_fields(mr *r, pbi_cov_expr *ex, size_t nex, int mcdc19, pbi_cov_region *g) {
    int rc;
    uint64_t a, b, c;
    if (g->kind == PBI_COV_REGION_BRANCH || g->kind == PBI_COV_REGION_MCDC_BRANCH) {
        if ((rc = read_counter(r, "true_counter", ex, nex, &g->count)) ||
            (rc = read_counter(r, "false_counter", ex, nex, &g->false_count)))
            return rc;
    }
    uint64_t idmax = mcdc19 ? INT16_MAX : UINT32_MAX;
    if (g->kind == PBI_COV_REGION_MCDC_BRANCH) {
        size_t at = r->pos;
        if ((rc = m_max(r, "mcdc.id", idmax, &a)) || (rc = m_max(r, "mcdc.true_id", idmax, &b)) ||
            (rc = m_max(r, "mcdc.false_id", idmax, &c)))
            return rc;
        if (mcdc19 && a == 0)
            return pbi_cov_bad(r->err, r->obj, at, "a condition id >= 1", "0 (MCDCConditionID shouldn't be zero)",
                               PBI_SEC_COVFUN "[%zu].%smcdc.id", r->rec, m_where(r));
        g->mcdc.id = (int16_t)(int32_t)(a - 1);
        g->mcdc.true_id = (int16_t)(int32_t)(b - 1);
        g->mcdc.false_id = (int16_t)(int32_t)(c - 1);
    } else if (g->kind == PBI_COV_REGION_MCDC_DECISION) {
        if ((rc = m_max(r, "mcdc.bitmap_idx", UINT32_MAX, &a)) ||
            (rc = m_max(r, "mcdc.num_conditions", mcdc19 ? INT16_MAX : UINT32_MAX, &b)))
            return rc;
        g->mcdc.bitmap_idx = (uint32_t)a;
        g->mcdc.num_conditions = (uint16_t)b;
        g->mcdc.id = g->mcdc.true_id = g->mcdc.false_id = -1;
    }
    return 0;
}

static int read_range(mr *r, uint32_t *line, pbi_cov_region *g) {
    uint64_t delta, cs, nl, ce;
    int rc;
    if ((rc = m_max(r, "line_delta", UINT32_MAX, &delta))) return rc;
    size_t at = r->pos;
    if ((rc = m_uleb(r, "col_start", &cs))) return rc;
    if (cs > UINT32_MAX) {
        char f[64];
        snprintf(f, sizeof f, "%llu (start column is too big)", (unsigned long long)cs);
        return pbi_cov_bad(r->err, r->obj, at, "<= 4294967295", f, PBI_SEC_COVFUN "[%zu].%scol_start", r->rec,
                           m_where(r));
    }
    if ((rc = m_max(r, "num_lines", UINT32_MAX, &nl)) || (rc = m_max(r, "col_end", UINT32_MAX, &ce))) return rc;
    *line += (uint32_t)delta; /* unsigned arithmetic, as LLVM's */
    if (ce & (UINT64_C(1) << 31)) {
        g->kind = PBI_COV_REGION_GAP;
        ce &= ~(UINT64_C(1) << 31);
    }
    if (cs == 0 && ce == 0) { /* a whole-line region: 1 .. end of line */
        cs = 1;
        ce = UINT32_MAX;
    }
    g->line_start = *line;
    g->col_start = (uint32_t)cs;
    g->line_end = *line + (uint32_t)nl;
    g->col_end = (uint32_t)ce;
    if (g->line_start > g->line_end || (g->line_start == g->line_end && g->col_start > g->col_end)) {
        char f[96];
        snprintf(f, sizeof f, "%u:%u -> %u:%u (counter mapping region locations are incorrect)",
                 (unsigned)g->line_start, (unsigned)g->col_start, (unsigned)g->line_end, (unsigned)g->col_end);
        return pbi_cov_bad(r->err, r->obj, at, "a start before its end", f, PBI_SEC_COVFUN "[%zu].%snum_lines",
                           r->rec, m_where(r));
    }
    return 0;
}

/* scratch regions (and, read lazily, expressions), reused across
 * functions of one read */
typedef struct scratch {
    pbi_cov_region *v;
    size_t n, cap;
    pbi_cov_expr *ex;
    size_t cap_ex;
} scratch;

/* #file ids and the TU filename index of each. */
static int read_file_ids(mr *r, pbi_cov_function *f, const char *const *files, size_t nfiles, pbu_arena *a) {
    uint64_t n, v;
    int rc = m_size(r, "nfile_ids", &n);
    if (rc) return rc;
    f->filenames = pbu_arena_alloc(a, (size_t)n * sizeof *f->filenames, 8); /* n <= bytes left */
    if (!f->filenames) return pbu_nomem(r->err, "filenames");
    f->nfilenames = (size_t)n;
    for (uint64_t i = 0; i < n; i++) {
        char fld[40];
        snprintf(fld, sizeof fld, "file_ids[%llu]", (unsigned long long)i);
        if ((rc = m_max(r, fld, nfiles, &v))) return rc;
        f->filenames[i] = files[v];
        if (r->tr) {
            char tf[64];
            snprintf(tf, sizeof tf, "[%zu].file_ids[%llu]", r->rec, (unsigned long long)i);
            pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, r->pos, 0, tf, "= %s", files[v]);
        }
    }
    return 0;
}

/* #expressions, then each one's two counters (all allocated first, as a
 * counter may name a later expression; kinds come from the references). */
static int read_exprs(mr *r, pbi_cov_function *f, pbu_arena *a, scratch *s) {
    uint64_t n;
    int rc = m_size(r, "nexprs", &n);
    if (rc) return rc;
    if (a) f->exprs = pbu_arena_alloc(a, (size_t)n * sizeof *f->exprs, 8);
    else f->exprs = pbu_grow((void **)&s->ex, &s->cap_ex, n ? (size_t)n : 1, sizeof *s->ex) ? NULL : s->ex;
    if (!f->exprs) return pbu_nomem(r->err, "expressions");
    memset(f->exprs, 0, (size_t)n * sizeof *f->exprs);
    f->nexprs = (size_t)n;
    for (uint64_t i = 0; i < n; i++) {
        m_at(r, "exprs", i);
        if ((rc = read_counter(r, "lhs", f->exprs, (size_t)n, &f->exprs[i].lhs)) ||
            (rc = read_counter(r, "rhs", f->exprs, (size_t)n, &f->exprs[i].rhs)))
            return rc;
    }
    return 0;
}

static void trace_kind(mr *r, size_t at, uint64_t v, const pbi_cov_region *g) {
    char tf[96];
    snprintf(tf, sizeof tf, "[%zu].%scounter_and_kind", r->rec, m_where(r));
    if (g->kind == PBI_COV_REGION_EXPANSION)
        pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, at, r->pos - at, tf, "%llu = expansion of file id %u",
                       (unsigned long long)v, (unsigned)g->expanded_file_id);
    else
        pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, at, r->pos - at, tf, "%llu = zero counter, kind %llu",
                       (unsigned long long)v, (unsigned long long)(v >> KIND_SHIFT));
}

static void trace_region(mr *r, size_t idx, const pbi_cov_region *g) {
    static const char *kinds[] = {
#define PBI_X(name, code, word) word,
        PBI_COV_REGION_KINDS(PBI_X)
#undef PBI_X
    };
    char tf[64];
    snprintf(tf, sizeof tf, "[%zu].regions[%zu]", r->rec, idx);
    pbi_cov_tracef(r->tr, PBI_SEC_COVFUN, r->d, r->pos, 0, tf, "= %s, file %u, %u:%u -> %u:%u", kinds[g->kind],
                   (unsigned)g->file_id, (unsigned)g->line_start, (unsigned)g->col_start, (unsigned)g->line_end,
                   (unsigned)g->col_end);
}

/* One region of file fid: the encoded counter or kind, the kind's fields,
 * the source range (readMappingRegionsSubArray's loop body). */
static int read_region(mr *r, pbi_cov_function *f, uint32_t fid, int mcdc_ok, int mcdc19, uint32_t *line,
                       size_t idx, pbi_cov_region *g) {
    uint64_t v;
    memset(g, 0, sizeof *g);
    g->file_id = fid;
    g->mcdc.id = g->mcdc.true_id = g->mcdc.false_id = -1;
    m_at(r, "regions", idx);
    size_t at = r->pos;
    r->quiet = 1;
    int rc = m_max(r, "counter_and_kind", UINT32_MAX, &v);
    r->quiet = 0;
    if (rc) return rc;
    if (v & TAG_MASK) {
        if ((rc = decode_counter(r, "counter_and_kind", v, at, f->exprs, f->nexprs, &g->count))) return rc;
        trace_counter(r, "counter_and_kind", at, v, &g->count);
    } else {
        if ((rc = region_kind(r, v, at, (uint32_t)f->nfilenames, mcdc_ok, g))) return rc;
        if (r->tr) trace_kind(r, at, v, g);
        if ((rc = kind_fields(r, f->exprs, f->nexprs, mcdc19, g))) return rc;
    }
    if ((rc = read_range(r, line, g))) return rc;
    if (r->tr) trace_region(r, idx, g);
    return 0;
}

/* An expansion region counts as the first region of the file it expands,
 * through nested expansions (RawCoverageMappingReader::read's passes; a
 * later expansion of the same file id wins, as in LLVM's release builds). */
static int expand_counts(scratch *s, size_t nfid, pb_error *err) {
    if (nfid < 2) return 0;
    size_t *exp = calloc(nfid, sizeof *exp); /* region index + 1 */
    if (!exp) return pbu_nomem(err, "expansions");
    for (size_t pass = 1; pass < nfid; pass++) {
        for (size_t i = 0; i < s->n; i++)
            if (s->v[i].kind == PBI_COV_REGION_EXPANSION) exp[s->v[i].expanded_file_id] = i + 1;
        for (size_t i = 0; i < s->n; i++)
            if (exp[s->v[i].file_id]) {
                s->v[exp[s->v[i].file_id] - 1].count = s->v[i].count;
                exp[s->v[i].file_id] = 0;
            }
    }
    free(exp);
    return 0;
}

/* The expressions and regions from r's position on into f (expressions
 * into `a`, or into s when a is NULL; regions into s). */
static int decode_body(mr *r, pbi_cov_function *f, int mcdc_ok, int mcdc19, pbu_arena *a, scratch *s) {
    int rc;
    if ((rc = read_exprs(r, f, a, s))) return rc;
    s->n = 0;
    for (size_t fid = 0; fid < f->nfilenames; fid++) {
        uint64_t nreg;
        m_at(r, "files", fid);
        if ((rc = m_size(r, "nregions", &nreg))) return rc;
        if (pbu_grow_err((void **)&s->v, &s->cap, s->n + (size_t)nreg, sizeof *s->v, r->err)) return PB_ENOMEM;
        uint32_t line = 0;
        for (uint64_t i = 0; i < nreg; i++, s->n++)
            if ((rc = read_region(r, f, (uint32_t)fid, mcdc_ok, mcdc19, &line, s->n, &s->v[s->n]))) return rc;
    }
    return expand_counts(s, f->nfilenames, r->err);
}

/* lazy: the regions and expressions are checked, then dropped; the bytes
 * after the file ids are kept in `a` for pbi_cov_function_decode. lazy 2
 * (defer_checks): not checked, and not copied: f->enc is d itself, which
 * the mapping keeps. */
static int decode(pbi_cov_function *f, const uint8_t *d, size_t len, uint64_t base, size_t rec,
                  const char *const *files, size_t nfiles, int mcdc_ok, int mcdc19, pbu_arena *a, const char *obj,
                  const pbi_cov_trace *tr, scratch *s, int lazy, pb_error *err) {
    mr r = {obj, d, (size_t)base, (size_t)base + len, rec, tr, err, NULL, 0, 0, ""};
    int rc;
    if ((rc = read_file_ids(&r, f, files, nfiles, a))) return rc;
    size_t body = r.pos;
    if (lazy == 2) {
        f->exprs = NULL;
        f->nexprs = 0;
        f->enc = d;
        f->enc_at = body;
        f->enc_end = r.end;
        f->enc_obj = obj;
        f->enc_rec = rec;
        f->enc_mcdc_ok = (uint8_t)mcdc_ok;
        f->enc_mcdc19 = (uint8_t)mcdc19;
        return 0;
    }
    if ((rc = decode_body(&r, f, mcdc_ok, mcdc19, lazy ? NULL : a, s))) return rc;
    if (r.pos < r.end && tr) {
        char tf[48];
        snprintf(tf, sizeof tf, "[%zu].unused", rec);
        pbi_cov_tracef(tr, PBI_SEC_COVFUN, d, r.pos, r.end - r.pos, tf, "%zu bytes llvm-cov does not read",
                       r.end - r.pos);
    }
    if (lazy) {
        f->exprs = NULL;
        f->nexprs = 0;
        f->enc_at = 0;
        f->enc_end = r.pos - body;
        f->enc = pbu_arena_dup(a, d + body, f->enc_end ? f->enc_end : 1, 1);
        f->enc_mcdc_ok = (uint8_t)mcdc_ok;
        f->enc_mcdc19 = (uint8_t)mcdc19;
        if (!f->enc) return pbu_nomem(err, "mapping bytes");
        return 0;
    }
    f->regions = pbu_arena_dup(a, s->v, s->n * sizeof *s->v, 8);
    if (!f->regions) return pbu_nomem(err, "regions");
    f->nregions = s->n;
    return 0;
}

int pbi_cov_function_decode(const pbi_cov_function *f, pbi_cov_decoded *s, pbi_cov_function *out, pb_error *err) {
    *out = *f;
    if (!f->enc) return 0;
    mr r = {f->enc_obj ? f->enc_obj : "<memory>", f->enc, f->enc_at, f->enc_end, f->enc_rec, NULL, err, NULL, 0, 0,
            ""};
    scratch sc = {s->regions, 0, s->cap_regions, s->exprs, s->cap_exprs};
    int rc = decode_body(&r, out, f->enc_mcdc_ok, f->enc_mcdc19, NULL, &sc);
    s->regions = sc.v;
    s->cap_regions = sc.cap;
    s->exprs = sc.ex;
    s->cap_exprs = sc.cap_ex;
    out->regions = sc.v;
    out->nregions = rc ? 0 : sc.n;
    out->enc = NULL;
    return rc;
}

void pbi_cov_decoded_free(pbi_cov_decoded *s) {
    free(s->exprs);
    free(s->regions);
    memset(s, 0, sizeof *s);
}

int pbi_cov_decode_mapping(pbi_cov_function *f, const uint8_t *d, size_t len, uint64_t base, size_t rec,
                           const char *const *files, size_t nfiles, int mcdc19, pbu_arena *a,
                           const pbi_cov_trace *tr, pb_error *err) {
    scratch s = {NULL, 0, 0, NULL, 0};
    int rc = decode(f, d, len, base, rec, files, nfiles, 1, mcdc19, a, "<memory>", tr, &s, 0, err);
    free(s.v);
    free(s.ex);
    return rc;
}

/* ---- names: NameRef -> the PGO name ---- */

typedef struct name_ent {
    uint64_t md5;
    size_t off, len, seq;
} name_ent;

typedef struct names {
    pb_buf text;
    name_ent *v;
    size_t n, cap;
    size_t *slots; /* by md5, open addressing: entry index + 1 of the first name with it; 0: empty */
    size_t nslots;
} names;

static size_t name_slot(uint64_t md5, size_t cap) { return (size_t)(md5 ^ (md5 >> 32)) & (cap - 1); }

static int add_name(void *ctx, const char *name, size_t len, pb_error *err) {
    names *nm = ctx;
    if (pbu_grow_err((void **)&nm->v, &nm->cap, nm->n + 1, sizeof *nm->v, err)) return PB_ENOMEM;
    nm->v[nm->n] = (name_ent){pb_md5_ref(name, len), nm->text.len, len, nm->n};
    nm->n++;
    pbu_buf_append(&nm->text, name, len);
    if (pbu_buf_failed(&nm->text)) return pbu_nomem(err, "names");
    return 0;
}

/* The first name (in section order) whose MD5 is md5, or NULL. */
static const name_ent *find_name(const names *nm, uint64_t md5) {
    if (!nm->nslots) return NULL;
    for (size_t j = name_slot(md5, nm->nslots); nm->slots[j]; j = (j + 1) & (nm->nslots - 1))
        if (nm->v[nm->slots[j] - 1].md5 == md5) return &nm->v[nm->slots[j] - 1];
    return NULL;
}

/* The MD5 index of the names (a hash, not a sort of 100k entries: the
 * sort was 2% of cov export). Returns 0 or PB_ENOMEM. */
static int index_names(names *nm, pb_error *err) {
    size_t cap = 16;
    while (cap < 2 * nm->n) {
        if (cap > SIZE_MAX / 4 / sizeof *nm->slots) return pbu_nomem(err, "names");
        cap *= 2;
    }
    nm->slots = calloc(cap, sizeof *nm->slots);
    if (!nm->slots) return pbu_nomem(err, "names");
    nm->nslots = cap;
    for (size_t i = 0; i < nm->n; i++) {
        size_t j = name_slot(nm->v[i].md5, cap);
        while (nm->slots[j] && nm->v[nm->slots[j] - 1].md5 != nm->v[i].md5) j = (j + 1) & (cap - 1);
        if (!nm->slots[j]) nm->slots[j] = i + 1; /* an earlier name with this md5 stays */
    }
    return 0;
}

/* ---- NameRef -> record index ---- */

typedef struct refmap {
    uint64_t *keys;
    size_t *vals; /* index + 1; 0: empty */
    size_t cap, n;
} refmap;

static size_t slot(uint64_t k, size_t cap) { return (size_t)((k ^ (k >> 29)) * UINT64_C(0x9E3779B97F4A7C15) >> 7) & (cap - 1); }

static size_t *ref_find(refmap *m, uint64_t k) {
    if (!m->cap) return NULL;
    for (size_t i = slot(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i]) return NULL;
        if (m->keys[i] == k) return &m->vals[i];
    }
}

static int ref_put(refmap *m, uint64_t k, size_t v, pb_error *err) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        uint64_t *nk = calloc(nc, sizeof *nk);
        size_t *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return pbu_nomem(err, "record index");
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->vals[i]) {
                size_t j = slot(m->keys[i], nc);
                while (nv[j]) j = (j + 1) & (nc - 1);
                nk[j] = m->keys[i];
                nv[j] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = nc;
    }
    size_t j = slot(k, m->cap);
    while (m->vals[j]) j = (j + 1) & (m->cap - 1);
    m->keys[j] = k;
    m->vals[j] = v + 1;
    m->n++;
    return 0;
}

/* ---- the records ---- */

typedef struct rec {
    uint64_t name_ref, hash, fref;
    const char *name;
    size_t name_len;
    size_t data, len; /* mapping bytes in __llvm_covfun */
    const pbi_cov_tu *tu;
    uint64_t off;
    size_t idx; /* record number in the section */
} rec;

/* RawCoverageMappingDummyChecker: hash 0 and one zero region in one file. */
static int is_dummy(const pbi_cov_elf *o, const rec *x, pb_error *err, int *dummy) {
    *dummy = 0;
    if (x->hash) return 0;
    mr r = {o->name, o->covfun.d, x->data, x->data + x->len, x->idx, NULL, err, NULL, 0, 0, ""};
    uint64_t v;
    int rc;
    if ((rc = m_size(&r, "nfile_ids", &v)) || v != 1) return rc;
    if ((rc = m_max(&r, "file_ids[0]", UINT32_MAX, &v))) return rc;
    if ((rc = m_size(&r, "nexprs", &v)) || v != 0) return rc;
    if ((rc = m_size(&r, "files[0].nregions", &v)) || v != 1) return rc;
    if ((rc = m_max(&r, "regions[0].counter_and_kind", UINT32_MAX, &v))) return rc;
    *dummy = (v & TAG_MASK) == 0;
    return 0;
}

static int load_names(names *nm, const pbi_cov_elf *o, pb_error *err) {
    const char *sec = o->names_is_covnames ? PBI_SEC_COVNAMES : PBI_SEC_NAMES;
    int rc = pbi_names_decode(o->names.d, o->names.len, 0, sec, add_name, nm, err);
    if (rc) {
        pb_error_set_source(err, o->name);
        return rc;
    }
    return index_names(nm, err);
}

/* insertFunctionRecordIfNeeded */
static int insert(rec **recs, size_t *nrec, size_t *cap, refmap *map, const names *nm, const pbi_cov_elf *o,
                  const rec *x, pb_error *err) {
    size_t *old = ref_find(map, x->name_ref);
    if (!old) {
        const name_ent *e = find_name(nm, x->name_ref);
        if (!e || !e->len) {
            char f[64];
            snprintf(f, sizeof f, "NameRef 0x%016llx, not in the names", (unsigned long long)x->name_ref);
            return pbi_cov_bad_w(err, o->name, x->off, "malformed instrumentation profile data: function name is empty",
                                 "a function name", f,
                               PBI_SEC_COVFUN "[%zu].NameRef", x->idx);
        }
        if (pbu_grow_err((void **)recs, cap, *nrec + 1, sizeof **recs, err)) return PB_ENOMEM;
        (*recs)[*nrec] = *x;
        (*recs)[*nrec].name = (const char *)nm->text.data + e->off;
        (*recs)[*nrec].name_len = e->len;
        if (ref_put(map, x->name_ref, *nrec, err)) return PB_ENOMEM;
        (*nrec)++;
        return 0;
    }
    rec *p = &(*recs)[*old - 1];
    int d, rc;
    if ((rc = is_dummy(o, p, err, &d)) || !d) return rc;
    if ((rc = is_dummy(o, x, err, &d)) || d) return rc;
    p->hash = x->hash;
    p->data = x->data;
    p->len = x->len;
    p->tu = x->tu;
    p->fref = x->fref;
    p->off = x->off;
    p->idx = x->idx;
    return 0;
}

/* The state of one walk over __llvm_covfun. */
typedef struct walk {
    const pbi_cov_elf *o;
    const pbi_cov_tus *tus;
    const pbi_cov_trace *tr;
    int mcdc_ok, mcdc19, lazy; /* lazy 2: defer_checks */
    const char *obj;           /* the object's name, kept in the mapping when lazy is 2 */
    names nm;
    refmap map;
    rec *recs;
    size_t nrec, cap;
    scratch s;
    pbu_arena tmp; /* the dump's decoded mappings */
} walk;

static void trace_header(walk *w, const rec *x) {
    const uint8_t *d = w->o->covfun.d;
    char f[64];
    const name_ent *e = find_name(&w->nm, x->name_ref);
    snprintf(f, sizeof f, "[%zu].NameRef", x->idx);
    pbi_cov_tracef(w->tr, PBI_SEC_COVFUN, d, x->off, 8, f, "0x%016llx %.*s", (unsigned long long)x->name_ref,
                   e ? (int)(e->len > 300 ? 300 : e->len) : 0, e ? w->nm.text.data + e->off : "");
    snprintf(f, sizeof f, "[%zu].DataSize", x->idx);
    pbi_cov_tracef(w->tr, PBI_SEC_COVFUN, d, x->off + 8, 4, f, "%zu", x->len);
    snprintf(f, sizeof f, "[%zu].FuncHash", x->idx);
    pbi_cov_tracef(w->tr, PBI_SEC_COVFUN, d, x->off + 12, 8, f, "0x%016llx", (unsigned long long)x->hash);
    snprintf(f, sizeof f, "[%zu].FilenamesRef", x->idx);
    pbi_cov_tracef(w->tr, PBI_SEC_COVFUN, d, x->off + 20, 8, f, "0x%016llx", (unsigned long long)x->fref);
}

/* One record at pos (readFunctionRecords' loop body); *next: where the next one starts. */
static int one_record(walk *w, size_t pos, size_t idx, size_t *next, pb_error *err) {
    const pbi_cov_elf *o = w->o;
    const uint8_t *d = o->covfun.d;
    size_t len = o->covfun.len;
    char f[64];
    *next = len; /* a failure ends the walk */
    if (len - pos < FUNREC) {
        snprintf(f, sizeof f, "%zu bytes left", len - pos);
        return pbi_cov_bad(err, o->name, pos, "a 28-byte record header", f, PBI_SEC_COVFUN "[%zu]", idx);
    }
    rec x = {pbi_cov_u64(o, d + pos), pbi_cov_u64(o, d + pos + 12), pbi_cov_u64(o, d + pos + 20), NULL, 0,
             pos + FUNREC, pbi_cov_u32(o, d + pos + 8), NULL, pos, idx};
    if (w->tr) trace_header(w, &x);
    uint64_t end = (uint64_t)pos + FUNREC + x.len, aligned = (end + 7) & ~(uint64_t)7;
    *next = aligned > len ? len : (size_t)aligned;
    if (!(x.tu = pbi_cov_tus_find(w->tus, x.fref))) {
        char words[96];
        snprintf(f, sizeof f, "0x%016llx", (unsigned long long)x.fref);
        snprintf(words, sizeof words, "malformed coverage data: no filename found for function with hash=0x%llx",
                 (unsigned long long)x.fref);
        return pbi_cov_bad_w(err, o->name, pos + 20, words, "the FilenamesRef of a __llvm_covmap TU", f,
                             PBI_SEC_COVFUN "[%zu].FilenamesRef", idx);
    }
    if (x.tu->invalid) return 0; /* a FilenamesRef collision: LLVM skips the record */
    if (end > len) {
        snprintf(f, sizeof f, "%zu, %zu left", x.len, len - pos - FUNREC);
        return pbi_cov_bad_w(err, o->name, pos + 8,
                             "malformed coverage data: coverage mapping data is larger than buffer size",
                             "DataSize inside the section", f, PBI_SEC_COVFUN "[%zu].DataSize", idx);
    }
    int rc = insert(&w->recs, &w->nrec, &w->cap, &w->map, &w->nm, o, &x, err);
    if (!rc && w->tr) { /* the dump explains every record's mapping, kept or not */
        pbi_cov_function fn;
        memset(&fn, 0, sizeof fn);
        rc = decode(&fn, d, x.len, x.data, idx, w->tus->files + x.tu->first, x.tu->count, w->mcdc_ok, w->mcdc19,
                    &w->tmp, o->name, w->tr, &w->s, 0, err);
        if (!rc && aligned > end && aligned <= len) {
            snprintf(f, sizeof f, "[%zu].padding", idx);
            pbi_cov_tracef(w->tr, PBI_SEC_COVFUN, d, (size_t)end, aligned - end, f, "to 8 bytes");
        }
    }
    return rc;
}

/* The kept records' mappings, into m (BinaryCoverageReader::readNextRecord). */
static int decode_kept(walk *w, pbi_cov_mapping *m, size_t *fcap, size_t obj, pb_error *err) {
    if (pbu_grow_err((void **)&m->functions, fcap, m->nfunctions + w->nrec + 1, sizeof *m->functions, err))
        return PB_ENOMEM;
    for (size_t i = 0; i < w->nrec; i++) {
        const rec *x = &w->recs[i];
        pbi_cov_function *fn = &m->functions[m->nfunctions];
        memset(fn, 0, sizeof *fn);
        char *name = pbu_arena_dup(&m->arena, x->name, x->name_len + 1, 1);
        if (!name) return pbu_nomem(err, "names");
        name[x->name_len] = 0;
        fn->name_ref = x->name_ref;
        fn->name = name;
        fn->name_len = x->name_len;
        fn->hash = x->hash;
        fn->filenames_ref = x->fref;
        fn->object = obj;
        fn->offset = x->off;
        int rc = decode(fn, w->o->covfun.d, x->len, x->data, x->idx, w->tus->files + x->tu->first, x->tu->count,
                        w->mcdc_ok, w->mcdc19, &m->arena, w->obj, NULL, &w->s, w->lazy, err);
        if (rc) return rc;
        m->nfunctions++;
    }
    return 0;
}

int pbi_cov_read_covfun(pbi_cov_mapping *m, size_t *fcap, size_t obj, const pbi_cov_elf *o, const pbi_cov_tus *tus,
                        const pbi_cov_read_options *opt, const pbi_cov_trace *tr, pb_error *err) {
    pbi_llvm_target store;
    const pbi_llvm_target *t = pbi_cov_target(opt, &store);
    walk w;
    memset(&w, 0, sizeof w);
    w.o = o;
    w.tus = tus;
    w.tr = tr;
    /* MC/DC regions are version 7's, whichever release reads them (13-17
     * cannot: profbridge reads them with 18's lenient id rule) */
    w.mcdc_ok = pbi_llvm_cov_has(t, PBI_LC_READS_COVMAP_V7) || tus->max_version >= PBI_COV_V7;
    w.mcdc19 = pbi_llvm_cov_has(t, PBI_LC_MCDC_IDS_INT16);
    w.lazy = opt && opt->lazy && !tr ? 1 + (opt->defer_checks != 0) : 0;
    w.obj = o->name;
    int rc = load_names(&w.nm, o, err);
    if (!rc && w.lazy == 2 && !(w.obj = pbu_arena_dup(&m->arena, o->name, strlen(o->name) + 1, 1)))
        rc = pbu_nomem(err, "names");
    for (size_t idx = 0, pos = 0, next; !rc && pos < o->covfun.len; idx++, pos = next)
        rc = one_record(&w, pos, idx, &next, err);
    if (!rc) rc = decode_kept(&w, m, fcap, obj, err);
    free(w.s.v);
    free(w.s.ex);
    free(w.recs);
    free(w.map.keys);
    free(w.map.vals);
    free(w.nm.v);
    free(w.nm.slots);
    pbu_buf_free(&w.nm.text);
    pbu_arena_free(&w.tmp);
    return rc;
}
