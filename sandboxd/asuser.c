/* SPDX-License-Identifier: MIT */
/* The caller's file operations (lib/caller.h) for sandboxd's launcher: a helper process
 * forked by the launcher that becomes the caller -- groups, gid and uid, all three ids
 * of each, no capability, no_new_privs -- and then does each operation the launcher asks
 * for with lib/caller.c's own code, handing back an fd and the error.
 *
 * Why a process and not setfsuid: setfsuid drops only the file-system capabilities;
 * CAP_SYS_PTRACE and the rest stay, and with them /proc/PID/cwd of another user's
 * process, or sandboxd's own /proc/self/cwd, would open with the daemon's powers.  A
 * process that is the caller has exactly the caller's rights, and lib/path.h's rules
 * never follow a /proc magic link besides.
 *
 * Requests and replies are fixed-size structs over a SOCK_SEQPACKET socketpair between
 * two processes of this one program (as lib/sync.h does), the fds alongside as
 * SCM_RIGHTS. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "asuser.h"

enum { OP_OPEN = 1, OP_MKDIR, OP_HOLD, OP_RELEASE, OP_REPLACE, OP_STRAYS, OP_REALPATH, OP_OBJECTS };

struct request {
        int op;
        int flags;
        enum sbx_access access;
        struct sbx_file_id expect;
        char path[PATH_MAX];
        char name[NAME_MAX + 1];
};

struct reply {
        int r;
        struct sbx_error err;
        char found[PATH_MAX]; /* OP_STRAYS, OP_REALPATH, OP_OBJECTS */
};

struct asuser {
        int sock;
        pid_t pid;
};

/* One message, with at most one fd. */
static int send_msg(int sock, const void *buf, size_t len, int fd)
{
        char control[CMSG_SPACE(sizeof(int))] = { 0 };
        struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

        if (fd >= 0) {
                struct cmsghdr *c;

                mh.msg_control = control;
                mh.msg_controllen = sizeof(control);
                c = CMSG_FIRSTHDR(&mh);
                c->cmsg_level = SOL_SOCKET;
                c->cmsg_type = SCM_RIGHTS;
                c->cmsg_len = CMSG_LEN(sizeof(int));
                memcpy(CMSG_DATA(c), &fd, sizeof(int));
        }
        return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -EPIPE;
}

static int recv_msg(int sock, void *buf, size_t len, int *fd)
{
        char control[CMSG_SPACE(sizeof(int))];
        struct iovec iov = { .iov_base = buf, .iov_len = len };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof(control) };
        ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);

        *fd = -1;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); n > 0 && c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
                        memcpy(fd, CMSG_DATA(c), sizeof(int));
        if (n != (ssize_t)len || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
                closep(fd);
                return -EPROTO;
        }
        return 0;
}

/* ---- the helper (child) ---------------------------------------------------------- */

/* The caller, whole: supplementary groups, then gid, then uid (all three ids of each,
 * so no saved id lets it switch back); the uid change from 0 clears every capability;
 * no_new_privs so nothing it reaches can give any back.  A root caller stays root. */
