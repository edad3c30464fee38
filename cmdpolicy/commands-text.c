/* SPDX-License-Identifier: MIT */
/* sed scripts and awk programs, read for what runs commands: sed's e command and the e
 * flag of s, awk's system(), its pipes (print | cmd, cmd | getline, |&) and gawk's @
 * directives and extensions.  Each is tokenized the way sed and awk read it (sed's
 * addresses, s and y with any delimiter, text and file names to the end of the line;
 * awk's strings, comments, and regular expressions told from division by what comes
 * before them); what the reader cannot place with certainty (a delimiter inside a
 * bracket expression, where implementations differ) is denied, and so is a script or
 * program computed at run time.  gawk --sandbox and sed --sandbox turn the commands
 * off, and are trusted: mawk refuses --sandbox rather than ignoring it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "commands-int.h"

#define SED_HINT "(sed --sandbox refuses it)"

/* ------------------------------------------------------------------ regular expressions */

/* Past a bracket expression at @p ('['), as POSIX reads it: a ']' first is literal,
 * [:class:] [=x=] [.x.] are skipped whole.  NULL when unterminated.  *@has gets
 * whether @delim appears inside. */
static const char *skip_bracket(const char *p, char delim, bool *has)
{
        p++;
        if (*p == '^')
                p++;
        if (*p == ']')
                p++;
        for (; *p && *p != '\n'; p++) {
                if (*p == ']')
                        return p + 1;
                if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
                        const char *end = strchr(p + 2, p[1]);

                        while (end && end[1] != ']')
                                end = strchr(end + 1, p[1]);
                        if (!end)
                                return NULL;
                        p = end + 1;
                        continue;
                }
                *has = *has || *p == delim;
        }
        return NULL;
}

/* A regular expression from @p up to the unescaped @delim, which is returned (NULL:
 * unterminated, or the delimiter inside a bracket expression, which sed and the awks
 * read differently). */
static const char *skip_regex(const char *p, char delim, bool brackets)
{
        for (; *p; p++) {
                bool has = false;

                if (*p == '\\') {
                        if (!*++p)
                                return NULL;
                } else if (*p == delim) {
                        return p;
                } else if (*p == '\n' && delim != '\n') {
                        return NULL;
                } else if (brackets && *p == '[') {
                        const char *end = skip_bracket(p, delim, &has);

                        if (!end || has)
                                return NULL;
                        p = end - 1;
                }
        }
        return NULL;
}

/* ------------------------------------------------------------------ sed */

static const char *skip_blank(const char *p)
{
        return p + strspn(p, " \t");
}

/* One address: N, N~M, $, /RE/[IM], \cREc[IM]; NULL when there is none at @p. */
static const char *sed_address(const char *p, const char **err)
{
        if (*p >= '0' && *p <= '9') {
                p += strspn(p, "0123456789");
                if (*p == '~')
                        p += 1 + strspn(p + 1, "0123456789");
                return p;
        }
        if (*p == '$')
                return p + 1;
        if (*p == '/' || *p == '\\') {
                char delim = p[1];
                const char *end;

                if (*p == '/')
                        delim = '/';
                if (*p == '\\' && (!delim || delim == '\n' || delim == '\\')) {
                        *err = "a bad address delimiter";
                        return NULL;
                }
                end = skip_regex(p + (*p == '/' ? 1 : 2), delim, true);
                if (!end) {
                        *err = "an address it cannot read";
                        return NULL;
                }
                p = end + 1;
                return p + strspn(p, "IM");
        }
        return NULL;
}

