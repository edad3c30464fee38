/* SPDX-License-Identifier: MIT */
/* The launcher: a process forked per sandbox that checks the request as the caller
 * and then runs the same jail pipeline as sbx-run (lib/jail.c), reporting to the
 * daemon over a socketpair.
 *
 * Why fork without exec: the launcher needs the daemon's snapshot of the policy and
 * profiles (the ones in force when the request came, not what is on disk now), and a
 * fork hands it over without a serialization format.  It is as trusted as the daemon,
 * and the first thing it does is drop everything of the daemon's it does not need:
 * every fd but the caller's stdio and its report socket, the bus, the signal setup.
 * The jail's own PID 1 and command then execve away from this image. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/path.h"
#include "../lib/privs.h"
#include "../lib/probe.h"
#include "../lib/tier.h"
#include "../policy/decide.h"
#include "../policy/resolve.h"
#include "asuser.h"
#include "launch.h"

enum { REPORT_DECIDED = 1, REPORT_RESULT = 2 };
#define CTL_FD 3
#define AUDIT_FD 5

/* ---- launcher (child) -------------------------------------------------------------- */

static void report(const struct launch_report *r)
{
        (void)send(CTL_FD, r, sizeof(*r), MSG_NOSIGNAL);
}

/* What a refusal must undo: the mount points filesystem.git made as the caller. */
static struct sbx_profile *undo_profile;
static struct sbx_caller *undo_caller;

_Noreturn static void refuse(struct launch_report *r, bool failed, const struct sbx_error *e, const char *why)
{
        if (undo_profile && undo_caller && undo_caller->open)
                sbx_git_finish(undo_profile, undo_caller, NULL);
        r->type = REPORT_DECIDED;
        r->allow = false;
        r->failed = failed;
        if (e)
                r->err = *e;
        if (why)
                snprintf(r->reason, sizeof(r->reason), "%s", why);
        else if (e)
                sbx_error_format(e, r->reason, sizeof(r->reason));
        report(r);
        _exit(0);
}

/* fds 0-2 become the caller's stdio, 3 the report socket, 4 the workspace, 5 the
 * audit file where there is one (AUDIT_FD); nothing else stays. */
static int take_fds(const struct launch *l, int ctl)
{
        int keep[6] = { l->stdio[0], l->stdio[1], l->stdio[2], ctl, l->workspace_fd, l->audit_fd };
        int n = l->audit_fd >= 0 ? 6 : 5;
        int high[6];

        /* First above every target, so that no dup2 overwrites a source. */
        for (int i = 0; i < n; i++)
                if ((high[i] = fcntl(keep[i], F_DUPFD, 16)) < 0)
                        return -errno;
        for (int i = 0; i < 4; i++)
                if (dup2(high[i], i) < 0)
                        return -errno;
        if (dup2(high[4], 4) < 0 || (n > AUDIT_FD && dup3(high[AUDIT_FD], AUDIT_FD, O_CLOEXEC) < 0))
                return -errno;
        return (int)syscall(SYS_close_range, n, ~0u, 0);
}

/* The workspace is the caller's fd: the path it names here must lead, as the caller
 * and by lib/path.h's rules, to that same directory (the jail binds by path, after
 * checking the inode again). */
static int workspace_path(struct sbx_caller *caller, char *out, size_t size, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct stat fst, pst;
        int r;

        if (fstat(4, &fst) < 0 || !S_ISDIR(fst.st_mode) || sbx_fd_path(4, out, size, "the workspace fd", e) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOTDIR, "", "", "the workspace fd is not a directory this daemon can reach");
        if ((r = caller->open(caller, out, O_PATH | O_DIRECTORY, SBX_ACCESS_NONE, &fd, e)) < 0)
                return r;
        if (fstat(fd, &pst) < 0 || pst.st_dev != fst.st_dev || pst.st_ino != fst.st_ino)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EXDEV, "", out, "the workspace path names another directory in sandboxd's view");
        return 0;
}

/* Steps 3-4 of the child: the caller's view of the file system, then the decision
 * (policy/decide.h), made as the caller under the site's terms.  Refuses (and exits)
 * unless allowed. */
static void check_request(const struct launch *l, struct sbx_caller *caller, struct sbx_decision *d,
                          struct launch_report *rep)
{
        struct sbx_request *rq = l->rq;
        struct sbx_error e = { 0 };
        struct sbx_diag diag = { 0 };
        struct sbx_vars vars;
        static char *const no_env[] = { NULL };
        const struct sbx_site_policy *sp = &l->config->policy;
        char why[512], floor_where[160] = "";

