/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* value_data.c -- the ValueProfData codec of value_data.h (spec §2.11, §3.7). */
#include "llvm/value_data.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/bytes.h"

int pbi_vpd_bad(pb_error *err, int code, uint64_t off, const char *path, const char *field, const char *expected,
                const char *fmt, ...) {
    char p[192], found[128];
    snprintf(p, sizeof p, "%s.%s", path, field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(found, sizeof found, fmt, ap);
    va_end(ap);
    return pb_error_set_ef(err, code, off, p, expected, found);
}

int pbi_vpd_encode(pb_buf *out, const pb_record *r, unsigned num_kinds, int order, pbi_vpd_pick_fn pick,
                   pbi_vpd_map_fn map, void *ctx, pbi_vpd_stats *st, pb_error *err) {
    static const uint8_t zeros[8];
    size_t start = out->len;
    uint8_t w[8];
    pbu_buf_append(out, zeros, 8); /* TotalSize, NumValueKinds: patched below */
    uint32_t nkinds = 0;
    for (unsigned k = 0; k < PB_VK_COUNT; k++) {
        uint32_t ns = r->num_sites[k];
        if (!ns) continue;
        if (k >= num_kinds) {
            st->sites_dropped += ns;
            continue;
        }
        nkinds++;
        pb_put_u32(w, k, order);
        pb_put_u32(w + 4, ns, order);
        pbu_buf_append(out, w, 8);
        size_t counts_at = out->len;
        if (pbu_buf_reserve(out, ns + 8) != 0) break;
        for (uint32_t s = 0; s < ns; s++) pbu_buf_putc(out, 0); /* site counts: set below */
        pbu_buf_append(out, zeros, (size_t)pb_pad8(8 + (uint64_t)ns));
        for (uint32_t s = 0; s < ns; s++) {
            const pb_site *site = &r->sites[k][s];
            const pb_value *vals = site->values;
            size_t n = site->num_values;
            if (pick && (n = pick(ctx, k, site, &vals, err)) == (size_t)-1) return err ? err->code : PB_ENOMEM;
            if (n > PBI_VPD_MAX_VALUES_PER_SITE) n = PBI_VPD_MAX_VALUES_PER_SITE;
            st->values_dropped += site->num_values - n;
            if (out->failed || pbu_buf_reserve(out, 16 * n) != 0) break;
            out->data[counts_at + s] = (char)(uint8_t)n;
            uint8_t *q = (uint8_t *)out->data + out->len;
            for (size_t i = 0; i < n; i++, q += 16) {
                pb_put_u64(q, map ? map(ctx, k, vals[i].value) : vals[i].value, order);
                pb_put_u64(q + 8, vals[i].count, order);
            }
            out->len += 16 * n;
        }
    }
    if (out->failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t total = out->len - start;
    if (total > UINT32_MAX)
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, "ValueProfData.TotalSize",
                               "at most 4294967295 bytes of value data per record", "more");
    pb_put_u32((uint8_t *)out->data + start, (uint32_t)total, order);
    pb_put_u32((uint8_t *)out->data + start + 4, nkinds, order);
    return 0;
}
