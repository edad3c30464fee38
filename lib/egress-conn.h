/* SPDX-License-Identifier: MIT */
/* One connection a jail made (egress-conn.c), shared with its relay (egress-relay.c). */
#pragma once
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "egress-int.h"

#define MAX_CANDIDATES 8

enum conn_state { ST_SNIFF, ST_SOCKS_REQ, ST_RESOLVE, ST_CONNECT, ST_INNER, ST_RELAY };
enum conn_kind { K_TLS, K_HTTP, K_RAW, K_CONNECT, K_SOCKS, K_ABSOLUTE, K_LOCAL, K_PUBLISH };

struct dir {
        int pipe[2];
        size_t cap;     /* the pipe's size */
        size_t pending; /* bytes in the pipe */
        bool eof, shut;
        bool grown; /* one of the broker's BULK_PIPES (egress-relay.c) */
        uint64_t bytes;
};

struct eg_conn {
        struct eg_broker *b;
        struct eg_conn *prev, *next; /* the broker's open connections */
        enum sbx_egress_role role;
        enum conn_state st;
        enum conn_kind kind;
        int cfd, ufd;
        sd_event_source *csrc, *usrc, *timer;
        struct sockaddr_storage dst; /* where the jail connected */
        socklen_t dst_len;
        uint16_t lport;
        char host[SBX_NETNAME_MAX + 1]; /* the name, or an address as text */
        bool literal;
        struct sockaddr_storage lit;
        uint16_t port;
        enum sbx_net_proto proto;
        bool inner_check;
        bool raw_ok; /* a tunnel a host:port rule allows as raw TCP */
        bool replied; /* the tunnel's success reply is sent: no 403 or SOCKS reply after */
        bool one_http; /* a plain HTTP request whose Host was checked: the only one served */
        char sni[SBX_NETNAME_MAX + 3];
        struct sockaddr_storage cand[MAX_CANDIDATES];
        socklen_t cand_len[MAX_CANDIDATES];
        size_t n_cand, i_cand;
        char addr[INET6_ADDRSTRLEN];
        char rule[SBX_NETRULE_TEXT_MAX + 8];
        bool resolving, dead;
        uint64_t start_ms;
        struct dir up, down;
        size_t len, skip; /* bytes in buf; of those, the proxy handshake's */
        uint8_t buf[EG_BUF_MAX];
};

/* Closes everything of @c and frees it (or, while it resolves, marks it dead for the
 * lookup's callback to free). */
void eg_conn_free(struct eg_conn *c);
/* One audit record of @c (eg_log); @relayed: an allowed connection at its end. */
void eg_conn_record(struct eg_conn *c, const char *action, const char *code, const char *reason, const char *addr_class,
                    bool relayed);
/* The refusal in the client's own terms, recorded, then the end of the connection. */
void eg_conn_refuse(struct eg_conn *c, const char *code, const char *reason);
/* @s watched for @events; none: off. */
int eg_set_events(sd_event_source *s, uint32_t events);

/* egress-relay.c: what the broker read goes up first, then splice both ways until
 * both sides are done; a plain HTTP request as the only one on the connection. */
void eg_start_relay(struct eg_conn *c);
/* Either side of a relaying connection is ready (the client's source calls it too). */
int eg_on_relay(sd_event_source *s, int fd, uint32_t revents, void *userdata);
