/* SPDX-License-Identifier: MIT */
/* The command policy of commands.h, checked on the command line before the jail
 * starts.  It is the second layer: the kernel stays the wall, so this file may refuse
 * too much but must never allow what it did not understand.  An argv is checked as a
 * simple command; a shell's -c string, eval's words, an alias or trap body, a git alias
 * are parsed with shell.h and every command in them checked the same way; wrappers
 * (env, sudo, xargs, timeout…) are checked and so is the command they run.  The
 * per-command rules are in commands-rules.c. */
#include "commands.h"

#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "commands-int.h"
#include "shell.h"

#define SEGMENT_MAX 96 /* bytes of a segment quoted in a reason */

static const struct sbx_cmd_how no_how;
static const struct sbx_cmd_how shell_how = { .shell = true };

/* Builtins of the shell that run no program of their own (what they run in turn, eval's
 * code, a trap, is checked): in allowlist mode they need no entry, since nothing is
 * executed, but only where the shell itself runs them, not under env or xargs. */
static const char *const shell_builtins[] = {
        "cd", "pushd", "popd", "dirs", "read", "mapfile", "readarray", "export", "declare", "typeset", "local",
        "readonly", "unset", "set", "shopt", "shift", "getopts", "let", "test", "[", "echo", "printf", "true", "false",
        ":", "wait", "umask", "ulimit", "type", "times", "jobs", "return", "exit", "break", "continue", "pwd", "caller",
        "help", "disown", "source", ".", "eval", "trap", "exec", "command", "builtin", "time", "alias", "unalias",
        "hash", "history", "enable", "compgen", "complete", "bind", "kill", NULL,
};

/* String lists: lib/strv.c. */

void sbx_cmd_policy_done(struct sbx_cmd_policy *p)
{
        sbx_strv_free(&p->allow);
        sbx_strv_free(&p->deny);
        sbx_strv_free(&p->deny_patterns);
        sbx_strv_free(&p->rm_protected);
        sbx_strv_free(&p->chmod_modes);
        sbx_strv_free(&p->kill_targets);
        sbx_strv_free(&p->git_deny);
}

/* ------------------------------------------------------------------ verdicts */

/* Reasons end up in logs and on a terminal: no control characters, and no UTF-8
 * sequence cut in half by truncation. */
static void tidy(char *s)
{
        size_t n = strlen(s), i;

        for (i = 0; i < n; i++)
                if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
                        s[i] = '?';
        for (i = n; i > 0 && ((unsigned char)s[i - 1] & 0xc0) == 0x80;)
                i--;
        if (i > 0 && (unsigned char)s[i - 1] >= 0xc0) {
                unsigned char lead = (unsigned char)s[i - 1];
                size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;

                if (n - (i - 1) < need)
                        s[i - 1] = '\0';
        }
}

int sbx_cmd_deny(struct sbx_cmd_ctx *c, const char *seg, const char *fmt, ...)
{
        char *r = c->v->reason;
        size_t size = sizeof(c->v->reason), n = 0;
        va_list ap;

        if (c->denied)
                return 0; /* the first reason is the one to act on */
        c->denied = true;
        c->v->allow = false;
        if (seg) {
                size_t len = strlen(seg), cut = len < SEGMENT_MAX ? len : SEGMENT_MAX;

                while (cut > 0 && cut < len && ((unsigned char)seg[cut] & 0xc0) == 0x80)
                        cut--;
                n = (size_t)snprintf(r, size, "segment '%.*s%s': ", (int)cut, seg, cut < len ? "..." : "");
        }
        va_start(ap, fmt);
        if (vsnprintf(r + n, size - n, fmt, ap) < 0)
                snprintf(r + n, size - n, "denied");
        va_end(ap);
        tidy(r);
        return 0;
}

