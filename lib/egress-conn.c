/* SPDX-License-Identifier: MIT */
/* One connection a jail made, from accept to close:
 *   SNIFF    the first bytes: a TLS ClientHello (443), an HTTP request head (80), or
 *            on the proxy listener CONNECT, absolute-form HTTP or SOCKS5 (lib/sniff.h);
 *            a raw port skips it
 *   CHECK    the name (or the address the jail dialled) against the rules
 *   RESOLVE  on the host (egress-resolve.c); every address judged (egress-decide.c)
 *   INNER    a tunnel to port 80 or 443 allowed for the web only: its first bytes must
 *            name the host the tunnel was asked for (no fronting through CONNECT);
 *            the tunnel is answered first, and nothing is dialled until they do
 *   CONNECT  to exactly a judged address, the next one if it fails
 *   RELAY    splice both ways until both sides are done (egress-relay.c)
 * A refusal answers in the client's protocol (HTTP 403 with X-Sbx-Error, a SOCKS
 * reply 2) or resets the connection, and is one audit record. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-conn.h"
#include "egress-int.h"

#define CONNECT_MS 15000

static const char *const kind_proto[] = {
        [K_TLS] = "tls",       [K_HTTP] = "http",       [K_RAW] = "tcp",          [K_CONNECT] = "connect",
        [K_SOCKS] = "socks",   [K_ABSOLUTE] = "http",   [K_LOCAL] = "localhost",  [K_PUBLISH] = "publish",
};

static void unlink_conn(struct eg_conn *c)
{
        if (c->prev)
                c->prev->next = c->next;
        else
                c->b->conns = c->next;
        if (c->next)
                c->next->prev = c->prev;
        c->b->n_conns--;
}

void eg_conn_free(struct eg_conn *c)
{
        c->csrc = sd_event_source_disable_unref(c->csrc);
        c->usrc = sd_event_source_disable_unref(c->usrc);
        c->timer = sd_event_source_disable_unref(c->timer);
        closep(&c->cfd);
        closep(&c->ufd);
        closep(&c->up.pipe[0]);
        closep(&c->up.pipe[1]);
        closep(&c->down.pipe[0]);
        closep(&c->down.pipe[1]);
        c->b->grown_pipes -= (unsigned)c->up.grown + (unsigned)c->down.grown;
        c->up.grown = c->down.grown = false;
        if (c->resolving) { /* the lookup's callback frees it */
                c->dead = true;
                return;
        }
        unlink_conn(c);
        free(c);
}

void eg_conn_record(struct eg_conn *c, const char *action, const char *code, const char *reason, const char *addr_class,
                    bool relayed)
{
        eg_log(c->b, &(struct eg_record){
                             .action = action,
                             .proto = kind_proto[c->kind],
                             .host = c->host,
                             .port = c->port,
                             .sni = c->sni[0] ? c->sni : NULL,
                             .rule = c->rule[0] ? c->rule : NULL,
                             .reason = reason,
                             .code = code,
                             .addr = c->addr[0] ? c->addr : NULL,
                             .addr_class = addr_class,
                             .bytes_up = c->up.bytes,
                             .bytes_down = c->down.bytes,
                             .ms = eg_now_ms() - c->start_ms,
                             .relayed = relayed,
                     });
}

