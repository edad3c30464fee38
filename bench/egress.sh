#!/bin/bash
# SPDX-License-Identifier: MIT
# Egress broker benchmark (network: filtered, issue 13), all in one run, in the lab of
# tests/netlab.sh (two network namespaces, nothing leaves the machine), each variant
# alternating round-robin with the others so that machine noise falls on all alike:
#  1. throughput: one BENCH_EGRESS_BYTES transfer (1 GiB) from the lab's source server
#     (192.0.2.20:2230, sendfile) to the same client (bench/netpeer.c sink): direct from
#     the lab's host side over the veth; through socat, a plain relay on the host
#     side's loopback; through the broker, from a jail with a raw host:port rule;
#  2. connection setup: BENCH_EGRESS_N (1000) sequential connect + 1-byte echo against
#     a lean echo server (netpeer echo), the same three ways;
#  3. DNS answer latency: BENCH_EGRESS_N A queries, the lab's dnsmasq from the host
#     side vs the broker's DNS from a jail;
#  4. the broker's memory and fds (the process named sbx-egress in the lab's network
#     namespace) with no connection and with 200 held open end to end;
#  5. jail start: `sbx-run -- /bin/true` with --net none vs filtered on the same
#     profile (bench/launch.c, alternating), and, when perf can place uprobes, what the
#     broker adds to a start: its fork (sbx_egress_spawn), the jail's network setup
#     with the listeners (sbx_egress_setup_netns, against --net none's
#     sbx_net_loopback_up) and its stop (sbx_egress_finish);
# then a summary of the ratios that matter.
#
# usage: bench/egress.sh [SBX_RUN]      (as root; default build/sbx-run)
# env:   BENCH_EGRESS_BYTES    bytes per transfer (default 1073741824)
#        BENCH_EGRESS_ROUNDS   rounds of (1), (2) and (3) (default 5)
#        BENCH_EGRESS_N        connects and DNS queries per variant a round (default 1000)
#        BENCH_EGRESS_HOLD     connections held open for (4) (default 200)
#        BENCH_EGRESS_STARTS   jail starts per variant for (5) (default 100)
#        BENCH_EGRESS_PROBED   probed starts per variant for (5)'s breakdown (default
#                              30; 0: none)
#        BENCH_EGRESS_BROKERS  more brokers for (1), as NAME=SBX_RUN words (e.g. an
#                              experimental build of lib/egress-conn.c)
#        LAUNCH, NETPEER       the drivers (default build/bench-launch, build/bench-netpeer,
#                              built if missing)
# Other integration tests on the same machine create namespaces and count leftovers:
# run it under their lock (flock -o /var/tmp/sbx-integration.lock make bench).
#
# Exits non-zero when a variant fails (a short transfer, a failed connect or query, a
# jail that does not run), after printing every figure it has; never on a slow figure.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
sbx_run=$(realpath "${1:-$root/build/sbx-run}")
bytes=${BENCH_EGRESS_BYTES:-1073741824}
rounds=${BENCH_EGRESS_ROUNDS:-5}
n=${BENCH_EGRESS_N:-1000}
nhold=${BENCH_EGRESS_HOLD:-200}
starts=${BENCH_EGRESS_STARTS:-100}
probed=${BENCH_EGRESS_PROBED:-30}
launch=${LAUNCH:-$root/build/bench-launch}
netpeer=${NETPEER:-$root/build/bench-netpeer}
cflags="-O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror"

