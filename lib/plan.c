/* SPDX-License-Identifier: MIT */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "json.h"

void sbx_plan_init(struct sbx_plan *p)
{
        *p = (struct sbx_plan){
                .name = NULL,
                .net = SBX_NET_NONE,
                .uid = getuid(),
                .gid = getgid(),
        };
}

static void strv_free(char **v, size_t n)
{
        for (size_t i = 0; v && i < n; i++)
                free(v[i]);
        free(v);
}

void sbx_plan_done(struct sbx_plan *p)
{
        for (size_t i = 0; i < p->n_mounts; i++) {
                free(p->mounts[i].source);
                free(p->mounts[i].dest);
                for (size_t j = 0; j < p->mounts[i].n_files; j++)
                        closep(&p->mounts[i].files[j].fd);
                free(p->mounts[i].files);
        }
        free(p->mounts);
        strv_free(p->env, p->n_env);
        /* argv belongs to the caller (it points into main's argv). */
        free(p->name);
        free(p->workspace);
        free(p->home);
        free(p->home_real);
        free(p->hostname);
        free(p->tool_use_id);
        free(p->session_id);
        free(p->workdir);
        sbx_strv_free(&p->roots_ro);
        sbx_strv_free(&p->roots_rw);
        sbx_strv_free(&p->exec_allow);
        sbx_strv_free(&p->hide);
        sbx_netrules_free(&p->net_rules);
        sbx_netrules_free(&p->net_site);
        *p = (struct sbx_plan){ 0 };
}

bool sbx_path_is_normal(const char *path)
{
        if (!path || path[0] != '/' || path[1] == '\0')
                return false;
        if (strlen(path) >= 4096)
                return false;
        for (const char *c = path; *c; c++) {
                /* Each component starts after a '/': empty, "." and ".." are refused so
                 * that the path names exactly one place, without resolution. */
                if (*c != '/')
                        continue;
                const char *n = c + 1;
                if (*n == '/' || *n == '\0')
                        return false;
                if (n[0] == '.' && (n[1] == '/' || n[1] == '\0'))
                        return false;
                if (n[0] == '.' && n[1] == '.' && (n[2] == '/' || n[2] == '\0'))
                        return false;
        }
        return true;
}

const char *sbx_net_name(enum sbx_net n)
{
        return n == SBX_NET_HOST ? "host" : n == SBX_NET_FILTERED ? "filtered" : "none";
}

int sbx_plan_add_mount(struct sbx_plan *p, enum sbx_mount_kind kind, const char *source,
                       const char *dest, uint64_t size, struct sbx_error *e)
{
        struct sbx_mount *m;

        if (!sbx_path_is_normal(dest))
                return sbx_error_set(e, SBX_STAGE_PLAN, EINVAL, "", dest,
                                     "mount destination must be an absolute path without '.', "
                                     "'..' or empty components, and not '/'");
        if (p->n_mounts >= SBX_MAX_MOUNTS) {
                sbx_error_set(e, SBX_STAGE_PLAN, E2BIG, "", dest, "more than %d mounts", SBX_MAX_MOUNTS);
                sbx_error_hint(e, "each repository in the workspace has its git state and its harnesses' "
                                         "configuration guarded by mounts: name a narrower --workspace (one project)");
                return -E2BIG;
        }
        m = reallocarray(p->mounts, p->n_mounts + 1, sizeof(*m));
        if (!m)
                return sbx_error_set(e, SBX_STAGE_PLAN, ENOMEM, "", dest, "out of memory");
        p->mounts = m;
        m = &p->mounts[p->n_mounts];
        *m = (struct sbx_mount){ .kind = kind, .size = size };
        m->dest = strdup(dest);
        m->source = source ? strdup(source) : NULL;
        if (!m->dest || (source && !m->source)) {
                free(m->dest);
                free(m->source);
                return sbx_error_set(e, SBX_STAGE_PLAN, ENOMEM, "", dest, "out of memory");
        }
        p->n_mounts++;
        return 0;
}

