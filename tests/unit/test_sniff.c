/* SPDX-License-Identifier: MIT */
/* lib/sniff: the egress broker's TLS ClientHello, HTTP request head and SOCKS5
 * parsers, on real first flights (sniff-captures.h: openssl, curl, python, captured
 * in an empty network namespace) and on crafted hostile ones: every prefix of a valid
 * message is MORE, a hello split across records, every length field one too long and
 * one too short, names with NUL, case, dots and address literals, the size limits at
 * the byte, and each request-smuggling shape the HTTP parser refuses.
 *
 * How the captures were made (nothing left the machine):
 *   unshare -n sh -c 'ip link set lo up; python3 dump.py 4431 out.bin &
 *                     openssl s_client -servername x.example -connect 127.0.0.1:4431'
 * where dump.py accepts one connection and writes what it reads until idle (for SOCKS
 * it answers the greeting with 05 00 so that the client sends its request). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/sniff.h"
#include "sniff-captures.h"
#include "unit.h"

#define G "unit-sniff"
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- TLS ---- */

/* Every proper prefix of @b is MORE, and @b is OK with @sni (NULL: none). */
static int tls_ok_every_prefix(const uint8_t *b, size_t n, const char *sni)
{
        struct sbx_tls_hello h;

        for (size_t k = 0; k < n; k++)
                if (sbx_sniff_tls(b, k, &h) != SBX_SNIFF_MORE) {
                        printf("  prefix %zu/%zu: not MORE (%s)\n", k, n, h.why ? h.why : "-");
                        return 0;
                }
        if (sbx_sniff_tls(b, n, &h) != SBX_SNIFF_OK || h.record_len != n) {
                printf("  full: not OK (%s)\n", h.why ? h.why : "-");
                return 0;
        }
        if (sni ? !h.has_sni || strcmp(h.sni, sni) != 0 : h.has_sni || h.sni[0]) {
                printf("  sni '%s', want '%s'\n", h.sni, sni ? sni : "(none)");
                return 0;
        }
        return 1;
}

static int tls_is(const uint8_t *b, size_t n, int want, const char *why_part)
{
        struct sbx_tls_hello h;
        int r = sbx_sniff_tls(b, n, &h);

        if (r != want || (why_part && (!h.why || !strstr(h.why, why_part)))) {
                printf("  got %d (%s), want %d (%s)\n", r, h.why ? h.why : "-", want, why_part ? why_part : "-");
                return 0;
        }
        return 1;
}

static void put16(uint8_t *p, size_t v)
{
        p[0] = (uint8_t)(v >> 8);
        p[1] = (uint8_t)v;
}

/* Field offsets of a crafted hello, for the overflow cases. */
struct hello_at {
        size_t sid, ciphers, comp, exts, sni_ext, sni_list, sni_name;
};

/* A one-record ClientHello with a server_name extension holding @names (NUL-separated
 * list of @count names, each @lens long), then @extra (other extensions, raw). */
static size_t craft(uint8_t *b, const char *const *names, const size_t *lens, size_t count, const uint8_t *extra,
                    size_t extra_len, struct hello_at *at)
{
        size_t n = 9, ext0, list0;

        b[0] = 22, b[1] = 3, b[2] = 1;
        b[5] = 1;
        b[n++] = 3, b[n++] = 3;
        memset(b + n, 0xab, 32), n += 32;
        if (at)
                at->sid = n;
        b[n++] = 0;
        if (at)
                at->ciphers = n;
        put16(b + n, 4), n += 2;
        b[n++] = 0x13, b[n++] = 0x01, b[n++] = 0x13, b[n++] = 0x02;
        if (at)
                at->comp = n;
        b[n++] = 1, b[n++] = 0;
        if (at)
                at->exts = n;
        n += 2;
        ext0 = n;
        if (count) {
                if (at)
                        at->sni_ext = n;
                put16(b + n, 0), n += 2;
                n += 2;
                list0 = n;
                if (at)
                        at->sni_list = n;
                n += 2;
                for (size_t i = 0; i < count; i++) {
                        if (at && i == 0)
                                at->sni_name = n;
                        b[n++] = 0;
                        put16(b + n, lens[i]), n += 2;
                        memcpy(b + n, names[i], lens[i]), n += lens[i];
                }
                put16(b + list0, n - list0 - 2);
                put16(b + list0 - 2, n - list0);
        }
        if (extra_len)
                memcpy(b + n, extra, extra_len), n += extra_len;
        put16(b + ext0 - 2, n - ext0);
        b[6] = (uint8_t)((n - 9) >> 16), b[7] = (uint8_t)((n - 9) >> 8), b[8] = (uint8_t)(n - 9);
        put16(b + 3, n - 5);
        return n;
}

static size_t craft1(uint8_t *b, const char *name, struct hello_at *at)
{
        size_t len = strlen(name);
        return craft(b, &name, &len, 1, NULL, 0, at);
}

/* The SNI sniffed from a crafted hello naming @name (@len bytes), or NULL when BAD. */
static const char *sni_of(const char *name, size_t len)
{
        static struct sbx_tls_hello h;
        static uint8_t b[2048];
        size_t n = craft(b, &name, &len, 1, NULL, 0, NULL);

        return sbx_sniff_tls(b, n, &h) == SBX_SNIFF_OK && h.has_sni ? h.sni : NULL;
}

/* @src (one record) re-cut into two records at payload offset @cut. */
static size_t split2(const uint8_t *src, size_t n, size_t cut, uint8_t *out)
{
        size_t payload = n - 5;

        memcpy(out, src, 5);
        put16(out + 3, cut);
        memcpy(out + 5, src + 5, cut);
        memcpy(out + 5 + cut, src, 5);
        put16(out + 5 + cut + 3, payload - cut);
        memcpy(out + 10 + cut, src + 5 + cut, payload - cut);
        return n + 5;
}

/* A hello padded (extension 21) to exactly @total record bytes, in one record when it
 * fits 2^14, else in two. */
