/* SPDX-License-Identifier: MIT */
/* The site policy: its schema as key tables walked by schema-walk.c (so it is exactly
 * as strict as a profile and its errors read the same), the user and group names
 * resolved once at load, and the admission decision sandboxd asks for each request.
 * Everything the decision needs is in struct sbx_site_policy: sbx_site_admit() makes no
 * lookup and no allocation, so a slow or broken NSS cannot stall or sway a request. */
#include "site.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/parse.h"
#include "../lib/tier.h"
#include "options.h"
#include "profile.h"
#include "schema-int.h"

/* Users and groups share one list type: both are unsigned int on Linux. */
_Static_assert(sizeof(uid_t) == sizeof(unsigned) && sizeof(gid_t) == sizeof(unsigned), "ids are unsigned int");

#define OFF(field) offsetof(struct sbx_site_policy, field)
#define RULE(field) offsetof(struct sbx_site_rule, field)

/* The policy being filled; c->base moves into a rule while its keys are walked. */
static struct sbx_site_policy *policy_of(const struct sbx_walk *c)
{
        return c->data;
}

/* ------------------------------------------------------------------ names */

static bool is_number(const char *s)
{
        return *s && strspn(s, "0123456789") == strlen(s);
}

/* What useradd and systemd accept, give or take: no leading '-' (an option to
 * whatever reads it next), no '/', ':' or white space, not all digits (a uid). */
static bool is_account_name(const char *s)
{
        size_t n = strlen(s);

        if (n == 0 || n > 255 || s[0] == '-' || s[0] == '.' || is_number(s))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
                      s[i] == '_' || s[i] == '-' || s[i] == '.' || (s[i] == '$' && i == n - 1)))
                        return false;
        return true;
}

/* The uid of user @name, or the gid of group @name: 0, -ENOENT, or another -errno. */
static int lookup(bool group, const char *name, unsigned *id)
{
        _cleanup_free_ char *buf = NULL;

        for (size_t size = 4096; size <= 1u << 20; size *= 2) {
                struct passwd pw, *pwr = NULL;
                struct group gr, *grr = NULL;
                char *bigger = realloc(buf, size);
                bool found;
                int r;

                if (!bigger)
                        return -ENOMEM;
                buf = bigger;
                r = group ? getgrnam_r(name, &gr, buf, size, &grr) : getpwnam_r(name, &pw, buf, size, &pwr);
                if (r == ERANGE)
                        continue;
                /* Not found is 0 and no entry, or one of the errnos glibc's modules use. */
                found = group ? grr != NULL : pwr != NULL;
                if (r == ENOENT || r == ESRCH || (r == 0 && !found))
                        return -ENOENT;
                if (r != 0)
                        return -r;
                *id = group ? grr->gr_gid : pwr->pw_uid;
                return 0;
        }
        return -ERANGE;
}

/* A user or group item: a numeric id as is, a name resolved now.  An unknown name is
 * an error rather than a rule that silently admits no one. */
static int item_id(struct sbx_walk *c, const struct sbx_node *it, bool group, unsigned *ret)
{
        const char *what = group ? "group" : "user", *idname = group ? "gid" : "uid";
        uint64_t n;
        int r;

        if (is_number(it->value)) {
                /* (uid_t)-1 means "no change" to setresuid(): never a caller. */
                if (sbx_parse_u64(it->value, &n) < 0 || n >= UINT32_MAX)
                        return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is out of range for a %s (0 to 4294967294)", c->path,
                                           it->value, idname);
                *ret = (unsigned)n;
                return 0;
        }
        if (!is_account_name(it->value))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is neither a %s name nor a %s", c->path, it->value, what,
                                   idname);
        r = lookup(group, it->value, ret);
        if (r == -ENOENT)
                return sbx_diag_at(c->d, c->file, it, "'%s': no %s '%s' on this system", c->path, what, it->value);
        if (r == -ENOMEM)
                return sbx_walk_oom(c, it);
        if (r < 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': cannot look up %s '%s': %s", c->path, what, it->value,
                                   strerror(-r));
        return 0;
}

