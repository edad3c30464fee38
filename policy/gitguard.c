/* SPDX-License-Identifier: MIT */
/* filesystem.git, the part every profile has (git.h): what the host's git reads from a
 * working tree the jail can write is read-only in the jail.
 *
 * Launcher side, before validation, as the caller (every path through @caller).  A
 * read-only bind alone does not hold a path: the jail could rename a directory above
 * it and make a new one in its place.  So each directory between the writable mount's
 * top and a protected path is bound onto itself ("pinned": a mount point cannot be
 * renamed or removed), and what does not exist yet is made, empty, as a mount point
 * (removed after the run).  Vectors, checked against gitrepository-layout(5),
 * git-config(1), githooks(5) and gitsubmodules(7), are listed in doc/THREATS.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/path.h"
#include "git-int.h"
#include "gitfmt.h"
#include "hostconfig.h"
#include "profile.h"

#define CONFIG_MAX (1u << 20)   /* bytes of one config file read */
#define INCLUDE_DEPTH 10        /* git's own limit on nested includes */
#define SUBMODULE_DEPTH 8       /* submodules of submodules followed */
#define INDEX_MAX (512u << 20)  /* the largest index read */

void sbx_git_note(struct sbx_git *g, const char *fmt, ...)
{
        size_t len = strlen(g->notes);
        va_list ap;

        if (len && len + 1 < sizeof(g->notes))
                g->notes[len++] = '\n';
        va_start(ap, fmt);
        (void)vsnprintf(g->notes + len, sizeof(g->notes) - len, fmt, ap);
        va_end(ap);
}

static int oom(struct sbx_error *e)
{
        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", "", "out of memory");
}

static int push(char ***v, size_t *n, const char *s)
{
        char **nv = reallocarray(*v, *n + 1, sizeof(char *));

        if (!nv)
                return -ENOMEM;
        *v = nv;
        if (!(nv[*n] = strdup(s)))
                return -ENOMEM;
        (*n)++;
        return 0;
}

/* @path is @dir or below it. */
static bool at_or_below(const char *path, const char *dir)
{
        size_t n = strlen(dir);

        return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

int sbx_git_bind(struct sbx_plan *p, enum sbx_mount_kind kind, const char *src, const char *dest, struct sbx_error *e)
{
        int r;

        /* Asked again read-only, a bind made read-write on the way to a deeper one
         * becomes read-only (git_read_only_below() does the rest). */
        for (size_t i = 0; i < p->n_mounts; i++)
                if (strcmp(p->mounts[i].dest, dest) == 0) {
                        if (kind == SBX_MOUNT_RO && p->mounts[i].git && p->mounts[i].kind == SBX_MOUNT_RW)
                                p->mounts[i].kind = SBX_MOUNT_RO;
                        return 0;
                }
        if ((r = sbx_plan_add_mount(p, kind, src, dest, 0, e)) < 0)
                return r;
        p->mounts[p->n_mounts - 1].git = true;
        return 0;
}

int sbx_git_hold(struct sbx_git *g, struct sbx_caller *caller, const char *dir, const char *name, struct sbx_error *e)
{
        struct sbx_git_held *v = reallocarray(g->held, g->n_held + 1, sizeof(*v));
        int fd = -1, r;

        if (!v)
                return oom(e);
        g->held = v;
        if ((r = caller->hold(caller, dir, name, &fd, e)) < 0)
                return r;
        v[g->n_held] = (struct sbx_git_held){ .dir = strdup(dir), .name = strdup(name), .fd = fd, .made = r > 0 };
        if (!v[g->n_held].dir || !v[g->n_held].name) {
                free(v[g->n_held].dir);
                free(v[g->n_held].name);
                close(fd);
                return oom(e);
        }
        g->n_held++;
        return 0;
}

int sbx_git_read(struct sbx_caller *caller, const char *path, size_t max, char **ret, size_t *ret_len, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        struct sbx_error ignored = { 0 };
        struct stat st;
        size_t got = 0;
        int r;

        *ret = NULL;
        *ret_len = 0;
        r = caller->open(caller, path, O_RDONLY | O_NOFOLLOW, SBX_ACCESS_READ, &fd, &ignored);
        if (r == -ENOENT)
                return -ENOENT;
        if (r < 0) {
                *e = ignored;
                return r;
        }
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EINVAL, "", path, "'%s' is not a regular file", path);
        if ((size_t)st.st_size > max)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EFBIG, "", path, "'%s' is larger than %zu bytes", path, max);
        if (!(buf = malloc((size_t)st.st_size + 1)))
                return oom(e);
        while (got < (size_t)st.st_size) {
                ssize_t n = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);

                if (n <= 0)
                        break;
                got += (size_t)n;
        }
        buf[got] = '\0';
        *ret = TAKE_PTR(buf);
        *ret_len = got;
        return 0;
}

/* @dir/@name into @out; false when it does not fit. */
static bool join(char *out, size_t size, const char *dir, const char *name)
{
        int n = snprintf(out, size, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name);

        return n >= 0 && (size_t)n < size;
}

/* ---- protecting a path under a writable mount --------------------------------------- */

/* A writable place of the jail: the host directory @host seen at @jail. */
struct place {
        const char *host, *jail;
};

/* @rel (relative, normal) below @pl read-only in the jail, each directory on the way
 * pinned, what is missing made.  A symlink on the way is refused: the jail could point
 * it elsewhere, and nothing can be mounted on a symlink. */
static int guard(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const char *rel,
                 struct sbx_error *e)
{
        char sub[PATH_MAX] = "", host[PATH_MAX], jail[PATH_MAX], parent[PATH_MAX];

