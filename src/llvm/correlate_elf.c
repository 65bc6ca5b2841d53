/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate_elf.c -- the ELF half of pbi_correlation_load (correlate.h):
 * opens the file with libelf, checks it is an ELF object, and takes the
 * address range of __llvm_prf_cnts and, for binary correlation, the bytes
 * of __llvm_covdata and __llvm_covnames. Class and data encoding give the
 * pointer width and byte order the profile must have.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "llvm/correlate.h"
#include "util/grow.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"

#define SEC_CNTS "__llvm_prf_cnts"
#define SEC_BITS "__llvm_prf_bits"
#define SEC_DATA "__llvm_covdata"
#define SEC_NAMES "__llvm_covnames"

static int libelf_ready; /* elf_version's answer, set once */
static void libelf_init(void) { libelf_ready = elf_version(EV_CURRENT) != EV_NONE; }

/* LLVM's wording: InstrProfError(unable_to_correlate_profile, detail). */
static int unable(pb_error *err, const char *path, const char *detail, const char *arg) {
    int rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "unable to correlate profile: %s%s%s%s", detail,
                          arg ? " (" : "", arg ? arg : "", arg ? ")" : "");
    pb_error_set_source(err, path);
    return rc;
}

/* libelf's last error as ours: out of memory, or an ELF file it cannot read. */
static int libelf_failed(pb_error *err, const char *path, const char *what) {
    const char *m = elf_errmsg(elf_errno());
    int rc = m && strcmp(m, "out of memory") == 0
                 ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory")
                 : pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, what, "cannot read it: libelf says %s", m ? m : "nothing");
    pb_error_set_source(err, path);
    return rc;
}

static Elf_Scn *find_section(Elf *e, size_t shstrndx, const char *want, GElf_Shdr *sh) {
    for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
        if (!gelf_getshdr(s, sh)) continue;
        const char *n = elf_strptr(e, shstrndx, sh->sh_name);
        if (n && strcmp(n, want) == 0) return s;
    }
    return NULL;
}

static int too_big(pb_error *err, const char *path, uint64_t at, const char *sec, uint64_t total, uint64_t limit) {
    int rc = pb_error_set(err, PB_ELIMIT, at, sec,
                          "the ELF file and its compressed sections come to %" PRIu64
                          " bytes, more than the size limit of %" PRIu64 " bytes (pb_read_options.max_input_size)",
                          total, limit);
    pb_error_set_source(err, path);
    return rc;
}

/* Every byte libelf or libdw would read or inflate, checked before they
 * do: the file's size and each SHF_COMPRESSED section's ch_size count
 * against the size limit; a ch_size deflate cannot reach from the stored
 * bytes (1032:1) is a lie, one past the inflation ratio a bomb. libelf
 * allocates ch_size as the header says, so nothing is inflated first. */
static int check_sizes(Elf *e, size_t shstrndx, const char *path, uint64_t file_size, const pbi_corr_limits *lim,
                       pb_error *err) {
    uint64_t max_size = lim && lim->max_size ? lim->max_size : PB_DEFAULT_MAX_INPUT_SIZE;
    uint64_t ratio = lim && lim->max_inflation ? lim->max_inflation : PB_DEFAULT_MAX_INFLATION;
    uint64_t total = file_size;
    if (max_size != PB_NO_LIMIT && total > max_size) return too_big(err, path, max_size, NULL, total, max_size);
    for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
        GElf_Shdr sh;
        GElf_Chdr ch;
        if (!gelf_getshdr(s, &sh) || !(sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS) continue;
        const char *name = elf_strptr(e, shstrndx, sh.sh_name);
        if (!gelf_getchdr(s, &ch)) continue; /* libelf refuses to inflate it too: its error comes later */
        uint64_t stored = sh.sh_size, size = ch.ch_size;
        if (size / 1032u > stored) {
            int rc = pb_error_set(err, PB_EFORMAT, sh.sh_offset, name,
                                  "a compressed section's ch_size of %" PRIu64 " bytes cannot come from its %" PRIu64
                                  " stored bytes (expected at most 1032:1, deflate's most)",
                                  size, stored);
            pb_error_set_source(err, path);
            return rc;
        }
        total = size > UINT64_MAX - total ? UINT64_MAX : total + size;
        if (max_size != PB_NO_LIMIT && total > max_size) return too_big(err, path, sh.sh_offset, name, total, max_size);
        if (ratio != PB_NO_LIMIT && size > PB_INFLATION_FLOOR && size / (stored ? stored : 1) > ratio) {
            int rc = pb_error_set(err, PB_ELIMIT, sh.sh_offset, name,
                                  "the compressed section inflates more than %" PRIu64 ":1 (%" PRIu64
                                  " bytes from %" PRIu64 " compressed bytes; pb_read_options.max_inflation)",
                                  ratio, size, stored);
            pb_error_set_source(err, path);
            return rc;
        }
    }
    return 0;
}

