#!/bin/bash
# The landlock isolation tier (sbx-run(1) ISOLATION TIERS) on this host: sbx-run runs
# under `probe no-namespaces`, a seccomp filter that refuses every namespace as a
# container runtime's default profile does (t_container does the same in podman), so
# that a profile whose min_tier is landlock gets that tier.  The caller is an ordinary
# user (nobody, with a second group to chgrp to); every check is judged on the host.
#
# File metadata: Landlock does not govern chmod, chown, utimes or xattrs, and this tier
# has no read-only mount; so the calls that change them by path are refused whole
# (metadata=fd-only), and so are the fd-based ones wherever the jail may read a file of
# the caller's (metadata=none): a read-only bind it asked for, a read-only workspace.
. "$(dirname "$0")/../lib.sh"
t_init

OTHER_GID=$(getent group users | cut -d: -f3)
OTHER_GID=${OTHER_GID:-100}
mkdir -p "$T/bin" "$T/home" "$T/prof"
# (nobody cannot reach the build directory)
cp "$SBX_RUN" "$T/bin/sbx-run"
printf 'extends: workspace\nmin_tier: landlock\n' >"$T/prof/ll.yaml"
printf 'extends: readonly\nmin_tier: landlock\n' >"$T/prof/llro.yaml"

# meta FILE: what a change of metadata would show (mode, owner, group, mtime, ctime,
# the xattrs), from the host.
meta() {
	"$PYTHON" -c '
import os, sys
p = sys.argv[1]; s = os.lstat(p)
x = sorted((n, os.getxattr(p, n, follow_symlinks=False)) for n in os.listxattr(p, follow_symlinks=False))
print(oct(s.st_mode), s.st_uid, s.st_gid, s.st_mtime_ns, s.st_ctime_ns, x)' "$1"
}
# mkfile PATH MODE: the caller's file, with an xattr user.keep.
mkfile() {
	echo data >"$1" && chmod "$2" "$1" && chown "$NOBODY:$NOBODY" "$1" &&
		"$PYTHON" -c 'import os, sys; os.setxattr(sys.argv[1], "user.keep", b"k")' "$1"
}

# ll PROFILE [SBX-RUN OPTIONS...] -- CMD...: as the caller, in the workspace, where no
# namespace can be made; --json on stderr.
ll() {
	local prof=$1
	shift
	(cd "$WS" && timeout -k 5 "$SBX_HANG" setpriv "--reuid=$NOBODY" "--regid=$NOBODY" "--groups=$NOBODY,$OTHER_GID" \
		"$WS/probe" no-namespaces "$T/bin/sbx-run" --profile "$T/prof/$prof.yaml" --json --workspace "$WS" "$@") \
		>"$OUT" 2>"$ERR" </dev/null
	RC=$?
	HUNG=0
}
subs() {
	tail -n 1 "$ERR" | "$PYTHON" -c 'import json, sys; o = json.loads(sys.stdin.read()); print(",".join(s["feature"] + "=" + s["with"] for s in o["substitutions"]))' 2>/dev/null
}

chown -R "$NOBODY:$NOBODY" "$WS" "$T/home"
PATH_CALLS="chmod chown lchown utime utimes fchmodat fchmodat2 fchownat futimesat utimensat utimensat_now setxattr lsetxattr
	removexattr lremovexattr"
# (setxattrat and removexattrat, Linux 6.13: ENOSYS from the main filter where this
# libseccomp does not know them, which answers first)
AT_CALLS="setxattrat removexattrat opath.setxattrat_empty opath.removexattrat_empty"
EMPTY_CALLS="opath.fchmodat2_empty opath.fchownat_empty opath.utimensat_empty opath.proc_chmod"
FD_CALLS="opath.fchmod opath.fchown opath.fsetxattr opath.fremovexattr opath.futimens"

# ---- control: outside any jail, the same calls by the same user change the file
mkfile "$T/home/control" 0600
before=$(meta "$T/home/control")
(cd "$WS" && setpriv "--reuid=$NOBODY" "--regid=$NOBODY" "--groups=$NOBODY,$OTHER_GID" "$WS/probe" metadata "$T/home/control" "$OTHER_GID") >"$OUT" 2>"$ERR"
t_check "control: outside the jail chmod, chgrp, utimes, setxattr by path work" "$(tr '\n' ' ' <"$OUT")" \
	grep -qzE 'chmod=ok.*fchownat=ok.*utimensat=ok.*setxattr=ok.*removexattr=ok' "$OUT"
