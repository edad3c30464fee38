/* SPDX-License-Identifier: MIT */
/* lib/tier.c over hand-built probes: which tier, which substitutions, which remedy,
 * and the refusal below a profile's min_tier. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/jail-landlock.h"
#include "../../lib/tier.h"
#include "unit.h"

#define G "tier"

static struct sbx_probe probe(bool userns, const char *container)
{
        struct sbx_probe pr = { .userns = userns };

        snprintf(pr.labels.container, sizeof(pr.labels.container), "%s", container);
        return pr;
}

static void fails(struct sbx_probe *pr, enum sbx_probe_id id, int err, const char *step)
{
        pr->r[id].err = err;
        snprintf(pr->r[id].step, sizeof(pr->r[id].step), "%s", step);
}

/* A profile's min_tier alone, as the floor (no site policy). */
static const struct sbx_tier_floor *floor_of(enum sbx_tier min)
{
        static struct sbx_tier_floor f;

        sbx_tier_floor(&f, (int)min, SBX_TIER_REFUSE, NULL);
        return &f;
}

static void test_choose(void)
{
        struct sbx_plan p = { .uid = 1000, .net = SBX_NET_NONE };
        struct sbx_tier_choice c;
        struct sbx_probe pr = probe(true, "");
        char buf[512];

        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "every probe passing: full, nothing substituted", c.tier == SBX_TIER_FULL && c.n_subs == 0);

        fails(&pr, SBX_PROBE_PROC, EPERM, "mount proc");
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "no fresh /proc: container-userns, proc=none", c.tier == SBX_TIER_CONTAINER_USERNS && c.n_subs == 1 &&
                                                                  strcmp(c.subs[0].feature, "proc") == 0 && strcmp(c.subs[0].with, "none") == 0);
        CHECK(G, "... its cause names the probe and the error", strcmp(c.subs[0].cause, "P3 mount proc: Operation not permitted") == 0);
        sbx_tier_apply(&p, &c);
        CHECK(G, "... and the plan gets no /proc", p.no_proc);
        sbx_tier_substitutions_text(&c, buf, sizeof(buf));
        CHECK(G, "... SBX_SUBSTITUTIONS's text", strcmp(buf, "proc=none (P3 mount proc: Operation not permitted)") == 0);

        /* A profile without /proc needs none: nothing substituted. */
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "proc: false in the profile: full", c.tier == SBX_TIER_FULL);
        p.no_proc = false;

        fails(&pr, SBX_PROBE_HOSTNAME, EPERM, "sethostname");
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_apply(&p, &c);
        CHECK(G, "no sethostname: uts=shared", c.n_subs == 2 && strcmp(c.subs[1].feature, "uts") == 0 && (p.ns_shared & SBX_NS_SHARE_UTS));

        p.uid = 0;
        p.ns_shared = 0;
        p.no_proc = false;
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "root needing a user namespace: identity=container-root",
              c.n_subs == 3 && strcmp(c.subs[2].feature, "identity") == 0);

        fails(&pr, SBX_PROBE_USERNS, ENOSYS, "clone3 CLONE_NEWUSER");
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "no user namespace where one is needed: refuse", c.tier == SBX_TIER_REFUSE && c.failed == SBX_PROBE_USERNS);
        pr.userns = false;
        p.ns_shared = 0;
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "... not needed (root with CAP_SYS_ADMIN): no refusal", c.tier == SBX_TIER_CONTAINER_USERNS);

        fails(&pr, SBX_PROBE_NETNS, EPERM, "RTM_NEWLINK lo up");
        p.net = SBX_NET_HOST;
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "no loopback, network host: not needed", c.tier != SBX_TIER_REFUSE);
        p.net = SBX_NET_NONE;
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "no loopback, network none: refuse", c.tier == SBX_TIER_REFUSE && c.failed == SBX_PROBE_NETNS);
}

