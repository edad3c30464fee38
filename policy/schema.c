/* SPDX-License-Identifier: MIT */
/* The profile schema as one table per section: key, parser, offset into struct
 * sbx_profile.  One walker (schema-walk.c, shared with the site policy) applies a YAML
 * layer through the tables, so every key gets the same strictness (unknown keys, wrong
 * types, bad values: file:line:col) and the same merge rule (scalars override, lists
 * append), and `final` is checked in one place.
 * The command line fills the same struct sbx_plan (sbx-run/options.c). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "../lib/cleanup.h"
#include "../lib/egress.h"
#include "../lib/parse.h"
#include "../lib/seccomp.h"
#include "../lib/tier.h"
#include "options.h"
#include "profile.h"
#include "schema.h"
#include "schema-int.h"

/* What applying one layer needs besides the walk: the profile (also the walk's base,
 * which the table offsets point into), the variables its paths may use, and what it
 * says about its chain. */
struct layer {
        struct sbx_profile *pr;
        const struct sbx_vars *vars;
        char **extends;
        struct sbx_strv new_final; /* this layer's `final:` entries, in force for the next */
};

#define OFF(field) offsetof(struct sbx_profile, field)

static struct layer *layer_of(const struct sbx_walk *c)
{
        return c->data;
}

static struct sbx_profile *prof(const struct sbx_walk *c)
{
        return layer_of(c)->pr;
}

static const struct sbx_vars *vars_of(const struct sbx_walk *c)
{
        return layer_of(c)->vars;
}

/* ------------------------------------------------------------------ variables */

/* Expands {workspace} {home} {uid} {tmp} in @in. */
static int expand(struct sbx_walk *c, const struct sbx_node *n, const char *in, char **ret)
{
        char out[4096], uid[16];
        size_t o = 0;

        snprintf(uid, sizeof(uid), "%u", vars_of(c)->uid);
        for (const char *s = in; *s;) {
                const char *val = NULL, *end;
                size_t len;

                if (*s != '{') {
                        if (*s == '}')
                                return sbx_diag_at(c->d, c->file, n, "'%s': a '}' without '{' in '%s'", c->path, in);
                        if (o + 1 >= sizeof(out))
                                goto too_long;
                        out[o++] = *s++;
                        continue;
                }
                end = strchr(s, '}');
                if (!end)
                        return sbx_diag_at(c->d, c->file, n, "'%s': unterminated variable in '%s'", c->path, in);
                len = (size_t)(end - s + 1);
                if (len == 11 && strncmp(s, "{workspace}", len) == 0)
                        val = vars_of(c)->workspace;
                else if (len == 6 && strncmp(s, "{home}", len) == 0)
                        val = vars_of(c)->home;
                else if (len == 5 && strncmp(s, "{uid}", len) == 0)
                        val = uid;
                else if (len == 14 && strncmp(s, "{workspace_id}", len) == 0)
                        val = vars_of(c)->workspace_id;
                else if (len == 5 && strncmp(s, "{tmp}", len) == 0)
                        val = vars_of(c)->tmp;
                else
                        return sbx_diag_at(c->d, c->file, n,
                                           "'%s': unknown variable '%.*s' (known: {workspace}, {workspace_id}, {home}, {uid}, {tmp})",
                                           c->path, (int)len, s);
                if (o + strlen(val) >= sizeof(out))
                        goto too_long;
                memcpy(out + o, val, strlen(val));
                o += strlen(val);
                s = end + 1;
        }
        out[o] = '\0';
        *ret = strdup(out);
        return *ret ? 0 : sbx_walk_oom(c, n);
too_long:
        return sbx_diag_at(c->d, c->file, n, "'%s': the path is longer than 4095 bytes", c->path);
}

/* An absolute, normal path after expansion: no "..", no "//", so it names one place
 * before anything is resolved ("{workspace}/../../etc" stops here). */
static int expand_path(struct sbx_walk *c, const struct sbx_node *n, const char *in, char **ret)
{
        _cleanup_free_ char *p = NULL;
        int r = expand(c, n, in, &p);

        if (r < 0 || !p)
                return r < 0 ? r : sbx_walk_oom(c, n);
        if (strcmp(p, "/") != 0 && !sbx_path_is_normal(p))
                return sbx_diag_at(c->d, c->file, n,
                                   "'%s': '%s' is not an absolute path without '.', '..' or '//'", c->path, in);
        *ret = TAKE_PTR(p);
        return 0;
}

/* ------------------------------------------------------------------ scalars */

