/* SPDX-License-Identifier: MIT */
#include "ssrf.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One range: its CIDR as text (parsed at each check: a few dozen inet_pton calls per
 * connection cost nothing next to a connect, and the table stays readable), its class
 * and reason, and what the broker does.  For ranges that carry an IPv4 address,
 * @embed is the byte offset of that address in the IPv6 one, and the result is the
 * more severe of the range's own action and the embedded address's. */
struct range {
        const char *cidr;
        const char *cls;
        const char *reason;
        enum sbx_ssrf_action action;
        int embed; /* -1: none */
};

#define NOEMB (-1)

/* First match wins, so the specific entries (metadata addresses) come before the
 * ranges that hold them: a rule that opens 100.64.0.0/10 or fd00::/8 must still never
 * reach a metadata service.  Sources: RFC 6890 special-purpose registries, and the
 * cloud metadata addresses sandbox-runtime checks (ref/egress.md 1.1). */
static const struct range v4_ranges[] = {
        { "169.254.169.254/32", "metadata", "link-local (cloud metadata)", SBX_SSRF_NEVER, NOEMB },
        { "100.100.100.200/32", "metadata", "cloud metadata (Alibaba)", SBX_SSRF_NEVER, NOEMB },
        { "168.63.129.16/32", "metadata", "cloud metadata (Azure wireserver)", SBX_SSRF_NEVER, NOEMB },
        { "192.0.0.192/32", "metadata", "cloud metadata (Oracle)", SBX_SSRF_NEVER, NOEMB },
        { "255.255.255.255/32", "broadcast", "limited broadcast", SBX_SSRF_NEVER, NOEMB },
        /* 0.0.0.0 connects to the local host on Linux. */
        { "0.0.0.0/8", "unspecified", "\"this network\" (0.0.0.0/8 reaches the local host)", SBX_SSRF_NEVER, NOEMB },
        { "127.0.0.0/8", "loopback", "loopback", SBX_SSRF_NEVER, NOEMB },
        { "169.254.0.0/16", "link-local", "link-local", SBX_SSRF_NEVER, NOEMB },
        { "10.0.0.0/8", "private", "private (RFC 1918)", SBX_SSRF_PRIVATE, NOEMB },
        { "172.16.0.0/12", "private", "private (RFC 1918)", SBX_SSRF_PRIVATE, NOEMB },
        { "192.168.0.0/16", "private", "private (RFC 1918)", SBX_SSRF_PRIVATE, NOEMB },
        { "100.64.0.0/10", "cgnat", "shared address space (CGNAT, RFC 6598)", SBX_SSRF_PRIVATE, NOEMB },
        { "192.0.0.0/24", "reserved", "IETF protocol assignments (RFC 6890)", SBX_SSRF_NEVER, NOEMB },
        { "192.88.99.0/24", "reserved", "6to4 relay anycast (deprecated, RFC 7526)", SBX_SSRF_NEVER, NOEMB },
        /* Our own synthetic DNS pool (ref/egress.md 1.6.3): never a real destination. */
        { "198.18.0.0/15", "reserved", "benchmarking (RFC 2544)", SBX_SSRF_NEVER, NOEMB },
        { "224.0.0.0/4", "multicast", "multicast", SBX_SSRF_NEVER, NOEMB },
        { "240.0.0.0/4", "reserved", "reserved (240.0.0.0/4)", SBX_SSRF_NEVER, NOEMB },
        /* Documentation (RFC 5737): assigned to no network, so nothing internal answers
         * there; dialled but audited.  Issue 13's test internet lives here. */
        { "192.0.2.0/24", "documentation", "documentation (TEST-NET-1)", SBX_SSRF_NOTE, NOEMB },
        { "198.51.100.0/24", "documentation", "documentation (TEST-NET-2)", SBX_SSRF_NOTE, NOEMB },
        { "203.0.113.0/24", "documentation", "documentation (TEST-NET-3)", SBX_SSRF_NOTE, NOEMB },
};

