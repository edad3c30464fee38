/* SPDX-License-Identifier: MIT */
/* Paths, object names, ref names and state files, each against this machine's git:
 * - sbx_git_path_ok() on every form of ".git" (case, NTFS trailing dots and spaces,
 *   streams and short names, HFS+ ignorable code points, '\' separators, ".." and "."
 *   components, empty components, absolute paths, NUL) and of a symlinked ".gitmodules",
 *   decided as git's verify_path() decides with core.protectNTFS and core.protectHFS on
 *   (`git update-index --index-info` skips what verify_path() refuses), except where sbx
 *   is stricter on purpose, which is asserted as such;
 * - sbx_git_refname_ok() as `git check-ref-format` decides, under refs/;
 * - sbx_git_state_check() on the state files git writes (a merge with conflicts, a
 *   cherry-pick and a revert that conflict, a fetch, pack-refs with a peeled tag, a
 *   shallow clone, a commit and a tag through an editor, SHA-256), and on forged ones. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../policy/gitfmt.h"
#include "gittest.h"
#include "unit.h"

#define G "unit-gitfmt"

/* ------------------------------------------------------------------ paths */

enum { REFUSE, ACCEPT, STRICTER /* git accepts, sbx refuses on purpose */ };

struct path_case {
        const char *path;
        size_t len; /* 0: strlen */
        uint32_t mode;
        int want;
        bool no_git; /* not a path update-index can take (empty, absolute, trailing '/', NUL) */
};

#define F 0100644u
#define L 0120000u
#define D 040000u

