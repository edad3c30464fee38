/* SPDX-License-Identifier: MIT */
/* A tokenizer for the POSIX-ish shell strings of `sh -c '…'`, so the command policy can
 * see every simple command such a string runs: those joined by ; && || | & and
 * newlines, those inside subshells, brace groups, if/while/for/case bodies, and those
 * inside $(…), `…`, <(…) and >(…), wherever they appear in a word or here-document.
 * It also hands the checker the places where bash evaluates text a second time: every
 * arithmetic expression ($((…)), ((…)), $[…], for ((…))), every ${…}, the elements of
 * NAME=(…) and the NAME of {NAME}> (sbx_sh_expr), and the words of [[ … ]] and of a
 * for/select header (sbx_sh_kind), since a subscript or an arithmetic operand there
 * runs the $(…) in a variable's value.
 *
 * It is not a shell: it only has to be right about which words are command names and
 * what each word holds, and to refuse (-EINVAL, with the reason in @error) whatever it
 * does not understand: `((…` that is not arithmetic, a `(` inside a simple command,
 * extglobs, unterminated quotes, a here-document inside a substitution that the
 * substitution does not hold, more than SBX_SH_MAX_DEPTH levels of nesting, strings
 * over SBX_SH_MAX_INPUT bytes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define SBX_SH_MAX_INPUT ((size_t)64 * 1024)
#define SBX_SH_MAX_DEPTH 16u

/* What a word holds, beyond its text. */
enum {
        SBX_SH_EXPAND = 1u << 0,  /* $VAR, ${…}, $(…), `…`, <(…), $((…)): known only at run
                                   * time; the text keeps the expansion as written.  ($'…'
                                   * is decoded, and is an expansion only when it holds a
                                   * character whose encoding depends on the locale.) */
        SBX_SH_GLOB = 1u << 1,    /* an unquoted * ? or […] */
        SBX_SH_BRACE = 1u << 2,   /* an unquoted {a,b} or {1..9}: bash splits it into words */
        SBX_SH_TILDE = 1u << 3,   /* an unquoted ~ at its start */
        SBX_SH_QUOTED = 1u << 4,  /* some part was quoted or backslash-escaped */
        SBX_SH_LITCODE = 1u << 5, /* a quoted or escaped $ or `: text that a later eval,
                                   * prompt or arithmetic context would run as code */
        SBX_SH_PROCSUB = 1u << 6, /* holds a <(…) or >(…) */
        SBX_SH_SPLIT = 1u << 7,   /* an unquoted $…/`…`: bash may split it into several words */
};
#define SBX_SH_COMPUTED (SBX_SH_EXPAND | SBX_SH_GLOB | SBX_SH_BRACE)

struct sbx_sh_word {
        char *text;        /* after quote removal; expansions kept as written ("$HOME") */
        unsigned flags;    /* SBX_SH_* */
        unsigned n_expand; /* how many run-time expansions it holds */
};

/* Where a command's standard input comes from. */
enum sbx_sh_stdin {
        SBX_SH_STDIN_SHELL,  /* the shell's own (no redirection, no pipe before it) */
        SBX_SH_STDIN_PIPE,   /* an earlier element of a pipeline */
        SBX_SH_STDIN_FILE,   /* < file, <&N */
        SBX_SH_STDIN_STRING, /* <<< word */
        SBX_SH_STDIN_SUBST,  /* < <(…) */
        SBX_SH_STDIN_HEREDOC, /* <<WORD */
        SBX_SH_STDIN_DUP,     /* <&N, < /dev/fd/N, < "$f": another descriptor, which the
                               * line may have filled with text (3<<<…) */
};

/* What a command of the script is. */
enum sbx_sh_kind {
        SBX_SH_SIMPLE, /* a simple command (its words: assignments, then argv) */
        SBX_SH_FOR,    /* for NAME in WORDS: words[0] is NAME, then the list; without
                        * "in", the list is one word "$@" */
        SBX_SH_SELECT, /* select NAME in WORDS, the same way */
        SBX_SH_COND,   /* [[ … ]]: its words, operators included, between the brackets */
};

