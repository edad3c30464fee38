/* SPDX-License-Identifier: MIT */
/* filesystem.git: commit (git.h): the jail commits, and nothing it writes becomes the
 * host's git configuration, hooks or commands.
 *
 * Why this design and not a read-only git directory: git replaces HEAD, the index and
 * packed-refs by writing NAME.lock next to them and renaming it over, so the top of
 * the git directory must be writable; but that top is also where git looks for
 * commondir, config, hooks/ and sequencer state with exec lines.  So the jail's top is
 * its own tmpfs: git's state files copied in, objects/, refs/ and logs/ (content-
 * addressed objects and refs, which git only reads as data) bound read-write, every
 * other entry the host's, read-only.  After the run, only the state files the command
 * changed come back, each checked to be what git writes (an index whose paths git
 * would accept and whose submodules are the ones it had: an index entry
 * ".git/hooks/post-checkout" would otherwise be written out by the host's next
 * checkout), and only where the host's copy did not change meanwhile.  And not to
 * fetch from a jail-owned copy: that would copy the index and HEAD back all the same,
 * and cost a git process on each side of every run.
 *
 * Launcher side: prepare before validation, finish after the jail is gone (no process
 * of it can race what is read), both through @caller. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/path.h"
#include "git-int.h"
#include "gitfmt.h"
#include "profile.h"

enum root_kind { PLAIN, WORKTREE, COMMON };

/* git's state files at the top of a git directory (gitrepository-layout(5)): what
 * commit, merge, cherry-pick, revert, fetch, pack-refs and branch -d write there. */
static const char *const worktree_state[] = {
        "HEAD",           "index",        "ORIG_HEAD",   "FETCH_HEAD",    "MERGE_HEAD", "MERGE_MSG",      "MERGE_MODE",
        "CHERRY_PICK_HEAD", "REVERT_HEAD", "AUTO_MERGE", "SQUASH_MSG",    "COMMIT_EDITMSG", "TAG_EDITMSG", NULL,
};
static const char *const common_state[] = { "HEAD", "packed-refs", "shallow", "FETCH_HEAD", NULL };
/* Configuration: copied in so that git can rewrite it as a side effect (branch -m
 * renames the branch's section, branch -d drops it), never carried back: the host's
 * git would run what it names.  The run's summary says when the jail changed one. */
static const char *const scratch[] = { "config", "config.worktree", NULL };
/* Read-write: objects, refs and their logs. */
static const char *const worktree_rw[] = { "logs", "refs", NULL };
static const char *const common_rw[] = { "objects", "refs", "logs", NULL };
/* Started in the jail, these hold commands (rebase's exec lines): they stay there, and
 * with them the HEAD and index of the half-done operation. */
static const char *const sequencers[] = { "rebase-merge", "rebase-apply", "sequencer", NULL };

#define STATE_FILE_MAX (512u << 20)

static bool listed(const char *const *l, const char *s)
{
        for (size_t i = 0; l[i]; i++)
                if (strcmp(l[i], s) == 0)
                        return true;
        return false;
}

static bool is_state(enum root_kind k, const char *name)
{
        return (k != COMMON && listed(worktree_state, name)) || (k != WORKTREE && listed(common_state, name));
}

static bool is_rw(enum root_kind k, const char *name)
{
        return (k != COMMON && listed(worktree_rw, name)) || (k != WORKTREE && listed(common_rw, name));
}

static int push_sweep(struct sbx_git *g, const char *path)
{
        char **v = reallocarray(g->sweep, g->n_sweep + 1, sizeof(char *));

        if (!v)
                return -ENOMEM;
        g->sweep = v;
        if (!(v[g->n_sweep] = strdup(path)))
                return -ENOMEM;
        g->n_sweep++;
        return 0;
}

static int refuse(struct sbx_error *e, const char *path, const char *why, const char *hint)
{
        int r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", path, "filesystem.git: '%s' %s", path, why);

        sbx_error_hint(e, "%s", hint);
        return r;
}

