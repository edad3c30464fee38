/* SPDX-License-Identifier: MIT */
/* The broker's audit: one journal record per decision (SBX_NET_*), at most
 * EG_AUDIT_PER_SEC a second, the rest counted and said in the next one that goes
 * out; and the rows of the run's summary for --json (egress-report.c): each (host,
 * port, verdict) once, counted. */
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <systemd/sd-journal.h>
#include <time.h>

#include "cleanup.h"
#include "egress-int.h"

#define FIELD_MAX 1024

uint64_t eg_now_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct fields {
        struct iovec iov[24];
        char buf[24][FIELD_MAX + 32];
        size_t n;
};

/* NAME=value as one iovec, cut at FIELD_MAX; absent values are left out. */
static void add(struct fields *f, const char *name, const char *value)
{
        int n;

        if (!value || !*value || f->n >= ELEMENTSOF(f->iov))
                return;
        n = snprintf(f->buf[f->n], sizeof(f->buf[f->n]), "%s=%.*s", name, FIELD_MAX, value);
        if (n < 0)
                return;
        f->iov[f->n] = (struct iovec){ f->buf[f->n], strlen(f->buf[f->n]) };
        f->n++;
}

static void add_u64(struct fields *f, const char *name, uint64_t v)
{
        char num[24];

        snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
        add(f, name, num);
}

static void count(struct eg_broker *b, const struct eg_record *r)
{
        bool allowed = strcmp(r->action, "allow") == 0;
        struct eg_summary_row *row = NULL;
        struct eg_summary *s = &b->summary;

        if (allowed && strcmp(r->proto, "dns") == 0)
                return;
        for (size_t i = 0; i < s->n_rows && !row; i++)
                if (s->rows[i].port == r->port && s->rows[i].allowed == allowed && strcmp(s->rows[i].host, r->host) == 0)
                        row = &s->rows[i];
        if (!row && s->n_rows < EG_SUMMARY_ROWS) {
                row = &s->rows[s->n_rows++];
                *row = (struct eg_summary_row){ .port = r->port, .allowed = allowed };
                snprintf(row->host, sizeof(row->host), "%s", r->host ? r->host : "");
                snprintf(row->reason, sizeof(row->reason), "%s", allowed || !r->reason ? "" : r->reason);
                snprintf(row->code, sizeof(row->code), "%s", allowed || !r->code ? "" : r->code);
        }
        if (row)
                row->count++;
        else
                s->dropped++;
}

/* The record to the launcher too, for its audit file (egress-report.c): the fields it
 * may take from here.  Never waits: a launcher that does not read loses records, not
 * the broker its loop. */
static void report(const struct eg_broker *b, const struct fields *f)
{
        char msg[sizeof(uint32_t) + EG_RECORD_MAX];
        uint32_t kind = EG_MSG_RECORD;
        size_t o = sizeof(kind);

        if (b->report_sock < 0)
                return;
        memcpy(msg, &kind, sizeof(kind));
        for (size_t i = 0; i < f->n; i++) {
                const char *kv = f->iov[i].iov_base;
                size_t len = f->iov[i].iov_len;

                if (strncmp(kv, "SBX_NET_", 8) != 0 && strncmp(kv, "MESSAGE=", 8) != 0 && strncmp(kv, "PRIORITY=", 9) != 0)
                        continue;
                if (o + len + 1 > sizeof(msg))
                        break;
                memcpy(msg + o, kv, len);
                msg[o + len] = '\0';
                o += len + 1;
        }
        (void)send(b->report_sock, msg, o, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static bool within_rate(struct eg_broker *b)
{
        uint64_t now = eg_now_ms();

        if (now - b->audit_window_ms >= 1000) {
                b->audit_window_ms = now;
                b->audit_in_window = 0;
        }
        if (b->audit_in_window >= EG_AUDIT_PER_SEC) {
                b->audit_suppressed++;
                return false;
        }
        b->audit_in_window++;
        return true;
}

void eg_log(struct eg_broker *b, const struct eg_record *r)
{
        const struct sbx_plan *p = b->p;
        struct fields f = { .n = 0 };
        char msg[512];
        bool deny = strcmp(r->action, "deny") == 0;

        count(b, r);
        if (!within_rate(b))
                return;
        if (r->relayed)
                snprintf(msg, sizeof(msg), "sbx: network: allowed %s %s:%u, %llu bytes up, %llu down", r->proto, r->host,
                         r->port, (unsigned long long)r->bytes_up, (unsigned long long)r->bytes_down);
        else
                snprintf(msg, sizeof(msg), "sbx: network: %s %s %s:%u%s%s", deny ? "denied" : "allowed", r->proto, r->host,
                         r->port, deny && r->reason ? ": " : "", deny && r->reason ? r->reason : "");
        add(&f, "MESSAGE", msg);
        add(&f, "MESSAGE_ID", EG_NET_MESSAGE_ID);
        add_u64(&f, "PRIORITY", deny ? LOG_WARNING : LOG_INFO);
        add(&f, "SYSLOG_IDENTIFIER", "sbx-egress");
        add(&f, "SBX_EVENT", "network");
        add(&f, "SBX_ID", p->audit_id);
        add(&f, "SBX_PROFILE", p->name);
        add(&f, "SBX_TOOL_USE_ID", p->tool_use_id);
        add(&f, "SBX_SESSION_ID", p->session_id);
        add(&f, "SBX_NET_ACTION", r->action);
        add(&f, "SBX_NET_PROTO", r->proto);
        add(&f, "SBX_NET_HOST", r->host);
        add_u64(&f, "SBX_NET_PORT", r->port);
        add(&f, "SBX_NET_SNI", r->sni);
        add(&f, "SBX_NET_RULE", r->rule);
        add(&f, "SBX_NET_REASON", r->reason);
        add(&f, "SBX_NET_ERROR", r->code);
        add(&f, "SBX_NET_ADDR", r->addr);
        add(&f, "SBX_NET_ADDR_CLASS", r->addr_class);
        if (r->relayed) {
                add_u64(&f, "SBX_NET_BYTES_UP", r->bytes_up);
                add_u64(&f, "SBX_NET_BYTES_DOWN", r->bytes_down);
                add_u64(&f, "SBX_NET_MS", r->ms);
        }
        if (b->audit_suppressed) {
                add_u64(&f, "SBX_NET_SUPPRESSED", b->audit_suppressed);
                b->audit_suppressed = 0;
        }
        (void)sd_journal_sendv(f.iov, (int)f.n);
        report(b, &f);
}
