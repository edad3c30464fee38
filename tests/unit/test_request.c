/* SPDX-License-Identifier: MIT */
/* sandboxd's validation layer for untrusted Run requests: every setter at and beyond
 * each of its bounds, and sbx_request_finish() turning options into the same words
 * sbx-run parses.  Each request ends with sbx_request_done(), also after a refusal, so
 * LeakSanitizer (this binary is built with ASan) checks every failure path. */
#include <errno.h>
#include <stdint.h>

#include "../../lib/cleanup.h"
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
        CHECK(G, "env 'A_1' accepted as --env A_1=v=w", r == 0 && rq.n_env == 1 && rq.words.n == 2 &&
                                                           strcmp(rq.words.v[0], "--env") == 0 &&
                                                           strcmp(rq.words.v[1], "A_1=v=w") == 0);
        sbx_request_done(&rq);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char what[80];

                sbx_request_init(&rq);
                r = sbx_request_env(&rq, bad[i], "x", err());
                snprintf(what, sizeof(what), "env name '%s' refused", bad[i]);
                CHECK(G, what, refused(r, EINVAL, "env") && rq.n_env == 0 && rq.words.n == 0);
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
        CHECK(G, "the 257th env variable refused", refused(r, E2BIG, "env") && rq.n_env == 256 && rq.words.n == 512);
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
        CHECK(G, "environ is not turned into --env words", rq.words.n == 0);
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
        CHECK(G, "64 mounts (ro, rw, tmpfs together) accepted", r == 0 && rq.words.n == 128);
        for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
                char what[64];

                r = sbx_request_option_str(&rq, keys[k], "/srv/more", err());
                snprintf(what, sizeof(what), "a 65th mount refused (%s)", keys[k]);
                CHECK(G, what, refused(r, E2BIG, "64 mounts") && rq.words.n == 128);
        }
        r = sbx_request_finish(&rq, err());
        CHECK(G, "64 mounts reach the plan", r == 0 && rq.opts.plan.n_mounts == 64);
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
                CHECK(G, what, refused(r, EINVAL, not_strings[i]) && strstr(e.msg, "option '") && rq.words.n == 0);
        }
        for (size_t i = 0; i < ELEMENTSOF(not_numbers); i++) {
                char what[80];

                r = sbx_request_option_u64(&rq, not_numbers[i], 1, err());
                snprintf(what, sizeof(what), "number option '%s' refused, named", not_numbers[i]);
                CHECK(G, what, refused(r, EINVAL, not_numbers[i]) && strstr(e.msg, "option '") && rq.words.n == 0);
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
        CHECK(G, "an option value of 131072 bytes refused", refused(r, E2BIG, "options") && rq.words.n == 0);
        s[SBX_REQ_MAX_STRING - 1] = '\0';
        CHECK(G, "an option value of 131071 bytes accepted", sbx_request_option_str(&rq, "ro", s, err()) == 0);
        free(s);
        sbx_request_done(&rq);
}

