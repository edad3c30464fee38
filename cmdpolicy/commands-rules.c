/* SPDX-License-Identifier: MIT */
/* The rules for single commands, under commands.rules in a profile: which paths rm may
 * not remove, which modes chmod may set, which processes kill may signal (git's are in
 * commands-git.c); and find, whose -exec and -delete are rm and other commands in
 * disguise, and whose -execdir runs them in another directory.  Every argument computed at run time that a rule would have to
 * see is a deny: the rule cannot say yes to what it cannot read. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "commands-int.h"

#define RM_RULE "commands.rules.rm.protected"
#define CHMOD_RULE "commands.rules.chmod.modes"
#define KILL_RULE "commands.rules.kill.targets"

static bool startswith(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------------ rm */

/* Lexical normalization of an absolute path, in place: collapses //, resolves . and
 * .., drops a trailing /.  Symlinks are not followed (the path need not exist). */
static void normalize(char *s)
{
        const char *p = s;
        size_t o = 0;

        while (*p) {
                const char *e;
                size_t n;

                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                e = strchrnul(p, '/');
                n = (size_t)(e - p);
                if (n == 2 && p[0] == '.' && p[1] == '.') {
                        while (o > 0 && s[o - 1] != '/')
                                o--;
                        if (o > 0)
                                o--;
                } else if (!(n == 1 && p[0] == '.')) {
                        /* o stays behind p: each component read was preceded by a '/' */
                        s[o++] = '/';
                        memmove(s + o, p, n);
                        o += n;
                }
                p = e;
        }
        if (o == 0)
                s[o++] = '/';
        s[o] = '\0';
}

/* A protected path as the rules compare it: absolute and normalized (a copy). */
static char *protected_path(const char *path)
{
        char *prot = malloc(strlen(path) + 2);

        if (prot) {
                sprintf(prot, "/%s", path);
                normalize(prot);
        }
        return prot;
}