        for (const char *s = rel; *s;) {
                size_t len = strcspn(s, "/");
                bool last = s[len] == '\0';
                _cleanup_close_ int fd = -1;
                struct sbx_error ignored = { 0 };
                struct stat st;
                int r;

                /* parent: where this component lives; sub: the path below pl so far. */
                if (!(sub[0] ? join(parent, sizeof(parent), pl->host, sub) : snprintf(parent, sizeof(parent), "%s", pl->host) > 0) ||
                    snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "%s%.*s", sub[0] ? "/" : "", (int)len, s) < 0 ||
                    !join(host, sizeof(host), pl->host, sub) || !join(jail, sizeof(jail), pl->jail, sub))
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", rel, "path too long");
                s += len + !last;
                r = caller->open(caller, host, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &ignored);
                if (r < 0 && r != -ENOENT) {
                        *e = ignored;
                        return r;
                }
                if (r == 0 && (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))) {
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", host,
                                          "'%s' is a symlink the jail could change, where the host's git or an agent harness looks for its own files",
                                          host);
                        sbx_error_hint(e, "replace it with the directory it points to, or use a profile without a writable '%s'",
                                       pl->host);
                        return r;
                }
                if (r == 0 && !S_ISDIR(st.st_mode)) {
                        /* A file: bound as it is; where a directory would be, nothing can
                         * be below, and it is pinned. */
                        return sbx_git_bind(&pr->plan, last ? SBX_MOUNT_RO : SBX_MOUNT_RW, host, jail, e);
                }
                /* A directory, or none yet: held (made) for the run, then mounted. */
                if ((r = sbx_git_hold(&pr->gitstate, caller, parent, strrchr(host, '/') + 1, e)) < 0)
                        return r;
                if ((r = sbx_git_bind(&pr->plan, last ? SBX_MOUNT_RO : SBX_MOUNT_RW, host, jail, e)) < 0)
                        return r;
        }
        return 0;
}

/* @path (absolute, lexical) when it lies in @pl: its part below. */
static const char *below(const struct place *pl, const char *path)
{
        size_t n = strlen(pl->host);

        if (strncmp(path, pl->host, n) != 0 || path[n] != '/' || !path[n + 1])
                return NULL;
        return path + n + 1;
}

/* @rel taken from the canonical directory @base, lexically: "." and empty components
 * dropped, ".." only while it climbs @base's own components (which are physical, so
 * that is where the kernel would go too); a ".." after a component of @rel could cross
 * a symlink, and is refused (false). */
static bool join_rel(const char *base, const char *rel, char *out, size_t size)
{
        size_t floor, len;

        if (rel[0] == '/') {
                base = "/";
                rel++;
        }
        if (snprintf(out, size, "%s", base) >= (int)size)
                return false;
        len = strlen(out);
        if (len > 1 && out[len - 1] == '/')
                out[--len] = '\0';
        floor = len; /* below this, components came from @rel */
        while (*rel) {
                size_t n = strcspn(rel, "/");

                if (n == 0 || (n == 1 && rel[0] == '.')) {
                } else if (n == 2 && rel[0] == '.' && rel[1] == '.') {
                        char *slash;

                        if (len > floor || !(slash = strrchr(out, '/')))
                                return false;
                        len = slash == out ? 1 : (size_t)(slash - out);
                        out[len] = '\0';
                        floor = len;
                } else {
                        if (len + 1 + n + 1 > size)
                                return false;
                        if (len > 1)
                                out[len++] = '/';
                        memcpy(out + len, rel, n);
                        len += n;
                        out[len] = '\0';
                }
                rel += n;
                while (*rel == '/')
                        rel++;
        }
        return true;
}

/* A repository the host's git uses whose working tree reaches into a writable place:
 * the place's own, one enclosing it, or one nested in it. */
struct repo {
        const char *top;    /* its working tree's top */
        const char *gitdir; /* its git directory (worktrees/NAME for a linked worktree) */
        const char *common; /* the repository's own directory */
};

/* A path of git's configuration that lies in @pl: protected.  A hooks directory below
 * another (husky's .husky/_, whose hooks run the scripts in .husky/) is protected with
 * its parent. */
static int guard_used_path(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const struct repo *rp,
                           const char *base, const char *value, bool hooks, struct sbx_error *e)
{
        char path[PATH_MAX];
        const char *rel;
        char *slash;

        if (!value || !value[0])
                return 0;
        if (value[0] == '~' && value[1] == '/') {
                base = pr->plan.home ? pr->plan.home : "/nonexistent";
                value += 2;
        }
        if (!join_rel(base, value, path, sizeof(path))) {
                int r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", value,
                                      "git reads hooks or configuration from '%s' (from '%s'), which sbx cannot place without "
                                      "following the working tree's symlinks",
                                      value, base);
                sbx_error_hint(e, "name it without '..' in git's configuration");
                return r;
        }
        if (hooks && (slash = strrchr(path, '/')) && slash != path) {
                *slash = '\0';
                if (strcmp(path, rp->top) == 0 || !below(pl, path))
                        *slash = '/';
        }
        rel = below(pl, path);
        return rel ? guard(pr, caller, pl, rel, e) : 0;
}

/* ---- what git's configuration says ---------------------------------------------------- */

struct config_walk {
        bool strict;           /* a config git refuses is an error (commit), or nothing (protect) */
        struct sbx_profile *pr;
        struct sbx_caller *caller;
        const struct place *pl;
        const struct repo *rp;
        const char *dir;       /* of the file being read, for relative includes */
        unsigned depth;
        struct sbx_error *e;
        int r;
};