const char *sbx_plan_get_env(const struct sbx_plan *p, const char *name)
{
        size_t len = strlen(name);

        for (size_t i = 0; i < p->n_env; i++)
                if (strncmp(p->env[i], name, len) == 0 && p->env[i][len] == '=')
                        return p->env[i] + len + 1;
        return NULL;
}

bool sbx_mount_is_shm(const struct sbx_mount *m)
{
        return m->kind == SBX_MOUNT_TMPFS && strcmp(m->dest, SBX_SHM_PATH) == 0;
}

uint64_t sbx_plan_shm_size(const struct sbx_plan *p)
{
        uint64_t size = SBX_SHM_DEFAULT_SIZE;

        for (size_t i = 0; i < p->n_mounts; i++)
                if (sbx_mount_is_shm(&p->mounts[i]))
                        size = p->mounts[i].size;
        return size;
}

int sbx_plan_set_env(struct sbx_plan *p, const char *name, const char *value, struct sbx_error *e)
{
        size_t len = strlen(name);
        _cleanup_free_ char *entry = NULL;
        char **v;

        if (asprintf(&entry, "%s=%s", name, value) < 0)
                return sbx_error_set(e, SBX_STAGE_PLAN, ENOMEM, "", name, "out of memory");
        for (size_t i = 0; i < p->n_env; i++)
                if (strncmp(p->env[i], name, len) == 0 && p->env[i][len] == '=') {
                        /* A value may be a secret (a token passed with --env or over
                         * the bus), and sandboxd's heap is what later launchers fork. */
                        explicit_bzero(p->env[i], strlen(p->env[i]));
                        free(p->env[i]);
                        p->env[i] = TAKE_PTR(entry);
                        return 0;
                }
        /* Keep one NULL slot at the end: the child passes p->env straight to execve. */
        v = reallocarray(p->env, p->n_env + 2, sizeof(*v));
        if (!v)
                return sbx_error_set(e, SBX_STAGE_PLAN, ENOMEM, "", name, "out of memory");
        p->env = v;
        p->env[p->n_env++] = TAKE_PTR(entry);
        p->env[p->n_env] = NULL;
        return 0;
}

static const char *mount_kind_name(enum sbx_mount_kind k)
{
        switch (k) {
        case SBX_MOUNT_RO: return "ro";
        case SBX_MOUNT_RW: return "rw";
        case SBX_MOUNT_TMPFS: return "tmpfs";
        case SBX_MOUNT_SYMLINK: return "symlink";
        case SBX_MOUNT_COPY: return "copy";
        case SBX_MOUNT_TEXT: return "text";
        case SBX_MOUNT_MASK: return "mask";
        case SBX_MOUNT_STATE: return "state";
        }
        return "?";
}

static void json_u64_or_null(FILE *f, uint64_t v)
{
        if (v)
                fprintf(f, "%llu", (unsigned long long)v);
        else
                fputs("null", f);
}

/* ,"name":[...] (or just [...] without a name) */
void sbx_json_strv(FILE *f, const char *name, const struct sbx_strv *l)
{
        if (name)
                fprintf(f, ",\"%s\":", name);
        fputc('[', f);
        for (size_t i = 0; i < l->n; i++) {
                fputs(i ? "," : "", f);
                sbx_json_string(f, l->v[i]);
        }
        fputc(']', f);
}

void sbx_plan_to_json(const struct sbx_plan *p, const struct sbx_plan_forecast *fc, const struct sbx_rlimit_key *rlimits,
                      FILE *f)
{
        sbx_plan_to_json_fields(p, fc, rlimits, f);
        fputs("}\n", f);
}

