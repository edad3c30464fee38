/* SPDX-License-Identifier: MIT */
/* The egress broker's protocol sniffers: from the first bytes a jail sends on a
 * connection, the host it wants (issue 13; ref/egress.md 1.6.4).
 *
 *   port 443              sbx_sniff_tls(): the TLS ClientHello's server name
 *   port 80               sbx_sniff_http(): the request head's Host
 *   127.0.0.1:3128        first byte 0x05: SOCKS5 (sbx_sniff_socks_greeting, then
 *                         sbx_sniff_socks_request); anything else: sbx_sniff_http()
 *                         for CONNECT or an absolute-form request
 *
 * The jail writes every byte: these are pure functions over (buf, len), bounded, with
 * no allocation, no recursion and no global state, that never read past @len.  Each
 * is called again with a longer buffer (the same bytes, more of them) until it
 * returns OK, BAD or TOO_BIG; a prefix of a valid message is MORE, and a byte that no
 * valid message could have there is BAD at once, so the broker does not wait for a
 * timeout to refuse garbage.  On BAD and TOO_BIG, the out struct's @why says what was
 * wrong (a static string for the audit record); its other fields are unspecified.
 *
 * Names come out normalised by sbx_netname_normalize() (netrule.h: lowercase, one
 * trailing dot dropped, letters, digits, '-', '_', labels of 1..63, no numeric top
 * label), so they compare with the rules and with the synthetic DNS table by strcmp.
 * Address literals are accepted where the protocol allows them (HTTP, SOCKS5) in
 * inet_pton's spellings only (IPv4 dotted quad; IPv6 text, bracketed in HTTP) and come
 * out in inet_ntop's; any other spelling a resolver would read as an address
 * ("0x7f.1", "2130706433", "127.1") is BAD, never a name. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

enum sbx_sniff_result {
        SBX_SNIFF_MORE = 0,     /* a prefix of a valid message: read more and call again */
        SBX_SNIFF_OK = 1,       /* complete; the out struct is filled */
        SBX_SNIFF_BAD = -1,     /* not this protocol, or malformed: refuse the connection */
        SBX_SNIFF_TOO_BIG = -2, /* exceeds the limit below before completing */
};

#define SBX_SNIFF_TLS_MAX 16384 /* a ClientHello bigger than this is refused */
#define SBX_SNIFF_HTTP_MAX 8192 /* a request head bigger than this is refused */

/* ---- TLS (RFC 8446 4.1.2, RFC 6066 3) ----
 * One or more handshake records (content type 22, version 3.x, 1..2^14 bytes each)
 * holding exactly one ClientHello: the hello may be split across records, and the
 * last record must end where the hello ends.  SBX_SNIFF_TLS_MAX counts the records'
 * bytes, headers included: TOO_BIG as soon as a record header says the records pass
 * it.  BAD: SSLv2-style hellos, any other record or handshake type, a length that
 * overflows its container at any level, a duplicate extension, a server_name list
 * with a name type other than host_name (0) or with two host names (@multiple_names
 * says so), a server name that is not a valid host name (NUL, space, '%', non-ASCII,
 * empty label, > 253 characters) or that is an IPv4 or IPv6 literal (RFC 6066 3:
 * "Literal IPv4 and IPv6 addresses are not permitted in HostName").
 * OK without a server name is has_sni false; the broker decides (ref/egress.md:
 * refused unless the rule allows it), as it does for has_ech. */
struct sbx_tls_hello {
        char sni[254];       /* the host_name in server_name, normalised lowercase, no trailing dot; "" when none */
        bool has_sni;
        bool has_ech;        /* encrypted_client_hello (0xfe0d), or draft ESNI (0xffce), present: the real name is hidden */
        bool multiple_names; /* more than one host_name entry, or two server_name extensions (BAD) */
        size_t record_len;   /* bytes of the TLS record(s) holding the hello */
        uint16_t version;    /* the hello's legacy_version (0x0303 for TLS 1.2 and 1.3) */
        const char *why;     /* BAD, TOO_BIG: what was wrong */
};
int sbx_sniff_tls(const uint8_t *buf, size_t len, struct sbx_tls_hello *out);

