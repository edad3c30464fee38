/* SPDX-License-Identifier: MIT */
/* Fuzzes the egress rule parser, the host-name normaliser, the address-literal parser
 * and the matcher (lib/netrule, lib/ssrf).  Besides crashes, it aborts on a broken
 * promise: a refusal without a message or a hint; a rule whose normalised form does
 * not parse back to itself; a name accepted as a name that glibc would read as an
 * address (inet_aton, inet_pton) -- the "never resolve an address as a name" rule;
 * an IPv4 literal read differently from inet_aton; a literal matched by a name rule;
 * a verdict without its rule. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/netrule.h"
#include "../../lib/ssrf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rule(const char *s, enum sbx_netrule_kind kind)
{
        struct sbx_netrules set = { 0 }, again = { 0 };
        struct sbx_error e = { 0 };

        if (sbx_netrules_add(&set, s, kind, &e) < 0) {
                if (!e.msg[0] || !e.hint[0])
                        abort();
                return;
        }
        /* The normalised text is a rule of its own, and a fixed point. */
        if (sbx_netrules_add(&again, set.v[0].text, kind, &e) < 0 || strcmp(again.v[0].text, set.v[0].text) != 0)
                abort();
        sbx_netrules_free(&again);
        sbx_netrules_free(&set);
}

static int has_space(const char *s)
{
        for (; *s; s++)
                if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
                        return 1;
        return 0;
}

static void check_literal(const char *s)
{
        struct sockaddr_storage ss;
        struct sbx_ssrf_verdict v;
        struct in_addr a4;
        struct in6_addr a6;
        int lit = sbx_ssrf_parse_literal(s, &ss);

        if (!has_space(s) && inet_aton(s, &a4) &&
            !(lit && ss.ss_family == AF_INET && ((struct sockaddr_in *)&ss)->sin_addr.s_addr == a4.s_addr))
                abort(); /* an address glibc reads that we would not */
        if (lit && ss.ss_family == AF_INET && !inet_aton(s, &a4))
                abort(); /* an IPv4 address glibc would not read */
        if (inet_pton(AF_INET6, s, &a6) == 1 && !lit)
                abort();
        if (lit && (sbx_ssrf_check((struct sockaddr *)&ss, sizeof(ss), &v) != 0 || !v.cls || !v.reason[0]))
                abort();
}

static void check_name(const char *s)
{
        char n[SBX_NETNAME_MAX + 1], n2[SBX_NETNAME_MAX + 1];
        struct in_addr a4;
        struct in6_addr a6;
        const char *why = NULL;

        if (sbx_netname_normalize(s, n, &why) < 0) {
                if (!why)
                        abort();
                return;
        }
        /* A name is never an address to the resolver, and normalising is idempotent. */
        if (inet_aton(n, &a4) || inet_pton(AF_INET6, n, &a6) == 1)
                abort();
        if (sbx_netname_normalize(n, n2, &why) < 0 || strcmp(n, n2) != 0)
                abort();
}

static void check_match(const char *s)
{
        static const char *const allow[] = { "*.example.com", "example.com", "github.com:22", "10.0.0.5:5432",
                                             "[2001:db8::1]:443" };
        static const char *const deny[] = { "*:25", "bad.example.com", "10.0.0.0/8", "fc00::/7" };
        struct sbx_netrules set = { 0 };
        struct sbx_error e = { 0 };
        struct sockaddr_storage ss;

        for (size_t i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
                sbx_netrules_add(&set, allow[i], SBX_NETRULE_ALLOW, &e);
        for (size_t i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
                sbx_netrules_add(&set, deny[i], SBX_NETRULE_DENY, &e);
        if (set.n != 9)
                abort();
        for (int port = 0; port < 3; port++) {
                static const uint16_t ports[] = { 443, 22, 25 };
                const struct sbx_netrule *r;
                int v = sbx_netrules_match(&set, s, ports[port], port ? SBX_NET_RAW : SBX_NET_WEB, &r);

                if (v == SBX_NET_NO_MATCH || v == -22 /* -EINVAL */) {
                        if (r)
                                abort();
                        continue;
                }
                if ((v != SBX_NET_ALLOW && v != SBX_NET_DENY) || !r)
                        abort();
                if ((v == SBX_NET_ALLOW) != (r->kind == SBX_NETRULE_ALLOW))
                        abort();
                if (sbx_ssrf_parse_literal(s, &ss) && r->type != SBX_NETRULE_ADDR && r->type != SBX_NETRULE_ANY)
                        abort(); /* an address matched by a name rule */
        }
        sbx_netrules_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *s;

        if (size > 1024)
                return 0;
        if (!(s = strndup((const char *)data, size)))
                return 0;
        check_rule(s, SBX_NETRULE_ALLOW);
        check_rule(s, SBX_NETRULE_DENY);
        check_literal(s);
        check_name(s);
        check_match(s);
        free(s);
        return 0;
}
