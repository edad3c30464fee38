/* SPDX-License-Identifier: MIT */
/* Private to the git format parsers (gitfmt.c, gitindex.c, gitconfig.c). */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The longest path the parsers hold, NUL included: Linux's PATH_MAX, so a path git
 * could not check out on Linux is refused rather than truncated. */
#define SBX_GIT_PATH_MAX 4096u

/* Fills @why (when there is one) with the reason and returns -EBADMSG. */
__attribute__((format(printf, 3, 4))) int sbx_git_bad(char *why, size_t why_size, const char *fmt, ...);

static inline unsigned char sbx_git_lower(unsigned char c)
{
        return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}
