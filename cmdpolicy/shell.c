/* SPDX-License-Identifier: MIT */
/* The shell tokenizer of shell.h, the command structure half (shell-lex.c reads the
 * words and here-document bodies).  One pass over the string: compound commands (if/while/for/case, { }, ( ))
 * are tracked on a small per-level stack, and only substitutions recurse, each level
 * counted against SBX_SH_MAX_DEPTH.  Keywords are recognized only where bash
 * recognizes them (first in a command, unquoted, whole), and every word read at any
 * place is scanned for the substitutions in it, so a command cannot hide in a for
 * list, a case pattern, a redirection target or a ${x:-…}. */
#include "shell.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "shell-int.h"

/* A compound command being read, and the pipeline element it is in the enclosing list. */
struct frame {
        char kind;     /* '(' '{' 'i'f 'l'oop 'c'ase */
        bool patterns; /* case: reading "pat|pat)" rather than commands */
        size_t pid, pos, up, up_pos, first_pipe;
};

/* One command list: the whole string, a $(…) or <(…) body, a backquote body. */
struct level {
        size_t owner;          /* 1 + the command whose word holds this list; 0: none */
        size_t cur;            /* the simple command being read, or NONE */
        size_t pid, pos;       /* the pipeline being read and the element's place in it */
        size_t up, up_pos;     /* what new pipelines are nested in (see sbx_sh_pipe) */
        bool in_elem, need_cmd;
        enum { AT_START, IN_CMD, AFTER_COMPOUND } where;
        size_t closed_pid, closed_pos;    /* the compound just closed, and the range */
        size_t closed_first, closed_end; /* of pipelines made inside it */
        struct frame fr[SBX_SH_MAX_DEPTH];
        unsigned n_fr;
};

static int parse_list(struct parser *ps, struct level *lv, char term);

static int new_pipe(struct parser *ps, struct level *lv)
{
        struct sbx_sh_script *sc = ps->sc;
        struct sbx_sh_pipe *p = grow(sc->pipes, sc->n_pipes, sc->n_pipes + 1, sizeof(*p));

        if (!p)
                return -ENOMEM;
        sc->pipes = p;
        p[sc->n_pipes] = (struct sbx_sh_pipe){ .up = lv->up, .up_pos = lv->up_pos };
        lv->pid = sc->n_pipes++;
        lv->pos = 0;
        return 0;
}

/* A new command list whose commands run inside a word of command @owner (1-based). */
int sbx_lex_sub_list(struct parser *ps, size_t owner, char term)
{
        struct level lv = { .owner = owner, .cur = NONE };
        int r;

        if (owner) {
                lv.up = ps->sc->cmds[owner - 1].pipeline + 1;
                lv.up_pos = ps->sc->cmds[owner - 1].pipe_pos;
        }
        r = new_pipe(ps, &lv);
        return r < 0 ? r : parse_list(ps, &lv, term);
}

/* ------------------------------------------------------------------ commands */

static struct sbx_sh_cmd *cur_cmd(struct parser *ps, const struct level *lv)
{
        return &ps->sc->cmds[lv->cur];
}

static void start_element(struct level *lv)
{
        lv->in_elem = true;
        lv->need_cmd = false;
}

/* The simple command that words and redirections at this point belong to. */
static int ensure_cmd(struct parser *ps, struct level *lv)
{
        struct sbx_sh_script *sc = ps->sc;
        struct sbx_sh_cmd *c;
        char *text;

        if (lv->cur != NONE)
                return 0;
        start_element(lv);
        c = grow(sc->cmds, sc->n_cmds, sc->n_cmds + 1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        sc->cmds = c;
        text = calloc(1, capacity(1));
        if (!text)
                return -ENOMEM;
        c[sc->n_cmds] = (struct sbx_sh_cmd){
                .text = text, .pipeline = lv->pid, .pipe_pos = lv->pos, .parent = lv->owner,
        };
        lv->cur = sc->n_cmds++;
        return 0;
}

static int add_textn(struct sbx_sh_cmd *c, const char *s, size_t n, bool space)
{
        char *t = grow(c->text, c->text_len + 1, c->text_len + n + 2, 1);

        if (!t)
                return -ENOMEM;
        c->text = t;
        if (space && c->text_len)
                c->text[c->text_len++] = ' ';
        memcpy(c->text + c->text_len, s, n);
        c->text_len += n;
        c->text[c->text_len] = '\0';
        return 0;
}

static int add_text(struct sbx_sh_cmd *c, const char *s, bool space)
{
        return add_textn(c, s, strlen(s), space);
}

static int add_word(struct sbx_sh_cmd *c, struct word *w, bool assign)
{
        struct sbx_sh_word *v = grow(c->words, c->n_words, c->n_words + 1, sizeof(*v));
        int r;

        if (!v)
                return -ENOMEM;
        c->words = v;
        if ((r = add_text(c, w->s, true)) < 0)
                return r;
        v[c->n_words++] = (struct sbx_sh_word){ .text = w->s, .flags = w->flags, .n_expand = w->n_expand };
        w->s = NULL; /* the command owns it now */
        if (assign)
                c->n_assign++;
        return 0;
}

/* Reads a word that is text of the current command but not one of its arguments (a
 * case pattern): its substitutions still run, so they are still parsed.  With @keep,
 * the word is kept in *@keep for the caller. */
static int text_word_keep(struct parser *ps, struct level *lv, struct word *keep)
{
        _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };
        int r;

        if ((r = ensure_cmd(ps, lv)) < 0 || (r = sbx_lex_read_word(ps, lv->cur + 1, &w)) < 0)
                return r;
        if (!w.any)
                return sbx_lex_fail(ps, ps->in->pos, "expected a word");
        if ((r = add_text(cur_cmd(ps, lv), w.s ? w.s : "", true)) < 0 || !keep)
                return r;
        *keep = w;
        w = (struct word){ 0 };
        return 0;
}

