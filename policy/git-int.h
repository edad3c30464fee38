/* SPDX-License-Identifier: MIT */
/* Private to gitguard.c and gitcommit.c, the two halves of filesystem.git (git.h):
 * gitguard.c protects, gitcommit.c is its commit mode; each calls the other only
 * through what is declared here. */
#pragma once

#include "git.h"

/* Adds a read-only bind of the host path @src at @dest; @src is opened and checked by
 * validation later, like every bind. */
int sbx_git_bind(struct sbx_plan *p, enum sbx_mount_kind kind, const char *src, const char *dest, struct sbx_error *e);
/* The directory @dir/@name held for the run, made when missing (lib/caller.h). */
int sbx_git_hold(struct sbx_git *g, struct sbx_caller *caller, const char *dir, const char *name, struct sbx_error *e);
/* Reads the whole small file @path as the caller into a new buffer (NUL-terminated);
 * -ENOENT when there is none.  At most @max bytes. */
int sbx_git_read(struct sbx_caller *caller, const char *path, size_t max, char **ret, size_t *ret_len, struct sbx_error *e);
void sbx_git_note(struct sbx_git *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* gitcommit.c: the private tops of a plain repository (@gitdir is both) or of a linked
 * worktree (@gitdir: its worktrees/NAME; @common: the repository). */
int sbx_git_commit_prepare(struct sbx_profile *pr, struct sbx_caller *caller, const char *gitdir, const char *common,
                           struct sbx_error *e);
void sbx_git_commit_finish(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_result *res);
