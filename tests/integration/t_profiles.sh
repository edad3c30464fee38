#!/bin/bash
# Profiles: the shipped ones each run a real workload; the command line only narrows
# a profile (refusals say why and run nothing); profiles by path and by extends;
# --list-profiles, --dry-run; --check verdicts; a denied command never starts.
. "$(dirname "$0")/../lib.sh"
t_init

# run_in PROFILE SHELL-COMMAND: sh -c in the jail, workspace $WS.
run_in() {
	local profile=$1
	shift
	sbx --profile "$profile" --workspace "$WS" "$@"
}

# ---- an unknown profile: one line, no file position it does not have, one hint
sbx --profile no-such-profile --workspace "$WS" -- true
expect_rc "an unknown profile: exit 125" 125
t_check "... one line naming it, without a made-up 'name:1:1:'" "$(run_info)" \
	test "$(wc -l <"$ERR")" = 1 -a "$(grep -c "no profile named 'no-such-profile'" "$ERR")" = 1 -a "$(grep -c ':1:1:' "$ERR")" = 0
t_check "... pointing at --list-profiles once" "$(run_info)" test "$(grep -o 'list-profiles' "$ERR" | wc -l)" = 1

# ---- listing and dry runs
sbx --list-profiles
list_rc=$RC
cp "$OUT" "$T/list"
for p in workspace readonly network network-host build strict git debug; do
	if [[ $list_rc == 0 ]] && grep -q "^$p " "$T/list"; then
		t_ok "--list-profiles lists $p"
	else
		t_fail "--list-profiles lists $p" "rc=$list_rc; stdout: $(head -c 300 "$T/list" | tr '\n' '|')"
	fi
	sbx --profile "$p" --workspace "$WS" --dry-run -- true
	if [[ $RC == 0 ]] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["profile"] != sys.argv[2])' "$OUT" "$p"; then
		t_ok "--dry-run prints the resolved $p profile as JSON"
	else
		t_fail "--dry-run prints the resolved $p profile as JSON" "$(run_info)"
	fi
done

# ---- the command line narrows, never widens
sbx --workspace "$WS" --net host -- "$WS/probe" status
expect_rc "--net host refused under workspace (no network)" 125
if grep -q "does not allow --net host" "$ERR" && ! grep -q "result=" "$OUT"; then
	t_ok "--net host refusal says why and runs nothing"
else
	t_fail "--net host refusal says why and runs nothing" "$(run_info)"
fi
jail --profile network-host -- status
if ran_ok "network-host profile runs"; then
	if [[ $(kv ns.net) == "$(host_ns net)" ]]; then
		t_ok "network-host profile shares the host's network namespace"
	else
		t_fail "network-host profile shares the host's network namespace" "ns.net=$(kv ns.net) host=$(host_ns net)"
	fi
fi
sbx --profile strict --workspace "$WS" --pids 300 -- ls
expect_rc "--pids above the profile's limit refused" 125
grep -q "exceeds profile 'strict'" "$ERR" && t_ok "limit refusal names the profile" || t_fail "limit refusal names the profile" "$(run_info)"
sbx --profile strict --workspace "$WS" --pids 100 --dry-run -- ls
if [[ $RC == 0 ]] && grep -q '"pids":100' "$OUT"; then t_ok "--pids below the profile's limit narrows it"; else t_fail "--pids below the profile's limit narrows it" "$(run_info)"; fi
mkdir -p "$T/rwdata"
sbx --workspace "$WS" --rw /etc:/hostetc -- true
expect_rc "--rw outside the profile's bind roots refused" 125
grep -q "does not allow --rw '/etc'" "$ERR" && t_ok "bind refusal names the roots" || t_fail "bind refusal names the roots" "$(run_info)"
ln -sfn /etc "$T/rwdata/link-out"
sbx --workspace "$WS" --rw "$T/rwdata/link-out:/x" -- true
expect_rc "--rw through a symlink out of the roots refused" 125
sbx --workspace "$WS" --rw "/proc/self/root/etc:/x" -- true
expect_rc "--rw via /proc/self/root refused" 125
sbx --workspace "$WS" --rw "$T/rwdata:/rwdata" -- "$WS/probe" write /rwdata/f
expect_kv "--rw under an allowed root works" result ok

