/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rname_md5.h -- the NameRefs of many rendered Java record names at once,
 * on two cores where the machine has them.
 */
#ifndef PB_MODEL_RNAME_MD5_H
#define PB_MODEL_RNAME_MD5_H

#include <stddef.h>

#include "model/profile_internal.h"

/* Sets rn[which[k]].hash = pb_md5_ref(name, len) for k < n. The entries
 * must be distinct; nothing else may touch them meanwhile (the caller
 * holds the cache lock). Never fails: without a second thread the
 * caller's thread hashes everything. */
void pbi_rname_md5_all(pbi_rname *rn, const size_t *which, size_t n);

#endif
