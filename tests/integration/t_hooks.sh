#!/bin/bash
# Harness integration (sbx-hook(1)), each driven as its harness does: the documented
# stdin JSON in, the stdout JSON checked field by field, the rewritten command run by a
# shell as the harness would and its effects checked from the host; Claude Code's
# composite run through the shell prefix (snapshot read, cwd file written back, a write
# outside the workspace and the network refused); a crashing or hanging sbx, bad or
# oversize input, all blocking (exit 2) rather than running anything unjailed; the
# settings install merging and idempotent; and the attribution tags in --json and the
# journal, direct and through sandboxd.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../journal.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

HOOK=$(dirname "$SBX_RUN")/sbx-hook
PREFIX=$(dirname "$SBX_RUN")/sbx-shell-prefix
if [[ ! -x $HOOK || ! -L $PREFIX ]]; then
	t_fail "setup" "sbx-hook not built: $HOOK (make all)"
	exit 0
fi
export SBX_RUN
unset SBX_PROFILE CLAUDE_CODE_SHELL_PREFIX CLAUDE_CONFIG_DIR CLAUDE_CODE_TMPDIR
H=$T/hook
mkdir -p "$H"
# The hooks' spool (attribution, below): the test's own.
XDG=$T/xdg
mkdir -m 0700 "$XDG"
export XDG_RUNTIME_DIR=$XDG

# hook ARGS... < INPUT: sbx-hook's stdout in $H/out, stderr in $H/err, status in HRC.
hook() {
	timeout -k 2 20 "$HOOK" "$@" >"$H/out" 2>"$H/err"
	HRC=$?
}

# jf FILE PATH: the JSON value at PATH (keys joined by '.') of FILE; "<absent>" when
# there is none; strings bare, everything else as JSON.
jf() {
	"$PYTHON" -c '
import json, sys
try:
    v = json.load(open(sys.argv[1]))
except ValueError:
    print("<not json>"); sys.exit(0)
for k in sys.argv[2].split(".") if sys.argv[2] else []:
    if isinstance(v, list) and k.isdigit() and int(k) < len(v):
        v = v[int(k)]
    elif isinstance(v, dict) and k in v:
        v = v[k]
    else:
        print("<absent>"); sys.exit(0)
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

# expect_jf NAME FILE PATH WANT
expect_jf() {
	local got
	got=$(jf "$2" "$3")
	if [[ $got == "$4" ]]; then t_ok "$1"; else t_fail "$1" "$3 is '$got', expected '$4' (stderr: $(head -c 300 "$H/err"))"; fi
}

# The jailed form the hooks must write, for a command CMD with bash FLAG.
jailed() {
	local q=${4//\'/\'\\\'\'}
	printf "'%s' --profile '%s' --workspace '%s' --workspace-contains-cwd%s -- /bin/bash %s '%s'" "$SBX_RUN" "$1" "$WS" "$2" "$3" "$q"
}

# A crashing and a hanging "sbx-run", and a marker that says a command ran at all.
printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/crash-sbx"
printf '#!/bin/sh\nexec sleep 60\n' >"$T/hang-sbx"
chmod 0755 "$T/crash-sbx" "$T/hang-sbx"
MARK=$T/ran-unjailed
OUTSIDE=$SBX_TMPDIR/sbx-hooks-outside.$SBX_RUN_ID.$$
t_defer "rm -f '$OUTSIDE'"

# ------------------------------------------------------------------ Claude Code PreToolUse

claude_in() {
	"$PYTHON" -c '
import json, sys
print(json.dumps({"session_id": "sess-1", "transcript_path": "/x/t.jsonl", "cwd": sys.argv[1],
  "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
  "tool_use_id": "toolu_01AbC", "tool_input": {"command": sys.argv[2], "description": "d",
  "timeout": 120000, "run_in_background": False, "dangerouslyDisableSandbox": False}}))' "$WS" "$1"
}

claude_in 'ls -la' >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
expect_jf "claude: allowed: hookEventName" "$H/out" hookSpecificOutput.hookEventName PreToolUse
expect_jf "claude: allowed: permissionDecision allow (the prefix jails it)" "$H/out" hookSpecificOutput.permissionDecision allow
expect_jf "claude: allowed: no updatedInput without --rewrite" "$H/out" hookSpecificOutput.updatedInput "<absent>"

claude_in 'rm -rf /' >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude --profile strict <"$H/in"
expect_jf "claude: denied: permissionDecision deny" "$H/out" hookSpecificOutput.permissionDecision deny
reason=$(jf "$H/out" hookSpecificOutput.permissionDecisionReason)
t_check "claude: denied: the rule is the reason" "reason: $reason" \
	grep -q "rm.protected" <<<"$reason"
t_check "claude: denied: exit 0 (the JSON decides)" "exit $HRC" test "$HRC" = 0

# A validator's "warn": the call runs (jailed) and Claude asks the user, with the
# validator's reason; Codex allows (its "ask" cannot carry the rewrite) and says why.
printf '#!/bin/sh\ncat >/dev/null\necho %s\n' "'{\"verdict\":\"warn\",\"reason\":\"it talks to the network\"}'" >"$H/warn.sh"
chmod 0755 "$H/warn.sh"
printf 'extends: workspace\nvalidator:\n  command: [%s]\n' "$H/warn.sh" >"$H/warn.yaml"
claude_in 'curl example.com' >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude --profile "$H/warn.yaml" <"$H/in"
expect_jf "claude: a validator's warn is ask" "$H/out" hookSpecificOutput.permissionDecision ask
t_check "claude: ... with the validator's reason" "$(cat "$H/out") $(head -c 300 "$H/err")" \
	grep -q "warning: validator '$H/warn.sh' warns: it talks to the network" "$H/out"
codex_warn_in=$("$PYTHON" -c 'import json,sys; print(json.dumps({"session_id":"cx-9","cwd":sys.argv[1],"hook_event_name":"PreToolUse",
  "tool_name":"Bash","tool_input":{"command":"curl example.com"},"tool_use_id":"call_7"}))' "$WS")
hook --harness codex --profile "$H/warn.yaml" <<<"$codex_warn_in"
expect_jf "codex: a validator's warn is allow (jailed)" "$H/out" hookSpecificOutput.permissionDecision allow
t_check "codex: ... with the warning as additionalContext" "$(cat "$H/out")" \
	grep -q "it talks to the network" <<<"$(jf "$H/out" hookSpecificOutput.additionalContext)"

claude_in 'ls' >"$H/in"
hook --harness claude <"$H/in"
expect_jf "claude: without sbx's shell prefix an allowed call is denied, not run unjailed" "$H/out" \
	hookSpecificOutput.permissionDecision deny
t_check "claude: ... and says why" "$(cat "$H/out")" grep -q CLAUDE_CODE_SHELL_PREFIX "$H/out"

