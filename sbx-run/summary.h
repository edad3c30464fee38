/* SPDX-License-Identifier: MIT */
/* The --json exit summary: one object, one line. */
#pragma once

#include <stdio.h>

#include "../lib/error.h"
#include "../lib/jail.h"
#include "../lib/tier.h"

/* @asked: what the caller asked for (its tool_use_id and session_id tags), or NULL;
 * @tier: the isolation tier of a direct run and its substitutions, or NULL (none
 * chosen yet, or through sandboxd): "tier":null. */
void sbx_summary_print(FILE *f, const struct sbx_result *res, const struct sbx_error *e, const struct sbx_plan *asked,
                       const struct sbx_tier_choice *tier);

/* One line on @f when the jail, not the command, ended the run: the timeout (124) or
 * the memory limit (137), or a SIGBUS (135), most often a full /dev/shm, so that a
 * bare exit status is never the only word.  @plan: the plan run, or NULL when not
 * known here (through sandboxd). */
void sbx_summary_note(FILE *f, const struct sbx_result *res, const struct sbx_plan *plan);