static void send_all(int fd, const void *data, size_t len)
{
        (void)send(fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* The address class of an "ssrf-<class>" code, for SBX_NET_ADDR_CLASS; NULL else. */
static const char *ssrf_class(const char *code)
{
        static const char prefix[] = "ssrf-";
        size_t n = strlen(code);

        /* (cppcheck follows the call with "ech" and misses the length check.) */
        // cppcheck-suppress pointerOutOfBounds
        return n > sizeof(prefix) - 1 && memcmp(code, prefix, sizeof(prefix) - 1) == 0 ? code + (sizeof(prefix) - 1) : NULL;
}

void eg_conn_refuse(struct eg_conn *c, const char *code, const char *reason)
{
        char msg[512];
        struct linger lg = { 1, 0 };
        int n;

        eg_conn_record(c, "deny", code, reason, ssrf_class(code), false);
        if (c->kind == K_HTTP || c->kind == K_ABSOLUTE || (c->kind == K_CONNECT && !c->replied) ||
            (c->replied && c->port == 80)) {
                n = snprintf(msg, sizeof(msg),
                             "HTTP/1.1 403 Forbidden by sbx\r\nX-Sbx-Error: %s\r\nContent-Type: text/plain\r\n"
                             "Connection: close\r\nContent-Length: %zu\r\n\r\nsbx: %s\n",
                             code, strlen(reason) + 6, reason);
                if (n > 0)
                        send_all(c->cfd, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
        } else if (c->kind == K_SOCKS && !c->replied) {
                uint8_t r[10];
                send_all(c->cfd, r, sbx_socks_reply(r, 2));
        } else {
                /* TLS and raw streams: a reset, at once. */
                (void)setsockopt(c->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
        }
        eg_conn_free(c);
}

int eg_set_events(sd_event_source *s, uint32_t events)
{
        if (!events)
                return sd_event_source_set_enabled(s, SD_EVENT_OFF);
        if (sd_event_source_set_io_events(s, events) < 0)
                return -1;
        return sd_event_source_set_enabled(s, SD_EVENT_ON);
}

/* ---- the first bytes ---- */

static void check(struct eg_conn *c);
static void inner(struct eg_conn *c);
static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata);

/* A prefix of what the broker must read: wait for more, unless its buffer is full
 * (the parsers' limits are its size, so a full buffer is a message too big). */
static void wait_more(struct eg_conn *c)
{
        if (c->len >= sizeof(c->buf))
                eg_conn_refuse(c, "too-big", "the first message is larger than the broker reads");
}

/* The name the address the jail dialled stands for: a synthetic address's name, or
 * the address itself. */
static void name_from_dst(struct eg_conn *c)
{
        const char *name = sbx_synth_name(c->b->synth, (const struct sockaddr *)&c->dst, c->dst_len);

        c->port = c->lport;
        if (name) {
                snprintf(c->host, sizeof(c->host), "%s", name);
                c->literal = false;
                return;
        }
        c->literal = true;
        c->lit = c->dst;
        if (c->dst.ss_family == AF_INET)
                inet_ntop(AF_INET, &((struct sockaddr_in *)&c->dst)->sin_addr, c->host, sizeof(c->host));
        else
                inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&c->dst)->sin6_addr, c->host, sizeof(c->host));
}

static void sniff_tls(struct eg_conn *c)
{
        struct sbx_tls_hello h;
        int r = sbx_sniff_tls(c->buf, c->len, &h);

        if (r == SBX_SNIFF_MORE)
                return wait_more(c);
        name_from_dst(c);
        if (r != SBX_SNIFF_OK) { /* not TLS: a raw stream on 443, which only host:443 allows */
                c->kind = K_RAW;
                c->proto = SBX_NET_RAW;
                return check(c);
        }
        c->kind = K_TLS;
        c->proto = SBX_NET_WEB;
        snprintf(c->sni, sizeof(c->sni), "%s", h.sni);
        if (!c->literal) {
                if (h.has_ech)
                        return eg_conn_refuse(c, "ech", "the TLS hello hides its server name (ECH)");
                if (!h.has_sni)
                        return eg_conn_refuse(c, "no-sni", "the TLS hello names no server");
                if (h.multiple_names || strcmp(h.sni, c->host) != 0) {
                        char why[3 * SBX_NETNAME_MAX];
                        snprintf(why, sizeof(why), "the TLS server name (SNI) %s is not %s, the host this address stands for",
                                 h.sni, c->host);
                        return eg_conn_refuse(c, "sni-mismatch", why);
                }
        }
        check(c);
}

static void sniff_http(struct eg_conn *c)
{
        struct sbx_http_head h;
        int r = sbx_sniff_http(c->buf, c->len, &h);

        if (r == SBX_SNIFF_MORE)
                return wait_more(c);
        name_from_dst(c);
        if (r != SBX_SNIFF_OK) {
                c->kind = K_RAW;
                c->proto = SBX_NET_RAW;
                return check(c);
        }
        c->kind = K_HTTP;
        c->proto = SBX_NET_WEB;
        c->one_http = true;
        if (h.connect || h.absolute)
                return eg_conn_refuse(c, "bad-request", "a proxy request to a web server: send it to " SBX_EGRESS_PROXY_URL);
        if (!c->literal && (strcmp(h.host, c->host) != 0 || (h.port && h.port != c->lport))) {
                char why[3 * SBX_NETNAME_MAX];
                snprintf(why, sizeof(why), "the HTTP Host %s is not %s, the host this address stands for", h.host, c->host);
                return eg_conn_refuse(c, "host-mismatch", why);
        }
        check(c);
}

static void sniff_proxy(struct eg_conn *c)
{
        struct sbx_http_head h;
        struct sbx_socks_req q;
        size_t used;
        int r;

        if (c->st == ST_SOCKS_REQ) {
                r = sbx_sniff_socks_request(c->buf + c->skip, c->len - c->skip, &q);
                if (r == SBX_SNIFF_MORE)
                        return wait_more(c);
                c->kind = K_SOCKS;
                if (r != SBX_SNIFF_OK)
                        return eg_conn_refuse(c, "bad-request", "not a SOCKS5 request");
                c->skip += q.used;
                c->port = q.port;
                snprintf(c->host, sizeof(c->host), "%.*s", (int)sizeof(c->host) - 1, q.host);
                if (q.cmd != 1) {
                        uint8_t rep[10];
                        send_all(c->cfd, rep, sbx_socks_reply(rep, 7));
                        eg_conn_record(c, "deny", "bad-request", "only SOCKS5 CONNECT is served", NULL, false);
                        return eg_conn_free(c);
                }
                c->literal = !q.is_name;
                if (c->literal)
                        c->lit = q.addr;
                return check(c);
        }
        if (c->buf[0] == 0x05) {
                r = sbx_sniff_socks_greeting(c->buf, c->len, &used);
                if (r == SBX_SNIFF_MORE)
                        return wait_more(c);
                c->kind = K_SOCKS;
                if (r != SBX_SNIFF_OK)
                        return eg_conn_refuse(c, "bad-request", "SOCKS5 without the no-authentication method");
                send_all(c->cfd, "\x05\x00", 2);
                c->skip = used;
                c->st = ST_SOCKS_REQ;
                if (c->len > c->skip)
                        sniff_proxy(c);
                return;
        }
        r = sbx_sniff_http(c->buf, c->len, &h);
        if (r == SBX_SNIFF_MORE)
                return wait_more(c);
        c->kind = K_HTTP;
        if (r != SBX_SNIFF_OK)
                return eg_conn_refuse(c, "bad-request", "not an HTTP proxy request");
        if (!h.connect && !h.absolute)
                return eg_conn_refuse(c, "bad-request", "a proxy takes CONNECT host:port or an absolute http:// URL");
        snprintf(c->host, sizeof(c->host), "%s", h.host);
        c->kind = h.connect ? K_CONNECT : K_ABSOLUTE;
        c->one_http = h.absolute;
        c->port = h.port ? h.port : h.connect ? 443 : 80;
        if (h.connect)
                c->skip = h.head_len;
        c->literal = sbx_ssrf_parse_literal(c->host, &c->lit) == 1;
        check(c);
}

static void sniff(struct eg_conn *c)
{
        switch (c->role) {
        case SBX_EGRESS_TLS:
                return sniff_tls(c);
        case SBX_EGRESS_WEB:
                return sniff_http(c);
        case SBX_EGRESS_PROXY:
                return sniff_proxy(c);
        default:
                return;
        }
}

static int on_client(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct eg_conn *c = userdata;
        ssize_t n;

        if (c->st == ST_RELAY)
                return eg_on_relay(s, fd, revents, userdata);
        if (c->len >= sizeof(c->buf)) {
                (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF);
                return 0;
        }
        n = recv(fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return 0;
        if (n <= 0) { /* gone before it said where to: nothing to record, nothing left */
                eg_conn_free(c);
                return 0;
        }
        c->len += (size_t)n;
        /* Each of these may end the connection (and free it): nothing after. */
        if (c->st == ST_INNER)
                inner(c);
        else if (c->st == ST_SNIFF || c->st == ST_SOCKS_REQ)
                sniff(c);
        else
                (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF); /* kept until the relay */
        return 0;
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct eg_conn *c = userdata;

        (void)s;
        (void)usec;
        if (c->st == ST_CONNECT)
                eg_conn_refuse(c, "connect-failed", "the upstream server did not answer in time");
        else
                eg_conn_refuse(c, "timeout", "the client said nothing the broker could check in time");
        return 0;
}

/* ---- check, resolve, connect ---- */

static void connect_next(struct eg_conn *c);

/* CONNECT's and SOCKS5's success, once. */
static void reply_tunnel(struct eg_conn *c)
{
        static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
        uint8_t rep[10];

        if (c->replied)
                return;
        c->replied = true;
        if (c->kind == K_CONNECT)
                send_all(c->cfd, ok, sizeof(ok) - 1);
        else if (c->kind == K_SOCKS)
                send_all(c->cfd, rep, sbx_socks_reply(rep, 0));
}

/* The addresses are judged: a web-only tunnel shows its first bytes before anything
 * is dialled; the rest connect now. */
static void proceed(struct eg_conn *c)
{
        if (!c->inner_check)
                return connect_next(c);
        reply_tunnel(c);
        c->st = ST_INNER;
        c->timer = sd_event_source_disable_unref(c->timer);
        (void)sd_event_add_time_relative(c->b->ev, &c->timer, CLOCK_MONOTONIC, EG_HANDSHAKE_MS * 1000ull, 0, on_timeout, c);
        (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_ON);
        if (c->len > c->skip)
                inner(c);
}

static int on_connected(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct eg_conn *c = userdata;
        int err = 0;
        socklen_t len = sizeof(err);

        (void)s;
        (void)revents;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
                err = errno;
        if (err == EINPROGRESS)
                return 0;
        c->usrc = sd_event_source_disable_unref(c->usrc);
        if (err) {
                closep(&c->ufd);
                c->i_cand++;
                connect_next(c);
                return 0;
        }
        c->timer = sd_event_source_disable_unref(c->timer);
        reply_tunnel(c);
        eg_start_relay(c);
        return 0;
}

static void connect_next(struct eg_conn *c)
{
        for (; c->i_cand < c->n_cand; c->i_cand++) {
                const struct sockaddr *sa = (const struct sockaddr *)&c->cand[c->i_cand];

                if (sa->sa_family == AF_INET)
                        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, c->addr, sizeof(c->addr));
                else
                        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, c->addr, sizeof(c->addr));
                /* A published port's connection goes into the jail: its socket is
                 * made in the jail's namespace (egress-factory.c). */
                c->ufd = c->kind == K_PUBLISH ? eg_factory_socket(c->b, sa->sa_family)
                                              : socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                if (c->ufd < 0) {
                        c->ufd = -1;
                        continue;
                }
                if (connect(c->ufd, sa, c->cand_len[c->i_cand]) < 0 && errno != EINPROGRESS) {
                        closep(&c->ufd);
                        continue;
                }
                c->st = ST_CONNECT;
                if (sd_event_add_io(c->b->ev, &c->usrc, c->ufd, EPOLLOUT, on_connected, c) < 0)
                        break;
                if (!c->timer)
                        (void)sd_event_add_time_relative(c->b->ev, &c->timer, CLOCK_MONOTONIC, CONNECT_MS * 1000ull, 0,
                                                         on_timeout, c);
                return;
        }
        eg_conn_refuse(c, "connect-failed", "cannot connect to any address of the host");
}