static int text_word(struct parser *ps, struct level *lv)
{
        return text_word_keep(ps, lv, NULL);
}

/* A word of a for/select header or of [[ … ]]: a word of the command (which is not a
 * simple command), but not its argument. */
static int header_word(struct parser *ps, struct level *lv)
{
        _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };
        struct sbx_sh_cmd *c;
        struct sbx_sh_word *v;
        int r;

        if ((r = text_word_keep(ps, lv, &w)) < 0)
                return r;
        c = cur_cmd(ps, lv);
        if (!(v = grow(c->words, c->n_words, c->n_words + 1, sizeof(*v))))
                return -ENOMEM;
        c->words = v;
        v[c->n_words++] = (struct sbx_sh_word){ .text = w.s, .flags = w.flags, .n_expand = w.n_expand };
        w.s = NULL;
        return 0;
}

/* An operator inside [[ … ]], kept as a word of it. */
static int header_op(struct parser *ps, struct level *lv, const char *op, size_t n)
{
        struct sbx_sh_cmd *c = cur_cmd(ps, lv);
        struct sbx_sh_word *v = grow(c->words, c->n_words, c->n_words + 1, sizeof(*v));
        char *t = strndup(op, n);
        int r;

        if (!v || !t) {
                free(t);
                if (v)
                        c->words = v;
                return -ENOMEM;
        }
        c->words = v;
        v[c->n_words++] = (struct sbx_sh_word){ .text = t };
        if ((r = add_textn(c, op, n, true)) < 0)
                return r;
        ps->in->pos += n;
        return 0;
}

/* ------------------------------------------------------------------ structure */

/* Ends the current pipeline: ; & && || newline, and the keywords between parts of a
 * compound command. */
static int end_pipeline(struct parser *ps, struct level *lv)
{
        lv->in_elem = false;
        lv->cur = NONE;
        lv->where = AT_START;
        return new_pipe(ps, lv);
}

static int open_compound(struct parser *ps, struct level *lv, char kind, size_t start)
{
        if (lv->n_fr >= SBX_SH_MAX_DEPTH)
                return sbx_lex_fail(ps, start, "compound commands nested more than %u deep", SBX_SH_MAX_DEPTH);
        start_element(lv);
        lv->fr[lv->n_fr++] = (struct frame){
                .kind = kind, .pid = lv->pid, .pos = lv->pos, .up = lv->up, .up_pos = lv->up_pos,
                .first_pipe = ps->sc->n_pipes,
        };
        /* Its inner pipelines read what this element of the outer one reads. */
        lv->up = lv->pid + 1;
        lv->up_pos = lv->pos;
        lv->need_cmd = false;
        return end_pipeline(ps, lv);
}

static int close_compound(struct parser *ps, struct level *lv, char kind, size_t start, const char *name)
{
        const struct frame *f;

        if (!lv->n_fr || lv->fr[lv->n_fr - 1].kind != kind)
                return sbx_lex_fail(ps, start, "unexpected '%s'", name);
        if (lv->need_cmd)
                return sbx_lex_fail(ps, start, "expected a command before '%s'", name);
        f = &lv->fr[--lv->n_fr];
        lv->closed_pid = f->pid;
        lv->closed_pos = f->pos;
        lv->closed_first = f->first_pipe;
        lv->closed_end = ps->sc->n_pipes;
        lv->pid = f->pid;
        lv->pos = f->pos;
        lv->up = f->up;
        lv->up_pos = f->up_pos;
        lv->in_elem = true;
        lv->where = AFTER_COMPOUND;
        lv->cur = NONE;
        return 0;
}

