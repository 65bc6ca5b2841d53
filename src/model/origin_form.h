/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * origin_form.h -- which of LLVM's forms a profile was read from (internal).
 *
 * Code below the registry (the merge rules, a plugin's writer) must not ask
 * the registry which form an origin's format is (docs/architecture.md, rooms
 * and layers), and no plugin may read another's header. What it can ask is
 * the model: the readers of the three LLVM forms write their plugin's name
 * into pb_origin.format, and this is the one place that maps those names to
 * the form, so no caller compares format names itself.
 */
#ifndef PBI_ORIGIN_FORM_H
#define PBI_ORIGIN_FORM_H

#include "profbridge/format.h"
#include "profbridge/profile.h"

/* The LLVM form o names (PB_FORM_OTHER for iprof, json, a built profile
 * and NULL). */
pb_format_form pbi_origin_form(const pb_origin *o);

#endif
