/* SPDX-License-Identifier: MIT */
/* cleanup.h for libseccomp's scmp_filter_ctx: apart, so that files without libseccomp
 * (the jail's child side, sbx-run's client, the daemon) never see its header. */
#pragma once

#include <seccomp.h>

#include "cleanup.h"

static inline void seccomp_releasep(scmp_filter_ctx *ctx)
{
        if (*ctx)
                seccomp_release(*ctx);
}
#define _cleanup_seccomp_ _cleanup_(seccomp_releasep)
