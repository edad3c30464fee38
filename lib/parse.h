/* SPDX-License-Identifier: MIT */
/* Parsers for the numbers a caller writes: sizes, durations, counts.  Untrusted input:
 * each is strict (whole string, no sign, no overflow) and fuzzed. */
#pragma once

#include <stdint.h>

/* "512", "64K", "256M", "1G", "1.5G" (binary units, optional trailing "iB"/"B"). */
int sbx_parse_size(const char *s, uint64_t *ret);
/* Seconds, decimals allowed, optional "s"/"ms"/"m"/"h" suffix, into milliseconds. */
int sbx_parse_duration_ms(const char *s, uint64_t *ret);
/* A plain decimal count. */
int sbx_parse_u64(const char *s, uint64_t *ret);
/* Edit distance between two short strings (99 when either is 64 bytes or longer). */
unsigned sbx_edit_distance(const char *a, const char *b);
