/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_mapping.h -- what an object's coverage sections hold, decoded
 * (internal): LLVM's CoverageMappingRecord for every function of every
 * object, with the filenames resolved. The reader (cov_read_*.c) fills it;
 * the evaluator (cov_eval.h) turns it and a profile into counted regions.
 *
 * THE table of coverage-mapping versions and of region kinds is here, as
 * formats/raw/raw_layout.h is for raw headers: nothing else spells a version
 * number or a region kind's code.
 *
 * Sections (ELF): __llvm_covmap (one header + filenames per translation
 * unit), __llvm_covfun (v4+: one record per function, 8-aligned), and
 * __llvm_prf_names (the names NameRef points at), read with libelf.
 */
#ifndef PB_COVERAGE_COV_MAPPING_H
#define PB_COVERAGE_COV_MAPPING_H

#include <stddef.h>
#include <stdint.h>

#include "llvm/target.h"
#include "profbridge/error.h"
#include "util/arena.h"

/* Coverage-mapping format versions as stored in the covmap header
 * (CovMapVersion: stored value = version - 1). Which clang writes each, and
 * what changed (LLVM's CoverageMapping.h, CovMapVersion):
 *   name  stored  clang    change                                      */
#define PBI_COV_VERSIONS(X)                                                                    \
    X(V4, 3, 11, "compressed filenames, function records in __llvm_covfun")                   \
    X(V5, 4, 12, "branch regions")                                                              \
    X(V6, 5, 13, "filenames[0] of a TU is its compilation directory")                          \
    X(V7, 6, 18, "MC/DC decision and branch regions")

enum pbi_cov_version {
#define PBI_X(name, stored, clang, what) PBI_COV_##name = (stored),
    PBI_COV_VERSIONS(PBI_X)
#undef PBI_X
};
#define PBI_COV_VERSION_MIN PBI_COV_V4
#define PBI_COV_VERSION_MAX PBI_COV_V7

/* Region kinds: code of CounterMappingRegion::RegionKind (also the last
 * field of llvm-cov export's JSON region arrays). */
#define PBI_COV_REGION_KINDS(X)          \
    X(CODE, 0, "code")                   \
    X(EXPANSION, 1, "expansion")         \
    X(SKIPPED, 2, "skipped")             \
    X(GAP, 3, "gap")                     \
    X(BRANCH, 4, "branch")               \
    X(MCDC_DECISION, 5, "mcdc-decision") \
    X(MCDC_BRANCH, 6, "mcdc-branch")

enum pbi_cov_region_kind {
#define PBI_X(name, code, word) PBI_COV_REGION_##name = (code),
    PBI_COV_REGION_KINDS(PBI_X)
#undef PBI_X
};

/* A counter: LLVM's Counter (Zero, a reference to counter `id`, or expression `id`). */
enum pbi_cov_counter_kind { PBI_COV_ZERO = 0, PBI_COV_REF = 1, PBI_COV_EXPR = 2 };
typedef struct pbi_cov_counter {
    uint8_t kind; /* enum pbi_cov_counter_kind */
    uint32_t id;
} pbi_cov_counter;

/* An expression: lhs - rhs or lhs + rhs (CounterExpression). */
enum pbi_cov_expr_kind { PBI_COV_SUBTRACT = 0, PBI_COV_ADD = 1 };
typedef struct pbi_cov_expr {
    uint8_t kind; /* enum pbi_cov_expr_kind */
    pbi_cov_counter lhs, rhs;
} pbi_cov_expr;

/* MC/DC condition ids are 0-based here, -1 for "none" (LLVM 19's
 * mcdc::ConditionID); the reader converts the 1-based form the sections
 * store. */
typedef struct pbi_cov_mcdc {
    /* MCDC_DECISION */
    uint32_t bitmap_idx;     /* as stored: a byte index in clang-18 binaries, a bit index
                                in clang-19+ ones (llvm PR #82448; see pbi_cov_object.mcdc_bits) */
    uint16_t num_conditions;
    /* MCDC_BRANCH */
    int16_t id;
    int16_t true_id, false_id; /* next condition when true / false, -1: decision ends */
} pbi_cov_mcdc;

/* A region: CounterMappingRegion. Lines and columns are 1-based, as stored
 * after delta decoding (line_end = line_start + NumLines). */
