/* SPDX-License-Identifier: MIT */
/* Runs in sbx-hook: the parent forks, the child decides (loading the profile as the
 * caller, from the same search path as sbx-run) and writes one fixed-size answer on
 * a pipe; the parent takes only a whole answer from a child that exited 0. */
#include "verdict.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../policy/decide.h"

struct answer {
        int decided; /* 1: verdict and reason hold; 0: reason says why not */
        enum hook_verdict verdict;
        char reason[512];
};

static void decide(const struct hook_config *c, const char *flag, const char *command, const char *cwd, struct answer *a)
{
        char *argv[] = { (char *)"/bin/bash", (char *)flag, (char *)command, NULL };
        struct sbx_diag diag = { 0 };
        struct sbx_decision d;
        struct sbx_vars vars;
        struct sbx_ask ask;

        /* The jail's workspace is where the harness runs the command: sbx-run's
         * default, from there. */
        if (cwd && chdir(cwd) < 0) {
                snprintf(a->reason, sizeof(a->reason), "cannot enter the harness's cwd '%.400s': %s", cwd, strerror(errno));
                return;
        }
        if (sbx_vars_init(&vars, NULL, &diag) < 0) {
                sbx_diag_format(&diag, a->reason, sizeof(a->reason));
                return;
        }
        sbx_ask_init(&ask);
        ask.plan.argv = argv;
        sbx_decision_init(&d);
        sbx_decide(&(struct sbx_decide_in){ .profile = c->profile,
                                            .ask = &ask,
                                            .vars = &vars,
                                            .caller = &sbx_caller_self,
                                            .upto = SBX_DECIDE_VERDICT },
                   &d);
        /* As sbx-run maps them: a rule's refusal is a deny (the model learns which
         * rule), anything sbx could not decide is a failure (the hook blocks). */
        snprintf(a->reason, sizeof(a->reason), "%s", d.outcome == SBX_ALLOWED ? d.verdict.reason : d.reason);
        if (d.outcome != SBX_FAILED) {
                a->decided = 1;
                a->verdict = d.outcome == SBX_ALLOWED ? HOOK_ALLOW : HOOK_DENY;
        }
        /* A validator's warning: the command runs (jailed), and the harness asks the
         * user where it can (Claude's "ask"), as sbx-run warns on its stderr. */
        if (d.outcome == SBX_ALLOWED && d.validation.verdict == SBX_VV_WARN) {
                a->verdict = HOOK_WARN;
                snprintf(a->reason, sizeof(a->reason), "validator '%.200s' warns: %.280s", d.validation.validator,
                         d.validation.reason);
        }
        ask.plan.argv = NULL;
        sbx_decision_done(&d);
        sbx_ask_done(&ask);
}

_Noreturn static void child(int fd, const struct hook_config *c, const char *flag, const char *command, const char *cwd)
{
        struct answer a = { 0 };

        /* Dies with the hook (a hook the alarm ended leaves nothing running). */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                _exit(1);
        decide(c, flag, command, cwd, &a);
        _exit(write(fd, &a, sizeof(a)) == (ssize_t)sizeof(a) ? 0 : 1);
}

static int fail(char *why, size_t size, int err, const char *what)
{
        snprintf(why, size, "%s", what);
        return -err;
}

int hook_verdict(const struct hook_config *c, const char *flag, const char *command, const char *cwd,
                 struct hook_result *res, char *why, size_t size)
{
        _cleanup_close_ int rd = -1;
        struct answer a;
        int fds[2], status;
        size_t got = 0;
        pid_t pid;

        if (pipe2(fds, O_CLOEXEC) < 0)
                return fail(why, size, errno, "cannot make a pipe for the policy check");
        fflush(NULL); /* nothing buffered is written twice */
        pid = fork();
        if (pid < 0) {
                close(fds[0]);
                close(fds[1]);
                return fail(why, size, errno, "cannot fork the policy check");
        }
        if (pid == 0) {
                close(fds[0]);
                child(fds[1], c, flag, command, cwd);
        }
        close(fds[1]);
        rd = fds[0];
        while (got < sizeof(a)) {
                ssize_t n = read(rd, (char *)&a + got, sizeof(a) - got);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                got += (size_t)n;
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return fail(why, size, errno, "lost the policy check");
        if (WIFSIGNALED(status)) {
                snprintf(why, size, "the policy check crashed (signal %d)", WTERMSIG(status));
                return -EIO;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof(a))
                return fail(why, size, EIO, "the policy check failed without an answer");
        a.reason[sizeof(a.reason) - 1] = '\0';
        if (!a.decided) {
                snprintf(why, size, "sbx could not decide: %s", a.reason);
                return -EINVAL;
        }
        res->verdict = a.verdict;
        snprintf(res->reason, sizeof(res->reason), "%s", a.reason);
        return 0;
}
