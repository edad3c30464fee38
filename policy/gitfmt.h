/* SPDX-License-Identifier: MIT */
/* git's on-disk formats that sbx reads to keep a jail's writes from becoming the host's
 * git configuration, hooks or commands: the index, config files and the small state
 * files of a git directory (HEAD, packed-refs...).  Pure parsers over buffers handed in
 * by the caller: no I/O, no allocation the caller must free, so each is fuzzed
 * (tests/fuzz/fuzz_gitindex.c, fuzz_gitconfig.c, fuzz_gitstate.c).  The formats are
 * git's own: gitformat-index(5), git-config(1) "CONFIGURATION FILE",
 * gitrepository-layout(5), git-check-ref-format(1). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A path git would accept in a tree or the index: what git's verify_path() accepts with
 * core.protectNTFS and core.protectHFS both on.  Relative; no empty, "." or ".."
 * component; no component that is ".git" in any letter case, nor a name NTFS or HFS+
 * would fold to it (".git.", ".git  ", "git~1", ".g\u200cit", ...), nor ".gitmodules"
 * as a symlink (the caller passes @mode; 0 when unknown); no NUL.  A backslash
 * separates names too (NTFS), so "a\\.git" is refused.  No trailing '/', except for a
 * sparse directory entry (mode 040000), which git writes as "dir/".  Stricter than git
 * in one way: the code points HFS+ ignores are Unicode's whole Default_Ignorable_Code_Point
 * set (Linux's casefolding directories drop those), and U+017F folds to 's'. */
bool sbx_git_path_ok(const char *path, size_t len, uint32_t mode);

/* A full object name in lowercase hex: 40 (SHA-1) or 64 (SHA-256) digits. */
bool sbx_git_oid_hex(const char *s, size_t len);

/* A ref name as `git check-ref-format` accepts it, and starting with "refs/". */
bool sbx_git_refname_ok(const char *name, size_t len);

/* ---- the index -------------------------------------------------------------------- */

#define SBX_GIT_MODE_GITLINK 0160000u
#define SBX_GIT_MODE_DIR 040000u

/* An index entry (@ext NULL), or a path one of the index's extensions names (@ext its
 * signature), each a path the caller checks with sbx_git_path_ok(path, path_len, mode):
 *   "TREE"  a cache-tree directory, "dir/sub/", mode 040000;
 *   "REUC"  a resolved conflict "git checkout -m" can bring back, once per stage 1-3
 *           with that stage's mode;
 *   "UNTR"  an untracked-cache directory ("dir/", mode 040000) or a name in one (mode 0,
 *           or 040000 for "dir/sub/"): git status lists these and git clean deletes them
 *           without reading the directory again. */
struct sbx_git_index_entry {
        const char *path; /* NUL-terminated, valid only during the callback */
        size_t path_len;
        uint32_t mode;    /* as stored: 0100644, 0100755, 0120000, 0160000; 040000 for a
                           * sparse directory entry (only with the "sdir" extension) */
        unsigned stage;   /* 0-3 */
        const uint8_t *oid; /* the object name (hash_len bytes); NULL for TREE, UNTR */
        const char *ext;  /* NULL: an index entry */
};

struct sbx_git_index_info {
        unsigned version;  /* 2, 3 or 4 */
        size_t n_entries;
        bool split;        /* has the "link" extension (split index mode) */
        bool unknown_required_ext; /* an extension git must understand (first letter
                                    * not 'A'..'Z') that this parser does not know:
                                    * git refuses such an index */
        char exts[64];     /* the signatures seen, "TREE,REUC,..." (truncated) */
        size_t entries_end; /* the offset where the entries end and the extensions start */
        bool sparse;       /* has the "sdir" extension (a sparse index) */
};

