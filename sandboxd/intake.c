/* SPDX-License-Identifier: MIT */
/* What a peer-to-peer connection may make sandboxd hold, enforced before sd-bus
 * reads a byte of it.
 *
 * sd-bus, given a client's socket, reads whatever comes: a message announced at up
 * to 128 MiB (BUS_MESSAGE_SIZE_MAX) is buffered whole, the fds sent with its first
 * bytes stay installed until it is complete (forever, if it never is; as many as
 * RLIMIT_NOFILE lets in), and up to 384k replies (BUS_WQUEUE_MAX) pile up for a
 * client that never reads them.  sd-bus 252 offers no per-connection bound below
 * those.  So sd-bus never sees the client's socket for reading: sandboxd reads
 * it here, one message at a time, and hands sd-bus only complete messages, over a
 * socketpair of its own (sd-bus writes its replies to the client's socket directly).
 *
 * Per connection:
 *   - the authentication exchange: at most AUTH_MAX bytes, no fds;
 *   - one message at a time, of at most the caller's max_message bytes (refused
 *     from its header, before its body is read) and INTAKE_FDS fds (a control
 *     buffer of that size: the kernel discards more, and the connection is closed);
 *   - the next message only once sd-bus has read the last one and written its reply
 *     out, and while the caller's uid has fewer than REPLIES_PER_UID connections
 *     whose replies are not written out: a client that does not read gets no
 *     further request served, and holds at most that many replies in sandboxd;
 *   - a message begun must be complete within STALL_USEC, replies not written out
 *     must drain within BLOCKED_USEC; otherwise the connection is closed.
 * Per uid: its connections (server.c), the bytes of messages being read across them
 * (PENDING_MESSAGES x max_message), the unwritten replies above.  A uid no rule of
 * the site policy matches gets almost nothing: enough to ask and be told no. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "intake.h"
#include "log.h"
#include "request.h"

#define AUTH_MAX 4096                       /* the SASL lines, BEGIN included */
#define HEADER 16                           /* D-Bus's fixed header */
#define MAX_MESSAGE_ADMITTED (SBX_REQ_MAX_BYTES + (256u << 10)) /* a Run at its limits, framed */
#define MAX_MESSAGE_UNADMITTED (256u << 10) /* a Run with a large environment, to be refused */
#define PENDING_MESSAGES 2                  /* per uid: messages being read at once, in max_message */
#define REPLIES_PER_UID 2                   /* per uid: connections with replies not written out */
#define STALL_USEC (10ull * 1000000)
#define BLOCKED_USEC (30ull * 1000000)
#define SWEEP_USEC (1ull * 1000000)
#define KEEP_BUFFER (64u << 10)             /* a buffer this small stays for the next message */
#define ROUNDS 16                           /* reads per wakeup, then the others' turn */
#define SNDBUF (256 << 10)                  /* the client's socket: what the kernel holds of our replies */

/* What a step did. */
enum { AGAIN = 0, PROGRESS = 1, BLOCKED = 2 /* on sd-bus or on the uid's budget, not the socket */ };

