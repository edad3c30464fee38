/* SPDX-License-Identifier: MIT */
/* The index (gitformat-index(5); git's read-cache.c, cache-tree.c, resolve-undo.c,
 * dir.c, fsmonitor.c, split-index.c, ewah/), walked over a buffer a jail wrote.
 *
 * git trusts its index: it reads lengths and counts from it without bounds, does not
 * check its paths (the reason sbx_git_path_ok() exists), and has two readers that can
 * disagree.  With index.threads, a large index is read through the EOIE and IEOT
 * extensions: entries from the offsets IEOT lists, extensions from the offset EOIE
 * names.  An index whose offsets do not match its entries would show the host's git
 * entries this walk never saw.  So the walk is in two passes: the first checks
 * everything, including that every offset EOIE and IEOT give is where the entries
 * really are (so both of git's readers see what this one sees); only then the second
 * reports each entry, and each path an extension names (cache-tree directories,
 * resolve-undo paths, untracked-cache names: "git clean" deletes what the untracked
 * cache lists), to the caller. */
#include "gitfmt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gitfmt-int.h"

#define MODE_FILE 0100644u
#define MODE_EXEC 0100755u
#define MODE_LINK 0120000u
#define MODE_DIR 040000u /* a sparse directory entry (the "sdir" extension) */

#define F_NAMEMASK 0x0fffu
#define F_STAGEMASK 0x3000u
#define F_EXTENDED 0x4000u
#define F2_KNOWN 0x6000u /* skip-worktree, intent-to-add */
#define F2_SKIP_WORKTREE 0x4000u

/* ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size: before the object name */
#define ENTRY_STAT 40u
#define STAT_DATA 36u /* dir.c's struct stat_data */
#define UNTR_FIXED (2 * STAT_DATA + 4u) /* dir.c's struct ondisk_untracked_cache */
#define MAX_DEPTH (SBX_GIT_PATH_MAX / 2)

typedef int (*entry_fn)(const struct sbx_git_index_entry *e, void *userdata);

/* A bounded view of part of the buffer. */
struct cur {
        const uint8_t *p;
        size_t n, i;
};

struct level {
        uint32_t left;     /* subtrees still to read */
        uint16_t path_len; /* the directory's path, '/' included */
};

struct ix {
        const uint8_t *buf;
        size_t end; /* where the trailing checksum starts */
        size_t hash_len;
        unsigned version;
        uint32_t n_entries;
        size_t ents_end; /* where the extensions start */
        char *why;
        size_t why_size;

        /* what the extensions hold (pass 1) */
        bool split, sdir, unknown_required;
        size_t tree, tree_n, reuc, reuc_n, untr, untr_n; /* data offset and size; n 0: absent */
        size_t ieot, ieot_blocks;                        /* IEOT's block table */
        size_t eoie_at;                                  /* the EOIE header, 0: none */
        uint64_t fsmn_bits, fsmn_max;

        /* what the entries showed that only the extensions can excuse */
        size_t dir_at, empty_at, unsorted_at; /* entry offsets, 0: none */

        char path[2][SBX_GIT_PATH_MAX]; /* this entry's and the previous one's */
        struct level levels[MAX_DEPTH];
};

#define BAD(x, ...) sbx_git_bad((x)->why, (x)->why_size, __VA_ARGS__)

static uint32_t be32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
        return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static bool take(struct cur *c, size_t n, const uint8_t **out)
{
        if (c->n - c->i < n)
                return false;
        if (out)
                *out = c->p + c->i;
        c->i += n;
        return true;
}

static bool take32(struct cur *c, uint32_t *v)
{
        const uint8_t *p;

        if (!take(c, 4, &p))
                return false;
        *v = be32(p);
        return true;
}

/* The varint of git's varint.c (and of OFS_DELTA): 7 bits a byte, high bit "more", each
 * continuation adding one.  Values past 2^32 are refused: no count or length of an
 * index needs them, and git's own decoder gives up on overflow without consuming. */
