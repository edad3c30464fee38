/* SPDX-License-Identifier: MIT */
/* The broker's DNS answers (dns.h).  Runs in the broker's event loop (sandboxd, or
 * sbx-run in direct mode) on bytes the jail wrote: everything here is bounded by the
 * query's length and allocates only for the one question name and the reply. */
#include <arpa/inet.h>
#include <errno.h>
/* Before ldns: without it, ldns/common.h defines bool as signed char for the rest of
 * the file, and a bool in our headers (or one passed to ldns, built with _Bool)
 * would not be the caller's bool. */
#include <stdbool.h>
#include <ldns/ldns.h>
#include <stdio.h>
#include <string.h>

#include "dns.h"
#include "netrule.h"
#include "ssrf.h"

#define HDR 12
#define EDNS_VERSION 0
#define RCODE_BADVERS 16

/* The query, as far as the answer needs it. */
struct query {
        uint16_t id;
        uint8_t opcode;
        bool rd, cd;
        uint16_t qdcount, ancount, nscount, arcount;
        ldns_rdf *qname;        /* owned; NULL until the question parsed */
        uint16_t qtype, qclass;
        bool edns;              /* one OPT record */
        uint16_t edns_size;
        uint8_t edns_version;
};

/* The reply being built. */
struct reply {
        int rcode;                  /* 0..4095; above 15 only with EDNS */
        bool question;              /* echo the question */
        ldns_rr_type atype;         /* the answer's type, 0 for none */
        struct in_addr a;
        struct in6_addr aaaa;
        const char *ptr;            /* PTR target */
        int ede;                    /* -1: none */
        const char *ede_text;
};

/* ---- reading the query ---- */

static uint16_t rd16(const uint8_t *p)
{
        return (uint16_t)(p[0] << 8 | p[1]);
}

/* The question name at *@pos: plain labels ending in the root label, 255 bytes at
 * most.  A compression pointer (or an obsolete 0x40/0x80 label type) is refused: in a
 * query's question the only earlier bytes are the header, so no real client writes
 * one, and refusing it means no pointer is ever followed. */
static bool plain_name(const uint8_t *q, size_t qlen, size_t pos)
{
        size_t start = pos;

        for (;;) {
                if (pos >= qlen)
                        return false;
                uint8_t n = q[pos];
                if (n == 0)
                        return pos + 1 - start <= LDNS_MAX_DOMAINLEN;
                if (n > LDNS_MAX_LABELLEN)
                        return false;
                pos += 1u + n;
                if (pos - start > LDNS_MAX_DOMAINLEN)
                        return false;
        }
}

/* Steps over a name in another section without following pointers: labels up to the
 * root label or a pointer (which ends a name).  False when it runs off the end. */
static bool skip_name(const uint8_t *q, size_t qlen, size_t *pos)
{
        for (;;) {
                if (*pos >= qlen)
                        return false;
                uint8_t n = q[*pos];
                if (n == 0) {
                        *pos += 1;
                        return true;
                }
                if ((n & 0xc0) == 0xc0) {
                        *pos += 2;
                        return *pos <= qlen;
                }
                if (n > LDNS_MAX_LABELLEN)
                        return false;
                *pos += 1u + n;
        }
}

/* Steps over the answer, authority and additional records, noting the OPT record.
 * Each record is at least 11 bytes, so this is linear in @qlen. */
