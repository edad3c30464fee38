/* SPDX-License-Identifier: MIT */
/* sbx_git_config_scan() against `git config --file F --null --list` of this machine's
 * git, byte for byte, on hand-written files (every rule of git-config(1)'s syntax and
 * the hostile corners: NUL bytes, CR, a partial BOM, unterminated quotes, huge lines)
 * and on files generated from those pieces: the same variables in the same order with
 * the same values, and where git refuses a file, a refusal at the line git names (and
 * the same variables before it, since both report as they go). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/gitfmt.h"
#include "gittest.h"
#include "unit.h"

#define G "unit-gitconfig"

struct listing {
        char *s;
        size_t n, cap;
};

static void add(struct listing *l, const char *p, size_t n)
{
        if (l->n + n + 1 > l->cap) {
                size_t cap = (l->n + n + 1) * 2;
                char *s = realloc(l->s, cap);

                if (!s)
                        abort();
                l->s = s;
                l->cap = cap;
        }
        memcpy(l->s + l->n, p, n);
        l->n += n;
}

/* As `git config --null --list` prints a variable: "name\nvalue\0", or "name\0". */
static int list(const char *name, const char *value, void *userdata)
{
        struct listing *l = userdata;

        add(l, name, strlen(name));
        if (value) {
                add(l, "\n", 1);
                add(l, value, strlen(value));
        }
        add(l, "", 1);
        return 0;
}

struct sample {
        const char *label;
        const char *text;
        size_t len; /* 0: strlen(text) */
};

#define S(label, text) { label, text, sizeof(text) - 1 }

