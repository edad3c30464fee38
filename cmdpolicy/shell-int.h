/* SPDX-License-Identifier: MIT */
/* Private to shell.c and shell-lex.c: the reader state they share.  shell-lex.c reads
 * words, the expansions inside them and here-document bodies; shell.c reads the
 * command structure and owns the script, and lends sbx_lex_sub_list() back to the
 * lexer for the lists inside $(…), <(…) and backquotes. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shell.h"

#define NONE SIZE_MAX

struct src {
        const char *s; /* NUL-terminated, len bytes */
        size_t len, pos;
        size_t base;   /* where s starts in the caller's string (backquote bodies) */
};

/* A here-document whose body starts after the next newline. */
struct heredoc {
        size_t owner;     /* 1 + the command it belongs to */
        char *delim;      /* after quote removal */
        bool strip;       /* <<-: leading tabs go */
        bool quoted;      /* some part of the delimiter was quoted: the body is literal */
        bool feeds_stdin; /* on fd 0 */
};
#define MAX_HEREDOCS 16u

struct parser {
        struct sbx_sh_script *sc;
        struct src *in;
        unsigned depth; /* substitutions we are inside */
        struct heredoc pending[MAX_HEREDOCS];
        unsigned n_pending;
};

/* A word being read. */
struct word {
        char *s;
        char *q;      /* q[i]: s[i] came from a quote, an escape or an expansion */
        size_t n, cap;
        unsigned flags, n_expand;
        size_t plain; /* length of the unquoted, unexpanded start of the text; NONE: all */
        bool any, bracket, brace, brace_sep;
};

static inline char at(const struct src *in, size_t k)
{
        return in->pos + k < in->len ? in->s[in->pos + k] : '\0';
}

static inline bool is_blank(char c)
{
        return c == ' ' || c == '\t';
}

/* Characters that end a word when unquoted. */
static inline bool is_meta(char c)
{
        return c == '\0' || is_blank(c) || c == '\n' || strchr("|&;()<>", c);
}

static inline bool is_name_char(char c, bool first)
{
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* Arrays grow by doubling without storing a capacity: n items have room for the next
 * power of two (at least 8).  Returns @p, a larger copy, or NULL (then @p is intact). */
static inline size_t capacity(size_t n)
{
        size_t c = 8;

        while (c < n)
                c *= 2;
        return c;
}

static inline void *grow(void *p, size_t n, size_t want, size_t size)
{
        if (p && want <= capacity(n))
                return p;
        return realloc(p, capacity(want) * size);
}

/* A word starts at pos: not an operator, unless it is a process substitution. */
static inline bool starts_word(const struct src *in)
{
        return !is_meta(at(in, 0)) || ((at(in, 0) == '<' || at(in, 0) == '>') && at(in, 1) == '(');
}

/* Records why parsing failed (the first reason only) at byte @at; returns -EINVAL. */
int sbx_lex_fail(struct parser *ps, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sbx_lex_word_done(struct word *w);
/* Reads one word at pos (not a blank or an operator, except "<(" ">("); its
 * substitutions become commands whose parent is @owner (1-based). */
int sbx_lex_read_word(struct parser *ps, size_t owner, struct word *w);
/* ((…)) and $((…)) with pos past the "((", leaving pos past the "))"; the expression
 * is recorded (SBX_SH_ARITH) for @owner. */
int sbx_lex_scan_arith(struct parser *ps, size_t owner, size_t start);
int sbx_lex_add_expr(struct parser *ps, enum sbx_sh_expr_kind kind, const char *s, size_t n, const char *name,
                     unsigned flags, size_t owner);
bool sbx_lex_is_assignment(const struct word *w);
/* "2" in 2>&1, "{fd}" or "{a[i]}" in {fd}>file (then *@var is true). */
bool sbx_lex_is_fd_prefix(const struct word *w, const struct src *in, bool *var);
/* Blanks, line continuations and, with @newlines, newlines (each followed by the
 * bodies of the here-documents pending) and comments. */
int sbx_lex_skip_blanks(struct parser *ps, bool newlines);
/* The newline at pos, then the bodies of the pending here-documents. */
int sbx_lex_newline(struct parser *ps);
/* <<@delim (<<- with @strip) for command @owner: its body follows the next newline. */
int sbx_lex_heredoc(struct parser *ps, size_t owner, const struct word *delim, bool strip, bool feeds_stdin);
bool sbx_lex_peek_word(const struct src *in, const char *w);

/* In shell.c: reads a command list whose commands run inside a word of @owner, up to
 * @term (')' or the end of the input). */
int sbx_lex_sub_list(struct parser *ps, size_t owner, char term);
