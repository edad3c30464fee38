/* SPDX-License-Identifier: MIT */
/* The jail pipeline, stages 3-6: clone, set up inside, run under a PID 1, account. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "applied.h"
#include "error.h"
#include "plan.h"
#include "seccomp.h"
#include "tier.h"
#include "validation.h"

struct sbx_result {
        int status;     /* sbx-run's exit status, per the contract */
        int exit_code;  /* the command's, -1 when it did not exit by itself */
        int signal;     /* the signal that ended it, 0 when none */
        bool timed_out;
        bool oom_killed;
        bool ran;       /* the command was started (exec reached) */
        uint64_t wall_ms, cpu_user_ms, cpu_sys_ms;
        uint64_t peak_memory; /* bytes, 0 when unknown */
        /* The SBX_MOUNT_STATE tmpfs of the plan, in plan order, as mount fds (-1 where
         * the jail did not get that far); the caller of sbx_jail_run closes them. */
        int state_fds[SBX_MAX_STATE];
        unsigned applied;     /* enum sbx_applied bits: the hardening steps in force, each
                               * set by the step that took effect */
        char weakened[512];   /* newline-separated notes on what could not be applied */
        char network[4096];   /* network: filtered: the broker's summary, the fields of a JSON
                               * object ("allowed":[...],"denied":[...]); "" when none */
        char notes[512];      /* newline-separated: what the run left undone (filesystem.git's
                               * state not carried back), filled by the caller */
        struct sbx_validation validation; /* what the external validators said (filled by
                                           * the caller; verdict NONE: none asked) */
        struct sbx_tier_text tier;        /* the isolation tier and its substitutions
                                           * (sandboxd's, for its summary; filled by the
                                           * caller; tier "": none) */
};

/* A result with nothing in it yet (no state fds). */
void sbx_result_init(struct sbx_result *res, int status);

/* Runs @p's command in a new jail and waits for it.  Returns 0 when the jail ran (the
 * command's fate is in @res), or -errno with @e filled when sbx failed.  @audit_fd:
 * the audit file's (-1: none), where the egress broker's records go too. */
int sbx_jail_run(const struct sbx_plan *p, const struct sbx_seccomp *filter, int audit_fd, struct sbx_result *res,
                 struct sbx_error *e);

/* The same, supervised from outside as well (sandboxd's launcher): a signal number
 * (an int) read from @control_fd is sent to the jail's PID 1 (SIGKILL ends the whole
 * PID namespace); the other end closing kills the jail. */
int sbx_jail_run_ctl(const struct sbx_plan *p, const struct sbx_seccomp *filter, int control_fd, int audit_fd,
                     struct sbx_result *res, struct sbx_error *e);
