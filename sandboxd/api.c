/* SPDX-License-Identifier: MIT */
/* The D-Bus interface: a closed set of checked operations.  Every method takes the
 * caller's identity from the kernel (identity.c: the socket peer to peer, the bus
 * driver and the calling process on the system bus), never from an argument or the
 * user database; reads its arguments through the bounded
 * request layer; and answers bad input with a typed error while the daemon keeps
 * serving everyone else.  Sandboxes are visible only to their own uid and to root. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/audit.h"
#include "../lib/auditfile.h"
#include "../lib/cleanup.h"
#include "api.h"
#include "identity.h"
#include "launch.h"
#include "sandbox.h"
#include "server.h"

/* Who is calling (identity.c): the uid alone for what only needs to know whose
 * sandboxes it may see; the whole process, pinned, for Run. */
static int caller_of(sd_bus_message *m, void *userdata, bool process, struct caller *who, sd_bus_error *err)
{
        const struct client *c = userdata;

        return caller_get(m, c->bus_wide ? NULL : &c->creds, c->in.sock, process, who, err);
}

static int get_caller(sd_bus_message *m, void *userdata, struct caller *who, sd_bus_error *err)
{
        return caller_of(m, userdata, false, who, err);
}

static bool may_see(const struct caller *who, const struct sandbox *sb)
{
        return who->uid == 0 || who->uid == sb->uid;
}

static int no_such(sd_bus_error *err, const char *id)
{
        return sd_bus_error_setf(err, SBX_ERR_NO_SANDBOX, "no sandbox '%.32s' of yours", id);
}

static struct daemon *daemon_of(void *userdata)
{
        /* Peer to peer the slot's userdata is the client; on the system bus, the daemon. */
        struct client *c = userdata;
        return c->d;
}

/* ---- Run ---------------------------------------------------------------------------- */

static int bad_request(sd_bus_error *err, int r, const struct sbx_error *e)
{
        char msg[1024];

        if (r == -ENOMEM)
                return sd_bus_error_set_errno(err, r);
        sbx_error_format(e, msg, sizeof(msg));
        return sd_bus_error_set(err, SD_BUS_ERROR_INVALID_ARGS, msg);
}

static int read_strings(sd_bus_message *m, struct sbx_request *rq, struct sbx_error *e,
                        int (*add)(struct sbx_request *, const char *, struct sbx_error *))
{
        const char *s;
        int r;

        if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "expected an array of strings");
        while ((r = sd_bus_message_read(m, "s", &s)) > 0)
                if ((r = add(rq, s, e)) < 0)
                        return r;
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "cannot read an array of strings");
        return sd_bus_message_exit_container(m);
}

static int read_env(sd_bus_message *m, struct sbx_request *rq, struct sbx_error *e)
{
        const char *k, *v;
        int r;

        if ((r = sd_bus_message_enter_container(m, 'a', "{ss}")) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "env: expected a{ss}");
        while ((r = sd_bus_message_read(m, "{ss}", &k, &v)) > 0)
                if ((r = sbx_request_env(rq, k, v, e)) < 0)
                        return r;
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "env: cannot read a{ss}");
        return sd_bus_message_exit_container(m);
}

