/* SPDX-License-Identifier: MIT */
#include "prepare.h"

#include <errno.h>
#include <string.h>

#include "../lib/seccomp.h"
#include "../policy/resolve.h"

/* A profile's file:line:col diagnosis as the one error line. */
static int diag_error(const struct sbx_diag *d, struct sbx_error *e)
{
        char buf[sizeof(e->msg)];

        sbx_diag_format(d, buf, sizeof(buf));
        sbx_error_set(e, SBX_STAGE_PROFILE, EINVAL, "", "", "%s", buf);
        sbx_error_hint(e, "fix the profile (see sbx-profile(5)); sbx-run --list-profiles shows what is installed");
        return -EINVAL;
}

int sbx_prepare(const struct sbx_options *o, struct sbx_profile *pr, struct sbx_verdict *v, struct sbx_error *e)
{
        struct sbx_vars vars;
        struct sbx_diag d = { 0 };
        int r;

        *v = (struct sbx_verdict){ .allow = false };
        if (sbx_vars_init(&vars, o->plan.workspace, &d) < 0) {
                sbx_error_set(e, SBX_STAGE_VALIDATE, ENOENT, "", o->plan.workspace ? o->plan.workspace : "", "%s", d.msg);
                sbx_error_hint(e, "--workspace must name an existing directory");
                return -ENOENT;
        }
        if (sbx_profile_load(o->profile ? o->profile : "workspace", &vars, pr, &d) < 0)
                return diag_error(&d, e);
        if ((r = sbx_profile_resolve(pr, &o->plan, o->net_set, &vars, &sbx_caller_self, e)) < 0)
                return r;
        pr->plan.argv = o->plan.argv;
        if (sbx_cmd_check(&pr->commands, o->plan.argv, v) < 0)
                return sbx_error_set(e, SBX_STAGE_POLICY, ENOMEM, "", "", "out of memory");
        return 0;
}