static uint64_t now_usec(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* ---- budgets ------------------------------------------------------------------------ */

void intake_budget(const struct daemon *d, const struct peer_creds *pc, struct intake_budget *b)
{
        uint64_t cap = pc->valid && !pc->too_many_groups
                               ? sbx_site_caller_cap(&d->config->policy, pc->uid, pc->gid, pc->groups, pc->n_groups)
                               : 0;

        b->admitted = cap > 0;
        /* One connection per sandbox (sbx-run keeps its own), and a few to look. */
        b->conns = b->admitted ? (size_t)(cap + 4 < MAX_CONNS_PER_UID ? cap + 4 : MAX_CONNS_PER_UID) : CONNS_UNADMITTED;
        b->max_message = b->admitted ? MAX_MESSAGE_ADMITTED : MAX_MESSAGE_UNADMITTED;
}

struct usage {
        size_t conns, pending, unwritten;
};

static bool unwritten(const struct client *c)
{
        uint64_t n = 0;

        return c->bus && sd_bus_get_n_queued_write(c->bus, &n) >= 0 && n > 0;
}

/* What @uid's connections hold now. */
static void usage_of(const struct daemon *d, uid_t uid, struct usage *u)
{
        *u = (struct usage){ 0 };
        for (const struct client *c = d->clients; c; c = c->next) {
                if (c->bus_wide || c->name || c->uid != uid)
                        continue;
                u->conns++;
                u->pending += c->in.have;
                u->unwritten += unwritten(c);
        }
}

size_t intake_conns_of(const struct daemon *d, uid_t uid)
{
        struct usage u;

        usage_of(d, uid, &u);
        return u.conns;
}

size_t intake_unadmitted(const struct daemon *d)
{
        size_t n = 0;

        for (const struct client *c = d->clients; c; c = c->next)
                n += !c->name && !c->bus_wide && !c->in.budget.admitted;
        return n;
}

/* ---- reading ------------------------------------------------------------------------ */

static void drop_fds(struct intake *in)
{
        for (size_t i = 0; i < in->n_fds; i++)
                closep(&in->fds[i]);
        in->n_fds = 0;
}

static void reset(struct intake *in)
{
        drop_fds(in);
        in->have = in->need = in->sent = 0;
        in->complete = false;
        in->since = 0;
        if (in->size > KEEP_BUFFER) {
                free(in->buf);
                in->buf = NULL;
                in->size = 0;
        }
}

static int grow(struct intake *in, size_t size)
{
        uint8_t *b;

        if (in->size >= size)
                return 0;
        if (!(b = realloc(in->buf, size)))
                return -ENOMEM;
        in->buf = b;
        in->size = size;
        return 0;
}

/* One recvmsg of at most @want bytes at the end of the buffer, with room for the fds
 * this message may still bring.  >0: bytes; 0: nothing now; -errno: close.  More fds
 * than that room are discarded by the kernel (MSG_CTRUNC), and close the connection. */
static ssize_t receive(struct client *c, size_t want, const char **why)
{
        struct intake *in = &c->in;
        size_t room = INTAKE_FDS - in->n_fds;
        union {
                struct cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int) * INTAKE_FDS)];
        } control;
        struct iovec iov = { .iov_base = in->buf + in->have, .iov_len = want };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = room ? &control : NULL,
                             .msg_controllen = room ? CMSG_SPACE(sizeof(int) * room) : 0 };
        ssize_t n = recvmsg(c->in.sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? 0 : -errno;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
                size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                int fd;

                if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
                        continue;
                for (size_t i = 0; i < k; i++) {
                        memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
                        if (in->n_fds < INTAKE_FDS)
                                in->fds[in->n_fds++] = fd;
                        else
                                close(fd);
                }
        }
        if (mh.msg_flags & MSG_CTRUNC) {
                *why = "it sent more file descriptors with a message than any call takes";
                return -EBADMSG;
        }
        if (n == 0)
                return -ECONNRESET;
        in->have += (size_t)n;
        return n;
}

static int feed(struct client *c, const void *data, size_t len)
{
        ssize_t n = send(c->in.feed, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);

        return n == (ssize_t)len ? 0 : -EIO;
}

/* The SASL exchange, line by line as it comes (a client may wait for each answer),
 * up to BEGIN and not a byte further (peeked first: where BEGIN's line ends, the
 * first message starts, and is read as a message).  At most AUTH_MAX bytes. */
static int read_auth(struct client *c, const char **why)
{
        struct intake *in = &c->in;
        size_t take, cut = 0, end = 0;
        ssize_t n;
        int r;

        if ((r = grow(in, AUTH_MAX)) < 0)
                return r;
        if (in->auth_bytes >= AUTH_MAX) {
                *why = "its authentication exchange is too long";
                return -EMSGSIZE;
        }
        n = recv(in->sock, in->buf + in->have, AUTH_MAX - in->auth_bytes, MSG_PEEK | MSG_DONTWAIT);
        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? AGAIN : -errno;
        if (n == 0)
                return -ECONNRESET;
        /* (in->buf holds at most the start of one line: complete ones went on.) */
        for (uint8_t *e; !end && (e = memmem(in->buf + cut, in->have + (size_t)n - cut, "\r\n", 2));
             cut = (size_t)(e - in->buf) + 2)
                if ((size_t)(e - in->buf) - cut == 5 && memcmp(in->buf + cut, "BEGIN", 5) == 0)
                        end = (size_t)(e - in->buf) + 2;
        take = end ? end - in->have : (size_t)n;
        if (!in->since)
                in->since = now_usec();
        if ((n = receive(c, take, why)) <= 0)
                return n == 0 ? AGAIN : (int)n;
        in->auth_bytes += (size_t)n;
        if (in->n_fds) {
                *why = "it sent file descriptors while authenticating";
                return -EBADMSG;
        }
        /* Complete lines go on at once: sd-bus answers them. */
        for (cut = in->have; cut >= 2 && memcmp(in->buf + cut - 2, "\r\n", 2) != 0; cut--)
                ;
        if (cut >= 2) {
                if ((r = feed(c, in->buf, cut)) < 0)
                        return r;
                memmove(in->buf, in->buf + cut, in->have - cut);
                in->have -= cut;
        }
        if (end && in->have == 0) {
                in->authed = true;
                in->since = 0;
        }
        return PROGRESS;
}

