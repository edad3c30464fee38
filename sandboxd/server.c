/* SPDX-License-Identifier: MIT */
/* Where requests come from: sandboxd's own socket (one peer-to-peer D-Bus connection
 * per client, authenticated by SO_PEERCRED, read through intake.c), and the system
 * bus when one runs.  A client's going away -- its connection closing, or its unique
 * name leaving the bus -- is the disconnect event of each of its sandboxes.  How many
 * connections: intake.c's budget per uid, POOL_UNADMITTED for the uids the policy
 * admits to nothing, and d->max_clients in all (what RLIMIT_NOFILE has room for). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>

#include "../lib/cleanup.h"
#include "identity.h"
#include "intake.h"
#include "log.h"
#include "sandbox.h"
#include "server.h"

#define MAX_CLIENTS 1024 /* connections at once, all users */

static void unlink_client(struct client *c)
{
        struct daemon *d = c->d;

        if (c->prev)
                c->prev->next = c->next;
        else if (d->clients == c)
                d->clients = c->next;
        if (c->next)
                c->next->prev = c->prev;
        c->next = c->prev = NULL;
}

void client_free(struct client *c)
{
        if (!c)
                return;
        unlink_client(c);
        for (size_t i = 0; i < ELEMENTSOF(c->slots); i++)
                c->slots[i] = sd_bus_slot_unref(c->slots[i]);
        c->track = sd_bus_track_unref(c->track);
        /* No flush: a client that does not read must not stall the daemon. */
        if (c->name)
                c->bus = sd_bus_unref(c->bus);
        else
                c->bus = sd_bus_close_unref(c->bus);
        intake_close(c);
        free(c->name);
        c->d->n_clients--;
        free(c);
}

static int free_later(sd_event_source *s, void *userdata)
{
        client_free(userdata);
        sd_event_source_disable_unref(s);
        return 0;
}

/* Every sandbox of @c is told; the record itself goes on the next loop iteration,
 * outside of the bus callback that noticed (a bus must not be freed from within its
 * own dispatch). */
void client_gone(struct client *c)
{
        struct sandbox *next;

        if (c->gone)
                return;
        c->gone = true;
        intake_stop(c);
        for (struct sandbox *sb = c->d->sandboxes.head; sb; sb = next) {
                next = sb->next;
                if (sb->owner == c)
                        sandbox_event(sb, EV_DISCONNECT, NULL);
        }
        unlink_client(c);
        if (sd_event_add_defer(c->d->event, NULL, free_later, c) < 0)
                client_free(c);
}

static int on_disconnected(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        (void)m;
        (void)err;
        client_gone(userdata);
        return 0;
}

static int on_track_gone(sd_bus_track *t, void *userdata)
{
        (void)t;
        client_gone(userdata);
        return 0;
}

/* A new connection: who (SO_PEERCRED), whether there is room for it, its intake in
 * front of its own sd-bus server.  Refused ones are closed unanswered; the others
 * go on. */
static int on_accept(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct daemon *d = userdata;
        struct intake_budget b;
        struct peer_creds pc;
        struct client *c = NULL;
        sd_id128_t id;
        int cfd, bus_in = -1, bus_out = -1, r;

        (void)s;
        (void)revents;
        cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0)
                return 0;
        if (caller_read_peer(cfd, &pc) < 0 || d->stopping || d->n_clients >= d->max_clients) {
                close(cfd);
                return 0;
        }
        intake_budget(d, &pc, &b);
        if (intake_conns_of(d, pc.uid) >= b.conns || (!b.admitted && intake_unadmitted(d) >= POOL_UNADMITTED)) {
                close(cfd);
                return 0;
        }
        c = calloc(1, sizeof(*c));
        if (!c) {
                close(cfd);
                return 0;
        }
        d->n_clients++;
        c->d = d;
        c->creds = pc;
        c->uid = pc.uid;
        c->in.budget = b;
        c->in.sock = c->in.feed = -1;
        c->next = d->clients;
        if (d->clients)
                d->clients->prev = c;
        d->clients = c;
        /* (cfd is c's from here on, closed with it) */
        if ((r = intake_open(c, cfd, &bus_in, &bus_out)) < 0 || (r = sd_bus_new(&c->bus)) < 0 ||
            (r = sd_bus_set_fd(c->bus, bus_in, bus_out)) < 0) {
                (void)log_error_errno(r, "cannot serve a connection: %m");
                closep(&bus_in);
                closep(&bus_out);
                client_free(c);
                return 0;
        }
        /* The identity is SO_PEERCRED's, taken above: the SASL exchange is a formality
         * (sd-bus would check the uid a client names against its input's peer, which
         * is sandboxd itself). */
        if ((r = sd_id128_randomize(&id)) < 0 || (r = sd_bus_set_server(c->bus, 1, id)) < 0 ||
            (r = sd_bus_set_anonymous(c->bus, 1)) < 0 || (r = sd_bus_negotiate_fds(c->bus, 1)) < 0 ||
            (r = d->hooks->attach(d, c->bus, c->slots, 4, c)) < 0 ||
            (r = sd_bus_match_signal(c->bus, &c->slots[4], "org.freedesktop.DBus.Local", "/org/freedesktop/DBus/Local",
                                     "org.freedesktop.DBus.Local", "Disconnected", on_disconnected, c)) < 0 ||
            (r = d->hooks->attach_driver(c->bus, &c->slots[5])) < 0 ||
            (r = sd_bus_attach_event(c->bus, d->event, SD_EVENT_PRIORITY_NORMAL)) < 0 || (r = sd_bus_start(c->bus)) < 0 ||
            (r = intake_start(c)) < 0) {
                (void)log_error_errno(r, "cannot serve a connection: %m");
                client_free(c);
        }
        return 0;
}

