/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx_git_config_scan(): no crash, a reason for every refusal, and the same
 * variables every time the same text is scanned. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/gitfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct digest {
        uint64_t h;
        size_t n;
};

static void mix(struct digest *d, const char *s)
{
        for (; *s; s++)
                d->h = (d->h ^ (uint8_t)*s) * 1099511628211u;
        d->h = (d->h ^ 0xff) * 1099511628211u;
}

static int note(const char *name, const char *value, void *userdata)
{
        struct digest *d = userdata;

        if (!name || !name[0])
                abort();
        mix(d, name);
        mix(d, value ? value : "(true)");
        d->n++;
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct digest a = { 14695981039346656037u, 0 }, b = a;
        char why[160];
        int r = sbx_git_config_scan((const char *)data, size, note, &a, why, sizeof(why));

        if (r != 0 && r != -EBADMSG && r != -ENOMEM)
                abort();
        if (r == -EBADMSG && (strncmp(why, "line ", 5) != 0 || strlen(why) >= sizeof(why)))
                abort();
        if (sbx_git_config_scan((const char *)data, size, note, &b, NULL, 0) != r || a.h != b.h || a.n != b.n)
                abort();
        return 0;
}
