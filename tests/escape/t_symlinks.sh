#!/bin/bash
# Symlinks a jail leaves behind must not redirect a later bind or workspace.  A first
# jail plants `cache -> <victim>` in its workspace; a second run names $WS/cache as a
# bind source or a workspace.  Every form (read-write, read-only, a middle component,
# a relative path, the workspace, a profile's bind, a file) must be refused, checked
# from the host: the victim file is unchanged and its secret never reaches the output.
# Symlinks of the system's own layout (/bin -> usr/bin) are still followed; /proc magic
# links never are; the caller's home and its dot-directories are never a workspace or a
# read-write bind.
. "$(dirname "$0")/../lib.sh"
t_init

VICTIM=$T/victim
mkdir -p "$VICTIM/sub"
SECRET="sbx-secret-$RANDOM$RANDOM"
echo "$SECRET" >"$VICTIM/authorized_keys"
echo "$SECRET" >"$VICTIM/sub/id_rsa"
victim_intact() { [[ $(cat "$VICTIM/authorized_keys") == "$SECRET" && ! -e $VICTIM/planted ]]; }

# A jail plants the links, as an attacker's first command would.
sbx --workspace "$WS" -- /bin/sh -c "ln -s '$VICTIM' '$WS/cache' && ln -s '$T' '$WS/mid' &&
	ln -s '$VICTIM/authorized_keys' '$WS/notes' && mkdir '$WS/d' && ln -s '$VICTIM' '$WS/d/inner'"
if [[ $RC != 0 || ! -L $WS/cache ]]; then
	t_fail "setup: a jail plants symlinks in its workspace" "$(run_info)"
	exit 0
fi

# refused NAME ARGS...: sbx-run with ARGS exits 125 with one validate line naming a
# symlink, the victim is intact and its secret is not in the output.
refused() {
	local name=$1
	shift
	sbx "$@"
	if ((HUNG)); then
		t_fail "$name" "$(run_info)"
	elif [[ $RC != 125 ]]; then
		t_fail "$name" "expected 125 (refused); $(run_info); out: $(head -c 120 "$OUT")"
	elif ! victim_intact; then
		t_fail "$name" "the victim changed on the host"
	elif grep -qF "$SECRET" "$OUT" "$ERR"; then
		t_fail "$name" "the victim's secret reached the output"
	elif [[ $(wc -l <"$ERR") != 1 ]] || ! grep -q 'symlink' "$ERR"; then
		t_fail "$name" "expected one line naming the symlink: $(head -c 300 "$ERR")"
	else
		t_ok "$name"
	fi
}

write_key='echo planted >> /c/authorized_keys; touch /c/planted'
refused "--rw through a planted symlink" --workspace "$WS" --rw "$WS/cache:/c" -- /bin/sh -c "$write_key"
refused "--ro through a planted symlink" --workspace "$WS" --ro "$WS/cache:/c" -- /bin/cat /c/sub/id_rsa
refused "--rw through a symlinked middle component" --workspace "$WS" --rw "$WS/mid/victim:/c" -- /bin/sh -c "$write_key"
refused "--rw through a symlink deeper down" --workspace "$WS" --rw "$WS/d/inner/sub:/c" -- /bin/sh -c 'touch /c/planted'
refused "--rw of a symlinked file" --workspace "$WS" --rw "$WS/notes:/c/authorized_keys" -- /bin/sh -c 'echo x >> /c/authorized_keys'
refused "--workspace through a planted symlink" --workspace "$WS/cache" -- /bin/sh -c 'echo planted >> authorized_keys; touch planted'
refused "--workspace below a planted symlink" --workspace "$WS/cache/sub" -- /bin/sh -c 'touch ../planted'
(cd "$WS" && refused "a relative --workspace through a planted symlink" --workspace cache -- /bin/sh -c "echo planted >> authorized_keys")

cat >"$T/ws-link.yaml" <<EOF
extends: workspace
filesystem:
  rw: ["{workspace}/cache:/c"]
EOF
refused "a profile's {workspace} bind through a planted symlink" --profile "$T/ws-link.yaml" --workspace "$WS" -- /bin/sh -c "$write_key"
cat >"$T/abs-link.yaml" <<EOF
extends: workspace
filesystem:
  bind_roots_ro: ["$WS"]
  ro: ["$WS/cache:/c"]
EOF
refused "a profile's absolute bind through a planted symlink" --profile "$T/abs-link.yaml" --workspace "$T" -- /bin/cat /c/sub/id_rsa

# ---- /proc magic links lead nowhere
for src in /proc/self/cwd /proc/self/root/etc /dev/fd/1 /proc/1/cwd; do
	sbx --workspace "$WS" --ro "$src:/x" -- /bin/true
	if [[ $RC == 125 ]] && [[ $(wc -l <"$ERR") == 1 ]]; then t_ok "--ro $src refused"
	else t_fail "--ro $src refused" "$(run_info)"; fi
done

# ---- the system's own symlinks are still followed (merged /usr)
if [[ -L /bin ]]; then
	sbx --workspace "$WS" --ro /bin/echo:/opt/e/echo -- /opt/e/echo followed
	if [[ $RC == 0 ]] && grep -qx followed "$OUT"; then t_ok "--ro through /bin -> usr/bin works"
	else t_fail "--ro through /bin -> usr/bin works" "$(run_info)"; fi