static void test_check(void)
{
        struct sbx_plan p = { .uid = 1000, .net = SBX_NET_NONE };
        struct sbx_tier_choice c;
        struct sbx_probe pr = probe(true, "podman");
        struct sbx_error e = { 0 };

        fails(&pr, SBX_PROBE_PROC, EPERM, "mount proc");
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "at the minimum: runs", sbx_tier_check(&pr, &c, floor_of(SBX_TIER_CONTAINER_USERNS), &e) == 0 && e.errnum == 0);
        CHECK(G, "below it: refused", sbx_tier_check(&pr, &c, floor_of(SBX_TIER_FULL), &e) == -EPERM && e.stage == SBX_STAGE_TIER);
        CHECK(G, "... with podman's remedy for /proc", strstr(e.hint, "--security-opt unmask=/proc/*") != NULL);
        CHECK(G, "... and how to accept it", strstr(e.hint, "min_tier: container-userns") != NULL);

        pr = probe(true, "docker");
        fails(&pr, SBX_PROBE_PROC, EPERM, "mount proc");
        sbx_tier_choose(&pr, &p, &c);
        e = (struct sbx_error){ 0 };
        sbx_tier_check(&pr, &c, floor_of(SBX_TIER_FULL), &e);
        CHECK(G, "Docker's remedy for /proc", strstr(e.hint, "systempaths=unconfined") != NULL);

        pr = probe(true, "");
        pr.labels.kubernetes = true;
        fails(&pr, SBX_PROBE_USERNS, EPERM, "clone3 CLONE_NEWUSER");
        sbx_tier_choose(&pr, &p, &c);
        e = (struct sbx_error){ 0 };
        CHECK(G, "refuse is below any minimum", sbx_tier_check(&pr, &c, floor_of(SBX_TIER_CONTAINER_USERNS), &e) == -EPERM);
        CHECK(G, "Kubernetes' remedy for user namespaces", strstr(e.hint, "hostUsers: false") != NULL);
        CHECK(G, "never --privileged", strstr(e.hint, "privileged") == NULL && strstr(e.msg, "privileged") == NULL);
}

/* The floor a run must reach: the stronger of the site policy's min_tier and the
 * profile's, and whose it is (a site's floor no profile can lower). */
static void test_floor(void)
{
        struct sbx_tier_floor f;

        sbx_tier_floor(&f, SBX_TIER_CONTAINER_USERNS, SBX_TIER_FULL, "/etc/sbx/policy.yaml:3");
        CHECK(G, "floor: site full, profile container-userns: full, the site's", f.tier == SBX_TIER_FULL && f.site);
        CHECK(G, "... named by the site policy's file:line", strstr(f.from, "site policy") && strstr(f.from, "/etc/sbx/policy.yaml:3"));
        sbx_tier_floor(&f, SBX_TIER_CONTAINER_USERNS, SBX_TIER_REFUSE, NULL);
        CHECK(G, "floor: no site floor: the profile's", f.tier == SBX_TIER_CONTAINER_USERNS && !f.site &&
                                                             strstr(f.from, "profile") != NULL);
        sbx_tier_floor(&f, SBX_TIER_FULL, SBX_TIER_REFUSE, NULL);
        CHECK(G, "floor: no site floor, profile full: full", f.tier == SBX_TIER_FULL && !f.site);
        sbx_tier_floor(&f, SBX_TIER_FULL, SBX_TIER_CONTAINER_USERNS, "policy.yaml:1");
        CHECK(G, "floor: site container-userns, profile full: full, the profile's", f.tier == SBX_TIER_FULL && !f.site);
        sbx_tier_floor(&f, SBX_TIER_CONTAINER_USERNS, SBX_TIER_CONTAINER_USERNS, "policy.yaml:1");
        CHECK(G, "floor: both container-userns: the site's (no profile lowers it)", f.tier == SBX_TIER_CONTAINER_USERNS && f.site);
        /* A profile can never bring the floor below what the site says, whatever it holds. */
        sbx_tier_floor(&f, SBX_TIER_REFUSE, SBX_TIER_FULL, "policy.yaml:1");
        CHECK(G, "floor: a profile's weakest value cannot lower the site's", f.tier == SBX_TIER_FULL && f.site);
        sbx_tier_floor(&f, -1, SBX_TIER_CONTAINER_USERNS, "policy.yaml:1");
        CHECK(G, "floor: an out-of-range profile value counts as full (fail closed)", f.tier == SBX_TIER_FULL);
        sbx_tier_floor(&f, -1, -1, NULL);
        CHECK(G, "floor: neither valid: full (fail closed)", f.tier == SBX_TIER_FULL);
}

/* Below the site's floor: refused, naming the tier, the floor and the site policy;
 * the remedy for the runtime; and no advice to lower min_tier in a profile. */
