/* show_llvm.c -- placeholder; the raw-plugin work replaces it with the
 * llvm-profdata-19 compatible printer declared in cli.h. */
#include "cli.h"

int pbc_show_llvm(const pb_profile *p, const char *input_name, const pbc_show_llvm_opts *o,
                  FILE *out, pb_error *err) {
    (void)p;
    (void)o;
    (void)out;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                        "%s: LLVM-style show is not built yet", input_name);
}
