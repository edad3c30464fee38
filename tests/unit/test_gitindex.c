/* SPDX-License-Identifier: MIT */
/* sbx_git_index_walk() against the git of this machine: every kind of index git writes
 * (versions 2, 3 and 4, SHA-1 and SHA-256, conflicts and resolve-undo, intent-to-add and
 * skip-worktree, a submodule, long paths, split, sparse, untracked cache, fsmonitor,
 * EOIE and IEOT) must come back entry for entry as `git ls-files -s` prints it; then
 * indexes git never writes, built byte by byte: the ones whose paths git would check out
 * into .git (the walk reads them, sbx_git_path_ok() refuses them), and the malformed ones
 * (each refused, and never a callback before the refusal); then every prefix and many
 * corruptions of real indexes, under ASan. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../policy/gitfmt.h"
#include "gittest.h"
#include "unit.h"

#define G "unit-gitindex"

/* ------------------------------------------------------------------ collecting a walk */

struct text {
        char *s;
        size_t n, cap;
};

static void add(struct text *t, const void *p, size_t n)
{
        if (t->n + n + 1 > t->cap) {
                size_t cap = (t->n + n + 1) * 2;
                char *s = realloc(t->s, cap);

                if (!s)
                        abort();
                t->s = s;
                t->cap = cap;
        }
        memcpy(t->s + t->n, p, n);
        t->n += n;
        t->s[t->n] = '\0';
}

