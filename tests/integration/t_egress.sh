#!/bin/bash
# The egress broker (issue 13), against real servers in a fake internet that never
# sends a packet off the machine (tests/netlab.sh: names, addresses, servers, logs).
# sbx-run runs in the lab's "host" namespace, whose resolver is the lab's dnsmasq;
# every assertion that something was refused is also checked from the server side
# (the server's log got no connection, the lab DNS got no query), and every jail
# run also does one allowed fetch first, so a refusal cannot pass because the jail,
# the broker or the network was broken as a whole.  A case whose jail did not run
# at all fails as "not tested", never passes and never skips.
#
# Profile keys (network: {mode, allow, deny}), CLI (--net filtered, --net-deny),
# refusal codes (X-Sbx-Error, SOCKS reply 2), --json's "network" and the SBX_NET_*
# journal fields are the ones issue 13's design names.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../netlab.sh"
. "$(dirname "$0")/../netcase.sh"
. "$(dirname "$0")/../journal.sh"
t_init
SBX_HANG=${SBX_EGRESS_HANG:-90}

if ! command -v dnsmasq >/dev/null || ! command -v dig >/dev/null || ! command -v curl >/dev/null; then
	t_fail "lab: tools" "needs dnsmasq, dig, curl, nc, socat, openssl ('make deps')"
	exit 0
fi
if ! lab_start 2>"$T/lab.err"; then
	t_fail "lab: starts" "$(head -c 500 "$T/lab.err")"
	exit 0
fi
if lab_selftest >"$T/selftest" 2>&1; then
	t_ok "lab: every server answers, every name resolves, no route out"
else
	t_fail "lab: selftest" "$(grep FAIL "$T/selftest" | tr '\n' '|')"
	exit 0
fi
cp "$LAB_TOOLS/labclient.py" "$WS/labclient.py"

# ------------------------------------------------------------------ profiles

MAIN=$T/egress.yaml
cat >"$MAIN" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: [example.com, "*.example.org", "raw.example.net:2222", meta.example.com,
          private.example.com, v6.example.com, redirect.example.com]
  deny: ["bad.example.org"]
EOF
ADDR=$T/egress-addr.yaml
cat >"$ADDR" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: ["192.0.2.66:80", example.com]
EOF

# ------------------------------------------------------------------ running a case

no_query_for() { # NAME: the lab DNS saw no question about NAME (or a subdomain)
	! lab_new dns | grep -Fqi "$1"
}

