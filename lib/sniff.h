/* SPDX-License-Identifier: MIT */
/* The egress broker's sniffers: which host a connection wants, from the first bytes
 * the jail sends (lib/egress.h).  The TLS ClientHello's server name (port 443), an
 * HTTP request head (port 80, and the proxy's CONNECT and absolute-form requests),
 * SOCKS5's greeting and request.  No Debian library reads these without a whole TLS
 * or HTTP stack, so they are written here: bounded (SBX_SNIFF_*_MAX), no allocation,
 * no recursion, every length checked against its container; the jail chose every
 * byte.  Each is called again with a longer buffer until it says OK or refuses;
 * fuzz_tls, fuzz_http and fuzz_socks run them.
 * Names come out normalised by sbx_netname_normalize() (lowercase, no trailing dot)
 * or as an address literal; anything else is BAD. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

enum sbx_sniff_result {
        SBX_SNIFF_MORE = 0,     /* a prefix of a valid message: read more and call again */
        SBX_SNIFF_OK = 1,       /* complete; the out struct is filled */
        SBX_SNIFF_BAD = -1,     /* not this protocol, or malformed: refuse */
        SBX_SNIFF_TOO_BIG = -2, /* longer than the limit below before completing */
};

#define SBX_SNIFF_TLS_MAX 16384 /* a ClientHello bigger than this is refused */
#define SBX_SNIFF_HTTP_MAX 8192 /* a request head bigger than this is refused */

struct sbx_tls_hello {
        char sni[254];       /* server_name's host_name, normalised; "" when none */
        bool has_sni;
        bool has_ech;        /* encrypted_client_hello (0xfe0d): the real name is hidden */
        bool multiple_names; /* more than one host_name (refused by the broker) */
        size_t record_len;   /* bytes of the records that held the hello */
};
/* A TLS handshake record (or several: the hello may be split) holding a ClientHello.
 * An IP literal in server_name is BAD (RFC 6066 forbids it). */
int sbx_sniff_tls(const uint8_t *buf, size_t len, struct sbx_tls_hello *out);

struct sbx_http_head {
        char method[16];
        bool connect;        /* CONNECT host:port */
        bool absolute;       /* absolute-form: http://host[:port]/path */
        char host[254];      /* the CONNECT authority, the URL's host, or else Host:
                              * normalised; an IPv6 literal without brackets */
        uint16_t port;       /* given explicitly, 0 when not */
        size_t head_len;     /* bytes up to and including the blank line */
        size_t path_off, path_len; /* absolute-form: the path and query in buf (len 0: "/") */
};
/* Request line and headers, CRLF or bare LF line ends.  BAD: a second Host, a Host
 * that is not the absolute URL's or CONNECT's host, obsolete line folding, a control
 * character, a space before a header's colon, userinfo in the URL, a scheme other
 * than http://, HTTP/1.1 without Host, a method that is not a token. */
int sbx_sniff_http(const uint8_t *buf, size_t len, struct sbx_http_head *out);
/* The head of an absolute-form request in origin form ("GET /path HTTP/1.1") with the
 * same header lines but Proxy-Connection and Proxy-Authorization.  Its length, or
 * -ENOSPC. */
ssize_t sbx_http_origin_form(const uint8_t *buf, const struct sbx_http_head *h, uint8_t *out, size_t cap);

/* SOCKS5 (RFC 1928) without authentication.  The greeting: OK when it offers method 0
 * (no authentication), @used its length. */
int sbx_sniff_socks_greeting(const uint8_t *buf, size_t len, size_t *used);
struct sbx_socks_req {
        uint8_t cmd;         /* 1 CONNECT; the broker answers the others with 7 */
        bool is_name;        /* ATYP 3 */
        char host[256];      /* the name, normalised, or the address as text */
        struct sockaddr_storage addr; /* ATYP 1 and 4: the address, port set */
        uint16_t port;
        size_t used;
};
int sbx_sniff_socks_request(const uint8_t *buf, size_t len, struct sbx_socks_req *out);
/* The 10-byte reply with @code (0 success, 2 not allowed by ruleset, 4 host
 * unreachable, 5 refused, 7 command not supported, 8 address type not supported). */
size_t sbx_socks_reply(uint8_t out[10], uint8_t code);