claude_in "hostname; echo \"it's\" > $OUTSIDE; echo out=\$? >ran" >"$H/in"
hook --harness claude --rewrite <"$H/in"
expect_jf "claude --rewrite: allow" "$H/out" hookSpecificOutput.permissionDecision allow
want=$(jailed workspace " --tool-use-id 'toolu_01AbC' --session-id 'sess-1'" -c "hostname; echo \"it's\" > $OUTSIDE; echo out=\$? >ran")
expect_jf "claude --rewrite: updatedInput.command is the jailed form" "$H/out" hookSpecificOutput.updatedInput.command "$want"
expect_jf "claude --rewrite: description echoed" "$H/out" hookSpecificOutput.updatedInput.description d
expect_jf "claude --rewrite: timeout echoed" "$H/out" hookSpecificOutput.updatedInput.timeout 120000
expect_jf "claude --rewrite: run_in_background echoed" "$H/out" hookSpecificOutput.updatedInput.run_in_background false
# Claude runs updatedInput.command with its shell, in the cwd.
(cd "$WS" && timeout 30 bash -c "$(jf "$H/out" hookSpecificOutput.updatedInput.command)" >"$H/run" 2>&1)
t_check "claude --rewrite: the command ran in the jail" "$(head -c 300 "$H/run")" grep -qx sbx "$H/run"
t_check "claude --rewrite: a write outside the workspace is refused (host)" "$OUTSIDE exists" test ! -e "$OUTSIDE"
t_check "claude --rewrite: ... and the command went on" "$(cat "$WS/ran" 2>&1)" grep -q "out=1" "$WS/ran"

# ------------------------------------------------------------------ Codex PreToolUse

