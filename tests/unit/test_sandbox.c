/* SPDX-License-Identifier: MIT */
/* Supervision (sandboxd/sandbox.c) driven event by event, with recording fake ops: no
 * root, no bus, no launcher.  Every state x event row is fired once, the impossible
 * ones included, and checked for the state it leads to and the side effects it asked
 * for, in order; then the paths that need more than one event. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../sandboxd/sandbox.h"
#include "unit.h"

static char log_[1024];

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
        size_t n = strlen(log_);
        va_list ap;

        if (n)
                n += (size_t)snprintf(log_ + n, sizeof(log_) - n, ",");
        va_start(ap, fmt);
        (void)vsnprintf(log_ + n, sizeof(log_) - n, fmt, ap);
        va_end(ap);
}

static const char *audit_name(enum sbx_audit_event ev)
{
        static const char *const names[] = { "allowed", "denied", "failed", "exit", "kill", "reload", "daemon" };

        return names[ev];
}

/* What the launcher "sends" while it is reaped: a report, fed back as an event. */
static const struct launch_report *nested_report;
static int reap_code = CLD_EXITED;

static void f_audit(struct sandbox *sb, enum sbx_audit_event ev, const char *reason)
{
        (void)sb;
        (void)reason;
        note("audit:%s", audit_name(ev));
}

static void f_reply_run(struct sandbox *sb)
{
        sb->run_call = NULL; /* answered, as api_reply_run does */
        note("run");
}

static void f_reply_waiters(struct sandbox *sb)
{
        (void)sb;
        note("waiters");
}

static void f_emit_exited(struct sandbox *sb)
{
        (void)sb;
        note("exited");
}

static void f_signal_jail(struct sandbox *sb, int sig)
{
        (void)sb;
        note("sig:%d", sig);
}

static void f_kill_launcher(struct sandbox *sb)
{
        (void)sb;
        note("kill-launcher");
}

static void f_reap(struct sandbox *sb)
{
        note("reap");
        if (nested_report)
                sandbox_event(sb, nested_report->type == 2 ? EV_RESULT : nested_report->allow ? EV_ALLOWED : EV_REFUSED,
                              nested_report);
        sb->launcher_code = reap_code;
        sb->launcher_status = reap_code == CLD_EXITED ? 0 : SIGKILL;
}

static void f_collect(void)
{
        note("collect");
}

static void f_timer(struct sandbox *sb, uint64_t usec)
{
        (void)sb;
        if (usec)
                note("timer:%llums", (unsigned long long)(usec / 1000));
        else
                note("timer-off");
}

static void f_release(struct sandbox *sb)
{
        (void)sb;
        note("release");
}

static const struct sandbox_ops fake_ops = {
        .audit = f_audit,
        .reply_run = f_reply_run,
        .reply_waiters = f_reply_waiters,
        .emit_exited = f_emit_exited,
        .signal_jail = f_signal_jail,
        .kill_launcher = f_kill_launcher,
        .reap_launcher = f_reap,
        .collect_cgroups = f_collect,
        .timer = f_timer,
        .release = f_release,
};

static struct sandbox_set set = { .grace_ms = 5000, .ops = &fake_ops };
/* Never dereferenced by supervision: only compared and handed to the ops. */
static struct client *const an_owner = (struct client *)&set;
static struct sd_bus_message *const a_call = (struct sd_bus_message *)&set;

/* A record as each state finds it in the usual course: STARTING with Run unanswered,
 * STOPPING after a SIGTERM, EXITED with its owner still there. */
static struct sandbox *make(enum sandbox_state s, int kill_signal)
{
        struct sandbox *sb = sandbox_new(&set, an_owner);

        sb->uid = 1000;
        sb->run_call = s == SB_STARTING ? a_call : NULL;
        sb->kill_signal = s == SB_STOPPING ? kill_signal : 0;
        sb->state = s;
        if (s == SB_EXITED) {
                set.n_live--;
                sb->have_result = true;
        }
        log_[0] = '\0';
        return sb;
}

