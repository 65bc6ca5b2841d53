/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_elf.c -- the ELF half of the coverage reader (cov_read.h): finds
 * __llvm_covmap, __llvm_covfun (all of them, concatenated and each padded
 * to 8 bytes as llvm-cov's loadBinaryFormat does) and __llvm_prf_names, the
 * byte order, the machine (-arch) and the value of __llvm_profile_raw_version
 * (which tells a clang-18 MC/DC binary from a clang-19+ one).
 *
 * libelf reads the headers and symbol tables of our own copy of the file;
 * section bytes are taken from the copy after our own bounds check. A
 * SHF_COMPRESSED section is inflated into a buffer whose size is checked
 * first: against the bound, and against what zlib can produce at all from
 * that many bytes, so a lying ch_size cannot make us allocate.
 */
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "coverage/cov_read.h"
#include "util/grow.h"
#include "util/hugepage.h"

#ifndef EM_HEXAGON
#define EM_HEXAGON 164
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

static int libelf_ready;
static void libelf_init(void) { libelf_ready = elf_version(EV_CURRENT) != EV_NONE; }

uint32_t pbi_cov_u32(const pbi_cov_elf *o, const uint8_t *p) {
    return o->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                         : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

uint64_t pbi_cov_u64(const pbi_cov_elf *o, const uint8_t *p) {
    uint64_t a = pbi_cov_u32(o, p), b = pbi_cov_u32(o, p + 4);
    return o->big_endian ? a << 32 | b : b << 32 | a;
}

static int bad(pb_error *err, const char *name, const char *sec, uint64_t off, const char *expected,
               const char *found) {
    int rc = pb_error_set_ef(err, PB_EFORMAT, off, sec, expected, found);
    pb_error_set_source(err, name);
    return rc;
}

/* LLVM Triple arch names for -arch, and an ELF machine's arch as
 * ELFObjectFile::getArch names it; "" when we do not know it. */
static const char *arch_of_name(const char *a) {
    static const struct { const char *name, *arch; } t[] = {
        {"i386", "x86"}, {"i486", "x86"}, {"i586", "x86"}, {"i686", "x86"}, {"i786", "x86"}, {"i886", "x86"},
        {"i986", "x86"}, {"amd64", "x86_64"}, {"x86_64", "x86_64"}, {"x86_64h", "x86_64"},
        {"arm64", "aarch64"}, {"aarch64", "aarch64"}, {"arm64e", "aarch64"}, {"aarch64_be", "aarch64_be"},
        {"arm", "arm"}, {"armeb", "armeb"}, {"thumb", "thumb"}, {"riscv32", "riscv32"}, {"riscv64", "riscv64"},
        {"powerpc", "ppc"}, {"ppc", "ppc"}, {"ppc32", "ppc"}, {"powerpcle", "ppcle"}, {"ppcle", "ppcle"},
        {"powerpc64", "ppc64"}, {"ppc64", "ppc64"}, {"ppu", "ppc64"}, {"powerpc64le", "ppc64le"},
        {"ppc64le", "ppc64le"}, {"mips", "mips"}, {"mipseb", "mips"}, {"mipsel", "mipsel"}, {"mips64", "mips64"},
        {"mips64el", "mips64el"}, {"s390x", "systemz"}, {"systemz", "systemz"}, {"sparc", "sparc"},
        {"sparcel", "sparcel"}, {"sparcv9", "sparcv9"}, {"sparc64", "sparcv9"}, {"loongarch32", "loongarch32"},
        {"loongarch64", "loongarch64"}, {"hexagon", "hexagon"}, {"bpfel", "bpfel"}, {"bpfeb", "bpfeb"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].name, a) == 0) return t[i].arch;
    if (strncmp(a, "armv", 4) == 0) return "arm";
    if (strncmp(a, "thumbv", 6) == 0) return "thumb";
    return NULL;
}

static const char *arch_of_elf(unsigned m, int is64, int be) {
    switch (m) {
    case EM_386: case EM_IAMCU: return "x86";
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return be ? "aarch64_be" : "aarch64";
    case EM_ARM: return be ? "armeb" : "arm";
    case EM_PPC: return be ? "ppc" : "ppcle";
    case EM_PPC64: return be ? "ppc64" : "ppc64le";
    case EM_RISCV: return is64 ? "riscv64" : "riscv32";
    case EM_MIPS: return is64 ? (be ? "mips64" : "mips64el") : (be ? "mips" : "mipsel");
    case EM_S390: return "systemz";
    case EM_SPARC: return be ? "sparc" : "sparcel";
    case EM_SPARCV9: return "sparcv9";
    case EM_LOONGARCH: return is64 ? "loongarch64" : "loongarch32";
    case EM_HEXAGON: return "hexagon";
    case EM_BPF: return be ? "bpfeb" : "bpfel";
    default: return "";
    }
}

/* Inflates a SHF_COMPRESSED section's stored bytes raw[0..n) (Elf_Chdr +
 * zlib stream) into an owned buffer. */
static int inflate_section(pbi_cov_elf *o, const char *sec, const uint8_t *raw, size_t n, uint64_t bound,
                           uint8_t **out, size_t *outlen, pb_error *err) {
    size_t hdr = o->is64 ? 24 : 12;
    if (n < hdr) return bad(err, o->name, sec, 0, "a compression header (Elf_Chdr)", "fewer bytes");
    uint32_t type = pbi_cov_u32(o, raw);
    uint64_t size = o->is64 ? pbi_cov_u64(o, raw + 8) : pbi_cov_u32(o, raw + 4);
    if (type != ELFCOMPRESS_ZLIB) {
        char f[64];
        snprintf(f, sizeof f, "ch_type %u", (unsigned)type);
        return bad(err, o->name, sec, 0, "ELFCOMPRESS_ZLIB (1)", f);
    }
    /* deflate cannot expand more than 1032:1: a bigger ch_size is a lie */
    uint64_t most = (uint64_t)(n - hdr) * 1032u + 64u;
    if (size > bound || size > most || size > SIZE_MAX - 1) {
        char e[96], f[64];
        snprintf(e, sizeof e, "an inflated size <= %llu", (unsigned long long)(bound < most ? bound : most));
        snprintf(f, sizeof f, "ch_size %llu", (unsigned long long)size);
        return bad(err, o->name, sec, o->is64 ? 8 : 4, e, f);
    }
    uint8_t *buf = malloc(size ? (size_t)size : 1);
    if (!buf) return pbu_nomem(err, sec);
    uLongf got = (uLongf)size;
    int z = uncompress(buf, &got, raw + hdr, (uLong)(n - hdr));
    if (z != Z_OK || got != size) {
        free(buf);
        return bad(err, o->name, sec, hdr, "a zlib stream of ch_size bytes", z != Z_OK ? zError(z) : "fewer bytes");
    }
    *out = buf;
    *outlen = (size_t)size;
    return 0;
}

static void keep(pbi_cov_elf *o, uint8_t *p) {
    for (size_t i = 0; i < 4; i++)
        if (!o->owned[i]) {
            o->owned[i] = p;
            return;
        }
    free(p); /* cannot happen: at most four owned buffers */
}

/* The stored bytes of section s (bounds-checked), inflated when compressed. */
static int section_data(pbi_cov_elf *o, const GElf_Shdr *sh, const char *sec, size_t flen, uint64_t bound,
                        const uint8_t **d, size_t *n, int *compressed, uint8_t **own, pb_error *err) {
    *own = NULL;
    *d = o->image;
    *n = 0;
    *compressed = 0;
    if (sh->sh_type == SHT_NOBITS) return 0;
    if (sh->sh_offset > flen || sh->sh_size > flen - sh->sh_offset) {
        char f[96];
        snprintf(f, sizeof f, "offset %llu + size %llu, file of %zu bytes", (unsigned long long)sh->sh_offset,
                 (unsigned long long)sh->sh_size, flen);
        return bad(err, o->name, sec, PB_NO_OFFSET, "a section inside the file", f);
    }
    *d = o->image + sh->sh_offset;
    *n = (size_t)sh->sh_size;
    if (sh->sh_flags & SHF_COMPRESSED) {
        uint8_t *buf = NULL;
        int rc = inflate_section(o, sec, *d, *n, bound, &buf, n, err);
        if (rc) return rc;
        *own = buf;
        *d = buf;
        *compressed = 1;
    }
    return 0;
}

/* The value of __llvm_profile_raw_version (8 bytes in its section), 0 when absent. */
static void raw_version(pbi_cov_elf *o, Elf *e, size_t flen) {
    for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(s, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)) continue;
        Elf_Data *d = elf_getdata(s, NULL);
        if (!d || !sh.sh_entsize) continue;
        size_t nsym = d->d_size / (o->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
        for (size_t i = 0; i < nsym; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym)) break;
            const char *n = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!n || strcmp(n, PBI_RAW_VERSION_SYM) != 0) continue;
            if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE) continue;
            Elf_Scn *vs = elf_getscn(e, sym.st_shndx);
            GElf_Shdr vh;
            if (!vs || !gelf_getshdr(vs, &vh) || vh.sh_type == SHT_NOBITS || (vh.sh_flags & SHF_COMPRESSED))
                continue;
            uint64_t at = o->type == ET_REL ? sym.st_value : sym.st_value - vh.sh_addr;
            if (o->type != ET_REL && sym.st_value < vh.sh_addr) continue;
            if (at > vh.sh_size || vh.sh_size - at < 8 || vh.sh_offset > flen || flen - vh.sh_offset < vh.sh_size)
                continue;
            o->raw_version_full = pbi_cov_u64(o, o->image + vh.sh_offset + at);
            o->raw_version = (uint32_t)o->raw_version_full;
            return;
        }
    }
}

