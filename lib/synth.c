/* SPDX-License-Identifier: MIT */
/* The per-jail pool of synthetic addresses (synth.h).  Runs in the broker's event
 * loop (sandboxd, or sbx-run in direct mode), on names the DNS code has validated.
 *
 * Layout: names[i] is the name of index i, whose addresses are the ranges' base + i
 * + 1, so address -> name is an array index.  name -> index is an open-addressing
 * table of 2 * SBX_SYNTH_MAX slots (at most half full, so a probe always ends on an
 * empty slot) holding index + 1, 0 for empty.  Memory: 48 KiB of tables plus the
 * names themselves, at most SBX_SYNTH_MAX * 254 bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "hash.h"
#include "netrule.h"
#include "synth.h"

#define SLOTS (2 * SBX_SYNTH_MAX) /* a power of two */

struct sbx_synth {
        uint64_t key;         /* the hash key, per pool */
        unsigned n;           /* names taken */
        char *names[SBX_SYNTH_MAX];
        uint16_t slots[SLOTS]; /* index + 1, 0: empty */
};

static const uint8_t v6_prefix[8] = SBX_SYNTH_V6_PREFIX;

int sbx_synth_new(struct sbx_synth **out)
{
        struct sbx_synth *s = calloc(1, sizeof(*s));

        if (!s)
                return -ENOMEM;
        /* The key only spreads names; without entropy (a very early boot) the pool
         * still works, its buckets are just predictable. */
        if (getrandom(&s->key, sizeof(s->key), GRND_NONBLOCK) != (ssize_t)sizeof(s->key))
                s->key = (uint64_t)(uintptr_t)s ^ (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u;
        *out = s;
        return 0;
}

void sbx_synth_free(struct sbx_synth *s)
{
        if (!s)
                return;
        for (unsigned i = 0; i < s->n; i++)
                free(s->names[i]);
        free(s);
}

unsigned sbx_synth_count(const struct sbx_synth *s)
{
        return s->n;
}

/* FNV-1a over the key and the name, then murmur3's 64-bit finaliser so every input
 * bit reaches the low bits the table uses. */
static uint64_t hash(uint64_t key, const char *name, size_t len)
{
        uint64_t h = sbx_fnv1a(SBX_FNV1A_INIT ^ key, name, len);

        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdu;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53u;
        h ^= h >> 33;
        return h;
}

/* @name is a valid host name in its one normal form: what the DNS code hands in,
 * checked again because an address per spelling would be a second name. */
static bool normal_form(const char *name, size_t len)
{
        char norm[SBX_NETNAME_MAX + 1];
        const char *why;

        if (len == 0 || len > SBX_NETNAME_MAX)
                return false;
        return sbx_netname_normalize(name, norm, &why) == 0 && strcmp(norm, name) == 0;
}

static void addresses(unsigned index, struct in_addr *v4, struct in6_addr *v6)
{
        uint32_t off = index + 1;

        if (v4)
                v4->s_addr = htonl(SBX_SYNTH_V4_NET + off);
        if (v6) {
                memset(v6, 0, sizeof(*v6));
                memcpy(v6->s6_addr, v6_prefix, sizeof(v6_prefix));
                for (int i = 0; i < 4; i++)
                        v6->s6_addr[15 - i] = (uint8_t)(off >> (8 * i));
        }
}

int sbx_synth_get(struct sbx_synth *s, const char *name, struct in_addr *v4, struct in6_addr *v6)
{
        size_t len = name ? strnlen(name, SBX_NETNAME_MAX + 1) : 0;
        size_t slot;

        if (!normal_form(name, len))
                return -EINVAL;
        for (slot = hash(s->key, name, len) & (SLOTS - 1); s->slots[slot]; slot = (slot + 1) & (SLOTS - 1)) {
                unsigned index = s->slots[slot] - 1u;
                if (strcmp(s->names[index], name) == 0) {
                        addresses(index, v4, v6);
                        return 0;
                }
        }
        if (s->n >= SBX_SYNTH_MAX)
                return -ENOSPC;
        if (!(s->names[s->n] = strndup(name, len)))
                return -ENOMEM;
        s->slots[slot] = (uint16_t)(s->n + 1);
        addresses(s->n, v4, v6);
        s->n++;
        return 0;
}

/* The offset of @sa from its range's base (1 for 198.18.0.1), or false when @sa is
 * outside both ranges.  IPv4-mapped IPv6 is read as its IPv4 address. */
static bool pool_offset(const struct sockaddr *sa, socklen_t len, uint64_t *off)
{
        uint32_t a4;

        if (!sa)
                return false;
        if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
                a4 = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
        } else if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
                const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;

                if (IN6_IS_ADDR_V4MAPPED(a6)) {
                        memcpy(&a4, a6->s6_addr + 12, 4);
                        a4 = ntohl(a4);
                } else {
                        if (memcmp(a6->s6_addr, v6_prefix, sizeof(v6_prefix)) != 0)
                                return false;
                        *off = 0;
                        for (int i = 8; i < 16; i++)
                                *off = *off << 8 | a6->s6_addr[i];
                        return true;
                }
        } else
                return false;
        if ((a4 & SBX_SYNTH_V4_MASK) != SBX_SYNTH_V4_NET)
                return false;
        *off = a4 - SBX_SYNTH_V4_NET;
        return true;
}

const char *sbx_synth_name(const struct sbx_synth *s, const struct sockaddr *sa, socklen_t len)
{
        uint64_t off;

        if (!pool_offset(sa, len, &off) || off == 0 || off > s->n)
                return NULL;
        return s->names[off - 1];
}

bool sbx_synth_in_pool(const struct sockaddr *sa, socklen_t len)
{
        uint64_t off;

        return pool_offset(sa, len, &off);
}
