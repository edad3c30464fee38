/* SPDX-License-Identifier: MIT */
/* libyaml's event stream folded into a tree: one recursive descent, depth-limited. */
#include "yaml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "../lib/cleanup.h"

struct reader {
        yaml_parser_t parser;
        const char *file;
        const char *text; /* the document, for positions libyaml gives as offsets */
        size_t len;
        struct sbx_diag *d;
};

int sbx_diag_at(struct sbx_diag *d, const char *file, const struct sbx_node *n, const char *fmt, ...)
{
        va_list ap;

        snprintf(d->file, sizeof(d->file), "%s", file ? file : "<profile>");
        d->line = n ? n->line : 1;
        d->col = n ? n->col : 1;
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
        va_end(ap);
        return -EINVAL;
}

int sbx_diag_nowhere(struct sbx_diag *d, const char *fmt, ...)
{
        va_list ap;

        *d = (struct sbx_diag){ 0 };
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
        va_end(ap);
        return -EINVAL;
}

void sbx_diag_format(const struct sbx_diag *d, char *buf, size_t size)
{
        if (d->line == 0)
                snprintf(buf, size, "%s", d->msg);
        else
                snprintf(buf, size, "%s:%u:%u: %s", d->file, d->line, d->col, d->msg);
}

static int diag_mark(struct reader *r, yaml_mark_t mark, const char *what)
{
        struct sbx_node at = { .line = (unsigned)mark.line + 1, .col = (unsigned)mark.column + 1 };

        return sbx_diag_at(r->d, r->file, &at, "%s", what);
}

/* Line and column of a byte offset (the reader's errors come as offsets). */
static struct sbx_node position_of(const struct reader *r, size_t offset)
{
        struct sbx_node at = { .line = 1, .col = 1 };

        for (size_t i = 0; i < offset && i < r->len; i++) {
                if (r->text[i] == '\n') {
                        at.line++;
                        at.col = 1;
                } else {
                        at.col++;
                }
        }
        return at;
}

/* libyaml's own syntax errors, at the problem's position, with what it was reading. */
static int parser_error(struct reader *r)
{
        const yaml_parser_t *y = &r->parser;
        yaml_mark_t mark = y->problem ? y->problem_mark : y->context_mark;
        struct sbx_node at = { .line = (unsigned)mark.line + 1, .col = (unsigned)mark.column + 1 };
        const char *problem = y->problem ? y->problem : "malformed document";

        if (y->error == YAML_READER_ERROR) {
                at = position_of(r, y->problem_offset);
                return sbx_diag_at(r->d, r->file, &at, "YAML syntax: %s (a profile must be UTF-8 text)", problem);
        }
        if (mark.index < r->len && r->text[mark.index] == '\t')
                return sbx_diag_at(r->d, r->file, &at, "YAML syntax: a tab character; indent with spaces");
        if (y->context)
                return sbx_diag_at(r->d, r->file, &at, "YAML syntax: %s (%s at line %zu, column %zu)", problem, y->context,
                                   y->context_mark.line + 1, y->context_mark.column + 1);
        return sbx_diag_at(r->d, r->file, &at, "YAML syntax: %s", problem);
}

void sbx_node_free(struct sbx_node *n)
{
        if (!n)
                return;
        for (size_t i = 0; i < n->n; i++)
                sbx_node_free(n->items[i]);
        free(n->items);
        free(n->value);
        free(n);
}

static struct sbx_node *node_new(enum sbx_node_type type, yaml_mark_t mark)
{
        struct sbx_node *n = calloc(1, sizeof(*n));

        if (n) {
                n->type = type;
                n->line = (unsigned)mark.line + 1;
                n->col = (unsigned)mark.column + 1;
        }
        return n;
}

static int push_item(struct sbx_node *parent, struct sbx_node *child)
{
        struct sbx_node **v = reallocarray(parent->items, parent->n + 1, sizeof(struct sbx_node *));

        if (!v)
                return -ENOMEM;
        parent->items = v;
        parent->items[parent->n++] = child;
        return 0;
}

static int read_node(struct reader *r, yaml_event_t *ev, unsigned depth, struct sbx_node **ret);

/* Reads children until the closing event; a map's keys must be unique scalars. */
static int read_children(struct reader *r, struct sbx_node *parent, yaml_event_type_t end, unsigned depth)
{
        for (;;) {
                yaml_event_t ev;
                struct sbx_node *child = NULL;
                int ret;

                if (!yaml_parser_parse(&r->parser, &ev))
                        return parser_error(r);
                if (ev.type == end) {
                        yaml_event_delete(&ev);
                        return 0;
                }
                ret = read_node(r, &ev, depth + 1, &child);
                yaml_event_delete(&ev);
                if (ret < 0)
                        return ret;
                if (!child)
                        return sbx_diag_at(r->d, r->file, parent, "out of memory");
                if (parent->type == SBX_NODE_MAP && parent->n % 2 == 0) {
                        if (child->type != SBX_NODE_SCALAR) {
                                ret = sbx_diag_at(r->d, r->file, child, "a key must be a plain name, not a %s",
                                                  child->type == SBX_NODE_MAP ? "mapping" : "list");
                                sbx_node_free(child);
                                return ret;
                        }
                        for (size_t i = 0; i < parent->n; i += 2)
                                if (strcmp(parent->items[i]->value, child->value) == 0) {
                                        ret = sbx_diag_at(r->d, r->file, child, "duplicate key '%s' (first at line %u)",
                                                          child->value, parent->items[i]->line);
                                        sbx_node_free(child);
                                        return ret;
                                }
                }
                if (push_item(parent, child) < 0) {
                        sbx_node_free(child);
                        return sbx_diag_at(r->d, r->file, parent, "out of memory");
                }
        }
}

