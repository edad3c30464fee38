/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/parse.h"

const char sbx_usage[] =
        "Usage: sbx-run [OPTIONS] -- CMD [ARGS...]\n"
        "       sbx-run --profile NAME --check -- CMD [ARGS...]\n"
        "       sbx-run --list-profiles\n"
        "Run CMD in a jail: new PID, UTS, IPC, network, mount and cgroup namespaces, a\n"
        "read-only system, a read-write workspace, a private /tmp, an empty environment,\n"
        "no capabilities, no_new_privs, Landlock and a seccomp filter, as the profile\n"
        "says.  The options below can only narrow what the profile allows.\n"
        "\n"
        "  --profile NAME|PATH  the profile (default: workspace); a NAME is looked up in\n"
        "                       /etc/sbx/profiles, then the shipped profiles\n"
        "  --check              print the command policy's verdict (allow/deny and why)\n"
        "                       and run nothing: exit 0 allowed, 126 denied\n"
        "  --list-profiles      list the profiles, where each comes from, what it is for\n"
        "  --workspace DIR      bind DIR read-write at its own path and start there\n"
        "                       (default: the current directory; never your home or its\n"
        "                       dot-directories; its .git stays read-only but with the\n"
        "                       git profile)\n"
        "  --ro PATH[:DEST]     also bind PATH read-only (at DEST, default PATH), if it\n"
        "                       lies under the profile's bind roots; symlinks are followed\n"
        "                       only in the system's own directories\n"
        "  --rw PATH[:DEST]     also bind PATH read-write, likewise\n"
        "  --tmpfs DEST[:SIZE]  a private tmpfs at DEST (default size 64M)\n"
        "  --net none|host      none: only an isolated loopback; host: the host's (only\n"
        "                       where the profile has network: host)\n"
        "  --env NAME[=VALUE]   pass NAME from the caller, or set it; the environment is\n"
        "                       otherwise only what the profile sets and passes\n"
        "  --hostname NAME      the jail's hostname (default: sbx)\n"
        "  --timeout SECONDS    kill the whole jail after SECONDS; exit 124\n"
        "  --memory SIZE        memory limit, e.g. 512M (workspace: half the RAM)\n"
        "  --pids N             process limit (workspace: 1024)\n"
        "  --cpu SECONDS        CPU-time limit for each process (RLIMIT_CPU)\n"
        "                       (limits may be lowered below the profile's, not raised)\n"
        "  --daemon             run through sandboxd (its site policy, as your own uid);\n"
        "                       the default when not root and its socket exists\n"
        "  --direct             make the jail here, never through sandboxd\n"
        "  --socket PATH        sandboxd's socket (default " SBX_DAEMON_SOCKET ")\n"
        "  --json               print a JSON summary as the last line on stderr\n"
        "  --dry-run            print the resolved plan and policy as JSON, run nothing\n"
        "  -h, --help           show this help\n"
        "  --version            show the version\n"
        "\n"
        "Exit status: CMD's own; 128+N when killed by signal N; 124 timeout; 125 sbx\n"
        "failed (the message says what, where and how to fix it); 126 denied by the\n"
        "command policy, or not executable; 127 not found.  See sbx-run(1), sbx-profile(5).\n";

enum {
        OPT_WORKSPACE = 0x100,
        OPT_RO,
        OPT_RW,
        OPT_TMPFS,
        OPT_NET,
        OPT_ENV,
        OPT_HOSTNAME,
        OPT_TIMEOUT,
        OPT_MEMORY,
        OPT_PIDS,
        OPT_CPU,
        OPT_JSON,
        OPT_DRY_RUN,
        OPT_VERSION,
        OPT_PROFILE,
        OPT_CHECK,
        OPT_LIST_PROFILES,
        OPT_DAEMON,
        OPT_DIRECT,
        OPT_SOCKET,
};

static const struct option long_options[] = {
        { "workspace", required_argument, NULL, OPT_WORKSPACE },
        { "ro", required_argument, NULL, OPT_RO },
        { "rw", required_argument, NULL, OPT_RW },
        { "tmpfs", required_argument, NULL, OPT_TMPFS },
        { "net", required_argument, NULL, OPT_NET },
        { "env", required_argument, NULL, OPT_ENV },
        { "hostname", required_argument, NULL, OPT_HOSTNAME },
        { "timeout", required_argument, NULL, OPT_TIMEOUT },
        { "memory", required_argument, NULL, OPT_MEMORY },
        { "pids", required_argument, NULL, OPT_PIDS },
        { "cpu", required_argument, NULL, OPT_CPU },
        { "json", no_argument, NULL, OPT_JSON },
        { "dry-run", no_argument, NULL, OPT_DRY_RUN },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, OPT_VERSION },
        { "profile", required_argument, NULL, OPT_PROFILE },
        { "check", no_argument, NULL, OPT_CHECK },
        { "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
        { "daemon", no_argument, NULL, OPT_DAEMON },
        { "direct", no_argument, NULL, OPT_DIRECT },
        { "socket", required_argument, NULL, OPT_SOCKET },
        {},
};

