/* SPDX-License-Identifier: MIT */
/* What sbx does to the caller's files, each with exactly the caller's rights: open a
 * path it named (lib/path.h's rules, then an access check), make and remove a mount
 * point, replace a file it owns with content sbx has checked.  In direct mode sbx-run is
 * the caller and does them itself (sbx_caller_self); sandboxd hands them to a helper
 * process that has become the caller, uid, gid and groups, with no capability
 * (sandboxd/asuser.c), so that no path is ever reached with the daemon's powers. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "error.h"

enum sbx_access {
        SBX_ACCESS_NONE,  /* just reach it */
        SBX_ACCESS_READ,  /* read it (list and enter, for a directory) */
        SBX_ACCESS_WRITE, /* read and write it */
};

/* Enough of a file's identity to tell that nobody changed it in between. */
struct sbx_file_id {
        bool exists;
        dev_t dev;
        ino_t ino;
        off_t size;
        int64_t mtime_ns, ctime_ns;
};

struct sbx_caller {
        /* sbx_path_open(@path, @flags), then the caller must have @access to it.  The
         * fd is the caller's open, usable by whoever holds it. */
        int (*open)(struct sbx_caller *c, const char *path, int flags, enum sbx_access access, int *ret_fd,
                    struct sbx_error *e);
        /* A directory @name in the directory @dir (a canonical path) with @mode: 1 when
         * made, 0 when one is there already. */
        int (*mkdir)(struct sbx_caller *c, const char *dir, const char *name, mode_t mode, struct sbx_error *e);
        /* A mount point sbx needs at @dir/@name for the run (filesystem.git's): the
         * directory there, made (mode 0755, marked as sbx's) when missing, held with a
         * shared lock on *@ret_fd until release, so that no other run removes it while
         * this one has it mounted.  1 when made. */
        int (*hold)(struct sbx_caller *c, const char *dir, const char *name, int *ret_fd, struct sbx_error *e);
        /* After the run: removes @dir/@name (held as @fd) when it is sbx's, empty, and
         * no other run holds it; else leaves it.  @made: this run made it (where the
         * file system keeps no mark).  Does not close @fd. */
        int (*release)(struct sbx_caller *c, const char *dir, const char *name, int fd, bool made, struct sbx_error *e);
        /* Replaces the regular file @dir/@name with the content of @src (read from
         * offset 0; -1: remove the file), atomically, keeping the old file's mode, but
         * only if it is still exactly @expect (expect->exists false: there must be no
         * file).  0; -ESTALE when it changed meanwhile (nothing is done). */
        int (*replace)(struct sbx_caller *c, const char *dir, const char *name, int src, const struct sbx_file_id *expect,
                       struct sbx_error *e);
        /* Everything below the directory @dir that is neither a regular file nor a
         * directory (symlinks, FIFOs, sockets, devices), not following any: their
         * number, the first one's path in @found; each removed when @remove.  An
         * error when some of the tree could not be walked. */
        int (*strays)(struct sbx_caller *c, const char *dir, bool remove, char *found, size_t size, struct sbx_error *e);
        /* The canonical spelling of @path with every symlink followed (realpath(3)), as
         * the caller sees it: a name to compare with, never one to open. */
        int (*realpath)(struct sbx_caller *c, const char *path, char *buf, size_t size, struct sbx_error *e);
        /* The git object store @dir after a jail could write it (lib/gitobjects.h): what
         * changed at or after @since_ns checked, and removed when it is not what git
         * would have written.  How many entries were removed, the first in @found. */
        int (*objects)(struct sbx_caller *c, const char *dir, int64_t since_ns, size_t hash_len, char *found, size_t size,
                       struct sbx_error *e);
        void *data;
};

/* The operations done in this process, as whoever it runs as. */
extern struct sbx_caller sbx_caller_self;

void sbx_file_id_of(const struct stat *st, struct sbx_file_id *id);
