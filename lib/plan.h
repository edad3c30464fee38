/* SPDX-License-Identifier: MIT */
/* The plan: everything a jail will be, resolved before clone and immutable after.
 * The CLI (and later YAML profiles) fill it; the jail stages only read it, so they can
 * be tested with hand-built plans. */
#pragma once

/* Who root's command is inside: nobody, which every system's passwd names. */
#define SBX_ROOT_INSIDE_ID 65534u

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "netrule.h"
#include "strv.h"

enum sbx_net {
        SBX_NET_NONE, /* new network namespace with only lo, up */
        SBX_NET_HOST, /* the host's network namespace */
        SBX_NET_FILTERED, /* its own namespace with only lo, where every connection and
                           * DNS question lands on the egress broker's listeners, which
                           * reach out for it by the plan's rules (lib/egress.h) */
};

enum sbx_mount_kind {
        SBX_MOUNT_RO,      /* read-only bind, nosuid,nodev */
        SBX_MOUNT_RW,      /* read-write bind, nosuid,nodev */
        SBX_MOUNT_TMPFS,   /* private tmpfs of `size` bytes */
        SBX_MOUNT_SYMLINK, /* a symlink at dest pointing to source, as on the host */
        SBX_MOUNT_COPY,    /* a small system file copied into the read-only root */
        SBX_MOUNT_TEXT,    /* a small file made in the read-only root holding `source` as
                            * its text (a filtered jail's /etc/resolv.conf) */
        SBX_MOUNT_MASK,    /* dest hidden: an empty read-only directory, or /dev/null */
        SBX_MOUNT_STATE,   /* a private tmpfs of `size` bytes holding copies of `files`, which
                            * the launcher gets back after the run (sbx_result.state_fds):
                            * the top of a git directory (policy/gitcommit.c) */
};

enum sbx_ws_mode {
        SBX_WS_RW,   /* the workspace bound read-write (the default) */
        SBX_WS_RO,   /* bound read-only */
        SBX_WS_NONE, /* not bound at all */
};

/* Namespaces a profile may leave shared with the host (pid and mount never are). */
enum sbx_ns_shared {
        SBX_NS_SHARE_IPC = 1u << 0,
        SBX_NS_SHARE_UTS = 1u << 1,
        SBX_NS_SHARE_CGROUP = 1u << 2,
};



/* The child works with fixed arrays (no allocation after clone). */
#define SBX_MAX_MOUNTS 1024
#define SBX_MAX_GROUPS 64
#define SBX_MAX_STATE 4 /* SBX_MOUNT_STATE mounts in one plan */
#define SBX_NET_LOCAL_MAX 16 /* network.localhost ports, each way */

/* A file copied into an SBX_MOUNT_STATE tmpfs before the command starts. */
struct sbx_state_file {
        char name[64]; /* in the tmpfs's top directory */
        int fd;        /* the host file, opened for reading as the caller; owned by the plan */
        mode_t mode;
};

struct sbx_mount {
        enum sbx_mount_kind kind;
        char *source;  /* host path (binds), link target (symlinks), NULL (tmpfs) */
        char *dest;    /* absolute, normalized path inside the jail */
        uint64_t size; /* tmpfs size in bytes */
        struct sbx_state_file *files; /* SBX_MOUNT_STATE: what it starts with */
        size_t n_files;
        bool optional; /* skipped when the host source does not exist */
        bool create;   /* a directory made (mode 0700, as the caller) when the host lacks it */
        bool git;      /* filesystem.git's: the workspace's git state, which a jail may have
                        * written; read-write inside a git directory, never executable under
                        * an allowlist */
        bool system;   /* part of the built-in system view, not asked for by the caller */
        bool caller;   /* asked for on the command line: must lie under the plan's roots */
        /* Filled by validation: what the canonical source path named when it was
         * checked; the child binds it only if it still names the same inode. */
        dev_t dev;
        ino_t ino;
        bool is_dir;
};

/* Hardening steps that may be declared optional; anything not optional that cannot be
 * applied is an error (fail closed). */
enum sbx_harden {
        SBX_HARDEN_LANDLOCK = 1u << 0,
        SBX_HARDEN_CGROUP = 1u << 1,
        SBX_HARDEN_MDWE = 1u << 2,
};

