/* SPDX-License-Identifier: MIT */
/* sandboxd: parse, load, serve, stop, and the wiring.  One sd-event loop; everything
 * else is in server.c (connections), intake.c (what a connection may send), api.c
 * (methods), identity.c (who calls), sandbox.c (supervision), launch.c (the
 * per-sandbox launcher) and config.c (policy and profiles).  They include only what is
 * below them; where a lower one must call up -- supervision's side effects, a new
 * connection's objects, a reload -- it calls through the ops and hooks installed here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "../lib/audit.h"
#include "../lib/auditfile.h"
#include "../lib/cgroup.h"
#include "api.h"
#include "config.h"
#include "daemon.h"
#include "intake.h"
#include "launch.h"
#include "log.h"
#include "options.h"
#include "sandbox.h"
#include "server.h"

/* ---- supervision's side effects (sandbox.h) ---------------------------------------- */

static void sb_audit(struct sandbox *sb, enum sbx_audit_event ev, const char *reason)
{
        struct sbx_audit a = {
                .id = sb->id,
                .mode = "daemon",
                .profile = sb->profile,
                .uid = sb->uid,
                .gid = sb->gid,
                .pid = sb->caller_pid,
                .argv = sb->argv,
                .argv_max = sb->argv_max,
                .cwd = sb->workspace,
                .tool_use_id = sb->tool_use_id,
                .session_id = sb->session_id,
                .reason = reason,
                .result = ev == SBX_AUDIT_EXIT ? &sb->result : NULL,
                .error = sb->error.errnum ? &sb->error : NULL,
                .validation = &sb->validation,
                .tier = sb->tier[0] ? sb->tier : NULL,
                .substitutions = sb->substitutions,
        };

        (void)sbx_audit_emit(ev, &a, &((struct daemon *)sb->set->userdata)->audit);
}

static int on_sandbox_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
        (void)s;
        (void)usec;
        sandbox_event(userdata, EV_TIMER, NULL);
        return 0;
}

static void sb_timer(struct sandbox *sb, uint64_t usec)
{
        struct daemon *d = sb->set->userdata;

        sb->timer_src = sd_event_source_disable_unref(sb->timer_src);
        if (usec)
                (void)sd_event_add_time_relative(d->event, &sb->timer_src, CLOCK_MONOTONIC, usec, 0, on_sandbox_timer, sb);
}

static void sb_release(struct sandbox *sb)
{
        launch_release(sb);
        api_release(sb);
}

static const struct sandbox_ops sandbox_ops = {
        .audit = sb_audit,
        .reply_run = api_reply_run,
        .reply_waiters = api_reply_waiters,
        .emit_exited = api_emit_exited,
        .signal_jail = launch_signal,
        .kill_launcher = launch_kill,
        .reap_launcher = launch_reap,
        .collect_cgroups = sbx_cgroup_collect_stale,
        .timer = sb_timer,
        .release = sb_release,
};

/* ---- calls up (daemon.h) ------------------------------------------------------------ */

static void use_config(struct daemon *d, struct sbx_config *c)
{
        config_free(d->config);
        d->config = c;
        d->sandboxes.grace_ms = c->policy.grace_ms;
}

/* Loads afresh and swaps only on success; the old one stays otherwise.  Audited either way. */
static int daemon_reload(struct daemon *d, char *why, size_t size)
{
        struct sbx_config *c;
        struct sbx_audit a = { .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1 };
        int r;

        (void)sd_notify(0, "RELOADING=1");
        r = config_load(d->policy_path, &c, why, size);
        a.ok = r >= 0;
        a.reason = why[0] ? why : NULL;
        (void)sbx_audit_emit(SBX_AUDIT_RELOAD, &a, &d->audit);
        if (r >= 0) {
                use_config(d, c);
                if (d->event)
                        server_size(d);
        }
        (void)sd_notify(0, "READY=1");
        return r;
}

static const struct daemon_hooks daemon_hooks = {
        .attach = api_attach,
        .attach_driver = api_attach_driver,
        .client_gone = client_gone,
        .reload = daemon_reload,
};

static void note(struct daemon *d, const char *what)
{
        struct sbx_audit a = { .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1, .reason = what };

        (void)sbx_audit_emit(SBX_AUDIT_DAEMON, &a, &d->audit);
}

static int on_last_words(sd_event_source *s, uint64_t usec, void *userdata)
{
        (void)s;
        (void)usec;
        return sd_event_exit(userdata, 0);
}

/* Stopping and the last sandbox reaped: a moment for the Wait replies and Exited
 * signals still queued to reach their clients, then the loop ends. */
static int on_post(sd_event_source *s, void *userdata)
{
        struct daemon *d = userdata;

        if (!d->stopping || d->sandboxes.n_live != 0)
                return 0;
        (void)sd_event_source_set_enabled(s, SD_EVENT_OFF);
        if (sd_event_add_time_relative(d->event, NULL, CLOCK_MONOTONIC, 200 * 1000ull, 0, on_last_words, d->event) < 0)
                return sd_event_exit(d->event, 0);
        return 0;
}

/* SIGTERM: no new connections or sandboxes; the running ones get SIGTERM, then
 * SIGKILL after the policy's grace period; the loop ends when the last is reaped. */
