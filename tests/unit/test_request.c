/* SPDX-License-Identifier: MIT */
/* sandboxd's validation layer for untrusted Run requests: every setter at and beyond
 * each of its bounds, and options read through the same table as sbx-run's command
 * line (policy/options.c) into the same struct sbx_ask.  Each request ends with sbx_request_done(), also after a refusal, so
 * LeakSanitizer (this binary is built with ASan) checks every failure path. */
#include <errno.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../lib/cleanup.h"
#include "../../sandboxd/api.h"
#include "../../sandboxd/request.h"
#include "unit.h"

#define G "unit-request"

static struct sbx_error e;

/* A fresh error per call: sbx_error_set() keeps the first error it is given. */
static struct sbx_error *err(void)
{
        e = (struct sbx_error){ 0 };
        return &e;
}

/* A refusal: -@errnum, stage "request", and @word in the message. */
static int refused(int r, int errnum, const char *word)
{
        return r == -errnum && e.errnum == errnum && e.stage == SBX_STAGE_REQUEST && strstr(e.msg, word) != NULL;
}

static char *repeat(char c, size_t n)
{
        char *s = malloc(n + 1);

        if (!s)
                abort();
        memset(s, c, n);
        s[n] = '\0';
        return s;
}

/* A request that finish() accepts as it stands: a profile and a command. */
static void start(struct sbx_request *rq)
{
        sbx_request_init(rq);
        if (sbx_request_profile(rq, "workspace", err()) < 0 || sbx_request_arg(rq, "/bin/true", err()) < 0)
                abort();
}

static void test_profile(void)
{
        static const char *const bad[] = { "../../etc/x", "a/b", "", ".hidden", "..", "/etc/sbx/profiles/x", "a b" };
        struct sbx_request rq;
        char *name;
        int r;

        sbx_request_init(&rq);
        r = sbx_request_profile(&rq, "workspace", err());
        CHECK(G, "profile 'workspace' accepted", r == 0 && strcmp(rq.profile, "workspace") == 0);
        name = repeat('p', 64);
        r = sbx_request_profile(&rq, name, err());
        CHECK(G, "profile of 64 characters accepted", r == 0 && strcmp(rq.profile, name) == 0);
        free(name);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char what[80];

                sbx_request_init(&rq);
                r = sbx_request_profile(&rq, bad[i], err());
                snprintf(what, sizeof(what), "profile '%s' refused", bad[i]);
                CHECK(G, what, refused(r, EINVAL, "profile") && rq.profile[0] == '\0' && e.hint[0]);
                sbx_request_done(&rq);
        }
        name = repeat('p', 65);
        sbx_request_init(&rq);
        r = sbx_request_profile(&rq, name, err());
        CHECK(G, "profile of 65 characters refused", refused(r, EINVAL, "profile") && rq.profile[0] == '\0');
        sbx_request_done(&rq);
        free(name);
}

static void test_args(void)
{
        struct sbx_request rq;
        char *s;
        int r = 0;

        sbx_request_init(&rq);
        for (int i = 0; i < SBX_REQ_MAX_ARGS && r == 0; i++)
                r = sbx_request_arg(&rq, "a", err());
        CHECK(G, "4096 arguments accepted", r == 0 && rq.cmd.n == 4096);
        r = sbx_request_arg(&rq, "a", err());
        CHECK(G, "the 4097th argument refused", refused(r, E2BIG, "argv") && rq.cmd.n == 4096);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        s = repeat('x', SBX_REQ_MAX_STRING - 1);
        r = sbx_request_arg(&rq, s, err());
        CHECK(G, "a 131071-byte argument accepted", r == 0 && rq.cmd.n == 1 && rq.bytes == SBX_REQ_MAX_STRING);
        free(s);
        s = repeat('x', SBX_REQ_MAX_STRING);
        r = sbx_request_arg(&rq, s, err());
        CHECK(G, "a 131072-byte argument refused", refused(r, E2BIG, "argv") && rq.cmd.n == 1);
        free(s);
        sbx_request_done(&rq);

        /* Each string counts its bytes and its NUL: 8 x 131072 is exactly 1 MiB. */
        sbx_request_init(&rq);
        s = repeat('y', SBX_REQ_MAX_STRING - 1);
        r = 0;
        for (int i = 0; i < 8 && r == 0; i++)
                r = sbx_request_arg(&rq, s, err());
        CHECK(G, "exactly 1 MiB of strings accepted", r == 0 && rq.bytes == SBX_REQ_MAX_BYTES && rq.cmd.n == 8);
        r = sbx_request_arg(&rq, "", err());
        CHECK(G, "one byte more than 1 MiB refused", refused(r, E2BIG, "1 MiB") && rq.cmd.n == 8);
        /* The budget is the request's, not the field's. */
        r = sbx_request_environ(&rq, "A=", err());
        CHECK(G, "1 MiB budget shared by environ", refused(r, E2BIG, "environ"));
        r = sbx_request_env(&rq, "A", "", err());
        CHECK(G, "1 MiB budget shared by env", refused(r, E2BIG, "env"));
        r = sbx_request_option_str(&rq, "tmpfs", "/t", err());
        CHECK(G, "1 MiB budget shared by options", refused(r, E2BIG, "options"));
        free(s);
        sbx_request_done(&rq);
}

