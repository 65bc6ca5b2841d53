/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* show_parts.h -- a raw file for show, in one pass: its profiles and their merged model (show_parts.c). */
#ifndef PBI_SHOW_PARTS_H
#define PBI_SHOW_PARTS_H

#include <stddef.h>

#include "profbridge/format.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"

/*
 * Visits the raw input src once (pb_visit with ro; its diagnostics go to
 * ro->diag as they are raised). *model is what pb_read would read (the
 * profiles merged); when the file holds more than one profile, *out holds
 * one model per profile, each as read alone (*nout of them; the caller
 * frees each and *out), else *out is NULL and *nout 0. Returns 0 or
 * pb_visit's error; then nothing is left to free.
 */
int pbi_show_raw_read(pb_source *src, const pb_read_options *ro, pb_profile **model, pb_profile ***out,
                      size_t *nout, pb_error *err);

#endif
