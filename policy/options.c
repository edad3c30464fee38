/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../lib/cleanup.h"
#include "../lib/parse.h"

#define PLAN(field) offsetof(struct sbx_plan, field)
/* A resource limit's row: its value in the plan's slot for RLIMIT_X. */
#define RLIMIT(resource) .offset = PLAN(limits.rlimit[resource]), .rlimit = true
#define DEFAULT_EXTRA_TMPFS (64ull << 20)
#define DEST_RULE "the destination must be absolute, not '/', without '.', '..' or '//'"

/* Bounds: a memory limit under 1 MiB starts nothing (the kernel would OOM-kill the
 * loader); a timeout over a year is a mistake; pids stop at the kernel's pid_max limit;
 * fewer than 3 open files is not even stdio. */
const struct sbx_option sbx_option_table[] = {
        { .cli = "workspace", .metavar = "DIR", .kind = SBX_OPT_WORKSPACE, .offset = PLAN(workspace),
          .help = "bind DIR read-write at its own path and start there, or\n"
                  "in the current directory when it lies below DIR\n"
                  "(default: the current directory; never your home or its\n"
                  "dot-directories; its .git stays read-only but with the\n"
                  "git profile)",
          .doc = "an existing directory", .example = "/work/project" },
        { .cli = "ro", .metavar = "PATH[:DEST]", .bus = "ro", .kind = SBX_OPT_BIND_RO,
          .help = "also bind PATH read-only (at DEST, default PATH), if it\n"
                  "lies under the profile's bind roots; symlinks are followed\n"
                  "only in the system's own directories",
          .doc = "an absolute host path and an optional destination", .example = "/opt/tools:/tools" },
        { .cli = "rw", .metavar = "PATH[:DEST]", .bus = "rw", .kind = SBX_OPT_BIND_RW,
          .help = "also bind PATH read-write, likewise",
          .doc = "an absolute host path and an optional destination", .example = "/var/tmp/cache" },
        { .cli = "tmpfs", .metavar = "DEST[:SIZE]", .bus = "tmpfs", .kind = SBX_OPT_TMPFS, .bounds = { 1, UINT64_MAX },
          .help = "a private tmpfs at DEST (default size 64M); at /dev/shm,\n"
                  "the size of the jail's own /dev/shm (default 64M)",
          .doc = "an absolute path and an optional size", .example = "/scratch:128M" },
        { .cli = "net", .metavar = "none|filtered|host", .bus = "net", .kind = SBX_OPT_NET, .offset = PLAN(net),
          .help = "none: only an isolated loopback; filtered: the profile's\n"
                  "allowed names through sbx's egress broker (only where\n"
                  "the profile has network: filtered); host: the host's\n"
                  "(only where the profile has network: host)",
          .doc = "none, filtered or host", .example = "none" },
        { .cli = "net-deny", .metavar = "RULE", .bus = "net_deny", .kind = SBX_OPT_NET_DENY,
          .help = "under network: filtered, also refuse RULE: a name,\n"
                  "*.domain, an address or CIDR, with an optional :PORT",
          .doc = "an egress rule: NAME, *.DOMAIN, ADDRESS or CIDR, optionally :PORT", .example = "gist.github.com" },
        { .cli = "env", .metavar = "NAME[=VALUE]", .kind = SBX_OPT_ENV,
          .help = "pass NAME from the caller, or set it; the environment is\n"
                  "otherwise only what the profile sets and passes",
          .doc = "a variable name (letters, digits and '_', not starting with a digit)", .example = "LANG=C.UTF-8" },
        { .cli = "hostname", .metavar = "NAME", .bus = "hostname", .kind = SBX_OPT_HOSTNAME, .offset = PLAN(hostname),
          .help = "the jail's hostname (default: sbx)",
          .doc = "up to 64 letters, digits, '-' and '.'", .example = "box-1" },
        { .cli = "tool-use-id", .metavar = "ID", .bus = "tool_use_id", .kind = SBX_OPT_TAG, .offset = PLAN(tool_use_id),
          .help = "the harness's id of this tool call (Claude Code's\n"
                  "tool_use_id): recorded as SBX_TOOL_USE_ID= and in --json",
          .doc = "up to 128 letters, digits and '.', '_', ':', '@', '+', '-'", .example = "toolu_01ABC" },
        { .cli = "session-id", .metavar = "ID", .bus = "session_id", .kind = SBX_OPT_TAG, .offset = PLAN(session_id),
          .help = "the harness's session id: recorded as SBX_SESSION_ID=\n"
                  "and in --json",
          .doc = "up to 128 letters, digits and '.', '_', ':', '@', '+', '-'", .example = "6f1c2e4a-9b1d-4c3e-8f00-5a7b9c0d1e2f" },
        /* Not a flag: the caller's current directory when it lies below the workspace
         * (sbx-run finds it, with lib/path.h's rules, and sends it along to sandboxd):
         * the command starts there, the same path in the jail. */
        { .bus = "workdir", .kind = SBX_OPT_WORKDIR, .offset = PLAN(workdir),
          .doc = "an absolute path below the workspace, without '.', '..' or '//'", .example = "/work/project/src" },
        /* Not a flag: what the caller's process ignores, which sbx-run reads from itself
         * and sends along to sandboxd. */
        { .bus = "ignored_signals", .kind = SBX_OPT_COUNT, .offset = PLAN(sig_ignored), .bounds = { 1, UINT64_MAX },
          .doc = "the signals the caller ignores, bit N-1 for signal N", .example = "1" },
        { .cli = "timeout", .metavar = "SECONDS", .bus = "timeout_ms", .limit = "time", .kind = SBX_OPT_DURATION,
          .offset = PLAN(limits.timeout_ms), .bounds = SBX_BOUNDS_TIMEOUT_MS,
          .help = "kill the whole jail after SECONDS; exit 124",
          .doc = "seconds, e.g. 30 or 1.5 or 10m", .example = "30", .unit = " ms", .scale = 1 },
        { .cli = "memory", .metavar = "SIZE", .bus = "memory", .limit = "memory", .kind = SBX_OPT_MEMORY,
          .offset = PLAN(limits.memory), .bounds = SBX_BOUNDS_MEMORY,
          .help = "memory limit, e.g. 512M (workspace: half the RAM)",
          .doc = "at least 1M, e.g. 512M, or a share of RAM, e.g. 50%", .example = "512M", .unit = " MiB",
          .scale = 1u << 20 },
        { .cli = "pids", .metavar = "N", .bus = "pids", .limit = "pids", .kind = SBX_OPT_COUNT, .offset = PLAN(limits.pids),
          .bounds = SBX_BOUNDS_PIDS,
          .help = "process limit (workspace: 1024)",
          .doc = "from 1 to " SBX_STR(SBX_PIDS_MAX), .example = "256", .unit = "", .scale = 1 },
        { .cli = "cpu", .metavar = "SECONDS", .bus = "cpu_seconds", .limit = "cpu", .kind = SBX_OPT_COUNT,
          RLIMIT(RLIMIT_CPU), .bounds = { 1, 100000000 },
          .help = "CPU-time limit for each process (RLIMIT_CPU)",
          .doc = "whole CPU seconds, e.g. 60", .example = "60", .unit = " s", .scale = 1 },
        { .cli = "nofile", .metavar = "N", .bus = "nofile", .limit = "nofile", .kind = SBX_OPT_COUNT,
          RLIMIT(RLIMIT_NOFILE), .bounds = { 3, 1u << 20 },
          .help = "open-files limit for each process (RLIMIT_NOFILE)",
          .doc = "open files, from 3 to 1048576", .example = "1024", .unit = "", .scale = 1 },
        { .cli = "fsize", .metavar = "SIZE", .bus = "fsize", .limit = "fsize", .kind = SBX_OPT_SIZE,
          RLIMIT(RLIMIT_FSIZE), .bounds = { 1, UINT64_MAX },
          .help = "largest file a process may write (RLIMIT_FSIZE)",
          .doc = "largest file, e.g. 1G", .example = "1G", .unit = " bytes", .scale = 1 },
        { .cli = "stack", .metavar = "SIZE", .bus = "stack", .limit = "stack", .kind = SBX_OPT_SIZE,
          RLIMIT(RLIMIT_STACK), .bounds = { 128u << 10, 1u << 30 },
          .help = "stack size of each process (RLIMIT_STACK)",
          .doc = "a stack size from 128K to 1G, e.g. 8M", .example = "8M", .unit = " bytes", .scale = 1 },
};