static int parse_hostname(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if (!sbx_is_hostname(v->value))
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not a host name (up to 64 letters, digits, '-' and '.')",
                                   c->path, v->value);
        return sbx_key_string(c, k, v);
}

/* filesystem.git: protect (read-only, the default) or commit; true and false are the
 * older spelling of commit and protect. */
static int parse_git(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        static const char *const names[] = { "protect", "commit", "false", "true" };

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        for (int i = 0; i < 4; i++)
                if (strcmp(v->value, names[i]) == 0) {
                        *SBX_KEY_AT(c, k, int) = i % 2 ? SBX_GIT_COMMIT : SBX_GIT_PROTECT;
                        return 0;
                }
        return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not one of: protect, commit", c->path, v->value);
}

static int parse_extends(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if (v->value[0] == '\0')
                return sbx_diag_at(c->d, c->file, v, "'extends' names a profile; it is empty");
        free(*layer_of(c)->extends);
        *layer_of(c)->extends = strdup(v->value);
        return *layer_of(c)->extends ? 0 : sbx_walk_oom(c, v);
}

static int parse_workdir(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        char **dst = SBX_KEY_AT(c, k, char *);
        char *p = NULL;
        int r;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if ((r = expand_path(c, v, v->value, &p)) < 0 || !p)
                return r < 0 ? r : sbx_walk_oom(c, v);
        free(*dst);
        *dst = p;
        return 0;
}

/* ------------------------------------------------------------------ lists */

/* Lists append to what a parent gave (a repeat is dropped). */
static int item_path(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        _cleanup_free_ char *p = NULL;
        int r = expand_path(c, it, it->value, &p);

        return r < 0 ? r : sbx_walk_push_unique(c, SBX_KEY_AT(c, k, struct sbx_strv), p, it);
}

static int item_syscall(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        char near[64];

        if (!sbx_seccomp_known(it->value, near, sizeof(near)))
                return sbx_diag_at(c->d, c->file, it, "'%s': unknown system call '%s'%s%s%s", c->path, it->value,
                                   near[0] ? " (did you mean '" : "", near, near[0] ? "'?)" : "");
        if (strcmp(c->path, "seccomp.allow") == 0 && sbx_seccomp_checks_arguments(it->value))
                return sbx_diag_at(c->d, c->file, it, "'%s': the default filter checks the arguments of '%s', and those checks cannot be lifted",
                                   c->path, it->value);
        if (strcmp(c->path, "seccomp.allow") == 0 && !sbx_seccomp_denied_by_default(it->value))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not denied by the default filter, so there is nothing to allow",
                                   c->path, it->value);
        return sbx_item_string(c, k, it);
}

static int item_cap(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        cap_value_t cap;
        _cleanup_free_ char *lower = strdup(it->value);

        if (!lower)
                return sbx_walk_oom(c, it);
        for (char *s = lower; *s; s++)
                *s = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
        /* cap_from_name() also takes numbers: a profile names capabilities. */
        if (strspn(lower, "0123456789") == strlen(lower) || cap_from_name(lower, &cap) < 0 || cap < 0 || cap >= 64)
                return sbx_diag_at(c->d, c->file, it, "'%s': unknown capability '%s' (e.g. CAP_NET_BIND_SERVICE)", c->path, it->value);
        *SBX_KEY_AT(c, k, uint64_t) |= 1ull << cap;
        return 0;
}

static int item_optional(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        if (strcmp(it->value, "landlock") == 0)
                *SBX_KEY_AT(c, k, unsigned) |= SBX_HARDEN_LANDLOCK;
        else if (strcmp(it->value, "cgroup") == 0)
                *SBX_KEY_AT(c, k, unsigned) |= SBX_HARDEN_CGROUP;
        else if (strcmp(it->value, "memory_deny_write_execute") == 0)
                *SBX_KEY_AT(c, k, unsigned) |= SBX_HARDEN_MDWE;
        else
                return sbx_diag_at(c->d, c->file, it,
                                   "'%s': '%s' cannot be optional; the steps that may be: landlock, cgroup, memory_deny_write_execute",
                                   c->path, it->value);
        return 0;
}

static int item_final(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        char near[64];

        (void)k;
        if (strcmp(it->value, "extends") == 0 || strcmp(it->value, "final") == 0 || strcmp(it->value, "description") == 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' cannot be final: it is not a setting", c->path, it->value);
        if (!sbx_schema_has_key(it->value, near, sizeof(near)))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a profile key%s%s%s", c->path, it->value,
                                   near[0] ? " (did you mean '" : "", near, near[0] ? "'?)" : "");
        return sbx_walk_push_unique(c, &layer_of(c)->new_final, it->value, it);
}

