#!/bin/bash
# The external validator (issue 12): real validator programs -- allow, warn, block,
# slow, hanging, crashing, garbage, huge output, missing, a non-zero exit -- asked by
# sbx-run in direct mode (as root: the validator runs as nobody; as nobody: as the
# caller) and by sandboxd for an unprivileged caller, where the site's validator runs
# as its configured user.  Asserted from the host: the command's marker file exists
# only when it was allowed to run, the validator's uid is the one it wrote, nothing
# a hanging validator started is left running, the journal has SBX_VALIDATOR_*.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../journal.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

V=$T/v          # the validator and its profiles
VOUT=$T/vout    # what the validator writes (any uid may)
mkdir -p "$V" "$VOUT"
chmod 0755 "$V"
chmod 1777 "$VOUT" "$WS"
TOKEN=$T/hang-token
t_defer_reap "$TOKEN"

# One validator, its behaviour named by its first argument (its environment is
# cleared: arguments are all it gets), writing what it saw into $VOUT.
cat >"$V/validator.sh" <<EOF
#!/bin/sh
mode=\$1
out=$VOUT
input=\$(cat)
printf '%s' "\$input" >"\$out/input.\$mode" 2>/dev/null
id -u >"\$out/uid.\$mode" 2>/dev/null
id -G >"\$out/groups.\$mode" 2>/dev/null
ls /proc/self/fd | tr '\n' ' ' >"\$out/fds.\$mode" 2>/dev/null # ls's own: 0-2 and its directory
env | sort | tr '\n' ' ' >"\$out/env.\$mode" 2>/dev/null
grep '^NoNewPrivs' /proc/self/status >"\$out/nnp.\$mode" 2>/dev/null
pwd -P >"\$out/cwd.\$mode" 2>/dev/null
if [ "\$mode" = site ]; then
	case "\$input" in
	*BLOCKME*) mode=block ;;
	*WARNME*) mode=warn ;;
	*HANGME*) mode=hang ;;
	*) mode=allow ;;
	esac
fi
case \$mode in
allow) echo '{"verdict":"allow","reason":"looks fine","confidence":0.9}' ;;
warn) echo '{"verdict":"warn","reason":"it talks to the network","confidence":0.5}' ;;
block) echo '{"verdict":"block","reason":"deletes the repository"}' ;;
slow) sleep 3; echo '{"verdict":"allow"}' ;;
hang)
	sh -c "sleep 300; : $TOKEN.child" &
	setsid sh -c "sleep 300; : $TOKEN.escaped" &
	sh -c "sleep 301; : $TOKEN.main" ;;
crash) exec $PYTHON -c 'import ctypes; ctypes.string_at(0)' ;;
garbage) echo 'Sure, that command looks fine to me.' ;;
dup) echo '{"verdict":"block","reason":"deletes it","verdict":"allow"}' ;;
huge) head -c 100000 /dev/zero | tr '\0' a ;;
exit) echo 'model backend unreachable' >&2; exit 3 ;;
esac
EOF
chmod 0755 "$V/validator.sh"

# A profile per mode: workspace plus the validator.
for m in allow warn block slow hang crash garbage huge exit dup; do
	printf 'extends: workspace\nvalidator:\n  command: [%s, %s]\n  timeout: 1s\n' "$V/validator.sh" "$m" >"$V/$m.yaml"
done
printf 'extends: workspace\nvalidator:\n  command: [%s/missing-validator]\n' "$V" >"$V/missing.yaml"

MARK=$WS/ran
# vrun MODE [SBX OPTIONS...]: the command writes $MARK; the result in RC/OUT/ERR.
vrun() {
	local m=$1
	shift
	rm -f "$MARK"
	sbx --profile "$V/$m.yaml" --workspace "$WS" "$@" -- /bin/sh -c "echo ran >$MARK"
}
ran() { [[ -e $MARK ]]; }

# ------------------------------------------------------------------ direct mode, as root

vrun allow --json
expect_rc "allow: the command runs" 0
t_check "allow: the command's file is on the host" "no $MARK" ran
json_last
expect_json "allow: --json validator.verdict" validator.verdict allow
expect_json "allow: --json validator.confidence" validator.confidence float:0.9
[[ $(cat "$VOUT/uid.allow" 2>/dev/null) == "$NOBODY" ]] && t_ok "root's validator runs as nobody" ||
	t_fail "root's validator runs as nobody" "uid $(cat "$VOUT/uid.allow" 2>/dev/null)"
