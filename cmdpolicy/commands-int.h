/* SPDX-License-Identifier: MIT */
/* Private to the command checker: commands.c walks argv and shell strings and applies
 * the pipe rules; commands-wrap.c unwraps wrappers; commands-bash.c judges what bash
 * evaluates a second time (arithmetic, subscripts, builtins that take names or code);
 * commands-env.c judges variables; commands-rules.c and commands-git.c hold the
 * per-command rules (rm, chmod, kill, find; git); commands-tools.c (with the option
 * reader of commands-opts.c) and commands-text.c the options and programs by which
 * other tools run commands. */
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

/* The ends of reasons for what the checker denies by construction (sbx-profile(5),
 * COMMAND POLICY), so an agent reading one knows what kind of rule it met. */
#define SBX_UNREAD "(commands: cannot be read before it runs)"
#define SBX_RUNS "(commands: runs commands the policy cannot check)"
#define SBX_LOADS "(commands: makes a program load code or configuration the policy cannot read)"

/* What the command line may put in one variable, for the places where bash evaluates a
 * value as code (arithmetic, subscripts, ${!x}): collected over the whole line in a
 * first pass, judged in the second. */
struct sbx_cmd_var {
        char *name;
        bool runtime;           /* some value is known only at run time */
        struct sbx_strv values; /* the values written out on the line */
        /* the second pass's judgement, kept: values naming values naming values
         * would otherwise be judged again at every reference */
        enum { VAR_UNJUDGED, VAR_JUDGING, VAR_INERT, VAR_NOT_INERT } judged;
        char *why;              /* VAR_NOT_INERT: the reason */
};

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
        /* Variables (commands-env.c): the first pass collects every value (vars_open)
         * and leaves the judgements that need them for the second (need_values). */
        struct sbx_cmd_var *vars;
        size_t n_vars, cap_vars;
        size_t *var_slots, n_slots; /* a hash table of 1 + indices into vars */
        bool vars_open, need_values;
        bool any_value; /* the line sources a file, which may set any variable */
        const char *placeholder; /* the innermost wrapper's, while checking what it runs */
        struct sbx_strv funcs; /* functions the line defines: calling one runs no program */
        unsigned func_stdin;   /* SBX_CMD_SHELL_STDIN, _PROG_STDIN: some command of the line
                                * reads code from the stdin it inherits, which a function's
                                * body passes on from each call (commands.c) */
        char why[160];  /* the detail of a judgement, for the reason */
};

/* What a command, with whatever it wraps or runs, does with its standard input; the
 * pipe rules of commands.c read these. */
enum {
        SBX_CMD_FETCHES = 1u << 0,    /* a downloader (curl, wget…) runs */
        SBX_CMD_SHELL_STDIN = 1u << 1, /* a POSIX shell reads its commands from stdin */
        SBX_CMD_PROG_STDIN = 1u << 2, /* an interpreter reads its program from stdin */
        SBX_CMD_INTERP = 1u << 3,     /* an interpreter or shell: its arguments may be code */
        SBX_CMD_PROG_FILE = 1u << 4,  /* reads a program from a file it is given (make -f,
                                       * sed -f, awk -f) */
};

