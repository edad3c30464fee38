/* SPDX-License-Identifier: MIT */
#include "sniff.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "netrule.h"
#include "ssrf.h"

/* ---- host names ---- */

/* @in (@n bytes, no NUL inside) as a normalised host name or an address literal. */
static bool host_ok(const char *in, size_t n, char out[254], bool allow_literal)
{
        char buf[SBX_NETNAME_MAX + 2], norm[SBX_NETNAME_MAX + 1];
        struct sockaddr_storage ss;
        const char *why;

        if (n == 0 || n >= sizeof(buf) || memchr(in, '\0', n))
                return false;
        memcpy(buf, in, n);
        buf[n] = '\0';
        if (sbx_ssrf_parse_literal(buf, &ss)) {
                if (!allow_literal)
                        return false;
                snprintf(out, 254, "%.253s", buf);
                return true;
        }
        if (sbx_netname_normalize(buf, norm, &why) < 0)
                return false;
        snprintf(out, 254, "%s", norm);
        return true;
}

/* ---- TLS ---- */

struct reader {
        const uint8_t *p;
        size_t left;
};

static bool take(struct reader *r, size_t n, const uint8_t **at)
{
        if (r->left < n)
                return false;
        if (at)
                *at = r->p;
        r->p += n;
        r->left -= n;
        return true;
}

static bool u8(struct reader *r, size_t *v)
{
        const uint8_t *a;
        if (!take(r, 1, &a))
                return false;
        *v = a[0];
        return true;
}

static bool u16(struct reader *r, size_t *v)
{
        const uint8_t *a;
        if (!take(r, 2, &a))
                return false;
        *v = (size_t)a[0] << 8 | a[1];
        return true;
}

static bool u24(struct reader *r, size_t *v)
{
        const uint8_t *a;
        if (!take(r, 3, &a))
                return false;
        *v = (size_t)a[0] << 16 | (size_t)a[1] << 8 | a[2];
        return true;
}

/* A sub-reader of the next @n bytes, which the outer one skips. */
static bool sub(struct reader *r, size_t n, struct reader *s)
{
        const uint8_t *a;
        if (!take(r, n, &a))
                return false;
        *s = (struct reader){ a, n };
        return true;
}

static int server_name(struct reader ext, struct sbx_tls_hello *out)
{
        struct reader list;
        size_t n;

        if (!u16(&ext, &n) || !sub(&ext, n, &list) || ext.left)
                return SBX_SNIFF_BAD;
        while (list.left) {
                size_t type, len;
                const uint8_t *name;

                if (!u8(&list, &type) || !u16(&list, &len) || !take(&list, len, &name))
                        return SBX_SNIFF_BAD;
                if (type != 0)
                        continue;
                if (out->has_sni) {
                        out->multiple_names = true;
                        continue;
                }
                if (!host_ok((const char *)name, len, out->sni, false))
                        return SBX_SNIFF_BAD;
                out->has_sni = true;
        }
        return SBX_SNIFF_OK;
}

static int client_hello(struct reader h, struct sbx_tls_hello *out)
{
        struct reader exts;
        size_t n, version;

        /* version, random, session id, cipher suites, compression methods */
        if (!u16(&h, &version) || (version >> 8) != 3 || !take(&h, 32, NULL) || !u8(&h, &n) || n > 32 ||
            !take(&h, n, NULL) || !u16(&h, &n) || n < 2 || n % 2 || !take(&h, n, NULL) || !u8(&h, &n) || n < 1 ||
            !take(&h, n, NULL))
                return SBX_SNIFF_BAD;
        if (!h.left) /* no extensions: no server name */
                return SBX_SNIFF_OK;
        if (!u16(&h, &n) || !sub(&h, n, &exts) || h.left)
                return SBX_SNIFF_BAD;
        while (exts.left) {
                size_t type, len;
                struct reader ext;
                int r;

                if (!u16(&exts, &type) || !u16(&exts, &len) || !sub(&exts, len, &ext))
                        return SBX_SNIFF_BAD;
                if (type == 0xfe0d)
                        out->has_ech = true;
                if (type == 0 && (r = server_name(ext, out)) != SBX_SNIFF_OK)
                        return r;
        }
        return SBX_SNIFF_OK;
}

