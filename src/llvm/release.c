/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* release.c -- the public questions about a release (profbridge/release.h),
 * answered from the one release table (target.h). */
#include "profbridge/release.h"

#include <string.h>

#include "llvm/target.h"

int pb_release_min(void) { return PBI_LLVM_MIN; }
int pb_release_max(void) { return PBI_LLVM_MAX; }
int pb_release_default(void) { return PBI_LLVM_DEFAULT; }

int pb_release_parse(const char *text, const char *what, int *out, pb_error *err) {
    pb_error_clear(err);
    pbi_llvm_target t;
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, what, "no place for the release");
    int rc = pbi_llvm_target_parse(text, what, &t, err);
    if (rc) return rc;
    *out = t.release;
    return PB_OK;
}

int pb_release_known(int release) {
    pbi_llvm_target t;
    return pbi_llvm_target_of(release, &t) == 0;
}

uint32_t pb_release_raw_version(int release) {
    pbi_llvm_target t;
    return pbi_llvm_target_of(release, &t) ? 0 : t.raw_version;
}

uint32_t pb_release_indexed_version(int release) {
    pbi_llvm_target t;
    return pbi_llvm_target_of(release, &t) ? 0 : t.indexed_version;
}

int pb_release_first_reading_indexed(uint32_t v) { return pbi_llvm_first_reading_indexed(v); }

/* The rows by id, in the order of their bits. */
static const char *const feature_ids[] = {
#define PBI_X(id, since, until, meaning) #id,
    PBI_LLVM_FEATURES(PBI_X)
#undef PBI_X
};
static const char *const cov_feature_ids[] = {
#define PBI_X(id, since, until, meaning) #id,
    PBI_LLVM_COV_FEATURES(PBI_X)
#undef PBI_X
};

int pb_release_has(int release, const char *rule) {
    pbi_llvm_target t;
    if (!rule || pbi_llvm_target_of(release, &t)) return 0;
    if (strncmp(rule, "cov.", 4) == 0) {
        for (size_t i = 0; i < PBI_LC_COUNT_; i++)
            if (strcmp(rule + 4, cov_feature_ids[i]) == 0) return pbi_llvm_cov_has(&t, (enum pbi_llvm_cov_feature)i);
        return 0;
    }
    for (size_t i = 0; i < PBI_LF_COUNT_; i++)
        if (strcmp(rule, feature_ids[i]) == 0) return pbi_llvm_has(&t, (enum pbi_llvm_feature)i);
    return 0;
}
