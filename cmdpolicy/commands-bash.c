/* SPDX-License-Identifier: MIT */
/* What bash evaluates a second time.  bash expands $(…) inside an array subscript when
 * it evaluates the subscript, and evaluates a variable's value as an expression when
 * the variable is an arithmetic operand, so `x='a[$(cmd)]'; echo $((x))` runs cmd, and
 * so do `printf -v 'a[$(cmd)]'`, `test -v`, `[[ -v ]]`, `[[ $x -eq 1 ]]`, `read`,
 * `declare`, `unset`, `let`, `wait -p`, ${a[$x]}, ${s:$x}, ${!x}, `{a[$x]}>f` and the
 * elements of a=([$x]=…).  The rule here: every arithmetic expression and every name
 * with a subscript must be inert, that is hold no substitution, and read only variables
 * whose every value on the line is itself inert (commands-env.c collects them in a
 * first pass); a variable with a value known only at run time (read, a command's
 * output, a for list over files, the environment) is not.
 *
 * Builtins that run code are checked or denied: mapfile -C and compgen -C run a
 * command, compgen -W expands its words, fc reruns history, enable -f loads a shared
 * object, hash -p renames a program, bind -x binds a command, declare -n and -i make
 * later assignments evaluate, and an alias changes what a later name runs. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "commands-int.h"

static bool name_first(char ch)
{
        return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static bool name_char(char ch)
{
        return name_first(ch) || (ch >= '0' && ch <= '9');
}

static size_t name_len(const char *s)
{
        size_t n = 0;

        if (!name_first(s[0]))
                return 0;
        while (name_char(s[n]))
                n++;
        return n;
}

/* From @s at an opening @open, past its matching @close (nesting), or NULL. */
static const char *skip_group(const char *s, char open, char close)
{
        size_t depth = 0;

        for (; *s; s++) {
                if (*s == open)
                        depth++;
                else if (*s == close && --depth == 0)
                        return s + 1;
        }
        return NULL;
}

/* ------------------------------------------------------------------ arithmetic */

