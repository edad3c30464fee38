/* SPDX-License-Identifier: MIT */
/* Stage 5: the jail's PID 1.  Reaps every orphan, forwards the launcher's signals to
 * the command, answers the command's connects (the broker, broker.h), and when the
 * command exits reports its status home and exits, which makes the kernel kill
 * everything left in the PID namespace. */
#pragma once

#include <sys/types.h>

#include "broker.h"
#include "nonet.h"

/* Never returns.  @listener_sock: where the command sends its seccomp listener (-1:
 * no broker). */
_Noreturn void sbx_init_run(pid_t command, int sync_fd, int listener_sock, struct sbx_broker *b, struct sbx_nonet *nn);
