/* SPDX-License-Identifier: MIT */
/* The child half of the seccomp stage: installs raw BPF, no libseccomp. */
#include "seccomp.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>

int sbx_seccomp_apply(const struct sbx_seccomp *s, struct sbx_error *e)
{
        struct sock_fprog prog = { .len = s->len, .filter = s->insns };

        /* SPEC_ALLOW not set: keep the kernel's speculative-store-bypass mitigation. */
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, "seccomp", errno, "prctl", "", "cannot install the seccomp filter");
        return 0;
}

void sbx_seccomp_done(struct sbx_seccomp *s)
{
        free(s->insns);
        *s = (struct sbx_seccomp){ 0 };
}