/* Sets c->why; false, for `return why(…)`. */
static bool why(struct sbx_cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool why(struct sbx_cmd_ctx *c, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(c->why, sizeof(c->why), fmt, ap);
        va_end(ap);
        return false;
}

/* ${…} inside arithmetic: only ${name}, ${#name}, ${#name[@]} are read here. */
static bool braced_inert(struct sbx_cmd_ctx *c, const char *s, size_t n, unsigned depth)
{
        _cleanup_free_ char *in = strndup(s, n);
        size_t k;

        if (!in)
                return false;
        if (in[0] == '#')
                return (!in[1] || ((k = name_len(in + 1)) && (!in[1 + k] || streq(in + 1 + k, "[@]") || streq(in + 1 + k, "[*]"))))
                               ? true
                               : why(c, "'${%s}' is computed at run time", in);
        if ((k = name_len(in)) && !in[k])
                return sbx_cmd_var_inert(c, in, depth);
        return why(c, "'${%s}' is computed at run time", in);
}

bool sbx_bash_arith_inert(struct sbx_cmd_ctx *c, const char *text, unsigned depth)
{
        const char *p = text;

        if (depth > 8)
                return why(c, "'%s' nests too deep", text);
        while (*p) {
                char ch = *p;
                size_t n;

                if (strchr(" \t\n\"'", ch) || strchr("+-*/%<>=!~^&|?:,();", ch)) {
                        p++; /* quotes: bash removes them before it evaluates */
                } else if (ch >= '0' && ch <= '9') {
                        p += strspn(p, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_@#");
                } else if ((n = name_len(p))) {
                        _cleanup_free_ char *name = strndup(p, n);

                        if (!name)
                                return why(c, "%s", "out of memory");
                        p += n;
                        if (*p == '[') {
                                const char *end = skip_group(p, '[', ']');
                                _cleanup_free_ char *sub = end ? strndup(p + 1, (size_t)(end - p - 2)) : NULL;

                                if (!sub)
                                        return why(c, "'%s' has an unterminated subscript", name);
                                if (!streq(sub, "@") && !streq(sub, "*") && !sbx_bash_arith_inert(c, sub, depth + 1))
                                        return false;
                                p = end;
                        }
                        if (!sbx_cmd_var_inert(c, name, depth))
                                return false;
                } else if (ch == '$' && p[1] == '(' && p[2] == '(') {
                        const char *end = skip_group(p + 1, '(', ')');
                        _cleanup_free_ char *inner = end && end - p >= 5 ? strndup(p + 3, (size_t)(end - p - 5)) : NULL;

                        if (!inner || !sbx_bash_arith_inert(c, inner, depth + 1))
                                return inner ? false : why(c, "'%s' is not arithmetic sbx can read", p);
                        p = end;
                } else if (ch == '$' && (p[1] == '[' || p[1] == '{')) {
                        const char *end = skip_group(p + 1, p[1], p[1] == '[' ? ']' : '}');
                        _cleanup_free_ char *inner = end ? strndup(p + 2, (size_t)(end - p - 3)) : NULL;

                        if (!inner)
                                return why(c, "'%s' is not arithmetic sbx can read", p);
                        if (p[1] == '[' ? !sbx_bash_arith_inert(c, inner, depth + 1)
                                        : !braced_inert(c, inner, strlen(inner), depth))
                                return false;
                        p = end;
                } else if (ch == '$' && p[1] && strchr("#?$!", p[1])) {
                        p += 2; /* integers */
                } else if (ch == '$' && (n = name_len(p + 1))) {
                        _cleanup_free_ char *name = strndup(p + 1, n);

                        if (!name || !sbx_cmd_var_inert(c, name, depth))
                                return false;
                        p += 1 + n;
                } else if (ch == '$' && p[1] == '(') {
                        return why(c, "%s", "a command's output is part of it");
                } else if (ch == '$' || ch == '`') {
                        return why(c, "'%.24s' is known only at run time", p);
                } else {
                        return why(c, "'%c' is not arithmetic sbx can read", ch);
                }
        }
        return true;
}

/* First pass: NAME=, NAME+=…, NAME++, ++NAME in @text give NAME an integer. */
static int note_assignments(struct sbx_cmd_ctx *c, const char *text, const char *seg)
{
        for (const char *p = text; *p;) {
                size_t n = name_len(p);
                const char *q;
                bool assigns;

                if (!n || (p > text && (p[-1] == '$' || name_char(p[-1]) || p[-1] == '#'))) {
                        p += n ? n : 1;
                        continue;
                }
                q = p + n;
                if (*q == '[' && !(q = skip_group(q, '[', ']')))
                        return 0;
                q += strspn(q, " \t\n");
                assigns = (q[0] == '=' && q[1] != '=') || (q[0] && strchr("+-*/%&^|", q[0]) && q[1] == '=') ||
                          ((q[0] == '<' || q[0] == '>') && q[1] == q[0] && q[2] == '=') || (q[0] == '+' && q[1] == '+') ||
                          (q[0] == '-' && q[1] == '-') || (p - text >= 2 && (p[-1] == '+' || p[-1] == '-') && p[-2] == p[-1]);
                if (assigns) {
                        _cleanup_free_ char *name = strndup(p, n);
                        int r;

                        if (!name)
                                return -ENOMEM;
                        if ((r = sbx_cmd_set_integer(c, name, seg, "arithmetic")) < 0 || c->denied)
                                return r;
                }
                p += n;
        }
        return 0;
}

int sbx_bash_arith(struct sbx_cmd_ctx *c, const char *text, const char *seg, const char *what)
{
        if (c->vars_open) {
                c->need_values = true;
                return note_assignments(c, text, seg);
        }
        if (sbx_bash_arith_inert(c, text, 0))
                return 0;
        return sbx_cmd_deny(c, seg, "%s '%s': %s, and bash runs the $(…) that a value there may hold " SBX_UNREAD, what,
                            text, c->why);
}

/* ------------------------------------------------------------------ names */

/* NAME or NAME[SUB] where bash takes a variable's name and evaluates SUB: the name
 * written out, the subscript inert.  The NAME goes to @name (NULL: not wanted). */
static int name_word(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, const char *seg, const char *what,
                     bool fields, char **name)
{
        const char *t = w->text;
        size_t n = name_len(t);
        int r;

        if (fields && (w->flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE)))
                return sbx_cmd_deny(c, seg, "%s: '%s' may become other words at run time " SBX_UNREAD, what, t);
        if (!n || (t[n] && (t[n] != '[' || t[strlen(t) - 1] != ']')))
                return sbx_cmd_deny(c, seg, "%s: '%s' is not a variable name written out, and bash evaluates a subscript "
                                    "in the name it holds " SBX_UNREAD, what, t);
        if (t[n]) {
                _cleanup_free_ char *sub = strndup(t + n + 1, strlen(t) - n - 2);

                if (!sub)
                        return -ENOMEM;
                if (!streq(sub, "@") && !streq(sub, "*") && ((r = sbx_bash_arith(c, sub, seg, "the subscript")) < 0 || c->denied))
                        return r;
        }
        if (name && !(*name = strndup(t, n)))
                return -ENOMEM;
        return 0;
}

/* A name the builtin gives a value read at run time. */
static int runtime_name(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_sh_word *w)
{
        _cleanup_free_ char *name = NULL;
        int r = name_word(c, w, k->seg, k->name, true, &name);

        if (r < 0 || c->denied)
                return r;
        return sbx_cmd_set_runtime(c, name, k->seg, k->name);
}

/* ------------------------------------------------------------------ builtin options */

static bool assignment_form(const char *t);

/* A word that bash may take as a variable's name, if an earlier word computed at run
 * time turns out to be an option that takes one (printf "$f" NAME, wait "$o" NAME):
 * only a subscript or a computed name matters then. */
static int maybe_name(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_sh_word *w)
{
        if (!sbx_cmd_computed(w) && !strchr(w->text, '['))
                return 0;
        return name_word(c, w, k->seg, k->name, true, NULL);
}

/* Called for each option letter of a builtin, with its argument (NULL: none). */
struct opts {
        const char *flags, *args; /* letters without and with an argument */
        bool plus;                /* +x is an option too (declare) */
        bool deny_computed;       /* a computed word among the options is a deny; else it
                                   * ends them, and the caller judges it as an operand */
        int (*fn)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o, char sign, char letter,
                  const struct sbx_sh_word *arg);
        bool functions; /* declare -f, unset -f: the operands are function names */
        int r;          /* -ENOMEM from fn */
};