static size_t padded(uint8_t *b, size_t total)
{
        static uint8_t pad[40000], one[40000];
        size_t base = craft1(one, "x.example", NULL), two = total > 16384 + 5;
        size_t padlen = total - base - 4 - 5 * two, n;


        pad[0] = 0, pad[1] = 21;
        put16(pad + 2, padlen);
        memset(pad + 4, 0, padlen);
        if (!two)
                return craft(b, (const char *const[]){ "x.example" }, (const size_t[]){ 9 }, 1, pad, padlen + 4, NULL);
        /* The handshake message alone is bigger than a record: build it as one oversized
         * record, then cut it. */
        n = craft(one, (const char *const[]){ "x.example" }, (const size_t[]){ 9 }, 1, pad, padlen + 4, NULL);
        return split2(one, n, 8000, b);
}

static void test_tls(void)
{
        static uint8_t b[40000], c[40000];
        struct sbx_tls_hello h;
        struct hello_at at;
        size_t n;

        CHECK(G, "tls openssl: every prefix MORE, then OK", tls_ok_every_prefix(tls_openssl, N(tls_openssl), "x.example"));
        CHECK(G, "tls openssl -noservername: OK, no SNI", tls_ok_every_prefix(tls_openssl_nosni, N(tls_openssl_nosni), NULL));
        CHECK(G, "tls openssl 1.2: uppercase SNI normalised",
              tls_ok_every_prefix(tls_openssl_tls12, N(tls_openssl_tls12), "www.example.org"));
        CHECK(G, "tls curl", tls_ok_every_prefix(tls_curl, N(tls_curl), "registry.npmjs.org"));
        CHECK(G, "tls python", tls_ok_every_prefix(tls_python, N(tls_python), "files.pythonhosted.org"));
        CHECK(G, "tls openssl: no ECH, one name",
              sbx_sniff_tls(tls_openssl, N(tls_openssl), &h) == SBX_SNIFF_OK && !h.has_ech && !h.multiple_names &&
                      h.version == 0x0303);

        /* Bytes after the hello (a 0-RTT client's next records) are not the hello's. */
        memcpy(b, tls_curl, N(tls_curl));
        memcpy(b + N(tls_curl), "\x14\x03\x03\x00\x01\x01\x17\x03\x03", 9);
        CHECK(G, "tls records after the hello ignored",
              sbx_sniff_tls(b, N(tls_curl) + 9, &h) == SBX_SNIFF_OK && h.record_len == N(tls_curl) &&
                      !strcmp(h.sni, "registry.npmjs.org"));

        /* Split across two records at every payload offset; the prefixes of one cut. */
        int all = 1;
        for (size_t cut = 1; cut < N(tls_python) - 5; cut++) {
                n = split2(tls_python, N(tls_python), cut, b);
                all &= sbx_sniff_tls(b, n, &h) == SBX_SNIFF_OK && h.record_len == n &&
                       !strcmp(h.sni, "files.pythonhosted.org");
        }
        CHECK(G, "tls split across two records at every offset", all);
        n = split2(tls_python, N(tls_python), 100, b);
        CHECK(G, "tls split: every prefix MORE", tls_ok_every_prefix(b, n, "files.pythonhosted.org"));
        /* Three records, the name itself cut. */
        n = split2(tls_openssl, N(tls_openssl), 10, c);
        memcpy(b, c, 15);
        n = split2(c + 15, n - 15, 110, b + 15) + 15;
        CHECK(G, "tls three records", tls_ok_every_prefix(b, n, "x.example"));
        /* A second record of another type inside the hello. */
        n = split2(tls_openssl, N(tls_openssl), 50, b);
        b[55] = 23;
        CHECK(G, "tls application data record inside the hello", tls_is(b, n, SBX_SNIFF_BAD, "non-handshake"));

        /* A verdict does not change with a longer read (both found by fuzz_tls): a
         * hello too short for its own fields is BAD though a next record's header has
         * begun, and BAD before a record that would pass 16 KiB. */
        static const uint8_t short_hello[] = { 0x16, 3, 1, 0, 1, 1, 0x16, 3, 1, 0, 1, 0, 0x16, 3, 1, 0, 0x11, 0, 0x16,
                                               3, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x56, 0, 0x5d, 0x16 };
        int same = 1;
        for (size_t k = 22; k <= N(short_hello); k++)
                same &= sbx_sniff_tls(short_hello, k, &h) == SBX_SNIFF_BAD;
        CHECK(G, "tls verdict stable: BAD with a next record begun", same);
        memcpy(b, "\x16\x03\x01\x00\x08\x01\x00\x01\x00\x02\x00\x00\x00\x16\x03\x01\x40\x00", 18);
        CHECK(G, "tls verdict stable: BAD before TOO_BIG", tls_is(b, 13, SBX_SNIFF_BAD, NULL) && tls_is(b, 18, SBX_SNIFF_BAD, NULL));

        /* Not TLS. */
        CHECK(G, "tls SSLv2 hello", tls_is((const uint8_t *)"\x80\x2e\x01\x03\x01", 5, SBX_SNIFF_BAD, "SSLv2"));
        CHECK(G, "tls SSLv2 hello, first byte", tls_is((const uint8_t *)"\x80", 1, SBX_SNIFF_BAD, "SSLv2"));
        CHECK(G, "tls HTTP on 443 is BAD at the first byte", tls_is((const uint8_t *)"G", 1, SBX_SNIFF_BAD, NULL));
        CHECK(G, "tls alert record", tls_is((const uint8_t *)"\x15\x03\x01\x00\x02\x02\x28", 7, SBX_SNIFF_BAD, NULL));
        CHECK(G, "tls record version 2.x", tls_is((const uint8_t *)"\x16\x02", 2, SBX_SNIFF_BAD, "version"));
        CHECK(G, "tls empty record", tls_is((const uint8_t *)"\x16\x03\x01\x00\x00", 5, SBX_SNIFF_BAD, "empty"));
        CHECK(G, "tls record over 2^14", tls_is((const uint8_t *)"\x16\x03\x01\x40\x01", 5, SBX_SNIFF_BAD, "2^14"));
        CHECK(G, "tls ServerHello type", tls_is((const uint8_t *)"\x16\x03\x01\x00\x04\x02", 6, SBX_SNIFF_BAD, "ClientHello"));
        memcpy(b, tls_openssl, N(tls_openssl));
        b[9] = 2;
        CHECK(G, "tls hello version 2.x", tls_is(b, N(tls_openssl), SBX_SNIFF_BAD, "version"));

        /* Every length one too long and one too short, at every level. */
        n = craft1(b, "x.example", &at);
        CHECK(G, "tls crafted hello OK", tls_ok_every_prefix(b, n, "x.example"));
        struct {
                const char *what;
                size_t off, width;
        } fields[] = {
                { "session id", at.sid, 1 },     { "cipher suites", at.ciphers, 2 }, { "compression", at.comp, 1 },
                { "extensions", at.exts, 2 },    { "extension", at.sni_ext + 2, 2 }, { "server_name list", at.sni_list, 2 },
                { "host_name", at.sni_name + 1, 2 },
        };
        for (size_t f = 0; f < N(fields); f++) {
                for (int d = -1; d <= 1; d += 2) {
                        char name[80];
                        size_t off = fields[f].off;
                        memcpy(c, b, n);
                        if (fields[f].width == 1)
                                c[off] = (uint8_t)(c[off] + d);
                        else
                                put16(c + off, ((size_t)c[off] << 8 | c[off + 1]) + (size_t)d);
                        snprintf(name, sizeof(name), "tls %s length %s", fields[f].what, d > 0 ? "+1" : "-1");
                        CHECK(G, name, tls_is(c, n, SBX_SNIFF_BAD, NULL));
                }
        }
        /* The handshake length: one more is a hello still arriving (MORE), one less
         * leaves the record going on past it (BAD).  The record length likewise. */
        memcpy(c, b, n), c[8]++;
        CHECK(G, "tls handshake length +1: the extensions no longer fill it", tls_is(c, n, SBX_SNIFF_BAD, "extensions length"));
        memcpy(c, b, n), c[8] += 4, put16(c + at.exts, ((size_t)c[at.exts] << 8 | c[at.exts + 1]) + 4);
        CHECK(G, "tls handshake and extensions length +4: waits for the next record", tls_is(c, n, SBX_SNIFF_MORE, NULL));
        memcpy(c, b, n), c[8]--;
        CHECK(G, "tls handshake length -1", tls_is(c, n, SBX_SNIFF_BAD, "past the ClientHello"));
        memcpy(c, b, n), c[4]++;
        CHECK(G, "tls record length +1", tls_is(c, n, SBX_SNIFF_BAD, "past the ClientHello"));
        memcpy(c, b, n), c[4]--;
        CHECK(G, "tls record length -1: waits for the next record", tls_is(c, n - 1, SBX_SNIFF_MORE, NULL));
        memcpy(c, b, n), c[6] = 0xff;
        CHECK(G, "tls handshake length 16 MiB", tls_is(c, n, SBX_SNIFF_TOO_BIG, NULL));
        memcpy(c, b, n), c[at.sid] = 33;
        CHECK(G, "tls session id over 32", tls_is(c, n, SBX_SNIFF_BAD, "session id"));
        memcpy(c, b, n), put16(c + at.ciphers, 3);
        CHECK(G, "tls odd cipher suites", tls_is(c, n, SBX_SNIFF_BAD, "odd"));
        memcpy(c, b, n), c[at.sni_name] = 1;
        CHECK(G, "tls server name type 1", tls_is(c, n, SBX_SNIFF_BAD, "type"));

        /* A hello without extensions (TLS 1.0-1.2) names nothing. */
        n = craft(b, NULL, NULL, 0, NULL, 0, NULL);
        n -= 2, put16(b + 3, n - 5), b[8] = (uint8_t)(n - 9); /* drop the empty extensions block */
        CHECK(G, "tls hello without extensions: OK, no SNI", tls_ok_every_prefix(b, n, NULL));

        /* ECH, and two names in either form. */
        n = craft(b, (const char *const[]){ "public.example" }, (const size_t[]){ 14 }, 1,
                  (const uint8_t *)"\xfe\x0d\x00\x04\x00\x00\x01\x02", 8, NULL);
        CHECK(G, "tls ECH flagged", sbx_sniff_tls(b, n, &h) == SBX_SNIFF_OK && h.has_ech && !strcmp(h.sni, "public.example"));
        n = craft(b, NULL, NULL, 0, (const uint8_t *)"\xfe\x0d\x00\x00\xfe\x0d\x00\x00", 8, NULL);
        CHECK(G, "tls two ECH extensions", tls_is(b, n, SBX_SNIFF_BAD, "duplicate"));
        n = craft(b, (const char *const[]){ "a.example", "b.example" }, (const size_t[]){ 9, 9 }, 2, NULL, 0, NULL);
        CHECK(G, "tls two host_names", tls_is(b, n, SBX_SNIFF_BAD, "two host names") && (sbx_sniff_tls(b, n, &h), h.multiple_names));
        n = craft(b, (const char *const[]){ "a.example" }, (const size_t[]){ 9 }, 1,
                  (const uint8_t *)"\x00\x00\x00\x0e\x00\x0c\x00\x00\x09" "b.example", 18, NULL);
        CHECK(G, "tls two server_name extensions",
              tls_is(b, n, SBX_SNIFF_BAD, "duplicate") && (sbx_sniff_tls(b, n, &h), h.multiple_names));
        n = craft(b, (const char *const[]){ "a.example" }, (const size_t[]){ 9 }, 1, (const uint8_t *)"\x00\x0a\x00\x00\x00\x0a\x00\x00", 8, NULL);
        CHECK(G, "tls any duplicate extension", tls_is(b, n, SBX_SNIFF_BAD, "duplicate"));

        /* Names. */
        const char *s;
        CHECK(G, "sni uppercase lowered", (s = sni_of("WWW.Example.COM", 15)) && !strcmp(s, "www.example.com"));
        CHECK(G, "sni trailing dot dropped", (s = sni_of("x.example.", 10)) && !strcmp(s, "x.example"));
        CHECK(G, "sni two trailing dots", !sni_of("x.example..", 11));
        CHECK(G, "sni NUL inside", !sni_of("x.exa\0mple.com", 14));
        CHECK(G, "sni NUL at the end", !sni_of("x.example\0", 10));
        CHECK(G, "sni space", !sni_of("x example", 9));
        CHECK(G, "sni percent", !sni_of("x%2eexample", 11));
        CHECK(G, "sni slash", !sni_of("x.example/a", 11));
        CHECK(G, "sni non-ASCII", !sni_of("gith\xc3\xbc" "b.com", 11));
        CHECK(G, "sni empty label", !sni_of("x..example", 10));
        CHECK(G, "sni leading dot", !sni_of(".x.example", 10));
        CHECK(G, "sni IPv4 literal (RFC 6066)", !sni_of("192.0.2.1", 9));
        CHECK(G, "sni IPv4 in disguise", !sni_of("0x7f.1", 6) && !sni_of("2130706433", 10) && !sni_of("127.1", 5));
        CHECK(G, "sni IPv6 literal", !sni_of("::1", 3) && !sni_of("[::1]", 5));
        CHECK(G, "sni with a port", !sni_of("x.example:443", 13));
        char big[300];
        memset(big, 'a', sizeof(big));
        for (size_t i = 63; i < sizeof(big); i += 64)
                big[i] = '.';
        CHECK(G, "sni of 253 characters", (s = sni_of(big, 253)) && strlen(s) == 253);
        CHECK(G, "sni of 254 characters", !sni_of(big, 254) && !sni_of(big, 300));
        big[63] = 'a';
        CHECK(G, "sni label of 64", !sni_of(big, 100));
        n = craft(b, (const char *const[]){ "" }, (const size_t[]){ 0 }, 1, NULL, 0, NULL);
        CHECK(G, "sni empty", tls_is(b, n, SBX_SNIFF_BAD, "empty"));

        /* The 16 KiB limit counts the records' bytes. */
        n = padded(b, SBX_SNIFF_TLS_MAX);
        CHECK(G, "tls hello of exactly 16 KiB", n == SBX_SNIFF_TLS_MAX && tls_is(b, n, SBX_SNIFF_OK, NULL));
        n = padded(b, SBX_SNIFF_TLS_MAX + 1);
        CHECK(G, "tls hello of 16 KiB + 1", n == SBX_SNIFF_TLS_MAX + 1 && tls_is(b, n, SBX_SNIFF_TOO_BIG, "16 KiB"));
        CHECK(G, "tls hello of 16 KiB + 1: TOO_BIG from its header", tls_is(b, 9, SBX_SNIFF_TOO_BIG, "16 KiB"));
        n = padded(b, 20000);
        CHECK(G, "tls hello of 20000 in two records", n == 20000 && tls_is(b, n, SBX_SNIFF_TOO_BIG, "16 KiB"));
        /* Many small records: their headers count. */
        n = padded(c, 4000);
        size_t m = 0;
        for (size_t k = 0; k < 3000; k++) {
                memcpy(b + m, "\x16\x03\x01\x00\x01", 5);
                b[m + 5] = c[5 + k];
                m += 6;
        }
        CHECK(G, "tls 1-byte records past 16 KiB", tls_is(b, m, SBX_SNIFF_TOO_BIG, NULL));
        CHECK(G, "tls 1-byte records under 16 KiB: MORE", tls_is(b, 2730 * 6, SBX_SNIFF_MORE, NULL));
        n = craft1(c, "x.example", NULL);
        m = 0;
        for (size_t k = 0; k < n - 5; k++) {
                memcpy(b + m, "\x16\x03\x01\x00\x01", 5);
                b[m + 5] = c[5 + k];
                m += 6;
        }
        CHECK(G, "tls hello in 1-byte records", tls_ok_every_prefix(b, m, "x.example"));
}

