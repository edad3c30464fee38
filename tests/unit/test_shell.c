/* SPDX-License-Identifier: MIT */
/* The shell tokenizer: which words are commands, what each word holds, and what it
 * refuses.  The command policy is only as good as these answers. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmdpolicy/shell.h"
#include "unit.h"

#define G "unit-shell"

static struct sbx_sh_script sc;

/* Parses @s into sc (freeing the last one); the result of sbx_sh_parse(). */
static int parse(const char *s)
{
        sbx_sh_script_done(&sc);
        return sbx_sh_parse(s, &sc);
}

/* "name arg arg|name arg" for the commands that have a name: a compact picture of
 * what the checker will see. */
static const char *shape(void)
{
        static char buf[1024];
        size_t n = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < sc.n_cmds; i++) {
                const struct sbx_sh_word *w = sbx_sh_argv(&sc.cmds[i]);

                if (!sbx_sh_argc(&sc.cmds[i]) || sc.cmds[i].kind != SBX_SH_SIMPLE)
                        continue;
                n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", n ? "|" : "");
                for (size_t j = 0; j < sbx_sh_argc(&sc.cmds[i]) && n < sizeof(buf); j++)
                        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", j ? " " : "", w[j].text);
        }
        return buf;
}

static bool shape_is(const char *s, const char *want)
{
        int r = parse(s);

        if (r == 0 && strcmp(shape(), want) == 0)
                return true;
        printf("    '%s': got %d '%s' (%s), want '%s'\n", s, r, shape(), sc.error, want);
        return false;
}

static bool refused(const char *s, const char *why)
{
        int r = parse(s);

        if (r == -EINVAL && strstr(sc.error, why) && strstr(sc.error, "at offset"))
                return true;
        printf("    '%s': got %d '%s', want '%s'\n", s, r, sc.error, why);
        return false;
}

/* The flags of word @j of the first command with a name. */
static unsigned flags_of(const char *s, size_t j)
{
        if (parse(s) < 0)
                return ~0u;
        for (size_t i = 0; i < sc.n_cmds; i++)
                if (sbx_sh_argc(&sc.cmds[i]) > j)
                        return sbx_sh_argv(&sc.cmds[i])[j].flags;
        return ~0u;
}

static const char *text_of(const char *s, size_t j)
{
        if (parse(s) < 0 || !sc.n_cmds || sbx_sh_argc(&sc.cmds[0]) <= j)
                return "(none)";
        return sbx_sh_argv(&sc.cmds[0])[j].text;
}

/* The recorded expressions, "KIND:text" joined by '|' (K: a p e f). */
static const char *exprs(void)
{
        static char buf[1024];
        size_t n = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < sc.n_exprs && n < sizeof(buf); i++)
                n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%c:%s%s%s", i ? "|" : "", "apef"[sc.exprs[i].kind],
                                      sc.exprs[i].name ? sc.exprs[i].name : "", sc.exprs[i].name ? "=" : "",
                                      sc.exprs[i].text);
        return buf;
}

static bool exprs_are(const char *s, const char *want)
{
        int r = parse(s);

        if (r == 0 && strcmp(exprs(), want) == 0)
                return true;
        printf("    '%s': got %d '%s' (%s), want '%s'\n", s, r, exprs(), sc.error, want);
        return false;
}

/* Words of command @i, joined by spaces. */
static const char *words_of(size_t i)
{
        static char buf[512];
        size_t n = 0;

        buf[0] = '\0';
        for (size_t j = 0; i < sc.n_cmds && j < sc.cmds[i].n_words && n < sizeof(buf); j++)
                n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", j ? " " : "", sc.cmds[i].words[j].text);
        return buf;
}

static bool has(unsigned flags, unsigned want)
{
        return flags != ~0u && (flags & want) == want;
}

static bool lacks(unsigned flags, unsigned unwanted)
{
        return flags != ~0u && !(flags & unwanted);
}