/* Text that bash evaluates again at run time, found while reading. */
enum sbx_sh_expr_kind {
        SBX_SH_ARITH, /* an arithmetic expression, as written: $((…)), ((…)), $[…], the
                       * three parts of for ((…)) joined by ';' */
        SBX_SH_PARAM, /* the inside of ${…}, as written */
        SBX_SH_ELEM,  /* one element of NAME=(…), after quote removal: "v" or "[k]=v" */
        SBX_SH_FDVAR, /* the NAME of a {NAME}> redirection, after quote removal */
        SBX_SH_FUNC,  /* the NAME of a function the script defines */
};

struct sbx_sh_expr {
        enum sbx_sh_expr_kind kind;
        char *text;
        char *name;     /* SBX_SH_ELEM: the array's NAME; else NULL */
        unsigned flags; /* SBX_SH_ELEM: the element word's SBX_SH_* */
        size_t owner;   /* 1 + the command it belongs to */
};

struct sbx_sh_cmd {
        enum sbx_sh_kind kind;
        struct sbx_sh_word *words; /* the VAR=value prefixes, then the command and its
                                    * arguments; redirections are not words */
        size_t n_words;
        size_t n_assign;           /* words[0..n_assign) are VAR=value prefixes */
        char *text;                /* every word and redirection, joined by spaces */
        size_t text_len;
        size_t pipeline, pipe_pos; /* its pipeline (index into pipes) and place in it */
        size_t parent;             /* 1 + index of the command whose word holds the
                                    * $(…) or <(…) this one runs in; 0: none */
        enum sbx_sh_stdin in;      /* its own redirection; see sbx_sh_stdin_of() */
        char *stdin_text;          /* what its own here-document or here-string feeds it,
                                    * when that is known before it runs; else NULL */
};

/* A pipeline nested in a compound command or a substitution that is itself element
 * up_pos of pipeline up - 1 (up is 0 at the top), so that `echo x | (sh)` and
 * `x | y "$(sh)"` show the shell downstream of a pipe. */
struct sbx_sh_pipe {
        size_t up, up_pos;
        enum sbx_sh_stdin in; /* a redirection on that compound command: `{ …; } < f` */
};

struct sbx_sh_script {
        struct sbx_sh_cmd *cmds; /* in source order; a command before its substitutions */
        size_t n_cmds;
        struct sbx_sh_pipe *pipes;
        size_t n_pipes;
        struct sbx_sh_expr *exprs;
        size_t n_exprs;
        char error[160];         /* why parsing failed, with the byte offset */
        bool fd_text;            /* a descriptor other than stdin is filled for reading
                                  * from text the line holds or computes: 3<<<…, 3<<E,
                                  * 3< <(…), 3<&0, {v}<<<… */
};

static inline struct sbx_sh_word *sbx_sh_argv(const struct sbx_sh_cmd *c)
{
        return c->words ? c->words + c->n_assign : NULL; /* NULL + 0 is undefined */
}
static inline size_t sbx_sh_argc(const struct sbx_sh_cmd *c)
{
        return c->n_words - c->n_assign;
}

/* Whether @path names an open descriptor or a device rather than a file, spelled
 * any way (//, /./, .., /proc/PID/fd/N, relative as after a cd to /dev/fd): -1 not
 * one (/dev/null is a file here); 0 stdin (also "-"); 1 another. */
int sbx_sh_fd_path(const char *path);

/* Parses @s into @sc (zeroed first; release it with sbx_sh_script_done() whatever the
 * result).  0; -EINVAL with sc->error set when @s is not understood; -ENOMEM. */
int sbx_sh_parse(const char *s, struct sbx_sh_script *sc);
void sbx_sh_script_done(struct sbx_sh_script *sc);

/* Where command @i of @sc reads its standard input from: its own redirection, else an
 * earlier pipeline element feeding it directly or through the compound command or
 * substitution it is in, else a redirection of that compound, else the shell's. */
enum sbx_sh_stdin sbx_sh_stdin_of(const struct sbx_sh_script *sc, size_t i);
