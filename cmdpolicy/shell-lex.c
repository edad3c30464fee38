/* SPDX-License-Identifier: MIT */
/* Words: quotes, escapes, and the expansions inside words, $(…) `…` <(…) ${…} $((…))
 * $[…], each parsed for the commands it runs (through sbx_lex_sub_list(), counted
 * against SBX_SH_MAX_DEPTH); $'…' decoded; here-document bodies.  A word remembers
 * what it held (shell.h's SBX_SH_*), so the checker can tell a command name written out
 * from one computed at run time, and every arithmetic expression and ${…} is recorded
 * (sbx_sh_expr) for the checker to judge what bash evaluates in it. */
#include "shell-int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "../lib/cleanup.h"

static int scan_dollar(struct parser *ps, size_t owner, bool dq);
static int scan_backquote(struct parser *ps, size_t owner, bool dq);

void sbx_lex_word_done(struct word *w)
{
        free(w->s);
        free(w->q);
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
        if (!w->s || w->n + n + 1 > w->cap) {
                size_t cap = capacity(w->n + n + 1);
                char *t = realloc(w->s, cap), *q;

                if (!t)
                        return -ENOMEM;
                w->s = t;
                if (!(q = realloc(w->q, cap)))
                        return -ENOMEM;
                w->q = q;
                w->cap = cap;
        }
        memcpy(w->s + w->n, s, n);
        memset(w->q + w->n, !plain, n);
        w->n += n;
        w->s[w->n] = '\0';
        w->any = true;
        return 0;
}

