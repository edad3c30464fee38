/* SPDX-License-Identifier: MIT */
/* The connect broker (broker.h).  Runs in the jail's PID 1: after pivot_root, in the
 * jail's namespaces, uid as the command's, no capability, scoped by Landlock like the
 * command; outside the command's seccomp filter.  Every answer is one of: the connect
 * PID 1 made on the command's behalf (its result, or in progress), or an errno. */
#include "broker.h"

#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

/* Room for the kernel's notification and reply, whatever their sizes grow to. */
union notif_buf {
        struct seccomp_notif n;
        char bytes[512];
};
union resp_buf {
        struct seccomp_notif_resp r;
        char bytes[256];
};

bool sbx_broker_usable(const struct sbx_plan *p)
{
        char buf[8] = "";
        _cleanup_close_ int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);

        if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 && buf[0] >= '2')
                return false;
        return !p->no_proc && !p->caps;
}

void sbx_broker_init(struct sbx_broker *b, const struct sbx_plan *p, const dev_t *private, size_t n_private)
{
        struct seccomp_notif_sizes sizes = { 0 };

        *b = (struct sbx_broker){ .notif_fd = -1, .own_netns = sbx_plan_own_netns(p) };
        for (size_t i = 0; i < SBX_BROKER_PENDING; i++)
                b->pending[i].sock = -1;
        if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0) {
                b->notif_size = sizes.seccomp_notif;
                b->resp_size = sizes.seccomp_notif_resp;
        }
        /* The jail's own file systems: no host process can make a socket there.  As the
         * mount stage made them: by the path, a bind over one would count. */
        for (size_t i = 0; i < n_private && b->n_private < ELEMENTSOF(b->private_devs); i++)
                b->private_devs[b->n_private++] = private[i];
}

static void reply(struct sbx_broker *b, unsigned long long id, int err)
{
        union resp_buf resp;

        memset(&resp, 0, sizeof(resp));
        resp.r.id = id;
        resp.r.error = err ? -err : 0;
        (void)b;
        (void)ioctl(b->notif_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp.r);
}

/* ---- is the socket the jail's own? ------------------------------------------------ */

struct diag_find {
        dev_t dev;
        ino_t ino;
        bool found;
};

static int diag_attr(const struct nlattr *a, void *data)
{
        const struct nlattr **tb = data;

        if (mnl_attr_get_type(a) == UNIX_DIAG_VFS && mnl_attr_get_payload_len(a) >= sizeof(struct unix_diag_vfs))
                tb[UNIX_DIAG_VFS] = a;
        return MNL_CB_OK;
}

static int diag_msg(const struct nlmsghdr *nlh, void *data)
{
        const struct nlattr *tb[UNIX_DIAG_MAX + 1] = { 0 };
        struct diag_find *f = data;
        const struct unix_diag_vfs *v;

        if (mnl_attr_parse(nlh, sizeof(struct unix_diag_msg), diag_attr, tb) < 0 || !tb[UNIX_DIAG_VFS])
                return MNL_CB_OK;
        v = mnl_attr_get_payload(tb[UNIX_DIAG_VFS]);
        /* The kernel's own dev_t: 12 bits of major above 20 of minor. */
        if (v->udiag_vfs_ino == (uint32_t)f->ino && major(f->dev) == v->udiag_vfs_dev >> 20 &&
            minor(f->dev) == (v->udiag_vfs_dev & 0xfffff))
                f->found = true;
        return MNL_CB_OK;
}

/* A unix socket bound at the inode (@dev, @ino) in this network namespace: the jail's
 * own, when the namespace is.  (The inode number the kernel reports is 32 bits.) */