static void addf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(struct text *t, const char *fmt, ...)
{
        char buf[512];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        add(t, buf, n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

struct got {
        size_t hash_len;
        struct text entries; /* as `git ls-files -s -z` prints them */
        struct text exts;    /* "EXT mode stage\tpath\n" */
        size_t calls;
        bool sane;           /* every path NUL-terminated at its length */
        char refused[256];   /* the first path sbx_git_path_ok() refuses, "" if none */
};

static int collect(const struct sbx_git_index_entry *e, void *userdata)
{
        struct got *g = userdata;

        g->calls++;
        if (strlen(e->path) != e->path_len)
                g->sane = false;
        if (!g->refused[0] && !sbx_git_path_ok(e->path, e->path_len, e->mode))
                snprintf(g->refused, sizeof(g->refused), "%s%s%s", e->ext ? e->ext : "", e->ext ? ":" : "",
                         e->path);
        if (e->ext) {
                addf(&g->exts, "%s %06o %u\t", e->ext, e->mode, e->stage);
                add(&g->exts, e->path, e->path_len);
                add(&g->exts, "\n", 1);
                return 0;
        }
        addf(&g->entries, "%06o ", e->mode);
        for (size_t i = 0; i < g->hash_len; i++)
                addf(&g->entries, "%02x", e->oid[i]);
        addf(&g->entries, " %u\t", e->stage);
        add(&g->entries, e->path, e->path_len + 1);
        return 0;
}

static void got_free(struct got *g)
{
        free(g->entries.s);
        free(g->exts.s);
}

static int walk(const uint8_t *b, size_t n, size_t hash_len, struct got *g, struct sbx_git_index_info *info,
                char *why, size_t why_size)
{
        memset(g, 0, sizeof(*g));
        g->hash_len = hash_len;
        g->sane = true;
        return sbx_git_index_walk(b, n, hash_len, collect, g, info, why, why_size);
}

static bool has(const struct text *t, const char *needle)
{
        return t->s && strstr(t->s, needle);
}

/* @needle in the NUL-separated entry list. */
static bool in_entries(const struct got *g, const char *needle)
{
        return g->entries.s && memmem(g->entries.s, g->entries.n, needle, strlen(needle));
}

/* The longest path among the entries. */
static size_t longest(const struct got *g)
{
        size_t max = 0;

        for (size_t i = 0; i < g->entries.n;) {
                const char *e = g->entries.s + i, *tab = strchr(e, '\t');
                size_t len = strlen(e);

                if (tab && strlen(tab + 1) > max)
                        max = strlen(tab + 1);
                i += len + 1;
        }
        return max;
}

/* ------------------------------------------------------------------ real indexes */

/* The index of @repo walked, and compared with `git ls-files -s -z @lsflags`. */
static bool matches_git(const char *label, const char *index_path, const char *repo, size_t hash_len,
                        const char *lsflags, struct sbx_git_index_info *info, struct got *g)
{
        char why[256] = "", name[160];
        size_t n = 0, gn = 0;
        uint8_t *b = gt_slurp(index_path, &n), *want = gt_out(&gn, "git -C %s ls-files -s -z %s", repo, lsflags);
        int r = b ? walk(b, n, hash_len, g, info, why, sizeof(why)) : -ENOENT;
        bool same = r == 0 && want && g->entries.n == gn && memcmp(g->entries.s ? g->entries.s : "", want, gn) == 0;

        snprintf(name, sizeof(name), "%s: walked as git ls-files -s lists it", label);
        CHECK(G, name, same);
        if (!same)
                fprintf(stderr, "%s: r=%d why=%s\n--- ours\n%.*s\n--- git\n%.*s\n", label, r, why, (int)g->entries.n,
                        g->entries.s ? g->entries.s : "", (int)gn, want ? (char *)want : "");
        snprintf(name, sizeof(name), "%s: every path NUL-terminated at its length", label);
        CHECK(G, name, g->sane);
        free(b);
        free(want);
        return same;
}

/* Every prefix, and every byte set to 0x00, 0xff and flipped, of a real index: no read
 * outside the buffer (ASan), and whatever is accepted is reported sanely. */
static void corrupt_all(const char *label, const char *index_path, size_t hash_len)
{
        struct sbx_git_index_info info;
        size_t n = 0, accepted = 0, insane = 0;
        uint8_t *b = gt_slurp(index_path, &n), *c;
        struct got g;
        char name[160];

        if (!b)
                return;
        c = malloc(n + 1);
        for (size_t len = 0; c && len < n; len++) {
                uint8_t *exact = malloc(len ? len : 1); /* exactly len bytes: ASan sees a read past them */

                memcpy(exact, b, len);
                accepted += walk(exact, len, hash_len, &g, &info, NULL, 0) == 0;
                insane += !g.sane;
                got_free(&g);
                free(exact);
        }
        for (size_t i = 0; c && i < n && i < 4096; i++) {
                static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x7f };

                for (size_t k = 0; k < sizeof(vals); k++) {
                        memcpy(c, b, n);
                        c[i] = k == 3 ? (uint8_t)~b[i] : vals[k];
                        accepted += walk(c, n, hash_len, &g, &info, NULL, 0) == 0;
                        insane += !g.sane;
                        got_free(&g);
                }
        }
        snprintf(name, sizeof(name), "%s: %zu bytes cut and corrupted, every report sane (%zu accepted)", label,
                 n, accepted);
        CHECK(G, name, insane == 0);
        free(c);
        free(b);
}

#define SETUP "set -e; exec >/dev/null 2>&1; "

static void real_indexes(void)
{
        struct sbx_git_index_info info;
        struct got g;
        size_t n;
        uint8_t *b;
        char why[256];

        /* v2: files, directories, an executable, a symlink, a submodule; TREE */
        CHECK(G, "git: a repository with a submodule",
              gt_sh(SETUP "git init -q sub0 && cd sub0 && echo s > s && git add s && git commit -qm s && cd .. &&"
                          "git init -q r1 && cd r1 && mkdir -p d/e && echo a > a && echo b > d/b && chmod +x d/b &&"
                          "echo c > d/e/c && ln -s a l && echo z > 'sp ace' && printf q > \"$(printf 'nl\\nx')\" &&"
                          "git add . && git -c protocol.file.allow=always submodule add -q \"$PWD/../sub0\" sub &&"
                          "git commit -qm 1") == 0);
        if (matches_git("v2", "r1/.git/index", "r1", 20, "", &info, &g)) {
                CHECK(G, "v2: version 2, TREE", info.version == 2 && strcmp(info.exts, "TREE") == 0);
                CHECK(G, "v2: the submodule is a gitlink entry", in_entries(&g, "160000 "));
                CHECK(G, "v2: the symlink has mode 120000", in_entries(&g, "120000 "));
                CHECK(G, "v2: cache-tree directories reported", has(&g.exts, "TREE 040000 0\td/\n") &&
                                                                      has(&g.exts, "TREE 040000 0\td/e/\n"));
                CHECK(G, "v2: every path passes sbx_git_path_ok", g.refused[0] == '\0');
        }
        got_free(&g);
        corrupt_all("v2", "r1/.git/index", 20);

        /* v4 of the same */
        CHECK(G, "git: update-index --index-version 4", gt_sh(SETUP "cd r1 && git update-index --index-version 4") == 0);
        if (matches_git("v4", "r1/.git/index", "r1", 20, "", &info, &g))
                CHECK(G, "v4: version 4", info.version == 4);
        got_free(&g);
        corrupt_all("v4", "r1/.git/index", 20);

        /* EOIE and IEOT, git's offsets for its threaded reader, in v4 and v2 */
        CHECK(G, "git: index.threads with offset tables",
              gt_sh(SETUP "cd r1 && for i in $(seq 1 40); do echo $i > f$i; done && git add . &&"
                          "git -c index.threads=3 -c index.recordOffsetTable=true "
                          "-c index.recordEndOfIndexEntries=true update-index --force-write-index") == 0);
        if (matches_git("v4 IEOT", "r1/.git/index", "r1", 20, "", &info, &g))
                CHECK(G, "v4 IEOT: IEOT and EOIE seen", strstr(info.exts, "IEOT") && strstr(info.exts, "EOIE"));
        got_free(&g);
        corrupt_all("v4 IEOT", "r1/.git/index", 20);
        CHECK(G, "git: v2 with offset tables",
              gt_sh(SETUP "cd r1 && git update-index --index-version 2 && git -c index.threads=4 "
                          "-c index.recordOffsetTable=true -c index.recordEndOfIndexEntries=true "
                          "update-index --force-write-index") == 0);
        if (matches_git("v2 IEOT", "r1/.git/index", "r1", 20, "", &info, &g))
                CHECK(G, "v2 IEOT: IEOT and EOIE seen", strstr(info.exts, "IEOT") && strstr(info.exts, "EOIE"));
        got_free(&g);

        /* conflicts: stages 1-3, and resolve-undo once one is resolved */
        CHECK(G, "git: a merge with conflicts",
              gt_sh(SETUP "git init -q -b main r2 && cd r2 && echo base > f && echo base > g && git add . &&"
                          "git commit -qm b && git checkout -qb o && echo o > f && echo o > g && git commit -qam o &&"
                          "git checkout -q main && echo m > f && echo m > g && git commit -qam m &&"
                          "! git merge o && echo r > g && git add g") == 0);
        if (matches_git("conflicts", "r2/.git/index", "r2", 20, "", &info, &g)) {
                CHECK(G, "conflicts: stages 1, 2, 3 of f", in_entries(&g, " 1\tf") && in_entries(&g, " 2\tf") &&
                                                              in_entries(&g, " 3\tf"));
                CHECK(G, "conflicts: REUC records g at stages 1-3", has(&g.exts, "REUC 100644 1\tg\n") &&
                                                                        has(&g.exts, "REUC 100644 2\tg\n") &&
                                                                        has(&g.exts, "REUC 100644 3\tg\n"));
        }
        got_free(&g);
        corrupt_all("conflicts", "r2/.git/index", 20);

        /* v3: extended flags (intent-to-add, skip-worktree) */
        CHECK(G, "git: intent-to-add and skip-worktree",
              gt_sh(SETUP "git init -q r3 && cd r3 && echo a > a && echo b > b && git add a b && git commit -qm 1 &&"
                          "echo n > n && git add -N n && git update-index --skip-worktree b") == 0);
        if (matches_git("v3", "r3/.git/index", "r3", 20, "", &info, &g))
                CHECK(G, "v3: version 3", info.version == 3);
        got_free(&g);
        corrupt_all("v3", "r3/.git/index", 20);
        CHECK(G, "git: -c index.version=3 and 4",
              gt_sh(SETUP "git init -q r3b && cd r3b && echo a > a && git -c index.version=3 add -N a &&"
                          "git init -q ../r4b && cd ../r4b && mkdir -p x/y && echo a > x/y/a && echo b > x/b &&"
                          "git -c index.version=4 add .") == 0);
        if (matches_git("index.version=3", "r3b/.git/index", "r3b", 20, "", &info, &g))
                CHECK(G, "index.version=3: version 3", info.version == 3);
        got_free(&g);
        if (matches_git("index.version=4", "r4b/.git/index", "r4b", 20, "", &info, &g))
                CHECK(G, "index.version=4: version 4", info.version == 4);
        got_free(&g);

        /* SHA-256 */
        CHECK(G, "git: init --object-format=sha256",
              gt_sh(SETUP "git init -q --object-format=sha256 r5 && cd r5 && mkdir d && echo a > d/a && echo b > b &&"
                          "git add . && git commit -qm 1 && echo c > c && git add -N c") == 0);
        if (matches_git("sha256", "r5/.git/index", "r5", 32, "", &info, &g))
                CHECK(G, "sha256: v3 with TREE", info.version == 3 && strstr(info.exts, "TREE"));
        got_free(&g);
        n = 0;
        b = gt_slurp("r5/.git/index", &n);
        CHECK(G, "sha256: read as SHA-1 refused", b && walk(b, n, 20, &g, &info, why, sizeof(why)) == -EBADMSG);
        got_free(&g);
        free(b);
        corrupt_all("sha256", "r5/.git/index", 32);

        /* paths of 4095 bytes (the flags' 0xfff, in v2 and v4) and of 5000 */
        CHECK(G, "git: a 4095-byte path",
              gt_sh(SETUP "git init -q r6 && cd r6 && e=$(git hash-object -w /dev/null) &&"
                          "p=$(printf '%%04075d' 0 | tr 0 a | sed 's/a\\{200\\}/&\\//g') &&"
                          "git update-index --add --cacheinfo 100644,$e,\"$p\" &&"
                          "git update-index --add --cacheinfo 100644,$e,\"$(printf '%%04094d' 0)\"") == 0);
        if (matches_git("4095-byte path v2", "r6/.git/index", "r6", 20, "", &info, &g))
                CHECK(G, "4095-byte path: two of 4094 and 4095 bytes", longest(&g) == 4095);
        got_free(&g);
        CHECK(G, "git: the 4095-byte path in v4", gt_sh(SETUP "cd r6 && git update-index --index-version 4") == 0);
        matches_git("4095-byte path v4", "r6/.git/index", "r6", 20, "", &info, &g);
        got_free(&g);
        CHECK(G, "git: a 5000-byte path",
              gt_sh(SETUP "cd r6 && e=$(git hash-object -w /dev/null) &&"
                          "git update-index --add --cacheinfo 100644,$e,\"$(printf '%%05000d' 0)\"") == 0);
        b = gt_slurp("r6/.git/index", &n);
        CHECK(G, "a 5000-byte path refused", b && walk(b, n, 20, &g, &info, why, sizeof(why)) == -EBADMSG &&
                                                 strstr(why, "longer than 4095") && g.calls == 0);
        got_free(&g);
        free(b);

        /* split index: the index holds changes to sharedindex.<oid> */
        CHECK(G, "git: update-index --split-index",
              gt_sh(SETUP "git init -q r7 && cd r7 && mkdir d && echo a > a && echo b > d/b && echo c > c &&"
                          "git add . && git commit -qm 1 && git update-index --split-index &&"
                          "git ls-files -s -z > ../r7.shared && cp .git/sharedindex.* ../r7.sharedfile && echo B > d/b && git add d/b && echo n > n &&"
                          "git add n") == 0);
        b = gt_slurp("r7/.git/index", &n);
        CHECK(G, "split: the index walks, split", b && walk(b, n, 20, &g, &info, why, sizeof(why)) == 0 && info.split &&
                                                      strstr(info.exts, "link") != NULL);
        {
                size_t ln = 0;
                uint8_t *listed = gt_out(&ln, "git -C r7 ls-files -s -z");
                bool all = listed != NULL;

                for (size_t i = 0; all && i < g.entries.n; i += strlen(g.entries.s + i) + 1)
                        all = strchr(g.entries.s + i, '\t')[1] == '\0' ||
                              memmem(listed, ln, g.entries.s + i, strlen(g.entries.s + i) + 1);
                CHECK(G, "split: each entry replaces one (path stripped) or is one git lists", all);
                free(listed);
        }
        got_free(&g);
        free(b);
        {
                size_t sn = 0, wn = 0;
                uint8_t *want = gt_slurp("r7.shared", &wn);
                uint8_t *shared = gt_slurp("r7.sharedfile", &sn);
                bool same = shared && want && walk(shared, sn, 20, &g, &info, why, sizeof(why)) == 0 &&
                            g.entries.n == wn && memcmp(g.entries.s, want, wn) == 0 && !info.split;

                CHECK(G, "split: the shared index walked as git listed it at the split", same);
                got_free(&g);
                free(shared);
                free(want);
        }

        /* sparse index: directory entries "out/" with the sdir extension */
        CHECK(G, "git: sparse-checkout --sparse-index",
              gt_sh(SETUP "git init -q r8 && cd r8 && mkdir -p in out/deep && echo 1 > in/f && echo 2 > out/g &&"
                          "echo 3 > out/deep/h && echo 4 > top && git add . && git commit -qm 1 &&"
                          "git sparse-checkout init --cone --sparse-index && git sparse-checkout set in") == 0);
        if (matches_git("sparse", "r8/.git/index", "r8", 20, "--sparse", &info, &g)) {
                CHECK(G, "sparse: sdir seen, 'out/' a directory entry",
                      strstr(info.exts, "sdir") && in_entries(&g, "040000 ") && in_entries(&g, "\tout/"));
                CHECK(G, "sparse: 'out/' (mode 040000) passes sbx_git_path_ok", g.refused[0] == '\0');
        }
        got_free(&g);
        corrupt_all("sparse", "r8/.git/index", 20);

        /* untracked cache */
        CHECK(G, "git: untracked cache",
              gt_sh(SETUP "git init -q r9 && cd r9 && echo a > a && git add a && git commit -qm 1 && echo u > u1 &&"
                          "mkdir -p ud/sub && echo z > ud/z && git update-index --untracked-cache &&"
                          "git -c core.untrackedCache=true status && git -c core.untrackedCache=true status") == 0);
        if (matches_git("untracked cache", "r9/.git/index", "r9", 20, "", &info, &g)) {
                CHECK(G, "untracked cache: UNTR seen", strstr(info.exts, "UNTR") != NULL);
                CHECK(G, "untracked cache: its names reported",
                      has(&g.exts, "UNTR 000000 0\tu1\n") && has(&g.exts, "UNTR 040000 0\tud/\n"));
        }
        got_free(&g);
        corrupt_all("untracked cache", "r9/.git/index", 20);

        /* fsmonitor, through a hook that reports everything changed */
        CHECK(G, "git: fsmonitor",
              gt_sh(SETUP "printf '#!/bin/sh\\nprintf \"tok\\\\000/\\\\000\"\\n' > fsm && chmod +x fsm &&"
                          "cd r9 && git -c core.fsmonitor=\"$PWD/../fsm\" status && git -c core.fsmonitor=\"$PWD/../fsm\" status") == 0);
        if (matches_git("fsmonitor", "r9/.git/index", "r9", 20, "", &info, &g))
                CHECK(G, "fsmonitor: FSMN seen", strstr(info.exts, "FSMN") != NULL);
        got_free(&g);
        corrupt_all("fsmonitor", "r9/.git/index", 20);
}

/* ------------------------------------------------------------------ indexes built by hand */

struct ib {
        uint8_t b[1 << 16];
        size_t n;
        unsigned version;
        char prev[4096];
        size_t prev_len;
};

static void put(struct ib *x, const void *p, size_t n)
{
        if (x->n + n > sizeof(x->b))
                abort();
        memcpy(x->b + x->n, p, n);
        x->n += n;
}

static void put32(struct ib *x, uint32_t v)
{
        uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

        put(x, b, 4);
}

static void set32(struct ib *x, size_t at, uint32_t v)
{
        x->b[at] = (uint8_t)(v >> 24);
        x->b[at + 1] = (uint8_t)(v >> 16);
        x->b[at + 2] = (uint8_t)(v >> 8);
        x->b[at + 3] = (uint8_t)v;
}

static void ib_start(struct ib *x, unsigned version, uint32_t entries)
{
        memset(x, 0, sizeof(*x));
        x->version = version;
        put(x, "DIRC", 4);
        put32(x, version);
        put32(x, entries);
}

static const uint8_t OID1[20] = { 0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b,
                                  0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91 };

/* An entry as git writes it (v4: prefix-compressed against the previous one); its offset. */
static size_t ib_entry(struct ib *x, uint32_t mode, unsigned stage, unsigned flags2, const char *path,
                       const uint8_t *oid)
{
        size_t at = x->n, len = strlen(path), common = 0;
        unsigned flags = (unsigned)(len < 0xfff ? len : 0xfff) | stage << 12 | (flags2 ? 0x4000u : 0);
        uint8_t zero[8] = { 0 }, fl[4] = { (uint8_t)(flags >> 8), (uint8_t)flags, (uint8_t)(flags2 >> 8),
                                          (uint8_t)flags2 };

        for (int i = 0; i < 6; i++)
                put32(x, i == 0 ? 1 : 0); /* ctime, mtime, dev, ino */
        put32(x, mode);
        put32(x, 0), put32(x, 0), put32(x, 0); /* uid, gid, size */
        put(x, oid ? oid : OID1, 20);
        put(x, fl, flags2 ? 4 : 2);
        if (x->version == 4) {
                while (common < len && common < x->prev_len && path[common] == x->prev[common])
                        common++;
                uint8_t strip = (uint8_t)(x->prev_len - common); /* tests keep this below 128 */

                put(x, &strip, 1);
                put(x, path + common, len - common + 1);
                memcpy(x->prev, path, len);
                x->prev_len = len;
        } else {
                put(x, path, len);
                put(x, zero, ((x->n - at + 8) & ~(size_t)7) - (x->n - at));
        }
        return at;
}

static size_t ib_ext(struct ib *x, const char *sig, const void *data, uint32_t n)
{
        size_t at = x->n;

        put(x, sig, 4);
        put32(x, n);
        put(x, data, n);
        return at;
}

static void ib_end(struct ib *x)
{
        uint8_t zero[20] = { 0 };

        put(x, zero, 20); /* git checks the checksum only under fsck */
}

static struct ib ix; /* 64 KiB: not on the stack */

/* The buffer walks cleanly (r == 0) but a path it reports is refused. */
static void hostile_paths(void)
{
        static const char *const paths[] = {
                ".git/hooks/post-checkout", ".GIT/hooks/post-checkout", ".Git/config", "git~1/hooks/x",
                "GIT~1/config", ".git./hooks/x", ".git /hooks/x", ".git . ./hooks/x", ".git::$INDEX_ALLOCATION/x",
                ".g\xe2\x80\x8cit/hooks/x", "\xe2\x80\x8e.git/hooks/x", ".gi\xef\xbb\xbft/x", "./.git/hooks/x",
                "a/../.git/hooks/x", "a/./b", "a//b", "a/", "/etc/passwd", "a\\.git\\hooks\\x", ".git",
                "sub/.git/config", "a/.GIT",
        };
        struct sbx_git_index_info info;
        struct got g;
        char why[256], name[200];

        for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100755, 0, 0, paths[i], NULL);
                ib_end(&ix);
                snprintf(name, sizeof(name), "entry '%s': read by the walk, refused by sbx_git_path_ok", paths[i]);
                CHECK(G, name, walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 && g.calls == 1 &&
                                       strcmp(g.refused, paths[i]) == 0);
                got_free(&g);
        }
        /* a symlink .gitmodules (its target would be read as the submodules' config) */
        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0120000, 0, 0, "x/.gitmodules", NULL);
        ib_end(&ix);
        CHECK(G, "symlink .gitmodules: read, refused", walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 &&
                                                           strcmp(g.refused, "x/.gitmodules") == 0);
        got_free(&g);

        /* REUC: "git checkout -m" would bring the conflict back at .git/hooks/x */
        {
                static const char reuc[] = ".git/hooks/x\0" "100755\0" "0\0" "0";
                uint8_t data[sizeof(reuc) + 20];

                memcpy(data, reuc, sizeof(reuc));
                memcpy(data + sizeof(reuc), OID1, 20);
                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_ext(&ix, "REUC", data, sizeof(data));
                ib_end(&ix);
                CHECK(G, "REUC '.git/hooks/x': read, refused", walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 &&
                                                                    strcmp(g.refused, "REUC:.git/hooks/x") == 0);
                got_free(&g);
        }
        /* UNTR: a directory block "../../home/u" that git status would list and git clean
         * would empty */
        {
                uint8_t data[512];
                size_t n = 0;

                data[n++] = 0;                                         /* ident "" */
                memset(data + n, 0, 76 + 40), n += 76 + 40;            /* stat data, flags, oids */
                memcpy(data + n, ".gitignore", 11), n += 11;           /* exclude_per_dir */
                data[n++] = 2;                                         /* two blocks */
                data[n++] = 0, data[n++] = 1, data[n++] = 0;           /* root: 0 names, 1 dir, "" */
                data[n++] = 1, data[n++] = 0;                          /* then: 1 name, 0 dirs */
                memcpy(data + n, "../../home/u", 13), n += 13;
                memcpy(data + n, "authorized_keys", 16), n += 16;
                for (int k = 0; k < 3; k++) {                          /* three empty bitmaps */
                        static const uint8_t empty[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

                        memcpy(data + n, empty, sizeof(empty)), n += sizeof(empty);
                }
                data[n++] = 0;
                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_ext(&ix, "UNTR", data, (uint32_t)n);
                ib_end(&ix);
                CHECK(G, "UNTR '../../home/u/': read, refused",
                      walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 && strcmp(g.refused, "UNTR:../../home/u/") == 0 &&
                              has(&g.exts, "UNTR 000000 0\t../../home/u/authorized_keys\n"));
                if (g.refused[0] == '\0')
                        fprintf(stderr, "UNTR: %s\n", why);
                got_free(&g);
        }
        /* TREE: a cache-tree directory ".git" */
        {
                static const char tree[] = "\0" "-1 1\n" ".git\0" "-1 0\n";

                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_ext(&ix, "TREE", tree, sizeof(tree) - 1);
                ib_end(&ix);
                CHECK(G, "TREE '.git/': read, refused", walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 &&
                                                             strcmp(g.refused, "TREE:.git/") == 0);
                got_free(&g);
        }
}

