/* SPDX-License-Identifier: MIT */
/* The table walker both YAML schemas share (profiles in schema.c, the site policy in
 * site.c), and the value parsers that mean the same in both: strings, bools, numbers
 * within bounds, enums, lists of names, strings and patterns.  Every refusal names the
 * dotted key path and points at the offending node, so that a file's author reads
 * "FILE:LINE:COL: 'limits.memory': 'lots' is not a size; ..." and nothing else. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cleanup.h"
#include "../lib/netrule.h"
#include "../lib/parse.h"
#include "../lib/plan.h"
#include "../lib/tier.h"
#include "schema-int.h"

int sbx_walk_oom(struct sbx_walk *c, const struct sbx_node *n)
{
        sbx_diag_at(c->d, c->file, n, "out of memory");
        return -ENOMEM;
}

const char *sbx_walk_type_name(const struct sbx_node *n)
{
        return n->type == SBX_NODE_MAP ? "a mapping" : n->type == SBX_NODE_SEQ ? "a list" : "a single value";
}

int sbx_walk_want(struct sbx_walk *c, const struct sbx_node *v, enum sbx_node_type type, const struct sbx_key *k)
{
        if (v->type == type)
                return 0;
        return sbx_diag_at(c->d, c->file, v, "'%s' must be %s, not %s%s%s", c->path,
                           type == SBX_NODE_MAP ? "a mapping" : type == SBX_NODE_SEQ ? "a list" : "a single value",
                           sbx_walk_type_name(v), k && k->doc ? "; e.g. " : "", k && k->doc ? k->doc : "");
}

/* ------------------------------------------------------------------ scalars */

int sbx_key_string(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        char **dst = SBX_KEY_AT(c, k, char *);
        char *s;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        s = strdup(v->value);
        if (!s)
                return sbx_walk_oom(c, v);
        free(*dst);
        *dst = s;
        return 0;
}

/* Only the plain words: YAML 1.1's yes/on/True are not booleans here, and a quoted
 * "true" is a string that a reader would take for one. */
int sbx_walk_bool(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, bool *ret)
{
        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if (v->plain && strcmp(v->value, "true") == 0)
                *ret = true;
        else if (v->plain && strcmp(v->value, "false") == 0)
                *ret = false;
        else if (!v->plain && (strcmp(v->value, "true") == 0 || strcmp(v->value, "false") == 0))
                return sbx_diag_at(c->d, c->file, v, "'%s' must be true or false without quotes, not the string \"%s\"", c->path,
                                   v->value);
        else
                return sbx_diag_at(c->d, c->file, v, "'%s' must be true or false, not '%s'", c->path, v->value);
        return 0;
}

int sbx_key_bool(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_bool(c, k, v, SBX_KEY_AT(c, k, bool));
}

/* A number in the key's unit (what @parse reads), within the key's bounds. */
static int parse_number(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v,
                        int (*parse)(const char *, uint64_t *), const char *what)
{
        const struct sbx_bounds *b = k->arg;
        uint64_t n;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        if (parse(v->value, &n) < 0)
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not a %s; %s", c->path, v->value, what, k->doc);
        if (n < b->min || n > b->max)
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is out of range; %s", c->path, v->value, k->doc);
        *SBX_KEY_AT(c, k, uint64_t) = n;
        return 0;
}

int sbx_key_size(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return parse_number(c, k, v, sbx_parse_size, "size");
}

int sbx_key_duration(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return parse_number(c, k, v, sbx_parse_duration_ms, "duration");
}

int sbx_key_count(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return parse_number(c, k, v, sbx_parse_u64, "count");
}

/* A memory limit may also be a share of the machine's RAM: "50%", computed now. */
int sbx_key_memory(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        size_t len;
        uint64_t pct;
        char num[16];

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        len = strlen(v->value);
        if (len < 2 || v->value[len - 1] != '%')
                return sbx_key_size(c, k, v);
        snprintf(num, sizeof(num), "%.*s", (int)(len - 1), v->value);
        if (len - 1 >= sizeof(num) || sbx_parse_u64(num, &pct) < 0 || pct == 0 || pct > 100)
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not a share of RAM from 1%% to 100%%", c->path, v->value);
        *SBX_KEY_AT(c, k, uint64_t) = sbx_physical_memory() / 100 * pct;
        return 0;
}

/* Enums: arg is a NULL-terminated list of names; the value stored is the index. */
int sbx_key_enum(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        const char *const *names = k->arg;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        for (int i = 0; names[i]; i++)
                if (strcmp(v->value, names[i]) == 0) {
                        *SBX_KEY_AT(c, k, int) = i;
                        return 0;
                }
        return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not one of: %s", c->path, v->value, k->doc);
}

