/* SPDX-License-Identifier: MIT */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbx_strlcpy(char *dst, const char *src, size_t size)
{
        size_t n = 0;

        if (size == 0)
                return;
        for (; src && src[n] && n + 1 < size; n++)
                dst[n] = src[n];
        dst[n] = '\0';
}

int sbx_error_set(struct sbx_error *e, const char *stage, int errnum, const char *syscall,
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
        sbx_strlcpy(e->stage, stage, sizeof(e->stage));
        sbx_strlcpy(e->syscall, syscall, sizeof(e->syscall));
        sbx_strlcpy(e->path, path, sizeof(e->path));
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        va_end(ap);
        e->hint[0] = '\0';
        return -errnum;
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
        snprintf(buf, size, "%s: %s%s%s%s%s%s%s", e->stage, e->msg, where, e->syscall[0] ? ": " : "",
                 e->syscall[0] ? strerror(e->errnum) : "", e->hint[0] ? " (" : "", e->hint, e->hint[0] ? ")" : "");
}
