/* SPDX-License-Identifier: MIT */
/* bus-call — sends sandboxd the Run calls busctl cannot: huge argv, strings past
 * ARG_MAX's per-argument cap, hundreds of fds, wrong signatures, fds of the wrong kind.
 * A test tool: it reports what came back and never decides pass or fail.
 *
 *   bus-call SOCKET [--profile NAME] [--args N] [--arg-bytes N] [--extra-fds N]
 *                   [--stdout-path] [--signature SIG] [--workspace DIR] [--wait]
 *                   [--connections N] [--hold SECONDS] [--bus] [--become UID:GID]
 *                   [--array KEY=A,B,...]... [-- ARGV...]
 *
 * --array: a Run option KEY sent as an array ('as') of the comma-separated values.
 * --bus: SOCKET is a bus address (unix:path=…) and bus-call a client of that bus.
 * --become: connect as who runs bus-call (root), then become UID:GID with no
 * supplementary group, and only then call Run (a caller whose credentials changed).
 *
 * Prints "ok ID PATH" (and, with --wait, "exit STATUS SIGNAL") or "error NAME: MESSAGE";
 * exits 0 on a reply, 1 on an error reply, 2 when it could not talk to the daemon.
 * --connections N opens N connections first and keeps them (a flood of clients);
 * --hold keeps the connection open that long after the reply. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

struct opts {
        const char *socket, *profile, *signature, *workspace, *become;
        long args, arg_bytes, extra_fds, connections, hold;
        int stdout_path, wait, bus; /* bus: SOCKET is a bus address, we are a client on it */
        char **argv;
        int argc;
        const char *arrays[8];
        int n_arrays;
};

static int connect_to(const char *socket, int on_bus, sd_bus **ret)
{
        char address[4200];
        sd_bus *bus = NULL;
        int r;

        snprintf(address, sizeof(address), on_bus ? "%s" : "unix:path=%s", socket);
        if ((r = sd_bus_new(&bus)) < 0 || (r = sd_bus_set_address(bus, address)) < 0 ||
            (r = sd_bus_set_bus_client(bus, on_bus)) < 0 ||
            (r = sd_bus_negotiate_fds(bus, 1)) < 0 || (r = sd_bus_start(bus)) < 0) {
                sd_bus_unref(bus);
                return r;
        }
        *ret = bus;
        return 0;
}

static int append_argv(sd_bus_message *m, const struct opts *o)
{
        char *big = NULL;
        int r;

        if ((r = sd_bus_message_open_container(m, 'a', "s")) < 0)
                return r;
        for (int i = 0; i < o->argc && r >= 0; i++)
                r = sd_bus_message_append(m, "s", o->argv[i]);
        for (long i = 0; i < o->args && r >= 0; i++)
                r = sd_bus_message_append(m, "s", "x");
        if (r >= 0 && o->arg_bytes > 0) {
                if (!(big = malloc((size_t)o->arg_bytes + 1)))
                        return -ENOMEM;
                memset(big, 'a', (size_t)o->arg_bytes);
                big[o->arg_bytes] = '\0';
                r = sd_bus_message_append(m, "s", big);
                free(big);
        }
        return r < 0 ? r : sd_bus_message_close_container(m);
}

static int append_options(sd_bus_message *m, const struct opts *o)
{
        int r, fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        r = sd_bus_message_open_container(m, 'a', "{sv}");
        for (long i = 0; i < o->extra_fds && r >= 0; i++) {
                char key[32];

                snprintf(key, sizeof(key), "fd%ld", i);
                r = sd_bus_message_append(m, "{sv}", key, "h", fd);
        }
        close(fd);
        for (int i = 0; i < o->n_arrays && r >= 0; i++) {
                char *key = strdup(o->arrays[i]), *v, *save = NULL;

                if (!key || !(v = strchr(key, '='))) {
                        free(key);
                        return -EINVAL;
                }
                *v++ = '\0';
                if ((r = sd_bus_message_open_container(m, 'e', "sv")) >= 0 && (r = sd_bus_message_append(m, "s", key)) >= 0 &&
                    (r = sd_bus_message_open_container(m, 'v', "as")) >= 0 && (r = sd_bus_message_open_container(m, 'a', "s")) >= 0) {
                        for (char *s = strtok_r(v, ",", &save); s && r >= 0; s = strtok_r(NULL, ",", &save))
                                r = sd_bus_message_append(m, "s", s);
                        if (r >= 0 && (r = sd_bus_message_close_container(m)) >= 0 && (r = sd_bus_message_close_container(m)) >= 0)
                                r = sd_bus_message_close_container(m);
                }
                free(key);
        }
        return r < 0 ? r : sd_bus_message_close_container(m);
}

