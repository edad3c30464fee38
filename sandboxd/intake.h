/* SPDX-License-Identifier: MIT */
/* Peer to peer: what a connection may send, read by us before sd-bus sees it, and
 * bounded per caller. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "daemon.h"

/* The budget of a caller with @pc under the policy in force. */
void intake_budget(const struct daemon *d, const struct peer_creds *pc, struct intake_budget *b);
/* Connections of @uid; connections of callers the policy admits to nothing. */
size_t intake_conns_of(const struct daemon *d, uid_t uid);
size_t intake_unadmitted(const struct daemon *d);
/* The daemon's part: a post source and a sweep timer.  0 or -errno. */
int intake_setup(struct daemon *d);
/* Before sd-bus: takes @sock (c->in.budget set), returns the fds to give sd-bus
 * (sd_bus_set_fd), its input a socketpair of ours, its output a dup of @sock. */
int intake_open(struct client *c, int sock, int *bus_in, int *bus_out);
/* After sd_bus_start: starts reading. */
int intake_start(struct client *c);
/* Stops reading (the client is gone); frees everything at client_free. */
void intake_stop(struct client *c);
void intake_close(struct client *c);
