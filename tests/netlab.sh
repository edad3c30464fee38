# shellcheck shell=bash
# tests/netlab.sh — a fake internet for the egress tests, that never sends a packet
# off the machine.  Source it after tests/lib.sh and t_init (it needs $T, $WS,
# t_defer, wait_until); the bench sources it with its own small stand-ins.
#
# Layout: two network namespaces joined by one veth pair, neither with a route out.
#
#   sbxlab-PID  ("the host": sbx-run runs here, through lab_sbx)
#     lo        127.0.0.1 and ::1, with a canary HTTP server on 127.0.0.1:80 and
#               [::1]:80 (log loopback): a broker that dials its own loopback shows here
#     lab0      198.51.100.2/24, 2001:db8:ffff::2/64
#     routes    192.0.2.0/24, 10.0.0.5/32, 169.254.169.254/32 via 198.51.100.1;
#               2001:db8::/64 via 2001:db8:ffff::1; NO default route (v4 or v6)
#     /etc/netns/sbxlab-PID/resolv.conf = nameserver 192.0.2.53 (ip netns exec binds it
#               over /etc/resolv.conf: the host-side resolver the broker must use)
#   sbxlab-PID-inet  ("the internet": every server, addresses on its lo)
#     inet0     198.51.100.1/24, 2001:db8:ffff::1/64
#     lo        the server addresses below; NO default route
#
#   name                 address            servers (log LAB_LOG/NAME.log)
#   example.com          192.0.2.10         web: http :80, https :443 (log web)
#   www.example.org      192.0.2.10           "
#   other.example.net    192.0.2.10           "   (exists, but no profile allows it)
#   raw.example.net      192.0.2.20         echo :2222 and :2223 (log raw), udp :9999 (log udp)
#   (dns)                192.0.2.53         dnsmasq, authoritative for example.com,
#                                           example.org, example.net (log dns: one
#                                           "query[TYPE] NAME from ADDR" line per query)
#   meta.example.com     169.254.169.254    http :80 "metadata-secret" (log meta)
#   private.example.com  10.0.0.5           http :80, https :443 (log private)
#   bad.example.org      192.0.2.66         http :80, https :443 (log bad)
#   v6.example.com       2001:db8::10       http :80, https :443, AAAA only (log v6)
#   redirect.example.com 192.0.2.10         the web server: /redirect?to=URL answers 302
#
# TLS: a CA made per run (LAB_CA, under the workspace so the jail can read it), one
# server certificate with every name above and 192.0.2.10/2001:db8::10 as SANs.
# HTTP paths: see tests/tools/labserver.py (/, /redirect?to=, /git/repo.git, /bytes?n=).
#
# Functions:
#   lab_start            builds it all, waits (bounded) until every server listens
#   lab_exec CMD...      runs CMD in sbxlab-PID, with the lab resolver (no sbx)
#   lab_inet CMD...      runs CMD in the internet namespace
#   lab_sbx ARGS...      like lib.sh's sbx (OUT, ERR, RC, HUNG), sbx-run in sbxlab-PID;
#                        in journald's mount namespace when LAB_JD_PID is set
#   lab_mark             remembers the length of every log
#   lab_new NAME         the lines NAME.log got since lab_mark
#   lab_seen NAME REGEX  0 when a line NAME.log got since lab_mark matches REGEX
#   lab_udp_settle       sends a marker datagram from the host side and waits until
#                        the udp server logged it (datagrams sent before it are logged)
#   lab_selftest         checks the lab itself (every server, every name, no route out)

LAB_NS=""
LAB_INET=""
LAB=""
LAB_LOG=""
LAB_CA=""
LAB_JD_PID=""
LAB_TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")/tools" && pwd)
LAB_PY=${LAB_PY:-/usr/bin/python3}

# name → address, the one table dnsmasq, the certificate and the tests use.
declare -A LAB_A=(
	[example.com]=192.0.2.10
	[www.example.org]=192.0.2.10
	[other.example.net]=192.0.2.10
	[redirect.example.com]=192.0.2.10
	[raw.example.net]=192.0.2.20
	[meta.example.com]=169.254.169.254
	[private.example.com]=10.0.0.5
	[bad.example.org]=192.0.2.66
)
declare -A LAB_AAAA=(
	[v6.example.com]=2001:db8::10
)

_lab_die() {
	echo "netlab.sh: $*" >&2
	return 1
}

lab_exec() {
	ip netns exec "$LAB_NS" "$@"
}

lab_inet() {
	ip netns exec "$LAB_INET" "$@"
}

