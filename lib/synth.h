/* SPDX-License-Identifier: MIT */
/* The egress broker's synthetic addresses: one pool per jail, mapping the host names
 * the jail's DNS questions were allowed for to addresses the jail connects to.
 *
 * How the broker uses it (issue 13): a jail's network namespace has only `lo`, with
 * `local default dev lo` routes, so every address is local to it and every connect
 * lands on one of sbx's listeners.  The broker's DNS (dns.h) answers an allowed A or
 * AAAA question with the name's address from this pool; when the jail connects, the
 * broker reads the destination (getsockname on the accepted socket), asks
 * sbx_synth_name() which name it stands for, and checks and resolves that name on
 * the host side.  The jail never learns a real address, so a DNS answer cannot be
 * rebound between check and connect, and nothing it asks leaves the machine.
 *
 * Addresses: the i-th name (from 0) gets 198.18.0.0 + i + 1 (RFC 2544's benchmarking
 * range 198.18.0.0/15, never routed on the internet) and fd5b:7800::/64 + i + 1 (a
 * fixed ULA /64).  A name keeps its address for the pool's life: a client that cached
 * an answer past its TTL still reaches the same name.  At most SBX_SYNTH_MAX names,
 * then -ENOSPC (the broker answers SERVFAIL); the pool is never recycled, so an
 * address can never come to stand for a second name while a client still holds it.
 *
 * Names are hashed with a key drawn per pool from getrandom(2), so a jail choosing
 * names (under an allowed wildcard) cannot aim them at one bucket.  No global state:
 * the daemon holds one pool per jail.  Not thread-safe: one event loop owns a pool. */
#pragma once

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

#define SBX_SYNTH_MAX 4096 /* names per jail */

/* The ranges, in host byte order for IPv4; the IPv6 /64's first 8 bytes. */
#define SBX_SYNTH_V4_NET 0xc6120000u  /* 198.18.0.0 */
#define SBX_SYNTH_V4_MASK 0xfffe0000u /* /15 */
#define SBX_SYNTH_V6_PREFIX { 0xfd, 0x5b, 0x78, 0x00, 0, 0, 0, 0 }

struct sbx_synth;

/* 0, or -ENOMEM. */
int sbx_synth_new(struct sbx_synth **out);
void sbx_synth_free(struct sbx_synth *s);

/* The synthetic addresses standing for @name (already normalised: lowercase, no
 * trailing dot; sbx_netname_normalize), allocated on first use and stable afterwards:
 * IPv4 from 198.18.0.0/15 (198.18.0.1 upward), IPv6 from fd5b:7800:0:0::/64 (the same
 * index in the low bits).  Either of @v4, @v6 may be NULL.  0; -ENOSPC when
 * SBX_SYNTH_MAX names are taken; -EINVAL for an empty name, one longer than 253, or
 * one sbx_netname_normalize() refuses or would change (an upper-case letter, a
 * trailing dot: two spellings of one name must never get two addresses); -ENOMEM. */
int sbx_synth_get(struct sbx_synth *s, const char *name, struct in_addr *v4, struct in6_addr *v6);

/* The name @sa (AF_INET or AF_INET6, port ignored) stands for, or NULL when it is not
 * an address this pool handed out (or @len is short for the family).  An IPv4-mapped
 * IPv6 address (::ffff:198.18.0.1) is looked up as its IPv4 address.  The string
 * lives as long as the pool. */
const char *sbx_synth_name(const struct sbx_synth *s, const struct sockaddr *sa, socklen_t len);

/* True when @sa lies in one of the pool's ranges (allocated or not), IPv4-mapped
 * included: the broker refuses a connection to an unallocated pool address instead
 * of treating it as an address literal. */
bool sbx_synth_in_pool(const struct sockaddr *sa, socklen_t len);

/* How many names the pool holds. */
unsigned sbx_synth_count(const struct sbx_synth *s);
