/* SPDX-License-Identifier: MIT */
/* Supervision as one table: what each event does in each state (s6-supervise's
 * action table).  Every transition is a row here, so "what happens when the client
 * disconnects while the jail is starting" has one answer, in one place. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/audit.h"
#include "../lib/cleanup.h"
#include "../lib/cgroup.h"
#include "daemon.h"

#define START_DEADLINE_USEC (60ull * 1000000) /* checking + building a jail: never this long */
#define STOP_GRACE_USEC (2ull * 1000000)      /* after a kill, before the launcher itself goes */
#define MAX_EXITED_PER_UID 64                 /* records kept for Wait, per uid */
#define MAX_EXITED_ARGV_PER_UID (4u << 20)    /* and the bytes of their argv together */

typedef void (*action_fn)(struct sandbox *sb, const void *arg);

static void audit(struct sandbox *sb, enum sbx_audit_event ev, const char *reason)
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
                .reason = reason,
                .result = ev == SBX_AUDIT_EXIT ? &sb->result : NULL,
                .error = sb->error.errnum ? &sb->error : NULL,
        };

        (void)sbx_audit_log(ev, &a, stderr);
}

static void timer_off(struct sandbox *sb)
{
        sb->timer_src = sd_event_source_disable_unref(sb->timer_src);
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
        (void)s;
        (void)usec;
        sandbox_event(userdata, EV_TIMER, NULL);
        return 0;
}

static void timer_in(struct sandbox *sb, uint64_t usec)
{
        timer_off(sb);
        (void)sd_event_add_time_relative(sb->d->event, &sb->timer_src, CLOCK_MONOTONIC, usec, 0, on_timer, sb);
}

/* ---- actions -------------------------------------------------------------------- */

static void ignore(struct sandbox *sb, const void *arg)
{
        (void)sb;
        (void)arg;
}

static void allowed(struct sandbox *sb, const void *arg)
{
        const struct launch_report *r = arg;

        free(sb->workspace);
        sb->workspace = strdup(r->workspace);
        sb->argv_max = r->argv_max;
        /* A launcher told to stop while it checked stays STOPPING, its timer armed. */
        if (sb->state == SB_STARTING) {
                sb->state = SB_RUNNING;
                timer_off(sb);
        }
        audit(sb, SBX_AUDIT_ALLOWED, NULL);
        api_reply_run(sb);
}

static void refused(struct sandbox *sb, const void *arg)
{
        const struct launch_report *r = arg;

        sb->refused = true;
        sb->failed = r->failed;
        sb->error = r->err;
        snprintf(sb->reason, sizeof(sb->reason), "%s", r->reason);
        if (r->workspace[0]) {
                free(sb->workspace);
                sb->workspace = strdup(r->workspace);
        }
        audit(sb, r->failed ? SBX_AUDIT_FAILED : SBX_AUDIT_DENIED, sb->reason);
        api_reply_run(sb);
        sb->state = SB_STOPPING; /* the launcher exits by itself */
}

static void result(struct sandbox *sb, const void *arg)
{
        const struct launch_report *r = arg;

        sb->result = r->res;
        if (r->err.errnum)
                sb->error = r->err;
        sb->have_result = true;
}

/* The signal goes to the jail through its launcher (which accounts for the exit and
 * removes the cgroup).  If the jail has not ended when the timer runs out -- the
 * policy's grace period after SIGTERM, a short one after SIGKILL -- expired() goes on. */
static void stop(struct sandbox *sb, int sig)
{
        if (sb->state == SB_STOPPING && sb->kill_signal == SIGKILL)
                return; /* already as far as it goes */
        sb->kill_signal = sig;
        launch_signal(sb, sig);
        timer_in(sb, sig == SIGKILL ? STOP_GRACE_USEC : sb->d->config->policy.grace_ms * 1000);
        sb->state = SB_STOPPING;
}

static void kill_requested(struct sandbox *sb, const void *arg)
{
        int sig = *(const int *)arg;
        char why[64];

        snprintf(why, sizeof(why), "Kill with signal %d", sig);
        audit(sb, SBX_AUDIT_KILL, why);
        /* SIGTERM and SIGKILL end the sandbox (SIGTERM escalates after the grace
         * period); any other signal is only passed on to the command. */
        if (sig == SIGKILL || sig == SIGTERM)
                stop(sb, sig);
        else
                launch_signal(sb, sig);
}

static void disconnected(struct sandbox *sb, const void *arg)
{
        (void)arg;
        sb->owner = NULL;
        audit(sb, SBX_AUDIT_KILL, "the client's connection closed");
        stop(sb, SIGKILL);
}

