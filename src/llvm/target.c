/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* target.c -- the LLVM release table expanded (target.h). */
#include "llvm/target.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    int release;
    uint32_t raw, indexed;
} releases[] = {
#define PBI_X(r, raw, idx) {r, raw, idx},
    PBI_LLVM_RELEASES(PBI_X)
#undef PBI_X
};

static const struct {
    int since, until;
    const char *meaning;
} features[] = {
#define PBI_X(id, since, until, meaning) {since, until, meaning},
    PBI_LLVM_FEATURES(PBI_X)
#undef PBI_X
};

static const struct {
    int since, until;
    const char *meaning;
} cov_features[] = {
#define PBI_X(id, since, until, meaning) {since, until, meaning},
    PBI_LLVM_COV_FEATURES(PBI_X)
#undef PBI_X
};

_Static_assert(sizeof releases / sizeof releases[0] == PBI_LLVM_MAX - PBI_LLVM_MIN + 1,
               "one row per release from PBI_LLVM_MIN to PBI_LLVM_MAX");

int pbi_llvm_target_of(int release, pbi_llvm_target *out) {
    if (release < PBI_LLVM_MIN || release > PBI_LLVM_MAX) return PB_EINVAL;
    size_t i = (size_t)(release - PBI_LLVM_MIN);
    pbi_llvm_target t = {release, releases[i].raw, releases[i].indexed, 0, 0, 0};
    for (size_t f = 0; f < PBI_LF_COUNT_; f++)
        if (features[f].since <= release && release <= features[f].until) t.features |= UINT64_C(1) << f;
    for (size_t f = 0; f < PBI_LC_COUNT_; f++)
        if (cov_features[f].since <= release && release <= cov_features[f].until)
            t.cov_features |= UINT64_C(1) << f;
    *out = t;
    return 0;
}

int pbi_llvm_target_parse(const char *text, const char *what, pbi_llvm_target *out, pb_error *err) {
    char *end = NULL;
    long v = text && *text >= '0' && *text <= '9' ? strtol(text, &end, 10) : -1;
    if (v < 0 || *end || v > PBI_LLVM_MAX || pbi_llvm_target_of((int)v, out))
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, what, "an LLVM release from 13 to 24",
                               text ? text : "(none)");
    return 0;
}

int pbi_llvm_target_for(int release, pbi_llvm_target *out, pb_error *err) {
    pbi_llvm_target t;
    if (pbi_llvm_target_of(release ? release : PBI_LLVM_DEFAULT, &t))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release",
                            "expected an LLVM release from %d to %d (0: %d), got %d", PBI_LLVM_MIN, PBI_LLVM_MAX,
                            PBI_LLVM_DEFAULT, release);
    t.chosen = release != 0;
    *out = t;
    return 0;
}

int pbi_llvm_first_reading_indexed(uint32_t v) {
    for (size_t i = 0; i < sizeof releases / sizeof releases[0]; i++)
        if (releases[i].indexed >= v) return releases[i].release;
    return 0;
}

int pbi_llvm_keeps_vtable_sites(const pbi_llvm_target *t, const char *version_option, const char *chosen) {
    if (!version_option) return pbi_llvm_has(t, PBI_LF_TEXT_VTABLE_SITES);
#define PBI_X(opt, since, field)                                                     \
    if (strcmp(version_option, opt) == 0)                                            \
        return (chosen ? strtol(chosen, NULL, 10) : (long)t->field) >= (long)(since);
    PBI_LLVM_FILES(PBI_X)
#undef PBI_X
    return 1; /* a file we know no rule for: nothing to warn about */
}
