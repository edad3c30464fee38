/* SPDX-License-Identifier: MIT */
#include "summary.h"

#include <signal.h>
#include <string.h>

#include "../lib/json.h"

static void string_list(FILE *f, const char *list, const char *sep)
{
        const char *at = list;
        size_t seplen = strlen(sep);
        bool first = true;

        fputc('[', f);
        while (at && *at) {
                const char *end = strstr(at, sep);
                size_t len = end ? (size_t)(end - at) : strlen(at);
                char item[512];

                snprintf(item, sizeof(item), "%.*s", (int)len, at);
                fputs(first ? "" : ",", f);
                sbx_json_string(f, item);
                first = false;
                at = end ? end + seplen : NULL;
        }
        fputc(']', f);
}

/* The names of @applied's bits, in the table's order. */
static void applied_list(FILE *f, unsigned applied)
{
        bool first = true;

        fputc('[', f);
        for (unsigned i = 0; i < SBX_APPLIED_COUNT; i++) {
                if (!(applied & (1u << i)))
                        continue;
                fputs(first ? "" : ",", f);
                sbx_json_string(f, sbx_applied_name(i));
                first = false;
        }
        fputc(']', f);
}

static void null_or_int(FILE *f, bool present, long long v)
{
        if (present)
                fprintf(f, "%lld", v);
        else
                fputs("null", f);
}

static void null_or_string(FILE *f, const char *s)
{
        if (s)
                sbx_json_string(f, s);
        else
                fputs("null", f);
}

/* {"command":..,"verdict":..,"reason":..,"confidence":N|null}, or null when no
 * validator was asked. */
static void validation(FILE *f, const struct sbx_validation *v)
{
        if (v->verdict == SBX_VV_NONE) {
                fputs("null", f);
                return;
        }
        fputs("{\"command\":", f);
        sbx_json_string(f, v->validator);
        fputs(",\"verdict\":", f);
        sbx_json_string(f, sbx_vverdict_name(v->verdict));
        fputs(",\"reason\":", f);
        sbx_json_string(f, v->reason);
        if (v->confidence >= 0 && v->confidence <= 1)
                fprintf(f, ",\"confidence\":%.3f}", v->confidence);
        else
                fputs(",\"confidence\":null}", f);
}

void sbx_summary_print(FILE *f, const struct sbx_result *res, const struct sbx_error *e, const struct sbx_plan *asked,
                       const struct sbx_tier_choice *tier)
{
        fprintf(f, "{\"status\":%d,\"exit_code\":", res->status);
        null_or_int(f, res->exit_code >= 0, res->exit_code);
        fputs(",\"signal\":", f);
        null_or_int(f, res->signal > 0, res->signal);
        fprintf(f, ",\"timed_out\":%s,\"oom_killed\":%s,\"wall_ms\":%llu,\"cpu_user_ms\":%llu,\"cpu_sys_ms\":%llu,\"peak_memory_bytes\":",
                res->timed_out ? "true" : "false", res->oom_killed ? "true" : "false", (unsigned long long)res->wall_ms,
                (unsigned long long)res->cpu_user_ms, (unsigned long long)res->cpu_sys_ms);
        null_or_int(f, res->peak_memory > 0, (long long)res->peak_memory);
        fputs(",\"applied\":", f);
        applied_list(f, res->applied);
        fputs(",\"weakened\":", f);
        string_list(f, res->weakened, "\n");
        fputs(",\"notes\":", f);
        string_list(f, res->notes, "\n");
        /* network: filtered: what the broker let through and refused (lib/egress.h). */
        if (res->network[0])
                fprintf(f, ",\"network\":{%s}", res->network);
        fputs(",\"tool_use_id\":", f);
        null_or_string(f, asked ? asked->tool_use_id : NULL);
        fputs(",\"session_id\":", f);
        null_or_string(f, asked ? asked->session_id : NULL);
        fputs(",\"validator\":", f);
        validation(f, &res->validation);
        if (tier)
                sbx_tier_json_fields(tier, f);
        else
                sbx_tier_text_json(&res->tier, f); /* sandboxd's, or null */
        fputs(",\"error\":", f);
        if (e && e->errnum) {
                char msg[1024];

                sbx_error_format(e, msg, sizeof(msg));
                fputs("{\"stage\":", f);
                sbx_json_string(f, sbx_stage_name(e->stage));
                fprintf(f, ",\"errno\":%d,\"syscall\":", e->errnum);
                sbx_json_string(f, e->syscall);
                fputs(",\"path\":", f);
                sbx_json_string(f, e->path);
                fputs(",\"message\":", f);
                sbx_json_string(f, msg);
                fputs(",\"hint\":", f);
                sbx_json_string(f, e->hint);
                fputc('}', f);
        } else {
                fputs("null", f);
        }
        fputs("}\n", f);
}

void sbx_summary_note(FILE *f, const struct sbx_result *res, const struct sbx_plan *plan)
{
        const struct sbx_limits *limits = plan ? &plan->limits : NULL;

        if (res->timed_out) {
                if (limits && limits->timeout_ms)
                        fprintf(f, "sbx-run: timed out after %llu.%03llu s: the jail was killed (exit 124; --timeout or the profile's limits.time)\n",
                                (unsigned long long)(limits->timeout_ms / 1000), (unsigned long long)(limits->timeout_ms % 1000));
                else
                        fprintf(f, "sbx-run: timed out: the jail was killed (exit 124; --timeout or the profile's limits.time)\n");
        } else if (res->oom_killed) {
                if (limits && limits->memory)
                        fprintf(f, "sbx-run: out of memory: the command reached the jail's limit of %llu MiB and the kernel killed it (exit 137; raise --memory or the profile's limits.memory)\n",
                                (unsigned long long)(limits->memory >> 20));
                else
                        fprintf(f, "sbx-run: out of memory: the command reached the jail's memory limit and the kernel killed it (exit 137; --memory or the profile's limits.memory)\n");
        } else if (res->signal == SIGBUS) {
                /* Shared memory past the end of a full tmpfs faults with SIGBUS and the
                 * program says nothing: a 100 MB POSIX segment in a 64M /dev/shm. */
                if (plan)
                        fprintf(f, "sbx-run: the command was killed by SIGBUS (exit 135): most often shared memory in a full /dev/shm, which is %llu MiB in this jail (raise it with --tmpfs /dev/shm:SIZE or the profile's filesystem.tmpfs)\n",
                                (unsigned long long)(sbx_plan_shm_size(plan) >> 20));
                else
                        fprintf(f, "sbx-run: the command was killed by SIGBUS (exit 135): most often shared memory in a full /dev/shm (64 MiB unless the profile says otherwise; raise it with --tmpfs /dev/shm:SIZE or the profile's filesystem.tmpfs)\n");
        }
}