static const struct range v6_ranges[] = {
        { "::/128", "unspecified", "unspecified (:: reaches the local host)", SBX_SSRF_NEVER, NOEMB },
        { "::1/128", "loopback", "loopback", SBX_SSRF_NEVER, NOEMB },
        { "fd00:ec2::254/128", "metadata", "cloud metadata (AWS IPv6)", SBX_SSRF_NEVER, NOEMB },
        { "fd20:ce::254/128", "metadata", "cloud metadata (GCP IPv6)", SBX_SSRF_NEVER, NOEMB },
        { "fd00:c1::a9fe:a9fe/128", "metadata", "cloud metadata", SBX_SSRF_NEVER, NOEMB },
        { "fd00:42::42/128", "metadata", "cloud metadata", SBX_SSRF_NEVER, NOEMB },
        /* The kernel dials the IPv4 address of a mapped one: judge that address. */
        { "::ffff:0:0/96", "ipv4-mapped", "IPv4-mapped IPv6", SBX_SSRF_PUBLIC, 12 },
        { "::ffff:0:0:0/96", "ipv4-translated", "IPv4-translated IPv6 (SIIT)", SBX_SSRF_PUBLIC, 12 },
        /* Deprecated (RFC 4291); never a real destination, and some stacks tunnel it. */
        { "::/96", "ipv4-compatible", "IPv4-compatible IPv6 (deprecated)", SBX_SSRF_NEVER, 12 },
        /* NAT64 to a public address is how an IPv6-only host reaches IPv4: allowed;
         * to a private one it is that private address. */
        { "64:ff9b::/96", "nat64", "NAT64", SBX_SSRF_PUBLIC, 12 },
        { "64:ff9b:1::/48", "nat64", "local-use NAT64 (RFC 8215)", SBX_SSRF_PRIVATE, 12 },
        { "2002::/16", "6to4", "6to4 (deprecated, RFC 7526)", SBX_SSRF_NEVER, 2 },
        { "2001::/32", "teredo", "Teredo tunnel", SBX_SSRF_NEVER, NOEMB },
        { "2001:2::/48", "reserved", "benchmarking (RFC 5180)", SBX_SSRF_NEVER, NOEMB },
        { "2001:10::/28", "reserved", "ORCHID (deprecated)", SBX_SSRF_NEVER, NOEMB },
        { "2001:20::/28", "reserved", "ORCHIDv2", SBX_SSRF_NEVER, NOEMB },
        { "2001::/23", "reserved", "IETF protocol assignments (RFC 6890)", SBX_SSRF_NEVER, NOEMB },
        { "100::/64", "reserved", "discard-only (RFC 6666)", SBX_SSRF_NEVER, NOEMB },
        { "fe80::/10", "link-local", "link-local", SBX_SSRF_NEVER, NOEMB },
        { "fec0::/10", "private", "site-local (deprecated)", SBX_SSRF_PRIVATE, NOEMB },
        { "fc00::/7", "private", "unique local (ULA, RFC 4193)", SBX_SSRF_PRIVATE, NOEMB },
        { "ff00::/8", "multicast", "multicast", SBX_SSRF_NEVER, NOEMB },
        { "2001:db8::/32", "documentation", "documentation (RFC 3849)", SBX_SSRF_NOTE, NOEMB },
        { "3fff::/20", "documentation", "documentation (RFC 9637)", SBX_SSRF_NOTE, NOEMB },
};

/* Does @addr (@n bytes, network order) lie in @cidr ("a/len")? */
static int in_cidr(const unsigned char *addr, size_t n, const char *cidr)
{
        unsigned char net[16];
        char text[64];
        const char *slash = strchr(cidr, '/');
        size_t len = (size_t)(slash - cidr);
        unsigned bits = (unsigned)atoi(slash + 1);

        memcpy(text, cidr, len);
        text[len] = '\0';
        if (inet_pton(n == 4 ? AF_INET : AF_INET6, text, net) != 1)
                return 0; /* a typo in the table; test_ssrf checks every row */
        for (size_t i = 0; bits > 0; i++, bits = bits >= 8 ? bits - 8 : 0) {
                unsigned char mask = bits >= 8 ? 0xff : (unsigned char)(0xff << (8 - bits));
                if ((addr[i] & mask) != (net[i] & mask))
                        return 0;
        }
        return 1;
}

static const struct range *find(const struct range *t, size_t n, const unsigned char *addr, size_t alen)
{
        for (size_t i = 0; i < n; i++)
                if (in_cidr(addr, alen, t[i].cidr))
                        return &t[i];
        return NULL;
}

static void classify_v4(const unsigned char a[4], struct sbx_ssrf_verdict *v)
{
        const struct range *r = find(v4_ranges, sizeof(v4_ranges) / sizeof(v4_ranges[0]), a, 4);
        char text[INET_ADDRSTRLEN];

        inet_ntop(AF_INET, a, text, sizeof(text));
        v->action = r ? r->action : SBX_SSRF_PUBLIC;
        v->cls = r ? r->cls : "public";
        snprintf(v->reason, sizeof(v->reason), "%s %s", r ? r->reason : "public", text);
}

static void classify_v6(const unsigned char a[16], struct sbx_ssrf_verdict *v)
{
        const struct range *r = find(v6_ranges, sizeof(v6_ranges) / sizeof(v6_ranges[0]), a, 16);
        char text[INET6_ADDRSTRLEN];

        inet_ntop(AF_INET6, a, text, sizeof(text));
        if (!r) {
                v->action = SBX_SSRF_PUBLIC;
                v->cls = "public";
                snprintf(v->reason, sizeof(v->reason), "public %s", text);
                return;
        }
        if (r->embed >= 0) {
                struct sbx_ssrf_verdict inner;

                classify_v4(a + r->embed, &inner);
                /* The more severe of the two; the class names the worse one, so that
                 * "::ffff:127.0.0.1" is audited as loopback, not as "ipv4-mapped". */
                v->action = inner.action > r->action ? inner.action : r->action;
                v->cls = inner.action >= r->action && inner.action != SBX_SSRF_PUBLIC ? inner.cls : r->cls;
                snprintf(v->reason, sizeof(v->reason), "%s %s of %.80s", r->reason, text, inner.reason);
                return;
        }
        v->action = r->action;
        v->cls = r->cls;
        snprintf(v->reason, sizeof(v->reason), "%s %s", r->reason, text);
}