/* The vector itself, with this machine's git: an index holding .git/hooks/post-checkout
 * is read, and "git checkout -- ." writes the hook. */
static void git_writes_the_hook(void)
{
        size_t n = 0;
        uint8_t *hex = gt_out(&n, "cd r1 && printf '#!/bin/sh\\ntouch ../hook-ran\\n' | git hash-object -w --stdin");
        uint8_t oid[20];
        struct got g;
        struct sbx_git_index_info info;
        char why[256];

        CHECK(G, "git: a hook blob", hex && n >= 40);
        if (!hex || n < 40)
                return;
        for (int i = 0; i < 20; i++)
                sscanf((char *)hex + 2 * i, "%2hhx", &oid[i]);
        free(hex);
        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100755, 0, 0, ".git/hooks/post-checkout", oid);
        ib_end(&ix);
        CHECK(G, "git: the crafted index written", gt_write("r1/.git/index", ix.b, ix.n));
        CHECK(G, "git reads the crafted index and checks the hook out",
              gt_sh("cd r1 && git ls-files | grep -qx .git/hooks/post-checkout && git checkout -- . 2>/dev/null;"
                    "test -x .git/hooks/post-checkout") == 0);
        CHECK(G, "and sbx_git_path_ok refuses what the walk reports",
              walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 && strcmp(g.refused, ".git/hooks/post-checkout") == 0);
        got_free(&g);
}

