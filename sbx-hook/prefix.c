/* SPDX-License-Identifier: MIT */
/* Runs in the harness's process tree, as the caller, on the host: what it creates or
 * opens here, it does with the caller's own rights, and nothing it reads from the
 * composite is trusted beyond the two paths it checks. */
#include "prefix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/plan.h"
#include "../policy/options.h"
#include "spool.h"

#define SOURCE_WORD "source "
#define HEAD_AND " && "
#define HEAD_OR_TRUE " 2>/dev/null || true && "
#define TAIL " && pwd -P >| "
#define PATH_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/"

static bool starts(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* @path is @dir/NAME with NAME free of '/': false for anything else. */
static bool in_dir(const char *path, const char *dir, const char **name)
{
        size_t n = strlen(dir);

        if (!dir[0] || strncmp(path, dir, n) != 0 || path[n] != '/' || strchr(path + n + 1, '/'))
                return false;
        *name = path + n + 1;
        return true;
}

/* snapshot-SHELL-ID.sh: letters, digits, '-', '_', '.', never "..". */
static bool snapshot_name(const char *name)
{
        size_t n = strlen(name);

        return starts(name, "snapshot-") && n > 12 && n < 256 && strcmp(name + n - 3, ".sh") == 0 &&
               strspn(name, PATH_CHARS) == n && !strstr(name, "..");
}

/* claude-HEX-cwd, HEX 1 to 32 lowercase hex digits. */
static bool cwd_name(const char *name)
{
        size_t hex;

        if (!starts(name, "claude-"))
                return false;
        hex = strspn(name + 7, "0123456789abcdef");
        return hex >= 1 && hex <= 32 && strcmp(name + 7 + hex, "-cwd") == 0;
}

/* An unquoted absolute path of plain characters, normal (no '.', '..', '//'). */
static bool plain_path(const char *s, size_t len)
{
        char buf[PATH_MAX];

        if (len == 0 || len >= sizeof(buf) || strspn(s, PATH_CHARS) < len)
                return false;
        memcpy(buf, s, len);
        buf[len] = '\0';
        return sbx_path_is_normal(buf);
}

static void snapshot_dirs(const char *home, const char *config_dir, char dirs[2][PATH_MAX])
{
        dirs[0][0] = dirs[1][0] = '\0';
        if (home && home[0] == '/')
                snprintf(dirs[0], PATH_MAX, "%s/.claude/shell-snapshots", home);
        if (config_dir && config_dir[0] == '/')
                snprintf(dirs[1], PATH_MAX, "%s/shell-snapshots", config_dir);
}

static void parse_head(const char *s, const char *home, const char *config_dir, struct prefix_grants *g)
{
        char dirs[2][PATH_MAX];
        const char *path, *name;
        size_t len;

        if (!starts(s, SOURCE_WORD))
                return;
        path = s + strlen(SOURCE_WORD);
        len = strcspn(path, " ");
        if (!plain_path(path, len) || !(starts(path + len, HEAD_AND) || starts(path + len, HEAD_OR_TRUE)))
                return;
        snprintf(g->snapshot, sizeof(g->snapshot), "%.*s", (int)len, path);
        snapshot_dirs(home, config_dir, dirs);
        for (int i = 0; i < 2; i++)
                if (in_dir(g->snapshot, dirs[i], &name) && snapshot_name(name))
                        return;
        g->snapshot[0] = '\0';
}

static void parse_tail(const char *s, const char *tmpdir, struct prefix_grants *g)
{
        const char *tail = NULL, *name;

        /* The last " && pwd -P >| ": what follows it ends the composite. */
        for (const char *at = strstr(s, TAIL); at; at = strstr(at + 1, TAIL))
                tail = at;
        if (!tail)
                return;
        tail += strlen(TAIL);
        if (!plain_path(tail, strlen(tail)))
                return;
        snprintf(g->cwd_file, sizeof(g->cwd_file), "%s", tail);
        if ((in_dir(g->cwd_file, "/tmp", &name) || (tmpdir && in_dir(g->cwd_file, tmpdir, &name))) && cwd_name(name))
                return;
        g->cwd_file[0] = '\0';
}

void prefix_parse(const char *composite, const char *home, const char *config_dir, const char *tmpdir,
                  struct prefix_grants *g)
{
        *g = (struct prefix_grants){ 0 };
        parse_head(composite, home, config_dir, g);
        parse_tail(composite, tmpdir, g);
}

/* ------------------------------------------------------------------ the host side */

/* The path names itself (no symlink on the way) and is a regular file of the caller's
 * with one link: nothing else of the caller's is reached through it. */
static bool callers_file(int fd, const char *path)
{
        _cleanup_free_ char *real = realpath(path, NULL);
        struct stat st;

        return real && strcmp(real, path) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() &&
               st.st_nlink == 1;
}

static bool snapshot_ok(const char *path)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

        return fd >= 0 && callers_file(fd, path);
}

/* The cwd file, made here before the jail starts, so that the bind has a file of the
 * caller's to land on: created new (O_EXCL, never through a symlink another user
 * planted in /tmp), or an existing one that is already the caller's own. */
