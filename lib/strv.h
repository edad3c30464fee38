/* SPDX-License-Identifier: MIT */
/* A growable list of owned strings, NULL after the last (so it can go to execve). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct sbx_strv {
        char **v;
        size_t n;
};

int sbx_strv_push(struct sbx_strv *l, const char *s); /* copies @s; 0 or -ENOMEM */
bool sbx_strv_contains(const struct sbx_strv *l, const char *s);
void sbx_strv_free(struct sbx_strv *l);
