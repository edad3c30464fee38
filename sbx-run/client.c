/* SPDX-License-Identifier: MIT */
/* sbx-run --daemon: the same command line, sent to sandboxd as one Run call over its
 * peer-to-peer D-Bus socket.  The caller's stdio and workspace travel as fds (the
 * daemon never copies the command's output); the command's fate comes back from Wait;
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded as Kill.  The exit status follows
 * the same contract as direct mode. */
#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "../lib/busapi.h"
#include "../lib/cleanup.h"
#include "../lib/path.h"
#include "summary.h"

#define RUN_TIMEOUT_USEC (120ull * 1000000) /* checking and building a jail */

extern char **environ;

/* As direct mode forwards them to the jail. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT };

struct call {
        sd_bus *bus;
        char id[64];
        bool done;
        int status;
        struct sbx_result res;
        char error[1024];
};

static int fail(const char *what, const char *detail, const char *hint, int status)
{
        fprintf(stderr, "sbx-run: %s: %s (%s)\n", what, detail, hint);
        return status;
}

static int append_mounts(sd_bus_message *m, const struct sbx_plan *p)
{
        static const char *const keys[] = { [SBX_MOUNT_RO] = "ro", [SBX_MOUNT_RW] = "rw", [SBX_MOUNT_TMPFS] = "tmpfs" };
        char buf[8192];
        int r = 0;

        for (size_t i = 0; r >= 0 && i < p->n_mounts; i++) {
                const struct sbx_mount *mt = &p->mounts[i];

                if (mt->kind == SBX_MOUNT_TMPFS)
                        snprintf(buf, sizeof(buf), "%s:%llu", mt->dest, (unsigned long long)mt->size);
                else if (mt->kind == SBX_MOUNT_RO || mt->kind == SBX_MOUNT_RW)
                        snprintf(buf, sizeof(buf), strcmp(mt->source, mt->dest) ? "%s:%s" : "%s", mt->source, mt->dest);
                else
                        continue;
                r = sd_bus_message_append(m, "{sv}", keys[mt->kind], "s", buf);
        }
        return r;
}

/* The table's rows that were given, each as its Run key (the mounts above). */
static int append_rows(sd_bus_message *m, const struct sbx_ask *a)
{
        const struct sbx_plan *p = &a->plan;
        int r = 0;

        for (size_t i = 0; r >= 0 && i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];

                if (!o->bus || !sbx_ask_given(a, o))
                        continue;
                if (sbx_option_bus_type(o) == 't')
                        r = sd_bus_message_append(m, "{sv}", o->bus, "t", sbx_option_get_u64(p, o));
                else if (o->kind == SBX_OPT_NET)
                        r = sd_bus_message_append(m, "{sv}", o->bus, "s", sbx_net_name(p->net));
                else if (o->kind == SBX_OPT_NET_DENY)
                        for (size_t j = 0; r >= 0 && j < p->net_rules.n; j++)
                                r = sd_bus_message_append(m, "{sv}", o->bus, "s", p->net_rules.v[j].text);
                else if (o->kind == SBX_OPT_HOSTNAME || o->kind == SBX_OPT_TAG || o->kind == SBX_OPT_WORKDIR)
                        r = sd_bus_message_append(m, "{sv}", o->bus, "s", sbx_option_get_str(p, o));
        }
        return r;
}

static int append_options(sd_bus_message *m, const struct sbx_options *o)
{
        int r;

        if ((r = sd_bus_message_open_container(m, 'a', "{sv}")) < 0 || (r = append_mounts(m, &o->ask.plan)) < 0 ||
            (r = append_rows(m, &o->ask)) < 0)
                return r;
        /* Ours, for the profile's environment.pass: sandboxd picks what it names. */
        if ((r = sd_bus_message_open_container(m, 'e', "sv")) < 0 || (r = sd_bus_message_append(m, "s", "environ")) < 0 ||
            (r = sd_bus_message_open_container(m, 'v', "as")) < 0 || (r = sd_bus_message_append_strv(m, environ)) < 0 ||
            (r = sd_bus_message_close_container(m)) < 0 || (r = sd_bus_message_close_container(m)) < 0)
                return r;
        return sd_bus_message_close_container(m);
}

