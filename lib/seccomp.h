/* SPDX-License-Identifier: MIT */
/* Seccomp: compiled with libseccomp in the launcher (prepare), installed as raw BPF in
 * the child as the very last step before execve (apply), so the filter never has to
 * allow what the earlier privilege steps need. */
#pragma once

#include <linux/filter.h>
#include <linux/seccomp.h>

#include "error.h"

struct sbx_seccomp {
        struct sock_filter *insns;
        unsigned short len;
};

int sbx_seccomp_prepare(struct sbx_seccomp *s, struct sbx_error *e);
/* Child: only syscalls; requires no_new_privs already set. */
int sbx_seccomp_apply(const struct sbx_seccomp *s, struct sbx_error *e);
void sbx_seccomp_done(struct sbx_seccomp *s);

/* The default filter, compiled by sbx_seccomp_prepare() at build time (tools/
 * gen-seccomp.c) and embedded: launching costs no compilation. */
const struct sbx_seccomp *sbx_seccomp_builtin(void);
