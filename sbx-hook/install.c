/* SPDX-License-Identifier: MIT */
/* Runs as the user, on the user's own settings: json-c reads the file, the merge
 * changes only the keys sbx owns (its hook entry, the shell prefix, the sandbox
 * switch), and the file is replaced in one rename. */
#include "install.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../lib/cleanup.h"

#define MAX_SETTINGS ((size_t)4 << 20)
#define HOOK_TIMEOUT_S 10

static const struct target {
        const char *dir, *file;       /* under home or the project */
        const char *event, *matcher;  /* hooks.EVENT[].matcher */
        int timeout;                  /* in the harness's unit */
} targets[HOOK_N_HARNESSES] = {
        [HOOK_CLAUDE] = { ".claude", "settings.json", "PreToolUse", "Bash", HOOK_TIMEOUT_S },
        [HOOK_CODEX] = { ".codex", "hooks.json", "PreToolUse", "Bash", HOOK_TIMEOUT_S },
        [HOOK_GEMINI] = { ".gemini", "settings.json", "BeforeTool", "run_shell_command", HOOK_TIMEOUT_S * 1000 },
};
/* Claude Code's second hook: after each Bash call, whether it ran jailed (post.h). */
static const struct target claude_post = { ".claude", "settings.json", "PostToolUse", "Bash", HOOK_TIMEOUT_S };

static int fail(const char *path, const char *what, const char *hint)
{
        fprintf(stderr, "sbx-hook: %s: %s%s%s%s\n", path, what, hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
        return 1;
}

/* 'PATH' ARGS: a shell word for a path the harness's shell runs. */
static char *shell_command(const char *self, const char *args)
{
        char *s = NULL;

        if (strchr(self, '\''))
                return NULL;
        return asprintf(&s, "'%s' %s", self, args) < 0 ? NULL : s;
}

/* The settings file's text, or NULL with *@missing when there is none. */
static char *read_settings(const char *path, bool *missing, mode_t *mode, char *why, size_t size)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        struct stat st;
        char *buf;
        size_t got = 0;

        *missing = false;
        if (fd < 0) {
                *missing = errno == ENOENT;
                snprintf(why, size, "cannot open it: %s", strerror(errno));
                return NULL;
        }
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_SETTINGS) {
                snprintf(why, size, "not a regular file of at most 4 MiB");
                return NULL;
        }
        *mode = st.st_mode & 07777;
        if (!(buf = malloc((size_t)st.st_size + 1)))
                return NULL;
        while (got < (size_t)st.st_size) {
                ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

                if (n <= 0)
                        break;
                got += (size_t)n;
        }
        buf[got] = '\0';
        return buf;
}

static struct json_object *parse_settings(const char *text, char *why, size_t size)
{
        struct json_tokener *tok = json_tokener_new();
        struct json_object *root;
        size_t len = strlen(text), end;

        if (!tok)
                return NULL;
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
        root = json_tokener_parse_ex(tok, text, (int)len);
        end = json_tokener_get_parse_end(tok);
        if (!root)
                snprintf(why, size, "not valid JSON (%s at byte %zu)", json_tokener_error_desc(json_tokener_get_error(tok)), end);
        json_tokener_free(tok);
        if (root && strspn(text + end, " \t\r\n") != len - end) {
                snprintf(why, size, "not valid JSON (trailing bytes at byte %zu)", end);
                json_object_put(root);
                return NULL;
        }
        if (root && !json_object_is_type(root, json_type_object)) {
                snprintf(why, size, "not a JSON object");
                json_object_put(root);
                return NULL;
        }
        return root;
}

/* @parent's object @key, made when absent; NULL when it is there but not an object. */
static struct json_object *object_at(struct json_object *parent, const char *key, json_type type)
{
        struct json_object *v;

        if (json_object_object_get_ex(parent, key, &v))
                return json_object_is_type(v, type) ? v : NULL;
        v = type == json_type_array ? json_object_new_array() : json_object_new_object();
        if (!v || json_object_object_add(parent, key, v) < 0)
                return NULL;
        return v;
}

/* A hook entry is sbx's when its command runs an sbx-hook. */
static bool ours(struct json_object *hook)
{
        struct json_object *cmd;

        return json_object_is_type(hook, json_type_object) && json_object_object_get_ex(hook, "command", &cmd) &&
               json_object_is_type(cmd, json_type_string) && strstr(json_object_get_string(cmd), "sbx-hook") != NULL;
}

