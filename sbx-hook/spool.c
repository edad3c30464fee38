/* SPDX-License-Identifier: MIT */
/* Runs on the host, as the caller, in the harness's hooks and in its shell prefix:
 * every path is taken relative to the spool's directory fd, never followed through a
 * symlink, and every entry read must be a regular file of the caller's. */
#include "spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/hash.h"
#include "hook.h"

#define ENTRY_MAX (HOOK_MAX_INPUT + 256 + PATH_MAX)

static int said(char *why, size_t size, int err, const char *what, const char *path)
{
        snprintf(why, size, "cannot %s the spool '%s': %s", what, path, strerror(err));
        return -err;
}

/* ------------------------------------------------------------------ where it is */

struct walk {
        struct spool_chain *chain; /* every directory passed through, or NULL */
        char at[PATH_MAX];         /* where the walk is, resolved: for messages */
        bool open;                 /* the directory at @at is writable by others (sticky) */
};

static int unsafe(char *why, size_t size, int err, const char *path, const char *what)
{
        snprintf(why, size, "the spool's way '%s' %s", path, what);
        return -err;
}

/* The directory @fd, just entered at @w->at: root's or the caller's, and one that
 * others may write only when sticky (they cannot then move what is not theirs). */
static int enter(int fd, struct walk *w, char *why, size_t size)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return said(why, size, errno, "examine", w->at);
        if (st.st_uid != 0 && st.st_uid != getuid())
                return unsafe(why, size, EPERM, w->at, "is another user's directory");
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
                return unsafe(why, size, EPERM, w->at, "is writable by its group or others");
        w->open = st.st_mode & (S_IWGRP | S_IWOTH);
        if (w->chain) {
                if (w->chain->n >= SPOOL_CHAIN_MAX)
                        return unsafe(why, size, ELOOP, w->at, "is too deep");
                w->chain->dev[w->chain->n] = st.st_dev;
                w->chain->ino[w->chain->n++] = st.st_ino;
        }
        return 0;
}

static void at_push(struct walk *w, const char *name)
{
        size_t n = strlen(w->at);

        if (strcmp(name, "..") == 0) {
                char *slash = strrchr(w->at, '/');

                if (slash)
                        *(slash == w->at ? slash + 1 : slash) = '\0';
                return;
        }
        snprintf(w->at + n, sizeof(w->at) - n, "%s%s", n > 1 ? "/" : "", name);
}

/* The absolute @path as a directory fd, resolved one component at a time from "/"
 * through directories no other user can change (enter()): a symbolic link is
 * followed only out of such a directory (or, in a sticky one, only a link of the
 * caller's or root's), nothing of another user's is passed through in a directory
 * others may write, and a missing component is made (0700, @create) only where no
 * one else may write.  So no other user can plant, swap or remove anything on the
 * way.  -errno with @why. */
