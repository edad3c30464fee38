/* SPDX-License-Identifier: MIT */
/* git: the rules of commands.rules.git.deny, and everything by which a git command line
 * runs a command of its choosing.  git runs commands through options (rebase --exec,
 * bisect run, submodule foreach, difftool --extcmd, grep -O, --upload-pack and
 * --receive-pack, archive --exec, filter-branch's filters…), checked as the commands
 * they are; and through configuration: -c KEY=VALUE, --config-env, clone --config and
 * `git config KEY VALUE` are judged key by key against git-config(1): a key whose value
 * git runs (core.pager, diff.*.textconv, credential.helper…) has it checked as a
 * command; a key sbx knows to be data is allowed; any other key is denied, since new
 * command-valued keys keep arriving (core.fsmonitor, core.alternateRefsCommand,
 * gpg.ssh.defaultKeyCommand…) and keys that point git at other files or hooks
 * (include.path, core.hooksPath, init.templateDir) run code the line does not show.
 * git's environment is judged in commands-env.c. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/cleanup.h"
#include "commands-int.h"

#define GIT_RULE "commands.rules.git.deny"

static bool startswith(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------------ configuration keys */

enum key_kind { KEY_DENY, KEY_DATA, KEY_CODE, KEY_BOOL_OR_CODE, KEY_ALIAS, KEY_CREDENTIAL, KEY_SUBMODULE_UPDATE };

