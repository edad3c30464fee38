/* SPDX-License-Identifier: MIT */
/* The broker's verdicts: the plan's rules, the site's on top (its allow rules a
 * ceiling, its deny rules added), and the SSRF ranges for every address dialled. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "egress-int.h"

__attribute__((format(printf, 5, 6))) static void set(struct eg_verdict *v, bool allowed, const char *code,
                                                      const struct sbx_netrule *rule, const char *fmt, ...)
{
        va_list ap;

        v->allowed = allowed;
        snprintf(v->code, sizeof(v->code), "%s", code);
        va_start(ap, fmt);
        vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
        va_end(ap);
        snprintf(v->rule, sizeof(v->rule), "%s", rule ? rule->text : "");
}

/* One rule set's word on a name or an address (the other NULL). */
static int ask(const struct sbx_netrules *set, const char *host, const struct sockaddr *sa, socklen_t len, uint16_t port,
               enum sbx_net_proto proto, const struct sbx_netrule **rule)
{
        return host ? sbx_netrules_match(set, host, port, proto, rule)
                    : sbx_netrules_match_addr(set, sa, len, port, proto, rule);
}

static void judge(const struct eg_broker *b, const char *host, const struct sockaddr *sa, socklen_t len, uint16_t port,
                  enum sbx_net_proto proto, const char *what, struct eg_verdict *v)
{
        const struct sbx_netrules *site = &b->p->net_site;
        const struct sbx_netrule *rule = NULL, *srule = NULL;
        int r = ask(&b->p->net_rules, host, sa, len, port, proto, &rule);
        int s = site->n ? ask(site, host, sa, len, port, proto, &srule) : SBX_NET_NO_MATCH;

        if (r < 0)
                return set(v, false, "bad-name", NULL, "'%s' is not a host name", what);
        if (s == SBX_NET_DENY)
                return set(v, false, "denied", srule, "%s is denied by the site policy", what);
        if (r == SBX_NET_DENY)
                return set(v, false, "denied", rule, "%s is denied by the profile", what);
        if (r != SBX_NET_ALLOW)
                return set(v, false, "not-allowlisted", NULL, "%s is not on the profile's allowlist (network.allow)", what);
        if (site->n_allow && s != SBX_NET_ALLOW)
                return set(v, false, "not-allowlisted", NULL, "%s is not on the site policy's allowlist (network.allow)", what);
        set(v, true, "", rule, "%s", "allowed");
}

void eg_decide_name(const struct eg_broker *b, const char *host, uint16_t port, enum sbx_net_proto proto,
                    struct eg_verdict *v)
{
        char what[SBX_NETNAME_MAX + 16];

        snprintf(what, sizeof(what), "%s:%u", host, port);
        judge(b, host, NULL, 0, port, proto, what, v);
}

void eg_decide_dns(const struct eg_broker *b, const char *name, struct eg_verdict *v)
{
        const struct sbx_netrules *site = &b->p->net_site;
        const struct sbx_netrule *rule = NULL, *srule = NULL;
        int r = sbx_netrules_name_verdict(&b->p->net_rules, name, &rule);
        int s = site->n ? sbx_netrules_name_verdict(site, name, &srule) : SBX_NET_NO_MATCH;

        if (s == SBX_NET_DENY)
                return set(v, false, "denied", srule, "%s is denied by the site policy", name);
        if (r == SBX_NET_DENY)
                return set(v, false, "denied", rule, "%s is denied by the profile", name);
        if (r != SBX_NET_ALLOW)
                return set(v, false, "not-allowlisted", NULL, "%s is not on the profile's allowlist (network.allow)", name);
        if (site->n_allow && s != SBX_NET_ALLOW)
                return set(v, false, "not-allowlisted", NULL, "%s is not on the site policy's allowlist (network.allow)", name);
        set(v, true, "", rule, "%s", "allowed");
}

/* An address of this host, on any interface of the broker's network namespace (the
 * host's): a connection there reaches whatever listens on the host's wildcard address
 * (a database on 0.0.0.0, a container runtime's API), as loopback would, whichever
 * range the address lies in, public ones included.  An IPv4-mapped address is its
 * IPv4 address.  When the interfaces cannot be read, every address is one (refused). */
static bool host_address(const struct sockaddr *sa)
{
        struct ifaddrs *ifs;
        struct in_addr v4 = { 0 };
        const struct in6_addr *v6 = NULL;
        bool found = false;

        if (sa->sa_family == AF_INET) {
                v4 = ((const struct sockaddr_in *)sa)->sin_addr;
        } else {
                v6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
                if (IN6_IS_ADDR_V4MAPPED(v6)) {
                        memcpy(&v4, v6->s6_addr + 12, 4);
                        v6 = NULL;
                }
        }
        if (getifaddrs(&ifs) < 0)
                return true;
        for (const struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
                const struct sockaddr *a = i->ifa_addr;

                if (!a)
                        continue;
                if (!v6 && a->sa_family == AF_INET)
                        found = ((const struct sockaddr_in *)a)->sin_addr.s_addr == v4.s_addr;
                else if (v6 && a->sa_family == AF_INET6)
                        found = memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, v6, sizeof(*v6)) == 0;
        }
        freeifaddrs(ifs);
        return found;
}

void eg_decide_addr(const struct eg_broker *b, const struct sockaddr *sa, socklen_t len, uint16_t port,
                    enum sbx_net_proto proto, bool literal, struct eg_verdict *v)
{
        char text[INET6_ADDRSTRLEN + 8] = "?";
        struct sbx_ssrf_verdict sv;
        const struct sbx_netrule *rule = NULL;
        bool named;

        if (sa->sa_family == AF_INET)
                inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, text, sizeof(text));
        else if (sa->sa_family == AF_INET6)
                inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, text, sizeof(text));
        /* A name's addresses pass the address rules too: a deny on 10.0.0.0/8 holds
         * for a name that resolves there.  A literal is judged by them alone. */
        judge(b, NULL, sa, len, port, proto, text, v);
        if (!literal && !v->allowed && strcmp(v->code, "not-allowlisted") == 0)
                set(v, true, "", NULL, "%s", "allowed"); /* the name was allowed; no address rule needed */
        if (!v->allowed)
                return;
        named = sbx_netrules_match_addr(&b->p->net_rules, sa, len, port, proto, &rule) == SBX_NET_ALLOW;
        if (sbx_ssrf_check(sa, len, &sv) < 0)
                return set(v, false, "ssrf-unknown", NULL, "%s is not an address sbx can check", text);
        if (sbx_ssrf_refused(&sv, named)) {
                set(v, false, "", NULL, "%s", sv.reason);
                snprintf(v->code, sizeof(v->code), "ssrf-%s", sv.cls);
                return;
        }
        if (host_address(sa))
                return set(v, false, "ssrf-host", NULL, "an address of this host %s (reaches its own services)", text);
        v->allowed = true;
}
