#!/bin/bash
# The identity of a command launched by root (issue 14, item 6).  It runs as nobody
# (65534) inside a user namespace of its own whose one id stands for root outside:
# what it creates is root's on the host, as it would be outside, yet it has no
# capability and does not believe it is root, so archive tools extract as a user's
# extraction does (modes and times restored, exit 0) instead of half-failing at chown
# (tarfile used to leave 0644 and the time of now; GNU tar exited 2).  Everything is
# checked from the host: the owner, mode and mtime of what was extracted.
. "$(dirname "$0")/../lib.sh"
t_init

PY=/usr/bin/python3

# ---- who the command is
sbx --workspace "$WS" -- sh -c 'id -u; id -g; grep -E "^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs)" /proc/self/status; touch made'
t_check "root's command is uid and gid 65534 inside" "$(run_info); $(head -c 200 "$OUT" | tr '\n' '|')" \
	test "$RC" = 0 -a "$(sed -n 1p "$OUT")" = 65534 -a "$(sed -n 2p "$OUT")" = 65534
t_check "... with no capability in any set, and no_new_privs" "$(tr '\n' '|' <"$OUT")" \
	test "$(grep -c '0000000000000000$' "$OUT")" = 4 -a "$(grep -c 'NoNewPrivs:.1' "$OUT")" = 1
t_check "... and what it creates is root's on the host" "$(stat -c '%u:%g' "$WS/made" 2>&1)" \
	test "$(stat -c '%u:%g' "$WS/made")" = 0:0
sbx --json --workspace "$WS" -- true
json_last
t_check "--json lists the user namespace as applied" "$(grep '^applied=' "$T/json")" grep -q '^applied=.*"userns"' "$T/json"
sbx --dry-run --workspace "$WS" -- true
t_check "--dry-run says the command's uid inside" "$(head -c 300 "$OUT" "$ERR")" grep -q '"uid_inside":65534' "$OUT" "$ERR"

# ---- no power over ownership it did not have: chown to another id fails
echo x >"$WS/mine"
sbx --workspace "$WS" -- sh -c 'chown 1234 mine; echo rc=$?'
t_check "chown to another uid fails inside" "$(run_info); $(cat "$OUT")" grep -q 'rc=1' "$OUT"
t_check "... and the host file is still root's" "$(stat -c %u "$WS/mine")" test "$(stat -c %u "$WS/mine")" = 0
# ... with EPERM, as for a user outside, not the EINVAL an unmapped id gets from the
# kernel; every form: chown, lchown, fchown, fchownat; owner or group; our own ids pass.
CHOWNS='import os, errno
open("c", "w").close(); os.symlink("c", "cl"); fd = os.open("c", os.O_RDONLY); me = os.getuid(); g = os.getgid()
def t(name, f):
    try:
        f(); print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
t("chown-uid", lambda: os.chown("c", 1234, -1)); t("chown-gid", lambda: os.chown("c", -1, 1234))
t("lchown", lambda: os.lchown("cl", 1234, -1)); t("fchown", lambda: os.fchown(fd, 1234, -1))
t("fchownat", lambda: os.chown("c", 1234, -1, dir_fd=os.open(".", os.O_RDONLY)))
t("own", lambda: os.chown("c", me, g)); t("none", lambda: os.chown("c", -1, -1))'
want_chowns='chown-uid EPERM|chown-gid EPERM|lchown EPERM|fchown EPERM|fchownat EPERM|own ok|none ok|'
rm -f "$WS/c" "$WS/cl"
sbx --workspace "$WS" -- /usr/bin/python3 -c "$CHOWNS"
t_check "root: chown to another id says EPERM in every form" "$(run_info); $(tr '\n' '|' <"$OUT")" test "$(tr '\n' '|' <"$OUT")" = "$want_chowns"
rm -f "$WS/c" "$WS/cl"

