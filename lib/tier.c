/* SPDX-License-Identifier: MIT */
#include "tier.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cleanup.h"
#include "json.h"
#include "path.h"

static const char *const tier_names[SBX_TIER_COUNT] = {
        [SBX_TIER_REFUSE] = "refuse",
        [SBX_TIER_LANDLOCK] = "landlock",
        [SBX_TIER_CONTAINER_USERNS] = "container-userns",
        [SBX_TIER_FULL] = "full",
};

const char *sbx_tier_name(enum sbx_tier t)
{
        return (unsigned)t < SBX_TIER_COUNT ? tier_names[t] : "unknown";
}

int sbx_tier_by_name(const char *name)
{
        for (int t = 0; t < SBX_TIER_COUNT; t++)
                if (strcmp(name, tier_names[t]) == 0)
                        return t;
        return -1;
}

static void cause_of(const struct sbx_probe *pr, enum sbx_probe_id id, char *buf, size_t size)
{
        snprintf(buf, size, "%s %s: %s", sbx_probe_tag(id), pr->r[id].step, strerror(pr->r[id].err));
}

static void add_sub(struct sbx_tier_choice *c, const char *feature, const char *with, const char *cause)
{
        struct sbx_substitution *s;

        if (c->n_subs >= SBX_MAX_SUBSTITUTIONS)
                return;
        s = &c->subs[c->n_subs++];
        *s = (struct sbx_substitution){ .feature = feature, .with = with };
        sbx_strlcpy(s->cause, cause, sizeof(s->cause));
}

static void substitute(struct sbx_tier_choice *c, const char *feature, const char *with, const char *cause)
{
        add_sub(c, feature, with, cause);
        c->tier = SBX_TIER_CONTAINER_USERNS;
}

void sbx_tier_choose(const struct sbx_probe *pr, const struct sbx_plan *p, struct sbx_tier_choice *c)
{
        /* What every jail is built on: no substitute for any of these. */
        const enum sbx_probe_id needed[] = {
                SBX_PROBE_USERNS, SBX_PROBE_IDMAP, SBX_PROBE_PROPAGATION, SBX_PROBE_PIVOT_ROOT, SBX_PROBE_NETNS, SBX_PROBE_SECCOMP,
        };
        char cause[96];

        *c = (struct sbx_tier_choice){ .tier = SBX_TIER_FULL, .failed = SBX_PROBE_COUNT };
        for (size_t i = 0; i < ELEMENTSOF(needed); i++) {
                enum sbx_probe_id id = needed[i];

                if (!pr->r[id].err)
                        continue;
                /* (a user namespace only where the jail makes one; lo only for network: none) */
                if ((id == SBX_PROBE_USERNS || id == SBX_PROBE_IDMAP) && !pr->userns)
                        continue;
                if (id == SBX_PROBE_NETNS && !sbx_plan_own_netns(p))
                        continue;
                c->tier = SBX_TIER_REFUSE;
                c->failed = id;
                cause_of(pr, id, c->cause, sizeof(c->cause));
                return;
        }
        if (!p->no_proc && pr->r[SBX_PROBE_PROC].err) {
                cause_of(pr, SBX_PROBE_PROC, cause, sizeof(cause));
                substitute(c, "proc", "none", cause);
        }
        /* The UTS namespace holds the hostname and nothing else: shared, the jail sees
         * the container's name and cannot change it (no CAP_SYS_ADMIN there). */
        if (!(p->ns_shared & SBX_NS_SHARE_UTS) && pr->r[SBX_PROBE_HOSTNAME].err) {
                cause_of(pr, SBX_PROBE_HOSTNAME, cause, sizeof(cause));
                substitute(c, "uts", "shared", cause);
        }
        if (pr->userns && p->uid == 0)
                substitute(c, "identity", "container-root", "no CAP_SYS_ADMIN for idmapped system binds");
}

/* The namespace probes: a refusal of one of these is what the landlock tier stands in
 * for; any other (seccomp) leaves no tier at all. */
static bool namespace_probe(enum sbx_probe_id id)
{
        return id == SBX_PROBE_USERNS || id == SBX_PROBE_IDMAP || id == SBX_PROBE_PROPAGATION ||
               id == SBX_PROBE_PIVOT_ROOT || id == SBX_PROBE_NETNS || id == SBX_PROBE_PROC;
}

