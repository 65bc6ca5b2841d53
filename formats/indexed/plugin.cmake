# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
pb_add_format(NAME indexed
  SOURCES indexed.c indexed_layout.c indexed_summary.c indexed_file.c indexed_read.c
          indexed_write.c indexed_dump.c indexed_dump_json.c indexed_xxh3.c
          indexed_llvm_words.c indexed_key_md5.c)
