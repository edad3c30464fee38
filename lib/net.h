/* SPDX-License-Identifier: MIT */
/* Stage 4b, network: child, in its new network namespace (which holds only a down
 * loopback); full capabilities there. */
#pragma once

#include "error.h"

/* Brings `lo` up over rtnetlink. */
int sbx_net_loopback_up(struct sbx_error *e);