/* hooks.EVENT: sbx's hook replaced where it is, else a new {matcher, hooks:[it]}. */
static int merge_hook(struct json_object *root, const struct target *t, struct json_object *hook)
{
        struct json_object *hooks = object_at(root, "hooks", json_type_object), *list, *entry, *inner;

        if (!hooks || !(list = object_at(hooks, t->event, json_type_array)))
                return -EINVAL;
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                struct json_object *e = json_object_array_get_idx(list, i), *hs;

                if (!json_object_is_type(e, json_type_object) || !json_object_object_get_ex(e, "hooks", &hs) ||
                    !json_object_is_type(hs, json_type_array))
                        continue;
                for (size_t j = 0; j < json_object_array_length(hs); j++)
                        if (ours(json_object_array_get_idx(hs, j)))
                                return json_object_array_put_idx(hs, j, hook) < 0 ? -ENOMEM : 0;
        }
        if (!(entry = json_object_new_object()) || json_object_array_add(list, entry) < 0)
                return -ENOMEM;
        if (json_object_object_add(entry, "matcher", json_object_new_string(t->matcher)) < 0 ||
            !(inner = json_object_new_array()) || json_object_object_add(entry, "hooks", inner) < 0)
                return -ENOMEM;
        return json_object_array_add(inner, hook) < 0 ? -ENOMEM : 0;
}

static struct json_object *hook_object(const struct hook_config *c, const struct target *t, const char *self)
{
        _cleanup_free_ char *args = NULL, *cmd = NULL;
        struct json_object *h = json_object_new_object();

        if (!h)
                return NULL;
        if (asprintf(&args, "--harness %s%s%s%s", hook_harness_name(c->harness), c->profile ? " --profile " : "",
                     c->profile ? c->profile : "", c->rewrite ? " --rewrite" : "") < 0)
                args = NULL;
        if (!args || !(cmd = shell_command(self, args))) {
                json_object_put(h);
                return NULL;
        }
        json_object_object_add(h, "type", json_object_new_string("command"));
        json_object_object_add(h, "command", json_object_new_string(cmd));
        json_object_object_add(h, "timeout", json_object_new_int(t->timeout));
        if (c->harness == HOOK_CLAUDE) {
                /* A crash, a timeout or bad JSON blocks the call (the default,
                 * "continue", would run it). */
                json_object_object_add(h, "onFailure", json_object_new_string("block"));
                json_object_object_add(h, "statusMessage", json_object_new_string("sbx policy"));
        } else if (c->harness == HOOK_GEMINI) {
                json_object_object_add(h, "name", json_object_new_string("sbx"));
        }
        return h;
}

/* Claude Code: the shell prefix that jails every Bash call, and no way around it. */
static int merge_claude(const struct hook_config *c, struct json_object *root, const char *self)
{
        struct json_object *env = object_at(root, "env", json_type_object);
        struct json_object *sandbox = object_at(root, "sandbox", json_type_object);
        _cleanup_free_ char *dir = strdup(self), *prefix = NULL;

        if (!env || !sandbox || !dir)
                return -EINVAL;
        if (!c->rewrite) {
                if (asprintf(&prefix, "%s/sbx-shell-prefix", dirname(dir)) < 0)
                        return -ENOMEM;
                json_object_object_add(env, "CLAUDE_CODE_SHELL_PREFIX", json_object_new_string(prefix));
                if (c->profile)
                        json_object_object_add(env, "SBX_PROFILE", json_object_new_string(c->profile));
        }
        json_object_object_add(sandbox, "allowUnsandboxedCommands", json_object_new_boolean(0));
        return 0;
}

/* Writes @text over @path in one rename: a temporary file beside it, fsync'd. */
static int replace(const char *path, const char *text, mode_t mode)
{
        _cleanup_free_ char *tmp = NULL;
        size_t len = strlen(text);
        int fd, r = 0;

        if (asprintf(&tmp, "%s.sbx-XXXXXX", path) < 0)
                return -ENOMEM;
        if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
                return -errno;
        if (fchmod(fd, mode) < 0 || write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 || fsync(fd) < 0)
                r = -errno ? -errno : -EIO;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0)
                unlink(tmp);
        return r;
}

static int settings_path(const struct target *t, const char *project, char *out, size_t size, bool *mkdir_dir)
{
        const struct passwd *pw = getpwuid(getuid());
        const char *base = project ? project : pw ? pw->pw_dir : NULL;
        char dir[PATH_MAX];

        if (!base || base[0] != '/')
                return -EINVAL;
        if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", base, t->dir) >= sizeof(dir))
                return -ENAMETOOLONG;
        *mkdir_dir = mkdir(dir, 0700) == 0;
        if (!*mkdir_dir && errno != EEXIST)
                return -errno;
        return (size_t)snprintf(out, size, "%s/%s", dir, t->file) >= size ? -ENAMETOOLONG : 0;
}

