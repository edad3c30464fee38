/* SPDX-License-Identifier: MIT */
/* The execute allowlist: the files an allowlist profile's commands are, plus what the
 * kernel must also execute to run them (the ELF interpreter, a script's interpreter).
 * Launcher side, before clone: host paths, canonical, which are the jail's paths too
 * because the system view is bound at the same place. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "profile.h"
#include "resolve.h"

#define MAX_INTERP_DEPTH 4

struct execset {
        struct sbx_strv *set;
        const char *path_env;
        bool mdwe; /* memory_deny_write_execute: no program with an executable stack */
};

static int add_file(const struct execset *x, const char *path, unsigned depth);

/* PT_INTERP of an ELF file (64- or 32-bit, native byte order), or "" when none; and
 * whether its PT_GNU_STACK asks for an executable stack, which the kernel then maps
 * writable and executable at execve, PR_SET_MDWE or not. */
static void elf_interp(int fd, char *buf, size_t size, bool *exec_stack)
{
        Elf64_Ehdr eh;
        uint64_t off = 0, len = 0;

        buf[0] = '\0';
        *exec_stack = false;
        if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
                return;
        for (unsigned i = 0; i < eh.e_phnum && i < 256; i++) {
                Elf64_Phdr ph;
                Elf32_Phdr ph32;
                uint32_t type, flags;

                if (eh.e_ident[EI_CLASS] == ELFCLASS64) {
                        if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) != (ssize_t)sizeof(ph))
                                return;
                        type = ph.p_type, flags = ph.p_flags, off = ph.p_offset, len = ph.p_filesz;
                } else {
                        const Elf32_Ehdr *e32 = (const Elf32_Ehdr *)&eh;

                        if (pread(fd, &ph32, sizeof(ph32), (off_t)(e32->e_phoff + (uint64_t)i * e32->e_phentsize)) != (ssize_t)sizeof(ph32))
                                return;
                        type = ph32.p_type, flags = ph32.p_flags, off = ph32.p_offset, len = ph32.p_filesz;
                }
                if (type == PT_GNU_STACK)
                        *exec_stack = flags & PF_X;
                if (type != PT_INTERP || buf[0])
                        continue;
                if (len == 0 || len >= size || pread(fd, buf, len, (off_t)off) != (ssize_t)len)
                        buf[0] = '\0';
                else
                        buf[len] = '\0';
        }
}

/* "#!/bin/sh -e" → "/bin/sh"; "#!/usr/bin/env python3" → "/usr/bin/env" and "python3". */
static void script_interp(int fd, char *interp, size_t isize, char *arg, size_t asize)
{
        char line[256];
        ssize_t n = pread(fd, line, sizeof(line) - 1, 0);
        char *save = NULL, *tok;

        interp[0] = arg[0] = '\0';
        if (n < 3 || line[0] != '#' || line[1] != '!')
                return;
        line[n] = '\0';
        line[strcspn(line, "\n")] = '\0';
        tok = strtok_r(line + 2, " \t", &save);
        if (!tok)
                return;
        snprintf(interp, isize, "%s", tok);
        tok = strtok_r(NULL, " \t", &save);
        if (tok)
                snprintf(arg, asize, "%s", tok);
}

/* @name on the jail's PATH: the first match, the one a shell would run (a program of
 * the same name later on PATH stays unexecutable). */
static int add_name(const struct execset *x, const char *name, unsigned depth)
{
        _cleanup_free_ char *dirs = strdup(x->path_env ? x->path_env : "/usr/bin:/bin");
        char *save = NULL;
        int r;

        if (!dirs)
                return -ENOMEM;
        for (char *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
                char path[PATH_MAX];

                if (dir[0] != '/')
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, name);
                if ((r = add_file(x, path, depth)) != 0)
                        return r < 0 ? r : 0;
        }
        return 0;
}

/* 1 when @path is an executable file (now in the set), 0 when not, or -ENOMEM. */
static int add_file(const struct execset *x, const char *path, unsigned depth)
{
        char real[PATH_MAX], interp[PATH_MAX], arg[256];
        _cleanup_close_ int fd = -1;
        struct stat st;
        bool exec_stack;
        int r;

        char link[64];
        ssize_t n;

        /* One open per PATH entry (most miss); the kernel names what it opened. */
        if (depth > MAX_INTERP_DEPTH)
                return 0;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
                return 0;
        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        n = readlink(link, real, sizeof(real) - 1);
        if (n <= 0 || real[0] != '/')
                return 0;
        real[n] = '\0';
        if (sbx_strv_contains(x->set, real))
                return 1;
        elf_interp(fd, interp, sizeof(interp), &exec_stack);
        /* Its stack would be memory the program writes and may run: left off the list
         * (it does not run), as memory_deny_write_execute promises. */
        if (exec_stack && x->mdwe)
                return 1;
        if (sbx_strv_push(x->set, real) < 0)
                return -ENOMEM;
        if (interp[0])
                return add_file(x, interp, depth + 1) < 0 ? -ENOMEM : 1;
        script_interp(fd, interp, sizeof(interp), arg, sizeof(arg));
        if (!interp[0])
                return 1;
        if ((r = add_file(x, interp, depth + 1)) < 0)
                return r;
        /* "#!/usr/bin/env NAME": env then runs NAME from PATH. */
        if (arg[0] && arg[0] != '-' && strcmp(strrchr(interp, '/') ? strrchr(interp, '/') + 1 : interp, "env") == 0)
                return add_name(x, arg, depth + 1) < 0 ? -ENOMEM : 1;
        return 1;
}

/* A compiler driver is a program that runs programs: gcc runs cc1 (cc1plus for C++),
 * collect2, lto-wrapper from its own directory, and as and ld from PATH.  They are the
 * system's files, as the driver is; what they write lands on noexec mounts outside the
 * set, so listing them lets nothing the jail wrote run. */
static bool is_cc_driver(const char *name)
{
        static const char *const drivers[] = { "cc", "c++", "gcc", "g++", "c89", "c99", "cpp" };

        for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
                if (strcmp(name, drivers[i]) == 0)
                        return true;
        return false;
}

static int add_cc_companions(const struct execset *x)
{
        static const char *const dirs[] = { "/usr/lib/gcc/*/*/*", "/usr/libexec/gcc/*/*/*" };
        int r;

        if ((r = add_name(x, "as", 0)) < 0 || (r = add_name(x, "ld", 0)) < 0)
                return r;
        for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
                glob_t g;

                if (glob(dirs[i], GLOB_NOSORT, NULL, &g) != 0)
                        continue;
                for (size_t j = 0; j < g.gl_pathc && r >= 0; j++)
                        r = add_file(x, g.gl_pathv[j], 0);
                globfree(&g);
                if (r < 0)
                        return r;
        }
        return 0;
}

int sbx_execset_build(struct sbx_profile *pr)
{
        const struct execset x = {
                .set = &pr->plan.exec_allow,
                .path_env = sbx_plan_get_env(&pr->plan, "PATH"),
                .mdwe = pr->plan.mdwe,
        };
        bool cc = false;
        int r;

        pr->plan.exec_restricted = true;
        for (size_t i = 0; i < pr->commands.allow.n; i++) {
                if ((r = add_name(&x, pr->commands.allow.v[i], 0)) < 0)
                        return r;
                cc = cc || is_cc_driver(pr->commands.allow.v[i]);
        }
        return cc ? add_cc_companions(&x) : 0;
}