/* SECTION.NAME or SECTION.*.NAME, where * is any subsection; NAME may be a pattern. */
static const struct {
        const char *pattern;
        enum key_kind kind;
} key_rules[] = {
        /* values git runs */
        { "core.pager", KEY_CODE },              { "core.editor", KEY_CODE },            { "core.sshcommand", KEY_CODE },
        { "core.gitproxy", KEY_CODE },           { "core.askpass", KEY_CODE },           { "core.alternaterefscommand", KEY_CODE },
        { "core.fsmonitor", KEY_BOOL_OR_CODE },  { "sequence.editor", KEY_CODE },        { "diff.external", KEY_CODE },
        { "diff.*.command", KEY_CODE },          { "diff.*.textconv", KEY_CODE },        { "diff.tool", KEY_CODE },
        { "diff.guitool", KEY_CODE },            { "difftool.*.cmd", KEY_CODE },         { "difftool.*.path", KEY_CODE },
        { "merge.tool", KEY_CODE },              { "merge.guitool", KEY_CODE },          { "merge.*.driver", KEY_CODE },
        { "mergetool.*.cmd", KEY_CODE },         { "mergetool.*.path", KEY_CODE },       { "filter.*.clean", KEY_CODE },
        { "filter.*.smudge", KEY_CODE },         { "filter.*.process", KEY_CODE },       { "credential.helper", KEY_CREDENTIAL },
        { "credential.*.helper", KEY_CREDENTIAL }, { "gpg.program", KEY_CODE },          { "gpg.*.program", KEY_CODE },
        { "gpg.ssh.defaultkeycommand", KEY_CODE }, { "interactive.difffilter", KEY_CODE },
        { "uploadpack.packobjectshook", KEY_CODE }, { "remote.*.uploadpack", KEY_CODE }, { "remote.*.receivepack", KEY_CODE },
        { "browser.*.cmd", KEY_CODE },           { "browser.*.path", KEY_CODE },         { "man.*.cmd", KEY_CODE },
        { "man.*.path", KEY_CODE },              { "man.viewer", KEY_CODE },             { "web.browser", KEY_CODE },
        { "help.browser", KEY_CODE },            { "instaweb.browser", KEY_CODE },       { "instaweb.httpd", KEY_CODE },
        { "guitool.*.cmd", KEY_CODE },           { "trailer.*.command", KEY_CODE },      { "trailer.*.cmd", KEY_CODE },
        { "sendemail.*cmd", KEY_CODE },          { "sendemail.*.*cmd", KEY_CODE },       { "sendemail.smtpserver", KEY_CODE },
        { "imap.tunnel", KEY_CODE },             { "pager.*", KEY_BOOL_OR_CODE },        { "alias.*", KEY_ALIAS },
        { "submodule.*.update", KEY_SUBMODULE_UPDATE },
        /* data */
        { "user.*", KEY_DATA },                  { "author.*", KEY_DATA },               { "committer.*", KEY_DATA },
        { "color.*", KEY_DATA },                 { "color.*.*", KEY_DATA },              { "column.*", KEY_DATA },
        { "advice.*", KEY_DATA },                { "init.defaultbranch", KEY_DATA },     { "core.quotepath", KEY_DATA },
        { "core.autocrlf", KEY_DATA },           { "core.safecrlf", KEY_DATA },          { "core.eol", KEY_DATA },
        { "core.filemode", KEY_DATA },           { "core.ignorecase", KEY_DATA },        { "core.precomposeunicode", KEY_DATA },
        { "core.protecthfs", KEY_DATA },         { "core.protectntfs", KEY_DATA },       { "core.trustctime", KEY_DATA },
        { "core.checkstat", KEY_DATA },          { "core.symlinks", KEY_DATA },          { "core.abbrev", KEY_DATA },
        { "core.whitespace", KEY_DATA },         { "core.compression", KEY_DATA },       { "core.loosecompression", KEY_DATA },
        { "core.bigfilethreshold", KEY_DATA },   { "core.logallrefupdates", KEY_DATA },  { "core.warnambiguousrefs", KEY_DATA },
        { "core.commentchar", KEY_DATA },        { "core.commentstring", KEY_DATA },     { "core.untrackedcache", KEY_DATA },
        { "core.splitindex", KEY_DATA },         { "core.preloadindex", KEY_DATA },      { "core.multipackindex", KEY_DATA },
        { "core.commitgraph", KEY_DATA },        { "core.sparsecheckout", KEY_DATA },    { "core.sparsecheckoutcone", KEY_DATA },
        { "core.bare", KEY_DATA },               { "core.fscache", KEY_DATA },           { "core.longpaths", KEY_DATA },
        { "core.packedgit*", KEY_DATA },         { "core.deltabasecachelimit", KEY_DATA }, { "core.fsync*", KEY_DATA },
        { "core.excludesfile", KEY_DATA },       { "core.attributesfile", KEY_DATA },    { "core.usereplacerefs", KEY_DATA },
        { "core.notesref", KEY_DATA },           { "core.checkroundtripencoding", KEY_DATA }, { "core.sharedrepository", KEY_DATA },
        { "core.hidedotfiles", KEY_DATA },       { "core.ignorestat", KEY_DATA },        { "core.packedrefstimeout", KEY_DATA },
        { "core.filesreflocktimeout", KEY_DATA }, { "core.fsmonitorhookversion", KEY_DATA },
        { "core.repositoryformatversion", KEY_DATA },
        { "diff.noprefix", KEY_DATA },           { "diff.renames", KEY_DATA },           { "diff.renamelimit", KEY_DATA },
        { "diff.algorithm", KEY_DATA },          { "diff.mnemonicprefix", KEY_DATA },    { "diff.colormoved*", KEY_DATA },
        { "diff.context", KEY_DATA },            { "diff.interhunkcontext", KEY_DATA },  { "diff.relative", KEY_DATA },
        { "diff.stat*", KEY_DATA },              { "diff.submodule", KEY_DATA },         { "diff.wserrorhighlight", KEY_DATA },
        { "diff.indentheuristic", KEY_DATA },    { "diff.suppressblankempty", KEY_DATA }, { "diff.ignoresubmodules", KEY_DATA },
        { "diff.orderfile", KEY_DATA },          { "diff.dirstat", KEY_DATA },           { "diff.autorefreshindex", KEY_DATA },
        { "diff.srcprefix", KEY_DATA },          { "diff.dstprefix", KEY_DATA },         { "diff.*.xfuncname", KEY_DATA },
        { "diff.*.funcname", KEY_DATA },         { "diff.*.wordregex", KEY_DATA },       { "diff.*.binary", KEY_DATA },
        { "diff.*.cachetextconv", KEY_DATA },    { "difftool.prompt", KEY_DATA },        { "difftool.trustexitcode", KEY_DATA },
        { "difftool.*.trustexitcode", KEY_DATA }, { "merge.conflictstyle", KEY_DATA },   { "merge.ff", KEY_DATA },
        { "merge.log", KEY_DATA },               { "merge.renames", KEY_DATA },          { "merge.renamelimit", KEY_DATA },
        { "merge.stat", KEY_DATA },              { "merge.verbosity", KEY_DATA },        { "merge.autostash", KEY_DATA },
        { "merge.defaulttoupstream", KEY_DATA }, { "merge.branchdesc", KEY_DATA },       { "merge.renormalize", KEY_DATA },
        { "merge.directoryrenames", KEY_DATA },  { "merge.verifysignatures", KEY_DATA }, { "merge.*.name", KEY_DATA },
        { "merge.*.recursive", KEY_DATA },       { "mergetool.prompt", KEY_DATA },       { "mergetool.keepbackup", KEY_DATA },
        { "mergetool.keeptemporaries", KEY_DATA }, { "mergetool.hideresolved", KEY_DATA }, { "mergetool.writetotemp", KEY_DATA },
        { "mergetool.*.trustexitcode", KEY_DATA }, { "mergetool.*.hideresolved", KEY_DATA }, { "mergetool.*.layout", KEY_DATA },
        { "log.*", KEY_DATA },                   { "format.*", KEY_DATA },               { "pretty.*", KEY_DATA },
        { "blame.*", KEY_DATA },                 { "grep.*", KEY_DATA },                 { "status.*", KEY_DATA },
        { "stash.*", KEY_DATA },                 { "branch.*", KEY_DATA },               { "branch.*.*", KEY_DATA },
        { "checkout.*", KEY_DATA },              { "clone.*", KEY_DATA },                { "commit.*", KEY_DATA },
        { "tag.*", KEY_DATA },                   { "push.*", KEY_DATA },                 { "pull.*", KEY_DATA },
        { "fetch.*", KEY_DATA },                 { "fetch.*.*", KEY_DATA },              { "rebase.*", KEY_DATA },
        { "rerere.*", KEY_DATA },                { "gc.*", KEY_DATA },                   { "gc.*.*", KEY_DATA },
        { "pack.*", KEY_DATA },                  { "repack.*", KEY_DATA },               { "index.*", KEY_DATA },
        { "feature.*", KEY_DATA },               { "fsck.*", KEY_DATA },                 { "receive.*", KEY_DATA },
        { "receive.*.*", KEY_DATA },             { "transfer.*", KEY_DATA },             { "uploadpack.allow*", KEY_DATA },
        { "uploadpack.keepalive", KEY_DATA },    { "uploadarchive.*", KEY_DATA },        { "protocol.version", KEY_DATA },
        { "http.*", KEY_DATA },                  { "http.*.*", KEY_DATA },               { "url.*.insteadof", KEY_DATA },
        { "url.*.pushinsteadof", KEY_DATA },     { "remote.*.url", KEY_DATA },           { "remote.*.pushurl", KEY_DATA },
        { "remote.*.fetch", KEY_DATA },          { "remote.*.push", KEY_DATA },          { "remote.*.mirror", KEY_DATA },
        { "remote.*.skip*", KEY_DATA },          { "remote.*.prune*", KEY_DATA },        { "remote.*.tagopt", KEY_DATA },
        { "remote.*.promisor", KEY_DATA },       { "remote.*.partialclonefilter", KEY_DATA }, { "remote.*.proxy*", KEY_DATA },
        { "remote.*.followremotehead", KEY_DATA }, { "remote.pushdefault", KEY_DATA },   { "remotes.*", KEY_DATA },
        { "submodule.*.url", KEY_DATA },         { "submodule.*.branch", KEY_DATA },     { "submodule.*.ignore", KEY_DATA },
        { "submodule.*.shallow", KEY_DATA },     { "submodule.*.fetchrecursesubmodules", KEY_DATA },
        { "submodule.*.active", KEY_DATA },      { "submodule.recurse", KEY_DATA },      { "submodule.fetchjobs", KEY_DATA },
        { "submodule.active", KEY_DATA },        { "submodule.propagatebranches", KEY_DATA }, { "submodule.alternate*", KEY_DATA },
        { "safe.directory", KEY_DATA },          { "safe.barerepository", KEY_DATA },    { "i18n.*", KEY_DATA },
        { "sparse.*", KEY_DATA },                { "versionsort.*", KEY_DATA },          { "worktree.*", KEY_DATA },
        { "notes.*", KEY_DATA },                 { "notes.*.*", KEY_DATA },              { "am.*", KEY_DATA },
        { "apply.*", KEY_DATA },                 { "mailinfo.*", KEY_DATA },             { "mailmap.file", KEY_DATA },
        { "mailmap.blob", KEY_DATA },            { "interactive.singlekey", KEY_DATA },  { "add.*", KEY_DATA },
        { "add.*.*", KEY_DATA },                 { "help.format", KEY_DATA },            { "help.autocorrect", KEY_DATA },
        { "help.htmlpath", KEY_DATA },           { "bundle.*", KEY_DATA },               { "bundle.*.*", KEY_DATA },
        { "maintenance.*", KEY_DATA },           { "maintenance.*.*", KEY_DATA },        { "ssh.variant", KEY_DATA },
        { "trailer.separators", KEY_DATA },      { "trailer.where", KEY_DATA },          { "trailer.ifexists", KEY_DATA },
        { "trailer.ifmissing", KEY_DATA },       { "trailer.*.key", KEY_DATA },          { "trailer.*.where", KEY_DATA },
        { "trailer.*.ifexists", KEY_DATA },      { "trailer.*.ifmissing", KEY_DATA },    { "filter.*.required", KEY_DATA },
        { "gpg.format", KEY_DATA },              { "gpg.mintrustlevel", KEY_DATA },      { "gpg.ssh.allowedsignersfile", KEY_DATA },
        { "gpg.ssh.revocationfile", KEY_DATA },  { "credential.usehttppath", KEY_DATA }, { "credential.username", KEY_DATA },
        { "credential.interactive", KEY_DATA },  { "credential.protectprotocol", KEY_DATA },
        { "credential.*.usehttppath", KEY_DATA }, { "credential.*.username", KEY_DATA },
};

