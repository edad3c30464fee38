/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/parse.h"
#include "../lib/plan.h"

/* --help in three parts: how to call, the options of the table (policy/options.c), and
 * sbx-run's own. */
static const char usage_head[] =
        "Usage: sbx-run [OPTIONS] -- CMD [ARGS...]\n"
        "       sbx-run --profile NAME --check -- CMD [ARGS...]\n"
        "       sbx-run --list-profiles\n"
        "       sbx-run [--profile NAME] --doctor [--json]\n"
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
        "  --doctor             probe what this host or container allows (user, mount,\n"
        "                       PID and network namespaces, a fresh /proc, pivot_root,\n"
        "                       Landlock, seccomp, cgroup delegation), print the\n"
        "                       isolation tier the profile would get (full,\n"
        "                       container-userns, landlock: the profile's min_tier)\n"
        "                       and the remedies; exit 0 when it would run, 125 when\n"
        "                       it would refuse\n";

static const char usage_tail[] =
        "                       (limits may be lowered below the profile's, not raised)\n"
        "  --workspace-contains-cwd\n"
        "                       refuse (exit 125) unless the current directory lies\n"
        "                       inside --workspace (without it, a current directory\n"
        "                       outside starts the command in the workspace)\n"
        "  --daemon             run through sandboxd (its site policy, as your own uid);\n"
        "                       the default when not root and its socket exists\n"
        "  --direct             make the jail here, never through sandboxd\n"
        "  --socket PATH        sandboxd's socket (default " SBX_DAEMON_SOCKET ")\n"
        "  --audit-file PATH    direct mode: also write the audit records to PATH as JSON\n"
        "                       lines (the journal's fields; created 0600, yours alone)\n"
        "  --audit-fd N         the same to the open fd N (through sandboxd, sandboxd\n"
        "                       writes the records: see sandboxd --audit-file)\n"
        "  --json               print a JSON summary as the last line on stderr\n"
        "  --dry-run            print the resolved plan and policy as JSON, run nothing\n"
        "  -h, --help           show this help\n"
        "  --version            show the version\n"
        "\n"
        "Exit status: CMD's own; 128+N when killed by signal N; 124 timeout; 125 sbx\n"
        "failed (the message says what, where and how to fix it); 126 denied by the\n"
        "command policy, blocked by the profile's or site's validator (or one that could\n"
        "not answer), or not executable; 127 not found.  See sbx-run(1), sbx-profile(5).\n";

#define HELP_COLUMN 23

void sbx_usage_print(FILE *f)
{
        fputs(usage_head, f);
        for (size_t i = 0; i < sbx_option_count; i++) {
                const struct sbx_option *o = &sbx_option_table[i];
                int n;

                if (!o->cli)
                        continue;
                n = fprintf(f, "  --%s %s", o->cli, o->metavar);
                for (const char *h = o->help; *h;) {
                        size_t len = strcspn(h, "\n");

                        if (n >= HELP_COLUMN) {
                                fputc('\n', f);
                                n = 0;
                        }
                        fprintf(f, "%*s%.*s\n", HELP_COLUMN - n, "", (int)len, h);
                        n = 0;
                        h += len + (h[len] == '\n');
                }
        }
        fputs(usage_tail, f);
}

/* sbx-run's own flags; the table's rows follow them in the getopt list, as
 * OPT_TABLE + their index. */
enum {
        OPT_JSON = 0x100,
        OPT_DRY_RUN,
        OPT_VERSION,
        OPT_PROFILE,
        OPT_CHECK,
        OPT_LIST_PROFILES,
        OPT_DAEMON,
        OPT_DIRECT,
        OPT_SOCKET,
        OPT_DOCTOR,
        OPT_AUDIT_FILE,
        OPT_AUDIT_FD,
        OPT_CONTAINS_CWD,
        OPT_TABLE = 0x200,
};

static const struct option own_options[] = {
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
        { "doctor", no_argument, NULL, OPT_DOCTOR },
        { "audit-file", required_argument, NULL, OPT_AUDIT_FILE },
        { "audit-fd", required_argument, NULL, OPT_AUDIT_FD },
        { "workspace-contains-cwd", no_argument, NULL, OPT_CONTAINS_CWD },
};

#define MAX_LONG_OPTIONS 80

static void long_options(struct option *out)
{
        size_t n = 0;

        for (size_t i = 0; i < ELEMENTSOF(own_options); i++)
                out[n++] = own_options[i];
        for (size_t i = 0; i < sbx_option_count && n + 1 < MAX_LONG_OPTIONS; i++)
                if (sbx_option_table[i].cli)
                        out[n++] = (struct option){ sbx_option_table[i].cli, required_argument, NULL, OPT_TABLE + (int)i };
        out[n] = (struct option){ 0 };
}

static int bad(struct sbx_error *e, const char *option, const char *value, const char *hint)
{
        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s '%s' is not valid", option, value);
        sbx_error_hint(e, "%s", hint);
        return -EINVAL;
}

