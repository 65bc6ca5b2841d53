/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* options.h -- the shape of every pb_*_options_init (internal): each room
 * defines those of its own options structs (model/options.c,
 * analysis/analysis_options.c) with this one macro. */
#ifndef PB_MODEL_OPTIONS_H
#define PB_MODEL_OPTIONS_H

#include "profbridge/error.h"

/* pb_<name>_options_init from PB_<NAME>_OPTIONS_INIT and _VERSION. */
#define PBI_OPTIONS_INIT_FN(name, NAME)                                                 \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {            \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL; \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                \
        *o = d;                                                                         \
        return PB_OK;                                                                   \
    }

#endif
