/* SPDX-License-Identifier: MIT */
/* Who is calling: the credentials the kernel recorded (SO_PEERCRED, SO_PEERGROUPS, or
 * the bus driver's), and, pinned by pidfd, the calling process itself: its umask and
 * whether it runs inside an sbx jail. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>

#include "../lib/plan.h"

/* Peer to peer: what the kernel recorded about the connecting process. */
struct peer_creds {
        bool valid;
        uid_t uid;
        gid_t gid;
        pid_t pid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        bool too_many_groups;
};

struct caller {
        uid_t uid;
        gid_t gid;
        pid_t pid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        mode_t umask;  /* the calling process's (022 unless @process was asked for) */
        bool in_jail;  /* the calling process runs inside an sbx jail */
};

/* Peer to peer, at accept: SO_PEERCRED and SO_PEERGROUPS of @fd.  0 or -errno. */
int caller_read_peer(int fd, struct peer_creds *pc);
/* The caller of @m: peer to peer (@pc recorded at accept on socket @sock) its uid, gid
 * and groups from the kernel; on the system bus (@pc NULL) from the bus driver.  With
 * @process, the calling process itself is pinned and read: its credentials must
 * still be those it connected with, and they give the gid (which the bus does not
 * know), the umask and in_jail.  0, or a negative errno with @err set (AccessDenied). */
int caller_get(sd_bus_message *m, const struct peer_creds *pc, int sock, bool process, struct caller *who,
               sd_bus_error *err);