static bool take_varint(struct cur *c, uint64_t *v)
{
        uint64_t val;
        uint8_t b;

        if (c->i >= c->n)
                return false;
        b = c->p[c->i++];
        val = b & 127;
        while (b & 128) {
                if (c->i >= c->n || val >= (UINT64_C(1) << 32))
                        return false;
                b = c->p[c->i++];
                val = ((val + 1) << 7) + (b & 127);
        }
        *v = val;
        return true;
}

/* A NUL-terminated string that ends before @c's end. */
static bool take_str(struct cur *c, const char **s, size_t *n)
{
        const uint8_t *nul = memchr(c->p + c->i, '\0', c->n - c->i);

        if (!nul)
                return false;
        *s = (const char *)c->p + c->i;
        *n = (size_t)(nul - (c->p + c->i));
        c->i += *n + 1;
        return true;
}

static bool mode_known(uint32_t m)
{
        return m == MODE_FILE || m == MODE_EXEC || m == MODE_LINK || m == SBX_GIT_MODE_GITLINK;
}

static int report(entry_fn fn, void *ud, const char *path, size_t len, uint32_t mode, unsigned stage,
                  const uint8_t *oid, const char *ext)
{
        struct sbx_git_index_entry e = {
                .path = path, .path_len = len, .mode = mode, .stage = stage, .oid = oid, .ext = ext
        };

        return fn ? fn(&e, ud) : 0;
}

/* ------------------------------------------------------------------ entries */

struct walk {
        size_t off, prev_len;
        unsigned prev_stage;
        size_t block, block_left; /* IEOT: the block being read, entries left in it */
};

/* The IEOT block table says where each block of entries starts and how many it holds;
 * git's threaded reader trusts it (and starts each v4 block with an empty previous
 * name).  Each block must start exactly at the entry the sequential walk is at. */
static int ieot_step(struct ix *x, struct walk *w, uint32_t i, bool *block_start)
{
        const uint8_t *b;

        *block_start = false;
        if (!x->ieot || w->block_left)
                return 0;
        if (w->block >= x->ieot_blocks)
                return BAD(x, "offset %zu: entry %u is past the blocks the IEOT extension lists", w->off, i);
        b = x->buf + x->ieot + 8 * w->block;
        if (be32(b) != w->off || be32(b + 4) == 0)
                return BAD(x, "IEOT block %zu: offset %u, %u entries, but entry %u is at offset %zu", w->block,
                           be32(b), be32(b + 4), i, w->off);
        w->block_left = be32(b + 4);
        w->block++;
        *block_start = true;
        return 0;
}

/* v4: the previous path less its last N bytes, then a NUL-terminated suffix. */
static int name_v4(struct ix *x, struct cur *c, struct walk *w, bool block_start, unsigned field, char *name,
                   const char *prev, size_t *len)
{
        uint64_t strip;
        const char *suffix;
        size_t n, keep;

        if (!take_varint(c, &strip) || strip > w->prev_len)
                return BAD(x, "offset %zu: the prefix length to strip is not a varint within the previous path",
                           w->off);
        keep = w->prev_len - (size_t)strip;
        if (block_start && keep)
                return BAD(x, "offset %zu: an IEOT block starts with a path that reuses the previous one", w->off);
        if (!take_str(c, &suffix, &n))
                return BAD(x, "offset %zu: the path is not NUL-terminated", w->off);
        if (keep + n >= SBX_GIT_PATH_MAX)
                return BAD(x, "offset %zu: a path longer than %u bytes", w->off, SBX_GIT_PATH_MAX - 1);
        *len = keep + n;
        if (field != F_NAMEMASK ? *len != field : *len < F_NAMEMASK)
                return BAD(x, "offset %zu: the path is %zu bytes, its flags say %u", w->off, *len, field);
        memcpy(name, prev, keep);
        memcpy(name + keep, suffix, n);
        name[*len] = '\0';
        return 0;
}