/* KEY as section, subsection ("" when none; it may hold dots) and name. */
static bool key_matches(const char *pattern, const char *key)
{
        const char *pd = strchr(pattern, '.'), *pl = strrchr(pattern, '.');
        const char *kd = strchr(key, '.'), *kl = strrchr(key, '.');

        if (!pd || !kd || (size_t)(pd - pattern) != (size_t)(kd - key) || strncasecmp(pattern, key, (size_t)(kd - key)) != 0)
                return false;
        if ((pd == pl) != (kd == kl)) /* one has a subsection, the other not */
                return false;
        if (pd != pl && !(pl - pd == 2 && pd[1] == '*')) {
                _cleanup_free_ char *psub = strndup(pd + 1, (size_t)(pl - pd - 1)), *ksub = strndup(kd + 1, (size_t)(kl - kd - 1));

                if (!psub || !ksub || fnmatch(psub, ksub, 0) != 0) /* subsections keep their case */
                        return false;
        }
        return fnmatch(pl + 1, kl + 1, FNM_CASEFOLD) == 0;
}

static enum key_kind key_kind(const char *key)
{
        for (size_t i = 0; i < ELEMENTSOF(key_rules); i++)
                if (key_matches(key_rules[i].pattern, key))
                        return key_rules[i].kind;
        return KEY_DENY;
}

