/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_file.c -- checked walk over an indexed profile's structure
 * (spec §3.2-§3.10). Every offset and length from the file is checked
 * against the bytes that exist before a pointer is formed; counts are capped
 * by what the bytes can hold, so no input makes us allocate more than a small
 * multiple of its size. Nothing here builds a model.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "indexed_internal.h"
#include "llvm/binary_ids.h"
#include "llvm/value_data.h"
#include "util/grow.h"

static int bad(pb_error *err, int code, uint64_t off, const char *path, const char *expected,
               const char *fmt, ...) PB_PRINTF(6, 7);
static int bad(pb_error *err, int code, uint64_t off, const char *path, const char *expected,
               const char *fmt, ...) {
    char found[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(found, sizeof found, fmt, ap);
    va_end(ap);
    return pb_error_set_ef(err, code, off, path, expected, found);
}

static uint64_t u64at(const pbi_idx_file *f, uint64_t off) { return pb_get_u64(f->data + off, PB_ORDER_LE); }

/* Offset of header word w (indexed_layout.h); magic and version before the
 * version is known. */
static uint64_t word_at(uint32_t version, enum pbi_idx_word w) {
    int off = pbi_idx_word_offset(version < PBI_IDX_VERSION_MIN ? PBI_IDX_VERSION_MIN : version, w);
    return off < 0 ? PB_NO_OFFSET : (uint64_t)off;
}

/* 1 if [off, off+n) lies inside the file. */
static int fits(const pbi_idx_file *f, uint64_t off, uint64_t n) {
    uint64_t end;
    return pb_add_u64(&end, off, n) && end <= f->len;
}

/* ------------------------------------------------------------------------ */

static int read_summary(pbi_idx_file *f, unsigned i, uint64_t off, pb_error *err) {
    const char *path = i ? "cs_summary" : "summary";
    if (!fits(f, off, 16))
        return bad(err, PB_ETRUNC, off, path, "16 bytes of summary counts", "%" PRIu64 " bytes left",
                   f->len > off ? (uint64_t)f->len - off : 0);
    uint64_t nf = u64at(f, off), nc = u64at(f, off + 8);
    /* The newest LLVM reader's hardening (§3.14): >= 6 fields, counts <= u32. */
    if (nf < PBI_IDX_SUMMARY_FIELDS || nf > UINT32_MAX)
        return bad(err, PB_EFORMAT, off, i ? "cs_summary.NumSummaryFields" : "summary.NumSummaryFields",
                   "6 to 4294967295 fields", "%" PRIu64, nf);
    if (nc > UINT32_MAX)
        return bad(err, PB_EFORMAT, off + 8, i ? "cs_summary.NumCutoffEntries" : "summary.NumCutoffEntries",
                   "at most 4294967295 entries", "%" PRIu64, nc);
    uint64_t words = 2 + nf + 3 * nc, size; /* cannot overflow: both <= 2^32 */
    if (!pb_mul_u64(&size, words, 8) || !fits(f, off, size))
        return bad(err, PB_ETRUNC, off, path, "the whole summary inside the file",
                   "%" PRIu64 " fields and %" PRIu64 " cutoffs (%" PRIu64 " words) in %" PRIu64 " bytes",
                   nf, nc, words, (uint64_t)f->len - off);
    f->summary_off[i] = off;
    f->summary_size[i] = size;
    return 0;
}

/* Magic, version and flags, the header's words (those of the version) and
 * the hash type. */
static int read_header(pbi_idx_file *f, pb_error *err) {
    const uint8_t *data = f->data;
    size_t len = f->len;
    if (len < 8)
        return bad(err, PB_ETRUNC, 0, "header.Magic", "8 bytes of magic", "%zu bytes", len);
    if (u64at(f, 0) != PBI_IDX_MAGIC)
        return bad(err, PB_EFORMAT, 0, "header.Magic", "ff 6c 70 72 6f 66 69 81",
                   "%02x %02x %02x %02x %02x %02x %02x %02x", data[0], data[1], data[2], data[3],
                   data[4], data[5], data[6], data[7]);
    if (len < 16) return bad(err, PB_ETRUNC, word_at(0, PBI_IDX_W_version), "header.Version", "8 bytes", "%zu", len - 8);
    uint64_t vw = u64at(f, 8);
    f->version = PBI_IDX_VERSION_NUMBER(vw);
    f->flags = vw & PB_VARIANT_MASK;
    if (f->version < PBI_IDX_VERSION_MIN || f->version > PBI_IDX_VERSION_MAX)
        return bad(err, PB_EVERSION, word_at(0, PBI_IDX_W_version), "header.Version", "indexed version 1 to 14", "%" PRIu32,
                   f->version);
    f->lay = pbi_idx_layout(f->version);
    f->header_size = pbi_idx_header_size(f->version);
    if (len < f->header_size)
        return bad(err, PB_ETRUNC, len, "header", "a header", "%zu of %u bytes", len, f->header_size);
    uint64_t off = 0;
    for (unsigned w = 0; w < PBI_IDX_W_COUNT; w++)
        if (pbi_idx_has_word(f->version, (enum pbi_idx_word)w)) {
            f->w[w] = u64at(f, off);
            off += 8;
        }
    if (f->w[PBI_IDX_W_hash_type] != 0)
        return bad(err, PB_EFORMAT, word_at(f->version, PBI_IDX_W_hash_type), "header.HashType", "0 (MD5)", "%" PRIu64,
                   f->w[PBI_IDX_W_hash_type]);
    return 0;
}

/* The summary after the header (in versions that have one), and the
 * context-sensitive one of a CS profile; *off ends after them, where the
 * payload starts. */
static int read_summaries(pbi_idx_file *f, uint64_t *off, pb_error *err) {
    *off = f->header_size;
    if (!f->lay.summary) return 0;
    int rc = read_summary(f, 0, *off, err);
    if (rc) return rc;
    *off += f->summary_size[0];
    f->num_summaries = 1;
    if (f->flags & PB_VARIANT_CSIR) {
        rc = read_summary(f, 1, *off, err);
        if (rc) return rc;
        *off += f->summary_size[1];
        f->num_summaries = 2;
    }
    return 0;
}

/* The hash table's head at HashOffset: after the payload's start, a power
 * of two of buckets inside the file, no more entries than the payload can
 * hold. */
static int read_table_head(pbi_idx_file *f, uint64_t off, pb_error *err) {
    size_t len = f->len;
    uint64_t t = f->w[PBI_IDX_W_hash_offset];
    f->table_off = t;
    if (t < off || !fits(f, t, 16))
        return bad(err, PB_EFORMAT, word_at(f->version, PBI_IDX_W_hash_offset), "header.HashOffset",
                   "an offset after the summaries with 16 bytes left in the file",
                   "0x%" PRIx64 " (payload starts at 0x%" PRIx64 ", file size 0x%zx)", t, off, len);
    f->num_buckets = u64at(f, t);
    f->num_entries = u64at(f, t + 8);
    uint64_t nb = f->num_buckets, bytes;
    if (nb == 0 || (nb & (nb - 1)) != 0)
        return bad(err, PB_EFORMAT, t, "hash_table.NumBuckets", "a power of two", "%" PRIu64, nb);
    if (!pb_mul_u64(&bytes, nb, 8) || !fits(f, t + 16, bytes))
        return bad(err, PB_ETRUNC, t, "hash_table.NumBuckets", "the bucket array inside the file",
                   "%" PRIu64 " buckets with %zu bytes left", nb, (size_t)(len - t - 16));
    /* Every entry takes at least 24 bytes of payload: cap the count by that. */
    if (f->num_entries > (t - off) / 24)
        return bad(err, PB_EFORMAT, t + 8, "hash_table.NumEntries",
                   "at most one entry per 24 payload bytes", "%" PRIu64 " entries in %" PRIu64 " bytes",
                   f->num_entries, t - off);
    return 0;
}

int pbi_idx_open(pbi_idx_file *f, const uint8_t *data, size_t len, pb_error *err) {
    memset(f, 0, sizeof *f);
    f->data = data;
    f->len = len;
    uint64_t off = 0;
    int rc = read_header(f, err);
    if (!rc) rc = read_summaries(f, &off, err);
    if (rc) return rc;
    f->payload_off = off;
    return read_table_head(f, off, err);
}

int pbi_idx_item_at(const pbi_idx_file *f, uint64_t off, uint64_t limit, pbi_idx_item *it,
                    pb_error *err) {
    uint64_t end;
    if (!pb_add_u64(&end, off, 24) || end > limit)
        return bad(err, PB_ETRUNC, off, "hash_table.item", "24 bytes of KeyHash, KeyLen, DataLen",
                   "the payload ends at 0x%" PRIx64, limit);
    memset(it, 0, sizeof *it);
    it->off = off;
    it->key_hash = u64at(f, off);
    it->key_len = u64at(f, off + 8);
    it->data_len = u64at(f, off + 16);
    it->key_off = off + 24;
    /* KeyLen 0 is read: llvm-profdata merge writes the key "" for a raw
     * record whose NameRef matches no name, and reads it back (validate
     * refuses it: indexed_read.c, strict_key_hashes). */
    if (!pb_add_u64(&it->data_off, it->key_off, it->key_len) || it->data_off > limit)
        return bad(err, PB_ETRUNC, off + 8, "hash_table.item.KeyLen",
                   "a key that ends inside the payload", "%" PRIu64 " bytes from 0x%" PRIx64
                   " (payload ends at 0x%" PRIx64 ")", it->key_len, it->key_off, limit);
    if (!pb_add_u64(&it->end, it->data_off, it->data_len) || it->end > limit)
        return bad(err, PB_ETRUNC, off + 16, "hash_table.item.DataLen",
                   "data that ends inside the payload", "%" PRIu64 " bytes from 0x%" PRIx64
                   " (payload ends at 0x%" PRIx64 ")", it->data_len, it->data_off, limit);
    return 0;
}

/* Where bucket slot `slot` of the table stores its bucket's offset. */
static uint64_t slot_at(const pbi_idx_file *f, uint64_t slot) { return f->table_off + 16 + 8 * slot; }

/* After the walk: every non-zero bucket offset must be one of the walked
 * buckets. Each walked bucket was matched to its own slot, so the counts agree
 * exactly when none dangles; otherwise find the first slot that does (clang's
 * lookup follows it: past the end it crashes, into the payload it misreads). */
static int check_dangling(const pbi_idx_file *f, uint64_t walked, pb_error *err) {
    uint64_t nonzero = 0, mask = f->num_buckets - 1;
    for (uint64_t b = 0; b < f->num_buckets; b++) nonzero += u64at(f, slot_at(f, b)) != 0;
    if (nonzero == walked) return 0;
    for (uint64_t b = 0; b < f->num_buckets; b++) {
        uint64_t v = u64at(f, slot_at(f, b));
        pbi_idx_item it;
        pb_error scratch;
        pb_error_clear(&scratch);
        if (v == 0) continue;
        if (v < f->payload_off || v > f->table_off - 2 || pb_get_u16(f->data + v, PB_ORDER_LE) == 0 ||
            pbi_idx_item_at(f, v + 2, f->table_off, &it, &scratch) || (it.key_hash & mask) != b)
            return bad(err, PB_EFORMAT, slot_at(f, b), "hash_table.BucketOffset",
                       "0 or the offset of a bucket of the payload whose keys hash to this slot",
                       "0x%" PRIx64 " in slot %" PRIu64 " (payload 0x%" PRIx64 "..0x%" PRIx64 ")", v, b,
                       f->payload_off, f->table_off);
    }
    return bad(err, PB_EFORMAT, f->table_off + 8, "hash_table.NumEntries",
               "as many buckets in the payload as non-zero bucket offsets",
               "%" PRIu64 " buckets read, %" PRIu64 " non-zero offsets", walked, nonzero);
}

int pbi_idx_walk(const pbi_idx_file *f, pbi_idx_item_fn fn, void *ctx, pb_error *err) {
    uint64_t pos = f->payload_off, left = f->num_entries, walked = 0, mask = f->num_buckets - 1;
    while (left > 0) {
        if (pos + 2 > f->table_off)
            return bad(err, PB_ETRUNC, pos, "hash_table.bucket", "a u16 item count before the table",
                       "%" PRIu64 " entries still to read", left);
        unsigned count = pb_get_u16(f->data + pos, PB_ORDER_LE);
        if (count == 0 || count > left)
            return bad(err, PB_EFORMAT, pos, "hash_table.bucket.Count",
                       "1 to the number of entries left", "%u (entries left: %" PRIu64 ")", count, left);
        uint64_t boff = pos, slot = 0;
        pos += 2;
        walked++;
        for (unsigned k = 0; k < count; k++) {
            pbi_idx_item it;
            int rc = pbi_idx_item_at(f, pos, f->table_off, &it, err);
            if (rc) return rc;
            /* The bucket array is what a compiler's lookup follows (LLVM's
             * show walks the payload): the two must agree, or a file we call
             * valid crashes clang or loses records in it. */
            if (k == 0) {
                slot = it.key_hash & mask;
                uint64_t stored = u64at(f, slot_at(f, slot));
                if (stored != boff)
                    return bad(err, PB_EFORMAT, slot_at(f, slot), "hash_table.BucketOffset",
                               "the offset of the bucket whose keys hash to this slot",
                               "0x%" PRIx64 " in slot %" PRIu64 " (bucket at 0x%" PRIx64 ")", stored, slot,
                               boff);
            } else if ((it.key_hash & mask) != slot) {
                return bad(err, PB_EFORMAT, pos, "hash_table.item.KeyHash",
                           "a hash of the bucket's slot", "0x%016" PRIx64 " (slot %" PRIu64 ", bucket slot %" PRIu64 ")",
                           it.key_hash, it.key_hash & mask, slot);
            }
            rc = fn(ctx, &it, k == 0 ? boff : PB_NO_OFFSET, count, err);
            if (rc) return rc;
            pos = it.end;
            left--;
        }
    }
    return check_dangling(f, walked, err);
}

int pbi_idx_find(const pbi_idx_file *f, const void *name, size_t len, pbi_idx_item *it,
                 pb_error *err) {
    uint64_t h = pb_md5_ref(name, len);
    uint64_t b = h & (f->num_buckets - 1);
    uint64_t at = f->table_off + 16 + 8 * b;
    uint64_t boff = u64at(f, at);
    if (boff == 0) return PB_ENOTFOUND;
    if (boff < f->payload_off || boff > f->table_off - 2) /* table_off >= 40: no wrap */
        return bad(err, PB_EFORMAT, at, "hash_table.BucketOffset",
                   "an offset inside the payload", "0x%" PRIx64 " (payload 0x%" PRIx64 "..0x%" PRIx64 ")",
                   boff, f->payload_off, f->table_off);
    unsigned count = pb_get_u16(f->data + boff, PB_ORDER_LE);
    uint64_t pos = boff + 2;
    /* A bucket is a run of `count` items; each is >= 24 bytes long, so the
     * scan always moves forward and ends (a chain cannot loop). */
    for (unsigned k = 0; k < count; k++) {
        int rc = pbi_idx_item_at(f, pos, f->table_off, it, err);
        if (rc) return rc;
        if (it->key_hash == h && it->key_len == len && memcmp(f->data + it->key_off, name, len) == 0)
            return 0;
        pos = it->end;
    }
    return PB_ENOTFOUND;
}

/* ------------------------------------------------------------------------ */
/* Records of one key (§3.6, §3.7, §3.14)                                    */

void pbi_idx_scratch_free(pbi_idx_scratch *s) {
    free(s->counters);
    free(s->sites);
    free(s->values);
    free(s->bitmap);
    memset(s, 0, sizeof *s);
}

/* Decodes one ValueProfData at [pos, end) into r's sites. *size = TotalSize. */
static int read_vpd(const pbi_idx_file *f, uint64_t pos, uint64_t end, pb_record *r,
                    pbi_idx_scratch *s, uint64_t *size, pb_error *err) {
    if (pbi_vpd_is_empty(f->data, pos, end, PB_ORDER_LE)) {
        *size = 8;
        return 0;
    }
    pbi_vpd v;
    int rc = pbi_vpd_parse(f->data, pos, end, PB_ORDER_LE, PB_VK_COUNT, "record.ValueProfData", &v, err);
    if (rc) return rc;
    if (s->check_only) {
        *size = v.total;
        return 0;
    }
    if ((rc = pbu_grow_err((void **)&s->sites, &s->sites_cap, (size_t)v.num_sites + 1, sizeof *s->sites, err)) ||
        (rc = pbu_grow_err((void **)&s->values, &s->values_cap, (size_t)v.num_values + 1, sizeof *s->values, err)))
        return rc;
    pbi_vpd_fill(f->data, &v, PB_ORDER_LE, s->sites, s->values, r);
    *size = v.total;
    return 0;
}

/* A record of the function kind with no name, sites or bitmap yet. Every
 * field is set one by one (hash and counters by the reader): a memset
 * compiled to `rep stos`, a quarter of pbi_idx_records (called per key) on
 * big files. */
static void clear_record(pb_record *r) {
    r->kind = PB_REC_FUNCTION;
    r->name = r->ctx = r->layout = PB_NONE;
    r->num_bitmap_bytes = 0;
    r->bitmap = NULL;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        r->num_sites[k] = 0;
        r->sites[k] = NULL;
    }
}