/* bash's internal getopt: clusters, attached or separate arguments.  The index of the
 * first operand, or SIZE_MAX after a deny or an error (then o->r). */
static size_t builtin_opts(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o)
{
        size_t i = 1;

        for (; i < k->n; i++) {
                const struct sbx_sh_word *w = &k->w[i];
                const char *t = w->text;

                if (sbx_cmd_computed(w)) {
                        /* it could be an option only when the expansion comes first or
                         * may split; declare's NAME=$x is one word */
                        bool head = t[0] == '-' || t[0] == '+' || t[0] == '$' || t[0] == '`';

                        if (!o->deny_computed || !(head || (!assignment_form(t) &&
                                                            (w->flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE)))))
                                return i;
                        sbx_cmd_deny(c, k->seg, "%s: '%s' may be an option at run time " SBX_UNREAD, k->name, t);
                        return SIZE_MAX;
                }
                if (streq(t, "--"))
                        return i + 1;
                if ((t[0] != '-' && !(o->plus && t[0] == '+')) || !t[1])
                        return i;
                for (size_t j = 1; t[j]; j++) {
                        char letter = t[j];
                        const struct sbx_sh_word *arg = NULL;
                        struct sbx_sh_word att = { .text = (char *)t + j + 1, .flags = w->flags, .n_expand = w->n_expand };
                        bool takes = o->args && strchr(o->args, letter);

                        if (!takes && (!o->flags || !strchr(o->flags, letter))) {
                                sbx_cmd_deny(c, k->seg, "%s: unknown option '%c%c' " SBX_UNREAD, k->name, t[0], letter);
                                return SIZE_MAX;
                        }
                        if (takes)
                                arg = t[j + 1] ? &att : i + 1 < k->n ? &k->w[++i] : NULL;
                        if (o->fn && ((o->r = o->fn(c, k, o, t[0], letter, arg)) < 0 || c->denied))
                                return SIZE_MAX;
                        if (takes)
                                break;
                }
        }
        return i;
}

/* ------------------------------------------------------------------ builtins */

static int read_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o, char sign, char letter,
                    const struct sbx_sh_word *arg)
{
        (void)o;
        (void)sign;
        if (!arg)
                return 0;
        if ((letter == 'a' && streq(k->name, "read")) || (letter == 'v' && streq(k->name, "printf")))
                return runtime_name(c, k, arg);
        if (letter == 'p' && streq(k->name, "wait"))
                return name_word(c, arg, k->seg, k->name, true, NULL);
        if (letter == 'C') /* mapfile -C CALLBACK: run as `CALLBACK INDEX LINE` */
                return sbx_cmd_arg_code(c, k, arg, arg->text);
        return 0;
}