static int read_config(struct config_walk *w, const char *path);

/* Every word of a command line that names a file: a script git runs through it. */
static int guard_command_words(struct config_walk *w, const char *value)
{
        for (const char *s = value; *s && w->r >= 0;) {
                size_t n = strcspn(s, " \t\"'");
                char word[PATH_MAX];

                if (n && n < sizeof(word)) {
                        snprintf(word, sizeof(word), "%.*s", (int)n, s);
                        if (strchr(word, '/'))
                                w->r = guard_used_path(w->pr, w->caller, w->pl, w->rp, w->rp->top, word, false, w->e);
                }
                s += n;
                s += strspn(s, " \t\"'");
        }
        return w->r;
}

static int on_config(const char *name, const char *value, void *userdata)
{
        struct config_walk *w = userdata;
        char inc[PATH_MAX];

        if (strcmp(name, "core.hookspath") == 0) {
                w->r = guard_used_path(w->pr, w->caller, w->pl, w->rp, w->rp->top, value, true, w->e);
        } else if (strcmp(name, "core.fsmonitor") == 0 && value) {
                w->r = guard_command_words(w, value);
        } else if (strcmp(name, "extensions.objectformat") == 0 && value) {
                w->pr->gitstate.hash_len = strcasecmp(value, "sha256") == 0 ? 32 : 20;
        } else if (value && (strcmp(name, "include.path") == 0 ||
                             (strncmp(name, "includeif.", 10) == 0 && strlen(name) > 15 &&
                              strcmp(name + strlen(name) - 5, ".path") == 0))) {
                /* Every include, whatever its condition (protecting more is harmless):
                 * the file itself is configuration, and so is what it says. */
                bool home = value[0] == '~' && value[1] == '/';

                if (w->depth < INCLUDE_DEPTH &&
                    join_rel(home ? (w->pr->plan.home ? w->pr->plan.home : "/nonexistent") : w->dir, value + (home ? 2 : 0), inc,
                             sizeof(inc))) {
                        struct config_walk sub = *w;

                        if (below(w->pl, inc) && (w->r = guard(w->pr, w->caller, w->pl, below(w->pl, inc), w->e)) < 0)
                                return w->r;
                        sub.depth++;
                        w->r = read_config(&sub, inc);
                }
        }
        return w->r < 0 ? w->r : 0;
}

static int read_config(struct config_walk *w, const char *path)
{
        _cleanup_free_ char *text = NULL;
        char dir[PATH_MAX], why[256];
        size_t len;
        int r = sbx_git_read(w->caller, path, CONFIG_MAX, &text, &len, w->e);

        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                /* A config the caller cannot read, the host's git cannot either. */
                *w->e = (struct sbx_error){ 0 };
                return 0;
        }
        snprintf(dir, sizeof(dir), "%s", path);
        if (strrchr(dir, '/'))
                *strrchr(dir, '/') = '\0';
        w->dir = dir;
        w->r = 0;
        r = sbx_git_config_scan(text, len, on_config, w, why, sizeof(why));
        if (w->r < 0)
                return w->r;
        /* git refuses a broken config; so does sbx, rather than guess what it says. */
        if (r < 0 && w->strict)
                return sbx_error_set(w->e, SBX_STAGE_VALIDATE, EINVAL, "", path, "git's configuration '%s' does not parse: %s", path, why);
        return 0;
}

/* A hooks/ that is a symlink (to a tracked directory, say): where it leads is where
 * the host's git runs hooks from. */
static int guard_hooks_link(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const struct repo *rp,
                            struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct sbx_error soft = { 0 };
        char path[PATH_MAX], target[PATH_MAX];
        struct stat st;
        ssize_t n;

        if (!join(path, sizeof(path), rp->common, "hooks") ||
            caller->open(caller, path, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &soft) < 0 || fstat(fd, &st) < 0 ||
            !S_ISLNK(st.st_mode))
                return 0;
        n = readlinkat(fd, "", target, sizeof(target) - 1);
        if (n <= 0)
                return 0;
        target[n] = '\0';
        return guard_used_path(pr, caller, pl, rp, rp->common, target, true, e);
}

/* The configuration the host's git reads in @rp: system, global, the repository's own
 * and its worktree's, with their includes. */
static int guard_hooks(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const struct repo *rp, bool strict,
                       struct sbx_error *e)
{
        struct config_walk w = { .strict = strict, .pr = pr, .caller = caller, .pl = pl, .rp = rp, .e = e };
        char path[PATH_MAX];
        int r;

        if ((r = read_config(&w, "/etc/gitconfig")) < 0)
                return r;
        if (pr->plan.home && snprintf(path, sizeof(path), "%s/.config/git/config", pr->plan.home) > 0 &&
            (r = read_config(&w, path)) < 0)
                return r;
        if (pr->plan.home && snprintf(path, sizeof(path), "%s/.gitconfig", pr->plan.home) > 0 && (r = read_config(&w, path)) < 0)
                return r;
        if (join(path, sizeof(path), rp->common, "config") && (r = read_config(&w, path)) < 0)
                return r;
        if (join(path, sizeof(path), rp->gitdir, "config.worktree") && (r = read_config(&w, path)) < 0)
                return r;
        return guard_hooks_link(pr, caller, pl, rp, e);
}

/* ---- submodules ----------------------------------------------------------------------- */

struct links {
        char **v;
        size_t n;
};

static int on_entry(const struct sbx_git_index_entry *ent, void *userdata)
{
        struct links *l = userdata;

        /* Index entries only: the extensions' paths name no submodule git runs in. */
        if (ent->ext || ent->mode != SBX_GIT_MODE_GITLINK || ent->stage != 0)
                return 0;
        return push(&l->v, &l->n, ent->path);
}