/* The kernel's resource limits (RLIM_NLIMITS); a plan may set any of them but
 * RLIMIT_CORE, which is always 0 (lib/privs.c). */
#define SBX_RLIMIT_MAX 16
/* A resource limit's key in --dry-run's JSON, where a plan's limits are shown; the
 * option table gives them, in its order (policy/options.h: sbx_option_rlimit_keys). */
struct sbx_rlimit_key {
        int resource;
        const char *key;
};

struct sbx_limits {
        uint64_t timeout_ms;  /* 0: none */
        uint64_t memory;      /* bytes, 0: none */
        uint64_t pids;        /* 0: none */
        /* setrlimit's, by resource (RLIMIT_CPU, RLIMIT_NOFILE...), 0: inherit; each
         * one the option table's row (policy/options.c), which names it. */
        uint64_t rlimit[SBX_RLIMIT_MAX];
        bool memory_explicit; /* asked for by the caller: cannot be weakened */
        bool pids_explicit;
};

struct sbx_plan {
        char *name;           /* the profile this plan came from */
        char **argv;          /* NULL-terminated */
        char *workspace;      /* resolved absolute host path, bound rw at the same path */
        char *home;           /* the caller's home (user database): never a workspace or a
                               * read-write bind, nor its dot-directories */
        char *home_real;      /* the same with every symlink followed, when that differs */
        char *hostname;
        /* The harness's tags (--tool-use-id, --session-id): for the audit record and
         * --json only; the jail never sees them. */
        char *tool_use_id, *session_id;
        char audit_id[17]; /* the run's SBX_ID, for the egress broker's records; "" none */
        enum sbx_net net;
        /* network: filtered: the profile's allow and deny rules with the caller's
         * --net-deny, and the site policy's, which a connection must pass as well
         * (its allow rules, where it has any, are a ceiling; its deny rules add). */
        struct sbx_netrules net_rules, net_site;
        /* network.localhost: host loopback ports the jail reaches at its own 127.0.0.1
         * and ::1 (connect), and jail ports the host reaches at its 127.0.0.1 and ::1
         * (publish); the profile's only, never the caller's. */
        uint16_t net_connect[SBX_NET_LOCAL_MAX], net_publish[SBX_NET_LOCAL_MAX];
        size_t n_net_connect, n_net_publish;
        struct sbx_mount *mounts;
        size_t n_mounts;
        char **env; /* "NAME=VALUE", the jail's whole environment */
        size_t n_env;
        struct sbx_limits limits;
        unsigned optional; /* enum sbx_harden bits that may be weakened */
        uid_t uid;         /* the caller */
        gid_t gid;
        bool userns;       /* not privileged: jail inside a user namespace */
        /* The command would be uid 0 on the host (root's, built as root): the system
         * view is idmapped so that root's files there are nobody's to it, and, with
         * no capability to keep, the command runs as SBX_ROOT_INSIDE_ID in the user
         * namespace that maps it to root (lib/identity.h).  Set at validation. */
        bool idmap_system;
        bool root_userns;
        /* sandboxd: uid, gid and groups are the caller's (from its socket), not this
         * process's; the command is switched to them with no capability. */
        bool run_as;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
        enum sbx_ws_mode workspace_mode;
        char *workdir;     /* where the command starts, a jail path; NULL: the workspace */
        unsigned ns_shared; /* enum sbx_ns_shared bits */
        bool no_proc;      /* no /proc in the jail */
        /* The landlock isolation tier (lib/tier.h): no namespace, the command forked
         * as it is under Landlock and seccomp (lib/jail-landlock.c). */
        bool no_namespaces;
        /* ... where the jail may read files the caller owns: no fd-based metadata call
         * either (fchmod, fchown, futimens, fsetxattr; lib/tier.c's metadata=none). */
        bool nons_no_fd_metadata;
        uint64_t caps;     /* capabilities the command keeps (bit N: capability N); 0: none */
        uint64_t sig_ignored; /* signals the caller ignores (bit N-1: signal N): the command
                               * starts with them ignored, as across execve; every other
                               * disposition is reset, sbx's own and the daemon's */
        /* Host roots under which the caller's --ro and --rw sources must resolve. */
        struct sbx_strv roots_ro, roots_rw;
        /* Set: only these files (canonical paths) may be executed, by Landlock; every
         * writable mount is noexec.  The command policy's allowlist, made kernel-enforced. */
        bool unix_broker;   /* connects answered by PID 1 (lib/broker.h); false: no unix
                             * socket but stream/seqpacket pairs */
        bool exec_restricted;
        struct sbx_strv exec_allow;
        /* Host sockets no jail may reach whatever it binds (sandboxd's own): validation
         * puts /dev/null over each wherever a bind carries it. */
        struct sbx_strv hide;
        /* No memory both writable and executable, none made executable once written:
         * PR_SET_MDWE in the command's process, and the seccomp filter's W^X rules. */
        bool mdwe;
};