static int become(uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups)
{
        if (setgroups(n_groups, groups) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
                return -errno;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -errno;
        return 0;
}

static void serve(int sock)
{
        struct request rq;
        int in;

        while (recv_msg(sock, &rq, sizeof(rq), &in) == 0) {
                struct reply rep = { 0 };
                int out = -1;

                rq.path[sizeof(rq.path) - 1] = '\0';
                rq.name[sizeof(rq.name) - 1] = '\0';
                switch (rq.op) {
                case OP_OPEN:
                        rep.r = sbx_caller_self.open(&sbx_caller_self, rq.path, rq.flags, rq.access, &out, &rep.err);
                        break;
                case OP_MKDIR:
                        rep.r = sbx_caller_self.mkdir(&sbx_caller_self, rq.path, rq.name, (mode_t)rq.flags, &rep.err);
                        break;
                case OP_HOLD:
                        rep.r = sbx_caller_self.hold(&sbx_caller_self, rq.path, rq.name, &out, &rep.err);
                        break;
                case OP_RELEASE:
                        rep.r = in < 0 ? sbx_error_set(&rep.err, SBX_STAGE_VALIDATE, EBADF, "", rq.path, "no mount point to release")
                                       : sbx_caller_self.release(&sbx_caller_self, rq.path, rq.name, in, rq.flags != 0, &rep.err);
                        break;
                case OP_REPLACE:
                        rep.r = sbx_caller_self.replace(&sbx_caller_self, rq.path, rq.name, in, &rq.expect, &rep.err);
                        break;
                case OP_STRAYS:
                        rep.r = sbx_caller_self.strays(&sbx_caller_self, rq.path, rq.flags != 0, rep.found, sizeof(rep.found),
                                                         &rep.err);
                        break;
                case OP_OBJECTS:
                        rep.r = sbx_caller_self.objects(&sbx_caller_self, rq.path, rq.expect.ctime_ns, (size_t)rq.flags, rep.found,
                                                          sizeof(rep.found), &rep.err);
                        break;
                case OP_REALPATH:
                        rep.r = sbx_caller_self.realpath(&sbx_caller_self, rq.path, rep.found, sizeof(rep.found), &rep.err);
                        break;
                default:
                        rep.r = sbx_error_set(&rep.err, SBX_STAGE_VALIDATE, EINVAL, "", "", "unknown request to the caller's helper");
                }
                closep(&in);
                if (send_msg(sock, &rep, sizeof(rep), rep.r >= 0 ? out : -1) < 0)
                        break;
                closep(&out);
        }
}

_Noreturn static void helper(int sock, pid_t launcher, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups)
{
        /* Die with the launcher; keep only the request socket. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != launcher)
                _exit(1);
        if (sock != 3 && (dup2(sock, 3) < 0 || close(sock) < 0))
                _exit(1);
        if (syscall(SYS_close_range, 4, ~0u, 0) < 0 || chdir("/") < 0)
                _exit(1);
        prctl(PR_SET_NAME, "sbx-asuser", 0, 0, 0);
        if (become(uid, gid, groups, n_groups) < 0)
                _exit(1);
        /* The uid change cleared the death signal: arm it again, and check that the
         * launcher did not die in between. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != launcher)
                _exit(1);
        serve(3);
        _exit(0);
}

/* ---- the launcher's side ---------------------------------------------------------- */

static int ask(struct sbx_caller *c, struct request *rq, int fd_in, int *fd_out, char *found, size_t size,
               struct sbx_error *e)
{
        struct asuser *a = c->data;
        static struct reply rep;
        int fd = -1;

        if (send_msg(a->sock, rq, sizeof(*rq), fd_in) < 0 || recv_msg(a->sock, &rep, sizeof(rep), &fd) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EPIPE, "", rq->path, "the helper that acts as the caller is gone");
        /* The helper is the caller's process: every string it sends is terminated here
         * before anything prints it. */
        rep.err.msg[sizeof(rep.err.msg) - 1] = '\0';
        rep.err.syscall[sizeof(rep.err.syscall) - 1] = '\0';
        rep.err.path[sizeof(rep.err.path) - 1] = '\0';
        rep.err.hint[sizeof(rep.err.hint) - 1] = '\0';
        if (rep.r < 0) {
                closep(&fd);
                *e = rep.err;
                return rep.r;
        }
        if (fd_out)
                *fd_out = fd;
        else
                closep(&fd);
        if (found) {
                rep.found[sizeof(rep.found) - 1] = '\0';
                snprintf(found, size, "%s", rep.found);
        }
        return rep.r;
}

static int fill_path(struct request *rq, const char *path, const char *name, struct sbx_error *e)
{
        if (snprintf(rq->path, sizeof(rq->path), "%s", path) >= (int)sizeof(rq->path) ||
            snprintf(rq->name, sizeof(rq->name), "%s", name ? name : "") >= (int)sizeof(rq->name))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", path, "path too long");
        return 0;
}

static int as_open(struct sbx_caller *c, const char *path, int flags, enum sbx_access access, int *ret_fd, struct sbx_error *e)
{
        static struct request rq;
        int r;

        *ret_fd = -1;
        rq = (struct request){ .op = OP_OPEN, .flags = flags, .access = access };
        if ((r = fill_path(&rq, path, NULL, e)) < 0)
                return r;
        if ((r = ask(c, &rq, -1, ret_fd, NULL, 0, e)) >= 0 && *ret_fd < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EPROTO, "", path, "the caller's helper sent no fd");
        return r;
}

static int as_dirop(struct sbx_caller *c, int op, const char *dir, const char *name, int fd, const struct sbx_file_id *expect,
                    int flags, struct sbx_error *e)
{
        static struct request rq;
        int r;

        rq = (struct request){ .op = op, .flags = flags };
        if (expect)
                rq.expect = *expect;
        if ((r = fill_path(&rq, dir, name, e)) < 0)
                return r;
        return ask(c, &rq, fd, NULL, NULL, 0, e);
}

static int as_mkdir(struct sbx_caller *c, const char *dir, const char *name, mode_t mode, struct sbx_error *e)
{
        return as_dirop(c, OP_MKDIR, dir, name, -1, NULL, (int)mode, e);
}

static int as_hold(struct sbx_caller *c, const char *dir, const char *name, int *ret_fd, struct sbx_error *e)
{
        static struct request rq;
        int r;

        *ret_fd = -1;
        rq = (struct request){ .op = OP_HOLD };
        if ((r = fill_path(&rq, dir, name, e)) < 0)
                return r;
        if ((r = ask(c, &rq, -1, ret_fd, NULL, 0, e)) >= 0 && *ret_fd < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EPROTO, "", dir, "the caller's helper sent no fd");
        return r;
}

static int as_release(struct sbx_caller *c, const char *dir, const char *name, int fd, bool made, struct sbx_error *e)
{
        return as_dirop(c, OP_RELEASE, dir, name, fd, NULL, made, e);
}

static int as_replace(struct sbx_caller *c, const char *dir, const char *name, int src, const struct sbx_file_id *expect,
                      struct sbx_error *e)
{
        return as_dirop(c, OP_REPLACE, dir, name, src, expect, 0, e);
}

static int as_strays(struct sbx_caller *c, const char *dir, bool remove, char *found, size_t size, struct sbx_error *e)
{
        static struct request rq;
        int r;

        rq = (struct request){ .op = OP_STRAYS, .flags = remove };
        if ((r = fill_path(&rq, dir, NULL, e)) < 0)
                return r;
        return ask(c, &rq, -1, NULL, found, size, e);
}

static int as_realpath(struct sbx_caller *c, const char *path, char *buf, size_t size, struct sbx_error *e)
{
        static struct request rq;
        int r;

        rq = (struct request){ .op = OP_REALPATH };
        if ((r = fill_path(&rq, path, NULL, e)) < 0)
                return r;
        return ask(c, &rq, -1, NULL, buf, size, e);
}

static int as_objects(struct sbx_caller *c, const char *dir, int64_t since_ns, size_t hash_len, char *found, size_t size,
                      struct sbx_error *e)
{
        static struct request rq;
        int r;

        rq = (struct request){ .op = OP_OBJECTS, .flags = (int)hash_len, .expect.ctime_ns = since_ns };
        if ((r = fill_path(&rq, dir, NULL, e)) < 0)
                return r;
        return ask(c, &rq, -1, NULL, found, size, e);
}

static struct asuser the_helper = { .sock = -1, .pid = -1 };

int asuser_start(uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups, struct sbx_caller *ret, struct sbx_error *e)
{
        int sv[2];
        pid_t launcher = getpid(), pid;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "socketpair", "", "cannot start the caller's helper");
        pid = fork();
        if (pid < 0) {
                close(sv[0]);
                close(sv[1]);
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fork", "", "cannot start the caller's helper");
        }
        if (pid == 0) {
                close(sv[0]);
                helper(sv[1], launcher, uid, gid, groups, n_groups);
        }
        close(sv[1]);
        the_helper = (struct asuser){ .sock = sv[0], .pid = pid };
        *ret = (struct sbx_caller){ .open = as_open, .mkdir = as_mkdir, .hold = as_hold, .release = as_release,
                                    .replace = as_replace, .strays = as_strays,
                                    .realpath = as_realpath, .objects = as_objects, .data = &the_helper };
        return 0;
}

void asuser_stop(struct sbx_caller *c)
{
        struct asuser *a = c->data;

        if (c->open != as_open || !a || a->pid < 0)
                return; /* sbx_caller_self: nothing was started */
        closep(&a->sock); /* the helper's recv ends, and so does it */
        (void)waitpid(a->pid, NULL, 0);
        a->pid = -1;
}