void sbx_plan_to_json_fields(const struct sbx_plan *p, const struct sbx_plan_forecast *fc,
                             const struct sbx_rlimit_key *rlimits, FILE *f)
{
        int abi = fc->landlock_abi;

        fputs("{\"profile\":", f);
        sbx_json_string(f, p->name);
        fputs(",\"argv\":[", f);
        for (size_t i = 0; p->argv && p->argv[i]; i++) {
                fputs(i ? "," : "", f);
                sbx_json_string(f, p->argv[i]);
        }
        fputs("],\"mode\":", f);
        sbx_json_string(f, p->userns ? "userns" : "root");
        fprintf(f, ",\"uid\":%u,\"gid\":%u", (unsigned)p->uid, (unsigned)p->gid);
        /* Who the command is inside, where that is not the caller (identity.h). */
        if (p->root_userns)
                fprintf(f, ",\"uid_inside\":%u,\"gid_inside\":%u", SBX_ROOT_INSIDE_ID, SBX_ROOT_INSIDE_ID);
        fputs(",\"workspace\":", f);
        sbx_json_string(f, p->workspace);
        fputs(",\"workspace_mode\":", f);
        sbx_json_string(f, p->workspace_mode == SBX_WS_RW ? "rw" : p->workspace_mode == SBX_WS_RO ? "ro" : "none");
        fputs(",\"cwd\":", f);
        sbx_json_string(f, p->workdir ? p->workdir : p->workspace_mode != SBX_WS_NONE && p->workspace ? p->workspace : "/");
        fputs(",\"hostname\":", f);
        sbx_json_string(f, p->hostname);
        fputs(",\"network\":", f);
        sbx_json_string(f, sbx_net_name(p->net));
        if (p->net == SBX_NET_FILTERED) {
                fputs(",\"network_rules\":{", f);
                sbx_netrules_to_json(f, &p->net_rules);
                fprintf(f, ",\"localhost\":{\"connect\":[");
                for (size_t i = 0; i < p->n_net_connect; i++)
                        fprintf(f, "%s%u", i ? "," : "", p->net_connect[i]);
                fputs("],\"publish\":[", f);
                for (size_t i = 0; i < p->n_net_publish; i++)
                        fprintf(f, "%s%u", i ? "," : "", p->net_publish[i]);
                fputs("]}", f);
                if (p->net_site.n) {
                        fputs(",\"site\":{", f);
                        sbx_netrules_to_json(f, &p->net_site);
                        fputc('}', f);
                }
                fputc('}', f);
        }
        fputs(",\"namespaces\":[\"pid\",\"mount\"", f);
        if (!(p->ns_shared & SBX_NS_SHARE_UTS))
                fputs(",\"uts\"", f);
        if (!(p->ns_shared & SBX_NS_SHARE_IPC))
                fputs(",\"ipc\"", f);
        if (!(p->ns_shared & SBX_NS_SHARE_CGROUP))
                fputs(",\"cgroup\"", f);
        if (sbx_plan_own_netns(p))
                fputs(",\"net\"", f);
        if (p->userns || p->root_userns)
                fputs(",\"user\"", f);
        fputs("],\"mounts\":[", f);
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];

                fprintf(f, "%s{\"type\":\"%s\",\"dest\":", i ? "," : "", mount_kind_name(m->kind));
                sbx_json_string(f, m->dest);
                if (m->source) {
                        fputs(m->kind == SBX_MOUNT_SYMLINK ? ",\"target\":" : m->kind == SBX_MOUNT_TEXT ? ",\"text\":" : ",\"source\":", f);
                        sbx_json_string(f, m->source);
                }
                if (m->kind == SBX_MOUNT_TMPFS || m->kind == SBX_MOUNT_STATE)
                        fprintf(f, ",\"size\":%llu", (unsigned long long)m->size);
                if (m->kind == SBX_MOUNT_STATE) {
                        fputs(",\"files\":[", f);
                        for (size_t j = 0; j < m->n_files; j++) {
                                fputs(j ? "," : "", f);
                                sbx_json_string(f, m->files[j].name);
                        }
                        fputc(']', f);
                }
                fputc('}', f);
        }
        fputs("],\"env\":[", f);
        for (size_t i = 0; i < p->n_env; i++) {
                fputs(i ? "," : "", f);
                sbx_json_string(f, p->env[i]);
        }
        fputs("],\"limits\":{\"timeout_ms\":", f);
        json_u64_or_null(f, p->limits.timeout_ms);
        fputs(",\"memory\":", f);
        json_u64_or_null(f, p->limits.memory);
        fputs(",\"pids\":", f);
        json_u64_or_null(f, p->limits.pids);
        for (const struct sbx_rlimit_key *k = rlimits; k->key; k++) {
                if (k->resource < 0 || k->resource >= SBX_RLIMIT_MAX)
                        continue;
                fprintf(f, ",\"%s\":", k->key);
                json_u64_or_null(f, p->limits.rlimit[k->resource]);
        }
        fprintf(f, ",\"enforced\":{\"memory\":%s,\"pids\":%s},\"cgroup\":\"%s\"", fc->memory ? "true" : "false",
                fc->pids ? "true" : "false", fc->cgroup_version == 2 ? "v2" : fc->cgroup_version == 1 ? "v1" : "none");
        fputs("},\"optional\":[", f);
        fputs(p->optional & SBX_HARDEN_LANDLOCK ? "\"landlock\"" : "", f);
        fputs(p->optional & SBX_HARDEN_CGROUP ? (p->optional & SBX_HARDEN_LANDLOCK ? ",\"cgroup\"" : "\"cgroup\"") : "", f);
        if (p->optional & SBX_HARDEN_MDWE)
                fputs(p->optional & (SBX_HARDEN_LANDLOCK | SBX_HARDEN_CGROUP) ? ",\"memory_deny_write_execute\""
                                                                             : "\"memory_deny_write_execute\"", f);
        fprintf(f, "],\"proc\":%s,\"capabilities\":\"0x%llx\"", p->no_proc ? "false" : "true", (unsigned long long)p->caps);
        fprintf(f, ",\"memory_deny_write_execute\":%s", p->mdwe ? "true" : "false");
        sbx_json_strv(f, "bind_roots_ro", &p->roots_ro);
        sbx_json_strv(f, "bind_roots_rw", &p->roots_rw);
        fputs(",\"exec\":", f);
        if (p->exec_restricted)
                sbx_json_strv(f, NULL, &p->exec_allow);
        else
                fputs("\"any\"", f);
        /* What mount.c makes of /dev in every jail, whatever the mounts list. */
        fputs(",\"dev\":{\"devices\":[", f);
        for (size_t i = 0; fc->dev_nodes[i]; i++) {
                fputs(i ? "," : "", f);
                sbx_json_string(f, fc->dev_nodes[i]);
        }
        fprintf(f, "],\"pts\":true,\"shm\":{\"dest\":\"" SBX_SHM_PATH "\",\"size\":%llu,\"noexec\":%s}}",
                (unsigned long long)sbx_plan_shm_size(p), p->exec_restricted ? "true" : "false");
        /* Landlock: applied where the kernel has it; where not, the run fails unless
         * the plan lets it be optional. */
        fprintf(f, ",\"landlock\":{\"applied\":%s,\"optional\":%s,\"abi\":%d,\"exec_allowlist\":", abi >= 1 ? "true" : "false",
                p->optional & SBX_HARDEN_LANDLOCK ? "true" : "false", abi);
        if (p->exec_restricted)
                fprintf(f, "%zu}", p->exec_allow.n);
        else
                fputs("null}", f);
}

bool sbx_is_env_name(const char *s, size_t len)
{
        if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
                return false;
        for (size_t i = 0; i < len; i++)
                if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
                      (s[i] >= '0' && s[i] <= '9')))
                        return false;
        return true;
}

bool sbx_is_hostname(const char *s)
{
        size_t len = strlen(s);

        if (len == 0 || len > 64 || s[0] == '-' || s[0] == '.')
                return false;
        for (; *s; s++)
                if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                      *s == '-' || *s == '.'))
                        return false;
        return true;
}
