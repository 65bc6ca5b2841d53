/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_eval_internal.h -- what the evaluator's files share (internal to
 * cov_load.c, cov_mcdc.c, cov_segments.c, cov_lines.c, cov_groups.c and
 * cov_summary.c): the pbi_coverage behind cov_eval.h's opaque handle and
 * the parts one file hands to another.
 */
#ifndef PB_COVERAGE_COV_EVAL_INTERNAL_H
#define PB_COVERAGE_COV_EVAL_INTERNAL_H

#include "coverage/cov_eval.h"
#include "util/arena.h"

/* One source file and the functions that name it (LLVM's
 * FilenameHash2RecordIndices, exact instead of hashed). */
typedef struct pbi_cov_file_fns {
    const char *name;
    size_t *fns;   /* indices into pbi_coverage.fns, ascending */
    size_t nfns;
} pbi_cov_file_fns;

struct pbi_coverage {
    const pbi_cov_mapping *m;
    const pb_profile *prof;
    pbi_llvm_target t;
    int single_byte;
    pbi_cov_fn *fns;
    size_t nfns, cap_fns;
    pbi_cov_mismatch *mis;
    size_t nmis, cap_mis;
    pbi_cov_file_fns *files;   /* sorted by name, unique */
    size_t nfiles;
    pbu_arena arena;           /* every region, record and index array */
};

/* The profile's function records by name (cov_names.c): what
 * pb_profile_lookup finds, without hashing every name with MD5. */
typedef struct pbi_cov_names {
    struct pbi_cov_name_slot {
        uint64_t hash;
        const char *name; /* the record's name, kept here: a lookup then
                             touches the slot and the name, not the record
                             and the string table as well */
        uint32_t len;
        uint32_t rec1;    /* record index + 1; 0: empty */
    } *slots;
    size_t cap;
} pbi_cov_names;

/* Returns 0 or PB_ENOMEM (t is then empty). */
int pbi_cov_names_build(pbi_cov_names *t, const pb_profile *p);
void pbi_cov_names_free(pbi_cov_names *t);
/* The next function record named name[0..len) after the one *pos stands
 * on (*pos = SIZE_MAX: the first), in ascending record order; SIZE_MAX when
 * there is none. */
size_t pbi_cov_names_next(const pbi_cov_names *t, const pb_profile *p, const char *name, size_t len,
                          size_t *pos);
/* Asks the cache for the slot where name[0..len)'s search will start: the
 * evaluator calls it some functions ahead, as the slots are met in no
 * order (their misses were a third of the lookup's time). */
void pbi_cov_names_prefetch(const pbi_cov_names *t, const char *name, size_t len);
/* Asks the cache for the first record named name[0..len) (its_counters
 * 0) or for that record's counters (1): the steps after the slot's
 * prefetch, each a few functions later, when the one before has arrived. */
void pbi_cov_names_prefetch_record(const pbi_cov_names *t, const pb_profile *p, const char *name, size_t len,
                                   int its_counters);

/* The file entry of `filename`, or NULL when no function names it. */
const pbi_cov_file_fns *pbi_cov_file_entry(const pbi_coverage *c, const char *filename);

/* The first file id of fn that no expansion region expands (LLVM's
 * findMainViewFileID), or -1. */
long pbi_cov_main_file_id(const pbi_cov_fn *fn);

/* LLVM's SegmentBuilder::buildSegments: sorts and combines regions (which
 * it reorders and overwrites) and appends the segments to *out, a malloc
 * array of *nout segments. Returns 0 or PB_ENOMEM. */
int pbi_cov_build_segments(pbi_cov_counted_region *regions, size_t n, int single_byte,
                           const pbi_llvm_target *t, pbi_cov_segment **out, size_t *nout, pb_error *err);

/* ---- MC/DC (cov_mcdc.c) ---- */

/* The decisions a function's regions open, waiting for their branches
 * (LLVM 19+'s MCDCDecisionRecorder, 18's "the next n branches"). */
typedef struct pbi_cov_mcdc_recorder pbi_cov_mcdc_recorder;

/* What evaluating one decision needs besides the regions. */
typedef struct pbi_cov_mcdc_input {
    const pbi_llvm_target *t;
    const uint8_t *bitmap;  /* the profile record's bitmap bytes (NULL: none) */
    size_t nbitmap;
    int bit_index;          /* 1: the decision's bitmap index counts bits (19+ with an indexed v12+ profile) */
    pbu_arena *arena;       /* where the record's arrays go */
} pbi_cov_mcdc_input;

pbi_cov_mcdc_recorder *pbi_cov_mcdc_recorder_new(void);
void pbi_cov_mcdc_recorder_free(pbi_cov_mcdc_recorder *r);

/* A decision region (index `ri` in the function's mapping). 18 refuses a
 * decision while another still waits for branches: returns PB_EFORMAT. */
int pbi_cov_mcdc_decision(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri,
                          const pbi_llvm_target *t, pb_error *err);
/* An expansion region: the decisions that contain it take its file (19+). */
int pbi_cov_mcdc_expansion(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri,
                           const pbi_llvm_target *t);
/* An MC/DC branch region (mapping index ri; its counted copy is branch
 * `bi` of the function). When it completes a decision, *done is set to 1
 * and *out is that decision's record (arrays in in->arena; the branches
 * copied from `branches`). Returns 0, PB_ENOMEM, or 1 when the record is
 * to be dropped (LLVM skips the function's remaining MC/DC work). */
int pbi_cov_mcdc_branch(pbi_cov_mcdc_recorder *r, const pbi_cov_function *f, size_t ri, size_t bi,
                        const pbi_cov_counted_branch *branches, const pbi_cov_mcdc_input *in,
                        pbi_cov_mcdc_record *out, int *done, pb_error *err);
/* llvm-cov 23+: a function's records m[0..n) in the order llvm-cov's one
 * walk of the mapping, following each expansion where it stands, meets
 * each decision's last branch (row EVAL_MCDC_SORTED; record.walk_ri).
 * Returns 0 or PB_ENOMEM (m unchanged). */
int pbi_cov_mcdc_sort(const pbi_cov_function *f, pbi_cov_mcdc_record *m, size_t n);
/* A region with its count, and a branch with its two and its folding
 * (CountedRegion's constructor and pushRegion's folding). */
void pbi_cov_counted_from(const pbi_cov_region *r, uint64_t count, int single_byte, pbi_cov_counted_region *out);
void pbi_cov_branch_from(const pbi_cov_region *r, uint64_t count, uint64_t false_count, int single_byte,
                         pbi_cov_counted_branch *out);

#endif
