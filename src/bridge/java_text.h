/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * java_text.h -- readable Java names for reports (internal).
 *
 * `show`, `types` and `flame` print methods the way Java programmers read
 * them, "Decl.name(P1,P2)Ret", not in the escaped LLVM record-name grammar
 * of jname.h. These helpers render them from the model's tables.
 */
#ifndef PB_JAVA_TEXT_H
#define PB_JAVA_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "profbridge/profile.h"

/* How type names are spelt. */
enum {
    PBI_JT_RAW = 0,        /* as the profile holds them: "[Ljava.lang.String;" */
    PBI_JT_JAVA_ARRAYS = 1 /* JVM array names as Java source: "java.lang.String[]"
                              (folded stacks reserve ';', which array names contain) */
};

/* Appends symbol `sym`'s name ("<type id N>" for a placeholder, "?" for no symbol). */
void pbi_java_put_type(const pb_profile *p, uint32_t sym, int style, pb_buf *out);

/* Appends method `m` as "Decl.name(P1,P2)Ret" ("<method id N>" for a placeholder,
 * "<no method>" for an index the profile does not have). */
void pbi_java_put_method(const pb_profile *p, uint32_t m, int style, pb_buf *out);

/* Appends context `ctx` callee first as "M1:bci<M2:bci..." (the iprof order);
 * "(no context)" for PB_NONE. */
void pbi_java_put_context(const pb_profile *p, uint32_t ctx, int style, pb_buf *out);

#endif
