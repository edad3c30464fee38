/* SPDX-License-Identifier: MIT */
/* Tools that run commands or load code through their options: tar --to-command,
 * sort --compress-program, ssh -o ProxyCommand, rsync -e, zip -TT, man -P, gcc -wrapper,
 * make --eval, vim -c, gdb -ex, sqlite3 .shell…  A tool is a table of the options that
 * matter, read the way GNU getopt reads them (clusters, attached or separate arguments,
 * any unambiguous prefix of a long option, options after operands): an option whose
 * argument is a shell command has the command checked like any other; one that runs
 * code in a language the policy does not read, or loads a library, is denied.  Where a
 * tool has such options, a word computed at run time in its options could be one, and
 * is denied.  Programs a tool runs by a fixed name (tar -z runs gzip, git runs its own
 * helpers) are not the command line's choice: the allowlist in the kernel judges them. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/cleanup.h"
#include "commands-int.h"

/* ------------------------------------------------------------------ callbacks */

/* tar --checkpoint-action=exec=CMD */
static int tar_action(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        unsigned info = 0;

        if (!val)
                return 0;
        if (sbx_cmd_computed(val))
                return sbx_cmd_deny(c, k->seg, "tar: '%s' is computed at run time " SBX_UNREAD, opt);
        if (strncmp(val->text, "exec=", 5) == 0)
                return sbx_cmd_check_code(c, val->text + 5, false, k->seg, &info);
        return 0;
}

/* tar -f HOST:FILE reads a remote archive through rsh, unless --force-local. */
static int tar_file(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        const char *colon;

        (void)opt;
        if (!val)
                return 0;
        for (size_t i = 1; i < k->n; i++)
                if (streq(k->w[i].text, "--force-local"))
                        return 0;
        if (sbx_cmd_computed(val))
                return sbx_cmd_deny(c, k->seg, "tar: archive '%s' is computed at run time and may be a remote one, "
                                    "reached through rsh (use --force-local) " SBX_UNREAD, val->text);
        colon = strchr(val->text, ':');
        if (colon && !memchr(val->text, '/', (size_t)(colon - val->text)))
                return sbx_cmd_deny(c, k->seg, "tar: archive '%s' is a remote one, reached through rsh (use --force-local) "
                                    SBX_RUNS, val->text);
        return 0;
}

/* ssh -o OPTION: the options that run or load something. */
static int ssh_option(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        static const char *const bad[] = { "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand",
                                           "pkcs11provider", "securitykeyprovider", "include", "match",
                                           "proxyusefdpass", NULL };
        size_t n;

        (void)opt;
        if (!val)
                return 0;
        if (sbx_cmd_computed(val))
                return sbx_cmd_deny(c, k->seg, "%s: option '%s' is computed at run time " SBX_UNREAD, k->name, val->text);
        n = strcspn(val->text, "= \t");
        for (size_t i = 0; bad[i]; i++)
                if (n == strlen(bad[i]) && strncasecmp(val->text, bad[i], n) == 0)
                        return sbx_cmd_deny(c, k->seg, "%s: option '%s' runs a local command or loads code " SBX_RUNS,
                                            k->name, val->text);
        return 0;
}

/* wget -e COMMAND: a wgetrc command; use_askpass runs one. */
static int wget_execute(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        if (val && (sbx_cmd_computed(val) || strcasestr(val->text, "askpass")))
                return sbx_cmd_deny(c, k->seg, "wget: '-e %s' may run a command (use_askpass) " SBX_RUNS, val->text);
        return 0;
}

/* fzf --bind KEY:ACTION: execute(…), become(…) and the like run commands. */
static int fzf_bind(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        if (val && (sbx_cmd_computed(val) || strchr(val->text, '(')))
                return sbx_cmd_deny(c, k->seg, "fzf: '--bind %s' may run a command " SBX_RUNS, val->text);
        return 0;
}

/* psql -c, mysql -e, sqlite3 -cmd: SQL whose meta-commands run commands. */
static int sql_text(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *t, bool computed)
{
        static const char *const bad[] = { ".sh", ".system", ".load", ".once", ".output", ".excel", ".import", ".read",
                                           ".cd", ".open", "edit(", "load_extension", "\\!", "\\o", "\\g", "\\w",
                                           "\\copy", "\\i", "\\ir", "\\setenv", "\\s", "program", "system", "|", NULL };

        if (computed)
                return sbx_cmd_deny(c, k->seg, "%s: SQL computed at run time " SBX_UNREAD, k->name);
        for (size_t i = 0; bad[i]; i++)
                if (strcasestr(t, bad[i]))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' may run a command or load code ('%s') " SBX_RUNS, k->name, t,
                                            bad[i]);
        return 0;
}

static int sql_option(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        return val ? sql_text(c, k, val->text, sbx_cmd_computed(val)) : 0;
}

/* dc -e EXPR: '!' runs a command. */
static int dc_expr(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        if (val && (sbx_cmd_computed(val) || strchr(val->text, '!')))
                return sbx_cmd_deny(c, k->seg, "dc: '%s' may run a command ('!') " SBX_RUNS, val->text);
        return 0;
}

/* go -ldflags: an external linker is a program it runs. */
static int go_ldflags(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        if (val && (sbx_cmd_computed(val) || strstr(val->text, "extld")))
                return sbx_cmd_deny(c, k->seg, "go: '-ldflags %s' may name an external linker " SBX_RUNS, val->text);
        return 0;
}

