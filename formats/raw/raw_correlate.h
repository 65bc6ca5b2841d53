/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw_correlate.h -- reading lightweight raw profiles with their binary
 * (raw_correlate.c; the ELF and DWARF side is src/llvm/correlate.h). */
#ifndef PB_RAW_CORRELATE_H
#define PB_RAW_CORRELATE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "llvm/correlate.h"
#include "profbridge/sys/format.h"

/* The read options "binary-file FILE" and "debug-info FILE": *path and
 * *kind (enum pbi_corr_kind), or NULL and 0 when neither is given. Both
 * given is an error, as in llvm-profdata. */
int pbi_raw_correlation_option(const pb_read_options *o, const char **path, int *kind, pb_error *err);

/* Appends to out the complete raw profile(s) that the lightweight raw[0..len)
 * and correlation c stand for (what LLVM's reader reads with a correlator). */
int pbi_raw_correlate(const uint8_t *raw, size_t len, const pbi_correlation *c, const char *bin_path,
                      const pbi_llvm_target *t, pb_buf *out, pb_error *err);

/* pbi_correlation_load of bin_path within lim, then pbi_raw_correlate;
 * errors in the words of release t. */
int pbi_raw_correlated_bytes(const uint8_t *raw, size_t len, const char *bin_path, int kind,
                             const pbi_llvm_target *t, const pbi_corr_limits *lim, pb_buf *out, pb_error *err);

#endif
