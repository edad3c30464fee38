/* SPDX-License-Identifier: MIT */
/* The command policy: the second layer, checked on the command line before the jail
 * starts (the kernel stays the wall; see landlock's execute allowlist for the part the
 * kernel enforces).  The profile loader fills struct sbx_cmd_policy; sbx_cmd_check()
 * gives a verdict for one argv, walking into `sh -c` strings with the tokenizer of
 * shell.h. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "../lib/strv.h"

enum sbx_cmd_mode {
        SBX_CMD_OFF,       /* no command policy (the default) */
        SBX_CMD_ALLOWLIST, /* only commands named in `allow` may run */
        SBX_CMD_DENYLIST,  /* everything but commands named in `deny` */
};


struct sbx_cmd_policy {
        enum sbx_cmd_mode mode;
        struct sbx_strv allow;         /* command names ("ls", "git"); allowlist mode */
        struct sbx_strv deny;          /* command names denied in every mode */
        struct sbx_strv deny_patterns; /* POSIX EREs, matched case-insensitively against
                                        * each simple command's text and the whole line */
        struct sbx_strv rm_protected;  /* absolute paths rm may not remove, nor anything
                                        * above them; "~" already expanded by the loader */
        struct sbx_strv chmod_modes;   /* mode forms chmod may use ("+x", "644"); empty: any */
        struct sbx_strv kill_targets;  /* fnmatch patterns every kill/pkill target must match;
                                        * empty: any target except -1 */
        struct sbx_strv git_deny;      /* "push --force", "config --global": subcommand then
                                        * flags that together are denied */
        bool allow_pipe_to_shell;      /* false: curl/wget piped into a shell is denied */
        const char *home;              /* the jail's $HOME, for ~ (not owned) */
        const char *cwd;               /* where the command starts, for relative paths (not owned) */
};

struct sbx_verdict {
        bool allow;
        char reason[512]; /* names the segment and the rule, e.g.
                           * "segment 'rm -rf /': rm: '/' is protected (rm.protected)" */
};

/* 0 with @v filled, or -ENOMEM.  An argv that cannot be understood (an unparseable
 * shell string, a command name computed at run time) is a deny, never an allow. */
int sbx_cmd_check(const struct sbx_cmd_policy *p, char *const *argv, struct sbx_verdict *v);

void sbx_cmd_policy_done(struct sbx_cmd_policy *p);
