/* SPDX-License-Identifier: MIT */
/* A git object store (a repository's objects/) after a jail could write it.
 *
 * git addresses objects by name and does not hash what it reads: a jail that rewrites
 * the file of an existing object (a committed Makefile's blob) changes what the host's
 * `git checkout`, `reset` and `stash` write, and what `diff` compares with, while `log`
 * and `diff HEAD` show nothing.  And git trusts the derived files beside the objects
 * (commit-graph: which tree a commit has; multi-pack-index, bitmaps, reverse indexes) and
 * follows objects/info/alternates to more objects wherever it points.
 *
 * So after the run, everything in the store that changed since it started (its ctime is
 * later than a mark taken on the same file system; a directory that changed has all its
 * entries looked at, since renaming a directory moves names without touching them) is
 * checked: a loose object must inflate to "<type> <size>\0<body>" whose hash is its
 * name; a pack must be one `git index-pack --verify` accepts with its index (git's own
 * check that every object in it hashes to the name the index gives); anything else that
 * changed -- derived files, alternates, temporary files, symlinks, FIFOs -- is removed
 * (git rebuilds what it derives).  A changed object that is also linked elsewhere is
 * copied so that no other name can change it later, and its other names are dropped
 * unread.  The walk does not stop at what it cannot do: the rest is checked all the
 * same, and the first failure reported.  This runs with exactly the caller's rights
 * (lib/caller.h). */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

/* What one check inflates in all: a jail's small zlib bombs, or one bomb under many
 * names, must not keep the host busy.  What is left unchecked when it is spent is
 * dropped. */
#define SBX_OBJECTS_INFLATE_BUDGET (8ull << 30)

/* @data (@len bytes, a loose object file as git writes it: zlib) inflates to a valid
 * header and exactly the size it declares, at most @max, with nothing after the stream;
 * its hash (@hash_len 20: SHA-1, 32: SHA-256) in @digest.  What it inflated is added to
 * *@inflated.  0, or -EBADMSG with @why. */
int sbx_loose_object_check(const uint8_t *data, size_t len, size_t hash_len, uint64_t max, uint64_t *inflated, uint8_t *digest,
                           char *why, size_t size);

/* The check described above on the objects directory @at (shown as @shown), for what
 * changed at or after @since_ns.  Returns how many entries were removed (the first one
 * and why in @found), or -errno when the store could not be walked. */
int sbx_objects_check(int at, const char *shown, int64_t since_ns, size_t hash_len, char *found, size_t size,
                      struct sbx_error *e);