/* Keeps the first few names checked, for "allowed: 3 commands checked (ls, grep)". */
static void note_name(struct sbx_cmd_ctx *c, const char *name)
{
        size_t have = strlen(c->names), len;

        c->n_checked++;
        if (!name[0])
                name = "''"; /* '' or /usr/bin/: and strstr() finds "" everywhere */
        len = strlen(name);
        for (const char *p = c->names; (p = strstr(p, name)); p += len)
                if ((p == c->names || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0'))
                        return;
        if (strstr(c->names, "..."))
                return;
        if (have + len + 8 > sizeof(c->names))
                snprintf(c->names + have, sizeof(c->names) - have, "%s...", have ? ", " : "");
        else
                snprintf(c->names + have, sizeof(c->names) - have, "%s%s", have ? ", " : "", name);
}

/* ------------------------------------------------------------------ words */

bool sbx_cmd_computed(const struct sbx_sh_word *w)
{
        return w->flags & SBX_SH_COMPUTED;
}

bool sbx_cmd_deny_splits(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from, size_t to)
{
        for (size_t i = from; i < to && i < k->n; i++)
                if (k->w[i].flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE)) {
                        sbx_cmd_deny(c, k->seg, "%s: '%s' may become several words at run time: cannot tell what it runs",
                                     k->name, k->w[i].text);
                        return true;
                }
        return false;
}

bool sbx_cmd_may_become(const struct sbx_sh_word *w, char lead)
{
        const char *t = w->text;

        if (!sbx_cmd_computed(w))
                return t[0] == lead;
        return (w->flags & SBX_SH_SPLIT) || t[0] == lead || !t[0] || strchr("$`*?[{~", t[0]);
}

char *sbx_cmd_join(const struct sbx_sh_word *w, size_t n)
{
        size_t len = 1, at = 0;
        char *s;

        for (size_t i = 0; i < n; i++)
                len += strlen(w[i].text) + 1;
        if (!(s = malloc(len)))
                return NULL;
        for (size_t i = 0; i < n; i++) {
                size_t k = strlen(w[i].text);

                if (i)
                        s[at++] = ' ';
                memcpy(s + at, w[i].text, k);
                at += k;
        }
        s[at] = '\0';
        return s;
}

const char *sbx_cmd_basename(const char *path)
{
        const char *slash = strrchr(path, '/');

        return slash ? slash + 1 : path;
}

bool sbx_cmd_is_stdin_path(const char *t)
{
        return sbx_sh_fd_path(t) == 0;
}

/* ------------------------------------------------------------------ shells */

static const char *const posix_shells[] = {
        "sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "pdksh", "ash", "yash", "posh", "rbash", "bosh", NULL,
};
static const char *const other_shells[] = {
        "fish", "csh", "tcsh", "rc", "es", "elvish", "nu", "xonsh", "pwsh", NULL,
};
/* Interpreters of languages the policy does not read, matched with any version suffix
 * (python3.12).  A program given inline (python3 -c, perl -e, node -e…) is denied: it
 * can run any command, and nothing here can tell which.  A program from a file or a
 * module is the file's business, as with `sh FILE`. */
struct interp {
        const char *name;
        const char *inline_opts;  /* short options whose argument is a program */
        const char *file_opts;    /* short options that name the program elsewhere (-m MODULE) */
        const char *arg_opts;     /* short options that take an argument (the rest of the
                                   * cluster, or the next word) */
        const char *inline_longs; /* long options that give a program, space separated */
};

static const struct interp interpreters[] = {
        { "python", "c", "m", "WXQ", "" },
        { "pypy", "c", "m", "WX", "" },
        { "perl", "eE", "", "iIlx0dDCMmV", "" },
        { "ruby", "e", "", "IrCEFxWK0", "" },
        { "node", "ep", "", "rC", "--eval --print" },
        { "nodejs", "ep", "", "rC", "--eval --print" },
        { "bun", "e", "", "r", "--eval --print" },
        { "deno", "", "", "", "" },
        { "php", "rRBE", "fF", "cdz", "" },
        { "lua", "e", "", "l", "" },
        { "luajit", "e", "", "lbjO", "" },
        { "tclsh", "", "", "", "" },
        { "wish", "", "", "", "" },
        { "Rscript", "e", "", "", "--expr" },
        { "julia", "eE", "", "LJCpt", "--eval --print" },
        { "irb", "", "", "rI", "" },
        { "guile", "c", "", "lLxe", "" },
        { "racket", "e", "fr", "lpt", "--eval" },
        { "osascript", "e", "", "l", "" },
        { "expect", "c", "f", "", "" },
        { "groovy", "e", "", "", "" },
        { "scala", "e", "", "", "" },
        { "elixir", "e", "r", "", "--eval" },
        { "jshell", "", "", "", "" },
        { "ipython", "c", "m", "", "" },
        { "R", "e", "f", "", "" },
        { "octave", "", "", "", "--eval" },
        { "tsx", "ep", "", "r", "--eval --print" },
        { "ts-node", "ep", "", "r", "--eval --print" },
        { "raku", "e", "", "IM", "" },
        { "rakudo", "e", "", "IM", "" },
};
static const char *const fetchers[] = {
        "curl", "wget", "wget2", "fetch", "aria2c", "axel", "http", "https", "xh", "lwp-download", "lwp-request",
        "GET", "POST", "nc", "ncat", "netcat", "socat", "ftp", "tftp", "lftp", NULL,
};

static const struct interp *interpreter(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(interpreters); i++) {
                size_t n = strlen(interpreters[i].name);

                if (strncmp(name, interpreters[i].name, n) == 0 && strspn(name + n, "0123456789.") == strlen(name + n))
                        return &interpreters[i];
        }
        return NULL;
}