static const struct sample samples[] = {
        S("empty", ""),
        S("a section and a variable", "[core]\n\tbare = false\n"),
        S("case: section and name lowered, subsection kept", "[CoRe]\n\tHooksPath = /h\n[Remote \"OrIgin\"]\n\tURL = u\n"),
        S("legacy [a.B] lowered whole", "[a.B]\nc=d\n"),
        S("legacy with a subsection", "[a.B \"x\"]\n c=d\n"),
        S("section then variable on one line", "[a] b = c\n"),
        S("subsection then variable on one line", "[a \"x\"] c=d\n"),
        S("tab before the subsection", "[a\t\"x\"]\nc=d\n"),
        S("space before ']'", "[a \"x\" ]\n"),
        S("escapes in a subsection", "[a \"b\\\"c\\\\d\\e\"]\nc=1\n"),
        S("empty subsection", "[a \"\"]\nb=1"),
        S("no section name, a subsection", "[ \"x\"]\nb=1"),
        S("section '.'", "[.]\nb=1"),
        S("section 'a..b'", "[a..b]\nb=1"),
        S("section with '-' and '.'", "[a-b.c-d]\nb=1"),
        S("section with '_'", "[a_b]\nb=1"),
        S("empty section", "[]\nc=1\n"),
        S("']' after the subsection twice", "[a \"x\"]]\nb=1"),
        S("subsection across lines", "[a \"x\nb=1"),
        S("subsection on the next line", "[a\n\"x\"]\nb=1"),
        S("escaped newline in a subsection", "[a \"x\\\ny\"]\nb=1"),
        S("unclosed section", "[a"),
        S("unclosed subsection at the end", "[a \"x"),
        S("a variable before any section", "x = 1\n"),
        S("a variable without '='", "[a]\nb\n"),
        S("a variable without '=' at the end", "[a]\nb"),
        S("'=' and nothing", "[a]\nb="),
        S("a variable then a comment", "[a]\n\tb # comment\n"),
        S("a variable then ';'", "[a]\n\tb ; c\n"),
        S("comments", "# one\n; two\n[a] # three\nb = c # four\nd = \"e # not\" ; five\n"),
        S("name starting with a digit", "[a]\n9b=1"),
        S("name with '-' and digits", "[a]\nb-9=1"),
        S("name with '_'", "[a]\nb_9=1"),
        S("tabs around '='", "[a]\nb\t\t=\t1"),
        S("vertical tab after a name", "[a]\nb\v=1"),
        S("whitespace kept inside, trimmed around", "[a]\nc=  x  \t y  \n"),
        S("quotes keep whitespace", "[a]\nb=\" x \"  \"\ty\" \n"),
        S("empty quotes then a word", "[a]\nb= \"\" x"),
        S("escapes", "[a]\nb=x\\n\\t\\b\\\"\\\\ ;c"),
        S("unknown escape", "[a]\nc = d\\q\n"),
        S("backslash at the end", "[a]\nb=x\\"),
        S("backslash backslash at the end", "[a]\nb=\\\\"),
        S("continuation", "[a]\nc=x\\\n  y\n"),
        S("continuation inside quotes", "[a]\nb=\"x\\\ny\""),
        S("unterminated quote", "[a]\nc=\"d\n"),
        S("unterminated quote on a later line", "[a]\nb=1\nc=2\nd=\"e\n"),
        S("CRLF lines", "[a]\r\nb = 1\r\nc\r\n"),
        S("a lone CR in a value", "[a]\nc = x\ry\r\n"),
        S("a lone CR ends nothing", "[a]\nb=1\rc=2"),
        S("CR at the very end", "b=1\r"),
        S("BOM", "\xef\xbb\xbf[a]\nc=d\n"),
        S("partial BOM", "\xef\xbb[a]\nc=d\n"),
        S("two BOMs", "\xef\xbb\xbf\xef\xbb\xbf[a]\nb=1"),
        S("BOM only", "\xef\xbb\xbf"),
        S("high bytes in a value", "[a]\nb=\xff\xfe\xc3\xa9"),
        S("high bytes in a name", "[a]\nb\xc3\xa9=1"),
        S("NUL in a subsection hides the variable name", "[core \"hookspath\0\"]\n\tx = /evil\n"),
        S("NUL in a value", "[core]\n\thooksPath = a\0b\n"),
        S("NUL in a quoted value", "[core]\n\thooksPath = \"a\0b\"\n"),
        S("NUL after a name", "[core]\n\thooksPath\0 = a\n"),
        S("NUL in a comment", "[core]\n\t#\0\n\tx=1\n"),
        S("NUL alone", "\0"),
        S("include and includeIf", "[include]\n\tpath = ~/x\n[includeIf \"gitdir:~/w/\"]\n\tpath = y\n"),
        S("the hooks and commands sbx looks for",
          "[core]\n\thooksPath = .githooks\n\tfsmonitor = \"./fsm.sh\"\n\tpager = less\n[alias]\n\tst = !sh -c 'x'\n"),
        S("a typical repository config",
          "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
          "[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
          "[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"),
        S("variables sharing a name", "[a]\nb=1\nb=2\n[A]\nB=3\n"),
        S("after a bad line nothing more", "[a]\nb=1\n!\nc=2\n"),
};

static const char *const pieces[] = {
        "[", "]", "[a]", "[Sec \"Sub\"]", "[a.B]", "[x \"q\\\"r\"]", "\"", "\\", "\\n", "\\t", "\\b", "\\\"", "\\\\",
        "\\q", "\n", "\n", "\n", "\r\n", "\r", " ", "\t", "=", " = ", "#", ";", "key", "Key-2", "9", "_", ".", "-",
        "value", "\"quoted value\"", "[core]\n\thooksPath = ", "include.path", "\xc3\xa9", "x y", "\\\n", "\v",
};

#define N_RANDOM 600

static const char *const headers[] = {
        "[a]", "[Core]", "[a.B]", "[remote \"Or igin\"]", "[x \"q\\\"r\\\\s\"]", "[a-1 \"\"]", "[includeIf \"gitdir:~/w/\"]",
};
static const char *const names[] = { "b", "HooksPath", "x-9", "url", "path", "c" };
static const char *const value_pieces[] = {
        "v", "V w", "  ", "\t", "\"q q\"", "\"#;\"", "\\n", "\\t", "\\b", "\\\"", "\\\\", "\\\n", "#c", ";c",
        "\r", "\xc3\xa9", "=", "[", "]", "v", "\"",
};

