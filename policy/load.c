/* SPDX-License-Identifier: MIT */
/* Finding profiles and layering them: the search path, `extends:` chains (cycles and
 * runaway depth refused), and the variables their paths may use. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "../lib/path.h"
#include "../lib/tier.h"
#include <nettle/sha2.h>
#include "profile.h"

#ifndef SBX_PROFILE_DIR
#define SBX_PROFILE_DIR "/usr/local/share/sbx/profiles"
#endif
#define SBX_ETC_PROFILE_DIR "/etc/sbx/profiles"
#define MAX_CHAIN 16

static const char *const search_dirs[] = { SBX_ETC_PROFILE_DIR, SBX_PROFILE_DIR };

/* One profile document, found and read. */
struct source {
        char origin[PATH_MAX]; /* canonical path, or "built-in:NAME" */
        char *text;            /* owned, or the built-in's (then owned == false) */
        size_t len;
        bool owned;
};

static void source_done(struct source *s)
{
        if (s->owned)
                free(s->text);
        *s = (struct source){ 0 };
}

bool sbx_is_profile_name(const char *s)
{
        if (!*s || *s == '.' || strlen(s) > 64)
                return false;
        for (; *s; s++)
                if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
                      *s == '_' || *s == '.'))
                        return false;
        return true;
}

/* @trusted: read for sandboxd, as root, on behalf of every caller: the file must be
 * root's (or ours) and writable by no one else, as the site policy must. */
static int read_path(const char *path, struct source *s, bool trusted, struct sbx_diag *d)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        struct stat st;
        ssize_t n;

        if (fd < 0)
                return errno == ENOENT ? -ENOENT : (sbx_diag_at(d, path, NULL, "cannot open: %s", strerror(errno)), -errno);
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return sbx_diag_at(d, path, NULL, "not a regular file");
        if (st.st_size > SBX_YAML_MAX_BYTES)
                return sbx_diag_at(d, path, NULL, "larger than 1 MiB: not a profile");
        if (trusted && st.st_uid != 0 && st.st_uid != geteuid())
                return sbx_diag_at(d, path, NULL, "owned by uid %u, neither root nor this process: refused",
                                   (unsigned)st.st_uid);
        if (trusted && (st.st_mode & (S_IWGRP | S_IWOTH)))
                return sbx_diag_at(d, path, NULL, "writable by others (mode %04o): refused; chmod go-w it",
                                   (unsigned)(st.st_mode & 07777));
        if (!realpath(path, s->origin))
                snprintf(s->origin, sizeof(s->origin), "%s", path);
        s->text = malloc((size_t)st.st_size + 1);
        if (!s->text)
                return sbx_diag_at(d, path, NULL, "out of memory");
        s->owned = true;
        n = read(fd, s->text, (size_t)st.st_size);
        if (n < 0)
                return sbx_diag_at(d, path, NULL, "cannot read: %s", strerror(errno));
        s->len = (size_t)n;
        s->text[n] = '\0';
        return 0;
}

static bool in_chain(const struct source *chain, size_t n, const char *origin)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(chain[i].origin, origin) == 0)
                        return true;
        return false;
}

static bool is_path(const char *what)
{
        size_t n = strlen(what);

        return strchr(what, '/') || (n > 5 && strcmp(what + n - 5, ".yaml") == 0);
}

/* A path (it has a '/' or ends in .yaml; relative ones against @dir when given), or a
 * name on the search path, or a built-in copy.  A name skips what the chain already
 * holds, so /etc/sbx/profiles/workspace.yaml may extend the shipped workspace. */
/* The store's copy of what @what names: a path (as loaded, canonical) or the first
 * entry of a name that the chain does not hold yet. */