static const struct launch_report allow_report = { .type = 1, .allow = true, .workspace = "/w" };
static const struct launch_report deny_report = { .type = 1, .allow = false, .reason = "no", .workspace = "/w" };
static const struct launch_report result_report = { .type = 2, .res = { .status = 3, .exit_code = 3 } };

static void fire(struct sandbox *sb, enum sandbox_event ev)
{
        int term = SIGTERM, usr1 = SIGUSR1;

        switch (ev) {
        case EV_ALLOWED: sandbox_event(sb, ev, &allow_report); break;
        case EV_REFUSED: sandbox_event(sb, ev, &deny_report); break;
        case EV_RESULT: sandbox_event(sb, ev, &result_report); break;
        case EV_KILL: sandbox_kill(sb, term); break;
        case EV_SIGNAL: sandbox_kill(sb, usr1); break;
        default: sandbox_event(sb, ev, NULL); break;
        }
}

#define DROPPED SB_N_STATES

struct expect {
        enum sandbox_state next; /* DROPPED: the record was freed */
        const char *ops;
};

/* The whole table, as the design says it should be. */
static const struct expect rows[SB_N_STATES][EV_N_EVENTS] = {
        [SB_STARTING] = {
                [EV_ALLOWED] = { SB_RUNNING, "timer-off,audit:allowed,run" },
                [EV_REFUSED] = { SB_STOPPING, "audit:denied,run" },
                [EV_RESULT] = { SB_STARTING, "" },
                /* No decision ever came: Run fails, the record goes. */
                [EV_LAUNCHER_GONE] = { DROPPED, "reap,timer-off,audit:failed,run,waiters,timer-off,release" },
                [EV_TIMER] = { SB_STARTING, "timer-off,kill-launcher" },
                [EV_DISCONNECT] = { SB_STOPPING, "audit:kill,sig:9,timer:2000ms" },
                [EV_KILL] = { SB_STOPPING, "audit:kill,sig:15,timer:5000ms" },
                [EV_SIGNAL] = { SB_STARTING, "audit:kill,sig:10" },
                [EV_SHUTDOWN] = { SB_STOPPING, "audit:kill,sig:15,timer:5000ms" },
        },
        [SB_RUNNING] = {
                [EV_ALLOWED] = { SB_RUNNING, "" },
                [EV_REFUSED] = { SB_RUNNING, "" },
                [EV_RESULT] = { SB_RUNNING, "" },
                [EV_LAUNCHER_GONE] = { SB_EXITED, "reap,timer-off,audit:exit,waiters,exited" },
                [EV_TIMER] = { SB_RUNNING, "" },
                [EV_DISCONNECT] = { SB_STOPPING, "audit:kill,sig:9,timer:2000ms" },
                [EV_KILL] = { SB_STOPPING, "audit:kill,sig:15,timer:5000ms" },
                [EV_SIGNAL] = { SB_RUNNING, "audit:kill,sig:10" },
                [EV_SHUTDOWN] = { SB_STOPPING, "audit:kill,sig:15,timer:5000ms" },
        },
        [SB_STOPPING] = {
                [EV_ALLOWED] = { SB_STOPPING, "audit:allowed,run" },
                [EV_REFUSED] = { SB_STOPPING, "audit:denied,run" },
                [EV_RESULT] = { SB_STOPPING, "" },
                [EV_LAUNCHER_GONE] = { SB_EXITED, "reap,timer-off,audit:exit,waiters,exited" },
                [EV_TIMER] = { SB_STOPPING, "timer-off,sig:9,timer:2000ms" }, /* SIGTERM's grace ran out */
                [EV_DISCONNECT] = { SB_STOPPING, "audit:kill,sig:9,timer:2000ms" },
                [EV_KILL] = { SB_STOPPING, "audit:kill,sig:15,timer:5000ms" },
                [EV_SIGNAL] = { SB_STOPPING, "audit:kill,sig:10" },
                [EV_SHUTDOWN] = { SB_STOPPING, "" },
        },
        [SB_EXITED] = {
                [EV_ALLOWED] = { SB_EXITED, "" },
                [EV_REFUSED] = { SB_EXITED, "" },
                [EV_RESULT] = { SB_EXITED, "" },
                [EV_LAUNCHER_GONE] = { SB_EXITED, "" },
                [EV_TIMER] = { SB_EXITED, "" },
                [EV_DISCONNECT] = { DROPPED, "timer-off,release" },
                [EV_KILL] = { SB_EXITED, "" },
                [EV_SIGNAL] = { SB_EXITED, "" },
                [EV_SHUTDOWN] = { SB_EXITED, "" },
        },
};