/* NumCounters (v2+; in v1 the rest of the data) and the counters, into the
 * scratch. rec_off: the record's FuncHash offset, *pos just after it. */
static int read_counters(const pbi_idx_file *f, uint64_t rec_off, uint64_t *pos, uint64_t end, pb_record *r,
                         pbi_idx_scratch *s, pb_error *err) {
    uint64_t n;
    if (f->lay.num_counters) {
        if (end - *pos < 8)
            return bad(err, PB_ETRUNC, *pos, "record.NumCounters", "8 bytes", "%" PRIu64, end - *pos);
        n = u64at(f, *pos);
        *pos += 8;
    } else {
        n = (end - *pos) / 8; /* v1: the rest of the data are counters */
    }
    if (n == 0)
        return bad(err, PB_EFORMAT, f->lay.num_counters ? *pos - 8 : rec_off, "record.NumCounters",
                   "at least 1 counter (LLVM's tools crash on 0)", "0");
    if (n > (end - *pos) / 8 || n > UINT32_MAX)
        return bad(err, PB_ETRUNC, *pos - 8, "record.NumCounters", "the counters inside DataLen",
                   "%" PRIu64 " counters, %" PRIu64 " bytes left", n, end - *pos);
    r->num_counters = (uint32_t)n;
    if (s->check_only) {
        *pos += 8 * n;
        r->counters = NULL;
        return 0;
    }
    int rc = pbu_grow_err((void **)&s->counters, &s->counters_cap, (size_t)n, sizeof *s->counters, err);
    if (rc) return rc;
    for (uint64_t i = 0; i < n; i++) s->counters[i] = u64at(f, *pos + 8 * i);
    *pos += 8 * n;
    r->counters = s->counters;
    return 0;
}

