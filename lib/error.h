/* SPDX-License-Identifier: MIT */
/* One error object, filled once at the failing syscall.  Fixed buffers only, so
 * a child may fill it after clone (no allocation) and send it home whole over the
 * sync socket. */
#pragma once

#include <stddef.h>

struct sbx_error {
        int errnum;         /* positive errno, 0 when none */
        char stage[24];     /* pipeline stage: "options", "mount", "seccomp", ... */
        char syscall[24];   /* the call that failed, "" when not a syscall */
        char path[256];     /* the path it was about, "" when none */
        char msg[512];      /* what sbx was doing */
        char hint[256];     /* how to fix it */
};

/* Fills @e (if no error is recorded yet) and returns -errnum, so that a failing
 * step reads `return sbx_error_set(e, ...)`.  @errnum may be given negative. */
int sbx_error_set(struct sbx_error *e, const char *stage, int errnum, const char *syscall,
                  const char *path, const char *fmt, ...)
        __attribute__((format(printf, 6, 7)));

/* Adds a remedy to an error already set; keeps an earlier hint. */
void sbx_error_hint(struct sbx_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "stage: msg: syscall 'path': strerror (hint)" in @buf. */
void sbx_error_format(const struct sbx_error *e, char *buf, size_t size);

/* Async-signal-safe bounded copy that always terminates. */
void sbx_strlcpy(char *dst, const char *src, size_t size);
