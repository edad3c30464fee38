# shellcheck shell=bash
# tests/compat/lib.sh — what every tests/compat/c_*.sh sources (after tests/lib.sh's
# t_init, which it runs): the same workload outside and inside the jail, as root and
# as an unprivileged user, and one row of the compatibility table (issue 14).
#
# A workload is run by each identity WHO (root, user) in its own workspace $(c_ws WHO):
#   c_out WHO CMD             outside: sh -c CMD in the workspace, as WHO, with the
#                             jail's environment (PATH, HOME, TERM, LANG, umask 022)
#   c_in  WHO [OPTS...] -- CMD  inside: sbx-run --workspace WS OPTS -- sh -c CMD, as WHO
# (C_DIR=DIR runs either in DIR instead of the workspace.)  Both leave stdout in $OUT, stderr in $ERR, the status in $RC (c_in through lib.sh's
# sbx).  The script reduces each run to a short summary (a string, e.g. "exit 0:
# hello 32"), then
#   c_compare WORKLOAD WHO OUTSIDE INSIDE [DETAIL]   ok when INSIDE == OUTSIDE
#   c_row WORKLOAD                                   the table row of both identities
#   c_skip WORKLOAD WHY                              a skipped row (the tool is absent)
#   c_same WORKLOAD CMD [all]                        all of that for one command line,
#                                                    its status and stdout compared
# The rows go to $SBX_COMPAT_TABLE (tests/compat/run.sh prints them as the table).
#
# The user is a system user made for the group, its home under $T (so no real home is
# touched, and the build profile's caches land there); root's home for outside runs is
# a fresh directory under $T too.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
t_init

C_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
C_USER=sbxc$$
if ! t_user "$C_USER" "$T/home"; then
	t_fail "setup" "cannot create the test user $C_USER (useradd)"
	exit 0
fi
C_UID=$(id -u "$C_USER")
mkdir -p "$T/home/ws" "$T/roothome" "$T/root-ws"
chown -R "$C_UID:$C_UID" "$T/home"
declare -A C_CELL

# The workspace and the home of WHO (root or user).
c_ws() { if [[ $1 == root ]]; then echo "$T/root-ws"; else echo "$T/home/ws"; fi; }
c_home() { if [[ $1 == root ]]; then echo "$T/roothome"; else echo "$T/home"; fi; }

# as WHO CMD...: CMD as WHO on the host, with the jail's environment.
as() {
	local who=$1 pre=()
	shift
	[[ $who == user ]] && pre=(setpriv "--reuid=$C_UID" "--regid=$C_UID" --clear-groups)
	"${pre[@]}" env -i PATH="$C_PATH" HOME="$(c_home "$who")" TERM=dumb LANG=C.UTF-8 "$@"
}

# c_have TOOL WORKLOAD: 0 when TOOL is installed, else a skipped row.
c_have() {
	if command -v "$1" >/dev/null 2>&1; then
		return 0
	fi
	c_skip "$2" "$1 is not installed on this host (make deps installs it)"
	return 1
}

c_out() {
	local who=$1 cmd=$2 t0
	t0=$(_now_us)
	(cd "${C_DIR:-$(c_ws "$who")}" && umask 022 && as "$who" timeout -k 5 "$SBX_HANG" sh -c "$cmd") >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
}

c_in() {
	local who=$1 opts=()
	shift
	while (($#)) && [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	if [[ $who == user ]]; then
		SBX_AS=$C_UID sbx --workspace "${C_DIR:-$(c_ws "$who")}" "${opts[@]}" -- sh -c "$1"
	else
		SBX_AS="" sbx --workspace "${C_DIR:-$(c_ws "$who")}" "${opts[@]}" -- sh -c "$1"
	fi
}

# One line of text for a message or a cell.
c_line() { printf '%s' "$1" | head -c "${2:-200}" | tr '\n\t' '| '; }

c_compare() {
	local workload=$1 who=$2 outside=$3 inside=$4 detail=${5:-}
	C_CELL[$workload,$who,out]=$outside
	if [[ $inside == "$outside" ]]; then
		C_CELL[$workload,$who,in]=$inside
		t_ok "$workload, as $who: inside as outside ($(c_line "$inside" 120))"
	else
		C_CELL[$workload,$who,in]="DIFFERS: $inside"
		t_fail "$workload, as $who: inside as outside" \
			"outside: $(c_line "$outside" 300); inside: $(c_line "$inside" 300)${detail:+; $(c_line "$detail" 400)}"
	fi
}

# c_cell WORKLOAD WHO out|in TEXT: a cell set by hand (a result that is no comparison).
c_cell() { C_CELL[$1,$2,$3]=$4; }

# The table row: the outside cell is root's, and the user's too when it differs.
c_row() {
	local w=$1 out_root=${C_CELL[$1,root,out]:-not run} out_user=${C_CELL[$1,user,out]:-not run} outside
	outside=$out_root
	[[ $out_user != "$out_root" ]] && outside="root: $out_root; user: $out_user"
	[[ -n ${SBX_COMPAT_TABLE:-} ]] &&
		printf '%s\t%s\t%s\t%s\n' "$w" "$(c_line "$outside" 160)" "$(c_line "${C_CELL[$w,root,in]:-not run}" 160)" \
			"$(c_line "${C_CELL[$w,user,in]:-not run}" 160)" >>"$SBX_COMPAT_TABLE"
	return 0
}

c_skip() {
	t_skip "$1" "$2"
	[[ -n ${SBX_COMPAT_TABLE:-} ]] && printf '%s\tskipped: %s\t-\t-\n' "$1" "$2" >>"$SBX_COMPAT_TABLE"
	return 0
}

# The summary of the last run: "exit N: first line of stdout"; with "all", followed by
# the first 8 hex digits of the SHA-256 of all of stdout (the cell stays short, and
# the comparison covers every line).
c_summary() {
	if [[ ${1:-} == all ]]; then
		echo "exit $RC: $(head -n 1 "$OUT") [stdout $(sha256sum <"$OUT" | head -c 8)]"
	else
		echo "exit $RC: $(head -n 1 "$OUT")"
	fi
}

# c_same WORKLOAD CMD [all]: CMD outside and inside (the workspace profile), as root
# and as the user; their status and first line of stdout (with "all": and a digest of
# all of it) compared; the row.
c_same() {
	local w=$1 cmd=$2 how=${3:-} who outside o_err
	for who in root user; do
		c_out $who "$cmd"
		outside=$(c_summary ${how:+"$how"}) o_err=$(head -c 300 "$ERR")
		c_in $who -- "$cmd"
		c_compare "$w" $who "$outside" "$(c_summary ${how:+"$how"})" "outside stderr: $o_err; inside: $(run_info)"
	done
	c_row "$w"
}
