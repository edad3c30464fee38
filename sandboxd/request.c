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
        sbx_ask_init(&rq->ask);
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
        for (size_t i = 0; i < rq->ask.plan.n_env; i++)
                explicit_bzero(rq->ask.plan.env[i], strlen(rq->ask.plan.env[i]));
        rq->ask.plan.argv = NULL; /* cmd's */
        sbx_ask_done(&rq->ask);
        sbx_strv_free(&rq->cmd);
        sbx_strv_free(&rq->environ);
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

/* A table row's refusal (policy/options.c), as the request's: the caller sent a Run
 * call, not a command line, so the stage is the request's (request.h) and the message
 * says where; the row's own words and hint are kept. */
static int option_error(struct sbx_error *e, int r, const struct sbx_error *oe)
{
        *e = *oe;
        e->stage = SBX_STAGE_REQUEST;
        sbx_error_prefix(e, "in the Run call's options");
        return r;
}

int sbx_request_env(struct sbx_request *rq, const char *name, const char *value, struct sbx_error *e)
{
        _cleanup_free_ char *pair = NULL;
        struct sbx_error oe = { 0 };
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
        r = sbx_option_set(&rq->ask, sbx_option_by_cli("env"), "env", pair, &oe);
        explicit_bzero(pair, strlen(pair));
        return r < 0 ? option_error(e, r, &oe) : 0;
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

/* The Run key @key of D-Bus type @type, once unless its row repeats. */
static const struct sbx_option *option_row(struct sbx_request *rq, const char *key, char type, struct sbx_error *e)
{
        const struct sbx_option *o = sbx_option_by_bus(key);
        char strings[256], numbers[256];

        if (!o || sbx_option_bus_type(o) != type) {
                sbx_option_bus_keys('s', strings, sizeof(strings));
                sbx_option_bus_keys('t', numbers, sizeof(numbers));
                sbx_error_set(e, SBX_STAGE_REQUEST, EINVAL, "", "", "option '%.64s' is unknown or not a %s", key,
                              type == 't' ? "number" : "string");
                sbx_error_hint(e, "string options: %s; numbers (t): %s", strings, numbers);
                return NULL;
        }
        if (sbx_option_repeats(o)) {
                if (rq->n_mounts++ >= SBX_REQ_MAX_MOUNTS) {
                        invalid(e, E2BIG, "options", "more than 64 binds, tmpfs mounts and network deny rules together");
                        return NULL;
                }
        } else if (sbx_ask_given(&rq->ask, o)) {
                invalid(e, EINVAL, key, "option given twice");
                return NULL;
        }
        return o;
}

int sbx_request_option_str(struct sbx_request *rq, const char *key, const char *value, struct sbx_error *e)
{
        const struct sbx_option *o = option_row(rq, key, 's', e);
        struct sbx_error oe = { 0 };
        int r;

        if (!o)
                return -e->errnum;
        if ((r = take(rq, value, "options", e)) < 0)
                return r;
        r = sbx_option_set(&rq->ask, o, o->bus, value, &oe);
        return r < 0 ? option_error(e, r, &oe) : 0;
}

int sbx_request_option_u64(struct sbx_request *rq, const char *key, uint64_t value, struct sbx_error *e)
{
        const struct sbx_option *o = option_row(rq, key, 't', e);
        struct sbx_error oe = { 0 };
        int r;

        if (!o)
                return -e->errnum;
        r = sbx_option_set_u64(&rq->ask, o, value, &oe);
        return r < 0 ? option_error(e, r, &oe) : 0;
}

int sbx_request_option_type_error(const char *key, const char *type, struct sbx_error *e)
{
        char arrays[256], strings[256], numbers[256];

        sbx_option_bus_keys('a', arrays, sizeof(arrays));
        sbx_option_bus_keys('s', strings, sizeof(strings));
        sbx_option_bus_keys('t', numbers, sizeof(numbers));
        sbx_error_set(e, SBX_STAGE_REQUEST, EINVAL, "", "", "options: '%.64s' has the wrong type '%.16s'", key, type);
        sbx_error_hint(e, "%s, environ: as; %s: s; %s: t", arrays, strings, numbers);
        return -EINVAL;
}

int sbx_request_finish(struct sbx_request *rq, struct sbx_error *e)
{
        if (!rq->profile[0])
                return invalid(e, EINVAL, "profile", "empty");
        if (rq->cmd.n == 0 || rq->cmd.v[0][0] == '\0')
                return invalid(e, EINVAL, "argv", "no command given");
        rq->ask.plan.argv = rq->cmd.v;
        return 0;
}