/* ---- HTTP ---- */

/* http(req, want, why_part[, &head]) */
#define http(...) http_(__VA_ARGS__, NULL)
static int http_(const char *req, int want, const char *why_part, struct sbx_http_head *h, ...)
{
        struct sbx_http_head local;
        int r;

        h = h ? h : &local;
        r = sbx_sniff_http((const uint8_t *)req, strlen(req), h);
        if (r != want || (why_part && (!h->why || !strstr(h->why, why_part)))) {
                printf("  '%.60s': got %d (%s), want %d (%s)\n", req, r, h->why ? h->why : "-", want,
                       why_part ? why_part : "-");
                return 0;
        }
        return 1;
}

/* Every proper prefix MORE, the whole OK with @host, @port. */
static int http_ok_every_prefix(const uint8_t *b, size_t n, const char *host, uint16_t port, struct sbx_http_head *h)
{
        for (size_t k = 0; k < n; k++)
                if (sbx_sniff_http(b, k, h) != SBX_SNIFF_MORE) {
                        printf("  prefix %zu: not MORE (%s)\n", k, h->why ? h->why : "-");
                        return 0;
                }
        if (sbx_sniff_http(b, n, h) != SBX_SNIFF_OK || h->head_len != n || strcmp(h->host, host) != 0 ||
            h->port != port) {
                printf("  got host '%s' port %u (%s)\n", h->host, h->port, h->why ? h->why : "-");
                return 0;
        }
        return 1;
}

