/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_correlate.c -- --binary-file correlation (src/llvm/correlate_elf.c,
 * formats/raw/raw_correlate.c) on ELF files made here byte by byte, 64-bit
 * little-endian and 32-bit big-endian: a lightweight raw profile (counters
 * only) read with the "binary-file" option gives the records the binary's
 * __llvm_covdata describes, with the counts of the profile (hand-computed),
 * a record sharing another's counters dropped; and the errors name the file.
 * (The DWARF side is checked against real clang builds by
 * tests/interop/correlate_llvm.sh.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/bytes.h"
#include "llvm/names.h"
#include "profbridge/profbridge.h"
#include "testutil.h"
#include "../../formats/raw/raw_layout.h"

#define CNTS_ADDR 0x4000u

static void put(uint8_t *p, unsigned size, uint64_t v, int order) {
    if (size == 2) pb_put_u16(p, (uint16_t)v, order);
    else if (size == 4) pb_put_u32(p, (uint32_t)v, order);
    else pb_put_u64(p, v, order);
}

typedef struct sec {
    const char *name;
    uint32_t type;
    uint64_t addr;
    const uint8_t *data;
    size_t size;
} sec;

/* An ELF file of class ptr (4/8) and byte order `order` holding secs; returns its path. */
static char *write_elf(unsigned ptr, int order, const sec *secs, size_t n) {
    uint8_t buf[4096];
    memset(buf, 0, sizeof buf);
    unsigned eh = ptr == 8 ? 64 : 52, sh = ptr == 8 ? 64 : 40, w = ptr;
    /* section contents after the header, then the names, then the section headers */
    size_t pos = eh, off[8];
    char shstr[256] = "";
    size_t shlen = 1, name_at[8];
    for (size_t i = 0; i < n; i++) {
        off[i] = pos;
        memcpy(buf + pos, secs[i].data, secs[i].size);
        pos += (secs[i].size + 7) & ~(size_t)7;
        name_at[i] = shlen;
        memcpy(shstr + shlen, secs[i].name, strlen(secs[i].name) + 1);
        shlen += strlen(secs[i].name) + 1;
    }
    memcpy(shstr + shlen, ".shstrtab", 10);
    size_t shstr_name = shlen, shstr_off = pos;
    shlen += 10;
    memcpy(buf + pos, shstr, shlen);
    pos = (pos + shlen + 7) & ~(size_t)7;
    size_t shoff = pos, shnum = n + 2;
    memcpy(buf, "\x7f" "ELF", 4);
    buf[4] = ptr == 8 ? 2 : 1;
    buf[5] = order == PB_ORDER_LE ? 1 : 2;
    buf[6] = 1;
    put(buf + 16, 2, 2, order);                 /* e_type: ET_EXEC */
    put(buf + 18, 2, ptr == 8 ? 62 : 20, order); /* e_machine: x86-64, PowerPC */
    put(buf + 20, 4, 1, order);                 /* e_version */
    put(buf + 24 + 2 * w, w, shoff, order);     /* e_shoff (after e_entry, e_phoff) */
    uint8_t *t = buf + 24 + 3 * w + 4;          /* after e_flags */
    put(t, 2, eh, order);
    put(t + 6, 2, sh, order);     /* e_shentsize (after e_phentsize, e_phnum) */
    put(t + 8, 2, shnum, order);  /* e_shnum */
    put(t + 10, 2, n + 1, order); /* e_shstrndx */
    for (size_t i = 1; i < shnum; i++) {
        uint8_t *h = buf + shoff + i * sh;
        int last = i == n + 1;
        uint64_t name = last ? shstr_name : name_at[i - 1], type = last ? 3 : secs[i - 1].type;
        uint64_t addr = last ? 0 : secs[i - 1].addr, o = last ? shstr_off : off[i - 1];
        uint64_t size = last ? shlen : secs[i - 1].size;
        put(h, 4, name, order);
        put(h + 4, 4, type, order);
        /* sh_flags, sh_addr, sh_offset, sh_size: words of the class */
        put(h + 8 + w, w, addr, order);
        put(h + 8 + 2 * w, w, o, order);
        put(h + 8 + 3 * w, w, size, order);
        put(h + 8 + 4 * w + 8, w, 1, order); /* sh_addralign, after sh_link and sh_info */
    }
    pos = shoff + shnum * sh;
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/pb-correlate-%ld-%u.elf", (long)getpid(), ptr);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(buf, 1, pos, f), pos);
    fclose(f);
    return path;
}

/* Reads raw[0..len) with the read option key=path. */
static int read_with(const uint8_t *raw, size_t len, const char *key, const char *path, pb_profile **p, char *msg) {
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_kv kv = {key, path};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    ro.kv = &kv;
    ro.nkv = 1;
    *p = NULL;
    msg[0] = 0;
    int rc = pb_source_open_memory(&src, raw, len, "t.profraw", &err);
    if (rc == 0) rc = pb_read(p, src, &ro, &err);
    if (rc) pb_error_format(&err, msg, 512);
    pb_source_free(src);
    return rc;
}

static const pb_record *find(const pb_profile *p, const char *name) {
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        size_t n;
        const char *s = pb_profile_str(p, r->name, &n);
        if (s && n == strlen(name) && memcmp(s, name, n) == 0) return r;
    }
    return NULL;
}

