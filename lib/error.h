/* SPDX-License-Identifier: MIT */
/* One error object, filled once at the failing syscall.  Fixed buffers only, so
 * a child may fill it after clone (no allocation) and send it home whole over the
 * sync socket. */
#pragma once

#include <stddef.h>

/* Where an error arose: the pipeline stage, or the program's own step around it.  The
 * names (sbx_stage_name) are a contract: the one-line message, --json's error.stage
 * and the journal's SBX_STAGE= print them.  A new stage is a row here and in
 * error.c's table. */
enum sbx_stage {
        SBX_STAGE_NONE = 0, /* no error recorded */
        SBX_STAGE_OPTIONS,  /* the command line */
        SBX_STAGE_PROFILE,  /* loading and resolving a profile */
        SBX_STAGE_POLICY,   /* the command checker, the site policy */
        SBX_STAGE_PLAN,     /* building the plan */
        SBX_STAGE_VALIDATE, /* the plan's paths, as the caller */
        SBX_STAGE_GIT,      /* filesystem.git's guard */
        SBX_STAGE_CGROUP,
        SBX_STAGE_CLONE,
        SBX_STAGE_USERNS,
        SBX_STAGE_UTS,
        SBX_STAGE_NET,
        SBX_STAGE_MOUNT,
        SBX_STAGE_INIT,     /* the jail's PID 1 */
        SBX_STAGE_SESSION,
        SBX_STAGE_PRIVS,
        SBX_STAGE_LANDLOCK,
        SBX_STAGE_SECCOMP,
        SBX_STAGE_EXEC,
        SBX_STAGE_SUPERVISE, /* the launcher waiting for the jail */
        SBX_STAGE_REQUEST,   /* sandboxd: a Run call's arguments */
        SBX_STAGE_LAUNCH,    /* sandboxd: starting the launcher */
        SBX_STAGE_LISTEN,    /* sandboxd: its sockets */
        SBX_STAGE_SANDBOXD,  /* sbx-run: what sandboxd answered */
        SBX_STAGE_VALIDATOR, /* the external validator (policy/validator.c) */
        SBX_STAGE_TIER,      /* the isolation tier: what this environment allows (lib/tier.h) */
        _SBX_STAGE_MAX,
};

/* The stage's name ("mount"); "" for SBX_STAGE_NONE, "unknown" for a value out of
 * range (an error read from a socket is checked here, never indexed blindly). */
const char *sbx_stage_name(enum sbx_stage stage);

struct sbx_error {
        int errnum;             /* positive errno, 0 when none */
        enum sbx_stage stage;   /* where: a number, so the struct crosses a socket whole */
        char syscall[24];   /* the call that failed, "" when not a syscall */
        char path[256];     /* the path it was about, "" when none */
        char msg[512];      /* what sbx was doing */
        char hint[256];     /* how to fix it */
};

/* Fills @e (if no error is recorded yet) and returns -errnum, so that a failing
 * step reads `return sbx_error_set(e, ...)`.  @errnum may be given negative. */
int sbx_error_set(struct sbx_error *e, enum sbx_stage stage, int errnum, const char *syscall,
                  const char *path, const char *fmt, ...)
        __attribute__((format(printf, 6, 7)));

/* Adds context in front of the message of an error already set ("while X: msg"),
 * keeping its stage, errno, syscall and path: the cause stays the cause. */
void sbx_error_prefix(struct sbx_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds a remedy to an error already set; keeps an earlier hint. */
void sbx_error_hint(struct sbx_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "stage: msg: syscall 'path': strerror (hint)" in @buf. */
void sbx_error_format(const struct sbx_error *e, char *buf, size_t size);

/* Async-signal-safe bounded copy that always terminates. */
void sbx_strlcpy(char *dst, const char *src, size_t size);
