/* SPDX-License-Identifier: MIT */
/* Claude Code's CLAUDE_CODE_SHELL_PREFIX: Claude runs `PREFIX '<composite>'` for every
 * Bash call, where the composite is
 *   source SNAPSHOT && eval '<cmd>' < /dev/null && pwd -P >| CWDFILE
 * (or with `source SNAPSHOT 2>/dev/null || true && …` at its head).  sbx-hook
 * --shell-prefix (or sbx-hook run as sbx-shell-prefix) runs the composite jailed,
 * granting exactly: SNAPSHOT read-only, CWDFILE read-write, each one file at its own
 * path, and only when the composite has that shape and the files are the caller's.
 * It never runs anything itself: it execs sbx-run, or fails. */
#pragma once

#include <stddef.h>

#include "hook.h"

/* What a composite grants: empty strings where it grants nothing. */
struct prefix_grants {
        char snapshot[4096];
        char cwd_file[4096];
};

/* The grants @composite asks for, read from its head and tail only (the harness
 * writes those; the command between them is the model's and grants nothing).  Paths
 * are checked as text here: SNAPSHOT is SNAPDIR/snapshot-NAME.sh with SNAPDIR
 * @home/.claude/shell-snapshots or @config_dir/shell-snapshots; CWDFILE is
 * TMPDIR/claude-HEX-cwd with TMPDIR /tmp or @tmpdir.  @config_dir and @tmpdir may be
 * NULL.  Pure: the unit test and the fuzz target call it. */
void prefix_parse(const char *composite, const char *home, const char *config_dir, const char *tmpdir,
                  struct prefix_grants *g);

/* Runs @argc/@argv (the composite, as one or more words) through sbx-run with the
 * grants the files on the host allow.  Returns only on failure, with an exit status
 * (125) after saying why on stderr. */
int prefix_run(const struct hook_config *c, int argc, char **argv);
