/* SPDX-License-Identifier: MIT */
/* Words: quotes, escapes, and the expansions inside words, $(…) `…` <(…) ${…} $((…))
 * $'…', each parsed for the commands it runs (through sbx_lex_sub_list(), counted
 * against SBX_SH_MAX_DEPTH).  A word remembers what it held (shell.h's SBX_SH_*), so
 * the checker can tell a command name written out from one computed at run time. */
#include "shell-lex.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "../lib/cleanup.h"

static int scan_dollar(struct parser *ps, size_t owner, bool dq);
static int scan_backquote(struct parser *ps, size_t owner, bool dq);

void sbx_lex_word_done(struct word *w)
{
        free(w->s);
}

int sbx_lex_fail(struct parser *ps, size_t at, const char *fmt, ...)
{
        char *e = ps->sc->error;
        va_list ap;
        int n;

        if (e[0])
                return -EINVAL; /* the first reason is the one that explains */
        va_start(ap, fmt);
        n = vsnprintf(e, sizeof(ps->sc->error), fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < sizeof(ps->sc->error))
                snprintf(e + n, sizeof(ps->sc->error) - (size_t)n, " at offset %zu", ps->in->base + at);
        return -EINVAL;
}

/* Appends to the word; @plain: unquoted, unexpanded text (see is_assignment). */
static int put(struct word *w, const char *s, size_t n, bool plain)
{
        if (!plain && w->plain == NONE)
                w->plain = w->n;
        if (w->n + n + 1 > w->cap) {
                size_t cap = capacity(w->n + n + 1);
                char *t = realloc(w->s, cap);

                if (!t)
                        return -ENOMEM;
                w->s = t;
                w->cap = cap;
        }
        memcpy(w->s + w->n, s, n);
        w->n += n;
        w->s[w->n] = '\0';
        w->any = true;
        return 0;
}

static int enter(struct parser *ps, size_t at_pos)
{
        if (ps->depth >= SBX_SH_MAX_DEPTH)
                return sbx_lex_fail(ps, at_pos, "nested more than %u levels deep", SBX_SH_MAX_DEPTH);
        ps->depth++;
        return 0;
}

/* ------------------------------------------------------------------ expansions */

/* $(…) and <(…): pos is past the '('; leaves pos past the ')'. */
static int scan_cmdsub(struct parser *ps, size_t owner, size_t start)
{
        int r = enter(ps, start);

        if (r < 0)
                return r;
        r = sbx_lex_sub_list(ps, owner, ')');
        ps->depth--;
        if (r < 0)
                return r;
        ps->in->pos++;
        return 0;
}

/* $((…)) and ((…)): pos is past the "(("; leaves pos past the "))".  Arithmetic runs
 * the substitutions in it, so those are parsed; quotes are not special here, which at
 * worst finds a substitution bash would not run. */
int sbx_lex_scan_arith(struct parser *ps, size_t owner, size_t start)
{
        struct src *in = ps->in;
        size_t open = 0;
        int r = 0;

        for (;;) {
                char c = at(in, 0);

                if (c == '\0')
                        return sbx_lex_fail(ps, start, "unterminated '(('");
                if (c == '(') {
                        open++;
                        in->pos++;
                } else if (c == ')') {
                        if (open == 0) {
                                if (at(in, 1) != ')')
                                        return sbx_lex_fail(ps, start, "'((' closed by a single ')'");
                                in->pos += 2;
                                return 0;
                        }
                        open--;
                        in->pos++;
                } else if (c == '$') {
                        r = scan_dollar(ps, owner, true);
                } else if (c == '`') {
                        r = scan_backquote(ps, owner, true);
                } else {
                        in->pos += (c == '\\' && at(in, 1)) ? 2 : 1;
                }
                if (r < 0)
                        return r;
        }
}

/* ${…}: pos is at the '$'.  Its operand words may hold substitutions
 * (${x:-$(cmd)} runs cmd), so those are parsed.  Quotes inside are taken as plain
 * characters: bash's rules for them differ inside and outside "…", and treating them
 * as text can only find more substitutions, never fewer. */
static int scan_braced(struct parser *ps, size_t owner)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        int r = enter(ps, start);

        in->pos += 2;
        while (r >= 0) {
                char c = at(in, 0);

                if (c == '\0')
                        r = sbx_lex_fail(ps, start, "unterminated '${'");
                else if (c == '}') {
                        in->pos++;
                        break;
                } else if (c == '$')
                        r = scan_dollar(ps, owner, true);
                else if (c == '`')
                        r = scan_backquote(ps, owner, true);
                else
                        in->pos += (c == '\\' && at(in, 1)) ? 2 : 1;
        }
        ps->depth--;
        return r < 0 ? r : 0;
}

/* `…`: pos is at the backquote; leaves pos past the closing one.  The body loses one
 * level of backslashes before \$ \` \\ (and \" inside "…"), then is parsed as its own
 * string, as the shell does. */
