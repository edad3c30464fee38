/* SPDX-License-Identifier: MIT */
/* lib/egress-summary.c: the launcher turns the rows the broker sent into the --json
 * fields, and reads them as untrusted: a message whose sizes do not add up, a count
 * past the table, or a string without its end gives an empty summary that says it
 * was malformed, never a field of the broker's choosing. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/egress-int.h"
#include "unit.h"

#define G "unit-egress-summary"
#define HEAD offsetof(struct eg_summary, rows)
#define MALFORMED "\"allowed\":[],\"denied\":[],\"error\":\"the egress broker's summary was malformed\""

static struct eg_summary s;
static char out[SBX_EGRESS_SUMMARY_MAX];

static void row(const char *host, uint16_t port, bool allowed, const char *code, unsigned count)
{
        struct eg_summary_row *r = &s.rows[s.n_rows++];

        memset(r, 0, sizeof(*r));
        snprintf(r->host, sizeof(r->host), "%s", host);
        r->port = port;
        r->allowed = allowed;
        snprintf(r->code, sizeof(r->code), "%s", code);
        snprintf(r->reason, sizeof(r->reason), "%s", allowed ? "" : "not in network.allow");
        r->count = count;
}

static size_t sent(void)
{
        return HEAD + s.n_rows * sizeof(s.rows[0]);
}

static const char *json(size_t n)
{
        struct eg_summary copy = s; /* the reader may not rely on what it was given staying */

        eg_summary_json(&copy, n, out, sizeof(out));
        return out;
}

int main(void)
{
        row("example.com", 443, true, "", 2);
        row("evil.example", 80, false, "denied", 1);
        CHECK(G, "rows as the JSON fields, allowed then denied",
              strcmp(json(sent()),
                     "\"allowed\":[{\"host\":\"example.com\",\"port\":443,\"count\":2}],\"denied\":[{\"host\":\"evil.example\","
                     "\"port\":80,\"code\":\"denied\",\"reason\":\"not in network.allow\",\"count\":1}]") == 0);
        CHECK(G, "nothing sent: no summary", strcmp(json(0), "") == 0);

        /* A host that would close the object and add a status of its own. */
        s.n_rows = 0;
        row("x\"}],\"status\":0,\"y\":[{\"a", 443, true, "", 1);
        json(sent());
        CHECK(G, "a host with quotes and brackets stays inside its string",
              strstr(out, "\"host\":\"x\\\"}],\\\"status\\\":0,\\\"y\\\":[{\\\"a\"") != NULL && !strstr(out, "\"status\":0"));

        CHECK(G, "a message shorter than its rows: malformed", strcmp(json(sent() - 1), MALFORMED) == 0);
        CHECK(G, "a message longer than its rows: malformed", strcmp(json(sent() + 1), MALFORMED) == 0);
        CHECK(G, "a message shorter than its head: malformed", strcmp(json(HEAD - 1), MALFORMED) == 0);
        s.n_rows = EG_SUMMARY_ROWS + 1;
        CHECK(G, "more rows than the table holds: malformed", strcmp(json(sizeof(s)), MALFORMED) == 0);
        s.n_rows = 0;
        row("example.com", 443, true, "", 1);
        memset(s.rows[0].host, 'a', sizeof(s.rows[0].host));
        CHECK(G, "a host without its end: malformed", strcmp(json(sent()), MALFORMED) == 0);
        s.n_rows = 0;
        row("example.com", 443, false, "", 1);
        memset(s.rows[0].reason, 'a', sizeof(s.rows[0].reason));
        CHECK(G, "a reason without its end: malformed", strcmp(json(sent()), MALFORMED) == 0);

        s.n_rows = 0;
        for (int i = 0; i < EG_SUMMARY_ROWS; i++) {
                char host[SBX_NETNAME_MAX + 1];

                memset(host, 'h', sizeof(host) - 1);
                host[sizeof(host) - 1] = '\0';
                host[0] = (char)('a' + i % 26);
                row(host, (uint16_t)(1000 + i), false, "denied", 1);
        }
        s.dropped = 5;
        json(sent());
        CHECK(G, "a full table closes its object and counts what did not fit in \"more\"",
              strlen(out) < sizeof(out) && strstr(out, ",\"more\":") && out[strlen(out) - 1] != ',' &&
                      strstr(out, "],\"denied\":["));
        return unit_failed ? 1 : 0;
}