#define DEFAULT_EXTRA_TMPFS (64ull << 20)

static int bad(struct sbx_error *e, const char *option, const char *value, const char *hint)
{
        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s '%s' is not valid", option, value);
        sbx_error_hint(e, "%s", hint);
        return -EINVAL;
}

/* "PATH[:DEST]": splits at the last ':' only when what follows is an absolute path,
 * so that a host path containing ':' still works when DEST is omitted. */
static int add_bind(struct sbx_plan *p, enum sbx_mount_kind kind, const char *option,
                    const char *arg, struct sbx_error *e)
{
        _cleanup_free_ char *src = strdup(arg);
        const char *dest;
        char *colon;

        if (!src)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
        colon = strrchr(src, ':');
        if (colon && colon[1] == '/') {
                *colon = '\0';
                dest = colon + 1;
        } else {
                dest = src;
        }
        if (src[0] != '/')
                return bad(e, option, arg, "give the host path as an absolute path");
        if (!sbx_path_is_normal(dest))
                return bad(e, option, arg,
                           "the destination must be absolute, not '/', without '.', '..' or '//'");
        return sbx_plan_add_mount(p, kind, src, dest, 0, e);
}

static int add_tmpfs(struct sbx_plan *p, const char *arg, struct sbx_error *e)
{
        _cleanup_free_ char *dest = strdup(arg);
        uint64_t size = DEFAULT_EXTRA_TMPFS;
        char *colon;

        if (!dest)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
        colon = strchr(dest, ':');
        if (colon) {
                *colon = '\0';
                if (sbx_parse_size(colon + 1, &size) < 0 || size == 0)
                        return bad(e, "--tmpfs", arg, "the size is a number with an optional K, M or G suffix, e.g. /scratch:128M");
        }
        if (!sbx_path_is_normal(dest))
                return bad(e, "--tmpfs", arg, "the destination must be absolute, not '/', without '.', '..' or '//'");
        return sbx_plan_add_mount(p, SBX_MOUNT_TMPFS, NULL, dest, size, e);
}

static int add_env(struct sbx_plan *p, const char *arg, struct sbx_error *e)
{
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        _cleanup_free_ char *name = strndup(arg, len);
        const char *value;

        if (!name)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
        if (!sbx_is_env_name(name, len))
                return bad(e, "--env", arg, "a variable name is letters, digits and '_', not starting with a digit");
        value = eq ? eq + 1 : getenv(name);
        if (!value) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, ENOENT, "", "", "--env '%s': the caller has no such variable to pass", name);
                sbx_error_hint(e, "set it in the caller's environment or give a value: --env %s=VALUE", name);
                return -ENOENT;
        }
        return sbx_plan_set_env(p, name, value, e);
}

