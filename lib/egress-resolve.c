/* SPDX-License-Identifier: MIT */
/* Host-side name resolution for the broker, through c-ares on the broker's sd-event
 * loop: the host's resolver (its /etc/resolv.conf and /etc/hosts, read once when the
 * broker starts), never the jail's.  What it returns is classified and dialled as is
 * (egress-conn.c): no second lookup between the check and the connect. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "cleanup.h"
#include "egress-int.h"

struct lookup {
        struct eg_broker *b;
        eg_resolved_fn cb;
        void *ctx;
};

static void arm_timer(struct eg_broker *b);

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct eg_broker *b = userdata;

        (void)s;
        (void)usec;
        ares_process_fd(b->ares, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
        arm_timer(b);
        return 0;
}

/* c-ares's next deadline (retries, timeouts) as the loop's one timer. */
static void arm_timer(struct eg_broker *b)
{
        struct timeval max = { .tv_sec = 5 }, tv, *t = ares_timeout(b->ares, &max, &tv);
        uint64_t usec = (uint64_t)t->tv_sec * 1000000u + (uint64_t)t->tv_usec;

        if (!b->ares_timer) {
                if (sd_event_add_time_relative(b->ev, &b->ares_timer, CLOCK_MONOTONIC, usec, 1000, on_timer, b) < 0)
                        return;
        } else {
                (void)sd_event_source_set_time_relative(b->ares_timer, usec);
        }
        (void)sd_event_source_set_enabled(b->ares_timer, SD_EVENT_ONESHOT);
}

static int on_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct eg_broker *b = userdata;

        (void)s;
        ares_process_fd(b->ares, revents & (EPOLLIN | EPOLLERR | EPOLLHUP) ? fd : ARES_SOCKET_BAD,
                        revents & EPOLLOUT ? fd : ARES_SOCKET_BAD);
        arm_timer(b);
        return 0;
}

/* c-ares says which of its sockets to watch, and for what. */
static void sock_state(void *data, ares_socket_t fd, int readable, int writable)
{
        struct eg_broker *b = data;
        struct eg_ares_fd *slot = NULL, *free_slot = NULL;
        uint32_t events = (readable ? EPOLLIN : 0) | (writable ? EPOLLOUT : 0);

        for (size_t i = 0; i < ELEMENTSOF(b->ares_fds); i++) {
                if (b->ares_fds[i].src && b->ares_fds[i].fd == fd)
                        slot = &b->ares_fds[i];
                else if (!b->ares_fds[i].src && !free_slot)
                        free_slot = &b->ares_fds[i];
        }
        if (!events) {
                if (slot)
                        slot->src = sd_event_source_disable_unref(slot->src);
                return;
        }
        if (slot) {
                (void)sd_event_source_set_io_events(slot->src, events);
                return;
        }
        if (!free_slot || sd_event_add_io(b->ev, &free_slot->src, fd, events, on_io, b) < 0)
                return; /* c-ares times the query out */
        free_slot->fd = fd;
}

int eg_resolve_init(struct eg_broker *b)
{
        struct ares_options o = { .sock_state_cb = sock_state, .sock_state_cb_data = b, .timeout = 2000, .tries = 2 };
        if (ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS)
                return -ENOMEM;
        /* The host's resolver, read now, before the broker gives up its ids. */
        return ares_init_options(&b->ares, &o, ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES) == ARES_SUCCESS ? 0 : -EIO;
}

static void done(void *arg, int status, int timeouts, struct ares_addrinfo *ai)
{
        struct lookup *l = arg;

        (void)timeouts;
        l->cb(l->ctx, status, status == ARES_SUCCESS ? ai : NULL);
        if (ai)
                ares_freeaddrinfo(ai);
        free(l);
}

void eg_resolve(struct eg_broker *b, const char *name, eg_resolved_fn cb, void *ctx)
{
        struct ares_addrinfo_hints hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
        struct lookup *l = malloc(sizeof(*l));

        if (!l) {
                cb(ctx, ARES_ENOMEM, NULL);
                return;
        }
        *l = (struct lookup){ b, cb, ctx };
        ares_getaddrinfo(b->ares, name, NULL, &hints, done, l);
        arm_timer(b);
}

void eg_resolve_done(struct eg_broker *b)
{
        if (b->ares)
                ares_destroy(b->ares); /* pending lookups are called back with ARES_EDESTRUCTION */
        b->ares = NULL;
        b->ares_timer = sd_event_source_disable_unref(b->ares_timer);
        for (size_t i = 0; i < ELEMENTSOF(b->ares_fds); i++)
                b->ares_fds[i].src = sd_event_source_disable_unref(b->ares_fds[i].src);
        ares_library_cleanup();
}
