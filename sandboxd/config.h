/* SPDX-License-Identifier: MIT */
/* What a (re)load reads: the site policy and every profile, swapped in whole or not
 * at all. */
#pragma once

#include <stddef.h>

#include "../lib/probe.h"
#include "../policy/profile.h"
#include "../policy/site.h"

struct sbx_config {
        struct sbx_site_policy policy;
        struct sbx_profile_store profiles;
        /* What this environment allows (lib/probe.h), probed with each load (at start
         * and on every reload), not on each launch: the launcher picks the tier from it. */
        struct sbx_probe probe;
};

/* Reads the site policy and every profile.  0 with *ret set, or -errno with @why. */
int config_load(const char *policy_path, struct sbx_config **ret, char *why, size_t size);
void config_free(struct sbx_config *c);
