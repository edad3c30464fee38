#!/bin/bash
# Escapes found in review, each checked from the host side: the caller's stdio
# reopened through /proc/self/fd (a read-only file for writing, a directory as a
# door to the host's tree, an append-only log truncated), binds that would carry
# kernel interfaces or the host's sockets in, and root-only /proc files.
. "$(dirname "$0")/../lib.sh"
t_init

mkdir "$T/outside"
# run_stdio NAME STDIN-REDIRECT SCRIPT: sbx-run with a chosen stdin; the script
# first leaves a marker in the workspace, so "nothing happened on the host" can
# only pass when the command really ran.
run_stdio() {
	rm -f "$WS/ran"
	timeout -k 5 "$SBX_HANG" "$SBX_RUN" --workspace "$WS" -- /bin/sh -c "echo ran > '$WS/ran'; $2" \
		>"$OUT" 2>"$ERR"
	RC=$?
}
ran() { [[ -s $WS/ran ]]; }

# ---- a read-only stdin file cannot be reopened for writing
echo original >"$T/outside/data.txt"
run_stdio x 'echo HACKED > /proc/self/fd/0' <"$T/outside/data.txt"
if ! ran; then t_fail "stdin file not writable through /proc/self/fd/0" "command did not run: $(run_info)"
elif [[ $(cat "$T/outside/data.txt") == original ]]; then t_ok "stdin file not writable through /proc/self/fd/0"
else t_fail "stdin file not writable through /proc/self/fd/0" "host file now: $(head -c 80 "$T/outside/data.txt")"; fi

# ---- a directory as stdin opens nothing beneath it
echo original >"$T/outside/victim"
run_stdio x "cat /proc/self/fd/0/etc/shadow > '$WS/shadow-copy' 2>/dev/null; echo PWNED > /proc/self/fd/0$T/outside/victim" </
if ! ran; then t_fail "directory stdin is no door to the host" "command did not run: $(run_info)"
elif [[ -s $WS/shadow-copy ]]; then t_fail "directory stdin is no door to the host" "/etc/shadow was read through /proc/self/fd/0"
elif [[ $(cat "$T/outside/victim") != original ]]; then t_fail "directory stdin is no door to the host" "host file outside the workspace was overwritten"
else t_ok "directory stdin is no door to the host"; fi

# ---- reopening stdout/stderr as they were opened still works (scripts do it)
out="$T/outside/out.txt"
rm -f "$WS/ran"
timeout -k 5 "$SBX_HANG" "$SBX_RUN" --workspace "$WS" -- /bin/sh -c "echo ran > '$WS/ran'; echo via-dev-stdout > /dev/stdout" \
	>"$out" 2>"$ERR" </dev/null
RC=$?
if [[ $RC == 0 ]] && grep -qx via-dev-stdout "$out"; then t_ok "/dev/stdout reopens the caller's stdout file"
else t_fail "/dev/stdout reopens the caller's stdout file" "rc=$RC out=$(head -c 80 "$out") err=$(head -c 200 "$ERR")"; fi

# ---- an append-only log cannot be truncated through /dev/stdout
log="$T/outside/log.txt"
echo "earlier entry" >"$log"
timeout -k 5 "$SBX_HANG" "$SBX_RUN" --workspace "$WS" -- /bin/sh -c "true > /dev/stdout; echo appended" \
	>>"$log" 2>"$ERR" </dev/null
if grep -qx "earlier entry" "$log" && grep -qx appended "$log"; then t_ok "append-only stdout is not truncated"
else t_fail "append-only stdout is not truncated" "log now: $(head -c 120 "$log" | tr '\n' '|')"; fi

# ---- binds that would carry kernel interfaces or host sockets are refused
mkdir -p "$T/ws2"
for args in "--rw /:/host" "--ro /:/host" "--ro /sys/fs:/x" "--ro /proc:/p" "--ro /dev:/d" "--ro /run:/r" \
	"--rw /proc/self/root:/host" "--workspace /var" "--workspace /run" "--workspace /"; do
	# shellcheck disable=SC2086
	sbx --workspace "$T/ws2" $args -- /bin/true
	if [[ $RC == 125 ]] && [[ $(wc -l <"$ERR") == 1 ]] && grep -q '^sbx-run: validate: ' "$ERR"; then
		t_ok "refused: $args"
	else
		t_fail "refused: $args" "$(run_info)"
	fi
done

# ---- a kernel file system mounted anywhere below a bind source is refused
mkdir -p "$T/withproc/proc"
if mount -t proc proc "$T/withproc/proc" 2>/dev/null; then
	t_defer "umount '$T/withproc/proc'"
	sbx --workspace "$T/ws2" --ro "$T/withproc:/x" -- /bin/true
	if [[ $RC == 125 ]] && grep -q "proc mount" "$ERR"; then t_ok "bind holding a proc mount refused"
	else t_fail "bind holding a proc mount refused" "$(run_info)"; fi
	umount "$T/withproc/proc"
else
	t_skip "bind holding a proc mount refused" "cannot mount proc here"
fi

# ---- root-only /proc files stay unreadable to a uid 0 without capabilities
for f in /proc/kpageflags /proc/kpagecount /proc/slabinfo /proc/vmallocinfo /proc/pagetypeinfo /proc/timer_list /proc/keys; do
	[[ -e $f ]] || continue
	jail -- read "$f"
	if probe_ran; then
		got=$(kv bytes 2>/dev/null || echo 0)
		if [[ $(kv result) == ok ]] && [[ ${got:-0} != 0 ]]; then t_fail "$f unreadable inside" "read $got bytes"
		else t_ok "$f unreadable inside"; fi
	else
		t_fail "$f unreadable inside" "probe did not run: $(run_info)"
	fi
done

# ---- stdio on an internal file system (a memfd, as harnesses use to capture output)
if out=$("$PYTHON" - "$SBX_RUN" "$WS" <<'PY'
import os, subprocess, sys
fd = os.memfd_create("sbx-test-out")
rc = subprocess.run([sys.argv[1], "--workspace", sys.argv[2], "--", "/bin/echo", "captured"], stdout=fd, stderr=fd).returncode
os.lseek(fd, 0, 0)
print(rc, os.read(fd, 4096).decode(errors="replace").strip().replace("\n", "|"))
PY
); then
	if [[ $out == "0 captured" ]]; then t_ok "stdout on a memfd works"; else t_fail "stdout on a memfd works" "got: $out"; fi
else
	t_fail "stdout on a memfd works" "python helper failed"
fi
