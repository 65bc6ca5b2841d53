# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
pb_add_format(NAME text
  SOURCES text.c text_read.c text_write.c text_llvm_words.c)
