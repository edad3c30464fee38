/* SPDX-License-Identifier: MIT */
#include "privs.h"

#include <errno.h>
#include <linux/close_range.h>
#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

#include "cleanup-cap.h"

_Static_assert(RLIM_NLIMITS == SBX_RLIMIT_MAX, "struct sbx_limits has a slot for every resource limit");

/* For an error message: the kernel's name of a resource limit. */
static const char *rlimit_name(int resource)
{
        static const char *const names[] = {
                [RLIMIT_CPU] = "RLIMIT_CPU",         [RLIMIT_FSIZE] = "RLIMIT_FSIZE",
                [RLIMIT_DATA] = "RLIMIT_DATA",       [RLIMIT_STACK] = "RLIMIT_STACK",
                [RLIMIT_CORE] = "RLIMIT_CORE",       [RLIMIT_RSS] = "RLIMIT_RSS",
                [RLIMIT_NPROC] = "RLIMIT_NPROC",     [RLIMIT_NOFILE] = "RLIMIT_NOFILE",
                [RLIMIT_MEMLOCK] = "RLIMIT_MEMLOCK", [RLIMIT_AS] = "RLIMIT_AS",
                [RLIMIT_LOCKS] = "RLIMIT_LOCKS",     [RLIMIT_SIGPENDING] = "RLIMIT_SIGPENDING",
                [RLIMIT_MSGQUEUE] = "RLIMIT_MSGQUEUE", [RLIMIT_NICE] = "RLIMIT_NICE",
                [RLIMIT_RTPRIO] = "RLIMIT_RTPRIO",   [RLIMIT_RTTIME] = "RLIMIT_RTTIME",
        };

        return resource >= 0 && resource < (int)ELEMENTSOF(names) && names[resource] ? names[resource] : "RLIMIT_?";
}

/* A limit is a ceiling: where the launcher's own hard limit is already lower, that
 * one stands (raising it would need CAP_SYS_RESOURCE, and would loosen). */
static int set_rlimit(int resource, rlim_t v, const char *name, struct sbx_error *e)
{
        struct rlimit rl = { .rlim_cur = v, .rlim_max = v }, now;

        if (getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY && now.rlim_max < v)
                rl.rlim_cur = rl.rlim_max = now.rlim_max;

        if (setrlimit(resource, &rl) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "setrlimit", name, "cannot set a resource limit");
        return 0;
}

static bool kept(uint64_t keep, int c)
{
        return c < 64 && (keep >> c) & 1;
}

