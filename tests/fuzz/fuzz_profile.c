/* SPDX-License-Identifier: MIT */
/* Fuzzes the profile reader and the schema walker: any bytes through sbx_yaml_parse,
 * and any tree it accepts through sbx_profile_apply onto a fresh profile, twice, the
 * second time as a layer over the first (so `final` and the merge of lists and maps
 * run too).  A refusal must say something, at a 1-based position. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../policy/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fixed, so that a reproducer does not depend on who runs it. */
static const struct sbx_vars vars = {
        .workspace = "/work/ws",
        .home = "/home/u",
        .tmp = "/tmp",
        .uid = 1000,
};

/* A diagnosis is the user's only clue: an empty one, or one at line 0, is a bug. */
static void check_diag(const struct sbx_diag *d)
{
        char line[1024];

        sbx_diag_format(d, line, sizeof(line));
        if (!d->msg[0] || d->line == 0 || d->col == 0)
                abort();
}

static void apply(struct sbx_profile *pr, const struct sbx_node *root)
{
        struct sbx_diag d = { 0 };
        char *extends = NULL;

        if (sbx_profile_apply(pr, "fuzz.yaml", root, &vars, &extends, &d) < 0)
                check_diag(&d);
        free(extends);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct sbx_node *root = NULL;
        struct sbx_profile pr;
        struct sbx_diag d = { 0 };

        if (sbx_yaml_parse("fuzz.yaml", (const char *)data, size, &root, &d) < 0) {
                check_diag(&d);
                return 0;
        }
        sbx_profile_init(&pr);
        /* The loader names each layer before applying it; `final` records that name. */
        if (sbx_strv_push(&pr.chain, "fuzz") == 0) {
                apply(&pr, root);
                apply(&pr, root);
        }
        sbx_profile_done(&pr);
        sbx_node_free(root);
        return 0;
}
