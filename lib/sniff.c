/* SPDX-License-Identifier: MIT */
/* The egress broker's protocol sniffers (sniff.h).  Runs in the broker's event loop
 * (sandboxd, or the sbx-run launcher in direct mode) on bytes the jail sent: hostile
 * input.  Pure: no allocation, no recursion, no global state; every read is checked
 * against the buffer and every length against its container first. */
#include "sniff.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "netrule.h"

/* ---- host names and literals (shared) ---- */

enum { LIT_NONE = 0, LIT_V4 = 1, LIT_V6 = 2 };

/* Reads @n bytes at @s as a host into @out (254 bytes): a name, normalised; an IPv4
 * dotted quad when @lits has LIT_V4; IPv6 text when @lits has LIT_V6 (the caller has
 * taken off any brackets).  Fills @family (0 for a name) and, for a literal, @ss. */
static int parse_host(const uint8_t *s, size_t n, int lits, char out[254], int *family, struct sockaddr_storage *ss,
                      const char **why)
{
        char text[SBX_NETNAME_MAX + 2];
        struct in_addr a4;
        struct in6_addr a6;

        if (n == 0)
                return *why = "empty host", SBX_SNIFF_BAD;
        if (n > SBX_NETNAME_MAX + 1)
                return *why = "host longer than 253 characters", SBX_SNIFF_BAD;
        if (memchr(s, '\0', n))
                return *why = "NUL byte in the host", SBX_SNIFF_BAD;
        memcpy(text, s, n);
        text[n] = '\0';
        *family = 0;
        if (inet_pton(AF_INET, text, &a4) == 1) {
                if (!(lits & LIT_V4))
                        return *why = "an IPv4 address where a host name must be", SBX_SNIFF_BAD;
                *family = AF_INET;
                if (ss) {
                        struct sockaddr_in *in = (struct sockaddr_in *)ss;
                        memset(ss, 0, sizeof(*ss));
                        in->sin_family = AF_INET;
                        in->sin_addr = a4;
                }
                inet_ntop(AF_INET, &a4, out, 254);
                return 0;
        }
        if (memchr(s, ':', n)) {
                /* No zone (%eth0): inet_pton refuses it, and a jail names no interface. */
                if (!(lits & LIT_V6) || inet_pton(AF_INET6, text, &a6) != 1)
                        return *why = "a colon in the host: not a host name or an IPv6 address", SBX_SNIFF_BAD;
                *family = AF_INET6;
                if (ss) {
                        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
                        memset(ss, 0, sizeof(*ss));
                        in6->sin6_family = AF_INET6;
                        in6->sin6_addr = a6;
                }
                inet_ntop(AF_INET6, &a6, out, 254);
                return 0;
        }
        /* Anything else is a name; sbx_netname_normalize refuses a numeric top label,
         * the disguised addresses ("0x7f.1", "2130706433") among them. */
        if (sbx_netname_normalize(text, out, why) < 0)
                return SBX_SNIFF_BAD;
        return 0;
}

static int parse_port(const uint8_t *s, size_t n, uint16_t *port, const char **why)
{
        unsigned v = 0;

        if (n == 0 || n > 5)
                return *why = "port missing or longer than 5 digits", SBX_SNIFF_BAD;
        for (size_t i = 0; i < n; i++) {
                if (s[i] < '0' || s[i] > '9')
                        return *why = "port is not a number", SBX_SNIFF_BAD;
                v = v * 10 + (unsigned)(s[i] - '0');
        }
        if (v == 0 || v > 65535)
                return *why = "port out of range (1..65535)", SBX_SNIFF_BAD;
        *port = (uint16_t)v;
        return 0;
}

/* ---- TLS ClientHello ---- */

#define TLS_RECORD_MAX 16384 /* 2^14: a plaintext record's limit (RFC 8446 5.1) */

/* A reader over the reassembled handshake message: @end is the current container's
 * end (a length past it is BAD), @avail how many bytes have arrived (a read past it
 * is NEED: the bytes are promised but not here yet).  Inside, 0 means "go on", so
 * "read more" has a code of its own (SBX_SNIFF_MORE is 0). */
