/* SPDX-License-Identifier: MIT */
/* sbx-sh's command line: a pure function from sh's argv (and the two environment
 * variables that matter) to the sbx-run command line that runs it jailed. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define SBX_DROPIN_DEFAULT_PROFILE "workspace"
#define SBX_DROPIN_MAX_ARGS 4096

enum sbx_dropin_kind {
        SBX_DROPIN_RUN,         /* run: argv is sbx-run's */
        SBX_DROPIN_INTERACTIVE, /* no command and a terminal: refused (sbx-sh(1)) */
        SBX_DROPIN_USAGE,       /* a malformed command line: why says what */
};

struct sbx_dropin {
        enum sbx_dropin_kind kind;
        const char *shell;       /* the shell inside the jail: /bin/sh, or /bin/bash for -l/--login/--long options */
        const char *argv[SBX_DROPIN_MAX_ARGS + 16]; /* sbx-run [--env N]... --profile P -- SHELL ARGS..., NULL-ended */
        size_t argc;
        char why[256];
};

/* @argv: sbx-sh's own (argv[0] is its name).  @profile: $SBX_PROFILE (NULL or empty:
 * workspace).  @pass: $SBX_SH_PASS, names of variables to pass into the jail, separated
 * by spaces (NULL: none; the string is split in place and must outlive @out).
 * @ssh_command: $SSH_ORIGINAL_COMMAND, used when there are no arguments.  @tty:
 * stdin is a terminal.  @run: the sbx-run to exec.  Returns out->kind. */
enum sbx_dropin_kind sbx_dropin_parse(int argc, char *const *argv, const char *profile, char *pass, const char *ssh_command,
                              bool tty, const char *run, struct sbx_dropin *out);
