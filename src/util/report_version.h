/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report_version.h -- the "format_version" of every JSON report (internal).
 *
 * One place for all of them, so that a change to a report's JSON and its
 * schema in docs/schemas/ is made next to its version. "MAJOR.MINOR":
 * a change that only adds (a member, an enum value) bumps MINOR; one that
 * removes, renames or changes the meaning or type of something bumps MAJOR
 * and resets MINOR (docs/json-model.md, "JSON conventions"). A consumer
 * checks MAJOR and ignores members it does not know.
 */
#ifndef PB_REPORT_VERSION_H
#define PB_REPORT_VERSION_H

#define PBU_REPORT_SHOW_LLVM "1.0"  /* show --json, LLVM view (docs/schemas/show-llvm.schema.json) */
#define PBU_REPORT_SHOW_JAVA "1.0"  /* show --json, Java view (show-java.schema.json) */
#define PBU_REPORT_VALIDATE "1.0"   /* validate --json (validate.schema.json) */
#define PBU_REPORT_OVERLAP "1.0"    /* overlap --json (overlap.schema.json) */
#define PBU_REPORT_DIFF "1.0"       /* diff --json (diff.schema.json) */
#define PBU_REPORT_TYPES "1.0"      /* types --json (types.schema.json) */
#define PBU_REPORT_MERGE "1.0"      /* merge --json-summary (merge-summary.schema.json) */
#define PBU_REPORT_DUMP_RAW "1.0"   /* dump --json of a raw file (dump-raw.schema.json) */
#define PBU_REPORT_DUMP_INDEXED "1.0" /* dump --json of an indexed file (dump-indexed.schema.json) */

#endif