typedef struct pbi_cov_region {
    pbi_cov_counter count;
    pbi_cov_counter false_count; /* BRANCH and MCDC_BRANCH; else Zero */
    pbi_cov_mcdc mcdc;           /* MCDC_* only; else zeros */
    uint32_t file_id;            /* index into the function's file-id map */
    uint32_t expanded_file_id;   /* EXPANSION: the file id it expands; else 0 */
    uint32_t line_start, col_start, line_end, col_end;
    uint8_t kind;                /* enum pbi_cov_region_kind */
} pbi_cov_region;

/* One function's mapping (CoverageMappingRecord). */
typedef struct pbi_cov_function {
    uint64_t name_ref;   /* MD5 of the PGO name (NameRef) */
    const char *name;    /* the PGO name from __llvm_prf_names; NULL: not found */
    size_t name_len;
    uint64_t hash;       /* FuncHash: structural hash, as in the profile */
    uint64_t filenames_ref; /* the TU's filenames hash (v4+) */
    /* file id -> filename (resolved: compilation directory, -compilation-dir
     * and -path-equivalence applied as llvm-cov applies them) */
    const char **filenames;
    size_t nfilenames;
    pbi_cov_expr *exprs;
    size_t nexprs;
    pbi_cov_region *regions; /* in stored order, file by file */
    size_t nregions;
    size_t object;       /* index of the object it came from */
    uint64_t offset;     /* byte offset of its record in __llvm_covfun (for errors, dump) */
    /* Read with pbi_cov_read_options.lazy: exprs and regions NULL (their
     * counts 0), the mapping bytes after the file ids kept here instead,
     * enc[enc_at, enc_end), for pbi_cov_function_decode (a tenth of the
     * decoded arrays' size: the evaluator decodes one function at a time).
     * With defer_checks they are unchecked: enc is the object's whole
     * __llvm_covfun (owned by the mapping), enc_obj the object's name and
     * enc_rec the record's number, for the reader's own errors. */
    const uint8_t *enc;
    size_t enc_at, enc_end;
    const char *enc_obj;      /* NULL: checked while read */
    size_t enc_rec;
    uint8_t enc_mcdc_ok, enc_mcdc19; /* the rules they are read by */
} pbi_cov_function;

/* Everything read from the objects, in LLVM's order: objects in the order
 * given, records in section order, duplicates (the same NameRef in one
 * object) resolved as CoverageMappingReader resolves them. */
typedef struct pbi_cov_mapping {
    pbi_cov_function *functions;
    size_t nfunctions;
    /* per object: */
    size_t nobjects;
    uint32_t *versions;  /* the highest stored coverage-mapping version seen in each;
                            0: an object without coverage sections, skipped */
    int *mcdc_bits;      /* 1: MC/DC bitmap indices are bit indices (clang 19+: the
                            binary's __llvm_profile_raw_version >= 10); 0: byte indices
                            (clang 18) or no MC/DC */
    uint32_t *raw_versions; /* __llvm_profile_raw_version of each object, 0 when absent */
    pbu_arena arena;     /* owns every string and array above */
    uint8_t **covfun;    /* the deferred objects' __llvm_covfun bytes (pbi_cov_function.enc) */
    size_t ncovfun, cap_covfun;
} pbi_cov_mapping;

/* Reading notes (what the reader does beyond the declarations above):
 *  - an EXPANSION region's count is the count of the first region of the
 *    file it expands, set as RawCoverageMappingReader::read sets it;
 *  - err->message is what llvm-cov-N prints after "failed to load coverage:
 *    'FILE': " (o->t's release: 18+ lowercase with the coverage-map detail,
 *    13-17 "Malformed coverage data" etc.), for every error llvm-cov has
 *    (checked on patched clang binaries with llvm-cov-13/14/17/18/19/24);
 *    err->expected/found say more (pb_error_format shows both);
 *  - err->offset is a byte offset inside the section err->path starts with
 *    ("__llvm_covfun[3].regions[2].num_lines"; several __llvm_covfun
 *    sections of a relocatable object count as their concatenation, each
 *    padded to 8 bytes, as llvm-cov reads them);
 *  - raw_versions[] holds the low 32 bits of __llvm_profile_raw_version
 *    (the version without its variant flags), from .symtab or .dynsym; 0
 *    (and mcdc_bits 0) when the object has no such symbol: a relocatable
 *    object, a stripped binary: then the bitmap unit is unknown;
 *  - MC/DC fields follow o->t's release: 19+ refuse a condition id 0 and ids
 *    or condition counts >= 32767; 18 reads any u32 (ids then wrap to int16). */

