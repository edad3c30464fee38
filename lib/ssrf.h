/* SPDX-License-Identifier: MIT */
/* Addresses the egress broker must not dial on a jail's behalf (server-side request
 * forgery), and address literals in every spelling a resolver accepts.
 *
 * How the broker uses it (issue 13): a connection's name is checked against the rules
 * (netrule.h), resolved on the host, and then EVERY address the resolver returned is
 * classified here; the broker connects to exactly the sockaddr it classified, never
 * to a second lookup (DNS rebinding).  A "name" that sbx_ssrf_parse_literal() accepts
 * is an address, never resolved: "0x7f.1", "2130706433" and "[::ffff:7f00:1]" are
 * 127.0.0.1 in disguise, and are checked as the address they are.
 *
 * Input is the struct sockaddr the broker will actually connect to, so IPv6 forms
 * that carry an IPv4 address (IPv4-mapped, SIIT, NAT64, 6to4, IPv4-compatible) are
 * classified by the IPv4 address they lead to.  Pure functions, no allocation, no
 * global state: safe in the daemon's event loop and in the launcher alike. */
#pragma once

#include <stddef.h>
#include <sys/socket.h>

/* What the broker does with an address, from least to most severe. */
enum sbx_ssrf_action {
        SBX_SSRF_PUBLIC = 0, /* global unicast: dial */
        SBX_SSRF_NOTE,       /* documentation ranges (TEST-NETs, 2001:db8::/32): reach
                              * nothing internal, so dialled, but the class is audited */
        SBX_SSRF_PRIVATE,    /* RFC 1918, CGNAT, ULA, site-local: refused unless an allow
                              * rule names the address itself (a literal or CIDR), as
                              * an enterprise database at 10.0.0.5:5432 needs */
        SBX_SSRF_NEVER,      /* loopback, link-local, metadata, multicast, reserved...:
                              * refused whatever the rules say */
};

struct sbx_ssrf_verdict {
        enum sbx_ssrf_action action;
        const char *cls;   /* short class for X-Sbx-Error "ssrf-<cls>" and SBX_NET_ADDR_CLASS:
                            * "public", "loopback", "private", "link-local", "metadata", ... */
        char reason[160];  /* for the audit record and the refusal:
                            * "link-local (cloud metadata) 169.254.169.254" */
};

/* Classifies @sa (AF_INET or AF_INET6; the port is ignored).  Returns 0 and fills @v,
 * -EINVAL when @len is too short for the family, -EAFNOSUPPORT for another family. */
int sbx_ssrf_check(const struct sockaddr *sa, socklen_t len, struct sbx_ssrf_verdict *v);

/* True when the broker must refuse @v's address: NEVER always, PRIVATE unless
 * @named_by_rule (an allow rule names this address itself). */
int sbx_ssrf_refused(const struct sbx_ssrf_verdict *v, int named_by_rule);

/* Recognises @text as an address literal: IPv4 in every form inet_aton(3) accepts
 * (1 to 4 parts; each decimal, octal with a leading 0, or hex with 0x; the last part
 * fills the remaining bytes: "127.1", "0x7f000001", "017700000001", "0x7f.0.0.1"),
 * or IPv6 text, bare or in brackets, with an optional %zone ("[fe80::1%eth0]").
 * Unlike inet_aton, nothing may follow the address (no trailing space and junk).
 * Returns 1 and fills @out (port 0) for a literal, 0 for anything else.  Callers
 * strip one trailing dot first (netrule's name normalisation does): "127.0.0.1." is
 * an address to a browser. */
int sbx_ssrf_parse_literal(const char *text, struct sockaddr_storage *out);