static int read_option(sd_bus_message *m, struct sbx_request *rq, const char *key, struct sbx_error *e)
{
        const struct sbx_option *o = sbx_option_by_bus(key);
        bool is_environ = strcmp(key, "environ") == 0;
        char type;
        const char *contents, *s;
        uint64_t u;
        int r;

        if (sd_bus_message_peek_type(m, &type, &contents) < 0 || type != 'v')
                return sbx_error_set(e, SBX_STAGE_REQUEST, EINVAL, "", "", "options: '%.64s' is not a variant", key);
        if (strcmp(contents, "s") == 0) {
                if ((r = sd_bus_message_read(m, "v", "s", &s)) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: cannot read '%.64s'", key);
                return sbx_request_option_str(rq, key, s, e);
        }
        if (strcmp(contents, "t") == 0) {
                if ((r = sd_bus_message_read(m, "v", "t", &u)) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: cannot read '%.64s'", key);
                return sbx_request_option_u64(rq, key, u, e);
        }
        /* An array: the caller's environ, or a row that repeats (the table says which). */
        if (strcmp(contents, "as") == 0 && (is_environ || (o && sbx_option_repeats(o)))) {
                if ((r = sd_bus_message_enter_container(m, 'v', "as")) < 0 ||
                    (r = sd_bus_message_enter_container(m, 'a', "s")) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: cannot read '%.64s'", key);
                while ((r = sd_bus_message_read(m, "s", &s)) > 0)
                        if ((r = is_environ ? sbx_request_environ(rq, s, e) : sbx_request_option_str(rq, key, s, e)) < 0)
                                return r;
                if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0 || (r = sd_bus_message_exit_container(m)) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, r < 0 ? -r : EINVAL, "", "", "options: cannot read '%.64s'", key);
                return 0;
        }
        return sbx_request_option_type_error(key, contents, e);
}

int api_read_options(sd_bus_message *m, struct sbx_request *rq, struct sbx_error *e)
{
        const char *key;
        int r;

        if ((r = sd_bus_message_enter_container(m, 'a', "{sv}")) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: expected a{sv}");
        while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
                if ((r = sd_bus_message_read(m, "s", &key)) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: cannot read a key");
                if ((r = read_option(m, rq, key, e)) < 0)
                        return r;
                if ((r = sd_bus_message_exit_container(m)) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: malformed entry");
        }
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: cannot read a{sv}");
        if ((r = sd_bus_message_exit_container(m)) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "options: malformed a{sv}");
        return 0;
}

/* An fd the jail gets as stdin, stdout or stderr: open, and not a path-only handle. */
static int check_stdio(int fd, const char *name, struct sbx_error *e)
{
        int fl = fcntl(fd, F_GETFL);

        if (fl < 0 || (fl & O_PATH))
                return sbx_error_set(e, SBX_STAGE_REQUEST, EBADF, "", "", "%s: not an open file descriptor", name);
        return 0;
}

static int read_request(sd_bus_message *m, struct sbx_request *rq, int fds[4], struct sbx_error *e)
{
        static const char *const names[] = { "workspace", "stdin", "stdout", "stderr" };
        const char *profile;
        struct stat st;
        int r;

        if ((r = sd_bus_message_read(m, "s", &profile)) < 0)
                return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "profile: expected a string");
        if ((r = sbx_request_profile(rq, profile, e)) < 0 || (r = read_strings(m, rq, e, sbx_request_arg)) < 0 ||
            (r = read_env(m, rq, e)) < 0)
                return r;
        for (int i = 0; i < 4; i++)
                if ((r = sd_bus_message_read(m, "h", &fds[i])) < 0)
                        return sbx_error_set(e, SBX_STAGE_REQUEST, -r, "", "", "%s: expected a file descriptor", names[i]);
        if (fstat(fds[0], &st) < 0 || !S_ISDIR(st.st_mode))
                return sbx_error_set(e, SBX_STAGE_REQUEST, ENOTDIR, "", "", "workspace: the fd is not a directory");
        for (int i = 1; i < 4; i++)
                if ((r = check_stdio(fds[i], names[i], e)) < 0)
                        return r;
        if ((r = api_read_options(m, rq, e)) < 0)
                return r;
        return sbx_request_finish(rq, e);
}

static void audit_refusal(struct daemon *d, const struct caller *who, const struct sbx_request *rq, const char *reason)
{
        struct sbx_audit a = {
                .mode = "daemon",
                .profile = rq->profile[0] ? rq->profile : NULL,
                .uid = who->uid,
                .gid = who->gid,
                .pid = who->pid,
                .argv = rq->cmd.n ? rq->cmd.v : NULL,
                .tool_use_id = rq->ask.plan.tool_use_id,
                .session_id = rq->ask.plan.session_id,
                .reason = reason,
        };

        (void)sbx_audit_emit(SBX_AUDIT_DENIED, &a, &d->audit);
}

/* The stream sandboxd's audit records go to besides the journal: the --audit-file or
 * --audit-fd fd, else stderr (logfmt lines), where they go whenever the journal does
 * not take them: none on this host, or one that died and left its socket file. */
static int audit_stream(const struct daemon *d)
{
        if (d->audit.fd >= 0)
                return d->audit.fd;
        return d->audit.fallback ? fileno(d->audit.fallback) : -1;
}

/* The jail's stdin, stdout and stderr (@stdio) must not be that stream, in any form
 * (lib/auditfile.h: the same open file, the file or FIFO opened again by any name, the
 * same terminal): its command would write records of its own choosing there, or half a
 * line that swallows the next real one, or read records away.  An agent gets such an
 * fd by inheriting sandboxd's stderr (a container's entrypoint that shares it). */
static int stdio_not_audit(struct daemon *d, const struct caller *who, const struct sbx_request *rq, const int stdio[3],
                           sd_bus_error *err)
{
        static const char *const names[] = { "stdin", "stdout", "stderr" };
        int sink = audit_stream(d), r;
        char why[512];

        if (sink < 0 || (r = sbx_audit_shared(sink, stdio, 3)) == 3)
                return 0;
        if (r < 0) {
                snprintf(why, sizeof(why), "cannot compare the jail's stdio with the audit stream: %s", strerror(-r));
                audit_refusal(d, who, rq, why);
                return sd_bus_error_set(err, SBX_ERR_FAILED, why);
        }
        snprintf(why, sizeof(why),
                 "%s is sandboxd's audit stream (the same %s): the jailed command could forge or cut audit records there; "
                 "give the command a %s of its own (a file or pipe of the caller's, e.g. 2>FILE), and run sandboxd with "
                 "--audit-file in a directory only root can read (sandboxd(8) AUDIT)",
                 names[r], d->audit.fd >= 0 ? "file, pipe, socket or terminal" : "stderr, where its records go when the journal does not take them",
                 names[r]);
        audit_refusal(d, who, rq, why);
        return sd_bus_error_set(err, SD_BUS_ERROR_INVALID_ARGS, why);
}

static char **strv_copy(const struct sbx_strv *v)
{
        char **out = calloc(v->n + 1, sizeof(char *));

        for (size_t i = 0; out && i < v->n; i++)
                if (!(out[i] = strdup(v->v[i]))) {
                        for (size_t j = 0; j < i; j++)
                                free(out[j]);
                        free(out);
                        return NULL;
                }
        return out;
}

/* *@to = a copy of @s, or NULL when @s is; false when out of memory. */
static bool strdup_or_null(char **to, const char *s)
{
        *to = s ? strdup(s) : NULL;
        return !s || *to;
}

/* The site policy's verdict on who may run what, how many: before any process starts. */
static int admit(struct daemon *d, const struct caller *who, const struct sbx_request *rq, struct sbx_site_grant *g,
                 sd_bus_error *err)
{
        const struct sbx_site_policy *sp = &d->config->policy;
        char why[512];

        if (who->in_jail) {
                audit_refusal(d, who, rq, "the caller runs inside an sbx jail");
                return sd_bus_error_set(err, SBX_ERR_DENIED, "sandboxd does not serve callers inside a jail");
        }
        if (!sbx_site_admit(sp, who->uid, who->gid, who->groups, who->n_groups, rq->profile, g, why, sizeof(why))) {
                audit_refusal(d, who, rq, why);
                return sd_bus_error_set(err, SBX_ERR_DENIED, why);
        }
        if (d->sandboxes.n_live >= sp->max_sandboxes) {
                snprintf(why, sizeof(why), "sandboxd runs %zu sandboxes, the site policy's maximum (limits.max_sandboxes)", d->sandboxes.n_live);
                audit_refusal(d, who, rq, why);
                return sd_bus_error_set(err, SBX_ERR_LIMIT, why);
        }
        if (sandboxes_of(&d->sandboxes, who->uid) >= g->max_per_user) {
                snprintf(why, sizeof(why), "uid %u runs %llu sandboxes, its maximum under %s", (unsigned)who->uid,
                         (unsigned long long)g->max_per_user, g->rule[0] ? g->rule : "the site policy");
                audit_refusal(d, who, rq, why);
                return sd_bus_error_set(err, SBX_ERR_LIMIT, why);
        }
        return 0;
}

static int method_run(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct daemon *d = daemon_of(userdata);
        struct sbx_request rq;
        struct sbx_error e = { 0 };
        struct sbx_site_grant g = { 0 };
        struct caller who;
        struct client *c;
        struct sandbox *sb;
        int fds[4] = { -1, -1, -1, -1 };
        int r;

        if ((r = caller_of(m, userdata, true, &who, err)) < 0)
                return r;
        if (d->stopping)
                return sd_bus_error_set(err, SBX_ERR_FAILED, "sandboxd is stopping");
        sbx_request_init(&rq);
        r = read_request(m, &rq, fds, &e);
        if (r < 0) {
                r = bad_request(err, r, &e);
                goto out;
        }
        if ((r = stdio_not_audit(d, &who, &rq, fds + 1, err)) < 0 || (r = admit(d, &who, &rq, &g, err)) < 0)
                goto out;
        /* On the system bus, a record for this sender from now on (found by name). */
        if (!(c = client_for(m, userdata, who.uid))) {
                r = sd_bus_error_set_errno(err, -ENOMEM);
                goto out;
        }
        if (c->gone) { /* closed meanwhile (intake.c): no sandbox would have an owner */
                r = sd_bus_error_set(err, SBX_ERR_FAILED, "the connection is closing");
                goto out;
        }
        sb = sandbox_new(&d->sandboxes, c);
        if (sb)
                snprintf(sb->path, sizeof(sb->path), "%s/%s", SBX_BUS_SANDBOX_PREFIX, sb->id);
        if (!sb || !(sb->profile = strdup(rq.profile)) || !(sb->argv = strv_copy(&rq.cmd)) ||
            !strdup_or_null(&sb->tool_use_id, rq.ask.plan.tool_use_id) ||
            !strdup_or_null(&sb->session_id, rq.ask.plan.session_id)) {
                if (sb)
                        sandbox_free(sb);
                r = sd_bus_error_set_errno(err, -ENOMEM);
                goto out;
        }
        sb->uid = who.uid;
        sb->gid = who.gid;
        sb->caller_pid = who.pid;
        struct launch l = {
                .rq = &rq, .config = d->config, .grant = &g, .uid = who.uid, .gid = who.gid, .groups = who.groups,
                .n_groups = who.n_groups, .workspace_fd = fds[0], .stdio = { fds[1], fds[2], fds[3] },
                .hide = d->socket_paths, .n_hide = d->n_socket_paths, .umask = who.umask, .nofile = d->jail_nofile,
                .id = sb->id, .audit_fd = d->audit.fd,
        };
        if (launch_start(sb, d->event, &l, &e) < 0) {
                char msg[1024];

                sandbox_free(sb);
                sbx_error_format(&e, msg, sizeof(msg));
                r = sd_bus_error_set(err, SBX_ERR_FAILED, msg);
                goto out;
        }
        /* Answered when the launcher has decided (api_reply_run). */
        sb->run_call = sd_bus_message_ref(m);
        r = 1;
out:
        sbx_request_done(&rq);
        return r;
}

void api_reply_run(struct sandbox *sb)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = TAKE_PTR(sb->run_call);

        if (!m)
                return;
        if (sb->refused)
                (void)sd_bus_reply_method_errorf(m, sb->failed ? SBX_ERR_FAILED : SBX_ERR_DENIED, "%s", sb->reason);
        else
                (void)sd_bus_reply_method_return(m, SBX_BUS_RUN_OUT, sb->id, sb->path);
}

/* ---- Wait, Kill, List, Reload --------------------------------------------------------- */

/* How a sandbox ended, and what its jail had: the applied and weakened lists of
 * --json come from the launcher that built it, never made up here. */
static int append_summary(sd_bus_message *reply, const struct sandbox *sb)
{
        char error[1024] = "";

        if (sb->error.errnum)
                sbx_error_format(&sb->error, error, sizeof(error));
        return sbx_bus_summary_write(reply, &sb->result, error);
}

static int reply_summary(sd_bus_message *call, const struct sandbox *sb)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        int r;

        if ((r = sd_bus_message_new_method_return(call, &reply)) >= 0 && (r = append_summary(reply, sb)) >= 0)
                r = sd_bus_send(NULL, reply, NULL);
        return r;
}

void api_reply_waiters(struct sandbox *sb)
{
        for (size_t i = 0; i < sb->n_waiters; i++) {
                (void)reply_summary(sb->waiters[i], sb);
                sd_bus_message_unref(sb->waiters[i]);
        }
        sb->n_waiters = 0;
}

void api_release(struct sandbox *sb)
{
        sb->run_call = sd_bus_message_unref(sb->run_call);
        for (size_t i = 0; i < sb->n_waiters; i++)
                sd_bus_message_unref(sb->waiters[i]);
        sb->n_waiters = 0;
}

void api_emit_exited(struct sandbox *sb)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *sig = NULL;
        struct client *c = sb->owner;

        /* To the owner only: other users may not learn what it ran or how it ended. */
        if (!c || sd_bus_message_new_signal(c->bus, &sig, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_SIGNAL_EXITED) < 0)
                return;
        if ((!c->name || sd_bus_message_set_destination(sig, c->name) >= 0) && sd_bus_message_append(sig, "so", sb->id, sb->path) >= 0 &&
            append_summary(sig, sb) >= 0)
                (void)sd_bus_send(c->bus, sig, NULL);
}

