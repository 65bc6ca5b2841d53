/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_eval.h -- what llvm-cov computes from the mappings and a profile
 * (internal): LLVM's CoverageMapping (lib/ProfileData/Coverage/
 * CoverageMapping.cpp) and llvm-cov's CoverageSummaryInfo, in C.
 *
 * The names follow LLVM's so that the two can be read side by side:
 *   pbi_cov_counted_region  CountedRegion (pbi_cov_counted_branch: of a branch)
 *   pbi_cov_mcdc_record     MCDCRecord
 *   pbi_cov_fn              FunctionRecord
 *   pbi_cov_segment         CoverageSegment
 *   pbi_cov_expansion       ExpansionRecord
 *   pbi_cov_data            CoverageData
 *   pbi_cov_line            LineCoverageStats
 *   pbi_cov_group           InstantiationGroup
 *   pbi_cov_fn_summary      FunctionCoverageSummary
 *   pbi_cov_file_summary    FileCoverageSummary
 * Where a release computes differently, the evaluator asks the release
 * table (llvm/target.h, PBI_LLVM_COV_FEATURES: the PBI_LC_EVAL_* rows); it
 * compares no release numbers.
 */
#ifndef PB_COVERAGE_COV_EVAL_H
#define PB_COVERAGE_COV_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "coverage/cov_mapping.h"
#include "llvm/target.h"
#include "profbridge/error.h"
#include "profbridge/profile.h"

/* What export, report and the segment builder need of a region: its
 * place and kind (pbi_cov_region without its counters and MC/DC
 * parameters, which only the evaluator reads: 28 bytes, not 56). */
typedef struct pbi_cov_place {
    uint32_t line_start, col_start, line_end, col_end;
    uint32_t file_id;            /* index into the function's file-id map */
    uint32_t expanded_file_id;   /* EXPANSION: the file id it expands; else 0 */
    uint8_t kind;                /* enum pbi_cov_region_kind */
} pbi_cov_place;

/* A code, expansion, skipped, gap or MC/DC decision region with its
 * count (CountedRegion without FalseExecutionCount, which only branches
 * have). 40 bytes: a program of a million regions keeps them all until
 * its files are written. */
typedef struct pbi_cov_counted_region {
    uint64_t count;        /* ExecutionCount */
    pbi_cov_place r;       /* kind, file ids, lines, columns */
    uint8_t folded, true_folded, false_folded; /* 0 (see pbi_cov_counted_branch) */
    uint8_t single_byte;   /* HasSingleByteCoverage */
} pbi_cov_counted_region;

/* A branch or MC/DC branch region with its counts (a CountedRegion of
 * CountedBranchRegions). */
typedef struct pbi_cov_counted_branch {
    uint64_t count;        /* ExecutionCount */
    uint64_t false_count;  /* FalseExecutionCount */
    pbi_cov_place r;       /* kind, file ids, lines, columns */
    uint8_t folded;        /* both counters Zero (constant-folded) */
    uint8_t true_folded, false_folded; /* LLVM 20+'s TrueFolded/FalseFolded, where the release has them */
    uint8_t single_byte;   /* HasSingleByteCoverage */
} pbi_cov_counted_branch;

/* One MC/DC decision evaluated (MCDCRecord). Test vectors are in the order
 * LLVM keeps them; conditions in condition-id order. */
typedef struct pbi_cov_mcdc_record {
    pbi_cov_counted_region decision;   /* the MCDC_DECISION region */
    uint32_t bitmap_idx;               /* the decision's, as stored (pbi_cov_mcdc) */
    uint32_t walk_ri;                  /* 23+: its branch met last when the mapping is walked with every
                                          expansion followed where it stands (mapping index) */
    pbi_cov_counted_branch *branches;  /* its MCDC_BRANCH regions, by condition id */
    size_t nconds;
    size_t ntv;                        /* test vectors */
    int8_t *tv;                        /* ntv * nconds: -1 don't care, 0 false, 1 true */
    uint8_t *tv_result;                /* ntv: the decision's outcome */
    uint8_t *tv_executed;              /* ntv: 1 executed (the bitmap's bit set) */
    uint8_t *folded;                   /* nconds: the condition is constant */
    uint8_t *covered;                  /* nconds: an independence pair was found */
    uint32_t *pair_a, *pair_b;         /* nconds: its pair's test vectors, 1-based as llvm-cov prints */
    /* Added by the evaluator: LLVM keeps conditions by position (the order
     * its recorder met the branches, condition 0 first; for clang's
     * mappings this is the condition-id order) and maps a position to its
     * id (PosToID). branches, folded, covered, pair_a/b and the columns of
     * tv are by position; cond_ids[pos] is the condition id there. */
    int16_t *cond_ids;                 /* nconds */
} pbi_cov_mcdc_record;