# ---- readonly: the workspace cannot be written
jail --profile readonly -- write "$WS/ro-attempt"
expect_kv_in "readonly: workspace write refused inside" result EROFS EACCES EPERM
host_check "readonly: nothing reached the host workspace" "$WS/ro-attempt exists" test ! -e "$WS/ro-attempt"
jail --profile readonly -- write /tmp/scratch
expect_kv "readonly: /tmp is writable" result ok
sbx --profile readonly --workspace "$WS" --rw "$T/rwdata:/rwdata" -- true
expect_rc "readonly: no read-write bind allowed" 125

# ---- build: a real compile and run
if command -v cc >/dev/null; then
	printf '#include <stdio.h>\nint main(void){puts("built-ok");return 0;}\n' >"$WS/hello.c"
	sbx --profile build --workspace "$WS" -- sh -c 'cc hello.c -o hello && ./hello'
	if [[ $RC == 0 ]] && grep -q built-ok "$OUT"; then t_ok "build: cc hello.c && ./a.out"; else t_fail "build: cc hello.c && ./a.out" "$(run_info)"; fi
else
	t_skip "build: cc hello.c && ./a.out" "no C compiler on this machine"
fi

# ---- strict: the allowlist, enforced by the kernel
sbx --profile strict --workspace "$WS" -- ls /
expect_rc "strict: ls runs" 0
sbx --profile strict --workspace "$WS" -- "$WS/probe" status
expect_rc "strict: a binary in the workspace is denied by the policy" 126
# The policy sees only the top-level command; a script that sh reads is the kernel's
# to stop.
cp /bin/true "$WS/true-copy"
printf './true-copy; echo rc=$?\n' >"$WS/run-copy.sh"
sbx --profile strict --workspace "$WS" -- sh run-copy.sh
if [[ $RC == 0 ]] && grep -q "rc=126" "$OUT"; then
	t_ok "strict: a copied binary cannot be executed (Landlock, noexec)"
else
	t_fail "strict: a copied binary cannot be executed (Landlock, noexec)" "$(run_info); out: $(head -c 200 "$OUT")"
fi
printf 'cp /bin/ls /tmp/ls2 && /tmp/ls2 / >/dev/null; echo rc=$?; /lib64/ld-linux-x86-64.so.2 /tmp/ls2 >/dev/null 2>&1; echo ldso=$?\n' >"$WS/run-tmp.sh"
sbx --profile strict --workspace "$WS" -- sh run-tmp.sh
if grep -q "rc=126" "$OUT" && ! grep -q "ldso=0" "$OUT"; then
	t_ok "strict: a copy in /tmp cannot run, not even through the loader"
else
	t_fail "strict: a copy in /tmp cannot run, not even through the loader" "$(run_info); out: $(head -c 200 "$OUT" | tr '\n' '|')"
fi
# (from a file: the command policy denies python3 -c, inline code it cannot read)
printf 'import os\nos.memfd_create("x")\n' >"$WS/memfd.py"
sbx --profile strict --workspace "$WS" -- sh -c 'python3 memfd.py 2>/dev/null; echo rc=$?'
grep -q "rc=1" "$OUT" && t_ok "strict: no memfd to execute from" || t_fail "strict: no memfd to execute from" "$(run_info); $(cat "$OUT")"

# tar runs its compressors, make runs cc: both must be on the list, the kernel's too.
mkdir -p "$WS/tarsrc" && echo tar-content >"$WS/tarsrc/f"
sbx --profile strict --workspace "$WS" -- sh -c 'tar cJf t.J tarsrc && tar cjf t.j tarsrc && tar czf t.z tarsrc &&
	mkdir -p xJ xj xz && tar xJf t.J -C xJ && tar xjf t.j -C xj && tar xzf t.z -C xz && cat xJ/tarsrc/f xj/tarsrc/f xz/tarsrc/f'