static int lookup(sd_bus_message *m, void *userdata, const char *id, struct caller *who, struct sandbox **ret,
                  sd_bus_error *err)
{
        int r;

        if ((r = get_caller(m, userdata, who, err)) < 0)
                return r;
        *ret = sandbox_find(&daemon_of(userdata)->sandboxes, id);
        if (!*ret || !may_see(who, *ret))
                return no_such(err, id);
        return 0;
}

static int wait_for(sd_bus_message *m, struct sandbox *sb, sd_bus_error *err)
{
        if (sb->state == SB_EXITED)
                return reply_summary(m, sb);
        if (sb->n_waiters >= ELEMENTSOF(sb->waiters))
                return sd_bus_error_set(err, SBX_ERR_LIMIT, "too many Wait calls on this sandbox already");
        sb->waiters[sb->n_waiters++] = sd_bus_message_ref(m);
        return 1;
}

static int kill_it(struct sandbox *sb, int sig, sd_bus_error *err)
{
        if (sig <= 0 || sig >= NSIG)
                return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "signal %d is not a signal number (1-%d)", sig, NSIG - 1);
        if (sb->state == SB_EXITED)
                return sd_bus_error_setf(err, SBX_ERR_NO_SANDBOX, "sandbox '%s' has exited", sb->id);
        sandbox_kill(sb, sig);
        return 0;
}

