/* SPDX-License-Identifier: MIT */
/* PID 1 of the jail, after the command was forked; capabilities already dropped.
 * All signals stay blocked and are read from a signalfd: a blocked signal is queued
 * even for a PID 1 (unblocked with SIG_DFL it would be dropped), and there is no
 * handler code to reason about.  One poll loop serves the signals, the command's
 * connects (broker.c), the connects in progress, and with network: none the
 * no-network proxy (nonet.h). */
#include "init.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sync.h"

/* The command's seccomp listener, sent once before it execs. */
static int take_listener(int sock)
{
        char control[CMSG_SPACE(sizeof(int))];
        char byte;
        struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof(control) };
        int fd = -1;

        if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT) <= 0)
                return -1;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
                        memcpy(&fd, CMSG_DATA(c), sizeof(int));
        return fd;
}

static void reap(pid_t command, int sync_fd)
{
        for (;;) {
                int status;
                pid_t pid = waitpid(-1, &status, WNOHANG);

                if (pid <= 0)
                        return;
                if (pid == command) {
                        struct sbx_msg m = { .type = SBX_MSG_EXIT, .wstatus = status };

                        sbx_sync_send(sync_fd, &m);
                        _exit(0);
                }
        }
}

_Noreturn void sbx_init_run(pid_t command, int sync_fd, int listener_sock, struct sbx_broker *b, struct sbx_nonet *nn)
{
        enum { FIXED = 3, NONET = FIXED + SBX_BROKER_PENDING };
        struct pollfd pfd[NONET + 1 + SBX_NONET_DRAIN];
        sigset_t all;
        int sfd;

        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, NULL);
        sfd = signalfd(-1, &all, SFD_CLOEXEC | SFD_NONBLOCK);
        if (sfd < 0)
                _exit(125);
        for (;;) {
                struct signalfd_siginfo si;
                nfds_t n = 3;

                pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
                pfd[1] = (struct pollfd){ .fd = b->notif_fd < 0 ? listener_sock : -1, .events = POLLIN };
                pfd[2] = (struct pollfd){ .fd = b->notif_fd, .events = POLLIN };
                for (size_t i = 0; i < SBX_BROKER_PENDING; i++)
                        pfd[n++] = (struct pollfd){ .fd = b->pending[i].sock, .events = POLLOUT };
                pfd[n++] = (struct pollfd){ .fd = nn->listen_fd, .events = POLLIN };
                for (size_t i = 0; i < SBX_NONET_DRAIN; i++)
                        pfd[n++] = (struct pollfd){ .fd = nn->draining[i], .events = POLLIN };
                if (poll(pfd, n, -1) < 0)
                        continue; /* EINTR */
                while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
                        /* From the launcher (forwarding the caller's ^C, TERM…) or from
                         * inside; either way it is for the command. */
                        if (si.ssi_signo != SIGCHLD)
                                (void)kill(command, (int)si.ssi_signo);
                }
                reap(command, sync_fd);
                if (pfd[1].revents) {
                        b->notif_fd = take_listener(listener_sock);
                        close(listener_sock);
                        listener_sock = -1;
                }
                if (pfd[2].revents & POLLIN)
                        sbx_broker_handle(b);
                else if (pfd[2].revents) {
                        /* Every holder of the filter is gone: nothing more to answer. */
                        close(b->notif_fd);
                        b->notif_fd = -2;
                }
                for (size_t i = 0; i < SBX_BROKER_PENDING; i++)
                        if (pfd[FIXED + i].fd >= 0 && pfd[FIXED + i].revents)
                                sbx_broker_complete(b, i);
                for (size_t i = 0; i < SBX_NONET_DRAIN; i++)
                        if (pfd[NONET + 1 + i].fd >= 0 && pfd[NONET + 1 + i].revents)
                                sbx_nonet_drain(nn, i);
                if (pfd[NONET].revents)
                        sbx_nonet_accept(nn);
        }
}
