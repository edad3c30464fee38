#!/bin/bash
# Attacks on the egress broker (issue 13), in the lab of tests/netlab.sh plus two
# servers of tests/tools/attacklab.py: a DNS server in front of the lab's dnsmasq
# (192.0.2.54, the host side's resolver here) that answers the attack names itself
# (rebinding, CNAME to inside, exotic AAAA), and an HTTP/1.1 keep-alive server with
# virtual hosts (192.0.2.30:80: ka.example.com, allowed, and kb.example.net, not).
# Every refusal is asserted from the server side too.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../netlab.sh"
. "$(dirname "$0")/../netcase.sh"
t_init
SBX_HANG=${SBX_EGRESS_HANG:-90}

if ! command -v dnsmasq >/dev/null || ! command -v dig >/dev/null || ! command -v curl >/dev/null; then
	t_fail "lab: tools" "needs dnsmasq, dig, curl, nc ('make deps')"
	exit 0
fi
LAB_A[ka.example.com]=192.0.2.30
LAB_A[kb.example.net]=192.0.2.30
if ! lab_start 2>"$T/lab.err"; then
	t_fail "lab: starts" "$(head -c 500 "$T/lab.err")"
	exit 0
fi
ATK=$LAB_TOOLS/attacklab.py
lab_inet ip addr add 192.0.2.30/32 dev lo
lab_inet ip addr add 192.0.2.54/32 dev lo
# The host side's own (non-loopback) address, where a host service on 0.0.0.0 answers.
_lab_bg "$LAB_NS" "$LAB_PY" "$LAB_TOOLS/labserver.py" "$LAB_LOG" "$LAB/self.ready" \
	http:hostself:198.51.100.2:80 http:hostself:[2001:db8:ffff::2]:80 >"$LAB/self.out" 2>&1
_lab_bg "$LAB_INET" "$LAB_PY" "$ATK" kahttp "$LAB_LOG/ka.log" 192.0.2.30 80
_lab_bg "$LAB_INET" "$LAB_PY" "$ATK" dns "$LAB_LOG/adns.log" 192.0.2.54 192.0.2.53
: >"$LAB_LOG/ka.log"
: >"$LAB_LOG/adns.log"
echo "nameserver 192.0.2.54" >"/etc/netns/$LAB_NS/resolv.conf"
ready() {
	lab_exec dig +tries=1 +time=1 +short A multi.example.com 2>/dev/null | grep -q 192.0.2.10 &&
		lab_exec curl -sS -m 2 http://ka.example.com/ 2>/dev/null | grep -q 'ka host=ka.example.com'
}
if wait_until 15 ready && wait_until 10 test -e "$LAB/self.ready"; then
	t_ok "lab: the attack DNS and the keep-alive server answer"
else
	t_fail "lab: attack servers" "$(lab_exec dig +short multi.example.com 2>&1 | head -n 3 | tr '\n' '|')"
	exit 0
fi
cp "$LAB_TOOLS/labclient.py" "$WS/labclient.py"
cp "$ATK" "$WS/attacklab.py"

P=$T/attack.yaml
cat >"$P" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: [example.com, "*.example.com", "*.example.org", "raw.example.net:2222"]
  deny: ["bad.example.org"]
EOF

no_query_for() { ! lab_new adns | grep -Fqi "$1"; }
inside_quiet() { # the servers inside saw nothing: metadata, private, host loopback, host's own address
	nothing_in meta && nothing_in private && nothing_in loopback && nothing_in hostself
}
inside_log() { echo "meta: $(lab_new meta | head -n 2 | tr '\n' '|') private: $(lab_new private | head -n 2 | tr '\n' '|') loopback: $(lab_new loopback | head -n 2 | tr '\n' '|') hostself: $(lab_new hostself | head -n 2 | tr '\n' '|')"; }

# ------------------------------------------------------------------ DNS rebinding, CNAME, exotic AAAA