die() { echo "bench egress: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (network namespaces); run it as root"
[[ -x $sbx_run ]] || die "'$sbx_run' is not executable; run 'make' first"
command -v socat >/dev/null || die "socat not found; install it ('make deps')"
# shellcheck disable=SC2086  # cflags: words on purpose
[[ -x $launch ]] || ${CC:-cc} $cflags -o "$launch" "$root/bench/launch.c" || die "cannot build $launch"
# shellcheck disable=SC2086
[[ -x $netpeer ]] || ${CC:-cc} $cflags -o "$netpeer" "$root/bench/netpeer.c" || die "cannot build $netpeer"

# lib.sh for wait_until, t_defer and the cleanup (no test results are recorded);
# netlab.sh for the lab.
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
# shellcheck source=tests/netlab.sh
. "$root/tests/netlab.sh"
T=$(mktemp -d /var/tmp/sbx-bench-egress.XXXXXX) || exit 1
chmod 0755 "$T"
WS=$T/ws
OUT=$T/out ERR=$T/err
SBX_HANG=60 # a jail still running then is a stalled relay: counted as failed, not waited for
mkdir "$WS" "$T/bin" "$T/r"
trap _t_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
failed=

# Run copies, so that a rebuild in the tree during the run changes nothing here; the
# client in the workspace, where the jail can run it.
cp "$sbx_run" "$T/bin/sbx-run"
SBX=$T/bin/sbx-run
cp "$netpeer" "$WS/netpeer"
NP=$WS/netpeer
brokers=(broker)
declare -A broker_bin=([broker]=$SBX)
for b in ${BENCH_EGRESS_BROKERS:-}; do
	[[ $b == *=* && -x ${b#*=} ]] || die "BENCH_EGRESS_BROKERS: '$b' is not NAME=SBX_RUN"
	cp "${b#*=}" "$T/bin/sbx-run.${b%%=*}"
	brokers+=("${b%%=*}")
	broker_bin[${b%%=*}]=$T/bin/sbx-run.${b%%=*}
done

truncate -s "$bytes" "$T/blob"
LAB_EXTRA_SERVERS="source:src:192.0.2.20:2230:$T/blob"
lab_start || die "the lab did not start"
_lab_bg "$LAB_INET" "$NP" echo 192.0.2.20 2240 "$T/echo.ready"
wait_until 5 test -e "$T/echo.ready" || die "the echo server did not start"
# socat, the plain relay, on the host side's loopback (its buffer raised from 8 KiB
# to 256 KiB, its best case for bulk).
_lab_bg "$LAB_NS" socat -b 262144 TCP-LISTEN:4000,bind=127.0.0.1,reuseaddr,fork,backlog=1024 TCP:192.0.2.20:2230
_lab_bg "$LAB_NS" socat TCP-LISTEN:4001,bind=127.0.0.1,reuseaddr,fork,backlog=1024 TCP:192.0.2.20:2240
wait_until 5 lab_exec nc -z 127.0.0.1 4001 || die "socat did not start"
P=$T/bench.yaml
cat >"$P" <<'EOF'
extends: workspace
network:
  mode: filtered
  allow: ["raw.example.net:2230", "raw.example.net:2240"]
EOF

# jl BROKER ARGS...: netpeer ARGS in a jail of BROKER's sbx-run, its output on stdout.
jl() {
	local bin=${broker_bin[$1]}
	shift
	SBX_RUN=$bin lab_sbx --profile "$P" --workspace "$WS" -- "$NP" "$@"
	[[ $RC == 0 ]] || echo "bench egress: jail: netpeer $* exited $RC: $(head -c 300 "$ERR")" >&2
	cat "$OUT"
}

# rr ROUNDS NAME CMD [NAME CMD]...: CMD (a function) once a round for each NAME,
# the first one rotating each round; its key=value output, one line a round, in
# $T/r/NAME.
rr() {
	local r=$1 names=() cmds=() i k j
	shift
	while (($#)); do
		names+=("$1") cmds+=("$2")
		: >"$T/r/$1"
		shift 2
	done
	for ((i = 0; i < r; i++)); do
		for ((k = 0; k < ${#names[@]}; k++)); do
			j=$(((i + k) % ${#names[@]}))
			{ "${cmds[j]}" | tr '\n' ' '; echo; } >>"$T/r/${names[j]}"
		done
	done
}
# col NAME KEY: KEY's value in each of NAME's rounds, one a line
col() { grep -o "\(^\| \)$2=[^ ]*" "$T/r/$1" | sed 's/.*=//'; }
agg() { # median|min|max|sum of stdin
	sort -g | awk -v f="$1" '{ a[NR] = $1; s += $1 } END {
		if (!NR) { print "n/a"; exit }
		if (f == "median") v = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		else if (f == "min") v = a[1]; else if (f == "max") v = a[NR]; else v = s
		printf "%.6g\n", v }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.e+-]+$/ && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }" 2>/dev/null || echo n/a; }
fail() { echo "bench egress: $*" >&2; failed="$failed $1"; }

lab_netns=$(lab_exec readlink /proc/self/ns/net)
broker_pid() { # the sbx-egress processes in the lab's network namespace
	local c p
	for c in /proc/[0-9]*/comm; do
		[[ $(cat "$c" 2>/dev/null) == sbx-egress ]] || continue
		p=${c%/comm}
		[[ $(readlink "$p/ns/net" 2>/dev/null) == "$lab_netns" ]] && echo "${p#/proc/}"
	done
}
kib() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || echo n/a; }
nfds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

echo "sbx-run:  $sbx_run (run from a copy in $T/bin)${BENCH_EGRESS_BROKERS:+; also $BENCH_EGRESS_BROKERS}"
echo "socat:    $(socat -V 2>/dev/null | awk '/socat version/ { print $3; exit }')"
echo "kernel:   $(uname -r), $(nproc) CPUs; lab $LAB_NS (host side) and $LAB_INET (servers)"

# ---- 1. throughput
echo
echo "== throughput: one $bytes-byte transfer per variant a round, $rounds rounds, round-robin =="
tp_direct() { lab_exec "$NP" sink 192.0.2.20 2230; }
tp_socat() { lab_exec "$NP" sink 127.0.0.1 4000; }
for b in "${brokers[@]}"; do eval "tp_$b() { jl $b sink raw.example.net 2230; }"; done
tp_direct >/dev/null # warm-up: the source file into the page cache
set -- direct tp_direct socat tp_socat
for b in "${brokers[@]}"; do set -- "$@" "$b" "tp_$b"; done
rr "$rounds" "$@"
printf '%-14s %12s %10s %10s\n' variant median_GB/s min_GB/s max_GB/s
declare -A tput
for v in direct socat "${brokers[@]}"; do
	paste <(col "$v" bytes) <(col "$v" seconds) >"$T/r/$v.gbps"
	if ! awk -v want="$bytes" '$1 != want { exit 1 }' "$T/r/$v.gbps" || [[ $(wc -l <"$T/r/$v.gbps") != "$rounds" ]]; then
		fail "$v: a transfer was short or failed: $(tr '\n' '|' <"$T/r/$v")"
	fi
	awk '{ printf "%.4f\n", $1 / $2 / 1e9 }' "$T/r/$v.gbps" >"$T/r/$v.g"
	tput[$v]=$(agg median <"$T/r/$v.g")
	printf '%-14s %12.2f %10.2f %10.2f\n' "$v" "${tput[$v]}" "$(agg min <"$T/r/$v.g")" "$(agg max <"$T/r/$v.g")"
done
for v in socat "${brokers[@]}"; do echo "ratio $v/direct: $(ratio "${tput[$v]}" "${tput[direct]}")"; done
for v in "${brokers[@]}"; do echo "ratio $v/socat: $(ratio "${tput[$v]}" "${tput[socat]}")"; done

# ---- 2. connection setup
echo
echo "== connection setup: $n sequential connect + 1-byte echo per variant a round, $rounds rounds =="
cs_direct() { lab_exec "$NP" connloop 192.0.2.20 2240 "$n"; }
cs_socat() { lab_exec "$NP" connloop 127.0.0.1 4001 "$n"; }
cs_broker() { jl broker connloop raw.example.net 2240 "$n"; }
lab_mark
rr "$rounds" direct cs_direct socat cs_socat broker cs_broker
host_q=$(lab_new dns | grep -c 'query\[.*\] raw\.example\.net')
printf '%-14s %10s %10s %10s %12s\n' variant median_us p90_us mean_us ok
declare -A conn
for v in direct socat broker; do
	ok=$(col $v ok | agg sum) secs=$(col $v seconds | agg sum)
	[[ $ok == $((n * rounds)) ]] || fail "$v: $ok of $((n * rounds)) connections echoed"
	conn[$v]=$(col $v median_us | agg median)
	printf '%-14s %10.1f %10.1f %10.1f %12s\n' "$v" "${conn[$v]}" "$(col $v p90_us | agg median)" \
		"$(calc %.1f "$secs * 1e6 / ($n * $rounds)")" "$ok/$((n * rounds))"
done
echo "(median and p90: the median over the rounds of each round's; mean: all rounds' time / connections)"
for v in socat broker; do echo "ratio $v/direct: $(ratio "${conn[$v]}" "${conn[direct]}") (median), +$(calc %.1f "${conn[$v]} - ${conn[direct]}") us"; done
echo "ratio broker/socat: $(ratio "${conn[broker]}" "${conn[socat]}")"
echo "host-side DNS queries the broker sent to the lab's dnsmasq: $host_q for $((n * rounds)) connections ($(calc %.2f "$host_q / ($n * $rounds)") each)"

# ---- 3. DNS
echo
echo "== DNS: $n A queries for raw.example.net per variant a round, $rounds rounds =="
dns_dnsmasq() { lab_exec "$NP" dnsloop 192.0.2.53 raw.example.net "$n"; }
dns_broker() { jl broker dnsloop 127.0.0.1 raw.example.net "$n"; }
rr "$rounds" dnsmasq dns_dnsmasq broker dns_broker
printf '%-14s %10s %10s %10s %12s\n' variant median_us p90_us mean_us ok
declare -A dns
for v in dnsmasq broker; do
	ok=$(col $v ok | agg sum) secs=$(col $v seconds | agg sum)
	[[ $ok == $((n * rounds)) ]] || fail "$v: $ok of $((n * rounds)) queries answered"
	dns[$v]=$(col $v median_us | agg median)
	printf '%-14s %10.1f %10.1f %10.1f %12s\n' "$v" "${dns[$v]}" "$(col $v p90_us | agg median)" \
		"$(calc %.1f "$secs * 1e6 / ($n * $rounds)")" "$ok/$((n * rounds))"
done
echo "ratio broker/dnsmasq: $(ratio "${dns[broker]}" "${dns[dnsmasq]}") (median)"

# ---- 4. memory and fds
echo
echo "== the broker's memory and fds: $nhold connections held open =="
rm -f "$WS/h0" "$WS/g0" "$WS/g1" "$WS/held"
(lab_sbx --profile "$P" --workspace "$WS" -- /bin/sh -c \
	"touch $WS/h0; while [ ! -e $WS/g0 ]; do sleep 0.05; done; exec $NP hold raw.example.net 2240 $nhold $WS/g1 >$WS/held") &
hold=$!
t_defer "touch $WS/g0 $WS/g1"
mem=
if wait_until 30 test -e "$WS/h0" && bp=$(broker_pid) && [[ $bp =~ ^[0-9]+$ ]]; then
	r0=$(kib "$bp" VmRSS) f0=$(nfds "$bp")
	touch "$WS/g0"
	if wait_until 60 grep -qs '^held=' "$WS/held"; then
		r1=$(kib "$bp" VmRSS) f1=$(nfds "$bp") h=$(sed 's/held=//' "$WS/held")
		[[ $h == "$nhold" ]] || fail "hold: $h of $nhold connections held"
		printf '%-24s %10s %5s\n' "" VmRSS_KiB fds "no connection" "$r0" "$f0" "$h held" "$r1" "$f1" \
			"peak (VmHWM)" "$(kib "$bp" VmHWM)" ""
		mem="$(calc %.0f "($r1 - $r0) * 1024 / $h") bytes of RSS and $(calc %.2f "($f1 - $f0) / $h") fds per connection"
		echo "per connection: $mem (sbx-egress pid $bp)"
	else
		fail "hold: the jail did not open its connections: $(cat "$WS/held" "$ERR" 2>/dev/null | head -c 300)"
	fi
else
	fail "hold: no jail, or not one sbx-egress in the lab (found: ${bp:-none})"
fi
touch "$WS/g0" "$WS/g1"
wait "$hold"

# ---- 5. jail start
echo
echo "== jail start: sbx-run --net none vs filtered -- /bin/true, $starts runs each, alternating =="
start_args() {
	set -- -C "$WS" -T 10 -r filtered/none \
		none "$SBX" --profile "$P" --workspace "$WS" --net none -- /bin/true \; \
		filtered "$SBX" --profile "$P" --workspace "$WS" -- /bin/true \;
	printf '%s\n' "$@"
}
mapfile -t sargs < <(start_args)
lab_exec "$launch" -n "$starts" -w 3 "${sargs[@]}" >"$T/start.out" 2>&1 || fail "start: a jail failed"
cat "$T/start.out"
sm() { awk -v v="$1" '$1 == v { print $3 }' "$T/start.out"; }
start_none=$(sm none) start_filt=$(sm filtered)

# What the broker adds, by uprobes on the copy of sbx-run (a private mount of tracefs;
# the probes are removed at the end).
share=
if ((probed > 0)) && command -v perf >/dev/null; then
	cat >"$T/probe.sh" <<EOF
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing || exit 1
g=sbxbench
perf probe -q -d "\$g:*" 2>/dev/null
[ "\$1" = clean ] && exit 0
for f in main:main run:sbx_jail_run_ctl spawn:sbx_egress_spawn bm:sbx_egress_main bi:eg_resolve_init netns:sbx_egress_setup_netns lo:sbx_net_loopback_up fin:sbx_egress_finish; do
	perf probe -q -x "$SBX" -a "\$g:\${f%%:*}=\${f#*:}" -a "\$g:\${f%%:*}_r=\${f#*:}%return" || exit 1
done
ip netns exec "$LAB_NS" perf record -q -o "$T/perf.data" -e "\$g:*" -- "$launch" -n "$probed" -w 1 "\$@" >"$T/probed.out" 2>&1
r=\$?
perf probe -q -d "\$g:*"
exit \$r
EOF
	t_defer "unshare -m --propagation private sh $T/probe.sh clean"
	if unshare -m --propagation private sh "$T/probe.sh" "${sargs[@]}" 2>"$T/probe.err" &&
		perf script -i "$T/perf.data" -F pid,time,event >"$T/probe.txt" 2>/dev/null; then
		# One line per run: kind, then us in main, before sbx_jail_run_ctl, in it, the
		# broker's fork, the jail's network setup, lo up (none: the whole network setup),
		# the broker's stop, the broker's own start (in its process, beside the jail's).
		awk '{ pid = $1; t = $2; sub(":", "", t); t *= 1e6; ev = $3; sub(/:$/, "", ev); sub(/^[^:]*:/, "", ev); sub(/__return$/, "", ev) }
			ev == "main" { open = 1; mp = pid; m0 = t; sp = ne = lo = fi = bi = 0; filt = 0; next }
			!open { next }
			ev == "main_r" && pid == mp { printf "%s %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", filt ? "filtered" : "none", t - m0, pre, run, sp, ne, lo, fi, bi; open = 0 }
			ev == "run" { r0 = t; pre = t - m0 } ev == "run_r" { run = t - r0 }
			ev == "spawn" { s0 = t } ev == "spawn_r" { sp = t - s0; filt = 1 }
			ev == "bm" { b0 = t } ev == "bi_r" { bi = t - b0 }
			ev == "netns" { n0 = t } ev == "netns_r" { ne = t - n0 }
			ev == "lo" { l0 = t } ev == "lo_r" { lo = t - l0 }
			ev == "fin" { f0 = t } ev == "fin_r" { fi = t - f0 }' "$T/probe.txt" >"$T/phases"
		ph() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$T/phases" | agg median; }
		echo
		echo "where a start's time goes, by uprobes: median us over $probed probed runs each (launcher and jail)"
		printf '%-58s %10s %10s\n' "" none filtered
		printf '%-58s %10s %10s\n' "main (sbx-run's whole run)" "$(ph none 2)" "$(ph filtered 2)" \
			"  before sbx_jail_run_ctl (options, profile, plan)" "$(ph none 3)" "$(ph filtered 3)" \
			"  sbx_jail_run_ctl (clone to reap)" "$(ph none 4)" "$(ph filtered 4)" \
			"    sbx_egress_spawn: the broker's fork" "" "$(ph filtered 5)" \
			"    jail network: sbx_net_loopback_up | sbx_egress_setup_netns" "$(ph none 7)" "$(ph filtered 6)" \
			"      of which lo up" "$(ph none 7)" "$(ph filtered 7)" \
			"    sbx_egress_finish: the broker's summary and stop" "" "$(ph filtered 8)" \
			"  (the broker's own start, in its process: to c-ares ready)" "" "$(ph filtered 9)"
		added=$(calc %.0f "$(ph filtered 5) + $(ph filtered 6) - $(ph none 7) + $(ph filtered 8)")
		diff_us=$(calc %.0f "($start_filt - $start_none) * 1000")
		echo "the broker's steps on the start's path (fork + listeners, routes, addresses - lo up + stop): $added us"
		echo "differences (filtered - none, medians): main $(calc %.0f "$(ph filtered 2) - $(ph none 2)") us, before the jail $(calc %.0f "$(ph filtered 3) - $(ph none 3)") us, sbx_jail_run_ctl $(calc %.0f "$(ph filtered 4) - $(ph none 4)") us; the unprobed start $diff_us us"
		share="the broker's fork, listeners and stop: $added us of the $diff_us us difference"
	else
		echo "(no breakdown: perf could not place uprobes: $(head -c 200 "$T/probe.err"))"
	fi
fi

# ---- summary
echo
echo "== egress summary =="
for v in "${brokers[@]}"; do
	echo "throughput $v/direct: $(ratio "${tput[$v]}" "${tput[direct]}") (target >= 0.8), $v ${tput[$v]} GB/s (target >= 1), $v/socat $(ratio "${tput[$v]}" "${tput[socat]}")"
done
echo "connect broker/direct: $(ratio "${conn[broker]}" "${conn[direct]}") (+$(calc %.1f "${conn[broker]} - ${conn[direct]}") us), broker/socat $(ratio "${conn[broker]}" "${conn[socat]}")"
echo "DNS broker/dnsmasq: $(ratio "${dns[broker]}" "${dns[dnsmasq]}") (${dns[broker]} us vs ${dns[dnsmasq]} us)"
echo "broker memory: ${mem:-n/a}"
echo "jail start filtered/none: $(ratio "$start_filt" "$start_none") (median $start_filt ms vs $start_none ms)${share:+; $share}"
[[ -z $failed ]] || die "failed:$failed (see above)"