static bool is_bool(const char *v)
{
        static const char *const bools[] = { "", "true", "false", "yes", "no", "on", "off", "1", "0", NULL };

        for (size_t i = 0; bools[i]; i++)
                if (strcasecmp(v, bools[i]) == 0)
                        return true;
        return false;
}

int sbx_git_config_value(struct sbx_cmd_ctx *c, const char *key, const struct sbx_sh_word *value, const char *seg)
{
        _cleanup_free_ char *code = NULL;
        enum key_kind kind = key_kind(key);
        const char *v;
        unsigned info = 0;

        if (kind == KEY_DENY)
                return sbx_cmd_deny(c, seg, "git: config key '%s' is not one sbx knows to be data: git may run its value "
                                    "or read code from where it points (git-config(1)) " SBX_LOADS, key);
        if (kind == KEY_DATA || !value)
                return 0;
        if (sbx_cmd_computed(value))
                return sbx_cmd_deny(c, seg, "git: config '%s' is a command computed at run time " SBX_UNREAD, key);
        v = value->text;
        switch (kind) {
        case KEY_BOOL_OR_CODE:
                if (is_bool(v))
                        return 0;
                break;
        case KEY_ALIAS:
                if (v[0] != '!') /* an alias for git arguments: the git rules apply to what it expands to */
                        return asprintf(&code, "git %s", v) < 0 ? -ENOMEM : sbx_cmd_check_code(c, code, false, seg, &info);
                v++;
                break;
        case KEY_CREDENTIAL:
                /* "store", "cache --timeout=1": git runs its own git-credential-NAME */
                if (!v[0] || (v[0] != '!' && !memchr(v, '/', strcspn(v, " 	"))))
                        return 0;
                v += v[0] == '!';
                break;
        case KEY_SUBMODULE_UPDATE:
                if (v[0] != '!')
                        return 0;
                v++;
                break;
        default:
                break;
        }
        return sbx_cmd_check_code(c, v, false, seg, &info);
}

