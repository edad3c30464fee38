/* SPDX-License-Identifier: MIT */
/* Runs a helper program as a filter, outside any jail: bytes in on its stdin, its stdout
 * back (bounded), within a deadline, and nothing of it left afterwards.  The external
 * validator (policy/validator.c) is its user.  Runs in sbx-run (direct mode) and in
 * sandboxd's launcher, before the jail exists.
 *
 * The helper gets: stdin (a socket carrying @input, then EOF), stdout and stderr (pipes
 * read here); no other fd; an environment of PATH only; "/" as its working directory; its own session and process
 * group; no_new_privs; default signal dispositions and an empty signal mask; death
 * with its parent.  With @drop, it runs as @uid/@gid with no supplementary group (set
 * from root, so it keeps no capability).  With @pidns (root only), it is PID 1 of a
 * PID namespace of its own, so that when it is killed, or ends, every process it
 * started ends with it, even one that left its process group; without, its process
 * group is killed. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

struct sbx_spawn {
        char *const *argv;  /* argv[0]: an absolute path */
        const char *input;
        size_t input_len;
        size_t output_max;  /* stdout beyond this many bytes is an overflow: it is killed */
        uint64_t timeout_ms;
        bool drop;          /* become uid/gid (the caller must be root) */
        uid_t uid;
        gid_t gid;
        bool pidns;         /* a PID namespace of its own (needs CAP_SYS_ADMIN; falls back to
                             * its process group where the kernel refuses one) */
};

struct sbx_spawn_result {
        char *output;        /* stdout, NUL-terminated (malloc'd; free with sbx_spawn_result_done) */
        size_t len;
        char errtail[200];   /* the last line of its stderr, for a failure's message */
        int exit_code;       /* -1 when a signal ended it */
        int signal;          /* the signal that ended it, 0 when none */
        bool timed_out;      /* killed at the deadline */
        bool overflow;       /* killed for writing more than output_max bytes */
        int exec_errno;      /* not started: execve's errno (ENOENT, EACCES...) */
};

/* Runs @s.  0 when the helper ran and was reaped (what it did is in @res: exit, signal,
 * timeout, overflow, exec failure), or -errno with @e filled when sbx could not run it
 * (no pipe, no fork, no memory). */
int sbx_spawn_run(const struct sbx_spawn *s, struct sbx_spawn_result *res, struct sbx_error *e);
void sbx_spawn_result_done(struct sbx_spawn_result *res);
