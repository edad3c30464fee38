/* SPDX-License-Identifier: MIT */
/* The caller's git identity for filesystem.git's commit mode (git.h): the jail's HOME is
 * not the caller's, so git inside would not know who commits.  Only user.name and
 * user.email are taken from the caller's global configuration, never the rest of it
 * (credentials, http.extraheader, includes, aliases, core.pager and sshCommand are
 * commands or secrets), and they reach the jail as GIT_AUTHOR_* and GIT_COMMITTER_*. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "git-int.h"
#include "gitfmt.h"
#include "profile.h"

#define IDENT_CONFIG_MAX (1u << 20) /* bytes of one config file read */
#define IDENT_MAX 256               /* bytes of a name or an e-mail address */

extern char **environ;

struct ident {
        char name[IDENT_MAX + 1], email[IDENT_MAX + 1];
};

/* A value git would write into a commit header as given: no control character (a
 * newline would start a header of its own), no '<' or '>', bounded. */
static bool ident_ok(const char *v)
{
        size_t n = v ? strlen(v) : 0;

        if (n == 0 || n > IDENT_MAX)
                return false;
        for (; *v; v++)
                if ((unsigned char)*v < 0x20 || *v == 0x7f || *v == '<' || *v == '>')
                        return false;
        return true;
}

static int on_var(const char *name, const char *value, void *userdata)
{
        struct ident *id = userdata;
        char *to = strcmp(name, "user.name") == 0 ? id->name : strcmp(name, "user.email") == 0 ? id->email : NULL;

        if (to && ident_ok(value))
                snprintf(to, IDENT_MAX + 1, "%s", value); /* the last one wins, as in git */
        return 0;
}

/* One file's user.name and user.email onto @id; a file that is missing, not a regular
 * file (lib/path.h's rules: no symlink followed), larger than the bound or not git's
 * syntax adds nothing. */
static void read_ident(struct sbx_caller *caller, const char *path, struct ident *id)
{
        _cleanup_free_ char *text = NULL;
        struct sbx_error ignored = { 0 };
        struct ident got = *id;
        char why[128];
        size_t len;

        if (sbx_git_read(caller, path, IDENT_CONFIG_MAX, &text, &len, &ignored) < 0)
                return;
        if (sbx_git_config_scan(text, len, on_var, &got, why, sizeof(why)) == 0)
                *id = got;
}

static const char *env_of(char *const *env, const char *name)
{
        size_t n = strlen(name);

        for (env = env ? env : environ; env && *env; env++)
                if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
                        return *env + n + 1;
        return NULL;
}

int sbx_git_identity(struct sbx_profile *pr, const struct sbx_vars *vars, struct sbx_caller *caller, struct sbx_error *e)
{
        static const char *const vars_name[] = { "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME" };
        static const char *const vars_email[] = { "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL" };
        const char *xdg = env_of(vars->env, "XDG_CONFIG_HOME");
        struct ident id = { 0 };
        char path[PATH_MAX];
        int r;

        if (pr->git != SBX_GIT_COMMIT)
                return 0;
        /* git's order: the XDG file, then ~/.gitconfig, a later value winning. */
        if (xdg && xdg[0] == '/')
                r = snprintf(path, sizeof(path), "%s/git/config", xdg);
        else
                r = snprintf(path, sizeof(path), "%s/.config/git/config", vars->home);
        if (r > 0 && (size_t)r < sizeof(path))
                read_ident(caller, path, &id);
        r = snprintf(path, sizeof(path), "%s/.gitconfig", vars->home);
        if (r > 0 && (size_t)r < sizeof(path))
                read_ident(caller, path, &id);
        /* What the profile, the caller's environment (environment.pass) or --env set
         * stays. */
        for (size_t i = 0; i < 2; i++) {
                if (id.name[0] && !sbx_plan_get_env(&pr->plan, vars_name[i]) &&
                    (r = sbx_plan_set_env(&pr->plan, vars_name[i], id.name, e)) < 0)
                        return r;
                if (id.email[0] && !sbx_plan_get_env(&pr->plan, vars_email[i]) &&
                    (r = sbx_plan_set_env(&pr->plan, vars_email[i], id.email, e)) < 0)
                        return r;
        }
        return 0;
}
