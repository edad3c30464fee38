/* SPDX-License-Identifier: MIT */
/* The launcher: one process per sandbox, forked by sandboxd, that checks the request
 * as the caller, builds the jail and accounts for it; its reports come back into
 * supervision as events (sandbox.h). */
#pragma once

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <systemd/sd-event.h>

#include "../lib/error.h"
#include "../policy/site.h"
#include "config.h"
#include "request.h"
#include "sandbox.h"

struct launch {
        struct sbx_request *rq;
        const struct sbx_config *config;
        const struct sbx_site_grant *grant;
        uid_t uid;
        gid_t gid;
        const gid_t *groups;
        size_t n_groups;
        int workspace_fd, stdio[3];
        const char (*hide)[108]; /* sandboxd's sockets, masked wherever a bind carries them */
        size_t n_hide;
        mode_t umask; /* the caller's */
        rlim_t nofile; /* RLIMIT_NOFILE's soft limit for the jail (sandboxd raised its own) */
        const char *id; /* the sandbox's, which the egress broker's records carry */
        int audit_fd;   /* sandboxd's audit file (-1: none): the broker's records go there too */
};

/* Forks the launcher for @sb and watches it on @event.  0, or -errno with @e filled. */
int launch_start(struct sandbox *sb, sd_event *event, const struct launch *l, struct sbx_error *e);
/* Asks the launcher to send @sig to the jail's PID 1. */
void launch_signal(struct sandbox *sb, int sig);
/* The launcher's pidfd polled readable: feeds its last reports to the table, reaps it
 * (sets launcher_code/launcher_status), drops its sources and fds. */
void launch_reap(struct sandbox *sb);
/* Kills the launcher itself, if it still runs. */
void launch_kill(struct sandbox *sb);
/* Before the record goes: kills a launcher still there, drops its sources and fds. */
void launch_release(struct sandbox *sb);