int sbx_sniff_tls(const uint8_t *buf, size_t len, struct sbx_tls_hello *out)
{
        uint8_t hs[SBX_SNIFF_TLS_MAX];
        size_t have = 0, off = 0, need = 0;

        *out = (struct sbx_tls_hello){ .sni = "" };
        /* Gather the handshake bytes of consecutive handshake records until the
         * hello's own length is in. */
        for (;;) {
                size_t rlen;

                if (len - off < 5) {
                        if (len - off >= 1 && buf[off] != 22)
                                return SBX_SNIFF_BAD;
                        if (len - off >= 2 && buf[off + 1] != 3)
                                return SBX_SNIFF_BAD;
                        return len >= SBX_SNIFF_TLS_MAX ? SBX_SNIFF_TOO_BIG : SBX_SNIFF_MORE;
                }
                if (buf[off] != 22 || buf[off + 1] != 3)
                        return SBX_SNIFF_BAD;
                rlen = (size_t)buf[off + 3] << 8 | buf[off + 4];
                if (rlen == 0 || rlen > SBX_SNIFF_TLS_MAX)
                        return SBX_SNIFF_BAD;
                if (off + 5 + rlen > SBX_SNIFF_TLS_MAX + 5 * 8 || have + rlen > sizeof(hs))
                        return SBX_SNIFF_TOO_BIG;
                if (len - off - 5 < rlen)
                        return SBX_SNIFF_MORE;
                memcpy(hs + have, buf + off + 5, rlen);
                have += rlen;
                off += 5 + rlen;
                if (have >= 4) {
                        if (hs[0] != 1) /* ClientHello */
                                return SBX_SNIFF_BAD;
                        need = 4 + ((size_t)hs[1] << 16 | (size_t)hs[2] << 8 | hs[3]);
                        if (need > sizeof(hs))
                                return SBX_SNIFF_TOO_BIG;
                        if (have >= need)
                                break;
                }
        }
        {
                struct reader r = { hs, need }, body;
                size_t type, blen;

                if (!u8(&r, &type) || !u24(&r, &blen) || !sub(&r, blen, &body))
                        return SBX_SNIFF_BAD;
                out->record_len = off;
                return client_hello(body, out);
        }
}

/* ---- HTTP ---- */

