/* SPDX-License-Identifier: MIT */
/* The egress broker's insides, shared by its files (egress*.c); nothing outside
 * lib/egress*.c includes this. */
#pragma once

#include <ares.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "egress.h"
#include "netrule.h"
#include "sniff.h"
#include "ssrf.h"
#include "synth.h"

#define EG_MAX_CONNS 1024        /* open connections per jail; more are refused */
#define EG_HANDSHAKE_MS 10000    /* to send the first bytes the broker must see */
#define EG_BUF_MAX 16384         /* SBX_SNIFF_TLS_MAX: the most it holds before relaying */
#define EG_SUMMARY_ROWS 64       /* distinct (host, port, verdict) rows in --json */
#define EG_AUDIT_PER_SEC 50      /* records per second; the rest counted, then said */

struct eg_conn;

struct eg_summary_row {
        char host[SBX_NETNAME_MAX + 1];
        uint16_t port;
        bool allowed;
        char code[48];
        char reason[160];
        unsigned count;
};

/* The run's summary as the broker sends it to the launcher when the jail is gone:
 * fixed-size rows that the launcher checks and turns into JSON itself
 * (egress-summary.c).  The broker parses what the jail sends; one that a parser bug
 * took over must not write fields of its own into the --json line. */
/* MESSAGE_ID of a network decision (systemd-id128 new); never change it. */
#define EG_NET_MESSAGE_ID "b6dfdf37e86d4f0197398733d666ab4d"
enum { EG_MSG_SUMMARY = 0x53425853, EG_MSG_RECORD = 0x53425852 }; /* "SXBS", "RXBS" */
#define EG_RECORD_MAX 8192 /* a record's "NAME=value\0" fields, after its kind */

struct eg_summary {
        uint32_t kind; /* EG_MSG_SUMMARY */
        uint32_t n_rows;
        uint32_t dropped; /* rows that did not fit */
        struct eg_summary_row rows[EG_SUMMARY_ROWS];
};

struct eg_broker {
        sd_event *ev;
        const struct sbx_plan *p;
        const struct sbx_egress *eg; /* the launcher's publish listeners, until served */
        struct sbx_synth *synth;
        ares_channel ares;
        sd_event_source *ares_timer;
        struct eg_ares_fd {
                int fd;
                sd_event_source *src;
        } ares_fds[16];
        size_t n_conns;
        unsigned grown_pipes; /* relay pipes made larger for bulk transfers (egress-relay.c) */
        size_t max_conns;      /* what the fd limit has room for (egress-conn.c); 0: not yet */
        struct eg_conn *conns; /* open connections (egress-conn.c), for the end of the run */
        struct eg_summary summary;
        int report_sock; /* the launcher's socket, where each record goes too (an audit
                          * file is there); -1: the journal only */
        uint64_t audit_window_ms; /* start of the current second */
        unsigned audit_in_window, audit_suppressed;
        char dns_code[48]; /* the last DNS denial's code, for its record */
        int userns_fd;     /* the jail's namespaces, until the factory has them */
        int factory_sock;  /* egress-factory.c; -1: none */
        pid_t factory_pid;
        bool privileged;   /* capabilities still held (until the factory exists) */
};

/* A refusal, as the broker tells it to the client and the audit. */
struct eg_verdict {
        bool allowed;
        char code[48];          /* X-Sbx-Error: not-allowlisted, denied, ssrf-<class>... */
        char reason[SBX_NETNAME_MAX + 128];
        char rule[SBX_NETRULE_TEXT_MAX + 8];
};

/* egress-conn.c */
int eg_conn_accept(struct eg_broker *b, int listener, enum sbx_egress_role role, uint16_t port);
/* The next connection waiting on @listener that there is room for, counted in
 * b->n_conns (the caller gives the count back if it cannot keep it); one past the
 * limit, or past the fd limit, is taken off the queue and closed, so the listener
 * does not stay readable.  -EAGAIN when none is waiting. */
int eg_accept(struct eg_broker *b, int listener);
/* The run is over: each relayed connection's record, then every connection closed. */
void eg_conn_close_all(struct eg_broker *b);

/* egress-dns.c */
int eg_dns_udp(struct eg_broker *b, int fd);
int eg_dns_tcp_accept(struct eg_broker *b, int listener);

/* egress-decide.c: the rules of the plan and of the site, for a name or an address */
void eg_decide_name(const struct eg_broker *b, const char *host, uint16_t port, enum sbx_net_proto proto,
                    struct eg_verdict *v);
/* For a DNS question: may @name be resolved at all. */
void eg_decide_dns(const struct eg_broker *b, const char *name, struct eg_verdict *v);
/* An address about to be dialled for @host (NULL: the jail named the address): the
 * address rules and the SSRF ranges. */
void eg_decide_addr(const struct eg_broker *b, const struct sockaddr *sa, socklen_t len, uint16_t port,
                    enum sbx_net_proto proto, bool literal, struct eg_verdict *v);

/* egress-resolve.c: host-side resolution through c-ares, on the loop */
typedef void (*eg_resolved_fn)(void *ctx, int status, struct ares_addrinfo *ai);
int eg_resolve_init(struct eg_broker *b);
void eg_resolve(struct eg_broker *b, const char *name, eg_resolved_fn cb, void *ctx);
void eg_resolve_done(struct eg_broker *b);

/* egress-log.c: one audit record per decision, rate limited, and the summary */
struct eg_record {
        const char *action;  /* allow | deny */
        const char *proto;   /* dns | tls | http | connect | socks | tcp */
        const char *host;
        uint16_t port;
        const char *sni;
        const char *rule;
        const char *reason;
        const char *code;    /* a denial's X-Sbx-Error code */
        const char *addr;    /* the address dialled, or refused */
        const char *addr_class;
        uint64_t bytes_up, bytes_down, ms;
        bool relayed;        /* an allowed connection, recorded at its end: bytes and time */
};
void eg_log(struct eg_broker *b, const struct eg_record *r);
/* egress-summary.c, in the launcher: @n bytes the broker sent, checked, as the JSON
 * fields ("allowed":[...],"denied":[...]) into @out; "" when @n is 0 (none came). */
void eg_summary_json(struct eg_summary *s, size_t n, char *out, size_t size);
/* egress-record.c, in the launcher: a record the broker sent (@n bytes from its kind
 * on), as one JSON line on @fd: the fields that say which jail it is come from @p,
 * only SBX_NET_*, MESSAGE and PRIORITY from the broker.  0, or -EBADMSG. */
int eg_record_write(int fd, const struct sbx_plan *p, const char *msg, size_t n);

uint64_t eg_now_ms(void);

/* egress.c: no capability in any set, none to regain, not dumpable; a root broker
 * becomes the caller or nobody (@p NULL: the ids are kept). */
int eg_drop_privileges(const struct sbx_plan *p);

/* egress-factory.c: a process in the jail's network namespace that makes sockets there */
int eg_factory_start(struct eg_broker *b, int userns, int netns);
/* A non-blocking TCP socket of @family in the jail's namespace, or -errno. */
int eg_factory_socket(struct eg_broker *b, int family);
