/* SPDX-License-Identifier: MIT */
/* The child half of the seccomp stage: installs raw BPF, no libseccomp. */
#include "seccomp.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int sbx_seccomp_apply(const struct sbx_seccomp *s, int *listener, struct sbx_error *e)
{
        struct sock_fprog prog = { .len = s->len, .filter = s->insns };
        long fd;

        if (!listener) {
                /* SPEC_ALLOW not set: keep the kernel's speculative-store-bypass mitigation. */
                if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                        return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the seccomp filter");
                return 0;
        }
        /* Once the broker has taken a connect, only a fatal signal interrupts the wait
         * (5.19+): a signal in between would otherwise restart a connect the broker
         * may already have made. */
        fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
                     &prog);
        if (fd < 0 && errno == EINVAL)
                fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "seccomp", "", "cannot install the seccomp filter with its listener");
        *listener = (int)fd;
        return 0;
}

void sbx_seccomp_done(struct sbx_seccomp *s)
{
        free(s->insns);
        *s = (struct sbx_seccomp){ 0 };
}
