/* SPDX-License-Identifier: MIT */
/* Fuzzes sandboxd's validation layer for Run requests (sandboxd/request.c): the input
 * is a sequence of setter calls, then sbx_request_finish(), then sbx_request_done(), as
 * sandboxd/api.c makes them from a D-Bus message, except that a refused call does not
 * end the request (so later calls run on whatever state a refusal left).
 *
 * Encoding, one call after another:
 *   call    := [0x80|op] count:u16le body     the same call count times (count < 5000)
 *            | op body                         once; op (its low 7 bits) mod 6 picks:
 *   0 profile(str)  1 arg(str)  2 env(str, str)  3 environ(str)
 *   4 option_str(key, str)  5 option_u64(key, u64le)
 *   str     := n:u8 (< 0xf0) n bytes           short
 *            | 0xf0..0xfe n:u16le n bytes      longer (cut at the end of the input)
 *            | 0xff n:u24le fill:u8 m:u8 m bytes
 *                                              n bytes (n <= 300000): the m bytes, then
 *                                              fill ("A=" or "/" then 128 KiB of 'v'), to
 *                                              reach the 128 KiB and 1 MiB bounds cheaply
 *   key     := k:u8 (< 0x80)                   one of the known and unknown keys below
 *            | k:u8 (>= 0x80) str              any key
 * A NUL inside a str ends it, as a D-Bus string cannot hold one.  After each call and
 * after finish the harness checks the layer's invariants and aborts if one breaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/cleanup.h"
#include "../../policy/profile.h"
#include "../../sandboxd/request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OP_PROFILE, OP_ARG, OP_ENV, OP_ENVIRON, OP_OPTION_STR, OP_OPTION_U64, N_OPS };

static const char *const keys[] = {
        "ro", "rw", "tmpfs", "net", "hostname", "timeout_ms", "memory", "pids", "cpu_seconds",
        "environ", "workspace", "profile", "env", "help", "socket", "daemon", "timeout", "stack", "net_deny",
        "nofile", "fsize", "workdir", "",
};

struct input {
        const uint8_t *p, *end;
};

struct call {
        int op;
        char *a, *b;
        const char *key;
        char *key_owned;
        uint64_t u;
};

static uint64_t read_le(struct input *in, size_t n)
{
        uint64_t v = 0;

        for (size_t i = 0; i < n && in->p < in->end; i++)
                v |= (uint64_t)*in->p++ << (8 * i);
        return v;
}

static char *read_str(struct input *in)
{
        uint8_t b = (uint8_t)read_le(in, 1);
        size_t n, avail;
        char *s;

        if (b == 0xff) {
                size_t m;
                int fill;

                n = (size_t)read_le(in, 3);
                if (n > 300000)
                        n = 300000;
                fill = (int)read_le(in, 1) ?: 'a';
                m = (size_t)read_le(in, 1);
                avail = (size_t)(in->end - in->p);
                m = m < avail ? m : avail;
                s = malloc(n + 1);
                if (s) {
                        memset(s, fill, n);
                        memcpy(s, in->p, m < n ? m : n);
                        s[n] = '\0';
                }
                in->p += m;
                return s;
        }
        n = b < 0xf0 ? b : (size_t)read_le(in, 2);
        avail = (size_t)(in->end - in->p);
        if (n > avail)
                n = avail;
        s = strndup((const char *)in->p, n);
        in->p += n;
        return s;
}

static void read_key(struct input *in, struct call *c)
{
        uint8_t k = (uint8_t)read_le(in, 1);

        if (k < 0x80) {
                c->key = keys[k % ELEMENTSOF(keys)];
                return;
        }
        c->key_owned = read_str(in);
        c->key = c->key_owned;
}

/* Reads one call's body; false when out of memory. */
static bool read_call(struct input *in, int op, struct call *c)
{
        *c = (struct call){ .op = op };
        switch (op) {
        case OP_ENV:
                c->a = read_str(in);
                c->b = read_str(in);
                return c->a && c->b;
        case OP_OPTION_STR:
                read_key(in, c);
                c->a = read_str(in);
                return c->key && c->a;
        case OP_OPTION_U64:
                read_key(in, c);
                c->u = read_le(in, 8);
                return c->key;
        default:
                c->a = read_str(in);
                return c->a;
        }
}

