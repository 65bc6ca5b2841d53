/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * options.c -- pb_*_options_init: the defaults of each versioned options
 * struct, for callers that cannot use the INIT macros (bindings, code built
 * against one header and run against a newer library). One function per
 * struct, each taken from its INIT macro so the two cannot disagree. The
 * analyses' own (overlap, order) are in analysis/analysis_options.c.
 */
#include "model/options.h"

#include "profbridge/format.h"
#include "profbridge/profile.h"

PBI_OPTIONS_INIT_FN_V3(read, READ, llvm_release, llvm_view)
PBI_OPTIONS_INIT_FN_V2(write, WRITE, llvm_release)
PBI_OPTIONS_INIT_FN(dump, DUMP)
PBI_OPTIONS_INIT_FN(merge, MERGE)
