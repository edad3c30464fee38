/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* @path ("limits.memory") names a key of the profile schema; when not, @near gets the
 * nearest top-level key or "". */
bool sbx_schema_has_key(const char *path, char *near, size_t size);