else
	sbx --workspace "$WS" --ro /usr/bin/echo:/opt/e/echo -- /opt/e/echo followed
	if [[ $RC == 0 ]] && grep -qx followed "$OUT"; then t_ok "--ro of a system file works"
	else t_fail "--ro of a system file works" "$(run_info)"; fi
fi
# A symlink the caller made to a directory of its own: refused, and the message
# names the target to use instead.
mkdir -p "$T/data"
echo hello >"$T/data/f"
ln -s "$T/data" "$T/datalink"
sbx --workspace "$WS" --ro "$T/datalink:/d" -- /bin/cat /d/f
if [[ $RC == 125 ]] && grep -qF "'$T/data'" "$ERR"; then t_ok "a caller's own symlink is refused with its target named"
else t_fail "a caller's own symlink is refused with its target named" "$(run_info)"; fi
sbx --workspace "$WS" --ro "$T/data:/d" -- /bin/cat /d/f
if [[ $RC == 0 ]] && grep -qx hello "$OUT"; then t_ok "the target named directly works"
else t_fail "the target named directly works" "$(run_info)"; fi

# ---- the caller's home: never the workspace, never a read-write bind (as a user whose
# home is under $T, through its user namespace)
user=sbxh$$
userdel "$user" >/dev/null 2>&1
if useradd --system -M -d "$T/home" -s /usr/sbin/nologin "$user" 2>/dev/null; then
	t_defer "userdel $user"
	uid=$(id -u "$user")
	mkdir -p "$T/home/.ssh" "$T/home/.config/app" "$T/home/proj"
	echo "$SECRET" >"$T/home/.ssh/authorized_keys"
	chown -R "$uid:$uid" "$T/home"
	cp "$WS/probe" "$T/home/proj/probe"
	home_intact() { [[ $(cat "$T/home/.ssh/authorized_keys") == "$SECRET" && ! -e $T/home/.bashrc && ! -e $T/home/.ssh/planted ]]; }
	for args in "--workspace $T/home" "--workspace $T/home/.ssh" "--workspace $T/home/.config/app" \
		"--workspace $T/home/proj --rw $T/home:/h" "--workspace $T/home/proj --rw $T/home/.ssh:/h" \
		"--workspace $T/home/proj --rw $T/home/.config:/h" "--workspace $T" ; do
		# shellcheck disable=SC2086
		SBX_AS=$uid sbx $args -- /bin/sh -c 'echo planted > .bashrc; touch .ssh/planted /h/.bashrc /h/planted 2>/dev/null; true'
		if [[ $RC == 125 ]] && home_intact; then t_ok "refused for a user: $args"
		else t_fail "refused for a user: $args" "$(run_info)"; fi
	done
	SBX_AS=$uid sbx --workspace "$T/home/proj" -- ./probe status
	if [[ $RC == 0 ]]; then t_ok "a project under the user's home is a workspace"
	else t_fail "a project under the user's home is a workspace" "$(run_info)"; fi
else
	t_skip "the caller's home is protected" "cannot create a test user"
fi

# ---- a home the user database names through a symlink (/home -> /data/home): protected
# under its real path too
user2=sbxj$$
userdel "$user2" >/dev/null 2>&1
mkdir -p "$T/real/u/proj" && ln -s "$T/real" "$T/homes"
if useradd --system -M -d "$T/homes/u" -s /usr/sbin/nologin "$user2" 2>/dev/null; then
	t_defer "userdel $user2"
	uid2=$(id -u "$user2")
	chown -R "$uid2:$uid2" "$T/real/u"
	for args in "--workspace $T/real/u" "--workspace $T/real/u/proj --rw $T/real/u:/h" "--workspace $T/real"; do
		# shellcheck disable=SC2086
		SBX_AS=$uid2 sbx $args -- /bin/sh -c 'echo planted > .bashrc; touch /h/.bashrc 2>/dev/null; true'
		if [[ $RC == 125 && ! -e $T/real/u/.bashrc ]]; then t_ok "home through a symlink, refused: ${args//$T/\$T}"
		else t_fail "home through a symlink, refused: ${args//$T/\$T}" "$(run_info)"; fi
	done
	(cd "$T/homes/u" && SBX_AS=$uid2 sbx -- /bin/sh -c 'echo planted > .bashrc')
	if [[ $RC == 125 && ! -e $T/real/u/.bashrc ]]; then t_ok "home through a symlink, refused as the default workspace (the cwd)"
	else t_fail "home through a symlink, refused as the default workspace (the cwd)" "$(run_info)"; fi
else
	t_skip "a home through a symlink is protected" "cannot create a test user"
fi

# ---- a mount carried through a symlink in another bind: never onto the system's files
mkdir -p "$T/d" && ln -sfn /usr/bin "$T/d/x"
printf '#!/bin/sh\necho payload\n' >"$T/payload" && chmod +x "$T/payload"
for profile in workspace strict; do
	sbx --profile "$profile" --workspace "$WS" --ro "$T/d:/opt/d" --ro "$T/payload:/opt/d/x/ls" -- /bin/sh -c 'head -c 9 /usr/bin/ls'
	if [[ $RC == 125 ]] && grep -q "symlink" "$ERR" && ! grep -q payload "$OUT"; then t_ok "$profile: a bind through a symlink in another bind is refused"
	else t_fail "$profile: a bind through a symlink in another bind is refused" "$(run_info)"; fi
done
