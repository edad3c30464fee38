/* SPDX-License-Identifier: MIT */
/* Helpers of the git format tests (test_gitfmt.c, test_gitindex.c, test_gitconfig.c):
 * a private temporary directory to make repositories in with the git of this machine,
 * and an environment where no user or system configuration of the host can change what
 * git writes. */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char gt_dir[64];

/* Into a new temporary directory, with git's configuration and identity fixed. */
static inline bool gt_setup(void)
{
        snprintf(gt_dir, sizeof(gt_dir), "/tmp/sbx-gittest.XXXXXX");
        if (!mkdtemp(gt_dir) || chdir(gt_dir) < 0)
                return false;
        setenv("HOME", gt_dir, 1);
        setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
        setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
        setenv("GIT_AUTHOR_NAME", "t", 1);
        setenv("GIT_AUTHOR_EMAIL", "t@t", 1);
        setenv("GIT_COMMITTER_NAME", "t", 1);
        setenv("GIT_COMMITTER_EMAIL", "t@t", 1);
        setenv("GIT_EDITOR", "true", 1);
        setenv("LC_ALL", "C", 1);
        unsetenv("GIT_DIR");
        unsetenv("GIT_WORK_TREE");
        unsetenv("GIT_INDEX_FILE");
        unsetenv("GIT_OBJECT_DIRECTORY");
        return true;
}

static inline void gt_cleanup(void)
{
        char cmd[128];

        if (!gt_dir[0] || chdir("/") < 0)
                return;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", gt_dir);
        if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", gt_dir);
}

/* A shell command in the temporary directory; its exit status, -1 if it did not exit. */
__attribute__((format(printf, 1, 2))) static inline int gt_sh(const char *fmt, ...)
{
        char cmd[8192];
        va_list ap;
        int st;

        va_start(ap, fmt);
        vsnprintf(cmd, sizeof(cmd), fmt, ap);
        va_end(ap);
        st = system(cmd);
        return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* All a file holds (NUL-terminated after @len), or NULL. */
static inline uint8_t *gt_slurp(const char *path, size_t *len)
{
        FILE *f = fopen(path, "rbe");
        uint8_t *b = NULL;
        size_t cap = 0, n = 0;

        if (!f)
                return NULL;
        for (;;) {
                if (n + 4096 + 1 > cap) {
                        uint8_t *t = realloc(b, cap = cap ? 2 * cap : 65536);

                        if (!t)
                                break;
                        b = t;
                }
                size_t got = fread(b + n, 1, cap - n - 1, f);

                n += got;
                if (got == 0)
                        break;
        }
        fclose(f);
        if (b)
                b[n] = 0;
        *len = n;
        return b;
}

/* What a shell command prints on stdout, NUL-terminated after @len. */
__attribute__((format(printf, 2, 3))) static inline uint8_t *gt_out(size_t *len, const char *fmt, ...)
{
        char cmd[8192], full[8400], path[128];
        va_list ap;

        snprintf(path, sizeof(path), "%s/.out", gt_dir);
        va_start(ap, fmt);
        vsnprintf(cmd, sizeof(cmd), fmt, ap);
        va_end(ap);
        snprintf(full, sizeof(full), "{ %s\n} >'%s'", cmd, path);
        if (system(full) == -1)
                return NULL;
        return gt_slurp(path, len);
}

static inline bool gt_write(const char *path, const void *buf, size_t n)
{
        FILE *f = fopen(path, "wbe");
        bool ok;

        if (!f)
                return false;
        ok = fwrite(buf, 1, n, f) == n;
        return fclose(f) == 0 && ok;
}
