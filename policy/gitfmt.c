/* SPDX-License-Identifier: MIT */
/* Paths, object names, ref names and the small state files of a git directory, as git
 * itself checks them.  Pure functions over caller buffers: a jail writes the bytes, so
 * every length is bounded by the buffer, never by a NUL or a count read from it.
 *
 * sbx_git_path_ok() is git's verify_path() (read-cache.c) with core.protectNTFS and
 * core.protectHFS on, walked component by component; CVE-2014-9390 is why git has it,
 * and an index written in a jail is how sbx would meet it (git does not check the
 * paths of an index it reads: "git checkout -- ." writes an entry
 * ".git/hooks/post-checkout" from one, and the next checkout runs it). */
#include "gitfmt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gitfmt-int.h"

int sbx_git_bad(char *why, size_t why_size, const char *fmt, ...)
{
        va_list ap;

        if (why && why_size) {
                va_start(ap, fmt);
                vsnprintf(why, why_size, fmt, ap);
                va_end(ap);
        }
        return -EBADMSG;
}

/* ------------------------------------------------------------------ paths */

/* A name at @s with @n bytes to the end of the whole path.  git's checks read
 * NUL-terminated strings and look past the component (NTFS rules stop only at the end
 * or ':'), so the end of the path reads as NUL here, and nothing past it is read. */
struct rest {
        const unsigned char *s;
        size_t n;
};

static unsigned char at(struct rest r, size_t i)
{
        return i < r.n ? r.s[i] : 0;
}

/* @needle (lowercase ASCII) at @i of @r, in any letter case. */
static bool ascii_ieq(struct rest r, size_t i, const char *needle, size_t len)
{
        for (size_t k = 0; k < len; k++)
                if (sbx_git_lower(at(r, i + k)) != (unsigned char)needle[k])
                        return false;
        return true;
}

/* NTFS trims trailing spaces and periods and reads "name:stream" as name: the tail of
 * a name that makes NTFS see only what came before it. */
static bool ntfs_tail(struct rest r, size_t i, bool dir_sep_ends)
{
        for (;; i++) {
                unsigned char c = at(r, i);

                if (c == '\0' || c == ':' || (dir_sep_ends && (c == '/' || c == '\\')))
                        return true;
                if (c != '.' && c != ' ')
                        return false;
        }
}

/* ".git" as NTFS reads it: ".git", ".GIT . .", ".git::$INDEX_ALLOCATION", or the
 * short name "git~1" (git makes .git the first entry, so it gets ~1).  Both
 * separators end a name, as in git's is_ntfs_dotgit(). */
static bool ntfs_dotgit(struct rest r)
{
        if (at(r, 0) == '.' && ascii_ieq(r, 1, "git", 3))
                return ntfs_tail(r, 4, true);
        if (ascii_ieq(r, 0, "git~1", 5))
                return ntfs_tail(r, 5, true);
        return false;
}

/* ".gitmodules" as NTFS reads it (git's is_ntfs_dotgitmodules()): the long name, its
 * regular short names "gitmod~1".."gitmod~4", and the hashed fall-back short names
 * "gi7eba~N" (six characters of @shortprefix, '~', digits; eight in all). */
static bool ntfs_dotgitmodules(struct rest r)
{
        static const char needle[] = "gitmodules", shortprefix[] = "gi7eba";
        bool tilde = false;
        size_t i;

        if (at(r, 0) == '.' && ascii_ieq(r, 1, needle, sizeof(needle) - 1))
                return ntfs_tail(r, sizeof(needle), false);
        if (ascii_ieq(r, 0, needle, 6) && at(r, 6) == '~' && at(r, 7) >= '1' && at(r, 7) <= '4')
                return ntfs_tail(r, 8, false);
        for (i = 0; i < 8; i++) {
                unsigned char c = at(r, i);

                if (c == '\0')
                        return false;
                if (tilde) {
                        if (c < '0' || c > '9')
                                return false;
                } else if (c == '~') {
                        i++;
                        if (at(r, i) < '1' || at(r, i) > '9')
                                return false;
                        tilde = true;
                } else if (i >= 6 || (c & 0x80) || sbx_git_lower(c) != (unsigned char)shortprefix[i]) {
                        return false;
                }
        }
        return ntfs_tail(r, i, false);
}

