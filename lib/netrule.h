/* SPDX-License-Identifier: MIT */
/* The egress rule language and its matcher: which host names and ports a filtered
 * jail may reach.
 *
 * How the broker uses it (issue 13): the profile's network.allow and network.deny
 * lists (narrowed by the CLI and the site policy) are added to one set; then, per DNS
 * question and per connection, the broker asks sbx_netrules_match() with the name the
 * connection stands for (the synthetic address's name, the TLS server name, the HTTP
 * Host, the CONNECT or SOCKS5 authority) and after resolution asks
 * sbx_netrules_match_addr() with every address it is about to dial, so that deny
 * rules naming addresses (10.0.0.0/8) hold for names that resolve there.  The rule
 * reported goes into the audit record's SBX_NET_RULE.
 *
 * The language (sandbox-runtime's, so profiles move between tools; ref/egress.md 1.1):
 *   registry.npmjs.org     exactly that name (case-insensitive; one trailing dot ignored)
 *   *.pypi.org             strict subdomains at any depth: files.pypi.org, a.b.pypi.org;
 *                          NOT pypi.org itself (list the apex too) and NOT evilpypi.org.
 *                          The part after "*." needs two labels or more: "*.com" is
 *                          refused (no public-suffix list: "*.co.uk" is the author's call)
 *   *                      every host; deny lists only ("*:25": port 25 everywhere)
 *   10.0.0.5, 10.0.0.0/8,  an address or CIDR; IPv6 in brackets when a port follows
 *   [2001:db8::1]:443, fc00::/7
 *   NAME:PORT              the rule holds for that port only
 * Ports.  Deny: a rule without a port denies every port.  Allow: a rule without a
 * port allows the web ports 80 and 443 only, where the broker checks the name itself
 * (TLS server name, HTTP Host); any other port, and raw TCP on any port, must be named
 * ("github.com:22", "ssh.github.com:443").  The issue asks "raw TCP only by host:port
 * rules": on a raw stream the address is all the broker sees, so the author must say
 * which service they meant.  This narrows sandbox-runtime, where no port means all.
 * Deny wins over allow; among the rules that match, the most specific is reported
 * (an exact name over a wildcard, a longer suffix or prefix over a shorter one, a
 * port over none).
 * Names are ASCII: a non-ASCII (Unicode) name is refused with a hint to write its
 * punycode form (xn--...); sbx has no IDNA table, and a second opinion on Unicode
 * would be the confusable-name hole the rule exists to close.  A name that is an
 * address literal in any spelling inet_aton accepts ("0x7f.1") is that address. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/socket.h>

#include "error.h"

#define SBX_NETNAME_MAX 253      /* RFC 1035, without the trailing dot */
#define SBX_NETRULE_TEXT_MAX 300 /* a rule longer than this is refused */
#define SBX_NETRULES_MAX 4096    /* rules per set, allow and deny together */

enum sbx_netrule_kind { SBX_NETRULE_ALLOW, SBX_NETRULE_DENY };

enum sbx_netrule_type {
        SBX_NETRULE_EXACT,    /* name */
        SBX_NETRULE_WILDCARD, /* *.suffix */
        SBX_NETRULE_ANY,      /* * (deny only) */
        SBX_NETRULE_ADDR,     /* address or CIDR */
};

struct sbx_netrule {
        enum sbx_netrule_kind kind;
        enum sbx_netrule_type type;
        unsigned index;                 /* position in its own list (allow or deny), from 0 */
        uint16_t port;                  /* 0: no port given */
        char name[SBX_NETNAME_MAX + 1]; /* normalised: the exact name, or the wildcard's suffix */
        int family;                     /* ADDR: AF_INET or AF_INET6 */
        unsigned char addr[16];         /* ADDR: network order */
        unsigned prefix;                /* ADDR: prefix length */
        char text[SBX_NETRULE_TEXT_MAX + 8]; /* normalised rule, as the audit record names it */
};

struct sbx_netrules {
        struct sbx_netrule *v;
        size_t n, cap;
        unsigned n_allow, n_deny;
};

enum sbx_net_verdict { SBX_NET_NO_MATCH = 0, SBX_NET_ALLOW, SBX_NET_DENY };

/* What the connection is: WEB when the broker has checked the name itself (a TLS
 * server name or an HTTP Host on the connection), RAW otherwise (a plain TCP stream,
 * CONNECT/SOCKS5 tunnels whose payload is not checked).  A port-less allow rule
 * matches only WEB connections on ports 80 and 443. */
enum sbx_net_proto { SBX_NET_WEB, SBX_NET_RAW };

/* Parses @text and appends it to @set.  0, or -EINVAL/-E2BIG/-ENOMEM with @e saying
 * what is wrong, where ("allow[3]") and how to fix it. */
int sbx_netrules_add(struct sbx_netrules *set, const char *text, enum sbx_netrule_kind kind, struct sbx_error *e);

/* The verdict for connecting to @host (a name or an address literal in any spelling)
 * on @port; @rule (may be NULL) gets the deciding rule, NULL on NO_MATCH.  -EINVAL
 * when @host is neither a valid name nor an address (the broker refuses it).
 * Pointers into @set stay valid until the next add or free. */
int sbx_netrules_match(const struct sbx_netrules *set, const char *host, uint16_t port, enum sbx_net_proto proto,
                       const struct sbx_netrule **rule);
/* The same for an address: only `*` and address rules can match it. */
int sbx_netrules_match_addr(const struct sbx_netrules *set, const struct sockaddr *sa, socklen_t len, uint16_t port,
                            enum sbx_net_proto proto, const struct sbx_netrule **rule);

void sbx_netrules_free(struct sbx_netrules *set);

/* For a DNS question: may @name (normalised) be reached at all?  DENY when a deny
 * rule without a port names it (a port's deny leaves the others), ALLOW when an allow
 * rule names it on any port, NO_MATCH otherwise. */
int sbx_netrules_name_verdict(const struct sbx_netrules *set, const char *name, const struct sbx_netrule **rule);

/* The ports allow rules name ("github.com:22"), each once, at most @max: the broker
 * listens on them besides 80 and 443.  Returns how many. */
size_t sbx_netrules_ports(const struct sbx_netrules *set, uint16_t *ports, size_t max);

/* "allow":[...],"deny":[...] (the rules' normalised text), for --json. */
void sbx_netrules_to_json(FILE *f, const struct sbx_netrules *set);

/* Normalises a host name into @out (lowercase, one trailing dot dropped) and
 * validates it (charset, label and total lengths, ASCII only).  0, or -EINVAL with
 * @why saying what is wrong.  Address literals are the caller's to recognise first
 * (sbx_ssrf_parse_literal); a name whose last label is numeric is refused here. */
int sbx_netname_normalize(const char *in, char out[SBX_NETNAME_MAX + 1], const char **why);
