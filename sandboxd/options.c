/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

const char sbx_daemon_usage[] =
        "Usage: sandboxd [OPTIONS]\n"
        "\n"
        "The sbx supervisor: runs jails for local users under the site policy, over D-Bus\n"
        "(peer to peer on its own socket, and as io.sbx.Sandbox1 on the system bus), and\n"
        "writes every decision and exit to the journal.  Normally started by systemd\n"
        "through sandboxd.socket.\n"
        "\n"
        "  --listen PATH        the socket to serve when systemd passes none\n"
        "                       (default " SBX_DEFAULT_SOCKET ")\n"
        "  --policy FILE        the site policy (default " SBX_DEFAULT_POLICY ")\n"
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
enum { OPT_LISTEN = 256, OPT_POLICY, OPT_SYSTEM_BUS, OPT_NO_SYSTEM_BUS, OPT_CHECK, OPT_HELP, OPT_VERSION };

static const struct option long_options[] = {
        { "listen", required_argument, NULL, OPT_LISTEN },
        { "policy", required_argument, NULL, OPT_POLICY },
        { "system-bus", no_argument, NULL, OPT_SYSTEM_BUS },
        { "no-system-bus", no_argument, NULL, OPT_NO_SYSTEM_BUS },
        { "check-config", no_argument, NULL, OPT_CHECK },
        { "help", no_argument, NULL, OPT_HELP },
        { "version", no_argument, NULL, OPT_VERSION },
        {},
};

int sbx_daemon_options_parse(int argc, char **argv, struct sbx_daemon_options *o, struct sbx_error *e)
{
        int c;

        *o = (struct sbx_daemon_options){ .listen = SBX_DEFAULT_SOCKET, .policy = SBX_DEFAULT_POLICY };
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
        if (optind < argc) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", "", "unexpected argument '%s'", argv[optind]);
                sbx_error_hint(e, "sandboxd takes options only; see sandboxd --help");
                return -EINVAL;
        }
        return 0;
}