/* The gitlinks of one index file @name in @gitdir; @split: it is a split index. */
static int index_links(struct sbx_caller *caller, const char *gitdir, const char *name, size_t hash_len, struct links *out,
                       bool *split, struct sbx_error *e)
{
        _cleanup_free_ char *buf = NULL;
        struct sbx_git_index_info info;
        char path[PATH_MAX], why[256];
        size_t len;
        int r;

        if (!join(path, sizeof(path), gitdir, name))
                return 0;
        r = sbx_git_read(caller, path, INDEX_MAX, &buf, &len, e);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return r;
        r = sbx_git_index_walk((const uint8_t *)buf, len, hash_len, on_entry, out, &info, why, sizeof(why));
        if (r == -ENOMEM)
                return oom(e);
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EINVAL, "", path, "the index '%s' does not parse: %s", path, why);
        if (split)
                *split = info.split;
        return 0;
}

/* The gitlink paths of the index in @gitdir; in split-index mode those of every
 * shared index there too (more than the one in use: protecting more is harmless). */
static int gitlinks(struct sbx_caller *caller, const char *gitdir, size_t hash_len, struct links *out, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        bool split = false;
        struct dirent *de;
        DIR *d;
        int r;

        if ((r = index_links(caller, gitdir, "index", hash_len, out, &split, e)) < 0 || !split)
                return r;
        if ((r = caller->open(caller, gitdir, O_RDONLY | O_DIRECTORY, SBX_ACCESS_READ, &fd, e)) < 0)
                return r;
        if (!(d = fdopendir(fd)))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fdopendir", gitdir, "cannot list the git directory");
        fd = -1;
        while (r >= 0 && (de = readdir(d)))
                if (strncmp(de->d_name, "sharedindex.", 12) == 0)
                        r = index_links(caller, gitdir, de->d_name, hash_len, out, NULL, e);
        closedir(d);
        return r;
}

static void links_free(struct links *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->v[i]);
        free(l->v);
        *l = (struct links){ 0 };
}

/* The git directory a working tree's .git names: the directory itself, or what a
 * "gitdir: PATH" file says (relative to the working tree), canonical. */
static int gitdir_of(struct sbx_caller *caller, const char *tree, char *out, size_t size, struct sbx_error *e)
{
        _cleanup_free_ char *text = NULL;
        _cleanup_close_ int fd = -1;
        char dotgit[PATH_MAX], target[PATH_MAX];
        size_t len;
        int r;

        if (!join(dotgit, sizeof(dotgit), tree, ".git"))
                return -ENAMETOOLONG;
        r = sbx_git_read(caller, dotgit, PATH_MAX, &text, &len, e);
        if (r == -EINVAL || r == -EISDIR) {
                *e = (struct sbx_error){ 0 };
                r = caller->open(caller, dotgit, O_PATH | O_DIRECTORY, SBX_ACCESS_READ, &fd, e);
                return r < 0 ? r : sbx_fd_path(fd, out, size, dotgit, e);
        }
        if (r < 0 || !text)
                return r < 0 ? r : -EINVAL;
        text[strcspn(text, "\r\n")] = '\0';
        if (strncmp(text, "gitdir: ", 8) != 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EINVAL, "", dotgit, "'%s' is a file but not a 'gitdir: PATH' line", dotgit);
        if (text[8] == '/')
                snprintf(target, sizeof(target), "%s", text + 8);
        else if (!join(target, sizeof(target), tree, text + 8))
                return -ENAMETOOLONG;
        r = caller->open(caller, target, O_PATH | O_DIRECTORY, SBX_ACCESS_READ, &fd, e);
        return r < 0 ? r : sbx_fd_path(fd, out, size, target, e);
}

/* Every submodule of the working tree at @top (index in @gitdir) that lies in @pl: its
 * .git read-only, and those of its own submodules, @depth levels down.  @record: the
 * workspace's own repository, whose gitlinks the copy back holds the index to. */
static int guard_submodules(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const char *top,
                            const char *gitdir, unsigned depth, bool strict, bool record, struct sbx_error *e)
{
        struct sbx_error soft = { 0 };
        struct links l = { 0 };
        int r = gitlinks(caller, gitdir, pr->gitstate.hash_len, &l, strict ? e : &soft);

        if (r < 0 && !strict) {
                links_free(&l);
                return 0; /* an index git cannot read names no submodule */
        }
        for (size_t i = 0; r >= 0 && i < l.n; i++) {
                char tree[PATH_MAX], dotgit[PATH_MAX], sub[PATH_MAX];
                struct sbx_error ignored = { 0 };
                const char *rel;

                if (!sbx_git_path_ok(l.v[i], strlen(l.v[i]), SBX_GIT_MODE_GITLINK))
                        continue; /* git itself refuses such a path */
                if (record && depth == 0 && push(&pr->gitstate.gitlinks, &pr->gitstate.n_gitlinks, l.v[i]) < 0) {
                        r = oom(e);
                        break;
                }
                if (!join(tree, sizeof(tree), top, l.v[i]) || !join(dotgit, sizeof(dotgit), tree, ".git"))
                        continue;
                if ((rel = below(pl, dotgit)) && (r = guard(pr, caller, pl, rel, e)) < 0)
                        break;
                /* The submodule's own submodules, when it is checked out. */
                if (depth + 1 < SUBMODULE_DEPTH && gitdir_of(caller, tree, sub, sizeof(sub), &ignored) >= 0)
                        r = guard_submodules(pr, caller, pl, tree, sub, depth + 1, strict, false, e);
        }
        links_free(&l);
        return r;
}

