#!/bin/bash
# Exit status contract: the command's own, 128+N on signal, 124 timeout,
# 125 sbx error (one stderr line "sbx-run: ..."), 126 not executable,
# 127 not found; --help and --version.
. "$(dirname "$0")/../lib.sh"
t_init

jail -- exit 0
expect_rc "exit 0 passes through" 0
jail -- exit 3
expect_rc "exit 3 passes through" 3
jail -- exit 255
expect_rc "exit 255 passes through" 255
jail -- raise 15
expect_rc "SIGTERM gives 143" 143
jail -- raise 9
expect_rc "SIGKILL gives 137" 137

# The system binds are usable: a dynamically linked /usr binary via PATH.
sbx --workspace "$WS" -- true
expect_rc "true from PATH runs" 0
sbx --workspace "$WS" -- sh -c 'exit 7'
expect_rc "sh -c 'exit 7' gives 7" 7

jail --timeout 0.5 -- sleep 30
expect_rc "timeout gives 124" 124
t_check "a timeout says so in one line on stderr" "$(run_info)" grep -q "^sbx-run: timed out after 0.500 s" "$ERR"
if [[ $RC == 124 ]] && ((!HUNG)); then
	t_check "timeout 0.5 s is prompt" "took ${WALL_MS} ms" test "$WALL_MS" -lt 5000
fi

# One line on stderr, prefixed, and nothing was run.
one_error_line() {
	local name=$1 n first
	n=$(wc -l <"$ERR")
	first=$(head -n 1 "$ERR")
	if [[ $n == 1 && $first == "sbx-run: "* ]]; then
		t_ok "$name: one 'sbx-run: ' line"
	else
		t_fail "$name: one 'sbx-run: ' line" "$n stderr lines: $(head -c 300 "$ERR" | tr '\n' '|')"
	fi
}

bad_option() {
	local name=$1
	shift
	rm -f "$WS/created"
	sbx --workspace "$WS" "$@" -- "$WS/probe" write "$WS/created"
	expect_rc "$name: exit 125" 125
	one_error_line "$name"
	if [[ -e $WS/created ]]; then
		t_fail "$name: runs nothing" "the command ran: $WS/created exists"
	else
		t_ok "$name: runs nothing"
	fi
}

bad_option "unknown option" --no-such-option
bad_option "--net bogus" --net bogus
bad_option "--timeout abc" --timeout abc
bad_option "--timeout -1" --timeout -1
bad_option "--memory banana" --memory banana
bad_option "--pids 0x" --pids 0x
bad_option "--tmpfs relative" --tmpfs relative/dir
bad_option "--ro missing path" --ro "$T/does-not-exist"

sbx --workspace "$T/does-not-exist" -- true
expect_rc "missing workspace: exit 125" 125
one_error_line "missing workspace"

sbx --workspace "$WS"
expect_rc "no command: exit 125" 125
one_error_line "no command"

# 126: exists but is not executable (a file without x, a directory).
printf '#!/bin/sh\nexit 0\n' >"$WS/noexec.sh"
chmod 0644 "$WS/noexec.sh"
sbx --workspace "$WS" -- "$WS/noexec.sh"
expect_rc "non-executable file: exit 126" 126
sbx --workspace "$WS" -- "$WS"
expect_rc "directory as command: exit 126" 126
if [[ $RC == 126 ]]; then
	t_check "126 says why on stderr" "stderr: $(head -c 300 "$ERR")" grep -q '^sbx-run: ' "$ERR"
fi

sbx --workspace "$WS" -- "$WS/no-such-binary"
expect_rc "missing path: exit 127" 127
if [[ $RC == 127 ]]; then
	t_check "127 says why on stderr" "stderr: $(head -c 300 "$ERR")" grep -q '^sbx-run: ' "$ERR"
fi
sbx --workspace "$WS" -- sbx-no-such-command-in-path
expect_rc "missing command in PATH: exit 127" 127

# Ignored signals are inherited, as across execve (nohup): what the caller ignores
# stays ignored in the command, nothing else is.  SIGUSR1, because the harness's
# timeout(1) resets SIGHUP.  The expected mask is what the same wrapper gives a
# command run without sbx.
sbx --workspace "$WS" -- sh -c 'kill -USR1 $$; echo ok'
expect_rc "SIGUSR1 not ignored by the caller: the command dies of it (138)" 138
trap '' USR1
sbx --workspace "$WS" -- sh -c 'kill -USR1 $$; echo ok'
expect_rc "SIGUSR1 ignored by the caller: the command ignores it too" 0
t_check "... and goes on" "$(run_info)" grep -qx ok "$OUT"
want=$(timeout -k 5 "$SBX_HANG" sh -c 'grep SigIgn /proc/self/status')
sbx --workspace "$WS" -- sh -c 'grep SigIgn /proc/self/status'
t_check "the command ignores exactly what the caller does ($want)" "$(run_info)" test "$(cat "$OUT")" = "$want"
trap - USR1

sbx --help
expect_rc "--help exits 0" 0
t_check "--help prints usage on stdout" "stdout empty" test -s "$OUT"
sbx --version
expect_rc "--version exits 0" 0
t_check "--version prints on stdout" "stdout empty" test -s "$OUT"
exit 0