/* The word by which interpreter @t gets a program inline, or NULL.  Options are read
 * up to the script; a word that an option may take is skipped, and a word computed at
 * run time before another could itself be -c. */
static const struct sbx_sh_word *inline_program(const struct interp *t, const struct sbx_sh_word *w, size_t n)
{
        bool maybe_arg = false;

        if (streq(t->name, "deno") && n > 1 && streq(w[1].text, "eval"))
                return &w[1];
        for (size_t k = 1; k < n; k++) {
                const char *s = w[k].text;

                if (maybe_arg) {
                        maybe_arg = false;
                        continue;
                }
                if (sbx_cmd_computed(&w[k]))
                        return k + 1 < n ? &w[k] : NULL;
                if (streq(s, "--") || s[0] != '-' || !s[1])
                        return NULL;
                if (s[1] == '-') {
                        size_t len = strcspn(s, "=");

                        for (const char *l = t->inline_longs; *l; l += strspn(l, " ")) {
                                size_t ln = strcspn(l, " ");

                                if (ln == len && strncmp(l, s, len) == 0)
                                        return &w[k];
                                l += ln;
                        }
                        maybe_arg = !s[len]; /* an option we do not know may take the next word */
                        continue;
                }
                for (size_t j = 1; s[j]; j++) {
                        if (strchr(t->inline_opts, s[j]))
                                return &w[k];
                        if (strchr(t->file_opts, s[j]))
                                return NULL;
                        if (strchr(t->arg_opts, s[j])) {
                                maybe_arg = !s[j + 1];
                                break;
                        }
                }
        }
        return NULL;
}

/* Whether interpreter @t reads its program from stdin: no script file and no module.
 * An option we do not know might take the next word, so after one a "script" is as
 * good as none: the answer leans to yes. */
static bool reads_program(const struct interp *t, const struct sbx_sh_word *w, size_t n)
{
        bool unsure = false;

        if (streq(t->name, "deno"))
                return n < 2 || streq(w[1].text, "repl");
        for (size_t k = 1; k < n; k++) {
                const char *s = w[k].text;

                if (sbx_cmd_computed(&w[k]))
                        return true;
                if (streq(s, "--"))
                        return k + 1 >= n || sbx_cmd_is_stdin_path(w[k + 1].text);
                if (s[0] != '-' || !s[1])
                        return unsure || sbx_cmd_is_stdin_path(s);
                if (s[1] != '-' && t->file_opts[0] && strpbrk(s + 1, t->file_opts))
                        return false;
                unsure = true;
        }
        return true;
}

static int check_interpreter(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct interp *t)
{
        const struct sbx_sh_word *inl = inline_program(t, k->w, k->n);

        *k->info |= SBX_CMD_INTERP;
        if (inl)
                return sbx_cmd_deny(c, k->seg, "%s: '%s' gives it a program inline, in a language the policy does not read "
                                    SBX_UNREAD, k->name, inl->text);
        if (reads_program(t, k->w, k->n))
                *k->info |= SBX_CMD_PROG_STDIN;
        return 0;
}

/* Long options of bash (and zsh's --emulate): any other could take an argument. */
static const char *const shell_long_args[] = { "--emulate", NULL };
static const char *const shell_long_flags[] = {
        "--debug", "--debugger", "--dump-po-strings", "--dump-strings", "--help", "--login", "--noediting",
        "--noprofile", "--norc", "--posix", "--pretty-print", "--restricted", "--verbose", "--version", NULL,
};