static int walk(const char *path, bool create, struct walk *w, char *why, size_t size)
{
        char rest[PATH_MAX], next[PATH_MAX], link[PATH_MAX], name[NAME_MAX + 1];
        const char *p = rest;
        int fd, links = 0, r;

        if (path[0] != '/' || (size_t)snprintf(rest, sizeof(rest), "%s", path) >= sizeof(rest))
                return unsafe(why, size, EINVAL, path, "is not an absolute path of up to 4095 bytes");
        snprintf(w->at, sizeof(w->at), "/");
        if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
                return said(why, size, errno, "open", "/");
        if ((r = enter(fd, w, why, size)) < 0)
                goto fail;
        for (;;) {
                struct stat st;
                size_t len;
                ssize_t n;
                int nfd;

                p += strspn(p, "/");
                if (!*p)
                        return fd;
                if ((len = strcspn(p, "/")) > NAME_MAX) {
                        r = unsafe(why, size, ENAMETOOLONG, path, "has a name over 255 bytes");
                        goto fail;
                }
                memcpy(name, p, len);
                name[len] = '\0';
                p += len;
                if (strcmp(name, ".") == 0)
                        continue;
                if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        at_push(w, name);
                        if (errno != ENOENT || !create) {
                                r = said(why, size, errno, "find", w->at);
                                goto fail;
                        }
                        /* Made where someone else may also make it: theirs, a block. */
                        if (w->open) {
                                r = unsafe(why, size, EPERM, w->at, "would be made in a directory others may write");
                                goto fail;
                        }
                        if ((mkdirat(fd, name, 0700) < 0 && errno != EEXIST) || fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                                r = said(why, size, errno, "make", w->at);
                                goto fail;
                        }
                        at_push(w, "..");
                }
                if (w->open && st.st_uid != 0 && st.st_uid != getuid() && strcmp(name, "..") != 0) {
                        at_push(w, name);
                        r = unsafe(why, size, EPERM, w->at, "is another user's, in a directory others may write");
                        goto fail;
                }
                if (S_ISLNK(st.st_mode)) {
                        if (++links > 40 || (n = readlinkat(fd, name, link, sizeof(link) - 1)) <= 0) {
                                at_push(w, name);
                                r = unsafe(why, size, ELOOP, w->at, "is a symbolic link that does not resolve");
                                goto fail;
                        }
                        link[n] = '\0';
                        if ((size_t)snprintf(next, sizeof(next), "%s/%s", link, p) >= sizeof(next)) {
                                r = unsafe(why, size, ENAMETOOLONG, path, "resolves to a path over 4095 bytes");
                                goto fail;
                        }
                        memcpy(rest, next, sizeof(rest));
                        p = rest;
                        if (link[0] == '/') {
                                close(fd);
                                snprintf(w->at, sizeof(w->at), "/");
                                if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
                                        return said(why, size, errno, "open", "/");
                                if ((r = enter(fd, w, why, size)) < 0)
                                        goto fail;
                        }
                        continue;
                }
                at_push(w, name);
                if (!S_ISDIR(st.st_mode)) {
                        r = unsafe(why, size, ENOTDIR, w->at, "is not a directory");
                        goto fail;
                }
                if ((nfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
                        r = said(why, size, errno, "open", w->at);
                        goto fail;
                }
                close(fd);
                fd = nfd;
                if ((r = enter(fd, w, why, size)) < 0)
                        goto fail;
        }
fail:
        close(fd);
        return r;
}

/* The directory of the caller's that no one else may enter: the spool itself, and
 * the runtime directory it is made in. */
static bool private_dir(int fd)
{
        struct stat st;

        return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() && !(st.st_mode & 0077);
}

/* The cache directory: $XDG_CACHE_HOME, else ~/.cache with ~ the home of the user
 * database (not $HOME: sudo keeps another user's). */
static bool cache_dir(char *buf, size_t size)
{
        const char *xdg = getenv("XDG_CACHE_HOME");
        const struct passwd *pw;

        if (xdg && xdg[0] == '/')
                return (size_t)snprintf(buf, size, "%s", xdg) < size;
        pw = getpwuid(getuid());
        return pw && pw->pw_dir && pw->pw_dir[0] == '/' && (size_t)snprintf(buf, size, "%s/.cache", pw->pw_dir) < size;
}

/* The spool's base, per the rule in spool.h: $XDG_RUNTIME_DIR when it is a private
 * directory of the caller's on a way no one else can change, else the cache directory
 * (made where missing).  Both the hooks and the prefix come here. */