/* What Landlock cannot do in place of mounts: rules add rights and never take any
 * away beneath, so nothing can be protected inside a writable place (filesystem.git's
 * read-only .git parts, a --ro or a tmpfs in the workspace), and without a mount
 * namespace a bind can only be where its source is.  NULL when none. */
static const char *unmountable(const struct sbx_plan *p)
{
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];

                if ((m->kind == SBX_MOUNT_RO || m->kind == SBX_MOUNT_RW) && (!m->source || strcmp(m->source, m->dest) != 0))
                        return "a bind at another path than its source needs a mount namespace";
                if (m->kind == SBX_MOUNT_RW)
                        continue;
                for (size_t j = 0; j < p->n_mounts; j++)
                        if (p->mounts[j].kind == SBX_MOUNT_RW && sbx_path_is_under(m->dest, p->mounts[j].dest))
                                return "the plan protects a path inside a writable one (filesystem.git, --ro or a tmpfs "
                                       "in the workspace), which Landlock cannot subtract";
        }
        return NULL;
}

/* @path leads to a file of @uid's, but not one of /proc's (/etc/mtab), whose
 * metadata procfs keeps to itself. */
static bool owned_by(const char *path, uid_t uid)
{
        struct statfs sf;
        struct stat st;

        return path && stat(path, &st) == 0 && st.st_uid == uid && !(statfs(path, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC);
}

/* The landlock tier's Landlock rules let the jail read, and so open, a file the
 * caller owns that it may not write: through that fd fchmod, fchown, futimens and
 * fsetxattr would change it as no read-only mount stops them here.  Any read-only
 * bind but the system view's (the caller's --ro, a read-only workspace, a profile's),
 * a system bind or an allowlisted program the caller owns (root owns the system
 * view).  Files it owns deeper in the system view are not looked for. */
static bool reads_callers_files(const struct sbx_plan *p)
{
        struct stat st;

        /* A read-write workspace is written entry by entry around its guards (.git,
         * .claude...: lib/landlock.c), which the jail reads and may not write: an
         * fchmod 0777 of .git/hooks or .claude through a read-only fd would open them
         * to every local user, whose hooks the host then runs as the caller. */
        if (p->workspace_mode == SBX_WS_RO || p->workspace_mode == SBX_WS_RW)
                return true;
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];

                if (m->kind != SBX_MOUNT_RO && m->kind != SBX_MOUNT_COPY)
                        continue;
                /* (not there: no rule) */
                if (m->optional && (!m->source || stat(m->source, &st) < 0))
                        continue;
                if (!m->system || owned_by(m->source, p->uid))
                        return true;
        }
        for (size_t i = 0; i < p->exec_allow.n; i++)
                if (owned_by(p->exec_allow.v[i], p->uid))
                        return true;
        return false;
}

void sbx_tier_fallback(const struct sbx_probe *pr, const struct sbx_plan *p, enum sbx_tier floor, struct sbx_tier_choice *c)
{
        const char *why = NULL;
        char ns[96];

        if (c->tier != SBX_TIER_REFUSE)
                return;
        if (!namespace_probe(c->failed))
                why = "it stands in for namespaces only";
        else if (pr->r[SBX_PROBE_SECCOMP].err)
                why = "it needs seccomp filters (P8 failed)";
        else if (pr->r[SBX_PROBE_LANDLOCK].value < 6)
                why = "it needs Landlock ABI 6 or later (signal and abstract-socket scopes)";
        else if (p->net != SBX_NET_NONE)
                why = "it serves network: none only (network: filtered and host need a network namespace)";
        else if (p->n_net_connect || p->n_net_publish)
                why = "network.localhost ports need a network namespace";
        else if (p->caps)
                why = "the profile keeps capabilities";
        else
                why = unmountable(p);
        if (why) {
                snprintf(c->no_landlock, sizeof(c->no_landlock), "no landlock tier either: %s", why);
                return;
        }
        if (floor > SBX_TIER_LANDLOCK)
                return; /* possible, but the floor does not name it: never silently */
        sbx_strlcpy(ns, c->cause, sizeof(ns));
        *c = (struct sbx_tier_choice){ .tier = SBX_TIER_LANDLOCK, .failed = SBX_PROBE_COUNT };
        add_sub(c, "pid", "shared", ns);
        add_sub(c, "mount", "landlock", "no mount namespace: Landlock rules on the host's tree");
        add_sub(c, "net", "landlock", "no TCP (Landlock), no other inet/netlink socket (seccomp)");
        add_sub(c, "proc", "host", "the container's /proc; Landlock closes others' environ, mem");
        add_sub(c, "ipc", "none", "no SysV IPC, no message queue (seccomp)");
        add_sub(c, "uts", "shared", "no UTS namespace");
        add_sub(c, "unix", "pairs-only", "no connect broker: socketpair only");
        add_sub(c, "tmp", "private", "TMPDIR (and HOME=/tmp) private, removed after; /tmp read-only");
        /* Landlock cannot take write away beneath a writable place: lib/landlock.c. */
        if (p->workspace_mode == SBX_WS_RW)
                add_sub(c, "workspace", "entries", "guards (.git, .claude...) and the top read-only; other entries writable");
        add_sub(c, "ioctl", "tty-only", "btrfs subvolumes, verity, fscrypt bypass Landlock: terminal, FIO* and flag reads only");
        /* (seccomp-apply.c, apply_metadata) */
        if (reads_callers_files(p))
                add_sub(c, "metadata", "none", "Landlock does not govern chmod, chown, utimes or xattrs; the jail reads files the caller owns it may not write");
        else
                add_sub(c, "metadata", "fd-only", "Landlock does not govern chmod, chown, utimes or xattrs");
        if (p->uid == 0)
                add_sub(c, "identity", "uid0-no-caps", "no user namespace to map root");
        (void)pr;
}