static const struct path_case paths[] = {
        { "a", 0, F, ACCEPT, false },
        { "a/b/c", 0, F, ACCEPT, false },
        { ".gitignore", 0, F, ACCEPT, false },
        { ".gitattributes", 0, L, ACCEPT, false },
        { ".gitmodules", 0, F, ACCEPT, false },
        { "a/.gitmodules", 0, F, ACCEPT, false },
        { "git", 0, F, ACCEPT, false },
        { ".git2", 0, F, ACCEPT, false },
        { ".gitx/y", 0, F, ACCEPT, false },
        { "git~2", 0, F, ACCEPT, false },
        { ".git~1", 0, F, ACCEPT, false },
        { "a.git", 0, F, ACCEPT, false },
        { "...", 0, F, ACCEPT, false },
        { ".a", 0, F, ACCEPT, false },
        { "a b", 0, F, ACCEPT, false },
        { "a\\b", 0, F, ACCEPT, false },
        { "a:b", 0, F, ACCEPT, false },
        { "-rf", 0, F, ACCEPT, false },
        { "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "d" "\xc3\xa9", 0, F, ACCEPT, false },
        { "gi7eba~1", 0, F, ACCEPT, false },
        { "gitmod~5", 0, L, ACCEPT, false },
        { ".gitmodulesx", 0, L, ACCEPT, false },
        { "gitmodules", 0, L, ACCEPT, false },
        { "\xff\xfe", 0, F, ACCEPT, false },
        /* ".git" and what NTFS or HFS+ reads as it */
        { ".git", 0, F, REFUSE, false },
        { ".GIT", 0, F, REFUSE, false },
        { ".Git", 0, F, REFUSE, false },
        { ".gIt/config", 0, F, REFUSE, false },
        { "a/.git", 0, F, REFUSE, false },
        { "a/.git/b", 0, F, REFUSE, false },
        { ".git/hooks/post-checkout", 0, F, REFUSE, false },
        { ".git.", 0, F, REFUSE, false },
        { ".git..", 0, F, REFUSE, false },
        { ".git ", 0, F, REFUSE, false },
        { ".git  ", 0, F, REFUSE, false },
        { ".git . .", 0, F, REFUSE, false },
        { ".git ./x", 0, F, REFUSE, false },
        { ".git:", 0, F, REFUSE, false },
        { ".git::$INDEX_ALLOCATION", 0, F, REFUSE, false },
        { ".git:stream/x", 0, F, REFUSE, false },
        { "git~1", 0, F, REFUSE, false },
        { "GIT~1", 0, F, REFUSE, false },
        { "Git~1/x", 0, F, REFUSE, false },
        { "git~1.", 0, F, REFUSE, false },
        { "git~1 ", 0, F, REFUSE, false },
        { "git~1:x", 0, F, REFUSE, false },
        { ".g\xe2\x80\x8cit", 0, F, REFUSE, false },          /* U+200C */
        { ".g\xe2\x80\x8dit", 0, F, REFUSE, false },          /* U+200D */
        { "\xe2\x80\x8e.git", 0, F, REFUSE, false },          /* U+200E */
        { ".git\xe2\x80\x8f", 0, F, REFUSE, false },          /* U+200F */
        { ".gi\xef\xbb\xbft", 0, F, REFUSE, false },          /* U+FEFF */
        { ".\xe2\x80\xaagit", 0, F, REFUSE, false },          /* U+202A */
        { ".g\xe2\x81\xaait", 0, F, REFUSE, false },          /* U+206A */
        { ".GI\xe2\x80\x8cT/hooks", 0, F, REFUSE, false },
        { ".git\xff", 0, F, REFUSE, false },                  /* HFS: not UTF-8 after .git */
        { "a\\.git", 0, F, REFUSE, false },
        { "a\\git~1", 0, F, REFUSE, false },
        { "x\\.GIT\\y", 0, F, REFUSE, false },
        { ".git\\x", 0, F, REFUSE, false },
        { "a\\.git. \\b", 0, F, REFUSE, false },
        /* components */
        { ".", 0, F, REFUSE, false },
        { "..", 0, F, REFUSE, false },
        { "./a", 0, F, REFUSE, false },
        { "./.git", 0, F, REFUSE, false },
        { "a/.", 0, F, REFUSE, false },
        { "a/..", 0, F, REFUSE, false },
        { "../a", 0, F, REFUSE, false },
        { "a/../.git", 0, F, REFUSE, false },
        { "a/../b", 0, F, REFUSE, false },
        { "a//b", 0, F, REFUSE, false },
        { "//a", 0, F, REFUSE, true },
        { "/a", 0, F, REFUSE, true },
        { "/etc/passwd", 0, F, REFUSE, true },
        { "/", 0, F, REFUSE, true },
        { "", 0, F, REFUSE, true },
        { "a/", 0, F, REFUSE, true },
        { "a/b/", 0, L, REFUSE, true },
        { "a\0b", 3, F, REFUSE, true },
        { "a\0", 2, F, REFUSE, true },
        /* sparse directory entries: "dir/", mode 040000 */
        { "a/", 0, D, ACCEPT, true },
        { "a/b/", 0, D, ACCEPT, true },
        { "a", 0, D, ACCEPT, true },
        { ".git/", 0, D, REFUSE, true },
        { "a/.GIT/", 0, D, REFUSE, true },
        { "a//", 0, D, REFUSE, true },
        { "/", 0, D, REFUSE, true },
        /* a symlinked .gitmodules */
        { ".gitmodules", 0, L, REFUSE, false },
        { ".GITMODULES", 0, L, REFUSE, false },
        { "a/.gitmodules", 0, L, REFUSE, false },
        { "a/.gitmodules/b", 0, L, REFUSE, false },
        { ".gitmodules.", 0, L, REFUSE, false },
        { ".gitmodules ", 0, L, REFUSE, false },
        { ".gitmodules:x", 0, L, REFUSE, false },
        { "gitmod~1", 0, L, REFUSE, false },
        { "GITMOD~4", 0, L, REFUSE, false },
        { "gi7eba~1", 0, L, REFUSE, false },
        { "gi7eba~9", 0, L, REFUSE, false },
        { "gi7eb~12", 0, L, REFUSE, false },
        { ".g\xe2\x80\x8citmodules", 0, L, REFUSE, false },
        { ".gitmodules\xe2\x80\x8c", 0, L, REFUSE, false },
        { "x\\.gitmodules", 0, L, REFUSE, false },
        /* stricter than git: Default_Ignorable_Code_Point beyond HFS+'s list, U+017F */
        { ".g\xc2\xadit", 0, F, STRICTER, false },            /* U+00AD SOFT HYPHEN */
        { ".git\xcd\x8f", 0, F, STRICTER, false },            /* U+034F */
        { ".\xe1\xa0\x8egit/x", 0, F, STRICTER, false },      /* U+180E */
        { ".g\xf3\xa0\x80\x81it", 0, F, STRICTER, false },    /* U+E0001 */
        { ".gi\xe2\x81\xa0t", 0, F, STRICTER, false },        /* U+2060 WORD JOINER */
        { ".gitmodule\xc5\xbf", 0, L, STRICTER, false },      /* U+017F LONG S */
        { ".gitmodules\xc2\xad", 0, L, STRICTER, false },
};

/* Components to combine: with "a" before and after, alone, as files and symlinks. */
static const char *const parts[] = {
        ".git", ".GIT", "git~1", "GIT~1", ".git.", ".git ", ".git. .", ".git::$INDEX_ALLOCATION", ".git:x",
        ".gitmodules", ".GITMODULES", "gitmod~1", "gi7eba~1", "gi7eba~9", ".gitmodules.", ".gitmodules ",
        ".gitmodules:x", "a", ".", "..", "...", ".a", "a.git", "git", "git~2", ".g\xe2\x80\x8cit",
        "\xe2\x80\x8c.git", ".git\xe2\x80\x8d", ".gi\xef\xbb\xbft", "a\\.git", "a\\git~1", ".git\\a", " .git",
        ".git\xff", "\xff", ".git~1", "GIT~1 .", ".gitmodules\xef\xbb\xbf", "gitmod~5", "Gi7eBa~3",
};

struct probe {
        char path[128];
        size_t len;
        uint32_t mode;
        int want; /* ACCEPT/REFUSE/STRICTER, or -1: whatever git says */
};

static struct probe probes[1024];
static size_t n_probes;

static void probe(const char *path, size_t len, uint32_t mode, int want)
{
        if (n_probes < sizeof(probes) / sizeof(probes[0]) && len < sizeof(probes[0].path)) {
                memcpy(probes[n_probes].path, path, len);
                probes[n_probes].len = len;
                probes[n_probes].mode = mode;
                probes[n_probes++].want = want;
        }
}

static void paths_vs_git(void)
{
        FILE *f;
        uint8_t *listed;
        size_t n = 0, disagree = 0, stricter = 0;
        char name[300];

        for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
                const struct path_case *c = &paths[i];
                size_t len = c->len ? c->len : strlen(c->path);
                bool ok = sbx_git_path_ok(c->path, len, c->mode);

                snprintf(name, sizeof(name), "path '%.*s' (%06o) %s", (int)len, c->path, c->mode,
                         c->want == ACCEPT ? "accepted" : "refused");
                CHECK(G, name, ok == (c->want == ACCEPT));
                if (!c->no_git)
                        probe(c->path, len, c->mode, c->want);
        }
        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
                char p[128];

                for (uint32_t m = 0; m < 2; m++) {
                        uint32_t mode = m ? L : F;

                        probe(parts[i], strlen(parts[i]), mode, -1);
                        snprintf(p, sizeof(p), "a/%s", parts[i]);
                        probe(p, strlen(p), mode, -1);
                        snprintf(p, sizeof(p), "%s/a", parts[i]);
                        probe(p, strlen(p), mode, -1);
                        snprintf(p, sizeof(p), "%s/%s", parts[i], parts[(i + 7) % (sizeof(parts) / sizeof(parts[0]))]);
                        probe(p, strlen(p), mode, -1);
                }
        }
        /* each path under its own directory pN, so no two entries collide */
        f = fopen("paths.in", "we");
        for (size_t i = 0; f && i < n_probes; i++) {
                fprintf(f, "%06o e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\tp%zu/", probes[i].mode, i);
                fwrite(probes[i].path, 1, probes[i].len, f);
                fputc('\0', f);
        }
        CHECK(G, "paths: the probe list written", f && fclose(f) == 0);
        CHECK(G, "paths: git update-index --index-info with protectNTFS and protectHFS",
              gt_sh("set -e; git init -q pr && cd pr && GIT_INDEX_FILE=../paths.idx git -c core.protectNTFS=true "
                    "-c core.protectHFS=true update-index -z --index-info <../paths.in 2>/dev/null") == 0);
        listed = gt_out(&n, "cd pr && GIT_INDEX_FILE=../paths.idx git ls-files -z");
        for (size_t i = 0; listed && i < n_probes; i++) {
                char want[160];
                int wl = snprintf(want, sizeof(want), "p%zu/", i);
                bool git_ok, ours = sbx_git_path_ok(probes[i].path, probes[i].len, probes[i].mode);

                memcpy(want + wl, probes[i].path, probes[i].len);
                want[wl + (int)probes[i].len] = '\0';
                /* the entry listed as "pN/path\0", at the start or after a NUL */
                git_ok = false;
                for (size_t k = 0; k < n; k += strlen((char *)listed + k) + 1)
                        if (strcmp((char *)listed + k, want) == 0)
                                git_ok = true;
                if (probes[i].want == STRICTER) {
                        stricter++;
                        snprintf(name, sizeof(name), "path '%.*s' (%06o): git accepts it, sbx refuses it on purpose",
                                 (int)probes[i].len, probes[i].path, probes[i].mode);
                        CHECK(G, name, git_ok && !ours);
                } else if (git_ok != ours) {
                        disagree++;
                        snprintf(name, sizeof(name), "path '%.*s' (%06o): git %s it, sbx %s it", (int)probes[i].len,
                                 probes[i].path, probes[i].mode, git_ok ? "accepts" : "refuses",
                                 ours ? "accepts" : "refuses");
                        CHECK(G, name, false);
                }
        }
        snprintf(name, sizeof(name), "paths: %zu probes decided as git's verify_path() decides (%zu stricter on purpose)",
                 n_probes, stricter);
        CHECK(G, name, listed && disagree == 0 && n_probes > 300);
        free(listed);
        CHECK(G, "path NULL refused", !sbx_git_path_ok(NULL, 3, F));
}

