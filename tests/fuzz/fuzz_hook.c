/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx-hook's input path: the harness's stdin JSON for each of the four harness
 * shapes, and what follows from a parsed shell call -- the jailed command and the
 * shell prefix's reading of a composite.  Besides crashes, it aborts on a broken
 * promise: a refusal without a reason, a shell call without a command, a tag that is
 * not one, a jailed command that does not end with the command quoted, a grant that
 * is not under its directory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/options.h"
#include "../../sbx-hook/input.h"
#include "../../sbx-hook/prefix.h"
#include "../../sbx-hook/reply.h"
#include "../../sbx-hook/spool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_grants(const char *composite)
{
        struct prefix_grants g;

        prefix_parse(composite, "/home/u", "/cfg/claude", "/var/tmp", &g);
        if (g.snapshot[0] && strncmp(g.snapshot, "/home/u/.claude/shell-snapshots/snapshot-", 41) != 0 &&
            strncmp(g.snapshot, "/cfg/claude/shell-snapshots/snapshot-", 37) != 0)
                abort();
        if (g.cwd_file[0] && strncmp(g.cwd_file, "/tmp/claude-", 12) != 0 && strncmp(g.cwd_file, "/var/tmp/claude-", 16) != 0)
                abort();
        if ((g.snapshot[0] && strstr(g.snapshot, "..")) || (g.cwd_file[0] && strstr(g.cwd_file, "..")))
                abort();
}

static void check_command(const char *composite)
{
        struct hook_config c = { .sbx_run = "/s", .profile = "p", .harness = HOOK_CLAUDE };
        struct hook_input in = { 0 };
        char *cmd = spool_composite_command(composite), *jailed, *again;
        const char *word;

        if (!cmd)
                return;
        in.command = cmd;
        if (!(jailed = hook_jailed_command(&c, &in)) || !(word = strstr(jailed, " -- /bin/bash -c ")))
                abort();
        if (!(again = spool_unquote_word(word + 17)) || strcmp(again, cmd) != 0)
                abort();
        free(again);
        free(jailed);
        free(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct hook_config c = { .sbx_run = "/usr/bin/sbx-run", .profile = "workspace" };
        char why[512];

        for (int h = 0; h < HOOK_N_HARNESSES; h++) {
                struct hook_input in;
                char *jailed;
                int r;

                why[0] = '\0';
                r = hook_input_parse((const char *)data, size, (enum hook_harness)h, &in, why, sizeof(why));
                if (r < 0 && !why[0])
                        abort();
                if (r == 0 && in.shell) {
                        if (!in.command || !in.tool_input)
                                abort();
                        if ((in.tool_use_id && !sbx_is_tag(in.tool_use_id)) || (in.session_id && !sbx_is_tag(in.session_id)))
                                abort();
                        c.harness = (enum hook_harness)h;
                        if (!(jailed = hook_jailed_command(&c, &in)))
                                abort();
                        if (strncmp(jailed, "'/usr/bin/sbx-run' --profile 'workspace' --workspace '", 54) != 0 ||
                            !strstr(jailed, "' --workspace-contains-cwd") || jailed[strlen(jailed) - 1] != '\'')
                                abort();
                        free(jailed);
                        check_grants(in.command);
                }
                hook_input_done(&in);
        }
        /* The bytes as a composite too (up to the first NUL), and the command the
         * prefix reads from it for attribution: quoted again as Claude does, it reads
         * back the same. */
        {
                char *s = strndup((const char *)data, size);

                if (s) {
                        check_grants(s);
                        check_command(s);
                        free(s);
                }
        }
        return 0;
}
