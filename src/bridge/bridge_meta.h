/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bridge_meta.h -- jmeta: records (docs/mapping.md §6), internal. */
#ifndef PB_BRIDGE_META_H
#define PB_BRIDGE_META_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

/* Adds jmeta:version, jmeta:types (every symbol of v) and jmeta:methods
 * (methods m of v with method_used[m] == 0) to v as function records. */
int pbi_meta_add_records(pb_profile *v, const char *version, const uint8_t *method_used,
                         pb_error *err);

/* 1 when `name` carries the reserved jmeta: tag. */
int pbi_meta_is_meta(const char *name, size_t len);

/* Applies one meta record to v: sets iprof.version (first wins) or adds the
 * listed types / methods. PB_EFORMAT when the name is not a valid meta name. */
int pbi_meta_parse(pb_profile *v, const char *name, size_t len, pb_error *err);

#endif
