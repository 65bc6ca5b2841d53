/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_internal.h -- the pb_merger (profbridge/merge.h) and the pieces its
 * run is made of: merger.c (options, inputs), merger_run.c (reading and
 * merging in input order), merger_failures.c (which inputs failed, in
 * llvm-profdata's order, and whether the merge fails), merger_filter.c
 * (--function / --no-function).
 */
#ifndef PBI_MERGER_INTERNAL_H
#define PBI_MERGER_INTERNAL_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "profbridge/merge.h"
#include "llvm/target.h"

typedef struct pbi_merger_input {
    char *path;
    uint64_t weight;
} pbi_merger_input;

/* An input that could not be merged, reported at the end as LLVM does. */
typedef struct pbi_failed_input {
    size_t input, rank; /* rank: where llvm-profdata lists it */
    int code;           /* the read's code (err.code may be a warning's) */
    pb_error err;
} pbi_failed_input;

typedef struct pbi_merger_failures {
    pbi_failed_input *v;
    size_t n, cap;
    int first_code; /* the first failed input's code, in input order */
} pbi_merger_failures;

struct pb_merger {
    pb_merger_options o;
    pbi_llvm_target target;
    pbi_merger_input *in;
    size_t n, cap;
    int ran;
    regex_t keep, drop;
    int have_keep, have_drop;
    /* pb_partial's one-input merges: the profile is returned even when the
     * failure mode fails the merge (the verdict is the partial's, over all
     * of its inputs) */
    int keep_on_failure;
};

/* Keeps input i's failure (a copy of e). Returns 0 or PB_ENOMEM. */
int pbi_merger_fail(pbi_merger_failures *f, size_t input, int code, const pb_error *e);

/*
 * Reports every failure through o->failed in llvm-profdata's order for
 * `threads` writer contexts, then says whether the failure mode fails the
 * merge (1) or not (0), for `inputs` inputs in all; -1 out of memory.
 */
int pbi_merger_report_failures(pb_merger *m, pbi_merger_failures *f, size_t threads);

void pbi_merger_failures_free(pbi_merger_failures *f);

/* Compiles the function filters of m->o (PB_EINVAL with the option's name as
 * path for a bad expression). */
int pbi_merger_filter_compile(pb_merger *m, pb_error *err);

/* Keeps only the function records the filters allow, in a new *pp, and
 * says how many were removed (PB_MERGER_FILTERED). No filter: nothing done. */
int pbi_merger_filter(pb_merger *m, pb_profile **pp, pb_error *err);

void pbi_merger_filter_free(pb_merger *m);

/* The threads a run uses: o.threads, or llvm-profdata's default. */
unsigned pbi_merger_threads(const pb_merger *m);

#endif