static int skip_records(struct query *qy, const uint8_t *q, size_t qlen, size_t pos, const char **why)
{
        unsigned total = (unsigned)qy->ancount + qy->nscount + qy->arcount;
        unsigned opts = 0;

        for (unsigned i = 0; i < total; i++) {
                if (!skip_name(q, qlen, &pos) || qlen - pos < 10)
                        return *why = "a record runs past the end of the message", -EBADMSG;
                uint16_t type = rd16(q + pos), rdlen = rd16(q + pos + 8);
                if (type == LDNS_RR_TYPE_OPT && i >= (unsigned)qy->ancount + qy->nscount) {
                        if (++opts > 1)
                                return *why = "two OPT records (RFC 6891)", -EBADMSG;
                        qy->edns = true;
                        qy->edns_size = rd16(q + pos + 2);
                        qy->edns_version = q[pos + 5];
                }
                pos += 10;
                if (qlen - pos < rdlen)
                        return *why = "a record's data runs past the end of the message", -EBADMSG;
                pos += rdlen;
        }
        return 0;
}

/* Parses the question (there is exactly one) and the rest. */
static int parse(struct query *qy, const uint8_t *q, size_t qlen, const char **why)
{
        size_t pos = HDR;

        if (!plain_name(q, qlen, pos))
                return *why = "the question's name is malformed or compressed", -EBADMSG;
        if (ldns_wire2dname(&qy->qname, q, qlen, &pos) != LDNS_STATUS_OK)
                return qy->qname = NULL, *why = "the question's name is malformed", -EBADMSG;
        if (qlen - pos < 4) {
                ldns_rdf_deep_free(qy->qname);
                qy->qname = NULL;
                return *why = "the question is cut short", -EBADMSG;
        }
        qy->qtype = rd16(q + pos);
        qy->qclass = rd16(q + pos + 2);
        return skip_records(qy, q, qlen, pos + 4, why);
}

/* The question's name as text, if every label is made of host-name characters
 * ([A-Za-z0-9-_]); a byte that could be read as something else (a dot inside a
 * label, a NUL, a space) makes it no host name.  Otherwise false, and @out gets a
 * printable rendering with '?' for every other byte. */
static bool name_text(const ldns_rdf *dname, char out[SBX_NETNAME_MAX + 1])
{
        const uint8_t *d = ldns_rdf_data(dname);
        size_t size = ldns_rdf_size(dname), n = 0;
        bool ok = true;

        for (size_t i = 0; i < size && d[i] != 0;) {
                uint8_t len = d[i++];
                if (n > 0 && n < SBX_NETNAME_MAX)
                        out[n++] = '.';
                for (uint8_t j = 0; j < len && i < size; j++, i++) {
                        unsigned char c = d[i];
                        bool host = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                                    c == '-' || c == '_';
                        if (!host)
                                ok = false;
                        if (n < SBX_NETNAME_MAX)
                                out[n++] = (char)(host ? c : '?'); /* ASCII: fits in char */
                }
        }
        out[n] = '\0';
        return ok;
}

/* ---- reverse names ---- */

/* The label before @end in @s (going backwards from *@at); its start and length. */
static bool prev_label(const char *s, size_t *at, const char **lab, size_t *len)
{
        size_t end = *at, i = end;

        if (end == 0)
                return false;
        while (i > 0 && s[i - 1] != '.')
                i--;
        *lab = s + i;
        *len = end - i;
        *at = i > 0 ? i - 1 : 0;
        return true;
}

/* The address a name under in-addr.arpa or ip6.arpa stands for; false for any other
 * name or a malformed one (a partial address, a leading zero, an upper-case nibble
 * is impossible after normalisation). */
