/* SPDX-License-Identifier: MIT */
/* Egress rules: parser and matcher.  Runs wherever a profile is read (the parser) and
 * in the broker, per connection (the matcher); pure, no I/O.  The names it judges come
 * from the jail (SNI, Host, CONNECT): hostile input, bounded and validated here. */
#include "netrule.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "ssrf.h"

/* ---- names ---- */

/* "0x7f", "123": a label a browser or inet_aton would read as part of an address. */
static int numeric_label(const char *l, size_t n)
{
        if (n >= 2 && l[0] == '0' && l[1] == 'x')
                return strspn(l + 2, "0123456789abcdef") >= n - 2;
        return strspn(l, "0123456789") >= n;
}

int sbx_netname_normalize(const char *in, char out[SBX_NETNAME_MAX + 1], const char **why)
{
        size_t n = in ? strnlen(in, SBX_NETNAME_MAX + 2) : 0, label = 0, last = 0;

        if (n > 0 && in[n - 1] == '.')
                n--; /* the root's dot: "pypi.org." is pypi.org */
        if (n == 0)
                return *why = "empty name", -EINVAL;
        if (n > SBX_NETNAME_MAX)
                return *why = "name longer than 253 characters", -EINVAL;
        for (size_t i = 0; i <= n; i++) {
                unsigned char c = i < n ? (unsigned char)in[i] : '.';

                if (c >= 0x80)
                        return *why = "non-ASCII name: write it in punycode (xn--...), e.g. with idn2(1)", -EINVAL;
                if (c == '.') {
                        if (i < n)
                                out[i] = '.';
                        if (label == 0)
                                return *why = "empty label (a leading dot or two dots in a row)", -EINVAL;
                        if (label > 63)
                                return *why = "label longer than 63 characters", -EINVAL;
                        if (out[i - 1] == '-' || out[i - label] == '-')
                                return *why = "a label may not begin or end with '-'", -EINVAL;
                        last = i - label;
                        label = 0;
                        continue;
                }
                if (c >= 'A' && c <= 'Z')
                        c = (unsigned char)(c - 'A' + 'a');
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
                        return *why = "character not allowed in a host name (letters, digits, '-', '_', '.')", -EINVAL;
                out[i] = (char)c;
                label++;
        }
        out[n] = '\0';
        /* A numeric top label is an address in disguise or nothing: never a name. */
        if (numeric_label(out + last, n - last))
                return *why = "ends in a number: not a host name, and not a valid IPv4 address", -EINVAL;
        return 0;
}

/* ---- parsing a rule ---- */

struct parse {
        const char *what; /* set on failure */
        const char *hint;
};

static int fail(struct parse *p, const char *what, const char *hint)
{
        p->what = what;
        p->hint = hint;
        return -EINVAL;
}

static int parse_port(const char *s, uint16_t *port, struct parse *p)
{
        unsigned long v = 0;
        size_t n = strspn(s, "0123456789");

        if (n == 0 || s[n] != '\0' || n > 5)
                return fail(p, "the port is not a number", "write NAME:PORT with PORT from 1 to 65535");
        v = strtoul(s, NULL, 10);
        if (v == 0 || v > 65535)
                return fail(p, "port out of range", "write a port from 1 to 65535");
        *port = (uint16_t)v;
        return 0;
}

/* An address or CIDR, in its one standard spelling (inet_pton's): a rule is read by
 * people, and "0x7f.1" in one would hide what it names. */
