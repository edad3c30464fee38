/* SPDX-License-Identifier: MIT */
/* Stage 5: the jail's PID 1.  Reaps every orphan, forwards the launcher's signals to
 * the command, and when the command exits reports its status home and exits, which
 * makes the kernel kill everything left in the PID namespace. */
#pragma once

#include <sys/types.h>

/* Never returns.  All signals must already be blocked. */
_Noreturn void sbx_init_run(pid_t command, int sync_fd);