static int push_id(struct sbx_walk *c, const struct sbx_node *at, unsigned **v, size_t *n, unsigned id)
{
        unsigned *bigger = reallocarray(*v, *n + 1, sizeof(**v));

        if (!bigger)
                return sbx_walk_oom(c, at);
        *v = bigger;
        (*v)[(*n)++] = id;
        return 0;
}

/* The first name a uid was written as, for reasons. */
static int remember_name(struct sbx_walk *c, const struct sbx_node *at, uid_t uid, const char *name)
{
        struct sbx_site_policy *sp = policy_of(c);
        struct sbx_site_name *bigger;

        for (size_t i = 0; i < sp->n_names; i++)
                if (sp->names[i].uid == uid)
                        return 0;
        bigger = reallocarray(sp->names, sp->n_names + 1, sizeof(*sp->names));
        if (!bigger)
                return sbx_walk_oom(c, at);
        sp->names = bigger;
        sp->names[sp->n_names] = (struct sbx_site_name){ .uid = uid, .name = strdup(name) };
        if (!sp->names[sp->n_names].name)
                return sbx_walk_oom(c, at);
        sp->n_names++;
        return 0;
}

static int item_user(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        struct sbx_site_rule *rule = c->base;
        unsigned uid = (unsigned)-1; /* set by item_id unless it fails */
        int r;

        (void)k;
        if ((r = item_id(c, it, false, &uid)) < 0 || (r = push_id(c, it, &rule->uids, &rule->n_uids, uid)) < 0)
                return r;
        return is_number(it->value) ? 0 : remember_name(c, it, uid, it->value);
}

static int item_group(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        struct sbx_site_rule *rule = c->base;
        unsigned gid = (unsigned)-1;
        int r;

        (void)k;
        if ((r = item_id(c, it, true, &gid)) < 0)
                return r;
        return push_id(c, it, &rule->gids, &rule->n_gids, gid);
}

SBX_KEY_LIST(parse_users, item_user)

/* validator.user: a name or a uid with an entry in the user database (its primary
 * group is the validator's gid), and never root's uid or gid: the validator reads
 * what the command says, written by whoever calls, and must not hold root's rights. */
static int parse_validator_user(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_site_policy *sp = policy_of(c);
        _cleanup_free_ char *buf = NULL;
        struct passwd pw, *pwr = NULL;
        unsigned uid = (unsigned)-1;
        size_t size = 1u << 16;
        int r;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if ((r = item_id(c, v, false, &uid)) < 0)
                return r;
        if (!(buf = malloc(size)))
                return sbx_walk_oom(c, v);
        r = getpwuid_r(uid, &pw, buf, size, &pwr);
        if (r != 0 || !pwr)
                return sbx_diag_at(c->d, c->file, v, "'%s': uid %u has no entry in the user database%s%s; name a system user made for the validator",
                                   c->path, uid, r ? ": " : "", r ? strerror(r) : "");
        if (pwr->pw_uid == 0 || pwr->pw_gid == 0)
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is root (uid %u, gid %u): the validator never runs as root; name an unprivileged system user",
                                   c->path, v->value, (unsigned)pwr->pw_uid, (unsigned)pwr->pw_gid);
        sp->validator_uid = pwr->pw_uid;
        sp->validator_gid = pwr->pw_gid;
        return 0;
}
SBX_KEY_LIST(parse_groups, item_group)

/* ------------------------------------------------------------------ profiles */

static int item_profile(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        if (strcmp(it->value, "*") != 0 && !sbx_is_profile_name(it->value))
                return sbx_diag_at(c->d, c->file, it,
                                   "'%s': '%s' is not a profile name (letters, digits, '-', '_', '.'), nor \"*\" for any", c->path,
                                   it->value);
        return sbx_walk_push_unique(c, SBX_KEY_AT(c, k, struct sbx_strv), it->value, it);
}

