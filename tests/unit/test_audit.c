/* SPDX-License-Identifier: MIT */
/* Audit records from the outside, both ways out: the logfmt fallback line, byte for
 * byte, when no journal runs; and, through a journal socket of our own in a private
 * mount namespace, the datagram sd_journal_sendv sends, parsed field by field as
 * journald would, to show that no value (argv, a reason with newlines) can forge a
 * field.  The real journald is tests/integration/t_audit.sh's. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sys/wait.h>

#include "../../lib/audit.h"
#include "../../lib/auditfile.h"
#include "unit.h"

#define G "unit-audit"
#define JOURNAL_DIR "/run/systemd/journal"
#define JOURNAL_SOCKET JOURNAL_DIR "/socket"

static void skip(const char *name, const char *why)
{
        const char *file = getenv("SBX_RESULTS");
        FILE *f = file ? fopen(file, "a") : NULL;

        printf("skip %s: %s -- %s\n", G, name, why);
        if (f) {
                fprintf(f, "skip\t%s: %s\t%s\n", G, name, why);
                fclose(f);
        }
}

/* ------------------------------------------------------------------ a private /run */

static int write_file(const char *path, const char *text)
{
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        ssize_t n;

        if (fd < 0)
                return -1;
        n = write(fd, text, strlen(text));
        close(fd);
        return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A mount namespace of our own whose /run/systemd/journal is an empty tmpfs directory:
 * no journal, whatever the host runs, until a test binds a socket there.  As root, or
 * unprivileged through a user namespace. */
static bool private_journal_dir(void)
{
        uid_t uid = getuid();
        gid_t gid = getgid();
        struct stat st;

        if (unshare(CLONE_NEWNS) < 0) {
                char map[64];

                if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
                        return false;
                snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
                if (write_file("/proc/self/setgroups", "deny") < 0 || write_file("/proc/self/uid_map", map) < 0)
                        return false;
                snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
                if (write_file("/proc/self/gid_map", map) < 0)
                        return false;
        }
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return false;
        /* The deepest directory that exists: mounting needs a mount point. */
        if (stat(JOURNAL_DIR, &st) == 0) {
                if (mount("tmpfs", JOURNAL_DIR, "tmpfs", 0, "mode=0755") < 0)
                        return false;
        } else if (stat("/run/systemd", &st) == 0) {
                if (mount("tmpfs", "/run/systemd", "tmpfs", 0, "mode=0755") < 0 || mkdir(JOURNAL_DIR, 0755) < 0)
                        return false;
        } else if (mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") < 0 || mkdir("/run/systemd", 0755) < 0 ||
                   mkdir(JOURNAL_DIR, 0755) < 0) {
                return false;
        }
        return stat(JOURNAL_SOCKET, &st) < 0 && errno == ENOENT;
}

/* ------------------------------------------------------------------ helpers */

static struct sbx_audit denied_record(void)
{
        static char *const argv[] = { "/usr/bin/rm", "-rf", "/", NULL };

        return (struct sbx_audit){
                .id = "3f2a0000deadbeef",
                .mode = "daemon",
                .profile = "network",
                .uid = 1000,
                .gid = 100,
                .pid = 4242,
                .argv = argv,
                .cwd = "/home/u/ws",
                .reason = "rm: '/' is protected",
        };
}

/* The fallback line sbx_audit_log writes for @ev (the journal being absent); *@r gets
 * what it returned. */
static char *fallback_line(enum sbx_audit_event ev, const struct sbx_audit *a, int *r)
{
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        if (!f)
                abort();
        *r = sbx_audit_log(ev, a, f);
        fclose(f);
        return buf;
}

static bool line_is(enum sbx_audit_event ev, const struct sbx_audit *a, const char *want)
{
        int r;
        char *got = fallback_line(ev, a, &r);
        bool ok = r == 0 && strcmp(got, want) == 0;

        if (!ok)
                printf("     r=%d\n     got:  %s     want: %s", r, got, want);
        free(got);
        return ok;
}

/* ------------------------------------------------------------------ ids */

static bool is_hex(const char *s, size_t n)
{
        if (!s || strlen(s) != n)
                return false;
        for (size_t i = 0; i < n; i++)
                if (!strchr("0123456789abcdef", s[i]))
                        return false;
        return true;
}

static void test_ids(void)
{
        const char *ids[SBX_AUDIT_DAEMON + 1];
        bool hex = true, distinct = true;
        char a[SBX_AUDIT_ID_SIZE], b[SBX_AUDIT_ID_SIZE];

        for (int ev = 0; ev <= SBX_AUDIT_DAEMON; ev++) {
                ids[ev] = sbx_audit_message_id(ev);
                hex = hex && is_hex(ids[ev], 32);
                for (int j = 0; j < ev && hex; j++)
                        distinct = distinct && strcmp(ids[j], ids[ev]) != 0;
        }
        CHECK(G, "every MESSAGE_ID is 32 lowercase hex digits", hex);
        CHECK(G, "MESSAGE_IDs are distinct", distinct);
        CHECK(G, "no MESSAGE_ID for an unknown event", sbx_audit_message_id(SBX_AUDIT_DAEMON + 1) == NULL);
        CHECK(G, "no record for an unknown event", sbx_audit_log(SBX_AUDIT_DAEMON + 1, &(struct sbx_audit){ 0 }, stdout) == -EINVAL);

        sbx_audit_id_new(a);
        sbx_audit_id_new(b);
        CHECK(G, "a sandbox id is 16 hex digits", is_hex(a, 16) && is_hex(b, 16));
        CHECK(G, "two sandbox ids differ", strcmp(a, b) != 0);
}

/* ------------------------------------------------------------------ the fallback line */

static void test_fallback(void)
{
        struct sbx_audit a = denied_record();
        struct sbx_error e = { 0 };
        struct sbx_result res = {
                .status = 137, .exit_code = -1, .signal = 9, .wall_ms = 12, .cpu_user_ms = 3, .cpu_sys_ms = 4,
                .peak_memory = 1048576, .weakened = "landlock: not in this kernel\ncgroup: none",
        };
        int r;
        char *got;

        CHECK(G, "denied: the fallback line, exactly",
              line_is(SBX_AUDIT_DENIED, &a,
                      "sbx event=denied id=3f2a0000deadbeef mode=daemon profile=network uid=1000 gid=100 pid=4242 "
                      "argv0=rm argv=\"[\\\"/usr/bin/rm\\\",\\\"-rf\\\",\\\"/\\\"]\" cwd=/home/u/ws decision=deny "
                      "reason=\"rm: '/' is protected\"\n"));
        CHECK(G, "no journal and no fallback: -ENOENT, nothing written", sbx_audit_log(SBX_AUDIT_DENIED, &a, NULL) == -ENOENT);

        /* The isolation tier and its substitutions (lib/tier.h), when a run chose one. */
        a.tier = "container-userns";
        a.substitutions = "proc=none (P3 mount proc: Operation not permitted)";
        got = fallback_line(SBX_AUDIT_ALLOWED, &a, &r);
        CHECK(G, "tier and substitutions in the record",
              r == 0 && strstr(got, " tier=container-userns ") &&
                      strstr(got, " substitutions=\"proc=none (P3 mount proc: Operation not permitted)\" "));
        free(got);
        a.substitutions = "";
        got = fallback_line(SBX_AUDIT_ALLOWED, &a, &r);
        CHECK(G, "... none substituted: no substitutions field", r == 0 && !strstr(got, "substitutions="));
        free(got);
        a.tier = a.substitutions = NULL;

        a.reason = NULL;
        CHECK(G, "allowed: decision=allow, no reason",
              line_is(SBX_AUDIT_ALLOWED, &a,
                      "sbx event=allowed id=3f2a0000deadbeef mode=daemon profile=network uid=1000 gid=100 pid=4242 "
                      "argv0=rm argv=\"[\\\"/usr/bin/rm\\\",\\\"-rf\\\",\\\"/\\\"]\" cwd=/home/u/ws decision=allow\n"));

        a.result = &res;
        CHECK(G, "exit: the result's fields, newlines escaped",
              line_is(SBX_AUDIT_EXIT, &a,
                      "sbx event=exit id=3f2a0000deadbeef mode=daemon profile=network uid=1000 gid=100 pid=4242 "
                      "argv0=rm argv=\"[\\\"/usr/bin/rm\\\",\\\"-rf\\\",\\\"/\\\"]\" cwd=/home/u/ws exit_status=137 "
                      "signal=9 timed_out=0 oom_killed=0 duration_ms=12 cpu_ms=7 peak_memory=1048576 "
                      "weakened=\"landlock: not in this kernel\\ncgroup: none\"\n"));

        sbx_error_set(&e, SBX_STAGE_MOUNT, 13, "mount", "/srv/data dir", "cannot bind");
        a = (struct sbx_audit){ .id = "00000000000000aa", .mode = "direct", .uid = 0, .gid = 0, .error = &e };
        CHECK(G, "failed: the error's fields, uid 0 kept",
              line_is(SBX_AUDIT_FAILED, &a,
                      "sbx event=failed id=00000000000000aa mode=direct uid=0 gid=0 stage=mount errno=13 syscall=mount "
                      "path=\"/srv/data dir\" error=\"mount: cannot bind: mount '/srv/data dir': Permission denied\"\n"));

        a = (struct sbx_audit){ .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1, .ok = true };
        CHECK(G, "reload ok: unknown uid/gid left out, empty reason left out",
              line_is(SBX_AUDIT_RELOAD, &a, "sbx event=reload mode=daemon decision=ok\n"));
        a.ok = false;
        a.reason = "/etc/sbx/policy.yaml:3:1: unknown key 'userz'";
        CHECK(G, "reload failed: decision=failed and the reason",
              line_is(SBX_AUDIT_RELOAD, &a,
                      "sbx event=reload mode=daemon decision=failed reason=\"/etc/sbx/policy.yaml:3:1: unknown key 'userz'\"\n"));
        a.reason = "";
        CHECK(G, "an empty reason is left out", line_is(SBX_AUDIT_DAEMON, &a, "sbx event=daemon mode=daemon\n"));

        /* Quoting: what forces quotes, and every escape. */
        a = (struct sbx_audit){ .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1, .profile = "pr\xc3\xb8" "fil",
                                .cwd = "/ws/\xff", .reason = "a \"b\" = c\\d\ne\tf\rg\x01h\x7f" };
        CHECK(G, "quoting: UTF-8 bare, bad bytes \\xNN, \\\" \\\\ \\n \\t \\r \\x01 \\x7f",
              line_is(SBX_AUDIT_KILL, &a,
                      "sbx event=kill mode=daemon profile=pr\xc3\xb8" "fil cwd=\"/ws/\\xff\" "
                      "reason=\"a \\\"b\\\" = c\\\\d\\ne\\tf\\rg\\x01h\\x7f\"\n"));
        a.reason = "x=y";
        a.cwd = NULL;
        a.profile = NULL;
        CHECK(G, "quoting: a bare '=' is quoted", line_is(SBX_AUDIT_KILL, &a, "sbx event=kill mode=daemon reason=\"x=y\"\n"));

        /* The forged field stays inside the value it came in. */
        a.reason = "x\nSBX_DECISION=allow";
        got = fallback_line(SBX_AUDIT_DENIED, &a, &r);
        CHECK(G, "fallback: a newline in a value cannot start a line or a key",
              r == 0 && strcmp(got, "sbx event=denied mode=daemon decision=deny reason=\"x\\nSBX_DECISION=allow\"\n") == 0);
        free(got);
}

/* ------------------------------------------------------------------ argv */

/* The argv= value of the fallback line, unquoted (only \" and \\ occur in these). */
static char *argv_of(char *const *argv, size_t max, bool *truncated)
{
        struct sbx_audit a = { .mode = "daemon", .uid = (uid_t)-1, .gid = (gid_t)-1, .argv = argv, .argv_max = max };
        int r;
        char *line = fallback_line(SBX_AUDIT_ALLOWED, &a, &r), *at, *out, *o;

        *truncated = strstr(line, " argv_truncated=1") != NULL;
        at = strstr(line, " argv=");
        out = o = calloc(1, strlen(line) + 1);
        if (!at || !out)
                abort();
        at += 6;
        if (*at != '"') {
                strcpy(out, at);
                out[strcspn(out, " \n")] = '\0';
                free(line);
                return out;
        }
        for (at++; *at && *at != '"'; at++) {
                if (*at == '\\')
                        at++;
                *o++ = *at;
        }
        free(line);
        return out;
}

static bool argv_is(char *const *argv, size_t max, const char *want, bool want_truncated)
{
        bool truncated;
        char *got = argv_of(argv, max, &truncated);
        bool ok = strcmp(got, want) == 0 && truncated == want_truncated && strlen(got) <= (max ? max : 4096);

        if (!ok)
                printf("     got %s (%zu bytes, truncated=%d), want %s\n", got, strlen(got), truncated, want);
        free(got);
        return ok;
}

static void test_argv(void)
{
        char e26[64] = "", e40[128] = "", want[256], big[8192];
        char *utf8[] = { "echo", e40, NULL };
        char *quotes[] = { "echo", "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"", NULL };
        char *comma[] = { "012345678901234567890123456789012345678901234567890123456789", "b", NULL };
        char *ctl[] = { "echo", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x01\x01", NULL };
        char *fits[] = { "echo", "01234567890123456789012345678901234567890123456789012", NULL };
        char *bad[] = { "x\xff", NULL };
        char *many[2000];

        for (int i = 0; i < 26; i++)
                strcat(e26, "\xc3\xa9");
        for (int i = 0; i < 40; i++)
                strcat(e40, "\xc3\xa9");
        snprintf(want, sizeof(want), "[\"echo\",\"%s\"]", e26);
        CHECK(G, "argv cut at argv_max on a UTF-8 boundary, still a JSON array", argv_is(utf8, 64, want, true));
        CHECK(G, "argv cut never splits an escape",
              argv_is(quotes, 64, "[\"echo\",\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\"]", true));
        CHECK(G, "argv cut drops a dangling comma",
              argv_is(comma, 64, "[\"012345678901234567890123456789012345678901234567890123456789\"]", true));
        CHECK(G, "argv cut never splits a \\u escape",
              argv_is(ctl, 64, "[\"echo\",\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]", true));
        CHECK(G, "argv of exactly argv_max bytes is not cut",
              argv_is(fits, 64, "[\"echo\",\"01234567890123456789012345678901234567890123456789012\"]", false));
        CHECK(G, "argv: a byte that is not UTF-8 becomes \\ufffd", argv_is(bad, 0, "[\"x\\ufffd\"]", false));

        /* A huge argv: the default 4096, and the work bounded by it. */
        memset(big, 'a', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        for (size_t i = 0; i < sizeof(many) / sizeof(many[0]) - 1; i++)
                many[i] = big;
        many[sizeof(many) / sizeof(many[0]) - 1] = NULL;
        {
                bool truncated;
                char *got = argv_of(many, 0, &truncated);

                CHECK(G, "a 16 MB argv is cut to the default 4096 bytes",
                      truncated && strlen(got) <= 4096 && strlen(got) >= 4090 && strncmp(got, "[\"aaa", 5) == 0 &&
                              strcmp(got + strlen(got) - 2, "\"]") == 0);
                free(got);
        }
}

/* ------------------------------------------------------------------ a journal socket of our own */

struct field {
        char name[64];
        char *value;
        size_t len;
};

/* Parses one datagram of journald's native protocol: "NAME=value\n", or, for a value
 * with a newline, "NAME\n" + 64-bit little-endian length + bytes + "\n".  Returns the
 * number of fields, -1 when it does not parse. */
static int parse_native(const char *d, size_t n, struct field *f, int max)
{
        size_t at = 0;
        int k = 0;

        while (at < n) {
                size_t name_end = at;

                while (name_end < n && d[name_end] != '=' && d[name_end] != '\n')
                        name_end++;
                if (name_end == n || k == max || name_end - at >= sizeof(f[k].name))
                        return -1;
                memcpy(f[k].name, d + at, name_end - at);
                f[k].name[name_end - at] = '\0';
                if (d[name_end] == '=') {
                        const char *nl = memchr(d + name_end + 1, '\n', n - name_end - 1);

                        if (!nl)
                                return -1;
                        f[k].len = (size_t)(nl - (d + name_end + 1));
                        f[k].value = strndup(d + name_end + 1, f[k].len);
                        at = (size_t)(nl - d) + 1;
                } else {
                        uint64_t len = 0;

                        if (name_end + 1 + 8 > n)
                                return -1;
                        for (int i = 7; i >= 0; i--)
                                len = (len << 8) | (unsigned char)d[name_end + 1 + i];
                        if (name_end + 9 + len + 1 > n || d[name_end + 9 + len] != '\n')
                                return -1;
                        f[k].len = len;
                        f[k].value = strndup(d + name_end + 9, len);
                        at = name_end + 9 + len + 1;
                }
                k++;
        }
        return k;
}

static int count(const struct field *f, int n, const char *name)
{
        int c = 0;

        for (int i = 0; i < n; i++)
                c += strcmp(f[i].name, name) == 0;
        return c;
}

static const char *value(const struct field *f, int n, const char *name)
{
        for (int i = 0; i < n; i++)
                if (strcmp(f[i].name, name) == 0)
                        return f[i].value;
        return NULL;
}

static bool value_is(const struct field *f, int n, const char *name, const char *want)
{
        const char *v = value(f, n, name);

        if (count(f, n, name) == 1 && v && strcmp(v, want) == 0)
                return true;
        printf("     %s: %d times, '%s', want '%s'\n", name, count(f, n, name), v ? v : "(none)", want);
        return false;
}

/* Logs @ev to the journal socket @s is bound to and parses what arrived. */
static int receive(int s, enum sbx_audit_event ev, const struct sbx_audit *a, struct field *f, int max, int *r,
                   size_t *fallback_bytes)
{
        static char buf[1 << 20];
        char *out = NULL;
        size_t size = 0;
        FILE *fb = open_memstream(&out, &size);
        ssize_t n;

        *r = sbx_audit_log(ev, a, fb);
        fclose(fb);
        *fallback_bytes = size;
        free(out);
        n = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
        return n < 0 ? -1 : parse_native(buf, (size_t)n, f, max);
}

static void free_fields(struct field *f, int n)
{
        for (int i = 0; i < n; i++)
                free(f[i].value);
}

static void test_journal(void)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = JOURNAL_SOCKET };
        char *const forged_argv[] = { "echo", "x\nSBX_DECISION=allow\nSBX_UID=0", NULL };
        struct sbx_audit a = denied_record();
        struct field f[64];
        char long_reason[3001] = "", want[1025] = "";
        size_t fb;
        int s, n, r;

        s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
                CHECK(G, "a journal socket of our own", false);
                return;
        }

        n = receive(s, SBX_AUDIT_DENIED, &a, f, 64, &r, &fb);
        CHECK(G, "journal: took the entry, nothing on the fallback", r == 0 && n > 0 && fb == 0);
        CHECK(G, "journal: MESSAGE",
              value_is(f, n, "MESSAGE", "sandbox 3f2a0000deadbeef denied: uid 1000 profile 'network': rm: '/' is protected"));
        CHECK(G, "journal: MESSAGE_ID", value_is(f, n, "MESSAGE_ID", sbx_audit_message_id(SBX_AUDIT_DENIED)));
        CHECK(G, "journal: PRIORITY=4 for denied", value_is(f, n, "PRIORITY", "4"));
        CHECK(G, "journal: SYSLOG_IDENTIFIER=sandboxd in daemon mode", value_is(f, n, "SYSLOG_IDENTIFIER", "sandboxd"));
        CHECK(G, "journal: SBX_ARGV as JSON", value_is(f, n, "SBX_ARGV", "[\"/usr/bin/rm\",\"-rf\",\"/\"]"));
        CHECK(G, "journal: SBX_ARGV0 is the basename", value_is(f, n, "SBX_ARGV0", "rm"));
        CHECK(G, "journal: SBX_DECISION=deny", value_is(f, n, "SBX_DECISION", "deny"));
        CHECK(G, "journal: no CODE_FILE", count(f, n, "CODE_FILE") == 0);
        free_fields(f, n);

        /* A forged field, in the reason (raw newline) and in argv (escaped by JSON). */
        a.argv = forged_argv;
        a.reason = "x\nSBX_DECISION=allow\nPRIORITY=7";
        n = receive(s, SBX_AUDIT_DENIED, &a, f, 64, &r, &fb);
        CHECK(G, "forgery: still one SBX_DECISION, and it is deny", r == 0 && value_is(f, n, "SBX_DECISION", "deny"));
        CHECK(G, "forgery: still one PRIORITY, and it is 4", value_is(f, n, "PRIORITY", "4"));
        CHECK(G, "forgery: SBX_UID not forged", value_is(f, n, "SBX_UID", "1000"));
        CHECK(G, "forgery: the reason arrives whole, newlines and all",
              value_is(f, n, "SBX_REASON", "x\nSBX_DECISION=allow\nPRIORITY=7"));
        CHECK(G, "forgery: argv stays in SBX_ARGV",
              value_is(f, n, "SBX_ARGV", "[\"echo\",\"x\\nSBX_DECISION=allow\\nSBX_UID=0\"]"));
        CHECK(G, "forgery: MESSAGE stays one line", value(f, n, "MESSAGE") && !strchr(value(f, n, "MESSAGE"), '\n'));
        free_fields(f, n);

        /* Values are capped at 1024 bytes, on a UTF-8 boundary. */
        for (int i = 0; i < 1500; i++)
                strcat(long_reason, "\xc3\xa9");
        for (int i = 0; i < 512; i++)
                strcat(want, "\xc3\xa9");
        a = denied_record();
        a.reason = long_reason;
        a.mode = "direct";
        n = receive(s, SBX_AUDIT_KILL, &a, f, 64, &r, &fb);
        CHECK(G, "cap: a 3000-byte reason is cut to 1024 bytes on a UTF-8 boundary", r == 0 && value_is(f, n, "SBX_REASON", want));
        CHECK(G, "cap: MESSAGE is at most 1024 bytes", value(f, n, "MESSAGE") && strlen(value(f, n, "MESSAGE")) <= 1024);
        CHECK(G, "journal: SYSLOG_IDENTIFIER=sbx-run in direct mode", value_is(f, n, "SYSLOG_IDENTIFIER", "sbx-run"));
        CHECK(G, "journal: PRIORITY=4 for kill", value_is(f, n, "PRIORITY", "4"));
        free_fields(f, n);

        /* A socket nobody reads any more (journald died): the fallback takes it. */
        close(s);
        a = denied_record();
        {
                int rr;
                char *line = fallback_line(SBX_AUDIT_DENIED, &a, &rr);

                CHECK(G, "a dead journal socket: the fallback line", rr == 0 && strncmp(line, "sbx event=denied id=", 20) == 0);
                free(line);
        }
        CHECK(G, "a dead journal socket and no fallback: an error", sbx_audit_log(SBX_AUDIT_DENIED, &a, NULL) < 0);
        unlink(JOURNAL_SOCKET);
}

/* ------------------------------------------------------------------ the audit file */

/* The whole content of @fd (a file), from the start. */
static char *slurp(int fd)
{
        static char buf[1 << 22];
        ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

        buf[n < 0 ? 0 : n] = '\0';
        return buf;
}

static int tmpfile_fd(void)
{
        char path[] = "/var/tmp/sbx-unit-audit.XXXXXX";
        int fd = mkstemp(path);

        if (fd >= 0)
                unlink(path);
        return fd;
}

/* One JSON line: exactly one '\n', at the end, and an object json-c parses. */
static struct json_object *one_line(const char *text)
{
        const char *nl = strchr(text, '\n');

        if (!nl || nl[1] != '\0')
                return NULL;
        return json_tokener_parse(text);
}

static const char *jstr(struct json_object *o, const char *key)
{
        struct json_object *v;

        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                                                : NULL;
}

static void test_file_lines(void)
{
        char *const argv[] = { "/bin/echo", "a\"b\\c", "\x01\x1f\x7f", "\xff\xfe", NULL };
        char ctl[40];
        struct sbx_audit a = denied_record();
        struct json_object *o, *v;
        char *fb_buf = NULL;
        size_t fb_size = 0;
        FILE *fb = open_memstream(&fb_buf, &fb_size);
        int fd = tmpfile_fd(), r, ok;
        const char *text;

        for (int i = 1; i < 32; i++)
                ctl[i - 1] = (char)i;
        ctl[31] = 0x7f;
        ctl[32] = '\0';
        a.argv = argv;
        a.reason = ctl;            /* every control character */
        a.cwd = "/home/u/\xe9t\xc3";  /* not UTF-8: Latin-1 and a cut sequence */
        r = sbx_audit_emit(SBX_AUDIT_DENIED, &a, &(struct sbx_audit_sink){ .fd = fd, .fallback = fb });
        fclose(fb);
        CHECK(G, "file: written, nothing on the fallback", r == 0 && fb_size == 0);
        free(fb_buf);
        text = slurp(fd);
        o = one_line(text);
        CHECK(G, "file: one line, one JSON object", o && json_object_is_type(o, json_type_object));
        if (!o) {
                printf("     got: %s\n", text);
                close(fd);
                return;
        }
        CHECK(G, "file: MESSAGE_ID", jstr(o, "MESSAGE_ID") && strcmp(jstr(o, "MESSAGE_ID"), sbx_audit_message_id(SBX_AUDIT_DENIED)) == 0);
        CHECK(G, "file: PRIORITY is the journal's string", jstr(o, "PRIORITY") && strcmp(jstr(o, "PRIORITY"), "4") == 0);
        CHECK(G, "file: SBX_EVENT, SBX_UID as strings",
              jstr(o, "SBX_EVENT") && strcmp(jstr(o, "SBX_EVENT"), "denied") == 0 && jstr(o, "SBX_UID") &&
                      strcmp(jstr(o, "SBX_UID"), "1000") == 0);
        CHECK(G, "file: __REALTIME_TIMESTAMP in microseconds", jstr(o, "__REALTIME_TIMESTAMP") &&
                                                                    strtoull(jstr(o, "__REALTIME_TIMESTAMP"), NULL, 10) > 1600000000000000ull);
        CHECK(G, "file: every control character of the reason round-trips", jstr(o, "SBX_REASON") && strcmp(jstr(o, "SBX_REASON"), ctl) == 0);
        CHECK(G, "file: no raw control byte in the line", strcspn(text, "\x01\x02\x1f\x7f\t\r") == strlen(text));
        CHECK(G, "file: SBX_ARGV is the journal's JSON text",
              jstr(o, "SBX_ARGV") && strcmp(jstr(o, "SBX_ARGV"), "[\"/bin/echo\",\"a\\\"b\\\\c\",\"\\u0001\\u001f\\u007f\",\"\\ufffd\\ufffd\"]") == 0);
        /* Not UTF-8: the bytes, as journalctl -o json prints them. */
        ok = json_object_object_get_ex(o, "SBX_CWD", &v) && json_object_is_type(v, json_type_array) &&
             json_object_array_length(v) == strlen(a.cwd);
        for (size_t i = 0; ok && i < strlen(a.cwd); i++)
                ok = json_object_get_int(json_object_array_get_idx(v, i)) == (unsigned char)a.cwd[i];
        CHECK(G, "file: a value that is not UTF-8 is the array of its bytes", ok);
        json_object_put(o);

        /* No file, no journal, no fallback: nothing took it. */
        CHECK(G, "file: -1 means none", sbx_audit_emit(SBX_AUDIT_DENIED, &a, &(struct sbx_audit_sink){ .fd = -1 }) == -ENOENT);
        /* A file that fails: the error comes back (sbx-run refuses to run then). */
        CHECK(G, "file: a write error comes back", sbx_audit_emit(SBX_AUDIT_DENIED, &a, &(struct sbx_audit_sink){ .fd = 999 }) == -EBADF);
        close(fd);
}

/* The journal's datagram and the file's line for the same record: the same fields,
 * the same values (the file adds __REALTIME_TIMESTAMP only). */
static void test_file_is_journal(void)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = JOURNAL_SOCKET };
        static char buf[1 << 20];
        char *const argv[] = { "/bin/sh", "-c", "echo \"$x\"\n", NULL };
        struct sbx_result res = { .status = 3, .exit_code = 3, .wall_ms = 5, .peak_memory = 4096, .weakened = "a\nb" };
        struct sbx_error err = { 0 };
        struct sbx_audit a = denied_record();
        struct field f[64];
        struct json_object *o;
        int s, fd = tmpfile_fd(), n, same = 1;
        ssize_t len;

        s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
                CHECK(G, "a journal socket of our own", false);
                return;
        }
        sbx_error_set(&err, SBX_STAGE_MOUNT, ENOENT, "open_tree", "/x", "cannot bind");
        a.argv = argv;
        a.result = &res;
        a.error = &err;
        a.tool_use_id = "toolu_01";
        CHECK(G, "journal and file: both took it", sbx_audit_emit(SBX_AUDIT_EXIT, &a, &(struct sbx_audit_sink){ .fd = fd }) == 0);
        len = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
        n = len < 0 ? -1 : parse_native(buf, (size_t)len, f, 64);
        o = one_line(slurp(fd));
        same = n > 10 && o && json_object_object_length(o) == n + 1;
        for (int i = 0; same && i < n; i++) {
                const char *v = jstr(o, f[i].name);

                same = v && strlen(v) == f[i].len && memcmp(v, f[i].value, f[i].len) == 0;
                if (!same)
                        printf("     %s: journal '%s', file '%s'\n", f[i].name, f[i].value, v ? v : "(none)");
        }
        CHECK(G, "journal and file: the same fields with the same values", same);
        if (o)
                json_object_put(o);
        free_fields(f, n > 0 ? n : 0);
        close(s);
        close(fd);
        unlink(JOURNAL_SOCKET);
}