static void test_env(void)
{
        static const char *const bad[] = { "1A", "A-B", "", "A=B", "A B", "Ä" };
        struct sbx_request rq;
        char *s;
        int r = 0;

        sbx_request_init(&rq);
        r = sbx_request_env(&rq, "A_1", "v=w", err());
        CHECK(G, "env 'A_1' accepted as A_1=v=w", r == 0 && rq.n_env == 1 && rq.ask.plan.n_env == 1 &&
                                                     strcmp(rq.ask.plan.env[0], "A_1=v=w") == 0);
        sbx_request_done(&rq);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char what[80];

                sbx_request_init(&rq);
                r = sbx_request_env(&rq, bad[i], "x", err());
                snprintf(what, sizeof(what), "env name '%s' refused", bad[i]);
                CHECK(G, what, refused(r, EINVAL, "env") && rq.n_env == 0 && rq.ask.plan.n_env == 0);
                sbx_request_done(&rq);
        }
        sbx_request_init(&rq);
        s = repeat('N', 128);
        CHECK(G, "env name of 128 characters accepted", sbx_request_env(&rq, s, "", err()) == 0);
        free(s);
        s = repeat('N', 129);
        CHECK(G, "env name of 129 characters refused", refused(sbx_request_env(&rq, s, "", err()), EINVAL, "env"));
        free(s);
        s = repeat('v', SBX_REQ_MAX_STRING - 1);
        CHECK(G, "env value of 131071 bytes accepted", sbx_request_env(&rq, "BIG", s, err()) == 0);
        free(s);
        s = repeat('v', SBX_REQ_MAX_STRING);
        CHECK(G, "env value of 131072 bytes refused", refused(sbx_request_env(&rq, "BIG2", s, err()), E2BIG, "env"));
        free(s);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        r = 0;
        for (int i = 0; i < SBX_REQ_MAX_ENV && r == 0; i++) {
                char name[16];

                snprintf(name, sizeof(name), "V%d", i);
                r = sbx_request_env(&rq, name, "1", err());
        }
        CHECK(G, "256 env variables accepted", r == 0 && rq.n_env == 256);
        r = sbx_request_env(&rq, "V256", "1", err());
        CHECK(G, "the 257th env variable refused", refused(r, E2BIG, "env") && rq.n_env == 256 && rq.ask.plan.n_env == 256);
        sbx_request_done(&rq);
}

