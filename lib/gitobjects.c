/* SPDX-License-Identifier: MIT */
#include "gitobjects.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "cleanup.h"

#define MAX_DEPTH 16 /* of a tree the jail left where git keeps no tree */

/* ---- one loose object ------------------------------------------------------------ */

struct hasher {
        size_t len;
        struct sha1_ctx sha1;
        struct sha256_ctx sha256;
};

static void hash_update(struct hasher *h, const uint8_t *p, size_t n)
{
        if (h->len == SHA1_DIGEST_SIZE)
                sha1_update(&h->sha1, n, p);
        else
                sha256_update(&h->sha256, n, p);
}

/* "<type> <size>": one of git's four types, a decimal size without leading zeros. */
static bool parse_header(const char *h, uint64_t max, uint64_t *size)
{
        static const char *const types[] = { "blob", "tree", "commit", "tag" };
        const char *sp = strchr(h, ' '), *d;
        bool known = false;
        uint64_t n = 0;

        if (!sp)
                return false;
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
                known |= strlen(types[i]) == (size_t)(sp - h) && strncmp(h, types[i], (size_t)(sp - h)) == 0;
        d = sp + 1;
        if (!known || !*d || (d[0] == '0' && d[1]) || strlen(d) > 11)
                return false;
        for (; *d; d++) {
                if (*d < '0' || *d > '9')
                        return false;
                n = n * 10 + (uint64_t)(*d - '0');
        }
        *size = n;
        return n <= max;
}

struct loose {
        struct hasher h;
        char header[32];
        size_t header_len;
        bool in_header;
        uint64_t max, declared, body;
};

/* What inflate produced: hashed whole; the header taken off its front. */
static bool consume(struct loose *l, const uint8_t *p, size_t n)
{
        hash_update(&l->h, p, n);
        while (l->in_header && n) {
                if (*p == '\0') {
                        l->header[l->header_len] = '\0';
                        l->in_header = false;
                        if (!parse_header(l->header, l->max, &l->declared))
                                return false;
                } else if (l->header_len + 1 >= sizeof(l->header)) {
                        return false;
                } else {
                        l->header[l->header_len++] = (char)*p;
                }
                p++;
                n--;
        }
        l->body += n;
        return l->body <= l->declared;
}

static int bad(char *why, size_t size, const char *what)
{
        snprintf(why, size, "%s", what);
        return -EBADMSG;
}

int sbx_loose_object_check(const uint8_t *data, size_t len, size_t hash_len, uint64_t max, uint64_t *inflated, uint8_t *digest,
                           char *why, size_t size)
{
        static uint8_t out[64 * 1024];
        struct loose l = { .h.len = hash_len, .in_header = true, .max = max };
        z_stream z = { 0 };
        size_t fed = 0;
        int zr;

        if (hash_len != SHA1_DIGEST_SIZE && hash_len != SHA256_DIGEST_SIZE)
                return bad(why, size, "unknown hash");
        if (hash_len == SHA1_DIGEST_SIZE)
                sha1_init(&l.h.sha1);
        else
                sha256_init(&l.h.sha256);
        if (inflateInit(&z) != Z_OK)
                return bad(why, size, "cannot start zlib");
        do {
                if (z.avail_in == 0 && fed < len) {
                        size_t chunk = len - fed > (1u << 30) ? (1u << 30) : len - fed;

                        z.next_in = (Bytef *)(uintptr_t)(data + fed);
                        z.avail_in = (uInt)chunk;
                        fed += chunk;
                }
                z.next_out = out;
                z.avail_out = sizeof(out);
                zr = inflate(&z, Z_NO_FLUSH);
                if (zr != Z_OK && zr != Z_STREAM_END) {
                        inflateEnd(&z);
                        return bad(why, size, zr == Z_BUF_ERROR ? "the zlib stream is cut short" : "not a zlib stream");
                }
                *inflated += sizeof(out) - z.avail_out;
                if (!consume(&l, out, sizeof(out) - z.avail_out)) {
                        inflateEnd(&z);
                        return bad(why, size, l.in_header ? "not an object header, or larger than sbx checks" : "more content than its header says");
                }
        } while (zr != Z_STREAM_END);
        inflateEnd(&z);
        if (z.avail_in || fed < len)
                return bad(why, size, "data after the zlib stream");
        if (l.in_header || l.body != l.declared)
                return bad(why, size, "less content than its header says");
        if (hash_len == SHA1_DIGEST_SIZE)
                sha1_digest(&l.h.sha1, SHA1_DIGEST_SIZE, digest);
        else
                sha256_digest(&l.h.sha256, SHA256_DIGEST_SIZE, digest);
        return 0;
}

