/* SPDX-License-Identifier: MIT */
/* The configuration in force: the site policy and every profile, read together and
 * swapped in whole.  A reload parses off to the side; only a complete, valid new
 * configuration replaces the old one.  Launches fork with the one in force, so a
 * file being edited is never half-read by a sandbox. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

void config_free(struct sbx_config *c)
{
        if (!c)
                return;
        sbx_site_done(&c->policy);
        sbx_profile_store_done(&c->profiles);
        free(c);
}

int config_load(const char *policy_path, struct sbx_config **ret, char *why, size_t size)
{
        struct sbx_config *c = calloc(1, sizeof(*c));
        struct sbx_diag d = { 0 };
        int r;

        *ret = NULL;
        if (!c)
                return snprintf(why, size, "out of memory"), -ENOMEM;
        sbx_site_init(&c->policy);
        r = sbx_site_load(policy_path, &c->policy, &d);
        bool missing = r == -ENOENT;
        /* No policy file: the empty policy, which admits nobody (fail closed). */
        if (r < 0 && r != -ENOENT) {
                sbx_diag_format(&d, why, size);
                config_free(c);
                return r;
        }
        if ((r = sbx_profile_store_read(&c->profiles, &d)) < 0) {
                sbx_diag_format(&d, why, size);
                config_free(c);
                return r;
        }
        sbx_probe_run(&c->probe);
        if (c->policy.n_rules == 0)
                snprintf(why, size, "no site policy admits anyone (%s %s): every request is denied", policy_path,
                         missing ? "is missing" : "has no allow rules");
        else if (c->probe.r[SBX_PROBE_CGROUP].err && c->policy.without_cgroup == SBX_WITHOUT_CGROUP_REFUSE)
                snprintf(why, size,
                         "no cgroup for the memory and pids limits can be made here (P9 %s: %s): every run will be "
                         "refused; give sandboxd writable cgroups, or set 'limits: {without_cgroup: rlimit}' in %s",
                         c->probe.r[SBX_PROBE_CGROUP].step, strerror(c->probe.r[SBX_PROBE_CGROUP].err), policy_path);
        else
                why[0] = '\0';
        *ret = c;
        return 0;
}
