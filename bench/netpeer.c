/* SPDX-License-Identifier: MIT */
/* The egress benchmark's network ends (bench/egress.sh): a lean echo server for the
 * lab's internet, and the clients, run the same way directly, through socat and
 * inside a jail through the broker, so that what differs between them is the path.
 * Every client prints `key=value` lines; times are CLOCK_MONOTONIC.
 *
 *   echo ADDR PORT READY        serves echo on ADDR:PORT (one thread, epoll); creates
 *                               the file READY once it listens; runs until killed
 *   sink HOST PORT              connects, reads to EOF into a 1 MiB buffer:
 *                               bytes=N seconds=S
 *   connloop HOST PORT N        N times: connect, send 1 byte, read it back, close
 *                               (HOST resolved once): n= ok= seconds= median_us= p90_us=
 *   dnsloop SERVER NAME N       N A queries over UDP, one at a time:
 *                               n= ok= seconds= median_us= p90_us=
 *   hold HOST PORT N FILE       N connections, each with a 1-byte echo done (so the
 *                               relay is up end to end), then held until FILE exists:
 *                               held=K
 * Exit status 0, or 1 with a message when it could not run at all (a failed connect
 * inside a loop is counted, not fatal). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

_Noreturn static void die(const char *what)
{
        fprintf(stderr, "netpeer: %s: %s\n", what, strerror(errno));
        exit(1);
}

static long count(const char *s)
{
        char *end;
        long v = strtol(s, &end, 10);
        if (*end || v < 1 || v > 10000000) {
                fprintf(stderr, "netpeer: bad count '%s'\n", s);
                exit(2);
        }
        return v;
}

static struct addrinfo *resolve(const char *host, const char *port, int type)
{
        struct addrinfo hints = { .ai_socktype = type }, *ai;
        int r = getaddrinfo(host, port, &hints, &ai);
        if (r) {
                fprintf(stderr, "netpeer: cannot resolve %s: %s\n", host, gai_strerror(r));
                exit(1);
        }
        return ai;
}

static int dial(const struct addrinfo *ai)
{
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -1;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
                close(fd);
                return -1;
        }
        return fd;
}

/* One byte there and back. */
static int ping(int fd)
{
        char c = 'x';
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (send(fd, &c, 1, MSG_NOSIGNAL) != 1 || poll(&p, 1, 10000) != 1 || recv(fd, &c, 1, 0) != 1)
                return -1;
        return c == 'x' ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;
        return (x > y) - (x < y);
}

static void report(long n, long ok, double secs, double *us, long k)
{
        qsort(us, (size_t)k, sizeof(*us), cmp);
        printf("n=%ld\nok=%ld\nseconds=%.6f\n", n, ok, secs);
        if (k)
                printf("median_us=%.1f\np90_us=%.1f\n", us[(k - 1) / 2], us[(k * 9 + 9) / 10 - 1]);
}

static int cmd_echo(const char *addr, const char *port, const char *ready)
{
        struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICHOST }, *ai;
        struct epoll_event ev, evs[64];
        int one = 1, lfd, ep, f;
        char buf[65536];

        if (getaddrinfo(addr, port, &hints, &ai))
                die("bad address");
        lfd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (lfd < 0)
                die("socket");
        (void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(lfd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(lfd, 4096) < 0)
                die("bind/listen");
        ep = epoll_create1(EPOLL_CLOEXEC);
        ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = lfd };
        if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) < 0)
                die("epoll");
        if ((f = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
                die("ready file");
        close(f);
        for (;;) {
                int n = epoll_wait(ep, evs, 64, -1);
                for (int i = 0; i < n; i++) {
                        int fd = evs[i].data.fd;
                        if (fd == lfd) {
                                int c;
                                while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                                        (void)setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
                                        ev = (struct epoll_event){ .events = EPOLLIN, .data.fd = c };
                                        if (epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev) < 0)
                                                close(c);
                                }
                                continue;
                        }
                        ssize_t k = read(fd, buf, sizeof(buf));
                        if (k > 0 && send(fd, buf, (size_t)k, MSG_NOSIGNAL) == k)
                                continue;
                        if (k < 0 && errno == EAGAIN)
                                continue;
                        close(fd); /* EOF, error, or a peer too slow for this bench */
                }
        }
}