static int find_sections(pbi_cov_elf *o, Elf *e, size_t shstrndx, size_t flen, uint64_t bound, pb_error *err) {
    /* __llvm_covfun: the sizes first (each padded to 8), then the copy */
    uint64_t total = 0;
    uint8_t *cat = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && o->ncovfun) {
            cat = calloc(1, total ? (size_t)total : 1);
            if (!cat) return pbu_nomem(err, PBI_SEC_COVFUN);
            pbu_hugepage_hint(cat, (size_t)total); /* written whole just below */
            keep(o, cat);
            o->covfun.d = cat;
            o->covfun.len = (size_t)total;
            o->covfun.present = 1;
        }
        size_t at = 0;
        for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(s, &sh)) continue;
            const char *n = elf_strptr(e, shstrndx, sh.sh_name);
            if (!n) continue;
            const uint8_t *d;
            size_t len;
            int comp, rc;
            uint8_t *own = NULL;
            if (pass == 0 && strcmp(n, PBI_SEC_COVMAP) == 0) {
                if (o->ncovmap++) continue;
                if ((rc = section_data(o, &sh, PBI_SEC_COVMAP, flen, bound, &d, &len, &comp, &own, err))) return rc;
                if (own) keep(o, own);
                o->covmap = (pbi_cov_bytes){d, len, 1, sh.sh_offset, comp};
            } else if (pass == 0 && (strcmp(n, PBI_SEC_NAMES) == 0 || strcmp(n, PBI_SEC_COVNAMES) == 0)) {
                int cn = strcmp(n, PBI_SEC_COVNAMES) == 0;
                /* llvm-cov takes __llvm_prf_names, and __llvm_covnames only without it */
                if (cn && o->nnames && !o->names_is_covnames) continue;
                if (!cn && o->names_is_covnames) o->nnames = 0;
                if (o->nnames++) continue;
                o->names_is_covnames = cn;
                if ((rc = section_data(o, &sh, n, flen, bound, &d, &len, &comp, &own, err))) return rc;
                if (own) keep(o, own);
                o->names = (pbi_cov_bytes){d, len, 1, sh.sh_offset, comp};
            } else if (strcmp(n, PBI_SEC_COVFUN) == 0) {
                if ((rc = section_data(o, &sh, PBI_SEC_COVFUN, flen, bound, &d, &len, &comp, &own, err))) return rc;
                if (pass == 0) {
                    free(own);
                    if (!o->ncovfun++) o->covfun.file_off = sh.sh_offset;
                    total += ((uint64_t)len + 7) & ~(uint64_t)7;
                    if (total > bound || total > SIZE_MAX / 2)
                        return bad(err, o->name, PBI_SEC_COVFUN, PB_NO_OFFSET, "sections within the bound",
                                   "more bytes");
                } else {
                    if (len > total - at) {
                        free(own);
                        return bad(err, o->name, PBI_SEC_COVFUN, at, "the size read before", "more bytes");
                    }
                    if (len) memcpy(cat + at, d, len);
                    if (comp) o->covfun.compressed = 1;
                    free(own);
                    at += (len + 7) & ~(size_t)7;
                }
            }
        }
    }
    return 0;
}

