/* SPDX-License-Identifier: MIT */
/* filesystem.git: nothing a jail writes is ever read by the host's git as configuration,
 * hooks, drivers or commands (sbx-profile(5), "GIT DIRECTORIES"; doc/THREATS.md).
 *
 * protect (every profile): the workspace's git directory is read-only in the jail, and
 *   where there is none the jail may not make one; the .git entries of submodules (the
 *   index's gitlinks: the host's `git status` runs git inside each) and the hook
 *   directories git's configuration places in the working tree (core.hooksPath,
 *   core.fsmonitor) are read-only too.  The same holds at the top of every read-write
 *   bind.  gitguard.c.
 * commit (the git profile): as protect, but the jail can commit.  The top of each git
 *   directory is a private tmpfs holding copies of git's state files (HEAD, index,
 *   packed-refs...); objects/, refs/ and logs/ are the host's, read-write; everything
 *   else (config, hooks, info, modules, worktrees, commondir...) is the host's,
 *   read-only.  After the run the state files the command changed are checked
 *   (policy/gitfmt.h) and copied back, as the caller, only if the host's copy did not
 *   change meanwhile; anything else it left (a commondir, sequencer state with exec
 *   lines, a hooks directory) goes with the jail.  gitcommit.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/caller.h"
#include "../lib/error.h"
#include "../lib/jail.h"
#include "../lib/plan.h"

enum sbx_git_mode {
        SBX_GIT_PROTECT = 0,
        SBX_GIT_COMMIT = 1,
};

/* A file of a private git directory top, as the host had it when the jail started. */
struct sbx_git_file {
        char name[64];
        struct sbx_file_id id; /* id.exists false: the host had none */
        int fd;                /* the host's copy, opened as the caller (-1 when none); owned by the plan */
};

/* commit mode: one private top of a git directory. */
struct sbx_git_root {
        char *dir;                /* the host's directory (canonical) */
        size_t state;             /* its SBX_MOUNT_STATE's rank among the plan's */
        struct sbx_git_file *files;
        size_t n_files;
        char **host_entries;      /* the names at its top when the jail started */
        size_t n_host_entries;
        bool has_index;
        bool objects;             /* its objects/ is bound read-write: checked after the run */
        int64_t objects_since;    /* ... for what changed from this time on (its file system's clock) */
};

/* Everything filesystem.git does for one run, kept from before the jail to after it. */
struct sbx_git {
        enum sbx_git_mode mode;
        struct sbx_git_root roots[2]; /* plain repository: 1; linked worktree: its own, then the common one */
        size_t n_roots;
        struct sbx_git_held {         /* directories mounted over or made as mount points, */
                char *dir, *name;     /* held (lib/caller.h) until the run is over */
                int fd;
                bool made;
        } *held;
        size_t n_held;
        char **sweep;                 /* the host's refs/ and logs/ directories the jail could write */
        size_t n_sweep;
        char **gitlinks;              /* the index's gitlink paths when the jail started */
        size_t n_gitlinks;
        size_t hash_len;              /* 20 (SHA-1) or 32 (SHA-256) */
        char notes[512];              /* what was not carried back, one line per note */
        bool finished;                /* sbx_git_finish ran */
};

struct sbx_profile;

/* Before validation: adds the mounts (and makes the mount points) filesystem.git needs
 * for the plan's workspace and read-write binds, opening everything through @caller. */
int sbx_git_prepare(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_error *e);

/* Commit mode: the caller's user.name and user.email, from $XDG_CONFIG_HOME/git/config
 * (or ~/.config/git/config) and ~/.gitconfig of @vars's home, read as the caller, as
 * GIT_AUTHOR_NAME/EMAIL and GIT_COMMITTER_NAME/EMAIL where none is set yet.  Nothing
 * else of those files; a file that cannot be read or parsed adds nothing.  gitident.c. */
struct sbx_vars;
int sbx_git_identity(struct sbx_profile *pr, const struct sbx_vars *vars, struct sbx_caller *caller, struct sbx_error *e);

/* After the run (@res: its state_fds, NULL when no jail ran): commit mode's copy
 * back, the symlink sweep, and the mount points sbx made removed; res->notes gets what
 * it could not do, and the state fds are closed.  Once; later calls do nothing. */
void sbx_git_finish(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_result *res);

void sbx_git_done(struct sbx_git *g);
