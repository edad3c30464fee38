/* SPDX-License-Identifier: MIT */
/* The jail's side of the egress broker: its namespace made a dead end, and the
 * listeners the broker serves from outside. */
#include "egress.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "net.h"
#include "netrule.h"

struct listen_spec {
        enum sbx_egress_role role;
        int family, type;
        uint16_t port;
        bool loopback; /* 127.0.0.1 only, else every address */
};

static int open_listener(const struct listen_spec *l, struct sbx_error *e)
{
        _cleanup_close_ int fd = socket(l->family, l->type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        struct sockaddr_storage ss = { 0 };
        socklen_t len;
        int one = 1;

        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "socket", "", "cannot open the egress broker's listener on port %u",
                                     l->port);
        if (l->family == AF_INET6) {
                struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
                a->sin6_family = AF_INET6;
                a->sin6_port = htons(l->port);
                a->sin6_addr = l->loopback ? in6addr_loopback : in6addr_any;
                len = sizeof(*a);
                (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
        } else {
                struct sockaddr_in *a = (struct sockaddr_in *)&ss;
                a->sin_family = AF_INET;
                a->sin_port = htons(l->port);
                a->sin_addr.s_addr = htonl(l->loopback ? INADDR_LOOPBACK : INADDR_ANY);
                len = sizeof(*a);
        }
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(fd, (struct sockaddr *)&ss, len) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "bind", "", "cannot bind the egress broker's listener on port %u",
                                     l->port);
        if (l->type == SOCK_STREAM && listen(fd, 4096) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "listen", "", "cannot listen on port %u", l->port);
        return TAKE_FD(fd);
}

/* The namespace at @path (/proc/self/ns/...) for the broker's socket factory. */
static int send_ns(int sync_fd, const char *path, enum sbx_egress_role role, struct sbx_error *e)
{
        struct sbx_msg m = { .type = SBX_MSG_NET_FD, .wstatus = (int)role };
        int fd = open(path, O_RDONLY | O_CLOEXEC);

        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "open", path, "cannot hand the jail's namespace to the egress broker");
        sbx_sync_send_fd(sync_fd, &m, fd);
        close(fd);
        return 0;
}

static int send_listener(int sync_fd, const struct listen_spec *l, struct sbx_error *e)
{
        struct sbx_msg m = { .type = SBX_MSG_NET_FD, .wstatus = (int)l->role, .applied = l->port };
        int fd = open_listener(l, e);

        if (fd < 0)
                return fd;
        sbx_sync_send_fd(sync_fd, &m, fd);
        close(fd);
        return 0;
}

static bool listed(const uint16_t *ports, size_t n, uint16_t port)
{
        for (size_t i = 0; i < n; i++)
                if (ports[i] == port)
                        return true;
        return false;
}

/* A port inside the jail is one thing: the internet's (a raw rule), the host's
 * loopback (connect), or the jail's own served to the host (publish).  A publish
 * port that were a connect port would loop back on itself, one that were a raw
 * port would hand the host the broker's listener and this jail's allow list. */
static int check_local_ports(const struct sbx_plan *p, const uint16_t *raw, size_t n_raw, struct sbx_error *e)
{
        for (size_t i = 0; i < p->n_net_connect; i++)
                if (listed(raw, n_raw, p->net_connect[i])) {
                        sbx_error_set(e, SBX_STAGE_NET, EADDRINUSE, "", "",
                                      "network.localhost.connect port %u is also a port an allow rule names", p->net_connect[i]);
                        sbx_error_hint(e, "a port inside the jail is either the host's loopback or the internet's; drop one");
                        return -EADDRINUSE;
                }
        for (size_t i = 0; i < p->n_net_publish; i++)
                if (listed(raw, n_raw, p->net_publish[i]) || listed(p->net_connect, p->n_net_connect, p->net_publish[i])) {
                        sbx_error_set(e, SBX_STAGE_NET, EADDRINUSE, "", "",
                                      "network.localhost.publish port %u is also a connect port or a port an allow rule names",
                                      p->net_publish[i]);
                        sbx_error_hint(e, "a port inside the jail is the jail's own, the host's loopback or the internet's; drop one");
                        return -EADDRINUSE;
                }
        return 0;
}

