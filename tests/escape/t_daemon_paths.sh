#!/bin/bash
# sandboxd opens every path a caller names with exactly the caller's rights, never
# through a /proc magic link, and a symlink a jail planted leads nowhere.  sandboxd runs
# here as plain root (as in a container with `sandboxd --listen`), so it holds
# CAP_SYS_PTRACE: /proc/PID/cwd of another user's process would open with it.  A second
# user's 0700 directory holds a secret; the caller's jail must never see it.  And the
# git profile through sandboxd: commits come back, written as the caller.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

U=sbxa$SBX_RUN_ID
V=sbxv$SBX_RUN_ID
if ! dm_user "$U" || ! dm_user "$V"; then
	t_fail "setup" "cannot create the test users"
	exit 0
fi
chown -R "$U:$U" "$WS"
VHOME=$T/vhome
mkdir -p "$VHOME"
SECRET="sbx-secret-$RANDOM$RANDOM"
echo "$SECRET" >"$VHOME/secret"
chown -R "$V:$V" "$VHOME"
chmod 0700 "$VHOME"
# The victim's process, with its cwd in the 0700 directory.
(cd "$VHOME" && exec setpriv --reuid="$V" --regid="$V" --clear-groups sleep 300) &
VPID=$!
t_defer_kill "$VPID"

dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace, git]
    max_sandboxes: 4
limits:
  grace: 1s
EOF
if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi

usbx() {
	timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	HUNG=0
}

# nothing_leaked NAME: refused (125 or 126), one line, and the secret nowhere.
nothing_leaked() {
	if grep -qF "$SECRET" "$OUT" "$ERR"; then t_fail "$1" "the other user's secret reached the caller"
	elif [[ $RC != 125 && $RC != 126 ]]; then t_fail "$1" "expected a refusal; rc=$RC err=$(head -c 200 "$ERR")"
	else t_ok "$1"; fi
}

usbx --workspace "$WS" --ro "/proc/$VPID/cwd:/x" -- /bin/cat /x/secret
nothing_leaked "--ro /proc/PID/cwd of another user's process"
usbx --workspace "$WS" --ro "/proc/$VPID/root$VHOME:/x" -- /bin/cat /x/secret
nothing_leaked "--ro /proc/PID/root/... of another user's process"
usbx --workspace "$WS" --ro "/proc/self/cwd:/y" -- /bin/ls /y
if [[ $RC == 125 || $RC == 126 ]] && ! grep -q "secret" "$OUT"; then t_ok "--ro /proc/self/cwd (sandboxd's own) refused"
else t_fail "--ro /proc/self/cwd (sandboxd's own) refused" "rc=$RC out=$(head -c 200 "$OUT")"; fi
usbx --workspace "$WS" --ro "$VHOME:/x" -- /bin/cat /x/secret
nothing_leaked "--ro of another user's 0700 directory"

# A symlink the caller's own earlier jail planted.
usbx --workspace "$WS" -- /bin/sh -c "ln -s '$VHOME' cache; ln -s '$T' up"
if [[ $RC != 0 || ! -L $WS/cache ]]; then
	t_fail "setup: a jail plants symlinks" "rc=$RC $(head -c 200 "$ERR")"
else
	usbx --workspace "$WS" --ro "$WS/cache:/x" -- /bin/cat /x/secret
	nothing_leaked "--ro through a planted symlink"
	usbx --workspace "$WS" --rw "$WS/up:/x" -- /bin/sh -c 'touch /x/planted'
	if [[ $RC == 125 || $RC == 126 ]] && [[ ! -e $T/planted ]] && grep -q symlink "$ERR"; then t_ok "--rw through a planted symlink refused"
	else t_fail "--rw through a planted symlink refused" "rc=$RC err=$(head -c 200 "$ERR")"; fi
	usbx --workspace "$WS/up" -- /bin/sh -c 'touch planted'
	if [[ $RC == 125 || $RC == 126 ]] && [[ ! -e $T/planted ]]; then t_ok "--workspace through a planted symlink refused"
	else t_fail "--workspace through a planted symlink refused" "rc=$RC err=$(head -c 200 "$ERR")"; fi
fi
rm -f "$WS/cache" "$WS/up"

