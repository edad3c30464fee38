/* SPDX-License-Identifier: MIT */
#include "nonet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress.h"

#define BODY                                                                              \
        "sbx: this jail has no network (network: none); a profile with network: filtered\n" \
        "reaches the hosts it names, e.g. --profile network\n"
_Static_assert(sizeof(BODY) - 1 == 131, "Content-Length below is the body's length");

static const char refusal[] = "HTTP/1.1 403 Forbidden by sbx: this jail has no network\r\n"
                              "X-Sbx-Error: no-network\r\n"
                              "Content-Type: text/plain\r\n"
                              "Connection: close\r\n"
                              "Content-Length: 131\r\n"
                              "\r\n" BODY;

int sbx_nonet_listen(struct sbx_error *e)
{
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(SBX_EGRESS_PROXY_PORT),
                                 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
        _cleanup_close_ int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

        if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 64) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "bind", "127.0.0.1:3128", "cannot open the no-network proxy");
        return TAKE_FD(fd);
}

void sbx_nonet_init(struct sbx_nonet *n, int listen_fd)
{
        n->listen_fd = listen_fd;
        n->next = 0;
        for (size_t i = 0; i < SBX_NONET_DRAIN; i++)
                n->draining[i] = -1;
}

/* The answer, then our half closed; the client's request is read and dropped until
 * it closes too (closing on unread bytes would reset, and lose the answer). */
void sbx_nonet_accept(struct sbx_nonet *n)
{
        for (int i = 0; i < 16; i++) {
                int fd = accept4(n->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

                if (fd < 0)
                        return;
                (void)send(fd, refusal, sizeof(refusal) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
                (void)shutdown(fd, SHUT_WR);
                closep(&n->draining[n->next]);
                n->draining[n->next] = fd;
                n->next = (n->next + 1) % SBX_NONET_DRAIN;
        }
}

void sbx_nonet_drain(struct sbx_nonet *n, size_t i)
{
        char buf[4096];
        ssize_t r = recv(n->draining[i], buf, sizeof(buf), MSG_DONTWAIT);

        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
                closep(&n->draining[i]);
}