/* ---- HTTP/1.x request heads (RFC 9110, RFC 9112) ----
 * `METHOD SP target SP HTTP/1.d CRLF`, header lines `name: value CRLF`, then CRLF.
 * Strict, because the broker forwards the head to a server that may read it
 * differently: lines end in CRLF only (a bare LF or a lone CR is BAD); no obs-fold
 * (a line starting with SP/HTAB), no whitespace before a header's colon, no control
 * character but HTAB in a value, no empty lines before the request line; the method
 * is a token of 1..15 characters; the target is origin-form ("/..."), "*" (OPTIONS
 * only), authority-form (CONNECT only, "host:port" with the port required) or
 * absolute-form "http://authority[/path][?query]" (scheme case-insensitive; https://
 * and other schemes, userinfo "user@", a fragment '#', an empty or port-less-colon
 * authority are BAD).  More than one Host header is BAD; a Host that names another
 * host than the CONNECT or absolute-form authority, or another port (a Host without
 * a port stands for 80 in absolute-form, for any port with CONNECT, whose Host is not
 * forwarded), is BAD: the broker checks one name, and the server must see the same.
 * HTTP/1.1 origin-form without a Host is BAD; HTTP/1.0 origin-form without one is OK
 * with host "" (the broker has only the address's name then).  Hosts are names
 * (normalised as above), IPv4 dotted quads, or bracketed IPv6 without a zone; a port
 * is 1..65535 in at most 5 digits.  TOO_BIG when no blank line ends the head within
 * SBX_SNIFF_HTTP_MAX bytes. */
struct sbx_http_head {
        char method[16];
        bool connect;    /* CONNECT host:port */
        bool absolute;   /* absolute-form request-target: http://host[:port]/path */
        char host[254];  /* from the CONNECT authority, the absolute URL, or else the Host header; lowercase, no
                          * trailing dot; IPv6 literal without brackets */
        uint16_t port;   /* explicit port, 0 when none given */
        size_t head_len; /* bytes up to and including the blank line */
        size_t path_off, path_len; /* absolute-form: what follows the authority ("/x?y", "?y", or empty: path_len
                                    * 0 means "use /"), within buf, for rewriting */
        int family;      /* @host is a name (0), or an AF_INET / AF_INET6 literal */
        bool has_host;   /* a Host header was sent */
        uint8_t minor;   /* HTTP/1.minor */
        const char *why; /* BAD, TOO_BIG: what was wrong */
};
int sbx_sniff_http(const uint8_t *buf, size_t len, struct sbx_http_head *out);

/* Writes the request head with the request-target turned into origin form (absolute-form
 * only) into @out: "GET /path HTTP/1.1\r\n" + the original header lines; drops
 * Proxy-Connection and Proxy-Authorization lines.  Returns the length, or -ENOSPC.
 * Also, because the broker relays the rest of the connection without reading it
 * (a second request on it could name another host, and would reach this server):
 * drops Connection and Keep-Alive lines and ends the head with "Connection: close";
 * adds "Host: host[:port]" when the client sent none (RFC 9112 3.2.2).  The bytes of
 * @buf after @h->head_len (a request body) are the caller's to forward after it.
 * -EINVAL when @h is not an absolute-form head sniffed from @buf. */
ssize_t sbx_http_origin_form(const uint8_t *buf, const struct sbx_http_head *h, uint8_t *out, size_t cap);

/* ---- SOCKS5 (RFC 1928), no authentication only ---- */
/* The client greeting: OK when complete and offering method 0 (no auth); @used = its length. BAD otherwise. */
int sbx_sniff_socks_greeting(const uint8_t *buf, size_t len, size_t *used);

/* The request VER CMD RSV ATYP DST.ADDR DST.PORT.  BAD: a version other than 5, a
 * reserved byte other than 0, an ATYP other than 1, 3, 4, a domain of length 0 or
 * that is not a valid host name (NUL, space, ...), port 0.  A domain (ATYP 3) that is
 * an IPv4 dotted quad or IPv6 text is taken as that address (is_name false, @addr
 * filled); one in any other address spelling is BAD (netrule.h).  Any command byte is
 * returned: the broker refuses all but CONNECT with reply 7. */
struct sbx_socks_req {
        uint8_t cmd;                  /* 1 CONNECT (others are refused by the broker with reply 7) */
        bool is_name;                 /* ATYP 3 holding a name (an ATYP 3 address literal is not a name) */
        char host[256];               /* the name (normalised), or the address as text */
        struct sockaddr_storage addr; /* ATYP 1/4, or a literal in ATYP 3: the address (port set); zero for a name */
        uint16_t port;
        size_t used;
        const char *why; /* BAD: what was wrong */
};
int sbx_sniff_socks_request(const uint8_t *buf, size_t len, struct sbx_socks_req *out);

/* The 10-byte reply with @code (0 success, 2 not allowed by ruleset, 4 host unreachable,
 * 5 refused, 7 command not supported, 8 address type not supported) and a zero IPv4 bind address. */
size_t sbx_socks_reply(uint8_t out[10], uint8_t code);
