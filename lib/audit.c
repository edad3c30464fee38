/* SPDX-License-Identifier: MIT */
/* Audit records: runs in the launcher (sbx-run, direct mode) and in sandboxd, never in a
 * jail.  Builds one entry as a list of "NAME=value" fields, then hands it to the journal
 * and the audit file (auditfile.c) or, when neither took it, writes it as one logfmt
 * line. */
#include "audit.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/* CODE_FILE/CODE_LINE/CODE_FUNC would always name this file: leave them out. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "auditfile.h"
#include "cleanup.h"
#include "json.h"

#define VALUE_MAX 1024        /* bytes of any value but SBX_ARGV */
#define ARGV_MAX_DEFAULT 4096
#define ARGV_MAX_LIMIT ((size_t)1024 * 1024) /* what a profile may ask for (sbx-profile(5)) */
#define MAX_FIELDS 40
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/* MESSAGE_IDs: made once with `systemd-id128 new`; never change one (queries and
 * alerts select on them). */
static const struct {
        const char *name, *message_id;
        int priority;
} events[] = {
        [SBX_AUDIT_ALLOWED] = { "allowed", "e24a03d3a4e54bac914f01bf1b5fe874", LOG_INFO },
        [SBX_AUDIT_DENIED] = { "denied", "86265e15c6e94d9fbb52a5cffca2a15f", LOG_WARNING },
        [SBX_AUDIT_FAILED] = { "failed", "ab6d1530ddaa438290d06843113cce6a", LOG_ERR },
        [SBX_AUDIT_EXIT] = { "exit", "8d0361d253694b50860bfedc155f483c", LOG_INFO },
        [SBX_AUDIT_KILL] = { "kill", "58d48f18d4d4416da57931740aee692b", LOG_WARNING },
        [SBX_AUDIT_RELOAD] = { "reload", "17c75473be5e45edaa16e9b181a7de10", LOG_INFO },
        [SBX_AUDIT_DAEMON] = { "daemon", "46fd558c51f14718921f73823abd22dd", LOG_INFO },
};

/* One entry: each field its own "NAME=value" iovec, as sd_journal_sendv takes them. */
struct entry {
        struct iovec f[MAX_FIELDS];
        size_t n;
        int r; /* the first failure to add a field */
};

static void entry_done(struct entry *en)
{
        for (size_t i = 0; i < en->n; i++)
                free(en->f[i].iov_base);
        en->n = 0;
}

/* ------------------------------------------------------------------ UTF-8 */

/* How many bytes of @s to keep so that it is at most @max long and no valid UTF-8
 * sequence is split (a byte that is not UTF-8 counts as one character). */
static size_t utf8_cut(const char *s, size_t max)
{
        size_t at = 0;

        while (s[at]) {
                size_t n = sbx_utf8_len((const unsigned char *)s + at);

                if (n == 0)
                        n = 1;
                if (at + n > max)
                        break;
                at += n;
        }
        return at;
}

/* ------------------------------------------------------------------ fields */

/* Adds NAME=@value, the value cut to @max bytes; nothing when it is NULL or empty. */
static void add_max(struct entry *en, const char *name, const char *value, size_t max)
{
        char *kv;

        if (en->r < 0 || !value || !*value)
                return;
        if (en->n == MAX_FIELDS) {
                en->r = -E2BIG;
                return;
        }
        if (asprintf(&kv, "%s=%.*s", name, (int)utf8_cut(value, max), value) < 0) {
                en->r = -ENOMEM;
                return;
        }
        en->f[en->n++] = (struct iovec){ .iov_base = kv, .iov_len = strlen(kv) };
}

static void add(struct entry *en, const char *name, const char *value)
{
        add_max(en, name, value, VALUE_MAX);
}

static void addf(struct entry *en, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void addf(struct entry *en, const char *name, const char *fmt, ...)
{
        _cleanup_free_ char *v = NULL;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&v, fmt, ap);
        va_end(ap);
        if (r < 0) {
                v = NULL; /* vasprintf leaves it undefined */
                if (en->r == 0)
                        en->r = -ENOMEM;
                return;
        }
        add(en, name, v);
}