jrun --profile "$P" -- '
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do fetch rbp$i -x http://127.0.0.1:3128 http://rebind.example.com/; done
for i in 1 2 3 4 5 6; do fetch rbd$i --noproxy "*" http://rebind.example.com/; done
for i in 1 2 3 4 5 6; do fetch rbs$i --noproxy "*" https://rebind.example.com/; done
fetch multi -x http://127.0.0.1:3128 http://multi.example.com/
fetch cname -x http://127.0.0.1:3128 http://cname.example.com/
fetch cnamed --noproxy "*" http://cname.example.com/
for n in self self6; do fetch h$n -x http://127.0.0.1:3128 http://$n.example.com/; fetch hd$n --noproxy "*" http://$n.example.com/; done
for n in m6 n64 s6 l6 c6 t6 u6 lo6 ll6; do fetch a6$n -x http://127.0.0.1:3128 http://$n.example.com/; fetch d6$n --noproxy "*" http://$n.example.com/; done
'
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	c=$(kv "rbp${i}_code")
	if [[ $c == 200 ]]; then
		jis "rebinding: proxy fetch $i that got the public address reached the web server" "rbp${i}_body" "hello from web"
	else
		xerr_re "rebinding: proxy fetch $i that got an inside address is 403 ssrf-*" "rbp$i" '^ssrf-'
	fi
done
for i in 1 2 3 4 5 6; do
	for k in rbd rbs; do
		[[ $(kv "${k}${i}_code") == 200 ]] && continue
		refused "rebinding: direct fetch $k$i that got an inside address is refused" "$k$i"
	done
done
jhost "rebinding: at least one fetch got the public address (the rotation ran)" "$(grep -c '_code=200' "$OUT")" \
	test "$(grep -c '^rb.*_code=200' "$OUT")" -ge 3
jis "multi A (public + loopback + metadata): only the public address is dialled" multi_body "hello from web"
xerr_re "CNAME to a metadata name: proxy 403 ssrf-metadata" cname '^ssrf-metadata$'
refused "CNAME to a metadata name: direct refused" cnamed
for n in m6 n64 s6 l6 c6 t6 u6 lo6 ll6; do
	xerr_re "AAAA $n.example.com (inside in IPv6 clothes): proxy 403 ssrf-*" "a6$n" '^ssrf-'
	refused "AAAA $n.example.com: direct refused" "d6$n"
done
for n in self self6; do
	xerr_re "a name resolving to the host's own address ($n): proxy 403 ssrf-*" "h$n" '^ssrf-'
	refused "a name resolving to the host's own address ($n): direct refused" "hd$n"
done
jhost "rebinding/CNAME/AAAA: metadata, private and the host's loopback saw nothing" "$(inside_log)" inside_quiet

# ------------------------------------------------------------------ addresses from inside

