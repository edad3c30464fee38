/* SPDX-License-Identifier: MIT */
#include "exec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *env_get(char *const envp[], const char *name)
{
        size_t len = strlen(name);

        for (; envp && *envp; envp++)
                if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
                        return *envp + len + 1;
        return NULL;
}

int sbx_exec(char *const argv[], char *const envp[], struct sbx_error *e)
{
        const char *path = env_get(envp, "PATH");
        const char *cmd = argv[0];
        char buf[4096];
        int first_error = 0;

        if (strchr(cmd, '/')) {
                execve(cmd, argv, envp);
                return sbx_error_set(e, SBX_STAGE_EXEC, errno, "execve", cmd, "cannot run command");
        }
        for (const char *dir = path ? path : ""; path;) {
                const char *end = strchrnul(dir, ':');
                int n = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(end - dir), dir, end == dir ? "" : "/", cmd);

                if (n > 0 && (size_t)n < sizeof(buf)) {
                        execve(buf, argv, envp);
                        /* Like execvp: a directory without it is no answer; a found but
                         * unrunnable file is remembered, and wins over "not found". */
                        if (errno != ENOENT && errno != ENOTDIR && !first_error)
                                first_error = errno;
                }
                if (*end == '\0')
                        break;
                dir = end + 1;
        }
        if (first_error)
                return sbx_error_set(e, SBX_STAGE_EXEC, first_error, "execve", cmd, "cannot run command");
        sbx_error_set(e, SBX_STAGE_EXEC, ENOENT, "execve", cmd, "command not found in the jail's PATH");
        sbx_error_hint(e, "PATH inside is '%s'; the jail sees /usr, the workspace and what --ro/--rw add", path ? path : "");
        return -ENOENT;
}

int sbx_exec_session(const struct sbx_plan *p, struct sbx_error *e)
{
        struct sigaction dfl = { .sa_handler = SIG_DFL }, ign = { .sa_handler = SIG_IGN };
        const char *cwd = p->workdir ? p->workdir : p->workspace_mode != SBX_WS_NONE ? p->workspace : "/";
        sigset_t none;

        if (setsid() < 0)
                return sbx_error_set(e, SBX_STAGE_SESSION, errno, "setsid", "", "cannot start a session");
        for (int sig = 1; sig < NSIG; sig++)
                (void)sigaction(sig, sig <= 64 && (p->sig_ignored >> (sig - 1)) & 1 ? &ign : &dfl, NULL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (chdir(cwd) < 0)
                return sbx_error_set(e, SBX_STAGE_EXEC, errno, "chdir", cwd, "cannot enter the working directory");
        return 0;
}