int sbx_lex_add_expr(struct parser *ps, enum sbx_sh_expr_kind kind, const char *s, size_t n, const char *name,
                     unsigned flags, size_t owner)
{
        struct sbx_sh_script *sc = ps->sc;
        struct sbx_sh_expr *x = grow(sc->exprs, sc->n_exprs, sc->n_exprs + 1, sizeof(*x));
        char *text, *nm = NULL;

        if (!x)
                return -ENOMEM;
        sc->exprs = x;
        if (!(text = strndup(s, n)) || (name && !(nm = strdup(name)))) {
                free(text);
                return -ENOMEM;
        }
        x[sc->n_exprs++] = (struct sbx_sh_expr){ .kind = kind, .text = text, .name = nm, .flags = flags, .owner = owner };
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

/* A list inside a substitution: here-documents started outside it have their bodies
 * after the line it is on, not inside it, and those started inside it must end
 * inside it. */
static int sub_list(struct parser *ps, size_t owner, char term)
{
        struct heredoc outer[MAX_HEREDOCS];
        unsigned n_outer = ps->n_pending;
        int r;

        memcpy(outer, ps->pending, sizeof(outer));
        ps->n_pending = 0;
        r = sbx_lex_sub_list(ps, owner, term);
        if (r >= 0 && ps->n_pending)
                r = sbx_lex_fail(ps, ps->in->pos, "here-document '%.32s' without a body inside its substitution",
                                 ps->pending[0].delim);
        for (unsigned i = 0; i < ps->n_pending; i++)
                free(ps->pending[i].delim);
        memcpy(ps->pending, outer, sizeof(outer));
        ps->n_pending = n_outer;
        return r;
}

/* $(…) and <(…): pos is past the '('; leaves pos past the ')'. */
static int scan_cmdsub(struct parser *ps, size_t owner, size_t start)
{
        int r = enter(ps, start);

        if (r < 0)
                return r;
        r = sub_list(ps, owner, ')');
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
        size_t open = 0, body = in->pos;
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
                                return sbx_lex_add_expr(ps, SBX_SH_ARITH, in->s + body, in->pos - 2 - body, NULL, 0,
                                                        owner);
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

/* ${…} (@close '}', pos at the '$') and the old arithmetic $[…] (@close ']'), recorded
 * for the checker.  Operand words may hold substitutions (${x:-$(cmd)} runs cmd), so
 * those are parsed.  Quotes inside are taken as plain characters: bash's rules for them
 * differ inside and outside "…", and treating them as text can only find more
 * substitutions, never fewer. */
static int scan_braced(struct parser *ps, size_t owner, char close)
{
        struct src *in = ps->in;
        size_t start = in->pos, open = 0;
        int r = enter(ps, start);

        in->pos += 2;
        while (r >= 0) {
                char c = at(in, 0);

                if (c == '\0')
                        r = sbx_lex_fail(ps, start, "unterminated '%s'", close == '}' ? "${" : "$[");
                else if (c == close && open == 0) {
                        in->pos++;
                        break;
                } else if (c == '$')
                        r = scan_dollar(ps, owner, true);
                else if (c == '`')
                        r = scan_backquote(ps, owner, true);
                else {
                        /* ${a[${b}]} nests by the dollar; $[a[1]] by the brackets */
                        open += close == ']' && c == '[';
                        open -= close == ']' && c == ']';
                        in->pos += (c == '\\' && at(in, 1)) ? 2 : 1;
                }
        }
        ps->depth--;
        if (r < 0)
                return r;
        return sbx_lex_add_expr(ps, close == '}' ? SBX_SH_PARAM : SBX_SH_ARITH, in->s + start + 2, in->pos - start - 3,
                                NULL, 0, owner);
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
        r = sub_list(ps, owner, '\0');
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
        if (n == '{' || n == '[') {
                r = scan_braced(ps, owner, n == '{' ? '}' : ']');
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

static int hex(char c)
{
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The value of $'…' between @s and @e, as bash decodes it, into @out (at most e - s
 * bytes and a NUL).  False when it depends on the locale (\u or \U beyond ASCII) or
 * ends early (a NUL): then it stays an expansion. */
static bool decode_ansi(const char *s, const char *e, char *out, size_t *len)
{
        static const char simple[] = "a\ab\be\033E\033f\fn\nr\rt\tv\v\\\\''\"\"??";
        size_t o = 0;

        while (s < e) {
                unsigned long v = 0;
                const char *m;
                int digits = 0, max = 0, base = 16;

                if (*s != '\\' || s + 1 >= e) {
                        out[o++] = *s++;
                        continue;
                }
                s++;
                if ((m = strchr(simple, *s)) && ((m - simple) % 2) == 0 && *s) {
                        out[o++] = m[1];
                        s++;
                        continue;
                }
                if (*s == 'c') { /* \cX: control-X */
                        if (s + 1 >= e || s[1] == '\\')
                                return false;
                        v = (unsigned char)s[1] & 0x1f;
                        s += 2;
                        if (!v)
                                return false;
                        out[o++] = (char)v;
                        continue;
                }
                if (*s >= '0' && *s <= '7')
                        base = 8, max = 3;
                else if (*s == 'x')
                        max = 2, s++;
                else if (*s == 'u')
                        max = 4, s++;
                else if (*s == 'U')
                        max = 8, s++;
                else {
                        out[o++] = '\\'; /* an unknown escape stays as written */
                        continue;
                }
                for (; digits < max && s < e && hex(*s) >= 0 && hex(*s) < base; digits++, s++)
                        v = v * (unsigned long)base + (unsigned long)hex(*s);
                if (!digits && base == 16) /* "\x" alone is itself */
                        return false;
                if (v == 0 || (v > 0x7f && max >= 4))
                        return false;
                out[o++] = (char)(v & 0xff);
        }
        out[o] = '\0';
        *len = o;
        return true;
}

/* $'…' from @start (the '$') to pos (past the closing quote): decoded text, quoted. */
static int ansi_quote(struct parser *ps, struct word *w, size_t start, bool *done)
{
        struct src *in = ps->in;
        _cleanup_free_ char *buf = malloc(in->pos - start);
        size_t len;

        *done = false;
        if (!buf)
                return -ENOMEM;
        if (!decode_ansi(in->s + start + 2, in->s + in->pos - 1, buf, &len))
                return 0;
        *done = true;
        w->flags |= SBX_SH_QUOTED;
        if (memchr(buf, '$', len) || memchr(buf, '`', len))
                w->flags |= SBX_SH_LITCODE;
        return put(w, buf, len, false);
}

/* One expansion inside a word: its source text goes into the word as written. */
static int expansion(struct parser *ps, size_t owner, struct word *w, bool dq)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        bool done;
        int r;

        if (at(in, 0) == '`') {
                r = scan_backquote(ps, owner, dq);
                r = r < 0 ? r : 1;
        } else if (at(in, 0) == '<' || at(in, 0) == '>') {
                bool out = at(in, 0) == '>';
                size_t first = ps->sc->n_pipes;

                in->pos += 2;
                r = scan_cmdsub(ps, owner, start);
                w->flags |= SBX_SH_PROCSUB;
                /* >(…): its commands read what the command it belongs to writes, a
                 * pipe, whatever the stdin of that command is. */
                for (size_t k = first; out && r >= 0 && k < ps->sc->n_pipes; k++)
                        if (ps->sc->pipes[k].up == ps->sc->pipes[first].up &&
                            ps->sc->pipes[k].up_pos == ps->sc->pipes[first].up_pos && ps->sc->pipes[k].in == SBX_SH_STDIN_SHELL)
                                ps->sc->pipes[k].in = SBX_SH_STDIN_PIPE;
                r = r < 0 ? r : 1;
        } else {
                r = scan_dollar(ps, owner, dq);
        }
        if (r < 0)
                return r;
        if (r == 0)
                return put(w, "$", 1, !dq);
        if (r == 3) { /* $'…': its value, unless that depends on the locale */
                int d = ansi_quote(ps, w, start, &done);

                if (d < 0 || done)
                        return d;
        }
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

/* NAME=…, NAME+=…, NAME[SUB]=…, NAME[SUB]+=…, with NAME, the brackets and the '='
 * unquoted: a variable assignment. */
bool sbx_lex_is_assignment(const struct word *w)
{
        size_t i = 0;

        if (!w->s || !is_name_char(w->s[0], true))
                return false;
        while (is_name_char(w->s[i], false) && !w->q[i])
                i++;
        if (!w->q[i] && w->s[i] == '[' && !w->q[i - 1]) {
                size_t open = 0;

                for (; w->s[i]; i++) {
                        open += w->s[i] == '[';
                        if (w->s[i] == ']' && --open == 0)
                                break;
                }
                if (!w->s[i] || w->q[i])
                        return false;
                i++;
        }
        if (w->s[i] == '+' && !w->q[i])
                i++;
        return w->s[i] == '=' && !w->q[i] && i > 0 && !w->q[0];
}

/* "2" in 2>&1; "{fd}" in {fd}>file, and "{a[i]}" (bash evaluates the subscript), when
 * *@var becomes true. */
bool sbx_lex_is_fd_prefix(const struct word *w, const struct src *in, bool *var)
{
        size_t i = 0, n = w->s ? strlen(w->s) : 0;

        *var = false;
        if (!w->s || (at(in, 0) != '<' && at(in, 0) != '>') || at(in, 1) == '(')
                return false;
        if (w->s[0] == '{' && !w->q[0] && n >= 3 && w->s[n - 1] == '}' && !w->q[n - 1]) {
                for (i = 1; is_name_char(w->s[i], i == 1); i++)
                        ;
                if (i > 1 && (i == n - 1 || (w->s[i] == '[' && w->s[n - 2] == ']')))
                        return *var = true;
                return false;
        }
        if (w->plain != NONE || w->flags)
                return false;
        while (w->s[i] >= '0' && w->s[i] <= '9')
                i++;
        return i > 0 && w->s[i] == '\0';
}

int sbx_lex_skip_blanks(struct parser *ps, bool newlines)
{
        struct src *in = ps->in;

        for (;;) {
                char c = at(in, 0);
                int r;

                if (is_blank(c))
                        in->pos++;
                else if (newlines && c == '\n') {
                        if ((r = sbx_lex_newline(ps)) < 0)
                                return r;
                } else if (c == '\\' && at(in, 1) == '\n')
                        in->pos += 2;
                else if (c == '#' && newlines)
                        while (at(in, 0) && at(in, 0) != '\n')
                                in->pos++;
                else
                        return 0;
        }
}

/* A keyword or other bare word @w at pos, followed by a character that ends words. */
bool sbx_lex_peek_word(const struct src *in, const char *w)
{
        size_t n = strlen(w);

        return in->len - in->pos >= n && memcmp(in->s + in->pos, w, n) == 0 && is_meta(at(in, n));
}

/* ------------------------------------------------------------------ here-documents */

int sbx_lex_heredoc(struct parser *ps, size_t owner, const struct word *delim, bool strip, bool feeds_stdin)
{
        struct heredoc *h;

        if (ps->n_pending >= MAX_HEREDOCS)
                return sbx_lex_fail(ps, ps->in->pos, "more than %u here-documents on one line", MAX_HEREDOCS);
        h = &ps->pending[ps->n_pending];
        *h = (struct heredoc){
                .owner = owner, .strip = strip, .feeds_stdin = feeds_stdin,
                .quoted = delim->flags & SBX_SH_QUOTED,
        };
        if (!(h->delim = strdup(delim->s ? delim->s : "")))
                return -ENOMEM;
        ps->n_pending++;
        return 0;
}

/* The body of an unquoted here-document: $(…), `…`, ${…}, $((…)) run, and \ quotes only
 * $ ` \ and newline; @w gets the text with its expansions as written. */
static int heredoc_expand(struct parser *ps, size_t owner, const char *body, size_t len, size_t base,
                          struct word *w)
{
        _cleanup_free_ char *copy = strndup(body, len);
        struct src *outer = ps->in, in;
        int r = 0;

        if (!copy)
                return -ENOMEM;
        in = (struct src){ .s = copy, .len = len, .base = base };
        ps->in = &in;
        while (r >= 0 && in.pos < len) {
                char c = copy[in.pos], e = at(&in, 1);

                if (c == '\\' && e == '\n') {
                        in.pos += 2;
                } else if (c == '\\' && (e == '$' || e == '`' || e == '\\')) {
                        w->flags |= e == '\\' ? 0 : SBX_SH_LITCODE;
                        r = put(w, &e, 1, false);
                        in.pos += 2;
                } else if (c == '$' || c == '`') {
                        r = expansion(ps, owner, w, true);
                } else {
                        r = put(w, &c, 1, false);
                        in.pos++;
                }
        }
        ps->in = outer;
        return r < 0 ? r : put(w, "", 0, false);
}

/* Does the line [@s, @e) end with a backslash that escapes the newline? */
static bool continued(const char *s, const char *e)
{
        size_t n = 0;

        while (e > s && e[-1] == '\\')
                e--, n++;
        return n % 2 == 1;
}

/* Reads the body of @h at pos: the lines up to one that is the delimiter. */
static int heredoc_body(struct parser *ps, struct heredoc *h)
{
        struct src *in = ps->in;
        _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };
        size_t start = in->pos, end = in->len, dlen = strlen(h->delim);
        struct sbx_sh_cmd *c;
        int r;

        while (in->pos < in->len) {
                const char *line = in->s + in->pos, *nl = memchr(line, '\n', in->len - in->pos);
                const char *le = nl ? nl : in->s + in->len, *t = line;

                if (h->strip)
                        while (t < le && *t == '\t')
                                t++;
                if ((size_t)(le - t) == dlen && memcmp(t, h->delim, dlen) == 0) {
                        end = in->pos;
                        in->pos = (size_t)(le - in->s) + (nl != NULL);
                        break;
                }
                /* an unquoted body joins a line that ends in a backslash to the next
                 * before it looks for the delimiter */
                while (!h->quoted && nl && continued(line, le)) {
                        nl = memchr(le + 1, '\n', (size_t)(in->s + in->len - le - 1));
                        le = nl ? nl : in->s + in->len;
                }
                in->pos = (size_t)(le - in->s) + (nl != NULL);
        }
        if (h->quoted) {
                r = put(&w, in->s + start, end - start, false);
        } else {
                r = heredoc_expand(ps, h->owner, in->s + start, end - start, in->base + start, &w);
        }
        if (r < 0)
                return r;
        c = &ps->sc->cmds[h->owner - 1];
        if (h->feeds_stdin && c->in == SBX_SH_STDIN_HEREDOC) {
                free(c->stdin_text);
                c->stdin_text = NULL;
                if (!(w.flags & SBX_SH_EXPAND) && !(c->stdin_text = strdup(w.s ? w.s : "")))
                        return -ENOMEM;
        }
        return 0;
}

int sbx_lex_newline(struct parser *ps)
{
        int r = 0;

        ps->in->pos++;
        for (unsigned i = 0; i < ps->n_pending; i++) {
                if (r >= 0)
                        r = heredoc_body(ps, &ps->pending[i]);
                free(ps->pending[i].delim);
        }
        ps->n_pending = 0;
        return r;
}
