/* SPDX-License-Identifier: MIT */
/* Fuzzes the HTTP request-head sniffer and the origin-form rewrite (lib/sniff).
 * Besides crashes and reads past the buffer, it aborts on a broken promise: a result
 * outside the four codes; a refusal without its reason; an OK whose head is past the
 * input or the limit, does not end in CRLF CRLF, or holds a byte the parser refuses
 * (NUL, a bare LF); a host that is neither a normalised name nor an address in its
 * one spelling; a CONNECT without a port; an HTTP/1.1 origin-form head without Host;
 * a rewrite that fails with room to spare, succeeds without room, still carries a
 * Proxy-Authorization line, or is not an origin-form head for the same host and port;
 * a prefix whose final verdict differs from the whole input's. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../lib/netrule.h"
#include "../../lib/sniff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_host(const struct sbx_http_head *h)
{
        char n[SBX_NETNAME_MAX + 1], text[INET6_ADDRSTRLEN];
        unsigned char a[16];
        const char *why;

        if (h->family == 0) {
                if (h->host[0] && (sbx_netname_normalize(h->host, n, &why) < 0 || strcmp(n, h->host) != 0))
                        abort();
                if (inet_pton(AF_INET, h->host, a) == 1)
                        abort();
        } else if (inet_pton(h->family, h->host, a) != 1 || !inet_ntop(h->family, a, text, sizeof(text)) ||
                   strcmp(text, h->host) != 0)
                abort();
}

static void check_rewrite(const uint8_t *data, const struct sbx_http_head *h)
{
        static uint8_t out[SBX_SNIFF_HTTP_MAX + 512];
        struct sbx_http_head o;
        ssize_t n = sbx_http_origin_form(data, h, out, sizeof(out));

        if (n < 0)
                abort(); /* an 8 KiB head and a Host and Connection line always fit */
        if (sbx_http_origin_form(data, h, out, (size_t)n - 1) != -ENOSPC)
                abort();
        if (sbx_sniff_http(out, (size_t)n, &o) != SBX_SNIFF_OK && (size_t)n <= SBX_SNIFF_HTTP_MAX)
                abort();
        if ((size_t)n > SBX_SNIFF_HTTP_MAX)
                return;
        if (o.absolute || o.connect || o.head_len != (size_t)n || strcmp(o.host, h->host) != 0 ||
            strcmp(o.method, h->method) != 0 || (o.port ? o.port : 80) != (h->port ? h->port : 80))
                abort();
        for (size_t i = 0; i + 20 < (size_t)n; i++)
                if (out[i] == '\n' && !strncasecmp((const char *)out + i + 1, "proxy-authorization:", 20))
                        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct sbx_http_head h, p;
        int r = sbx_sniff_http(data, size, &h), rp;
        size_t cut = size ? data[size - 1] * 37 % size : 0;

        if (r < SBX_SNIFF_TOO_BIG || r > SBX_SNIFF_OK)
                abort();
        if ((r == SBX_SNIFF_BAD || r == SBX_SNIFF_TOO_BIG) && !h.why)
                abort();
        if (r == SBX_SNIFF_OK) {
                if (h.head_len < 16 || h.head_len > size || h.head_len > SBX_SNIFF_HTTP_MAX ||
                    memcmp(data + h.head_len - 4, "\r\n\r\n", 4) != 0)
                        abort();
                if (memchr(data, 0, h.head_len))
                        abort();
                for (size_t i = 0; i < h.head_len; i++)
                        if ((data[i] == '\n') != (i > 0 && data[i - 1] == '\r'))
                                abort(); /* a bare LF, or a CR not before LF */
                check_host(&h);
                if (h.connect && (h.port == 0 || h.absolute))
                        abort();
                if (!h.connect && !h.absolute && !h.has_host && h.minor >= 1)
                        abort();
                if (h.absolute)
                        check_rewrite(data, &h);
                else if (sbx_http_origin_form(data, &h, (uint8_t[64]){ 0 }, 64) != -EINVAL)
                        abort();
        }
        rp = sbx_sniff_http(data, cut, &p);
        if (rp != SBX_SNIFF_MORE && rp != r)
                abort();
        if (rp == SBX_SNIFF_OK && p.head_len != h.head_len)
                abort();
        return 0;
}