int sbx_ssrf_check(const struct sockaddr *sa, socklen_t len, struct sbx_ssrf_verdict *v)
{
        if (!sa || !v || len < (socklen_t)sizeof(sa_family_t))
                return -EINVAL;
        if (sa->sa_family == AF_INET) {
                struct sockaddr_in in;

                if (len < (socklen_t)sizeof(in))
                        return -EINVAL;
                memcpy(&in, sa, sizeof(in)); /* no alignment assumed of the caller's buffer */
                classify_v4((const unsigned char *)&in.sin_addr, v);
                return 0;
        }
        if (sa->sa_family == AF_INET6) {
                struct sockaddr_in6 in6;

                if (len < (socklen_t)sizeof(in6))
                        return -EINVAL;
                memcpy(&in6, sa, sizeof(in6));
                classify_v6((const unsigned char *)&in6.sin6_addr, v);
                return 0;
        }
        return -EAFNOSUPPORT;
}

int sbx_ssrf_refused(const struct sbx_ssrf_verdict *v, int named_by_rule)
{
        if (v->action == SBX_SSRF_NEVER)
                return 1;
        return v->action == SBX_SSRF_PRIVATE && !named_by_rule;
}

/* One part of an inet_aton address, as strtoul(…, 0) reads it after a digit:
 * "0x1f" hex, "017" octal, "17" decimal.  Returns the end, or NULL past 2^32-1. */
static const char *v4_part(const char *s, uint64_t *val)
{
        unsigned base = 10;
        uint64_t v = 0;

        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
                base = 16;
                s += 2;
        } else if (s[0] == '0')
                base = 8;
        for (;; s++) {
                unsigned d;

                if (*s >= '0' && *s <= '9')
                        d = (unsigned)(*s - '0');
                else if (base == 16 && isxdigit((unsigned char)*s))
                        d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
                else
                        break;
                if (d >= base)
                        break; /* "08": the part ends at the 8, which is then junk */
                v = v * base + d;
                if (v > 0xffffffffu)
                        return NULL;
        }
        *val = v;
        return s;
}

/* inet_aton's grammar, without its tolerance of trailing whitespace and junk. */
static int parse_v4(const char *s, struct in_addr *out)
{
        uint64_t parts[4], last;
        int n = 0;

        for (;;) {
                if (!isdigit((unsigned char)*s))
                        return 0;
                if (!(s = v4_part(s, &last)))
                        return 0;
                if (*s != '.')
                        break;
                if (n == 3 || last > 0xff)
                        return 0;
                parts[n++] = last;
                s++;
        }
        if (*s != '\0')
                return 0;
        /* The last part fills the bytes the earlier ones left: "127.1" is 127.0.0.1. */
        if (last > (0xffffffffu >> (8 * n)))
                return 0;
        uint32_t a = (uint32_t)last;
        for (int i = 0; i < n; i++)
                a |= (uint32_t)parts[i] << (24 - 8 * i);
        out->s_addr = htonl(a);
        return 1;
}

static int zone_ok(const char *z)
{
        size_t n = strlen(z);

        if (n == 0 || n >= 16)
                return 0;
        for (; *z; z++)
                if (!isalnum((unsigned char)*z) && *z != '_' && *z != '-' && *z != '.')
                        return 0;
        return 1;
}

static int parse_v6(const char *s, struct in6_addr *out, uint32_t *scope)
{
        char buf[INET6_ADDRSTRLEN + 24];
        size_t n = strlen(s);
        char *pct;

        if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
                s++;
                n -= 2;
        }
        if (n == 0 || n >= sizeof(buf))
                return 0;
        memcpy(buf, s, n);
        buf[n] = '\0';
        *scope = 0;
        if ((pct = strchr(buf, '%'))) {
                *pct = '\0';
                if (!zone_ok(pct + 1))
                        return 0;
                /* A numeric zone is the scope; a name would need the host's interfaces,
                 * which the classification does not depend on. */
                if (strspn(pct + 1, "0123456789") == strlen(pct + 1))
                        *scope = (uint32_t)strtoul(pct + 1, NULL, 10);
        }
        return inet_pton(AF_INET6, buf, out) == 1;
}

int sbx_ssrf_parse_literal(const char *text, struct sockaddr_storage *out)
{
        struct in_addr a4;
        struct in6_addr a6;
        uint32_t scope;

        if (!text || !out)
                return 0;
        memset(out, 0, sizeof(*out));
        if (parse_v4(text, &a4)) {
                struct sockaddr_in *in = (struct sockaddr_in *)out;
                in->sin_family = AF_INET;
                in->sin_addr = a4;
                return 1;
        }
        if (parse_v6(text, &a6, &scope)) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;
                in6->sin6_family = AF_INET6;
                in6->sin6_addr = a6;
                in6->sin6_scope_id = scope;
                return 1;
        }
        return 0;
}
