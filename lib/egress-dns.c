/* SPDX-License-Identifier: MIT */
/* The jail's DNS, answered by the broker (lib/dns.h): UDP and TCP on 127.0.0.1:53 in
 * the jail's namespace.  A question is never forwarded: an allowed name gets its
 * synthetic address, the rest NXDOMAIN, each decision audited. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "dns.h"
#include "egress-int.h"

#define DNS_MSG_MAX 4096 /* a jail's question is tiny; TCP messages longer are dropped */

static enum sbx_dns_decision decide(void *ctx, const char *name, uint16_t qtype, char *reason, size_t reason_size)
{
        struct eg_broker *b = ctx;
        struct eg_verdict v;

        (void)qtype;
        eg_decide_dns(b, name, &v);
        if (!v.allowed)
                snprintf(reason, reason_size, "%s", v.reason);
        snprintf(b->dns_code, sizeof(b->dns_code), "%s", v.code);
        return v.allowed ? SBX_DNS_ALLOW : SBX_DNS_DENY;
}

static void record(struct eg_broker *b, const struct sbx_dns_outcome *o)
{
        bool deny;

        if (!o->name[0])
                return;
        deny = o->asked ? o->decision == SBX_DNS_DENY : o->rcode != 0;
        eg_log(b, &(struct eg_record){
                          .action = deny ? "deny" : "allow",
                          .proto = "dns",
                          .host = o->name,
                          .port = 53,
                          .reason = o->reason[0] ? o->reason : NULL,
                          .code = !deny ? NULL : o->asked ? b->dns_code : "bad-name",
                  });
}

static ssize_t answer(struct eg_broker *b, const uint8_t *q, size_t len, bool tcp, uint8_t *out, size_t cap)
{
        struct sbx_dns_outcome o = { .name = "" };
        ssize_t n = sbx_dns_answer(q, len, tcp, b->synth, decide, b, out, cap, &o);

        record(b, &o);
        return n;
}

int eg_dns_udp(struct eg_broker *b, int fd)
{
        for (int i = 0; i < 64; i++) {
                uint8_t q[DNS_MSG_MAX], out[DNS_MSG_MAX];
                struct sockaddr_storage from;
                socklen_t fl = sizeof(from);
                ssize_t n = recvfrom(fd, q, sizeof(q), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);

                if (n < 0)
                        return errno == EAGAIN ? 0 : -errno;
                n = answer(b, q, (size_t)n, false, out, sizeof(out));
                if (n > 0)
                        (void)sendto(fd, out, (size_t)n, MSG_DONTWAIT, (struct sockaddr *)&from, fl);
        }
        return 0;
}

/* DNS over TCP: two bytes of length, the message; as many as the client sends. */
struct tcp_dns {
        struct eg_broker *b;
        int fd;
        sd_event_source *src, *timer;
        size_t len;
        uint8_t buf[2 + DNS_MSG_MAX];
};

static void tcp_free(struct tcp_dns *t)
{
        t->src = sd_event_source_disable_unref(t->src);
        t->timer = sd_event_source_disable_unref(t->timer);
        closep(&t->fd);
        t->b->n_conns--;
        free(t);
}

static int on_tcp_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
        (void)s;
        (void)usec;
        tcp_free(userdata);
        return 0;
}

static int on_tcp(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct tcp_dns *t = userdata;
        ssize_t n;

        (void)s;
        (void)revents;
        n = recv(fd, t->buf + t->len, sizeof(t->buf) - t->len, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return 0;
        if (n <= 0) {
                tcp_free(t);
                return 0;
        }
        t->len += (size_t)n;
        while (t->len >= 2) {
                size_t m = (size_t)t->buf[0] << 8 | t->buf[1];
                uint8_t out[2 + DNS_MSG_MAX];
                ssize_t r;

                if (m > DNS_MSG_MAX) {
                        tcp_free(t);
                        return 0;
                }
                if (t->len < 2 + m)
                        break;
                r = answer(t->b, t->buf + 2, m, true, out + 2, sizeof(out) - 2);
                if (r > 0) {
                        out[0] = (uint8_t)(r >> 8);
                        out[1] = (uint8_t)r;
                        if (send(fd, out, (size_t)r + 2, MSG_DONTWAIT | MSG_NOSIGNAL) != r + 2) {
                                tcp_free(t);
                                return 0;
                        }
                }
                memmove(t->buf, t->buf + 2 + m, t->len - 2 - m);
                t->len -= 2 + m;
        }
        return 0;
}

int eg_dns_tcp_accept(struct eg_broker *b, int listener)
{
        for (int i = 0; i < 64; i++) {
                int fd = eg_accept(b, listener);
                struct tcp_dns *t;

                if (fd < 0)
                        return fd == -EAGAIN ? 0 : fd;
                if (!(t = calloc(1, sizeof(*t)))) {
                        close(fd);
                        b->n_conns--;
                        continue;
                }
                t->b = b;
                t->fd = fd;
                if (sd_event_add_io(b->ev, &t->src, fd, EPOLLIN, on_tcp, t) < 0 ||
                    sd_event_add_time_relative(b->ev, &t->timer, CLOCK_MONOTONIC, EG_HANDSHAKE_MS * 1000ull, 0, on_tcp_timeout,
                                               t) < 0)
                        tcp_free(t);
        }
        return 0;
}
