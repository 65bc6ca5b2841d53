/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * error_hint.c -- the CLI's words in the library's messages.
 *
 * The library states facts in its own terms ("pb_read_options.format can
 * name the plugin"); a user of the command line needs the option that does
 * it ("use --from FORMAT"). pbc_error_text formats an error and puts the
 * option in place of the library's term, so the tool's lines stay what they
 * always were while the library speaks no CLI.
 */
#include "cli/opts.h"

#include <stdio.h>
#include <string.h>

#include "util/escape.h"

static const struct {
    const char *library; /* the library's words, as src/ and formats/ write them */
    const char *cli;     /* what the command line says instead */
} hints[] = {
    {" (pb_read_options.max_input_size)", " (raise it with --max-input-size N, 0 = no limit)"},
    {"; pb_read_options.max_inflation)", "; raise the limit with --max-inflation N, 0 = no limit)"},
    {"; pb_read_options.format can name the plugin", "; use --from FORMAT to force one"},
    {"; name the plugin", "; use --to FORMAT"},
    {"(plugin option iprof-version 1.1.0)", "(use --iprof-version 1.1.0)"},
    {"read it together with that binary", "read it with --debug-info <binary>"},
    {"not repairable in lenient mode", "not repairable with --lenient"},
    /* last, for every other plugin option: "(plugin option llvm-version 20
     * has)" -> "(--llvm-version 20 has)", as the CLI spells plugin options */
    {"plugin option ", "--"},
};

size_t pbc_error_text(const pb_error *e, char *buf, size_t n) {
    char line[2048];
    pb_error_format(e, line, sizeof line);
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        char *at = line;
        while ((at = strstr(at, hints[i].library)) != NULL) {
            char tail[2048];
            snprintf(tail, sizeof tail, "%s", at + strlen(hints[i].library));
            snprintf(at, sizeof line - (size_t)(at - line), "%s%s", hints[i].cli, tail);
            at += strlen(hints[i].cli);
        }
    }
    /* the line holds file names and excerpts of the input: never raw
     * control bytes on the terminal (escape.h) */
    char safe[2048];
    pbu_esc_term_str(line, safe, sizeof safe);
    int k = snprintf(buf, n, "%s", safe);
    return k < 0 ? 0 : (size_t)k;
}