static int add_file(struct sbx_git_root *root, const char *name, int fd, const struct stat *st)
{
        struct sbx_git_file *v = reallocarray(root->files, root->n_files + 1, sizeof(*v));

        if (!v)
                return -ENOMEM;
        root->files = v;
        v[root->n_files] = (struct sbx_git_file){ .fd = fd };
        snprintf(v[root->n_files].name, sizeof(v[0].name), "%s", name);
        if (st)
                sbx_file_id_of(st, &v[root->n_files].id);
        root->n_files++;
        return 0;
}

/* refs/replace/ is ref data that git reads as an instruction: each ref there makes the
 * host's git show another object wherever it meets the one named (git-replace(1)), so
 * a jail could make `git diff` and `git log` hide what it changed.  Read-only, made
 * first (as the caller, as git would) so that it is the host's. */
static int protect_replace(struct sbx_profile *pr, struct sbx_caller *caller, const char *refs, struct sbx_error *e)
{
        char path[PATH_MAX];
        int r;

        if ((r = caller->mkdir(caller, refs, "replace", 0755, e)) < 0)
                return r;
        if (snprintf(path, sizeof(path), "%s/replace", refs) >= (int)sizeof(path))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", refs, "the path is too long");
        return sbx_git_bind(&pr->plan, SBX_MOUNT_RO, path, path, e);
}

/* One entry at the top of the host's git directory: a state file to copy, a data
 * directory to bind read-write, or anything else read-only.  No symlink: git would
 * follow it to wherever it points, and the jail must see what the host's git sees. */
static int top_entry(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_git_root *root, enum root_kind kind, int dirfd,
                     const char *name, struct sbx_state_file **copies, size_t *n_copies, uint64_t *bytes, struct sbx_error *e)
{
        char path[PATH_MAX];
        struct stat st;
        int r;

        if (snprintf(path, sizeof(path), "%s/%s", root->dir, name) >= (int)sizeof(path))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", name, "path too long");
        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return 0; /* gone meanwhile */
        if (S_ISLNK(st.st_mode))
                return refuse(e, path, "is a symlink: the host's git follows it, and sbx will not guess what it may then read or write",
                              "replace the symlink with what it points to, or use a profile without filesystem.git: commit");
        if (strncmp(name, "sharedindex.", 12) == 0)
                return refuse(e, path, "is a split index (core.splitIndex), which sbx cannot carry back",
                              "run `git update-index --no-split-index` and unset core.splitIndex");
        if (is_state(kind, name) || listed(scratch, name)) {
                _cleanup_close_ int fd = -1;
                struct sbx_state_file *v;

                if (!S_ISREG(st.st_mode))
                        return refuse(e, path, "is not a regular file", "remove it: git writes it as a file");
                if ((r = caller->open(caller, path, O_RDONLY | O_NOFOLLOW, SBX_ACCESS_READ, &fd, e)) < 0)
                        return r;
                if (fstat(fd, &st) < 0 || add_file(root, name, fd, &st) < 0)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", path, "out of memory");
                if (!(v = reallocarray(*copies, *n_copies + 1, sizeof(*v))))
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", path, "out of memory");
                *copies = v;
                v[*n_copies] = (struct sbx_state_file){ .fd = TAKE_FD(fd), .mode = st.st_mode & 0777 };
                snprintf(v[*n_copies].name, sizeof(v[0].name), "%s", name);
                (*n_copies)++;
                *bytes += (uint64_t)st.st_size;
                return 0;
        }
        if (is_rw(kind, name)) {
                char found[PATH_MAX];

                if (!S_ISDIR(st.st_mode))
                        return refuse(e, path, "is not a directory", "this is not a git directory sbx understands");
                if (strcmp(name, "objects") != 0) {
                        r = caller->strays(caller, path, false, found, sizeof(found), e);
                        if (r > 0)
                                return refuse(e, found, "is a symlink or other non-file: git writes reflogs and refs through it, or blocks on it",
                                              "remove it (git never makes one there)");
                        if (r < 0)
                                return r;
                        if (push_sweep(&pr->gitstate, path) < 0)
                                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", path, "out of memory");
                }
                if ((r = sbx_git_bind(&pr->plan, SBX_MOUNT_RW, path, path, e)) < 0)
                        return r;
                if (strcmp(name, "refs") == 0 && kind != WORKTREE)
                        return protect_replace(pr, caller, path, e);
                return 0;
        }
        return sbx_git_bind(&pr->plan, SBX_MOUNT_RO, path, path, e);
}