static void add_candidate(struct eg_conn *c, const struct sockaddr *sa, socklen_t len, struct eg_verdict *last)
{
        struct sockaddr_storage ss = { 0 };

        if (c->n_cand >= MAX_CANDIDATES || len > sizeof(ss))
                return;
        memcpy(&ss, sa, len);
        if (ss.ss_family == AF_INET)
                ((struct sockaddr_in *)&ss)->sin_port = htons(c->port);
        else if (ss.ss_family == AF_INET6)
                ((struct sockaddr_in6 *)&ss)->sin6_port = htons(c->port);
        else
                return;
        eg_decide_addr(c->b, (struct sockaddr *)&ss, len, c->port, c->proto, c->literal, last);
        if (!last->allowed)
                return;
        c->cand[c->n_cand] = ss;
        c->cand_len[c->n_cand++] = len;
}

static void resolved(void *ctx, int status, struct ares_addrinfo *ai)
{
        struct eg_conn *c = ctx;
        struct eg_verdict last = { .allowed = false };
        char why[SBX_NETNAME_MAX + 128];

        c->resolving = false;
        if (c->dead) {
                unlink_conn(c);
                free(c);
                return;
        }
        if (status != ARES_SUCCESS || !ai) {
                snprintf(why, sizeof(why), "cannot resolve %s on the host: %s", c->host, ares_strerror(status));
                return eg_conn_refuse(c, "resolve-failed", why);
        }
        snprintf(last.code, sizeof(last.code), "resolve-failed");
        snprintf(last.reason, sizeof(last.reason), "%.120s has no address", c->host);
        for (struct ares_addrinfo_node *n = ai->nodes; n; n = n->ai_next)
                add_candidate(c, n->ai_addr, n->ai_addrlen, &last);
        if (!c->n_cand)
                return eg_conn_refuse(c, last.code, last.reason);
        proceed(c);
}

