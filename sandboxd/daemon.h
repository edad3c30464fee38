/* SPDX-License-Identifier: MIT */
/* sandboxd's records: the daemon (one sd-event loop, the configuration in force, the
 * listening sockets), its clients (one peer-to-peer connection each, or a name on the
 * system bus) and the hooks main.c installs so that lower modules call up without
 * including what is above them.  Types only: the code is in server.c (connections),
 * intake.c (what a connection may send), api.c (the methods). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "../lib/audit.h"
#include "../lib/busapi.h"
#include "config.h"
#include "identity.h"
#include "sandbox.h"


struct client;
struct daemon;

/* Calls up, installed by main.c. */
struct daemon_hooks {
        /* api.c: registers the objects on @bus; @userdata is a struct client whose d is
         * set (peer to peer: the connection's own; system bus: a stand-in). */
        int (*attach)(struct daemon *d, sd_bus *bus, sd_bus_slot **slots, size_t n, void *userdata);
        /* api.c: peer to peer, answers Hello as a bus driver would. */
        int (*attach_driver)(sd_bus *bus, sd_bus_slot **slot);
        /* server.c: the client went away (intake.c saw it close or misbehave). */
        void (*client_gone)(struct client *c);
        /* main.c: loads afresh and swaps only on success.  0 or -errno with @why. */
        int (*reload)(struct daemon *d, char *why, size_t size);
};

struct daemon {
        const struct daemon_hooks *hooks;
        sd_event *event;
        sd_bus *system_bus;   /* NULL when no system bus runs (or --no-system-bus) */
        struct client *clients;
        struct sandbox_set sandboxes;
        struct sbx_config *config;
        const char *policy_path;
        struct sbx_audit_sink audit; /* --audit-file/--audit-fd, and stderr for logfmt */
        bool stopping;
        int listen_fds[8];
        size_t n_listen;
        sd_event_source *listen_src[8];
        /* The listening sockets' paths, canonical: hidden in every jail that binds them. */
        char socket_paths[8][108];
        size_t n_socket_paths;
        /* The socket --listen made (not one systemd passed): removed when we stop, if
         * the path still names that very socket. */
        char own_socket[108];
        dev_t own_dev;
        ino_t own_ino;
        sd_bus_slot *system_slots[4];
        size_t n_clients;
        size_t max_clients;       /* from RLIMIT_NOFILE (main.c): every connection's fds fit */
        rlim_t jail_nofile;       /* RLIMIT_NOFILE's soft limit for jails: the one sandboxd got */
        sd_event_source *intake_post, *intake_sweep;
        size_t n_waiting;         /* connections whose intake waits on sd-bus or a budget */
};

/* Peer to peer: what a connection may make sandboxd hold (intake.c), fixed at accept
 * from the site policy in force. */
#define INTAKE_FDS 4            /* fds one message may carry: Run's four */
#define MAX_CONNS_PER_UID 128   /* connections of one uid the policy admits, at most */
#define CONNS_UNADMITTED 2      /* connections of one uid the policy admits to nothing */
#define POOL_UNADMITTED 16      /* connections of all such uids together */
struct intake_budget {
        bool admitted;          /* some rule of the policy matches the caller */
        size_t conns;           /* connections its uid may have */
        size_t max_message;     /* bytes one message may have */
};

/* Peer to peer: the client's socket, read by intake.c, never by sd-bus. */
struct intake {
        int sock;               /* the accepted socket: we read it; sd-bus writes to a dup */
        int feed;               /* our end of the socketpair sd-bus reads complete messages from */
        sd_event_source *src;
        struct intake_budget budget;
        bool authed;            /* BEGIN went through */
        bool complete;          /* buf holds one whole message, to hand over */
        bool waiting;           /* on sd-bus or the budget: src is off until on_post */
        uint8_t *buf;
        size_t size, have, need, sent, auth_bytes;
        int fds[INTAKE_FDS];
        size_t n_fds;
        uint64_t since;         /* CLOCK_MONOTONIC usec: the unit being read began; 0: none */
        uint64_t blocked_since; /* replies not written out since; 0: none */
};

/* A peer: its own bus connection (peer to peer), or one unique name on the system bus. */
struct client {
        struct daemon *d;
        sd_bus *bus;
        bool bus_wide;        /* the system bus's stand-in, one for every caller there: they are found by sender */
        bool gone;            /* disconnected: freed on the next iteration */
        struct intake in;     /* peer to peer; in.sock is -1 on the bus */
        struct peer_creds creds; /* peer to peer: SO_PEERCRED and SO_PEERGROUPS at accept */
        uid_t uid;            /* the caller's uid: creds.uid peer to peer, the bus's on the bus */
        char *name;           /* system bus: the unique name; NULL peer to peer */
        sd_bus_track *track;  /* system bus: tells when the name goes away */
        sd_bus_slot *slots[6]; /* the API's four, the Disconnected match, Hello */
        struct client *next, *prev;
};
