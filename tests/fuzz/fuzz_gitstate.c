/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx_git_state_check() (the first byte picks the file name, the rest is its
 * content), and the name checks on the same bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/gitfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
        "HEAD", "ORIG_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "AUTO_MERGE", "MERGE_HEAD", "shallow",
        "FETCH_HEAD", "packed-refs", "MERGE_MODE", "MERGE_MSG", "SQUASH_MSG", "COMMIT_EDITMSG", "TAG_EDITMSG",
        "config",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *name;
        char why[160];
        int r;

        if (size < 1)
                return 0;
        name = names[data[0] % (sizeof(names) / sizeof(names[0]))];
        r = sbx_git_state_check(name, data + 1, size - 1, why, sizeof(why));
        if (r != 0 && r != -EBADMSG && r != -ENOENT)
                abort();
        if ((r == -ENOENT) != (strcmp(name, "config") == 0))
                abort();
        if (r == -EBADMSG && (!why[0] || strlen(why) >= sizeof(why)))
                abort();
        (void)sbx_git_refname_ok((const char *)data + 1, size - 1);
        (void)sbx_git_oid_hex((const char *)data + 1, size - 1);
        (void)sbx_git_path_ok((const char *)data + 1, size - 1, 0100644);
        (void)sbx_git_path_ok((const char *)data + 1, size - 1, 0120000);
        (void)sbx_git_path_ok((const char *)data + 1, size - 1, 040000);
        return 0;
}