#define PICK(a) (a)[(size_t)rand_r(seed) % (sizeof(a) / sizeof((a)[0]))]

/* A file of random lines, mostly well-formed (headers, "name = value" with quotes,
 * escapes, comments, continuations), or of random pieces; now and then a NUL or BOM. */
static size_t random_config(char *buf, size_t size, unsigned *seed)
{
        size_t n = 0, count = 1 + (size_t)rand_r(seed) % 12;
        bool chaos = rand_r(seed) % 3 == 0;

        if (rand_r(seed) % 10 == 0)
                n += (size_t)snprintf(buf, size, "\xef\xbb\xbf");
        for (size_t i = 0; i < count && n + 200 < size; i++) {
                int k = rand_r(seed) % 10;

                if (rand_r(seed) % 40 == 0)
                        buf[n++] = '\0';
                if (chaos) {
                        n += (size_t)snprintf(buf + n, size - n, "%s", PICK(pieces));
                        continue;
                }
                if (k < 2)
                        n += (size_t)snprintf(buf + n, size - n, "%s", PICK(headers));
                else if (k == 2)
                        n += (size_t)snprintf(buf + n, size - n, "%s", rand_r(seed) % 2 ? "# note" : "; note");
                else {
                        n += (size_t)snprintf(buf + n, size - n, "%s%s", rand_r(seed) % 2 ? "\t" : "", PICK(names));
                        if (k > 3) {
                                n += (size_t)snprintf(buf + n, size - n, "%s", rand_r(seed) % 2 ? " = " : "=");
                                for (int v = rand_r(seed) % 5; v >= 0; v--)
                                        n += (size_t)snprintf(buf + n, size - n, "%s", PICK(value_pieces));
                        }
                }
                n += (size_t)snprintf(buf + n, size - n, "%s", rand_r(seed) % 8 ? "\n" : "\r\n");
        }
        return n;
}

/* What git said about file @path: its listing, and the line it refused (0: none). */
static bool git_says(const char *path, struct listing *out, int *bad_line)
{
        char p[256];
        size_t n = 0;
        uint8_t *b;

        snprintf(p, sizeof(p), "%s.out", path);
        b = gt_slurp(p, &n);
        if (!b)
                return false;
        out->s = (char *)b;
        out->n = n;
        snprintf(p, sizeof(p), "%s.err", path);
        b = gt_slurp(p, &n);
        *bad_line = 0;
        if (b) {
                const char *at = strstr((char *)b, "bad config line ");

                if (at)
                        *bad_line = atoi(at + 16);
                free(b);
        }
        return true;
}

static bool same_as_git(const char *label, const char *path, const char *text, size_t len)
{
        struct listing ours = { 0 }, git = { 0 };
        char why[256] = "", name[300];
        int r = sbx_git_config_scan(text, len, list, &ours, why, sizeof(why)), bad_line, our_line = 0;
        bool same;

        if (!git_says(path, &git, &bad_line)) {
                snprintf(name, sizeof(name), "%s: git ran", label);
                CHECK(G, name, false);
                free(ours.s);
                return false;
        }
        if (r == -EBADMSG && strncmp(why, "line ", 5) == 0)
                our_line = atoi(why + 5);
        same = ours.n == git.n && (ours.n == 0 || memcmp(ours.s, git.s, git.n) == 0) &&
               (bad_line ? r == -EBADMSG && our_line == bad_line : r == 0);
        snprintf(name, sizeof(name), "%s: as git reads it%s", label, bad_line ? " (refused at the same line)" : "");
        CHECK(G, name, same);
        if (!same)
                fprintf(stderr, "%s: r=%d why='%s' git bad line %d\n--- ours (%zu)\n%.*s\n--- git (%zu)\n%.*s\n", label,
                        r, why, bad_line, ours.n, (int)ours.n, ours.s ? ours.s : "", git.n, (int)git.n,
                        git.s ? git.s : "");
        free(ours.s);
        free(git.s);
        return same;
}