static void call_done(struct call *c)
{
        free(c->a);
        free(c->b);
        free(c->key_owned);
}

static int run_call(struct sbx_request *rq, const struct call *c, struct sbx_error *e)
{
        switch (c->op) {
        case OP_PROFILE:
                return sbx_request_profile(rq, c->a, e);
        case OP_ARG:
                return sbx_request_arg(rq, c->a, e);
        case OP_ENV:
                return sbx_request_env(rq, c->a, c->b, e);
        case OP_ENVIRON:
                return sbx_request_environ(rq, c->a, e);
        case OP_OPTION_STR:
                return sbx_request_option_str(rq, c->key, c->a, e);
        default:
                return sbx_request_option_u64(rq, c->key, c->u, e);
        }
}

static void check(bool ok)
{
        if (!ok)
                abort();
}

/* A refusal is typed, staged "request" and says something; the bounds always hold. */
static void check_state(const struct sbx_request *rq, int r, const struct sbx_error *e)
{
        if (r < 0) {
                check(e->errnum == -r && e->stage == SBX_STAGE_REQUEST && e->msg[0] != '\0');
                char line[1024];
                sbx_error_format(e, line, sizeof(line));
        } else {
                check(r == 0);
        }
        check(rq->cmd.n <= SBX_REQ_MAX_ARGS && rq->bytes <= SBX_REQ_MAX_BYTES);
        check(rq->n_env <= SBX_REQ_MAX_ENV && rq->environ.n <= SBX_REQ_MAX_ENVIRON);
        check(rq->ask.plan.n_mounts <= SBX_REQ_MAX_MOUNTS);
        check(rq->profile[0] == '\0' || sbx_is_profile_name(rq->profile));
}

/* A finished request runs exactly the command given, with nothing chosen that the bus
 * cannot choose (a workspace path: the workspace comes as an fd), and every number
 * within its row's bounds. */
static void check_finished(const struct sbx_request *rq)
{
        const struct sbx_plan *p = &rq->ask.plan;

        check(rq->profile[0] != '\0' && !p->workspace);
        check(p->n_mounts <= SBX_REQ_MAX_MOUNTS && p->n_env <= SBX_REQ_MAX_ENV);
        for (size_t i = 0; i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];

                if (sbx_option_bus_type(o) == 't' && sbx_ask_given(&rq->ask, o))
                        check(sbx_option_get_u64(p, o) >= o->bounds.min && sbx_option_get_u64(p, o) <= o->bounds.max);
        }
        for (size_t i = 0; i < rq->cmd.n; i++)
                check(p->argv[i] && strcmp(p->argv[i], rq->cmd.v[i]) == 0);
        check(p->argv[rq->cmd.n] == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct input in = { data, data + size };
        struct sbx_request rq;
        struct sbx_error e;
        int r;

        sbx_request_init(&rq);
        while (in.p < in.end) {
                uint8_t op = (uint8_t)read_le(&in, 1);
                unsigned count = op & 0x80 ? (unsigned)read_le(&in, 2) % 5000 : 1;
                struct call c;

                if (read_call(&in, (op & 0x7f) % N_OPS, &c))
                        for (unsigned i = 0; i < count; i++) {
                                e = (struct sbx_error){ 0 };
                                r = run_call(&rq, &c, &e);
                                check_state(&rq, r, &e);
                        }
                call_done(&c);
        }
        e = (struct sbx_error){ 0 };
        r = sbx_request_finish(&rq, &e);
        check_state(&rq, r, &e);
        if (r == 0)
                check_finished(&rq);
        sbx_request_done(&rq);
        return 0;
}