/* v2, v3: the path, NUL, and NULs to a multiple of 8 bytes from the entry's start. */
static int name_v2(struct ix *x, struct cur *c, struct walk *w, unsigned field, char *name, size_t *len)
{
        const uint8_t *p = c->p + c->i, *nul = memchr(p, '\0', c->n - c->i);
        size_t size, pad;

        if (!nul)
                return BAD(x, "offset %zu: the path is not NUL-terminated", w->off);
        *len = (size_t)(nul - p);
        if (field != F_NAMEMASK ? *len != field : *len < F_NAMEMASK)
                return BAD(x, "offset %zu: the path is %zu bytes, its flags say %u", w->off, *len, field);
        if (*len >= SBX_GIT_PATH_MAX)
                return BAD(x, "offset %zu: a path longer than %u bytes", w->off, SBX_GIT_PATH_MAX - 1);
        size = (c->i + *len + 8) & ~(size_t)7; /* c->i: the entry's fixed part */
        pad = size - c->i - *len;
        if (c->n - c->i < *len + pad)
                return BAD(x, "offset %zu: the entry's padding runs past the entries", w->off);
        for (size_t k = *len; k < *len + pad; k++)
                if (p[k])
                        return BAD(x, "offset %zu: a non-NUL byte in the entry's padding", w->off);
        memcpy(name, p, *len);
        name[*len] = '\0';
        c->i += *len + pad;
        return 0;
}

static int entry(struct ix *x, struct walk *w, uint32_t i, entry_fn fn, void *ud)
{
        char *name = x->path[i & 1];
        const char *prev = x->path[(i & 1) ^ 1];
        struct cur c = { x->buf + w->off, x->end - w->off, 0 };
        const uint8_t *fixed;
        unsigned flags, flags2 = 0, stage;
        uint32_t mode;
        bool block_start;
        size_t len = 0;
        int r, cmp;

        if ((r = ieot_step(x, w, i, &block_start)) < 0)
                return r;
        if (!take(&c, ENTRY_STAT + x->hash_len + 2, &fixed))
                return BAD(x, "offset %zu: entry %u of %u runs past the end", w->off, i, x->n_entries);
        mode = be32(fixed + 24);
        flags = (unsigned)fixed[ENTRY_STAT + x->hash_len] << 8 | fixed[ENTRY_STAT + x->hash_len + 1];
        if (flags & F_EXTENDED) {
                const uint8_t *f2;

                if (x->version < 3 || !take(&c, 2, &f2))
                        return BAD(x, "offset %zu: extended flags in a version %u index", w->off, x->version);
                flags2 = (unsigned)f2[0] << 8 | f2[1];
                if (flags2 & ~F2_KNOWN)
                        return BAD(x, "offset %zu: unknown extended flags 0x%04x", w->off, flags2);
        }
        stage = (flags & F_STAGEMASK) >> 12;
        r = x->version == 4 ? name_v4(x, &c, w, block_start, flags & F_NAMEMASK, name, prev, &len)
                            : name_v2(x, &c, w, flags & F_NAMEMASK, name, &len);
        if (r < 0)
                return r;
        if (mode == MODE_DIR) {
                if (len == 0 || name[len - 1] != '/' || stage || !(flags2 & F2_SKIP_WORKTREE))
                        return BAD(x, "offset %zu: a directory entry that is not a skip-worktree 'dir/' at stage 0",
                                   w->off);
                if (!x->dir_at)
                        x->dir_at = w->off;
        } else if (!mode_known(mode)) {
                return BAD(x, "offset %zu: mode %06o is not one git writes", w->off, mode);
        }
        if (len == 0 && !x->empty_at)
                x->empty_at = w->off;
        cmp = i ? memcmp(prev, name, len < w->prev_len ? len : w->prev_len) : -1;
        if (i && !cmp)
                cmp = w->prev_len < len ? -1 : w->prev_len > len ? 1 : w->prev_stage < stage ? -1 : 1;
        if (cmp >= 0 && !x->unsorted_at)
                x->unsorted_at = w->off;
        if ((r = report(fn, ud, name, len, mode, stage, fixed + ENTRY_STAT, NULL)) != 0)
                return r;
        if (w->block_left)
                w->block_left--;
        w->off += c.i;
        w->prev_len = len;
        w->prev_stage = stage;
        return 0;
}