static void drop_all(void)
{
        while (set.head)
                sandbox_free(set.head);
}

static void test_every_row(void)
{
        char name[128], why[1300];

        for (int s = 0; s < SB_N_STATES; s++)
                for (int ev = 0; ev < EV_N_EVENTS; ev++) {
                        const struct expect *x = &rows[s][ev];
                        struct sandbox *sb = make((enum sandbox_state)s, SIGTERM);
                        size_t records = set.n_records;
                        bool dropped;

                        snprintf(name, sizeof(name), "%s x %s", sandbox_state_name((enum sandbox_state)s),
                                 sandbox_event_name((enum sandbox_event)ev));
                        CHECK("sandbox-table", name, x->ops != NULL); /* the expectation covers the row */
                        fire(sb, (enum sandbox_event)ev);
                        dropped = set.n_records < records;
                        snprintf(why, sizeof(why), "next %s, ops '%s'; expected %s, '%s'",
                                 dropped ? "dropped" : sandbox_state_name(sb->state), log_,
                                 x->next == DROPPED ? "dropped" : sandbox_state_name(x->next), x->ops);
                        unit_record("sandbox-table", name,
                                    (x->next == DROPPED ? dropped : !dropped && sb->state == x->next) &&
                                            strcmp(log_, x->ops ? x->ops : "") == 0,
                                    why);
                        CHECK("sandbox-table", name, sandbox_next_state((enum sandbox_state)s, (enum sandbox_event)ev) ==
                                                             (x->next == DROPPED ? SB_N_STATES : x->next) ||
                                                     (ev == EV_LAUNCHER_GONE && x->next == DROPPED &&
                                                      sandbox_next_state((enum sandbox_state)s, (enum sandbox_event)ev) == SB_EXITED));
                        drop_all();
                }
        CHECK("sandbox-table", "every record freed", set.n_records == 0 && set.n_live == 0 && !set.head);
}