static uint32_t u32_at(const uint8_t *p, bool little)
{
        return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                      : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

/* The fixed header says how long the whole message is: checked against the budget
 * before anything more is read. */
static int sized(struct intake *in, const char **why)
{
        const uint8_t *h = in->buf;
        uint64_t fields, body, total;

        if ((h[0] != 'l' && h[0] != 'B') || h[3] != 1) {
                *why = "it sent something that is not a D-Bus message";
                return -EBADMSG;
        }
        fields = u32_at(h + 12, h[0] == 'l');
        body = u32_at(h + 4, h[0] == 'l');
        total = HEADER + ((fields + 7) & ~7ull) + body;
        if (total > in->budget.max_message) {
                *why = "it announced a message larger than its budget";
                return -EMSGSIZE;
        }
        in->need = (size_t)total;
        return grow(in, in->need);
}

/* One read towards the current message, never past its end (as sd-bus reads: the
 * fds that come belong to it).  The uid's messages being read, together, stay
 * within PENDING_MESSAGES x max_message: past that, this one waits. */
static int read_message(struct client *c, const char **why)
{
        struct intake *in = &c->in;
        size_t want, budget = PENDING_MESSAGES * in->budget.max_message;
        struct usage u;
        ssize_t n;
        int r;

        if ((r = grow(in, HEADER)) < 0)
                return r;
        want = in->have < HEADER ? HEADER - in->have : in->need - in->have;
        usage_of(c->d, c->uid, &u);
        if (u.pending >= budget)
                return BLOCKED;
        if (want > budget - u.pending)
                want = budget - u.pending;
        if ((n = receive(c, want, why)) <= 0)
                return n == 0 ? AGAIN : (int)n;
        if (!in->since)
                in->since = now_usec();
        if (in->have == HEADER && !in->need && (r = sized(in, why)) < 0)
                return r;
        if (in->need && in->have == in->need) {
                in->complete = true;
                in->since = 0;
        }
        return PROGRESS;
}

/* ---- handing over --------------------------------------------------------------------- */

static size_t outq(int fd)
{
        int n = 0;

        return ioctl(fd, SIOCOUTQ, &n) == 0 && n > 0 ? (size_t)n : 0;
}

/* The complete message to sd-bus, with its fds, once sd-bus has taken the last one
 * and written its replies out, and while the uid has few replies not written out. */
static int forward(struct client *c)
{
        struct intake *in = &c->in;
        union {
                struct cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int) * INTAKE_FDS)];
        } control;
        struct iovec iov = { .iov_base = in->buf + in->sent, .iov_len = in->need - in->sent };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
        struct usage u;
        ssize_t n;

        if (in->sent == 0) {
                if (outq(in->feed) > 0 || unwritten(c))
                        return BLOCKED;
                usage_of(c->d, c->uid, &u);
                if (u.unwritten >= REPLIES_PER_UID)
                        return BLOCKED;
                if (in->n_fds) {
                        struct cmsghdr *cm;

                        memset(&control, 0, sizeof(control));
                        mh.msg_control = &control;
                        mh.msg_controllen = CMSG_SPACE(sizeof(int) * in->n_fds);
                        cm = CMSG_FIRSTHDR(&mh);
                        cm->cmsg_level = SOL_SOCKET;
                        cm->cmsg_type = SCM_RIGHTS;
                        cm->cmsg_len = CMSG_LEN(sizeof(int) * in->n_fds);
                        memcpy(CMSG_DATA(cm), in->fds, sizeof(int) * in->n_fds);
                }
        }
        n = sendmsg(in->feed, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? BLOCKED : -errno;
        if (in->sent == 0)
                drop_fds(in); /* sd-bus has its own now */
        in->sent += (size_t)n;
        if (in->sent < in->need)
                return BLOCKED;
        reset(in);
        return PROGRESS;
}

/* ---- the loop ------------------------------------------------------------------------- */

static void drop(struct client *c, const char *why)
{
        log_info("closing a connection of uid %u (pid %d): %s", (unsigned)c->uid, (int)c->creds.pid, why);
        c->d->hooks->client_gone(c);
}

/* Waiting on sd-bus or on the budget, not on the socket: the socket is not polled for
 * data (it would wake us for what we will not read yet), only for its hang-up, which
 * epoll reports whatever was asked. */
static void set_waiting(struct client *c, bool waiting)
{
        if (c->in.waiting == waiting)
                return;
        c->in.waiting = waiting;
        c->d->n_waiting += waiting ? 1 : -1;
        (void)sd_event_source_set_io_events(c->in.src, waiting ? 0 : EPOLLIN);
}