static void test_check_site_floor(void)
{
        struct sbx_plan p = { .uid = 1000, .net = SBX_NET_NONE };
        struct sbx_tier_choice c;
        struct sbx_probe pr = probe(true, "podman");
        struct sbx_tier_floor f;
        struct sbx_error e = { 0 };

        fails(&pr, SBX_PROBE_PROC, EPERM, "mount proc");
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_floor(&f, SBX_TIER_CONTAINER_USERNS, SBX_TIER_FULL, "/etc/sbx/policy.yaml:3");
        CHECK(G, "site floor full, tier container-userns: refused",
              sbx_tier_check(&pr, &c, &f, &e) == -EPERM && e.stage == SBX_STAGE_TIER);
        CHECK(G, "... the message names the tier and the floor",
              strstr(e.msg, "'container-userns'") && strstr(e.msg, "'full'") && strstr(e.msg, "/etc/sbx/policy.yaml:3"));
        CHECK(G, "... the hint gives podman's remedy", strstr(e.hint, "unmask=/proc/*") != NULL);
        CHECK(G, "... and does not offer a profile's min_tier as a way round", strstr(e.hint, "min_tier: container-userns") == NULL);

        e = (struct sbx_error){ 0 };
        sbx_tier_floor(&f, SBX_TIER_CONTAINER_USERNS, SBX_TIER_CONTAINER_USERNS, "/etc/sbx/policy.yaml:3");
        CHECK(G, "site floor container-userns, tier container-userns: runs", sbx_tier_check(&pr, &c, &f, &e) == 0 && !e.errnum);
}

static void test_names(void)
{
        CHECK(G, "names round-trip", sbx_tier_by_name("full") == SBX_TIER_FULL &&
                                         sbx_tier_by_name("container-userns") == SBX_TIER_CONTAINER_USERNS &&
                                         sbx_tier_by_name("refuse") == SBX_TIER_REFUSE && sbx_tier_by_name("landlock-only") == -1);
}

/* The moby case: every namespace refused by the runtime's seccomp profile. */
static struct sbx_probe moby(int abi)
{
        struct sbx_probe pr = probe(true, "docker");

        fails(&pr, SBX_PROBE_USERNS, EPERM, "clone3 CLONE_NEWUSER");
        fails(&pr, SBX_PROBE_PROC, EPERM, "clone3");
        fails(&pr, SBX_PROBE_NETNS, EPERM, "clone3");
        pr.r[SBX_PROBE_LANDLOCK].value = abi;
        return pr;
}

static bool has_sub(const struct sbx_tier_choice *c, const char *feature, const char *with)
{
        for (size_t i = 0; i < c->n_subs; i++)
                if (strcmp(c->subs[i].feature, feature) == 0 && strcmp(c->subs[i].with, with) == 0)
                        return true;
        return false;
}

/* The landlock tier: only where namespaces are refused, Landlock ABI 6, seccomp,
 * network: none, and only when the floor names it. */