/* read [-ers] [-a NAME] [-d D] [-i T] [-n N] [-N N] [-p P] [-t T] [-u FD] [NAME…] */
static int b_read(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .flags = "ers", .args = "adinNptu", .fn = read_opt };
        size_t i = builtin_opts(c, k, &o);
        int r = 0;

        if (i == SIZE_MAX)
                return o.r;
        if (i >= k->n)
                return sbx_cmd_set_runtime(c, "REPLY", k->seg, "read");
        for (; i < k->n && r >= 0 && !c->denied; i++)
                r = runtime_name(c, k, &k->w[i]);
        return r;
}

/* mapfile [-t] [-d D] [-n N] [-O O] [-s N] [-u FD] [-C CALLBACK [-c N]] [ARRAY] */
static int b_mapfile(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .flags = "t", .args = "dnOsuCc", .deny_computed = true, .fn = read_opt };
        size_t i = builtin_opts(c, k, &o);

        if (i == SIZE_MAX)
                return o.r;
        if (i >= k->n)
                return sbx_cmd_set_runtime(c, "MAPFILE", k->seg, k->name);
        return runtime_name(c, k, &k->w[i]);
}

/* printf [-v NAME] FORMAT [ARG…]: the format and arguments are data, unless a computed
 * format is -v and makes the next word a name. */
static int b_printf(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .args = "v", .fn = read_opt };
        size_t i = builtin_opts(c, k, &o);

        if (i == SIZE_MAX)
                return o.r;
        return i + 1 < k->n && sbx_cmd_computed(&k->w[i]) ? maybe_name(c, k, &k->w[i + 1]) : 0;
}

/* wait [-fn] [-p NAME] [ID…]: NAME gets a process id. */
static int b_wait(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .flags = "fn", .args = "p", .fn = read_opt };
        size_t i = builtin_opts(c, k, &o);
        int r = 0;

        if (i == SIZE_MAX)
                return o.r;
        for (; i + 1 < k->n && r >= 0 && !c->denied; i++)
                if (sbx_cmd_computed(&k->w[i]))
                        r = maybe_name(c, k, &k->w[i + 1]);
        return r;
}

/* getopts OPTSTRING NAME [ARG…] */
static int b_getopts(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = 0;

        if (k->n >= 3)
                r = runtime_name(c, k, &k->w[2]);
        return r < 0 || c->denied ? r : sbx_cmd_set_runtime(c, "OPTARG", k->seg, "getopts");
}

/* test and [: -v NAME and -R NAME evaluate NAME's subscript; a computed word may be
 * one of those. */
static int b_test(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = 0;

        for (size_t i = 1; i + 1 < k->n && r >= 0 && !c->denied; i++)
                if ((streq(k->w[i].text, "-v") || streq(k->w[i].text, "-R")) && !streq(k->w[i + 1].text, "]"))
                        r = name_word(c, &k->w[i + 1], k->seg, k->name, true, NULL);
                else if (sbx_cmd_computed(&k->w[i]))
                        r = maybe_name(c, k, &k->w[i + 1]);
        return r;
}

static int declare_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o, char sign, char letter,
                       const struct sbx_sh_word *arg)
{
        (void)arg;
        if (sign == '-' && letter == 'n')
                return sbx_cmd_deny(c, k->seg, "%s -n: a name reference makes one name stand for another, which is not "
                                    "followed " SBX_UNREAD, k->name);
        if (sign == '-' && letter == 'i')
                return sbx_cmd_deny(c, k->seg, "%s -i: every later assignment to an integer variable is arithmetic, "
                                    "which is not followed " SBX_UNREAD, k->name);
        o->functions = o->functions || letter == 'f' || letter == 'F';
        return 0;
}

/* NAME[SUB]=… or NAME+=…: the argument is an assignment. */
static bool assignment_form(const char *t)
{
        size_t n = name_len(t);
        const char *p = t + n;

        if (!n)
                return false;
        if (*p == '[' && !(p = skip_group(p, '[', ']')))
                return false;
        return *p == '=' || (p[0] == '+' && p[1] == '=');
}

