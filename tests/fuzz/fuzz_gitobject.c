/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx_loose_object_check(), the parser of what a jail may leave as a loose git
 * object, two ways: the input as the file itself (a zlib stream, as a jail may write
 * anything), and the input zlib-compressed (so that the header parser sees arbitrary
 * inflated content).  What it promises is checked, not only that it does not crash: an
 * accepted object inflates to a header of one of git's four types and exactly the size
 * it declares, and its digest is the hash of all it inflated to. */
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../lib/gitobjects.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* For content that was compressed here: the same verdict as git's own rules. */
static void check_plain(const uint8_t *plain, size_t len, const uint8_t *z, size_t zlen)
{
        static const char *const types[] = { "blob ", "tree ", "commit ", "tag " };
        uint8_t digest[SHA1_DIGEST_SIZE], want[SHA1_DIGEST_SIZE];
        char why[128];
        const uint8_t *nul = memchr(plain, '\0', len);
        uint64_t inflated = 0;
        int r = sbx_loose_object_check(z, zlen, SHA1_DIGEST_SIZE, SBX_OBJECTS_INFLATE_BUDGET, &inflated, digest, why, sizeof(why));
        struct sha1_ctx c;
        size_t t = 0;

        if (r != 0)
                return;
        if (inflated != len)
                abort();
        /* Accepted: a known type, a size that is the body's, the digest of it all. */
        for (; t < 4 && strncmp((const char *)plain, types[t], strlen(types[t])) != 0; t++)
                ;
        if (t == 4 || !nul || strtoull((const char *)plain + strlen(types[t]), NULL, 10) != (unsigned long long)(len - (size_t)(nul - plain) - 1))
                abort();
        sha1_init(&c);
        sha1_update(&c, len, plain);
        sha1_digest(&c, sizeof(want), want);
        if (memcmp(digest, want, sizeof(want)) != 0)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        uint8_t digest[SHA256_DIGEST_SIZE];
        char why[128];
        uLongf zlen = compressBound((uLong)size);
        uint8_t *z = malloc(zlen);

        uint64_t inflated = 0;

        (void)sbx_loose_object_check(data, size, SHA1_DIGEST_SIZE, SBX_OBJECTS_INFLATE_BUDGET, &inflated, digest, why, sizeof(why));
        (void)sbx_loose_object_check(data, size, SHA256_DIGEST_SIZE, 1 << 20, &inflated, digest, why, sizeof(why));
        if (z && compress(z, &zlen, data, (uLong)size) == Z_OK)
                check_plain(data, size, z, zlen);
        free(z);
        return 0;
}