/* [[ … ]] and ((…)) end like a compound command but have no inner pipelines. */
static void after_test(struct level *lv)
{
        lv->cur = NONE;
        lv->where = AFTER_COMPOUND;
        lv->closed_first = lv->closed_end = 0;
}

/* What a redirection with operator @op (one starting with '<') and target @w makes
 * of the descriptor it names. */
static enum sbx_sh_stdin input_kind(const char *op, const struct word *w)
{
        const char *t = w->s ? w->s : "";

        if (strcmp(op, "<<<") == 0)
                return SBX_SH_STDIN_STRING;
        if (strncmp(op, "<<", 2) == 0)
                return SBX_SH_STDIN_HEREDOC;
        if (w->flags & SBX_SH_PROCSUB)
                return SBX_SH_STDIN_SUBST;
        if (strcmp(op, "<&") == 0) /* <&0 and <&- bring nothing new */
                return strcmp(t, "-") == 0 || (t[0] && strspn(t, "0") == strlen(t)) ? SBX_SH_STDIN_SHELL : SBX_SH_STDIN_DUP;
        if ((w->flags & SBX_SH_COMPUTED) || sbx_sh_fd_path(t) >= 0)
                return SBX_SH_STDIN_DUP;
        return SBX_SH_STDIN_FILE;
}

int sbx_sh_fd_path(const char *path)
{
        const char *comp[64], *last, *up;
        char buf[1024], *save = NULL, *t;
        size_t n = 0;

        if (strcmp(path, "-") == 0)
                return 0;
        if (strlen(path) >= sizeof(buf))
                return -1;
        snprintf(buf, sizeof(buf), "%s", path);
        for (t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
                if (strcmp(t, ".") == 0)
                        continue;
                if (strcmp(t, "..") == 0) {
                        n -= n > 0;
                        continue;
                }
                if (n == ELEMENTSOF(comp))
                        return 1; /* nobody names a script so */
                comp[n++] = t;
        }
        last = n ? comp[n - 1] : "";
        up = n > 1 ? comp[n - 2] : "";
        if (path[0] == '/') {
                if (n >= 1 && strcmp(comp[0], "dev") == 0) {
                        if (n == 2 && strcmp(last, "null") == 0)
                                return -1;
                        if ((n == 2 && strcmp(last, "stdin") == 0) ||
                            (n == 3 && strcmp(up, "fd") == 0 && last[0] && strspn(last, "0") == strlen(last)))
                                return 0;
                        return 1;
                }
                if (n >= 1 && strcmp(comp[0], "proc") == 0)
                        return strcmp(up, "fd") == 0 && last[0] && strspn(last, "0") == strlen(last) ? 0 : 1;
                return -1;
        }
        /* relative: as it would be after `cd /dev`, `cd /dev/fd`, `cd /proc/self/fd` */
        if (last[0] && strspn(last, "0123456789") == strlen(last) && (n == 1 || strcmp(up, "fd") == 0))
                return strspn(last, "0") == strlen(last) ? 0 : 1;
        if (strcmp(last, "stdin") == 0 && (n == 1 || strcmp(up, "dev") == 0))
                return 0;
        return -1;
}

/* A redirection at pos, after its fd prefix @fd ("" when none).  Its target is not an
 * argument, but its substitutions run, with the command as their parent. */
