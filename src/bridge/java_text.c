/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * java_text.c -- readable Java method and context names (see java_text.h).
 */
#include <inttypes.h>
#include <string.h>

#include "bridge/java_text.h"

/* The Java source spelling of a JVM array name ("[[I" -> "int[][]",
 * "[Lp.C;" -> "p.C[]"); 0 when `s` is no well-formed array name, so the
 * caller prints it unchanged. */
static int put_java_array(const char *s, size_t len, pb_buf *out) {
    size_t dims = 0;
    while (dims < len && s[dims] == '[') dims++;
    if (dims == 0 || dims == len) return 0;
    const char *elem = s + dims;
    size_t elen = len - dims;
    static const struct {
        char code;
        const char *name;
    } prims[] = {{'Z', "boolean"}, {'B', "byte"},  {'C', "char"},   {'S', "short"},
                 {'I', "int"},     {'J', "long"},  {'F', "float"},  {'D', "double"}};
    if (elen == 1) {
        size_t i;
        for (i = 0; i < sizeof prims / sizeof prims[0]; i++)
            if (prims[i].code == elem[0]) break;
        if (i == sizeof prims / sizeof prims[0]) return 0;
        pbu_buf_puts(out, prims[i].name);
    } else {
        if (elem[0] != 'L' || elem[elen - 1] != ';' || elen < 3) return 0;
        if (memchr(elem + 1, ';', elen - 2)) return 0;
        pbu_buf_append(out, elem + 1, elen - 2);
    }
    for (size_t i = 0; i < dims; i++) pbu_buf_puts(out, "[]");
    return 1;
}

void pbi_java_put_type(const pb_profile *p, uint32_t sym, int style, pb_buf *out) {
    const pb_symbol *s = sym < pb_profile_symbol_count(p) ? pb_profile_symbol(p, sym) : NULL;
    if (!s) {
        pbu_buf_putc(out, '?');
    } else if (s->placeholder || s->name == PB_NONE) {
        pbu_buf_printf(out, "<type id %" PRId64 ">", s->placeholder_id);
    } else {
        size_t len;
        const char *n = pb_profile_str(p, s->name, &len);
        if (style != PBI_JT_JAVA_ARRAYS || !put_java_array(n, len, out)) pbu_buf_append(out, n, len);
    }
}

void pbi_java_put_method(const pb_profile *p, uint32_t m, int style, pb_buf *out) {
    if (m >= pb_profile_method_count(p)) {
        pbu_buf_puts(out, "<no method>");
        return;
    }
    const pb_method *md = pb_profile_method(p, m);
    if (md->placeholder || md->name == PB_NONE) {
        pbu_buf_printf(out, "<method id %" PRId64 ">", md->placeholder_id);
        return;
    }
    if (md->num_sig > 0) pbi_java_put_type(p, md->sig[0], style, out);
    else pbu_buf_putc(out, '?');
    pbu_buf_putc(out, '.');
    size_t len;
    const char *n = pb_profile_str(p, md->name, &len);
    pbu_buf_append(out, n, len);
    pbu_buf_putc(out, '(');
    for (uint32_t i = 2; i < md->num_sig; i++) {
        if (i > 2) pbu_buf_putc(out, ',');
        pbi_java_put_type(p, md->sig[i], style, out);
    }
    pbu_buf_putc(out, ')');
    if (md->num_sig > 1) pbi_java_put_type(p, md->sig[1], style, out);
    else pbu_buf_putc(out, '?');
}

void pbi_java_put_context(const pb_profile *p, uint32_t ctx, int style, pb_buf *out) {
    size_t n = 0;
    const pb_frame *f = ctx == PB_NONE ? NULL : pb_profile_context(p, ctx, &n);
    if (!f || n == 0) {
        pbu_buf_puts(out, "(no context)");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_putc(out, '<');
        pbi_java_put_method(p, f[i].method, style, out);
        pbu_buf_printf(out, ":%" PRId32, f[i].bci);
    }
}
