/* SPDX-License-Identifier: MIT */
/* sbx-run: parse, dispatch, map an error to an exit status.  The jail is in lib/. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/audit.h"
#include "../lib/auditfile.h"
#include "../lib/cleanup.h"
#include "../lib/jail.h"
#include "../lib/path.h"
#include "../lib/privs.h"
#include "../policy/decide.h"
#include "../policy/resolve.h"
#include "client.h"
#include "doctor.h"
#include "options.h"
#include "summary.h"

#ifndef SBX_VERSION
#define SBX_VERSION "0.1"
#endif

#define EXIT_SBX_FAILED 125
#define EXIT_DENIED 126

/* With fd 0, 1 or 2 closed, the next file we open would take its number and the
 * jail would inherit it as stdio: fill the gaps with /dev/null first. */
static int ensure_stdio(void)
{
        for (int fd = 0; fd < 3; fd++) {
                if (fcntl(fd, F_GETFD) >= 0)
                        continue;
                int n = open("/dev/null", O_RDWR);
                if (n < 0)
                        return -errno;
                if (n != fd)
                        return -EBADF;
        }
        return 0;
}

/* Where the failing step named no remedy, the stage's usual one: every error line
 * says how to fix it. */
static void default_hint(struct sbx_error *e)
{
        static const char *const hints[_SBX_STAGE_MAX] = {
                [SBX_STAGE_OPTIONS] = "see sbx-run --help",
                [SBX_STAGE_PROFILE] = "see sbx-profile(5); sbx-run --profile NAME --dry-run -- CMD shows the resolved plan",
                [SBX_STAGE_VALIDATE] = "check the paths given to --workspace, --ro and --rw",
                [SBX_STAGE_MOUNT] = "check the bind paths (sbx-run --dry-run shows the plan); the kernel must allow mounts in a new mount namespace",
                [SBX_STAGE_NET] = "use --net host if this kernel cannot configure a new network namespace",
                [SBX_STAGE_CGROUP] = "drop --memory/--pids, or run where a cgroup can be created",
                [SBX_STAGE_USERNS] = "run as root, or enable unprivileged user namespaces",
                [SBX_STAGE_CLONE] = "the kernel refused new namespaces: run as root, or check the container's seccomp profile",
                [SBX_STAGE_LANDLOCK] = "boot a kernel with Landlock (lsm=landlock,...)",
                [SBX_STAGE_SECCOMP] = "the kernel must support seccomp filters (CONFIG_SECCOMP_FILTER)",
                [SBX_STAGE_PRIVS] = "sbx-run needs the capabilities it drops (root, or a user namespace)",
                [SBX_STAGE_EXEC] = "check the command's name, its permissions, and that the jail can see it",
                [SBX_STAGE_VALIDATOR] = "see sbx-profile(5) VALIDATOR",
                [SBX_STAGE_TIER] = "sbx-run --doctor shows what this environment allows; see sbx-run(1) ISOLATION TIERS",
        };

        if (e->hint[0])
                return;
        if ((unsigned)e->stage < ELEMENTSOF(hints) && hints[e->stage]) {
                sbx_error_hint(e, "%s", hints[e->stage]);
                return;
        }
        sbx_error_hint(e, "see sbx-run(1)");
}

static void print_error(struct sbx_error *e)
{
        char msg[1024];

        default_hint(e);
        sbx_error_format(e, msg, sizeof(msg));
        fprintf(stderr, "sbx-run: %s\n", msg);
}

/* @o: the options, for --json and its tags; @v: what the validators said (NULL:
 * none asked). */
static int fail_v(struct sbx_error *e, const struct sbx_options *o, int status, const struct sbx_validation *v)
{
        struct sbx_result res = { .status = status, .exit_code = -1 };

        if (v)
                res.validation = *v;
        print_error(e);
        if (o->json)
                sbx_summary_print(stderr, &res, e, &o->ask.plan, o->tier);
        return status;
}

static int fail(struct sbx_error *e, const struct sbx_options *o, int status)
{
        return fail_v(e, o, status, NULL);
}