/* "KEY=VALUE" as one word (git -c, clone --config). */
static int config_item(struct sbx_cmd_ctx *c, const struct sbx_sh_word *item, const char *seg)
{
        _cleanup_free_ char *key = strdup(item->text);
        struct sbx_sh_word value = { .flags = item->flags };
        char *eq;

        if (!key)
                return -ENOMEM;
        if ((eq = strchr(key, '=')))
                *eq = '\0', value.text = eq + 1;
        if (sbx_cmd_computed(item) && strpbrk(key, "$`"))
                return sbx_cmd_deny(c, seg, "git: config key '%s' is computed at run time " SBX_UNREAD, key);
        return sbx_git_config_value(c, key, eq ? &value : NULL, seg);
}

static int config_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const char *opt, const struct sbx_sh_word *val)
{
        (void)opt;
        return val ? config_item(c, val, k->seg) : 0;
}

/* git config [options] [set] KEY VALUE: a value written for git to read later. */
static int config_cmd(struct sbx_cmd_ctx *c, const struct sbx_sh_word *w, size_t n, const char *seg)
{
        static const char *const args[] = { "-f", "--file", "--blob", "--type", "--default", "--comment", "-t", "--value",
                                            NULL };
        static const char *const reads[] = { "get", "list", "-l", "--list", "--get", "--get-all", "--get-regexp",
                                             "--get-urlmatch", "--get-color", "--get-colorbool", "-e", "--edit", "edit",
                                             "--unset", "--unset-all", "unset", "--remove-section", "remove-section",
                                             "--rename-section", "rename-section", NULL };
        const struct sbx_sh_word *pos[3];
        size_t np = 0;

        for (size_t i = 1; i < n; i++)
                if (in_list(reads, w[i].text))
                        return 0;
        for (size_t i = 1; i < n && np < ELEMENTSOF(pos); i++) {
                bool takes = false;

                if (w[i].text[0] != '-' || sbx_cmd_computed(&w[i])) {
                        if (!(np == 0 && streq(w[i].text, "set")))
                                pos[np++] = &w[i];
                        continue;
                }
                for (size_t a = 0; args[a]; a++)
                        takes = takes || streq(w[i].text, args[a]);
                i += takes;
        }
        if (np && sbx_cmd_computed(pos[0]))
                return sbx_cmd_deny(c, seg, "git config: key '%s' is computed at run time " SBX_UNREAD, pos[0]->text);
        return np >= 2 ? sbx_git_config_value(c, pos[0]->text, pos[1], seg) : 0;
}

/* ------------------------------------------------------------------ subcommands */

#define TEMPLATE "copies hooks from a directory, which git runs later " SBX_LOADS

