/* SPDX-License-Identifier: MIT */
/* The external validator's protocol (validator.h): the request written and the answer
 * read with json-c, the program run by lib/spawn.c, every way it can fail to answer
 * turned into a refusal that names the cause. */
#include "validator.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "../lib/json.h"
#include "../lib/spawn.h"

static void json_putp(json_object **o)
{
        if (*o)
                json_object_put(*o);
}

static void tokener_freep(json_tokener **t)
{
        if (*t)
                json_tokener_free(*t);
}

/* ---- the shell string ------------------------------------------------------------- */

static bool is_shell(const char *path)
{
        static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh" };
        const char *base = strrchr(path, '/');

        base = base ? base + 1 : path;
        for (size_t i = 0; i < ELEMENTSOF(shells); i++)
                if (strcmp(base, shells[i]) == 0)
                        return true;
        return false;
}

/* sh [-abefhimnuvx...] [-o OPT] -c [options] STRING [NAME [ARGS...]]: the string is
 * the first operand after the options, when one of them held 'c'.  As the shells read
 * them: each 'o' or 'O' of a group takes the next word (-co errexit STRING), as do
 * bash's --rcfile and --init-file; "-" and "--" end the options and are dropped.
 * "busybox sh" is sh. */
const char *sbx_shell_string(char *const *argv)
{
        bool c = false;
        size_t i = 1;

        if (!argv || !argv[0])
                return NULL;
        if (!is_shell(argv[0])) {
                const char *base = strrchr(argv[0], '/');

                base = base ? base + 1 : argv[0];
                if (strcmp(base, "busybox") != 0 || !argv[1] || !is_shell(argv[1]))
                        return NULL;
                i = 2;
        }
        for (; argv[i]; i++) {
                const char *a = argv[i];

                if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
                        i++;
                        break;
                }
                if (a[0] != '-' && a[0] != '+')
                        break;
                if (a[0] == '-' && a[1] == '-') { /* bash's --login, --norc...; two take a file */
                        if ((strcmp(a, "--rcfile") == 0 || strcmp(a, "--init-file") == 0) && argv[i + 1])
                                i++;
                        continue;
                }
                for (const char *l = a + 1; *l; l++) {
                        if (*l == 'c' && a[0] == '-')
                                c = true;
                        if ((*l == 'o' || *l == 'O') && argv[i + 1]) /* -o NAME, also grouped */
                                i++;
                }
        }
        return c && argv[i] ? argv[i] : NULL;
}

/* ---- the request ------------------------------------------------------------------ */

static bool is_utf8(const char *s)
{
        for (const unsigned char *p = (const unsigned char *)s; *p;) {
                size_t n = sbx_utf8_len(p);

                if (n == 0)
                        return false;
                p += n;
        }
        return true;
}

/* Adds @key: @s as a string, or null. */
static int add_string(json_object *o, const char *key, const char *s)
{
        json_object *v = NULL;

        if (s && !(v = json_object_new_string(s)))
                return -ENOMEM;
        return json_object_object_add(o, key, v) < 0 ? -ENOMEM : 0;
}

static int add_int(json_object *o, const char *key, int64_t n)
{
        json_object *v = json_object_new_int64(n);

        return v && json_object_object_add(o, key, v) == 0 ? 0 : -ENOMEM;
}

char *sbx_validator_request(const struct sbx_validator_ask *q, bool *not_utf8)
{
        _cleanup_(json_putp) json_object *o = json_object_new_object();
        json_object *argv = json_object_new_array();
        const char *strings[] = { q->cwd, q->profile, q->tool_use_id, q->session_id };

        *not_utf8 = false;
        if (!o || !argv || add_int(o, "version", 1) < 0 || add_string(o, "validator", q->which) < 0 ||
            json_object_object_add(o, "argv", argv) < 0) {
                json_object_put(argv);
                return NULL;
        }
        /* The validator judges exactly the bytes that will run: a string it could only
         * be shown altered (invalid UTF-8 replaced) is refused instead. */
        for (size_t i = 0; i < ELEMENTSOF(strings); i++)
                if (strings[i] && !is_utf8(strings[i]))
                        *not_utf8 = true;
        for (char *const *a = q->argv; a && *a; a++) {
                json_object *s;

                if (!is_utf8(*a))
                        *not_utf8 = true;
                if (!(s = json_object_new_string(*a)) || json_object_array_add(argv, s) < 0) {
                        json_object_put(s);
                        return NULL;
                }
        }
        if (*not_utf8)
                return NULL;
        if (add_string(o, "command", sbx_shell_string(q->argv)) < 0 || add_string(o, "cwd", q->cwd) < 0 ||
            add_string(o, "profile", q->profile) < 0 || add_int(o, "uid", q->uid) < 0 || add_int(o, "gid", q->gid) < 0 ||
            add_string(o, "mode", q->mode) < 0 || add_string(o, "tool_use_id", q->tool_use_id) < 0 ||
            add_string(o, "session_id", q->session_id) < 0)
                return NULL;
        const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

        return text ? strdup(text) : NULL;
}