/* @req (absolute-form) rewritten is exactly @want. */
static int rewrites_n(const uint8_t *req, size_t len, const char *want)
{
        struct sbx_http_head h;
        uint8_t out[1024];
        ssize_t n;

        if (sbx_sniff_http(req, len, &h) != SBX_SNIFF_OK) {
                printf("  '%.*s': %s\n", (int)len, req, h.why);
                return 0;
        }
        n = sbx_http_origin_form(req, &h, out, sizeof(out));
        if (n != (ssize_t)strlen(want) || memcmp(out, want, (size_t)n) != 0) {
                printf("  got '%.*s'\n", n > 0 ? (int)n : 0, out);
                return 0;
        }
        /* The rewritten head is a valid origin-form head for the same host. */
        struct sbx_http_head o;
        return sbx_sniff_http(out, (size_t)n, &o) == SBX_SNIFF_OK && !o.absolute && !strcmp(o.host, h.host);
}

static int rewrites(const char *req, const char *want)
{
        return rewrites_n((const uint8_t *)req, strlen(req), want);
}

static void test_http(void)
{
        static uint8_t big[SBX_SNIFF_HTTP_MAX + 100];
        struct sbx_http_head h;

        CHECK(G, "http curl absolute-form",
              http_ok_every_prefix(http_curl_absolute, N(http_curl_absolute), "x.example", 0, &h) && h.absolute &&
                      !h.connect && !strcmp(h.method, "GET") &&
                      !memcmp(http_curl_absolute + h.path_off, "/a/b?c=d", h.path_len) && h.path_len == 8);
        CHECK(G, "http curl CONNECT",
              http_ok_every_prefix(http_curl_connect, N(http_curl_connect), "x.example", 8443, &h) && h.connect &&
                      !h.absolute);
        CHECK(G, "http curl CONNECT https",
              http_ok_every_prefix(http_curl_connect_https, N(http_curl_connect_https), "pypi.org", 443, &h));
        CHECK(G, "http curl CONNECT IPv6",
              http_ok_every_prefix(http_curl_connect_v6, N(http_curl_connect_v6), "2001:db8::1", 8443, &h) &&
                      h.family == AF_INET6);
        CHECK(G, "http curl origin-form, Host with port",
              http_ok_every_prefix(http_curl_origin, N(http_curl_origin), "x.example", 8080, &h) && !h.absolute &&
                      h.family == 0);
        CHECK(G, "http python absolute-form",
              http_ok_every_prefix(http_python_absolute, N(http_python_absolute), "x.example", 0, &h) && h.absolute);
        CHECK(G, "http python CONNECT without Host (HTTP/1.0)",
              http_ok_every_prefix(http_python_connect, N(http_python_connect), "pypi.org", 443, &h) && !h.has_host &&
                      h.minor == 0);

        /* Rewriting absolute-form to origin-form. */
        CHECK(G, "rewrite curl: path and query, Proxy-Connection dropped, Connection: close",
              rewrites_n(http_curl_absolute, N(http_curl_absolute), "GET /a/b?c=d HTTP/1.1\r\nHost: x.example\r\nUser-Agent: curl/7.88.1\r\n"
                                                         "Accept: */*\r\nConnection: close\r\n\r\n"));
        CHECK(G, "rewrite python: its Connection line replaced",
              rewrites_n(http_python_absolute, N(http_python_absolute), "GET /p?q=1 HTTP/1.1\r\nAccept-Encoding: identity\r\nHost: x.example\r\n"
                                                           "User-Agent: Python-urllib/3.11\r\nConnection: close\r\n\r\n"));
        CHECK(G, "rewrite empty path", rewrites("GET http://x.example HTTP/1.1\r\nHost: x.example\r\n\r\n",
                                                "GET / HTTP/1.1\r\nHost: x.example\r\nConnection: close\r\n\r\n"));
        CHECK(G, "rewrite query without path", rewrites("GET http://x.example?q=1 HTTP/1.1\r\nHost: x.example\r\n\r\n",
                                                        "GET /?q=1 HTTP/1.1\r\nHost: x.example\r\nConnection: close\r\n\r\n"));
        CHECK(G, "rewrite drops Proxy-Authorization, any case, keeps the rest",
              rewrites("POST http://x.example/u HTTP/1.0\r\nproxy-AUTHORIZATION: Basic eDp5\r\nContent-Length: 2\r\n"
                       "Keep-Alive: 5\r\nProxy-Connection: keep-alive\r\n\r\n",
                       "POST /u HTTP/1.0\r\nContent-Length: 2\r\nHost: x.example\r\nConnection: close\r\n\r\n"));
        CHECK(G, "rewrite adds the missing Host with port and brackets",
              rewrites("GET http://[2001:db8::1]:8080/ HTTP/1.0\r\n\r\n",
                       "GET / HTTP/1.0\r\nHost: [2001:db8::1]:8080\r\nConnection: close\r\n\r\n"));
        const char *abs = "GET http://x.example/p HTTP/1.1\r\nHost: x.example\r\n\r\n";
        const char *want = "GET /p HTTP/1.1\r\nHost: x.example\r\nConnection: close\r\n\r\n";
        uint8_t out[200];
        sbx_sniff_http((const uint8_t *)abs, strlen(abs), &h);
        CHECK(G, "rewrite exact capacity",
              sbx_http_origin_form((const uint8_t *)abs, &h, out, strlen(want)) == (ssize_t)strlen(want));
        int enospc = 1;
        for (size_t cap = 0; cap < strlen(want); cap++)
                enospc &= sbx_http_origin_form((const uint8_t *)abs, &h, out, cap) == -ENOSPC;
        CHECK(G, "rewrite -ENOSPC at every smaller capacity", enospc);
        sbx_sniff_http(http_curl_origin, N(http_curl_origin), &h);
        CHECK(G, "rewrite refuses origin-form", sbx_http_origin_form(http_curl_origin, &h, out, sizeof(out)) == -EINVAL);

        /* Authorities. */
        CHECK(G, "http CONNECT without port", http("CONNECT x.example HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "port"));
        CHECK(G, "http CONNECT with port 0", http("CONNECT x.example:0 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "port"));
        CHECK(G, "http CONNECT port 65536", http("CONNECT x.example:65536 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "port"));
        CHECK(G, "http CONNECT port of 6 digits", http("CONNECT x.example:000443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "port"));
        CHECK(G, "http CONNECT empty port", http("CONNECT x.example: HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "port"));
        CHECK(G, "http CONNECT absolute URL", http("CONNECT http://x.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http CONNECT IPv4", http("CONNECT 192.0.2.1:22 HTTP/1.1\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                                              h.family == AF_INET && h.port == 22);
        CHECK(G, "http CONNECT IPv6 unbracketed", http("CONNECT 2001:db8::1:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http CONNECT IPv6 zone", http("CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http CONNECT IPv4 in brackets", http("CONNECT [192.0.2.1]:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http CONNECT IPv6 non-canonical normalised",
              http("CONNECT [2001:DB8:0::0001]:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_OK, NULL, &h) && !strcmp(h.host, "2001:db8::1"));
        CHECK(G, "http CONNECT exotic IPv4", http("CONNECT 0x7f.1:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL) &&
                                                     http("CONNECT 2130706433:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL) &&
                                                     http("CONNECT 127.1:443 HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http CONNECT uppercase, trailing dot",
              http("CONNECT X.Example.:443 HTTP/1.1\r\nHost: x.example:443\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                      !strcmp(h.host, "x.example"));
        CHECK(G, "http absolute IPv6 with port",
              http("GET http://[2001:db8::1]:8080/x HTTP/1.1\r\nHost: [2001:db8::1]:8080\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                      !strcmp(h.host, "2001:db8::1") && h.port == 8080 && h.family == AF_INET6);
        CHECK(G, "http origin-form Host IPv6",
              http("GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n", SBX_SNIFF_OK, NULL, &h) && !strcmp(h.host, "::1") && h.port == 0);
        CHECK(G, "http origin-form Host IPv4", http("GET / HTTP/1.1\r\nHost: 192.0.2.1:80\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                                                       h.family == AF_INET && h.port == 80);
        CHECK(G, "http Host OWS trimmed", http("GET / HTTP/1.1\r\nHost: \t x.example \t\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                                                  !strcmp(h.host, "x.example"));
        CHECK(G, "http Host exotic IPv4", http("GET / HTTP/1.1\r\nHost: 0x7f000001\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http Host empty", http("GET / HTTP/1.1\r\nHost: \r\n\r\n", SBX_SNIFF_BAD, "empty"));
        CHECK(G, "http Host with path", http("GET / HTTP/1.1\r\nHost: x.example/a\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http Host with userinfo", http("GET / HTTP/1.1\r\nHost: u@x.example\r\n\r\n", SBX_SNIFF_BAD, "userinfo"));

        /* Refusals: the request-smuggling and confusion shapes. */
        CHECK(G, "http two Host headers", http("GET / HTTP/1.1\r\nHost: a.example\r\nhost: a.example\r\n\r\n",
                                               SBX_SNIFF_BAD, "more than one Host"));
        CHECK(G, "http two Host headers in absolute-form",
              http("GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\nHOST: b.example\r\n\r\n", SBX_SNIFF_BAD, "more than one"));
        CHECK(G, "http Host disagrees with absolute URL",
              http("GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n", SBX_SNIFF_BAD, "another host"));
        CHECK(G, "http Host disagrees on the port",
              http("GET http://a.example:8080/ HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_BAD, "another port"));
        CHECK(G, "http Host :80 agrees with no port",
              http("GET http://a.example/ HTTP/1.1\r\nHost: a.example:80\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http Host disagrees with CONNECT",
              http("CONNECT a.example:443 HTTP/1.1\r\nHost: b.example:443\r\n\r\n", SBX_SNIFF_BAD, "another host"));
        CHECK(G, "http Host port disagrees with CONNECT",
              http("CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:22\r\n\r\n", SBX_SNIFF_BAD, "another port"));
        CHECK(G, "http CONNECT Host without port agrees",
              http("CONNECT a.example:443 HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http obs-fold", http("GET / HTTP/1.1\r\nHost: a.example\r\nX: 1\r\n 2\r\n\r\n", SBX_SNIFF_BAD, "folding"));
        CHECK(G, "http obs-fold with tab", http("GET / HTTP/1.1\r\nHost: a.example\r\n\tX: 1\r\n\r\n", SBX_SNIFF_BAD, "folding"));
        CHECK(G, "http space before colon", http("GET / HTTP/1.1\r\nHost : b.example\r\n\r\n", SBX_SNIFF_BAD, "before a header's colon"));
        CHECK(G, "http tab before colon", http("GET / HTTP/1.1\r\nHost\t: b.example\r\n\r\n", SBX_SNIFF_BAD, "before"));
        CHECK(G, "http space before colon, early", http("GET / HTTP/1.1\r\nHost ", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http empty header name", http("GET / HTTP/1.1\r\n: x\r\n\r\n", SBX_SNIFF_BAD, "empty header name"));
        CHECK(G, "http header without colon", http("GET / HTTP/1.1\r\nHost a.example\r\n\r\n", SBX_SNIFF_BAD, NULL));
        const char nul_value[] = "GET / HTTP/1.1\r\nHost: a.example\r\nX: a\0b\r\n\r\n";
        CHECK(G, "http NUL in a header value",
              sbx_sniff_http((const uint8_t *)nul_value, sizeof(nul_value) - 1, &h) == SBX_SNIFF_BAD);
        const char nul_host[] = "GET / HTTP/1.1\r\nHost: a.example\0.evil\r\n\r\n";
        CHECK(G, "http NUL in Host", sbx_sniff_http((const uint8_t *)nul_host, sizeof(nul_host) - 1, &h) == SBX_SNIFF_BAD);
        const char nul_target[] = "GET /\0 HTTP/1.1\r\n\r\n";
        CHECK(G, "http NUL in the target",
              sbx_sniff_http((const uint8_t *)nul_target, sizeof(nul_target) - 1, &h) == SBX_SNIFF_BAD);
        CHECK(G, "http control character in a value", http("GET / HTTP/1.1\r\nX: a\x01z\r\n\r\n", SBX_SNIFF_BAD, "control"));
        CHECK(G, "http DEL in a value", http("GET / HTTP/1.1\r\nX: a\x7fz\r\n\r\n", SBX_SNIFF_BAD, "control"));
        CHECK(G, "http obs-text in a value is fine",
              http("GET / HTTP/1.1\r\nHost: a.example\r\nX: caf\xc3\xa9\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http non-ASCII Host", http("GET / HTTP/1.1\r\nHost: caf\xc3\xa9.example\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http bare LF everywhere", http("GET / HTTP/1.1\nHost: a.example\n\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http bare LF in a header", http("GET / HTTP/1.1\r\nHost: a.example\nX: y\r\n\r\n", SBX_SNIFF_BAD, "bare LF"));
        CHECK(G, "http bare LF ending the head", http("GET / HTTP/1.1\r\nHost: a.example\r\n\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http lone CR in a header", http("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", SBX_SNIFF_BAD, "CR without LF"));
        CHECK(G, "http missing Host, HTTP/1.1 origin-form",
              http("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", SBX_SNIFF_BAD, "without a Host"));
        CHECK(G, "http missing Host, HTTP/1.0: OK, no host",
              http("GET / HTTP/1.0\r\n\r\n", SBX_SNIFF_OK, NULL, &h) && h.host[0] == '\0' && !h.has_host);
        CHECK(G, "http userinfo", http("GET http://user@a.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "userinfo"));
        CHECK(G, "http userinfo with password", http("GET http://u:p@a.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "userinfo"));
        CHECK(G, "http userinfo, the real host first",
              http("GET http://a.example:80@evil.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "userinfo"));
        CHECK(G, "http '@' after the authority is a path",
              http("GET http://a.example/@evil HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                      !strcmp(h.host, "a.example"));
        CHECK(G, "http backslash in the authority", http("GET http://evil.example\\.a.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http percent in the authority", http("GET http://%61.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http https:// absolute", http("GET https://a.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "not http://"));
        CHECK(G, "http ftp:// absolute", http("GET ftp://a.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "not http://"));
        CHECK(G, "http scheme-relative", http("GET //a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                                                 !h.absolute && !strcmp(h.host, "a.example"));
        CHECK(G, "http HTTP:// uppercase scheme", http("GET HTTP://A.example/ HTTP/1.1\r\n\r\n", SBX_SNIFF_OK, NULL, &h) &&
                                                          h.absolute && !strcmp(h.host, "a.example"));
        CHECK(G, "http empty authority", http("GET http:///x HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http fragment", http("GET http://a.example/#x HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, "fragment"));
        CHECK(G, "http OPTIONS *", http("OPTIONS * HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http GET *", http("GET * HTTP/1.1\r\nHost: a.example\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http method token charset", http("GE(T / HTTP/1.1\r\n", SBX_SNIFF_BAD, "method"));
        CHECK(G, "http method of 15", http("ABCDEFGHIJKLMNO / HTTP/1.1\r\nHost: a\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http method of 16", http("ABCDEFGHIJKLMNOP", SBX_SNIFF_BAD, "15"));
        CHECK(G, "http lowercase method is a token", http("get / HTTP/1.1\r\nHost: a\r\n\r\n", SBX_SNIFF_OK, NULL));
        CHECK(G, "http empty method", http(" / HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http two spaces", http("GET  / HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http tab separator", http("GET\t/ HTTP/1.1\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http HTTP/2 preface", http("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http HTTP/0.9", http("GET /\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http lowercase version", http("GET / http/1.1\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http text after the version", http("GET / HTTP/1.1 \r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http empty line before the request", http("\r\nGET / HTTP/1.1\r\n", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http TLS on port 80 is BAD at the first byte", http("\x16", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http SOCKS on the proxy port is BAD at the first byte", http("\x05", SBX_SNIFF_BAD, NULL));
        CHECK(G, "http body after the head is not the head's",
              http("POST / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 5\r\n\r\nhello", SBX_SNIFF_OK, NULL, &h) &&
                      h.head_len == strlen("POST / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 5\r\n\r\n"));

        /* The 8 KiB limit, at the byte. */
        const char *head = "GET / HTTP/1.1\r\nHost: a.example\r\nX: ";
        size_t hn = strlen(head);
        memcpy(big, head, hn);
        memset(big + hn, 'v', sizeof(big) - hn);
        memcpy(big + SBX_SNIFF_HTTP_MAX - 4, "\r\n\r\n", 4);
        CHECK(G, "http head of exactly 8 KiB",
              sbx_sniff_http(big, SBX_SNIFF_HTTP_MAX, &h) == SBX_SNIFF_OK && h.head_len == SBX_SNIFF_HTTP_MAX);
        CHECK(G, "http head of 8 KiB, more bytes after",
              sbx_sniff_http(big, sizeof(big), &h) == SBX_SNIFF_OK && h.head_len == SBX_SNIFF_HTTP_MAX);
        memset(big + hn, 'v', sizeof(big) - hn);
        memcpy(big + SBX_SNIFF_HTTP_MAX - 3, "\r\n\r\n", 4);
        CHECK(G, "http head of 8 KiB + 1", sbx_sniff_http(big, SBX_SNIFF_HTTP_MAX + 1, &h) == SBX_SNIFF_TOO_BIG);
        CHECK(G, "http 8 KiB - 1 without an end: MORE", sbx_sniff_http(big, SBX_SNIFF_HTTP_MAX - 1, &h) == SBX_SNIFF_MORE);
        CHECK(G, "http 8 KiB without an end: TOO_BIG", sbx_sniff_http(big, SBX_SNIFF_HTTP_MAX, &h) == SBX_SNIFF_TOO_BIG);
}

/* ---- SOCKS5 ---- */

static int socks_req(const uint8_t *b, size_t n, int want, struct sbx_socks_req *r)
{
        for (size_t k = 0; k < n && want == SBX_SNIFF_OK; k++)
                if (sbx_sniff_socks_request(b, k, r) != SBX_SNIFF_MORE) {
                        printf("  prefix %zu: not MORE (%s)\n", k, r->why ? r->why : "-");
                        return 0;
                }
        int got = sbx_sniff_socks_request(b, n, r);
        if (got != want) {
                printf("  got %d (%s), want %d\n", got, r->why ? r->why : "-", want);
                return 0;
        }
        return want != SBX_SNIFF_OK || r->used == n;
}

static void test_socks(void)
{
        struct sbx_socks_req r;
        uint8_t rep[10];
        size_t used = 99;
        int all = 1;

        for (size_t k = 0; k < 4; k++)
                all &= sbx_sniff_socks_greeting(socks_curl_name, k, &used) == SBX_SNIFF_MORE;
        CHECK(G, "socks curl greeting: prefixes MORE, then OK",
              all && sbx_sniff_socks_greeting(socks_curl_name, N(socks_curl_name), &used) == SBX_SNIFF_OK && used == 4);
        CHECK(G, "socks greeting, no auth only",
              sbx_sniff_socks_greeting((const uint8_t *)"\x05\x01\x00", 3, &used) == SBX_SNIFF_OK && used == 3);
        CHECK(G, "socks greeting without method 0",
              sbx_sniff_socks_greeting((const uint8_t *)"\x05\x02\x01\x02", 4, &used) == SBX_SNIFF_BAD);
        CHECK(G, "socks greeting with no method", sbx_sniff_socks_greeting((const uint8_t *)"\x05\x00", 2, &used) == SBX_SNIFF_BAD);
        CHECK(G, "socks 4 greeting", sbx_sniff_socks_greeting((const uint8_t *)"\x04\x01\x00\x50", 4, &used) == SBX_SNIFF_BAD);
        CHECK(G, "socks greeting of 255 methods, method 0 last", ({
                      uint8_t g[257] = { 5, 255 };
                      memset(g + 2, 2, 255);
                      g[256] = 0;
                      sbx_sniff_socks_greeting(g, 256, &used) == SBX_SNIFF_MORE &&
                              sbx_sniff_socks_greeting(g, 257, &used) == SBX_SNIFF_OK && used == 257;
              }));

        const uint8_t *name = socks_curl_name + 4, *v4 = socks_curl_v4 + 4, *v6 = socks_curl_v6 + 4;
        CHECK(G, "socks curl ATYP 3",
              socks_req(name, N(socks_curl_name) - 4, SBX_SNIFF_OK, &r) && r.cmd == 1 && r.is_name &&
                      !strcmp(r.host, "x.example") && r.port == 80 && r.addr.ss_family == 0);
        CHECK(G, "socks curl ATYP 1",
              socks_req(v4, N(socks_curl_v4) - 4, SBX_SNIFF_OK, &r) && !r.is_name && !strcmp(r.host, "192.0.2.7") &&
                      r.port == 8080 && r.addr.ss_family == AF_INET &&
                      ((struct sockaddr_in *)&r.addr)->sin_port == htons(8080));
        CHECK(G, "socks curl ATYP 4",
              socks_req(v6, N(socks_curl_v6) - 4, SBX_SNIFF_OK, &r) && !r.is_name && !strcmp(r.host, "2001:db8::1") &&
                      r.port == 80 && r.addr.ss_family == AF_INET6 &&
                      ((struct sockaddr_in6 *)&r.addr)->sin6_port == htons(80));
        CHECK(G, "socks name with NUL", socks_req((const uint8_t *)"\x05\x01\x00\x03\x05" "a\0.bc\x00\x50", 12, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks name with space", socks_req((const uint8_t *)"\x05\x01\x00\x03\x05" "a .bc\x00\x50", 12, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks name with NUL: BAD before the port", socks_req((const uint8_t *)"\x05\x01\x00\x03\x02" "a\0", 7, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks empty name", socks_req((const uint8_t *)"\x05\x01\x00\x03\x00\x00\x50", 7, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks name normalised",
              socks_req((const uint8_t *)"\x05\x01\x00\x03\x0aX.Example.\x01\xbb", 17, SBX_SNIFF_OK, &r) &&
                      !strcmp(r.host, "x.example") && r.port == 443);
        CHECK(G, "socks name that is an IPv4 address",
              socks_req((const uint8_t *)"\x05\x01\x00\x03\x09" "192.0.2.1\x00\x16", 16, SBX_SNIFF_OK, &r) && !r.is_name &&
                      r.addr.ss_family == AF_INET && ((struct sockaddr_in *)&r.addr)->sin_port == htons(22));
        CHECK(G, "socks name that is an IPv6 address",
              socks_req((const uint8_t *)"\x05\x01\x00\x03\x03::1\x00\x16", 10, SBX_SNIFF_OK, &r) && !r.is_name &&
                      r.addr.ss_family == AF_INET6 && !strcmp(r.host, "::1"));
        CHECK(G, "socks name that is an address in disguise",
              socks_req((const uint8_t *)"\x05\x01\x00\x03\x06" "0x7f.1\x00\x16", 13, SBX_SNIFF_BAD, &r) &&
                      socks_req((const uint8_t *)"\x05\x01\x00\x03\x0a" "2130706433\x00\x16", 17, SBX_SNIFF_BAD, &r));
        uint8_t long_name[5 + 255 + 2] = { 5, 1, 0, 3, 255 };
        memset(long_name + 5, 'a', 255);
        for (size_t i = 5 + 63; i < 5 + 255; i += 64)
                long_name[i] = '.';
        long_name[260] = 0, long_name[261] = 80;
        CHECK(G, "socks name of 255", socks_req(long_name, sizeof(long_name), SBX_SNIFF_BAD, &r));
        long_name[4] = 253;
        long_name[258] = 0, long_name[259] = 80;
        CHECK(G, "socks name of 253", socks_req(long_name, 260, SBX_SNIFF_OK, &r) && strlen(r.host) == 253);
        CHECK(G, "socks ATYP 2", socks_req((const uint8_t *)"\x05\x01\x00\x02", 4, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks RSV 1", socks_req((const uint8_t *)"\x05\x01\x01", 3, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks version 4", socks_req((const uint8_t *)"\x04", 1, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks port 0", socks_req((const uint8_t *)"\x05\x01\x00\x01\xc0\x00\x02\x01\x00\x00", 10, SBX_SNIFF_BAD, &r));
        CHECK(G, "socks BIND returned for the broker to refuse",
              socks_req((const uint8_t *)"\x05\x02\x00\x01\xc0\x00\x02\x01\x00\x50", 10, SBX_SNIFF_OK, &r) && r.cmd == 2);
        CHECK(G, "socks request followed by data",
              sbx_sniff_socks_request((const uint8_t *)"\x05\x01\x00\x01\xc0\x00\x02\x01\x00\x50GET", 13, &r) == SBX_SNIFF_OK &&
                      r.used == 10);

        CHECK(G, "socks reply", sbx_socks_reply(rep, 2) == 10 && !memcmp(rep, "\x05\x02\x00\x01\0\0\0\0\0\0", 10));
}

int main(void)
{
        test_tls();
        test_http();
        test_socks();
        return unit_failed ? 1 : 0;
}