jrun --profile "$P" -- '
ex=$(dig +short example.com A | head -n 1)
ex6=$(dig +short example.com AAAA | head -n 1)
echo ex=$ex
fetch u1 --noproxy "*" -H "Host: example.com" http://198.18.200.200/
fetch u2 --noproxy "*" -H "Host: example.com" http://198.19.255.254/
fetch u3 --noproxy "*" -H "Host: example.com" "http://[fd5b:7800:0:1::1]/"
fetch u4 --noproxy "*" -H "Host: example.com" http://127.0.0.2/
fetch u5 --noproxy "*" -H "Host: example.com" "http://[::1]/"
fetch u6 --noproxy "*" --resolve example.com:443:127.0.0.1 https://example.com/
fetch u7 --noproxy "*" -H "Host: example.com" http://0.0.0.0/
fetch u8 --noproxy "*" -H "Host: example.com" http://255.255.255.255/
fetch u9 --noproxy "*" -H "Host: example.com" http://224.0.0.1/
fetch u10 --noproxy "*" -H "Host: example.com" "http://[fd5b:7800::ffff]/"
fetch u11 --noproxy "*" -H "Host: example.com" "http://[::ffff:198.18.255.250]/"
fetch same --noproxy "*" -H "Host: example.com" "http://[::ffff:$ex]/"
fetch u12 --noproxy "*" --resolve example.com:443:[::1] https://example.com/
echo raw_other=$(echo raw-x | timeout 10 nc -N "$ex" 2222 2>&1)
echo raw_other6=$(echo raw-y | timeout 10 nc -N "$ex6" 2222 2>&1)
echo raw_lo=$(echo raw-z | timeout 10 nc -N 127.0.0.1 2222 2>&1)
pre p1 lc rawreq 127.0.0.1 3128 "CONNECT 127.0.0.1:3128 HTTP/1.1\r\nHost: 127.0.0.1:3128\r\n\r\n"
pre p2 lc rawreq 127.0.0.1 3128 "CONNECT 127.0.0.1:53 HTTP/1.1\r\nHost: 127.0.0.1:53\r\n\r\n"
pre p3 lc rawreq 127.0.0.1 3128 "CONNECT [::1]:80 HTTP/1.1\r\nHost: [::1]:80\r\n\r\n"
pre p4 lc rawreq 127.0.0.1 3128 "CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n"
pre p5 lc rawreq 127.0.0.1 3128 "GET http://198.18.0.1/ HTTP/1.1\r\nHost: 198.18.0.1\r\nConnection: close\r\n\r\n"
pre p6 lc rawreq 127.0.0.1 3128 "CONNECT 198.19.255.254:3128 HTTP/1.1\r\nHost: 198.19.255.254:3128\r\n\r\n"
pre s1 lc socks5 127.0.0.1 3128 0177.0.0.1 80
pre s2 lc socks5 127.0.0.1 3128 127.1 80
pre s3 lc socks5 127.0.0.1 3128 0x7f000001 80
pre s4 lc socks5 127.0.0.1 3128 169.254.169.254. 80
pre s5 lc socks5 127.0.0.1 3128 [::1] 80
pre s6 lc socks5 127.0.0.1 3128 localhost 80
pre s7 lc socks5 127.0.0.1 3128 0251.0376.0251.0376 80
'
for k in u1 u2 u3 u4 u5 u6 u7 u8 u9 u10 u11 u12; do
	refused "address trick $k is refused" "$k"
done
jis "address: example.com's synthetic address spelt IPv4-mapped is example.com" same_body "hello from web"
jre "raw: example.com's synthetic address on port 2222 (raw.example.net's rule) gets no echo" raw_other '^$|refused|reset|timed'
jre "raw: example.com's synthetic v6 address on port 2222 gets no echo" raw_other6 '^$|refused|reset|timed|invalid'
jre "raw: 127.0.0.1:2222 gets no echo" raw_lo '^$|refused|reset|timed'
for k in p1 p2 p3 p4 p5 p6; do
	jis "proxy to the broker itself / loopback / the pool ($k) is 403" "${k}_status" 403
done
for k in s1 s2 s3 s4 s5 s6 s7; do
	jre "SOCKS5 ATYP 3 with an exotic loopback/metadata spelling ($k) is refused" "${k}_socks_reply" '^[1-8]$'
done
jhost "addresses: the raw echo server saw nothing" "$(lab_new raw | head -n 3 | tr '\n' '|')" nothing_in raw
jhost "addresses: metadata, private and the host's loopback saw nothing" "$(inside_log)" inside_quiet
jhost "addresses: the web server saw only the control and the mapped spelling" "$(lab_new web | grep -c '^conn') connections" \
	test "$(lab_new web | grep -c '^conn')" = 2

# ------------------------------------------------------------------ one connection, one host (HTTP)

