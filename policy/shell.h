/* SPDX-License-Identifier: MIT */
/* A tokenizer for the POSIX-ish shell strings of `sh -c '…'`, so the command policy can
 * see every simple command such a string runs: those joined by ; && || | & and
 * newlines, those inside subshells, brace groups, if/while/for/case bodies, and those
 * inside $(…), `…`, <(…) and >(…), wherever they appear in a word.
 *
 * It is not a shell: it only has to be right about which words are command names and
 * what each word holds, and to refuse (-EINVAL, with the reason in @error) whatever it
 * does not understand: here-documents, `((…` that is not arithmetic, a `(` inside a
 * simple command, extglobs, unterminated quotes, more than SBX_SH_MAX_DEPTH levels of
 * nesting, strings over SBX_SH_MAX_INPUT bytes. */
#pragma once

#include <stddef.h>

#define SBX_SH_MAX_INPUT ((size_t)64 * 1024)
#define SBX_SH_MAX_DEPTH 16u

/* What a word holds, beyond its text. */
enum {
        SBX_SH_EXPAND = 1u << 0,  /* $VAR, ${…}, $(…), `…`, <(…), $((…)), $'…': known only at
                                   * run time; the text keeps the expansion as written */
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
};

struct sbx_sh_cmd {
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
        char error[160];         /* why parsing failed, with the byte offset */
};

static inline struct sbx_sh_word *sbx_sh_argv(const struct sbx_sh_cmd *c)
{
        return c->words ? c->words + c->n_assign : NULL; /* NULL + 0 is undefined */
}
static inline size_t sbx_sh_argc(const struct sbx_sh_cmd *c)
{
        return c->n_words - c->n_assign;
}

/* Parses @s into @sc (zeroed first; release it with sbx_sh_script_done() whatever the
 * result).  0; -EINVAL with sc->error set when @s is not understood; -ENOMEM. */
int sbx_sh_parse(const char *s, struct sbx_sh_script *sc);
void sbx_sh_script_done(struct sbx_sh_script *sc);

/* Where command @i of @sc reads its standard input from: its own redirection, else an
 * earlier pipeline element feeding it directly or through the compound command or
 * substitution it is in, else a redirection of that compound, else the shell's. */
enum sbx_sh_stdin sbx_sh_stdin_of(const struct sbx_sh_script *sc, size_t i);