t_check "control: ... and the host sees the change" "before: $before; after: $(meta "$T/home/control")" \
	test "$before" != "$(meta "$T/home/control")"

# ---- 1. a file of the caller's outside the workspace: nothing changes it
mkfile "$T/home/f" 0600
before=$(meta "$T/home/f")
ll ll -- "$WS/probe" metadata "$T/home/f" "$OTHER_GID"
if [[ $RC == 0 && $(kv result) == ok ]]; then
	json_last
	expect_json "landlock tier: --json says tier landlock" tier landlock
	t_check "landlock tier: --json names metadata=none (a read-write workspace: its guards are read, not written)" "$(subs)" \
		grep -q "metadata=none" <<<"$(subs)"
	for k in $PATH_CALLS $EMPTY_CALLS; do
		expect_kv "landlock tier: $k by path outside the workspace: EPERM" "$k" EPERM
	done
	for k in $AT_CALLS; do
		expect_kv_in "landlock tier: $k outside the workspace refused" "$k" EPERM ENOSYS
	done
	for k in $FD_CALLS; do
		expect_kv_in "landlock tier: $k on an O_PATH fd: refused (EPERM under metadata=none, else the kernel's EBADF)" "$k" EPERM EBADF
	done
	expect_kv "landlock tier: O_PATH open outside works (so the fd forms above were tried)" opath ok
	expect_kv_in "landlock tier: reopening the O_PATH fd for reading is refused (Landlock)" opath.reopen EACCES
	expect_kv_in "landlock tier: opening it for reading is refused (Landlock)" read_open EACCES
	expect_kv "landlock tier: io_uring_setup refused (its requests bypass seccomp)" io_uring_setup EPERM
else
	t_fail "landlock tier: the metadata probe ran" "$(run_info); $(head -c 300 "$OUT" | tr '\n' '|')"
fi
t_check "landlock tier: (host side) mode, owner, group, times and xattrs of the file outside unchanged" \
	"before: $before; after: $(meta "$T/home/f")" test "$before" = "$(meta "$T/home/f")"

# ---- 2. in a read-write workspace: metadata=none.  Its guards (.git, .claude...) are
# the caller's, read and not written: through a read-only fd of one, fchmod 0777 of
# .git/hooks would open it to every local user.  So no metadata call at all, by fd
# either, on a guard or on an ordinary file (the tier's cost).
mkdir -p "$WS/.claude" && chown "$NOBODY:$NOBODY" "$WS/.claude" && chmod 0700 "$WS/.claude"
before=$(meta "$WS/.claude")
ll ll -- "$WS/probe" metadata-fd "$WS/.claude" 777 ro
for k in fchmod fchown futimens fsetxattr; do
	expect_kv "landlock tier: $k through a read-only fd of the workspace's .claude: EPERM" "$k" EPERM
done
t_check "... (host side) .claude unchanged (mode 0700)" "before: $before; after: $(meta "$WS/.claude")" test "$before" = "$(meta "$WS/.claude")"
mkfile "$WS/w" 0644
before=$(meta "$WS/w")
ll ll -- "$WS/probe" metadata-fd "$WS/w" 755
for k in fchmod fchown futimens fsetxattr fremovexattr; do
	expect_kv "landlock tier: $k on a workspace file's fd: EPERM (the tier's cost)" "$k" EPERM
done
t_check "... (host side) unchanged" "before: $before; after: $(meta "$WS/w")" test "$before" = "$(meta "$WS/w")"
mkfile "$WS/w2" 0644
before=$(meta "$WS/w2")
ll ll -- "$WS/probe" metadata "$WS/w2"
for k in chmod fchmodat utimensat setxattr; do
	expect_kv "landlock tier: $k by path in the workspace: EPERM (the tier's cost)" "$k" EPERM
done
t_check "... (host side) unchanged" "before: $before; after: $(meta "$WS/w2")" test "$before" = "$(meta "$WS/w2")"
# (as tools see it: chmod(1) by path, touch(1) through the fd it opens: both fail)
ll ll -- /bin/sh -c 'chmod +x w2; echo chmod=$?; touch -d @7 w2; echo touch=$?'
t_check "landlock tier: the cost: chmod +x and touch -d in the workspace fail" "$(tr '\n' ' ' <"$OUT")" \
	bash -c 'grep -qx "chmod=1" "$1" && grep -qx "touch=1" "$1"' sh "$OUT"