static unsigned u16_at(int big_endian, const uint8_t *p) {
    return big_endian ? (unsigned)p[0] << 8 | p[1] : (unsigned)p[1] << 8 | p[0];
}

/* ELFFile::sections' checks of the section header table, which llvm-cov
 * makes before it looks at a section (libelf takes some of these files,
 * or finds no section in them: "no coverage data found" was printed for a
 * truncated binary). 0, or PB_EFORMAT with err->message in llvm-cov's
 * words (the same in 13-24: checked with truncated and patched binaries,
 * tests/interop/cov_elf_header.sh). A header of an unknown class or byte
 * order, or too short, is left to libelf. */
static int section_table_check(pbi_cov_elf *o, const uint8_t *d, size_t len, pb_error *err) {
    if (len < EI_NIDENT) return 0; /* the magic may be all there is */
    int is64 = d[EI_CLASS] == ELFCLASS64;
    if ((!is64 && d[EI_CLASS] != ELFCLASS32) || (d[EI_DATA] != ELFDATA2LSB && d[EI_DATA] != ELFDATA2MSB) ||
        len < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
        return 0;
    o->big_endian = d[EI_DATA] == ELFDATA2MSB;
    uint64_t shoff = is64 ? pbi_cov_u64(o, d + 0x28) : pbi_cov_u32(o, d + 0x20);
    unsigned entsize = u16_at(o->big_endian, d + (is64 ? 0x3a : 0x2e));
    unsigned shnum = u16_at(o->big_endian, d + (is64 ? 0x3c : 0x30));
    uint64_t shdr = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    int rc = 0;
    if (shoff == 0) return 0; /* no sections: no coverage data, said later */
    if (entsize != shdr) {
        rc = pb_error_set(err, PB_EFORMAT, is64 ? 0x3a : 0x2e, NULL, "invalid e_shentsize in ELF header: %u", entsize);
    } else if (shoff > (uint64_t)len || (uint64_t)len - shoff < shdr) {
        rc = pb_error_set(err, PB_EFORMAT, is64 ? 0x28 : 0x20, NULL,
                          "section header table goes past the end of the file: e_shoff = 0x%llx",
                          (unsigned long long)shoff);
    } else {
        /* e_shnum 0: the count is the first (NULL) section's sh_size */
        uint64_t n = shnum ? shnum : is64 ? pbi_cov_u64(o, d + shoff + 32) : pbi_cov_u32(o, d + shoff + 20);
        if (n > UINT64_MAX / shdr)
            rc = pb_error_set(err, PB_EFORMAT, shoff, NULL,
                              "invalid number of sections specified in the NULL section's sh_size field (%llu)",
                              (unsigned long long)n);
        else if (shoff + n * shdr < shoff)
            rc = pb_error_set(err, PB_EFORMAT, shoff, NULL,
                              "invalid section header table offset (e_shoff = 0x%llx) or invalid number of "
                              "sections specified in the first section header's sh_size field (0x%llx)",
                              (unsigned long long)shoff, (unsigned long long)n);
        else if (shoff + n * shdr > (uint64_t)len)
            rc = pb_error_set(err, PB_EFORMAT, shoff, NULL, "section table goes past the end of file");
    }
    if (rc) pb_error_set_source(err, o->name);
    return rc;
}

/* data is copied when `writable` is NULL; else writable is data itself,
 * memory libelf may write into (elf_memory reads it as
 * ELF_C_READ_MMAP_PRIVATE). */
static int open_image(pbi_cov_elf *o, const uint8_t *data, uint8_t *writable, size_t len, const char *name,
                      const pbi_cov_read_options *opt, pb_error *err) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    memset(o, 0, sizeof *o);
    o->name = name ? name : "<memory>";
    pthread_once(&once, libelf_init);
    if (!libelf_ready) return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "libelf: %s", elf_errmsg(-1));
    if (len < 4 || memcmp(data, ELFMAG, 4) != 0) {
        int rc = pb_error_set(err, PB_EFORMAT, 0, NULL, "The file was not recognized as a valid object file");
        pb_error_set_source(err, o->name);
        return rc;
    }
    int rc0 = section_table_check(o, data, len, err);
    if (rc0) return rc0;
    if (writable) {
        o->image = writable;
        o->image_borrowed = 1;
    } else {
        o->image = malloc(len);
        if (!o->image) return pbu_nomem(err, o->name);
        memcpy(o->image, data, len);
    }
    Elf *e = elf_memory((char *)o->image, len);
    GElf_Ehdr eh;
    size_t shstrndx;
    int rc = 0;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx) != 0) {
        int fresh = err && !err->code;
        int le = elf_errno();
        /* libelf's own allocation failed (ELF_E_NOMEM is not in its public
         * header; its message is): out of memory, not a bad object */
        if (le && strcmp(elf_errmsg(le), "out of memory") == 0) {
            rc = pbu_nomem(err, o->name);
            goto out;
        }
        rc = pb_error_set_ef(err, PB_EFORMAT, 0, NULL, "an ELF object libelf can read",
                             le ? elf_errmsg(le) : "an ELF header libelf does not take");
        if (fresh) snprintf(err->message, sizeof err->message, "The file was not recognized as a valid object file");
        pb_error_set_source(err, o->name);
        goto out;
    }
    o->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    o->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    o->machine = eh.e_machine;
    o->type = eh.e_type;
    if (opt && opt->arch) {
        const char *want = arch_of_name(opt->arch);
        if (!want) {
            rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "arch", "unknown architecture: %s", opt->arch);
            goto out;
        }
        if (strcmp(want, arch_of_elf(o->machine, o->is64, o->big_endian)) != 0) {
            rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, "arch", "No object file for requested architecture");
            pb_error_set_source(err, o->name);
            goto out;
        }
    }
    uint64_t bound = opt && opt->max_inflation ? opt->max_inflation : PBI_COV_MAX_INFLATION;
    if ((rc = find_sections(o, e, shstrndx, len, bound, err))) goto out;
    raw_version(o, e, len);
out:
    if (e) elf_end(e);
    if (rc) pbi_cov_elf_close(o);
    return rc;
}

int pbi_cov_elf_open(pbi_cov_elf *o, const uint8_t *data, size_t len, const char *name,
                     const pbi_cov_read_options *opt, pb_error *err) {
    return open_image(o, data, NULL, len, name, opt, err);
}

int pbi_cov_elf_open_in_place(pbi_cov_elf *o, uint8_t *image, size_t len, const char *name,
                              const pbi_cov_read_options *opt, pb_error *err) {
    return open_image(o, image, image, len, name, opt, err);
}

uint8_t *pbi_cov_elf_take_covfun(pbi_cov_elf *o) {
    for (size_t i = 0; o->covfun.present && i < 4; i++)
        if (o->owned[i] && o->owned[i] == o->covfun.d) {
            uint8_t *p = o->owned[i];
            o->owned[i] = NULL;
            return p;
        }
    return NULL;
}

void pbi_cov_elf_close(pbi_cov_elf *o) {
    if (!o->image_borrowed) free(o->image);
    for (size_t i = 0; i < 4; i++) free(o->owned[i]);
    memset(o, 0, sizeof *o);
}