# Root's own files stay root's to use, as before: owner-only modes included.
echo secret >"$WS/own0600"
chmod 0600 "$WS/own0600"
sbx --workspace "$WS" -- sh -c 'cat own0600 && echo more >>own0600'
t_check "a root-owned 0600 file is read and written inside" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = secret
# Another user's private file is as closed as it was to a root without capabilities.
echo private >"$WS/other0600"
chown 1234:1234 "$WS/other0600"
chmod 0600 "$WS/other0600"
sbx --workspace "$WS" -- cat other0600
t_check "another uid's 0600 file stays unreadable" "$(run_info)" test "$RC" != 0 -a ! -s "$OUT"
# The id maps are written once: the command cannot remap itself.
sbx --workspace "$WS" -- sh -c 'echo "0 0 1" >/proc/self/uid_map; echo rc=$?'
t_check "the command cannot rewrite its uid_map" "$(run_info); $(cat "$OUT")" grep -q 'rc=[12]' "$OUT"

# ---- root's files in the system view are nobody's to the command: their "other"
# bits decide, for a file there at the start and one made while the jail runs
SECRET_DIR=/usr/local/share/sbx-t-rootid.$$
mkdir -p "$SECRET_DIR"
t_defer "rm -rf '$SECRET_DIR'"
echo before >"$SECRET_DIR/before"
echo open >"$SECRET_DIR/open"
chmod 0600 "$SECRET_DIR/before"
chmod 0644 "$SECRET_DIR/open"
sbx --workspace "$WS" -- sh -c "cat $SECRET_DIR/open; cat $SECRET_DIR/before; echo rc=\$?; while [ ! -e $SECRET_DIR/later ]; do sleep 0.05; done; cat $SECRET_DIR/later; echo rc=\$?" &
bg=$!
sleep 0.5
(umask 077 && echo later >"$SECRET_DIR/later.tmp" && mv "$SECRET_DIR/later.tmp" "$SECRET_DIR/later")
wait "$bg"
t_check "a world-readable root file in /usr is read" "$(run_info); $(tr '\n' '|' <"$OUT")" test "$(head -n 1 "$OUT")" = open
t_check "a root-only (0600) file in /usr is not, though the command is root outside" "$(tr '\n' '|' <"$OUT")" \
	test "$(grep -c '^before$' "$OUT")" = 0 -a "$(sed -n 2p "$OUT")" = rc=1
t_check "... nor one made while the jail runs" "$(tr '\n' '|' <"$OUT")" test "$(grep -c '^later$' "$OUT")" = 0 -a "$(tail -n 1 "$OUT")" = rc=1

# ---- archives extract as they do outside
mkdir -p "$T/src/tree/dir"
printf '#!/bin/sh\necho run\n' >"$T/src/tree/script"
echo data >"$T/src/tree/data"
echo key >"$T/src/tree/dir/private"
chmod 0755 "$T/src/tree/script"
chmod 0644 "$T/src/tree/data"
chmod 0600 "$T/src/tree/dir/private"
chmod 0750 "$T/src/tree/dir"
ln -s script "$T/src/tree/link"
touch -h -d '2001-02-03 04:05:06' "$T/src/tree/script" "$T/src/tree/data" "$T/src/tree/dir/private" "$T/src/tree/link" "$T/src/tree/dir"
tar -C "$T/src" -cf "$WS/tree.tar" tree
# A member owned by another user: outside root restores that owner, a user cannot.
tar -C "$T/src" --owner=1234 --group=1234 -cf "$WS/foreign.tar" tree/data

# listing DIR: path mode owner mtime, sorted; a symlink by its target (neither tar
# nor tarfile restores a link's own time: it is the time of extraction)
listing() {
	(cd "$1" && { find . -mindepth 1 ! -type l -printf '%p %m %U:%G %TY%Tm%Td%TH%TM%TS\n' | sed 's/\.[0-9]*$//'
		find . -type l -printf '%p -> %l\n'; } | sort)
}

