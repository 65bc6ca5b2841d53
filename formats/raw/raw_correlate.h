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

/*
 * A lightweight raw profile (counters only) read with its binary's
 * correlation, one profile at a time: each concatenated profile becomes the
 * complete raw profile LLVM's reader sees (the binary's records and names,
 * the file's counters), built when it is read and dropped before the next,
 * so K profiles hold one copy of the records and names, not K.
 *
 * pbi_raw_corr_open loads bin_path's correlation (kind: enum
 * pbi_corr_kind) within lim, checks that profile and binary agree and every
 * profile's header (errors in release t's words); *s is zeroed first and
 * closed on error. raw[0..len) must outlive s. Returns 0 or a negative
 * PB_E* (pbi_correlation_load's, PB_EFORMAT, PB_ETRUNC, PB_EVERSION,
 * PB_EUNSUPPORTED, PB_ENOMEM).
 *
 * pbi_raw_corr_next puts the next profile's complete form in out (emptied
 * first); *at_end = 1 and out empty when none is left. Returns 0,
 * PB_ENOMEM or PB_EFORMAT.
 */
typedef struct pbi_raw_corr_stream {
    pbi_correlation c;
    pb_buf names; /* the names blob every complete profile holds */
    const uint8_t *raw;
    size_t len;
    uint64_t pos; /* the next profile's start */
    unsigned idx; /* its number */
    int order;
    unsigned ptr;
    pbi_llvm_target t;
} pbi_raw_corr_stream;

int pbi_raw_corr_open(pbi_raw_corr_stream *s, const uint8_t *raw, size_t len, const char *bin_path, int kind,
                      const pbi_llvm_target *t, const pbi_corr_limits *lim, pb_error *err);
int pbi_raw_corr_next(pbi_raw_corr_stream *s, pb_buf *out, int *at_end, pb_error *err);
void pbi_raw_corr_close(pbi_raw_corr_stream *s);

#endif