# Mount points inside a bind: never made by sandboxd's root in a directory the caller
# may not write, nor an oracle of what lies there (an existing file and an absent name
# answer alike).
before=$(ls -la "$VHOME")
for dest in "$VHOME/made" "$VHOME/secret/x" "$VHOME/absent/x"; do
	usbx --workspace "$WS" --ro /var/tmp --tmpfs "$dest" -- /bin/true
	if [[ ($RC == 125 || $RC == 126) && $(grep -c . "$ERR") == 1 ]] && grep -q "Permission denied" "$ERR" && ! grep -q "Not a directory" "$ERR"; then
		t_ok "--tmpfs at '${dest#"$VHOME"/}' in another user's 0700 directory: refused as the caller would be"
	else t_fail "--tmpfs at '${dest#"$VHOME"/}' in another user's 0700 directory: refused as the caller would be" "rc=$RC err=$(head -c 300 "$ERR")"; fi
done
usbx --workspace "$WS" --ro /var/tmp --ro "/etc/hostname:$VHOME/.bashrc" -- /bin/true
if [[ ($RC == 125 || $RC == 126) && $(ls -la "$VHOME") == "$before" ]]; then t_ok "mount points: nothing made in the other user's directory"
else t_fail "mount points: nothing made in the other user's directory" "rc=$RC now: $(ls -la "$VHOME" | tr '\n' ' ')"; fi
# In the caller's own workspace a missing directory is made, by the caller.
usbx --workspace "$WS" --tmpfs "$WS/made/deep" -- /bin/true
if [[ $RC == 0 && $(stat -c %U "$WS/made" 2>/dev/null) == "$U" && $(stat -c %U "$WS/made/deep" 2>/dev/null) == "$U" ]]; then
	t_ok "mount points in the caller's workspace are made by the caller"
else t_fail "mount points in the caller's workspace are made by the caller" "rc=$RC $(ls -la "$WS/made" 2>&1 | head -3)"; fi
rm -rf "$WS/made"

# ---- the git profile through sandboxd: the commit comes back, as the caller
if command -v git >/dev/null; then
	ug() { setpriv --reuid="$U" --regid="$U" --init-groups env HOME="$WS" GIT_CONFIG_NOSYSTEM=1 git -C "$WS" "$@"; }
	ug init -q -b main . && printf 'probe\n' >"$WS/.gitignore" && chown "$U:$U" "$WS/.gitignore" &&
		ug add .gitignore && ug -c user.name=u -c user.email=u@u commit -qm one
	usbx --profile git --workspace "$WS" --env GIT_AUTHOR_NAME=j --env GIT_AUTHOR_EMAIL=j@j --env GIT_COMMITTER_NAME=j \
		--env GIT_COMMITTER_EMAIL=j@j -- /bin/sh -c 'echo two > b && git add b && git commit -qm two'
	owner=$(stat -c %U "$WS/.git/index" 2>/dev/null)
	if [[ $RC == 0 && $(ug log -1 --format=%s) == two && -z $(ug status --porcelain) && $owner == "$U" ]]; then
		t_ok "git profile through sandboxd: the commit comes back, written as the caller"
	else
		t_fail "git profile through sandboxd: the commit comes back, written as the caller" \
			"rc=$RC err=$(head -c 200 "$ERR") log=$(ug log -1 --format=%s 2>&1) index owner=$owner"
	fi
	# What is not carried back is said, through sandboxd as in direct mode.
	usbx --profile git --workspace "$WS" -- /bin/sh -c 'mkdir .git/rebase-merge && echo "exec touch x" > .git/rebase-merge/git-rebase-todo'
	if [[ $RC == 0 && ! -e $WS/.git/rebase-merge ]] && grep -q "^sbx-run: note: git: .*rebase-merge" "$ERR"; then
		t_ok "git profile through sandboxd: sequencer state stays in the jail, and a note says so"
	else
		t_fail "git profile through sandboxd: sequencer state stays in the jail, and a note says so" "rc=$RC err=$(head -c 300 "$ERR")"
	fi
	# A rewritten object is dropped, through sandboxd as in direct mode (as the caller).
	o=$(ug rev-parse HEAD:b)
	printf 'import os, zlib\np = ".git/objects/%s/%s"\nn = b"forged\\n"\nos.chmod(p, 0o644)\nopen(p, "wb").write(zlib.compress(b"blob %%d\\0" %% len(n) + n))\n' \
		"${o:0:2}" "${o:2}" >"$WS/.sbx-rw.py"
	chown "$U:$U" "$WS/.sbx-rw.py"
	usbx --profile git --workspace "$WS" -- python3 .sbx-rw.py
	rm -f "$WS/.sbx-rw.py"
	if [[ $RC == 0 ]] && grep -q "^sbx-run: note: git: dropped 1 entry" "$ERR" && ! ug cat-file -p "$o" 2>/dev/null | grep -q forged; then
		t_ok "git profile through sandboxd: an object rewritten under its name is dropped"
	else
		t_fail "git profile through sandboxd: an object rewritten under its name is dropped" "rc=$RC err=$(head -c 300 "$ERR")"
	fi
	# A linked worktree through sandboxd: deleting, renaming and packing refs rewrites
	# the common directory's packed-refs, written back as the caller.
	UWT=$T/uwt URP=$T/urepo
	mkdir -p "$UWT" "$URP" && chown "$U:$U" "$UWT" "$URP"
	urg() { setpriv --reuid="$U" --regid="$U" --init-groups env HOME="$URP" GIT_CONFIG_NOSYSTEM=1 git -C "$URP" -c user.name=u -c user.email=u@u "$@"; }
	urg init -q -b main . && urg commit -q --allow-empty -m one && urg worktree add -q -b uwt "$UWT" >"$T/wtadd.log" 2>&1 &&
		urg branch x && urg tag t && urg branch ren && urg pack-refs --all ||
		t_fail "setup: a repository and a linked worktree of the caller's" "$(head -c 300 "$T/wtadd.log")"
	usbx --profile git --workspace "$UWT" -- /bin/sh -c 'git branch -D x >/dev/null && git tag -d t >/dev/null &&
		{ git branch -m ren renamed 2>/dev/null; git rev-parse -q --verify renamed >/dev/null; } && git pack-refs --all'
	refs=$(urg show-ref 2>&1 | awk '{print $2}' | tr '\n' ' ')
	if [[ $RC == 0 && $refs != *refs/heads/x\ * && $refs != *refs/tags/t\ * && $refs != *refs/heads/ren\ * && $refs == *refs/heads/renamed\ * ]] &&
		[[ $(stat -c %U "$URP/.git/packed-refs") == "$U" ]]; then
		t_ok "git profile through sandboxd, a linked worktree: branch -D, tag -d, branch -m and pack-refs come back, as the caller"
	else
		t_fail "git profile through sandboxd, a linked worktree: branch -D, tag -d, branch -m and pack-refs come back, as the caller" \
			"rc=$RC err=$(head -c 300 "$ERR"); refs: $refs"
	fi
	rm -rf "$WS/.git"
	usbx --workspace "$WS" -- /bin/sh -c 'mkdir .git 2>/dev/null; echo x > .git/config 2>/dev/null; true'
	if [[ $RC == 0 && ! -e $WS/.git ]]; then t_ok "workspace through sandboxd: no .git made, none left"
	else t_fail "workspace through sandboxd: no .git made, none left" "rc=$RC; .git: $(ls -la "$WS/.git" 2>&1 | head -3)"; fi