static bool reverse_addr(const char *name, struct sockaddr_storage *ss, socklen_t *len)
{
        static const char v4[] = ".in-addr.arpa", v6[] = ".ip6.arpa";
        size_t n = strlen(name), at;
        const char *lab;
        size_t ll;

        memset(ss, 0, sizeof(*ss));
        if (n > sizeof(v4) - 1 && strcmp(name + n - (sizeof(v4) - 1), v4) == 0) {
                struct sockaddr_in *in = (struct sockaddr_in *)ss;
                uint8_t b[4];
                at = n - (sizeof(v4) - 1);
                for (int i = 3; i >= 0; i--) {
                        unsigned v = 0;
                        if (!prev_label(name, &at, &lab, &ll) || ll == 0 || ll > 3 || (ll > 1 && lab[0] == '0'))
                                return false;
                        for (size_t j = 0; j < ll; j++) {
                                if (lab[j] < '0' || lab[j] > '9')
                                        return false;
                                v = v * 10 + (unsigned)(lab[j] - '0');
                        }
                        if (v > 255)
                                return false;
                        b[3 - i] = (uint8_t)v; /* the first label read is the last byte */
                }
                if (at != 0 || lab != name)
                        return false;
                /* b[] holds the labels from the right: b[0] is the first byte. */
                in->sin_family = AF_INET;
                memcpy(&in->sin_addr, b, 4);
                *len = sizeof(*in);
                return true;
        }
        if (n > sizeof(v6) - 1 && strcmp(name + n - (sizeof(v6) - 1), v6) == 0) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
                at = n - (sizeof(v6) - 1);
                for (int i = 0; i < 32; i++) {
                        unsigned v;
                        if (!prev_label(name, &at, &lab, &ll) || ll != 1)
                                return false;
                        if (lab[0] >= '0' && lab[0] <= '9')
                                v = (unsigned)(lab[0] - '0');
                        else if (lab[0] >= 'a' && lab[0] <= 'f')
                                v = (unsigned)(lab[0] - 'a' + 10);
                        else
                                return false;
                        in6->sin6_addr.s6_addr[i / 2] |= (uint8_t)(i % 2 ? v : v << 4);
                }
                if (at != 0 || lab != name)
                        return false;
                in6->sin6_family = AF_INET6;
                *len = sizeof(*in6);
                return true;
        }
        return false;
}

static bool in_reverse_zone(const char *name)
{
        size_t n = strlen(name);

        return strcmp(name, "in-addr.arpa") == 0 || strcmp(name, "ip6.arpa") == 0 ||
               (n > 13 && strcmp(name + n - 13, ".in-addr.arpa") == 0) ||
               (n > 9 && strcmp(name + n - 9, ".ip6.arpa") == 0);
}

/* ---- building the reply ---- */

static ldns_rr *new_rr(const ldns_rdf *owner, ldns_rr_type type, bool question)
{
        ldns_rr *rr = ldns_rr_new();
        ldns_rdf *o = ldns_rdf_clone(owner);

        if (!rr || !o) {
                ldns_rr_free(rr);
                ldns_rdf_deep_free(o);
                return NULL;
        }
        ldns_rr_set_owner(rr, o);
        ldns_rr_set_type(rr, type);
        ldns_rr_set_class(rr, LDNS_RR_CLASS_IN);
        ldns_rr_set_ttl(rr, question ? 0 : SBX_DNS_TTL);
        ldns_rr_set_question(rr, question);
        return rr;
}

static ldns_rr *answer_rr(const struct query *qy, const struct reply *r)
{
        ldns_rr *rr = new_rr(qy->qname, r->atype, false);
        ldns_rdf *rd = NULL;

        if (!rr)
                return NULL;
        if (r->atype == LDNS_RR_TYPE_A)
                rd = ldns_rdf_new_frm_data(LDNS_RDF_TYPE_A, 4, &r->a);
        else if (r->atype == LDNS_RR_TYPE_AAAA)
                rd = ldns_rdf_new_frm_data(LDNS_RDF_TYPE_AAAA, 16, &r->aaaa);
        else if (r->atype == LDNS_RR_TYPE_PTR)
                rd = ldns_dname_new_frm_str(r->ptr);
        if (!rd || !ldns_rr_push_rdf(rr, rd)) {
                ldns_rdf_deep_free(rd);
                ldns_rr_free(rr);
                return NULL;
        }
        return rr;
}