int sbx_egress_setup_netns(const struct sbx_plan *p, int sync_fd, struct sbx_error *e)
{
        uint16_t ports[SBX_EGRESS_MAX_PORTS];
        size_t n_ports = sbx_netrules_ports(&p->net_rules, ports, SBX_EGRESS_MAX_PORTS);
        struct listen_spec fixed[] = {
                { SBX_EGRESS_DNS_UDP, AF_INET, SOCK_DGRAM, 53, true },
                { SBX_EGRESS_DNS_TCP, AF_INET, SOCK_STREAM, 53, true },
                { SBX_EGRESS_PROXY, AF_INET, SOCK_STREAM, SBX_EGRESS_PROXY_PORT, true },
                { SBX_EGRESS_WEB, AF_INET, SOCK_STREAM, 80, false },
                { SBX_EGRESS_TLS, AF_INET, SOCK_STREAM, 443, false },
                { SBX_EGRESS_WEB, AF_INET6, SOCK_STREAM, 80, false },
                { SBX_EGRESS_TLS, AF_INET6, SOCK_STREAM, 443, false },
        };
        bool v6 = true;
        int r;

        struct in_addr own4;
        struct in6_addr own6;

        inet_pton(AF_INET, SBX_EGRESS_OWN_V4, &own4);
        inet_pton(AF_INET6, SBX_EGRESS_OWN_V6, &own6);
        /* An address that is not loopback, so that resolvers asked for AI_ADDRCONFIG
         * (curl, Node's dns.lookup) believe there is a network to resolve for. */
        if ((r = sbx_net_loopback_up(e)) < 0 || (r = sbx_net_route_all_local(AF_INET, e)) < 0 ||
            (r = sbx_net_add_address(AF_INET, &own4, 32, e)) < 0)
                return r;
        /* A kernel without IPv6 (ipv6.disable=1) has no IPv6 to leave by either. */
        if (sbx_net_route_all_local(AF_INET6, e) < 0 || sbx_net_add_address(AF_INET6, &own6, 128, e) < 0) {
                if (e->errnum != EAFNOSUPPORT && e->errnum != EACCES && e->errnum != EOPNOTSUPP)
                        return -e->errnum;
                *e = (struct sbx_error){ 0 };
                v6 = false;
        }
        /* The namespaces first: the broker makes its factory before it serves. */
        if (p->n_net_publish && ((p->userns && (r = send_ns(sync_fd, "/proc/self/ns/user", SBX_EGRESS_USERNS, e)) < 0) ||
                                 (r = send_ns(sync_fd, "/proc/self/ns/net", SBX_EGRESS_NETNS, e)) < 0))
                return r;
        for (size_t i = 0; i < ELEMENTSOF(fixed); i++)
                if ((v6 || fixed[i].family == AF_INET) && (r = send_listener(sync_fd, &fixed[i], e)) < 0)
                        return r;
        for (size_t i = 0; i < n_ports; i++) {
                /* 80 and 443 are served already (a raw rule there is checked on them);
                 * 53 and 3128 belong to DNS and the proxy on 127.0.0.1. */
                if (ports[i] == 80 || ports[i] == 443 || ports[i] == 53 || ports[i] == SBX_EGRESS_PROXY_PORT)
                        continue;
                for (int f = 0; f < (v6 ? 2 : 1); f++) {
                        struct listen_spec l = { SBX_EGRESS_RAW, f ? AF_INET6 : AF_INET, SOCK_STREAM, ports[i], false };
                        if ((r = send_listener(sync_fd, &l, e)) < 0)
                                return r;
                }
        }
        if ((r = check_local_ports(p, ports, n_ports, e)) < 0)
                return r;
        for (size_t i = 0; i < p->n_net_connect; i++) {
                for (int f = 0; f < (v6 ? 2 : 1); f++) {
                        struct listen_spec l = { SBX_EGRESS_LOCAL, f ? AF_INET6 : AF_INET, SOCK_STREAM, p->net_connect[i], true };
                        if ((r = send_listener(sync_fd, &l, e)) < 0)
                                return r;
                }
        }
        return 0;
}
