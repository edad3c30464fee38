#!/bin/bash
# Under an execute allowlist (the strict profile) only the listed programs run: not a
# payload bound over a listed program, the loader, a library or the loader's config,
# and not a library loaded from any bind.  Checked from the host: the marker the
# payload would write does not appear.  Each payload is first shown to work without
# the allowlist (the control), so the test can fail.
. "$(dirname "$0")/../lib.sh"
t_init

command -v gcc >/dev/null || { t_skip "allowlist payloads" "gcc is not installed"; exit 0; }
MARK=$WS/pwned
cat >"$T/payload.c" <<EOF
#include <stdio.h>
int main(void) { FILE *f = fopen("$MARK", "w"); if (f) fputs("payload\n", f); return 0; }
EOF
cat >"$T/preload.c" <<EOF
#include <stdio.h>
__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("$MARK", "w"); if (f) fputs("library\n", f); }
EOF
if ! gcc -O1 -o "$WS/payload" "$T/payload.c" || ! gcc -O1 -shared -fPIC -o "$WS/libpwn.so" "$T/preload.c"; then
	t_fail "setup: payloads build" "gcc failed"
	exit 0
fi
echo "/opt/p/libpwn.so" >"$WS/ld.so.preload"

# control NAME ARGS...: without the allowlist, the payload runs (the marker appears).
control() {
	local name=$1
	shift
	rm -f "$MARK"
	sbx --workspace "$WS" "$@"
	if [[ -e $MARK ]]; then t_ok "$name: control, it runs without the allowlist"
	else t_fail "$name: control, it runs without the allowlist" "$(run_info)"; fi
}
# held NAME ARGS...: under strict the payload does not run; a refusal (125) or a
# failure of the command are both fine, a marker is not.
held() {
	local name=$1
	shift
	rm -f "$MARK"
	sbx --profile strict --workspace "$WS" "$@"
	if ((HUNG)); then t_fail "$name" "$(run_info)"
	elif [[ -e $MARK ]]; then t_fail "$name" "the payload ran: $(cat "$MARK")"
	else t_ok "$name"; fi
}
refused() {
	local name=$1
	shift
	held "$name" "$@"
	if [[ $RC == 125 ]] && [[ $(wc -l <"$ERR") == 1 ]] && grep -q "allowlist" "$ERR"; then t_ok "$name: refused with why"
	else t_fail "$name: refused with why" "$(run_info)"; fi
}

control "a payload bound over ls" --ro "$WS/payload:/usr/bin/ls" -- ls
refused "strict: a payload bound over ls" --ro "$WS/payload:/usr/bin/ls" -- ls
libc=$(ldd /bin/ls | awk '/libc\.so/ { print $3 }')
if [[ -n $libc ]]; then
	refused "strict: a library bound over libc" --ro "$WS/libpwn.so:$(realpath "$libc")" -- ls
fi
control "a preload list bound over /etc/ld.so.preload" --ro "$WS/libpwn.so:/opt/p/libpwn.so" --ro "$WS/ld.so.preload:/etc/ld.so.preload" -- ls
refused "strict: a preload list bound over /etc/ld.so.preload" --ro "$WS/libpwn.so:/opt/p/libpwn.so" --ro "$WS/ld.so.preload:/etc/ld.so.preload" -- ls
refused "strict: a tmpfs over /usr/local/bin" --tmpfs /usr/local/bin -- ls
refused "strict: a bind over /lib64" --ro "$WS:/lib64/x" -- ls
control "LD_PRELOAD of a library from a bind" --ro "$WS/libpwn.so:/opt/p/libpwn.so" --env LD_PRELOAD=/opt/p/libpwn.so -- ls
held "strict: LD_PRELOAD of a library from a read-only bind" --ro "$WS/libpwn.so:/opt/p/libpwn.so" --env LD_PRELOAD=/opt/p/libpwn.so -- ls
held "strict: LD_PRELOAD of a library from the workspace" --env LD_PRELOAD="$WS/libpwn.so" -- ls
held "strict: the loader run on a payload" -- /lib64/ld-linux-x86-64.so.2 "$WS/payload"
held "strict: a payload run by a listed shell" -- sh -c "$WS/payload"
# The allowlist still lets its own programs run.
sbx --profile strict --workspace "$WS" -- ls "$WS"
if [[ $RC == 0 ]] && grep -q payload "$OUT"; then t_ok "strict: ls runs"; else t_fail "strict: ls runs" "$(run_info)"; fi

# Code a git-profile jail left in the workspace's .git (whose objects/ it may write):
# the git directory's binds are never executable under the allowlist either.
if command -v git >/dev/null && command -v python3 >/dev/null; then
	git init -q "$WS" && mkdir -p "$WS/.git/objects/info" && cp "$WS/libpwn.so" "$WS/.git/objects/info/l.so"
	printf 'import ctypes, os\nctypes.CDLL(os.getcwd() + "/.git/objects/info/l.so")\n' >"$WS/dl.py"
	control "a library dlopen'ed from .git" -- python3 dl.py
	held "strict: a library dlopen'ed from .git" -- python3 dl.py
	rm -rf "$WS/.git" "$WS/dl.py"
fi
