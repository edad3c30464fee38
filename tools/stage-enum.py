#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrites error stages from strings to enum sbx_stage (lib/error.h), in place.

    python3 tools/stage-enum.py [FILE...]     (default: every .c/.h under the tree)

Mechanical and idempotent, so a branch written against the string stages can be
brought over by running it again:
    sbx_error_set(e, "mount", ...)             -> sbx_error_set(e, SBX_STAGE_MOUNT, ...)
    strcmp(X.stage, "exec") == 0               -> X.stage == SBX_STAGE_EXEC
    strcmp(X->stage, "exec") != 0              -> X->stage != SBX_STAGE_EXEC
    sbx_strlcpy(X->stage, "request", sizeof(...)) -> X->stage = SBX_STAGE_REQUEST
A stage name that lib/error.c does not know stops the script: add its row to
enum sbx_stage and to error.c's name table first."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def known_stages():
    text = open(os.path.join(ROOT, "lib/error.c")).read()
    return dict(re.findall(r'\[(SBX_STAGE_[A-Z_]+)\] = "([a-z_-]*)"', text))


NAME = r'"([a-z_-]+)"'
RULES = [
    # the first argument holds no comma (e, &e, &rep.err, w->e)
    (re.compile(r'(sbx_error_set\(\s*[^,;]*?,\s*)' + NAME), lambda m, c: m.group(1) + c(m.group(2))),
    (re.compile(r'strcmp\(\s*([\w.>\[\]-]+?\.stage|[\w.>\[\]-]+?->stage)\s*,\s*' + NAME + r'\s*\)\s*([=!])=\s*0'),
     lambda m, c: "%s %s= %s" % (m.group(1), m.group(3), c(m.group(2)))),
    (re.compile(r'sbx_strlcpy\(\s*([\w.>\[\]-]+?(?:\.|->)stage)\s*,\s*' + NAME + r'\s*,\s*sizeof\([^;]*?\)\s*\)'),
     lambda m, c: "%s = %s" % (m.group(1), c(m.group(2)))),
]


def main(argv):
    by_name = {v: k for k, v in known_stages().items() if v}
    files = argv[1:]
    if not files:
        for d, _, names in os.walk(ROOT):
            if "/.git" in d or "/build" in d:
                continue
            files += [os.path.join(d, n) for n in names if n.endswith((".c", ".h"))]
    unknown = set()

    def const(name):
        if name not in by_name:
            unknown.add(name)
            return '"%s"' % name
        return by_name[name]

    changed = 0
    for path in sorted(files):
        if path.endswith("lib/error.c"):
            continue
        src = open(path).read()
        out = src
        for rx, repl in RULES:
            out = rx.sub(lambda m, repl=repl: repl(m, const), out)
        if out != src:
            open(path, "w").write(out)
            changed += 1
    if unknown:
        sys.exit("stage-enum: unknown stage(s) %s: add them to enum sbx_stage and error.c's table" % ", ".join(sorted(unknown)))
    print("stage-enum: %d file(s) rewritten" % changed)


if __name__ == "__main__":
    main(sys.argv)