/* A copy of section `name`'s stored bytes (decompressed when SHF_COMPRESSED). */
static int section_bytes(Elf *e, size_t shstrndx, const char *name, const char *path, uint8_t **out, size_t *len,
                         pb_error *err) {
    GElf_Shdr sh;
    Elf_Scn *s = find_section(e, shstrndx, name, &sh);
    if (!s) return unable(err, path, "could not find section", name);
    if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(s, 0, 0) < 0) {
        pb_error_set(err, PB_EFORMAT, sh.sh_offset, name, "cannot decompress the section: %s", elf_errmsg(-1));
        pb_error_set_source(err, path);
        return PB_EFORMAT;
    }
    Elf_Data *d = NULL;
    if (sh.sh_type != SHT_NOBITS && sh.sh_size && !(d = elf_rawdata(s, NULL))) return libelf_failed(err, path, name);
    size_t n = d && d->d_buf ? d->d_size : 0;
    *out = malloc(n ? n : 1);
    if (!*out) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (n) memcpy(*out, d->d_buf, n);
    *len = n;
    return 0;
}

/*
 * Not a regular file (a pipe, a FIFO, `<(...)`): libelf cannot map or seek
 * it, so read it whole into memory, as llvm-profdata's MemoryBuffer does, at
 * most lim's max_size bytes (the --max-input-size of the command). *out is
 * malloc'ed. Returns 0, PB_EIO, PB_ENOMEM or PB_ELIMIT.
 */
static int read_stream(int fd, const char *path, const pbi_corr_limits *lim, char **out, size_t *len,
                       pb_error *err) {
    uint64_t max = lim && lim->max_size ? lim->max_size : PB_DEFAULT_MAX_INPUT_SIZE;
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n == cap) {
            if (max != PB_NO_LIMIT && n >= max) {
                free(buf);
                return too_big(err, path, n, NULL, (uint64_t)n + 1, max);
            }
            if (pbu_grow_err((void **)&buf, &cap, n + 1, 1, err)) {
                free(buf);
                return PB_ENOMEM;
            }
        }
        size_t want = cap - n;
        if (max != PB_NO_LIMIT && want > max - n + 1) want = (size_t)(max - n + 1); /* one past: tells "more" */
        ssize_t r = read(fd, buf + n, want);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            int rc = pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s", strerror(e));
            pb_error_set_source(err, path);
            return rc;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (max != PB_NO_LIMIT && n > max) {
            free(buf);
            return too_big(err, path, max, NULL, n, max);
        }
    }
    *out = buf;
    *len = n;
    return 0;
}

int pbi_correlation_load(pbi_correlation *c, const char *path, int kind, const pbi_llvm_target *t,
                         const pbi_corr_limits *lim, unsigned max_warnings, pbi_corr_warn_fn warn, void *warn_ctx,
                         pb_error *err) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    pthread_once(&once, libelf_init);
    if (!libelf_ready) return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "libelf: %s", elf_errmsg(-1));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        int rc = pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s", strerror(e));
        pb_error_set_source(err, path);
        return rc;
    }
    int rc = 0;
    char *image = NULL; /* a pipe's bytes, which libelf reads from memory */
    size_t image_len = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && (rc = read_stream(fd, path, lim, &image, &image_len, err))) {
        close(fd);
        return rc;
    }
    (void)elf_errno(); /* clears an earlier error */
    Elf *e = image ? elf_memory(image, image_len) : elf_begin(fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!e) { /* not for a file that is no ELF (ELF_K_NONE): memory, or a file it cannot read */
        rc = libelf_failed(err, path, NULL);
        goto out;
    }
    if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx) != 0) {
        /* llvm::object's message for what it cannot open as an object */
        rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                          "The file was not recognized as a valid object file (expected an ELF binary built "
                          "with -fprofile-generate and -profile-correlate)");
        pb_error_set_source(err, path);
        goto out;
    }
    size_t file_size = 0;
    (void)elf_rawfile(e, &file_size);
    if ((rc = check_sizes(e, shstrndx, path, file_size, lim, err))) goto out;
    c->ptr = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
    c->order = eh.e_ident[EI_DATA] == ELFDATA2MSB ? PB_ORDER_BE : PB_ORDER_LE;
    GElf_Shdr sh;
    if (!find_section(e, shstrndx, SEC_CNTS, &sh)) {
        rc = unable(err, path, "could not find section", SEC_CNTS);
        goto out;
    }
    c->cnts_start = sh.sh_addr;
    c->cnts_end = sh.sh_addr + sh.sh_size;
    if (find_section(e, shstrndx, SEC_BITS, &sh)) {
        c->bits_start = sh.sh_addr;
        c->bits_end = sh.sh_addr + sh.sh_size;
    }
    if (kind == PBI_CORR_BINARY) {
        if ((rc = section_bytes(e, shstrndx, SEC_DATA, path, &c->data, &c->data_len, err)) ||
            (rc = section_bytes(e, shstrndx, SEC_NAMES, path, &c->names, &c->names_len, err)))
            goto out;
        /* InstrProfCorrelatorImpl::correlateProfileData's two checks */
        if (c->data_len == 0) {
            rc = unable(err, path, "could not find any profile data metadata in correlated file", NULL);
            goto out;
        }
        if (c->names_len == 0) {
            rc = unable(err, path, "could not find any profile data metadata in object file", NULL);
            goto out;
        }
    } else {
        rc = pbi_correlate_dwarf(c, e, path, t, max_warnings, warn, warn_ctx, err);
    }
out:
    if (e) elf_end(e);
    free(image);
    close(fd);
    if (rc) pbi_correlation_free(c);
    return rc;
}

void pbi_correlation_free(pbi_correlation *c) {
    free(c->data);
    free(c->names);
    free(c->probes);
    for (size_t i = 0; i < c->nstrings; i++) free(c->strings[i]);
    free(c->strings);
    memset(c, 0, sizeof *c);
}
