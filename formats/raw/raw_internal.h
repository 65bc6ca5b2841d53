/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw_internal.h -- functions shared by the files of the raw plugin (not exported). */
#ifndef PB_RAW_INTERNAL_H
#define PB_RAW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "llvm/names.h"
#include "profbridge/sys/format.h"
#include "raw_layout.h"


int pbi_raw_probe(const uint8_t *head, size_t len);
int pbi_raw_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
/* pb_format.visit: every profile of the file in one pass, each in a head of
 * its own, then the whole file's head (end_input); from the bytes `prepared`
 * (pbi_raw_prepare's state of in) holds, when it is not NULL. */
int pbi_raw_visit(pb_source *in, void *prepared, const pb_read_options *o, const pb_record_visitor *v, void *ctx,
                  pb_error *err);
int pbi_raw_write(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err);
int pbi_raw_dump(pb_source *in, pb_sink *out, const pb_dump_options *o, pb_error *err);

/* The two halves of pbi_raw_read (pb_format.prepare): the first loads the
 * bytes and, for the first profile of the file, checks its header and
 * section layout, decodes and indexes its names and maps its function
 * addresses; the second reads the rest into a model (or pbi_raw_visit
 * visits it). */
int pbi_raw_prepare(void **state, pb_source *in, const pb_read_options *o, pb_error *err);
int pbi_raw_read_prepared(pb_profile **out, void *state, const pb_read_options *o, pb_error *err);
void pbi_raw_free_prepared(void *state);

/* pb_format.llvm_claims and llvm_words (raw_llvm_words.c): LLVM's raw
 * reader's test of the bytes and its words for an input it cannot read. */
int pbi_raw_llvm_claims(const uint8_t *data, size_t len);
int pbi_raw_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n);

/* Reads a raw profile held in memory (the work of pbi_raw_read). */
int pbi_raw_read_bytes(pb_profile **out, const uint8_t *data, size_t len, const pb_read_options *o,
                       pb_error *err);

#endif