int sbx_tier_limits(const struct sbx_probe *pr, const struct sbx_plan *p, bool rlimit_ok, struct sbx_tier_choice *c,
                    struct sbx_error *e)
{
        const struct sbx_probe_result *cg = &pr->r[SBX_PROBE_CGROUP];
        char cause[96];
        int r;

        if ((!p->limits.memory && !p->limits.pids) || !cg->err)
                return 0;
        cause_of(pr, SBX_PROBE_CGROUP, cause, sizeof(cause));
        /* The kernel counts no process of the global root against RLIMIT_NPROC, and a
         * root caller's command is a container's root: its pids limit would not hold. */
        if (rlimit_ok && p->uid == 0) {
                r = sbx_error_set(e, SBX_STAGE_CGROUP, cg->err, "", "",
                                  "no cgroup can be made here (%s), and a root caller's processes are not bound by "
                                  "RLIMIT_NPROC: limits.without_cgroup: rlimit cannot stand in for its pids limit",
                                  cause);
                sbx_error_hint(e, "run the agent as an unprivileged user (sbx-entrypoint does), or give sandboxd cgroups it "
                                  "may write");
                return r;
        }
        if (rlimit_ok) {
                add_sub(c, "limits", "rlimit", cause);
                return 0;
        }
        r = sbx_error_set(e, SBX_STAGE_CGROUP, cg->err, "", "", "no cgroup can be made here for the memory and pids limits (%s)",
                          cause);
        sbx_error_hint(e, "give sandboxd cgroups it may write (on the host, or a container whose cgroup v2 tree is "
                          "delegated to it read-write), or let the site policy take per-process rlimits in their place: "
                          "'limits: {without_cgroup: rlimit}' (sbx-policy(5))");
        return r;
}

/* The smaller of two limits, 0 being none. */
static uint64_t tighter(uint64_t a, uint64_t b)
{
        return !a ? b : !b ? a : a < b ? a : b;
}

void sbx_tier_apply(struct sbx_plan *p, const struct sbx_tier_choice *c)
{
        for (size_t i = 0; i < c->n_subs; i++)
                if (strcmp(c->subs[i].feature, "limits") == 0) {
                        /* RLIMIT_DATA: a process's private writable memory (what
                         * RLIMIT_AS would count too, without the address space Java,
                         * Go and V8 reserve); RLIMIT_NPROC: the caller's tasks. */
                        p->limits.rlimit[RLIMIT_DATA] = tighter(p->limits.rlimit[RLIMIT_DATA], p->limits.memory);
                        p->limits.rlimit[RLIMIT_NPROC] = tighter(p->limits.rlimit[RLIMIT_NPROC], p->limits.pids);
                        p->limits.memory = p->limits.pids = 0;
                        p->limits.memory_explicit = p->limits.pids_explicit = false;
                }
        if (c->tier == SBX_TIER_LANDLOCK) {
                p->no_namespaces = true;
                p->unix_broker = false;
                /* (fd-based metadata calls only where the choice says fd-only) */
                p->nons_no_fd_metadata = true;
                for (size_t i = 0; i < c->n_subs; i++)
                        if (strcmp(c->subs[i].feature, "metadata") == 0 && strcmp(c->subs[i].with, "fd-only") == 0)
                                p->nons_no_fd_metadata = false;
                return;
        }
        for (size_t i = 0; i < c->n_subs; i++)
                if (strcmp(c->subs[i].feature, "proc") == 0)
                        p->no_proc = true;
                else if (strcmp(c->subs[i].feature, "uts") == 0)
                        p->ns_shared |= SBX_NS_SHARE_UTS;
}

