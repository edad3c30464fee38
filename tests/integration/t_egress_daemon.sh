#!/bin/bash
# The egress broker through sandboxd (issue 13, "both modes"): a jail sandboxd starts
# for a caller gets the same filtered network, served by a broker of its launcher's,
# outside the jail; the site policy's network rules cap what any profile allows.  In
# the fake internet of tests/netlab.sh: sandboxd runs in the lab's "host" namespace,
# the client outside it; refusals are checked from the lab servers' logs too.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../netlab.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

if ! lab_start 2>"$T/lab.err"; then
	t_fail "lab: starts" "$(head -c 500 "$T/lab.err")"
	exit 0
fi

# A profile sandboxd can name (it reads /etc/sbx/profiles), gone at exit.
PROF=sbxt-egress-$SBX_RUN_ID
mkdir -p /etc/sbx/profiles
t_defer "rm -f /etc/sbx/profiles/$PROF.yaml"
cat >"/etc/sbx/profiles/$PROF.yaml" <<'EOF2'
extends: workspace
network:
  mode: filtered
  allow: [example.com, "*.example.org", meta.example.com]
EOF2
# Two unprivileged callers, for whose brokers run as whom.
UA=sbxna$SBX_RUN_ID UB=sbxnb$SBX_RUN_ID
if ! dm_user "$UA" || ! dm_user "$UB"; then
	t_fail "users: created" "useradd failed"
	exit 0
fi
dm_policy <<EOF2
allow:
  - users: [root, $UA, $UB]
    profiles: ["*"]
network:
  deny: [bad.example.org]
EOF2
# In the lab's network namespace with its resolver, but not through `ip netns exec`,
# which mounts a /sys of its own without the cgroup trees sandboxd's limits need.
if ! dm_start --prefix nsenter "--net=/run/netns/$LAB_NS" unshare -m --propagation private \
	sh -c 'mount --bind "/etc/netns/$0/resolv.conf" /etc/resolv.conf && exec "$@"' "$LAB_NS" -- 2>"$T/dm.err"; then
	t_fail "sandboxd starts in the lab" "$(head -c 500 "$T/dm.err")"
	exit 0
fi