static int stop_at(const char *name, const char *value, void *userdata)
{
        (void)value;
        return strcmp(name, userdata) == 0 ? 42 : 0;
}

int main(void)
{
        static char buf[4096];
        size_t ns = sizeof(samples) / sizeof(samples[0]), big_n = (2u << 20) + 16, agree = 0;
        char path[64], *big;
        unsigned seed = 1;

        if (!gt_setup()) {
                CHECK(G, "a temporary directory", false);
                return 1;
        }
        if (gt_sh("git --version >/dev/null 2>&1") != 0) {
                CHECK(G, "git is installed (make deps installs it)", false);
                gt_cleanup();
                return 1;
        }
        for (size_t i = 0; i < ns; i++) {
                snprintf(path, sizeof(path), "s%zu", i);
                gt_write(path, samples[i].text, samples[i].len);
        }
        for (size_t i = 0; i < N_RANDOM; i++) {
                size_t n = random_config(buf, sizeof(buf), &seed);

                snprintf(path, sizeof(path), "r%zu", i);
                gt_write(path, buf, n);
        }
        /* a 2 MiB value, and a 100 KiB name */
        big = malloc(big_n);
        if (big) {
                memcpy(big, "[a]\nb=", 6);
                memset(big + 6, 'x', big_n - 8);
                memcpy(big + big_n - 2, "\n", 2);
                gt_write("big-value", big, big_n - 1);
                memcpy(big, "[a]\n", 4);
                memset(big + 4, 'k', 100000);
                memcpy(big + 100004, "=1\n", 3);
                gt_write("big-name", big, 100007);
        }
        CHECK(G, "git config --list run on every file",
              gt_sh("for f in s* r* big-*; do case $f in *.out|*.err) continue;; esac;"
                    "git config --file \"$f\" --null --list >\"$f.out\" 2>\"$f.err\"; done") == 0);

        for (size_t i = 0; i < ns; i++) {
                snprintf(path, sizeof(path), "s%zu", i);
                same_as_git(samples[i].label, path, samples[i].text, samples[i].len);
        }
        seed = 1;
        for (size_t i = 0; i < N_RANDOM; i++) {
                size_t n = random_config(buf, sizeof(buf), &seed);
                char label[64];

                snprintf(path, sizeof(path), "r%zu", i);
                snprintf(label, sizeof(label), "generated %zu", i);
                agree += same_as_git(label, path, buf, n);
        }
        printf("%zu of %d generated files read as git reads them\n", agree, N_RANDOM);
        if (big) {
                size_t n = 0;
                uint8_t *t = gt_slurp("big-value", &n);

                same_as_git("a 2 MiB value", "big-value", (char *)t, n);
                free(t);
                t = gt_slurp("big-name", &n);
                same_as_git("a 100 KiB name", "big-name", (char *)t, n);
                free(t);
                free(big);
        }

        /* the callback's say */
        {
                static const char text[] = "[a]\nb=1\n[core]\nhooksPath=x\n[z]\ny=2\n";
                char why[128];

                CHECK(G, "a callback's non-zero return stops the scan and is returned",
                      sbx_git_config_scan(text, sizeof(text) - 1, stop_at, (void *)"core.hookspath", why, sizeof(why)) == 42);
                CHECK(G, "no callback is fine", sbx_git_config_scan(text, sizeof(text) - 1, NULL, NULL, NULL, 0) == 0);
                CHECK(G, "not NUL-terminated: only @len bytes read",
                      sbx_git_config_scan("[a]\nb=1\n[", 8, NULL, NULL, why, sizeof(why)) == 0);
                CHECK(G, "NULL text with a length is -EINVAL", sbx_git_config_scan(NULL, 3, NULL, NULL, NULL, 0) == -EINVAL);
        }
        gt_cleanup();
        return unit_failed ? 1 : 0;
}
