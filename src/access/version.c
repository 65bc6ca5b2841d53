/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* version.c -- the library's version at run time. */
#include "profbridge/profbridge.h"

const char *pb_version(void) { return PB_VERSION_STRING; }
