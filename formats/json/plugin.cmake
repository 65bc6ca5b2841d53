# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
pb_add_format(NAME json SOURCES json.c json_read.c json_write.c)
