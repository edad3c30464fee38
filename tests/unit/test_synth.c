/* SPDX-License-Identifier: MIT */
/* lib/synth: addresses allocated in order and stable, both directions of the map,
 * IPv4-mapped lookups, the ranges' edges, refused names, and a full pool. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

#include "../../lib/synth.h"
#include "unit.h"

#define G "unit-synth"

static socklen_t sa_of(const char *text, struct sockaddr_storage *ss)
{
        memset(ss, 0, sizeof(*ss));
        if (strchr(text, ':')) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
                in6->sin6_family = AF_INET6;
                in6->sin6_port = htons(443);
                if (inet_pton(AF_INET6, text, &in6->sin6_addr) != 1)
                        abort();
                return sizeof(*in6);
        }
        struct sockaddr_in *in = (struct sockaddr_in *)ss;
        in->sin_family = AF_INET;
        in->sin_port = htons(80);
        if (inet_pton(AF_INET, text, &in->sin_addr) != 1)
                abort();
        return sizeof(*in);
}

static const char *name_of(const struct sbx_synth *s, const char *addr)
{
        struct sockaddr_storage ss;
        socklen_t len = sa_of(addr, &ss);

        return sbx_synth_name(s, (struct sockaddr *)&ss, len);
}

static bool in_pool(const char *addr)
{
        struct sockaddr_storage ss;
        socklen_t len = sa_of(addr, &ss);

        return sbx_synth_in_pool((struct sockaddr *)&ss, len);
}

static bool got(struct sbx_synth *s, const char *name, const char *v4, const char *v6)
{
        struct in_addr a;
        struct in6_addr a6;
        char t4[INET_ADDRSTRLEN], t6[INET6_ADDRSTRLEN];

        if (sbx_synth_get(s, name, &a, &a6) != 0)
                return false;
        inet_ntop(AF_INET, &a, t4, sizeof(t4));
        inet_ntop(AF_INET6, &a6, t6, sizeof(t6));
        if (strcmp(t4, v4) != 0 || strcmp(t6, v6) != 0) {
                printf("  %s: %s %s\n", name, t4, t6);
                return false;
        }
        return true;
}

static void test_basic(void)
{
        struct sbx_synth *s = NULL, *s2 = NULL;
        const char *n;

        CHECK(G, "new", sbx_synth_new(&s) == 0 && s && sbx_synth_new(&s2) == 0);
        CHECK(G, "first name gets .1 and ::1", got(s, "registry.npmjs.org", "198.18.0.1", "fd5b:7800::1"));
        CHECK(G, "second name gets .2", got(s, "pypi.org", "198.18.0.2", "fd5b:7800::2"));
        CHECK(G, "the same name again: the same addresses", got(s, "registry.npmjs.org", "198.18.0.1", "fd5b:7800::1"));
        CHECK(G, "v4 and v6 may be NULL", sbx_synth_get(s, "pypi.org", NULL, NULL) == 0 && sbx_synth_count(s) == 2);
        CHECK(G, "a second pool is independent", got(s2, "pypi.org", "198.18.0.1", "fd5b:7800::1"));

        CHECK(G, "v4 maps back", (n = name_of(s, "198.18.0.2")) && strcmp(n, "pypi.org") == 0);
        CHECK(G, "v6 maps back", (n = name_of(s, "fd5b:7800::1")) && strcmp(n, "registry.npmjs.org") == 0);
        CHECK(G, "IPv4-mapped maps back as its IPv4",
              (n = name_of(s, "::ffff:198.18.0.2")) && strcmp(n, "pypi.org") == 0);
        CHECK(G, "unallocated pool address: no name", !name_of(s, "198.18.0.3") && !name_of(s, "fd5b:7800::3"));
        CHECK(G, "the range's base is no name", !name_of(s, "198.18.0.0") && !name_of(s, "fd5b:7800::"));
        CHECK(G, "outside the pool: no name",
              !name_of(s, "10.0.0.1") && !name_of(s, "::ffff:10.0.0.1") && !name_of(s, "fd5b:7801::1") &&
                      !name_of(s, "fd5b:7800:0:1::1") && !name_of(s, "::198.18.0.1"));
        CHECK(G, "the same index in another /64 of the prefix is no name", !name_of(s, "fd5b:7800:0:0:1::1"));

        struct sockaddr_in short_in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0xc6120001) };
        CHECK(G, "a short sockaddr is no name",
              !sbx_synth_name(s, (struct sockaddr *)&short_in, sizeof(short_in) - 9) &&
                      !sbx_synth_in_pool((struct sockaddr *)&short_in, 4));
        struct sockaddr_un un = { .sun_family = AF_UNIX };
        CHECK(G, "AF_UNIX is no name", !sbx_synth_name(s, (struct sockaddr *)&un, sizeof(un)) &&
                                               !sbx_synth_in_pool((struct sockaddr *)&un, sizeof(un)));

        char long_name[300];
        memset(long_name, 'a', sizeof(long_name));
        for (int i = 63; i < 300; i += 64)
                long_name[i] = '.';
        long_name[254] = '\0'; /* 254 characters */
        CHECK(G, "254 characters: -EINVAL", sbx_synth_get(s, long_name, NULL, NULL) == -EINVAL);
        long_name[253] = '\0';
        CHECK(G, "253 characters: taken", sbx_synth_get(s, long_name, NULL, NULL) == 0);
        CHECK(G, "empty and NULL: -EINVAL",
              sbx_synth_get(s, "", NULL, NULL) == -EINVAL && sbx_synth_get(s, NULL, NULL, NULL) == -EINVAL);
        CHECK(G, "not normalised: -EINVAL",
              sbx_synth_get(s, "PyPI.org", NULL, NULL) == -EINVAL &&
                      sbx_synth_get(s, "pypi.org.", NULL, NULL) == -EINVAL &&
                      sbx_synth_get(s, "a..b", NULL, NULL) == -EINVAL &&
                      sbx_synth_get(s, "a b.org", NULL, NULL) == -EINVAL &&
                      sbx_synth_get(s, "1.2.3.4", NULL, NULL) == -EINVAL);
        CHECK(G, "refusals took no address", sbx_synth_count(s) == 3);
        sbx_synth_free(s);
        sbx_synth_free(s2);
        sbx_synth_free(NULL);
}

