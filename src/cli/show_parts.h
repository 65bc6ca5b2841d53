/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* show_parts.h -- the profiles of a raw file, each as read alone (show_parts.c). */
#ifndef PBC_SHOW_PARTS_H
#define PBC_SHOW_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "merger/merger_defer.h"
#include "profbridge/profbridge.h"

/* Visits the raw file data[0..len) once: *out holds one model per profile,
 * each as read alone (*nout of them; the caller frees each and *out). The
 * reader's diagnostics (base->diag) are held in dd, for the caller to flush
 * or drop: they belong to the model only when the file holds one profile. */
int pbc_show_raw_parts(const uint8_t *data, size_t len, const char *name, const pb_read_options *base,
                       pbi_diag_defer *dd, pb_profile ***out, size_t *nout, pb_error *err);

#endif
