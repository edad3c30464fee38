#!/bin/bash
# sbx-sh, the shell drop-in: make SHELL=sbx-sh runs every recipe jailed (a write
# outside the workspace refused, checked on the host); sshd's ForceCommand through
# SSH_ORIGINAL_COMMAND; the arguments after -c; exit codes and signals passed through
# exactly; an interactive shell refused; and when sbx-run is missing or crashes,
# sbx-sh fails and the command never runs, jailed or not.
. "$(dirname "$0")/../lib.sh"
t_init

SBX_SH_BIN=$(realpath -m "${SBX_SH:-$SBX_ROOT/build/sbx-sh}")
if [[ ! -x $SBX_SH_BIN ]]; then
	t_fail "setup" "sbx-sh not built: $SBX_SH_BIN"
	exit 0
fi
# sbx-sh finds sbx-run beside itself: a copy of it next to the launcher under test.
BIN=$T/bin
mkdir -p "$BIN"
cp "$SBX_SH_BIN" "$BIN/sbx-sh"
ln -s "$SBX_RUN" "$BIN/sbx-run"
SH=$BIN/sbx-sh
OUTSIDE=$T/outside # not in the workspace: a jail cannot write it
MARK=$WS/ran

# shrun ARGS...: sbx-sh ARGS in the workspace, like lib.sh's sbx.
shrun() {
	(cd "$WS" && timeout -k 5 "$SBX_HANG" "$SH" "$@" >"$OUT" 2>"$ERR" </dev/null)
	RC=$?
	HUNG=0
}

# ------------------------------------------------------------------ make SHELL=sbx-sh

if command -v make >/dev/null; then
	cat >"$WS/Makefile" <<EOF
all: inside outside
inside:
	echo built >$WS/inside.out; hostname >$WS/hostname.out
outside:
	echo escaped >$OUTSIDE
EOF
	(cd "$WS" && timeout 60 make -k SHELL="$SH" >"$OUT" 2>"$ERR" </dev/null)
	RC=$?
	[[ $(cat "$WS/inside.out" 2>/dev/null) == built ]] && t_ok "make SHELL=sbx-sh: a recipe writes in the workspace" ||
		t_fail "make SHELL=sbx-sh: a recipe writes in the workspace" "rc=$RC $(head -c 300 "$ERR")"
	[[ $(cat "$WS/hostname.out" 2>/dev/null) == sbx ]] && t_ok "make SHELL=sbx-sh: the recipe ran in the jail (hostname sbx)" ||
		t_fail "make SHELL=sbx-sh: in the jail" "hostname $(cat "$WS/hostname.out" 2>/dev/null)"
	[[ ! -e $OUTSIDE ]] && ((RC != 0)) && t_ok "make SHELL=sbx-sh: a write outside the workspace is refused, make fails" ||
		t_fail "make SHELL=sbx-sh: a write outside the workspace" "rc=$RC, $OUTSIDE $(ls "$OUTSIDE" 2>&1)"
else
	t_fail "make SHELL=sbx-sh" "make is not installed"
fi

# ------------------------------------------------------------------ sh's command line

shrun -c 'printf "%s|%s|%s\n" "$0" "$1" "$2"' zero 'one two' three
[[ $RC == 0 && $(cat "$OUT") == "zero|one two|three" ]] && t_ok "-c CMD NAME ARGS: \$0 and \$1... as sh gives them" ||
	t_fail "-c CMD NAME ARGS" "$(run_info); $(cat "$OUT")"
shrun -lc 'shopt -q login_shell && echo "login $BASH_VERSINFO"'
[[ $RC == 0 && $(cat "$OUT") == login\ [0-9]* ]] && t_ok "-lc: a bash login shell" || t_fail "-lc" "$(run_info); $(cat "$OUT")"
shrun -l -c 'shopt -q login_shell && echo login'
[[ $RC == 0 && $(cat "$OUT") == login ]] && t_ok "-l -c: a bash login shell" || t_fail "-l -c" "$(run_info)"
shrun -c -- 'echo after-dashdash'
[[ $RC == 0 && $(cat "$OUT") == after-dashdash ]] && t_ok "-c -- CMD" || t_fail "-c -- CMD" "$(run_info)"
shrun -c "echo x >$OUTSIDE"
((RC != 0)) && [[ ! -e $OUTSIDE ]] && t_ok "-c: a write outside the workspace is refused (host: no file)" ||
	t_fail "-c: a write outside the workspace" "$(run_info)"

# ------------------------------------------------------------------ exit status