static void test_landlock(void)
{
        struct sbx_mount ws = { .kind = SBX_MOUNT_RW, .source = "/ws", .dest = "/ws" };
        struct sbx_mount usr = { .kind = SBX_MOUNT_RO, .source = "/usr", .dest = "/usr", .system = true };
        struct sbx_mount mounts[3] = { usr, ws };
        struct sbx_plan p = { .uid = 1000, .net = SBX_NET_NONE, .mounts = mounts, .n_mounts = 2, .unix_broker = true };
        struct sbx_probe pr = moby(6);
        struct sbx_tier_choice c;
        struct sbx_error e = { 0 };
        char buf[1024];

        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_FULL, &c);
        CHECK(G, "landlock: namespaces refused, ABI 6, floor full: still refuse", c.tier == SBX_TIER_REFUSE && !c.no_landlock[0]);
        CHECK(G, "... refused with the remedy and min_tier: landlock offered",
              sbx_tier_check(&pr, &c, floor_of(SBX_TIER_FULL), &e) < 0 && strstr(e.hint, "CLONE_NEWUSER") &&
                      strstr(e.hint, "min_tier: landlock"));
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_CONTAINER_USERNS, &c);
        CHECK(G, "landlock: floor container-userns: still refuse", c.tier == SBX_TIER_REFUSE);
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        e = (struct sbx_error){ 0 };
        CHECK(G, "landlock: floor landlock: tier landlock", c.tier == SBX_TIER_LANDLOCK &&
                                                                 sbx_tier_check(&pr, &c, floor_of(SBX_TIER_LANDLOCK), &e) == 0);
        CHECK(G, "... every substitution named", has_sub(&c, "pid", "shared") && has_sub(&c, "mount", "landlock") &&
                                                         has_sub(&c, "net", "landlock") && has_sub(&c, "proc", "host") &&
                                                         has_sub(&c, "ipc", "none") && has_sub(&c, "uts", "shared") &&
                                                         has_sub(&c, "unix", "pairs-only") && has_sub(&c, "tmp", "private"));
        sbx_tier_substitutions_text(&c, buf, sizeof(buf));
        CHECK(G, "... in SBX_SUBSTITUTIONS's text", strstr(buf, "pid=shared (P1 clone3 CLONE_NEWUSER: Operation not permitted)") != NULL);
        CHECK(G, "... a read-write workspace: workspace=entries, and metadata=none (its guards are read, not written)",
              has_sub(&c, "workspace", "entries") && has_sub(&c, "metadata", "none"));
        {
                struct sbx_plan bare = p;
                struct sbx_tier_choice bc;

                bare.workspace_mode = SBX_WS_NONE;
                sbx_tier_choose(&pr, &bare, &bc);
                sbx_tier_fallback(&pr, &bare, SBX_TIER_LANDLOCK, &bc);
                CHECK(G, "... no workspace, a caller who owns nothing it may only read: metadata=fd-only",
                      has_sub(&bc, "metadata", "fd-only") && !has_sub(&bc, "workspace", "entries"));
                sbx_tier_apply(&bare, &bc);
                CHECK(G, "... there fd-based metadata calls are allowed", !bare.nons_no_fd_metadata);
        }
        sbx_tier_apply(&p, &c);
        CHECK(G, "... the plan: no namespaces, no connect broker", p.no_namespaces && !p.unix_broker);
        CHECK(G, "... fd-based metadata calls refused (the workspace's guards)", p.nons_no_fd_metadata);
        CHECK(G, "landlock is below container-userns and above refuse",
              SBX_TIER_REFUSE < SBX_TIER_LANDLOCK && SBX_TIER_LANDLOCK < SBX_TIER_CONTAINER_USERNS);
        e = (struct sbx_error){ 0 };
        CHECK(G, "tier landlock below a floor container-userns: refused",
              sbx_tier_check(&pr, &c, floor_of(SBX_TIER_CONTAINER_USERNS), &e) == -EPERM && strstr(e.hint, "CLONE_NEWUSER"));

        /* Files of the caller's the jail may read but not write: no fd-based metadata
         * call either (metadata=none). */
        p = (struct sbx_plan){ .uid = 1000, .net = SBX_NET_NONE, .mounts = mounts, .n_mounts = 2, .workspace_mode = SBX_WS_RO };
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        sbx_tier_apply(&p, &c);
        CHECK(G, "landlock, read-only workspace: metadata=none", has_sub(&c, "metadata", "none") && p.nons_no_fd_metadata);
        mounts[2] = (struct sbx_mount){ .kind = SBX_MOUNT_RO, .source = "/home/u/.ssh", .dest = "/home/u/.ssh", .caller = true };
        p = (struct sbx_plan){ .uid = 1000, .net = SBX_NET_NONE, .mounts = mounts, .n_mounts = 3 };
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        sbx_tier_apply(&p, &c);
        CHECK(G, "landlock, a --ro bind: metadata=none", has_sub(&c, "metadata", "none") && p.nons_no_fd_metadata);
        p = (struct sbx_plan){ .uid = 0, .net = SBX_NET_NONE, .mounts = mounts, .n_mounts = 2 };
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock, root (who owns /usr): metadata=none", has_sub(&c, "metadata", "none"));
        /* (a choice without the substitution: fail closed) */
        c.n_subs = 0;
        sbx_tier_apply(&p, &c);
        CHECK(G, "landlock without a metadata substitution: no fd-based calls", p.nons_no_fd_metadata);

        p = (struct sbx_plan){ .uid = 1000, .net = SBX_NET_NONE, .mounts = mounts, .n_mounts = 2 };
        pr = moby(5);
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: ABI 5: refuse, saying why", c.tier == SBX_TIER_REFUSE && strstr(c.no_landlock, "ABI 6"));
        e = (struct sbx_error){ 0 };
        CHECK(G, "... the hint says why", sbx_tier_check(&pr, &c, floor_of(SBX_TIER_LANDLOCK), &e) < 0 && strstr(e.hint, "ABI 6"));

        pr = moby(6);
        fails(&pr, SBX_PROBE_SECCOMP, EINVAL, "seccomp");
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: no seccomp: refuse", c.tier == SBX_TIER_REFUSE);

        pr = moby(6);
        p.net = SBX_NET_FILTERED;
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: network filtered: refuse, saying so", c.tier == SBX_TIER_REFUSE && strstr(c.no_landlock, "network: none only"));
        p.net = SBX_NET_HOST;
        pr.r[SBX_PROBE_NETNS].err = 0;
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: network host: refuse", c.tier == SBX_TIER_REFUSE && strstr(c.no_landlock, "network: none only"));
        pr = moby(6);
        p.net = SBX_NET_NONE;
        p.n_net_connect = 1;
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: network.localhost ports: refuse", c.tier == SBX_TIER_REFUSE);
        p.n_net_connect = 0;

        /* Protection inside the workspace (filesystem.git's read-only .git/hooks):
         * Landlock cannot take write away beneath a writable rule. */
        mounts[2] = (struct sbx_mount){ .kind = SBX_MOUNT_RO, .source = "/ws/.git/hooks", .dest = "/ws/.git/hooks" };
        p.n_mounts = 3;
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: a read-only bind inside the workspace: refuse", c.tier == SBX_TIER_REFUSE && strstr(c.no_landlock, "subtract"));
        mounts[2] = (struct sbx_mount){ .kind = SBX_MOUNT_RW, .source = "/srv/data", .dest = "/data" };
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: a bind at another path: refuse", c.tier == SBX_TIER_REFUSE && strstr(c.no_landlock, "mount namespace"));
        p.n_mounts = 2;

        /* A refusal that is not a namespace's (the cgroup, say, never refuses; a
         * failed seccomp probe does): no landlock tier. */
        pr = probe(true, "docker");
        fails(&pr, SBX_PROBE_SECCOMP, EINVAL, "seccomp");
        pr.r[SBX_PROBE_LANDLOCK].value = 6;
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock: stands in for namespaces only", c.tier == SBX_TIER_REFUSE && c.no_landlock[0]);
        /* Where namespaces work, the landlock floor changes nothing: full. */
        pr = probe(true, "");
        sbx_tier_choose(&pr, &p, &c);
        sbx_tier_fallback(&pr, &p, SBX_TIER_LANDLOCK, &c);
        CHECK(G, "landlock floor where namespaces work: full", c.tier == SBX_TIER_FULL);
        CHECK(G, "landlock's name round-trips", sbx_tier_by_name("landlock") == SBX_TIER_LANDLOCK &&
                                                    strcmp(sbx_tier_name(SBX_TIER_LANDLOCK), "landlock") == 0);
}

