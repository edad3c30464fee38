/* SPDX-License-Identifier: MIT */
/* sbx-run: parse, dispatch, map an error to an exit status.  The jail is in lib/. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/jail.h"
#include "../lib/validate.h"
#include "options.h"
#include "summary.h"

#ifndef SBX_VERSION
#define SBX_VERSION "0.1"
#endif

#define EXIT_SBX_FAILED 125

/* With fd 0, 1 or 2 closed, the next file we open would take its number and the
 * jail would inherit it as stdio: fill the gaps with /dev/null first. */
static int ensure_stdio(void)
{
        for (int fd = 0; fd < 3; fd++) {
                if (fcntl(fd, F_GETFD) >= 0)
                        continue;
                int n = open("/dev/null", O_RDWR);
                if (n < 0)
                        return -errno;
                if (n != fd)
                        return -EBADF;
        }
        return 0;
}

/* Where the failing step named no remedy, the stage's usual one: every error line
 * says how to fix it. */
static void default_hint(struct sbx_error *e)
{
        static const struct {
                const char *stage, *hint;
        } hints[] = {
                { "options", "see sbx-run --help" },
                { "validate", "check the paths given to --workspace, --ro and --rw" },
                { "mount", "check the bind paths (sbx-run --dry-run shows the plan); the kernel must allow mounts in a new mount namespace" },
                { "net", "use --net host if this kernel cannot configure a new network namespace" },
                { "cgroup", "drop --memory/--pids, or run where a cgroup can be created" },
                { "userns", "run as root, or enable unprivileged user namespaces" },
                { "clone", "the kernel refused new namespaces: run as root, or check the container's seccomp profile" },
                { "landlock", "boot a kernel with Landlock (lsm=landlock,...)" },
                { "seccomp", "the kernel must support seccomp filters (CONFIG_SECCOMP_FILTER)" },
                { "privs", "sbx-run needs the capabilities it drops (root, or a user namespace)" },
                { "exec", "check the command's name, its permissions, and that the jail can see it" },
        };

        if (e->hint[0])
                return;
        for (size_t i = 0; i < ELEMENTSOF(hints); i++)
                if (strcmp(e->stage, hints[i].stage) == 0) {
                        sbx_error_hint(e, "%s", hints[i].hint);
                        return;
                }
        sbx_error_hint(e, "see sbx-run(1)");
}

static void print_error(struct sbx_error *e)
{
        char msg[1024];

        default_hint(e);
        sbx_error_format(e, msg, sizeof(msg));
        fprintf(stderr, "sbx-run: %s\n", msg);
}

static int fail(struct sbx_error *e, bool json, int status)
{
        struct sbx_result res = { .status = status, .exit_code = -1 };

        print_error(e);
        if (json)
                sbx_summary_print(stderr, &res, e);
        return status;
}

int main(int argc, char **argv)
{
        struct sbx_options o;
        struct sbx_error e = { 0 };
        struct sbx_result res;
        int r;

        if (ensure_stdio() < 0)
                return EXIT_SBX_FAILED;
        r = sbx_options_parse(argc, argv, &o, &e);
        if (r < 0) {
                r = fail(&e, o.json, EXIT_SBX_FAILED);
                sbx_options_done(&o);
                return r;
        }
        switch (o.action) {
        case SBX_ACTION_HELP:
                fputs(sbx_usage, stdout);
                sbx_options_done(&o);
                return 0;
        case SBX_ACTION_VERSION:
                puts("sbx-run " SBX_VERSION);
                sbx_options_done(&o);
                return 0;
        case SBX_ACTION_DRY_RUN:
        case SBX_ACTION_RUN:
                break;
        }

        r = sbx_validate(&o.plan, &e);
        if (r < 0) {
                r = fail(&e, o.json, EXIT_SBX_FAILED);
                sbx_options_done(&o);
                return r;
        }
        if (o.action == SBX_ACTION_DRY_RUN) {
                sbx_plan_to_json(&o.plan, stdout);
                sbx_options_done(&o);
                return fflush(stdout) == 0 ? 0 : EXIT_SBX_FAILED;
        }

        r = sbx_jail_run(&o.plan, sbx_seccomp_builtin(), &res, &e);
        /* sbx's own failure (125), or the command's exec failure (126/127): both
         * are one line that says what and how to fix it. */
        if (e.errnum)
                print_error(&e);
        if (r < 0 && res.status == 0)
                res.status = EXIT_SBX_FAILED;
        if (o.json)
                sbx_summary_print(stderr, &res, e.errnum ? &e : NULL);
        sbx_options_done(&o);
        return res.status;
}