static int walk_entries(struct ix *x, entry_fn fn, void *ud)
{
        struct walk w = { .off = 12 };
        int r;

        for (uint32_t i = 0; i < x->n_entries; i++)
                if ((r = entry(x, &w, i, fn, ud)) != 0)
                        return r;
        if (x->ieot && (w.block != x->ieot_blocks || w.block_left))
                return BAD(x, "the IEOT extension lists more entries than the index holds");
        x->ents_end = w.off;
        return 0;
}

/* ------------------------------------------------------------------ EWAH bitmaps */

struct bits {
        uint32_t size;   /* the bitmap's own bit count */
        uint64_t set;    /* bits set */
        uint64_t max;    /* the highest set bit + 1 */
};

/* ewah/ewah_io.c: bit count, word count, the words (each a run-length word followed
 * by its literal words), the index of the last run-length word.  Every set bit is
 * counted, as git's ewah_each_bit() would call back for it, without walking runs. */
static bool ewah(struct cur *c, struct bits *b)
{
        const uint8_t *words;
        uint32_t n, rlw;
        uint64_t pos = 0;

        *b = (struct bits){ 0 };
        if (!take32(c, &b->size) || !take32(c, &n) || !take(c, (size_t)n * 8, &words) || !take32(c, &rlw) ||
            rlw >= n)
                return false;
        for (uint32_t k = 0; k < n;) {
                uint64_t w = be64(words + 8 * (size_t)k++), run = ((w >> 1) & 0xffffffffu) * 64, lit = w >> 33;

                if (run > (UINT64_C(1) << 40) - pos || lit > n - k)
                        return false;
                if ((w & 1) && run) {
                        b->set += run;
                        b->max = pos + run;
                }
                pos += run;
                for (; lit; lit--, k++, pos += 64) {
                        uint64_t lw = be64(words + 8 * (size_t)k);

                        if (lw) {
                                b->set += (uint64_t)__builtin_popcountll(lw);
                                b->max = pos + 64 - (uint64_t)__builtin_clzll(lw);
                        }
                }
                if (pos > UINT64_C(1) << 40)
                        return false;
        }
        return true;
}

/* ------------------------------------------------------------------ extensions */

/* Appends "/"-terminated @name to the directory path at @depth - 1. */
static int push_dir(struct ix *x, size_t depth, const char *name, size_t n, uint32_t subdirs, size_t at)
{
        size_t base = depth ? x->levels[depth - 1].path_len : 0;
        char *path = x->path[0];

        if (depth >= MAX_DEPTH || base + n + 1 >= SBX_GIT_PATH_MAX)
                return BAD(x, "offset %zu: directories nested deeper than a path can be", at);
        memcpy(path + base, name, n);
        path[base + n] = '/';
        path[base + n + 1] = '\0';
        x->levels[depth] = (struct level){ subdirs, (uint16_t)(base + n + 1) };
        return 0;
}

/* A count written "%d" (cache-tree's entry count may be -1). */
static bool take_decimal(struct cur *c, uint8_t stop, long *v)
{
        bool neg = c->i < c->n && c->p[c->i] == '-';
        size_t digits = 0;
        long val = 0;

        c->i += neg;
        while (c->i < c->n && c->p[c->i] >= '0' && c->p[c->i] <= '9' && digits < 10) {
                val = val * 10 + (c->p[c->i++] - '0');
                digits++;
        }
        if (!digits || c->i >= c->n || c->p[c->i++] != stop || (neg && val != 1) || val > INT32_MAX)
                return false;
        *v = neg ? -1 : val;
        return true;
}

/* TREE (cache-tree.c): nodes depth first, each "<name>\0<entries> <subtrees>\n" and,
 * unless invalidated (entries -1), the tree's object name.  The root's name is empty. */
