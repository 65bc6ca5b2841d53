/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_map.c -- __llvm_covmap (cov_read.h): one 16-byte header per
 * translation unit (NRecords, FilenamesSize, CoverageSize, Version), its
 * encoded filenames, then padding to 8 bytes; as LLVM's
 * VersionedCovMapFuncRecordReader::readCoverageHeader and
 * RawCoverageFilenamesReader read them (release 19, checked against the
 * older releases' readers: the rules have not changed since version 4).
 *
 * A TU is known by the MD5 of its encoded filenames blob (FilenamesRef);
 * the first TU with a ref wins the lookups, and a later TU with the same ref
 * and other filenames makes it invalid (a hash collision: its functions are
 * then skipped), as FileRangeMap does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "coverage/cov_read.h"
#include "llvm/leb128.h"
#include "profbridge/profile.h"
#include "util/grow.h"

#define HDR 16     /* sizeof(CovMapHeader) */
#define FUNREC 28  /* sizeof(CovMapFunctionRecordV3): NRecords skips this many bytes each */

/* ---- paths: llvm::sys::path::append + remove_dots(remove_dot_dot) (POSIX) ---- */

/* Length of the root ("/", "//net/", "//net") of p[0..n) (sys::path::root_path). */
static size_t root_len(const char *p, size_t n) {
    if (n > 2 && p[0] == '/' && p[1] == '/' && p[2] != '/') { /* a network root name */
        size_t i = 2;
        while (i < n && p[i] != '/') i++;
        return i < n ? i + 1 : i;
    }
    return n && p[0] == '/' ? 1 : 0;
}

/* sys::path::is_absolute (POSIX): it has a root directory. */
static int is_absolute(const char *p, size_t n) {
    if (n > 2 && p[0] == '/' && p[1] == '/' && p[2] != '/') {
        size_t i = 2;
        while (i < n && p[i] != '/') i++;
        return i < n;
    }
    return n && p[0] == '/';
}

static int has_root_name(const char *p, size_t n) { return n > 2 && p[0] == '/' && p[1] == '/' && p[2] != '/'; }

const char *pbi_cov_join_path(pbu_arena *a, const char *dir, size_t dirlen, const char *name, size_t namelen,
                              int remove_dots) {
    /* append: at most dir + '/' + name */
    char *j = malloc(dirlen + namelen + 2);
    if (!j) return NULL;
    size_t n = 0;
    memcpy(j, dir, dirlen);
    n = dirlen;
    if (n && j[n - 1] == '/') {
        size_t k = 0;
        while (k < namelen && name[k] == '/') k++;
        memcpy(j + n, name + k, namelen - k);
        n += namelen - k;
    } else {
        int comp_sep = namelen && name[0] == '/';
        if (!comp_sep && !(n == 0 || has_root_name(name, namelen))) j[n++] = '/';
        memcpy(j + n, name, namelen);
        n += namelen;
    }
    if (!remove_dots) { /* llvm-cov 13-14: "/x/build/../src/p.c" as appended */
        char *kept = pbu_arena_alloc(a, n + 1, 1);
        if (kept) {
            memcpy(kept, j, n);
            kept[n] = 0;
        }
        free(j);
        return kept;
    }
    /* remove_dots: the root stays, then the components without "", "." and
     * with ".." eating the one before it (kept at the start of a relative path) */
    char *out = pbu_arena_alloc(a, n + 1, 1);
    if (!out) {
        free(j);
        return NULL;
    }
    size_t r = root_len(j, n), o = r;
    memcpy(out, j, r);
    size_t *starts = malloc((n / 2 + 2) * sizeof *starts), ncomp = 0; /* start of each kept component in out */
    if (!starts) {
        free(j);
        return NULL;
    }
    for (size_t i = r; i < n;) {
        size_t e = i;
        while (e < n && j[e] != '/') e++;
        size_t cl = e - i;
        if (cl == 0 || (cl == 1 && j[i] == '.')) {
            /* dropped */
        } else if (cl == 2 && j[i] == '.' && j[i + 1] == '.') {
            int back_is_dotdot = ncomp && o - starts[ncomp - 1] == 2 && out[starts[ncomp - 1]] == '.' &&
                                 out[starts[ncomp - 1] + 1] == '.';
            if (ncomp && !back_is_dotdot) {
                o = starts[--ncomp];
                if (ncomp) o--; /* the separator before it */
            } else if (r == 0) {
                if (ncomp) out[o++] = '/';
                starts[ncomp++] = o;
                out[o++] = '.';
                out[o++] = '.';
            }
        } else {
            if (ncomp) out[o++] = '/';
            starts[ncomp++] = o;
            memcpy(out + o, j + i, cl);
            o += cl;
        }
        i = e < n ? e + 1 : e;
    }
    out[o] = 0;
    free(starts);
    free(j);
    return out;
}

/* ---- the filenames blob ---- */

typedef struct rd {
    const pbi_cov_elf *o;
    const uint8_t *d; /* the section (for trace hex) */
    size_t pos, end;  /* in d */
    size_t tu;        /* TU index, for paths */
    const pbi_cov_trace *tr;
    pb_error *err;
} rd;

static int uleb(rd *r, const char *field, uint64_t *v) {
    size_t at = r->pos;
    int u = pbi_uleb_decode(r->d, r->end, &r->pos, v);
    if (u == PBI_ULEB_TRUNCATED)
        return pbi_cov_bad_w(r->err, r->o->name, at,
                             at == r->end ? "truncated coverage data"
                                          : "malformed coverage data: the size of ULEB128 is too big",
                             "a ULEB128 inside the filenames", "the filenames end first",
                           PBI_SEC_COVMAP "[%zu].%s", r->tu, field);
    if (u == PBI_ULEB_OVERFLOW)
        return pbi_cov_bad_w(r->err, r->o->name, r->pos, "malformed coverage data: the size of ULEB128 is too big",
                             "a ULEB128 of at most 64 bits", "a longer one",
                           PBI_SEC_COVMAP "[%zu].%s", r->tu, field);
    pbi_cov_tracef(r->tr, PBI_SEC_COVMAP, r->d, at, r->pos - at, field, "%llu", (unsigned long long)*v);
    return 0;
}

/* readSize: a count or length no bigger than the bytes left. */
static int size(rd *r, const char *field, uint64_t *v) {
    size_t at = r->pos;
    int rc = uleb(r, field, v);
    if (rc) return rc;
    if (*v > r->end - r->pos) {
        char e[64], f[64];
        snprintf(e, sizeof e, "<= %zu (the bytes left)", r->end - r->pos);
        snprintf(f, sizeof f, "%llu", (unsigned long long)*v);
        return pbi_cov_bad_w(r->err, r->o->name, at, "malformed coverage data: the value of ULEB128 is too big", e, f,
                             PBI_SEC_COVMAP "[%zu].%s", r->tu, field);
    }
    return 0;
}

static int add_file(pbi_cov_tus *t, const char *s, pb_error *err) {
    if (pbu_grow_err((void **)&t->files, &t->capfiles, t->nfiles + 1, sizeof *t->files, err)) return PB_ENOMEM;
    t->files[t->nfiles++] = s;
    return 0;
}

/* RawCoverageFilenamesReader::readUncompressed over b[0..n) (`inflated`:
 * offsets are into the inflated text, traced at the stream's offset). */
static int read_names(pbi_cov_tus *t, rd *r, uint64_t count, uint32_t version, const char *cdir, int dots,
                      pbu_arena *a) {
    char field[48];
    const char *cwd = NULL;
    size_t cwdlen = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t len;
        snprintf(field, sizeof field, "filenames[%llu].length", (unsigned long long)i);
        int rc = size(r, field, &len);
        if (rc) return rc;
        const char *s = (const char *)r->d + r->pos;
        snprintf(field, sizeof field, "filenames[%llu]", (unsigned long long)i);
        pbi_cov_tracef(r->tr, PBI_SEC_COVMAP, r->d, r->pos, len, field, "%.*s%s", (int)(len > 300 ? 300 : len), s,
                       version >= PBI_COV_V6 && i == 0 ? "  (compilation directory)" : "");
        r->pos += (size_t)len;
        const char *f;
        if (version < PBI_COV_V6 || i == 0 || is_absolute(s, (size_t)len)) {
            char *c = pbu_arena_alloc(a, (size_t)len + 1, 1);
            if (!c) return pbu_nomem(r->err, "filenames");
            memcpy(c, s, (size_t)len);
            c[len] = 0;
            f = c;
            if (i == 0) {
                cwd = c;
                cwdlen = (size_t)len;
            }
        } else {
            f = cdir && *cdir ? pbi_cov_join_path(a, cdir, strlen(cdir), s, (size_t)len, dots)
                              : pbi_cov_join_path(a, cwd, cwdlen, s, (size_t)len, dots);
            if (!f) return pbu_nomem(r->err, "filenames");
        }
        if (add_file(t, f, r->err)) return PB_ENOMEM;
    }
    return 0;
}