/* ------------------------------------------------------------------ names */

static void oids(void)
{
        CHECK(G, "oid: 40 hex", sbx_git_oid_hex("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", 40));
        CHECK(G, "oid: 64 hex", sbx_git_oid_hex("473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813", 64));
        CHECK(G, "oid: uppercase refused", !sbx_git_oid_hex("E69DE29BB2D1D6434B8B29AE775AD8C2E48C5391", 40));
        CHECK(G, "oid: 39 refused", !sbx_git_oid_hex("e69de29bb2d1d6434b8b29ae775ad8c2e48c539", 39));
        CHECK(G, "oid: 41 refused", !sbx_git_oid_hex("e69de29bb2d1d6434b8b29ae775ad8c2e48c53910", 41));
        CHECK(G, "oid: 'g' refused", !sbx_git_oid_hex("g69de29bb2d1d6434b8b29ae775ad8c2e48c5391", 40));
        CHECK(G, "oid: NUL refused", !sbx_git_oid_hex("e69de29bb2d1d6434b8b29ae775ad8c2e48c539\0", 40));
        CHECK(G, "oid: empty refused", !sbx_git_oid_hex("", 0));
}

/* `git check-ref-format NAME`, without a shell between. */
static int check_ref_format(const char *name)
{
        pid_t pid = fork();
        int st;

        if (pid == 0) {
                int null = open("/dev/null", O_WRONLY);

                dup2(null, 2);
                execlp("git", "git", "check-ref-format", name, (char *)NULL);
                _exit(127);
        }
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
                return -1;
        return WEXITSTATUS(st);
}