/* An empty list here would be a rule that admits nothing: a mistake, said as one. */
static int parse_profiles(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (v->type == SBX_NODE_SEQ && v->n == 0)
                return sbx_diag_at(c->d, c->file, v, "'%s' is empty: list the profiles this rule admits, or \"*\" for any",
                                   c->path);
        return sbx_walk_each_item(c, k, v, item_profile);
}

/* deny.profiles, each with its line, so that a refusal can point at it. */
static int item_deny_profile(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        struct sbx_site_policy *sp = policy_of(c);
        unsigned *lines;

        (void)k;
        if (strcmp(it->value, "*") == 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': name the profiles nobody may use; \"*\" is not one", c->path);
        if (!sbx_is_profile_name(it->value))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a profile name (letters, digits, '-', '_', '.')",
                                   c->path, it->value);
        if (sbx_strv_contains(&sp->deny_profiles, it->value))
                return 0;
        /* The line first: a strv push that then fails leaves a spare slot, not a gap. */
        lines = reallocarray(sp->deny_profiles_lines, sp->deny_profiles.n + 1, sizeof(*lines));
        if (!lines)
                return sbx_walk_oom(c, it);
        sp->deny_profiles_lines = lines;
        lines[sp->deny_profiles.n] = it->line;
        return sbx_strv_push(&sp->deny_profiles, it->value) < 0 ? sbx_walk_oom(c, it) : 0;
}
SBX_KEY_LIST(parse_deny_profiles, item_deny_profile)

/* ------------------------------------------------------------------ tables */

static const struct sbx_bounds b_sandboxes = { 1, 4096 };
/* The ceilings' bounds are the limits' own (options.h). */
static const struct sbx_bounds b_time = SBX_BOUNDS_TIMEOUT_MS;
static const struct sbx_bounds b_memory = SBX_BOUNDS_MEMORY;
static const struct sbx_bounds b_pids = SBX_BOUNDS_PIDS;
static const struct sbx_bounds b_grace = { 0, 5ull * 60 * 1000 };

/* What a value looks like; read after "e.g." and after "is out of range;" alike. */
#define DOC_SANDBOXES "8 (from 1 to 4096)"
#define DOC_TIME "30m or 1h (from 1ms to 365 days)"
#define DOC_MEMORY "4G, or 50% of RAM (at least 1M)"

static const struct sbx_key rule_keys[] = {
        { "users", parse_users, 0, NULL, "[alice, 1001]" },
        { "groups", parse_groups, 0, NULL, "[agents, 2000]" },
        { "profiles", parse_profiles, RULE(profiles), NULL, "[workspace, build], or [\"*\"] for any" },
        { "max_sandboxes", sbx_key_count, RULE(max_sandboxes), &b_sandboxes, DOC_SANDBOXES },
        { "max_time", sbx_key_duration, RULE(max_time_ms), &b_time, DOC_TIME },
        { "max_memory", sbx_key_memory, RULE(max_memory), &b_memory, DOC_MEMORY },
        {},
};

static const struct sbx_key deny_keys[] = {
        { "commands", sbx_key_names, OFF(deny.deny), NULL, "[dd, \"mkfs*\"]" },
        { "patterns", sbx_key_regexes, OFF(deny.deny_patterns), NULL, "[\"git +push +.*--force\"]" },
        { "profiles", parse_deny_profiles, 0, NULL, "[network]" },
        {},
};

static const char *const without_cgroup_names[] = { "refuse", "rlimit", NULL };

