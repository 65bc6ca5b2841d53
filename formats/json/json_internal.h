/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json_internal.h -- shared by the files of the json (model view) plugin. */
#ifndef PB_JSON_INTERNAL_H
#define PB_JSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/sys/format.h"

/* Bump when the JSON form changes incompatibly; docs/json-model.md describes each. */
#define PBI_JSON_FORMAT_VERSION 1

typedef struct pbi_json_flag {
    uint64_t bit;
    const char *name; /* the names llvm-profdata's text header uses where it has one */
} pbi_json_flag;

#define PBI_JSON_FLAG_COUNT 9
extern const pbi_json_flag pbi_json_flags[PBI_JSON_FLAG_COUNT];
extern const char *const pbi_json_kind_names[PB_REC_KIND_COUNT];
extern const char *const pbi_json_value_kind_names[PB_VK_COUNT];

int pbi_json_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
int pbi_json_write(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err);

#endif