static int redirect(struct parser *ps, struct level *lv, const char *fd)
{
        static const char *const ops[] = { "<<<", "<<-", "&>>", "<<", "<&", "<>", ">>", ">&", ">|", "&>", "<", ">" };
        _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };
        struct src *in = ps->in;
        struct sbx_sh_script *sc = ps->sc;
        enum sbx_sh_stdin kind = SBX_SH_STDIN_SHELL;
        size_t start = in->pos;
        const char *op = ">";
        bool is0;
        struct sbx_sh_cmd *c;
        int r;

        for (size_t i = 0; i < ELEMENTSOF(ops); i++)
                if (strncmp(in->s + in->pos, ops[i], strlen(ops[i])) == 0) {
                        op = ops[i];
                        break;
                }
        in->pos += strlen(op);
        if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                return r;
        if (!starts_word(in))
                return sbx_lex_fail(ps, start, "redirection without a target");
        if ((r = ensure_cmd(ps, lv)) < 0 || (r = sbx_lex_read_word(ps, lv->cur + 1, &w)) < 0)
                return r;
        c = cur_cmd(ps, lv);
        if ((fd[0] && (r = add_text(c, fd, true)) < 0) || (r = add_text(c, op, !fd[0])) < 0 ||
            (r = add_text(c, w.s ? w.s : "", w.flags & SBX_SH_PROCSUB)) < 0)
                return r;
        /* 0, 00, 000: bash reads the number */
        is0 = !fd[0] || (fd[0] != '{' && strspn(fd, "0") == strlen(fd));
        if (strncmp(op, "<<", 2) == 0 && op[2] != '<' && (r = sbx_lex_heredoc(ps, lv->cur + 1, &w, op[2] == '-', is0)) < 0)
                return r;
        if (op[0] == '<')
                kind = input_kind(op, &w);
        if (!is0) {
                /* 3<<<…: the text is there for whatever reads /dev/fd/3 */
                sc->fd_text = sc->fd_text || (kind != SBX_SH_STDIN_SHELL && kind != SBX_SH_STDIN_FILE) ||
                              (strcmp(op, "<&") == 0 && strcmp(w.s ? w.s : "", "-") != 0);
                kind = SBX_SH_STDIN_SHELL;
        }
        if (kind == SBX_SH_STDIN_SHELL)
                return 0;
        if (lv->where != AFTER_COMPOUND) {
                c->in = kind;
                free(c->stdin_text);
                c->stdin_text = NULL;
                /* a here-string's text is known when nothing in it is computed */
                if (kind == SBX_SH_STDIN_STRING && !(w.flags & SBX_SH_COMPUTED) &&
                    !(c->stdin_text = strdup(w.s ? w.s : "")))
                        return -ENOMEM;
                return 0;
        }
        /* `{ …; } < f`: what the compound's own pipelines read */
        for (size_t k = lv->closed_first; k < lv->closed_end; k++)
                if (sc->pipes[k].up == lv->closed_pid + 1 && sc->pipes[k].up_pos == lv->closed_pos)
                        sc->pipes[k].in = kind;
        return 0;
}

static int operator(struct parser *ps, struct level *lv)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        char c = at(in, 0), e = at(in, 1);
        struct frame *top = lv->n_fr ? &lv->fr[lv->n_fr - 1] : NULL;
        int r;

        if (c == '<' || c == '>' || (c == '&' && e == '>'))
                return redirect(ps, lv, "");
        if (c == ';' && (e == ';' || e == '&')) {
                if (!top || top->kind != 'c' || lv->need_cmd)
                        return sbx_lex_fail(ps, start, "';;' outside a case");
                in->pos += (e == ';' && at(in, 2) == '&') ? 3 : 2;
                top->patterns = true;
                return end_pipeline(ps, lv);
        }
        if (!lv->in_elem || lv->need_cmd)
                return sbx_lex_fail(ps, start, "'%c' without a command before it", c);
        if (c == '|' && e != '|') {
                in->pos += e == '&' ? 2 : 1;
                lv->in_elem = false;
                lv->cur = NONE;
                lv->where = AT_START;
                lv->need_cmd = true;
                lv->pos++;
                return 0;
        }
        in->pos += c == e ? 2 : 1;
        r = end_pipeline(ps, lv);
        lv->need_cmd = c == e; /* && and || need a command after them */
        return r;
}

/* x=(a b c): the elements are text of the assignment, not commands; each is recorded
 * (SBX_SH_ELEM) with the array's name, for what bash evaluates in [k]=v. */
static int array_value(struct parser *ps, struct level *lv)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        const struct sbx_sh_cmd *c = cur_cmd(ps, lv);
        _cleanup_free_ char *name = strndup(c->words[c->n_words - 1].text,
                                            strcspn(c->words[c->n_words - 1].text, "[+="));
        int r;

        if (!name)
                return -ENOMEM;
        in->pos++;
        if ((r = add_text(cur_cmd(ps, lv), "(", false)) < 0)
                return r;
        for (;;) {
                _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };

                if ((r = sbx_lex_skip_blanks(ps, true)) < 0)
                        return r;
                if (at(in, 0) == ')')
                        break;
                if (!starts_word(in))
                        return sbx_lex_fail(ps, start, "unterminated array value");
                if ((r = text_word_keep(ps, lv, &w)) < 0 ||
                    (r = sbx_lex_add_expr(ps, SBX_SH_ELEM, w.s ? w.s : "", w.n, name, w.flags, lv->cur + 1)) < 0)
                        return r;
        }
        in->pos++;
        return add_text(cur_cmd(ps, lv), ")", false);
}