/* ---- the working tree's own .git ------------------------------------------------------ */

/* For the commit mode of a working tree whose .git is a file: its worktrees/NAME (or a
 * submodule's git directory), and the common directory it belongs to. */
static int linked(struct sbx_caller *caller, const char *tree, char *gitdir, char *common, struct sbx_error *e)
{
        _cleanup_free_ char *back = NULL, *cd = NULL;
        _cleanup_close_ int fd = -1;
        char path[PATH_MAX], dotgit[PATH_MAX], canon[PATH_MAX];
        size_t len;
        int r;

        if ((r = gitdir_of(caller, tree, gitdir, PATH_MAX, e)) < 0)
                return r;
        /* Its commondir names the repository; without one, it is a repository itself
         * (a submodule's git directory). */
        if (!join(path, sizeof(path), gitdir, "commondir"))
                return -ENAMETOOLONG;
        r = sbx_git_read(caller, path, PATH_MAX, &cd, &len, e);
        if (r == -ENOENT) {
                snprintf(common, PATH_MAX, "%s", gitdir);
                return 0;
        }
        if (r < 0 || !cd)
                return r < 0 ? r : -EINVAL;
        cd[strcspn(cd, "\r\n")] = '\0';
        if (cd[0] != '/' && !join(path, sizeof(path), gitdir, cd))
                return -ENAMETOOLONG;
        if ((r = caller->open(caller, cd[0] == '/' ? cd : path, O_PATH | O_DIRECTORY, SBX_ACCESS_READ, &fd, e)) < 0 ||
            (r = sbx_fd_path(fd, common, PATH_MAX, path, e)) < 0)
                return r;
        /* NAME's gitdir file names this working tree's .git: the pair is git's own. */
        if (!join(path, sizeof(path), gitdir, "gitdir") || !join(dotgit, sizeof(dotgit), tree, ".git"))
                return -ENAMETOOLONG;
        if ((r = sbx_git_read(caller, path, PATH_MAX, &back, &len, e)) < 0 || !back)
                return r < 0 ? r : -EINVAL;
        back[strcspn(back, "\r\n")] = '\0';
        closep(&fd);
        if (caller->open(caller, back, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, e) < 0 ||
            sbx_fd_path(fd, canon, sizeof(canon), back, e) < 0 || strcmp(canon, dotgit) != 0) {
                *e = (struct sbx_error){ 0 };
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", gitdir,
                                  "filesystem.git: '%s' does not point back at this working tree's .git", path);
                sbx_error_hint(e, "run `git worktree repair` in the main working tree");
                return r;
        }
        return 0;
}

/* A .git git would take for the repository: a "gitdir:" file (git stops at a broken
 * one), or a directory with its HEAD file. */
static bool usable_gitdir(struct sbx_caller *caller, const char *dotgit, const struct stat *st)
{
        _cleanup_close_ int fd = -1;
        struct sbx_error ignored = { 0 };
        struct stat head;
        char path[PATH_MAX];

        if (S_ISREG(st->st_mode))
                return true;
        return join(path, sizeof(path), dotgit, "HEAD") &&
               caller->open(caller, path, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &ignored) == 0 && fstat(fd, &head) == 0 &&
               S_ISREG(head.st_mode);
}

/* The .git files of @rp's linked worktrees that lie in @pl: the host's git runs in each
 * one with what its .git file names, so a jail that rewrote one ("gitdir: <a directory
 * of its own>") would hand the host's git its config.  Each worktrees/NAME/gitdir of
 * the common directory names the worktree's .git (git's own list, at any depth: a
 * .worktrees/ inside a repository the search for nested ones stops at is found too). */
#define WORKTREES_MAX 1000

static int guard_worktrees(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const struct repo *rp,
                           struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct sbx_error soft = { 0 };
        char dir[PATH_MAX];
        struct dirent *de;
        unsigned seen = 0;
        DIR *d;
        int r = 0;

        if (!join(dir, sizeof(dir), rp->common, "worktrees") ||
            caller->open(caller, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, SBX_ACCESS_READ, &fd, &soft) < 0 || !(d = fdopendir(fd)))
                return 0; /* none: no linked worktree */
        fd = -1;
        while (r >= 0 && (de = readdir(d)) && ++seen < WORKTREES_MAX) {
                _cleanup_free_ char *back = NULL;
                char wt[PATH_MAX], path[PATH_MAX], dotgit[PATH_MAX];
                const char *rel;
                size_t len;

                if (de->d_name[0] == '.' || !join(wt, sizeof(wt), dir, de->d_name) || !join(path, sizeof(path), wt, "gitdir") ||
                    sbx_git_read(caller, path, PATH_MAX, &back, &len, &soft) < 0 || !back) {
                        soft = (struct sbx_error){ 0 };
                        continue;
                }
                back[strcspn(back, "\r\n")] = '\0';
                /* One that is gone (not yet pruned) is no worktree the host uses. */
                if (join_rel(wt, back, dotgit, sizeof(dotgit)) && (rel = below(pl, dotgit)) && strcmp(rel, ".git") != 0 &&
                    caller->open(caller, dotgit, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &soft) == 0)
                        r = guard(pr, caller, pl, rel, e);
                closep(&fd);
                soft = (struct sbx_error){ 0 };
        }
        closedir(d);
        return r;
}

/* The harnesses' own configuration at the project top @top, at or below @pl
 * (hostconfig.h): read-only, or held empty where there is none. */
