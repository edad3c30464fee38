/* SPDX-License-Identifier: MIT */
#include "identity.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "applied.h"
#include "cleanup.h"
#include "privs.h"
#include "sync.h"

static int write_file(const char *file, const char *value)
{
        _cleanup_close_ int fd = open(file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        ssize_t len = (ssize_t)strlen(value);

        return fd < 0 || write(fd, value, (size_t)len) != len ? -errno : 0;
}

/* The child that makes the namespace: it enters one, maps nobody there to its own
 * ids (the only map a process may write for itself; the kernel asks CAP_SETFCAP of
 * one that maps root), and sends it home. */
_Noreturn static void make_userns(int sock)
{
        struct sbx_msg m = { .type = SBX_MSG_ERROR };
        uid_t uid = geteuid();
        gid_t gid = getegid();
        char map[64];
        int fd, r = 0;

        if (unshare(CLONE_NEWUSER) < 0)
                r = -errno;
        if (r == 0)
                r = write_file("/proc/self/setgroups", "deny");
        snprintf(map, sizeof(map), "%u %u 1", SBX_ROOT_INSIDE_ID, (unsigned)uid);
        if (r == 0)
                r = write_file("/proc/self/uid_map", map);
        snprintf(map, sizeof(map), "%u %u 1", SBX_ROOT_INSIDE_ID, (unsigned)gid);
        if (r == 0)
                r = write_file("/proc/self/gid_map", map);
        if (r < 0) {
                m.err.errnum = -r;
                sbx_sync_send(sock, &m);
                _exit(1);
        }
        fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
                m.err.errnum = errno;
                sbx_sync_send(sock, &m);
                _exit(1);
        }
        m.type = SBX_MSG_USERNS;
        sbx_sync_send_fd(sock, &m, fd);
        _exit(0);
}

int sbx_identity_userns(const struct sbx_plan *p, char *what, size_t size)
{
        struct sbx_msg m = { 0 };
        int sv[2], fd = -1, err;
        pid_t pid;

        what[0] = '\0';
        if (!p->idmap_system)
                return -1;
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
                err = errno;
                goto weak;
        }
        pid = fork();
        if (pid == 0) {
                close(sv[0]);
                make_userns(sv[1]);
        }
        err = errno;
        close(sv[1]);
        if (pid > 0) {
                /* Its message, or its end closed (it died): either wakes us. */
                struct pollfd pfd = { .fd = sv[0], .events = POLLIN };

                while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
                        ;
                err = sbx_sync_recv(sv[0], &m, &fd) < 0           ? EPROTO
                      : m.type == SBX_MSG_USERNS && fd >= 0 ? 0
                      : m.err.errnum > 0                    ? m.err.errnum
                                                            : EPROTO;
                (void)waitpid(pid, NULL, 0); /* ECHILD where sandboxd's loop reaped it: nothing left either way */
        }
        close(sv[0]);
        if (err == 0)
                return fd;
        if (fd >= 0)
                close(fd);
weak:
        snprintf(what, size, "identity: no user namespace mapping nobody to root (%s%s): the command runs as uid 0, and reads root's owner-only files in the system view",
                 strerror(err), err == EPERM ? "; CAP_SETFCAP is needed" : "");
        return -1;
}

int sbx_identity_enter(const struct sbx_plan *p, int ns, unsigned *applied, struct sbx_error *e)
{
        int r;

        if (!p->root_userns || ns < 0)
                return 0;
        /* sandboxd: the caller's groups before the namespace freezes them. */
        if (p->run_as && (r = sbx_privs_switch_ids(p, e)) < 0)
                return r;
        if (setns(ns, CLONE_NEWUSER) < 0)
                return sbx_error_set(e, SBX_STAGE_USERNS, errno, "setns", "CLONE_NEWUSER", "cannot run root's command as nobody");
        *applied |= SBX_APPLIED_USERNS;
        return 0;
}