/* sh [options] [-c STRING | -s | SCRIPT] */
static int check_shell(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w;
        bool code = false, from_stdin = false;
        size_t i = 1;

        *k->info |= SBX_CMD_INTERP;
        for (; i < k->n; i++) {
                const char *t = w[i].text;

                if (sbx_cmd_computed(&w[i]) && (code || (w[i].flags & SBX_SH_PROCSUB)))
                        break; /* reported below, with what it is */
                /* the last word, quoted: the script, or an option that takes nothing */
                if (sbx_cmd_computed(&w[i]) && i + 1 == k->n && !(w[i].flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE)))
                        break;
                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, k->seg, "%s: argument '%s' is computed at run time " SBX_UNREAD, k->name, t);
                if (streq(t, "--") || streq(t, "-")) {
                        i++;
                        break;
                }
                if ((t[0] != '-' && t[0] != '+') || !t[1])
                        break;
                if (streq(t, "--rcfile") || streq(t, "--init-file"))
                        return sbx_cmd_deny(c, k->seg, "%s %s: makes it run the file it names at start, like BASH_ENV "
                                            SBX_LOADS, k->name, t);
                if (t[1] == '-' && in_list(shell_long_args, t)) {
                        i++;
                        continue;
                }
                if (t[1] == '-' && !in_list(shell_long_flags, t))
                        return sbx_cmd_deny(c, k->seg, "%s: unknown option '%s': cannot tell what it runs", k->name, t);
                if (t[1] == '-')
                        continue;
                /* even after -c, a word that starts with - or + is options */
                if (strspn(t + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != strlen(t + 1))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' is not an option it knows: cannot tell what it runs",
                                            k->name, t);
                if (t[0] == '-' && strchr(t, 'k'))
                        return sbx_cmd_deny(c, k->seg, "%s -k: every NAME=VALUE argument goes into the environment of its "
                                            "command, which is not followed " SBX_UNREAD, k->name);
                for (size_t j = 1; t[j]; j++) {
                        code = code || (t[0] == '-' && t[j] == 'c');
                        from_stdin = from_stdin || (t[0] == '-' && t[j] == 's');
                        if ((t[j] == 'o' || t[j] == 'O') && ++i < k->n && t[0] == '-' && streq(w[i].text, "keyword"))
                                return sbx_cmd_deny(c, k->seg, "%s -o keyword: every NAME=VALUE argument goes into the "
                                                    "environment of its command, which is not followed " SBX_UNREAD, k->name);
                }
        }
        if (sbx_cmd_deny_splits(c, k, 1, i)) /* the arguments of -o and --rcfile */
                return 0;
        if (code) {
                if (i >= k->n) /* under xargs, the code is what it reads */
                        return k->how->runtime_args ? sbx_cmd_deny(c, k->seg, "%s -c: its commands come from stdin at run "
                                                                   "time (xargs) " SBX_UNREAD, k->name) : 0;
                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, k->seg, "%s -c: the commands are computed at run time", k->name);
                return sbx_cmd_check_code(c, w[i].text, false, k->seg, k->info);
        }
        if (i < k->n && !from_stdin && !sbx_cmd_is_stdin_path(w[i].text) && (w[i].flags & SBX_SH_PROCSUB))
                return sbx_cmd_deny(c, k->seg, "%s: its script '%s' is computed at run time", k->name, w[i].text);
        /* a computed script may be /dev/stdin: what feeds stdin is checked as commands */
        if (from_stdin || i >= k->n || sbx_cmd_is_stdin_path(w[i].text) || sbx_cmd_computed(&w[i]))
                *k->info |= SBX_CMD_SHELL_STDIN;
        return 0;
}

static int check_other_shell(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        *k->info |= SBX_CMD_INTERP;
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (sbx_cmd_computed(&k->w[i]) || (t[0] == '-' && t[1] != '-' && strchr(t, 'c')) ||
                    streq(t, "--command"))
                        return sbx_cmd_deny(c, k->seg, "%s is not a POSIX shell: its commands cannot be checked", k->name);
                if (t[0] != '-')
                        return 0;
        }
        *k->info |= SBX_CMD_SHELL_STDIN;
        return 0;
}

/* ------------------------------------------------------------------ one command */

static const struct {
        const char *name;
        int (*check)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
} rules[] = {
        { "rm", sbx_rule_rm },      { "chmod", sbx_rule_chmod }, { "kill", sbx_rule_kill },     { "pkill", sbx_rule_kill },
        { "killall", sbx_rule_kill }, { "git", sbx_rule_git },   { "find", sbx_rule_find },
};

/* git-rebase and the other programs of git's exec path are `git rebase`. */
static int git_program(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        _cleanup_free_ struct sbx_sh_word *w = calloc(k->n + 1, sizeof(*w));
        static char git[] = "git";
        struct sbx_cmd_call g = *k;

        if (!w)
                return -ENOMEM;
        w[0] = (struct sbx_sh_word){ .text = git };
        w[1] = (struct sbx_sh_word){ .text = (char *)k->name + 4 };
        memcpy(w + 2, k->w + 1, (k->n - 1) * sizeof(*w));
        g.w = w;
        g.n = k->n + 1;
        g.name = "git";
        return sbx_rule_git(c, &g);
}

static int dispatch(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct interp *t;
        int r;

        if (in_list(posix_shells, k->name))
                return check_shell(c, k);
        if (in_list(other_shells, k->name))
                return check_other_shell(c, k);
        if (in_list(fetchers, k->name))
                *k->info |= SBX_CMD_FETCHES; /* and its options are read below (wget --use-askpass) */
        for (size_t i = 0; i < ELEMENTSOF(rules); i++)
                if (streq(rules[i].name, k->name))
                        return rules[i].check(c, k);
        if (strncmp(k->name, "git-", 4) == 0 && k->name[4])
                return git_program(c, k);
        if ((r = sbx_bash_builtin(c, k)) <= 0 || (r = sbx_cmd_check_wrapper(c, k)) <= 0 ||
            (r = sbx_cmd_check_tool(c, k)) <= 0)
                return r;
        if ((t = interpreter(k->name)))
                return check_interpreter(c, k, t);
        return 0;
}