static int add_name(struct sbx_git_root *root, const char *name)
{
        char **v = reallocarray(root->host_entries, root->n_host_entries + 1, sizeof(char *));

        if (!v)
                return -ENOMEM;
        root->host_entries = v;
        if (!(v[root->n_host_entries] = strdup(name)))
                return -ENOMEM;
        root->n_host_entries++;
        return 0;
}

/* The private top of the git directory @dir: a tmpfs at @dir with copies of its state
 * files, and a bind for each of its other entries. */
static int add_root(struct sbx_profile *pr, struct sbx_caller *caller, const char *dir, enum root_kind kind, struct sbx_error *e)
{
        struct sbx_git *g = &pr->gitstate;
        struct sbx_git_root *root = &g->roots[g->n_roots];
        struct sbx_state_file *copies = NULL;
        size_t n_copies = 0;
        uint64_t bytes = 0;
        _cleanup_close_ int fd = -1;
        struct sbx_mount *m;
        DIR *d = NULL;
        struct dirent *de;
        int r;

        if (g->n_roots >= ELEMENTSOF(g->roots))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, E2BIG, "", dir, "too many git directories");
        *root = (struct sbx_git_root){ .dir = strdup(dir) };
        g->n_roots++;
        if (!root->dir)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", dir, "out of memory");
        if (kind != WORKTREE) {
                /* A repository always has objects/ and refs/, and gets logs/ on its
                 * first reflog: made now, as git would, so that it is the host's. */
                if ((r = caller->mkdir(caller, dir, "logs", 0755, e)) < 0)
                        return r;
        }
        /* Listed through a directory fd the caller opened (for reading). */
        if ((r = caller->open(caller, dir, O_RDONLY | O_DIRECTORY, SBX_ACCESS_READ, &fd, e)) < 0)
                return r;
        if (!(d = fdopendir(fd)))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fdopendir", dir, "cannot list the git directory");
        fd = -1; /* the DIR has it */
        r = 0;
        while (r >= 0 && (de = readdir(d))) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (add_name(root, de->d_name) < 0)
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", dir, "out of memory");
                else
                        r = top_entry(pr, caller, root, kind, dirfd(d), de->d_name, &copies, &n_copies, &bytes, e);
        }
        closedir(d);
        for (const char *const *st = kind == COMMON ? common_state : worktree_state; r >= 0 && *st; st++) {
                bool have = false;

                for (size_t i = 0; i < root->n_files; i++)
                        have |= strcmp(root->files[i].name, *st) == 0;
                /* A state file the host does not have yet: the jail may make it. */
                if (!have && add_file(root, *st, -1, NULL) < 0)
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", dir, "out of memory");
        }
        if (kind == PLAIN)
                for (const char *const *st = common_state; r >= 0 && *st; st++) {
                        bool have = false;

                        for (size_t i = 0; i < root->n_files; i++)
                                have |= strcmp(root->files[i].name, *st) == 0;
                        if (!have && add_file(root, *st, -1, NULL) < 0)
                                r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", dir, "out of memory");
                }
        /* Room for every copy twice over (git writes NAME.lock before it renames). */
        if (r >= 0)
                r = sbx_plan_add_mount(&pr->plan, SBX_MOUNT_STATE, NULL, dir, 2 * bytes + (64u << 20), e);
        if (r < 0) {
                for (size_t i = 0; i < n_copies; i++)
                        closep(&copies[i].fd);
                free(copies);
                return r;
        }
        m = &pr->plan.mounts[pr->plan.n_mounts - 1];
        m->files = copies;
        m->n_files = n_copies;
        return 0;
}