/* Refused with @want in the reason, and no callback made. */
static void refused(const char *name, size_t hash_len, const char *want)
{
        struct sbx_git_index_info info;
        struct got g;
        char why[256] = "", label[256];
        int r = walk(ix.b, ix.n, hash_len, &g, &info, why, sizeof(why));

        snprintf(label, sizeof(label), "refused: %s", name);
        CHECK(G, label, r == -EBADMSG && strstr(why, want) && g.calls == 0);
        if (r != -EBADMSG || !strstr(why, want) || g.calls)
                fprintf(stderr, "%s: r=%d why='%s' calls=%zu\n", name, r, why, g.calls);
        got_free(&g);
}

static void malformed(void)
{
        struct sbx_git_index_info info;
        struct got g;
        char why[256];
        size_t at, e2;

        ib_start(&ix, 2, 2);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_end(&ix);
        refused("more entries announced than there are", 20, "runs past the end");

        ib_start(&ix, 2, 1);
        at = ib_entry(&ix, 0100644, 0, 0, "abcd", NULL);
        ix.b[at + 61] = 3; /* flags: length 3 */
        ib_end(&ix);
        refused("a path longer than its flags say", 20, "its flags say");

        ib_start(&ix, 2, 1);
        at = ib_entry(&ix, 0100644, 0, 0, "abc", NULL);
        ix.b[ix.n - 1] = 'x'; /* the last padding byte */
        ib_end(&ix);
        refused("non-NUL padding", 20, "padding");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0x4000, "a", NULL);
        ib_end(&ix);
        refused("extended flags in version 2", 20, "extended flags in a version 2");

        ib_start(&ix, 3, 1);
        ib_entry(&ix, 0100644, 0, 0x1000, "a", NULL);
        ib_end(&ix);
        refused("unknown extended flags", 20, "unknown extended flags");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100664, 0, 0, "a", NULL);
        ib_end(&ix);
        refused("mode 100664", 20, "mode 100664");

        ib_start(&ix, 2, 2);
        ib_entry(&ix, 0100644, 0, 0, "b", NULL);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_end(&ix);
        refused("entries out of order", 20, "out of order");

        ib_start(&ix, 2, 2);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_entry(&ix, 0100755, 0, 0, "a", NULL);
        ib_end(&ix);
        refused("the same path twice at stage 0", 20, "out of order");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0, "", NULL);
        ib_end(&ix);
        refused("an empty path outside split mode", 20, "empty path");

        ib_start(&ix, 3, 1);
        ib_entry(&ix, 040000, 0, 0x4000, "d/", NULL);
        ib_end(&ix);
        refused("a directory entry without sdir", 20, "without the 'sdir'");

        ib_start(&ix, 3, 1);
        ib_entry(&ix, 040000, 0, 0, "d/", NULL);
        ib_ext(&ix, "sdir", "", 0);
        ib_end(&ix);
        refused("a directory entry without skip-worktree", 20, "skip-worktree");

        ib_start(&ix, 4, 2);
        ib_entry(&ix, 0100644, 0, 0, "ab", NULL);
        e2 = ib_entry(&ix, 0100644, 0, 0, "ac", NULL);
        ix.b[e2 + 62] = 5; /* strip 5 of the previous 2 bytes */
        ib_end(&ix);
        refused("v4: strip more than the previous path", 20, "prefix length to strip");

        ib_start(&ix, 4, 1);
        e2 = ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ix.n = e2 + 62;
        for (int k = 0; k < 12; k++)
                ix.b[ix.n++] = 0xff; /* a varint that never ends */
        ix.b[ix.n++] = 0;
        ib_end(&ix);
        refused("v4: an overflowing varint", 20, "prefix length to strip");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        at = ib_ext(&ix, "ZZZZ", "abcd", 4);
        set32(&ix, at + 4, 0xffffff00u);
        ib_end(&ix);
        refused("an extension size past the end", 20, "runs past the checksum");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_ext(&ix, "TREE", "\0-1 0\n", 6);
        ib_ext(&ix, "TREE", "\0-1 0\n", 6);
        ib_end(&ix);
        refused("two TREE extensions", 20, "a second 'TREE'");

        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_ext(&ix, "TREE", "\0-1 2\nx\0-1 0\n", 13);
        ib_end(&ix);
        refused("a cache tree announcing more subtrees than it has", 20, "does not end with its last node");

        {
                uint8_t eoie[24] = { 0 };

                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                eoie[3] = 12; /* the extensions start at 12: they do not */
                ib_ext(&ix, "EOIE", eoie, 24);
                ib_end(&ix);
                refused("EOIE pointing at the entries", 20, "EOIE says the extensions start at offset 12");
        }
        {
                /* an optional extension the sequential reader skips, whose last bytes are an
                 * EOIE where git's threaded reader looks for one */
                uint8_t hide[64] = { 0 };

                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                memcpy(hide + 32, "EOIE", 4);
                hide[39] = 24;
                hide[43] = 12;
                ib_ext(&ix, "ZZZZ", hide, 64);
                ib_end(&ix);
                refused("an EOIE hidden in an optional extension", 20, "would read as an EOIE");
        }
        {
                uint8_t ieot[12] = { 0, 0, 0, 1, 0, 0, 0, 12, 0, 0, 0, 2 };

                ib_start(&ix, 2, 2);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_entry(&ix, 0100644, 0, 0, "b", NULL);
                ib_ext(&ix, "IEOT", ieot, 12);
                ib_end(&ix);
                CHECK(G, "IEOT matching the entries accepted", walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0);
                got_free(&g);
                ieot[7] = 20; /* the block starts inside the first entry */
                ib_start(&ix, 2, 2);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_entry(&ix, 0100644, 0, 0, "b", NULL);
                ib_ext(&ix, "IEOT", ieot, 12);
                ib_end(&ix);
                refused("IEOT block at the wrong offset", 20, "IEOT block 0");
                ieot[7] = 12;
                ieot[11] = 1; /* one entry, and nothing for the second */
                ib_start(&ix, 2, 2);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_entry(&ix, 0100644, 0, 0, "b", NULL);
                ib_ext(&ix, "IEOT", ieot, 12);
                ib_end(&ix);
                refused("IEOT covering fewer entries", 20, "past the blocks the IEOT extension lists");
        }
        {
                /* v4 + IEOT: a block whose first path reuses the previous one's bytes (git's
                 * threaded reader would start it from an empty path instead) */
                uint8_t ieot[20] = { 0, 0, 0, 1, 0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };

                ib_start(&ix, 4, 2);
                ib_entry(&ix, 0100644, 0, 0, "ab", NULL);
                e2 = ib_entry(&ix, 0100644, 0, 0, "ac", NULL);
                ieot[15] = (uint8_t)e2;
                ib_ext(&ix, "IEOT", ieot, 20);
                ib_end(&ix);
                refused("v4 IEOT block reusing the previous path", 20, "reuses the previous one");
        }
        {
                /* UNTR: a valid-bit for a block that does not exist */
                uint8_t data[256];
                size_t n = 0;
                static const uint8_t bit5[] = { 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0,
                                                0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0 };
                static const uint8_t empty[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

                data[n++] = 0;
                memset(data + n, 0, 116), n += 116;
                memcpy(data + n, ".gitignore", 11), n += 11;
                data[n++] = 1;
                data[n++] = 0, data[n++] = 0, data[n++] = 0;
                memcpy(data + n, bit5, sizeof(bit5)), n += sizeof(bit5);
                memcpy(data + n, empty, sizeof(empty)), n += sizeof(empty);
                memcpy(data + n, empty, sizeof(empty)), n += sizeof(empty);
                memset(data + n, 0, 36), n += 36;
                data[n++] = 0;
                ib_start(&ix, 2, 1);
                ib_entry(&ix, 0100644, 0, 0, "a", NULL);
                ib_ext(&ix, "UNTR", data, (uint32_t)n);
                ib_end(&ix);
                refused("UNTR bitmap naming a missing block", 20, "do not add up");
        }

        /* extensions git does not know: an optional one is skipped, a required one noted */
        ib_start(&ix, 2, 1);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_ext(&ix, "ABCD", "xy", 2);
        ib_ext(&ix, "abcd", "", 0);
        ib_end(&ix);
        CHECK(G, "unknown extensions: listed, the required one flagged",
              walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 && info.unknown_required_ext &&
                      strcmp(info.exts, "ABCD,abcd") == 0);
        got_free(&g);

        /* headers */
        ib_start(&ix, 5, 0);
        ib_end(&ix);
        refused("version 5", 20, "version 5");
        ib_start(&ix, 2, 0);
        memcpy(ix.b, "DIRX", 4);
        ib_end(&ix);
        refused("no DIRC", 20, "not an index");
        ib_start(&ix, 2, 0);
        refused("no checksum", 20, "not an index");
        ib_end(&ix);
        CHECK(G, "an empty index walks", walk(ix.b, ix.n, 20, &g, &info, why, sizeof(why)) == 0 && g.calls == 0 &&
                                             info.n_entries == 0 && info.version == 2);
        got_free(&g);
        CHECK(G, "hash length 21 is -EINVAL", sbx_git_index_walk(ix.b, ix.n, 21, NULL, NULL, NULL, NULL, 0) == -EINVAL);
        CHECK(G, "NULL buffer is -EINVAL", sbx_git_index_walk(NULL, 10, 20, NULL, NULL, NULL, NULL, 0) == -EINVAL);
}

static int stop_at_second(const struct sbx_git_index_entry *e, void *userdata)
{
        size_t *n = userdata;

        (void)e;
        return ++*n == 2 ? 7 : 0;
}

static void callback_stops(void)
{
        size_t n = 0;

        ib_start(&ix, 2, 3);
        ib_entry(&ix, 0100644, 0, 0, "a", NULL);
        ib_entry(&ix, 0100644, 0, 0, "b", NULL);
        ib_entry(&ix, 0100644, 0, 0, "c", NULL);
        ib_end(&ix);
        CHECK(G, "a callback's non-zero return stops the walk and is returned",
              sbx_git_index_walk(ix.b, ix.n, 20, stop_at_second, &n, NULL, NULL, 0) == 7 && n == 2);
}

int main(void)
{
        if (!gt_setup()) {
                CHECK(G, "a temporary directory", false);
                return 1;
        }
        if (gt_sh("git --version >/dev/null 2>&1") != 0) {
                CHECK(G, "git is installed (make deps installs it)", false);
                gt_cleanup();
                return 1;
        }
        real_indexes();
        git_writes_the_hook();
        hostile_paths();
        malformed();
        callback_stops();
        gt_cleanup();
        return unit_failed ? 1 : 0;
}