static void test_environ(void)
{
        static const char *const bad[] = { "NOEQUALS", "", "=x", "1A=x", "A-B=x", "A B=x" };
        struct sbx_request rq;
        char *s;
        int r = 0;

        sbx_request_init(&rq);
        CHECK(G, "environ 'HOME=/home/u' accepted", sbx_request_environ(&rq, "HOME=/home/u", err()) == 0);
        CHECK(G, "environ 'EMPTY=' accepted", sbx_request_environ(&rq, "EMPTY=", err()) == 0);
        CHECK(G, "environ 'A=b=c' accepted", sbx_request_environ(&rq, "A=b=c", err()) == 0 && rq.environ.n == 3);
        CHECK(G, "environ is not turned into env additions", rq.ask.plan.n_env == 0);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char what[80];

                r = sbx_request_environ(&rq, bad[i], err());
                snprintf(what, sizeof(what), "environ entry '%s' refused", bad[i]);
                CHECK(G, what, refused(r, EINVAL, "environ") && rq.environ.n == 3);
        }
        s = repeat('v', SBX_REQ_MAX_STRING);
        memcpy(s, "A=", 2);
        CHECK(G, "environ entry of 131072 bytes refused", refused(sbx_request_environ(&rq, s, err()), E2BIG, "environ"));
        s[SBX_REQ_MAX_STRING - 1] = '\0';
        CHECK(G, "environ entry of 131071 bytes accepted", sbx_request_environ(&rq, s, err()) == 0);
        free(s);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        r = 0;
        for (int i = 0; i < SBX_REQ_MAX_ENVIRON && r == 0; i++) {
                char entry[32];

                snprintf(entry, sizeof(entry), "V%d=%d", i, i);
                r = sbx_request_environ(&rq, entry, err());
        }
        CHECK(G, "1024 environ entries accepted", r == 0 && rq.environ.n == 1024);
        r = sbx_request_environ(&rq, "V1024=x", err());
        CHECK(G, "the 1025th environ entry refused", refused(r, E2BIG, "environ") && rq.environ.n == 1024);
        sbx_request_done(&rq);
}

static void test_mount_bound(void)
{
        static const char *const keys[] = { "ro", "rw", "tmpfs" };
        struct sbx_request rq;
        int r = 0;

        start(&rq);
        for (int i = 0; i < SBX_REQ_MAX_MOUNTS && r == 0; i++) {
                char path[32];

                snprintf(path, sizeof(path), "/srv/m%d", i);
                r = sbx_request_option_str(&rq, keys[i % 3], path, err());
        }
        CHECK(G, "64 mounts (ro, rw, tmpfs together) accepted", r == 0 && rq.ask.plan.n_mounts == 64);
        for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
                char what[64];

                r = sbx_request_option_str(&rq, keys[k], "/srv/more", err());
                snprintf(what, sizeof(what), "a 65th mount refused (%s)", keys[k]);
                CHECK(G, what, refused(r, E2BIG, "64 binds, tmpfs mounts and network deny rules") && rq.ask.plan.n_mounts == 64);
        }
        r = sbx_request_finish(&rq, err());
        CHECK(G, "64 mounts reach the plan", r == 0 && rq.ask.plan.n_mounts == 64);
        sbx_request_done(&rq);
}

static void test_option_types(void)
{
        static const char *const not_strings[] = { "timeout_ms", "memory", "pids", "cpu_seconds", "workspace", "profile",
                                                   "env", "environ", "socket", "daemon", "direct", "json", "dry-run",
                                                   "check", "help", "version", "list-profiles", "", "RO", "ro " };
        static const char *const not_numbers[] = { "ro", "rw", "tmpfs", "net", "hostname", "timeout", "cpu", "help", "" };
        struct sbx_request rq;
        char *s;
        int r;

        start(&rq);
        for (size_t i = 0; i < ELEMENTSOF(not_strings); i++) {
                char what[80];

                r = sbx_request_option_str(&rq, not_strings[i], "/x", err());
                snprintf(what, sizeof(what), "string option '%s' refused, named", not_strings[i]);
                CHECK(G, what, refused(r, EINVAL, not_strings[i]) && strstr(e.msg, "option '") && rq.ask.given == 0);
        }
        for (size_t i = 0; i < ELEMENTSOF(not_numbers); i++) {
                char what[80];

                r = sbx_request_option_u64(&rq, not_numbers[i], 1, err());
                snprintf(what, sizeof(what), "number option '%s' refused, named", not_numbers[i]);
                CHECK(G, what, refused(r, EINVAL, not_numbers[i]) && strstr(e.msg, "option '") && rq.ask.given == 0);
        }
        s = repeat('k', 200);
        r = sbx_request_option_str(&rq, s, "x", err());
        CHECK(G, "a long unknown key is cut in the message", refused(r, EINVAL, "unknown") && strlen(e.msg) < 120);
        free(s);
        CHECK(G, "refused options leave a request that finishes", sbx_request_finish(&rq, err()) == 0);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        s = repeat('v', SBX_REQ_MAX_STRING);
        s[0] = '/';
        r = sbx_request_option_str(&rq, "tmpfs", s, err());
        CHECK(G, "an option value of 131072 bytes refused", refused(r, E2BIG, "options") && rq.ask.plan.n_mounts == 0);
        s[SBX_REQ_MAX_STRING - 1] = '\0';
        r = sbx_request_option_str(&rq, "ro", s, err());
        CHECK(G, "an option value of 131071 bytes passes the size bound", r == 0 || e.errnum != E2BIG);
        free(s);
        sbx_request_done(&rq);
}

