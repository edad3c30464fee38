/* SPDX-License-Identifier: MIT */
/* sbx-sh: a drop-in for sh that runs what it is given inside sbx-run, for the tools
 * that let you choose the shell and nothing else: SHELL=, make SHELL=, sshd's
 * ForceCommand, a container's CMD, an agent without hooks.  It execs sbx-run (found
 * beside itself), so the exit status is sbx-run's, exactly: the command's, 128+N for a
 * signal, 124-127 for sbx's own refusals.  Nothing ever runs outside the jail: when
 * sbx-run cannot be run, sbx-sh fails. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

#ifndef SBX_BINDIR
#define SBX_BINDIR "/usr/local/bin"
#endif

/* sbx-run beside this program (its real path, so that a symlink named sh in PATH
 * still finds it), else the installed one. */
static void find_run(char *out, size_t size)
{
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        char *slash;

        if (n > 0) {
                self[n] = '\0';
                slash = strrchr(self, '/');
                if (slash) {
                        *slash = '\0';
                        snprintf(out, size, "%s/sbx-run", self);
                        if (access(out, X_OK) == 0)
                                return;
                }
        }
        snprintf(out, size, "%s/sbx-run", SBX_BINDIR);
}

int main(int argc, char **argv)
{
        static struct sbx_dropin o;
        char run[PATH_MAX + 16];
        char *pass = getenv("SBX_SH_PASS");

        if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "--version") == 0)) {
                printf("usage: sbx-sh [sh options] -c COMMAND [NAME [ARGS...]]\n"
                       "       sbx-sh [sh options] SCRIPT [ARGS...]\n"
                       "Runs the command like sh, inside sbx-run --profile \"${SBX_PROFILE:-workspace}\"\n"
                       "with the current directory as the workspace; -l and bash's long options run\n"
                       "/bin/bash, others /bin/sh.  With no arguments, SSH_ORIGINAL_COMMAND (sshd's\n"
                       "ForceCommand) is run; an interactive shell is refused.  SBX_SH_PASS names\n"
                       "variables to pass into the jail.  The exit status is sbx-run's.  See sbx-sh(1).\n");
                return 0;
        }
        find_run(run, sizeof(run));
        switch (sbx_dropin_parse(argc, argv, getenv("SBX_PROFILE"), pass, getenv("SSH_ORIGINAL_COMMAND"), isatty(0) == 1, run,
                             &o)) {
        case SBX_DROPIN_USAGE:
                fprintf(stderr, "sbx-sh: %s (usage: sbx-sh -c COMMAND [NAME [ARGS...]])\n", o.why);
                return 2;
        case SBX_DROPIN_INTERACTIVE:
                fprintf(stderr, "sbx-sh: no interactive shell: give a command with -c COMMAND, or start a jailed shell with "
                                "sbx-run -- /bin/bash\n");
                return 2;
        case SBX_DROPIN_RUN:
                break;
        }
        execv(o.argv[0], (char *const *)o.argv);
        /* Never a fallback to an unjailed shell: without sbx-run nothing runs. */
        fprintf(stderr, "sbx-sh: cannot run '%s': %s (install sbx-run beside sbx-sh; nothing was run)\n", o.argv[0],
                strerror(errno));
        return errno == ENOENT ? 127 : 126;
}