static int drop_bounding_and_ambient(uint64_t keep, struct sbx_error *e)
{
        /* cap_max_bits(): what this kernel knows, not what libcap was built with. */
        for (int c = 0; c < (int)cap_max_bits(); c++)
                if (!kept(keep, c) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
                        return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_CAPBSET_DROP", "cannot drop capability %d from the bounding set", c);
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_CAP_AMBIENT", "cannot clear ambient capabilities");
        return 0;
}

/* The capabilities a profile keeps go into the ambient set, so that they survive
 * execve of an ordinary program; ambient needs them permitted and inheritable. */
static int raise_kept(uint64_t keep, struct sbx_error *e)
{
        _cleanup_cap_ cap_t now = keep ? cap_get_proc() : NULL;

        if (keep && !now)
                return sbx_error_set(e, SBX_STAGE_PRIVS, ENOMEM, "cap_get_proc", "", "out of memory");
        for (cap_value_t c = 0; c < 64; c++) {
                if (!kept(keep, c))
                        continue;
                if (cap_set_flag(now, CAP_INHERITABLE, 1, &c, CAP_SET) < 0 || cap_set_proc(now) < 0 ||
                    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0)
                        return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_CAP_AMBIENT_RAISE", "cannot keep capability %d", c);
        }
        return 0;
}

/* Last use of CAP_SETPCAP: lock the securebits so that uid 0 (root mode) never
 * regains capabilities on execve, a uid switch neither clears nor grants any (the
 * set below is what stands), and nothing more can be raised into the ambient set. */
static int lock_securebits(struct sbx_error *e)
{
        if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                  SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                  SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_SET_SECUREBITS", "cannot lock securebits");
        return 0;
}

int sbx_privs_switch_ids(const struct sbx_plan *p, struct sbx_error *e)
{
        if (setgroups(p->n_groups, p->groups) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "setgroups", "", "cannot take the caller's groups");
        if (setresgid(p->gid, p->gid, p->gid) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "setresgid", "", "cannot take the caller's gid %u", (unsigned)p->gid);
        if (setresuid(p->uid, p->uid, p->uid) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "setresuid", "", "cannot take the caller's uid %u", (unsigned)p->uid);
        /* The switch made it as dumpable as fs.suid_dumpable says (1: the caller may
         * trace it).  Whatever switched still holds what the caller must not reach
         * until its execve: the jail's sockets, sandboxd's report socket and audit
         * file (close-on-exec, not yet closed).  The command's execve makes it
         * dumpable again, without them. */
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_SET_DUMPABLE", "cannot make it undumpable after the id switch");
        return 0;
}

/* Effective, permitted and inheritable to zero, or to the few a profile keeps. */
static int set_capabilities(uint64_t keep, struct sbx_error *e)
{
        _cleanup_cap_ cap_t caps = cap_init();

        if (!caps)
                return sbx_error_set(e, SBX_STAGE_PRIVS, ENOMEM, "cap_init", "", "out of memory");
        for (cap_value_t c = 0; c < 64; c++)
                if (kept(keep, c) && (cap_set_flag(caps, CAP_PERMITTED, 1, &c, CAP_SET) < 0 ||
                                      cap_set_flag(caps, CAP_EFFECTIVE, 1, &c, CAP_SET) < 0 ||
                                      cap_set_flag(caps, CAP_INHERITABLE, 1, &c, CAP_SET) < 0))
                        return sbx_error_set(e, SBX_STAGE_PRIVS, EINVAL, "cap_set_flag", "", "cannot keep capability %d", c);
        if (cap_set_proc(caps) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "capset", "", "cannot clear capabilities");
        return 0;
}

/* Not root, and nothing permitted: no capability to drop, none to lose at execve. */
static bool holds_nothing(void)
{
        _cleanup_cap_ cap_t now = geteuid() == 0 ? NULL : cap_get_proc();
        cap_flag_value_t v;

        if (!now)
                return false;
        for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++)
                if (cap_get_flag(now, c, CAP_PERMITTED, &v) < 0 || v == CAP_SET)
                        return false;
        return true;
}

/* sbx_privs_nofile_room's @inherit; 0: the launcher's own limit was left alone. */
static rlim_t nofile_inherit;

void sbx_privs_nofile_room(rlim_t inherit)
{
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
                return;
        nofile_inherit = inherit < rl.rlim_max ? inherit : rl.rlim_max;
        if (rl.rlim_cur < rl.rlim_max) {
                rl.rlim_cur = rl.rlim_max;
                (void)setrlimit(RLIMIT_NOFILE, &rl);
        }
}

/* The soft limit the command inherits, the hard one left as it was. */
static int inherit_nofile(struct sbx_error *e)
{
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "getrlimit", "RLIMIT_NOFILE", "cannot read the open-files limit");
        rl.rlim_cur = nofile_inherit;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "setrlimit", "RLIMIT_NOFILE", "cannot set the open-files limit");
        return 0;
}