/* ---- remedies ------------------------------------------------------------------ */

struct remedy {
        const char *runtime, *text;
};

/* For each runtime, how to let a container make user namespaces: never --privileged. */
static const struct remedy userns_remedies[] = {
        { "docker", "Docker's default seccomp profile refuses unshare and clone with CLONE_NEWUSER: run the container with "
                    "--security-opt seccomp=FILE, FILE being Docker's default profile with unshare, and clone/clone3 with "
                    "CLONE_NEWUSER, allowed" },
        { "podman", "podman's default seccomp profile allows user namespaces: drop the --security-opt seccomp=... that "
                    "refuses unshare/clone with CLONE_NEWUSER, and give the user subordinate ids (/etc/subuid) when rootless" },
        { "kubernetes", "set hostUsers: false in the pod spec, and securityContext.seccompProfile {type: Localhost, "
                        "localhostProfile: a profile allowing unshare and clone with CLONE_NEWUSER}" },
        { "lxc", "allow nested user namespaces (security.nesting=true, or an AppArmor profile with 'userns,')" },
        { "container", "let the container make user namespaces: a seccomp profile allowing unshare and clone with "
                       "CLONE_NEWUSER (Docker: --security-opt seccomp=FILE; Kubernetes: hostUsers: false and a Localhost "
                       "seccompProfile)" },
};

static const struct remedy proc_remedies[] = {
        { "docker", "run the container with --security-opt systempaths=unconfined, so that /proc is not masked" },
        { "podman", "run the container with --security-opt unmask=/proc/*" },
        { "kubernetes", "set securityContext.procMount: Unmasked (with hostUsers: false)" },
        { "lxc", "mount /proc unmasked in the container (lxc.mount.auto = proc:rw)" },
        { "container", "unmask /proc in the container (Docker: --security-opt systempaths=unconfined; podman: "
                       "--security-opt unmask=/proc/*; Kubernetes: procMount: Unmasked)" },
        { "host", "something masks paths of this host's /proc (a container not recognised?): unmask them" },
};

static const struct remedy identity_remedies[] = {
        { "docker", "run the agent as a user other than root (docker run --user UID:GID)" },
        { "podman", "run the agent as a user other than root (podman run --user UID:GID)" },
        { "kubernetes", "run the agent as a user other than root (securityContext.runAsNonRoot: true, runAsUser: UID)" },
        { "", "run the agent as a user other than root inside the container" },
};

static const struct remedy uts_remedies[] = {
        { "", "a seccomp profile that allows sethostname and setdomainname (podman's default, containers-common's, "
              "refuses them without CAP_SYS_ADMIN: --security-opt seccomp=FILE)" },
};

static const char *pick(const struct remedy *list, size_t n, const char *runtime)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(list[i].runtime, runtime) == 0 || !list[i].runtime[0])
                        return list[i].text;
        return NULL;
}

const char *sbx_tier_host_userns_remedy(void)
{
        static const struct {
                const char *file, *bad, *hint;
        } knobs[] = {
                { "/proc/sys/kernel/unprivileged_userns_clone", "0",
                  "unprivileged user namespaces are off (sysctl kernel.unprivileged_userns_clone=0): set it to 1, or run as root or through sandboxd" },
                { "/proc/sys/user/max_user_namespaces", "0",
                  "user namespaces are off (sysctl user.max_user_namespaces=0): raise it, or run as root or through sandboxd" },
                { "/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1",
                  "AppArmor restricts unprivileged user namespaces: give sbx-run an AppArmor profile with 'userns,', or run as root or through sandboxd" },
        };

        for (size_t i = 0; i < ELEMENTSOF(knobs); i++) {
                char buf[16] = "";
                _cleanup_close_ int fd = open(knobs[i].file, O_RDONLY | O_CLOEXEC);
                size_t len = strlen(knobs[i].bad);

                if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 && strncmp(buf, knobs[i].bad, len) == 0 && buf[len] == '\n')
                        return knobs[i].hint;
        }
        return "the kernel refused a user namespace (inside a container? its seccomp profile may forbid them): run as root or through sandboxd";
}