/* A row of the table: --env NAME alone passes the caller's own value (only the command
 * line can: sandboxd never reads its own environment for a caller). */
static int parse_row(struct sbx_options *o, const struct sbx_option *row, const char *arg, struct sbx_error *e)
{
        _cleanup_free_ char *pair = NULL;
        char flag[32];
        const char *value;

        snprintf(flag, sizeof(flag), "--%s", row->cli);
        if (row->kind == SBX_OPT_ENV && !strchr(arg, '=') && sbx_is_env_name(arg, strlen(arg))) {
                if (!(value = getenv(arg))) {
                        sbx_error_set(e, SBX_STAGE_OPTIONS, ENOENT, "", "", "--env '%s': the caller has no such variable to pass", arg);
                        sbx_error_hint(e, "set it in the caller's environment or give a value: --env %s=VALUE", arg);
                        return -ENOENT;
                }
                if (asprintf(&pair, "%s=%s", arg, value) < 0)
                        return sbx_error_set(e, SBX_STAGE_OPTIONS, ENOMEM, "", "", "out of memory");
                arg = pair;
        }
        return sbx_option_set(&o->ask, row, flag, arg, e);
}

static int parse_one(struct sbx_options *o, int c, const char *arg, struct sbx_error *e)
{
        if (c >= OPT_TABLE && (size_t)(c - OPT_TABLE) < sbx_option_count)
                return parse_row(o, &sbx_option_table[c - OPT_TABLE], arg, e);
        switch (c) {
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
        case OPT_AUDIT_FILE:
                if (arg[0] == '\0')
                        return bad(e, "--audit-file", arg, "give the audit file's path");
                if (o->audit_fd >= 0)
                        return bad(e, "--audit-file", arg, "give --audit-file or --audit-fd, not both");
                o->audit_file = arg;
                return 0;
        case OPT_AUDIT_FD: {
                char *end;
                long v;

                errno = 0;
                v = strtol(arg, &end, 10);
                if (arg[0] < '0' || arg[0] > '9' || errno || *end || v > INT_MAX)
                        return bad(e, "--audit-fd", arg, "give the number of an fd open for writing, e.g. 3 with 3>>FILE");
                if (o->audit_file)
                        return bad(e, "--audit-fd", arg, "give --audit-file or --audit-fd, not both");
                o->audit_fd = (int)v;
                return 0;
        }
        case OPT_CONTAINS_CWD:
                o->workspace_contains_cwd = true;
                return 0;
        case OPT_DRY_RUN:
                o->action = SBX_ACTION_DRY_RUN;
                return 0;
        case OPT_DOCTOR:
                o->action = SBX_ACTION_DOCTOR;
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

/* An unknown flag, with the nearest known one offered: "--timout" -> "--timeout". */
static int unknown(struct sbx_error *e, const char *arg, const struct option *longopts)
{
        const char *name = arg + strspn(arg, "-"), *best = NULL;
        size_t len = strcspn(name, "=");
        unsigned best_d = len < 4 ? 1 : 3; /* a short typo matches anything */
        char buf[64];

        snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
        for (const struct option *l = longopts; l->name; l++) {
                unsigned d = sbx_edit_distance(buf, l->name);

                if (d < best_d) {
                        best_d = d;
                        best = l->name;
                }
        }
        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unknown option '%s'", arg);
        if (best)
                sbx_error_hint(e, "did you mean '--%s'? see sbx-run --help", best);
        else
                sbx_error_hint(e, "see sbx-run --help");
        return -EINVAL;
}

int sbx_options_parse(int argc, char **argv, struct sbx_options *o, struct sbx_error *e)
{
        struct option longopts[MAX_LONG_OPTIONS];
        int c, r;

        *o = (struct sbx_options){ .action = SBX_ACTION_RUN, .audit_fd = -1 };
        sbx_ask_init(&o->ask);
        long_options(longopts);

        /* '+': stop at the first non-option, so the command's own flags stay its own;
         * ':' first: report missing arguments ourselves.  optind = 0 re-initializes
         * getopt, so the parser can run more than once (unit tests, fuzzing). */
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
                if (c == '?')
                        return unknown(e, argv[optind - 1], longopts);
                if (c == ':') {
                        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "option '%s' needs a value", argv[optind - 1]);
                        sbx_error_hint(e, "see sbx-run --help");
                        return -EINVAL;
                }
                r = parse_one(o, c, optarg, e);
                if (r < 0)
                        return r;
        }
        if (o->action == SBX_ACTION_HELP || o->action == SBX_ACTION_VERSION || o->action == SBX_ACTION_LIST_PROFILES ||
            o->action == SBX_ACTION_DOCTOR)
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
        o->ask.plan.argv = argv + optind;
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
        sbx_ask_done(&o->ask);
}
