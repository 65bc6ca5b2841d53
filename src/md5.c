/* md5.c -- the NameRef of LLVM profiles (spec llvm-instrprof.md §1.2). */
#include <sys/types.h>

#include <md5.h>
#include <string.h>

#include "profbridge/profile.h"

/* NameRef = the first 8 MD5 digest bytes read as a little-endian u64,
 * whatever the host's byte order. */
uint64_t pb_md5_ref(const void *bytes, size_t len) {
    if (len <= 55) {
        /* One padded block, one libmd transform: most names are this short,
         * and Init/Update/Final around it cost as much as the transform. */
        uint8_t block[64] = {0};
        uint32_t st[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
        if (len) memcpy(block, bytes, len);
        block[len] = 0x80;
        uint64_t bits = (uint64_t)len * 8;
        for (int i = 0; i < 8; i++) block[56 + i] = (uint8_t)(bits >> (8 * i));
        MD5Transform(st, block);
        /* digest bytes 0..7 = st[0], st[1] little-endian, read as a LE u64 */
        return (uint64_t)st[0] | (uint64_t)st[1] << 32;
    }
    MD5_CTX ctx;
    unsigned char digest[16];
    MD5Init(&ctx);
    if (len) MD5Update(&ctx, bytes, len);
    MD5Final(digest, &ctx);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | digest[i];
    return v;
}