"$PYTHON" - "$VOUT/input.allow" "$MARK" "$WS" >"$T/in.check" 2>&1 <<'PYEOF'
import json, sys
o = json.load(open(sys.argv[1]))
want = {"version": 1, "validator": "profile", "argv": ["/bin/sh", "-c", "echo ran >" + sys.argv[2]],
        "command": "echo ran >" + sys.argv[2], "cwd": sys.argv[3], "uid": 0, "gid": 0, "mode": "direct",
        "tool_use_id": None, "session_id": None}
bad = {k: (o.get(k), v) for k, v in want.items() if o.get(k) != v}
print("ok" if not bad and o["profile"].endswith("allow.yaml") else "bad %r" % bad)
PYEOF
[[ $(cat "$T/in.check") == ok ]] && t_ok "the validator gets argv, the -c string, cwd, profile, uid, mode as JSON" ||
	t_fail "the validator's JSON input" "$(cat "$T/in.check")"
[[ $(cat "$VOUT/fds.allow" 2>/dev/null) == "0 1 2 3 " ]] && t_ok "the validator has fds 0-2 only" ||
	t_fail "the validator has fds 0-2 only" "$(cat "$VOUT/fds.allow" 2>/dev/null)"
env_seen=$(cat "$VOUT/env.allow" 2>/dev/null)
[[ $env_seen != *SBX_* && $env_seen != *HOME=* && $env_seen == *PATH=/usr/local/bin:/usr/bin:/bin* ]] &&
	t_ok "the validator's environment is cleared (PATH only)" || t_fail "the validator's environment" "$env_seen"
grep -q 'NoNewPrivs:[[:space:]]*1' "$VOUT/nnp.allow" 2>/dev/null && t_ok "the validator runs with no_new_privs" ||
	t_fail "the validator runs with no_new_privs" "$(cat "$VOUT/nnp.allow" 2>/dev/null)"
# Not in the workspace, which the jail writes: a `python3 -m` validator imports from its
# cwd first, npx resolves from it, a script sources ./config.
[[ $(cat "$VOUT/cwd.allow" 2>/dev/null) == / ]] && t_ok "the validator's working directory is /, not the workspace" ||
	t_fail "the validator's working directory is /" "$(cat "$VOUT/cwd.allow" 2>/dev/null)"

vrun warn --json
expect_rc "warn: the command runs" 0
t_check "warn: the command's file is on the host" "no $MARK" ran
grep -q "^sbx-run: warning: validator '$V/validator.sh' warns: it talks to the network$" "$ERR" &&
	t_ok "warn: one line on stderr" || t_fail "warn: one line on stderr" "$(head -c 300 "$ERR")"
json_last
expect_json "warn: --json validator.verdict" validator.verdict warn
expect_json "warn: --json validator.reason" validator.reason "it talks to the network"

vrun block --json
expect_rc "block: exit 126" 126
t_check "block: the command did not run (no file on the host)" "$MARK exists" eval '! ran'
grep -q "blocked by the profile validator '$V/validator.sh': deletes the repository" "$ERR" &&
	t_ok "block: the reason on stderr" || t_fail "block: the reason on stderr" "$(head -c 300 "$ERR")"
json_last
expect_json "block: --json validator.verdict" validator.verdict block
expect_json "block: --json validator.reason" validator.reason "deletes the repository"
expect_json "block: --json error.stage" error.stage validator

# fail_closed NAME MODE CAUSE: refused with 126, nothing ran, the cause named.
fail_closed() {
	local name=$1 m=$2 cause=$3
	vrun "$m" --json
	if ((HUNG)) || [[ $RC != 126 ]]; then
		t_fail "$name: refused with 126" "$(run_info)"
	elif ran; then
		t_fail "$name: refused with 126" "the command ran"
	elif ! grep -qF -- "$cause" "$ERR"; then
		t_fail "$name: refused with 126" "the cause '$cause' is not named: $(head -c 300 "$ERR")"
	else
		t_ok "$name: refused with 126, nothing ran, the cause named"
	fi
	json_last
	expect_json "$name: --json validator.verdict error" validator.verdict error
}

