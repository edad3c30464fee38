/* SPDX-License-Identifier: MIT */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

/* One line, one write: lines of several connections never interleave. */
static void say(const char *level, int err, const char *fmt, va_list ap) SBX_LOG_FMT(3, 0);
static void say(const char *level, int err, const char *fmt, va_list ap)
{
        char line[2048];
        int saved = errno;

        errno = err;
        (void)vsnprintf(line, sizeof(line), fmt, ap);
        errno = saved;
        (void)fprintf(stderr, "sandboxd: %s%s\n", level, line);
}

int log_error_errno(int err, const char *fmt, ...)
{
        va_list ap;

        err = abs(err);
        va_start(ap, fmt);
        say("", err, fmt, ap);
        va_end(ap);
        return -err;
}

void log_error(const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        say("", errno, fmt, ap);
        va_end(ap);
}

void log_warning(const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        say("warning: ", errno, fmt, ap);
        va_end(ap);
}

void log_info(const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        say("", errno, fmt, ap);
        va_end(ap);
}
