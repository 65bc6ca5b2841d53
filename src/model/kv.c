/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kv.c -- plugin options as the caller gave them (pb_kv).
 *
 * With the model, not in the registry, because every room above it reads
 * options: the writers, the bridge and the llvm room asked the registry for
 * pb_kv_get, which made registry -> bridge -> registry a circle; and not in
 * util, under the public header (format.h) that declares it
 * (tests/interop/lint_layers.sh).
 */
#include <string.h>

#include "profbridge/sys/format.h"

const char *pb_kv_get(const pb_kv *kv, size_t n, const char *key) {
    const char *v = NULL;
    for (size_t i = 0; i < n; i++)
        if (kv[i].key && strcmp(kv[i].key, key) == 0) v = kv[i].value;
    return v;
}