/* The landlock tier's private TMPDIR under sandboxd: made by root, given to the
 * caller, removed after the run.  The caller (any process of theirs, jailed or not)
 * may move into it a directory whose contents it may not delete (here root's own, as
 * a shared group directory's member's would be): the removal is the caller's, so
 * those stay. */
static void test_nons_tmpdir_removed_as_caller(void)
{
        struct sbx_plan p = { .run_as = true, .uid = 65534, .gid = 65534 };
        struct sbx_error e = { 0 };
        struct sbx_nons n;
        char weak[256], tmpdir[PATH_MAX], moved[PATH_MAX + 16], victim[PATH_MAX + 32], mine[PATH_MAX + 16];
        int fd;

        if (geteuid() != 0)
                return (void)CHECK(G, "nons tmpdir: (skipped, needs root)", true);
        if (sbx_nons_prepare(&n, &p, &e) < 0)
                return (void)CHECK(G, "nons tmpdir: prepare", false);
        snprintf(tmpdir, sizeof(tmpdir), "%s", n.tmpdir);
        snprintf(moved, sizeof(moved), "%s/moved", tmpdir);
        snprintf(victim, sizeof(victim), "%s/moved/precious", tmpdir);
        snprintf(mine, sizeof(mine), "%s/mine", tmpdir);
        /* root's directory and file, as if renamed in by the caller */
        CHECK(G, "nons tmpdir: setup", mkdir(moved, 0755) == 0 && (fd = open(victim, O_WRONLY | O_CREAT, 0644)) >= 0 &&
                                              close(fd) == 0 && mkdir(mine, 0700) == 0 && chown(mine, 65534, 65534) == 0);
        sbx_nons_finish(&n, weak, sizeof(weak));
        CHECK(G, "nons tmpdir: (host side) a file the caller may not delete is still there", access(victim, F_OK) == 0);
        CHECK(G, "nons tmpdir: the caller's own directory is removed", access(mine, F_OK) < 0 && errno == ENOENT);
        CHECK(G, "nons tmpdir: the incomplete removal is reported", strstr(weak, tmpdir) != NULL);
        (void)unlink(victim);
        (void)rmdir(moved);
        (void)rmdir(tmpdir);
}