static void refnames(void)
{
        static const char *const names[] = {
                "refs/heads/main", "refs/heads/a.b", "refs/heads/feature/x-1", "refs/tags/v1.0", "refs/remotes/o/HEAD",
                "refs/heads/.a", "refs/heads/a.", "refs/heads/a..b", "refs/heads/a.lock", "refs/heads/a.lock/b",
                "refs/heads/.lock", "refs/heads/lock", "refs/heads/x.loc", "refs/heads/@{x}", "refs/heads/@",
                "refs/heads/a@b", "refs/heads/a@{", "refs/heads/{", "refs/heads/a{b", "refs/heads/a b",
                "refs/heads/a~b", "refs/heads/a^b", "refs/heads/a:b", "refs/heads/a?b", "refs/heads/a*b",
                "refs/heads/a[b", "refs/heads/a]b", "refs/heads/a\\b", "refs/heads/a\tb", "refs/heads/a\x01" "b",
                "refs/heads/a\x7f" "b", "refs/heads/a\x1f", "refs/heads//a", "refs/heads/a/", "/refs/heads/a",
                "refs/heads/a/.b", "refs/heads/\xc3\xbc\xc3\xa9", "refs/heads/\xff", "HEAD", "refs", "refs/",
                "refs/x", "refs/.x", "heads/main", "refs/heads/-x", "refs/heads/a/b/c.d/e", "refs/heads/a.b.",
                "refs/heads/..", "refs/heads/.", "refs/../config", "refs/heads/a/../b", "refs/heads/a@{1}",
                "refs/heads/@@", "refs/heads/a.lockx", "refs/heads/a.LOCK", "refs/heads/%", "refs/heads/a!b",
                "refs/heads/a\"b", "refs/heads/a'b", "refs/heads/a#b", "refs/heads/a$b", "refs/heads/a/b.lock/c",
                "REFS/heads/x", "refs/heads/x/", "refs//x", "refsx/heads", "refs/heads/a@",
        };
        size_t disagree = 0;
        char name[200];

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                int git = check_ref_format(names[i]);
                bool want = git == 0 && strncmp(names[i], "refs/", 5) == 0;

                if (git < 0 || git > 1 || sbx_git_refname_ok(names[i], strlen(names[i])) != want) {
                        disagree++;
                        snprintf(name, sizeof(name), "refname '%s': git check-ref-format says %d, sbx %s", names[i],
                                 git, want ? "refuses" : "accepts");
                        CHECK(G, name, false);
                }
        }
        snprintf(name, sizeof(name), "refnames: %zu names decided as git check-ref-format (under refs/)",
                 sizeof(names) / sizeof(names[0]));
        CHECK(G, name, disagree == 0);
        CHECK(G, "refname with a NUL refused", !sbx_git_refname_ok("refs/heads/a\0b", 14));
        CHECK(G, "refname: only @len bytes read", sbx_git_refname_ok("refs/heads/abc..", 14));
}