/* 20 processes, 100 records each, argv of 16 KiB (four times PIPE_BUF): every line of
 * the O_APPEND file is whole. */
static void test_file_concurrent(void)
{
        enum { WRITERS = 20, RECORDS = 100 };
        static char big[16384 + WRITERS];
        char path[] = "/var/tmp/sbx-unit-audit.XXXXXX";
        int fd = mkstemp(path), bad = 0, lines = 0;
        struct sbx_error e = { 0 };
        char *line = NULL;
        size_t cap = 0;
        FILE *f;

        if (fd < 0) {
                CHECK(G, "concurrent: a temporary file", false);
                return;
        }
        close(fd);
        memset(big, 'x', sizeof(big) - 1);
        for (int w = 0; w < WRITERS; w++) {
                pid_t pid = fork();

                if (pid == 0) {
                        int afd = sbx_audit_file_open(path, &e);
                        char *const argv[] = { "/bin/x", big + w, NULL };
                        struct sbx_audit a = denied_record();

                        a.argv = argv;
                        a.argv_max = 65536;
                        for (int i = 0; i < RECORDS; i++)
                                if (afd < 0 || sbx_audit_emit(SBX_AUDIT_DENIED, &a, &(struct sbx_audit_sink){ .fd = afd }) < 0)
                                        _exit(1);
                        _exit(0);
                }
        }
        for (int w = 0; w < WRITERS; w++) {
                int st;

                if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
                        bad++;
        }
        CHECK(G, "concurrent: every writer wrote", bad == 0);
        f = fopen(path, "re");
        unlink(path);
        bad = 0;
        while (f && getline(&line, &cap, f) > 0) {
                struct json_object *o = json_tokener_parse(line);

                lines++;
                if (!o || !jstr(o, "SBX_ARGV") || strcmp(jstr(o, "SBX_EVENT") ? jstr(o, "SBX_EVENT") : "", "denied") != 0)
                        bad++;
                if (o)
                        json_object_put(o);
        }
        free(line);
        if (f)
                fclose(f);
        CHECK(G, "concurrent: 2000 lines of 16 KiB, each one whole JSON", lines == WRITERS * RECORDS && bad == 0);
        if (lines != WRITERS * RECORDS || bad)
                printf("     %d lines, %d bad\n", lines, bad);
}