static const struct sbx_opt rebase_opts[] = {
        OPT("x|exec", O_CODE), OPT("s|strategy|X|strategy-option|onto|C|whitespace|empty", O_ARG),
        OPT("S|gpg-sign|r|rebase-merges", O_OPTARG), OPT_END,
};
static const struct sbx_opt difftool_opts[] = {
        OPT("x|extcmd", O_CODE), OPT("t|tool", O_CODE), OPT_END,
};
static const struct sbx_opt mergetool_opts[] = { OPT("t|tool", O_CODE), OPT("O", O_OPTARG), OPT_END };
static const struct sbx_opt grep_opts[] = {
        OPT("O|open-files-in-pager", O_OPTCODE),
        OPT("e|f|A|B|C|m|max-depth|threads|max-count|after-context|before-context|context", O_ARG), OPT_END,
};
static const struct sbx_opt fetch_opts[] = {
        OPT("upload-pack", O_CODE), OPT("o|server-option|depth|deepen|shallow-since|shallow-exclude|j|jobs|refmap|"
                                        "negotiation-tip|filter|recurse-submodules-default|submodule-prefix", O_ARG),
        OPT_END,
};
static const struct sbx_opt clone_opts[] = {
        OPT("u|upload-pack", O_CODE), DENYOPT("template", O_DENY1, TEMPLATE), CALLOPT("c|config", config_opt),
        OPT("o|origin|b|branch|depth|reference|reference-if-able|separate-git-dir|shallow-since|shallow-exclude|j|jobs|"
            "filter|bundle-uri|server-option|ref-format", O_ARG),
        OPT_END,
};
static const struct sbx_opt init_opts[] = {
        DENYOPT("template", O_DENY1, TEMPLATE), OPT("separate-git-dir|object-format|ref-format|b|initial-branch", O_ARG),
        OPT_END,
};
static const struct sbx_opt lsremote_opts[] = { OPT("u|upload-pack", O_CODE), OPT("o|server-option|sort", O_ARG), OPT_END };
static const struct sbx_opt fetchpack_opts[] = { OPT("upload-pack|exec", O_CODE), OPT("depth", O_ARG), OPT_END };
static const struct sbx_opt push_opts[] = {
        OPT("receive-pack|exec", O_CODE), OPT("o|push-option|repo|force-with-lease|signed", O_OPTARG), OPT_END,
};
static const struct sbx_opt archive_opts[] = {
        OPT("exec", O_CODE), OPT("remote|o|output|prefix|format|add-file|add-virtual-file|mtime", O_ARG), OPT_END,
};
static const struct sbx_opt filter_opts[] = {
        OPT("tree-filter|index-filter|parent-filter|msg-filter|commit-filter|tag-name-filter|env-filter|setup", O_CODE),
        OPT("subdirectory-filter|d|original|state-branch", O_ARG), OPT_END,
};
static const struct sbx_opt sendemail_opts[] = {
        OPT("sendmail-cmd|smtp-server|to-cmd|cc-cmd|header-cmd", O_CODE), OPT_END,
};
static const struct sbx_opt daemon_opts[] = { OPT("access-hook", O_CODE), OPT_END };
static const struct sbx_opt webbrowse_opts[] = {
        OPT("b|browser|t|tool", O_CODE), DENYOPT("c|config", O_DENY1, "names a config key that git runs " SBX_RUNS),
        OPT_END,
};

static const struct {
        const char *sub;
        const struct sbx_opt *opts;
} sub_opts[] = {
        { "rebase", rebase_opts },        { "difftool", difftool_opts },   { "mergetool", mergetool_opts },
        { "grep", grep_opts },            { "fetch", fetch_opts },         { "pull", fetch_opts },
        { "clone", clone_opts },          { "init", init_opts },           { "ls-remote", lsremote_opts },
        { "fetch-pack", fetchpack_opts }, { "push", push_opts },           { "send-pack", push_opts },
        { "archive", archive_opts },      { "filter-branch", filter_opts }, { "send-email", sendemail_opts },
        { "daemon", daemon_opts },        { "web--browse", webbrowse_opts },
};

/* git bisect run CMD…, git submodule foreach [--recursive] CMD…: the words after, run
 * by a shell. */