/* cmake -D KEY=VALUE: a launcher, compiler or program is a command. */
static int cmake_define(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        static const char *const keys[] = { "*LAUNCHER*", "*COMPILER*", "*_COMMAND*", "*PROGRAM*", "*EXECUTABLE*",
                                            "*_LINKER*", "*_AR", "*_RANLIB", NULL };
        const char *eq;
        unsigned info = 0;

        (void)opt;
        if (!val)
                return 0;
        eq = strchr(val->text, '=');
        for (size_t i = 0; eq && keys[i]; i++) {
                _cleanup_free_ char *key = strndup(val->text, (size_t)(eq - val->text));

                if (!key)
                        return -ENOMEM;
                if (fnmatch(keys[i], key, 0) != 0)
                        continue;
                if (sbx_cmd_computed(val))
                        return sbx_cmd_deny(c, k->seg, "cmake: '%s' names a program computed at run time " SBX_UNREAD,
                                            val->text);
                return eq[1] ? sbx_cmd_check_code(c, eq + 1, false, k->seg, &info) : 0;
        }
        return 0;
}

/* make -f FILE: a makefile from stdin is a program the line feeds it, and so is one
 * from a process substitution; a computed name may be /dev/stdin. */
static int make_file(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        *k->info |= SBX_CMD_PROG_FILE;
        if (val && (val->flags & SBX_SH_PROCSUB))
                return sbx_cmd_deny(c, k->seg, "make: reads a makefile from a process substitution, computed at run "
                                    "time " SBX_UNREAD);
        if (val && (sbx_cmd_computed(val) || sbx_cmd_is_stdin_path(val->text)))
                *k->info |= SBX_CMD_PROG_STDIN;
        return 0;
}

/* ------------------------------------------------------------------ the tables */

#define RUNS_CMD "runs a command the policy cannot follow " SBX_RUNS
#define LOADS_LIB "loads code from a file " SBX_LOADS
#define INLINE "runs code given inline, in a language the policy does not read " SBX_UNREAD
#define CONFIG_FILE "reads a configuration file, which can name commands to run " SBX_LOADS

