/* SPDX-License-Identifier: MIT */
/* Stage 4f: execve, after seccomp.  Searches the jail's PATH (not the caller's). */
#pragma once

#include "error.h"

/* Returns only on failure: ENOENT when not found anywhere (127), anything else when
 * found but not executable (126). */
int sbx_exec(char *const argv[], char *const envp[], struct sbx_error *e);
