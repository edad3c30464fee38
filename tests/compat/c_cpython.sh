#!/bin/bash
# CPython's own regression tests (Debian's libpython3.11-testsuite), a subset that
# needs no network and runs in about 10 s: files and archives (tarfile, shutil,
# tempfile, os, posix, glob, stat, fileio, mmap, zlib, csv), processes and terminals
# (resource, pty, getpass, select, fcntl), json, re, pathlib, hashlib.  The counts of
# test cases run and failed (from regrtest's JUnit XML) inside must be those outside,
# for the same identity; the failing cases are named when they are not.  As root,
# test_os, test_posix and test_tarfile chown and set modes the way only root can
# (issue 14, item 6).
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
w="python3 -m test (20 modules)"
modules=(test_tarfile test_shutil test_tempfile test_os test_posix test_json test_re test_pathlib test_glob test_stat
	test_fileio test_mmap test_zlib test_csv test_hashlib test_select test_fcntl test_resource test_pty test_getpass)
if [[ ! -x $py ]]; then
	c_skip "$w" "$py is not installed"
	exit 0
fi
if ! "$py" -c 'import test.test_json' 2>/dev/null; then
	c_skip "$w" "CPython's tests are not installed (libpython3-testsuite; make deps installs it)"
	exit 0
fi

# The counts from regrtest's JUnit XML (run failed skipped) and the failed cases' names.
counts() {
	"$py" - "$1" <<'PY'
import sys, xml.etree.ElementTree as E
try:
    root = E.parse(sys.argv[1]).getroot()
except (OSError, E.ParseError) as e:
    print("no results (%s)" % e.__class__.__name__)
    sys.exit(0)
run = failed = skipped = 0
bad = []
for tc in root.iter("testcase"):
    run += 1
    if tc.find("failure") is not None or tc.find("error") is not None:
        failed += 1
        bad.append(tc.get("name", "?").split(" ")[0])
    elif tc.find("skipped") is not None:
        skipped += 1
print("%d run, %d failed, %d skipped" % (run, failed, skipped))
print(" ".join(bad))
PY
}

# regrtest writes its scratch directory into the cwd (the workspace), and its XML there.
cmd="$py -m test --junit-xml results.xml ${modules[*]}"
chown -R "$C_UID:$C_UID" "$(c_ws user)"
for who in root user; do
	ws=$(c_ws $who)
	rm -f "$ws/results.xml"
	c_out $who "$cmd"
	o_rc=$RC o_tail=$(grep -E 'tests? (OK|failed)|Tests result' "$OUT" | tr '\n' ' ')
	counts "$ws/results.xml" >"$T/outside"
	rm -f "$ws/results.xml"
	c_in $who -- "$cmd"
	i_tail=$(grep -E 'tests? (OK|failed)|Tests result|^ +test_' "$OUT" | tr '\n' ' ')
	counts "$ws/results.xml" >"$T/inside"
	# Run and failed must be the same; skipped is shown (a skip is no failure).
	outside="exit $o_rc: $(head -1 "$T/outside")" inside="exit $RC: $(head -1 "$T/inside")"
	o_key=$(sed -n 's/^\(exit [0-9]*: [0-9]* run, [0-9]* failed\).*/\1/p' <<<"$outside")
	i_key=$(sed -n 's/^\(exit [0-9]*: [0-9]* run, [0-9]* failed\).*/\1/p' <<<"$inside")
	if [[ -n $o_key && $o_key == "$i_key" ]]; then inside=$outside; fi
	c_compare "$w" $who "$outside" "$inside" \
		"outside: $o_tail; failed outside: $(sed -n 2p "$T/outside"); inside: $i_tail; failed inside: $(sed -n 2p "$T/inside"); $(run_info)"
	rm -f "$ws/results.xml"
done
c_row "$w"