static int locate(bool create, struct spool_chain *chain, char *path, size_t path_size, char *why, size_t size)
{
        const char *xdg = getenv("XDG_RUNTIME_DIR");
        char cache[PATH_MAX];
        struct walk w = { .chain = chain };
        int base, fd;

        if (xdg && xdg[0] == '/' && (base = walk(xdg, false, &w, why, size)) >= 0) {
                if (private_dir(base))
                        goto found;
                close(base);
        }
        if (!cache_dir(cache, sizeof(cache))) {
                snprintf(why, size, "no spool: no XDG_RUNTIME_DIR of yours, and no home directory in the user database");
                return -ENOENT;
        }
        if ((base = walk(cache, create, &w, why, size)) < 0)
                return base;
found:
        if ((size_t)snprintf(path, path_size, "%s%ssbx-hook", w.at, strcmp(w.at, "/") ? "/" : "") >= path_size) {
                close(base);
                return unsafe(why, size, ENAMETOOLONG, w.at, "is too long to hold the spool");
        }
        if (create && mkdirat(base, "sbx-hook", 0700) < 0 && errno != EEXIST) {
                close(base);
                return said(why, size, errno, "make", path);
        }
        fd = openat(base, "sbx-hook", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(base);
        if (fd < 0)
                return said(why, size, errno, "open", path);
        if (chain) {
                struct stat st;

                if (fstat(fd, &st) == 0 && chain->n < SPOOL_CHAIN_MAX) {
                        chain->dev[chain->n] = st.st_dev;
                        chain->ino[chain->n++] = st.st_ino;
                }
        }
        if (!private_dir(fd)) {
                close(fd);
                snprintf(why, size, "the spool '%s' is not a directory of yours that only you may enter (remove it)", path);
                return -EPERM;
        }
        return fd;
}

int spool_open(char *why, size_t size)
{
        char path[PATH_MAX];

        return locate(true, NULL, path, sizeof(path), why, size);
}

int spool_check_workspace(const char *workspace, char *why, size_t size)
{
        struct spool_chain chain = { 0 };
        char path[PATH_MAX] = "", ignored[512];
        struct stat ws;
        int fd;

        if (stat(workspace, &ws) < 0)
                return 0; /* sbx-run names what is wrong with it */
        /* Found or not: every directory the rule passed through counts, since one in
         * the workspace could be changed to turn the rule another way. */
        if ((fd = locate(false, &chain, path, sizeof(path), ignored, sizeof(ignored))) >= 0)
                close(fd);
        for (size_t i = 0; i < chain.n; i++)
                if (chain.dev[i] == ws.st_dev && chain.ino[i] == ws.st_ino) {
                        snprintf(why, size,
                                 "the workspace '%s' holds the way to sbx-hook's spool%s%s%s, which a jailed command could "
                                 "then forge (run the harness in a project directory, or set XDG_RUNTIME_DIR)",
                                 workspace, path[0] ? " ('" : "", path, path[0] ? "')" : "");
                        return -EPERM;
                }
        return 0;
}

/* An index into the spool, not a proof (the command itself is compared). */
static uint64_t hash(const char *s)
{
        return sbx_fnv1a(SBX_FNV1A_INIT, s, strlen(s));
}

/* Drops the entries older than SPOOL_MAX_AGE_S; the number left, or -errno. */
static int prune(int dir)
{
        int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        const struct dirent *de;
        time_t now = time(NULL);
        int n = 0;

        if (!d) {
                if (fd >= 0)
                        close(fd);
                return -errno;
        }
        while ((de = readdir(d))) {
                struct stat st;

                if ((de->d_name[0] != 'p' && de->d_name[0] != 't') || de->d_name[1] != '-' ||
                    fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (now - st.st_mtime > SPOOL_MAX_AGE_S)
                        (void)unlinkat(dir, de->d_name, 0);
                else
                        n++;
        }
        closedir(d);
        return n;
}

int spool_announce(int dir, const char *command, const char *tool_use_id, const char *session_id, const char *cwd)
{
        char name[64 + 160], tmp[sizeof(name) + 8];
        FILE *f;
        int fd, n, r = 0;

        if (cwd[0] != '/' || strchr(cwd, '\n') || strlen(cwd) >= PATH_MAX)
                return -EINVAL;
        if ((n = prune(dir)) < 0)
                return n;
        if (n >= SPOOL_MAX_ENTRIES)
                return -ENOSPC;
        snprintf(name, sizeof(name), "p-%016llx-%s", (unsigned long long)hash(command), tool_use_id);
        snprintf(tmp, sizeof(tmp), ".%s", name);
        /* Written aside, then renamed: the prefix never reads half an entry. */
        (void)unlinkat(dir, tmp, 0);
        if ((fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
                return -errno;
        if (!(f = fdopen(fd, "w"))) {
                r = -errno;
                close(fd);
                (void)unlinkat(dir, tmp, 0);
                return r;
        }
        if (fprintf(f, "%s\n%s\n%s", session_id ? session_id : "", cwd, command) < 0)
                r = -EIO;
        if (fclose(f) != 0 && r == 0)
                r = -errno;
        if (r == 0 && renameat(dir, tmp, dir, name) < 0)
                r = -errno;
        if (r < 0)
                (void)unlinkat(dir, tmp, 0);
        return r;
}

/* @name's session id and command, when it is a regular file of the caller's. */
static char *read_entry(int dir, const char *name, struct stat *st)
{
        _cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        char *buf;
        ssize_t n;

        if (fd < 0 || fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_uid != getuid() || (size_t)st->st_size > ENTRY_MAX)
                return NULL;
        if (!(buf = malloc((size_t)st->st_size + 1)))
                return NULL;
        n = read(fd, buf, (size_t)st->st_size);
        if (n != st->st_size) {
                free(buf);
                return NULL;
        }
        buf[n] = '\0';
        return buf;
}

static bool newer(const struct stat *a, const struct stat *b)
{
        return a->st_mtim.tv_sec != b->st_mtim.tv_sec ? a->st_mtim.tv_sec > b->st_mtim.tv_sec
                                                      : a->st_mtim.tv_nsec > b->st_mtim.tv_nsec;
}

/* The newest entry announced for @command: its name in @best, its session in @session,
 * its cwd in @cwd. */
static bool find(int dir, const char *command, char *best, size_t size, char *session, size_t session_size, char *cwd,
                 size_t cwd_size)
{
        int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        const struct dirent *de;
        struct stat st, best_st = { 0 };
        char prefix[32];
        bool found = false;

        if (!d) {
                if (fd >= 0)
                        close(fd);
                return false;
        }
        snprintf(prefix, sizeof(prefix), "p-%016llx-", (unsigned long long)hash(command));
        while ((de = readdir(d))) {
                _cleanup_free_ char *e = NULL;
                const char *nl, *nl2;

                if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 || !(e = read_entry(dir, de->d_name, &st)) ||
                    !(nl = strchr(e, '\n')) || !(nl2 = strchr(nl + 1, '\n')) || strcmp(nl2 + 1, command) != 0 ||
                    (found && !newer(&st, &best_st)))
                        continue;
                found = true;
                best_st = st;
                snprintf(best, size, "%s", de->d_name);
                snprintf(session, session_size, "%.*s", (int)(nl - e), e);
                snprintf(cwd, cwd_size, "%.*s", (int)(nl2 - nl - 1), nl + 1);
        }
        closedir(d);
        return found;
}

int spool_take(int dir, const char *command, char *tool_use_id, size_t id_size, char *session_id, size_t session_size,
               char *cwd, size_t cwd_size)
{
        char name[256], taken[256];

        /* Two prefixes may race for one entry (two calls of one command at once): the
         * rename decides, and the loser looks again. */
        for (int tries = 0; tries < 16; tries++) {
                if (!find(dir, command, name, sizeof(name), session_id, session_size, cwd, cwd_size))
                        return 0;
                /* p-HASH-ID: the id follows the hash's dash. */
                snprintf(tool_use_id, id_size, "%s", name + 2 + 16 + 1);
                snprintf(taken, sizeof(taken), "t-%s", tool_use_id);
                if (renameat(dir, name, dir, taken) == 0)
                        return 1;
                if (errno != ENOENT)
                        return -errno;
        }
        return 0;
}

enum spool_state spool_settle(int dir, const char *tool_use_id)
{
        char name[256], suffix[160];
        int fd;
        DIR *d;
        const struct dirent *de;
        enum spool_state s = SPOOL_UNKNOWN;

        snprintf(name, sizeof(name), "t-%s", tool_use_id);
        if (unlinkat(dir, name, 0) == 0)
                return SPOOL_TAKEN;
        snprintf(suffix, sizeof(suffix), "-%s", tool_use_id);
        if ((fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
                return s;
        if (!(d = fdopendir(fd))) {
                close(fd);
                return s;
        }
        while ((de = readdir(d))) {
                size_t n = strlen(de->d_name);

                /* p-HASH-ID: 2 + 16 characters before the id's dash. */
                if (strncmp(de->d_name, "p-", 2) == 0 && n == 2 + 16 + strlen(suffix) &&
                    strcmp(de->d_name + 2 + 16, suffix) == 0 && unlinkat(dir, de->d_name, 0) == 0)
                        s = SPOOL_PENDING;
        }
        closedir(d);
        return s;
}

char *spool_unquote_word(const char *s)
{
        char *out = malloc(strlen(s) + 1), *o = out;

        if (!out)
                return NULL;
        while (*s && *s != ' ') {
                if (*s == '\'') {
                        const char *end = strchr(s + 1, '\'');

                        if (!end)
                                break;
                        memcpy(o, s + 1, (size_t)(end - s - 1));
                        o += end - s - 1;
                        s = end + 1;
                } else if (*s == '\\' && s[1]) {
                        *o++ = s[1];
                        s += 2;
                } else {
                        break;
                }
        }
        if (*s && *s != ' ') {
                free(out);
                return NULL;
        }
        *o = '\0';
        return out;
}

char *spool_composite_command(const char *composite)
{
        static const char *const heads[] = { " && ", " 2>/dev/null || true && " };
        const char *s = composite;

        /* source SNAPSHOT && …: the snapshot's path is one word of plain characters. */
        if (strncmp(s, "source ", 7) == 0) {
                const char *after = s + 7 + strcspn(s + 7, " ");

                s = NULL;
                for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]) && !s; i++)
                        if (strncmp(after, heads[i], strlen(heads[i])) == 0)
                                s = after + strlen(heads[i]);
                if (!s)
                        return NULL;
        }
        if (strncmp(s, "eval ", 5) != 0)
                return NULL;
        return spool_unquote_word(s + 5);
}
