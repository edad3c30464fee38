/* SPDX-License-Identifier: MIT */
/* The one decision (policy/decide.c), without a jail: each place a decision can stop,
 * in direct mode and under a site's terms, and what an allowed plan holds before it
 * runs (the ceilings, the caller's identity, the socket masks applied by validation). */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/probe.h"
#include "../../policy/decide.h"
#include "unit.h"

#define G "unit-decide"

static char ws[] = "/tmp/sbx-unit-decide-XXXXXX";
static const char *audit_id; /* the next decision's audit id (NULL: none) */
static const struct sbx_probe *probe; /* the next decision's environment (NULL: no tier) */

/* Decides @argv under @profile with @ask (NULL: nothing asked) and @site. */
static enum sbx_outcome decide(struct sbx_decision *d, const char *profile, char **argv, struct sbx_ask *ask,
                               const struct sbx_site_terms *site, enum sbx_decide_upto upto)
{
        struct sbx_ask none;
        struct sbx_vars vars;
        struct sbx_diag diag = { 0 };
        enum sbx_outcome o;

        sbx_ask_init(&none);
        if (!ask)
                ask = &none;
        ask->plan.argv = argv;
        if (sbx_vars_init(&vars, ws, &diag) < 0)
                abort();
        sbx_decision_init(d);
        o = sbx_decide(&(struct sbx_decide_in){ .profile = profile, .ask = ask, .vars = &vars,
                                                .caller = &sbx_caller_self, .site = site, .audit_id = audit_id,
                                                .probe = probe, .upto = upto },
                       d);
        sbx_ask_done(&none);
        return o;
}

static const struct sbx_mount *find_mask(const struct sbx_plan *p, const char *dest)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (p->mounts[i].kind == SBX_MOUNT_MASK && strcmp(p->mounts[i].dest, dest) == 0)
                        return &p->mounts[i];
        return NULL;
}

static void test_direct(void)
{
        char *ok[] = { "true", NULL }, *nc[] = { "nc", "-l", "1", NULL };
        struct sbx_decision d;
        struct sbx_ask ask;

        CHECK(G, "allowed: every step passed", decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                                                     d.at == SBX_AT_END && d.filter && d.verdict.allow);
        CHECK(G, "allowed: the plan validated (canonical workspace)", strcmp(d.pr.plan.workspace, ws) == 0);
        CHECK(G, "no audit id asked, none in the plan", d.pr.plan.audit_id[0] == '\0');
        sbx_decision_done(&d);

        /* The run's id is the decision's input, so no program writes the plan after
         * the decision (the broker's records name it). */
        audit_id = "0123456789abcdef";
        CHECK(G, "the audit id is in the decided plan", decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                                                                strcmp(d.pr.plan.audit_id, audit_id) == 0);
        audit_id = NULL;
        sbx_decision_done(&d);

        CHECK(G, "strict denies nc at the command policy", decide(&d, "strict", nc, NULL, NULL, SBX_DECIDE_RUN) == SBX_DENIED &&
                                                                 d.at == SBX_AT_COMMANDS && !d.verdict.allow &&
                                                                 strstr(d.reason, "command policy of profile 'strict'") &&
                                                                 !d.filter);
        sbx_decision_done(&d);

        CHECK(G, "--check stops at the verdict", decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_VERDICT) == SBX_ALLOWED &&
                                                      d.verdict.allow && !d.filter && d.pr.plan.uid == getuid() &&
                                                      strcmp(d.pr.plan.workspace, ws) == 0);
        sbx_decision_done(&d);

        CHECK(G, "an unknown profile fails at the profile, named",
              decide(&d, "no-such-profile", ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_FAILED && d.at == SBX_AT_PROFILE &&
                      !d.loaded && strstr(d.reason, "no-such-profile"));
        sbx_decision_done(&d);

        sbx_ask_init(&ask);
        CHECK(G, "ask: pids from the table", sbx_option_set(&ask, sbx_option_by_cli("pids"), "--pids", "99999", &d.err) == 0);
        CHECK(G, "a limit above the profile's is denied at the profile",
              decide(&d, NULL, ok, &ask, NULL, SBX_DECIDE_RUN) == SBX_DENIED && d.at == SBX_AT_PROFILE &&
                      d.err.errnum == EPERM && strstr(d.reason, "--pids 99999"));
        sbx_decision_done(&d);
        sbx_ask_done(&ask);

        sbx_ask_init(&ask);
        sbx_option_set(&ask, sbx_option_by_cli("rw"), "--rw", "/etc", &d.err);
        CHECK(G, "a bind outside the roots is denied at validation",
              decide(&d, NULL, ok, &ask, NULL, SBX_DECIDE_PLAN) == SBX_DENIED && d.at == SBX_AT_VALIDATE &&
                      strstr(d.reason, "/etc"));
        sbx_decision_done(&d);
        sbx_ask_done(&ask);
}

