/* SPDX-License-Identifier: MIT */
/* Audit: one journal entry per decision and per exit, so that `journalctl MESSAGE_ID=…`
 * and `journalctl SBX_PROFILE=workspace` answer ops questions.  Each event kind has a
 * fixed MESSAGE_ID; the facts travel as SBX_* fields (see DESIGN.md, Contracts: Audit).
 * Without a journal, the same fields go to an audit file as one JSON line
 * (auditfile.h), or, failing that, to a stream as one logfmt line.
 *
 * Fields (each omitted when its value is absent: NULL, empty, pid 0, uid/gid -1):
 *   MESSAGE, MESSAGE_ID, PRIORITY (denied/kill 4, failed 3, others 6),
 *   SYSLOG_IDENTIFIER ("sbx-run" in direct mode, "sandboxd" otherwise),
 *   SBX_EVENT (allowed|denied|failed|exit|kill|reload|daemon), SBX_MODE, SBX_ID,
 *   SBX_PROFILE, SBX_UID, SBX_GID, SBX_PID, SBX_ARGV0 (basename of argv[0]),
 *   SBX_ARGV (a JSON array of at most argv_max bytes, always valid JSON: a cut closes
 *   the string and the array, and never splits a UTF-8 sequence or an escape),
 *   SBX_ARGV_TRUNCATED=1 (when cut), SBX_CWD, SBX_TOOL_USE_ID, SBX_SESSION_ID (the
 *   harness's tags: sbx-run --tool-use-id, --session-id), SBX_DECISION (allow|deny for
 *   allowed/denied, ok|failed for reload), SBX_REASON;
 *   with a result: SBX_EXIT_STATUS (sbx-run's exit status contract), SBX_EXIT_CODE,
 *   SBX_SIGNAL, SBX_TIMED_OUT (0|1), SBX_OOM_KILLED (0|1), SBX_DURATION_MS, SBX_CPU_MS
 *   (user + system), SBX_PEAK_MEMORY (bytes), SBX_WEAKENED (newline-separated notes);
 *   with an error: SBX_STAGE, SBX_ERRNO, SBX_SYSCALL, SBX_PATH, SBX_ERROR (the one-line
 *   message);
 *   when an external validator was asked: SBX_VALIDATOR (its program),
 *   SBX_VALIDATOR_VERDICT (allow|warn|block|error: error is one that gave no verdict,
 *   and was refused for it), SBX_VALIDATOR_REASON, SBX_VALIDATOR_CONFIDENCE (0.000-1.000,
 *   when it said).
 * Values other than SBX_ARGV are cut at 1024 bytes on a UTF-8 boundary.  Each field is
 * its own iovec, so no value, whatever bytes it holds, can start another field. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "jail.h"
#include "validation.h"

enum sbx_audit_event {
        SBX_AUDIT_ALLOWED, /* a launch was allowed (decision) */
        SBX_AUDIT_DENIED,  /* a launch was denied: reason says why (policy, command rule, limits) */
        SBX_AUDIT_FAILED,  /* allowed, but sbx failed to set it up: error says where */
        SBX_AUDIT_EXIT,    /* the sandbox ended: result */
        SBX_AUDIT_KILL,    /* a Kill request, or the client went away: reason */
        SBX_AUDIT_RELOAD,  /* sandboxd reloaded (reason empty) or kept its old config (reason says why) */
        SBX_AUDIT_DAEMON,  /* sandboxd started / stopping: reason */
};

struct sbx_audit {
        const char *id;      /* sandbox id, or NULL */
        const char *mode;    /* "direct" or "daemon" */
        const char *profile;
        uid_t uid;           /* the caller; (uid_t)-1: unknown, not logged */
        gid_t gid;           /* (gid_t)-1: unknown */
        pid_t pid;           /* 0: unknown */
        char *const *argv;   /* NULL-terminated, or NULL */
        size_t argv_max;     /* bytes of argv kept; 0: 4096 */
        const char *cwd;     /* the workspace */
        const char *tool_use_id, *session_id; /* the harness's tags, or NULL */
        const char *tier;          /* the isolation tier chosen (lib/tier.h), or NULL */
        const char *substitutions; /* what that tier substituted, or NULL/"" for nothing */
        const char *reason;
        bool ok;             /* RELOAD: true = swapped in */
        const struct sbx_result *result; /* EXIT */
        const struct sbx_error *error;   /* FAILED (and EXIT with an sbx error) */
        const struct sbx_validation *validation; /* the validators' verdict, or NULL */
};

/* A sandbox id: 16 lowercase hex digits and a NUL. */
#define SBX_AUDIT_ID_SIZE 17

/* Where records go besides the journal: the programs hold one, lib/ holds none. */
struct sbx_audit_sink {
        int fd;         /* JSON lines (auditfile.h): every record, journal or not; -1: none */
        FILE *fallback; /* logfmt, when neither the journal nor @fd took it; or NULL */
};

/* One entry per call: to the journal when one is reachable, and to @to->fd when it is
 * not -1 (both, when both are there: the file is what an operator asked for); when
 * neither took it, to @to->fallback as sbx_audit_log says.  Returns 0 or -errno: the
 * file's result when there is a file (-ENOENT: nothing took it). */
int sbx_audit_emit(enum sbx_audit_event ev, const struct sbx_audit *a, const struct sbx_audit_sink *to);

/* sbx_audit_emit with no file.  To the journal (sd_journal_sendv) when one is
 * reachable; when it is not, and @fallback is not NULL, the same SBX_* fields as one
 * logfmt line on @fallback, written at once:
 *   sbx event=denied id=… mode=daemon profile=network uid=1000 argv="[\"rm\",\"-rf\"]" reason="…"
 * (keys are the field names without SBX_, lowercased; a value is quoted when it is
 * empty or holds a space, '=', '"', '\\', a control or a non-UTF-8 byte, and inside the
 * quotes \" \\ \n \r \t \xNN escape).  Prints nothing when the journal took it.
 * Returns 0, or -errno when neither took it (-ENOENT: no journal and no @fallback). */
int sbx_audit_log(enum sbx_audit_event ev, const struct sbx_audit *a, FILE *fallback);

/* MESSAGE_ID of @ev, as 32 hex digits (for tests and docs); NULL for no such event. */
const char *sbx_audit_message_id(enum sbx_audit_event ev);

/* A fresh random sandbox id (getrandom; never fails). */
void sbx_audit_id_new(char id[SBX_AUDIT_ID_SIZE]);