/* The time on the objects' own file system when the run starts, less a margin for the
 * coarse clock file systems stamp with: a directory made and removed at once. */
static int mark_objects(struct sbx_git_root *root, struct sbx_caller *caller, struct sbx_error *e)
{
        static const char mark[] = ".sbx-run-started";
        char dir[PATH_MAX];
        struct stat st;
        int fd = -1, made, r;

        if (snprintf(dir, sizeof(dir), "%s/objects", root->dir) >= (int)sizeof(dir))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", root->dir, "path too long");
        if ((made = caller->hold(caller, dir, mark, &fd, e)) < 0)
                return made;
        r = fstat(fd, &st) < 0 ? sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fstat", dir, "cannot take the time of the objects") : 0;
        (void)caller->release(caller, dir, mark, fd, made == 1, e);
        close(fd);
        if (r < 0)
                return r;
        *e = (struct sbx_error){ 0 };
        root->objects = true;
        root->objects_since = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec - 2000000000;
        return 0;
}

int sbx_git_commit_prepare(struct sbx_profile *pr, struct sbx_caller *caller, const char *gitdir, const char *common,
                           struct sbx_error *e)
{
        int r;

        if (strcmp(gitdir, common) == 0)
                return (r = add_root(pr, caller, gitdir, PLAIN, e)) < 0 ? r : mark_objects(&pr->gitstate.roots[0], caller, e);
        if ((r = add_root(pr, caller, common, COMMON, e)) < 0 || (r = mark_objects(&pr->gitstate.roots[0], caller, e)) < 0)
                return r;
        return add_root(pr, caller, gitdir, WORKTREE, e);
}

/* ---- after the run ---------------------------------------------------------------------- */

struct index_check {
        const struct sbx_git *g;
        char why[256];
};

static int check_entry(const struct sbx_git_index_entry *ent, void *userdata)
{
        struct index_check *c = userdata;

        if (!sbx_git_path_ok(ent->path, ent->path_len, ent->mode)) {
                snprintf(c->why, sizeof(c->why), "it holds the path '%.120s', which git itself refuses", ent->path);
                return -EPERM;
        }
        if (ent->mode == SBX_GIT_MODE_GITLINK) {
                for (size_t i = 0; i < c->g->n_gitlinks; i++)
                        if (strcmp(c->g->gitlinks[i], ent->path) == 0)
                                return 0;
                /* The host's git status would run git inside it, with the config of a
                 * git directory the jail made. */
                snprintf(c->why, sizeof(c->why), "it adds the submodule '%.120s'", ent->path);
                return -EPERM;
        }
        return 0;
}

/* The index as it comes back: its entries only (and the sparse mark), with a new
 * checksum, in a memfd.  The extensions are caches git rebuilds, and the jail wrote
 * them: a cache tree (TREE) naming a tree of the jail's own would decide what the
 * user's next commit holds, whatever the entries say; an untracked cache (UNTR) what
 * `git clean` deletes; resolve-undo (REUC) what `checkout -m` restores. */
static int index_entries_only(const uint8_t *buf, const struct sbx_git_index_info *info, size_t hash_len)
{
        static const uint8_t sdir[8] = { 's', 'd', 'i', 'r', 0, 0, 0, 0 };
        uint8_t digest[SHA256_DIGEST_SIZE];
        struct sha256_ctx s256;
        struct sha1_ctx s1;
        int fd = memfd_create("sbx-index", MFD_CLOEXEC);

        if (fd < 0)
                return -errno;
        if (hash_len == SHA1_DIGEST_SIZE) {
                sha1_init(&s1);
                sha1_update(&s1, info->entries_end, buf);
                if (info->sparse)
                        sha1_update(&s1, sizeof(sdir), sdir);
                sha1_digest(&s1, SHA1_DIGEST_SIZE, digest);
        } else {
                sha256_init(&s256);
                sha256_update(&s256, info->entries_end, buf);
                if (info->sparse)
                        sha256_update(&s256, sizeof(sdir), sdir);
                sha256_digest(&s256, SHA256_DIGEST_SIZE, digest);
        }
        if (write(fd, buf, info->entries_end) != (ssize_t)info->entries_end ||
            (info->sparse && write(fd, sdir, sizeof(sdir)) != (ssize_t)sizeof(sdir)) ||
            write(fd, digest, hash_len) != (ssize_t)hash_len) {
                close(fd);
                return -EIO;
        }
        return fd;
}

