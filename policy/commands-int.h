/* SPDX-License-Identifier: MIT */
/* Private to the command checker: commands.c walks argv and shell strings, unwraps
 * wrappers and applies the pipe rules; commands-rules.c holds the per-command rules
 * (rm, chmod, kill, git, find). */
#pragma once

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "commands.h"
#include "shell.h"

static inline bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

/* @s is one of the NULL-terminated @l. */
static inline bool in_list(const char *const *l, const char *s)
{
        for (size_t i = 0; l[i]; i++)
                if (streq(l[i], s))
                        return true;
        return false;
}

/* Wrappers, nested shells, eval and code in values, together. */
#define SBX_CMD_MAX_NEST 24u

struct sbx_cmd_ctx {
        const struct sbx_cmd_policy *p;
        struct sbx_verdict *v;
        regex_t *re; /* p->deny_patterns, compiled once */
        size_t n_re;
        unsigned depth;
        size_t n_checked;
        char names[128]; /* the first command names checked, for the allow message */
        bool denied;
        /* A script that runs cd or sets HOME makes relative and ~ paths mean something
         * else than p->cwd and p->home say, maybe before the cd in source order (a
         * loop): the first pass notes it, a second runs with them unknown. */
        bool saw_cd, saw_home, cwd_unknown, home_unknown;
        bool dotglob; /* the script may make * match .git (shopt -s dotglob, GLOBIGNORE) */
};

/* What a command, with whatever it wraps or runs, does with its standard input; the
 * pipe rules of commands.c read these. */
enum {
        SBX_CMD_FETCHES = 1u << 0,    /* a downloader (curl, wget…) runs */
        SBX_CMD_SHELL_STDIN = 1u << 1, /* a POSIX shell reads its commands from stdin */
        SBX_CMD_PROG_STDIN = 1u << 2, /* an interpreter reads its program from stdin */
        SBX_CMD_INTERP = 1u << 3,     /* an interpreter or shell: its arguments may be code */
};

/* What a wrapper tells the command it runs about that command's words. */
struct sbx_cmd_how {
        bool runtime_args;                     /* xargs: more arguments arrive from stdin */
        const struct sbx_sh_word *find_starts; /* find -exec: {} is at or under these */
        size_t n_find_starts;
};

/* Records the first deny: "segment '@seg': <message>" (no prefix when @seg is NULL).
 * Returns 0, so callers can `return sbx_cmd_deny(…)`. */
int sbx_cmd_deny(struct sbx_cmd_ctx *c, const char *seg, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One simple command: @w[0] is its name.  0 (a deny is recorded in @c) or -ENOMEM. */
int sbx_cmd_check_words(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, size_t n, const char *seg,
                        const struct sbx_cmd_how *how, unsigned *info);

/* Shell code found in an argument (sh -c, eval, alias, a git alias…).  With @value,
 * @text is a value that is only expanded (PS4, x='a[$(…)]'): just the substitutions in
 * it are commands. */
int sbx_cmd_check_code(struct sbx_cmd_ctx *c, const char *text, bool value, const char *seg, unsigned *info);

bool sbx_cmd_computed(const struct sbx_sh_word *w);
const char *sbx_cmd_basename(const char *path);
char *sbx_cmd_join(const struct sbx_sh_word *w, size_t n); /* texts joined by spaces; NULL: ENOMEM */
bool sbx_cmd_is_stdin_path(const char *t); /* -, /dev/stdin, /dev/fd/0 */

/* One command to check, as the rules see it. */
struct sbx_cmd_call {
        const char *name;            /* w[0] without its directory */
        const struct sbx_sh_word *w; /* the command and its arguments */
        size_t n;
        const char *seg;             /* the segment's text, for reasons */
        const struct sbx_cmd_how *how;
        unsigned *info;              /* SBX_CMD_* bits to add to */
};

/* Words @k->w[from..to) that bash may split or glob into several (an unquoted $x, *,
 * {a,b}) could move every later word: a deny, true, when there is one. */
bool sbx_cmd_deny_splits(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from, size_t to);

/* commands-wrap.c: wrappers, eval, alias, trap, su, flock, busybox, export…
 * (1 when @k is none of those), and VAR=value. */
int sbx_cmd_check_wrapper(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_cmd_check_assignment(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, const char *seg);

/* commands-rules.c */
int sbx_rule_rm(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
/* @who ("rm", "find -delete") removes @target. */
int sbx_rule_rm_target(struct sbx_cmd_ctx *c, const struct sbx_sh_word *target, const char *seg, const char *who);
int sbx_rule_chmod(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_rule_kill(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k); /* kill, pkill, killall */
int sbx_rule_git(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_rule_find(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
