# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
pb_add_format(NAME raw
  SOURCES raw.c raw_layout.c raw_sections.c raw_read.c raw_md5.c raw_names_cache.c raw_write.c raw_dump.c raw_correlate.c
  raw_llvm_words.c)
