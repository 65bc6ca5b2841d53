/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* access_partial.c -- a partial's provenance by index without the
 * pb_partial_input struct layout (access.h), for Python's Partial.inputs. */
#include "profbridge/access.h"
#include "profbridge/partial.h"

int pb_partial_input_get(const pb_partial *p, size_t i, const char **name, uint64_t *weight, uint64_t *size,
                         const char **sha256, int *status, const pb_error **error) {
    pb_partial_input in;
    if (!name || !weight || !size || !sha256 || !status || !error || pb_partial_input_at(p, i, &in) != PB_OK)
        return PB_EINVAL;
    *name = in.name;
    *weight = in.weight;
    *size = in.size;
    *sha256 = in.sha256;
    *status = in.status;
    *error = in.error;
    return PB_OK;
}
