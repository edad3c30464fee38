/* SPDX-License-Identifier: MIT */
/* The spool that ties Claude Code's hooks to its shell prefix.  Claude runs the
 * PreToolUse hook, then `PREFIX '<composite>'`, then the PostToolUse hook, as three
 * processes that share nothing but the command's text; only the hooks see the call's
 * tool_use_id and session_id.  So:
 *   PreToolUse   announces the call: p-HASH-ID, holding the session id, the cwd the
 *                verdict took as the workspace, and the command;
 *   the prefix   takes the newest announced call whose command is its composite's
 *                (renames it to t-ID) and passes its tags to sbx-run, for the audit,
 *                and its cwd as the workspace (--workspace-contains-cwd);
 *   PostToolUse  settles the call: t-ID says the prefix ran it (jailed); p-…-ID still
 *                there, or nothing, says the command ran without the prefix.
 * Where: $XDG_RUNTIME_DIR/sbx-hook when $XDG_RUNTIME_DIR is a directory of the
 * caller's that only the caller may enter; else the cache directory's sbx-hook
 * ($XDG_CACHE_HOME, else ~/.cache, ~ from the user database), made where missing.
 * Never a fixed name in /tmp, which any local user could make first and so block the
 * caller's calls.  Every directory on the way is root's or the caller's and writable
 * by no one else (a sticky one only with the caller's or root's next entry), symbolic
 * links followed only out of such directories: no other user can plant, swap or
 * remove anything on it.  The spool itself is the caller's, mode 0700.  No jail the
 * hooks or the prefix start reaches it: a workspace holding any directory on that way
 * is refused (spool_check_workspace), and the jail's /tmp is its own.  A command
 * that ran unjailed could write it, which is what PostToolUse exists to notice in
 * the first place.  An entry names the call and pins the jail's workspace to its
 * cwd: one a jail could write would choose another, wider workspace for a later
 * call, hence the refusal above. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* Entries older than this are dropped (a call the user refused, a lost PostToolUse). */
#define SPOOL_MAX_AGE_S ((long)24 * 3600)
/* At most this many entries: beyond it, PreToolUse fails (and the call is blocked). */
#define SPOOL_MAX_ENTRIES 4096

/* The spool directory, opened (O_DIRECTORY, O_CLOEXEC): made 0700 when absent (the
 * cache directory too), refused unless it is a real directory of the caller's that
 * only the caller may enter, on a way no one else can change.  -errno with @why
 * saying which path and why. */
int spool_open(char *why, size_t size);

/* The directories the rule above passes through (the runtime directory's way too
 * when it is passed over), by device and inode. */
#define SPOOL_CHAIN_MAX 64
struct spool_chain {
        dev_t dev[SPOOL_CHAIN_MAX];
        ino_t ino[SPOOL_CHAIN_MAX];
        size_t n;
};

/* 0 when a jail with @workspace as its writable workspace cannot change the spool or
 * the way to it (or which way the rule takes); -EPERM with @why otherwise (the
 * harness was run in ~ or above without XDG_RUNTIME_DIR).  Makes nothing. */
int spool_check_workspace(const char *workspace, char *why, size_t size);

/* PreToolUse: announces @tool_use_id's call of @command (@session_id may be NULL) in
 * @cwd (absolute, one line; -EINVAL otherwise). */
int spool_announce(int dir, const char *command, const char *tool_use_id, const char *session_id, const char *cwd);

/* The prefix: takes the newest call announced for @command.  1 with @tool_use_id,
 * @session_id ("" when none) and @cwd filled; 0 when no call is waiting for it;
 * -errno. */
int spool_take(int dir, const char *command, char *tool_use_id, size_t id_size, char *session_id, size_t session_size,
               char *cwd, size_t cwd_size);

enum spool_state {
        SPOOL_UNKNOWN, /* never announced (or long gone) */
        SPOOL_PENDING, /* announced, never taken by the prefix */
        SPOOL_TAKEN,   /* taken by the prefix: it ran jailed */
};

/* PostToolUse: what became of @tool_use_id's call; its entries are removed. */
enum spool_state spool_settle(int dir, const char *tool_use_id);

/* The command in Claude's composite (`[source SNAP && ]eval '<cmd>' …`): malloc'd, or
 * NULL when the composite has another shape.  Pure: unit-tested. */
char *spool_composite_command(const char *composite);

/* One shell word of single-quoted runs and backslash escapes ('a'\''b' is a'b), up
 * to a space or the end: malloc'd, or NULL for anything else (an unquoted character
 * the shell would expand).  Pure. */
char *spool_unquote_word(const char *s);
