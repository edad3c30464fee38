/* SPDX-License-Identifier: MIT */
#include "net.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cleanup.h"

static inline void mnl_socket_closep(struct mnl_socket **s)
{
        if (*s)
                mnl_socket_close(*s);
}

/* Loopback is ifindex 1 in every new network namespace. */
#define LOOPBACK_IFINDEX 1

/* Sends @nlh and waits for the kernel's ACK; -errno with @e naming @what. */
static int rtnl_do(struct nlmsghdr *nlh, const char *call, const char *what, struct sbx_error *e)
{
        _cleanup_(mnl_socket_closep) struct mnl_socket *nl = NULL;
        char buf[MNL_SOCKET_BUFFER_SIZE];
        unsigned seq = (unsigned)time(NULL);
        ssize_t n;

        nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
        if (!nl)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "socket", "", "cannot open rtnetlink");
        if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "bind", "", "cannot bind rtnetlink");
        nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
        nlh->nlmsg_seq = seq;
        if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "sendto", what, "cannot send the %s request", call);
        n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
        if (n < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "recvfrom", what, "no answer to the %s request", call);
        /* The ACK carries the kernel's verdict as an error code (0 = done). */
        if (mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), NULL, NULL) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, call, what, "the kernel refused the %s request", call);
        return 0;
}

int sbx_net_loopback_up(struct sbx_error *e)
{
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
        struct ifinfomsg *ifm;

        nlh->nlmsg_type = RTM_NEWLINK;
        ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
        ifm->ifi_family = AF_UNSPEC;
        ifm->ifi_index = LOOPBACK_IFINDEX;
        ifm->ifi_flags = IFF_UP;
        ifm->ifi_change = IFF_UP;
        return rtnl_do(nlh, "RTM_NEWLINK", "lo", e);
}

int sbx_net_route_all_local(int family, struct sbx_error *e)
{
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
        struct rtmsg *rtm;

        nlh->nlmsg_type = RTM_NEWROUTE;
        nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
        rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
        rtm->rtm_family = (unsigned char)family;
        rtm->rtm_dst_len = 0;
        rtm->rtm_table = RT_TABLE_LOCAL;
        rtm->rtm_protocol = RTPROT_STATIC;
        rtm->rtm_scope = RT_SCOPE_HOST;
        rtm->rtm_type = RTN_LOCAL;
        mnl_attr_put_u32(nlh, RTA_OIF, LOOPBACK_IFINDEX);
        return rtnl_do(nlh, "RTM_NEWROUTE", family == AF_INET ? "local 0.0.0.0/0 dev lo" : "local ::/0 dev lo", e);
}

int sbx_net_add_address(int family, const void *addr, unsigned prefix, struct sbx_error *e)
{
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
        struct ifaddrmsg *ifa;
        size_t len = family == AF_INET ? 4 : 16;

        nlh->nlmsg_type = RTM_NEWADDR;
        nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
        ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
        ifa->ifa_family = (unsigned char)family;
        ifa->ifa_prefixlen = (unsigned char)prefix;
        ifa->ifa_scope = RT_SCOPE_HOST;
        ifa->ifa_index = LOOPBACK_IFINDEX;
        mnl_attr_put(nlh, IFA_LOCAL, len, addr);
        mnl_attr_put(nlh, IFA_ADDRESS, len, addr);
        if (family == AF_INET6)
                mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_NODAD);
        return rtnl_do(nlh, "RTM_NEWADDR", "lo", e);
}
