/* SPDX-License-Identifier: MIT */
/* lib/egress-report.c: the launcher turns the rows the broker sent into the --json
 * fields, and reads them as untrusted: a message whose sizes do not add up, a count
 * past the table, or a string without its end gives an empty summary that says it
 * was malformed, never a field of the broker's choosing.  The records it relays to
 * the audit file say which jail they are of from the launcher's plan; the broker may
 * give SBX_NET_*, MESSAGE and PRIORITY, each once, and nothing else. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../../lib/egress-int.h"
#include "unit.h"

#define G "unit-egress-report"
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

/* A record message: its kind, then each "NAME=value" with its NUL. */
static size_t record(char *msg, size_t size, const char *const *fields)
{
        uint32_t kind = EG_MSG_RECORD;
        size_t o = sizeof(kind);

        memcpy(msg, &kind, sizeof(kind));
        for (; *fields; fields++) {
                size_t len = strlen(*fields) + 1;

                if (o + len > size)
                        break;
                memcpy(msg + o, *fields, len);
                o += len;
        }
        return o;
}

/* eg_record_write of @fields into a memfd; the line in @line. */
static int relayed(const char *const *fields, char *line, size_t size)
{
        static char msg[sizeof(uint32_t) + EG_RECORD_MAX + 64];
        struct sbx_plan p = { 0 };
        int fd = memfd_create("audit", MFD_CLOEXEC), r;
        ssize_t n;

        snprintf(p.audit_id, sizeof(p.audit_id), "0123456789abcdef");
        p.name = "network";
        p.tool_use_id = "toolu_1";
        r = eg_record_write(fd, &p, msg, record(msg, sizeof(msg), fields));
        n = pread(fd, line, size - 1, 0);
        line[n > 0 ? n : 0] = '\0';
        close(fd);
        return r;
}

static void records(void)
{
        char line[4096];

        static const char *const good[] = { "MESSAGE=sbx: network: denied tls x:443", "PRIORITY=4", "SBX_NET_ACTION=deny",
                                            "SBX_NET_HOST=x\"y", NULL };
        CHECK(G, "a record: the broker's fields, the jail's identity from the plan",
              relayed(good, line, sizeof(line)) == 0 && strstr(line, "\"SBX_NET_HOST\":\"x\\\"y\"") &&
                      strstr(line, "\"SBX_ID\":\"0123456789abcdef\"") && strstr(line, "\"SBX_EVENT\":\"network\"") &&
                      strstr(line, "\"SBX_TOOL_USE_ID\":\"toolu_1\"") &&
                      strstr(line, "\"MESSAGE_ID\":\"" EG_NET_MESSAGE_ID "\"") && line[strlen(line) - 1] == '\n');

        static const char *const id[] = { "SBX_NET_ACTION=allow", "SBX_ID=ffffffffffffffff", NULL };
        CHECK(G, "a record naming another jail (SBX_ID): refused, nothing written",
              relayed(id, line, sizeof(line)) == -EBADMSG && line[0] == '\0');
        static const char *const ev[] = { "SBX_EVENT=exit", NULL };
        CHECK(G, "a record of another event: refused", relayed(ev, line, sizeof(line)) == -EBADMSG && line[0] == '\0');
        static const char *const mid[] = { "MESSAGE_ID=00000000000000000000000000000000", NULL };
        CHECK(G, "a record with its own MESSAGE_ID: refused", relayed(mid, line, sizeof(line)) == -EBADMSG);
        static const char *const twice[] = { "SBX_NET_ACTION=deny", "SBX_NET_ACTION=allow", NULL };
        CHECK(G, "a field twice: refused", relayed(twice, line, sizeof(line)) == -EBADMSG && line[0] == '\0');
        static const char *const lower[] = { "SBX_NET_host=x", NULL };
        CHECK(G, "a name not in A-Z0-9_: refused", relayed(lower, line, sizeof(line)) == -EBADMSG);
        static const char *const noeq[] = { "SBX_NET_ACTION", NULL };
        CHECK(G, "a field without '=': refused", relayed(noeq, line, sizeof(line)) == -EBADMSG);

        char msg[64];
        size_t n = record(msg, sizeof(msg), good);
        int fd = memfd_create("audit", MFD_CLOEXEC);
        struct sbx_plan p = { 0 };

        p.name = "x";
        CHECK(G, "a record not ending in NUL: refused", eg_record_write(fd, &p, msg, n - 1) == -EBADMSG);
        CHECK(G, "a record too short for its kind: refused", eg_record_write(fd, &p, msg, 2) == -EBADMSG);
        CHECK(G, "a record longer than EG_RECORD_MAX: refused",
              eg_record_write(fd, &p, msg, sizeof(uint32_t) + EG_RECORD_MAX + 1) == -EBADMSG);
        close(fd);
}