/* sandboxd's memory and pids limits where no cgroup can be made (P9): the site's
 * limits.without_cgroup: rlimit substitutes rlimits, named; else a refusal with the
 * remedy; with a cgroup, or no limits, nothing changes. */
static void test_limits_without_cgroup(void)
{
        struct sbx_plan p = { .run_as = true, .uid = 65534, .gid = 65534, .net = SBX_NET_NONE };
        struct sbx_probe pr = probe(true, "podman");
        struct sbx_tier_choice c;
        struct sbx_error e = { 0 };
        char msg[1024];

        p.limits.memory = 256ull << 20;
        p.limits.pids = 48;
        p.limits.memory_explicit = p.limits.pids_explicit = true;
        p.limits.rlimit[RLIMIT_NPROC] = 100;
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "limits: a cgroup to make (P9 passed): nothing substituted",
              sbx_tier_limits(&pr, &p, true, &c, &e) == 0 && !has_sub(&c, "limits", "rlimit"));
        fails(&pr, SBX_PROBE_CGROUP, EROFS, "write /sys/fs/cgroup");
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "limits: no cgroup, site says refuse: -EROFS", sbx_tier_limits(&pr, &p, false, &c, &e) == -EROFS);
        sbx_error_format(&e, msg, sizeof(msg));
        CHECK(G, "... naming P9 and the remedy (writable cgroups, or limits.without_cgroup: rlimit)",
              strstr(msg, "P9 write /sys/fs/cgroup: Read-only file system") && strstr(msg, "without_cgroup: rlimit") &&
                      strstr(msg, "delegated"));
        e = (struct sbx_error){ 0 };
        enum sbx_tier before = c.tier;
        CHECK(G, "limits: no cgroup, site says rlimit: limits=rlimit, its cause P9",
              sbx_tier_limits(&pr, &p, true, &c, &e) == 0 && has_sub(&c, "limits", "rlimit") &&
                      strstr(c.subs[c.n_subs - 1].cause, "P9 ") != NULL);
        CHECK(G, "... the tier itself unchanged", c.tier == before);
        sbx_tier_apply(&p, &c);
        CHECK(G, "... applied: RLIMIT_DATA the memory limit, RLIMIT_NPROC the tighter of pids and the plan's own",
              p.limits.rlimit[RLIMIT_DATA] == 256ull << 20 && p.limits.rlimit[RLIMIT_NPROC] == 48);
        CHECK(G, "... and no cgroup asked for any more", !p.limits.memory && !p.limits.pids && !p.limits.memory_explicit &&
                                                             !p.limits.pids_explicit);
        /* A root caller: the kernel counts no global root's process against
         * RLIMIT_NPROC, so rlimits cannot stand in for its pids limit. */
        {
                struct sbx_plan root = { .run_as = true, .uid = 0, .gid = 0, .net = SBX_NET_NONE };

                root.limits.memory = 256ull << 20;
                root.limits.pids = 48;
                sbx_tier_choose(&pr, &root, &c);
                e = (struct sbx_error){ 0 };
                CHECK(G, "limits: a root caller, site says rlimit: refused, not substituted",
                      sbx_tier_limits(&pr, &root, true, &c, &e) < 0 && !has_sub(&c, "limits", "rlimit") &&
                              strstr(e.msg, "RLIMIT_NPROC") && strstr(e.hint, "unprivileged user"));
        }
        /* No limits at all: nothing to substitute, nothing refused. */
        sbx_tier_choose(&pr, &p, &c);
        CHECK(G, "limits: none in the plan, no cgroup: nothing", sbx_tier_limits(&pr, &p, false, &c, &e) == 0 &&
                                                                          !has_sub(&c, "limits", "rlimit"));
}

int main(void)
{
        test_limits_without_cgroup();
        test_landlock();
        test_choose();
        test_check();
        test_names();
        test_floor();
        test_check_site_floor();
        test_nons_tmpdir_removed_as_caller();
        return unit_failed ? 1 : 0;
}