/* A key of a type no row takes: the hint names every Run key of the table by its type,
 * nofile and fsize too (it once listed only the four numbers of before the table). */
static void test_type_hint(void)
{
        int r = sbx_request_option_type_error("nofile", "b", err());

        CHECK(G, "a wrong type is refused, named", refused(r, EINVAL, "nofile") && strstr(e.msg, "wrong type 'b'"));
        CHECK(G, "... its hint lists every number key", strstr(e.hint, "nofile") && strstr(e.hint, "fsize") &&
                                                             strstr(e.hint, "cpu_seconds") && strstr(e.hint, "timeout_ms"));
        CHECK(G, "... and every string key", strstr(e.hint, "hostname") && strstr(e.hint, "net"));
}

static void test_twice(void)
{
        static const char *const numbers[] = { "timeout_ms", "memory", "pids", "cpu_seconds", "nofile", "fsize" };
        struct sbx_request rq;
        int r;

        start(&rq);
        CHECK(G, "net once accepted", sbx_request_option_str(&rq, "net", "none", err()) == 0);
        r = sbx_request_option_str(&rq, "net", "host", err());
        CHECK(G, "net twice refused", refused(r, EINVAL, "net") && strstr(e.msg, "twice") && rq.ask.plan.net == SBX_NET_NONE);
        CHECK(G, "hostname once accepted", sbx_request_option_str(&rq, "hostname", "a", err()) == 0);
        r = sbx_request_option_str(&rq, "hostname", "b", err());
        CHECK(G, "hostname twice refused", refused(r, EINVAL, "hostname") && strstr(e.msg, "twice") && strcmp(rq.ask.plan.hostname, "a") == 0);
        for (size_t i = 0; i < ELEMENTSOF(numbers); i++) {
                char what[64];

                r = sbx_request_option_u64(&rq, numbers[i], 1u << 20, err()); /* within every row's bounds */
                snprintf(what, sizeof(what), "%s once accepted", numbers[i]);
                CHECK(G, what, r == 0);
                r = sbx_request_option_u64(&rq, numbers[i], 1000000, err());
                snprintf(what, sizeof(what), "%s twice refused", numbers[i]);
                CHECK(G, what, refused(r, EINVAL, numbers[i]) && strstr(e.msg, "twice"));
        }
        CHECK(G, "ro is repeatable", sbx_request_option_str(&rq, "ro", "/a", err()) == 0 &&
                                         sbx_request_option_str(&rq, "ro", "/b", err()) == 0);
        CHECK(G, "tmpfs is repeatable", sbx_request_option_str(&rq, "tmpfs", "/c", err()) == 0 &&
                                            sbx_request_option_str(&rq, "tmpfs", "/d", err()) == 0);
        r = sbx_request_finish(&rq, err());
        CHECK(G, "the first of each was kept", r == 0 && rq.ask.plan.net == SBX_NET_NONE &&
                                                   strcmp(rq.ask.plan.hostname, "a") == 0 &&
                                                   rq.ask.plan.limits.timeout_ms == 1u << 20 &&
                                                   rq.ask.plan.limits.pids == 1u << 20 && rq.ask.plan.n_mounts == 4);
        sbx_request_done(&rq);
}