void sbx_plan_init(struct sbx_plan *p);
/* "none", "host", "filtered". */
const char *sbx_net_name(enum sbx_net n);
/* The jail has a network namespace of its own (none, filtered). */
static inline bool sbx_plan_own_netns(const struct sbx_plan *p)
{
        return p->net != SBX_NET_HOST;
}
void sbx_plan_done(struct sbx_plan *p);

int sbx_plan_add_mount(struct sbx_plan *p, enum sbx_mount_kind kind, const char *source,
                       const char *dest, uint64_t size, struct sbx_error *e);
/* Sets NAME=VALUE, replacing an earlier NAME. */
int sbx_plan_set_env(struct sbx_plan *p, const char *name, const char *value, struct sbx_error *e);
const char *sbx_plan_get_env(const struct sbx_plan *p, const char *name);

/* /dev/shm is a private tmpfs in every jail (mount.c builds it with /dev), 64M unless
 * the plan has a tmpfs at exactly /dev/shm (a profile's filesystem.tmpfs, the caller's
 * --tmpfs /dev/shm:SIZE): that one sets its size, the last in plan order winning (the
 * caller's come after the profile's), and is not mounted a second time. */
#define SBX_SHM_PATH "/dev/shm"
#define SBX_SHM_DEFAULT_SIZE (64ull << 20)
bool sbx_mount_is_shm(const struct sbx_mount *m);
uint64_t sbx_plan_shm_size(const struct sbx_plan *p);

/* The read-only system view (/usr, /bin, /lib*, a minimal /etc), as system mounts
 * that validation resolves.  defaults.c. */
int sbx_plan_add_system_view(struct sbx_plan *p, struct sbx_error *e);
/* One host path of the system view, read-only at the same place, skipped where the
 * host lacks it (validation opens it). */
int sbx_plan_add_system_entry(struct sbx_plan *p, const char *path, struct sbx_error *e);
bool sbx_env_value_is_tame(const char *v);
uint64_t sbx_physical_memory(void);

/* What --dry-run adds from this host, facts the plan alone does not hold: filled by
 * sbx_plan_forecast() (forecast.c) without making anything. */
#define SBX_FORECAST_MAX_DEV 16
struct sbx_plan_forecast {
        int cgroup_version;  /* the hierarchy sbx would use: 2, 1, or 0 for none */
        bool memory, pids;   /* the limit will be enforced here */
        int landlock_abi;    /* 0: the kernel has no Landlock */
        const char *dev_nodes[SBX_FORECAST_MAX_DEV + 1]; /* what mount.c makes in /dev; NULL last */
};
void sbx_plan_forecast(const struct sbx_plan *p, struct sbx_plan_forecast *fc);

/* @rlimits: the resource limits shown under "limits" (null where not set), up to one
 * with a NULL key. */
void sbx_plan_to_json(const struct sbx_plan *p, const struct sbx_plan_forecast *fc, const struct sbx_rlimit_key *rlimits,
                      FILE *f);
/* The same object's fields, left open ("{...") for a caller to add to and close. */
void sbx_plan_to_json_fields(const struct sbx_plan *p, const struct sbx_plan_forecast *fc,
                             const struct sbx_rlimit_key *rlimits, FILE *f);
/* ,"name":["a","b"] (or just the array when @name is NULL). */
void sbx_json_strv(FILE *f, const char *name, const struct sbx_strv *l);

/* A path is acceptable as a jail destination: absolute, no "." or ".." components, no
 * empty components, not "/" itself. */
bool sbx_path_is_normal(const char *path);

/* A variable name: letters, digits and '_', not starting with a digit. */
bool sbx_is_env_name(const char *s, size_t len);
/* Up to 64 letters, digits, '-' and '.', not starting with '-' or '.'. */
bool sbx_is_hostname(const char *s);
