/* SPDX-License-Identifier: MIT */
/* Supervision as one table: what each event does in each state, and the state it
 * leads to (s6-supervise's action table).  Every transition is a row here, so "what
 * happens when the client disconnects while the jail is starting" has one answer, in
 * one place.  An action does the side effects, through set->ops; the row, never the
 * action, sets the next state. */
#include "sandbox.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define START_DEADLINE_USEC (60ull * 1000000) /* checking + building a jail: never this long */
#define STOP_GRACE_USEC (2ull * 1000000)      /* after a kill, before the launcher itself goes */
#define MAX_EXITED_PER_UID 64                 /* records kept for Wait, per uid */
#define MAX_EXITED_ARGV_PER_UID (4u << 20)    /* and the bytes of their argv together */
#define SB_DROPPED SB_N_STATES                /* a row's next state: the record is freed */

typedef void (*action_fn)(struct sandbox *sb, const void *arg);

struct row {
        action_fn action;
        enum sandbox_state next;
};

static const struct sandbox_ops *ops(const struct sandbox *sb)
{
        return sb->set->ops;
}

static void audit(struct sandbox *sb, enum sbx_audit_event ev, const char *reason)
{
        ops(sb)->audit(sb, ev, reason);
}

/* ---- actions -------------------------------------------------------------------- */

static void ignore(struct sandbox *sb, const void *arg)
{
        (void)sb;
        (void)arg;
}

/* The launcher's decision: allowed.  Run gets its answer; the start deadline goes
 * (a launcher told to stop while it checked keeps its stop timer: see the table). */
static void allowed(struct sandbox *sb, const void *arg)
{
        const struct launch_report *r = arg;

        free(sb->workspace);
        sb->workspace = strdup(r->workspace);
        sb->argv_max = r->argv_max;
        sb->validation = r->validation;
        snprintf(sb->tier, sizeof(sb->tier), "%s", r->tier);
        snprintf(sb->substitutions, sizeof(sb->substitutions), "%s", r->substitutions);
        audit(sb, SBX_AUDIT_ALLOWED, NULL);
        ops(sb)->reply_run(sb);
}

static void started(struct sandbox *sb, const void *arg)
{
        ops(sb)->timer(sb, 0);
        allowed(sb, arg);
}

/* Denied, or failed before the jail started: the launcher exits by itself. */
static void refused(struct sandbox *sb, const void *arg)
{
        const struct launch_report *r = arg;

        sb->refused = true;
        sb->failed = r->failed;
        sb->error = r->err;
        sb->validation = r->validation;
        snprintf(sb->reason, sizeof(sb->reason), "%s", r->reason);
        snprintf(sb->tier, sizeof(sb->tier), "%s", r->tier);
        snprintf(sb->substitutions, sizeof(sb->substitutions), "%s", r->substitutions);
        if (r->workspace[0]) {
                free(sb->workspace);
                sb->workspace = strdup(r->workspace);
        }
        audit(sb, r->failed ? SBX_AUDIT_FAILED : SBX_AUDIT_DENIED, sb->reason);
        ops(sb)->reply_run(sb);
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
        ops(sb)->signal_jail(sb, sig);
        ops(sb)->timer(sb, sig == SIGKILL ? STOP_GRACE_USEC : sb->set->grace_ms * 1000);
}

static void audit_kill(struct sandbox *sb, int sig)
{
        char why[64];

        snprintf(why, sizeof(why), "Kill with signal %d", sig);
        audit(sb, SBX_AUDIT_KILL, why);
}

/* SIGTERM and SIGKILL end the sandbox (SIGTERM escalates after the grace period). */
static void kill_requested(struct sandbox *sb, const void *arg)
{
        int sig = *(const int *)arg;

        audit_kill(sb, sig);
        stop(sb, sig);
}