/* Deny entries are names, or patterns of names (mkfs.*). */
static bool denied_name(const struct sbx_strv *l, const char *name)
{
        for (size_t i = 0; i < l->n; i++)
                if (fnmatch(l->v[i], name, 0) == 0)
                        return true;
        return false;
}

/* HOME other than read as $HOME or ${HOME}: a script that may set it. */
static bool mentions_home(const char *text)
{
        for (const char *p = text; (p = strstr(p, "HOME")); p += 4)
                if (!(p > text && p[-1] == '$') && !(p - text >= 2 && p[-1] == '{' && p[-2] == '$' && p[4] == '}'))
                        return true;
        return false;
}

/* A command named by a path, in allowlist mode: the allowlist names the commands on
 * PATH, so ./ls (the workspace's, anything) is not "ls" unless listed as such. */
static bool in_system_dir(const char *path)
{
        static const char *const dirs[] = { "/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/",
                                            "/usr/local/sbin/", NULL };

        for (size_t i = 0; dirs[i]; i++) {
                size_t n = strlen(dirs[i]);

                if (strncmp(path, dirs[i], n) == 0 && path[n] && !strchr(path + n, '/'))
                        return true;
        }
        return false;
}

int sbx_cmd_check_words(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, size_t n, const char *seg,
                        const struct sbx_cmd_how *how, unsigned *info)
{
        const struct sbx_cmd_policy *p = c->p;
        struct sbx_cmd_how inner = how ? *how : no_how;
        struct sbx_cmd_call k = { .w = w, .n = n, .seg = seg, .how = &inner, .shell = inner.shell, .info = info };
        int r;

        inner.shell = false;
        if (!n || c->denied)
                return 0;
        if (c->depth >= SBX_CMD_MAX_NEST)
                return sbx_cmd_deny(c, seg, "commands nested more than %u deep", SBX_CMD_MAX_NEST);
        if (sbx_cmd_computed(&w[0]))
                return sbx_cmd_deny(c, seg, "command name computed at run time " SBX_UNREAD);
        if (how && how->placeholder && strstr(w[0].text, how->placeholder))
                return sbx_cmd_deny(c, seg, "command name '%s' is filled in at run time (xargs -I, find -exec) " SBX_UNREAD,
                                    w[0].text);
        k.name = sbx_cmd_basename(w[0].text);
        note_name(c, k.name);
        c->saw_cd = c->saw_cd || streq(k.name, "cd") || streq(k.name, "pushd") || streq(k.name, "popd");
        if (denied_name(&p->deny, k.name) || sbx_strv_contains(&p->deny, w[0].text))
                return sbx_cmd_deny(c, seg, "'%s' is denied (commands.deny)", k.name);
        if (p->mode == SBX_CMD_ALLOWLIST && !sbx_strv_contains(&p->allow, w[0].text) &&
            !(k.shell && (in_list(shell_builtins, w[0].text) || sbx_strv_contains(&c->funcs, w[0].text)))) {
                if (!sbx_strv_contains(&p->allow, k.name))
                        return sbx_cmd_deny(c, seg, "'%s' is not in the allowlist (commands.allow)", k.name);
                if (strchr(w[0].text, '/') && !in_system_dir(w[0].text))
                        return sbx_cmd_deny(c, seg, "'%s' is not the '%s' on PATH that the allowlist names (commands.allow)",
                                            w[0].text, k.name);
        }
        {
                /* code in its words may be rewritten by the wrapper at run time */
                const char *outer = c->placeholder;

                c->placeholder = k.how->placeholder ? k.how->placeholder : outer;
                c->depth++;
                r = dispatch(c, &k);
                c->depth--;
                c->placeholder = outer;
        }
        return r;
}

/* ------------------------------------------------------------------ scripts */

static int match_patterns(struct sbx_cmd_ctx *c, const char *text)
{
        for (size_t i = 0; i < c->n_re && !c->denied; i++)
                if (regexec(&c->re[i], text, 0, NULL, 0) == 0)
                        return sbx_cmd_deny(c, text, "matches deny pattern '%s' (commands.deny_patterns)",
                                            c->p->deny_patterns.v[i]);
        return 0;
}

/* Is command @j's output (or a part of it) fed into command @i by some pipeline?
 * Both walk out from their own pipeline through the compound commands and
 * substitutions they are in; a pipeline they share, with @j earlier, says yes. */