codex_in() {
	"$PYTHON" -c '
import json, sys
print(json.dumps({"session_id": "cx-9", "transcript_path": None, "cwd": sys.argv[1],
  "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}, "tool_use_id": "call_7"}))' "$WS" "$1"
}

codex_in "hostname; touch $OUTSIDE" >"$H/in"
hook --harness codex <"$H/in"
expect_jf "codex: allow" "$H/out" hookSpecificOutput.permissionDecision allow
expect_jf "codex: hookEventName" "$H/out" hookSpecificOutput.hookEventName PreToolUse
want=$(jailed workspace " --tool-use-id 'call_7' --session-id 'cx-9'" -lc "hostname; touch $OUTSIDE")
expect_jf "codex: updatedInput.command runs sbx-run ... /bin/bash -lc CMD" "$H/out" hookSpecificOutput.updatedInput.command "$want"
expect_jf "codex: updatedInput holds only command" "$H/out" hookSpecificOutput.updatedInput "{\"command\": $("$PYTHON" -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$want")}"
(cd "$WS" && timeout 30 bash -lc "$(jf "$H/out" hookSpecificOutput.updatedInput.command)" >"$H/run" 2>&1)
t_check "codex: the rewritten command runs jailed" "$(head -c 300 "$H/run")" grep -qx sbx "$H/run"
t_check "codex: a write outside the workspace is refused (host)" "$OUTSIDE exists" test ! -e "$OUTSIDE"

# The workspace is the session's cwd, not wherever the harness runs the command: Codex
# runs it in the model's `workdir`, which a prompt-injected model can point at any
# directory the caller may write (~/bin, ~/.config).  The rewrite pins it; run from a
# sibling directory outside, it refuses and writes nothing there.
OTHER=$T/other
mkdir -p "$OTHER" "$WS/sub"
codex_in 'pwd -P; echo planted >planted' >"$H/in"
hook --harness codex <"$H/in"
cmd=$(jf "$H/out" hookSpecificOutput.updatedInput.command)
(cd "$OTHER" && timeout 30 bash -lc "$cmd" >"$H/run" 2>&1)
rc=$?
t_check "codex: run from a workdir outside the session's cwd: exit 125" "exit $rc: $(head -c 300 "$H/run")" test "$rc" = 125
t_check "codex: ... nothing written there (host)" "$OTHER/planted exists" test ! -e "$OTHER/planted"
t_check "codex: ... the refusal says why" "$(head -c 300 "$H/run")" grep -q "not inside the workspace" "$H/run"
(cd "$OTHER" && eval "$cmd" >"$H/run" 2>&1)
rc=$?
t_check "codex: ... the same through eval: exit 125, nothing written" "exit $rc" test "$rc" = 125 -a ! -e "$OTHER/planted"
ln -s "$OTHER" "$WS/escape"
(cd "$WS/escape" && eval "$cmd" >"$H/run" 2>&1)
rc=$?
t_check "codex: run from a symlink in the workspace to a directory outside: exit 125, nothing written" \
	"exit $rc: $(head -c 300 "$H/run")" test "$rc" = 125 -a ! -e "$OTHER/planted"
rm -f "$WS/escape"
(cd "$WS/sub" && eval "$cmd" >"$H/run" 2>&1)
rc=$?
t_check "codex: run from \$WS/sub: it starts there" "exit $rc: $(head -c 300 "$H/run")" grep -qx "$WS/sub" "$H/run"
t_check "codex: ... and writes there (host)" "$(ls "$WS/sub")" grep -qx planted "$WS/sub/planted"
t_check "codex: ... not at the workspace's top" "$WS/planted exists" test ! -e "$WS/planted"

codex_in 'rm -rf /' >"$H/in"
hook --harness codex --profile strict <"$H/in"
t_check "codex: denied: exit 2" "exit $HRC" test "$HRC" = 2
t_check "codex: denied: the rule on stderr" "$(cat "$H/err")" grep -q "rm.protected" "$H/err"
t_check "codex: denied: nothing on stdout (never an allow)" "$(cat "$H/out")" test ! -s "$H/out"

# A crashing or hanging sbx-run: the command the harness runs never runs unjailed.
codex_in "touch $MARK" >"$H/in"
for bad in crash hang; do
	SBX_RUN=$T/$bad-sbx hook --harness codex <"$H/in"
	cmd=$(jf "$H/out" hookSpecificOutput.updatedInput.command)
	(cd "$WS" && timeout 5 bash -lc "$cmd" >/dev/null 2>&1) 2>/dev/null
	rc=$?
	t_check "codex: a $bad sbx-run: the call fails (exit $rc) and nothing ran" "marker made, or exit 0" \
		test ! -e "$MARK" -a "$rc" != 0
done

# ------------------------------------------------------------------ Gemini CLI BeforeTool

gemini_in() {
	"$PYTHON" -c '
import json, sys
print(json.dumps({"session_id": "gm-2", "transcript_path": "/t", "cwd": sys.argv[1],
  "hook_event_name": "BeforeTool", "timestamp": "2026-11-01T00:00:00Z",
  "tool_name": "run_shell_command", "tool_input": {"command": sys.argv[2], "description": "x"}}))' "$WS" "$1"
}
gemini_in 'hostname' >"$H/in"
hook --harness gemini <"$H/in"
want=$(jailed workspace " --session-id 'gm-2'" -c hostname)
expect_jf "gemini: hookSpecificOutput.tool_input.command is the jailed form" "$H/out" hookSpecificOutput.tool_input.command "$want"
expect_jf "gemini: no decision on an allow" "$H/out" decision "<absent>"
(cd "$WS" && timeout 30 bash -c "$(jf "$H/out" hookSpecificOutput.tool_input.command)" >"$H/run" 2>&1)
t_check "gemini: the rewritten command runs jailed" "$(head -c 300 "$H/run")" grep -qx sbx "$H/run"
gemini_in 'rm -rf /' >"$H/in"
hook --harness gemini --profile strict <"$H/in"
expect_jf "gemini: denied: decision deny" "$H/out" decision deny
t_check "gemini: denied: the rule is the reason" "$(cat "$H/out")" grep -q "rm.protected" "$H/out"
expect_jf "gemini: denied: no rewrite" "$H/out" hookSpecificOutput "<absent>"
# A crashing or hanging sbx-run behind Gemini's rewrite: Gemini runs the merged
# tool_input.command with bash -c; the call fails and nothing ran, jailed or not.
gemini_in "touch $MARK" >"$H/in"
for bad in crash hang; do
	SBX_RUN=$T/$bad-sbx hook --harness gemini <"$H/in"
	cmd=$(jf "$H/out" hookSpecificOutput.tool_input.command)
	t_check "gemini: a $bad sbx-run: the rewrite names it" "$cmd" test "${cmd#\'$T/$bad-sbx\' }" != "$cmd"
	(cd "$WS" && timeout 5 bash -c "$cmd" >/dev/null 2>&1) 2>/dev/null
	rc=$?
	t_check "gemini: a $bad sbx-run: the call fails (exit $rc) and nothing ran" "marker made, or exit 0" \
		test ! -e "$MARK" -a "$rc" != 0
done

# sbx-hook itself dying mid-call (a crash, a kill): Codex and Gemini block only on
# exit 2, and take any other death as no opinion (the call runs as it was).  The hook's
# work runs in a child; the hook answers only for a child that exited cleanly: here
# the child is killed while it waits for its input, and the hook exits 2, stdout
# empty, the cause on stderr.
mkfifo "$H/fifo"
for harness in gemini codex claude; do
	for sig in SEGV KILL; do
		sleep 30 >"$H/fifo" &
		holder=$!
		"$HOOK" --harness "$harness" <"$H/fifo" >"$H/out" 2>"$H/err" &
		hp=$!
		child=""
		for _ in $(seq 50); do
			child=$(pgrep -P "$hp" | head -n 1)
			[[ -n $child ]] && break
			sleep 0.1
		done
		[[ -n $child ]] && kill -s "$sig" "$child"
		wait "$hp"
		rc=$?
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
		t_check "$harness: sbx-hook's work killed by SIG$sig: exit 2, nothing on stdout" \
			"child=$child rc=$rc out=$(head -c 200 "$H/out") err=$(head -c 200 "$H/err")" \
			bash -c '[[ -n $1 && $2 == 2 && ! -s $3 ]] && grep -q "the call is blocked" "$4"' sh "$child" "$rc" "$H/out" "$H/err"
	done
done

# ------------------------------------------------------------------ opencode plugin

PLUGIN=$SBX_ROOT/contrib/opencode/sbx.js
if ! command -v node >/dev/null; then
	t_skip "opencode plugin" "node is not installed (apt-get install nodejs)"
else
	# The plugin as opencode calls it: tool.execute.before(input, output).
	cat >"$H/drive.mjs" <<'EOF'
const { default: plugin, Sbx } = await import(process.argv[2]);
const hooks = await Sbx();
const input = { tool: "bash", sessionID: "ses_5", callID: "call_3" };
const output = { args: { command: process.argv[3], description: "d" } };
try {
  await hooks["tool.execute.before"](input, output);
  console.log(JSON.stringify({ ok: true, id: plugin.id, command: output.args.command, description: output.args.description }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: e.message }));
}
EOF
	(cd "$WS" && SBX_HOOK=$HOOK timeout 20 node "$H/drive.mjs" "$PLUGIN" hostname >"$H/oc" 2>"$H/err")
	expect_jf "opencode: allowed: the call goes on" "$H/oc" ok true
	expect_jf "opencode: default export has its id" "$H/oc" id sbx
	expect_jf "opencode: args.command rewritten to the jailed form" "$H/oc" command \
		"$(jailed workspace " --tool-use-id 'call_3' --session-id 'ses_5'" -c hostname)"
	expect_jf "opencode: other args kept" "$H/oc" description d
	(cd "$WS" && SBX_HOOK=$HOOK SBX_PROFILE=strict timeout 20 node "$H/drive.mjs" "$PLUGIN" 'rm -rf /' >"$H/oc" 2>"$H/err")
	expect_jf "opencode: denied: the plugin throws" "$H/oc" ok false
	t_check "opencode: denied: with the rule" "$(cat "$H/oc")" grep -q "rm.protected" "$H/oc"
	(cd "$WS" && SBX_HOOK=$T/crash-sbx timeout 20 node "$H/drive.mjs" "$PLUGIN" "touch $MARK" >"$H/oc" 2>"$H/err")
	expect_jf "opencode: a crashing sbx-hook: the plugin throws" "$H/oc" ok false
	t_check "opencode: ... and nothing ran" "$MARK exists" test ! -e "$MARK"

	# The rewrite executed: the plugin's hook, then the command as opencode's bash
	# tool runs it (child_process.spawn(command, {shell, cwd}) in the project).
	cat >"$H/run.mjs" <<'EOF'
import { spawnSync } from "node:child_process";
const { Sbx } = await import(process.argv[2]);
const hooks = await Sbx({ directory: process.cwd(), worktree: process.cwd() });
const input = { tool: "bash", sessionID: "ses_R", callID: "call_R" };
const output = { args: { command: process.argv[3], description: "d" } };
try {
  await hooks["tool.execute.before"](input, output);
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: e.message }));
  process.exit(0);
}
const r = spawnSync(output.args.command, { shell: "/bin/bash", cwd: process.cwd(), encoding: "utf8",
                        timeout: Number(process.env.OC_TIMEOUT_MS || 30000) }); // opencode's own limit, shortened for a hang