/* Judges one sed script: NULL, or what in it runs a command or cannot be read. */
static const char *sed_script(const char *p)
{
        const char *err = NULL;

        while (*p) {
                const char *a;
                char cmd;

                p += strspn(p, " \t\n;");
                if (!*p)
                        break;
                if (*p == '#') {
                        p = strchrnul(p, '\n');
                        continue;
                }
                if ((a = sed_address(p, &err))) {
                        p = skip_blank(a);
                        if (*p == ',') {
                                p = skip_blank(p + 1);
                                if (*p == '+' || *p == '~')
                                        p += 1 + strspn(p + 1, "0123456789");
                                else if (!(a = sed_address(p, &err)))
                                        return err ? err : "an address it cannot read";
                                else
                                        p = a;
                        }
                } else if (err) {
                        return err;
                }
                p = skip_blank(p);
                while (*p == '!')
                        p = skip_blank(p + 1);
                cmd = *p;
                if (cmd)
                        p++;
                switch (cmd) {
                case 'e':
                        return "the e command runs a shell command " SED_HINT;
                case '{':
                        continue; /* a block: its first command follows at once */
                case '}':
                case '=': case 'd': case 'D': case 'g': case 'G': case 'h': case 'H': case 'n': case 'N':
                case 'p': case 'P': case 'x': case 'z': case 'F':
                        break;
                case 'l': case 'L': case 'q': case 'Q':
                        p = skip_blank(p);
                        p += strspn(p, "0123456789");
                        break;
                case ':': case 'b': case 't': case 'T': case 'v':
                        p += strcspn(p, ";\n");
                        break;
                case 'r': case 'R': case 'w': case 'W':
                        p = strchrnul(p, '\n'); /* a file name, to the end of the line */
                        break;
                case 'a': case 'i': case 'c':
                        /* text to the end of the line; lines ending in \ go on */
                        for (;;) {
                                const char *nl = strchrnul(p, '\n');
                                size_t bs = 0;

                                while (nl - bs > p && nl[-1 - (long)bs] == '\\')
                                        bs++;
                                p = nl;
                                if (!*p || bs % 2 == 0)
                                        break;
                                p++;
                        }
                        break;
                case 's':
                case 'y': {
                        char delim = *p;
                        const char *end;

                        if (!delim || delim == '\n' || delim == '\\')
                                return "an s or y command it cannot read";
                        if (!(end = skip_regex(p + 1, delim, cmd == 's')) || !(end = skip_regex(end + 1, delim, false)))
                                return "an s or y command it cannot read (a delimiter inside [ ] is read differently "
                                       "by different seds)";
                        p = end + 1;
                        if (cmd == 'y')
                                break;
                        for (; *p && strchr("gpiImMe0123456789w", *p); p++) {
                                if (*p == 'e')
                                        return "the e flag of s runs the pattern space as a shell command " SED_HINT;
                                if (*p == 'w') {
                                        p = strchrnul(p, '\n');
                                        break;
                                }
                        }
                        break;
                }
                default:
                        return "a command it does not know";
                }
                p = skip_blank(p);
                if (*p && !strchr(";\n}#", *p))
                        return "text after a command that it cannot read";
        }
        return NULL;
}

/* A script (@file false) or script file that sed gets from word @w, or the text
 * @att attached to an option. */
static int sed_source(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_sh_word *w, const char *att,
                      bool file)
{
        const char *text = att ? att : w ? w->text : NULL, *why;

        if (!text)
                return 0;
        if (w && sbx_cmd_computed(w))
                return sbx_cmd_deny(c, k->seg, "sed: its script '%s' is computed at run time, and sed's e command runs "
                                    "shell commands " SED_HINT " " SBX_UNREAD, text);
        if (file) {
                *k->info |= SBX_CMD_PROG_FILE;
                if (sbx_cmd_is_stdin_path(text))
                        *k->info |= SBX_CMD_PROG_STDIN;
                return 0;
        }
        if ((why = sed_script(text)))
                return sbx_cmd_deny(c, k->seg, "sed: script '%s': %s " SBX_RUNS, text, why);
        return 0;
}

