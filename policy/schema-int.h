/* SPDX-License-Identifier: MIT */
/* Private to the two YAML schemas, profiles (schema.c) and the site policy (site.c): a
 * key table per section, one row per key, and the walker that applies a document
 * through the tables (schema-walk.c).  Sharing them is what keeps the two files equally
 * strict (unknown keys with a suggestion, wrong types, quoted booleans, keys without a
 * value) and their messages worded alike: "'limits.memory': 'lots' is not a size; ...". */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/strv.h"
#include "options.h"
#include "yaml.h"

struct sbx_key;
struct sbx_walk;

/* Applies value @v of key @k; 0, or -EINVAL/-ENOMEM with the walk's diag filled. */
typedef int (*sbx_key_fn)(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
/* One scalar item of a list. */
typedef int (*sbx_item_fn)(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *item);

struct sbx_key {
        const char *name;
        sbx_key_fn parse;
        size_t offset;   /* into the struct the walk's base points at */
        const void *arg; /* a sub-table, enum names, or bounds */
        const char *doc; /* what a value looks like, for error messages */
};

/* arg of the number parsers: the accepted range (struct sbx_bounds, options.h), in
 * the key's unit. */

/* One walk of one document. */
struct sbx_walk {
        void *base; /* what the keys' offsets are relative to; a parser that fills a
                     * nested struct (a site rule) points it there for its sub-walk */
        const char *file;
        struct sbx_diag *d;
        /* Called before each key that is not a section is applied (profiles refuse the
         * keys a parent made final); NULL: nothing to check. */
        int (*before)(struct sbx_walk *c, const struct sbx_node *at);
        void *data;     /* the schema's own state (a profile layer's variables...) */
        char path[256]; /* dotted path of the key being applied: "limits.memory" */
};

#define SBX_KEY_AT(c, k, type) ((type *)((char *)(c)->base + (k)->offset))

/* Applies the keys of mapping @map through @table, under c->path. */
int sbx_walk(struct sbx_walk *c, const struct sbx_key *table, const struct sbx_node *map);
/* The key of @table nearest to @name, or NULL when none is close. */
const char *sbx_key_nearest(const struct sbx_key *table, const char *name);

int sbx_walk_oom(struct sbx_walk *c, const struct sbx_node *n);
const char *sbx_walk_type_name(const struct sbx_node *n);
/* 0 when @v is of @type, else -EINVAL: "'path' must be a list, not a mapping; e.g. ...". */
int sbx_walk_want(struct sbx_walk *c, const struct sbx_node *v, enum sbx_node_type type, const struct sbx_key *k);
/* An unquoted true or false; a quoted one is refused by name. */
int sbx_walk_bool(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, bool *ret);
/* An isolation tier's name (lib/tier.h) into *@ret; "refuse" is no tier to accept, or
 * to set a floor at.  k->doc lists the names. */
int sbx_walk_tier(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, int *ret);
/* A list of scalars, @fn for each. */
int sbx_walk_each_item(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, sbx_item_fn fn);
/* Appends @s unless @l has it: lists append to a parent's, and a repeat is dropped. */
int sbx_walk_push_unique(struct sbx_walk *c, struct sbx_strv *l, const char *s, const struct sbx_node *at);

/* Items, into the struct sbx_strv at the key's offset. */
int sbx_item_string(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it); /* not empty */
int sbx_item_name(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it);   /* a command name */
int sbx_item_regex(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it);  /* a tame POSIX ERE */

/* Key parsers for the tables.  Strings go to a char *, bools to a bool, numbers to a
 * uint64_t within the key's struct sbx_bounds, enums to an int (arg: the names). */
int sbx_key_string(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_bool(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_size(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_duration(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v); /* in ms */
int sbx_key_count(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_memory(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);   /* a size or "50%" */
int sbx_key_enum(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_names(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_strings(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
/* Egress rules (lib/netrule.h) added to the struct sbx_netrules at the key's offset,
 * as the enum sbx_netrule_kind at k->arg says: a profile's network.allow and .deny,
 * the site policy's. */
int sbx_key_netrules(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
int sbx_key_regexes(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
/* A program and its arguments ([/abs/path, args...]), replacing a parent's (validator.command). */
int sbx_key_command(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);
/* A mapping walked with the table in arg. */
int sbx_key_section(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v);

/* A list key whose items @item checks and stores. */
#define SBX_KEY_LIST(fn_name, item)                                                            \
        static int fn_name(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v) \
        {                                                                                      \
                return sbx_walk_each_item(c, k, v, item);                                      \
        }
