/* SPDX-License-Identifier: MIT */
/* Just enough JSON output for the plan and the exit summary. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at @s (NUL-terminated: a NUL ends it), 0 when
 * it is not one. */
size_t sbx_utf8_len(const unsigned char *s);

void sbx_json_string(FILE *f, const char *s); /* "..." with escapes, or null */

/* True when @s (NUL-terminated) is valid UTF-8 throughout. */
bool sbx_utf8_valid(const char *s);
/* @s exactly, as journalctl -o json prints a field: a string (every control character
 * escaped) when @s is valid UTF-8, else the array of its byte values, [104,255,...],
 * so that no byte is lost or replaced. */
void sbx_json_exact(FILE *f, const char *s);