/* ---- the answer ------------------------------------------------------------------- */

/* @s as one line of at most @size bytes: controls become spaces (the reason goes to a
 * terminal, a journal field and a one-line message), cut on a UTF-8 boundary. */
static void one_line(char *out, size_t size, const char *s)
{
        size_t o = 0;

        for (const unsigned char *p = (const unsigned char *)s; *p;) {
                size_t n = sbx_utf8_len(p);

                if (n == 0 || o + n >= size)
                        break;
                if (n == 1 && (*p < 0x20 || *p == 0x7f))
                        out[o++] = ' ';
                else {
                        memcpy(out + o, p, n);
                        o += n;
                }
                p += n;
        }
        out[o] = '\0';
}

static int garbage(struct sbx_validation *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int garbage(struct sbx_validation *v, const char *fmt, ...)
{
        char msg[256];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        one_line(v->reason, sizeof(v->reason), msg);
        v->confidence = -1;
        return v->verdict = SBX_VV_ERROR;
}

/* The keys at the top of the object @buf[0..@len) (JSON that json-c already took):
 * json-c keeps the last of two equal keys, another reader the first, so an answer
 * such as {"verdict":"block","reason":"..","verdict":"allow"} (a validator that
 * pasted the command into its reason by hand) has no one meaning. */
static size_t top_keys(const char *buf, size_t len)
{
        size_t depth = 0, n = 0;
        bool in_string = false, key_next = false;

        for (size_t i = 0; i < len; i++) {
                char c = buf[i];

                if (in_string) {
                        if (c == '\\')
                                i++;
                        else if (c == '"')
                                in_string = false;
                        continue;
                }
                if (c == '"') {
                        in_string = true;
                        if (depth == 1 && key_next)
                                n++;
                        key_next = false;
                } else if (c == '{' || c == '[') {
                        depth++;
                        key_next = depth == 1 && c == '{';
                } else if (c == '}' || c == ']') {
                        depth--;
                } else if (c == ',' && depth == 1) {
                        key_next = true;
                }
        }
        return n;
}

/* @o is a string that its C string holds whole (no NUL byte cuts it short). */
static bool whole_string(json_object *o)
{
        return json_object_is_type(o, json_type_string) &&
               strlen(json_object_get_string(o)) == (size_t)json_object_get_string_len(o);
}

int sbx_validator_parse(const char *buf, size_t len, struct sbx_validation *v)
{
        static const char *const verdicts[] = { [SBX_VV_ALLOW] = "allow", [SBX_VV_WARN] = "warn", [SBX_VV_BLOCK] = "block" };
        _cleanup_(tokener_freep) json_tokener *tok = json_tokener_new();
        _cleanup_(json_putp) json_object *o = NULL;
        json_object *verdict, *reason, *confidence;
        enum json_tokener_error err;
        const char *name;
        int which = SBX_VV_NONE;

        v->confidence = -1;
        if (!tok)
                return garbage(v, "out of memory reading its answer");
        if (len == 0)
                return garbage(v, "it answered nothing (expected {\"verdict\":\"allow|warn|block\",\"reason\":\"...\"})");
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
        o = json_tokener_parse_ex(tok, buf, (int)len);
        err = json_tokener_get_error(tok);
        if (!o || err != json_tokener_success)
                return garbage(v, "its answer is not JSON: %s", err == json_tokener_continue ? "it ends too early"
                                                                                              : json_tokener_error_desc(err));
        for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
                if (!strchr(" \t\r\n", buf[i]))
                        return garbage(v, "its answer has more after the JSON object");
        if (!json_object_is_type(o, json_type_object))
                return garbage(v, "its answer is a JSON %s, not an object", json_type_to_name(json_object_get_type(o)));
        if (top_keys(buf, json_tokener_get_parse_end(tok)) != (size_t)json_object_object_length(o))
                return garbage(v, "its answer gives a key twice");
        if (!json_object_object_get_ex(o, "verdict", &verdict) || !whole_string(verdict))
                return garbage(v, "its answer has no \"verdict\" string");
        name = json_object_get_string(verdict);
        for (int i = SBX_VV_ALLOW; i <= SBX_VV_BLOCK; i++)
                if (strcmp(name, verdicts[i]) == 0)
                        which = i;
        if (which == SBX_VV_NONE)
                return garbage(v, "its verdict is not allow, warn or block: '%.60s'", name);
        if (json_object_object_get_ex(o, "reason", &reason) && !json_object_is_type(reason, json_type_null)) {
                if (!whole_string(reason))
                        return garbage(v, "its \"reason\" is not a string (without NUL)");
                one_line(v->reason, sizeof(v->reason), json_object_get_string(reason));
        } else {
                v->reason[0] = '\0';
        }
        if (json_object_object_get_ex(o, "confidence", &confidence) && !json_object_is_type(confidence, json_type_null)) {
                double c = json_object_get_double(confidence);

                if ((!json_object_is_type(confidence, json_type_double) && !json_object_is_type(confidence, json_type_int)) ||
                    !(c >= 0.0 && c <= 1.0))
                        return garbage(v, "its \"confidence\" is not a number from 0 to 1");
                v->confidence = c;
        }
        if (!v->reason[0])
                snprintf(v->reason, sizeof(v->reason), "no reason given");
        return v->verdict = which;
}

/* ---- running it ------------------------------------------------------------------- */

static const char *signal_name(int sig)
{
        const char *n = sigabbrev_np(sig);

        return n ? n : "?";
}

/* Why a validator that ran gave no verdict, into v->reason; SBX_VV_ERROR. */
static int no_answer(struct sbx_validation *v, const struct sbx_spawn_result *res, uint64_t timeout_ms)
{
        char why[400];
        const char *tail = res->errtail[0] ? res->errtail : NULL;

        if (res->exec_errno)
                snprintf(why, sizeof(why), "it could not be started: %s", strerror(res->exec_errno));
        else if (res->timed_out)
                snprintf(why, sizeof(why), "it gave no answer within %llu ms and was killed",
                         (unsigned long long)timeout_ms);
        else if (res->overflow)
                snprintf(why, sizeof(why), "it answered more than %u bytes and was killed", SBX_VALIDATOR_OUTPUT_MAX);
        else if (res->signal)
                snprintf(why, sizeof(why), "it crashed (signal %d, SIG%s)%s%s", res->signal, signal_name(res->signal),
                         tail ? ": " : "", tail ? tail : "");
        else
                snprintf(why, sizeof(why), "it exited with status %d%s%s", res->exit_code, tail ? ": " : "", tail ? tail : "");
        one_line(v->reason, sizeof(v->reason), why);
        v->confidence = -1;
        return v->verdict = SBX_VV_ERROR;
}

int sbx_validator_run(const struct sbx_validator_conf *conf, const struct sbx_validator_ask *q,
                      const struct sbx_validator_as *as, struct sbx_validation *v, struct sbx_error *e)
{
        _cleanup_free_ char *req = NULL;
        struct sbx_spawn_result res;
        bool not_utf8 = false;
        uint64_t timeout = conf->timeout_ms ? conf->timeout_ms : SBX_VALIDATOR_TIMEOUT_MS;
        int r;

        *v = (struct sbx_validation){ .verdict = SBX_VV_ERROR, .confidence = -1 };
        snprintf(v->validator, sizeof(v->validator), "%s", conf->command.n ? conf->command.v[0] : "");
        if (!(req = sbx_validator_request(q, &not_utf8))) {
                if (!not_utf8)
                        return sbx_error_set(e, SBX_STAGE_VALIDATOR, ENOMEM, "", "", "out of memory");
                snprintf(v->reason, sizeof(v->reason), "the command is not valid UTF-8, so the validator cannot be shown it exactly");
                return v->verdict;
        }
        if ((r = sbx_spawn_run(&(struct sbx_spawn){ .argv = conf->command.v,
                                                    .input = req,
                                                    .input_len = strlen(req),
                                                    .output_max = SBX_VALIDATOR_OUTPUT_MAX,
                                                    .timeout_ms = timeout,
                                                    .drop = as->drop,
                                                    .uid = as->uid,
                                                    .gid = as->gid,
                                                    .pidns = as->pidns },
                               &res, e)) < 0) {
                sbx_spawn_result_done(&res);
                return r;
        }
        if (res.exec_errno || res.timed_out || res.overflow || res.signal || res.exit_code != 0)
                r = no_answer(v, &res, timeout);
        else
                r = sbx_validator_parse(res.output, res.len, v);
        sbx_spawn_result_done(&res);
        return r;
}