# The broker checks the first request's Host; a keep-alive connection must not carry a
# second request for another virtual host of the same server (kb.example.net is not
# allowed, and lives on ka.example.com's address).
jrun --profile "$P" -- '
pre k1 atk pipeline ka.example.com 80 "GET /1 HTTP/1.1\r\nHost: ka.example.com\r\n\r\nGET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k2 atk sequential ka.example.com 80 "GET /1 HTTP/1.1\r\nHost: ka.example.com\r\n\r\n" "GET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k3 atk sequential 127.0.0.1 3128 "GET http://ka.example.com/1 HTTP/1.1\r\nHost: ka.example.com\r\n\r\n" "GET http://kb.example.net/2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k4 atk sequential 127.0.0.1 3128 "GET /1 HTTP/1.1\r\nHost: ka.example.com\r\n\r\n" "GET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n" "CONNECT ka.example.com:80 HTTP/1.1\r\nHost: ka.example.com:80\r\n\r\n"
pre k5 atk pipeline ka.example.com 80 "GET /1 HTTP/1.1\r\nHost: ka.example.com\r\nConnection: keep-alive\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k6 atk pipeline ka.example.com 80 "GET /1 HTTP/1.0\r\nHost: ka.example.com\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k7 atk pipeline ka.example.com 80 "GET /1 HTTP/1.1\r\nHost: ka.example.com\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
pre k8 atk pipeline ka.example.com 80 "POST /1 HTTP/1.1\r\nHost: ka.example.com\r\nContent-Length: 5\r\n\r\nhelloGET /2 HTTP/1.1\r\nHost: kb.example.net\r\n\r\n"
fetch ok1 --noproxy "*" http://ka.example.com/ok
fetch ok2 -x http://127.0.0.1:3128 http://ka.example.com/ok2
fetch ok3 -p -x http://127.0.0.1:3128 http://ka.example.com/ok3
curl -sS -m 10 -x http://127.0.0.1:3128 http://ka.example.com/c1 http://kb.example.net/c2 >/tmp/cc 2>&1; echo curlreuse_rc=$?
'
jis "keep-alive: an allowed single request still works directly" ok1_body "ka host=ka.example.com path=/ok"
jis "keep-alive: an allowed single request still works through the proxy" ok2_body "ka host=ka.example.com path=/ok2"
jis "keep-alive: an allowed single request still works through CONNECT" ok3_body "ka host=ka.example.com path=/ok3"
jre "keep-alive: pipelined requests: the first is served" k1_hosts '^ka.example.com'
jhost "keep-alive: the vhost server never served Host kb.example.net (pipelined, sequential, proxy, CONNECT, doubled Connection, HTTP/1.0 keep-alive, CL+TE, body)" \
	"ka log: $(lab_new ka | grep -F kb.example.net | head -n 4 | tr '\n' '|')" \
	test -z "$(lab_new ka | grep -F 'host=kb.example.net')"
jhost "keep-alive: every request the vhost server served was a closing one" \
	"$(lab_new ka | grep '^req' | grep -v 'conn=close' | head -n 3 | tr '\n' '|')" \
	test -z "$(lab_new ka | grep '^req' | grep -v 'conn=close')"

# ------------------------------------------------------------------ TLS hellos, HTTP/2, SOCKS commands

jrun --profile "$P" -- '
pre big atk hello example.com 443 big
pre ech atk hello example.com 443 ech
pre split atk hello example.com 443 split
pre slow atk hello example.com 443 slow
pre bind atk socks_cmd 2 example.com 80
pre udpa atk socks_cmd 3 example.com 80
fetch h2 --noproxy "*" --http2-prior-knowledge http://example.com/
fetch h2c --noproxy "*" --http2 http://example.com/
'
jre "tls: a hello over 16 KiB is refused" big_hello '^(closed|reset)$'
jre "tls: a hello with ECH is refused" ech_hello '^(closed|reset)$'
jis "tls: a hello split in 7-byte records reaches the server (control: the name is read across records)" split_hello answer
jre "tls: a hello dribbled over 12 s (past the 10 s handshake limit) is refused" slow_hello '^(closed|reset|error:(32|104))$'
jis "socks5: BIND is refused (reply 7)" bind_reply 7
jis "socks5: UDP ASSOCIATE is refused (reply 7)" udpa_reply 7
refused "http/2 prior knowledge on port 80 (not HTTP/1, no host:80 rule) is refused" h2
jis "http/2 upgrade (h2c) on port 80: served as HTTP/1.1" h2c_body "hello from web"
jhost "tls/h2/socks: the web server saw the control, the split hello and the h2c request only" \
	"$(lab_new web | grep '^conn' | tr '\n' '|')" test "$(lab_new web | grep -c '^conn')" = 3