/* How the objects are read (llvm-cov's options that act on reading). */
typedef struct pbi_cov_read_options {
    const char *compilation_dir; /* -compilation-dir: relative filenames are joined to it
                                    instead of the TU's own directory (v6+); NULL: none */
    const char *arch;            /* -arch (an ELF's machine name); NULL: any */
    const pbi_llvm_target *t;    /* whose words errors use; NULL: the default release */
    uint64_t max_inflation;      /* bound on a compressed filenames blob; 0: the default */
    int lazy;                    /* keep each function's mapping encoded (pbi_cov_function.enc) */
    int defer_checks;            /* with lazy: the last object's mappings are checked only when
                                    pbi_cov_function_decode decodes them (one decode, not two;
                                    its errors are then the reader's, in 18+'s words) */
} pbi_cov_read_options;

/*
 * Reads the coverage sections of the objects at paths[0..n) (ELF executables
 * and shared objects; a path may be a pipe or FIFO) into *out, in order.
 * Returns 0, or:
 *   PB_EIO      a file cannot be opened or read (err->source: the path);
 *   PB_EINVAL   o->arch names no architecture llvm-cov knows ("unknown architecture: X");
 *   PB_EFORMAT  not an object, no coverage sections in any object ("No coverage
 *               data found"; an object without them among others with them
 *               is skipped, its mapping slot empty),
 *               -arch not the object's ("No object file for requested
 *               architecture"), a SHF_COMPRESSED coverage section (llvm-cov
 *               reads it as stored: "truncated coverage data"), a version
 *               outside 4..7 or 7 for releases 13-17 ("Unsupported coverage
 *               format version"), or a malformed byte:
 *               err names the file (source), the section and byte offset
 *               (offset; path: "__llvm_covfun[3].regions[2].line_start") and what
 *               was expected, in llvm-cov-N's words where it has some;
 *   PB_ENOMEM   out of memory.
 * On failure *out is empty (nothing to free); on success free it with
 * pbi_cov_mapping_free.
 */
int pbi_cov_read(pbi_cov_mapping *out, const char *const *paths, size_t n, const pbi_cov_read_options *o,
                 pb_error *err);

/* err->path of pbi_cov_read's PB_EFORMAT when none of several objects has
 * coverage sections (an object without them is skipped, as llvm-cov does;
 * llvm-cov then names every object, "A, B"; err->source: the first). */
#define PBI_COV_NO_DATA_IN_ANY "coverage.no_data_in_any_object"

/* pbi_cov_read with llvm-cov's -arch given once per object: arches[i]
 * (NULL: any) applies to paths[i] instead of o->arch. Same returns. */
int pbi_cov_read_arches(pbi_cov_mapping *out, const char *const *paths, const char *const *arches, size_t n,
                        const pbi_cov_read_options *o, pb_error *err);

/* The same for one object held in memory (the fuzz target, the unit tests):
 * `name` is what errors call it. */
int pbi_cov_read_memory(pbi_cov_mapping *out, const uint8_t *data, size_t len, const char *name,
                        const pbi_cov_read_options *o, pb_error *err);

void pbi_cov_mapping_free(pbi_cov_mapping *m);

/* Where pbi_cov_function_decode puts a function's arrays, reused from one
 * function to the next. Zero it first; free with pbi_cov_decoded_free. */
typedef struct pbi_cov_decoded {
    pbi_cov_expr *exprs;
    pbi_cov_region *regions;
    size_t cap_exprs, cap_regions;
} pbi_cov_decoded;

/* *out = *f with its expressions and regions: f's own when it was read
 * eagerly, else decoded from f->enc into s (valid until s is used again).
 * Returns 0, PB_ENOMEM, or PB_EFORMAT: f->enc was read with defer_checks
 * (f->enc_obj set) and is malformed (the reader's error, in 18+'s words:
 * pbi_cov_release_words gives a release's), or it was not what the reader
 * checked. */
int pbi_cov_function_decode(const pbi_cov_function *f, pbi_cov_decoded *s, pbi_cov_function *out, pb_error *err);
void pbi_cov_decoded_free(pbi_cov_decoded *s);


#endif
