/* SPDX-License-Identifier: MIT */
/* sandboxd's state: one sd-event loop, the configuration in force, the clients (one
 * peer-to-peer connection each, or a name on the system bus) and their sandboxes. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "../lib/busapi.h"
#include "../lib/caller.h"
#include "../lib/error.h"
#include "../lib/jail.h"
#include "../policy/profile.h"
#include "../policy/site.h"
#include "request.h"


/* Everything a (re)load reads, swapped in whole or not at all. */
struct sbx_config {
        struct sbx_site_policy policy;
        struct sbx_profile_store profiles;
};

struct client;
struct sandbox;

struct daemon {
        sd_event *event;
        sd_bus *system_bus;   /* NULL when no system bus runs (or --no-system-bus) */
        struct client *clients;
        struct sandbox *sandboxes;
        size_t n_sandboxes;   /* not yet EXITED: what the caps count */
        size_t n_records;     /* all, EXITED ones kept for Wait included */
        struct sbx_config *config;
        const char *policy_path;
        bool stopping;
        int listen_fds[8];
        size_t n_listen;
        sd_event_source *listen_src[8];
        /* The listening sockets' paths, canonical: hidden in every jail that binds them. */
        char socket_paths[8][108];
        size_t n_socket_paths;
        sd_bus_slot *system_slots[4];
        size_t n_clients;
        size_t max_clients;       /* from RLIMIT_NOFILE (main.c): every connection's fds fit */
        rlim_t jail_nofile;       /* RLIMIT_NOFILE's soft limit for jails: the one sandboxd got */
        sd_event_source *intake_post, *intake_sweep;
        size_t n_waiting;         /* connections whose intake waits on sd-bus or a budget */
};