/* b bitmap bytes at *pos: packed and padded to 8 (v12+), or one byte
 * zero-extended to 8 each (v11). */
static int read_bitmap_bytes(const pbi_idx_file *f, uint64_t *pos, uint64_t end, uint64_t b, uint8_t *out,
                             pb_error *err) {
    if (f->lay.bitmap_packed) {
        if (b + pb_pad8(b) > end - *pos)
            return bad(err, PB_ETRUNC, *pos, "record.BitmapBytes", "bytes padded to 8", "%" PRIu64 " bytes left",
                       end - *pos);
        memcpy(out, f->data + *pos, (size_t)b);
        *pos += b + pb_pad8(b);
        return 0;
    }
    for (uint64_t i = 0; i < b; i++) {
        uint64_t word = u64at(f, *pos + 8 * i);
        if (word > 0xff)
            return bad(err, PB_EFORMAT, *pos + 8 * i, "record.BitmapByte", "a byte zero-extended to 8 bytes",
                       "0x%" PRIx64, word);
        out[i] = (uint8_t)word;
    }
    *pos += 8 * b;
    return 0;
}

/* NumBitmapBytes and the MC/DC bitmap (v11+), into the scratch. */
static int read_bitmap(const pbi_idx_file *f, uint64_t *pos, uint64_t end, pb_record *r, pbi_idx_scratch *s,
                       pb_error *err) {
    if (end - *pos < 8)
        return bad(err, PB_ETRUNC, *pos, "record.NumBitmapBytes", "8 bytes", "%" PRIu64, end - *pos);
    uint64_t b = u64at(f, *pos);
    *pos += 8;
    uint64_t room = f->lay.bitmap_packed ? end - *pos : (end - *pos) / 8;
    if (b > room || b > UINT32_MAX)
        return bad(err, PB_ETRUNC, *pos - 8, "record.NumBitmapBytes", "the bitmap inside DataLen",
                   "%" PRIu64 " bytes, %" PRIu64 " bytes left", b, end - *pos);
    int rc = pbu_grow_err((void **)&s->bitmap, &s->bitmap_cap, (size_t)b + 1, 1, err);
    if (!rc) rc = read_bitmap_bytes(f, pos, end, b, s->bitmap, err);
    if (rc) return rc;
    r->num_bitmap_bytes = (uint32_t)b;
    r->bitmap = b ? s->bitmap : NULL;
    return 0;
}

