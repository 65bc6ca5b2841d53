/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/types.h -- the type-profile report of a profile (what
 * `profbridge types` prints): per site that recorded which types or call
 * targets reached it (an iprof virtual-invoke, instanceof or monitor entry,
 * an LLVM indirect-call or vtable value site), its total, its types hottest
 * first, its class (monomorphic, bimorphic, megamorphic) and what a profile
 * keeping only the `width` hottest types would keep and lose; a summary
 * over the profile first. docs/types-flame.md defines every number and
 * both layouts (text and JSON).
 *
 * Errors (error.h): the function resets its pb_error on entry and checks its
 * pointers and options version (PB_EINVAL). The profile is only read
 * (const): other threads may read it at the same time.
 */
#ifndef PROFBRIDGE_TYPES_H
#define PROFBRIDGE_TYPES_H

#include "error.h"
#include "io.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pb_types_style {
    PB_TYPES_TEXT = 0, /* the summary, then each site with its hottest 8 types */
    PB_TYPES_JSON = 1  /* one JSON object, every site with all its types
                          (docs/schemas/types.schema.json) */
};

/* The widest fixed-width profile the report measures against. */
#define PB_TYPES_MAX_WIDTH 1000000u

typedef struct pb_types_options {
    unsigned version; /* PB_TYPES_OPTIONS_VERSION: first, always (see error.h) */
    int style;        /* enum pb_types_style */
    unsigned width;   /* types a fixed-width profile keeps (HotSpot's TypeProfileWidth;
                         GraalVM records up to 8): 1 .. PB_TYPES_MAX_WIDTH */
    const char *name; /* the input's name in the heading ("input" in JSON, with an
                         "input_hex" twin when not UTF-8); NULL: "profile" */
} pb_types_options;

#define PB_TYPES_OPTIONS_VERSION 1
#define PB_TYPES_OPTIONS_INIT {PB_TYPES_OPTIONS_VERSION, PB_TYPES_TEXT, 2, NULL}
/* Fills *o with the defaults of layout `version` (PB_TYPES_OPTIONS_VERSION),
 * like PB_TYPES_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_types_options_init(pb_types_options *o, unsigned version);

/*
 * Writes p's type-profile report into `out` in o->style (o may be NULL: the
 * defaults). A profile without type sites gives a report of zero sites.
 * Returns 0; PB_EINVAL (NULL p or out, an unknown options version or style,
 * a width outside 1 .. PB_TYPES_MAX_WIDTH; err's path names the field);
 * PB_ENOMEM; or the sink's PB_EIO. Nothing is written unless the whole
 * report was made.
 */
int pb_types_write(const pb_profile *p, const pb_types_options *o, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
