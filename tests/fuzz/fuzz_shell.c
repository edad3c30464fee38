/* SPDX-License-Identifier: MIT */
/* Fuzzes the shell tokenizer and the command policy: the input is `sh -c INPUT` under a
 * policy with every rule set, in allowlist and denylist mode, and also (split at NUL
 * bytes) a plain argv.  Besides crashes, it aborts on a broken promise: a deny without
 * a reason, a parse error without one, an unparseable string that is allowed. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmdpolicy/commands.h"
#include "../../cmdpolicy/shell.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void push(struct sbx_strv *l, const char *const *items)
{
        for (size_t i = 0; items[i]; i++)
                if (sbx_strv_push(l, items[i]) < 0)
                        abort();
}

static void make_policy(struct sbx_cmd_policy *p, enum sbx_cmd_mode mode)
{
        static const char *const allow[] = { "ls", "cat", "echo", "git", "grep", "sh", "bash", "env", "xargs", "find",
                                             "rm", "chmod", "kill", "sudo", "true", NULL };
        static const char *const deny[] = { "dd", "mkfs*", NULL };
        static const char *const patterns[] = { "DROP +TABLE", "(^| )nc +-l", NULL };
        static const char *const protected[] = { "/", "/etc", "/usr", "/home/u", "/work/ws/.git", NULL };
        static const char *const modes[] = { "+x", "644", "755", NULL };
        static const char *const targets[] = { "[0-9]*", "%*", NULL };
        static const char *const git[] = { "push --force", "config --global", "clean", NULL };

        *p = (struct sbx_cmd_policy){ .mode = mode, .home = "/home/u", .cwd = "/work/ws" };
        push(&p->allow, allow);
        push(&p->deny, deny);
        push(&p->deny_patterns, patterns);
        push(&p->rm_protected, protected);
        push(&p->chmod_modes, modes);
        if (mode == SBX_CMD_ALLOWLIST)
                push(&p->kill_targets, targets);
        push(&p->git_deny, git);
}

static void check(const struct sbx_cmd_policy *p, char *const *argv, bool must_deny)
{
        struct sbx_verdict v;
        int r = sbx_cmd_check(p, argv, &v);

        if (r < 0 && r != -ENOMEM)
                abort();
        if (!v.reason[0] || !memchr(v.reason, '\0', sizeof(v.reason)) || (must_deny && v.allow))
                abort();
}

/* Every index in the script points where it should. */
static void walk(const struct sbx_sh_script *sc)
{
        for (size_t i = 0; i < sc->n_cmds; i++) {
                const struct sbx_sh_cmd *c = &sc->cmds[i];

                if (c->parent > i || c->pipeline >= sc->n_pipes || c->n_assign > c->n_words ||
                    strlen(c->text) != c->text_len)
                        abort();
                for (size_t j = 0; j < c->n_words; j++)
                        if (!c->words[j].text)
                                abort();
                (void)sbx_sh_stdin_of(sc, i);
        }
        for (size_t i = 0; i < sc->n_exprs; i++) {
                const struct sbx_sh_expr *x = &sc->exprs[i];

                if (!x->owner || x->owner > sc->n_cmds || !x->text || (x->kind == SBX_SH_ELEM) != (x->name != NULL))
                        abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct sbx_cmd_policy deny_p, allow_p;
        static bool ready;
        struct sbx_sh_script sc;
        char *s = malloc(size + 1), *words[66];
        size_t n = 0;
        int parsed;

        if (!s)
                return 0;
        if (!ready) {
                make_policy(&deny_p, SBX_CMD_DENYLIST);
                make_policy(&allow_p, SBX_CMD_ALLOWLIST);
                ready = true;
        }
        memcpy(s, data, size);
        s[size] = '\0';

        parsed = sbx_sh_parse(s, &sc);
        if (parsed == -EINVAL && !sc.error[0])
                abort();
        walk(&sc);
        sbx_sh_script_done(&sc);

        {
                char *argv[] = { "sh", "-c", s, NULL };

                check(&deny_p, argv, parsed == -EINVAL);
                check(&allow_p, argv, parsed == -EINVAL);
        }

        /* the same bytes as argv words, as an agent's hook would pass them */
        for (size_t i = 0; i < size && n < 64;) {
                words[n++] = s + i;
                i += strlen(s + i) + 1;
        }
        words[n] = NULL;
        if (n)
                check(&deny_p, words, false);
        free(s);
        return 0;
}