/* NumUniformityBytes and the bits (v14): checked and counted, then skipped,
 * as the model has no place for them. */
static int skip_uniformity(const pbi_idx_file *f, uint64_t *pos, uint64_t end, pbi_idx_scratch *s,
                           pb_error *err) {
    if (end - *pos < 8)
        return bad(err, PB_ETRUNC, *pos, "record.NumUniformityBytes", "8 bytes", "%" PRIu64, end - *pos);
    uint64_t u = u64at(f, *pos);
    *pos += 8;
    if (u > end - *pos || u + pb_pad8(u) > end - *pos)
        return bad(err, PB_ETRUNC, *pos - 8, "record.NumUniformityBytes", "the uniformity bits inside DataLen",
                   "%" PRIu64 " bytes, %" PRIu64 " left", u, end - *pos);
    s->uniformity_bytes += u;
    *pos += u + pb_pad8(u);
    return 0;
}

/* One record at *pos: hash, counters and what the version adds after them. */
static int read_record(const pbi_idx_file *f, uint64_t *pos, uint64_t end, pb_record *r, pbi_idx_scratch *s,
                       pb_error *err) {
    uint64_t rec_off = *pos;
    clear_record(r);
    r->hash = u64at(f, *pos);
    *pos += 8;
    int rc = read_counters(f, rec_off, pos, end, r, s, err);
    if (!rc && f->lay.bitmap) rc = read_bitmap(f, pos, end, r, s, err);
    if (!rc && f->lay.uniformity) rc = skip_uniformity(f, pos, end, s, err);
    if (!rc && f->lay.value_data) {
        uint64_t size = 0;
        rc = read_vpd(f, *pos, end, r, s, &size, err);
        *pos += size;
    }
    return rc;
}

