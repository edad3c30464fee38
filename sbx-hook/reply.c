/* SPDX-License-Identifier: MIT */
/* Runs in sbx-hook after the verdict.  Every answer is built with json-c and written
 * once; an allow that a harness could read as "run it unjailed" is never written:
 * Codex and Gemini always get the jailed command with their allow, Claude gets
 * "allow" only where its shell prefix jails the call (or the rewrite does). */
#include "reply.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../lib/cleanup.h"

#define REASON_PREFIX "sbx: "

const char *hook_shell_flag(enum hook_harness h)
{
        return h == HOOK_CODEX ? "-lc" : "-c";
}

/* @s in single quotes, each ' written '\'' (no expansion of any kind inside). */
static void quote(FILE *f, const char *s)
{
        fputc('\'', f);
        for (; *s; s++) {
                if (*s == '\'')
                        fputs("'\\''", f);
                else
                        fputc(*s, f);
        }
        fputc('\'', f);
}

char *hook_jailed_command(const struct hook_config *c, const struct hook_input *in)
{
        char *buf = NULL, here[PATH_MAX];
        size_t size = 0;
        const char *ws = in->cwd;
        FILE *f;

        /* The workspace is the session's directory (the harness's cwd, where the
         * verdict was made; without one, the hook's own, as the verdict's), never
         * the directory the harness runs the command in: Codex takes that from the
         * model's workdir, which may name ~/bin.  Run anywhere outside it, sbx-run
         * refuses. */
        if (!ws && !(ws = getcwd(here, sizeof(here))))
                return NULL;
        if (!(f = open_memstream(&buf, &size)))
                return NULL;
        quote(f, c->sbx_run);
        fputs(" --profile ", f);
        quote(f, c->profile ? c->profile : "workspace");
        fputs(" --workspace ", f);
        quote(f, ws);
        fputs(" --workspace-contains-cwd", f);
        if (in->tool_use_id) {
                fputs(" --tool-use-id ", f);
                quote(f, in->tool_use_id);
        }
        if (in->session_id) {
                fputs(" --session-id ", f);
                quote(f, in->session_id);
        }
        fprintf(f, " -- /bin/bash %s ", hook_shell_flag(c->harness));
        quote(f, in->command);
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
        if (!v)
                return -ENOMEM;
        return json_object_object_add(o, key, v) < 0 ? (json_object_put(v), -ENOMEM) : 0;
}

static int add_string(struct json_object *o, const char *key, const char *s)
{
        return add(o, key, json_object_new_string(s));
}

/* The reason as the model reads it: which rule, and that sbx said it. */
static void reason_text(const struct hook_result *res, char *buf, size_t size)
{
        snprintf(buf, size, REASON_PREFIX "%s%s", res->verdict == HOOK_WARN ? "warning: " : "", res->reason);
}

/* @in->tool_input with only command replaced by @jailed: Claude's updatedInput, which
 * replaces the whole input (a partial one loses description, timeout, ...). */
static struct json_object *updated_input(const struct hook_input *in, const char *jailed, bool whole)
{
        struct json_object *u = json_object_new_object();

        if (!u)
                return NULL;
        /* In the input's own order, command where it was. */
        if (whole) {
                json_object_object_foreach(in->tool_input, key, val) {
                        bool cmd = strcmp(key, "command") == 0;

                        if (add(u, key, cmd ? json_object_new_string(jailed) : json_object_get(val)) < 0) {
                                json_object_put(u);
                                return NULL;
                        }
                }
                return u;
        }
        if (add_string(u, "command", jailed) < 0) {
                json_object_put(u);
                return NULL;
        }
        return u;
}