static int guard_host_config(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const char *top,
                             struct sbx_error *e)
{
        const char *rel = strcmp(top, pl->host) == 0 ? "" : below(pl, top);
        char path[PATH_MAX];
        int r;

        for (const char *const *name = sbx_host_config_entries; rel && *name; name++) {
                if (snprintf(path, sizeof(path), "%s%s%s", rel, rel[0] ? "/" : "", *name) >= (int)sizeof(path))
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", top, "path too long");
                if ((r = guard(pr, caller, pl, path, e)) < 0)
                        return r;
        }
        return 0;
}

/* What the host's git reads of @rp and finds in @pl: hook directories and included
 * configuration its config places there, the .git of its submodules and of its linked
 * worktrees there, and its git directory itself when that lies there
 * (--separate-git-dir inside the tree). */
static int guard_repo(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const struct repo *rp, bool strict,
                      bool record, struct sbx_error *e)
{
        const char *rel;
        int r;

        if ((r = guard_hooks(pr, caller, pl, rp, strict, e)) < 0 ||
            (r = guard_submodules(pr, caller, pl, rp->top, rp->gitdir, 0, strict, record, e)) < 0 ||
            (r = guard_worktrees(pr, caller, pl, rp, e)) < 0)
                return r;
        /* A repository nested in @pl is a project of its own (the place's top is
         * guard_place()'s). */
        if (below(pl, rp->top) && (r = guard_host_config(pr, caller, pl, rp->top, e)) < 0)
                return r;
        /* (The .git at the top of the place is guard_place()'s: read-only, or commit
         * mode's private top.) */
        for (int i = 0; i < 2; i++) {
                const char *dir = i ? rp->common : rp->gitdir;

                if ((rel = below(pl, dir)) && strcmp(rel, ".git") != 0 && strncmp(rel, ".git/", 5) != 0 &&
                    (r = guard(pr, caller, pl, rel, e)) < 0)
                        return r;
        }
        return 0;
}

/* The repository whose working tree is @tree (its .git there): its git directory and
 * common directory.  0, or -errno when @tree has none git would use. */
static int repo_at(struct sbx_caller *caller, const char *tree, char *gitdir, char *common, struct sbx_error *e)
{
        _cleanup_free_ char *cd = NULL;
        _cleanup_close_ int fd = -1;
        char path[PATH_MAX];
        size_t len;
        int r;

        if ((r = gitdir_of(caller, tree, gitdir, PATH_MAX, e)) < 0)
                return r;
        snprintf(common, PATH_MAX, "%s", gitdir);
        if (!join(path, sizeof(path), gitdir, "commondir"))
                return 0;
        r = sbx_git_read(caller, path, PATH_MAX, &cd, &len, e);
        if (r < 0 || !cd) {
                *e = (struct sbx_error){ 0 };
                return 0;
        }
        cd[strcspn(cd, "\r\n")] = '\0';
        if (cd[0] != '/' && !join(path, sizeof(path), gitdir, cd))
                return 0;
        if (caller->open(caller, cd[0] == '/' ? cd : path, O_PATH | O_DIRECTORY, SBX_ACCESS_READ, &fd, e) < 0 ||
            sbx_fd_path(fd, common, PATH_MAX, path, e) < 0) {
                *e = (struct sbx_error){ 0 };
                snprintf(common, PATH_MAX, "%s", gitdir);
        }
        return 0;
}

/* The repository @pl lies in, when its top is above @pl (the workspace is a
 * subdirectory of a project): its submodules and hook directories in @pl. */
static int guard_enclosing(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, struct sbx_error *e)
{
        char top[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX];
        struct sbx_error soft = { 0 };
        char *slash;

        snprintf(top, sizeof(top), "%s", pl->host);
        while ((slash = strrchr(top, '/'))) {
                struct repo rp = { .top = top, .gitdir = gitdir, .common = common };

                if (slash == top) {
                        if (!top[1])
                                return 0;
                        top[1] = '\0';
                } else {
                        *slash = '\0';
                }
                if (repo_at(caller, top, gitdir, common, &soft) == 0)
                        return guard_repo(pr, caller, pl, &rp, false, false, e);
                soft = (struct sbx_error){ 0 };
                if (strcmp(top, "/") == 0)
                        return 0;
        }
        return 0;
}

/* Repositories already inside @pl, below its top: the host's git reads each when it
 * runs there, so each .git is read-only too, with what its config places in @pl.
 * Looked for NESTED_DEPTH levels down; a directory named like a dependency or build
 * tree is itself looked at, never below (git does not run there); what a jail makes
 * anew in a subdirectory is doc/THREATS.md's.  An earlier jail could fill the
 * workspace with directories: beyond NESTED_MAX of them the run is refused, never
 * run with repositories the search did not reach. */
#define NESTED_DEPTH 3
#define NESTED_MAX 100000 /* directories looked at, at most */

static bool not_searched(const char *name)
{
        static const char *const skip[] = { "node_modules", ".venv", "venv", "__pycache__", "target", ".cache",
                                            ".tox", ".gradle", ".m2", "dist", "build", NULL };

        for (size_t i = 0; skip[i]; i++)
                if (strcmp(name, skip[i]) == 0)
                        return true;
        return false;
}

