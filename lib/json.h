/* SPDX-License-Identifier: MIT */
/* Just enough JSON output for the plan and the exit summary. */
#pragma once

#include <stdio.h>

void sbx_json_string(FILE *f, const char *s); /* "..." with escapes, or null */
