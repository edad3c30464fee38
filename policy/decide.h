/* SPDX-License-Identifier: MIT */
/* The decision, once for both programs: from what a caller asked, who the caller is and
 * what the site grants it (sandboxd) or nothing (direct mode), to an immutable decision
 * -- the plan, the verdict, the compiled seccomp filter and what the audit record says.
 * Load the profile -> narrow it by the ask -> the site's deny rules -> the profile's
 * command policy -> the external validators (the site's, then the profile's) -> the
 * site's ceilings and identity -> validate (which applies the socket masks) -> compile
 * seccomp.  Everything that changes the plan happens before
 * validation; nothing after it.  sbx-run and sandboxd's launcher only parse, decide,
 * audit, run and map the result to their own outputs. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../lib/caller.h"
#include "../lib/error.h"
#include "../lib/seccomp.h"
#include "../lib/tier.h"
#include "../cmdpolicy/commands.h"
#include "options.h"
#include "profile.h"
#include "site.h"

/* What sandboxd adds to a decision: the caller's identity, which the command runs as,
 * the site's grant and deny rules, and its own sockets to hide. */
struct sbx_site_terms {
        uid_t uid;
        gid_t gid;
        const gid_t *groups;
        size_t n_groups;
        const struct sbx_site_grant *grant; /* the ceilings */
        const struct sbx_cmd_policy *deny;  /* the site policy's command deny rules */
        const struct sbx_netrules *net;     /* its network rules (egress), or NULL */
        const char (*hide)[108];            /* sandboxd's sockets */
        size_t n_hide;
        /* The site's validator (NULL: none), and the user every validator runs as under
         * sandboxd, the profile's too ((uid_t)-1: none configured, so a profile's
         * validator is refused): never root, never the caller. */
        const struct sbx_validator_conf *validator;
        uid_t validator_uid;
        gid_t validator_gid;
        /* The site's floor under every profile's (enum sbx_tier; SBX_TIER_REFUSE: none),
         * and where it says so ("FILE:LINE"). */
        int min_tier;
        const char *min_tier_where;
        /* Where no cgroup can be had (the probe's P9), the memory and pids limits may
         * be per-process rlimits (the site's limits.without_cgroup: rlimit), else the
         * run is refused with the remedy. */
        bool rlimit_without_cgroup;
};

struct sbx_decide_in {
        const char *profile;                   /* a name, or (direct mode) a path; NULL: workspace */
        const struct sbx_profile_store *store; /* sandboxd's snapshot; NULL: read from disk */
        const struct sbx_ask *ask;
        const struct sbx_vars *vars;
        struct sbx_caller *caller;          /* opens paths with the caller's rights */
        const struct sbx_site_terms *site;  /* NULL: direct mode, no site policy */
        /* The harness's tags, for the validator (--tool-use-id, --session-id); NULL
         * when not given.  The options that set them come with the harness hooks. */
        const char *tool_use_id, *session_id;
        /* The run's audit id (SBX_ID), which the plan carries for the egress broker's
         * records; NULL: none (--check, --dry-run). */
        const char *audit_id;
        /* What this environment allows (lib/probe.h): the isolation tier is chosen from
         * it against the floor, and its substitutions are in the plan before it is
         * validated.  NULL: no tier (--check, --dry-run). */
        const struct sbx_probe *probe;
        enum sbx_decide_upto {
                SBX_DECIDE_VERDICT, /* --check: the command policy's verdict only */
                SBX_DECIDE_PLAN,    /* --dry-run: the validated plan */
                SBX_DECIDE_RUN,     /* everything, the filter compiled */
        } upto;
};

enum sbx_outcome {
        SBX_ALLOWED,
        SBX_DENIED, /* by a rule: the command policy, the site, the profile's limits, a path
                     * the policy does not grant */
        SBX_FAILED, /* sbx could not decide: a broken profile, a missing path, no memory */
};

/* Where the decision was made, for the programs to map it to their outputs. */
enum sbx_decided_at {
        SBX_AT_PROFILE,  /* loading or narrowing the profile */
        SBX_AT_CAPS,     /* sandboxd: a profile that keeps capabilities */
        SBX_AT_SITE,     /* sandboxd: the site policy's deny rules */
        SBX_AT_COMMANDS, /* the profile's command policy */
        SBX_AT_VALIDATOR, /* an external validator: blocked, or could not answer */
        SBX_AT_CEILING,  /* sandboxd: the site's ceilings */
        SBX_AT_TIER,     /* the environment's isolation tier is below the floor (failed) */
        SBX_AT_VALIDATE, /* the plan's paths */
        SBX_AT_SECCOMP,  /* compiling the filter */
        SBX_AT_END,      /* allowed: every step passed */
};

struct sbx_decision {
        struct sbx_profile pr; /* pr.plan: the plan, final once decided */
        enum sbx_outcome outcome;
        enum sbx_decided_at at;
        struct sbx_verdict verdict; /* the command policy's (or the site's deny rules') */
        struct sbx_validation validation; /* the validators' (verdict NONE when none ran):
                                           * a block or error, else the first warning */
        bool loaded;                /* the profile was found and read */
        bool tiered;                /* a tier was chosen (in->probe): @tier */
        struct sbx_tier_choice tier;
        char reason[512];           /* why, when not allowed: one line */
        struct sbx_error err;       /* the error behind it, where there is one */
        const struct sbx_seccomp *filter; /* SBX_DECIDE_RUN, allowed: the filter */
        struct sbx_seccomp compiled;
};

void sbx_decision_init(struct sbx_decision *d);
void sbx_decision_done(struct sbx_decision *d);

/* Decides @in into @d (initialized); returns d->outcome. */
enum sbx_outcome sbx_decide(const struct sbx_decide_in *in, struct sbx_decision *d);