/* The name's verdict; then its addresses, or the address the jail gave. */
static void check(struct eg_conn *c)
{
        struct eg_verdict v;

        c->st = ST_RESOLVE;
        c->timer = sd_event_source_disable_unref(c->timer);
        (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF);
        /* A tunnel is raw where a host:port rule allows it, else web only, and then
         * what goes through it must name the host (INNER). */
        if (c->kind == K_CONNECT || c->kind == K_SOCKS) {
                eg_decide_name(c->b, c->host, c->port, SBX_NET_RAW, &v);
                if (c->literal)
                        eg_decide_addr(c->b, (struct sockaddr *)&c->lit, sizeof(c->lit), c->port, SBX_NET_RAW, true, &v);
                c->proto = SBX_NET_RAW;
                c->raw_ok = v.allowed;
                if (c->port == 80 || c->port == 443) {
                        if (!v.allowed)
                                c->proto = SBX_NET_WEB;
                        c->inner_check = !c->literal;
                }
        }
        if (c->literal) {
                struct eg_verdict a;
                socklen_t len = c->lit.ss_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);

                add_candidate(c, (struct sockaddr *)&c->lit, len, &a);
                snprintf(c->rule, sizeof(c->rule), "%s", a.rule);
                if (!c->n_cand)
                        return eg_conn_refuse(c, a.code, a.reason);
                return proceed(c);
        }
        eg_decide_name(c->b, c->host, c->port, c->proto, &v);
        snprintf(c->rule, sizeof(c->rule), "%s", v.rule);
        if (!v.allowed)
                return eg_conn_refuse(c, v.code, v.reason);
        c->resolving = true;
        eg_resolve(c->b, c->host, resolved, c);
}

