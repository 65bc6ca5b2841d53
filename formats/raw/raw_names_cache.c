/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_names_cache.c -- the last decoded names section of a merge, on its
 * destination (raw_names_cache.h).
 */
#include "raw_names_cache.h"

#include <stdlib.h>
#include <string.h>

#include "model/attach.h"

typedef struct kept {
    uint8_t *key; /* the section's bytes */
    size_t key_len;
    pbi_raw_names t;
} kept;

static const char tag = 'n'; /* its address names the attachment */

static void kept_free(void *data) {
    kept *k = data;
    if (!k) return;
    free(k->key);
    pbu_buf_free(&k->t.text);
    free(k->t.ne);
    free(k->t.slot);
    free(k);
}

const pbi_raw_names *pbi_raw_names_cached(const pb_profile *dst, const uint8_t *section, size_t len) {
    const kept *k = pbi_profile_attached(dst, &tag);
    if (!k || k->key_len != len || (len && memcmp(k->key, section, len) != 0)) return NULL;
    return &k->t;
}

int pbi_raw_names_keep(pb_profile *dst, const uint8_t *section, size_t len, const pbi_raw_names *t) {
    kept *k = calloc(1, sizeof *k);
    if (!k || !(k->key = malloc(len ? len : 1))) {
        free(k);
        return PB_ENOMEM;
    }
    if (len) memcpy(k->key, section, len);
    k->key_len = len;
    k->t = *t;
    if (pbi_profile_attach(dst, &tag, k, kept_free)) {
        free(k->key);
        free(k);
        return PB_ENOMEM;
    }
    return 0;
}