/* The public calls (profbridge/correlate.h) on the same files: merge's
 * check passes for the binary (bad options refused) ... */
static void public_check_passes(const char *bin) {
    pb_error err;
    pb_correlate_options o;
    CU_ASSERT_EQUAL(pb_correlate_options_init(&o, PB_CORRELATE_OPTIONS_VERSION + 1), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_correlate_options_init(&o, PB_CORRELATE_OPTIONS_VERSION), PB_OK);
    o.kind = PB_CORRELATE_BINARY;
    CU_ASSERT_EQUAL(pb_correlate_check(bin, &o, &err), 0);
    CU_ASSERT_EQUAL(err.code, 0);
    o.llvm_release = pb_release_max();
    CU_ASSERT_EQUAL(pb_correlate_check(bin, &o, &err), 0);
    o.kind = 3;
    CU_ASSERT_EQUAL(pb_correlate_check(bin, &o, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "kind");
    o.kind = PB_CORRELATE_BINARY;
    o.llvm_release = pb_release_max() + 1;
    CU_ASSERT_EQUAL(pb_correlate_check(bin, &o, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "llvm_release");
    o.llvm_release = 0;
    o.version = 0;
    CU_ASSERT_EQUAL(pb_correlate_check(bin, &o, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_correlate_check(NULL, NULL, &err), PB_EINVAL);
    pb_sink *mem = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&mem, &err), 0);
    pb_correlate_options b = PB_CORRELATE_OPTIONS_INIT;
    b.kind = PB_CORRELATE_BINARY;
    CU_ASSERT_EQUAL(pb_correlate_show(mem, bin, &b, &err), PB_EINVAL); /* a listing of debug info only */
    pb_sink_free(mem);
}

/* ... and names what a binary without __llvm_covdata lacks, in
 * llvm-profdata's words; show --debug-info's YAML says "in debug info" where
 * the loader says "in correlated file" (as LLVM's DWARF correlator does);
 * nothing is written by a failed listing. */
static void public_calls(const char *nocov) {
    pb_error err;
    pb_correlate_options o = PB_CORRELATE_OPTIONS_INIT;
    o.kind = PB_CORRELATE_BINARY;
    CU_ASSERT_EQUAL(pb_correlate_check(nocov, &o, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "could not find section (__llvm_covdata)"));
    CU_ASSERT_STRING_EQUAL(err.source, nocov);
    CU_ASSERT_EQUAL(pb_correlate_check("/no/such/binary", &o, &err), PB_EIO);
    o.kind = PB_CORRELATE_DEBUG_INFO;
    CU_ASSERT_EQUAL(pb_correlate_check(nocov, &o, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "metadata in correlated file"));

    pb_sink *mem = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&mem, &err), 0);
    CU_ASSERT_EQUAL(pb_correlate_show(mem, nocov, &o, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "metadata in correlated file"));
    o.style = PB_CORRELATE_YAML;
    CU_ASSERT_EQUAL(pb_correlate_show(mem, nocov, &o, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "metadata in debug info"));
    CU_ASSERT_PTR_NULL(strstr(err.message, "correlated file"));
    o.style = 5;
    CU_ASSERT_EQUAL(pb_correlate_show(mem, nocov, &o, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_correlate_show(NULL, nocov, NULL, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_correlate_show(mem, NULL, NULL, &err), PB_EINVAL);
    size_t len = 1;
    (void)pb_sink_memory(mem, &len);
    CU_ASSERT_EQUAL(len, 0);
    pb_sink_free(mem);
}

static void correlates(unsigned ptr, int order) {
    pbi_raw_layout l;
    CU_ASSERT_FATAL(pbi_raw_layout_get(&l, 10, ptr) == 0);
    /* the binary: main (2 counters at +0), f (1 counter at +16), and a
     * record sharing main's counters (dropped, as LLVM's correlator does) */
    uint8_t data[3 * 128];
    memset(data, 0, sizeof data);
    struct { const char *name; uint64_t hash, at; uint32_t n; } fn[3] = {
        {"main", 0x1111, 0, 2}, {"f", 0x2222, 16, 1}, {"dup", 0x3333, 0, 2}};
    for (int i = 0; i < 3; i++) {
        uint8_t *rec = data + i * l.record_size;
        pbi_raw_rec_put(&l, rec, PBI_RD_NameRef, 0, pb_md5_ref(fn[i].name, strlen(fn[i].name)), order);
        pbi_raw_rec_put(&l, rec, PBI_RD_FuncHash, 0, fn[i].hash, order);
        pbi_raw_rec_put(&l, rec, PBI_RD_CounterPtr, 0, CNTS_ADDR + fn[i].at, order);
        pbi_raw_rec_put(&l, rec, PBI_RD_NumCounters, 0, fn[i].n, order);
    }
    pb_buf names = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_FATAL(pbi_names_encode("main\x01" "f\x01" "dup", 10, 0, &names, &err) == 0);
    uint8_t cnts[24] = {0};
    sec secs[3] = {{"__llvm_prf_cnts", 1, CNTS_ADDR, cnts, sizeof cnts},
                   {"__llvm_covdata", 1, 0, data, 3 * l.record_size},
                   {"__llvm_covnames", 1, 0, (const uint8_t *)names.data, names.len}};
    char *bin = write_elf(ptr, order, secs, 3);
    public_check_passes(bin);
    /* the lightweight profile: header and 3 counters 7, 5, 9 */
    uint8_t raw[512];
    memset(raw, 0, sizeof raw);
    pbi_raw_header h;
    memset(&h, 0, sizeof h);
    h.f[PBI_RH_Magic] = ptr == 8 ? PBI_RAW_MAGIC64 : PBI_RAW_MAGIC32;
    h.f[PBI_RH_Version] = 10 | PB_VARIANT_IR;
    h.f[PBI_RH_NumCounters] = 3;
    pbi_raw_header_encode(&l, &h, order, raw);
    uint64_t counts[3] = {7, 5, 9};
    for (int i = 0; i < 3; i++) pb_put_u64(raw + l.header_size + 8 * i, counts[i], order);
    size_t len = l.header_size + 24;

    pb_profile *p;
    char msg[512];
    CU_ASSERT_EQUAL(read_with(raw, len, "binary-file", bin, &p, msg), 0);
    if (msg[0]) fprintf(stderr, "\n  %s\n", msg);
    if (p) {
        CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
        const pb_record *m = find(p, "main"), *f = find(p, "f");
        CU_ASSERT_PTR_NOT_NULL(m);
        CU_ASSERT_PTR_NOT_NULL(f);
        CU_ASSERT_PTR_NULL(find(p, "dup"));
        if (m && f) {
            CU_ASSERT_EQUAL(m->hash, 0x1111);
            CU_ASSERT_EQUAL(m->num_counters, 2);
            CU_ASSERT_EQUAL(m->counters[0], 7);
            CU_ASSERT_EQUAL(m->counters[1], 5);
            CU_ASSERT_EQUAL(f->num_counters, 1);
            CU_ASSERT_EQUAL(f->counters[0], 9);
        }
        pb_profile_free(p);
    }
    /* a complete raw profile (a data record before the counters) with the option: LLVM's refusal */
    h.f[PBI_RH_NumData] = 1;
    pbi_raw_header_encode(&l, &h, order, raw);
    CU_ASSERT_NOT_EQUAL(read_with(raw, len + l.record_size, "binary-file", bin, &p, msg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "debug info/binary for correlation is not necessary"));
    pb_profile_free(p);
    /* the other byte order or width: the profile and binary do not match */
    h.f[PBI_RH_NumData] = 0;
    pbi_raw_header_encode(&l, &h, order == PB_ORDER_LE ? PB_ORDER_BE : PB_ORDER_LE, raw);
    CU_ASSERT_NOT_EQUAL(read_with(raw, len, "binary-file", bin, &p, msg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "profile and binary do not match"));
    pb_profile_free(p);
    /* a binary without __llvm_covdata; not an object; no file */
    char *nocov = NULL;
    {
        sec one[1] = {secs[0]};
        nocov = write_elf(ptr, order, one, 1);
    }
    pbi_raw_header_encode(&l, &h, order, raw);
    CU_ASSERT_NOT_EQUAL(read_with(raw, len, "binary-file", nocov, &p, msg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "could not find section (__llvm_covdata)"));
    CU_ASSERT_EQUAL(strncmp(msg, nocov, strlen(nocov)), 0); /* the binary is named */
    pb_profile_free(p);
    CU_ASSERT_NOT_EQUAL(read_with(raw, len, "debug-info", nocov, &p, msg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "could not find any profile data metadata in correlated file"));
    pb_profile_free(p);
    CU_ASSERT_NOT_EQUAL(read_with(raw, len, "binary-file", "/no/such/binary", &p, msg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "/no/such/binary: No such file or directory"));
    pb_profile_free(p);
    public_calls(nocov);
    unlink(nocov);
    free(nocov);
    unlink(bin);
    free(bin);
    pbu_buf_free(&names);
}

static void correlate__binary_file_64_bit_little_endian(void) { correlates(8, PB_ORDER_LE); }
static void correlate__binary_file_32_bit_big_endian(void) { correlates(4, PB_ORDER_BE); }

static CU_TestInfo tests[] = {
    {"correlate__binary_file_64_bit_little_endian", correlate__binary_file_64_bit_little_endian},
    {"correlate__binary_file_32_bit_big_endian", correlate__binary_file_32_bit_big_endian},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_correlate[] = {{"correlate", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
