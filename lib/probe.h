/* SPDX-License-Identifier: MIT */
/* What this environment lets a jail be made of (containers: doc/ and sbx-run(1)
 * ISOLATION TIERS).  Launcher side, before clone: each namespace probe runs in a
 * child of its own (clone3 with the flags the jail would use), which tries the one
 * thing and exits, so a refusal, a seccomp kill or a stray mount stays in that
 * child.  Nothing is cached: a run probes again (a few forks, ~1 ms each). */
#pragma once

#include <stdbool.h>

enum sbx_probe_id {
        SBX_PROBE_USERNS,      /* P1: clone3(CLONE_NEWUSER) */
        SBX_PROBE_IDMAP,       /* P2: setgroups, uid_map, gid_map (AppArmor, CAP_SETFCAP) */
        SBX_PROBE_PROC,        /* P3: new mount + PID namespace, a fresh /proc */
        SBX_PROBE_NETNS,       /* P4: new network namespace, lo up */
        SBX_PROBE_PROPAGATION, /* P5: MS_REC|MS_PRIVATE on / */
        SBX_PROBE_PIVOT_ROOT,  /* P6: pivot_root into a tmpfs */
        SBX_PROBE_LANDLOCK,    /* P7: the Landlock ABI */
        SBX_PROBE_SECCOMP,     /* P8: a filter with SECCOMP_FILTER_FLAG_NEW_LISTENER */
        SBX_PROBE_CGROUP,      /* P9: a cgroup for the memory and pids limits can be made
                                * (value: the hierarchy's version) */
        SBX_PROBE_HOSTNAME,    /* P11: sethostname in a new UTS namespace (podman's seccomp
                                * profile refuses it without CAP_SYS_ADMIN) */
        SBX_PROBE_COUNT,
};

struct sbx_probe_result {
        int err;       /* 0: passed; a positive errno */
        char step[48]; /* the call that failed: "mount proc" */
        int value;     /* Landlock: the ABI version (0: none) */
};

/* P10: labels only, for naming the runtime in a remedy; nothing is decided on them. */
struct sbx_probe_labels {
        bool dockerenv;     /* /.dockerenv */
        bool containerenv;  /* /run/.containerenv (podman) */
        bool kubernetes;    /* a service account mount, or KUBERNETES_SERVICE_HOST */
        bool overlay_root;  /* / is an overlay mount */
        char container[32]; /* container= in PID 1's environment, when readable */
};

struct sbx_probe {
        /* The jail needs a user namespace of its own: not root, or a root without
         * CAP_SYS_ADMIN (a container's root). */
        bool userns;
        struct sbx_probe_result r[SBX_PROBE_COUNT];
        struct sbx_probe_labels labels;
};

/* Runs every probe. */
void sbx_probe_run(struct sbx_probe *pr);

/* Whether this process must build the jail in a user namespace (see above). */
bool sbx_probe_need_userns(void);

/* "userns", "idmap", "proc", ...: the probe's name in --doctor and --json. */
const char *sbx_probe_name(enum sbx_probe_id id);
/* "P1" ... "P9". */
const char *sbx_probe_tag(enum sbx_probe_id id);

/* The container runtime the labels point to: "docker", "podman", "kubernetes",
 * "lxc", "container" (some other), or "host". */
const char *sbx_probe_runtime(const struct sbx_probe_labels *l);