/* ------------------------------------------------------------------ state files */

static void state_ok(const char *label, const char *repo, const char *file)
{
        char path[256], why[200] = "", name[300];
        size_t n = 0;
        uint8_t *b;
        int r;

        snprintf(path, sizeof(path), "%s/.git/%s", repo, file);
        b = gt_slurp(path, &n);
        r = b ? sbx_git_state_check(file, b, n, why, sizeof(why)) : -ENOENT;
        snprintf(name, sizeof(name), "%s: git's %s accepted", label, file);
        CHECK(G, name, r == 0);
        if (r)
                fprintf(stderr, "%s %s: r=%d %s\n--\n%s--\n", label, file, r, why, b ? (char *)b : "(missing)");
        free(b);
}

static void state_bad(const char *file, const char *text, size_t len, const char *label)
{
        char why[200] = "", name[300];
        int r = sbx_git_state_check(file, (const uint8_t *)text, len ? len : strlen(text), why, sizeof(why));

        snprintf(name, sizeof(name), "%s: %s refused", file, label);
        CHECK(G, name, r == -EBADMSG && why[0]);
}

#define OID "e5bfe2dd87b8a172718d3808ade804e2f51ee256"
#define OID2 "305e557503aac42fbf241c12017e1446167913f9"
#define OID256 "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"