# _lab_bg NS CMD...: CMD in the background in NS; LAB_BG is its pid (ip netns exec
# execs CMD: no shell and no ip process stays between, so that pid is CMD's).
_lab_bg() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@" </dev/null &
	LAB_BG=$!
	t_defer "kill $LAB_BG 2>/dev/null; wait $LAB_BG 2>/dev/null"
}

_lab_certs() {
	local d=$LAB/tls san="" n
	mkdir -p "$d"
	for n in "${!LAB_A[@]}" "${!LAB_AAAA[@]}"; do san+="DNS:$n,"; done
	san+="IP:192.0.2.10,IP:192.0.2.66,IP:10.0.0.5,IP:2001:db8::10"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-subj "/CN=sbx netlab CA $$" -keyout "$d/ca.key" -out "$d/ca.pem" \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
		2>"$d/err" || return 1
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-subj "/CN=example.com" -keyout "$d/key.pem" -out "$d/req.pem" 2>>"$d/err" || return 1
	printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$san" >"$d/ext"
	openssl x509 -req -in "$d/req.pem" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
		-days 2 -extfile "$d/ext" -out "$d/cert.pem" 2>>"$d/err" || return 1
	chmod 0644 "$d/ca.pem" "$d/cert.pem"
	# Where the jail can read it: the workspace (bound read-write at the same path).
	LAB_CA=${WS:-$LAB}/lab-ca.pem
	cp "$d/ca.pem" "$LAB_CA"
	chmod 0644 "$LAB_CA"
}

# A bare repository served as dumb HTTP: /git/repo.git
_lab_git() {
	local src=$LAB/gitsrc
	mkdir -p "$LAB/www/git" "$src"
	(
		cd "$src" && git init -q -b main . && echo lab >README &&
			git add README && git -c user.name=lab -c user.email=lab@example.com commit -q -m lab &&
			git clone -q --bare . "$LAB/www/git/repo.git" &&
			git -C "$LAB/www/git/repo.git" update-server-info
	) >"$LAB/git.err" 2>&1 || _lab_die "git repo: $(cat "$LAB/git.err")"
	LAB_GIT_HEAD=$(git -C "$LAB/www/git/repo.git" rev-parse HEAD)
}

_lab_dnsmasq() {
	local args=() n
	for n in "${!LAB_A[@]}"; do args+=("--host-record=$n,${LAB_A[$n]}"); done
	for n in "${!LAB_AAAA[@]}"; do args+=("--host-record=$n,${LAB_AAAA[$n]}"); done
	# Authoritative for the three zones: unknown names NXDOMAIN, nothing forwarded
	# (no upstream at all: --no-resolv, no --server).
	_lab_bg "$LAB_INET" dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts \
		--no-poll --user=root --listen-address=192.0.2.53 --bind-interfaces --port=53 \
		--local=/example.com/ --local=/example.org/ --local=/example.net/ \
		--log-queries --log-facility="$LAB_LOG/dns.log" --pid-file="$LAB/dnsmasq.pid" \
		--cache-size=0 "${args[@]}" >"$LAB/dnsmasq.out" 2>&1
}

_lab_dns_ready() {
	lab_inet dig +tries=1 +time=1 +short @192.0.2.53 lab-ready.example.net >/dev/null 2>&1 &&
		grep -q 'lab-ready.example.net' "$LAB_LOG/dns.log" 2>/dev/null
}

_lab_stop() {
	[[ -n $LAB_NS ]] || return 0
	ip netns del "$LAB_NS" 2>/dev/null
	ip netns del "$LAB_INET" 2>/dev/null
	rm -rf "/etc/netns/$LAB_NS"
}