static int append_env(sd_bus_message *m, const struct sbx_plan *p)
{
        int r;

        if ((r = sd_bus_message_open_container(m, 'a', "{ss}")) < 0)
                return r;
        for (size_t i = 0; i < p->n_env; i++) {
                _cleanup_free_ char *name = strndup(p->env[i], strcspn(p->env[i], "="));
                const char *eq = strchr(p->env[i], '=');

                if (!name || !eq)
                        return -ENOMEM;
                if ((r = sd_bus_message_append(m, "{ss}", name, eq + 1)) < 0)
                        return r;
        }
        return sd_bus_message_close_container(m);
}

static int build_run(sd_bus *bus, const struct sbx_options *o, int ws, sd_bus_message **ret)
{
        sd_bus_message *m = NULL;
        int r;

        if ((r = sd_bus_message_new_method_call(bus, &m, NULL, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_METHOD_RUN)) < 0 ||
            (r = sd_bus_message_append(m, "s", o->profile ? o->profile : "workspace")) < 0 ||
            (r = sd_bus_message_append_strv(m, o->ask.plan.argv)) < 0 || (r = append_env(m, &o->ask.plan)) < 0 ||
            (r = sd_bus_message_append(m, "hhhh", ws, 0, 1, 2)) < 0 || (r = append_options(m, o)) < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        *ret = m;
        return 0;
}

static int on_wait(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct call *c = userdata;
        struct sbx_result *res = &c->res;
        int r;

        (void)err;
        c->done = true;
        if (sd_bus_message_is_method_error(m, NULL)) {
                const sd_bus_error *e = sd_bus_message_get_error(m);

                snprintf(c->error, sizeof(c->error), "lost sandbox %s: %s", c->id, e && e->message ? e->message : "no reply");
                c->status = 125;
        } else if ((r = sbx_bus_summary_read(m, res, c->error, sizeof(c->error))) < 0) {
                snprintf(c->error, sizeof(c->error), "cannot read sandboxd's answer: %s", strerror(-r));
                c->status = 125;
        } else {
                c->status = res->status;
        }
        return sd_event_exit(sd_bus_get_event(sd_bus_message_get_bus(m)), 0);
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct call *c = userdata;

        (void)s;
        (void)sd_bus_call_method_async(c->bus, NULL, NULL, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_METHOD_KILL, NULL, NULL,
                                       SBX_BUS_KILL_IN, c->id, (int)si->ssi_signo);
        return 0;
}

/* Waits for the sandbox's end, forwarding our signals to it meanwhile. */
static int wait_exit(sd_bus *bus, struct call *c)
{
        _cleanup_(sd_event_unrefp) sd_event *ev = NULL;
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *wait = NULL;
        sigset_t mask;
        int r;

        sigemptyset(&mask);
        for (size_t i = 0; i < ELEMENTSOF(forwarded); i++)
                sigaddset(&mask, forwarded[i]);
        sigprocmask(SIG_BLOCK, &mask, NULL);
        if ((r = sd_event_new(&ev)) < 0 || (r = sd_bus_attach_event(bus, ev, 0)) < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(forwarded); i++)
                if ((r = sd_event_add_signal(ev, NULL, forwarded[i], on_signal, c)) < 0)
                        return r;
        /* Wait answers when the sandbox ends, however long that takes: no timeout
         * (UINT64_MAX is sd-bus's infinity; 0 would be its 25 s default). */
        if ((r = sd_bus_message_new_method_call(bus, &wait, NULL, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_METHOD_WAIT)) < 0 ||
            (r = sd_bus_message_append(wait, "s", c->id)) < 0 ||
            (r = sd_bus_call_async(bus, NULL, wait, on_wait, c, UINT64_MAX)) < 0)
                return r;
        r = sd_event_loop(ev);
        sd_bus_detach_event(bus);
        return r < 0 ? r : c->done ? 0 : -ECONNRESET;
}

static int denied_status(const sd_bus_error *e)
{
        /* The policy said no: 126, as a denied command in direct mode. */
        return sd_bus_error_has_name(e, SBX_ERR_DENIED) ? 126 : 125;
}

/* --json: the summary sandboxd sent, with what it said went wrong, if anything. */
static void print_summary(const struct sbx_options *o, const struct sbx_result *res, int errnum, const char *what)
{
        struct sbx_error e = { 0 };

        if (what && what[0])
                sbx_error_set(&e, SBX_STAGE_SANDBOXD, errnum, "", "", "%s", what);
        sbx_summary_print(stderr, res, e.errnum ? &e : NULL, &o->ask.plan, NULL);
}

int sbx_client_run(const struct sbx_options *o)
{
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *call = NULL, *reply = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error err = SD_BUS_ERROR_NULL;
        _cleanup_close_ int ws = -1;
        const char *socket = o->socket ? o->socket : SBX_DAEMON_SOCKET, *id, *path;
        struct call c = { .status = 125 };
        struct sbx_error e = { 0 };
        char address[4200];
        int r;

        if (o->profile && strchr(o->profile, '/'))
                return fail("--profile takes a name with sandboxd", o->profile,
                            "sandboxd loads only installed profiles; install it in /etc/sbx/profiles, or use --direct", 125);
        /* Through lib/path.h's rules, as in direct mode: a symlink a jail planted does
         * not send the next workspace elsewhere. */
        if (sbx_path_open(o->ask.plan.workspace ? o->ask.plan.workspace : ".", O_PATH | O_DIRECTORY, &ws, NULL, 0, &e) < 0) {
                sbx_error_format(&e, address, sizeof(address));
                return fail("cannot open the workspace", address, "--workspace must name a directory", 125);
        }
        snprintf(address, sizeof(address), "unix:path=%s", socket);
        if ((r = sd_bus_new(&bus)) < 0 || (r = sd_bus_set_address(bus, address)) < 0 ||
            (r = sd_bus_negotiate_fds(bus, 1)) < 0 || (r = sd_bus_start(bus)) < 0) {
                fprintf(stderr, "sbx-run: cannot reach sandboxd at '%s': %s (start it: systemctl start sandboxd.socket; or run with --direct)\n",
                        socket, strerror(-r));
                return 125;
        }
        if ((r = build_run(bus, o, ws, &call)) < 0) {
                fprintf(stderr, "sbx-run: cannot build the request: %s\n", strerror(-r));
                return 125;
        }
        r = sd_bus_call(bus, call, RUN_TIMEOUT_USEC, &err, &reply);
        if (r < 0) {
                c.res.status = sd_bus_error_is_set(&err) ? denied_status(&err) : 125;
                c.res.exit_code = -1;
                fprintf(stderr, "sbx-run: sandboxd refused: %s\n", err.message ? err.message : strerror(-r));
                if (o->json)
                        print_summary(o, &c.res, c.res.status == 126 ? EACCES : -r, err.message ? err.message : strerror(-r));
                return c.res.status;
        }
        if ((r = sd_bus_message_read(reply, SBX_BUS_RUN_OUT, &id, &path)) < 0) {
                fprintf(stderr, "sbx-run: cannot read sandboxd's answer: %s\n", strerror(-r));
                return 125;
        }
        snprintf(c.id, sizeof(c.id), "%s", id);
        c.bus = bus;
        if ((r = wait_exit(bus, &c)) < 0) {
                fprintf(stderr, "sbx-run: lost the connection to sandboxd while sandbox %s ran: %s\n", c.id, strerror(-r));
                return 125;
        }
        if (c.error[0])
                fprintf(stderr, "sbx-run: %s\n", c.error);
        sbx_summary_note(stderr, &c.res, NULL);
        /* What filesystem.git did not carry back, as in direct mode. */
        for (const char *s = c.res.notes; *s;) {
                size_t len = strcspn(s, "\n");

                fprintf(stderr, "sbx-run: note: %.*s\n", (int)len, s);
                s += len + (s[len] == '\n');
        }
        if (o->json)
                print_summary(o, &c.res, EIO, c.error);
        return c.status;
}