static bool cwd_file_ok(const char *path)
{
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

        if (fd < 0 && errno == EEXIST)
                fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        return fd >= 0 && callers_file(fd, path);
}

static const char *home_dir(void)
{
        const struct passwd *pw = getpwuid(getuid());

        return pw && pw->pw_dir ? pw->pw_dir : NULL;
}

/* The composite: one word as Claude passes it; several joined by spaces, as "$*". */
static char *composite_of(int argc, char **argv)
{
        char *s = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&s, &size);

        if (!f)
                return NULL;
        for (int i = 0; i < argc; i++)
                fprintf(f, "%s%s", i ? " " : "", argv[i]);
        if (fclose(f) != 0) {
                free(s);
                return NULL;
        }
        return s;
}

/* The call the PreToolUse hook announced for this composite's command (spool.h): its
 * tags go to sbx-run, for the audit record, and the call is marked as jailed for the
 * PostToolUse hook.  None (no hook, another shape): the jail runs untagged. */
static bool take_call(const char *composite, char *id, size_t id_size, char *session, size_t session_size, char *cwd,
                      size_t cwd_size)
{
        _cleanup_free_ char *command = spool_composite_command(composite);
        _cleanup_close_ int dir = -1;
        char why[256];

        if (!command || (dir = spool_open(why, sizeof(why))) < 0)
                return false;
        /* The spool is the caller's own, but a command that ran unjailed could have
         * written it: only tags go on sbx-run's command line. */
        return spool_take(dir, command, id, id_size, session, session_size, cwd, cwd_size) > 0 && sbx_is_tag(id) &&
               (!session[0] || sbx_is_tag(session)) && cwd[0] == '/';
}

int prefix_run(const struct hook_config *c, int argc, char **argv)
{
        _cleanup_free_ char *composite = NULL;
        struct prefix_grants g;
        char id[160], session[160], cwd[PATH_MAX], why[512];
        char *args[24];
        bool tagged;
        size_t n = 0;

        if (argc < 1) {
                fprintf(stderr, "sbx-shell-prefix: no command given (Claude Code runs: sbx-shell-prefix '<command>')\n");
                return 125;
        }
        if (!(composite = composite_of(argc, argv))) {
                fprintf(stderr, "sbx-shell-prefix: out of memory\n");
                return 125;
        }
        /* The home of the user database, not $HOME: the harness's environment does not
         * choose which directory of the caller's is granted. */
        prefix_parse(composite, home_dir(), getenv("CLAUDE_CONFIG_DIR"), getenv("CLAUDE_CODE_TMPDIR"), &g);
        if (g.snapshot[0] && !snapshot_ok(g.snapshot)) {
                fprintf(stderr, "sbx-shell-prefix: not granting '%s': not a regular file of yours at that very path\n", g.snapshot);
                g.snapshot[0] = '\0';
        }
        if (g.cwd_file[0] && !cwd_file_ok(g.cwd_file)) {
                fprintf(stderr, "sbx-shell-prefix: not granting '%s': cannot create it, or it is not a regular file of yours\n",
                        g.cwd_file);
                g.cwd_file[0] = '\0';
        }
        args[n++] = (char *)c->sbx_run;
        args[n++] = (char *)"--profile";
        args[n++] = (char *)(c->profile ? c->profile : "workspace");
        if (g.snapshot[0]) {
                args[n++] = (char *)"--ro";
                args[n++] = g.snapshot;
        }
        if (g.cwd_file[0]) {
                args[n++] = (char *)"--rw";
                args[n++] = g.cwd_file;
        }
        /* The announced call: its tags, and the workspace pinned to the cwd its verdict
         * was made in, wherever Claude runs the composite (a cwd file the jail wrote
         * names where that is). */
        tagged = take_call(composite, id, sizeof(id), session, sizeof(session), cwd, sizeof(cwd));
        /* The workspace, pinned or where it is run, must not hold the spool's way:
         * the jail could forge the next call's entry, and its workspace. */
        if (!tagged && !getcwd(cwd, sizeof(cwd))) {
                fprintf(stderr, "sbx-shell-prefix: cannot find the current directory: %s (nothing ran)\n", strerror(errno));
                return 125;
        }
        if (spool_check_workspace(cwd, why, sizeof(why)) < 0) {
                fprintf(stderr, "sbx-shell-prefix: %s (nothing ran)\n", why);
                return 125;
        }
        if (tagged) {
                args[n++] = (char *)"--workspace";
                args[n++] = cwd;
                args[n++] = (char *)"--workspace-contains-cwd";
                args[n++] = (char *)"--tool-use-id";
                args[n++] = id;
                if (session[0]) {
                        args[n++] = (char *)"--session-id";
                        args[n++] = session;
                }
        }
        args[n++] = (char *)"--";
        args[n++] = (char *)"/bin/bash";
        args[n++] = (char *)"-c";
        args[n++] = composite;
        args[n] = NULL;
        execv(c->sbx_run, args);
        fprintf(stderr, "sbx-shell-prefix: cannot run '%s': %s (nothing ran; install sbx-run or set SBX_RUN)\n", c->sbx_run,
                strerror(errno));
        return 125;
}
