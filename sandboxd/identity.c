/* SPDX-License-Identifier: MIT */
/* Who is calling: the uid, gid and supplementary groups the kernel gives the calling
 * process, never the user database and never a field of the request.
 *
 * Peer to peer, the socket says: SO_PEERCRED and SO_PEERGROUPS, taken at accept (the
 * credentials of the process that connected, as they were then).  On the system bus,
 * the bus says: GetConnectionCredentials gives the uid and the groups the bus driver
 * took from its own socket (dbus 1.12 on, SO_PEERGROUPS: the gid it saw first, then
 * the supplementary groups, which the reply does not tell apart), so the gid must
 * come from the process itself.
 *
 * For Run, the caller's process is also pinned with a pidfd (SO_PEERPIDFD, the bus's
 * ProcessFD, else pidfd_open of the pid the bus reports) and read in
 * /proc/PID/status: its effective uid, gid and groups must be the ones it connected
 * with, or it is refused; the gid, the umask and "is it inside a jail" come from it.
 * Everything read from /proc is confirmed by the pidfd still naming a live (or not
 * yet reaped) process afterwards: a pid freed and reused meanwhile fails that.  Where
 * the pidfd comes from pidfd_open (no ProcessFD), the pid could have been reused
 * between the bus's answer and the open; the process found then must still have the
 * uid and the groups the bus recorded, so at worst it is another process of the same
 * user with the same groups, which the caller could have used itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "identity.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

static int gid_cmp(const void *a, const void *b)
{
        gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

        return x < y ? -1 : x > y;
}

/* Sorted, without duplicates; returns the new count. */
static size_t normalize(gid_t *g, size_t n)
{
        size_t out = 0;

        qsort(g, n, sizeof(gid_t), gid_cmp);
        for (size_t i = 0; i < n; i++)
                if (out == 0 || g[out - 1] != g[i])
                        g[out++] = g[i];
        return out;
}

/* The same set of groups, whatever the order and repetitions; @extra, when not -1,
 * belongs to the first set too. */
static bool same_groups(const gid_t *a, size_t na, gid_t extra, const gid_t *b, size_t nb)
{
        gid_t x[SBX_MAX_GROUPS + 1], y[SBX_MAX_GROUPS];

        if (na > SBX_MAX_GROUPS || nb > SBX_MAX_GROUPS)
                return false;
        memcpy(x, a, na * sizeof(gid_t));
        if (extra != (gid_t)-1)
                x[na++] = extra;
        memcpy(y, b, nb * sizeof(gid_t));
        na = normalize(x, na);
        nb = normalize(y, nb);
        return na == nb && memcmp(x, y, na * sizeof(gid_t)) == 0;
}

int caller_read_peer(int fd, struct peer_creds *pc)
{
        struct ucred uc;
        socklen_t len = sizeof(uc);
        gid_t groups[SBX_MAX_GROUPS];
        socklen_t glen = sizeof(groups);

        *pc = (struct peer_creds){ .uid = (uid_t)-1 };
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
                return -errno;
        pc->uid = uc.uid;
        pc->gid = uc.gid;
        pc->pid = uc.pid;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &glen) < 0) {
                /* ERANGE: more groups than we take; the caller is refused at its
                 * first call, with a reason, rather than cut off here. */
                if (errno != ERANGE)
                        return -errno;
                pc->too_many_groups = true;
        } else {
                pc->n_groups = glen / sizeof(gid_t);
                memcpy(pc->groups, groups, glen);
        }
        pc->valid = true;
        return 0;
}

/* ---- the process, pinned ---------------------------------------------------------- */

struct proc_status {
        uid_t euid;
        gid_t egid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        bool too_many_groups;
        mode_t umask;
};

static int parse_groups(const char *s, struct proc_status *st)
{
        char *end;

        for (;;) {
                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '\0' || *s == '\n')
                        return 0;
                unsigned long g = strtoul(s, &end, 10);
                if (end == s)
                        return -EPROTO;
                if (st->n_groups >= SBX_MAX_GROUPS) {
                        st->too_many_groups = true;
                        return 0;
                }
                st->groups[st->n_groups++] = (gid_t)g;
                s = end;
        }
}