/* The command policy's verdict: --check prints it; a denied run stops here. */
static int print_verdict(const struct sbx_verdict *v, FILE *f)
{
        fprintf(f, "%s: %s\n", v->allow ? "allow" : "deny", v->reason);
        return v->allow ? 0 : EXIT_DENIED;
}

/* Direct mode's records go to the journal and, with --audit-file/--audit-fd, to this
 * fd as JSON lines (lib/auditfile.h).  One per process: main() sets it. */
static struct sbx_audit_sink audit_sink = { .fd = -1 };

static int audit(enum sbx_audit_event ev, const struct sbx_audit *a)
{
        return sbx_audit_emit(ev, a, &audit_sink);
}

static bool rw_source(const struct sbx_plan *p, const struct stat *st)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (p->mounts[i].kind == SBX_MOUNT_RW && p->mounts[i].dev == st->st_dev && p->mounts[i].ino == st->st_ino)
                        return true;
        return false;
}

/* 1 when the jail could write the audit file @fd: its inode, or a directory it lies in
 * (walked up by fd, so symlinks and bind mounts on the host's side change nothing), is
 * the source of a read-write bind of @p -- the command could then erase or forge the
 * records of its own run.  0 when not (or not a file: a pipe, a terminal); -errno. */
static int audit_in_reach(int fd, const struct sbx_plan *p)
{
        _cleanup_close_ int dir = -1;
        char link[64], path[PATH_MAX];
        struct stat st;
        ssize_t n;
        char *slash;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return 0;
        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        if ((n = readlink(link, path, sizeof(path) - 1)) < 0)
                return -errno;
        path[n] = '\0';
        if (path[0] != '/' || !(slash = strrchr(path, '/')))
                return 0; /* deleted, or not a file system's: no name to reach it by */
        slash[slash == path] = '\0';
        dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dir < 0)
                return errno == ENOENT ? 0 : -errno;
        for (;;) {
                struct stat up;
                int parent;

                if (rw_source(p, &st))
                        return 1;
                if (fstat(dir, &st) < 0)
                        return -errno;
                if (rw_source(p, &st))
                        return 1;
                parent = openat(dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (parent < 0)
                        return -errno;
                if (fstat(parent, &up) < 0 || (up.st_dev == st.st_dev && up.st_ino == st.st_ino)) {
                        close(parent);
                        return 0; /* the root */
                }
                close(dir);
                dir = parent;
        }
}

/* --audit-file/--audit-fd: direct mode's, opened before anything is decided (through
 * sandboxd, sandboxd writes the records, to its own journal and file). */
static int open_audit(const struct sbx_options *o, bool daemon)
{
        struct sbx_error e = { 0 };
        int fd, r;

        if (!o->audit_file && o->audit_fd < 0)
                return 0;
        if (daemon) {
                sbx_error_set(&e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s: through sandboxd, sandboxd writes the audit records",
                              o->audit_file ? "--audit-file" : "--audit-fd");
                sbx_error_hint(&e, "add --direct to make the jail here, or read sandboxd's records (sandboxd --audit-file)");
                return fail(&e, o, EXIT_SBX_FAILED);
        }
        fd = o->audit_file ? sbx_audit_file_open(o->audit_file, &e) : sbx_audit_fd_take(o->audit_fd, &e);
        if (fd < 0)
                return fail(&e, o, EXIT_SBX_FAILED);
        if ((r = sbx_audit_shared(fd, (const int[]){ 0, 1, 2 }, 3)) != 3) {
                static const char *const names[] = { "stdin", "stdout", "stderr" };

                if (r >= 0) {
                        sbx_error_set(&e, SBX_STAGE_OPTIONS, EPERM, "", o->audit_file ? o->audit_file : "",
                                      "the audit %s is the command's %s too: it could forge or cut records there",
                                      o->audit_file ? "file" : "fd", names[r]);
                        sbx_error_hint(&e, "give the audit records a file or pipe of their own (e.g. --audit-fd 7 7>>FILE), "
                                           "not the one the command writes to");
                } else {
                        sbx_error_set(&e, SBX_STAGE_OPTIONS, -r, "fstat", "", "cannot look at the audit fd");
                }
                if (fd != o->audit_fd)
                        close(fd);
                return fail(&e, o, EXIT_SBX_FAILED);
        }
        audit_sink.fd = fd;
        return 0;
}

