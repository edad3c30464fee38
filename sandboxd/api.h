/* SPDX-License-Identifier: MIT */
/* The D-Bus interface: the closed set of checked operations (Run, Wait, Kill, List,
 * Reload, the sandbox objects), and the answers supervision asks for. */
#pragma once

#include <stddef.h>
#include <systemd/sd-bus.h>

#include "daemon.h"

/* Registers the objects on @bus; @userdata is a struct client whose d is set (peer to
 * peer: the connection's own; system bus: a stand-in, the caller found by sender). */
int api_attach(struct daemon *d, sd_bus *bus, sd_bus_slot **slots, size_t n, void *userdata);
/* Peer to peer: answers Hello as a bus driver would, for bus clients such as busctl. */
int api_attach_driver(sd_bus *bus, sd_bus_slot **slot);
/* Run's options, an a{sv} at @m's read position, into @rq: each key a row of the
 * option table (policy/options.c), as its type ('s', 't'), or as 'as' where the row
 * repeats; "environ" ('as') the caller's environment.  0, or -errno with @e. */
struct sbx_request;
int api_read_options(sd_bus_message *m, struct sbx_request *rq, struct sbx_error *e);
/* For supervision (main.c installs them as sandbox_ops): */
void api_reply_run(struct sandbox *sb);
void api_reply_waiters(struct sandbox *sb);
void api_emit_exited(struct sandbox *sb);
/* Drops the bus messages @sb still holds (unanswered). */
void api_release(struct sandbox *sb);
