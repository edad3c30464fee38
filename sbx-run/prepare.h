/* SPDX-License-Identifier: MIT */
/* From the command line to a resolved profile and the command policy's verdict. */
#pragma once

#include "../lib/error.h"
#include "../lib/seccomp.h"
#include "../policy/commands.h"
#include "../policy/profile.h"
#include "options.h"

/* Loads the profile the options name, narrows it by them, and checks the command
 * against its policy into @v.  0, or -errno with @e filled (stage "profile"). */
int sbx_prepare(const struct sbx_options *o, struct sbx_profile *pr, struct sbx_verdict *v, struct sbx_error *e);