/* @a: the audit record of a run (NULL for --dry-run, which decides nothing). */
static int denied(const struct sbx_verdict *v, const struct sbx_options *o, struct sbx_audit *a)
{
        struct sbx_error e = { 0 };

        if (a) {
                a->reason = v->reason;
                audit(SBX_AUDIT_DENIED, a);
        }
        sbx_error_set(&e, SBX_STAGE_POLICY, EPERM, "", "", "command denied by the profile's command policy: %s", v->reason);
        sbx_error_hint(&e, "sbx-run --check shows the verdict; change the command, or use a profile that allows it");
        return fail(&e, o, EXIT_DENIED);
}

/* A validator blocked the command, or could not answer (fail closed): 126, the reason
 * on stderr, in --json and (@a: a run's record) in the journal. */
static int validator_denied(const struct sbx_options *o, struct sbx_decision *d, struct sbx_audit *a)
{
        struct sbx_error e = { 0 };

        if (a) {
                a->reason = d->reason;
                audit(SBX_AUDIT_DENIED, a);
        }
        sbx_error_set(&e, SBX_STAGE_VALIDATOR, EPERM, "", "", "%s", d->reason);
        if (d->validation.verdict == SBX_VV_BLOCK)
                sbx_error_hint(&e, "the validator's reason says why: change the command, or ask whoever runs the validator");
        else
                sbx_error_hint(&e, "fix the validator or its validator.command (sbx-profile(5) VALIDATOR): every command is refused while it cannot answer");
        return fail_v(&e, o, EXIT_DENIED, &d->validation);
}

/* --check: the command policy's verdict, then the validators'. */
static int check_verdict(const struct sbx_decision *d, FILE *f)
{
        int r;

        if (d->at == SBX_AT_VALIDATOR) {
                fprintf(f, "deny: %s\n", d->reason);
                return EXIT_DENIED;
        }
        r = print_verdict(&d->verdict, f);
        if (r == 0 && d->validation.verdict == SBX_VV_WARN)
                fprintf(f, "warn: validator '%s': %s\n", d->validation.validator, d->validation.reason);
        return r;
}

/* filesystem.git's notes: what the run did not carry back to the host's git. */
static void print_notes(const char *notes)
{
        for (const char *s = notes; *s;) {
                size_t len = strcspn(s, "\n");

                fprintf(stderr, "sbx-run: note: %.*s\n", (int)len, s);
                s += len + (s[len] == '\n');
        }
}

static enum sbx_decide_upto upto(enum sbx_action action)
{
        return action == SBX_ACTION_CHECK ? SBX_DECIDE_VERDICT : action == SBX_ACTION_DRY_RUN ? SBX_DECIDE_PLAN : SBX_DECIDE_RUN;
}

/* The jail, for an allowed decision; the exit status and the audit record's end. */
static int run_allowed(struct sbx_options *o, struct sbx_decision *d, const struct sbx_audit *allowed)
{
        struct sbx_audit a = *allowed;
        struct sbx_error e = { 0 };
        struct sbx_result res;
        int r;

        sbx_result_init(&res, EXIT_SBX_FAILED);
        r = sbx_jail_run(&d->pr.plan, d->filter, audit_sink.fd, &res, &e);
        sbx_git_finish(&d->pr, &sbx_caller_self, &res);
        res.validation = d->validation;
        print_notes(res.notes);
        /* sbx's own failure (125), or the command's exec failure (126/127): both
         * are one line that says what and how to fix it. */
        if (e.errnum)
                print_error(&e);
        sbx_summary_note(stderr, &res, &d->pr.plan);
        if (r < 0 && res.status == 0)
                res.status = EXIT_SBX_FAILED;
        a.result = &res;
        a.error = e.errnum ? &e : NULL;
        audit(r < 0 ? SBX_AUDIT_FAILED : SBX_AUDIT_EXIT, &a);
        if (o->json)
                sbx_summary_print(stderr, &res, e.errnum ? &e : NULL, &o->ask.plan, o->tier);
        return res.status;
}

