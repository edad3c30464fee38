/* SPDX-License-Identifier: MIT */
/* Commands that run other commands or code: wrappers (env, sudo, xargs, timeout…)
 * whose options are read to find the command they run, which is then checked like
 * any other; eval, watch, trap, su -c, flock -c, whose arguments are shell code.  A
 * wrapper that changes directory (env -C, sudo -D, chroot, and those whose options are
 * not modelled) makes relative paths of what it runs mean something else: the rm rules
 * then treat the directory as unknown. */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "../lib/plan.h"
#include "commands-int.h"

/* ------------------------------------------------------------------ code in arguments */

/* The words from @from on, joined by spaces and parsed again: eval ARGS, watch CMD. */
int sbx_cmd_check_joined(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from)
{
        _cleanup_free_ char *code = NULL;

        for (size_t i = from; i < k->n; i++)
                if (sbx_cmd_computed(&k->w[i]))
                        return sbx_cmd_deny(c, k->seg, "%s: its code is computed at run time " SBX_UNREAD, k->name);
        if (!(code = sbx_cmd_join(k->w + from, k->n - from)))
                return -ENOMEM;
        return sbx_cmd_check_code(c, code, false, k->seg, k->info);
}

/* Code held in an argument: trap CODE SIG…, su -c CODE, mapfile -C CODE. */
int sbx_cmd_arg_code(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_sh_word *w, const char *code)
{
        if (sbx_cmd_computed(w))
                return sbx_cmd_deny(c, k->seg, "%s: its code is computed at run time " SBX_UNREAD, k->name);
        return sbx_cmd_check_code(c, code, false, k->seg, k->info);
}

static int check_trap(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        size_t i = 1;

        if (i < k->n && streq(k->w[i].text, "--"))
                i++;
        /* trap -p, trap -l, trap SIG (a reset), trap - SIG, trap '' SIG */
        if (i + 1 >= k->n || k->w[i].text[0] == '-' || !k->w[i].text[0])
                return 0;
        return sbx_cmd_arg_code(c, k, &k->w[i], k->w[i].text);
}

/* su [options] [-] [user] [-c CODE]: a shell (-s SHELL names it), reading stdin unless
 * given -c. */
static int check_su(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const struct sbx_opt opts[] = {
                OPT("c|command|session-command", O_CODE), OPT("s|shell", O_CODE),
                OPT("g|group|G|supp-group|w|whitelist-environment", O_ARG), OPT_END,
        };
        int r;

        *k->info |= SBX_CMD_INTERP;
        if (sbx_cmd_deny_splits(c, k, 1, k->n))
                return 0;
        if ((r = sbx_opts_scan(c, k, 1, opts)) < 0 || c->denied)
                return r;
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (strncmp(t, "--command", 9) == 0 || strncmp(t, "--session-command", 17) == 0 ||
                    (t[0] == '-' && t[1] != '-' && strcspn(t, "gGws") > strcspn(t, "c")))
                        return 0; /* a command of its own: no shell on stdin */
        }
        *k->info |= SBX_CMD_SHELL_STDIN;
        return 0;
}

/* flock [options] FILE CMD…, flock [options] FILE -c CODE, flock -c CODE FILE. */
static int check_flock(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        const struct sbx_sh_word *w = k->w, *code = NULL;
        size_t i = 1;

        static const char *const longs[] = { "--shared", "--exclusive", "--unlock", "--nonblock", "--nb",
                                             "--close", "--no-fork", "--verbose", NULL };
        static const char *const with_arg[] = { "-w", "-E", "--timeout", "--wait", "--conflict-exit-code", NULL };
        static struct sbx_sh_word attached;

        for (; i < k->n && !code; i++) {
                const char *t = w[i].text;

                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, k->seg, "flock: argument '%s' is computed at run time", t);
                if (streq(t, "--")) {
                        i++;
                        break;
                }
                if (t[0] != '-' || !t[1])
                        break;
                if (streq(t, "-c") || streq(t, "--command")) {
                        code = i + 1 < k->n ? &w[++i] : NULL;
                } else if (strncmp(t, "--command=", 10) == 0) {
                        attached = (struct sbx_sh_word){ .text = w[i].text + 10, .flags = w[i].flags };
                        code = &attached;
                } else if (in_list(with_arg, t)) {
                        i++;
                } else if (t[1] == '-' ? !in_list(longs, t) && !strchr(t, '=')
                                       : strspn(t + 1, "sexnoFuv") != strlen(t + 1)) {
                        return sbx_cmd_deny(c, k->seg, "flock: unknown option '%s': cannot tell what it runs", t);
                }
        }
        if (sbx_cmd_deny_splits(c, k, 1, i))
                return 0;
        /* i is the lock file; flock FILE -c CODE */
        if (!code && i + 2 < k->n && (streq(w[i + 1].text, "-c") || streq(w[i + 1].text, "--command")))
                code = &w[i + 2];
        if (code)
                return sbx_cmd_arg_code(c, k, code, code->text);
        return i + 1 < k->n ? sbx_cmd_check_words(c, w + i + 1, k->n - i - 1, k->seg, k->how, k->info) : 0;
}