int main(void)
{
        char *big, *deep;

        /* separators, pipelines, quoting */
        CHECK(G, "simple words", shape_is("ls -l  /tmp", "ls -l /tmp"));
        CHECK(G, "all separators split commands",
              shape_is("a;b&&c||d|e|&f&g\nh", "a|b|c|d|e|f|g|h"));
        CHECK(G, "quotes removed", shape_is("r''m \"-rf\" '/'", "rm -rf /"));
        CHECK(G, "empty quoted words are words", parse("\"\" '' x") == 0 && sbx_sh_argc(&sc.cmds[0]) == 3 &&
                                                         strcmp(sbx_sh_argv(&sc.cmds[0])[0].text, "") == 0);
        CHECK(G, "backslash removed", shape_is("\\rm -rf /", "rm -rf /"));
        CHECK(G, "line continuation joins a word", shape_is("r\\\nm x", "rm x"));
        CHECK(G, "double-quote escapes", strcmp(text_of("echo \"a\\\"b\\\\c\\$d\\`e\\x\"", 1), "a\"b\\c$d`e\\x") == 0);
        CHECK(G, "single quotes keep backslashes", strcmp(text_of("echo 'a\\b'", 1), "a\\b") == 0);
        CHECK(G, "operators inside quotes are text", shape_is("echo 'a;b|c' \"&&\"", "echo a;b|c &&"));
        CHECK(G, "comment at word start", shape_is("ls # ; rm -rf /", "ls"));
        CHECK(G, "comment after newline ends", shape_is("ls # x\nrm y", "ls|rm y"));
        CHECK(G, "hash inside a word is text", shape_is("echo a#b", "echo a#b"));
        CHECK(G, "pipeline positions", parse("a | b | c") == 0 && sc.n_cmds == 3 && sc.cmds[2].pipe_pos == 2 &&
                                               sc.cmds[0].pipeline == sc.cmds[2].pipeline);
        CHECK(G, "separate pipelines", parse("a | b; c") == 0 && sc.cmds[2].pipeline != sc.cmds[0].pipeline);

        /* assignments and redirections are not arguments */
        CHECK(G, "assignment prefixes", parse("A=1 B=\"$x\" cmd C=2") == 0 && sc.cmds[0].n_assign == 2 &&
                                                strcmp(shape(), "cmd C=2") == 0);
        CHECK(G, "quoted name is no assignment", parse("\"A\"=1 cmd") == 0 && sc.cmds[0].n_assign == 0);
        CHECK(G, "redirections are not words", shape_is("cmd >out 2>&1 <in >>log &>all >|f 3<>rw x", "cmd x"));
        CHECK(G, "fd variable redirection", shape_is("cmd {fd}>f x", "cmd x"));
        CHECK(G, "redirection text kept", parse("cmd 2>&1 >/dev/null") == 0 &&
                                                  strcmp(sc.cmds[0].text, "cmd 2>&1 >/dev/null") == 0);
        CHECK(G, "here-string is not an argument", shape_is("cat <<< 'rm -rf /'", "cat") &&
                                                          strcmp(sc.cmds[0].stdin_text, "rm -rf /") == 0);
        CHECK(G, "computed here-string has no text", parse("cat <<< \"$x\"") == 0 && !sc.cmds[0].stdin_text);

        /* here-documents */
        CHECK(G, "here-document body is not commands",
              shape_is("cat <<EOF >f\nrm -rf /\nEOF\necho done", "cat|echo done") &&
                  sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_HEREDOC && strcmp(sc.cmds[0].stdin_text, "rm -rf /\n") == 0);
        CHECK(G, "unquoted here-document runs its substitutions",
              shape_is("cat <<EOF\na $(rm y) `id` ${x:-$(z)}\nEOF", "cat|rm y|id|z") && !sc.cmds[0].stdin_text);
        CHECK(G, "quoted here-document is literal",
              shape_is("cat <<'EOF'\n$(rm y)\nEOF\nls", "cat|ls") && strcmp(sc.cmds[0].stdin_text, "$(rm y)\n") == 0 &&
                  shape_is("cat <<\"E\"F\n$(a)\nEF\n", "cat") && shape_is("cat <<\\EOF\n$(a)\nEOF\n", "cat"));
        CHECK(G, "<<- strips tabs", shape_is("cat <<-EOF\n\tx\n\tEOF\nls", "cat|ls"));
        CHECK(G, "two here-documents on a line", shape_is("cat <<A; cat <<B && ls\na\nA\nb $(c)\nB\nd", "cat|cat|ls|c|d"));
        CHECK(G, "here-document line continuation", shape_is("cat <<EOF\na\\\nEOF\nEOF\nls", "cat|ls"));
        CHECK(G, "quoted here-document keeps backslashes", shape_is("cat <<'EOF'\na\\\nEOF\nls", "cat|ls"));
        CHECK(G, "here-document inside a substitution", shape_is("x=$(cat <<EOF\nhi $(a)\nEOF\n); b", "cat|a|b"));
        CHECK(G, "here-document after && on the next line", shape_is("cat <<EOF &&\nbody\nEOF\nls", "cat|ls"));
        CHECK(G, "here-document to the end", shape_is("cat <<EOF\nbody", "cat"));
        CHECK(G, "here-document on fd 3 does not feed stdin",
              parse("cat 3<<EOF\nx\nEOF") == 0 && sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_SHELL);

        /* what words hold */
        CHECK(G, "$VAR is an expansion", has(flags_of("echo $HOME", 1), SBX_SH_EXPAND | SBX_SH_SPLIT));
        CHECK(G, "quoted $VAR does not split", lacks(flags_of("echo \"$x\"", 1), SBX_SH_SPLIT) &&
                                                   has(flags_of("echo \"$x\"", 1), SBX_SH_EXPAND));
        CHECK(G, "${…} $(…) `…` $((…)) $[…] are expansions",
              has(flags_of("e ${x}", 1), SBX_SH_EXPAND) && has(flags_of("e $(x)", 1), SBX_SH_EXPAND) &&
                  has(flags_of("e `x`", 1), SBX_SH_EXPAND) && has(flags_of("e $((1+2))", 1), SBX_SH_EXPAND) &&
                  has(flags_of("e $[1+2]", 1), SBX_SH_EXPAND));
        CHECK(G, "$'…' is decoded", shape_is("$'\\x72m' $'-\\162f' $'\\'x\\'' $'\\cA'", "rm -rf 'x' \001") &&
                                         lacks(flags_of("$'\\x72m'", 0), SBX_SH_EXPAND) &&
                                         has(flags_of("$'\\x72m'", 0), SBX_SH_QUOTED));
        CHECK(G, "$'…' that makes a $ is literal code", has(flags_of("e $'a[\\x24(id)]'", 1), SBX_SH_LITCODE) &&
                                                              strcmp(text_of("e $'a[\\x24(id)]'", 1), "a[$(id)]") == 0);
        CHECK(G, "$'…' that depends on the locale stays an expansion",
              has(flags_of("e $'\\u00e9'", 1), SBX_SH_EXPAND) && has(flags_of("e $'a\\0b'", 1), SBX_SH_EXPAND));
        CHECK(G, "expansion text kept as written", strcmp(text_of("e a$(b c)d", 1), "a$(b c)d") == 0);
        CHECK(G, "single-quoted $ is literal code", has(flags_of("x '$(id)'", 1), SBX_SH_LITCODE) &&
                                                        lacks(flags_of("x '$(id)'", 1), SBX_SH_EXPAND));
        CHECK(G, "escaped $ is literal code", has(flags_of("x \\$y", 1), SBX_SH_LITCODE));
        CHECK(G, "unquoted globs", has(flags_of("ls *.c", 1), SBX_SH_GLOB) && has(flags_of("ls a?", 1), SBX_SH_GLOB) &&
                                           has(flags_of("ls [ab]", 1), SBX_SH_GLOB));
        CHECK(G, "quoted glob is text", lacks(flags_of("ls '*'", 1), SBX_SH_GLOB));
        CHECK(G, "lone [ is no glob", lacks(flags_of("[ -f x ]", 0), SBX_SH_GLOB));
        CHECK(G, "brace expansion", has(flags_of("{rm,-rf,/}", 0), SBX_SH_BRACE) &&
                                            has(flags_of("echo {1..3}", 1), SBX_SH_BRACE) &&
                                            lacks(flags_of("find -exec x {} +", 3), SBX_SH_BRACE));
        CHECK(G, "tilde at word start", has(flags_of("ls ~/x", 1), SBX_SH_TILDE) && lacks(flags_of("ls a~", 1), SBX_SH_TILDE));
        CHECK(G, "process substitution", has(flags_of("diff <(a) >(b)", 1), SBX_SH_PROCSUB | SBX_SH_EXPAND));
        CHECK(G, "quoted <( is text", lacks(flags_of("echo '<(a)'", 1), SBX_SH_PROCSUB));
        CHECK(G, "zsh =cmd is computed", has(flags_of("=rm x", 0), SBX_SH_EXPAND));

        /* substitutions are commands too, with their parent */
        CHECK(G, "command substitution parsed", shape_is("echo \"$(rm -rf /)\"", "echo $(rm -rf /)|rm -rf /"));
        CHECK(G, "substitution knows its parent", parse("a $(b)") == 0 && sc.n_cmds == 2 && sc.cmds[1].parent == 1);
        CHECK(G, "backquotes nest", shape_is("`a \\`b\\``", "`a \\`b\\``|a `b`|b"));
        CHECK(G, "substitution inside ${x:-…}", shape_is("echo ${x:-$(rm y)}", "echo ${x:-$(rm y)}|rm y"));
        CHECK(G, "substitution inside arithmetic", shape_is("echo $((1+$(id -u)))", "echo $((1+$(id -u)))|id -u"));
        CHECK(G, "substitution in a redirection", shape_is("cat < <(rm y) > >(tee z)", "cat|rm y|tee z"));
        CHECK(G, "substitution in an assignment", shape_is("x=$(rm y)", "rm y"));

        /* compound commands: keywords are not commands, bodies are */
        CHECK(G, "if/elif/else", shape_is("if a; then b; elif c; then d; else e; fi", "a|b|c|d|e"));
        CHECK(G, "while and until", shape_is("while a; do b; done; until c; do d; done", "a|b|c|d"));
        CHECK(G, "for list is not a command", shape_is("for x in rm -rf /; do echo $x; done", "echo $x"));
        CHECK(G, "for header words", parse("for x in a \"$b\"; do :; done") == 0 && sc.cmds[0].kind == SBX_SH_FOR &&
                                             strcmp(words_of(0), "x a $b") == 0);
        CHECK(G, "for without in is over \"$@\"", parse("for x; do :; done") == 0 && strcmp(words_of(0), "x $@") == 0);
        CHECK(G, "select header words", parse("select x in a; do :; done") == 0 && sc.cmds[0].kind == SBX_SH_SELECT);
        CHECK(G, "for list substitution parsed", shape_is("for x in $(rm y); do :; done", "rm y|:"));
        CHECK(G, "arithmetic for", shape_is("for ((i=0;i<3;i++)); do echo; done", "echo"));
        CHECK(G, "case patterns are not commands", shape_is("case $x in rm|a) b;; (c) d;& e) ;; esac", "b|d"));
        CHECK(G, "subshell and brace group", shape_is("(a; b) && { c; }", "a|b|c"));
        CHECK(G, "function definitions", shape_is("f() { a; }; function g { b; }; f", "a|b|f"));
        CHECK(G, "[[ ]] is not a command", shape_is("[[ -f x && $y =~ ^(a|b)$ ]] && z", "z"));
        CHECK(G, "[[ ]] words", parse("[[ -v 'a[1]' && x -eq 2 ]]") == 0 && sc.cmds[0].kind == SBX_SH_COND &&
                                        strcmp(words_of(0), "-v a[1] && x -eq 2") == 0);
        CHECK(G, "(( )) is not a command", shape_is("(( i++ )) || z", "z"));

        /* what bash evaluates again */
        CHECK(G, "arithmetic and ${…} recorded", exprs_are("echo $((a+1)) ${b:1} $[c] \"${d[$i]}\"",
                                                          "a:a+1|p:b:1|a:c|p:d[$i]"));
        CHECK(G, "(( )) and for (( )) recorded", exprs_are("((x=1)); for ((i=0;i<3;i++)); do :; done",
                                                           "a:x=1|a:i=0;i<3;i++"));
        CHECK(G, "array elements recorded", exprs_are("a=(1 \"$x\" [k]=v) b", "e:a=1|e:a=$x|e:a=[k]=v") &&
                                                  sc.exprs[1].flags & SBX_SH_EXPAND);
        CHECK(G, "{a[i]}> recorded", exprs_are("echo {a[i]}>f {fd}<g", "f:a[i]|f:fd") && strcmp(shape(), "echo") == 0);
        CHECK(G, "{x y}> is a word", shape_is("echo {x,y}>f", "echo {x,y}"));
        CHECK(G, "subscripted assignments", parse("a[i]=1 b['x']+=2 c") == 0 && sc.cmds[0].n_assign == 2 &&
                                                   strcmp(shape(), "c") == 0);
        CHECK(G, "quoted name or = is no assignment",
              parse("\"a\"[i]=1 x") == 0 && sc.cmds[0].n_assign == 0 && parse("a'='1 x") == 0 &&
                  sc.cmds[0].n_assign == 0);
        CHECK(G, "keywords as arguments", shape_is("echo if then done } {", "echo if then done } {"));
        CHECK(G, "! negates", shape_is("! a | b", "a|b"));
        CHECK(G, "array value", shape_is("x=(a $(b) c) d", "d|b"));

        /* where standard input comes from */
        CHECK(G, "stdin from a pipe", parse("a | b") == 0 && sbx_sh_stdin_of(&sc, 1) == SBX_SH_STDIN_PIPE &&
                                              sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_SHELL);
        CHECK(G, "stdin from a file", parse("a | b < f") == 0 && sbx_sh_stdin_of(&sc, 1) == SBX_SH_STDIN_FILE);
        CHECK(G, "stdin from a here-string", parse("b <<< x") == 0 && sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_STRING);
        CHECK(G, "stdin from a process substitution",
              parse("b < <(a)") == 0 && sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_SUBST);
        CHECK(G, "pipe into a subshell", parse("a | (b)") == 0 && sbx_sh_stdin_of(&sc, 1) == SBX_SH_STDIN_PIPE);
        CHECK(G, "pipe into a substitution", parse("a | echo $(b)") == 0 && sbx_sh_stdin_of(&sc, 2) == SBX_SH_STDIN_PIPE);
        CHECK(G, "redirected group", parse("{ b; } < <(a)") == 0 && sbx_sh_stdin_of(&sc, 0) == SBX_SH_STDIN_SUBST);
        CHECK(G, "second command of a group", parse("a | { b; c; }") == 0 && sbx_sh_stdin_of(&sc, 2) == SBX_SH_STDIN_PIPE);

        /* refused */
        CHECK(G, "unterminated single quote", refused("echo 'x", "unterminated single quote"));
        CHECK(G, "unterminated double quote", refused("echo \"x", "unterminated double quote"));
        CHECK(G, "unterminated backquote", refused("echo `x", "unterminated backquote"));
        CHECK(G, "unterminated $(", refused("echo $(x", "missing ')'"));
        CHECK(G, "unterminated ${", refused("echo ${x", "unterminated '${'"));
        CHECK(G, "$(( closed by one )", refused("echo $((x) )", "single ')'"));
        CHECK(G, "here-document without a body in its substitution", refused("echo $(cat <<EOF)\nx\nEOF", "without a body"));
        CHECK(G, "( inside a command", refused("echo a (b)", "'(' inside"));
        CHECK(G, "stray fi", refused("fi", "unexpected 'fi'"));
        CHECK(G, "unterminated if", refused("if a; then b", "unterminated 'if'"));
        CHECK(G, ";; outside case", refused("a;; b", "outside a case"));
        CHECK(G, "pipe without a command", refused("| a", "without a command"));
        CHECK(G, "trailing &&", refused("a &&", "expected a command"));
        CHECK(G, "word after fi", refused("if a; then b; fi c", "unexpected word"));
        CHECK(G, "redirection without target", refused("a >", "without a target"));
        CHECK(G, "trailing backslash", refused("a \\", "backslash at the end"));
        CHECK(G, "error offset", parse("echo 'x") == -EINVAL && strstr(sc.error, "at offset 5"));

        deep = calloc(1, 4096);
        for (int i = 0; deep && i < 40; i++)
                strcat(deep, "$(");
        CHECK(G, "nesting limit", deep && refused(deep, "nested more than"));
        for (int i = 0; deep && i < 40; i++)
                strcat(deep, "{ ");
        CHECK(G, "compound nesting limit", deep && refused(deep + 80, "nested more than"));
        free(deep);
        big = malloc(SBX_SH_MAX_INPUT + 2);
        if (big) {
                memset(big, 'a', SBX_SH_MAX_INPUT + 1);
                big[SBX_SH_MAX_INPUT + 1] = '\0';
        }
        CHECK(G, "input size limit", big && parse(big) == -EINVAL && strstr(sc.error, "longer than"));
        free(big);
        CHECK(G, "NULL refused", parse(NULL) == -EINVAL);
        CHECK(G, "empty string is no command", parse("") == 0 && sc.n_cmds == 0);
        sbx_sh_script_done(&sc);
        return unit_failed ? 1 : 0;
}
