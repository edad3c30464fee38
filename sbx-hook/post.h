/* SPDX-License-Identifier: MIT */
/* Claude Code's calls, before and after: PreToolUse announces an allowed call to the
 * shell prefix (spool.h); PostToolUse checks that the call ran jailed -- taken by the
 * prefix, or (--rewrite) run as the rewritten command -- and otherwise tells the model
 * and the user that it ran unjailed.  It cannot undo the command: it only detects. */
#pragma once

#include <stdio.h>

#include "hook.h"
#include "input.h"

/* PreToolUse, prefix mode, a call that will run: leaves its tags for the prefix.  0
 * (also when the call has no tool_use_id: nothing to tie); -errno with @why. */
int hook_announce(const struct hook_input *in, char *why, size_t size);

/* PostToolUse: nothing on @out when the call ran jailed; else Claude's
 * {"decision":"block","reason":…}.  0, or -errno when the answer cannot be written. */
int hook_post(const struct hook_config *c, const struct hook_input *in, FILE *out);