static void test_paths(void)
{
        struct sandbox *sb;
        int sig = SIGKILL;

        /* Stopping after SIGKILL: the timer kills the launcher itself; another Kill adds nothing. */
        sb = make(SB_STOPPING, SIGKILL);
        sandbox_event(sb, EV_TIMER, NULL);
        CHECK("sandbox-paths", "stopping after SIGKILL: timer kills the launcher",
              strcmp(log_, "timer-off,kill-launcher") == 0 && sb->state == SB_STOPPING);
        log_[0] = '\0';
        sandbox_kill(sb, sig);
        CHECK("sandbox-paths", "stopping after SIGKILL: Kill only audited", strcmp(log_, "audit:kill") == 0);
        drop_all();

        /* SIGTERM escalates: Kill(TERM), the grace runs out, SIGKILL, then the launcher. */
        sb = make(SB_RUNNING, 0);
        sandbox_kill(sb, SIGTERM);
        sandbox_event(sb, EV_TIMER, NULL);
        sandbox_event(sb, EV_TIMER, NULL);
        CHECK("sandbox-paths", "SIGTERM escalates to SIGKILL, then the launcher",
              strcmp(log_, "audit:kill,sig:15,timer:5000ms,timer-off,sig:9,timer:2000ms,timer-off,kill-launcher") == 0 &&
                      sb->kill_signal == SIGKILL);
        drop_all();

        /* The launcher's last report arrives while it is reaped: Run is answered, the
         * result kept, the record stays for Wait. */
        sb = make(SB_STARTING, 0);
        nested_report = &allow_report;
        sandbox_event(sb, EV_LAUNCHER_GONE, NULL);
        nested_report = NULL;
        CHECK("sandbox-paths", "decision in the last words: allowed, then exited",
              strcmp(log_, "reap,timer-off,audit:allowed,run,timer-off,audit:exit,waiters,exited") == 0 &&
                      sb->state == SB_EXITED && set.n_live == 0 && set.n_records == 1);
        CHECK("sandbox-paths", "killed before it accounted: the signal is the fate",
              sb->result.signal == SIGKILL && sb->result.status == 128 + SIGKILL);
        drop_all();

        /* A launcher killed by a signal leaves stale cgroups. */
        sb = make(SB_RUNNING, 0);
        sb->have_result = true;
        reap_code = CLD_KILLED;
        sandbox_event(sb, EV_LAUNCHER_GONE, NULL);
        reap_code = CLD_EXITED;
        CHECK("sandbox-paths", "killed launcher: cgroups collected",
              strcmp(log_, "reap,collect,timer-off,audit:exit,waiters,exited") == 0);
        drop_all();

        /* Refused, then gone: no EXITED record is kept (nothing ran). */
        sb = make(SB_STARTING, 0);
        fire(sb, EV_REFUSED);
        sandbox_event(sb, EV_LAUNCHER_GONE, NULL);
        CHECK("sandbox-paths", "refused then gone: waiters answered, record dropped",
              strcmp(log_, "audit:denied,run,reap,timer-off,waiters,timer-off,release") == 0 && set.n_records == 0);

        /* The owner went away: the record goes when the launcher does, no Exited signal. */
        sb = make(SB_RUNNING, 0);
        sandbox_event(sb, EV_DISCONNECT, NULL);
        CHECK("sandbox-paths", "disconnect: owner forgotten", sb->owner == NULL && sb->state == SB_STOPPING);
        log_[0] = '\0';
        sandbox_event(sb, EV_LAUNCHER_GONE, NULL);
        CHECK("sandbox-paths", "disconnected then gone: dropped, no Exited",
              strcmp(log_, "reap,timer-off,audit:exit,waiters,timer-off,release") == 0 && set.n_records == 0);

        /* Shutdown: SIGTERM with the policy's grace, as it stands now. */
        set.grace_ms = 1234;
        sb = make(SB_RUNNING, 0);
        sandbox_event(sb, EV_SHUTDOWN, NULL);
        CHECK("sandbox-paths", "shutdown uses the current grace", strcmp(log_, "audit:kill,sig:15,timer:1234ms") == 0);
        set.grace_ms = 5000;
        drop_all();
}

/* A uid keeps at most 64 ended records: the oldest goes first. */
static void test_exited_limit(void)
{
        char first[sizeof(((struct sandbox *)0)->id)] = "";
        struct sandbox *sb;

        for (int i = 0; i < 65; i++) {
                sb = make(SB_RUNNING, 0);
                sb->have_result = true;
                if (!first[0])
                        memcpy(first, sb->id, sizeof(first));
                sandbox_event(sb, EV_LAUNCHER_GONE, NULL);
        }
        CHECK("sandbox-records", "64 exited kept per uid", set.n_records == 64 && set.n_live == 0);
        CHECK("sandbox-records", "the oldest dropped", sandbox_find(&set, first) == NULL);
        drop_all();
        CHECK("sandbox-records", "names", strcmp(sandbox_state_name(SB_EXITED), "exited") == 0 &&
                                                  strcmp(sandbox_event_name(EV_SIGNAL), "signal") == 0);
}

int main(void)
{
        test_every_row();
        test_paths();
        test_exited_limit();
        return unit_failed ? 1 : 0;
}