static int scan_backquote(struct parser *ps, size_t owner, bool dq)
{
        struct src *in = ps->in, body_in;
        _cleanup_(sbx_lex_word_done) struct word body = { .plain = NONE };
        size_t start = in->pos, i = start + 1;
        int r;

        for (;; i++) {
                char c = in->s[i], e; /* i <= len, and s[len] is the NUL */

                if (c == '\0')
                        return sbx_lex_fail(ps, start, "unterminated backquote");
                if (c == '`')
                        break;
                e = in->s[i + 1];
                if (c == '\\' && (e == '$' || e == '`' || e == '\\' || (dq && e == '"')))
                        c = in->s[++i];
                if ((r = put(&body, &c, 1, true)) < 0)
                        return r;
        }
        in->pos = i + 1;
        if ((r = enter(ps, start)) < 0)
                return r;
        body_in = (struct src){ .s = body.s ? body.s : "", .len = body.n, .base = in->base + start + 1 };
        ps->in = &body_in;
        r = sbx_lex_sub_list(ps, owner, '\0');
        ps->in = in;
        ps->depth--;
        return r;
}

/* $…: pos is at the '$'.  Returns 0 for a lone '$' (pos past it), 1 for an expansion
 * (pos past it), 2 for $"…" (pos at the '"'), 3 for $'…' (pos past it). */
static int scan_dollar(struct parser *ps, size_t owner, bool dq)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        char n = at(in, 1);
        int r;

        if (n == '(' && at(in, 2) == '(') {
                in->pos += 3;
                r = sbx_lex_scan_arith(ps, owner, start);
                return r < 0 ? r : 1;
        }
        if (n == '(') {
                in->pos += 2;
                r = scan_cmdsub(ps, owner, start);
                return r < 0 ? r : 1;
        }
        if (n == '{') {
                r = scan_braced(ps, owner);
                return r < 0 ? r : 1;
        }
        if (n == '\'' && !dq) {
                /* $'…': C escapes, decided at run time as far as we care */
                for (in->pos += 2;; in->pos++) {
                        char c = at(in, 0);

                        if (c == '\0')
                                return sbx_lex_fail(ps, start, "unterminated $'");
                        if (c == '\'')
                                break;
                        if (c == '\\' && at(in, 1))
                                in->pos++;
                }
                in->pos++;
                return 3;
        }
        if (n == '"' && !dq) {
                in->pos++;
                return 2;
        }
        if (is_name_char(n, true)) {
                for (in->pos++; is_name_char(at(in, 0), false); in->pos++)
                        ;
                return 1;
        }
        if (n && strchr("0123456789@*#?-$!", n)) {
                in->pos += 2;
                return 1;
        }
        in->pos++;
        return 0;
}

/* ------------------------------------------------------------------ words */

static int dquote(struct parser *ps, size_t owner, struct word *w);

/* One expansion inside a word: its source text goes into the word as written. */
static int expansion(struct parser *ps, size_t owner, struct word *w, bool dq)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        int r;

        if (at(in, 0) == '`') {
                r = scan_backquote(ps, owner, dq);
                r = r < 0 ? r : 1;
        } else if (at(in, 0) == '<' || at(in, 0) == '>') {
                in->pos += 2;
                r = scan_cmdsub(ps, owner, start);
                w->flags |= SBX_SH_PROCSUB;
                r = r < 0 ? r : 1;
        } else {
                r = scan_dollar(ps, owner, dq);
        }
        if (r < 0)
                return r;
        if (r == 0)
                return put(w, "$", 1, !dq);
        w->flags |= SBX_SH_EXPAND;
        w->n_expand++;
        if (!dq && r == 1 && !(w->flags & SBX_SH_PROCSUB))
                w->flags |= SBX_SH_SPLIT;
        if (r == 2)
                return dquote(ps, owner, w); /* $"…": a translated "…" */
        return put(w, in->s + start, in->pos - start, false);
}

/* "…": pos is at the opening quote. */
static int dquote(struct parser *ps, size_t owner, struct word *w)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        int r = put(w, "", 0, false); /* "" is a word, with a text */

        w->flags |= SBX_SH_QUOTED;
        for (in->pos++; r >= 0;) {
                char c = at(in, 0), e = at(in, 1);

                if (c == '\0')
                        return sbx_lex_fail(ps, start, "unterminated double quote");
                if (c == '"') {
                        in->pos++;
                        break;
                }
                if (c == '\\' && e == '\n') {
                        in->pos += 2;
                } else if (c == '\\' && (e == '$' || e == '`' || e == '"' || e == '\\')) {
                        if (e == '$' || e == '`')
                                w->flags |= SBX_SH_LITCODE;
                        r = put(w, &e, 1, false);
                        in->pos += 2;
                } else if (c == '$' || c == '`') {
                        r = expansion(ps, owner, w, true);
                } else {
                        r = put(w, &c, 1, false);
                        in->pos++;
                }
        }
        return r;
}