console.log(JSON.stringify({ ok: true, status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }));
EOF
	oc_run() { # CMD [VAR=VALUE...]: the plugin and opencode's bash tool, in $WS
		local c=$1
		shift
		(cd "$WS" && env SBX_HOOK="$HOOK" "$@" timeout 40 node "$H/run.mjs" "$PLUGIN" "$c" >"$H/oc" 2>"$H/err")
	}
	rm -f "$WS/oc-ran"
	oc_run "hostname; grep -E '^(NoNewPrivs|Seccomp|CapEff):' /proc/self/status; echo x >$OUTSIDE; echo out=\$? >oc-ran"
	expect_jf "opencode run: the plugin let it through" "$H/oc" ok true
	expect_jf "opencode run: exit 0" "$H/oc" status 0
	jf "$H/oc" stdout >"$H/ocout"
	t_check "opencode run: the command ran in the jail (hostname sbx)" "$(head -c 300 "$H/ocout") $(jf "$H/oc" stderr | head -c 300)" \
		test "$(head -n 1 "$H/ocout")" = sbx
	t_check "opencode run: /proc/self/status shows the jail (NoNewPrivs 1, Seccomp 2, CapEff 0)" "$(cat "$H/ocout")" \
		test "$(grep -cxE 'NoNewPrivs:\s+1|Seccomp:\s+2|CapEff:\s+0+' "$H/ocout")" = 3
	t_check "opencode run: a write outside the workspace is refused (host)" "$OUTSIDE exists" test ! -e "$OUTSIDE"
	t_check "opencode run: ... and the command went on in the workspace" "$(cat "$WS/oc-ran" 2>&1)" grep -qx "out=1" "$WS/oc-ran"
	oc_run "touch $MARK; rm -rf /" SBX_PROFILE=strict
	expect_jf "opencode run: denied: the plugin throws" "$H/oc" ok false
	t_check "opencode run: denied: the error carries the rule" "$(cat "$H/oc")" grep -q "rm.protected" <<<"$(jf "$H/oc" error)"
	t_check "opencode run: denied: nothing ran (host)" "$MARK exists" test ! -e "$MARK"
	for bad in crash hang; do
		oc_run "touch $MARK" SBX_RUN="$T/$bad-sbx" OC_TIMEOUT_MS=5000
		t_check "opencode run: a $bad sbx-run: the call fails and nothing ran" "$(cat "$H/oc")" \
			test ! -e "$MARK" -a "$(jf "$H/oc" status)" != 0
	done
	t0=$(_now_us)
	oc_run "touch $MARK" SBX_HOOK="$T/hang-sbx"
	ms=$((($(_now_us) - t0) / 1000))
	expect_jf "opencode run: a hanging sbx-hook: the plugin throws ($ms ms)" "$H/oc" ok false
	t_check "opencode run: ... and nothing ran" "$MARK exists" test ! -e "$MARK"
fi

# ------------------------------------------------------------------ failing closed

printf '{"tool_name":"Bash","tool_input":{"command":' >"$H/in"
hook --harness claude <"$H/in"
t_check "bad JSON: exit 2, nothing on stdout" "exit $HRC, stdout $(head -c 100 "$H/out")" test "$HRC" = 2 -a ! -s "$H/out"
t_check "bad JSON: the cause on stderr" "$(cat "$H/err")" grep -q "not JSON" "$H/err"
printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["ls"]}}' >"$H/in"
hook --harness codex <"$H/in"
t_check "a command that is not a string: exit 2" "exit $HRC" test "$HRC" = 2 -a ! -s "$H/out"
"$PYTHON" -c 'import json; print(json.dumps({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x" * (1 << 20)}}))' >"$H/in"
hook --harness codex <"$H/in"
t_check "input over 1 MiB: exit 2" "exit $HRC: $(head -c 200 "$H/err")" test "$HRC" = 2 -a ! -s "$H/out"
printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"a\\u0000b"}}' >"$H/in"
hook --harness codex <"$H/in"
t_check "a NUL inside the command: exit 2" "exit $HRC" test "$HRC" = 2 -a ! -s "$H/out"

# A harness that never closes stdin: the budget ends the hook.
codex_in ls >"$H/in"
t0=$(_now_us)
hook --harness codex < <(cat "$H/in"; sleep 12)
ms=$((($(_now_us) - t0) / 1000))
t_check "stdin never closed: exit 2 within the 5 s budget ($ms ms)" "exit $HRC after $ms ms: $(cat "$H/err")" \
	test "$HRC" = 2 -a "$ms" -lt 9000 -a ! -s "$H/out"
t_check "... with the cause" "$(cat "$H/err")" grep -q "within 5 s" "$H/err"

