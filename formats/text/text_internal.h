/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* text_internal.h -- what the files of the text plugin share. */
#ifndef PB_TEXT_INTERNAL_H
#define PB_TEXT_INTERNAL_H

#include "profbridge/sys/format.h"

/* The name LLVM prints for a target it cannot name (NameRef 0 or unknown). */
#define PBI_TEXT_EXTERNAL "** External Symbol **"

int pbi_text_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
int pbi_text_write(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err);
/* pb_format.llvm_claims and llvm_words (text_llvm_words.c): LLVM's text
 * reader's test of the bytes and its words for an input it cannot read. */
int pbi_text_llvm_claims(const uint8_t *data, size_t len);
int pbi_text_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n);

#endif
