#!/bin/bash
# The spool between Claude Code's hooks and its shell prefix (sbx-hook(1), FILES), as
# an unprivileged user without XDG_RUNTIME_DIR, against another local user who plants
# what it can: the old fixed /tmp/sbx-hook-UID made first by someone else, a runtime
# directory or HOME that is another user's, a cache directory in /tmp, a symlinked or
# group-writable ~/.cache.  Each time the Claude flow (PreToolUse, the prefix running
# Claude's composite, PostToolUse) still runs jailed and attributed, or fails closed
# naming the cause; nothing is ever written where the other user planted.  And a
# workspace that holds the spool's way (a jailed command could then forge the next
# call's entry) is refused by the hook and by the prefix, nothing run.
. "$(dirname "$0")/../lib.sh"
t_init

HOOK=$(realpath "$(dirname "$SBX_RUN")/sbx-hook")
PREFIX=$(dirname "$HOOK")/sbx-shell-prefix
RUN=$(realpath "$SBX_RUN")
if [[ ! -x $HOOK || ! -L $PREFIX ]]; then
	t_fail "setup" "sbx-hook not built: $HOOK (make all)"
	exit 0
fi
if ! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups test -x "$HOOK"; then
	t_skip "spool as another user" "an unprivileged user cannot execute $HOOK (a parent directory is not searchable)"
	exit 0
fi

U=sbxsp$$
if ! t_user "$U" "$T/uhome"; then
	t_fail "setup" "cannot create the test user $U (useradd)"
	exit 0
fi
UID_U=$(id -u "$U")
UH=$T/uhome
P=$UH/proj
mkdir -p "$P" "$UH/.claude/shell-snapshots" "$T/audit"
SNAP=$UH/.claude/shell-snapshots/snapshot-bash-1755042239230-sp$$.sh
echo 'export SNAPVAR=from-the-snapshot' >"$SNAP"
chown -R "$UID_U:$UID_U" "$UH" "$T/audit"
chmod 0755 "$UH"
CWDF=/tmp/claude-$(printf '%x' $(((SBX_RUN_ID * 65536 + $$) & 0xffffffff)))5-cwd
OUTSIDE=$T/outside
# What the other user (nobody) plants: the old fixed spool name first.
PLANT=/tmp/sbx-hook-$UID_U
t_defer "rm -rf '$PLANT' '$CWDF' /tmp/sbx-sp-cache.$$; [[ \$(stat -c %u /tmp/sbx-hook 2>/dev/null) == $UID_U ]] && rm -rf /tmp/sbx-hook"
rm -rf "$PLANT"
mkdir -m 0755 "$PLANT"
chown "$NOBODY:$NOBODY" "$PLANT"
AUDF=$T/audit/audit.jsonl
printf '#!/bin/sh\nexec "%s" --audit-file "%s" "$@"\n' "$RUN" "$AUDF" >"$T/audit-sbx"
chmod 0755 "$T/audit-sbx"

