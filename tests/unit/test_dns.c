/* SPDX-License-Identifier: MIT */
/* lib/dns: real queries built with ldns (and raw bytes where ldns would not write
 * them), each reply parsed back with ldns and checked field by field: allowed and
 * denied names per type, EDE, the pool round trip, malformed packets (cut short,
 * pointer loops, two questions, two OPTs, QR set), long names and truncation, reverse
 * lookups, a full pool. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h> /* before ldns, which would define bool as signed char */
#include <ldns/ldns.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../lib/dns.h"
#include "unit.h"

#define G "unit-dns"

/* The policy: names containing "denied" are denied, everything else allowed. */
struct policy {
        int calls;
        char last[256];
        uint16_t last_type;
};

static enum sbx_dns_decision decide(void *ctx, const char *name, uint16_t qtype, char *reason, size_t size)
{
        struct policy *p = ctx;

        p->calls++;
        snprintf(p->last, sizeof(p->last), "%s", name);
        p->last_type = qtype;
        if (strstr(name, "denied")) {
                snprintf(reason, size, "'%s' matches deny rule 'denied.test'", name);
                return SBX_DNS_DENY;
        }
        return SBX_DNS_ALLOW;
}

static struct sbx_synth *pool;
static struct policy pol;
static struct sbx_dns_outcome out_o;
static uint8_t out[65536];
static ssize_t out_n;

/* A query for @name/@type with ID 0x1234 and RD; @edns: its payload size, 0 for none. */
static size_t query(uint8_t *buf, size_t cap, const char *name, ldns_rr_type type, uint16_t edns)
{
        ldns_pkt *p = NULL;
        uint8_t *wire = NULL;
        size_t n = 0;

        if (ldns_pkt_query_new_frm_str(&p, name, type, LDNS_RR_CLASS_IN, LDNS_RD) != LDNS_STATUS_OK)
                abort();
        ldns_pkt_set_id(p, 0x1234);
        if (edns)
                ldns_pkt_set_edns_udp_size(p, edns);
        if (ldns_pkt2wire(&wire, p, &n) != LDNS_STATUS_OK || n > cap)
                abort();
        memcpy(buf, wire, n);
        free(wire);
        ldns_pkt_free(p);
        return n;
}

/* Sends @q to the server with the test pool and policy; the reply parsed, or NULL. */
static ldns_pkt *ask_raw(const uint8_t *q, size_t n, bool tcp)
{
        ldns_pkt *r = NULL;

        out_n = sbx_dns_answer(q, n, tcp, pool, decide, &pol, out, sizeof(out), &out_o);
        if (out_n < 0)
                return NULL;
        if (ldns_wire2pkt(&r, out, (size_t)out_n) != LDNS_STATUS_OK)
                return NULL;
        return r;
}

static ldns_pkt *ask(const char *name, ldns_rr_type type, uint16_t edns)
{
        uint8_t q[1024];
        size_t n = query(q, sizeof(q), name, type, edns);

        return ask_raw(q, n, false);
}

static int rcode(const ldns_pkt *r)
{
        if (!r)
                return -1;
        return (ldns_pkt_edns(r) ? ldns_pkt_edns_extended_rcode(r) << 4 : 0) | (int)ldns_pkt_get_rcode(r);
}

/* The reply's header says: a response to our query, RD echoed, RA set. */
static bool header_ok(const ldns_pkt *r)
{
        return r && ldns_pkt_id(r) == 0x1234 && ldns_pkt_qr(r) && ldns_pkt_rd(r) && ldns_pkt_ra(r) &&
               ldns_pkt_get_opcode(r) == LDNS_PACKET_QUERY;
}

/* The reply echoes the question @name/@type exactly (letter case included). */
static bool question_is(const ldns_pkt *r, const char *name, ldns_rr_type type)
{
        ldns_rdf *want = ldns_dname_new_frm_str(name);
        bool ok;

        if (!r || ldns_pkt_qdcount(r) != 1) {
                ldns_rdf_deep_free(want);
                return false;
        }
        ldns_rr *q = ldns_rr_list_rr(ldns_pkt_question(r), 0);
        ok = ldns_rr_get_type(q) == type && ldns_rdf_size(want) == ldns_rdf_size(ldns_rr_owner(q)) &&
             memcmp(ldns_rdf_data(want), ldns_rdf_data(ldns_rr_owner(q)), ldns_rdf_size(want)) == 0;
        ldns_rdf_deep_free(want);
        return ok;
}

/* The EDE option of the reply: its code, and its text into @text; -1 when none. */
static int ede(ldns_pkt *r, char *text, size_t size)
{
        ldns_edns_option_list *l = r ? ldns_pkt_edns_get_option_list(r) : NULL;

        text[0] = '\0';
        for (size_t i = 0; l && i < ldns_edns_option_list_get_count(l); i++) {
                ldns_edns_option *o = ldns_edns_option_list_get_option(l, i);
                if (ldns_edns_get_code(o) != LDNS_EDNS_EDE || ldns_edns_get_size(o) < 2)
                        continue;
                const uint8_t *d = ldns_edns_get_data(o);
                size_t n = ldns_edns_get_size(o) - 2;
                snprintf(text, size, "%.*s", (int)n, (const char *)d + 2);
                return d[0] << 8 | d[1];
        }
        return -1;
}