/* One function (FunctionRecord). */
typedef struct pbi_cov_fn {
    const char *name;        /* the demangling is the caller's; this is the PGO name
                                with the "file;" / "file:" prefix of locals */
    size_t name_len;
    const char **filenames;  /* the function's file-id map */
    size_t nfilenames;
    pbi_cov_counted_region *regions;  /* CountedRegions: code, expansion, skipped, gap */
    size_t nregions;
    pbi_cov_counted_branch *branches; /* CountedBranchRegions: branch and MC/DC branch */
    size_t nbranches;
    pbi_cov_mcdc_record *mcdc;        /* MCDCRecords */
    size_t nmcdc;
    uint64_t count;          /* ExecutionCount: the first region's count */
    size_t index;            /* position in pbi_coverage's list */
} pbi_cov_fn;

/* A point where the count changes (CoverageSegment). */
typedef struct pbi_cov_segment {
    uint32_t line, col;
    uint64_t count;
    uint8_t has_count, is_region_entry, is_gap;
} pbi_cov_segment;

/* An expansion of a macro or include in a file (ExpansionRecord). */
typedef struct pbi_cov_expansion {
    uint32_t file_id;                /* the expanded file id in fn's map */
    pbi_cov_counted_region region;   /* the EXPANSION region, in the expanding file */
    const pbi_cov_fn *fn;
} pbi_cov_expansion;

/* The coverage of one file, one function or one expansion (CoverageData). */
typedef struct pbi_cov_data {
    const char *filename;
    pbi_cov_segment *segments;
    size_t nsegments;
    pbi_cov_expansion *expansions;
    size_t nexpansions;
    pbi_cov_counted_branch *branches;
    size_t nbranches;
    const pbi_cov_mcdc_record **mcdc;
    size_t nmcdc;
    /* Added by the evaluator: the release whose rules the view follows
     * (the coverage's; pbi_cov_lines reads it). NULL: the default. */
    const pbi_llvm_target *t;
} pbi_cov_data;

/* One line's statistics (LineCoverageStats, from LineCoverageIterator). */
typedef struct pbi_cov_line {
    uint32_t line;
    uint64_t count;               /* ExecutionCount */
    uint8_t mapped;               /* the line has code (isMapped) */
    uint8_t multiple_regions;     /* HasMultipleRegions */
    const pbi_cov_segment *wrapped;   /* the segment that runs into the line, or NULL */
    const pbi_cov_segment *segments;  /* the segments that start on the line */
    size_t nsegments;
} pbi_cov_line;

/* Functions of one file that start at one line and column: the
 * instantiations of one template or one inline function (InstantiationGroup). */
typedef struct pbi_cov_group {
    uint32_t line, col;
    const pbi_cov_fn **fns;
    size_t nfns;
    /* Added by the evaluator: the group's name when its functions' names
     * differ ("Definition at line L, column C"), what the group summary
     * names it. */
    char def_name[64];
} pbi_cov_group;

/* Covered / total of one kind (RegionCoverageInfo, LineCoverageInfo, ...). */
typedef struct pbi_cov_ratio {
    uint64_t covered;
    uint64_t total;
} pbi_cov_ratio;

typedef struct pbi_cov_fn_summary {
    const char *name;
    uint64_t count;
    pbi_cov_ratio regions, lines, branches, mcdc;
} pbi_cov_fn_summary;

typedef struct pbi_cov_file_summary {
    const char *name;
    pbi_cov_ratio regions, lines, branches, mcdc;
    pbi_cov_ratio functions;      /* covered = executed */
    pbi_cov_ratio instantiations;
} pbi_cov_file_summary;

/* A function whose hash in the binary is not the profile's (llvm-cov's
 * "N functions have mismatched data"). */
typedef struct pbi_cov_mismatch {
    const char *name;
    const char *filename;        /* its first file, or "" */
    uint64_t binary_hash;
    uint64_t profile_hash;       /* the first record of that name in the profile */
} pbi_cov_mismatch;

typedef struct pbi_coverage pbi_coverage;

typedef struct pbi_cov_eval_options {
    const pbi_llvm_target *t;  /* the release whose rules apply; NULL: the default */
    int single_byte;           /* the profile has single-byte coverage */
    int *read_failed;          /* set to 1 when the error is the reader's: a mapping read with
                                  defer_checks is malformed (err then as pbi_cov_read sets it) */
} pbi_cov_eval_options;

