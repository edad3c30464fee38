/* SPDX-License-Identifier: MIT */
/* What a (re)load reads: the site policy and every profile, swapped in whole or not
 * at all. */
#pragma once

#include <stddef.h>

#include "../policy/profile.h"
#include "../policy/site.h"

struct sbx_config {
        struct sbx_site_policy policy;
        struct sbx_profile_store profiles;
};

/* Reads the site policy and every profile.  0 with *ret set, or -errno with @why. */
int config_load(const char *policy_path, struct sbx_config **ret, char *why, size_t size);
void config_free(struct sbx_config *c);
