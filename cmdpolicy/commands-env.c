/* SPDX-License-Identifier: MIT */
/* Variables: what an assignment on the command line does to the programs that run
 * after it, and what the line may put in each variable.
 *
 * A variable is one of: a command a program runs (GIT_SSH_COMMAND, PAGER, CC: its value
 * is checked as a command), a prompt bash expands (PS4: its substitutions are checked),
 * flags a compiler reads (CFLAGS: checked like the compiler's own options), a variable
 * that makes programs load code or read configuration from a place the line chooses
 * (LD_PRELOAD, BASH_ENV, GIT_CONFIG_GLOBAL, HOME, TAR_OPTIONS…: denied), or data.
 * Environment variables of git that sbx does not know to be data are denied too: the
 * list of those that run commands grows with git.
 *
 * For the places where bash evaluates a variable's value as code (arithmetic,
 * subscripts, ${!x}; commands-bash.c), every value the line assigns is collected in a
 * first pass; a variable with a value known only at run time (read, a for list over
 * files, a command's output) or none on the line (the environment's) cannot be proven
 * inert. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/cleanup.h"
#include "../lib/hash.h"
#include "../lib/plan.h"
#include "commands-int.h"

/* ------------------------------------------------------------------ classes */

enum var_kind {
        VAR_DATA,
        VAR_CODE,   /* a program runs the value as a command */
        VAR_PROMPT, /* bash expands the value as a prompt */
        VAR_DENY,   /* makes programs load code or configuration from elsewhere */
        VAR_FLAGS,  /* compiler flags */
        VAR_CHECK,  /* options of one program, checked by a function */
};

struct var_rule {
        const char *pattern; /* fnmatch(3) */
        enum var_kind kind;
        const char *why;     /* VAR_DENY */
};

#define LOADS "makes programs load code from where it points"
#define CONFIG "makes a program read its configuration from where it points"