static bool is_tchar(int c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* host[:port] or [v6][:port] of @n bytes at @s. */
static bool authority(const char *s, size_t n, char host[254], uint16_t *port)
{
        const char *h = s, *colon = NULL;
        size_t hl = n;

        *port = 0;
        if (n && s[0] == '[') {
                const char *close = memchr(s, ']', n);
                if (!close)
                        return false;
                h = s + 1;
                hl = (size_t)(close - h);
                if ((size_t)(close - s) + 1 < n) {
                        if (close[1] != ':')
                                return false;
                        colon = close + 1;
                }
        } else {
                colon = memchr(s, ':', n);
                if (colon)
                        hl = (size_t)(colon - s);
        }
        if (colon) {
                size_t pl = n - (size_t)(colon + 1 - s);
                unsigned long v = 0;
                if (pl == 0 || pl > 5)
                        return false;
                for (size_t i = 0; i < pl; i++) {
                        if (colon[1 + i] < '0' || colon[1 + i] > '9')
                                return false;
                        v = v * 10 + (unsigned long)(colon[1 + i] - '0');
                }
                if (v == 0 || v > 65535)
                        return false;
                *port = (uint16_t)v;
        }
        if (s[0] == '[') { /* only an IPv6 literal goes in brackets */
                char buf[64];
                struct in6_addr a;
                if (hl == 0 || hl >= sizeof(buf))
                        return false;
                memcpy(buf, h, hl);
                buf[hl] = '\0';
                if (inet_pton(AF_INET6, buf, &a) != 1)
                        return false;
                snprintf(host, 254, "%s", buf);
                return true;
        }
        return host_ok(h, hl, host, true);
}

/* The next line of the head: [*pos, eol) without its CR, *pos moved past the LF.
 * false when there is no whole line yet. */
static bool line(const char *b, size_t len, size_t *pos, const char **start, size_t *n)
{
        const char *lf = memchr(b + *pos, '\n', len - *pos);

        if (!lf)
                return false;
        *start = b + *pos;
        *n = (size_t)(lf - *start);
        if (*n && (*start)[*n - 1] == '\r')
                (*n)--;
        *pos = (size_t)(lf - b) + 1;
        return true;
}

static int request_line(const char *l, size_t n, struct sbx_http_head *out, bool *http11)
{
        const char *sp1 = memchr(l, ' ', n), *sp2, *target, *ver;
        size_t tl;

        if (!sp1 || sp1 == l || (size_t)(sp1 - l) >= sizeof(out->method))
                return SBX_SNIFF_BAD;
        for (const char *c = l; c < sp1; c++)
                if (!is_tchar((unsigned char)*c))
                        return SBX_SNIFF_BAD;
        memcpy(out->method, l, (size_t)(sp1 - l));
        out->method[sp1 - l] = '\0';
        target = sp1 + 1;
        sp2 = memchr(target, ' ', n - (size_t)(target - l));
        if (!sp2 || sp2 == target)
                return SBX_SNIFF_BAD;
        tl = (size_t)(sp2 - target);
        ver = sp2 + 1;
        if (n - (size_t)(ver - l) != 8 || memcmp(ver, "HTTP/1.", 7) != 0 || (ver[7] != '0' && ver[7] != '1'))
                return SBX_SNIFF_BAD;
        *http11 = ver[7] == '1';
        for (size_t i = 0; i < tl; i++)
                if ((unsigned char)target[i] <= 0x20 || target[i] == 0x7f)
                        return SBX_SNIFF_BAD;
        if (strcmp(out->method, "CONNECT") == 0) {
                out->connect = true;
                return authority(target, tl, out->host, &out->port) && out->port ? SBX_SNIFF_OK : SBX_SNIFF_BAD;
        }
        if (target[0] == '/' || (tl == 1 && target[0] == '*'))
                return SBX_SNIFF_OK;
        if (tl < 8 || strncasecmp(target, "http://", 7) != 0)
                return SBX_SNIFF_BAD;
        {
                const char *a = target + 7, *end = target + tl;
                const char *slash = a;
                while (slash < end && *slash != '/' && *slash != '?' && *slash != '#')
                        slash++;
                if (memchr(a, '@', (size_t)(slash - a)))
                        return SBX_SNIFF_BAD; /* userinfo: whose host is it? */
                if (!authority(a, (size_t)(slash - a), out->host, &out->port))
                        return SBX_SNIFF_BAD;
                out->absolute = true;
                out->path_off = (size_t)(slash - l);
                out->path_len = (size_t)(end - slash);
        }
        return SBX_SNIFF_OK;
}

int sbx_sniff_http(const uint8_t *buf, size_t len, struct sbx_http_head *out)
{
        const char *b = (const char *)buf, *l;
        size_t pos = 0, n, lim = len < SBX_SNIFF_HTTP_MAX ? len : SBX_SNIFF_HTTP_MAX;
        bool http11 = false, first = true, have_host = false;
        char host[254];
        uint16_t hport = 0;
        int r;

        *out = (struct sbx_http_head){ .method = "" };
        for (size_t i = 0; i < lim; i++) /* no control character but the line ends, nowhere */
                if ((buf[i] < 0x20 && buf[i] != '\r' && buf[i] != '\n' && buf[i] != '\t') || buf[i] == 0x7f)
                        return SBX_SNIFF_BAD;
        if (lim && !is_tchar(buf[0]))
                return SBX_SNIFF_BAD;
        while (line(b, lim, &pos, &l, &n)) {
                const char *colon, *v;
                size_t vl;

                if (first) {
                        if ((r = request_line(l, n, out, &http11)) != SBX_SNIFF_OK)
                                return r;
                        first = false;
                        continue;
                }
                if (n == 0) { /* the blank line */
                        out->head_len = pos;
                        if (have_host && (out->connect || out->absolute)) {
                                if (strcmp(host, out->host) != 0 || (hport && hport != out->port))
                                        return SBX_SNIFF_BAD;
                        } else if (have_host) {
                                memcpy(out->host, host, sizeof(host));
                                out->port = hport;
                        } else if (!out->connect && !out->absolute && http11) {
                                return SBX_SNIFF_BAD;
                        }
                        return SBX_SNIFF_OK;
                }
                if (l[0] == ' ' || l[0] == '\t')
                        return SBX_SNIFF_BAD; /* obsolete folding */
                colon = memchr(l, ':', n);
                if (!colon || colon == l)
                        return SBX_SNIFF_BAD;
                for (const char *c = l; c < colon; c++)
                        if (!is_tchar((unsigned char)*c))
                                return SBX_SNIFF_BAD; /* "Host :" and friends */
                if ((size_t)(colon - l) != 4 || strncasecmp(l, "host", 4) != 0)
                        continue;
                if (have_host)
                        return SBX_SNIFF_BAD;
                v = colon + 1;
                vl = n - (size_t)(v - l);
                while (vl && (*v == ' ' || *v == '\t'))
                        v++, vl--;
                while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
                        vl--;
                if (!authority(v, vl, host, &hport))
                        return SBX_SNIFF_BAD;
                have_host = true;
        }
        return len >= SBX_SNIFF_HTTP_MAX ? SBX_SNIFF_TOO_BIG : SBX_SNIFF_MORE;
}

ssize_t sbx_http_origin_form(const uint8_t *buf, const struct sbx_http_head *h, uint8_t *out, size_t cap)
{
        const char *b = (const char *)buf, *l;
        size_t pos = 0, n, o = 0;
        bool first = true;
        int w;

        while (line(b, h->head_len, &pos, &l, &n)) {
                if (first) {
                        const char *ver = l + n - 8;
                        w = snprintf((char *)out + o, cap - o, "%s %.*s %.8s\r\n", h->method, h->path_len ? (int)h->path_len : 1,
                                     h->path_len ? b + h->path_off : "/", ver);
                        first = false;
                } else if ((n >= 17 && strncasecmp(l, "proxy-connection:", 17) == 0) ||
                           (n >= 20 && strncasecmp(l, "proxy-authorization:", 20) == 0)) {
                        continue;
                } else {
                        w = snprintf((char *)out + o, cap - o, "%.*s\r\n", (int)n, l);
                }
                if (w < 0 || (size_t)w >= cap - o)
                        return -ENOSPC;
                o += (size_t)w;
        }
        return (ssize_t)o;
}

/* ---- SOCKS5 ---- */

int sbx_sniff_socks_greeting(const uint8_t *buf, size_t len, size_t *used)
{
        if (len < 1)
                return SBX_SNIFF_MORE;
        if (buf[0] != 5)
                return SBX_SNIFF_BAD;
        if (len < 2)
                return SBX_SNIFF_MORE;
        if (buf[1] == 0)
                return SBX_SNIFF_BAD;
        if (len < 2u + buf[1])
                return SBX_SNIFF_MORE;
        *used = 2u + buf[1];
        return memchr(buf + 2, 0, buf[1]) ? SBX_SNIFF_OK : SBX_SNIFF_BAD;
}

int sbx_sniff_socks_request(const uint8_t *buf, size_t len, struct sbx_socks_req *out)
{
        size_t need;

        *out = (struct sbx_socks_req){ .host = "" };
        if (len >= 1 && buf[0] != 5)
                return SBX_SNIFF_BAD;
        if (len >= 3 && buf[2] != 0)
                return SBX_SNIFF_BAD;
        if (len < 5)
                return SBX_SNIFF_MORE;
        switch (buf[3]) {
        case 1:
                need = 4 + 4 + 2;
                break;
        case 4:
                need = 4 + 16 + 2;
                break;
        case 3:
                if (buf[4] == 0)
                        return SBX_SNIFF_BAD;
                need = 5u + buf[4] + 2;
                break;
        default:
                return SBX_SNIFF_BAD;
        }
        if (len < need)
                return SBX_SNIFF_MORE;
        out->cmd = buf[1];
        out->port = (uint16_t)(buf[need - 2] << 8 | buf[need - 1]);
        out->used = need;
        if (buf[3] == 3) {
                out->is_name = true;
                if (!host_ok((const char *)buf + 5, buf[4], out->host, true))
                        return SBX_SNIFF_BAD;
                /* A literal spelt as a name is that address. */
                if (sbx_ssrf_parse_literal(out->host, &out->addr)) {
                        out->is_name = false;
                        if (out->addr.ss_family == AF_INET)
                                ((struct sockaddr_in *)&out->addr)->sin_port = htons(out->port);
                        else
                                ((struct sockaddr_in6 *)&out->addr)->sin6_port = htons(out->port);
                }
                return SBX_SNIFF_OK;
        }
        if (buf[3] == 1) {
                struct sockaddr_in *a = (struct sockaddr_in *)&out->addr;
                a->sin_family = AF_INET;
                memcpy(&a->sin_addr, buf + 4, 4);
                a->sin_port = htons(out->port);
                inet_ntop(AF_INET, &a->sin_addr, out->host, sizeof(out->host));
        } else {
                struct sockaddr_in6 *a = (struct sockaddr_in6 *)&out->addr;
                a->sin6_family = AF_INET6;
                memcpy(&a->sin6_addr, buf + 4, 16);
                a->sin6_port = htons(out->port);
                inet_ntop(AF_INET6, &a->sin6_addr, out->host, sizeof(out->host));
        }
        return SBX_SNIFF_OK;
}

size_t sbx_socks_reply(uint8_t out[10], uint8_t code)
{
        static const uint8_t tmpl[10] = { 5, 0, 0, 1, 0, 0, 0, 0, 0, 0 };

        memcpy(out, tmpl, sizeof(tmpl));
        out[1] = code;
        return sizeof(tmpl);
}