/* RawCoverageFilenamesReader::read (v4+) of region d[pos..pos+n). */
static int read_filenames(pbi_cov_tus *t, rd *r, uint32_t version, const pbi_cov_read_options *opt, pbu_arena *a) {
    uint64_t count, ulen, clen;
    int rc;
    size_t at = r->pos;
    if ((rc = size(r, "filenames.count", &count))) return rc;
    if (count == 0)
        return pbi_cov_bad_w(r->err, r->o->name, at, "malformed coverage data: number of filenames is zero",
                             "at least one filename", "0",
                           PBI_SEC_COVMAP "[%zu].filenames.count", r->tu);
    if ((rc = uleb(r, "filenames.uncompressed_length", &ulen))) return rc;
    at = r->pos;
    if ((rc = size(r, "filenames.compressed_length", &clen))) return rc;
    const char *cdir = opt ? opt->compilation_dir : NULL;
    pbi_llvm_target tstore;
    int dots = pbi_llvm_cov_has(pbi_cov_target(opt, &tstore), PBI_LC_READ_REMOVE_DOTS);
    if (clen == 0) return read_names(t, r, count, version, cdir, dots, a);
    /* zlib: LLVM sizes the output by the stored length and accepts a shorter
     * stream; no stream inflates past 1032:1, so that caps the buffer too */
    uint64_t bound = opt && opt->max_inflation ? opt->max_inflation : PBI_COV_MAX_INFLATION;
    uint64_t cap = clen * 1032u + 1024u, want = ulen < cap ? ulen : cap;
    if (want > bound) {
        char e[64], f[64];
        snprintf(e, sizeof e, "<= %llu bytes once inflated", (unsigned long long)bound);
        snprintf(f, sizeof f, "%llu", (unsigned long long)ulen);
        return pbi_cov_bad(r->err, r->o->name, at, e, f, PBI_SEC_COVMAP "[%zu].filenames.uncompressed_length",
                           r->tu);
    }
    uint8_t *buf = malloc(want ? (size_t)want : 1);
    if (!buf) return pbu_nomem(r->err, "filenames");
    uLongf got = (uLongf)want;
    size_t zat = r->pos;
    int z = uncompress(buf, &got, r->d + r->pos, (uLong)clen);
    if (z == Z_MEM_ERROR) {
        free(buf);
        return pbu_nomem(r->err, "coverage filenames");
    }
    pbi_cov_tracef(r->tr, PBI_SEC_COVMAP, r->d, zat, clen, "filenames.zlib", "%llu bytes inflate to %llu",
                   (unsigned long long)clen, (unsigned long long)got);
    if (z != Z_OK) {
        free(buf);
        return pbi_cov_bad_w(r->err, r->o->name, zat, "failed to decompress coverage data (zlib)",
                             "a zlib stream of the uncompressed length", zError(z),
                           PBI_SEC_COVMAP "[%zu].filenames.zlib", r->tu);
    }
    r->pos += (size_t)clen;
    rd in = *r;
    in.d = buf;
    in.pos = 0;
    in.end = (size_t)got;
    in.tr = NULL; /* inflated bytes are no section bytes */
    rc = read_names(t, &in, count, version, cdir, dots, a);
    if (rc) {
        /* the offset is into the inflated text: say so, at the stream */
        if (r->err && r->err->offset != PB_NO_OFFSET) {
            char m[96];
            snprintf(m, sizeof m, " (byte %llu of the inflated filenames)", (unsigned long long)r->err->offset);
            size_t l = strlen(r->err->path);
            snprintf(r->err->path + l, sizeof r->err->path - l, "%s", m);
            r->err->offset = zat;
        }
    }
    if (!rc && r->tr) {
        for (size_t i = t->nfiles - (size_t)count; i < t->nfiles; i++) {
            char f[48];
            snprintf(f, sizeof f, "filenames[%zu]", i - (t->nfiles - (size_t)count));
            pbi_cov_tracef(r->tr, PBI_SEC_COVMAP, r->d, zat + clen, 0, f, "%s (inflated)", t->files[i]);
        }
    }
    free(buf);
    return rc;
}

