/* SPDX-License-Identifier: MIT */
/* From a layered profile and the command line to the plan: the command line may only
 * narrow what the profile allows (lower limits, no network the profile does not give;
 * its binds are checked against the profile's roots by validation), then the system
 * view, the environment taken from the caller, and the execute allowlist. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "../lib/broker.h"
#include "../lib/egress.h"
#include "../lib/json.h"
#include "../lib/tier.h"
#include "profile.h"
#include "resolve.h"

extern char **environ;

/* One limit: the caller may lower it, never raise it past a limit the profile sets. */
static int narrow_limit(struct sbx_plan *p, const struct sbx_option *o, uint64_t asked, struct sbx_error *e)
{
        uint64_t *have = sbx_option_u64(p, o);
        int r;

        if (*have && asked > *have) {
                r = sbx_error_set(e, SBX_STAGE_PROFILE, EPERM, "", "", "--%s %llu%s exceeds profile '%s''s limit of %llu%s", o->cli,
                                  (unsigned long long)(asked / o->scale), o->unit, p->name,
                                  (unsigned long long)(*have / o->scale), o->unit);
                sbx_error_hint(e, "ask for at most the profile's limit, or use a profile that allows more");
                return r;
        }
        *have = asked;
        return 0;
}

static int narrow_limits(struct sbx_plan *p, const struct sbx_ask *ask, struct sbx_error *e)
{
        const struct sbx_limits *c = &ask->plan.limits;
        struct sbx_limits *l = &p->limits;
        int r;

        for (size_t i = 0; i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];

                if (o->limit && sbx_ask_given(ask, o) &&
                    (r = narrow_limit(p, o, sbx_option_get_u64(&ask->plan, o), e)) < 0)
                        return r;
        }
        /* Limits asked for are never weakened; the profile's are, where it says the
         * cgroup is optional. */
        l->memory_explicit = c->memory || (l->memory && !(p->optional & SBX_HARDEN_CGROUP));
        l->pids_explicit = c->pids || (l->pids && !(p->optional & SBX_HARDEN_CGROUP));
        return 0;
}

/* The caller's --net-deny rules join the profile's; the proxy variables point
 * proxy-aware tools at the broker (lib/egress.h), which the others reach anyway. */
static int narrow_net(struct sbx_plan *p, const struct sbx_plan *cli, struct sbx_error *e)
{
        static const char *const proxy_vars[] = { "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy" };
        int r;

        if (cli->net_rules.n && p->net != SBX_NET_FILTERED) {
                r = sbx_error_set(e, SBX_STAGE_PROFILE, EINVAL, "", "", "--net-deny needs network: filtered (the jail's network is '%s')",
                                  sbx_net_name(p->net));
                sbx_error_hint(e, "drop --net-deny, or use a profile with network: filtered");
                return r;
        }
        for (size_t i = 0; i < cli->net_rules.n; i++)
                if ((r = sbx_netrules_add(&p->net_rules, cli->net_rules.v[i].text, SBX_NETRULE_DENY, e)) < 0)
                        return r;
        if (p->net == SBX_NET_HOST)
                return 0;
        /* With network: none, the same port answers that there is no network
         * (lib/nonet.h): proxy-aware tools fail at once and say why. */
        for (size_t i = 0; i < ELEMENTSOF(proxy_vars); i++)
                if ((r = sbx_plan_set_env(p, proxy_vars[i], SBX_EGRESS_PROXY_URL, e)) < 0)
                        return r;
        /* SOCKS5 is the broker's alone: the no-network answer is HTTP. */
        if (p->net == SBX_NET_FILTERED && ((r = sbx_plan_set_env(p, "ALL_PROXY", SBX_EGRESS_SOCKS_URL, e)) < 0 ||
                                           (r = sbx_plan_set_env(p, "all_proxy", SBX_EGRESS_SOCKS_URL, e)) < 0))
                return r;
        if ((r = sbx_plan_set_env(p, "NO_PROXY", "localhost,127.0.0.1,::1", e)) < 0 ||
            (r = sbx_plan_set_env(p, "no_proxy", "localhost,127.0.0.1,::1", e)) < 0)
                return r;
        return 0;
}

