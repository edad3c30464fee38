/* SPDX-License-Identifier: MIT */
#include "strv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sbx_strv_push(struct sbx_strv *l, const char *s)
{
        char *copy = strdup(s);
        char **v;

        if (!copy)
                return -ENOMEM;
        v = reallocarray(l->v, l->n + 2, sizeof(*v));
        if (!v) {
                free(copy);
                return -ENOMEM;
        }
        l->v = v;
        l->v[l->n++] = copy;
        l->v[l->n] = NULL;
        return 0;
}

bool sbx_strv_contains(const struct sbx_strv *l, const char *s)
{
        for (size_t i = 0; i < l->n; i++)
                if (strcmp(l->v[i], s) == 0)
                        return true;
        return false;
}

void sbx_strv_free(struct sbx_strv *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->v[i]);
        free(l->v);
        l->v = NULL;
        l->n = 0;
}
