/* SPDX-License-Identifier: MIT */
/* The /etc of the system view beyond its fixed minimum: what the installed packages
 * ship there (dpkg's record of their configuration files), screened so that the jail
 * sees nothing secret and nothing that is not world-readable.  Launcher side, part of
 * validation (stage 2): it reads the host, the plan itself does no I/O. */
#pragma once

#include <stdbool.h>

#include "error.h"
#include "plan.h"

/* Adds, as optional read-only system entries, every top-level /etc entry that holds a
 * configuration file of an installed package (the "Conffiles:" of dpkg's status file)
 * and is not already in the plan nor a secret; nothing when the plan has no system
 * view or the host no dpkg. */
int sbx_etc_view_add_packaged(struct sbx_plan *p, struct sbx_error *e);

/* Screens mount @i, a system entry under /etc already looked at (validation's
 * stat_system_entry): *drop when the entry itself is a secret or not world-readable;
 * for a directory, appends a mask over every descendant that is (or that is a socket,
 * fifo or device), and *drop when there are more than a jail should carry. */
int sbx_etc_view_screen(struct sbx_plan *p, size_t i, bool *drop, struct sbx_error *e);