static int ext_tree(struct ix *x, size_t off, size_t size, entry_fn fn, void *ud)
{
        struct cur c = { x->buf + off, size, 0 };
        size_t depth = 0;
        int r;

        do {
                size_t at = off + c.i, n;
                const char *name;
                long count, subtrees;

                if (!take_str(&c, &name, &n) || !take_decimal(&c, ' ', &count) || !take_decimal(&c, '\n', &subtrees) ||
                    subtrees > (long)(size / 4) || (count >= 0 && !take(&c, x->hash_len, NULL)))
                        return BAD(x, "offset %zu: a cache-tree node that is not '<name>\\0<entries> <subtrees>\\n<oid>'",
                                   at);
                if ((depth == 0) != (n == 0))
                        return BAD(x, "offset %zu: a cache-tree node named '%.*s' at depth %zu", at, (int)n, name, depth);
                if (depth) {
                        x->levels[depth - 1].left--;
                        if ((r = push_dir(x, depth, name, n, (uint32_t)subtrees, at)) < 0)
                                return r;
                        if ((r = report(fn, ud, x->path[0], x->levels[depth].path_len, MODE_DIR, 0, NULL, "TREE")) != 0)
                                return r;
                } else {
                        x->levels[0] = (struct level){ (uint32_t)subtrees, 0 };
                }
                depth++;
                while (depth && x->levels[depth - 1].left == 0)
                        depth--;
        } while (depth && c.i < c.n);
        if (depth || c.i != c.n)
                return BAD(x, "offset %zu: the cache-tree extension does not end with its last node", off + c.i);
        return 0;
}

/* An octal mode of resolve-undo: digits only, NUL-terminated. */
static bool take_octal(struct cur *c, uint32_t *mode)
{
        const char *s;
        size_t n;

        *mode = 0;
        if (!take_str(c, &s, &n) || n == 0 || n > 7)
                return false;
        for (size_t k = 0; k < n; k++) {
                if (s[k] < '0' || s[k] > '7')
                        return false;
                *mode = *mode * 8 + (uint32_t)(s[k] - '0');
        }
        return true;
}

/* REUC (resolve-undo.c): "<path>\0" three octal modes each "\0"-terminated, then the
 * object name of each stage whose mode is not 0.  "git checkout -m" brings these back. */
static int ext_reuc(struct ix *x, size_t off, size_t size, entry_fn fn, void *ud)
{
        struct cur c = { x->buf + off, size, 0 };
        int r;

        while (c.i < c.n) {
                size_t at = off + c.i, n;
                const uint8_t *oids[3] = { NULL, NULL, NULL };
                uint32_t modes[3];
                const char *path;
                bool any = false;

                if (!take_str(&c, &path, &n) || n == 0 || n >= SBX_GIT_PATH_MAX)
                        return BAD(x, "offset %zu: a resolve-undo path that is empty or not NUL-terminated", at);
                memcpy(x->path[0], path, n + 1);
                for (int k = 0; k < 3; k++) {
                        if (!take_octal(&c, &modes[k]) || (modes[k] && !mode_known(modes[k])))
                                return BAD(x, "offset %zu: resolve-undo modes for '%s' are not three of git's modes",
                                           at, x->path[0]);
                        any |= modes[k] != 0;
                }
                for (int k = 0; k < 3; k++)
                        if (modes[k] && !take(&c, x->hash_len, &oids[k]))
                                return BAD(x, "offset %zu: resolve-undo object names for '%s' cut short", at, x->path[0]);
                if (!any)
                        return BAD(x, "offset %zu: a resolve-undo record for '%s' with no stage", at, x->path[0]);
                for (unsigned k = 0; k < 3; k++)
                        if (modes[k] && (r = report(fn, ud, x->path[0], n, modes[k], k + 1, oids[k], "REUC")) != 0)
                                return r;
        }
        return 0;
}

/* link (split-index.c): the shared index's object name, then optionally the delete and
 * replace bitmaps; nothing after them. */