static int check_busybox(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        if (k->n < 2 || k->w[1].text[0] == '-')
                return 0; /* --list, --install, --help */
        return sbx_cmd_check_words(c, k->w + 1, k->n - 1, k->seg, k->how, k->info);
}

/* ------------------------------------------------------------------ wrappers */

/* A command that runs the command given after its options.  Options we do not know
 * are a deny: one that takes an argument would make us check the wrong word. */
struct wrapper {
        const char *name;
        const char *flags;    /* short options without an argument */
        const char *args;     /* short options with one */
        const char *optional; /* short options whose argument, if any, is attached (xargs -i) */
        const char *stop;     /* short options after which no command follows (command -v) */
        const char *shell;    /* short options that run a shell when no command is given; "*": always */
        const char *longs;    /* long options: "name", "name=" with an argument, "name!" then no command */
        unsigned positional;  /* words between the options and the command (timeout's DURATION) */
        bool assigns;         /* NAME=value words come before the command (env, sudo) */
        bool numeric;         /* -N is an option (nice -5) */
        bool more_args;       /* the command gets more arguments at run time (xargs) */
        bool joins;           /* the words are joined and run by sh -c, unless -x (watch) */
        const char *cd;       /* short options that change the directory the command runs in
                               * (the long one is --chdir); "*": it always does (chroot) */
};

static const struct wrapper wrappers[] = {
        { .name = "env", .flags = "i0v", .args = "uC", .assigns = true, .cd = "C",
          .longs = "ignore-environment null debug unset= chdir= block-signal default-signal ignore-signal "
                   "list-signal-handling help! version!" },
        { .name = "nice", .args = "n", .numeric = true, .longs = "adjustment= help! version!" },
        { .name = "nohup", .longs = "help! version!" },
        { .name = "timeout", .flags = "vfp", .args = "ks", .positional = 1,
          .longs = "foreground preserve-status verbose kill-after= signal= help! version!" },
        { .name = "time", .flags = "pvaq", .args = "of",
          .longs = "portability verbose append quiet format= output= help! version!" },
        { .name = "command", .flags = "p", .stop = "vV" },
        { .name = "exec", .flags = "cl", .args = "a" },
        { .name = "builtin" },
        { .name = "stdbuf", .args = "ioe", .longs = "input= output= error= help! version!" },
        { .name = "setsid", .flags = "cfw", .longs = "ctty fork wait help! version!" },
        { .name = "ionice", .flags = "t", .args = "cnpPu", .stop = "pPu",
          .longs = "class= classdata= ignore pid! pgid! uid! help! version!" },
        { .name = "xargs", .flags = "0oprtx", .args = "adEILnPs", .optional = "eil", .more_args = true,
          .longs = "null open-tty interactive no-run-if-empty verbose show-limits exit eof replace max-lines "
                   "arg-file= delimiter= max-args= max-procs= max-chars= process-slot-var= help! version!" },
        { .name = "sudo", .flags = "ABbEHiKklNnPSsVvh", .args = "CDghpRrTtUu", .stop = "eKVvh", .shell = "is",
          .assigns = true, .cd = "D",
          .longs = "askpass background bell preserve-env set-home login remove-timestamp reset-timestamp list "
                   "non-interactive preserve-groups stdin shell close-from= chdir= chroot= group= host= prompt= "
                   "role= type= command-timeout= other-user= user= login-class= auth-type= edit! help! version! "
                   "validate!" },
        { .name = "doas", .flags = "nsL", .args = "uC", .stop = "C", .shell = "s" },
        { .name = "chroot", .shell = "*", .positional = 1, .cd = "*",
          .longs = "userspec= groups= skip-chdir help! version!" },
        { .name = "taskset", .flags = "ac", .stop = "p", .positional = 1, .longs = "all-tasks cpu-list pid! help! version!" },
        { .name = "chrt", .flags = "bdfiormRaev", .args = "TPD", .stop = "pm", .positional = 1,
          .longs = "batch deadline fifo idle other rr reset-on-fork all-tasks verbose sched-runtime= "
                   "sched-period= sched-deadline= pid! max! help! version!" },
        { .name = "watch", .flags = "bcCegtwxpr", .args = "nq", .optional = "d", .joins = true,
          .longs = "beep color no-color differences errexit chgexit exec no-title no-wrap precise no-rerun "
                   "interval= equexit= help! version!" },
};

