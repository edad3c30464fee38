/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>

#include "../../lib/parse.h"
#include "unit.h"

#define G "unit-parse"

static int size_is(const char *s, uint64_t want)
{
        uint64_t v = 0;
        return sbx_parse_size(s, &v) == 0 && v == want;
}

static int size_bad(const char *s)
{
        uint64_t v = 0;
        return sbx_parse_size(s, &v) < 0;
}

static int ms_is(const char *s, uint64_t want)
{
        uint64_t v = 0;
        return sbx_parse_duration_ms(s, &v) == 0 && v == want;
}

static int ms_bad(const char *s)
{
        uint64_t v = 0;
        return sbx_parse_duration_ms(s, &v) < 0;
}

int main(void)
{
        uint64_t v;

        CHECK(G, "size plain bytes", size_is("512", 512));
        CHECK(G, "size K", size_is("64K", 64 << 10));
        CHECK(G, "size m lower case", size_is("256m", 256ull << 20));
        CHECK(G, "size MiB", size_is("1MiB", 1 << 20));
        CHECK(G, "size G", size_is("2G", 2ull << 30));
        CHECK(G, "size 1.5G", size_is("1.5G", 3ull << 29));
        CHECK(G, "size T", size_is("1T", 1ull << 40));
        CHECK(G, "size empty refused", size_bad(""));
        CHECK(G, "size negative refused", size_bad("-1M"));
        CHECK(G, "size plus refused", size_bad("+1M"));
        CHECK(G, "size unknown unit refused", size_bad("12X"));
        CHECK(G, "size trailing junk refused", size_bad("12M "));
        CHECK(G, "size fractional bytes refused", size_bad("1.5"));
        CHECK(G, "size dot without digits refused", size_bad("1.M"));
        CHECK(G, "size overflow refused", size_bad("18446744073709551616"));
        CHECK(G, "size overflow by unit refused", size_bad("17179869184G"));
        CHECK(G, "size NULL refused", sbx_parse_size(NULL, &v) == -EINVAL);

        CHECK(G, "duration seconds", ms_is("30", 30000));
        CHECK(G, "duration decimals", ms_is("1.5", 1500));
        CHECK(G, "duration ms", ms_is("250ms", 250));
        CHECK(G, "duration minutes", ms_is("2m", 120000));
        CHECK(G, "duration hours", ms_is("1h", 3600000));
        CHECK(G, "duration small fraction", ms_is("0.001", 1));
        CHECK(G, "duration negative refused", ms_bad("-1"));
        CHECK(G, "duration junk refused", ms_bad("1s2"));
        CHECK(G, "duration overflow refused", ms_bad("99999999999999999999"));
        CHECK(G, "duration huge refused", ms_bad("18446744073709551h"));

        CHECK(G, "u64 plain", sbx_parse_u64("64", &v) == 0 && v == 64);
        CHECK(G, "u64 decimal refused", sbx_parse_u64("6.4", &v) < 0);
        CHECK(G, "u64 suffix refused", sbx_parse_u64("64k", &v) < 0);
        CHECK(G, "u64 empty refused", sbx_parse_u64("", &v) < 0);
        return unit_failed ? 1 : 0;
}
