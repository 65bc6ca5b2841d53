/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read.h -- the pieces of the coverage-mapping reader (internal to
 * cov_read_*.c and cov_dump.c):
 *   cov_read_elf.c  an ELF object's three sections, its byte order, machine
 *                   and __llvm_profile_raw_version (libelf);
 *   cov_read_map.c  __llvm_covmap: per TU a header and its filenames;
 *   cov_read_fun.c  __llvm_covfun: the records, their duplicates, and the
 *                   mapping bytes of each (RawCoverageMappingReader);
 *   cov_read_api.c  the entry points of cov_mapping.h;
 *   cov_read_util.c errors, tracing, the release's target.
 * Every decoder can report each field it reads to a tracer: that is how
 * pb_coverage_dump explains the bytes with the very code that reads them.
 *
 * Error offsets are byte offsets inside the section the error's path starts
 * with ("__llvm_covfun[3].regions[2].num_lines": byte N of __llvm_covfun,
 * where several __llvm_covfun sections of a relocatable object count as
 * their concatenation, each padded to 8 bytes, as llvm-cov reads them).
 */
#ifndef PB_COVERAGE_COV_READ_H
#define PB_COVERAGE_COV_READ_H

#include <stddef.h>
#include <stdint.h>

#include "coverage/cov_mapping.h"
#include "profbridge/error.h"
#include "util/arena.h"

#define PBI_SEC_COVMAP "__llvm_covmap"
#define PBI_SEC_COVFUN "__llvm_covfun"
#define PBI_SEC_NAMES "__llvm_prf_names"
#define PBI_SEC_COVNAMES "__llvm_covnames" /* binary correlation's names: llvm-cov's fallback */
#define PBI_RAW_VERSION_SYM "__llvm_profile_raw_version"

/* Default bound on a decompressed section or filenames blob (bytes). */
#define PBI_COV_MAX_INFLATION ((uint64_t)1 << 30)

/* Receives every field a decoder reads: `len` bytes at `off` of section
 * `sec`, a field path and its value in words. */
typedef struct pbi_cov_trace {
    void (*fn)(void *ctx, const char *sec, const uint8_t *d, uint64_t off, uint64_t len, const char *field,
               const char *value);
    void *ctx;
} pbi_cov_trace;

/* Sends one field to tr (nothing when tr is NULL); the value is printf'ed. */
void pbi_cov_tracef(const pbi_cov_trace *tr, const char *sec, const uint8_t *d, uint64_t off, uint64_t len,
                    const char *field, const char *fmt, ...) PB_PRINTF(7, 8);

/* A malformed byte: PB_EFORMAT at byte `off` of the section that `path`
 * (printf'ed) starts with, with what was expected and found; err->source is
 * the object's name; err->message llvm-cov-19's words for it (`words`, NULL:
 * "malformed coverage data"), turned into the release's by
 * pbi_cov_release_words. Returns PB_EFORMAT. */
int pbi_cov_bad_w(pb_error *err, const char *obj, uint64_t off, const char *words, const char *expected,
                  const char *found, const char *pathfmt, ...) PB_PRINTF(7, 8);
#define pbi_cov_bad(err, obj, off, ...) pbi_cov_bad_w((err), (obj), (off), NULL, __VA_ARGS__)

/* Rewrites err->message (llvm-cov 18+'s words, as the reader sets them)
 * into the words of t's release: 13-17 capitalize the coverage errors and
 * drop their detail, 13 drops the detail of "malformed instrumentation
 * profile data". */
void pbi_cov_release_words(pb_error *err, const pbi_llvm_target *t);

/* One section's bytes (pointing into the object's buffer, or decompressed). */
typedef struct pbi_cov_bytes {
    const uint8_t *d;
    size_t len;
    int present;
    uint64_t file_off; /* where the (first) section starts in the file */
    int compressed;    /* SHF_COMPRESSED: d is the inflated copy */
} pbi_cov_bytes;

/* An ELF object opened for coverage. */
typedef struct pbi_cov_elf {
    const char *name;
    int big_endian, is64;
    unsigned machine, type;    /* e_machine, e_type */
    pbi_cov_bytes covmap, covfun, names;
    size_t ncovfun;            /* __llvm_covfun sections concatenated */
    size_t ncovmap, nnames;    /* how many sections of those names */
    int names_is_covnames;     /* names came from __llvm_covnames */
    uint64_t raw_version_full; /* __llvm_profile_raw_version with its variant bits */
    uint32_t raw_version;      /* its low 32 bits (the version), 0 when absent */
    uint8_t *image;            /* the file: an owned copy, or the caller's (image_borrowed) */
    int image_borrowed;
    uint8_t *owned[4];         /* owned buffers (covfun concatenation, inflated sections) */
} pbi_cov_elf;

