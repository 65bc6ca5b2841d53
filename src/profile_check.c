/* profile_check.c -- consistency check and comparison (not yet implemented). */
#include "profile_internal.h"

size_t pb_profile_check(const pb_profile *p, pb_diag_fn diag, void *diag_ctx) {
    (void)p; (void)diag; (void)diag_ctx;
    return 0;
}

int pb_profile_equal(const pb_profile *a, const pb_profile *b, char *why, size_t why_len) {
    (void)a; (void)b;
    if (why && why_len) why[0] = '\0';
    return 0;
}
