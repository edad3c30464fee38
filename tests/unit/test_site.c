/* SPDX-License-Identifier: MIT */
/* The site policy from the outside.  Every malformed policy of tests/policy/bad/ must be
 * refused with exactly the one line of its .expect ("file:line:col: message", the file
 * as a basename); every policy of tests/policy/good/ and the shipped one must load; and
 * sbx_site_admit() must decide as sbx-policy(5) says: a caller no rule admits is
 * denied, any matching rule that lists a profile admits it, deny.profiles beats every
 * rule, and the cap and ceilings are the tightest of the global limits and the matching
 * rules that list the profile.  Runs from the repository root (tests/run.sh). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/plan.h"
#include "../../lib/tier.h"
#include "../../policy/options.h"
#include "../../policy/site.h"
#include "unit.h"

#define G "unit-site"
#define BAD "tests/policy/bad"
#define GOOD "tests/policy/good"
#define SHIPPED "profiles/site/policy.yaml"

/* ------------------------------------------------------------------ helpers */

static bool ends_with(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool read_line(const char *path, char *buf, size_t size)
{
        FILE *f = fopen(path, "re");
        bool ok;

        if (!f)
                return false;
        ok = fgets(buf, (int)size, f) != NULL;
        fclose(f);
        if (ok)
                buf[strcspn(buf, "\n")] = '\0';
        return ok;
}

/* The diagnosis as the .expect files spell it: the file by its basename. */
static void diag_line(const struct sbx_diag *d, char *buf, size_t size)
{
        struct sbx_diag copy = *d;
        const char *slash = strrchr(d->file, '/');

        if (slash)
                snprintf(copy.file, sizeof(copy.file), "%s", slash + 1);
        sbx_diag_format(&copy, buf, size);
}

/* Parses @text as "policy.yaml"; @got gets the diagnosis, or "(ok)". */
static int parse(const char *text, struct sbx_site_policy *sp, char *got, size_t size)
{
        struct sbx_diag d = { 0 };
        int r = sbx_site_parse("policy.yaml", text, strlen(text), sp, &d);

        if (r < 0)
                diag_line(&d, got, size);
        else
                snprintf(got, size, "(ok)");
        return r;
}

/* Loads @path, saying why when it fails, so a broken good policy explains itself. */
static int load(const char *path, struct sbx_site_policy *sp)
{
        struct sbx_diag d = { 0 };
        char line[1024];
        int r = sbx_site_load(path, sp, &d);

        if (r < 0) {
                diag_line(&d, line, sizeof(line));
                printf("     loading '%s': %s\n", path, line);
        }
        return r;
}

static bool is_empty_policy(const struct sbx_site_policy *sp)
{
        return sp->n_rules == 0 && sp->max_sandboxes == 64 && sp->max_per_user == 8 && sp->max_time_ms == 0 &&
               sp->max_memory == 0 && sp->max_pids == 0 && sp->grace_ms == 5000 && sp->deny.mode == SBX_CMD_OFF &&
               sp->deny_profiles.n == 0;
}

static bool has_uid(const struct sbx_site_rule *r, uid_t uid)
{
        for (size_t i = 0; i < r->n_uids; i++)
                if (r->uids[i] == uid)
                        return true;
        return false;
}

static bool has_gid(const struct sbx_site_rule *r, gid_t gid)
{
        for (size_t i = 0; i < r->n_gids; i++)
                if (r->gids[i] == gid)
                        return true;
        return false;
}

/* sbx_site_admit() for a caller without supplementary groups. */
static bool admit(const struct sbx_site_policy *sp, uid_t uid, gid_t gid, const char *profile, struct sbx_site_grant *g,
                  char *why, size_t size)
{
        *g = (struct sbx_site_grant){ 0 };
        why[0] = '\0';
        return sbx_site_admit(sp, uid, gid, NULL, 0, profile, g, why, size);
}

/* The site's command verdict for one argv. */
static bool cmd_allowed(const struct sbx_site_policy *sp, const char *const *argv)
{
        struct sbx_verdict v;

        return sbx_cmd_check(&sp->deny, (char *const *)argv, &v) == 0 && v.allow;
}

/* ------------------------------------------------------------------ the corpora */

static int is_yaml(const struct dirent *de)
{
        return de->d_name[0] != '.' && ends_with(de->d_name, ".yaml");
}

static void check_bad(const char *name, const char *expect_path)
{
        struct sbx_site_policy sp;
        struct sbx_diag d = { 0 };
        char path[512], want[1024], got[1024] = "(loaded without an error)";
        int r;

        snprintf(path, sizeof(path), "%s/%s", BAD, name);
        if (!read_line(expect_path, want, sizeof(want)))
                snprintf(want, sizeof(want), "(cannot read %s)", expect_path);
        r = sbx_site_load(path, &sp, &d);
        if (r < 0)
                diag_line(&d, got, sizeof(got));
        if (strcmp(got, want) != 0)
                printf("     %s\n       got:  %s\n       want: %s\n", name, got, want);
        CHECK(G, name, r < 0 && strcmp(got, want) == 0 && is_empty_policy(&sp));
        sbx_site_done(&sp);
}

static void test_bad_corpus(void)
{
        struct dirent **list = NULL;
        int n = scandir(BAD, &list, is_yaml, alphasort);
        size_t checked = 0, missing = 0;

        CHECK(G, "the bad corpus can be read (run from the repository root)", n > 0);
        for (int i = 0; i < n; i++) {
                char expect[512];

                snprintf(expect, sizeof(expect), "%s/%.*s.expect", BAD, (int)(strlen(list[i]->d_name) - 5), list[i]->d_name);
                if (access(expect, R_OK) == 0) {
                        check_bad(list[i]->d_name, expect);
                        checked++;
                } else {
                        printf("     %s has no .expect\n", list[i]->d_name);
                        missing++;
                }
                free(list[i]);
        }
        free(list);
        CHECK(G, "at least 25 malformed policies with an .expect", checked >= 25);
        CHECK(G, "every malformed policy has an .expect", missing == 0);
}

static void test_good_corpus(void)
{
        struct dirent **list = NULL;
        int n = scandir(GOOD, &list, is_yaml, alphasort);
        struct sbx_site_policy sp;

        CHECK(G, "the good corpus can be read", n > 0);
        for (int i = 0; i < n; i++) {
                char path[512], name[600];

                snprintf(path, sizeof(path), "%s/%s", GOOD, list[i]->d_name);
                snprintf(name, sizeof(name), "good: %s loads", list[i]->d_name);
                CHECK(G, name, load(path, &sp) == 0);
                sbx_site_done(&sp);
                free(list[i]);
        }
        free(list);
        CHECK(G, "good: the shipped " SHIPPED " loads", load(SHIPPED, &sp) == 0);
        sbx_site_done(&sp);
}

/* ------------------------------------------------------------------ loading */

static void test_defaults(void)
{
        struct sbx_site_policy sp;
        struct sbx_site_grant g;
        char why[512];

        sbx_site_init(&sp);
        CHECK(G, "init: no rule, the default limits, no command rule", is_empty_policy(&sp));
        CHECK(G, "init: denies root too (fail closed)", !admit(&sp, 0, 0, "workspace", &g, why, sizeof(why)));
        CHECK(G, "init: the reason names the default path",
              strcmp(why, "no rule of /etc/sbx/policy.yaml admits uid 0: callers not listed are denied") == 0);
        sbx_site_done(&sp);
        CHECK(G, "done leaves an empty policy, safe to done again", is_empty_policy(&sp));
        sbx_site_done(&sp);

        if (load(GOOD "/empty.yaml", &sp) == 0) {
                CHECK(G, "an empty file: the empty policy", is_empty_policy(&sp));
                CHECK(G, "an empty file: denies everyone", !admit(&sp, 0, 0, "workspace", &g, why, sizeof(why)));
                CHECK(G, "an empty file: origin is the path", sp.origin && strcmp(sp.origin, GOOD "/empty.yaml") == 0);
        }
        sbx_site_done(&sp);
        if (load(GOOD "/no-rules.yaml", &sp) == 0)
                CHECK(G, "allow: []: denies everyone", is_empty_policy(&sp) && !admit(&sp, 0, 0, "strict", &g, why, sizeof(why)) &&
                                                              strstr(why, "no rule of") != NULL);
        sbx_site_done(&sp);
}

static void test_everything(void)
{
        struct sbx_site_policy sp;
        const struct sbx_site_rule *r;

        if (load(GOOD "/everything.yaml", &sp) < 0 || sp.n_rules != 2) {
                CHECK(G, "everything.yaml loads with two rules", false);
                sbx_site_done(&sp);
                return;
        }
        r = &sp.rules[0];
        CHECK(G, "rule: users by name and number", r->n_uids == 2 && has_uid(r, 0) && has_uid(r, 1001));
        CHECK(G, "rule: groups by name and number", r->n_gids == 2 && has_gid(r, 0) && has_gid(r, 2000));
        CHECK(G, "rule: profiles", r->profiles.n == 2 && sbx_strv_contains(&r->profiles, "workspace") &&
                                           sbx_strv_contains(&r->profiles, "build"));
        CHECK(G, "rule: max_sandboxes", r->max_sandboxes == 4);
        CHECK(G, "rule: max_time", r->max_time_ms == 30 * 60 * 1000);
        CHECK(G, "rule: max_memory", r->max_memory == 1ull << 30);
        CHECK(G, "rule: its line", r->line == 3);
        r = &sp.rules[1];
        CHECK(G, "rule 2: groups only, \"*\", no limits of its own",
              r->n_uids == 0 && r->n_gids == 1 && has_gid(r, 3000) && r->profiles.n == 1 &&
                      strcmp(r->profiles.v[0], "*") == 0 && !r->max_sandboxes && !r->max_time_ms && !r->max_memory &&
                      r->line == 9);
        CHECK(G, "deny.commands", sp.deny.deny.n == 2 && sbx_strv_contains(&sp.deny.deny, "dd") &&
                                          sbx_strv_contains(&sp.deny.deny, "mkfs*"));
        CHECK(G, "deny.patterns", sp.deny.deny_patterns.n == 1 &&
                                          strcmp(sp.deny.deny_patterns.v[0], "git +push +.*--force") == 0);
        CHECK(G, "deny: a denylist that reads what pipes feed shells", sp.deny.mode == SBX_CMD_DENYLIST &&
                                                                      !sp.deny.allow_pipe_to_shell);
        CHECK(G, "deny.profiles, with its line",
              sp.deny_profiles.n == 1 && strcmp(sp.deny_profiles.v[0], "network") == 0 && sp.deny_profiles_lines[0] == 14);
        CHECK(G, "limits.max_sandboxes", sp.max_sandboxes == 32);
        CHECK(G, "limits.max_sandboxes_per_user", sp.max_per_user == 6);
        CHECK(G, "limits.max_time", sp.max_time_ms == 3600 * 1000);
        CHECK(G, "limits.max_memory", sp.max_memory == 4ull << 30);
        CHECK(G, "limits.max_pids", sp.max_pids == 4096);
        CHECK(G, "limits.grace", sp.grace_ms == 10000);
        CHECK(G, "limits.without_cgroup: rlimit", sp.without_cgroup == SBX_WITHOUT_CGROUP_RLIMIT);
        CHECK(G, "names are kept for reasons", sp.n_names == 1 && sp.names[0].uid == 0 && strcmp(sp.names[0].name, "root") == 0);
        sbx_site_done(&sp);
}

static void test_flow_and_shares(void)
{
        struct sbx_site_policy sp;
        uint64_t half = sbx_physical_memory() / 100 * 50;

        if (load(GOOD "/flow.yaml", &sp) == 0) {
                CHECK(G, "flow style: two rules", sp.n_rules == 2 && has_uid(&sp.rules[0], 0) && has_gid(&sp.rules[1], 0));
                CHECK(G, "flow style: a duration in plain seconds", sp.max_time_ms == 90000);
                CHECK(G, "max_memory: 50% of RAM", sp.max_memory == half);
                CHECK(G, "grace: 0 (SIGKILL at once)", sp.grace_ms == 0);
                CHECK(G, "flow style: deny in one line", sp.deny.mode == SBX_CMD_DENYLIST && sp.deny.deny.n == 1 &&
                                                                        sp.deny_profiles.n == 2);
        } else {
                CHECK(G, "flow.yaml loads", false);
        }
        sbx_site_done(&sp);
}

static void test_shipped(void)
{
        static const char *const profiles[] = { "workspace", "readonly", "strict", "build", "network", "git", "debug" };
        struct sbx_site_policy sp;
        struct sbx_site_grant g;
        char why[512];
        bool all = true;

        if (load(SHIPPED, &sp) < 0) {
                CHECK(G, "the shipped policy loads (no user or group beyond root)", false);
                sbx_site_done(&sp);
                return;
        }
        for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
                all = all && admit(&sp, 0, 0, profiles[i], &g, why, sizeof(why));
        CHECK(G, "shipped: root may use every shipped profile", all);
        CHECK(G, "shipped: the default limits", g.max_per_user == 8 && sp.max_sandboxes == 64 && sp.grace_ms == 5000 &&
                                                        !g.max_time_ms && !g.max_memory && !g.max_pids);
        CHECK(G, "shipped: nobody else", !admit(&sp, 1000, 1000, "workspace", &g, why, sizeof(why)) &&
                                                 strcmp(why, "no rule of " SHIPPED " admits uid 1000: callers not listed are denied") == 0);
        CHECK(G, "shipped: not even through root's group", !sbx_site_admit(&sp, 1000, 0, NULL, 0, "workspace", &g, why, sizeof(why)));
        CHECK(G, "shipped: no command rule", sp.deny.mode == SBX_CMD_OFF);
        sbx_site_done(&sp);
}

static void test_load_errors(void)
{
        struct sbx_site_policy sp;
        struct sbx_diag d = { 0 };
        char line[1024], path[] = "/tmp/sbx-test-site-XXXXXX";
        int fd, r;

        r = sbx_site_load("tests/policy/nonexistent.yaml", &sp, &d);
        diag_line(&d, line, sizeof(line));
        CHECK(G, "load: a missing file is -ENOENT, said so",
              r == -ENOENT && strcmp(line, "nonexistent.yaml:1:1: no site policy at tests/policy/nonexistent.yaml") == 0 &&
                      is_empty_policy(&sp));
        sbx_site_done(&sp);

        r = sbx_site_load("tests/policy", &sp, &d);
        diag_line(&d, line, sizeof(line));
        CHECK(G, "load: a directory is refused", r < 0 && strcmp(line, "policy:1:1: not a regular file") == 0);
        sbx_site_done(&sp);

        fd = mkstemp(path);
        if (fd < 0) {
                CHECK(G, "load: a temporary file", false);
                return;
        }
        CHECK(G, "load: a file of 1 MiB + 1 byte is refused",
              ftruncate(fd, (1 << 20) + 1) == 0 && sbx_site_load(path, &sp, &d) < 0 &&
                      strcmp(d.msg, "larger than 1 MiB: not a site policy") == 0);
        sbx_site_done(&sp);
        CHECK(G, "load: exactly 1 MiB is not too large", ftruncate(fd, 0) == 0 && ftruncate(fd, 1 << 20) == 0 &&
                                                                   fchmod(fd, 0644) == 0 && sbx_site_load(path, &sp, &d) < 0 &&
                                                                   strstr(d.msg, "larger") == NULL);
        sbx_site_done(&sp);
        CHECK(G, "load: a world-writable policy is refused",
              fchmod(fd, 0666) == 0 && sbx_site_load(path, &sp, &d) < 0 &&
                      strcmp(d.msg, "writable by anyone (mode 0666): refused; chmod o-w it") == 0);
        sbx_site_done(&sp);
        close(fd);
        unlink(path);
}

/* A failed parse leaves the policy empty (and the daemon keeps its last good one). */
static void test_parse_failure_is_empty(void)
{
        struct sbx_site_policy sp;
        char got[1024];

        CHECK(G, "a failure late in the file leaves nothing behind",
              parse("allow:\n  - users: [0]\n    profiles: [workspace]\ndeny:\n  commands: [dd]\nlimits:\n  max_pids: 0\n", &sp,
                    got, sizeof(got)) < 0 &&
                      strcmp(got, "policy.yaml:7:13: 'limits.max_pids': '0' is out of range; 4096 (from 1 to 4194304)") == 0 &&
                      is_empty_policy(&sp) && sp.deny.deny.n == 0 && !sp.origin);
        sbx_site_done(&sp);
}

/* ------------------------------------------------------------------ names */

static void test_names(void)
{
        struct sbx_site_policy sp;
        struct sbx_site_grant g;
        char got[1024], why[512];

        if (load(GOOD "/root.yaml", &sp) == 0) {
                CHECK(G, "root by name is uid 0", has_uid(&sp.rules[0], 0));
                CHECK(G, "root by name and by 0 are one caller: both rules apply",
                      admit(&sp, 0, 0, "workspace", &g, why, sizeof(why)) && strcmp(g.rule, "root.yaml:3") == 0 &&
                              admit(&sp, 0, 0, "strict", &g, why, sizeof(why)) && strcmp(g.rule, "root.yaml:5") == 0 &&
                              g.max_per_user == 2);
                CHECK(G, "a named caller is named in the reason",
                      !admit(&sp, 0, 0, "network", &g, why, sizeof(why)) &&
                              strcmp(why, "user 0 (root) is not allowed profile 'network' by " GOOD "/root.yaml") == 0);
        } else {
                CHECK(G, "root.yaml loads", false);
        }
        sbx_site_done(&sp);

        CHECK(G, "an unknown user is refused at its line and column",
              parse("allow:\n  - users:\n      - 1001\n      - sbx-nobody-here\n    profiles: [x]\n", &sp, got, sizeof(got)) < 0 &&
                      strcmp(got, "policy.yaml:4:9: 'allow[0].users': no user 'sbx-nobody-here' on this system") == 0);
        sbx_site_done(&sp);
        CHECK(G, "an unknown group is refused at its line and column",
              parse("allow: [{groups: [root, sbx-nogroup-here], profiles: [x]}]", &sp, got, sizeof(got)) < 0 &&
                      strcmp(got, "policy.yaml:1:25: 'allow[0].groups': no group 'sbx-nogroup-here' on this system") == 0);
        sbx_site_done(&sp);
        CHECK(G, "group root by name is gid 0",
              parse("allow: [{groups: [root], profiles: [x]}]", &sp, got, sizeof(got)) == 0 && has_gid(&sp.rules[0], 0));
        sbx_site_done(&sp);
        CHECK(G, "the largest uid; (uid_t)-1 is not one",
              parse("allow: [{users: [4294967294], profiles: [x]}]", &sp, got, sizeof(got)) == 0 &&
                      has_uid(&sp.rules[0], 4294967294u));
        sbx_site_done(&sp);
        CHECK(G, "a user name is not a path", parse("allow: [{users: [../root], profiles: [x]}]", &sp, got, sizeof(got)) < 0 &&
                                                      strstr(got, "'../root' is neither a user name nor a uid") != NULL);
        sbx_site_done(&sp);
}

/* ------------------------------------------------------------------ admission */

static void test_any_rule_and_tightest(void)
{
        static const gid_t in_2000[] = { 5, 2000 }, in_both[] = { 2000, 2001 };
        struct sbx_site_policy sp;
        struct sbx_site_grant g;
        char why[512];

        if (load(GOOD "/tightest.yaml", &sp) < 0) {
                CHECK(G, "tightest.yaml loads", false);
                sbx_site_done(&sp);
                return;
        }
        /* 1001 alone: rules 1 (workspace) and 3 (build). */
        CHECK(G, "any rule: the first rule admits workspace", admit(&sp, 1001, 100, "workspace", &g, why, sizeof(why)) &&
                                                                     strcmp(g.rule, "tightest.yaml:4") == 0);
        CHECK(G, "tightest: rule cap below the global one", g.max_per_user == 3);
        CHECK(G, "tightest: rule time below the global one", g.max_time_ms == 15 * 60 * 1000);
        CHECK(G, "tightest: global memory and pids", g.max_memory == 2ull << 30 && g.max_pids == 512);
        CHECK(G, "any rule: a later rule admits build", admit(&sp, 1001, 100, "build", &g, why, sizeof(why)) &&
                                                               strcmp(g.rule, "tightest.yaml:12") == 0);
        CHECK(G, "tightest: a rule cap above the global one does not raise it", g.max_per_user == 8);
        CHECK(G, "tightest: rule memory above the global one does not raise it", g.max_memory == 2ull << 30);
        CHECK(G, "tightest: a rule that does not list the profile does not tighten it", g.max_time_ms == 15 * 60 * 1000);
        CHECK(G, "not listed by any matching rule: denied, and said so",
              !admit(&sp, 1001, 100, "network", &g, why, sizeof(why)) &&
                      strcmp(why, "user 1001 is not allowed profile 'network' by " GOOD "/tightest.yaml") == 0);

        /* 1001 in group 2000 too: rule 2 lists workspace and build. */
        CHECK(G, "groups: supplementary gid matches",
              sbx_site_admit(&sp, 1001, 100, in_2000, 2, "workspace", &g, why, sizeof(why)) &&
                      strcmp(g.rule, "tightest.yaml:4") == 0 && g.max_time_ms == 10 * 60 * 1000 && g.max_memory == 512ull << 20 &&
                      g.max_per_user == 3);
        CHECK(G, "groups: build tightened by the group rule",
              sbx_site_admit(&sp, 1001, 100, in_2000, 2, "build", &g, why, sizeof(why)) &&
                      strcmp(g.rule, "tightest.yaml:8") == 0 && g.max_memory == 512ull << 20 && g.max_per_user == 8);
        CHECK(G, "groups: the primary gid matches", admit(&sp, 4242, 2000, "build", &g, why, sizeof(why)) &&
                                                            g.max_time_ms == 10 * 60 * 1000);
        CHECK(G, "groups: without the group, build comes from the user rule only",
              admit(&sp, 1001, 100, "build", &g, why, sizeof(why)) && g.max_memory == 2ull << 30);
        CHECK(G, "groups: a third group adds its profile with its cap",
              sbx_site_admit(&sp, 4242, 100, in_both, 2, "network", &g, why, sizeof(why)) && g.max_per_user == 1 &&
                      strcmp(g.rule, "tightest.yaml:16") == 0);
        CHECK(G, "groups: not in any group, not listed: denied",
              !sbx_site_admit(&sp, 4242, 100, in_2000, 1, "workspace", &g, why, sizeof(why)) &&
                      strcmp(why, "no rule of " GOOD "/tightest.yaml admits uid 4242: callers not listed are denied") == 0);
        sbx_site_done(&sp);
}

static void test_deny_profiles_and_star(void)
{
        struct sbx_site_policy sp;
        struct sbx_site_grant g;
        char got[1024], why[512];
        const char *text = "allow:\n"
                           "  - users: [0, 1001]\n"
                           "    profiles: [\"*\"]\n"
                           "  - users: [1001]\n"
                           "    profiles: [network]\n"
                           "deny:\n"
                           "  profiles:\n"
                           "    - git\n"
                           "    - network\n";

        if (parse(text, &sp, got, sizeof(got)) < 0) {
                CHECK(G, "deny.profiles policy parses", false);
                printf("     %s\n", got);
                sbx_site_done(&sp);
                return;
        }
        CHECK(G, "\"*\": any profile", admit(&sp, 1001, 1001, "my-own.profile_1", &g, why, sizeof(why)) &&
                                           strcmp(g.rule, "policy.yaml:2") == 0);
        CHECK(G, "deny.profiles beats \"*\" and a rule naming it",
              !admit(&sp, 1001, 1001, "network", &g, why, sizeof(why)) &&
                      strcmp(why, "profile 'network' is denied to everyone by policy.yaml:9 (deny.profiles)") == 0);
        CHECK(G, "deny.profiles beats root", !admit(&sp, 0, 0, "git", &g, why, sizeof(why)) &&
                                                     strcmp(why, "profile 'git' is denied to everyone by policy.yaml:8 (deny.profiles)") == 0);
        CHECK(G, "deny.profiles: only the names listed", admit(&sp, 0, 0, "network2", &g, why, sizeof(why)));
        CHECK(G, "no deny command rule: every argv passes the site check, even one it cannot read",
              sp.deny.mode == SBX_CMD_OFF && cmd_allowed(&sp, (const char *const[]){ "sh", "-c", "$CMD", NULL }));
        sbx_site_done(&sp);
}

static void test_network(void)
{
        struct sbx_site_policy sp;
        const struct sbx_netrule *rule;
        char got[1024];

        if (parse("allow:\n  - users: [1001]\n    profiles: [network]\nnetwork:\n  allow: [registry.npmjs.org, \"*.pypi.org\"]\n"
                  "  deny: [\"*:25\", 10.0.0.0/8]\n",
                  &sp, got, sizeof(got)) < 0) {
                CHECK(G, "network policy parses", false);
                printf("     %s\n", got);
                sbx_site_done(&sp);
                return;
        }
        CHECK(G, "network: two allow and two deny rules", sp.net.n_allow == 2 && sp.net.n_deny == 2);
        CHECK(G, "network: an allowed name matches the site's allow",
              sbx_netrules_match(&sp.net, "files.pypi.org", 443, SBX_NET_WEB, &rule) == SBX_NET_ALLOW);
        CHECK(G, "network: the site's address deny holds",
              sbx_netrules_match(&sp.net, "10.1.2.3", 443, SBX_NET_WEB, &rule) == SBX_NET_DENY);
        sbx_site_done(&sp);
        sbx_site_init(&sp);
        sbx_site_done(&sp);
        if (parse("network:\n  allow: [\"*\"]\n", &sp, got, sizeof(got)) < 0)
                CHECK(G, "network: '*' in allow is refused with the rule's reason", strstr(got, "network.allow") != NULL);
        else
                CHECK(G, "network: '*' in allow is refused", false);
        sbx_site_done(&sp);
}

static void test_deny_commands(void)
{
        struct sbx_site_policy sp;
        char got[1024];

        if (parse("deny:\n  commands: [dd, \"mkfs*\"]\n  patterns: [\"git +push +.*--force\"]\n", &sp, got, sizeof(got)) < 0) {
                CHECK(G, "deny commands policy parses", false);
                sbx_site_done(&sp);
                return;
        }
        CHECK(G, "deny.commands: a name", !cmd_allowed(&sp, (const char *const[]){ "dd", "if=/dev/zero", NULL }));
        CHECK(G, "deny.commands: by path too", !cmd_allowed(&sp, (const char *const[]){ "/bin/dd", NULL }));
        CHECK(G, "deny.commands: a NAME* prefix", !cmd_allowed(&sp, (const char *const[]){ "mkfs.ext4", "/dev/sda", NULL }));
        CHECK(G, "deny.commands: in a shell string", !cmd_allowed(&sp, (const char *const[]){ "sh", "-c", "ls; dd", NULL }));
        CHECK(G, "deny.commands: behind a wrapper", !cmd_allowed(&sp, (const char *const[]){ "env", "A=1", "nice", "dd", NULL }) &&
                                                            !cmd_allowed(&sp, (const char *const[]){ "xargs", "mkfs", NULL }));
        CHECK(G, "deny.patterns", !cmd_allowed(&sp, (const char *const[]){ "git", "push", "origin", "--force", NULL }));
        CHECK(G, "deny: others pass", cmd_allowed(&sp, (const char *const[]){ "git", "push", "origin", NULL }) &&
                                              cmd_allowed(&sp, (const char *const[]){ "ls", "-l", NULL }));
        CHECK(G, "deny: a program piped into a shell could be a denied command",
              !cmd_allowed(&sp, (const char *const[]){ "sh", "-c", "echo dd | sh", NULL }) &&
                  !cmd_allowed(&sp, (const char *const[]){ "sh", "-c", "curl -s x | sh", NULL }) &&
                  cmd_allowed(&sp, (const char *const[]){ "sh", "-c", "echo x | grep x", NULL }));
        sbx_site_done(&sp);
}

/* A ceiling's bounds are its limit's (options.h): read from the option table here, so
 * that a bound changed in one place and not the other fails.  Each ceiling takes the
 * table's edge values and refuses one step beyond, under limits: and in an allow rule. */
/* A policy whose limits: (or, @in_rule, whose one rule) sets @key to @value@unit. */
static void policy_with(char *text, size_t size, bool in_rule, const char *key, uint64_t value, const char *unit)
{
        if (in_rule)
                snprintf(text, size, "allow:\n  - users: [root]\n    profiles: [workspace]\n    %s: %llu%s\n", key, (unsigned long long)value, unit);
        else
                snprintf(text, size, "limits:\n  %s: %llu%s\n", key, (unsigned long long)value, unit);
}

static void ceiling_edge(const char *key, const char *limit, bool at_max, bool in_rules, const char *scale_text, uint64_t div)
{
        const struct sbx_option *o = sbx_option_by_limit(limit);
        uint64_t edge = o ? (at_max ? o->bounds.max : o->bounds.min) / div : 0;
        uint64_t beyond = at_max ? edge + 1 : edge - 1;
        struct sbx_site_policy sp;
        char text[256], got[512], name[128];

        if (!o) {
                CHECK(G, "ceiling bounds: the limit is a row of the table", false);
                return;
        }
        for (int in_rule = 0; in_rule < (in_rules ? 2 : 1); in_rule++) {
                policy_with(text, sizeof(text), in_rule, key, edge, scale_text);
                snprintf(name, sizeof(name), "%s%s takes its limit's %s, %llu%s", in_rule ? "rule " : "limits.", key,
                         at_max ? "maximum" : "minimum", (unsigned long long)edge, scale_text);
                CHECK(G, name, parse(text, &sp, got, sizeof(got)) == 0);
                sbx_site_done(&sp);
                policy_with(text, sizeof(text), in_rule, key, beyond, scale_text);
                snprintf(name, sizeof(name), "%s%s refuses %llu%s, beyond its limit's bounds", in_rule ? "rule " : "limits.",
                         key, (unsigned long long)beyond, scale_text);
                CHECK(G, name, parse(text, &sp, got, sizeof(got)) < 0 && strstr(got, key));
                sbx_site_done(&sp);
        }
}

static void test_ceiling_bounds(void)
{
        ceiling_edge("max_pids", "pids", true, false, "", 1);
        ceiling_edge("max_time", "time", true, true, "ms", 1);
        ceiling_edge("max_memory", "memory", false, true, "", 1);
}

/* min_tier: the site's floor under every profile's (lib/tier.h); absent, none. */
static void test_min_tier(void)
{
        struct sbx_site_policy sp;
        char got[1024];

        CHECK(G, "min_tier: absent, no floor of the site's", parse("allow: []\n", &sp, got, sizeof(got)) == 0 &&
                                                                   sp.min_tier == SBX_TIER_REFUSE && sp.min_tier_line == 0);
        sbx_site_done(&sp);
        CHECK(G, "min_tier: full", parse("allow: []\nmin_tier: full\n", &sp, got, sizeof(got)) == 0 &&
                                            sp.min_tier == SBX_TIER_FULL && sp.min_tier_line == 2);
        sbx_site_done(&sp);
        CHECK(G, "min_tier: container-userns", parse("min_tier: container-userns\n", &sp, got, sizeof(got)) == 0 &&
                                                        sp.min_tier == SBX_TIER_CONTAINER_USERNS && sp.min_tier_line == 1);
        sbx_site_done(&sp);
        parse("allow: []\nmin_tier: landlock-seccomp\n", &sp, got, sizeof(got));
        CHECK(G, "min_tier: an unknown tier is a load error naming file:line and the allowed values",
              strcmp(got, "policy.yaml:2:11: 'min_tier': 'landlock-seccomp' is not one of: full, container-userns, landlock") == 0 &&
                      is_empty_policy(&sp));
        sbx_site_done(&sp);
        parse("min_tier: refuse\n", &sp, got, sizeof(got));
        CHECK(G, "min_tier: refuse is no tier to set a floor at", strcmp(got, "policy.yaml:1:11: 'min_tier': 'refuse' is not one of: full, container-userns, landlock") == 0);
        sbx_site_done(&sp);
        parse("min_tier: [full]\n", &sp, got, sizeof(got));
        CHECK(G, "min_tier: a list is refused", strncmp(got, "policy.yaml:1:", 14) == 0 && strstr(got, "min_tier") != NULL);
        sbx_site_done(&sp);
}

/* limits.without_cgroup: absent, refuse; rlimit; anything else a load error. */
static void test_without_cgroup(void)
{
        struct sbx_site_policy sp;
        char got[1024];

        CHECK(G, "without_cgroup: absent, refuse", parse("allow: []\n", &sp, got, sizeof(got)) == 0 &&
                                                         sp.without_cgroup == SBX_WITHOUT_CGROUP_REFUSE);
        sbx_site_done(&sp);
        CHECK(G, "without_cgroup: refuse", parse("limits:\n  without_cgroup: refuse\n", &sp, got, sizeof(got)) == 0 &&
                                                 sp.without_cgroup == SBX_WITHOUT_CGROUP_REFUSE);
        sbx_site_done(&sp);
        CHECK(G, "without_cgroup: rlimit", parse("limits:\n  without_cgroup: rlimit\n", &sp, got, sizeof(got)) == 0 &&
                                                 sp.without_cgroup == SBX_WITHOUT_CGROUP_RLIMIT);
        sbx_site_done(&sp);
        parse("limits:\n  without_cgroup: none\n", &sp, got, sizeof(got));
        CHECK(G, "without_cgroup: another value is a load error naming file:line and the values",
              strcmp(got, "policy.yaml:2:19: 'limits.without_cgroup': 'none' is not one of: refuse, rlimit") == 0 &&
                      is_empty_policy(&sp));
        sbx_site_done(&sp);
}

int main(void)
{
        test_without_cgroup();
        test_min_tier();
        test_defaults();
        test_everything();
        test_flow_and_shares();
        test_shipped();
        test_load_errors();
        test_parse_failure_is_empty();
        test_names();
        test_any_rule_and_tightest();
        test_deny_profiles_and_star();
        test_deny_commands();
        test_network();
        test_good_corpus();
        test_bad_corpus();
        test_ceiling_bounds();
        return unit_failed ? 1 : 0;
}