const size_t sbx_option_count = ELEMENTSOF(sbx_option_table);

_Static_assert(ELEMENTSOF(sbx_option_table) <= 64, "struct sbx_ask.given has 64 bits");

void sbx_ask_init(struct sbx_ask *a)
{
        *a = (struct sbx_ask){ 0 };
        sbx_plan_init(&a->plan);
}

void sbx_ask_done(struct sbx_ask *a)
{
        sbx_plan_done(&a->plan);
}

static uint64_t bit(const struct sbx_option *o)
{
        return 1ull << (o - sbx_option_table);
}

bool sbx_ask_given(const struct sbx_ask *a, const struct sbx_option *o)
{
        return a->given & bit(o);
}

enum grammar { CLI, BUS, LIMIT };

static const struct sbx_option *find(const char *name, enum grammar g)
{
        for (size_t i = 0; name && i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];
                const char *key = g == CLI ? o->cli : g == BUS ? o->bus : o->limit;

                if (key && strcmp(key, name) == 0)
                        return o;
        }
        return NULL;
}

const struct sbx_option *sbx_option_by_cli(const char *flag)
{
        return find(flag, CLI);
}

const struct sbx_option *sbx_option_by_bus(const char *key)
{
        return find(key, BUS);
}

const struct sbx_option *sbx_option_by_limit(const char *key)
{
        return find(key, LIMIT);
}

