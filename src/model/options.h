/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* options.h -- the shape of every pb_*_options_init (internal): each room
 * defines those of its own options structs (model/options.c,
 * analysis/analysis_options.c) with these macros; and the fields a later
 * layout version added, read so that an older caller's struct is never
 * read past its end. */
#ifndef PB_MODEL_OPTIONS_H
#define PB_MODEL_OPTIONS_H

#include <stddef.h>
#include <string.h>

#include "profbridge/format.h"

/* pb_<name>_options_init from PB_<NAME>_OPTIONS_INIT and _VERSION, for a
 * struct of one layout version. */
#define PBI_OPTIONS_INIT_FN(name, NAME)                                                 \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {            \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL; \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                \
        *o = d;                                                                         \
        return PB_OK;                                                                   \
    }

/* The same for a struct whose version 2 added fields from `first_v2` on: a
 * version-1 caller's struct ends there, so only that much is written. */
#define PBI_OPTIONS_INIT_FN_V2(name, NAME, first_v2)                                    \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {            \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL; \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                \
        d.version = version;                                                            \
        memcpy(o, &d, version >= 2 ? sizeof d : offsetof(pb_##name##_options, first_v2)); \
        return PB_OK;                                                                   \
    }

/* The same for a struct whose version 2 and 3 added fields from `first_v2`
 * and `first_v3` on: an older caller's struct ends there. */
#define PBI_OPTIONS_INIT_FN_V3(name, NAME, first_v2, first_v3)                          \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {            \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL; \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                \
        d.version = version;                                                            \
        memcpy(o, &d, version >= 3   ? sizeof d                                         \
                      : version == 2 ? offsetof(pb_##name##_options, first_v3)          \
                                     : offsetof(pb_##name##_options, first_v2));        \
        return PB_OK;                                                                   \
    }

/* The llvm_release of read or write options (0: the default), which
 * layout version 1 does not have: a caller built against it gets 0. */
static inline int pbi_read_release(const pb_read_options *o) {
    return o && o->version >= 2 ? o->llvm_release : 0;
}
/* The llvm_view of read options (layouts 1 and 2 have none: 0). */
static inline int pbi_read_llvm_view(const pb_read_options *o) {
    return o && o->version >= 3 ? o->llvm_view : 0;
}
static inline int pbi_write_release(const pb_write_options *o) {
    return o && o->version >= 2 ? o->llvm_release : 0;
}

#endif