lab_start() {
	local tls
	LAB=$T/lab
	LAB_LOG=$LAB/log
	LAB_NS=sbxlab-$$
	LAB_INET=sbxlab-$$-inet
	mkdir -p "$LAB_LOG" || return 1
	chmod 0755 "$LAB"
	t_defer "_lab_stop"
	# Whatever still runs with the lab's directory in its command line (a server whose
	# parent went first): only this lab's processes can match.
	t_defer_reap "$LAB/"
	ip netns add "$LAB_NS" || return 1
	ip netns add "$LAB_INET" || return 1
	mkdir -p "/etc/netns/$LAB_NS"
	echo "nameserver 192.0.2.53" >"/etc/netns/$LAB_NS/resolv.conf"
	# The veth pair is made inside the namespaces: it never exists on the host.
	ip -n "$LAB_NS" link add lab0 type veth peer name inet0 netns "$LAB_INET" || return 1
	ip -n "$LAB_NS" link set lo up
	ip -n "$LAB_INET" link set lo up
	ip -n "$LAB_NS" addr add 198.51.100.2/24 dev lab0
	ip -n "$LAB_NS" addr add 2001:db8:ffff::2/64 dev lab0 nodad
	ip -n "$LAB_INET" addr add 198.51.100.1/24 dev inet0
	ip -n "$LAB_INET" addr add 2001:db8:ffff::1/64 dev inet0 nodad
	ip -n "$LAB_NS" link set lab0 up
	ip -n "$LAB_INET" link set inet0 up
	local a
	for a in 192.0.2.10 192.0.2.20 192.0.2.53 192.0.2.66 169.254.169.254 10.0.0.5; do
		ip -n "$LAB_INET" addr add "$a/32" dev lo || return 1
	done
	ip -n "$LAB_INET" addr add 2001:db8::10/128 dev lo nodad || return 1
	ip -n "$LAB_NS" route add 192.0.2.0/24 via 198.51.100.1
	ip -n "$LAB_NS" route add 10.0.0.5/32 via 198.51.100.1
	ip -n "$LAB_NS" route add 169.254.169.254/32 via 198.51.100.1
	ip -n "$LAB_NS" -6 route add 2001:db8::/64 via 2001:db8:ffff::1
	_lab_certs || return 1
	_lab_git || return 1
	tls=$LAB/tls
	_lab_bg "$LAB_INET" "$LAB_PY" "$LAB_TOOLS/labserver.py" "$LAB_LOG" "$LAB/inet.ready" \
		http:web:192.0.2.10:80 https:web:192.0.2.10:443:"$tls" \
		echo:raw:192.0.2.20:2222 echo:raw:192.0.2.20:2223 udp:udp:192.0.2.20:9999 \
		http:meta:169.254.169.254:80 \
		http:private:10.0.0.5:80 https:private:10.0.0.5:443:"$tls" \
		http:bad:192.0.2.66:80 https:bad:192.0.2.66:443:"$tls" \
		http:v6:[2001:db8::10]:80 https:v6:[2001:db8::10]:443:"$tls" \
		${LAB_EXTRA_SERVERS:-} >"$LAB/inet.out" 2>&1
	# The canary on the host side's own loopback.
	_lab_bg "$LAB_NS" "$LAB_PY" "$LAB_TOOLS/labserver.py" "$LAB_LOG" "$LAB/host.ready" \
		http:loopback:127.0.0.1:80 http:loopback:[::1]:80 >"$LAB/host.out" 2>&1
	_lab_dnsmasq
	wait_until 10 test -e "$LAB/inet.ready" ||
		_lab_die "lab servers did not start: $(head -c 500 "$LAB/inet.out")" || return 1
	wait_until 10 test -e "$LAB/host.ready" ||
		_lab_die "loopback canary did not start: $(head -c 500 "$LAB/host.out")" || return 1
	wait_until 10 _lab_dns_ready ||
		_lab_die "dnsmasq did not answer: $(head -c 500 "$LAB/dnsmasq.out")" || return 1
	lab_mark
}

# ------------------------------------------------------------------ logs