/* ---- the headers ---- */

static int version_ok(const pbi_cov_elf *o, uint32_t v, const pbi_llvm_target *t, uint64_t off, pb_error *err) {
    char f[48];
    snprintf(f, sizeof f, "%u (coverage mapping version %u)", (unsigned)v, (unsigned)v + 1);
    /* Every version is read whatever the release: llvm-cov 13-17 refuse
     * version 7 (clang 18+), profbridge reads it and the CLI says so
     * (pb_coverage_object_version). */
    (void)t;
    if (v > PBI_COV_VERSION_MAX)
        return pbi_cov_bad_w(err, o->name, off, "unsupported coverage format version", "a version 4..7 (stored 3..6)",
                             f, PBI_SEC_COVMAP "[0].Version");
    if (v < PBI_COV_VERSION_MIN)
        return pbi_cov_bad(err, o->name, off, "a version 4..7 mapping (clang 11+; older ones are not supported)", f,
                           PBI_SEC_COVMAP "[0].Version");
    return 0;
}

static int cmp_ref(const void *a, const void *b, void *ctx) {
    const pbi_cov_tu *t = ctx;
    uint64_t x = t[*(const size_t *)a].ref, y = t[*(const size_t *)b].ref;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return x < y ? -1 : x > y ? 1 : i < j ? -1 : i > j;
}