else
	t_skip "git profile through sandboxd" "git is not installed"
fi

# ---- the git profile through sandboxd: the commit carries the caller's user.name and
# user.email from the caller's ~/.gitconfig, read with the caller's rights: a file in
# the caller's home the caller cannot read (root's, 0600) gives nothing.
UH=$T/uhome
if command -v git >/dev/null && usermod -d "$UH" "$U" 2>/dev/null; then
	IDR=$T/uidrepo
	ISECRET="sbx-gitid-secret-$RANDOM$RANDOM"
	mkdir -p "$UH" "$IDR"
	printf '[user]\n\tname = Una User\n\temail = una@example.org\n[http]\n\textraheader = Bearer %s\n[core]\n\tpager = %s\n' \
		"$ISECRET" "$ISECRET" >"$UH/.gitconfig"
	chown -R "$U:$U" "$UH" "$IDR"
	uig() { setpriv --reuid="$U" --regid="$U" --init-groups env HOME="$IDR" GIT_CONFIG_NOSYSTEM=1 git -C "$IDR" "$@"; }
	uig init -q -b main . && uig -c user.name=u -c user.email=u@u commit -q --allow-empty -m one
	id_run() { usbx --profile git --workspace "$IDR" -- /bin/sh -c 'git commit -q --allow-empty -m id; echo "commit=$?"; env'; }
	id_run
	got=$(uig log -1 --format='%an <%ae>|%cn <%ce>|%s')
	if [[ $RC == 0 && $got == "Una User <una@example.org>|Una User <una@example.org>|id" ]] && ! grep -qF "$ISECRET" "$OUT" "$ERR"; then
		t_ok "git profile through sandboxd: commits carry the caller's user.name and user.email, nothing else of ~/.gitconfig"
	else
		t_fail "git profile through sandboxd: commits carry the caller's user.name and user.email, nothing else of ~/.gitconfig" \
			"rc=$RC commit: $got; out: $(head -c 300 "$OUT" | tr '\n' '|') err=$(head -c 200 "$ERR")"
	fi
	chown root:root "$UH/.gitconfig" && chmod 0600 "$UH/.gitconfig"
	before=$(uig log -1 --format=%H)
	id_run
	if [[ $(uig log -1 --format=%H) == "$before" ]] && grep -q "^commit=[1-9]" "$OUT" && ! grep -q "Una User" "$OUT"; then
		t_ok "git profile through sandboxd: a ~/.gitconfig the caller cannot read gives no identity"
	else
		t_fail "git profile through sandboxd: a ~/.gitconfig the caller cannot read gives no identity" \
			"rc=$RC commit: $(uig log -1 --format='%an <%ae>'); out: $(head -c 300 "$OUT" | tr '\n' '|')"
	fi
	# Other ways to the same root-only file: a symlink at ~/.gitconfig, XDG_CONFIG_HOME
	# naming a root-only directory, a FIFO (an open that would block sandboxd), and
	# values that would start a header or a variable of their own.
	RSECRET=$T/rootonly
	mkdir -p "$RSECRET/git" && chmod 0700 "$RSECRET"
	printf '[user]\n\tname = Root Secret %s\n\temail = root@secret\n' "$ISECRET" >"$RSECRET/git/config"
	cp "$RSECRET/git/config" "$RSECRET/gitconfig" && chmod 0600 "$RSECRET/gitconfig" "$RSECRET/git/config"
	rm -f "$UH/.gitconfig"
	ln -s "$RSECRET/gitconfig" "$UH/.gitconfig"
	id_run
	if [[ $HUNG == 0 ]] && grep -q '^HOME=' "$OUT" && ! grep -qF "$ISECRET" "$OUT" "$ERR" && ! grep -q "Root Secret" "$OUT"; then
		t_ok "git identity through sandboxd: ~/.gitconfig -> a root-only file gives nothing"
	else
		t_fail "git identity through sandboxd: ~/.gitconfig -> a root-only file gives nothing" "rc=$RC out: $(head -c 300 "$OUT" | tr '\n' '|')"
	fi
	rm -f "$UH/.gitconfig"
	mkfifo "$UH/.gitconfig" && chown "$U:$U" "$UH/.gitconfig"
	t0=$SECONDS
	id_run
	if [[ $HUNG == 0 && $((SECONDS - t0)) -lt 20 && $RC != 125 ]]; then
		t_ok "git identity through sandboxd: a FIFO at ~/.gitconfig neither blocks nor fails the run"
	else
		t_fail "git identity through sandboxd: a FIFO at ~/.gitconfig neither blocks nor fails the run" "rc=$RC hung=$HUNG err=$(head -c 200 "$ERR")"
	fi
	rm -f "$UH/.gitconfig"
	usbx_xdg() {
		timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups env XDG_CONFIG_HOME="$RSECRET" \
			"$SBX_RUN" --daemon --socket "$DM_SOCK" --profile git --workspace "$IDR" -- /bin/sh -c env >"$OUT" 2>"$ERR" </dev/null
		RC=$?
	}
	usbx_xdg
	if grep -q '^HOME=' "$OUT" && ! grep -qF "$ISECRET" "$OUT" "$ERR" && ! grep -q "Root Secret" "$OUT"; then
		t_ok "git identity through sandboxd: XDG_CONFIG_HOME naming a root-only directory gives nothing"
	else
		t_fail "git identity through sandboxd: XDG_CONFIG_HOME naming a root-only directory gives nothing" "rc=$RC out: $(head -c 300 "$OUT" | tr '\n' '|')"
	fi
	printf '[user]\n\tname = "Evil\\nGIT_X=1"\n\temail = "e@e\\tx"\n' >"$UH/.gitconfig"
	chown "$U:$U" "$UH/.gitconfig"
	id_run
	if grep -q '^HOME=' "$OUT" && ! grep -q '^GIT_X=' "$OUT" && ! grep -q '^GIT_AUTHOR_NAME=Evil' "$OUT" && ! grep -q '^GIT_AUTHOR_EMAIL=e@e' "$OUT"; then
		t_ok "git identity through sandboxd: a name or e-mail with a control character is not passed"
	else
		t_fail "git identity through sandboxd: a name or e-mail with a control character is not passed" "out: $(grep -a GIT_ "$OUT" | head -c 300 | tr '\n' '|')"
	fi
else
	t_skip "git identity through sandboxd" "git is not installed, or the test user's home cannot be set"
fi
