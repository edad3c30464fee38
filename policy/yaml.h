/* SPDX-License-Identifier: MIT */
/* A YAML document as a small tree with positions, read with libyaml.  Only what
 * profiles need: mappings, sequences and scalars.  Anchors, aliases, tags and multiple
 * documents are refused (they serve no profile and aliases are a memory bomb), as are
 * duplicate keys, documents over 1 MiB and nesting over 32 levels. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum sbx_node_type {
        SBX_NODE_SCALAR,
        SBX_NODE_SEQ,
        SBX_NODE_MAP,
};

struct sbx_node {
        enum sbx_node_type type;
        unsigned line, col;     /* 1-based, where the node starts */
        char *value;            /* scalars */
        bool plain;             /* an unquoted scalar (so "null" and null differ) */
        struct sbx_node **items; /* sequence items; for maps: key, value, key, value... */
        size_t n;               /* number of items (maps: twice the number of pairs) */
};

/* Where a problem was found and what it is: "file:line:col: message". */
struct sbx_diag {
        char file[256];
        unsigned line, col;
        char msg[512];
};

/* Parses @len bytes of @text.  Returns the root (a map, or NULL for an empty document)
 * in @ret and 0, or -EINVAL with @d filled. */
int sbx_yaml_parse(const char *file, const char *text, size_t len, struct sbx_node **ret, struct sbx_diag *d);
void sbx_node_free(struct sbx_node *n);
static inline void sbx_node_freep(struct sbx_node **n)
{
        sbx_node_free(*n);
}

/* Fills @d at @n's position; returns -EINVAL. */
int sbx_diag_at(struct sbx_diag *d, const char *file, const struct sbx_node *n, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
/* A problem with no place in a file (a profile that is not there): no position, and
 * sbx_diag_format() prints the message alone. */
int sbx_diag_nowhere(struct sbx_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "file:line:col: message" */
void sbx_diag_format(const struct sbx_diag *d, char *buf, size_t size);

#define SBX_YAML_MAX_BYTES (1u << 20)
#define SBX_YAML_MAX_DEPTH 32