/* ------------------------------------------------------------------ argv */

/* Cuts the JSON array @j (of length @len, as argv_json writes it: escapes from
 * sbx_json_string, valid UTF-8) to at most @max bytes, and closes it again: the cut
 * never splits an escape or a UTF-8 sequence, drops a dangling ',' and ends an open
 * string with '"]', so the result is still a JSON array of (shortened) strings. */
static void json_cut(char *j, size_t len, size_t max)
{
        size_t at = 1, best = 1; /* after '[' */
        bool in_str = false, best_in_str = false;

        if (max < 2)
                max = 2;
        while (at < len) {
                unsigned char c = (unsigned char)j[at];
                size_t u = 1, keep;

                if (in_str && c == '\\')
                        u = j[at + 1] == 'u' ? 6 : 2;
                else if (c >= 0x80)
                        u = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
                else if (c == '"')
                        in_str = !in_str;
                if (at + u > len)
                        break;
                at += u;
                keep = at;
                if (!in_str && j[at - 1] == ',')
                        keep--;
                if (keep + (in_str ? 2 : 1) > max)
                        break;
                best = keep;
                best_in_str = in_str;
        }
        if (best_in_str)
                j[best++] = '"';
        j[best++] = ']';
        j[best] = '\0';
}

/* @argv as a JSON array of at most @max bytes; *@truncated when it had to be cut. */
static char *argv_json(char *const *argv, size_t max, bool *truncated)
{
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        *truncated = false;
        if (!f)
                return NULL;
        fputc('[', f);
        for (size_t i = 0; argv[i]; i++) {
                /* Escaping never shortens, so max + 4 bytes of an argument (4: one more
                 * UTF-8 sequence) are enough to fill the cut; a huge argv costs no more. */
                _cleanup_free_ char *arg = strndup(argv[i], max + 4);

                if (!arg) {
                        fclose(f);
                        free(buf);
                        return NULL;
                }
                if (i > 0)
                        fputc(',', f);
                sbx_json_string(f, arg);
                if (ftell(f) > (long)max) {
                        *truncated = true;
                        break;
                }
        }
        if (!*truncated)
                fputc(']', f);
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        if (size > max) {
                *truncated = true;
                json_cut(buf, size, max);
        }
        return buf;
}

static void add_argv(struct entry *en, char *const *argv, size_t max)
{
        _cleanup_free_ char *json = NULL;
        const char *base;
        bool truncated;

        if (!argv || !argv[0])
                return;
        base = strrchr(argv[0], '/');
        base = base && base[1] ? base + 1 : argv[0];
        add(en, "SBX_ARGV0", base);
        if (max == 0)
                max = ARGV_MAX_DEFAULT;
        json = argv_json(argv, max < ARGV_MAX_LIMIT ? max : ARGV_MAX_LIMIT, &truncated);
        if (!json) {
                if (en->r == 0)
                        en->r = -ENOMEM;
                return;
        }
        add_max(en, "SBX_ARGV", json, SIZE_MAX);
        if (truncated)
                add(en, "SBX_ARGV_TRUNCATED", "1");
}

/* ------------------------------------------------------------------ the human line */

/* "uid 1000 profile 'network'", or less when not known; with @cmd, " runs 'rm'" too. */
static void subject(const struct sbx_audit *a, bool cmd, char *buf, size_t size)
{
        const char *base = a->argv && a->argv[0] ? strrchr(a->argv[0], '/') : NULL;
        size_t n = 0;

        buf[0] = '\0';
        if (a->uid != (uid_t)-1)
                n += (size_t)snprintf(buf, size, "uid %u", (unsigned)a->uid);
        if (a->profile && *a->profile && n < size)
                n += (size_t)snprintf(buf + n, size - n, "%sprofile '%s'", n ? " " : "", a->profile);
        if (cmd && a->argv && a->argv[0] && n < size)
                snprintf(buf + n, size - n, "%sruns '%s'", n ? " " : "", base && base[1] ? base + 1 : a->argv[0]);
}

