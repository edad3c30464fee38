#!/bin/bash
# Runs last: after the whole suite, no mount, cgroup or process of any test
# stays on the host. run.sh saved the "before" state in $SBX_STATE.
. "$(dirname "$0")/../lib.sh"
t_init

if [[ -z ${SBX_STATE:-} || ! -e $SBX_STATE/mounts ]]; then
	t_skip "leftovers" "no baseline (run through run.sh)"
	exit 0
fi

left=$(comm -13 "$SBX_STATE/mounts" <(host_mounts))
t_check "no mount left on the host" "new mounts: $(echo $left)" test -z "$left"

left=$(sbx_cgroups_left "$SBX_STATE/cgroups")
t_check "no sbx cgroup left on the host" "left: $(echo $left)" test -z "$left"

# Every test dir of this run is $SBX_TMPDIR/sbxt.$SBX_RUN_ID.*; whatever
# still runs with such a path in its command line was left behind.
pattern="sbxt\\.$SBX_RUN_ID\\."
left=$(pgrep -a -f -- "$pattern" | grep -v "$T")
t_check "no process of the suite left running" "left: $left" test -z "$left"
exit 0
