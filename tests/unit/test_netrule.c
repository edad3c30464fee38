/* SPDX-License-Identifier: MIT */
/* lib/netrule: the rule language (what parses, what is refused and how the error
 * reads), name normalisation, and the matcher: exact, strict-subdomain wildcards,
 * ports (a port-less allow is web ports only), deny wins, the most specific rule
 * reported, and names that are addresses in disguise. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/netrule.h"
#include "unit.h"

#define G "unit-netrule"

/* @text parses as a @kind rule whose normalised form is @want. */
static int parses(const char *text, enum sbx_netrule_kind kind, const char *want)
{
        struct sbx_netrules s = { 0 };
        struct sbx_error e = { 0 };
        int ok = sbx_netrules_add(&s, text, kind, &e) == 0 && s.n == 1 && strcmp(s.v[0].text, want) == 0;

        if (!ok)
                printf("  '%s': %s / %s\n", text, e.msg, s.n ? s.v[0].text : "-");
        sbx_netrules_free(&s);
        return ok;
}

/* @text is refused as a @kind rule, the message holding @what, with a hint. */
static int refused(const char *text, enum sbx_netrule_kind kind, const char *what)
{
        struct sbx_netrules s = { 0 };
        struct sbx_error e = { 0 };
        int r = sbx_netrules_add(&s, text, kind, &e);
        int ok = r < 0 && s.n == 0 && strstr(e.msg, what) && e.hint[0] && e.stage == SBX_STAGE_PROFILE;

        if (!ok)
                printf("  '%s': r=%d msg '%s' hint '%s'\n", text ? text : "(null)", r, e.msg, e.hint);
        sbx_netrules_free(&s);
        return ok;
}

static struct sbx_netrules set;

static void add(const char *text, enum sbx_netrule_kind kind)
{
        struct sbx_error e = { 0 };

        if (sbx_netrules_add(&set, text, kind, &e) < 0)
                printf("  setup: %s (%s)\n", e.msg, e.hint), unit_failed++;
}

/* The verdict for @host:@port over @proto, and the deciding rule's text. */
static int verdict(const char *host, uint16_t port, enum sbx_net_proto proto, int want, const char *rule)
{
        const struct sbx_netrule *r = (const void *)1;
        int v = sbx_netrules_match(&set, host, port, proto, &r);
        int ok = v == want && (rule ? r && strcmp(r->text, rule) == 0 : r == NULL);

        if (!ok)
                printf("  %s:%u: verdict %d rule '%s'\n", host, port, v, r ? r->text : "-");
        return ok;
}

#define W SBX_NET_WEB
#define RAW SBX_NET_RAW
#define A SBX_NETRULE_ALLOW
#define D SBX_NETRULE_DENY