fail_closed "slow" slow "gave no answer within 1000 ms and was killed"
((WALL_MS < 2500)) && t_ok "slow: killed at its timeout (${WALL_MS} ms)" || t_fail "slow: killed at its timeout" "${WALL_MS} ms"
fail_closed "hanging" hang "gave no answer within 1000 ms and was killed"
# Its PID namespace ended with it: even the child that left its session is gone.
wait_until 2 no_procs_matching "$TOKEN" && t_ok "hanging (root): nothing it started is left, setsid'd or not" ||
	t_fail "hanging (root): nothing left" "$(describe_procs "$TOKEN")"
fail_closed "crashing" crash "it crashed (signal 11, SIGSEGV)"
fail_closed "garbage" garbage "its answer is not JSON"
# json-c keeps the last of two "verdict"s: an answer with two has no one meaning.
fail_closed "a verdict given twice" dup "its answer gives a key twice"

# The "command" it judges is the string the shell runs, however the options are
# grouped: bash -co errexit STRING runs STRING (not "errexit"), as do -oc, -cO, -c -.
for form in "-co errexit" "-oc errexit" "-cO extglob" "-c -"; do
	rm -f "$MARK" "$VOUT/input.allow"
	# shellcheck disable=SC2086 # the options are words
	sbx --profile "$V/allow.yaml" --workspace "$WS" -- /bin/bash $form "echo ran >$MARK"
	got=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["command"])' "$VOUT/input.allow" 2>&1)
	[[ $RC == 0 && $got == "echo ran >$MARK" ]] && ran &&
		t_ok "bash $form STRING: the validator is shown STRING" ||
		t_fail "bash $form STRING: the validator is shown STRING" "command: '$got' ($(run_info))"
done
fail_closed "huge output" huge "it answered more than 65536 bytes and was killed"
fail_closed "non-zero exit" exit "it exited with status 3: model backend unreachable"
fail_closed "missing" missing "it could not be started: No such file or directory"

rm -f "$MARK"
sbx --profile "$V/allow.yaml" --workspace "$WS" -- /bin/sh -c "echo ran >$MARK" $'\xff'
((RC == 126)) && ! ran && grep -q "not valid UTF-8" "$ERR" && t_ok "an argv that is not UTF-8 is refused (the validator could not see it exactly)" ||
	t_fail "non-UTF-8 argv" "$(run_info)"

sbx --profile "$V/warn.yaml" --workspace "$WS" --check -- /bin/true
[[ $RC == 0 && $(sed -n 2p "$OUT") == "warn: validator '$V/validator.sh': it talks to the network" ]] &&
	t_ok "--check: a warning is a second line, exit 0" || t_fail "--check warn" "$(run_info); $(cat "$OUT")"
sbx --profile "$V/block.yaml" --workspace "$WS" --check -- /bin/true
[[ $RC == 126 && $(head -n 1 "$OUT") == "deny: blocked by the profile validator"* ]] &&
	t_ok "--check: a block is deny, 126" || t_fail "--check block" "$(run_info); $(cat "$OUT")"

# ------------------------------------------------------------------ direct mode, unprivileged

t_ws_for_nobody
chmod 1777 "$WS"
SBX_AS=$NOBODY vrun allow --direct
expect_rc "as nobody: allow runs" 0
[[ $(cat "$VOUT/uid.allow" 2>/dev/null) == "$NOBODY" ]] && t_ok "as nobody: the validator runs as the caller" ||
	t_fail "as nobody: the validator runs as the caller" "uid $(cat "$VOUT/uid.allow" 2>/dev/null)"
SBX_AS=$NOBODY vrun block --direct
((RC == 126)) && ! ran && t_ok "as nobody: block refuses" || t_fail "as nobody: block refuses" "$(run_info)"
SBX_AS=$NOBODY vrun hang --direct
((RC == 126)) && ! ran && t_ok "as nobody: a hanging validator refuses" || t_fail "as nobody: hanging" "$(run_info)"
# Without a PID namespace its process group is killed: what stayed in it is gone.
wait_until 2 no_procs_matching "$TOKEN.main" && wait_until 2 no_procs_matching "$TOKEN.child" &&
	t_ok "as nobody: the hanging validator's process group is gone" ||
	t_fail "as nobody: the hanging validator's process group is gone" "$(describe_procs "$TOKEN")"
_t_reap "$TOKEN" # what left its session (documented: no PID namespace unprivileged)
chown -R 0:0 "$WS"

# ------------------------------------------------------------------ the journal (direct)