# A host:port rule on a web port: the tunnel carries TLS or HTTP, which must name the
# host as on the port itself (no fronting to another name of the same server).
PR=$T/attack-raw.yaml
cat >"$PR" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: ["example.com:443", "example.com:80"]
EOF
jrun --profile "$PR" -- '
pre c0 lc connect-tls 127.0.0.1 3128 example.com:443 example.com "$CA"
pre c1 lc connect-tls 127.0.0.1 3128 example.com:443 other.example.net "$CA"
pre c2 lc rawreq 127.0.0.1 3128 "CONNECT example.com:80 HTTP/1.1\r\nHost: example.com:80\r\n\r\nGET / HTTP/1.1\r\nHost: other.example.net\r\nConnection: close\r\n\r\n"
fetch d1 --noproxy "*" --connect-to other.example.net:443:example.com:443 https://other.example.net/
'
jis "host:443 rule: CONNECT example.com:443 with SNI example.com works" c0_tls ok
jre "host:443 rule: CONNECT example.com:443 carrying SNI other.example.net is refused" c1_tls '^fail:'
refused "host:443 rule: directly, SNI other.example.net to example.com's address is refused" d1
jhost "host:port rules: the web server saw no other.example.net" \
	"$(lab_new web | grep -F other.example.net | head -n 3 | tr '\n' '|')" \
	test -z "$(lab_new web | grep -F other.example.net)"

# ------------------------------------------------------------------ DNS: tunnelling, flood, pool, long names

jrun --profile "$P" -- '
for i in 1 2 3 4 5; do dig +short +tries=1 +time=2 "c2VjcmV0LXdvcmtzcGFjZS0$i.tunnel.example.org" A >/dev/null; done
dig +short +tries=1 +time=2 "c2VjcmV0.tunnel.example.org" TXT >/dev/null
dig +short +tries=1 +time=2 "c2VjcmV0.tunnel.example.org" MX >/dev/null
t0=$(date +%s%N); pre f atk dnsflood 20000; echo f_ms=$((($(date +%s%N) - t0) / 1000000))
l63=$(printf "%063d" 0 | tr 0 a)
pre ln atk longname
echo long61=$(dig +tries=1 +time=2 "$l63.$l63.$l63.${l63:0:49}.example.org" A 2>&1 | sed -n "s/.*status: \([A-Z]*\).*/\1/p" | head -n 1)
dig +short +tries=1 +time=2 www.example.org A >/dev/null
pre p atk pool 4200
fetch after --noproxy "*" https://www.example.org/
'
jhost "dns tunnelling: names made up under an allowed wildcard never reach a DNS server when only resolved" \
	"$(lab_new adns | grep -i tunnel | head -n 3 | tr '\n' '|')" no_query_for tunnel.example.org
jhost "dns tunnelling: nor the lab's dnsmasq" "$(lab_new dns | grep -i tunnel | head -n 3 | tr '\n' '|')" \
	test -z "$(lab_new dns | grep -i tunnel)"
jis "dns flood (20000 UDP questions): the broker still answers" f_flood_ok 1
echo "# dns flood: $(kv f_flood_sent) questions sent in $(kv f_ms) ms"
jhost "dns flood: nothing reached a DNS server" "$(lab_new adns | grep -c flood)" test "$(lab_new adns | grep -c flood)" = 0
jre "dns: a 4x63-byte name (over 253) is refused, not crashed on" ln_long_rcode '^[1-5]$'
jre "dns: a name with a 64-byte label is refused" ln_label_rcode '^([1-5]|none)$'
jre "dns: a name whose labels loop (compression pointer to itself) is refused or dropped" ln_loop_rcode '^([1-5]|none)$'
jis "dns: the broker still answers after the malformed names" ln_after_ok 1
jis "dns: a 253-byte allowed name resolves" long61 NOERROR
jre "dns pool: 4200 distinct names were answered as far as the pool goes" p_pool_ok '^(40[89][0-9])$'
jis "dns pool: a name taken before the pool filled still resolves" p_pool_known 1
jre "dns pool: a new name once the pool is full fails cleanly (SERVFAIL or REFUSED)" p_pool_new_rcode '^(2|5)$'

jis "dns pool: a connection to a name taken before still works" after_body "hello from web"

# ------------------------------------------------------------------ exhaustion: connections held in handshake

