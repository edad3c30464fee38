/* SPDX-License-Identifier: MIT */
/* The dry run's view of this host (plan.h, struct sbx_plan_forecast): asked of the
 * stages that know, each without making anything.  A module of its own so that the
 * plan stays below the stages that read it. */
#include "plan.h"

#include "cgroup.h"
#include "landlock.h"
#include "mount.h"

void sbx_plan_forecast(const struct sbx_plan *p, struct sbx_plan_forecast *fc)
{
        struct sbx_cgroup_forecast cg;
        size_t n = 0;

        *fc = (struct sbx_plan_forecast){ 0 };
        sbx_cgroup_forecast(p, &cg);
        fc->cgroup_version = cg.version;
        fc->memory = cg.memory;
        fc->pids = cg.pids;
        fc->landlock_abi = sbx_landlock_abi();
        for (const char *dev; n < SBX_FORECAST_MAX_DEV && (dev = sbx_mount_dev_node(n)); n++)
                fc->dev_nodes[n] = dev;
}