/* The one answer's address as text, "" when the answer is not one A/AAAA record. */
static const char *answer_addr(const ldns_pkt *r, char *buf, size_t size)
{
        buf[0] = '\0';
        if (!r || ldns_pkt_ancount(r) != 1)
                return buf;
        ldns_rr *a = ldns_rr_list_rr(ldns_pkt_answer(r), 0);
        ldns_rdf *d = ldns_rr_rdf(a, 0);
        if (ldns_rr_ttl(a) != SBX_DNS_TTL || ldns_rr_get_class(a) != LDNS_RR_CLASS_IN || !d)
                return buf;
        if (ldns_rr_get_type(a) == LDNS_RR_TYPE_A && ldns_rdf_size(d) == 4)
                inet_ntop(AF_INET, ldns_rdf_data(d), buf, (socklen_t)size);
        else if (ldns_rr_get_type(a) == LDNS_RR_TYPE_AAAA && ldns_rdf_size(d) == 16)
                inet_ntop(AF_INET6, ldns_rdf_data(d), buf, (socklen_t)size);
        return buf;
}

static const char *name_back(const char *addr)
{
        struct sockaddr_storage ss = { 0 };
        socklen_t len;

        if (strchr(addr, ':')) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
                in6->sin6_family = AF_INET6;
                inet_pton(AF_INET6, addr, &in6->sin6_addr);
                len = sizeof(*in6);
        } else {
                struct sockaddr_in *in = (struct sockaddr_in *)&ss;
                in->sin_family = AF_INET;
                inet_pton(AF_INET, addr, &in->sin_addr);
                len = sizeof(*in);
        }
        return sbx_synth_name(pool, (struct sockaddr *)&ss, len);
}

static void test_allowed(void)
{
        char a[64], a2[64], a6[64];
        const char *n;
        ldns_pkt *r;

        pol.calls = 0;
        r = ask("registry.npmjs.org", LDNS_RR_TYPE_A, 0);
        CHECK(G, "A allowed: NOERROR, header echoed", header_ok(r) && rcode(r) == LDNS_RCODE_NOERROR);
        CHECK(G, "A allowed: the question echoed", question_is(r, "registry.npmjs.org.", LDNS_RR_TYPE_A));
        CHECK(G, "A allowed: one A record in the pool, TTL 10",
              strncmp(answer_addr(r, a, sizeof(a)), "198.18.", 7) == 0);
        CHECK(G, "A allowed: the address maps back to the name",
              (n = name_back(a)) && strcmp(n, "registry.npmjs.org") == 0);
        CHECK(G, "A allowed: decide called once with the name and type",
              pol.calls == 1 && strcmp(pol.last, "registry.npmjs.org") == 0 && pol.last_type == LDNS_RR_TYPE_A);
        CHECK(G, "A allowed: outcome",
              out_o.asked && out_o.decision == SBX_DNS_ALLOW && out_o.rcode == LDNS_RCODE_NOERROR &&
                      out_o.qtype == LDNS_RR_TYPE_A && strcmp(out_o.name, "registry.npmjs.org") == 0);
        CHECK(G, "A allowed, no EDNS in the query: none in the reply", r && !ldns_pkt_edns(r) && out[11] == 0);
        ldns_pkt_free(r);

        r = ask("registry.npmjs.org", LDNS_RR_TYPE_A, 1232);
        CHECK(G, "the same name again: the same address",
              rcode(r) == 0 && strcmp(answer_addr(r, a2, sizeof(a2)), a) == 0);
        CHECK(G, "EDNS in the query: OPT in the reply, size 1232, version 0",
              r && ldns_pkt_edns(r) && ldns_pkt_edns_udp_size(r) == 1232 && ldns_pkt_edns_version(r) == 0);
        ldns_pkt_free(r);

        r = ask("registry.npmjs.org", LDNS_RR_TYPE_AAAA, 0);
        CHECK(G, "AAAA allowed: one AAAA record in the ULA /64",
              rcode(r) == 0 && strncmp(answer_addr(r, a6, sizeof(a6)), "fd5b:7800::", 11) == 0);
        CHECK(G, "AAAA: the same index as the A, and it maps back",
              strcmp(strrchr(a6, ':') + 1, "1") == 0 && strcmp(a, "198.18.0.1") == 0 && (n = name_back(a6)) &&
                      strcmp(n, "registry.npmjs.org") == 0);
        ldns_pkt_free(r);

        r = ask("ReGiStRy.NPMJS.org.", LDNS_RR_TYPE_A, 0);
        CHECK(G, "upper case: the same address", rcode(r) == 0 && strcmp(answer_addr(r, a2, sizeof(a2)), a) == 0);
        CHECK(G, "upper case: the question echoed in its own case",
              question_is(r, "ReGiStRy.NPMJS.org.", LDNS_RR_TYPE_A));
        CHECK(G, "upper case: decide sees the normalised name", strcmp(pol.last, "registry.npmjs.org") == 0);
        ldns_pkt_free(r);

        r = ask("pypi.org", LDNS_RR_TYPE_A, 0);
        CHECK(G, "a second name gets the next address", strcmp(answer_addr(r, a2, sizeof(a2)), "198.18.0.2") == 0);
        ldns_pkt_free(r);

        static const ldns_rr_type nodata[] = { LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_MX, LDNS_RR_TYPE_CNAME,
                                               LDNS_RR_TYPE_NS, LDNS_RR_TYPE_SRV, LDNS_RR_TYPE_SOA,
                                               (ldns_rr_type)64, (ldns_rr_type)65, LDNS_RR_TYPE_CAA };
        int ok = 1;
        for (size_t i = 0; i < sizeof(nodata) / sizeof(nodata[0]); i++) {
                pol.calls = 0;
                r = ask("pypi.org", nodata[i], 1232);
                if (!header_ok(r) || rcode(r) != LDNS_RCODE_NOERROR || ldns_pkt_ancount(r) != 0 ||
                    ldns_pkt_nscount(r) != 0 || pol.calls != 1 || !question_is(r, "pypi.org.", nodata[i])) {
                        printf("  type %d: rcode %d ancount %d calls %d\n", nodata[i], rcode(r),
                               r ? ldns_pkt_ancount(r) : -1, pol.calls);
                        ok = 0;
                }
                ldns_pkt_free(r);
        }
        CHECK(G, "TXT, MX, CNAME, NS, SRV, SOA, SVCB, HTTPS, CAA allowed: NOERROR, no data, decide once", ok);
        CHECK(G, "no-data types took no address", sbx_synth_count(pool) == 2);
}