/* Reads and hands over what it may.  false: the connection was closed. */
static bool pump(struct client *c)
{
        struct intake *in = &c->in;
        const char *why = NULL;
        int r = PROGRESS;

        for (int round = 0; r == PROGRESS && round < ROUNDS; round++) {
                if (in->complete)
                        r = forward(c);
                else if (!in->authed)
                        r = read_auth(c, &why);
                else
                        r = read_message(c, &why);
        }
        if (r < 0) {
                if (!why && r == -ECONNRESET)
                        c->d->hooks->client_gone(c); /* it closed: nothing to say */
                else
                        drop(c, why ? why : strerror(-r));
                return false;
        }
        set_waiting(c, r == BLOCKED || in->complete);
        return true;
}

static int on_readable(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct client *c = userdata;

        (void)s;
        (void)fd;
        if (c->gone)
                return 0;
        if (c->in.waiting && (revents & (EPOLLHUP | EPOLLERR)))
                c->d->hooks->client_gone(c); /* it went away while it waited */
        else
                (void)pump(c);
        return 0;
}

/* After every loop iteration in which anything happened: sd-bus may have taken a
 * message or written replies out, and a waiting connection may go on. */
static int on_post(sd_event_source *s, void *userdata)
{
        struct daemon *d = userdata;
        struct client *next;

        (void)s;
        for (struct client *c = d->clients; d->n_waiting && c; c = next) {
                next = c->next;
                if (!c->gone && c->in.waiting)
                        (void)pump(c);
        }
        return 0;
}

/* Once a second: messages that do not finish, replies that are not read. */
static int on_sweep(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct daemon *d = userdata;
        uint64_t now = now_usec();
        struct client *next;

        for (struct client *c = d->clients; c; c = next) {
                next = c->next;
                if (c->gone || c->name || c->bus_wide)
                        continue;
                if (!unwritten(c))
                        c->in.blocked_since = 0;
                else if (!c->in.blocked_since)
                        c->in.blocked_since = now;
                if (c->in.since && now - c->in.since > STALL_USEC)
                        drop(c, c->in.authed ? "a message it began did not finish within 10 s"
                                             : "it did not authenticate within 10 s");
                else if (c->in.blocked_since && now - c->in.blocked_since > BLOCKED_USEC)
                        drop(c, "it did not read its replies for 30 s");
        }
        return sd_event_source_set_time(s, usec + SWEEP_USEC);
}

int intake_setup(struct daemon *d)
{
        int r;

        if ((r = sd_event_add_post(d->event, &d->intake_post, on_post, d)) < 0)
                return r;
        if ((r = sd_event_add_time_relative(d->event, &d->intake_sweep, CLOCK_MONOTONIC, SWEEP_USEC, 0, on_sweep, d)) < 0 ||
            (r = sd_event_source_set_enabled(d->intake_sweep, SD_EVENT_ON)) < 0)
                return r;
        return 0;
}

int intake_open(struct client *c, int sock, int *bus_in, int *bus_out)
{
        int sv[2], size = (int)(2 * c->in.budget.max_message);

        c->in.sock = sock;
        c->in.feed = -1;
        c->in.since = now_usec(); /* authenticated within STALL_USEC of connecting */
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
                return -errno;
        /* A whole message in one send where the kernel lets us (CAP_NET_ADMIN). */
        if (setsockopt(sv[1], SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) < 0)
                (void)setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
        c->in.feed = sv[1];
        /* sd-bus writes its replies to the client's socket itself (its own fd: one
         * epoll registration for its writes, ours for the reads). */
        if ((*bus_out = fcntl(sock, F_DUPFD_CLOEXEC, 3)) < 0) {
                int r = -errno;

                close(sv[0]);
                return r;
        }
        *bus_in = sv[0];
        return 0;
}

int intake_start(struct client *c)
{
        int size = SNDBUF;

        /* sd-bus raised the socket's send buffer to 8 MiB at start: kernel memory a
         * client that does not read would make us hold. */
        (void)setsockopt(c->in.sock, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
        return sd_event_add_io(c->d->event, &c->in.src, c->in.sock, EPOLLIN, on_readable, c);
}

void intake_stop(struct client *c)
{
        if (c->in.waiting)
                c->d->n_waiting--;
        c->in.waiting = false;
        c->in.src = sd_event_source_disable_unref(c->in.src);
}

void intake_close(struct client *c)
{
        struct intake *in = &c->in;

        intake_stop(c);
        drop_fds(in);
        free(in->buf);
        in->buf = NULL;
        in->size = in->have = 0;
        closep(&in->feed);
        closep(&in->sock);
}