/* Opens data[0..len) as an ELF object (copies it) and finds the sections.
 * Missing sections are not an error here (present = 0): the caller decides.
 * Returns 0, PB_EFORMAT (not an ELF object, a section past the file, a
 * compressed section that does not inflate or inflates past the bound,
 * -arch that does not match: llvm-cov's words), PB_ENOMEM. */
int pbi_cov_elf_open(pbi_cov_elf *o, const uint8_t *data, size_t len, const char *name,
                     const pbi_cov_read_options *opt, pb_error *err);
/* The same without the copy: image must be writable memory that outlives
 * o and that libelf may write into, such as a MAP_PRIVATE mapping of the
 * file (only the pages of the sections read are then touched; the copy was
 * a 65 MB heap block for a 65 MB binary). Same returns. */
int pbi_cov_elf_open_in_place(pbi_cov_elf *o, uint8_t *image, size_t len, const char *name,
                              const pbi_cov_read_options *opt, pb_error *err);
void pbi_cov_elf_close(pbi_cov_elf *o);
/* The __llvm_covfun concatenation handed over to the caller (free it), for
 * the functions read with defer_checks; NULL when there is none. */
uint8_t *pbi_cov_elf_take_covfun(pbi_cov_elf *o);

/* Reads a u32 / u64 in the object's byte order. */
uint32_t pbi_cov_u32(const pbi_cov_elf *o, const uint8_t *p);
uint64_t pbi_cov_u64(const pbi_cov_elf *o, const uint8_t *p);

/* A translation unit of __llvm_covmap. */
typedef struct pbi_cov_tu {
    uint64_t ref;      /* FilenamesRef: MD5 of its encoded filenames */
    size_t first;      /* its filenames: files[first .. first+count) */
    size_t count;
    uint32_t version;  /* stored version of its header */
    uint64_t off;      /* its header's offset in __llvm_covmap */
    int invalid;       /* another TU had the same ref and other filenames */
    int shadowed;      /* a TU before it has its ref: lookups never find it */
} pbi_cov_tu;

typedef struct pbi_cov_tus {
    const char **files; /* arena strings (resolved filenames) */
    size_t nfiles, capfiles;
    pbi_cov_tu *tus;
    size_t ntus, captus;
    uint32_t version;     /* the first header's stored version: how llvm-cov reads all */
    uint32_t max_version; /* highest stored version of any header */
    size_t *by_ref;       /* indices of unshadowed TUs sorted by ref */
    size_t nby_ref;
} pbi_cov_tus;

/* Reads every header of __llvm_covmap. `t` release rules (NULL: default).
 * Returns 0, PB_EFORMAT, PB_ENOMEM. Free with pbi_cov_tus_free (also after
 * failure). */
int pbi_cov_read_covmap(pbi_cov_tus *tus, const pbi_cov_elf *o, const pbi_cov_read_options *opt, pbu_arena *a,
                        const pbi_cov_trace *tr, pb_error *err);
void pbi_cov_tus_free(pbi_cov_tus *tus);
/* The TU llvm-cov finds for FilenamesRef `ref`, or NULL. */
const pbi_cov_tu *pbi_cov_tus_find(const pbi_cov_tus *tus, uint64_t ref);

/* Appends the functions of __llvm_covfun to m (object index `obj`),
 * resolving duplicates as CoverageMappingReader does, then decodes each kept
 * record's mapping; *fcap is the capacity of m->functions. With a tracer,
 * every record's mapping is decoded (and explained) in section order. Returns 0, PB_EFORMAT, PB_ENOMEM. */
int pbi_cov_read_covfun(pbi_cov_mapping *m, size_t *fcap, size_t obj, const pbi_cov_elf *o, const pbi_cov_tus *tus,
                        const pbi_cov_read_options *opt, const pbi_cov_trace *tr, pb_error *err);

/* Decodes one record's mapping bytes d[0..len) (found at byte base of
 * __llvm_covfun; `rec` its index, for paths) into f (filenames from the TU:
 * files[0..nfiles)). mcdc19: LLVM 19+'s MC/DC rules. Arrays go to `a`.
 * Returns 0, PB_EFORMAT, PB_ENOMEM. */
int pbi_cov_decode_mapping(pbi_cov_function *f, const uint8_t *d, size_t len, uint64_t base, size_t rec,
                           const char *const *files, size_t nfiles, int mcdc19, pbu_arena *a,
                           const pbi_cov_trace *tr, pb_error *err);

/* The release's target for o (the default release when o or o->t is NULL). */
const pbi_llvm_target *pbi_cov_target(const pbi_cov_read_options *o, pbi_llvm_target *store);

/* Joins `name` to `dir` as llvm::sys::path::append then (remove_dots
 * nonzero) remove_dots(.., true) do (POSIX style) into the arena; returns
 * NULL when out of memory. llvm-cov 13-14 only append (PBI_LC_READ_REMOVE_DOTS). */
const char *pbi_cov_join_path(pbu_arena *a, const char *dir, size_t dirlen, const char *name, size_t namelen,
                              int remove_dots);

#endif