static const struct sbx_opt tar_opts[] = {
        OPT("I|use-compress-program", O_CODE),  OPT("F|info-script|new-volume-script", O_CODE),
        OPT("to-command", O_CODE),              OPT("rsh-command", O_CODE),
        OPT("rmt-command", O_CODE),             CALLOPT("checkpoint-action", tar_action),
        OPT("checkpoint", O_OPTARG),            CALLOPT("f|file", tar_file),
        OPT("b|C|g|H|K|L|N|T|V|X", O_ARG),      OPT("index-file|owner-map|group-map|volno-file|exclude-from", O_ARG),
        OPT_END,
};
static const struct sbx_opt cpio_opts[] = {
        OPT("rsh-command", O_CODE), CALLOPT("F|file|I|O", tar_file), OPT("E|H|M|R|owner|format|message", O_ARG),
        OPT_END,
};
static const struct sbx_opt patch_opts[] = {
        DENYOPT("g|get", O_DENY1, "gets files with RCS, SCCS, ClearCase or Perforce commands, named by the patch "
                SBX_RUNS),
        OPT("p|strip|i|input|o|output|r|reject-file|B|prefix|Y|basename-prefix|z|suffix|F|fuzz|d|directory|D|ifdef|V|"
            "version-control|quoting-style", O_ARG),
        OPT_END,
};
static const struct sbx_opt sort_opts[] = {
        OPT("compress-program", O_CODE), OPT("k|o|t|S|T|y", O_ARG), OPT("files0-from|batch-size|parallel", O_ARG), OPT_END,
};
static const struct sbx_opt split_opts[] = { OPT("filter", O_CODE), OPT("a|b|C|l|n|t", O_ARG), OPT_END };
static const struct sbx_opt install_opts[] = { OPT("strip-program", O_CODE), OPT("g|m|o|S|t", O_ARG), OPT_END };
static const struct sbx_opt diffprog_opts[] = { OPT("diff-program", O_CODE), OPT("o|L", O_ARG), OPT_END };
static const struct sbx_opt man_opts[] = {
        OPT("P|pager", O_CODE),   OPT("H|html", O_OPTCODE),  DENYOPT("C|config-file", O_DENY1, CONFIG_FILE),
        OPT("L|m|M|S|e|p|r|R|E", O_ARG), OPT_END,
};
static const struct sbx_opt zip_opts[] = {
        OPT("unzip-command", O_CODE), OPT("b|n|t|P|x|i|Z|O", O_ARG), OPT_END,
};
static const struct sbx_opt rsync_opts[] = {
        OPT("e|rsh", O_CODE),           OPT("rsync-path", O_CODE),       DENYOPT("M|remote-option", O_DENY1, "gives the "
          "remote rsync options, --rsync-path among them " SBX_RUNS),
        DENYOPT("config|daemon", O_DENY, "runs the rsync daemon from a configuration file " SBX_LOADS),
        OPT("B|f|T", O_ARG),            OPT("filter|exclude|include|files-from|exclude-from|include-from", O_ARG),
        OPT_END,
};
static const struct sbx_opt ssh_opts[] = {
        CALLOPT("o", ssh_option),           DENYOPT("F", O_DENY1, CONFIG_FILE),
        DENYOPT("I", O_DENY1, LOADS_LIB),                 OPT("S|E|i|J|L|R|D|b|c|e|l|m|O|p|Q|w|W|B", O_ARG),
        OPT_END,
};
static const struct sbx_opt scp_opts[] = {
        OPT("S", O_CODE),    OPT("D", O_CODE),    CALLOPT("o", ssh_option), DENYOPT("F", O_DENY1, CONFIG_FILE),
        DENYOPT("b", O_DENY1, "runs a batch of sftp commands, whose ! lines run local commands " SBX_RUNS),
        OPT("c|i|J|l|P|s|X|R|B", O_ARG), OPT_END,
};
static const struct sbx_opt wget_opts[] = {
        OPT("use-askpass", O_CODE), CALLOPT("e|execute", wget_execute), DENYOPT("config", O_DENY1, CONFIG_FILE),
        OPT("o|a|O|i|P|t|T|w|Q|U|D|X|I|A|R|l", O_ARG), OPT_END,
};
static const struct sbx_opt aria2_opts[] = {
        DENYOPT("on-download-start|on-download-complete|on-download-error|on-download-pause|on-download-stop|"
          "on-bt-download-complete", O_DENY1, RUNS_CMD),
        DENYOPT("conf-path", O_DENY1, CONFIG_FILE), OPT_END,
};
static const struct sbx_opt rg_opts[] = {
        OPT("pre", O_CODE), OPT("pre-glob|e|f|g|t|T|A|B|C|j|m|M|r|E|d|regexp|file|glob|type|type-not|replace", O_ARG),
        OPT_END,
};
static const struct sbx_opt fzf_opts[] = {
        OPT("preview", O_CODE), CALLOPT("bind", fzf_bind), DENYOPT("with-shell|listen|listen-unsafe", O_DENY1, RUNS_CMD),
        OPT_END,
};
static const struct sbx_opt script_opts[] = {
        OPT("c|command", O_CODE), OPT("B|E|I|O|m|o|T|log-in|log-out|log-io|log-timing|echo|logging-format", O_ARG),
        OPT("t|timing", O_OPTARG), OPT_END,
};
static const struct sbx_opt make_opts[] = {
        DENYOPT("E|eval", O_DENY1, "is makefile code given inline, whose $(shell …) runs commands " SBX_UNREAD),
        CALLOPT("f|file|makefile", make_file),
        OPT("C|directory|I|include-dir|j|jobs|l|load-average|o|old-file|assume-old|W|what-if|new-file|assume-new", O_ARG),
        OPT("O|output-sync|debug|jobserver-style|shuffle", O_OPTARG), OPT_END,
};
static const struct sbx_opt vim_opts[] = {
        DENYOPT("c|cmd", O_DENY1, INLINE), OPT("S|s|u|U|T|i|r|t|q|w|W|V", O_ARG), OPT_END,
};
static const struct sbx_opt emacs_opts[] = {
        DENYOPT("eval|execute|funcall|f", O_DENY1, INLINE), OPT("l|load|script|L|directory", O_ARG), OPT_END_SD,
};
static const struct sbx_opt gdb_opts[] = {
        DENYOPT("ex|eval-command|iex|init-eval-command", O_DENY1, INLINE),
        OPT("x|command|ix|init-command|p|pid|cd|d|directory|s|symbols|e|exec|se|c|core|b|D|data-directory", O_ARG),
        OPT_END_SD,
};
static const struct sbx_opt lldb_opts[] = {
        DENYOPT("o|one-line|O|one-line-before-file|k|one-line-on-crash|K|source-on-crash", O_DENY1, INLINE),
        OPT("s|source|S|source-before-file|p|attach-pid|n|attach-name|a|arch|c|core", O_ARG), OPT_END_SD,
};
static const struct sbx_opt dc_opts[] = { CALLOPT("e|expression", dc_expr), OPT("f|file", O_ARG), OPT_END };
static const struct sbx_opt sqlite_opts[] = {
        CALLOPT("cmd", sql_option), OPT("init|separator|newline|nullvalue|A|archive|vfs|zip", O_ARG), OPT_END_SD,
};
static const struct sbx_opt psql_opts[] = {
        CALLOPT("c|command", sql_option),
        OPT("d|dbname|f|file|h|host|p|port|U|username|v|set|variable|o|output|L|log-file|P|pset|F|R|T", O_ARG),
        OPT_END,
};
static const struct sbx_opt mysql_opts[] = {
        CALLOPT("e|execute", sql_option), CALLOPT("init-command", sql_option),
        OPT("pager", O_CODE), DENYOPT("plugin-dir|default-auth", O_DENY1, LOADS_LIB),
        DENYOPT("defaults-file|defaults-extra-file", O_DENY1, CONFIG_FILE),
        OPT("u|user|h|host|P|port|D|database|S|socket", O_ARG), OPT_END,
};
static const struct sbx_opt openssl_opts[] = {
        DENYOPT("engine|provider|provider-path|config|keylogfile", O_DENY1, LOADS_LIB), OPT_END_SD,
};
static const struct sbx_opt gpg_opts[] = {
        DENYOPT("exec-path|photo-viewer|load-extension|options|list-options|verify-options", O_DENY1,
                "may run a program or load code " SBX_RUNS),
        OPT_END,
};
static const struct sbx_opt ld_opts[] = { DENYOPT("plugin|plugin-opt", O_DENY1, LOADS_LIB), OPT_END_SD };
static const struct sbx_opt cargo_opts[] = {
        DENYOPT("config", O_DENY1, "sets cargo configuration, which names the programs it runs " SBX_LOADS),
        DENYOPT("Z", O_DENY1, "turns on unstable cargo features " SBX_LOADS),
        OPT("p|package|j|jobs|target|target-dir|manifest-path|features|F|bin|example|test|bench|color|message-format|"
          "profile|exclude|C", O_ARG),
        OPT_END,
};
static const struct sbx_opt npm_opts[] = {
        OPT("global|g|user|init|save|save-dev|silent|s|shallow", O_FLAG),
        DENYOPT("script-shell|shell|node-options|userconfig|globalconfig|editor|browser|viewer|git|init-module|"
                "onload-script", O_DENY, "configures a command npm runs or a file it reads " SBX_LOADS),
        OPT("c|call", O_CODE),
        OPT_END,
};

