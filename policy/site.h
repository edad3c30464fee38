/* SPDX-License-Identifier: MIT */
/* The site policy, /etc/sbx/policy.yaml, read by sandboxd: which callers may use which
 * profiles, the command deny rules no profile can lift, and the limits on concurrent
 * sandboxes and on what one may ask for, and the floor under every profile's
 * isolation tier.  A caller no rule admits is denied (fail closed).  Loaded with the
 * profiles' strict schema walker (site.c); every key is in sbx-policy(5).  User and
 * group names are resolved once, at load: sbx_site_admit() runs per request and never
 * asks NSS. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/netrule.h"
#include "../lib/strv.h"
#include "../cmdpolicy/commands.h"
#include "validator.h"
#include "yaml.h"

#define SBX_SITE_POLICY_PATH "/etc/sbx/policy.yaml"

struct sbx_site_rule {
        uid_t *uids;
        size_t n_uids;
        gid_t *gids;
        size_t n_gids;
        struct sbx_strv profiles;          /* profile names; "*": any */
        uint64_t max_sandboxes;            /* per user, for what this rule admits; 0: none of its own */
        uint64_t max_time_ms, max_memory;  /* ceilings; 0: none of its own */
        unsigned line;                     /* where the rule starts, for reasons: "policy.yaml:12" */
};

/* A uid the policy named a user by, so that a reason can say "user 1001 (alice)"
 * without a lookup per request. */
struct sbx_site_name {
        uid_t uid;
        char *name;
};

struct sbx_site_policy {
        char *origin; /* the path it was read from */
        struct sbx_site_rule *rules;
        size_t n_rules;
        /* deny.commands and deny.patterns, for sbx_cmd_check().  Mode SBX_CMD_DENYLIST
         * when either has an entry, else SBX_CMD_OFF (no site command rule: every argv
         * passes, even one the checker could not read).  allow_pipe_to_shell is false:
         * a program read from a pipe (curl … | sh, echo … | python3) could be a denied
         * command, so with a deny list it is denied like any string not understood. */
        struct sbx_cmd_policy deny;
        struct sbx_strv deny_profiles;
        unsigned *deny_profiles_lines;     /* the line of each, for reasons */
        uint64_t max_sandboxes, max_per_user;
        uint64_t max_time_ms, max_memory, max_pids; /* 0: none */
        uint64_t grace_ms;                 /* between SIGTERM and SIGKILL on shutdown */
        struct sbx_site_name *names;
        size_t n_names;
        /* validator: asked about every request, whatever the profile, as validator.user
         * (resolved at load; never root).  No command: none. */
        struct sbx_validator_conf validator;
        uid_t validator_uid;
        gid_t validator_gid; /* the user's primary group; it gets no other */
        /* network.allow and network.deny: what a filtered jail may reach, whatever its
         * profile says (lib/egress.h): allow rules a ceiling when there are any, deny
         * rules added. */
        struct sbx_netrules net;
        /* min_tier: the weakest isolation tier any run may get (enum sbx_tier,
         * lib/tier.h), whatever its profile accepts; SBX_TIER_REFUSE (0): none of the
         * site's.  Its line, for the refusal's "policy.yaml:LINE". */
        int min_tier;
        unsigned min_tier_line;
        /* limits.without_cgroup: where sandboxd can make no cgroup (a container's
         * read-only cgroup mount), SBX_WITHOUT_CGROUP_REFUSE refuses every run with
         * the remedy; SBX_WITHOUT_CGROUP_RLIMIT runs it with the memory and pids
         * limits as rlimits, named as a substitution (lib/tier.h). */
        int without_cgroup;
};

enum { SBX_WITHOUT_CGROUP_REFUSE, SBX_WITHOUT_CGROUP_RLIMIT };

/* An empty policy: no rule, so it denies everyone; the limits at their defaults.
 * Allocates nothing. */
void sbx_site_init(struct sbx_site_policy *sp);
void sbx_site_done(struct sbx_site_policy *sp);

/* Parses @len bytes of @text (a file's contents; @origin names it in messages) into
 * @sp, which it initializes first: @sp must not hold a policy.  0, or -errno with @d
 * filled ("FILE:LINE:COL: message") and @sp left empty (denies everyone), so that a
 * daemon parses into a fresh struct and keeps its last good policy on failure.  Names
 * in users and groups are looked up here (getpwnam_r, getgrnam_r). */
int sbx_site_parse(const char *origin, const char *text, size_t len, struct sbx_site_policy *sp, struct sbx_diag *d);

/* Reads and parses @path: a regular file of at most 1 MiB.  -ENOENT when there is none
 * (@d: "PATH:1:1: no site policy at PATH"); otherwise as sbx_site_parse(). */
int sbx_site_load(const char *path, struct sbx_site_policy *sp, struct sbx_diag *d);

/* What an admitted request gets. */
struct sbx_site_grant {
        uint64_t max_per_user;                      /* the cap on this caller's sandboxes */
        uint64_t max_time_ms, max_memory, max_pids; /* tightest ceilings; 0: none */
        char rule[64];                              /* "policy.yaml:12": the first admitting rule */
};

/* May the caller (@uid, primary @gid, supplementary @groups) use @profile?  A rule
 * matches when it lists @uid, or @gid or one of @groups; the caller may use @profile
 * when a matching rule lists it (or "*") and deny.profiles does not.  The cap and the
 * ceilings are the tightest of the global limits and of every matching rule that lists
 * @profile.  true with @g filled; false with @why saying which rule is missing:
 *   "no rule of /etc/sbx/policy.yaml admits uid 1002: callers not listed are denied"
 *   "user 1001 (alice) is not allowed profile 'network' by /etc/sbx/policy.yaml"
 *   "profile 'network' is denied to everyone by /etc/sbx/policy.yaml:14 (deny.profiles)"
 * No allocation, no NSS: it runs per request. */
bool sbx_site_admit(const struct sbx_site_policy *sp, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups,
                    const char *profile, struct sbx_site_grant *g, char *why, size_t why_size);

/* The most sandboxes at once any rule matching the caller lets it run (each rule's
 * max_sandboxes, or limits.max_sandboxes_per_user); 0 when no rule matches it, a
 * caller the policy admits to nothing.  sandboxd sizes what a connection may hold
 * on it.  No allocation, no NSS. */
uint64_t sbx_site_caller_cap(const struct sbx_site_policy *sp, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups);
