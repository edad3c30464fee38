/* SPDX-License-Identifier: MIT */
/* sbx-run --doctor: what this host or container allows, the isolation tier the
 * profile would get here, and the remedies (lib/probe.h, lib/tier.h). */
#pragma once

#include <stdio.h>

#include "../lib/error.h"
#include "options.h"

/* Prints the report on @f (JSON with --json).  Returns 0 when the profile would run
 * here, 125 when it would be refused (the report says why), or 125 with @e filled
 * when the profile cannot be loaded. */
int sbx_doctor(const struct sbx_options *o, FILE *f, struct sbx_error *e);
