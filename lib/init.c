/* SPDX-License-Identifier: MIT */
/* PID 1 of the jail, after the command was forked; capabilities already dropped.
 * All signals stay blocked and are taken with sigwaitinfo(): a blocked signal is
 * queued even for a PID 1 (unblocked with SIG_DFL it would be dropped), and there is
 * no handler code to reason about. */
#include "init.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sync.h"

_Noreturn void sbx_init_run(pid_t command, int sync_fd)
{
        sigset_t all;

        sigfillset(&all);
        for (;;) {
                siginfo_t si;
                int sig = sigwaitinfo(&all, &si);

                if (sig < 0)
                        continue; /* EINTR */
                if (sig != SIGCHLD) {
                        /* From the launcher (forwarding the caller's ^C, TERM…) or from
                         * inside; either way it is for the command. */
                        (void)kill(command, sig);
                        continue;
                }
                for (;;) {
                        int status;
                        pid_t pid = waitpid(-1, &status, WNOHANG);

                        if (pid <= 0)
                                break;
                        if (pid == command) {
                                struct sbx_msg m = { .type = SBX_MSG_EXIT, .wstatus = status };
                                sbx_sync_send(sync_fd, &m);
                                _exit(0);
                        }
                }
        }
}