static const struct sbx_key limits_keys[] = {
        { "max_sandboxes", sbx_key_count, OFF(max_sandboxes), &b_sandboxes, "64 (from 1 to 4096)" },
        { "max_sandboxes_per_user", sbx_key_count, OFF(max_per_user), &b_sandboxes, DOC_SANDBOXES },
        { "max_time", sbx_key_duration, OFF(max_time_ms), &b_time, DOC_TIME },
        { "max_memory", sbx_key_memory, OFF(max_memory), &b_memory, DOC_MEMORY },
        { "max_pids", sbx_key_count, OFF(max_pids), &b_pids, "4096 (from 1 to " SBX_STR(SBX_PIDS_MAX) ")" },
        { "grace", sbx_key_duration, OFF(grace_ms), &b_grace, "10s (from 0 to 5m)" },
        { "without_cgroup", sbx_key_enum, OFF(without_cgroup), without_cgroup_names, "refuse, rlimit" },
        {},
};

static int parse_rules(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);

static const struct sbx_bounds b_validator_timeout = { 100, 30000 };

static const struct sbx_key validator_keys[] = {
        { "command", sbx_key_command, OFF(validator.command), NULL, "[/usr/libexec/sbx-check, --strict]" },
        { "timeout", sbx_key_duration, OFF(validator.timeout_ms), &b_validator_timeout, "5s (from 100ms to 30s)" },
        { "user", parse_validator_user, 0, NULL, "sbx-validator (an unprivileged system user, never root)" },
        {},
};

/* A command and a user, or neither: a validator with no user to run as would fall
 * back on someone, and a user with no command is a validator forgotten. */
static int parse_validator(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_site_policy *sp = policy_of(c);
        int r;

        sp->validator_uid = (uid_t)-1;
        if ((r = sbx_key_section(c, k, v)) < 0)
                return r;
        if (!sp->validator.command.n)
                return sbx_diag_at(c->d, c->file, v, "'%s' needs 'command': the program to ask, e.g. [/usr/libexec/sbx-check]", c->path);
        if (sp->validator_uid == (uid_t)-1)
                return sbx_diag_at(c->d, c->file, v, "'%s' needs 'user': the unprivileged user the validator runs as (never root, never the caller)",
                                   c->path);
        return 0;
}

static const enum sbx_netrule_kind rule_allow = SBX_NETRULE_ALLOW, rule_deny = SBX_NETRULE_DENY;

static const struct sbx_key network_keys[] = {
        { "allow", sbx_key_netrules, OFF(net), &rule_allow, "[registry.npmjs.org, \"*.pypi.org\"]" },
        { "deny", sbx_key_netrules, OFF(net), &rule_deny, "[\"*:25\", 10.0.0.0/8]" },
        {},
};

/* The site's floor under every profile's min_tier (lib/tier.h); "refuse" is no tier. */
static int parse_min_tier(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_site_policy *sp = policy_of(c);
        int r = sbx_walk_tier(c, k, v, &sp->min_tier);

        if (r == 0)
                sp->min_tier_line = v->line;
        return r;
}

static const struct sbx_key top_keys[] = {
        { "allow", parse_rules, 0, NULL, "[{ users: [alice], profiles: [workspace] }]" },
        { "deny", sbx_key_section, 0, deny_keys, NULL },
        { "limits", sbx_key_section, 0, limits_keys, NULL },
        { "validator", parse_validator, 0, validator_keys, NULL },
        { "network", sbx_key_section, 0, network_keys, NULL },
        { "min_tier", parse_min_tier, 0, NULL, "full, container-userns, landlock" },
        {},
};

/* ------------------------------------------------------------------ rules */

/* A rule must say whom it admits and to what: without either it would admit no one,
 * which is never what its author meant. */
static int check_rule(struct sbx_walk *c, const struct sbx_site_rule *rule, const struct sbx_node *at)
{
        if (!rule->profiles.n)
                return sbx_diag_at(c->d, c->file, at, "'%s' needs 'profiles': the profiles it admits, e.g. [workspace] or [\"*\"]",
                                   c->path);
        if (!rule->n_uids && !rule->n_gids)
                return sbx_diag_at(c->d, c->file, at, "'%s' admits no one: it needs 'users' or 'groups', e.g. users: [alice, 1001]",
                                   c->path);
        return 0;
}