# extract NAME OUTSIDE-DIR INSIDE-CMD: runs the extraction command (a shell string,
# into ./x) outside into OUTSIDE-DIR and inside into $WS/x, then compares listings.
extract() {
	local name=$1 cmd=$2 out_rc
	rm -rf "$T/outside" "$WS/x"
	mkdir -p "$T/outside/x" "$WS/x"
	cp "$WS"/*.tar "$T/outside/"
	(cd "$T/outside" && sh -c "$cmd") >"$T/outside.log" 2>&1
	out_rc=$?
	sbx --workspace "$WS" -- sh -c "$cmd"
	if ((!HUNG)) && [[ $RC == "$out_rc" ]] && [[ $(listing "$T/outside/x") == "$(listing "$WS/x")" ]]; then
		t_ok "$name: the same as outside (exit $RC)"
	else
		t_fail "$name: the same as outside" "outside exit $out_rc, inside $(run_info); diff: $(diff <(listing "$T/outside/x") <(listing "$WS/x") | head -c 400 | tr '\n' '|')"
	fi
}
extract "GNU tar x" 'tar -C x -xf tree.tar'
extract "GNU tar xp" 'tar -C x -xpf tree.tar'
if [[ -x $PY ]]; then
	extract "python tarfile extractall" "$PY -c 'import tarfile; tarfile.open(\"tree.tar\").extractall(\"x\")'"
else
	t_skip "python tarfile" "$PY is not installed"
fi

# The member owned by 1234: the owner is root's inside (no chown as a user), the rest
# as outside, and tar says nothing and exits 0 as a user's tar does.
rm -rf "$WS/x"
mkdir "$WS/x"
sbx --workspace "$WS" -- tar -C x -xf foreign.tar
t_check "a member owned by another uid: tar exits 0, silent" "$(run_info)" test "$RC" = 0 -a ! -s "$ERR"
t_check "... extracted as root's, mode and mtime kept" "$(stat -c '%u %a %y' "$WS/x/tree/data")" \
	test "$(stat -c '%u %a %Y' "$WS/x/tree/data")" = "0 644 $(stat -c %Y "$T/src/tree/data")"

# ---- the git profile commits under this identity (nobody has a passwd entry)
if command -v git >/dev/null; then
	rm -rf "$WS/repo"
	git init -q "$WS/repo"
	sbx --profile git --workspace "$WS/repo" -- sh -c 'echo a >f && git add f && git -c user.name=t -c user.email=t@x commit -qm one && git log --format=%s'
	t_check "git commits inside as root" "$(run_info); $(cat "$OUT")" test "$RC" = 0 -a "$(cat "$OUT")" = one
	t_check "... and the objects are root's on the host" "$(find "$WS/repo/.git/objects" -type f ! -user 0 | head -3)" \
		test -z "$(find "$WS/repo/.git/objects" -type f ! -user 0)"
fi

# ---- an unprivileged caller keeps its own uid inside, as before
t_ws_for_nobody
SBX_AS=$NOBODY sbx --workspace "$WS" -- id -u
t_check "an unprivileged caller is itself inside" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = "$NOBODY"
rm -f "$WS/c" "$WS/cl"
SBX_AS=$NOBODY sbx --workspace "$WS" -- /usr/bin/python3 -c "$CHOWNS"
t_check "user: chown to another id says EPERM in every form" "$(run_info); $(tr '\n' '|' <"$OUT")" test "$(tr '\n' '|' <"$OUT")" = "$want_chowns"

# ---- where root cannot map itself (no CAP_SETFCAP: a bounding set without it), the
# command stays uid 0 without capabilities, and the summary says so
if command -v setpriv >/dev/null; then
	setpriv --bounding-set=-setfcap -- "$SBX_RUN" --json --workspace "$WS" -- sh -c 'id -u; grep CapEff /proc/self/status' \
		</dev/null >"$OUT" 2>"$ERR"
	RC=$?
	json_last
	t_check "no CAP_SETFCAP: uid 0 without capabilities" "rc=$RC $(head -c 200 "$OUT" | tr '\n' '|')" \
		test "$RC" = 0 -a "$(head -n 1 "$OUT")" = 0 -a "$(grep -c '0000000000000000$' "$OUT")" = 1
	t_check "... and weakened says why" "$(grep '^weakened=' "$T/json")" grep -q '^weakened=.*identity: no user namespace mapping nobody to root.*CAP_SETFCAP' "$T/json"
else
	t_skip "no CAP_SETFCAP" "setpriv is not installed"
fi
