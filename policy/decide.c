/* SPDX-License-Identifier: MIT */
#include "decide.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
        memcpy(p->groups, s->groups, p->n_groups * sizeof(gid_t));
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
        /* 2. sandboxd never gives a caller capabilities, whatever a profile keeps. */
        if (in->site && p->caps && in->site->uid != 0)
                return deny(d, SBX_AT_CAPS, "the profile keeps capabilities, which sandboxd never gives a caller");
        /* 3. The command. */
        if ((o = check_command(in, d)) != SBX_ALLOWED || in->upto == SBX_DECIDE_VERDICT)
                return o == SBX_ALLOWED ? decided(d, SBX_AT_END, SBX_ALLOWED) : o;
        /* 4. The site's terms, before validation: a validated plan is final. */
        if (in->site && (o = site_terms(in, d)) != SBX_ALLOWED)
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
