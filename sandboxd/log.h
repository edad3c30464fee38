/* SPDX-License-Identifier: MIT */
/* sandboxd's one way to say something on stderr (the journal, under systemd): a line
 * "sandboxd: ...", "sandboxd: warning: ..." -- what failed, the path or name in
 * '...', and with log_error_errno() the errno as %m (systemd's log_error_errno). */
#pragma once

#include <errno.h>
#include <stdlib.h>

#define SBX_LOG_FMT(a, b) __attribute__((format(printf, a, b)))

/* Logs with errno = |@err| (for %m) and returns -|@err|, so that a caller can write
 * `return log_error_errno(r, "Failed to bind '%s': %m", path);`. */
int log_error_errno(int err, const char *fmt, ...) SBX_LOG_FMT(2, 3);
void log_error(const char *fmt, ...) SBX_LOG_FMT(1, 2);
void log_warning(const char *fmt, ...) SBX_LOG_FMT(1, 2);
void log_info(const char *fmt, ...) SBX_LOG_FMT(1, 2);