static int add_ede(ldns_pkt *p, int code, const char *text)
{
        uint8_t buf[2 + sizeof(((struct sbx_dns_outcome *)0)->reason)];
        size_t n = text ? strnlen(text, sizeof(buf) - 2) : 0;
        ldns_edns_option_list *list = ldns_edns_option_list_new();
        ldns_edns_option *opt;

        buf[0] = (uint8_t)(code >> 8);
        buf[1] = (uint8_t)code;
        if (n)
                memcpy(buf + 2, text, n);
        opt = list ? ldns_edns_new_from_data(LDNS_EDNS_EDE, 2 + n, buf) : NULL;
        if (!opt || !ldns_edns_option_list_push(list, opt)) {
                if (opt)
                        ldns_edns_deep_free(opt);
                ldns_edns_option_list_deep_free(list);
                return -ENOMEM;
        }
        ldns_pkt_set_edns_option_list(p, list);
        return 0;
}

/* The reply as a packet, in one of four sizes: @level 0 is whole; 1 sets TC and drops
 * the answer; 2 also drops the EDE; 3 also drops the question and the OPT record. */
static ldns_pkt *build(const struct query *qy, const struct reply *r, int level)
{
        ldns_pkt *p = ldns_pkt_new();
        ldns_rr *rr;

        if (!p)
                return NULL;
        ldns_pkt_set_id(p, qy->id);
        ldns_pkt_set_qr(p, true);
        ldns_pkt_set_opcode(p, (ldns_pkt_opcode)qy->opcode);
        ldns_pkt_set_rd(p, qy->rd);
        ldns_pkt_set_cd(p, qy->cd);
        ldns_pkt_set_ra(p, true);
        ldns_pkt_set_tc(p, level > 0);
        ldns_pkt_set_rcode(p, (uint8_t)(r->rcode & 0xf));
        if (r->question && qy->qname && level < 3) {
                if (!(rr = new_rr(qy->qname, qy->qtype, true)))
                        goto fail;
                ldns_rr_set_class(rr, qy->qclass);
                if (!ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION, rr)) {
                        ldns_rr_free(rr);
                        goto fail;
                }
        }
        if (r->atype && level == 0) {
                if (!(rr = answer_rr(qy, r)))
                        goto fail;
                if (!ldns_pkt_push_rr(p, LDNS_SECTION_ANSWER, rr)) {
                        ldns_rr_free(rr);
                        goto fail;
                }
        }
        if (qy->edns && level < 3) {
                ldns_pkt_set_edns_udp_size(p, SBX_DNS_UDP_MAX);
                ldns_pkt_set_edns_version(p, EDNS_VERSION);
                ldns_pkt_set_edns_extended_rcode(p, (uint8_t)(r->rcode >> 4));
                if (r->ede >= 0 && level < 2 && add_ede(p, r->ede, r->ede_text) < 0)
                        goto fail;
        }
        return p;
fail:
        ldns_pkt_free(p);
        return NULL;
}

/* Writes the reply into @out: the largest of build()'s sizes that fits @limit. */
static ssize_t emit(const struct query *qy, const struct reply *r, size_t limit, uint8_t *out)
{
        for (int level = 0; level <= 3; level++) {
                ldns_pkt *p = build(qy, r, level);
                ldns_buffer *b = ldns_buffer_new(512);
                ssize_t n = -ENOMEM;

                if (p && b && ldns_pkt2buffer_wire(b, p) == LDNS_STATUS_OK && ldns_buffer_status_ok(b)) {
                        size_t len = ldns_buffer_position(b);
                        n = -ENOBUFS;
                        if (len <= limit) {
                                memcpy(out, ldns_buffer_begin(b), len);
                                n = (ssize_t)len;
                        }
                }
                ldns_buffer_free(b);
                ldns_pkt_free(p);
                if (n != -ENOBUFS)
                        return n;
        }
        return -ENOBUFS;
}

/* ---- deciding ---- */

static void refuse(struct sbx_dns_outcome *o, struct reply *r, int rcode, const char *why)
{
        r->rcode = rcode;
        snprintf(o->reason, sizeof(o->reason), "%s", why);
}

