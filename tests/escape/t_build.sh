#!/bin/bash
# The build profile's caches are the jail's own: a ccache configuration a jail writes
# (compiler_check = <command>) is never read by the host's ccache, and the host's own
# caches are not in the jail at all.  And they are caches that work: the second
# compile in a fresh jail is a hit.  Run as a user whose home is under $T (through the
# user namespace), so the test touches no real home.
. "$(dirname "$0")/../lib.sh"
t_init

command -v ccache >/dev/null && command -v gcc >/dev/null || { t_skip "build caches" "ccache or gcc is not installed"; exit 0; }
user=sbxb$$
if ! t_user "$user" "$T/home"; then
	t_skip "build caches" "cannot create a test user"
	exit 0
fi
uid=$(id -u "$user")
mkdir -p "$T/home/proj" "$T/home/.cache/ccache" "$T/home/.m2"
echo 'int f(void) { return 42; }' >"$T/home/proj/x.c"
echo '<settings/>' >"$T/home/.m2/settings.xml"
chown -R "$uid:$uid" "$T/home"
MARK=$T/home/pwned
as_user() { setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i PATH=/usr/bin:/bin HOME="$T/home" "$@"; }
# The host exports CCACHE_DIR (as the issue's user did, and the old build profile passed on).
host_ccache() { (cd "$T/home/proj" && as_user CCACHE_DIR="$T/home/.cache/ccache" ccache gcc -c x.c -o x.o) >/dev/null 2>&1; }
plant="printf 'compiler_check = touch $MARK\\n' >> \"\$CCACHE_DIR/ccache.conf\""

# Control: planted into the host's own cache directory, the host's ccache runs it.
(cd "$T/home" && as_user sh -c "CCACHE_DIR=$T/home/.cache/ccache; export CCACHE_DIR; $plant")
host_ccache
if [[ -e $MARK ]]; then t_ok "control: a ccache.conf with compiler_check runs on the host's next compile"
else t_fail "control: a ccache.conf with compiler_check runs on the host's next compile" "it did not: the test proves nothing"; fi
rm -f "$MARK" "$T/home/.cache/ccache/ccache.conf"

# The jail plants into its own cache and into the host's, where the old profile bound it.
SBX_AS=$uid sbx --profile build --workspace "$T/home/proj" -- /bin/sh -c "$plant; CCACHE_DIR=$T/home/.cache/ccache; $plant;
	ls ~/.m2 /var/cache/sbx; true"
if [[ $RC != 0 ]]; then
	t_fail "build: the jail ran" "$(run_info)"
else
	host_ccache
	if [[ -e $MARK ]]; then t_fail "build: a jail's ccache.conf never reaches the host's ccache" "the host's ccache ran it"
	else t_ok "build: a jail's ccache.conf never reaches the host's ccache"; fi
	t_check "build: the host's cache directory is untouched" "$(ls -A "$T/home/.cache/ccache")" \
		test ! -e "$T/home/.cache/ccache/ccache.conf"
	t_check "build: the jail's cache is its own, under ~/.cache/sbx/build, the caller's, 0700" \
		"$(stat -c '%U %a' "$T/home/.cache/sbx/build" 2>&1)" \
		test "$(stat -c '%u %a' "$T/home/.cache/sbx/build" 2>/dev/null)" == "$uid 700"
	t_check "build: ~/.m2 is not in the jail" "$(head -c 200 "$OUT")" eval '! grep -q settings.xml "$OUT"'
fi

# One project's jail reaches nothing another project's jails left: the cache (and the
# compiler_check planted in it above) is per workspace.
mkdir -p "$T/home/proj2" && chown "$uid:$uid" "$T/home/proj2"
SBX_AS=$uid sbx --profile build --workspace "$T/home/proj2" -- /bin/sh -c 'cat /var/cache/sbx/ccache/ccache.conf; ls -A /var/cache/sbx; true'
if [[ $RC == 0 ]] && ! grep -q compiler_check "$OUT" && [[ $(find "$T/home/.cache/sbx/build" -mindepth 1 -maxdepth 1 -type d | wc -l) == 2 ]]; then
	t_ok "build: another project's jail has a cache of its own, without what the first planted"
else t_fail "build: another project's jail has a cache of its own, without what the first planted" "$(run_info); $(head -c 300 "$OUT")"; fi

