/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* origin_form.c -- origin_form.h: the origin names of LLVM's forms. */
#include "model/origin_form.h"

#include <string.h>

/* The names the raw, indexed and text readers write into pb_origin.format
 * (their plugins' names, which a JSON profile's origin repeats). */
static const struct {
    const char *name;
    pb_format_form form;
} forms[] = {
    {"raw", PB_FORM_RAW},
    {"indexed", PB_FORM_INDEXED},
    {"text", PB_FORM_TEXT},
};

pb_format_form pbi_origin_form(const pb_origin *o) {
    if (!o) return PB_FORM_OTHER;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(o->format, forms[i].name) == 0) return forms[i].form;
    return PB_FORM_OTHER;
}