/* How many connections at once: each holds its socket, sd-bus's two ends and ours,
 * and up to INTAKE_FDS fds in the intake and as many in the message sd-bus is on; a
 * sandbox its pidfd and report socket, and its Run's fds until it starts. */
void server_size(struct daemon *d)
{
        const uint64_t per_client = 4 + 2 * INTAKE_FDS, per_sandbox = 2 + INTAKE_FDS, reserve = 64;
        uint64_t need = reserve + d->config->policy.max_sandboxes * per_sandbox, room;
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
                rl.rlim_cur = 1024;
        room = rl.rlim_cur > need ? (rl.rlim_cur - need) / per_client : 0;
        d->max_clients = room > MAX_CLIENTS ? MAX_CLIENTS : room < 16 ? 16 : (size_t)room;
        if (room < MAX_CLIENTS)
                log_warning("RLIMIT_NOFILE %llu leaves room for %zu connections, not %d (raise LimitNOFILE=)",
                            (unsigned long long)rl.rlim_cur, d->max_clients, MAX_CLIENTS);
}

struct client *client_for(sd_bus_message *m, void *userdata, uid_t uid)
{
        struct client *slot_client = userdata, *c;
        struct daemon *d = slot_client->d;
        const char *sender = sd_bus_message_get_sender(m);

        if (!slot_client->bus_wide)
                return slot_client;
        if (!sender)
                return NULL;
        for (c = d->clients; c; c = c->next)
                if (c->name && strcmp(c->name, sender) == 0)
                        return c;
        c = calloc(1, sizeof(*c));
        if (!c)
                return NULL;
        d->n_clients++;
        c->d = d;
        c->in.sock = c->in.feed = -1;
        c->uid = uid;
        c->bus = sd_bus_ref(slot_client->bus);
        c->name = strdup(sender);
        c->next = d->clients;
        if (d->clients)
                d->clients->prev = c;
        d->clients = c;
        if (!c->name || sd_bus_track_new(c->bus, &c->track, on_track_gone, c) < 0 || sd_bus_track_add_name(c->track, sender) < 0) {
                client_free(c);
                return NULL;
        }
        return c;
}

/* Where the socket lives, with its directory canonical (bind sources are), so that
 * the launcher can hide it in jails whose binds carry it: @path, or (NULL) the name
 * the socket was bound to. */
static void remember_path(struct daemon *d, int fd, const char *path)
{
        struct sockaddr_un sa;
        socklen_t n = sizeof(sa);
        _cleanup_free_ char *dir = NULL;
        char *slash, *real;

        memset(&sa, 0, sizeof(sa));
        if (path)
                snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
        else if (getsockname(fd, (struct sockaddr *)&sa, &n) < 0 || sa.sun_family != AF_UNIX)
                return;
        if (sa.sun_path[0] != '/' || !(dir = strndup(sa.sun_path, sizeof(sa.sun_path))) || !(slash = strrchr(dir, '/')))
                return;
        *slash = '\0';
        real = realpath(dir[0] ? dir : "/", NULL);
        if (real && strlen(real) + strlen(slash + 1) + 2 <= sizeof(d->socket_paths[0]))
                snprintf(d->socket_paths[d->n_socket_paths++], sizeof(d->socket_paths[0]), "%s/%s",
                         strcmp(real, "/") == 0 ? "" : real, slash + 1);
        free(real);
}