static int sub_runs(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t sub)
{
        const struct sbx_sh_word *w = k->w + sub;
        size_t n = k->n - sub, i = 1;
        struct sbx_cmd_call inner = *k;

        if (streq(w[0].text, "remote-ext") || streq(w[0].text, "remote-fd"))
                return sbx_cmd_deny(c, k->seg, "git %s runs the command its URL names " SBX_RUNS, w[0].text);
        if (streq(w[0].text, "instaweb"))
                return sbx_cmd_deny(c, k->seg, "git instaweb starts a web server and a browser of its choosing " SBX_RUNS);
        if (n < 2)
                return 1;
        if (streq(w[0].text, "bisect") && streq(w[1].text, "run"))
                i = 2;
        else if (streq(w[0].text, "submodule") || streq(w[0].text, "submodule--helper")) {
                for (; i < n && w[i].text[0] == '-'; i++)
                        ;
                if (i >= n || !streq(w[i].text, "foreach"))
                        return 1;
                for (i++; i < n && (streq(w[i].text, "--recursive") || streq(w[i].text, "-q") ||
                                    streq(w[i].text, "--quiet"));
                     i++)
                        ;
        } else if (streq(w[0].text, "maintenance") && (streq(w[1].text, "start") || streq(w[1].text, "register"))) {
                return sbx_cmd_deny(c, k->seg, "git maintenance %s schedules commands to run later " SBX_RUNS, w[1].text);
        } else {
                return 1;
        }
        if (i >= n)
                return 0;
        inner.w = w;
        inner.n = n;
        return sbx_cmd_check_joined(c, &inner, i);
}

/* Short and long spellings of the same flag, per subcommand ("+" is a refspec that
 * forces: git push origin +main). */
static const struct {
        const char *sub, *flag, *alias;
} git_synonyms[] = {
        { "push", "--force", "-f" },      { "push", "--force", "+" },       { "push", "--delete", "-d" },
        { "clean", "--force", "-f" },     { "branch", "--delete", "-d" },   { "branch", "--force", "-f" },
        { "branch", "--delete", "-D" },   { "branch", "--force", "-D" },    { "checkout", "--force", "-f" },
        { "switch", "--force", "-f" },    { "add", "--force", "-f" },       { "rm", "--force", "-f" },
        { "tag", "--force", "-f" },       { "tag", "--delete", "-d" },      { "fetch", "--force", "-f" },
        { "worktree", "--force", "-f" },
};

/* Does argument @a spell flag @form? */
static bool spells(const char *form, const char *a)
{
        size_t n = strlen(form);

        if (streq(form, "+"))
                return a[0] == '+';
        if (form[0] == '-' && form[1] != '-' && n == 2)
                /* a single letter, alone or in a cluster: -f, -uf */
                return a[0] == '-' && a[1] != '-' && strchr(a + 1, form[1]);
        if (startswith(form, "--") && startswith(a, form))
                /* --force=…, --force-with-lease, --force-if-includes */
                return a[n] == '\0' || a[n] == '=' || a[n] == '-';
        /* git takes any unambiguous prefix of a long option: --forc */
        return startswith(form, "--") && startswith(a, "--") && strlen(a) > 3 && startswith(form, a);
}

static bool has_flag(const char *sub, const char *flag, const struct sbx_sh_word *w, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                if (spells(flag, w[i].text))
                        return true;
                for (size_t k = 0; k < ELEMENTSOF(git_synonyms); k++) {
                        if (!streq(git_synonyms[k].sub, sub))
                                continue;
                        if ((streq(git_synonyms[k].flag, flag) && spells(git_synonyms[k].alias, w[i].text)) ||
                            (streq(git_synonyms[k].alias, flag) && spells(git_synonyms[k].flag, w[i].text)))
                                return true;
                }
        }
        return false;
}

/* One git.deny entry, "SUB FLAG…", against the subcommand @w[0] and its arguments. */
static int git_entry(struct sbx_cmd_ctx *c, const char *entry, const struct sbx_sh_word *w, size_t n,
                     const char *seg, const struct sbx_cmd_how *how)
{
        _cleanup_free_ char *copy = strdup(entry);
        char *save = NULL, *tok;

        if (!copy)
                return -ENOMEM;
        tok = strtok_r(copy, " \t", &save);
        if (!tok || !streq(tok, w[0].text))
                return 0;
        for (size_t i = 1; i < n && save && *save; i++)
                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, seg, "git: argument '%s' is computed at run time and '%s' is denied (" GIT_RULE ")",
                                            w[i].text, entry);
        if (how->runtime_args && save && *save)
                return sbx_cmd_deny(c, seg, "git: arguments come from stdin and '%s' is denied (" GIT_RULE ")", entry);
        while ((tok = strtok_r(NULL, " \t", &save)))
                if (!has_flag(w[0].text, tok, w + 1, n - 1))
                        return 0;
        return sbx_cmd_deny(c, seg, "git: '%s' is denied (" GIT_RULE ")", entry);
}