/* Answers a name under the reverse zones from the pool alone. */
static void answer_reverse(const struct query *qy, const char *name, const struct sbx_synth *pool,
                           struct sbx_dns_outcome *o, struct reply *r)
{
        struct sockaddr_storage ss;
        socklen_t len;
        const char *target = NULL;

        if (pool && reverse_addr(name, &ss, &len))
                target = sbx_synth_name(pool, (struct sockaddr *)&ss, len);
        if (!target) {
                refuse(o, r, LDNS_RCODE_NXDOMAIN, "reverse lookup of an address sbx did not hand out");
                return;
        }
        r->rcode = LDNS_RCODE_NOERROR;
        if (qy->qtype == LDNS_RR_TYPE_PTR) {
                r->atype = LDNS_RR_TYPE_PTR;
                r->ptr = target;
        }
}

/* Answers an allowed name. */
static void answer_allowed(const struct query *qy, struct sbx_synth *pool, struct sbx_dns_outcome *o,
                           struct reply *r)
{
        int k;

        r->rcode = LDNS_RCODE_NOERROR;
        if (qy->qtype != LDNS_RR_TYPE_A && qy->qtype != LDNS_RR_TYPE_AAAA)
                return; /* HTTPS, SVCB, TXT, MX...: the name exists, with no such data */
        k = pool ? sbx_synth_get(pool, o->name, &r->a, &r->aaaa) : -EINVAL;
        if (k == -ENOSPC) {
                r->rcode = LDNS_RCODE_SERVFAIL;
                snprintf(o->reason, sizeof(o->reason), "too many names for one jail (%d): the address pool is full",
                         SBX_SYNTH_MAX);
                r->ede = LDNS_EDE_OTHER;
                r->ede_text = o->reason;
                return;
        }
        if (k < 0) {
                refuse(o, r, LDNS_RCODE_SERVFAIL, "no synthetic address for the name");
                return;
        }
        r->atype = qy->qtype;
}

/* The name of the question, validated and normalised into @o->name; false (and
 * @r, @o say NXDOMAIN and why) when it is not a host name. */
static bool question_name(const struct query *qy, struct sbx_dns_outcome *o, struct reply *r)
{
        char raw[SBX_NETNAME_MAX + 1], why_text[sizeof(o->reason)];
        struct sockaddr_storage ss;
        const char *why = NULL;

        if (!name_text(qy->qname, raw))
                why = "a label holds a byte outside [A-Za-z0-9-_]";
        else if (sbx_ssrf_parse_literal(raw, &ss))
                why = "an address, not a name: connect to it directly";
        else if (sbx_netname_normalize(raw, o->name, &why) == 0)
                return true;
        snprintf(o->name, sizeof(o->name), "%s", raw);
        snprintf(why_text, sizeof(why_text), "not a host name: %s", why);
        refuse(o, r, LDNS_RCODE_NXDOMAIN, why_text);
        return false;
}

/* A valid, normalised name (in @o->name): from the pool, or by decide. */
static void answer_name(const struct query *qy, struct sbx_synth *pool, sbx_dns_decide_fn decide, void *ctx,
                        struct sbx_dns_outcome *o, struct reply *r)
{
        char reason[sizeof(o->reason)] = "";

        if (in_reverse_zone(o->name)) {
                answer_reverse(qy, o->name, pool, o, r);
                return;
        }
        if (qy->qtype == LDNS_RR_TYPE_PTR) {
                refuse(o, r, LDNS_RCODE_NXDOMAIN, "PTR is answered only for addresses sbx handed out");
                return;
        }
        o->asked = true;
        o->decision = decide ? decide(ctx, o->name, qy->qtype, reason, sizeof(reason)) : SBX_DNS_DENY;
        reason[sizeof(reason) - 1] = '\0';
        if (o->decision == SBX_DNS_ALLOW) {
                answer_allowed(qy, pool, o, r);
                return;
        }
        o->decision = SBX_DNS_DENY; /* anything but ALLOW */
        refuse(o, r, LDNS_RCODE_NXDOMAIN, reason);
        r->ede = LDNS_EDE_BLOCKED;
        r->ede_text = o->reason;
}

