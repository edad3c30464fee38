/* SPDX-License-Identifier: MIT */
/* lib/busapi.c: the exit summary written as sandboxd writes it and read back as
 * sbx-run --daemon reads it, field by field.  No bus and no root: a message is built
 * on a bus object that has only begun to connect over a socketpair, sealed as
 * sending would seal it, rewound, and read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../lib/busapi.h"
#include "../../lib/cleanup.h"
#include "unit.h"

#define G "busapi"

static sd_bus *bus;

/* An Exited signal ("so" + summary) with @in in it, sealed and rewound. */
static int make_message(const struct sbx_result *in, const char *error, sd_bus_message **ret)
{
        sd_bus_message *m = NULL;
        int r;

        if ((r = sd_bus_message_new_signal(bus, &m, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_SIGNAL_EXITED)) < 0 ||
            (r = sd_bus_message_append(m, "so", "0123456789abcdef", SBX_BUS_SANDBOX_PREFIX "/0123456789abcdef")) < 0 ||
            (r = sbx_bus_summary_write(m, in, error)) < 0 || (r = sd_bus_message_seal(m, 1, 0)) < 0 ||
            (r = sd_bus_message_rewind(m, true)) < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        *ret = m;
        return 0;
}

static bool same_summary(const struct sbx_result *a, const struct sbx_result *b)
{
        return a->status == b->status && a->exit_code == b->exit_code && a->signal == b->signal &&
               a->timed_out == b->timed_out && a->oom_killed == b->oom_killed && a->wall_ms == b->wall_ms &&
               a->cpu_user_ms == b->cpu_user_ms && a->cpu_sys_ms == b->cpu_sys_ms && a->peak_memory == b->peak_memory &&
               a->applied == b->applied && strcmp(a->weakened, b->weakened) == 0 &&
               strcmp(a->notes, b->notes) == 0 && strcmp(a->network, b->network) == 0 &&
               memcmp(&a->tier, &b->tier, sizeof(a->tier)) == 0;
}

/* The old reader (sbx-run/client.c's, before this header) read the two 'b' into the
 * struct's bools directly: sd-bus stores 4 bytes for each, so `ran` after them came
 * back 0 whatever it held ("ran=0" below), and on a big-endian machine the booleans
 * themselves would read false. */
/* @in through the wire into a result whose other fields (ran, the state fds) hold
 * marks: the reader fills the summary and nothing else. */
static void round_trip(const char *name, const struct sbx_result *in, const char *error)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        struct sbx_result out;
        const char *id, *path;
        char got[256], why[2048];
        int r;

        sbx_result_init(&out, 77);
        out.ran = true;
        out.state_fds[0] = 42;
        if ((r = make_message(in, error, &m)) < 0) {
                snprintf(why, sizeof(why), "cannot build the message: %s", strerror(-r));
                unit_record(G, name, 0, why);
                return;
        }
        CHECK(G, "Exited has the contract's signature", strcmp(sd_bus_message_get_signature(m, true), "so" SBX_BUS_SUMMARY) == 0);
        r = sd_bus_message_read(m, "so", &id, &path);
        if (r >= 0)
                r = sbx_bus_summary_read(m, &out, got, sizeof(got));
        snprintf(why, sizeof(why),
                 "r=%d status=%d exit_code=%d signal=%d timed_out=%d oom_killed=%d ran=%d wall_ms=%llu cpu=%llu/%llu peak=%llu "
                 "error='%s' applied=%#x weakened='%s' notes='%s' fd0=%d",
                 r, out.status, out.exit_code, out.signal, out.timed_out, out.oom_killed, out.ran,
                 (unsigned long long)out.wall_ms, (unsigned long long)out.cpu_user_ms, (unsigned long long)out.cpu_sys_ms,
                 (unsigned long long)out.peak_memory, got, out.applied, out.weakened, out.notes, out.state_fds[0]);
        unit_record(G, name, r >= 0 && same_summary(in, &out) && strcmp(got, error) == 0, why);
        snprintf(why, sizeof(why), "ran=%d state_fds[0]=%d", out.ran, out.state_fds[0]);
        snprintf(got, sizeof(got), "%.200s: the fields around the booleans are left alone", name);
        unit_record(G, got, r >= 0 && out.ran && out.state_fds[0] == 42, why);
}

/* A sandboxd from before the network field: the summary ends after the validator's
 * confidence, and the reader takes it as "no network summary". */
static void old_sandboxd(void)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        struct sbx_result out;
        char got[64];
        int r;

        sbx_result_init(&out, 0);
        snprintf(out.network, sizeof(out.network), "stale");
        r = sd_bus_message_new_signal(bus, &m, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_SIGNAL_EXITED);
        if (r >= 0)
                r = sd_bus_message_append(m, "iiibbttttsasasasissd", 3, 3, 0, 0, 0, (uint64_t)1, (uint64_t)0, (uint64_t)0,
                                          (uint64_t)0, "", 0, 0, 0, 0, "", "", -1.0);
        if (r >= 0 && (r = sd_bus_message_seal(m, 1, 0)) >= 0 && (r = sd_bus_message_rewind(m, true)) >= 0)
                r = sbx_bus_summary_read(m, &out, got, sizeof(got));
        CHECK(G, "an older sandboxd's summary (no network field) reads, with no network summary",
              r >= 0 && out.status == 3 && out.network[0] == '\0');
}