int sbx_rule_git(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k)
{
        static const char *const with_arg[] = { "-C", "-c", "--work-tree", "--namespace", "--config-env",
                                                "--super-prefix", "--attr-source", "--list-cmds", NULL };
        static const char *const flags[] = { "-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects",
                                             "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs",
                                             "--icase-pathspecs", "--no-optional-locks", "--no-lazy-fetch",
                                             "--no-advice", "--html-path", "--man-path", "--info-path", "--exec-path",
                                             "--version", "-v", "--help", "-h", NULL };
        const struct sbx_sh_word *w = k->w;
        const char *seg = k->seg;
        size_t i = 1, n = k->n;
        int r = 0;

        /* git's own options, before the subcommand */
        for (; i < n; i++) {
                const char *t = w[i].text;
                size_t len = strcspn(t, "=");
                bool known = false;

                if (sbx_cmd_computed(&w[i]))
                        return sbx_cmd_deny(c, seg, "git: '%s' is computed at run time " SBX_UNREAD, t);
                if (t[0] != '-')
                        break;
                if (startswith(t, "--exec-path="))
                        return sbx_cmd_deny(c, seg, "git: --exec-path= makes git run its subcommands from '%s' " SBX_LOADS,
                                            t + 12);
                if (startswith(t, "--git-dir"))
                        return sbx_cmd_deny(c, seg, "git: --git-dir makes git read the configuration and hooks of another "
                                            "repository: run it there with -C " SBX_LOADS);
                if (streq(t, "-c") && i + 1 < n && (r = config_item(c, &w[i + 1], seg)) < 0)
                        return r;
                if (startswith(t, "--config-env") && (t[len] || i + 1 < n)) {
                        const char *item = t[len] ? t + len + 1 : w[i + 1].text;
                        _cleanup_free_ char *key = strndup(item, strcspn(item, "="));

                        if (!key)
                                return -ENOMEM;
                        if (key_kind(key) != KEY_DATA)
                                return sbx_cmd_deny(c, seg, "git: config '%s' comes from the environment, and git may run "
                                                    "it " SBX_UNREAD, key);
                }
                for (size_t a = 0; with_arg[a] && !known; a++)
                        if (strlen(with_arg[a]) == len && strncmp(t, with_arg[a], len) == 0) {
                                known = true;
                                i += t[len] ? 0 : 1;
                        }
                for (size_t a = 0; flags[a] && !known; a++)
                        known = streq(t, flags[a]);
                if (!known)
                        return sbx_cmd_deny(c, seg, "git: unknown option '%s' before the subcommand " SBX_UNREAD, t);
                if (c->denied)
                        return 0;
        }
        if (sbx_cmd_deny_splits(c, k, 1, i) || i >= n) /* -C $dir could be -C x push --force */
                return 0;
        if (sbx_cmd_computed(&w[i]))
                return sbx_cmd_deny(c, seg, "git: subcommand '%s' is computed at run time " SBX_UNREAD, w[i].text);
        if (streq(w[i].text, "config") && ((r = config_cmd(c, w + i, n - i, seg)) < 0 || c->denied))
                return r;
        if ((r = sub_runs(c, k, i)) <= 0)
                return r;
        r = 0;
        for (size_t s = 0; s < ELEMENTSOF(sub_opts) && r >= 0 && !c->denied; s++)
                if (streq(sub_opts[s].sub, w[i].text))
                        r = sbx_opts_scan(c, k, i + 1, sub_opts[s].opts);
        for (size_t e = 0; e < c->p->git_deny.n && !c->denied && r >= 0; e++)
                r = git_entry(c, c->p->git_deny.v[e], w + i, n - i, seg, k->how);
        return r;
}