/*
 * Evaluates every function of m against prof (CoverageMapping::load):
 * records found by name and hash, unknown ones counted as zero, mismatched
 * ones set aside, counters and expressions evaluated, duplicates of a
 * (filenames, function) pair dropped. m and prof must outlive *out.
 * Returns 0, PB_ENOMEM, or PB_EFORMAT (a counter or bitmap index outside
 * the profile's record in a way llvm-cov fails on; err says which function;
 * or a malformed mapping read with defer_checks: o->read_failed).
 * On failure *out is NULL.
 */
int pbi_cov_eval(const pbi_cov_mapping *m, const pb_profile *prof, const pbi_cov_eval_options *o,
                 pbi_coverage **out, pb_error *err);
void pbi_coverage_free(pbi_coverage *c);

/* The functions, in CoverageMapping's order (getCoveredFunctions). */
size_t pbi_cov_fn_count(const pbi_coverage *c);
const pbi_cov_fn *pbi_cov_fn_at(const pbi_coverage *c, size_t i);

/* The functions with mismatched hashes, in LLVM's order. */
size_t pbi_cov_mismatch_count(const pbi_coverage *c);
const pbi_cov_mismatch *pbi_cov_mismatch_at(const pbi_coverage *c, size_t i);

/* Every source file named by a function, sorted and unique (getUniqueSourceFiles). */
size_t pbi_cov_file_count(const pbi_coverage *c);
const char *pbi_cov_file_at(const pbi_coverage *c, size_t i);

/* getCoverageForFile / getCoverageForFunction / getCoverageForExpansion.
 * *out is filled with arrays owned by the caller: free with
 * pbi_cov_data_free. Returns 0 or PB_ENOMEM. */
int pbi_cov_for_file(const pbi_coverage *c, const char *filename, pbi_cov_data *out, pb_error *err);
int pbi_cov_for_function(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_data *out, pb_error *err);
int pbi_cov_for_expansion(const pbi_coverage *c, const pbi_cov_expansion *e, pbi_cov_data *out,
                          pb_error *err);
void pbi_cov_data_free(pbi_cov_data *d);
/* Added by the evaluator: getCoverageForFile with FilteredOutFunctions --
 * only the functions `keep` accepts (NULL: all) give the file their
 * regions, expansions, branches and MC/DC records. Returns 0 or PB_ENOMEM. */
int pbi_cov_for_file_kept(const pbi_coverage *c, const char *filename,
                          int (*keep)(void *ctx, const pbi_cov_fn *fn), void *ctx, pbi_cov_data *out,
                          pb_error *err);

/* The lines of d in order, from the first segment's line to the last's
 * (LineCoverageIterator). *out is the caller's: free(*out). */
int pbi_cov_lines(const pbi_cov_data *d, pbi_cov_line **out, size_t *n, pb_error *err);
/* The same by the rules of release t (NULL: the default release); the
 * mapped rule changed (PBI_LC_EVAL_LINE_ANY_ENTRY). pbi_cov_lines uses
 * d->t. Both return 0 or PB_ENOMEM (also for a view of more than 2^22
 * lines). */
int pbi_cov_lines_for(const pbi_cov_data *d, const pbi_llvm_target *t, pbi_cov_line **out, size_t *n,
                      pb_error *err);

/* The instantiation groups of one file, sorted by line and column
 * (getInstantiationGroups). *out is the caller's: free each group's fns, then *out. */
int pbi_cov_groups(const pbi_coverage *c, const char *filename, pbi_cov_group **out, size_t *n,
                   pb_error *err);

/* FunctionCoverageSummary::get of one function, and of one instantiation
 * group (the group's summary as llvm-cov's report computes it). */
int pbi_cov_fn_summarize(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_fn_summary *out, pb_error *err);
int pbi_cov_group_summarize(const pbi_coverage *c, const pbi_cov_group *g, pbi_cov_fn_summary *out,
                            pb_error *err);

/*
 * Added by the evaluator: one file's summary as llvm-cov's report and
 * export compute it (CoverageReport::prepareSingleFileReport): for each
 * instantiation group of the file, the summaries of the instantiations
 * `keep` accepts (NULL: all) are added as instantiations; a group with
 * one at least adds its group summary (ratios the best of the kept ones,
 * count that of all of them) as a function. out->name is filename.
 * Returns 0 or PB_ENOMEM.
 */
int pbi_cov_file_summarize(const pbi_coverage *c, const char *filename,
                           int (*keep)(void *ctx, const pbi_cov_fn *fn), void *ctx,
                           pbi_cov_file_summary *out, pb_error *err);

#endif