static void test_site(void)
{
        char *ok[] = { "true", NULL }, *curl[] = { "curl", "x", NULL };
        static const gid_t groups[] = { 1000, 27 };
        static const char hide[][108] = { "/tmp/sbx-unit-decide-sock" };
        struct sbx_site_grant grant = { .max_pids = 10, .max_time_ms = 5000 };
        struct sbx_cmd_policy deny = { .mode = SBX_CMD_DENYLIST };
        struct sbx_site_terms site = { .uid = 1000, .gid = 1000, .groups = groups, .n_groups = 2, .grant = &grant,
                                       .deny = &deny, .hide = hide, .n_hide = 1 };
        char path[256];
        struct sbx_decision d;
        struct sbx_ask ask;
        FILE *f;

        sbx_strv_push(&deny.deny, "curl");
        CHECK(G, "the site's deny rule stops what the profile allows",
              decide(&d, NULL, curl, NULL, &site, SBX_DECIDE_RUN) == SBX_DENIED && d.at == SBX_AT_SITE &&
                      strstr(d.reason, "site policy deny rule"));
        sbx_decision_done(&d);

        CHECK(G, "under the site's terms: allowed", decide(&d, NULL, ok, NULL, &site, SBX_DECIDE_RUN) == SBX_ALLOWED);
        CHECK(G, "the site's ceilings lower the profile's limits before validation",
              d.pr.plan.limits.pids == 10 && d.pr.plan.limits.timeout_ms == 5000 && d.pr.plan.limits.pids_explicit);
        /* (in a user namespace exactly where this process has no CAP_SYS_ADMIN: a
         * container's root, or this test as nobody; lib/jail.c maps the caller) */
        CHECK(G, "the command runs as the caller", d.pr.plan.run_as && d.pr.plan.userns == sbx_probe_need_userns() && d.pr.plan.uid == 1000 &&
                                                         d.pr.plan.gid == 1000 && d.pr.plan.n_groups == 2 &&
                                                         d.pr.plan.groups[1] == 27);
        sbx_decision_done(&d);

        sbx_ask_init(&ask);
        sbx_option_set(&ask, sbx_option_by_cli("pids"), "--pids", "20", &d.err);
        CHECK(G, "a limit above the site's ceiling is denied", decide(&d, NULL, ok, &ask, &site, SBX_DECIDE_RUN) == SBX_DENIED &&
                                                                    d.at == SBX_AT_CEILING && strstr(d.reason, "pids 20"));
        sbx_decision_done(&d);
        sbx_ask_done(&ask);

        /* sandboxd's socket under a bind the caller asked for: masked, by validation. */
        sbx_ask_init(&ask);
        sbx_option_set(&ask, sbx_option_by_cli("ro"), "--ro", "/tmp:/host-tmp", &d.err);
        CHECK(G, "a bind carrying sandboxd's socket: allowed", decide(&d, NULL, ok, &ask, &site, SBX_DECIDE_RUN) == SBX_ALLOWED);
        CHECK(G, "... with /dev/null over the socket", find_mask(&d.pr.plan, "/host-tmp/sbx-unit-decide-sock") != NULL);
        sbx_decision_done(&d);
        sbx_ask_done(&ask);

        snprintf(path, sizeof(path), "%s/caps.yaml", ws);
        f = fopen(path, "w");
        if (f) {
                fputs("extends: workspace\ncapabilities: [CAP_NET_BIND_SERVICE]\n", f);
                fclose(f);
        }
        CHECK(G, "a profile that keeps capabilities is denied to a caller",
              decide(&d, path, ok, NULL, &site, SBX_DECIDE_RUN) == SBX_DENIED && d.at == SBX_AT_CAPS);
        sbx_decision_done(&d);
        unlink(path);
        sbx_cmd_policy_done(&deny);
}