static int narrow(struct sbx_plan *p, const struct sbx_ask *ask, struct sbx_error *e)
{
        const struct sbx_plan *cli = &ask->plan;
        bool net_set = sbx_ask_given(ask, sbx_option_by_cli("net"));
        int r;

        if (net_set && cli->net == SBX_NET_HOST && p->net != SBX_NET_HOST) {
                r = sbx_error_set(e, SBX_STAGE_PROFILE, EPERM, "", "", "profile '%s' does not allow --net host", p->name);
                sbx_error_hint(e, "use a profile with network: host (e.g. --profile network)");
                return r;
        }
        if (net_set && cli->net == SBX_NET_FILTERED && p->net == SBX_NET_NONE) {
                r = sbx_error_set(e, SBX_STAGE_PROFILE, EPERM, "", "", "profile '%s' does not allow --net filtered", p->name);
                sbx_error_hint(e, "use a profile with network: filtered (e.g. --profile network), which says what it may reach");
                return r;
        }
        if (net_set)
                p->net = cli->net;
        if ((r = narrow_net(p, cli, e)) < 0)
                return r;
        p->sig_ignored = cli->sig_ignored;
        if ((r = narrow_limits(p, ask, e)) < 0)
                return r;
        /* The caller's start directory (below the workspace: sbx-run checked) over the
         * profile's workdir. */
        if (cli->workdir) {
                free(p->workdir);
                if (!(p->workdir = strdup(cli->workdir)))
                        return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        }
        if (cli->hostname) {
                free(p->hostname);
                if (!(p->hostname = strdup(cli->hostname)))
                        return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        }
        for (size_t i = 0; i < cli->n_env; i++) {
                const char *eq = strchr(cli->env[i], '=');
                _cleanup_free_ char *name = eq ? strndup(cli->env[i], (size_t)(eq - cli->env[i])) : NULL;

                if (!name)
                        return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
                if ((r = sbx_plan_set_env(p, name, eq + 1, e)) < 0)
                        return r;
        }
        /* The caller's binds and tmpfs, after the profile's; validation holds binds to
         * the profile's roots. */
        for (size_t i = 0; i < cli->n_mounts; i++) {
                const struct sbx_mount *m = &cli->mounts[i];

                if ((r = sbx_plan_add_mount(p, m->kind, m->source, m->dest, m->size, e)) < 0)
                        return r;
                p->mounts[p->n_mounts - 1].caller = true;
        }
        return 0;
}

/* The system view goes first, so that everything the profile adds lands on it. */
static int prepend_system_view(struct sbx_plan *p, struct sbx_error *e)
{
        struct sbx_plan sys;
        struct sbx_mount *all;
        int r;

        sbx_plan_init(&sys);
        if ((r = sbx_plan_add_system_view(&sys, e)) < 0) {
                sbx_plan_done(&sys);
                return r;
        }
        if (sys.n_mounts + p->n_mounts > SBX_MAX_MOUNTS) {
                sbx_plan_done(&sys);
                return sbx_error_set(e, SBX_STAGE_PROFILE, E2BIG, "", "", "more than %d mounts", SBX_MAX_MOUNTS);
        }
        all = reallocarray(sys.mounts, sys.n_mounts + p->n_mounts, sizeof(*all));
        if (!all) {
                sbx_plan_done(&sys);
                return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        }
        if (p->n_mounts)
                memcpy(all + sys.n_mounts, p->mounts, p->n_mounts * sizeof(*all));
        free(p->mounts);
        p->mounts = all;
        p->n_mounts += sys.n_mounts;
        sys.mounts = NULL;
        sys.n_mounts = 0;
        sbx_plan_done(&sys);
        return 0;
}

/* TERM, LANG and LC_* reach terminfo and locale parsers: only tame values. */
static bool needs_tame(const char *name)
{
        return strcmp(name, "TERM") == 0 || strcmp(name, "LANG") == 0 || strncmp(name, "LC_", 3) == 0;
}

/* environment.pass: the named variables (or NAME* prefixes) the caller has. */
static int pass_env(struct sbx_profile *pr, char *const *from, struct sbx_error *e)
{
        for (char *const *env = from ? from : environ; env && *env; env++) {
                const char *eq = strchr(*env, '=');
                size_t len = eq ? (size_t)(eq - *env) : 0;
                char name[256];
                int r;

                if (!eq || len == 0 || len >= sizeof(name))
                        continue;
                memcpy(name, *env, len);
                name[len] = '\0';
                for (size_t i = 0; i < pr->env_pass.n; i++) {
                        const char *pat = pr->env_pass.v[i];
                        size_t plen = strlen(pat);
                        bool match = pat[plen - 1] == '*' ? strncmp(name, pat, plen - 1) == 0 : strcmp(name, pat) == 0;

                        if (!match || (needs_tame(name) && !sbx_env_value_is_tame(eq + 1)))
                                continue;
                        if ((r = sbx_plan_set_env(&pr->plan, name, eq + 1, e)) < 0)
                                return r;
                        break;
                }
        }
        return 0;
}