/* Any other signal is only passed on to the command. */
static void signal_requested(struct sandbox *sb, const void *arg)
{
        int sig = *(const int *)arg;

        audit_kill(sb, sig);
        ops(sb)->signal_jail(sb, sig);
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

/* A timer ran out while starting: the launcher is stuck checking; it goes, and its
 * pidfd brings EV_LAUNCHER_GONE. */
static void start_expired(struct sandbox *sb, const void *arg)
{
        (void)arg;
        ops(sb)->timer(sb, 0);
        ops(sb)->kill_launcher(sb);
}

/* A timer ran out while stopping.  After SIGTERM: now SIGKILL, through the launcher.
 * After SIGKILL: the launcher itself is killed (its jail's PID 1 dies with it). */
static void stop_expired(struct sandbox *sb, const void *arg)
{
        ops(sb)->timer(sb, 0);
        (void)arg;
        if (sb->kill_signal != SIGKILL)
                stop(sb, SIGKILL);
        else
                ops(sb)->kill_launcher(sb);
}

/* The launcher exited: its last reports first (nested events, in the state it left),
 * then it is reaped.  What follows is entering EXITED (exited() below). */
static void gone(struct sandbox *sb, const void *arg)
{
        (void)arg;
        ops(sb)->reap_launcher(sb);
        if (sb->launcher_code != CLD_EXITED)
                ops(sb)->collect_cgroups(); /* killed: its cgroups are stale */
        ops(sb)->timer(sb, 0);
}

static void forget(struct sandbox *sb, const void *arg)
{
        (void)arg;
        sb->owner = NULL;
}

/* ---- the table -------------------------------------------------------------------- */

static const struct row table[SB_N_STATES][EV_N_EVENTS] = {
        [SB_STARTING] = {
                [EV_ALLOWED] = { started, SB_RUNNING },
                [EV_REFUSED] = { refused, SB_STOPPING },
                [EV_RESULT] = { result, SB_STARTING },
                [EV_LAUNCHER_GONE] = { gone, SB_EXITED },
                [EV_TIMER] = { start_expired, SB_STARTING },
                [EV_DISCONNECT] = { disconnected, SB_STOPPING },
                [EV_KILL] = { kill_requested, SB_STOPPING },
                [EV_SIGNAL] = { signal_requested, SB_STARTING },
                [EV_SHUTDOWN] = { shutdown_started, SB_STOPPING },
        },
        [SB_RUNNING] = {
                [EV_ALLOWED] = { ignore, SB_RUNNING },
                [EV_REFUSED] = { ignore, SB_RUNNING },
                [EV_RESULT] = { result, SB_RUNNING },
                [EV_LAUNCHER_GONE] = { gone, SB_EXITED },
                [EV_TIMER] = { ignore, SB_RUNNING },
                [EV_DISCONNECT] = { disconnected, SB_STOPPING },
                [EV_KILL] = { kill_requested, SB_STOPPING },
                [EV_SIGNAL] = { signal_requested, SB_RUNNING },
                [EV_SHUTDOWN] = { shutdown_started, SB_STOPPING },
        },
        [SB_STOPPING] = {
                /* A decision can still arrive from a launcher told to stop while it
                 * checked: the Run call gets its answer all the same, and the stop
                 * goes on (its timer stays armed). */
                [EV_ALLOWED] = { allowed, SB_STOPPING },
                [EV_REFUSED] = { refused, SB_STOPPING },
                [EV_RESULT] = { result, SB_STOPPING },
                [EV_LAUNCHER_GONE] = { gone, SB_EXITED },
                [EV_TIMER] = { stop_expired, SB_STOPPING },
                [EV_DISCONNECT] = { disconnected, SB_STOPPING },
                [EV_KILL] = { kill_requested, SB_STOPPING },
                [EV_SIGNAL] = { signal_requested, SB_STOPPING },
                [EV_SHUTDOWN] = { ignore, SB_STOPPING },
        },
        [SB_EXITED] = {
                [EV_ALLOWED] = { ignore, SB_EXITED },
                [EV_REFUSED] = { ignore, SB_EXITED },
                [EV_RESULT] = { ignore, SB_EXITED },
                [EV_LAUNCHER_GONE] = { ignore, SB_EXITED },
                [EV_TIMER] = { ignore, SB_EXITED },
                [EV_DISCONNECT] = { forget, SB_DROPPED }, /* nobody left to Wait for it */
                [EV_KILL] = { ignore, SB_EXITED },
                [EV_SIGNAL] = { ignore, SB_EXITED },
                [EV_SHUTDOWN] = { ignore, SB_EXITED },
        },
};

static size_t argv_bytes(const struct sandbox *sb)
{
        size_t n = 0;

        for (char **a = sb->argv; a && *a; a++)
                n += strlen(*a) + 1;
        return n;
}

/* A uid's ended sandboxes are kept for Wait, the oldest dropped first beyond a count
 * and beyond a size: their argv may be 1 MiB each. */
static void drop_exited_beyond_limit(struct sandbox_set *set, uid_t uid)
{
        for (;;) {
                size_t n = 0, bytes = 0;
                struct sandbox *oldest = NULL;

                for (struct sandbox *s = set->head; s; s = s->next)
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

/* Entering EXITED (the launcher is reaped): every question still open is answered,
 * and the record stays only while its owner may still Wait for it.  May free @sb. */
static void exited(struct sandbox *sb)
{
        struct sandbox_set *set = sb->set;

        set->n_live--;
        /* Run still unanswered (after the last reports): no decision ever came. */
        if (sb->run_call) {
                snprintf(sb->reason, sizeof(sb->reason), "the launcher ended before it decided (%s %d)",
                         sb->launcher_code == CLD_EXITED ? "exit status" : "signal", sb->launcher_status);
                sb->refused = sb->failed = true;
                sb->error.errnum = sb->error.errnum ? sb->error.errnum : EPROTO;
                audit(sb, SBX_AUDIT_FAILED, sb->reason);
                ops(sb)->reply_run(sb);
        }
        if (sb->refused) {
                ops(sb)->reply_waiters(sb); /* root may have found it in List and waited */
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
        ops(sb)->reply_waiters(sb);
        if (!sb->owner) {
                sandbox_free(sb); /* nobody left to Wait for it */
                return;
        }
        ops(sb)->emit_exited(sb);
        drop_exited_beyond_limit(set, sb->uid); /* may free sb: the last use */
}

enum sandbox_state sandbox_next_state(enum sandbox_state s, enum sandbox_event ev)
{
        return s < SB_N_STATES && ev < EV_N_EVENTS ? table[s][ev].next : SB_N_STATES;
}

void sandbox_event(struct sandbox *sb, enum sandbox_event ev, const void *arg)
{
        const struct row *row = &table[sb->state][ev];
        enum sandbox_state from = sb->state;

        row->action(sb, arg);
        if (row->next == SB_DROPPED) {
                sandbox_free(sb);
                return;
        }
        sb->state = row->next;
        if (row->next == SB_EXITED && from != SB_EXITED)
                exited(sb);
}

void sandbox_kill(struct sandbox *sb, int sig)
{
        sandbox_event(sb, sig == SIGKILL || sig == SIGTERM ? EV_KILL : EV_SIGNAL, &sig);
}

/* ---- records ---------------------------------------------------------------------- */

const char *sandbox_state_name(enum sandbox_state s)
{
        static const char *const names[] = { "starting", "running", "stopping", "exited" };

        return s < SB_N_STATES ? names[s] : "?";
}

const char *sandbox_event_name(enum sandbox_event ev)
{
        static const char *const names[] = { "allowed", "refused", "result", "launcher-gone", "timer",
                                             "disconnect", "kill", "signal", "shutdown" };

        return ev < EV_N_EVENTS ? names[ev] : "?";
}

struct sandbox *sandbox_new(struct sandbox_set *set, struct client *owner)
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
        clock_gettime(CLOCK_REALTIME, &ts);
        sb->start_usec = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
        sb->set = set;
        sb->owner = owner;
        sb->state = SB_STARTING;
        sb->pidfd = sb->ctl_fd = -1;
        sb->next = set->head;
        if (set->head)
                set->head->prev = sb;
        set->head = sb;
        set->n_live++;
        set->n_records++;
        ops(sb)->timer(sb, START_DEADLINE_USEC);
        return sb;
}

struct sandbox *sandbox_find(struct sandbox_set *set, const char *id)
{
        for (struct sandbox *s = set->head; s; s = s->next)
                if (strcmp(s->id, id) == 0)
                        return s;
        return NULL;
}

size_t sandboxes_of(const struct sandbox_set *set, uid_t uid)
{
        size_t n = 0;

        for (const struct sandbox *s = set->head; s; s = s->next)
                n += s->uid == uid && s->state != SB_EXITED;
        return n;
}

void sandbox_free(struct sandbox *sb)
{
        struct sandbox_set *set = sb->set;

        if (sb->state != SB_EXITED)
                set->n_live--;
        if (sb->prev)
                sb->prev->next = sb->next;
        else
                set->head = sb->next;
        if (sb->next)
                sb->next->prev = sb->prev;
        set->n_records--;
        ops(sb)->timer(sb, 0);
        ops(sb)->release(sb);
        free(sb->profile);
        free(sb->workspace);
        free(sb->tool_use_id);
        free(sb->session_id);
        for (char **a = sb->argv; a && *a; a++)
                free(*a);
        free(sb->argv);
        free(sb);
}
