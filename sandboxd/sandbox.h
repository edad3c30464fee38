/* SPDX-License-Identifier: MIT */
/* Supervision: the sandbox records and the state x event table that moves them.
 * Every side effect that leaves supervision (a bus reply, a signal to the jail, the
 * launcher's end, a timer, the journal) goes through struct sandbox_ops, which main.c
 * installs; so this module depends on nothing in sandboxd and tests/unit/test_sandbox.c
 * drives it event by event with recording fakes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/audit.h"
#include "../lib/error.h"
#include "../lib/jail.h"
#include "../lib/tier.h"

/* Owned by the other modules; supervision only holds and compares the pointers. */
struct client;
struct sd_bus_message;
struct sd_event_source;

enum sandbox_state {
        SB_STARTING, /* the launcher checks the request as the caller and builds the jail */
        SB_RUNNING,  /* the command runs */
        SB_STOPPING, /* asked to end (Kill, disconnect, shutdown); the launcher still lives */
        SB_EXITED,   /* the launcher is reaped; the record waits for Wait or its owner */
        SB_N_STATES,
};

enum sandbox_event {
        EV_ALLOWED,       /* launcher: the request passed every check; the jail starts */
        EV_REFUSED,       /* launcher: denied or failed before the jail started */
        EV_RESULT,        /* launcher: the command's fate */
        EV_LAUNCHER_GONE, /* launcher's pidfd: it exited */
        EV_TIMER,         /* the start deadline, or a stop's grace period, ran out */
        EV_DISCONNECT,    /* the owning client went away */
        EV_KILL,          /* Kill(id, SIGTERM or SIGKILL): the sandbox ends */
        EV_SIGNAL,        /* Kill(id, any other signal): passed on to the command */
        EV_SHUTDOWN,      /* sandboxd is stopping */
        EV_N_EVENTS,
};

/* What the launcher reports (launch.c sends it, as sandbox_event's @arg). */
struct launch_report {
        int type;                /* 1 decided, 2 result */
        bool allow, failed;
        char reason[1024];       /* a tier refusal's remedy makes it long */
        char workspace[4096];
        char tier[24];           /* the isolation tier chosen (decided reports), "" before */
        char substitutions[SBX_TIER_SUBS_TEXT_MAX]; /* what it substituted, "" for nothing */
        uint64_t argv_max;
        struct sbx_validation validation; /* the validators' verdict (decided reports) */
        int r;
        struct sbx_result res;
        struct sbx_error err;
};

struct sandbox_set;

struct sandbox {
        struct sandbox_set *set;
        char id[17];
        char path[80];
        enum sandbox_state state;
        struct client *owner;  /* NULL once it went away */
        uid_t uid;
        gid_t gid;
        pid_t caller_pid;
        char *profile;
        char **argv;
        char *workspace;
        char *tool_use_id, *session_id; /* the caller's tags, for the audit; NULL: none */
        uint64_t argv_max;
        uint64_t start_usec;   /* CLOCK_REALTIME */
        /* The launcher (launch.c's, released through ops->release). */
        pid_t launcher;
        int pidfd, ctl_fd;
        struct sd_event_source *pidfd_src, *ctl_src, *timer_src;
        int launcher_code, launcher_status; /* how it ended (waitid's si_code, si_status) */
        /* The bus's (api.c's, released through ops->release). */
        struct sd_bus_message *run_call;   /* Run, answered once the launcher decided */
        struct sd_bus_message *waiters[8]; /* Wait calls, answered at exit */
        size_t n_waiters;
        bool have_result, refused, failed;
        int kill_signal;              /* the last signal asked for, 0: none */
        struct sbx_result result;
        struct sbx_error error;
        char reason[1024];
        char tier[24], substitutions[SBX_TIER_SUBS_TEXT_MAX]; /* the launcher's, for the journal: "" none yet */
        struct sbx_validation validation; /* what the validators said, for the journal */
        struct sandbox *next, *prev;
};

/* The side effects supervision asks for; every one may be called in any state the
 * table says and must not feed an event back except where noted. */
struct sandbox_ops {
        /* The journal record of @ev for @sb, with @reason (or none). */
        void (*audit)(struct sandbox *sb, enum sbx_audit_event ev, const char *reason);
        /* Answers Run (if still unanswered); answers and drops every Wait; the owner's Exited. */
        void (*reply_run)(struct sandbox *sb);
        void (*reply_waiters)(struct sandbox *sb);
        void (*emit_exited)(struct sandbox *sb);
        /* Asks the launcher to send @sig to the jail's PID 1. */
        void (*signal_jail)(struct sandbox *sb, int sig);
        /* Kills the launcher itself (its jail's PID 1 dies with it). */
        void (*kill_launcher)(struct sandbox *sb);
        /* The launcher's pidfd polled readable: feeds its last reports (these come
         * back as events, nested), reaps it, closes its fds and sets
         * launcher_code/launcher_status. */
        void (*reap_launcher)(struct sandbox *sb);
        /* A launcher killed by a signal could not remove its cgroups. */
        void (*collect_cgroups)(void);
        /* Arms the one timer of @sb to fire EV_TIMER in @usec; 0: disarms it. */
        void (*timer)(struct sandbox *sb, uint64_t usec);
        /* Before @sb is freed: kills a launcher still there, drops its sources, fds and
         * bus messages. */
        void (*release)(struct sandbox *sb);
};

/* Every record, newest first, and what the caps count. */
struct sandbox_set {
        struct sandbox *head;
        size_t n_live;     /* not yet EXITED: what the caps count */
        size_t n_records;  /* all, EXITED ones kept for Wait included */
        uint64_t grace_ms; /* after SIGTERM, before SIGKILL: the policy's, kept current by main.c */
        const struct sandbox_ops *ops;
        void *userdata;    /* main.c's: the daemon */
};

/* Feeds @ev to @sb; @arg: the signal for EV_KILL/EV_SIGNAL, the launcher's report for
 * EV_ALLOWED/EV_REFUSED/EV_RESULT.  May free @sb (records nobody can Wait for). */
void sandbox_event(struct sandbox *sb, enum sandbox_event ev, const void *arg);
/* Kill(id, @sig): EV_KILL for SIGTERM and SIGKILL, EV_SIGNAL for any other. */
void sandbox_kill(struct sandbox *sb, int sig);
/* The row for (@s, @ev): its next state, or SB_N_STATES when the record is dropped. */
enum sandbox_state sandbox_next_state(enum sandbox_state s, enum sandbox_event ev);
struct sandbox *sandbox_find(struct sandbox_set *set, const char *id);
size_t sandboxes_of(const struct sandbox_set *set, uid_t uid);
/* A new record in STARTING, owned by @owner, with the start deadline armed. */
struct sandbox *sandbox_new(struct sandbox_set *set, struct client *owner);
void sandbox_free(struct sandbox *sb);
const char *sandbox_state_name(enum sandbox_state s);
const char *sandbox_event_name(enum sandbox_event ev);