/* allow: a list of mappings, each walked with rule_keys into its own struct. */
static int parse_rules(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_site_policy *sp = policy_of(c);
        size_t base = strlen(c->path);

        if (sbx_walk_want(c, v, SBX_NODE_SEQ, k) < 0)
                return -EINVAL;
        for (size_t i = 0; i < v->n; i++) {
                const struct sbx_node *it = v->items[i];
                struct sbx_site_rule *rules;
                int r;

                snprintf(c->path + base, sizeof(c->path) - base, "[%zu]", i);
                if (it->type != SBX_NODE_MAP)
                        return sbx_diag_at(c->d, c->file, it, "'%s' must be a mapping (users, groups, profiles...), not %s",
                                           c->path, sbx_walk_type_name(it));
                rules = reallocarray(sp->rules, sp->n_rules + 1, sizeof(*rules));
                if (!rules)
                        return sbx_walk_oom(c, it);
                sp->rules = rules;
                rules[sp->n_rules] = (struct sbx_site_rule){ .line = it->line };
                c->base = &rules[sp->n_rules++];
                r = sbx_walk(c, rule_keys, it);
                c->base = sp;
                if (r < 0 || (r = check_rule(c, &rules[sp->n_rules - 1], it)) < 0)
                        return r;
        }
        c->path[base] = '\0';
        return 0;
}

/* ------------------------------------------------------------------ loading */

void sbx_site_init(struct sbx_site_policy *sp)
{
        *sp = (struct sbx_site_policy){ .max_sandboxes = 64, .max_per_user = 8, .grace_ms = 5000,
                                        .validator_uid = (uid_t)-1, .validator_gid = (gid_t)-1 };
        sp->deny.mode = SBX_CMD_OFF;
        /* A shell or interpreter reading its program from a pipe could run a denied
         * command: with a deny list, that is denied too. */
        sp->deny.allow_pipe_to_shell = false;
}

void sbx_site_done(struct sbx_site_policy *sp)
{
        for (size_t i = 0; i < sp->n_rules; i++) {
                free(sp->rules[i].uids);
                free(sp->rules[i].gids);
                sbx_strv_free(&sp->rules[i].profiles);
        }
        free(sp->rules);
        for (size_t i = 0; i < sp->n_names; i++)
                free(sp->names[i].name);
        free(sp->names);
        free(sp->origin);
        sbx_cmd_policy_done(&sp->deny);
        sbx_strv_free(&sp->deny_profiles);
        sbx_netrules_free(&sp->net);
        free(sp->deny_profiles_lines);
        sbx_strv_free(&sp->validator.command);
        sbx_site_init(sp);
}

/* yaml.c words its document-level messages for profiles; this document is the site
 * policy.  Only those two messages, whole: others may quote the file's own text. */
static void reword(struct sbx_diag *d)
{
        static const char prefix[] = "a profile is a mapping", suffix[] = "(a profile must be UTF-8 text)";
        size_t n = strlen(d->msg), s = sizeof(suffix) - 1;
        char msg[sizeof(d->msg)];

        if (strncmp(d->msg, prefix, sizeof(prefix) - 1) == 0)
                snprintf(msg, sizeof(msg), "the site policy%s", d->msg + strlen("a profile"));
        else if (n >= s && strcmp(d->msg + n - s, suffix) == 0)
                snprintf(msg, sizeof(msg), "%.*s(the site policy must be UTF-8 text)", (int)(n - s), d->msg);
        else
                return;
        memcpy(d->msg, msg, sizeof(msg));
}