static void states(void)
{
        CHECK(G, "git: editors, a repository and its upstream",
              gt_sh("set -e; exec >/dev/null 2>&1; printf '#!/bin/sh\\nprintf \"from the editor\\\\n\" >\"$1\"\\n' >ed;"
                    "printf '#!/bin/sh\\nexit 1\\n' >baded; chmod +x ed baded;"
                    "git init -q -b main up && cd up && echo a > f && git add f && git commit -qm 1 &&"
                    "git tag -a -m t v1 && git checkout -qb side && echo s > g && git add g && git commit -qm s &&"
                    "git checkout -q main && git checkout -qb other && echo o > f && git commit -qam o &&"
                    "git checkout -q main && echo m > f && git commit -qam m && git clone -q . ../st") == 0);
        state_ok("clone", "st", "HEAD");
        state_ok("clone", "st", "packed-refs");
        CHECK(G, "git: commit through an editor, a failed annotated tag",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && GIT_EDITOR=../ed git commit -q --allow-empty &&"
                    "! GIT_EDITOR=../baded git tag -a t2 && test -f .git/TAG_EDITMSG") == 0);
        state_ok("commit", "st", "COMMIT_EDITMSG");
        state_ok("tag", "st", "TAG_EDITMSG");
        CHECK(G, "git: merge --no-ff with conflicts",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git checkout -q -b o origin/other &&"
                    "git checkout -q main && ! git merge --no-ff o && test -f .git/MERGE_HEAD") == 0);
        state_ok("merge", "st", "MERGE_HEAD");
        state_ok("merge", "st", "MERGE_MSG");
        state_ok("merge", "st", "MERGE_MODE");
        state_ok("merge", "st", "ORIG_HEAD");
        state_ok("merge", "st", "AUTO_MERGE");
        CHECK(G, "git: MERGE_MODE is 'no-ff'", gt_sh("test \"$(cat st/.git/MERGE_MODE)\" = no-ff") == 0);
        CHECK(G, "git: cherry-pick with a conflict",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git merge --abort && ! git cherry-pick o &&"
                    "test -f .git/CHERRY_PICK_HEAD") == 0);
        state_ok("cherry-pick", "st", "CHERRY_PICK_HEAD");
        state_ok("cherry-pick", "st", "MERGE_MSG");
        CHECK(G, "git: revert with a conflict",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git cherry-pick --abort && echo x > f && git commit -qam x &&"
                    "! git revert --no-edit HEAD~2 && test -f .git/REVERT_HEAD") == 0);
        state_ok("revert", "st", "REVERT_HEAD");
        CHECK(G, "git: merge --squash",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git revert --abort && git reset -q --hard &&"
                    "git merge --squash origin/side; test -f .git/SQUASH_MSG") == 0);
        state_ok("squash", "st", "SQUASH_MSG");
        CHECK(G, "git: fetch from a local repository, and --append",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git fetch -q origin &&"
                    "git fetch -q --append ../up side 'refs/tags/*:refs/tags/*' &&"
                    "grep -q not-for-merge .git/FETCH_HEAD") == 0);
        state_ok("fetch", "st", "FETCH_HEAD");
        CHECK(G, "git: pack-refs with a peeled tag",
              gt_sh("set -e; exec >/dev/null 2>&1; cd st && git pack-refs --all && grep -q '^\\^' .git/packed-refs") == 0);
        state_ok("pack-refs", "st", "packed-refs");
        CHECK(G, "git: a detached HEAD", gt_sh("set -e; exec >/dev/null 2>&1; cd st && git checkout -q --detach") == 0);
        state_ok("detached", "st", "HEAD");
        CHECK(G, "git: a shallow clone",
              gt_sh("set -e; exec >/dev/null 2>&1; git clone -q --depth 1 \"file://$PWD/up\" sh && test -f sh/.git/shallow") == 0);
        state_ok("shallow clone", "sh", "shallow");
        state_ok("shallow clone", "sh", "packed-refs");
        CHECK(G, "git: SHA-256: a detached HEAD, packed-refs, a conflicted merge",
              gt_sh("set -e; exec >/dev/null 2>&1; git init -q -b main --object-format=sha256 s2 && cd s2 &&"
                    "echo a > f && git add f && git commit -qm 1 && git tag -a -m t v1 && git checkout -qb o &&"
                    "echo o > f && git commit -qam o && git checkout -q main && echo m > f && git commit -qam m &&"
                    "git pack-refs --all && ! git merge o && git merge --abort && git checkout -q --detach") == 0);
        state_ok("sha256", "s2", "HEAD");
        state_ok("sha256", "s2", "packed-refs");
        state_ok("sha256", "s2", "ORIG_HEAD");

        /* forged */
        state_bad("HEAD", "ref: refs/heads/../../config\n", 0, "a ref name with '..'");
        state_bad("HEAD", "ref: ../../config\n", 0, "a ref outside refs/");
        state_bad("HEAD", "ref: refs/heads/main", 0, "no newline");
        state_bad("HEAD", "ref: refs/heads/main\n\n", 0, "a second line");
        state_bad("HEAD", "ref:refs/heads/main\n", 0, "no space");
        state_bad("HEAD", "ref: refs/heads/a b\n", 0, "a space in the name");
        state_bad("HEAD", "E5BFE2DD87B8A172718D3808ADE804E2F51EE256\n", 0, "uppercase hex");
        state_bad("HEAD", OID, 0, "an object name without its newline");
        state_bad("HEAD", "", 0, "empty");
        state_bad("ORIG_HEAD", OID "\n" OID "\n", 0, "two names");
        state_bad("ORIG_HEAD", "e5bfe2dd87b8a172718d3808ade804e2f51ee25\n", 0, "39 digits");
        state_bad("MERGE_HEAD", "", 0, "empty");
        state_bad("MERGE_HEAD", OID "\n" OID256 "\n", 0, "SHA-1 and SHA-256 mixed");
        state_bad("MERGE_HEAD", OID "\n" OID2, 0, "a last line without newline");
        state_bad("shallow", OID "\n\n", 0, "an empty line");
        state_bad("FETCH_HEAD", OID "\tfor-merge\tbranch 'x' of /r\n", 0, "a bad merge mark");
        state_bad("FETCH_HEAD", OID " branch\n", 0, "no tabs");
        state_bad("FETCH_HEAD", OID "\t\tx\0y\n", 40 + 6, "a NUL");
        state_bad("FETCH_HEAD", OID "\t\tbranch 'x' of /r", 0, "no newline");
        state_bad("packed-refs", "# pack-refs with: peeled fully-peeled sorted \n^" OID "\n", 0, "a peeled line first");
        state_bad("packed-refs", OID " refs/tags/v1\n^" OID2 "\n^" OID2 "\n", 0, "two peeled lines");
        state_bad("packed-refs", "# pack-refs with: sorted \n" OID " refs/heads/b\n" OID " refs/heads/a\n", 0,
                  "out of order when sorted");
        state_bad("packed-refs", "# pack-refs with: sorted \n" OID " refs/heads/a\n" OID " refs/heads/a\n", 0,
                  "a duplicate when sorted");
        state_bad("packed-refs", OID " refs/heads/a..b\n", 0, "a bad ref name");
        state_bad("packed-refs", OID " HEAD\n", 0, "a ref outside refs/");
        state_bad("packed-refs", OID " refs/heads/a\n# comment\n", 0, "a comment after the first line");
        state_bad("packed-refs", "# something else\n", 0, "a first comment that is not the traits line");
        state_bad("packed-refs", OID " refs/heads/main\n" OID " refs/replace/" OID "\n", 0, "a replace ref (git-replace(1))");
        state_bad("packed-refs", OID "  refs/heads/a\n", 0, "two spaces");
        state_bad("MERGE_MODE", "ff", 0, "'ff'");
        state_bad("MERGE_MODE", "no-ff\n", 0, "'no-ff' with a newline");
        state_bad("MERGE_MSG", "Merge\0branch\n", 13, "a NUL");
        {
                char *big = malloc((1u << 20) + 2);

                if (big) {
                        memset(big, 'x', (1u << 20) + 1);
                        big[(1u << 20) + 1] = '\0';
                        state_bad("COMMIT_EDITMSG", big, 0, "more than 1 MiB");
                        big[1u << 20] = '\0';
                        CHECK(G, "COMMIT_EDITMSG: 1 MiB accepted",
                              sbx_git_state_check("COMMIT_EDITMSG", (uint8_t *)big, 1u << 20, NULL, 0) == 0);
                        free(big);
                }
        }
        CHECK(G, "packed-refs unsorted without the trait: accepted (git sorts it)",
              sbx_git_state_check("packed-refs", (const uint8_t *)(OID " refs/heads/b\n" OID " refs/heads/a\n"), 2 * 54,
                                  NULL, 0) == 0);
        CHECK(G, "shallow: empty accepted", sbx_git_state_check("shallow", (const uint8_t *)"", 0, NULL, 0) == 0);
        CHECK(G, "unknown names are -ENOENT", sbx_git_state_check("config", (const uint8_t *)"", 0, NULL, 0) == -ENOENT &&
                                                   sbx_git_state_check("index", (const uint8_t *)"", 0, NULL, 0) == -ENOENT &&
                                                   sbx_git_state_check("hooks/pre-commit", NULL, 0, NULL, 0) == -ENOENT &&
                                                   sbx_git_state_check("../HEAD", NULL, 0, NULL, 0) == -ENOENT &&
                                                   sbx_git_state_check("head", NULL, 0, NULL, 0) == -ENOENT);
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
        paths_vs_git();
        oids();
        refnames();
        states();
        gt_cleanup();
        return unit_failed ? 1 : 0;
}
