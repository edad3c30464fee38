/* SPDX-License-Identifier: MIT */
/* The verdict sbx-run would give: policy/decide.h up to the command policy, with the
 * same profile, workspace (the harness's cwd) and argv (/bin/bash -c CMD, as the jail
 * will run it), computed in a child so that whatever goes wrong in it -- a crash, a
 * profile that never finishes loading -- is a failure of the hook, never an allow. */
#pragma once

#include "hook.h"

/* @flag: "-c", or "-lc" for Codex (the jailed form runs /bin/bash @flag @command).
 * 0 with @res filled; -errno with @why saying why there is no verdict (the hook then
 * blocks).  Does not return while the child runs: the caller's alarm bounds it. */
int hook_verdict(const struct hook_config *c, const char *flag, const char *command, const char *cwd,
                 struct hook_result *res, char *why, size_t size);
