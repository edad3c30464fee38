/* SPDX-License-Identifier: MIT */
/* Why each bound: a request is read in full by sd-bus before we see it (its own limit is
 * 128 MiB), so the bounds here keep what the daemon holds per sandbox small, and they
 * are the kernel's own where there is one (an argv string longer than MAX_ARG_STRLEN
 * could never be executed). */
#include "request.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "../policy/profile.h"

static int invalid(struct sbx_error *e, int err, const char *field, const char *what)
{
        sbx_error_set(e, SBX_STAGE_REQUEST, err, "", "", "%s: %s", field, what);
        sbx_error_hint(e, "see sandboxd(8) for the Run method's arguments");
        return -err;
}

/* Every string of the request counts against one budget. */
static int take(struct sbx_request *rq, const char *s, const char *field, struct sbx_error *e)
{
        size_t n = strlen(s);

        if (n >= SBX_REQ_MAX_STRING)
                return invalid(e, E2BIG, field, "a string longer than 128 KiB");
        if (rq->bytes + n + 1 > SBX_REQ_MAX_BYTES)
                return invalid(e, E2BIG, field, "the request's strings exceed 1 MiB together");
        rq->bytes += n + 1;
        return 0;
}

static int push(struct sbx_strv *v, const char *s, struct sbx_error *e)
{
        if (sbx_strv_push(v, s) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, ENOMEM, "", "", "out of memory");
        return 0;
}

void sbx_request_init(struct sbx_request *rq)
{
        *rq = (struct sbx_request){ 0 };
}

/* The caller's environment and env values may hold secrets, and the daemon's heap is
 * what every later launcher starts from (it forks): wipe them, not only free them. */
static void wipe(struct sbx_strv *v)
{
        for (size_t i = 0; i < v->n; i++)
                explicit_bzero(v->v[i], strlen(v->v[i]));
}

void sbx_request_done(struct sbx_request *rq)
{
        wipe(&rq->environ);
        wipe(&rq->words);
        wipe(&rq->all);
        if (rq->finished)
                sbx_options_done(&rq->opts);
        sbx_strv_free(&rq->words);
        sbx_strv_free(&rq->cmd);
        sbx_strv_free(&rq->environ);
        sbx_strv_free(&rq->all);
        *rq = (struct sbx_request){ 0 };
}

int sbx_request_profile(struct sbx_request *rq, const char *name, struct sbx_error *e)
{
        /* A name, never a path: the daemon loads its own profiles and never a
         * caller's file (../../etc/x is not a name). */
        if (!sbx_is_profile_name(name))
                return invalid(e, EINVAL, "profile", "not a profile name (letters, digits, '-', '_', '.'; at most 64)");
        snprintf(rq->profile, sizeof(rq->profile), "%s", name);
        return 0;
}

int sbx_request_arg(struct sbx_request *rq, const char *arg, struct sbx_error *e)
{
        int r;

        if (rq->cmd.n >= SBX_REQ_MAX_ARGS)
                return invalid(e, E2BIG, "argv", "more than 4096 arguments");
        if ((r = take(rq, arg, "argv", e)) < 0)
                return r;
        return push(&rq->cmd, arg, e);
}

int sbx_request_env(struct sbx_request *rq, const char *name, const char *value, struct sbx_error *e)
{
        _cleanup_free_ char *pair = NULL;
        int r;

        if (rq->n_env >= SBX_REQ_MAX_ENV)
                return invalid(e, E2BIG, "env", "more than 256 variables");
        if (!sbx_is_env_name(name, strlen(name)) || strlen(name) > 128)
                return invalid(e, EINVAL, "env", "a variable name is letters, digits and '_', not starting with a digit");
        if ((r = take(rq, name, "env", e)) < 0 || (r = take(rq, value, "env", e)) < 0)
                return r;
        if (asprintf(&pair, "%s=%s", name, value) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, ENOMEM, "", "", "out of memory");
        rq->n_env++;
        if ((r = push(&rq->words, "--env", e)) < 0)
                return r;
        return push(&rq->words, pair, e);
}

int sbx_request_environ(struct sbx_request *rq, const char *entry, struct sbx_error *e)
{
        const char *eq = strchr(entry, '=');
        int r;

        if (rq->environ.n >= SBX_REQ_MAX_ENVIRON)
                return invalid(e, E2BIG, "environ", "more than 1024 variables");
        if (!eq || !sbx_is_env_name(entry, (size_t)(eq - entry)))
                return invalid(e, EINVAL, "environ", "each entry is NAME=VALUE");
        if ((r = take(rq, entry, "environ", e)) < 0)
                return r;
        return push(&rq->environ, entry, e);
}

