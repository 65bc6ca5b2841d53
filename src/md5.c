/* md5.c -- the NameRef of LLVM profiles (spec llvm-instrprof.md §1.2). */
#include <sys/types.h>

#include <md5.h>

#include "profbridge/profile.h"

/* NameRef = the first 8 MD5 digest bytes read as a little-endian u64,
 * whatever the host's byte order. */
uint64_t pb_md5_ref(const void *bytes, size_t len) {
    MD5_CTX ctx;
    unsigned char digest[16];
    MD5Init(&ctx);
    if (len) MD5Update(&ctx, bytes, len);
    MD5Final(digest, &ctx);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | digest[i];
    return v;
}
