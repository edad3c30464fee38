/* SPDX-License-Identifier: MIT */
/* What agent harnesses and their tools read from a project's top as their own
 * configuration, and so run on the host: hooks, MCP servers, plugins, shell prefixes,
 * lint and test commands.  A jail that could write one would un-jail every later call
 * of the harness working on that project (at its next start, or at once where it
 * reloads).  filesystem's guard (gitguard.c) keeps each one read-only at the top of
 * every writable place and of every repository inside one, as it keeps .git: what
 * exists is bound read-only, what does not is held as an empty read-only mount point
 * for the run. */
#pragma once

#include <stddef.h>

/* Names relative to a project's top, NULL-terminated. */
extern const char *const sbx_host_config_entries[];
