/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_diff.c -- a diff entry's fields through out-parameters (access.h),
 * so a binding need not copy pb_diff_entry's layout. */
#include "profbridge/access.h"

int pb_diff_entry_get(const pb_diff *d, size_t i, int *status, const char **name, size_t *name_len,
                      uint64_t *hash, size_t *rec_a, size_t *rec_b, uint64_t *impact) {
    if (!d || i >= pb_diff_count(d)) return PB_EINVAL;
    const pb_diff_entry *e = pb_diff_entry_at(d, i);
    if (status) *status = e->status;
    if (name) *name = e->name;
    if (name_len) *name_len = e->name_len;
    if (hash) *hash = e->hash;
    if (rec_a) *rec_a = e->rec_a;
    if (rec_b) *rec_b = e->rec_b;
    if (impact) *impact = e->impact;
    return PB_OK;
}