# as_u [VAR=VALUE...] CMD...: CMD as the test user, in $P, with a login-like
# environment and no XDG_RUNTIME_DIR; stdout $T/o, stderr $T/e, status URC.
as_u() {
	(cd "$P" && timeout -k 2 30 setpriv --reuid="$UID_U" --regid="$UID_U" --clear-groups \
		env -i PATH=/usr/bin:/bin HOME="$UH" USER="$U" SBX_RUN="$T/audit-sbx" \
		CLAUDE_CODE_SHELL_PREFIX="$PREFIX" "$@" >"$T/o" 2>"$T/e")
	URC=$?
}
# claude_ev EVENT ID CMD [CWD]: Claude Code's hook input.
claude_ev() {
	python3 -c '
import json, sys
ev, tid, cmd, cwd = sys.argv[1:5]
d = {"session_id": "sess-U", "transcript_path": "/x/t.jsonl", "cwd": cwd, "permission_mode": "default",
     "hook_event_name": ev, "tool_name": "Bash", "tool_use_id": tid,
     "tool_input": {"command": cmd, "description": "d"}}
if ev == "PostToolUse":
    d["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
print(json.dumps(d))' "$1" "$2" "$3" "${4:-$P}" >"$T/in"
	chmod 0644 "$T/in"
}
jf() { python3 -c 'import json,sys
try: v = json.load(open(sys.argv[1]))
except ValueError: print("<not json>"); sys.exit()
for k in sys.argv[2].split("."): v = v.get(k, "<absent>") if isinstance(v, dict) else "<absent>"
print(v)' "$1" "$2"; }
audit_tags() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("SBX_EVENT") == "exit":
        print(e.get("SBX_TOOL_USE_ID", "-"), e.get("SBX_SESSION_ID", "-"))' "$AUDF" 2>/dev/null
}

# flow NAME ID [VAR=VALUE...]: PreToolUse, the composite through the prefix,
# PostToolUse, for call ID, as the test user with the extra environment.
flow() {
	local name=$1 id=$2 cmd
	shift 2
	cmd="hostname; echo \"\$SNAPVAR\" >snap-seen; echo x >$OUTSIDE"
	claude_ev PreToolUse "$id" "$cmd"
	as_u "$@" "$HOOK" --harness claude <"$T/in"
	t_check "$name: PreToolUse allows" "exit $URC: $(cat "$T/o") $(head -c 300 "$T/e")" \
		test "$URC" = 0 -a "$(jf "$T/o" hookSpecificOutput.permissionDecision)" = allow
	rm -f "$AUDF" "$P/snap-seen" "$CWDF"
	as_u "$@" "$PREFIX" "source $SNAP && eval '${cmd//\'/\'\\\'\'}' < /dev/null && pwd -P >| $CWDF"
	t_check "$name: the composite ran jailed (hostname sbx, the snapshot read)" "exit $URC: $(head -c 300 "$T/o") $(head -c 300 "$T/e")" \
		test "$(head -n 1 "$T/o")" = sbx -a "$(cat "$P/snap-seen" 2>/dev/null)" = from-the-snapshot
	t_check "$name: a write outside the workspace is refused (host)" "$OUTSIDE exists" test ! -e "$OUTSIDE"
	t_check "$name: the jail is attributed (SBX_TOOL_USE_ID in the audit record)" "$(audit_tags) $(head -c 300 "$T/e")" \
		test "$(audit_tags)" = "$id sess-U"
	claude_ev PostToolUse "$id" "$cmd"
	as_u "$@" "$HOOK" --harness claude <"$T/in"
	t_check "$name: PostToolUse finds it jailed (no block)" "exit $URC: $(cat "$T/o") $(head -c 300 "$T/e")" \
		test "$URC" = 0 -a "$(jf "$T/o" decision)" != block
	t_check "$name: nothing in the planted /tmp/sbx-hook-UID" "$(ls -A "$PLANT" 2>&1)" test -z "$(ls -A "$PLANT")"
}

# ------------------------------------------------------------------ the brief's attack

flow "planted /tmp/sbx-hook-UID" toolu_U1
t_check "the spool is ~/.cache/sbx-hook, the user's, mode 0700" "$(stat -c '%U %a' "$UH/.cache/sbx-hook" 2>&1)" \
	test "$(stat -c '%u %a' "$UH/.cache/sbx-hook" 2>/dev/null)" = "$UID_U 700"

# A runtime directory that is not the user's own: passed over for ~/.cache.
OTHER=$T/other-runtime
mkdir -m 0777 "$OTHER"
chown "$NOBODY:$NOBODY" "$OTHER"
flow "XDG_RUNTIME_DIR another user's (0777)" toolu_U2 XDG_RUNTIME_DIR="$OTHER"
t_check "XDG_RUNTIME_DIR another user's: nothing made in it" "$(ls -A "$OTHER")" test -z "$(ls -A "$OTHER")"
flow "XDG_RUNTIME_DIR=/tmp (others may write)" toolu_U3 XDG_RUNTIME_DIR=/tmp
t_check "XDG_RUNTIME_DIR=/tmp: no /tmp/sbx-hook made" "exists" test ! -e /tmp/sbx-hook
# HOME naming another user's home (sudo without -H): not where the spool is.
mkdir -p "$T/nobody-home/.cache"
chown -R "$NOBODY:$NOBODY" "$T/nobody-home"
flow "HOME another user's" toolu_U4 HOME="$T/nobody-home"
t_check "HOME another user's: nothing made in it" "$(ls -A "$T/nobody-home/.cache")" test -z "$(ls -A "$T/nobody-home/.cache")"
# An XDG_RUNTIME_DIR of the user's own is used as before.
mkdir -m 0700 "$T/urt"
chown "$UID_U:$UID_U" "$T/urt"
flow "XDG_RUNTIME_DIR of the user's" toolu_U5 XDG_RUNTIME_DIR="$T/urt"
t_check "XDG_RUNTIME_DIR of the user's: the spool is in it, 0700" "$(stat -c '%U %a' "$T/urt/sbx-hook" 2>&1)" \
	test "$(stat -c '%u %a' "$T/urt/sbx-hook" 2>/dev/null)" = "$UID_U 700"

# ------------------------------------------------------------------ failing closed

# blocked NAME [VAR=VALUE...]: PreToolUse as the user blocks (exit 2), naming the cause.
blocked() {
	local name=$1
	shift
	claude_ev PreToolUse toolu_X 'hostname'
	as_u "$@" "$HOOK" --harness claude <"$T/in"
	t_check "$name: PreToolUse blocks (exit 2, no allow)" "exit $URC: $(cat "$T/o")" test "$URC" = 2 -a ! -s "$T/o"
	t_check "$name: ... naming the spool's way" "$(head -c 300 "$T/e")" grep -q "spool" "$T/e"
}
# A cache directory another user made first in /tmp.
C=/tmp/sbx-sp-cache.$$
mkdir -m 0777 "$C"
chown "$NOBODY:$NOBODY" "$C"
blocked "XDG_CACHE_HOME in /tmp, another user's" XDG_CACHE_HOME="$C"
t_check "XDG_CACHE_HOME another user's: nothing made in it" "$(ls -A "$C")" test -z "$(ls -A "$C")"
# ~/.cache a symbolic link into it.
mv "$UH/.cache" "$UH/.cache.real"
ln -s "$C" "$UH/.cache"
chown -h "$UID_U:$UID_U" "$UH/.cache"
blocked "~/.cache a symlink to another user's directory"
t_check "~/.cache a symlink: nothing made where it points" "$(ls -A "$C")" test -z "$(ls -A "$C")"
rm "$UH/.cache"
mv "$UH/.cache.real" "$UH/.cache"
# A group-writable ~/.cache: others in the group could swap the spool.
chmod 0770 "$UH/.cache"
blocked "a group-writable ~/.cache"
chmod 0700 "$UH/.cache"

# ------------------------------------------------------------------ a workspace holding the spool

# A cache directory inside the project the harness runs in (sbx-run refuses ~ itself
# as a workspace, not this): a jailed command could write the spool and plant the next
# call's entry, whose cwd pins a wider workspace.  The hook denies, the prefix refuses.
W=$UH/w
mkdir -p "$W"
chown "$UID_U:$UID_U" "$W"
claude_ev PreToolUse toolu_H "touch planted-w" "$W"
as_u XDG_CACHE_HOME="$W/.cache" "$HOOK" --harness claude <"$T/in"
t_check "cache in the workspace: PreToolUse denies" "exit $URC: $(cat "$T/o") $(head -c 300 "$T/e")" \
	test "$URC" = 0 -a "$(jf "$T/o" hookSpecificOutput.permissionDecision)" = deny
t_check "cache in the workspace: ... saying the workspace holds the spool" "$(cat "$T/o")" \
	grep -q "holds the way to sbx-hook's spool" "$T/o"
(cd "$W" && timeout 30 setpriv --reuid="$UID_U" --regid="$UID_U" --clear-groups env -i PATH=/usr/bin:/bin \
	HOME="$UH" XDG_CACHE_HOME="$W/.cache" SBX_RUN="$RUN" "$PREFIX" "eval 'touch planted-w' < /dev/null && pwd -P >| $CWDF" >"$T/o" 2>"$T/e")
URC=$?
t_check "cache in the workspace: the prefix refuses (125), nothing ran" "exit $URC: $(head -c 300 "$T/e")" \
	test "$URC" = 125 -a ! -e "$W/planted-w"
t_check "cache in the workspace: ... and says why" "$(head -c 300 "$T/e")" grep -q "holds the way to sbx-hook's spool" "$T/e"
codex_in=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"cx","cwd":sys.argv[1],"hook_event_name":"PreToolUse",
  "tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_H"}))' "$W")
as_u XDG_CACHE_HOME="$W/.cache" "$HOOK" --harness codex <<<"$codex_in"
t_check "cache in the workspace: a Codex rewrite is refused too (exit 2)" "exit $URC: $(cat "$T/o")" test "$URC" = 2 -a ! -s "$T/o"
# From the project, a jailed command cannot reach the spool to plant an entry.
claude_ev PreToolUse toolu_P 'echo p >$HOME/.cache/sbx-hook/p-0000000000000000-toolu_Z; echo $? >plant-rc'
as_u "$HOOK" --harness claude <"$T/in"
as_u "$PREFIX" "eval 'echo p >$UH/.cache/sbx-hook/p-0000000000000000-toolu_Z; echo \$? >plant-rc' < /dev/null && pwd -P >| $CWDF"
t_check "from the project: the jail cannot write the spool (host)" "$(ls -A "$UH/.cache/sbx-hook")" \
	test ! -e "$UH/.cache/sbx-hook/p-0000000000000000-toolu_Z" -a "$(cat "$P/plant-rc" 2>/dev/null)" = 1
exit 0