if [[ $RC == 0 ]] && [[ $(grep -c tar-content "$OUT") == 3 ]] && [[ -s $WS/t.J ]] && xz -t "$WS/t.J" 2>/dev/null; then
	t_ok "strict: tar cJf/cjf/czf round trips (xz, bzip2, gzip)"
else
	t_fail "strict: tar cJf/cjf/czf round trips (xz, bzip2, gzip)" "$(run_info); out: $(head -c 200 "$OUT" | tr '\n' '|')"
fi
if command -v cc >/dev/null; then
	printf 'int main(void) { return 0; }\n' >"$WS/one.c"
	rm -f "$WS/one.o" "$WS/one"
	sbx --profile strict --workspace "$WS" -- make one.o one
	if [[ $RC == 0 ]] && [[ -s $WS/one.o && -s $WS/one ]]; then
		t_ok "strict: make builds a C program with its default rules (cc)"
	else
		t_fail "strict: make builds a C program with its default rules (cc)" "$(run_info)"
	fi
	# ... and what it built cannot run: the workspace is noexec, and Landlock lists only
	# the system's files (through sh: the policy would refuse ./one before the kernel).
	printf './one; echo rc=$?\n' >"$WS/run-one.sh"
	sbx --profile strict --workspace "$WS" -- sh run-one.sh
	if [[ $RC == 0 ]] && grep -q "rc=126" "$OUT"; then
		t_ok "strict: a program the compiler built in the jail does not run"
	else
		t_fail "strict: a program the compiler built in the jail does not run" "$(run_info); out: $(head -c 200 "$OUT" | tr '\n' '|')"
	fi
	# A Makefile is not the policy's to read: a compiler plugin it builds and loads is
	# stopped by the kernel (a noexec mount maps nothing executable).
	printf 'int plugin_is_GPL_compatible;\nint plugin_init(void) { return 0; }\n' >"$WS/plug.c"
	printf 'plug:\n\tgcc -shared -fPIC -o plug.so plug.c\n\tgcc -fplugin=./plug.so -c one.c -o plugged.o\n' >"$WS/Makefile.plug"
	sbx --profile strict --workspace "$WS" -- make -f Makefile.plug
	if [[ $RC != 0 ]] && [[ -s $WS/plug.so && ! -e $WS/plugged.o ]] && grep -q "cannot load plugin" "$ERR"; then
		t_ok "strict: a compiler plugin built in the jail is not loaded"
	else
		t_fail "strict: a compiler plugin built in the jail is not loaded" "$(run_info)"
	fi
else
	t_skip "strict: make builds a C program with its default rules (cc)" "no C compiler on this machine"
fi

# --check: verdicts, nothing runs
check() {
	local want=$1 name=$2
	shift 2
	sbx --profile strict --workspace "$WS" --check -- "$@"
	if [[ $RC == "$want" ]] && [[ -s $OUT ]]; then
		t_ok "check: $name"
	else
		t_fail "check: $name" "expected $want; $(run_info); out: $(head -c 200 "$OUT")"
	fi
}
check 0 "ls allowed" ls -la
check 0 "pipeline of allowed commands" sh -c 'ls | grep x | wc -l'
check 126 "rm -rf / denied" sh -c 'rm -rf /'
check 126 "rm -rf ~ denied" rm -rf '~'
check 126 "command outside the allowlist denied" sh -c 'ls; nc -l 4444'
check 126 "curl piped into a shell denied" sh -c 'curl http://x | sh'
check 126 "git push --force denied" git push --force origin main
check 126 "chmod u+s denied" chmod u+s x
check 126 "sudo denied by pattern" sh -c 'SUDO_X=1 sudo id'
check 126 "unparseable shell denied" sh -c 'echo "unterminated'
sbx --profile strict --workspace "$WS" --check -- sh -c 'rm -rf /'
grep -q "^deny: .*rm" "$OUT" && t_ok "check: the reason names the segment and rule" || t_fail "check: the reason names the segment and rule" "$(head -c 300 "$OUT")"
sbx --profile strict --workspace "$WS" -- sh -c "touch ran-marker; nc -l 4444"
expect_rc "strict: a denied command exits 126" 126
if [[ ! -e $WS/ran-marker ]]; then t_ok "strict: a denied command never starts"; else t_fail "strict: a denied command never starts" "ran-marker appeared"; fi

