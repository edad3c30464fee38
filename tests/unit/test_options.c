/* SPDX-License-Identifier: MIT */
/* sbx-run's argv parser: a pure function, tested as one. */
#include <errno.h>
#include <stdarg.h>
#include <sys/resource.h>

#include "../../sbx-run/options.h"
#include "unit.h"

#define G "unit-options"

/* Parses a NULL-terminated list of words; returns the parser's result. */
static int parse(struct sbx_options *o, struct sbx_error *e, ...)
{
        static char *argv[64];
        va_list ap;
        int argc = 0;

        va_start(ap, e);
        argv[argc++] = "sbx-run";
        for (char *w; (w = va_arg(ap, char *));)
                argv[argc++] = w;
        va_end(ap);
        argv[argc] = NULL;
        *e = (struct sbx_error){ 0 };
        return sbx_options_parse(argc, argv, o, e);
}

static const struct sbx_mount *find_mount(const struct sbx_plan *p, const char *dest)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (strcmp(p->mounts[i].dest, dest) == 0)
                        return &p->mounts[i];
        return NULL;
}

#define REFUSES(name, hint_word, ...)                                                         \
        do {                                                                                    \
                struct sbx_options o_;                                                          \
                struct sbx_error e_;                                                            \
                int r_ = parse(&o_, &e_, __VA_ARGS__, NULL);                                    \
                CHECK(G, name, r_ < 0 && e_.stage == SBX_STAGE_OPTIONS &&                    \
                                   (strstr(e_.msg, hint_word) || strstr(e_.hint, hint_word)));  \
                sbx_options_done(&o_);                                                          \
        } while (0)