/* A web-only tunnel: the TLS server name, or the HTTP Host, must be its host. */
static void inner(struct eg_conn *c)
{
        const uint8_t *p = c->buf + c->skip;
        size_t n = c->len - c->skip;
        int r;

        /* As on the port itself: TLS or HTTP must name the host, even where a
         * host:port rule allows raw TCP; other bytes only where one does. */
        if (c->port == 443) {
                struct sbx_tls_hello h;
                if ((r = sbx_sniff_tls(p, n, &h)) == SBX_SNIFF_MORE)
                        return wait_more(c);
                snprintf(c->sni, sizeof(c->sni), "%s", h.sni);
                if (r == SBX_SNIFF_OK && h.has_ech)
                        return eg_conn_refuse(c, "ech", "the TLS hello in the tunnel hides its server name (ECH)");
                if ((r != SBX_SNIFF_OK && !c->raw_ok) ||
                    (r == SBX_SNIFF_OK && (!h.has_sni || h.multiple_names || strcmp(h.sni, c->host) != 0)))
                        return eg_conn_refuse(c, "sni-mismatch", "the TLS server name (SNI) in the tunnel is not the host it was opened to");
        } else {
                struct sbx_http_head h;
                if ((r = sbx_sniff_http(p, n, &h)) == SBX_SNIFF_MORE)
                        return wait_more(c);
                if ((r != SBX_SNIFF_OK && !c->raw_ok) ||
                    (r == SBX_SNIFF_OK && (h.connect || h.absolute || strcmp(h.host, c->host) != 0 ||
                                           (h.port && h.port != c->port))))
                        return eg_conn_refuse(c, "host-mismatch", "the HTTP Host in the tunnel is not the host it was opened to");
                c->one_http = r == SBX_SNIFF_OK;
        }
        c->inner_check = false;
        (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF);
        c->timer = sd_event_source_disable_unref(c->timer);
        connect_next(c);
}