        /* Root's rights are at least this launcher's: a root caller's paths are opened
         * here (by the same rules); anyone else's by a helper that has become it. */
        if (l->uid == 0)
                *caller = sbx_caller_self;
        else if (asuser_start(l->uid, l->gid, l->groups, l->n_groups, caller, &e) < 0)
                refuse(rep, true, &e, NULL);
        if (workspace_path(caller, rep->workspace, sizeof(rep->workspace), &e) < 0)
                refuse(rep, true, &e, NULL);
        if (sp->min_tier > SBX_TIER_REFUSE)
                snprintf(floor_where, sizeof(floor_where), "%.120s:%u", sp->origin ? sp->origin : SBX_SITE_POLICY_PATH,
                         sp->min_tier_line);
        /* The caller's environment, never ours (an empty one stays empty). */
        if (sbx_vars_init_for(&vars, l->uid, rep->workspace, rq->environ.n ? rq->environ.v : no_env, &diag) < 0) {
                sbx_diag_format(&diag, why, sizeof(why));
                refuse(rep, true, NULL, why);
        }
        sbx_decide(&(struct sbx_decide_in){ .profile = rq->profile,
                                            .store = &l->config->profiles,
                                            .ask = &rq->ask,
                                            .vars = &vars,
                                            .caller = caller,
                                            .tool_use_id = rq->ask.plan.tool_use_id,
                                            .session_id = rq->ask.plan.session_id,
                                            .audit_id = l->id,
                                            .probe = &l->config->probe,
                                            .site = &(struct sbx_site_terms){ .uid = l->uid,
                                                                              .gid = l->gid,
                                                                              .groups = l->groups,
                                                                              .n_groups = l->n_groups,
                                                                              .grant = l->grant,
                                                                              .deny = &l->config->policy.deny,
                                                                              .net = &l->config->policy.net,
                                                                              .hide = l->hide,
                                                                              .n_hide = l->n_hide,
                                                                              .validator = &l->config->policy.validator,
                                                                              .validator_uid = l->config->policy.validator_uid,
                                                                              .validator_gid = l->config->policy.validator_gid,
                                                                              .min_tier = l->config->policy.min_tier,
                                                                              .min_tier_where = floor_where,
                                                                              .rlimit_without_cgroup =
                                                                                      sp->without_cgroup == SBX_WITHOUT_CGROUP_RLIMIT },
                                            .upto = SBX_DECIDE_RUN },
                   d);
        rep->argv_max = d->pr.audit_argv_max;
        rep->validation = d->validation;
        if (d->tiered) {
                snprintf(rep->tier, sizeof(rep->tier), "%s", sbx_tier_name(d->tier.tier));
                sbx_tier_substitutions_text(&d->tier, rep->substitutions, sizeof(rep->substitutions));
        }
        if (d->outcome == SBX_ALLOWED) {
                /* A validator's warning: the command runs, and the caller hears it once,
                 * before, on its own stderr (fd 2 is the caller's). */
                if (d->validation.verdict == SBX_VV_WARN)
                        dprintf(2, "sbx-run: warning: validator '%s' warns: %s\n", d->validation.validator, d->validation.reason);
                return;
        }
        /* A profile that did not load is named by its file:line:col, nothing else; a
         * rule's refusal by its reason; an error by the error. */
        refuse(rep, d->outcome == SBX_FAILED, d->loaded && d->err.errnum ? &d->err : NULL, d->reason);
}

/* Die with the daemon: its death kills us, and with us the jail (its PID 1 dies with
 * its launcher). */
static void die_with(pid_t daemon)
{
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != daemon)
                _exit(1);
}

_Noreturn static void launcher(const struct launch *l, int ctl, pid_t daemon)
{
        struct launch_report rep = { .type = REPORT_DECIDED };
        struct sbx_caller caller = { 0 };
        struct sbx_decision d;
        sigset_t none;
        int r;

        /* 1. Die with the daemon (which may have died already). */
        die_with(daemon);
        /* 2. None of the daemon's fds, signal handling or name. */
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (take_fds(l, ctl) < 0)
                _exit(1);
        /* The jail's open-files limit is the one sandboxd was given, not the one it
         * raised for its connections; this launcher keeps the room. */
        sbx_privs_nofile_room(l->nofile);
        prctl(PR_SET_NAME, "sbx-launcher", 0, 0, 0);
        umask(l->umask); /* the caller's, not sandboxd's */
        /* 3-4. The request as the caller, and every verdict. */
        sbx_decision_init(&d);
        undo_profile = &d.pr;
        undo_caller = &caller;
        check_request(l, &caller, &d, &rep);
        close(4); /* the workspace fd: validation holds what it named */
        rep.allow = true;
        report(&rep);
        /* 5. The jail, supervised from the daemon through the report socket. */
        rep = (struct launch_report){ .type = REPORT_RESULT };
        r = sbx_jail_run_ctl(&d.pr.plan, d.filter, CTL_FD, l->audit_fd >= 0 ? AUDIT_FD : -1, &rep.res, &rep.err);
        rep.res.validation = d.validation;
        if (d.tiered)
                sbx_tier_text_of(&d.tier, &rep.res.tier);
        if (r < 0 && rep.res.status == 0)
                rep.res.status = 125;
        rep.r = r;
        /* filesystem.git, as the caller: a commit's copy back comes before the report
         * (the caller's next git command must see it, and its notes go in the
         * report); removing the mount points can come after, off the caller's wait. */
        if (d.pr.gitstate.n_roots)
                sbx_git_finish(&d.pr, &caller, &rep.res);
        report(&rep);
        sbx_git_finish(&d.pr, &caller, &rep.res);
        asuser_stop(&caller);
        _exit(0);
}

