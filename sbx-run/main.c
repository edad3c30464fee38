/* SPDX-License-Identifier: MIT */
/* sbx-run: parse, dispatch, map an error to an exit status.  The jail is in lib/. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

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

static int fail(const struct sbx_error *e, bool json, int status)
{
        struct sbx_result res = { .status = status, .exit_code = -1 };
        char msg[1024];

        sbx_error_format(e, msg, sizeof(msg));
        fprintf(stderr, "sbx-run: %s\n", msg);
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
        if (e.errnum) {
                /* sbx's own failure (125), or the command's exec failure (126/127):
                 * both are one line that says what and how to fix it. */
                char msg[1024];
                sbx_error_format(&e, msg, sizeof(msg));
                fprintf(stderr, "sbx-run: %s\n", msg);
        }
        if (r < 0 && res.status == 0)
                res.status = EXIT_SBX_FAILED;
        if (o.json)
                sbx_summary_print(stderr, &res, e.errnum ? &e : NULL);
        sbx_options_done(&o);
        return res.status;
}