static int parse_addr(struct sbx_netrule *r, const char *host, struct parse *p)
{
        char buf[INET6_ADDRSTRLEN + 8];
        const char *slash = strchr(host, '/');
        size_t len = slash ? (size_t)(slash - host) : strlen(host);
        struct sockaddr_storage ss;

        if (len >= sizeof(buf))
                return fail(p, "not an address", "write an IPv4 or IPv6 address, or a CIDR such as 10.0.0.0/8");
        memcpy(buf, host, len);
        buf[len] = '\0';
        r->family = strchr(buf, ':') ? AF_INET6 : AF_INET;
        if (inet_pton(r->family, buf, r->addr) != 1) {
                if (sbx_ssrf_parse_literal(buf, &ss))
                        return fail(p, "an address in a non-standard spelling",
                                    "write it in dotted-quad (127.0.0.1) or standard IPv6 form, without a zone");
                return fail(p, "not an address", "write an IPv4 or IPv6 address, or a CIDR such as 10.0.0.0/8");
        }
        unsigned max = r->family == AF_INET ? 32 : 128;
        r->prefix = max;
        if (slash) {
                size_t d = strspn(slash + 1, "0123456789");
                if (d == 0 || d > 3 || slash[1 + d] != '\0' || (unsigned)atoi(slash + 1) > max)
                        return fail(p, "bad prefix length", "write /0 to /32 for IPv4, /0 to /128 for IPv6");
                r->prefix = (unsigned)atoi(slash + 1);
        }
        for (unsigned bit = r->prefix; bit < max; bit++)
                if (r->addr[bit / 8] & (0x80 >> (bit % 8)))
                        return fail(p, "the CIDR has bits set past its prefix length",
                                    "write the network address, e.g. 10.0.0.0/8 rather than 10.1.2.3/8");
        r->type = SBX_NETRULE_ADDR;
        return 0;
}

static int parse_name(struct sbx_netrule *r, const char *host, struct parse *p)
{
        const char *why;
        struct sockaddr_storage ss;

        if (strcmp(host, "*") == 0) {
                r->type = SBX_NETRULE_ANY;
                return 0;
        }
        r->type = SBX_NETRULE_EXACT;
        if (strncmp(host, "*.", 2) == 0) {
                r->type = SBX_NETRULE_WILDCARD;
                host += 2;
        }
        if (strchr(host, '*'))
                return fail(p, "'*' may stand only at the start, as '*.' before a domain",
                            "write '*.example.com' for the subdomains of example.com");
        if (r->type == SBX_NETRULE_WILDCARD && sbx_ssrf_parse_literal(host, &ss))
                return fail(p, "a wildcard over an address", "write the address or a CIDR such as 10.0.0.0/8");
        if (sbx_netname_normalize(host, r->name, &why) < 0)
                return fail(p, why, r->type == SBX_NETRULE_WILDCARD ? "write '*.' and a domain: '*.example.com'"
                                                                    : "write a host name such as 'registry.npmjs.org'");
        if (r->type == SBX_NETRULE_WILDCARD && !strchr(r->name, '.'))
                return fail(p, "a wildcard over a top-level domain",
                            "name the domain: '*.example.com', not '*.com'");
        return 0;
}

/* Splits "host", "host:port", "[v6]:port", "v6" (two colons or more: no port). */
static int parse_rule(struct sbx_netrule *r, const char *text, struct parse *p)
{
        char host[SBX_NETRULE_TEXT_MAX + 1];
        const char *port = NULL, *colon;
        size_t n = strlen(text);
        int bracket = 0;

        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)text[i];
                if (c >= 0x80)
                        return fail(p, "non-ASCII rule", "write the name in punycode (xn--...), e.g. with idn2(1)");
                if (c <= ' ' || c == 0x7f)
                        return fail(p, "space or control character in the rule", "write one host name per rule");
        }
        if (strstr(text, "://"))
                return fail(p, "a URL, not a host", "write the host name only: 'example.com' or 'example.com:8443'");
        if (text[0] == '[') {
                const char *end = strchr(text, ']');
                if (!end)
                        return fail(p, "'[' without ']'", "write an IPv6 address as [2001:db8::1] or [2001:db8::1]:443");
                if (end[1] != '\0' && end[1] != ':')
                        return fail(p, "text after ']'", "write [ADDRESS]:PORT");
                memcpy(host, text + 1, (size_t)(end - text - 1));
                host[end - text - 1] = '\0';
                port = end[1] == ':' ? end + 2 : NULL;
                bracket = 1;
        } else if ((colon = strchr(text, ':')) && !strchr(colon + 1, ':')) {
                memcpy(host, text, (size_t)(colon - text));
                host[colon - text] = '\0';
                port = colon + 1;
        } else
                memcpy(host, text, n + 1);
        if (port && parse_port(port, &r->port, p) < 0)
                return -EINVAL;
        struct sockaddr_storage ss;
        const char *slash = strchr(host, '/');
        if (slash && !bracket && !strchr(host, ':')) {
                char before[SBX_NETRULE_TEXT_MAX + 1];
                memcpy(before, host, (size_t)(slash - host));
                before[slash - host] = '\0';
                if (!sbx_ssrf_parse_literal(before, &ss))
                        return fail(p, "a path is not part of a rule", "write the host name only: 'example.com'");
        }
        if (bracket || strchr(host, ':') || slash) {
                if (bracket && !strchr(host, ':'))
                        return fail(p, "brackets around something that is not an IPv6 address",
                                    "brackets are for IPv6 only: write 10.0.0.5:5432");
                return parse_addr(r, host, p);
        }
        if (sbx_ssrf_parse_literal(host, &ss))
                return parse_addr(r, host, p);
        return parse_name(r, host, p);
}

