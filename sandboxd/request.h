/* SPDX-License-Identifier: MIT */
/* A Run request, checked field by field as it is read off the bus: the daemon's
 * validation layer for untrusted input (fuzzed by tests/fuzz/fuzz_request.c).  Options
 * are read through the same table as sbx-run's command line (policy/options.h), into
 * the same struct sbx_ask, so the daemon and the CLI narrow a profile identically. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/error.h"
#include "../lib/strv.h"
#include "../policy/options.h"

#define SBX_REQ_MAX_ARGS 4096         /* argv elements */
#define SBX_REQ_MAX_STRING 131072     /* one string: the kernel's MAX_ARG_STRLEN */
#define SBX_REQ_MAX_BYTES (1u << 20)  /* every string of a request together */
#define SBX_REQ_MAX_ENV 256           /* env additions */
#define SBX_REQ_MAX_ENVIRON 1024      /* the caller's environment, for environment.pass */
#define SBX_REQ_MAX_MOUNTS 64         /* ro + rw + tmpfs */

struct sbx_request {
        char profile[65];
        struct sbx_strv cmd;     /* the command's argv */
        struct sbx_strv environ; /* NAME=VALUE, the caller's own */
        size_t bytes, n_env, n_mounts;
        struct sbx_ask ask;      /* the options and env, to narrow the profile with;
                                  * ask.plan.argv is cmd's after sbx_request_finish() */
};

void sbx_request_init(struct sbx_request *rq);
void sbx_request_done(struct sbx_request *rq);

/* Each returns 0, or -EINVAL/-E2BIG/-ENOMEM with @e (stage "request") saying which
 * field is wrong and why. */
int sbx_request_profile(struct sbx_request *rq, const char *name, struct sbx_error *e);
int sbx_request_arg(struct sbx_request *rq, const char *arg, struct sbx_error *e);
int sbx_request_env(struct sbx_request *rq, const char *name, const char *value, struct sbx_error *e);
int sbx_request_environ(struct sbx_request *rq, const char *entry, struct sbx_error *e);
/* Options: the rows of policy/options.c that have a Run key, strings ('s') or numbers
 * ('t'); those that repeat (sbx_option_repeats) may be given again, the others once. */
int sbx_request_option_str(struct sbx_request *rq, const char *key, const char *value, struct sbx_error *e);
int sbx_request_option_u64(struct sbx_request *rq, const char *key, uint64_t value, struct sbx_error *e);
/* An option of a D-Bus type no key takes (@type, e.g. "b" or "as" for a number): the
 * refusal, its hint listing the Run keys by type from the option table.  -EINVAL. */
int sbx_request_option_type_error(const char *key, const char *type, struct sbx_error *e);
/* The whole request: a profile and a command are required. */
int sbx_request_finish(struct sbx_request *rq, struct sbx_error *e);