/* declare, typeset, local, export, readonly: their NAME=(…) arguments are arrays. */
static bool declaration(const struct sbx_sh_cmd *c)
{
        static const char *const names[] = { "declare", "typeset", "local", "export", "readonly" };
        const char *last;

        if (c->n_words - c->n_assign < 2)
                return false;
        last = c->words[c->n_words - 1].text;
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (strcmp(c->words[c->n_assign].text, names[i]) == 0)
                        return last[0] && last[strlen(last) - 1] == '=' && strcspn(last, "$`") == strlen(last);
        return false;
}

static int open_paren(struct parser *ps, struct level *lv)
{
        struct src *in = ps->in;
        size_t start = in->pos, i = 1;
        int r;

        while (is_blank(at(in, i)))
                i++;
        if (lv->where == IN_CMD && cur_cmd(ps, lv)->n_words == 1 && cur_cmd(ps, lv)->n_assign == 0 &&
            at(in, i) == ')') {
                /* name() …: a function definition; the name is not a command, the body
                 * that follows is read like any compound command. */
                struct sbx_sh_cmd *c = cur_cmd(ps, lv);
                int r2 = sbx_lex_add_expr(ps, SBX_SH_FUNC, c->words[0].text, strlen(c->words[0].text), NULL, 0,
                                          lv->cur + 1);

                if (r2 < 0)
                        return r2;
                c = cur_cmd(ps, lv);
                free(c->words[0].text);
                c->n_words = 0;
                in->pos += i + 1;
                lv->cur = NONE;
                lv->where = AT_START;
                return add_text(c, "()", false);
        }
        if (lv->where == AT_START && lv->cur != NONE && start > 0 && in->s[start - 1] == '=' &&
            cur_cmd(ps, lv)->n_assign)
                return array_value(ps, lv);
        if (lv->where == IN_CMD && start > 0 && in->s[start - 1] == '=' && declaration(cur_cmd(ps, lv)))
                return array_value(ps, lv); /* declare -a x=(…) */
        if (lv->where != AT_START || lv->cur != NONE)
                return sbx_lex_fail(ps, start, "'(' inside a simple command");
        if (at(in, 1) != '(') {
                in->pos++;
                return open_compound(ps, lv, '(', start);
        }
        if ((r = ensure_cmd(ps, lv)) < 0)
                return r;
        in->pos += 2;
        if ((r = sbx_lex_scan_arith(ps, lv->cur + 1, start)) < 0 ||
            (r = add_textn(cur_cmd(ps, lv), in->s + start, in->pos - start, true)) < 0)
                return r;
        after_test(lv);
        return 0;
}

/* for NAME [in WORDS], select NAME [in WORDS], for ((…;…;…)): @kind is SBX_SH_FOR or
 * SBX_SH_SELECT. */
static int for_header(struct parser *ps, struct level *lv, enum sbx_sh_kind kind)
{
        struct src *in = ps->in;
        size_t start = in->pos;
        int r;

        if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                return r;
        if (at(in, 0) == '(' && at(in, 1) == '(') {
                if ((r = ensure_cmd(ps, lv)) < 0)
                        return r;
                in->pos += 2;
                if ((r = sbx_lex_scan_arith(ps, lv->cur + 1, start)) < 0 ||
                    (r = add_textn(cur_cmd(ps, lv), in->s + start, in->pos - start, true)) < 0)
                        return r;
                lv->cur = NONE;
                return 0;
        }
        if (is_meta(at(in, 0)))
                return sbx_lex_fail(ps, in->pos, "expected a name after 'for'");
        if ((r = header_word(ps, lv)) < 0 || (r = sbx_lex_skip_blanks(ps, true)) < 0)
                return r;
        cur_cmd(ps, lv)->kind = kind;
        if (sbx_lex_peek_word(in, "in")) {
                in->pos += 2;
                if ((r = add_text(cur_cmd(ps, lv), "in", true)) < 0)
                        return r;
                for (;;) {
                        char c;

                        if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                                return r;
                        c = at(in, 0);
                        if (c == ';' || c == '\n' || c == '\0')
                                break;
                        if (!starts_word(in))
                                return sbx_lex_fail(ps, in->pos, "unexpected '%c' in a for list", c);
                        if ((r = header_word(ps, lv)) < 0)
                                return r;
                }
        } else {
                /* for NAME; do: the positional parameters */
                struct sbx_sh_cmd *c = cur_cmd(ps, lv);
                struct sbx_sh_word *v = grow(c->words, c->n_words, c->n_words + 1, sizeof(*v));
                char *t = strdup("$@");

                if (v)
                        c->words = v;
                if (!v || !t) {
                        free(t);
                        return -ENOMEM;
                }
                v[c->n_words++] = (struct sbx_sh_word){ .text = t, .flags = SBX_SH_EXPAND | SBX_SH_QUOTED, .n_expand = 1 };
        }
        lv->cur = NONE;
        return 0;
}