static void test_denied(void)
{
        char text[256], a[64];
        ldns_pkt *r;

        pol.calls = 0;
        r = ask("exfil.denied.test", LDNS_RR_TYPE_A, 1232);
        CHECK(G, "denied A with EDNS: NXDOMAIN", header_ok(r) && rcode(r) == LDNS_RCODE_NXDOMAIN);
        CHECK(G, "denied A: no answer, the question echoed",
              r && ldns_pkt_ancount(r) == 0 && question_is(r, "exfil.denied.test.", LDNS_RR_TYPE_A));
        CHECK(G, "denied A with EDNS: EDE 15 with the reason as text",
              ede(r, text, sizeof(text)) == LDNS_EDE_BLOCKED &&
                      strcmp(text, "'exfil.denied.test' matches deny rule 'denied.test'") == 0);
        CHECK(G, "denied: outcome", out_o.asked && out_o.decision == SBX_DNS_DENY &&
                                            out_o.rcode == LDNS_RCODE_NXDOMAIN && strstr(out_o.reason, "deny rule") &&
                                            strcmp(out_o.name, "exfil.denied.test") == 0 && pol.calls == 1);
        CHECK(G, "denied: no address taken", sbx_synth_count(pool) == 2);
        ldns_pkt_free(r);

        r = ask("exfil.denied.test", LDNS_RR_TYPE_AAAA, 0);
        CHECK(G, "denied AAAA without EDNS: plain NXDOMAIN, no OPT",
              header_ok(r) && rcode(r) == LDNS_RCODE_NXDOMAIN && !ldns_pkt_edns(r) && out[10] == 0 && out[11] == 0 &&
                      ede(r, text, sizeof(text)) == -1);
        ldns_pkt_free(r);

        static const ldns_rr_type types[] = { LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_MX, (ldns_rr_type)64,
                                              (ldns_rr_type)65, LDNS_RR_TYPE_CNAME, LDNS_RR_TYPE_SRV };
        int ok = 1;
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
                pol.calls = 0;
                r = ask("aGVsbG8gd29ybGQ.denied.test", types[i], 1232);
                if (rcode(r) != LDNS_RCODE_NXDOMAIN || ldns_pkt_ancount(r) != 0 || pol.calls != 1 ||
                    ede(r, text, sizeof(text)) != LDNS_EDE_BLOCKED)
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "TXT, MX, SVCB, HTTPS, CNAME, SRV denied: NXDOMAIN + EDE 15", ok);

        /* A NULL callback denies. */
        uint8_t q[512];
        size_t n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 0);
        out_n = sbx_dns_answer(q, n, false, pool, NULL, NULL, out, sizeof(out), &out_o);
        CHECK(G, "no decide callback: NXDOMAIN", out_n > 12 && (out[3] & 0xf) == LDNS_RCODE_NXDOMAIN &&
                                                         out_o.decision == SBX_DNS_DENY);
        /* A callback that returns neither ALLOW nor DENY, nor terminates its reason. */
        (void)a;
}