/* Finishes @rq and returns finish()'s result; @rq is done by the caller. */
static int finish(struct sbx_request *rq)
{
        return sbx_request_finish(rq, err());
}

static void test_mapping(void)
{
        struct sbx_request rq;
        int r;

        start(&rq);
        sbx_request_option_u64(&rq, "timeout_ms", 1500, err());
        sbx_request_option_u64(&rq, "memory", 64u << 20, err());
        sbx_request_option_u64(&rq, "pids", 32, err());
        sbx_request_option_u64(&rq, "cpu_seconds", 5, err());
        sbx_request_option_str(&rq, "net", "host", err());
        sbx_request_option_str(&rq, "hostname", "box-1", err());
        sbx_request_env(&rq, "FOO", "bar", err());
        sbx_request_option_str(&rq, "ro", "/srv/data:/data", err());
        sbx_request_option_str(&rq, "rw", "/var/tmp/x", err());
        sbx_request_option_str(&rq, "tmpfs", "/scratch:8M", err());
        r = finish(&rq);
        CHECK(G, "a full request finishes", r == 0 && strcmp(rq.ask.plan.argv[0], "/bin/true") == 0);
        CHECK(G, "timeout_ms 1500 is 1500 ms", rq.ask.plan.limits.timeout_ms == 1500);
        CHECK(G, "memory mapped", rq.ask.plan.limits.memory == (64u << 20));
        CHECK(G, "pids mapped", rq.ask.plan.limits.pids == 32);
        CHECK(G, "cpu_seconds mapped", rq.ask.plan.limits.rlimit[RLIMIT_CPU] == 5);
        CHECK(G, "net host mapped", sbx_ask_given(&rq.ask, sbx_option_by_bus("net")) && rq.ask.plan.net == SBX_NET_HOST);
        CHECK(G, "hostname mapped", strcmp(rq.ask.plan.hostname, "box-1") == 0);
        CHECK(G, "env mapped", strcmp(sbx_plan_get_env(&rq.ask.plan, "FOO") ?: "", "bar") == 0);
        CHECK(G, "ro, rw, tmpfs mapped", rq.ask.plan.n_mounts == 3 && rq.ask.plan.mounts[0].kind == SBX_MOUNT_RO &&
                                                 strcmp(rq.ask.plan.mounts[0].dest, "/data") == 0 &&
                                                 rq.ask.plan.mounts[1].kind == SBX_MOUNT_RW &&
                                                 rq.ask.plan.mounts[2].kind == SBX_MOUNT_TMPFS &&
                                                 rq.ask.plan.mounts[2].size == (8u << 20));
        /* What the caller cannot choose over the bus stays the profile's. */
        CHECK(G, "no workspace reaches the options", rq.ask.plan.workspace == NULL);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "net", "none", err());
        sbx_request_option_u64(&rq, "timeout_ms", 1, err());
        r = finish(&rq);
        CHECK(G, "net none mapped", r == 0 && sbx_ask_given(&rq.ask, sbx_option_by_bus("net")) && rq.ask.plan.net == SBX_NET_NONE);
        CHECK(G, "timeout_ms 1 is 1 ms", rq.ask.plan.limits.timeout_ms == 1);
        sbx_request_done(&rq);

        start(&rq);
        r = finish(&rq);
        CHECK(G, "no options: nothing set", r == 0 && !sbx_ask_given(&rq.ask, sbx_option_by_bus("net")) && rq.ask.plan.limits.timeout_ms == 0 &&
                                                    rq.ask.plan.limits.memory == 0 && rq.ask.plan.n_mounts == 0 &&
                                                    rq.ask.plan.n_env == 0 && rq.ask.plan.hostname == NULL);
        sbx_request_done(&rq);

        start(&rq);
        r = sbx_request_option_u64(&rq, "timeout_ms", UINT64_MAX, err());
        CHECK(G, "timeout_ms UINT64_MAX refused (over a year)", refused(r, EINVAL, "timeout_ms") && strstr(e.msg, "range"));
        r = sbx_request_option_u64(&rq, "timeout_ms", 1000ull * 86400 * 365, err());
        CHECK(G, "timeout_ms of a year kept exact", r == 0 && finish(&rq) == 0 &&
                                                        rq.ask.plan.limits.timeout_ms == 1000ull * 86400 * 365);
        sbx_request_done(&rq);
}