static int case_header(struct parser *ps, struct level *lv)
{
        struct src *in = ps->in;
        int r;

        if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                return r;
        if (is_meta(at(in, 0)))
                return sbx_lex_fail(ps, in->pos, "expected a word after 'case'");
        if ((r = text_word(ps, lv)) < 0 || (r = sbx_lex_skip_blanks(ps, true)) < 0)
                return r;
        if (!sbx_lex_peek_word(in, "in"))
                return sbx_lex_fail(ps, in->pos, "expected 'in' after 'case WORD'");
        in->pos += 2;
        if ((r = add_text(cur_cmd(ps, lv), "in", true)) < 0)
                return r;
        lv->fr[lv->n_fr - 1].patterns = true;
        return end_pipeline(ps, lv);
}

/* "pat|pat)" of a case item, or the esac that ends it. */
static int case_patterns(struct parser *ps, struct level *lv)
{
        struct src *in = ps->in;
        int r;

        if ((r = sbx_lex_skip_blanks(ps, true)) < 0)
                return r;
        if (at(in, 0) == '\0')
                return sbx_lex_fail(ps, in->pos, "unterminated 'case'");
        if (sbx_lex_peek_word(in, "esac")) {
                in->pos += 4;
                lv->fr[lv->n_fr - 1].patterns = false;
                return close_compound(ps, lv, 'c', in->pos - 4, "esac");
        }
        if (at(in, 0) == '(')
                in->pos++;
        for (;;) {
                if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                        return r;
                if (!starts_word(in))
                        return sbx_lex_fail(ps, in->pos, "expected a case pattern");
                if ((r = text_word(ps, lv)) < 0 || (r = sbx_lex_skip_blanks(ps, false)) < 0)
                        return r;
                if (at(in, 0) == ')')
                        break;
                if (at(in, 0) != '|')
                        return sbx_lex_fail(ps, in->pos, "expected '|' or ')' in a case pattern");
                in->pos++;
        }
        in->pos++;
        lv->fr[lv->n_fr - 1].patterns = false;
        return end_pipeline(ps, lv);
}

/* [[ … ]]: && || < > ( ) | ! are part of the test here, not operators. */
static int cond(struct parser *ps, struct level *lv, size_t start)
{
        struct src *in = ps->in;
        int r;

        if ((r = ensure_cmd(ps, lv)) < 0 || (r = add_text(cur_cmd(ps, lv), "[[", true)) < 0)
                return r;
        cur_cmd(ps, lv)->kind = SBX_SH_COND;
        for (;;) {
                char c, e;

                if ((r = sbx_lex_skip_blanks(ps, true)) < 0)
                        return r;
                c = at(in, 0);
                e = at(in, 1);
                if (c == '\0')
                        return sbx_lex_fail(ps, start, "unterminated '[['");
                if (c == ']' && e == ']' && is_meta(at(in, 2))) {
                        in->pos += 2;
                        r = add_text(cur_cmd(ps, lv), "]]", true);
                        break;
                }
                if (starts_word(in)) {
                        r = header_word(ps, lv);
                } else if ((c == '&' && e == '&') || (c == '|' && e == '|')) {
                        r = header_op(ps, lv, in->s + in->pos, 2);
                } else if (strchr("()<>|", c)) {
                        /* a test, or a regular expression after =~ */
                        r = header_op(ps, lv, in->s + in->pos, 1);
                } else {
                        return sbx_lex_fail(ps, in->pos, "unexpected '%c' inside '[['", c);
                }
                if (r < 0)
                        return r;
        }
        after_test(lv);
        return r;
}

/* function NAME [()]: the name is not a command; the body follows. */
static int function_header(struct parser *ps, struct level *lv)
{
        _cleanup_(sbx_lex_word_done) struct word name = { .plain = NONE };
        struct src *in = ps->in;
        size_t i = 1;
        int r;

        if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                return r;
        if (is_meta(at(in, 0)))
                return sbx_lex_fail(ps, in->pos, "expected a name after 'function'");
        if ((r = text_word_keep(ps, lv, &name)) < 0 ||
            (r = sbx_lex_add_expr(ps, SBX_SH_FUNC, name.s ? name.s : "", name.n, NULL, 0, lv->cur + 1)) < 0 ||
            (r = sbx_lex_skip_blanks(ps, false)) < 0)
                return r;
        while (is_blank(at(in, i)))
                i++;
        if (at(in, 0) == '(' && at(in, i) == ')')
                in->pos += i + 1;
        lv->cur = NONE;
        return 0;
}

