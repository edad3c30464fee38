/* SPDX-License-Identifier: MIT */
/* Connections: the listening sockets, one client per peer-to-peer connection, the
 * system bus and its callers. */
#pragma once

#include <systemd/sd-bus.h>

#include "../lib/error.h"
#include "daemon.h"

int server_listen(struct daemon *d, const char *path, struct sbx_error *e);
int server_connect_system_bus(struct daemon *d);
/* d->max_clients from RLIMIT_NOFILE and the policy in force (at start, on reload). */
void server_size(struct daemon *d);
/* The client record behind @m: peer to peer the connection's; on the system bus the
 * sender's (of uid @uid), made (and tracked) on first use. */
struct client *client_for(sd_bus_message *m, void *userdata, uid_t uid);
void client_free(struct client *c);
/* Its sandboxes are told, the record goes on the next iteration; once. */
void client_gone(struct client *c);
void server_stop_listening(struct daemon *d);
void server_done(struct daemon *d);