static int listen_on(struct daemon *d, int fd, const char *path, struct sbx_error *e)
{
        int r;

        if (d->n_listen >= ELEMENTSOF(d->listen_fds))
                return sbx_error_set(e, SBX_STAGE_LISTEN, EMFILE, "", "", "more than %zu listening sockets", ELEMENTSOF(d->listen_fds));
        d->listen_fds[d->n_listen] = fd;
        r = sd_event_add_io(d->event, &d->listen_src[d->n_listen], fd, EPOLLIN, on_accept, d);
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_LISTEN, -r, "sd_event_add_io", "", "cannot watch the socket");
        d->n_listen++;
        remember_path(d, fd, path);
        return 0;
}

/* What --listen finds at its path before it binds: nothing; or a socket a sandboxd
 * that was killed (SIGKILL, a crash) left, which the new socket replaces (renamed over
 * it) -- only when it is a socket, ours (root's), in a directory nobody else may
 * rename things in, and nobody answers on it.  Anything else is an error and stays as
 * it is: a --listen path must never cost a file, nor take the place of a daemon that
 * serves.  The stale socket is not unlinked first: while it exists, the new one cannot
 * get its inode number, which is how a waiter (sbx-entrypoint) tells them apart --
 * ext4 handed the freed number straight to the next socket, and the entrypoint waited
 * for a new socket that looked like the old one until it gave up. */
static int clear_stale(const struct sockaddr_un *sa, struct sbx_error *e)
{
        const char *path = sa->sun_path;
        _cleanup_free_ char *dir = strdup(path);
        _cleanup_close_ int probe = -1;
        char *slash = dir ? strrchr(dir, '/') : NULL;
        struct stat st, dst;

        if (!slash)
                return sbx_error_set(e, SBX_STAGE_LISTEN, ENOMEM, "", path, "out of memory");
        slash[slash == dir] = '\0';
        if (stat(dir, &dst) < 0)
                return sbx_error_set(e, SBX_STAGE_LISTEN, errno, "stat", dir, "cannot use the socket's directory");
        if ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX)) {
                sbx_error_set(e, SBX_STAGE_LISTEN, EPERM, "stat", dir, "the socket's directory is writable by others");
                sbx_error_hint(e, "give --listen a path in a directory only root may write (e.g. /run/sandboxd)");
                return -EPERM;
        }
        if (lstat(path, &st) < 0)
                return errno == ENOENT ? 0 : sbx_error_set(e, SBX_STAGE_LISTEN, errno, "lstat", path, "cannot look at the socket path");
        if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
                sbx_error_set(e, SBX_STAGE_LISTEN, EEXIST, "", path, "%s is in the way of the socket",
                              !S_ISSOCK(st.st_mode) ? "a file that is not a socket" : "a socket of another user");
                sbx_error_hint(e, "remove it if it is not needed, or give --listen another path");
                return -EEXIST;
        }
        probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (probe < 0)
                return sbx_error_set(e, SBX_STAGE_LISTEN, errno, "socket", path, "cannot create a socket");
        /* ECONNREFUSED: no listener behind it.  Connected, or EAGAIN (a full backlog):
         * a sandboxd serves there. */
        if (connect(probe, (const struct sockaddr *)sa, sizeof(*sa)) == 0 || errno != ECONNREFUSED) {
                sbx_error_set(e, SBX_STAGE_LISTEN, EADDRINUSE, "connect", path, "something already serves on the socket");
                sbx_error_hint(e, "another sandboxd runs: stop it first, or give --listen another path");
                return -EADDRINUSE;
        }
        return 0;
}

/* Socket activation first (systemd passes the sockets of sandboxd.socket), else
 * --listen PATH (containers, tests). */