t_check "... (host side) mode and mtime unchanged" "before: $before; after: $(meta "$WS/w2")" test "$before" = "$(meta "$WS/w2")"

# ---- 3. a file the jail may read (a read-only bind of the caller's): no fd-based
# change either
before=$(meta "$T/home/f")
ll ll --ro "$T/home" -- "$WS/probe" metadata-fd "$T/home/f" 777 ro
if [[ $RC == 0 && $(kv open) == ok ]]; then
	t_check "landlock tier, --ro of the caller's: --json names metadata=none" "$(subs)" grep -q "metadata=none" <<<"$(subs)"
	for k in fchmod fchown futimens fsetxattr fremovexattr; do
		expect_kv "landlock tier, --ro of the caller's: $k on a read-only fd: EPERM" "$k" EPERM
	done
else
	t_fail "landlock tier, --ro of the caller's: the file was opened for reading" "$(run_info); $(head -c 300 "$OUT" | tr '\n' '|')"
fi
t_check "... (host side) unchanged" "before: $before; after: $(meta "$T/home/f")" test "$before" = "$(meta "$T/home/f")"

# ---- 4. a read-only workspace (extends: readonly)
before=$(meta "$WS/w")
ll llro -- "$WS/probe" metadata-fd "$WS/w" 600 ro
if [[ $RC == 0 && $(kv open) == ok ]]; then
	t_check "landlock tier, read-only workspace: --json names metadata=none" "$(subs)" grep -q "metadata=none" <<<"$(subs)"
	for k in fchmod fchown futimens fsetxattr; do
		expect_kv "landlock tier, read-only workspace: $k on a read-only fd: EPERM" "$k" EPERM
	done
else
	t_fail "landlock tier, read-only workspace: the file was opened for reading" "$(run_info); $(head -c 300 "$OUT" | tr '\n' '|')"
fi
t_check "... (host side) unchanged" "before: $before; after: $(meta "$WS/w")" test "$before" = "$(meta "$WS/w")"

# ---- 5. root (who owns the system view it may read): metadata=none
(cd "$WS" && timeout -k 5 "$SBX_HANG" "$WS/probe" no-namespaces "$T/bin/sbx-run" --profile "$T/prof/ll.yaml" --json \
	--workspace "$WS" -- "$WS/probe" status) >"$OUT" 2>"$ERR" </dev/null
RC=$?
t_check "landlock tier as root: --json names metadata=none" "rc=$RC; $(subs)" grep -q "metadata=none" <<<"$(subs)"

# ---- 5b. a mask over a file in the workspace (a profile's filesystem.masks): Landlock
# cannot take read away beneath the workspace, so the tier refuses to run rather than
# show it.
echo secret-env >"$WS/.env" && chown "$NOBODY:$NOBODY" "$WS/.env"
printf 'extends: workspace\nmin_tier: landlock\nfilesystem:\n  masks: ["{workspace}/.env"]\n' >"$T/prof/llmask.yaml"
ll llmask -- /bin/cat "$WS/.env"
t_check "landlock tier, a mask in the workspace: refused, 125, naming it" "$(run_info)" \
	bash -c '[[ $1 == 125 ]] && grep -q "cannot hide .*\.env" "$2"' sh "$RC" "$ERR"
t_check "... the masked file was not shown" "$(head -c 100 "$OUT")" sh -c "! grep -q secret-env '$OUT'"
rm -f "$WS/.env"