static int add_deny(struct sbx_profile *pr, const char *name, struct sbx_error *e)
{
        if (sbx_strv_contains(&pr->seccomp_deny, name) || sbx_strv_push(&pr->seccomp_deny, name) == 0)
                return 0;
        return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
}

/* allowlist mode: the kernel enforces the list too.  A memfd lives on an internal
 * file system that neither Landlock nor noexec covers, so none may be made. */
static int restrict_exec(struct sbx_profile *pr, struct sbx_error *e)
{
        int r;

        if (pr->commands.mode != SBX_CMD_ALLOWLIST)
                return 0;
        if (sbx_execset_build(pr) < 0)
                return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        if ((r = add_deny(pr, "memfd_create", e)) < 0 || (r = add_deny(pr, "memfd_secret", e)) < 0)
                return r;
        return 0;
}

/* memory_deny_write_execute: as the profile says, and when it says nothing, on with an
 * allowlist, whose promise is that nothing the jail writes runs, in memory too. */
static void memory_wx(struct sbx_profile *pr)
{
        pr->plan.mdwe = pr->mdwe >= 0 ? pr->mdwe == 1 : pr->commands.mode == SBX_CMD_ALLOWLIST;
}

/* ptrace writes into another process's code (FOLL_FORCE, past its page protections),
 * so with memory_deny_write_execute, whose promise is that nothing the jail writes
 * runs, a process could write code into a traced one and run it there: the two do not
 * go together.  process_vm_writev keeps page protections and may. */
static int ptrace_or_wx(const struct sbx_profile *pr, struct sbx_error *e)
{
        int r;

        if (!pr->plan.mdwe || !sbx_strv_contains(&pr->seccomp_allow, "ptrace"))
                return 0;
        r = sbx_error_set(e, SBX_STAGE_PROFILE, EINVAL, "", "",
                          "profile '%s' allows ptrace with memory_deny_write_execute (or an allowlist): a tracer writes code into the processes it traces",
                          pr->plan.name ? pr->plan.name : "?");
        sbx_error_hint(e, "drop ptrace from seccomp.allow, or use a profile without memory_deny_write_execute, such as debug");
        return r;
}

/* The home as the user database spells it may pass through symlinks (/home -> /data/home);
 * validation compares canonical paths, so it protects the home under both spellings. */
static int real_home(struct sbx_plan *p, struct sbx_caller *caller, struct sbx_error *e)
{
        char real[PATH_MAX];
        struct sbx_error ignored;

        free(p->home_real);
        p->home_real = NULL;
        if (caller->realpath(caller, p->home, real, sizeof(real), &ignored) < 0 || strcmp(real, p->home) == 0)
                return 0; /* no home there: nothing of it to protect */
        if (!(p->home_real = strdup(real)))
                return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        return 0;
}

int sbx_profile_resolve(struct sbx_profile *pr, const struct sbx_ask *ask, const struct sbx_vars *vars,
                        struct sbx_caller *caller, struct sbx_error *e)
{
        struct sbx_plan *p = &pr->plan;
        const char *home;
        int r;

        free(p->workspace);
        free(p->home);
        p->workspace = strdup(vars->workspace);
        p->home = strdup(vars->home);
        if (!p->workspace || !p->home || !p->hostname)
                return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
        if ((r = real_home(p, caller, e)) < 0)
                return r;
        /* The execute allowlist is looked up on the profile's PATH, before the caller's
         * --env could point it into the workspace. */
        memory_wx(pr);
        if ((r = ptrace_or_wx(pr, e)) < 0 || (r = restrict_exec(pr, e)) < 0 || (r = pass_env(pr, vars->env, e)) < 0 ||
            (r = narrow(p, ask, e)) < 0)
                return r;
        /* filesystem.git, for the workspace and every read-write bind (git.h). */
        if ((r = sbx_git_prepare(pr, caller, e)) < 0 || (r = sbx_git_identity(pr, vars, caller, e)) < 0)
                return r;
        if (pr->system && (r = prepend_system_view(p, e)) < 0)
                return r;
        /* No host unix socket reachable: the connect broker where it can run, else no
         * unix socket but pairs (lib/broker.h). */
        p->unix_broker = sbx_broker_usable(p);
        home = sbx_plan_get_env(p, "HOME");
        pr->commands.home = home ? home : "/";
        for (size_t i = 0; i < pr->commands.rm_protected.n; i++)
                if (strcmp(pr->commands.rm_protected.v[i], "~") == 0) {
                        char *h = strdup(pr->commands.home);

                        if (!h)
                                return sbx_error_set(e, SBX_STAGE_PROFILE, ENOMEM, "", "", "out of memory");
                        free(pr->commands.rm_protected.v[i]);
                        pr->commands.rm_protected.v[i] = h;
                }
        pr->commands.cwd = p->workdir ? p->workdir : p->workspace_mode != SBX_WS_NONE ? p->workspace : "/";
        return 0;
}