int server_listen(struct daemon *d, const char *path, struct sbx_error *e)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX }, tmp = { .sun_family = AF_UNIX };
        struct stat st;
        int n = sd_listen_fds(1), fd, r;

        if (n < 0)
                return sbx_error_set(e, SBX_STAGE_LISTEN, -n, "sd_listen_fds", "", "cannot take the sockets systemd passed");
        for (int i = 0; i < n; i++) {
                fd = SD_LISTEN_FDS_START + i;
                if (sd_is_socket(fd, AF_UNIX, SOCK_STREAM, 1) <= 0)
                        return sbx_error_set(e, SBX_STAGE_LISTEN, EINVAL, "", "", "fd %d from systemd is not a listening unix stream socket", fd);
                (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                if ((r = listen_on(d, fd, NULL, e)) < 0)
                        return r;
        }
        if (n > 0)
                return 0;
        /* Made under a name of its own and renamed into place (over a stale one) once
         * it listens, so that the path exists only when it serves: whoever waits for it
         * (a container's entrypoint, sbx-run's "socket exists: use sandboxd") never
         * finds it refusing. */
        if (snprintf(tmp.sun_path, sizeof(tmp.sun_path), "%s.%d~", path, (int)getpid()) >= (int)sizeof(tmp.sun_path))
                return sbx_error_set(e, SBX_STAGE_LISTEN, ENAMETOOLONG, "", path, "the socket path is too long");
        memcpy(sa.sun_path, path, strlen(path) + 1);
        if ((r = clear_stale(&sa, e)) < 0)
                return r;
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_LISTEN, errno, "socket", path, "cannot create the socket");
        /* Any local user may connect; the site policy decides what each may do. */
        if (bind(fd, (struct sockaddr *)&tmp, sizeof(tmp)) < 0 || chmod(tmp.sun_path, 0666) < 0 || listen(fd, SOMAXCONN) < 0 ||
            lstat(tmp.sun_path, &st) < 0 || rename(tmp.sun_path, path) < 0) {
                r = sbx_error_set(e, SBX_STAGE_LISTEN, errno, "bind", path, "cannot listen on the socket");
                sbx_error_hint(e, "its directory must exist and be writable by root");
                (void)unlink(tmp.sun_path);
                close(fd);
                return r;
        }
        memcpy(d->own_socket, path, strlen(path) + 1);
        d->own_dev = st.st_dev;
        d->own_ino = st.st_ino;
        return listen_on(d, fd, path, e);
}


/* The system bus: serves the same objects under io.sbx.Sandbox1.  None running is
 * normal (containers); a bus that refuses the name is logged and skipped. */
int server_connect_system_bus(struct daemon *d)
{
        static struct client stand_in;
        struct client *bus_client = &stand_in;
        int r;

        *bus_client = (struct client){ .d = d, .bus_wide = true, .in = { .sock = -1, .feed = -1 } };
        if ((r = sd_bus_open_system(&d->system_bus)) < 0)
                return r;
        bus_client->bus = d->system_bus;
        if ((r = sd_bus_negotiate_creds(d->system_bus, 1, SD_BUS_CREDS_EUID | SD_BUS_CREDS_PID)) < 0 && r != -ENOPROTOOPT)
                goto fail;
        if ((r = d->hooks->attach(d, d->system_bus, d->system_slots, 4, bus_client)) < 0 ||
            (r = sd_bus_request_name(d->system_bus, SBX_BUS_NAME, 0)) < 0 ||
            (r = sd_bus_attach_event(d->system_bus, d->event, SD_EVENT_PRIORITY_NORMAL)) < 0)
                goto fail;
        return 0;
fail:
        for (size_t i = 0; i < ELEMENTSOF(d->system_slots); i++)
                d->system_slots[i] = sd_bus_slot_unref(d->system_slots[i]);
        d->system_bus = sd_bus_flush_close_unref(d->system_bus);
        return r;
}

/* Stop accepting (SIGTERM): connections already open are served until the end. */
void server_stop_listening(struct daemon *d)
{
        struct stat st;

        for (size_t i = 0; i < d->n_listen; i++) {
                d->listen_src[i] = sd_event_source_disable_unref(d->listen_src[i]);
                closep(&d->listen_fds[i]);
        }
        d->n_listen = 0;
        /* Our --listen socket goes with us (systemd's stays: sandboxd.socket owns it),
         * unless the path now names another one (a newer sandboxd's). */
        if (d->own_socket[0] && lstat(d->own_socket, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == d->own_dev &&
            st.st_ino == d->own_ino)
                (void)unlink(d->own_socket);
        d->own_socket[0] = '\0';
}

void server_done(struct daemon *d)
{
        server_stop_listening(d);
        while (d->clients)
                client_free(d->clients);
        d->intake_post = sd_event_source_disable_unref(d->intake_post);
        d->intake_sweep = sd_event_source_disable_unref(d->intake_sweep);
        for (size_t i = 0; i < ELEMENTSOF(d->system_slots); i++)
                d->system_slots[i] = sd_bus_slot_unref(d->system_slots[i]);
        d->system_bus = sd_bus_flush_close_unref(d->system_bus);
}