char sbx_option_bus_type(const struct sbx_option *o)
{
        return o->kind <= SBX_OPT_COUNT ? 't' : 's';
}

bool sbx_option_repeats(const struct sbx_option *o)
{
        switch (o->kind) {
        case SBX_OPT_NET_DENY:
        case SBX_OPT_BIND_RO:
        case SBX_OPT_BIND_RW:
        case SBX_OPT_TMPFS:
        case SBX_OPT_ENV:
                return true;
        default:
                return false;
        }
}

int sbx_option_rlimit(const struct sbx_option *o)
{
        return o->rlimit ? (int)((o->offset - PLAN(limits.rlimit)) / sizeof(uint64_t)) : -1;
}

void sbx_option_rlimit_keys(struct sbx_rlimit_key keys[static SBX_RLIMIT_MAX + 1])
{
        size_t n = 0;

        for (size_t i = 0; i < sbx_option_count && n < SBX_RLIMIT_MAX; i++)
                if (sbx_option_table[i].rlimit)
                        keys[n++] = (struct sbx_rlimit_key){ sbx_option_rlimit(&sbx_option_table[i]), sbx_option_table[i].bus };
        keys[n] = (struct sbx_rlimit_key){ -1, NULL };
}

void sbx_option_bus_keys(char type, char *buf, size_t size)
{
        size_t n = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];

                if (o->bus && (type == 'a' ? sbx_option_repeats(o) : sbx_option_bus_type(o) == type) && n < size)
                        n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", o->bus);
        }
}

uint64_t *sbx_option_u64(struct sbx_plan *p, const struct sbx_option *o)
{
        return (uint64_t *)((char *)p + o->offset);
}

uint64_t sbx_option_get_u64(const struct sbx_plan *p, const struct sbx_option *o)
{
        return *(const uint64_t *)((const char *)p + o->offset);
}

