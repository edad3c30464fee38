/* SPDX-License-Identifier: MIT */
/* The profile loader from the outside.  Every malformed profile of tests/profiles/bad/
 * must be refused with exactly the one line of its .expect ("file:line:col: message",
 * the file as a basename), and the profiles of tests/profiles/good/ and the shipped ones
 * must load with the merge rules of sbx-profile(5): scalars override, lists append
 * without repeats, maps merge key by key, `final` binds every profile above the one that
 * says it.  Runs from the repository root (tests/run.sh). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/capability.h>
#include <unistd.h>

#include "../../policy/profile.h"
#include "unit.h"

#define G "unit-profiles"
#define BAD "tests/profiles/bad"
#define GOOD "tests/profiles/good"

/* Fixed, so that no result depends on who runs the test, or where. */
static const struct sbx_vars vars = {
        .workspace = "/work/ws",
        .workspace_id = "0123456789abcdef",
        .home = "/home/u",
        .tmp = "/tmp",
        .uid = 1000,
};

/* ------------------------------------------------------------------ helpers */

static bool ends_with(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The first line of @path without its newline; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t size)
{
        FILE *f = fopen(path, "re");
        bool ok;

        if (!f)
                return false;
        ok = fgets(buf, (int)size, f) != NULL;
        fclose(f);
        if (ok)
                buf[strcspn(buf, "\n")] = '\0';
        return ok;
}

/* The diagnosis as the .expect files spell it: the file named by its basename, so the
 * corpus does not depend on where the repository is checked out. */
static void diag_line(const struct sbx_diag *d, char *buf, size_t size)
{
        struct sbx_diag copy = *d;
        const char *slash = strrchr(d->file, '/');

        if (slash)
                snprintf(copy.file, sizeof(copy.file), "%s", slash + 1);
        sbx_diag_format(&copy, buf, size);
}

/* Loads @what onto a fresh @pr; prints the diagnosis when that fails, so a broken good
 * profile says why. */
static int load(const char *what, struct sbx_profile *pr)
{
        struct sbx_diag d = { 0 };
        char line[1024];
        int r;

        sbx_profile_init(pr);
        r = sbx_profile_load(what, &vars, pr, &d);
        if (r < 0) {
                diag_line(&d, line, sizeof(line));
                printf("     loading '%s': %s\n", what, line);
        }
        return r;
}

static const char *env(const struct sbx_profile *pr, const char *name)
{
        const char *v = sbx_plan_get_env(&pr->plan, name);

        return v ? v : "(unset)";
}

static bool env_is(const struct sbx_profile *pr, const char *name, const char *want)
{
        return strcmp(env(pr, name), want) == 0;
}

static bool str_is(const char *s, const char *want)
{
        return s && strcmp(s, want) == 0;
}

/* How many mounts of @kind the plan has at @dest (from @source, unless NULL). */
static size_t mounts(const struct sbx_profile *pr, enum sbx_mount_kind kind, const char *source, const char *dest)
{
        size_t n = 0;

        for (size_t i = 0; i < pr->plan.n_mounts; i++) {
                const struct sbx_mount *m = &pr->plan.mounts[i];

                if (m->kind == kind && strcmp(m->dest, dest) == 0 && (!source || str_is(m->source, source)))
                        n++;
        }
        return n;
}

/* The first mount at @dest, or NULL. */
static const struct sbx_mount *mount_at(const struct sbx_profile *pr, const char *dest)
{
        for (size_t i = 0; i < pr->plan.n_mounts; i++)
                if (strcmp(pr->plan.mounts[i].dest, dest) == 0)
                        return &pr->plan.mounts[i];
        return NULL;
}

/* How many mounts, of any kind, the plan has at @dest. */
static size_t mounts_at(const struct sbx_profile *pr, const char *dest)
{
        size_t n = 0;

        for (size_t i = 0; i < pr->plan.n_mounts; i++)
                n += strcmp(pr->plan.mounts[i].dest, dest) == 0;
        return n;
}

/* @key is final, and the profile that made it so is @from. */
static bool final_from(const struct sbx_profile *pr, const char *key, const char *from)
{
        for (size_t i = 0; i < pr->final.n; i++)
                if (strcmp(pr->final.v[i], key) == 0)
                        return strcmp(pr->final_from.v[i], from) == 0;
        return false;
}