/* sandboxd's socket inside the workspace itself: the workspace bind carries it, and
 * validation masks it there too (not only under binds the caller asked for). */
static void test_workspace_mask(void)
{
        char *ok[] = { "true", NULL };
        static char hide[1][108];
        static const gid_t groups[] = { 0 };
        struct sbx_site_grant grant = { 0 };
        struct sbx_cmd_policy deny = { .mode = SBX_CMD_DENYLIST };
        struct sbx_site_terms site = { .uid = 0, .gid = 0, .groups = groups, .n_groups = 1, .grant = &grant, .deny = &deny, .hide = hide, .n_hide = 1 };
        struct sbx_decision d;

        snprintf(hide[0], sizeof(hide[0]), "%s/sub/sandboxd.sock", ws);
        CHECK(G, "a workspace holding sandboxd's socket: allowed", decide(&d, NULL, ok, NULL, &site, SBX_DECIDE_RUN) == SBX_ALLOWED);
        CHECK(G, "... with /dev/null over the socket in the workspace bind", find_mask(&d.pr.plan, hide[0]) != NULL);
        sbx_decision_done(&d);
        sbx_cmd_policy_done(&deny);
}

/* A profile file in the workspace's parent, for the decisions below. */
static void write_profile(char *path, size_t size, const char *name, const char *text)
{
        FILE *f;

        snprintf(path, size, "%s/%s.yaml", ws, name);
        f = fopen(path, "w");
        if (!f)
                abort();
        fputs(text, f);
        fclose(f);
}

/* /dev/shm's size: a tmpfs at exactly /dev/shm, the caller's after the profile's;
 * nothing else under /dev. */
