/* SPDX-License-Identifier: MIT */
/* sbx-run's command line: a pure function from argv to options and a plan. */
#pragma once

#include <stdbool.h>

#include <stdio.h>

#include "../lib/error.h"
#include "../lib/tier.h"
#include "../policy/options.h"

enum sbx_action {
        SBX_ACTION_RUN,
        SBX_ACTION_DRY_RUN,
        SBX_ACTION_CHECK,
        SBX_ACTION_LIST_PROFILES,
        SBX_ACTION_HELP,
        SBX_ACTION_VERSION,
        SBX_ACTION_DOCTOR, /* what this environment allows, the tier, the remedies */
};

struct sbx_options {
        enum sbx_action action;
        bool json;
        const char *profile; /* --profile NAME|PATH (points into argv); NULL: workspace */
        /* The caller's words (policy/options.h's table), to narrow the profile with;
         * ask.plan.argv is the command. */
        struct sbx_ask ask;
        /* Where the jail is made: --daemon (sandboxd), --direct (here), or neither
         * (sandboxd when not root and its socket exists; see sbx_options_use_daemon). */
        bool daemon, direct;
        const char *socket; /* --socket PATH; NULL: the default */
        /* The isolation tier this run got (lib/tier.h), for --json; NULL until chosen. */
        const struct sbx_tier_choice *tier;
        /* --audit-file PATH, --audit-fd N: direct mode's records as JSON lines too
         * (lib/auditfile.h); NULL and -1: none. */
        const char *audit_file;
        int audit_fd;
        /* --workspace-contains-cwd: refuse unless the current directory lies inside
         * the workspace (sbx-hook's rewrites, where the harness picks the cwd). */
        bool workspace_contains_cwd;
};

#define SBX_DAEMON_SOCKET "/run/sandboxd/sandboxd.sock"

/* The rule for running through sandboxd: asked for with --daemon; refused with
 * --direct; otherwise when not root and sandboxd's socket exists.  --check and
 * --dry-run always resolve here. */
bool sbx_options_use_daemon(const struct sbx_options *o);

/* Parses @argv.  Returns 0 or -errno with @e filled (stage "options").  @argv must
 * outlive the options (plan.argv and profile point into it). */
int sbx_options_parse(int argc, char **argv, struct sbx_options *o, struct sbx_error *e);
void sbx_options_done(struct sbx_options *o);

/* --help: sbx-run's own flags and every row of the option table. */
void sbx_usage_print(FILE *f);
