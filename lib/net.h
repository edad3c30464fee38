/* SPDX-License-Identifier: MIT */
/* Stage 4b, network: child, in its new network namespace (which holds only a down
 * loopback); full capabilities there. */
#pragma once

#include "error.h"

/* Brings `lo` up over rtnetlink. */
int sbx_net_loopback_up(struct sbx_error *e);

/* Makes every address of @family (AF_INET, AF_INET6) local, on lo ("local default
 * dev lo" in the local table): a connection to any address lands on a listener of
 * this namespace, or is refused at once; none can leave, there being no other link. */
int sbx_net_route_all_local(int family, struct sbx_error *e);

/* Adds @addr/@prefix (network order, 4 or 16 bytes for @family) to lo. */
int sbx_net_add_address(int family, const void *addr, unsigned prefix, struct sbx_error *e);
