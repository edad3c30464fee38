/* SPDX-License-Identifier: MIT */
/* sandboxd's command line: a pure function, tested as one. */
#include <errno.h>
#include <stdarg.h>

#include "../../sandboxd/options.h"
#include "unit.h"

#define G "unit-daemon-options"

/* Parses a NULL-terminated list of words after "sandboxd"; returns the parser's result. */
static int parse(struct sbx_daemon_options *o, struct sbx_error *e, ...)
{
        static char *argv[32];
        va_list ap;
        int argc = 0;

        va_start(ap, e);
        argv[argc++] = "sandboxd";
        for (char *w; (w = va_arg(ap, char *));)
                argv[argc++] = w;
        va_end(ap);
        argv[argc] = NULL;
        *e = (struct sbx_error){ 0 };
        return sbx_daemon_options_parse(argc, argv, o, e);
}

/* Refused with -EINVAL, stage "options", @word in the message and a hint. */
#define REFUSES(name, word, ...)                                                                     \
        do {                                                                                           \
                struct sbx_daemon_options o_;                                                          \
                struct sbx_error e_;                                                                   \
                int r_ = parse(&o_, &e_, __VA_ARGS__, NULL);                                           \
                CHECK(G, name, r_ == -EINVAL && e_.errnum == EINVAL && e_.stage == SBX_STAGE_OPTIONS && \
                                   strstr(e_.msg, word) && e_.hint[0]);                                \
        } while (0)

static void test_defaults(void)
{
        struct sbx_daemon_options o;
        struct sbx_error e;
        int r;

        r = parse(&o, &e, NULL);
        CHECK(G, "no arguments accepted", r == 0);
        CHECK(G, "default socket", strcmp(o.listen, SBX_DEFAULT_SOCKET) == 0);
        CHECK(G, "default policy", strcmp(o.policy, SBX_DEFAULT_POLICY) == 0);
        CHECK(G, "default bus: auto", o.system_bus == SBX_BUS_AUTO);
        CHECK(G, "default: serve", !o.help && !o.version && !o.check);

        /* A second parse starts from the defaults again (getopt re-initialized). */
        parse(&o, &e, "--system-bus", "--check-config", "--listen", "/a", NULL);
        r = parse(&o, &e, NULL);
        CHECK(G, "a second parse starts afresh", r == 0 && o.system_bus == SBX_BUS_AUTO && !o.check &&
                                                     strcmp(o.listen, SBX_DEFAULT_SOCKET) == 0);
        r = parse(&o, &e, "--", NULL);
        CHECK(G, "a lone -- accepted", r == 0);
}

static void test_paths(void)
{
        struct sbx_daemon_options o;
        struct sbx_error e;
        int r;

        r = parse(&o, &e, "--listen", "/run/x.sock", "--policy", "/etc/p.yaml", NULL);
        CHECK(G, "--listen and --policy absolute", r == 0 && strcmp(o.listen, "/run/x.sock") == 0 &&
                                                           strcmp(o.policy, "/etc/p.yaml") == 0);
        r = parse(&o, &e, "--listen=/run/y.sock", "--policy=/p", NULL);
        CHECK(G, "--listen=PATH and --policy=PATH", r == 0 && strcmp(o.listen, "/run/y.sock") == 0 &&
                                                            strcmp(o.policy, "/p") == 0);
        CHECK(G, "no audit file by default", parse(&o, &e, NULL) == 0 && !o.audit_file && o.audit_fd == -1);
        r = parse(&o, &e, "--audit-file", "/var/log/sbx.jsonl", NULL);
        CHECK(G, "--audit-file", r == 0 && strcmp(o.audit_file, "/var/log/sbx.jsonl") == 0 && o.audit_fd == -1);
        r = parse(&o, &e, "--audit-fd", "2", NULL);
        CHECK(G, "--audit-fd 2", r == 0 && o.audit_fd == 2 && !o.audit_file);
        REFUSES("relative --audit-file", "absolute", "--audit-file", "a.jsonl");
        REFUSES("--audit-fd not a number", "--audit-fd", "--audit-fd", "two");
        REFUSES("--audit-fd negative", "--audit-fd", "--audit-fd", "-2");
        REFUSES("--audit-file and --audit-fd", "both", "--audit-file", "/a", "--audit-fd", "2");
        r = parse(&o, &e, "--listen", "/a", "--listen", "/b", NULL);
        CHECK(G, "the last --listen wins", r == 0 && strcmp(o.listen, "/b") == 0);
        REFUSES("relative --listen", "--listen", "--listen", "run/x.sock");
        REFUSES("relative --policy", "--policy", "--policy", "policy.yaml");
        REFUSES("empty --listen", "absolute", "--listen", "");
        REFUSES("empty --policy", "absolute", "--policy=");
        REFUSES("./ --policy", "absolute", "--policy", "./p.yaml");
        /* The next word is taken as the value, then refused as a path. */
        REFUSES("a flag as --listen's value", "'--policy' is not an absolute path", "--listen", "--policy", "/p");
}