static int ext_link(struct ix *x, size_t off, size_t size)
{
        struct cur c = { x->buf + off, size, 0 };
        struct bits del, rep;

        if (!take(&c, x->hash_len, NULL) ||
            (c.i < c.n && (!ewah(&c, &del) || !ewah(&c, &rep) || c.i != c.n)))
                return BAD(x, "offset %zu: a split-index link that is not '<oid>[<delete bitmap><replace bitmap>]'",
                           off);
        x->split = true;
        return 0;
}

/* FSMN (fsmonitor.c): version 1 and a 64-bit time, or version 2 and a NUL-terminated
 * token; then the size of an EWAH bitmap of the entries, and the bitmap. */
static int ext_fsmn(struct ix *x, size_t off, size_t size)
{
        struct cur c = { x->buf + off, size, 0 };
        uint32_t version, ewah_size;
        const char *token;
        struct bits b;
        size_t n, start;

        if (!take32(&c, &version) ||
            (version == 1 ? !take(&c, 8, NULL) : version != 2 || !take_str(&c, &token, &n)) ||
            !take32(&c, &ewah_size))
                return BAD(x, "offset %zu: an fsmonitor extension with a bad version or token", off);
        start = c.i;
        if (!ewah(&c, &b) || c.i - start != ewah_size || c.i != c.n)
                return BAD(x, "offset %zu: the fsmonitor bitmap is not the %u bytes it claims", off, ewah_size);
        x->fsmn_bits = b.size;
        x->fsmn_max = b.max;
        return 0;
}

/* UNTR (dir.c): the untracked cache.  Its directory blocks and names are paths git
 * joins to the work tree and lists, adds and cleans without looking at them again. */
static int ext_untr(struct ix *x, size_t off, size_t size, entry_fn fn, void *ud)
{
        struct cur c = { x->buf + off, size ? size - 1 : 0, 0 }; /* the last byte is a NUL */
        uint64_t ident_len, n_blocks, blocks = 0;
        struct bits valid, check_only, sha1_valid;
        const char *s;
        size_t n, depth = 0;
        int r;

        if (size < 2 || x->buf[off + size - 1] != '\0' || !take_varint(&c, &ident_len) ||
            !take(&c, (size_t)ident_len, NULL) || !take(&c, UNTR_FIXED + 2 * x->hash_len, NULL) ||
            !take_str(&c, &s, &n))
                return BAD(x, "offset %zu: an untracked-cache header cut short", off);
        if (c.i == c.n)
                return 0;
        if (!take_varint(&c, &n_blocks) || n_blocks > c.n)
                return BAD(x, "offset %zu: an untracked-cache block count that is not a varint", off);
        if (n_blocks == 0)
                return c.i == c.n ? 0 : BAD(x, "offset %zu: bytes after an empty untracked cache", off);
        do {
                size_t at = off + c.i, base;
                uint64_t n_names, n_dirs;
                const char *name;

                if (!take_varint(&c, &n_names) || !take_varint(&c, &n_dirs) || n_names > c.n || n_dirs > c.n ||
                    !take_str(&c, &name, &n) || ++blocks > n_blocks || (depth == 0) != (n == 0))
                        return BAD(x, "offset %zu: an untracked-cache directory block cut short or misnamed", at);
                if (depth) {
                        x->levels[depth - 1].left--;
                        if ((r = push_dir(x, depth, name, n, (uint32_t)n_dirs, at)) < 0)
                                return r;
                        if ((r = report(fn, ud, x->path[0], x->levels[depth].path_len, MODE_DIR, 0, NULL, "UNTR")) != 0)
                                return r;
                } else {
                        x->levels[0] = (struct level){ (uint32_t)n_dirs, 0 };
                        x->path[0][0] = '\0';
                }
                base = x->levels[depth].path_len;
                for (uint64_t k = 0; k < n_names; k++) {
                        if (!take_str(&c, &name, &n) || n == 0 || base + n >= SBX_GIT_PATH_MAX)
                                return BAD(x, "offset %zu: an untracked name that is empty, too long or cut short",
                                           off + c.i);
                        memcpy(x->path[0] + base, name, n);
                        x->path[0][base + n] = '\0';
                        r = report(fn, ud, x->path[0], base + n, name[n - 1] == '/' ? MODE_DIR : 0, 0, NULL, "UNTR");
                        x->path[0][base] = '\0';
                        if (r != 0)
                                return r;
                }
                depth++;
                while (depth && x->levels[depth - 1].left == 0)
                        depth--;
        } while (depth);
        if (blocks != n_blocks || !ewah(&c, &valid) || !ewah(&c, &check_only) || !ewah(&c, &sha1_valid) ||
            valid.max > n_blocks || check_only.max > n_blocks || sha1_valid.max > n_blocks ||
            !take(&c, (size_t)valid.set * STAT_DATA, NULL) || !take(&c, (size_t)sha1_valid.set * x->hash_len, NULL) ||
            c.i != c.n)
                return BAD(x, "offset %zu: the untracked cache's blocks, bitmaps or stat data do not add up", off);
        return 0;
}