static const struct var_rule var_rules[] = {
        /* the dynamic loader and libc */
        { "LD_*", VAR_DENY, LOADS }, { "GCONV_PATH", VAR_DENY, LOADS }, { "GLIBC_TUNABLES", VAR_DENY, LOADS },
        /* shells */
        { "BASH_ENV", VAR_DENY, "makes bash run the file it names" }, { "ENV", VAR_DENY, "makes sh run the file it names" },
        { "BASH_FUNC_*", VAR_DENY, "defines a bash function from the environment" },
        { "SHELLOPTS", VAR_DENY, "sets bash options from the environment" },
        { "BASHOPTS", VAR_DENY, "sets bash options from the environment" },
        { "BASH_LOADABLES_PATH", VAR_DENY, LOADS }, { "BASH_XTRACEFD", VAR_DATA, NULL },
        { "ZDOTDIR", VAR_DENY, "makes zsh run the startup files there" },
        { "FPATH", VAR_DENY, "makes ksh and zsh load functions from there" },
        { "PS0", VAR_PROMPT, NULL }, { "PS1", VAR_PROMPT, NULL }, { "PS2", VAR_PROMPT, NULL },
        { "PS3", VAR_PROMPT, NULL }, { "PS4", VAR_PROMPT, NULL }, { "PROMPT_COMMAND", VAR_CODE, NULL },
        { "SHELL", VAR_CODE, NULL }, { "HOME", VAR_DENY, "makes every program read its configuration from there" },
        { "XDG_CONFIG_HOME", VAR_DENY, CONFIG }, { "XDG_CONFIG_DIRS", VAR_DENY, CONFIG },
        { "TEXTDOMAIN*", VAR_DENY, "makes bash translate $\"…\" strings from a catalog it names, and expand them" },
        /* commands programs run */
        { "PAGER", VAR_CODE, NULL }, { "MANPAGER", VAR_CODE, NULL }, { "SYSTEMD_PAGER", VAR_CODE, NULL },
        { "EDITOR", VAR_CODE, NULL }, { "VISUAL", VAR_CODE, NULL }, { "FCEDIT", VAR_CODE, NULL },
        { "SUDO_EDITOR", VAR_CODE, NULL }, { "SYSTEMD_EDITOR", VAR_CODE, NULL }, { "SVN_EDITOR", VAR_CODE, NULL },
        { "HGEDITOR", VAR_CODE, NULL }, { "CVSEDITOR", VAR_CODE, NULL }, { "BROWSER", VAR_CODE, NULL },
        { "LESSOPEN", VAR_CODE, NULL }, { "LESSCLOSE", VAR_CODE, NULL }, { "LESSEDIT", VAR_CODE, NULL },
        { "LESS", VAR_CHECK, NULL }, { "LESSKEY*", VAR_DENY, CONFIG }, { "MANOPT", VAR_DENY, "gives man options" },
        { "SSH_ASKPASS", VAR_CODE, NULL }, { "SUDO_ASKPASS", VAR_CODE, NULL }, { "RSYNC_RSH", VAR_CODE, NULL },
        { "RSYNC_CONNECT_PROG", VAR_CODE, NULL }, { "RSH", VAR_CODE, NULL },
        { "TAR_OPTIONS", VAR_DENY, "gives tar options, --to-command among them" },
        { "TAPE", VAR_DENY, "names tar's archive, which may be a remote one reached through rsh" },
        { "ZIPOPT", VAR_DENY, "gives zip options, -TT among them" }, { "ZIP", VAR_DENY, "gives zip options, -TT among them" },
        { "PATCH_GET", VAR_DENY, "makes patch get files with version-control commands" },
        /* compilers and build tools */
        { "CC", VAR_CODE, NULL }, { "CXX", VAR_CODE, NULL }, { "CPP", VAR_CODE, NULL }, { "LD", VAR_CODE, NULL },
        { "AR", VAR_CODE, NULL }, { "AS", VAR_CODE, NULL }, { "FC", VAR_CODE, NULL }, { "NM", VAR_CODE, NULL },
        { "RANLIB", VAR_CODE, NULL }, { "STRIP", VAR_CODE, NULL }, { "OBJCOPY", VAR_CODE, NULL },
        { "PKG_CONFIG", VAR_CODE, NULL }, { "MAKE", VAR_CODE, NULL }, { "GCCGO", VAR_CODE, NULL },
        { "CFLAGS", VAR_FLAGS, NULL }, { "CXXFLAGS", VAR_FLAGS, NULL }, { "CPPFLAGS", VAR_FLAGS, NULL },
        { "LDFLAGS", VAR_FLAGS, NULL }, { "FFLAGS", VAR_FLAGS, NULL }, { "CGO_*FLAGS*", VAR_FLAGS, NULL },
        { "COMPILER_PATH", VAR_DENY, "makes gcc run its programs from there" },
        { "GCC_EXEC_PREFIX", VAR_DENY, "makes gcc run its programs from there" },
        { "CXX_MODULE_MAPPER", VAR_DENY, "names g++'s C++ module mapper, which may be a command it runs" },
        { "CCACHE_PREFIX*", VAR_CODE, NULL }, { "CCACHE_COMPILERCHECK", VAR_CHECK, NULL },
        { "CCACHE_CONFIGPATH", VAR_DENY, CONFIG }, { "CCACHE_DIR", VAR_DENY, "makes ccache read ccache.conf from there" },
        { "DISTCC_*", VAR_DENY, "makes distcc run commands it names" },
        { "MAKEFLAGS", VAR_CHECK, NULL }, { "MFLAGS", VAR_CHECK, NULL }, { "GNUMAKEFLAGS", VAR_CHECK, NULL },
        { "CMAKE_*LAUNCHER", VAR_CODE, NULL },
        { "RUSTC", VAR_CODE, NULL }, { "RUSTDOC", VAR_CODE, NULL }, { "RUSTC_WRAPPER", VAR_CODE, NULL },
        { "RUSTC_WORKSPACE_WRAPPER", VAR_CODE, NULL }, { "RUSTFLAGS", VAR_CHECK, NULL },
        { "RUSTDOCFLAGS", VAR_CHECK, NULL }, { "CARGO_ENCODED_RUSTFLAGS", VAR_CHECK, NULL },
        { "CARGO_HOME", VAR_DENY, CONFIG }, { "CARGO_BUILD_*", VAR_DENY, "configures the programs cargo runs" },
        { "CARGO_TARGET_*_RUNNER", VAR_DENY, "makes cargo run its programs through a command" },
        { "CARGO_TARGET_*_LINKER", VAR_DENY, "makes cargo run a linker it names" },
        { "CARGO_*CREDENTIAL_PROVIDER*", VAR_DENY, "makes cargo run a credential program" },
        { "CARGO_ALIAS_*", VAR_DENY, "defines a cargo alias" }, { "CARGO_UNSTABLE_*", VAR_DENY, CONFIG },
        { "GOFLAGS", VAR_CHECK, NULL }, { "GOENV", VAR_DENY, CONFIG },
        { "GOROOT", VAR_DENY, "makes go run its compiler from there" },
        { "GOTOOLDIR", VAR_DENY, "makes go run its compiler from there" },
        /* interpreters */
        { "PERL5OPT", VAR_DENY, "gives perl options, -M among them" }, { "PERL5DB", VAR_DENY, "is perl code" },
        { "RUBYOPT", VAR_DENY, "gives ruby options, -r among them" },
        { "NODE_OPTIONS", VAR_DENY, "gives node options, --require among them" },
        { "LUA_INIT*", VAR_DENY, "is lua code" }, { "PHPRC", VAR_DENY, CONFIG }, { "PHP_INI_SCAN_DIR", VAR_DENY, CONFIG },
        { "JAVA_TOOL_OPTIONS", VAR_DENY, "gives every JVM options, -javaagent among them" },
        { "_JAVA_OPTIONS", VAR_DENY, "gives every JVM options, -javaagent among them" },
        { "JDK_JAVA_OPTIONS", VAR_DENY, "gives every JVM options, -javaagent among them" },
        { "VIMINIT", VAR_DENY, "is vim commands" }, { "EXINIT", VAR_DENY, "is ex commands" },
        { "VIMRUNTIME", VAR_DENY, LOADS }, { "EMACSLOADPATH", VAR_DENY, LOADS },
        { "NODE_REPL_EXTERNAL_MODULE", VAR_DENY, LOADS }, { "R_PROFILE*", VAR_DENY, "is R code run at start" },
        { "R_ENVIRON*", VAR_DENY, CONFIG }, { "PSQLRC", VAR_DENY, "names psql's start-up file, whose \\! lines run commands" },
        { "MAVEN_OPTS", VAR_DENY, "gives the JVM options, -javaagent among them" },
        { "GRADLE_OPTS", VAR_DENY, "gives the JVM options, -javaagent among them" },
        { "ANT_OPTS", VAR_DENY, "gives the JVM options, -javaagent among them" },
        { "SBT_OPTS", VAR_DENY, "gives the JVM options, -javaagent among them" },
        { "JAVA_OPTS", VAR_DENY, "gives the JVM options, -javaagent among them" },
        /* tools whose configuration names commands */
        { "npm_config_*", VAR_CHECK, NULL }, { "NPM_CONFIG_*", VAR_CHECK, NULL },
        { "KUBECONFIG", VAR_DENY, "names kubectl's configuration, whose exec credentials run commands" },
        { "AWS_CONFIG_FILE", VAR_DENY, "names the AWS configuration, whose credential_process runs a command" },
        { "AWS_SHARED_CREDENTIALS_FILE", VAR_DENY, CONFIG },
        { "DOCKER_CONFIG", VAR_DENY, "names docker's configuration, whose credential helpers run commands" },
        { "GNUPGHOME", VAR_DENY, CONFIG }, { "GOOGLE_APPLICATION_CREDENTIALS", VAR_DENY, CONFIG },
};

