# tests/netcase.sh — running a case in the lab of tests/netlab.sh (sourced after it):
#   jrun [SBX OPTIONS...] -- SCRIPT   bash SCRIPT in a jail of the lab, after a prelude
#                           (fetch, dns, lc, atk, pre, and a control fetch)
#   ran, jis, jre, jnre, jhost, refused, xerr, xerr_re, nothing_in: the checks on it
# Shared by t_egress and t_egress_attack.

# jrun [SBX OPTIONS...] -- SCRIPT: bash SCRIPT in a jail of the lab, after the
# prelude below; the logs are marked first (lab_new shows what the case caused).
jrun() {
	local opts=()
	while (($#)) && [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	{
		printf 'WS=%q\nCA=%q\n' "$WS" "$LAB_CA"
		cat <<'PRELUDE'
echo ran=1
# fetch KEY CURL-ARGS...: KEY_rc (curl's exit), KEY_code (HTTP), KEY_pcode (the
# proxy's CONNECT answer), KEY_xerr (X-Sbx-Error of any answer), KEY_body (first line)
fetch() {
	local k=$1 out
	shift
	out=$(curl -sS -m 20 --cacert "$CA" -D "/tmp/h.$k" -o "/tmp/b.$k" \
		-w '%{http_code} %{http_connect}' "$@" 2>"/tmp/e.$k")
	echo "${k}_rc=$?"
	echo "${k}_code=${out% *}"
	echo "${k}_pcode=${out#* }"
	echo "${k}_xerr=$(grep -i '^x-sbx-error:' "/tmp/h.$k" 2>/dev/null | tail -n 1 | cut -d: -f2- | tr -d ' \r')"
	echo "${k}_body=$(head -n 1 "/tmp/b.$k" 2>/dev/null)"
	echo "${k}_secret=$(grep -c metadata-secret "/tmp/b.$k" 2>/dev/null || echo 0)"
	echo "${k}_err=$(head -c 300 "/tmp/e.$k" | tr '\n' '|')"
}
# dns KEY NAME [TYPE]: KEY_status (NOERROR, NXDOMAIN, ..., or none), KEY_ans (first answer)
dns() {
	local k=$1 n=$2 t=${3:-A} o
	o=$(dig +tries=1 +time=3 "$t" "$n" 2>&1)
	echo "${k}_status=$(sed -n 's/.*status: \([A-Z]*\).*/\1/p' <<<"$o" | head -n 1)"
	echo "${k}_ans=$(awk -v t="$t" '/^;; ANSWER SECTION/ { f = 1; next } f && NF == 0 { f = 0 } f && $4 == t { print $5; exit }' <<<"$o")"
}
lc() { /usr/bin/python3 "$WS/labclient.py" "$@"; }
atk() { /usr/bin/python3 "$WS/attacklab.py" "$@"; }
# pre KEY CMD...: CMD's key=value lines, each key prefixed KEY_
pre() { local k=$1; shift; "$@" 2>&1 | sed "s/^/${k}_/"; }
# the control: an allowed fetch, directly
fetch ctl --noproxy '*' https://example.com/
PRELUDE
		printf '%s\n' "$1"
	} >"$WS/case.sh"
	lab_mark
	lab_sbx --workspace "$WS" "${opts[@]}" -- /bin/bash "$WS/case.sh"
}

# ran NAME: the last case's script ran, and its control fetch worked.
ran() {
	if ((HUNG)) || [[ $(kv ran 2>/dev/null) != 1 ]]; then
		t_fail "$1" "not tested, the jail did not run: $(run_info)"
		return 1
	fi
	if [[ $(kv ctl_code) != 200 || $(kv ctl_body) != "hello from web" ]]; then
		t_fail "$1" "not tested, the control (https://example.com/ directly) failed: code=$(kv ctl_code) err=$(kv ctl_err)"
		return 1
	fi
}

# jis NAME KEY VALUE / jre NAME KEY REGEX / jnre NAME KEY REGEX (present, not matching)
jis() {
	ran "$1" || return 0
	expect_kv "$@"
}

jre() {
	local got
	ran "$1" || return 0
	if ! got=$(kv "$2"); then
		t_fail "$1" "no $2 in the case's output: $(head -c 300 "$OUT" | tr '\n' '|')"
	elif [[ $got =~ $3 ]]; then
		t_ok "$1"
	else
		t_fail "$1" "$2=$got, expected /$3/ ($(kv "${2%_*}_err" 2>/dev/null))"
	fi
}

jnre() {
	local got
	ran "$1" || return 0
	if ! got=$(kv "$2"); then
		t_fail "$1" "no $2 in the case's output: $(head -c 300 "$OUT" | tr '\n' '|')"
	elif [[ $got =~ $3 ]]; then
		t_fail "$1" "$2=$got"
	else
		t_ok "$1"
	fi
}

# jhost NAME WHY CMD...: a host-side assertion about the last case.
jhost() {
	local name=$1 why=$2
	shift 2
	ran "$name" || return 0
	if "$@"; then t_ok "$name"; else t_fail "$name" "$why"; fi
}

# refused NAME KEY: the fetch KEY got no 2xx/3xx answer from a real server: curl
# failed (reset, closed, unresolved) or the broker answered 403.
refused() {
	ran "$1" || return 0
	local rc code body
	rc=$(kv "$2_rc") code=$(kv "$2_code") body=$(kv "$2_body")
	if [[ $rc != 0 || $code == 403 ]] && [[ $body != "hello from"* && $body != "ka host"* && $(kv "$2_secret") == 0 ]]; then
		t_ok "$1"
	else
		t_fail "$1" "not refused: rc=$rc code=$code body=$body"
	fi
}

# xerr NAME KEY CODE: the broker's 403 with X-Sbx-Error: CODE (a CONNECT's or a request's)
xerr() {
	ran "$1" || return 0
	local code pcode x
	code=$(kv "$2_code") pcode=$(kv "$2_pcode") x=$(kv "$2_xerr")
	if [[ ($code == 403 || $pcode == 403) && $x == "$3" && $(kv "$2_secret") == 0 ]]; then
		t_ok "$1"
	else
		t_fail "$1" "expected 403 X-Sbx-Error: $3; got code=$code connect=$pcode X-Sbx-Error=${x:-none} err=$(kv "$2_err")"
	fi
}

# xerr_re NAME KEY REGEX: a 403 whose X-Sbx-Error matches
xerr_re() {
	ran "$1" || return 0
	local code x
	code=$(kv "$2_code") x=$(kv "$2_xerr")
	if [[ $code == 403 && $x =~ $3 && $(kv "$2_secret") == 0 ]]; then
		t_ok "$1"
	else
		t_fail "$1" "expected 403 X-Sbx-Error /$3/; got code=$code X-Sbx-Error=${x:-none} body=$(kv "$2_body")"
	fi
}

nothing_in() { # LOG: the server's log got no line since the mark
	[[ -z $(lab_new "$1") ]]
}
