/* SPDX-License-Identifier: MIT */
/* Profiles: YAML files that fill the same struct sbx_plan the command line fills, plus
 * what only the launcher needs (the command policy, seccomp additions).  Loaded from a
 * key table (schema.c), layered through `extends:` (load.c), narrowed by the command line
 * (resolve.c).  See sbx-profile(5) for every key. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "../lib/plan.h"
#include "../lib/strv.h"
#include "../cmdpolicy/commands.h"
#include "git.h"
#include "validator.h"
#include "yaml.h"

/* What the paths of a profile may say: {workspace}, {workspace_id}, {home}, {uid}, {tmp}. */
struct sbx_vars {
        char workspace[4096]; /* canonical host path */
        char workspace_id[17]; /* 16 hex digits of the SHA-256 of the workspace path */
        char home[4096];
        char tmp[4096];
        unsigned uid;
        char *const *env; /* the caller's environment, for environment.pass; NULL: ours */
};

struct sbx_profile {
        struct sbx_plan plan;          /* what the jail will be */
        struct sbx_cmd_policy commands;
        char *description;
        bool system;                   /* the built-in read-only system view */
        int git;                       /* enum sbx_git_mode: filesystem.git */
        struct sbx_git gitstate;       /* what filesystem.git did for this run (git.h) */
        struct sbx_strv env_pass;      /* names (or NAME* prefixes) taken from the caller */
        struct sbx_strv seccomp_allow; /* taken off the default deny list */
        struct sbx_strv seccomp_deny;  /* added to it */
        int seccomp_action;            /* 0: additions fail with EPERM; 1: they kill */
        int mdwe;                      /* memory_deny_write_execute: 1, 0, or -1 when no layer
                                        * set it (then: on in allowlist mode) */
        uint64_t audit_argv_max;       /* bytes of argv an audit record keeps */
        int min_tier;                  /* enum sbx_tier (lib/tier.h): the weakest isolation tier
                                        * this profile accepts; full unless it says otherwise */
        struct sbx_validator_conf validator; /* `validator:`, asked about every command */
        /* Keys no profile that extends this one may change, and the profile that said so. */
        struct sbx_strv final, final_from;
        /* Set while loading a layer: the keys it set, for `final` checks. */
        struct sbx_strv chain;         /* names of the profiles layered, base first */
};

void sbx_profile_init(struct sbx_profile *pr);
void sbx_profile_done(struct sbx_profile *pr);

/* One layer: applies the keys of @root (a parsed document) onto @pr.  @extends gets the
 * name of the profile this one extends (or NULL).  schema.c. */
int sbx_profile_apply(struct sbx_profile *pr, const char *file, const struct sbx_node *root,
                      const struct sbx_vars *vars, char **extends, struct sbx_diag *d);

/* Finds, loads and layers profile @name_or_path (with its `extends:` chain) onto a fresh
 * @pr.  A name is looked up in /etc/sbx/profiles, then the shipped directory, then the
 * copies built into sbx; a name with a '/' is a path.  load.c. */
int sbx_profile_load(const char *name_or_path, const struct sbx_vars *vars, struct sbx_profile *pr,
                     struct sbx_diag *d);

/* sandboxd's snapshot of every profile on the search path, read once per (re)load so
 * that launches never see a half-edited file; loads from it never touch the disk. */
struct sbx_profile_entry {
        char *name;   /* file name without .yaml */
        char *origin; /* canonical path, or "built-in:NAME" */
        char *text;
        size_t len;
};
struct sbx_profile_store {
        struct sbx_profile_entry *v; /* in search order: /etc, shipped, built-in */
        size_t n;
};
/* Reads the search path into @st and loads every profile in it once: any error is the
 * store's (a reload keeps the old one). */
int sbx_profile_store_read(struct sbx_profile_store *st, struct sbx_diag *d);
void sbx_profile_store_done(struct sbx_profile_store *st);
/* sbx_profile_load() from @st: @name must be a profile name (never a path), and every
 * `extends:` must name a profile of the store. */
int sbx_profile_load_stored(const struct sbx_profile_store *st, const char *name, const struct sbx_vars *vars,
                            struct sbx_profile *pr, struct sbx_diag *d);
bool sbx_is_profile_name(const char *s);

/* Lists the profiles the search path offers, one per name, with where it comes from and
 * its description. */
int sbx_profile_list(FILE *out);

/* The default {home}, {tmp}, {uid} of the caller and the canonical @workspace. */
int sbx_vars_init(struct sbx_vars *v, const char *workspace, struct sbx_diag *d);
/* sandboxd's: @uid's home, /tmp, and @workspace already canonical. */
int sbx_vars_init_for(struct sbx_vars *v, uid_t uid, const char *workspace, char *const *env, struct sbx_diag *d);

/* The built-in copies of the shipped profiles (generated at build time). */
struct sbx_builtin_profile {
        const char *name;
        const char *text;
};
extern const struct sbx_builtin_profile sbx_builtin_profiles[];
extern const size_t sbx_builtin_profiles_count;