/* The rule as written back: normalised, what the audit record names. */
static void rule_text(struct sbx_netrule *r)
{
        char a[INET6_ADDRSTRLEN], pfx[8] = "", port[8] = "";
        int v6 = r->type == SBX_NETRULE_ADDR && r->family == AF_INET6;

        if (r->port)
                snprintf(port, sizeof(port), ":%u", r->port);
        switch (r->type) {
        case SBX_NETRULE_EXACT:
                snprintf(r->text, sizeof(r->text), "%s%s", r->name, port);
                break;
        case SBX_NETRULE_WILDCARD:
                snprintf(r->text, sizeof(r->text), "*.%s%s", r->name, port);
                break;
        case SBX_NETRULE_ANY:
                snprintf(r->text, sizeof(r->text), "*%s", port);
                break;
        case SBX_NETRULE_ADDR:
                inet_ntop(r->family, r->addr, a, sizeof(a));
                if (r->prefix != (v6 ? 128u : 32u))
                        snprintf(pfx, sizeof(pfx), "/%u", r->prefix);
                snprintf(r->text, sizeof(r->text), "%s%s%s%s%s", v6 ? "[" : "", a, pfx, v6 ? "]" : "", port);
                break;
        }
}

/* Allow-only refusals: what an allow rule may not say, though a deny rule may. */
static int check_allow(const struct sbx_netrule *r, struct parse *p)
{
        if (r->type == SBX_NETRULE_ANY)
                return fail(p, "'*' in an allow list allows every host",
                            "list the hosts, or use the profile's unfiltered network mode");
        if (r->type == SBX_NETRULE_ADDR && r->prefix == 0)
                return fail(p, "a /0 in an allow list allows every address",
                            "list the addresses, or use the profile's unfiltered network mode");
        if ((r->type == SBX_NETRULE_EXACT || r->type == SBX_NETRULE_WILDCARD) &&
            (strcmp(r->name, "localhost") == 0 ||
             (strlen(r->name) > 10 && strcmp(r->name + strlen(r->name) - 10, ".localhost") == 0)))
                return fail(p, "localhost is never reached through the egress broker",
                            "use the profile's localhost ports instead");
        return 0;
}

/* What the user wrote, safe to print: ASCII printable only, bounded. */
static void shown(const char *text, char *buf, size_t size)
{
        size_t i = 0;

        for (; text[i] && i + 4 < size; i++) {
                unsigned char c = (unsigned char)text[i];
                buf[i] = (char)(c > ' ' && c < 0x7f ? c : '?');
        }
        if (text[i])
                memcpy(buf + i, "...", 4);
        else
                buf[i] = '\0';
}

int sbx_netrules_add(struct sbx_netrules *set, const char *text, enum sbx_netrule_kind kind, struct sbx_error *e)
{
        const char *list = kind == SBX_NETRULE_ALLOW ? "allow" : "deny";
        unsigned idx = kind == SBX_NETRULE_ALLOW ? set->n_allow : set->n_deny;
        struct sbx_netrule r = { .kind = kind, .index = idx };
        struct parse p = { 0 };
        char show[72];
        int ret;

        shown(text ? text : "", show, sizeof(show));
        if (!text || !*text)
                ret = fail(&p, "empty rule", "write a host name, '*.domain', or an address, with an optional ':PORT'");
        else if (strnlen(text, SBX_NETRULE_TEXT_MAX + 1) > SBX_NETRULE_TEXT_MAX)
                ret = fail(&p, "rule longer than 300 characters", "a host name has at most 253");
        else
                ret = parse_rule(&r, text, &p);
        if (ret == 0 && kind == SBX_NETRULE_ALLOW)
                ret = check_allow(&r, &p);
        if (ret < 0) {
                sbx_error_set(e, SBX_STAGE_PROFILE, EINVAL, NULL, NULL, "network %s[%u] '%s': %s", list, idx, show, p.what);
                sbx_error_hint(e, "%s", p.hint);
                return -EINVAL;
        }
        if (set->n >= SBX_NETRULES_MAX)
                return sbx_error_set(e, SBX_STAGE_PROFILE, E2BIG, NULL, NULL, "network %s[%u]: more than %d rules", list,
                                     idx, SBX_NETRULES_MAX);
        if (set->n == set->cap) {
                size_t cap = set->cap ? set->cap * 2 : 16;
                struct sbx_netrule *v = realloc(set->v, cap * sizeof(*v));
                if (!v)
                        return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, NULL, NULL, "network %s[%u]", list, idx);
                set->v = v;
                set->cap = cap;
        }
        rule_text(&r);
        set->v[set->n++] = r;
        if (kind == SBX_NETRULE_ALLOW)
                set->n_allow++;
        else
                set->n_deny++;
        return 0;
}

