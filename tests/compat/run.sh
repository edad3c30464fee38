#!/bin/bash
# The compatibility suite (issue 14): real third-party tools from Debian, each run
# outside and inside the jail, as root and as an unprivileged user, and compared.
# Runs every tests/compat/c_*.sh (as root), then the leftover scan, prints the table
#   workload | outside | inside (root) | inside (user)
# (also saved to build/compat-table.txt) and ends with exactly one line:
# "N passed, N failed, N skipped".
#
#   SBX_RUN=build/sbx-run PROBE=build/probe bash tests/compat/run.sh [c_name...]
#
# make compat runs it; make check runs it too (tests/run.sh).  Hold the integration
# lock: flock /var/tmp/sbx-integration.lock make compat.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 1

export SBX_RUN=${SBX_RUN:-build/sbx-run}
export PROBE=${PROBE:-build/probe}
export SBX_RUN_ID=$$
SBX_STATE=$(mktemp -d "${TMPDIR:-/tmp}/sbx-compat.XXXXXX") || exit 1
export SBX_STATE
export SBX_RESULTS=$SBX_STATE/results
export SBX_COMPAT_TABLE=$SBX_STATE/table
trap 'rm -rf "$SBX_STATE"' EXIT
: >"$SBX_RESULTS"
: >"$SBX_COMPAT_TABLE"

. tests/lib.sh
host_mounts >"$SBX_STATE/mounts"
sbx_cgroups_orphaned >"$SBX_STATE/cgroups"

tests=()
if (($#)); then
	for t in "$@"; do tests+=("$here/${t%.sh}.sh"); done
else
	tests=("$here"/c_*.sh)
fi
tests+=("$here/../integration/t_zz_leftovers.sh")

start_all=$SECONDS
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

# The table, as Markdown: what a closing note quotes.
{
	echo "| workload | outside | inside (root) | inside (user) |"
	echo "|---|---|---|---|"
	sed 's/|/\\|/g; s/\t/ | /g; s/^/| /; s/$/ |/' "$SBX_COMPAT_TABLE"
} >"$SBX_STATE/table.md"
echo "# compatibility table ($((SECONDS - start_all)) s; sbx-run $("$SBX_RUN" --version 2>/dev/null | head -1))"
cat "$SBX_STATE/table.md"
if [[ -d build && -w build ]]; then
	cp "$SBX_STATE/table.md" build/compat-table.txt && echo "# saved to build/compat-table.txt"
fi

passed=$(grep -c '^ok' "$SBX_RESULTS")
failed=$(grep -c '^fail' "$SBX_RESULTS")
skipped=$(grep -c '^skip' "$SBX_RESULTS")
if ((failed)); then
	echo "# failures:"
	grep '^fail' "$SBX_RESULTS" | cut -f2- | sed 's/\t/ -- /; s/^/#   /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