static int find_stored(const struct sbx_profile_store *st, const char *what, const char *dir, const struct source *chain,
                       size_t n, struct source *s, struct sbx_diag *d)
{
        char path[PATH_MAX];
        bool skipped = false;

        if (is_path(what)) {
                int len = what[0] != '/' && dir ? snprintf(path, sizeof(path), "%s/%s", dir, what)
                                                : snprintf(path, sizeof(path), "%s", what);

                for (size_t i = 0; len > 0 && (size_t)len < sizeof(path) && i < st->n; i++)
                        if (strcmp(st->v[i].origin, path) == 0)
                                goto found_path;
                return sbx_diag_at(d, what, NULL, "'%s' is not among the profiles sandboxd loaded", what);
found_path:
                what = path;
        } else if (!sbx_is_profile_name(what)) {
                return sbx_diag_at(d, what, NULL, "not a profile name (letters, digits, '-', '_', '.')");
        }
        for (size_t i = 0; i < st->n; i++) {
                const struct sbx_profile_entry *en = &st->v[i];

                if (strcmp(is_path(what) ? en->origin : en->name, what) != 0)
                        continue;
                if (in_chain(chain, n, en->origin)) {
                        skipped = true;
                        continue;
                }
                snprintf(s->origin, sizeof(s->origin), "%s", en->origin);
                s->text = en->text;
                s->len = en->len;
                return 0;
        }
        if (skipped)
                return sbx_diag_at(d, what, NULL, "extends cycle: every profile named '%s' is already in the chain", what);
        return sbx_diag_nowhere(d, "no profile named '%s' (sandboxd has: see its log, or busctl introspect)", what);
}

static int find(const struct sbx_profile_store *st, const char *what, const char *dir, const struct source *chain,
                size_t n, struct source *s, struct sbx_diag *d)
{
        char path[PATH_MAX];
        int r;

        if (st)
                return find_stored(st, what, dir, chain, n, s, d);

        if (is_path(what)) {
                int len = what[0] != '/' && dir ? snprintf(path, sizeof(path), "%s/%s", dir, what)
                                                : snprintf(path, sizeof(path), "%s", what);

                if (len < 0 || (size_t)len >= sizeof(path))
                        return sbx_diag_at(d, what, NULL, "the path is too long");
                r = read_path(path, s, false, d);
                if (r == -ENOENT)
                        return sbx_diag_nowhere(d, "no such profile file '%s'", what);
                return r;
        }
        if (!sbx_is_profile_name(what))
                return sbx_diag_at(d, what, NULL, "not a profile name (letters, digits, '-', '_', '.'; or give a path)");
        bool skipped = false;

        for (size_t i = 0; i < ELEMENTSOF(search_dirs); i++) {
                char real[PATH_MAX];

                snprintf(path, sizeof(path), "%s/%s.yaml", search_dirs[i], what);
                if (realpath(path, real) && in_chain(chain, n, real)) {
                        skipped = true;
                        continue;
                }
                r = read_path(path, s, false, d);
                if (r != -ENOENT)
                        return r;
        }
        for (size_t i = 0; i < sbx_builtin_profiles_count; i++) {
                char origin[128];

                snprintf(origin, sizeof(origin), "built-in:%s", what);
                if (strcmp(sbx_builtin_profiles[i].name, what) != 0)
                        continue;
                if (in_chain(chain, n, origin)) {
                        skipped = true;
                        continue;
                }
                snprintf(s->origin, sizeof(s->origin), "%s", origin);
                s->text = (char *)sbx_builtin_profiles[i].text;
                s->len = strlen(s->text);
                return 0;
        }
        if (skipped)
                return sbx_diag_at(d, what, NULL, "extends cycle: every profile named '%s' is already in the chain", what);
        return sbx_diag_nowhere(d, "no profile named '%s' in %s, %s or built in", what, search_dirs[0], search_dirs[1]);
}

/* The top-level `extends:` value node of a document, looked at before the document is
 * applied (a chain is applied base first). */
static const struct sbx_node *extends_of(const struct sbx_node *root)
{
        for (size_t i = 0; root && i < root->n; i += 2)
                if (strcmp(root->items[i]->value, "extends") == 0 && root->items[i + 1]->type == SBX_NODE_SCALAR)
                        return root->items[i + 1];
        return NULL;
}