static int parse_one(struct sbx_options *o, int c, const char *arg, struct sbx_error *e)
{
        struct sbx_plan *p = &o->plan;
        uint64_t v;

        switch (c) {
        case OPT_WORKSPACE:
                if (arg[0] == '\0')
                        return bad(e, "--workspace", arg, "give a directory");
                free(p->workspace);
                p->workspace = strdup(arg);
                return p->workspace ? 0 : sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
        case OPT_RO:
                return add_bind(p, SBX_MOUNT_RO, "--ro", arg, e);
        case OPT_RW:
                return add_bind(p, SBX_MOUNT_RW, "--rw", arg, e);
        case OPT_TMPFS:
                return add_tmpfs(p, arg, e);
        case OPT_NET:
                if (strcmp(arg, "none") == 0)
                        p->net = SBX_NET_NONE;
                else if (strcmp(arg, "host") == 0)
                        p->net = SBX_NET_HOST;
                else
                        return bad(e, "--net", arg, "use --net none or --net host");
                o->net_set = true;
                return 0;
        case OPT_PROFILE:
                if (arg[0] == '\0')
                        return bad(e, "--profile", arg, "give a profile name (sbx-run --list-profiles) or a path");
                o->profile = arg;
                return 0;
        case OPT_CHECK:
                o->action = SBX_ACTION_CHECK;
                return 0;
        case OPT_LIST_PROFILES:
                o->action = SBX_ACTION_LIST_PROFILES;
                return 0;
        case OPT_ENV:
                return add_env(p, arg, e);
        case OPT_HOSTNAME:
                if (!sbx_is_hostname(arg))
                        return bad(e, "--hostname", arg, "up to 64 letters, digits, '-' and '.'");
                free(p->hostname);
                p->hostname = strdup(arg);
                return p->hostname ? 0 : sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
        case OPT_TIMEOUT:
                if (sbx_parse_duration_ms(arg, &v) < 0 || v == 0)
                        return bad(e, "--timeout", arg, "give seconds, e.g. --timeout 30 or --timeout 1.5");
                p->limits.timeout_ms = v;
                return 0;
        case OPT_MEMORY:
                /* Below 1 MiB nothing starts; the kernel would OOM-kill the loader. */
                if (sbx_parse_size(arg, &v) < 0 || v < (1u << 20))
                        return bad(e, "--memory", arg, "give a size of at least 1M, e.g. --memory 512M");
                p->limits.memory = v;
                return 0;
        case OPT_PIDS:
                if (sbx_parse_u64(arg, &v) < 0 || v == 0 || v > 4194304)
                        return bad(e, "--pids", arg, "give a count from 1 to 4194304, e.g. --pids 256");
                p->limits.pids = v;
                return 0;
        case OPT_CPU:
                if (sbx_parse_u64(arg, &v) < 0 || v == 0 || v > 100000000)
                        return bad(e, "--cpu", arg, "give whole CPU seconds, e.g. --cpu 60");
                p->limits.cpu_seconds = v;
                return 0;
        case OPT_JSON:
                o->json = true;
                return 0;
        case OPT_DAEMON:
        case OPT_DIRECT:
                *(c == OPT_DAEMON ? &o->daemon : &o->direct) = true;
                if (o->daemon && o->direct)
                        return bad(e, c == OPT_DAEMON ? "--daemon" : "--direct", "", "give --daemon or --direct, not both");
                return 0;
        case OPT_SOCKET:
                if (arg[0] != '/')
                        return bad(e, "--socket", arg, "give sandboxd's socket as an absolute path");
                o->socket = arg;
                return 0;
        case OPT_DRY_RUN:
                o->action = SBX_ACTION_DRY_RUN;
                return 0;
        case 'h':
                o->action = SBX_ACTION_HELP;
                return 0;
        case OPT_VERSION:
                o->action = SBX_ACTION_VERSION;
                return 0;
        }
        return sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unknown option");
}

int sbx_options_parse(int argc, char **argv, struct sbx_options *o, struct sbx_error *e)
{
        int c, r;

        *o = (struct sbx_options){ .action = SBX_ACTION_RUN };
        sbx_plan_init(&o->plan);

        /* '+': stop at the first non-option, so the command's own flags stay its own;
         * ':' first: report missing arguments ourselves.  optind = 0 re-initializes
         * getopt, so the parser can run more than once (unit tests, fuzzing). */
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
                if (c == '?') {
                        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unknown option '%s'", argv[optind - 1]);
                        sbx_error_hint(e, "see sbx-run --help");
                        return -EINVAL;
                }
                if (c == ':') {
                        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "option '%s' needs a value", argv[optind - 1]);
                        sbx_error_hint(e, "see sbx-run --help");
                        return -EINVAL;
                }
                r = parse_one(o, c, optarg, e);
                if (r < 0)
                        return r;
        }
        if (o->action == SBX_ACTION_HELP || o->action == SBX_ACTION_VERSION || o->action == SBX_ACTION_LIST_PROFILES)
                return 0;
        if (optind >= argc) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "no command given");
                sbx_error_hint(e, "usage: sbx-run [OPTIONS] -- CMD [ARGS...]");
                return -EINVAL;
        }
        if (argv[optind][0] == '\0') {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "the command name is empty");
                sbx_error_hint(e, "usage: sbx-run [OPTIONS] -- CMD [ARGS...]");
                return -EINVAL;
        }
        o->plan.argv = argv + optind;
        return 0;
}

bool sbx_options_use_daemon(const struct sbx_options *o)
{
        if (o->action != SBX_ACTION_RUN || o->direct)
                return false;
        if (o->daemon)
                return true;
        return geteuid() != 0 && access(o->socket ? o->socket : SBX_DAEMON_SOCKET, F_OK) == 0;
}

void sbx_options_done(struct sbx_options *o)
{
        sbx_plan_done(&o->plan);
}
