/* SPDX-License-Identifier: MIT */
/* The --json exit summary: one object, one line. */
#pragma once

#include <stdio.h>

#include "../lib/error.h"
#include "../lib/jail.h"

void sbx_summary_print(FILE *f, const struct sbx_result *res, const struct sbx_error *e);