static bool chain_is(const struct sbx_profile *pr, const char *const *names, size_t n)
{
        if (pr->chain.n != n)
                return false;
        for (size_t i = 0; i < n; i++)
                if (strcmp(pr->chain.v[i], names[i]) != 0)
                        return false;
        return true;
}

/* 50% of RAM, computed as RAM / 100 * 50, may fall short of RAM / 2 by the rounding
 * of the division: under 100 bytes, never more. */
static bool half_of_ram(uint64_t v)
{
        uint64_t half = sbx_physical_memory() / 2;

        return v <= half && half - v < 100;
}

/* ------------------------------------------------------------------ the bad corpus */

static int is_yaml(const struct dirent *de)
{
        return de->d_name[0] != '.' && ends_with(de->d_name, ".yaml");
}

/* One profile of the corpus: refused, with exactly the diagnosis of its .expect. */
static void check_bad(const char *name, const char *expect_path)
{
        struct sbx_profile pr;
        struct sbx_diag d = { 0 };
        char path[512], want[1024], got[1024] = "(loaded without an error)";
        int r;

        snprintf(path, sizeof(path), "%s/%s", BAD, name);
        if (!read_line(expect_path, want, sizeof(want)))
                snprintf(want, sizeof(want), "(cannot read %s)", expect_path);
        sbx_profile_init(&pr);
        r = sbx_profile_load(path, &vars, &pr, &d);
        if (r < 0)
                diag_line(&d, got, sizeof(got));
        sbx_profile_done(&pr);
        if (strcmp(got, want) != 0)
                printf("     %s\n       got:  %s\n       want: %s\n", name, got, want);
        CHECK(G, name, r < 0 && strcmp(got, want) == 0);
}

static void test_bad_corpus(void)
{
        struct dirent **list = NULL;
        int n = scandir(BAD, &list, is_yaml, alphasort);
        size_t checked = 0, missing = 0;

        CHECK(G, "the bad corpus can be read (run from the repository root)", n > 0);
        for (int i = 0; i < n; i++) {
                char expect[512];

                /* Helpers of the extends cases live in subdirectories; every file at
                 * the top of the corpus is a case and must say what it expects. */
                snprintf(expect, sizeof(expect), "%s/%.*s.expect", BAD, (int)(strlen(list[i]->d_name) - 5), list[i]->d_name);
                if (access(expect, R_OK) == 0) {
                        check_bad(list[i]->d_name, expect);
                        checked++;
                } else {
                        printf("     %s has no .expect\n", list[i]->d_name);
                        missing++;
                }
                free(list[i]);
        }
        free(list);
        CHECK(G, "at least 45 malformed profiles with an .expect", checked >= 45);
        CHECK(G, "every malformed profile has an .expect", missing == 0);
}

/* ------------------------------------------------------------------ merge rules */

static void test_parent(void)
{
        struct sbx_profile pr;

        if (load(GOOD "/base.yaml", &pr) == 0) {
                /* base says `final: [limits.pids]` before it sets limits.pids. */
                CHECK(G, "final does not bind the profile that says it", pr.plan.limits.pids == 100);
                CHECK(G, "final is recorded with its profile", final_from(&pr, "limits.pids", "base"));
                CHECK(G, "limits.memory 50% is half of RAM", half_of_ram(pr.plan.limits.memory));
                CHECK(G, "a bind with a destination", mounts(&pr, SBX_MOUNT_RO, "/srv/data", "/data") == 1);
        } else {
                CHECK(G, "base.yaml loads", false);
        }
        sbx_profile_done(&pr);
}