static enum sbx_dns_decision decide_odd(void *ctx, const char *name, uint16_t qtype, char *reason, size_t size)
{
        (void)ctx, (void)name, (void)qtype;
        memset(reason, 'x', size); /* no NUL */
        return (enum sbx_dns_decision)7;
}

static void test_odd_callback(void)
{
        uint8_t q[512];
        size_t n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 1232);
        ldns_pkt *r = NULL;
        char text[256];

        out_n = sbx_dns_answer(q, n, false, pool, decide_odd, NULL, out, sizeof(out), &out_o);
        CHECK(G, "a decision that is neither ALLOW nor DENY denies",
              out_n > 0 && ldns_wire2pkt(&r, out, (size_t)out_n) == LDNS_STATUS_OK &&
                      rcode(r) == LDNS_RCODE_NXDOMAIN && out_o.decision == SBX_DNS_DENY);
        CHECK(G, "an unterminated reason is cut at 159 bytes",
              strlen(out_o.reason) == 159 && ede(r, text, sizeof(text)) == LDNS_EDE_BLOCKED && strlen(text) == 159);
        ldns_pkt_free(r);
}

static void test_refused(void)
{
        static const ldns_rr_type meta[] = { LDNS_RR_TYPE_ANY, LDNS_RR_TYPE_AXFR, LDNS_RR_TYPE_IXFR,
                                             LDNS_RR_TYPE_MAILA, LDNS_RR_TYPE_MAILB, LDNS_RR_TYPE_TSIG,
                                             LDNS_RR_TYPE_OPT };
        int ok = 1;

        for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]); i++) {
                pol.calls = 0;
                ldns_pkt *r = ask("pypi.org", meta[i], 0);
                if (!header_ok(r) || rcode(r) != LDNS_RCODE_REFUSED || ldns_pkt_ancount(r) || pol.calls ||
                    out_o.asked || !question_is(r, "pypi.org.", meta[i]))
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "ANY, AXFR, IXFR, MAILA, MAILB, TSIG, OPT: REFUSED, decide not called", ok);

        /* Class CH (version.bind) */
        uint8_t q[512];
        size_t n = query(q, sizeof(q), "version.bind", LDNS_RR_TYPE_TXT, 0);
        q[n - 1] = LDNS_RR_CLASS_CH;
        pol.calls = 0;
        ldns_pkt *r = ask_raw(q, n, false);
        CHECK(G, "class CH: REFUSED, decide not called", header_ok(r) && rcode(r) == LDNS_RCODE_REFUSED && !pol.calls);
        ldns_pkt_free(r);

        /* Opcodes other than QUERY. */
        ok = 1;
        for (int op = 1; op < 16; op++) {
                n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 0);
                q[2] = (uint8_t)((q[2] & 0x87) | op << 3);
                pol.calls = 0;
                r = ask_raw(q, n, false);
                if (!r || rcode(r) != LDNS_RCODE_NOTIMPL || (int)ldns_pkt_get_opcode(r) != op || ldns_pkt_qdcount(r) ||
                    pol.calls)
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "opcodes 1-15 (IQUERY, STATUS, NOTIFY, UPDATE...): NOTIMP, header only", ok);
}