/* A problem with what an `extends:` names is reported at that key. */
static int at_extends(struct sbx_diag *d, const char *file, const struct sbx_node *at)
{
        char msg[sizeof(d->msg)];

        if (!at)
                return -EINVAL;
        snprintf(msg, sizeof(msg), "%s", d->msg);
        return sbx_diag_at(d, file, at, "%s", msg);
}

static void profile_name(const char *origin, char *buf, size_t size)
{
        const char *base = strrchr(origin, origin[0] == '/' ? '/' : ':');
        size_t n;

        snprintf(buf, size, "%s", base ? base + 1 : origin);
        n = strlen(buf);
        if (n > 5 && strcmp(buf + n - 5, ".yaml") == 0)
                buf[n - 5] = '\0';
}

static int load_chain(const struct sbx_profile_store *st, const char *name_or_path, const struct sbx_vars *vars,
                      struct sbx_profile *pr, struct sbx_diag *d)
{
        struct source src[MAX_CHAIN] = { 0 };
        struct sbx_node *doc[MAX_CHAIN] = { 0 };
        const struct sbx_node *ext = NULL; /* the extends: that named what comes next */
        const char *next = name_or_path;
        char dir[PATH_MAX] = "";
        size_t n = 0;
        int r = 0;

        /* Leaf first: read and parse each document, following `extends:`. */
        while (next) {
                if (n == MAX_CHAIN) {
                        r = sbx_diag_at(d, src[n - 1].origin, ext, "extends chain longer than %d profiles", MAX_CHAIN);
                        goto out;
                }
                if (next[0] == '\0') {
                        r = sbx_diag_at(d, src[n - 1].origin, ext, "'extends' names a profile; it is empty");
                        goto out;
                }
                if ((r = find(st, next, dir[0] ? dir : NULL, src, n, &src[n], d)) < 0) {
                        if (n > 0)
                                at_extends(d, src[n - 1].origin, ext);
                        goto out;
                }
                if (in_chain(src, n, src[n].origin)) {
                        r = sbx_diag_at(d, src[n - 1].origin, ext, "extends cycle: '%s' is already in the chain", ext->value);
                        n++;
                        goto out;
                }
                if ((r = sbx_yaml_parse(src[n].origin, src[n].text, src[n].len, &doc[n], d)) < 0) {
                        n++;
                        goto out;
                }
                ext = extends_of(doc[n]);
                next = ext ? ext->value : NULL;
                if (src[n].origin[0] == '/') {
                        char *slash;

                        memcpy(dir, src[n].origin, sizeof(dir));
                        slash = strrchr(dir, '/');
                        if (slash)
                                *slash = '\0';
                } else {
                        dir[0] = '\0';
                }
                n++;
        }
        /* Base first: each layer overrides scalars and appends lists. */
        for (size_t i = n; i-- > 0;) {
                char name[256], *extends = NULL;

                profile_name(src[i].origin, name, sizeof(name));
                if (sbx_strv_push(&pr->chain, name) < 0) {
                        r = sbx_diag_at(d, src[i].origin, NULL, "out of memory");
                        goto out;
                }
                r = sbx_profile_apply(pr, src[i].origin, doc[i], vars, &extends, d);
                free(extends);
                if (r < 0)
                        goto out;
        }
        free(pr->plan.name);
        pr->plan.name = strdup(pr->chain.v[pr->chain.n - 1]);
        if (!pr->plan.name)
                r = sbx_diag_at(d, name_or_path, NULL, "out of memory");
out:
        for (size_t i = 0; i < n; i++) {
                sbx_node_free(doc[i]);
                source_done(&src[i]);
        }
        return r;
}

int sbx_profile_load(const char *name_or_path, const struct sbx_vars *vars, struct sbx_profile *pr, struct sbx_diag *d)
{
        return load_chain(NULL, name_or_path, vars, pr, d);
}

