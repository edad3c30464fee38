/* SPDX-License-Identifier: MIT */
/* lib/error.c: the stage names are the contract's (--json error.stage, SBX_STAGE=),
 * one per stage; sbx_error_prefix adds context and keeps the cause. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "../../lib/error.h"
#include "unit.h"

#define G "error"

static void test_stage_names(void)
{
        static const char *const contract[] = { "options", "profile", "policy", "plan", "validate", "git",
                                                "cgroup", "clone", "userns", "uts", "net", "mount", "init",
                                                "session", "privs", "landlock", "seccomp", "exec", "supervise",
                                                "request", "launch", "listen", "sandboxd", "validator", "tier" };
        bool all = true, unique = true;

        CHECK(G, "a name for each stage but none", _SBX_STAGE_MAX - 1 == sizeof(contract) / sizeof(contract[0]));
        for (int s = SBX_STAGE_NONE + 1; s < _SBX_STAGE_MAX; s++) {
                const char *n = sbx_stage_name((enum sbx_stage)s);
                bool found = false;

                for (size_t i = 0; i < sizeof(contract) / sizeof(contract[0]); i++)
                        found = found || strcmp(n, contract[i]) == 0;
                all = all && found;
                for (int t = s + 1; t < _SBX_STAGE_MAX; t++)
                        unique = unique && strcmp(n, sbx_stage_name((enum sbx_stage)t)) != 0;
        }
        CHECK(G, "every stage has one of the contract's names", all);
        CHECK(G, "no two stages share a name", unique);
        CHECK(G, "mount is \"mount\"", strcmp(sbx_stage_name(SBX_STAGE_MOUNT), "mount") == 0);
        CHECK(G, "none is \"\"", strcmp(sbx_stage_name(SBX_STAGE_NONE), "") == 0);
        /* An error read from a socket: out of range, either way, is not indexed. */
        CHECK(G, "past the last is \"unknown\"", strcmp(sbx_stage_name(_SBX_STAGE_MAX), "unknown") == 0);
        CHECK(G, "negative is \"unknown\"", strcmp(sbx_stage_name((enum sbx_stage)-1), "unknown") == 0);
}

static void test_prefix(void)
{
        struct sbx_error e = { 0 };
        char buf[1024];

        sbx_error_set(&e, SBX_STAGE_MOUNT, EACCES, "mount", "/srv", "cannot bind");
        sbx_error_prefix(&e, "bind %d of %d", 2, 3);
        CHECK(G, "prefix: in front of the message", strcmp(e.msg, "bind 2 of 3: cannot bind") == 0);
        CHECK(G, "prefix: stage, errno, syscall, path kept",
              e.stage == SBX_STAGE_MOUNT && e.errnum == EACCES && strcmp(e.syscall, "mount") == 0 && strcmp(e.path, "/srv") == 0);
        sbx_error_format(&e, buf, sizeof(buf));
        CHECK(G, "prefix: the one line", strcmp(buf, "mount: bind 2 of 3: cannot bind: mount '/srv': Permission denied") == 0);

        memset(e.msg, 'x', sizeof(e.msg) - 1);
        e.msg[sizeof(e.msg) - 1] = '\0';
        sbx_error_prefix(&e, "ctx");
        CHECK(G, "prefix: a full message is cut at its end, terminated",
              strncmp(e.msg, "ctx: xxx", 8) == 0 && strlen(e.msg) == sizeof(e.msg) - 1);
}

int main(void)
{
        test_stage_names();
        test_prefix();
        return unit_failed ? 1 : 0;
}
