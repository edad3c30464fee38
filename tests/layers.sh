#!/usr/bin/env bash
# tools/check-layers.py fails on what it exists to catch: each case plants one include
# in a scratch copy of the tree's sources and expects exit 1 and a message naming the
# file and line.  The tree itself passes.  Prints "ok|fail<TAB>layers: …" lines, which
# tests/run.sh records; exits 1 if any case failed.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/sbx-layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0

say() { printf '%s\tlayers: %s\n' "$1" "$2"; [ "$1" = ok ] || failed=1; }

# fresh COPY: the layer directories as they are in the tree
fresh() {
	rm -rf "$tmp/tree" && mkdir "$tmp/tree"
	cp -r lib cmdpolicy policy sbx-run sandboxd "$tmp/tree/"
}

# expect_fail NAME FILE LINE PATTERN: check-layers on the copy fails naming FILE:LINE
expect_fail() {
	local out rc
	out=$(python3 tools/check-layers.py "$tmp/tree" 2>&1)
	rc=$?
	if [ "$rc" -ne 1 ]; then
		say fail "$1: check-layers exited $rc, not 1: $out"
	elif ! grep -q "^$2:$3: .*$4" <<<"$out"; then
		say fail "$1: no '$2:$3: …$4' in: $out"
	else
		say ok "$1 ($2:$3)"
	fi
}

# plant FILE INCLUDE: an include after the file's first line; its line number is 2
plant() { sed -i "1a #include \"$2\"" "$tmp/tree/$1"; }

fresh
if out=$(python3 tools/check-layers.py "$tmp/tree" 2>&1); then
	say ok "the tree passes"
else
	say fail "the tree itself fails: $out"
fi

fresh; plant lib/path.c ../policy/profile.h
expect_fail "lib/ including policy/" lib/path.c 2 "upward include"

fresh; plant lib/plan.h ../cmdpolicy/commands.h
expect_fail "lib/ header including cmdpolicy/" lib/plan.h 2 "upward include"

fresh; plant cmdpolicy/shell.c ../policy/yaml.h
expect_fail "cmdpolicy/ including policy/" cmdpolicy/shell.c 2 "upward include"

fresh; plant policy/load.c ../sbx-run/options.h
expect_fail "policy/ including a program" policy/load.c 2 "upward include"

fresh; plant sbx-run/main.c ../sandboxd/daemon.h
expect_fail "sbx-run/ including sandboxd/" sbx-run/main.c 2 "sideways include"

fresh; mkdir -p "$tmp/tree/tests/unit" && touch "$tmp/tree/tests/unit/unit.h"
plant lib/json.c ../tests/unit/unit.h
expect_fail "lib/ including outside the layers" lib/json.c 2 "outside the layers"

# The short form through a search path the layer does not get.
fresh; plant cmdpolicy/commands.c profile.h
expect_fail "cmdpolicy/ short include of a policy/ header" cmdpolicy/commands.c 2 "in no layer"

# A circle between two modules of one directory, reported as a circle.
fresh; plant policy/yaml.h site.h
expect_fail "circle inside policy/" 'policy/[a-z-]*\.[ch]' '[0-9]*' "circle between modules of policy/: .*yaml -> site (policy/yaml.h:2)"

# From the objects (--objects): a call up a layer, and a circle of calls, that no
# include shows.
expect_fail_objects() {
	local out rc
	out=$(python3 tools/check-layers.py --objects "$tmp/obj" "$tmp/tree" 2>&1)
	rc=$?
	if [ "$rc" -ne 1 ]; then
		say fail "$1: check-layers --objects exited $rc, not 1: $out"
	elif ! grep -q "$2" <<<"$out"; then
		say fail "$1: no '$2' in: $out"
	else
		say ok "$1"
	fi
}
obj() { mkdir -p "$tmp/obj/$(dirname "$1")" && echo "$2" | ${CC:-cc} -x c -c -o "$tmp/obj/$1" -; }

fresh; rm -rf "$tmp/obj"
obj lib/low.o 'int sbx_up(void); int sbx_low(void); int sbx_low(void) { return sbx_up(); }'
obj policy/high.o 'int sbx_up(void); int sbx_up(void) { return 1; }'
expect_fail_objects "lib/ object calling up into policy/" 'lib/low.o: calls sbx_up() of policy/high.o, a layer above it'

rm -rf "$tmp/obj"
obj cmdpolicy/one.o 'int sbx_two(void); int sbx_one(void); int sbx_one(void) { return sbx_two(); }'
obj cmdpolicy/two.o 'int sbx_one(void); int sbx_two(void); int sbx_two(void) { return sbx_one(); }'
expect_fail_objects "circle of calls inside cmdpolicy/" 'circle between the objects of cmdpolicy/: one -> two -> one'

exit "$failed"
