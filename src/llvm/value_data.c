/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* value_data.c -- the ValueProfData codec of value_data.h (spec §2.11, §3.7). */
#include "llvm/value_data.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "bytes.h"

static int bad(pb_error *err, int code, uint64_t off, const char *path, const char *field, const char *expected,
               const char *fmt, ...) PB_PRINTF(7, 8);
static int bad(pb_error *err, int code, uint64_t off, const char *path, const char *field, const char *expected,
               const char *fmt, ...) {
    char p[192], found[128];
    snprintf(p, sizeof p, "%s.%s", path, field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(found, sizeof found, fmt, ap);
    va_end(ap);
    return pb_error_set_ef(err, code, off, p, expected, found);
}

int pbi_vpd_parse(const uint8_t *d, uint64_t pos, uint64_t end, int order, unsigned num_kinds, const char *path,
                  pbi_vpd *v, pb_error *err) {
    if (end < pos || end - pos < 8)
        return bad(err, PB_ETRUNC, pos, path, "TotalSize", "8 bytes of TotalSize and NumValueKinds",
                   "%" PRIu64 " bytes", end < pos ? 0 : end - pos);
    uint32_t total = pb_get_u32(d + pos, order);
    uint32_t nkinds = pb_get_u32(d + pos + 4, order);
    if (total < 8 || total % 8 != 0 || total > end - pos)
        return bad(err, total % 8 == 0 && total >= 8 ? PB_ETRUNC : PB_EFORMAT, pos, path, "TotalSize",
                   "a multiple of 8 from 8 to the bytes left", "%" PRIu32 " (%" PRIu64 " left)", total, end - pos);
    if (nkinds > num_kinds)
        return bad(err, PB_EFORMAT, pos + 4, path, "NumValueKinds", num_kinds == 3 ? "at most 3" : "at most 2",
                   "%" PRIu32, nkinds);
    v->total = total;
    v->num_kinds = nkinds;
    v->present = 0;
    v->num_sites = v->num_values = 0;
    uint64_t vend = pos + total, p = pos + 8;
    for (uint32_t k = 0; k < nkinds; k++) {
        if (vend - p < 8)
            return bad(err, PB_ETRUNC, p, path, "ValueProfRecord", "8 bytes of Kind and NumValueSites inside TotalSize",
                       "%" PRIu64 " bytes left", vend - p);
        uint32_t kind = pb_get_u32(d + p, order);
        uint32_t ns = pb_get_u32(d + p + 4, order);
        if (kind >= num_kinds)
            return bad(err, PB_EFORMAT, p, path, "Kind", num_kinds == 3 ? "a value kind 0 to 2" : "a value kind 0 or 1",
                       "%" PRIu32, kind);
        if (v->present & (1u << kind))
            return bad(err, PB_EFORMAT, p, path, "Kind", "each kind once", "kind %" PRIu32 " twice", kind);
        uint64_t head = 8 + (uint64_t)ns;
        head += pb_pad8(head);
        if (head > vend - p)
            return bad(err, PB_ETRUNC, p + 4, path, "NumValueSites", "the site counts inside TotalSize",
                       "%" PRIu32 " sites, %" PRIu64 " bytes left", ns, vend - p);
        uint64_t nv = 0;
        const uint8_t *cnt = d + p + 8;
        for (uint32_t i = 0; i < ns; i++) nv += cnt[i];
        if (nv > (vend - p - head) / 16)
            return bad(err, PB_ETRUNC, p + 8, path, "SiteCountArray", "the values inside TotalSize",
                       "%" PRIu64 " values, %" PRIu64 " bytes left", nv, vend - p - head);
        v->present |= 1u << kind;
        v->kind[kind] = (pbi_vpd_kind){p, ns, p + 8, p + head, nv};
        v->num_sites += ns;
        v->num_values += nv;
        p += head + 16 * nv;
    }
    return 0;
}

void pbi_vpd_fill(const uint8_t *d, const pbi_vpd *v, int order, pb_site *sites, pb_value *values, pb_record *r) {
    for (unsigned k = 0; k < PB_VK_COUNT; k++) {
        if (!(v->present & (1u << k))) continue;
        const pbi_vpd_kind *kd = &v->kind[k];
        const uint8_t *cnt = d + kd->counts, *vals = d + kd->values;
        r->num_sites[k] = kd->num_sites;
        r->sites[k] = sites;
        for (uint32_t i = 0; i < kd->num_sites; i++, sites++) {
            sites->num_values = cnt[i];
            sites->values = values;
            for (unsigned j = 0; j < cnt[i]; j++, values++, vals += 16) {
                values->value = pb_get_u64(vals, order);
                values->count = pb_get_u64(vals + 8, order);
                values->symbol = PB_NONE;
            }
        }
    }
}

int pbi_vpd_encode(pb_buf *out, const pb_record *r, unsigned num_kinds, int order, pbi_vpd_pick_fn pick,
                   pbi_vpd_map_fn map, void *ctx, pbi_vpd_stats *st, pb_error *err) {
    static const uint8_t zeros[8];
    size_t start = out->len;
    uint8_t w[8];
    pbi_buf_append(out, zeros, 8); /* TotalSize, NumValueKinds: patched below */
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
        pbi_buf_append(out, w, 8);
        size_t counts_at = out->len;
        if (pbi_buf_reserve(out, ns + 8) != 0) break;
        for (uint32_t s = 0; s < ns; s++) pbi_buf_putc(out, 0); /* site counts: set below */
        pbi_buf_append(out, zeros, (size_t)pb_pad8(8 + (uint64_t)ns));
        for (uint32_t s = 0; s < ns; s++) {
            const pb_site *site = &r->sites[k][s];
            const pb_value *vals = site->values;
            size_t n = site->num_values;
            if (pick && (n = pick(ctx, k, site, &vals, err)) == (size_t)-1) return err ? err->code : PB_ENOMEM;
            if (n > PBI_VPD_MAX_VALUES_PER_SITE) n = PBI_VPD_MAX_VALUES_PER_SITE;
            st->values_dropped += site->num_values - n;
            if (out->failed || pbi_buf_reserve(out, 16 * n) != 0) break;
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
