/* SPDX-License-Identifier: MIT */
/* The launcher <-> jail socket (SOCK_SEQPACKET, one message per send): the jail sends
 * an error, what it had to weaken, or the command's wait status home. */
#pragma once

#include "error.h"

enum sbx_msg_type {
        SBX_MSG_ERROR = 1,    /* setup or exec failed: err */
        SBX_MSG_WEAKENED = 2, /* a hardening step applied in part: text */
        SBX_MSG_EXIT = 3,     /* the command ended: wstatus */
        SBX_MSG_STATE_FD = 4, /* the mount fd of the plan's SBX_MOUNT_STATE number wstatus */
        SBX_MSG_APPLIED = 5,  /* hardening steps done: applied (enum sbx_applied bits) */
        SBX_MSG_USERNS = 6,   /* lib/identity.c's user namespace, as the fd alongside */
        SBX_MSG_NET_FD = 7,   /* an egress broker listener, the fd alongside: wstatus its
                               * role, applied its port (lib/egress.h) */
        SBX_MSG_MAPPED = 8,   /* launcher -> jail: its id maps are written (lib/jail.c) */
};

struct sbx_msg {
        int type;
        int wstatus;
        unsigned applied;
        char text[128];
        struct sbx_error err;
};

/* Child side: send and forget (the parent may be gone; nothing to do then). */
void sbx_sync_send(int fd, const struct sbx_msg *m);
/* Child side: @m with the fd @fd alongside (SCM_RIGHTS). */
void sbx_sync_send_fd(int sock, const struct sbx_msg *m, int fd);
/* Parent side: one message, and the fd that came with it (-1 if none); -errno when
 * there is no whole message. */
int sbx_sync_recv(int sock, struct sbx_msg *m, int *fd);
/* Child side: report @e and _exit(). */
_Noreturn void sbx_sync_fail(int fd, const struct sbx_error *e);