static void shutdown_started(struct sandbox *sb, const void *arg)
{
        (void)arg;
        audit(sb, SBX_AUDIT_KILL, "sandboxd is stopping");
        stop(sb, SIGTERM);
}

/* A timer ran out.  Starting: the launcher is stuck checking; it goes.  Stopping
 * after SIGTERM: now SIGKILL, through the launcher.  Stopping after SIGKILL: the
 * launcher itself is killed (its jail's PID 1 dies with it). */
static void expired(struct sandbox *sb, const void *arg)
{
        (void)arg;
        timer_off(sb);
        if (sb->state == SB_STOPPING && sb->kill_signal != SIGKILL) {
                stop(sb, SIGKILL);
                return;
        }
        if (sb->pidfd >= 0)
                (void)syscall(SYS_pidfd_send_signal, sb->pidfd, SIGKILL, NULL, 0);
}

static void forget(struct sandbox *sb, const void *arg)
{
        (void)arg;
        sandbox_free(sb);
}

static size_t argv_bytes(const struct sandbox *sb)
{
        size_t n = 0;

        for (char **a = sb->argv; a && *a; a++)
                n += strlen(*a) + 1;
        return n;
}

/* A uid's ended sandboxes are kept for Wait, the oldest dropped first beyond a count
 * and beyond a size: their argv may be 1 MiB each. */
static void drop_exited_beyond_limit(struct daemon *d, uid_t uid)
{
        for (;;) {
                size_t n = 0, bytes = 0;
                struct sandbox *oldest = NULL;

                for (struct sandbox *s = d->sandboxes; s; s = s->next)
                        if (s->state == SB_EXITED && s->uid == uid) {
                                n++;
                                bytes += argv_bytes(s);
                                oldest = s; /* the list is newest first */
                        }
                if (!oldest || n <= 1 || (n <= MAX_EXITED_PER_UID && bytes <= MAX_EXITED_ARGV_PER_UID))
                        return;
                sandbox_free(oldest);
        }
}

static void gone(struct sandbox *sb, const void *arg)
{
        struct daemon *d = sb->d;
        siginfo_t si = { 0 };

        (void)arg;
        launch_drain(sb); /* its last reports first */
        /* The pidfd polled readable: a zombie, reaped here (not by sd-event, which
         * watches the pidfd as plain I/O). */
        (void)waitid(P_PIDFD, (id_t)sb->pidfd, &si, WEXITED);
        /* A launcher killed by a signal could not remove its cgroups: now that it is
         * reaped, they are stale. */
        if (si.si_code != CLD_EXITED)
                sbx_cgroup_collect_stale();
        sb->pidfd_src = sd_event_source_disable_unref(sb->pidfd_src);
        sb->ctl_src = sd_event_source_disable_unref(sb->ctl_src);
        timer_off(sb);
        closep(&sb->pidfd);
        closep(&sb->ctl_fd);
        sb->state = SB_EXITED;
        d->n_sandboxes--;

        /* Run still unanswered (after the drain above): no decision ever came. */
        if (sb->run_call) {
                snprintf(sb->reason, sizeof(sb->reason), "the launcher ended before it decided (%s %d)",
                         si.si_code == CLD_EXITED ? "exit status" : "signal", si.si_status);
                sb->refused = sb->failed = true;
                sb->error.errnum = sb->error.errnum ? sb->error.errnum : EPROTO;
                audit(sb, SBX_AUDIT_FAILED, sb->reason);
                api_reply_run(sb);
        }
        if (sb->refused) {
                api_reply_waiters(sb); /* root may have found it in List and waited */
                sandbox_free(sb);
                return;
        }
        if (!sb->have_result) {
                /* The launcher was killed before it could account: the signal is the fate. */
                sb->result = (struct sbx_result){ .status = 128 + SIGKILL, .exit_code = -1, .signal = SIGKILL };
        }
        audit(sb, SBX_AUDIT_EXIT, NULL);
        /* Waits from other connections (the same uid, root) are answered even when
         * the owner is gone. */
        api_reply_waiters(sb);
        if (!sb->owner) {
                sandbox_free(sb); /* nobody left to Wait for it */
                return;
        }
        api_emit_exited(sb);
        drop_exited_beyond_limit(d, sb->uid);
}

/* ---- the table -------------------------------------------------------------------- */