static const char *refusal_remedy(const struct sbx_probe *pr, enum sbx_probe_id failed, const char *runtime)
{
        bool host = strcmp(runtime, "host") == 0;

        switch (failed) {
        case SBX_PROBE_USERNS:
                return host ? sbx_tier_host_userns_remedy() : pick(userns_remedies, ELEMENTSOF(userns_remedies), runtime);
        case SBX_PROBE_IDMAP:
                if (geteuid() == 0)
                        return "root cannot map itself into a user namespace without CAP_SETFCAP: add that capability "
                               "(--cap-add SETFCAP), or run the agent as a user other than root";
                return host ? sbx_tier_host_userns_remedy()
                            : "the container's LSM (AppArmor) refuses id maps in a new user namespace: allow 'userns,' for sbx-run";
        case SBX_PROBE_NETNS:
                return "the kernel refused to configure a new network namespace: use --net host only if the profile allows it, "
                       "or let the container's seccomp profile allow netlink in a new network namespace";
        case SBX_PROBE_SECCOMP:
                return "the kernel must allow seccomp filters with a listener (CONFIG_SECCOMP_FILTER, Linux 5.0 or later)";
        default:
                (void)pr;
                return "the container refuses mounts in a new mount namespace: allow mount, umount2 and pivot_root in its "
                       "seccomp profile for user namespaces (LXC: its AppArmor profile; pivot_root EACCES)";
        }
}

void sbx_tier_remedy(const struct sbx_probe *pr, const struct sbx_tier_choice *c, enum sbx_tier want, char *buf, size_t size)
{
        const char *runtime = sbx_probe_runtime(&pr->labels);
        size_t len = 0;

        buf[0] = '\0';
        if (c->tier == SBX_TIER_REFUSE) {
                snprintf(buf, size, "%s", refusal_remedy(pr, c->failed, runtime));
                return;
        }
        if (c->tier >= want)
                return;
        if (c->tier == SBX_TIER_LANDLOCK) {
                snprintf(buf, size, "%s", refusal_remedy(pr, SBX_PROBE_USERNS, runtime));
                return;
        }
        for (size_t i = 0; i < c->n_subs && len < size; i++) {
                const char *f = c->subs[i].feature;
                const char *t = strcmp(f, "proc") == 0 ? pick(proc_remedies, ELEMENTSOF(proc_remedies), runtime)
                                : strcmp(f, "uts") == 0 ? pick(uts_remedies, ELEMENTSOF(uts_remedies), runtime)
                                                        : pick(identity_remedies, ELEMENTSOF(identity_remedies), runtime);

                len += (size_t)snprintf(buf + len, size - len, "%s%s: %s", len ? "; " : "", c->subs[i].feature,
                                        t ? t : "see sbx-run(1) ISOLATION TIERS");
        }
}

void sbx_tier_substitutions_text(const struct sbx_tier_choice *c, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < c->n_subs && len < size; i++)
                len += (size_t)snprintf(buf + len, size - len, "%s%s=%s (%s)", len ? "; " : "", c->subs[i].feature,
                                        c->subs[i].with, c->subs[i].cause);
}

void sbx_tier_text_of(const struct sbx_tier_choice *c, struct sbx_tier_text *t)
{
        *t = (struct sbx_tier_text){ .n_subs = (unsigned)c->n_subs };
        sbx_strlcpy(t->tier, sbx_tier_name(c->tier), sizeof(t->tier));
        for (size_t i = 0; i < c->n_subs; i++) {
                sbx_strlcpy(t->subs[i].feature, c->subs[i].feature, sizeof(t->subs[i].feature));
                sbx_strlcpy(t->subs[i].with, c->subs[i].with, sizeof(t->subs[i].with));
                sbx_strlcpy(t->subs[i].cause, c->subs[i].cause, sizeof(t->subs[i].cause));
        }
}

/* @s, at most @size bytes of it: a string that came from another process may lack
 * its NUL. */
