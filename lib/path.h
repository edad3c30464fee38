/* SPDX-License-Identifier: MIT */
/* Paths a caller names (a workspace, a bind source, a file in a git directory): opened
 * component by component, following a symlink only where no jail can have planted one.
 *
 * A jail writes where it is given write access, and a symlink it leaves there outlives
 * it: `cache -> ~/.ssh` planted by one run would turn a later `--rw $WS/cache` into a
 * bind of ~/.ssh.  So a symlink is followed only in the system's own directories (/,
 * /usr, /etc, /bin, /sbin, /lib*, /boot), when it and its directory belong to root and
 * nobody else may write that directory: no jail can write there (validation refuses
 * those trees as a workspace or a read-write bind).  Every other symlink on the way is
 * an error that names its target, so the caller can name the target itself.  /proc's
 * magic links (/proc/self/cwd, /dev/fd/N) are symlinks outside the system directories,
 * so they are never followed either. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The trees that belong to the installed system: never a workspace, a read-write bind
 * or a home for a planted symlink. */
extern const char *const sbx_system_trees[];
extern const size_t sbx_n_system_trees;

/* @path is @root or lies below it (both canonical). */
bool sbx_path_is_under(const char *path, const char *root);

/* Opens @path (absolute, or relative to the working directory) as described above.
 * @flags: O_PATH, or O_RDONLY (to read a file or list a directory), optionally with
 * O_DIRECTORY, and O_NOFOLLOW to open a final symlink itself rather than follow it.
 * 0 with *@ret_fd (O_CLOEXEC) and, when @canon is not NULL, the kernel's canonical path
 * of what was opened; -errno with @e filled (stage "validate"). */
int sbx_path_open(const char *path, int flags, int *ret_fd, char *canon, size_t size, struct sbx_error *e);

/* The canonical path of what @fd refers to, as the kernel has it. */
int sbx_fd_path(int fd, char *buf, size_t size, const char *shown, struct sbx_error *e);