int pbi_idx_records(const pbi_idx_file *f, const pbi_idx_item *it, pbi_idx_scratch *s,
                    pbi_idx_record_fn fn, void *ctx, pb_error *err) {
    uint64_t pos = it->data_off, end = it->end;
    if (it->data_len % 8 != 0)
        return bad(err, PB_EFORMAT, it->off + 16, "hash_table.item.DataLen", "a multiple of 8",
                   "%" PRIu64, it->data_len);
    if (it->data_len == 0)
        return bad(err, PB_EFORMAT, it->off + 16, "hash_table.item.DataLen",
                   "at least one record", "0 bytes");
    pb_record r;
    while (pos < end) {
        uint64_t rec_off = pos;
        int rc = read_record(f, &pos, end, &r, s, err);
        if (!rc) rc = fn(ctx, &r, rec_off, err);
        if (rc) return rc;
        if (!f->lay.num_counters) break; /* v1: one record per key */
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Sections                                                                  */

static int add_binary_id(void *ctx, const uint8_t *id, size_t len, uint64_t off, pb_error *err) {
    (void)off;
    return pb_profile_add_binary_id(ctx, id, len, err);
}

/* The offset header word w gives its section (which starts with a u64
 * length): *off = 0 when the version or the file has none. */
static int section_at(const pbi_idx_file *f, enum pbi_idx_word w, uint64_t *off, pb_error *err) {
    *off = pbi_idx_has_word(f->version, w) ? f->w[w] : 0;
    if (*off == 0 || fits(f, *off, 8)) return 0;
    char path[64];
    snprintf(path, sizeof path, "header.%s", pbi_idx_header_fields[w].name);
    return bad(err, PB_EFORMAT, word_at(f->version, w), path, "an offset with 8 bytes left",
               "0x%" PRIx64 " (file size 0x%zx)", *off, f->len);
}

int pbi_idx_read_binary_ids(const pbi_idx_file *f, pb_profile *p, pb_error *err) {
    uint64_t off;
    int rc = section_at(f, PBI_IDX_W_binary_id_offset, &off, err);
    if (rc || off == 0) return rc;
    uint64_t size = u64at(f, off);
    if (size % 8 != 0 || !fits(f, off + 8, size))
        return bad(err, PB_EFORMAT, off, "binary_ids.SectionSize",
                   "a multiple of 8 that fits in the file", "%" PRIu64, size);
    return pbi_binary_ids_decode(f->data, off + 8, off + 8 + size, PB_ORDER_LE, "binary_ids", add_binary_id, p, err);
}

int pbi_idx_read_traces(const pbi_idx_file *f, pb_profile *p, pb_error *err) {
    if (f->version < PBI_IDX_TRACES_SINCE || !(f->flags & PB_VARIANT_TEMPORAL)) return 0;
    uint64_t off = f->w[PBI_IDX_W_temporal_offset];
    if (off == 0 || !fits(f, off, 16))
        return bad(err, PB_EFORMAT, word_at(f->version, PBI_IDX_W_temporal_offset), "header.TemporalProfTracesOffset",
                   "an offset with 16 bytes left (the temporal flag is set)",
                   "0x%" PRIx64 " (file size 0x%zx)", off, f->len);
    uint64_t num = u64at(f, off), stream = u64at(f, off + 8);
    uint64_t pos = off + 16;
    if (num > (f->len - pos) / 16)
        return bad(err, PB_ETRUNC, off, "traces.NumTraces", "traces that fit in the file",
                   "%" PRIu64, num);
    if (stream > PB_MAX_TRACE_STREAM)
        return bad(err, PB_EFORMAT, off + 8, "traces.StreamSize", "at most 2^28 runs (PB_MAX_TRACE_STREAM)",
                   "%" PRIu64, stream);
    pb_profile_set_trace_stream_size(p, stream);
    for (uint64_t t = 0; t < num; t++) {
        if (!fits(f, pos, 16))
            return bad(err, PB_ETRUNC, pos, "traces.Weight", "16 bytes of Weight and NumFunctions",
                       "%zu left", (size_t)(f->len - pos));
        uint64_t weight = u64at(f, pos), n = u64at(f, pos + 8);
        pos += 16;
        if (n > (f->len - pos) / 8)
            return bad(err, PB_ETRUNC, pos - 8, "traces.NumFunctions", "NameRefs inside the file",
                       "%" PRIu64, n);
        uint64_t *refs = malloc((size_t)(n ? n : 1) * sizeof *refs);
        if (!refs) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        for (uint64_t i = 0; i < n; i++) refs[i] = u64at(f, pos + 8 * i);
        pos += 8 * n;
        int rc = pb_profile_add_trace(p, weight, refs, (size_t)n, err);
        free(refs);
        if (rc) return rc;
    }
    return 0;
}

int pbi_idx_vtable_names_frame(const pbi_idx_file *f, uint64_t *off, uint64_t *len, pb_error *err) {
    *len = 0;
    int rc = section_at(f, PBI_IDX_W_vtable_names_offset, off, err);
    if (rc || *off == 0) return rc;
    *len = u64at(f, *off);
    if (!fits(f, *off + 8, *len))
        return bad(err, PB_ETRUNC, *off, "vtable_names.Len", "a blob inside the file", "%" PRIu64, *len);
    return 0;
}

int pbi_idx_vtable_names(const pbi_idx_file *f, pbi_idx_name_fn fn, void *ctx, pb_error *err) {
    uint64_t off, n;
    int rc = pbi_idx_vtable_names_frame(f, &off, &n, err);
    if (rc || off == 0) return rc;
    return pbi_names_decode(f->data + off + 8, (size_t)n, off + 8, "vtable_names", fn, ctx, err);
}