# ---- 6. what the workspace holds for the host (policy/hostconfig.c: the harnesses'
# .claude, .codex, .mcp.json ...: read-only, or held empty where there is none).
# Landlock cannot take write away beneath a writable place, so the workspace gets
# write entry by entry (workspace=entries): a write, a new file, a rename, a link or a
# symlink into a guard changes nothing the host reads; the other entries are written
# as usual; a new entry at the top is refused (the named cost).  A repository's .git
# is a protected path the tier refuses outright (below).
W2=$T/ws2
mkdir -p "$W2/src/deep" "$W2/.claude" "$W2/app"
echo '{"hooks":{}}' >"$W2/.claude/settings.json"
echo 'int a;' >"$W2/src/a.c"
echo readme >"$W2/README"
echo 'int m;' >"$W2/app/m.c"
cp "$WS/probe" "$W2/probe"
chown -R "$NOBODY:$NOBODY" "$W2"
cat >"$W2/try.sh" <<'EOS'
r() { if sh -c "$1" 2>/dev/null; then echo "$2=ok"; else echo "$2=refused"; fi; }
r 'echo x >>.claude/settings.json' claude_write
r 'echo x >.claude/new.json' claude_create
r 'mv .claude c2' claude_rename
r 'mkdir .codex' codex_mkdir
r 'echo {} >.mcp.json' mcp_create
r 'ln -s .claude lk && echo x >lk/evil.json' symlink_top
r 'ln -s ../.claude src/lk && echo x >src/lk/evil.json' symlink_src
r 'ln .claude/settings.json src/hard' hardlink
r 'mv src/deep .claude/deep' rename_into
r 'echo y >>src/a.c' src_write
r 'echo y >src/new.c' src_create
r 'mkdir src/d && echo z >src/d/f' src_mkdir
r 'echo y >>app/m.c' nested_write
r 'echo y >>README' top_write
r 'echo y >newtop' top_create
EOS
chown "$NOBODY:$NOBODY" "$W2/try.sh"
sum_before=$(sha256sum "$W2/.claude/settings.json")
(cd "$W2" && timeout -k 5 "$SBX_HANG" setpriv "--reuid=$NOBODY" "--regid=$NOBODY" "--groups=$NOBODY,$OTHER_GID" \
	"$W2/probe" no-namespaces "$T/bin/sbx-run" --profile "$T/prof/ll.yaml" --json --workspace "$W2" -- /bin/sh try.sh) \
	>"$OUT" 2>"$ERR" </dev/null
RC=$?
t_check "landlock tier, guards: the jail ran" "$(run_info)" test "$RC" = 0
t_check "... --json names workspace=entries" "$(subs)" grep -q "workspace=entries" <<<"$(subs)"
for k in claude_write claude_create claude_rename codex_mkdir mcp_create symlink_top symlink_src hardlink rename_into top_create; do
	expect_kv "landlock tier, guards: $k refused" "$k" refused
done
for k in src_write src_create src_mkdir nested_write top_write; do
	expect_kv "landlock tier, guards: $k works" "$k" ok
done
sum_after=$(sha256sum "$W2/.claude/settings.json")
t_check "... (host side) .claude/settings.json unchanged" "$sum_after" test "$sum_before" = "$sum_after"
t_check "... (host side) nothing new in a guard or at the top" "$(cd "$W2" && ls -A . .claude | tr '\n' ' ')" \
	sh -c "cd '$W2' && test ! -e .claude/new.json && test ! -e .claude/evil.json && test ! -e .codex && test ! -e .mcp.json &&
		test ! -e .claude/deep && test ! -e newtop && test ! -e lk && test -d .claude && test ! -e c2"

# A repository's workspace: its .git is a guard too (read-only whole), its hooks
# cannot be made.  (A workspace whose plan protects paths the tier cannot, a nested
# repository's, is refused with 125 instead: either way nothing lands.)
W3=$T/ws3
mkdir -p "$W3"
git init -q "$W3"
cp "$WS/probe" "$W3/probe"
chown -R "$NOBODY:$NOBODY" "$W3"
(cd "$W3" && timeout -k 5 "$SBX_HANG" setpriv "--reuid=$NOBODY" "--regid=$NOBODY" "--groups=$NOBODY,$OTHER_GID" \
	"$W3/probe" no-namespaces "$T/bin/sbx-run" --profile "$T/prof/ll.yaml" --workspace "$W3" -- \
	/bin/sh -c 'echo x >>.git/config; echo x >.git/hooks/post-checkout; mkdir .git/hooks2') >"$OUT" 2>"$ERR" </dev/null
RC=$?
t_check "landlock tier, a repository's workspace: the writes into .git refused" "$(run_info)" \
	bash -c '[[ $1 == 125 ]] || [[ $(grep -c "Permission denied" "$2") == 3 ]]' sh "$RC" "$ERR"
t_check "... (host side) .git/config unchanged, no hook made" "$(ls -A "$W3/.git" "$W3/.git/hooks" | tr '\n' ' ')" \
	sh -c "! grep -q '^x' '$W3/.git/config' && test ! -e '$W3/.git/hooks/post-checkout' && test ! -e '$W3/.git/hooks2'"
t_check "... (host side) the ordinary writes landed" "$(cat "$W2/src/a.c" "$W2/README" | tr '\n' ' ')" \
	sh -c "cd '$W2' && grep -q y src/a.c && test -e src/new.c && test -e src/d/f && grep -q y app/m.c && grep -q y README"