/* One UTF-8 character at *@i as git's pick_one_utf8_char() decodes it; -1 for a
 * malformed one (overlong, surrogate, U+FFFE/U+FFFF, past U+10FFFF, cut short). */
static long utf8_next(struct rest r, size_t *i)
{
        const unsigned char *s = r.s + *i;
        size_t left = r.n - *i;
        long ch;
        size_t n;

        if (left == 0)
                return 0;
        if (s[0] < 0x80) {
                ch = s[0];
                n = 1;
        } else if ((s[0] & 0xe0) == 0xc0) {
                if (left < 2 || (s[1] & 0xc0) != 0x80 || (s[0] & 0xfe) == 0xc0)
                        return -1;
                ch = ((long)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
                n = 2;
        } else if ((s[0] & 0xf0) == 0xe0) {
                if (left < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
                    (s[0] == 0xe0 && (s[1] & 0xe0) == 0x80) || (s[0] == 0xed && (s[1] & 0xe0) == 0xa0) ||
                    (s[0] == 0xef && s[1] == 0xbf && (s[2] & 0xfe) == 0xbe))
                        return -1;
                ch = ((long)(s[0] & 0x0f) << 12) | ((long)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
                n = 3;
        } else if ((s[0] & 0xf8) == 0xf0) {
                if (left < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80 ||
                    (s[0] == 0xf0 && (s[1] & 0xf0) == 0x80) || (s[0] == 0xf4 && s[1] > 0x8f) || s[0] > 0xf4)
                        return -1;
                ch = ((long)(s[0] & 0x07) << 18) | ((long)(s[1] & 0x3f) << 12) | ((long)(s[2] & 0x3f) << 6) |
                     (s[3] & 0x3f);
                n = 4;
        } else {
                return -1;
        }
        *i += n;
        return ch;
}

/* Code points a file system may drop from a name.  git's list (utf8.c, HFS+'s: U+200C..
 * U+200F, U+202A..U+202E, U+206A..U+206F, U+FEFF) is a subset of Unicode's
 * Default_Ignorable_Code_Point, all of which Linux's own UTF-8 casefolding (ext4, f2fs
 * and tmpfs directories with +F) drops too (a 2024 change to stop that was reverted in
 * 6.13-rc3): so the whole property, as perl's unicore table of Unicode 15 lists it. */
static bool ignorable(long c)
{
        static const long ranges[][2] = {
                { 0x00ad, 0x00ad },   { 0x034f, 0x034f },   { 0x061c, 0x061c },   { 0x115f, 0x1160 },
                { 0x17b4, 0x17b5 },   { 0x180b, 0x180f },   { 0x200b, 0x200f },   { 0x202a, 0x202e },
                { 0x2060, 0x206f },   { 0x3164, 0x3164 },   { 0xfe00, 0xfe0f },   { 0xfeff, 0xfeff },
                { 0xffa0, 0xffa0 },   { 0xfff0, 0xfff8 },   { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
                { 0xe0000, 0xe0fff },
        };

        for (size_t k = 0; k < sizeof(ranges) / sizeof(ranges[0]); k++)
                if (c >= ranges[k][0] && c <= ranges[k][1])
                        return true;
        return false;
}

/* The next character HFS+ (or a casefolding Linux directory) compares: ignorable code
 * points skipped, ASCII lowercased, U+017F LATIN SMALL LETTER LONG S folded to 's' as
 * Unicode casefolding does; -1 malformed, 0 at the end. */
static long hfs_next(struct rest r, size_t *i)
{
        for (;;) {
                long c = utf8_next(r, i);

                if (c < 0 || c == 0)
                        return c;
                if (ignorable(c))
                        continue;
                if (c == 0x17f)
                        return 's';
                return c < 0x80 ? sbx_git_lower((unsigned char)c) : c;
        }
}

/* "." + @needle as HFS+ reads it (git's is_hfs_dot_generic()): followed by the end of
 * the name, or by a character that is not UTF-8 (git's conservative answer). */
static bool hfs_dot(struct rest r, const char *needle)
{
        size_t i = 0;
        long c;

        if (hfs_next(r, &i) != '.')
                return false;
        for (; *needle; needle++)
                if (hfs_next(r, &i) != (unsigned char)*needle)
                        return false;
        c = hfs_next(r, &i);
        return c <= 0 || c == '/';
}

/* verify_dotfile(): ".", "..", ".git" in any case, and ".gitmodules" as a symlink. */
static bool dotfile_ok(const unsigned char *s, size_t n, bool symlink)
{
        struct rest r = { s, n };

        if (n == 0 || s[0] != '.')
                return true;
        if (n == 1 || (n == 2 && s[1] == '.'))
                return false;
        if (n == 4 && ascii_ieq(r, 1, "git", 3))
                return false;
        return !(symlink && n == 11 && ascii_ieq(r, 1, "gitmodules", 10));
}

/* A name (a component, or what follows a backslash in one) that NTFS or HFS+ would read
 * as .git, or as .gitmodules for a symlink. */
static bool aliases_dotgit(struct rest r, bool symlink)
{
        if (hfs_dot(r, "git") || ntfs_dotgit(r))
                return true;
        return symlink && (hfs_dot(r, "gitmodules") || ntfs_dotgitmodules(r));
}

bool sbx_git_path_ok(const char *path, size_t len, uint32_t mode)
{
        const unsigned char *p = (const unsigned char *)path;
        bool symlink = (mode & S_IFMT) == S_IFLNK, dir = (mode & S_IFMT) == S_IFDIR;
        size_t start = 0;

        if (!path || len == 0 || memchr(path, '\0', len))
                return false;
        for (;;) {
                const unsigned char *slash = memchr(p + start, '/', len - start);
                size_t end = slash ? (size_t)(slash - p) : len;
                struct rest r = { p + start, len - start };

                if (end == start)
                        /* an empty component: leading '/', "//", or a trailing '/' that
                         * only a sparse directory entry may have */
                        return start == len && start > 1 && dir;
                if (!dotfile_ok(p + start, end - start, symlink) || aliases_dotgit(r, symlink))
                        return false;
                /* protectNTFS: '\\' separates names too */
                for (size_t k = start; k < end; k++) {
                        struct rest after = { p + k + 1, len - k - 1 };

                        if (p[k] == '\\' && aliases_dotgit(after, symlink))
                                return false;
                }
                if (!slash)
                        return true;
                start = end + 1;
        }
}

/* ------------------------------------------------------------------ names */

static bool is_hex_lower(unsigned char c)
{
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool sbx_git_oid_hex(const char *s, size_t len)
{
        if (!s || (len != 40 && len != 64))
                return false;
        for (size_t i = 0; i < len; i++)
                if (!is_hex_lower((unsigned char)s[i]))
                        return false;
        return true;
}

/* check_refname_component(): a component that may not be empty, start with '.', end
 * with ".lock", or hold "..", "@{", a control character, space, ~ ^ : ? * [ or \. */
static bool ref_component_ok(const unsigned char *s, size_t n)
{
        if (n == 0 || s[0] == '.')
                return false;
        if (n >= 5 && memcmp(s + n - 5, ".lock", 5) == 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = s[i];

                if (c < 0x20 || c == 0x7f || strchr(" ~^:?*[\\", c))
                        return false;
                if (i > 0 && ((c == '.' && s[i - 1] == '.') || (c == '{' && s[i - 1] == '@')))
                        return false;
        }
        return true;
}

bool sbx_git_refname_ok(const char *name, size_t len)
{
        const unsigned char *p = (const unsigned char *)name;
        size_t start = 0;

        if (!name || len < 6 || memcmp(name, "refs/", 5) != 0 || memchr(name, '\0', len))
                return false;
        if (p[len - 1] == '.')
                return false;
        for (;;) {
                const unsigned char *slash = memchr(p + start, '/', len - start);
                size_t end = slash ? (size_t)(slash - p) : len;

                if (!ref_component_ok(p + start, end - start))
                        return false;
                if (!slash)
                        return true;
                start = end + 1;
        }
}

/* ------------------------------------------------------------------ state files */

struct lines {
        const char *buf;
        size_t len, pos;
        unsigned n; /* the line number of the last line returned */
};

/* The next '\n'-terminated line (without it); false at the end.  A last line without
 * its '\n' is returned with @complete false. */
static bool next_line(struct lines *l, const char **s, size_t *n, bool *complete)
{
        const char *nl;

        if (l->pos >= l->len)
                return false;
        *s = l->buf + l->pos;
        nl = memchr(*s, '\n', l->len - l->pos);
        *n = nl ? (size_t)(nl - *s) : l->len - l->pos;
        *complete = nl != NULL;
        l->pos += *n + (nl ? 1 : 0);
        l->n++;
        return true;
}

/* An object name the same length as the file's others (@hexlen, 0 before the first). */
static bool oid_of_file(const char *s, size_t n, size_t *hexlen)
{
        if (!sbx_git_oid_hex(s, n) || (*hexlen && n != *hexlen))
                return false;
        *hexlen = n;
        return true;
}

static int check_oid(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        size_t hexlen = 0;

        if (len < 1 || buf[len - 1] != '\n' || !oid_of_file((const char *)buf, len - 1, &hexlen))
                return sbx_git_bad(why, ws, "not an object name and a newline");
        return 0;
}

static int check_head(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        if (len >= 5 && memcmp(buf, "ref: ", 5) == 0) {
                if (buf[len - 1] != '\n' || !sbx_git_refname_ok((const char *)buf + 5, len - 6))
                        return sbx_git_bad(why, ws, "'ref: ' is not followed by a ref name under refs/ and a newline");
                return 0;
        }
        return check_oid(buf, len, why, ws);
}

static int oid_lines(const uint8_t *buf, size_t len, bool nonempty, char *why, size_t ws)
{
        struct lines l = { (const char *)buf, len, 0, 0 };
        size_t n, hexlen = 0;
        const char *s;
        bool complete;

        if (nonempty && len == 0)
                return sbx_git_bad(why, ws, "empty");
        while (next_line(&l, &s, &n, &complete))
                if (!complete || !oid_of_file(s, n, &hexlen))
                        return sbx_git_bad(why, ws, "line %u: not an object name and a newline", l.n);
        return 0;
}

static int check_merge_head(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        return oid_lines(buf, len, true, why, ws);
}

static int check_shallow(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        return oid_lines(buf, len, false, why, ws);
}

/* builtin/fetch.c's append_fetch_head(): "<oid>\t<'' or 'not-for-merge'>\t<note><url>\n",
 * newlines in the URL written as "\n". */
static int check_fetch_head(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        struct lines l = { (const char *)buf, len, 0, 0 };
        size_t n, hexlen = 0;
        const char *s, *tab;
        bool complete;

        if (memchr(buf, '\0', len))
                return sbx_git_bad(why, ws, "holds a NUL byte");
        while (next_line(&l, &s, &n, &complete)) {
                tab = memchr(s, '\t', n);
                if (!complete || !tab || !oid_of_file(s, (size_t)(tab - s), &hexlen))
                        return sbx_git_bad(why, ws, "line %u: not '<object name>\\t<merge mark>\\t<description>\\n'", l.n);
                n -= (size_t)(tab - s) + 1;
                s = tab + 1;
                if (n >= 14 && memcmp(s, "not-for-merge\t", 14) == 0)
                        continue;
                if (n < 1 || s[0] != '\t')
                        return sbx_git_bad(why, ws, "line %u: the merge mark is neither '' nor 'not-for-merge'", l.n);
        }
        return 0;
}

/* The traits line of refs/packed-backend.c; "sorted" among them (space-separated). */
static bool has_trait(const char *s, size_t n, const char *trait)
{
        size_t tl = strlen(trait), i = 0;

        while (i < n) {
                size_t e = i;

                while (e < n && s[e] != ' ')
                        e++;
                if (e - i == tl && memcmp(s + i, trait, tl) == 0)
                        return true;
                i = e + 1;
        }
        return false;
}

static int refcmp(const char *a, size_t an, const char *b, size_t bn)
{
        int c = memcmp(a, b, an < bn ? an : bn);

        return c ? c : (an > bn) - (an < bn);
}

/* packed-refs: an optional "# pack-refs with: <traits>" line, then "<oid> <refname>"
 * lines, each perhaps followed by one "^<oid>" line (the peeled tag).  With the
 * "sorted" trait git binary-searches the file, so the names must be in strictly
 * increasing order, or git and sbx would not see the same refs. */
static int check_packed_refs(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        struct lines l = { (const char *)buf, len, 0, 0 };
        const char *s, *prev = NULL, *sp;
        size_t n, prev_n = 0, hexlen = 0;
        bool complete, sorted = false, can_peel = false;

        if (memchr(buf, '\0', len))
                return sbx_git_bad(why, ws, "holds a NUL byte");
        while (next_line(&l, &s, &n, &complete)) {
                if (!complete)
                        return sbx_git_bad(why, ws, "line %u: not terminated by a newline", l.n);
                if (l.n == 1 && n > 0 && s[0] == '#') {
                        if (n < 17 || memcmp(s, "# pack-refs with:", 17) != 0)
                                return sbx_git_bad(why, ws, "line 1: a comment that is not '# pack-refs with: <traits>'");
                        sorted = has_trait(s + 17, n - 17, "sorted");
                        continue;
                }
                if (n > 0 && s[0] == '^') {
                        if (!can_peel || !oid_of_file(s + 1, n - 1, &hexlen))
                                return sbx_git_bad(why, ws, "line %u: a '^<object name>' line not after a ref", l.n);
                        can_peel = false;
                        continue;
                }
                sp = memchr(s, ' ', n);
                if (!sp || !oid_of_file(s, (size_t)(sp - s), &hexlen) ||
                    !sbx_git_refname_ok(sp + 1, n - (size_t)(sp - s) - 1))
                        return sbx_git_bad(why, ws, "line %u: not '<object name> <ref name under refs/>'", l.n);
                n -= (size_t)(sp - s) + 1;
                /* A replace ref makes git show another object in place of one
                 * (git-replace(1)): never from a jail (refs/replace/ is read-only). */
                if (n >= 13 && memcmp(sp + 1, "refs/replace/", 13) == 0)
                        return sbx_git_bad(why, ws, "line %u: a replace ref (refs/replace/), which would make git show another object in place of one", l.n);
                if (sorted && prev && refcmp(prev, prev_n, sp + 1, n) >= 0)
                        return sbx_git_bad(why, ws, "line %u: ref names out of order in a file marked sorted", l.n);
                prev = sp + 1;
                prev_n = n;
                can_peel = true;
        }
        return 0;
}

/* builtin/merge.c writes "no-ff" (no newline) or nothing. */
static int check_merge_mode(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        if (len == 0 || (len == 5 && memcmp(buf, "no-ff", 5) == 0))
                return 0;
        return sbx_git_bad(why, ws, "neither empty nor 'no-ff'");
}

#define SBX_GIT_MSG_MAX (1u << 20)

static int check_text(const uint8_t *buf, size_t len, char *why, size_t ws)
{
        const uint8_t *nul = memchr(buf, '\0', len);

        if (len > SBX_GIT_MSG_MAX)
                return sbx_git_bad(why, ws, "%zu bytes, more than the %u a message may have", len, SBX_GIT_MSG_MAX);
        if (nul)
                return sbx_git_bad(why, ws, "a NUL byte at offset %zu", (size_t)(nul - buf));
        return 0;
}

static const struct {
        const char *name;
        int (*check)(const uint8_t *buf, size_t len, char *why, size_t why_size);
} state_files[] = {
        { "HEAD", check_head },
        { "ORIG_HEAD", check_oid },
        { "CHERRY_PICK_HEAD", check_oid },
        { "REVERT_HEAD", check_oid },
        { "AUTO_MERGE", check_oid },
        { "MERGE_HEAD", check_merge_head },
        { "shallow", check_shallow },
        { "FETCH_HEAD", check_fetch_head },
        { "packed-refs", check_packed_refs },
        { "MERGE_MODE", check_merge_mode },
        { "MERGE_MSG", check_text },
        { "SQUASH_MSG", check_text },
        { "COMMIT_EDITMSG", check_text },
        { "TAG_EDITMSG", check_text },
};

int sbx_git_state_check(const char *name, const uint8_t *buf, size_t len, char *why, size_t why_size)
{
        if (why && why_size)
                why[0] = '\0';
        if (!name)
                return -ENOENT;
        if (!buf && len)
                return -EINVAL;
        for (size_t i = 0; i < sizeof(state_files) / sizeof(state_files[0]); i++)
                if (strcmp(state_files[i].name, name) == 0)
                        return state_files[i].check(buf ? buf : (const uint8_t *)"", len, why, why_size);
        return -ENOENT;
}
