/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* binary_ids.c -- the binary-id list codec of binary_ids.h (spec §2.13, §3.8). */
#include "llvm/binary_ids.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/bytes.h"

int pbi_binary_ids_decode(const uint8_t *d, uint64_t pos, uint64_t end, int order, const char *path,
                          pbi_binary_id_fn fn, void *ctx, pb_error *err) {
    return pbi_binary_ids_decode_p(d, pos, end, order, 1, path, fn, ctx, err);
}

int pbi_binary_ids_decode_p(const uint8_t *d, uint64_t pos, uint64_t end, int order, int padded, const char *path,
                            pbi_binary_id_fn fn, void *ctx, pb_error *err) {
    char p[160];
    for (unsigned k = 0; pos < end; k++) {
        if (end - pos < 8) {
            snprintf(p, sizeof p, "%s[%u]", path, k);
            return pb_error_set(err, PB_EFORMAT, pos, p,
                                "binary id length (8 bytes) runs past the end of the binary-id section");
        }
        uint64_t len = pb_get_u64(d + pos, order);
        if (len == 0) {
            snprintf(p, sizeof p, "%s[%u]", path, k);
            return pb_error_set(err, PB_EFORMAT, pos, p, "binary id of length 0");
        }
        if (len > end - pos - 8 || (padded && pb_pad8(len) > end - pos - 8 - len)) {
            snprintf(p, sizeof p, "%s[%u]", path, k);
            return pb_error_set(err, PB_EFORMAT, pos, p,
                                "binary id of %" PRIu64 " bytes (plus any padding) runs past the end of the "
                                "binary-id section (%" PRIu64 " bytes left)",
                                len, end - pos - 8);
        }
        int rc = fn(ctx, d + pos + 8, (size_t)len, pos, err);
        if (rc) return rc;
        pos += pbi_binary_id_size_p(len, padded);
    }
    return 0;
}

size_t pbi_binary_id_put(uint8_t *dst, const uint8_t *id, size_t len, int order) {
    return pbi_binary_id_put_p(dst, id, len, order, 1);
}

size_t pbi_binary_id_put_p(uint8_t *dst, const uint8_t *id, size_t len, int order, int padded) {
    size_t n = (size_t)pbi_binary_id_size_p(len, padded);
    pb_put_u64(dst, len, order);
    if (len) memcpy(dst + 8, id, len);
    memset(dst + 8 + len, 0, n - 8 - len);
    return n;
}

void pbi_binary_id_append(pb_buf *b, const uint8_t *id, size_t len, int order) {
    size_t n = (size_t)pbi_binary_id_size(len);
    if (pbu_buf_reserve(b, n) != 0) return;
    b->len += pbi_binary_id_put((uint8_t *)b->data + b->len, id, len, order);
}
