/* profile_merge.c -- llvm-profdata merge semantics (not yet implemented). */
#include "profile_internal.h"

int pb_profile_merge_record(pb_profile *dst, const pb_record *rec, const pb_merge_options *o,
                            pb_error *err) {
    (void)dst; (void)rec; (void)o;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "merge not implemented yet");
}

int pb_profile_merge(pb_profile *dst, const pb_profile *src, const pb_merge_options *o,
                     pb_error *err) {
    (void)dst; (void)src; (void)o;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "merge not implemented yet");
}
