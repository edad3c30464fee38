/* SPDX-License-Identifier: MIT */
/* Stage 4f: execve, after seccomp.  Searches the jail's PATH (not the caller's). */
#pragma once

#include "error.h"
#include "plan.h"

/* The command's process before its execve, in every tier: a session of its own (no
 * controlling terminal, so TIOCSTI cannot push keystrokes into the caller's shell,
 * CVE-2017-5226; a process group that signals reach as a whole), the signals as
 * execve would leave them (what the caller ignores stays ignored, nohup's SIGHUP;
 * anything else the default, whatever sbx or sandboxd set), none blocked, and the
 * plan's working directory.  0, or -errno with @e filled. */
int sbx_exec_session(const struct sbx_plan *p, struct sbx_error *e);

/* Returns only on failure: ENOENT when not found anywhere (127), anything else when
 * found but not executable (126). */
int sbx_exec(char *const argv[], char *const envp[], struct sbx_error *e);