static int method_wait(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct caller who;
        struct sandbox *sb;
        const char *id;
        int r;

        if ((r = sd_bus_message_read(m, "s", &id)) < 0)
                return r;
        if ((r = lookup(m, userdata, id, &who, &sb, err)) < 0)
                return r;
        return wait_for(m, sb, err);
}

static int method_kill(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct caller who;
        struct sandbox *sb;
        const char *id;
        int sig, r;

        if ((r = sd_bus_message_read(m, "si", &id, &sig)) < 0)
                return r;
        if ((r = lookup(m, userdata, id, &who, &sb, err)) < 0)
                return r;
        if ((r = kill_it(sb, sig, err)) < 0)
                return r;
        return sd_bus_reply_method_return(m, NULL);
}

static int method_list(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct daemon *d = daemon_of(userdata);
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        struct caller who;
        int r;

        if ((r = get_caller(m, userdata, &who, err)) < 0)
                return r;
        if ((r = sd_bus_message_new_method_return(m, &reply)) < 0)
                return r;
        r = sd_bus_message_open_container(reply, 'a', "(sosust)");
        for (struct sandbox *sb = d->sandboxes.head; r >= 0 && sb; sb = sb->next)
                if (may_see(&who, sb))
                        r = sd_bus_message_append(reply, "(sosust)", sb->id, sb->path, sb->profile, (uint32_t)sb->uid,
                                                  sandbox_state_name(sb->state), sb->start_usec);
        if (r >= 0 && (r = sd_bus_message_close_container(reply)) >= 0)
                r = sd_bus_send(NULL, reply, NULL);
        return r;
}