/* Walks the index in @buf (@len bytes) of a repository whose object names are
 * @hash_len bytes (20 for SHA-1, 32 for SHA-256): header "DIRC", version 2, 3 or 4,
 * every entry (v4's prefix-compressed paths decoded), then the extensions up to the
 * trailing checksum (not verified: git does not either unless fsck asks).  The whole
 * buffer is checked first, and only then is @fn called: for each entry in order, then
 * for each path the TREE, REUC and UNTR extensions name (see above); a non-zero return
 * from @fn stops the walk and is returned.  0 with @info filled, or -EBADMSG with a
 * one-line reason in @why (offset and what was wrong) when the buffer is not an index
 * git writes; -EINVAL for a @hash_len other than 20 or 32.
 *
 * Well-formed means more than git's reader asks: entries sorted by (path, stage), a
 * path's length as its flags say and NUL-padded, modes git writes, paths shorter than
 * 4096 bytes, every length and count inside the buffer, each known extension parsed to
 * its last byte, and the offsets EOIE and IEOT give (git's multi-threaded reader uses
 * them instead of walking) equal to where the entries really are, so no reader of git's
 * sees entries this walk did not.  In split-index mode (@info->split) this file holds
 * only changes to $GIT_DIR/sharedindex.<oid>: entries that replace shared ones may have
 * empty paths and the order is not checked; a caller that does not walk the shared
 * index too must refuse a split index. */
int sbx_git_index_walk(const uint8_t *buf, size_t len, size_t hash_len,
                       int (*fn)(const struct sbx_git_index_entry *e, void *userdata), void *userdata,
                       struct sbx_git_index_info *info, char *why, size_t why_size);

/* ---- config files ------------------------------------------------------------------ */

/* Calls @fn for every variable in the config text @text (@len bytes, need not be
 * NUL-terminated) in order, with its canonical name (section and variable name
 * lowercased, subsection kept as written: "core.hookspath", "includeif.gitdir:~/w/.path",
 * "remote.Origin.url"; the old [section.sub] form lowercased whole) and its value after
 * git's unquoting and escapes (NULL for a variable written without '=', which git reads
 * as true).  include.path and includeIf.<cond>.path are reported like any other
 * variable: the caller decides whether to read those files.  Both strings are the C
 * strings git 2.39's own callbacks get, byte for byte: a NUL byte in a subsection or a
 * value ends the string there for git too, so '[core "hookspath<NUL>"] x = /p' is
 * reported as "core.hookspath" = "/p", as git reads it.  A non-zero return from @fn
 * stops the scan and is returned.  0, -ENOMEM, or -EBADMSG with "line N: what" in @why
 * where git itself refuses the file (N is the line git's "bad config line N" names). */
int sbx_git_config_scan(const char *text, size_t len,
                        int (*fn)(const char *name, const char *value, void *userdata), void *userdata,
                        char *why, size_t why_size);

/* ---- state files of a git directory ------------------------------------------------- */

/* Whether @buf is a well-formed copy of the state file @name of a git directory, as git
 * writes it.  Known names: HEAD ("ref: refs/..." or an object name), ORIG_HEAD,
 * CHERRY_PICK_HEAD, REVERT_HEAD, AUTO_MERGE (an object name), MERGE_HEAD and shallow
 * (object names, one per line), FETCH_HEAD (git's fetch-head lines), packed-refs (its
 * header, "<oid> <refname>" and "^<oid>" lines), MERGE_MODE ("" or "no-ff"),
 * MERGE_MSG, SQUASH_MSG, COMMIT_EDITMSG, TAG_EDITMSG (text: no NUL, at most 1 MiB).
 * Only what git writes, byte for byte (git's readers take more, "ref:refs/x" or
 * trailing blanks): all object names of a file the same length; in a packed-refs with
 * the "sorted" trait, names strictly increasing (git binary-searches it).
 * 0; -EBADMSG with the reason in @why; -ENOENT for a name it does not know. */
int sbx_git_state_check(const char *name, const uint8_t *buf, size_t len, char *why, size_t why_size);
