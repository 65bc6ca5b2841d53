/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/profbridge.h -- the whole public API.
 *
 * profbridge converts PGO profiles between GraalVM Native Image's iprof JSON
 * and LLVM's raw, indexed and text instrumentation profiles through one
 * neutral model (profile.h). Formats are plugins (format.h) reading from and
 * writing to byte sources and sinks (io.h); errors are caller-owned values
 * (error.h).
 *
 * Typical use:
 *   pb_error err; pb_error_clear(&err);
 *   pb_profile *p = NULL;
 *   pb_read_options ro = PB_READ_OPTIONS_INIT;
 *   if (pb_read_file(&p, "app.iprof", &ro, &err) == 0) {
 *       pb_write_options wo = PB_WRITE_OPTIONS_INIT;
 *       (void)pb_write_file(p, "app.profdata", NULL, &wo, &err);
 *   }
 *   pb_profile_free(p);
 *
 * Every header says, per function, what it returns (every code), who owns
 * what, the state after a failure and whether it is thread-safe; error.h
 * has the rules they share. examples/ has whole programs.
 */
#ifndef PROFBRIDGE_H
#define PROFBRIDGE_H

#include "access.h"
#include "compare.h"
#include "correlate.h"
#include "error.h"
#include "flame.h"
#include "format.h"
#include "indexed.h"
#include "io.h"
#include "merge.h"
#include "order.h"
#include "partial.h"
#include "profile.h"
#include "release.h"
#include "show.h"
#include "types.h"

/* PB_VERSION_MAJOR, _MINOR, _PATCH and _STRING, generated from CMakeLists.txt */
#include "profbridge/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string (static; may differ from PB_VERSION_STRING
 * when a program runs against a newer shared library). Thread-safe. */
const char *pb_version(void);

#ifdef __cplusplus
}
#endif
#endif
