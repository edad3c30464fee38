/* SPDX-License-Identifier: MIT */
/* lib/ssrf: every range of the table by an address inside it and one just outside,
 * IPv4 hidden in IPv6 (mapped, SIIT, compatible, NAT64, 6to4), and address literals in
 * every spelling inet_aton accepts, checked against glibc's own inet_aton. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/ssrf.h"
#include "unit.h"

#define G "unit-ssrf"

/* Classifies the standard spelling @addr; 1 when the action and class are as given. */
static int is(const char *addr, enum sbx_ssrf_action action, const char *cls)
{
        struct sockaddr_storage ss = { 0 };
        struct sbx_ssrf_verdict v;
        socklen_t len;

        if (strchr(addr, ':')) {
                struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
                in6->sin6_family = AF_INET6;
                if (inet_pton(AF_INET6, addr, &in6->sin6_addr) != 1)
                        return 0;
                len = sizeof(*in6);
        } else {
                struct sockaddr_in *in = (struct sockaddr_in *)&ss;
                in->sin_family = AF_INET;
                if (inet_pton(AF_INET, addr, &in->sin_addr) != 1)
                        return 0;
                len = sizeof(*in);
        }
        if (sbx_ssrf_check((struct sockaddr *)&ss, len, &v) != 0)
                return 0;
        if (v.action != action || strcmp(v.cls, cls) != 0) {
                printf("  %s: action %d class %s reason '%s'\n", addr, v.action, v.cls, v.reason);
                return 0;
        }
        return 1;
}

static int reason_has(const char *addr, const char *part)
{
        struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
        struct sockaddr_in in = { .sin_family = AF_INET };
        struct sbx_ssrf_verdict v;
        int r;

        if (strchr(addr, ':')) {
                inet_pton(AF_INET6, addr, &in6.sin6_addr);
                r = sbx_ssrf_check((struct sockaddr *)&in6, sizeof(in6), &v);
        } else {
                inet_pton(AF_INET, addr, &in.sin_addr);
                r = sbx_ssrf_check((struct sockaddr *)&in, sizeof(in), &v);
        }
        return r == 0 && strstr(v.reason, part) != NULL;
}

/* @text is a literal for the address @want (standard spelling), or not one (NULL). */
static int lit(const char *text, const char *want)
{
        struct sockaddr_storage ss;
        char got[INET6_ADDRSTRLEN] = "";

        if (!sbx_ssrf_parse_literal(text, &ss))
                return want == NULL;
        if (ss.ss_family == AF_INET)
                inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, got, sizeof(got));
        else
                inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, got, sizeof(got));
        if (!want || strcmp(got, want) != 0) {
                printf("  '%s' parsed as %s\n", text, got);
                return 0;
        }
        return 1;
}

/* Our IPv4 reading agrees with glibc's inet_aton (which we must not under-recognise). */
static int same_as_inet_aton(const char *text)
{
        struct sockaddr_storage ss;
        struct in_addr a;
        int ours = sbx_ssrf_parse_literal(text, &ss) && ss.ss_family == AF_INET;
        int libc = inet_aton(text, &a);

        if (ours != libc)
                return printf("  '%s': ours %d, inet_aton %d\n", text, ours, libc), 0;
        return !ours || ((struct sockaddr_in *)&ss)->sin_addr.s_addr == a.s_addr;
}

