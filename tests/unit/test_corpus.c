/* SPDX-License-Identifier: MIT */
/* The command policy measured both ways, on two corpora: commands agents really run,
 * which must be allowed (under the shipped git profile, a site policy that denies some
 * commands, and, for the lines marked "@strict", the shipped strict profile), and attack
 * forms, each of which runs a denied command (nc, dd) in a way a naive checker misses,
 * which must be denied under strict and under that site policy.  Prints the counts, and
 * every line that goes the wrong way with its verdict. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmdpolicy/commands.h"
#include "../../policy/profile.h"
#include "../../policy/site.h"
#include "unit.h"

#define G "unit-corpus"

static const struct sbx_vars vars = {
        .workspace = "/work/ws",
        .home = "/home/u",
        .tmp = "/tmp",
        .uid = 1000,
};

/* The site policy of the attack corpus, through the site policy's own parser. */
static const char site_yaml[] = "allow:\n"
                                "  - users: [root]\n"
                                "    profiles: [\"*\"]\n"
                                "deny:\n"
                                "  commands: [nc, ncat, dd, \"mkfs*\"]\n";

/* The corpus directory, from the top of the tree or from build/tests. */
static FILE *open_corpus(const char *name)
{
        static const char *const dirs[] = { "tests/unit/corpus", "../../tests/unit/corpus", NULL };
        char path[512];
        FILE *f = NULL;

        for (size_t i = 0; dirs[i] && !f; i++) {
                snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
                f = fopen(path, "re");
        }
        return f;
}

/* A corpus line as a shell string: "nl: " lines have "\n" made newlines. */
static void decode(char *line)
{
        char *r, *w;

        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "nl: ", 4) != 0)
                return;
        for (r = line + 4, w = line; *r; r++, w++) {
                if (r[0] == '\\' && r[1] == 'n') {
                        *w = '\n';
                        r++;
                } else {
                        *w = *r;
                }
        }
        *w = '\0';
}

static bool allowed(const struct sbx_cmd_policy *p, const char *script, struct sbx_verdict *v)
{
        char *argv[] = { "bash", "-c", (char *)script, NULL };

        return sbx_cmd_check(p, argv, v) == 0 && v->allow;
}

struct tally {
        unsigned lines, ok;
};

static void benign(const struct sbx_cmd_policy *git, const struct sbx_cmd_policy *site, const struct sbx_cmd_policy *strict,
                   struct tally *all, struct tally *str)
{
        FILE *f = open_corpus("commands-benign.txt");
        char line[8192];

        if (!f) {
                CHECK(G, "benign corpus readable", false);
                return;
        }
        while (fgets(line, sizeof(line), f)) {
                bool strict_too = strncmp(line, "@strict ", 8) == 0;
                char *s = line + (strict_too ? 8 : 0);
                struct sbx_verdict v;
                bool ok = true;

                decode(s);
                if (!s[0] || s[0] == '#')
                        continue;
                all->lines++;
                if (!allowed(git, s, &v) || !allowed(site, s, &v)) {
                        printf("    benign denied: %s\n        %s\n", s, v.reason);
                        ok = false;
                }
                all->ok += ok;
                if (!strict_too)
                        continue;
                str->lines++;
                if (allowed(strict, s, &v))
                        str->ok++;
                else
                        printf("    benign denied under strict: %s\n        %s\n", s, v.reason);
        }
        fclose(f);
}

static void attacks(const struct sbx_cmd_policy *strict, const struct sbx_cmd_policy *site, struct tally *t)
{
        FILE *f = open_corpus("commands-attack.txt");
        char line[8192];

        if (!f) {
                CHECK(G, "attack corpus readable", false);
                return;
        }
        while (fgets(line, sizeof(line), f)) {
                struct sbx_verdict v;
                bool bad = false;

                decode(line);
                if (!line[0] || line[0] == '#')
                        continue;
                t->lines++;
                if (allowed(strict, line, &v)) {
                        printf("    attack allowed under strict: %s\n        %s\n", line, v.reason);
                        bad = true;
                }
                if (allowed(site, line, &v)) {
                        printf("    attack allowed by the site policy: %s\n        %s\n", line, v.reason);
                        bad = true;
                }
                t->ok += !bad;
        }
        fclose(f);
}

static bool load(const char *path, struct sbx_profile *pr)
{
        struct sbx_diag d = { 0 };

        sbx_profile_init(pr);
        if (sbx_profile_load(path, &vars, pr, &d) == 0)
                return true;
        printf("    loading %s: %s\n", path, d.msg);
        return false;
}

int main(void)
{
        struct sbx_profile strict, git;
        struct sbx_site_policy sp;
        struct sbx_diag d = { 0 };
        struct tally all = { 0 }, str = { 0 }, att = { 0 };
        char name[128];
        bool loaded;

        loaded = load("profiles/strict.yaml", &strict) && load("profiles/git.yaml", &git) &&
                 sbx_site_parse("corpus-site.yaml", site_yaml, sizeof(site_yaml) - 1, &sp, &d) == 0;
        CHECK(G, "shipped profiles and the site policy load", loaded);
        if (!loaded)
                return 1;
        /* what sbx_profile_resolve() gives the rm rules: the jail's HOME and workdir */
        strict.commands.home = git.commands.home = "/tmp";
        strict.commands.cwd = git.commands.cwd = sp.deny.cwd = vars.workspace;
        benign(&git.commands, &sp.deny, &strict.commands, &all, &str);
        attacks(&strict.commands, &sp.deny, &att);
        printf("benign: %u/%u allowed (git profile and site policy), %u/%u under strict; attacks: %u/%u denied "
               "(strict and site policy)\n",
               all.ok, all.lines, str.ok, str.lines, att.ok, att.lines);
        snprintf(name, sizeof(name), "benign corpus allowed (%u/%u)", all.ok, all.lines);
        CHECK(G, name, all.lines >= 300 && all.ok == all.lines);
        snprintf(name, sizeof(name), "benign corpus allowed under strict (%u/%u)", str.ok, str.lines);
        CHECK(G, name, str.lines >= 100 && str.ok == str.lines);
        snprintf(name, sizeof(name), "attack corpus denied (%u/%u)", att.ok, att.lines);
        CHECK(G, name, att.lines >= 300 && att.ok == att.lines);
        sbx_profile_done(&strict);
        sbx_profile_done(&git);
        sbx_site_done(&sp);
        return unit_failed ? 1 : 0;
}