static void test_twice(void)
{
        static const char *const numbers[] = { "timeout_ms", "memory", "pids", "cpu_seconds" };
        struct sbx_request rq;
        int r;

        start(&rq);
        CHECK(G, "net once accepted", sbx_request_option_str(&rq, "net", "none", err()) == 0);
        r = sbx_request_option_str(&rq, "net", "host", err());
        CHECK(G, "net twice refused", refused(r, EINVAL, "net") && strstr(e.msg, "twice") && rq.words.n == 2);
        CHECK(G, "hostname once accepted", sbx_request_option_str(&rq, "hostname", "a", err()) == 0);
        r = sbx_request_option_str(&rq, "hostname", "b", err());
        CHECK(G, "hostname twice refused", refused(r, EINVAL, "hostname") && strstr(e.msg, "twice") && rq.words.n == 4);
        for (size_t i = 0; i < ELEMENTSOF(numbers); i++) {
                char what[64];

                r = sbx_request_option_u64(&rq, numbers[i], 2000000, err());
                snprintf(what, sizeof(what), "%s once accepted", numbers[i]);
                CHECK(G, what, r == 0);
                r = sbx_request_option_u64(&rq, numbers[i], 3000000, err());
                snprintf(what, sizeof(what), "%s twice refused", numbers[i]);
                CHECK(G, what, refused(r, EINVAL, numbers[i]) && strstr(e.msg, "twice"));
        }
        CHECK(G, "ro is repeatable", sbx_request_option_str(&rq, "ro", "/a", err()) == 0 &&
                                         sbx_request_option_str(&rq, "ro", "/b", err()) == 0);
        CHECK(G, "tmpfs is repeatable", sbx_request_option_str(&rq, "tmpfs", "/c", err()) == 0 &&
                                            sbx_request_option_str(&rq, "tmpfs", "/d", err()) == 0);
        r = sbx_request_finish(&rq, err());
        CHECK(G, "the first of each was kept", r == 0 && rq.opts.plan.net == SBX_NET_NONE &&
                                                   strcmp(rq.opts.plan.hostname, "a") == 0 &&
                                                   rq.opts.plan.limits.timeout_ms == 2000000 &&
                                                   rq.opts.plan.limits.pids == 2000000 && rq.opts.plan.n_mounts == 4);
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
        CHECK(G, "a full request finishes", r == 0 && rq.finished && rq.opts.action == SBX_ACTION_RUN);
        CHECK(G, "timeout_ms 1500 is 1500 ms", rq.opts.plan.limits.timeout_ms == 1500);
        CHECK(G, "timeout_ms goes as --timeout 1.500", sbx_strv_contains(&rq.words, "1.500"));
        CHECK(G, "memory mapped", rq.opts.plan.limits.memory == (64u << 20));
        CHECK(G, "pids mapped", rq.opts.plan.limits.pids == 32);
        CHECK(G, "cpu_seconds mapped", rq.opts.plan.limits.cpu_seconds == 5);
        CHECK(G, "net host mapped", rq.opts.net_set && rq.opts.plan.net == SBX_NET_HOST);
        CHECK(G, "hostname mapped", strcmp(rq.opts.plan.hostname, "box-1") == 0);
        CHECK(G, "env mapped", strcmp(sbx_plan_get_env(&rq.opts.plan, "FOO") ?: "", "bar") == 0);
        CHECK(G, "ro, rw, tmpfs mapped", rq.opts.plan.n_mounts == 3 && rq.opts.plan.mounts[0].kind == SBX_MOUNT_RO &&
                                                 strcmp(rq.opts.plan.mounts[0].dest, "/data") == 0 &&
                                                 rq.opts.plan.mounts[1].kind == SBX_MOUNT_RW &&
                                                 rq.opts.plan.mounts[2].kind == SBX_MOUNT_TMPFS &&
                                                 rq.opts.plan.mounts[2].size == (8u << 20));
        /* What the caller cannot choose over the bus stays the profile's. */
        CHECK(G, "no profile path reaches the options", rq.opts.profile == NULL && rq.opts.socket == NULL);
        CHECK(G, "no workspace reaches the options", rq.opts.plan.workspace == NULL);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "net", "none", err());
        sbx_request_option_u64(&rq, "timeout_ms", 1, err());
        r = finish(&rq);
        CHECK(G, "net none mapped", r == 0 && rq.opts.net_set && rq.opts.plan.net == SBX_NET_NONE);
        CHECK(G, "timeout_ms 1 is 1 ms", rq.opts.plan.limits.timeout_ms == 1);
        sbx_request_done(&rq);

        start(&rq);
        r = finish(&rq);
        CHECK(G, "no options: nothing set", r == 0 && !rq.opts.net_set && rq.opts.plan.limits.timeout_ms == 0 &&
                                                    rq.opts.plan.limits.memory == 0 && rq.opts.plan.n_mounts == 0 &&
                                                    rq.opts.plan.n_env == 0 && rq.opts.plan.hostname == NULL);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_u64(&rq, "timeout_ms", UINT64_MAX, err());
        r = finish(&rq);
        CHECK(G, "timeout_ms UINT64_MAX kept exact", r == 0 && rq.opts.plan.limits.timeout_ms == UINT64_MAX);
        sbx_request_done(&rq);
}

/* What sbx_options_parse() refuses comes back from finish() with the stage rewritten
 * to "request" (the header's contract), naming the sbx-run flag. */
#define FINISH_REFUSES(name, word, ...)                                                 \
        do {                                                                              \
                struct sbx_request rq_;                                                   \
                start(&rq_);                                                              \
                __VA_ARGS__;                                                              \
                int r_ = finish(&rq_);                                                    \
                CHECK(G, name, refused(r_, EINVAL, word) && !rq_.finished);               \
                sbx_request_done(&rq_);                                                   \
        } while (0)