void sbx_netrules_free(struct sbx_netrules *set)
{
        free(set->v);
        *set = (struct sbx_netrules){ 0 };
}

/* ---- matching ---- */

static int port_matches(const struct sbx_netrule *r, uint16_t port, enum sbx_net_proto proto)
{
        if (r->port)
                return r->port == port;
        if (r->kind == SBX_NETRULE_DENY)
                return 1; /* a deny without a port is the whole host */
        return proto == SBX_NET_WEB && (port == 80 || port == 443);
}

static int name_matches(const struct sbx_netrule *r, const char *host)
{
        size_t hl, sl;

        switch (r->type) {
        case SBX_NETRULE_ANY:
                return 1;
        case SBX_NETRULE_EXACT:
                return strcmp(r->name, host) == 0;
        case SBX_NETRULE_WILDCARD:
                /* Strict subdomain: a dot right before the suffix, so evilpypi.org is
                 * not under pypi.org, and something before that dot, so pypi.org is
                 * not under *.pypi.org. */
                hl = strlen(host);
                sl = strlen(r->name);
                return hl > sl + 1 && host[hl - sl - 1] == '.' && strcmp(host + hl - sl, r->name) == 0;
        case SBX_NETRULE_ADDR:
                return 0;
        }
        return 0;
}

static int addr_matches(const struct sbx_netrule *r, int family, const unsigned char *a)
{
        if (r->type == SBX_NETRULE_ANY)
                return 1;
        if (r->type != SBX_NETRULE_ADDR || r->family != family)
                return 0;
        for (unsigned bit = 0; bit < r->prefix; bit++) {
                unsigned char m = (unsigned char)(0x80 >> (bit % 8));
                if ((a[bit / 8] & m) != (r->addr[bit / 8] & m))
                        return 0;
        }
        return 1;
}

/* Higher is more specific: exact names and whole addresses first, then the longer
 * suffix or prefix, then `*`; a port breaks ties. */
static unsigned specificity(const struct sbx_netrule *r)
{
        unsigned s = 0;

        switch (r->type) {
        case SBX_NETRULE_EXACT:
                s = 100000;
                break;
        case SBX_NETRULE_WILDCARD:
                s = 1000 + (unsigned)strlen(r->name);
                break;
        case SBX_NETRULE_ANY:
                s = 0;
                break;
        case SBX_NETRULE_ADDR:
                s = r->prefix == (r->family == AF_INET ? 32u : 128u) ? 100000 : 1000 + r->prefix;
                break;
        }
        return s * 2 + (r->port ? 1 : 0);
}

/* Deny wins; within a verdict the most specific rule, the first written on a tie. */
static int decide(const struct sbx_netrules *set, const char *host, int family, const unsigned char *a, uint16_t port,
                  enum sbx_net_proto proto, const struct sbx_netrule **rule)
{
        const struct sbx_netrule *best[2] = { NULL, NULL };

        for (size_t i = 0; i < set->n; i++) {
                const struct sbx_netrule *r = &set->v[i];
                int k = r->kind == SBX_NETRULE_DENY;

                if (!port_matches(r, port, proto))
                        continue;
                if (!(host ? name_matches(r, host) : addr_matches(r, family, a)))
                        continue;
                if (!best[k] || specificity(r) > specificity(best[k]))
                        best[k] = r;
        }
        if (rule)
                *rule = best[1] ? best[1] : best[0];
        return best[1] ? SBX_NET_DENY : best[0] ? SBX_NET_ALLOW : SBX_NET_NO_MATCH;
}

