/* SPDX-License-Identifier: MIT */
/* The connect broker: no host unix socket is reachable from the jail, whatever the bind.
 *
 * A path unix socket is found by its inode, so a read-only bind, the workspace, or a
 * directory bound for something else carries the host's sockets in (tmux, ssh-agent,
 * X11, an IDE's), and ones made after the jail started too.  Landlock on this kernel
 * scopes only abstract sockets (ABI 6); so the command's connect() is a seccomp user
 * notification, answered by the jail's PID 1: outside the filter, in the jail's mount
 * and network namespaces, without capabilities.  It takes a copy of the address (the
 * command cannot change it afterwards), a duplicate of the socket (pidfd_getfd), and
 * connects that itself:
 *   - a path: opened in the jail's view, and connected only if it is a socket the jail
 *     made -- bound in the jail's own network namespace (sock_diag), or on one of its
 *     private tmpfs; the connect goes through /proc/self/fd/N, to exactly the inode
 *     that was checked.  Anything else gets EACCES.
 *   - an abstract name or an IP address: connected as asked; PID 1 carries the same
 *     Landlock scope as the command (abstract sockets of the jail only).
 * Datagram unix sockets are denied by the filter (sendto/sendmsg name a path per
 * message, which the broker could not see without checking every send). */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "plan.h"

#define SBX_BROKER_PENDING 64 /* connects in progress at once */

struct sbx_broker {
        int notif_fd;           /* the command's seccomp listener; -1 until it arrives */
        bool own_netns;         /* the jail's network namespace is its own */
        dev_t private_devs[16]; /* the jail's own tmpfs (/tmp, /dev/shm, the plan's) */
        size_t n_private;
        size_t notif_size, resp_size;
        struct sbx_broker_pending {
                int sock;       /* our duplicate of the command's socket, -1: free */
                unsigned long long id;
                int flags;      /* its file status flags before we made it non-blocking */
        } pending[SBX_BROKER_PENDING];
};

/* Launcher: whether PID 1 can broker for @p's command: it needs /proc, the right to
 * read the command's memory and take its fds (same uid, no capability the command has
 * and it lacks, Yama's ptrace_scope below 2). */
bool sbx_broker_usable(const struct sbx_plan *p);

/* PID 1, after the mounts: what is the jail's own (@private: the tmpfs the mount stage
 * made, as it made them). */
void sbx_broker_init(struct sbx_broker *b, const struct sbx_plan *p, const dev_t *private, size_t n_private);

/* One notification from b->notif_fd, answered now or left pending (a connect in
 * progress on a blocking socket). */
void sbx_broker_handle(struct sbx_broker *b);

/* A pending connect's socket is writable (or failed): answer it. */
void sbx_broker_complete(struct sbx_broker *b, size_t slot);