#define NEED 2
struct rd {
        const uint8_t *p;
        size_t pos, end, avail;
};

static int rd_need(const struct rd *r, size_t n)
{
        if (n > r->end - r->pos)
                return SBX_SNIFF_BAD;
        if (r->pos + n > r->avail)
                return NEED;
        return 0;
}

/* Reads a @width-byte big-endian length at the reader into @v. */
static int rd_len(struct rd *r, size_t width, size_t *v)
{
        int k = rd_need(r, width);

        if (k != 0)
                return k;
        *v = 0;
        for (size_t i = 0; i < width; i++)
                *v = *v << 8 | r->p[r->pos + i];
        r->pos += width;
        return 0;
}

/* Skips @n bytes, which must lie inside the container (they need not have arrived). */
static int rd_skip(struct rd *r, size_t n)
{
        if (n > r->end - r->pos)
                return SBX_SNIFF_BAD;
        r->pos += n;
        return 0;
}

#define TRY(expr, reason)                                                                                              \
        do {                                                                                                           \
                int k_ = (expr);                                                                                       \
                if (k_ != 0)                                                                                           \
                        return k_ == SBX_SNIFF_BAD ? (out->why = (reason), k_) : k_;                                   \
        } while (0)

/* The server_name extension's body, the reader bounded to it (RFC 6066 3). */
static int tls_server_name(struct rd *r, struct sbx_tls_hello *out)
{
        size_t list, type, n;
        int family = 0;

        TRY(rd_len(r, 2, &list), "server_name list length overflows its extension");
        if (list == 0 || list != r->end - r->pos)
                return out->why = "server_name list length does not fill its extension", SBX_SNIFF_BAD;
        while (r->pos < r->end) {
                TRY(rd_len(r, 1, &type), "server_name entry truncated");
                if (type != 0)
                        return out->why = "server_name entry of a type other than host_name", SBX_SNIFF_BAD;
                if (out->has_sni)
                        return out->multiple_names = true, out->why = "server_name with two host names",
                               SBX_SNIFF_BAD;
                TRY(rd_len(r, 2, &n), "server_name entry truncated");
                if (n == 0)
                        return out->why = "empty server name", SBX_SNIFF_BAD;
                TRY(rd_need(r, n), "server name overflows its list");
                if (parse_host(r->p + r->pos, n, LIT_NONE, out->sni, &family, NULL, &out->why) < 0)
                        return SBX_SNIFF_BAD; /* including address literals: RFC 6066 forbids them */
                out->has_sni = true;
                r->pos += n;
        }
        return 0;
}

/* The ClientHello, from its handshake header (already checked) to the end of its
 * extensions (RFC 8446 4.1.2; TLS 1.0-1.2 hellos have the same shape). */
static int tls_client_hello(struct rd *r, struct sbx_tls_hello *out)
{
        uint64_t seen[65536 / 64] = { 0 }; /* extension types met, for duplicates */
        size_t v, n;

        TRY(rd_len(r, 2, &v), "ClientHello truncated");
        if (v >> 8 != 3)
                return out->why = "ClientHello version is not 3.x", SBX_SNIFF_BAD;
        out->version = (uint16_t)v;
        TRY(rd_skip(r, 32), "ClientHello truncated (random)");
        TRY(rd_len(r, 1, &n), "ClientHello truncated (session id)");
        if (n > 32)
                return out->why = "session id longer than 32 bytes", SBX_SNIFF_BAD;
        TRY(rd_skip(r, n), "session id overflows the ClientHello");
        TRY(rd_len(r, 2, &n), "ClientHello truncated (cipher suites)");
        if (n < 2 || n % 2)
                return out->why = "cipher suite list empty or of odd length", SBX_SNIFF_BAD;
        TRY(rd_skip(r, n), "cipher suites overflow the ClientHello");
        TRY(rd_len(r, 1, &n), "ClientHello truncated (compression methods)");
        if (n < 1)
                return out->why = "no compression method", SBX_SNIFF_BAD;
        TRY(rd_skip(r, n), "compression methods overflow the ClientHello");
        if (r->pos == r->end)
                return 0; /* no extensions at all (TLS 1.0-1.2): no server name */
        TRY(rd_len(r, 2, &n), "ClientHello truncated (extensions)");
        if (n != r->end - r->pos)
                return out->why = "extensions length does not fill the ClientHello", SBX_SNIFF_BAD;
        while (r->pos < r->end) {
                size_t type, elen;

                TRY(rd_len(r, 2, &type), "extension header truncated");
                TRY(rd_len(r, 2, &elen), "extension header truncated");
                if (elen > r->end - r->pos)
                        return out->why = "extension length overflows the ClientHello", SBX_SNIFF_BAD;
                /* RFC 8446 4.2: one of each.  Two server_names would let the server read
                 * another name than the broker checked. */
                if (seen[type / 64] & (UINT64_C(1) << (type % 64))) {
                        if (type == 0)
                                out->multiple_names = true;
                        return out->why = "duplicate extension", SBX_SNIFF_BAD;
                }
                seen[type / 64] |= UINT64_C(1) << (type % 64);
                if (type == 0) {
                        struct rd sub = { r->p, r->pos, r->pos + elen, r->avail };
                        int k = tls_server_name(&sub, out);
                        if (k != 0)
                                return k;
                } else if (type == 0xfe0d || type == 0xffce) /* ECH, and draft ESNI */
                        out->has_ech = true;
                r->pos += elen;
        }
        return 0;
}