int sbx_netrules_match_addr(const struct sbx_netrules *set, const struct sockaddr *sa, socklen_t len, uint16_t port,
                            enum sbx_net_proto proto, const struct sbx_netrule **rule)
{
        struct sockaddr_in6 in6;
        struct sockaddr_in in;

        if (rule)
                *rule = NULL;
        if (!sa || len < (socklen_t)sizeof(sa_family_t))
                return -EINVAL;
        if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(in)) {
                memcpy(&in, sa, sizeof(in));
                return decide(set, NULL, AF_INET, (const unsigned char *)&in.sin_addr, port, proto, rule);
        }
        if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(in6)) {
                memcpy(&in6, sa, sizeof(in6));
                /* The kernel dials the IPv4 address of a mapped one: rules on
                 * 10.0.0.0/8 hold for ::ffff:10.0.0.1. */
                if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
                        return decide(set, NULL, AF_INET, in6.sin6_addr.s6_addr + 12, port, proto, rule);
                return decide(set, NULL, AF_INET6, in6.sin6_addr.s6_addr, port, proto, rule);
        }
        return -EINVAL;
}

int sbx_netrules_match(const struct sbx_netrules *set, const char *host, uint16_t port, enum sbx_net_proto proto,
                       const struct sbx_netrule **rule)
{
        char buf[SBX_NETNAME_MAX + 2], name[SBX_NETNAME_MAX + 1];
        struct sockaddr_storage ss;
        const char *why;
        size_t n;

        if (rule)
                *rule = NULL;
        if (!host)
                return -EINVAL;
        /* An address in any spelling is that address, never a name to resolve; the
         * root's dot first, as a browser drops it ("127.0.0.1."). */
        n = strnlen(host, sizeof(buf));
        if (n < sizeof(buf)) {
                memcpy(buf, host, n + 1);
                if (n > 0 && buf[n - 1] == '.')
                        buf[n - 1] = '\0';
                if (sbx_ssrf_parse_literal(buf, &ss))
                        return sbx_netrules_match_addr(set, (const struct sockaddr *)&ss, sizeof(ss), port, proto, rule);
        }
        if (sbx_netname_normalize(host, name, &why) < 0)
                return -EINVAL;
        return decide(set, name, 0, NULL, port, proto, rule);
}

int sbx_netrules_name_verdict(const struct sbx_netrules *set, const char *name, const struct sbx_netrule **rule)
{
        const struct sbx_netrule *best[2] = { NULL, NULL };

        if (rule)
                *rule = NULL;
        for (size_t i = 0; i < set->n; i++) {
                const struct sbx_netrule *r = &set->v[i];
                int k = r->kind == SBX_NETRULE_DENY;

                /* A deny on one port leaves the name to the other ports. */
                if ((k && r->port) || !name_matches(r, name))
                        continue;
                if (!best[k] || specificity(r) > specificity(best[k]))
                        best[k] = r;
        }
        if (rule)
                *rule = best[1] ? best[1] : best[0];
        return best[1] ? SBX_NET_DENY : best[0] ? SBX_NET_ALLOW : SBX_NET_NO_MATCH;
}

size_t sbx_netrules_ports(const struct sbx_netrules *set, uint16_t *ports, size_t max)
{
        size_t n = 0;

        for (size_t i = 0; i < set->n; i++) {
                const struct sbx_netrule *r = &set->v[i];
                size_t j;

                if (r->kind != SBX_NETRULE_ALLOW || !r->port)
                        continue;
                for (j = 0; j < n && ports[j] != r->port; j++)
                        ;
                if (j == n && n < max)
                        ports[n++] = r->port;
        }
        return n;
}

void sbx_netrules_to_json(FILE *f, const struct sbx_netrules *set)
{
        for (int k = 0; k < 2; k++) {
                bool first = true;

                fputs(k ? ",\"deny\":[" : "\"allow\":[", f);
                for (size_t i = 0; i < set->n; i++) {
                        if ((int)set->v[i].kind != (k ? SBX_NETRULE_DENY : SBX_NETRULE_ALLOW))
                                continue;
                        if (!first)
                                fputc(',', f);
                        first = false;
                        sbx_json_string(f, set->v[i].text);
                }
                fputc(']', f);
        }
}