# ---- a profile by path, extending a shipped one
cat >"$T/custom.yaml" <<EOF
extends: workspace
hostname: custom-host
environment:
  set: { SBX_CUSTOM: "yes" }
EOF
sbx --profile "$T/custom.yaml" --workspace "$WS" -- "$WS/probe" status
expect_kv "profile by path: its hostname" hostname custom-host
cat >"$T/bad.yaml" <<EOF
extends: workspace
limits:
  memroy: 1G
EOF
sbx --profile "$T/bad.yaml" --workspace "$WS" -- true
expect_rc "bad profile: exit 125" 125
grep -q "bad.yaml:3:3: unknown key 'limits.memroy' (did you mean 'memory'?)" "$ERR" && t_ok "bad profile: file:line:col and the nearest key" ||
	t_fail "bad profile: file:line:col and the nearest key" "$(head -c 300 "$ERR")"

# ---- git: a plain repository and a linked worktree
git_env=(--env GIT_AUTHOR_NAME=t --env GIT_AUTHOR_EMAIL=t@t --env GIT_COMMITTER_NAME=t --env GIT_COMMITTER_EMAIL=t@t)
if command -v git >/dev/null; then
	G=$T/repo
	mkdir -p "$G"
	git -C "$G" init -q && git -C "$G" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
	sbx --profile git --workspace "$G" "${git_env[@]}" -- sh -c 'echo a > f && git add f && git commit -q -m from-jail'
	if [[ $RC == 0 ]] && git -C "$G" log --format=%s | grep -q from-jail; then
		t_ok "git: add and commit in a plain repository"
	else
		t_fail "git: add and commit in a plain repository" "$(run_info)"
	fi
	# The jail's config is its own copy (git branch -m rewrites it), never carried
	# back: what counts is the host's file, unchanged.
	config_before=$(sha256sum <"$G/.git/config")
	sbx --profile git --workspace "$G" -- sh -c 'echo "#!/bin/sh" > .git/hooks/pre-commit; echo hook=$?; printf "[core]\\n\\tfsmonitor = touch /tmp/x\\n" >> .git/config; echo config=$?; mv .git .git2; echo mv=$?'
	if grep -q "hook=[1-9]" "$OUT" && [[ $(sha256sum <"$G/.git/config") == "$config_before" ]] && grep -q "mv=[1-9]" "$OUT" &&
		grep -q "the command changed '$G/.git/config' in the jail; it is not carried back" "$ERR" &&
		[[ ! -e $G/.git/hooks/pre-commit && -d $G/.git ]]; then
		t_ok "git: hooks and config cannot be planted, .git cannot be swapped"
	else
		t_fail "git: hooks and config cannot be planted, .git cannot be swapped" "$(run_info); out: $(tr '\n' '|' <"$OUT")"
	fi
	W=$T/wt
	git -C "$G" worktree add -q "$W" 2>/dev/null
	sbx --profile git --workspace "$W" "${git_env[@]}" -- sh -c 'echo b > g && git add g && git commit -q -m from-worktree'
	if [[ $RC == 0 ]] && git -C "$G" log --all --format=%s | grep -q from-worktree; then
		t_ok "git: add and commit in a linked worktree"
	else
		t_fail "git: add and commit in a linked worktree" "$(run_info)"
	fi
	config_before=$(sha256sum <"$G/.git/config")
	sbx --profile git --workspace "$W" -- sh -c "echo x > '$G/.git/hooks/post-commit'; echo hook=\$?; echo x >> '$G/.git/config'; echo config=\$?; echo x > '$G/.git/info/attributes'; echo info=\$?"
	if grep -q "hook=[1-9]" "$OUT" && [[ $(sha256sum <"$G/.git/config") == "$config_before" ]] && grep -q "info=[1-9]" "$OUT" && [[ ! -e $G/.git/hooks/post-commit ]]; then
		t_ok "git: a worktree cannot plant hooks, config or info in the common dir"
	else
		t_fail "git: a worktree cannot plant hooks, config or info in the common dir" "$(run_info); out: $(tr '\n' '|' <"$OUT")"
	fi
	# A .git file pointing somewhere else is refused, not bound.
	mkdir -p "$T/evil"
	echo "gitdir: /etc" >"$T/evil/.git"
	sbx --profile git --workspace "$T/evil" -- true
	expect_rc "git: a .git file naming a foreign directory is refused" 125
