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
 *   RELAY    splice both ways until both sides are done
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
#include "egress-int.h"

#define MAX_CANDIDATES 8
#define CONNECT_MS 15000
#define PUMP_ROUNDS 16 /* splices per wake-up, so one busy relay cannot starve the rest */
#define FDS_PER_CONN 6 /* the client's, the server's, two pipes */
#define FDS_SPARE 64   /* listeners, the loop's, the resolver's, the journal's */

enum conn_state { ST_SNIFF, ST_SOCKS_REQ, ST_RESOLVE, ST_CONNECT, ST_INNER, ST_RELAY };
enum conn_kind { K_TLS, K_HTTP, K_RAW, K_CONNECT, K_SOCKS, K_ABSOLUTE, K_LOCAL, K_PUBLISH };

struct dir {
        int pipe[2];
        size_t pending; /* bytes in the pipe */
        bool eof, shut;
        uint64_t bytes;
};

struct eg_conn {
        struct eg_broker *b;
        struct eg_conn *prev, *next; /* the broker's open connections */
        enum sbx_egress_role role;
        enum conn_state st;
        enum conn_kind kind;
        int cfd, ufd;
        sd_event_source *csrc, *usrc, *timer;
        struct sockaddr_storage dst; /* where the jail connected */
        socklen_t dst_len;
        uint16_t lport;
        char host[SBX_NETNAME_MAX + 1]; /* the name, or an address as text */
        bool literal;
        struct sockaddr_storage lit;
        uint16_t port;
        enum sbx_net_proto proto;
        bool inner_check;
        bool raw_ok; /* a tunnel a host:port rule allows as raw TCP */
        bool replied; /* the tunnel's success reply is sent: no 403 or SOCKS reply after */
        bool one_http; /* a plain HTTP request whose Host was checked: the only one served */
        char sni[SBX_NETNAME_MAX + 3];
        struct sockaddr_storage cand[MAX_CANDIDATES];
        socklen_t cand_len[MAX_CANDIDATES];
        size_t n_cand, i_cand;
        char addr[INET6_ADDRSTRLEN];
        char rule[SBX_NETRULE_TEXT_MAX + 8];
        bool resolving, dead;
        uint64_t start_ms;
        struct dir up, down;
        size_t len, skip; /* bytes in buf; of those, the proxy handshake's */
        uint8_t buf[EG_BUF_MAX];
};

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

static void conn_free(struct eg_conn *c)
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
        if (c->resolving) { /* the lookup's callback frees it */
                c->dead = true;
                return;
        }
        unlink_conn(c);
        free(c);
}