static bool upstream(const struct sbx_sh_script *sc, size_t j, size_t i)
{
        size_t pi = sc->cmds[i].pipeline, qi = sc->cmds[i].pipe_pos;

        for (size_t a = 0; a <= sc->n_pipes && pi < sc->n_pipes; a++) {
                size_t pj = sc->cmds[j].pipeline, qj = sc->cmds[j].pipe_pos;

                for (size_t b = 0; b <= sc->n_pipes && pj < sc->n_pipes; b++) {
                        if (pj == pi && qj < qi)
                                return true;
                        if (!sc->pipes[pj].up)
                                break;
                        qj = sc->pipes[pj].up_pos;
                        pj = sc->pipes[pj].up - 1;
                }
                if (!sc->pipes[pi].up)
                        break;
                qi = sc->pipes[pi].up_pos;
                pi = sc->pipes[pi].up - 1;
        }
        return false;
}

static const char *name_of(const struct sbx_sh_script *sc, size_t i)
{
        const struct sbx_sh_cmd *c = &sc->cmds[i];

        return c->kind == SBX_SH_SIMPLE && sbx_sh_argc(c) ? sbx_cmd_basename(sbx_sh_argv(c)[0].text) : "";
}

static const char *stdin_name(enum sbx_sh_stdin in)
{
        switch (in) {
        case SBX_SH_STDIN_PIPE:
                return "a pipe";
        case SBX_SH_STDIN_STRING:
                return "a here-string";
        case SBX_SH_STDIN_HEREDOC:
                return "a here-document";
        case SBX_SH_STDIN_SUBST:
                return "a process substitution";
        case SBX_SH_STDIN_DUP:
                return "another descriptor";
        default:
                return "a file";
        }
}

/* What a shell or interpreter reads its commands from, with what feeds it.  Text
 * written out in a here-document or here-string is checked as commands, always.  The
 * rest unless the profile sets allow_pipe_to_shell: downloads piped or substituted into
 * a shell or interpreter, and a shell or interpreter reading its program from a pipe,
 * a here-string or here-document whose text is computed, or a process substitution. */
static int pipe_rules(struct sbx_cmd_ctx *c, const struct sbx_sh_script *sc, const unsigned *info, size_t i)
{
        const struct sbx_sh_cmd *cmd = &sc->cmds[i];
        const char *seg = cmd->text, *name = name_of(sc, i);
        enum sbx_sh_stdin in = sbx_sh_stdin_of(sc, i);
        size_t up = SIZE_MAX;
        unsigned inner = 0;

        if ((info[i] & SBX_CMD_SHELL_STDIN) && cmd->in == in && cmd->stdin_text &&
            (in == SBX_SH_STDIN_STRING || in == SBX_SH_STDIN_HEREDOC))
                return sbx_cmd_check_code(c, cmd->stdin_text, false, seg, &inner);
        /* exec <<<…: every later command reads it, a shell too */
        if (streq(name, "exec") && cmd->kind == SBX_SH_SIMPLE && sbx_sh_argc(cmd) == 1 && in != SBX_SH_STDIN_SHELL &&
            in != SBX_SH_STDIN_FILE)
                return sbx_cmd_deny(c, seg, "'exec' makes %s the standard input of every later command, which is not "
                                    "followed " SBX_UNREAD, stdin_name(in));
        if (c->p->allow_pipe_to_shell)
                return 0;
        /* bash /dev/fd/3 3<<<…, make -f /dev/fd/3, a link to it: a program read from a
         * descriptor the line fills */
        if (sc->fd_text && (info[i] & (SBX_CMD_INTERP | SBX_CMD_PROG_FILE | SBX_CMD_PROG_STDIN | SBX_CMD_SHELL_STDIN)))
                return sbx_cmd_deny(c, seg, "the line fills a descriptor other than stdin from text, and '%s' may read "
                                    "its program from it (/dev/fd/N), which cannot be checked "
                                    "(commands.allow_pipe_to_shell)", name);
        for (size_t j = 0; (info[i] & (SBX_CMD_SHELL_STDIN | SBX_CMD_PROG_STDIN)) && in == SBX_SH_STDIN_PIPE && j < i &&
                           up == SIZE_MAX;
             j++)
                if ((info[j] & SBX_CMD_FETCHES) && upstream(sc, j, i))
                        up = j;
        if (up != SIZE_MAX)
                return sbx_cmd_deny(c, seg, "'%s' output is piped into '%s' (commands.allow_pipe_to_shell)",
                                    name_of(sc, up), name);
        if ((info[i] & SBX_CMD_SHELL_STDIN) && in != SBX_SH_STDIN_SHELL && in != SBX_SH_STDIN_FILE)
                return sbx_cmd_deny(c, seg, "'%s' reads commands from %s, which cannot be checked (commands.allow_pipe_to_shell)",
                                    name, stdin_name(in));
        if ((info[i] & SBX_CMD_PROG_STDIN) && in != SBX_SH_STDIN_SHELL && in != SBX_SH_STDIN_FILE)
                return sbx_cmd_deny(c, seg, "'%s' reads its program from %s, in a language the policy does not read "
                                    "(commands.allow_pipe_to_shell)", name, stdin_name(in));
        if (!(info[i] & SBX_CMD_INTERP))
                return 0;
        /* bash <(curl …), python3 -c "$(curl …)": the substitutions in its words are
         * the commands right after it, each with a parent chain back to it. */
        for (size_t j = i + 1; j < sc->n_cmds; j++) {
                size_t p = sc->cmds[j].parent;

                while (p && p - 1 > i)
                        p = sc->cmds[p - 1].parent;
                if (!p || p - 1 != i)
                        break;
                if (info[j] & SBX_CMD_FETCHES)
                        return sbx_cmd_deny(c, seg, "'%s' runs what '%s' downloads (commands.allow_pipe_to_shell)", name,
                                            name_of(sc, j));
        }
        return 0;
}

