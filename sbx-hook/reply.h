/* SPDX-License-Identifier: MIT */
/* What sbx-hook answers: the jailed form of a command, and each harness's JSON for
 * a verdict (sbx-hook(1), HARNESSES). */
#pragma once

#include <stdio.h>

#include "hook.h"
#include "input.h"

/* The shell flag the jailed command gives /bin/bash: Codex runs its commands as a
 * login shell (bash -lc), the others with -c. */
const char *hook_shell_flag(enum hook_harness h);

/* "'SBX_RUN' --profile 'P' --workspace 'CWD' --workspace-contains-cwd [--tool-use-id 'ID']
 * [--session-id 'S'] -- /bin/bash -c 'CMD'", every word single-quoted ('\'' for a quote
 * inside): run by the harness's shell, it runs exactly @in->command in the jail, with
 * the harness's session cwd (@in->cwd; without one, the hook's own) as the workspace,
 * starting in the directory it is run from when that lies inside, refused elsewhere.
 * NULL when out of memory or without a cwd. */
char *hook_jailed_command(const struct hook_config *c, const struct hook_input *in);

/* The harness's answer to @res on @out: 0 when written (exit 0); HOOK_EXIT_BLOCK when
 * the harness is told "no" by the exit status with the reason on stderr (Codex's
 * deny); -errno on failure (the hook blocks). */
int hook_reply(const struct hook_config *c, const struct hook_input *in, const struct hook_result *res, FILE *out);
