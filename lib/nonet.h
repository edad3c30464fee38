/* SPDX-License-Identifier: MIT */
/* network: none says so.  A jail without a network has HTTP(S)_PROXY pointing at
 * 127.0.0.1:3128 in its own namespace, where its PID 1 answers every connection with
 * one fixed HTTP 403 naming the reason (X-Sbx-Error: no-network), reads nothing it
 * must understand, and closes.  So npm, pip, curl and git fail at once and say why,
 * where they would retry a resolver failure for a minute (npm: 70 s) and say
 * EAI_AGAIN. */
#pragma once

#include "error.h"

#define SBX_NONET_DRAIN 16 /* answered connections kept until the client closes */

struct sbx_nonet {
        int listen_fd; /* -1: none */
        int draining[SBX_NONET_DRAIN];
        size_t next;   /* the slot the next connection takes (the oldest goes) */
};

/* Child side, stage 4, in the jail's new network namespace (lo up). */
int sbx_nonet_listen(struct sbx_error *e);
void sbx_nonet_init(struct sbx_nonet *n, int listen_fd);
/* PID 1: the listener is readable. */
void sbx_nonet_accept(struct sbx_nonet *n);
/* PID 1: draining slot @i is readable (the rest of a request, or its end). */
void sbx_nonet_drain(struct sbx_nonet *n, size_t i);
