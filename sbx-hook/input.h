/* SPDX-License-Identifier: MIT */
/* The harness's stdin, parsed with json-c and checked field by field: the one place
 * untrusted JSON enters sbx-hook (fuzzed by tests/fuzz/fuzz_hook.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "hook.h"

struct hook_input {
        struct json_object *root;       /* the whole input (owned) */
        struct json_object *tool_input; /* root's tool_input (Claude, Codex, Gemini) or
                                         * args (opencode); borrowed from root */
        bool shell;                     /* the call is the harness's shell tool; false:
                                         * another tool, not sbx's business */
        bool post;                      /* Claude Code's PostToolUse: the call has run */
        const char *command;            /* the shell command (tool_input.command) */
        const char *cwd;                /* where the harness runs it; NULL: not given */
        const char *tool_use_id;        /* NULL unless given and a valid tag */
        const char *session_id;
};

/* Parses @len bytes of @buf as @h's pre-tool input (Claude Code's post-tool input
 * too) into @in.  0; or -EINVAL with @why
 * saying what is wrong (not JSON, not an object, trailing bytes, a field of the wrong
 * type, a NUL inside a string, a shell call without a command), -E2BIG over
 * HOOK_MAX_INPUT, -ENOMEM.  Release with hook_input_done() in every case. */
int hook_input_parse(const char *buf, size_t len, enum hook_harness h, struct hook_input *in, char *why, size_t size);
void hook_input_done(struct hook_input *in);