static int read_node(struct reader *r, yaml_event_t *ev, unsigned depth, struct sbx_node **ret)
{
        _cleanup_(sbx_node_freep) struct sbx_node *n = NULL;
        int k;

        if (depth > SBX_YAML_MAX_DEPTH)
                return diag_mark(r, ev->start_mark, "nested deeper than 32 levels");
        switch (ev->type) {
        case YAML_ALIAS_EVENT:
                return diag_mark(r, ev->start_mark, "anchors and aliases (*name) are not supported: write the value out");
        case YAML_SCALAR_EVENT:
                if (ev->data.scalar.anchor || (ev->data.scalar.tag && ev->data.scalar.plain_implicit == 0 &&
                                               ev->data.scalar.quoted_implicit == 0))
                        return diag_mark(r, ev->start_mark, "anchors and tags are not supported");
                n = node_new(SBX_NODE_SCALAR, ev->start_mark);
                if (!n || !(n->value = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length)))
                        return diag_mark(r, ev->start_mark, "out of memory");
                /* A NUL inside a scalar would cut the value short of what was written. */
                if (strlen(n->value) != ev->data.scalar.length)
                        return diag_mark(r, ev->start_mark, "a value contains a NUL character");
                n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
                break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
                bool seq = ev->type == YAML_SEQUENCE_START_EVENT;

                if (seq ? (ev->data.sequence_start.anchor || !ev->data.sequence_start.implicit)
                        : (ev->data.mapping_start.anchor || !ev->data.mapping_start.implicit))
                        return diag_mark(r, ev->start_mark, "anchors and tags are not supported");
                n = node_new(seq ? SBX_NODE_SEQ : SBX_NODE_MAP, ev->start_mark);
                if (!n)
                        return diag_mark(r, ev->start_mark, "out of memory");
                k = read_children(r, n, seq ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT, depth);
                if (k < 0)
                        return k;
                break;
        }
        default:
                return diag_mark(r, ev->start_mark, "unexpected YAML structure");
        }
        *ret = TAKE_PTR(n);
        return 0;
}

/* Skips events up to the one of @type; anything else there is an error. */
static int expect(struct reader *r, yaml_event_type_t type, yaml_event_t *ev)
{
        if (!yaml_parser_parse(&r->parser, ev))
                return parser_error(r);
        if (ev->type != type) {
                int k = diag_mark(r, ev->start_mark, type == YAML_STREAM_END_EVENT || type == YAML_DOCUMENT_END_EVENT
                                                                    ? "only one YAML document per file"
                                                                    : "unexpected YAML structure");
                yaml_event_delete(ev);
                return k;
        }
        return 0;
}

int sbx_yaml_parse(const char *file, const char *text, size_t len, struct sbx_node **ret, struct sbx_diag *d)
{
        struct reader r = { .file = file, .text = text, .len = len, .d = d };
        struct sbx_node *root = NULL;
        yaml_event_t ev;
        int k;

        *ret = NULL;
        if (len > SBX_YAML_MAX_BYTES)
                return sbx_diag_at(d, file, NULL, "larger than 1 MiB: not a profile");
        if (!yaml_parser_initialize(&r.parser))
                return sbx_diag_at(d, file, NULL, "out of memory");
        yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);

        if ((k = expect(&r, YAML_STREAM_START_EVENT, &ev)) < 0)
                goto out;
        yaml_event_delete(&ev);
        if (!yaml_parser_parse(&r.parser, &ev)) {
                k = parser_error(&r);
                goto out;
        }
        if (ev.type == YAML_STREAM_END_EVENT) { /* an empty file */
                yaml_event_delete(&ev);
                k = 0;
                goto out;
        }
        if (ev.type != YAML_DOCUMENT_START_EVENT) {
                yaml_event_delete(&ev);
                k = sbx_diag_at(d, file, NULL, "unexpected YAML structure");
                goto out;
        }
        yaml_event_delete(&ev);
        if (!yaml_parser_parse(&r.parser, &ev)) {
                k = parser_error(&r);
                goto out;
        }
        k = read_node(&r, &ev, 0, &root);
        yaml_event_delete(&ev);
        if (k < 0)
                goto out;
        if (!root) {
                k = sbx_diag_at(d, file, NULL, "out of memory");
                goto out;
        }
        if ((k = expect(&r, YAML_DOCUMENT_END_EVENT, &ev)) < 0)
                goto out;
        yaml_event_delete(&ev);
        if ((k = expect(&r, YAML_STREAM_END_EVENT, &ev)) < 0)
                goto out;
        yaml_event_delete(&ev);
        /* "key:" alone, or "~", is an empty profile too. */
        if (root->type == SBX_NODE_SCALAR && root->plain && (root->value[0] == '\0' || strcmp(root->value, "~") == 0 ||
                                                            strcmp(root->value, "null") == 0)) {
                sbx_node_free(root);
                root = NULL;
        } else if (root->type != SBX_NODE_MAP) {
                k = sbx_diag_at(d, file, root, "a profile is a mapping of keys (key: value), not a %s",
                                root->type == SBX_NODE_SEQ ? "list" : "single value");
                goto out;
        }
        *ret = TAKE_PTR(root);
out:
        sbx_node_free(root);
        yaml_parser_delete(&r.parser);
        return k;
}