/* EOIE: the offset of the first extension and a hash of the extension headers; git
 * finds it at a fixed distance from the end, so it must be the last one. */
static int ext_eoie(struct ix *x, size_t hdr, size_t size)
{
        if ((size != 4 + 20 && size != 4 + x->hash_len) || hdr + 8 + size != x->end)
                return BAD(x, "offset %zu: an EOIE extension that is not the last one or has the wrong size", hdr);
        if (be32(x->buf + hdr + 8) != x->ents_end)
                return BAD(x, "offset %zu: EOIE says the extensions start at offset %u, they start at %zu", hdr,
                           be32(x->buf + hdr + 8), x->ents_end);
        x->eoie_at = hdr;
        return 0;
}

static int ext_ieot(struct ix *x, size_t off, size_t size)
{
        if (size < 12 || (size - 4) % 8 || be32(x->buf + off) != 1)
                return BAD(x, "offset %zu: an IEOT extension that is not version 1 with whole blocks", off);
        x->ieot = off + 4;
        x->ieot_blocks = (size - 4) / 8;
        return 0;
}

static void note_ext(struct sbx_git_index_info *info, const uint8_t *sig)
{
        size_t l = strlen(info->exts);

        if (l + 6 > sizeof(info->exts))
                return;
        if (l)
                info->exts[l++] = ',';
        for (int k = 0; k < 4; k++)
                info->exts[l++] = (char)(sig[k] >= 0x20 && sig[k] < 0x7f ? sig[k] : '?');
        info->exts[l] = '\0';
}

static int extension(struct ix *x, size_t hdr, size_t size, unsigned *seen)
{
        static const char known[][5] = { "TREE", "REUC", "link", "UNTR", "FSMN", "EOIE", "IEOT", "sdir" };
        const uint8_t *sig = x->buf + hdr;
        size_t data = hdr + 8, k;

        for (k = 0; k < sizeof(known) / sizeof(known[0]) && memcmp(sig, known[k], 4) != 0; k++)
                ;
        if (k == sizeof(known) / sizeof(known[0])) {
                /* git skips an optional one ('A'..'Z') and refuses the index for any other */
                if (sig[0] < 'A' || sig[0] > 'Z')
                        x->unknown_required = true;
                return 0;
        }
        if (*seen & (1u << k))
                return BAD(x, "offset %zu: a second '%.4s' extension", hdr, known[k]);
        *seen |= 1u << k;
        switch (k) {
        case 0:
                x->tree = data, x->tree_n = size;
                return ext_tree(x, data, size, NULL, NULL);
        case 1:
                x->reuc = data, x->reuc_n = size;
                return ext_reuc(x, data, size, NULL, NULL);
        case 2:
                return ext_link(x, data, size);
        case 3:
                x->untr = data, x->untr_n = size;
                return ext_untr(x, data, size, NULL, NULL);
        case 4:
                return ext_fsmn(x, data, size);
        case 5:
                return ext_eoie(x, hdr, size);
        case 6:
                return ext_ieot(x, data, size);
        default:
                x->sdir = true;
                return size ? BAD(x, "offset %zu: an 'sdir' extension with content", hdr) : 0;
        }
}

