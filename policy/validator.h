/* SPDX-License-Identifier: MIT */
/* The external validator (issue 12, "the SecBASH layer"): a program a profile or the
 * site policy names, asked about every command before it runs.  sbx writes it one JSON
 * object on stdin and reads one back from its stdout:
 *
 *   in:  {"version":1,"validator":"site|profile","argv":[...],"command":"the -c string"|null,
 *         "cwd":"/ws","profile":"workspace","uid":1000,"gid":1000,"mode":"direct|daemon",
 *         "tool_use_id":"..."|null,"session_id":"..."|null}
 *   out: {"verdict":"allow|warn|block","reason":"...","confidence":0.0-1.0}
 *
 * block refuses the command (exit 126); warn lets it run and records the warning.  A
 * validator that cannot answer -- not started, timed out, killed, crashed, exited
 * non-zero, more than SBX_VALIDATOR_OUTPUT_MAX bytes, not that JSON -- refuses it too
 * (fail closed), with the cause as the reason.  json-c parses and writes both sides;
 * lib/spawn.c runs the program.  sbx-profile(5) VALIDATOR, sbx-policy(5) validator. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/error.h"
#include "../lib/strv.h"
#include "../lib/validation.h"

#define SBX_VALIDATOR_OUTPUT_MAX (64u << 10) /* its answer, at most */
#define SBX_VALIDATOR_TIMEOUT_MS 5000        /* when the profile or policy says none */

/* A profile's `validator:`, or the site policy's. */
struct sbx_validator_conf {
        struct sbx_strv command; /* the program (an absolute path) and its arguments; empty: none */
        uint64_t timeout_ms;     /* 0: SBX_VALIDATOR_TIMEOUT_MS */
};

/* What the validator is told about the command. */
struct sbx_validator_ask {
        const char *which;      /* "site" or "profile" */
        char *const *argv;
        const char *cwd;        /* where the command starts (the workspace) */
        const char *profile;
        const char *mode;       /* "direct" or "daemon" */
        uid_t uid;              /* the caller */
        gid_t gid;
        const char *tool_use_id, *session_id; /* the harness's tags; NULL when not given */
};

/* Whom it runs as (lib/spawn.h). */
struct sbx_validator_as {
        bool drop;  /* become uid/gid (from root) */
        uid_t uid;
        gid_t gid;
        bool pidns; /* root: a PID namespace of its own */
};

/* Asks @conf's program about @q, as @as; @v gets the verdict (SBX_VV_ERROR with the
 * cause when it could not answer).  Returns the verdict, or -errno with @e filled when
 * sbx itself failed (no memory, no fork): the caller refuses the command either way. */
int sbx_validator_run(const struct sbx_validator_conf *conf, const struct sbx_validator_ask *q,
                      const struct sbx_validator_as *as, struct sbx_validation *v, struct sbx_error *e);

/* The pieces, for tests and fuzzing. */
/* The request object as a JSON string (malloc'd), or NULL: out of memory, or an argv
 * that is not UTF-8 (*@not_utf8 set), which the validator could not be shown exactly. */
char *sbx_validator_request(const struct sbx_validator_ask *q, bool *not_utf8);
/* Parses an answer of @len bytes into @v's verdict, reason and confidence: the verdict,
 * or SBX_VV_ERROR with the reason saying what is wrong with it. */
int sbx_validator_parse(const char *buf, size_t len, struct sbx_validation *v);
/* The shell string of a `sh -c STRING` argv (sh, bash, dash, zsh, ksh, mksh, busybox
 * sh; -c anywhere in the options, -lc, --), or NULL. */
const char *sbx_shell_string(char *const *argv);
