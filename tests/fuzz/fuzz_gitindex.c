/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx_git_index_walk() as SHA-1 and as SHA-256, and sbx_git_path_ok() on every
 * path it reports.  What the walk promises is checked, not only that it does not crash:
 * each path NUL-terminated at its length and shorter than 4096 bytes, as many entries
 * reported as info says, and no callback at all for a buffer it refuses. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/gitfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
        size_t entries, others;
};

static int check(const struct sbx_git_index_entry *e, void *userdata)
{
        struct seen *s = userdata;

        if (!e->path || strlen(e->path) != e->path_len || e->path_len >= 4096 || e->stage > 3)
                abort();
        if (e->ext)
                s->others++;
        else
                s->entries++;
        (void)sbx_git_path_ok(e->path, e->path_len, e->mode);
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const size_t hash_lens[] = { 20, 32 };

        for (size_t k = 0; k < 2; k++) {
                struct sbx_git_index_info info;
                struct seen s = { 0, 0 };
                char why[160];
                int r = sbx_git_index_walk(data, size, hash_lens[k], check, &s, &info, why, sizeof(why));

                if (r != 0 && r != -EBADMSG)
                        abort();
                if (r == 0 && s.entries != info.n_entries)
                        abort();
                if (r != 0 && (s.entries || s.others || !why[0] || strlen(why) >= sizeof(why)))
                        abort();
        }
        return 0;
}