/* @path lies under @root (both canonical). */
static bool under(const char *path, const char *root)
{
        size_t n = strlen(root);

        return strcmp(root, "/") == 0 || (strncmp(path, root, n) == 0 && path[n] == '/');
}

/* Where to write: @path itself, or where it points when it is a symbolic link (a
 * dotfile manager's) that stays inside the project (or your home).  A link out of it
 * -- a cloned repository's .claude/settings.json pointing at another file of yours,
 * or a .claude that is a link -- would have sbx-hook rewrite a file nobody asked it
 * to: refused, as is a dangling one (writing would replace the link, or make a file
 * where it points). */
static int settings_target(const char *project, char *path, size_t size, char *why, size_t wsize)
{
        const struct passwd *pw = getpwuid(getuid());
        _cleanup_free_ char *dir = strdup(path), *root = NULL, *real_dir = NULL, *real = NULL;
        struct stat st;

        if (!dir)
                return -ENOMEM;
        root = realpath(project ? project : pw ? pw->pw_dir : "/", NULL);
        real_dir = realpath(dirname(dir), NULL);
        if (!root || !real_dir) {
                snprintf(why, wsize, "cannot resolve its directory: %s", strerror(errno));
                return -errno;
        }
        if (!under(real_dir, root)) {
                snprintf(why, wsize, "its directory is a symbolic link to '%s', outside '%s': not followed", real_dir, root);
                return -EPERM;
        }
        if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
                return 0;
        if (!(real = realpath(path, NULL))) {
                snprintf(why, wsize, "a symbolic link to nothing (%s): not followed; remove it, or make its target first",
                         strerror(errno));
                return -ENOENT;
        }
        if (!under(real, root)) {
                snprintf(why, wsize, "a symbolic link to '%s', outside '%s': not followed (merge into that file by hand, or replace the link)",
                         real, root);
                return -EPERM;
        }
        if ((size_t)snprintf(path, size, "%s", real) >= size)
                return -ENAMETOOLONG;
        return 0;
}

int hook_install(const struct hook_config *c, const char *project, const char *self)
{
        const struct target *t = &targets[c->harness];
        _cleanup_free_ char *old = NULL;
        struct json_object *root, *hook;
        char path[PATH_MAX], why[256] = "";
        const char *text;
        mode_t mode = 0644;
        bool missing, made;
        int r;

        if (c->harness == HOOK_OPENCODE)
                return fail("opencode", "has no settings file to merge into",
                            "copy contrib/opencode/sbx.js to .opencode/plugins/ or ~/.config/opencode/plugins/");
        if (project && project[0] != '/')
                return fail(project, "--project needs an absolute directory", NULL);
        if ((r = settings_path(t, project, path, sizeof(path), &made)) < 0)
                return fail(project ? project : "~", strerror(-r), "give --project an existing directory");
        if (settings_target(project, path, sizeof(path), why, sizeof(why)) < 0)
                return fail(path, why, "nothing was written");
        old = read_settings(path, &missing, &mode, why, sizeof(why));
        if (!old && !missing)
                return fail(path, why, "nothing was written");
        root = old ? parse_settings(old, why, sizeof(why)) : json_object_new_object();
        if (!root)
                return fail(path, why[0] ? why : "out of memory", "fix or move it, then run again; nothing was written");
        hook = hook_object(c, t, self);
        r = hook ? merge_hook(root, t, hook) : -ENOMEM;
        if (r == 0 && c->harness == HOOK_CLAUDE) {
                hook = hook_object(c, &claude_post, self);
                r = hook ? merge_hook(root, &claude_post, hook) : -ENOMEM;
        }
        if (r == 0 && c->harness == HOOK_CLAUDE)
                r = merge_claude(c, root, self);
        if (r < 0) {
                json_object_put(root);
                return fail(path, r == -EINVAL ? "'hooks', 'env' or 'sandbox' is there but not of the expected type" : strerror(-r),
                            "fix it by hand, then run again; nothing was written");
        }
        text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE);
        if (old && strlen(old) == strlen(text) + 1 && strncmp(old, text, strlen(text)) == 0) {
                printf("sbx-hook: %s already has sbx's hook: nothing changed\n", path);
                json_object_put(root);
                return 0;
        }
        r = replace(path, text, mode);
        json_object_put(root);
        if (r < 0)
                return fail(path, strerror(-r), "check the directory's permissions; the old file is unchanged");
        printf("sbx-hook: %s %s\n", missing ? "wrote" : "updated", path);
        return 0;
}