/* A value the option table refuses is refused by the setter, staged "request", naming
 * the Run key, with the row's hint; the request is left as it was and still finishes. */
#define SETTER_REFUSES(name, word, ...)                                                   \
        do {                                                                              \
                struct sbx_request rq_;                                                   \
                start(&rq_);                                                              \
                int r_ = (__VA_ARGS__);                                                   \
                CHECK(G, name, refused(r_, EINVAL, word) && e.hint[0] && finish(&rq_) == 0); \
                sbx_request_done(&rq_);                                                   \
        } while (0)

static void test_finish_refusals(void)
{
        SETTER_REFUSES("relative ro refused", "ro", sbx_request_option_str(&rq_, "ro", "etc/passwd", err()));
        SETTER_REFUSES("relative rw refused", "rw", sbx_request_option_str(&rq_, "rw", "home/u", err()));
        SETTER_REFUSES("empty ro refused", "ro", sbx_request_option_str(&rq_, "ro", "", err()));
        SETTER_REFUSES("ro dest with .. refused", "ro",
                       sbx_request_option_str(&rq_, "ro", "/etc/passwd:/x/../etc", err()));
        SETTER_REFUSES("rw dest / refused", "rw", sbx_request_option_str(&rq_, "rw", "/var/tmp:/", err()));
        SETTER_REFUSES("relative tmpfs refused", "tmpfs", sbx_request_option_str(&rq_, "tmpfs", "tmp", err()));
        SETTER_REFUSES("tmpfs bad size refused", "tmpfs", sbx_request_option_str(&rq_, "tmpfs", "/t:lots", err()));
        SETTER_REFUSES("net bridge refused", "net", sbx_request_option_str(&rq_, "net", "bridge", err()));
        SETTER_REFUSES("bad hostname refused", "hostname", sbx_request_option_str(&rq_, "hostname", "a b", err()));
        SETTER_REFUSES("timeout_ms 0 refused", "timeout_ms", sbx_request_option_u64(&rq_, "timeout_ms", 0, err()));
        SETTER_REFUSES("memory below 1M refused", "memory", sbx_request_option_u64(&rq_, "memory", 1000, err()));
        SETTER_REFUSES("pids 0 refused", "pids", sbx_request_option_u64(&rq_, "pids", 0, err()));
        SETTER_REFUSES("pids 4194305 refused", "pids", sbx_request_option_u64(&rq_, "pids", 4194305, err()));
        SETTER_REFUSES("cpu_seconds 0 refused", "cpu_seconds", sbx_request_option_u64(&rq_, "cpu_seconds", 0, err()));
        SETTER_REFUSES("nofile 2 refused", "nofile", sbx_request_option_u64(&rq_, "nofile", 2, err()));
        /* Refused after the plan already holds env, mounts and a hostname: LSan checks
         * that done() frees the half-built plan. */
        SETTER_REFUSES("late refusal frees the half-built plan", "net",
                       sbx_request_env(&rq_, "A", "1", err()), sbx_request_option_str(&rq_, "tmpfs", "/t", err()),
                       sbx_request_option_str(&rq_, "hostname", "h", err()),
                       sbx_request_option_str(&rq_, "net", "bridge", err()));
}

static void test_finish_needs(void)
{
        struct sbx_request rq;
        int r;

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        r = finish(&rq);
        CHECK(G, "a request without a command refused", refused(r, EINVAL, "no command"));
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        sbx_request_arg(&rq, "", err());
        sbx_request_arg(&rq, "x", err());
        r = finish(&rq);
        CHECK(G, "an empty command name refused", refused(r, EINVAL, "argv"));
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_arg(&rq, "/bin/true", err());
        r = finish(&rq);
        CHECK(G, "a request without a profile refused", refused(r, EINVAL, "profile"));
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "../../etc/x", err());
        sbx_request_arg(&rq, "/bin/true", err());
        r = finish(&rq);
        CHECK(G, "a refused profile leaves no profile to finish with", refused(r, EINVAL, "profile"));
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_done(&rq);
        sbx_request_done(&rq);
        CHECK(G, "done on an empty request, twice", rq.cmd.n == 0 && rq.ask.plan.argv == NULL);
}