/* "~" in rm's protected paths is the caller's home, and the jail's $HOME once the
 * environment is final (resolve.c expands the "~" kept here). */
static int item_protected(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        struct sbx_strv *l = SBX_KEY_AT(c, k, struct sbx_strv);
        int r;

        if (strcmp(it->value, "~") == 0) {
                if ((r = sbx_walk_push_unique(c, l, vars_of(c)->home, it)) < 0)
                        return r;
                return sbx_walk_push_unique(c, l, "~", it);
        }
        return item_path(c, k, it);
}

SBX_KEY_LIST(parse_paths, item_path)
SBX_KEY_LIST(parse_syscalls, item_syscall)
SBX_KEY_LIST(parse_caps, item_cap)
SBX_KEY_LIST(parse_optional, item_optional)
SBX_KEY_LIST(parse_final, item_final)
SBX_KEY_LIST(parse_protected, item_protected)

/* ------------------------------------------------------------------ mounts */

/* A profile's mount at a destination replaces one a parent put there (a child's
 * /tmp:2G is the /tmp, not a second tmpfs over the first). */
static void drop_dest(struct sbx_walk *c, const char *dest)
{
        struct sbx_plan *p = &prof(c)->plan;

        for (size_t i = 0; dest && i < p->n_mounts; i++) {
                if (strcmp(p->mounts[i].dest, dest) != 0)
                        continue;
                free(p->mounts[i].source);
                free(p->mounts[i].dest);
                memmove(&p->mounts[i], &p->mounts[i + 1], (p->n_mounts - i - 1) * sizeof(p->mounts[0]));
                p->n_mounts--;
                return;
        }
}