/* declare, typeset, local, export, readonly: options, then NAME, NAME[SUB], NAME=… */
static int b_declare(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = {
                .flags = streq(k->name, "export") ? "fnp" : streq(k->name, "readonly") ? "aAfp" : "aAfFgiIlnprtux",
                .plus = true, .deny_computed = true, .fn = declare_opt,
        };
        size_t i = builtin_opts(c, k, &o);
        int r = 0;

        if (i == SIZE_MAX)
                return o.r;
        for (; i < k->n && r >= 0 && !c->denied && !o.functions; i++) {
                const struct sbx_sh_word *w = &k->w[i];
                const char *eq = strchr(w->text, '=');

                if (!assignment_form(w->text)) {
                        r = name_word(c, w, k->seg, k->name, false, NULL);
                        continue;
                }
                /* declare -a x='(…)' parses the quoted value again as an array */
                if (eq[1] == '(')
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' is a quoted array value, which bash parses again "
                                            SBX_UNREAD, k->name, w->text);
                r = sbx_cmd_check_assignment(c, w, k->seg);
        }
        return r;
}

/* unset [-fvn] NAME…: a subscript is evaluated. */
static int b_unset(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .flags = "fvn", .deny_computed = true, .fn = declare_opt };
        size_t i = builtin_opts(c, k, &o);
        int r = 0;

        if (i == SIZE_MAX)
                return o.r;
        for (; i < k->n && r >= 0 && !c->denied && !o.functions; i++)
                r = name_word(c, &k->w[i], k->seg, k->name, true, NULL);
        return r;
}

/* let EXPR…: each argument is arithmetic; a glob could make it a file's name. */
static int b_let(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = 0;

        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++)
                r = k->w[i].flags & (SBX_SH_GLOB | SBX_SH_BRACE)
                            ? sbx_cmd_deny(c, k->seg, "let: '%s' may become a file's name at run time " SBX_UNREAD, k->w[i].text)
                            : sbx_bash_arith(c, k->w[i].text, k->seg, "let");
        return r;
}

static int compgen_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o, char sign, char letter,
                       const struct sbx_sh_word *arg)
{
        unsigned info = 0;

        (void)o;
        (void)sign;
        if (!arg)
                return 0;
        if (letter == 'C')
                return sbx_cmd_arg_code(c, k, arg, arg->text);
        if ((letter == 'F' || letter == 'W') && sbx_cmd_computed(arg))
                return sbx_cmd_deny(c, k->seg, "%s -%c: '%s' is computed at run time " SBX_UNREAD, k->name, letter, arg->text);
        /* -W WORDS: bash expands each word again */
        if (letter == 'W' && (arg->flags & SBX_SH_LITCODE))
                return sbx_cmd_check_code(c, arg->text, true, k->seg, &info);
        return 0;
}

/* compgen and complete: -C runs a command, -F a function, -W expands words. */
static int b_compgen(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .flags = "abcdefgjksuvprDEI", .args = "oAGWFCXPS", .deny_computed = true, .fn = compgen_opt };

        return builtin_opts(c, k, &o) == SIZE_MAX ? o.r : 0;
}

static int deny_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, struct opts *o, char sign, char letter,
                    const struct sbx_sh_word *arg)
{
        (void)o;
        (void)sign;
        (void)arg;
        if (streq(k->name, "enable") && letter == 'f')
                return sbx_cmd_deny(c, k->seg, "enable -f loads a builtin from a shared object " SBX_LOADS);
        if (streq(k->name, "hash") && letter == 'p')
                return sbx_cmd_deny(c, k->seg, "hash -p makes a command name run another program " SBX_RUNS);
        if (streq(k->name, "bind") && letter == 'x')
                return sbx_cmd_deny(c, k->seg, "bind -x binds a key to a command " SBX_RUNS);
        return 0;
}

/* enable -f FILE loads code; hash -p PATH NAME renames a program; bind -x runs one. */
static int b_deny_opts(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct opts o = { .deny_computed = true, .fn = deny_opt };

        if (streq(k->name, "enable"))
                o.flags = "adnps", o.args = "f";
        else if (streq(k->name, "hash"))
                o.flags = "dlrt", o.args = "p";
        else
                o.flags = "lpsvPSVX", o.args = "mqufrx";
        return builtin_opts(c, k, &o) == SIZE_MAX ? o.r : 0;
}

static int b_fc(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        return sbx_cmd_deny(c, k->seg, "%s runs commands again from the history or an editor " SBX_RUNS, k->name);
}

/* alias NAME=VALUE makes a later NAME run VALUE with the words after it: what a name
 * runs would no longer be what it says.  Its body is checked first for the reason. */