/* Reserved words, where bash knows them: first in a command, unquoted, whole. */
static int keyword(struct parser *ps, struct level *lv)
{
        static const char *const kws[] = {
                "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "for", "select",
                "case", "esac", "{", "}", "!", "function", "[[", "coproc",
        };
        struct src *in = ps->in;
        const struct frame *top = lv->n_fr ? &lv->fr[lv->n_fr - 1] : NULL;
        size_t start = in->pos;
        const char *kw = NULL;
        int r = 0;

        if (lv->where != AT_START || lv->cur != NONE)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(kws) && !kw; i++)
                if (sbx_lex_peek_word(in, kws[i]))
                        kw = kws[i];
        if (!kw && sbx_lex_peek_word(in, "time")) {
                /* bash's time keyword before a compound command: time (…), time { …; } */
                size_t k = 4;

                while (is_blank(at(in, k)))
                        k++;
                if (at(in, k) == '(' || (at(in, k) == '{' && is_meta(at(in, k + 1)))) {
                        in->pos += 4;
                        return 1;
                }
        }
        if (!kw)
                return 0;
        in->pos += strlen(kw);
        if (strcmp(kw, "{") == 0)
                r = open_compound(ps, lv, '{', start);
        else if (strcmp(kw, "}") == 0)
                r = close_compound(ps, lv, '{', start, kw);
        else if (strcmp(kw, "if") == 0)
                r = open_compound(ps, lv, 'i', start);
        else if (strcmp(kw, "fi") == 0)
                r = close_compound(ps, lv, 'i', start, kw);
        else if (strcmp(kw, "while") == 0 || strcmp(kw, "until") == 0)
                r = open_compound(ps, lv, 'l', start);
        else if (strcmp(kw, "done") == 0)
                r = close_compound(ps, lv, 'l', start, kw);
        else if (strcmp(kw, "for") == 0 || strcmp(kw, "select") == 0) {
                if ((r = open_compound(ps, lv, 'l', start)) >= 0)
                        r = for_header(ps, lv, kw[0] == 'f' ? SBX_SH_FOR : SBX_SH_SELECT);
        } else if (strcmp(kw, "case") == 0) {
                if ((r = open_compound(ps, lv, 'c', start)) >= 0)
                        r = case_header(ps, lv);
        } else if (strcmp(kw, "esac") == 0)
                r = close_compound(ps, lv, 'c', start, kw);
        else if (strcmp(kw, "do") == 0 || strcmp(kw, "then") == 0 || strcmp(kw, "elif") == 0 ||
                 strcmp(kw, "else") == 0) {
                if (!top || top->kind != (kw[0] == 'd' ? 'l' : 'i') || lv->need_cmd)
                        return sbx_lex_fail(ps, start, "unexpected '%s'", kw);
                r = end_pipeline(ps, lv);
        } else if (strcmp(kw, "function") == 0)
                r = function_header(ps, lv);
        else if (strcmp(kw, "[[") == 0)
                r = cond(ps, lv, start);
        /* "!" and "coproc" only prefix the command that follows; a coprocess reads a
         * pipe the shell writes into (>&${COPROC[1]}), whatever the line's stdin. */
        else if (strcmp(kw, "coproc") == 0 && lv->pid < ps->sc->n_pipes && ps->sc->pipes[lv->pid].in == SBX_SH_STDIN_SHELL)
                ps->sc->pipes[lv->pid].in = SBX_SH_STDIN_PIPE;
        return r < 0 ? r : 1;
}

static int word(struct parser *ps, struct level *lv)
{
        _cleanup_(sbx_lex_word_done) struct word w = { .plain = NONE };
        bool var;
        int r;

        if ((r = ensure_cmd(ps, lv)) < 0 || (r = sbx_lex_read_word(ps, lv->cur + 1, &w)) < 0)
                return r;
        if (!w.any)
                return 0;
        if (sbx_lex_is_fd_prefix(&w, ps->in, &var)) {
                /* {NAME}>f assigns NAME; {a[i]}>f evaluates i */
                if (var && (r = sbx_lex_add_expr(ps, SBX_SH_FDVAR, w.s + 1, strlen(w.s) - 2, NULL, 0, lv->cur + 1)) < 0)
                        return r;
                return redirect(ps, lv, w.s);
        }
        if (lv->where == AFTER_COMPOUND)
                return sbx_lex_fail(ps, ps->in->pos, "unexpected word '%.32s' after a compound command", w.s ? w.s : "");
        if (lv->where == AT_START && sbx_lex_is_assignment(&w))
                return add_word(cur_cmd(ps, lv), &w, true);
        lv->where = IN_CMD;
        return add_word(cur_cmd(ps, lv), &w, false);
}