/* A bind item: "SRC[:DEST]" or {source, dest, optional}. */
static int item_bind(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        enum sbx_mount_kind kind = *(const enum sbx_mount_kind *)k->arg;
        _cleanup_free_ char *src_raw = NULL, *src = NULL, *dest = NULL;
        const char *dest_raw = NULL;
        bool optional = false, create = false;
        struct sbx_error e = { 0 };
        struct sbx_mount *m;
        int r;

        if (it->type == SBX_NODE_SCALAR) {
                char *colon;

                src_raw = strdup(it->value);
                if (!src_raw)
                        return sbx_walk_oom(c, it);
                colon = strrchr(src_raw, ':');
                if (colon && colon[1] == '/') {
                        *colon = '\0';
                        dest_raw = colon + 1;
                }
        } else if (it->type == SBX_NODE_MAP) {
                for (size_t i = 0; i < it->n; i += 2) {
                        const struct sbx_node *key = it->items[i], *val = it->items[i + 1];

                        if (val->type != SBX_NODE_SCALAR)
                                return sbx_diag_at(c->d, c->file, val, "'%s': '%s' must be a single value", c->path, key->value);
                        if (strcmp(key->value, "source") == 0) {
                                free(src_raw);
                                if (!(src_raw = strdup(val->value)))
                                        return sbx_walk_oom(c, val);
                        } else if (strcmp(key->value, "dest") == 0) {
                                dest_raw = val->value;
                        } else if (strcmp(key->value, "optional") == 0 || strcmp(key->value, "create") == 0) {
                                if (!val->plain || (strcmp(val->value, "true") != 0 && strcmp(val->value, "false") != 0))
                                        return sbx_diag_at(c->d, c->file, val, "'%s': '%s' must be true or false, not '%s'",
                                                           c->path, key->value, val->value);
                                *(strcmp(key->value, "create") == 0 ? &create : &optional) = strcmp(val->value, "true") == 0;
                        } else {
                                return sbx_diag_at(c->d, c->file, key, "'%s': unknown key '%s' in a bind (source, dest, optional, create)",
                                                   c->path, key->value);
                        }
                }
                if (!src_raw)
                        return sbx_diag_at(c->d, c->file, it, "'%s': a bind needs a 'source'", c->path);
        } else {
                return sbx_diag_at(c->d, c->file, it, "'%s': a bind is \"SOURCE[:DEST]\" or {source: ..., dest: ...}", c->path);
        }
        if ((r = expand_path(c, it, src_raw, &src)) < 0 || (r = expand_path(c, it, dest_raw ? dest_raw : src_raw, &dest)) < 0)
                return r;
        if (!src || !dest)
                return sbx_walk_oom(c, it);
        if (strcmp(dest, "/") == 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': cannot bind over the jail's '/'", c->path);
        drop_dest(c, dest);
        if (sbx_plan_add_mount(&prof(c)->plan, kind, src, dest, 0, &e) < 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': %s", c->path, e.msg);
        m = &prof(c)->plan.mounts[prof(c)->plan.n_mounts - 1];
        /* A symlink on the way ({workspace}/link -> /etc) is refused by validation, as
         * for every bind (lib/path.h). */
        if (create && kind != SBX_MOUNT_RW)
                return sbx_diag_at(c->d, c->file, it, "'%s': 'create' is for read-write binds", c->path);
        m->optional = optional;
        m->create = create;
        return 0;
}

/* A tmpfs item: "DEST[:SIZE]" or {dest, size}. */
static int item_tmpfs(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        _cleanup_free_ char *spec = NULL, *dest = NULL;
        const char *size_s = NULL, *dest_raw = NULL;
        struct sbx_error e = { 0 };
        uint64_t size = 64ull << 20;
        int r;

        (void)k;
        if (it->type == SBX_NODE_SCALAR) {
                char *colon;

                if (!(spec = strdup(it->value)))
                        return sbx_walk_oom(c, it);
                colon = strrchr(spec, ':');
                if (colon) {
                        *colon = '\0';
                        size_s = colon + 1;
                }
                dest_raw = spec;
        } else if (it->type == SBX_NODE_MAP) {
                for (size_t i = 0; i < it->n; i += 2) {
                        const struct sbx_node *key = it->items[i], *val = it->items[i + 1];

                        if (val->type != SBX_NODE_SCALAR)
                                return sbx_diag_at(c->d, c->file, val, "'%s': '%s' must be a single value", c->path, key->value);
                        if (strcmp(key->value, "dest") == 0)
                                dest_raw = val->value;
                        else if (strcmp(key->value, "size") == 0)
                                size_s = val->value;
                        else
                                return sbx_diag_at(c->d, c->file, key, "'%s': unknown key '%s' in a tmpfs (dest, size)",
                                                   c->path, key->value);
                }
                if (!dest_raw)
                        return sbx_diag_at(c->d, c->file, it, "'%s': a tmpfs needs a 'dest'", c->path);
        } else {
                return sbx_diag_at(c->d, c->file, it, "'%s': a tmpfs is \"DEST[:SIZE]\" or {dest: ..., size: ...}", c->path);
        }
        if (size_s && (sbx_parse_size(size_s, &size) < 0 || size == 0))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a size; e.g. 64M", c->path, size_s);
        if ((r = expand_path(c, it, dest_raw, &dest)) < 0)
                return r;
        drop_dest(c, dest);
        if (sbx_plan_add_mount(&prof(c)->plan, SBX_MOUNT_TMPFS, NULL, dest, size, &e) < 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': %s", c->path, e.msg);
        return 0;
}

static int item_mask(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        _cleanup_free_ char *dest = NULL;
        struct sbx_error e = { 0 };
        int r;

        (void)k;
        if ((r = expand_path(c, it, it->value, &dest)) < 0)
                return r;
        drop_dest(c, dest);
        if (sbx_plan_add_mount(&prof(c)->plan, SBX_MOUNT_MASK, NULL, dest, 0, &e) < 0)
                return sbx_diag_at(c->d, c->file, it, "'%s': %s", c->path, e.msg);
        return 0;
}

static int parse_binds(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (sbx_walk_want(c, v, SBX_NODE_SEQ, k) < 0)
                return -EINVAL;
        for (size_t i = 0; i < v->n; i++) {
                int r = (*(const enum sbx_mount_kind *)k->arg == SBX_MOUNT_TMPFS ? item_tmpfs : item_bind)(c, k, v->items[i]);

                if (r < 0)
                        return r;
        }
        return 0;
}

SBX_KEY_LIST(parse_masks, item_mask)

/* ------------------------------------------------------------------ maps */

/* environment.set: NAME: VALUE pairs, a child's value replacing its parent's. */
static int parse_env_set(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_error e = { 0 };

        if (sbx_walk_want(c, v, SBX_NODE_MAP, k) < 0)
                return -EINVAL;
        for (size_t i = 0; i < v->n; i += 2) {
                const struct sbx_node *name = v->items[i], *val = v->items[i + 1];

                if (!sbx_is_env_name(name->value, strlen(name->value)))
                        return sbx_diag_at(c->d, c->file, name, "'%s': '%s' is not a variable name (letters, digits, '_')",
                                           c->path, name->value);
                if (val->type != SBX_NODE_SCALAR)
                        return sbx_diag_at(c->d, c->file, val, "'%s.%s' must be a single value, not %s", c->path, name->value,
                                           sbx_walk_type_name(val));
                if (val->plain && (val->value[0] == '\0' || strcmp(val->value, "null") == 0 || strcmp(val->value, "~") == 0))
                        return sbx_diag_at(c->d, c->file, val, "'%s.%s' has no value; write %s: \"\" for an empty one", c->path,
                                           name->value, name->value);
                if (sbx_plan_set_env(&prof(c)->plan, name->value, val->value, &e) < 0)
                        return sbx_walk_oom(c, val);
        }
        return 0;
}

/* environment.pass: names, or prefixes ending in '*' (LC_*). */
static int item_env_pass(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        _cleanup_free_ char *name = strdup(it->value);
        size_t len;

        if (!name)
                return sbx_walk_oom(c, it);
        len = strlen(name);
        if (len > 1 && name[len - 1] == '*')
                name[len - 1] = '\0';
        if (!sbx_is_env_name(name, strlen(name)))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a variable name or a NAME* prefix", c->path, it->value);
        return sbx_item_string(c, k, it);
}
SBX_KEY_LIST(parse_env_pass, item_env_pass)

static int parse_env_clear(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        bool clear = true;
        int r = sbx_walk_bool(c, k, v, &clear);

        if (r < 0)
                return r;
        if (!clear)
                return sbx_diag_at(c->d, c->file, v, "'%s': the environment is always built from nothing; "
                                   "list what to take from the caller in environment.pass", c->path);
        return 0;
}

/* namespaces: pid and mount are the jail itself; ipc, uts and cgroup may be shared. */
static int parse_namespaces(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        static const struct {
                const char *name;
                unsigned shared_bit; /* 0: cannot be turned off */
        } ns[] = { { "pid", 0 }, { "mount", 0 }, { "ipc", SBX_NS_SHARE_IPC }, { "uts", SBX_NS_SHARE_UTS },
                   { "cgroup", SBX_NS_SHARE_CGROUP } };

        if (sbx_walk_want(c, v, SBX_NODE_MAP, k) < 0)
                return -EINVAL;
        for (size_t i = 0; i < v->n; i += 2) {
                const struct sbx_node *name = v->items[i], *val = v->items[i + 1];
                size_t j;
                bool on = false;
                int r;

                for (j = 0; j < ELEMENTSOF(ns) && strcmp(ns[j].name, name->value) != 0; j++)
                        ;
                if (strcmp(name->value, "net") == 0)
                        return sbx_diag_at(c->d, c->file, name, "'%s.net': the network namespace follows 'network: none|host'",
                                           c->path);
                if (j == ELEMENTSOF(ns))
                        return sbx_diag_at(c->d, c->file, name, "'%s': unknown namespace '%s' (pid, mount, ipc, uts, cgroup)",
                                           c->path, name->value);
                size_t base = strlen(c->path);

                snprintf(c->path + base, sizeof(c->path) - base, ".%s", name->value);
                r = sbx_walk_bool(c, NULL, val, &on);
                c->path[base] = '\0';
                if (r < 0)
                        return r;
                if (!ns[j].shared_bit && !on)
                        return sbx_diag_at(c->d, c->file, val, "'%s.%s' cannot be false: the jail is built on its own %s namespace",
                                           c->path, name->value, name->value);
                else if (on)
                        prof(c)->plan.ns_shared &= ~ns[j].shared_bit;
                else
                        prof(c)->plan.ns_shared |= ns[j].shared_bit;
        }
        return 0;
}

/* A bool kept apart from "not set", which follows commands.mode (resolve.c). */
static int parse_mdwe(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        bool on = false;
        int r = sbx_walk_bool(c, k, v, &on);

        if (r == 0)
                *SBX_KEY_AT(c, k, int) = on;
        return r;
}

static int parse_proc(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        bool on = true;
        int r = sbx_walk_bool(c, k, v, &on);

        if (r == 0)
                prof(c)->plan.no_proc = !on;
        return r;
}

/* The weakest isolation tier accepted (lib/tier.h); "refuse" is no tier to accept. */
static int parse_min_tier(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_tier(c, k, v, &prof(c)->min_tier);
}

/* ------------------------------------------------------------------ tables */

static const struct sbx_bounds b_argv = { 64, 1u << 20 };

static const enum sbx_mount_kind kind_ro = SBX_MOUNT_RO, kind_rw = SBX_MOUNT_RW, kind_tmpfs = SBX_MOUNT_TMPFS;

static const char *const net_names[] = { "none", "host", "filtered", NULL };
/* network.allow and network.deny: rules of lib/netrule.h, added to what the profile
 * extended (a deny always narrows; an allow is this profile author's to give). */
static const enum sbx_netrule_kind rule_allow = SBX_NETRULE_ALLOW, rule_deny = SBX_NETRULE_DENY;

/* network.localhost.connect and .publish: port numbers, each once, replacing what the
 * profile extended (a list of ports is one thing).  The broker's own ports inside
 * the jail (53, 80, 443, 3128) can be neither. */
static int parse_local_ports(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_plan *p = &prof(c)->plan;
        bool publish = k->arg != NULL;
        uint16_t *ports = publish ? p->net_publish : p->net_connect;
        size_t *n = publish ? &p->n_net_publish : &p->n_net_connect;

        if (sbx_walk_want(c, v, SBX_NODE_SEQ, k) < 0)
                return -EINVAL;
        if (v->n > SBX_NET_LOCAL_MAX)
                return sbx_diag_at(c->d, c->file, v, "'%s': more than %d ports", c->path, SBX_NET_LOCAL_MAX);
        *n = 0;
        for (size_t i = 0; i < v->n; i++) {
                const struct sbx_node *it = v->items[i];
                uint64_t port;

                if (it->type != SBX_NODE_SCALAR || sbx_parse_u64(it->value, &port) < 0 || port < 1 || port > 65535)
                        return sbx_diag_at(c->d, c->file, it, "'%s': each item must be a port number from 1 to 65535", c->path);
                /* (publish too: the host would reach the broker's own listener, and dial
                 * out through this jail's allow list) */
                if (port == 53 || port == 80 || port == 443 || port == SBX_EGRESS_PROXY_PORT)
                        return sbx_diag_at(c->d, c->file, it,
                                           "'%s': port %llu is the egress broker's own inside the jail (53, 80, 443, %d)",
                                           c->path, (unsigned long long)port, SBX_EGRESS_PROXY_PORT);
                for (size_t j = 0; j < *n; j++)
                        if (ports[j] == port)
                                return sbx_diag_at(c->d, c->file, it, "'%s': port %llu is listed twice", c->path,
                                                   (unsigned long long)port);
                ports[(*n)++] = (uint16_t)port;
        }
        return 0;
}

static const struct sbx_key localhost_keys[] = {
        { "connect", parse_local_ports, 0, NULL, "[5432]" },
        { "publish", parse_local_ports, 0, "publish", "[3000]" },
        {},
};

static const struct sbx_key network_keys[] = {
        { "mode", sbx_key_enum, OFF(plan.net), net_names, "none, host, filtered" },
        { "allow", sbx_key_netrules, OFF(plan.net_rules), &rule_allow, "[registry.npmjs.org, \"*.pypi.org\", \"github.com:22\"]" },
        { "deny", sbx_key_netrules, OFF(plan.net_rules), &rule_deny, "[gist.github.com, \"*:25\"]" },
        { "localhost", sbx_key_section, 0, localhost_keys, NULL },
        {},
};

/* network: none | host | filtered, or a mapping with mode, allow and deny. */
static int parse_network(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (v->type == SBX_NODE_MAP)
                return sbx_walk(c, network_keys, v);
        return sbx_key_enum(c, k, v);
}
static const char *const ws_names[] = { "rw", "ro", "none", NULL };
static const char *const mode_names[] = { "off", "allowlist", "denylist", NULL };
static const char *const action_names[] = { "errno", "kill", NULL };

static const struct sbx_key filesystem_keys[] = {
        { "system", sbx_key_bool, OFF(system), NULL, "true" },
        { "git", parse_git, OFF(git), NULL, "protect, commit" },
        { "workspace", sbx_key_enum, OFF(plan.workspace_mode), ws_names, "rw, ro, none" },
        { "ro", parse_binds, 0, &kind_ro, "[\"/opt/tools\", \"{home}/.cargo:/cargo\"]" },
        { "rw", parse_binds, 0, &kind_rw, "[\"{workspace}/../cache\"]" },
        { "tmpfs", parse_binds, 0, &kind_tmpfs, "[\"/scratch:128M\"]" },
        { "masks", parse_masks, 0, NULL, "[\"/etc/hosts\"]" },
        { "proc", parse_proc, 0, NULL, "true" },
        { "bind_roots_ro", parse_paths, OFF(plan.roots_ro), NULL, "[\"{home}\", \"/opt\"]" },
        { "bind_roots_rw", parse_paths, OFF(plan.roots_rw), NULL, "[\"{workspace}\", \"{tmp}\"]" },
        {},
};

static const struct sbx_key environment_keys[] = {
        { "clear", parse_env_clear, 0, NULL, "true" },
        { "set", parse_env_set, 0, NULL, "{ LANG: C.UTF-8 }" },
        { "pass", parse_env_pass, OFF(env_pass), NULL, "[TERM, LC_*]" },
        {},
};

static const struct sbx_key seccomp_keys[] = {
        { "allow", parse_syscalls, OFF(seccomp_allow), NULL, "[ptrace]" },
        { "deny", parse_syscalls, OFF(seccomp_deny), NULL, "[socket]" },
        { "action", sbx_key_enum, OFF(seccomp_action), action_names, "errno, kill" },
        {},
};

/* limits: the option table's rows that have a profile key (policy/options.c), so a
 * limit is written once for the command line, the bus and profiles. */
#define MAX_LIMIT_KEYS 16

static const struct sbx_key *limits_keys(struct sbx_key keys[static MAX_LIMIT_KEYS + 1])
{
        static const sbx_key_fn by_kind[] = {
                [SBX_OPT_DURATION] = sbx_key_duration,
                [SBX_OPT_SIZE] = sbx_key_size,
                [SBX_OPT_MEMORY] = sbx_key_memory,
                [SBX_OPT_COUNT] = sbx_key_count,
        };
        size_t n = 0;

        for (size_t i = 0; i < sbx_option_count && n < MAX_LIMIT_KEYS; i++) {
                const struct sbx_option *o = &sbx_option_table[i];

                if (o->limit && o->kind < ELEMENTSOF(by_kind) && by_kind[o->kind])
                        keys[n++] = (struct sbx_key){ o->limit, by_kind[o->kind], OFF(plan) + o->offset, &o->bounds, o->doc };
        }
        keys[n] = (struct sbx_key){ 0 };
        return keys;
}

static int parse_limits(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_key keys[MAX_LIMIT_KEYS + 1];

        (void)k;
        if (v->type != SBX_NODE_MAP)
                return sbx_diag_at(c->d, c->file, v, "'%s' must be a mapping (key: value lines under it), not %s", c->path,
                                   sbx_walk_type_name(v));
        return sbx_walk(c, limits_keys(keys), v);
}

static const struct sbx_key rm_keys[] = {
        { "protected", parse_protected, OFF(commands.rm_protected), NULL, "[/, /etc, \"~\"]" },
        {},
};
static const struct sbx_key chmod_keys[] = {
        { "modes", sbx_key_strings, OFF(commands.chmod_modes), NULL, "[\"+x\", \"644\"]" },
        {},
};
static const struct sbx_key kill_keys[] = {
        { "targets", sbx_key_strings, OFF(commands.kill_targets), NULL, "[\"[0-9]*\", \"%*\"]" },
        {},
};
static const struct sbx_key git_keys[] = {
        { "deny", sbx_key_strings, OFF(commands.git_deny), NULL, "[\"push --force\", \"config --global\"]" },
        {},
};
static const struct sbx_key rules_keys[] = {
        { "rm", sbx_key_section, 0, rm_keys, NULL },
        { "chmod", sbx_key_section, 0, chmod_keys, NULL },
        { "kill", sbx_key_section, 0, kill_keys, NULL },
        { "git", sbx_key_section, 0, git_keys, NULL },
        {},
};

static const struct sbx_key commands_keys[] = {
        { "mode", sbx_key_enum, OFF(commands.mode), mode_names, "off, allowlist, denylist" },
        { "allow", sbx_key_names, OFF(commands.allow), NULL, "[ls, cat, git]" },
        { "deny", sbx_key_names, OFF(commands.deny), NULL, "[dd, mkfs]" },
        { "deny_patterns", sbx_key_regexes, OFF(commands.deny_patterns), NULL, "[\"git +push +.*--force\"]" },
        { "allow_pipe_to_shell", sbx_key_bool, OFF(commands.allow_pipe_to_shell), NULL, "false" },
        { "rules", sbx_key_section, 0, rules_keys, NULL },
        {},
};

static const struct sbx_key audit_keys[] = {
        { "argv_max", sbx_key_count, OFF(audit_argv_max), &b_argv, "bytes, from 64 to 1048576" },
        {},
};

/* 100 ms to 30 s: sandboxd's launcher must decide within its start deadline, with the
 * site's validator and the profile's both asked. */
static const struct sbx_bounds b_validator_timeout = { 100, 30000 };

static const struct sbx_key validator_keys[] = {
        { "command", sbx_key_command, OFF(validator.command), NULL, "[/usr/libexec/sbx-check, --strict]" },
        { "timeout", sbx_key_duration, OFF(validator.timeout_ms), &b_validator_timeout, "5s (from 100ms to 30s)" },
        {},
};

static const struct sbx_key top_keys[] = {
        { "extends", parse_extends, 0, NULL, "workspace" },
        { "description", sbx_key_string, OFF(description), NULL, "\"what this profile is for\"" },
        { "final", parse_final, 0, NULL, "[network, commands.mode]" },
        { "optional", parse_optional, OFF(plan.optional), NULL, "[cgroup]" },
        { "workdir", parse_workdir, OFF(plan.workdir), NULL, "\"{workspace}/src\"" },
        { "hostname", parse_hostname, OFF(plan.hostname), NULL, "sbx" },
        { "network", parse_network, OFF(plan.net), net_names, "none, host, filtered" },
        { "namespaces", parse_namespaces, 0, NULL, "{ ipc: true, uts: true }" },
        { "filesystem", sbx_key_section, 0, filesystem_keys, NULL },
        { "environment", sbx_key_section, 0, environment_keys, NULL },
        { "seccomp", sbx_key_section, 0, seccomp_keys, NULL },
        { "capabilities", parse_caps, OFF(plan.caps), NULL, "[CAP_NET_BIND_SERVICE]" },
        { "memory_deny_write_execute", parse_mdwe, OFF(mdwe), NULL, "true" },
        { "min_tier", parse_min_tier, 0, NULL, "full, container-userns, landlock" },
        { "limits", parse_limits, 0, NULL, NULL },
        { "commands", sbx_key_section, 0, commands_keys, NULL },
        { "audit", sbx_key_section, 0, audit_keys, NULL },
        { "validator", sbx_key_section, 0, validator_keys, NULL },
        {},
};

/* ------------------------------------------------------------------ applying a layer */

/* @path is final in a profile below this one: this layer may not set it. */
static int check_final(struct sbx_walk *c, const struct sbx_node *at)
{
        for (size_t i = 0; i < prof(c)->final.n; i++) {
                const char *f = prof(c)->final.v[i];
                size_t n = strlen(f);

                if (strncmp(c->path, f, n) == 0 && (c->path[n] == '\0' || c->path[n] == '.'))
                        return sbx_diag_at(c->d, c->file, at, "'%s' is final in profile '%s' and cannot be changed here",
                                           c->path, prof(c)->final_from.v[i]);
        }
        return 0;
}

/* Walks a dotted key path through the tables; on a miss, @near gets the path with its
 * last good prefix and the nearest key of the table where it went wrong. */
bool sbx_schema_has_key(const char *path, char *near, size_t size)
{
        const struct sbx_key *table = top_keys;
        struct sbx_key limit_buf[MAX_LIMIT_KEYS + 1];
        char buf[256];
        char *save = NULL;
        size_t prefix = 0;

        near[0] = '\0';
        snprintf(buf, sizeof(buf), "%s", path);
        for (char *part = strtok_r(buf, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
                const struct sbx_key *k;

                if (!table)
                        return false;
                for (k = table; k->name && strcmp(k->name, part) != 0; k++)
                        ;
                if (!k->name) {
                        const char *n = sbx_key_nearest(table, part);

                        if (n)
                                snprintf(near, size, "%.*s%s", (int)prefix, path, n);
                        return false;
                }
                prefix = (size_t)(part - buf) + strlen(part) + 1;
                table = k->parse == sbx_key_section ? k->arg : k->parse == parse_limits ? limits_keys(limit_buf) : NULL;
                if (!save || !*save)
                        return true;
        }
        return false;
}

int sbx_profile_apply(struct sbx_profile *pr, const char *file, const struct sbx_node *root,
                      const struct sbx_vars *vars, char **extends, struct sbx_diag *d)
{
        struct layer l = { .pr = pr, .vars = vars, .extends = extends };
        struct sbx_walk c = { .base = pr, .file = file, .d = d, .before = check_final, .data = &l };
        int r = 0;

        *extends = NULL;
        if (root)
                r = sbx_walk(&c, top_keys, root);
        for (size_t i = 0; r == 0 && i < l.new_final.n; i++) {
                if (sbx_strv_contains(&pr->final, l.new_final.v[i]))
                        continue;
                if (sbx_strv_push(&pr->final, l.new_final.v[i]) < 0 ||
                    sbx_strv_push(&pr->final_from, pr->chain.n ? pr->chain.v[pr->chain.n - 1] : "?") < 0)
                        r = sbx_diag_at(d, file, root, "out of memory");
        }
        sbx_strv_free(&l.new_final);
        return r;
}
