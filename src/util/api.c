/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * api.c -- the argument and options-version checks at the top of public
 * functions (api.h), apart from error.c so that api.h's inline reset and
 * error.c do not use each other.
 */
#include "util/api.h"

int pbu_null_arg(pb_error *err, const char *func, const char *arg) {
    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: %s is NULL", func, arg);
}

int pbu_check_version(pb_error *err, const char *type, unsigned version, unsigned known) {
    if (version >= 1 && version <= known) return 0;
    return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                        "%s: version %u unknown (this library knows %u)", type, version, known);
}
