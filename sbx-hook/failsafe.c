/* SPDX-License-Identifier: MIT */
#include "failsafe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hook.h"

/* An answer is a JSON object of a few kilobytes; more is not one. */
#define FAILSAFE_MAX_ANSWER (1u << 20)

static pid_t worker = -1;

_Noreturn static void blocked(const char *why)
{
        dprintf(STDERR_FILENO, "sbx-hook: %s (the call is blocked)\n", why);
        _exit(HOOK_EXIT_BLOCK);
}

/* The child's own budget runs out first (it exits 2); this one is for a child that
 * cannot act on it (stopped, or stuck in the kernel). */
static void on_alarm(int sig)
{
        static const char msg[] = "sbx-hook: no answer within the budget (the call is blocked)\n";

        (void)sig;
        if (worker > 0)
                kill(worker, SIGKILL);
        (void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
        _exit(HOOK_EXIT_BLOCK);
}

static void write_all(const char *buf, size_t len)
{
        while (len) {
                ssize_t n = write(STDOUT_FILENO, buf, len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        blocked("cannot write the answer");
                buf += n;
                len -= (size_t)n;
        }
}

void hook_failsafe_split(void)
{
        static char answer[FAILSAFE_MAX_ANSWER];
        size_t len = 0;
        char why[96];
        int p[2], status;

        if (pipe2(p, O_CLOEXEC) < 0 || (worker = fork()) < 0)
                blocked("cannot start its work");
        if (worker == 0) {
                if (dup2(p[1], STDOUT_FILENO) < 0)
                        blocked("cannot start its work");
                close(p[0]);
                close(p[1]);
                return;
        }
        close(p[1]);
        close(STDIN_FILENO); /* the child's to read */
        signal(SIGALRM, on_alarm);
        alarm(HOOK_BUDGET_SECONDS + 2);
        for (;;) {
                ssize_t n = read(p[0], answer + len, sizeof(answer) - len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 || (n > 0 && (len += (size_t)n) == sizeof(answer))) {
                        kill(worker, SIGKILL);
                        blocked(n < 0 ? "cannot read its own answer" : "its answer is too long");
                }
                if (n == 0)
                        break;
        }
        while (waitpid(worker, &status, 0) < 0)
                if (errno != EINTR)
                        blocked("lost its work");
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                write_all(answer, len);
                _exit(0);
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == HOOK_EXIT_BLOCK)
                _exit(HOOK_EXIT_BLOCK); /* it said why */
        if (WIFSIGNALED(status))
                snprintf(why, sizeof(why), "crashed (signal %d: %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
                snprintf(why, sizeof(why), "exited %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        blocked(why);
}