cat >"$WS/case.sh" <<'EOF2'
ca=$PWD/lab-ca.pem
out=$(curl -sS -m 10 --noproxy '*' --cacert "$ca" https://example.com/ 2>&1); echo "direct_rc=$? direct=$(echo $out | head -c 60)"
out=$(curl -sS -m 10 --cacert "$ca" https://www.example.org/ 2>&1); echo "proxy_rc=$? proxy=$(echo $out | head -c 60)"
getent hosts bad.example.org >/dev/null && echo site_dns=resolved || echo site_dns=nxdomain
out=$(curl -sS -m 10 -x http://127.0.0.1:3128 -D - -o /dev/null http://bad.example.org/ 2>&1); echo "site_proxy=$(echo "$out" | grep -i '^x-sbx-error' | tr -d '\r' | cut -d' ' -f2)"
out=$(curl -sS -m 10 -x http://127.0.0.1:3128 -D - -o /dev/null http://meta.example.com/ 2>&1); echo "meta_proxy=$(echo "$out" | grep -i '^x-sbx-error' | tr -d '\r' | cut -d' ' -f2)"
EOF2
lab_mark
dsbx --workspace "$WS" --profile "$PROF" --json -- bash case.sh
kv_of() { sed -n "s/^$1=\([^ ]*\).*/\1/p" "$OUT" | head -n 1; }
t_check "daemon: the jail ran" "$(run_info)" test "$RC" = 0
t_check "daemon: an allowed name over TLS, directly" "$(grep direct_ "$OUT")" test "$(kv_of direct_rc)" = 0
t_check "daemon: an allowed wildcard name through the proxy variables" "$(grep proxy_ "$OUT")" test "$(kv_of proxy_rc)" = 0
t_check "daemon: the site policy's deny: NXDOMAIN" "$(grep site_dns "$OUT")" test "$(kv_of site_dns)" = nxdomain
t_check "daemon: the site policy's deny through the proxy: 403 denied" "$(grep site_proxy "$OUT")" test "$(kv_of site_proxy)" = denied
t_check "daemon: a name resolving to the metadata address: 403 ssrf-metadata" "$(grep meta_proxy "$OUT")" \
	test "$(kv_of meta_proxy)" = ssrf-metadata
# --json through sandboxd has the broker's summary, as in direct mode (issue 13:
# "a line in --json" in both modes).
net=$(tail -n 1 "$ERR" | "$PYTHON" -c 'import json, sys; n = json.load(sys.stdin).get("network", {})
print(" ".join(sorted("%s:%s" % (r["host"], r["port"]) for r in n.get("allowed", []))), "|",
      " ".join(sorted("%s:%s:%s" % (r["host"], r["port"], r["code"]) for r in n.get("denied", []))))' 2>&1)
t_check "daemon: --json has the network summary (allowed and denied, as direct mode)" "$net" \
	eval '[[ $net == *example.com:443* && $net == *www.example.org:443* && $net == *"| "*bad.example.org:80:denied* && $net == *meta.example.com:80:ssrf-metadata* ]]'
# ... and the isolation tier sandboxd's launcher chose (here, a host: full, nothing
# substituted), as in direct mode.
tier=$(tail -n 1 "$ERR" | "$PYTHON" -c 'import json, sys; o = json.load(sys.stdin); print(o["tier"], o["substitutions"])' 2>&1)
t_check "daemon: --json has the tier sandboxd chose (full, no substitution)" "$tier" test "$tier" = "full []"
t_check "daemon: the web server saw the two allowed fetches" "$(lab_new web | grep -c '^conn')" \
	test "$(lab_new web | grep -c '^conn')" = 2
t_check "daemon: the denied server saw nothing" "$(lab_new bad | head -n 3 | tr '\n' '|')" test -z "$(lab_new bad)"
t_check "daemon: the metadata server saw nothing" "$(lab_new meta | head -n 3 | tr '\n' '|')" test -z "$(lab_new meta)"
t_check "daemon: the lab DNS got no question for the denied name" "$(lab_new dns | grep -i bad.example.org | head -n 2)" \
	test -z "$(lab_new dns | grep -i bad.example.org)"

# Each caller's broker runs as that caller: no two callers share a broker uid (one
# broker a parser bug handed to its jail could otherwise signal or trace another's),
# and neither the broker nor the jail's PID 1 can be traced by the caller, even where
# fs.suid_dumpable would make a process dumpable after an id switch.
dumpable=$(sysctl -n fs.suid_dumpable)
t_defer "sysctl -q fs.suid_dumpable=$dumpable"
sysctl -q fs.suid_dumpable=1
declare -A BP=() P1=()
for u in "$UA" "$UB"; do
	ws=$T/ws-$u
	mkdir -p "$ws"
	chown "$u:$u" "$ws"
	setpriv --reuid="$u" --regid="$u" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$ws" \
		--profile "$PROF" -- sh -c 'touch ready; while [ ! -e go ]; do sleep 0.1; done' >"$T/$u.out" 2>&1 &
	t_defer_kill $!
	wait_until 30 test -e "$ws/ready"
	BP[$u]=$(pgrep -u "$u" -x sbx-egress | head -n 1)
	for p in $(pgrep -u "$u"); do
		[[ $(awk '/^NSpid:/ { print $NF }' "/proc/$p/status" 2>/dev/null) == 1 ]] && P1[$u]=$p
	done
done
for u in "$UA" "$UB"; do
	uid=$(id -u "$u")
	bp=${BP[$u]} p1=${P1[$u]}
	t_check "daemon: $u's broker runs as $u" "broker '$bp': $(grep -E '^(Uid|Gid):' "/proc/$bp/status" 2>&1 | tr '\n\t' '  ')" \
		test -n "$bp" -a "$(awk '/^Uid:/ { print $2 $3 $4 $5 }' "/proc/$bp/status" 2>/dev/null)" = "$uid$uid$uid$uid"
	t_check "daemon: $u cannot read its broker's fds or memory" "$(setpriv --reuid="$u" --regid="$u" --clear-groups ls "/proc/$bp/fd" 2>&1 | head -n 2)" \
		eval "[ -n '$bp' ] && ! setpriv --reuid=$u --regid=$u --clear-groups ls /proc/$bp/fd >/dev/null 2>&1 && ! setpriv --reuid=$u --regid=$u --clear-groups head -c1 /proc/$bp/mem >/dev/null 2>&1"
	t_check "daemon: $u's jail has a PID 1 of its uid" "pid '$p1'" test -n "$p1"
	t_check "daemon: $u cannot read its jail PID 1's fds (not dumpable after the id switch)" \
		"$(setpriv --reuid="$u" --regid="$u" --clear-groups ls "/proc/$p1/fd" 2>&1 | head -n 2)" \
		eval "[ -n '$p1' ] && ! setpriv --reuid=$u --regid=$u --clear-groups ls /proc/$p1/fd >/dev/null 2>&1"
	touch "$T/ws-$u/go"
done
t_check "daemon: the two callers' brokers are two uids" "${BP[$UA]} ${BP[$UB]}" \
	test "$(stat -c %u "/proc/${BP[$UA]}")" != "$(stat -c %u "/proc/${BP[$UB]}")"
sysctl -q fs.suid_dumpable="$dumpable"
wait_until 30 eval "! pgrep -u $UA >/dev/null && ! pgrep -u $UB >/dev/null"

# The broker ends with the jail: no sbx-egress process is left under sandboxd.
# (A launcher reaps its broker right after its jail ends: a moment's zombie.)
t_check "daemon: no broker left after the run" "$(pgrep -a -x sbx-egress | head -n 3)" wait_until 10 eval '[ -z "$(pgrep -x sbx-egress)" ]'
dm_stop

# The broker's records in the audit file too (a container has no journal): each
# relayed by the launcher with the jail's own SBX_ID, in direct mode and in sandboxd's.
# net_records FILE: "ACTION HOST PORT same-id" for each network record of FILE.
net_records() {
	"$PYTHON" -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ids = {r.get("SBX_ID") for r in recs if r.get("SBX_EVENT") == "allowed"}
for r in recs:
    if r.get("SBX_EVENT") == "network":
        print(r.get("SBX_NET_ACTION"), r.get("SBX_NET_HOST"), r.get("SBX_NET_PORT"), "same-id" if r.get("SBX_ID") in ids else "other-id:%s" % r.get("SBX_ID"))' "$1" 2>&1
}
cat >"$WS/net.sh" <<'EOF2'
curl -sS -m 10 --noproxy '*' --cacert "$PWD/lab-ca.pem" -o /dev/null https://example.com/
getent hosts bad.example.org
getent hosts unlisted.example.net
exit 0
EOF2
lab_sbx --workspace "$WS" --profile "$PROF" --audit-file "$T/direct-audit.jsonl" -- bash net.sh
got=$(net_records "$T/direct-audit.jsonl")
t_check "direct --audit-file: the broker's allow of example.com:443, with the jail's id" "rc=$RC $got" \
	eval '[[ $got == *"allow example.com 443 same-id"* ]]'
t_check "direct --audit-file: its denial of unlisted.example.net, with the jail's id" "$got" \
	eval '[[ $got == *"deny unlisted.example.net "*" same-id"* ]]'
if dm_start --prefix nsenter "--net=/run/netns/$LAB_NS" unshare -m --propagation private \
	sh -c 'mount --bind "/etc/netns/$0/resolv.conf" /etc/resolv.conf && exec "$@"' "$LAB_NS" -- \
	--audit-file "$T/daemon-audit.jsonl" 2>"$T/dm.err"; then
	dsbx --workspace "$WS" --profile "$PROF" -- bash net.sh
	dm_stop
	got=$(net_records "$T/daemon-audit.jsonl")
	t_check "sandboxd --audit-file: the broker's allow of example.com:443, with the sandbox's id" "rc=$RC $got" \
		eval '[[ $got == *"allow example.com 443 same-id"* ]]'
	t_check "sandboxd --audit-file: its denial of bad.example.org, with the sandbox's id" "$got" \
		eval '[[ $got == *"deny bad.example.org "*" same-id"* ]]'
	t_check "sandboxd --audit-file: no network record of another id" "$got" eval '[[ $got != *other-id* ]]'
else
	t_fail "sandboxd --audit-file starts in the lab" "$(head -c 500 "$T/dm.err")"
fi
exit 0