shrun -c 'exit 7'
expect_rc "exit 7 is 7" 7
shrun -c 'exit 0'
expect_rc "exit 0 is 0" 0
shrun -c 'kill -TERM $$'
expect_rc "killed by SIGTERM: 143" 143
shrun -c 'kill -KILL $$'
expect_rc "killed by SIGKILL: 137" 137
shrun -c 'nonexistent-command-xyz'
expect_rc "command not found: 127" 127

# ------------------------------------------------------------------ ForceCommand

rm -f "$MARK"
(cd "$WS" && env -i PATH=/usr/bin:/bin SSH_ORIGINAL_COMMAND="hostname; echo ssh >$MARK; echo x >$OUTSIDE" \
	/bin/sh -c "$SH" >"$OUT" 2>"$ERR" </dev/null)
RC=$?
[[ $(head -n 1 "$OUT") == sbx && $(cat "$MARK" 2>/dev/null) == ssh ]] &&
	t_ok "ForceCommand: SSH_ORIGINAL_COMMAND runs jailed (sshd's 'SHELL -c sbx-sh')" || t_fail "ForceCommand" "rc=$RC $(cat "$OUT") $(head -c 200 "$ERR")"
[[ ! -e $OUTSIDE ]] && ((RC != 0)) && t_ok "ForceCommand: its write outside the workspace is refused" ||
	t_fail "ForceCommand: outside" "rc=$RC"
(cd "$WS" && env -i SSH_ORIGINAL_COMMAND='exit 3' "$SH" </dev/null >/dev/null 2>&1)
RC=$?
[[ $RC == 3 ]] && t_ok "ForceCommand: the forced command's exit status" || t_fail "ForceCommand: exit status" "rc=$RC"

# ------------------------------------------------------------------ interactive

if command -v script >/dev/null; then
	# script(1) gives it a terminal: an interactive shell is refused, not run unjailed.
	(cd "$WS" && timeout 10 script -qec "$SH" /dev/null </dev/null >"$OUT" 2>&1)
	grep -q "sbx-sh: no interactive shell" "$OUT" && t_ok "interactive (a terminal, no command): refused with a message" ||
		t_fail "interactive: refused" "$(head -c 300 "$OUT")"
else
	t_fail "interactive" "script(1) is not installed"
fi
echo 'hostname' >"$T/stdin-script"
(cd "$WS" && "$SH" <"$T/stdin-script" >"$OUT" 2>"$ERR")
[[ $? == 0 && $(cat "$OUT") == sbx ]] && t_ok "no terminal: commands from stdin run jailed" || t_fail "stdin script" "$(cat "$OUT" "$ERR")"

# ------------------------------------------------------------------ no sbx-run, a crashing sbx-run

# Hidden from both places sbx-sh looks: beside it, and the installed path.
NORUN=$T/norun
mkdir -p "$NORUN"
cp "$SBX_SH_BIN" "$NORUN/sbx-sh"
rm -f "$MARK"
unshare -m sh -c "mount -t tmpfs sbx-test /usr/local/bin && cd '$WS' && '$NORUN/sbx-sh' -c 'echo ran >$MARK'" >"$OUT" 2>"$ERR"
RC=$?
((RC == 127)) && [[ ! -e $MARK ]] && grep -q "sbx-sh: cannot run" "$ERR" && t_ok "no sbx-run: 127, said, the command did not run" ||
	t_fail "no sbx-run" "rc=$RC $(head -c 300 "$ERR") mark:$(ls "$MARK" 2>&1)"
CRASH=$T/crash
mkdir -p "$CRASH"
cp "$SBX_SH_BIN" "$CRASH/sbx-sh"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$CRASH/sbx-run"
chmod 0755 "$CRASH/sbx-run"
rm -f "$MARK"
(cd "$WS" && "$CRASH/sbx-sh" -c "echo ran >$MARK" >"$OUT" 2>"$ERR")
RC=$?
((RC != 0)) && [[ ! -e $MARK ]] && t_ok "a crashing sbx-run: non-zero ($RC), the command did not run" || t_fail "crashing sbx-run" "rc=$RC"
if command -v make >/dev/null; then
	rm -f "$MARK"
	printf 'all:\n\techo ran >%s\n' "$MARK" >"$WS/Makefile"
	(cd "$WS" && make SHELL="$CRASH/sbx-sh" >"$OUT" 2>"$ERR")
	RC=$?
	((RC != 0)) && [[ ! -e $MARK ]] && t_ok "make with a crashing sbx-run fails and runs nothing" || t_fail "make, crashing sbx-run" "rc=$RC"
fi