static int walk_extensions(struct ix *x, struct sbx_git_index_info *info)
{
        size_t off = x->ents_end, size;
        unsigned seen = 0;
        int r;

        while (off < x->end) {
                if (x->end - off < 8)
                        return BAD(x, "offset %zu: %zu bytes before the checksum, too few for an extension", off,
                                   x->end - off);
                size = be32(x->buf + off + 4);
                if (size > x->end - off - 8)
                        return BAD(x, "offset %zu: extension '%.4s' of %zu bytes runs past the checksum", off,
                                   (const char *)x->buf + off, size);
                note_ext(info, x->buf + off);
                if ((r = extension(x, off, size, &seen)) < 0)
                        return r;
                off += 8 + size;
        }
        return 0;
}

/* What only the extensions can excuse, and git's fixed-place view of EOIE. */
static int cross_check(struct ix *x)
{

        if (x->dir_at && !x->sdir)
                return BAD(x, "offset %zu: a directory entry in an index without the 'sdir' extension", x->dir_at);
        if (x->empty_at && !x->split)
                return BAD(x, "offset %zu: an empty path outside split-index mode", x->empty_at);
        if (x->unsorted_at && !x->split)
                return BAD(x, "offset %zu: entries out of order (name, then stage)", x->unsorted_at);
        if (!x->split && (x->fsmn_bits > x->n_entries || x->fsmn_max > x->n_entries))
                return BAD(x, "the fsmonitor bitmap covers more entries than the index holds");
        if (x->end >= 12 + 32) {
                /* where read_eoie_extension() looks: an EOIE with a 20-byte hash, last */
                size_t fixed = x->end - 32;

                if (memcmp(x->buf + fixed, "EOIE", 4) == 0 && be32(x->buf + fixed + 4) == 24 && x->eoie_at != fixed)
                        return BAD(x, "offset %zu: bytes that git would read as an EOIE extension are not one", fixed);
        }
        return 0;
}

int sbx_git_index_walk(const uint8_t *buf, size_t len, size_t hash_len,
                       int (*fn)(const struct sbx_git_index_entry *e, void *userdata), void *userdata,
                       struct sbx_git_index_info *info, char *why, size_t why_size)
{
        struct ix x = { .buf = buf, .hash_len = hash_len, .why = why, .why_size = why_size };
        struct sbx_git_index_info dummy;
        int r;

        if (!info)
                info = &dummy;
        memset(info, 0, sizeof(*info));
        if (why && why_size)
                why[0] = '\0';
        if ((!buf && len) || (hash_len != 20 && hash_len != 32))
                return -EINVAL;
        if (len < 12 + hash_len || memcmp(buf, "DIRC", 4) != 0)
                return BAD(&x, "offset 0: not an index (no 'DIRC' header and checksum)");
        x.end = len - hash_len;
        x.version = be32(buf + 4);
        x.n_entries = be32(buf + 8);
        if (x.version < 2 || x.version > 4)
                return BAD(&x, "offset 4: index version %u, not 2, 3 or 4", x.version);

        /* pass 1: everything checked, nothing reported */
        if ((r = walk_entries(&x, NULL, NULL)) < 0 || (r = walk_extensions(&x, info)) < 0 ||
            (x.ieot && (r = walk_entries(&x, NULL, NULL)) < 0) || (r = cross_check(&x)) < 0)
                return r;
        info->version = x.version;
        info->n_entries = x.n_entries;
        info->split = x.split;
        info->unknown_required_ext = x.unknown_required;
        info->entries_end = x.ents_end;
        info->sparse = x.sdir;

        /* pass 2: the entries, then the paths the extensions name */
        if ((r = walk_entries(&x, fn, userdata)) != 0 || (x.tree_n && (r = ext_tree(&x, x.tree, x.tree_n, fn, userdata)) != 0) ||
            (x.reuc_n && (r = ext_reuc(&x, x.reuc, x.reuc_n, fn, userdata)) != 0) ||
            (x.untr_n && (r = ext_untr(&x, x.untr, x.untr_n, fn, userdata)) != 0))
                return r;
        return 0;
}
