#!/bin/bash
# network.localhost (issue 13, "localhost both ways, per port"): a host loopback port
# the profile names is the jail's 127.0.0.1/::1 port (connect), a jail port it names
# is the host's 127.0.0.1/::1 port (publish), and no other port crosses either way.
# In tests/netlab.sh's "host" namespace, whose loopback has servers of the test's.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../netlab.sh"
t_init
SBX_HANG=60

if ! lab_start 2>"$T/lab.err"; then
	t_fail "lab: starts" "$(head -c 500 "$T/lab.err")"
	exit 0
fi
PY=/usr/bin/python3
# The host's own services: 5432 is connectable, 5433 is not in the profile.
for port in 5432 5433; do
	mkdir -p "$T/srv$port"
	echo "host-service-$port" >"$T/srv$port/index.html"
	lab_exec sh -c 'echo $$ >"$0.pid"; exec "$1" -m http.server "$2" --bind 127.0.0.1 --directory "$0"' \
		"$T/srv$port" "$PY" "$port" >/dev/null 2>&1 &
	t_defer "kill \$(cat $T/srv$port.pid) 2>/dev/null"
done
lab_up() { lab_exec curl -s -m 1 -o /dev/null "http://127.0.0.1:$1/"; }
wait_until 10 lab_up 5432 && wait_until 10 lab_up 5433 || t_fail "lab: the host's services listen" ""

PROF=$T/local.yaml
cat >"$PROF" <<'EOF2'
extends: workspace
network:
  mode: filtered
  allow: [example.com]
  localhost:
    connect: [5432]
    publish: [8765]
EOF2

# The jail serves 8765 (published) and 8766 (not) on its loopback, fetches the
# host's 5432 and 5433, and waits (bounded) until the host side has looked.
cat >"$WS/case.sh" <<'EOF2'
mkdir -p srv && echo jail-service >srv/index.html
python3 -m http.server 8765 --bind 127.0.0.1 --directory srv >/dev/null 2>&1 &
python3 -m http.server 8766 --bind 127.0.0.1 --directory srv >/dev/null 2>&1 &
echo "connect=$(curl -s -m 5 --noproxy '*' http://127.0.0.1:5432/)"
echo "connect6=$(curl -s -m 5 --noproxy '*' 'http://[::1]:5432/' | head -c 40)"
curl -s -m 5 --noproxy '*' -o /dev/null http://127.0.0.1:5433/; echo "other_rc=$?"
for port in 8765 8766; do # both listen before the host side looks
	for i in $(seq 100); do curl -s -m 1 --noproxy '*' -o /dev/null http://127.0.0.1:$port/ && break; sleep 0.1; done
done
: >ready
for i in $(seq 200); do [ -e looked ] && break; sleep 0.1; done
echo done
EOF2
rm -f "$WS/ready" "$WS/looked"
(lab_sbx --profile "$PROF" --workspace "$WS" -- bash case.sh; echo "$RC" >"$T/rc") &
jail=$!
ready() { [[ -e $WS/ready ]]; }
if wait_until 30 ready; then
	pub=$(lab_exec curl -s -m 5 http://127.0.0.1:8765/)
	pub6=$(lab_exec curl -s -m 5 'http://[::1]:8765/')
	lab_exec curl -s -m 5 -o /dev/null http://127.0.0.1:8766/
	unpub_rc=$?
	lab_exec curl -s -m 5 -o /dev/null http://127.0.0.1:3128/
	proxy_rc=$?
fi
: >"$WS/looked"
wait "$jail"
t_check "localhost: the jail ran" "rc $(cat "$T/rc" 2>/dev/null) $(head -c 300 "$ERR")" test "$(cat "$T/rc" 2>/dev/null)" = 0
t_check "connect: the host's 127.0.0.1:5432 from the jail's 127.0.0.1:5432" "$(kv connect)" test "$(kv connect)" = host-service-5432
t_check "connect: the jail's ::1:5432 reaches the host's service on whichever loopback it listens" "$(kv connect6)" \
	test "$(kv connect6)" = host-service-5432
t_check "connect: the host's 5433, not in the profile, is not reachable" "rc $(kv other_rc)" test "$(kv other_rc)" != 0
t_check "publish: the host's 127.0.0.1:8765 reaches the jail's 8765" "$pub" test "$pub" = jail-service
t_check "publish: the host's ::1:8765 too" "$pub6" test "$pub6" = jail-service
t_check "publish: the jail's 8766, not published, is not reachable from the host" "rc $unpub_rc" test "$unpub_rc" != 0
t_check "publish: the broker's proxy port is not on the host" "rc $proxy_rc" test "$proxy_rc" != 0
# After the run, the published port is gone from the host.
lab_exec curl -s -m 2 -o /dev/null http://127.0.0.1:8765/
t_check "publish: gone from the host after the run" "rc $?" test $? != 0

# A port the host already uses cannot be published: a clear refusal, nothing runs.
cat >"$T/busy.yaml" <<'EOF2'
extends: workspace
network:
  mode: filtered
  localhost:
    publish: [5432]
EOF2
lab_sbx --profile "$T/busy.yaml" --workspace "$WS" -- touch "$WS/ran-busy"
t_check "publish: a port in use on the host is refused (125)" "$(run_info)" test "$RC" = 125
t_check "publish: the refusal names the port and the fix" "$(head -c 300 "$ERR")" grep -q "publish port 5432.*network.localhost.publish" "$ERR"
t_check "publish: nothing ran" "" test ! -e "$WS/ran-busy"

# Broker ports cannot be connect ports; a CLI cannot add any.
cat >"$T/bad.yaml" <<'EOF2'
extends: workspace
network:
  mode: filtered
  localhost:
    connect: [443]
EOF2
lab_sbx --profile "$T/bad.yaml" -- true
t_check "connect: port 443 (the broker's) is refused at load" "$(head -c 300 "$ERR")" grep -q "port 443 is the egress broker's own" "$ERR"
# Nor a publish port: the host would reach the broker's proxy, and through it this
# jail's allow list.
sed -i 's/connect: \[443\]/publish: [3128]/' "$T/bad.yaml"
lab_sbx --profile "$T/bad.yaml" -- true
t_check "publish: port 3128 (the broker's proxy) is refused at load" "$(head -c 300 "$ERR")" grep -q "port 3128 is the egress broker's own" "$ERR"
# A port both published and connected would loop one connect into a thousand.
cat >"$T/loop.yaml" <<'EOF2'
extends: workspace
network:
  mode: filtered
  localhost:
    connect: [7001]
    publish: [7001]
EOF2
lab_sbx --profile "$T/loop.yaml" --workspace "$WS" -- touch "$WS/ran-loop"
t_check "publish: a port that is also a connect port is refused (125), nothing runs" "$(run_info)" \
	test "$RC" = 125 -a ! -e "$WS/ran-loop"
t_check "publish: the refusal names the port" "$(head -c 300 "$ERR")" grep -q "publish port 7001 is also a connect port" "$ERR"
exit 0