/* git's environment: these are data; GIT_SSH… are commands; any other GIT_* is denied
 * (GIT_CONFIG*, GIT_DIR, GIT_EXEC_PATH, GIT_TEMPLATE_DIR, the GIT_TEST_* of tomorrow). */
static const char *const git_data[] = {
        "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
        "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_TRACE*", "GIT_CURL_VERBOSE",
        "GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_HTTP_*", "GIT_MERGE_VERBOSITY",
        "GIT_MERGE_AUTOEDIT", "GIT_DIFF_OPTS", "GIT_FLUSH", "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS",
        "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS", "GIT_NO_REPLACE_OBJECTS", "GIT_REFLOG_ACTION",
        "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_NAMESPACE", "GIT_CONFIG_NOSYSTEM",
        "GIT_ADVICE", "GIT_DEFAULT_HASH", "GIT_PROGRESS_DELAY", "GIT_NO_LAZY_FETCH", "GIT_ATTR_NOSYSTEM",
        "GIT_LFS_SKIP_SMUDGE", "GIT_CLONE_PROTECTION_ACTIVE", "GIT_PAGER_IN_USE", "GIT_SSH_VARIANT", NULL,
};
static const char *const git_code[] = {
        "GIT_SSH", "GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS", "GIT_PROXY_COMMAND", NULL,
};