static int b_alias(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = 0;

        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++) {
                const char *t = k->w[i].text, *eq = strchr(t, '=');

                if (sbx_cmd_computed(&k->w[i]))
                        return sbx_cmd_deny(c, k->seg, "alias: '%s' is computed at run time " SBX_UNREAD, t);
                if (t[0] == '-' || !eq)
                        continue;
                if ((r = sbx_cmd_arg_code(c, k, &k->w[i], eq + 1)) >= 0 && !c->denied)
                        return sbx_cmd_deny(c, k->seg, "alias: an alias changes what a later command name runs, which is "
                                            "not followed " SBX_UNREAD);
        }
        return r;
}

/* source FILE, . FILE: a script, like `sh FILE`, which may set any variable. */
static int b_source(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        *k->info |= SBX_CMD_INTERP;
        c->any_value = true;
        if (k->n < 2)
                return 0;
        if (k->w[1].flags & SBX_SH_PROCSUB)
                return sbx_cmd_deny(c, k->seg, "%s: reads a process substitution, computed at run time " SBX_UNREAD, k->name);
        if (sbx_cmd_computed(&k->w[1]))
                return sbx_cmd_deny(c, k->seg, "%s: its file '%s' is computed at run time " SBX_UNREAD, k->name, k->w[1].text);
        if (sbx_cmd_is_stdin_path(k->w[1].text))
                *k->info |= SBX_CMD_SHELL_STDIN;
        return 0;
}

/* set -k (-o keyword) puts every NAME=VALUE argument of a command into its
 * environment: `ls LD_PRELOAD=x.so` would load it. */
static int b_set(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (streq(t, "--") || (t[0] != '-' && t[0] != '+'))
                        break;
                if (sbx_cmd_computed(&k->w[i]) ||
                    (t[0] == '-' && (strchr(t, 'k') || (strchr(t, 'o') && i + 1 < k->n && (streq(k->w[i + 1].text, "keyword") ||
                                                                                         sbx_cmd_computed(&k->w[i + 1]))))))
                        return sbx_cmd_deny(c, k->seg, "set: '%s' may turn on keyword mode, which puts NAME=VALUE "
                                            "arguments into a command's environment " SBX_UNREAD, t);
        }
        return 0;
}

static int b_cd(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = sbx_cmd_set_runtime(c, "PWD", k->seg, k->name);

        if (r >= 0 && !c->denied)
                r = sbx_cmd_set_runtime(c, "OLDPWD", k->seg, k->name);
        return r >= 0 && !c->denied ? sbx_cmd_set_runtime(c, "DIRSTACK", k->seg, k->name) : r;
}

static const struct {
        const char *name;
        int (*check)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
} builtins[] = {
        { "read", b_read },         { "mapfile", b_mapfile },   { "readarray", b_mapfile }, { "printf", b_printf },
        { "wait", b_wait },         { "getopts", b_getopts },   { "test", b_test },         { "[", b_test },
        { "declare", b_declare },   { "typeset", b_declare },   { "local", b_declare },     { "export", b_declare },
        { "readonly", b_declare },  { "unset", b_unset },       { "let", b_let },           { "compgen", b_compgen },
        { "complete", b_compgen },  { "enable", b_deny_opts },  { "hash", b_deny_opts },    { "bind", b_deny_opts },
        { "fc", b_fc },             { "history", NULL },        { "alias", b_alias },       { "source", b_source },
        { ".", b_source },          { "cd", b_cd },             { "pushd", b_cd },          { "popd", b_cd },
        { "set", b_set },
};

int sbx_bash_builtin(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 0; i < ELEMENTSOF(builtins); i++)
                if (streq(builtins[i].name, k->name))
                        return builtins[i].check ? builtins[i].check(c, k) : 0;
        return 1;
}

/* ------------------------------------------------------------------ [[ ]], for, select */

