/* SPDX-License-Identifier: MIT */
/* A connection's relay, once its destination is judged and connected: what the
 * broker already read goes up first (a plain HTTP request rewritten as the only one
 * on the connection), then splice both ways, through a pipe each, until both sides
 * are done; one audit record at the end with the bytes and the time. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "egress-conn.h"
#include "egress-int.h"

#define PUMP_ROUNDS 16 /* splices per wake-up, so one busy relay cannot starve the rest */
/* A transfer past BULK_BYTES gets a BULK_PIPE pipe, sixteen times the default: each
 * splice pair moves up to that much, and the relay went from 0.56-0.67 of a direct
 * transfer's throughput to 0.83 (make bench, bench/egress.sh).  At most BULK_PIPES
 * of them a broker: pipe memory counts against its user's pipe-user-pages-soft
 * (64 MiB by default), past which every new pipe of that user gets a single page. */
#define BULK_BYTES (1u << 20)
#define BULK_PIPE (1u << 20)
#define BULK_PIPES 4

/* A bulk transfer's pipe grows, once, while the broker has room for one more. */
static void grow(struct eg_broker *b, struct dir *d)
{
        int size;

        if (d->cap >= BULK_PIPE || d->bytes < BULK_BYTES || b->grown_pipes >= BULK_PIPES)
                return;
        size = fcntl(d->pipe[1], F_SETPIPE_SZ, BULK_PIPE);
        d->cap = BULK_PIPE; /* asked once: refused, it keeps its size, and splices ask for more than fits */
        if (size > 0) {
                d->cap = (size_t)size;
                b->grown_pipes++;
                d->grown = true;
        }
}

/* Moves what it can from @from to @to through @d's pipe. -1: the connection is done for. */
static int pump(struct eg_broker *b, struct dir *d, int from, int to)
{
        grow(b, d);
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
                n = splice(from, NULL, d->pipe[1], NULL, d->cap, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
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

int eg_on_relay(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct eg_conn *c = userdata;

        (void)s;
        (void)fd;
        (void)revents;
        if (pump(c->b, &c->up, c->cfd, c->ufd) < 0 || pump(c->b, &c->down, c->ufd, c->cfd) < 0)
                goto done;
        if (c->up.shut && c->down.shut)
                goto done;
        if (eg_set_events(c->csrc, (!c->up.eof && !c->up.pending ? EPOLLIN : 0) | (c->down.pending ? EPOLLOUT : 0)) < 0 ||
            eg_set_events(c->usrc, (!c->down.eof && !c->down.pending ? EPOLLIN : 0) | (c->up.pending ? EPOLLOUT : 0)) < 0)
                goto done;
        return 0;
done:
        eg_conn_record(c, "allow", NULL, NULL, NULL, true);
        eg_conn_free(c);
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

void eg_start_relay(struct eg_conn *c)
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
                return eg_conn_refuse(c, "broker", "the broker is out of pipes");
        c->up.cap = c->down.cap = 1u << 16; /* the kernel's default; grow() asks for more */
        if (c->one_http) {
                /* The origin server gets the request in origin form, as from a client,
                 * and as the only one on this connection. */
                if (sbx_sniff_http(p, c->len - c->skip, &h) != SBX_SNIFF_OK)
                        return eg_conn_refuse(c, "bad-request", "cannot pass the request on");
                n = (ssize_t)h.head_len;
                if (c->kind == K_ABSOLUTE && (n = sbx_http_origin_form(p, &h, head, sizeof(head))) < 0)
                        return eg_conn_refuse(c, "bad-request", "cannot pass the request on");
                if ((n = one_request(c->kind == K_ABSOLUTE ? head : p, (size_t)n, one, sizeof(one))) < 0)
                        return eg_conn_refuse(c, "bad-request",
                                      "the request is framed twice (Content-Length and Transfer-Encoding), or too big");
                if (queue_up(c, one, (size_t)n) < 0 || queue_up(c, p + h.head_len, c->len - c->skip - h.head_len) < 0)
                        return eg_conn_refuse(c, "bad-request", "cannot pass the request on");
        } else if (queue_up(c, c->buf + c->skip, c->len - c->skip) < 0) {
                return eg_conn_refuse(c, "broker", "cannot pass the first bytes on");
        }
        if (sd_event_add_io(c->b->ev, &c->usrc, c->ufd, EPOLLOUT, eg_on_relay, c) < 0)
                return eg_conn_refuse(c, "broker", "cannot watch the upstream connection");
        (void)eg_on_relay(NULL, -1, 0, c);
}