static int read_status(pid_t pid, struct proc_status *st)
{
        _cleanup_(fclosep) FILE *f = NULL;
        _cleanup_free_ char *line = NULL;
        size_t size = 0;
        unsigned ids[4], mask = 022;
        char path[64];
        int seen = 0;

        *st = (struct proc_status){ .umask = 022 };
        snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
        if (!(f = fopen(path, "re")))
                return -errno;
        /* Groups may be a long line (NGROUPS_MAX is 65536). */
        while (getline(&line, &size, f) > 0) {
                if (sscanf(line, "Uid: %u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) == 4) {
                        st->euid = ids[1];
                        seen |= 1;
                } else if (sscanf(line, "Gid: %u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) == 4) {
                        st->egid = ids[1];
                        seen |= 2;
                } else if (strncmp(line, "Groups:", 7) == 0) {
                        if (parse_groups(line + 7, st) < 0)
                                return -EPROTO;
                        seen |= 4;
                } else if (sscanf(line, "Umask: %o", &mask) == 1) {
                        st->umask = (mode_t)(mask & 0777);
                }
        }
        return seen == 7 ? 0 : -EPROTO;
}

static bool alive(int pidfd)
{
        return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0;
}

/* A caller inside one of sbx's jails gets nothing: a jail must not ask for a looser
 * jail.  The socket is hidden from jails; this covers a hard link to it carried in by
 * a bind, or a jail of sbx-run's own.  In a jail means: an sbx-* cgroup, or an
 * ancestor (every process of a jail descends from its launcher) named sbx-launcher
 * or sbx-run. */
static bool sbx_ancestor(pid_t pid)
{
        char path[64], line[256], name[64] = "";
        int ppid = 0;

        for (int depth = 0; pid > 1 && depth < 4096; depth++, pid = (pid_t)ppid) {
                FILE *f;

                snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
                if (!(f = fopen(path, "re")))
                        return false;
                ppid = 0;
                while (fgets(line, sizeof(line), f))
                        if (sscanf(line, "Name: %63s", name) != 1)
                                (void)sscanf(line, "PPid: %d", &ppid);
                fclose(f);
                if (depth > 0 && (strcmp(name, "sbx-launcher") == 0 || strcmp(name, "sbx-run") == 0))
                        return true;
        }
        return false;
}

static bool sbx_cgroup(pid_t pid)
{
        char path[64], line[4096];
        bool in = false;
        FILE *f;

        snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
        if (!(f = fopen(path, "re")))
                return false;
        while (!in && fgets(line, sizeof(line), f))
                in = strstr(line, "/sbx-") != NULL;
        fclose(f);
        return in;
}

/* What the socket or the bus recorded, to hold the process to. */
struct recorded {
        uid_t uid;
        gid_t gid;            /* -1: not recorded (the bus) */
        const gid_t *groups;  /* NULL: not recorded */
        size_t n_groups;
        bool groups_with_gid; /* dbus's UnixGroupIDs: the gid it saw, then the supplementary ones */
};

/* Reads the pinned process and checks it against @rec.  Fills @who's uid, gid,
 * groups, umask and in_jail; -EPERM with @why when it cannot be read or disagrees. */
static int check_process(int pidfd, pid_t pid, const struct recorded *rec, struct caller *who, char *why, size_t size)
{
        struct proc_status st;
        bool in_jail;

        if (read_status(pid, &st) < 0) {
                snprintf(why, size, "cannot read the calling process %d; refusing", (int)pid);
                return -EPERM;
        }
        in_jail = sbx_cgroup(pid) || sbx_ancestor(pid);
        /* Everything above was read from the process the pidfd names, if it still
         * lives: a pid reused meanwhile names another one. */
        if (!alive(pidfd)) {
                snprintf(why, size, "the calling process %d is gone; refusing", (int)pid);
                return -EPERM;
        }
        if (st.euid != rec->uid || (rec->gid != (gid_t)-1 && st.egid != rec->gid) ||
            (rec->groups && (st.too_many_groups || !same_groups(st.groups, st.n_groups, rec->groups_with_gid ? st.egid : (gid_t)-1,
                                                                rec->groups, rec->n_groups)))) {
                snprintf(why, size, "the calling process %d no longer has the uid, gid or groups it connected with; refusing",
                         (int)pid);
                return -EPERM;
        }
        if (st.too_many_groups) {
                snprintf(why, size, "the caller is in more than %d groups, which sandboxd does not handle", SBX_MAX_GROUPS);
                return -EPERM;
        }
        who->uid = st.euid;
        who->gid = st.egid;
        memcpy(who->groups, st.groups, st.n_groups * sizeof(gid_t));
        who->n_groups = st.n_groups;
        who->umask = st.umask;
        who->in_jail = in_jail;
        return 0;
}

/* ---- peer to peer ---------------------------------------------------------------- */

static int peer_pidfd(const struct peer_creds *pc, int sock)
{
        socklen_t len = sizeof(int);
        int pidfd = -1;

        if (getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) == 0)
                return pidfd;
        if (errno != ENOPROTOOPT)
                return -errno;
        /* Before Linux 6.5: the pid SO_PEERCRED recorded, which the checks of its
         * credentials then confirm. */
        pidfd = (int)syscall(SYS_pidfd_open, pc->pid, 0);
        return pidfd < 0 ? -errno : pidfd;
}

static int from_socket(const struct peer_creds *pc, int sock, bool process, struct caller *who, sd_bus_error *err)
{
        _cleanup_close_ int pidfd = -1;
        char why[256];

        if (!pc->valid)
                return sd_bus_error_set(err, SD_BUS_ERROR_ACCESS_DENIED, "cannot tell who is calling; refusing");
        if (pc->too_many_groups)
                return sd_bus_error_setf(err, SD_BUS_ERROR_ACCESS_DENIED, "the caller is in more than %d groups, which sandboxd does not handle",
                                         SBX_MAX_GROUPS);
        *who = (struct caller){ .uid = pc->uid, .gid = pc->gid, .pid = pc->pid, .n_groups = pc->n_groups, .umask = 022 };
        memcpy(who->groups, pc->groups, pc->n_groups * sizeof(gid_t));
        if (!process)
                return 0;
        if ((pidfd = peer_pidfd(pc, sock)) < 0)
                return sd_bus_error_setf(err, SD_BUS_ERROR_ACCESS_DENIED, "cannot pin the calling process %d (%s); refusing",
                                         (int)pc->pid, strerror(-pidfd));
        struct recorded rec = { .uid = pc->uid, .gid = pc->gid, .groups = pc->groups, .n_groups = pc->n_groups };
        if (check_process(pidfd, pc->pid, &rec, who, why, sizeof(why)) < 0)
                return sd_bus_error_set(err, SD_BUS_ERROR_ACCESS_DENIED, why);
        return 0;
}

/* ---- the system bus ---------------------------------------------------------------- */

struct bus_creds {
        bool have_uid, have_pid, have_groups;
        uid_t uid;
        pid_t pid;
        int pidfd;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        bool too_many_groups;
};

static int read_bus_groups(sd_bus_message *reply, struct bus_creds *bc)
{
        uint32_t g;
        int r;

        if ((r = sd_bus_message_enter_container(reply, 'v', "au")) < 0 || (r = sd_bus_message_enter_container(reply, 'a', "u")) < 0)
                return r;
        while ((r = sd_bus_message_read(reply, "u", &g)) > 0) {
                if (bc->n_groups >= SBX_MAX_GROUPS)
                        bc->too_many_groups = true;
                else
                        bc->groups[bc->n_groups++] = g;
        }
        if (r < 0 || (r = sd_bus_message_exit_container(reply)) < 0)
                return r;
        bc->have_groups = true;
        return sd_bus_message_exit_container(reply);
}

static int read_bus_entry(sd_bus_message *reply, struct bus_creds *bc)
{
        const char *key, *contents;
        uint32_t u;
        int fd, r;

        if ((r = sd_bus_message_read(reply, "s", &key)) < 0 || (r = sd_bus_message_peek_type(reply, NULL, &contents)) < 0)
                return r;
        if (strcmp(key, "UnixUserID") == 0 && strcmp(contents, "u") == 0) {
                if ((r = sd_bus_message_read(reply, "v", "u", &u)) < 0)
                        return r;
                bc->uid = u;
                bc->have_uid = true;
        } else if (strcmp(key, "ProcessID") == 0 && strcmp(contents, "u") == 0) {
                if ((r = sd_bus_message_read(reply, "v", "u", &u)) < 0)
                        return r;
                bc->pid = (pid_t)u;
                bc->have_pid = u > 0;
        } else if (strcmp(key, "UnixGroupIDs") == 0 && strcmp(contents, "au") == 0) {
                return read_bus_groups(reply, bc);
        } else if (strcmp(key, "ProcessFD") == 0 && strcmp(contents, "h") == 0) {
                /* dbus 1.15.8 on: the process pinned by the bus itself. */
                if ((r = sd_bus_message_read(reply, "v", "h", &fd)) < 0)
                        return r;
                closep(&bc->pidfd);
                bc->pidfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        } else {
                return sd_bus_message_skip(reply, "v");
        }
        return 0;
}

/* The bus driver's record of @sender. */
static int bus_creds(sd_bus_message *m, struct bus_creds *bc)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        const char *sender = sd_bus_message_get_sender(m);
        int r;

        *bc = (struct bus_creds){ .pidfd = -1 };
        if (!sender)
                return -ENXIO;
        if ((r = sd_bus_call_method(sd_bus_message_get_bus(m), "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                    "org.freedesktop.DBus", "GetConnectionCredentials", NULL, &reply, "s", sender)) < 0 ||
            (r = sd_bus_message_enter_container(reply, 'a', "{sv}")) < 0)
                return r;
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                if ((r = read_bus_entry(reply, bc)) < 0 || (r = sd_bus_message_exit_container(reply)) < 0)
                        break;
        }
        if (r < 0) {
                closep(&bc->pidfd);
                return r;
        }
        return bc->have_uid ? 0 : -ENODATA;
}

static int from_bus(sd_bus_message *m, bool process, struct caller *who, sd_bus_error *err)
{
        struct bus_creds bc;
        _cleanup_close_ int pidfd = -1;
        char why[256];
        int r;

        if ((r = bus_creds(m, &bc)) < 0)
                return sd_bus_error_setf(err, SD_BUS_ERROR_ACCESS_DENIED, "cannot tell who is calling (the bus: %s); refusing",
                                         strerror(-r));
        pidfd = bc.pidfd;
        *who = (struct caller){ .uid = bc.uid, .gid = (gid_t)-1, .pid = bc.have_pid ? bc.pid : 0, .umask = 022 };
        if (!process)
                return 0;
        /* The bus does not know the gid: the process must be read. */
        if (!bc.have_pid)
                return sd_bus_error_set(err, SD_BUS_ERROR_ACCESS_DENIED, "the bus does not say which process is calling; refusing");
        if (bc.too_many_groups)
                return sd_bus_error_setf(err, SD_BUS_ERROR_ACCESS_DENIED, "the caller is in more than %d groups, which sandboxd does not handle",
                                         SBX_MAX_GROUPS);
        if (pidfd < 0 && (pidfd = (int)syscall(SYS_pidfd_open, bc.pid, 0)) < 0)
                return sd_bus_error_setf(err, SD_BUS_ERROR_ACCESS_DENIED, "cannot pin the calling process %d (%s); refusing",
                                         (int)bc.pid, strerror(errno));
        struct recorded rec = { .uid = bc.uid, .gid = (gid_t)-1, .groups = bc.have_groups ? bc.groups : NULL,
                                .n_groups = bc.n_groups, .groups_with_gid = true };
        if (check_process(pidfd, bc.pid, &rec, who, why, sizeof(why)) < 0)
                return sd_bus_error_set(err, SD_BUS_ERROR_ACCESS_DENIED, why);
        return 0;
}

int caller_get(sd_bus_message *m, const struct peer_creds *pc, int sock, bool process, struct caller *who,
               sd_bus_error *err)
{
        return pc ? from_socket(pc, sock, process, who, err) : from_bus(m, process, who, err);
}
