/* SPDX-License-Identifier: MIT */
/* The run's network summary for --json, made in the launcher from the rows the broker
 * sent (egress-int.h: struct eg_summary).  The broker is the process that parses what
 * the jail sends, so its rows are read as untrusted: the sizes must add up, every
 * string ends inside its field, and the JSON is written here, escaped, never taken
 * from it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "egress-int.h"
#include "json.h"

/* The rows of @s fit in the @n bytes that came, each string ends in its field. */
static bool readable(struct eg_summary *s, size_t n)
{
        const size_t head = offsetof(struct eg_summary, rows);

        if (n < head || s->n_rows > EG_SUMMARY_ROWS || n != head + s->n_rows * sizeof(s->rows[0]))
                return false;
        for (size_t i = 0; i < s->n_rows; i++) {
                struct eg_summary_row *r = &s->rows[i];

                if (!memchr(r->host, '\0', sizeof(r->host)) || !memchr(r->code, '\0', sizeof(r->code)) ||
                    !memchr(r->reason, '\0', sizeof(r->reason)))
                        return false;
        }
        return true;
}

/* One row as JSON, into @buf ("" when it does not fit). */
static void row_json(const struct eg_summary_row *r, char *buf, size_t size)
{
        FILE *f = fmemopen(buf, size, "w");

        buf[0] = '\0';
        if (!f)
                return;
        fputs("{\"host\":", f);
        sbx_json_string(f, r->host);
        fprintf(f, ",\"port\":%u", r->port);
        if (!r->allowed) {
                fputs(",\"code\":", f);
                sbx_json_string(f, r->code);
                fputs(",\"reason\":", f);
                sbx_json_string(f, r->reason);
        }
        fprintf(f, ",\"count\":%u}", r->count);
        if (fclose(f) != 0)
                buf[0] = '\0';
}

/* Rows that do not fit are counted in "more", so the object always closes. */
void eg_summary_json(struct eg_summary *s, size_t n, char *out, size_t size)
{
        const size_t reserve = 96; /* the closing brackets, "more" or "error" */
        unsigned more;
        size_t o = 0;
        char row[1024];

        if (size < reserve * 2 || n == 0) {
                if (size)
                        out[0] = '\0';
                return;
        }
        if (!readable(s, n)) {
                snprintf(out, size, "\"allowed\":[],\"denied\":[],\"error\":\"the egress broker's summary was malformed\"");
                return;
        }
        more = s->dropped;
        o = (size_t)snprintf(out, size, "\"allowed\":[");
        for (int allowed = 1; allowed >= 0; allowed--) {
                bool first = true;

                if (!allowed)
                        o += (size_t)snprintf(out + o, size - o, "],\"denied\":[");
                for (size_t i = 0; i < s->n_rows; i++) {
                        const struct eg_summary_row *r = &s->rows[i];
                        size_t len;

                        if (r->allowed != (bool)allowed)
                                continue;
                        row_json(r, row, sizeof(row));
                        len = strlen(row);
                        if (!len || o + len + 1 + reserve >= size) {
                                more++;
                                continue;
                        }
                        o += (size_t)snprintf(out + o, size - o, "%s%s", first ? "" : ",", row);
                        first = false;
                }
        }
        o += (size_t)snprintf(out + o, size - o, "]");
        if (more)
                snprintf(out + o, size - o, ",\"more\":%u", more);
}
