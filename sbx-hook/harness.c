/* SPDX-License-Identifier: MIT */
/* The harnesses' names, for the command line, install and messages alike. */
#include <string.h>

#include "hook.h"

static const char *const names[HOOK_N_HARNESSES] = {
        [HOOK_CLAUDE] = "claude", [HOOK_CODEX] = "codex", [HOOK_GEMINI] = "gemini", [HOOK_OPENCODE] = "opencode"
};

const char *hook_harness_name(enum hook_harness h)
{
        return (unsigned)h < HOOK_N_HARNESSES ? names[h] : "?";
}

int hook_harness_by_name(const char *name)
{
        for (int i = 0; i < HOOK_N_HARNESSES; i++)
                if (strcmp(names[i], name) == 0)
                        return i;
        return -1;
}
