/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* analysis_options.c -- pb_overlap_options_init and pb_order_options_init
 * (model/options.c has the model's): here because their structs are the
 * analyses' (compare.h, order.h), which the model must not see. */
#include "model/options.h"

#include "profbridge/compare.h"
#include "profbridge/order.h"

PBI_OPTIONS_INIT_FN(overlap, OVERLAP)
PBI_OPTIONS_INIT_FN(order, ORDER)