static void test_child(void)
{
        static const char *const chain[] = { "base", "child" };
        struct sbx_profile pr;

        if (load(GOOD "/child.yaml", &pr) < 0) {
                CHECK(G, "child.yaml loads (extends ./base.yaml relative to itself)", false);
                sbx_profile_done(&pr);
                return;
        }
        CHECK(G, "extends ./x.yaml resolves against the including file", chain_is(&pr, chain, 2));
        CHECK(G, "the plan is named after the leaf", str_is(pr.plan.name, "child"));

        /* Scalars: the child wins; what it does not set comes from the parent. */
        CHECK(G, "scalar: child hostname wins", str_is(pr.plan.hostname, "child"));
        CHECK(G, "scalar: child description wins", str_is(pr.description, "merge rules: the child"));
        CHECK(G, "scalar: child memory size replaces parent share", pr.plan.limits.memory == 1ull << 30);
        CHECK(G, "scalar: parent network kept", pr.plan.net == SBX_NET_NONE);
        CHECK(G, "scalar: parent commands.mode kept", pr.commands.mode == SBX_CMD_DENYLIST);
        CHECK(G, "scalar: parent final pids kept", pr.plan.limits.pids == 100);

        /* Lists: appended, an item both give counted once. */
        CHECK(G, "list: ro bind given by both appears once", mounts(&pr, SBX_MOUNT_RO, "/opt/a", "/opt/a") == 1);
        CHECK(G, "list: child ro bind appended", mounts(&pr, SBX_MOUNT_RO, "/opt/b", "/opt/b") == 1);
        CHECK(G, "list: parent ro bind kept", mounts(&pr, SBX_MOUNT_RO, "/srv/data", "/data") == 1);
        CHECK(G, "list: env pass appended without repeats",
              pr.env_pass.n == 3 && sbx_strv_contains(&pr.env_pass, "TERM") && sbx_strv_contains(&pr.env_pass, "LANG") &&
                      sbx_strv_contains(&pr.env_pass, "LC_*"));
        CHECK(G, "list: commands.allow appended without repeats",
              pr.commands.allow.n == 3 && sbx_strv_contains(&pr.commands.allow, "ls") &&
                      sbx_strv_contains(&pr.commands.allow, "cat") && sbx_strv_contains(&pr.commands.allow, "grep"));
        CHECK(G, "list: parent commands.deny kept", pr.commands.deny.n == 1 && sbx_strv_contains(&pr.commands.deny, "dd"));
        CHECK(G, "list: deny_patterns appended without repeats",
              pr.commands.deny_patterns.n == 2 && sbx_strv_contains(&pr.commands.deny_patterns, "curl .*\\| *sh"));

        /* Maps: merged key by key. */
        CHECK(G, "map: parent env value kept", env_is(&pr, "A", "1"));
        CHECK(G, "map: child env value replaces parent's", env_is(&pr, "B", "20"));
        CHECK(G, "map: child env value added", env_is(&pr, "C", "3"));
        CHECK(G, "map: one entry per name", pr.plan.n_env == 3);
        sbx_profile_done(&pr);
}

/* A layer applied by hand on top of a loaded profile, as a further `extends` would. */
static int apply_text(struct sbx_profile *pr, const char *text, char *got, size_t size)
{
        struct sbx_node *root = NULL;
        struct sbx_diag d = { 0 };
        char *extends = NULL;
        int r;

        snprintf(got, size, "(applied without an error)");
        r = sbx_yaml_parse("layer.yaml", text, strlen(text), &root, &d);
        if (r == 0)
                r = sbx_profile_apply(pr, "layer.yaml", root, &vars, &extends, &d);
        if (r < 0)
                diag_line(&d, got, size);
        free(extends);
        sbx_node_free(root);
        return r;
}

static void test_grandchild(void)
{
        static const char *const chain[] = { "base", "child", "grandchild" };
        struct sbx_profile pr;
        char got[1024];

        if (load(GOOD "/sub/grandchild.yaml", &pr) < 0) {
                CHECK(G, "sub/grandchild.yaml loads (extends ../child.yaml)", false);
                sbx_profile_done(&pr);
                return;
        }
        CHECK(G, "extends ../x.yaml from a subdirectory", chain_is(&pr, chain, 3));
        CHECK(G, "grandchild: its hostname wins", str_is(pr.plan.hostname, "grandchild"));
        CHECK(G, "grandchild: its time limit", pr.plan.limits.timeout_ms == 90000);
        CHECK(G, "grandchild: middle profile's values kept", pr.plan.limits.memory == 1ull << 30 && env_is(&pr, "B", "20"));
        CHECK(G, "grandchild: grandparent's final still recorded", final_from(&pr, "limits.pids", "base"));
        CHECK(G, "grandchild: a further layer cannot change a grandparent's final key",
              apply_text(&pr, "limits:\n  pids: 5\n", got, sizeof(got)) < 0 &&
                      strcmp(got, "layer.yaml:2:3: 'limits.pids' is final in profile 'base' and cannot be changed here") == 0 &&
                      pr.plan.limits.pids == 100);
        CHECK(G, "grandchild: a further layer may change other keys",
              apply_text(&pr, "limits:\n  time: 5\n", got, sizeof(got)) == 0 && pr.plan.limits.timeout_ms == 5000);
        sbx_profile_done(&pr);
}

