/* SPDX-License-Identifier: MIT */
#include "busapi.h"

#include <stdio.h>
#include <string.h>

/* @list split at @sep, as "as". */
static int write_list(sd_bus_message *m, const char *list, char sep)
{
        char item[512];
        int r;

        if ((r = sd_bus_message_open_container(m, 'a', "s")) < 0)
                return r;
        for (const char *at = list; r >= 0 && at && *at;) {
                const char *end = strchr(at, sep);
                size_t len = end ? (size_t)(end - at) : strlen(at);

                snprintf(item, sizeof(item), "%.*s", (int)len, at);
                r = sd_bus_message_append(m, "s", item);
                at = end ? end + 1 : NULL;
        }
        return r < 0 ? r : sd_bus_message_close_container(m);
}

/* @applied's names, as "as". */
static int write_applied(sd_bus_message *m, unsigned applied)
{
        int r;

        if ((r = sd_bus_message_open_container(m, 'a', "s")) < 0)
                return r;
        for (unsigned i = 0; r >= 0 && i < SBX_APPLIED_COUNT; i++)
                if (applied & (1u << i))
                        r = sd_bus_message_append(m, "s", sbx_applied_name(i));
        return r < 0 ? r : sd_bus_message_close_container(m);
}

/* An "as" of names into bits; a name this side does not know (a newer sandboxd's)
 * is left out rather than guessed at. */
static int read_applied(sd_bus_message *m, unsigned *applied)
{
        const char *item;
        int r;

        *applied = 0;
        if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0)
                return r;
        while ((r = sd_bus_message_read(m, "s", &item)) > 0)
                *applied |= sbx_applied_from_name(item);
        return r < 0 ? r : sd_bus_message_exit_container(m);
}

/* An "as", joined with @sep into @out. */
static int read_list(sd_bus_message *m, char *out, size_t size, const char *sep)
{
        const char *item;
        int r;

        out[0] = '\0';
        if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0)
                return r;
        while ((r = sd_bus_message_read(m, "s", &item)) > 0) {
                size_t len = strlen(out);

                snprintf(out + len, size - len, "%s%s", len ? sep : "", item);
        }
        return r < 0 ? r : sd_bus_message_exit_container(m);
}

int sbx_bus_summary_write(sd_bus_message *m, const struct sbx_result *res, const char *error)
{
        int r;

        /* 'b' takes an int through the varargs: a bool promotes to one. */
        if ((r = sd_bus_message_append(m, "iiibbtttts", res->status, res->exit_code, res->signal, (int)res->timed_out,
                                       (int)res->oom_killed, res->wall_ms, res->cpu_user_ms, res->cpu_sys_ms,
                                       res->peak_memory, error ? error : "")) < 0 ||
            (r = write_applied(m, res->applied)) < 0 || (r = write_list(m, res->weakened, '\n')) < 0 ||
            (r = write_list(m, res->notes, '\n')) < 0)
                return r;
        /* The validators' verdict; confidence -1: not given.  Then the broker's
         * summary of network: filtered ("" without one), and the isolation tier with
         * its substitutions as (feature, with, cause) ("" and none: no tier). */
        if ((r = sd_bus_message_append(m, "issds", res->validation.verdict, res->validation.validator,
                                       res->validation.reason, res->validation.confidence, res->network)) < 0 ||
            (r = sd_bus_message_append(m, "s", res->tier.tier)) < 0 ||
            (r = sd_bus_message_open_container(m, 'a', "(sss)")) < 0)
                return r;
        for (unsigned i = 0; i < res->tier.n_subs && i < SBX_MAX_SUBSTITUTIONS; i++)
                if ((r = sd_bus_message_append(m, "(sss)", res->tier.subs[i].feature, res->tier.subs[i].with,
                                               res->tier.subs[i].cause)) < 0)
                        return r;
        return sd_bus_message_close_container(m);
}

static int read_tier(sd_bus_message *m, struct sbx_tier_text *t)
{
        const char *tier = "", *feature, *with, *cause;
        int r;

        if ((r = sd_bus_message_read(m, "s", &tier)) < 0 || (r = sd_bus_message_enter_container(m, 'a', "(sss)")) < 0)
                return r;
        sbx_strlcpy(t->tier, tier, sizeof(t->tier));
        while ((r = sd_bus_message_read(m, "(sss)", &feature, &with, &cause)) > 0)
                if (t->n_subs < SBX_MAX_SUBSTITUTIONS) { /* more, from a socket: dropped */
                        sbx_strlcpy(t->subs[t->n_subs].feature, feature, sizeof(t->subs[0].feature));
                        sbx_strlcpy(t->subs[t->n_subs].with, with, sizeof(t->subs[0].with));
                        sbx_strlcpy(t->subs[t->n_subs].cause, cause, sizeof(t->subs[0].cause));
                        t->n_subs++;
                }
        return r < 0 ? r : sd_bus_message_exit_container(m);
}

static int read_validation(sd_bus_message *m, struct sbx_validation *v)
{
        const char *validator = "", *reason = "";
        int verdict = 0, r;
        double confidence = -1;

        if ((r = sd_bus_message_read(m, "issd", &verdict, &validator, &reason, &confidence)) < 0)
                return r;
        /* Checked, never indexed blindly: it came from a socket. */
        v->verdict = verdict >= 0 && verdict < _SBX_VV_MAX ? verdict : SBX_VV_ERROR;
        snprintf(v->validator, sizeof(v->validator), "%s", validator);
        snprintf(v->reason, sizeof(v->reason), "%s", reason);
        v->confidence = confidence >= 0 && confidence <= 1 ? confidence : -1;
        return 0;
}

int sbx_bus_summary_read(sd_bus_message *m, struct sbx_result *res, char *error, size_t size)
{
        const char *text = "";
        int timed_out, oom_killed; /* 'b' is written as an int: 4 bytes, never into a bool */
        int r;

        if ((r = sd_bus_message_read(m, "iiibbtttts", &res->status, &res->exit_code, &res->signal, &timed_out, &oom_killed,
                                     &res->wall_ms, &res->cpu_user_ms, &res->cpu_sys_ms, &res->peak_memory, &text)) < 0)
                return r;
        res->timed_out = timed_out != 0;
        res->oom_killed = oom_killed != 0;
        snprintf(error, size, "%s", text);
        if ((r = read_applied(m, &res->applied)) < 0 ||
            (r = read_list(m, res->weakened, sizeof(res->weakened), "\n")) < 0 ||
            (r = read_list(m, res->notes, sizeof(res->notes), "\n")) < 0)
                return r;
        if ((r = read_validation(m, &res->validation)) < 0)
                return r;
        /* An older sandboxd sends none of what follows: none, not an error. */
        res->network[0] = '\0';
        res->tier = (struct sbx_tier_text){ 0 };
        if (sd_bus_message_at_end(m, false) > 0)
                return 0;
        if ((r = sd_bus_message_read(m, "s", &text)) < 0)
                return r;
        snprintf(res->network, sizeof(res->network), "%s", text);
        if (sd_bus_message_at_end(m, false) > 0)
                return 0;
        return read_tier(m, &res->tier);
}