/* Parse -> decide -> audit -> run -> map the result. */
static int run_jail(struct sbx_options *o, struct sbx_decision *d)
{
        struct sbx_vars vars;
        struct sbx_diag diag = { 0 };
        struct sbx_error e = { 0 };
        const char *ws = o->ask.plan.workspace;
        char id[SBX_AUDIT_ID_SIZE];
        struct sbx_audit a;
        static struct sbx_probe probe;
        char subs[SBX_TIER_SUBS_TEXT_MAX];
        int r;

        if (sbx_vars_init(&vars, ws, &diag) < 0) {
                sbx_error_set(&e, SBX_STAGE_VALIDATE, ENOENT, "", ws ? ws : "", "%s", diag.msg);
                sbx_error_hint(&e, "--workspace must name an existing directory");
                return fail(&e, o, EXIT_SBX_FAILED);
        }
        /* The run's id, in the plan before it is validated (the broker's records name
         * it) and in every audit record of the run. */
        sbx_audit_id_new(id);
        /* What this environment allows, for the tier (a run only: --dry-run shows the
         * profile's plan, --check the verdict). */
        if (o->action == SBX_ACTION_RUN) {
                struct rlimit nofile;

                sbx_probe_run(&probe);
                /* Room for an fd per mount while the jail is built; the command gets
                 * the caller's soft limit back. */
                if (getrlimit(RLIMIT_NOFILE, &nofile) == 0)
                        sbx_privs_nofile_room(nofile.rlim_cur);
        }
        sbx_decide(&(struct sbx_decide_in){ .profile = o->profile,
                                            .ask = &o->ask,
                                            .vars = &vars,
                                            .caller = &sbx_caller_self,
                                            .tool_use_id = o->ask.plan.tool_use_id,
                                            .session_id = o->ask.plan.session_id,
                                            .audit_id = o->action == SBX_ACTION_RUN ? id : NULL,
                                            .probe = o->action == SBX_ACTION_RUN ? &probe : NULL,
                                            .upto = upto(o->action) },
                   d);
        /* Loading and narrowing the profile decide nothing yet: sbx failed. */
        if (d->at == SBX_AT_PROFILE)
                return fail(&d->err, o, EXIT_SBX_FAILED);
        if ((d->at == SBX_AT_COMMANDS || d->at == SBX_AT_VALIDATOR) && d->outcome == SBX_FAILED)
                return fail(&d->err, o, EXIT_SBX_FAILED);
        if (o->action == SBX_ACTION_CHECK)
                return check_verdict(d, stdout);
        if (o->action == SBX_ACTION_DRY_RUN) {
                if (d->outcome == SBX_DENIED && d->at == SBX_AT_COMMANDS)
                        return denied(&d->verdict, o, NULL);
                if (d->at == SBX_AT_VALIDATOR)
                        return validator_denied(o, d, NULL);
                if (d->outcome != SBX_ALLOWED)
                        return fail(&d->err, o, EXIT_SBX_FAILED);
                sbx_profile_to_json(&d->pr, stdout);
                return fflush(stdout) == 0 ? 0 : EXIT_SBX_FAILED;
        }
        /* A run is audited from the verdict on: DENIED, or ALLOWED and then EXIT or
         * FAILED, under one id, to the journal and the audit file.  No fallback: with
         * neither, direct mode writes no audit line, since stderr belongs to the
         * command. */
        a = (struct sbx_audit){
                .id = id,
                .mode = "direct",
                .profile = d->pr.plan.name,
                .uid = getuid(),
                .gid = getgid(),
                .pid = getpid(),
                .argv = d->pr.plan.argv,
                .argv_max = d->pr.audit_argv_max,
                .cwd = d->pr.plan.workspace, /* validation put the canonical path in */
                .tool_use_id = o->ask.plan.tool_use_id,
                .session_id = o->ask.plan.session_id,
                .validation = &d->validation,
        };
        if (d->at == SBX_AT_COMMANDS)
                return denied(&d->verdict, o, &a);
        if (d->at == SBX_AT_VALIDATOR)
                return validator_denied(o, d, &a);
        /* A warning: the command runs, and the warning is said once, before it. */
        if (d->validation.verdict == SBX_VV_WARN)
                fprintf(stderr, "sbx-run: warning: validator '%s' warns: %s\n", d->validation.validator, d->validation.reason);
        /* Validation is the second half of the decision: a plan whose paths leave the
         * policy's roots, or do not resolve, is refused, before any jail exists. */
        if (d->at == SBX_AT_VALIDATE) {
                a.reason = d->err.msg;
                a.error = &d->err;
                audit(SBX_AUDIT_DENIED, &a);
                return fail(&d->err, o, EXIT_SBX_FAILED);
        }
        if (audit_sink.fd >= 0 && (r = audit_in_reach(audit_sink.fd, &d->pr.plan)) != 0) {
                if (r > 0)
                        sbx_error_set(&e, SBX_STAGE_VALIDATE, EPERM, "", "", "the audit file is inside a read-write bind of the jail, which could erase or forge its records");
                else
                        sbx_error_set(&e, SBX_STAGE_VALIDATE, -r, "", "", "cannot tell where the audit file is");
                sbx_error_hint(&e, "put the audit file outside the workspace and every --rw bind");
                a.reason = e.msg;
                a.error = &e;
                audit(SBX_AUDIT_DENIED, &a);
                return fail(&e, o, EXIT_SBX_FAILED);
        }
        /* What kind of jail this environment can make of it, in the record (below the
         * floor: ALLOWED, then FAILED with the remedy, as any failure to build it). */
        if (d->tiered) {
                o->tier = &d->tier;
                sbx_tier_substitutions_text(&d->tier, subs, sizeof(subs));
                a.tier = sbx_tier_name(d->tier.tier);
                a.substitutions = subs;
        }
        /* An audit file asked for and not written: nothing runs unrecorded. */
        if ((r = audit(SBX_AUDIT_ALLOWED, &a)) < 0 && audit_sink.fd >= 0) {
                e = (struct sbx_error){ 0 };
                sbx_error_set(&e, SBX_STAGE_OPTIONS, -r, "write", o->audit_file ? o->audit_file : "", "cannot write the audit record");
                sbx_error_hint(&e, "check the audit file's file system (full? read-only?)");
                return fail(&e, o, EXIT_SBX_FAILED);
        }
        if (d->outcome != SBX_ALLOWED) {
                a.error = &d->err;
                audit(SBX_AUDIT_FAILED, &a);
                return fail(&d->err, o, EXIT_SBX_FAILED);
        }
        return run_allowed(o, d, &a);
}