/* ------------------------------------------------------------------ tools with a structure */

static int check_tar(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        /* tar xzf A: the first word without a dash is a cluster of options whose
         * arguments follow in order; -I and -F there cannot be matched with theirs */
        if (k->n > 1 && k->w[1].text[0] != '-' && !sbx_cmd_computed(&k->w[1]) && strpbrk(k->w[1].text, "IF"))
                return sbx_cmd_deny(c, k->seg, "tar: '%s' holds -I or -F, which run commands; write them as -I PROG "
                                    "to have them checked " SBX_RUNS, k->w[1].text);
        if (k->n > 1 && k->w[1].text[0] != '-' && strchr(k->w[1].text, 'f') && k->n > 2) {
                /* the archive is the first word after the cluster (with f first of
                 * those that take one) */
                int r = tar_file(c, k, "f", &k->w[2]);

                if (r < 0 || c->denied)
                        return r;
        }
        return sbx_opts_scan(c, k, 1, tar_opts);
}

static int check_zip(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i + 1 < k->n; i++)
                if (streq(k->w[i].text, "-TT")) {
                        const struct sbx_opt o = OPT("TT", O_CODE);

                        return sbx_opt_apply(c, k, &o, "-TT", &k->w[i + 1]);
                }
        return sbx_opts_scan(c, k, 1, zip_opts);
}

/* less +CMD and more +CMD: a number, a search, G or F; anything else may be a command
 * (+!cmd runs one, +|cmd pipes to one, +v an editor). */
static int check_pager(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const struct sbx_opt less_opts[] = {
                DENYOPT("k|lesskey-file|lesskey-src|lesskey-content", O_DENY1, "reads key bindings, which may run commands "
                  SBX_LOADS),
                OPT("b|h|j|o|O|p|P|t|T|x|y|z", O_ARG), OPT_END,
        };

        for (size_t i = 1; i < k->n; i++) {
                const struct sbx_sh_word *w = &k->w[i];
                const char *t = w->text;

                if (streq(t, "--"))
                        break;
                if (sbx_cmd_computed(w) && sbx_cmd_may_become(w, '+'))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' is computed at run time and may be a command for it to "
                                            "run at start (+cmd) " SBX_UNREAD, k->name, t);
                if (t[0] != '+')
                        continue;
                t += strspn(t, "+");
                if (sbx_cmd_computed(w) || !(t[0] == '/' || t[0] == '?' || (strspn(t, "0123456789") == strlen(t)) ||
                                             (strspn(t, "0123456789") == strlen(t) - 1 && strchr("GgFfpP%", t[strlen(t) - 1]))))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' is a command for it to run at start, which may run a "
                                            "shell command " SBX_RUNS, k->name, w->text);
        }
        return streq(k->name, "less") ? sbx_opts_scan(c, k, 1, less_opts) : 0;
}

/* gcc, cc, clang, c++ …: plugins, wrappers and program directories; response files. */
static int check_cc(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text, *why;

                if (sbx_cmd_computed(&k->w[i]) && (sbx_cmd_may_become(&k->w[i], '-') || sbx_cmd_may_become(&k->w[i], '@')))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' may be an option at run time, and some load code or "
                                            "run programs (write ./%s for files) " SBX_UNREAD, k->name, t, t);
                if ((t[0] == '-' || t[0] == '@') && (why = sbx_cmd_cc_flag(t)))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' %s " SBX_LOADS, k->name, t, why);
                if ((streq(t, "-Xclang") || streq(t, "-Xlinker") || streq(t, "-Xassembler") || streq(t, "-Xpreprocessor")) &&
                    i + 1 < k->n && (strstr(k->w[i + 1].text, "plugin") || strstr(k->w[i + 1].text, "load") ||
                                     sbx_cmd_computed(&k->w[i + 1])))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s %s' loads a plugin " SBX_LOADS, k->name, t, k->w[i + 1].text);
        }
        return 0;
}

/* go build/test/run/vet: -exec, -toolexec, -vettool run commands, and -ldflags may
 * name an external linker; go env -w writes variables go reads.  go's flags are
 * -name, -name=value or -name value; a computed word is only safe as the value of a
 * flag that takes one. */