int sbx_profile_load_stored(const struct sbx_profile_store *st, const char *name, const struct sbx_vars *vars,
                            struct sbx_profile *pr, struct sbx_diag *d)
{
        if (!sbx_is_profile_name(name))
                return sbx_diag_at(d, "profile", NULL, "'%.64s' is not a profile name (letters, digits, '-', '_', '.')", name);
        return load_chain(st, name, vars, pr, d);
}

/* The caller's home from /etc/passwd, else from NSS: /etc/passwd first because NSS
 * loads its modules (libnss_systemd…) and asks daemons over sockets, which costs a
 * launch more than the rest of its profile work. */
static int home_of(uid_t uid, char *buf, size_t size)
{
        _cleanup_(fclosep) FILE *f = fopen("/etc/passwd", "re");
        struct passwd pw, *res = NULL;
        char tmp[4096];

        while (f && fgetpwent_r(f, &pw, tmp, sizeof(tmp), &res) == 0 && res)
                if (res->pw_uid == uid && res->pw_dir[0] == '/') {
                        snprintf(buf, size, "%s", res->pw_dir);
                        return 0;
                }
        res = NULL;
        if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) == 0 && res && res->pw_dir[0] == '/') {
                snprintf(buf, size, "%s", res->pw_dir);
                return 0;
        }
        return -ENOENT;
}

/* {workspace_id}: a name of the workspace's own for what a profile keeps per project
 * (the build profile's caches), so that a jail on one project reaches nothing another
 * project's jails left. */
static void workspace_id(struct sbx_vars *v)
{
        uint8_t digest[SHA256_DIGEST_SIZE];
        struct sha256_ctx c;

        sha256_init(&c);
        sha256_update(&c, strlen(v->workspace), (const uint8_t *)v->workspace);
        sha256_digest(&c, sizeof(digest), digest);
        for (size_t i = 0; i < 8; i++)
                snprintf(v->workspace_id + 2 * i, 3, "%02x", digest[i]);
}

int sbx_vars_init(struct sbx_vars *v, const char *workspace, struct sbx_diag *d)
{
        const char *tmpdir = getenv("TMPDIR");
        char real[PATH_MAX];

        *v = (struct sbx_vars){ .uid = (unsigned)getuid() };
        /* The caller's home from the user database: $HOME is the caller's to point
         * anywhere, and {home} is trusted by bind roots. */
        if (home_of(getuid(), v->home, sizeof(v->home)) < 0)
                snprintf(v->home, sizeof(v->home), "/nonexistent");
        snprintf(v->tmp, sizeof(v->tmp), "%s", tmpdir && tmpdir[0] == '/' && realpath(tmpdir, real) ? real : "/tmp");
        if (workspace) {
                /* Through lib/path.h's rules: a symlink a jail planted does not lead
                 * the next workspace elsewhere. */
                struct sbx_error e = { 0 };
                int fd = -1;

                if (sbx_path_open(workspace, O_PATH | O_DIRECTORY, &fd, v->workspace, sizeof(v->workspace), &e) < 0) {
                        sbx_error_format(&e, real, sizeof(real));
                        return sbx_diag_at(d, "--workspace", NULL, "%s", real);
                }
                close(fd);
        } else if (!getcwd(v->workspace, sizeof(v->workspace))) {
                return sbx_diag_at(d, "workspace", NULL, "cannot find the current directory: %s", strerror(errno));
        }
        workspace_id(v);
        return 0;
}

int sbx_vars_init_for(struct sbx_vars *v, uid_t uid, const char *workspace, char *const *env, struct sbx_diag *d)
{
        *v = (struct sbx_vars){ .uid = (unsigned)uid, .env = env };
        if (home_of(uid, v->home, sizeof(v->home)) < 0)
                snprintf(v->home, sizeof(v->home), "/nonexistent");
        snprintf(v->tmp, sizeof(v->tmp), "/tmp");
        if (snprintf(v->workspace, sizeof(v->workspace), "%s", workspace) >= (int)sizeof(v->workspace))
                return sbx_diag_at(d, "workspace", NULL, "the workspace path is too long");
        workspace_id(v);
        return 0;
}