static int cmd_sink(const char *host, const char *port)
{
        struct addrinfo *ai = resolve(host, port, SOCK_STREAM);
        static char buf[1 << 20];
        long long bytes = 0;
        double t0 = now_s();
        ssize_t k;
        int fd = dial(ai);

        if (fd < 0)
                die("connect");
        while ((k = read(fd, buf, sizeof(buf))) > 0)
                bytes += k;
        if (k < 0)
                die("read");
        printf("bytes=%lld\nseconds=%.6f\n", bytes, now_s() - t0);
        return 0;
}

static int cmd_connloop(const char *host, const char *port, long n)
{
        struct addrinfo *ai = resolve(host, port, SOCK_STREAM);
        double *us = calloc((size_t)n, sizeof(*us)), t0 = now_s();
        long ok = 0;

        if (!us)
                die("calloc");
        for (long i = 0; i < n; i++) {
                double t = now_s();
                int fd = dial(ai);
                if (fd >= 0 && ping(fd) == 0)
                        us[ok++] = (now_s() - t) * 1e6;
                if (fd >= 0)
                        close(fd);
        }
        report(n, ok, now_s() - t0, us, ok);
        return 0;
}

static int cmd_dnsloop(const char *server, const char *name, long n)
{
        struct addrinfo *ai = resolve(server, "53", SOCK_DGRAM);
        double *us = calloc((size_t)n, sizeof(*us)), t0 = now_s();
        unsigned char q[300], r[1500];
        size_t len = 12;
        long ok = 0;
        int fd = dial(ai);

        if (fd < 0 || !us)
                die("dns socket");
        memset(q, 0, 12);
        q[2] = 0x01; /* RD */
        q[5] = 1;    /* QDCOUNT */
        for (const char *l = name; *l;) {
                size_t k = strcspn(l, ".");
                if (k == 0 || k > 63 || len + k + 6 > sizeof(q)) {
                        fprintf(stderr, "netpeer: bad name '%s'\n", name);
                        return 1;
                }
                q[len++] = (unsigned char)k;
                memcpy(q + len, l, k);
                len += k;
                l += k + (l[k] == '.');
        }
        q[len++] = 0;
        q[len++] = 0, q[len++] = 1; /* A */
        q[len++] = 0, q[len++] = 1; /* IN */
        for (long i = 0; i < n; i++) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                double t = now_s();
                ssize_t k;
                q[0] = (unsigned char)(i >> 8), q[1] = (unsigned char)i;
                if (send(fd, q, len, 0) != (ssize_t)len)
                        continue;
                if (poll(&p, 1, 2000) != 1 || (k = recv(fd, r, sizeof(r), 0)) < 12)
                        continue;
                /* Same id, no error, at least one answer. */
                if (r[0] == q[0] && r[1] == q[1] && (r[3] & 0xf) == 0 && (r[6] | r[7]))
                        us[ok++] = (now_s() - t) * 1e6;
        }
        report(n, ok, now_s() - t0, us, ok);
        return 0;
}

static int cmd_hold(const char *host, const char *port, long n, const char *file)
{
        struct addrinfo *ai = resolve(host, port, SOCK_STREAM);
        long held = 0;

        for (long i = 0; i < n; i++) {
                int fd = dial(ai);
                if (fd < 0 || ping(fd) < 0)
                        break;
                held++; /* left open on purpose */
        }
        printf("held=%ld\n", held);
        fflush(stdout);
        while (access(file, F_OK) < 0)
                usleep(50000);
        return 0;
}

int main(int argc, char **argv)
{
        setvbuf(stdout, NULL, _IOLBF, 0);
        if (argc == 5 && strcmp(argv[1], "echo") == 0)
                return cmd_echo(argv[2], argv[3], argv[4]);
        if (argc == 4 && strcmp(argv[1], "sink") == 0)
                return cmd_sink(argv[2], argv[3]);
        if (argc == 5 && strcmp(argv[1], "connloop") == 0)
                return cmd_connloop(argv[2], argv[3], count(argv[4]));
        if (argc == 5 && strcmp(argv[1], "dnsloop") == 0)
                return cmd_dnsloop(argv[2], argv[3], count(argv[4]));
        if (argc == 6 && strcmp(argv[1], "hold") == 0)
                return cmd_hold(argv[2], argv[3], count(argv[4]), argv[5]);
        fprintf(stderr, "usage: netpeer echo ADDR PORT READY | sink HOST PORT | connloop HOST PORT N |\n"
                        "               dnsloop SERVER NAME N | hold HOST PORT N FILE\n");
        return 2;
}