/* Commands that run other commands with options we do not model: every later word
 * that could start a command is checked as one, and every word that looks like shell
 * code as code.  (In allowlist mode that is a deny unless all of them are allowed.) */
static const char *const opaque_wrappers[] = {
        "strace", "ltrace", "valgrind", "catchsegv", "fakeroot", "fakechroot", "faketime", "proot", "firejail",
        "bwrap", "unshare", "nsenter", "setpriv", "systemd-run", "prlimit", "numactl", "cpulimit", "trickle",
        "unbuffer", "rlwrap", "torsocks", "proxychains", "proxychains4", "pkexec", "runcon", "chpst", "capsh",
        "sg", "parallel", "dbus-run-session", "ccache", "sccache", "distcc", "icecc", "perf", "nsjail", "entr",
        "chronic", "nq", "tsp", "sem", "setarch", "linux32", "linux64", "i386", "x86_64", "eatmydata", "nocache",
        "schroot", "xvfb-run", "dbus-launch", "start-stop-daemon", "daemonize", "ifne", "ssh-agent", "cgexec",
        "systemd-inhibit", "lckdo", "tsocks", NULL,
};

/* NAME=VALUE before the command of env or sudo: they take any NAME, even one no shell
 * would (BASH_FUNC_f%%=… defines a function for the bash they run). */
static bool wrapper_assignment(const char *t)
{
        return t[0] != '-' && t[0] != '=' && strchr(t, '=');
}

/* 0: unknown; 'f': a flag; 'a': takes an argument; 's': no command follows. */
static char long_option(const char *longs, const char *opt, size_t len)
{
        for (const char *p = longs ? longs : ""; *p;) {
                size_t n = strcspn(p, " "), base = n;
                char kind = 'f';

                if (p[n - 1] == '=' || p[n - 1] == '!') {
                        kind = p[n - 1] == '=' ? 'a' : 's';
                        base--;
                }
                if (base == len && strncmp(p, opt, len) == 0)
                        return kind;
                p += n + strspn(p + n, " ");
        }
        return 0;
}

/* Reads the wrapper's options; returns the index of the command, k->n when there is
 * none, or SIZE_MAX after a deny.  Sets *shell and *direct from what it saw. */