static void test_names(void)
{
        char text[256];
        ldns_pkt *r;
        int ok = 1;

        static const char *const literals[] = { "1.2.3.4", "127.0.0.1", "169.254.169.254.", "0x7f.1",
                                                "2130706433", "10.1" };
        for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
                pol.calls = 0;
                r = ask(literals[i], LDNS_RR_TYPE_A, 1232);
                if (rcode(r) != LDNS_RCODE_NXDOMAIN || pol.calls || ldns_pkt_ancount(r) || out_o.asked ||
                    !out_o.reason[0] || ede(r, text, sizeof(text)) != -1) {
                        printf("  %s: rcode %d calls %d reason '%s'\n", literals[i], rcode(r), pol.calls, out_o.reason);
                        ok = 0;
                }
                ldns_pkt_free(r);
        }
        CHECK(G, "address literals as names: NXDOMAIN, decide not called, a reason", ok);

        /* Labels ldns writes escaped: a dot, a NUL, a space inside a label. */
        static const char *const bad[] = { "a\\.b.example.com", "a\\000b.example.com", "a\\032b.example.com",
                                           "-lead.example.com", "caf\\195\\169.example.com", "." };
        ok = 1;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                pol.calls = 0;
                r = ask(bad[i], LDNS_RR_TYPE_A, 0);
                if (rcode(r) != LDNS_RCODE_NXDOMAIN || pol.calls || out_o.asked ||
                    strncmp(out_o.reason, "not a host name", 15) != 0) {
                        printf("  %s: rcode %d calls %d reason '%s'\n", bad[i], rcode(r), pol.calls, out_o.reason);
                        ok = 0;
                }
                ldns_pkt_free(r);
        }
        CHECK(G, "a dot, NUL, space or non-ASCII byte in a label, a leading '-', the root: NXDOMAIN undecided", ok);
        r = ask("a\\.b.example.com", LDNS_RR_TYPE_A, 0);
        CHECK(G, "the outcome names an invalid name printably", strcmp(out_o.name, "a?b.example.com") == 0);
        ldns_pkt_free(r);

        /* 255 wire bytes: 253 characters, the longest name; and one byte more. */
        char name[300];
        size_t at = 0;
        for (int l = 0; l < 4; l++) {
                int len = l < 3 ? 63 : 61;
                memset(name + at, 'a' + l, (size_t)len);
                at += (size_t)len;
                name[at++] = '.';
        }
        name[at] = '\0'; /* 253 characters and the root's dot */
        pol.calls = 0;
        r = ask(name, LDNS_RR_TYPE_A, 0);
        char a[64];
        CHECK(G, "a 255-byte name: answered with an address",
              rcode(r) == 0 && strncmp(answer_addr(r, a, sizeof(a)), "198.18.", 7) == 0 && pol.calls == 1 &&
                      strlen(out_o.name) == 253 && out_n <= 512);
        ldns_pkt_free(r);

        /* The PTR of that address: the longest answer there is (a 253-character
         * target), still within 512 bytes. */
        struct in_addr in;
        inet_pton(AF_INET, a, &in);
        const uint8_t *b = (const uint8_t *)&in;
        char rev[64];
        snprintf(rev, sizeof(rev), "%u.%u.%u.%u.in-addr.arpa", b[3], b[2], b[1], b[0]);
        r = ask(rev, LDNS_RR_TYPE_PTR, 0);
        CHECK(G, "PTR of a pool address with a 253-character name: the whole answer within 512 bytes",
              r && rcode(r) == 0 && !ldns_pkt_tc(r) && ldns_pkt_ancount(r) == 1 && out_n <= 512 &&
                      question_is(r, rev, LDNS_RR_TYPE_PTR));
        if (r && ldns_pkt_ancount(r) == 1) {
                char *s = ldns_rdf2str(ldns_rr_rdf(ldns_rr_list_rr(ldns_pkt_answer(r), 0), 0));
                CHECK(G, "the PTR names the pool's name", s && strncmp(s, name, 253) == 0);
                free(s);
        }
        ldns_pkt_free(r);
        uint8_t q[1024];
        size_t n = query(q, sizeof(q), rev, LDNS_RR_TYPE_PTR, 0);
        r = ask_raw(q, n, true);
        CHECK(G, "the same over TCP: the whole answer", r && !ldns_pkt_tc(r) && ldns_pkt_ancount(r) == 1);
        ldns_pkt_free(r);

        /* 256 bytes: a label of 62 instead of 61, written by hand (ldns refuses it). */
        uint8_t big[400] = { 0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0 };
        size_t p = 12;
        for (int l = 0; l < 4; l++) {
                int len = l < 3 ? 63 : 62;
                big[p++] = (uint8_t)len;
                memset(big + p, 'a', (size_t)len);
                p += (size_t)len;
        }
        big[p++] = 0;
        big[p++] = 0, big[p++] = 1, big[p++] = 0, big[p++] = 1;
        pol.calls = 0;
        r = ask_raw(big, p, false);
        CHECK(G, "a 256-byte name: FORMERR, decide not called", header_ok(r) && rcode(r) == LDNS_RCODE_FORMERR && !pol.calls);
        ldns_pkt_free(r);
        big[12] = 64; /* a 64-byte label */
        r = ask_raw(big, p, false);
        CHECK(G, "a 64-byte label: FORMERR", rcode(r) == LDNS_RCODE_FORMERR && !pol.calls);
        ldns_pkt_free(r);
}