static int method_reload(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        struct caller who;
        char why[1024];
        int r;

        if ((r = get_caller(m, userdata, &who, err)) < 0)
                return r;
        if (who.uid != 0)
                return sd_bus_error_set(err, SD_BUS_ERROR_ACCESS_DENIED, "only root may reload sandboxd");
        if (daemon_of(userdata)->hooks->reload(daemon_of(userdata), why, sizeof(why)) < 0)
                return sd_bus_error_setf(err, SBX_ERR_FAILED, "reload failed, the previous configuration stays: %s", why);
        return sd_bus_reply_method_return(m, NULL);
}

/* ---- per-sandbox objects ------------------------------------------------------------ */

static int find_sandbox(sd_bus *bus, const char *path, const char *interface, void *userdata, void **found,
                        sd_bus_error *err)
{
        struct daemon *d = daemon_of(userdata);
        sd_bus_message *m = sd_bus_get_current_message(bus);
        _cleanup_free_ char *id = NULL;
        struct sandbox *sb;
        struct caller who;

        (void)interface;
        if (sd_bus_path_decode(path, SBX_BUS_SANDBOX_PREFIX, &id) <= 0 || !m)
                return 0;
        sb = sandbox_find(&d->sandboxes, id);
        if (!sb || get_caller(m, userdata, &who, err) < 0 || !may_see(&who, sb)) {
                sd_bus_error_free(err);
                return 0;
        }
        *found = sb;
        return 1;
}

