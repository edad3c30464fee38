/* SPDX-License-Identifier: MIT */
#include "sync.h"

#include <sys/socket.h>
#include <unistd.h>

void sbx_sync_send(int fd, const struct sbx_msg *m)
{
        (void)send(fd, m, sizeof(*m), MSG_NOSIGNAL);
}

_Noreturn void sbx_sync_fail(int fd, const struct sbx_error *e)
{
        struct sbx_msg m = { .type = SBX_MSG_ERROR, .err = *e };

        sbx_sync_send(fd, &m);
        _exit(125);
}
