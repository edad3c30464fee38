#!/bin/bash
# SPDX-License-Identifier: MIT
# Egress broker benchmark (issue 13), all in one run, in the lab of tests/netlab.sh
# (nothing leaves the machine), printed as figures and ratios:
#  1. throughput of one BENCH_EGRESS_BYTES transfer (default 1 GiB) from the lab's
#     source server: direct (the lab's host side, over the veth), through socat as a
#     plain relay on the host side's loopback, and through the broker (a jail with a
#     raw host:port rule) -- the same client (labclient.py sink) each time;
#  2. connection setup: N sequential connect + 1-byte echo, direct vs socat vs broker;
#  3. DNS answer latency: N A queries, the lab's dnsmasq directly vs the broker's DNS;
#  4. the broker's memory and fds per open connection (200 held open);
#  5. jail start time: --net none vs filtered on the same profile, alternating.
# Until the broker exists it prints "broker not available" and why, and exits 0
# (1 with BENCH_EGRESS_STRICT=1).
#
# usage: tests/bench/egress.sh [SBX_RUN]     (as root)
# env:   BENCH_EGRESS_BYTES (1073741824), BENCH_EGRESS_N (1000), BENCH_EGRESS_STARTS (20)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
export SBX_RUN=${1:-${SBX_RUN:-$root/build/sbx-run}}
bytes=${BENCH_EGRESS_BYTES:-1073741824}
n=${BENCH_EGRESS_N:-1000}
starts=${BENCH_EGRESS_STARTS:-20}