static int enumerate(sd_bus *bus, const char *path, void *userdata, char ***nodes, sd_bus_error *err)
{
        struct daemon *d = daemon_of(userdata);
        sd_bus_message *m = sd_bus_get_current_message(bus);
        struct caller who;
        size_t n = 0;
        char **v = calloc(d->sandboxes.n_records + 1, sizeof(char *));

        (void)path;
        if (!v)
                return -ENOMEM;
        if (m && get_caller(m, userdata, &who, err) >= 0)
                for (struct sandbox *sb = d->sandboxes.head; sb; sb = sb->next)
                        if (may_see(&who, sb) && (v[n] = strdup(sb->path)))
                                n++;
        sd_bus_error_free(err);
        *nodes = v;
        return 0;
}

static int sb_wait(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        return wait_for(m, userdata, err);
}

static int sb_kill(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        int sig, r;

        if ((r = sd_bus_message_read(m, "i", &sig)) < 0)
                return r;
        if ((r = kill_it(userdata, sig, err)) < 0)
                return r;
        return sd_bus_reply_method_return(m, NULL);
}

static int prop_str(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                    void *userdata, sd_bus_error *err)
{
        struct sandbox *sb = userdata;
        const char *v = strcmp(property, "Id") == 0 ? sb->id : strcmp(property, "Profile") == 0 ? sb->profile
                       : strcmp(property, "State") == 0 ? sandbox_state_name(sb->state) : sb->workspace;

        (void)bus, (void)path, (void)interface, (void)err;
        return sd_bus_message_append(reply, "s", v ? v : "");
}

static int prop_argv(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                     void *userdata, sd_bus_error *err)
{
        struct sandbox *sb = userdata;

        (void)bus, (void)path, (void)interface, (void)property, (void)err;
        return sd_bus_message_append_strv(reply, sb->argv);
}

static int prop_exit(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                     void *userdata, sd_bus_error *err)
{
        struct sandbox *sb = userdata;

        (void)bus, (void)path, (void)interface, (void)property, (void)err;
        return sd_bus_message_append(reply, "i", sb->state == SB_EXITED ? sb->result.status : -1);
}