/* How the sandbox ended, for MESSAGE. */
static void outcome(const struct sbx_result *res, char *buf, size_t size)
{
        if (res->timed_out)
                snprintf(buf, size, "timed out");
        else if (res->oom_killed)
                snprintf(buf, size, "out of memory, signal %d", res->signal);
        else if (res->signal > 0)
                snprintf(buf, size, "signal %d", res->signal);
        else if (res->exit_code >= 0)
                snprintf(buf, size, "exit code %d", res->exit_code);
        else
                snprintf(buf, size, "did not run");
}

/* MESSAGE: one line a person reads; the fields carry the facts. */
static char *message(enum sbx_audit_event ev, const struct sbx_audit *a, const char *err)
{
        char who[64], subj[VALUE_MAX], how[64];
        const char *reason = a->reason && *a->reason ? a->reason : NULL;
        const char *why = reason ? reason : err;
        char *m = NULL;
        int r = -1;

        snprintf(who, sizeof(who), "sandbox%s%s", a->id ? " " : "", a->id ? a->id : "");
        subject(a, ev == SBX_AUDIT_ALLOWED, subj, sizeof(subj));
        switch (ev) {
        case SBX_AUDIT_ALLOWED:
        case SBX_AUDIT_DENIED:
        case SBX_AUDIT_FAILED:
                r = asprintf(&m, "%s %s%s%s%s%s", who, events[ev].name, *subj ? ": " : "", subj, why ? ": " : "",
                             why ? why : "");
                break;
        case SBX_AUDIT_EXIT:
                if (!a->result) {
                        r = asprintf(&m, "%s ended%s%s", who, why ? ": " : "", why ? why : "");
                        break;
                }
                outcome(a->result, how, sizeof(how));
                r = asprintf(&m, "%s exited with status %d (%s) after %" PRIu64 " ms%s%s", who, a->result->status, how,
                             a->result->wall_ms, why ? ": " : "", why ? why : "");
                break;
        case SBX_AUDIT_KILL:
                r = asprintf(&m, "%s killed%s%s", who, why ? ": " : "", why ? why : "");
                break;
        case SBX_AUDIT_RELOAD:
                if (a->ok)
                        r = asprintf(&m, "sandboxd reloaded its configuration");
                else
                        r = asprintf(&m, "sandboxd kept its old configuration%s%s", why ? ": " : "", why ? why : "");
                break;
        case SBX_AUDIT_DAEMON:
                r = asprintf(&m, "sandboxd%s%s", why ? ": " : "", why ? why : "");
                break;
        }
        if (r < 0)
                return NULL;
        /* One line: a reason or an argv may hold newlines, the human line does not. */
        for (char *c = m; *c; c++)
                if ((unsigned char)*c < 0x20 || *c == 0x7f)
                        *c = ' ';
        return m;
}

/* ------------------------------------------------------------------ the entry */

static void add_result(struct entry *en, const struct sbx_result *res)
{
        addf(en, "SBX_EXIT_STATUS", "%d", res->status);
        if (res->exit_code >= 0)
                addf(en, "SBX_EXIT_CODE", "%d", res->exit_code);
        if (res->signal > 0)
                addf(en, "SBX_SIGNAL", "%d", res->signal);
        add(en, "SBX_TIMED_OUT", res->timed_out ? "1" : "0");
        add(en, "SBX_OOM_KILLED", res->oom_killed ? "1" : "0");
        addf(en, "SBX_DURATION_MS", "%" PRIu64, res->wall_ms);
        addf(en, "SBX_CPU_MS", "%" PRIu64, res->cpu_user_ms + res->cpu_sys_ms);
        if (res->peak_memory > 0)
                addf(en, "SBX_PEAK_MEMORY", "%" PRIu64, res->peak_memory);
        add(en, "SBX_WEAKENED", res->weakened);
}