/* ------------------------------------------------------------------ lists */

/* A single scalar where a list is expected is refused, not taken as a list of one:
 * "deny: dd" and "deny: [dd]" look alike, "deny: dd mkfs" would not. */
int sbx_walk_each_item(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, sbx_item_fn fn)
{
        int r;

        if (sbx_walk_want(c, v, SBX_NODE_SEQ, k) < 0)
                return -EINVAL;
        for (size_t i = 0; i < v->n; i++) {
                if (v->items[i]->type != SBX_NODE_SCALAR)
                        return sbx_diag_at(c->d, c->file, v->items[i], "'%s': each item must be a single value, not %s",
                                           c->path, sbx_walk_type_name(v->items[i]));
                if ((r = fn(c, k, v->items[i])) < 0)
                        return r;
        }
        return 0;
}

int sbx_walk_push_unique(struct sbx_walk *c, struct sbx_strv *l, const char *s, const struct sbx_node *at)
{
        if (sbx_strv_contains(l, s))
                return 0;
        return sbx_strv_push(l, s) < 0 ? sbx_walk_oom(c, at) : 0;
}

static bool is_command_name(const char *s)
{
        if (!*s || strlen(s) > 255)
                return false;
        for (; *s; s++)
                if (*s == '/' || *s == ' ' || *s == '\t' || *s == '\n')
                        return false;
        return true;
}

int sbx_item_name(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        if (!is_command_name(it->value))
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a command name (no '/', no spaces)", c->path, it->value);
        return sbx_walk_push_unique(c, SBX_KEY_AT(c, k, struct sbx_strv), it->value, it);
}

int sbx_item_string(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        if (it->value[0] == '\0')
                return sbx_diag_at(c->d, c->file, it, "'%s': an empty item", c->path);
        return sbx_walk_push_unique(c, SBX_KEY_AT(c, k, struct sbx_strv), it->value, it);
}

/* glibc compiles {m,n} by copying the atom n times, and nested counts multiply: a
 * 30-byte pattern can ask for gigabytes.  Bounded: few counts, small ones. */
static bool regex_is_tame(const char *s)
{
        unsigned counts = 0;

        if (strlen(s) > 512)
                return false;
        for (; *s; s++) {
                if (*s == '\\' && s[1]) {
                        s++;
                        continue;
                }
                if (*s != '{')
                        continue;
                if (++counts > 3)
                        return false;
                for (s++; *s && *s != '}'; s++)
                        if (*s >= '0' && *s <= '9' && strtoul(s, NULL, 10) > 32)
                                return false;
                if (!*s)
                        break;
        }
        return true;
}

/* Saturating arithmetic for the estimate below: anything past @cap is "too much". */
static uint64_t sat_add(uint64_t a, uint64_t b, uint64_t cap)
{
        return a > cap || b > cap - a ? cap + 1 : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b, uint64_t cap)
{
        return b && a > cap / b ? cap + 1 : a * b;
}

/* The end of the bracket expression at @p ('['): its closing ']', which may not be its
 * first member ("[]a]", "[^]a]"), nor close a "[:alpha:]" inside it. */
static const char *bracket_end(const char *p)
{
        p++;
        if (*p == '^')
                p++;
        if (*p == ']')
                p++;
        for (; *p && *p != ']'; p++)
                if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
                        const char *end = strchr(p + 2, p[1]);

                        while (end && end[1] != ']')
                                end = strchr(end + 1, p[1]);
                        if (!end)
                                return p + strlen(p) - 1;
                        p = end + 1;
                }
        return *p ? p : p - 1;
}

/* A {m}, {m,}, {,n} or {m,n} at @p: the copies it makes (at least 1), with @end at its
 * '}'; 0 when @p starts none (then regcomp() says what is wrong with it). */
static uint64_t interval(const char *p, const char **end)
{
        uint64_t times = 0;
        char *e = (char *)p + 1;

        if (*e >= '0' && *e <= '9')
                times = strtoull(e, &e, 10);
        if (*e == ',' && e[1] >= '0' && e[1] <= '9')
                times = strtoull(e + 1, &e, 10);
        else if (*e == ',')
                e++;
        if (*e != '}' || e == p + 1)
                return 0;
        *end = e;
        return times > 1 ? times : 1;
}