const char *sbx_option_get_str(const struct sbx_plan *p, const struct sbx_option *o)
{
        return *(char *const *)((const char *)p + o->offset);
}

bool sbx_is_tag(const char *s)
{
        size_t n = strlen(s);

        return n > 0 && n <= SBX_TAG_MAX && strspn(s, SBX_TAG_CHARS) == n;
}

static int bad(struct sbx_error *e, const struct sbx_option *o, const char *name, const char *value, const char *why)
{
        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s '%s' is not valid%s%s", name, value, why ? ": " : "", why ? why : "");
        if (strncmp(name, "--", 2) == 0)
                sbx_error_hint(e, "expected %s; e.g. %s %s", o->doc, name, o->example);
        else
                sbx_error_hint(e, "expected %s; e.g. '%s'", o->doc, o->example);
        return -EINVAL;
}

static int oom(struct sbx_error *e)
{
        return sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
}

/* "PATH[:DEST]": splits at the last ':' only when what follows is an absolute path,
 * so that a host path containing ':' still works when DEST is omitted. */
static int add_bind(struct sbx_plan *p, const struct sbx_option *o, const char *name, const char *arg, struct sbx_error *e)
{
        _cleanup_free_ char *src = strdup(arg);
        const char *dest;
        char *colon;

        if (!src)
                return oom(e);
        colon = strrchr(src, ':');
        if (colon && colon[1] == '/') {
                *colon = '\0';
                dest = colon + 1;
        } else {
                dest = src;
        }
        if (src[0] != '/')
                return bad(e, o, name, arg, "give the host path as an absolute path");
        if (!sbx_path_is_normal(dest))
                return bad(e, o, name, arg, DEST_RULE);
        return sbx_plan_add_mount(p, o->kind == SBX_OPT_BIND_RO ? SBX_MOUNT_RO : SBX_MOUNT_RW, src, dest, 0, e);
}

static int add_tmpfs(struct sbx_plan *p, const struct sbx_option *o, const char *name, const char *arg, struct sbx_error *e)
{
        _cleanup_free_ char *dest = strdup(arg);
        uint64_t size = DEFAULT_EXTRA_TMPFS;
        char *colon;

        if (!dest)
                return oom(e);
        colon = strchr(dest, ':');
        if (colon) {
                *colon = '\0';
                if (sbx_parse_size(colon + 1, &size) < 0 || size < o->bounds.min)
                        return bad(e, o, name, arg, "the size is a number with an optional K, M or G suffix");
        }
        if (!sbx_path_is_normal(dest))
                return bad(e, o, name, arg, DEST_RULE);
        return sbx_plan_add_mount(p, SBX_MOUNT_TMPFS, NULL, dest, size, e);
}

static int set_env(struct sbx_plan *p, const struct sbx_option *o, const char *name, const char *arg, struct sbx_error *e)
{
        const char *eq = strchr(arg, '=');
        _cleanup_free_ char *var = NULL;

        if (!eq || !sbx_is_env_name(arg, (size_t)(eq - arg)))
                return bad(e, o, name, arg, "a variable name is letters, digits and '_', not starting with a digit");
        if (!(var = strndup(arg, (size_t)(eq - arg))))
                return oom(e);
        return sbx_plan_set_env(p, var, eq + 1, e);
}

static int set_string(char **field, const char *value, struct sbx_error *e)
{
        char *s = strdup(value);

        if (!s)
                return oom(e);
        free(*field);
        *field = s;
        return 0;
}