int sbx_privs_drop(const struct sbx_plan *p, unsigned *applied, struct sbx_error *e)
{
        /* The landlock tier, as a user holding no capability (no user namespace to
         * hold CAP_SETPCAP in): the bounding set and securebits cannot be changed, and
         * need not be: no_new_privs below keeps execve from granting any. */
        bool bare = p->no_namespaces && p->caps == 0 && holds_nothing();
        int r;

        /* 1. fds: every fd but 0-2 closes at execve.  CLOEXEC rather than close, so the
         *    sync socket still carries an exec failure home. */
        if (syscall(SYS_close_range, 3, ~0u, CLOSE_RANGE_CLOEXEC) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "close_range", "", "cannot mark fds close-on-exec");
        /* 2. rlimits, while we may still raise them: no core files (they would hold
         *    the process's memory in the workspace); then those the plan sets (CPU
         *    time, open files...: the option table's rlimit rows). */
        if ((r = set_rlimit(RLIMIT_CORE, 0, "RLIMIT_CORE", e)) < 0)
                return r;
        if (nofile_inherit && (r = inherit_nofile(e)) < 0)
                return r;
        for (int i = 0; i < SBX_RLIMIT_MAX; i++)
                if (i != RLIMIT_CORE && p->limits.rlimit[i] && (r = set_rlimit(i, p->limits.rlimit[i], rlimit_name(i), e)) < 0)
                        return r;
        /* 3-4. bounding and ambient sets: nothing can come back through execve of a
         *      file with capabilities. */
        if (bare && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_CAP_AMBIENT", "cannot clear ambient capabilities");
        if (!bare && (r = drop_bounding_and_ambient(p->caps, e)) < 0)
                return r;
        /* 5. securebits locked, then uid/gid: direct mode keeps the caller's (the
         *    caller mapped to itself in the user namespace, or root's command as
         *    nobody in its own: identity.h); sandboxd's command becomes its caller
         *    (root's did already, before its user namespace froze the groups). */
        if (!bare && ((r = raise_kept(p->caps, e)) < 0 || (r = lock_securebits(e)) < 0))
                return r;
        if (p->run_as && !p->root_userns && (r = sbx_privs_switch_ids(p, e)) < 0)
                return r;
        /* 6. capabilities to zero (or to what the profile keeps). */
        if ((r = set_capabilities(p->caps, e)) < 0)
                return r;
        /* 7. no_new_privs: setuid and file capabilities give nothing from now on; it
         *    also lets an unprivileged process install Landlock and seccomp. */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_SET_NO_NEW_PRIVS", "cannot set no_new_privs");
        *applied |= SBX_APPLIED_NO_NEW_PRIVS | (p->caps == 0 ? SBX_APPLIED_CAPS_DROPPED : 0);
        return 0;
}

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN (1UL << 0)
#endif

/* 8. Memory: no mapping writable and executable at once, and none made executable
 *    once it was writable (Linux 6.3+), so nothing the command writes into memory can
 *    be run.  Inherited across fork and execve, and cannot be cleared; the seccomp
 *    filter adds the same refusal of W+X requests, and of shmat(SHM_EXEC), which MDWE
 *    does not see. */
int sbx_privs_mdwe(const struct sbx_plan *p, char *what, size_t size, unsigned *applied, struct sbx_error *e)
{
        int r, err;

        what[0] = '\0';
        if (!p->mdwe)
                return 0;
        if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) == 0) {
                *applied |= SBX_APPLIED_MDWE;
                return 0;
        }
        err = errno;
        if (err != EINVAL || !(p->optional & SBX_HARDEN_MDWE)) {
                r = sbx_error_set(e, SBX_STAGE_PRIVS, err, "prctl", "PR_SET_MDWE", "cannot deny write-and-execute memory");
                if (err == EINVAL)
                        sbx_error_hint(e, "the kernel has no PR_SET_MDWE (Linux 6.3 or later has): "
                                          "list memory_deny_write_execute in the profile's optional, or set it false");
                return r;
        }
        snprintf(what, size, "memory_deny_write_execute: no PR_SET_MDWE in this kernel; only W+X requests are refused");
        return 1;
}

int sbx_privs_drop_init(const struct sbx_plan *p, struct sbx_error *e)
{
        int r;

        if ((r = drop_bounding_and_ambient(0, e)) < 0 || (r = lock_securebits(e)) < 0)
                return r;
        /* sandboxd's jail: PID 1 takes the caller's ids too, or it could not forward
         * a signal to the command (kill needs the same uid once CAP_KILL is gone). */
        if (p->run_as && (r = sbx_privs_switch_ids(p, e)) < 0)
                return r;
        /* The switch made it as dumpable as fs.suid_dumpable says; the caller, now
         * of its uid, may not trace what holds the jail's sockets. */
        if (p->run_as && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_SET_DUMPABLE", "cannot make PID 1 undumpable");
        if ((r = set_capabilities(0, e)) < 0)
                return r;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_PRIVS, errno, "prctl", "PR_SET_NO_NEW_PRIVS", "cannot set no_new_privs");
        return 0;
}