static size_t wrapper_options(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct wrapper *wr,
                              bool *shell, bool *direct)
{
        const struct sbx_sh_word *w = k->w;
        size_t i = 1;

        for (; i < k->n; i++) {
                const char *t = w[i].text;

                /* A computed word here could be an option, or split into several, and
                 * move the command to another word: only NAME="$x" is safe. */
                if (sbx_cmd_computed(&w[i]) &&
                    !(wr->assigns && wrapper_assignment(t) && !(w[i].flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE)))) {
                        sbx_cmd_deny(c, k->seg, "%s: argument '%s' is computed at run time: cannot tell what it runs",
                                     k->name, t);
                        return SIZE_MAX;
                }
                if (streq(t, "--"))
                        return i + 1;
                if (streq(t, "-") && streq(wr->name, "env"))
                        continue; /* env - is env -i */
                if (t[0] != '-' || !t[1])
                        return i;
                if (wr->numeric && strspn(t + 1, "0123456789") == strlen(t + 1))
                        continue;
                if (t[1] == '-') {
                        size_t len = strcspn(t + 2, "=");
                        char kind = long_option(wr->longs, t + 2, len);
                        const struct sbx_sh_word *val = t[2 + len] ? NULL : i + 1 < k->n ? &w[i + 1] : NULL;

                        if (kind == 's')
                                return k->n;
                        if (!kind)
                                break;
                        *direct = *direct || streq(t, "--exec");
                        c->saw_cd = c->saw_cd || strncmp(t, "--chdir", 7) == 0;
                        /* xargs --process-slot-var=NAME sets NAME in what it runs */
                        if (strncmp(t, "--process-slot-var", 18) == 0 && (t[2 + len] || val)) {
                                _cleanup_free_ char *name = strdup(t[2 + len] ? t + 3 + len : val->text);

                                if (!name || sbx_cmd_set_integer(c, name, k->seg, "xargs --process-slot-var") < 0)
                                        sbx_cmd_deny(c, k->seg, "out of memory");
                                if (c->denied)
                                        return SIZE_MAX;
                        }
                        i += kind == 'a' && !t[2 + len];
                        continue;
                }
                for (size_t j = 1; t[j]; j++) {
                        char o = t[j];

                        if (streq(wr->name, "env") && o == 'S') {
                                sbx_cmd_deny(c, k->seg, "env -S splits a string into a command line, which is not "
                                             "followed: give the words separately " SBX_UNREAD);
                                return SIZE_MAX;
                        }
                        c->saw_cd = c->saw_cd || (wr->cd && strchr(wr->cd, o));
                        if (wr->stop && strchr(wr->stop, o))
                                return k->n;
                        *shell = *shell || (wr->shell && strchr(wr->shell, o));
                        *direct = *direct || o == 'x';
                        if (wr->optional && strchr(wr->optional, o))
                                break;
                        if (wr->args && strchr(wr->args, o)) {
                                i += !t[j + 1];
                                break;
                        }
                        if (!wr->flags || !strchr(wr->flags, o)) {
                                sbx_cmd_deny(c, k->seg, "%s: unknown option '-%c': cannot tell what it runs", k->name, o);
                                return SIZE_MAX;
                        }
                }
        }
        if (i < k->n) {
                sbx_cmd_deny(c, k->seg, "%s: unknown option '%s': cannot tell what it runs", k->name, w[i].text);
                return SIZE_MAX;
        }
        return i;
}

/* xargs -I R, -IR, -i[R], --replace[=R]: R (default "{}") is replaced in every word of
 * the command, in the options before word @end. */
static int xargs_replace(const struct sbx_cmd_call *k, size_t end, const char **placeholder)
{
        for (size_t i = 1; i < end && i < k->n; i++) {
                const char *t = k->w[i].text;

                if (t[0] != '-' || t[1] == '-') {
                        if (strncmp(t, "--replace", 9) == 0)
                                *placeholder = t[9] == '=' ? t + 10 : "{}";
                        continue;
                }
                for (size_t j = 1; t[j]; j++) {
                        if (t[j] == 'i') {
                                *placeholder = t[j + 1] ? t + j + 1 : "{}";
                                break;
                        }
                        if (t[j] == 'I') {
                                if (!t[j + 1] && i + 1 < k->n && sbx_cmd_computed(&k->w[i + 1]))
                                        return -EINVAL;
                                *placeholder = t[j + 1] ? t + j + 1 : i + 1 < k->n ? k->w[++i].text : "{}";
                                break;
                        }
                        if (strchr("adEILnPs", t[j]))
                                break; /* the rest, or the next word, is its argument */
                }
        }
        if (*placeholder && !(*placeholder)[0])
                *placeholder = NULL;
        return 0;
}

static int unwrap(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct wrapper *wr)
{
        static char echo[] = "echo";
        static const struct sbx_sh_word xargs_default = { .text = echo };
        struct sbx_cmd_how how = *k->how;
        bool shell = wr->shell && wr->shell[0] == '*', direct = false;
        size_t i = wrapper_options(c, k, wr, &shell, &direct);
        int r = 0;

        c->saw_cd = c->saw_cd || (wr->cd && wr->cd[0] == '*');
        if (i == SIZE_MAX || sbx_cmd_deny_splits(c, k, 1, i)) /* the options' arguments too */
                return 0;
        for (; wr->assigns && i < k->n && wrapper_assignment(k->w[i].text) && r >= 0 && !c->denied; i++)
                r = sbx_cmd_check_assignment(c, &k->w[i], k->seg);
        for (unsigned p = 0; p < wr->positional && i < k->n; p++, i++)
                if (sbx_cmd_computed(&k->w[i]))
                        return sbx_cmd_deny(c, k->seg, "%s: argument '%s' is computed at run time: cannot tell what it runs",
                                            k->name, k->w[i].text);
        if (r < 0 || c->denied)
                return r;
        how.runtime_args = how.runtime_args || wr->more_args;
        if (wr->more_args && xargs_replace(k, i, &how.placeholder) < 0)
                return sbx_cmd_deny(c, k->seg, "xargs: its replacement string is computed at run time " SBX_UNREAD);
        /* command cd, builtin cd, time cd: still the shell's own cd */
        how.shell = k->shell && (streq(wr->name, "command") || streq(wr->name, "builtin") || streq(wr->name, "time"));
        if (i >= k->n) {
                if (shell)
                        *k->info |= SBX_CMD_SHELL_STDIN;
                return wr->more_args ? sbx_cmd_check_words(c, &xargs_default, 1, k->seg, &how, k->info) : 0;
        }
        if (wr->joins && !direct)
                return sbx_cmd_check_joined(c, k, i); /* watch CMD ARGS runs sh -c "CMD ARGS" */
        return sbx_cmd_check_words(c, k->w + i, k->n - i, k->seg, &how, k->info);
}