/* A number in text: the kind's own grammar, then the row's bounds. */
static int parse_number(const struct sbx_option *o, const char *value, uint64_t *v)
{
        size_t len = strlen(value);
        uint64_t pct;

        switch (o->kind) {
        case SBX_OPT_DURATION:
                return sbx_parse_duration_ms(value, v);
        case SBX_OPT_MEMORY:
                if (len >= 2 && value[len - 1] == '%') {
                        char num[16];

                        if (len - 1 >= sizeof(num))
                                return -EINVAL;
                        snprintf(num, sizeof(num), "%.*s", (int)(len - 1), value);
                        if (sbx_parse_u64(num, &pct) < 0 || pct == 0 || pct > 100)
                                return -EINVAL;
                        *v = sbx_physical_memory() / 100 * pct;
                        return 0;
                }
                return sbx_parse_size(value, v);
        case SBX_OPT_SIZE:
                return sbx_parse_size(value, v);
        default:
                return sbx_parse_u64(value, v);
        }
}

int sbx_option_set_u64(struct sbx_ask *a, const struct sbx_option *o, uint64_t value, struct sbx_error *e)
{
        const char *name = o->bus ? o->bus : o->cli;

        if (sbx_option_bus_type(o) != 't')
                return sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "'%s' is not a number option", name);
        if (value < o->bounds.min || value > o->bounds.max) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s %llu is out of range (%llu to %llu)", name,
                              (unsigned long long)value, (unsigned long long)o->bounds.min,
                              (unsigned long long)o->bounds.max);
                sbx_error_hint(e, "expected %s", o->doc);
                return -EINVAL;
        }
        *sbx_option_u64(&a->plan, o) = value;
        a->given |= bit(o);
        return 0;
}

int sbx_option_set(struct sbx_ask *a, const struct sbx_option *o, const char *name, const char *value, struct sbx_error *e)
{
        struct sbx_plan *p = &a->plan;
        uint64_t v;
        int r = 0;

        switch (o->kind) {
        case SBX_OPT_DURATION:
        case SBX_OPT_SIZE:
        case SBX_OPT_MEMORY:
        case SBX_OPT_COUNT:
                if (parse_number(o, value, &v) < 0 || v < o->bounds.min || v > o->bounds.max)
                        return bad(e, o, name, value, NULL);
                *sbx_option_u64(p, o) = v;
                break;
        case SBX_OPT_HOSTNAME:
                if (!sbx_is_hostname(value))
                        return bad(e, o, name, value, NULL);
                r = set_string(&p->hostname, value, e);
                break;
        case SBX_OPT_NET:
                if (strcmp(value, "none") != 0 && strcmp(value, "host") != 0 && strcmp(value, "filtered") != 0)
                        return bad(e, o, name, value, NULL);
                p->net = strcmp(value, "host") == 0 ? SBX_NET_HOST : strcmp(value, "filtered") == 0 ? SBX_NET_FILTERED : SBX_NET_NONE;
                break;
        case SBX_OPT_NET_DENY:
                if ((r = sbx_netrules_add(&p->net_rules, value, SBX_NETRULE_DENY, e)) < 0)
                        sbx_error_hint(e, "--%s takes %s, e.g. --%s %s", o->cli, o->doc, o->cli, o->example);
                break;
        case SBX_OPT_BIND_RO:
        case SBX_OPT_BIND_RW:
                r = add_bind(p, o, name, value, e);
                break;
        case SBX_OPT_TMPFS:
                r = add_tmpfs(p, o, name, value, e);
                break;
        case SBX_OPT_ENV:
                r = set_env(p, o, name, value, e);
                break;
        case SBX_OPT_WORKSPACE:
                if (value[0] == '\0')
                        return bad(e, o, name, value, NULL);
                r = set_string(&p->workspace, value, e);
                break;
        case SBX_OPT_WORKDIR:
                if (!sbx_path_is_normal(value))
                        return bad(e, o, name, value, NULL);
                r = set_string(&p->workdir, value, e);
                break;
        case SBX_OPT_TAG:
                if (!sbx_is_tag(value))
                        return bad(e, o, name, value, NULL);
                r = set_string((char **)((char *)p + o->offset), value, e);
                break;
        }
        if (r == 0)
                a->given |= bit(o);
        return r;
}