/* Every command of @sc, then the pipe rules; @out gets what the script as a whole
 * does with its stdin.  With @value, command 0 is the ": " put before a value. */
static int check_script(struct sbx_cmd_ctx *c, const struct sbx_sh_script *sc, bool value, unsigned *out)
{
        _cleanup_free_ unsigned *info = calloc(sc->n_cmds + 1, sizeof(*info));
        int r = 0;

        if (!info)
                return -ENOMEM;
        /* a call of a function defined here runs its body, checked where it stands */
        for (size_t i = 0; i < sc->n_exprs && r >= 0; i++)
                if (sc->exprs[i].kind == SBX_SH_FUNC && !sbx_strv_contains(&c->funcs, sc->exprs[i].text))
                        r = sbx_strv_push(&c->funcs, sc->exprs[i].text);
        for (size_t i = value; i < sc->n_cmds && r >= 0 && !c->denied; i++) {
                const struct sbx_sh_cmd *cmd = &sc->cmds[i];

                c->saw_home = c->saw_home || mentions_home(cmd->text);
                c->dotglob = c->dotglob || strstr(cmd->text, "dotglob") || strstr(cmd->text, "GLOBIGNORE") ||
                             strcasestr(cmd->text, "glob_dots") || strcasestr(cmd->text, "globdots");
                r = match_patterns(c, cmd->text);
                if (r >= 0 && cmd->kind != SBX_SH_SIMPLE) {
                        r = sbx_bash_cmd(c, cmd);
                        continue;
                }
                for (size_t j = 0; j < cmd->n_assign && r >= 0 && !c->denied; j++)
                        r = sbx_cmd_check_assignment(c, &cmd->words[j], cmd->text);
                if (r >= 0)
                        r = sbx_cmd_check_words(c, sbx_sh_argv(cmd), sbx_sh_argc(cmd), cmd->text, &shell_how, &info[i]);
                if (sbx_sh_stdin_of(sc, i) == SBX_SH_STDIN_SHELL)
                        c->func_stdin |= info[i] & (SBX_CMD_SHELL_STDIN | SBX_CMD_PROG_STDIN);
        }
        /* A call of a function defined here gives its body the call's stdin: when some
         * command reads code from the stdin it inherits (a body's `bash`), each call
         * reads code from its own, which the pipe rules then check (f() { bash; };
         * curl … | f).  Which body a command stands in is not kept: any such command
         * counts for every call. */
        /* (c->func_stdin: across the line's nested scripts too, export -f f; … | bash -c f) */
        for (size_t i = value; i < sc->n_cmds && c->func_stdin && c->funcs.n; i++)
                if (sc->cmds[i].kind == SBX_SH_SIMPLE && sbx_sh_argc(&sc->cmds[i]) &&
                    sbx_strv_contains(&c->funcs, sbx_sh_argv(&sc->cmds[i])[0].text))
                        info[i] |= c->func_stdin;
        /* what bash evaluates again: arithmetic, ${…}, array elements, {NAME}> */
        for (size_t i = 0; i < sc->n_exprs && r >= 0 && !c->denied; i++)
                r = sbx_bash_expr(c, &sc->exprs[i], &sc->cmds[sc->exprs[i].owner - 1]);
        for (size_t i = 0; i < sc->n_cmds && r >= 0 && !c->denied; i++)
                r = pipe_rules(c, sc, info, i);
        for (size_t i = 0; i < sc->n_cmds; i++) {
                *out |= info[i] & (SBX_CMD_FETCHES | SBX_CMD_INTERP);
                if (sbx_sh_stdin_of(sc, i) == SBX_SH_STDIN_SHELL)
                        *out |= info[i] & (SBX_CMD_SHELL_STDIN | SBX_CMD_PROG_STDIN);
        }
        return r;
}