lab_mark() {
	local f
	for f in "$LAB_LOG"/*.log; do
		wc -l <"$f" >"$f.mark"
	done
}

lab_new() {
	local f=$LAB_LOG/$1.log m=0
	[[ -e $f ]] || return 0
	[[ -e $f.mark ]] && m=$(cat "$f.mark")
	tail -n +"$((m + 1))" "$f"
}

lab_seen() {
	lab_new "$1" | grep -Eq -- "$2"
}

lab_udp_settle() {
	local tag=settle-$RANDOM$RANDOM
	echo "$tag" | lab_exec nc -u -w0 192.0.2.20 9999 >/dev/null 2>&1
	wait_until 5 lab_seen udp "$tag"
}

# ------------------------------------------------------------------ sbx-run in the lab

# shellcheck disable=SC2034 # RC, WALL_MS, HUNG: lib.sh's, read by the tests
lab_sbx() {
	local pre=() t0
	if [[ -n $LAB_JD_PID ]]; then
		pre=(nsenter -m -t "$LAB_JD_PID" --)
	fi
	t0=$(_now_us)
	timeout -k 5 "$SBX_HANG" "${pre[@]}" ip netns exec "$LAB_NS" "$SBX_RUN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
	if ((WALL_MS >= SBX_HANG * 1000)); then
		HUNG=1
	fi
}

# ------------------------------------------------------------------ the lab's own check

# lab_selftest: prints one line per check ("ok ..." / "FAIL ..."); 1 when one failed.
lab_selftest() {
	local bad=0 n ip got
	_st() {
		if "${@:2}"; then echo "ok   lab: $1"; else echo "FAIL lab: $1"; bad=1; fi
	}
	_st "host side has no default route (v4)" test -z "$(lab_exec ip -4 route show default)"
	_st "host side has no default route (v6)" test -z "$(lab_exec ip -6 route show default)"
	_st "internet has no default route (v4)" test -z "$(lab_inet ip -4 route show default)"
	_st "internet has no default route (v6)" test -z "$(lab_inet ip -6 route show default)"
	_st "host side has only lo and lab0" test "$(lab_exec ip -o link | awk -F': ' '{print $2}' | sed 's/@.*//' | sort | tr '\n' ' ')" = "lab0 lo "
	_st "a real address is unreachable (1.1.1.1)" _lab_unreachable 1.1.1.1
	_st "the machine's resolver is unreachable" _lab_unreachable "$(awk '/^nameserver/ { print $2; exit }' /etc/resolv.conf)"
	_st "resolv.conf in the lab is the lab's" test "$(lab_exec cat /etc/resolv.conf)" = "nameserver 192.0.2.53"
	for n in "${!LAB_A[@]}"; do
		got=$(lab_exec dig +short +tries=1 +time=2 A "$n")
		_st "dig A $n = ${LAB_A[$n]}" test "$got" = "${LAB_A[$n]}"
		got=$(lab_exec dig +short +tries=1 +time=2 AAAA "$n")
		_st "dig AAAA $n is empty" test -z "$got"
	done
	for n in "${!LAB_AAAA[@]}"; do
		got=$(lab_exec dig +short +tries=1 +time=2 AAAA "$n")
		_st "dig AAAA $n = ${LAB_AAAA[$n]}" test "$got" = "${LAB_AAAA[$n]}"
		got=$(lab_exec dig +short +tries=1 +time=2 A "$n")
		_st "dig A $n is empty" test -z "$got"
	done
	_st "dig of an unknown name is NXDOMAIN" _lab_nx nope.example.net
	_st "dig of a name outside the zones is refused or NXDOMAIN, not forwarded" _lab_nx_or_refused github.com
	_st "dns log has the queries" grep -q 'query\[A\] example.com from 198.51.100.2' "$LAB_LOG/dns.log"
	_st "http://example.com/" _lab_curl "hello from web" http://example.com/
	_st "https://example.com/ (lab CA)" _lab_curl "hello from web" https://example.com/
	_st "https://www.example.org/" _lab_curl "hello from web" https://www.example.org/
	_st "web log saw SNI www.example.org" lab_seen web 'sni name=www.example.org'
	_st "web log saw Host example.com" lab_seen web 'req proto=https host=example.com '
	_st "http://meta.example.com/ = metadata-secret" _lab_curl "metadata-secret" http://meta.example.com/
	_st "http://private.example.com/" _lab_curl "hello from private" http://private.example.com/
	_st "https://bad.example.org/" _lab_curl "hello from bad" https://bad.example.org/
	_st "https://v6.example.com/ over IPv6" _lab_curl "hello from v6" -6 https://v6.example.com/
	_st "http://[2001:db8::10]/" _lab_curl "hello from v6" "http://[2001:db8::10]/"
	_st "redirect answers 302 to the metadata server" _lab_curl "metadata-secret" -L "http://redirect.example.com/redirect?to=http://169.254.169.254/"
	_st "git ls-remote over dumb http" _lab_git_ok
	_st "raw echo on raw.example.net:2222" test "$(echo lab-echo | lab_exec nc -N raw.example.net 2222)" = lab-echo
	_st "raw echo on raw.example.net:2223" test "$(echo lab-echo | lab_exec nc -N raw.example.net 2223)" = lab-echo
	_st "udp listener logs a datagram" lab_udp_settle
	_st "loopback canary answers on the host side" _lab_curl "hello from loopback" http://127.0.0.1/
	lab_mark
	return "$bad"
}

_lab_unreachable() {
	[[ -n $1 ]] || return 0
	local out
	out=$(lab_exec "$LAB_PY" -c 'import socket, sys
s = socket.socket(); s.settimeout(2)
try:
    s.connect((sys.argv[1], 53)); print("connected")
except OSError as e:
    print(e.errno)' "$1" 2>&1)
	[[ $out == 101 ]] # ENETUNREACH: no route at all
}

_lab_nx() {
	lab_exec dig +tries=1 +time=2 A "$1" | grep -q 'status: NXDOMAIN'
}

_lab_nx_or_refused() {
	lab_exec dig +tries=1 +time=2 A "$1" | grep -Eq 'status: (NXDOMAIN|REFUSED)'
}

_lab_curl() {
	local want=$1
	shift
	lab_exec curl -sS -m 5 --cacert "$LAB_CA" "$@" 2>&1 | grep -Eq -- "$want"
}

_lab_git_ok() {
	[[ $(lab_exec git ls-remote http://example.com/git/repo.git 2>&1) == "$LAB_GIT_HEAD"*HEAD* ]]
}