jd_ok=0
if jd_binary >/dev/null && jd_start && jd_mark; then
	jd_ok=1
	rm -f "$MARK"
	jd_sbx --profile "$V/block.yaml" --workspace "$WS" -- /bin/sh -c "echo ran >$MARK"
	jd_sbx --profile "$V/warn.yaml" --workspace "$WS" -- /bin/true
	jd_sbx --profile "$V/garbage.yaml" --workspace "$WS" -- /bin/true
	jd_query "$T/j" SYSLOG_IDENTIFIER=sbx-run
	n=$(jd_count "$T/j" SBX_EVENT=denied SBX_VALIDATOR="$V/validator.sh" SBX_VALIDATOR_VERDICT=block \
		SBX_VALIDATOR_REASON="deletes the repository")
	((n == 1)) && t_ok "journal: the block is a DENIED record with SBX_VALIDATOR_*" || t_fail "journal: block" "$n entries"
	n=$(jd_count "$T/j" SBX_EVENT=allowed SBX_VALIDATOR_VERDICT=warn SBX_VALIDATOR_CONFIDENCE=0.500)
	((n == 1)) && t_ok "journal: the warning is on the ALLOWED record" || t_fail "journal: warn (allowed)" "$n entries"
	n=$(jd_count "$T/j" SBX_EVENT=exit SBX_VALIDATOR_VERDICT=warn)
	((n == 1)) && t_ok "journal: and on the EXIT record" || t_fail "journal: warn (exit)" "$n entries"
	n=$(jd_count "$T/j" SBX_EVENT=denied SBX_VALIDATOR_VERDICT=error)
	((n == 1)) && t_ok "journal: a garbage answer is a DENIED record, verdict error" || t_fail "journal: garbage" "$n entries"
else
	t_fail "journal (direct)" "no private journald"
fi

# ------------------------------------------------------------------ sandboxd: the site's validator

U=sbxv$SBX_RUN_ID
VU=sbxw$SBX_RUN_ID
if ! dm_user "$U" || ! dm_user "$VU"; then
	t_fail "setup" "cannot create the test users"
	exit 0
