/* SPDX-License-Identifier: MIT */
/* The child half of the seccomp stage: installs raw BPF, no libseccomp. */
#include "seccomp.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"

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

/* Where the low 32 bits of argument @i lie (uid_t and gid_t are 32 bits: the kernel
 * reads no more). */
#define ARG_LOW(i) \
        ((uint32_t)(offsetof(struct seccomp_data, args) + (i) * sizeof(uint64_t) + \
                    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : sizeof(uint32_t))))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define EPERM_RET (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int sbx_seccomp_apply_ids(uint32_t uid, uint32_t gid, struct sbx_error *e)
{
        /* Blocks of 8: the owner at argument U, the group at U+1, each -1 or ours. */
#define CHOWN_AT(u)                                                                    \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(u)),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uid, 1, 0),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UINT32_MAX, 0, 4),                         \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW((u) + 1)),                          \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, gid, 1, 0),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UINT32_MAX, 0, 1),                         \
        RET(SECCOMP_RET_ALLOW), RET(EPERM_RET)
        /* Only the native numbers: a foreign ABI's are all denied by the main filter,
         * whatever this one answers. */
        struct sock_filter insns[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_chown
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_chown, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_lchown, 3, 0),
#else
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 3, 0),
#endif
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchownat, 9, 0),
                RET(SECCOMP_RET_ALLOW),
                CHOWN_AT(1), /* chown, lchown, fchown (path or fd, owner, group) */
                CHOWN_AT(2), /* fchownat (dirfd, path, owner, group, flags) */
        };
        struct sock_fprog prog = { .len = ELEMENTSOF(insns), .filter = insns };

        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the ownership filter");
        return 0;
}

void sbx_seccomp_done(struct sbx_seccomp *s)
{
        free(s->insns);
        *s = (struct sbx_seccomp){ 0 };
}