static int check_go(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const with_arg[] = {
                "run", "bench", "count", "timeout", "tags", "o", "p", "cpu", "parallel", "coverprofile", "covermode",
                "coverpkg", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "outputdir", "trace", "benchtime",
                "skip", "shuffle", "fuzz", "fuzztime", "C", "modfile", "mod", "pgo", "gcflags", "asmflags", "ldflags",
                "overlay", "buildmode", "compiler", "installsuffix", "pkgdir", "exec", "toolexec", "vettool", "list",
                "f", NULL,
        };
        unsigned info = 0;
        bool prev_takes = false;

        for (size_t i = 1; i < k->n && !c->denied; i++) {
                const char *t = k->w[i].text, *name = t + strspn(t, "-");
                size_t len = strcspn(name, "=");
                _cleanup_free_ char *flag = strndup(name, len);
                const struct sbx_sh_word *val = NULL;
                struct sbx_sh_word att = { .text = (char *)name + len + 1, .flags = k->w[i].flags };
                bool takes = prev_takes;

                prev_takes = false;
                if (!flag)
                        return -ENOMEM;
                if (sbx_cmd_computed(&k->w[i])) {
                        if (takes || !sbx_cmd_may_become(&k->w[i], '-'))
                                continue;
                        return sbx_cmd_deny(c, k->seg, "go: '%s' may be an option at run time, and some of go's "
                                            "options run commands " SBX_UNREAD, t);
                }
                if (takes || t[0] != '-' || streq(t, "--"))
                        continue;
                prev_takes = !name[len] && in_list(with_arg, flag);
                if (name[len])
                        val = &att;
                else if (prev_takes && i + 1 < k->n)
                        val = &k->w[i + 1];
                if (!val)
                        continue;
                if (streq(flag, "exec") || streq(flag, "toolexec") || streq(flag, "vettool")) {
                        if (sbx_cmd_computed(val))
                                return sbx_cmd_deny(c, k->seg, "go: '%s' runs a command computed at run time " SBX_UNREAD, t);
                        if (sbx_cmd_check_code(c, val->text, false, k->seg, &info) < 0)
                                return -ENOMEM;
                } else if (streq(flag, "ldflags") && go_ldflags(c, k, t, val) < 0) {
                        return -ENOMEM;
                }
        }
        /* go env -w NAME=VALUE: as if the variable were set */
        if (k->n > 2 && streq(k->w[1].text, "env"))
                for (size_t i = 2; i < k->n && !c->denied; i++)
                        if (strchr(k->w[i].text, '=') && k->w[i].text[0] != '-') {
                                int r = sbx_cmd_check_assignment(c, &k->w[i], k->seg);

                                if (r < 0)
                                        return r;
                        }
        return 0;
}

/* cmake -E env|chdir|time COMMAND…: a wrapper; -D KEY=VALUE may name programs. */
static int check_cmake(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const struct sbx_opt opts[] = { CALLOPT("D", cmake_define), OPT("C|G|T|A|S|B|P", O_ARG), OPT_END };

        for (size_t i = 1; i + 1 < k->n; i++)
                if (streq(k->w[i].text, "-E")) {
                        const char *sub = k->w[i + 1].text;
                        size_t at = i + 2;

                        if (sbx_cmd_computed(&k->w[i + 1]))
                                return sbx_cmd_deny(c, k->seg, "cmake -E: '%s' is computed at run time " SBX_UNREAD, sub);
                        if (streq(sub, "chdir")) {
                                at++;
                                c->saw_cd = true;
                        } else if (streq(sub, "env")) {
                                for (; at < k->n && (strchr(k->w[at].text, '=') || k->w[at].text[0] == '-'); at++)
                                        if (k->w[at].text[0] != '-' && sbx_cmd_check_assignment(c, &k->w[at], k->seg) < 0)
                                                return -ENOMEM;
                        } else if (!streq(sub, "time")) {
                                return 0;
                        }
                        return at < k->n ? sbx_cmd_check_words(c, k->w + at, k->n - at, k->seg, k->how, k->info) : 0;
                }
        return sbx_opts_scan(c, k, 1, opts);
}

/* npx CMD…, npm exec CMD…, pnpm exec/dlx, yarn exec/dlx: the command after the options
 * runs; npm config set KEY for the keys that name commands. */
static int check_npm(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const bad_keys[] = { "script-shell", "shell", "node-options", "userconfig", "globalconfig",
                                                "editor", "browser", "viewer", "git", "init-module", "onload-script",
                                                NULL };
        static const char *const with_arg[] = { "-p", "--package", "-w", "--workspace", "--prefix", "-C", "--dir", NULL };
        bool runner = streq(k->name, "npx") || streq(k->name, "pnpx") || streq(k->name, "bunx");
        size_t i = 1;
        int r;

        if ((r = sbx_opts_scan(c, k, 1, npm_opts)) < 0 || c->denied)
                return r;
        for (; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (streq(t, "--")) {
                        i++;
                        break;
                }
                if (t[0] == '-') {
                        i += in_list(with_arg, t);
                        continue;
                }
                if (runner)
                        break;
                if (streq(t, "exec") || streq(t, "x") || streq(t, "dlx")) {
                        runner = true;
                        continue;
                }
                if ((streq(t, "config") || streq(t, "c")) && i + 2 < k->n && streq(k->w[i + 1].text, "set"))
                        i++;
                else if (!streq(t, "set"))
                        return 0;
                for (size_t j = i + 1; j < k->n; j++)
                        for (size_t b = 0; bad_keys[b]; b++)
                                if (strncmp(k->w[j].text, bad_keys[b], strlen(bad_keys[b])) == 0)
                                        return sbx_cmd_deny(c, k->seg, "%s: setting '%s' names a command npm runs " SBX_LOADS,
                                                            k->name, k->w[j].text);
                return 0;
        }
        return runner && i < k->n ? sbx_cmd_check_words(c, k->w + i, k->n - i, k->seg, k->how, k->info) : 0;
}

/* fd -x CMD… / -X CMD…: the words up to ';' are a command run on each match. */
static int check_fd(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const struct sbx_cmd_how runtime = { .runtime_args = true, .placeholder = "{" };

        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;
                size_t end = i + 1;

                if (!(streq(t, "-x") || streq(t, "--exec") || streq(t, "-X") || streq(t, "--exec-batch")))
                        continue;
                while (end < k->n && !streq(k->w[end].text, ";"))
                        end++;
                return end > i + 1 ? sbx_cmd_check_words(c, k->w + i + 1, end - i - 1, k->seg, &runtime, k->info) : 0;
        }
        return 0;
}

