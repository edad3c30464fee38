/* SPDX-License-Identifier: MIT */
/* Just enough JSON output for the plan and the exit summary. */
#pragma once

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at @s (NUL-terminated: a NUL ends it), 0 when
 * it is not one. */
size_t sbx_utf8_len(const unsigned char *s);

void sbx_json_string(FILE *f, const char *s); /* "..." with escapes, or null */