static bool is_dir_entry(DIR *d, const struct dirent *de)
{
        struct stat st;

        if (de->d_type != DT_UNKNOWN)
                return de->d_type == DT_DIR;
        /* File systems that do not fill d_type (some network and older ones). */
        return fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

static bool is_symlink(struct sbx_caller *caller, const char *path)
{
        _cleanup_close_ int fd = -1;
        struct sbx_error soft = { 0 };
        struct stat st;

        return caller->open(caller, path, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &soft) >= 0 && fstat(fd, &st) == 0 &&
               S_ISLNK(st.st_mode);
}

static int guard_nested_in(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, const char *dir,
                           unsigned depth, size_t *seen, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct sbx_error soft = { 0 };
        struct dirent *de;
        DIR *d;
        int r = 0;

        if (caller->open(caller, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &soft) < 0 || !(d = fdopendir(fd)))
                return 0; /* what the caller cannot list, its git cannot run in either */
        fd = -1;
        while (r >= 0 && (de = readdir(d))) {
                char sub[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX], dotgit[PATH_MAX];
                struct repo rp = { .top = sub, .gitdir = gitdir, .common = common };
                const char *rel;

                if (de->d_name[0] == '\0' || strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
                    strcmp(de->d_name, ".git") == 0 || !is_dir_entry(d, de) || !join(sub, sizeof(sub), dir, de->d_name) ||
                    !join(dotgit, sizeof(dotgit), sub, ".git"))
                        continue;
                if (++*seen > NESTED_MAX) {
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, E2BIG, "", pl->host,
                                          "'%s' holds more than %d directories in its top %d levels: sbx cannot look "
                                          "through them all for git repositories, whose .git it keeps read-only; remove "
                                          "directories the project does not need (an earlier run may have made them), or "
                                          "choose a smaller workspace",
                                          pl->host, NESTED_MAX, NESTED_DEPTH);
                        break;
                }
                if (repo_at(caller, sub, gitdir, common, &soft) == 0 && (rel = below(pl, dotgit))) {
                        if ((r = guard(pr, caller, pl, rel, e)) >= 0)
                                r = guard_repo(pr, caller, pl, &rp, false, false, e);
                } else if (is_symlink(caller, dotgit) && (rel = below(pl, dotgit))) {
                        /* the host's git follows it (to a git directory the jail may
                         * write): refused, with why, as at the top */
                        r = guard(pr, caller, pl, rel, e);
                } else if (depth + 1 < NESTED_DEPTH && !not_searched(de->d_name)) {
                        r = guard_nested_in(pr, caller, pl, sub, depth + 1, seen, e);
                }
                soft = (struct sbx_error){ 0 };
        }
        closedir(d);
        return r;
}

/* The writable place @pl, as the host's git finds it: the .git at its top read-only
 * (protect), or the commit mode's private tops (the workspace under `filesystem.git:
 * commit`); made, empty, where there is none, so that the jail cannot make one.  Then
 * what that repository, one enclosing @pl and ones nested in it place in @pl.  In
 * protect mode a repository the host's git could not read either (a broken .git file,
 * config or index) is no reason to refuse the run: there is nothing of it git would
 * run. */
static int guard_place(struct sbx_profile *pr, struct sbx_caller *caller, const struct place *pl, bool workspace,
                       struct sbx_error *e)
{
        bool commit = workspace && pr->gitstate.mode == SBX_GIT_COMMIT;
        char dotgit[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX];
        struct repo rp = { .top = pl->host, .gitdir = gitdir, .common = common };
        _cleanup_close_ int fd = -1;
        struct sbx_error soft = { 0 };
        size_t seen = 0;
        struct stat st;
        int r;

        if ((r = guard_host_config(pr, caller, pl, pl->host, e)) < 0 || (r = guard_enclosing(pr, caller, pl, e)) < 0 ||
            (r = guard_nested_in(pr, caller, pl, pl->host, 0, &seen, e)) < 0)
                return r;
        if (!join(dotgit, sizeof(dotgit), pl->host, ".git"))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", pl->host, "path too long");
        r = caller->open(caller, dotgit, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &soft);
        soft = (struct sbx_error){ 0 };
        /* What is not a directory or a .git file (missing, a symlink) is guard()'s; and
         * with no git directory git would use there, the top itself must not become
         * one: git takes a directory holding HEAD, objects/ and refs/ for a bare
         * repository (safe.bareRepository is "all" by default), so HEAD is held too. */
        if (r < 0 || fstat(fd, &st) < 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) || !usable_gitdir(caller, dotgit, &st))
                return (r = guard(pr, caller, pl, ".git", e)) < 0 ? r : guard(pr, caller, pl, "HEAD", e);
        /* A directory stays the host's, read-only, unless commit mode replaces it; a
         * .git file (a linked worktree's) is the host's, read-only, always. */
        if ((!commit || S_ISREG(st.st_mode)) && (r = guard(pr, caller, pl, ".git", e)) < 0)
                return r;
        if (S_ISDIR(st.st_mode)) {
                snprintf(gitdir, sizeof(gitdir), "%s", dotgit);
                snprintf(common, sizeof(common), "%s", dotgit);
        } else if ((r = commit ? linked(caller, pl->host, gitdir, common, e) : repo_at(caller, pl->host, gitdir, common, &soft)) < 0) {
                return commit ? r : 0;
        }
        if ((r = guard_repo(pr, caller, pl, &rp, commit, workspace, e)) < 0)
                return r;
        return commit ? sbx_git_commit_prepare(pr, caller, gitdir, common, e) : 0;
}

/* The mount nearest above @dest in @p, or NULL. */
static const struct sbx_mount *mount_above(const struct sbx_plan *p, const char *dest)
{
        const struct sbx_mount *up = NULL;

        for (size_t i = 0; i < p->n_mounts; i++)
                if (strcmp(p->mounts[i].dest, dest) != 0 && at_or_below(dest, p->mounts[i].dest) &&
                    (!up || strlen(p->mounts[i].dest) > strlen(up->dest)))
                        up = &p->mounts[i];
        return up;
}