int sbx_cmd_check_code(struct sbx_cmd_ctx *c, const char *text, bool value, const char *seg, unsigned *info)
{
        _cleanup_free_ char *buf = NULL;
        struct sbx_sh_script sc;
        int r;

        if (c->denied)
                return 0;
        if (c->depth >= SBX_CMD_MAX_NEST)
                return sbx_cmd_deny(c, seg, "commands nested more than %u deep", SBX_CMD_MAX_NEST);
        if (c->placeholder && strstr(text, c->placeholder))
                return sbx_cmd_deny(c, seg, "'%s' is code in which '%s' is replaced at run time (xargs -I, find -exec): "
                                    "pass it as an argument (sh -c '... \"$1\"' _ %s) " SBX_UNREAD, text, c->placeholder,
                                    c->placeholder);
        if (value && asprintf(&buf, ": %s", text) < 0)
                return -ENOMEM;
        r = sbx_sh_parse(buf ? buf : text, &sc);
        if (r == -EINVAL)
                r = sbx_cmd_deny(c, seg, "unparseable shell string: %s", sc.error);
        else if (r >= 0) {
                c->depth++;
                r = check_script(c, &sc, value, info);
                c->depth--;
        }
        sbx_sh_script_done(&sc);
        return r;
}

/* ------------------------------------------------------------------ the verdict */

static int compile_patterns(struct sbx_cmd_ctx *c)
{
        const struct sbx_strv *l = &c->p->deny_patterns;

        if (!l->n)
                return 0;
        if (!(c->re = calloc(l->n, sizeof(*c->re))))
                return -ENOMEM;
        for (; c->n_re < l->n; c->n_re++)
                if (regcomp(&c->re[c->n_re], l->v[c->n_re], REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
                        return sbx_cmd_deny(c, NULL, "deny pattern '%s' does not compile (commands.deny_patterns)",
                                            l->v[c->n_re]);
        return 0;
}

static void free_patterns(struct sbx_cmd_ctx *c)
{
        for (size_t i = 0; i < c->n_re; i++)
                regfree(&c->re[i]);
        free(c->re);
}

/* The deny patterns against the whole line, then argv as a simple command. */
static int check_argv(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, size_t n, const char *line)
{
        unsigned info = 0;
        int r = match_patterns(c, line);

        return r < 0 ? r : sbx_cmd_check_words(c, w, n, line, &no_how, &info);
}

int sbx_cmd_check(const struct sbx_cmd_policy *p, char *const *argv, struct sbx_verdict *v)
{
        struct sbx_cmd_ctx c = { .p = p, .v = v };
        _cleanup_free_ struct sbx_sh_word *w = NULL;
        _cleanup_free_ char *line = NULL;
        size_t n = 0;
        int r = 0;

        *v = (struct sbx_verdict){ 0 };
        if (p && p->mode == SBX_CMD_OFF) {
                v->allow = true;
                snprintf(v->reason, sizeof(v->reason), "command policy off");
                return 0;
        }
        while (argv && argv[n])
                n++;
        if (!p || (p->mode != SBX_CMD_ALLOWLIST && p->mode != SBX_CMD_DENYLIST))
                return sbx_cmd_deny(&c, NULL, "no valid command policy");
        if (!n)
                return sbx_cmd_deny(&c, NULL, "no command");
        if ((w = calloc(n, sizeof(*w))))
                for (size_t i = 0; i < n; i++)
                        w[i].text = argv[i];
        if (!w || !(line = sbx_cmd_join(w, n)))
                r = -ENOMEM;
        else if ((r = compile_patterns(&c)) >= 0 && !c.denied) {
                /* The first pass collects what variables may hold and whether the line
                 * changes directory or HOME; the second judges with all of that known. */
                c.vars_open = true;
                r = check_argv(&c, w, n, line);
                if (r >= 0 && !c.denied && (c.saw_cd || c.saw_home || c.dotglob || c.need_values)) {
                        c.vars_open = false;
                        c.cwd_unknown = c.saw_cd;
                        c.home_unknown = c.saw_home;
                        c.n_checked = 0;
                        c.names[0] = '\0';
                        r = check_argv(&c, w, n, line);
                }
        }
        free_patterns(&c);
        sbx_cmd_vars_done(&c);
        sbx_strv_free(&c.funcs);
        if (r < 0) {
                c.denied = false;
                sbx_cmd_deny(&c, NULL, "cannot check the command: %s", strerror(-r));
                return r;
        }
        if (!c.denied) {
                v->allow = true;
                snprintf(v->reason, sizeof(v->reason), "allowed: %zu command%s checked (%s)", c.n_checked,
                         c.n_checked == 1 ? "" : "s", c.names);
                tidy(v->reason);
        }
        return 0;
}