static void test_vars(void)
{
        struct sbx_profile pr;
        const struct sbx_mount *m;

        if (load(GOOD "/vars.yaml", &pr) < 0) {
                CHECK(G, "vars.yaml loads", false);
                sbx_profile_done(&pr);
                return;
        }
        CHECK(G, "{workspace} in workdir", str_is(pr.plan.workdir, "/work/ws/src"));
        m = mount_at(&pr, "/cargo");
        CHECK(G, "{home} in a bind source", m && m->kind == SBX_MOUNT_RO && str_is(m->source, "/home/u/.cargo"));
        m = mount_at(&pr, "/tmp/sbx-1000");
        CHECK(G, "{tmp} and {uid} in one path", m && m->kind == SBX_MOUNT_RW && str_is(m->source, "/tmp/sbx-1000"));
        m = mount_at(&pr, "/work/ws/build");
        CHECK(G, "{workspace} in a tmpfs, with its size", m && m->kind == SBX_MOUNT_TMPFS && m->size == 16ull << 20);
        m = mount_at(&pr, "/scratch");
        CHECK(G, "a tmpfs in mapping form", m && m->kind == SBX_MOUNT_TMPFS && m->size == 1ull << 30);
        CHECK(G, "{workspace} in a mask", mounts(&pr, SBX_MOUNT_MASK, NULL, "/work/ws/.env") == 1);
        CHECK(G, "{home} in bind_roots_ro", pr.plan.roots_ro.n == 1 && sbx_strv_contains(&pr.plan.roots_ro, "/home/u"));
        CHECK(G, "{workspace}, {tmp}/{uid} in bind_roots_rw",
              pr.plan.roots_rw.n == 2 && sbx_strv_contains(&pr.plan.roots_rw, "/work/ws") &&
                      sbx_strv_contains(&pr.plan.roots_rw, "/tmp/1000"));
        /* The jail's ~ is known once the environment is final: resolve expands it. */
        CHECK(G, "~ in rm.protected is the caller's home and the jail's (kept for resolve)",
              sbx_strv_contains(&pr.commands.rm_protected, "/home/u") && sbx_strv_contains(&pr.commands.rm_protected, "~"));
        CHECK(G, "{workspace} in rm.protected",
              sbx_strv_contains(&pr.commands.rm_protected, "/work/ws") && sbx_strv_contains(&pr.commands.rm_protected, "/etc"));
        sbx_profile_done(&pr);
}

static void test_named_parent(void)
{
        static const char *const chain[] = { "workspace", "strict", "named" };
        struct sbx_profile pr;

        if (load(GOOD "/named.yaml", &pr) == 0) {
                CHECK(G, "extends a shipped profile by name", chain_is(&pr, chain, 3));
                CHECK(G, "named: the child tightens pids", pr.plan.limits.pids == 128);
                CHECK(G, "named: strict's allowlist kept", pr.commands.mode == SBX_CMD_ALLOWLIST &&
                                                                   sbx_strv_contains(&pr.commands.allow, "ls"));
                CHECK(G, "named: deny appended", sbx_strv_contains(&pr.commands.deny, "curl"));
                CHECK(G, "named: its hostname wins over workspace's", str_is(pr.plan.hostname, "named"));
        } else {
                CHECK(G, "named.yaml loads", false);
        }
        sbx_profile_done(&pr);
}

