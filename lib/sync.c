/* SPDX-License-Identifier: MIT */
#include "sync.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void sbx_sync_send(int fd, const struct sbx_msg *m)
{
        (void)send(fd, m, sizeof(*m), MSG_NOSIGNAL);
}

void sbx_sync_send_fd(int sock, const struct sbx_msg *m, int fd)
{
        char control[CMSG_SPACE(sizeof(int))] = { 0 };
        struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof(control) };
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
        (void)sendmsg(sock, &mh, MSG_NOSIGNAL);
}

int sbx_sync_recv(int sock, struct sbx_msg *m, int *fd)
{
        char control[CMSG_SPACE(sizeof(int))];
        struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof(control) };
        ssize_t n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

        *fd = -1;
        if (n < 0)
                return -errno;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
                        memcpy(fd, CMSG_DATA(c), sizeof(int));
        if (n != (ssize_t)sizeof(*m)) {
                if (*fd >= 0)
                        close(*fd);
                *fd = -1;
                return -EPROTO;
        }
        return 0;
}

_Noreturn void sbx_sync_fail(int fd, const struct sbx_error *e)
{
        struct sbx_msg m = { .type = SBX_MSG_ERROR, .err = *e };

        sbx_sync_send(fd, &m);
        _exit(125);
}
