# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
pb_add_format(NAME iprof
  SOURCES iprof.c iprof_map.c iprof_jpath.c iprof_ctx.c iprof_read.c iprof_stream.c iprof_write.c)