static bool arith_op(const char *t)
{
        static const char *const ops[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge", NULL };

        return in_list(ops, t);
}

static int cond(struct sbx_cmd_ctx *c, const struct sbx_sh_cmd *cmd)
{
        const struct sbx_sh_word *w = cmd->words;
        int r = 0;

        for (size_t i = 0; i < cmd->n_words && r >= 0 && !c->denied; i++) {
                const char *t = w[i].text;

                if ((streq(t, "-v") || streq(t, "-R")) && i + 1 < cmd->n_words)
                        r = name_word(c, &w[i + 1], cmd->text, "[[ -v ]]", false, NULL);
                else if (arith_op(t) && i > 0 && i + 1 < cmd->n_words) {
                        /* both operands are arithmetic, evaluated after expansion */
                        if ((r = sbx_bash_arith(c, w[i - 1].text, cmd->text, "[[ ]] operand")) >= 0 && !c->denied)
                                r = sbx_bash_arith(c, w[i + 1].text, cmd->text, "[[ ]] operand");
                } else if (streq(t, "=~"))
                        r = sbx_cmd_set_runtime(c, "BASH_REMATCH", cmd->text, "[[ =~ ]]");
        }
        return r;
}

/* A for list's word gives NAME: its text when written out, an integer for {1..9}. */
static int for_value(struct sbx_cmd_ctx *c, const char *name, const struct sbx_sh_word *w, const char *seg)
{
        _cleanup_free_ char *item = NULL;
        struct sbx_sh_word a = { .flags = w->flags & ~(unsigned)SBX_SH_BRACE };

        if (w->flags & (SBX_SH_EXPAND | SBX_SH_GLOB | SBX_SH_SPLIT))
                return sbx_cmd_set_runtime(c, name, seg, "a for list");
        if ((w->flags & SBX_SH_BRACE) && strspn(w->text, "0123456789{}.,-") != strlen(w->text))
                return sbx_cmd_set_runtime(c, name, seg, "a for list");
        if (asprintf(&item, "%s=%s", name, (w->flags & SBX_SH_BRACE) ? "0" : w->text) < 0)
                return -ENOMEM;
        a.text = item;
        return sbx_cmd_check_assignment(c, &a, seg);
}

int sbx_bash_cmd(struct sbx_cmd_ctx *c, const struct sbx_sh_cmd *cmd)
{
        const char *name;
        int r = 0;

        if (cmd->kind == SBX_SH_COND)
                return cond(c, cmd);
        if (!cmd->n_words)
                return 0;
        name = cmd->words[0].text;
        if (sbx_cmd_computed(&cmd->words[0]) || name_len(name) != strlen(name))
                return sbx_cmd_deny(c, cmd->text, "for: '%s' is not a variable name written out " SBX_UNREAD, name);
        if (cmd->kind == SBX_SH_SELECT) {
                r = sbx_cmd_set_runtime(c, name, cmd->text, "select");
                return r < 0 || c->denied ? r : sbx_cmd_set_runtime(c, "REPLY", cmd->text, "select");
        }
        for (size_t i = 1; i < cmd->n_words && r >= 0 && !c->denied; i++)
                r = for_value(c, name, &cmd->words[i], cmd->text);
        return r;
}

/* ------------------------------------------------------------------ ${…}, elements, {NAME}> */

/* The inside of ${…}: a subscript and an offset or length are arithmetic; ${!x}
 * evaluates the name x holds; @P expands a value as a prompt; ${x=v} assigns. */
static int param(struct sbx_cmd_ctx *c, const char *text, const char *seg)
{
        const char *p = text, *sub_end = NULL;
        _cleanup_free_ char *name = NULL, *sub = NULL;
        bool bang = false;
        size_t n;
        int r = 0;

        if (p[0] == '!' && p[1]) {
                bang = true;
                p++;
        } else if (p[0] == '#' && (name_char(p[1]) || p[1] == '@' || p[1] == '*')) {
                p++;
        }
        if ((n = name_len(p)))
                ;
        else if (*p >= '0' && *p <= '9')
                n = strspn(p, "0123456789");
        else if (*p && strchr("@*#?-$!", *p))
                n = 1;
        else
                return sbx_cmd_deny(c, seg, "'${%s}' is not a parameter expansion sbx can read " SBX_UNREAD, text);
        if (!(name = strndup(p, n)))
                return -ENOMEM;
        p += n;
        if (*p == '[') {
                if (!(sub_end = skip_group(p, '[', ']')))
                        return sbx_cmd_deny(c, seg, "'${%s}' has an unterminated subscript " SBX_UNREAD, text);
                if (!(sub = strndup(p + 1, (size_t)(sub_end - p - 2))))
                        return -ENOMEM;
                p = sub_end;
                if (!streq(sub, "@") && !streq(sub, "*") && ((r = sbx_bash_arith(c, sub, seg, "the subscript")) < 0 || c->denied))
                        return r;
        }
        if (bang && !(*p == '*' || *p == '@') && !(sub && (streq(sub, "@") || streq(sub, "*")))) {
                /* ${!x}: the value of the variable x names, subscript and all */
                if (c->vars_open)
                        c->need_values = true;
                else if (!name_first(name[0]) || !sbx_cmd_var_inert(c, name, 0))
                        return sbx_cmd_deny(c, seg, "'${%s}' evaluates the name '%s' holds: %s " SBX_UNREAD, text, name,
                                            name_first(name[0]) ? c->why : "a positional parameter");
        }
        if (p[0] == '@' && p[1] == 'P')
                return sbx_cmd_deny(c, seg, "'${%s}' expands a value as a prompt, running the $(…) in it " SBX_UNREAD, text);
        if (p[0] == ':' && p[1] && !strchr("-=?+", p[1])) {
                /* ${x:OFFSET} and ${x:OFFSET:LENGTH} */
                _cleanup_free_ char *range = strdup(p + 1);
                char *colon;

                if (!range)
                        return -ENOMEM;
                if ((colon = strchr(range, ':')))
                        *colon = '\0';
                if ((r = sbx_bash_arith(c, range, seg, "the offset")) < 0 || c->denied)
                        return r;
                return colon ? sbx_bash_arith(c, colon + 1, seg, "the length") : 0;
        }
        if ((p[0] == '=' || (p[0] == ':' && p[1] == '=')) && name_first(name[0]))
                return sbx_cmd_set_runtime(c, name, seg, "${…=…}");
        return 0;
}

/* declare -A (typeset, local -A): the array it assigns is associative. */
static bool associative(const struct sbx_sh_cmd *cmd)
{
        const struct sbx_sh_word *w = sbx_sh_argv(cmd);
        size_t n = sbx_sh_argc(cmd);

        if (!n || !(streq(w[0].text, "declare") || streq(w[0].text, "typeset") || streq(w[0].text, "local")))
                return false;
        for (size_t i = 1; i < n && w[i].text[0] == '-'; i++)
                if (strchr(w[i].text, 'A') && !sbx_cmd_computed(&w[i]))
                        return true;
        return false;
}

/* NAME=(… [SUB]=VALUE …): SUB is arithmetic; VALUE goes to NAME like an assignment. */
static int elem(struct sbx_cmd_ctx *c, const struct sbx_sh_expr *x, const struct sbx_sh_cmd *owner, const char *seg)
{
        const char *t = x->text, *value = t;
        _cleanup_free_ char *item = NULL;
        struct sbx_sh_word w = { .flags = x->flags, .n_expand = (x->flags & SBX_SH_EXPAND) ? 2 : 0 };
        int r;

        if (t[0] == '[') {
                const char *end = skip_group(t, '[', ']');
                _cleanup_free_ char *sub = end ? strndup(t + 1, (size_t)(end - t - 2)) : NULL;

                if (!end || !sub || (*end != '=' && strncmp(end, "+=", 2) != 0))
                        return end && !sub ? -ENOMEM : 0; /* a value that starts with '[' */
                /* the keys of declare -A x=([k]=v) are strings, not arithmetic */
                if (!associative(owner) && ((r = sbx_bash_arith(c, sub, seg, "an array subscript")) < 0 || c->denied))
                        return r;
                value = strchr(end, '=') + 1;
        }
        if (asprintf(&item, "%s=%s", x->name, value) < 0)
                return -ENOMEM;
        w.text = item;
        return sbx_cmd_check_assignment(c, &w, seg);
}

int sbx_bash_expr(struct sbx_cmd_ctx *c, const struct sbx_sh_expr *x, const struct sbx_sh_cmd *owner)
{
        const char *seg = owner->text;
        struct sbx_sh_word w = { .text = x->text };
        _cleanup_free_ char *name = NULL;
        int r;

        switch (x->kind) {
        case SBX_SH_ARITH:
                return sbx_bash_arith(c, x->text, seg, "arithmetic");
        case SBX_SH_PARAM:
                return param(c, x->text, seg);
        case SBX_SH_ELEM:
                return elem(c, x, owner, seg);
        case SBX_SH_FDVAR:
                if ((r = name_word(c, &w, seg, "{NAME}>", false, &name)) < 0 || c->denied)
                        return r;
                return sbx_cmd_set_integer(c, name, seg, "{NAME}>");
        case SBX_SH_FUNC:
                break;
        }
        return 0;
}
