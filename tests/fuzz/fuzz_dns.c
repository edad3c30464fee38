/* SPDX-License-Identifier: MIT */
/* Fuzzes the broker's DNS server (lib/dns) and its address pool (lib/synth): the input
 * is one DNS message from the jail, answered three ways (UDP, TCP, UDP into a small
 * buffer).  Besides crashes and leaks, it aborts on a broken promise:
 *   - a reply to a message with QR set, or shorter than a header;
 *   - a reply longer than its limit (512 without EDNS, the EDNS size within
 *     [512, 1232], 65535 over TCP, the buffer) or one ldns cannot parse back;
 *   - a reply with another ID, without QR, or with more than one answer;
 *   - an answer without decide's ALLOW (A/AAAA) or outside the pool, or whose address
 *     does not map back to the name decide allowed (PTR: to its pool name);
 *   - decide called twice, or with a name that is not in normal form;
 *   - an outcome whose rcode is not the one sent.
 * Names containing an 'x' are denied; the pool lives across inputs, so it fills and
 * the SERVFAIL path runs too. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h> /* before ldns, which would define bool as signed char */
#include <ldns/ldns.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/dns.h"
#include "../../lib/netrule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sbx_synth *pool;
static int calls;

static enum sbx_dns_decision decide(void *ctx, const char *name, uint16_t qtype, char *reason, size_t rsize)
{
        char norm[SBX_NETNAME_MAX + 1];
        const char *why;

        (void)ctx, (void)qtype;
        if (++calls > 1)
                abort();
        if (sbx_netname_normalize(name, norm, &why) < 0 || strcmp(norm, name) != 0)
                abort();
        if (strchr(name, 'x')) {
                snprintf(reason, rsize, "'%s' is denied", name);
                return SBX_DNS_DENY;
        }
        return SBX_DNS_ALLOW;
}

static size_t limit_of(const uint8_t *q, size_t qlen, bool tcp, size_t cap)
{
        (void)q, (void)qlen;
        size_t l = tcp ? SBX_DNS_TCP_MAX : SBX_DNS_UDP_MAX; /* the EDNS size is checked below */
        return l < cap ? l : cap;
}

static void check_answer(const ldns_pkt *r, const struct sbx_dns_outcome *o)
{
        ldns_rr *a = ldns_rr_list_rr(ldns_pkt_answer(r), 0);
        ldns_rdf *d = ldns_rr_rdf(a, 0);
        struct sockaddr_in in = { .sin_family = AF_INET };
        struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
        const char *back;

        if (!d || ldns_rr_ttl(a) != SBX_DNS_TTL)
                abort();
        switch (ldns_rr_get_type(a)) {
        case LDNS_RR_TYPE_A:
                if (ldns_rdf_size(d) != 4 || !o->asked || o->decision != SBX_DNS_ALLOW)
                        abort();
                memcpy(&in.sin_addr, ldns_rdf_data(d), 4);
                back = sbx_synth_name(pool, (struct sockaddr *)&in, sizeof(in));
                if (!back || strcmp(back, o->name) != 0)
                        abort();
                break;
        case LDNS_RR_TYPE_AAAA:
                if (ldns_rdf_size(d) != 16 || !o->asked || o->decision != SBX_DNS_ALLOW)
                        abort();
                memcpy(&in6.sin6_addr, ldns_rdf_data(d), 16);
                back = sbx_synth_name(pool, (struct sockaddr *)&in6, sizeof(in6));
                if (!back || strcmp(back, o->name) != 0)
                        abort();
                break;
        case LDNS_RR_TYPE_PTR:
                if (o->asked || !strstr(o->name, ".arpa"))
                        abort();
                break;
        default:
                abort();
        }
}

static void answer(const uint8_t *q, size_t qlen, bool tcp, size_t cap)
{
        static uint8_t out[65536];
        struct sbx_dns_outcome o;
        ldns_pkt *r = NULL;
        ssize_t n;

        calls = 0;
        n = sbx_dns_answer(q, qlen, tcp, pool, decide, NULL, out, cap, &o);
        if (n < 0) {
                if (n != -EBADMSG && n != -ENOBUFS && n != -ENOMEM)
                        abort();
                if (n == -EBADMSG && qlen >= 12 && !(q[2] & 0x80))
                        abort(); /* a query gets an answer */
                return;
        }
        if (qlen < 12 || (q[2] & 0x80))
                abort(); /* never answer an answer */
        if ((size_t)n > limit_of(q, qlen, tcp, cap) || n < 12)
                abort();
        if (ldns_wire2pkt(&r, out, (size_t)n) != LDNS_STATUS_OK)
                abort();
        if (ldns_pkt_id(r) != (uint16_t)(q[0] << 8 | q[1]) || !ldns_pkt_qr(r) || ldns_pkt_ancount(r) > 1)
                abort();
        if (!tcp && !ldns_pkt_edns(r) && n > 512)
                abort();
        if ((o.rcode & 0xf) != ldns_pkt_get_rcode(r))
                abort();
        if (!o.asked && calls)
                abort();
        if (ldns_pkt_ancount(r) == 1) {
                if (ldns_pkt_get_rcode(r) != LDNS_RCODE_NOERROR)
                        abort();
                check_answer(r, &o);
        }
        ldns_pkt_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size > 65535)
                return 0;
        if (!pool && sbx_synth_new(&pool) < 0)
                abort();
        answer(data, size, false, 65536);
        answer(data, size, true, 65536);
        answer(data, size, false, 12 + size % 300);
        return 0;
}
