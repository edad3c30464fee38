/* SPDX-License-Identifier: MIT */
/* What the broker reports to the launcher, read there: the run's network summary for
 * --json (struct eg_summary's rows) and, with an audit file, each record it gave the
 * journal.  The broker is the process that parses what the jail sends, so both are
 * read as untrusted: the sizes must add up, every string ends inside its field, the
 * JSON is written here, escaped, never taken from it, and which jail a record is of
 * is the launcher's to say. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include "auditfile.h"
#include "cleanup.h"
#include "egress-int.h"
#include "json.h"

/* The rows of @s fit in the @n bytes that came, each string ends in its field. */
static bool readable(struct eg_summary *s, size_t n)
{
        const size_t head = offsetof(struct eg_summary, rows);

        if (n < head || s->kind != EG_MSG_SUMMARY || s->n_rows > EG_SUMMARY_ROWS ||
            n != head + s->n_rows * sizeof(s->rows[0]))
                return false;
        for (size_t i = 0; i < s->n_rows; i++) {
                struct eg_summary_row *r = &s->rows[i];
                unsigned char verdict;

                /* A bool's byte read as what it is: 2 would be neither list. */
                memcpy(&verdict, &r->allowed, sizeof(verdict));
                if (verdict > 1)
                        return false;
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

/* A field the broker may give: what the connection was, never which jail or event. */
static bool brokers_field(const char *kv, size_t len)
{
        const char *eq = memchr(kv, '=', len);

        if (!eq || eq == kv)
                return false;
        for (const char *c = kv; c < eq; c++)
                if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
                        return false;
        return (strncmp(kv, "SBX_NET_", 8) == 0 && eq - kv > 8) || (eq - kv == 7 && strncmp(kv, "MESSAGE", 7) == 0) ||
               (eq - kv == 8 && strncmp(kv, "PRIORITY", 8) == 0);
}

/* Whether a field of @kv's name is in @iov already: a name once per record. */
static bool named_before(const struct iovec *iov, size_t n, const char *kv)
{
        size_t name = (size_t)(strchr(kv, '=') - kv) + 1;

        for (size_t i = 0; i < n; i++)
                if (iov[i].iov_len >= name && memcmp(iov[i].iov_base, kv, name) == 0)
                        return true;
        return false;
}

int eg_record_write(int fd, const struct sbx_plan *p, const char *msg, size_t n)
{
        const char *own[][2] = {
                { "MESSAGE_ID=", EG_NET_MESSAGE_ID }, { "SYSLOG_IDENTIFIER=", "sbx-egress" },
                { "SBX_EVENT=", "network" },          { "SBX_ID=", p->audit_id },
                { "SBX_PROFILE=", p->name },          { "SBX_TOOL_USE_ID=", p->tool_use_id },
                { "SBX_SESSION_ID=", p->session_id },
        };
        char mine[ELEMENTSOF(own)][512];
        struct iovec iov[64];
        size_t n_iov = 0;

        if (n < sizeof(uint32_t) || n > sizeof(uint32_t) + EG_RECORD_MAX || msg[n - 1] != '\0')
                return -EBADMSG;
        for (size_t i = 0; i < ELEMENTSOF(own); i++) {
                if (!own[i][1] || !own[i][1][0])
                        continue;
                snprintf(mine[i], sizeof(mine[i]), "%s%s", own[i][0], own[i][1]);
                iov[n_iov++] = (struct iovec){ mine[i], strlen(mine[i]) };
        }
        for (const char *kv = msg + sizeof(uint32_t); kv < msg + n; kv += strlen(kv) + 1) {
                size_t len = strlen(kv);

                if (!brokers_field(kv, len) || n_iov == ELEMENTSOF(iov) || named_before(iov, n_iov, kv))
                        return -EBADMSG;
                iov[n_iov++] = (struct iovec){ (void *)(uintptr_t)kv, len };
        }
        return sbx_audit_jsonl(fd, iov, n_iov);
}