/* Claude Code and Codex: hookSpecificOutput with permissionDecision. */
static int pretooluse(const struct hook_config *c, const struct hook_input *in, const struct hook_result *res,
                      const char *reason, struct json_object *root)
{
        struct json_object *h = json_object_new_object();
        _cleanup_free_ char *jailed = NULL;
        const char *decision;
        int r;

        if ((r = add(root, "hookSpecificOutput", h)) < 0 || (r = add_string(h, "hookEventName", "PreToolUse")) < 0)
                return r;
        if (res->verdict == HOOK_DENY) {
                if ((r = add_string(h, "permissionDecision", "deny")) < 0 || (r = add_string(h, "permissionDecisionReason", reason)) < 0)
                        return r;
                return 0;
        }
        /* Codex runs a warned command too (jailed), and says so: its "ask" could not
         * carry the rewrite. */
        decision = res->verdict == HOOK_WARN && c->harness == HOOK_CLAUDE ? "ask" : "allow";
        if ((r = add_string(h, "permissionDecision", decision)) < 0 || (r = add_string(h, "permissionDecisionReason", reason)) < 0)
                return r;
        if (c->harness == HOOK_CLAUDE && !c->rewrite)
                return 0; /* jailed by CLAUDE_CODE_SHELL_PREFIX */
        if (!(jailed = hook_jailed_command(c, in)))
                return -ENOMEM;
        if ((r = add(h, "updatedInput", updated_input(in, jailed, c->harness == HOOK_CLAUDE))) < 0)
                return r;
        if (res->verdict == HOOK_WARN && c->harness == HOOK_CODEX)
                r = add_string(h, "additionalContext", reason);
        return r;
}

/* Gemini CLI: a deny is {"decision":"deny","reason":…}; a rewrite merges
 * hookSpecificOutput.tool_input into the model's arguments. */
static int gemini(const struct hook_config *c, const struct hook_input *in, const struct hook_result *res,
                  const char *reason, struct json_object *root)
{
        struct json_object *h, *ti;
        _cleanup_free_ char *jailed = NULL;
        int r;

        if (res->verdict == HOOK_DENY)
                return (r = add_string(root, "decision", "deny")) < 0 ? r : add_string(root, "reason", reason);
        if (!(jailed = hook_jailed_command(c, in)))
                return -ENOMEM;
        h = json_object_new_object();
        if ((r = add(root, "hookSpecificOutput", h)) < 0 || (r = add(h, "tool_input", (ti = json_object_new_object()))) < 0 ||
            (r = add_string(ti, "command", jailed)) < 0)
                return r;
        return res->verdict == HOOK_WARN ? add_string(root, "systemMessage", reason) : 0;
}

/* opencode's plugin (contrib/opencode/sbx.js): {"decision","command"[,"reason"]}. */
static int opencode(const struct hook_config *c, const struct hook_input *in, const struct hook_result *res,
                    const char *reason, struct json_object *root)
{
        _cleanup_free_ char *jailed = hook_jailed_command(c, in);
        int r;

        if (!jailed)
                return -ENOMEM;
        if ((r = add_string(root, "decision", res->verdict == HOOK_WARN ? "warn" : "allow")) < 0 ||
            (r = add_string(root, "command", jailed)) < 0)
                return r;
        return res->verdict == HOOK_WARN ? add_string(root, "reason", reason) : 0;
}

int hook_reply(const struct hook_config *c, const struct hook_input *in, const struct hook_result *res, FILE *out)
{
        struct json_object *root;
        char reason[600];
        const char *text;
        int r;

        reason_text(res, reason, sizeof(reason));
        /* Codex blocks on exit 2 with stderr; opencode's plugin throws with it. */
        if (res->verdict == HOOK_DENY && (c->harness == HOOK_CODEX || c->harness == HOOK_OPENCODE)) {
                fprintf(stderr, "%s\n", reason);
                return HOOK_EXIT_BLOCK;
        }
        if (!(root = json_object_new_object()))
                return -ENOMEM;
        switch (c->harness) {
        case HOOK_CLAUDE:
        case HOOK_CODEX:
                r = pretooluse(c, in, res, reason, root);
                break;
        case HOOK_GEMINI:
                r = gemini(c, in, res, reason, root);
                break;
        default:
                r = opencode(c, in, res, reason, root);
                break;
        }
        if (r == 0) {
                text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
                if (!text)
                        r = -ENOMEM;
                else if (fprintf(out, "%s\n", text) < 0 || fflush(out) != 0)
                        r = -EIO;
        }
        json_object_put(root);
        return r;
}