/* ed FILE: a FILE of "!cmd" reads a command's output. */
static int check_ed(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++)
                if (k->w[i].text[0] == '!' || (sbx_cmd_computed(&k->w[i]) && k->w[i].text[0] != '-'))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' may be a shell command whose output it reads " SBX_RUNS,
                                            k->name, k->w[i].text);
        return 0;
}

/* m4: syscmd and esyscmd run commands, whatever renames them. */
static int check_m4(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++)
                if (strstr(k->w[i].text, "syscmd") || (sbx_cmd_computed(&k->w[i]) && k->w[i].text[0] != '-'))
                        return sbx_cmd_deny(c, k->seg, "m4: '%s' may run a command (syscmd) " SBX_RUNS, k->w[i].text);
        return 0;
}

/* sqlite3 [OPTIONS] DB [SQL…]: the SQL after the database may hold dot-commands. */
static int check_sqlite(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        size_t ops = 0;
        int r = sbx_opts_scan(c, k, 1, sqlite_opts);

        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++) {
                const char *t = k->w[i].text;

                if (t[0] == '-' && !sbx_cmd_computed(&k->w[i])) {
                        i += streq(t, "-cmd") || streq(t, "-init") || streq(t, "-separator") || streq(t, "-newline") ||
                             streq(t, "-nullvalue") || streq(t, "-vfs");
                        continue;
                }
                if (ops++ > 0)
                        r = sql_text(c, k, t, sbx_cmd_computed(&k->w[i]));
        }
        return r;
}

/* socat ADDRESS ADDRESS: an EXEC:, SYSTEM: or SHELL: address (of either side, or of a
 * dual one, A!!B) runs a command; an address computed at run time may be one. */
static int check_socat(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const runs[] = { "exec", "system", "shell", NULL };

        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (sbx_cmd_computed(&k->w[i]))
                        return sbx_cmd_deny(c, k->seg, "socat: '%s' is computed at run time, and an EXEC: or SYSTEM: "
                                            "address runs a command " SBX_UNREAD, t);
                for (const char *a = t; *a; a += strcspn(a, "!"), a += strspn(a, "!")) {
                        size_t len = strcspn(a, ":,!");

                        for (size_t j = 0; runs[j]; j++)
                                if (len == strlen(runs[j]) && strncasecmp(a, runs[j], len) == 0)
                                        return sbx_cmd_deny(c, k->seg, "socat: address '%s' runs a command " SBX_RUNS, t);
                }
        }
        return 0;
}

/* nc: -e, -c (traditional netcat), ncat's --exec, --sh-exec, --lua-exec run a command. */
static int check_netcat(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (sbx_cmd_computed(&k->w[i]) && t[0] != '-')
                        continue; /* a host or a port */
                if (sbx_cmd_computed(&k->w[i]) || strncmp(t, "--exec", 6) == 0 || strncmp(t, "--sh-exec", 9) == 0 ||
                    strncmp(t, "--lua-exec", 10) == 0 || (t[0] == '-' && t[1] != '-' && strpbrk(t + 1, "ec")))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' may run a command for each connection " SBX_RUNS,
                                            k->name, t);
        }
        return 0;
}

static int check_multiplexer(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const ok[] = { "-V", "-v", "ls", "list-sessions", "list-windows", "list-panes",
                                          "list-clients", "has-session", "-ls", "-list", "--version", NULL };

        if (k->n == 1 || in_list(ok, k->w[1].text))
                return 0;
        return sbx_cmd_deny(c, k->seg, "%s runs commands in a terminal of its own " SBX_RUNS, k->name);
}

static int check_scheduler(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        if (streq(k->name, "crontab") && k->n == 2 && streq(k->w[1].text, "-l"))
                return 0;
        return sbx_cmd_deny(c, k->seg, "%s schedules commands to run later, outside this check " SBX_RUNS, k->name);
}

/* vim +CMD runs an ex command at start (+NUMBER and +/PATTERN only move); -e and -s
 * read ex commands from stdin. */
static int check_vim(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++) {
                const char *t = k->w[i].text;

                if (streq(t, "--"))
                        break;
                if (t[0] == '+' && !(strspn(t + 1, "0123456789") == strlen(t + 1) || t[1] == '/') )
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' " INLINE, k->name, t);
                if (t[0] == '-' && t[1] != '-' && strpbrk(t + 1, "eEs") && !strpbrk(t + 1, "SuUTirtqwWV"))
                        *k->info |= SBX_CMD_PROG_STDIN;
        }
        return sbx_opts_scan(c, k, 1, vim_opts);
}

