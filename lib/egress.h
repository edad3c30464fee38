/* SPDX-License-Identifier: MIT */
/* The egress broker: a jail with network: filtered reaches the names its rules allow,
 * and nothing else, whatever the tool inside does (issue 13; ref/egress.md).
 *
 * By construction.  The jail's network namespace has only lo, and every IPv4 and IPv6
 * address is made local on it (sbx_net_route_all_local): a connect to any address
 * lands on a listener in that namespace, or is refused at once; no packet can leave.
 * The jail's PID 1, before the command exists, opens the broker's listeners there and
 * hands them to the launcher, which hands them to the broker: a process of the
 * launcher's, outside the jail, in the host's network namespace.  The command never
 * holds them.  Listeners:
 *   127.0.0.1:53 UDP and TCP    DNS, answered by the broker itself (lib/dns.h): an
 *                               allowed name gets a synthetic address (lib/synth.h)
 *                               standing for it, a denied one NXDOMAIN; no question
 *                               is ever forwarded (no DNS exfiltration)
 *   *:80 and *:443 (v4 and v6)  web: the HTTP Host or TLS server name must be the name
 *                               the synthetic address stands for
 *   *:PORT                      every port an allow rule names ("github.com:22"): raw
 *   127.0.0.1:3128              the explicit proxy: HTTP CONNECT, absolute-form HTTP
 *                               and SOCKS5, which HTTP(S)_PROXY and ALL_PROXY name
 *   127.0.0.1, ::1:PORT         network.localhost.connect: the host's loopback, that port
 * and on the host's loopback, the launcher's: each network.localhost.publish port,
 * relayed to the jail's loopback through sockets made in the jail's namespace by a
 * process of the broker's that entered it (egress-factory.c).
 * Per connection: the name (synthetic address, server name, Host, CONNECT or SOCKS5
 * authority) is checked against the plan's rules (lib/netrule.h) and the site's,
 * resolved on the host, every address classified (lib/ssrf.h), and the broker
 * connects to exactly the address it checked; then a splice relay.  An address the
 * jail dials without a name is checked as that address.  UDP other than DNS finds no
 * listener: port unreachable.  Each decision is one audit record (SBX_NET_*), and the
 * run's summary goes to --json. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "sync.h"

#define SBX_EGRESS_PROXY_PORT 3128
#define SBX_EGRESS_PROXY_URL "http://127.0.0.1:3128"
#define SBX_EGRESS_SOCKS_URL "socks5h://127.0.0.1:3128"
#define SBX_EGRESS_MAX_PORTS 32 /* raw ports the allow rules may name */
/* The jail's own addresses on lo besides loopback, never handed out by the synthetic
 * pool (lib/synth.h): a resolver asked for AI_ADDRCONFIG wants one. */
#define SBX_EGRESS_OWN_V4 "198.19.255.254"
#define SBX_EGRESS_OWN_V6 "fd5b:7800:0:1::1"
#define SBX_EGRESS_SUMMARY_MAX 4096

enum sbx_egress_role {
        SBX_EGRESS_DNS_UDP,
        SBX_EGRESS_DNS_TCP,
        SBX_EGRESS_WEB,   /* port 80: HTTP, the Host checked */
        SBX_EGRESS_TLS,   /* port 443: TLS, the server name checked */
        SBX_EGRESS_PROXY, /* 127.0.0.1:3128 */
        SBX_EGRESS_RAW,   /* a port an allow rule names */
        SBX_EGRESS_LOCAL, /* 127.0.0.1 and ::1 at a network.localhost.connect port: to the
                           * host's loopback, the same port */
        SBX_EGRESS_PUBLISH, /* the host's 127.0.0.1 and ::1 at a network.localhost.publish
                             * port (the launcher's): to the jail's loopback */
        SBX_EGRESS_NETNS,   /* not a listener: the jail's network namespace, and */
        SBX_EGRESS_USERNS,  /* its user namespace, where it has one: publish connects
                             * from sockets made there (egress-factory.c) */
};

/* Jail side, stage 4, in the jail's new network namespace with its capabilities
 * there: lo up, every address local, the listeners opened and each sent to the
 * launcher (SBX_MSG_NET_FD: wstatus the role, applied the port) and closed here. */
int sbx_egress_setup_netns(const struct sbx_plan *p, int sync_fd, struct sbx_error *e);

/* Launcher side. */
#define SBX_EGRESS_PUBLISH_FDS (2 * SBX_NET_LOCAL_MAX)
struct sbx_egress {
        pid_t pid;  /* the broker process; 0: none */
        int sock;   /* to it: listeners in; its records (with @audit_fd) and the summary back */
        /* The audit file's fd (--audit-file, sandboxd's --audit-fd), -1: none.  The
         * broker never holds it: it sends each record it gives the journal here too,
         * and the launcher writes the checked record (sbx_egress_read). */
        int audit_fd;
        const struct sbx_plan *p;
        uint64_t audit_window_ms; /* the launcher's own bound on what it writes there */
        unsigned audit_in_window;
        bool hung_up; /* the broker closed its end (or died): nothing more to poll for */
        struct sbx_egress_port {
                int fd;
                uint16_t port;
        } publish[SBX_EGRESS_PUBLISH_FDS]; /* the host side's listeners, until the fork */
        size_t n_publish;
};

/* Forks the broker for @p (network: filtered), before the jail is cloned, its records
 * going to @audit_fd too (-1: the journal only).  It dies with the launcher. */
int sbx_egress_spawn(const struct sbx_plan *p, int audit_fd, struct sbx_egress *eg, struct sbx_error *e);
/* The broker's socket is readable: writes the records it sent to the audit file. */
void sbx_egress_read(struct sbx_egress *eg);
/* Hands the broker a listener the jail sent (SBX_MSG_NET_FD); closes @fd. */
void sbx_egress_pass(struct sbx_egress *eg, const struct sbx_msg *m, int fd);
/* The jail is gone: stops the broker and puts its summary, a JSON object's fields
 * ("allowed":[...],"denied":[...]), in @summary ("" when it had none). */
void sbx_egress_finish(struct sbx_egress *eg, char *summary, size_t size);

/* The broker's process body (egress.c): serves until the launcher says stop. */
_Noreturn void sbx_egress_main(const struct sbx_plan *p, int sock, const struct sbx_egress *eg);