int main(void)
{
        struct sbx_options o;
        struct sbx_error e;
        const struct sbx_mount *m;
        int r;

        r = parse(&o, &e, "--", "/bin/true", NULL);
        CHECK(G, "minimal command", r == 0 && o.action == SBX_ACTION_RUN && strcmp(o.ask.plan.argv[0], "/bin/true") == 0);
        /* The command line holds only what it said: the profile gives the rest. */
        CHECK(G, "no profile named: the default", o.profile == NULL);
        CHECK(G, "net not given", !sbx_ask_given(&o.ask, sbx_option_by_cli("net")));
        CHECK(G, "no hostname given", o.ask.plan.hostname == NULL);
        CHECK(G, "no env given", o.ask.plan.n_env == 0);
        CHECK(G, "no mounts given", o.ask.plan.n_mounts == 0);
        CHECK(G, "no limits given", o.ask.plan.limits.pids == 0 && o.ask.plan.limits.memory == 0 && o.ask.plan.limits.timeout_ms == 0);
        sbx_options_done(&o);

        r = parse(&o, &e, "--profile", "strict", "--check", "--", "ls", NULL);
        CHECK(G, "--profile and --check", r == 0 && strcmp(o.profile, "strict") == 0 && o.action == SBX_ACTION_CHECK);
        sbx_options_done(&o);
        r = parse(&o, &e, "--list-profiles", NULL);
        CHECK(G, "--list-profiles needs no command", r == 0 && o.action == SBX_ACTION_LIST_PROFILES);
        sbx_options_done(&o);
        REFUSES("empty --profile", "--profile", "--profile", "", "--", "sh");

        r = parse(&o, &e, "/bin/echo", "--not-ours", NULL);
        CHECK(G, "command's own flags stay its own", r == 0 && strcmp(o.ask.plan.argv[1], "--not-ours") == 0);
        sbx_options_done(&o);

        r = parse(&o, &e, "--ro", "/srv/data:/data", "--rw", "/var/tmp/x", "--tmpfs", "/scratch:8M", "--", "sh", NULL);
        CHECK(G, "--ro with dest", r == 0 && (m = find_mount(&o.ask.plan, "/data")) && m->kind == SBX_MOUNT_RO &&
                                           strcmp(m->source, "/srv/data") == 0);
        CHECK(G, "--rw without dest", (m = find_mount(&o.ask.plan, "/var/tmp/x")) && m->kind == SBX_MOUNT_RW);
        CHECK(G, "--tmpfs with size", (m = find_mount(&o.ask.plan, "/scratch")) && m->size == (8u << 20));
        sbx_options_done(&o);

        r = parse(&o, &e, "--ro", "/a:b", "--", "sh", NULL);
        CHECK(G, "--ro path with colon and no dest kept whole", r == 0 && find_mount(&o.ask.plan, "/a:b"));
        sbx_options_done(&o);

        r = parse(&o, &e, "--env", "FOO=bar=baz", "--env", "EMPTY=", "--", "sh", NULL);
        CHECK(G, "--env value with '='", r == 0 && strcmp(sbx_plan_get_env(&o.ask.plan, "FOO"), "bar=baz") == 0);
        CHECK(G, "--env empty value", strcmp(sbx_plan_get_env(&o.ask.plan, "EMPTY"), "") == 0);
        sbx_options_done(&o);

        setenv("SBX_UNIT_PASS", "passed-through", 1);
        r = parse(&o, &e, "--env", "SBX_UNIT_PASS", "--env", "PATH=/x", "--", "sh", NULL);
        CHECK(G, "--env NAME passes caller's value", r == 0 && strcmp(sbx_plan_get_env(&o.ask.plan, "SBX_UNIT_PASS"), "passed-through") == 0);
        CHECK(G, "--env sets a value", strcmp(sbx_plan_get_env(&o.ask.plan, "PATH"), "/x") == 0);
        sbx_options_done(&o);

        r = parse(&o, &e, "--timeout", "1.5", "--memory", "64M", "--pids", "32", "--cpu", "5", "--net", "host",
                  "--hostname", "box-1", "--json", "--", "sh", NULL);
        CHECK(G, "limits parsed", r == 0 && o.ask.plan.limits.timeout_ms == 1500 && o.ask.plan.limits.memory == (64u << 20) &&
                                          o.ask.plan.limits.pids == 32 && o.ask.plan.limits.rlimit[RLIMIT_CPU] == 5);
        CHECK(G, "--net host", sbx_ask_given(&o.ask, sbx_option_by_cli("net")) && o.ask.plan.net == SBX_NET_HOST);
        CHECK(G, "--hostname", strcmp(o.ask.plan.hostname, "box-1") == 0);
        CHECK(G, "--json", o.json);
        sbx_options_done(&o);

        r = parse(&o, &e, "--dry-run", "--", "sh", NULL);
        CHECK(G, "--dry-run", r == 0 && o.action == SBX_ACTION_DRY_RUN);
        sbx_options_done(&o);
        r = parse(&o, &e, "--", "sh", NULL);
        CHECK(G, "no audit file by default", r == 0 && !o.audit_file && o.audit_fd == -1);
        sbx_options_done(&o);
        r = parse(&o, &e, "--audit-file", "/var/log/a.jsonl", "--", "sh", NULL);
        CHECK(G, "--audit-file", r == 0 && o.audit_file && strcmp(o.audit_file, "/var/log/a.jsonl") == 0 && o.audit_fd == -1);
        sbx_options_done(&o);
        r = parse(&o, &e, "--audit-fd", "3", "--", "sh", NULL);
        CHECK(G, "--audit-fd", r == 0 && o.audit_fd == 3 && !o.audit_file);
        sbx_options_done(&o);
        REFUSES("--audit-fd not a number", "--audit-fd", "--audit-fd", "3x", "--", "sh");
        REFUSES("--audit-fd negative", "--audit-fd", "--audit-fd", "-1", "--", "sh");
        REFUSES("--audit-fd too big", "--audit-fd", "--audit-fd", "99999999999", "--", "sh");
        REFUSES("--audit-file and --audit-fd", "not both", "--audit-file", "/a", "--audit-fd", "3", "--", "sh");
        REFUSES("empty --audit-file", "--audit-file", "--audit-file", "", "--", "sh");
        r = parse(&o, &e, "--", "sh", NULL);
        CHECK(G, "no --workspace-contains-cwd by default", r == 0 && !o.workspace_contains_cwd);
        sbx_options_done(&o);
        r = parse(&o, &e, "--workspace", "/w", "--workspace-contains-cwd", "--", "sh", NULL);
        CHECK(G, "--workspace-contains-cwd", r == 0 && o.workspace_contains_cwd);
        CHECK(G, "--workspace-contains-cwd sets no start directory itself", !o.ask.plan.workdir);
        sbx_options_done(&o);
        REFUSES("--workdir is not a flag (sbx-run finds it)", "unknown option", "--workdir", "/w", "--", "sh");
        {
                const struct sbx_option *wd = sbx_option_by_bus("workdir");
                struct sbx_ask a;

                CHECK(G, "workdir: a Run key, not a flag", wd && !wd->cli && sbx_option_bus_type(wd) == 's');
                sbx_ask_init(&a);
                CHECK(G, "workdir: an absolute path is taken",
                      wd && sbx_option_set(&a, wd, "workdir", "/w/src", &e) == 0 && strcmp(a.plan.workdir, "/w/src") == 0);
                CHECK(G, "workdir: '..' is refused", wd && sbx_option_set(&a, wd, "workdir", "/w/../etc", &e) < 0);
                CHECK(G, "workdir: relative is refused", wd && sbx_option_set(&a, wd, "workdir", "src", &e) < 0);
                sbx_ask_done(&a);
        }
        r = parse(&o, &e, "--help", NULL);
        CHECK(G, "--help needs no command", r == 0 && o.action == SBX_ACTION_HELP);
        sbx_options_done(&o);
        r = parse(&o, &e, "--version", NULL);
        CHECK(G, "--version needs no command", r == 0 && o.action == SBX_ACTION_VERSION);
        sbx_options_done(&o);

        REFUSES("no command", "no command", "--json");
        REFUSES("empty command", "empty", "--", "");
        REFUSES("unknown option", "unknown option", "--frobnicate", "--", "sh");
        REFUSES("missing value", "needs a value", "--memory");
        REFUSES("bad --net", "--net", "--net", "bridge", "--", "sh");
        REFUSES("bad --memory unit", "--memory", "--memory", "12X", "--", "sh");
        REFUSES("tiny --memory", "--memory", "--memory", "1K", "--", "sh");
        REFUSES("zero --pids", "--pids", "--pids", "0", "--", "sh");
        REFUSES("negative --pids", "--pids", "--pids", "-5", "--", "sh");
        REFUSES("zero --timeout", "--timeout", "--timeout", "0", "--", "sh");
        REFUSES("bad --timeout", "--timeout", "--timeout", "soon", "--", "sh");
        REFUSES("bad --cpu", "--cpu", "--cpu", "1.5", "--", "sh");
        REFUSES("relative --ro source", "absolute", "--ro", "etc/passwd", "--", "sh");
        REFUSES("--ro dest with ..", "destination", "--ro", "/etc/passwd:/x/../etc", "--", "sh");
        REFUSES("--rw dest /", "destination", "--rw", "/var/tmp:/", "--", "sh");
        REFUSES("--tmpfs relative", "destination", "--tmpfs", "scratch", "--", "sh");
        REFUSES("--tmpfs bad size", "size", "--tmpfs", "/s:lots", "--", "sh");
        REFUSES("--tmpfs dest with //", "destination", "--tmpfs", "/a//b", "--", "sh");
        REFUSES("--env bad name", "variable name", "--env", "1FOO=x", "--", "sh");
        REFUSES("--env empty name", "variable name", "--env", "=x", "--", "sh");
        REFUSES("--env unset passthrough", "no such variable", "--env", "SBX_SURELY_UNSET_VAR", "--", "sh");
        REFUSES("bad --hostname", "--hostname", "--hostname", "a b", "--", "sh");
        REFUSES("long --hostname", "--hostname", "--hostname",
                "a123456789012345678901234567890123456789012345678901234567890123456789", "--", "sh");
        REFUSES("empty --workspace", "--workspace", "--workspace", "", "--", "sh");

        CHECK(G, "normal path", sbx_path_is_normal("/usr/lib"));
        CHECK(G, "path / refused", !sbx_path_is_normal("/"));
        CHECK(G, "path . refused", !sbx_path_is_normal("/a/./b"));
        CHECK(G, "path trailing .. refused", !sbx_path_is_normal("/a/.."));
        CHECK(G, "path trailing slash refused", !sbx_path_is_normal("/a/"));
        CHECK(G, "path relative refused", !sbx_path_is_normal("a/b"));
        CHECK(G, "path ... is a name", sbx_path_is_normal("/a/..."));
        return unit_failed ? 1 : 0;
}
