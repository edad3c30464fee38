/* SPDX-License-Identifier: MIT */
/* sbx-sh/args.c: sh's command line becomes sbx-run's, the shell's arguments passed on
 * as they came; SSH's forced command; an interactive shell refused; bash chosen by its
 * own options. */
#include <string.h>

#include "../../sbx-sh/args.h"
#include "unit.h"

#define G "sbx-sh"

/* The sbx-run command line, joined with '|'. */
static const char *joined(const struct sbx_dropin *o)
{
        static char buf[1024];
        size_t n = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < o->argc && n < sizeof(buf); i++)
                n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "|" : "", o->argv[i]);
        return buf;
}

static enum sbx_dropin_kind parse(struct sbx_dropin *o, const char *profile, const char *ssh, bool tty, char *const *argv)
{
        int argc = 0;

        while (argv[argc])
                argc++;
        return sbx_dropin_parse(argc, argv, profile, NULL, ssh, tty, "/b/sbx-run", o);
}

int main(void)
{
        static struct sbx_dropin o;
        char pass[] = "CC CFLAGS";

        parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "-c", "echo $0 $1", "zero", "one", NULL });
        CHECK(G, "-c CMD ARG0 ARGS", o.kind == SBX_DROPIN_RUN &&
                                            strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh|-c|echo $0 $1|zero|one") == 0);
        parse(&o, "strict", NULL, false, (char *[]){ "sbx-sh", "-lc", "make", NULL });
        CHECK(G, "-lc: bash, the profile from SBX_PROFILE", strcmp(joined(&o), "/b/sbx-run|--profile|strict|--|/bin/bash|-lc|make") == 0);
        parse(&o, "", NULL, false, (char *[]){ "sbx-sh", "-l", "-c", "make", NULL });
        CHECK(G, "-l -c: bash; an empty SBX_PROFILE is workspace", strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/bash|-l|-c|make") == 0);
        parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "-e", "-c", "--", "-x", NULL });
        CHECK(G, "-e -c -- STRING: sh, as given", strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh|-e|-c|--|-x") == 0);
        parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "--norc", "-c", "x", NULL });
        CHECK(G, "a long option: bash", o.shell && strcmp(o.shell, "/bin/bash") == 0);
        parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "-o", "pipefail", "-c", "x", NULL });
        CHECK(G, "-o NAME: sh", strcmp(o.shell, "/bin/sh") == 0);
        CHECK(G, "-c without a command: usage", parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "-c", NULL }) == SBX_DROPIN_USAGE);
        CHECK(G, "-ec without a command: usage", parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", "-ec", NULL }) == SBX_DROPIN_USAGE);
        parse(&o, NULL, "git status; rm -rf x", true, (char *[]){ "sbx-sh", NULL });
        CHECK(G, "no arguments: SSH_ORIGINAL_COMMAND", o.kind == SBX_DROPIN_RUN &&
                                                           strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh|-c|git status; rm -rf x") == 0);
        parse(&o, NULL, "ignored", false, (char *[]){ "sbx-sh", "-c", "id", NULL });
        CHECK(G, "arguments win over SSH_ORIGINAL_COMMAND", strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh|-c|id") == 0);
        CHECK(G, "a terminal and nothing to run: refused",
              parse(&o, NULL, NULL, true, (char *[]){ "sbx-sh", NULL }) == SBX_DROPIN_INTERACTIVE);
        CHECK(G, "-l on a terminal: refused", parse(&o, NULL, "", true, (char *[]){ "sbx-sh", "-l", NULL }) == SBX_DROPIN_INTERACTIVE);
        parse(&o, NULL, NULL, false, (char *[]){ "sbx-sh", NULL });
        CHECK(G, "no terminal: the jailed shell reads stdin", o.kind == SBX_DROPIN_RUN && strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh") == 0);
        parse(&o, NULL, NULL, true, (char *[]){ "sbx-sh", "script.sh", "a", NULL });
        CHECK(G, "a script operand runs, terminal or not", o.kind == SBX_DROPIN_RUN &&
                                                            strcmp(joined(&o), "/b/sbx-run|--profile|workspace|--|/bin/sh|script.sh|a") == 0);
        sbx_dropin_parse(3, (char *[]){ "sbx-sh", "-c", "make", NULL }, NULL, pass, NULL, false, "/b/sbx-run", &o);
        CHECK(G, "SBX_SH_PASS: --env per name", strcmp(joined(&o), "/b/sbx-run|--env|CC|--env|CFLAGS|--profile|workspace|--|/bin/sh|-c|make") == 0);
        return unit_failed ? 1 : 0;
}