/* Peer to peer: what the kernel recorded about the connecting process (identity.c). */
struct peer_creds {
        bool valid;
        uid_t uid;
        gid_t gid;
        pid_t pid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        bool too_many_groups;
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

enum sandbox_state {
        SB_STARTING, /* the launcher checks the request as the caller and builds the jail */
        SB_RUNNING,  /* the command runs */
        SB_STOPPING, /* asked to end (Kill, disconnect, shutdown); the launcher still lives */
        SB_EXITED,   /* the launcher is reaped; the record waits for Wait or its owner */
        SB_N_STATES,
};

enum sandbox_event {
        EV_ALLOWED,       /* launcher: the request passed every check; the jail starts */
        EV_REFUSED,       /* launcher: denied or failed before the jail started */
        EV_RESULT,        /* launcher: the command's fate */
        EV_LAUNCHER_GONE, /* launcher's pidfd: it exited */
        EV_TIMER,         /* the start deadline, or a stop's grace period, ran out */
        EV_DISCONNECT,    /* the owning client went away */
        EV_KILL,          /* Kill(id, signal) */
        EV_SHUTDOWN,      /* sandboxd is stopping */
        EV_N_EVENTS,
};

struct launch_report;

struct sandbox {
        struct daemon *d;
        char id[17];
        char path[80];
        enum sandbox_state state;
        struct client *owner;  /* NULL once it went away */
        uid_t uid;
        gid_t gid;
        pid_t caller_pid;
        char *profile;
        char **argv;
        char *workspace;
        uint64_t argv_max;
        uint64_t start_usec;   /* CLOCK_REALTIME */
        pid_t launcher;
        int pidfd, ctl_fd;
        sd_event_source *pidfd_src, *ctl_src, *timer_src;
        sd_bus_message *run_call;     /* Run, answered once the launcher decided */
        sd_bus_message *waiters[8];   /* Wait calls, answered at exit */
        size_t n_waiters;
        bool have_result, refused, failed;
        int kill_signal;              /* the last signal asked for, 0: none */
        struct sbx_result result;
        struct sbx_error error;
        char reason[512];
        struct sandbox *next, *prev;
};

/* ---- sandbox.c: the table ---------------------------------------------------- */
/* Feeds @ev to @sb; @arg: the signal for EV_KILL, the launcher's report for
 * EV_ALLOWED/EV_REFUSED/EV_RESULT.  May free @sb (EXITED records nobody waits for). */
void sandbox_event(struct sandbox *sb, enum sandbox_event ev, const void *arg);
struct sandbox *sandbox_find(struct daemon *d, const char *id);
size_t sandboxes_of(const struct daemon *d, uid_t uid);
/* A new record in STARTING, owned by @owner, with the start deadline armed. */
struct sandbox *sandbox_new(struct daemon *d, struct client *owner);
void sandbox_free(struct sandbox *sb);
const char *sandbox_state_name(enum sandbox_state s);

/* ---- launch.c: the launcher process ------------------------------------------ */
struct launch {
        struct sbx_request *rq;
        const struct sbx_config *config;
        const struct sbx_site_grant *grant;
        uid_t uid;
        gid_t gid;
        const gid_t *groups;
        size_t n_groups;
        int workspace_fd, stdio[3];
        const char (*hide)[108]; /* sandboxd's sockets, masked wherever a bind carries them */
        size_t n_hide;
        mode_t umask; /* the caller's */
        rlim_t nofile; /* RLIMIT_NOFILE's soft limit for the jail (sandboxd raised its own) */
};
/* Forks the launcher for @sb and watches it.  0, or -errno with @e filled. */
int launch_start(struct sandbox *sb, const struct launch *l, struct sbx_error *e);
/* The launcher's messages, as sandbox_event's @arg. */
struct launch_report {
        int type;                /* 1 decided, 2 result */
        bool allow, failed;
        char reason[512];
        char workspace[4096];
        uint64_t argv_max;
        int r;
        struct sbx_result res;
        struct sbx_error err;
};
/* ---- asuser.c: the caller's file operations, in a helper that has become it --- */
int asuser_start(uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups, struct sbx_caller *ret, struct sbx_error *e);
void asuser_stop(struct sbx_caller *c);

/* Asks the launcher to send @sig to the jail's PID 1. */
void launch_signal(struct sandbox *sb, int sig);
/* Feeds every report the launcher has sent to the table. */
void launch_drain(struct sandbox *sb);

/* ---- identity.c: who is calling ------------------------------------------------- */
struct caller {
        uid_t uid;
        gid_t gid;
        pid_t pid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        mode_t umask;  /* the calling process's (022 unless @process was asked for) */
        bool in_jail;  /* the calling process runs inside an sbx jail */
};
/* Peer to peer, at accept: SO_PEERCRED and SO_PEERGROUPS of @fd.  0 or -errno. */
int caller_read_peer(int fd, struct peer_creds *pc);
/* The caller of @m, which came on @c (a connection, or the system bus's stand-in):
 * its uid, gid and groups from the kernel (the socket, or the bus driver).  With
 * @process, the calling process itself is pinned and read: its credentials must
 * still be those it connected with, and they give the gid (which the bus does not
 * know), the umask and in_jail.  0, or a negative errno with @err set (AccessDenied). */
int caller_get(sd_bus_message *m, const struct client *c, bool process, struct caller *who, sd_bus_error *err);

/* ---- api.c: the D-Bus interface ---------------------------------------------- */
/* Registers the objects on @bus; @userdata is a struct client whose d is set (peer to
 * peer: the connection's own; system bus: a stand-in, the caller found by sender). */
int api_attach(struct daemon *d, sd_bus *bus, sd_bus_slot **slots, size_t n, void *userdata);
/* The client record behind @m: peer to peer the connection's; on the system bus the
 * sender's (of uid @uid), made (and tracked) on first use. */
struct client *client_for(sd_bus_message *m, void *userdata, uid_t uid);
/* Peer to peer: answers Hello as a bus driver would, for bus clients such as busctl. */
int api_attach_driver(sd_bus *bus, sd_bus_slot **slot);
void api_reply_run(struct sandbox *sb);
void api_reply_waiters(struct sandbox *sb);
void api_emit_exited(struct sandbox *sb);

/* ---- intake.c: what a connection may send ------------------------------------------ */
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

/* ---- server.c: connections ----------------------------------------------------- */
int server_listen(struct daemon *d, const char *path, struct sbx_error *e);
int server_connect_system_bus(struct daemon *d);
/* d->max_clients from RLIMIT_NOFILE and the policy in force (at start, on reload). */
void server_size(struct daemon *d);
void client_free(struct client *c);
/* Its sandboxes are told, the record goes on the next iteration; once. */
void client_gone(struct client *c);
void server_stop_listening(struct daemon *d);
void server_done(struct daemon *d);

/* ---- config.c ------------------------------------------------------------------ */
/* Reads the site policy and every profile.  0 with *ret set, or -errno with @why. */
int config_load(const char *policy_path, struct sbx_config **ret, char *why, size_t size);
void config_free(struct sbx_config *c);
/* Loads afresh and swaps only on success; the old one stays otherwise.  Logs either way. */
int daemon_reload(struct daemon *d, char *why, size_t size);