/* The changes to the default seccomp filter a profile makes. */
static struct sbx_seccomp_extra seccomp_extra(const struct sbx_profile *pr)
{
        return (struct sbx_seccomp_extra){
                .allow = pr->seccomp_allow.v,
                .n_allow = pr->seccomp_allow.n,
                .deny = pr->seccomp_deny.v,
                .n_deny = pr->seccomp_deny.n,
                .kill = pr->seccomp_action == 1,
                .wx = pr->plan.mdwe,
                .no_unix = !pr->plan.unix_broker,
        };
}

void sbx_profile_to_json(const struct sbx_profile *pr, FILE *f)
{
        static const char *const modes[] = { "off", "allowlist", "denylist" };
        struct sbx_seccomp_extra x = seccomp_extra(pr);
        const struct sbx_cmd_policy *c = &pr->commands;
        struct sbx_rlimit_key rlimits[SBX_RLIMIT_MAX + 1];
        struct sbx_plan_forecast fc;

        sbx_plan_forecast(&pr->plan, &fc);
        sbx_option_rlimit_keys(rlimits);
        sbx_plan_to_json_fields(&pr->plan, &fc, rlimits, f);
        sbx_json_strv(f, "extends_chain", &pr->chain);
        fputs(",\"seccomp\":{\"action\":", f);
        sbx_json_string(f, pr->seccomp_action ? "kill" : "errno");
        sbx_json_strv(f, "allow", &pr->seccomp_allow);
        sbx_json_strv(f, "deny", &pr->seccomp_deny);
        /* "builtin": the default filter or one of its variants compiled with sbx;
         * "compiled": the profile's allow/deny need a filter of their own. */
        fprintf(f, ",\"filter\":\"%s\",\"memory_deny_write_execute\":%s,\"unix_connect\":\"%s\"",
                sbx_seccomp_variant_of(&x) >= 0 ? "builtin" : "compiled", x.wx ? "true" : "false",
                x.no_unix ? "socketpairs only" : "brokered");
        fputs("},\"commands\":{\"mode\":", f);
        sbx_json_string(f, modes[c->mode]);
        sbx_json_strv(f, "allow", &c->allow);
        sbx_json_strv(f, "deny", &c->deny);
        sbx_json_strv(f, "deny_patterns", &c->deny_patterns);
        fprintf(f, ",\"allow_pipe_to_shell\":%s", c->allow_pipe_to_shell ? "true" : "false");
        sbx_json_strv(f, "rm_protected", &c->rm_protected);
        sbx_json_strv(f, "chmod_modes", &c->chmod_modes);
        sbx_json_strv(f, "kill_targets", &c->kill_targets);
        sbx_json_strv(f, "git_deny", &c->git_deny);
        fprintf(f, "},\"audit\":{\"argv_max\":%llu}", (unsigned long long)pr->audit_argv_max);
        fputs(",\"min_tier\":", f);
        sbx_json_string(f, sbx_tier_name(pr->min_tier));
        /* The profile's validator (the site's is sandboxd's, not shown here). */
        if (pr->validator.command.n) {
                fputs(",\"validator\":{\"command\":", f);
                sbx_json_strv(f, NULL, &pr->validator.command);
                fprintf(f, ",\"timeout_ms\":%llu}", (unsigned long long)(pr->validator.timeout_ms ? pr->validator.timeout_ms : SBX_VALIDATOR_TIMEOUT_MS));
        } else {
                fputs(",\"validator\":null", f);
        }
        sbx_json_strv(f, "final", &pr->final);
        fputs("}\n", f);
}

/* The filter a profile asks for: one compiled at build time when its changes are the
 * common ones (allowlist mode's memfd denial, memory_deny_write_execute), else
 * compiled now. */
int sbx_profile_seccomp(const struct sbx_profile *pr, struct sbx_seccomp *s, const struct sbx_seccomp **ret,
                        struct sbx_error *e)
{
        struct sbx_seccomp_extra x = seccomp_extra(pr);
        int r, v = sbx_seccomp_variant_of(&x);

        *s = (struct sbx_seccomp){ 0 };
        if (v >= 0) {
                *ret = sbx_seccomp_builtin((unsigned)v);
                return 0;
        }
        if ((r = sbx_seccomp_prepare(s, &x, e)) < 0)
                return r;
        *ret = s;
        return 0;
}