/* What a wrapper tells the command it runs about that command's words. */
struct sbx_cmd_how {
        bool shell;                            /* a shell runs it itself: a builtin is one */
        bool runtime_args;                     /* xargs: more arguments arrive from stdin */
        const char *placeholder;               /* text the wrapper replaces in every word at
                                                * run time: "{}" (find -exec), xargs -I's */
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
bool sbx_cmd_is_stdin_path(const char *t); /* -, /dev/stdin, /dev/fd/0, any spelling */

/* One command to check, as the rules see it. */
struct sbx_cmd_call {
        const char *name;            /* w[0] without its directory */
        const struct sbx_sh_word *w; /* the command and its arguments */
        size_t n;
        const char *seg;             /* the segment's text, for reasons */
        const struct sbx_cmd_how *how; /* without .shell, for what it runs in turn */
        bool shell;                  /* run by a shell itself (how->shell) */
        unsigned *info;              /* SBX_CMD_* bits to add to */
};

/* Words @k->w[from..to) that bash may split or glob into several (an unquoted $x, *,
 * {a,b}) could move every later word: a deny, true, when there is one. */
bool sbx_cmd_deny_splits(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from, size_t to);
/* Can word @w, computed at run time, become one or more words that start with @lead
 * ('-': an option; '+': less's +cmd)?  Not when it starts with text written out that
 * no expansion can change, and cannot split. */
bool sbx_cmd_may_become(const struct sbx_sh_word *w, char lead);

/* commands-wrap.c: wrappers, eval, trap, su, flock, busybox… (1 when @k is none of
 * those). */
int sbx_cmd_check_wrapper(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
/* The words from @from on, joined by spaces and checked as shell code (eval, watch). */
int sbx_cmd_check_joined(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from);
/* Code held in argument @w (or @code, a part of it): computed is a deny. */
int sbx_cmd_arg_code(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_sh_word *w,
                     const char *code);

/* commands-env.c: NAME=value, NAME+=value, NAME[SUB]=value (before a command, given to
 * env or sudo, to export or declare); what each variable may hold. */
int sbx_cmd_check_assignment(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, const char *seg);
/* @name gets a value known only at run time (read, for, getopts…): a deny when that
 * variable is one programs run or load code from. */
int sbx_cmd_set_runtime(struct sbx_cmd_ctx *c, const char *name, const char *seg, const char *how);
/* @name gets @value, written out (an integer: "0"). */
int sbx_cmd_set_value(struct sbx_cmd_ctx *c, const char *name, const char *value);
/* @name gets an integer at run time (((n++)), wait -p): a deny for the variables
 * programs run or load code from. */
int sbx_cmd_set_integer(struct sbx_cmd_ctx *c, const char *name, const char *seg, const char *how);
/* Every value @name may hold is arithmetic that runs nothing; else false with c->why. */
bool sbx_cmd_var_inert(struct sbx_cmd_ctx *c, const char *name, unsigned depth);
void sbx_cmd_vars_done(struct sbx_cmd_ctx *c);
/* Compiler flags (CFLAGS, gcc's own options): NULL, or what @flag makes the compiler
 * load or run. */
const char *sbx_cmd_cc_flag(const char *flag);

/* commands-bash.c: bash's builtins that take names or code (1 when @k is none), and
 * the parts of a script bash evaluates again. */
int sbx_bash_builtin(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_bash_cmd(struct sbx_cmd_ctx *c, const struct sbx_sh_cmd *cmd);       /* [[ ]], for, select */
int sbx_bash_expr(struct sbx_cmd_ctx *c, const struct sbx_sh_expr *x, const struct sbx_sh_cmd *owner);
/* Arithmetic @text, which bash evaluates: its assignments are noted in the first pass,
 * what it reads is judged in the second.  @what names it in a reason. */
int sbx_bash_arith(struct sbx_cmd_ctx *c, const char *text, const char *seg, const char *what);
/* True when @text, evaluated as arithmetic, runs nothing; else false with c->why. */
bool sbx_bash_arith_inert(struct sbx_cmd_ctx *c, const char *text, unsigned depth);

/* commands-git.c */
int sbx_rule_git(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
/* git's -c KEY=VALUE and git config KEY VALUE, also for GIT_CONFIG_* and clone -c. */
int sbx_git_config_value(struct sbx_cmd_ctx *c, const char *key, const struct sbx_sh_word *value, const char *seg);

/* commands-tools.c: the options by which tools run commands or load code (1 when @k is
 * no tool it knows). */
int sbx_cmd_check_tool(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);

/* commands-opts.c: the options of a tool that matter, for sbx_opts_scan(). */
enum sbx_opt_act {
        O_FLAG,    /* takes no argument */
        O_ARG,     /* takes one (attached or the next word): data */
        O_OPTARG,  /* takes one only when attached: data */
        O_CODE,    /* takes a shell command, checked as one */
        O_OPTCODE, /* takes a shell command only when attached */
        O_DENY,    /* denied, with or without an argument */
        O_DENY1,   /* takes an argument; denied */
        O_CALL,    /* takes an argument, judged by a function */
        O_SINGLE_DASH, /* only in OPT_END_SD: long options may start with one dash (-eval) */
};

struct sbx_opt {
        const char *names; /* "x", "to-command", or both: "I|use-compress-program" */
        enum sbx_opt_act act;
        const char *why;   /* O_DENY: what it does */
        int (*call)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val);
};
#define OPT(n, a) { .names = (n), .act = (a) }
#define DENYOPT(n, a, w) { .names = (n), .act = (a), .why = (w) }
#define CALLOPT(n, f) { .names = (n), .act = O_CALL, .call = (f) }
#define OPT_END { .names = NULL }
#define OPT_END_SD { .names = NULL, .act = O_SINGLE_DASH }


/* Reads the options of @k from word @from, as getopt_long(3) would (clusters, attached
 * or separate arguments, abbreviations of long options, options after operands): each
 * one in @opts is applied, and a word computed at run time is denied when some option
 * in @opts runs or loads something. */
int sbx_opts_scan(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from, const struct sbx_opt *opts);
/* What option @o (written @opt) with value @val (NULL: none) does. */
int sbx_opt_apply(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_opt *o, const char *opt,
                  const struct sbx_sh_word *val);

/* commands-text.c: sed scripts and awk programs. */
int sbx_tool_sed(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_tool_awk(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
/* MAKEFLAGS: make's options and VAR=value definitions. */
int sbx_tool_makeflags(struct sbx_cmd_ctx *c, const char *value, const char *seg);

/* commands-rules.c */
int sbx_rule_rm(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
/* @who ("rm", "find -delete") removes @target. */
int sbx_rule_rm_target(struct sbx_cmd_ctx *c, const struct sbx_sh_word *target, const char *seg, const char *who);
int sbx_rule_chmod(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
int sbx_rule_kill(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k); /* kill, pkill, killall */
int sbx_rule_find(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