static void test_shm(void)
{
        char *ok[] = { "true", NULL }, path[256];
        struct sbx_decision d;
        struct sbx_ask ask;
        struct sbx_error e = { 0 };

        CHECK(G, "shm: 64M by default",
              decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                      sbx_plan_shm_size(&d.pr.plan) == 64ull << 20);
        sbx_decision_done(&d);

        sbx_ask_init(&ask);
        CHECK(G, "shm: --tmpfs /dev/shm:1G parses",
              sbx_option_set(&ask, sbx_option_by_cli("tmpfs"), "--tmpfs", "/dev/shm:1G", &e) == 0);
        CHECK(G, "shm: --tmpfs /dev/shm:1G is allowed and sets the size",
              decide(&d, NULL, ok, &ask, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                      sbx_plan_shm_size(&d.pr.plan) == 1ull << 30);
        sbx_decision_done(&d);
        sbx_ask_done(&ask);

        write_profile(path, sizeof(path), "shm",
                      "extends: workspace\ndescription: x\nfilesystem:\n  tmpfs: [/dev/shm:300M]\n");
        sbx_ask_init(&ask);
        CHECK(G, "shm: the profile's /dev/shm:300M",
              decide(&d, path, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                      sbx_plan_shm_size(&d.pr.plan) == 300ull << 20);
        sbx_decision_done(&d);
        sbx_option_set(&ask, sbx_option_by_cli("tmpfs"), "--tmpfs", "/dev/shm:1G", &e);
        CHECK(G, "shm: the caller's above the profile's wins (charged to the memory limit)",
              decide(&d, path, ok, &ask, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED &&
                      sbx_plan_shm_size(&d.pr.plan) == 1ull << 30);
        sbx_decision_done(&d);
        sbx_ask_done(&ask);
        unlink(path);

        sbx_ask_init(&ask);
        sbx_option_set(&ask, sbx_option_by_cli("tmpfs"), "--tmpfs", "/dev/shm/x:1M", &e);
        CHECK(G, "shm: a tmpfs below /dev/shm is refused", decide(&d, NULL, ok, &ask, NULL, SBX_DECIDE_RUN) != SBX_ALLOWED);
        sbx_decision_done(&d);
        sbx_ask_done(&ask);
}

/* ptrace with memory_deny_write_execute: refused; the debug profile: allowed. */
static void test_ptrace(void)
{
        char *ok[] = { "true", NULL }, path[256];
        struct sbx_decision d;

        CHECK(G, "ptrace: the debug profile is allowed",
              decide(&d, "debug", ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED);
        sbx_decision_done(&d);
        write_profile(path, sizeof(path), "wx",
                      "extends: workspace\ndescription: x\nmemory_deny_write_execute: true\nseccomp:\n  allow: [ptrace]\n");
        CHECK(G, "ptrace: refused with memory_deny_write_execute",
              decide(&d, path, ok, NULL, NULL, SBX_DECIDE_RUN) != SBX_ALLOWED &&
                      strstr(d.err.msg, "memory_deny_write_execute"));
        sbx_decision_done(&d);
        write_profile(path, sizeof(path), "wx", "extends: strict\ndescription: x\nseccomp:\n  allow: [ptrace]\n");
        CHECK(G, "ptrace: refused under an allowlist (strict)",
              decide(&d, path, ok, NULL, NULL, SBX_DECIDE_RUN) != SBX_ALLOWED &&
                      strstr(d.err.msg, "memory_deny_write_execute"));
        sbx_decision_done(&d);
        write_profile(path, sizeof(path), "wx",
                      "extends: workspace\ndescription: x\nmemory_deny_write_execute: true\nseccomp:\n  allow: [process_vm_writev]\n");
        CHECK(G, "ptrace: process_vm_writev keeps page protections, allowed with it",
              decide(&d, path, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED);
        sbx_decision_done(&d);
        unlink(path);
}

/* The isolation tier is decided with the rest, before validation: its substitutions
 * are in the validated plan, and a tier below the floor (the site's or the
 * profile's) is a failure at SBX_AT_TIER with the remedy. */
static void test_tier(void)
{
        char *ok[] = { "true", NULL };
        struct sbx_probe all = { 0 }, no_proc = { 0 };
        struct sbx_decision d;
        struct sbx_site_grant grant = { .max_pids = 10 };
        struct sbx_cmd_policy deny = { .mode = SBX_CMD_DENYLIST };
        struct sbx_site_terms site = { .uid = getuid(), .gid = getgid(), .grant = &grant, .deny = &deny,
                                       .min_tier = SBX_TIER_FULL, .min_tier_where = "p.yaml:3" };
        char profile[4096];

        no_proc.r[SBX_PROBE_PROC].err = EPERM;
        snprintf(no_proc.r[SBX_PROBE_PROC].step, sizeof(no_proc.r[SBX_PROBE_PROC].step), "mount proc");
        probe = &all;
        CHECK(G, "tier: everything there: full, allowed, nothing substituted",
              decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED && d.tiered && d.tier.tier == SBX_TIER_FULL &&
                      !d.pr.plan.no_proc);
        sbx_decision_done(&d);
        probe = &no_proc;
        CHECK(G, "tier: no fresh /proc under workspace (min_tier full): failed at the tier, the remedy given",
              decide(&d, NULL, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_FAILED && d.at == SBX_AT_TIER &&
                      d.err.hint[0] != '\0' && !d.filter);
        sbx_decision_done(&d);
        write_profile(profile, sizeof(profile), "tiered", "extends: workspace\nmin_tier: container-userns\n");
        CHECK(G, "tier: a profile that accepts container-userns: allowed, no /proc in the validated plan",
              decide(&d, profile, ok, NULL, NULL, SBX_DECIDE_RUN) == SBX_ALLOWED && d.tier.tier == SBX_TIER_CONTAINER_USERNS &&
                      d.pr.plan.no_proc && d.filter);
        sbx_decision_done(&d);
        CHECK(G, "tier: the site's floor (full) over that profile's: failed at the tier, naming the site's file:line",
              decide(&d, profile, ok, NULL, &site, SBX_DECIDE_RUN) == SBX_FAILED && d.at == SBX_AT_TIER &&
                      strstr(d.err.msg, "p.yaml:3") != NULL);
        sbx_decision_done(&d);
        CHECK(G, "tier: --dry-run and --check choose none", (probe = NULL, decide(&d, profile, ok, NULL, NULL, SBX_DECIDE_PLAN)) ==
                                                                     SBX_ALLOWED && !d.tiered && !d.pr.plan.no_proc);
        sbx_decision_done(&d);
        unlink(profile);
}

int main(void)
{
        if (!mkdtemp(ws))
                return 1;
        test_direct();
        test_site();
        test_workspace_mask();
        test_shm();
        test_ptrace();
        test_tier();
        rmdir(ws);
        return unit_failed ? 1 : 0;
}