/* The question (one, parsed) from its class on. */
static void answer_question(const struct query *qy, struct sbx_synth *pool, sbx_dns_decide_fn decide, void *ctx,
                            struct sbx_dns_outcome *o, struct reply *r)
{
        r->question = true;
        if (qy->qclass != LDNS_RR_CLASS_IN)
                refuse(o, r, LDNS_RCODE_REFUSED, "only class IN is served");
        else if ((qy->qtype >= 128 && qy->qtype <= 255) || qy->qtype == LDNS_RR_TYPE_OPT)
                refuse(o, r, LDNS_RCODE_REFUSED, "ANY, zone transfers and other meta-queries are refused");
        else if (question_name(qy, o, r))
                answer_name(qy, pool, decide, ctx, o, r);
}

/* RFC 1035's 512 bytes, or the query's EDNS payload size within [512, 1232]. */
static size_t udp_limit(const struct query *qy)
{
        if (!qy->edns || qy->edns_size < 512)
                return 512;
        return qy->edns_size > SBX_DNS_UDP_MAX ? SBX_DNS_UDP_MAX : qy->edns_size;
}

ssize_t sbx_dns_answer(const uint8_t *q, size_t qlen, bool tcp, struct sbx_synth *pool, sbx_dns_decide_fn decide,
                       void *ctx, uint8_t *out, size_t cap, struct sbx_dns_outcome *o)
{
        struct sbx_dns_outcome local;
        struct query qy = { 0 };
        struct reply r = { .ede = -1 };
        const char *why = NULL;
        size_t limit;
        ssize_t n;

        if (!o)
                o = &local;
        memset(o, 0, sizeof(*o));
        o->decision = SBX_DNS_DENY;
        if (!q || qlen < HDR || (q[2] & 0x80))
                return -EBADMSG; /* never answer an answer: two servers would loop */
        if (!out || cap < HDR)
                return -ENOBUFS;
        qy.id = rd16(q);
        qy.opcode = (q[2] >> 3) & 0xf;
        qy.rd = (q[2] & 0x01) != 0;
        qy.cd = (q[3] & 0x10) != 0;
        qy.qdcount = rd16(q + 4);
        qy.ancount = rd16(q + 6);
        qy.nscount = rd16(q + 8);
        qy.arcount = rd16(q + 10);

        if (qy.opcode != LDNS_PACKET_QUERY)
                refuse(o, &r, LDNS_RCODE_NOTIMPL, "only standard queries (opcode QUERY) are served");
        else if (qy.qdcount != 1)
                refuse(o, &r, LDNS_RCODE_FORMERR,
                       qy.qdcount ? "more than one question (RFC 9619)" : "no question");
        else if (parse(&qy, q, qlen, &why) < 0) {
                r.question = qy.qname != NULL;
                qy.edns = false; /* a FORMERR about the records: none of them is trusted */
                refuse(o, &r, LDNS_RCODE_FORMERR, why);
        } else if (qy.edns && qy.edns_version != EDNS_VERSION) {
                r.question = true;
                refuse(o, &r, RCODE_BADVERS, "EDNS version above 0");
        } else
                answer_question(&qy, pool, decide, ctx, o, &r);
        o->qtype = qy.qtype;
        o->rcode = r.rcode;

        limit = tcp ? SBX_DNS_TCP_MAX : udp_limit(&qy);
        if (limit > cap)
                limit = cap;
        n = emit(&qy, &r, limit, out);
        ldns_rdf_deep_free(qy.qname);
        return n;
}
