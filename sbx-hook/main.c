/* SPDX-License-Identifier: MIT */
/* sbx-hook: parse, dispatch, map a failure to the status that blocks.  As a hook it
 * reads the harness's JSON, asks the policy (verdict.c) and answers in the harness's
 * shape (reply.c); after a Claude Code call it checks that the call ran jailed
 * (post.c); as sbx-shell-prefix it runs Claude Code's composite jailed
 * (prefix.c); with --install it merges itself into a harness's settings (install.c). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../policy/profile.h"
#include "failsafe.h"
#include "hook.h"
#include "input.h"
#include "install.h"
#include "post.h"
#include "prefix.h"
#include "reply.h"
#include "spool.h"
#include "verdict.h"

#ifndef SBX_BINDIR
#define SBX_BINDIR "/usr/local/bin"
#endif

static const char usage[] =
        "Usage: sbx-hook --harness claude|codex|gemini|opencode [--profile NAME] [--rewrite]\n"
        "       sbx-hook --shell-prefix [--profile NAME] COMMAND   (also: sbx-shell-prefix COMMAND)\n"
        "       sbx-hook --install claude|codex|gemini [--project DIR] [--profile NAME] [--rewrite]\n"
        "An agent harness's pre-tool hook over sbx's policy: reads the harness's JSON on\n"
        "stdin, asks the profile's command policy as sbx-run would, and answers in the\n"
        "harness's shape: a denied command is blocked with the rule as the reason; an\n"
        "allowed one runs jailed (rewritten to sbx-run for Codex, Gemini CLI and opencode;\n"
        "through the shell prefix for Claude Code, or rewritten with --rewrite).  After a\n"
        "Claude Code call (PostToolUse), it tells the model when the call ran unjailed.\n"
        "\n"
        "  --harness NAME   the harness whose hook input and output to speak\n"
        "  --profile NAME   the sbx profile (default: $SBX_PROFILE, else workspace); a\n"
        "                   path works only where sbx-run runs without sandboxd\n"
        "  --rewrite        Claude Code: allow with updatedInput running sbx-run, for\n"
        "                   setups without the shell prefix\n"
        "  --shell-prefix   run Claude Code's composite command jailed, granting only its\n"
        "                   shell snapshot (read-only) and its cwd file (read-write)\n"
        "  --install NAME   merge the hook (Claude Code: its PostToolUse check and the\n"
        "                   shell prefix too) into the harness's settings, keeping\n"
        "                   every other key\n"
        "  --project DIR    with --install: DIR's settings instead of your own\n"
        "  -h, --help       show this help\n"
        "\n"
        "Environment: SBX_RUN, the sbx-run the jailed commands name (default: the one\n"
        "beside sbx-hook, else " SBX_BINDIR "/sbx-run); SBX_PROFILE.  Claude Code's hooks\n"
        "and prefix share a spool: $XDG_RUNTIME_DIR/sbx-hook when that is your private\n"
        "directory, else ~/.cache/sbx-hook ($XDG_CACHE_HOME/sbx-hook); a workspace that\n"
        "holds it is refused.\n"
        "Exit status: 0, the answer on stdout; 2, the call is blocked (the reason on\n"
        "stderr): a denied command for Codex and opencode, and every failure -- bad\n"
        "input, over 1 MiB, no verdict within 5 s, a crash.  See sbx-hook(1).\n";

enum mode { MODE_HOOK, MODE_PREFIX, MODE_INSTALL, MODE_HELP };

struct args {
        enum mode mode;
        struct hook_config c;
        const char *project;
        bool harness_given;
};

/* Exits with the status that blocks: every path that is not an answer ends here. */
_Noreturn static void block(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn static void block(const char *fmt, ...)
{
        va_list ap;

        fputs("sbx-hook: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputs(" (the call is blocked)\n", stderr);
        exit(HOOK_EXIT_BLOCK);
}

/* The budget: async-signal-safe, and the verdict's child dies with us. */
static void on_alarm(int sig)
{
        static const char msg[] = "sbx-hook: no verdict within 5 s (the call is blocked)\n";

        (void)sig;
        (void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
        _exit(HOOK_EXIT_BLOCK);
}

static int parse_args(int argc, char **argv, struct args *a, char *why, size_t size)
{
        enum { O_HARNESS = 0x100, O_PROFILE, O_REWRITE, O_PREFIX, O_INSTALL, O_PROJECT };
        static const struct option opts[] = {
                { "harness", required_argument, NULL, O_HARNESS }, { "profile", required_argument, NULL, O_PROFILE },
                { "rewrite", no_argument, NULL, O_REWRITE },       { "shell-prefix", no_argument, NULL, O_PREFIX },
                { "install", required_argument, NULL, O_INSTALL }, { "project", required_argument, NULL, O_PROJECT },
                { "help", no_argument, NULL, 'h' },                { 0 },
        };
        int o, h;

        opterr = 0;
        while ((o = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
                switch (o) {
                case O_HARNESS:
                case O_INSTALL:
                        if ((h = hook_harness_by_name(optarg)) < 0) {
                                snprintf(why, size, "unknown harness '%s' (claude, codex, gemini or opencode)", optarg);
                                return -EINVAL;
                        }
                        a->c.harness = (enum hook_harness)h;
                        a->harness_given = true;
                        if (o == O_INSTALL)
                                a->mode = MODE_INSTALL;
                        break;
                case O_PROFILE:
                        /* As sbx-run takes it: a name, or (direct mode only) a path. */
                        if (!sbx_is_profile_name(optarg) && optarg[0] != '/') {
                                snprintf(why, size, "--profile '%s' is neither a profile name (see sbx-run --list-profiles) nor an absolute path", optarg);
                                return -EINVAL;
                        }
                        a->c.profile = optarg;
                        break;
                case O_REWRITE:
                        a->c.rewrite = true;
                        break;
                case O_PREFIX:
                        a->mode = MODE_PREFIX;
                        break;
                case O_PROJECT:
                        a->project = optarg;
                        break;
                case 'h':
                        a->mode = MODE_HELP;
                        return 0;
                default:
                        snprintf(why, size, "unknown option or missing value '%s' (see sbx-hook --help)", argv[optind - 1]);
                        return -EINVAL;
                }
        }
        if (a->mode == MODE_HOOK && (!a->harness_given || optind != argc)) {
                snprintf(why, size, "a hook needs --harness NAME and no other arguments (see sbx-hook --help)");
                return -EINVAL;
        }
        return optind;
}

/* The launcher the jailed commands name: $SBX_RUN, else the sbx-run installed beside
 * us, else the configured one.  Always absolute: the harness's PATH does not choose. */
static const char *find_sbx_run(const char *self, char *buf, size_t size)
{
        const char *env = getenv("SBX_RUN");
        char *slash;

        if (env && env[0] == '/')
                return env;
        snprintf(buf, size, "%s", self);
        if ((slash = strrchr(buf, '/'))) {
                snprintf(slash + 1, size - (size_t)(slash + 1 - buf), "sbx-run");
                if (access(buf, X_OK) == 0)
                        return buf;
        }
        return SBX_BINDIR "/sbx-run";
}

static char *read_all(FILE *f, size_t max, size_t *len)
{
        char *buf = malloc(max + 1);
        size_t n;

        if (!buf)
                block("out of memory");
        n = fread(buf, 1, max + 1, f);
        if (ferror(f))
                block("cannot read the harness's input: %s", strerror(errno));
        if (n > max)
                block("the harness's input is over %zu bytes", max);
        *len = n;
        return buf;
}

/* Claude Code without --rewrite: "allow" is only true where the shell prefix jails
 * the call; where it is not set (installed by hand, or lost), the hook says so and
 * blocks, rather than allowing a call that would run unjailed. */
static bool claude_prefix_set(void)
{
        const char *p = getenv("CLAUDE_CODE_SHELL_PREFIX");

        return p && (strstr(p, "sbx-shell-prefix") || strstr(p, "sbx-hook"));
}

static int run_hook(struct hook_config *c)
{
        _cleanup_free_ char *buf = NULL;
        struct hook_input in;
        struct hook_result res = { 0 };
        char why[512], here[PATH_MAX];
        size_t len;
        int r;

        hook_failsafe_split();
        signal(SIGALRM, on_alarm);
        alarm(HOOK_BUDGET_SECONDS);
        buf = read_all(stdin, HOOK_MAX_INPUT, &len);
        if (hook_input_parse(buf, len, c->harness, &in, why, sizeof(why)) < 0)
                block("cannot read %s's hook input: %s", hook_harness_name(c->harness), why);
        if (!in.shell) {
                hook_input_done(&in);
                return 0; /* not a shell call: no opinion (no output) */
        }
        if (in.post) {
                r = hook_post(c, &in, stdout);
                hook_input_done(&in);
                if (r < 0)
                        block("cannot write the answer: %s", strerror(-r));
                return 0;
        }
        if (hook_verdict(c, hook_shell_flag(c->harness), in.command, in.cwd, &res, why, sizeof(why)) < 0)
                block("%s", why);
        /* The jail's workspace (the harness's cwd, else ours) must not hold the way to
         * the spool, whatever the harness: the jail could forge Claude Code's calls. */
        if (res.verdict != HOOK_DENY && !in.cwd && !getcwd(here, sizeof(here)))
                block("cannot find the hook's current directory: %s", strerror(errno));
        if (res.verdict != HOOK_DENY && spool_check_workspace(in.cwd ? in.cwd : here, why, sizeof(why)) < 0) {
                res.verdict = HOOK_DENY;
                snprintf(res.reason, sizeof(res.reason), "%s", why);
        }
        if (c->harness == HOOK_CLAUDE && !c->rewrite && res.verdict != HOOK_DENY && !claude_prefix_set()) {
                res.verdict = HOOK_DENY;
                snprintf(res.reason, sizeof(res.reason),
                         "CLAUDE_CODE_SHELL_PREFIX is not sbx's shell prefix, so this command would run unjailed "
                         "(run: sbx-hook --install claude; or install the hook with --rewrite)");
        }
        /* The prefix will run it: leave it the call's tags (and PostToolUse a way to
         * tell that the prefix ran it).  Not possible: blocked, as PostToolUse would
         * otherwise report a jailed call as unjailed. */
        if (c->harness == HOOK_CLAUDE && !c->rewrite && res.verdict != HOOK_DENY && hook_announce(&in, why, sizeof(why)) < 0)
                block("%s", why);
        r = hook_reply(c, &in, &res, stdout);
        hook_input_done(&in);
        if (r < 0)
                block("cannot write the answer: %s", strerror(-r));
        return r;
}

int main(int argc, char **argv)
{
        struct args a = { .mode = MODE_HOOK };
        char self[PATH_MAX], sbx_run[PATH_MAX], why[512];
        const char *base = strrchr(argv[0], '/');
        ssize_t n;
        int first;

        n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0)
                block("cannot find its own path: %s", strerror(errno));
        self[n] = '\0';
        a.c.profile = getenv("SBX_PROFILE") && sbx_is_profile_name(getenv("SBX_PROFILE")) ? getenv("SBX_PROFILE") : NULL;
        /* Run as sbx-shell-prefix (Claude Code's prefix takes no options): the prefix. */
        if (strcmp(base ? base + 1 : argv[0], "sbx-shell-prefix") == 0) {
                a.c.sbx_run = find_sbx_run(self, sbx_run, sizeof(sbx_run));
                return prefix_run(&a.c, argc - 1, argv + 1);
        }
        if ((first = parse_args(argc, argv, &a, why, sizeof(why))) < 0) {
                fprintf(stderr, "sbx-hook: %s\n", why);
                return HOOK_EXIT_BLOCK;
        }
        a.c.sbx_run = find_sbx_run(self, sbx_run, sizeof(sbx_run));
        switch (a.mode) {
        case MODE_HELP:
                fputs(usage, stdout);
                return 0;
        case MODE_PREFIX:
                return prefix_run(&a.c, argc - first, argv + first);
        case MODE_INSTALL:
                return hook_install(&a.c, a.project, self);
        default:
                return run_hook(&a.c);
        }
}