static bool bound_here(dev_t dev, ino_t ino)
{
        struct mnl_socket *nl = mnl_socket_open2(NETLINK_SOCK_DIAG, SOCK_CLOEXEC);
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct diag_find f = { .dev = dev, .ino = ino };
        struct nlmsghdr *nlh;
        struct unix_diag_req *rq;
        unsigned seq = (unsigned)time(NULL), portid;
        ssize_t n;
        int r = MNL_CB_OK;

        if (!nl)
                return false;
        if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
                mnl_socket_close(nl);
                return false;
        }
        portid = mnl_socket_get_portid(nl);
        nlh = mnl_nlmsg_put_header(buf);
        nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
        nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
        nlh->nlmsg_seq = seq;
        rq = mnl_nlmsg_put_extra_header(nlh, sizeof(*rq));
        rq->sdiag_family = AF_UNIX;
        rq->udiag_states = ~0u;
        rq->udiag_show = UDIAG_SHOW_VFS;
        if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
                mnl_socket_close(nl);
                return false;
        }
        while (r > MNL_CB_STOP && (n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0)
                r = mnl_cb_run(buf, (size_t)n, seq, portid, diag_msg, &f);
        mnl_socket_close(nl);
        return f.found;
}

static bool jails_own(const struct sbx_broker *b, const struct stat *st)
{
        for (size_t i = 0; i < b->n_private; i++)
                if (st->st_dev == b->private_devs[i])
                        return true;
        /* With the host's network, its sockets are in this namespace too. */
        return b->own_netns && bound_here(st->st_dev, st->st_ino);
}

/* ---- one connect ------------------------------------------------------------------- */

/* The command's path, opened in the jail's view as connect() would follow it: from
 * its working directory when relative. */