/* Whether the state file @name the jail left (@buf) may be the host's; for the index,
 * *@rewritten gets the copy to bring back instead. */
static bool acceptable(const struct sbx_git *g, const char *name, const uint8_t *buf, size_t len, int *rewritten, char *why,
                       size_t size)
{
        struct sbx_git_index_info info;
        struct index_check c = { .g = g };
        int r;

        if (strcmp(name, "index") != 0)
                return sbx_git_state_check(name, buf, len, why, size) == 0;
        r = sbx_git_index_walk(buf, len, g->hash_len, check_entry, &c, &info, why, size);
        if (r == -EPERM)
                snprintf(why, size, "%s", c.why);
        else if (r == 0 && info.split)
                snprintf(why, size, "it is a split index");
        else if (r == 0 && info.unknown_required_ext)
                snprintf(why, size, "it has an extension sbx does not know (%s)", info.exts);
        else if (r == 0 && (*rewritten = index_entries_only(buf, &info, g->hash_len)) < 0)
                snprintf(why, size, "cannot rewrite it: %s", strerror(-*rewritten));
        else
                return r == 0;
        return false;
}

static bool same_content(int a, int b, off_t size)
{
        char x[65536], y[65536];

        for (off_t at = 0; at < size;) {
                size_t want = (size_t)(size - at) < sizeof(x) ? (size_t)(size - at) : sizeof(x);
                ssize_t n = pread(a, x, want, at), k = pread(b, y, want, at);

                if (n <= 0 || n != k || memcmp(x, y, (size_t)n) != 0)
                        return false;
                at += n;
        }
        return true;
}

/* One state file: the jail's copy in @top, back to the host if it changed, is git's
 * own kind of file, and the host's did not change meanwhile. */
static void bring_back(struct sbx_git *g, struct sbx_caller *caller, const struct sbx_git_root *root, int top,
                       const struct sbx_git_file *f)
{
        _cleanup_close_ int fd = openat(top, f->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        _cleanup_close_ int rewritten = -1;
        struct sbx_error e = { 0 };
        struct stat st;
        char why[256];
        void *map;
        int r;

        if (fd < 0 && errno != ENOENT) {
                sbx_git_note(g, "git: '%s/%s' the jail left is not a file; not carried back", root->dir, f->name);
                return;
        }
        if (fd < 0 && !f->id.exists)
                return; /* none before, none after */
        /* Without its HEAD a git directory is none, and git takes the directory above
         * for a bare repository if it holds HEAD, objects/ and refs/: the jail's. */
        if (fd < 0 && strcmp(f->name, "HEAD") == 0) {
                sbx_git_note(g, "git: the command removed '%s/HEAD'; the host's stays", root->dir);
                return;
        }
        if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > STATE_FILE_MAX)) {
                sbx_git_note(g, "git: '%s/%s' the jail left is not a regular file of a sane size; not carried back", root->dir, f->name);
                return;
        }
        if (fd >= 0 && f->id.exists && st.st_size == f->id.size && same_content(fd, f->fd, st.st_size))
                return; /* unchanged */
        if (listed(scratch, f->name)) {
                sbx_git_note(g, "git: the command changed '%s/%s' in the jail; it is not carried back (the host's git would run what it names)",
                             root->dir, f->name);
                return;
        }
        if (fd >= 0) {
                map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : (void *)"";
                if (map == MAP_FAILED) {
                        sbx_git_note(g, "git: cannot read '%s' the jail left; not carried back", f->name);
                        return;
                }
                bool ok = acceptable(g, f->name, map, (size_t)st.st_size, &rewritten, why, sizeof(why));

                if (st.st_size)
                        munmap(map, (size_t)st.st_size);
                if (!ok) {
                        sbx_git_note(g, "git: the jail's '%s' is not carried back to '%s': %s", f->name, root->dir, why);
                        return;
                }
        }
        r = caller->replace(caller, root->dir, f->name, rewritten >= 0 ? rewritten : fd, &f->id, &e);
        if (r == -ESTALE)
                sbx_git_note(g, "git: '%s/%s' changed on the host while the jail ran; the jail's is dropped", root->dir, f->name);
        else if (r < 0)
                sbx_git_note(g, "git: cannot write '%s/%s': %s", root->dir, f->name, e.msg);
}