# The caches are used: two fresh jails, one compile each; the second hits.
rm -f "$T"/home/.cache/sbx/build/*/ccache/ccache.conf
for i in 1 2; do
	SBX_AS=$uid sbx --profile build --workspace "$T/home/proj" -- ccache gcc -c x.c -o x.o
done
SBX_AS=$uid sbx --profile build --workspace "$T/home/proj" -- ccache -s
if [[ $RC == 0 ]] && grep -Eq '(cache hit|Hits).*[1-9]' "$OUT"; then t_ok "build: the second compile in a new jail is a ccache hit"
else t_fail "build: the second compile in a new jail is a ccache hit" "$(run_info); $(head -c 400 "$OUT" | tr '\n' '|')"; fi

# ... and they are where the host can see them: the cached results of those compiles are
# files under the workspace's directory in ~/.cache/sbx/build, and none went to the
# caller's own ccache directories (~/.ccache, ~/.cache/ccache: the control above used
# the latter, so it is counted before and after) nor anywhere else in the home.
proj_cache=$(for d in "$T"/home/.cache/sbx/build/*/ccache; do find "$d" -type f -name '*R' | grep -q . && echo "$d"; done | head -1)
t_check "build: ccache's results are files in the per-workspace cache on the host" \
	"$(find "$T/home/.cache/sbx/build" -maxdepth 3 | head -20 | tr '\n' ' ')" test -n "$proj_cache"
t_check "build: nothing went to ~/.ccache, ~/.cache/ccache holds only the control's files" \
	"$(ls -A "$T/home/.ccache" "$T/home/.cache/ccache" 2>&1 | tr '\n' ' ')" \
	eval '[[ ! -e $T/home/.ccache ]] && [[ -z $(find "$T/home/.cache/ccache" -type f -name "*R" -newer "$T/home/proj/x.o" 2>/dev/null) ]]'

# Go: GOCACHE is the bound directory, and a build works in a workspace that is not a
# git repository (where the jail's read-only .git guard would make go's VCS stamping run
# `git status` and fail the build).  Two fresh jails build; the second compiles nothing.
if command -v go >/dev/null; then
	mkdir -p "$T/home/goproj"
	printf 'module example.com/hi\n\ngo 1.18\n' >"$T/home/goproj/go.mod"
	printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("go-built-ok") }\n' >"$T/home/goproj/main.go"
	chown -R "$uid:$uid" "$T/home/goproj"
	SBX_AS=$uid sbx --profile build --workspace "$T/home/goproj" -- sh -c 'go env GOCACHE && go build -o hi . && ./hi'
	if [[ $RC == 0 ]] && grep -q go-built-ok "$OUT" && grep -qx /var/cache/sbx/go-build "$OUT"; then
		t_ok "build: go build in a workspace without git, GOCACHE in the bound cache"
	else t_fail "build: go build in a workspace without git, GOCACHE in the bound cache" "$(run_info); $(head -c 300 "$OUT" | tr '\n' '|')"; fi
	gocache=$(for d in "$T"/home/.cache/sbx/build/*; do [[ -d $d/go-build ]] && echo "$d/go-build"; done | head -1)
	t_check "build: go's build cache is files in the per-workspace cache on the host" "$gocache" \
		test -n "$gocache" -a "$(find "${gocache:-/nonexistent}" -type f -name '*-d' 2>/dev/null | wc -l)" -gt 10
	rm -f "$T/home/goproj/hi"
	SBX_AS=$uid sbx --profile build --workspace "$T/home/goproj" -- go build -x -o hi .
	if [[ $RC == 0 ]] && [[ -x $T/home/goproj/hi ]] && ! grep -Eq '/compile( |$)' "$ERR"; then
		t_ok "build: the second go build in a new jail compiles nothing (cache hits)"
	else t_fail "build: the second go build in a new jail compiles nothing (cache hits)" "rc=$RC; $(grep -E '/compile( |$)' "$ERR" | head -c 300)"; fi
	t_check "build: nothing went to the caller's ~/.cache/go-build" "$(ls -A "$T/home/.cache")" test ! -e "$T/home/.cache/go-build"
else
	t_skip "build: go caches" "go is not installed"
fi
