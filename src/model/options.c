/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * options.c -- pb_*_options_init: the defaults of each versioned options
 * struct, for callers that cannot use the INIT macros (bindings, code built
 * against one header and run against a newer library). One function per
 * struct, each taken from its INIT macro so the two cannot disagree.
 */
#include "profbridge/compare.h"
#include "profbridge/format.h"
#include "profbridge/order.h"
#include "profbridge/profile.h"

#define PBI_OPTIONS_INIT_FN(name, NAME)                                                 \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {            \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL; \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                \
        *o = d;                                                                         \
        return PB_OK;                                                                   \
    }

PBI_OPTIONS_INIT_FN(read, READ)
PBI_OPTIONS_INIT_FN(write, WRITE)
PBI_OPTIONS_INIT_FN(dump, DUMP)
PBI_OPTIONS_INIT_FN(merge, MERGE)
PBI_OPTIONS_INIT_FN(overlap, OVERLAP)
PBI_OPTIONS_INIT_FN(order, ORDER)