static void test_empty_and_everything(void)
{
        struct sbx_profile pr;

        if (load(GOOD "/empty.yaml", &pr) == 0)
                CHECK(G, "an empty profile loads with the defaults",
                      str_is(pr.plan.name, "empty") && pr.commands.mode == SBX_CMD_OFF && pr.plan.n_mounts == 0 &&
                              pr.system && pr.audit_argv_max == 4096);
        else
                CHECK(G, "empty.yaml loads", false);
        sbx_profile_done(&pr);

        if (load(GOOD "/everything.yaml", &pr) < 0) {
                CHECK(G, "everything.yaml loads (every key once)", false);
                sbx_profile_done(&pr);
                return;
        }
        CHECK(G, "every key: network host", pr.plan.net == SBX_NET_HOST);
        CHECK(G, "every key: namespaces shared",
              pr.plan.ns_shared == (SBX_NS_SHARE_IPC | SBX_NS_SHARE_UTS | SBX_NS_SHARE_CGROUP));
        CHECK(G, "every key: filesystem bools", !pr.system && pr.git && pr.plan.no_proc);
        CHECK(G, "every key: workspace ro", pr.plan.workspace_mode == SBX_WS_RO);
        CHECK(G, "every key: optional", pr.plan.optional == (SBX_HARDEN_LANDLOCK | SBX_HARDEN_CGROUP | SBX_HARDEN_MDWE));
        CHECK(G, "every key: memory_deny_write_execute false, kept apart from unset", pr.mdwe == 0);
        CHECK(G, "every key: bind in mapping form", mount_at(&pr, "/m2") && mount_at(&pr, "/m2")->optional &&
                                                           str_is(mount_at(&pr, "/m2")->source, "/home/u/.m2"));
        CHECK(G, "every key: seccomp", sbx_strv_contains(&pr.seccomp_allow, "ptrace") &&
                                               sbx_strv_contains(&pr.seccomp_deny, "socket") && pr.seccomp_action == 1);
        CHECK(G, "every key: capabilities by name, any case",
              pr.plan.caps == ((1ull << CAP_NET_BIND_SERVICE) | (1ull << CAP_CHOWN)));
        CHECK(G, "every key: limits",
              pr.plan.limits.timeout_ms == 1500 && pr.plan.limits.memory == 512ull << 20 && pr.plan.limits.pids == 64 &&
                      pr.plan.limits.rlimit[RLIMIT_CPU] == 60 && pr.plan.limits.rlimit[RLIMIT_NOFILE] == 256 &&
                      pr.plan.limits.rlimit[RLIMIT_FSIZE] == 1ull << 30);
        CHECK(G, "every key: an empty env value", env_is(&pr, "EMPTY", ""));
        CHECK(G, "every key: command rules",
              pr.commands.chmod_modes.n == 2 && pr.commands.kill_targets.n == 1 && pr.commands.git_deny.n == 1 &&
                      !pr.commands.allow_pipe_to_shell && sbx_strv_contains(&pr.commands.rm_protected, "/"));
        CHECK(G, "every key: audit.argv_max", pr.audit_argv_max == 1024);
        sbx_profile_done(&pr);
}

/* tests/profiles/bad/deep/d01.yaml starts a chain of exactly 16: the limit, allowed. */
static void test_longest_chain(void)
{
        struct sbx_profile pr;

        if (load(BAD "/deep/d01.yaml", &pr) == 0)
                CHECK(G, "an extends chain of 16 profiles loads", pr.chain.n == 16 && str_is(pr.plan.hostname, "deep"));
        else
                CHECK(G, "an extends chain of 16 profiles loads", false);
        sbx_profile_done(&pr);
}

/* ------------------------------------------------------------------ shipped profiles */