static void add_error(struct entry *en, const struct sbx_error *e, const char *formatted)
{
        add(en, "SBX_STAGE", sbx_stage_name(e->stage));
        addf(en, "SBX_ERRNO", "%d", e->errnum);
        add(en, "SBX_SYSCALL", e->syscall);
        add(en, "SBX_PATH", e->path);
        add(en, "SBX_ERROR", formatted);
}

static void add_validation(struct entry *en, const struct sbx_validation *v)
{
        add(en, "SBX_VALIDATOR", v->validator);
        add(en, "SBX_VALIDATOR_VERDICT", sbx_vverdict_name(v->verdict));
        add(en, "SBX_VALIDATOR_REASON", v->reason);
        if (v->confidence >= 0 && v->confidence <= 1)
                addf(en, "SBX_VALIDATOR_CONFIDENCE", "%.3f", v->confidence);
}

/* The fields of one entry; the SBX_* ones in the order the logfmt line shows them. */
static void build(struct entry *en, enum sbx_audit_event ev, const struct sbx_audit *a)
{
        const struct sbx_error *e = a->error && a->error->errnum ? a->error : NULL;
        const char *ident = a->mode && strcmp(a->mode, "direct") == 0 ? "sbx-run" : "sandboxd";
        _cleanup_free_ char *msg = NULL;
        char err[1024] = "";

        if (e)
                sbx_error_format(e, err, sizeof(err));
        msg = message(ev, a, e ? err : NULL);
        if (!msg) {
                en->r = -ENOMEM;
                return;
        }
        add(en, "MESSAGE", msg);
        add(en, "MESSAGE_ID", events[ev].message_id);
        addf(en, "PRIORITY", "%d", events[ev].priority);
        add(en, "SYSLOG_IDENTIFIER", ident);

        add(en, "SBX_EVENT", events[ev].name);
        add(en, "SBX_ID", a->id);
        add(en, "SBX_MODE", a->mode);
        add(en, "SBX_PROFILE", a->profile);
        if (a->uid != (uid_t)-1)
                addf(en, "SBX_UID", "%u", (unsigned)a->uid);
        if (a->gid != (gid_t)-1)
                addf(en, "SBX_GID", "%u", (unsigned)a->gid);
        if (a->pid > 0)
                addf(en, "SBX_PID", "%d", (int)a->pid);
        add_argv(en, a->argv, a->argv_max);
        add(en, "SBX_CWD", a->cwd);
        add(en, "SBX_TOOL_USE_ID", a->tool_use_id);
        add(en, "SBX_SESSION_ID", a->session_id);
        add(en, "SBX_TIER", a->tier);
        if (a->substitutions && a->substitutions[0])
                add(en, "SBX_SUBSTITUTIONS", a->substitutions);
        if (ev == SBX_AUDIT_ALLOWED || ev == SBX_AUDIT_DENIED)
                add(en, "SBX_DECISION", ev == SBX_AUDIT_ALLOWED ? "allow" : "deny");
        else if (ev == SBX_AUDIT_RELOAD)
                add(en, "SBX_DECISION", a->ok ? "ok" : "failed");
        add(en, "SBX_REASON", a->reason);
        if (ev == SBX_AUDIT_EXIT && a->result)
                add_result(en, a->result);
        if (e)
                add_error(en, e, err);
        if (a->validation && a->validation->verdict != SBX_VV_NONE)
                add_validation(en, a->validation);
}

/* ------------------------------------------------------------------ the two outputs */

/* libsystemd's sendv returns 0, having sent nothing, when the socket does not exist
 * (it takes that as "no journal here, drop it"): look first.  A socket whose journald
 * died fails the send (-ECONNREFUSED), which sends the entry to the fallback too.
 * With no journal, this stat is the whole cost: no socket is created. */