static void record(struct eg_conn *c, const char *action, const char *code, const char *reason, const char *addr_class,
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

/* The refusal in the client's own terms, then the end of the connection. */
static void refuse(struct eg_conn *c, const char *code, const char *reason)
{
        char msg[512];
        struct linger lg = { 1, 0 };
        int n;

        record(c, "deny", code, reason, ssrf_class(code), false);
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
        conn_free(c);
}

static int set_events(sd_event_source *s, uint32_t events)
{
        if (!events)
                return sd_event_source_set_enabled(s, SD_EVENT_OFF);
        if (sd_event_source_set_io_events(s, events) < 0)
                return -1;
        return sd_event_source_set_enabled(s, SD_EVENT_ON);
}

/* ---- relay ---- */

/* Moves what it can from @from to @to through @d's pipe. -1: the connection is done for. */
static int pump(struct dir *d, int from, int to)
{
        for (int i = 0; i < PUMP_ROUNDS; i++) {
                ssize_t n;

                if (d->pending) {
                        n = splice(d->pipe[0], NULL, to, NULL, d->pending, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
                        if (n < 0)
                                return errno == EAGAIN ? 0 : -1;
                        d->pending -= (size_t)n;
                        d->bytes += (uint64_t)n;
                        continue;
                }
                if (d->eof) {
                        if (!d->shut && shutdown(to, SHUT_WR) < 0 && errno != ENOTCONN)
                                return -1;
                        d->shut = true;
                        return 0;
                }
                n = splice(from, NULL, d->pipe[1], NULL, 1u << 16, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
                if (n == 0)
                        d->eof = true;
                else if (n < 0)
                        return errno == EAGAIN ? 0 : -1;
                else
                        d->pending += (size_t)n;
        }
        /* The end seen on the last round: passed on now, since no event will come for
         * it (a source at its end is not watched; found by the egress bench). */
        if (d->eof && !d->pending && !d->shut) {
                if (shutdown(to, SHUT_WR) < 0 && errno != ENOTCONN)
                        return -1;
                d->shut = true;
        }
        return 0;
}

static int on_relay(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct eg_conn *c = userdata;

        (void)s;
        (void)fd;
        (void)revents;
        if (pump(&c->up, c->cfd, c->ufd) < 0 || pump(&c->down, c->ufd, c->cfd) < 0)
                goto done;
        if (c->up.shut && c->down.shut)
                goto done;
        if (set_events(c->csrc, (!c->up.eof && !c->up.pending ? EPOLLIN : 0) | (c->down.pending ? EPOLLOUT : 0)) < 0 ||
            set_events(c->usrc, (!c->down.eof && !c->down.pending ? EPOLLIN : 0) | (c->up.pending ? EPOLLOUT : 0)) < 0)
                goto done;
        return 0;
done:
        record(c, "allow", NULL, NULL, NULL, true);
        conn_free(c);
        return 0;
}

static bool header_is(const char *l, size_t n, const char *name)
{
        size_t k = strlen(name);

        return n > k && l[k] == ':' && strncasecmp(l, name, k) == 0;
}

/* The head of the one plain HTTP request the broker checked, as the server gets it:
 * the client's connection options dropped (Connection, Keep-Alive, Proxy-Connection,
 * Upgrade, HTTP2-Settings) and "Connection: close" in their place, so the server
 * serves no second request on this connection (RFC 9112 9.6: it MUST NOT process
 * one): a keep-alive or pipelined request, or an h2c upgrade, would carry requests
 * whose Host nobody checked to another virtual host of the same server.  A head with
 * two framings (Content-Length and Transfer-Encoding, or either twice) is refused,
 * so no server or cache in front of it reads a second request in its body.  Its
 * length, or -1. */
static ssize_t one_request(const uint8_t *head, size_t head_len, uint8_t *out, size_t cap)
{
        static const char close_opt[] = "Connection: close\r\n\r\n";
        const char *b = (const char *)head;
        size_t pos = 0, o = 0;
        unsigned n_cl = 0, n_te = 0;
        bool first = true;

        while (pos < head_len) {
                const char *l = b + pos, *lf = memchr(l, '\n', head_len - pos);
                size_t n;

                if (!lf)
                        return -1;
                n = (size_t)(lf - l);
                pos += n + 1;
                if (n && l[n - 1] == '\r')
                        n--;
                if (n == 0)
                        break; /* the blank line */
                if (!first) {
                        n_cl += header_is(l, n, "content-length");
                        n_te += header_is(l, n, "transfer-encoding");
                        if (header_is(l, n, "connection") || header_is(l, n, "keep-alive") ||
                            header_is(l, n, "proxy-connection") || header_is(l, n, "upgrade") ||
                            header_is(l, n, "http2-settings"))
                                continue;
                }
                first = false;
                if (o + n + 2 > cap)
                        return -1;
                memcpy(out + o, l, n);
                out[o + n] = '\r';
                out[o + n + 1] = '\n';
                o += n + 2;
        }
        if (n_cl > 1 || n_te > 1 || (n_cl && n_te) || o + sizeof(close_opt) - 1 > cap)
                return -1;
        memcpy(out + o, close_opt, sizeof(close_opt) - 1);
        return (ssize_t)(o + sizeof(close_opt) - 1);
}

/* What the broker read and must pass on goes into the upstream pipe first. */
static int queue_up(struct eg_conn *c, const void *data, size_t len)
{
        if (!len)
                return 0;
        if (write(c->up.pipe[1], data, len) != (ssize_t)len)
                return -1;
        c->up.pending += len;
        return 0;
}

static void start_relay(struct eg_conn *c)
{
        /* The origin form may outgrow the head (a Host added, CRLF for LF); one_request
         * adds its Connection: close. */
        uint8_t head[2 * SBX_SNIFF_HTTP_MAX + 512], one[2 * SBX_SNIFF_HTTP_MAX + 1024];
        const uint8_t *p = c->buf + c->skip;
        struct sbx_http_head h;
        ssize_t n;

        c->st = ST_RELAY;
        c->timer = sd_event_source_disable_unref(c->timer);
        if (pipe2(c->up.pipe, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(c->down.pipe, O_CLOEXEC | O_NONBLOCK) < 0)
                return refuse(c, "broker", "the broker is out of pipes");
        if (c->one_http) {
                /* The origin server gets the request in origin form, as from a client,
                 * and as the only one on this connection. */
                if (sbx_sniff_http(p, c->len - c->skip, &h) != SBX_SNIFF_OK)
                        return refuse(c, "bad-request", "cannot pass the request on");
                n = (ssize_t)h.head_len;
                if (c->kind == K_ABSOLUTE && (n = sbx_http_origin_form(p, &h, head, sizeof(head))) < 0)
                        return refuse(c, "bad-request", "cannot pass the request on");
                if ((n = one_request(c->kind == K_ABSOLUTE ? head : p, (size_t)n, one, sizeof(one))) < 0)
                        return refuse(c, "bad-request",
                                      "the request is framed twice (Content-Length and Transfer-Encoding), or too big");
                if (queue_up(c, one, (size_t)n) < 0 || queue_up(c, p + h.head_len, c->len - c->skip - h.head_len) < 0)
                        return refuse(c, "bad-request", "cannot pass the request on");
        } else if (queue_up(c, c->buf + c->skip, c->len - c->skip) < 0) {
                return refuse(c, "broker", "cannot pass the first bytes on");
        }
        if (sd_event_add_io(c->b->ev, &c->usrc, c->ufd, EPOLLOUT, on_relay, c) < 0)
                return refuse(c, "broker", "cannot watch the upstream connection");
        (void)on_relay(NULL, -1, 0, c);
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
                refuse(c, "too-big", "the first message is larger than the broker reads");
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
                        return refuse(c, "ech", "the TLS hello hides its server name (ECH)");
                if (!h.has_sni)
                        return refuse(c, "no-sni", "the TLS hello names no server");
                if (h.multiple_names || strcmp(h.sni, c->host) != 0) {
                        char why[3 * SBX_NETNAME_MAX];
                        snprintf(why, sizeof(why), "the TLS server name (SNI) %s is not %s, the host this address stands for",
                                 h.sni, c->host);
                        return refuse(c, "sni-mismatch", why);
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
                return refuse(c, "bad-request", "a proxy request to a web server: send it to " SBX_EGRESS_PROXY_URL);
        if (!c->literal && (strcmp(h.host, c->host) != 0 || (h.port && h.port != c->lport))) {
                char why[3 * SBX_NETNAME_MAX];
                snprintf(why, sizeof(why), "the HTTP Host %s is not %s, the host this address stands for", h.host, c->host);
                return refuse(c, "host-mismatch", why);
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
                        return refuse(c, "bad-request", "not a SOCKS5 request");
                c->skip += q.used;
                c->port = q.port;
                snprintf(c->host, sizeof(c->host), "%.*s", (int)sizeof(c->host) - 1, q.host);
                if (q.cmd != 1) {
                        uint8_t rep[10];
                        send_all(c->cfd, rep, sbx_socks_reply(rep, 7));
                        record(c, "deny", "bad-request", "only SOCKS5 CONNECT is served", NULL, false);
                        return conn_free(c);
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
                        return refuse(c, "bad-request", "SOCKS5 without the no-authentication method");
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
                return refuse(c, "bad-request", "not an HTTP proxy request");
        if (!h.connect && !h.absolute)
                return refuse(c, "bad-request", "a proxy takes CONNECT host:port or an absolute http:// URL");
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
                return on_relay(s, fd, revents, userdata);
        if (c->len >= sizeof(c->buf)) {
                (void)sd_event_source_set_enabled(c->csrc, SD_EVENT_OFF);
                return 0;
        }
        n = recv(fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return 0;
        if (n <= 0) { /* gone before it said where to: nothing to record, nothing left */
                conn_free(c);
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
                refuse(c, "connect-failed", "the upstream server did not answer in time");
        else
                refuse(c, "timeout", "the client said nothing the broker could check in time");
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
        start_relay(c);
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
        refuse(c, "connect-failed", "cannot connect to any address of the host");
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
                return refuse(c, "resolve-failed", why);
        }
        snprintf(last.code, sizeof(last.code), "resolve-failed");
        snprintf(last.reason, sizeof(last.reason), "%.120s has no address", c->host);
        for (struct ares_addrinfo_node *n = ai->nodes; n; n = n->ai_next)
                add_candidate(c, n->ai_addr, n->ai_addrlen, &last);
        if (!c->n_cand)
                return refuse(c, last.code, last.reason);
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
                        return refuse(c, a.code, a.reason);
                return proceed(c);
        }
        eg_decide_name(c->b, c->host, c->port, c->proto, &v);
        snprintf(c->rule, sizeof(c->rule), "%s", v.rule);
        if (!v.allowed)
                return refuse(c, v.code, v.reason);
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
                        return refuse(c, "ech", "the TLS hello in the tunnel hides its server name (ECH)");
                if ((r != SBX_SNIFF_OK && !c->raw_ok) ||
                    (r == SBX_SNIFF_OK && (!h.has_sni || h.multiple_names || strcmp(h.sni, c->host) != 0)))
                        return refuse(c, "sni-mismatch", "the TLS server name (SNI) in the tunnel is not the host it was opened to");
        } else {
                struct sbx_http_head h;
                if ((r = sbx_sniff_http(p, n, &h)) == SBX_SNIFF_MORE)
                        return wait_more(c);
                if ((r != SBX_SNIFF_OK && !c->raw_ok) ||
                    (r == SBX_SNIFF_OK && (h.connect || h.absolute || strcmp(h.host, c->host) != 0 ||
                                           (h.port && h.port != c->port))))
                        return refuse(c, "host-mismatch", "the HTTP Host in the tunnel is not the host it was opened to");
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

/* The open connections the broker's fd limit has room for, relayed (six fds each),
 * up to EG_MAX_CONNS: past it, a pipe or a socket for the server would fail. */
static size_t conn_max(void)
{
        struct rlimit rl;
        size_t n;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
                return EG_MAX_CONNS;
        n = rl.rlim_cur > FDS_SPARE + FDS_PER_CONN ? (size_t)(rl.rlim_cur - FDS_SPARE) / FDS_PER_CONN : 1;
        return n < EG_MAX_CONNS ? n : EG_MAX_CONNS;
}

/* accept4 failed with EMFILE or ENFILE: the connection stays queued and the listener
 * readable, so the loop would call back at once, forever.  A spare fd, taken while
 * there was room (accept_reserve), makes room to take it off the queue and close
 * it (the client sees the close). */
static int spare_fd = -1;

static void accept_reserve(void)
{
        if (spare_fd < 0)
                spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int accept_overflow(int listener)
{
        int fd;

        if (spare_fd < 0)
                return -EMFILE;
        close(spare_fd);
        fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0)
                close(fd);
        spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return fd >= 0 ? 0 : -errno;
}

int eg_accept(struct eg_broker *b, int listener)
{
        if (!b->max_conns)
                b->max_conns = conn_max(); /* the limit is raised once, before any listener */
        accept_reserve();
        for (;;) {
                int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

                if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
                        if (accept_overflow(listener) < 0)
                                return -EMFILE;
                        continue;
                }
                if (fd < 0)
                        return -errno;
                if (b->n_conns >= b->max_conns) { /* taken off the queue: the client sees the close */
                        close(fd);
                        continue;
                }
                b->n_conns++;
                return fd;
        }
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
                        conn_free(c);
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
                        record(c, "allow", NULL, NULL, NULL, true);
                conn_free(c);
        }
}