/* FileRangeMap: the first TU of each ref is found; a later one with other
 * filenames invalidates it (for good: its range is then empty). */
static int index_refs(pbi_cov_tus *t, pb_error *err) {
    if (!t->ntus) return 0;
    t->by_ref = malloc(t->ntus * sizeof *t->by_ref);
    if (!t->by_ref) return pbu_nomem(err, "filenames index");
    for (size_t i = 0; i < t->ntus; i++) t->by_ref[i] = i;
    /* insertion sort would be quadratic; a merge sort by (ref, index) */
    size_t *tmp = malloc(t->ntus * sizeof *tmp);
    if (!tmp) return pbu_nomem(err, "filenames index");
    for (size_t w = 1; w < t->ntus; w *= 2) {
        for (size_t lo = 0; lo < t->ntus; lo += 2 * w) {
            size_t mid = lo + w < t->ntus ? lo + w : t->ntus, hi = lo + 2 * w < t->ntus ? lo + 2 * w : t->ntus;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = cmp_ref(&t->by_ref[j], &t->by_ref[i], t->tus) < 0 ? t->by_ref[j++] : t->by_ref[i++];
            while (i < mid) tmp[k++] = t->by_ref[i++];
            while (j < hi) tmp[k++] = t->by_ref[j++];
        }
        memcpy(t->by_ref, tmp, t->ntus * sizeof *tmp);
    }
    free(tmp);
    size_t n = 0;
    for (size_t k = 0; k < t->ntus;) {
        size_t first = t->by_ref[k], e = k + 1;
        pbi_cov_tu *f = &t->tus[first];
        for (; e < t->ntus && t->tus[t->by_ref[e]].ref == f->ref; e++) {
            pbi_cov_tu *d = &t->tus[t->by_ref[e]];
            d->shadowed = 1;
            int same = !f->invalid && d->count == f->count;
            for (size_t i = 0; same && i < f->count; i++)
                same = strcmp(t->files[f->first + i], t->files[d->first + i]) == 0;
            if (!same) f->invalid = 1;
        }
        t->by_ref[n++] = first;
        k = e;
    }
    t->nby_ref = n;
    return 0;
}

const pbi_cov_tu *pbi_cov_tus_find(const pbi_cov_tus *t, uint64_t ref) {
    size_t lo = 0, hi = t->nby_ref;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t r = t->tus[t->by_ref[mid]].ref;
        if (r == ref) return &t->tus[t->by_ref[mid]];
        if (r < ref) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static void trace_header(const pbi_cov_trace *tr, const uint8_t *d, size_t pos, size_t tu, const uint32_t v[4]) {
    static const char *names[] = {"NRecords", "FilenamesSize", "CoverageSize", "Version"};
    for (int i = 0; i < 4; i++) {
        char f[64];
        snprintf(f, sizeof f, "[%zu].%s", tu, names[i]);
        if (i == 3)
            pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, pos + 12, 4, f, "%u (coverage mapping version %u)", (unsigned)v[3],
                           (unsigned)v[3] + 1);
        else
            pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, pos + 4 * (size_t)i, 4, f, "%u", (unsigned)v[i]);
    }
}

/* One TU at *pos (readCoverageHeader): header, filenames, FilenamesRef,
 * padding to 8; *pos moves past it. */