static void test_finish_refusals(void)
{
        FINISH_REFUSES("relative ro refused by finish", "--ro", sbx_request_option_str(&rq_, "ro", "etc/passwd", err()));
        FINISH_REFUSES("relative rw refused by finish", "--rw", sbx_request_option_str(&rq_, "rw", "home/u", err()));
        FINISH_REFUSES("empty ro refused by finish", "--ro", sbx_request_option_str(&rq_, "ro", "", err()));
        FINISH_REFUSES("ro dest with .. refused by finish", "--ro",
                       sbx_request_option_str(&rq_, "ro", "/etc/passwd:/x/../etc", err()));
        FINISH_REFUSES("rw dest / refused by finish", "--rw", sbx_request_option_str(&rq_, "rw", "/var/tmp:/", err()));
        FINISH_REFUSES("relative tmpfs refused by finish", "--tmpfs", sbx_request_option_str(&rq_, "tmpfs", "tmp", err()));
        FINISH_REFUSES("tmpfs bad size refused by finish", "--tmpfs", sbx_request_option_str(&rq_, "tmpfs", "/t:lots", err()));
        FINISH_REFUSES("net bridge refused by finish", "--net", sbx_request_option_str(&rq_, "net", "bridge", err()));
        FINISH_REFUSES("bad hostname refused by finish", "--hostname", sbx_request_option_str(&rq_, "hostname", "a b", err()));
        FINISH_REFUSES("timeout_ms 0 refused by finish", "--timeout", sbx_request_option_u64(&rq_, "timeout_ms", 0, err()));
        FINISH_REFUSES("memory below 1M refused by finish", "--memory", sbx_request_option_u64(&rq_, "memory", 1000, err()));
        FINISH_REFUSES("pids 0 refused by finish", "--pids", sbx_request_option_u64(&rq_, "pids", 0, err()));
        FINISH_REFUSES("pids 4194305 refused by finish", "--pids", sbx_request_option_u64(&rq_, "pids", 4194305, err()));
        FINISH_REFUSES("cpu_seconds 0 refused by finish", "--cpu", sbx_request_option_u64(&rq_, "cpu_seconds", 0, err()));
        /* Refused after the plan already holds env, mounts and a hostname: LSan checks
         * that finish() frees the half-built plan. */
        FINISH_REFUSES("late refusal frees the half-built plan", "--net",
                       sbx_request_env(&rq_, "A", "1", err()); sbx_request_option_str(&rq_, "tmpfs", "/t", err());
                       sbx_request_option_str(&rq_, "hostname", "h", err());
                       sbx_request_option_str(&rq_, "net", "bridge", err()));
}

static void test_finish_needs(void)
{
        struct sbx_request rq;
        int r;

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        r = finish(&rq);
        CHECK(G, "a request without a command refused", refused(r, EINVAL, "no command") && !rq.finished);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        sbx_request_arg(&rq, "", err());
        sbx_request_arg(&rq, "x", err());
        r = finish(&rq);
        CHECK(G, "an empty command name refused", refused(r, EINVAL, "argv") && !rq.finished);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_arg(&rq, "/bin/true", err());
        r = finish(&rq);
        CHECK(G, "a request without a profile refused", refused(r, EINVAL, "profile") && !rq.finished);
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
        CHECK(G, "done on an empty request, twice", rq.cmd.n == 0 && rq.argv == NULL);
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
        CHECK(G, "--help as argv[0] still runs", r == 0 && rq.opts.action == SBX_ACTION_RUN);
        CHECK(G, "argv after finish is exactly the words given", argv_is(rq.opts.plan.argv, cmd, ELEMENTSOF(cmd)));
        CHECK(G, "rq->argv is sandboxd's words, --, the command",
              rq.argv == rq.all.v && strcmp(rq.argv[0], "sandboxd") == 0 && rq.all.n == 1 + rq.words.n + 1 + ELEMENTSOF(cmd));
        CHECK(G, "--help as an env value is a value", strcmp(sbx_plan_get_env(&rq.opts.plan, "X") ?: "", "--help") == 0);
        sbx_request_done(&rq);

        sbx_request_init(&rq);
        sbx_request_profile(&rq, "workspace", err());
        for (size_t i = 0; i < ELEMENTSOF(dashdash); i++)
                sbx_request_arg(&rq, dashdash[i], err());
        r = finish(&rq);
        CHECK(G, "a command starting with -- kept whole",
              r == 0 && rq.opts.action == SBX_ACTION_RUN && argv_is(rq.opts.plan.argv, dashdash, ELEMENTSOF(dashdash)));
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "hostname", "--help", err());
        r = finish(&rq);
        CHECK(G, "--help as a hostname is a bad hostname, not help",
              refused(r, EINVAL, "--hostname") && rq.opts.action == SBX_ACTION_RUN);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "net", "--version", err());
        r = finish(&rq);
        CHECK(G, "--version as net is a bad net, not version",
              refused(r, EINVAL, "--net") && rq.opts.action == SBX_ACTION_RUN);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "tmpfs", "--list-profiles", err());
        r = finish(&rq);
        CHECK(G, "--list-profiles as tmpfs is a bad tmpfs",
              refused(r, EINVAL, "--tmpfs") && rq.opts.action == SBX_ACTION_RUN);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "ro", "--", err());
        r = finish(&rq);
        CHECK(G, "-- as ro is a bad ro, not the end of options",
              refused(r, EINVAL, "--ro") && rq.opts.action == SBX_ACTION_RUN);
        sbx_request_done(&rq);

        start(&rq);
        sbx_request_option_str(&rq, "tmpfs", "/t", err());
        sbx_request_option_str(&rq, "hostname", "h", err());
        r = finish(&rq);
        CHECK(G, "options do not leak into argv", r == 0 && argv_is(rq.opts.plan.argv, (const char *const[]){ "/bin/true" }, 1));
        sbx_request_done(&rq);
}

int main(void)
{
        test_profile();
        test_args();
        test_env();
        test_environ();
        test_mount_bound();
        test_option_types();
        test_twice();
        test_mapping();
        test_finish_refusals();
        test_finish_needs();
        test_dash_values();
        return unit_failed ? 1 : 0;
}