static void test_shipped(void)
{
        struct sbx_profile pr;

        if (load("workspace", &pr) == 0) {
                const struct sbx_mount *tmp = mount_at(&pr, "/tmp");

                CHECK(G, "workspace: hostname, no network, rw workspace, system view",
                      str_is(pr.plan.hostname, "sbx") && pr.plan.net == SBX_NET_NONE &&
                              pr.plan.workspace_mode == SBX_WS_RW && pr.system);
                CHECK(G, "workspace: a 256M /tmp", tmp && tmp->kind == SBX_MOUNT_TMPFS && tmp->size == 256ull << 20);
                CHECK(G, "workspace: bind roots",
                      pr.plan.roots_ro.n == 1 && sbx_strv_contains(&pr.plan.roots_ro, "/") && pr.plan.roots_rw.n == 5 && !sbx_strv_contains(&pr.plan.roots_rw, "/opt") &&
                              sbx_strv_contains(&pr.plan.roots_rw, "/work/ws") &&
                              sbx_strv_contains(&pr.plan.roots_rw, "/home/u"));
                CHECK(G, "workspace: environment", env_is(&pr, "HOME", "/tmp") && env_is(&pr, "LANG", "C.UTF-8") &&
                                                           pr.plan.n_env == 4 && pr.env_pass.n == 2);
                CHECK(G, "workspace: limits", pr.plan.limits.pids == 1024 && half_of_ram(pr.plan.limits.memory));
                CHECK(G, "workspace: cgroup optional, no command policy",
                      pr.plan.optional == SBX_HARDEN_CGROUP && pr.commands.mode == SBX_CMD_OFF);
                CHECK(G, "workspace: memory_deny_write_execute unset", pr.mdwe == -1);
        } else {
                CHECK(G, "workspace loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("readonly", &pr) == 0) {
                CHECK(G, "readonly: workspace read-only", pr.plan.workspace_mode == SBX_WS_RO);
                CHECK(G, "readonly: workspace mode, network and read-write roots final",
                      final_from(&pr, "filesystem.workspace", "readonly") && final_from(&pr, "network", "readonly") &&
                              final_from(&pr, "filesystem.bind_roots_rw", "readonly"));
                /* The profile says `bind_roots_rw: []`: nothing the caller adds with --rw. */
                CHECK(G, "readonly: no read-write bind roots", pr.plan.roots_rw.n == 0);
        } else {
                CHECK(G, "readonly loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("network-host", &pr) == 0)
                CHECK(G, "network-host: host network, the rest from workspace",
                      pr.plan.net == SBX_NET_HOST && str_is(pr.plan.hostname, "sbx") && pr.plan.limits.pids == 1024);
        else
                CHECK(G, "network-host loads by name", false);
        sbx_profile_done(&pr);

        if (load("network", &pr) == 0) {
                const struct sbx_netrule *rule = NULL;

                CHECK(G, "network: filtered, the rest from workspace",
                      pr.plan.net == SBX_NET_FILTERED && str_is(pr.plan.hostname, "sbx") && pr.plan.limits.pids == 1024);
                CHECK(G, "network: registry.npmjs.org allowed on 443 for the web",
                      sbx_netrules_match(&pr.plan.net_rules, "registry.npmjs.org", 443, SBX_NET_WEB, &rule) == SBX_NET_ALLOW);
                CHECK(G, "network: github.com:22 raw allowed, github.com:23 not",
                      sbx_netrules_match(&pr.plan.net_rules, "github.com", 22, SBX_NET_RAW, &rule) == SBX_NET_ALLOW &&
                              sbx_netrules_match(&pr.plan.net_rules, "github.com", 23, SBX_NET_RAW, &rule) == SBX_NET_NO_MATCH);
                CHECK(G, "network: an unlisted name is not allowed",
                      sbx_netrules_match(&pr.plan.net_rules, "evil.example", 443, SBX_NET_WEB, &rule) == SBX_NET_NO_MATCH);
        } else {
                CHECK(G, "network loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("build", &pr) == 0) {
                const struct sbx_mount *cache = mount_at(&pr, "/var/cache/sbx");

                CHECK(G, "build: limits", pr.plan.limits.pids == 4096 && pr.plan.limits.timeout_ms == 3600000 &&
                                                  pr.plan.limits.rlimit[RLIMIT_NOFILE] == 65536);
                CHECK(G, "build: memory 75% of RAM",
                      pr.plan.limits.memory == sbx_physical_memory() / 100 * 75 ||
                              pr.plan.limits.memory == sbx_physical_memory() / 4 * 3);
                CHECK(G, "build: caches of its own, made when missing, never the caller's",
                      cache && cache->kind == SBX_MOUNT_RW && cache->create && str_is(cache->source, "/home/u/.cache/sbx/build/0123456789abcdef") &&
                              !mount_at(&pr, "/home/u/.cache/ccache") && env_is(&pr, "CCACHE_DIR", "/var/cache/sbx/ccache") &&
                              env_is(&pr, "GOCACHE", "/var/cache/sbx/go-build") && env_is(&pr, "GOFLAGS", "-buildvcs=false"));
                CHECK(G, "build: environment merged",
                      env_is(&pr, "MAKEFLAGS", "-j4") && env_is(&pr, "LANG", "C.UTF-8") &&
                              sbx_strv_contains(&pr.env_pass, "CC") && sbx_strv_contains(&pr.env_pass, "TERM"));
                /* build's /tmp:2G takes the place of workspace's /tmp:256M. */
                CHECK(G, "build: one /tmp, of 2G", mounts_at(&pr, "/tmp") == 1 && mount_at(&pr, "/tmp")->size == 2ull << 30);
        } else {
                CHECK(G, "build loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("strict", &pr) == 0) {
                CHECK(G, "strict: allowlist", pr.commands.mode == SBX_CMD_ALLOWLIST &&
                                                      sbx_strv_contains(&pr.commands.allow, "git") &&
                                                      sbx_strv_contains(&pr.commands.allow, "["));
                CHECK(G, "strict: limits", pr.plan.limits.pids == 256 && pr.plan.limits.timeout_ms == 600000 &&
                                                   pr.plan.limits.rlimit[RLIMIT_NOFILE] == 1024 && pr.plan.limits.rlimit[RLIMIT_FSIZE] == 1ull << 30);
                CHECK(G, "strict: rm.protected with ~ and {workspace}",
                      sbx_strv_contains(&pr.commands.rm_protected, "/") &&
                              sbx_strv_contains(&pr.commands.rm_protected, "/home/u") &&
                              sbx_strv_contains(&pr.commands.rm_protected, "/work/ws"));
                CHECK(G, "strict: rules", pr.commands.deny_patterns.n == 1 && pr.commands.chmod_modes.n == 11 &&
                                                  pr.commands.kill_targets.n == 2 && pr.commands.git_deny.n == 9);
                CHECK(G, "strict: memory_deny_write_execute", pr.mdwe == 1);
                CHECK(G, "strict: network and the allowlist final",
                      final_from(&pr, "network", "strict") && final_from(&pr, "commands.mode", "strict") &&
                              final_from(&pr, "commands.allow", "strict"));
        } else {
                CHECK(G, "strict loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("debug", &pr) == 0) {
                CHECK(G, "debug: ptrace and process_vm_* allowed, nothing else",
                      pr.seccomp_allow.n == 3 && sbx_strv_contains(&pr.seccomp_allow, "ptrace") &&
                              sbx_strv_contains(&pr.seccomp_allow, "process_vm_readv") &&
                              sbx_strv_contains(&pr.seccomp_allow, "process_vm_writev"));
                CHECK(G, "debug: the rest is workspace's (no network, no allowlist, W^X unset)",
                      pr.plan.net == SBX_NET_NONE && pr.commands.mode != SBX_CMD_ALLOWLIST && pr.mdwe == -1 &&
                              pr.plan.limits.pids == 1024 && mounts_at(&pr, "/tmp") == 1);
        } else {
                CHECK(G, "debug loads by name", false);
        }
        sbx_profile_done(&pr);

        if (load("git", &pr) == 0) {
                CHECK(G, "git: git directory bound, denylist",
                      pr.git && pr.commands.mode == SBX_CMD_DENYLIST && pr.commands.git_deny.n == 4 &&
                              sbx_strv_contains(&pr.commands.git_deny, "push --force"));
                CHECK(G, "git: environment", env_is(&pr, "GIT_CONFIG_NOSYSTEM", "1") &&
                                                     sbx_strv_contains(&pr.env_pass, "GIT_AUTHOR_NAME"));
        } else {
                CHECK(G, "git loads by name", false);
        }
        sbx_profile_done(&pr);
}

int main(void)
{
        test_bad_corpus();
        test_parent();
        test_child();
        test_grandchild();
        test_vars();
        test_named_parent();
        test_empty_and_everything();
        test_longest_chain();
        test_shipped();
        return unit_failed != 0;
}