static int to_journal(const struct entry *en)
{
        struct stat st;

        if (stat(JOURNAL_SOCKET, &st) < 0)
                return -errno;
        if (!S_ISSOCK(st.st_mode))
                return -ENOTSOCK;
        return sd_journal_sendv(en->f, (int)en->n);
}

static bool needs_quotes(const char *v)
{
        if (!*v)
                return true;
        for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
                if (*c <= ' ' || *c == 0x7f || *c == '"' || *c == '=' || *c == '\\')
                        return true;
                if (*c >= 0x80) {
                        size_t n = sbx_utf8_len(c);

                        if (n == 0)
                                return true;
                        c += n - 1;
                }
        }
        return false;
}

static void logfmt_value(FILE *f, const char *v)
{
        if (!needs_quotes(v)) {
                fputs(v, f);
                return;
        }
        fputc('"', f);
        for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
                size_t n = *c >= 0x80 ? sbx_utf8_len(c) : 1;

                if (*c == '"' || *c == '\\')
                        fprintf(f, "\\%c", *c);
                else if (*c == '\n')
                        fputs("\\n", f);
                else if (*c == '\r')
                        fputs("\\r", f);
                else if (*c == '\t')
                        fputs("\\t", f);
                else if (*c < 0x20 || *c == 0x7f || n == 0)
                        fprintf(f, "\\x%02x", *c);
                else {
                        fwrite(c, 1, n, f);
                        c += n - 1;
                }
        }
        fputc('"', f);
}

/* "sbx key=value ..." from the SBX_* fields, written with one write so that lines of
 * concurrent writers do not interleave. */
static int to_logfmt(const struct entry *en, FILE *out)
{
        _cleanup_free_ char *line = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&line, &size);

        if (!f)
                return -errno;
        fputs("sbx", f);
        for (size_t i = 0; i < en->n; i++) {
                const char *kv = en->f[i].iov_base;
                const char *eq = strchr(kv, '=');

                if (strncmp(kv, "SBX_", 4) != 0)
                        continue;
                fputc(' ', f);
                for (const char *k = kv + 4; k < eq; k++)
                        fputc(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k, f);
                fputc('=', f);
                logfmt_value(f, eq + 1);
        }
        fputc('\n', f);
        if (fclose(f) != 0)
                return -ENOMEM;
        if (fwrite(line, 1, size, out) != size || fflush(out) != 0)
                return errno > 0 ? -errno : -EIO;
        return 0;
}

int sbx_audit_emit(enum sbx_audit_event ev, const struct sbx_audit *a, const struct sbx_audit_sink *to)
{
        struct entry en = { .n = 0 };
        int r, rf = -ENOENT;

        if (!a || !to || (unsigned)ev >= ELEMENTSOF(events))
                return -EINVAL;
        build(&en, ev, a);
        r = en.r;
        if (r == 0) {
                r = to_journal(&en);
                if (to->fd >= 0)
                        rf = sbx_audit_jsonl(to->fd, en.f, en.n);
                if (r < 0 && rf < 0 && to->fallback)
                        r = to_logfmt(&en, to->fallback);
                if (to->fd >= 0)
                        r = rf;
        }
        entry_done(&en);
        return r;
}

int sbx_audit_log(enum sbx_audit_event ev, const struct sbx_audit *a, FILE *fallback)
{
        return sbx_audit_emit(ev, a, &(struct sbx_audit_sink){ .fd = -1, .fallback = fallback });
}

const char *sbx_audit_message_id(enum sbx_audit_event ev)
{
        return (unsigned)ev < ELEMENTSOF(events) ? events[ev].message_id : NULL;
}

void sbx_audit_id_new(char id[SBX_AUDIT_ID_SIZE])
{
        uint64_t v;

        if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v)) {
                /* Early boot: not secret, only distinct, which time and pid give. */
                struct timespec ts;

                clock_gettime(CLOCK_REALTIME, &ts);
                v = ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 44);
        }
        snprintf(id, SBX_AUDIT_ID_SIZE, "%016" PRIx64, v);
}
