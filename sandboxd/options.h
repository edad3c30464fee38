/* SPDX-License-Identifier: MIT */
/* sandboxd's command line: a pure function from argv to options. */
#pragma once

#include <stdbool.h>

#include "../lib/error.h"

#define SBX_DEFAULT_SOCKET "/run/sandboxd/sandboxd.sock"
#define SBX_DEFAULT_POLICY "/etc/sbx/policy.yaml"

enum sbx_daemon_bus { SBX_BUS_AUTO, SBX_BUS_YES, SBX_BUS_NO };

struct sbx_daemon_options {
        const char *listen;     /* when systemd passes no socket */
        const char *policy;
        const char *audit_file; /* --audit-file PATH: JSON lines, opened at start; or NULL */
        int audit_fd;           /* --audit-fd N: JSON lines to an inherited fd; -1: none */
        enum sbx_daemon_bus system_bus;
        bool help, version, check; /* --check-config: load, report, exit */
};

int sbx_daemon_options_parse(int argc, char **argv, struct sbx_daemon_options *o, struct sbx_error *e);

extern const char sbx_daemon_usage[];