static bool matches(const char *const *l, const char *name)
{
        for (size_t i = 0; l[i]; i++)
                if (fnmatch(l[i], name, 0) == 0)
                        return true;
        return false;
}

static enum var_kind classify(const struct sbx_cmd_ctx *c, const char *name, const char **why)
{
        *why = NULL;
        if (streq(name, "PATH")) {
                *why = "makes the allowlist's names find other programs (commands.allow)";
                return c->p->mode == SBX_CMD_ALLOWLIST ? VAR_DENY : VAR_DATA;
        }
        if (strncmp(name, "GIT_", 4) == 0) {
                if (matches(git_code, name))
                        return VAR_CODE;
                if (matches(git_data, name))
                        return VAR_DATA;
                *why = "is not one sbx knows to be data: git reads configuration or runs commands from some of "
                       "its variables (git(1), ENVIRONMENT VARIABLES)";
                return VAR_DENY;
        }
        for (size_t i = 0; i < ELEMENTSOF(var_rules); i++)
                if (fnmatch(var_rules[i].pattern, name, 0) == 0) {
                        *why = var_rules[i].why;
                        return var_rules[i].kind;
                }
        return VAR_DATA;
}

/* ------------------------------------------------------------------ values of one program */

/* Options some programs take from a variable, and what in them runs a command. */
static const char *check_flags_var(const char *name, const char *value)
{
        if (streq(name, "LESS"))
                return strpbrk(value, "+!|") ? "gives less a command to run (+cmd)" : NULL;
        if (streq(name, "GOFLAGS"))
                return strstr(value, "exec") || strstr(value, "vettool") || strstr(value, "extld")
                               ? "gives go -exec, -toolexec, -vettool or an external linker"
                               : NULL;
        if (strstr(name, "RUSTFLAGS") || streq(name, "RUSTDOCFLAGS"))
                return strstr(value, "link") || strstr(value, "plugin") || strstr(value, "-Z") || strstr(value, "runtool")
                               ? "gives rustc a linker, a plugin or unstable options"
                               : NULL;
        if (streq(name, "CCACHE_COMPILERCHECK"))
                return streq(value, "mtime") || streq(value, "content") || streq(value, "none") ||
                                       strncmp(value, "string:", 7) == 0
                               ? NULL
                               : "is a command ccache runs";
        if (strncasecmp(name, "npm_config_", 11) == 0) {
                static const char *const keys[] = { "script_shell", "script-shell", "shell", "node_options", "node-options",
                                                    "userconfig", "globalconfig", "editor", "browser", "viewer", "git",
                                                    "init_module", "init-module", "onload_script", "onload-script",
                                                    "prefix", "globalignorefile", NULL };

                for (size_t i = 0; keys[i]; i++)
                        if (strcasecmp(name + 11, keys[i]) == 0)
                                return "configures a command npm runs or a file it reads";
        }
        return NULL;
}