int sbx_tool_sed(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w;
        bool have_script = false, opts = true;
        int r = 0;

        for (size_t i = 1; i < k->n && !streq(w[i].text, "--"); i++)
                if (streq(w[i].text, "--sandbox") && !sbx_cmd_computed(&w[i]))
                        return 0;
        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++) {
                const char *t = w[i].text;
                const struct sbx_sh_word *next = i + 1 < k->n ? &w[i + 1] : NULL;

                /* a computed word may be an option (-e CMD) unless it starts with text
                 * written out and cannot split; then it is the script or a file */
                if (opts && sbx_cmd_computed(&w[i]) && sbx_cmd_may_become(&w[i], '-'))
                        return sbx_cmd_deny(c, k->seg, "sed: '%s' may be an option (-e, -f) at run time: put -- before "
                                            "computed file names " SBX_UNREAD, t);
                if (opts && streq(t, "--")) {
                        opts = false;
                } else if (!opts || t[0] != '-' || !t[1]) {
                        /* the first operand is the script unless -e or -f gave one */
                        if (!have_script)
                                r = sed_source(c, k, &w[i], NULL, false);
                        have_script = true;
                } else if (t[1] == '-') {
                        size_t len = strcspn(t + 2, "=");
                        const char *att = t[2 + len] ? t + 3 + len : NULL;
                        bool expr = len >= 1 && strncmp("expression", t + 2, len) == 0 && len <= 10;
                        bool file = len >= 1 && strncmp("file", t + 2, len) == 0 && len <= 4;

                        if (expr || file) {
                                have_script = true;
                                r = sed_source(c, k, att ? NULL : next, att, file);
                                i += !att;
                        } else if (!att && len >= 2 && strncmp("line-length", t + 2, len) == 0) {
                                i++;
                        }
                } else {
                        /* a cluster: -ne SCRIPT, -nescript, -f FILE, -i.bak, -l 80 */
                        for (size_t j = 1; t[j]; j++) {
                                const char *att = t[j + 1] ? t + j + 1 : NULL;

                                if (t[j] == 'e' || t[j] == 'f') {
                                        have_script = true;
                                        r = sed_source(c, k, att ? NULL : next, att, t[j] == 'f');
                                        i += !att;
                                        break;
                                }
                                if (t[j] == 'l') {
                                        i += !att;
                                        break;
                                }
                                if (t[j] == 'i')
                                        break; /* -i.bak: a suffix */
                        }
                }
        }
        return r;
}

/* ------------------------------------------------------------------ awk */

/* Keywords after which a '/' starts a regular expression, not a division. */
static bool awk_regex_follows(const char *word, size_t n)
{
        static const char *const kws[] = { "print", "printf", "return", "in", "case", "do", "else", "exit", "delete",
                                           "BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "while",
                                           "for", "next", "nextfile", "switch", "default", NULL };

        for (size_t i = 0; kws[i]; i++)
                if (strlen(kws[i]) == n && strncmp(kws[i], word, n) == 0)
                        return true;
        return false;
}

/* Judges one awk program: NULL, or what in it runs a command or cannot be read. */
static const char *awk_program(const char *p)
{
        bool operand = false, cond_next = false;
        unsigned long cond = 0; /* bit d: the paren at depth d is an if/while/for condition */
        unsigned depth = 0;

        while (*p) {
                char ch = *p;

                if ((ch == '\\' && p[1] == '\n') || ((ch == '+' || ch == '-') && p[1] == ch)) {
                        p += 2; /* a continued line; ++ and --, which leave what came before */
                } else if (ch == ' ' || ch == '\t' || ch == '\r') {
                        p++;
                } else if (ch == '#') {
                        p = strchrnul(p, '\n');
                } else if (ch == '"') {
                        for (p++; *p && *p != '"'; p++)
                                if (*p == '\n' || (*p == '\\' && !*++p))
                                        return "a string it cannot read";
                        if (!*p)
                                return "an unterminated string";
                        p++;
                        operand = true;
                } else if (ch == '/' && !operand) {
                        const char *end = skip_regex(p + 1, '/', true);

                        if (!end)
                                return "a regular expression it cannot read (a / inside [ ] is read differently by "
                                       "different awks)";
                        p = end + 1;
                        operand = true;
                } else if (ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
                        size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");

                        if (n == 6 && strncmp(p, "system", 6) == 0)
                                return "system() runs a shell command";
                        operand = !awk_regex_follows(p, n);
                        cond_next = (n == 2 && strncmp(p, "if", 2) == 0) || (n == 5 && strncmp(p, "while", 5) == 0) ||
                                    (n == 3 && strncmp(p, "for", 3) == 0) || (n == 6 && strncmp(p, "switch", 6) == 0);
                        p += n;
                        continue;
                } else if ((ch >= '0' && ch <= '9') || (ch == '.' && p[1] >= '0' && p[1] <= '9')) {
                        p += strspn(p, "0123456789.eExXabcdefABCDEF");
                        operand = true;
                } else if (ch == '|') {
                        if (p[1] != '|')
                                return "a pipe (print | cmd, cmd | getline, |&) runs a shell command";
                        operand = false;
                        p += 2;
                } else if (ch == '@') {
                        return "gawk's @ (@load, @include, an indirect call) loads code or calls a function by name";
                } else if (ch == '(') {
                        if (depth < 63 && cond_next)
                                cond |= 1ul << depth;
                        depth++;
                        operand = false;
                        p++;
                } else if (ch == ')') {
                        if (!depth)
                                return "a ')' without its '('";
                        depth--;
                        /* after if (…) a statement starts: a '/' there is a regex */
                        operand = !(depth < 63 && (cond >> depth) & 1);
                        cond &= ~(1ul << (depth < 63 ? depth : 0));
                        p++;
                } else if (ch == ']') {
                        operand = true;
                        p++;
                } else if (strchr("\n;{},$+-*/%^!<>=~?:&[", ch)) {
                        operand = false; /* an operator or a separator: what follows starts anew */
                        p++;
                } else {
                        return "a character it does not know";
                }
                if (ch != '(' && !(ch == ' ' || ch == '\t'))
                        cond_next = false;
        }
        return NULL;
}

