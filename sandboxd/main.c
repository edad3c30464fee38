/* SPDX-License-Identifier: MIT */
/* sandboxd: parse, load, serve, stop.  One sd-event loop; everything else is in
 * server.c (connections), api.c (methods), sandbox.c (supervision), launch.c (the
 * per-sandbox launcher) and config.c (policy and profiles). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <systemd/sd-daemon.h>

#include "../lib/audit.h"
#include "../lib/cgroup.h"
#include "daemon.h"
#include "options.h"

static void note(const char *what)
{
        struct sbx_audit a = { .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1, .reason = what };

        (void)sbx_audit_log(SBX_AUDIT_DAEMON, &a, stderr);
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

        if (!d->stopping || d->n_sandboxes != 0)
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
        note("stopping");
        server_stop_listening(d);
        for (struct sandbox *sb = d->sandboxes; sb; sb = next) {
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
                fprintf(stderr, "sandboxd: reload failed, the previous configuration stays: %s\n", why);
        else if (why[0])
                fprintf(stderr, "sandboxd: %s\n", why);
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

        if ((r = config_load(o->policy, &d->config, why, sizeof(why))) < 0) {
                fprintf(stderr, "sandboxd: %s\n", why);
                return r;
        }
        if (why[0])
                fprintf(stderr, "sandboxd: warning: %s\n", why);
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
                fprintf(stderr, "sandboxd: cannot set up the event loop: %s\n", strerror(-r));
                return r;
        }
        if (strcmp(o->listen, SBX_DEFAULT_SOCKET) == 0)
                (void)mkdir("/run/sandboxd", 0755);
        if ((r = server_listen(d, o->listen, &e)) < 0) {
                sbx_error_format(&e, msg, sizeof(msg));
                fprintf(stderr, "sandboxd: %s\n", msg);
                return r;
        }
        if (o->system_bus != SBX_BUS_NO && (r = server_connect_system_bus(d)) < 0) {
                if (o->system_bus == SBX_BUS_YES) {
                        fprintf(stderr, "sandboxd: cannot serve on the system bus as %s: %s\n", SBX_BUS_NAME, strerror(-r));
                        return r;
                }
                if (r != -ENOENT && r != -ECONNREFUSED)
                        fprintf(stderr, "sandboxd: not on the system bus (%s); serving the socket only\n", strerror(-r));
        }
        return 0;
}

int main(int argc, char **argv)
{
        struct sbx_daemon_options o;
        struct daemon d = { .policy_path = NULL };
        struct sbx_error e = { 0 };
        char msg[1024];
        int r;

        if (sbx_daemon_options_parse(argc, argv, &o, &e) < 0) {
                sbx_error_format(&e, msg, sizeof(msg));
                fprintf(stderr, "sandboxd: %s\n", msg);
                return 2;
        }
        if (o.help || o.version) {
                fputs(o.help ? sbx_daemon_usage : "sandboxd " SBX_VERSION "\n", stdout);
                return 0;
        }
        d.policy_path = o.policy;
        r = setup(&d, &o);
        if (r >= 0 && !o.check) {
                note("started");
                (void)sd_notify(0, "READY=1");
                r = sd_event_loop(d.event);
        }
        while (d.sandboxes)
                sandbox_free(d.sandboxes);
        server_done(&d);
        config_free(d.config);
        sd_event_unref(d.event);
        return r < 0 ? 1 : 0;
}
