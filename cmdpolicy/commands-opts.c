/* SPDX-License-Identifier: MIT */
/* Options read the way getopt_long(3) reads them, for the tables of commands-tools.c and
 * commands-git.c: short options in clusters with their argument attached or in the next
 * word, long options with "=VALUE" or the next word and abbreviated to any prefix, and
 * options after operands, up to "--".  Reading errs towards seeing an option: a word
 * that an unknown option might take is read as an option too, and an abbreviation is
 * taken for the dangerous option it could stand for. */
#include <string.h>

#include "commands-int.h"

/* Does option name @n (its first @len bytes) appear in @names?  Names of one letter
 * are short options, longer ones long options; with @prefix, @n may abbreviate a long
 * one, as getopt_long(3) allows. */
static bool names_have(const char *names, const char *n, size_t len, bool prefix)
{
        for (const char *p = names; *p;) {
                size_t l = strcspn(p, "|");

                if (l == 1 && len == 1 && !prefix && *p == *n)
                        return true;
                if (l > 1 && len >= 1 && (prefix ? len < l : len == l) && strncmp(p, n, len) == 0)
                        return true;
                p += l + (p[l] == '|');
        }
        return false;
}

static bool dangerous(enum sbx_opt_act a)
{
        return a == O_CODE || a == O_OPTCODE || a == O_DENY || a == O_DENY1 || a == O_CALL;
}

static bool takes_arg(enum sbx_opt_act a)
{
        return a == O_ARG || a == O_CODE || a == O_DENY1 || a == O_CALL;
}

/* A long option: exactly, else the dangerous option it abbreviates. */
static const struct sbx_opt *find_long(const struct sbx_opt *opts, const char *n, size_t len)
{
        for (const struct sbx_opt *o = opts; o->names; o++)
                if (len > 1 && names_have(o->names, n, len, false))
                        return o;
        for (const struct sbx_opt *o = opts; o->names; o++)
                if (dangerous(o->act) && names_have(o->names, n, len, true))
                        return o;
        return NULL;
}

static const struct sbx_opt *find_short(const struct sbx_opt *opts, char ch)
{
        for (const struct sbx_opt *o = opts; o->names; o++)
                if (names_have(o->names, &ch, 1, false))
                        return o;
        return NULL;
}

int sbx_opt_apply(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_opt *o, const char *opt,
                 const struct sbx_sh_word *val)
{
        unsigned info = 0;

        switch (o->act) {
        case O_DENY:
        case O_DENY1:
                return sbx_cmd_deny(c, k->seg, "%s: option '%s' %s", k->name, opt, o->why);
        case O_CODE:
        case O_OPTCODE:
                if (!val)
                        return 0;
                if (sbx_cmd_computed(val))
                        return sbx_cmd_deny(c, k->seg, "%s: option '%s' runs a command computed at run time " SBX_UNREAD,
                                            k->name, opt);
                return val->text[0] ? sbx_cmd_check_code(c, val->text, false, k->seg, &info) : 0;
        case O_CALL:
                return o->call(c, k, opt, val);
        default:
                return 0;
        }
}

/* Reads the options of @k from word @from: each one in @opts is applied.  Options may
 * follow operands (GNU), so every word up to "--" is read. */
/* A long option in @t (after its dashes, up to '='), with its value attached or the
 * next word. */
static int long_opt(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, const struct sbx_opt *opts, size_t *i,
                    const char *name, bool *matched)
{
        const struct sbx_sh_word *w = &k->w[*i];
        size_t len = strcspn(name, "=");
        const struct sbx_opt *o = find_long(opts, name, len);
        struct sbx_sh_word att = { .text = (char *)name + len + 1, .flags = w->flags };
        const struct sbx_sh_word *val = NULL;

        *matched = o != NULL;
        if (!o)
                return 0; /* it may take the next word: that is read as an option too */
        if (name[len])
                val = &att;
        else if (takes_arg(o->act) && *i + 1 < k->n)
                val = &k->w[++*i];
        return sbx_opt_apply(c, k, o, w->text, val);
}

/* A word computed at run time among the options: safe only as the argument of an
 * option written out before it in the same word (-j"$(nproc)", --jobs="$n"), when it
 * cannot split into several. */
static bool computed_arg(const struct sbx_opt *opts, const struct sbx_sh_word *w, bool single_dash)
{
        const char *t = w->text;
        size_t lit = strcspn(t, "$`");
        const struct sbx_opt *o;

        if ((w->flags & (SBX_SH_SPLIT | SBX_SH_GLOB | SBX_SH_BRACE | SBX_SH_LITCODE)) || t[0] != '-' || lit < 2)
                return false;
        if (t[1] == '-' || single_dash) {
                const char *name = t + (t[1] == '-' ? 2 : 1);
                size_t len = strcspn(name, "=");

                return name + len < t + lit && (o = find_long(opts, name, len)) && (o->act == O_ARG || o->act == O_OPTARG);
        }
        /* -abj$x: every letter before the expansion is a flag or ends in one that
         * takes the rest as its argument */
        for (size_t j = 1; j < lit; j++) {
                o = find_short(opts, t[j]);
                if (o && (o->act == O_ARG || o->act == O_OPTARG))
                        return true;
                if (o && o->act != O_FLAG)
                        return false;
        }
        return false;
}

int sbx_opts_scan(struct sbx_cmd_ctx *c, const struct sbx_cmd_call *k, size_t from, const struct sbx_opt *opts)
{
        const struct sbx_opt *end = opts;
        bool any_danger = false, single_dash;
        int r = 0;

        for (; end->names; end++)
                any_danger = any_danger || dangerous(end->act);
        single_dash = end->act == O_SINGLE_DASH;
        for (size_t i = from; i < k->n && r >= 0 && !c->denied; i++) {
                const struct sbx_sh_word *w = &k->w[i];
                const char *t = w->text;
                bool matched = false;

                if (sbx_cmd_computed(w)) {
                        if (any_danger && !computed_arg(opts, w, single_dash) && sbx_cmd_may_become(w, '-'))
                                return sbx_cmd_deny(c, k->seg, "%s: '%s' may be an option at run time, and some of its "
                                                    "options run commands (write ./NAME or put -- before it) " SBX_UNREAD,
                                                    k->name, t);
                        continue;
                }
                if (streq(t, "--"))
                        break;
                if (t[0] != '-' || !t[1])
                        continue;
                if (t[1] == '-') {
                        r = long_opt(c, k, opts, &i, t + 2, &matched);
                        continue;
                }
                if (single_dash && t[2] && ((r = long_opt(c, k, opts, &i, t + 1, &matched)) < 0 || matched || c->denied))
                        continue;
                for (size_t j = 1; t[j]; j++) {
                        const struct sbx_opt *o = find_short(opts, t[j]);
                        struct sbx_sh_word att = { .text = (char *)t + j + 1, .flags = w->flags };
                        const struct sbx_sh_word *val = t[j + 1] ? &att : NULL;
                        char opt[3] = { '-', t[j], '\0' };

                        if (!o || o->act == O_FLAG)
                                continue;
                        if (!val && takes_arg(o->act) && i + 1 < k->n)
                                val = &k->w[++i];
                        r = sbx_opt_apply(c, k, o, opt, val);
                        break;
                }
        }
        return r;
}