/* A sandboxd from before the tier: network is the last field; the reader takes it as
 * "no tier" (--json: null), and the JSON of a tier read from the wire is bounded. */
static void before_tier(void)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
        struct sbx_result out;
        char got[64], *json = NULL;
        size_t len = 0;
        FILE *f;
        int r;

        sbx_result_init(&out, 0);
        snprintf(out.tier.tier, sizeof(out.tier.tier), "stale");
        r = sd_bus_message_new_signal(bus, &m, SBX_BUS_PATH, SBX_BUS_MANAGER, SBX_BUS_SIGNAL_EXITED);
        if (r >= 0)
                r = sd_bus_message_append(m, "iiibbttttsasasasissds", 3, 3, 0, 0, 0, (uint64_t)1, (uint64_t)0, (uint64_t)0,
                                          (uint64_t)0, "", 0, 0, 0, 0, "", "", -1.0, "\"allowed\":[]");
        if (r >= 0 && (r = sd_bus_message_seal(m, 1, 0)) >= 0 && (r = sd_bus_message_rewind(m, true)) >= 0)
                r = sbx_bus_summary_read(m, &out, got, sizeof(got));
        CHECK(G, "a sandboxd's summary from before the tier reads, with no tier",
              r >= 0 && strcmp(out.network, "\"allowed\":[]") == 0 && out.tier.tier[0] == '\0' && out.tier.n_subs == 0);
        f = open_memstream(&json, &len);
        if (f) {
                sbx_tier_text_json(&out.tier, f);
                memset(&out.tier, 'A', sizeof(out.tier)); /* no NUL anywhere, n_subs huge */
                sbx_tier_text_json(&out.tier, f);
                fclose(f);
        }
        CHECK(G, "... --json says null; a tier without NULs prints bounded, at most 10 substitutions",
              json && strncmp(json, ",\"tier\":null,\"substitutions\":[],", 32) == 0 &&
                      strstr(json, ",\"tier\":\"AAAAAAAAAAAAAAAAAAAAAAAA\",") != NULL && strlen(json) < 2500);
        free(json);
}

int main(void)
{
        struct sbx_result in;
        int sv[2];

        /* A bus object that has begun its handshake (a message needs one past
         * BUS_UNSET); nothing is ever sent. */
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || sd_bus_new(&bus) < 0 ||
            sd_bus_set_fd(bus, sv[0], sv[0]) < 0 || sd_bus_start(bus) < 0) {
                unit_record(G, "a bus object to build messages on", 0, strerror(errno));
                return 1;
        }

        sbx_result_init(&in, 124);
        in.exit_code = -1;
        in.signal = 9;
        in.timed_out = true;
        in.oom_killed = false;
        in.wall_ms = 0x0102030405060708ull; /* every byte set: a bool written as an int would show */
        in.cpu_user_ms = 11;
        in.cpu_sys_ms = 12;
        in.peak_memory = 1ull << 40;
        in.applied = SBX_APPLIED_PIDNS | SBX_APPLIED_MNTNS | SBX_APPLIED_SECCOMP | SBX_APPLIED_PIDS_LIMIT;
        snprintf(in.weakened, sizeof(in.weakened), "landlock: not in this kernel\ncgroup: none");
        round_trip("timed out, not OOM-killed: every field back, nothing else touched", &in, "");

        in.status = 137;
        in.timed_out = false;
        in.oom_killed = true;
        in.applied = 0;
        in.weakened[0] = '\0';
        snprintf(in.notes, sizeof(in.notes), "git: a note\nanother");
        round_trip("OOM-killed, not timed out: every field back, nothing else touched", &in, "mount: cannot bind");

        in.timed_out = true;
        in.oom_killed = true;
        in.applied = SBX_APPLIED_ALL;
        round_trip("both booleans true", &in, "x");
        in.timed_out = false;
        in.oom_killed = false;
        round_trip("both booleans false", &in, "");

        snprintf(in.network, sizeof(in.network), "\"allowed\":[{\"host\":\"example.com\",\"port\":443,\"count\":2}],\"denied\":[]");
        round_trip("network: filtered: the broker's summary back", &in, "");
        snprintf(in.tier.tier, sizeof(in.tier.tier), "container-userns");
        in.tier.n_subs = 2;
        snprintf(in.tier.subs[0].feature, sizeof(in.tier.subs[0].feature), "proc");
        snprintf(in.tier.subs[0].with, sizeof(in.tier.subs[0].with), "none");
        snprintf(in.tier.subs[0].cause, sizeof(in.tier.subs[0].cause), "P3 mount proc: Operation not permitted");
        snprintf(in.tier.subs[1].feature, sizeof(in.tier.subs[1].feature), "limits");
        snprintf(in.tier.subs[1].with, sizeof(in.tier.subs[1].with), "rlimit");
        snprintf(in.tier.subs[1].cause, sizeof(in.tier.subs[1].cause), "P9 write /sys/fs/cgroup: Read-only file system");
        round_trip("the tier and its substitutions back", &in, "");
        old_sandboxd();
        before_tier();

        sd_bus_flush_close_unref(bus);
        close(sv[1]);
        return unit_failed ? 1 : 0;
}
