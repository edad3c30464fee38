/* SPDX-License-Identifier: MIT */
/* The caller's file operations, in a helper process that has become the caller. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "../lib/caller.h"
#include "../lib/error.h"

int asuser_start(uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups, struct sbx_caller *ret, struct sbx_error *e);
void asuser_stop(struct sbx_caller *c);
