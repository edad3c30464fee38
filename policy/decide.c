/* SPDX-License-Identifier: MIT */
#include "decide.h"

#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/validate.h"
#include "resolve.h"

void sbx_decision_init(struct sbx_decision *d)
{
        *d = (struct sbx_decision){ .outcome = SBX_FAILED, .at = SBX_AT_PROFILE };
        sbx_profile_init(&d->pr);
}

void sbx_decision_done(struct sbx_decision *d)
{
        sbx_seccomp_done(&d->compiled);
        sbx_profile_done(&d->pr);
}

static enum sbx_outcome decided(struct sbx_decision *d, enum sbx_decided_at at, enum sbx_outcome outcome)
{
        d->at = at;
        d->outcome = outcome;
        return outcome;
}

/* Refused by a rule: @reason says which. */
static enum sbx_outcome deny(struct sbx_decision *d, enum sbx_decided_at at, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static enum sbx_outcome deny(struct sbx_decision *d, enum sbx_decided_at at, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(d->reason, sizeof(d->reason), fmt, ap);
        va_end(ap);
        return decided(d, at, SBX_DENIED);
}

/* Stopped by d->err: a refusal where @denied (a rule said no), else a failure. */
static enum sbx_outcome stop(struct sbx_decision *d, enum sbx_decided_at at, bool denied)
{
        sbx_error_format(&d->err, d->reason, sizeof(d->reason));
        return decided(d, at, denied ? SBX_DENIED : SBX_FAILED);
}

/* The profile, from sandboxd's snapshot or from disk; a broken one says file:line:col. */
static int load(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        const char *name = in->profile ? in->profile : "workspace";
        struct sbx_diag diag = { 0 };
        int r;

        r = in->store ? sbx_profile_load_stored(in->store, name, in->vars, &d->pr, &diag)
                      : sbx_profile_load(name, in->vars, &d->pr, &diag);
        if (r < 0) {
                sbx_diag_format(&diag, d->reason, sizeof(d->reason));
                sbx_error_set(&d->err, SBX_STAGE_PROFILE, EINVAL, "", "", "%s", d->reason);
                /* No position: the profile was not found, not wrong. */
                if (diag.line == 0)
                        sbx_error_hint(&d->err, "sbx-run --list-profiles shows what is installed");
                else
                        sbx_error_hint(&d->err, "fix the profile (see sbx-profile(5)); sbx-run --list-profiles shows what is installed");
                return r;
        }
        d->loaded = true;
        return 0;
}

/* The site's ceiling on a limit: a request above it is refused; a profile's default
 * above it (or none at all) is lowered to it. */
static bool ceiling(uint64_t *v, uint64_t asked, uint64_t max, const char *what, char *why, size_t size)
{
        if (!max)
                return true;
        if (asked > max) {
                snprintf(why, size, "%s %llu exceeds the site policy's maximum of %llu", what, (unsigned long long)asked,
                         (unsigned long long)max);
                return false;
        }
        if (*v == 0 || *v > max)
                *v = max;
        return true;
}

static bool ceilings(struct sbx_plan *p, const struct sbx_plan *asked, const struct sbx_site_grant *g, char *why,
                     size_t size)
{
        return ceiling(&p->limits.timeout_ms, asked->limits.timeout_ms, g->max_time_ms, "timeout (ms)", why, size) &&
               ceiling(&p->limits.memory, asked->limits.memory, g->max_memory, "memory (bytes)", why, size) &&
               ceiling(&p->limits.pids, asked->limits.pids, g->max_pids, "pids", why, size);
}

/* sandboxd's terms: the command runs as the caller, never with capabilities, under the
 * site's ceilings, and its own sockets are hidden under every bind. */
static enum sbx_outcome site_terms(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        const struct sbx_site_terms *s = in->site;
        struct sbx_plan *p = &d->pr.plan;

        /* sandboxd always applies the limits, the profile's own as well as the site's
         * ceilings and the caller's: a cgroup on v1 as on v2, never weakened, never
         * optional (where none can be made, the sandbox fails). */
        if (!ceilings(p, &in->ask->plan, s->grant, d->reason, sizeof(d->reason)))
                return decided(d, SBX_AT_CEILING, SBX_DENIED);
        p->limits.memory_explicit = p->limits.memory != 0;
        p->limits.pids_explicit = p->limits.pids != 0;
        p->run_as = true;
        p->userns = false;
        p->uid = s->uid;
        p->gid = s->gid;
        p->n_groups = s->n_groups < SBX_MAX_GROUPS ? s->n_groups : SBX_MAX_GROUPS;
        if (p->n_groups)
                memcpy(p->groups, s->groups, p->n_groups * sizeof(gid_t));
        for (size_t i = 0; s->net && i < s->net->n; i++)
                if (sbx_netrules_add(&p->net_site, s->net->v[i].text, s->net->v[i].kind, &d->err) < 0)
                        return stop(d, SBX_AT_CEILING, false);
        for (size_t i = 0; i < s->n_hide; i++)
                if (sbx_strv_push(&p->hide, s->hide[i]) < 0) {
                        sbx_error_set(&d->err, SBX_STAGE_PLAN, ENOMEM, "", "", "out of memory");
                        return stop(d, SBX_AT_CEILING, false);
                }
        return SBX_ALLOWED;
}

/* The rules on the command line: the site's deny rules no profile can lift, then the
 * profile's own policy.  Out of memory, the site's rules deny and the profile's check
 * fails (as direct mode always did): either way nothing runs. */
static enum sbx_outcome check_command(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        const char *name = in->profile ? in->profile : "workspace";
        char *const *argv = d->pr.plan.argv;

        if (in->site && (sbx_cmd_check(in->site->deny, argv, &d->verdict) < 0 || !d->verdict.allow))
                return deny(d, SBX_AT_SITE, "site policy deny rule: %.400s", d->verdict.reason);
        if (sbx_cmd_check(&d->pr.commands, argv, &d->verdict) < 0) {
                sbx_error_set(&d->err, SBX_STAGE_POLICY, ENOMEM, "", "", "out of memory");
                return stop(d, SBX_AT_COMMANDS, false);
        }
        if (!d->verdict.allow)
                return deny(d, SBX_AT_COMMANDS, "command policy of profile '%s': %.400s", name, d->verdict.reason);
        return SBX_ALLOWED;
}

/* Whom a validator runs as.  Under sandboxd: the site's validator user, for the
 * site's validator and the profile's alike -- never the caller, who could otherwise
 * trace it and write its answer.  Direct mode: the caller, the one whose command it
 * judges and whose rights bound it anyway; but never root: sbx-run as root runs it as
 * nobody. */
static int validator_as(const struct sbx_decide_in *in, struct sbx_validator_as *as, char *why, size_t size)
{
        *as = (struct sbx_validator_as){ .drop = false };
        if (in->site) {
                if (in->site->validator_uid == (uid_t)-1) {
                        snprintf(why, size, "the profile names a validator, but the site policy names no validator.user to run it as");
                        return -EPERM;
                }
                if (in->site->validator_uid == in->site->uid) {
                        snprintf(why, size, "the site's validator.user (uid %u) is the caller: a validator never runs as the caller it judges",
                                 (unsigned)in->site->uid);
                        return -EPERM;
                }
                *as = (struct sbx_validator_as){ .drop = true, .uid = in->site->validator_uid,
                                                 .gid = in->site->validator_gid, .pidns = geteuid() == 0 };
                return 0;
        }
        if (geteuid() == 0) {
                struct passwd *pw = getpwnam("nobody");

                *as = (struct sbx_validator_as){ .drop = true, .uid = pw ? pw->pw_uid : 65534,
                                                 .gid = pw ? pw->pw_gid : 65534, .pidns = true };
        }
        return 0;
}

/* Asks one validator; false when the command is refused (d decided). */
static bool ask_validator(const struct sbx_decide_in *in, struct sbx_decision *d, const struct sbx_validator_conf *conf,
                          const char *which, enum sbx_outcome *o)
{
        struct sbx_validator_as as;
        struct sbx_validation v;
        char why[256];
        int r;

        if (validator_as(in, &as, why, sizeof(why)) < 0) {
                d->validation = (struct sbx_validation){ .verdict = SBX_VV_ERROR, .confidence = -1 };
                snprintf(d->validation.validator, sizeof(d->validation.validator), "%s", conf->command.v[0]);
                snprintf(d->validation.reason, sizeof(d->validation.reason), "%s", why);
                *o = deny(d, SBX_AT_VALIDATOR, "%s validator '%s' could not run: %s", which, conf->command.v[0], why);
                return false;
        }
        r = sbx_validator_run(conf,
                              &(struct sbx_validator_ask){ .which = which,
                                                           .argv = d->pr.plan.argv,
                                                           .cwd = in->vars->workspace,
                                                           .profile = in->profile ? in->profile : "workspace",
                                                           .mode = in->site ? "daemon" : "direct",
                                                           .uid = in->site ? in->site->uid : getuid(),
                                                           .gid = in->site ? in->site->gid : getgid(),
                                                           .tool_use_id = in->tool_use_id,
                                                           .session_id = in->session_id },
                              &as, &v, &d->err);
        if (r < 0) {
                *o = stop(d, SBX_AT_VALIDATOR, false);
                return false;
        }
        if (v.verdict == SBX_VV_BLOCK || v.verdict == SBX_VV_ERROR) {
                d->validation = v;
                if (v.verdict == SBX_VV_BLOCK)
                        *o = deny(d, SBX_AT_VALIDATOR, "blocked by the %s validator '%s': %s", which, v.validator, v.reason);
                else
                        *o = deny(d, SBX_AT_VALIDATOR, "the %s validator '%s' gave no verdict, so the command is refused (fail closed): %s",
                                  which, v.validator, v.reason);
                return false;
        }
        /* The first warning is the record's; a second one's reason is added to it. */
        if (v.verdict == SBX_VV_WARN && d->validation.verdict == SBX_VV_WARN) {
                size_t n = strlen(d->validation.reason);

                snprintf(d->validation.reason + n, sizeof(d->validation.reason) - n, "; %s: %s", v.validator, v.reason);
        } else if (v.verdict == SBX_VV_WARN || d->validation.verdict == SBX_VV_NONE) {
                d->validation = v;
        }
        return true;
}

/* The external validators: the site's (sandboxd), then the profile's.  A block, or a
 * validator that could not answer, refuses the command; a warning lets it run. */
static enum sbx_outcome check_validators(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        enum sbx_outcome o = SBX_ALLOWED;

        if (in->site && in->site->validator && in->site->validator->command.n &&
            !ask_validator(in, d, in->site->validator, "site", &o))
                return o;
        if (d->pr.validator.command.n && !ask_validator(in, d, &d->pr.validator, "profile", &o))
                return o;
        return SBX_ALLOWED;
}

/* 4b. The isolation tier this environment gives the plan (lib/tier.h), against the
 * floor: the stronger of the site's min_tier and the profile's.  Below it, sbx cannot
 * build the jail asked for: failed, with the remedy.  Else the plan takes the tier's
 * substitutions, before it is validated. */
static enum sbx_outcome choose_tier(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        struct sbx_plan *p = &d->pr.plan;
        struct sbx_tier_floor floor;

        if (!p->run_as) { /* (validation sets the same; the choice names root's identity) */
                p->uid = getuid();
                p->gid = getgid();
        }
        sbx_tier_floor(&floor, d->pr.min_tier, in->site ? in->site->min_tier : SBX_TIER_REFUSE,
                       in->site ? in->site->min_tier_where : NULL);
        sbx_tier_choose(in->probe, p, &d->tier);
        sbx_tier_fallback(in->probe, p, floor.tier, &d->tier);
        d->tiered = true;
        if (sbx_tier_check(in->probe, &d->tier, &floor, &d->err) < 0)
                return stop(d, SBX_AT_TIER, false);
        /* sandboxd's limits always hold: in a cgroup, or as rlimits where the site says. */
        if (in->site && sbx_tier_limits(in->probe, p, in->site->rlimit_without_cgroup, &d->tier, &d->err) < 0)
                return stop(d, SBX_AT_TIER, false);
        sbx_tier_apply(p, &d->tier);
        return SBX_ALLOWED;
}

enum sbx_outcome sbx_decide(const struct sbx_decide_in *in, struct sbx_decision *d)
{
        struct sbx_plan *p = &d->pr.plan;
        enum sbx_outcome o;
        int r;

        /* 1. The profile, narrowed by what the caller asked. */
        if (load(in, d) < 0)
                return decided(d, SBX_AT_PROFILE, SBX_FAILED);
        if ((r = sbx_profile_resolve(&d->pr, in->ask, in->vars, in->caller, &d->err)) < 0)
                return stop(d, SBX_AT_PROFILE, r == -EPERM);
        p->argv = in->ask->plan.argv;
        snprintf(p->audit_id, sizeof(p->audit_id), "%s", in->audit_id ? in->audit_id : "");
        /* 2. sandboxd never gives a caller capabilities, whatever a profile keeps. */
        if (in->site && p->caps && in->site->uid != 0)
                return deny(d, SBX_AT_CAPS, "the profile keeps capabilities, which sandboxd never gives a caller");
        /* 3. The command: the rules, then the validators (--check asks them too: a
         * harness's pre-call hook shows their verdict). */
        if ((o = check_command(in, d)) != SBX_ALLOWED || (o = check_validators(in, d)) != SBX_ALLOWED)
                return o;
        if (in->upto == SBX_DECIDE_VERDICT)
                return decided(d, SBX_AT_END, SBX_ALLOWED);
        /* 4. The site's terms, before validation: a validated plan is final. */
        if (in->site && (o = site_terms(in, d)) != SBX_ALLOWED)
                return o;
        if (in->probe && (o = choose_tier(in, d)) != SBX_ALLOWED)
                return o;
        /* 5. Every path, as the caller (a path outside what the policy grants is a
         * refusal; one that does not resolve, a failure). */
        if ((r = sbx_validate(p, in->caller, &d->err)) < 0)
                return stop(d, SBX_AT_VALIDATE, r == -EPERM || r == -EACCES);
        if (in->upto == SBX_DECIDE_PLAN)
                return decided(d, SBX_AT_END, SBX_ALLOWED);
        /* 6. The filter. */
        if (sbx_profile_seccomp(&d->pr, &d->compiled, &d->filter, &d->err) < 0)
                return stop(d, SBX_AT_SECCOMP, false);
        return decided(d, SBX_AT_END, SBX_ALLOWED);
}
