/* SPDX-License-Identifier: MIT */
#include "doctor.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../lib/json.h"
#include "../lib/probe.h"
#include "../lib/tier.h"
#include "../policy/profile.h"

#define EXIT_REFUSED 125

struct report {
        const char *profile;
        enum sbx_tier min;
        struct sbx_probe pr;
        struct sbx_tier_choice choice;
        char remedy[1024];
};

/* What the run would be made of: the profile's network and /proc, the caller's --net. */
static int load_plan(const struct sbx_options *o, struct sbx_profile *prof, struct sbx_error *e)
{
        const struct sbx_option *net = sbx_option_by_cli("net");
        struct sbx_diag diag = { 0 };
        struct sbx_vars vars;
        char msg[512];

        if (sbx_vars_init(&vars, o->ask.plan.workspace, &diag) < 0 ||
            sbx_profile_load(o->profile ? o->profile : "workspace", &vars, prof, &diag) < 0) {
                sbx_diag_format(&diag, msg, sizeof(msg));
                sbx_error_set(e, SBX_STAGE_PROFILE, EINVAL, "", "", "%s", msg);
                sbx_error_hint(e, "sbx-run --list-profiles shows what is installed");
                return -EINVAL;
        }
        if (net && sbx_ask_given(&o->ask, net))
                prof->plan.net = o->ask.plan.net;
        prof->plan.uid = getuid();
        return 0;
}

static void print_text(const struct report *r, FILE *f)
{
        const struct sbx_probe_labels *l = &r->pr.labels;

        fprintf(f, "runtime: %s (labels:%s%s%s%s%s%s)\n", sbx_probe_runtime(l), l->dockerenv ? " /.dockerenv" : "",
                l->containerenv ? " /run/.containerenv" : "", l->kubernetes ? " kubernetes" : "",
                l->overlay_root ? " overlay-root" : "", l->container[0] ? " container=" : "", l->container);
        fprintf(f, "user namespace needed: %s (%s)\n", r->pr.userns ? "yes" : "no",
                geteuid() != 0 ? "not root" : r->pr.userns ? "root without CAP_SYS_ADMIN" : "root with CAP_SYS_ADMIN");
        for (int id = 0; id < SBX_PROBE_COUNT; id++) {
                const struct sbx_probe_result *p = &r->pr.r[id];

                fprintf(f, "  %s %-12s %s", sbx_probe_tag(id), sbx_probe_name(id), p->err ? "FAIL" : "ok");
                if (p->err)
                        fprintf(f, "  %s: %s", p->step, strerror(p->err));
                else if (id == SBX_PROBE_LANDLOCK)
                        fprintf(f, "  ABI %d", p->value);
                fputc('\n', f);
        }
        fprintf(f, "profile: %s (min_tier: %s)\n", r->profile, sbx_tier_name(r->min));
        fprintf(f, "tier: %s\n", sbx_tier_name(r->choice.tier));
        if (r->choice.tier == SBX_TIER_REFUSE)
                fprintf(f, "  because: %s\n", r->choice.cause);
        if (r->choice.tier == SBX_TIER_REFUSE && r->choice.no_landlock[0])
                fprintf(f, "  %s\n", r->choice.no_landlock);
        else if (r->choice.tier == SBX_TIER_REFUSE)
                fprintf(f, "  the namespace-less tier would run it: min_tier: landlock (sbx-run(1) ISOLATION TIERS)\n");
        for (size_t i = 0; i < r->choice.n_subs; i++)
                fprintf(f, "  substitution: %s=%s (%s)\n", r->choice.subs[i].feature, r->choice.subs[i].with, r->choice.subs[i].cause);
        fprintf(f, "verdict: %s\n", r->choice.tier >= r->min ? "runs" : "refused (exit 125)");
        if (r->remedy[0])
                fprintf(f, "remedy: %s\n", r->remedy);
}

static void print_json(const struct report *r, FILE *f)
{
        const struct sbx_probe_labels *l = &r->pr.labels;

        fputs("{\"runtime\":", f);
        sbx_json_string(f, sbx_probe_runtime(l));
        fprintf(f, ",\"labels\":{\"dockerenv\":%s,\"containerenv\":%s,\"kubernetes\":%s,\"overlay_root\":%s,\"container\":",
                l->dockerenv ? "true" : "false", l->containerenv ? "true" : "false", l->kubernetes ? "true" : "false",
                l->overlay_root ? "true" : "false");
        sbx_json_string(f, l->container);
        fprintf(f, "},\"userns_needed\":%s,\"probes\":[", r->pr.userns ? "true" : "false");
        for (int id = 0; id < SBX_PROBE_COUNT; id++) {
                const struct sbx_probe_result *p = &r->pr.r[id];

                fprintf(f, "%s{\"id\":\"%s\",\"name\":\"%s\",\"ok\":%s,\"errno\":%d,\"step\":", id ? "," : "", sbx_probe_tag(id),
                        sbx_probe_name(id), p->err ? "false" : "true", p->err);
                sbx_json_string(f, p->err ? p->step : "");
                fputs(",\"error\":", f);
                sbx_json_string(f, p->err ? strerror(p->err) : "");
                if (id == SBX_PROBE_LANDLOCK)
                        fprintf(f, ",\"abi\":%d", p->value);
                fputc('}', f);
        }
        fputs("],\"profile\":", f);
        sbx_json_string(f, r->profile);
        fputs(",\"min_tier\":", f);
        sbx_json_string(f, sbx_tier_name(r->min));
        sbx_tier_json_fields(&r->choice, f);
        fputs(",\"refusal\":", f);
        sbx_json_string(f, r->choice.tier == SBX_TIER_REFUSE ? r->choice.cause : "");
        fprintf(f, ",\"runs\":%s,\"remedy\":", r->choice.tier >= r->min ? "true" : "false");
        sbx_json_string(f, r->remedy);
        fputs("}\n", f);
}

int sbx_doctor(const struct sbx_options *o, FILE *f, struct sbx_error *e)
{
        struct sbx_profile prof;
        struct report r = { .profile = o->profile ? o->profile : "workspace" };

        sbx_profile_init(&prof);
        if (load_plan(o, &prof, e) < 0) {
                sbx_profile_done(&prof);
                return EXIT_REFUSED;
        }
        r.min = (enum sbx_tier)prof.min_tier;
        sbx_probe_run(&r.pr);
        sbx_tier_choose(&r.pr, &prof.plan, &r.choice);
        sbx_tier_fallback(&r.pr, &prof.plan, r.min, &r.choice);
        /* Where it runs: what would lift it to full, as advice; refused: what must change. */
        sbx_tier_remedy(&r.pr, &r.choice, r.choice.tier >= r.min ? SBX_TIER_FULL : r.min, r.remedy, sizeof(r.remedy));
        sbx_profile_done(&prof);
        if (o->json)
                print_json(&r, f);
        else
                print_text(&r, f);
        return fflush(f) == 0 && r.choice.tier >= r.min ? 0 : EXIT_REFUSED;
}
