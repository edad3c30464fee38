/* SPDX-License-Identifier: MIT */
/* sbx-run's command line: a pure function from argv to options and a plan. */
#pragma once

#include <stdbool.h>

#include "../lib/error.h"
#include "../lib/plan.h"

enum sbx_action {
        SBX_ACTION_RUN,
        SBX_ACTION_DRY_RUN,
        SBX_ACTION_HELP,
        SBX_ACTION_VERSION,
};

struct sbx_options {
        enum sbx_action action;
        bool json;
        /* The caller's words, narrowed onto the built-in plan. */
        struct sbx_plan plan;
};

/* Parses @argv onto the built-in `workspace` plan.  Returns 0 or -errno with @e filled
 * (stage "options").  @argv must outlive the options (plan.argv points into it). */
int sbx_options_parse(int argc, char **argv, struct sbx_options *o, struct sbx_error *e);
void sbx_options_done(struct sbx_options *o);

extern const char sbx_usage[];