/* The whole --json line the launcher would print around @out parses, and holds no
 * key but "allowed", "denied", "more" and "error" at its top. */
static bool one_object(void)
{
        char line[SBX_EGRESS_SUMMARY_MAX + 4];
        struct json_object *o;
        bool ok = true;

        snprintf(line, sizeof(line), "{%s}", out);
        o = json_tokener_parse(line);
        if (!o || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                return false;
        }
        json_object_object_foreach(o, key, val)
        {
                (void)val;
                if (strcmp(key, "allowed") && strcmp(key, "denied") && strcmp(key, "more") && strcmp(key, "error"))
                        ok = false;
        }
        json_object_put(o);
        return ok;
}

/* A broker taken over sends rows of its choosing: every string at its longest, each
 * byte one that escapes to six ("\u0001"), a bool that is neither. */
static void hostile_rows(void)
{
        s.kind = EG_MSG_SUMMARY;
        s.dropped = 0;
        s.n_rows = 0;
        row("x", 443, false, "", 1);
        memset(s.rows[0].host, 1, sizeof(s.rows[0].host) - 1);
        memset(s.rows[0].code, 1, sizeof(s.rows[0].code) - 1);
        memset(s.rows[0].reason, 1, sizeof(s.rows[0].reason) - 1);
        row("\"}],\"status\":0,\"x\":[{\"", 80, false, "\"}],\"status\":0,\"y\":{\"", 1);
        json(sent());
        CHECK(G, "a row whose escaped JSON outgrows the row buffer: the line is still one object of our keys",
              one_object() && !strstr(out, "\"status\":0"));

        s.n_rows = 0;
        for (int i = 0; i < EG_SUMMARY_ROWS; i++) {
                row("x", (uint16_t)i, i % 2, "", 1);
                memset(s.rows[i].host, i % 3 ? 1 : '"', sizeof(s.rows[i].host) - 1);
                memset(s.rows[i].code, '\\', sizeof(s.rows[i].code) - 1);
                memset(s.rows[i].reason, 0x7f, sizeof(s.rows[i].reason) - 1);
        }
        s.dropped = 0xffffffffu;
        json(sent());
        CHECK(G, "a full table of the longest escapes: one object, closed", one_object());

        s.n_rows = 0;
        s.dropped = 0;
        row("two.example", 443, true, "", 1);
        memset(&s.rows[0].allowed, 2, sizeof(s.rows[0].allowed));
        CHECK(G, "a row whose verdict is neither allowed nor denied: malformed", strcmp(json(sent()), MALFORMED) == 0);
        s.n_rows = 0;
        s.dropped = 0;
}

int main(void)
{
        records();
        hostile_rows();
        s.kind = EG_MSG_SUMMARY;
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
        s.kind = EG_MSG_RECORD;
        CHECK(G, "a record where the summary was due: malformed", strcmp(json(sent()), MALFORMED) == 0);
        s.kind = EG_MSG_SUMMARY;
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