static int run(struct sbx_options *o)
{
        struct sbx_decision d;
        int status;

        sbx_decision_init(&d);
        status = run_jail(o, &d);
        /* Whatever way it ended (refused, --check, --dry-run): the mount points
         * filesystem.git made are removed. */
        sbx_git_finish(&d.pr, &sbx_caller_self, NULL);
        sbx_decision_done(&d);
        o->tier = NULL; /* it pointed into the decision */
        return status;
}

/* The current directory, canonical, when it lies strictly below --workspace's
 * directory: the command starts there (the workspace binds at its own path, so it is
 * the same path in the jail), through sandboxd too ("workdir").  Both are opened with
 * lib/path.h's rules, so a symlink in the workspace cannot pass a directory outside
 * it for one inside.  With --workspace-contains-cwd, a current directory that is not
 * inside the workspace (or cannot be found) is refused: sbx-hook's rewrites run where
 * the harness, or the model, says, and the workspace must not follow. */
static int start_dir(struct sbx_options *o, struct sbx_error *e)
{
        const char *ws = o->ask.plan.workspace;
        char wreal[PATH_MAX], cwd[PATH_MAX], real[PATH_MAX];
        struct sbx_error ignored = { 0 };
        _cleanup_close_ int wfd = -1, cfd = -1;
        const char *why = NULL;

        if (!ws) /* the workspace is the current directory */
                return 0;
        /* A workspace that does not open: validation says why, later. */
        if (sbx_path_open(ws, O_PATH | O_DIRECTORY, &wfd, wreal, sizeof(wreal), &ignored) < 0)
                return 0;
        if (!getcwd(cwd, sizeof(cwd)) || cwd[0] != '/')
                why = "cannot find the current directory (deleted?)";
        else if (sbx_path_open(cwd, O_PATH | O_DIRECTORY, &cfd, real, sizeof(real), &ignored) < 0)
                why = "the current directory does not open without following a symlink";
        else if (sbx_path_is_under(real, wreal))
                return strcmp(real, wreal) == 0 ? 0 : sbx_option_set(&o->ask, sbx_option_by_bus("workdir"), "workdir", real, e);
        if (!o->workspace_contains_cwd)
                return 0;
        if (why)
                sbx_error_set(e, SBX_STAGE_OPTIONS, ENOENT, "", "", "--workspace-contains-cwd: %s, so it is not inside the workspace '%s'",
                              why, wreal);
        else
                sbx_error_set(e, SBX_STAGE_OPTIONS, EXDEV, "", real, "--workspace-contains-cwd: the current directory '%s' is not inside the workspace '%s'",
                              real, wreal);
        sbx_error_hint(e, "run it from the workspace or a directory below it, or give the directory it runs in as --workspace");
        return -EXDEV;
}

