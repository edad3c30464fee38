/* SPDX-License-Identifier: MIT */
/* Every option a caller may give to narrow a profile, in one table: its command-line
 * flag, its key in sandboxd's Run options (and the D-Bus type that follows from its
 * kind), its key under a profile's `limits:`, how its value is read, its bounds, and
 * where it lands in a plan.  sbx-run's parser, sandboxd's request reader, sbx-run
 * --daemon's request writer, the profile schema and resolve.c's narrowing all walk it,
 * so a new option is one row here plus its man page lines (nsjail's single
 * config.proto; nspawn's gperf table). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/error.h"
#include "../lib/plan.h"

/* How a value is read, and so its D-Bus type: numbers are 't', everything else 's'. */
enum sbx_opt_kind {
        SBX_OPT_DURATION,  /* uint64_t ms: "30", "1.5", "10m"; on the bus in ms */
        SBX_OPT_SIZE,      /* uint64_t bytes: "512M"; on the bus in bytes */
        SBX_OPT_MEMORY,    /* a size, or in text a share of RAM: "50%" */
        SBX_OPT_COUNT,     /* uint64_t */
        SBX_OPT_HOSTNAME,  /* char * */
        SBX_OPT_NET,       /* enum sbx_net: none, filtered, host */
        SBX_OPT_NET_DENY,  /* an egress rule (lib/netrule.h) denied on top of the profile's
                            * (repeats) */
        SBX_OPT_BIND_RO,   /* PATH[:DEST], a read-only bind (repeats) */
        SBX_OPT_BIND_RW,   /* PATH[:DEST], a read-write bind (repeats) */
        SBX_OPT_TMPFS,     /* DEST[:SIZE] (repeats) */
        SBX_OPT_ENV,       /* NAME=VALUE (repeats); on the command line NAME alone passes
                            * the caller's own value */
        SBX_OPT_WORKSPACE, /* a directory (sandboxd takes it as an fd, not an option) */
        SBX_OPT_TAG,       /* char *: a harness's id (SBX_TAG_MAX bytes of SBX_TAG_CHARS),
                            * carried into the audit record and --json only */
        SBX_OPT_WORKDIR,   /* char *: where the command starts, an absolute jail path;
                            * grants nothing (the jail could cd there itself) */
};

/* An attribution tag: a harness's tool_use_id or session_id, as ops will type it into
 * journalctl; nothing a shell, a journal field or JSON would read twice. */
#define SBX_TAG_MAX 128
#define SBX_TAG_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@+-"
bool sbx_is_tag(const char *s);

/* The accepted range of a number, in the unit it is stored in. */
struct sbx_bounds {
        uint64_t min, max;
};

/* The bounds of the limits a site also caps (policy/site.c's max_time, max_memory,
 * max_pids), written once here for the option, the profile key and the ceiling. */
#define SBX_PIDS_MAX 4194304 /* the kernel's PID_MAX_LIMIT */
#define SBX_BOUNDS_TIMEOUT_MS { 1, 1000ull * 86400 * 365 }
#define SBX_BOUNDS_MEMORY { 1u << 20, UINT64_MAX }
#define SBX_BOUNDS_PIDS { 1, SBX_PIDS_MAX }
#define SBX_STR_(x) #x
#define SBX_STR(x) SBX_STR_(x)

struct sbx_option {
        const char *cli;     /* "timeout" for --timeout; NULL: not on the command line */
        const char *metavar; /* what --help shows after the flag */
        const char *help;    /* --help's description; '\n' between lines */
        const char *bus;     /* the Run options key; NULL: not a Run option */
        const char *limit;   /* the key under a profile's limits:; NULL: none */
        enum sbx_opt_kind kind;
        size_t offset;       /* into struct sbx_plan */
        bool rlimit;         /* a resource limit: offset is limits.rlimit[RLIMIT_X]
                              * (options.c's RLIMIT()), set by lib/privs.c and shown
                              * in --dry-run under its Run key */
        struct sbx_bounds bounds;
        const char *doc;     /* what a value looks like: "seconds, e.g. 30 or 1.5" */
        const char *example; /* a value, for the command line's hint: "30" */
        /* Limits: how a caller's value and the profile's are shown in a refusal. */
        const char *unit;
        uint64_t scale;
};

/* The table, and the number of rows. */
extern const struct sbx_option sbx_option_table[];
extern const size_t sbx_option_count;

/* What a caller asked for, from any of the three grammars: a plan that only narrows a
 * profile (limits 0 when not given, net only when given), plus which rows were given. */
struct sbx_ask {
        struct sbx_plan plan;
        uint64_t given; /* bit i: row i of the table was given */
};

void sbx_ask_init(struct sbx_ask *a);
void sbx_ask_done(struct sbx_ask *a);
bool sbx_ask_given(const struct sbx_ask *a, const struct sbx_option *o);

/* The rows by their command-line flag (without "--"), Run key, or limits key. */
const struct sbx_option *sbx_option_by_cli(const char *flag);
const struct sbx_option *sbx_option_by_bus(const char *key);
const struct sbx_option *sbx_option_by_limit(const char *key);
char sbx_option_bus_type(const struct sbx_option *o);
/* The row's resource (RLIMIT_X), or -1 when it is not a resource limit. */
int sbx_option_rlimit(const struct sbx_option *o);
/* The resource limits the table offers, keyed by their Run key in table order, for
 * lib/plan.h's JSON; the last one's key is NULL. */
void sbx_option_rlimit_keys(struct sbx_rlimit_key keys[static SBX_RLIMIT_MAX + 1]);
/* The row may be given more than once (the mounts, --net-deny's rules, --env): on the
 * command line as a repeated flag, on the bus as a repeated key or an 'as' array. */
bool sbx_option_repeats(const struct sbx_option *o);
/* The valid Run keys of @type, comma-separated, for a refusal's hint; 'a': those that
 * also take an array ('as'). */
void sbx_option_bus_keys(char type, char *buf, size_t size);

/* @value, a string from the command line or the bus, into @a.  A number is checked
 * against the row's bounds.  Given again, a row that does not repeat takes the new
 * value (the command line's last flag wins; sandboxd refuses a repeated key before
 * calling this).  0, or
 * -errno with @e (stage "options") saying what is wrong with which option and how to
 * write it, the option named as @name ("--memory", or "memory" on the bus). */
int sbx_option_set(struct sbx_ask *a, const struct sbx_option *o, const char *name, const char *value, struct sbx_error *e);
/* A number from the bus, in the row's unit. */
int sbx_option_set_u64(struct sbx_ask *a, const struct sbx_option *o, uint64_t value, struct sbx_error *e);

/* The row's number in @p (the number rows). */
uint64_t *sbx_option_u64(struct sbx_plan *p, const struct sbx_option *o);
uint64_t sbx_option_get_u64(const struct sbx_plan *p, const struct sbx_option *o);
/* The row's string in @p (the hostname and tag rows); NULL when not set. */
const char *sbx_option_get_str(const struct sbx_plan *p, const struct sbx_option *o);