/* @a is @b or a directory above it. */
static bool holds(const char *a, const char *b)
{
        size_t n = strlen(a);

        return streq(a, "/") || (strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/'));
}

/* Checks one absolute, normalized @path (a glob pattern when @glob) against every
 * protected path. */
static int check_removal(struct sbx_cmd_ctx *c, const char *seg, const char *who, const char *shown,
                         const char *path, bool glob)
{
        const struct sbx_strv *l = &c->p->rm_protected;

        for (size_t i = 0; i < l->n && !c->denied; i++) {
                _cleanup_free_ char *prot = protected_path(l->v[i]);

                if (!prot)
                        return -ENOMEM;
                if (!glob) {
                        if (streq(path, prot))
                                return sbx_cmd_deny(c, seg, "%s: %s is protected (" RM_RULE ")", who, shown);
                        if (holds(path, prot))
                                return sbx_cmd_deny(c, seg, "%s: %s holds protected '%s' (" RM_RULE ")", who, shown, prot);
                        continue;
                }
                /* A glob removes whatever it matches: deny when it can match the
                 * protected path or any directory above it.  Like bash, * skips
                 * .dotfiles unless the script turns dotglob on. */
                for (char *slash;;) {
                        if (fnmatch(path, prot, FNM_PATHNAME | (c->dotglob ? 0 : FNM_PERIOD)) == 0)
                                return sbx_cmd_deny(c, seg, "%s: %s matches protected '%s' (" RM_RULE ")", who,
                                                    shown, prot);
                        if (streq(prot, "/"))
                                break;
                        slash = strrchr(prot, '/');
                        slash[slash == prot] = '\0';
                }
        }
        return 0;
}

/* A relative target after a cd: the directory is unknown, so the target is any path
 * that ends with it.  Deny if that can be a protected path or one above one. */
static int check_unknown_cwd(struct sbx_cmd_ctx *c, const char *seg, const char *who, const char *text, bool glob)
{
        const struct sbx_strv *l = &c->p->rm_protected;
        _cleanup_free_ char *rel = NULL;
        size_t depth = 0;
        const char *last;

        for (const char *p = text; *p;) {
                size_t n = strcspn(p, "/");

                if (n == 2 && p[0] == '.' && p[1] == '.') {
                        if (depth-- == 0)
                                return sbx_cmd_deny(c, seg, "%s: '%s' climbs out of a directory the command changed with cd (" RM_RULE ")",
                                                    who, text);
                } else if (n && !(n == 1 && p[0] == '.')) {
                        depth++;
                }
                p += n + (p[n] == '/');
        }
        if (asprintf(&rel, "/%s", text) < 0)
                return -ENOMEM;
        normalize(rel);
        last = strrchr(rel, '/') + 1;
        if (depth == 0 || (glob && fnmatch(last, "..", FNM_PERIOD) == 0))
                return sbx_cmd_deny(c, seg, "%s: '%s' is a directory the command changed with cd (" RM_RULE ")", who, text);
        for (size_t i = 0; i < l->n && !c->denied; i++) {
                _cleanup_free_ char *prot = protected_path(l->v[i]);

                if (!prot)
                        return -ENOMEM;
                /* the protected path and each directory above it, named from any
                 * directory: any of their tails */
                while (!streq(prot, "/")) {
                        char *slash;

                        for (const char *tail = prot; (tail = strchr(tail, '/'));) {
                                tail++;
                                if (glob ? fnmatch(rel + 1, tail, FNM_PATHNAME | (c->dotglob ? 0 : FNM_PERIOD)) == 0
                                         : streq(rel + 1, tail))
                                        return sbx_cmd_deny(c, seg, "%s: '%s' may be protected '%s' after a cd (" RM_RULE ")",
                                                            who, text, prot);
                        }
                        slash = strrchr(prot, '/');
                        slash[slash == prot] = '\0';
                }
        }
        return 0;
}

/* A target of @who, after ~ and $HOME expansion and against the start directory. */
int sbx_rule_rm_target(struct sbx_cmd_ctx *c, const struct sbx_sh_word *t, const char *seg, const char *who)
{
        const struct sbx_cmd_policy *p = c->p;
        const char *text = t->text, *base = NULL, *rest = text, *last;
        _cleanup_free_ char *path = NULL, *shown = NULL;
        unsigned expected = 0;
        bool glob = t->flags & SBX_SH_GLOB;
        int r;

        if (!p->rm_protected.n)
                return 0;
        if (text[0] == '~' && (text[1] == '/' || !text[1]))
                rest = text + 1;
        else if (startswith(text, "$HOME") && (text[5] == '/' || !text[5]))
                rest = text + 5, expected = 1;
        else if (startswith(text, "${HOME}") && (text[7] == '/' || !text[7]))
                rest = text + 7, expected = 1;
        if ((t->flags & SBX_SH_BRACE) || (t->flags & SBX_SH_EXPAND && t->n_expand > expected) ||
            (rest == text && text[0] == '~' && (t->flags & SBX_SH_TILDE)))
                return sbx_cmd_deny(c, seg, "%s: target '%s' is computed at run time (" RM_RULE ")", who, text);
        if (rest != text && (c->home_unknown || !(base = p->home)))
                return sbx_cmd_deny(c, seg, "%s: target '%s' depends on HOME, which %s (" RM_RULE ")", who, text,
                                    c->home_unknown ? "the command sets" : "the policy does not know");
        if (!base && rest[0] != '/' && c->cwd_unknown)
                return check_unknown_cwd(c, seg, who, text, glob);
        if (!base)
                base = rest[0] == '/' ? "" : p->cwd ? p->cwd : "/";
        if (asprintf(&path, "%s/%s", base, rest) < 0)
                return -ENOMEM;
        normalize(path);
        if (asprintf(&shown, streq(path, text) ? "'%s'" : "'%s' ('%s')", text, path) < 0)
                return -ENOMEM;
        if ((r = check_removal(c, seg, who, shown, path, glob)) < 0 || c->denied || !glob)
                return r;
        /* "dir/.*" also matches "dir/.." (bash before 5.2), the directory above dir;
         * "*" never does, hence FNM_PERIOD. */
        last = strrchr(path, '/') + 1;
        if (strpbrk(last, "*?[") && fnmatch(last, "..", FNM_PERIOD) == 0) {
                _cleanup_free_ char *up = NULL;

                if (asprintf(&up, "%.*s..", (int)(last - path), path) < 0)
                        return -ENOMEM;
                normalize(up);
                r = check_removal(c, seg, who, shown, up, strpbrk(up, "*?[") != NULL);
        }
        return r;
}

int sbx_rule_rm(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w;
        const struct sbx_cmd_how *how = k->how;
        const char *seg = k->seg;
        size_t n = k->n;
        bool opts = true;
        int r = 0;

        for (size_t i = 1; i < n && r >= 0 && !c->denied; i++) {
                const char *t = w[i].text;

                if (opts && !sbx_cmd_computed(&w[i]) && t[0] == '-' && t[1]) {
                        /* GNU getopt takes any unambiguous prefix: --no-p, --no */
                        if (strlen(t) >= 3 && startswith("--no-preserve-root", t))
                                return sbx_cmd_deny(c, seg, "rm: --no-preserve-root is never allowed (" RM_RULE ")");
                        opts = !streq(t, "--");
                        continue;
                }
                if (!c->p->rm_protected.n)
                        continue;
                if (how->n_find_starts && strstr(t, "{}")) {
                        /* find -exec rm {}: {} is each start point and what is under it */
                        if (!streq(t, "{}"))
                                return sbx_cmd_deny(c, seg, "rm: target '%s' is built by find at run time (" RM_RULE ")", t);
                        for (size_t s = 0; s < how->n_find_starts && r >= 0 && !c->denied; s++)
                                r = sbx_rule_rm_target(c, &how->find_starts[s], seg, "find -exec rm");
                        continue;
                }
                r = sbx_rule_rm_target(c, &w[i], seg, "rm");
        }
        if (r >= 0 && !c->denied && how->runtime_args && c->p->rm_protected.n)
                return sbx_cmd_deny(c, seg, "rm: its targets come from stdin at run time (" RM_RULE ")");
        return r;
}

/* ------------------------------------------------------------------ chmod */

int sbx_rule_chmod(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w;
        const char *seg = k->seg;
        size_t n = k->n;
        const struct sbx_sh_word *mode = NULL;
        bool opts = true;

        if (!c->p->chmod_modes.n)
                return 0;
        for (size_t i = 1; i < n && !mode; i++) {
                const char *t = w[i].text;

                /* -x, -w, -rwx are modes, not options: only -R -c -f -v are those */
                if (!opts || sbx_cmd_computed(&w[i]) || t[0] != '-' || !t[1] ||
                    (t[1] != '-' && strspn(t + 1, "Rcfv") != strlen(t + 1)))
                        mode = &w[i];
                else if (startswith(t, "--ref"))
                        return sbx_cmd_deny(c, seg, "chmod: --reference copies a mode the policy cannot see (" CHMOD_RULE ")");
                else if (streq(t, "--"))
                        opts = false;
        }
        if (!mode)
                return k->how->runtime_args ? sbx_cmd_deny(c, seg, "chmod: its mode comes from stdin (" CHMOD_RULE ")") : 0;
        if (sbx_cmd_computed(mode))
                return sbx_cmd_deny(c, seg, "chmod: mode '%s' is computed at run time (" CHMOD_RULE ")", mode->text);
        if (!sbx_strv_contains(&c->p->chmod_modes, mode->text))
                return sbx_cmd_deny(c, seg, "chmod: mode '%s' is not allowed (" CHMOD_RULE ")", mode->text);
        return 0;
}

/* ------------------------------------------------------------------ kill */

static bool is_number(const char *s)
{
        if (*s == '-' || *s == '+')
                s++;
        return *s && strspn(s, "0123456789") == strlen(s);
}

/* $! and $$: a child of ours and ourselves, never -1 */
static bool is_own_pid(const char *t)
{
        return streq(t, "$!") || streq(t, "${!}") || streq(t, "$$") || streq(t, "${$}");
}

static int kill_target(struct sbx_cmd_ctx *c, const char *name, const struct sbx_sh_word *t, const char *seg)
{
        const struct sbx_strv *l = &c->p->kill_targets;

        if (!l->n) {
                /* anything else computed could be -1 */
                if (sbx_cmd_computed(t) && !is_own_pid(t->text))
                        return sbx_cmd_deny(c, seg, "%s: target '%s' is computed at run time (" KILL_RULE ")", name,
                                            t->text);
                if (streq(name, "kill") && is_number(t->text) && strtol(t->text, NULL, 10) == -1)
                        return sbx_cmd_deny(c, seg, "kill: target '%s' is every process (" KILL_RULE ")", t->text);
                return 0;
        }
        if (sbx_cmd_computed(t))
                return sbx_cmd_deny(c, seg, "%s: target '%s' is computed at run time (" KILL_RULE ")", name, t->text);
        for (size_t i = 0; i < l->n; i++)
                if (fnmatch(l->v[i], t->text, 0) == 0)
                        return 0;
        return sbx_cmd_deny(c, seg, "%s: target '%s' is not allowed (" KILL_RULE ")", name, t->text);
}

/* kill [-s SIG | -SIG | -n N] [--] target…; pkill and killall [options] pattern…. */
int sbx_rule_kill(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        /* the options that take a separate argument */
        static const char *const pkill_args[] = { "-g", "-G", "-P", "-s", "-t", "-u", "-U", "-F", "-q", "-O",
                                                  "--signal", "--ns", "--nslist", "--pidfile", "--group",
                                                  "--parent", "--session", "--terminal", "--euid", "--uid",
                                                  "--pgroup", "--older", "--cgroup", "--queue", NULL };
        static const char *const killall_args[] = { "-s", "--signal", "-u", "--user", "-o", "--older-than", "-y",
                                                    "--younger-than", "-n", "--ns", "-Z", "--context", NULL };
        static const char *const kill_args[] = { "-s", "-n", "--signal", "-q", "--queue", NULL };
        /* (killall's and kill's lists start with -s: a signal, not a selection) */
        const char *name = k->name, *seg = k->seg;
        const char *const *args = streq(name, "kill") ? kill_args : streq(name, "pkill") ? pkill_args : killall_args;
        const struct sbx_sh_word *w = k->w;
        bool opts = true, first = true, selects = false;
        size_t targets = 0, n = k->n;

        if (k->how->runtime_args)
                return sbx_cmd_deny(c, seg, "%s: its targets come from stdin at run time (" KILL_RULE ")", name);
        for (size_t i = 1; i < n; i++)
                if (!is_own_pid(w[i].text) && sbx_cmd_deny_splits(c, k, i, i + 1)) /* kill -s $S 1: S='9 -1' */
                        return 0;
        for (size_t i = 1; i < n && !c->denied; i++) {
                const char *t = w[i].text;
                bool is_first = first;

                first = false;
                if (opts && !sbx_cmd_computed(&w[i]) && t[0] == '-' && t[1]) {
                        if (streq(t, "--")) {
                                opts = false;
                                continue;
                        }
                        if (streq(t, "-l") || streq(t, "-L") || startswith(t, "--list") || streq(t, "--table"))
                                return 0;
                        for (size_t a = 0; args[a]; a++)
                                if (streq(t, args[a])) {
                                        /* pkill -u x, killall -o 1h: processes chosen by
                                         * something else than a name */
                                        selects = selects || !(streq(t, "--signal") || streq(t, "-q") ||
                                                               streq(t, "--queue") || streq(args[0], "-s"));
                                        i++;
                                        break;
                                }
                        /* -9 -KILL: a signal; later -N are process groups (kill -9 -1) */
                        if (!streq(name, "kill") || is_first || !is_number(t))
                                continue;
                }
                targets++;
                if (kill_target(c, name, &w[i], seg) < 0)
                        return -ENOMEM;
        }
        if (!c->denied && c->p->kill_targets.n && !targets && selects && !streq(name, "kill"))
                return sbx_cmd_deny(c, seg, "%s: selects processes without naming them (" KILL_RULE ")", name);
        return 0;
}

/* ------------------------------------------------------------------ find */

static bool find_expr_start(const char *t)
{
        return (t[0] == '-' && t[1]) || streq(t, "(") || streq(t, ")") || streq(t, "!") || streq(t, ",");
}

/* find's start points, then its expression: -exec CMD… ; runs CMD (with {} at or
 * under a start point), -delete removes start points and all under them. */
int sbx_rule_find(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const with_arg[] = {
                "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname",
                "-ilname", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-atime",
                "-ctime", "-mmin", "-amin", "-cmin", "-newer", "-anewer", "-cnewer", "-samefile", "-inum", "-links",
                "-maxdepth", "-mindepth", "-fstype", "-printf", "-fprint", "-fprint0", "-fls", "-context", "-used",
                "-files0-from", "-regextype", NULL,
        };
        static char dot[] = ".";
        static const struct sbx_sh_word here = { .text = dot };
        const struct sbx_sh_word *w = k->w;
        const struct sbx_cmd_how *how = k->how;
        const char *seg = k->seg;
        struct sbx_cmd_how inner = { 0 };
        size_t i = 1, first, n = k->n;
        int r = 0;

        /* find . -name $x: x could add -delete or -exec; find $d: d could too */
        if (sbx_cmd_deny_splits(c, k, 1, n))
                return 0;
        while (i < n && (streq(w[i].text, "-H") || streq(w[i].text, "-L") || streq(w[i].text, "-P") ||
                         startswith(w[i].text, "-O") || streq(w[i].text, "-D")))
                i += streq(w[i].text, "-D") ? 2 : 1;
        for (first = i; i < n && !find_expr_start(w[i].text); i++)
                ;
        inner.find_starts = i > first ? &w[first] : &here;
        inner.n_find_starts = i > first ? i - first : 1;
        inner.placeholder = "{}";
        for (; i < n && r >= 0 && !c->denied; i++) {
                const char *t = w[i].text;
                bool takes = false;

                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, seg, "find: expression '%s' is computed at run time", t);
                if (streq(t, "-exec") || streq(t, "-execdir") || streq(t, "-ok") || streq(t, "-okdir")) {
                        size_t end = i + 1;

                        /* -execdir runs in each match's directory: relative paths there
                         * are as unknown as after a cd */
                        c->saw_cd = c->saw_cd || strstr(t, "dir");
                        while (end < n && !streq(w[end].text, ";") &&
                               !(streq(w[end].text, "+") && streq(w[end - 1].text, "{}")))
                                end++;
                        if (how->runtime_args)
                                return sbx_cmd_deny(c, seg, "find %s: its arguments come from stdin at run time", t);
                        r = sbx_cmd_check_words(c, &w[i + 1], end - i - 1, seg, &inner, k->info);
                        i = end;
                        continue;
                }
                if (streq(t, "-delete")) {
                        if (how->runtime_args && c->p->rm_protected.n)
                                return sbx_cmd_deny(c, seg, "find -delete: its arguments come from stdin at run time (" RM_RULE ")");
                        for (size_t s = 0; s < inner.n_find_starts && r >= 0 && !c->denied; s++)
                                r = sbx_rule_rm_target(c, &inner.find_starts[s], seg, "find -delete");
                        continue;
                }
                for (size_t a = 0; with_arg[a] && !takes; a++)
                        takes = streq(t, with_arg[a]);
                i += streq(t, "-fprintf") ? 2 : takes || startswith(t, "-newer") ? 1 : 0;
        }
        return r;
}