/* The dynamic loader runs the program it is given: ld.so [OPTIONS] PROGRAM ARGS. */
static int check_ldso(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const loads[] = { "--preload", "--audit", "--library-path", "--glibc-hwcaps-prepend", NULL };
        static const char *const with_arg[] = { "--argv0", "--inhibit-rpath", "--glibc-hwcaps-mask", NULL };
        size_t i = 1;

        for (; i < k->n; i++) {
                const char *t = k->w[i].text;
                size_t len = strcspn(t, "=");

                if (sbx_cmd_computed(&k->w[i]))
                        return sbx_cmd_deny(c, k->seg, "%s: '%s' is computed at run time " SBX_UNREAD, k->name, t);
                if (streq(t, "--list") || streq(t, "--verify") || streq(t, "--help") || streq(t, "--version") ||
                    streq(t, "--list-tunables") || streq(t, "--list-diagnostics"))
                        return 0;
                if (t[0] != '-')
                        break;
                for (size_t j = 0; loads[j]; j++)
                        if (strlen(loads[j]) == len && strncmp(t, loads[j], len) == 0)
                                return sbx_cmd_deny(c, k->seg, "%s: '%s' loads code from where it points " SBX_LOADS, k->name,
                                                    t);
                i += !t[len] && in_list(with_arg, t);
        }
        return i < k->n ? sbx_cmd_check_words(c, k->w + i, k->n - i, k->seg, k->how, k->info) : 0;
}

static int check_script_tool(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        return sbx_opts_scan(c, k, 1, script_opts);
}

/* make NAME=VALUE (also NAME:=, NAME+=, NAME?=, NAME!=): make expands $(…) in VALUE,
 * $(shell …) among them; NAME!= runs VALUE; a program variable (CC, SHELL…) is a
 * command its built-in rules run; and a recipe that uses $(NAME) runs VALUE's shell
 * syntax.  The value of a variable no built-in rule runs is otherwise data. */
static int make_var(struct sbx_cmd_ctx *c, const char *item, unsigned flags, const char *seg)
{
        static const char *const programs[] = {
                "SHELL", "MAKESHELL", "MAKE", "CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "F77", "PC", "CO", "GET", "LEX",
                "YACC", "LINT", "M2C", "MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "RM",
                "INSTALL", "STRIP", "RANLIB", "NM", "OBJCOPY", "OBJDUMP", "PKG_CONFIG", "PYTHON", "PERL", "GO", "CARGO",
                NULL,
        };
        static const char *const cc_flags[] = { "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "FFLAGS", "LDLIBS",
                                                "TARGET_ARCH", NULL };
        size_t len = strcspn(item, ":+?!=");
        const char *eq = strchr(item, '='), *value = eq ? eq + 1 : "";
        _cleanup_free_ char *name = strndup(item, len);
        unsigned info = 0;

        if (!name)
                return -ENOMEM;
        if (!eq)
                return 0;
        if (flags & SBX_SH_COMPUTED)
                return sbx_cmd_deny(c, seg, "make: '%s' is computed at run time, and make expands and runs what its "
                                    "values hold " SBX_UNREAD, item);
        if (eq > item && eq[-1] == '!')
                return sbx_cmd_check_code(c, value, false, seg, &info);
        if (strchr(value, '$'))
                return sbx_cmd_deny(c, seg, "make: '%s': make expands the $ in it, and $(shell …) would run a command "
                                    SBX_UNREAD, item);
        if (in_list(programs, name))
                return value[0] ? sbx_cmd_check_code(c, value, false, seg, &info) : 0;
        if (strstr(name, "MAKEFLAGS") || streq(name, "MFLAGS"))
                return sbx_tool_makeflags(c, value, seg);
        if (in_list(cc_flags, name))
                for (const char *p = value; *p; p += strcspn(p, " \t"), p += strspn(p, " \t")) {
                        _cleanup_free_ char *flag = strndup(p, strcspn(p, " \t"));
                        const char *why = flag ? sbx_cmd_cc_flag(flag) : NULL;

                        if (!flag)
                                return -ENOMEM;
                        if (why)
                                return sbx_cmd_deny(c, seg, "make: %s: '%s' %s " SBX_LOADS, name, flag, why);
                }
        if (strpbrk(value, ";&|<>`()\n\\"))
                return sbx_cmd_deny(c, seg, "make: '%s' holds shell syntax, which a recipe that uses $(%s) would run "
                                    SBX_UNREAD, item, name);
        return 0;
}

int sbx_tool_makeflags(struct sbx_cmd_ctx *c, const char *value, const char *seg)
{
        _cleanup_free_ char *copy = strdup(value);
        char *save = NULL;
        int r = 0;

        if (!copy)
                return -ENOMEM;
        for (char *t = strtok_r(copy, " \t\n", &save); t && r >= 0 && !c->denied; t = strtok_r(NULL, " \t\n", &save)) {
                if (t[0] != '-' && strchr(t, '='))
                        r = make_var(c, t, 0, seg);
                else if (strncmp(t, "--ev", 4) == 0 || (t[0] != '-' || t[1] != '-' ? strchr(t, 'E') != NULL : false))
                        r = sbx_cmd_deny(c, seg, "MAKEFLAGS: '%s' gives make code inline (--eval) " SBX_UNREAD, t);
        }
        return r;
}

static int check_make(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        int r = sbx_opts_scan(c, k, 1, make_opts);

        /* make VAR=VALUE: a value make expands and recipes may run */
        for (size_t i = 1; i < k->n && r >= 0 && !c->denied; i++) {
                const char *t = k->w[i].text;

                if (t[0] == '-') {
                        i += strlen(t) == 2 && strchr("CIfjloWE", t[1]);
                        continue;
                }
                if (strchr(t, '='))
                        r = make_var(c, t, k->w[i].flags, k->seg);
        }
        return r;
}

/* ------------------------------------------------------------------ which tool */

struct tool {
        const char *names;        /* fnmatch patterns, '|' between them */
        const struct sbx_opt *opts;   /* read with scan() when @check is NULL */
        int (*check)(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k);
        unsigned info;            /* SBX_CMD_* it adds: reads its program from stdin */
};