static void test_reverse(void)
{
        ldns_pkt *r;
        char *s;

        pol.calls = 0;
        r = ask("1.0.18.198.in-addr.arpa", LDNS_RR_TYPE_PTR, 0);
        s = r && ldns_pkt_ancount(r) == 1 ? ldns_rdf2str(ldns_rr_rdf(ldns_rr_list_rr(ldns_pkt_answer(r), 0), 0))
                                          : NULL;
        CHECK(G, "PTR of 198.18.0.1: the pool's name, decide not called",
              rcode(r) == 0 && s && strcmp(s, "registry.npmjs.org.") == 0 && !pol.calls);
        free(s);
        ldns_pkt_free(r);

        r = ask("2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.7.b.5.d.f.ip6.arpa", LDNS_RR_TYPE_PTR, 0);
        s = r && ldns_pkt_ancount(r) == 1 ? ldns_rdf2str(ldns_rr_rdf(ldns_rr_list_rr(ldns_pkt_answer(r), 0), 0))
                                          : NULL;
        CHECK(G, "PTR of fd5b:7800::2: the pool's name", rcode(r) == 0 && s && strcmp(s, "pypi.org.") == 0);
        free(s);
        ldns_pkt_free(r);

        r = ask("1.0.18.198.in-addr.arpa", LDNS_RR_TYPE_A, 0);
        CHECK(G, "A of a pool address's reverse name: NOERROR, no data",
              rcode(r) == 0 && ldns_pkt_ancount(r) == 0 && !pol.calls);
        ldns_pkt_free(r);

        static const char *const nx[] = { "200.0.18.198.in-addr.arpa", "4.3.2.1.in-addr.arpa", "1.0.0.127.in-addr.arpa",
                                          "01.0.18.198.in-addr.arpa", "0.18.198.in-addr.arpa", "x.1.0.18.198.in-addr.arpa",
                                          "in-addr.arpa", "ip6.arpa", "1.0.ip6.arpa", "registry.npmjs.org" };
        int ok = 1;
        for (size_t i = 0; i < sizeof(nx) / sizeof(nx[0]); i++) {
                r = ask(nx[i], LDNS_RR_TYPE_PTR, 0);
                if (rcode(r) != LDNS_RCODE_NXDOMAIN || ldns_pkt_ancount(r) != 0 || pol.calls) {
                        printf("  %s: rcode %d\n", nx[i], rcode(r));
                        ok = 0;
                }
                ldns_pkt_free(r);
        }
        CHECK(G, "PTR of anything else (unallocated, outside the pool, malformed, a forward name): NXDOMAIN", ok);
        r = ask("4.3.2.1.in-addr.arpa", LDNS_RR_TYPE_TXT, 0);
        CHECK(G, "other types under in-addr.arpa: NXDOMAIN, decide not called",
              rcode(r) == LDNS_RCODE_NXDOMAIN && !pol.calls);
        ldns_pkt_free(r);
}

/* Raw packets: a header and a question of our own making. */
static size_t raw(uint8_t *q, uint16_t qd, uint16_t an, uint16_t ns, uint16_t ar)
{
        const uint8_t h[12] = { 0x12, 0x34, 0x01, 0x00, (uint8_t)(qd >> 8), (uint8_t)qd, (uint8_t)(an >> 8), (uint8_t)an,
                                (uint8_t)(ns >> 8), (uint8_t)ns, (uint8_t)(ar >> 8), (uint8_t)ar };
        memcpy(q, h, 12);
        return 12;
}

static size_t put_question(uint8_t *q, size_t p, const char *label1, const char *label2, uint16_t type)
{
        q[p++] = (uint8_t)strlen(label1);
        memcpy(q + p, label1, strlen(label1));
        p += strlen(label1);
        q[p++] = (uint8_t)strlen(label2);
        memcpy(q + p, label2, strlen(label2));
        p += strlen(label2);
        q[p++] = 0;
        q[p++] = (uint8_t)(type >> 8), q[p++] = (uint8_t)type, q[p++] = 0, q[p++] = 1;
        return p;
}

static size_t put_opt(uint8_t *q, size_t p, uint16_t size, uint8_t version)
{
        const uint8_t opt[11] = { 0, 0, 41, (uint8_t)(size >> 8), (uint8_t)size, 0, version, 0, 0, 0, 0 };
        memcpy(q + p, opt, sizeof(opt));
        return p + sizeof(opt);
}