/* Checks what has arrived of a record header at @h (@n bytes, 1..5). */
static int tls_record_header(const uint8_t *h, size_t n, bool first, struct sbx_tls_hello *out)
{
        if (first && (h[0] & 0x80))
                return out->why = "SSLv2-style hello", SBX_SNIFF_BAD;
        if (h[0] != 22)
                return out->why = first ? "not a TLS handshake record" : "a non-handshake record inside the ClientHello",
                       SBX_SNIFF_BAD;
        if (n >= 2 && h[1] != 3)
                return out->why = "TLS record version is not 3.x", SBX_SNIFF_BAD;
        if (n >= 3 && h[2] > 4)
                return out->why = "unknown TLS record version", SBX_SNIFF_BAD;
        if (n >= 4 && h[3] > TLS_RECORD_MAX >> 8)
                return out->why = "TLS record longer than 2^14 bytes", SBX_SNIFF_BAD;
        return 0;
}

int sbx_sniff_tls(const uint8_t *buf, size_t len, struct sbx_tls_hello *out)
{
        uint8_t hs[SBX_SNIFF_TLS_MAX]; /* the handshake message, reassembled from its records */
        size_t off = 0, got = 0, declared = 0, msg = SIZE_MAX;
        int k;

        memset(out, 0, sizeof(*out));
        while (off < len) {
                size_t rl, take;

                if ((k = tls_record_header(buf + off, len - off < 5 ? len - off : 5, off == 0, out)) != 0)
                        return k;
                if (len - off < 5)
                        break; /* the next record's header; what came before is judged below */
                rl = (size_t)buf[off + 3] << 8 | buf[off + 4];
                if (rl == 0 || rl > TLS_RECORD_MAX)
                        return out->why = rl ? "TLS record longer than 2^14 bytes" : "empty TLS record", SBX_SNIFF_BAD;
                if (off + 5 + rl > SBX_SNIFF_TLS_MAX) {
                        /* What arrived before is judged first: a verdict the broker got
                         * on a shorter read must not change with a longer one. */
                        struct rd r = { hs, 4, msg, got };
                        if (got >= 4 && tls_client_hello(&r, out) == SBX_SNIFF_BAD)
                                return SBX_SNIFF_BAD;
                        return out->why = "ClientHello records longer than 16 KiB", SBX_SNIFF_TOO_BIG;
                }
                take = len - off - 5 < rl ? len - off - 5 : rl;
                memcpy(hs + got, buf + off + 5, take);
                got += take;
                declared += rl;
                if (got >= 1 && hs[0] != 1)
                        return out->why = "handshake message is not a ClientHello", SBX_SNIFF_BAD;
                if (got >= 4) {
                        msg = 4 + ((size_t)hs[1] << 16 | (size_t)hs[2] << 8 | hs[3]);
                        if (msg + 5 > SBX_SNIFF_TLS_MAX)
                                return out->why = "ClientHello longer than 16 KiB", SBX_SNIFF_TOO_BIG;
                        /* The hello is all the client sends before the server answers:
                         * a record that goes on past it is not a client's first flight. */
                        if (declared > msg)
                                return out->why = "TLS record continues past the ClientHello", SBX_SNIFF_BAD;
                }
                if (take < rl)
                        break;
                off += 5 + rl;
                if (declared == msg)
                        break;
        }
        if (got < 4)
                return SBX_SNIFF_MORE;
        struct rd r = { hs, 4, msg, got };
        if ((k = tls_client_hello(&r, out)) != 0)
                return k == NEED ? SBX_SNIFF_MORE : k;
        if (got < msg)
                return SBX_SNIFF_MORE;
        out->record_len = off;
        return SBX_SNIFF_OK;
}

