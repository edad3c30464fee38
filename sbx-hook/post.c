/* SPDX-License-Identifier: MIT */
/* Runs in sbx-hook, on the host, as the caller, after the harness's JSON is parsed. */
#include "post.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../lib/cleanup.h"
#include "reply.h"
#include "spool.h"

#define JAILED_SHELL " -- /bin/bash -c "

int hook_announce(const struct hook_input *in, char *why, size_t size)
{
        _cleanup_close_ int dir = -1;
        char here[PATH_MAX];
        const char *cwd = in->cwd;
        int r;

        if (!in->tool_use_id)
                return 0;
        /* The cwd the verdict took as the workspace (the hook's own without one): the
         * prefix pins the jail's to it. */
        if (!cwd && !(cwd = getcwd(here, sizeof(here)))) {
                snprintf(why, size, "cannot find the hook's current directory: %s", strerror(errno));
                return -errno;
        }
        if ((dir = spool_open(why, size)) < 0)
                return dir;
        if ((r = spool_announce(dir, in->command, in->tool_use_id, in->session_id, cwd)) < 0)
                snprintf(why, size, "cannot announce the call to the shell prefix: %s%s", strerror(-r),
                         r == -ENOSPC ? " (over 4096 calls waiting: remove the spool's old entries)" : "");
        return r;
}

/* --rewrite: the command Claude ran is exactly the rewrite of some command, with this
 * call's tags and cwd: one sbx-run, one bash -c word, nothing before or after it.
 * Each " -- /bin/bash -c " is tried, since the quoted workspace before the real one
 * may hold the same text; only an exact match of the whole rewrite counts. */
static bool ran_rewritten(const struct hook_config *c, const struct hook_input *in)
{
        for (const char *at = strstr(in->command, JAILED_SHELL); at; at = strstr(at + 1, JAILED_SHELL)) {
                _cleanup_free_ char *inner = spool_unquote_word(at + strlen(JAILED_SHELL)), *again = NULL;
                struct hook_input x = *in;

                if (!inner)
                        continue;
                x.command = inner;
                again = hook_jailed_command(c, &x);
                if (again && strcmp(again, in->command) == 0)
                        return true;
        }
        return false;
}

static bool ran_through_prefix(const struct hook_input *in, char *why, size_t size)
{
        _cleanup_close_ int dir = -1;

        if (!in->tool_use_id) {
                snprintf(why, size, "the call has no tool_use_id to check");
                return false;
        }
        if ((dir = spool_open(why, size)) < 0)
                return false;
        switch (spool_settle(dir, in->tool_use_id)) {
        case SPOOL_TAKEN:
                return true;
        case SPOOL_PENDING:
                snprintf(why, size, "sbx's shell prefix never ran it (is CLAUDE_CODE_SHELL_PREFIX still sbx-shell-prefix?)");
                return false;
        default:
                snprintf(why, size, "sbx has no record of it (is sbx-hook's PreToolUse hook installed? sbx-hook --install claude)");
                return false;
        }
}

int hook_post(const struct hook_config *c, const struct hook_input *in, FILE *out)
{
        struct json_object *root, *h;
        char why[400], reason[600];
        const char *text;
        int r = 0;

        if (c->rewrite ? ran_rewritten(c, in) : ran_through_prefix(in, why, sizeof(why)))
                return 0;
        if (c->rewrite)
                snprintf(why, sizeof(why), "Claude Code ran it without sbx's rewrite (updatedInput dropped)");
        snprintf(reason, sizeof(reason), "sbx: this Bash call ran unjailed: %s. Its effects were not confined; tell the user.", why);
        if (!(root = json_object_new_object()))
                return -ENOMEM;
        h = json_object_new_object();
        if (json_object_object_add(root, "decision", json_object_new_string("block")) < 0 ||
            json_object_object_add(root, "reason", json_object_new_string(reason)) < 0 || !h ||
            json_object_object_add(root, "hookSpecificOutput", h) < 0 ||
            json_object_object_add(h, "hookEventName", json_object_new_string("PostToolUse")) < 0 ||
            json_object_object_add(h, "additionalContext", json_object_new_string(reason)) < 0)
                r = -ENOMEM;
        text = r == 0 ? json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
        if (r == 0 && (!text || fprintf(out, "%s\n", text) < 0 || fflush(out) != 0))
                r = -EIO;
        json_object_put(root);
        return r;
}