static void test_malformed(void)
{
        uint8_t q[1024];
        size_t n, full;
        ldns_pkt *r;
        int ok;

        /* Not a query: nothing goes back. */
        n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 0);
        q[2] |= 0x80;
        CHECK(G, "QR set: no reply", sbx_dns_answer(q, n, false, pool, decide, &pol, out, sizeof(out), &out_o) == -EBADMSG);
        CHECK(G, "11 bytes, 0 bytes, NULL: no reply",
              sbx_dns_answer(q, 11, false, pool, decide, &pol, out, sizeof(out), NULL) == -EBADMSG &&
                      sbx_dns_answer(q, 0, false, pool, decide, &pol, out, sizeof(out), NULL) == -EBADMSG &&
                      sbx_dns_answer(NULL, 100, false, pool, decide, &pol, out, sizeof(out), NULL) == -EBADMSG);
        q[2] &= 0x7f;
        CHECK(G, "an output buffer below 12 bytes: -ENOBUFS",
              sbx_dns_answer(q, n, false, pool, decide, &pol, out, 11, NULL) == -ENOBUFS);

        /* Every prefix of an EDNS query. */
        full = query(q, sizeof(q), "files.pythonhosted.org", LDNS_RR_TYPE_AAAA, 1232);
        ok = 1;
        pol.calls = 0;
        for (n = 0; n < full; n++) {
                uint8_t cut[1024];
                memcpy(cut, q, n); /* its own buffer, so ASan sees a read past the end */
                r = ask_raw(cut, n, false);
                if (n < 12 ? out_n != -EBADMSG : (!header_ok(r) || rcode(r) != LDNS_RCODE_FORMERR || ldns_pkt_edns(r)))
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "every prefix of a query: no reply under 12 bytes, FORMERR after, decide never called",
              ok && pol.calls == 0);

        /* Two questions, none. */
        n = raw(q, 2, 0, 0, 0);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        n = put_question(q, n, "exfil", "denied", LDNS_RR_TYPE_A);
        r = ask_raw(q, n, false);
        CHECK(G, "two questions: FORMERR, header only, decide not called",
              header_ok(r) && rcode(r) == LDNS_RCODE_FORMERR && ldns_pkt_qdcount(r) == 0 && !pol.calls);
        ldns_pkt_free(r);
        n = raw(q, 0, 0, 0, 0);
        r = ask_raw(q, n, false);
        CHECK(G, "no question: FORMERR", header_ok(r) && rcode(r) == LDNS_RCODE_FORMERR);
        ldns_pkt_free(r);
        n = raw(q, 65535, 0, 0, 0);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        r = ask_raw(q, n, false);
        CHECK(G, "QDCOUNT 65535: FORMERR", rcode(r) == LDNS_RCODE_FORMERR && !pol.calls);
        ldns_pkt_free(r);

        /* Compression in the question: a pointer to itself, a pointer into the header,
         * a label then a loop. */
        static const uint8_t loops[][8] = {
                { 0xc0, 0x0c, 0, 1, 0, 1 },
                { 0xc0, 0x00, 0, 1, 0, 1 },
                { 0x01, 'a', 0xc0, 0x0c, 0, 1, 0, 1 },
                { 0x01, 'a', 0xc0, 0x0e, 0, 1, 0, 1 },
                { 0x40, 0x00, 0, 1, 0, 1 },
                { 0x80, 0x00, 0, 1, 0, 1 },
        };
        ok = 1;
        for (size_t i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
                n = raw(q, 1, 0, 0, 0);
                memcpy(q + n, loops[i], 8);
                r = ask_raw(q, n + 8, false);
                if (!header_ok(r) || rcode(r) != LDNS_RCODE_FORMERR || pol.calls)
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "compression pointers (loops, into the header) and 0x40/0x80 labels in the question: FORMERR", ok);

        /* A pointer loop in the additional section is stepped over, never followed. */
        n = raw(q, 1, 0, 0, 2);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        size_t loop_at = n;
        q[n++] = 0xc0, q[n++] = (uint8_t)loop_at; /* owner: a pointer to itself */
        q[n++] = 0, q[n++] = 16, q[n++] = 0, q[n++] = 1, q[n++] = 0, q[n++] = 0, q[n++] = 0, q[n++] = 0, q[n++] = 0,
        q[n++] = 0;
        n = put_opt(q, n, 1232, 0);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        r = ask_raw(q, n, false);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        CHECK(G, "a pointer loop in the additional section: answered, with the OPT seen",
              rcode(r) == 0 && ldns_pkt_ancount(r) == 1 && ldns_pkt_edns(r) && t1.tv_sec - t0.tv_sec < 2);
        ldns_pkt_free(r);

        /* Two OPT records; an OPT whose data runs past the end; EDNS version 1. */
        n = raw(q, 1, 0, 0, 2);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        n = put_opt(q, n, 1232, 0);
        n = put_opt(q, n, 4096, 0);
        r = ask_raw(q, n, false);
        CHECK(G, "two OPT records: FORMERR without OPT", rcode(r) == LDNS_RCODE_FORMERR && !ldns_pkt_edns(r));
        ldns_pkt_free(r);
        n = raw(q, 1, 0, 0, 1);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        n = put_opt(q, n, 1232, 0);
        q[n - 1] = 9; /* RDLENGTH 9, no data */
        r = ask_raw(q, n, false);
        CHECK(G, "an OPT whose data runs past the end: FORMERR", rcode(r) == LDNS_RCODE_FORMERR);
        ldns_pkt_free(r);
        n = raw(q, 1, 0, 0, 1);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        n = put_opt(q, n, 1232, 1);
        pol.calls = 0;
        r = ask_raw(q, n, false);
        CHECK(G, "EDNS version 1: BADVERS (16), OPT version 0, decide not called",
              rcode(r) == 16 && ldns_pkt_edns(r) && ldns_pkt_edns_version(r) == 0 && !pol.calls &&
                      out_o.rcode == 16);
        ldns_pkt_free(r);

        /* Records in the answer and authority sections of a query are stepped over. */
        n = raw(q, 1, 1, 1, 0);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        for (int i = 0; i < 2; i++) {
                q[n++] = 0xc0, q[n++] = 12; /* owner: the question's name */
                q[n++] = 0, q[n++] = 1, q[n++] = 0, q[n++] = 1, q[n++] = 0, q[n++] = 0, q[n++] = 0, q[n++] = 5;
                q[n++] = 0, q[n++] = 4, q[n++] = 10, q[n++] = 0, q[n++] = 0, q[n++] = 1;
        }
        r = ask_raw(q, n, false);
        CHECK(G, "records in the answer and authority sections are ignored", rcode(r) == 0 && ldns_pkt_ancount(r) == 1 &&
                                                                               ldns_pkt_nscount(r) == 0);
        ldns_pkt_free(r);
        /* An OPT in the answer section is not EDNS. */
        n = raw(q, 1, 1, 0, 0);
        n = put_question(q, n, "pypi", "org", LDNS_RR_TYPE_A);
        n = put_opt(q, n, 1232, 0);
        r = ask_raw(q, n, false);
        CHECK(G, "an OPT in the answer section is not EDNS", rcode(r) == 0 && !ldns_pkt_edns(r));
        ldns_pkt_free(r);
}