/* ---- HTTP request heads ---- */

/* RFC 9110 5.6.2 tchar. */
static bool is_tchar(uint8_t c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool ieq(const uint8_t *s, size_t n, const char *lit)
{
        size_t m = strlen(lit);

        if (n != m)
                return false;
        for (size_t i = 0; i < n; i++) {
                uint8_t c = s[i] >= 'A' && s[i] <= 'Z' ? (uint8_t)(s[i] - 'A' + 'a') : s[i];
                if (c != (uint8_t)lit[i])
                        return false;
        }
        return true;
}

/* "host", "host:port", "[v6]", "[v6]:port" (an authority without userinfo). */
static int parse_authority(const uint8_t *s, size_t n, char host[254], uint16_t *port, int *family, const char **why)
{
        const uint8_t *h = s, *p = NULL;
        size_t hn = n, pn = 0;

        *port = 0;
        if (memchr(s, '@', n))
                return *why = "userinfo (user@) in the authority", SBX_SNIFF_BAD;
        if (n > 0 && s[0] == '[') {
                const uint8_t *close = memchr(s, ']', n);
                if (!close)
                        return *why = "'[' without ']' in the authority", SBX_SNIFF_BAD;
                h = s + 1;
                hn = (size_t)(close - s) - 1;
                if ((size_t)(close - s) + 1 < n) {
                        if (close[1] != ':')
                                return *why = "text after ']' in the authority", SBX_SNIFF_BAD;
                        p = close + 2;
                        pn = n - (size_t)(p - s);
                }
                if (!memchr(h, ':', hn))
                        return *why = "brackets around something other than an IPv6 address", SBX_SNIFF_BAD;
        } else {
                const uint8_t *colon = memchr(s, ':', n);
                if (colon) {
                        hn = (size_t)(colon - s);
                        p = colon + 1;
                        pn = n - hn - 1;
                }
        }
        if (p && parse_port(p, pn, port, why) < 0)
                return SBX_SNIFF_BAD;
        return parse_host(h, hn, h == s ? LIT_V4 : LIT_V6, host, family, NULL, why);
}

/* The request-target, complete (@t, @n: between the two spaces of the request line). */
static int http_target(const uint8_t *buf, size_t t, size_t n, struct sbx_http_head *out)
{
        const uint8_t *s = buf + t;
        size_t a;

        if (memchr(s, '#', n))
                return out->why = "fragment (#) in the request target", SBX_SNIFF_BAD;
        if (out->connect) {
                if (parse_authority(s, n, out->host, &out->port, &out->family, &out->why) < 0)
                        return SBX_SNIFF_BAD;
                if (!out->port)
                        return out->why = "CONNECT without a port", SBX_SNIFF_BAD;
                return 0;
        }
        if (s[0] == '/')
                return 0;
        if (n == 1 && s[0] == '*') {
                if (strcmp(out->method, "OPTIONS") != 0)
                        return out->why = "request target * with another method than OPTIONS", SBX_SNIFF_BAD;
                return 0;
        }
        if (n < 7 || !ieq(s, 7, "http://"))
                return out->why = "absolute-form target not http:// (use CONNECT for https)", SBX_SNIFF_BAD;
        out->absolute = true;
        for (a = 7; a < n && s[a] != '/' && s[a] != '?'; a++)
                ;
        if (parse_authority(s + 7, a - 7, out->host, &out->port, &out->family, &out->why) < 0)
                return SBX_SNIFF_BAD;
        out->path_off = t + a;
        out->path_len = n - a;
        return 0;
}

/* The Host header's value (OWS trimmed), checked against the request target. */
static int http_host(const uint8_t *v, size_t n, struct sbx_http_head *out)
{
        char host[254];
        uint16_t port;
        int family;

        if (parse_authority(v, n, host, &port, &family, &out->why) < 0)
                return SBX_SNIFF_BAD;
        if (out->connect || out->absolute) {
                /* One name for the broker's check and the server's virtual host: a Host
                 * naming another would be domain fronting through an allowed address. */
                if (strcmp(host, out->host) != 0)
                        return out->why = "Host header names another host than the request target", SBX_SNIFF_BAD;
                if (out->connect ? port && port != out->port : (port ? port : 80) != (out->port ? out->port : 80))
                        return out->why = "Host header names another port than the request target", SBX_SNIFF_BAD;
                return 0;
        }
        memcpy(out->host, host, sizeof(host));
        out->port = port;
        out->family = family;
        return 0;
}

static const char http_version[] = "HTTP/1.";

/* Scans the head byte by byte, so that the first byte no valid head could have there
 * is BAD at once; the target and the Host are judged when complete. */
int sbx_sniff_http(const uint8_t *buf, size_t len, struct sbx_http_head *out)
{
        size_t n = len < SBX_SNIFF_HTTP_MAX ? len : SBX_SNIFF_HTTP_MAX, i = 0, t, hosts = 0;
        size_t host_off = 0, host_len = 0;

        memset(out, 0, sizeof(*out));
        /* method SP */
        for (; i < n && buf[i] != ' '; i++) {
                if (!is_tchar(buf[i]))
                        return out->why = "not an HTTP request (method)", SBX_SNIFF_BAD;
                if (i >= sizeof(out->method) - 1)
                        return out->why = "method longer than 15 characters", SBX_SNIFF_BAD;
                out->method[i] = (char)buf[i];
        }
        if (i == n)
                goto more;
        if (i == 0)
                return out->why = "empty method", SBX_SNIFF_BAD;
        out->connect = strcmp(out->method, "CONNECT") == 0;
        /* target SP */
        t = ++i;
        for (; i < n && buf[i] != ' '; i++)
                if (buf[i] <= 0x20 || buf[i] >= 0x7f)
                        return out->why = "control, space or non-ASCII byte in the request target", SBX_SNIFF_BAD;
        if (i == n)
                goto more;
        if (i == t)
                return out->why = "empty request target", SBX_SNIFF_BAD;
        if (http_target(buf, t, i - t, out) < 0)
                return SBX_SNIFF_BAD;
        /* HTTP/1.d CRLF */
        i++;
        for (size_t k = 0; k < sizeof(http_version) - 1; k++, i++) {
                if (i == n)
                        goto more;
                if (buf[i] != (uint8_t)http_version[k])
                        return out->why = "not HTTP/1.x", SBX_SNIFF_BAD;
        }
        if (i == n)
                goto more;
        if (buf[i] < '0' || buf[i] > '9')
                return out->why = "not HTTP/1.x", SBX_SNIFF_BAD;
        out->minor = (uint8_t)(buf[i++] - '0');
        for (const char *e = "\r\n"; *e; e++, i++) {
                if (i == n)
                        goto more;
                if (buf[i] != (uint8_t)*e)
                        return out->why = "request line not ended by CRLF", SBX_SNIFF_BAD;
        }
        /* header lines, up to the empty one */
        for (;;) {
                size_t name = i, colon, v, vend;

                if (i == n)
                        goto more;
                if (buf[i] == '\r') {
                        if (++i == n)
                                goto more;
                        if (buf[i] != '\n')
                                return out->why = "CR without LF", SBX_SNIFF_BAD;
                        i++;
                        break;
                }
                if (buf[i] == ' ' || buf[i] == '\t')
                        return out->why = "obsolete line folding (a header line starting with a space)",
                               SBX_SNIFF_BAD;
                for (; i < n && buf[i] != ':'; i++)
                        if (!is_tchar(buf[i]))
                                return out->why = buf[i] == ' ' || buf[i] == '\t' ? "whitespace before a header's colon"
                                                                                  : "invalid byte in a header name",
                                       SBX_SNIFF_BAD;
                if (i == n)
                        goto more;
                if (i == name)
                        return out->why = "empty header name", SBX_SNIFF_BAD;
                colon = i++;
                for (; i < n && buf[i] != '\r'; i++)
                        if ((buf[i] < 0x20 && buf[i] != '\t') || buf[i] == 0x7f)
                                return out->why = buf[i] == '\n' ? "bare LF (lines end in CRLF)"
                                                                 : "control character in a header value",
                                       SBX_SNIFF_BAD;
                if (i + 1 >= n)
                        goto more;
                if (buf[i + 1] != '\n')
                        return out->why = "CR without LF", SBX_SNIFF_BAD;
                vend = i;
                i += 2;
                if (!ieq(buf + name, colon - name, "host"))
                        continue;
                if (++hosts > 1)
                        return out->why = "more than one Host header", SBX_SNIFF_BAD;
                for (v = colon + 1; v < vend && (buf[v] == ' ' || buf[v] == '\t'); v++)
                        ;
                while (vend > v && (buf[vend - 1] == ' ' || buf[vend - 1] == '\t'))
                        vend--;
                host_off = v;
                host_len = vend - v;
        }
        out->head_len = i;
        out->has_host = hosts > 0;
        if (out->has_host) {
                if (http_host(buf + host_off, host_len, out) < 0)
                        return SBX_SNIFF_BAD;
        } else if (!out->connect && !out->absolute && out->minor >= 1)
                return out->why = "HTTP/1.1 request without a Host header", SBX_SNIFF_BAD;
        return SBX_SNIFF_OK;
more:
        if (len >= SBX_SNIFF_HTTP_MAX)
                return out->why = "request head longer than 8 KiB", SBX_SNIFF_TOO_BIG;
        return SBX_SNIFF_MORE;
}

static int put(uint8_t *out, size_t cap, size_t *at, const void *s, size_t n)
{
        if (n > cap - *at)
                return -ENOSPC;
        memcpy(out + *at, s, n);
        *at += n;
        return 0;
}

#define PUT(s, n)                                                                                                      \
        do {                                                                                                           \
                if (put(out, cap, &at, (s), (n)) < 0)                                                                  \
                        return -ENOSPC;                                                                                \
        } while (0)
#define PUTS(s) PUT((s), strlen(s))

ssize_t sbx_http_origin_form(const uint8_t *buf, const struct sbx_http_head *h, uint8_t *out, size_t cap)
{
        static const char *const dropped[] = { "proxy-connection", "proxy-authorization", "connection",
                                               "keep-alive" };
        size_t at = 0, i = h->path_off + h->path_len;
        char ver[16];

        if (!h->absolute || h->head_len < 4 || i > h->head_len)
                return -EINVAL;
        /* The request line: the method, the path (a query alone gets its '/'), the version. */
        PUTS(h->method);
        PUTS(" ");
        if (h->path_len == 0 || buf[h->path_off] != '/')
                PUTS("/");
        PUT(buf + h->path_off, h->path_len);
        snprintf(ver, sizeof(ver), " HTTP/1.%u\r\n", h->minor);
        PUTS(ver);
        while (i < h->head_len && buf[i] != '\n')
                i++;
        i++;
        /* The header lines (each ends in CRLF: sbx_sniff_http checked), but the hop-by-hop
         * ones the proxy consumes; the blank line last. */
        while (i + 2 < h->head_len) {
                const uint8_t *nl = memchr(buf + i, '\n', h->head_len - i);
                size_t end = nl ? (size_t)(nl - buf) + 1 : h->head_len;
                const uint8_t *colon = memchr(buf + i, ':', end - i);
                bool drop = false;

                for (size_t d = 0; colon && d < sizeof(dropped) / sizeof(dropped[0]); d++)
                        drop |= ieq(buf + i, (size_t)(colon - buf) - i, dropped[d]);
                if (!drop)
                        PUT(buf + i, end - i);
                i = end;
        }
        if (!h->has_host) {
                char port[8] = "";
                if (h->port)
                        snprintf(port, sizeof(port), ":%u", h->port);
                PUTS("Host: ");
                PUTS(h->family == AF_INET6 ? "[" : "");
                PUTS(h->host);
                PUTS(h->family == AF_INET6 ? "]" : "");
                PUTS(port);
                PUTS("\r\n");
        }
        PUTS("Connection: close\r\n\r\n");
        return (ssize_t)at;
}

/* ---- SOCKS5 ---- */

int sbx_sniff_socks_greeting(const uint8_t *buf, size_t len, size_t *used)
{
        *used = 0;
        if (len < 1)
                return SBX_SNIFF_MORE;
        if (buf[0] != 5)
                return SBX_SNIFF_BAD;
        if (len < 2)
                return SBX_SNIFF_MORE;
        if (buf[1] == 0)
                return SBX_SNIFF_BAD; /* no method offered */
        if (len < 2 + (size_t)buf[1])
                return SBX_SNIFF_MORE;
        if (!memchr(buf + 2, 0, buf[1]))
                return SBX_SNIFF_BAD; /* only methods sbx does not speak (authentication) */
        *used = 2 + (size_t)buf[1];
        return SBX_SNIFF_OK;
}

int sbx_sniff_socks_request(const uint8_t *buf, size_t len, struct sbx_socks_req *out)
{
        size_t alen, at;
        int family = 0;

        memset(out, 0, sizeof(*out));
        if (len >= 1 && buf[0] != 5)
                return out->why = "not SOCKS version 5", SBX_SNIFF_BAD;
        if (len >= 3 && buf[2] != 0)
                return out->why = "reserved byte not zero", SBX_SNIFF_BAD;
        if (len < 4)
                return SBX_SNIFF_MORE;
        out->cmd = buf[1];
        switch (buf[3]) {
        case 1:
                alen = 4, at = 4;
                break;
        case 4:
                alen = 16, at = 4;
                break;
        case 3:
                if (len < 5)
                        return SBX_SNIFF_MORE;
                if (buf[4] == 0)
                        return out->why = "empty domain name", SBX_SNIFF_BAD;
                alen = buf[4], at = 5;
                break;
        default:
                return out->why = "address type not supported", SBX_SNIFF_BAD;
        }
        if (buf[3] == 3 && len >= at + alen) {
                if (parse_host(buf + at, alen, LIT_V4 | LIT_V6, out->host, &family, &out->addr, &out->why) < 0)
                        return SBX_SNIFF_BAD;
        }
        if (len < at + alen + 2)
                return SBX_SNIFF_MORE;
        out->port = (uint16_t)(buf[at + alen] << 8 | buf[at + alen + 1]);
        if (out->port == 0)
                return out->why = "port 0", SBX_SNIFF_BAD;
        if (buf[3] == 1) {
                struct sockaddr_in *in = (struct sockaddr_in *)&out->addr;
                in->sin_family = AF_INET;
                memcpy(&in->sin_addr, buf + at, 4);
                inet_ntop(AF_INET, &in->sin_addr, out->host, sizeof(out->host));
                family = AF_INET;
        } else if (buf[3] == 4) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->addr;
                in6->sin6_family = AF_INET6;
                memcpy(&in6->sin6_addr, buf + at, 16);
                inet_ntop(AF_INET6, &in6->sin6_addr, out->host, sizeof(out->host));
                family = AF_INET6;
        }
        out->is_name = family == 0;
        if (family == AF_INET)
                ((struct sockaddr_in *)&out->addr)->sin_port = htons(out->port);
        else if (family == AF_INET6)
                ((struct sockaddr_in6 *)&out->addr)->sin6_port = htons(out->port);
        out->used = at + alen + 2;
        return SBX_SNIFF_OK;
}

size_t sbx_socks_reply(uint8_t out[10], uint8_t code)
{
        static const uint8_t reply[10] = { 5, 0, 0, 1 }; /* VER REP RSV ATYP=IPv4 0.0.0.0:0 */

        memcpy(out, reply, sizeof(reply));
        out[1] = code;
        return sizeof(reply);
}
