/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* indexed_layout.c -- the header-word table of indexed_layout.h as data. */
#include "indexed_layout.h"

const pbi_idx_field pbi_idx_header_fields[PBI_IDX_W_COUNT] = {
#define PBI_X(f, since, meaning) {meaning, since},
    PBI_IDX_HEADER(PBI_X)
#undef PBI_X
};

/* LLVM's default detailed-summary cutoffs, scale 1e6, in the order written (§3.4). */
const uint64_t pbi_idx_default_cutoffs[PBI_IDX_NUM_CUTOFFS] = {
    10000,  100000, 200000, 300000, 400000, 500000, 600000, 700000,
    800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999};