static bool argv_is(char **argv, const char *const *words, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (!argv || !argv[i] || strcmp(argv[i], words[i]) != 0)
                        return false;
        return argv[n] == NULL;
}

/* Option-looking strings are data: values are always taken as the argument of the
 * flag before them, and the command comes after "--". */
static void test_dash_values(void)
{
        static const char *const cmd[] = { "--help", "--version", "--profile", "/etc/shadow", "--", "-h", "--list-profiles" };
        static const char *const dashdash[] = { "--", "--dry-run" };
        struct sbx_request rq;
        int r;

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        for (size_t i = 0; i < ELEMENTSOF(cmd); i++)
                sbx_request_arg(&rq, cmd[i], err());
        sbx_request_env(&rq, "X", "--help", err());
        r = finish(&rq);
        CHECK(G, "argv after finish is exactly the words given", r == 0 && argv_is(rq.ask.plan.argv, cmd, ELEMENTSOF(cmd)));
        CHECK(G, "--help as an env value is a value", strcmp(sbx_plan_get_env(&rq.ask.plan, "X") ?: "", "--help") == 0);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        for (size_t i = 0; i < ELEMENTSOF(dashdash); i++)
                sbx_request_arg(&rq, dashdash[i], err());
        r = finish(&rq);
        CHECK(G, "a command starting with -- kept whole",
              r == 0 && argv_is(rq.ask.plan.argv, dashdash, ELEMENTSOF(dashdash)));
        sbx_request_done(&rq);

        start(&rq);
        r = sbx_request_option_str(&rq, "hostname", "--help", err());
        CHECK(G, "--help as a hostname is a bad hostname, not help",
              refused(r, EINVAL, "hostname") && finish(&rq) == 0);
        sbx_request_done(&rq);

        start(&rq);
        r = sbx_request_option_str(&rq, "net", "--version", err());
        CHECK(G, "--version as net is a bad net, not version",
              refused(r, EINVAL, "net") && finish(&rq) == 0);
        sbx_request_done(&rq);

        start(&rq);
        r = sbx_request_option_str(&rq, "tmpfs", "--list-profiles", err());
        CHECK(G, "--list-profiles as tmpfs is a bad tmpfs",
              refused(r, EINVAL, "tmpfs") && finish(&rq) == 0);
        sbx_request_done(&rq);

        start(&rq);
        r = sbx_request_option_str(&rq, "ro", "--", err());
        CHECK(G, "-- as ro is a bad ro, not the end of options",
              refused(r, EINVAL, "ro") && finish(&rq) == 0);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "tmpfs", "/t", err());
        sbx_request_option_str(&rq, "hostname", "h", err());
        r = finish(&rq);
        CHECK(G, "options do not leak into argv", r == 0 && argv_is(rq.ask.plan.argv, (const char *const[]){ "/bin/true" }, 1));
        sbx_request_done(&rq);
}

/* Run's options as sandboxd reads them off the bus (api.c): an a{sv} built on a bus
 * object that has only begun to connect over a socketpair, sealed as sending would
 * seal it, rewound and read into a request.  Each entry: a key, and either a string
 * array (@strv) or a number. */
struct bus_entry {
        const char *key;
        const char *const *strv;
        uint64_t u;
};

