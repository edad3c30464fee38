/* SPDX-License-Identifier: MIT */
/* What sh would do with its arguments, done by a shell inside sbx-run: the arguments
 * go to the inner shell as they came (its options, -c STRING, $0 and $1..., "--"), so
 * every form sh accepts means there what it meant here.  Only three things are decided
 * here: which shell (bash where bash's own options ask for it), SSH's forced command,
 * and a terminal with nothing to run (refused: see sbx-sh(1)). */
#include "args.h"

#include <stdio.h>
#include <string.h>

static bool push(struct sbx_dropin *o, const char *s)
{
        if (o->argc >= sizeof(o->argv) / sizeof(o->argv[0]) - 1)
                return false;
        o->argv[o->argc++] = s;
        o->argv[o->argc] = NULL;
        return true;
}

static enum sbx_dropin_kind usage(struct sbx_dropin *o, const char *why)
{
        snprintf(o->why, sizeof(o->why), "%s", why);
        return o->kind = SBX_DROPIN_USAGE;
}

/* Scans sh's options: a command (-c), a login shell (-l, --login) or any other long
 * option (bash's), and whether an operand (a script, or -c's string) follows. */
static void scan(int argc, char *const *argv, bool *command, bool *bash, bool *operand)
{
        int i;

        for (i = 1; i < argc; i++) {
                const char *a = argv[i];

                if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
                        i++;
                        break;
                }
                if (a[0] != '-' && a[0] != '+')
                        break;
                if (a[0] == '-' && a[1] == '-') {
                        *bash = true; /* --login, --norc, --posix...: bash's */
                        continue;
                }
                if ((strcmp(a + 1, "o") == 0 || strcmp(a + 1, "O") == 0) && i + 1 < argc) {
                        *bash = *bash || a[1] == 'O'; /* shopt names: bash's */
                        i++;
                        continue;
                }
                if (a[0] == '-' && strchr(a + 1, 'c'))
                        *command = true;
                if (a[0] == '-' && strchr(a + 1, 'l'))
                        *bash = true;
        }
        *operand = i < argc;
}

enum sbx_dropin_kind sbx_dropin_parse(int argc, char *const *argv, const char *profile, char *pass, const char *ssh_command,
                              bool tty, const char *run, struct sbx_dropin *o)
{
        bool command = false, bash = false, operand = false;
        char *save = NULL;

        *o = (struct sbx_dropin){ .kind = SBX_DROPIN_RUN, .shell = "/bin/sh" };
        if (argc > SBX_DROPIN_MAX_ARGS)
                return usage(o, "too many arguments");
        scan(argc, argv, &command, &bash, &operand);
        if (command && !operand)
                return usage(o, "-c: option requires an argument");
        if (bash)
                o->shell = "/bin/bash";
        push(o, run);
        for (char *name = pass ? strtok_r(pass, " \t\n", &save) : NULL; name; name = strtok_r(NULL, " \t\n", &save))
                if (!push(o, "--env") || !push(o, name))
                        return usage(o, "too many names in SBX_SH_PASS");
        push(o, "--profile");
        push(o, profile && *profile ? profile : SBX_DROPIN_DEFAULT_PROFILE);
        push(o, "--");
        push(o, o->shell);
        /* sshd's ForceCommand: the client's command is in SSH_ORIGINAL_COMMAND; with
         * none, an SSH session asked for a shell. */
        if (argc <= 1 && ssh_command && *ssh_command) {
                push(o, "-c");
                push(o, ssh_command);
                return o->kind;
        }
        /* A terminal and nothing to run: an interactive shell, which sbx-sh does not
         * give (the jail's setsid leaves it without job control).  Without a terminal,
         * the inner shell reads its commands from stdin, as sh does. */
        if (!command && !operand && tty)
                return o->kind = SBX_DROPIN_INTERACTIVE;
        for (int i = 1; i < argc; i++)
                push(o, argv[i]);
        return o->kind;
}