in_net() { # ADDR NET
	"$PYTHON" -c 'import ipaddress, sys
sys.exit(0 if ipaddress.ip_address(sys.argv[1]) in ipaddress.ip_network(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null
}

# ------------------------------------------------------------------ the jail's view

jrun --profile "$MAIN" -- '
echo resolv=$(grep -v "^#" /etc/resolv.conf | tr -s " \n" " " | sed "s/ $//")
for v in HTTP_PROXY HTTPS_PROXY ALL_PROXY http_proxy https_proxy all_proxy; do echo "env_$v=${!v:-unset}"; done
dns a example.com A
dns w www.example.org A
dns v6 v6.example.com AAAA
dns bad bad.example.org A
dns badaaaa bad.example.org AAAA
dns other other.example.net A
dns exfil c2VjcmV0LXdvcmtzcGFjZQ.other.example.net A
dns exfil2 c2VjcmV0.other.example.net TXT
dns gh github.com A
getent hosts bad.example.org >/dev/null && echo getent_bad=resolved || echo getent_bad=failed
# around the broker: straight to the lab DNS server
o=$(dig +tries=1 +time=2 @192.0.2.53 other.example.net A 2>&1)
echo direct_dns=$(grep -c "192.0.2.10" <<<"$o")
'
jis "jail resolv.conf is nameserver 127.0.0.1" resolv "nameserver 127.0.0.1"
for v in HTTP_PROXY HTTPS_PROXY http_proxy https_proxy; do
	jis "proxy env: $v" "env_$v" "http://127.0.0.1:3128"
done
for v in ALL_PROXY all_proxy; do
	jre "proxy env: $v" "env_$v" '^(http|socks5h)://127\.0\.0\.1:3128/?$'
done
jis "dns: allowed example.com answers" a_status NOERROR
jhost "dns: example.com's answer is synthetic (198.18.0.0/15)" "answer: $(kv a_ans)" in_net "$(kv a_ans)" 198.18.0.0/15
jhost "dns: *.example.org allows www.example.org (synthetic)" "status $(kv w_status) answer $(kv w_ans)" in_net "$(kv w_ans)" 198.18.0.0/15
jhost "dns: v6.example.com AAAA is synthetic (fd5b:7800::/64)" "status $(kv v6_status) answer $(kv v6_ans)" in_net "$(kv v6_ans)" fd5b:7800::/64
jis "dns: denied bad.example.org is NXDOMAIN" bad_status NXDOMAIN
jis "dns: denied bad.example.org AAAA is NXDOMAIN" badaaaa_status NXDOMAIN
jis "dns: not-allowlisted other.example.net is NXDOMAIN" other_status NXDOMAIN
jis "dns: a tunnelled label under a not-allowlisted name is NXDOMAIN" exfil_status NXDOMAIN
jis "dns: TXT under a not-allowlisted name is NXDOMAIN" exfil2_status NXDOMAIN
jis "dns: github.com (outside every rule) is NXDOMAIN" gh_status NXDOMAIN
jis "dns: getent hosts bad.example.org fails" getent_bad failed
jis "dns: a query straight to the lab DNS (192.0.2.53) gets no answer" direct_dns 0
for n in bad.example.org other.example.net c2VjcmV0 github.com; do
	jhost "dns: the lab DNS saw no query for $n" "dns log: $(lab_new dns | grep -Fi "$n" | head -n 2 | tr '\n' '|')" no_query_for "$n"
done

# ------------------------------------------------------------------ allowed, every way in

jrun --profile "$MAIN" -- '
fetch https --noproxy "*" https://example.com/
fetch http --noproxy "*" http://example.com/
fetch wild --noproxy "*" https://www.example.org/
fetch envs -v https://example.com/
echo envs_connect=$(grep -c "CONNECT example.com:443" /tmp/e.envs)
fetch envh -v http://example.com/
echo envh_absolute=$(grep -c "GET http://example.com/" /tmp/e.envh)
fetch xs -x http://127.0.0.1:3128 https://www.example.org/
fetch xh -x http://127.0.0.1:3128 http://example.com/
fetch socks --socks5-hostname 127.0.0.1:3128 https://example.com/
fetch socksh -x socks5h://127.0.0.1:3128 http://www.example.org/
cat >/tmp/u.py <<EOF
import ssl, sys, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[1])
def get(opener):
    try:
        return opener.open(sys.argv[2], timeout=20).read().decode().strip()
    except Exception as e:
        return "error:%s" % e
print("py_env=%s" % get(urllib.request.build_opener(urllib.request.HTTPSHandler(context=ctx))))
print("py_direct=%s" % get(urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))))
EOF
/usr/bin/python3 /tmp/u.py "$CA" https://example.com/
echo git_env=$(git ls-remote http://example.com/git/repo.git 2>&1 | awk "/refs\/heads\/main/ { print \$1 }")
echo git_direct=$(env -u http_proxy -u HTTP_PROXY -u all_proxy -u ALL_PROXY git ls-remote http://example.com/git/repo.git 2>&1 | awk "/refs\/heads\/main/ { print \$1 }")
echo git_https=$(GIT_SSL_CAINFO=$CA git ls-remote https://example.com/git/repo.git 2>&1 | awk "/refs\/heads\/main/ { print \$1 }")
'
jis "curl https://example.com/ directly" https_body "hello from web"
jis "curl http://example.com/ directly" http_body "hello from web"
jis "curl https://www.example.org/ directly (wildcard rule)" wild_body "hello from web"
jis "curl https://example.com/ through the proxy env" envs_body "hello from web"
jre "curl https:// with the env goes through CONNECT" envs_connect '^[1-9]'
jis "curl http://example.com/ through the proxy env" envh_body "hello from web"
jre "curl http:// with the env sends absolute-form to the proxy" envh_absolute '^[1-9]'
jis "curl -x http://127.0.0.1:3128 https://www.example.org/" xs_body "hello from web"
jis "curl -x http://127.0.0.1:3128 http://example.com/" xh_body "hello from web"
jis "curl --socks5-hostname 127.0.0.1:3128 https://example.com/" socks_body "hello from web"
jis "curl -x socks5h://127.0.0.1:3128 http://www.example.org/" socksh_body "hello from web"
jis "python3 urllib https through the proxy env" py_env "hello from web"
jis "python3 urllib https directly" py_direct "hello from web"
jis "git ls-remote http:// through the proxy env" git_env "$LAB_GIT_HEAD"
jis "git ls-remote http:// directly" git_direct "$LAB_GIT_HEAD"
jis "git ls-remote https:// through the proxy env" git_https "$LAB_GIT_HEAD"
jhost "web server saw SNI example.com from the host side" "web log: $(lab_new web | head -n 5 | tr '\n' '|')" \
	lab_seen web 'sni name=example.com$'
jhost "web server saw SNI www.example.org" "web log: $(lab_new web | head -n 5 | tr '\n' '|')" \
	lab_seen web 'sni name=www.example.org$'
jhost "every connection the web server got came from the host side (198.51.100.2)" \
	"$(lab_new web | grep '^conn' | grep -v 'peer=198.51.100.2 ' | head -n 3 | tr '\n' '|')" \
	test -z "$(lab_new web | grep '^conn' | grep -v 'peer=198.51.100.2 ')"

# ------------------------------------------------------------------ denied and not allowlisted

jrun --profile "$MAIN" -- '
fetch d1 --noproxy "*" https://bad.example.org/
fetch d2 --noproxy "*" http://bad.example.org/
fetch d3 -x http://127.0.0.1:3128 http://bad.example.org/
fetch d4 -x http://127.0.0.1:3128 https://bad.example.org/
fetch d5 https://bad.example.org/
fetch n1 -x http://127.0.0.1:3128 http://other.example.net/
fetch n2 -x http://127.0.0.1:3128 https://other.example.net/
fetch n3 --noproxy "*" https://other.example.net/
pre s1 lc socks5 127.0.0.1 3128 bad.example.org 443
pre s2 lc socks5 127.0.0.1 3128 other.example.net 80
fetch p1 -x http://127.0.0.1:3128 https://example.com:8443/
'
jis "denied: https://bad.example.org/ directly does not resolve (curl 6)" d1_rc 6
jis "denied: http://bad.example.org/ directly does not resolve (curl 6)" d2_rc 6
xerr "denied: proxy http://bad.example.org/ is 403 denied" d3 denied
xerr "denied: proxy CONNECT bad.example.org:443 is 403 denied" d4 denied
xerr "denied: https://bad.example.org/ through the env is 403 denied" d5 denied
xerr "not allowlisted: proxy http://other.example.net/ is 403 not-allowlisted" n1 not-allowlisted
xerr "not allowlisted: proxy CONNECT other.example.net:443 is 403 not-allowlisted" n2 not-allowlisted
jis "not allowlisted: https://other.example.net/ directly does not resolve" n3_rc 6
jis "denied: SOCKS5 to bad.example.org:443 gets reply 2" s1_socks_reply 2
jis "not allowlisted: SOCKS5 to other.example.net:80 gets reply 2" s2_socks_reply 2
xerr "port-less rule: CONNECT example.com:8443 is 403 not-allowlisted" p1 not-allowlisted
jhost "denied: the bad server saw no connection" "bad log: $(lab_new bad | head -n 3 | tr '\n' '|')" nothing_in bad
jhost "not allowlisted: the web server saw no other.example.net" "$(lab_new web | grep other | head -n 2)" \
	test -z "$(lab_new web | grep -F other.example.net)"
jhost "web server saw no connection on :8443 or for a refused name" "$(lab_new web | grep -c '^conn') connections (control only: 1)" \
	test "$(lab_new web | grep -c '^conn')" = 1
for n in bad.example.org other.example.net; do
	jhost "denied: the lab DNS saw no query for $n" "$(lab_new dns | grep -F "$n" | head -n 2 | tr '\n' '|')" no_query_for "$n"
done

# ------------------------------------------------------------------ SSRF: names that resolve inside

jrun --profile "$MAIN" -- '
dns m meta.example.com A
fetch m1 -x http://127.0.0.1:3128 http://meta.example.com/
fetch m2 -x http://127.0.0.1:3128 https://meta.example.com/
fetch m3 --noproxy "*" http://meta.example.com/latest/meta-data/
fetch m4 http://meta.example.com/
pre m5 lc socks5 127.0.0.1 3128 meta.example.com 80
fetch p1 -x http://127.0.0.1:3128 http://private.example.com/
fetch p2 -x http://127.0.0.1:3128 https://private.example.com/
fetch p3 --noproxy "*" https://private.example.com/
fetch p4 --noproxy "*" http://private.example.com/
pre p5 lc socks5 127.0.0.1 3128 private.example.com 443
'
jis "ssrf: meta.example.com (allowed name) resolves in the jail" m_status NOERROR
xerr "ssrf: proxy http://meta.example.com/ is 403 ssrf-metadata" m1 ssrf-metadata
xerr "ssrf: proxy CONNECT meta.example.com:443 is 403 ssrf-metadata" m2 ssrf-metadata
refused "ssrf: http://meta.example.com/ directly is refused" m3
xerr "ssrf: http://meta.example.com/ through the env is 403 ssrf-metadata" m4 ssrf-metadata
jis "ssrf: SOCKS5 to meta.example.com:80 gets reply 2" m5_socks_reply 2
xerr "ssrf: proxy http://private.example.com/ is 403 ssrf-private" p1 ssrf-private
xerr "ssrf: proxy CONNECT private.example.com:443 is 403 ssrf-private" p2 ssrf-private
refused "ssrf: https://private.example.com/ directly is refused" p3
refused "ssrf: http://private.example.com/ directly is refused" p4
jis "ssrf: SOCKS5 to private.example.com:443 gets reply 2" p5_socks_reply 2
jhost "ssrf: the metadata server saw no connection" "meta log: $(lab_new meta | head -n 3 | tr '\n' '|')" nothing_in meta
jhost "ssrf: the private server saw no connection" "private log: $(lab_new private | head -n 3 | tr '\n' '|')" nothing_in private

# ------------------------------------------------------------------ SNI and Host must be the name

jrun --profile "$MAIN" -- '
fetch sni1 --noproxy "*" --connect-to www.example.org:443:example.com:443 https://www.example.org/
fetch sni2 --noproxy "*" --connect-to bad.example.org:443:example.com:443 https://bad.example.org/
fetch sni3 --noproxy "*" --connect-to other.example.net:443:example.com:443 https://other.example.net/
pre ns lc no-sni example.com 443 "$CA"
fetch h1 --noproxy "*" -H "Host: bad.example.org" http://example.com/
fetch h2 --noproxy "*" --connect-to www.example.org:80:example.com:80 http://www.example.org/
fetch h3 --noproxy "*" -H "Host: other.example.net" http://example.com/
pre h4 lc rawreq 127.0.0.1 3128 "GET http://example.com/ HTTP/1.1\r\nHost: bad.example.org\r\nConnection: close\r\n\r\n"
pre c0 lc connect-tls 127.0.0.1 3128 example.com:443 example.com "$CA"
pre c1 lc connect-tls 127.0.0.1 3128 example.com:443 bad.example.org "$CA"
pre c2 lc connect-tls 127.0.0.1 3128 example.com:443 other.example.net "$CA"
'
refused "sni: www.example.org's SNI to example.com's address is refused" sni1
refused "sni: bad.example.org's SNI to example.com's address is refused" sni2
refused "sni: other.example.net's SNI to example.com's address is refused" sni3
jre "sni: a ClientHello without a server name is refused" ns_nosni '^fail:'
xerr "host: Host bad.example.org to example.com's address is 403 host-mismatch" h1 host-mismatch
xerr "host: Host www.example.org to example.com's address is 403 host-mismatch" h2 host-mismatch
xerr "host: Host other.example.net to example.com's address is 403 host-mismatch" h3 host-mismatch
jis "sni: control: CONNECT example.com:443 with SNI example.com works" c0_tls ok
jre "sni: CONNECT example.com:443 carrying SNI bad.example.org (domain fronting) is refused" c1_tls '^fail:'
jre "sni: CONNECT example.com:443 carrying SNI other.example.net is refused" c2_tls '^fail:'
jhost "sni/host: the web server saw no other SNI or Host than example.com" \
	"$(lab_new web | grep -E '^(sni|req)' | grep -v -E 'name=example.com$|host=example.com ' | head -n 4 | tr '\n' '|')" \
	test -z "$(lab_new web | grep -E '^(sni|req)' | grep -v -E 'name=example.com$|host=example.com ')"
jhost "sni/host: the web server saw only the two controls' connections" "$(lab_new web | grep -c '^conn') connections" \
	test "$(lab_new web | grep -c '^conn')" = 2
jhost "sni/host: the bad server saw nothing" "$(lab_new bad | head -n 2 | tr '\n' '|')" nothing_in bad

# ------------------------------------------------------------------ raw TCP by host:port only

jrun --profile "$MAIN" -- '
echo r1=$(echo raw-2222 | timeout 10 nc -N raw.example.net 2222 2>&1)
echo r2=$(echo raw-2223 | timeout 10 nc -N raw.example.net 2223 2>&1)
pre r3 lc socks5 127.0.0.1 3128 raw.example.net 2223
fetch r4 -x http://127.0.0.1:3128 http://raw.example.net/
echo r5=$(echo raw-80 | timeout 10 nc -N raw.example.net 80 2>&1)
'
jis "raw: raw.example.net:2222 (host:port rule) echoes" r1 raw-2222
jnre "raw: raw.example.net:2223 (no rule) gets no echo" r2 'raw-2223'
jis "raw: SOCKS5 to raw.example.net:2223 gets reply 2" r3_socks_reply 2
xerr "raw: http://raw.example.net/ (port 80, host:port rule only) is 403 not-allowlisted" r4 not-allowlisted
jnre "raw: raw.example.net:80 directly gets no echo" r5 'raw-80'
jhost "raw: the echo server saw one connection, on 2222" "$(lab_new raw | grep '^conn' | tr '\n' '|')" \
	test "$(lab_new raw | grep '^conn' | sed 's/.*local=//' | tr '\n' ' ')" = "192.0.2.20:2222 "

# ------------------------------------------------------------------ address literals and their disguises

jrun --profile "$MAIN" -- '
fetch l1 --noproxy "*" http://192.0.2.66/
fetch l2 -x http://127.0.0.1:3128 http://192.0.2.66/
fetch l3 --noproxy "*" https://192.0.2.10/
fetch l4 --noproxy "*" http://0x7f.1/
fetch l5 --noproxy "*" "http://[::ffff:169.254.169.254]/"
fetch l6 --noproxy "*" http://169.254.169.254/
fetch l7 --noproxy "*" http://2852039166/
fetch l8 --noproxy "*" http://10.0.0.5/
pre f1 lc rawreq 127.0.0.1 3128 "GET http://0x7f.1/ HTTP/1.1\r\nHost: 0x7f.1\r\nConnection: close\r\n\r\n"
pre f2 lc rawreq 127.0.0.1 3128 "CONNECT 0x7f.1:80 HTTP/1.1\r\nHost: 0x7f.1:80\r\n\r\n"
pre f3 lc rawreq 127.0.0.1 3128 "GET http://[::ffff:169.254.169.254]/ HTTP/1.1\r\nHost: [::ffff:169.254.169.254]\r\nConnection: close\r\n\r\n"
pre f4 lc rawreq 127.0.0.1 3128 "CONNECT [::ffff:a9fe:a9fe]:80 HTTP/1.1\r\nHost: [::ffff:a9fe:a9fe]:80\r\n\r\n"
pre f5 lc rawreq 127.0.0.1 3128 "GET http://2852039166/ HTTP/1.1\r\nHost: 2852039166\r\nConnection: close\r\n\r\n"
pre f6 lc rawreq 127.0.0.1 3128 "GET http://127.0.0.1./ HTTP/1.1\r\nHost: 127.0.0.1.\r\nConnection: close\r\n\r\n"
pre f7 lc rawreq 127.0.0.1 3128 "GET http://[::1]/ HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n"
pre s1 lc socks5 127.0.0.1 3128 0x7f.1 80
pre s2 lc socks5 127.0.0.1 3128 ::ffff:169.254.169.254 80
pre s3 lc socks5 127.0.0.1 3128 169.254.169.254 80
'
refused "literal: http://192.0.2.66/ directly is refused (no address rule)" l1
xerr "literal: proxy http://192.0.2.66/ is 403 not-allowlisted" l2 not-allowlisted
refused "literal: https://192.0.2.10/ directly is refused (the name's server, by address)" l3
refused "literal: http://0x7f.1/ directly is refused" l4
refused "literal: http://[::ffff:169.254.169.254]/ directly is refused" l5
refused "literal: http://169.254.169.254/ directly is refused" l6
refused "literal: http://2852039166/ (decimal 169.254.169.254) directly is refused" l7
refused "literal: http://10.0.0.5/ directly is refused" l8
for k in f1 f2 f3 f4 f5 f6 f7; do
	jis "literal: proxy form $k is 403 ($(sed -n "s/^pre $k lc rawreq 127.0.0.1 3128 \"\([A-Z]* [^ ]*\).*/\1/p" "$WS/case.sh"))" "${k}_status" 403
done
jnre "literal: SOCKS5 to 0x7f.1:80 is refused" s1_socks_reply '^0$'
jnre "literal: SOCKS5 to ::ffff:169.254.169.254 is refused" s2_socks_reply '^0$'
jnre "literal: SOCKS5 to 169.254.169.254 is refused" s3_socks_reply '^0$'
jhost "literal: the bad server saw no connection" "$(lab_new bad | head -n 2 | tr '\n' '|')" nothing_in bad
jhost "literal: the metadata server saw no connection" "$(lab_new meta | head -n 2 | tr '\n' '|')" nothing_in meta
jhost "literal: the private server saw no connection" "$(lab_new private | head -n 2 | tr '\n' '|')" nothing_in private
jhost "literal: the host side's loopback saw no connection" "$(lab_new loopback | head -n 2 | tr '\n' '|')" nothing_in loopback
jhost "literal: the web server saw only the control's connection" "$(lab_new web | grep -c '^conn') connections" \
	test "$(lab_new web | grep -c '^conn')" = 1

# An address rule opens that address and port, and no name.
jrun --profile "$ADDR" -- '
fetch a1 --noproxy "*" http://192.0.2.66/
fetch a2 -x http://127.0.0.1:3128 http://192.0.2.66/
fetch a3 --noproxy "*" https://192.0.2.66/
fetch a4 --noproxy "*" http://bad.example.org/
'
jis "address rule: http://192.0.2.66/ directly with allow 192.0.2.66:80" a1_body "hello from bad"
jis "address rule: proxy http://192.0.2.66/ with allow 192.0.2.66:80" a2_body "hello from bad"
refused "address rule: https://192.0.2.66/ (port 443, not in the rule) is refused" a3
jis "address rule: the name bad.example.org is still not allowed (curl 6)" a4_rc 6
jhost "address rule: the bad server saw exactly the two port-80 requests" "$(lab_new bad | tr '\n' '|')" \
	test "$(lab_new bad | grep -c '^req proto=http host=192.0.2.66 ')" = 2 -a "$(lab_new bad | grep -c ':443$')" = 0

# ------------------------------------------------------------------ UDP

tag=udp-$$-$RANDOM
jrun --profile "$MAIN" -- "
echo $tag-nc | timeout 5 nc -u -w1 192.0.2.20 9999; echo nc_rc=\$?
pre u1 lc udp 192.0.2.20 9999 $tag-py
pre u2 lc udp raw.example.net 9999 $tag-name
pre u3 lc udp 2001:db8::10 9999 $tag-v6
"
jhost "udp: sends from the jail never reach the lab's UDP listener" \
	"udp log: $(lab_new udp | grep "$tag" | head -n 3 | tr '\n' '|')" \
	eval 'lab_udp_settle && ! lab_new udp | grep -q "$tag"'

# ------------------------------------------------------------------ IPv6

jrun --profile "$MAIN" -- '
fetch v1 --noproxy "*" https://v6.example.com/
fetch v2 --noproxy "*" http://v6.example.com/
fetch v3 -x http://127.0.0.1:3128 https://v6.example.com/
fetch v4 -6 --noproxy "*" "http://[2001:db8::10]/"
fetch v5 -x http://127.0.0.1:3128 "http://[2001:db8::10]/"
fetch v6 --noproxy "*" "http://[fd00:ec2::254]/"
'
jis "ipv6: https://v6.example.com/ directly" v1_body "hello from v6"
jis "ipv6: http://v6.example.com/ directly" v2_body "hello from v6"
jis "ipv6: proxy https://v6.example.com/" v3_body "hello from v6"
refused "ipv6: curl -6 http://[2001:db8::10]/ (literal) is refused" v4
xerr "ipv6: proxy http://[2001:db8::10]/ is 403 not-allowlisted" v5 not-allowlisted
refused "ipv6: http://[fd00:ec2::254]/ (AWS metadata v6) is refused" v6
jhost "ipv6: the v6 server saw SNI v6.example.com" "$(lab_new v6 | head -n 4 | tr '\n' '|')" lab_seen v6 'sni name=v6.example.com$'
jhost "ipv6: the v6 server saw nothing on :80 by literal" "$(lab_new v6 | grep 'host=\[' | head -n 2)" \
	test -z "$(lab_new v6 | grep -F 'host=[2001:db8::10]')"

# ------------------------------------------------------------------ redirects to inside

jrun --profile "$MAIN" -- '
fetch r1 --noproxy "*" -L "http://redirect.example.com/redirect?to=http://169.254.169.254/"
fetch r2 -L "http://redirect.example.com/redirect?to=http://169.254.169.254/"
fetch r3 -L "http://redirect.example.com/redirect?to=http://meta.example.com/"
fetch r4 --noproxy "*" -L "https://redirect.example.com/redirect?to=http://127.0.0.1/"
fetch r5 -L "https://redirect.example.com/redirect?to=http://private.example.com/"
'
refused "redirect: -L to http://169.254.169.254/ directly is refused at the second hop" r1
refused "redirect: -L to http://169.254.169.254/ through the proxy is refused at the second hop" r2
xerr "redirect: -L to http://meta.example.com/ through the proxy is 403 ssrf-metadata" r3 ssrf-metadata
refused "redirect: -L to http://127.0.0.1/ directly is refused" r4
xerr "redirect: -L to http://private.example.com/ through the proxy is 403 ssrf-private" r5 ssrf-private
jhost "redirect: the first hops reached the web server" "$(lab_new web | grep -c 'path=/redirect') redirect requests" \
	test "$(lab_new web | grep -c 'path=/redirect')" = 5
jhost "redirect: the metadata server saw nothing" "$(lab_new meta | head -n 2 | tr '\n' '|')" nothing_in meta
jhost "redirect: the private server saw nothing" "$(lab_new private | head -n 2 | tr '\n' '|')" nothing_in private
jhost "redirect: the host side's loopback saw nothing" "$(lab_new loopback | head -n 2 | tr '\n' '|')" nothing_in loopback

# ------------------------------------------------------------------ the CLI narrows

jrun --profile "$MAIN" --net-deny www.example.org --net-deny 'raw.example.net:2222' -- '
dns w www.example.org A
fetch w1 -x http://127.0.0.1:3128 https://www.example.org/
echo r1=$(echo raw-2222 | timeout 10 nc -N raw.example.net 2222 2>&1)
'
jis "--net-deny www.example.org: NXDOMAIN" w_status NXDOMAIN
xerr "--net-deny www.example.org: proxy CONNECT is 403 denied" w1 denied
jnre "--net-deny raw.example.net:2222: no echo" r1 'raw-2222'
jhost "--net-deny: the lab DNS saw no query for www.example.org" "$(lab_new dns | grep www | head -n 2)" no_query_for www.example.org
jhost "--net-deny: the echo server saw nothing" "$(lab_new raw | head -n 2 | tr '\n' '|')" nothing_in raw

# --net none on a filtered profile: no broker, no network (this run has no control).
cat >"$WS/none.sh" <<'EOF'
echo ran=1
echo d=$(dig +tries=1 +time=2 +short example.com 2>&1 | head -n 1)
curl -sS -m 5 --noproxy '*' http://example.com/ >/dev/null 2>&1; echo c=$?
echo p=$(curl -s -m 5 -x http://127.0.0.1:3128 -D - -o /dev/null http://example.com/ 2>&1 | tr -d '\r' | grep -i '^x-sbx-error' | cut -d' ' -f2)
EOF
lab_mark
lab_sbx --workspace "$WS" --profile "$MAIN" --net none -- /bin/bash "$WS/none.sh"
if [[ $(kv ran) == 1 ]]; then
	t_check "--net none on a filtered profile: no name resolves" "dig: $(kv d)" test -z "$(kv d | grep -E '^[0-9]')"
	t_check "--net none on a filtered profile: curl directly fails" "curl exit $(kv c)" test "$(kv c)" != 0
	t_check "--net none on a filtered profile: the proxy port answers that there is no network" "X-Sbx-Error $(kv p)" \
		test "$(kv p)" = no-network
else
	t_fail "--net none on a filtered profile runs" "$(run_info)"
fi
# --net filtered on the command line: a profile whose mode is none cannot be widened.
lab_sbx --workspace "$WS" --profile workspace --net filtered -- /bin/true
t_check "--net filtered under network: none is refused as a widening (the CLI only narrows), not as an unknown value" \
	"$(run_info)" test "$RC" != 0 -a -n "$(grep -i 'filtered' "$ERR")" -a -z "$(grep -F "'filtered' is not valid" "$ERR")"

# ------------------------------------------------------------------ --json

jrun --profile "$MAIN" --json -- '
fetch j1 --noproxy "*" https://example.com/
fetch j2 -x http://127.0.0.1:3128 http://bad.example.org/
fetch j3 -x http://127.0.0.1:3128 http://meta.example.com/
'
if ran "--json: network summary" && json_last; then
	tail -n 1 "$ERR" >"$T/summary.json"
	"$PYTHON" - "$T/summary.json" >"$T/net.kv" 2>&1 <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
n = o.get("network")
if not isinstance(n, dict):
    print("has_network=0"); sys.exit(0)
print("has_network=1")
def find(lst, **kw):
    for e in lst or []:
        if all(str(e.get(k)) == str(v) for k, v in kw.items()):
            return e
    return None
a = find(n.get("allowed"), host="example.com", port=443)
print("allowed_example=%s" % (a.get("count") if a else "missing"))
d = find(n.get("denied"), host="bad.example.org", port=80)
print("denied_bad_reason=%s" % (d.get("reason") if d else "missing"))
print("denied_bad_code=%s" % (d.get("code") if d else "missing"))
print("denied_bad_count=%s" % (d.get("count") if d else "missing"))
m = find(n.get("denied"), host="meta.example.com", port=80)
print("denied_meta_reason=%s" % (m.get("reason") if m else "missing"))
print("denied_meta_code=%s" % (m.get("code") if m else "missing"))
EOF
	for k in has_network; do
		t_check "--json: has a network object" "$(head -c 300 "$T/summary.json")" test "$(kv has_network "$T/net.kv")" = 1
	done
	t_check "--json: allowed example.com:443 counted twice (control + fetch)" "$(cat "$T/net.kv" | tr '\n' ' ')" \
		test "$(kv allowed_example "$T/net.kv")" = 2
	t_check "--json: denied bad.example.org:80, reason denied" "$(cat "$T/net.kv" | tr '\n' ' ')" \
		test "$(kv denied_bad_code "$T/net.kv")" = denied
	t_check "--json: denied bad.example.org:80 counted once" "$(cat "$T/net.kv" | tr '\n' ' ')" \
		test "$(kv denied_bad_count "$T/net.kv")" = 1
	t_check "--json: denied meta.example.com:80, reason ssrf-metadata" "$(cat "$T/net.kv" | tr '\n' ' ')" \
		test "$(kv denied_meta_code "$T/net.kv")" = ssrf-metadata
elif [[ $(kv ran 2>/dev/null) == 1 ]]; then
	t_fail "--json: the last line of stderr is a JSON object" "$(tail -n 1 "$ERR" | head -c 300)"
fi

# ------------------------------------------------------------------ 1,000 parallel connections

SBX_HANG=${SBX_EGRESS_LOAD_HANG:-180}
jrun --profile "$MAIN" -- '
pre p lc parallel example.com 1000 50
pre s lc parallel example.com 200 20 tls "$CA"
'
SBX_HANG=${SBX_EGRESS_HANG:-90}
jis "1000 parallel http connections through the broker all succeed" p_parallel_ok 1000
jis "1000 parallel: none failed" p_parallel_fail 0
jis "200 parallel https connections through the broker all succeed" s_parallel_ok 200
jhost "1000 parallel: the web server served 1000 http requests" "$(lab_new web | grep -c '^req proto=http host=example.com ')" \
	test "$(lab_new web | grep -c '^req proto=http host=example.com ')" = 1000

# ------------------------------------------------------------------ half a ClientHello leaves nothing

# The launcher's processes outside the jail (the broker's home in direct mode).
launcher_fds() {
	local p n=0 me
	me=$(readlink /proc/self/ns/pid)
	for p in $(pgrep -x sbx-run); do
		grep -qF -- "$WS/case.sh" "/proc/$p/cmdline" 2>/dev/null || continue
		[[ $(readlink "/proc/$p/ns/pid") == "$me" ]] || continue
		n=$((n + $(ls "/proc/$p/fd" 2>/dev/null | wc -l)))
	done
	echo "$n"
}
fds_back_to() { (($(launcher_fds) <= $1)); }
rm -f "$WS"/phase* "$WS"/go*
jrun_bg_script='
touch "$WS/phase1"; while [ ! -e "$WS/go1" ]; do sleep 0.05; done
pre h lc partial-hello example.com 443 50
lc stall-hello example.com 443 "$WS/go2" >/tmp/stall &
while ! grep -q stalled /tmp/stall 2>/dev/null; do sleep 0.05; done
touch "$WS/phase2"; wait
touch "$WS/phase3"; while [ ! -e "$WS/go3" ]; do sleep 0.05; done
'
( jrun --profile "$MAIN" -- "$jrun_bg_script" ) &
bg=$!
t_defer_kill "$bg"
phase1_or_gone() { [[ -e $WS/phase1 ]] || ! kill -0 "$bg" 2>/dev/null; }
if wait_until 60 phase1_or_gone && [[ -e $WS/phase1 ]]; then
	fd1=$(launcher_fds)
	touch "$WS/go1"
	if wait_until 60 test -e "$WS/phase2"; then
		t_check "half a ClientHello: the web server got no connection (50 closed, 1 stalled)" \
			"$(lab_new web | grep '^conn' | sed -n '2,4p' | tr '\n' '|')" \
			test "$(lab_new web | grep -c '^conn')" = 1
		touch "$WS/go2"
		wait_until 60 test -e "$WS/phase3"
		if ((fd1 > 0)); then
			t_check "half a ClientHello: the launcher holds no more fds than before (within 15 s)" \
				"fds before $fd1, after $(launcher_fds)" wait_until 15 fds_back_to "$fd1"
		else
			t_fail "half a ClientHello: the launcher's fds" "no sbx-run process of this case found"
		fi
	else
		t_fail "half a ClientHello: the jail's clients ran" "$(head -c 300 "$OUT" | tr '\n' '|')"
	fi
	touch "$WS/go3"
else
	touch "$WS/go1" "$WS/go2" "$WS/go3"
	t_fail "half a ClientHello: the jail started" "not tested: $(head -c 300 "$ERR" | tr '\n' '|')"
fi
wait "$bg"
jhost "half a ClientHello: 50 partial hellos were sent" "$(kv h_partial_sent)" test "$(kv h_partial_sent)" = 50

# ------------------------------------------------------------------ journal records

if ! jd_start 2>"$T/jd.err"; then
	t_fail "journal: journald starts" "$(head -c 300 "$T/jd.err")"
	exit 0
fi
LAB_JD_PID=$JD_PID
jd_mark
jrun --profile "$MAIN" -- '
fetch b -x http://127.0.0.1:3128 http://bad.example.org/
dns o other.example.net A
pre m lc socks5 127.0.0.1 3128 meta.example.com 80
echo r=$(echo raw-2222 | timeout 10 nc -N raw.example.net 2222 2>&1)
fetch s --noproxy "*" --connect-to www.example.org:443:example.com:443 https://www.example.org/
'
LAB_JD_PID=""
E=$T/jentry
jentry() { # NAME FIELD=VALUE...: the first SBX_NET entry with those values, into $E
	local name=$1
	shift
	ran "$name" || return 1
	if jd_entry "$T/net.json" "$E" "$@"; then return 0; fi
	t_fail "$name" "no journal entry with $* among $(jd_count "$T/net.json") SBX_NET entries: $(grep -o '"SBX_NET_[A-Z_]*":"[^"]*"' "$T/net.json" | head -n 12 | tr '\n' ' ')"
	return 1
}
jd_query "$T/net.all.json" >/dev/null 2>&1
grep '"SBX_NET_ACTION"' "$T/net.all.json" >"$T/net.json" 2>/dev/null
if jentry "journal: allow record for the control (example.com:443, tls)" SBX_NET_ACTION=allow SBX_NET_HOST=example.com SBX_NET_PORT=443; then
	t_ok "journal: allow record for the control (example.com:443, tls)"
	t_check "journal: allow record's SBX_NET_PROTO is tls" "$(kv SBX_NET_PROTO "$E")" test "$(kv SBX_NET_PROTO "$E")" = tls
	t_check "journal: allow record's SBX_NET_RULE is example.com" "$(kv SBX_NET_RULE "$E")" test "$(kv SBX_NET_RULE "$E")" = example.com
	t_check "journal: allow record counts bytes down" "SBX_NET_BYTES_DOWN=$(kv SBX_NET_BYTES_DOWN "$E")" \
		test "$(kv SBX_NET_BYTES_DOWN "$E" || echo 0)" -gt 0
	t_check "journal: allow record counts bytes up" "SBX_NET_BYTES_UP=$(kv SBX_NET_BYTES_UP "$E")" \
		test "$(kv SBX_NET_BYTES_UP "$E" || echo 0)" -gt 0
fi
if jentry "journal: deny record for proxy http://bad.example.org/" SBX_NET_ACTION=deny SBX_NET_HOST=bad.example.org SBX_NET_PORT=80; then
	t_check "journal: deny record for proxy http://bad.example.org/" "reason $(kv SBX_NET_REASON "$E") proto $(kv SBX_NET_PROTO "$E")" \
		test "$(kv SBX_NET_PROTO "$E")" = http -a -n "$(kv SBX_NET_REASON "$E" | grep -i denied)"
	t_check "journal: the deny record names the rule bad.example.org" "$(kv SBX_NET_RULE "$E")" test "$(kv SBX_NET_RULE "$E")" = bad.example.org
fi
if jentry "journal: deny record for the DNS question other.example.net" SBX_NET_ACTION=deny SBX_NET_HOST=other.example.net SBX_NET_PROTO=dns; then
	t_check "journal: deny record for the DNS question other.example.net" "reason $(kv SBX_NET_REASON "$E")" \
		test -n "$(kv SBX_NET_REASON "$E" | grep -i 'allowlist')"
fi
if jentry "journal: deny record for SOCKS5 meta.example.com:80" SBX_NET_ACTION=deny SBX_NET_HOST=meta.example.com SBX_NET_PROTO=socks; then
	t_check "journal: deny record for SOCKS5 meta.example.com:80" "reason $(kv SBX_NET_REASON "$E")" \
		test -n "$(kv SBX_NET_REASON "$E" | grep -i 'ssrf\|metadata')"
fi
if jentry "journal: allow record for raw.example.net:2222 (tcp)" SBX_NET_ACTION=allow SBX_NET_HOST=raw.example.net SBX_NET_PORT=2222; then
	t_check "journal: allow record for raw.example.net:2222 (tcp)" "proto $(kv SBX_NET_PROTO "$E") rule $(kv SBX_NET_RULE "$E")" \
		test "$(kv SBX_NET_PROTO "$E")" = tcp -a "$(kv SBX_NET_RULE "$E")" = raw.example.net:2222
fi
if jentry "journal: deny record for the SNI mismatch" SBX_NET_ACTION=deny SBX_NET_PROTO=tls SBX_NET_PORT=443; then
	t_check "journal: deny record for the SNI mismatch" "reason $(kv SBX_NET_REASON "$E")" \
		test -n "$(kv SBX_NET_REASON "$E" | grep -i 'sni')"
fi
exit 0