static int read_bus_options(struct sbx_request *rq, const struct bus_entry *ents, size_t n)
{
        static sd_bus *bus;
        sd_bus_message *m = NULL;
        int sv[2], r;

        if (!bus && (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || sd_bus_new(&bus) < 0 ||
                     sd_bus_set_fd(bus, sv[0], sv[0]) < 0 || sd_bus_start(bus) < 0))
                return -EIO;
        r = sd_bus_message_new_method_call(bus, &m, "io.sbx.Sandbox1", "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Run");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'a', "{sv}");
        for (size_t i = 0; r >= 0 && i < n; i++) {
                if ((r = sd_bus_message_open_container(m, 'e', "sv")) < 0 || (r = sd_bus_message_append(m, "s", ents[i].key)) < 0)
                        break;
                if (ents[i].strv) {
                        if ((r = sd_bus_message_open_container(m, 'v', "as")) >= 0 &&
                            (r = sd_bus_message_append_strv(m, (char **)ents[i].strv)) >= 0)
                                r = sd_bus_message_close_container(m);
                } else {
                        r = sd_bus_message_append(m, "v", "t", ents[i].u);
                }
                if (r >= 0)
                        r = sd_bus_message_close_container(m);
        }
        if (r >= 0 && (r = sd_bus_message_close_container(m)) >= 0 && (r = sd_bus_message_seal(m, 1, 0)) >= 0 &&
            (r = sd_bus_message_rewind(m, true)) >= 0)
                r = api_read_options(m, rq, err());
        sd_bus_message_unref(m);
        return r;
}

/* Which keys take an array is the table's (sbx_option_repeats): net_deny repeats on
 * the command line, and arrives as 'as' like ro, rw and tmpfs. */
static void test_bus_arrays(void)
{
        static const char *const rules[] = { "gist.github.com", "10.0.0.0/8:443", NULL };
        static const char *const ro[] = { "/srv/a", "/srv/b:/b", NULL };
        static const char *const nets[] = { "none", NULL };
        static const char *const bad[] = { "gist.github.com", "not a rule", NULL };
        struct sbx_request rq;
        int r;

        start(&rq);
        r = read_bus_options(&rq, (const struct bus_entry[]){ { "net_deny", rules, 0 }, { "ro", ro, 0 } }, 2);
        CHECK(G, "bus: net_deny as 'as' is read", r == 0);
        CHECK(G, "... the request gets both rules, in order",
              rq.ask.plan.net_rules.n == 2 && rq.ask.plan.net_rules.n_deny == 2 &&
                      rq.ask.plan.net_rules.v[0].kind == SBX_NETRULE_DENY && strcmp(rq.ask.plan.net_rules.v[0].text, "gist.github.com") == 0 &&
                      strcmp(rq.ask.plan.net_rules.v[1].text, "10.0.0.0/8:443") == 0);
        CHECK(G, "... and ro as 'as' still both mounts", rq.ask.plan.n_mounts == 2);
        sbx_request_done(&rq);

        start(&rq);
        r = read_bus_options(&rq, (const struct bus_entry[]){ { "net_deny", bad, 0 } }, 1);
        CHECK(G, "bus: a bad rule in a net_deny array is refused, named", r == -EINVAL && strstr(e.msg, "deny[1] 'not?a?rule'"));
        sbx_request_done(&rq);

        start(&rq);
        r = read_bus_options(&rq, (const struct bus_entry[]){ { "net", nets, 0 } }, 1);
        CHECK(G, "bus: net (given once) as 'as' is refused as the wrong type", refused(r, EINVAL, "wrong type 'as'"));
        CHECK(G, "... its hint lists the keys that take 'as' from the table",
              strstr(e.hint, "ro, rw, tmpfs, net_deny, environ: as") != NULL);
        sbx_request_done(&rq);

        start(&rq);
        r = read_bus_options(&rq, (const struct bus_entry[]){ { "stack", NULL, 8u << 20 } }, 1);
        CHECK(G, "bus: stack (t) is a resource limit row", r == 0 && rq.ask.plan.limits.rlimit[RLIMIT_STACK] == 8u << 20);
        sbx_request_done(&rq);
        start(&rq);
        r = read_bus_options(&rq, (const struct bus_entry[]){ { "stack", NULL, 2ull << 30 } }, 1);
        CHECK(G, "bus: stack 2G is out of its bounds", r == -EINVAL && strstr(e.msg, "stack"));
        sbx_request_done(&rq);
}

int main(void)
{
        test_bus_arrays();
        test_profile();
        test_args();
        test_env();
        test_environ();
        test_mount_bound();
        test_option_types();
        test_type_hint();
        test_twice();
        test_mapping();
        test_finish_refusals();
        test_finish_needs();
        test_dash_values();
        return unit_failed ? 1 : 0;
}