/* ------------------------------------------------------------------ the store */

static int store_add(struct sbx_profile_store *st, const char *name, const char *origin, const char *text, size_t len)
{
        struct sbx_profile_entry *v = realloc(st->v, (st->n + 1) * sizeof(*v));

        if (!v)
                return -ENOMEM;
        st->v = v;
        v[st->n] = (struct sbx_profile_entry){ .name = strdup(name), .origin = strdup(origin), .text = malloc(len + 1),
                                               .len = len };
        st->n++;
        if (!v[st->n - 1].name || !v[st->n - 1].origin || !v[st->n - 1].text)
                return -ENOMEM;
        memcpy(v[st->n - 1].text, text, len);
        v[st->n - 1].text[len] = '\0';
        return 0;
}

static int store_dir(struct sbx_profile_store *st, const char *dir, struct sbx_diag *d)
{
        struct dirent **list = NULL;
        int n = scandir(dir, &list, NULL, alphasort), r = 0;

        for (int j = 0; j < n; j++) {
                size_t len = strlen(list[j]->d_name);
                char name[256], path[PATH_MAX];
                struct source s = { 0 };

                if (r == 0 && len > 5 && strcmp(list[j]->d_name + len - 5, ".yaml") == 0) {
                        snprintf(name, sizeof(name), "%.*s", (int)(len - 5), list[j]->d_name);
                        snprintf(path, sizeof(path), "%s/%s", dir, list[j]->d_name);
                        if (!sbx_is_profile_name(name))
                                r = sbx_diag_at(d, path, NULL, "not a profile name: rename the file (letters, digits, '-', '_', '.')");
                        else if ((r = read_path(path, &s, true, d)) == 0 && store_add(st, name, s.origin, s.text, s.len) < 0)
                                r = sbx_diag_at(d, path, NULL, "out of memory");
                        else if (r == -ENOENT)
                                r = 0; /* gone since the listing (or a dangling link): not a profile */
                        source_done(&s);
                }
                free(list[j]);
        }
        free(list);
        return r;
}

int sbx_profile_store_read(struct sbx_profile_store *st, struct sbx_diag *d)
{
        struct sbx_vars vars = { .workspace = "/nonexistent", .home = "/nonexistent", .tmp = "/tmp", .uid = 65534 };
        char *const no_env[] = { NULL };
        int r;

        vars.env = no_env;
        workspace_id(&vars);
        *st = (struct sbx_profile_store){ 0 };
        for (size_t i = 0; i < ELEMENTSOF(search_dirs); i++)
                if ((r = store_dir(st, search_dirs[i], d)) < 0)
                        return r;
        for (size_t i = 0; i < sbx_builtin_profiles_count; i++) {
                char origin[128];

                snprintf(origin, sizeof(origin), "built-in:%s", sbx_builtin_profiles[i].name);
                if (store_add(st, sbx_builtin_profiles[i].name, origin, sbx_builtin_profiles[i].text,
                              strlen(sbx_builtin_profiles[i].text)) < 0)
                        return sbx_diag_at(d, origin, NULL, "out of memory");
        }
        /* Every profile must load (its whole chain): a broken one fails the store, not a
         * launch hours later. */
        for (size_t i = 0; i < st->n; i++) {
                struct sbx_profile pr;
                bool shadowed = false;

                for (size_t j = 0; j < i; j++)
                        shadowed |= strcmp(st->v[j].name, st->v[i].name) == 0;
                if (shadowed)
                        continue; /* reachable only through an `extends:` of its name */
                sbx_profile_init(&pr);
                r = load_chain(st, st->v[i].name, &vars, &pr, d);
                sbx_profile_done(&pr);
                if (r < 0)
                        return r;
        }
        return 0;
}