static int end_list(struct parser *ps, struct level *lv, char term)
{
        struct src *in = ps->in;

        if (term == ')' && at(in, 0) != ')')
                return sbx_lex_fail(ps, in->pos, "missing ')'");
        if (lv->need_cmd)
                return sbx_lex_fail(ps, in->pos, "expected a command after the last operator");
        if (lv->n_fr) {
                char k = lv->fr[lv->n_fr - 1].kind;

                return sbx_lex_fail(ps, in->pos, "unterminated '%s'",
                            k == '(' ? "(" : k == '{' ? "{" : k == 'i' ? "if" : k == 'l' ? "loop" : "case");
        }
        return 0;
}

static int parse_list(struct parser *ps, struct level *lv, char term)
{
        struct src *in = ps->in;

        for (;;) {
                const struct frame *top = lv->n_fr ? &lv->fr[lv->n_fr - 1] : NULL;
                char c;
                int r;

                if (top && top->patterns) {
                        if ((r = case_patterns(ps, lv)) < 0)
                                return r;
                        continue;
                }
                if ((r = sbx_lex_skip_blanks(ps, false)) < 0)
                        return r;
                c = at(in, 0);
                if (c == '\0' || (c == ')' && term == ')' && !lv->n_fr))
                        return end_list(ps, lv, term);
                if (c == '#') { /* a comment: only where a word would start */
                        while (at(in, 0) && at(in, 0) != '\n')
                                in->pos++;
                        continue;
                }
                if (c == '\n') {
                        r = sbx_lex_newline(ps);
                        if (r >= 0 && lv->in_elem && !lv->need_cmd)
                                r = end_pipeline(ps, lv);
                } else if (c == ')') {
                        in->pos++;
                        r = close_compound(ps, lv, '(', in->pos - 1, ")");
                } else if (c == '(') {
                        r = open_paren(ps, lv);
                } else if (!starts_word(in)) {
                        r = operator(ps, lv);
                } else if ((r = keyword(ps, lv)) == 0) {
                        r = word(ps, lv);
                }
                if (r < 0)
                        return r;
        }
}

/* ------------------------------------------------------------------ API */

int sbx_sh_parse(const char *s, struct sbx_sh_script *sc)
{
        struct src in = { .s = s };
        struct parser ps = { .sc = sc, .in = &in };
        int r;

        *sc = (struct sbx_sh_script){ 0 };
        if (!s) {
                snprintf(sc->error, sizeof(sc->error), "no string");
                return -EINVAL;
        }
        in.len = strnlen(s, SBX_SH_MAX_INPUT + 1);
        if (in.len > SBX_SH_MAX_INPUT) {
                snprintf(sc->error, sizeof(sc->error), "longer than %zu bytes", SBX_SH_MAX_INPUT);
                return -EINVAL;
        }
        r = sbx_lex_sub_list(&ps, 0, '\0');
        /* here-documents whose line ends the string: bash reads them as empty */
        for (unsigned i = 0; i < ps.n_pending; i++)
                free(ps.pending[i].delim);
        return r;
}

void sbx_sh_script_done(struct sbx_sh_script *sc)
{
        for (size_t i = 0; i < sc->n_cmds; i++) {
                for (size_t j = 0; j < sc->cmds[i].n_words; j++)
                        free(sc->cmds[i].words[j].text);
                free(sc->cmds[i].words);
                free(sc->cmds[i].text);
                free(sc->cmds[i].stdin_text);
        }
        for (size_t i = 0; i < sc->n_exprs; i++) {
                free(sc->exprs[i].text);
                free(sc->exprs[i].name);
        }
        free(sc->exprs);
        free(sc->cmds);
        free(sc->pipes);
        *sc = (struct sbx_sh_script){ 0 };
}

enum sbx_sh_stdin sbx_sh_stdin_of(const struct sbx_sh_script *sc, size_t i)
{
        const struct sbx_sh_cmd *c = &sc->cmds[i];
        size_t pid = c->pipeline, pos = c->pipe_pos;

        if (c->in != SBX_SH_STDIN_SHELL)
                return c->in;
        for (size_t steps = 0; steps <= sc->n_pipes && pid < sc->n_pipes; steps++) {
                const struct sbx_sh_pipe *p = &sc->pipes[pid];

                if (pos > 0)
                        return SBX_SH_STDIN_PIPE;
                if (p->in != SBX_SH_STDIN_SHELL)
                        return p->in;
                if (!p->up)
                        return SBX_SH_STDIN_SHELL;
                pid = p->up - 1;
                pos = p->up_pos;
        }
        return SBX_SH_STDIN_PIPE; /* a broken chain: assume the worst */
}