int main(void)
{
        char n[SBX_NETNAME_MAX + 1];
        const char *why = NULL;
        char big[400];

        /* Normalisation. */
        CHECK(G, "norm lowercase", sbx_netname_normalize("Registry.NPMJS.org", n, &why) == 0 && !strcmp(n, "registry.npmjs.org"));
        CHECK(G, "norm one trailing dot", sbx_netname_normalize("pypi.org.", n, &why) == 0 && !strcmp(n, "pypi.org"));
        CHECK(G, "norm two trailing dots refused", sbx_netname_normalize("pypi.org..", n, &why) == -EINVAL);
        CHECK(G, "norm lone dot refused", sbx_netname_normalize(".", n, &why) == -EINVAL);
        CHECK(G, "norm empty refused", sbx_netname_normalize("", n, &why) == -EINVAL);
        CHECK(G, "norm leading dot refused", sbx_netname_normalize(".pypi.org", n, &why) == -EINVAL);
        CHECK(G, "norm double dot refused", sbx_netname_normalize("a..b", n, &why) == -EINVAL);
        CHECK(G, "norm punycode kept", sbx_netname_normalize("XN--MNCHEN-3YA.de", n, &why) == 0 && !strcmp(n, "xn--mnchen-3ya.de"));
        why = NULL;
        CHECK(G, "norm non-ASCII refused with punycode hint",
              sbx_netname_normalize("m\xc3\xbcnchen.de", n, &why) == -EINVAL && why && strstr(why, "punycode"));
        CHECK(G, "norm label 63 ok", sbx_netname_normalize("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", n, &why) == 0);
        CHECK(G, "norm label 64 refused", sbx_netname_normalize("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", n, &why) == -EINVAL);
        memset(big, 0, sizeof(big));
        for (int i = 0; i < 63 * 4; i += 2)
                memcpy(big + i, "a.", 2);
        memcpy(big + 252, "a", 1); /* 253 characters */
        CHECK(G, "norm 253 ok", strlen(big) == 253 && sbx_netname_normalize(big, n, &why) == 0);
        big[253] = '.';
        CHECK(G, "norm 253 plus root dot ok", sbx_netname_normalize(big, n, &why) == 0 && strlen(n) == 253);
        memcpy(big + 253, "aa", 3);
        CHECK(G, "norm 255 refused", sbx_netname_normalize(big, n, &why) == -EINVAL);
        CHECK(G, "norm leading hyphen refused", sbx_netname_normalize("-a.com", n, &why) == -EINVAL);
        CHECK(G, "norm trailing hyphen refused", sbx_netname_normalize("a-.com", n, &why) == -EINVAL);
        CHECK(G, "norm underscore ok", sbx_netname_normalize("_acme.a_b.com", n, &why) == 0);
        CHECK(G, "norm space refused", sbx_netname_normalize("a b.com", n, &why) == -EINVAL);
        CHECK(G, "norm NUL-free control refused", sbx_netname_normalize("a\tb.com", n, &why) == -EINVAL);
        CHECK(G, "norm slash refused", sbx_netname_normalize("a.com/x", n, &why) == -EINVAL);
        CHECK(G, "norm numeric TLD refused", sbx_netname_normalize("example.123", n, &why) == -EINVAL);
        CHECK(G, "norm hex TLD refused", sbx_netname_normalize("a.0x1f", n, &why) == -EINVAL);
        CHECK(G, "norm bare number refused", sbx_netname_normalize("2130706433", n, &why) == -EINVAL);
        CHECK(G, "norm number-led label ok", sbx_netname_normalize("1e100.net", n, &why) == 0);
        CHECK(G, "norm single label ok", sbx_netname_normalize("intranet", n, &why) == 0);
        CHECK(G, "norm NULL refused", sbx_netname_normalize(NULL, n, &why) == -EINVAL);

        /* Parsing: what is accepted, in its normalised form. */
        CHECK(G, "rule exact", parses("registry.npmjs.org", A, "registry.npmjs.org"));
        CHECK(G, "rule exact upper and root dot", parses("GitHub.COM.", A, "github.com"));
        CHECK(G, "rule wildcard", parses("*.pypi.org", A, "*.pypi.org"));
        CHECK(G, "rule wildcard upper with dot", parses("*.PyPI.org.", A, "*.pypi.org"));
        CHECK(G, "rule port", parses("github.com:22", A, "github.com:22"));
        CHECK(G, "rule wildcard port", parses("*.github.com:443", A, "*.github.com:443"));
        CHECK(G, "rule star deny", parses("*", D, "*"));
        CHECK(G, "rule star port deny", parses("*:25", D, "*:25"));
        CHECK(G, "rule ipv4", parses("10.0.0.5:5432", A, "10.0.0.5:5432"));
        CHECK(G, "rule cidr", parses("10.0.0.0/8", D, "10.0.0.0/8"));
        CHECK(G, "rule cidr port", parses("192.168.0.0/16:443", D, "192.168.0.0/16:443"));
        CHECK(G, "rule ipv6 bracketed port", parses("[2001:db8::1]:443", A, "[2001:db8::1]:443"));
        CHECK(G, "rule ipv6 bare", parses("2001:db8::1", A, "[2001:db8::1]"));
        CHECK(G, "rule ipv6 cidr bare", parses("fc00::/7", D, "[fc00::/7]"));
        CHECK(G, "rule ipv6 cidr bracketed port", parses("[fc00::/7]:80", D, "[fc00::/7]:80"));
        CHECK(G, "rule ipv6 long form normalised", parses("[2001:0db8:0000::0001]", A, "[2001:db8::1]"));
        CHECK(G, "rule port 65535", parses("a.com:65535", A, "a.com:65535"));
        CHECK(G, "rule port 1", parses("a.com:1", A, "a.com:1"));
        CHECK(G, "rule star.co.uk allowed (no PSL)", parses("*.co.uk", A, "*.co.uk"));
        CHECK(G, "rule 0/0 deny", parses("0.0.0.0/0", D, "0.0.0.0/0"));
        CHECK(G, "rule punycode", parses("xn--mnchen-3ya.de", A, "xn--mnchen-3ya.de"));

        /* Refusals: each says what, where and how. */
        CHECK(G, "refuse empty", refused("", A, "empty rule"));
        CHECK(G, "refuse NULL", refused(NULL, A, "empty rule"));
        CHECK(G, "refuse star allow", refused("*", A, "allows every host"));
        CHECK(G, "refuse star port allow", refused("*:443", A, "allows every host"));
        CHECK(G, "refuse star dot", refused("*.", A, "empty name"));
        CHECK(G, "refuse star dot deny", refused("*.", D, "empty name"));
        CHECK(G, "refuse star TLD", refused("*.com", A, "top-level"));
        CHECK(G, "refuse star TLD deny too", refused("*.com", D, "top-level"));
        CHECK(G, "refuse star in middle", refused("a.*.b", A, "'*' may stand only"));
        CHECK(G, "refuse star suffix", refused("pypi.*", A, "'*' may stand only"));
        CHECK(G, "refuse star glued", refused("*pypi.org", A, "'*' may stand only"));
        CHECK(G, "refuse double star", refused("*.*.pypi.org", A, "'*' may stand only"));
        CHECK(G, "refuse star star", refused("**.pypi.org", A, "'*' may stand only"));
        CHECK(G, "refuse leading dot", refused(".pypi.org", A, "empty label"));
        CHECK(G, "refuse two trailing dots", refused("pypi.org..", A, "empty label"));
        CHECK(G, "refuse non-ASCII", refused("m\xc3\xbcnchen.de", A, "non-ASCII"));
        CHECK(G, "refuse overlong label", refused("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", A, "63"));
        CHECK(G, "refuse port 0", refused("a.com:0", A, "port out of range"));
        CHECK(G, "refuse port 65536", refused("a.com:65536", A, "port out of range"));
        CHECK(G, "refuse port 6 digits", refused("a.com:000443", A, "not a number"));
        CHECK(G, "refuse port sign", refused("a.com:+443", A, "not a number"));
        CHECK(G, "refuse port empty", refused("a.com:", A, "not a number"));
        CHECK(G, "refuse port name", refused("a.com:https", A, "not a number"));
        CHECK(G, "refuse URL", refused("https://github.com", A, "a URL"));
        CHECK(G, "refuse path", refused("github.com/org/repo", A, "a path"));
        CHECK(G, "refuse space", refused("github.com gitlab.com", A, "space"));
        CHECK(G, "refuse control", refused("github.com\n", A, "control"));
        CHECK(G, "refuse exotic ipv4 in rule", refused("0x7f.1", D, "non-standard spelling"));
        CHECK(G, "refuse decimal ipv4 in rule", refused("2130706433:80", D, "non-standard spelling"));
        CHECK(G, "refuse ipv4 short form in rule", refused("127.1", D, "non-standard spelling"));
        CHECK(G, "refuse zone in rule", refused("fe80::1%eth0", D, "non-standard spelling"));
        CHECK(G, "refuse bad cidr bits", refused("10.1.2.3/8", D, "bits set past"));
        CHECK(G, "refuse bad prefix", refused("10.0.0.0/33", D, "prefix length"));
        CHECK(G, "refuse bad prefix v6", refused("fc00::/129", D, "prefix length"));
        CHECK(G, "refuse empty prefix", refused("10.0.0.0/", D, "prefix length"));
        CHECK(G, "refuse 0/0 allow", refused("0.0.0.0/0", A, "every address"));
        CHECK(G, "refuse ::/0 allow", refused("::/0", A, "every address"));
        CHECK(G, "refuse unclosed bracket", refused("[::1", A, "without ']'"));
        CHECK(G, "refuse junk after bracket", refused("[::1]x", A, "after ']'"));
        CHECK(G, "refuse bracketed ipv4", refused("[10.0.0.1]:80", A, "not an IPv6"));
        CHECK(G, "refuse bracketed name", refused("[github.com]", A, "not an IPv6"));
        CHECK(G, "refuse bad ipv6", refused("1:2:3:4:5:6:7:8:9", A, "not an address"));
        CHECK(G, "refuse localhost allow", refused("localhost:5432", A, "localhost"));
        CHECK(G, "refuse sub.localhost allow", refused("*.localhost", A, "localhost"));
        CHECK(G, "refuse numeric TLD", refused("example.123", A, "ends in a number"));
        CHECK(G, "refuse 1.2.3.4.5", refused("1.2.3.4.5", A, "ends in a number"));
        CHECK(G, "refuse 256.1.1.1", refused("256.1.1.1", A, "ends in a number"));
        CHECK(G, "refuse wildcard over address", refused("*.0.0.1", D, "wildcard over an address"));
        CHECK(G, "localhost may be denied", parses("localhost", D, "localhost"));
        memset(big, 'a', 350);
        big[350] = '\0';
        CHECK(G, "refuse overlong rule", refused(big, A, "longer than 300"));
        {
                struct sbx_netrules s = { 0 };
                struct sbx_error e = { 0 };

                sbx_netrules_add(&s, "a.com", A, &e);
                sbx_netrules_add(&s, "b.com", A, &e);
                sbx_netrules_add(&s, "c.com", D, &e);
                sbx_netrules_add(&s, "*.com", A, &e);
                CHECK(G, "error names list and index", strstr(e.msg, "network allow[2] '*.com'") != NULL);
                CHECK(G, "error hint says how", strstr(e.hint, "*.example.com") != NULL);
                CHECK(G, "indexes per list", s.n == 3 && s.v[1].index == 1 && s.v[2].index == 0 && s.v[2].kind == D);
                sbx_netrules_free(&s);
        }
        {
                struct sbx_netrules s = { 0 };
                struct sbx_error e = { 0 };

                sbx_netrules_add(&s, "\x1b[31mevil\x07", A, &e);
                CHECK(G, "error shows no control bytes", !strchr(e.msg, '\x1b') && !strchr(e.msg, '\x07'));
                sbx_netrules_free(&s);
        }
        {
                struct sbx_netrules s = { 0 };
                struct sbx_error e = { 0 };
                int r = 0;

                for (int i = 0; i <= SBX_NETRULES_MAX && r == 0; i++) {
                        char t[32];
                        snprintf(t, sizeof(t), "h%d.example.com", i);
                        r = sbx_netrules_add(&s, t, A, &e);
                }
                CHECK(G, "set bounded", r == -E2BIG && s.n == SBX_NETRULES_MAX && strstr(e.msg, "more than"));
                sbx_netrules_free(&s);
        }

        /* Matching. */
        add("registry.npmjs.org", A);
        add("*.pypi.org", A);
        add("pypi.org", A);
        add("github.com", A);
        add("github.com:22", A);
        add("*.github.com", A);
        add("gist.github.com", D);
        add("*.evil.github.com:443", D);
        add("ssh.github.com:443", A);
        add("10.0.0.5:5432", A);
        add("*:25", D);
        add("10.0.0.0/8", D);
        add("[2001:db8::1]:443", A);
        add("fc00::/7", D);
        add("intranet", A);
        add("files.pythonhosted.org", A);

        CHECK(G, "exact allowed on 443", verdict("registry.npmjs.org", 443, W, SBX_NET_ALLOW, "registry.npmjs.org"));
        CHECK(G, "exact allowed on 80", verdict("registry.npmjs.org", 80, W, SBX_NET_ALLOW, "registry.npmjs.org"));
        CHECK(G, "exact upper case", verdict("REGISTRY.npmjs.ORG", 443, W, SBX_NET_ALLOW, "registry.npmjs.org"));
        CHECK(G, "exact trailing dot", verdict("registry.npmjs.org.", 443, W, SBX_NET_ALLOW, "registry.npmjs.org"));
        CHECK(G, "exact two trailing dots invalid", verdict("registry.npmjs.org..", 443, W, -EINVAL, NULL));
        CHECK(G, "port-less allow not 8443", verdict("registry.npmjs.org", 8443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "port-less allow not raw 443", verdict("registry.npmjs.org", 443, RAW, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "subdomain of exact not allowed", verdict("x.registry.npmjs.org", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "wildcard one level", verdict("files.pypi.org", 443, W, SBX_NET_ALLOW, "*.pypi.org"));
        CHECK(G, "wildcard two levels", verdict("a.b.pypi.org", 443, W, SBX_NET_ALLOW, "*.pypi.org"));
        CHECK(G, "apex by its own rule", verdict("pypi.org", 443, W, SBX_NET_ALLOW, "pypi.org"));
        CHECK(G, "evilpypi.org not under *.pypi.org", verdict("evilpypi.org", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "pypi.org.evil.com not allowed", verdict("pypi.org.evil.com", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "xpypi.org not allowed", verdict("x-pypi.org", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, ".pypi.org invalid", verdict(".pypi.org", 443, W, -EINVAL, NULL));
        CHECK(G, "wildcard upper and dot", verdict("FILES.PYPI.ORG.", 443, W, SBX_NET_ALLOW, "*.pypi.org"));
        CHECK(G, "raw by host:port rule", verdict("github.com", 22, RAW, SBX_NET_ALLOW, "github.com:22"));
        CHECK(G, "web on 22 by host:port rule", verdict("github.com", 22, W, SBX_NET_ALLOW, "github.com:22"));
        CHECK(G, "port-less not raw 22 elsewhere", verdict("api.github.com", 22, RAW, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "exact beats wildcard reported", verdict("github.com", 443, W, SBX_NET_ALLOW, "github.com"));
        CHECK(G, "wildcard subdomain", verdict("api.github.com", 443, W, SBX_NET_ALLOW, "*.github.com"));
        CHECK(G, "deny wins over wildcard allow", verdict("gist.github.com", 443, W, SBX_NET_DENY, "gist.github.com"));
        CHECK(G, "port-less deny covers every port", verdict("gist.github.com", 8080, RAW, SBX_NET_DENY, "gist.github.com"));
        CHECK(G, "deny exact does not cover subdomains", verdict("x.gist.github.com", 443, W, SBX_NET_ALLOW, "*.github.com"));
        CHECK(G, "deny wildcard with port", verdict("a.evil.github.com", 443, W, SBX_NET_DENY, "*.evil.github.com:443"));
        CHECK(G, "deny wildcard with port, other port", verdict("a.evil.github.com", 80, W, SBX_NET_ALLOW, "*.github.com"));
        CHECK(G, "raw allow on 443 by named port", verdict("ssh.github.com", 443, RAW, SBX_NET_ALLOW, "ssh.github.com:443"));
        CHECK(G, "web on ssh.github.com reports exact port rule", verdict("ssh.github.com", 443, W, SBX_NET_ALLOW, "ssh.github.com:443"));
        CHECK(G, "deny star port everywhere", verdict("registry.npmjs.org", 25, RAW, SBX_NET_DENY, "*:25"));
        CHECK(G, "deny star port on a literal", verdict("8.8.8.8", 25, RAW, SBX_NET_DENY, "*:25"));
        CHECK(G, "single-label name", verdict("intranet", 80, W, SBX_NET_ALLOW, "intranet"));
        CHECK(G, "unknown host no match", verdict("example.com", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "invalid host", verdict("exa mple.com", 443, W, -EINVAL, NULL));
        CHECK(G, "non-ASCII host invalid", verdict("gith\xc3\xbc" "b.com", 443, W, -EINVAL, NULL));
        CHECK(G, "empty host invalid", verdict("", 443, W, -EINVAL, NULL));
        CHECK(G, "numeric TLD host invalid", verdict("github.123", 443, W, -EINVAL, NULL));
        CHECK(G, "bad IPv4 host invalid", verdict("256.0.0.1", 443, W, -EINVAL, NULL));
        memset(big, 'a', 399);
        big[399] = '\0';
        CHECK(G, "overlong host invalid", verdict(big, 443, W, -EINVAL, NULL));

        /* Addresses, in every spelling, are matched as addresses. */
        CHECK(G, "deny CIDR wins over an allowed address in it", verdict("10.0.0.5", 5432, RAW, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "name is not an address rule", verdict("db.internal", 5432, RAW, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "10.1 denied by 10/8", verdict("10.1", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "0xa000001 denied by 10/8", verdict("0xa000001", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "012.0.0.1 denied by 10/8", verdict("012.0.0.1", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "167772161 denied by 10/8", verdict("167772161", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "10.0.0.1. denied (root dot)", verdict("10.0.0.1.", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "mapped ::ffff:10.0.0.1 denied by 10/8", verdict("[::ffff:10.0.0.1]", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "mapped hex ::ffff:a00:1 denied", verdict("::ffff:a00:1", 443, W, SBX_NET_DENY, "10.0.0.0/8"));
        CHECK(G, "ipv6 allowed on 443", verdict("[2001:db8::1]", 443, W, SBX_NET_ALLOW, "[2001:db8::1]:443"));
        CHECK(G, "ipv6 long spelling", verdict("2001:0db8:0:0:0:0:0:1", 443, W, SBX_NET_ALLOW, "[2001:db8::1]:443"));
        CHECK(G, "ipv6 other port", verdict("[2001:db8::1]", 80, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "ULA denied", verdict("fd12::1", 443, W, SBX_NET_DENY, "[fc00::/7]"));
        CHECK(G, "127.1 no rule no match", verdict("127.1", 443, W, SBX_NET_NO_MATCH, NULL));
        CHECK(G, "number-led label is a name", verdict("1.pypi.org", 443, W, SBX_NET_ALLOW, "*.pypi.org"));
        CHECK(G, "wildcard never matches a literal", verdict("0x7f.1", 443, W, SBX_NET_NO_MATCH, NULL));
        {
                struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(5432) };
                struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
                const struct sbx_netrule *r;

                inet_pton(AF_INET, "10.9.9.9", &in.sin_addr);
                CHECK(G, "addr: resolved 10.9.9.9 denied",
                      sbx_netrules_match_addr(&set, (struct sockaddr *)&in, sizeof(in), 443, W, &r) == SBX_NET_DENY &&
                              !strcmp(r->text, "10.0.0.0/8"));
                inet_pton(AF_INET, "8.8.4.4", &in.sin_addr);
                CHECK(G, "addr: public no match",
                      sbx_netrules_match_addr(&set, (struct sockaddr *)&in, sizeof(in), 443, W, &r) == SBX_NET_NO_MATCH && !r);
                inet_pton(AF_INET6, "::ffff:10.2.3.4", &in6.sin6_addr);
                CHECK(G, "addr: mapped denied",
                      sbx_netrules_match_addr(&set, (struct sockaddr *)&in6, sizeof(in6), 443, W, &r) == SBX_NET_DENY);
                CHECK(G, "addr: short length refused",
                      sbx_netrules_match_addr(&set, (struct sockaddr *)&in6, sizeof(in6) - 1, 443, W, &r) == -EINVAL);
                CHECK(G, "addr: NULL refused", sbx_netrules_match_addr(&set, NULL, 0, 443, W, &r) == -EINVAL);
        }
        sbx_netrules_free(&set);

        /* Specificity: the most specific rule is reported; a tie keeps the first. */
        add("*.example.com", A);
        add("*.a.example.com", A);
        add("b.a.example.com", A);
        add("*.a.example.com:443", A);
        add("*", D);
        add("*.d.example.com", D);
        add("x.d.example.com:443", D);
        CHECK(G, "deny * wins over every allow", verdict("c.a.example.com", 443, W, SBX_NET_DENY, "*"));
        sbx_netrules_free(&set);
        add("*.example.com", A);
        add("*.a.example.com", A);
        add("b.a.example.com", A);
        add("*.a.example.com:443", A);
        add("*.d.example.com", D);
        add("x.d.example.com:443", D);
        CHECK(G, "longer suffix with port wins", verdict("c.a.example.com", 443, W, SBX_NET_ALLOW, "*.a.example.com:443"));
        CHECK(G, "longer suffix on 80", verdict("c.a.example.com", 80, W, SBX_NET_ALLOW, "*.a.example.com"));
        CHECK(G, "exact beats longer wildcard", verdict("b.a.example.com", 443, W, SBX_NET_ALLOW, "b.a.example.com"));
        CHECK(G, "shorter wildcard", verdict("z.example.com", 443, W, SBX_NET_ALLOW, "*.example.com"));
        CHECK(G, "deny exact with port most specific", verdict("x.d.example.com", 443, W, SBX_NET_DENY, "x.d.example.com:443"));
        CHECK(G, "deny wildcard elsewhere", verdict("x.d.example.com", 80, W, SBX_NET_DENY, "*.d.example.com"));
        CHECK(G, "NULL rule pointer accepted", sbx_netrules_match(&set, "z.example.com", 443, W, NULL) == SBX_NET_ALLOW);
        CHECK(G, "NULL host refused", sbx_netrules_match(&set, NULL, 443, W, NULL) == -EINVAL);
        sbx_netrules_free(&set);

        /* An empty set matches nothing (the broker's default is deny). */
        CHECK(G, "empty set no match", verdict("github.com", 443, W, SBX_NET_NO_MATCH, NULL));
        return unit_failed ? 1 : 0;
}