/* Roughly how many nodes glibc's regcomp() builds for ERE @s.  It copies the atom
 * before a '+' once more and the atom before a {m,n} max(m,n) times, so repetitions
 * stacked or nested multiply ("a+++++++++++++++++" took 85 MB, found by fuzz_profile),
 * and its epsilon closures grow with the square of what a star or '?' makes optional
 * ("((a)*{1,32})*{1,32}": 5 s; found by fuzz_site).  Summed per group, multiplied along
 * the nesting; saturates past @cap. */
static uint64_t regex_nodes(const char *s, uint64_t cap)
{
        struct {
                uint64_t sum;  /* nodes of this group so far */
                uint64_t last; /* nodes of its last atom, which a repetition copies */
        } st[64] = { { 0, 0 } };
        size_t d = 0;

        for (const char *p = s; *p; p++) {
                uint64_t atom = 1, times = 0;

                if (*p == '(') {
                        if (++d == ELEMENTSOF(st))
                                return cap + 1;
                        st[d].sum = st[d].last = 0;
                        continue;
                }
                if (*p == '|' || *p == '*' || *p == '?') { /* a node around the last atom */
                        st[d].sum = sat_add(st[d].sum, 1, cap);
                        st[d].last = *p == '|' ? 0 : sat_add(st[d].last, 1, cap);
                        continue;
                }
                if (*p == ')' && d > 0)
                        atom = st[d--].sum;
                else if (*p == '+')
                        times = 2;
                else if (*p == '{')
                        times = interval(p, &p);
                else if (*p == '[')
                        p = bracket_end(p);
                else if (*p == '\\' && p[1])
                        p++;
                if (times) {
                        st[d].sum = sat_add(st[d].sum, sat_mul(st[d].last, times - 1, cap), cap);
                        st[d].last = sat_mul(st[d].last, times, cap);
                } else {
                        st[d].sum = sat_add(st[d].sum, atom, cap);
                        st[d].last = atom;
                }
        }
        for (; d > 0; d--) /* groups left open: regcomp() refuses them, count them anyway */
                st[d - 1].sum = sat_add(st[d - 1].sum, st[d].sum, cap);
        return st[0].sum;
}

/* Compiled here with the flags the checker uses, so that a pattern that would not
 * compile there is refused at its line rather than denying every command later. */
int sbx_item_regex(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *it)
{
        regex_t re;
        int r;

        if (!regex_is_tame(it->value))
                return sbx_diag_at(c->d, c->file, it,
                                   "'%s': '%.64s' is too costly a pattern (at most 512 bytes, 3 {m,n} counts, each up to 32)",
                                   c->path, it->value);
        /* 1000: ten times what a long real pattern needs, and at most some 20 MB and half
         * a second of regcomp() ("((a)*{1,22})*{1,22}" is 990), which the checker pays
         * again for every command it judges. */
        if (regex_nodes(it->value, 1000) > 1000)
                return sbx_diag_at(c->d, c->file, it,
                                   "'%s': '%.64s' is too costly a pattern (repetitions stacked or nested multiply its size)",
                                   c->path, it->value);
        r = regcomp(&re, it->value, REG_EXTENDED | REG_ICASE | REG_NOSUB);

        if (r != 0) {
                char why[128];

                regerror(r, &re, why, sizeof(why));
                return sbx_diag_at(c->d, c->file, it, "'%s': '%s' is not a regular expression: %s", c->path, it->value, why);
        }
        regfree(&re);
        return sbx_item_string(c, k, it);
}

int sbx_key_names(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_each_item(c, k, v, sbx_item_name);
}

int sbx_key_strings(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_each_item(c, k, v, sbx_item_string);
}

static int item_netrule(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_error e = { 0 };

        if (sbx_netrules_add(SBX_KEY_AT(c, k, struct sbx_netrules), v->value, *(const enum sbx_netrule_kind *)k->arg, &e) < 0)
                return sbx_diag_at(c->d, c->file, v, "'%s': %s%s%s", c->path, e.msg, e.hint[0] ? "; " : "", e.hint);
        return 0;
}

int sbx_key_netrules(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_each_item(c, k, v, item_netrule);
}

int sbx_key_regexes(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        return sbx_walk_each_item(c, k, v, sbx_item_regex);
}

/* ------------------------------------------------------------------ the walker */

const char *sbx_key_nearest(const struct sbx_key *table, const char *name)
{
        const char *best = NULL;
        unsigned best_d = 4;

        for (const struct sbx_key *k = table; k->name; k++) {
                unsigned d = sbx_edit_distance(name, k->name);

                if (d < best_d) {
                        best_d = d;
                        best = k->name;
                }
        }
        return best;
}