rm -f "$WS"/hold.*
jrun_hold='
ulimit -n 4096
atk holdn example.com 443 1100 "$WS/hold.go" >"$WS/hold.out" &
while ! grep -q held= "$WS/hold.out" 2>/dev/null; do sleep 0.1; done
sed "s/^/h_/" "$WS/hold.out"
touch "$WS/hold.phase"
while [ ! -e "$WS/hold.go" ]; do sleep 0.05; done
wait
fetch later --noproxy "*" https://example.com/later
'
( jrun --profile "$P" -- "$jrun_hold" ) &
bg=$!
t_defer_kill "$bg"
if wait_until 60 test -e "$WS/hold.phase"; then
	bpid=$(pgrep -x sbx-egress | head -n 1)
	cpu0=$(awk '{print $14+$15}' "/proc/$bpid/stat" 2>/dev/null)
	# A second jail while the first holds its broker full.
	OUT2=$T/out2 ERR2=$T/err2
	printf 'curl -sS -m 20 --cacert %q --noproxy "*" https://example.com/ 2>&1\n' "$LAB_CA" >"$WS/second.sh"
	timeout 60 ip netns exec "$LAB_NS" "$SBX_RUN" --workspace "$WS" --profile "$P" -- /bin/bash "$WS/second.sh" >"$OUT2" 2>"$ERR2" </dev/null
	t_check "exhaustion: a second jail's broker works while the first's is full" "$(head -c 200 "$OUT2") $(head -c 200 "$ERR2")" \
		grep -q 'hello from web' "$OUT2"
	sleep 2
	cpu1=$(awk '{print $14+$15}' "/proc/$bpid/stat" 2>/dev/null)
	t_check "exhaustion: the full broker does not spin (cpu ticks over the second jail's run: $((cpu1 - cpu0)))" \
		"broker $bpid ticks $cpu0 -> $cpu1" test -n "$cpu0" -a -n "$cpu1" -a "$((cpu1 - cpu0))" -lt 100
	touch "$WS/hold.go"
else
	touch "$WS/hold.go"
	t_fail "exhaustion: the jail held its connections" "$(head -c 300 "$WS/hold.out" 2>/dev/null)"
fi
wait "$bg"
jre "exhaustion: the jail opened 1024 or more connections" h_held '^1[01][0-9][0-9]$'
jis "exhaustion: once they close, the jail's next connection works" later_body "hello from web"

# ------------------------------------------------------------------ exhaustion: the broker's fd limit

# sbx-run (so its broker) with a soft RLIMIT_NOFILE of 256, as a login shell's 1024
# would be for a bigger jail: 300 connections held must not make the broker spin on
# EMFILE (its listener stays readable), and it must serve again once they close.
rm -f "$WS"/fdh.*
jrun_fd='
ulimit -S -n 4096 2>/dev/null
atk holdn raw.example.net 2222 300 "$WS/fdh.go" >"$WS/fdh.out" &
while ! grep -q held= "$WS/fdh.out" 2>/dev/null; do sleep 0.1; done
sed "s/^/h_/" "$WS/fdh.out"
touch "$WS/fdh.phase"
while [ ! -e "$WS/fdh.go" ]; do sleep 0.05; done
wait
sleep 1
fetch later --noproxy "*" https://example.com/later
echo later_raw=$(echo raw-later | timeout 10 nc -N raw.example.net 2222 2>&1)
'
( ulimit -S -n 256; jrun --profile "$P" -- "$jrun_fd" ) &
bg=$!
t_defer_kill "$bg"
if wait_until 60 test -e "$WS/fdh.phase"; then
	bpid=""
	for p in $(pgrep -x sbx-egress); do
		grep -q 'Max open files *256 ' "/proc/$p/limits" 2>/dev/null && bpid=$p
	done
	cpu0=$(awk '{print $14+$15}' "/proc/$bpid/stat" 2>/dev/null)
	sleep 3
	cpu1=$(awk '{print $14+$15}' "/proc/$bpid/stat" 2>/dev/null)
	touch "$WS/fdh.go"
	t_check "fd limit: the broker does not spin while its fds are exhausted ($((cpu1 - cpu0)) ticks in 3 s)" \
		"broker '$bpid' ticks $cpu0 -> $cpu1" test -n "$bpid" -a -n "$cpu0" -a -n "$cpu1" -a "$((cpu1 - cpu0))" -lt 60
else
	touch "$WS/fdh.go"
	t_fail "fd limit: the jail held its connections" "$(head -c 300 "$WS/fdh.out" 2>/dev/null)"
