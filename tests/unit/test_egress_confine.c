/* SPDX-License-Identifier: MIT */
/* lib/egress.c eg_drop_privileges: the broker parses what the jail sends, and runs
 * outside it, on the host, as sandboxd's caller (or the user of sbx-run).  One a parser
 * bug handed to the jail must not have that user's files: after it, no file can be
 * made or written anywhere, none read outside the system's trees (~/.ssh), nothing
 * executed; what it reads to resolve (/etc)
 * stays readable.  Asserted in a child that went through the broker's own call, in a
 * directory anyone may write (so only the confinement can refuse). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lib/egress-int.h"
#include "../../lib/landlock.h"
#include "unit.h"

#define G "unit-egress-confine"

enum { WROTE = 1, EXECED = 2, NO_ETC = 4, DROP_FAILED = 8, READ_HOME = 16 };

static int confined_child(const char *dir)
{
        struct sbx_plan p = { 0 };
        char path[512];
        int fd, what = 0;
        pid_t pid;

        if (eg_drop_privileges(&p) < 0)
                return DROP_FAILED;
        snprintf(path, sizeof(path), "%s/made-by-broker", dir);
        if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) >= 0) {
                what |= WROTE;
                close(fd);
        }
        snprintf(path, sizeof(path), "%s/secret", dir);
        if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
                what |= READ_HOME;
                close(fd);
        }
        if ((fd = open("/etc/hosts", O_RDONLY | O_CLOEXEC)) < 0)
                what |= NO_ETC;
        else
                close(fd);
        if ((pid = fork()) == 0) {
                execl("/bin/true", "true", (char *)NULL);
                _exit(127);
        }
        int st;
        if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0)
                what |= EXECED;
        return what;
}

int main(void)
{
        char dir[] = "/tmp/sbx-confine.XXXXXX";
        int st, what;
        pid_t pid;

        if (geteuid() != 0 || sbx_landlock_abi() < 1) {
                printf("skip %s: needs root and Landlock\n", G);
                return 0;
        }
        if (!mkdtemp(dir) || chmod(dir, 01777) < 0)
                return 1;
        char secret[512];
        snprintf(secret, sizeof(secret), "%s/secret", dir);
        int sfd = open(secret, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (sfd < 0)
                return 1;
        close(sfd);
        if ((pid = fork()) == 0)
                _exit(confined_child(dir));
        what = waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        CHECK(G, "the broker's privileges drop", what >= 0 && !(what & DROP_FAILED));
        CHECK(G, "the broker makes no file, even where anyone may", what >= 0 && !(what & WROTE));
        CHECK(G, "the broker reads no file of the user's (one anyone may read, outside /etc and /usr)",
              what >= 0 && !(what & READ_HOME));
        CHECK(G, "the broker executes nothing", what >= 0 && !(what & EXECED));
        CHECK(G, "the broker still reads /etc (resolv.conf, hosts)", what >= 0 && !(what & NO_ETC));
        char path[512];
        snprintf(path, sizeof(path), "%s/made-by-broker", dir);
        (void)unlink(path);
        (void)unlink(secret);
        (void)rmdir(dir);
        return unit_failed ? 1 : 0;
}