static void json_field(FILE *f, const char *s, size_t size)
{
        char buf[128];

        snprintf(buf, sizeof(buf), "%.*s", (int)(size < sizeof(buf) ? size : sizeof(buf) - 1), s);
        sbx_json_string(f, buf);
}

void sbx_tier_text_json(const struct sbx_tier_text *t, FILE *f)
{
        unsigned n = t->n_subs < SBX_MAX_SUBSTITUTIONS ? t->n_subs : SBX_MAX_SUBSTITUTIONS;

        if (!t->tier[0]) {
                fputs(",\"tier\":null,\"substitutions\":[]", f);
                return;
        }
        fputs(",\"tier\":", f);
        json_field(f, t->tier, sizeof(t->tier));
        fputs(",\"substitutions\":[", f);
        for (unsigned i = 0; i < n; i++) {
                fputs(i ? ",{\"feature\":" : "{\"feature\":", f);
                json_field(f, t->subs[i].feature, sizeof(t->subs[i].feature));
                fputs(",\"with\":", f);
                json_field(f, t->subs[i].with, sizeof(t->subs[i].with));
                fputs(",\"cause\":", f);
                json_field(f, t->subs[i].cause, sizeof(t->subs[i].cause));
                fputc('}', f);
        }
        fputc(']', f);
}

void sbx_tier_json_fields(const struct sbx_tier_choice *c, FILE *f)
{
        struct sbx_tier_text t;

        sbx_tier_text_of(c, &t);
        sbx_tier_text_json(&t, f);
}

void sbx_tier_floor(struct sbx_tier_floor *f, int profile_min, int site_min, const char *site_where)
{
        /* Out of range (a profile's "refuse" included): full, the strongest. */
        int prof = profile_min > SBX_TIER_REFUSE && profile_min < SBX_TIER_COUNT ? profile_min : SBX_TIER_FULL;
        int site = site_min >= SBX_TIER_REFUSE && site_min < SBX_TIER_COUNT ? site_min : SBX_TIER_FULL;

        *f = (struct sbx_tier_floor){ .tier = (enum sbx_tier)prof };
        if (site > SBX_TIER_REFUSE && site >= prof) {
                f->tier = (enum sbx_tier)site;
                f->site = true;
                snprintf(f->from, sizeof(f->from), "the site policy's min_tier (%.120s)",
                         site_where && site_where[0] ? site_where : "the site policy");
        } else {
                snprintf(f->from, sizeof(f->from), "the profile's min_tier");
        }
}

int sbx_tier_check(const struct sbx_probe *pr, const struct sbx_tier_choice *c, const struct sbx_tier_floor *floor,
                   struct sbx_error *e)
{
        char remedy[512], subs[384];
        enum sbx_tier min = floor->tier;
        int r;

        if (c->tier >= min)
                return 0;
        sbx_tier_remedy(pr, c, min, remedy, sizeof(remedy));
        if (c->tier == SBX_TIER_REFUSE) {
                r = sbx_error_set(e, SBX_STAGE_TIER, pr->r[c->failed].err, "", "",
                                  "no jail can be made here (isolation tier 'refuse', %s): %s", sbx_probe_runtime(&pr->labels), c->cause);
                /* The namespace-less tier, when it could stand in: the profile's to
                 * accept, never the site's floor's. */
                if (!c->no_landlock[0] && namespace_probe(c->failed) && !floor->site)
                        sbx_error_hint(e, "min_tier: landlock accepts the namespace-less tier (sbx-run(1) ISOLATION TIERS); "
                                          "or: %s", remedy);
                else if (c->no_landlock[0] && min <= SBX_TIER_LANDLOCK)
                        sbx_error_hint(e, "%s; %s", c->no_landlock, remedy);
                else
                        sbx_error_hint(e, "%s", remedy);
                return r;
        }
        sbx_tier_substitutions_text(c, subs, sizeof(subs));
        r = sbx_error_set(e, SBX_STAGE_TIER, EPERM, "", "", "isolation tier '%s' (%s) is below %s '%s': %s",
                          sbx_tier_name(c->tier), sbx_probe_runtime(&pr->labels), floor->from, sbx_tier_name(min), subs);
        /* The site's floor is the administrator's: no profile lowers it. */
        if (floor->site)
                sbx_error_hint(e, "%s", remedy);
        else
                sbx_error_hint(e, "%s; or accept it: min_tier: %s", remedy, sbx_tier_name(c->tier));
        return r;
}