else
	t_skip "git profile" "git is not installed"
fi

# ---- what a profile may say, and what it may not reach
mkdir -p "$T/pws"
cp "$PROBE" "$T/pws/probe"
echo "masked" >"$T/pws/secret"
ln -sfn /etc "$T/pws/etc-link"
P=$T/pws/probe

# A bind written under {workspace} cannot follow a symlink out of it.
printf 'extends: workspace\nfilesystem:\n  ro: ["{workspace}/etc-link:/e"]\n' >"$T/within.yaml"
sbx --profile "$T/within.yaml" --workspace "$T/pws" -- "$P" status
expect_rc "profile bind through a symlink out of {workspace} refused" 125
grep -q "the symlink '$T/pws/etc-link' (to '/etc')" "$ERR" && t_ok "that refusal names the symlink and its target" || t_fail "that refusal names the symlink and its target" "$(run_info)"

# A profile's read-write bind may not replace a read-only workspace.
printf 'extends: readonly\nfilesystem:\n  rw: ["{workspace}"]\n' >"$T/ro-over.yaml"
sbx --profile "$T/ro-over.yaml" --workspace "$T/pws" -- "$P" write "$T/pws/over"
expect_rc "a read-write bind over the read-only workspace refused" 125
[[ ! -e $T/pws/over ]] && t_ok "nothing was written through it" || t_fail "nothing was written through it" "$T/pws/over exists"

# masks hide what is under them, the host copy untouched.
printf 'extends: workspace\nfilesystem:\n  masks: ["{workspace}/secret"]\n' >"$T/mask.yaml"
sbx --profile "$T/mask.yaml" --workspace "$T/pws" -- "$P" read "$T/pws/secret"
expect_kv_not "a masked file is unreadable" result ok
grep -q masked "$OUT" && t_fail "the masked content stays hidden" "$(head -c 200 "$OUT")" || t_ok "the masked content stays hidden"
[[ $(cat "$T/pws/secret") == masked ]] && t_ok "the host file under a mask is untouched" || t_fail "the host file under a mask is untouched" "changed"

# seccomp additions: EPERM by default, a kill when asked.
printf 'extends: workspace\nseccomp:\n  deny: [mkdir, mkdirat]\n' >"$T/sc.yaml"
sbx --profile "$T/sc.yaml" --workspace "$T/pws" -- sh -c 'mkdir /tmp/d; echo rc=$?'
grep -q "rc=1" "$OUT" && t_ok "seccomp.deny: the call fails" || t_fail "seccomp.deny: the call fails" "$(run_info); $(cat "$OUT")"
printf 'extends: workspace\nseccomp:\n  deny: [mkdir, mkdirat]\n  action: kill\n' >"$T/sck.yaml"
sbx --profile "$T/sck.yaml" --workspace "$T/pws" -- mkdir /tmp/d
expect_rc "seccomp.action kill: killed by SIGSYS (128+31)" 159

# capabilities: only the one kept, in every set the command has.
printf 'extends: workspace\ncapabilities: [CAP_NET_BIND_SERVICE]\n' >"$T/cap.yaml"
sbx --profile "$T/cap.yaml" --workspace "$T/pws" -- "$P" status
expect_kv "capabilities: only CAP_NET_BIND_SERVICE effective" CapEff 0000000000000400
expect_kv "capabilities: only CAP_NET_BIND_SERVICE bounding" CapBnd 0000000000000400
expect_kv "capabilities: still no_new_privs" NoNewPrivs 1