int sbx_site_parse(const char *origin, const char *text, size_t len, struct sbx_site_policy *sp, struct sbx_diag *d)
{
        _cleanup_(sbx_node_freep) struct sbx_node *root = NULL;
        struct sbx_walk c = { .base = sp, .d = d, .data = sp };
        int r;

        sbx_site_init(sp);
        if (!(sp->origin = strdup(origin ? origin : SBX_SITE_POLICY_PATH))) {
                sbx_diag_at(d, origin, NULL, "out of memory");
                return -ENOMEM;
        }
        c.file = sp->origin;
        r = sbx_yaml_parse(sp->origin, text, len, &root, d);
        if (r < 0)
                reword(d);
        else if (root)
                r = sbx_walk(&c, top_keys, root);
        if (r < 0) {
                sbx_site_done(sp);
                return r;
        }
        /* No command rule: no verdict to ask for, rather than a denylist that still
         * refuses what the checker cannot read ("$CMD"). */
        sp->deny.mode = sp->deny.deny.n || sp->deny.deny_patterns.n ? SBX_CMD_DENYLIST : SBX_CMD_OFF;
        return 0;
}

/* Whoever may write the policy decides who runs what, so the daemon (root) reads only
 * a file its owner or root wrote: not one anybody could have written. */
static int check_file(const char *path, int fd, struct sbx_diag *d)
{
        struct stat st;

        if (fstat(fd, &st) < 0) {
                int r = -errno;

                sbx_diag_at(d, path, NULL, "cannot stat: %s", strerror(-r));
                return r;
        }
        if (!S_ISREG(st.st_mode))
                return sbx_diag_at(d, path, NULL, "not a regular file");
        if (st.st_size > SBX_YAML_MAX_BYTES)
                return sbx_diag_at(d, path, NULL, "larger than 1 MiB: not a site policy");
        if (st.st_uid != 0 && st.st_uid != geteuid())
                return sbx_diag_at(d, path, NULL, "owned by uid %u, neither root nor this process: refused", (unsigned)st.st_uid);
        if (st.st_mode & S_IWOTH)
                return sbx_diag_at(d, path, NULL, "writable by anyone (mode %04o): refused; chmod o-w it",
                                   (unsigned)(st.st_mode & 07777));
        return 0;
}

int sbx_site_load(const char *path, struct sbx_site_policy *sp, struct sbx_diag *d)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        int r;

        sbx_site_init(sp);
        /* O_NONBLOCK: a FIFO put there must not hang the daemon in open(); it is refused
         * as not a regular file, on which the flag does nothing. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0 && errno == ENOENT) {
                sbx_diag_at(d, path, NULL, "no site policy at %s", path);
                return -ENOENT;
        }
        if (fd < 0) {
                r = -errno;
                sbx_diag_at(d, path, NULL, "cannot open: %s", strerror(-r));
                return r;
        }
        if ((r = check_file(path, fd, d)) < 0)
                return r;
        /* Up to one byte more than allowed: a file that grew since fstat() is caught. */
        if (!(text = malloc(SBX_YAML_MAX_BYTES + 2))) {
                sbx_diag_at(d, path, NULL, "out of memory");
                return -ENOMEM;
        }
        while (len <= SBX_YAML_MAX_BYTES) {
                ssize_t n = read(fd, text + len, SBX_YAML_MAX_BYTES + 1 - len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        r = -errno;
                        sbx_diag_at(d, path, NULL, "cannot read: %s", strerror(-r));
                        return r;
                }
                if (n == 0)
                        break;
                len += (size_t)n;
        }
        if (len > SBX_YAML_MAX_BYTES)
                return sbx_diag_at(d, path, NULL, "larger than 1 MiB: not a site policy");
        text[len] = '\0';
        return sbx_site_parse(path, text, len, sp, d);
}

/* ------------------------------------------------------------------ admission */

static bool has_id(const unsigned *v, size_t n, unsigned id)
{
        for (size_t i = 0; i < n; i++)
                if (v[i] == id)
                        return true;
        return false;
}