/* What sbx_audit_file_open and sbx_audit_fd_take refuse, and what they make. */
static void test_file_open(void)
{
        char dir[] = "/var/tmp/sbx-unit-auditdir.XXXXXX", p[256], q[256];
        struct sbx_error e = { 0 };
        struct stat st;
        int fd, fl, pfd[2];

        if (!mkdtemp(dir)) {
                CHECK(G, "open: a temporary directory", false);
                return;
        }
        snprintf(p, sizeof(p), "%s/a.jsonl", dir);
        fd = sbx_audit_file_open(p, &e);
        CHECK(G, "open: created 0600, append, cloexec, blocking",
              fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0600 && (fl = fcntl(fd, F_GETFL)) >= 0 && (fl & O_APPEND) &&
                      !(fl & O_NONBLOCK) && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
        if (fd >= 0)
                close(fd);

        snprintf(q, sizeof(q), "%s/link", dir);
        CHECK(G, "open: a symlink is refused (ELOOP)", symlink(p, q) == 0 && sbx_audit_file_open(q, &e) == -ELOOP);
        unlink(q);
        CHECK(G, "open: a hard link (two names) is refused", link(p, q) == 0 && sbx_audit_file_open(p, &e) == -EMLINK);
        unlink(q);
        CHECK(G, "open: a FIFO is refused, without hanging", mkfifo(q, 0600) == 0 && sbx_audit_file_open(q, &e) < 0);
        unlink(q);
        CHECK(G, "open: a directory is refused", mkdir(q, 0700) == 0 && sbx_audit_file_open(q, &e) < 0);
        rmdir(q);
        chmod(p, 0620);
        CHECK(G, "open: group-writable is refused", sbx_audit_file_open(p, &e) == -EPERM);
        chmod(p, 0602);
        CHECK(G, "open: world-writable is refused", sbx_audit_file_open(p, &e) == -EPERM);
        chmod(p, 0640);
        fd = sbx_audit_file_open(p, &e);
        CHECK(G, "open: 0640 of our own is taken", fd >= 0);
        if (fd >= 0)
                close(fd);
        if (geteuid() == 0 && chown(p, 65534, 65534) == 0)
                CHECK(G, "open: another uid's file is refused", sbx_audit_file_open(p, &e) == -EPERM);
        unlink(p);

        fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        fcntl(fd, F_SETFD, 0);
        CHECK(G, "fd: a file fd gets O_APPEND and FD_CLOEXEC",
              fd > 2 && sbx_audit_fd_take(fd, &e) == fd && (fcntl(fd, F_GETFL) & O_APPEND) && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
        close(fd);
        fd = open(p, O_RDONLY | O_CLOEXEC);
        CHECK(G, "fd: one open only for reading is refused", sbx_audit_fd_take(fd, &e) == -EBADF);
        close(fd);
        CHECK(G, "fd: a closed one is refused", sbx_audit_fd_take(987, &e) == -EBADF);
        CHECK(G, "fd: a pipe is taken", pipe(pfd) == 0 && sbx_audit_fd_take(pfd[1], &e) == pfd[1]);
        close(pfd[0]);
        close(pfd[1]);
        chmod(p, 0666);
        fd = open(p, O_WRONLY | O_CLOEXEC);
        CHECK(G, "fd: a world-writable file is refused", sbx_audit_fd_take(fd, &e) == -EPERM);
        close(fd);
        unlink(p);
        rmdir(dir);
}

int main(void)
{
        test_ids();
        if (!private_journal_dir()) {
                skip("fallback and journal checks", "no private mount namespace here (neither root nor a user namespace)");
                return unit_failed != 0;
        }
        test_fallback();
        test_argv();
        test_journal();
        test_file_lines();
        test_file_is_journal();
        test_file_concurrent();
        test_file_open();
        return unit_failed != 0;
}
