/* SPDX-License-Identifier: MIT */
#include "json.h"

#include <stddef.h>

size_t sbx_utf8_len(const unsigned char *s)
{
        size_t n;
        unsigned min;
        unsigned cp;

        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0) {
                n = 2, min = 0x80, cp = s[0] & 0x1f;
        } else if ((s[0] & 0xf0) == 0xe0) {
                n = 3, min = 0x800, cp = s[0] & 0x0f;
        } else if ((s[0] & 0xf8) == 0xf0) {
                n = 4, min = 0x10000, cp = s[0] & 0x07;
        } else {
                return 0;
        }
        for (size_t i = 1; i < n; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return n;
}

void sbx_json_string(FILE *f, const char *s)
{
        if (!s) {
                fputs("null", f);
                return;
        }
        fputc('"', f);
        for (const unsigned char *c = (const unsigned char *)s; *c;) {
                size_t n = sbx_utf8_len(c);

                if (n == 0) {
                        /* argv may hold any bytes; JSON must stay valid UTF-8. */
                        fputs("\\ufffd", f);
                        c++;
                        continue;
                }
                if (n > 1) {
                        fwrite(c, 1, n, f);
                        c += n;
                        continue;
                }
                switch (*c) {
                case '"': fputs("\\\"", f); break;
                case '\\': fputs("\\\\", f); break;
                case '\n': fputs("\\n", f); break;
                case '\t': fputs("\\t", f); break;
                case '\r': fputs("\\r", f); break;
                default:
                        if (*c < 0x20 || *c == 0x7f)
                                fprintf(f, "\\u%04x", *c);
                        else
                                fputc(*c, f);
                }
                c++;
        }
        fputc('"', f);
}

bool sbx_utf8_valid(const char *s)
{
        for (const unsigned char *c = (const unsigned char *)s; *c;) {
                size_t n = sbx_utf8_len(c);

                if (n == 0)
                        return false;
                c += n;
        }
        return true;
}

void sbx_json_exact(FILE *f, const char *s)
{
        if (!s || sbx_utf8_valid(s)) {
                sbx_json_string(f, s);
                return;
        }
        fputc('[', f);
        for (const unsigned char *c = (const unsigned char *)s; *c; c++)
                fprintf(f, "%s%u", c == (const unsigned char *)s ? "" : ",", *c);
        fputc(']', f);
}
