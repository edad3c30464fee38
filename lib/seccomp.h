/* SPDX-License-Identifier: MIT */
/* Seccomp: compiled with libseccomp in the launcher (prepare), installed as raw BPF in
 * the child as the very last step before execve (apply), so the filter never has to
 * allow what the earlier privilege steps need. */
#pragma once

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct sbx_seccomp {
        struct sock_filter *insns;
        unsigned short len;
};

/* What a profile adds to the default filter. */
struct sbx_seccomp_extra {
        char *const *allow; /* names taken off the default deny list */
        size_t n_allow;
        char *const *deny;  /* names added to it */
        size_t n_deny;
        bool kill;          /* the added names kill the process instead of failing with EPERM */
};

/* Compiles the default filter, with @x's changes when not NULL. */
int sbx_seccomp_prepare(struct sbx_seccomp *s, const struct sbx_seccomp_extra *x, struct sbx_error *e);
/* @name is a system call of this architecture; when not, @near gets the closest one. */
bool sbx_seccomp_known(const char *name, char *near, size_t size);
bool sbx_seccomp_denied_by_default(const char *name);
/* Child: only syscalls; requires no_new_privs already set. */
int sbx_seccomp_apply(const struct sbx_seccomp *s, struct sbx_error *e);
void sbx_seccomp_done(struct sbx_seccomp *s);

/* The default filter, compiled by sbx_seccomp_prepare() at build time (tools/
 * gen-seccomp.c) and embedded: launching costs no compilation. */
const struct sbx_seccomp *sbx_seccomp_builtin(void);