static const struct sbx_git_root *root_at(const struct sbx_git *g, const char *dir)
{
        for (size_t i = 0; i < g->n_roots; i++)
                if (strcmp(g->roots[i].dir, dir) == 0)
                        return &g->roots[i];
        return NULL;
}

/* A sequencer the command started (rebase, cherry-pick of several, revert of several):
 * its directory is in the tmpfs, and was not on the host. */
static const char *started_sequencer(const struct sbx_git_root *root, int top)
{
        for (const char *const *s = sequencers; *s; s++) {
                struct stat st;
                bool host = false;

                for (size_t i = 0; i < root->n_host_entries; i++)
                        host |= strcmp(root->host_entries[i], *s) == 0;
                if (!host && fstatat(top, *s, &st, AT_SYMLINK_NOFOLLOW) == 0)
                        return *s;
        }
        return NULL;
}

/* The objects the jail could write: what it changed is checked (lib/gitobjects.h),
 * whatever else the run left. */
static void check_objects(struct sbx_git *g, struct sbx_caller *caller, const struct sbx_git_root *root)
{
        struct sbx_error e = { 0 };
        char dir[PATH_MAX], found[PATH_MAX] = "";
        int r;

        if (!root->objects || snprintf(dir, sizeof(dir), "%s/objects", root->dir) >= (int)sizeof(dir))
                return;
        r = caller->objects(caller, dir, root->objects_since, g->hash_len, found, sizeof(found), &e);
        if (r > 0)
                sbx_git_note(g, "git: dropped %d entr%s the jail changed in '%s': objects that are not what their names say, "
                                "or derived files git rebuilds (first: %s)",
                             r, r == 1 ? "y" : "ies", dir, found);
        else if (r < 0)
                sbx_git_note(g, "git: WARNING: could not check the objects the jail could change in '%s': %s; "
                                "run `git fsck` there before trusting what git checks out",
                             dir, e.msg);
}

void sbx_git_commit_finish(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_result *res)
{
        struct sbx_git *g = &pr->gitstate;
        const struct sbx_plan *p = &pr->plan;
        const char *seq = NULL;
        size_t k = 0;

        for (size_t i = 0; i < g->n_roots; i++)
                check_objects(g, caller, &g->roots[i]);

        /* The state tmpfs came home in plan order. */
        for (size_t i = 0; i < p->n_mounts && k < SBX_MAX_STATE; i++) {
                const struct sbx_git_root *root;

                if (p->mounts[i].kind != SBX_MOUNT_STATE)
                        continue;
                root = root_at(g, p->mounts[i].dest);
                if (root && res->state_fds[k] >= 0 && !seq)
                        seq = started_sequencer(root, res->state_fds[k]);
                k++;
        }
        if (seq) {
                sbx_git_note(g, "git: the command left a '%s' in progress; its state holds commands and stays in the jail, "
                                "and so do the HEAD and index it left (the host's are as before)", seq);
                return;
        }
        k = 0;
        for (size_t i = 0; i < p->n_mounts && k < SBX_MAX_STATE; i++) {
                const struct sbx_git_root *root;

                if (p->mounts[i].kind != SBX_MOUNT_STATE)
                        continue;
                root = root_at(g, p->mounts[i].dest);
                for (size_t j = 0; root && res->state_fds[k] >= 0 && j < root->n_files; j++)
                        bring_back(g, caller, root, res->state_fds[k], &root->files[j]);
                k++;
        }
}
