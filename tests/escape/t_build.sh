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
userdel "$user" >/dev/null 2>&1
if ! useradd --system -M -d "$T/home" -s /usr/sbin/nologin "$user" 2>/dev/null; then
	t_skip "build caches" "cannot create a test user"
	exit 0
fi
t_defer "userdel $user"
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