static void test_edges(void)
{
        CHECK(G, "198.17.255.255 is out", !in_pool("198.17.255.255"));
        CHECK(G, "198.18.0.0 is in", in_pool("198.18.0.0"));
        CHECK(G, "198.19.255.255 is in", in_pool("198.19.255.255"));
        CHECK(G, "198.20.0.0 is out", !in_pool("198.20.0.0"));
        CHECK(G, "fd5b:7800:: and fd5b:7800::ffff:ffff:ffff:ffff are in",
              in_pool("fd5b:7800::") && in_pool("fd5b:7800::ffff:ffff:ffff:ffff"));
        CHECK(G, "fd5b:7800:0:1:: and fd5b:77ff:ffff:ffff:ffff:ffff:ffff:ffff are out",
              !in_pool("fd5b:7800:0:1::") && !in_pool("fd5b:77ff:ffff:ffff:ffff:ffff:ffff:ffff"));
        CHECK(G, "::ffff:198.18.0.9 is in, ::ffff:198.20.0.0 and ::ffff:198.17.255.255 are out",
              in_pool("::ffff:198.18.0.9") && !in_pool("::ffff:198.20.0.0") && !in_pool("::ffff:198.17.255.255"));
        CHECK(G, "IPv4-compatible and NAT64 forms are out", !in_pool("::198.18.0.1") && !in_pool("64:ff9b::c612:1"));
}

static void test_full(void)
{
        struct sbx_synth *s = NULL;
        char name[32];
        int ok = 1, back = 1;
        struct in_addr a;
        struct in6_addr a6;

        if (sbx_synth_new(&s) < 0)
                return (void)CHECK(G, "new", 0);
        for (int i = 0; i < SBX_SYNTH_MAX; i++) {
                snprintf(name, sizeof(name), "h%d.example.com", i);
                if (sbx_synth_get(s, name, &a, &a6) != 0 || ntohl(a.s_addr) != 0xc6120000u + (unsigned)i + 1)
                        ok = 0;
        }
        CHECK(G, "4096 names: 198.18.0.1 to 198.18.16.0", ok);
        CHECK(G, "the 4097th: -ENOSPC", sbx_synth_get(s, "one-more.example.com", &a, &a6) == -ENOSPC);
        CHECK(G, "a known name still answers when full", got(s, "h7.example.com", "198.18.0.8", "fd5b:7800::8"));
        CHECK(G, "the last one", got(s, "h4095.example.com", "198.18.16.0", "fd5b:7800::1000"));
        for (int i = 0; i < SBX_SYNTH_MAX; i++) {
                struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0xc6120000u + (unsigned)i + 1) };
                const char *n = sbx_synth_name(s, (struct sockaddr *)&in, sizeof(in));
                snprintf(name, sizeof(name), "h%d.example.com", i);
                if (!n || strcmp(n, name) != 0)
                        back = 0;
        }
        CHECK(G, "every address maps back to its name", back);
        CHECK(G, "198.18.16.1 is no name", !name_of(s, "198.18.16.1"));
        sbx_synth_free(s);
}

int main(void)
{
        test_basic();
        test_edges();
        test_full();
        return unit_failed ? 1 : 0;
}