static void test_sizes(void)
{
        uint8_t q[1024];
        size_t n;
        ldns_pkt *r;

        n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 4096);
        r = ask_raw(q, n, false);
        CHECK(G, "EDNS 4096 asked: the reply offers 1232", r && ldns_pkt_edns_udp_size(r) == 1232);
        ldns_pkt_free(r);
        q[3] |= 0x10; /* CD */
        r = ask_raw(q, n, false);
        CHECK(G, "CD echoed, AA and AD clear", r && ldns_pkt_cd(r) && !ldns_pkt_aa(r) && !ldns_pkt_ad(r) && out[3] == 0x90);
        ldns_pkt_free(r);

        /* A reason as long as it may be: the NXDOMAIN still fits 512 with its EDE. */
        char name[300];
        snprintf(name, sizeof(name), "%s.%s.%s.denied", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
                 "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc");
        n = query(q, sizeof(q), name, LDNS_RR_TYPE_A, 100);
        r = ask_raw(q, n, false);
        char text[256];
        CHECK(G, "EDNS size below 512 counts as 512; a long name's NXDOMAIN keeps its EDE",
              r && rcode(r) == LDNS_RCODE_NXDOMAIN && !ldns_pkt_tc(r) && out_n <= 512 &&
                      ede(r, text, sizeof(text)) == LDNS_EDE_BLOCKED);
        ldns_pkt_free(r);

        /* A small output buffer: truncated to what fits. */
        n = query(q, sizeof(q), "pypi.org", LDNS_RR_TYPE_A, 0);
        out_n = sbx_dns_answer(q, n, false, pool, decide, &pol, out, 30, NULL);
        r = NULL;
        CHECK(G, "a 30-byte buffer: TC set, no answer",
              out_n > 0 && out_n <= 30 && ldns_wire2pkt(&r, out, (size_t)out_n) == LDNS_STATUS_OK && ldns_pkt_tc(r) &&
                      ldns_pkt_ancount(r) == 0);
        ldns_pkt_free(r);
        out_n = sbx_dns_answer(q, n, false, pool, decide, &pol, out, 12, NULL);
        CHECK(G, "a 12-byte buffer: the header alone, TC set", out_n == 12 && (out[2] & 0x02) && out[0] == 0x12);
}

static void test_full_pool(void)
{
        struct sbx_synth *saved = pool;
        char name[64], text[256];
        int ok = 1;
        ldns_pkt *r;

        if (sbx_synth_new(&pool) < 0)
                return (void)CHECK(G, "new pool", 0);
        for (int i = 0; i < SBX_SYNTH_MAX; i++) {
                snprintf(name, sizeof(name), "n%d.example.com", i);
                r = ask(name, i % 2 ? LDNS_RR_TYPE_AAAA : LDNS_RR_TYPE_A, 0);
                if (rcode(r) != 0 || ldns_pkt_ancount(r) != 1)
                        ok = 0;
                ldns_pkt_free(r);
        }
        CHECK(G, "4096 names answered", ok && sbx_synth_count(pool) == SBX_SYNTH_MAX);
        r = ask("one-too-many.example.com", LDNS_RR_TYPE_A, 1232);
        CHECK(G, "the 4097th: SERVFAIL with EDE 0 saying the pool is full",
              header_ok(r) && rcode(r) == LDNS_RCODE_SERVFAIL && ldns_pkt_ancount(r) == 0 &&
                      ede(r, text, sizeof(text)) == LDNS_EDE_OTHER && strstr(text, "pool is full") &&
                      out_o.rcode == LDNS_RCODE_SERVFAIL);
        ldns_pkt_free(r);
        r = ask("one-too-many.example.com", LDNS_RR_TYPE_TXT, 0);
        CHECK(G, "a full pool still answers no-data types", rcode(r) == 0);
        ldns_pkt_free(r);
        r = ask("n5.example.com", LDNS_RR_TYPE_A, 0);
        char a[64];
        CHECK(G, "a known name still resolves", rcode(r) == 0 && strcmp(answer_addr(r, a, sizeof(a)), "198.18.0.6") == 0);
        ldns_pkt_free(r);
        sbx_synth_free(pool);
        pool = saved;
}

int main(void)
{
        if (sbx_synth_new(&pool) < 0)
                return 1;
        test_allowed();
        test_denied();
        test_odd_callback();
        test_refused();
        test_names();
        test_reverse();
        test_malformed();
        test_sizes();
        test_full_pool();
        sbx_synth_free(pool);
        return unit_failed ? 1 : 0;
}