static void test_flags(void)
{
        struct sbx_daemon_options o;
        struct sbx_error e;
        int r;

        r = parse(&o, &e, "--system-bus", NULL);
        CHECK(G, "--system-bus", r == 0 && o.system_bus == SBX_BUS_YES);
        r = parse(&o, &e, "--no-system-bus", NULL);
        CHECK(G, "--no-system-bus", r == 0 && o.system_bus == SBX_BUS_NO);
        r = parse(&o, &e, "--system-bus", "--no-system-bus", NULL);
        CHECK(G, "the last bus flag wins", r == 0 && o.system_bus == SBX_BUS_NO);
        r = parse(&o, &e, "--check-config", NULL);
        CHECK(G, "--check-config", r == 0 && o.check && !o.help && !o.version);
        r = parse(&o, &e, "--check-config", "--policy", "/etc/sbx/test.yaml", NULL);
        CHECK(G, "--check-config with --policy", r == 0 && o.check && strcmp(o.policy, "/etc/sbx/test.yaml") == 0);
        r = parse(&o, &e, "--help", NULL);
        CHECK(G, "--help", r == 0 && o.help && !o.version && !o.check);
        r = parse(&o, &e, "-h", NULL);
        CHECK(G, "-h", r == 0 && o.help);
        r = parse(&o, &e, "--version", NULL);
        CHECK(G, "--version", r == 0 && o.version && !o.help);
        CHECK(G, "usage names every option", strstr(sbx_daemon_usage, "--listen") && strstr(sbx_daemon_usage, "--policy") &&
                                                     strstr(sbx_daemon_usage, "--system-bus") &&
                                                     strstr(sbx_daemon_usage, "--no-system-bus") &&
                                                     strstr(sbx_daemon_usage, "--check-config") &&
                                                     strstr(sbx_daemon_usage, "--audit-file") && strstr(sbx_daemon_usage, "--audit-fd"));
}

static void test_refusals(void)
{
        REFUSES("unknown option", "unknown option '--frobnicate'", "--frobnicate");
        REFUSES("unknown short option", "unknown option '-x'", "-x");
        REFUSES("unknown option after a good one", "unknown option '--nope'", "--system-bus", "--nope");
        REFUSES("value for a flag", "unknown option '--help=1'", "--help=1");
        REFUSES("missing --listen value", "option '--listen' needs a value", "--listen");
        REFUSES("missing --policy value", "option '--policy' needs a value", "--check-config", "--policy");
        REFUSES("stray argument", "unexpected argument 'serve'", "serve");
        REFUSES("stray argument after options", "unexpected argument 'x'", "--no-system-bus", "x");
        REFUSES("stray argument after --", "unexpected argument 'x'", "--", "x");
        /* '+': the first non-option ends the options, so a later flag is stray too. */
        REFUSES("no option after a stray argument", "unexpected argument 'x'", "x", "--help");
        /* The message names what the user typed ('-x' or '-xh'), not the word before
         * it: in a cluster getopt has not yet moved optind past the bad word. */
        REFUSES("unknown short option in a cluster", "unknown option '-x", "-xh");
        REFUSES("unknown short option in a cluster after a flag", "unknown option '-y", "--system-bus", "-yh");
}

int main(void)
{
        test_defaults();
        test_paths();
        test_flags();
        test_refusals();
        return unit_failed ? 1 : 0;
}
