/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bridge.h -- the iprof <-> LLVM bridge (internal; docs/mapping.md §6-§9).
 *
 * pb_write calls these before handing a profile to a writer, so every LLVM
 * writer (raw, indexed, text) and the iprof writer see a model they can
 * write as it is:
 *
 *  - for an LLVM writer, Java data is completed with the meta records
 *    (jmeta:version / jmeta:types / jmeta:methods) and native functions that
 *    travelled through iprof (methods declared in type "llvm:function" plus
 *    the "llvm" extension key) become plain function records again;
 *  - for the iprof writer, LLVM function records named by the Java grammar
 *    become Java records again, meta records give back version, types and
 *    unreferenced methods, and every other function becomes a native method
 *    with call-count and conditional entries, the rest going into the "llvm"
 *    extension key (the JSON model of the native part, docs/json-model.md).
 *
 * Both return *view = p (nothing to do, no copy) or a new profile the caller
 * frees with pb_profile_free when *view != p.
 */
#ifndef PB_BRIDGE_H
#define PB_BRIDGE_H

#include "profbridge/sys/format.h"
#include "profbridge/profile.h"
#include "model/import.h"

/* Reserved names of the native mapping (docs/mapping.md §7). */
#define PBI_BRIDGE_NATIVE_TYPE "llvm:function"
#define PBI_BRIDGE_HASH_PREFIX "llvm:hash:0x"
#define PBI_BRIDGE_EXT_PROP "iprof.extra.llvm"
/* Meta record names stay below this many bytes (docs/mapping.md §6). */
#define PBI_BRIDGE_META_CHUNK 60000

/* `target` = the LLVM writer about to write (its name and version option
 * word the notice about type histograms); `model` = the plugin of the
 * model's own JSON view (family PB_FAMILY_MODEL), which holds the "llvm"
 * iprof key. The caller (pb_write) passes both, so the bridge looks up no
 * plugin: it sits below the registry (tests/interop/lint_layers.sh). */
int pbi_bridge_for_llvm(const pb_profile *p, const pb_profile **view, const pb_format *target,
                        const pb_format *model, const pb_write_options *o, pb_error *err);
int pbi_bridge_for_iprof(const pb_profile *p, const pb_profile **view, const pb_format *model,
                         const pb_write_options *o, pb_error *err);
/* pbi_bridge_for_iprof for a caller that gives *pp up: when a new view is
 * made, *pp is freed (set to NULL) once the view no longer needs it, before
 * the view is put in canonical order, so both are not alive at the peak.
 * When *view == *pp on return, or on failure, *pp is still the caller's
 * (on failure *pp may already be NULL: freed, and *view is then NULL). */
int pbi_bridge_for_iprof_take(pb_profile **pp, const pb_profile **view, const pb_format *model,
                              const pb_write_options *o, pb_error *err);

/* 1 when method m is a native LLVM function in iprof form (declared in
 * PBI_BRIDGE_NATIVE_TYPE, return type PBI_BRIDGE_HASH_PREFIX<hash>); *hash
 * receives the hash. */
int pbi_bridge_native_method(const pb_profile *p, uint32_t m, uint64_t *hash);

#endif