void sbx_profile_store_done(struct sbx_profile_store *st)
{
        for (size_t i = 0; i < st->n; i++) {
                free(st->v[i].name);
                free(st->v[i].origin);
                free(st->v[i].text);
        }
        free(st->v);
        *st = (struct sbx_profile_store){ 0 };
}

/* ------------------------------------------------------------------ listing */

static void describe(FILE *out, const char *name, const char *origin, const char *text, size_t len)
{
        struct sbx_node *root = NULL;
        struct sbx_diag d;
        const char *desc = "";

        if (sbx_yaml_parse(origin, text, len, &root, &d) < 0) {
                fprintf(out, "%-12s %s  (broken: line %u: %s)\n", name, origin, d.line, d.msg);
                return;
        }
        for (size_t i = 0; root && i < root->n; i += 2)
                if (strcmp(root->items[i]->value, "description") == 0 && root->items[i + 1]->type == SBX_NODE_SCALAR)
                        desc = root->items[i + 1]->value;
        fprintf(out, "%-12s %-44s %s\n", name, origin, desc);
        sbx_node_free(root);
}

static bool seen(const struct sbx_strv *names, const char *name)
{
        return sbx_strv_contains(names, name);
}

int sbx_profile_list(FILE *out)
{
        struct sbx_strv names = { 0 };
        struct sbx_diag d;

        for (size_t i = 0; i < ELEMENTSOF(search_dirs); i++) {
                struct dirent **list = NULL;
                int n = scandir(search_dirs[i], &list, NULL, alphasort);

                for (int j = 0; j < n; j++) {
                        char name[256], path[PATH_MAX];
                        size_t len = strlen(list[j]->d_name);
                        struct source s = { 0 };

                        if (len > 5 && strcmp(list[j]->d_name + len - 5, ".yaml") == 0) {
                                snprintf(name, sizeof(name), "%.*s", (int)(len - 5), list[j]->d_name);
                                snprintf(path, sizeof(path), "%s/%s", search_dirs[i], list[j]->d_name);
                                if (sbx_is_profile_name(name) && !seen(&names, name) && read_path(path, &s, false, &d) == 0 &&
                                    sbx_strv_push(&names, name) == 0)
                                        describe(out, name, path, s.text, s.len);
                                source_done(&s);
                        }
                        free(list[j]);
                }
                free(list);
        }
        for (size_t i = 0; i < sbx_builtin_profiles_count; i++) {
                const struct sbx_builtin_profile *b = &sbx_builtin_profiles[i];

                if (!seen(&names, b->name) && sbx_strv_push(&names, b->name) == 0) {
                        char origin[128];

                        snprintf(origin, sizeof(origin), "built-in:%s", b->name);
                        describe(out, b->name, origin, b->text, strlen(b->text));
                }
        }
        sbx_strv_free(&names);
        return 0;
}

void sbx_profile_init(struct sbx_profile *pr)
{
        *pr = (struct sbx_profile){ .system = true, .audit_argv_max = 4096, .mdwe = -1, .min_tier = SBX_TIER_FULL };
        sbx_plan_init(&pr->plan);
        pr->plan.hostname = strdup("sbx"); /* NULL (out of memory) fails at resolve */
}

void sbx_profile_done(struct sbx_profile *pr)
{
        sbx_git_done(&pr->gitstate);
        sbx_plan_done(&pr->plan);
        sbx_cmd_policy_done(&pr->commands);
        free(pr->description);
        sbx_strv_free(&pr->env_pass);
        sbx_strv_free(&pr->seccomp_allow);
        sbx_strv_free(&pr->seccomp_deny);
        sbx_strv_free(&pr->final);
        sbx_strv_free(&pr->final_from);
        sbx_strv_free(&pr->chain);
        sbx_strv_free(&pr->validator.command);
}