static int read_tu(pbi_cov_tus *t, const pbi_cov_elf *o, const pbi_cov_read_options *opt, pbu_arena *a,
                   const pbi_cov_trace *tr, size_t tu, size_t *pos, pb_error *err) {
    const uint8_t *d = o->covmap.d;
    size_t len = o->covmap.len, hdr = *pos;
    char f[64];
    if (len - hdr < HDR) {
        snprintf(f, sizeof f, "%zu bytes left", len - hdr);
        return pbi_cov_bad_w(err, o->name, hdr,
                             "malformed coverage data: coverage mapping header section is larger than buffer size",
                             "a 16-byte header", f, PBI_SEC_COVMAP "[%zu]", tu);
    }
    uint32_t v[4];
    for (int i = 0; i < 4; i++) v[i] = pbi_cov_u32(o, d + hdr + 4 * (size_t)i);
    trace_header(tr, d, hdr, tu, v);
    uint64_t at = hdr + HDR + (uint64_t)v[0] * FUNREC; /* v4+: NRecords is 0; LLVM skips them all the same */
    if (at > len || v[1] > len - at) {
        snprintf(f, sizeof f, "%u bytes, %llu left", (unsigned)v[1], (unsigned long long)(at > len ? 0 : len - at));
        return pbi_cov_bad_w(err, o->name, hdr + 4,
                             "malformed coverage data: filenames section is larger than buffer size",
                             "filenames inside the section", f, PBI_SEC_COVMAP "[%zu].FilenamesSize", tu);
    }
    if (v[3] > t->max_version) t->max_version = v[3];
    if (pbu_grow_err((void **)&t->tus, &t->captus, t->ntus + 1, sizeof *t->tus, err)) return PB_ENOMEM;
    pbi_cov_tu *u = &t->tus[t->ntus];
    memset(u, 0, sizeof *u);
    u->first = t->nfiles;
    u->version = v[3];
    u->off = hdr;
    rd r = {o, d, (size_t)at, (size_t)(at + v[1]), tu, tr, err};
    int rc = read_filenames(t, &r, t->version, opt, a); /* LLVM reads every TU with the first header's version */
    if (rc) return rc;
    u->count = t->nfiles - u->first;
    u->ref = pb_md5_ref(d + at, v[1]);
    t->ntus++;
    snprintf(f, sizeof f, "[%zu].FilenamesRef", tu);
    pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, at, 0, f, "0x%016llx (MD5 of the %u filenames bytes)",
                   (unsigned long long)u->ref, (unsigned)v[1]);
    if (r.pos < r.end) {
        snprintf(f, sizeof f, "[%zu].filenames.unused", tu);
        pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, r.pos, r.end - r.pos, f, "%zu bytes llvm-cov does not read",
                       r.end - r.pos);
    }
    if (v[2] != 0)
        return pbi_cov_bad_w(err, o->name, hdr + 8, "malformed coverage data: coverage mapping size is not zero", "0",
                             "not 0",
                           PBI_SEC_COVMAP "[%zu].CoverageSize", tu);
    /* LLVM aligns the pointer into the mapped file: the padding follows the
     * file offset (the same as the section's for any linker's output) */
    uint64_t base = o->covmap.compressed ? 0 : o->covmap.file_off;
    size_t end = (size_t)(at + v[1]), next = end + (size_t)((8 - (base + end) % 8) % 8);
    if (next > len) next = len;
    if (next > end) {
        snprintf(f, sizeof f, "[%zu].padding", tu);
        pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, end, next - end, f, "to 8 bytes");
    }
    *pos = next;
    return 0;
}

int pbi_cov_read_covmap(pbi_cov_tus *t, const pbi_cov_elf *o, const pbi_cov_read_options *opt, pbu_arena *a,
                        const pbi_cov_trace *tr, pb_error *err) {
    memset(t, 0, sizeof *t);
    pbi_llvm_target store;
    const pbi_llvm_target *target = pbi_cov_target(opt, &store);
    const uint8_t *d = o->covmap.d;
    size_t len = o->covmap.len;
    if (len < HDR) {
        char f[48];
        snprintf(f, sizeof f, "%zu bytes", len);
        return pbi_cov_bad(err, o->name, 0, "a coverage mapping header (16 bytes)", f, PBI_SEC_COVMAP "[0]");
    }
    t->version = pbi_cov_u32(o, d + 12); /* the first header's version decides, as in LLVM */
    int rc = version_ok(o, t->version, target, 12, err);
    if (rc) {
        pbi_cov_tracef(tr, PBI_SEC_COVMAP, d, 12, 4, "[0].Version", "%u (coverage mapping version %u)",
                       (unsigned)t->version, (unsigned)t->version + 1);
        return rc;
    }
    for (size_t tu = 0, pos = 0; pos < len; tu++)
        if ((rc = read_tu(t, o, opt, a, tr, tu, &pos, err))) return rc;
    return index_refs(t, err);
}

void pbi_cov_tus_free(pbi_cov_tus *t) {
    free(t->files);
    free(t->tus);
    free(t->by_ref);
    memset(t, 0, sizeof *t);
}
