/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>

#include "../lib/error.h"
#include "../lib/plan.h"
#include "../lib/seccomp.h"
#include "options.h"
#include "profile.h"

/* Narrows the loaded profile @pr by what the caller asked (its mounts, env, hostname and
 * limits; its net only when given) and completes the plan: workspace, system view,
 * environment passed from the caller, execute allowlist.  Errors name the profile. */
int sbx_profile_resolve(struct sbx_profile *pr, const struct sbx_ask *ask, const struct sbx_vars *vars,
                        struct sbx_caller *caller, struct sbx_error *e);

/* The files an allowlist profile may execute (execset.c). */
int sbx_execset_build(struct sbx_profile *pr);


/* The resolved plan with the profile's policy, as --dry-run prints it. */
void sbx_profile_to_json(const struct sbx_profile *pr, FILE *f);

/* The seccomp filter for @pr: the build-time one (@ret points at it, @s stays empty)
 * when the profile changes nothing, else @s compiled with its additions. */
int sbx_profile_seccomp(const struct sbx_profile *pr, struct sbx_seccomp *s, const struct sbx_seccomp **ret,
                        struct sbx_error *e);
