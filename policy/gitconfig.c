/* SPDX-License-Identifier: MIT */
/* git's config file syntax (git-config(1) "CONFIGURATION FILE"), read the way git 2.39's
 * config.c reads it, character by character: the same states (a byte order mark, comments,
 * section headers old and new, names, values with quotes, escapes and continuations),
 * the same end-of-line rules (CRLF is a newline, a lone CR is a space in a value), the
 * same errors, and the same line numbers in them.  sbx reads config to learn which
 * commands and hook directories the host's git will run; any place where this reader and
 * git's disagree is a place to hide one, so it does not improve on git: a NUL byte is
 * kept where git keeps it, and the callback sees the C string git's callbacks see. */
#include "gitfmt.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "gitfmt-int.h"

struct src {
        const unsigned char *p;
        size_t len, pos;
        int line;  /* git's linenr, moved as git moves it */
        bool eof;
        const char *what; /* why parsing stopped */
};

/* A growing NUL-terminated buffer; it may hold NUL bytes as git's strbuf does. */
struct buf {
        char *s;
        size_t n, cap;
};

/* git's sane_ctype: ASCII only, and space is " \t\n\r". */
static bool is_space(int c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_alpha(int c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_keychar(int c)
{
        return is_alpha(c) || (c >= '0' && c <= '9') || c == '-';
}

/* get_next_char(): CRLF reads as LF; the end reads as LF, again and again. */
static int next_char(struct src *s)
{
        int c;

        if (s->pos >= s->len) {
                s->eof = true;
                s->line++;
                return '\n';
        }
        c = s->p[s->pos++];
        if (c == '\r' && s->pos < s->len && s->p[s->pos] == '\n') {
                s->pos++;
                c = '\n';
        }
        if (c == '\n')
                s->line++;
        return c;
}

static int put(struct buf *b, int c)
{
        if (b->n + 2 > b->cap) {
                size_t cap = b->cap ? 2 * b->cap : 64;
                char *t = realloc(b->s, cap);

                if (!t)
                        return -ENOMEM;
                b->s = t;
                b->cap = cap;
        }
        b->s[b->n++] = (char)c;
        b->s[b->n] = '\0';
        return 0;
}

static void buf_free(struct buf *b)
{
        free(b->s);
}

static void truncate_to(struct buf *b, size_t n)
{
        b->n = n;
        if (b->s)
                b->s[n] = '\0';
}

static int fail(struct src *s, const char *what)
{
        s->what = what;
        return -EBADMSG;
}

/* parse_value(): after '='. */
static int parse_value(struct src *s, struct buf *v)
{
        bool quote = false, comment = false;
        size_t space = 0;
        int r;

        truncate_to(v, 0);
        for (;;) {
                int c = next_char(s);

                if (c == '\n') {
                        if (quote) {
                                s->line--;
                                return fail(s, "a quoted value not closed on its line");
                        }
                        return 0;
                }
                if (comment)
                        continue;
                if (is_space(c) && !quote) {
                        space += v->n > 0; /* whitespace inside a value is kept, one space each */
                        continue;
                }
                if (!quote && (c == ';' || c == '#')) {
                        comment = true;
                        continue;
                }
                for (; space; space--)
                        if ((r = put(v, ' ')) < 0)
                                return r;
                if (c == '\\') {
                        c = next_char(s);
                        switch (c) {
                        case '\n':
                                continue; /* a continuation line */
                        case 't':
                                c = '\t';
                                break;
                        case 'b':
                                c = '\b';
                                break;
                        case 'n':
                                c = '\n';
                                break;
                        case '\\':
                        case '"':
                                break;
                        default:
                                return fail(s, "an unknown escape in a value");
                        }
                } else if (c == '"') {
                        quote = !quote;
                        continue;
                }
                if ((r = put(v, c)) < 0)
                        return r;
        }
}

/* get_value(): the rest of a variable's name, then "= value", or nothing (true). */
static int get_value(struct src *s, struct buf *name, struct buf *v, const char **value)
{
        int c, r;

        for (;;) {
                c = next_char(s);
                if (s->eof || !is_keychar(c))
                        break;
                if ((r = put(name, sbx_git_lower((unsigned char)c))) < 0)
                        return r;
        }
        while (c == ' ' || c == '\t')
                c = next_char(s);
        *value = NULL;
        if (c != '\n') {
                if (c != '=')
                        return fail(s, "a variable name followed by neither '=' nor the end of the line");
                if ((r = parse_value(s, v)) < 0)
                        return r;
                *value = v->s ? v->s : "";
        }
        return 0;
}

/* get_extended_base_var(): [section "subsection"], after the section's name and a
 * space; the subsection is kept as written, '\' escaping the character after it. */
static int subsection(struct src *s, struct buf *name, int c)
{
        int r;

        do {
                if (c == '\n') {
                        s->line--;
                        return fail(s, "a section header not closed on its line");
                }
                c = next_char(s);
        } while (is_space(c));
        if (c != '"')
                return fail(s, "a section name followed by something other than a quoted subsection");
        if ((r = put(name, '.')) < 0)
                return r;
        for (;;) {
                c = next_char(s);
                if (c == '"')
                        break;
                if (c == '\\')
                        c = next_char(s);
                if (c == '\n') {
                        s->line--;
                        return fail(s, "a subsection not closed on its line");
                }
                if ((r = put(name, c)) < 0)
                        return r;
        }
        if (next_char(s) != ']')
                return fail(s, "a subsection's closing quote not followed by ']'");
        return 0;
}

/* get_base_var(): after '['; letters, digits, '-' and '.' (the old [section.sub] form,
 * lowercased whole), up to ']' or a space before a subsection. */
static int section(struct src *s, struct buf *name)
{
        int r;

        for (;;) {
                int c = next_char(s);

                if (s->eof)
                        return fail(s, "a section header not closed");
                if (c == ']')
                        return name->n ? 0 : fail(s, "an empty section name");
                if (is_space(c))
                        return subsection(s, name, c);
                if (!is_keychar(c) && c != '.')
                        return fail(s, "a character not allowed in a section name");
                if ((r = put(name, sbx_git_lower((unsigned char)c))) < 0)
                        return r;
        }
}

static const unsigned char utf8_bom[] = { 0xef, 0xbb, 0xbf };

/* git_parse_source(). */
static int scan(struct src *s, struct buf *var, struct buf *val,
                int (*fn)(const char *name, const char *value, void *userdata), void *userdata)
{
        bool comment = false;
        size_t baselen = 0, bom = 0; /* bytes of the BOM seen; past 3: no BOM */
        const char *value;
        int r;

        for (;;) {
                int c = next_char(s);

                if (bom < sizeof(utf8_bom)) {
                        if (c == utf8_bom[bom]) {
                                bom++;
                                continue;
                        }
                        if (bom)
                                return fail(s, "a partial byte order mark");
                        bom = SIZE_MAX;
                }
                if (c == '\n') {
                        if (s->eof)
                                return 0;
                        comment = false;
                        continue;
                }
                if (comment || is_space(c))
                        continue;
                if (c == '#' || c == ';') {
                        comment = true;
                        continue;
                }
                if (c == '[') {
                        truncate_to(var, 0);
                        if ((r = section(s, var)) < 0 || (r = put(var, '.')) < 0)
                                return r;
                        baselen = var->n;
                        continue;
                }
                if (!is_alpha(c))
                        return fail(s, "a line that is not a section, a variable or a comment");
                truncate_to(var, baselen);
                if ((r = put(var, sbx_git_lower((unsigned char)c))) < 0 || (r = get_value(s, var, val, &value)) < 0)
                        return r;
                s->line--; /* git counts the variable's own line while it calls back */
                if ((r = fn ? fn(var->s, value, userdata) : 0) != 0)
                        return r;
                s->line++;
        }
}

int sbx_git_config_scan(const char *text, size_t len,
                        int (*fn)(const char *name, const char *value, void *userdata), void *userdata,
                        char *why, size_t why_size)
{
        struct src s = { .p = (const unsigned char *)text, .len = len, .line = 1 };
        _cleanup_(buf_free) struct buf var = { 0 };
        _cleanup_(buf_free) struct buf val = { 0 };
        int r;

        if (why && why_size)
                why[0] = '\0';
        if (!text && len)
                return -EINVAL;
        if (len > INT_MAX) /* git stops reading there, and fails */
                return sbx_git_bad(why, why_size, "line 1: more than %d bytes, as git reads no more", INT_MAX);
        r = scan(&s, &var, &val, fn, userdata);
        if (r == -EBADMSG && s.what)
                return sbx_git_bad(why, why_size, "line %d: %s", s.line, s.what);
        return r;
}