fi
wait "$bg"
jre "fd limit: the jail opened its connections" h_held '^[0-9]+$'
jis "fd limit: once they close, https through the broker works again" later_body "hello from web"
jis "fd limit: once they close, raw TCP through the broker works again" later_raw "raw-later"

# ------------------------------------------------------------------ the broker process

{ printf 'WS=%q\n' "$WS"; cat <<'EOF'
touch "$WS/bp.phase"
while [ ! -e "$WS/bp.go" ]; do sleep 0.05; done
EOF
} >"$WS/bp.sh"
rm -f "$WS"/bp.phase "$WS"/bp.go
( timeout -k 5 60 ip netns exec "$LAB_NS" "$SBX_RUN" --workspace "$WS" --profile "$P" -- /bin/bash "$WS/bp.sh" >/dev/null 2>&1 </dev/null; true ) 2>/dev/null &
bg=$!
t_defer_kill "$bg"
if wait_until 30 test -e "$WS/bp.phase"; then
	run=""
	for p in $(pgrep -x sbx-run); do
		grep -qF "$WS/bp.sh" "/proc/$p/cmdline" 2>/dev/null && run=$p
	done
	bp=""
	[[ -n $run ]] && bp=$(pgrep -P "$run" -x sbx-egress | head -n 1)
	if [[ -n $bp ]]; then
		t_check "broker: no capability in any set" "$(grep ^Cap "/proc/$bp/status" | tr '\n' ' ')" \
			test -z "$(grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' "/proc/$bp/status" | grep -v '0000000000000000')"
		# uid 0 without capabilities still owns and may write /etc/crontab, systemd units,
		# /etc/shadow: a broker that a parser bug hands to the jail must not be root.
		t_check "broker: not uid 0 or gid 0, no supplementary groups" "$(grep -E '^(Uid|Gid|Groups):' "/proc/$bp/status" | tr '\n\t' '  ')" \
			test -z "$(awk '/^(Uid|Gid):/ { for (i = 2; i <= NF; i++) if ($i == 0) print }' "/proc/$bp/status")" -a \
			-z "$(awk '/^Groups:/ { for (i = 2; i <= NF; i++) print $i }' "/proc/$bp/status")"
		t_check "broker: no_new_privs" "$(grep NoNewPrivs "/proc/$bp/status")" grep -q 'NoNewPrivs:.*1' "/proc/$bp/status"
		fds=$(ls -l "/proc/$bp/fd" 2>/dev/null | awk 'NR > 1 { print $NF }' | sort | tr '\n' ' ')
		t_check "broker: holds no file, directory or pidfd (only sockets, /dev/null, event fds)" "$fds" \
			test -z "$(echo "$fds" | tr ' ' '\n' | grep -v -E '^(socket:|/dev/null$|anon_inode:|pipe:|$)')"
		t_check "broker: is in the host's network namespace, not the jail's" "$(readlink "/proc/$bp/ns/net")" \
			test "$(readlink "/proc/$bp/ns/net")" = "$(readlink "/proc/$run/ns/net")"
		# Facts for the report: where the broker's CPU and memory are charged.
		jb=$(pgrep -f "$WS/bp.sh" | grep -v "^$run\$" | tail -n 1)
		echo "# broker $bp cgroup $(cut -d: -f3 "/proc/$bp/cgroup"), sbx-run $(cut -d: -f3 "/proc/$run/cgroup"), jail bash $jb $(cut -d: -f3 "/proc/$jb/cgroup" 2>/dev/null); broker $(grep -E '^(VmRSS|Threads)' "/proc/$bp/status" | tr -s '\t\n ' ' '); nofile $(awk '/Max open files/ {print $4"/"$5}' "/proc/$bp/limits")"
		kill -9 "$run"
		t_check "broker: gone within 5 s of sbx-run's SIGKILL" "pid $bp still there" wait_until 5 eval "! kill -0 $bp 2>/dev/null"
	else
		t_fail "broker: found" "no sbx-egress child of $run"
	fi
else
	t_fail "broker: the jail started" "no phase file"
fi
touch "$WS/bp.go"
wait "$bg" 2>/dev/null
exit 0
