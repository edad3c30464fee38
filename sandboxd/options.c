/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char sbx_daemon_usage[] =
        "Usage: sandboxd [OPTIONS]\n"
        "\n"
        "The sbx supervisor: runs jails for local users under the site policy, over D-Bus\n"
        "(peer to peer on its own socket, and as io.sbx.Sandbox1 on the system bus), and\n"
        "writes every decision and exit to the journal (without one: to the audit file,\n"
        "else as a logfmt line on stderr).  Normally started by systemd through\n"
        "sandboxd.socket; it never forks into the background.\n"
        "\n"
        "  --listen PATH        the socket to serve when systemd passes none\n"
        "                       (default " SBX_DEFAULT_SOCKET ")\n"
        "  --policy FILE        the site policy (default " SBX_DEFAULT_POLICY ")\n"
        "  --audit-file PATH    also write every audit record to PATH as a JSON line\n"
        "                       (the journal's fields; created 0600, owned by root)\n"
        "  --audit-fd N         the same to the inherited fd N (2: stderr, in a container)\n"
        "  --system-bus         also serve on the system bus; fail if it cannot\n"
        "  --no-system-bus      serve only on the socket\n"
        "                       (default: the system bus too when one runs)\n"
        "  --check-config       load the policy and every profile, report, exit 0 or 1\n"
        "  --help, --version\n"
        "\n"
        "Signals: SIGHUP reloads (a bad file keeps the running configuration); SIGTERM\n"
        "stops accepting, ends sandboxes (SIGTERM, then SIGKILL after limits.grace) and\n"
        "exits.  See sandboxd(8), sbx-policy(5).\n";

/* Long options get values above any char, so an optopt below 256 names a short one. */
enum { OPT_LISTEN = 256, OPT_POLICY, OPT_AUDIT_FILE, OPT_AUDIT_FD, OPT_SYSTEM_BUS, OPT_NO_SYSTEM_BUS, OPT_CHECK, OPT_HELP, OPT_VERSION };

static const struct option long_options[] = {
        { "listen", required_argument, NULL, OPT_LISTEN },
        { "policy", required_argument, NULL, OPT_POLICY },
        { "audit-file", required_argument, NULL, OPT_AUDIT_FILE },
        { "audit-fd", required_argument, NULL, OPT_AUDIT_FD },
        { "system-bus", no_argument, NULL, OPT_SYSTEM_BUS },
        { "no-system-bus", no_argument, NULL, OPT_NO_SYSTEM_BUS },
        { "check-config", no_argument, NULL, OPT_CHECK },
        { "help", no_argument, NULL, OPT_HELP },
        { "version", no_argument, NULL, OPT_VERSION },
        {},
};

/* A decimal fd number, or -1. */
static int parse_fd(const char *s)
{
        char *end;
        long v;

        if (*s < '0' || *s > '9')
                return -1;
        errno = 0;
        v = strtol(s, &end, 10);
        return errno || *end || v > INT_MAX ? -1 : (int)v;
}

int sbx_daemon_options_parse(int argc, char **argv, struct sbx_daemon_options *o, struct sbx_error *e)
{
        int c;

        *o = (struct sbx_daemon_options){ .listen = SBX_DEFAULT_SOCKET, .policy = SBX_DEFAULT_POLICY, .audit_fd = -1 };
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
                switch (c) {
                case OPT_LISTEN:
                case OPT_POLICY:
                        if (optarg[0] != '/') {
                                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "%s '%s' is not an absolute path",
                                              c == OPT_LISTEN ? "--listen" : "--policy", optarg);
                                sbx_error_hint(e, "give an absolute path");
                                return -EINVAL;
                        }
                        *(c == OPT_LISTEN ? &o->listen : &o->policy) = optarg;
                        break;
                case OPT_AUDIT_FILE:
                        if (optarg[0] != '/') {
                                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "--audit-file '%s' is not an absolute path", optarg);
                                sbx_error_hint(e, "give an absolute path");
                                return -EINVAL;
                        }
                        o->audit_file = optarg;
                        break;
                case OPT_AUDIT_FD:
                        if ((o->audit_fd = parse_fd(optarg)) < 0) {
                                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "--audit-fd '%s' is not a file descriptor number", optarg);
                                sbx_error_hint(e, "give the number of an fd open for writing, e.g. --audit-fd 2");
                                return -EINVAL;
                        }
                        break;
                case OPT_SYSTEM_BUS:
                        o->system_bus = SBX_BUS_YES;
                        break;
                case OPT_NO_SYSTEM_BUS:
                        o->system_bus = SBX_BUS_NO;
                        break;
                case OPT_CHECK:
                        o->check = true;
                        break;
                case 'h':
                case OPT_HELP:
                        o->help = true;
                        break;
                case OPT_VERSION:
                        o->version = true;
                        break;
                case ':':
                        sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "option '%s' needs a value", argv[optind - 1]);
                        sbx_error_hint(e, "see sandboxd --help");
                        return -EINVAL;
                default:
                        /* getopt names an unknown short option (even inside a cluster
                         * like -hx) in optopt; an unknown long one only by position. */
                        if (optopt > 0 && optopt < OPT_LISTEN)
                                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unknown option '-%c'", optopt);
                        else
                                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unknown option '%s'",
                                              argv[optind - 1]);
                        sbx_error_hint(e, "see sandboxd --help");
                        return -EINVAL;
                }
        }
        if (o->audit_file && o->audit_fd >= 0) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "--audit-file and --audit-fd both given");
                sbx_error_hint(e, "give one audit file");
                return -EINVAL;
        }
        if (optind < argc) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unexpected argument '%s'", argv[optind]);
                sbx_error_hint(e, "sandboxd takes options only; see sandboxd --help");
                return -EINVAL;
        }
        return 0;
}
