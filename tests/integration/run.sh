#!/bin/bash
# Runs every tests/integration/t_*.sh and tests/escape/t_*.sh (as root) and ends with exactly one
# line: "N passed, N failed, N skipped".
#
#   SBX_RUN=build/sbx-run PROBE=build/probe bash tests/integration/run.sh [t_name...]
#
# SBX_MUST_WORK=1 turns every skip into a failure (CI). Exit status: 0 when
# nothing failed.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 1

export SBX_RUN=${SBX_RUN:-build/sbx-run}
export PROBE=${PROBE:-build/probe}
export SBX_RUN_ID=$$
SBX_STATE=$(mktemp -d "${TMPDIR:-/tmp}/sbx-itest.XXXXXX") || exit 1
export SBX_STATE
export SBX_RESULTS=$SBX_STATE/results
trap 'rm -rf "$SBX_STATE"' EXIT
: >"$SBX_RESULTS"

. tests/lib.sh
# Baselines for t_zz_leftovers.sh.
host_mounts >"$SBX_STATE/mounts"
sbx_cgroups_orphaned >"$SBX_STATE/cgroups"

# A group is named t_x: tests/integration/t_x.sh or tests/escape/t_x.sh (the escapes
# found in review, each asserted from the host).  The leftover scan runs last.
escape=$(cd "$here/../escape" && pwd)
if (($#)); then
	tests=()
	for t in "$@"; do
		t=${t%.sh}
		if [[ -e $escape/$t.sh ]]; then tests+=("$escape/$t.sh"); else tests+=("$here/$t.sh"); fi
	done
else
	tests=()
	for t in "$here"/t_*.sh "$escape"/t_*.sh; do
		[[ $t == */t_zz_leftovers.sh ]] || tests+=("$t")
	done
fi
tests+=("$here/t_zz_leftovers.sh")

for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	echo "# $name"
	start=$SECONDS
	bash "$t"
	rc=$?
	if ((rc != 0)); then
		printf 'fail\t%s: script\texited %d\n' "$name" "$rc" >>"$SBX_RESULTS"
		echo "FAIL $name: script exited $rc"
	fi
	echo "# $name: $((SECONDS - start)) s"
done

passed=$(grep -c '^ok' "$SBX_RESULTS")
failed=$(grep -c '^fail' "$SBX_RESULTS")
skipped=$(grep -c '^skip' "$SBX_RESULTS")
if ((failed)); then
	echo "# failures:"
	grep '^fail' "$SBX_RESULTS" | cut -f2- | sed 's/\t/ -- /; s/^/#   /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