/* An unquoted character other than a quote, backslash or expansion. */
static int plain_char(struct src *in, struct word *w)
{
        char c = at(in, 0);
        bool start = !w->any;

        if (c == '*' || c == '?' || (c == ']' && w->bracket))
                w->flags |= SBX_SH_GLOB;
        else if (c == '[')
                w->bracket = true;
        else if (c == '~' && start)
                w->flags |= SBX_SH_TILDE;
        else if (c == '=' && start && !is_meta(at(in, 1)) && at(in, 1) != '=') {
                w->flags |= SBX_SH_EXPAND; /* zsh: =cmd is the path of cmd */
                w->n_expand++;
        } else if (c == '{')
                w->brace = true;
        else if (w->brace && (c == ',' || (c == '.' && at(in, 1) == '.')))
                w->brace_sep = true;
        else if (c == '}' && w->brace_sep)
                w->flags |= SBX_SH_BRACE;
        in->pos++;
        return put(w, &c, 1, true);
}

/* Reads one word at pos (which is not at a blank or an operator, except "<(" ">("). */
int sbx_lex_read_word(struct parser *ps, size_t owner, struct word *w)
{
        struct src *in = ps->in;
        int r = 0;

        while (r >= 0) {
                char c = at(in, 0), e = at(in, 1);

                if (((c == '<' || c == '>') && e == '(') || c == '$' || c == '`') {
                        r = expansion(ps, owner, w, false);
                } else if (is_meta(c)) {
                        break;
                } else if (c == '\\') {
                        if (e == '\n') { /* a line continuation: nothing at all */
                                in->pos += 2;
                                continue;
                        }
                        if (e == '\0')
                                return sbx_lex_fail(ps, in->pos, "backslash at the end of the string");
                        if (e == '$' || e == '`')
                                w->flags |= SBX_SH_LITCODE;
                        w->flags |= SBX_SH_QUOTED;
                        r = put(w, &e, 1, false);
                        in->pos += 2;
                } else if (c == '\'') {
                        const char *q = in->s + in->pos + 1;
                        const char *end = memchr(q, '\'', in->len - in->pos - 1);

                        if (!end)
                                return sbx_lex_fail(ps, in->pos, "unterminated single quote");
                        if (memchr(q, '$', (size_t)(end - q)) || memchr(q, '`', (size_t)(end - q)))
                                w->flags |= SBX_SH_LITCODE;
                        w->flags |= SBX_SH_QUOTED;
                        r = put(w, q, (size_t)(end - q), false);
                        in->pos = (size_t)(end - in->s) + 1;
                } else if (c == '"') {
                        r = dquote(ps, owner, w);
                } else {
                        r = plain_char(in, w);
                }
        }
        return r < 0 ? r : 0;
}

/* NAME=… or NAME+=…, with NAME and the '=' unquoted: a variable assignment. */
bool sbx_lex_is_assignment(const struct word *w)
{
        size_t i = 0;

        if (!w->s || !is_name_char(w->s[0], true))
                return false;
        while (is_name_char(w->s[i], false))
                i++;
        if (w->s[i] == '+')
                i++;
        return w->s[i] == '=' && (w->plain == NONE || w->plain > i);
}

/* "2" in 2>&1, "{fd}" in {fd}>file. */
bool sbx_lex_is_fd_prefix(const struct word *w, const struct src *in)
{
        size_t i = 0;

        if (!w->s || w->plain != NONE || w->flags || (at(in, 0) != '<' && at(in, 0) != '>') || at(in, 1) == '(')
                return false;
        if (w->s[0] == '{') {
                for (i = 1; is_name_char(w->s[i], i == 1); i++)
                        ;
                return i > 1 && w->s[i] == '}' && w->s[i + 1] == '\0';
        }
        while (w->s[i] >= '0' && w->s[i] <= '9')
                i++;
        return i > 0 && w->s[i] == '\0';
}

void sbx_lex_skip_blanks(struct src *in, bool newlines)
{
        for (;;) {
                char c = at(in, 0);

                if (is_blank(c) || (newlines && c == '\n'))
                        in->pos++;
                else if (c == '\\' && at(in, 1) == '\n')
                        in->pos += 2;
                else if (c == '#' && newlines)
                        while (at(in, 0) && at(in, 0) != '\n')
                                in->pos++;
                else
                        return;
        }
}

/* A keyword or other bare word @w at pos, followed by a character that ends words. */
bool sbx_lex_peek_word(const struct src *in, const char *w)
{
        size_t n = strlen(w);

        return in->len - in->pos >= n && memcmp(in->s + in->pos, w, n) == 0 && is_meta(at(in, n));
}