static const action_fn table[SB_N_STATES][EV_N_EVENTS] = {
        [SB_STARTING] = {
                [EV_ALLOWED] = allowed,
                [EV_REFUSED] = refused,
                [EV_RESULT] = result,
                [EV_LAUNCHER_GONE] = gone,
                [EV_TIMER] = expired,
                [EV_DISCONNECT] = disconnected,
                [EV_KILL] = kill_requested,
                [EV_SHUTDOWN] = shutdown_started,
        },
        [SB_RUNNING] = {
                [EV_ALLOWED] = ignore,
                [EV_REFUSED] = ignore,
                [EV_RESULT] = result,
                [EV_LAUNCHER_GONE] = gone,
                [EV_TIMER] = ignore,
                [EV_DISCONNECT] = disconnected,
                [EV_KILL] = kill_requested,
                [EV_SHUTDOWN] = shutdown_started,
        },
        [SB_STOPPING] = {
                /* A decision can still arrive from a launcher told to stop while it
                 * checked: the Run call gets its answer all the same. */
                [EV_ALLOWED] = allowed,
                [EV_REFUSED] = refused,
                [EV_RESULT] = result,
                [EV_LAUNCHER_GONE] = gone,
                [EV_TIMER] = expired,
                [EV_DISCONNECT] = disconnected,
                [EV_KILL] = kill_requested,
                [EV_SHUTDOWN] = ignore,
        },
        [SB_EXITED] = {
                [EV_ALLOWED] = ignore,
                [EV_REFUSED] = ignore,
                [EV_RESULT] = ignore,
                [EV_LAUNCHER_GONE] = ignore,
                [EV_TIMER] = ignore,
                [EV_DISCONNECT] = forget,
                [EV_KILL] = ignore,
                [EV_SHUTDOWN] = ignore,
        },
};

void sandbox_event(struct sandbox *sb, enum sandbox_event ev, const void *arg)
{
        table[sb->state][ev](sb, arg);
}

/* ---- records ---------------------------------------------------------------------- */

const char *sandbox_state_name(enum sandbox_state s)
{
        static const char *const names[] = { "starting", "running", "stopping", "exited" };

        return s < SB_N_STATES ? names[s] : "?";
}

struct sandbox *sandbox_new(struct daemon *d, struct client *owner)
{
        struct sandbox *sb = calloc(1, sizeof(*sb));
        uint8_t raw[8];
        struct timespec ts;

        if (!sb)
                return NULL;
        /* An id nobody can guess: the object path is no capability, but a guessable
         * one would tell other users how busy the daemon is. */
        if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
                free(sb);
                return NULL;
        }
        for (size_t i = 0; i < sizeof(raw); i++)
                snprintf(sb->id + 2 * i, 3, "%02x", raw[i]);
        snprintf(sb->path, sizeof(sb->path), "%s/%s", SBX_BUS_SANDBOX_PREFIX, sb->id);
        clock_gettime(CLOCK_REALTIME, &ts);
        sb->start_usec = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
        sb->d = d;
        sb->owner = owner;
        sb->state = SB_STARTING;
        sb->pidfd = sb->ctl_fd = -1;
        sb->next = d->sandboxes;
        if (d->sandboxes)
                d->sandboxes->prev = sb;
        d->sandboxes = sb;
        d->n_sandboxes++;
        d->n_records++;
        timer_in(sb, START_DEADLINE_USEC);
        return sb;
}

struct sandbox *sandbox_find(struct daemon *d, const char *id)
{
        for (struct sandbox *s = d->sandboxes; s; s = s->next)
                if (strcmp(s->id, id) == 0)
                        return s;
        return NULL;
}

size_t sandboxes_of(const struct daemon *d, uid_t uid)
{
        size_t n = 0;

        for (const struct sandbox *s = d->sandboxes; s; s = s->next)
                n += s->uid == uid && s->state != SB_EXITED;
        return n;
}

void sandbox_free(struct sandbox *sb)
{
        struct daemon *d = sb->d;

        if (sb->state != SB_EXITED)
                d->n_sandboxes--;
        if (sb->prev)
                sb->prev->next = sb->next;
        else
                d->sandboxes = sb->next;
        if (sb->next)
                sb->next->prev = sb->prev;
        d->n_records--;
        sb->pidfd_src = sd_event_source_disable_unref(sb->pidfd_src);
        sb->ctl_src = sd_event_source_disable_unref(sb->ctl_src);
        timer_off(sb);
        if (sb->pidfd >= 0)
                (void)syscall(SYS_pidfd_send_signal, sb->pidfd, SIGKILL, NULL, 0);
        closep(&sb->pidfd);
        closep(&sb->ctl_fd);
        sb->run_call = sd_bus_message_unref(sb->run_call);
        for (size_t i = 0; i < sb->n_waiters; i++)
                sd_bus_message_unref(sb->waiters[i]);
        free(sb->profile);
        free(sb->workspace);
        for (char **a = sb->argv; a && *a; a++)
                free(*a);
        free(sb->argv);
        free(sb);
}