fi
UID_U=$(id -u "$U")
UID_V=$(id -u "$VU")
GID_V=$(id -g "$VU")
chown "$U:$U" "$WS"
chmod 0755 "$WS"
rm -f "$VOUT"/*

site_policy() { # site_policy VALIDATOR-USER
	dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
validator:
  command: [$V/validator.sh, site]
  timeout: 1s
  user: $1
EOF
}
site_policy "$VU"
prefix=()
((jd_ok)) && prefix=(--prefix nsenter -m -t "$JD_PID" --)
unit=()
[[ -f $SBX_UNIT ]] && unit=(--as-unit)
if ! dm_start "${unit[@]}" "${prefix[@]}"; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
((jd_ok)) && jd_mark

usbx() { # as the caller, through sandboxd
	local t0
	t0=$(_now_us)
	timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
}

rm -f "$MARK"
usbx --json -- /bin/sh -c "echo ran >$MARK"
expect_rc "sandboxd: the site's validator allows" 0
t_check "sandboxd: the command ran (file on the host)" "no $MARK" ran
[[ $(cat "$VOUT/uid.site" 2>/dev/null) == "$UID_V" ]] && t_ok "sandboxd: the site's validator runs as validator.user (uid $UID_V)" ||
	t_fail "sandboxd: the validator's uid" "$(cat "$VOUT/uid.site" 2>/dev/null), want $UID_V (caller $UID_U)"
[[ $(cat "$VOUT/groups.site" 2>/dev/null) == "$GID_V" ]] && t_ok "sandboxd: with its own group only" ||
	t_fail "sandboxd: the validator's groups" "$(cat "$VOUT/groups.site" 2>/dev/null)"
grep -q 'NoNewPrivs:[[:space:]]*1' "$VOUT/nnp.site" 2>/dev/null && t_ok "sandboxd: the validator has no_new_privs" ||
	t_fail "sandboxd: no_new_privs" "$(cat "$VOUT/nnp.site" 2>/dev/null)"
[[ $(cat "$VOUT/cwd.site" 2>/dev/null) == / ]] && t_ok "sandboxd: the validator's working directory is /" ||
	t_fail "sandboxd: the validator's working directory" "$(cat "$VOUT/cwd.site" 2>/dev/null)"
[[ $(cat "$VOUT/fds.site" 2>/dev/null) == "0 1 2 3 " ]] && t_ok "sandboxd: the validator has fds 0-2 only (not the caller's stdio)" ||
	t_fail "sandboxd: the validator's fds" "$(cat "$VOUT/fds.site" 2>/dev/null)"
"$PYTHON" -c 'import json,sys; o=json.load(open(sys.argv[1])); sys.exit(not (o["validator"]=="site" and o["mode"]=="daemon" and o["uid"]==int(sys.argv[2]) and o["profile"]=="workspace"))' \
	"$VOUT/input.site" "$UID_U" 2>/dev/null && t_ok "sandboxd: the validator is told the caller's uid, the profile, mode daemon" ||
	t_fail "sandboxd: the validator's input" "$(head -c 300 "$VOUT/input.site" 2>/dev/null)"

rm -f "$MARK"
usbx --json -- /bin/sh -c "echo ran >$MARK; : BLOCKME"
((RC == 126)) && ! ran && grep -q "blocked by the site validator '$V/validator.sh': deletes the repository" "$ERR" &&
	t_ok "sandboxd: the site's block refuses with 126 and the reason" || t_fail "sandboxd: block" "$(run_info)"

rm -f "$MARK"
usbx --json -- /bin/sh -c "echo ran >$MARK; : WARNME"
((RC == 0)) && ran && grep -q "^sbx-run: warning: validator '$V/validator.sh' warns: it talks to the network$" "$ERR" &&
	t_ok "sandboxd: a warning runs the command and tells the caller" || t_fail "sandboxd: warn" "$(run_info)"
json_last
expect_json "sandboxd: --json validator.verdict warn" validator.verdict warn

rm -f "$MARK"
usbx -- /bin/sh -c "echo ran >$MARK; : HANGME"
((RC == 126)) && ! ran && grep -q "gave no answer within 1000 ms" "$ERR" && t_ok "sandboxd: a hanging validator refuses" ||
	t_fail "sandboxd: hanging" "$(run_info)"
wait_until 2 no_procs_matching "$TOKEN" && t_ok "sandboxd: nothing the hanging validator started is left" ||
	t_fail "sandboxd: hanging leftovers" "$(describe_procs "$TOKEN")"

if ((jd_ok)); then
	jd_query "$T/j" SYSLOG_IDENTIFIER=sandboxd
	n=$(jd_count "$T/j" SBX_EVENT=denied SBX_UID="$UID_U" SBX_VALIDATOR_VERDICT=block SBX_VALIDATOR="$V/validator.sh")
	((n == 1)) && t_ok "sandboxd journal: DENIED with SBX_VALIDATOR_VERDICT=block" || t_fail "sandboxd journal: block" "$n entries"
	n=$(jd_count "$T/j" SBX_EVENT=allowed SBX_UID="$UID_U" SBX_VALIDATOR_VERDICT=warn)
	((n == 1)) && t_ok "sandboxd journal: ALLOWED with the warning" || t_fail "sandboxd journal: warn" "$n entries"
	n=$(jd_count "$T/j" SBX_EVENT=denied SBX_UID="$UID_U" SBX_VALIDATOR_VERDICT=error)
	((n == 1)) && t_ok "sandboxd journal: the hang is DENIED, verdict error" || t_fail "sandboxd journal: hang" "$n entries"
fi

# The caller itself as validator.user: refused at the request, never run as it.
site_policy "$U"
kill -HUP "$DM_PID"
rm -f "$MARK" "$VOUT/uid.site"
wait_until 5 eval 'usbx -- /bin/sh -c "echo ran >$MARK"; ((RC == 126))'
((RC == 126)) && ! ran && grep -q "a validator never runs as the caller it judges" "$ERR" && [[ ! -e $VOUT/uid.site ]] &&
	t_ok "sandboxd: a validator.user that is the caller is refused, the validator not run" ||
	t_fail "sandboxd: validator.user is the caller" "$(run_info)"

# root as validator.user: the policy is refused, the last good one stays.
printf 'allow:\n  - users: [%s]\n    profiles: [workspace]\nvalidator:\n  command: [/bin/true]\n  user: root\n' "$U" | dm_policy
kill -HUP "$DM_PID"
wait_until 5 grep -q "the validator never runs as root" "$DM_LOG" && t_ok "sandboxd: a policy naming root as validator.user is refused" ||
	t_fail "sandboxd: root as validator.user" "$(tail -c 300 "$DM_LOG")"