int sbx_tool_awk(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w;
        bool have_program = false;
        const char *why;
        size_t i = 1;

        for (size_t j = 1; j < k->n; j++)
                if (streq(w[j].text, "--sandbox") && !sbx_cmd_computed(&w[j]))
                        return 0;
        /* options come before the program; after it, files and VAR=value */
        for (; i < k->n; i++) {
                const char *t = w[i].text, *prog = NULL;

                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, k->seg, "awk: '%s' is computed at run time and may be a program or an option "
                                            "(-l, -e): pass values with -v " SBX_UNREAD, t);
                if (streq(t, "--")) {
                        i++;
                        break;
                }
                if (t[0] != '-' || !t[1])
                        break;
                if (strncmp(t, "-l", 2) == 0 || strncmp(t, "--load", 6) == 0)
                        return sbx_cmd_deny(c, k->seg, "awk: '%s' loads an extension " SBX_LOADS, t);
                if (streq(t, "-f") || streq(t, "--file") || streq(t, "-E") || streq(t, "--exec") || streq(t, "-i") ||
                    streq(t, "--include") || streq(t, "-W")) {
                        const char *arg = i + 1 < k->n ? w[i + 1].text : "";

                        if (i + 1 < k->n && sbx_cmd_computed(&w[i + 1]))
                                return sbx_cmd_deny(c, k->seg, "awk: '%s %s' is computed at run time " SBX_UNREAD, t, arg);
                        if (streq(t, "-W") && strncmp(arg, "exec", 4) != 0) {
                                i++;
                                continue;
                        }
                        have_program = have_program || !(t[1] == 'i' || t[2] == 'i');
                        *k->info |= SBX_CMD_PROG_FILE;
                        if (sbx_cmd_is_stdin_path(arg) || sbx_cmd_is_stdin_path(arg + strcspn(arg, "=") + !!arg[strcspn(arg, "=")]))
                                *k->info |= SBX_CMD_PROG_STDIN;
                        i++;
                        continue;
                }
                if (streq(t, "-e") || streq(t, "--source")) {
                        if (i + 1 >= k->n)
                                return 0;
                        prog = w[++i].text;
                        if (sbx_cmd_computed(&w[i]))
                                return sbx_cmd_deny(c, k->seg, "awk: its program is computed at run time " SBX_UNREAD);
                } else if (strncmp(t, "--source=", 9) == 0) {
                        prog = t + 9;
                } else if (strncmp(t, "-e", 2) == 0) {
                        prog = t + 2;
                } else if (strncmp(t, "-f", 2) == 0 || strncmp(t, "--file=", 7) == 0 || strncmp(t, "--exec=", 7) == 0 ||
                           strncmp(t, "-E", 2) == 0) {
                        have_program = true;
                        *k->info |= SBX_CMD_PROG_FILE;
                        if (sbx_cmd_is_stdin_path(t + (t[1] == '-' ? 7 : 2)))
                                *k->info |= SBX_CMD_PROG_STDIN;
                        continue;
                } else {
                        i += (streq(t, "-F") || streq(t, "-v") || streq(t, "--assign") || streq(t, "--field-separator"));
                        continue;
                }
                have_program = true;
                if ((why = awk_program(prog)))
                        return sbx_cmd_deny(c, k->seg, "awk: program '%s': %s " SBX_RUNS, prog, why);
        }
        if (have_program || i >= k->n)
                return 0;
        if ((why = awk_program(w[i].text)))
                return sbx_cmd_deny(c, k->seg, "awk: program '%s': %s " SBX_RUNS, w[i].text, why);
        return 0;
}
