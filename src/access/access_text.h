/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access_text.h -- a text option of an options handle (pb_*_options_set):
 * the handle owns a copy, the options struct points at it.
 */
#ifndef PBI_ACCESS_TEXT_H
#define PBI_ACCESS_TEXT_H

#include "profbridge/error.h"

/* Copies value into *slot (freeing what it held) and points *field at the
 * copy. Returns PB_OK or PB_ENOMEM (err names key; *slot and *field kept). */
int pbi_access_set_text(char **slot, const char **field, const char *key, const char *value, pb_error *err);

#endif
