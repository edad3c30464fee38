#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-layers: the include structure of the tree points only down, without circles.

Layers, bottom up:  lib < cmdpolicy < policy < {sbx-run, sandboxd, sbx-hook, sbx-sh}
  - a file may include its own directory and the layers below it, nothing else:
    no upward include, and the programs never include each other;
  - inside a directory, modules (a .c and its .h; a private NAME-int.h belongs to
    module NAME) include each other without a circle.
tests/, tools/ and bench/ are exempt.  Usage: check-layers.py [ROOT]; exits 1 with
file:line: messages on a violation.

check-layers.py --objects OBJDIR [ROOT] checks the same from the compiled objects: which
symbols each object defines and which it calls.  That sees what includes cannot: a
call up a layer through a declaration written by hand, and a circle that runs through
one header every file of a directory shares.
"""
import os
import re
import sys

RANK = {"lib": 0, "cmdpolicy": 1, "policy": 2, "sbx-run": 3, "sandboxd": 3, "sbx-hook": 3, "sbx-sh": 3}

# Includes allowed across the two programs, as (from, to) pairs; each one named here is
# a debt with its issue next to it.  Empty since sandboxd fills its request from a{sv}
# itself instead of sbx-run's parser.
SIDEWAYS_ALLOWED = set()

# Directories whose module circles are not checked yet, in includes and in calls
# (--objects).  Each one named here is a debt; empty since sandboxd/ was taken apart
# (issue 11, point 4).  check-layers says when a listed directory has no circle left.
CYCLES_PENDING = []
SYMBOL_CYCLES_PENDING = []

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(rel):
    top = rel.split("/", 1)[0]
    return top if top in RANK and "/" in rel else None


def sources(root):
    for d in RANK:
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            if name.endswith((".c", ".h")):
                yield f"{d}/{name}"


def includes(root, rel):
    """(line number, included path as written, resolved path relative to root or None)"""
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
            if os.path.isfile(os.path.join(root, target)):
                yield n, m.group(1), target
                continue
            # The short form ("x.h"), found through the layer's -iquote paths.
            found = None
            for d in RANK:
                if RANK[d] < RANK[layer_of(rel)] and os.path.isfile(os.path.join(root, d, m.group(1))):
                    found = f"{d}/{m.group(1)}"
                    break
            yield n, m.group(1), found


def check_layers(root, errors):
    order = "lib < cmdpolicy < policy < {sbx-run, sandboxd, sbx-hook, sbx-sh}"
    for rel in sources(root):
        src = layer_of(rel)
        for n, written, target in includes(root, rel):
            if target is None:
                errors.append(f'{rel}:{n}: "{written}" is in no layer {src}/ may use ({order})')
                continue
            dst = layer_of(target)
            if dst == src or (rel, target) in SIDEWAYS_ALLOWED:
                continue
            if dst is None:
                errors.append(f'{rel}:{n}: "{written}" ({target}) is outside the layers; {src}/ may include only {order} below it')
            elif RANK[dst] > RANK[src]:
                errors.append(f'{rel}:{n}: upward include: {src}/ may not include {target} ({order}); move what it needs down, or pass it in')
            elif RANK[dst] == RANK[src]:
                errors.append(f'{rel}:{n}: sideways include: {src}/ may not include {target}; the programs share code only through the layers below them')


def module_of(rel):
    base = os.path.basename(rel).rsplit(".", 1)[0]
    return base[: -len("-int")] if base.endswith("-int") else base


def find_cycle(graph):
    """One circle of the graph as a list of nodes, or None (iterative DFS)."""
    state = {}
    for start in sorted(graph):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(sorted(graph.get(nxt, ())))))
    return None


def check_cycles(root, errors, notes):
    for d in RANK:
        graph, where = {}, {}
        for rel in sources(root):
            if not rel.startswith(d + "/"):
                continue
            m = module_of(rel)
            graph.setdefault(m, set())
            for n, _, target in includes(root, rel):
                if target and os.path.dirname(target) == d and module_of(target) != m:
                    graph[m].add(module_of(target))
                    where.setdefault((m, module_of(target)), f"{rel}:{n}")
        cycle = find_cycle(graph)
        if d in CYCLES_PENDING:
            if cycle is None:
                notes.append(f"check-layers: {d}/ has no circle now: remove it from CYCLES_PENDING in tools/check-layers.py")
            continue
        if cycle:
            steps = ", ".join(f"{a} -> {b} ({where[(a, b)]})" for a, b in zip(cycle, cycle[1:]))
            errors.append(f"{where[(cycle[0], cycle[1])]}: circle between modules of {d}/: {' -> '.join(cycle)}: {steps}; "
                          f"break it by moving the shared part into its own module or a {d}-private NAME-int.h")


def symbols(objdir):
    """{object (layer/module): (defined, undefined)} from nm over objdir's layer objects"""
    import subprocess
    objs = [os.path.join(objdir, d, f) for d in RANK if os.path.isdir(os.path.join(objdir, d))
            for f in sorted(os.listdir(os.path.join(objdir, d))) if f.endswith(".o")]
    out = subprocess.run(["nm", "-A", "-P"] + objs, check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        path, rest = line.split(": ", 1)
        name, kind = rest.split()[:2]
        key = os.path.relpath(path, objdir)[: -len(".o")]
        defined, undefined = table.setdefault(key, (set(), set()))
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRVWG" and kind.isupper():
            defined.add(name)
    return table


def object_module(root, key):
    """An object's module: its own name, or NAME when it is one of NAME's helpers: its
    name starts with NAME and it includes the private NAME-int.h (commands-bash.c of
    commands.c, gitcommit.c of git.h).  Other users of an -int.h (site.c of the schema
    walker) stay modules of their own."""
    src = os.path.join(root, key + ".c")
    if os.path.isfile(src):
        for _, _, target in includes(root, key + ".c"):
            if target and target.endswith("-int.h") and os.path.dirname(target) == os.path.dirname(key) \
                    and os.path.basename(key).startswith(module_of(target)):
                return module_of(target)
    return os.path.basename(key)


def check_objects(root, objdir, errors, notes):
    table = symbols(objdir)
    owner = {}
    for key, (defined, _) in table.items():
        for name in defined:
            owner.setdefault(name, key)
    graphs = {}
    for key, (_, undefined) in sorted(table.items()):
        src = key.split("/", 1)[0]
        mod = object_module(root, key)
        graph = graphs.setdefault(src, {})
        graph.setdefault(mod, set())
        for name in sorted(undefined):
            dst_key = owner.get(name)
            if dst_key is None or dst_key == key:
                continue
            dst = dst_key.split("/", 1)[0]
            if dst == src:
                if object_module(root, dst_key) != mod:
                    graph[mod].add(object_module(root, dst_key))
            elif (f"{key}.c", f"{dst_key}.c") in SIDEWAYS_ALLOWED or \
                    any(a.startswith(key + ".") and b.startswith(dst_key + ".") for a, b in SIDEWAYS_ALLOWED):
                continue
            elif RANK[dst] > RANK[src]:
                errors.append(f"{key}.o: calls {name}() of {dst_key}.o, a layer above it")
            elif RANK[dst] == RANK[src]:
                errors.append(f"{key}.o: calls {name}() of {dst_key}.o, the other program")
    for d, graph in sorted(graphs.items()):
        cycle = find_cycle(graph)
        if d in SYMBOL_CYCLES_PENDING:
            if cycle is None:
                notes.append(f"check-layers: {d}/'s objects have no circle now: remove it from SYMBOL_CYCLES_PENDING")
            continue
        if cycle:
            errors.append(f"{objdir}/{d}: circle between the objects of {d}/: {' -> '.join(cycle)}")


def main():
    args = sys.argv[1:]
    objdir = None
    if args[:1] == ["--objects"] and len(args) > 1:
        objdir, args = args[1], args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    errors, notes = [], []
    check_layers(root, errors)
    check_cycles(root, errors, notes)
    if objdir:
        check_objects(root, objdir, errors, notes)
    for n in notes:
        print(n, file=sys.stderr)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"check-layers: {len(errors)} violation(s)", file=sys.stderr)
        return 1
    pending = [f"includes: {', '.join(CYCLES_PENDING)}"] if CYCLES_PENDING else []
    if objdir and SYMBOL_CYCLES_PENDING:
        pending.append(f"calls: {', '.join(SYMBOL_CYCLES_PENDING)}")
    print("check-layers: ok (lib < cmdpolicy < policy < {sbx-run, sandboxd, sbx-hook, sbx-sh}, no circles"
          + (" in includes" if not objdir else " in includes or calls")
          + (f"; circles not yet checked in {'; '.join(pending)}" if pending else "") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
