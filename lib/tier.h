/* SPDX-License-Identifier: MIT */
/* Named isolation tiers: what a probe (probe.h) says this environment allows,
 * turned into the jail a plan will get, every substitution named, and the remedy for
 * a tier below what the profile accepts.  Launcher side, before clone.
 *
 *   full              the whole jail as the plan says, nothing substituted (but
 *                     sandboxd's limits, where the site takes rlimits for a cgroup
 *                     it cannot make: sbx_tier_limits, on any tier).
 *   container-userns  still namespaces all round (a user namespace where sbx has no
 *                     CAP_SYS_ADMIN), with what the container forbids substituted:
 *                       proc:  no /proc where a fresh one is refused (a container's
 *                              masked /proc).  Never the container's /proc bound in:
 *                              it is the outer PID namespace's and would show every
 *                              process of the container, their command lines (sbx-run's
 *                              --env values among them), mount tables and cgroups; a
 *                              bind shares the container's mount options, so hidepid
 *                              cannot be set on it, and pids that appear later cannot
 *                              be masked in advance.
 *                       identity: root without CAP_SYS_ADMIN runs its command as uid 0
 *                              of a user namespace mapped to itself, no capability,
 *                              instead of as nobody over idmapped system binds (which
 *                              need CAP_SYS_ADMIN): root's owner-only files in the
 *                              system view stay readable to it.
 *   landlock          no namespace at all (a runtime whose seccomp profile refuses
 *                     them): the command forked as it is, in a session of its own,
 *                     with Landlock for the file system (read and execute on the
 *                     system view, write on the workspace and a private TMPDIR,
 *                     nothing else), Landlock's scopes (no signal, no abstract unix
 *                     socket outside its domain; Landlock's ptrace restriction closes
 *                     the other processes' memory, environ and fds), no TCP (Landlock
 *                     ABI 4) and no other network socket, no unix socket but pairs,
 *                     no SysV or POSIX message-queue IPC (seccomp), write in the
 *                     workspace entry by entry around what the host reads there
 *                     (.git, .claude...: Landlock cannot take write away beneath a
 *                     rule, so the top and those stay read-only: workspace=entries),
 *                     no ioctl but the terminal's, FIO* and file-flag reads
 *                     (btrfs makes subvolumes and snapshots by ioctl, unseen by
 *                     Landlock: ioctl=tty-only), no change of a
 *                     file's metadata by path (chmod, chown, utimes, xattrs: Landlock
 *                     does not govern them; seccomp refuses them, so `chmod +x FILE`,
 *                     `install -m`, os.chmod and GNU ld's execute bits fail with EPERM
 *                     even in the workspace; the fd-based fchmod, fchown, futimens,
 *                     fsetxattr (touch, cp -p, tar, git) work, and are refused
 *                     too where the jail may read files of the caller's it may not
 *                     write: metadata=none), every descendant killed at the end (the
 *                     launcher is their subreaper).  Only with
 *                     Landlock ABI 6 or later, only for network: none, and only when
 *                     the floor names it: never chosen by default.  What it does not
 *                     give: a private /proc (the container's processes and command
 *                     lines are visible), its own PID numbers, a hostname.
 *   refuse            no jail can be made here (no user namespace, no mount namespace
 *                     ... and no landlock tier): exit 125 with the remedy.
 *
 * The floor: a profile's min_tier, raised by the site policy's (sandboxd), never
 * lowered (sbx_tier_floor). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"
#include "probe.h"

#include <stdio.h>

/* In order of strength: a comparison says which is weaker. */
enum sbx_tier {
        SBX_TIER_REFUSE,
        SBX_TIER_LANDLOCK,
        SBX_TIER_CONTAINER_USERNS,
        SBX_TIER_FULL,
        SBX_TIER_COUNT,
};

#define SBX_MAX_SUBSTITUTIONS 14

struct sbx_substitution {
        const char *feature; /* "proc", "identity" */
        const char *with;    /* "none", "container-root" */
        char cause[96];      /* "P3 mount proc: Operation not permitted" */
};

struct sbx_tier_choice {
        enum sbx_tier tier;
        struct sbx_substitution subs[SBX_MAX_SUBSTITUTIONS];
        size_t n_subs;
        /* Refused: the probe that failed and why, else SBX_PROBE_COUNT. */
        enum sbx_probe_id failed;
        char cause[96];
        /* Refused: why the landlock tier cannot stand in ("" when it could). */
        char no_landlock[160];
};

const char *sbx_tier_name(enum sbx_tier t);
/* The tier named @name, or -1. */
int sbx_tier_by_name(const char *name);

