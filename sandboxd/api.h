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
/* For supervision (main.c installs them as sandbox_ops): */
void api_reply_run(struct sandbox *sb);
void api_reply_waiters(struct sandbox *sb);
void api_emit_exited(struct sandbox *sb);
/* Drops the bus messages @sb still holds (unanswered). */
void api_release(struct sandbox *sb);
