/* SPDX-License-Identifier: MIT */
/* The egress broker's DNS server: one query from the jail in, one reply out, never a
 * packet upstream.
 *
 * How the broker uses it (issue 13): the jail's resolv.conf says `nameserver
 * 127.0.0.1`, where the broker serves UDP and TCP port 53 in the jail's network
 * namespace.  Every message it reads goes to sbx_dns_answer() with the jail's pool
 * (synth.h) and a decide callback that checks the name against the jail's rules
 * (netrule.h); the broker sends back what it returns, and writes @o to the audit.  A
 * question is never forwarded, so a denied name (or a name made of exfiltrated data
 * under a denied domain) never leaves the machine; an allowed name gets a synthetic
 * address, and the broker resolves the real one on the host side only when the jail
 * connects to it.
 *
 * Every byte of the query is the jail's.  The query is checked by hand before ldns
 * sees it: the question name must be plain labels (a query's question has no earlier
 * name a compression pointer could point to, so a pointer there is refused before
 * any is followed: no pointer loops, no chains); the other sections are skipped
 * label by label without following pointers, looking only for the OPT record.  So a
 * query costs time linear in its length, and memory for one name.  ldns builds the
 * reply.
 *
 * What the jail gets, in this order (the first line that applies):
 *   fewer than 12 bytes, or QR set           nothing (-EBADMSG): never answer an answer
 *   opcode other than QUERY                  NOTIMP, header only
 *   QDCOUNT 0 or more than 1                 FORMERR, header only.  RFC 9619: a QUERY
 *                                            with QDCOUNT > 1 is malformed, and FORMERR
 *                                            is its answer; no name is decided on
 *   a question or section that does not      FORMERR (the question echoed when it
 *   parse, a compressed question name,       parsed)
 *   two OPT records (RFC 6891 6.1.1)
 *   EDNS version > 0                         BADVERS (RFC 6891), OPT version 0
 *   class other than IN                      REFUSED
 *   QTYPE 128-255 (ANY, AXFR, IXFR, MAILA,   REFUSED: never a zone transfer, and ANY
 *   MAILB, TSIG, TKEY...), 41 (OPT)          would be a second path to every type
 *   a name that is not a host name (root,    NXDOMAIN, decide not called; @o->reason
 *   a byte outside [A-Za-z0-9-_], an         says why.  "1.2.3.4" as a question is
 *   address literal, a numeric last label)   NXDOMAIN too: an address is not a name
 *   under in-addr.arpa or ip6.arpa           answered from the pool, decide not called:
 *                                            PTR of an address the pool handed out ->
 *                                            its name; another type for that name ->
 *                                            NOERROR, no data; anything else NXDOMAIN
 *   PTR of any other name                    NXDOMAIN, decide not called
 * Then decide is called, once, with the normalised name (lowercase, no trailing dot):
 *                          allowed                         denied
 *   A, AAAA                NOERROR, one record: the        NXDOMAIN + EDE
 *                          pool address, TTL 10 s;
 *                          SERVFAIL when the pool is full
 *   HTTPS (65), SVCB (64)  NOERROR, no data (no ECH or     NXDOMAIN + EDE
 *                          QUIC hints)
 *   any other (TXT, MX,    NOERROR, no data                NXDOMAIN + EDE
 *   CNAME, NS, SRV, ...)
 * "+ EDE": when the query had an OPT record, the reply carries an RFC 8914 Extended
 * DNS Error, code 15 (Blocked), with decide's reason as EXTRA-TEXT; without EDNS,
 * plain NXDOMAIN.  A full pool's SERVFAIL carries EDE 0 (Other) saying so.
 * Every reply echoes the ID, the opcode, RD and CD, sets QR and RA, and echoes the
 * question as it was asked (letter case included, for 0x20 randomisation).  It
 * carries an OPT record (payload size 1232, version 0) exactly when the query did.
 * Size: a UDP reply fits in 512 bytes, or the query's EDNS payload size capped at
 * 1232 (never below 512); TCP in 65535; both in @cap.  A longer reply is sent with TC
 * set and without its answer (then without its EDE, then without its question), so
 * the client retries over TCP.  With one question and at most one record, the
 * largest reply (a 255-byte question name, a 160-byte EDE) is under 512 bytes: only a
 * @cap below that truncates. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "synth.h"

#define SBX_DNS_TTL 10          /* seconds, for every synthetic answer */
#define SBX_DNS_UDP_MAX 1232    /* the largest UDP reply (DNS flag day 2020) */
#define SBX_DNS_TCP_MAX 65535

enum sbx_dns_decision { SBX_DNS_ALLOW, SBX_DNS_DENY };

/* Asked once per question: may @name (normalised) be resolved at all?  On DENY,
 * @reason (NUL-terminated, may be left empty) says why, for the EDE extra text and
 * the audit.  A NULL callback denies every name. */
typedef enum sbx_dns_decision (*sbx_dns_decide_fn)(void *ctx, const char *name, uint16_t qtype, char *reason,
                                                   size_t reason_size);

/* What happened, for the broker's audit record. */
struct sbx_dns_outcome {
        char name[254];  /* normalised question name; "" when none; for a name that
                          * is not a host name, a printable rendering (every byte
                          * outside [a-z0-9-_] as '?'), truncated to 253 */
        uint16_t qtype;
        int rcode;       /* LDNS_RCODE_* sent, 16 for BADVERS */
        bool asked;      /* the decide callback was called */
        enum sbx_dns_decision decision; /* decide's answer when asked; DENY otherwise */
        char reason[160]; /* decide's reason on DENY, or why sbx refused on its own */
};

/* Answers @q (a UDP payload, or one TCP DNS message without its 2-byte length
 * prefix).  Writes the reply into @out (@cap bytes) and returns its length, or a
 * negative errno when nothing must be sent back: -EBADMSG (not a query: QR set,
 * shorter than a header), -ENOBUFS (@cap below 12), -ENOMEM.  @o may be NULL. */
ssize_t sbx_dns_answer(const uint8_t *q, size_t qlen, bool tcp, struct sbx_synth *pool, sbx_dns_decide_fn decide,
                       void *ctx, uint8_t *out, size_t cap, struct sbx_dns_outcome *o);