/* The tier @p would get where @pr was probed. */
void sbx_tier_choose(const struct sbx_probe *pr, const struct sbx_plan *p, struct sbx_tier_choice *c);

/* Refused by sbx_tier_choose, and @floor accepts the landlock tier: that tier when
 * the probe allows it (namespaces refused, Landlock ABI >= 6, seccomp) and the plan
 * can have it (network: none, no localhost ports); else @c stays refused, with
 * c->no_landlock saying why. */
void sbx_tier_fallback(const struct sbx_probe *pr, const struct sbx_plan *p, enum sbx_tier floor, struct sbx_tier_choice *c);

/* Where the probe found no cgroup to make (P9) and @p has memory or pids limits that
 * must hold (sandboxd's): when @rlimit_ok (the site's limits.without_cgroup: rlimit),
 * the substitution limits=rlimit in @c -- RLIMIT_DATA per process for the memory,
 * RLIMIT_NPROC for the pids (counted over all the caller's tasks, not per jail) -- and
 * 0; else -errno with @e saying why and the remedy.  Call after sbx_tier_check(). */
int sbx_tier_limits(const struct sbx_probe *pr, const struct sbx_plan *p, bool rlimit_ok, struct sbx_tier_choice *c,
                    struct sbx_error *e);

/* Makes @p what @c says: a user namespace where the probe wanted one, no /proc where
 * it is substituted; landlock: p->no_namespaces, and no connect broker; limits: the
 * memory and pids limits as rlimits, no cgroup.  Call before sbx_jail_run(). */
void sbx_tier_apply(struct sbx_plan *p, const struct sbx_tier_choice *c);

/* The remedy, for this runtime, that lifts @c to at least @want ("" when none is
 * needed): what to change in the container's configuration, never --privileged. */
void sbx_tier_remedy(const struct sbx_probe *pr, const struct sbx_tier_choice *c, enum sbx_tier want, char *buf,
                     size_t size);

/* "proc=none (P3 mount proc: EPERM); identity=container-root (...)", for the audit
 * record's SBX_SUBSTITUTIONS=; "" when none.  SBX_SUBSTITUTIONS_TEXT holds them all. */
#define SBX_SUBSTITUTIONS_TEXT (SBX_MAX_SUBSTITUTIONS * 128)
void sbx_tier_substitutions_text(const struct sbx_tier_choice *c, char *buf, size_t size);
/* ,"tier":"...","substitutions":[{"feature":..,"with":..,"cause":..}] */
void sbx_tier_json_fields(const struct sbx_tier_choice *c, FILE *f);

/* The tier a run got and its substitutions as plain text, no pointers: what goes
 * from sandboxd's launcher to sandboxd, and over D-Bus to sbx-run --daemon --json.
 * tier "" : none chosen (a refusal before the tier step, an older sandboxd). */
struct sbx_tier_text {
        char tier[24];
        unsigned n_subs;
        struct {
                char feature[16], with[24], cause[96];
        } subs[SBX_MAX_SUBSTITUTIONS];
};
void sbx_tier_text_of(const struct sbx_tier_choice *c, struct sbx_tier_text *t);
/* sbx_tier_json_fields()'s fields from @t, read from a socket: each string cut to its
 * field, n_subs bounded; a tier "" prints null and []. */
void sbx_tier_text_json(const struct sbx_tier_text *t, FILE *f);

/* The weakest tier a run accepts: the stronger of the site policy's min_tier (sandboxd;
 * none in direct mode) and the profile's, and whose it is.  A site's floor is one no
 * profile can lower: at a tie it is the site's. */
struct sbx_tier_floor {
        enum sbx_tier tier;
        bool site;      /* the site policy's */
        char from[160]; /* "the profile's min_tier", "the site policy's min_tier (FILE:LINE)" */
};

/* @profile_min: the profile's min_tier; @site_min: the site's (SBX_TIER_REFUSE: none),
 * @site_where its "FILE:LINE".  A value out of range counts as full (fail closed). */
void sbx_tier_floor(struct sbx_tier_floor *f, int profile_min, int site_min, const char *site_where);

/* 0 when @c is at least @floor; else -errno with @e saying which tier, which floor and
 * whose, why, and (hint) the remedy for this runtime. */
int sbx_tier_check(const struct sbx_probe *pr, const struct sbx_tier_choice *c, const struct sbx_tier_floor *floor,
                   struct sbx_error *e);

/* Why this host refused an unprivileged user namespace, read from its sysctl and
 * AppArmor knobs, as a remedy (also the clone stage's hint, lib/jail.c). */
const char *sbx_tier_host_userns_remedy(void);