/* ---- the store -------------------------------------------------------------------- */

struct inode {
        dev_t dev;
        ino_t ino;
};

struct walk {
        int64_t since;
        size_t hash_len;
        const char *shown;
        int removed;
        char *found;
        size_t size;
        uint64_t inflated;     /* against SBX_OBJECTS_INFLATE_BUDGET */
        struct inode *linked;  /* changed objects with several names, seen once */
        size_t n_linked;
        int error;             /* the first thing the walk could not do */
};

/* The walk goes on past a failure; the first one is what it returns. */
static int failed(struct walk *w, int r)
{
        if (r < 0 && w->error == 0)
                w->error = r;
        return 0;
}

/* An inode with several names: true the second time it is met. */
static bool seen_linked(struct walk *w, const struct stat *st)
{
        struct inode *v;

        for (size_t i = 0; i < w->n_linked; i++)
                if (w->linked[i].dev == st->st_dev && w->linked[i].ino == st->st_ino)
                        return true;
        if ((v = reallocarray(w->linked, w->n_linked + 1, sizeof(*v)))) {
                w->linked = v;
                v[w->n_linked++] = (struct inode){ st->st_dev, st->st_ino };
        }
        return false;
}

static bool changed(const struct walk *w, const struct stat *st)
{
        return (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec >= w->since;
}

static bool is_hex(const char *s, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
                        return false;
        return s[n] == '\0';
}

/* A directory the jail left, opened without following; one it made unreadable is made
 * readable first (what the jail made is the caller's). */
static int open_dir(int at, const char *name)
{
        int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

        if (fd < 0 && errno == EACCES && fchmodat(at, name, 0755, AT_SYMLINK_NOFOLLOW) == 0)
                fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        return fd;
}

/* unlinkat(), in a directory the jail may have made read-only. */
static int unlink_in(int at, const char *name, int flags)
{
        struct stat st;

        if (unlinkat(at, name, flags) == 0 || errno == ENOENT)
                return 0;
        if (errno != EACCES || fstat(at, &st) < 0 || fchmod(at, (st.st_mode & 07777) | 0700) < 0 || unlinkat(at, name, flags) < 0)
                return errno == ENOENT ? 0 : -errno;
        return 0;
}

/* @name in @at, and everything below it, without following anything. */
static int remove_tree(int at, const char *name, int depth)
{
        struct stat st;
        DIR *d;
        struct dirent *de;
        int fd, r = 0;

        if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (!S_ISDIR(st.st_mode))
                return unlink_in(at, name, 0);
        /* git reads no directory below objects/xx or pack: one left too deep to remove
         * is harmless, and said. */
        if (depth > MAX_DEPTH)
                return -ELOOP;
        if ((fd = open_dir(at, name)) < 0)
                return -errno;
        if (!(d = fdopendir(fd))) {
                r = -errno;
                close(fd);
                return r;
        }
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
                        int k = remove_tree(dirfd(d), de->d_name, depth + 1);

                        r = r < 0 ? r : k;
                }
        closedir(d);
        return r < 0 ? r : unlink_in(at, name, AT_REMOVEDIR);
}

static int drop(struct walk *w, int at, const char *dir, const char *name, const char *why)
{
        if (w->removed++ == 0)
                snprintf(w->found, w->size, "%s/%s%s%s: %s", w->shown, dir, *dir ? "/" : "", name, why);
        return failed(w, remove_tree(at, name, 0));
}

/* A verified object with other names too: copied afresh under its own, so that no other
 * name can change it later. */