die() { echo "bench egress: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (network namespaces)"
[[ -x $SBX_RUN ]] || die "'$SBX_RUN' is not executable; run 'make' first"

# lib.sh for wait_until, t_defer and the cleanup; no test results are recorded.
. "$root/tests/lib.sh"
. "$root/tests/netlab.sh"
T=$(mktemp -d /var/tmp/sbx-bench-egress.XXXXXX) || exit 1
chmod 0755 "$T"
WS=$T/ws
mkdir "$WS"
OUT=$T/out ERR=$T/err
trap _t_cleanup EXIT
trap 'exit 130' INT TERM
SBX_HANG=300

truncate -s "$bytes" "$T/blob"
LAB_EXTRA_SERVERS="source:src:192.0.2.20:2230:$T/blob"
lab_start || die "the lab did not start"
cp "$LAB_TOOLS/labclient.py" "$WS/"
lc() { "$LAB_PY" "$LAB_TOOLS/labclient.py" "$@"; }
P=$T/bench.yaml
cat >"$P" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: [example.com, "raw.example.net:2222", "raw.example.net:2230"]
EOF

# Is there a broker?  A filtered jail that reaches the echo server.
lab_sbx --profile "$P" --workspace "$WS" -- /bin/sh -c 'echo ping | nc -N -w 5 raw.example.net 2222'
if [[ $RC != 0 || $(cat "$OUT") != ping ]]; then
	echo "bench egress: broker not available: a filtered jail could not reach raw.example.net:2222 (exit $RC: $(head -n 1 "$ERR"))"
	[[ ${BENCH_EGRESS_STRICT:-0} == 1 ]] && exit 1
	exit 0
fi

jl() { lab_sbx --profile "$P" --workspace "$WS" -- /usr/bin/python3 "$WS/labclient.py" "$@"; cat "$OUT"; }
val() { awk -F= -v k="$1" '$1 == k { print $2; exit }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
gbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.2f", b / s / 1e9; else print "n/a" }'; }
us_each() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%.1f", s * 1e6 / n }'; }

# socat, the plain relay, on the host side's loopback
ip netns exec "$LAB_NS" socat -b 262144 TCP-LISTEN:4000,bind=127.0.0.1,reuseaddr,fork,backlog=1024 TCP:192.0.2.20:2230 </dev/null 2>/dev/null &
t_defer "kill $! 2>/dev/null"
ip netns exec "$LAB_NS" socat TCP-LISTEN:4001,bind=127.0.0.1,reuseaddr,fork,backlog=1024 TCP:192.0.2.20:2222 </dev/null 2>/dev/null &
t_defer "kill $! 2>/dev/null"
wait_until 5 lab_exec nc -z 127.0.0.1 4000 || die "socat did not start"

echo "# 1. throughput, $bytes bytes"
lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" sink 192.0.2.20 2230 >/dev/null # warm-up, not counted
d=$(lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" sink 192.0.2.20 2230)
s=$(lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" sink 127.0.0.1 4000)
b=$(jl sink raw.example.net 2230)
for v in d s b; do
	[[ $(val bytes <<<"${!v}") == "$bytes" ]] || echo "bench egress: $v transfer incomplete: ${!v}" >&2
done
td=$(gbps "$bytes" "$(val seconds <<<"$d")") ts=$(gbps "$bytes" "$(val seconds <<<"$s")") tb=$(gbps "$bytes" "$(val seconds <<<"$b")")
printf '  direct %s GB/s, socat %s GB/s, broker %s GB/s\n' "$td" "$ts" "$tb"

echo "# 2. connection setup, $n sequential connects + 1-byte echo"
d=$(lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" connloop 192.0.2.20 2222 "$n")
s=$(lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" connloop 127.0.0.1 4001 "$n")
b=$(jl connloop raw.example.net 2222 "$n")
cd_=$(us_each "$(val seconds <<<"$d")" "$n") cs=$(us_each "$(val seconds <<<"$s")" "$n") cb=$(us_each "$(val seconds <<<"$b")" "$n")
printf '  direct %s us, socat %s us, broker %s us per connection (ok: %s/%s/%s)\n' "$cd_" "$cs" "$cb" \
	"$(val ok <<<"$d")" "$(val ok <<<"$s")" "$(val ok <<<"$b")"

echo "# 3. DNS, $n A queries for example.com"
d=$(lab_exec "$LAB_PY" "$LAB_TOOLS/labclient.py" dnsloop 192.0.2.53 example.com "$n")
b=$(jl dnsloop 127.0.0.1 example.com "$n")
qd=$(us_each "$(val seconds <<<"$d")" "$n") qb=$(us_each "$(val seconds <<<"$b")" "$n")
printf '  lab dnsmasq %s us, broker %s us per answer (ok: %s/%s)\n' "$qd" "$qb" "$(val ok <<<"$d")" "$(val ok <<<"$b")"

echo "# 4. memory per open connection (200 held)"
launcher_stat() { # KEY (VmRSS kB or fds): summed over this case's sbx-run processes outside the jail
	local p sum=0 me
	me=$(readlink /proc/self/ns/pid)
	for p in $(pgrep -x sbx-run); do
		grep -qF -- "$WS/hold.sh" "/proc/$p/cmdline" 2>/dev/null || continue
		[[ $(readlink "/proc/$p/ns/pid") == "$me" ]] || continue
		if [[ $1 == fds ]]; then
			sum=$((sum + $(ls "/proc/$p/fd" | wc -l)))
		else
			sum=$((sum + $(awk '/^VmRSS/ { print $2 }' "/proc/$p/status")))
		fi
	done
	echo "$sum"
}
rm -f "$WS"/h[0-9] "$WS"/g[0-9]
cat >"$WS/hold.sh" <<EOF
touch $WS/h0; while [ ! -e $WS/g0 ]; do sleep 0.05; done
/usr/bin/python3 $WS/labclient.py hold raw.example.net 2222 200 $WS/g1 >$WS/held &
while ! grep -q held $WS/held 2>/dev/null; do sleep 0.05; done
touch $WS/h1; wait
EOF
(lab_sbx --profile "$P" --workspace "$WS" -- /bin/sh "$WS/hold.sh") &
hold=$!
if wait_until 30 test -e "$WS/h0"; then
	r0=$(launcher_stat rss) f0=$(launcher_stat fds)
	touch "$WS/g0"
	wait_until 30 test -e "$WS/h1"
	sleep 0.5 # let the broker finish its 200 upstream connects
	r1=$(launcher_stat rss) f1=$(launcher_stat fds)
	printf '  launcher RSS %s kB -> %s kB (%s), fds %s -> %s: %s bytes and %s fds per connection\n' "$r0" "$r1" \
		"$(cat "$WS/held")" "$f0" "$f1" "$(awk -v a="$r0" -v b="$r1" 'BEGIN { printf "%d", (b - a) * 1024 / 200 }')" \
		"$(awk -v a="$f0" -v b="$f1" 'BEGIN { printf "%.1f", (b - a) / 200 }')"
fi
touch "$WS/g0" "$WS/g1"
wait "$hold"

echo "# 5. jail start, $starts runs each, alternating (/bin/true)"
: >"$T/none" ; : >"$T/filtered"
for ((i = 0; i < starts; i++)); do
	lab_sbx --profile "$P" --workspace "$WS" --net none -- /bin/true
	echo "$WALL_MS" >>"$T/none"
	lab_sbx --profile "$P" --workspace "$WS" -- /bin/true
	echo "$WALL_MS" >>"$T/filtered"
done
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mn=$(median "$T/none") mf=$(median "$T/filtered")
printf '  median: none %s ms, filtered %s ms (+%s ms)\n' "$mn" "$mf" "$((mf - mn))"

echo "# egress summary"
printf '  throughput broker/direct %s (target >= 0.8, and >= 1 GB/s: %s GB/s), broker/socat %s\n' \
	"$(ratio "$tb" "$td")" "$tb" "$(ratio "$tb" "$ts")"
printf '  connect broker/direct %s, broker/socat %s\n' "$(ratio "$cb" "$cd_")" "$(ratio "$cb" "$cs")"
printf '  dns broker/dnsmasq %s\n' "$(ratio "$qb" "$qd")"
printf '  start filtered/none %s\n' "$(ratio "$mf" "$mn")"