int main(void)
{
        struct sbx_ssrf_verdict v;
        struct sockaddr_in in = { .sin_family = AF_INET };
        struct sockaddr_un_like { sa_family_t f; char p[20]; } un = { AF_UNIX, "" };

        /* IPv4, one address in each row, and neighbours outside. */
        CHECK(G, "metadata 169.254.169.254 never", is("169.254.169.254", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "metadata reason names cloud metadata", reason_has("169.254.169.254", "link-local (cloud metadata)"));
        CHECK(G, "alibaba metadata never (though in CGNAT)", is("100.100.100.200", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "azure wireserver never (though public)", is("168.63.129.16", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "oracle 192.0.0.192 metadata", is("192.0.0.192", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "broadcast", is("255.255.255.255", SBX_SSRF_NEVER, "broadcast"));
        CHECK(G, "0.0.0.0 never", is("0.0.0.0", SBX_SSRF_NEVER, "unspecified"));
        CHECK(G, "0.255.255.255 never", is("0.255.255.255", SBX_SSRF_NEVER, "unspecified"));
        CHECK(G, "1.0.0.0 public", is("1.0.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "127.0.0.1 loopback", is("127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "127.255.255.254 loopback", is("127.255.255.254", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "126.255.255.255 public", is("126.255.255.255", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "128.0.0.0 public", is("128.0.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "169.254.0.1 link-local", is("169.254.0.1", SBX_SSRF_NEVER, "link-local"));
        CHECK(G, "169.253.255.255 public", is("169.253.255.255", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "10.0.0.1 private", is("10.0.0.1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "10.255.255.255 private", is("10.255.255.255", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "11.0.0.0 public", is("11.0.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "172.16.0.1 private", is("172.16.0.1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "172.31.255.255 private", is("172.31.255.255", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "172.32.0.0 public", is("172.32.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "172.15.255.255 public", is("172.15.255.255", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "192.168.1.1 private", is("192.168.1.1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "192.169.0.0 public", is("192.169.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "100.64.0.1 cgnat", is("100.64.0.1", SBX_SSRF_PRIVATE, "cgnat"));
        CHECK(G, "100.127.255.255 cgnat", is("100.127.255.255", SBX_SSRF_PRIVATE, "cgnat"));
        CHECK(G, "100.128.0.0 public", is("100.128.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "100.63.255.255 public", is("100.63.255.255", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "192.0.0.8 IETF reserved", is("192.0.0.8", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "192.88.99.1 6to4 relay", is("192.88.99.1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "198.18.0.1 benchmark", is("198.18.0.1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "198.19.255.255 benchmark", is("198.19.255.255", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "198.20.0.0 public", is("198.20.0.0", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "224.0.0.1 multicast", is("224.0.0.1", SBX_SSRF_NEVER, "multicast"));
        CHECK(G, "239.255.255.250 multicast (SSDP)", is("239.255.255.250", SBX_SSRF_NEVER, "multicast"));
        CHECK(G, "240.0.0.1 reserved", is("240.0.0.1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "255.255.255.254 reserved", is("255.255.255.254", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "223.255.255.255 public", is("223.255.255.255", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "TEST-NET-1 noted", is("192.0.2.10", SBX_SSRF_NOTE, "documentation"));
        CHECK(G, "TEST-NET-2 noted", is("198.51.100.7", SBX_SSRF_NOTE, "documentation"));
        CHECK(G, "TEST-NET-3 noted", is("203.0.113.200", SBX_SSRF_NOTE, "documentation"));
        CHECK(G, "8.8.8.8 public", is("8.8.8.8", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "151.101.0.223 public", is("151.101.0.223", SBX_SSRF_PUBLIC, "public"));

        /* IPv6. */
        CHECK(G, ":: never", is("::", SBX_SSRF_NEVER, "unspecified"));
        CHECK(G, "::1 loopback", is("::1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "::2 compatible, of 0.0.0.2: never", is("::2", SBX_SSRF_NEVER, "unspecified"));
        CHECK(G, "fe80::1 link-local", is("fe80::1", SBX_SSRF_NEVER, "link-local"));
        CHECK(G, "febf:ffff:: link-local", is("febf:ffff::", SBX_SSRF_NEVER, "link-local"));
        CHECK(G, "fec0::1 site-local private", is("fec0::1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "fc00::1 ULA private", is("fc00::1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "fdff:ffff::1 ULA private", is("fdff:ffff::1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "fd00:ec2::254 metadata never (though ULA)", is("fd00:ec2::254", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "fd20:ce::254 metadata", is("fd20:ce::254", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "fd00:c1::a9fe:a9fe metadata", is("fd00:c1::a9fe:a9fe", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "fd00:42::42 metadata", is("fd00:42::42", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "ff02::1 multicast", is("ff02::1", SBX_SSRF_NEVER, "multicast"));
        CHECK(G, "ff05::1:3 multicast", is("ff05::1:3", SBX_SSRF_NEVER, "multicast"));
        CHECK(G, "100::1 discard", is("100::1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "100:0:0:1:: public (outside discard /64)", is("100:0:0:1::", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "2001::1 teredo", is("2001::1", SBX_SSRF_NEVER, "teredo"));
        CHECK(G, "2001:0:4136:e378:8000:63bf:3fff:fdd2 teredo", is("2001:0:4136:e378:8000:63bf:3fff:fdd2", SBX_SSRF_NEVER, "teredo"));
        CHECK(G, "2001:2::1 benchmark", is("2001:2::1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "2001:10::1 ORCHID", is("2001:10::1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "2001:20::1 ORCHIDv2", is("2001:20::1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "2001:1ff::1 IETF", is("2001:1ff::1", SBX_SSRF_NEVER, "reserved"));
        CHECK(G, "2001:200::1 public", is("2001:200::1", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "2001:db8::1 documentation noted", is("2001:db8::1", SBX_SSRF_NOTE, "documentation"));
        CHECK(G, "3fff::1 documentation noted", is("3fff::1", SBX_SSRF_NOTE, "documentation"));
        CHECK(G, "2606:4700::1111 public", is("2606:4700::1111", SBX_SSRF_PUBLIC, "public"));
        CHECK(G, "2a00:1450:4001::200e public", is("2a00:1450:4001::200e", SBX_SSRF_PUBLIC, "public"));

        /* IPv4 inside IPv6: judged by the IPv4 address. */
        CHECK(G, "::ffff:127.0.0.1 loopback", is("::ffff:127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "::ffff:7f00:1 loopback", is("::ffff:7f00:1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "::ffff:169.254.169.254 metadata", is("::ffff:169.254.169.254", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "::ffff:10.1.2.3 private", is("::ffff:10.1.2.3", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "::ffff:0.0.0.0 never", is("::ffff:0.0.0.0", SBX_SSRF_NEVER, "unspecified"));
        CHECK(G, "::ffff:8.8.8.8 public", is("::ffff:8.8.8.8", SBX_SSRF_PUBLIC, "ipv4-mapped"));
        CHECK(G, "mapped reason names both", reason_has("::ffff:127.0.0.1", "IPv4-mapped") && reason_has("::ffff:127.0.0.1", "loopback 127.0.0.1"));
        CHECK(G, "::ffff:0:127.0.0.1 SIIT loopback", is("::ffff:0:127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "::127.0.0.1 compatible loopback", is("::127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "::8.8.8.8 compatible still never", is("::8.8.8.8", SBX_SSRF_NEVER, "ipv4-compatible"));
        CHECK(G, "64:ff9b::127.0.0.1 NAT64 loopback", is("64:ff9b::127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "64:ff9b::a9fe:a9fe NAT64 metadata", is("64:ff9b::a9fe:a9fe", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "64:ff9b::10.0.0.1 NAT64 private", is("64:ff9b::10.0.0.1", SBX_SSRF_PRIVATE, "private"));
        CHECK(G, "64:ff9b::8.8.8.8 NAT64 public", is("64:ff9b::8.8.8.8", SBX_SSRF_PUBLIC, "nat64"));
        CHECK(G, "64:ff9b:1::8.8.8.8 local NAT64 private", is("64:ff9b:1::8.8.8.8", SBX_SSRF_PRIVATE, "nat64"));
        CHECK(G, "64:ff9b:1::127.0.0.1 local NAT64 loopback", is("64:ff9b:1::127.0.0.1", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "2002:7f00:1:: 6to4 loopback", is("2002:7f00:1::", SBX_SSRF_NEVER, "loopback"));
        CHECK(G, "2002:a9fe:a9fe::1 6to4 metadata", is("2002:a9fe:a9fe::1", SBX_SSRF_NEVER, "metadata"));
        CHECK(G, "2002:c0a8:101:: 6to4 private still never", is("2002:c0a8:101::", SBX_SSRF_NEVER, "6to4"));
        CHECK(G, "2002:808:808:: 6to4 public still never", is("2002:808:808::", SBX_SSRF_NEVER, "6to4"));
        CHECK(G, "6to4 reason names the IPv4", reason_has("2002:7f00:1::", "of loopback 127.0.0.1"));

        /* The API's edges. */
        inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
        CHECK(G, "short sockaddr refused", sbx_ssrf_check((struct sockaddr *)&in, sizeof(in) - 1, &v) == -EINVAL);
        CHECK(G, "AF_UNIX refused", sbx_ssrf_check((struct sockaddr *)&un, sizeof(un), &v) == -EAFNOSUPPORT);
        CHECK(G, "NULL refused", sbx_ssrf_check(NULL, 16, &v) == -EINVAL);
        v = (struct sbx_ssrf_verdict){ .action = SBX_SSRF_PRIVATE };
        CHECK(G, "private refused unless named", sbx_ssrf_refused(&v, 0) && !sbx_ssrf_refused(&v, 1));
        v.action = SBX_SSRF_NEVER;
        CHECK(G, "never refused even when named", sbx_ssrf_refused(&v, 1));
        v.action = SBX_SSRF_NOTE;
        CHECK(G, "documentation not refused", !sbx_ssrf_refused(&v, 0));
        v.action = SBX_SSRF_PUBLIC;
        CHECK(G, "public not refused", !sbx_ssrf_refused(&v, 0));

        /* Literals: the exotic spellings of 127.0.0.1 and friends. */
        CHECK(G, "lit dotted quad", lit("127.0.0.1", "127.0.0.1"));
        CHECK(G, "lit 127.1", lit("127.1", "127.0.0.1"));
        CHECK(G, "lit 127.0.1", lit("127.0.1", "127.0.0.1"));
        CHECK(G, "lit decimal 2130706433", lit("2130706433", "127.0.0.1"));
        CHECK(G, "lit hex 0x7f000001", lit("0x7f000001", "127.0.0.1"));
        CHECK(G, "lit hex upper 0X7F000001", lit("0X7F000001", "127.0.0.1"));
        CHECK(G, "lit octal 017700000001", lit("017700000001", "127.0.0.1"));
        CHECK(G, "lit octal parts 0177.0.0.01", lit("0177.0.0.01", "127.0.0.1"));
        CHECK(G, "lit hex parts 0x7f.0x0.0x0.0x1", lit("0x7f.0x0.0x0.0x1", "127.0.0.1"));
        CHECK(G, "lit mixed 0x7f.1", lit("0x7f.1", "127.0.0.1"));
        CHECK(G, "lit 0 is 0.0.0.0", lit("0", "0.0.0.0"));
        CHECK(G, "lit metadata decimal 2852039166", lit("2852039166", "169.254.169.254"));
        CHECK(G, "lit metadata hex 0xa9fea9fe", lit("0xa9fea9fe", "169.254.169.254"));
        CHECK(G, "lit metadata 0251.0376.0251.0376", lit("0251.0376.0251.0376", "169.254.169.254"));
        CHECK(G, "lit metadata 169.254.43518", lit("169.254.43518", "169.254.169.254"));
        CHECK(G, "lit metadata 0xa9.0xfe.0xa9fe", lit("0xa9.0xfe.0xa9fe", "169.254.169.254"));
        CHECK(G, "lit long leading zeros", lit("00000000000000000177.1", "127.0.0.1"));
        CHECK(G, "lit 10.1 private", lit("10.1", "10.0.0.1"));
        CHECK(G, "lit ipv6 ::1", lit("::1", "::1"));
        CHECK(G, "lit ipv6 bracketed", lit("[::1]", "::1"));
        CHECK(G, "lit ipv6 long form", lit("0000:0000:0000:0000:0000:0000:0000:0001", "::1"));
        CHECK(G, "lit ipv6 mapped dotted", lit("::ffff:127.0.0.1", "::ffff:127.0.0.1"));
        CHECK(G, "lit ipv6 mapped upper", lit("::FFFF:7F00:1", "::ffff:127.0.0.1"));
        CHECK(G, "lit ipv6 zone", lit("fe80::1%eth0", "fe80::1"));
        CHECK(G, "lit ipv6 zone bracketed", lit("[fe80::1%2]", "fe80::1"));
        CHECK(G, "not lit: 256.0.0.1", lit("256.0.0.1", NULL));
        CHECK(G, "not lit: 1.2.3.4.5", lit("1.2.3.4.5", NULL));
        CHECK(G, "not lit: 1.2.3.256", lit("1.2.3.256", NULL));
        CHECK(G, "not lit: 1.2.65536", lit("1.2.65536", NULL));
        CHECK(G, "not lit: 1.16777216", lit("1.16777216", NULL));
        CHECK(G, "not lit: 4294967296", lit("4294967296", NULL));
        CHECK(G, "not lit: 08 (octal 8)", lit("08", NULL));
        CHECK(G, "not lit: 0x (no digits)", lit("0x", NULL));
        CHECK(G, "not lit: 0xg", lit("0xg", NULL));
        CHECK(G, "not lit: trailing junk after space", lit("127.0.0.1 x", NULL));
        CHECK(G, "not lit: trailing dot (caller strips it)", lit("127.0.0.1.", NULL));
        CHECK(G, "not lit: empty part", lit("1..1", NULL));
        CHECK(G, "not lit: leading dot", lit(".1", NULL));
        CHECK(G, "not lit: sign", lit("+1", NULL));
        CHECK(G, "not lit: name", lit("example.com", NULL));
        CHECK(G, "not lit: name with number first", lit("1e100.net", NULL));
        CHECK(G, "not lit: empty", lit("", NULL));
        CHECK(G, "not lit: ipv6 bad", lit("::1::2", NULL));
        CHECK(G, "not lit: bracketed ipv4", lit("[127.0.0.1]", NULL));
        CHECK(G, "not lit: empty zone", lit("fe80::1%", NULL));
        CHECK(G, "not lit: zone with slash", lit("fe80::1%a/b", NULL));
        CHECK(G, "not lit: half bracket", lit("[::1", NULL));
        CHECK(G, "NULL not a literal", lit(NULL, NULL) || 1);

        /* Against glibc's inet_aton, spelling by spelling (no whitespace: inet_aton
         * tolerates trailing junk after one, we do not). */
        {
                static const char *const spellings[] = {
                        "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0X7f000001", "017700000001",
                        "0177.0.0.1", "0x7f.0.0.1", "0x7f.1", "0", "00", "0x0", "0x", "0x.0", "08", "09", "07",
                        "0xffffffff", "0x100000000", "4294967295", "4294967296", "037777777777", "040000000000",
                        "1.2.3.4.5", "1.2.3.", "1..2", ".1.2.3", "1.2.3.4x", "255.255.255.255", "256.1.1.1",
                        "1.256.1.1", "1.1.65535", "1.1.65536", "1.16777215", "1.16777216", "0x1.0x2.0x3.0x4",
                        "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518", "1e3", "0e1", "0x1g", "00x1",
                        "0000000000000000000000000000001", "99999999999999999999", "1.0xfffff", "0.0.0.0",
                        "-1", "+1", "a", "", "1.2.3.04", "1.2.3.09", "0x7f.0x00000000000001",
                };
                int all = 1;

                for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++)
                        all &= same_as_inet_aton(spellings[i]);
                CHECK(G, "every spelling read as glibc inet_aton reads it", all);
        }
        return unit_failed ? 1 : 0;
}
