/* SPDX-License-Identifier: MIT */
/* FNV-1a, 64 bits: an index into a table, never a proof (the caller compares what it
 * finds there). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SBX_FNV1A_INIT 0xcbf29ce484222325ULL

/* @h carried on over @len bytes of @s (SBX_FNV1A_INIT to start). */
static inline uint64_t sbx_fnv1a(uint64_t h, const void *s, size_t len)
{
        const unsigned char *p = s;

        for (size_t i = 0; i < len; i++)
                h = (h ^ p[i]) * 0x100000001b3ULL;
        return h;
}
