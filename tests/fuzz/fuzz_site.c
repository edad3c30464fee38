/* SPDX-License-Identifier: MIT */
/* Fuzzes the site policy: any bytes through sbx_site_parse (the YAML reader, the shared
 * schema walker, the name lookups), and any policy it accepts through sbx_site_admit
 * for a few callers and profiles, and its deny rules through sbx_cmd_check.  A refusal
 * must say something, at a 1-based position; a refused policy must be the empty one;
 * an admission must grant a cap. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/site.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refusal(const struct sbx_diag *d, const struct sbx_site_policy *sp)
{
        char line[1024];

        sbx_diag_format(d, line, sizeof(line));
        if (!d->msg[0] || d->line == 0 || d->col == 0)
                abort();
        if (sp->n_rules || sp->deny_profiles.n || sp->deny.mode != SBX_CMD_OFF || sp->origin)
                abort();
}

static void admit_all(const struct sbx_site_policy *sp)
{
        static const char *const profiles[] = { "workspace", "network", "build", "*", "", "../x" };
        static const uid_t uids[] = { 0, 1000, 1001, 4294967294u };
        static const gid_t groups[] = { 0, 100, 2000, 3000 };

        for (size_t p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++)
                for (size_t u = 0; u < sizeof(uids) / sizeof(uids[0]); u++) {
                        struct sbx_site_grant g = { 0 };
                        char why[512] = "";

                        if (sbx_site_admit(sp, uids[u], (gid_t)uids[u], groups, u, profiles[p], &g, why, sizeof(why))) {
                                /* Admitted: a cap within the global one, a rule named. */
                                if (g.max_per_user == 0 || g.max_per_user > sp->max_per_user || !g.rule[0])
                                        abort();
                        } else if (!why[0]) {
                                abort();
                        }
                }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static char *const argv[] = { "sh", "-c", "dd if=/dev/zero | git push --force; mkfs.ext4 x", NULL };
        struct sbx_site_policy sp;
        struct sbx_diag d = { 0 };
        struct sbx_verdict v;

        if (sbx_site_parse("fuzz.yaml", (const char *)data, size, &sp, &d) < 0) {
                check_refusal(&d, &sp);
        } else {
                admit_all(&sp);
                if (sbx_cmd_check(&sp.deny, argv, &v) < 0)
                        abort();
        }
        sbx_site_done(&sp);
        return 0;
}