/* An option of a wrapper whose options are not modelled, that names a command to run:
 * strace -o '|CMD', valgrind --db-command=CMD, --exec=, --shell=… */
static bool opaque_runs(const struct sbx_cmd_call *k, size_t i)
{
        static const char *const words[] = { "command", "cmd", "exec", "shell", "script", "program", "hook", "wrapper",
                                             NULL };
        const char *t = k->w[i].text, *eq = strchr(t, '=');
        _cleanup_free_ char *opt = strndup(t, eq ? (size_t)(eq - t) : strlen(t));

        if (!opt)
                return true;
        if (streq(k->name, "strace") && (strncmp(t, "-o", 2) == 0 || strncmp(t, "--output", 8) == 0)) {
                const char *v = eq ? eq + 1 : t[2] && t[1] == 'o' ? t + 2 : i + 1 < k->n ? k->w[i + 1].text : "";

                return v[0] == '|' || v[0] == '!';
        }
        for (size_t j = 0; eq && words[j]; j++)
                if (strstr(opt, words[j]))
                        return true;
        return false;
}

static int check_opaque(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        struct sbx_cmd_how how = *k->how;
        struct sbx_cmd_call inner = *k;
        int r = 0;

        if (k->n > 64)
                return sbx_cmd_deny(c, k->seg, "%s: too many arguments to find the command it runs", k->name);
        /* Its options are not read: one may change directory (unshare --wd, bwrap
         * --chdir), and parallel fills in arguments at run time like xargs. */
        c->saw_cd = true;
        how.runtime_args = how.runtime_args || streq(k->name, "parallel") || streq(k->name, "sem");
        if (how.runtime_args)
                how.placeholder = "{"; /* parallel's {}, {.}, {/}, {#}, {1}… */
        inner.how = &how;
        k = &inner;
        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++) {
                const char *t = k->w[i].text;

                if (t[0] == '-' && !sbx_cmd_computed(&k->w[i]) && opaque_runs(k, i))
                        return sbx_cmd_deny(c, k->seg, "%s: option '%s' runs a command that cannot be followed " SBX_RUNS,
                                            k->name, t);
                if (t[0] == '-' && !sbx_cmd_computed(&k->w[i]))
                        continue;
                if (!sbx_cmd_computed(&k->w[i]) && strpbrk(t, " \t\n;|&$`()<>"))
                        r = sbx_cmd_check_code(c, t, false, k->seg, k->info);
                if (r >= 0)
                        r = sbx_cmd_check_words(c, k->w + i, k->n - i, k->seg, k->how, k->info);
        }
        return r;
}

static const struct {
        const char *name;
        int (*check)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
} handlers[] = {
        { "trap", check_trap },     { "su", check_su },           { "runuser", check_su },
        { "flock", check_flock },   { "busybox", check_busybox }, { "toybox", check_busybox },
};

int sbx_cmd_check_wrapper(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        if (streq(k->name, "eval"))
                return sbx_cmd_check_joined(c, k, 1);
        for (size_t i = 0; i < ELEMENTSOF(handlers); i++)
                if (streq(handlers[i].name, k->name))
                        return handlers[i].check(c, k);
        for (size_t i = 0; i < ELEMENTSOF(wrappers); i++)
                if (streq(wrappers[i].name, k->name))
                        return unwrap(c, k, &wrappers[i]);
        if (in_list(opaque_wrappers, k->name))
                return check_opaque(c, k);
        return 1;
}