/* network.localhost: loopback to loopback, the same port, the other side of the
 * namespace wall; the family the client used first, then the other (a server on one
 * side listens on 127.0.0.1 or on ::1, whichever the client on the other picked).
 * The profile named the port, so no rule or range applies. */
static void loopback(struct eg_conn *c, enum conn_kind kind)
{
        struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(c->lport), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
        struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(c->lport), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
        bool v6 = c->dst.ss_family == AF_INET6;

        c->kind = kind;
        c->port = c->lport;
        c->literal = true;
        (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF);
        snprintf(c->host, sizeof(c->host), "%s", v6 ? "::1" : "127.0.0.1");
        snprintf(c->rule, sizeof(c->rule), "localhost.%s %u", kind == K_LOCAL ? "connect" : "publish", c->port);
        memcpy(&c->cand[v6 ? 0 : 1], &in6, sizeof(in6));
        c->cand_len[v6 ? 0 : 1] = sizeof(in6);
        memcpy(&c->cand[v6 ? 1 : 0], &in, sizeof(in));
        c->cand_len[v6 ? 1 : 0] = sizeof(in);
        c->n_cand = 2;
        connect_next(c);
}

int eg_conn_accept(struct eg_broker *b, int listener, enum sbx_egress_role role, uint16_t port)
{
        for (int i = 0; i < 64; i++) {
                int fd = eg_accept(b, listener);
                struct eg_conn *c;

                if (fd < 0)
                        return fd == -EAGAIN ? 0 : fd;
                if (!(c = calloc(1, sizeof(*c)))) {
                        close(fd);
                        b->n_conns--;
                        continue;
                }
                *c = (struct eg_conn){ .b = b, .next = b->conns, .role = role, .cfd = fd, .ufd = -1, .lport = port, .start_ms = eg_now_ms(),
                                       .up.pipe = { -1, -1 }, .down.pipe = { -1, -1 }, .kind = K_RAW };
                if (b->conns)
                        b->conns->prev = c;
                b->conns = c;
                c->dst_len = sizeof(c->dst);
                if (getsockname(fd, (struct sockaddr *)&c->dst, &c->dst_len) < 0 ||
                    sd_event_add_io(b->ev, &c->csrc, fd, EPOLLIN, on_client, c) < 0) {
                        eg_conn_free(c);
                        continue;
                }
                if (role == SBX_EGRESS_RAW) {
                        name_from_dst(c);
                        c->proto = SBX_NET_RAW;
                        check(c);
                        continue;
                }
                if (role == SBX_EGRESS_LOCAL || role == SBX_EGRESS_PUBLISH) {
                        loopback(c, role == SBX_EGRESS_LOCAL ? K_LOCAL : K_PUBLISH);
                        continue;
                }
                (void)sd_event_add_time_relative(b->ev, &c->timer, CLOCK_MONOTONIC, EG_HANDSHAKE_MS * 1000ull, 0, on_timeout, c);
        }
        return 0;
}

void eg_conn_close_all(struct eg_broker *b)
{
        struct eg_conn *next;

        /* One still resolving stays listed, dead, for its lookup's callback to free. */
        for (struct eg_conn *c = b->conns; c; c = next) {
                next = c->next;
                if (c->dead)
                        continue;
                if (c->st == ST_RELAY)
                        eg_conn_record(c, "allow", NULL, NULL, NULL, true);
                eg_conn_free(c);
        }
}