/* Read-only wins, whatever the order the binds were made in.  guard() mounts each
 * directory on the way to a protected one onto itself, read-write, to pin it; such a
 * directory may be found later to be a .git itself (a repository and its linked
 * worktree side by side in a workspace meet the repository's .git first as the
 * worktree's common directory, on the way to its worktrees/NAME), or a read-only bind
 * may already stand above it.  A pinning bind below a read-only one would make
 * writable again what that one protects, so it is read-only too: up through the
 * pinning binds above it, the first other mount decides.  A commit mode top (a state
 * tmpfs) is the designed writable place, and so is the workspace. */
static void git_read_only_below(struct sbx_plan *p)
{
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *up = &p->mounts[i];

                if (!up->git || up->kind != SBX_MOUNT_RW)
                        continue;
                do
                        up = mount_above(p, up->dest);
                while (up && up->git && up->kind == SBX_MOUNT_RW);
                if (up && up->kind == SBX_MOUNT_RO)
                        p->mounts[i].kind = SBX_MOUNT_RO;
        }
}

int sbx_git_prepare(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_error *e)
{
        struct sbx_plan *p = &pr->plan;
        size_t n = p->n_mounts;
        int r;

        pr->gitstate.mode = pr->git;
        pr->gitstate.hash_len = 20;
        if (p->workspace_mode == SBX_WS_RW && p->workspace) {
                struct place pl = { .host = p->workspace, .jail = p->workspace };

                if ((r = guard_place(pr, caller, &pl, true, e)) < 0)
                        return r;
        }
        /* The top of every read-write bind that is a directory. */
        for (size_t i = 0; i < n; i++) {
                _cleanup_free_ char *src = NULL, *dest = NULL;
                _cleanup_close_ int fd = -1;
                struct sbx_error ignored = { 0 };
                struct stat st;

                if (p->mounts[i].kind != SBX_MOUNT_RW || p->mounts[i].system)
                        continue;
                /* Copies: the plan's mounts move as this adds to them. */
                if (!(src = strdup(p->mounts[i].source)) || !(dest = strdup(p->mounts[i].dest)))
                        return oom(e);
                /* What does not open is validation's to report. */
                if (caller->open(caller, src, O_PATH, SBX_ACCESS_NONE, &fd, &ignored) < 0 || fstat(fd, &st) < 0 ||
                    !S_ISDIR(st.st_mode))
                        continue;
                char real[PATH_MAX];

                if (sbx_fd_path(fd, real, sizeof(real), src, &ignored) < 0)
                        continue;
                struct place pl = { .host = real, .jail = dest };

                if ((r = guard_place(pr, caller, &pl, false, e)) < 0)
                        return r;
        }
        git_read_only_below(p);
        return 0;
}

/* What the jail may have left in the host's refs/ and logs/ that git would write or
 * block through (a symlink: git appends to a reflog through it; a FIFO): removed,
 * and said.  A tree the sweep could not finish is said too, loudly. */
static void sweep(struct sbx_git *g, struct sbx_caller *caller)
{
        for (size_t i = 0; i < g->n_sweep; i++) {
                struct sbx_error e = { 0 };
                char found[PATH_MAX] = "";
                int r = caller->strays(caller, g->sweep[i], true, found, sizeof(found), &e);

                if (r > 0)
                        sbx_git_note(g, "git: removed %d symlink(s) or other non-files the jail left under '%s' (first: '%s')", r,
                                     g->sweep[i], found);
                else if (r < 0)
                        sbx_git_note(g, "git: WARNING: could not check all of '%s' for symlinks the jail may have left: %s; "
                                        "check it before running git there (find '%s' ! -type f ! -type d)", g->sweep[i], e.msg,
                                     g->sweep[i]);
        }
}

void sbx_git_finish(struct sbx_profile *pr, struct sbx_caller *caller, struct sbx_result *res)
{
        struct sbx_git *g = &pr->gitstate;

        if (g->finished)
                return;
        g->finished = true;
        if (g->n_roots && res)
                sbx_git_commit_finish(pr, caller, res);
        sweep(g, caller);
        /* The directories held, last first (deepest first): the mount points this
         * run made go, unless another run still holds them. */
        for (size_t i = g->n_held; i-- > 0;) {
                struct sbx_error e = { 0 };

                (void)caller->release(caller, g->held[i].dir, g->held[i].name, g->held[i].fd, g->held[i].made, &e);
                closep(&g->held[i].fd);
        }
        if (res) {
                snprintf(res->notes, sizeof(res->notes), "%s", g->notes);
                for (size_t i = 0; i < SBX_MAX_STATE; i++)
                        if (res->state_fds[i] >= 0) {
                                close(res->state_fds[i]);
                                res->state_fds[i] = -1;
                        }
        }
}

void sbx_git_done(struct sbx_git *g)
{
        for (size_t i = 0; i < g->n_roots; i++) {
                struct sbx_git_root *root = &g->roots[i];

                free(root->dir);
                free(root->files);
                for (size_t j = 0; j < root->n_host_entries; j++)
                        free(root->host_entries[j]);
                free(root->host_entries);
        }
        for (size_t i = 0; i < g->n_held; i++) {
                free(g->held[i].dir);
                free(g->held[i].name);
                closep(&g->held[i].fd);
        }
        free(g->held);
        for (size_t i = 0; i < g->n_sweep; i++)
                free(g->sweep[i]);
        free(g->sweep);
        for (size_t i = 0; i < g->n_gitlinks; i++)
                free(g->gitlinks[i]);
        free(g->gitlinks);
        *g = (struct sbx_git){ 0 };
}
