/* SPDX-License-Identifier: MIT */
#include "parse.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

/* Reads "digits[.digits]" into an integer part and a fraction scaled to 1e9. */
static const char *parse_decimal(const char *s, uint64_t *whole, uint64_t *frac_nano)
{
        uint64_t w = 0, f = 0, scale = 100000000;
        const char *start = s;

        for (; *s >= '0' && *s <= '9'; s++) {
                if (w > (UINT64_MAX - 9) / 10)
                        return NULL;
                w = w * 10 + (uint64_t)(*s - '0');
        }
        if (s == start)
                return NULL;
        if (*s == '.') {
                s++;
                if (!(*s >= '0' && *s <= '9'))
                        return NULL;
                for (; *s >= '0' && *s <= '9'; s++) {
                        f += (uint64_t)(*s - '0') * scale;
                        scale /= 10;
                }
        }
        *whole = w;
        *frac_nano = f;
        return s;
}

static int scale_checked(uint64_t whole, uint64_t frac_nano, uint64_t unit, uint64_t *ret)
{
        if (unit && whole > UINT64_MAX / unit)
                return -ERANGE;
        uint64_t v = whole * unit;
        /* frac_nano < 1e9; unit up to 2^40 or 3.6e6: split to avoid overflow. */
        uint64_t part = (unit / 1000000000) * frac_nano + (unit % 1000000000) * frac_nano / 1000000000;
        if (v > UINT64_MAX - part)
                return -ERANGE;
        *ret = v + part;
        return 0;
}

int sbx_parse_size(const char *s, uint64_t *ret)
{
        static const struct {
                const char *suffix;
                uint64_t unit;
        } units[] = {
                { "", 1 },          { "B", 1 },           { "K", 1ull << 10 }, { "KB", 1ull << 10 },
                { "KiB", 1ull << 10 }, { "M", 1ull << 20 }, { "MB", 1ull << 20 }, { "MiB", 1ull << 20 },
                { "G", 1ull << 30 }, { "GB", 1ull << 30 },  { "GiB", 1ull << 30 }, { "T", 1ull << 40 },
                { "TB", 1ull << 40 }, { "TiB", 1ull << 40 },
        };
        uint64_t whole, frac;
        const char *end;

        if (!s)
                return -EINVAL;
        end = parse_decimal(s, &whole, &frac);
        if (!end)
                return -EINVAL;
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
                /* Case-insensitive unit letter ("512m"), exact otherwise. */
                if (strcasecmp(end, units[i].suffix) == 0) {
                        if (units[i].unit == 1 && frac)
                                return -EINVAL; /* "1.5" bytes */
                        return scale_checked(whole, frac, units[i].unit, ret);
                }
        }
        return -EINVAL;
}

int sbx_parse_duration_ms(const char *s, uint64_t *ret)
{
        static const struct {
                const char *suffix;
                uint64_t ms;
        } units[] = {
                { "", 1000 }, { "s", 1000 }, { "ms", 1 }, { "m", 60000 }, { "min", 60000 }, { "h", 3600000 },
        };
        uint64_t whole, frac;
        const char *end;

        if (!s)
                return -EINVAL;
        end = parse_decimal(s, &whole, &frac);
        if (!end)
                return -EINVAL;
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
                if (strcmp(end, units[i].suffix) == 0)
                        return scale_checked(whole, frac, units[i].ms, ret);
        return -EINVAL;
}

int sbx_parse_u64(const char *s, uint64_t *ret)
{
        uint64_t whole, frac;
        const char *end;

        if (!s)
                return -EINVAL;
        end = parse_decimal(s, &whole, &frac);
        if (!end || *end || strchr(s, '.'))
                return -EINVAL;
        *ret = whole;
        return 0;
}

/* Levenshtein distance for "did you mean" hints; short strings only (else 99). */
unsigned sbx_edit_distance(const char *a, const char *b)
{
        unsigned row[64], n = (unsigned)strlen(b);

        if (n >= sizeof(row) / sizeof(row[0]) || strlen(a) >= 64)
                return 99;
        for (unsigned j = 0; j <= n; j++)
                row[j] = j;
        for (unsigned i = 1; a[i - 1]; i++) {
                unsigned prev = row[0]++;

                for (unsigned j = 1; j <= n; j++) {
                        unsigned cur = row[j];
                        unsigned best = prev + (a[i - 1] != b[j - 1]);

                        if (row[j] + 1 < best)
                                best = row[j] + 1;
                        if (row[j - 1] + 1 < best)
                                best = row[j - 1] + 1;
                        row[j] = best;
                        prev = cur;
                }
        }
        return row[n];
}
