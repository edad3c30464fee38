/* SPDX-License-Identifier: MIT */
/* sbx-hook: an agent harness's pre-tool hook, shell prefix and installer over the
 * policy layer.  What the harnesses send and expect is in doc/harnesses (the shapes
 * of Claude Code, Codex, Gemini CLI and opencode, see sbx-hook(1)); this header is
 * what the pieces share: the harness, the configuration and the verdict. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Exit status of the hook: 0 with the harness's JSON on stdout; 2 to block the call
 * (every harness blocks on 2 and shows stderr), whatever went wrong. */
#define HOOK_EXIT_BLOCK 2
/* What the hook reads: a harness's PreToolUse input is a few KiB; the command itself
 * is bounded by the shell parser's own limit (cmdpolicy/shell.h). */
#define HOOK_MAX_INPUT ((size_t)1 << 20)
/* The whole hook, from the first byte read to the last written: well inside the
 * harnesses' own timeouts (10 s as installed), so that sbx-hook, not the harness,
 * decides what a timeout means (a block). */
#define HOOK_BUDGET_SECONDS 5

enum hook_harness {
        HOOK_CLAUDE,
        HOOK_CODEX,
        HOOK_GEMINI,
        HOOK_OPENCODE,
        HOOK_N_HARNESSES,
};

const char *hook_harness_name(enum hook_harness h);
/* -1 when @name is none of claude, codex, gemini, opencode. */
int hook_harness_by_name(const char *name);

struct hook_config {
        enum hook_harness harness;
        const char *profile; /* --profile, else $SBX_PROFILE, else NULL: workspace */
        const char *sbx_run; /* the launcher the rewritten commands name (absolute) */
        bool rewrite;        /* Claude: allow + updatedInput instead of the shell prefix */
};

/* The verdict a harness is told.  HOOK_WARN is an external validator's "warn": the
 * command runs, jailed, and the harness asks the user where it can (Claude's "ask"). */
enum hook_verdict {
        HOOK_ALLOW,
        HOOK_WARN,
        HOOK_DENY,
};

struct hook_result {
        enum hook_verdict verdict;
        char reason[512];
};