static void begin_shutdown(struct daemon *d)
{
        struct sandbox *next;

        if (d->stopping)
                return;
        d->stopping = true;
        (void)sd_notify(0, "STOPPING=1");
        note(d, "stopping");
        server_stop_listening(d);
        for (struct sandbox *sb = d->sandboxes.head; sb; sb = next) {
                next = sb->next;
                sandbox_event(sb, EV_SHUTDOWN, NULL);
        }
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct daemon *d = userdata;
        char why[1024] = "";

        (void)s;
        if (si->ssi_signo != SIGHUP) {
                begin_shutdown(d);
                return 0;
        }
        if (daemon_reload(d, why, sizeof(why)) < 0)
                log_error("reload failed, the previous configuration stays: %s", why);
        else if (why[0])
                log_info("%s", why);
        return 0;
}

/* Room for every connection's fds (server_size): the soft RLIMIT_NOFILE up to the hard
 * one, 65536 at most.  The jails get back the soft limit sandboxd was started with
 * (1024 under the unit: select(2) cannot take fds above that). */
static void raise_nofile(struct daemon *d)
{
        struct rlimit rl;

        d->jail_nofile = 1024;
        if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
                return;
        d->jail_nofile = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max < 65536 ? rl.rlim_max : 65536;
        if (rl.rlim_cur > d->jail_nofile)
                (void)setrlimit(RLIMIT_NOFILE, &rl);
}

static int setup(struct daemon *d, const struct sbx_daemon_options *o)
{
        struct sbx_error e = { 0 };
        char why[1024] = "", msg[1024];
        sigset_t mask;
        int r;

        struct sbx_config *c;

        if ((r = config_load(o->policy, &c, why, sizeof(why))) < 0) {
                log_error("%s", why);
                return r;
        }
        use_config(d, c);
        if (why[0])
                log_warning("%s", why);
        if (o->check)
                return 0;
        /* What a sandboxd that was killed left behind (systemd restarts us then). */
        sbx_cgroup_collect_stale();
        raise_nofile(d);
        server_size(d);
        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        sigprocmask(SIG_BLOCK, &mask, NULL);
        signal(SIGPIPE, SIG_IGN);
        if ((r = sd_event_default(&d->event)) < 0 || (r = sd_event_add_signal(d->event, NULL, SIGTERM, on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGINT, on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGHUP, on_signal, d)) < 0 ||
            (r = sd_event_add_post(d->event, NULL, on_post, d)) < 0 || (r = intake_setup(d)) < 0) {
                return log_error_errno(r, "cannot set up the event loop: %m");
        }
        if (strcmp(o->listen, SBX_DEFAULT_SOCKET) == 0)
                (void)mkdir("/run/sandboxd", 0755);
        if ((r = server_listen(d, o->listen, &e)) < 0) {
                sbx_error_format(&e, msg, sizeof(msg));
                log_error("%s", msg);
                return r;
        }
        if (o->system_bus != SBX_BUS_NO && (r = server_connect_system_bus(d)) < 0) {
                if (o->system_bus == SBX_BUS_YES) {
                        return log_error_errno(r, "cannot serve on the system bus as %s: %m", SBX_BUS_NAME);
                }
                if (r != -ENOENT && r != -ECONNREFUSED)
                        (void)log_error_errno(r, "not on the system bus (%m); serving the socket only");
        }
        return 0;
}

/* --audit-file/--audit-fd: opened now, as root, before any record; the path is the
 * command line's, never a caller's.  Without either, records the journal does not take
 * go to stderr as logfmt lines. */
static int open_audit(struct daemon *d, const struct sbx_daemon_options *o)
{
        struct sbx_error e = { 0 };
        char msg[1024];
        int fd = -1;

        d->audit = (struct sbx_audit_sink){ .fd = -1, .fallback = stderr };
        if (o->audit_file)
                fd = sbx_audit_file_open(o->audit_file, &e);
        else if (o->audit_fd >= 0)
                fd = sbx_audit_fd_take(o->audit_fd, &e);
        else
                return 0;
        if (fd < 0) {
                sbx_error_format(&e, msg, sizeof(msg));
                log_error("%s", msg);
                return fd;
        }
        d->audit.fd = fd;
        return 0;
}

int main(int argc, char **argv)
{
        struct sbx_daemon_options o;
        struct daemon d = {
                .hooks = &daemon_hooks,
                .sandboxes = { .ops = &sandbox_ops },
        };
        struct sbx_error e = { 0 };
        char msg[1024];
        int r;

        if (sbx_daemon_options_parse(argc, argv, &o, &e) < 0) {
                sbx_error_format(&e, msg, sizeof(msg));
                log_error("%s", msg);
                return 2;
        }
        if (o.help || o.version) {
                fputs(o.help ? sbx_daemon_usage : "sandboxd " SBX_VERSION "\n", stdout);
                return 0;
        }
        d.sandboxes.userdata = &d;
        d.policy_path = o.policy;
        d.audit = (struct sbx_audit_sink){ .fd = -1, .fallback = stderr };
        r = o.check ? 0 : open_audit(&d, &o);
        if (r >= 0)
                r = setup(&d, &o);
        if (r >= 0 && !o.check) {
                note(&d, "started");
                (void)sd_notify(0, "READY=1");
                r = sd_event_loop(d.event);
        }
        while (d.sandboxes.head)
                sandbox_free(d.sandboxes.head);
        server_done(&d);
        config_free(d.config);
        sd_event_unref(d.event);
        if (d.audit.fd > 2)
                close(d.audit.fd);
        return r < 0 ? 1 : 0;
}