static const struct tool tools[] = {
        { "tar|gtar|bsdtar", NULL, check_tar, 0 },
        { "sort", sort_opts, NULL, 0 },
        { "patch", patch_opts, NULL, 0 },
        { "cpio", cpio_opts, NULL, 0 },
        { "split", split_opts, NULL, 0 },
        { "install|ginstall", install_opts, NULL, 0 },
        { "diff3|sdiff", diffprog_opts, NULL, 0 },
        { "less|more|most", NULL, check_pager, 0 },
        { "man", man_opts, NULL, 0 },
        { "zip", NULL, check_zip, 0 },
        { "rsync", rsync_opts, NULL, 0 },
        { "ssh|slogin", ssh_opts, NULL, 0 },
        { "scp|sftp", scp_opts, NULL, 0 },
        { "wget|wget2", wget_opts, NULL, 0 },
        { "aria2c", aria2_opts, NULL, 0 },
        { "rg", rg_opts, NULL, 0 },
        { "fzf", fzf_opts, NULL, 0 },
        { "fd|fdfind", NULL, check_fd, 0 },
        { "script", NULL, check_script_tool, 0 },
        { "make|gmake|bmake", NULL, check_make, 0 },
        { "vim|vi|nvim|view|vimdiff|rvim|gvim|evim|vimx", NULL, check_vim, 0 },
        { "ex", NULL, check_vim, SBX_CMD_PROG_STDIN },
        { "emacs|emacs-nox", emacs_opts, NULL, 0 },
        { "gdb|gdb-multiarch", gdb_opts, NULL, SBX_CMD_PROG_STDIN },
        { "lldb|lldb-*", lldb_opts, NULL, SBX_CMD_PROG_STDIN },
        { "ed|red", NULL, check_ed, SBX_CMD_PROG_STDIN },
        { "dc", dc_opts, NULL, SBX_CMD_PROG_STDIN },
        { "m4", NULL, check_m4, SBX_CMD_PROG_STDIN },
        { "sqlite3|sqlite", NULL, check_sqlite, SBX_CMD_PROG_STDIN },
        { "psql", psql_opts, NULL, SBX_CMD_PROG_STDIN },
        { "mysql|mariadb", mysql_opts, NULL, SBX_CMD_PROG_STDIN },
        { "openssl", openssl_opts, NULL, 0 },
        { "gpg|gpg2", gpg_opts, NULL, 0 },
        { "ld-linux*.so*|ld.so|ld-*.so*|ld64.so*", NULL, check_ldso, 0 },
        { "ld|ld.*|lld|mold", ld_opts, NULL, 0 },
        /* gcc's drivers all take the driver's options (-B, -wrapper, -specs): cpp, the
         * other languages' and the target-prefixed, versioned names too. */
        { "gcc|gcc-*|g++|g++-*|cc|c++|c89|c99|clang|clang-[0-9]*|clang++|clang++-*|*-gcc|*-g++|*-gcc-*|*-g++-*|tcc|"
          "cpp|cpp-*|*-cpp|*-cpp-*|gfortran|gfortran-*|*-gfortran|*-gfortran-*|gccgo|gccgo-*|*-gccgo|*-gccgo-*|"
          "gdc|gdc-*|*-gdc|*-gdc-*|gm2|gm2-*|*-gm2|*-gm2-*",
          NULL, check_cc, 0 },
        { "go", NULL, check_go, 0 },
        { "cargo", cargo_opts, NULL, 0 },
        { "cmake", NULL, check_cmake, 0 },
        { "npm|npx|pnpm|pnpx|yarn|bunx", NULL, check_npm, 0 },
        { "socat|socat1|socat2", NULL, check_socat, 0 },
        { "nc|ncat|netcat|nc.traditional|nc.openbsd", NULL, check_netcat, 0 },
        { "tmux|screen|byobu", NULL, check_multiplexer, 0 },
        { "at|batch|crontab", NULL, check_scheduler, 0 },
        { "sed|gsed", NULL, sbx_tool_sed, 0 },
        { "awk|gawk|mawk|nawk|original-awk|busybox-awk", NULL, sbx_tool_awk, 0 },
};

static bool tool_named(const char *names, const char *name)
{
        _cleanup_free_ char *copy = strdup(names);
        char *save = NULL;

        if (!copy)
                return false;
        for (char *p = strtok_r(copy, "|", &save); p; p = strtok_r(NULL, "|", &save))
                if (fnmatch(p, name, 0) == 0)
                        return true;
        return false;
}

/* Has @k a "--" of its own, after which what xargs adds can only be operands? */
static bool has_end_of_options(const struct sbx_cmd_call *k)
{
        for (size_t i = 1; i < k->n; i++)
                if (streq(k->w[i].text, "--"))
                        return true;
        return false;
}

int sbx_cmd_check_tool(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        for (size_t i = 0; i < ELEMENTSOF(tools); i++) {
                if (!tool_named(tools[i].names, k->name))
                        continue;
                *k->info |= tools[i].info;
                /* xargs adds words at run time, and getopt reads options among them:
                 * a file named --to-command=… would be one (awk's options end at its
                 * program) */
                if (k->how->runtime_args && tools[i].check != sbx_tool_awk && !has_end_of_options(k))
                        return sbx_cmd_deny(c, k->seg, "%s: xargs adds words at run time, which it may read as options "
                                            "that run commands: put -- after its own arguments " SBX_UNREAD, k->name);
                return tools[i].check ? tools[i].check(c, k) : sbx_opts_scan(c, k, 1, tools[i].opts);
        }
        return 1;
}