static int unshare(int at, const char *name, const void *data, size_t len)
{
        char tmp[NAME_MAX + 1];
        _cleanup_close_ int fd = -1;
        const uint8_t *p = data;

        snprintf(tmp, sizeof(tmp), "tmp_sbx_%d", (int)getpid());
        (void)remove_tree(at, tmp, 0);
        fd = openat(at, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
        if (fd < 0)
                return -errno;
        for (size_t done = 0; done < len;) {
                ssize_t n = write(fd, p + done, len - done);

                if (n <= 0) {
                        (void)unlinkat(at, tmp, 0);
                        return n < 0 ? -errno : -EIO;
                }
                done += (size_t)n;
        }
        if (renameat(at, tmp, at, name) < 0) {
                int r = -errno;

                (void)unlinkat(at, tmp, 0);
                return r;
        }
        return 0;
}

static int check_loose(struct walk *w, int at, const char *dir, const char *name)
{
        _cleanup_close_ int fd = -1;
        uint8_t digest[SHA256_DIGEST_SIZE];
        char hex[2 * SHA256_DIGEST_SIZE + 1], why[128];
        uint64_t left = w->inflated < SBX_OBJECTS_INFLATE_BUDGET ? SBX_OBJECTS_INFLATE_BUDGET - w->inflated : 0;
        struct stat st;
        void *map;
        int r;

        if (strlen(name) != 2 * w->hash_len - 2 || !is_hex(name, strlen(name)))
                return drop(w, at, dir, name, "not an object's name");
        fd = openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return drop(w, at, dir, name, "not a regular file git can read");
        if (st.st_size == 0)
                return drop(w, at, dir, name, "empty");
        /* One content has one name: a second name of the same file is not it. */
        if (st.st_nlink > 1 && seen_linked(w, &st))
                return drop(w, at, dir, name, "another name of a file already checked");
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED)
                return drop(w, at, dir, name, "cannot be read");
        r = sbx_loose_object_check(map, (size_t)st.st_size, w->hash_len, left, &w->inflated, digest, why, sizeof(why));
        if (r == 0) {
                for (size_t i = 0; i < w->hash_len; i++)
                        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
                if (strncmp(hex, dir, 2) != 0 || strcmp(hex + 2, name) != 0) {
                        snprintf(why, sizeof(why), "its content is object %s, not the one its name says", hex);
                        r = -EBADMSG;
                }
        }
        if (r == 0 && st.st_nlink > 1)
                r = unshare(at, name, map, (size_t)st.st_size);
        munmap(map, (size_t)st.st_size);
        if (r == -EBADMSG)
                return drop(w, at, dir, name, why);
        if (r < 0) /* not made a file of its own: not kept */
                return drop(w, at, dir, name, "linked elsewhere and cannot be copied");
        return 0;
}

/* The entries of @dir that changed (all of them when @all) through @fn; past any
 * failure. */
static int each_changed(struct walk *w, int parent, const char *dir, bool all,
                        int (*fn)(struct walk *w, int at, const char *dir, const char *name, const struct stat *st, void *u),
                        void *u)
{
        int fd = open_dir(parent, dir);
        struct dirent *de;
        DIR *d;

        if (fd < 0)
                return failed(w, -errno);
        if (!(d = fdopendir(fd))) {
                close(fd);
                return failed(w, -ENOMEM);
        }
        while ((de = readdir(d))) {
                struct stat st;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        failed(w, errno == ENOENT ? 0 : -errno);
                        continue;
                }
                if (all || changed(w, &st))
                        failed(w, fn(w, dirfd(d), dir, de->d_name, &st, u));
        }
        closedir(d);
        return 0;
}

static int loose_entry(struct walk *w, int at, const char *dir, const char *name, const struct stat *st, void *u)
{
        (void)st;
        (void)u;
        return check_loose(w, at, dir, name);
}

static int drop_entry(struct walk *w, int at, const char *dir, const char *name, const struct stat *st, void *u)
{
        (void)st;
        (void)u;
        return drop(w, at, dir, name, "written by the jail where git keeps derived or pointing data");
}

/* ---- packs ------------------------------------------------------------------------ */

struct packs {
        char (*bases)[NAME_MAX + 1];
        size_t n;
};

/* "pack-<hex>.pack" or ".idx": its base in @base. */
static bool pack_file(const struct walk *w, const char *name, char *base)
{
        size_t n = strlen(name), hex = 2 * w->hash_len;
        const char *dot = strrchr(name, '.');

        if (strncmp(name, "pack-", 5) != 0 || !dot || n != 5 + hex + strlen(dot) || (strcmp(dot, ".pack") != 0 && strcmp(dot, ".idx") != 0))
                return false;
        memcpy(base, name, 5 + hex);
        base[5 + hex] = '\0';
        return is_hex(base + 5, hex);
}

static int pack_entry(struct walk *w, int at, const char *dir, const char *name, const struct stat *st, void *u)
{
        struct packs *p = u;
        char base[NAME_MAX + 1];

        if (!S_ISREG(st->st_mode) || !pack_file(w, name, base))
                return drop(w, at, dir, name, "written by the jail and not a pack or its index");
        for (size_t i = 0; i < p->n; i++)
                if (strcmp(p->bases[i], base) == 0)
                        return 0;
        char(*v)[NAME_MAX + 1] = reallocarray(p->bases, p->n + 1, sizeof(*v));

        if (!v) /* what cannot be verified is not kept */
                return drop(w, at, dir, name, "out of memory to verify it");
        p->bases = v;
        snprintf(v[p->n++], sizeof(v[0]), "%s", base);
        return 0;
}