static int open_path(pid_t pid, const struct sockaddr_un *sun, socklen_t len, int *ret_fd)
{
        char path[sizeof(sun->sun_path) + 1], cwd[64];
        size_t n = len - offsetof(struct sockaddr_un, sun_path);
        _cleanup_close_ int dir = -1;

        /* As the kernel: no address longer than a sockaddr_un. */
        if (len > sizeof(*sun))
                return -EINVAL;
        memcpy(path, sun->sun_path, n);
        path[n] = '\0';
        /* /proc/self in PID 1 is PID 1, not the command: no socket is reached there. */
        if (strncmp(path, "/proc", 5) == 0 && (path[5] == '/' || path[5] == '\0'))
                return -EACCES;
        if (path[0] != '/') {
                snprintf(cwd, sizeof(cwd), "/proc/%d/cwd", (int)pid);
                if ((dir = open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
                        return -errno;
        }
        *ret_fd = openat(dir >= 0 ? dir : AT_FDCWD, path, O_PATH | O_CLOEXEC);
        return *ret_fd < 0 ? -errno : 0;
}

/* connect() on our duplicate, never blocking PID 1: a blocking socket is made
 * non-blocking for the call and the wait goes to the poll loop.  1: in progress. */
static int do_connect(int sock, const struct sockaddr *sa, socklen_t len, int *flags)
{
        int r;

        *flags = fcntl(sock, F_GETFL);
        if (*flags < 0)
                return -errno;
        if (!(*flags & O_NONBLOCK) && fcntl(sock, F_SETFL, *flags | O_NONBLOCK) < 0)
                return -errno;
        r = connect(sock, sa, len) < 0 ? -errno : 0;
        if (!(*flags & O_NONBLOCK))
                (void)fcntl(sock, F_SETFL, *flags);
        /* (A unix socket with a full backlog answers EAGAIN, where a blocking connect
         * would have waited: the command sees EAGAIN.) */
        return r == -EINPROGRESS && !(*flags & O_NONBLOCK) ? 1 : r;
}

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* A pidfd for the thread that called connect(): the notification names the thread,
 * and any thread of a program may connect (glibc's resolver in curl's, Node's and
 * Python's worker threads).  PIDFD_THREAD (Linux 6.9) takes a thread id; before it,
 * pidfd_open takes only a thread group's leader, which /proc names. */
static int thread_pidfd(pid_t tid)
{
        char path[64], line[128];
        int fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
        pid_t tgid = 0;
        FILE *f;

        if (fd >= 0 || errno != EINVAL)
                return fd;
        snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
        if (!(f = fopen(path, "re")))
                return (int)syscall(SYS_pidfd_open, tid, 0);
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Tgid: %d", &tgid) == 1)
                        break;
        fclose(f);
        return (int)syscall(SYS_pidfd_open, tgid > 0 ? tgid : tid, 0);
}

/* 0 or -errno for the reply now; 1 with *ret_sock to keep (in progress). */
static int broker_connect(struct sbx_broker *b, const struct seccomp_notif *n, int *ret_sock, int *flags)
{
        struct sockaddr_storage ss;
        socklen_t len = (socklen_t)n->data.args[2];
        struct iovec local = { .iov_base = &ss, .iov_len = len }, remote = { .iov_base = (void *)(uintptr_t)n->data.args[1], .iov_len = len };
        _cleanup_close_ int pidfd = -1, sock = -1, target = -1;
        int domain = 0, r;
        socklen_t dl = sizeof(domain);

        if (len > sizeof(ss))
                return -EINVAL;
        if ((pidfd = thread_pidfd((pid_t)n->pid)) < 0)
                return -ESRCH;
        if ((sock = (int)syscall(SYS_pidfd_getfd, pidfd, (int)n->data.args[0], 0)) < 0)
                return errno == EBADF ? -EBADF : -EPERM;
        if (len && process_vm_readv((pid_t)n->pid, &local, 1, &remote, 1, 0) != (ssize_t)len)
                return -EFAULT;
        /* Still the same call: the pid and the fd were the command's. */
        if (ioctl(b->notif_fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &n->id) < 0)
                return -ESRCH;
        if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &dl) < 0)
                return -ENOTSOCK;
        if (domain == AF_UNIX && len > offsetof(struct sockaddr_un, sun_path) && ss.ss_family == AF_UNIX &&
            ((struct sockaddr_un *)&ss)->sun_path[0] != '\0') {
                struct sockaddr_un via = { .sun_family = AF_UNIX };
                struct stat st;

                if ((r = open_path((pid_t)n->pid, (struct sockaddr_un *)&ss, len, &target)) < 0)
                        return r;
                if (fstat(target, &st) < 0 || !S_ISSOCK(st.st_mode))
                        return -ECONNREFUSED;
                if (!jails_own(b, &st))
                        return -EACCES;
                /* Exactly the inode checked, whatever happens to the path meanwhile. */
                snprintf(via.sun_path, sizeof(via.sun_path), "/proc/self/fd/%d", target);
                r = do_connect(sock, (struct sockaddr *)&via, (socklen_t)sizeof(via), flags);
        } else {
                r = do_connect(sock, (struct sockaddr *)&ss, len, flags);
        }
        if (r > 0)
                *ret_sock = TAKE_FD(sock);
        return r;
}

void sbx_broker_handle(struct sbx_broker *b)
{
        union notif_buf buf;
        struct seccomp_notif *n = &buf.n;
        int sock = -1, flags = 0, r;

        memset(&buf, 0, sizeof(buf));
        if (b->notif_size > sizeof(buf) || ioctl(b->notif_fd, SECCOMP_IOCTL_NOTIF_RECV, n) < 0)
                return; /* the caller gone, or a kernel bigger than we know: it fails closed */
        if (n->data.nr != SYS_connect) {
                reply(b, n->id, ENOSYS);
                return;
        }
        r = broker_connect(b, n, &sock, &flags);
        if (r <= 0) {
                reply(b, n->id, -r);
                return;
        }
        for (size_t i = 0; i < SBX_BROKER_PENDING; i++)
                if (b->pending[i].sock < 0) {
                        b->pending[i] = (struct sbx_broker_pending){ .sock = sock, .id = n->id, .flags = flags };
                        return;
                }
        close(sock);
        reply(b, n->id, EAGAIN);
}

void sbx_broker_complete(struct sbx_broker *b, size_t slot)
{
        struct sbx_broker_pending *p = &b->pending[slot];
        int err = 0;
        socklen_t len = sizeof(err);

        if (getsockopt(p->sock, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
                err = errno;
        reply(b, p->id, err);
        closep(&p->sock);
}
