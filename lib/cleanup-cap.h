/* SPDX-License-Identifier: MIT */
/* cleanup.h for libcap's cap_t: apart, so that files without libcap never see its header. */
#pragma once

#include <sys/capability.h>

#include "cleanup.h"

static inline void cap_freep(cap_t *c)
{
        if (*c)
                (void)cap_free(*c);
}
#define _cleanup_cap_ _cleanup_(cap_freep)