/* ---- daemon (parent) ---------------------------------------------------------------- */

/* Every report the launcher sent so far, in order, fed to supervision. */
static void drain(struct sandbox *sb)
{
        struct launch_report rep;

        while (sb->ctl_fd >= 0 && recv(sb->ctl_fd, &rep, sizeof(rep), MSG_DONTWAIT) == (ssize_t)sizeof(rep)) {
                rep.reason[sizeof(rep.reason) - 1] = '\0';
                rep.workspace[sizeof(rep.workspace) - 1] = '\0';
                rep.tier[sizeof(rep.tier) - 1] = '\0';
                rep.substitutions[sizeof(rep.substitutions) - 1] = '\0';
                if (rep.type == REPORT_DECIDED)
                        sandbox_event(sb, rep.allow ? EV_ALLOWED : EV_REFUSED, &rep);
                else if (rep.type == REPORT_RESULT)
                        sandbox_event(sb, EV_RESULT, &rep);
        }
}

static int on_report(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct sandbox *sb = userdata;

        (void)fd;
        drain(sb);
        /* The launcher closed its end: it is exiting, its pidfd says when. */
        if (revents & (EPOLLHUP | EPOLLERR))
                (void)sd_event_source_set_enabled(s, SD_EVENT_OFF);
        return 0;
}

static int on_exit_(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        (void)s;
        (void)fd;
        (void)revents;
        sandbox_event(userdata, EV_LAUNCHER_GONE, NULL);
        return 0;
}

void launch_signal(struct sandbox *sb, int sig)
{
        if (sb->ctl_fd >= 0)
                (void)send(sb->ctl_fd, &sig, sizeof(sig), MSG_NOSIGNAL | MSG_DONTWAIT);
}

void launch_kill(struct sandbox *sb)
{
        if (sb->pidfd >= 0)
                (void)syscall(SYS_pidfd_send_signal, sb->pidfd, SIGKILL, NULL, 0);
}

static void unwatch(struct sandbox *sb)
{
        sb->pidfd_src = sd_event_source_disable_unref(sb->pidfd_src);
        sb->ctl_src = sd_event_source_disable_unref(sb->ctl_src);
        closep(&sb->pidfd);
        closep(&sb->ctl_fd);
}

void launch_reap(struct sandbox *sb)
{
        siginfo_t si = { 0 };

        drain(sb); /* its last reports first */
        /* The pidfd polled readable: a zombie, reaped here (not by sd-event, which
         * watches the pidfd as plain I/O). */
        (void)waitid(P_PIDFD, (id_t)sb->pidfd, &si, WEXITED);
        sb->launcher_code = si.si_code;
        sb->launcher_status = si.si_status;
        unwatch(sb);
}

void launch_release(struct sandbox *sb)
{
        launch_kill(sb);
        unwatch(sb);
}

int launch_start(struct sandbox *sb, sd_event *event, const struct launch *l, struct sbx_error *e)
{
        _cleanup_(sbx_kill_and_reapp) pid_t pid = -1;
        int sv[2];
        pid_t daemon = getpid();
        int r;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return sbx_error_set(e, SBX_STAGE_LAUNCH, errno, "socketpair", "", "cannot create the launcher's socket");
        pid = fork();
        if (pid < 0) {
                r = sbx_error_set(e, SBX_STAGE_LAUNCH, errno, "fork", "", "cannot start a launcher");
                close(sv[0]);
                close(sv[1]);
                return r;
        }
        if (pid == 0)
                launcher(l, sv[1], daemon);
        close(sv[1]);
        sb->launcher = pid;
        sb->ctl_fd = sv[0];
        /* Our own unreaped child: its pid cannot be reused before we wait for it.  Until
         * it is watched, a failure kills and reaps it (pid's cleanup): nothing else would. */
        sb->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (sb->pidfd < 0)
                return sbx_error_set(e, SBX_STAGE_LAUNCH, errno, "pidfd_open", "", "cannot watch the launcher");
        /* Reports before the exit: a launcher's last words are read before its death. */
        if ((r = sd_event_add_io(event, &sb->ctl_src, sb->ctl_fd, EPOLLIN, on_report, sb)) < 0 ||
            (r = sd_event_source_set_priority(sb->ctl_src, SD_EVENT_PRIORITY_IMPORTANT)) < 0 ||
            (r = sd_event_add_io(event, &sb->pidfd_src, sb->pidfd, EPOLLIN, on_exit_, sb)) < 0)
                return sbx_error_set(e, SBX_STAGE_LAUNCH, -r, "sd_event_add_io", "", "cannot watch the launcher");
        (void)TAKE_PID(pid); /* watched: reaped when its pidfd says it ended */
        return 0;
}
