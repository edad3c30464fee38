/* SPDX-License-Identifier: MIT */
/* sbx-hook --install HARNESS [--project DIR]: merges sbx's hook (and for Claude Code
 * its shell prefix) into the harness's settings file, keeping every key the user has:
 *   claude  ~/.claude/settings.json or DIR/.claude/settings.json
 *   codex   ~/.codex/hooks.json     or DIR/.codex/hooks.json
 *   gemini  ~/.gemini/settings.json or DIR/.gemini/settings.json
 * Idempotent (a second run finds nothing to change and writes nothing), atomic (a
 * temporary file in the same directory, fsync, rename; the old file's mode), and a
 * file it cannot parse is refused, never overwritten. */
#pragma once

#include "hook.h"

/* @self: sbx-hook's own absolute path (what the settings will run).  0, or an exit
 * status (1) after saying what went wrong on stderr. */
int hook_install(const struct hook_config *c, const char *project, const char *self);