static bool rule_matches(const struct sbx_site_rule *r, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups)
{
        if (has_id(r->uids, r->n_uids, uid) || has_id(r->gids, r->n_gids, gid))
                return true;
        for (size_t i = 0; groups && i < n_groups; i++)
                if (has_id(r->gids, r->n_gids, groups[i]))
                        return true;
        return false;
}

static bool rule_lists(const struct sbx_site_rule *r, const char *profile)
{
        return sbx_strv_contains(&r->profiles, "*") || sbx_strv_contains(&r->profiles, profile);
}

/* The tighter of two limits where 0 is none. */
static uint64_t tighter(uint64_t a, uint64_t b)
{
        return !a ? b : !b ? a : a < b ? a : b;
}

static const char *name_of(const struct sbx_site_policy *sp, uid_t uid)
{
        for (size_t i = 0; i < sp->n_names; i++)
                if (sp->names[i].uid == uid)
                        return sp->names[i].name;
        return NULL;
}

bool sbx_site_admit(const struct sbx_site_policy *sp, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups,
                    const char *profile, struct sbx_site_grant *g, char *why, size_t why_size)
{
        const char *origin = sp->origin ? sp->origin : SBX_SITE_POLICY_PATH, *slash = strrchr(origin, '/'), *name;
        struct sbx_site_grant best = { .max_per_user = sp->max_per_user, .max_time_ms = sp->max_time_ms,
                                       .max_memory = sp->max_memory, .max_pids = sp->max_pids };
        bool matched = false, admitted = false;

        if (!profile) {
                snprintf(why, why_size, "no profile named");
                return false;
        }
        /* deny.profiles first: no rule can lift it. */
        for (size_t i = 0; i < sp->deny_profiles.n; i++)
                if (strcmp(sp->deny_profiles.v[i], profile) == 0) {
                        snprintf(why, why_size, "profile '%s' is denied to everyone by %s:%u (deny.profiles)", profile, origin,
                                 sp->deny_profiles_lines[i]);
                        return false;
                }
        /* Every matching rule that lists the profile tightens what the request gets. */
        for (size_t i = 0; i < sp->n_rules; i++) {
                const struct sbx_site_rule *r = &sp->rules[i];

                if (!rule_matches(r, uid, gid, groups, n_groups))
                        continue;
                matched = true;
                if (!rule_lists(r, profile))
                        continue;
                if (!admitted)
                        snprintf(best.rule, sizeof(best.rule), "%s:%u", slash ? slash + 1 : origin, r->line);
                admitted = true;
                best.max_per_user = tighter(best.max_per_user, r->max_sandboxes);
                best.max_time_ms = tighter(best.max_time_ms, r->max_time_ms);
                best.max_memory = tighter(best.max_memory, r->max_memory);
        }
        if (!matched) {
                snprintf(why, why_size, "no rule of %s admits uid %u: callers not listed are denied", origin, (unsigned)uid);
                return false;
        }
        if (!admitted) {
                name = name_of(sp, uid);
                snprintf(why, why_size, "user %u%s%s%s is not allowed profile '%s' by %s", (unsigned)uid, name ? " (" : "",
                         name ? name : "", name ? ")" : "", profile, origin);
                return false;
        }
        *g = best;
        return true;
}

uint64_t sbx_site_caller_cap(const struct sbx_site_policy *sp, uid_t uid, gid_t gid, const gid_t *groups, size_t n_groups)
{
        uint64_t cap = 0;

        for (size_t i = 0; i < sp->n_rules; i++) {
                const struct sbx_site_rule *r = &sp->rules[i];
                uint64_t c = tighter(sp->max_per_user, r->max_sandboxes);

                if (rule_matches(r, uid, gid, groups, n_groups) && c > cap)
                        cap = c;
        }
        return cap;
}