static bool is_mount_key(const char *key)
{
        return strcmp(key, "ro") == 0 || strcmp(key, "rw") == 0 || strcmp(key, "tmpfs") == 0;
}

int sbx_request_option_str(struct sbx_request *rq, const char *key, const char *value, struct sbx_error *e)
{
        bool net = strcmp(key, "net") == 0, hostname = strcmp(key, "hostname") == 0;
        char flag[16];
        int r;

        if (!net && !hostname && !is_mount_key(key)) {
                sbx_error_set(e, SBX_STAGE_REQUEST, EINVAL, "", "", "option '%.64s' is unknown or not a string", key);
                sbx_error_hint(e, "string options: ro, rw, tmpfs, net, hostname; numbers (t): timeout_ms, memory, pids, cpu_seconds");
                return -EINVAL;
        }
        /* Each string option once, but the mounts, which repeat. */
        if ((net && rq->net_seen) || (hostname && rq->hostname_seen))
                return invalid(e, EINVAL, key, "option given twice");
        if (!net && !hostname && rq->n_mounts++ >= SBX_REQ_MAX_MOUNTS)
                return invalid(e, E2BIG, "options", "more than 64 mounts");
        rq->net_seen |= net;
        rq->hostname_seen |= hostname;
        if ((r = take(rq, value, "options", e)) < 0)
                return r;
        snprintf(flag, sizeof(flag), "--%s", key);
        if ((r = push(&rq->words, flag, e)) < 0)
                return r;
        return push(&rq->words, value, e);
}

int sbx_request_option_u64(struct sbx_request *rq, const char *key, uint64_t value, struct sbx_error *e)
{
        static const struct {
                const char *key, *flag;
        } numeric[] = {
                { "timeout_ms", "--timeout" },
                { "memory", "--memory" },
                { "pids", "--pids" },
                { "cpu_seconds", "--cpu" },
        };
        char buf[32];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(numeric); i++) {
                if (strcmp(key, numeric[i].key) != 0)
                        continue;
                /* Seen by key, not by looking in words: a path may be spelt "--memory". */
                if (rq->numeric_seen & (1u << i))
                        return invalid(e, EINVAL, numeric[i].key, "option given twice");
                rq->numeric_seen |= 1u << i;
                if (i == 0)
                        snprintf(buf, sizeof(buf), "%llu.%03llu", (unsigned long long)(value / 1000),
                                 (unsigned long long)(value % 1000));
                else
                        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)value);
                if ((r = push(&rq->words, numeric[i].flag, e)) < 0)
                        return r;
                return push(&rq->words, buf, e);
        }
        sbx_error_set(e, SBX_STAGE_REQUEST, EINVAL, "", "", "option '%.64s' is unknown or not a number", key);
        sbx_error_hint(e, "numbers (t): timeout_ms, memory, pids, cpu_seconds; strings: ro, rw, tmpfs, net, hostname");
        return -EINVAL;
}

int sbx_request_finish(struct sbx_request *rq, struct sbx_error *e)
{
        int r;

        if (!rq->profile[0])
                return invalid(e, EINVAL, "profile", "empty");
        if (rq->cmd.n == 0 || rq->cmd.v[0][0] == '\0')
                return invalid(e, EINVAL, "argv", "no command given");
        if ((r = push(&rq->all, "sandboxd", e)) < 0)
                return r;
        for (size_t i = 0; i < rq->words.n; i++)
                if ((r = push(&rq->all, rq->words.v[i], e)) < 0)
                        return r;
        if ((r = push(&rq->all, "--", e)) < 0)
                return r;
        for (size_t i = 0; i < rq->cmd.n; i++)
                if ((r = push(&rq->all, rq->cmd.v[i], e)) < 0)
                        return r;
        rq->argv = rq->all.v;
        if ((r = sbx_options_parse((int)rq->all.n, rq->argv, &rq->opts, e)) < 0) {
                sbx_options_done(&rq->opts);
                /* The caller sent a Run call, not a command line: the stage is the
                 * request's (request.h), the flag named is the option's twin. */
                e->stage = SBX_STAGE_REQUEST;
                sbx_error_prefix(e, "in the Run call's options");
                return r;
        }
        rq->finished = true;
        return 0;
}