/* ------------------------------------------------------------------ compiler flags */

const char *sbx_cmd_cc_flag(const char *f)
{
        static const char *const ld_ok[] = { "bfd", "gold", "lld", "mold", NULL };

        if (f[0] == '@')
                return "reads more options from a file";
        if (streq(f, "-wrapper") || strncmp(f, "-wrapper,", 9) == 0)
                return "runs the compiler's programs through a command (-wrapper)";
        if (strncmp(f, "-fplugin", 8) == 0 || strncmp(f, "-fpass-plugin", 13) == 0 || strncmp(f, "-iplugindir", 11) == 0)
                return "loads a compiler plugin";
        if (f[0] == '-' && f[1] == 'B')
                return "makes the compiler run its programs from a directory (-B)";
        if (strncmp(f, "-specs", 6) == 0 || strncmp(f, "--specs", 7) == 0)
                return "reads a specs file, which can name the programs gcc runs";
        /* "-fmodule-mapper=|PROGRAM ARGS": cc1plus starts PROGRAM to map C++ modules. */
        if (strncmp(f, "-fmodule-mapper", 15) == 0 && strchr(f, '|'))
                return "runs a command as the C++ module mapper (-fmodule-mapper=|…)";
        if (strncmp(f, "--ld-path", 9) == 0 || strncmp(f, "--gcc-toolchain", 15) == 0 ||
            strncmp(f, "--gcc-install-dir", 17) == 0 || strncmp(f, "-ccc-", 5) == 0)
                return "makes the compiler run a linker or tools it names";
        if (strncmp(f, "-fuse-ld=", 9) == 0) {
                for (size_t i = 0; ld_ok[i]; i++)
                        if (streq(f + 9, ld_ok[i]))
                                return NULL;
                return "makes the compiler run a linker it names";
        }
        if ((strncmp(f, "-Wl,", 4) == 0 || strncmp(f, "-Xlinker", 8) == 0 || strncmp(f, "-Xclang", 7) == 0) &&
            (strstr(f, "plugin") || strstr(f, "load")))
                return "loads a plugin";
        if (streq(f, "-plugin") || strncmp(f, "--plugin", 8) == 0 || streq(f, "-load"))
                return "loads a plugin";
        return NULL;
}

static int check_flags(struct sbx_cmd_ctx *c, const char *name, const char *value, const char *seg)
{
        _cleanup_free_ char *copy = strdup(value);
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
                const char *why = sbx_cmd_cc_flag(t);

                if (why || streq(t, "-Xclang") || streq(t, "-Xlinker"))
                        return sbx_cmd_deny(c, seg, "%s: '%s' %s " SBX_LOADS, name, t,
                                            why ? why : "passes the next flag on, which cannot be followed here");
        }
        return 0;
}

/* ------------------------------------------------------------------ assignments */

/* The value a variable gets from a word whose text, as written, is @value: what it
 * holds when that is known on the line (an integer is "0"; $x is "x", which evaluates
 * the same as x's own value), else NULL. */
