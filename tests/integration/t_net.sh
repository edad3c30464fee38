#!/bin/bash
# Network and sockets: a host TCP listener on 127.0.0.1, a host abstract unix
# socket and a host path socket get no connection from the jail (counted on
# the listener side), while --profile network-host reaches the same listener;
# --net host is refused under a profile without network: host.
. "$(dirname "$0")/../lib.sh"
t_init

# settle: a connection from the host itself, then wait until the listener
# counted it. Accepts are served in order, so once the count moved past it,
# any connection the jail made earlier has been counted too.
settle() {
	local before
	before=$(listener_count)
	"$PROBE" "$@" >/dev/null
	wait_until 5 test "$(listener_count)" -gt "$before"
}

# ---- TCP on the host's loopback
if start_listener tcp ""; then
	port=$L_PORT
	"$PROBE" connect-tcp 127.0.0.1 "$port" >"$T/host-connect"
	if [[ $(kv result "$T/host-connect") == ok ]] && wait_until 5 test "$(listener_count)" = 1; then
		t_ok "control: host reaches its own listener"
		jail -- connect-tcp 127.0.0.1 "$port"
		expect_kv_not "jail's connect to host 127.0.0.1 fails" result ok
		settle connect-tcp 127.0.0.1 "$port"
		host_check "host listener got no connection from the jail" "accepts: $(listener_count), expected 2" \
			test "$(listener_count)" = 2
		# The network profile is the documented way out: the same listener counts it.
		jail --profile network-host -- connect-tcp 127.0.0.1 "$port"
		expect_kv "--profile network-host reaches the host listener" result ok
		settle connect-tcp 127.0.0.1 "$port"
		host_check "listener counted the --profile network-host connection" "accepts: $(listener_count), expected 4" \
			test "$(listener_count)" = 4
	else
		t_fail "control: host reaches its own listener" "$(cat "$T/host-connect")"
	fi
else
	t_fail "tcp listener starts" "python3 listener failed"
fi

# ---- the host's external address and the outside world
ext=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ split($4, a, "/"); print a[1]; exit }')
if [[ -n $ext ]]; then
	jail -- connect-tcp "$ext" 22
	expect_kv_in "host address $ext unreachable" result ENETUNREACH EHOSTUNREACH
fi
jail -- connect-tcp 1.1.1.1 443
expect_kv_in "internet unreachable" result ENETUNREACH EHOSTUNREACH
if [[ -s /proc/net/if_inet6 ]]; then
	jail -- connect-tcp ::1 1
	expect_kv "IPv6 loopback is up inside (refused, not unreachable)" result ECONNREFUSED
fi
jail -- connect-tcp 127.0.0.1 1
expect_kv "IPv4 loopback is up inside (refused, not unreachable)" result ECONNREFUSED

# ---- abstract unix socket: only the network namespace separates these
name="sbx-test-$SBX_RUN_ID-$$-$RANDOM"
if start_listener abstract "$name"; then
	"$PROBE" connect-abstract "$name" >"$T/host-connect"
	if [[ $(kv result "$T/host-connect") == ok ]] && wait_until 5 test "$(listener_count)" = 1; then
		t_ok "control: host reaches its abstract socket"
		jail -- connect-abstract "$name"
		expect_kv_not "jail's connect to host abstract socket fails" result ok
		settle connect-abstract "$name"
		host_check "abstract listener got no connection from the jail" "accepts: $(listener_count), expected 2" \
			test "$(listener_count)" = 2
	else
		t_fail "control: host reaches its abstract socket" "$(cat "$T/host-connect")"
	fi
else
	t_fail "abstract listener starts" "python3 listener failed"
fi

# ---- path unix socket outside the workspace (the classic: a docker.sock)
mkdir "$T/sock"
if start_listener unix "$T/sock/host.sock"; then
	jail -- connect-unix "$T/sock/host.sock"
	expect_kv_not "jail's connect to host path socket fails" result ok
	settle connect-unix "$T/sock/host.sock"
	host_check "path listener got no connection from the jail" "accepts: $(listener_count), expected 1" \
		test "$(listener_count)" = 1
else
	t_fail "unix listener starts" "python3 listener failed"
fi
# ---- network: none says so (lib/nonet.h): the proxy variables point at PID 1's
# fixed 403, so proxy-aware tools fail at once with the reason, not after a minute.
cat >"$WS/nonet.sh" <<'EOF'
echo "proxy=$HTTPS_PROXY"
err=$(curl -sS -m 5 https://registry.example/ 2>&1); echo "curl_rc=$?"; echo "curl_err=$(echo $err | tr ' ' _)"
hdr=$(curl -s -m 5 -D - -o /dev/null http://registry.example/ | tr -d '\r' | grep -i '^x-sbx-error' | cut -d' ' -f2); echo "hdr=$hdr"
python3 -c 'import socket; s = socket.create_connection(("127.0.0.1", 3128)); s.sendall(b"\x00" * 70000); s.close()' 2>/dev/null
python3 -c 'import socket
for i in range(40): socket.create_connection(("127.0.0.1", 3128))' 2>/dev/null
err=$(python3 -c 'import urllib.request; urllib.request.urlopen("http://pypi.org/")' 2>&1 | tail -n 1); echo "py=$(echo $err | tr ' ' _)"
exit 7
EOF
sbx --workspace "$WS" -- bash "$WS/nonet.sh"
t_check "none: the proxy variables point at the jail's own 127.0.0.1:3128" "$(kv proxy)" test "$(kv proxy)" = http://127.0.0.1:3128
t_check "none: curl https fails at once with the 403" "$(kv curl_err)" grep -q 403 <<<"$(kv curl_err)"
t_check "none: the refusal says no-network (X-Sbx-Error)" "hdr=$(kv hdr)" test "$(kv hdr)" = no-network
t_check "none: python's urllib says the jail has no network" "$(kv py)" grep -q "no_network" <<<"$(kv py)"
t_check "none: junk and a flood of connections to PID 1's port leave the command's exit status alone" "$(run_info)" test "$RC" = 7
exit 0
