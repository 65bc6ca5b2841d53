/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access_values.h -- the values the options handles share (pb_*_options_set):
 * a text the handle owns a copy of, and the release.
 */
#ifndef PBI_ACCESS_VALUES_H
#define PBI_ACCESS_VALUES_H

#include "profbridge/error.h"

/* Copies value into *slot (freeing what it held) and points *field at the
 * copy. Returns PB_OK or PB_ENOMEM (err names key; *slot and *field kept). */
int pbi_access_set_text(char **slot, const char **field, const char *key, const char *value, pb_error *err);

/* "llvm-version" (the CLI's and Python's word) into the options' one carrier
 * of the release, llvm_release: a release of the table (llvm/target.h).
 * Returns PB_OK or PB_EINVAL (err names key; *out kept). */
int pbi_access_parse_release(const char *key, const char *value, int *out, pb_error *err);

#endif