/* The signals this process ignores, as its caller left them (nohup's SIGHUP, a
 * background job's SIGINT): the command inherits them, as it would across execve.
 * sbx-run sets no disposition of its own before this. */
static uint64_t ignored_signals(void)
{
        uint64_t mask = 0;
        struct sigaction sa;

        for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
                if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
                        mask |= 1ull << (sig - 1);
        return mask;
}

int main(int argc, char **argv)
{
        uint64_t ignored = ignored_signals();
        struct sbx_options o;
        struct sbx_error e = { 0 };
        int r;

        if (ensure_stdio() < 0)
                return EXIT_SBX_FAILED;
        r = sbx_options_parse(argc, argv, &o, &e);
        if (r >= 0 && ignored)
                r = sbx_option_set_u64(&o.ask, sbx_option_by_bus("ignored_signals"), ignored, &e);
        if (r < 0) {
                r = fail(&e, &o, EXIT_SBX_FAILED);
                sbx_options_done(&o);
                return r;
        }
        switch (o.action) {
        case SBX_ACTION_HELP:
                sbx_usage_print(stdout);
                r = 0;
                break;
        case SBX_ACTION_VERSION:
                puts("sbx-run " SBX_VERSION);
                r = 0;
                break;
        case SBX_ACTION_LIST_PROFILES:
                r = sbx_profile_list(stdout) < 0 ? EXIT_SBX_FAILED : 0;
                break;
        case SBX_ACTION_DOCTOR:
                r = sbx_doctor(&o, stdout, &e);
                if (r == EXIT_SBX_FAILED && e.errnum)
                        print_error(&e);
                break;
        case SBX_ACTION_CHECK:
        case SBX_ACTION_DRY_RUN:
        case SBX_ACTION_RUN:
                if (start_dir(&o, &e) < 0) {
                        r = fail(&e, &o, EXIT_SBX_FAILED);
                        break;
                }
                if (o.action == SBX_ACTION_RUN && (r = open_audit(&o, sbx_options_use_daemon(&o))) != 0)
                        break;
                if (sbx_options_use_daemon(&o)) {
                        r = sbx_client_run(&o);
                        break;
                }
                r = run(&o);
                break;
        }
        sbx_options_done(&o);
        return r;
}