static const char *known_value(const struct sbx_sh_word *w, const char *value, char *buf, size_t size)
{
        size_t n = strlen(value);

        if (!(w->flags & SBX_SH_EXPAND) || (!strchr(value, '$') && !strchr(value, '`')))
                return value;
        if (w->n_expand != 1)
                return NULL;
        if ((strncmp(value, "$((", 3) == 0 && n > 5 && strcmp(value + n - 2, "))") == 0) ||
            (strncmp(value, "$[", 2) == 0 && value[n - 1] == ']') || (strncmp(value, "${#", 3) == 0 && value[n - 1] == '}') ||
            streq(value, "$#") || streq(value, "$?") || streq(value, "$$") || streq(value, "$!"))
                return "0";
        if (value[0] == '$' && (n = strspn(value + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789")) &&
            !(value[1] >= '0' && value[1] <= '9') && !value[1 + n] && n < size) {
                memcpy(buf, value + 1, n);
                buf[n] = '\0';
                return buf;
        }
        if (strncmp(value, "${", 2) == 0 && (n = strspn(value + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789")) &&
            !(value[2] >= '0' && value[2] <= '9') && value[2 + n] == '}' && !value[3 + n] && n < size) {
                memcpy(buf, value + 2, n);
                buf[n] = '\0';
                return buf;
        }
        return NULL;
}

/* The value of @name, by its kind. */
static int check_value(struct sbx_cmd_ctx *c, const char *name, const struct sbx_sh_word *w, const char *value,
                       const char *seg)
{
        const char *why = NULL;
        enum var_kind kind = classify(c, name, &why);
        unsigned info = 0;

        switch (kind) {
        case VAR_DENY:
                return sbx_cmd_deny(c, seg, "%s is set: it %s " SBX_LOADS, name, why);
        case VAR_CODE:
                if (sbx_cmd_computed(w))
                        return sbx_cmd_deny(c, seg, "%s is a command computed at run time " SBX_UNREAD, name);
                value += strspn(value, "| "); /* LESSOPEN="| lesspipe %s" */
                return value[0] ? sbx_cmd_check_code(c, value, false, seg, &info) : 0;
        case VAR_PROMPT:
                if (sbx_cmd_computed(w))
                        return sbx_cmd_deny(c, seg, "%s is computed at run time, and bash expands it as a prompt " SBX_UNREAD,
                                            name);
                break;
        case VAR_FLAGS:
                if (sbx_cmd_computed(w))
                        return sbx_cmd_deny(c, seg, "%s is computed at run time, and compilers load what it names " SBX_UNREAD,
                                            name);
                return check_flags(c, name, value, seg);
        case VAR_CHECK:
                if (sbx_cmd_computed(w))
                        return sbx_cmd_deny(c, seg, "%s is computed at run time, and a program takes options from it " SBX_UNREAD,
                                            name);
                if (strstr(name, "MAKEFLAGS") || streq(name, "MFLAGS"))
                        return sbx_tool_makeflags(c, value, seg);
                if ((why = check_flags_var(name, value)))
                        return sbx_cmd_deny(c, seg, "%s is set: it %s " SBX_LOADS, name, why);
                break;
        case VAR_DATA:
                break;
        }
        /* x='a[$(cmd)]' runs cmd when bash evaluates $((x)); PS4='$(cmd)' under set -x */
        if (w->flags & SBX_SH_LITCODE)
                return sbx_cmd_check_code(c, value, true, seg, &info);
        return 0;
}

int sbx_cmd_check_assignment(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, const char *seg)
{
        const char *t = w->text, *eq, *value, *known;
        size_t len = strcspn(t, "[+=");
        _cleanup_free_ char *name = strndup(t, len), *sub = NULL;
        char buf[128];
        bool append;
        int r;

        if (!name)
                return -ENOMEM;
        if (t[len] == '[') {
                /* NAME[SUB]=: bash evaluates SUB as arithmetic (an indexed array) */
                const char *close = strstr(t + len, "]=");
                const char *plus = strstr(t + len, "]+=");

                if (plus && (!close || plus < close))
                        close = plus;
                if (!close)
                        return sbx_cmd_deny(c, seg, "assignment '%s': cannot find its subscript " SBX_UNREAD, t);
                if (!(sub = strndup(t + len + 1, (size_t)(close - t - len - 1))))
                        return -ENOMEM;
                if ((r = sbx_bash_arith(c, sub, seg, "a subscript")) < 0 || c->denied)
                        return r;
                eq = strchr(close, '=');
        } else {
                eq = strchr(t + len, '=');
        }
        if (!eq)
                return 0;
        append = eq > t && eq[-1] == '+';
        value = eq + 1;
        if ((r = check_value(c, name, w, value, seg)) < 0 || c->denied)
                return r;
        known = append ? NULL : known_value(w, value, buf, sizeof(buf));
        if (!known)
                return sbx_cmd_set_runtime(c, name, seg, "an assignment");
        return sbx_cmd_set_value(c, name, known);
}

/* ------------------------------------------------------------------ what variables hold */

/* Room for one more variable: the array grows by doubling. */
static struct sbx_cmd_var *grow_vars(struct sbx_cmd_ctx *c)
{
        size_t cap = c->cap_vars ? 2 * c->cap_vars : 16;
        struct sbx_cmd_var *vs;

        if (c->n_vars < c->cap_vars)
                return c->vars;
        if (!(vs = realloc(c->vars, cap * sizeof(*vs))))
                return NULL;
        c->vars = vs;
        c->cap_vars = cap;
        return vs;
}

/* The variables, found through an open-addressing table of indices (a line of 64 KiB
 * may set thousands): c->var_slots holds 1 + an index, 0 for an empty slot. */
static size_t name_hash(const char *s)
{
        return (size_t)sbx_fnv1a(SBX_FNV1A_INIT, s, strlen(s));
}

static struct sbx_cmd_var *find_var(const struct sbx_cmd_ctx *c, const char *name)
{
        if (!c->n_slots)
                return NULL;
        for (size_t h = name_hash(name) & (c->n_slots - 1);; h = (h + 1) & (c->n_slots - 1)) {
                size_t i = c->var_slots[h];

                if (!i)
                        return NULL;
                if (streq(c->vars[i - 1].name, name))
                        return &c->vars[i - 1];
        }
}

static void put_slot(struct sbx_cmd_ctx *c, size_t i)
{
        size_t h = name_hash(c->vars[i].name) & (c->n_slots - 1);

        while (c->var_slots[h])
                h = (h + 1) & (c->n_slots - 1);
        c->var_slots[h] = i + 1;
}

static struct sbx_cmd_var *add_var(struct sbx_cmd_ctx *c, const char *name)
{
        struct sbx_cmd_var *v = find_var(c, name), *vs;

        if (v)
                return v;
        if (!(vs = grow_vars(c)))
                return NULL;
        v = &vs[c->n_vars];
        *v = (struct sbx_cmd_var){ .name = strdup(name) };
        if (!v->name)
                return NULL;
        c->n_vars++;
        if (2 * c->n_vars > c->n_slots) { /* at most half full */
                size_t n = c->n_slots ? 2 * c->n_slots : 64, *slots = calloc(n, sizeof(*slots));

                if (!slots)
                        return NULL;
                free(c->var_slots);
                c->var_slots = slots;
                c->n_slots = n;
                for (size_t i = 0; i < c->n_vars; i++)
                        put_slot(c, i);
        } else {
                put_slot(c, c->n_vars - 1);
        }
        return v;
}

int sbx_cmd_set_runtime(struct sbx_cmd_ctx *c, const char *name, const char *seg, const char *how)
{
        const char *why = NULL;
        struct sbx_cmd_var *v;

        if (classify(c, name, &why) != VAR_DATA)
                return sbx_cmd_deny(c, seg, "%s gets a value at run time (%s), and programs run or load what it holds "
                                    SBX_UNREAD, name, how);
        if (!c->vars_open)
                return 0;
        if (!(v = add_var(c, name)))
                return -ENOMEM;
        v->runtime = true;
        return 0;
}

int sbx_cmd_set_value(struct sbx_cmd_ctx *c, const char *name, const char *value)
{
        struct sbx_cmd_var *v;

        if (!c->vars_open)
                return 0;
        if (!(v = add_var(c, name)))
                return -ENOMEM;
        if (v->runtime || sbx_strv_contains(&v->values, value))
                return 0;
        if (v->values.n >= 64) { /* enough to judge; more is one value we do not know */
                v->runtime = true;
                return 0;
        }
        return sbx_strv_push(&v->values, value);
}

int sbx_cmd_set_integer(struct sbx_cmd_ctx *c, const char *name, const char *seg, const char *how)
{
        const char *why = NULL;

        if (classify(c, name, &why) != VAR_DATA)
                return sbx_cmd_deny(c, seg, "%s gets a value at run time (%s), and programs run or load what it holds "
                                    SBX_UNREAD, name, how);
        return sbx_cmd_set_value(c, name, "0");
}

/* bash's own variables that only ever hold integers. */
static const char *const integer_vars[] = {
        "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "OPTIND", "EPOCHSECONDS",
        "BASH_SUBSHELL", "HISTCMD", "SHLVL", "PIPESTATUS", NULL,
};

/* Variables bash sets itself as it runs, whatever the line assigned them: $_ is the
 * last argument of the command before. */
static const char *const bash_sets[] = {
        "_", "BASH_COMMAND", "BASH_ARGV", "BASH_ARGC", "BASH_SOURCE", "FUNCNAME", "BASH_EXECUTION_STRING",
        "BASH_REMATCH", "REPLY", "OPTARG", "MAPFILE", "PWD", "OLDPWD", "DIRSTACK", "COMP_WORDS", "COMP_LINE",
        "READLINE_LINE", NULL,
};

bool sbx_cmd_var_inert(struct sbx_cmd_ctx *c, const char *name, unsigned depth)
{
        struct sbx_cmd_var *v = find_var(c, name);

        if (in_list(bash_sets, name)) {
                snprintf(c->why, sizeof(c->why), "bash sets '%s' itself at run time", name);
                return false;
        }

        if (depth > 8) {
                snprintf(c->why, sizeof(c->why), "'%s' refers to variables nested too deep", name);
                return false;
        }
        if (c->any_value) {
                snprintf(c->why, sizeof(c->why), "the line sources a file, which may set '%s' to anything", name);
                return false;
        }
        if (!v) {
                if (in_list(integer_vars, name))
                        return true;
                snprintf(c->why, sizeof(c->why), "'%s' is not set on the command line: its value comes from outside",
                         name);
                return false;
        }
        if (v->runtime) {
                snprintf(c->why, sizeof(c->why), "'%s' gets a value at run time", name);
                return false;
        }
        /* judged once per line (the values are all known in the second pass) */
        if (!c->vars_open && v->judged == VAR_INERT)
                return true;
        if (!c->vars_open && v->judged == VAR_NOT_INERT) {
                snprintf(c->why, sizeof(c->why), "%s", v->why ? v->why : "its value cannot be judged");
                return false;
        }
        if (v->judged == VAR_JUDGING) {
                snprintf(c->why, sizeof(c->why), "'%s' refers to itself", name);
                return false;
        }
        v->judged = VAR_JUDGING;
        for (size_t i = 0; i < v->values.n; i++)
                if (!sbx_bash_arith_inert(c, v->values.v[i], depth + 1)) {
                        /* v may have moved: the table does not grow while judging */
                        v->judged = VAR_NOT_INERT;
                        free(v->why);
                        v->why = strdup(c->why);
                        return false;
                }
        v->judged = VAR_INERT;
        return true;
}

void sbx_cmd_vars_done(struct sbx_cmd_ctx *c)
{
        for (size_t i = 0; i < c->n_vars; i++) {
                free(c->vars[i].name);
                free(c->vars[i].why);
                sbx_strv_free(&c->vars[i].values);
        }
        free(c->vars);
        free(c->var_slots);
        c->vars = NULL;
        c->var_slots = NULL;
        c->n_vars = c->cap_vars = c->n_slots = 0;
}
