/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_merge.c -- one profile merged into another under a merge's rules,
 * without the caller building a pb_merge_options (access.h): what Python's
 * Profile.merge(other, weight=) calls. */
#include "profbridge/access.h"

#include "llvm/target.h"

int pb_profile_merge_under(pb_profile *dst, const pb_profile *src, uint64_t weight,
                           const pb_merger_options *rules, pb_error *err) {
    pb_error_clear(err);
    if (!dst || !src || dst == src || weight == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "pb_profile_merge_under: NULL or equal profiles, or weight 0");
    pb_merger_options dflt = PB_MERGER_OPTIONS_INIT;
    const pb_merger_options *r = rules ? rules : &dflt;
    pbi_llvm_target t;
    if (pbi_llvm_target_of(r->llvm_release ? r->llvm_release : PBI_LLVM_DEFAULT, &t))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm-version", "a release profbridge knows");
    /* the same rules pb_merger_run gives pb_profile_merge (merger_run.c) */
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.weight = weight;
    mo.llvm_release = t.release;
    mo.max_count = r->max_count                                    ? r->max_count
                   : pbi_llvm_has(&t, PBI_LF_SATURATE_U64_MAX) ? PB_MAX_COUNT_LLVM14
                                                                : PB_MAX_COUNT_LLVM;
    mo.max_values_per_site = r->keep_all_values ? 0 : PB_MAX_VALUES_PER_SITE_LLVM;
    mo.trace_reservoir = r->trace_reservoir;
    mo.trace_max_length = r->trace_max_length;
    mo.remap = r->remap;
    mo.diag = r->diag;
    mo.diag_ctx = r->diag_ctx;
    return pb_profile_merge(dst, src, &mo, err);
}
