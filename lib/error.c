/* SPDX-License-Identifier: MIT */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const stage_names[_SBX_STAGE_MAX] = {
        [SBX_STAGE_NONE] = "",
        [SBX_STAGE_OPTIONS] = "options",
        [SBX_STAGE_PROFILE] = "profile",
        [SBX_STAGE_POLICY] = "policy",
        [SBX_STAGE_PLAN] = "plan",
        [SBX_STAGE_VALIDATE] = "validate",
        [SBX_STAGE_GIT] = "git",
        [SBX_STAGE_CGROUP] = "cgroup",
        [SBX_STAGE_CLONE] = "clone",
        [SBX_STAGE_USERNS] = "userns",
        [SBX_STAGE_UTS] = "uts",
        [SBX_STAGE_NET] = "net",
        [SBX_STAGE_MOUNT] = "mount",
        [SBX_STAGE_INIT] = "init",
        [SBX_STAGE_SESSION] = "session",
        [SBX_STAGE_PRIVS] = "privs",
        [SBX_STAGE_LANDLOCK] = "landlock",
        [SBX_STAGE_SECCOMP] = "seccomp",
        [SBX_STAGE_EXEC] = "exec",
        [SBX_STAGE_SUPERVISE] = "supervise",
        [SBX_STAGE_REQUEST] = "request",
        [SBX_STAGE_LAUNCH] = "launch",
        [SBX_STAGE_LISTEN] = "listen",
        [SBX_STAGE_SANDBOXD] = "sandboxd",
        [SBX_STAGE_VALIDATOR] = "validator",
        [SBX_STAGE_TIER] = "tier",
};

const char *sbx_stage_name(enum sbx_stage stage)
{
        /* Unsigned: a negative value from a socket is out of range too. */
        if ((unsigned)stage >= _SBX_STAGE_MAX || !stage_names[stage])
                return "unknown";
        return stage_names[stage];
}

void sbx_strlcpy(char *dst, const char *src, size_t size)
{
        size_t n = 0;

        if (size == 0)
                return;
        for (; src && src[n] && n + 1 < size; n++)
                dst[n] = src[n];
        dst[n] = '\0';
}

int sbx_error_set(struct sbx_error *e, enum sbx_stage stage, int errnum, const char *syscall,
                  const char *path, const char *fmt, ...)
{
        va_list ap;

        errnum = abs(errnum);
        if (errnum == 0)
                errnum = EINVAL;
        /* The first failure is the cause; later ones are its consequences. */
        if (e->errnum != 0)
                return -errnum;
        e->errnum = errnum;
        e->stage = stage;
        sbx_strlcpy(e->syscall, syscall, sizeof(e->syscall));
        sbx_strlcpy(e->path, path, sizeof(e->path));
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        va_end(ap);
        e->hint[0] = '\0';
        return -errnum;
}

void sbx_error_prefix(struct sbx_error *e, const char *fmt, ...)
{
        char prefix[sizeof(e->msg)], msg[sizeof(e->msg)];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(prefix, sizeof(prefix), fmt, ap);
        va_end(ap);
        memcpy(msg, e->msg, sizeof(msg));
        msg[sizeof(msg) - 1] = '\0';
        /* Cut at the end if need be: the context, then as much of the cause as fits. */
        if (snprintf(e->msg, sizeof(e->msg), "%s%s%s", prefix, prefix[0] && msg[0] ? ": " : "", msg) < 0)
                memcpy(e->msg, msg, sizeof(msg));
}

void sbx_error_hint(struct sbx_error *e, const char *fmt, ...)
{
        va_list ap;

        if (e->hint[0] != '\0')
                return;
        va_start(ap, fmt);
        vsnprintf(e->hint, sizeof(e->hint), fmt, ap);
        va_end(ap);
}

void sbx_error_format(const struct sbx_error *e, char *buf, size_t size)
{
        char where[320] = "";

        if (e->syscall[0] && e->path[0])
                snprintf(where, sizeof(where), ": %s '%s'", e->syscall, e->path);
        else if (e->syscall[0])
                snprintf(where, sizeof(where), ": %s", e->syscall);
        else if (e->path[0])
                snprintf(where, sizeof(where), ": '%s'", e->path);

        /* The system's words only where a system call failed: a refusal of sbx's own
         * says everything in its message. */
        snprintf(buf, size, "%s: %s%s%s%s%s%s%s", sbx_stage_name(e->stage), e->msg, where, e->syscall[0] ? ": " : "",
                 e->syscall[0] ? strerror(e->errnum) : "", e->hint[0] ? " (" : "", e->hint, e->hint[0] ? ")" : "");
}