static int build_run(sd_bus *bus, const struct opts *o, sd_bus_message **ret)
{
        sd_bus_message *m = NULL;
        int ws, out, r;

        ws = open(o->workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
        /* --stdout-path: an O_PATH fd, which can neither be read nor written. */
        out = o->stdout_path ? open("/dev/null", O_PATH | O_CLOEXEC) : open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (ws < 0 || out < 0)
                return -errno;
        r = sd_bus_message_new_method_call(bus, &m, "io.sbx.Sandbox1", "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Run");
        if (r >= 0 && o->signature) /* the wrong shape on purpose: one string per letter */
                for (const char *c = o->signature; *c && r >= 0; c++)
                        r = *c == 's' ? sd_bus_message_append(m, "s", "workspace") : sd_bus_message_append(m, "u", 7u);
        else if (r >= 0 && (r = sd_bus_message_append(m, "s", o->profile)) >= 0 && (r = append_argv(m, o)) >= 0 &&
                 (r = sd_bus_message_append(m, "a{ss}", 0)) >= 0 &&
                 (r = sd_bus_message_append(m, "hhhh", ws, out, out, out)) >= 0)
                r = append_options(m, o);
        close(ws);
        close(out);
        if (r < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        *ret = m;
        return 0;
}

static int wait_for(sd_bus *bus, const char *id)
{
        sd_bus_error err = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        int status, code, sig, r;

        r = sd_bus_call_method(bus, "io.sbx.Sandbox1", "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Wait", &err, &reply, "s", id);
        if (r < 0) {
                printf("error %s: %s\n", err.name ? err.name : "-", err.message ? err.message : strerror(-r));
                sd_bus_error_free(&err);
                return 1;
        }
        if (sd_bus_message_read(reply, "iii", &status, &code, &sig) >= 0)
                printf("exit %d %d\n", status, sig);
        sd_bus_message_unref(reply);
        return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
        static const struct option longs[] = {
                { "profile", required_argument, NULL, 'p' },   { "args", required_argument, NULL, 'a' },
                { "arg-bytes", required_argument, NULL, 'b' }, { "extra-fds", required_argument, NULL, 'f' },
                { "stdout-path", no_argument, NULL, 'o' },      { "signature", required_argument, NULL, 's' },
                { "workspace", required_argument, NULL, 'w' }, { "wait", no_argument, NULL, 'W' },
                { "connections", required_argument, NULL, 'c' }, { "hold", required_argument, NULL, 'h' },
                { "bus", no_argument, NULL, 'B' },             { "become", required_argument, NULL, 'u' },
                { "array", required_argument, NULL, 'A' },
                {},
        };
        int c;

        *o = (struct opts){ .profile = "workspace", .workspace = "/tmp" };
        while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
                switch (c) {
                case 'p': o->profile = optarg; break;
                case 'a': o->args = atol(optarg); break;
                case 'b': o->arg_bytes = atol(optarg); break;
                case 'f': o->extra_fds = atol(optarg); break;
                case 'o': o->stdout_path = 1; break;
                case 's': o->signature = optarg; break;
                case 'w': o->workspace = optarg; break;
                case 'W': o->wait = 1; break;
                case 'c': o->connections = atol(optarg); break;
                case 'h': o->hold = atol(optarg); break;
                case 'B': o->bus = 1; break;
                case 'u': o->become = optarg; break;
                case 'A':
                        if (o->n_arrays >= 8)
                                return -1;
                        o->arrays[o->n_arrays++] = optarg;
                        break;
                default: return -1;
                }
        }
        if (optind >= argc)
                return -1;
        o->socket = argv[optind++];
        o->argv = argv + optind;
        o->argc = argc - optind;
        return 0;
}

int main(int argc, char **argv)
{
        sd_bus_error err = SD_BUS_ERROR_NULL;
        sd_bus_message *m = NULL, *reply = NULL;
        sd_bus *bus = NULL;
        struct opts o;
        const char *id, *path;
        int r;

        if (parse(argc, argv, &o) < 0) {
                fprintf(stderr, "usage: bus-call SOCKET [options] [-- ARGV...] (see the source)\n");
                return 2;
        }
        for (long i = 0; i < o.connections; i++) {
                sd_bus *extra;

                if ((r = connect_to(o.socket, o.bus, &extra)) < 0) {
                        printf("connections %ld\n", i);
                        break;
                }
                /* kept open until exit, on purpose */
        }
        if ((r = connect_to(o.socket, o.bus, &bus)) < 0) {
                printf("error connect: %s\n", strerror(-r));
                return 2;
        }
        if (o.become) {
                unsigned uid, gid;

                if (sscanf(o.become, "%u:%u", &uid, &gid) != 2 || setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
                    setresuid(uid, uid, uid) < 0) {
                        printf("error become: %s\n", strerror(errno));
                        return 2;
                }
        }
        if ((r = build_run(bus, &o, &m)) < 0) {
                printf("error build: %s\n", strerror(-r));
                return 2;
        }
        r = sd_bus_call(bus, m, 30 * 1000000ULL, &err, &reply);
        if (r < 0) {
                printf("error %s: %s\n", err.name ? err.name : "-", err.message ? err.message : strerror(-r));
                return 1;
        }
        if ((r = sd_bus_message_read(reply, "so", &id, &path)) < 0) {
                printf("error reply: %s\n", strerror(-r));
                return 2;
        }
        printf("ok %s %s\n", id, path);
        fflush(stdout);
        if (o.wait && wait_for(bus, id) != 0)
                return 1;
        if (o.hold > 0)
                sleep((unsigned)o.hold);
        sd_bus_message_unref(reply);
        sd_bus_message_unref(m);
        sd_bus_flush_close_unref(bus);
        return 0;
}
