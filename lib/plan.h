/* SPDX-License-Identifier: MIT */
/* The plan: everything a jail will be, resolved before clone and immutable after.
 * The CLI (and later YAML profiles) fill it; the jail stages only read it, so they can
 * be tested with hand-built plans. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

enum sbx_net {
        SBX_NET_NONE, /* new network namespace with only lo, up */
        SBX_NET_HOST, /* the host's network namespace */
};

enum sbx_mount_kind {
        SBX_MOUNT_RO,      /* read-only bind, nosuid,nodev */
        SBX_MOUNT_RW,      /* read-write bind, nosuid,nodev */
        SBX_MOUNT_TMPFS,   /* private tmpfs of `size` bytes */
        SBX_MOUNT_SYMLINK, /* a symlink at dest pointing to source, as on the host */
        SBX_MOUNT_COPY,    /* a small system file copied into the read-only root */
};

/* The child works with fixed arrays (no allocation after clone). */
#define SBX_MAX_MOUNTS 256

struct sbx_mount {
        enum sbx_mount_kind kind;
        char *source;  /* host path (binds), link target (symlinks), NULL (tmpfs) */
        char *dest;    /* absolute, normalized path inside the jail */
        uint64_t size; /* tmpfs size in bytes */
        bool optional; /* skipped when the host source does not exist */
        bool system;   /* part of the built-in system view, not asked for by the caller */
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
};

struct sbx_limits {
        uint64_t timeout_ms;  /* 0: none */
        uint64_t memory;      /* bytes, 0: none */
        uint64_t pids;        /* 0: none */
        uint64_t cpu_seconds; /* RLIMIT_CPU, 0: none */
        uint64_t nofile;      /* RLIMIT_NOFILE, 0: inherit */
        bool memory_explicit; /* asked for by the caller: cannot be weakened */
        bool pids_explicit;
};

struct sbx_plan {
        char *name;           /* the profile this plan came from */
        char **argv;          /* NULL-terminated */
        char *workspace;      /* resolved absolute host path, bound rw at the same path */
        char *hostname;
        enum sbx_net net;
        struct sbx_mount *mounts;
        size_t n_mounts;
        char **env; /* "NAME=VALUE", the jail's whole environment */
        size_t n_env;
        struct sbx_limits limits;
        unsigned optional; /* enum sbx_harden bits that may be weakened */
        uid_t uid;         /* the caller */
        gid_t gid;
        bool userns;       /* not privileged: jail inside a user namespace */
};

void sbx_plan_init(struct sbx_plan *p);
void sbx_plan_done(struct sbx_plan *p);

int sbx_plan_add_mount(struct sbx_plan *p, enum sbx_mount_kind kind, const char *source,
                       const char *dest, uint64_t size, struct sbx_error *e);
/* Sets NAME=VALUE, replacing an earlier NAME. */
int sbx_plan_set_env(struct sbx_plan *p, const char *name, const char *value, struct sbx_error *e);
const char *sbx_plan_get_env(const struct sbx_plan *p, const char *name);

/* The built-in `workspace` plan: system binds, minimal /etc, private /tmp, base
 * environment, default limits.  The workspace and argv are the caller's to set. */
int sbx_plan_default_workspace(struct sbx_plan *p, struct sbx_error *e);

void sbx_plan_to_json(const struct sbx_plan *p, FILE *f);

/* A path is acceptable as a jail destination: absolute, no "." or ".." components, no
 * empty components, not "/" itself. */
bool sbx_path_is_normal(const char *path);