static int prop_version(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                        void *userdata, sd_bus_error *err)
{
        (void)bus, (void)path, (void)interface, (void)property, (void)userdata, (void)err;
        return sd_bus_message_append(reply, "s", SBX_VERSION);
}

static const sd_bus_vtable manager_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Version", "s", prop_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_RUN, SBX_BUS_RUN_IN,
                                 SD_BUS_PARAM(profile) SD_BUS_PARAM(argv) SD_BUS_PARAM(env) SD_BUS_PARAM(workspace)
                                 SD_BUS_PARAM(stdin) SD_BUS_PARAM(stdout) SD_BUS_PARAM(stderr) SD_BUS_PARAM(options),
                                 SBX_BUS_RUN_OUT, SD_BUS_PARAM(id) SD_BUS_PARAM(path), method_run, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_WAIT, "s", SD_BUS_PARAM(id), SBX_BUS_SUMMARY, SBX_BUS_SUMMARY_NAMES, method_wait,
                                 SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_KILL, SBX_BUS_KILL_IN, SD_BUS_PARAM(id) SD_BUS_PARAM(signal), "", , method_kill,
                                 SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_LIST, "", , "a(sosust)", SD_BUS_PARAM(sandboxes), method_list, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD(SBX_BUS_METHOD_RELOAD, "", "", method_reload, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_SIGNAL_WITH_NAMES(SBX_BUS_SIGNAL_EXITED, "so" SBX_BUS_SUMMARY, SD_BUS_PARAM(id) SD_BUS_PARAM(path) SBX_BUS_SUMMARY_NAMES, 0),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable sandbox_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Id", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Profile", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Uid", "u", NULL, offsetof(struct sandbox, uid), SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Gid", "u", NULL, offsetof(struct sandbox, gid), SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Argv", "as", prop_argv, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Workspace", "s", prop_str, 0, 0),
        SD_BUS_PROPERTY("StartTime", "t", NULL, offsetof(struct sandbox, start_usec), SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("State", "s", prop_str, 0, 0),
        SD_BUS_PROPERTY("ExitStatus", "i", prop_exit, 0, 0),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_WAIT, "", , SBX_BUS_SUMMARY, SBX_BUS_SUMMARY_NAMES, sb_wait,
                                 SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES(SBX_BUS_METHOD_KILL, "i", SD_BUS_PARAM(signal), "", , sb_kill, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
};

/* Peer to peer there is no bus driver, but bus clients (busctl, sd_bus_open with an
 * address) say Hello first and want a unique name back. */
static int method_hello(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
        static uint64_t serial;
        char name[32];

        (void)userdata;
        (void)err;
        snprintf(name, sizeof(name), ":1.%llu", (unsigned long long)++serial);
        return sd_bus_reply_method_return(m, "s", name);
}

static const sd_bus_vtable driver_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Hello", "", "s", method_hello, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
};

int api_attach_driver(sd_bus *bus, sd_bus_slot **slot)
{
        return sd_bus_add_object_vtable(bus, slot, "/org/freedesktop/DBus", "org.freedesktop.DBus", driver_vtable, NULL);
}

int api_attach(struct daemon *d, sd_bus *bus, sd_bus_slot **slots, size_t n, void *userdata)
{
        int r;

        (void)d;
        if (n < 4)
                return -EINVAL;
        if ((r = sd_bus_add_object_vtable(bus, &slots[0], SBX_BUS_PATH, SBX_BUS_MANAGER, manager_vtable, userdata)) < 0 ||
            (r = sd_bus_add_fallback_vtable(bus, &slots[1], SBX_BUS_SANDBOX_PREFIX, SBX_BUS_SANDBOX, sandbox_vtable,
                                            find_sandbox, userdata)) < 0 ||
            (r = sd_bus_add_node_enumerator(bus, &slots[2], SBX_BUS_SANDBOX_PREFIX, enumerate, userdata)) < 0 ||
            (r = sd_bus_add_object_manager(bus, &slots[3], SBX_BUS_PATH)) < 0)
                return r;
        return 0;
}
