/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/flame.h -- flame graphs of a profile's sampled stacks
 * (GraalVM's samplingProfiles, or the "jsample:" records of such a profile
 * converted to LLVM): folded stacks, a speedscope file or a self-contained
 * SVG (docs/flame.md).
 *
 * Errors (error.h): the function resets its pb_error on entry and checks its
 * pointers and options version (PB_EINVAL).
 */
#ifndef PROFBRIDGE_FLAME_H
#define PROFBRIDGE_FLAME_H

#include "error.h"
#include "io.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pb_flame_style {
    PB_FLAME_FOLDED = 0,     /* "frame;frame;frame count\n" per stack */
    PB_FLAME_SPEEDSCOPE = 1, /* speedscope's file format, one "sampled" profile */
    PB_FLAME_SVG = 2         /* a classic flame graph with an inline script, nothing external */
};

typedef struct pb_flame_options {
    unsigned version;    /* PB_FLAME_OPTIONS_VERSION: first, always (see error.h) */
    int style;           /* enum pb_flame_style */
    int no_bci;          /* 1: frames without their ":bci" */
    const char *name;    /* the profile's name (its file): speedscope's profile name, the
                            SVG's default title and the error's source ("profile" in the
                            output when NULL or not UTF-8) */
    const char *title;   /* the SVG's heading; NULL: "Flame graph of NAME" (not UTF-8:
                            "Flame graph") */
    unsigned width;      /* SVG width in pixels (100 .. 100000) */
    double min_width;    /* SVG: frames narrower than this many pixels merge into one
                            U+2026 frame per parent; 0 keeps them all */
    int distinct_colors; /* SVG test mode: each frame its own colour, no labels */
} pb_flame_options;

#define PB_FLAME_OPTIONS_VERSION 1
#define PB_FLAME_OPTIONS_INIT {PB_FLAME_OPTIONS_VERSION, PB_FLAME_FOLDED, 0, NULL, NULL, 1200, 1.0, 0}
/* Fills *o with the defaults of layout `version` (PB_FLAME_OPTIONS_VERSION),
 * like PB_FLAME_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_flame_options_init(pb_flame_options *o, unsigned version);

/*
 * Draws p's sampled stacks into `out` in o->style (o may be NULL: the
 * defaults). p is not const: the frames of "jsample:" records are interned
 * in it. Returns 0; PB_EINVAL (NULL p or out, an unknown options version or
 * style, a width outside 100 .. 100000); PB_EFORMAT when p has no sampled
 * stacks (err's path "samplingProfiles"); PB_ENOMEM; or the sink's PB_EIO.
 * Nothing is written unless the whole drawing succeeded.
 */
int pb_flame_write(pb_profile *p, const pb_flame_options *o, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