# A policy check that hangs, or crashes: strace holds up, or kills, the child the hook
# forks to decide, at its first system call of its own (chdir to the harness's cwd).
if command -v strace >/dev/null; then
	timeout -k 2 30 strace -f -qq -o /dev/null -e trace=chdir -e inject=chdir:delay_enter=8000000 \
		"$HOOK" --harness codex <"$H/in" >"$H/out" 2>"$H/err"
	HRC=$?
	t_check "a hanging policy check: exit 2, nothing on stdout" "exit $HRC: $(cat "$H/err")" test "$HRC" = 2 -a ! -s "$H/out"
	t_check "... ended by the 5 s budget" "$(cat "$H/err")" grep -q "within 5 s" "$H/err"
	timeout -k 2 30 strace -f -qq -o /dev/null -e trace=chdir -e inject=chdir:signal=SIGSEGV \
		"$HOOK" --harness codex <"$H/in" >"$H/out" 2>"$H/err"
	HRC=$?
	t_check "a crashing policy check: exit 2, nothing on stdout" "exit $HRC: $(cat "$H/err")" test "$HRC" = 2 -a ! -s "$H/out"
	t_check "... with the cause" "$(cat "$H/err")" grep -q "crashed (signal 11)" "$H/err"
	CLAUDE_CODE_SHELL_PREFIX=$PREFIX timeout -k 2 30 strace -f -qq -o /dev/null -e trace=chdir -e inject=chdir:signal=SIGSEGV \
		"$HOOK" --harness claude <"$H/in" >"$H/out" 2>"$H/err"
	HRC=$?
	t_check "a crashing policy check (claude): exit 2, no allow" "exit $HRC: $(cat "$H/out")" test "$HRC" = 2 -a ! -s "$H/out"
	# Gemini CLI: exit 2 blocks the call (its documented deny), and no
	# hookSpecificOutput.tool_input is written that could merge into the call.
	gemini_in ls >"$H/gin"
	timeout -k 2 30 strace -f -qq -o /dev/null -e trace=chdir -e inject=chdir:signal=SIGSEGV \
		"$HOOK" --harness gemini <"$H/gin" >"$H/out" 2>"$H/err"
	HRC=$?
	t_check "gemini: a crashing policy check: exit 2, nothing on stdout" "exit $HRC: $(cat "$H/out") $(head -c 200 "$H/err")" \
		test "$HRC" = 2 -a ! -s "$H/out"
	t_check "gemini: ... the cause on stderr (Gemini shows it)" "$(cat "$H/err")" grep -q "crashed (signal 11)" "$H/err"
	# Held 12 s, past Gemini's 10 s: the hook's own end is read from the trace
	# (strace itself waits out the delay it injects).
	timeout -k 2 30 strace -f -ttt -o "$H/trace" -e trace=execve,chdir -e inject=chdir:delay_enter=12000000 \
		"$HOOK" --harness gemini <"$H/gin" >"$H/out" 2>"$H/err"
	HRC=$?
	ms=$("$PYTHON" -c '
import sys
first = end = pid = None
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 3:
        continue
    if pid is None:
        pid, first = f[0], float(f[1])
    elif f[0] == pid and "+++ exited" in l:
        end = float(f[1])
print(int((end - first) * 1000) if end else 99999)' "$H/trace")
	t_check "gemini: a hanging policy check: exit 2 within Gemini's 10 s timeout ($ms ms), nothing on stdout" \
		"exit $HRC after $ms ms: $(cat "$H/err")" test "$HRC" = 2 -a "$ms" -lt 9000 -a ! -s "$H/out"
else
	t_fail "a hanging or crashing policy check" "strace is not installed (apt-get install strace)"
fi

# ------------------------------------------------------------------ Claude's shell prefix

CFG=$T/claudecfg
mkdir -p "$CFG/shell-snapshots"
SNAP=$CFG/shell-snapshots/snapshot-bash-1755042239230-87cw6n.sh
echo 'export SNAPVAR=from-the-snapshot' >"$SNAP"
hex=$(printf '%x' "$(( (SBX_RUN_ID * 65536 + $$) & 0xffffffff ))")
CWDF=/tmp/claude-$hex-cwd
t_defer "rm -f '$CWDF' /tmp/claude-${hex}0-cwd /tmp/claude-zz$hex-cwd"
rm -f "$CWDF"
"$PYTHON" - "$T/port" "$T/accepted" <<'EOF' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(30)
try:
    while True:
        c, _ = s.accept(); open(sys.argv[2], "a").write("connection\n"); c.close()
except Exception:
    pass
EOF
lp=$!
t_defer_kill "$lp"
wait_until 5 test -s "$T/port"
PORT=$(cat "$T/port")

cmd="echo \"\$SNAPVAR\" >snap-seen; mkdir -p sub; cd sub; echo x >$OUTSIDE; echo x >>$SNAP; (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null; echo net=\$? >../net"
q=${cmd//\'/\'\\\'\'}
composite="source $SNAP && eval '$q' < /dev/null && pwd -P >| $CWDF"
(cd "$WS" && CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" "$composite" >"$H/run" 2>&1)
PRC=$?
t_check "prefix: the composite ran (exit 0)" "exit $PRC: $(head -c 300 "$H/run")" test "$PRC" = 0
t_check "prefix: the snapshot was read" "$(cat "$WS/snap-seen" 2>&1)" grep -qx from-the-snapshot "$WS/snap-seen"
t_check "prefix: the cwd file on the host holds the jail's final cwd" "$(cat "$CWDF" 2>&1)" grep -qx "$WS/sub" "$CWDF"
t_check "prefix: the cwd file is the caller's, mode 0600" "$(stat -c '%u %a' "$CWDF")" test "$(stat -c '%u %a' "$CWDF")" = "0 600"
t_check "prefix: a write outside the workspace is refused (host)" "$OUTSIDE exists" test ! -e "$OUTSIDE"
t_check "prefix: the snapshot stays read-only (host)" "$(cat "$SNAP")" test "$(cat "$SNAP")" = 'export SNAPVAR=from-the-snapshot'
t_check "prefix: the network is refused (the jail says so)" "$(cat "$WS/net" 2>&1)" grep -q "net=1" "$WS/net"
t_check "prefix: the network is refused (the host listener got nothing)" "$(cat "$T/accepted" 2>&1)" test ! -e "$T/accepted"

# Another shape: no grant.  The tail names a file that is not claude-HEX-cwd.
rm -f "$WS/snap-seen"
(cd "$WS" && CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" "cat $SNAP >snap-seen; pwd -P >| /tmp/claude-zz$hex-cwd" >"$H/run" 2>&1)
t_check "prefix: another shape grants nothing: the snapshot is not there" "$(cat "$WS/snap-seen" 2>&1)" test ! -s "$WS/snap-seen"
t_check "prefix: another shape grants nothing: no file appears in the host's /tmp" "exists" test ! -e "/tmp/claude-zz$hex-cwd"
# A snapshot outside the snapshot directory is not granted.
echo 'export X=1' >"$T/elsewhere.sh"
(cd "$WS" && CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" "source $T/elsewhere.sh && eval 'echo ran >ran-elsewhere' < /dev/null && pwd -P >| $CWDF" >"$H/run" 2>&1)
t_check "prefix: a source outside shell-snapshots is not granted (the jail cannot read it)" "$(head -c 300 "$H/run")" \
	test ! -e "$WS/ran-elsewhere"
# A cwd file planted as a symlink (another user's trap in /tmp) is not followed.
echo victim >"$T/victim"
ln -sf "$T/victim" "/tmp/claude-${hex}0-cwd"
(cd "$WS" && CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" "source $SNAP && eval 'cd sub' < /dev/null && pwd -P >| /tmp/claude-${hex}0-cwd" >"$H/run" 2>&1)
t_check "prefix: a planted symlink as the cwd file is not written through" "$(cat "$T/victim")" test "$(cat "$T/victim")" = victim
t_check "prefix: ... and is named" "$(head -c 300 "$H/run")" grep -q "not granting" "$H/run"
# A crashing or hanging sbx-run: the composite does not run.
for bad in crash hang; do
	(cd "$WS" && SBX_RUN=$T/$bad-sbx CLAUDE_CONFIG_DIR=$CFG timeout 5 "$PREFIX" "source $SNAP && eval 'touch $MARK' < /dev/null && pwd -P >| $CWDF" >/dev/null 2>&1) 2>/dev/null
	rc=$?
	t_check "prefix: a $bad sbx-run: the call fails (exit $rc) and nothing ran" "marker made, or exit 0" \
		test ! -e "$MARK" -a "$rc" != 0
done
(cd "$WS" && SBX_RUN=$T/missing timeout 5 "$PREFIX" "touch $MARK" >"$H/run" 2>&1)
rc=$?
t_check "prefix: no sbx-run: exit 125, nothing ran" "exit $rc: $(cat "$H/run")" test ! -e "$MARK" -a "$rc" = 125

# ------------------------------------------------------------------ attribution through the prefix; PostToolUse

# Claude Code without --rewrite: the PreToolUse hook leaves the call's tool_use_id and
# session_id in a spool of the caller's (under $XDG_RUNTIME_DIR, out of every jail's
# reach), the prefix takes them for the composite whose command is that call's, and the
# jail's audit record carries them; the PostToolUse hook then finds the call taken by
# the prefix (jailed), or blocks: the call ran without it.
AUDF=$T/prefix-audit.jsonl
printf '#!/bin/sh\nexec "%s" --audit-file "%s" "$@"\n' "$(realpath "$SBX_RUN")" "$AUDF" >"$T/audit-sbx"
chmod 0755 "$T/audit-sbx"

# claude_ev EVENT ID CMD [TOOL_INPUT_COMMAND]: Claude's hook input for EVENT.
claude_ev() {
	"$PYTHON" -c '
import json, sys
ev, tid, cmd = sys.argv[2], sys.argv[3], sys.argv[4]
d = {"session_id": "sess-P", "transcript_path": "/x/t.jsonl", "cwd": sys.argv[1],
     "permission_mode": "default", "hook_event_name": ev, "tool_name": "Bash", "tool_use_id": tid,
     "tool_input": {"command": sys.argv[5] if len(sys.argv) > 5 else cmd, "description": "d"}}
if ev == "PostToolUse":
    d["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
print(json.dumps(d))' "$WS" "$@"
}
# run_prefix CMD: Claude's composite for CMD through the prefix, audited into $AUDF.
run_prefix() {
	local q=${1//\'/\'\\\'\'}
	(cd "$WS" && SBX_RUN=$T/audit-sbx CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" \
		"source $SNAP && eval '$q' < /dev/null && pwd -P >| $CWDF" >"$H/run" 2>&1)
}
# audit_tags: "TOOL_USE_ID SESSION_ID" of each exit record in $AUDF, one a line.
audit_tags() {
	"$PYTHON" -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("SBX_EVENT") == "exit":
        print(e.get("SBX_TOOL_USE_ID", "-"), e.get("SBX_SESSION_ID", "-"))' "$AUDF" 2>/dev/null
}

pcmd="echo \"it's attributed\" >attr"
claude_ev PreToolUse toolu_P1 "$pcmd" >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
expect_jf "attribution: PreToolUse allows (prefix)" "$H/out" hookSpecificOutput.permissionDecision allow
rm -f "$AUDF"
run_prefix "$pcmd"
t_check "attribution: the composite ran jailed" "$(head -c 300 "$H/run")" grep -qx "it's attributed" "$WS/attr"
t_check "attribution: the prefix's jail has SBX_TOOL_USE_ID and SBX_SESSION_ID in its audit record" \
	"$(audit_tags) $(head -c 300 "$H/run")" test "$(audit_tags)" = "toolu_P1 sess-P"
claude_ev PostToolUse toolu_P1 "$pcmd" >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
t_check "PostToolUse: a call the prefix jailed: exit 0, no block" "exit $HRC: $(cat "$H/out") $(head -c 200 "$H/err")" \
	test "$HRC" = 0 -a "$(jf "$H/out" decision)" != block
# The prefix pins the workspace to the cwd the PreToolUse verdict was made in: a jailed
# command can write Claude's cwd file (it must, to carry a cd back) and so move the
# directory Claude runs the next composite in; run there (outside), the next call is
# refused and writes nothing; run below it, it starts there.
pin_prefix() { # DIR CMD: an announced call of CMD, its composite run in DIR
	local q=${2//\'/\'\\\'\'}
	claude_ev PreToolUse toolu_PIN "$2" >"$H/in"
	CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
	(cd "$1" && CLAUDE_CONFIG_DIR=$CFG timeout 30 "$PREFIX" \
		"source $SNAP && eval '$q' < /dev/null && pwd -P >| $CWDF" >"$H/run" 2>&1)
	PRC=$?
}
pin_prefix "$OTHER" 'echo planted >planted'
t_check "prefix: run outside the verdict's cwd: exit 125" "exit $PRC: $(head -c 300 "$H/run")" test "$PRC" = 125
t_check "prefix: ... nothing written there (host)" "$OTHER/planted exists" test ! -e "$OTHER/planted"
rm -f "$WS/sub/planted"
pin_prefix "$WS/sub" 'pwd -P; echo planted >planted'
t_check "prefix: run below the verdict's cwd: starts there" "exit $PRC: $(head -c 300 "$H/run")" grep -qx "$WS/sub" "$H/run"
t_check "prefix: ... writes there (host)" "missing" test -e "$WS/sub/planted"
t_check "prefix: ... and the cwd file holds it" "$(cat "$CWDF")" grep -qx "$WS/sub" "$CWDF"

# Two calls of one command at once (Claude runs tool calls in parallel): each jail has
# one of the ids, none twice.
for id in toolu_A toolu_B; do
	claude_ev PreToolUse $id "$pcmd" >"$H/in"
	CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
done
rm -f "$AUDF"
run_prefix "$pcmd"
run_prefix "$pcmd"
t_check "attribution: two calls of one command: one id each" "$(audit_tags | tr '\n' ' ')" \
	test "$(audit_tags | sort | tr '\n' ' ')" = "toolu_A sess-P toolu_B sess-P "
for id in toolu_A toolu_B; do
	claude_ev PostToolUse $id "$pcmd" >"$H/in"
	CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
	t_check "PostToolUse: parallel call $id was jailed: no block" "exit $HRC: $(cat "$H/out")" \
		test "$HRC" = 0 -a "$(jf "$H/out" decision)" != block
done
# A third run of the command, with no call left for it: it runs jailed, untagged.
rm -f "$AUDF"
run_prefix "$pcmd"
t_check "attribution: a composite no call announced runs untagged" "$(audit_tags)" test "$(audit_tags)" = "- -"
# The call ran without the prefix (CLAUDE_CODE_SHELL_PREFIX lost, a bypass): the
# PostToolUse hook tells the model and the user.
claude_ev PreToolUse toolu_P2 "$pcmd" >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
claude_ev PostToolUse toolu_P2 "$pcmd" >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
expect_jf "PostToolUse: a call the prefix never ran: decision block" "$H/out" decision block
t_check "PostToolUse: ... saying it ran unjailed" "$(cat "$H/out")" grep -q "unjailed" <<<"$(jf "$H/out" reason)"
claude_ev PostToolUse toolu_P9 "$pcmd" >"$H/in"
CLAUDE_CODE_SHELL_PREFIX=$PREFIX hook --harness claude <"$H/in"
expect_jf "PostToolUse: a call sbx has no record of: decision block" "$H/out" decision block
# --rewrite: the call was jailed when the command Claude ran is the rewrite.
claude_ev PostToolUse toolu_R1 "ls" "$(jailed workspace " --tool-use-id 'toolu_R1' --session-id 'sess-P'" -c ls)" >"$H/in"
hook --harness claude --rewrite <"$H/in"
t_check "PostToolUse --rewrite: the rewritten command ran: no block" "exit $HRC: $(cat "$H/out")" \
	test "$HRC" = 0 -a "$(jf "$H/out" decision)" != block
claude_ev PostToolUse toolu_R2 "ls" >"$H/in"
hook --harness claude --rewrite <"$H/in"
expect_jf "PostToolUse --rewrite: Claude dropped the rewrite: decision block" "$H/out" decision block
# The spool is the caller's alone, out of the jail.
t_check "attribution: the spool is a directory of the caller's, mode 0700" "$(stat -c '%u %a' "$XDG/sbx-hook" 2>&1)" \
	test "$(stat -c '%u %a' "$XDG/sbx-hook" 2>/dev/null)" = "0 700"
# ------------------------------------------------------------------ install

P=$T/project
mkdir -p "$P/.claude"
cat >"$P/.claude/settings.json" <<'EOF'
{
  "permissions": { "allow": ["Bash(npm test)"], "deny": ["Read(./.env)"] },
  "env": { "FOO": "bar" },
  "hooks": { "PostToolUse": [ { "matcher": "Write", "hooks": [ { "type": "command", "command": "fmt.sh" } ] } ] },
  "model": "opus"
}
EOF
chmod 0640 "$P/.claude/settings.json"
"$HOOK" --install claude --project "$P" >"$H/out" 2>"$H/err"
HRC=$?
S=$P/.claude/settings.json
t_check "install claude: exit 0" "exit $HRC: $(cat "$H/err")" test "$HRC" = 0
expect_jf "install claude: the user's permissions kept" "$S" permissions.allow '["Bash(npm test)"]'
expect_jf "install claude: the user's env kept" "$S" env.FOO bar
expect_jf "install claude: the user's other hooks kept" "$S" hooks.PostToolUse.0 "$(jf "$S" hooks.PostToolUse.0)"
t_check "install claude: the user's PostToolUse hook is the one it was" "$(jf "$S" hooks.PostToolUse)" \
	grep -q fmt.sh <<<"$(jf "$S" hooks.PostToolUse)"
expect_jf "install claude: model kept" "$S" model opus
expect_jf "install claude: CLAUDE_CODE_SHELL_PREFIX" "$S" env.CLAUDE_CODE_SHELL_PREFIX "$(dirname "$(realpath "$HOOK")")/sbx-shell-prefix"
"$PYTHON" -c '
import json, sys
s = json.load(open(sys.argv[1]))
e = s["hooks"]["PreToolUse"][0]
h = e["hooks"][0]
print(e["matcher"], h["type"], h["onFailure"], h["timeout"], h["command"])' "$S" >"$H/h" 2>&1
t_check "install claude: PreToolUse Bash hook, onFailure block, running sbx-hook --harness claude" "$(cat "$H/h")" \
	grep -qx "Bash command block 10 '$(realpath "$HOOK")' --harness claude" "$H/h"
expect_jf "install claude: sandbox.allowUnsandboxedCommands false" "$S" sandbox.allowUnsandboxedCommands false
"$PYTHON" -c '
import json, sys
s = json.load(open(sys.argv[1]))
for e in s["hooks"]["PostToolUse"]:
    for h in e["hooks"]:
        if "sbx-hook" in h["command"]:
            print(e["matcher"], h["type"], h["command"])' "$S" >"$H/h" 2>&1
t_check "install claude: a PostToolUse Bash hook running sbx-hook --harness claude, beside the user's" "$(cat "$H/h")" \
	grep -qx "Bash command '$(realpath "$HOOK")' --harness claude" "$H/h"
t_check "install claude: the file's mode kept" "$(stat -c %a "$S")" test "$(stat -c %a "$S")" = 640
cp "$S" "$T/settings.1"
"$HOOK" --install claude --project "$P" >"$H/out" 2>"$H/err"
t_check "install claude twice: nothing changes" "$(diff "$T/settings.1" "$S" | head -5)" cmp -s "$T/settings.1" "$S"
t_check "install claude twice: says so" "$(cat "$H/out")" grep -q "nothing changed" "$H/out"
t_check "install claude twice: one sbx hook" "$(jf "$S" hooks.PreToolUse)" \
	test "$("$PYTHON" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"]))' "$S")" = 1
printf '{ "model": "opus", ' >"$P/.claude/settings.json"
cp "$P/.claude/settings.json" "$T/broken"
"$HOOK" --install claude --project "$P" >"$H/out" 2>"$H/err"
HRC=$?
t_check "install claude: unparsable settings refused (exit 1)" "exit $HRC" test "$HRC" = 1
t_check "install claude: ... and left as they were" "changed" cmp -s "$T/broken" "$P/.claude/settings.json"
t_check "install claude: ... with the reason" "$(cat "$H/err")" grep -q "not valid JSON" "$H/err"
"$HOOK" --install codex --project "$P" >"$H/out" 2>"$H/err"
expect_jf "install codex: hooks.json PreToolUse Bash" "$P/.codex/hooks.json" hooks.PreToolUse.0.matcher Bash
expect_jf "install codex: runs sbx-hook --harness codex" "$P/.codex/hooks.json" hooks.PreToolUse.0.hooks.0.command \
	"'$(realpath "$HOOK")' --harness codex"
"$HOOK" --install gemini --project "$P" >"$H/out" 2>"$H/err"
expect_jf "install gemini: BeforeTool run_shell_command" "$P/.gemini/settings.json" hooks.BeforeTool.0.matcher run_shell_command
expect_jf "install gemini: timeout in ms" "$P/.gemini/settings.json" hooks.BeforeTool.0.hooks.0.timeout 10000

# A symlinked settings file: updated where it points when that is inside the project
# (a dotfile manager's link), the link kept; never followed out of it (a cloned
# repository's .claude/settings.json pointing at another file of the user's), nor
# dangling, nor through a symlinked .claude: refused, nothing written anywhere.
P2=$T/project2
mkdir -p "$P2/.claude" "$P2/conf" "$T/elsewhere"
echo '{"model": "opus", "env": {"FOO": "bar"}}' >"$P2/conf/claude.json"
ln -s ../conf/claude.json "$P2/.claude/settings.json"
"$HOOK" --install claude --project "$P2" >"$H/out" 2>"$H/err"
HRC=$?
t_check "install claude, settings a symlink inside the project: exit 0" "exit $HRC: $(cat "$H/err")" test "$HRC" = 0
t_check "install claude, ... the link kept" "$(ls -l "$P2/.claude")" test -L "$P2/.claude/settings.json"
expect_jf "install claude, ... the target updated" "$P2/conf/claude.json" hooks.PreToolUse.0.matcher Bash
expect_jf "install claude, ... the user's keys kept" "$P2/conf/claude.json" env.FOO bar
P3=$T/project3
mkdir -p "$P3/.claude"
echo '{"credsStore": "secret"}' >"$T/elsewhere/config.json"
cp "$T/elsewhere/config.json" "$T/elsewhere.orig"
ln -s "$T/elsewhere/config.json" "$P3/.claude/settings.json"
"$HOOK" --install claude --project "$P3" >"$H/out" 2>"$H/err"
HRC=$?
t_check "install claude, settings a symlink out of the project: refused (exit 1)" "exit $HRC: $(cat "$H/out")" test "$HRC" = 1
t_check "install claude, ... the file it points at unchanged" "$(cat "$T/elsewhere/config.json")" \
	cmp -s "$T/elsewhere.orig" "$T/elsewhere/config.json"
t_check "install claude, ... nothing new beside it" "$(ls -A "$T/elsewhere")" test "$(ls -A "$T/elsewhere")" = config.json
t_check "install claude, ... the link left as it was" "$(ls -l "$P3/.claude")" test -L "$P3/.claude/settings.json"
t_check "install claude, ... and says why" "$(cat "$H/err")" grep -q "symbolic link" "$H/err"
rm "$P3/.claude/settings.json"
ln -s "$T/elsewhere/absent.json" "$P3/.claude/settings.json"
"$HOOK" --install claude --project "$P3" >"$H/out" 2>"$H/err"
HRC=$?
t_check "install claude, a dangling symlink: refused, nothing made where it points" "exit $HRC: $(cat "$H/err")" \
	test "$HRC" = 1 -a ! -e "$T/elsewhere/absent.json" -a -L "$P3/.claude/settings.json"
P4=$T/project4
mkdir -p "$P4" "$T/elsewhere/dotclaude"
ln -s "$T/elsewhere/dotclaude" "$P4/.claude"
"$HOOK" --install claude --project "$P4" >"$H/out" 2>"$H/err"
HRC=$?
t_check "install claude, .claude a symlink out of the project: refused, nothing written" "exit $HRC: $(ls -A "$T/elsewhere/dotclaude")" \
	test "$HRC" = 1 -a -z "$(ls -A "$T/elsewhere/dotclaude")"

# ------------------------------------------------------------------ attribution

sbx --workspace "$WS" --json --tool-use-id toolu_01AbC --session-id sess-1 -- /bin/true
json_last
t_check "--json: tool_use_id" "$(cat "$T/json")" grep -qx "tool_use_id=toolu_01AbC" "$T/json"
t_check "--json: session_id" "$(cat "$T/json")" grep -qx "session_id=sess-1" "$T/json"
sbx --workspace "$WS" --json -- /bin/true
json_last
t_check "--json: tool_use_id null when not given" "$(cat "$T/json")" grep -qx "tool_use_id=null" "$T/json"
sbx --workspace "$WS" --tool-use-id 'a;b' -- /bin/true
expect_rc "--tool-use-id with a ';': refused (125)" 125
t_check "... saying what a tag is" "$(cat "$ERR")" grep -q "up to 128 letters" "$ERR"
sbx --workspace "$WS" --session-id "$(printf 'x%.0s' {1..129})" -- /bin/true
expect_rc "--session-id over 128 bytes: refused (125)" 125

E=$T/entry
if jd_binary >/dev/null && jd_start; then
	jd_mark
	jd_sbx --workspace "$WS" --tool-use-id toolu_01AbC --session-id sess-1 -- /bin/true
	jd_sbx --workspace "$WS" --profile strict --tool-use-id toolu_02 -- /bin/bash -c 'rm -rf /'
	jd_query "$T/q"
	for ev in allowed exit; do
		if jd_entry "$T/q" "$E" SBX_EVENT=$ev SBX_TOOL_USE_ID=toolu_01AbC; then
			t_check "journal (direct): $ev has SBX_SESSION_ID" "$(grep SBX_ "$E" | head -20 | tr '\n' ' ')" grep -qx "SBX_SESSION_ID=sess-1" "$E"
		else
			t_fail "journal (direct): $ev has SBX_TOOL_USE_ID" "no such entry among $(jd_count "$T/q")"
		fi
	done
	t_check "journal (direct): the denied record has SBX_TOOL_USE_ID" "none" \
		jd_entry "$T/q" "$E" SBX_EVENT=denied SBX_TOOL_USE_ID=toolu_02
	# Through sandboxd: the tags travel in the Run call.
	dm_policy <<EOF
allow:
  - users: [root]
    profiles: ["*"]
EOF
	if dm_start --prefix nsenter -m -t "$JD_PID" --; then
		jd_mark
		sbx --daemon --socket "$DM_SOCK" --workspace "$WS" --json --tool-use-id toolu_03 --session-id sess-3 -- /bin/true
		json_last
		t_check "--json through sandboxd: tool_use_id" "$(run_info)" grep -qx "tool_use_id=toolu_03" "$T/json"
		jd_query "$T/q"
		for ev in allowed exit; do
			if jd_entry "$T/q" "$E" SBX_EVENT=$ev SBX_MODE=daemon SBX_TOOL_USE_ID=toolu_03; then
				t_check "journal (sandboxd): $ev has SBX_SESSION_ID" "$(grep SBX_ "$E" | tr '\n' ' ')" grep -qx "SBX_SESSION_ID=sess-3" "$E"
			else
				t_fail "journal (sandboxd): $ev has SBX_TOOL_USE_ID" "no such entry among $(jd_count "$T/q"); $(run_info)"
			fi
		done
		sbx --daemon --socket "$DM_SOCK" --workspace "$WS" --tool-use-id toolu_04 --profile nosuchprofile -- /bin/true
		jd_query "$T/q"
		t_check "journal (sandboxd): a refused Run has SBX_TOOL_USE_ID" "$(run_info)" \
			jd_entry "$T/q" "$E" SBX_MODE=daemon SBX_TOOL_USE_ID=toolu_04
		# The pinned workspace through sandboxd: the start directory travels too.
		pushd "$WS/sub" >/dev/null || exit 1
		sbx --daemon --socket "$DM_SOCK" --workspace "$WS" --workspace-contains-cwd -- /bin/sh -c 'pwd -P; echo d >dplanted'
		popd >/dev/null || exit 1
		t_check "sandboxd: run from \$WS/sub, it starts there" "$(run_info); stdout $(head -c 200 "$OUT")" grep -qx "$WS/sub" "$OUT"
		t_check "sandboxd: ... and writes there (host)" "missing" test -e "$WS/sub/dplanted"
		pushd "$OTHER" >/dev/null || exit 1
		sbx --daemon --socket "$DM_SOCK" --workspace "$WS" --workspace-contains-cwd -- /bin/sh -c 'echo d >dplanted'
		popd >/dev/null || exit 1
		expect_rc "sandboxd: run from outside the workspace with --workspace-contains-cwd: refused" 125
		t_check "sandboxd: ... nothing written there (host)" "$OTHER/dplanted exists" test ! -e "$OTHER/dplanted"
	else
		t_fail "sandboxd" "did not start: $(tail -c 300 "$DM_LOG")"
	fi
else
	t_fail "journal" "no private journald (apt-get install systemd)"
fi
exit 0
