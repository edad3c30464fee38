/* SPDX-License-Identifier: MIT */
/* Runs in sbx-hook, before any decision: everything here is the harness's (and so,
 * through the command, the model's) text.  json-c parses; this file only checks that
 * each field sbx reads has the type the harness documents, and refuses what it does
 * not understand rather than guessing. */
#include "input.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../policy/options.h"

/* What each harness calls its fields (sbx-hook(1), HARNESSES). */
static const struct shape {
        const char *event_key, *event;   /* hook_event_name and its value */
        const char *post_event;          /* the event after the call, where sbx-hook checks it */
        const char *tool_key, *tool;     /* the field naming the tool, and the shell's name */
        const char *input_key;           /* the tool's arguments */
        const char *id_key, *session_key;
} shapes[HOOK_N_HARNESSES] = {
        [HOOK_CLAUDE] = { "hook_event_name", "PreToolUse", "PostToolUse", "tool_name", "Bash", "tool_input", "tool_use_id",
                          "session_id" },
        [HOOK_CODEX] = { "hook_event_name", "PreToolUse", NULL, "tool_name", "Bash", "tool_input", "tool_use_id", "session_id" },
        [HOOK_GEMINI] = { "hook_event_name", "BeforeTool", NULL, "tool_name", "run_shell_command", "tool_input", "tool_use_id",
                          "session_id" },
        /* contrib/opencode/sbx.js sends tool.execute.before's input and output.args. */
        [HOOK_OPENCODE] = { NULL, NULL, NULL, "tool", "bash", "args", "callID", "sessionID" },
};

static int invalid(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int invalid(char *why, size_t size, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
        return -EINVAL;
}

/* @key of @obj as a string: *@out NULL when absent (or JSON null); -EINVAL when it is
 * another type or holds a NUL (what a C string would cut, the harness would not). */
static int string_field(struct json_object *obj, const char *key, const char **out, char *why, size_t size)
{
        struct json_object *v;

        *out = NULL;
        if (!json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_string))
                return invalid(why, size, "'%s' is a %s, not a string", key, json_type_to_name(json_object_get_type(v)));
        if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
                return invalid(why, size, "'%s' holds a NUL byte", key);
        *out = json_object_get_string(v);
        return 0;
}

static struct json_object *parse(const char *buf, size_t len, char *why, size_t size)
{
        struct json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
        struct json_object *root;
        size_t end;

        if (!tok) {
                invalid(why, size, "out of memory");
                return NULL;
        }
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
        root = json_tokener_parse_ex(tok, buf, (int)len);
        if (!root) {
                enum json_tokener_error err = json_tokener_get_error(tok);

                invalid(why, size, "not JSON: %s at byte %zu",
                        err == json_tokener_continue ? "the input ends inside a value" : json_tokener_error_desc(err),
                        json_tokener_get_parse_end(tok));
                json_tokener_free(tok);
                return NULL;
        }
        end = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        while (end < len && (buf[end] == ' ' || buf[end] == '\t' || buf[end] == '\r' || buf[end] == '\n'))
                end++;
        if (end != len) {
                json_object_put(root);
                invalid(why, size, "trailing bytes after the JSON object, at byte %zu", end);
                return NULL;
        }
        return root;
}

int hook_input_parse(const char *buf, size_t len, enum hook_harness h, struct hook_input *in, char *why, size_t size)
{
        const struct shape *s = &shapes[h];
        const char *event = NULL, *tool = NULL, *id = NULL, *session = NULL;
        struct json_object *args;
        int r;

        *in = (struct hook_input){ 0 };
        if ((unsigned)h >= HOOK_N_HARNESSES)
                return invalid(why, size, "unknown harness");
        if (len > HOOK_MAX_INPUT) {
                invalid(why, size, "the input is over %zu bytes", HOOK_MAX_INPUT);
                return -E2BIG;
        }
        /* A NUL in the buffer: json-c would stop there and take the rest for trailing
         * bytes; say what it is. */
        if (memchr(buf, '\0', len))
                return invalid(why, size, "the input holds a NUL byte");
        if (!(in->root = parse(buf, len, why, size)))
                return -EINVAL;
        if (!json_object_is_type(in->root, json_type_object))
                return invalid(why, size, "the input is a JSON %s, not an object",
                               json_type_to_name(json_object_get_type(in->root)));
        if ((s->event_key && (r = string_field(in->root, s->event_key, &event, why, size)) < 0) ||
            (r = string_field(in->root, s->tool_key, &tool, why, size)) < 0 ||
            (r = string_field(in->root, "cwd", &in->cwd, why, size)) < 0 ||
            (r = string_field(in->root, s->id_key, &id, why, size)) < 0 ||
            (r = string_field(in->root, s->session_key, &session, why, size)) < 0)
                return r;
        /* Another event or another tool: not sbx's call (the installed matcher sends
         * only the shell's, but a hand-written one may send more). */
        in->post = s->post_event && event && strcmp(event, s->post_event) == 0;
        if ((s->event_key && event && strcmp(event, s->event) != 0 && !in->post) || !tool || strcmp(tool, s->tool) != 0)
                return 0;
        in->shell = true;
        if (!json_object_object_get_ex(in->root, s->input_key, &args) || !json_object_is_type(args, json_type_object))
                return invalid(why, size, "a %s call without a '%s' object", s->tool, s->input_key);
        in->tool_input = args;
        if ((r = string_field(args, "command", &in->command, why, size)) < 0)
                return r;
        if (!in->command)
                return invalid(why, size, "a %s call without '%s.command'", s->tool, s->input_key);
        if (in->cwd && in->cwd[0] != '/')
                return invalid(why, size, "'cwd' is not an absolute path: '%.200s'", in->cwd);
        /* The tags only go along when they are tags: nothing else reaches a command
         * line (an id is never a reason to block a call). */
        in->tool_use_id = id && sbx_is_tag(id) ? id : NULL;
        in->session_id = session && sbx_is_tag(session) ? session : NULL;
        return 0;
}

void hook_input_done(struct hook_input *in)
{
        if (in->root)
                json_object_put(in->root);
        *in = (struct hook_input){ 0 };
}