static const char *keys_list(const struct sbx_key *table, char *buf, size_t size)
{
        size_t o = 0;

        buf[0] = '\0';
        for (const struct sbx_key *k = table; k->name && o < size; k++)
                o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? ", " : "", k->name);
        return buf;
}

int sbx_walk(struct sbx_walk *c, const struct sbx_key *table, const struct sbx_node *map)
{
        size_t base = strlen(c->path);

        for (size_t i = 0; i < map->n; i += 2) {
                const struct sbx_node *name = map->items[i], *val = map->items[i + 1];
                const struct sbx_key *k;
                int r;

                for (k = table; k->name && strcmp(k->name, name->value) != 0; k++)
                        ;
                snprintf(c->path + base, sizeof(c->path) - base, "%s%s", base ? "." : "", name->value);
                if (!k->name) {
                        const char *near = sbx_key_nearest(table, name->value);
                        char all[512];

                        if (near)
                                return sbx_diag_at(c->d, c->file, name, "unknown key '%s' (did you mean '%s'?)", c->path, near);
                        return sbx_diag_at(c->d, c->file, name, "unknown key '%s' (valid here: %s)", c->path,
                                           keys_list(table, all, sizeof(all)));
                }
                if (k->parse != sbx_key_section && c->before && (r = c->before(c, name)) < 0)
                        return r;
                /* "key:" with nothing after it is a null: a mistake, not an empty value. */
                if (val->type == SBX_NODE_SCALAR && val->plain && (val->value[0] == '\0' || strcmp(val->value, "~") == 0 ||
                                                                  strcmp(val->value, "null") == 0))
                        return sbx_diag_at(c->d, c->file, val, "'%s' has no value%s%s", c->path, k->doc ? "; e.g. " : "",
                                           k->doc ? k->doc : "");
                r = k->parse(c, k, val);
                c->path[base] = '\0';
                if (r < 0)
                        return r;
        }
        return 0;
}

int sbx_key_section(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        if (v->type != SBX_NODE_MAP)
                return sbx_diag_at(c->d, c->file, v, "'%s' must be a mapping (key: value lines under it), not %s", c->path,
                                   sbx_walk_type_name(v));
        return sbx_walk(c, k->arg, v);
}

/* A program and its arguments: a list whose first item is an absolute path (exec'd
 * as it is, never looked up in a PATH).  It replaces a parent's whole list: a command
 * is one thing, not two appended. */
int sbx_key_command(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v)
{
        struct sbx_strv *l = SBX_KEY_AT(c, k, struct sbx_strv), fresh = { 0 };

        if (sbx_walk_want(c, v, SBX_NODE_SEQ, k) < 0)
                return -EINVAL;
        if (v->n == 0)
                return sbx_diag_at(c->d, c->file, v, "'%s' is empty; it names a program and its arguments, e.g. %s", c->path,
                                   k->doc ? k->doc : "[/usr/libexec/check]");
        for (size_t i = 0; i < v->n; i++) {
                const struct sbx_node *it = v->items[i];

                if (it->type != SBX_NODE_SCALAR) {
                        sbx_strv_free(&fresh);
                        return sbx_diag_at(c->d, c->file, it, "'%s': each item must be a single value, not %s", c->path,
                                           sbx_walk_type_name(it));
                }
                if (i == 0 && (it->value[0] != '/' || !sbx_path_is_normal(it->value))) {
                        sbx_strv_free(&fresh);
                        return sbx_diag_at(c->d, c->file, it,
                                           "'%s': '%s' is not an absolute path without '.', '..' or '//' (the program is run as named, never looked up)",
                                           c->path, it->value);
                }
                if (sbx_strv_push(&fresh, it->value) < 0) {
                        sbx_strv_free(&fresh);
                        return sbx_walk_oom(c, it);
                }
        }
        sbx_strv_free(l);
        *l = fresh;
        return 0;
}

int sbx_walk_tier(struct sbx_walk *c, const struct sbx_key *k, const struct sbx_node *v, int *ret)
{
        int t;

        if (sbx_walk_want(c, v, SBX_NODE_SCALAR, k) < 0)
                return -EINVAL;
        t = sbx_tier_by_name(v->value);
        if (t <= SBX_TIER_REFUSE)
                return sbx_diag_at(c->d, c->file, v, "'%s': '%s' is not one of: %s", c->path, v->value, k->doc);
        *ret = t;
        return 0;
}
