/* profile_canonical.c -- canonical order (not yet implemented). */
#include "profile_internal.h"

int pb_profile_canonicalize(pb_profile *p, pb_error *err) {
    (void)p;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "canonicalize not implemented yet");
}
