#!/usr/bin/env bash
# The whole test suite, as `make check` runs it (after building): unit tests and fuzz
# corpora under ASan+UBSan, the integration suite against the hardened build, the
# compatibility suite (tests/compat/, make compat), and the integration suite's core
# groups again against the ASan+UBSan build.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

results=$(mktemp /var/tmp/sbx-results.XXXXXX)
trap 'rm -f "$results"' EXIT
export SBX_RESULTS=$results
# UBSan must fail the run, not just print.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1

record() { printf '%s\t%s\n' "$1" "$2" >>"$results"; }

echo "== unit"
for t in build/tests/test_*; do
	[ -x "$t" ] || continue
	if ! "$t" >/dev/null 2>"$results.err"; then
		# The binary records its own failed checks; a crash records nothing.
		grep -q "$(basename "$t" | sed 's/test_/unit-/')" "$results" ||
			record fail "$(basename "$t"): crashed: $(head -c 300 "$results.err")"
	fi
done
grep -E '^(ok|fail)' "$results" | grep -c '^ok' | sed 's/^/unit checks passed: /'
# The decision and supervision are unit-tested without root (issue 11): as root, run
# them again as nobody (their own results file is root's, so the exit status says).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	for t in build/tests/test_decide build/tests/test_sandbox; do
		[ -x "$t" ] || continue
		if out=$(SBX_RESULTS= setpriv --reuid=65534 --regid=65534 --clear-groups "$t" 2>&1); then
			record ok "$(basename "$t"): passes without root"
		else
			record fail "$(basename "$t"): passes without root	$(grep -m3 FAIL <<<"$out" | tr '\n' ' ' | head -c 300)"
		fi
	done
fi

echo "== fuzz corpora"
for f in build/fuzz/*-regress; do
	[ -x "$f" ] || continue
	name=$(basename "$f" -regress)
	if out=$("$f" "tests/fuzz/corpus/${name#fuzz_}" 2>&1); then
		record ok "fuzz-corpus: $name ($out)"
	else
		record fail "fuzz-corpus: $name	$(echo "$out" | tail -5 | tr '\n' ' ')"
	fi
done

echo "== layers"
# check-layers itself, on scratch copies with one bad include planted each.
bash tests/layers.sh | grep -E '^(ok|fail)	' >>"$results"
grep -c '^ok	layers:' "$results" | sed 's/^/layer checks passed: /'

# The integration runner keeps its own results and ends with its own count line;
# fold that line into ours (a runner that died without one counts as a failure).
integration() {
	local label=$1 log
	shift
	log=$(mktemp /var/tmp/sbx-itest-log.XXXXXX)
	env "$@" bash "${RUNNER:-tests/integration/run.sh}" ${GROUPS_ARG:-} 2>&1 | tee "$log"
	local last
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [ -z "$last" ]; then
		record fail "integration ($label): runner ended without a count line"
	else
		read -r ip _ if _ is _ <<<"$(echo "$last" | tr -d ',')"
		i_pass=$((i_pass + ip)) i_fail=$((i_fail + if)) i_skip=$((i_skip + ${is:-0}))
	fi
	rm -f "$log"
}
i_pass=0 i_fail=0 i_skip=0

echo "== integration (hardened build)"
GROUPS_ARG="" integration hardened SBX_RUN=build/sbx-run PROBE=build/probe SBX_RESULTS=

# Real third-party tools outside and inside the jail (tests/compat/, make compat).
echo "== compatibility (the table: build/compat-table.txt)"
RUNNER=tests/compat/run.sh GROUPS_ARG="" integration compat SBX_RUN=build/sbx-run PROBE=build/probe SBX_RESULTS=

echo "== integration (ASan+UBSan build)"
GROUPS_ARG="t_exit t_identity t_fs t_json t_lifecycle" integration asan SBX_RUN=build/asan/sbx-run PROBE=build/probe SBX_RESULTS=

# sandboxd under ASan+UBSan: an error or a leak at exit fails its clean stop.
echo "== integration (sandboxd, ASan+UBSan build)"
GROUPS_ARG="t_daemon t_daemon_bus t_daemon_load t_daemon_identity t_daemon_dos" integration asan-daemon SBX_RUN=build/asan/sbx-run \
	SANDBOXD=build/asan/sandboxd SBX_DAEMON_LAUNCHES=300 PROBE=build/probe SBX_RESULTS=

rm -f "$results.err"
pass=$(( $(grep -c '^ok' "$results") + i_pass ))
fail=$(( $(grep -c '^fail' "$results") + i_fail ))
skip=$(( $(grep -c '^skip' "$results") + i_skip ))
if [ "$fail" -gt 0 ]; then
	echo "Failures:"
	grep '^fail' "$results" | sed 's/^/  /'
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
