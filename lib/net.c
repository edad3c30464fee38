/* SPDX-License-Identifier: MIT */
#include "net.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"

static inline void mnl_socket_closep(struct mnl_socket **s)
{
        if (*s)
                mnl_socket_close(*s);
}

/* Loopback is ifindex 1 in every new network namespace. */
#define LOOPBACK_IFINDEX 1

int sbx_net_loopback_up(struct sbx_error *e)
{
        _cleanup_(mnl_socket_closep) struct mnl_socket *nl = NULL;
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh;
        struct ifinfomsg *ifm;
        unsigned seq = (unsigned)time(NULL);
        ssize_t n;

        nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
        if (!nl)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "socket", "", "cannot open rtnetlink");
        if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "bind", "", "cannot bind rtnetlink");

        nlh = mnl_nlmsg_put_header(buf);
        nlh->nlmsg_type = RTM_NEWLINK;
        nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
        nlh->nlmsg_seq = seq;
        ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
        ifm->ifi_family = AF_UNSPEC;
        ifm->ifi_index = LOOPBACK_IFINDEX;
        ifm->ifi_flags = IFF_UP;
        ifm->ifi_change = IFF_UP;

        if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "sendto", "lo", "cannot send link-up request");
        n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
        if (n < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "recvfrom", "lo", "no answer to link-up request");
        /* The ACK carries the kernel's verdict as an error code (0 = done). */
        if (mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), NULL, NULL) < 0)
                return sbx_error_set(e, SBX_STAGE_NET, errno, "RTM_NEWLINK", "lo", "cannot bring loopback up");
        return 0;
}