/* git's own check of a pack against its index, as whoever runs this, with no
 * configuration of anyone's and no repository around it. */
static bool pack_verified(int at, const char *base, size_t hash_len)
{
        static const char *const gits[] = { "/usr/bin/git", "/bin/git", "/usr/local/bin/git" };
        char pack[PATH_MAX], format[32];
        int status;
        pid_t pid;

        snprintf(pack, sizeof(pack), "/proc/self/fd/%d/%s.pack", at, base);
        snprintf(format, sizeof(format), "--object-format=%s", hash_len == SHA1_DIGEST_SIZE ? "sha1" : "sha256");
        pid = fork();
        if (pid < 0)
                return false;
        if (pid == 0) {
                char *const argv[] = { "git", "index-pack", "--verify", "--no-rev-index", format, pack, NULL };
                char *const envp[] = { "PATH=/usr/bin:/bin", "HOME=/nonexistent", "GIT_CONFIG_NOSYSTEM=1",
                                       "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES=/", NULL };
                sigset_t none;
                int null = open("/dev/null", O_RDWR | O_CLOEXEC);

                sigemptyset(&none);
                sigprocmask(SIG_SETMASK, &none, NULL);
                if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 || chdir("/") < 0 ||
                    fcntl(at, F_SETFD, 0) < 0)
                        _exit(127);
                for (size_t i = 0; i < sizeof(gits) / sizeof(gits[0]); i++)
                        execve(gits[i], argv, envp);
                _exit(127);
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return false;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int check_packs(struct walk *w, int objects)
{
        _cleanup_close_ int fd = open_dir(objects, "pack");
        struct packs p = { 0 };

        if (fd < 0)
                return failed(w, -errno);
        (void)each_changed(w, objects, "pack", false, pack_entry, &p);
        for (size_t i = 0; i < p.n; i++) {
                char name[NAME_MAX + 1];
                struct stat st;
                bool pair = true;

                for (int k = 0; k < 2; k++) {
                        snprintf(name, sizeof(name), "%s.%s", p.bases[i], k ? "idx" : "pack");
                        pair &= fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
                }
                if (pair && pack_verified(fd, p.bases[i], w->hash_len))
                        continue;
                /* The pair and everything git keeps beside it under that name. */
                for (int k = 0; k < 2; k++) {
                        snprintf(name, sizeof(name), "%s.%s", p.bases[i], k ? "idx" : "pack");
                        (void)drop(w, fd, "pack", name, "a pack git's index-pack --verify does not accept with its index");
                }
        }
        free(p.bases);
        return 0;
}

/* ---- the whole store -------------------------------------------------------------- */

static int top_entry(struct walk *w, int at, const char *dir, const char *name, const struct stat *st, void *u)
{
        (void)dir;
        (void)u;
        if (strlen(name) == 2 && is_hex(name, 2) && S_ISDIR(st->st_mode))
                /* A loose directory renamed from another moves names without touching
                 * them: all its objects are looked at when it changed. */
                return each_changed(w, at, name, changed(w, st), loose_entry, NULL);
        if (strcmp(name, "pack") == 0 && S_ISDIR(st->st_mode))
                return check_packs(w, at);
        if (strcmp(name, "info") == 0 && S_ISDIR(st->st_mode))
                return each_changed(w, at, "info", false, drop_entry, NULL);
        if (changed(w, st))
                return drop(w, at, "", name, "written by the jail and not part of git's object store");
        return 0;
}

int sbx_objects_check(int at, const char *shown, int64_t since_ns, size_t hash_len, char *found, size_t size,
                      struct sbx_error *e)
{
        struct walk w = { .since = since_ns, .hash_len = hash_len, .shown = shown, .found = found, .size = size };

        found[0] = '\0';
        if (hash_len != SHA1_DIGEST_SIZE && hash_len != SHA256_DIGEST_SIZE)
                return sbx_error_set(e, SBX_STAGE_GIT, EINVAL, "", shown, "unknown object hash");
        (void)each_changed(&w, at, ".", true, top_entry, NULL);
        free(w.linked);
        if (w.error < 0)
                return sbx_error_set(e, SBX_STAGE_GIT, -w.error, "", shown,
                                     "could not finish checking the objects the jail could write (%d entr%s dropped; first: %s)",
                                     w.removed, w.removed == 1 ? "y" : "ies", w.removed ? found : "none");
        return w.removed;
}
